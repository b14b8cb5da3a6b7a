//! An encoding memo: the canonical JSON of the elements of an artifact's large arrays, in
//! pieces, from which the seals hash and the writes lay out the artifact.
//!
//! - Long-running (`index --watch`, [`EncodingMemo::new`]): pieces are one element each, keyed
//!   by the element's content and kept between refreshes, so a refresh after a one-file edit
//!   does not encode ten thousand unchanged entities again. An element's key is its type name and
//!   a self-delimiting encoding of its serde data (`memo_key.rs`), compared in full on every
//!   lookup (XXH3 only places it in the table), so two different values never share an entry.
//! - Single-use (a cold `index`, [`EncodingMemo::single_use`]): no keys and nothing kept; pieces
//!   hold many elements each, encoded on all cores ahead of a seal.
//!
//! The memo changes speed only, never bytes: a piece is encoded exactly as
//! [`doc_bridge_model::hash::semantic_hash`] encodes it inside the whole value. Whole-artifact output is
//! assembled from the pieces because canonical JSON is compositional (an array is `[`, its
//! elements' canonical forms joined by `,`, `]`, whether a piece holds one element or many), and
//! an artifact on disk is its canonical JSON indented ([`doc_bridge_model::sorted_json::indent`]), which
//! can be done piece by piece at the piece's depth.
//!
//! The memo is installed for a scope with [`with_memo`] (a thread-local, so no signature on the
//! way down changes); without it everything takes the ordinary path.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde::ser;
use serde_json::Value;
use sha2::{Digest, Sha256};
use xxhash_rust::xxh3::Xxh3DefaultBuilder;

use doc_bridge_model::ContentHash;
use doc_bridge_model::hash::canonical_json;

mod node;
mod write;

#[cfg(test)]
use node::is_map;
use node::{JsonResult, Node, NodeSerializer};
use write::{PrettyOut, sealed_members, write_canonical_object, write_pretty, write_pretty_object};

/// Structs at depths up to this one are split into fields (the artifact, and one level below:
/// the index's `projection`).
const MAX_OBJECT_DEPTH: usize = 1;
/// Arrays at depths from 1 up to this one are memoized per element.
const MAX_ARRAY_DEPTH: usize = 2;

/// Elements per piece when a single-use memo encodes an array ahead of its seal.
const CHUNK_ELEMENTS: usize = 256;
/// Bytes per piece when a single-use memo encodes an array as the seal meets it.
const CHUNK_BYTES: usize = 1 << 16;

/// Pieces of a single-use memo: several elements' canonical JSON joined by `,`. Canonical JSON
/// of an array is its pieces joined by `,` whether a piece holds one element or many, and
/// indenting a piece lays its commas out as the array's element separators, so both forms of
/// the array come out the same as from one piece per element, without a piece each.
struct Chunked;

impl Chunked {
    fn append<T: ?Sized + Serialize>(piece: &mut Vec<u8>, element: &T) -> JsonResult<()> {
        if !piece.is_empty() {
            piece.push(b',');
        }
        doc_bridge_model::sorted_json::append_canonical(element, piece).map_err(ser::Error::custom)
    }
}

/// One element's encodings (or, in a single-use memo, several elements', see [`Chunked`]).
struct Encoded {
    /// RFC 8785 canonical JSON.
    canonical: Vec<u8>,
    /// Its artifact form (the canonical JSON indented, see [`doc_bridge_model::sorted_json::indent`]) at
    /// the depth it was last written at, made when first written: an element sits at the same
    /// depth in every refresh, so it is indented once, not once per refresh.
    pretty: Mutex<Option<(usize, Arc<[u8]>)>>,
}

impl Encoded {
    fn new(canonical: Vec<u8>) -> Self {
        Self {
            canonical,
            pretty: Mutex::new(None),
        }
    }

    fn pretty_at(&self, depth: usize) -> Arc<[u8]> {
        let mut slot = self.pretty.lock().unwrap_or_else(|p| p.into_inner());
        match &*slot {
            Some((at, pretty)) if *at == depth => Arc::clone(pretty),
            _ => {
                let mut out = Vec::with_capacity(self.canonical.len() + self.canonical.len() / 4);
                doc_bridge_model::sorted_json::indent(&self.canonical, depth, &mut out);
                let pretty: Arc<[u8]> = out.into();
                *slot = Some((depth, Arc::clone(&pretty)));
                pretty
            }
        }
    }
}

/// Encodings of array elements, shared across refreshes. See the module documentation.
#[derive(Default)]
pub struct EncodingMemo {
    inner: Mutex<Inner>,
    /// The last seal of each artifact type, split into fields, for writing that artifact
    /// without keying its elements again (see [`sealed_artifact_bytes`]).
    sealed: Mutex<Vec<Arc<SealedSplit>>>,
    /// See [`EncodingMemo::single_use`].
    single_use: bool,
}

/// An artifact as its seal saw it: the hash, every top-level field, and the names the seal left
/// out (those are taken afresh from the value when it is written).
struct SealedSplit {
    type_name: &'static str,
    hash: ContentHash,
    fields: Vec<(String, Node)>,
    excluded: Vec<String>,
}

#[derive(Default)]
struct Inner {
    generation: u64,
    entries: HashMap<Box<[u8]>, (u64, Arc<Encoded>), Xxh3DefaultBuilder>,
    hits: u64,
    misses: u64,
}

impl EncodingMemo {
    /// An empty memo.
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// A memo for one run (a cold `index`): elements are encoded without keys and not
    /// remembered, so nothing is paid for reuse that will not come; what remains is the
    /// parallel encoding of large arrays ahead of each seal, the writes from the seals' pieces,
    /// and the projection's seal taken into the index's.
    pub fn single_use() -> Arc<Self> {
        Arc::new(Self {
            single_use: true,
            ..Self::default()
        })
    }

    /// Forgets every element not used since the last sweep, so memory follows the tree.
    /// Returns the (hits, misses) counted since the last sweep.
    pub fn sweep(&self) -> (u64, u64) {
        let mut inner = self.lock();
        let generation = inner.generation;
        inner.entries.retain(|_, (used, _)| *used == generation);
        inner.generation += 1;
        let counts = (inner.hits, inner.misses);
        inner.hits = 0;
        inner.misses = 0;
        counts
    }

    /// Forgets the last seal of `T` (and the pieces only it held): once that artifact is
    /// written, a single-use memo has no more use for them.
    pub fn forget_seal<T: ?Sized>(&self) {
        let mut sealed = self.sealed.lock().unwrap_or_else(|p| p.into_inner());
        sealed.retain(|kept| kept.type_name != std::any::type_name::<T>());
    }

    fn remember_seal(&self, split: SealedSplit) {
        let mut sealed = self.sealed.lock().unwrap_or_else(|p| p.into_inner());
        sealed.retain(|kept| kept.type_name != split.type_name);
        sealed.push(Arc::new(split));
    }

    fn sealed_split_of_type(&self, type_name: &str) -> Option<Arc<SealedSplit>> {
        let sealed = self.sealed.lock().unwrap_or_else(|p| p.into_inner());
        sealed
            .iter()
            .find(|split| split.type_name == type_name)
            .cloned()
    }

    /// The last seal of `type_name`, when it sealed to `hash` (one split is kept per type).
    fn sealed_split(&self, type_name: &str, hash: &ContentHash) -> Option<Arc<SealedSplit>> {
        self.sealed_split_of_type(type_name)
            .filter(|split| split.hash == *hash)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves a consistent map (entries are inserted whole).
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn encode<T: ?Sized + Serialize>(&self, value: &T) -> Result<Arc<Encoded>, serde_json::Error> {
        if self.single_use {
            return Self::encoded(value).map(Arc::new);
        }
        // One key buffer per thread, taken out while in use (so a re-entrant call would only
        // allocate, never alias it).
        let mut key = KEY_BUFFER.take();
        let found = self.lookup(value, &mut key);
        let result = match found {
            Ok(Some(encoded)) => Ok(encoded),
            Ok(None) => self.insert(value, Box::from(key.as_slice())),
            Err(e) => Err(e),
        };
        KEY_BUFFER.set(key);
        result
    }

    fn lookup<T: ?Sized + Serialize>(
        &self,
        value: &T,
        key: &mut Vec<u8>,
    ) -> Result<Option<Arc<Encoded>>, serde_json::Error> {
        crate::memo_key::write_key(value, key).map_err(ser::Error::custom)?;
        let mut inner = self.lock();
        let generation = inner.generation;
        let Some((used, encoded)) = inner.entries.get_mut(key.as_slice()) else {
            return Ok(None);
        };
        *used = generation;
        let encoded = Arc::clone(encoded);
        inner.hits += 1;
        Ok(Some(encoded))
    }

    fn encoded<T: ?Sized + Serialize>(value: &T) -> Result<Encoded, serde_json::Error> {
        let canonical = canonical_json(value).map_err(ser::Error::custom)?;
        Ok(Encoded::new(canonical))
    }

    fn insert<T: ?Sized + Serialize>(
        &self,
        value: &T,
        key: Box<[u8]>,
    ) -> Result<Arc<Encoded>, serde_json::Error> {
        let encoded = Arc::new(Self::encoded(value)?);
        let mut inner = self.lock();
        let generation = inner.generation;
        inner.misses += 1;
        inner
            .entries
            .insert(key, (generation, Arc::clone(&encoded)));
        Ok(encoded)
    }
}

thread_local! {
    static KEY_BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    static ACTIVE: RefCell<Option<Arc<EncodingMemo>>> = const { RefCell::new(None) };
}

/// Runs `work` with `memo` active on this thread: [`doc_bridge_model::hash::semantic_hash_large`] and
/// [`crate::artifact::to_artifact_bytes`] called inside it use the memo.
pub fn with_memo<R>(memo: &Arc<EncodingMemo>, work: impl FnOnce() -> R) -> R {
    crate::scoped::with_installed(&ACTIVE, memo, work)
}

/// The memo active on this thread, to install on a helper thread with [`with_memo`].
pub fn current() -> Option<Arc<EncodingMemo>> {
    crate::scoped::installed(&ACTIVE)
}

/// The semantic hash through the active memo; `None` when no memo is active or the value does
/// not split (the caller then takes the ordinary path).
pub(crate) fn semantic_hash<T: ?Sized + Serialize>(
    value: &T,
    excluded: &[&str],
) -> Option<Result<ContentHash, String>> {
    let memo = current()?;
    let node = match value.serialize(NodeSerializer::top(&memo, None)) {
        Ok(node) => node,
        Err(e) => return Some(Err(e.to_string())),
    };
    let mut hasher = Sha256::new();
    let result = match node {
        Node::Object(fields) => {
            let mut kept: Vec<(&str, &Node)> = fields
                .iter()
                .filter(|(key, _)| !excluded.contains(&key.as_str()))
                .map(|(key, node)| (key.as_str(), node))
                .collect();
            write_canonical_object(&mut kept, &mut hasher).map(|()| {
                let hash = ContentHash::from_digest(&hasher.finalize());
                memo.remember_seal(SealedSplit {
                    type_name: std::any::type_name::<T>(),
                    hash: hash.clone(),
                    fields,
                    excluded: excluded.iter().map(|name| (*name).to_owned()).collect(),
                });
                hash
            })
        }
        Node::Leaf(Value::Object(mut object)) => {
            for key in excluded {
                object.remove(*key);
            }
            canonical_json(&Value::Object(object))
                .map(|bytes| {
                    hasher.update(bytes);
                    ContentHash::from_digest(&hasher.finalize())
                })
                .map_err(|e| e.to_string())
        }
        _ => Err("semantic hash input is not a JSON object".to_owned()),
    };
    Some(result)
}

/// A large array of an artifact that can be keyed ahead of the artifact's seal, on all cores
/// (see [`doc_bridge_model::hash::semantic_hash_large_prekeyed`]).
pub trait Prekey: Sync {
    /// Keys (and on a miss encodes) every element through `memo`, recording the array's address
    /// and type with its elements' encodings in `table`.
    fn prekey(&self, memo: &EncodingMemo, table: &mut PrekeyTable);
}

impl<T: Serialize + Sync> Prekey for Vec<T> {
    fn prekey(&self, memo: &EncodingMemo, table: &mut PrekeyTable) {
        use rayon::prelude::*;
        let encoded: Result<Vec<Arc<Encoded>>, _> = if memo.single_use {
            self.par_chunks(CHUNK_ELEMENTS)
                .map(|chunk| {
                    let mut piece = Vec::new();
                    for element in chunk {
                        Chunked::append(&mut piece, element)?;
                    }
                    Ok(Arc::new(Encoded::new(piece)))
                })
                .collect()
        } else {
            self.par_iter()
                .map(|element| memo.encode(element))
                .collect()
        };
        // An element that cannot be encoded is left to the seal, which reports it.
        if let Ok(encoded) = encoded {
            let address = std::ptr::from_ref(self) as usize;
            table
                .arrays
                .insert(address, (std::any::type_name::<Self>(), encoded));
        }
    }
}

/// Arrays keyed ahead of a seal, by the address and type of the array: valid only while the
/// sealed value is borrowed, which `semantic_hash_prekeyed` guarantees by dropping the table
/// before the borrow ends. Two live values of one type (a `Vec` is never zero-sized) never
/// share an address, so a hit is the very array that was keyed, unchanged.
#[derive(Default)]
pub struct PrekeyTable {
    arrays: rustc_hash::FxHashMap<usize, (&'static str, Vec<Arc<Encoded>>)>,
}

impl PrekeyTable {
    /// The encodings of `value` when it is a keyed array, taken out (the seal visits each
    /// field once).
    fn take<T: ?Sized>(&mut self, value: &T) -> Option<Vec<Arc<Encoded>>> {
        let address = std::ptr::from_ref(value).cast::<()>() as usize;
        match self.arrays.get(&address) {
            Some((type_name, _)) if *type_name == std::any::type_name::<T>() => {
                self.arrays.remove(&address).map(|(_, encoded)| encoded)
            }
            _ => None,
        }
    }
}

thread_local! {
    static PREKEYED: RefCell<Option<PrekeyTable>> = const { RefCell::new(None) };
}

/// [`doc_bridge_model::hash::semantic_hash_large`] with the elements of `arrays` (fields of `value`) keyed
/// in parallel first; the seal then takes those arrays whole instead of keying their elements
/// one by one. Without an active memo it is the ordinary hash.
pub(crate) fn semantic_hash_prekeyed<T: ?Sized + Serialize>(
    value: &T,
    excluded: &[&str],
    arrays: &[&dyn Prekey],
) -> Option<Result<ContentHash, String>> {
    let memo = current()?;
    with_prekeyed(&memo, arrays, || semantic_hash(value, excluded))
}

/// Runs `work` with the elements of `arrays` keyed (see [`semantic_hash_prekeyed`]).
fn with_prekeyed<R>(memo: &EncodingMemo, arrays: &[&dyn Prekey], work: impl FnOnce() -> R) -> R {
    let mut table = PrekeyTable::default();
    for array in arrays {
        array.prekey(memo, &mut table);
    }
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            PREKEYED.with(|prekeyed| prekeyed.borrow_mut().take());
        }
    }
    PREKEYED.with(|prekeyed| *prekeyed.borrow_mut() = Some(table));
    let _clear = Clear;
    work()
}

/// A top-level string member the seal leaves out, as [`seal_and_write`] wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrittenField {
    /// The member's name.
    pub(crate) key: String,
    /// The text written (as in `value`).
    pub(crate) text: String,
    /// Where its text (after the opening quote) starts in the output.
    pub(crate) at: u64,
}

/// [`semantic_hash_prekeyed`] and the artifact form of `value`, made at the same time: the hash
/// on a thread of its own while this one writes to `sink`. The fields the seal leaves out are
/// written as `value` holds them (the caller's guesses, or placeholders); returned with the
/// hash is each of them that is a string, with where its text starts in the output, for the
/// caller to put the right text there if the guess was wrong. `None` when no memo is active or
/// `value` does not split into fields.
pub(crate) fn seal_and_write<T: ?Sized + Serialize>(
    value: &T,
    excluded: &[&str],
    arrays: &[&dyn Prekey],
    sink: &mut dyn std::io::Write,
) -> Option<Result<(ContentHash, Vec<WrittenField>), String>> {
    let memo = current()?;
    let node = with_prekeyed(&memo, arrays, || {
        value.serialize(NodeSerializer::top(&memo, None))
    });
    let fields = match node {
        Ok(Node::Object(fields)) => fields,
        Ok(_) => return None,
        Err(e) => return Some(Err(e.to_string())),
    };
    let left_out: Vec<(String, String)> = fields
        .iter()
        .filter(|(key, _)| excluded.contains(&key.as_str()))
        .filter_map(|(key, node)| match node {
            Node::Leaf(Value::String(text)) => Some((key.clone(), text.clone())),
            _ => None,
        })
        .collect();
    let (hashed, written) = std::thread::scope(|scope| {
        let hasher = scope.spawn(|| {
            let mut kept: Vec<(&str, &Node)> = fields
                .iter()
                .filter(|(key, _)| !excluded.contains(&key.as_str()))
                .map(|(key, node)| (key.as_str(), node))
                .collect();
            let mut hasher = Sha256::new();
            write_canonical_object(&mut kept, &mut hasher)
                .map(|()| ContentHash::from_digest(&hasher.finalize()))
        });
        let mut all: Vec<(&str, &Node)> = fields
            .iter()
            .map(|(key, node)| (key.as_str(), node))
            .collect();
        let mut out = PrettyOut::new(sink, !memo.single_use)
            .marking(left_out.iter().map(|(key, _)| key.clone()));
        let written = write_pretty_object(&mut all, 0, &mut out).map(|()| {
            left_out
                .iter()
                .filter_map(|(key, text)| {
                    // After the opening quote.
                    let at = out.mark(key)? + 1;
                    Some(WrittenField {
                        key: key.clone(),
                        text: text.clone(),
                        at,
                    })
                })
                .collect::<Vec<_>>()
        });
        let written = written.and_then(|fields| out.finish().map(|()| fields));
        let hashed = hasher
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (hashed, written)
    });
    Some(hashed.and_then(|hash| written.map(|fields| (hash, fields))))
}

/// Artifact bytes for `value`, whose seal is `hash`, through the active memo; `None` when no
/// memo is active.
///
/// When this memo sealed a value of the same type to the same hash, the sealed fields are
/// written from that seal's pieces, with no element keyed again, and only the fields the seal
/// left out (`contentHash`, `generatedAt`, ...) are taken from `value`. The written artifact is
/// then exactly the content its hash vouches for. Otherwise this is [`artifact_bytes`].
pub(crate) fn sealed_artifact_bytes<T: ?Sized + Serialize>(
    value: &T,
    hash: &ContentHash,
) -> Option<Result<Vec<u8>, String>> {
    let mut out = Vec::new();
    match write_sealed_artifact(value, hash, &mut out)? {
        Ok(()) => Some(Ok(out)),
        Err(e) => Some(Err(e)),
    }
}

/// [`sealed_artifact_bytes`], written to `sink` as it is made; `None` when no memo is active.
pub(crate) fn write_sealed_artifact<T: ?Sized + Serialize>(
    value: &T,
    hash: &ContentHash,
    sink: &mut dyn std::io::Write,
) -> Option<Result<(), String>> {
    let memo = current()?;
    let Some(split) = memo.sealed_split(std::any::type_name::<T>(), hash) else {
        return write_artifact(value, sink);
    };
    let fresh = match value.serialize(NodeSerializer::top(&memo, Some(&split.excluded))) {
        Ok(Node::Object(fresh)) => fresh,
        Ok(_) => return Some(Err("artifact is not a JSON object".to_owned())),
        Err(e) => return Some(Err(e.to_string())),
    };
    let mut fields = sealed_members(&split, &fresh);
    let mut out = PrettyOut::new(sink, !memo.single_use);
    Some(write_pretty_object(&mut fields, 0, &mut out).and_then(|()| out.finish()))
}

/// [`write_sealed_artifact`] for a value of type `T` that this memo sealed to `hash`, with the
/// fields the seal left out taken from `left_out` (a struct or map holding exactly those fields)
/// instead of from the value: the value itself is not needed. `None` when no memo is active or
/// it holds no such seal; an error when `left_out` does not hold exactly the left-out fields.
pub(crate) fn write_sealed_fields<T: ?Sized, F: ?Sized + Serialize>(
    left_out: &F,
    hash: &ContentHash,
    sink: &mut dyn std::io::Write,
) -> Option<Result<(), String>> {
    let memo = current()?;
    let split = memo.sealed_split(std::any::type_name::<T>(), hash)?;
    let fresh = match left_out.serialize(NodeSerializer::top(&memo, None)) {
        Ok(Node::Object(fresh)) => fresh,
        // A map (not a struct) stays one value.
        Ok(Node::Leaf(Value::Object(map))) => map
            .into_iter()
            .map(|(key, value)| (key, Node::Leaf(value)))
            .collect(),
        Ok(_) => return Some(Err("left-out fields are not a JSON object".to_owned())),
        Err(e) => return Some(Err(e.to_string())),
    };
    let mut given: Vec<&str> = fresh.iter().map(|(key, _)| key.as_str()).collect();
    let mut expected: Vec<&str> = split.excluded.iter().map(String::as_str).collect();
    given.sort_unstable();
    expected.sort_unstable();
    if given != expected {
        return Some(Err(format!(
            "left-out fields {given:?} are not the seal's {expected:?}"
        )));
    }
    let mut fields = sealed_members(&split, &fresh);
    let mut out = PrettyOut::new(sink, !memo.single_use);
    Some(write_pretty_object(&mut fields, 0, &mut out).and_then(|()| out.finish()))
}

/// Artifact bytes through the active memo; `None` when no memo is active.
pub(crate) fn artifact_bytes<T: ?Sized + Serialize>(value: &T) -> Option<Result<Vec<u8>, String>> {
    let mut out = Vec::new();
    match write_artifact(value, &mut out)? {
        Ok(()) => Some(Ok(out)),
        Err(e) => Some(Err(e)),
    }
}

/// [`artifact_bytes`], written to `sink` as it is made.
fn write_artifact<T: ?Sized + Serialize>(
    value: &T,
    sink: &mut dyn std::io::Write,
) -> Option<Result<(), String>> {
    let memo = current()?;
    let node = match value.serialize(NodeSerializer::top(&memo, None)) {
        Ok(node) => node,
        Err(e) => return Some(Err(e.to_string())),
    };
    let mut out = PrettyOut::new(sink, !memo.single_use);
    Some(write_pretty(&node, 0, &mut out).and_then(|()| out.finish()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::artifact::to_artifact_bytes;
    use crate::semantic_hash_large;
    use doc_bridge_model::hash::semantic_hash;
    use serde_json::json;

    #[derive(Serialize, Clone, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        entries: Vec<Value>,
        content_hash: String,
        empty: Vec<u32>,
    }

    #[derive(Serialize, Clone, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Top {
        generated_at: String,
        items: Vec<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        maybe: Option<u32>,
        nested: Inner,
        map: std::collections::BTreeMap<String, Vec<u32>>,
        z: f64,
        #[serde(rename = "\u{1F600}")]
        emoji: u8,
        #[serde(rename = "\u{E000}")]
        private_use: u8,
    }

    fn sample(n: usize) -> Top {
        Top {
            generated_at: "2026".into(),
            items: (0..n)
                .map(|i| json!({"b": i, "a": [1.5, -0.0, 1e21], "s": "line\nbreak \u{7}", "o": {}}))
                .collect(),
            maybe: None,
            nested: Inner {
                entries: vec![json!({"x": {"y": [1, 2, {"z": null}]}}), json!([])],
                content_hash: "h".into(),
                empty: vec![],
            },
            map: [("k".to_owned(), vec![1, 2])].into(),
            z: 0.1,
            emoji: 1,
            private_use: 2,
        }
    }

    #[test]
    fn memoized_hash_and_bytes_equal_the_ordinary_ones_and_reuse_elements() {
        let memo = EncodingMemo::new();
        for n in [0, 1, 3] {
            let value = sample(n);
            let excluded = ["generatedAt", "contentHash"];
            let plain_hash = semantic_hash(&value, &excluded).unwrap();
            let plain_bytes = to_artifact_bytes(&value).unwrap();
            for _ in 0..2 {
                let (hash, bytes) = with_memo(&memo, || {
                    (
                        semantic_hash_large(&value, &excluded).unwrap(),
                        to_artifact_bytes(&value).unwrap(),
                    )
                });
                assert_eq!(hash, plain_hash);
                assert_eq!(
                    String::from_utf8(bytes).unwrap(),
                    String::from_utf8(plain_bytes.clone()).unwrap()
                );
            }
        }
        let (hits, misses) = memo.sweep();
        assert!(hits > 0 && misses > 0, "{hits} {misses}");
    }

    #[test]
    fn a_sealed_artifact_is_written_from_its_seal_with_the_left_out_fields_fresh() {
        use crate::artifact::to_artifact_bytes_sealed;
        let memo = EncodingMemo::new();
        let excluded = ["generatedAt", "maybe"];
        let mut value = sample(3);
        let hash = with_memo(&memo, || semantic_hash_large(&value, &excluded).unwrap());
        memo.sweep();
        // The fields a seal leaves out change after sealing, as `contentHash` and `generatedAt`
        // do; one of them appears only now.
        value.generated_at = "2027".into();
        value.maybe = Some(7);
        let bytes = with_memo(&memo, || to_artifact_bytes_sealed(&value, &hash).unwrap());
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            String::from_utf8(to_artifact_bytes(&value).unwrap()).unwrap()
        );
        assert_eq!(memo.sweep(), (0, 0), "written without keying an element");
        // A hash this memo did not seal (or another type) takes the ordinary memoized path.
        let other = ContentHash::of_bytes(b"other");
        let bytes = with_memo(&memo, || to_artifact_bytes_sealed(&value, &other).unwrap());
        assert_eq!(bytes, to_artifact_bytes(&value).unwrap());
        let (hits, misses) = memo.sweep();
        assert!(hits + misses > 0);
        let plain = to_artifact_bytes(&value.nested).unwrap();
        let bytes = with_memo(&memo, || {
            to_artifact_bytes_sealed(&value.nested, &hash).unwrap()
        });
        assert_eq!(bytes, plain);
    }

    #[test]
    fn a_sealed_struct_inside_an_artifact_is_taken_from_its_own_seal() {
        use crate::artifact::to_artifact_bytes_sealed;
        let excluded = ["generatedAt"];
        let memo = EncodingMemo::new();
        for vouched in [true, false] {
            let mut value = sample(2);
            let inner_hash = with_memo(&memo, || {
                semantic_hash_large(&value.nested, &["contentHash"]).unwrap()
            });
            value.nested.content_hash = if vouched {
                inner_hash.as_str().to_owned()
            } else {
                "not the seal".to_owned()
            };
            memo.sweep();
            let (hash, bytes) = with_memo(&memo, || {
                let hash = semantic_hash_large(&value, &excluded).unwrap();
                let bytes = to_artifact_bytes_sealed(&value, &hash).unwrap();
                (hash, bytes)
            });
            assert_eq!(hash, semantic_hash(&value, &excluded).unwrap());
            assert_eq!(bytes, to_artifact_bytes(&value).unwrap());
            // The top's two items and its map are keyed either way; the nested struct's two
            // entries only when its `contentHash` is not the seal's.
            let (hits, misses) = memo.sweep();
            assert_eq!(hits + misses, if vouched { 3 } else { 5 }, "{vouched}");
        }
    }

    #[test]
    fn prekeyed_arrays_seal_the_same_and_are_keyed_once() {
        use crate::semantic_hash_large_prekeyed;
        let memo = EncodingMemo::new();
        let value = sample(5);
        let excluded = ["generatedAt"];
        let plain = semantic_hash(&value, &excluded).unwrap();
        let hash = with_memo(&memo, || {
            semantic_hash_large_prekeyed(&value, &excluded, &[&value.items]).unwrap()
        });
        assert_eq!(hash, plain);
        // The five items once (ahead of the seal); the map (whole) and the two nested entries
        // by the seal.
        assert_eq!(memo.sweep(), (0, 8));
        // An equal array elsewhere is not the prekeyed one: the seal keys it itself.
        let other = value.clone();
        let hash = with_memo(&memo, || {
            semantic_hash_large_prekeyed(&other, &excluded, &[&value.items]).unwrap()
        });
        assert_eq!(hash, plain);
        let (hits, misses) = memo.sweep();
        assert_eq!((hits + misses, misses), (13, 0));
        // Outside a memo, the ordinary hash.
        assert_eq!(
            semantic_hash_large_prekeyed(&value, &excluded, &[&value.items]).unwrap(),
            plain
        );
    }

    #[test]
    fn a_single_use_memo_seals_and_writes_in_pieces_exactly_as_the_plain_path() {
        use crate::artifact::to_artifact_bytes_sealed;
        use crate::semantic_hash_large_prekeyed;
        // Enough elements for several pieces ahead of the seal (`CHUNK_ELEMENTS`), and nested
        // entries long enough for several pieces as the seal meets them (`CHUNK_BYTES`).
        let long = "x".repeat(CHUNK_BYTES / 3);
        // 17 pieces: more than one window of pieces indented together when written.
        for n in [
            0,
            1,
            CHUNK_ELEMENTS,
            2 * CHUNK_ELEMENTS + 7,
            17 * CHUNK_ELEMENTS,
        ] {
            let mut value = sample(n);
            value.nested.entries = (0..7).map(|i| json!({"i": i, "long": long})).collect();
            let excluded = ["generatedAt"];
            let memo = EncodingMemo::single_use();
            let (inner_hash, hash, bytes) = with_memo(&memo, || {
                let inner = semantic_hash_large(&value.nested, &["contentHash"]).unwrap();
                value.nested.content_hash = inner.as_str().to_owned();
                let hash =
                    semantic_hash_large_prekeyed(&value, &excluded, &[&value.items]).unwrap();
                let bytes = to_artifact_bytes_sealed(&value, &hash).unwrap();
                (inner, hash, bytes)
            });
            assert_eq!(
                inner_hash,
                semantic_hash(&value.nested, &["contentHash"]).unwrap()
            );
            assert_eq!(hash, semantic_hash(&value, &excluded).unwrap(), "{n}");
            assert_eq!(
                String::from_utf8(bytes).unwrap(),
                String::from_utf8(to_artifact_bytes(&value).unwrap()).unwrap(),
                "{n}"
            );
            // Nothing is remembered for a next run, and a written artifact's seal can go.
            assert_eq!(memo.sweep(), (0, 0));
            assert!(memo.lock().entries.is_empty());
            let name = std::any::type_name::<Top>();
            assert!(memo.sealed_split_of_type(name).is_some());
            memo.forget_seal::<Top>();
            assert!(memo.sealed_split_of_type(name).is_none());
            assert!(
                memo.sealed_split_of_type(std::any::type_name::<Inner>())
                    .is_some()
            );
        }
    }

    #[test]
    fn only_maps_are_probed_as_maps() {
        let map: std::collections::BTreeMap<String, u32> = [("a".to_owned(), 1)].into();
        assert!(is_map(&map));
        assert!(is_map(&json!({"a": 1})));
        assert!(!is_map(&Some(map)));
        assert!(!is_map(&json!([1])));
        assert!(!is_map(&sample(1)));
        assert!(!is_map("text"));
    }

    #[test]
    fn an_element_written_at_two_depths_is_indented_for_each() {
        #[derive(Serialize)]
        struct Outer {
            inner: InnerList,
            list: Vec<Value>,
        }
        #[derive(Serialize)]
        struct InnerList {
            list: Vec<Value>,
        }
        let element = json!({"a": {"b": [1, 2]}, "c": "x"});
        let value = Outer {
            inner: InnerList {
                list: vec![element.clone()],
            },
            list: vec![element],
        };
        let plain = to_artifact_bytes(&value).unwrap();
        let memo = EncodingMemo::new();
        for _ in 0..3 {
            let bytes = with_memo(&memo, || to_artifact_bytes(&value).unwrap());
            assert_eq!(
                String::from_utf8(bytes).unwrap(),
                String::from_utf8(plain.clone()).unwrap()
            );
        }
    }

    #[test]
    fn equal_json_of_different_types_never_share_an_entry() {
        #[derive(Serialize)]
        struct A {
            v: Vec<u32>,
        }
        #[derive(Serialize)]
        struct B {
            v: Vec<u64>,
        }
        let memo = EncodingMemo::new();
        with_memo(&memo, || {
            to_artifact_bytes(&A { v: vec![1] }).unwrap();
            to_artifact_bytes(&B { v: vec![1] }).unwrap();
        });
        assert_eq!(memo.sweep(), (0, 2));
    }
}
