//! The query image (`.doc-bridge/cache/query.bin`): what `query` needs of a snapshot, laid out
//! for lookup by id and read in place, so that answering for one entity does not parse the
//! whole `snapshot.json` (at 100,000 files that parse takes seconds).
//!
//! The image does not copy the snapshot's entities and relations. It holds, for every id, where
//! the entity's JSON lies in `snapshot.json` (one line of canonical JSON, see
//! docs/storage.md) and which relations leave and reach it, and for every relation and every
//! diagnostic where its JSON lies; a lookup parses just those elements of the mapped snapshot
//! file. Beside them it keeps the tables the handoff code asks of a whole snapshot: entities by
//! path, documents in path order, inventoried files, packages, agent documents by owner,
//! diagnostics by file and entity, and the names `query` resolves (aliases, file names and
//! stems, from the index's projection); its header carries the index's ranking settings.
//!
//! ```text
//! header length  u32
//! header         postcard: ImageHeader (what the image vouches for)
//! magic          8 bytes   b"dbquery\x01"
//! ids            u32       (keys of the id table)
//! relations      u32
//! lengths        SECTIONS × u64
//! the sections, in `Section` order
//! checksum       u64       XXH3-64 of everything before it
//! ```
//!
//! Derived and never authoritative, like the search cache: its header names the `index.json`
//! and `snapshot.json` (stamps and seals) it was made from, and a reader uses it only while
//! both files still have those stamps. Any mismatch, a failed checksum or a layout that does not
//! check out means "read the JSON" (and write the image again). Every read is bounds-checked; an
//! element that does not parse is treated as absent, never a panic.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use doc_bridge_model::projection::RetrievalIndexV1;
use doc_bridge_model::snapshot::{Diagnostic, Document, Entity, Package, Relation, Snapshot};
use doc_bridge_model::{ContentHash, EntityId, RelPath};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use crate::cache::FileStamp;
use crate::collection::{Storage, normalize_name};
use crate::query::{NameLookup, entry_names};
use crate::table::{Table, TableBuilder, read_u32, read_u64, read_varint, write_varint};
use doc_bridge_store::canonical::Member;

/// Bumped whenever the layout, or anything the image derives from the snapshot, changes.
pub const QUERY_IMAGE_FORMAT: u32 = 3;

const MAGIC: &[u8; 8] = b"dbquery\x01";

/// What an image vouches for: the two files it was made from, as they were then.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImageHeader {
    /// [`QUERY_IMAGE_FORMAT`].
    pub format: u32,
    /// The stamp of `index.json`.
    pub index_stamp: FileStamp,
    /// That index's `contentHash`.
    pub index_hash: ContentHash,
    /// That index's `inputs.hash`: the image answers only while the inputs still have it.
    pub inputs_hash: ContentHash,
    /// The stamp of `snapshot.json`, whose byte ranges the image records.
    pub snapshot_stamp: FileStamp,
    /// That snapshot's `contentHash` (the index's `projection.snapshotHash`).
    pub snapshot_hash: ContentHash,
    /// That index's ranking settings (what a reader ranks with, beside the search cache).
    pub retrieval: doc_bridge_model::index::RetrievalSettings,
}

/// Where each entity and relation of a snapshot lies in its `snapshot.json` bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spans {
    /// One range per `entities[]` element, in order.
    pub entities: Vec<Range<usize>>,
    /// One range per `relations[]` element, in order.
    pub relations: Vec<Range<usize>>,
    /// One range per `diagnostics[]` element, in order.
    pub diagnostics: Vec<Range<usize>>,
}

impl Spans {
    /// The element ranges of `bytes`, a `snapshot.json` as written (canonical or indented);
    /// `None` unless both arrays are there and well formed.
    pub fn of(bytes: &[u8]) -> Option<Spans> {
        Self::of_members(bytes, &doc_bridge_store::canonical::members(bytes)?)
    }

    /// [`Spans::of`] for bytes whose top-level members are known (an artifact just encoded:
    /// `store::sealed::Encoded::members`), so the file is not scanned twice.
    pub fn of_members(bytes: &[u8], members: &[Member]) -> Option<Spans> {
        use doc_bridge_store::canonical::elements;
        let array = |key: &str| {
            let member = members
                .iter()
                .find(|m| bytes.get(m.key.clone()) == Some(key.as_bytes()))?;
            elements(bytes, member.value.clone())
        };
        Some(Spans {
            entities: array("entities")?,
            relations: array("relations")?,
            diagnostics: array("diagnostics")?,
        })
    }
}

/// The sections, in image order. A table is three sections: keys, records, values; reads name
/// the keys and reach the other two as the next positions (`QueryImage::table`), so those
/// variants name positions of the layout only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)]
enum Section {
    /// Id table: every entity id and relation endpoint. Value: the entity's span in the
    /// snapshot (start + 1, or 0 for an endpoint that is no entity; then the length), the
    /// outbound relation ordinals (count, then each), the inbound ones.
    IdKeys,
    IdRecords,
    IdValues,
    /// Per relation, two u64: the start and end of its JSON in the snapshot.
    RelationSpans,
    /// Path table: an entity path → the id-table positions of the entities at it, in snapshot
    /// order.
    PathKeys,
    PathRecords,
    PathValues,
    /// Document table: a document's path → its id-table position.
    DocumentKeys,
    DocumentRecords,
    DocumentValues,
    /// File table: every inventoried file's path (no value).
    FileKeys,
    FileRecords,
    FileValues,
    /// Owner table: a curated agent document's `owner` → its id-table positions, in path order.
    OwnerKeys,
    OwnerRecords,
    OwnerValues,
    /// Name table: a normalized name → the ids it names (see [`entry_names`]).
    NameKeys,
    NameRecords,
    NameValues,
    /// The id-table positions of every package, in snapshot order (count, then each).
    Packages,
    /// Per diagnostic, two u64: the start and end of its JSON in the snapshot.
    DiagnosticSpans,
    /// Diagnostic table: `path:<path>` and `entity:<id>` → the ordinals of the diagnostics
    /// about that file or entity, in snapshot order.
    DiagnosticKeys,
    DiagnosticRecords,
    DiagnosticValues,
}

const SECTIONS: usize = Section::DiagnosticValues as usize + 1;
const BODY_HEADER: usize = 8 + 4 + 4 + SECTIONS * 8;

/// A query image over a mapped `snapshot.json`, its elements parsed as they are asked for.
pub struct QueryImage {
    image: Storage,
    header: ImageHeader,
    ranges: Vec<Range<usize>>,
    snapshot: Storage,
    /// Parsed entities, by id-table position (`None` inside: an endpoint that is no entity, or
    /// an element that did not parse).
    entities: Box<[OnceLock<Option<Box<Entity>>>]>,
    /// Parsed relations, by ordinal.
    relations: Box<[OnceLock<Option<Box<Relation>>>]>,
}

impl std::fmt::Debug for QueryImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryImage")
            .field("header", &self.header)
            .field("ids", &self.entities.len())
            .field("relations", &self.relations.len())
            .finish()
    }
}

/// Encodes the image of `snapshot`, whose `snapshot.json` bytes lie as `spans` says, with the
/// names of `projection`; `None` when the spans do not match the snapshot's arrays.
pub fn encode(
    header: &ImageHeader,
    snapshot: &Snapshot,
    spans: &Spans,
    projection: &RetrievalIndexV1,
) -> Option<Vec<u8>> {
    encode_body(snapshot, spans, projection)?.with_header(header)
}

/// An image without its header: everything it holds but the stamps and seals of the files it
/// vouches for, which the writer may know only later (`index.json`'s stamp once it is written).
/// [`Body::with_header`] completes it.
#[derive(Debug)]
pub struct Body {
    /// From the magic to the last section.
    bytes: Vec<u8>,
}

impl Body {
    /// The image: the header's length and bytes, the body, and the checksum of both.
    pub fn with_header(&self, header: &ImageHeader) -> Option<Vec<u8>> {
        let header_bytes = postcard::to_allocvec(header).ok()?;
        let mut bytes = Vec::with_capacity(4 + header_bytes.len() + self.bytes.len() + 8);
        bytes.extend_from_slice(&u32::try_from(header_bytes.len()).ok()?.to_le_bytes());
        bytes.extend_from_slice(&header_bytes);
        bytes.extend_from_slice(&self.bytes);
        let checksum = xxh3_64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        Some(bytes)
    }
}

/// The [`Body`] of [`encode`]'s image.
pub fn encode_body(
    snapshot: &Snapshot,
    spans: &Spans,
    projection: &RetrievalIndexV1,
) -> Option<Body> {
    if spans.entities.len() != snapshot.entities.len()
        || spans.relations.len() != snapshot.relations.len()
        || spans.diagnostics.len() != snapshot.diagnostics.len()
    {
        return None;
    }
    // Every id: the entity (the last of a repeated id wins, as in `Graph`) and its relations.
    #[derive(Default)]
    struct Slot {
        entity: Option<usize>,
        outbound: Vec<u32>,
        inbound: Vec<u32>,
    }
    let mut slots: FxHashMap<&str, Slot> = FxHashMap::default();
    for (at, entity) in snapshot.entities.iter().enumerate() {
        slots.entry(entity.id().as_str()).or_default().entity = Some(at);
    }
    for (at, relation) in snapshot.relations.iter().enumerate() {
        let ordinal = u32::try_from(at).ok()?;
        slots
            .entry(relation.from.as_str())
            .or_default()
            .outbound
            .push(ordinal);
        slots
            .entry(relation.to.as_str())
            .or_default()
            .inbound
            .push(ordinal);
    }
    // Positions in the id table are positions in key order.
    let mut sorted: Vec<(&str, &Slot)> = slots.iter().map(|(id, slot)| (*id, slot)).collect();
    sorted.par_sort_unstable_by(|a, b| a.0.cmp(b.0));
    let position: FxHashMap<&str, u64> = sorted
        .iter()
        .enumerate()
        .map(|(at, (id, _))| (*id, at as u64))
        .collect();
    let mut ids = TableBuilder::new();
    for (id, slot) in sorted {
        let mut value = Vec::new();
        match slot.entity.and_then(|at| spans.entities.get(at)) {
            Some(span) => {
                write_varint(&mut value, span.start as u64 + 1);
                write_varint(&mut value, span.len() as u64);
            }
            None => value.extend_from_slice(&[0, 0]),
        }
        for list in [&slot.outbound, &slot.inbound] {
            write_varint(&mut value, list.len() as u64);
            for ordinal in list {
                write_varint(&mut value, u64::from(*ordinal));
            }
        }
        ids.push(id, value, 1);
    }
    let relation_spans = span_pairs(&spans.relations);
    // Entities by path, documents, packages, agent documents by owner: only the entity that
    // holds its id (a repeated id's earlier entities are not looked up by id either).
    let held = |at: usize, entity: &Entity| slots[entity.id().as_str()].entity == Some(at);
    let mut by_path: BTreeMap<&str, Vec<u8>> = BTreeMap::new();
    let mut documents = TableBuilder::new();
    let mut owners: BTreeMap<&str, Vec<(&RelPath, u64)>> = BTreeMap::new();
    let mut packages = Vec::new();
    let mut package_count = 0u64;
    for (at, entity) in snapshot.entities.iter().enumerate() {
        if !held(at, entity) {
            continue;
        }
        let id_at = position[entity.id().as_str()];
        write_varint(by_path.entry(entity.path().as_str()).or_default(), id_at);
        match entity {
            Entity::Document(d) => {
                let mut value = Vec::new();
                write_varint(&mut value, id_at);
                documents.push(d.path.as_str(), value, 1);
                if let (true, Some(owner)) = (d.agent_doc, d.owner.as_deref()) {
                    owners.entry(owner).or_default().push((&d.path, id_at));
                }
            }
            Entity::Package(_) => {
                write_varint(&mut packages, id_at);
                package_count += 1;
            }
            _ => {}
        }
    }
    let mut paths = TableBuilder::new();
    for (path, value) in by_path {
        paths.push(path, value, 1);
    }
    let mut owner_table = TableBuilder::new();
    for (owner, mut docs) in owners {
        docs.sort();
        let mut value = Vec::new();
        write_varint(&mut value, docs.len() as u64);
        for (_, id_at) in docs {
            write_varint(&mut value, id_at);
        }
        owner_table.push(owner, value, 1);
    }
    let mut files = TableBuilder::new();
    let mut seen_files = BTreeSet::new();
    for file in &snapshot.files {
        if seen_files.insert(file.path.as_str()) {
            files.push(file.path.as_str(), Vec::new(), 0);
        }
    }
    let mut names = TableBuilder::new();
    for (name, ids) in name_map(projection) {
        let mut value = Vec::new();
        write_varint(&mut value, ids.len() as u64);
        for id in ids {
            write_varint(&mut value, id.len() as u64);
            value.extend_from_slice(id.as_bytes());
        }
        names.push(name, value, 1);
    }
    let mut package_section = Vec::new();
    write_varint(&mut package_section, package_count);
    package_section.extend_from_slice(&packages);

    let mut sections: Vec<Vec<u8>> = Vec::with_capacity(SECTIONS);
    let id_table = ids.build();
    sections.extend([id_table.keys, id_table.records, id_table.values]);
    sections.push(relation_spans);
    for table in [
        paths.build(),
        documents.build(),
        files.build(),
        owner_table.build(),
        names.build(),
    ] {
        sections.extend([table.keys, table.records, table.values]);
    }
    sections.push(package_section);
    sections.push(span_pairs(&spans.diagnostics));
    let mut about: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (ordinal, diagnostic) in snapshot.diagnostics.iter().enumerate() {
        let keys = std::iter::once(format!("path:{}", diagnostic.path))
            .chain(diagnostic.entity.iter().map(|id| format!("entity:{id}")));
        for key in keys {
            write_varint(about.entry(key).or_default(), ordinal as u64);
        }
    }
    let mut diagnostic_table = TableBuilder::new();
    for (key, value) in about {
        diagnostic_table.push(key, value, 1);
    }
    let diagnostic_table = diagnostic_table.build();
    sections.extend([
        diagnostic_table.keys,
        diagnostic_table.records,
        diagnostic_table.values,
    ]);
    debug_assert_eq!(sections.len(), SECTIONS);

    let body: usize = sections.iter().map(Vec::len).sum();
    let mut bytes = Vec::with_capacity(BODY_HEADER + body);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&u32::try_from(slots.len()).ok()?.to_le_bytes());
    bytes.extend_from_slice(&u32::try_from(snapshot.relations.len()).ok()?.to_le_bytes());
    for section in &sections {
        bytes.extend_from_slice(&(section.len() as u64).to_le_bytes());
    }
    for section in &sections {
        bytes.extend_from_slice(section);
    }
    Some(Body { bytes })
}

/// Ranges as two u64 each, start and end.
fn span_pairs(spans: &[Range<usize>]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(spans.len() * 16);
    for span in spans {
        bytes.extend_from_slice(&(span.start as u64).to_le_bytes());
        bytes.extend_from_slice(&(span.end as u64).to_le_bytes());
    }
    bytes
}

/// Every normalized name of the projection's entries and the ids it names, as `resolve`
/// matches them ([`entry_names`]).
fn name_map(projection: &RetrievalIndexV1) -> BTreeMap<String, BTreeSet<&str>> {
    let pairs: Vec<(String, &str)> = projection
        .entries
        .par_iter()
        .flat_map_iter(|entry| {
            entry_names(entry)
                .into_iter()
                .flatten()
                .map(move |name| (normalize_name(name), entry.id.as_str()))
        })
        .collect();
    let mut map: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (name, id) in pairs {
        map.entry(name).or_default().insert(id);
    }
    map
}

impl QueryImage {
    /// Maps `snapshot.json` (or any file) for [`QueryImage::open`], with the metadata of the file
    /// mapped (whose stamp the image's header must name).
    pub fn map_snapshot(path: &Path) -> Option<(Storage, std::fs::Metadata)> {
        let file = std::fs::File::open(path).ok()?;
        let metadata = file.metadata().ok()?;
        Some((
            Storage::Mapped(Arc::new(crate::cache::map(&file)?)),
            metadata,
        ))
    }

    /// Opens the image file at `path` (mapped) over `snapshot`, the mapped `snapshot.json` it
    /// must describe; `None` when it is missing, damaged, or from another build. Whether the
    /// files are still the ones its header names is the caller's to check.
    pub fn open(path: &Path, snapshot: Storage) -> Option<QueryImage> {
        let file = std::fs::File::open(path).ok()?;
        Self::from_storage(
            Storage::Mapped(Arc::new(crate::cache::map(&file)?)),
            snapshot,
        )
    }

    /// [`QueryImage::open`] on image bytes in memory.
    pub fn from_bytes(image: Vec<u8>, snapshot: Storage) -> Option<QueryImage> {
        Self::from_storage(Storage::Owned(image), snapshot)
    }

    fn from_storage(image: Storage, snapshot: Storage) -> Option<QueryImage> {
        let bytes = image.as_slice();
        let (content, checksum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
        if xxh3_64(content) != u64::from_le_bytes(checksum.try_into().ok()?) {
            return None;
        }
        let header_len = usize::try_from(read_u32(content, 0)?).ok()?;
        let header_end = 4usize.checked_add(header_len)?;
        let header: ImageHeader = postcard::from_bytes(content.get(4..header_end)?).ok()?;
        if header.format != QUERY_IMAGE_FORMAT {
            return None;
        }
        let body = header_end;
        if content.get(body..body.checked_add(8)?)? != MAGIC {
            return None;
        }
        let ids = usize::try_from(read_u32(content, body + 8)?).ok()?;
        let relations = usize::try_from(read_u32(content, body + 12)?).ok()?;
        let mut at = body.checked_add(BODY_HEADER)?;
        let mut ranges = Vec::with_capacity(SECTIONS);
        for i in 0..SECTIONS {
            let length = usize::try_from(read_u64(content, body + 16 + i * 8)?).ok()?;
            let end = at.checked_add(length)?;
            ranges.push(at..end);
            at = end;
        }
        if at != content.len()
            || ranges[Section::RelationSpans as usize].len() != relations.checked_mul(16)?
            || ranges[Section::DiagnosticSpans as usize].len() % 16 != 0
            || ranges[Section::IdRecords as usize].len() != ids.checked_mul(crate::table::RECORD)?
        {
            return None;
        }
        Some(QueryImage {
            image,
            header,
            ranges,
            snapshot,
            entities: (0..ids).map(|_| OnceLock::new()).collect(),
            relations: (0..relations).map(|_| OnceLock::new()).collect(),
        })
    }

    /// What the image vouches for.
    pub fn header(&self) -> &ImageHeader {
        &self.header
    }

    fn section(&self, section: Section) -> &[u8] {
        self.image
            .as_slice()
            .get(self.ranges[section as usize].clone())
            .unwrap_or_default()
    }

    fn table(&self, keys: Section) -> Table<'_> {
        let at = keys as usize;
        let part = |i: usize| {
            self.image
                .as_slice()
                .get(self.ranges[at + i].clone())
                .unwrap_or_default()
        };
        Table {
            keys: part(0),
            records: part(1),
            values: part(2),
        }
    }

    /// The id-table position of `id`.
    pub(crate) fn position(&self, id: &str) -> Option<usize> {
        self.table(Section::IdKeys).find(id)
    }

    /// The id table's value at `position`: the entity span and the relation lists, read.
    fn slot(&self, position: usize) -> Option<SlotValue> {
        let (_, value, _) = self.table(Section::IdKeys).at(position)?;
        let mut at = 0;
        let start = read_varint(value, &mut at)?;
        let len = read_varint(value, &mut at)?;
        let span = match start.checked_sub(1) {
            Some(start) => {
                let start = usize::try_from(start).ok()?;
                Some(start..start.checked_add(usize::try_from(len).ok()?)?)
            }
            None => None,
        };
        let mut lists = [Vec::new(), Vec::new()];
        for list in &mut lists {
            let count = read_varint(value, &mut at)?;
            for _ in 0..count {
                list.push(usize::try_from(read_varint(value, &mut at)?).ok()?);
            }
        }
        let [outbound, inbound] = lists;
        Some(SlotValue {
            span,
            outbound,
            inbound,
        })
    }

    /// The entity at id-table `position`, parsed from the snapshot on first use.
    pub(crate) fn entity_at(&self, position: usize) -> Option<&Entity> {
        self.entities
            .get(position)?
            .get_or_init(|| {
                let span = self.slot(position)?.span?;
                let bytes = self.snapshot.as_slice().get(span)?;
                serde_json::from_slice(bytes).ok().map(Box::new)
            })
            .as_deref()
    }

    /// The entity with this id.
    pub(crate) fn entity(&self, id: &str) -> Option<&Entity> {
        self.entity_at(self.position(id)?)
    }

    /// The snapshot's bytes at the `ordinal`-th range of a span section.
    fn spanned(&self, section: Section, ordinal: usize) -> Option<&[u8]> {
        let spans = self.section(section);
        let start = usize::try_from(read_u64(spans, ordinal.checked_mul(16)?)?).ok()?;
        let end = usize::try_from(read_u64(spans, ordinal * 16 + 8)?).ok()?;
        self.snapshot.as_slice().get(start..end)
    }

    fn relation(&self, ordinal: usize) -> Option<&Relation> {
        self.relations
            .get(ordinal)?
            .get_or_init(|| {
                let bytes = self.spanned(Section::RelationSpans, ordinal)?;
                serde_json::from_slice(bytes).ok().map(Box::new)
            })
            .as_deref()
    }

    /// How many diagnostics the snapshot holds.
    pub fn diagnostic_count(&self) -> usize {
        self.section(Section::DiagnosticSpans).len() / 16
    }

    /// Every diagnostic, in snapshot order (one that does not parse is left out).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        (0..self.diagnostic_count())
            .filter_map(|ordinal| self.diagnostic(ordinal))
            .collect()
    }

    /// The diagnostics about entity `id` or, unless it is the root, the file at `path`, in
    /// snapshot order.
    pub fn diagnostics_about(&self, id: &EntityId, path: &RelPath) -> Vec<Diagnostic> {
        let table = self.table(Section::DiagnosticKeys);
        let mut keys = vec![format!("entity:{id}")];
        if !path.is_root() {
            keys.push(format!("path:{path}"));
        }
        let mut ordinals: Vec<usize> = Vec::new();
        for key in keys {
            let Some((value, _)) = table.get(&key) else {
                continue;
            };
            let mut at = 0;
            while at < value.len() {
                match read_varint(value, &mut at).and_then(|o| usize::try_from(o).ok()) {
                    Some(ordinal) => ordinals.push(ordinal),
                    None => break,
                }
            }
        }
        ordinals.sort_unstable();
        ordinals.dedup();
        ordinals
            .into_iter()
            .filter_map(|ordinal| self.diagnostic(ordinal))
            .collect()
    }

    fn diagnostic(&self, ordinal: usize) -> Option<Diagnostic> {
        serde_json::from_slice(self.spanned(Section::DiagnosticSpans, ordinal)?).ok()
    }

    /// How many files were inventoried.
    pub fn file_count(&self) -> usize {
        self.table(Section::FileKeys).len()
    }

    /// Relations leaving (`outbound`) or reaching `id`, in snapshot order.
    pub(crate) fn relations_of(&self, id: &str, outbound: bool) -> Vec<&Relation> {
        let Some(slot) = self.position(id).and_then(|at| self.slot(at)) else {
            return Vec::new();
        };
        let list = if outbound {
            slot.outbound
        } else {
            slot.inbound
        };
        list.into_iter().filter_map(|o| self.relation(o)).collect()
    }

    /// The entities at id-table positions listed (varints) in `value`, `count` of them, or
    /// until the list runs out.
    fn entities_listed(&self, value: &[u8], count: Option<u64>) -> Vec<&Entity> {
        let mut at = 0;
        let mut out = Vec::new();
        let mut left = count.unwrap_or(u64::MAX);
        while left > 0 && at < value.len() {
            let Some(position) = read_varint(value, &mut at) else {
                break;
            };
            if let Some(entity) = usize::try_from(position)
                .ok()
                .and_then(|p| self.entity_at(p))
            {
                out.push(entity);
            }
            left -= 1;
        }
        out
    }

    /// Entities whose path is exactly `path`, in snapshot order.
    pub(crate) fn entities_at(&self, path: &str) -> Vec<&Entity> {
        match self.table(Section::PathKeys).get(path) {
            Some((value, _)) => self.entities_listed(value, None),
            None => Vec::new(),
        }
    }

    /// Entities whose path lies within `dir` (including `dir` itself), in path order.
    pub(crate) fn entities_within(&self, dir: &RelPath) -> Vec<&Entity> {
        let table = self.table(Section::PathKeys);
        let (start, prefix) = prefix_range(&table, dir);
        let mut out = if dir.is_root() {
            Vec::new()
        } else {
            self.entities_at(dir.as_str())
        };
        for (key, value, _) in (start..table.len()).filter_map(|i| table.at(i)) {
            if !key.starts_with(prefix.as_bytes()) {
                break;
            }
            out.extend(self.entities_listed(value, None));
        }
        out
    }

    /// Documents strictly below `dir` (every document for the root), in path order.
    pub(crate) fn documents_within(&self, dir: &RelPath) -> Vec<&Document> {
        let table = self.table(Section::DocumentKeys);
        let (start, prefix) = prefix_range(&table, dir);
        let mut out = Vec::new();
        for (key, value, _) in (start..table.len()).filter_map(|i| table.at(i)) {
            if !key.starts_with(prefix.as_bytes()) {
                break;
            }
            out.extend(documents_only(self.entities_listed(value, Some(1))));
        }
        out
    }

    /// Curated agent documents whose `owner` is `name`, in path order.
    pub(crate) fn agent_docs_owned_by(&self, name: &str) -> Vec<&Document> {
        let Some((value, _)) = self.table(Section::OwnerKeys).get(name) else {
            return Vec::new();
        };
        let mut at = 0;
        let count = read_varint(value, &mut at);
        documents_only(self.entities_listed(value.get(at..).unwrap_or_default(), count))
    }

    /// Every package, in snapshot order.
    pub(crate) fn packages(&self) -> Vec<&Package> {
        let value = self.section(Section::Packages);
        let mut at = 0;
        let count = read_varint(value, &mut at);
        self.entities_listed(value.get(at..).unwrap_or_default(), count)
            .into_iter()
            .filter_map(|e| match e {
                Entity::Package(p) => Some(p),
                _ => None,
            })
            .collect()
    }

    /// Whether a file was inventoried.
    pub(crate) fn has_file(&self, path: &str) -> bool {
        self.table(Section::FileKeys).find(path).is_some()
    }

    /// Whether any inventoried file lies below `dir`.
    pub(crate) fn has_files_below(&self, dir: &RelPath) -> bool {
        let table = self.table(Section::FileKeys);
        if dir.is_root() {
            return !table.is_empty();
        }
        let (start, prefix) = prefix_range(&table, dir);
        table
            .at(start)
            .is_some_and(|(key, _, _)| key.starts_with(prefix.as_bytes()))
    }
}

impl NameLookup for QueryImage {
    fn named(&self, key: &str) -> BTreeSet<EntityId> {
        let Some((value, _)) = self.table(Section::NameKeys).get(key) else {
            return BTreeSet::new();
        };
        let mut at = 0;
        let mut out = BTreeSet::new();
        let count = read_varint(value, &mut at).unwrap_or(0);
        for _ in 0..count {
            let Some(len) = read_varint(value, &mut at).and_then(|n| usize::try_from(n).ok())
            else {
                break;
            };
            let Some(bytes) = at.checked_add(len).and_then(|end| value.get(at..end)) else {
                break;
            };
            at += len;
            if let Ok(id) = std::str::from_utf8(bytes) {
                out.insert(EntityId::from_raw(id));
            }
        }
        out
    }
}

/// An id-table value, read.
struct SlotValue {
    span: Option<Range<usize>>,
    outbound: Vec<usize>,
    inbound: Vec<usize>,
}

/// Where the keys strictly below `dir` start in a path-keyed table, and their common prefix
/// (`dir/`, or nothing for the root).
fn prefix_range(table: &Table<'_>, dir: &RelPath) -> (usize, String) {
    let prefix = if dir.is_root() {
        String::new()
    } else {
        format!("{dir}/")
    };
    (table.lower_bound(prefix.as_bytes()), prefix)
}

fn documents_only(entities: Vec<&Entity>) -> Vec<&Document> {
    entities
        .into_iter()
        .filter_map(|e| match e {
            Entity::Document(d) => Some(d),
            _ => None,
        })
        .collect()
}
