//! The hashes that sign a zkApp transaction, as mina-signer's
//! `transactionCommitments` computes them: each account update's hash from its
//! packed input ([`account_update_hash`]), the call forest's hash from those and
//! the call depths ([`call_forest_hash`], the `commitment`), the memo's hash
//! ([`memo_hash`]) and the `fullCommitment` over memo, fee payer and forest
//! ([`full_commitment`]).
//!
//! An account update's input (`AccountUpdate.toInput`, some 20 fields and 120
//! packed values) follows Mina's layout of its body, which o1js generates; this
//! module takes it as o1js gives it rather than laying the body out again.
//!
//! ```
//! use poseidon::{o1js, Fp};
//! // Two account updates, the second a child of the first; their inputs as o1js's
//! // AccountUpdate.toInput gives them (here: made-up short ones).
//! let a = o1js::account_update_hash("testnet", &[Fp::from(1u64)], &[(Fp::from(1u64), 1)])?;
//! let b = o1js::account_update_hash("testnet", &[Fp::from(2u64)], &[])?;
//! let commitment: Fp = o1js::call_forest_hash(&[(a, 0), (b, 1)])?;
//! let memo: Fp = o1js::memo_hash(&o1js::memo_from_text("hello")?);
//! let fee_payer = o1js::account_update_hash("testnet", &[Fp::from(3u64)], &[])?;
//! let full = o1js::full_commitment(memo, fee_payer, commitment);
//! # let _ = full;
//! # Ok::<(), poseidon::Error>(())
//! ```

use super::{hash_with_prefix, pack_to_fields, pack_to_fields_legacy, Salted};
use crate::backend::PastaField;
use crate::error::Error;
use crate::params::ParamSet;

/// Bytes of an encoded memo: 1, the text's length, the text, zeros.
pub const MEMO_BYTES: usize = 34;

const NODE: &str = "MinaAcctUpdateNode**";
const CONS: &str = "MinaAcctUpdateCons**";
const MEMO: &str = "MinaZkappMemo*******";

/// An account update's input as o1js's `AccountUpdate.toInput` gives it, with its
/// call depth: `(fields, packed, call_depth)`.
pub type AccountUpdateInput<'a, F> = (&'a [F], &'a [(F, u32)], usize);

/// mina-signer's `zkAppBodyPrefix(network)`: `MainnetZkappBody****` for
/// `mainnet`, `TestnetZkappBody****` for `devnet` and `testnet`, else the
/// network's name and `ZkappBody`, `*`-padded or cut to 20 characters.
pub fn zkapp_body_prefix(network: &str) -> String {
    match network {
        "mainnet" => "MainnetZkappBody****".into(),
        "devnet" | "testnet" => "TestnetZkappBody****".into(),
        custom => {
            let name: String = format!("{custom}ZkappBody").chars().take(20).collect();
            format!("{name:*<20}")
        }
    }
}

/// mina-signer's `accountUpdateHash`: the kimchi hash, prefixed with the network's
/// body prefix ([`zkapp_body_prefix`]), of the packed input (`AccountUpdate.toInput`
/// of the update, or of the fee payer as an account update).
pub fn account_update_hash<F: PastaField>(
    network: &str,
    fields: &[F],
    packed: &[(F, u32)],
) -> Result<F, Error> {
    hash_with_prefix(
        ParamSet::Kimchi,
        &zkapp_body_prefix(network),
        &pack_to_fields(fields, packed)?,
    )
}

/// mina-signer's `callForestHash`: the hash of the forest the account updates
/// form, given in order as `(hash, call depth)`; a node's children are the
/// updates after it one level deeper. 0 for none. The depths must start at 0 and
/// rise by at most one per update ([`Error::CallDepth`]).
pub fn call_forest_hash<F: PastaField>(updates: &[(F, usize)]) -> Result<F, Error> {
    let mut previous = None;
    for (index, &(_, depth)) in updates.iter().enumerate() {
        if depth > previous.map_or(0, |p| p + 1) {
            return Err(Error::CallDepth { index, depth });
        }
        previous = Some(depth);
    }
    // Right to left: `stacks[d]` is the hash of the siblings at depth d seen so
    // far under the current parent; a node takes `stacks[d + 1]` as its children.
    let node_salt = Salted::new(ParamSet::Kimchi, NODE)?;
    let cons_salt = Salted::new(ParamSet::Kimchi, CONS)?;
    let mut stacks: Vec<F> = Vec::new();
    for &(hash, depth) in updates.iter().rev() {
        if stacks.len() < depth + 2 {
            stacks.resize(depth + 2, F::zero());
        }
        let calls = stacks[depth + 1];
        stacks.truncate(depth + 1);
        let node = node_salt.hash(&[hash, calls]);
        stacks[depth] = cons_salt.hash(&[node, stacks[depth]]);
    }
    Ok(stacks.first().copied().unwrap_or_else(F::zero))
}

/// o1js's `Memo.fromString(text)` as bytes: 1, the text's length in bytes, its
/// UTF-8 bytes, zeros to 34. At most 32 bytes of text.
pub fn memo_from_text(text: &str) -> Result<[u8; MEMO_BYTES], Error> {
    let bytes = text.as_bytes();
    if bytes.len() > MEMO_BYTES - 2 {
        return Err(Error::MemoTooLong(bytes.len()));
    }
    let mut memo = [0u8; MEMO_BYTES];
    memo[0] = 1;
    memo[1] = bytes.len() as u8;
    memo[2..2 + bytes.len()].copy_from_slice(bytes);
    Ok(memo)
}

/// mina-signer's `Memo.hash`: the memo's 272 bits (each byte least significant
/// bit first) packed as the legacy packing does (254 bits, then 18), hashed with
/// the kimchi parameters and the prefix `MinaZkappMemo*******`.
pub fn memo_hash<F: PastaField>(memo: &[u8; MEMO_BYTES]) -> F {
    let bits: Vec<bool> = memo
        .iter()
        .flat_map(|&byte| (0..8).map(move |i| (byte >> i) & 1 == 1))
        .collect();
    hash_with_prefix(ParamSet::Kimchi, MEMO, &pack_to_fields_legacy(&[], &bits))
        .expect("a valid prefix")
}

/// mina-signer's `fullCommitment`: the hash of the memo's hash, the fee payer's
/// hash and the `commitment` ([`call_forest_hash`]), prefixed `MinaAcctUpdateCons**`.
pub fn full_commitment<F: PastaField>(memo_hash: F, fee_payer_hash: F, commitment: F) -> F {
    hash_with_prefix(
        ParamSet::Kimchi,
        CONS,
        &[memo_hash, fee_payer_hash, commitment],
    )
    .expect("a valid prefix")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Fp;

    #[test]
    fn prefixes_follow_mina_signer() {
        assert_eq!(zkapp_body_prefix("mainnet"), "MainnetZkappBody****");
        assert_eq!(zkapp_body_prefix("devnet"), "TestnetZkappBody****");
        assert_eq!(zkapp_body_prefix("zeko"), "zekoZkappBody*******");
        assert_eq!(
            zkapp_body_prefix("a-long-network-name"),
            "a-long-network-nameZ"
        );
    }

    /// The forest by its definition (mina-signer's recursion), for the check below.
    fn forest_by_recursion(updates: &[(Fp, usize)], at: &mut usize, depth: usize) -> Fp {
        let mut trees = Vec::new();
        while *at < updates.len() && updates[*at].1 >= depth {
            let hash = updates[*at].0;
            *at += 1;
            let calls = forest_by_recursion(updates, at, depth + 1);
            trees.push(hash_with_prefix(ParamSet::Kimchi, NODE, &[hash, calls]).unwrap());
        }
        trees.iter().rev().fold(Fp::from(0u64), |stack, &node| {
            hash_with_prefix(ParamSet::Kimchi, CONS, &[node, stack]).unwrap()
        })
    }

    #[test]
    fn the_forest_hash_equals_the_recursive_definition() {
        let shapes: [&[usize]; 6] = [
            &[],
            &[0],
            &[0, 0, 0],
            &[0, 1, 2, 1],
            &[0, 1, 2, 3, 0, 1, 1, 2],
            &[0, 1, 1, 0, 1, 2, 2, 0],
        ];
        for depths in shapes {
            let updates: Vec<(Fp, usize)> = depths
                .iter()
                .enumerate()
                .map(|(i, &d)| (Fp::from(1000 + i as u64), d))
                .collect();
            let mut at = 0;
            let want = forest_by_recursion(&updates, &mut at, 0);
            assert_eq!(call_forest_hash(&updates).unwrap(), want, "{depths:?}");
        }
    }

    #[test]
    fn bad_depths_and_long_memos_are_refused() {
        let h = Fp::from(1u64);
        assert_eq!(
            call_forest_hash(&[(h, 1)]),
            Err(Error::CallDepth { index: 0, depth: 1 })
        );
        assert_eq!(
            call_forest_hash(&[(h, 0), (h, 1), (h, 3)]),
            Err(Error::CallDepth { index: 2, depth: 3 })
        );
        assert_eq!(memo_from_text(&"x".repeat(33)), Err(Error::MemoTooLong(33)));
        assert_eq!(memo_from_text(&"x".repeat(32)).unwrap()[..3], [1, 32, b'x']);
    }
}
