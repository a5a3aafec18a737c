//! 32-byte little-endian encoding and the errors for bad input.

mod common;

use ark_ff::{BigInt, PrimeField};
use common::SplitMix;
use poseidon::encoding::{from_bytes, from_hex, to_bytes, to_hex};
use poseidon::{Error, FieldId, Fp, Fq, ParamSet, PastaField};

fn modulus_bytes<F: PrimeField<BigInt = BigInt<4>>>() -> [u8; 32] {
    let mut out = [0u8; 32];
    for (c, l) in out.chunks_exact_mut(8).zip(F::MODULUS.0) {
        c.copy_from_slice(&l.to_le_bytes());
    }
    out
}

fn round_trip_and_bounds<F: PastaField<BigInt = BigInt<4>>>(seed: u64) {
    let mut rng = SplitMix(seed);
    for _ in 0..200 {
        let x: F = rng.element();
        assert_eq!(from_bytes::<F>(&to_bytes(x)), Ok(x));
        assert_eq!(from_hex::<F>(&to_hex(x)), Ok(x));
        assert_eq!(from_hex::<F>(&to_hex(x).to_uppercase()), Ok(x));
    }
    // Little-endian: 1 is 0x01 then zeros.
    assert_eq!(to_hex(F::from(1u64)), format!("01{}", "00".repeat(31)));
    assert_eq!(
        to_hex(F::from(0x0203u64)),
        format!("0302{}", "00".repeat(30))
    );
    // p - 1 is the largest canonical value; p, p + 1 and 2^256 - 1 are not canonical.
    let p = modulus_bytes::<F>();
    let mut p_minus_1 = p;
    p_minus_1[0] -= 1;
    assert_eq!(from_bytes::<F>(&p_minus_1), Ok(-F::from(1u64)));
    let mut p_plus_1 = p;
    p_plus_1[0] += 1;
    for bad in [p, p_plus_1, [0xff; 32]] {
        assert_eq!(from_bytes::<F>(&bad), Err(Error::NonCanonical(F::ID)));
    }
}

#[test]
fn encoding_fp() {
    round_trip_and_bounds::<Fp>(20);
}

#[test]
fn encoding_fq() {
    round_trip_and_bounds::<Fq>(21);
}

#[test]
fn an_fq_value_above_p_is_canonical_only_in_fq() {
    // p < q, so p itself is an Fq element but not an Fp element.
    let p = modulus_bytes::<Fp>();
    assert!(from_bytes::<Fq>(&p).is_ok());
    assert_eq!(from_bytes::<Fp>(&p), Err(Error::NonCanonical(FieldId::Fp)));
}

#[test]
fn decoding_errors_say_what_is_wrong() {
    let cases: [(&str, Error, &str); 5] = [
        ("abc", Error::OddHexLength(3), "odd number of hex digits"),
        (
            "00zz",
            Error::InvalidHexDigit {
                position: 2,
                found: 'z',
            },
            "invalid hex digit 'z' at position 2",
        ),
        (
            "0x00",
            Error::InvalidHexDigit {
                position: 1,
                found: 'x',
            },
            "invalid hex digit",
        ),
        (
            "00",
            Error::WrongLength {
                expected: 32,
                found: 1,
            },
            "32 bytes (64 hex digits), got 1",
        ),
        (
            "",
            Error::WrongLength {
                expected: 32,
                found: 0,
            },
            "got 0 bytes",
        ),
    ];
    for (input, err, words) in cases {
        let got = from_hex::<Fp>(input).unwrap_err();
        assert_eq!(got, err, "{input:?}");
        assert!(got.to_string().contains(words), "{got} lacks {words:?}");
    }
    let long = "00".repeat(33);
    assert_eq!(
        from_hex::<Fp>(&long),
        Err(Error::WrongLength {
            expected: 32,
            found: 33
        })
    );
    assert!(from_hex::<Fp>("é").unwrap_err().to_string().contains("'é'"));
    let nc = from_hex::<Fp>(&"ff".repeat(32)).unwrap_err().to_string();
    assert!(nc.contains("not a canonical element of fp"), "{nc}");
}

#[test]
fn names_parse_and_reject() {
    assert_eq!("kimchi".parse::<ParamSet>(), Ok(ParamSet::Kimchi));
    assert_eq!("legacy".parse::<ParamSet>(), Ok(ParamSet::Legacy));
    assert_eq!("fq".parse::<FieldId>(), Ok(FieldId::Fq));
    let e = "poseidon2".parse::<ParamSet>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown parameter set \"poseidon2\" (expected kimchi or legacy)"
    );
    let e = "fr".parse::<FieldId>().unwrap_err();
    assert_eq!(e.to_string(), "unknown field \"fr\" (expected fp or fq)");
}
