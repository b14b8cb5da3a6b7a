//! JSON with sorted object keys, written straight from `Serialize` values: the two encodings every
//! artifact goes through.
//!
//! - [`Style::Canonical`]: RFC 8785 (JCS), compact, keys in UTF-16 code-unit order, numbers in
//!   ECMAScript form. What `sha256-semantic-v1` hashes.
//! - [`Style::Pretty`]: what artifacts look like on disk: the canonical JSON, indented as
//!   serde_json indents (two spaces, `": "`; see [`indent`]). An artifact is thus the very text
//!   its seal hashes, laid out for people, and is written by indenting the seal's bytes rather
//!   than encoding the value a second time.
//!
//! The canonical form is exactly the bytes of the obvious two-step path (`serde_json::to_value`,
//! then `serde_json_canonicalizer`; the tests hold it to that), without
//! building a `serde_json::Value` tree: an object's entries are written in the order serde gives
//! them, with their byte ranges recorded, and moved into key order when the object closes (only
//! when they arrived out of order). That, and one entry stack shared by all objects, is what makes
//! a 50 MB snapshot encode in a fraction of the time the `Value` path took.
//!
//! Like `to_value`, a non-finite float becomes `null`, and a key repeated within one object keeps
//! its last value.

use std::cmp::Ordering;

use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::ser::{CompactFormatter, Formatter};
use sha2::{Digest, Sha256};

use crate::ContentHash;

/// Which encoding to write.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    /// RFC 8785 canonical JSON.
    Canonical,
    /// Artifact JSON: the canonical JSON, indented.
    Pretty,
}

/// A value could not be encoded (a map key that is not a string or number, an integer out of
/// range, a custom `Serialize` error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EncodeError(String);

impl ser::Error for EncodeError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

/// Encodes `value` in `style`.
pub fn to_vec<T: ?Sized + Serialize>(value: &T, style: Style) -> Result<Vec<u8>, EncodeError> {
    to_vec_in(value, style, Vec::new())
}

/// [`to_vec`] into `buffer` (emptied first): memory a caller already holds, such as the
/// encoding of an artifact written a moment before, is reused rather than allocated anew.
pub fn to_vec_in<T: ?Sized + Serialize>(
    value: &T,
    style: Style,
    mut buffer: Vec<u8>,
) -> Result<Vec<u8>, EncodeError> {
    buffer.clear();
    let mut writer = Writer::new(&[]);
    writer.out = buffer;
    value.serialize(&mut writer)?;
    Ok(match style {
        Style::Canonical => writer.out,
        Style::Pretty => {
            let mut out = Vec::with_capacity(writer.out.len() + writer.out.len() / 4);
            indent(&writer.out, 0, &mut out);
            out
        }
    })
}

/// The objects below the top level of `value` whose keys arrived out of key order, each as its
/// keys in arrival order. The encoder moves such an object's entries into order when it closes
/// (copying the object); artifact structs declare their fields in key order so that it need not,
/// and a test holds them to it with this.
pub fn reordered_objects<T: ?Sized + Serialize>(
    value: &T,
) -> Result<Vec<Vec<String>>, EncodeError> {
    let mut writer = Writer::new(&[]);
    writer.reordered = Some(Vec::new());
    value.serialize(&mut writer)?;
    Ok(writer.reordered.unwrap_or_default())
}

/// RFC 8785's order of object keys: by UTF-16 code unit. UTF-8 byte order is code-point order,
/// which matches it except where a supplementary character meets U+E000..U+FFFF; only non-ASCII
/// keys pay for the difference.
pub fn key_order(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        a.cmp(b)
    } else {
        a.encode_utf16().cmp(b.encode_utf16())
    }
}

/// Appends `canonical` (compact JSON as [`Style::Canonical`] writes it) laid out as serde_json's
/// pretty printer lays a value out at nesting level `depth`: a newline and two spaces per level
/// after `{`, `[` and `,`, and before `}` and `]`; `": "` after keys; `{}` and `[]` when empty.
/// The first line is not indented (the caller has placed it). Strings are copied as they are:
/// JSON strings hold no raw newline or structural character outside their quotes.
pub fn indent(canonical: &[u8], depth: usize, out: &mut Vec<u8>) {
    fn newline(out: &mut Vec<u8>, depth: usize) {
        out.push(b'\n');
        out.resize(out.len() + depth * 2, b' ');
    }
    let mut depth = depth;
    let mut i = 0;
    while let Some(&byte) = canonical.get(i) {
        match byte {
            b'"' => {
                // Through the closing quote, stepping over escapes.
                let start = i;
                i += 1;
                while let Some(found) = canonical
                    .get(i..)
                    .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
                {
                    i += found;
                    if canonical.get(i) == Some(&b'"') {
                        i += 1;
                        break;
                    }
                    i += 2;
                }
                i = i.min(canonical.len());
                out.extend_from_slice(canonical.get(start..i).unwrap_or_default());
            }
            b'{' | b'[' => {
                let close = if byte == b'{' { b'}' } else { b']' };
                out.push(byte);
                if canonical.get(i + 1) == Some(&close) {
                    out.push(close);
                    i += 2;
                } else {
                    depth += 1;
                    newline(out, depth);
                    i += 1;
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(out, depth);
                out.push(byte);
                i += 1;
            }
            b',' => {
                out.push(b',');
                newline(out, depth);
                i += 1;
            }
            b':' => {
                out.extend_from_slice(b": ");
                i += 1;
            }
            _ => {
                // A number or literal: up to the next structural byte.
                let start = i;
                while canonical
                    .get(i)
                    .is_some_and(|b| !matches!(b, b'"' | b'{' | b'[' | b'}' | b']' | b',' | b':'))
                {
                    i += 1;
                }
                out.extend_from_slice(canonical.get(start..i).unwrap_or_default());
            }
        }
    }
}

/// sha256 over the canonical JSON of `value`, which must encode as an object, with its top-level
/// keys in `excluded` left out. The top-level entries are fed to the hasher in key order straight
/// from the buffer, so the whole encoding is never copied again.
pub fn canonical_hash_without<T: ?Sized + Serialize>(
    value: &T,
    excluded: &[&str],
) -> Result<ContentHash, EncodeError> {
    let mut writer = Writer::new(excluded);
    writer.defer_top = true;
    value.serialize(&mut writer)?;
    let Some(top) = writer.top.take() else {
        return Err(EncodeError(
            "semantic hash input is not a JSON object".into(),
        ));
    };
    let mut hasher = Sha256::new();
    hasher.update(b"{");
    for (i, range) in top.iter().enumerate() {
        if i > 0 {
            hasher.update(b",");
        }
        hasher.update(&writer.out[range.clone()]);
    }
    hasher.update(b"}");
    Ok(ContentHash::from_digest(&hasher.finalize()))
}

/// Where an object entry's key text lives.
#[derive(Clone, Copy)]
enum Key {
    /// A struct field name.
    Static(&'static str),
    /// A map key, as a range of [`Writer::key_arena`].
    Arena(usize, usize),
}

/// One written object entry: its key and the byte range of `"key":value` in the output.
#[derive(Clone, Copy)]
struct Entry {
    key: Key,
    start: usize,
    end: usize,
}

/// The canonical encoder. Objects nest strictly, so one entry stack and one key arena serve all
/// of them.
struct Writer<'x> {
    out: Vec<u8>,
    depth: usize,
    entries: Vec<Entry>,
    key_arena: String,
    scratch: Vec<u8>,
    /// Top-level keys to leave out (semantic hashing).
    excluded: &'x [&'x str],
    /// Leave the top-level object's entries unsorted in place and record their ranges, in key
    /// order, in `top` (semantic hashing feeds them to the hasher directly).
    defer_top: bool,
    top: Option<Vec<std::ops::Range<usize>>>,
    /// When set, the keys (in arrival order) of every object below the top level that arrived
    /// out of key order (see [`reordered_objects`]).
    reordered: Option<Vec<Vec<String>>>,
}

impl<'x> Writer<'x> {
    fn new(excluded: &'x [&'x str]) -> Self {
        Self {
            out: Vec::new(),
            depth: 0,
            entries: Vec::new(),
            key_arena: String::new(),
            scratch: Vec::new(),
            excluded,
            defer_top: false,
            top: None,
            reordered: None,
        }
    }

    fn key_text(&self, key: Key) -> &str {
        match key {
            Key::Static(text) => text,
            Key::Arena(start, end) => &self.key_arena[start..end],
        }
    }

    fn compare_keys(&self, a: Key, b: Key) -> Ordering {
        key_order(self.key_text(a), self.key_text(b))
    }

    fn write_f64(&mut self, value: f64) {
        if !value.is_finite() {
            self.out.extend_from_slice(b"null");
            return;
        }
        let mut buffer = ryu_js::Buffer::new();
        self.out
            .extend_from_slice(buffer.format_finite(value).as_bytes());
    }

    fn write_u64(&mut self, value: u64) {
        // ECMAScript has one number type: integers are written as the double they become.
        self.write_f64(value as f64);
    }

    fn write_i64(&mut self, value: i64) {
        self.write_f64(value as f64);
    }

    fn write_str(&mut self, text: &str) {
        write_escaped(&mut self.out, text);
    }

    fn begin_object(&mut self) -> ObjectState {
        self.out.push(b'{');
        self.depth += 1;
        ObjectState {
            first_entry: self.entries.len(),
            arena_mark: self.key_arena.len(),
            body_start: self.out.len(),
            sorted: true,
            pending: None,
        }
    }

    /// Writes the separator and `"key":` for a new entry, returning where the entry starts.
    fn begin_entry(&mut self, state: &mut ObjectState, key: Key) -> usize {
        let count = self.entries.len() - state.first_entry;
        if count > 0 {
            self.out.push(b',');
            let previous = self.entries[self.entries.len() - 1].key;
            if self.compare_keys(previous, key) != Ordering::Less {
                state.sorted = false;
            }
        }
        let start = self.out.len();
        // The arena and the output are separate fields, so a map key is written without a copy.
        let text = match key {
            Key::Static(text) => text,
            Key::Arena(a, b) => &self.key_arena[a..b],
        };
        write_escaped(&mut self.out, text);
        self.out.push(b':');
        start
    }

    fn end_entry(&mut self, key: Key, start: usize) {
        let end = self.out.len();
        self.entries.push(Entry { key, start, end });
    }

    fn end_object(&mut self, state: ObjectState) {
        self.depth -= 1;
        let top_level = self.depth == 0;
        if !state.sorted && !top_level && self.reordered.is_some() {
            let keys: Vec<String> = self.entries[state.first_entry..]
                .iter()
                .map(|entry| self.key_text(entry.key).to_owned())
                .collect();
            if let Some(reordered) = &mut self.reordered {
                reordered.push(keys);
            }
        }
        let filter = top_level && !self.excluded.is_empty();
        let defer = top_level && self.defer_top;
        if !state.sorted || filter || defer {
            let order = self.entry_order(&state, filter);
            if defer {
                let ranges = order
                    .iter()
                    .map(|&i| self.entries[i].start..self.entries[i].end);
                self.top = Some(ranges.collect());
                self.entries.truncate(state.first_entry);
                self.key_arena.truncate(state.arena_mark);
                return;
            }
            self.rewrite_entries(&state, &order);
        }
        self.out.push(b'}');
        self.entries.truncate(state.first_entry);
        self.key_arena.truncate(state.arena_mark);
    }

    /// The indices of an object's entries in key order: among equal keys only the last written
    /// (what inserting into a map does), and without the excluded keys when `filter`.
    fn entry_order(&self, state: &ObjectState, filter: bool) -> Vec<usize> {
        let mut order: Vec<usize> = (state.first_entry..self.entries.len()).collect();
        if !state.sorted {
            // Stable, so among equal keys the last written comes last.
            order.sort_by(|&a, &b| self.compare_keys(self.entries[a].key, self.entries[b].key));
            let mut kept: Vec<usize> = Vec::with_capacity(order.len());
            for index in order {
                match kept.last_mut() {
                    Some(last)
                        if self.compare_keys(self.entries[*last].key, self.entries[index].key)
                            == Ordering::Equal =>
                    {
                        *last = index;
                    }
                    _ => kept.push(index),
                }
            }
            order = kept;
        }
        if filter {
            order.retain(|&i| !self.excluded.contains(&self.key_text(self.entries[i].key)));
        }
        order
    }

    /// Rewrites an object's body with its entries in `order`.
    fn rewrite_entries(&mut self, state: &ObjectState, order: &[usize]) {
        let body_start = state.body_start;
        self.scratch.clear();
        self.scratch.extend_from_slice(&self.out[body_start..]);
        self.out.truncate(body_start);
        let mut scratch = std::mem::take(&mut self.scratch);
        for (n, &i) in order.iter().enumerate() {
            if n > 0 {
                self.out.push(b',');
            }
            let entry = self.entries[i];
            self.out
                .extend_from_slice(&scratch[entry.start - body_start..entry.end - body_start]);
        }
        scratch.clear();
        self.scratch = scratch;
    }

    fn begin_array(&mut self) -> usize {
        self.out.push(b'[');
        self.depth += 1;
        self.out.len()
    }

    fn begin_element(&mut self, body_start: usize) {
        if self.out.len() > body_start {
            self.out.push(b',');
        }
    }

    fn end_array(&mut self) {
        self.depth -= 1;
        self.out.push(b']');
    }

    /// `{"variant": …` for enum variants carrying data; closed by [`Self::end_variant`].
    fn begin_variant(&mut self, variant: &'static str) -> ObjectState {
        let mut state = self.begin_object();
        let start = self.begin_entry(&mut state, Key::Static(variant));
        state.pending = Some((Key::Static(variant), start));
        state
    }

    fn end_variant(&mut self, mut state: ObjectState) {
        if let Some((key, start)) = state.pending.take() {
            self.end_entry(key, start);
        }
        self.end_object(state);
    }
}

/// An open object: where its entries and keys start, and whether they arrived in order.
struct ObjectState {
    first_entry: usize,
    arena_mark: usize,
    body_start: usize,
    sorted: bool,
    /// A map key written, its value not yet (or a variant's single entry).
    pending: Option<(Key, usize)>,
}

/// JSON string escaping as serde_json and RFC 8785 both do it: `"` and `\`, the short forms
/// `\b \f \n \r \t`, other control characters as `\u00xx` (lowercase), everything else as is.
fn write_escaped(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Document bodies are long and rarely need escaping: skip eight plain bytes at a time.
        if let Some(chunk) = bytes.get(i..i + 8)
            && let Ok(chunk) = <[u8; 8]>::try_from(chunk)
            && !needs_escape(u64::from_le_bytes(chunk))
        {
            i += 8;
            continue;
        }
        let byte = bytes[i];
        let short = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x0c => b'f',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x00..=0x1f => b'u',
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(&bytes[run..i]);
        out.push(b'\\');
        out.push(short);
        if short == b'u' {
            out.extend_from_slice(b"00");
            out.push(HEX[usize::from(byte >> 4)]);
            out.push(HEX[usize::from(byte & 0xf)]);
        }
        i += 1;
        run = i;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// Whether any of eight bytes is `"`, `\` or below 0x20 (the classic has-zero-byte and
/// has-less-than bit tricks; no false negatives, and a false positive only costs the slow path).
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS != 0;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS != 0;
    below_space
        || has_zero(word ^ (ONES * u64::from(b'"')))
        || has_zero(word ^ (ONES * u64::from(b'\\')))
}

/// The compound-value state handed back to serde.
pub struct Compound<'w, 'x> {
    writer: &'w mut Writer<'x>,
    kind: CompoundKind,
}

enum CompoundKind {
    Array {
        body_start: usize,
    },
    /// An array inside `{"variant": …}` (tuple variants).
    VariantArray {
        body_start: usize,
        variant: ObjectState,
    },
    Object(ObjectState),
    /// An object inside `{"variant": …}` (struct variants).
    VariantObject {
        inner: ObjectState,
        variant: ObjectState,
    },
}

impl<'w, 'x> ser::Serializer for &'w mut Writer<'x> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Compound<'w, 'x>;
    type SerializeTuple = Compound<'w, 'x>;
    type SerializeTupleStruct = Compound<'w, 'x>;
    type SerializeTupleVariant = Compound<'w, 'x>;
    type SerializeMap = Compound<'w, 'x>;
    type SerializeStruct = Compound<'w, 'x>;
    type SerializeStructVariant = Compound<'w, 'x>;

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), EncodeError> {
        self.write_i64(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), EncodeError> {
        self.write_i64(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), EncodeError> {
        self.write_i64(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), EncodeError> {
        self.write_i64(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), EncodeError> {
        if let Ok(v) = u64::try_from(v) {
            self.write_u64(v);
        } else if let Ok(v) = i64::try_from(v) {
            self.write_i64(v);
        } else {
            return Err(EncodeError("number out of range".into()));
        }
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), EncodeError> {
        self.write_u64(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), EncodeError> {
        self.write_u64(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), EncodeError> {
        self.write_u64(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        self.write_u64(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), EncodeError> {
        let v = u64::try_from(v).map_err(|_| EncodeError("number out of range".into()))?;
        self.write_u64(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), EncodeError> {
        self.write_f64(v.into());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), EncodeError> {
        self.write_f64(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        self.write_str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.write_str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), EncodeError> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for byte in v {
            seq.serialize_element(byte)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<(), EncodeError> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), EncodeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), EncodeError> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), EncodeError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), EncodeError> {
        self.write_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        let state = self.begin_variant(variant);
        value.serialize(&mut *self)?;
        self.end_variant(state);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'w, 'x>, EncodeError> {
        let body_start = self.begin_array();
        Ok(Compound {
            writer: self,
            kind: CompoundKind::Array { body_start },
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'w, 'x>, EncodeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'w, 'x>, EncodeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'w, 'x>, EncodeError> {
        let variant = self.begin_variant(variant);
        let body_start = self.begin_array();
        Ok(Compound {
            writer: self,
            kind: CompoundKind::VariantArray {
                body_start,
                variant,
            },
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'w, 'x>, EncodeError> {
        let state = self.begin_object();
        Ok(Compound {
            writer: self,
            kind: CompoundKind::Object(state),
        })
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'w, 'x>, EncodeError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'w, 'x>, EncodeError> {
        let variant = self.begin_variant(variant);
        let inner = self.begin_object();
        Ok(Compound {
            writer: self,
            kind: CompoundKind::VariantObject { inner, variant },
        })
    }
}

impl Compound<'_, '_> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        let body_start = match &self.kind {
            CompoundKind::Array { body_start } | CompoundKind::VariantArray { body_start, .. } => {
                *body_start
            }
            _ => return Err(EncodeError("array element outside an array".into())),
        };
        self.writer.begin_element(body_start);
        value.serialize(&mut *self.writer)
    }

    fn finish_array(self) -> Result<(), EncodeError> {
        match self.kind {
            CompoundKind::Array { .. } => self.writer.end_array(),
            CompoundKind::VariantArray { variant, .. } => {
                self.writer.end_array();
                self.writer.end_variant(variant);
            }
            _ => return Err(EncodeError("array end outside an array".into())),
        }
        Ok(())
    }

    fn field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        let start = self
            .writer
            .begin_entry(object_state(&mut self.kind)?, Key::Static(key));
        value.serialize(&mut *self.writer)?;
        self.writer.end_entry(Key::Static(key), start);
        Ok(())
    }

    fn finish_object(self) -> Result<(), EncodeError> {
        match self.kind {
            CompoundKind::Object(state) => self.writer.end_object(state),
            CompoundKind::VariantObject { inner, variant } => {
                self.writer.end_object(inner);
                self.writer.end_variant(variant);
            }
            _ => return Err(EncodeError("object end outside an object".into())),
        }
        Ok(())
    }
}

/// The object a struct field or map entry belongs to.
fn object_state(kind: &mut CompoundKind) -> Result<&mut ObjectState, EncodeError> {
    match kind {
        CompoundKind::Object(state) | CompoundKind::VariantObject { inner: state, .. } => Ok(state),
        _ => Err(EncodeError("object entry outside an object".into())),
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.element(value)
    }
    fn end(self) -> Result<(), EncodeError> {
        self.finish_array()
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.element(value)
    }
    fn end(self) -> Result<(), EncodeError> {
        self.finish_array()
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.element(value)
    }
    fn end(self) -> Result<(), EncodeError> {
        self.finish_array()
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.element(value)
    }
    fn end(self) -> Result<(), EncodeError> {
        self.finish_array()
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), EncodeError> {
        self.finish_object()
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), EncodeError> {
        self.finish_object()
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = EncodeError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), EncodeError> {
        let start = self.writer.key_arena.len();
        key.serialize(KeyWriter(&mut self.writer.key_arena))?;
        let key = Key::Arena(start, self.writer.key_arena.len());
        let writer: &mut Writer = self.writer;
        let state = match &mut self.kind {
            CompoundKind::Object(state) => state,
            _ => return Err(EncodeError("map key outside a map".into())),
        };
        let entry_start = writer.begin_entry(state, key);
        state.pending = Some((key, entry_start));
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), EncodeError> {
        let pending = object_state(&mut self.kind)?
            .pending
            .take()
            .ok_or_else(|| EncodeError("map value without a key".into()))?;
        value.serialize(&mut *self.writer)?;
        self.writer.end_entry(pending.0, pending.1);
        Ok(())
    }
    fn end(self) -> Result<(), EncodeError> {
        self.finish_object()
    }
}

/// Map keys: strings as they are; numbers, booleans and unit variants as their text (what
/// `serde_json::to_value` accepts); anything else is an error.
struct KeyWriter<'a>(&'a mut String);

impl KeyWriter<'_> {
    fn text(self, text: &str) -> Result<(), EncodeError> {
        self.0.push_str(text);
        Ok(())
    }
    fn not_a_string() -> EncodeError {
        EncodeError("key must be a string".into())
    }
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = EncodeError;
    type SerializeSeq = Impossible<(), EncodeError>;
    type SerializeTuple = Impossible<(), EncodeError>;
    type SerializeTupleStruct = Impossible<(), EncodeError>;
    type SerializeTupleVariant = Impossible<(), EncodeError>;
    type SerializeMap = Impossible<(), EncodeError>;
    type SerializeStruct = Impossible<(), EncodeError>;
    type SerializeStructVariant = Impossible<(), EncodeError>;

    fn serialize_bool(self, v: bool) -> Result<(), EncodeError> {
        self.text(if v { "true" } else { "false" })
    }
    fn serialize_i8(self, v: i8) -> Result<(), EncodeError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), EncodeError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), EncodeError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }
    fn serialize_u8(self, v: u8) -> Result<(), EncodeError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), EncodeError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), EncodeError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }
    fn serialize_u128(self, v: u128) -> Result<(), EncodeError> {
        self.text(itoa::Buffer::new().format(v))
    }
    fn serialize_f32(self, v: f32) -> Result<(), EncodeError> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), EncodeError> {
        if !v.is_finite() {
            return Err(EncodeError("float key must be finite".into()));
        }
        let mut text = Vec::new();
        let _ = CompactFormatter.write_f64(&mut text, v);
        self.text(&String::from_utf8_lossy(&text))
    }
    fn serialize_char(self, v: char) -> Result<(), EncodeError> {
        self.text(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), EncodeError> {
        self.text(v)
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<(), EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_none(self) -> Result<(), EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<(), EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_unit(self) -> Result<(), EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), EncodeError> {
        self.text(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, EncodeError> {
        Err(Self::not_a_string())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, EncodeError> {
        Err(Self::not_a_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_escape_finds_every_escaped_byte_at_every_position() {
        for byte in 0..=255u8 {
            let expected = byte < 0x20 || byte == b'"' || byte == b'\\';
            for position in 0..8 {
                let mut word = [b'a'; 8];
                word[position] = byte;
                assert_eq!(
                    needs_escape(u64::from_le_bytes(word)),
                    expected,
                    "byte {byte:#x} at {position}"
                );
            }
        }
    }

    #[test]
    fn encoding_into_a_used_buffer_gives_the_bytes_of_a_new_one() {
        let value = serde_json::json!({"b": [1, 2.5, "x\n"], "a": {"d": null, "c": true}});
        let fresh = to_vec(&value, Style::Canonical).unwrap();
        let used = b"{\"left\": \"over\"}".repeat(100);
        assert_eq!(to_vec_in(&value, Style::Canonical, used).unwrap(), fresh);
    }

    #[test]
    fn long_strings_escape_across_chunk_boundaries() {
        let text = format!(
            "{}\"{}\n{}\u{1}",
            "x".repeat(7),
            "y".repeat(9),
            "é".repeat(5)
        );
        let mut out = Vec::new();
        write_escaped(&mut out, &text);
        assert_eq!(out, serde_json::to_vec(&text).unwrap_or_default());
    }
}
