//! Field elements as bytes and hex: 32 bytes, little-endian (lowest byte first),
//! as in Mina's test vectors. Decoding accepts only canonical values (< modulus).

use ark_ff::{BigInt, PrimeField};

use crate::backend::PastaField;
use crate::Error;

/// Bytes in an encoded field element.
pub const ELEMENT_BYTES: usize = 32;

/// Encodes `x` as 32 little-endian bytes.
pub fn to_bytes<F: PrimeField<BigInt = BigInt<4>>>(x: F) -> [u8; ELEMENT_BYTES] {
    let mut out = [0u8; ELEMENT_BYTES];
    for (chunk, limb) in out.chunks_exact_mut(8).zip(x.into_bigint().0) {
        chunk.copy_from_slice(&limb.to_le_bytes());
    }
    out
}

/// Decodes 32 little-endian bytes; rejects other lengths and values ≥ the modulus.
pub fn from_bytes<F: PastaField<BigInt = BigInt<4>>>(bytes: &[u8]) -> Result<F, Error> {
    if bytes.len() != ELEMENT_BYTES {
        return Err(Error::WrongLength {
            expected: ELEMENT_BYTES,
            found: bytes.len(),
        });
    }
    let mut limbs = [0u64; 4];
    for (limb, chunk) in limbs.iter_mut().zip(bytes.chunks_exact(8)) {
        *limb = u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
    }
    F::from_bigint(BigInt(limbs)).ok_or(Error::NonCanonical(F::ID))
}

/// Encodes `x` as 64 lower-case hex digits of its little-endian bytes.
pub fn to_hex<F: PrimeField<BigInt = BigInt<4>>>(x: F) -> String {
    to_bytes(x).iter().map(|b| format!("{b:02x}")).collect()
}

/// Decodes hex (either case, no prefix) of 32 little-endian bytes.
pub fn from_hex<F: PastaField<BigInt = BigInt<4>>>(s: &str) -> Result<F, Error> {
    from_bytes(&hex_to_bytes(s)?)
}

/// Hex digits to bytes, with an error naming the first problem.
pub fn hex_to_bytes(s: &str) -> Result<Vec<u8>, Error> {
    let mut digits = Vec::with_capacity(s.len());
    for (position, c) in s.chars().enumerate() {
        let d = c
            .to_digit(16)
            .ok_or(Error::InvalidHexDigit { position, found: c })?;
        digits.push(d as u8);
    }
    if digits.len() % 2 != 0 {
        return Err(Error::OddHexLength(digits.len()));
    }
    Ok(digits.chunks_exact(2).map(|p| (p[0] << 4) | p[1]).collect())
}
