//! The generated constants, assembled into [`Params`] per set and field.

pub(crate) mod kimchi_fp;
pub(crate) mod kimchi_fq;
pub(crate) mod legacy_fp;
pub(crate) mod legacy_fq;

use super::{ParamSet, Params};
use crate::{Fp, Fq};

pub(crate) static KIMCHI_FP: Params<Fp> = Params {
    set: ParamSet::Kimchi,
    round_constants: &kimchi_fp::ROUND_CONSTANTS,
    mds: kimchi_fp::MDS,
};

pub(crate) static KIMCHI_FQ: Params<Fq> = Params {
    set: ParamSet::Kimchi,
    round_constants: &kimchi_fq::ROUND_CONSTANTS,
    mds: kimchi_fq::MDS,
};

pub(crate) static LEGACY_FP: Params<Fp> = Params {
    set: ParamSet::Legacy,
    round_constants: &legacy_fp::ROUND_CONSTANTS,
    mds: legacy_fp::MDS,
};

pub(crate) static LEGACY_FQ: Params<Fq> = Params {
    set: ParamSet::Legacy,
    round_constants: &legacy_fq::ROUND_CONSTANTS,
    mds: legacy_fq::MDS,
};
