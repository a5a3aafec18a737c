//! The crate's four parameter sets in the `u29` representations, converted at
//! compile time, with the rescaled rounds specialised to each.

use super::element::{convert, Fe29};
use super::rounds::{rescaled_mds, rescaled_rows, rounds_rescaled, Rescaled};
use super::simd::{permute_x4_rescaled, wrap, Fe29x2, OwnSets29};
use crate::backend::common::{own_set, Pallas, Vesta};
use crate::field::FieldArith;
use crate::params::{rescale, tables, ParamSet, Params, WIDTH};

/// Converts one generated table once at compile time; both `u29` element types use it.
macro_rules! u29_params {
    ($name:ident, $x2name:ident, $modulus:ty, $set:expr, $table:ident, $rescale:ident, $alpha:expr) => {
        pub(super) mod $table {
            use super::*;
            pub(crate) const ROUND_CONSTANTS: [[Fe29<$modulus>; WIDTH];
                tables::$table::ROUND_CONSTANTS.len()] = convert(&tables::$table::ROUND_CONSTANTS);
            pub(crate) const MDS: [[Fe29<$modulus>; WIDTH]; WIDTH] = convert(&tables::$table::MDS);
            const R: rescale::Rescaling<<Fe29<$modulus> as FieldArith>::Field> = rescale::$rescale;
            const D: [Fe29<$modulus>; WIDTH] = convert(&[R.d])[0];
            const D_INV: [Fe29<$modulus>; WIDTH] = convert(&[R.d_inv])[0];
            static ROWS: [[Fe29<$modulus>; WIDTH]; ROUND_CONSTANTS.len()] =
                rescaled_rows(&ROUND_CONSTANTS, &D);
            pub(crate) static RESCALED: Rescaled<$modulus> = Rescaled {
                d: D,
                d_inv: D_INV,
                mds: rescaled_mds(&MDS, &D, &D_INV, $alpha),
                rows: &ROWS,
            };
            /// The rescaled rounds for this set (its columns and shifts as constants).
            pub(crate) fn rounds(
                params: &Params<Fe29<$modulus>>,
                state: &mut [Fe29<$modulus>; WIDTH],
            ) {
                rounds_rescaled::<
                    $modulus,
                    { $set as u8 },
                    { R.column[0] },
                    { R.column[1] },
                    { R.column[2] },
                    { R.limb_shift[0] },
                    { R.limb_shift[1] },
                    { R.limb_shift[2] },
                >(params, &RESCALED, state)
            }
            /// The rescaled four-lane rounds for this set.
            pub(crate) fn rounds_x4(
                params: &Params<Fe29<$modulus>>,
                states: &mut [[Fe29<$modulus>; WIDTH]; 4],
            ) {
                permute_x4_rescaled::<
                    $modulus,
                    { R.column[0] },
                    { R.column[1] },
                    { R.column[2] },
                    { R.limb_shift[0] },
                    { R.limb_shift[1] },
                    { R.limb_shift[2] },
                >(params, &RESCALED, states)
            }
        }
        pub(super) static $name: Params<Fe29<$modulus>> = Params {
            set: $set,
            round_constants: &$table::ROUND_CONSTANTS,
            mds: $table::MDS,
        };
        pub(super) static $x2name: Params<Fe29x2<$modulus>> = Params {
            set: $set,
            round_constants: &wrap($table::ROUND_CONSTANTS),
            mds: wrap($table::MDS),
        };
    };
}

u29_params!(
    KIMCHI_FP,
    KIMCHI_FP_X2,
    Pallas,
    ParamSet::Kimchi,
    kimchi_fp,
    KIMCHI_FP,
    7
);
u29_params!(
    KIMCHI_FQ,
    KIMCHI_FQ_X2,
    Vesta,
    ParamSet::Kimchi,
    kimchi_fq,
    KIMCHI_FQ,
    7
);
u29_params!(
    LEGACY_FP,
    LEGACY_FP_X2,
    Pallas,
    ParamSet::Legacy,
    legacy_fp,
    LEGACY_FP,
    5
);
u29_params!(
    LEGACY_FQ,
    LEGACY_FQ_X2,
    Vesta,
    ParamSet::Legacy,
    legacy_fq,
    LEGACY_FQ,
    5
);

/// The dispatch of [`permute_x4`](super::permute_x4) to the rescaled rounds of
/// the crate's own two sets for a modulus.
macro_rules! own_sets29 {
    ($modulus:ty, $kimchi:ident, $legacy:ident, $kimchi_t:ident, $legacy_t:ident) => {
        impl OwnSets29 for $modulus {
            fn permute_x4_own(
                params: &Params<Fe29<Self>>,
                states: &mut [[Fe29<Self>; WIDTH]; 4],
            ) -> bool {
                match own_set(params, &$kimchi, &$legacy) {
                    Some(ParamSet::Kimchi) => $kimchi_t::rounds_x4(params, states),
                    Some(ParamSet::Legacy) => $legacy_t::rounds_x4(params, states),
                    None => return false,
                }
                true
            }
        }
    };
}

own_sets29!(Pallas, KIMCHI_FP, LEGACY_FP, kimchi_fp, legacy_fp);
own_sets29!(Vesta, KIMCHI_FQ, LEGACY_FQ, kimchi_fq, legacy_fq);
