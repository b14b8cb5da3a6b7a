//! The discovery snapshot (`.doc-bridge/snapshot.json`): what was observed in the repository.
//!
//! Entities, relations and diagnostics, each with evidence (path and lines; the content hash of
//! an evidence file is its `files[]` record's). Every
//! list is sorted by a total order at construction, so the serialized bytes never depend on
//! file-discovery order or thread count.
//!
//! Struct fields are declared in their JSON key order, so the encoder writes each object as its
//! fields come instead of reordering it (hundreds of thousands of relations, symbols and files
//! on a large repository); `Ord` implementations that must not follow that order are written
//! out. A CLI test holds every artifact to it (`sorted_json::reordered_objects`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::hash::ContentHash;
use crate::ids::{EntityId, RelPath};

/// The `type` tag of a snapshot artifact.
pub const SNAPSHOT_TYPE: &str = "doc-bridge-snapshot";
/// The snapshot schema version this build writes and reads.
pub const SNAPSHOT_SCHEMA_VERSION: u32 = 1;
/// Top-level fields left out of the snapshot's `contentHash`.
pub const SNAPSHOT_HASH_EXCLUDED: &[&str] = &["contentHash", "generatedAt", "stats"];

/// `.doc-bridge/snapshot.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Snapshot {
    /// Always [`SNAPSHOT_TYPE`].
    #[serde(rename = "type")]
    pub artifact_type: String,
    /// Always [`SNAPSHOT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// sha256-semantic-v1 over the snapshot minus [`SNAPSHOT_HASH_EXCLUDED`].
    pub content_hash: ContentHash,
    /// Always `sha256-semantic-v1`.
    pub content_hash_algo: String,
    /// RFC 3339 time of the run that first produced this content.
    pub generated_at: String,
    /// The project the snapshot describes.
    pub project: Project,
    /// Analyzer versions by analyzer name; a change invalidates cached analyses.
    pub analyzers: BTreeMap<String, u32>,
    /// Every file the walk admitted, sorted by path.
    pub files: Vec<FileRecord>,
    /// Observed entities, sorted by id.
    pub entities: Vec<Entity>,
    /// Observed and declared relations, sorted by (from, kind, to).
    pub relations: Vec<Relation>,
    /// Problems found while observing, sorted by (path, line, code, message).
    pub diagnostics: Vec<Diagnostic>,
    /// Counts for people; outside the hash.
    pub stats: SnapshotStats,
}

impl Snapshot {
    /// The content hash of an inventoried file (what a relation's evidence was seen in).
    pub fn file_hash(&self, path: &RelPath) -> Option<&ContentHash> {
        self.files
            .binary_search_by(|f| f.path.cmp(path))
            .ok()
            .map(|at| &self.files[at].content_hash)
    }
}

/// The project name and its root as written in artifacts (always `.`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Project {
    /// From the config, else the root manifest's package name, else the root directory name.
    pub name: String,
    /// Always `.`: artifacts never record absolute paths.
    pub root: String,
}

/// One file the walk admitted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileRecord {
    /// Size in bytes.
    pub bytes: u64,
    /// What the file was analysed as.
    pub class: FileClass,
    /// sha256 of the bytes as stored.
    pub content_hash: ContentHash,
    /// Line count, for files analysed as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u32>,
    /// What the repository's `.gitattributes` say the file is: `generated`, `vendored`,
    /// `documentation`, or `source` (one of them explicitly unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linguist: Option<String>,
    /// Repository-relative path.
    pub path: RelPath,
}

/// What a file was analysed as.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FileClass {
    /// A Markdown document.
    Document,
    /// A source module in a supported language.
    Module,
    /// A package manifest.
    Manifest,
    /// The doc-bridge config file.
    Config,
    /// Any other file: inventoried (it can be a link target) but not analysed.
    Other,
    /// Too large to analyse (`safety.maxFileBytes`).
    Oversize,
    /// Binary content or invalid UTF-8 where text was expected.
    Unreadable,
}

/// The closed set of entity kinds.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum EntityKind {
    /// A documentation file.
    Document,
    /// A source module.
    Module,
    /// A directory that holds modules.
    Area,
    /// A package declared by a manifest.
    Package,
    /// Any other inventoried file (configuration, data, templates, images, code in a language
    /// no analyzer reads): found by path and name.
    File,
}

impl EntityKind {
    /// The kebab-case name used in ids and artifacts.
    pub fn as_str(self) -> &'static str {
        match self {
            EntityKind::Document => "document",
            EntityKind::Module => "module",
            EntityKind::Area => "area",
            EntityKind::Package => "package",
            EntityKind::File => "file",
        }
    }
}

/// An observed entity, tagged by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Entity {
    /// A documentation file.
    Document(Document),
    /// A source module.
    Module(Module),
    /// A directory that holds modules.
    Area(Area),
    /// A package declared by a manifest.
    Package(Package),
    /// Any other inventoried file.
    File(FileEntity),
}

impl Entity {
    /// The entity id.
    pub fn id(&self) -> &EntityId {
        match self {
            Entity::Document(d) => &d.id,
            Entity::Module(m) => &m.id,
            Entity::Area(a) => &a.id,
            Entity::Package(p) => &p.id,
            Entity::File(f) => &f.id,
        }
    }
    /// The entity kind.
    pub fn kind(&self) -> EntityKind {
        match self {
            Entity::Document(_) => EntityKind::Document,
            Entity::Module(_) => EntityKind::Module,
            Entity::Area(_) => EntityKind::Area,
            Entity::Package(_) => EntityKind::Package,
            Entity::File(_) => EntityKind::File,
        }
    }
    /// The file or directory the entity stands for.
    pub fn path(&self) -> &RelPath {
        match self {
            Entity::Document(d) => &d.path,
            Entity::Module(m) => &m.path,
            Entity::Area(a) => &a.path,
            Entity::Package(p) => &p.path,
            Entity::File(f) => &f.path,
        }
    }
    /// The entity's content hash.
    pub fn content_hash(&self) -> &ContentHash {
        match self {
            Entity::Document(d) => &d.content_hash,
            Entity::Module(m) => &m.content_hash,
            Entity::Area(a) => &a.content_hash,
            Entity::Package(p) => &p.content_hash,
            Entity::File(f) => &f.content_hash,
        }
    }
    /// A human name: a document's title, a module's or file's file name, an area's directory, a
    /// package's name.
    pub fn name(&self) -> &str {
        match self {
            Entity::Document(d) => &d.title,
            Entity::Module(m) => m.path.file_name(),
            Entity::Area(a) => &a.title,
            Entity::Package(p) => &p.name,
            Entity::File(f) => f.path.file_name(),
        }
    }
}

/// The searchable text of one entity, which `snapshot.json` does not hold: the index's
/// projection keeps it (its `body` and `code` fields), and the snapshot names it by the
/// entity's `contentHash` (docs/storage.md, "Text kept once").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntityText {
    /// A document: the whole text without markup or code blocks.
    pub body: String,
    /// A document: the text of its code blocks. A module: its comments, docstrings and
    /// identifiers in source order, bounded (the `source` analyzer's `MAX_TEXT_BYTES`).
    pub code: String,
}

/// The text of a snapshot's documents and modules by entity id, made by the run that observed
/// them and handed to the projection beside the snapshot. A snapshot read back from disk comes
/// without it; nothing builds an index from one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Texts(std::collections::HashMap<EntityId, EntityText>);

impl Texts {
    /// No text.
    pub fn new() -> Self {
        Texts::default()
    }
    /// Records an entity's text (an empty one is not kept).
    pub fn insert(&mut self, id: EntityId, text: EntityText) {
        if !text.body.is_empty() || !text.code.is_empty() {
            self.0.insert(id, text);
        }
    }
    /// The entity's text, if it has any.
    pub fn get(&self, id: &EntityId) -> Option<&EntityText> {
        self.0.get(id)
    }
    /// How many entities have text.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether no entity has text.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(EntityId, EntityText)> for Texts {
    fn from_iter<I: IntoIterator<Item = (EntityId, EntityText)>>(iter: I) -> Self {
        let mut texts = Texts::new();
        for (id, text) in iter {
            texts.insert(id, text);
        }
        texts
    }
}

/// A documentation file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Document {
    /// Whether the document lies under the agent corpus root (`corpus.agent.root`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub agent_doc: bool,
    /// Front matter `audience` (for example `agent`, `human`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audience: Vec<String>,
    /// Front matter `checks`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<String>,
    /// sha256 of the file bytes.
    pub content_hash: ContentHash,
    /// Front matter `covers`, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<String>,
    /// The documentation build leaves it out (a Sphinx `conf.py`'s `exclude_patterns`): no page
    /// of the site, so its links are not followed and no page need link to it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub excluded_from_site: bool,
    /// Other front matter keys, converted to JSON.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub front_matter: BTreeMap<String, serde_json::Value>,
    /// Headings of levels 1 to 3.
    pub headings: Vec<Heading>,
    /// `document:<path>`.
    pub id: EntityId,
    /// The document's language (lowercase tag such as `en`, `ja`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Where the language came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language_source: Option<LanguageSource>,
    /// Line count.
    pub line_count: u32,
    /// The names the document writes as inline code, shaped like code (`createRawSnippet`,
    /// `Store.get`, `$state.snapshot`), distinct, in order, at most 256.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<String>,
    /// The modules whose string literals name this document by path, sorted: a script that
    /// reads it as data (a prompt, a release template, a catalog of messages) or writes it. It
    /// is reached by code, not by links, and is no orphan.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub named_by: Vec<EntityId>,
    /// Front matter `owner`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The file.
    pub path: RelPath,
    /// Front matter description, else the first paragraph, bounded.
    pub summary: String,
    /// Front matter `tags`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Front matter title, else first H1, else the file stem.
    pub title: String,
    /// Where the title came from.
    pub title_source: TitleSource,
}

/// Where a document's title came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TitleSource {
    /// Front matter `title`.
    FrontMatter,
    /// The first level-1 heading.
    Heading,
    /// The file stem.
    FileStem,
}

/// Where a document's language came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LanguageSource {
    /// Front matter `lang`, `language` or `locale`.
    FrontMatter,
    /// A locale folder in the path (`docs/ja/...`, `i18n/fr/...`).
    Path,
}

/// A heading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Heading {
    /// 1 to 3.
    pub level: u8,
    /// 1-based line.
    pub line: u32,
    /// Plain text.
    pub text: String,
}

/// A source module.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Module {
    /// sha256 of the file bytes.
    pub content_hash: ContentHash,
    /// `module:<path>`.
    pub id: EntityId,
    /// Imports in source order, each with its resolution.
    pub imports: Vec<Import>,
    /// `typescript`, `tsx`, `javascript`, `rust`, `python` or `go`.
    pub language: String,
    /// Line count.
    pub line_count: u32,
    /// Methods, associated functions, fields and constants of the module's types, by owner, in
    /// source order (`Flask.register_blueprint`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Member>,
    /// The file.
    pub path: RelPath,
    /// Exported symbols in source order.
    pub symbols: Vec<Symbol>,
}

/// A member of a type the module declares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Member {
    /// `method`, `associated-function`, `field` or `constant`.
    pub kind: String,
    /// 1-based line of its name.
    pub line: u32,
    /// The member's name (`register_blueprint`).
    pub name: String,
    /// The type it belongs to (`Flask`; nested types dotted: `Outer.Inner`).
    pub owner: String,
}

/// An exported symbol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Symbol {
    /// For re-exports, the source specifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// `function`, `class`, `struct`, ... as the analyzer reports it.
    pub kind: String,
    /// 1-based line.
    pub line: u32,
    /// The exported name.
    pub name: String,
    /// Re-exported from elsewhere rather than declared here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reexport: bool,
}

/// An import and what it resolved to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Import {
    /// `static`, `dynamic`, `re-export` or `mod-decl`.
    pub kind: String,
    /// 1-based line.
    pub line: u32,
    /// Imported names, when the syntax lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// How the specifier resolved.
    pub resolution: ImportResolution,
    /// The specifier as written (`./session`, `crate::model`, `.store`, `example.com/x/y`).
    pub specifier: String,
    /// The resolved targets (modules, or a package when no entry module was found).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<EntityId>,
}

/// How an import specifier resolved. Never a guess: `unresolved` when a relative or workspace
/// import names nothing that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ImportResolution {
    /// To modules in this repository.
    Internal,
    /// To a workspace package whose entry module was not found.
    Package,
    /// A dependency outside the repository (npm package, crate, stdlib, ...).
    External,
    /// A relative import of a file in this repository that is not a module (a stylesheet, an
    /// image, a JSON or `.vue` file): resolved, with no target entity.
    File,
    /// Looked internal (relative, `crate::`, a workspace package) but names nothing that exists.
    Unresolved,
}

/// A directory that holds modules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Area {
    /// sha256 of the area as recorded (its id, path, package and module count).
    pub content_hash: ContentHash,
    /// `area:<dir>`.
    pub id: EntityId,
    /// How many modules the area holds directly.
    pub module_count: u32,
    /// The package whose root holds the area, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package_id: Option<EntityId>,
    /// The directory (`.` for the repository root).
    pub path: RelPath,
    /// The directory path, for display.
    pub title: String,
}

/// An inventoried file that is neither a document nor a module: a manifest, the config,
/// configuration and data files, templates, images, sources in a language no analyzer reads,
/// oversize and unreadable files. The entity makes it findable by path and name; its record in
/// `files[]` says what it was analysed as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileEntity {
    /// sha256 of the file bytes.
    pub content_hash: ContentHash,
    /// `file:<path>`.
    pub id: EntityId,
    /// The file.
    pub path: RelPath,
}

/// A package declared by a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Package {
    /// sha256 of the manifest file.
    pub content_hash: ContentHash,
    /// Declared dependencies, sorted by (name, kind).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<Dependency>,
    /// Which ecosystem's manifest declared it.
    pub ecosystem: Ecosystem,
    /// `package:<name>` (or `package:<name>@<dir>` when two manifests declare the same name).
    pub id: EntityId,
    /// The manifest file.
    pub manifest: RelPath,
    /// The package name (npm name, crate name, Python project name, Go module path).
    pub name: String,
    /// The package manager the checks default to (`npm`, `pnpm`, `yarn`, `bun`, `cargo`, `python`,
    /// `go`, `mvn`, `gradle`, `gradlew`, `dotnet`, `bundler`, `composer`, `swift`, `cmake`).
    pub package_manager: String,
    /// The package root directory.
    pub path: RelPath,
    /// The document its manifest names as the package's readme (Cargo's and pyproject's
    /// `readme`, composer's `readme`), which the registry shows on the package's page; a
    /// symbolic link inside the repository is followed to the document it leads to. `None`
    /// when the manifest names none or it is no document here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readme: Option<RelPath>,
    /// package.json `scripts`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scripts: BTreeMap<String, String>,
    /// Declared version, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Workspace member globs (package.json `workspaces`, Cargo `[workspace] members`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workspaces: Vec<String>,
}

/// Package ecosystems.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Ecosystem {
    /// package.json
    Npm,
    /// Cargo.toml
    Cargo,
    /// pyproject.toml
    Python,
    /// go.mod
    Go,
    /// Maven's pom.xml
    Maven,
    /// Gradle's settings.gradle(.kts) and build.gradle(.kts)
    Gradle,
    /// .NET project files (`*.csproj`, `*.fsproj`, `*.vbproj`) and solutions (`*.sln`, `*.slnx`)
    Dotnet,
    /// Ruby: a gem's `*.gemspec`, or an application's `Gemfile`
    Rubygems,
    /// PHP's composer.json
    Composer,
    /// Swift Package Manager's Package.swift
    Swift,
    /// A CMakeLists.txt that calls `project()`
    Cmake,
}

/// A declared dependency. Ordered by name, then kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Dependency {
    /// `normal`, `dev`, `build`, `peer` or `optional`.
    pub kind: String,
    /// The dependency's package name.
    pub name: String,
}

impl Ord for Dependency {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&self.name, &self.kind).cmp(&(&other.name, &other.kind))
    }
}

impl PartialOrd for Dependency {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The closed set of relation kinds.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum RelationKind {
    /// package → area → module.
    Contains,
    /// module → module (or package).
    Imports,
    /// package → package, from manifests.
    DependsOn,
    /// document → document or module, from relative links.
    LinksTo,
    /// document → module, package or area, from inline code.
    Mentions,
    /// document → entity, declared in front matter.
    Covers,
}

impl RelationKind {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            RelationKind::Contains => "contains",
            RelationKind::Imports => "imports",
            RelationKind::DependsOn => "depends-on",
            RelationKind::LinksTo => "links-to",
            RelationKind::Mentions => "mentions",
            RelationKind::Covers => "covers",
        }
    }
}

/// Whether a relation was observed in content or declared by an author.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Provenance {
    /// Read from code, links, mentions or layout.
    Observed,
    /// Declared by a person (front matter `covers`, manifest dependencies).
    Declared,
}

/// A relation between two entities.
///
/// Fields are declared in the artifact's key order (`evidence`, `from`, `kind`, ...), so the
/// encoder writes them as they come instead of reordering each of a large repository's hundreds
/// of thousands of relations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Relation {
    /// Where it was seen (the first occurrence).
    pub evidence: Evidence,
    /// Source entity.
    pub from: EntityId,
    /// Relation kind.
    pub kind: RelationKind,
    /// Observed or declared.
    pub provenance: Provenance,
    /// Target entity.
    pub to: EntityId,
    /// What made the link: a symbol name, an import specifier, a link target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// Where something was seen: a file of the snapshot and lines in it. The file's content hash
/// is its `files[]` record's ([`Snapshot::file_hash`]), so it is not repeated in every relation.
///
/// Fields in the artifact's key order (see [`Relation`]); ordered by path, then lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Evidence {
    /// First and last line, 1-based inclusive (`[1, lineCount]` when the evidence is the whole file).
    pub lines: [u32; 2],
    /// The file.
    pub path: RelPath,
}

impl Ord for Evidence {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&self.path, self.lines).cmp(&(&other.path, other.lines))
    }
}

impl PartialOrd for Evidence {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Diagnostic severity.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Probably a problem.
    Warning,
    /// A problem.
    Error,
}

/// A problem found while observing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Diagnostic {
    /// Stable code (`broken-link`, `invalid-utf8`, ...).
    pub code: String,
    /// The entity concerned, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<EntityId>,
    /// Stable id: sha256 (first 16 hex digits) of canonical `{code, path, line, message}`.
    pub id: String,
    /// 1-based line, when it applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// What happened and what to do; never more than a short quote of file content.
    pub message: String,
    /// The file concerned.
    pub path: RelPath,
    /// Severity.
    pub severity: Severity,
}

/// Snapshot counts, outside the hash.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotStats {
    /// Diagnostics by code.
    pub diagnostics: BTreeMap<String, u64>,
    /// Entities by kind.
    pub entities: BTreeMap<String, u64>,
    /// Files admitted by the walk.
    pub files: u64,
    /// Relations by kind.
    pub relations: BTreeMap<String, u64>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn evidence_orders_by_path_then_lines_whatever_its_field_order() {
        let evidence = |path: &str, first: u32, last: u32| Evidence {
            lines: [first, last],
            path: RelPath::new(path).unwrap(),
        };
        let mut sorted = [
            evidence("b.md", 1, 1),
            evidence("a.md", 2, 2),
            evidence("a.md", 1, 9),
            evidence("a.md", 1, 3),
        ];
        sorted.sort();
        let keys: Vec<(&str, [u32; 2])> =
            sorted.iter().map(|e| (e.path.as_str(), e.lines)).collect();
        assert_eq!(
            keys,
            [
                ("a.md", [1, 3]),
                ("a.md", [1, 9]),
                ("a.md", [2, 2]),
                ("b.md", [1, 1])
            ]
        );
    }

    #[test]
    fn a_file_hash_is_found_by_path() {
        let record = |path: &str, bytes: &[u8]| FileRecord {
            bytes: bytes.len() as u64,
            class: FileClass::Document,
            content_hash: ContentHash::of_bytes(bytes),
            lines: None,
            linguist: None,
            path: RelPath::new(path).unwrap(),
        };
        let mut snapshot: Snapshot = serde_json::from_value(serde_json::json!({
            "type": SNAPSHOT_TYPE, "schemaVersion": 1, "contentHash": ContentHash::of_bytes(b""),
            "contentHashAlgo": "sha256-semantic-v1", "generatedAt": "", "analyzers": {},
            "project": {"name": "p", "root": "."}, "files": [], "entities": [], "relations": [],
            "diagnostics": [], "stats": {"diagnostics": {}, "entities": {}, "files": 0, "relations": {}}
        }))
        .unwrap();
        snapshot.files = vec![record("a.md", b"a"), record("b/c.md", b"c")];
        let path = |p: &str| RelPath::new(p).unwrap();
        assert_eq!(
            snapshot.file_hash(&path("b/c.md")),
            Some(&ContentHash::of_bytes(b"c"))
        );
        assert_eq!(snapshot.file_hash(&path("b")), None);
    }
}
