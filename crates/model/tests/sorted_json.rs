//! The direct sorted-key encoder against the two-step path it replaced: `serde_json::to_value`,
//! then `serde_json_canonicalizer`. Any byte of difference would change every content hash. The
//! artifact form is the canonical JSON indented: held to the canonical bytes (whitespace outside
//! strings removed) and to serde_json's pretty layout.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, HashMap};

use doc_bridge_model::sorted_json::{Style, canonical_hash_without, indent, to_vec};
use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

fn oracle_canonical(value: &impl Serialize) -> Vec<u8> {
    let json = serde_json::to_value(value).unwrap();
    serde_json_canonicalizer::to_vec(&json).unwrap()
}

/// JSON text without the whitespace outside strings.
fn compact(pretty: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    for &b in pretty {
        if in_string {
            out.push(b);
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if !matches!(b, b' ' | b'\n') {
            out.push(b);
            in_string = b == b'"';
        }
    }
    out
}

/// The layout of JSON text: every string becomes `"s"` and every number or literal `0`, so
/// serde_json's number forms (`1.0`, `1e21`) and ECMAScript's (`1`, `1e+21`) compare equal.
fn layout(text: &[u8]) -> String {
    let text = String::from_utf8(text.to_vec()).unwrap();
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' => escaped = true,
                        '"' => break,
                        _ => {}
                    }
                }
                out.push_str("\"s\"");
            }
            '{' | '}' | '[' | ']' | ',' | ':' | ' ' | '\n' => out.push(c),
            _ => {
                while chars.peek().is_some_and(|c| !"{}[],: \n\"".contains(*c)) {
                    chars.next();
                }
                out.push('0');
            }
        }
    }
    out
}

/// Whether every object key in `value` is ASCII (code-point and UTF-16 key orders then agree,
/// so serde_json's pretty output has the same layout as the artifact form).
fn ascii_keys(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.iter().all(|(k, v)| k.is_ascii() && ascii_keys(v)),
        Value::Array(items) => items.iter().all(ascii_keys),
        _ => true,
    }
}

fn assert_pretty_is_indented_canonical(value: &impl Serialize) {
    let pretty = to_vec(value, Style::Pretty).unwrap();
    assert_eq!(
        String::from_utf8(compact(&pretty)).unwrap(),
        String::from_utf8(to_vec(value, Style::Canonical).unwrap()).unwrap()
    );
    let json = serde_json::to_value(value).unwrap();
    if ascii_keys(&json) {
        assert_eq!(
            layout(&pretty),
            layout(&serde_json::to_vec_pretty(&json).unwrap())
        );
    }
}

fn oracle_hash_without(value: &impl Serialize, excluded: &[&str]) -> String {
    let mut json = serde_json::to_value(value).unwrap();
    let object = json.as_object_mut().unwrap();
    for key in excluded {
        object.remove(*key);
    }
    hex::encode(Sha256::digest(oracle_canonical(&json)))
}

fn assert_same(value: &impl Serialize) {
    assert_eq!(
        String::from_utf8(to_vec(value, Style::Canonical).unwrap()).unwrap(),
        String::from_utf8(oracle_canonical(value)).unwrap()
    );
    assert_pretty_is_indented_canonical(value);
}

/// Fields declared out of key order, so the encoder must reorder them.
#[derive(Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
struct Record {
    zeta: u32,
    alpha_beta: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<i64>,
    middle: Vec<Inner>,
    #[serde(rename = "\u{e000}private")]
    private_use: bool,
    #[serde(rename = "😀")]
    astral: f64,
    kinds: Vec<Kind>,
    by_number: BTreeMap<u32, String>,
    by_name: HashMap<String, f32>,
    pair: (i8, String),
}

#[derive(Serialize, Clone, Debug)]
struct Inner {
    b: Vec<u8>,
    a: BTreeMap<String, Value>,
}

#[derive(Serialize, Clone, Debug)]
#[serde(rename_all = "kebab-case")]
enum Kind {
    Unit,
    NewType(String),
    Tuple(u8, i64),
    Struct { z: bool, a: Option<u64> },
}

fn record() -> Record {
    Record {
        zeta: 7,
        alpha_beta: None,
        skipped: None,
        middle: vec![
            Inner {
                b: vec![1, 2, 255],
                a: BTreeMap::from([
                    ("y".into(), Value::from(1.5)),
                    ("x".into(), Value::from(vec!["\u{7}\"\\\n"])),
                ]),
            },
            Inner {
                b: vec![],
                a: BTreeMap::new(),
            },
        ],
        private_use: true,
        astral: 1e21,
        kinds: vec![
            Kind::Unit,
            Kind::NewType("n".into()),
            Kind::Tuple(3, -4),
            Kind::Struct { z: false, a: None },
            Kind::Struct {
                z: true,
                a: Some(u64::MAX),
            },
        ],
        by_number: BTreeMap::from([(10, "ten".into()), (9, "nine".into())]),
        by_name: HashMap::from([("b".into(), 0.1), ("a".into(), -0.0), ("c".into(), 3.0)]),
        pair: (-1, "\u{0}\u{1f}\u{7f}".into()),
    }
}

#[test]
fn typed_values_encode_like_the_value_path() {
    assert_same(&record());
    assert_same(&vec![record(), record()]);
    assert_same(&Kind::Struct { z: true, a: None });
    assert_same(&Kind::Tuple(0, 0));
    assert_same(&Kind::NewType(String::new()));
    assert_same(&BTreeMap::<String, Vec<u8>>::new());
    assert_same(&Vec::<Record>::new());
    assert_same(&"plain string");
    assert_same(&(1u8, 2.5f32, None::<u8>, ()));
}

#[test]
fn non_finite_floats_become_null_as_in_to_value() {
    let values = vec![f64::NAN, f64::INFINITY, 1.0];
    assert_same(&values);
    assert_eq!(to_vec(&values, Style::Canonical).unwrap(), b"[null,null,1]");
}

#[test]
fn a_repeated_key_keeps_its_last_value() {
    #[derive(Serialize)]
    struct Flat {
        a: u8,
        #[serde(flatten)]
        rest: BTreeMap<String, u8>,
    }
    let value = Flat {
        a: 1,
        rest: BTreeMap::from([("a".into(), 2), ("0".into(), 3)]),
    };
    assert_same(&value);
    assert_eq!(
        to_vec(&value, Style::Canonical).unwrap(),
        br#"{"0":3,"a":2}"#
    );
}

#[test]
fn keys_sort_by_utf16_in_both_forms() {
    let value = BTreeMap::from([("\u{e000}", 1), ("😀", 2), ("a", 3)]);
    assert_eq!(
        String::from_utf8(to_vec(&value, Style::Canonical).unwrap()).unwrap(),
        "{\"a\":3,\"😀\":2,\"\u{e000}\":1}"
    );
    assert_eq!(
        String::from_utf8(to_vec(&value, Style::Pretty).unwrap()).unwrap(),
        "{\n  \"a\": 3,\n  \"😀\": 2,\n  \"\u{e000}\": 1\n}"
    );
    assert_same(&value);
}

#[test]
fn the_artifact_form_is_the_canonical_json_indented() {
    let value = serde_json::json!({
        "b": [1.0, 1e21, {}, [], {"x": "a,b:{c}\"[d]\\"}],
        "a": {"n": null, "t": true},
    });
    assert_eq!(
        String::from_utf8(to_vec(&value, Style::Pretty).unwrap()).unwrap(),
        r#"{
  "a": {
    "n": null,
    "t": true
  },
  "b": [
    1,
    1e+21,
    {},
    [],
    {
      "x": "a,b:{c}\"[d]\\"
    }
  ]
}"#
    );
    let mut at_depth = b"[".to_vec();
    indent(b"{\"k\":[1,2]}", 1, &mut at_depth);
    assert_eq!(
        String::from_utf8(at_depth).unwrap(),
        "[{\n    \"k\": [\n      1,\n      2\n    ]\n  }"
    );
}

#[test]
fn semantic_hash_leaves_out_top_level_keys_only() {
    let value = serde_json::json!({"b": {"generatedAt": 1}, "generatedAt": "x", "a": [1]});
    let excluded = ["generatedAt", "contentHash"];
    assert_eq!(
        canonical_hash_without(&value, &excluded).unwrap().as_str(),
        oracle_hash_without(&value, &excluded)
    );
    assert_eq!(
        canonical_hash_without(&record(), &["zeta"])
            .unwrap()
            .as_str(),
        oracle_hash_without(&record(), &["zeta"])
    );
    assert!(canonical_hash_without(&vec![1], &[]).is_err());
    assert!(canonical_hash_without(&"text", &[]).is_err());
}

#[test]
fn keys_that_are_not_strings_or_numbers_are_errors() {
    let value = BTreeMap::from([(vec![1u8], 1)]);
    assert!(to_vec(&value, Style::Canonical).is_err());
    assert!(to_vec(&value, Style::Pretty).is_err());
    // Floats cannot key a std map; a hand-written map shows finite float keys become text.
    #[derive(Serialize)]
    struct FloatKeyed(#[serde(serialize_with = "float_keys")] ());
    fn float_keys<S: serde::Serializer>(_: &(), s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry(&2.5f64, &1)?;
        map.serialize_entry(&-1.0f64, &2)?;
        map.end()
    }
    assert_same(&FloatKeyed(()));
}

fn arb_key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-d]{0,3}",
        "[\u{0}-\u{1f}\"\\\\a]{1,3}",
        "[a\u{e000}\u{ffff}😀\u{10ffff}é]{1,3}",
        ".{0,6}",
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        prop_oneof![Just(-0.0), Just(1e21), Just(1e-7), Just(123456789.0)].prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        "[\u{0}-\u{1f}\u{7f}\u{2028}\"\\\\]{0,4}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(arb_key(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_json_encodes_like_the_value_path(value in arb_json()) {
        prop_assert_eq!(to_vec(&value, Style::Canonical).unwrap(), oracle_canonical(&value));
        assert_pretty_is_indented_canonical(&value);
    }

    #[test]
    fn indenting_any_bytes_never_panics_and_keeps_them_outside_layout(
        bytes in prop::collection::vec(any::<u8>(), 0..200), depth in 0usize..4
    ) {
        let mut out = Vec::new();
        indent(&bytes, depth, &mut out);
        // Indenting only adds spaces, newlines and the space after `:`.
        let kept: Vec<u8> = out.iter().copied().filter(|b| !matches!(b, b' ' | b'\n')).collect();
        let expected: Vec<u8> = bytes.iter().copied().filter(|b| !matches!(b, b' ' | b'\n')).collect();
        prop_assert_eq!(kept, expected);
    }

    #[test]
    fn any_object_hashes_like_the_value_path(
        object in prop::collection::btree_map(arb_key(), arb_json(), 0..6),
        drop_first in any::<bool>(),
    ) {
        let value = Value::Object(object.into_iter().collect());
        let first: Vec<String> = value
            .as_object()
            .and_then(|o| o.keys().next().cloned())
            .filter(|_| drop_first)
            .into_iter()
            .collect();
        let excluded: Vec<&str> = first.iter().map(String::as_str).collect();
        prop_assert_eq!(
            canonical_hash_without(&value, &excluded).unwrap().as_str().to_owned(),
            oracle_hash_without(&value, &excluded)
        );
    }
}
