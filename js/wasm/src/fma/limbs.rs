//! The kernels' limbs: a value below 2^256 as five 52-bit limbs (the last holds
//! 48 bits), from and to four 64-bit words. Plain integer code, tested natively.

/// Splits 4×64-bit words into five 52-bit limbs (the top one takes 48 bits).
pub(super) fn split52(w: &[u64; 4]) -> [u64; 5] {
    let mask = (1u64 << 52) - 1;
    [
        w[0] & mask,
        (w[0] >> 52 | w[1] << 12) & mask,
        (w[1] >> 40 | w[2] << 24) & mask,
        (w[2] >> 28 | w[3] << 36) & mask,
        w[3] >> 16,
    ]
}

/// Joins five normalized 52-bit limbs of a value below 2^256 into 4×64-bit words.
pub(super) fn join52(l: &[u64; 5]) -> [u64; 4] {
    [
        l[0] | l[1] << 52,
        l[1] >> 12 | l[2] << 40,
        l[2] >> 24 | l[3] << 28,
        l[3] >> 36 | l[4] << 16,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limbs_regroup_both_ways() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for w in [[0; 4], [u64::MAX; 4], [1, 0, 0, 1 << 63]]
            .into_iter()
            .chain((0..1000).map(|_| [next(), next(), next(), next()]))
        {
            let l = split52(&w);
            assert!(
                l[..4].iter().all(|x| *x < 1 << 52) && l[4] < 1 << 48,
                "{l:?}"
            );
            assert_eq!(join52(&l), w);
        }
    }
}
