//! Serializing the top of an artifact into a [`Node`]: objects and arrays near the top are
//! split, array elements become the memo's pieces, everything deeper a `serde_json::Value`.

use std::sync::Arc;

use serde::Serialize;
use serde::ser::{self, Serializer};
use serde_json::Value;

use super::*;

/// A value split at the memoized arrays.
pub(super) enum Node {
    Leaf(Value),
    Array(Vec<Arc<Encoded>>),
    Object(Vec<(String, Node)>),
    /// A map near the top (the index's `inputs.files`, `handoffs`), memoized whole.
    Whole(Arc<Encoded>),
    /// A struct this memo sealed (a projection inside the index): its sealed fields come from
    /// the seal, the ones the seal left out are `fresh`.
    Sealed {
        split: Arc<SealedSplit>,
        fresh: Vec<(String, Node)>,
    },
}

/// Serializes the top of an artifact into a [`Node`]: structs near the top become objects, arrays
/// near the top become memoized elements, everything else becomes a `serde_json::Value` exactly as
/// `serde_json::to_value` makes it.
pub(super) struct NodeSerializer<'a> {
    memo: &'a EncodingMemo,
    depth: usize,
    /// At the top only: the fields to serialize (the others are skipped unseen); `None` for all.
    only: Option<&'a [String]>,
}

impl<'a> NodeSerializer<'a> {
    pub(super) fn top(memo: &'a EncodingMemo, only: Option<&'a [String]>) -> Self {
        NodeSerializer {
            memo,
            depth: 0,
            only,
        }
    }
}

type ValueSer = serde_json::value::Serializer;
/// The unit value of serde_json's value serializer.
const VALUE_SER: ValueSer = serde_json::value::Serializer;
pub(super) type JsonResult<T> = Result<T, serde_json::Error>;

macro_rules! leaf {
    ($($name:ident($ty:ty)),* $(,)?) => {
        $(fn $name(self, v: $ty) -> JsonResult<Node> {
            VALUE_SER.$name(v).map(Node::Leaf)
        })*
    };
}

impl<'a> Serializer for NodeSerializer<'a> {
    type Ok = Node;
    type Error = serde_json::Error;
    type SerializeSeq = SeqNode<'a>;
    type SerializeTuple = Wrap<<ValueSer as Serializer>::SerializeTuple>;
    type SerializeTupleStruct = Wrap<<ValueSer as Serializer>::SerializeTupleStruct>;
    type SerializeTupleVariant = Wrap<<ValueSer as Serializer>::SerializeTupleVariant>;
    type SerializeMap = Wrap<<ValueSer as Serializer>::SerializeMap>;
    type SerializeStruct = StructNode<'a>;
    type SerializeStructVariant = Wrap<<ValueSer as Serializer>::SerializeStructVariant>;

    leaf!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
    );

    fn serialize_none(self) -> JsonResult<Node> {
        VALUE_SER.serialize_none().map(Node::Leaf)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> JsonResult<Node> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> JsonResult<Node> {
        VALUE_SER.serialize_unit().map(Node::Leaf)
    }
    fn serialize_unit_struct(self, name: &'static str) -> JsonResult<Node> {
        VALUE_SER.serialize_unit_struct(name).map(Node::Leaf)
    }
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> JsonResult<Node> {
        VALUE_SER
            .serialize_unit_variant(name, index, variant)
            .map(Node::Leaf)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> JsonResult<Node> {
        // serde_json's value serializer is transparent for newtype structs too.
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> JsonResult<Node> {
        VALUE_SER
            .serialize_newtype_variant(name, index, variant, value)
            .map(Node::Leaf)
    }
    fn serialize_seq(self, len: Option<usize>) -> JsonResult<SeqNode<'a>> {
        if (1..=MAX_ARRAY_DEPTH).contains(&self.depth) && self.memo.single_use {
            Ok(SeqNode::Chunks(Vec::new(), Vec::new()))
        } else if (1..=MAX_ARRAY_DEPTH).contains(&self.depth) {
            Ok(SeqNode::Memo(
                self.memo,
                Vec::with_capacity(len.unwrap_or(0)),
            ))
        } else {
            VALUE_SER.serialize_seq(len).map(SeqNode::Plain)
        }
    }
    fn serialize_tuple(self, len: usize) -> JsonResult<Self::SerializeTuple> {
        VALUE_SER.serialize_tuple(len).map(Wrap)
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> JsonResult<Self::SerializeTupleStruct> {
        VALUE_SER.serialize_tuple_struct(name, len).map(Wrap)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> JsonResult<Self::SerializeTupleVariant> {
        VALUE_SER
            .serialize_tuple_variant(name, index, variant, len)
            .map(Wrap)
    }
    fn serialize_map(self, len: Option<usize>) -> JsonResult<Self::SerializeMap> {
        VALUE_SER.serialize_map(len).map(Wrap)
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> JsonResult<StructNode<'a>> {
        if self.depth <= MAX_OBJECT_DEPTH {
            Ok(StructNode::Split {
                memo: self.memo,
                depth: self.depth,
                only: self.only,
                fields: Vec::with_capacity(len),
            })
        } else {
            VALUE_SER.serialize_struct(name, len).map(StructNode::Plain)
        }
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> JsonResult<Self::SerializeStructVariant> {
        VALUE_SER
            .serialize_struct_variant(name, index, variant, len)
            .map(Wrap)
    }
}

/// An array: memoized elements near the top, a plain value below.
pub(super) enum SeqNode<'a> {
    Memo(&'a EncodingMemo, Vec<Arc<Encoded>>),
    /// A single-use memo's pieces so far, and the piece being filled.
    Chunks(Vec<Arc<Encoded>>, Vec<u8>),
    Plain(<ValueSer as Serializer>::SerializeSeq),
}

impl ser::SerializeSeq for SeqNode<'_> {
    type Ok = Node;
    type Error = serde_json::Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> JsonResult<()> {
        match self {
            SeqNode::Memo(memo, items) => {
                items.push(memo.encode(value)?);
                Ok(())
            }
            SeqNode::Chunks(items, piece) => {
                Chunked::append(piece, value)?;
                if piece.len() >= CHUNK_BYTES {
                    items.push(Arc::new(Encoded::new(std::mem::take(piece))));
                }
                Ok(())
            }
            SeqNode::Plain(seq) => seq.serialize_element(value),
        }
    }
    fn end(self) -> JsonResult<Node> {
        match self {
            SeqNode::Memo(_, items) => Ok(Node::Array(items)),
            SeqNode::Chunks(mut items, piece) => {
                if !piece.is_empty() {
                    items.push(Arc::new(Encoded::new(piece)));
                }
                Ok(Node::Array(items))
            }
            SeqNode::Plain(seq) => seq.end().map(Node::Leaf),
        }
    }
}

/// A struct: split into fields near the top, a plain value below.
pub(super) enum StructNode<'a> {
    Split {
        memo: &'a EncodingMemo,
        depth: usize,
        only: Option<&'a [String]>,
        fields: Vec<(String, Node)>,
    },
    Plain(<ValueSer as Serializer>::SerializeStruct),
}

impl ser::SerializeStruct for StructNode<'_> {
    type Ok = Node;
    type Error = serde_json::Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> JsonResult<()> {
        match self {
            StructNode::Split {
                memo,
                depth,
                only,
                fields,
            } => {
                if only.is_some_and(|only| !only.iter().any(|name| name == key)) {
                    return Ok(());
                }
                let prekeyed = PREKEYED.with(|prekeyed| {
                    prekeyed
                        .borrow_mut()
                        .as_mut()
                        .and_then(|table| table.take(value))
                });
                if let Some(items) = prekeyed {
                    fields.push((key.to_owned(), Node::Array(items)));
                    return Ok(());
                }
                if (1..=MAX_ARRAY_DEPTH).contains(&(*depth + 1)) && is_map(value) {
                    fields.push((key.to_owned(), Node::Whole(memo.encode(value)?)));
                    return Ok(());
                }
                let node = match sealed_node(memo, *depth + 1, value)? {
                    Some(node) => node,
                    None => value.serialize(NodeSerializer {
                        memo,
                        depth: *depth + 1,
                        only: None,
                    })?,
                };
                fields.push((key.to_owned(), node));
                Ok(())
            }
            StructNode::Plain(s) => s.serialize_field(key, value),
        }
    }
    fn end(self) -> JsonResult<Node> {
        match self {
            StructNode::Split { fields, .. } => Ok(Node::Object(fields)),
            StructNode::Plain(s) => s.end().map(Node::Leaf),
        }
    }
}

/// A field value that this memo sealed on its own (the projection inside the index), taken from
/// that seal when the value's `contentHash` is the seal's hash: only the fields the seal left
/// out are serialized. `None` when there is no such seal or the hash differs.
pub(super) fn sealed_node<T: ?Sized + Serialize>(
    memo: &EncodingMemo,
    depth: usize,
    value: &T,
) -> JsonResult<Option<Node>> {
    if depth > MAX_OBJECT_DEPTH {
        return Ok(None);
    }
    let Some(split) = memo.sealed_split_of_type(std::any::type_name::<T>()) else {
        return Ok(None);
    };
    let fresh = match value.serialize(NodeSerializer {
        memo,
        depth,
        only: Some(&split.excluded),
    })? {
        Node::Object(fresh) => fresh,
        _ => return Ok(None),
    };
    let vouched = fresh.iter().any(|(key, node)| {
        key == "contentHash"
            && matches!(node, Node::Leaf(Value::String(hash)) if hash == split.hash.as_str())
    });
    Ok(vouched.then_some(Node::Sealed { split, fresh }))
}

/// Whether `value` serializes as a map. Only its first serializer call is looked at: the probe
/// fails right there, so no entry is visited.
pub(super) fn is_map<T: ?Sized + Serialize>(value: &T) -> bool {
    matches!(value.serialize(ShapeProbe), Err(Shape::Map))
}

/// The first serializer call of a value, as an error that stops it (see [`is_map`]).
#[derive(Debug)]
enum Shape {
    Map,
    Other,
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Shape {}

impl ser::Error for Shape {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Shape::Other
    }
}

struct ShapeProbe;

macro_rules! other_shape {
    ($($name:ident($($arg:ty),*) -> $ok:ty),* $(,)?) => {
        $(fn $name(self, $(_: $arg),*) -> Result<$ok, Shape> {
            Err(Shape::Other)
        })*
    };
}

impl Serializer for ShapeProbe {
    type Ok = ();
    type Error = Shape;
    type SerializeSeq = ser::Impossible<(), Shape>;
    type SerializeTuple = ser::Impossible<(), Shape>;
    type SerializeTupleStruct = ser::Impossible<(), Shape>;
    type SerializeTupleVariant = ser::Impossible<(), Shape>;
    type SerializeMap = ser::Impossible<(), Shape>;
    type SerializeStruct = ser::Impossible<(), Shape>;
    type SerializeStructVariant = ser::Impossible<(), Shape>;

    other_shape!(
        serialize_bool(bool) -> (),
        serialize_i8(i8) -> (),
        serialize_i16(i16) -> (),
        serialize_i32(i32) -> (),
        serialize_i64(i64) -> (),
        serialize_u8(u8) -> (),
        serialize_u16(u16) -> (),
        serialize_u32(u32) -> (),
        serialize_u64(u64) -> (),
        serialize_f32(f32) -> (),
        serialize_f64(f64) -> (),
        serialize_char(char) -> (),
        serialize_str(&str) -> (),
        serialize_bytes(&[u8]) -> (),
        serialize_none() -> (),
        serialize_unit() -> (),
        serialize_unit_struct(&'static str) -> (),
        serialize_unit_variant(&'static str, u32, &'static str) -> (),
        serialize_seq(Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(usize) -> Self::SerializeTuple,
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
        serialize_tuple_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeTupleVariant,
        serialize_struct(&'static str, usize) -> Self::SerializeStruct,
        serialize_struct_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeStructVariant,
    );

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), Shape> {
        Err(Shape::Other)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), Shape> {
        Err(Shape::Other)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Shape> {
        Err(Shape::Other)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Shape> {
        Err(Shape::Map)
    }
}

/// serde_json's own compound serializers, with their `Value` wrapped as a leaf.
pub(super) struct Wrap<S>(S);

/// The compound serializers with one method besides `end`, forwarded.
macro_rules! wrap_compound {
    ($($compound:ident :: $method:ident),* $(,)?) => {
        $(impl<S: ser::$compound<Ok = Value, Error = serde_json::Error>> ser::$compound
            for Wrap<S>
        {
            type Ok = Node;
            type Error = serde_json::Error;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> JsonResult<()> {
                self.0.$method(value)
            }
            fn end(self) -> JsonResult<Node> {
                self.0.end().map(Node::Leaf)
            }
        })*
    };
}

wrap_compound!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

impl<S: ser::SerializeMap<Ok = Value, Error = serde_json::Error>> ser::SerializeMap for Wrap<S> {
    type Ok = Node;
    type Error = serde_json::Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> JsonResult<()> {
        self.0.serialize_key(key)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> JsonResult<()> {
        self.0.serialize_value(value)
    }
    fn end(self) -> JsonResult<Node> {
        self.0.end().map(Node::Leaf)
    }
}

impl<S: ser::SerializeStructVariant<Ok = Value, Error = serde_json::Error>>
    ser::SerializeStructVariant for Wrap<S>
{
    type Ok = Node;
    type Error = serde_json::Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> JsonResult<()> {
        self.0.serialize_field(key, value)
    }
    fn end(self) -> JsonResult<Node> {
        self.0.end().map(Node::Leaf)
    }
}
