//! The memo key of a value: its type name and a self-delimiting encoding of its serde data model
//! (type tags, lengths, field and variant names, raw string bytes), written into a reusable
//! buffer. The memo compares keys in full, so two different values never share an entry; the
//! encoding is much cheaper than JSON (no escaping, no number formatting) and just as injective:
//! every string and sequence is length-prefixed, every field carries its name, so values that
//! skip different optional fields never share a key.

use serde::Serialize;
use serde::ser::{self, Serializer};

/// Writes the key of `value` of type `T` into `out`, replacing what was there.
pub(crate) fn write_key<T: ?Sized + Serialize>(
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), KeyError> {
    out.clear();
    let mut serializer = KeySerializer(out);
    serializer.bytes(referent(std::any::type_name::<T>()).as_bytes());
    value.serialize(serializer)
}

/// The type a reference type names (`&T` and `&mut T` serialize exactly as `T`), so an element
/// keyed as `T` and as `&T` (serde hands sequence elements over by reference) shares its entry.
fn referent(mut type_name: &str) -> &str {
    while let Some(rest) = type_name
        .strip_prefix("&mut ")
        .or_else(|| type_name.strip_prefix('&'))
    {
        type_name = rest;
    }
    type_name
}

/// The key of `value` in a fresh buffer (tests, and callers without a buffer to reuse).
#[cfg(test)]
pub(crate) fn key_of<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, KeyError> {
    let mut out = Vec::new();
    write_key(value, &mut out)?;
    Ok(out)
}

/// A value the key serializer refused (only custom serializers that fail on their own).
#[derive(Debug)]
pub(crate) struct KeyError(String);

impl std::fmt::Display for KeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyError {}

impl ser::Error for KeyError {
    fn custom<M: std::fmt::Display>(message: M) -> Self {
        KeyError(message.to_string())
    }
}

struct KeySerializer<'a>(&'a mut Vec<u8>);

impl KeySerializer<'_> {
    fn tag(&mut self, tag: u8) {
        self.0.push(tag);
    }
    /// LEB128: a prefix code, so a length never runs into the bytes after it.
    fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }
    fn bytes(&mut self, bytes: &[u8]) {
        self.varint(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }
    fn len(&mut self, len: Option<usize>) {
        // Unknown lengths are closed by an end tag instead (see `end`).
        self.varint(len.map_or(u64::MAX, |n| n as u64));
    }
}

macro_rules! number {
    ($($name:ident($ty:ty) = $tag:expr),* $(,)?) => {
        $(fn $name(mut self, v: $ty) -> Result<(), KeyError> {
            self.tag($tag);
            self.0.extend_from_slice(&v.to_le_bytes());
            Ok(())
        })*
    };
}

impl<'a> Serializer for KeySerializer<'a> {
    type Ok = ();
    type Error = KeyError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    number!(
        serialize_i8(i8) = 1,
        serialize_i16(i16) = 2,
        serialize_i32(i32) = 3,
        serialize_i64(i64) = 4,
        serialize_i128(i128) = 5,
        serialize_u8(u8) = 6,
        serialize_u16(u16) = 7,
        serialize_u32(u32) = 8,
        serialize_u64(u64) = 9,
        serialize_u128(u128) = 10,
        serialize_f32(f32) = 11,
        serialize_f64(f64) = 12,
    );

    fn serialize_bool(mut self, v: bool) -> Result<(), KeyError> {
        self.tag(13);
        self.0.push(u8::from(v));
        Ok(())
    }
    fn serialize_char(mut self, v: char) -> Result<(), KeyError> {
        self.tag(14);
        self.0.extend_from_slice(&u32::from(v).to_le_bytes());
        Ok(())
    }
    fn serialize_str(mut self, v: &str) -> Result<(), KeyError> {
        self.tag(15);
        self.bytes(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(mut self, v: &[u8]) -> Result<(), KeyError> {
        self.tag(16);
        self.bytes(v);
        Ok(())
    }
    fn serialize_none(mut self) -> Result<(), KeyError> {
        self.tag(17);
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(mut self, value: &T) -> Result<(), KeyError> {
        self.tag(18);
        value.serialize(self)
    }
    fn serialize_unit(mut self) -> Result<(), KeyError> {
        self.tag(19);
        Ok(())
    }
    fn serialize_unit_struct(mut self, name: &'static str) -> Result<(), KeyError> {
        self.tag(20);
        self.bytes(name.as_bytes());
        Ok(())
    }
    fn serialize_unit_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), KeyError> {
        self.tag(21);
        self.bytes(variant.as_bytes());
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        mut self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), KeyError> {
        self.tag(22);
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), KeyError> {
        self.tag(23);
        self.bytes(variant.as_bytes());
        value.serialize(self)
    }
    fn serialize_seq(mut self, len: Option<usize>) -> Result<Self, KeyError> {
        self.tag(24);
        self.len(len);
        Ok(self)
    }
    fn serialize_tuple(mut self, len: usize) -> Result<Self, KeyError> {
        self.tag(25);
        self.len(Some(len));
        Ok(self)
    }
    fn serialize_tuple_struct(mut self, _name: &'static str, len: usize) -> Result<Self, KeyError> {
        self.tag(26);
        self.len(Some(len));
        Ok(self)
    }
    fn serialize_tuple_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, KeyError> {
        self.tag(27);
        self.bytes(variant.as_bytes());
        self.len(Some(len));
        Ok(self)
    }
    fn serialize_map(mut self, len: Option<usize>) -> Result<Self, KeyError> {
        self.tag(28);
        self.len(len);
        Ok(self)
    }
    fn serialize_struct(mut self, _name: &'static str, _len: usize) -> Result<Self, KeyError> {
        // The declared length counts skipped fields too; fields are named and closed by `end`.
        self.tag(29);
        Ok(self)
    }
    fn serialize_struct_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self, KeyError> {
        self.tag(30);
        self.bytes(variant.as_bytes());
        Ok(self)
    }
}

impl KeySerializer<'_> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), KeyError> {
        self.tag(31);
        value.serialize(KeySerializer(&mut *self.0))
    }
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), KeyError> {
        self.tag(32);
        self.bytes(key.as_bytes());
        value.serialize(KeySerializer(&mut *self.0))
    }
    fn end(mut self) -> Result<(), KeyError> {
        self.tag(33);
        Ok(())
    }
}

impl ser::SerializeSeq for KeySerializer<'_> {
    type Ok = ();
    type Error = KeyError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), KeyError> {
        self.element(value)
    }
    fn end(self) -> Result<(), KeyError> {
        KeySerializer::end(self)
    }
}

impl ser::SerializeTuple for KeySerializer<'_> {
    type Ok = ();
    type Error = KeyError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), KeyError> {
        self.element(value)
    }
    fn end(self) -> Result<(), KeyError> {
        KeySerializer::end(self)
    }
}

impl ser::SerializeTupleStruct for KeySerializer<'_> {
    type Ok = ();
    type Error = KeyError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), KeyError> {
        self.element(value)
    }
    fn end(self) -> Result<(), KeyError> {
        KeySerializer::end(self)
    }
}

impl ser::SerializeTupleVariant for KeySerializer<'_> {
    type Ok = ();
    type Error = KeyError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), KeyError> {
        self.element(value)
    }
    fn end(self) -> Result<(), KeyError> {
        KeySerializer::end(self)
    }
}

impl ser::SerializeMap for KeySerializer<'_> {
    type Ok = ();
    type Error = KeyError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), KeyError> {
        self.element(key)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), KeyError> {
        self.element(value)
    }
    fn end(self) -> Result<(), KeyError> {
        KeySerializer::end(self)
    }
}

impl ser::SerializeStruct for KeySerializer<'_> {
    type Ok = ();
    type Error = KeyError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), KeyError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), KeyError> {
        KeySerializer::end(self)
    }
}

impl ser::SerializeStructVariant for KeySerializer<'_> {
    type Ok = ();
    type Error = KeyError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), KeyError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), KeyError> {
        KeySerializer::end(self)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    struct Optional {
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<String>,
    }

    #[test]
    fn values_that_skip_different_fields_have_different_keys() {
        let a = Optional {
            a: Some("x".into()),
            b: None,
        };
        let b = Optional {
            a: None,
            b: Some("x".into()),
        };
        assert_ne!(key_of(&a).unwrap(), key_of(&b).unwrap());
    }

    #[test]
    fn string_boundaries_and_nesting_are_part_of_the_key() {
        let pairs = [
            (json!(["ab", "c"]), json!(["a", "bc"])),
            (json!([[1], 2]), json!([1, [2]])),
            (json!({"a": 1}), json!({"a": 1.0})),
            (json!(null), json!([])),
        ];
        for (x, y) in pairs {
            assert_ne!(key_of(&x).unwrap(), key_of(&y).unwrap(), "{x} {y}");
            assert_eq!(key_of(&x).unwrap(), key_of(&x.clone()).unwrap());
        }
    }

    #[test]
    fn the_type_is_part_of_the_key_and_long_lengths_stay_delimited() {
        assert_ne!(key_of(&1u32).unwrap(), key_of(&1u64).unwrap());
        assert_eq!(key_of(&1u32).unwrap(), key_of(&&1u32).unwrap());
        assert_eq!(
            referent("&mut &core::option::Option<&str>"),
            "core::option::Option<&str>"
        );
        // Lengths at the varint boundaries (one, two and three bytes): splitting the same bytes
        // differently between two strings must give different keys.
        for n in [127usize, 128, 255, 16_383, 16_384] {
            let whole = ("x".repeat(n + 1), String::new());
            let split = ("x".repeat(n), "x".to_owned());
            assert_ne!(key_of(&whole).unwrap(), key_of(&split).unwrap(), "{n}");
            assert_eq!(key_of(&split).unwrap(), key_of(&split.clone()).unwrap());
        }
    }
}
