//! What o1js hashes off-chain beyond [`crate::hash`], bit-for-bit: salted hashes
//! ([`salt`], [`hash_with_prefix`], and [`Salted`] for many with one prefix), the length-tagged hash ([`hash_any_length`]),
//! packed inputs ([`pack_to_fields`], [`hash_packed`], [`pack_to_fields_legacy`]),
//! list commitments ([`merkle_list_hash`]), token ids ([`derive_token_id`]) and
//! the commitments a zkApp transaction is signed with ([`call_forest_hash`],
//! [`full_commitment`]; module `transaction`).
//! Each takes the parameter set where o1js has both (`Poseidon` is
//! [`ParamSet::Kimchi`], mina-signer's `HashLegacy` is [`ParamSet::Legacy`]).
//!
//! ```
//! use poseidon::{o1js, Fp, ParamSet};
//! // o1js: Poseidon.hashWithPrefix("MinaZkappEvent******", [Field(1), Field(2)])
//! let h: Fp = o1js::hash_with_prefix(ParamSet::Kimchi, "MinaZkappEvent******", &[Fp::from(1u64), Fp::from(2u64)])?;
//! // o1js: Poseidon.hashPacked(type, value), given type.toInput(value)
//! let packed: Fp = o1js::hash_packed(&[Fp::from(7u64)], &[(Fp::from(1u64), 1), (Fp::from(5u64), 64)])?;
//! # let _ = (h, packed);
//! # Ok::<(), poseidon::Error>(())
//! ```

use ark_ff::BigInteger;

use crate::backend::PastaField;
use crate::error::Error;
use crate::params::{ParamSet, WIDTH};
use crate::sponge::Sponge;

/// o1js's `prefixToField`: the prefix's bytes, little-endian, as an element. At
/// most 31 characters, ASCII only (o1js's rules); no `*` padding is added.
pub fn prefix_to_field<F: PastaField>(prefix: &str) -> Result<F, Error> {
    if let Some(position) = prefix.chars().position(|c| !c.is_ascii()) {
        return Err(Error::PrefixNotAscii { position });
    }
    if prefix.len() > 31 {
        return Err(Error::PrefixTooLong(prefix.len()));
    }
    Ok(F::from_le_bytes_mod_order(prefix.as_bytes()))
}

/// o1js's `salt(prefix)`: the state after absorbing `prefix_to_field(prefix)` into
/// a fresh sponge and permuting (`Poseidon.update([0, 0, 0], [prefix])`).
pub fn salt<F: PastaField>(set: ParamSet, prefix: &str) -> Result<[F; WIDTH], Error> {
    Ok(update(set, [F::zero(); WIDTH], &[prefix_to_field(prefix)?]))
}

/// o1js's `Poseidon.update(state, inputs)`: absorb the inputs two at a time (the
/// last pair zero-padded), permuting after each pair; no inputs permute once.
pub fn update<F: PastaField>(set: ParamSet, state: [F; WIDTH], inputs: &[F]) -> [F; WIDTH] {
    let mut sponge = Sponge::<F>::from_state(set, state);
    sponge.absorb(inputs);
    sponge.squeeze();
    sponge.state()
}

/// o1js's `Poseidon.hashWithPrefix(prefix, inputs)`: `update(salt(prefix), inputs)[0]`
/// (the salt computed for this call; [`Salted`] keeps it for many).
pub fn hash_with_prefix<F: PastaField>(
    set: ParamSet,
    prefix: &str,
    inputs: &[F],
) -> Result<F, Error> {
    Ok(Salted::new(set, prefix)?.hash(inputs))
}

/// A prefix's salt, computed once, for many salted hashes: [`hash_with_prefix`]
/// computes the salt on every call (one permutation more than the hash's own);
/// `Salted::hash` starts from the stored state, as o1js's cached salts do.
///
/// ```
/// use poseidon::{o1js, Fp, ParamSet};
/// let events = o1js::Salted::<Fp>::new(ParamSet::Kimchi, "MinaZkappEvent******")?;
/// let x = [Fp::from(1u64), Fp::from(2u64)];
/// assert_eq!(events.hash(&x), o1js::hash_with_prefix(ParamSet::Kimchi, "MinaZkappEvent******", &x)?);
/// # Ok::<(), poseidon::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Salted<F: PastaField> {
    set: ParamSet,
    state: [F; WIDTH],
}

impl<F: PastaField> Salted<F> {
    /// The salt of `prefix` ([`salt`]).
    pub fn new(set: ParamSet, prefix: &str) -> Result<Self, Error> {
        Ok(Salted {
            set,
            state: salt(set, prefix)?,
        })
    }

    /// `hash_with_prefix(set, prefix, inputs)` from the stored salt.
    pub fn hash(&self, inputs: &[F]) -> F {
        update(self.set, self.state, inputs)[0]
    }

    /// The salt state.
    pub fn state(&self) -> [F; WIDTH] {
        self.state
    }
}

/// o1js's `emptyHashWithPrefix(prefix)`: `salt(prefix)[0]`, not
/// `hash_with_prefix(prefix, [])` (which permutes once more).
pub fn empty_hash_with_prefix<F: PastaField>(set: ParamSet, prefix: &str) -> Result<F, Error> {
    Ok(salt::<F>(set, prefix)?[0])
}

/// o1js's `Poseidon.hashAnyLength(inputs)`: `hash([...inputs, length])`, so inputs
/// that differ only by trailing zeros do not collide.
pub fn hash_any_length<F: PastaField>(set: ParamSet, inputs: &[F]) -> F {
    let mut sponge = Sponge::<F>::new(set);
    sponge.absorb(inputs);
    sponge.absorb(&[F::from(inputs.len() as u64)]);
    sponge.squeeze()
}

/// o1js's `packToFields({ fields, packed })`: the fields, then the `(value, bits)`
/// pairs concatenated, most significant first, into as few elements as hold them
/// with fewer than 255 bits each. Each value must fit its bits, 1 to 254.
pub fn pack_to_fields<F: PastaField>(fields: &[F], packed: &[(F, u32)]) -> Result<Vec<F>, Error> {
    let mut out = fields.to_vec();
    if packed.is_empty() {
        return Ok(out);
    }
    let mut current = F::zero();
    let mut size = 0u32;
    for (index, &(value, bits)) in packed.iter().enumerate() {
        if !(1..=254).contains(&bits) || value.into_bigint().num_bits() > bits {
            return Err(Error::PackedValue { index, bits });
        }
        size += bits;
        if size < 255 {
            // current < 2^(size − bits), so the shift stays below 2^254 < p.
            current = current * F::from(2u64).pow([u64::from(bits)]) + value;
        } else {
            out.push(current);
            current = value;
            size = bits;
        }
    }
    out.push(current);
    Ok(out)
}

/// o1js's `Poseidon.hashPacked(type, value)` given `type.toInput(value)`:
/// `hash(pack_to_fields(fields, packed))` with the kimchi parameters.
pub fn hash_packed<F: PastaField>(fields: &[F], packed: &[(F, u32)]) -> Result<F, Error> {
    Ok(crate::hash(
        ParamSet::Kimchi,
        &pack_to_fields(fields, packed)?,
    ))
}

/// mina-signer's `packToFieldsLegacy({ fields, bits })`: the fields, then the bits
/// (least significant first) in elements of 254 bits, the last one shorter.
pub fn pack_to_fields_legacy<F: PastaField>(fields: &[F], bits: &[bool]) -> Vec<F> {
    let mut out = fields.to_vec();
    out.extend(bits.chunks(254).map(|chunk| {
        let mut bytes = [0u8; 32];
        for (i, &b) in chunk.iter().enumerate() {
            bytes[i / 8] |= u8::from(b) << (i % 8);
        }
        F::from_le_bytes_mod_order(&bytes)
    }));
    out
}

/// o1js's default `MerkleList` step: `hashWithPrefix(prefix, [previous,
/// ...element])`, `element` being the element's packed fields (`pack_to_fields` of
/// its `toInput()`; a `Field` element is itself). A list's hash starts at 0 and
/// takes this step per push.
pub fn merkle_list_hash<F: PastaField>(
    prefix: &str,
    previous: F,
    element: &[F],
) -> Result<F, Error> {
    let mut sponge = Sponge::<F>::from_state(ParamSet::Kimchi, salt(ParamSet::Kimchi, prefix)?);
    sponge.absorb(&[previous]);
    sponge.absorb(element);
    Ok(sponge.squeeze())
}

/// o1js's `TokenId.derive(owner, parent)`: the token id of the public key `(x,
/// is_odd)` (its x coordinate and the parity of y) under `parent` (1 for MINA).
pub fn derive_token_id<F: PastaField>(x: F, is_odd: bool, parent: F) -> F {
    let fields = [x, parent, F::from(u64::from(is_odd))];
    hash_with_prefix(ParamSet::Kimchi, "MinaDeriveTokenId***", &fields).expect("a valid prefix")
}

mod transaction;
pub use transaction::{
    account_update_hash, call_forest_hash, full_commitment, memo_from_text, memo_hash,
    zkapp_body_prefix, AccountUpdateInput, MEMO_BYTES,
};
