//! A diagonal rescaling of the state that turns one MDS entry per row into a
//! power of two, so the linear layer needs six field products instead of nine.
//!
//! With u_i = d_i·s_i the round s ↦ M·s^α + k becomes u ↦ M'·u^α + D·k with
//! M'_ij = d_i·M_ij·d_j^−α (the S-box commutes with a diagonal scaling up to
//! d ↦ d^α). The d_i are chosen so that in row i the entry in column
//! `column[i]` is 2^(−29·limb_shift[i]); a backend with 29-bit limbs and
//! R = 2^261 adds that term by placing the limbs of u_j in its product columns
//! instead of multiplying. A permutation converts in (multiply by d_i) and out
//! (by d_i⁻¹): six products against 55 × 3 saved.
//!
//! How the d_i were found: for each assignment of columns (a permutation σ) and
//! targets 2^(−29·t), every cycle i₀ → σ(i₀) → … of length L gives
//! d_{i₀}^(α^L − 1) = a known constant, solvable when that constant is an
//! (α^L − 1)-th power; `xtask/py/find-rescaling.py` searches and takes the roots.
//! The tests below check the defining property with ark-ff, so the constants
//! stand on their own.

use ark_ff::MontFp;

use crate::{Fp, Fq};

/// One set's rescaling (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rescaling<F: 'static> {
    /// Row i's power-of-two entry is in column `column[i]` (a permutation).
    pub column: [usize; 3],
    /// That entry is 2^(−29·limb_shift[i]).
    pub limb_shift: [usize; 3],
    /// The scale factors.
    pub d: [F; 3],
    /// Their inverses.
    pub d_inv: [F; 3],
}

/// Kimchi over Fp.
pub(crate) const KIMCHI_FP: Rescaling<Fp> = Rescaling {
    column: [1, 2, 0],
    limb_shift: [1, 0, 0],
    d: [
        MontFp!("4767089088131269156160490761542545996594606945804462858156338531948557911454"),
        MontFp!("26769480984503222499688206512091503486808668230937701031734340838559634124991"),
        MontFp!("28616318196022749310275733206020142931443010743420848880906983581445808804240"),
    ],
    d_inv: [
        MontFp!("14760625969052406384708912620163081265400230425864253793460398995845876911880"),
        MontFp!("14389597734383212970056821250326800322566042677929130556436823645765042304193"),
        MontFp!("20499043265210367223392487969346737496880338266876363692733853366982847220814"),
    ],
};

/// Kimchi over Fq.
pub(crate) const KIMCHI_FQ: Rescaling<Fq> = Rescaling {
    column: [1, 2, 0],
    limb_shift: [0, 1, 0],
    d: [
        MontFp!("926926425079080838404081395798303968899914075618284606451960634484139101477"),
        MontFp!("27880794076330386049641777865375698954596073951151760044245983891287870848848"),
        MontFp!("27887090298192833767725876667478963041259256850774268382642129491643727701317"),
    ],
    d_inv: [
        MontFp!("27839862140778479526491067167625718472271904579377642013511129336352916250382"),
        MontFp!("3874342252246879345640668962807457976553478523433079238701018620517082364038"),
        MontFp!("20587993341740401345031331105701173946534664797649013316488606770155550038109"),
    ],
};

/// Legacy over Fp.
pub(crate) const LEGACY_FP: Rescaling<Fp> = Rescaling {
    column: [1, 2, 0],
    limb_shift: [0, 0, 0],
    d: [
        MontFp!("3216930445405526736883061718875939625178758825127717615230234160978560392294"),
        MontFp!("10658716382756663433861525975143404478615745748145023507117545556658034287158"),
        MontFp!("11537592287642437173626002050562810105161192308463461188104669077164092865224"),
    ],
    d_inv: [
        MontFp!("7808158915690889340509138408557103982295329373444236707216471996919524705795"),
        MontFp!("20227033726456124134919640851556369275050010015284936156024154845058288791671"),
        MontFp!("13583379898172768199296058250534439774848966832341261485753283297241489523902"),
    ],
};

/// Legacy over Fq.
pub(crate) const LEGACY_FQ: Rescaling<Fq> = Rescaling {
    column: [2, 0, 1],
    limb_shift: [0, 0, 0],
    d: [
        MontFp!("4317025624727867663530143326669566115179736151351362172474760690781177898467"),
        MontFp!("8631441089884289908594865726899286966710674648715292987113702068109767339926"),
        MontFp!("17201740977818530649674037601618127270422478061115364132096429214279079649114"),
    ],
    d_inv: [
        MontFp!("14053619774135506086022095916954155327791970549035468198949151392785542124546"),
        MontFp!("19450567626390393845416589834052978098279790533592223768099064439219606675221"),
        MontFp!("28298905579218061169485790033206058985791509885883797880355441524301085630943"),
    ],
};
#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{ParamSet, Sbox, WIDTH};
    use crate::{FieldArith, PastaField};

    fn holds<F: PastaField + FieldArith<Field = F>>(set: ParamSet, r: &Rescaling<F>) {
        let alpha: u64 = match set.sbox() {
            Sbox::Pow5 => 5,
            Sbox::Pow7 => 7,
        };
        let mds = F::params(set).mds;
        let two29_inv = F::from(1u64 << 29).inverse().unwrap();
        let mut seen = [false; WIDTH];
        for (i, row) in mds.iter().enumerate() {
            assert_eq!(r.d[i] * r.d_inv[i], F::one());
            let j = r.column[i];
            seen[j] = true;
            let entry = r.d[i] * row[j] * r.d_inv[j].pow([alpha]);
            let want = two29_inv.pow([r.limb_shift[i] as u64]);
            assert_eq!(entry, want, "{set} row {i}");
        }
        assert_eq!(seen, [true; WIDTH], "the columns are a permutation");
    }

    #[test]
    fn each_row_gets_a_power_of_two() {
        holds(ParamSet::Kimchi, &KIMCHI_FP);
        holds(ParamSet::Kimchi, &KIMCHI_FQ);
        holds(ParamSet::Legacy, &LEGACY_FP);
        holds(ParamSet::Legacy, &LEGACY_FQ);
    }
}
