//! The library's `o1js` module against the shared o1js vectors
//! (`data/o1js-hashes.json`: written from o1js 2.15.0 itself by the JavaScript
//! package's `dev/o1js-vectors.mjs`, and checked against o1js by its tests), and
//! its refusals.
#![cfg(feature = "vectors")]

use std::str::FromStr;

use ark_ff::Field;
use poseidon::{o1js, Error, Fp, ParamSet};
use serde_json::Value;

fn fp(v: &Value) -> Fp {
    Fp::from_str(v.as_str().expect("a decimal string")).expect("an element of Fp")
}

fn fps(v: &Value) -> Vec<Fp> {
    v.as_array().expect("an array").iter().map(fp).collect()
}

fn doc() -> Value {
    serde_json::from_str(include_str!("data/o1js-hashes.json")).unwrap()
}

#[test]
fn salts_and_salted_hashes_equal_o1js_and_mina_signer() {
    let doc = doc();
    let cases = doc["salted"].as_array().unwrap();
    assert!(cases.len() >= 20);
    for c in cases {
        let set = ParamSet::from_str(c["set"].as_str().unwrap()).unwrap();
        let prefix = c["prefix"].as_str().unwrap();
        let salt: [Fp; 3] = o1js::salt(set, prefix).unwrap();
        assert_eq!(salt.to_vec(), fps(&c["salt"]), "{set:?} salt {prefix:?}");
        assert_eq!(
            o1js::empty_hash_with_prefix::<Fp>(set, prefix).unwrap(),
            salt[0]
        );
        let inputs = fps(&c["inputs"]);
        assert_eq!(
            o1js::hash_with_prefix(set, prefix, &inputs).unwrap(),
            fp(&c["hash"]),
            "{set:?} {prefix:?} of {}",
            inputs.len()
        );
    }
}

#[test]
fn hash_any_length_packings_lists_and_token_ids_equal_o1js() {
    let doc = doc();
    for c in doc["any_length"].as_array().unwrap() {
        assert_eq!(
            o1js::hash_any_length(ParamSet::Kimchi, &fps(&c["inputs"])),
            fp(&c["hash"])
        );
    }
    for c in doc["packed"].as_array().unwrap() {
        let fields = fps(&c["fields"]);
        let packed: Vec<(Fp, u32)> = c["packed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (fp(&p[0]), p[1].as_u64().unwrap() as u32))
            .collect();
        assert_eq!(
            o1js::pack_to_fields(&fields, &packed).unwrap(),
            fps(&c["packed_fields"])
        );
        assert_eq!(o1js::hash_packed(&fields, &packed).unwrap(), fp(&c["hash"]));
    }
    for c in doc["legacy_packed"].as_array().unwrap() {
        let bits: Vec<bool> = c["bits"]
            .as_str()
            .unwrap()
            .chars()
            .map(|b| b == '1')
            .collect();
        assert_eq!(
            o1js::pack_to_fields_legacy(&fps(&c["fields"]), &bits),
            fps(&c["packed_fields"]),
            "{} bits",
            bits.len()
        );
    }
    for c in doc["lists"].as_array().unwrap() {
        let prefix = c["prefix"].as_str().unwrap();
        let mut h = Fp::from(0u64);
        for (e, want) in c["elements"]
            .as_array()
            .unwrap()
            .iter()
            .zip(fps(&c["hashes"]))
        {
            h = o1js::merkle_list_hash(prefix, h, &fps(e)).unwrap();
            assert_eq!(h, want, "list {prefix:?}");
        }
    }
    for c in doc["token_ids"].as_array().unwrap() {
        let id = o1js::derive_token_id(
            fp(&c["x"]),
            c["is_odd"].as_bool().unwrap(),
            fp(&c["parent"]),
        );
        assert_eq!(id, fp(&c["id"]));
    }
}

#[test]
fn bad_prefixes_and_packed_values_are_refused() {
    let long = "x".repeat(32);
    assert_eq!(
        o1js::prefix_to_field::<Fp>(&long),
        Err(Error::PrefixTooLong(32))
    );
    assert!(o1js::prefix_to_field::<Fp>(&"x".repeat(31)).is_ok());
    assert_eq!(
        o1js::prefix_to_field::<Fp>("abé"),
        Err(Error::PrefixNotAscii { position: 2 })
    );
    let one = Fp::from(1u64);
    let two = Fp::from(2u64);
    assert_eq!(
        o1js::pack_to_fields(&[], &[(one, 1), (two, 1)]),
        Err(Error::PackedValue { index: 1, bits: 1 })
    );
    for bits in [0, 255] {
        assert_eq!(
            o1js::pack_to_fields(&[], &[(one, bits)]),
            Err(Error::PackedValue { index: 0, bits })
        );
    }
    // The largest value of 254 bits fills an element; the next value starts another.
    let top = Fp::from(2u64).pow([254]) - one;
    assert_eq!(
        o1js::pack_to_fields(&[], &[(top, 254), (one, 1)]).unwrap(),
        vec![top, one]
    );
    assert_eq!(o1js::pack_to_fields::<Fp>(&[two], &[]).unwrap(), vec![two]);
    assert!(Error::PackedValue { index: 0, bits: 0 }
        .to_string()
        .contains("1 to 254"));
}

#[test]
fn hash_to_group_equals_o1js() {
    let doc = doc();
    let cases = doc["hash_to_group"].as_array().unwrap();
    assert!(cases.len() >= 8);
    for c in cases {
        let inputs = fps(&c["inputs"]);
        let (x, y) = poseidon::group_map::hash_to_group(&inputs).expect("not a pole");
        assert_eq!(
            (x, y),
            (fp(&c["x"]), fp(&c["y"])),
            "{} inputs",
            inputs.len()
        );
    }
}

fn memo(hex: &Value) -> [u8; o1js::MEMO_BYTES] {
    let hex = hex.as_str().unwrap();
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    bytes.try_into().expect("34 bytes")
}

fn packed_input(c: &Value) -> (Vec<Fp>, Vec<(Fp, u32)>) {
    let packed = c["packed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (fp(&p[0]), p[1].as_u64().unwrap() as u32))
        .collect();
    (fps(&c["fields"]), packed)
}

#[test]
fn memos_and_transaction_commitments_equal_mina_signer() {
    let doc = doc();
    for c in doc["memos"].as_array().unwrap() {
        let bytes = o1js::memo_from_text(c["text"].as_str().unwrap()).unwrap();
        assert_eq!(bytes, memo(&c["bytes"]));
        assert_eq!(o1js::memo_hash::<Fp>(&bytes), fp(&c["hash"]));
    }
    let cases = doc["transactions"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for c in cases {
        let network = c["network"].as_str().unwrap();
        let mut updates = Vec::new();
        for u in c["account_updates"].as_array().unwrap() {
            let (fields, packed) = packed_input(u);
            let hash = o1js::account_update_hash(network, &fields, &packed).unwrap();
            updates.push((hash, u["call_depth"].as_u64().unwrap() as usize));
        }
        let commitment = o1js::call_forest_hash(&updates).unwrap();
        assert_eq!(
            commitment,
            fp(&c["commitment"]),
            "{network}, {} updates",
            updates.len()
        );
        let (fields, packed) = packed_input(&c["fee_payer"]);
        let fee_payer = o1js::account_update_hash(network, &fields, &packed).unwrap();
        let full = o1js::full_commitment(o1js::memo_hash(&memo(&c["memo"])), fee_payer, commitment);
        assert_eq!(full, fp(&c["full_commitment"]), "{network}");
    }
}
