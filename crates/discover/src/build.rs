//! Assembling the snapshot from observed files: a pure function of the observations and the
//! options. Entities, relations and diagnostics come out sorted, so the bytes never depend on
//! discovery order or thread count.

use doc_bridge_model::timing::phase;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use rayon::prelude::*;

use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::snapshot::EntityText;
use doc_bridge_model::snapshot::{
    Area, Diagnostic, Ecosystem, Entity, Evidence, FileClass, FileEntity, FileRecord, Import,
    ImportResolution, Member, Module, Package, Project, Provenance, Relation, RelationKind,
    SNAPSHOT_HASH_EXCLUDED, SNAPSHOT_SCHEMA_VERSION, SNAPSHOT_TYPE, Severity, Snapshot,
    SnapshotStats, Symbol, Texts,
};
use doc_bridge_model::{ContentHash, EntityId, RelPath, SEMANTIC_HASH_ALGO};
use doc_bridge_source::ImportKind;

use crate::areas::{AreaRules, area_of};
use crate::code_paths::CodePaths;
use crate::documents::{MentionShape, document_entity, mention_shape};
use crate::imports::Resolver;
use crate::links::{Found, Tree};
use crate::observe::{Analysis, ObservedFile};
use crate::packages::{DeclaredPackage, PackageRoots, build_packages};
use crate::sites::{SiteRoots, SiteSettings, SphinxGallery};

/// What the snapshot build needs besides the observations.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The project name.
    pub project_name: String,
    /// The agent corpus root, when it exists.
    pub agent_root: Option<RelPath>,
    /// Area rules.
    pub area_rules: AreaRules,
    /// `analysis.links.siteRoots`: the directories `/` stands for in site-absolute links, in
    /// order; `None` detects them from the documentation sites found ([`crate::sites`]).
    pub site_roots: Option<Vec<RelPath>>,
}

/// Analyzer versions recorded in the snapshot (and keyed into caches and the inputs fingerprint).
pub fn analyzer_versions() -> BTreeMap<String, u32> {
    BTreeMap::from([
        ("markdown".to_owned(), doc_bridge_markdown::ANALYZER_VERSION),
        ("source".to_owned(), doc_bridge_source::ANALYZER_VERSION),
        ("manifest".to_owned(), crate::manifest::ANALYZER_VERSION),
        ("snapshot".to_owned(), SNAPSHOT_BUILD_VERSION),
    ])
}

/// Version of the assembly rules (areas, resolution, mentions). Bump on any change of output.
pub const SNAPSHOT_BUILD_VERSION: u32 = 35;

/// What the build may ask of the disk beyond the observed files: a seam, so tests answer from a
/// list. A closure `Fn(&RelPath) -> bool` is a `Disk` whose [`Disk::exists`] it is.
pub trait Disk: Sync {
    /// Whether a path exists on disk although the walk did not admit it (ignored files, a
    /// file behind a symbolic link), so links to it are not reported broken.
    fn exists(&self, path: &RelPath) -> bool;

    /// The repository path a symbolic link at `path` leads to, when `path` is one and it
    /// leads inside the repository (the walk never follows links; a manifest may name one).
    fn link_target(&self, _path: &RelPath) -> Option<RelPath> {
        None
    }
}

impl<F: Fn(&RelPath) -> bool + Sync> Disk for F {
    fn exists(&self, path: &RelPath) -> bool {
        self(path)
    }
}

/// Builds the snapshot. `disk` answers what the observed files do not ([`Disk`]).
pub fn build_snapshot(
    observed: &[ObservedFile],
    walk_diagnostics: Vec<Diagnostic>,
    options: &BuildOptions,
    disk: &dyn Disk,
    generated_at: String,
) -> (Snapshot, Texts) {
    let (mut snapshot, texts) = build_with_bodies(
        observed,
        Vec::new(),
        walk_diagnostics,
        options,
        disk,
        generated_at,
    );
    snapshot.content_hash = seal_snapshot(&snapshot);
    (snapshot, texts)
}

/// [`build_snapshot`] from observations the caller has no further use for, without the seal:
/// `content_hash` is the empty input's hash until the caller sets [`seal_snapshot`]'s (a caller
/// that seals on another thread while it goes on). Documents' bodies (most of a document) are
/// moved into the texts instead of copied, and the rest is freed on the thread pool, off the
/// caller's path (at 100,000 files, a million allocations).
pub fn build_snapshot_unsealed_from(
    mut observed: Vec<ObservedFile>,
    walk_diagnostics: Vec<Diagnostic>,
    options: &BuildOptions,
    disk: &dyn Disk,
    generated_at: String,
) -> (Snapshot, Texts) {
    let bodies = observed
        .iter_mut()
        .map(|file| match &mut file.analysis {
            Analysis::Document(facts) | Analysis::Text(facts) => {
                Some(std::mem::take(&mut facts.body))
            }
            _ => None,
        })
        .collect();
    let built = build_with_bodies(
        &observed,
        bodies,
        walk_diagnostics,
        options,
        disk,
        generated_at,
    );
    rayon::spawn(move || drop(observed));
    built
}

/// The build, with documents' bodies given apart by observation (`None`, or past the end:
/// copied from the facts).
fn build_with_bodies(
    observed: &[ObservedFile],
    bodies: Vec<Option<String>>,
    walk_diagnostics: Vec<Diagnostic>,
    options: &BuildOptions,
    disk: &dyn Disk,
    generated_at: String,
) -> (Snapshot, Texts) {
    let mut builder = Builder::new(observed, options);
    builder.bodies = bodies;
    builder.diagnostics.extend(walk_diagnostics);
    for file in observed {
        builder.diagnostics.extend(file.diagnostics.iter().cloned());
    }
    phase("snapshot: modules and areas", || {
        builder.modules_and_areas(disk)
    });
    phase("snapshot: documents", || builder.documents(disk));
    builder.package_readmes(disk);
    builder.file_entities();
    builder.depends_on();
    builder.finish(generated_at)
}

/// A Sphinx project's `exclude_patterns` as Sphinx matches them against paths below its source
/// directory: `*` and `?` within one segment, `**` across segments. A pattern that is not a
/// valid glob is left out; `None` when none is left.
fn sphinx_exclude_set(patterns: &[String]) -> Option<globset::GlobSet> {
    let mut set = globset::GlobSetBuilder::new();
    let mut any = false;
    for pattern in patterns {
        let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
        if let Ok(glob) = globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
        {
            set.add(glob);
            any = true;
        }
    }
    set.build().ok().filter(|_| any)
}

/// One module as [`Builder::module`] resolves it.
struct ResolvedModule {
    module: Module,
    relations: Vec<Relation>,
    diagnostics: Vec<Diagnostic>,
    area: RelPath,
    /// The module's words (its [`EntityText::code`]).
    text: String,
}

struct Builder<'a> {
    observed: &'a [ObservedFile],
    /// Per observation, a document's body taken out of its facts, to be moved into its entity
    /// (`None`: copied from the facts).
    bodies: Vec<Option<String>>,
    options: &'a BuildOptions,
    files: BTreeMap<&'a str, &'a FileRecord>,
    dirs: BTreeSet<RelPath>,
    packages: Vec<Package>,
    cargo_lib_paths: BTreeMap<EntityId, String>,
    entities: Vec<Entity>,
    /// The text of documents and modules, kept apart from the snapshot.
    texts: Texts,
    relations: Vec<Relation>,
    diagnostics: Vec<Diagnostic>,
    /// Package id by root directory (the first by id when two share a root).
    package_at: HashMap<RelPath, EntityId>,
    /// Package id by name.
    package_named: HashMap<String, EntityId>,
    /// Declared (not re-exported) symbol name → declaring modules.
    declarations: HashMap<String, Vec<EntityId>>,
    /// Each module that re-exports everything of others (`from attr.filters import *`) → those
    /// modules: a name it does not declare may be one of theirs.
    star_reexports: HashMap<EntityId, Vec<EntityId>>,
    /// A Python module's dotted import name → the module (the first by path when two roots
    /// give one name).
    python_modules: HashMap<String, RelPath>,
    areas: BTreeMap<RelPath, EntityId>,
    /// Where site-absolute links point.
    site_roots: SiteRoots,
    /// Pages by their name without a number prefix ([`crate::links::numbered_pages`]).
    numbered_pages: BTreeMap<RelPath, RelPath>,
    /// The page of each bare name, `None` when several share it ([`crate::links::pages_by_name`]).
    pages_by_name: BTreeMap<String, Option<RelPath>>,
    /// `.txt` files read as reStructuredText that a Sphinx source directory holds: documents.
    sphinx_texts: HashSet<&'a str>,
    /// Each Sphinx source directory with the `exclude_patterns` its `conf.py` writes out.
    sphinx_excludes: Vec<(RelPath, globset::GlobSet)>,
    /// Each label documents define (`.. _label:`, `[[id]]`) → the first document by path that
    /// defines it; then the labels Python docstrings define (autodoc renders them) → the first
    /// module by path, for a label no document defines.
    labels: HashMap<Cow<'a, str>, &'a RelPath>,
    /// Every document's path, in path order (what a `toctree` glob is matched against).
    document_paths: Vec<&'a RelPath>,
    /// Example scripts by (directory name, stem): the sources of the pages sphinx-gallery
    /// generates (`gallery/animation/animate_decay` from `examples/animation/animate_decay.py`).
    gallery_sources: HashMap<(&'a str, &'a str), Vec<&'a RelPath>>,
    /// The directories that hold a `conf.py` (Sphinx's configuration).
    sphinx_configs: Vec<RelPath>,
    /// The pages Sphinx renders from templates (`html_additional_pages`), by source directory:
    /// `doc/contents`.
    sphinx_additional_pages: HashSet<RelPath>,
    /// Each document another document includes (`.. include:: ../../CONTRIBUTING.rst`) → the
    /// folders of the documents that include it, sorted: its text is read there, so its
    /// relative links are written for those folders as much as for its own.
    includers: HashMap<RelPath, Vec<RelPath>>,
    /// Where sphinx-gallery renders each examples directory, as its `conf.py` writes it out:
    /// (`examples/`, `doc/auto_examples/`).
    gallery_renders: Vec<(RelPath, RelPath)>,
    /// Whether a `conf.py` uses sphinx-gallery with directories it computes: where its pages
    /// are rendered is not known.
    gallery_unknown: bool,
    /// The documents modules name by path ([`crate::code_paths`]).
    code_paths: CodePaths,
    /// The same sources by page name alone (no gallery `index`).
    gallery_by_stem: HashMap<&'a str, Vec<&'a RelPath>>,
    /// DocC: (catalog directory, file name) → the first file by path of that name anywhere in
    /// the catalog: DocC finds articles (`<doc:Name>`, by stem) and resources (`![](a.png)`) by
    /// name, wherever they sit in `X.docc/`.
    docc_files: HashMap<(RelPath, String), &'a RelPath>,
}

/// Whether `name` is a Python identifier (a letter or `_`, then letters, digits and `_`).
fn is_python_identifier(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

fn whole_file(record: &FileRecord) -> Evidence {
    Evidence {
        path: record.path.clone(),
        lines: [1, record.lines.unwrap_or(1).max(1)],
    }
}

fn at_line(record: &FileRecord, line: u32) -> Evidence {
    let line = line.max(1);
    Evidence {
        path: record.path.clone(),
        lines: [line, line],
    }
}

impl<'a> Builder<'a> {
    fn new(observed: &'a [ObservedFile], options: &'a BuildOptions) -> Self {
        let files: BTreeMap<&str, &FileRecord> = observed
            .iter()
            .map(|f| (f.record.path.as_str(), &f.record))
            .collect();
        let mut dirs = BTreeSet::new();
        for file in observed {
            let mut dir = file.record.path.parent();
            while !dir.is_root() && dirs.insert(dir.clone()) {
                dir = dir.parent();
            }
        }
        dirs.insert(RelPath::root());
        let declared: Vec<DeclaredPackage<'_>> = observed
            .iter()
            .filter_map(|f| match &f.analysis {
                Analysis::Manifest(facts) => Some(DeclaredPackage {
                    manifest: &f.record.path,
                    hash: &f.record.content_hash,
                    facts,
                }),
                _ => None,
            })
            .collect();
        let file_names: BTreeSet<&str> = files.keys().copied().collect();
        let packages = build_packages(&declared, &file_names, &options.project_name);
        let cargo_lib_paths = packages
            .iter()
            .filter(|p| p.ecosystem == Ecosystem::Cargo)
            .filter_map(|p| {
                let facts = declared.iter().find(|d| d.manifest == &p.manifest)?.facts;
                Some((p.id.clone(), facts.lib_path.clone()?))
            })
            .collect();
        let sphinx = doc_bridge_model::site_generator::sphinx_sources(
            observed.iter().map(|f| &f.record.path),
        );
        // Each directory holding a `conf.py`, with what that file writes out (read when it was
        // observed): one pass over the observations for every Sphinx setting below.
        let confs: BTreeMap<RelPath, Option<&SiteSettings>> = observed
            .iter()
            .filter(|f| f.record.path.file_name() == "conf.py")
            .map(|f| (f.record.path.parent(), f.site.as_deref()))
            .collect();
        let settings_of = |source: &RelPath| confs.get(source).copied().flatten();
        let sphinx_excludes = sphinx
            .iter()
            .filter_map(|source| {
                let patterns = &settings_of(source)?.sphinx_excludes;
                Some((source.clone(), sphinx_exclude_set(patterns)?))
            })
            .collect();
        // A Sphinx project reads `.txt` files only when its `source_suffix` names `.txt`
        // (Django's); written out or not, the setting of its `conf.py` decides.
        let reads_txt: Vec<RelPath> = sphinx
            .iter()
            .filter(|source| {
                let setting = settings_of(source).and_then(|s| s.sphinx_suffixes.as_deref());
                doc_bridge_model::site_generator::sphinx_reads_txt(setting)
            })
            .cloned()
            .collect();
        let sphinx_texts: HashSet<&str> = observed
            .iter()
            .filter(|f| matches!(f.analysis, Analysis::Text(_)))
            .filter(|f| {
                doc_bridge_model::site_generator::is_sphinx_text_document(
                    &f.record.path,
                    &reads_txt,
                )
            })
            .map(|f| f.record.path.as_str())
            .collect();
        let site_roots = match &options.site_roots {
            Some(configured) => SiteRoots::configured(configured),
            None => SiteRoots::detect(
                observed.iter().map(|f| (&f.record.path, f.site.as_deref())),
                &sphinx,
                &dirs,
            ),
        };
        let mut labels: HashMap<Cow<'_, str>, &RelPath> = HashMap::new();
        for file in observed {
            if let Some(facts) = document_facts(file, &sphinx_texts) {
                for label in &facts.labels {
                    // Observations come in path order: the first definition wins.
                    labels
                        .entry(Cow::Borrowed(label.name.as_str()))
                        .or_insert(&file.record.path);
                }
            }
        }
        for file in observed {
            if let Analysis::Module(doc_bridge_source::Language::Python, facts) = &file.analysis {
                for label in &facts.labels {
                    labels
                        .entry(Cow::Owned(doc_bridge_markdown::normalize_label(label)))
                        .or_insert(&file.record.path);
                }
            }
        }
        let document_paths: Vec<&RelPath> = observed
            .iter()
            .filter(|file| document_facts(file, &sphinx_texts).is_some())
            .map(|file| &file.record.path)
            .collect();
        let mut includers: HashMap<RelPath, Vec<RelPath>> = HashMap::new();
        for file in observed {
            let Some(facts) = document_facts(file, &sphinx_texts) else {
                continue;
            };
            let dir = file.record.path.parent();
            for link in facts.links.iter().filter(|link| link.includes) {
                if let Some(included) = link
                    .path
                    .as_deref()
                    .and_then(|path| RelPath::join_normalized(&dir, path))
                {
                    includers.entry(included).or_default().push(dir.clone());
                }
            }
        }
        for folders in includers.values_mut() {
            folders.sort();
            folders.dedup();
        }
        let mut gallery_sources: HashMap<(&str, &str), Vec<&RelPath>> = HashMap::new();
        let mut gallery_by_stem: HashMap<&str, Vec<&RelPath>> = HashMap::new();
        for file in observed {
            let path = &file.record.path;
            let in_gallery = is_gallery_path(path);
            // A script is a page, and so is a page copied as it is; a gallery's header is its
            // directory's `index`.
            let page = match (path.extension(), path.file_name()) {
                (_, "GALLERY_HEADER.rst" | "README.txt" | "README.rst") => Some("index"),
                (Some("py" | "rst" | "md" | "txt"), _) => Some(path.file_stem()),
                _ => None,
            };
            if let (true, Some(page)) = (in_gallery, page) {
                let parent = path.as_str().rsplit('/').nth(1).unwrap_or("");
                gallery_sources
                    .entry((parent, page))
                    .or_default()
                    .push(path);
                if page != "index" {
                    gallery_by_stem.entry(page).or_default().push(path);
                }
            }
        }
        let mut docc_files: HashMap<(RelPath, String), &RelPath> = HashMap::new();
        for file in observed {
            if let Some(catalog) = docc_catalog(&file.record.path) {
                let name = file.record.path.file_name();
                // An article by its label-normalized stem, any file by its name.
                if document_facts(file, &sphinx_texts).is_some() {
                    let stem = doc_bridge_markdown::normalize_label(file.record.path.file_stem());
                    docc_files
                        .entry((catalog.clone(), format!("doc:{stem}")))
                        .or_insert(&file.record.path);
                }
                docc_files
                    .entry((catalog, name.to_owned()))
                    .or_insert(&file.record.path);
            }
        }
        let numbered_pages = crate::links::numbered_pages(files.keys().copied());
        let pages_by_name = crate::links::pages_by_name(files.keys().copied());
        let mut package_at = HashMap::new();
        let mut package_named = HashMap::new();
        for package in &packages {
            package_at
                .entry(package.path.clone())
                .or_insert_with(|| package.id.clone());
            package_named
                .entry(package.name.clone())
                .or_insert_with(|| package.id.clone());
        }
        let package_root = |module: &RelPath| {
            let mut dir = module.parent();
            loop {
                if package_at.contains_key(&dir) {
                    return Some(dir);
                }
                if dir.is_root() {
                    return None;
                }
                dir = dir.parent();
            }
        };
        // A test that reads a page checks it; it does not make it data.
        let reads_for_the_project = |path: &RelPath| {
            use doc_bridge_model::file_role::{FileRole, file_role};
            !matches!(
                file_role(path),
                Some(FileRole::Test | FileRole::Fixture | FileRole::Generated | FileRole::Vendored)
            )
        };
        let code_paths = CodePaths::new(
            observed.iter().filter_map(|f| match &f.analysis {
                Analysis::Module(_, facts) if reads_for_the_project(&f.record.path) => Some((
                    &f.record.path,
                    package_root(&f.record.path),
                    facts.paths.as_slice(),
                )),
                _ => None,
            }),
            &document_paths,
        );
        Builder {
            observed,
            bodies: Vec::new(),
            options,
            files,
            dirs,
            package_at,
            package_named,
            packages,
            cargo_lib_paths,
            entities: Vec::new(),
            texts: Texts::new(),
            relations: Vec::new(),
            diagnostics: Vec::new(),
            declarations: HashMap::new(),
            star_reexports: HashMap::new(),
            python_modules: HashMap::new(),
            areas: BTreeMap::new(),
            site_roots,
            numbered_pages,
            pages_by_name,
            sphinx_texts,
            sphinx_excludes,
            labels,
            document_paths,
            gallery_sources,
            gallery_by_stem,
            sphinx_configs: confs.keys().cloned().collect(),
            includers,
            gallery_renders: confs
                .iter()
                .filter_map(|(dir, site)| match (*site)?.sphinx_gallery.as_ref()? {
                    SphinxGallery::Dirs(pairs) => Some((dir, pairs)),
                    SphinxGallery::Unknown => None,
                })
                .flat_map(|(dir, pairs)| {
                    pairs.iter().filter_map(|(examples, gallery)| {
                        let examples = RelPath::join_normalized(dir, examples)?;
                        Some((examples, RelPath::join_normalized(dir, gallery)?))
                    })
                })
                .collect(),
            gallery_unknown: confs.values().any(|site| {
                site.and_then(|s| s.sphinx_gallery.as_ref()) == Some(&SphinxGallery::Unknown)
            }),
            docc_files,
            code_paths,
            sphinx_additional_pages: confs
                .iter()
                .filter_map(|(dir, site)| Some((dir, (*site)?)))
                .flat_map(|(dir, site)| {
                    site.sphinx_additional_pages
                        .iter()
                        .filter_map(|page| RelPath::join_normalized(dir, page))
                })
                .collect(),
        }
    }

    fn relation(
        &mut self,
        from: EntityId,
        to: EntityId,
        kind: RelationKind,
        provenance: Provenance,
        evidence: Evidence,
        via: Option<String>,
    ) {
        if from != to {
            self.relations.push(Relation {
                from,
                to,
                kind,
                provenance,
                evidence,
                via,
            });
        }
    }

    fn modules_and_areas(&mut self, disk: &dyn Disk) {
        // Taken out for the duration, so lookups can borrow them while `self` grows.
        let packages = std::mem::take(&mut self.packages);
        let roots = PackageRoots::new(&packages);
        let module_paths: Vec<RelPath> = self
            .observed
            .iter()
            .filter(|f| matches!(f.analysis, Analysis::Module(..)))
            .map(|f| f.record.path.clone())
            .collect();
        let kotlin_declarations = self.observed.iter().flat_map(|f| match &f.analysis {
            Analysis::Module(doc_bridge_source::Language::Kotlin, facts) => facts
                .symbols
                .iter()
                .map(|symbol| symbol.name.as_str())
                .chain(facts.internal_names.iter().map(String::as_str))
                .map(|name| (&f.record.path, name))
                .collect(),
            _ => Vec::new(),
        });
        let csharp_namespaces = self.observed.iter().flat_map(|f| match &f.analysis {
            Analysis::Module(doc_bridge_source::Language::CSharp, facts) => facts
                .namespaces
                .iter()
                .map(|namespace| (&f.record.path, namespace.as_str()))
                .collect(),
            _ => Vec::new(),
        });
        let php_namespaces = self.observed.iter().flat_map(|f| match &f.analysis {
            Analysis::Module(doc_bridge_source::Language::Php, facts) => facts
                .namespaces
                .iter()
                .map(|namespace| (&f.record.path, namespace.as_str()))
                .collect(),
            _ => Vec::new(),
        });
        let generated = self.observed.iter().flat_map(|f| match &f.analysis {
            Analysis::Manifest(facts) => facts
                .generated_files
                .iter()
                .filter_map(|file| RelPath::join_normalized(&f.record.path.parent(), file))
                .collect(),
            _ => Vec::new(),
        });
        let resolver = Resolver::new(&module_paths, &packages, &self.cargo_lib_paths)
            .with_files(self.files.keys().copied())
            .with_generated(generated)
            .with_kotlin_declarations(kotlin_declarations)
            .with_csharp_namespaces(csharp_namespaces)
            .with_php_namespaces(php_namespaces);
        for (dotted, module) in resolver.python_dotted_names(&module_paths) {
            // Module paths come sorted: the first by path keeps the name.
            self.python_modules.entry(dotted).or_insert(module);
        }
        // Modules resolve independently (in parallel); what they add to shared tables is
        // applied afterwards in walk order.
        let this = &*self;
        let resolved: Vec<ResolvedModule> = self
            .observed
            .par_iter()
            .filter_map(|file| match &file.analysis {
                Analysis::Module(language, facts) => {
                    Some(this.module(file, *language, facts, &resolver, &roots, disk))
                }
                _ => None,
            })
            .collect();
        let mut area_members: BTreeMap<RelPath, Vec<EntityId>> = BTreeMap::new();
        for resolved in resolved {
            let id = &resolved.module.id;
            for symbol in &resolved.module.symbols {
                if !symbol.reexport && symbol.name != "default" && symbol.name != "*" {
                    let declared_by = self.declarations.entry(symbol.name.clone()).or_default();
                    if declared_by.last() != Some(id) {
                        declared_by.push(id.clone());
                    }
                }
            }
            let stars: Vec<EntityId> = resolved
                .module
                .imports
                .iter()
                .filter(|import| import.names.iter().any(|name| name == "*"))
                .flat_map(|import| import.targets.iter().cloned())
                .filter(|target| target.as_str().starts_with("module:"))
                .collect();
            if !stars.is_empty() {
                self.star_reexports.insert(id.clone(), stars);
            }
            // Members by their qualified name only (`Store.get`): a bare `get` names nothing.
            for member in &resolved.module.members {
                let declared_by = self
                    .declarations
                    .entry(format!("{}.{}", member.owner, member.name))
                    .or_default();
                if declared_by.last() != Some(id) {
                    declared_by.push(id.clone());
                }
            }
            area_members
                .entry(resolved.area)
                .or_default()
                .push(id.clone());
            self.relations.extend(resolved.relations);
            self.diagnostics.extend(resolved.diagnostics);
            self.texts.insert(
                resolved.module.id.clone(),
                EntityText {
                    body: String::new(),
                    code: resolved.text,
                },
            );
            self.entities.push(Entity::Module(resolved.module));
        }

        for (dir, members) in area_members {
            let area_id = EntityId::area(&dir);
            let package = roots
                .owning(&dir)
                .map(|p| (p.id.clone(), p.manifest.clone()));
            let mut area = Area {
                id: area_id.clone(),
                path: dir.clone(),
                content_hash: ContentHash::of_bytes(b""),
                title: dir.as_str().to_owned(),
                package_id: package.as_ref().map(|(id, _)| id.clone()),
                module_count: u32::try_from(members.len()).unwrap_or(u32::MAX),
            };
            area.content_hash = semantic_hash(&area, &["contentHash"])
                .unwrap_or_else(|_| ContentHash::of_bytes(area.id.as_str().as_bytes()));
            if let Some((package_id, manifest)) = package
                && let Some(record) = self.files.get(manifest.as_str()).copied()
            {
                self.relation(
                    package_id,
                    area_id.clone(),
                    RelationKind::Contains,
                    Provenance::Observed,
                    whole_file(record),
                    None,
                );
            }
            for module in members {
                let path = RelPath::new(module.as_str().trim_start_matches("module:"));
                if let Some(record) = path.and_then(|p| self.files.get(p.as_str()).copied()) {
                    self.relation(
                        area_id.clone(),
                        module,
                        RelationKind::Contains,
                        Provenance::Observed,
                        whole_file(record),
                        None,
                    );
                }
            }
            self.areas.insert(dir, area_id);
            self.entities.push(Entity::Area(area));
        }
        self.entities
            .extend(packages.iter().cloned().map(Entity::Package));
        self.packages = packages;
    }

    /// One module's entity with its imports resolved, the relations and diagnostics they give,
    /// and the area it belongs to.
    fn module(
        &self,
        file: &ObservedFile,
        language: doc_bridge_source::Language,
        facts: &doc_bridge_source::SourceFacts,
        resolver: &Resolver,
        roots: &PackageRoots,
        disk: &dyn Disk,
    ) -> ResolvedModule {
        let record = &file.record;
        let id = EntityId::module(&record.path);
        let mut relations = Vec::new();
        let mut diagnostics = Vec::new();
        let mut imports = Vec::with_capacity(facts.imports.len());
        for import in &facts.imports {
            let mod_decl = import.kind == ImportKind::ModDecl;
            let (resolution, targets) = resolver.resolve(
                language,
                &record.path,
                &import.specifier,
                &import.names,
                mod_decl,
            );
            for target in &targets {
                relations.push(Relation {
                    from: id.clone(),
                    to: target.clone(),
                    kind: RelationKind::Imports,
                    provenance: Provenance::Observed,
                    evidence: at_line(record, import.line),
                    via: Some(import.specifier.clone()),
                });
            }
            // Unresolved, but nothing to report: build output, a file unread on purpose, or a
            // module file on disk behind a link the walk does not follow.
            let explained = is_build_output(&import.specifier)
                || names_excluded_secret(&import.specifier)
                || (mod_decl
                    && rust_module_on_disk(&record.path, &import.specifier, &|p| disk.exists(p)));
            if resolution == ImportResolution::Unresolved && !explained {
                diagnostics.push(Diagnostic::new(
                    "unresolved-import",
                    Severity::Warning,
                    record.path.clone(),
                    Some(import.line),
                    format!(
                        "import `{}` names nothing in this repository",
                        truncate(&import.specifier, 120)
                    ),
                    Some(id.clone()),
                ));
            }
            imports.push(Import {
                specifier: import.specifier.clone(),
                kind: kebab(&import.kind),
                names: import.names.clone(),
                line: import.line,
                resolution,
                targets,
            });
        }
        let symbols: Vec<Symbol> = facts
            .symbols
            .iter()
            .map(|s| Symbol {
                name: s.name.clone(),
                kind: kebab(&s.kind),
                line: s.line,
                reexport: s.reexport,
                from: s.from.clone(),
            })
            .collect();
        let members: Vec<Member> = facts
            .members
            .iter()
            .map(|m| Member {
                name: m.name.clone(),
                owner: m.owner.clone(),
                kind: member_kind(m.kind).to_owned(),
                line: m.line,
            })
            .collect();
        if facts.text_truncated {
            diagnostics.push(Diagnostic::new(
                "module-text-truncated",
                Severity::Info,
                record.path.clone(),
                None,
                format!(
                    "only the first {} KiB of this module's words are searchable (a generated or minified file?)",
                    doc_bridge_source::MAX_TEXT_BYTES / 1024
                ),
                Some(id.clone()),
            ));
        }
        if facts.members_truncated > 0 {
            diagnostics.push(Diagnostic::new(
                "members-truncated",
                Severity::Info,
                record.path.clone(),
                None,
                format!(
                    "{} member(s) past the first {} were left out",
                    facts.members_truncated,
                    doc_bridge_source::MAX_MEMBERS
                ),
                Some(id.clone()),
            ));
        }
        ResolvedModule {
            area: area_of(&record.path, roots, &self.options.area_rules),
            module: Module {
                id,
                path: record.path.clone(),
                content_hash: record.content_hash.clone(),
                language: language.name().to_owned(),
                symbols,
                imports,
                line_count: facts.line_count,
                members,
            },
            relations,
            diagnostics,
            text: facts.text.clone(),
        }
    }

    /// What a dotted Python name (`pkg.mod`, `pkg.mod.Class`, `pkg.Class.method`, as Sphinx
    /// roles and `auto*` directives write them) names: the module of that import name; else,
    /// below the longest prefix that is a module, the one module declaring the next name
    /// (`Class`, or `Class.method` as a member) inside that module's package (a package's
    /// `__init__.py` re-exports what its submodules declare). `None` when that is not exactly
    /// one module.
    /// The first Python module (by id) that declares `name`, an identifier, for a document
    /// of a Sphinx project (below a `conf.py`): what a MyST link to an object's short name
    /// resolves to.
    fn python_short_name(&self, from: &RelPath, name: &str) -> Option<EntityId> {
        if !is_python_identifier(name) || !self.in_sphinx_project(from) {
            return None;
        }
        self.declarations
            .get(name)?
            .iter()
            .filter(|id| {
                let path = id.as_str();
                path.ends_with(".py") || path.ends_with(".pyi")
            })
            .min()
            .cloned()
    }

    /// Whether the documentation build leaves the document at `path` out: a Sphinx project's
    /// `exclude_patterns` match its path below the source directory, or a directory on the way
    /// (Sphinx does not enter an excluded directory).
    fn excluded_from_site(&self, path: &RelPath) -> bool {
        self.sphinx_excludes.iter().any(|(source, patterns)| {
            let Some(relative) = path.strip_dir(source) else {
                return false;
            };
            let mut at = relative;
            loop {
                if patterns.is_match(at) {
                    return true;
                }
                match at.rsplit_once('/') {
                    Some((dir, _)) => at = dir,
                    None => return false,
                }
            }
        })
    }

    /// Whether `path` lies below a Sphinx configuration (`conf.py`).
    fn in_sphinx_project(&self, path: &RelPath) -> bool {
        self.sphinx_configs.iter().any(|dir| path.is_within(dir))
    }

    fn python_dotted(&self, text: &str) -> Option<EntityId> {
        let name = text.trim().trim_end_matches("()");
        let segments: Vec<&str> = name.split('.').collect();
        let identifiers = segments.iter().all(|s| is_python_identifier(s));
        if segments.len() < 2 || !identifiers || self.python_modules.is_empty() {
            return None;
        }
        if let Some(module) = self.python_modules.get(name) {
            return Some(EntityId::module(module));
        }
        let (module, rest) = (1..segments.len()).rev().find_map(|at| {
            let prefix = segments[..at].join(".");
            self.python_modules
                .get(&prefix)
                .map(|m| (m, &segments[at..]))
        })?;
        let scope = if module.file_name().starts_with("__init__.") {
            module.parent()
        } else {
            module.clone()
        };
        let within = |id: &&EntityId| {
            let path = id.as_str().strip_prefix("module:").unwrap_or("");
            RelPath::new(path).is_some_and(|p| p == *module || p.is_within(&scope))
        };
        let declared = match rest {
            [object] => self.declarations.get(*object),
            [owner, member, ..] => self.declarations.get(&format!("{owner}.{member}")),
            [] => None,
        }?;
        let mut inside = declared.iter().filter(within);
        match (inside.next(), inside.next()) {
            (Some(only), None) => return Some(only.clone()),
            (Some(_), Some(_)) => return None,
            _ => {}
        }
        // Not declared there: one of the modules it re-exports everything of
        // (`attrs.filters.include`, from `from attr.filters import *`).
        let stars = self.star_reexports.get(&EntityId::module(module))?;
        let mut reexported = declared.iter().filter(|id| stars.contains(id));
        match (reexported.next(), reexported.next()) {
            (Some(only), None) => Some(only.clone()),
            _ => None,
        }
    }

    /// A `file:` entity for every inventoried file that is neither a document nor a module, so
    /// that each file of the repository is findable by path and name; but for doc-bridge's own
    /// configuration file, which configures the tool, not the project.
    fn file_entities(&mut self) {
        for file in self.observed {
            let record = &file.record;
            let analysed = matches!(
                record.class,
                FileClass::Document | FileClass::Module | FileClass::Config
            ) || self.sphinx_texts.contains(record.path.as_str());
            if !analysed {
                self.entities.push(Entity::File(FileEntity {
                    content_hash: record.content_hash.clone(),
                    id: EntityId::file(&record.path),
                    path: record.path.clone(),
                }));
            }
        }
    }

    /// The entity a path names: a module or document file, a package root, or an area.
    fn entity_at(&self, path: &RelPath) -> Option<EntityId> {
        if let Some(record) = self.files.get(path.as_str()) {
            return match record.class {
                doc_bridge_model::snapshot::FileClass::Module => Some(EntityId::module(path)),
                doc_bridge_model::snapshot::FileClass::Document => Some(EntityId::document(path)),
                _ if self.sphinx_texts.contains(path.as_str()) => Some(EntityId::document(path)),
                _ => None,
            };
        }
        if let Some(package) = self.package_at.get(path) {
            return Some(package.clone());
        }
        self.areas.get(path).cloned()
    }

    /// Document entities, with the links, mentions and covers of each resolved. Documents are
    /// independent of each other here, so they are resolved in parallel and collected in walk
    /// order.
    fn documents(&mut self, disk: &dyn Disk) {
        let package_names: HashMap<&str, EntityId> = self
            .packages
            .iter()
            .map(|p| (p.name.as_str(), p.id.clone()))
            .collect();
        let mut bodies = std::mem::take(&mut self.bodies);
        bodies.resize(self.observed.len(), None);
        let this = &*self;
        let resolved: Vec<(Entity, EntityText, Vec<Relation>, Vec<Diagnostic>)> = self
            .observed
            .par_iter()
            .zip(bodies)
            .filter_map(|(file, body)| {
                let facts = document_facts(file, &this.sphinx_texts)?;
                Some(this.document(file, facts, body, &package_names, disk))
            })
            .collect();
        // A data document, which the code names and no page links to (a message catalog, a
        // release template, a prompt), is shown wherever the code puts its text: its links are
        // not written for where the file sits. A README or index is a page whoever reads it.
        let linked: HashSet<&EntityId> = resolved
            .iter()
            .flat_map(|(_, _, relations, _)| relations)
            .filter(|r| r.kind == RelationKind::LinksTo && r.from != r.to)
            .map(|r| &r.to)
            .collect();
        let data: HashSet<EntityId> = resolved
            .iter()
            .filter_map(|(entity, ..)| match entity {
                Entity::Document(d) if !d.named_by.is_empty() && !linked.contains(&d.id) => {
                    let stem = d.path.file_stem().to_ascii_lowercase();
                    (stem != "readme" && stem != "index").then(|| d.id.clone())
                }
                _ => None,
            })
            .collect();
        for (document, text, relations, mut diagnostics) in resolved {
            if data.contains(document.id()) {
                diagnostics.retain(|d| d.code != "broken-link");
            }
            self.texts.insert(document.id().clone(), text);
            self.entities.push(document);
            self.relations
                .extend(relations.into_iter().filter(|r| r.from != r.to));
            self.diagnostics.extend(diagnostics);
        }
    }

    /// What a documentation build makes in place of `path`, a link target that does not exist:
    /// a page Sphinx renders from a template its `conf.py` names (`html_additional_pages`) or
    /// writes in every build (`genindex`, `modindex`, `py-modindex`, `search`); a
    /// page rendered from a template beside it (`maintainer.rst.template`); what Sphinx writes
    /// to `_build/`; and what sphinx-gallery generates: the page of an example script
    /// (`gallery/animation/animate_decay[.html]`, found as the one example
    /// `…/animation/animate_decay.py`) or of a page it copies, or one of the images it renders
    /// (`images/sphx_glr_<script>_001.png`). Build output has no source of its own: it stands
    /// for nothing, and is no broken link.
    fn gallery_page(&self, from: &RelPath, path: &RelPath) -> Option<Found> {
        if path.as_str().split('/').any(|d| d == "_build") {
            return Some(Found::Generated);
        }
        // A page Sphinx renders from a template its `conf.py` names (`html_additional_pages`).
        let page = match path.extension() {
            Some("html") => RelPath::new(path.as_str().trim_end_matches(".html")),
            _ => Some(path.clone()),
        };
        if page
            .as_ref()
            .is_some_and(|page| self.sphinx_additional_pages.contains(page))
        {
            return Some(Found::Generated);
        }
        // The pages every Sphinx HTML build writes at its root: the general and module indexes
        // and the search page.
        if page.is_some_and(|page| {
            matches!(
                page.file_name(),
                "genindex" | "modindex" | "py-modindex" | "search"
            ) && self.sphinx_configs.contains(&page.parent())
        }) {
            return Some(Found::Generated);
        }
        // A page the build renders from a template beside it (`index.rst.template`,
        // `migration.rst.tpl`).
        for suffix in [".template", ".tpl"] {
            for template in [format!("{path}{suffix}"), format!("{path}.rst{suffix}")] {
                if self.files.contains_key(template.as_str()) {
                    return RelPath::new(&template).map(Found::File);
                }
            }
        }
        // sphinx-gallery's pages are asked for by the documents of a Sphinx project (below a
        // `conf.py`, whatever its root document: scikit-learn renders `index.rst` from a
        // template) and by the gallery's own pages.
        let in_project = self.in_sphinx_project(from) || is_gallery_path(from);
        if !in_project {
            return None;
        }
        // An image it renders for a script: `<folder>/images/sphx_glr_<script>_001.png`, or
        // `…/images/thumb/sphx_glr_<script>_thumb.png`. Build output, once the script is there.
        if let Some(script) = rendered_image_script(path.file_name()) {
            let mut dirs = path.as_str().rsplit('/').skip(1);
            let folder = match dirs.next() {
                Some("thumb") => dirs.nth(1),
                _ => dirs.next(),
            }?;
            return self
                .gallery_source(folder, script)
                .map(|_| Found::Generated);
        }
        let stem = match path.extension() {
            None => path.file_name(),
            Some("html" | "rst" | "txt" | "ipynb") => path.file_stem(),
            Some(_) => return None,
        };
        let folder = path.as_str().rsplit('/').nth(1)?;
        self.gallery_source(folder, stem).map(Found::File)
    }

    /// What a relative link that names nothing from its document's folder (`resolved`, `None`
    /// when that climbs out of the repository) names from where its text is read: the folder
    /// sphinx-gallery renders it into, an including document's folder, Sphinx's source
    /// directory for a document name, or the folder a site serves the page as (MkDocs's
    /// directory URLs, [`SiteRoots::page_folder`]).
    fn read_elsewhere(
        &self,
        from: &RelPath,
        target: &str,
        resolved: Option<&RelPath>,
        tree: &Tree<'_>,
        directory_form: bool,
    ) -> Option<Found> {
        self.rendered_link(from, target, resolved, tree, directory_form)
            .or_else(|| self.read_from_includers(from, target, tree, directory_form))
            .or_else(|| self.sphinx_clamped(from, target, tree))
            .or_else(|| {
                // Written for the page's URL, where the site serves the page as a folder.
                let folder = self.site_roots.page_folder(from)?;
                let path = RelPath::join_normalized(&folder, target)?;
                crate::links::find(tree, &path, directory_form)
            })
    }

    /// What a relative link from `from` names once sphinx-gallery has rendered the pages
    /// (`resolved`: the link read from `from`'s folder, `None` when that climbs out of the
    /// repository). A gallery source (`examples/a/x.py`, a page copied beside it) is rendered
    /// into its gallery directory (`doc/auto_examples/a/`), and its links are written for
    /// there: they are read from there, and a page in a gallery directory is one the gallery
    /// renders. When a `conf.py` computes its gallery directories, where a source is rendered
    /// is not known: a gallery source's links, and a Sphinx page's links into a directory that
    /// does not exist (`gallery/index`, which the gallery writes), are not judged
    /// (`Found::Generated`).
    fn rendered_link(
        &self,
        from: &RelPath,
        target: &str,
        resolved: Option<&RelPath>,
        tree: &Tree<'_>,
        directory_form: bool,
    ) -> Option<Found> {
        let in_gallery = |path: &RelPath| {
            self.gallery_renders
                .iter()
                .any(|(_, gallery)| path.is_within(gallery))
        };
        if let Some(path) = resolved.filter(|path| in_gallery(path)) {
            return self.rendered_source(path);
        }
        for (examples, gallery) in &self.gallery_renders {
            let folder = from.parent();
            let Some(inside) = folder.strip_dir(examples) else {
                continue;
            };
            let rendered_dir = match inside {
                "" => gallery.clone(),
                rest => RelPath::join_normalized(gallery, rest)?,
            };
            let rendered = RelPath::join_normalized(&rendered_dir, target)?;
            if in_gallery(&rendered) {
                return self.rendered_source(&rendered);
            }
            return crate::links::find(tree, &rendered, directory_form);
        }
        if !self.gallery_unknown {
            return None;
        }
        let missing_folder = || resolved.is_some_and(|path| !(tree.is_dir)(&path.parent()));
        let gallery_source = from
            .parent()
            .as_str()
            .split('/')
            .any(|dir| dir.contains("galler"))
            || doc_bridge_model::file_role::file_role(from)
                == Some(doc_bridge_model::file_role::FileRole::Example);
        let judged_unknowable =
            gallery_source || (self.in_sphinx_project(from) && missing_folder());
        judged_unknowable.then_some(Found::Generated)
    }

    /// What a relative link of a document others include names from an including document's
    /// folder (the first folder, in path order, where it names something): the text is read
    /// there, so a link written for the including page is not broken
    /// (`../../../requirements/x.txt` in a root `CONTRIBUTING.rst` that
    /// `doc/source/development/contribute.rst` includes).
    fn read_from_includers(
        &self,
        from: &RelPath,
        target: &str,
        tree: &Tree<'_>,
        directory_form: bool,
    ) -> Option<Found> {
        self.includers.get(from)?.iter().find_map(|folder| {
            let path = RelPath::join_normalized(folder, target)?;
            crate::links::find(tree, &path, directory_form)
        })
    }

    /// A document name (a `:doc:` target, a toctree entry: no extension) read as Sphinx reads
    /// it, from the document's folder with a `..` above the source directory staying at it
    /// (Sphinx joins names as absolute paths): `:doc:`../topics/x`` in `user_guide.rst` at the
    /// source root names `topics/x`.
    fn sphinx_clamped(&self, from: &RelPath, target: &str, tree: &Tree<'_>) -> Option<Found> {
        let name = target.rsplit('/').next().unwrap_or(target);
        if name.contains('.') || !target.contains("..") {
            return None;
        }
        let source = self
            .sphinx_configs
            .iter()
            .filter(|dir| from.is_within(dir))
            .max_by_key(|dir| dir.as_str().len())?;
        let folder = from.parent();
        let mut parts: Vec<&str> = folder
            .strip_dir(source)?
            .split('/')
            .filter(|part| !part.is_empty())
            .collect();
        for part in target.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                part => parts.push(part),
            }
        }
        let path = RelPath::join_normalized(source, &parts.join("/"))?;
        crate::links::find(tree, &path, false)
    }

    /// The source of a page sphinx-gallery renders into one of its gallery directories
    /// (`doc/auto_examples/a/x[.html]` from `examples/a/x.py`, or a page copied as it is;
    /// a folder's `index` from its `GALLERY_HEADER.rst` or `README.txt`). `None` for output
    /// of no source.
    fn rendered_source(&self, rendered: &RelPath) -> Option<Found> {
        let (examples, inside) = self
            .gallery_renders
            .iter()
            .find_map(|(examples, gallery)| Some((examples, rendered.strip_dir(gallery)?)))?;
        let inside = inside.trim_end_matches('/');
        let inside = [".html", ".rst", ".txt", ".ipynb"]
            .iter()
            .find_map(|ext| inside.strip_suffix(ext))
            .unwrap_or(inside);
        let page = match inside {
            "" => examples.clone(),
            inside => RelPath::join_normalized(examples, inside)?,
        };
        let (folder, name) = match page.file_name() {
            "index" => (page.parent(), None),
            _ if self.dirs.contains(&page) => (page.clone(), None),
            name => (page.parent(), Some(name)),
        };
        let names: Vec<String> = match name {
            Some(name) => ["py", "rst", "txt", "md"]
                .iter()
                .map(|ext| format!("{name}.{ext}"))
                .collect(),
            None => ["GALLERY_HEADER.rst", "README.txt", "README.rst"]
                .map(str::to_owned)
                .to_vec(),
        };
        names
            .iter()
            .filter_map(|name| RelPath::join_normalized(&folder, name))
            .find(|path| self.files.contains_key(path.as_str()))
            .map(Found::File)
    }

    /// The gallery source a page `name` in a served folder `folder` is generated from: the one
    /// source of that name in a folder of that name (sources in one folder, such as a header
    /// and a copied index, are one page: the first); `auto_examples/` read as `examples/`,
    /// sphinx-gallery's default; else the one source of that name whose folder name ends with
    /// the served one (`users/explain/quick_start` from `galleries/users_explain/`).
    fn gallery_source(&self, folder: &str, name: &str) -> Option<RelPath> {
        let one = |sources: &[&RelPath]| -> Option<RelPath> {
            let first = sources.first()?;
            let dir = first.parent();
            sources
                .iter()
                .all(|s| s.parent() == dir)
                .then(|| (*first).clone())
        };
        let source_folder = if folder == "auto_examples" {
            "examples"
        } else {
            folder
        };
        self.gallery_sources
            .get(&(folder, name))
            .or_else(|| self.gallery_sources.get(&(source_folder, name)))
            .and_then(|sources| one(sources))
            .or_else(|| {
                let renamed: Vec<&&RelPath> = self
                    .gallery_by_stem
                    .get(name)?
                    .iter()
                    .filter(|s| s.parent().file_name().ends_with(folder))
                    .collect();
                match renamed.as_slice() {
                    [only] => Some((**only).clone()),
                    _ => None,
                }
            })
    }

    /// The documents a `toctree` glob names: those whose name (path without its extension)
    /// matches the pattern, joined to the linking document's directory `dir`, or to each site
    /// root for a `/`-rooted pattern (Sphinx's source directory).
    fn glob_documents(
        &self,
        dir: &RelPath,
        roots: &[crate::sites::SiteRoot],
        link: &doc_bridge_markdown::Link,
    ) -> Vec<&'a RelPath> {
        let bases: Vec<(&RelPath, &str)> = match (link.path.as_deref(), link.site_path.as_deref()) {
            (Some(pattern), _) => vec![(dir, pattern)],
            (None, Some(pattern)) => roots
                .iter()
                .map(|root| (&root.dir, pattern.trim_start_matches('/')))
                .collect(),
            _ => Vec::new(),
        };
        self.document_paths
            .iter()
            .copied()
            .filter(|path| {
                let name = path.as_str();
                let name = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
                bases.iter().any(|(base, pattern)| {
                    let relative = if base.is_root() {
                        Some(name)
                    } else {
                        name.strip_prefix(base.as_str())
                            .and_then(|rest| rest.strip_prefix('/'))
                    };
                    relative.is_some_and(|relative| crate::links::glob_matches(pattern, relative))
                })
            })
            .collect()
    }

    /// One document's entity, relations and diagnostics.
    fn document(
        &self,
        file: &ObservedFile,
        facts: &doc_bridge_markdown::MarkdownFacts,
        body: Option<String>,
        package_names: &HashMap<&str, EntityId>,
        disk: &dyn Disk,
    ) -> (Entity, EntityText, Vec<Relation>, Vec<Diagnostic>) {
        let mut relations = Vec::new();
        let mut diagnostics = Vec::new();
        let record = &file.record;
        let mut document = document_entity(
            &record.path,
            &record.content_hash,
            facts,
            self.options.agent_root.as_ref(),
        );
        document.excluded_from_site = self.excluded_from_site(&record.path);
        document.named_by = self.code_paths.readers(&record.path);
        let text = EntityText {
            // Given apart when the facts have no further use (moved, not copied); else copied.
            body: body.unwrap_or_else(|| facts.body.clone()),
            code: facts.code.clone(),
        };
        let id = document.id.clone();
        let dir = record.path.parent();

        let is_file = |path: &RelPath| self.files.contains_key(path.as_str());
        let is_dir = |path: &RelPath| self.dirs.contains(path);
        let numbered = |path: &RelPath| self.numbered_pages.get(path).cloned();
        let is_text_page = |path: &RelPath| self.sphinx_texts.contains(path.as_str());
        let tree = Tree {
            is_file: &is_file,
            is_dir: &is_dir,
            numbered: &numbered,
            is_text_page: &is_text_page,
        };
        // The site roots in this document's order, computed at its first site-absolute link.
        let mut site_roots = None;
        // The site's own code decides what its links name: what names nothing is not judged.
        let by_hook = self.site_roots.links_by_hook(&record.path);
        // The relation a link that found its target makes.
        let links_to = |to: EntityId, line: u32, via: &str| Relation {
            from: id.clone(),
            to,
            kind: RelationKind::LinksTo,
            provenance: Provenance::Observed,
            evidence: at_line(record, line),
            via: Some(via.to_owned()),
        };
        for link in &facts.links {
            if link.glob {
                let roots =
                    site_roots.get_or_insert_with(|| self.site_roots.for_document(&record.path));
                for path in self.glob_documents(&dir, roots, link) {
                    if let Some(entity) = self.entity_at(path) {
                        relations.push(links_to(entity, link.line, &link.target));
                    }
                }
                continue;
            }
            if let Some(label) = link.label.as_deref() {
                // A label no document defines is left alone: extensions (`autosectionlabel`)
                // and other projects (intersphinx) define labels this tree does not show.
                let docc_article = || {
                    let catalog = docc_catalog(&record.path)?;
                    link.target.starts_with("doc:").then_some(())?;
                    self.docc_files
                        .get(&(catalog, format!("doc:{label}")))
                        .copied()
                };
                if let Some(path) = docc_article().or_else(|| self.labels.get(label).copied())
                    && let Some(entity) = self.entity_at(path)
                {
                    relations.push(links_to(entity, link.line, &link.target));
                }
                continue;
            }
            let (target, site) = match (link.path.as_deref(), link.site_path.as_deref()) {
                (Some(path), _) if !path.is_empty() => (path, false),
                (None, Some(site_path)) => (site_path, true),
                _ => {
                    // A forge URL of a file this repository holds (`https://github.com/o/r/
                    // blob/main/Documentation/Usage.md`, written so the link works where the
                    // README is shown outside the forge) reaches that file. Never a finding.
                    let own = doc_bridge_markdown::forge_file_path(&link.target)
                        .and_then(|path| RelPath::new(&path))
                        .and_then(|path| self.entity_at(&path))
                        .filter(|e| e.as_str().starts_with("document:"));
                    if let Some(entity) = own {
                        relations.push(links_to(entity, link.line, &link.target));
                    }
                    continue;
                }
            };
            if crate::links::is_placeholder(target) || crate::links::is_placeholder(&link.target) {
                continue;
            }
            let broken = |why: String| {
                Diagnostic::new(
                    "broken-link",
                    Severity::Warning,
                    record.path.clone(),
                    Some(link.line),
                    format!("link `{}` {why}", truncate(target, 120)),
                    Some(id.clone()),
                )
            };
            let found = if site {
                let roots =
                    site_roots.get_or_insert_with(|| self.site_roots.for_document(&record.path));
                let generated = || {
                    crate::links::site_candidates(roots, target)
                        .find_map(|(path, _)| self.gallery_page(&record.path, &path))
                };
                match crate::links::find_site(&tree, roots, target).or_else(generated) {
                    Some(found) => found,
                    None => {
                        let on_disk =
                            crate::links::site_candidates(roots, target).any(|(path, _)| {
                                crate::links::page_files(&path)
                                    .iter()
                                    .any(|p| disk.exists(p))
                            });
                        if !on_disk && !by_hook && self.site_roots.judges(&record.path) {
                            diagnostics.push(broken(site_miss(roots)));
                        }
                        continue;
                    }
                }
            } else {
                let directory_form = crate::links::is_directory_form(target);
                let Some(resolved) = RelPath::join_normalized(&dir, target) else {
                    match self.read_elsewhere(&record.path, target, None, &tree, directory_form) {
                        Some(Found::File(path)) => {
                            if let Some(entity) = self.entity_at(&path) {
                                relations.push(links_to(entity, link.line, target));
                            }
                        }
                        Some(_) => {}
                        None if by_hook
                            || self.site_roots.leaves_site(&record.path, target)
                            || crate::links::is_forge_page(&record.path, target) => {}
                        None => {
                            diagnostics.push(broken("points outside the repository".to_owned()))
                        }
                    }
                    continue;
                };
                let bare_page = || {
                    crate::links::is_bare_page_name(target)
                        .then(|| self.pages_by_name.get(target).cloned().flatten())
                        .flatten()
                        .map(Found::File)
                };
                let in_default_locale = || {
                    crate::links::default_locale_path(&record.path, &resolved)
                        .and_then(|path| crate::links::find(&tree, &path, directory_form))
                };
                // DocC finds a resource by its name anywhere in the catalog.
                let docc_resource = || {
                    let catalog = docc_catalog(&record.path)?;
                    (!target.contains('/')).then_some(())?;
                    let path = self.docc_files.get(&(catalog, target.to_owned()))?;
                    Some(Found::File((*path).clone()))
                };
                // MyST: `[text](name)` is a reference to a label (`(name)=`, `.. _name:`) or
                // to a documented Python object (`pkg.mod.Class`) when no file has the name;
                // in a Sphinx project, by its short name too (`[warns](warns)`), as Sphinx's
                // `any` role finds an object by the last part of its name.
                let reference = || {
                    link.fragment.is_none().then_some(())?;
                    // A label may hold `/` (`(labels/line-length)=`); an object's name may not.
                    let label = doc_bridge_markdown::normalize_label(target);
                    if let Some(path) = self.labels.get(label.as_str()) {
                        return Some(Found::File((*path).clone()));
                    }
                    (!target.contains('/')).then_some(())?;
                    let module = self
                        .python_dotted(target)
                        .or_else(|| self.python_short_name(&record.path, target))?;
                    let path = module.as_str().strip_prefix("module:")?;
                    Some(Found::File(RelPath::new(path)?))
                };
                // mdBook renders a folder's `README.md` as its `index.html`.
                let readme_index = || {
                    let readme = self.site_roots.readme_as_index(&resolved)?;
                    (tree.is_file)(&readme).then_some(Found::File(readme))
                };
                match crate::links::find(&tree, &resolved, directory_form)
                    .or_else(readme_index)
                    .or_else(in_default_locale)
                    .or_else(bare_page)
                    .or_else(docc_resource)
                    .or_else(reference)
                    .or_else(|| self.gallery_page(&record.path, &resolved))
                    .or_else(|| {
                        let resolved = Some(&resolved);
                        self.read_elsewhere(&record.path, target, resolved, &tree, directory_form)
                    }) {
                    Some(found) => found,
                    None => {
                        // A file the code names is one a build step writes (or reads).
                        let written =
                            |path: &RelPath| disk.exists(path) || self.code_paths.names(path);
                        if !crate::links::page_files(&resolved).iter().any(written)
                            && !by_hook
                            && !self.site_roots.leaves_site(&record.path, target)
                            && !self.leaves_flat_pages(&record.path, target)
                        {
                            diagnostics.push(broken(format!(
                                "points to `{resolved}`, which does not exist"
                            )));
                        }
                        continue;
                    }
                }
            };
            if let Found::File(path) = found
                && let Some(entity) = self.entity_at(&path).filter(|e| {
                    !e.as_str().starts_with("area:") && !e.as_str().starts_with("package:")
                })
            {
                relations.push(links_to(entity, link.line, target));
            }
        }

        for mention in &facts.code_mentions {
            let evidence = || at_line(record, mention.line);
            let dotted = self.python_dotted(&mention.text);
            match mention_shape(&mention.text) {
                MentionShape::Path(path) => {
                    let mut candidates: Vec<RelPath> =
                        [RelPath::new(path), RelPath::join_normalized(&dir, path)]
                            .into_iter()
                            .flatten()
                            .collect();
                    candidates.dedup();
                    let mut targets: Vec<EntityId> = candidates
                        .iter()
                        .filter_map(|p| self.entity_at(p))
                        .collect();
                    targets.dedup();
                    // `flask.json` reads as a file name, but may be a dotted module name.
                    if targets.is_empty()
                        && let Some(module) = &dotted
                    {
                        targets.push(module.clone());
                    }
                    match targets.as_slice() {
                        [] => {
                            let exists_somehow = candidates.iter().any(|p| self.files.contains_key(p.as_str()) || self.dirs.contains(p) || disk.exists(p));
                            if !exists_somehow && is_reportable_path(path) {
                                diagnostics.push(Diagnostic::new(
                                    "unresolved-mention", Severity::Info, record.path.clone(), Some(mention.line),
                                    format!("`{}` looks like a path but names nothing in this repository", truncate(path, 120)),
                                    Some(id.clone()),
                                ));
                            }
                        }
                        [target] => {
                            if !target.as_str().starts_with("document:") {
                                relations.push(Relation { from: id.clone(), to: target.clone(), kind: RelationKind::Mentions, provenance: Provenance::Observed, evidence: evidence(), via: Some(path.to_owned()) });
                            }
                        }
                        several => diagnostics.push(Diagnostic::new(
                            "ambiguous-mention", Severity::Info, record.path.clone(), Some(mention.line),
                            format!("`{}` names both {} (from the root) and {} (from the document's folder); the mention was not resolved", truncate(path, 120), several[0], several[several.len() - 1]),
                            Some(id.clone()),
                        )),
                    }
                }
                MentionShape::Symbol(name) => match dotted
                    .as_ref()
                    .map(std::slice::from_ref)
                    .or_else(|| {
                        qualified_member(&mention.text)
                            .and_then(|q| self.declarations.get(&q))
                            .or_else(|| self.declarations.get(name))
                            .map(Vec::as_slice)
                    }) {
                    Some([only]) => relations.push(Relation {
                        from: id.clone(),
                        to: only.clone(),
                        kind: RelationKind::Mentions,
                        provenance: Provenance::Observed,
                        evidence: evidence(),
                        via: Some(name.to_owned()),
                    }),
                    Some(several) if several.len() > 1 => diagnostics.push(Diagnostic::new(
                        "ambiguous-mention",
                        Severity::Info,
                        record.path.clone(),
                        Some(mention.line),
                        format!(
                            "`{name}` is declared by {} modules ({}); the mention was not resolved",
                            several.len(),
                            several
                                .iter()
                                .take(3)
                                .map(EntityId::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        Some(id.clone()),
                    )),
                    _ => {
                        if let Some(package) = package_names.get(name) {
                            relations.push(Relation {
                                from: id.clone(),
                                to: package.clone(),
                                kind: RelationKind::Mentions,
                                provenance: Provenance::Observed,
                                evidence: evidence(),
                                via: Some(name.to_owned()),
                            });
                        }
                    }
                },
                MentionShape::Name(name) => {
                    if let Some(package) = package_names.get(name) {
                        relations.push(Relation {
                            from: id.clone(),
                            to: package.clone(),
                            kind: RelationKind::Mentions,
                            provenance: Provenance::Observed,
                            evidence: evidence(),
                            via: Some(name.to_owned()),
                        });
                    }
                }
                MentionShape::Other => {}
            }
        }

        for cover in &document.covers {
            let target = self.resolve_cover(cover, &dir);
            match target {
                Some(target) => relations.push(Relation {
                    from: id.clone(),
                    to: target,
                    kind: RelationKind::Covers,
                    provenance: Provenance::Declared,
                    evidence: at_line(record, 1),
                    via: Some(cover.clone()),
                }),
                None => diagnostics.push(Diagnostic::new(
                    "covers-unresolved",
                    Severity::Warning,
                    record.path.clone(),
                    Some(1),
                    format!(
                        "front matter `covers: {}` names no package, area, module or document",
                        truncate(cover, 120)
                    ),
                    Some(id.clone()),
                )),
            }
        }
        if document.excluded_from_site {
            // The build never reads it: its links lead nowhere anyone follows.
            diagnostics.retain(|d| d.code != "broken-link");
        }
        (Entity::Document(document), text, relations, diagnostics)
    }

    fn resolve_cover(&self, cover: &str, dir: &RelPath) -> Option<EntityId> {
        let cover = cover.trim();
        for prefix in ["document:", "module:", "area:", "package:"] {
            if let Some(rest) = cover.strip_prefix(prefix) {
                let id = EntityId::from_raw(cover);
                let known = self.package_named.values().any(|p| *p == id)
                    || RelPath::new(rest).is_some_and(|path| {
                        self.entity_at(&path).as_ref() == Some(&id)
                            || (prefix == "document:" && self.files.contains_key(path.as_str()))
                    });
                return known.then_some(id);
            }
        }
        let path = cover.trim_start_matches("./").trim_end_matches('/');
        if let Some(package) = self.package_named.get(path) {
            return Some(package.clone());
        }
        [RelPath::new(path), RelPath::join_normalized(dir, path)]
            .into_iter()
            .flatten()
            .find_map(|p| self.entity_at(&p))
    }

    /// Whether a link written as a URL climbs out of the flat namespace a numbered tree's pages
    /// are served in by a site this repository does not configure (svelte.dev serves
    /// `documentation/docs/01-introduction/02-getting-started.md` at
    /// `/docs/svelte/getting-started`, so its `../kit` is `/docs/kit`, another project's
    /// pages): not judged. Inside a detected site the site's own layout decides.
    fn leaves_flat_pages(&self, from: &RelPath, target: &str) -> bool {
        target.starts_with("../")
            && crate::sites::is_url_style(target)
            && crate::links::in_numbered_tree(from)
            && !self.site_roots.judges(from)
    }

    /// Keeps each package's manifest-named readme when it is a document, following a symbolic
    /// link inside the repository once (serde's `serde/crates-io.md` → `crates-io.md`).
    fn package_readmes(&mut self, disk: &dyn Disk) {
        let is_document = |path: &RelPath| {
            self.entity_at(path)
                .is_some_and(|e| e.as_str().starts_with("document:"))
        };
        let readmes: Vec<Option<RelPath>> = self
            .packages
            .iter()
            .map(|package| {
                let named = package.readme.as_ref()?;
                if is_document(named) {
                    return Some(named.clone());
                }
                disk.link_target(named).filter(|path| is_document(path))
            })
            .collect();
        let mut by_id: HashMap<EntityId, Option<RelPath>> = HashMap::new();
        for (package, readme) in self.packages.iter_mut().zip(readmes) {
            package.readme.clone_from(&readme);
            by_id.insert(package.id.clone(), readme);
        }
        for entity in &mut self.entities {
            if let Entity::Package(package) = entity
                && let Some(readme) = by_id.remove(&package.id)
            {
                package.readme = readme;
            }
        }
    }

    fn depends_on(&mut self) {
        let mut by_name: HashMap<(Ecosystem, String), EntityId> = HashMap::new();
        for package in &self.packages {
            by_name
                .entry((
                    package.ecosystem,
                    normalize_name(package.ecosystem, &package.name),
                ))
                .or_insert_with(|| package.id.clone());
        }
        let mut relations = Vec::new();
        for package in &self.packages {
            let Some(record) = self.files.get(package.manifest.as_str()).copied() else {
                continue;
            };
            for dependency in &package.dependencies {
                if let Some(target) = by_name.get(&(
                    package.ecosystem,
                    normalize_name(package.ecosystem, &dependency.name),
                )) {
                    relations.push(Relation {
                        from: package.id.clone(),
                        to: target.clone(),
                        kind: RelationKind::DependsOn,
                        provenance: Provenance::Declared,
                        evidence: whole_file(record),
                        via: Some(dependency.kind.clone()),
                    });
                }
            }
        }
        self.relations
            .extend(relations.into_iter().filter(|r| r.from != r.to));
    }

    fn finish(mut self, generated_at: String) -> (Snapshot, Texts) {
        let sorting = doc_bridge_model::timing::Timer::start("snapshot: sort");
        // rayon's sorts are stable, so the order is exactly `sort_by`'s.
        let (entities, relations, diagnostics) = (
            &mut self.entities,
            &mut self.relations,
            &mut self.diagnostics,
        );
        rayon::join(
            || entities.par_sort_by(|a, b| a.id().cmp(b.id())),
            || {
                rayon::join(
                    || {
                        relations.par_sort_by(|a, b| {
                            (&a.from, a.kind, &a.to, &a.evidence, &a.via).cmp(&(
                                &b.from,
                                b.kind,
                                &b.to,
                                &b.evidence,
                                &b.via,
                            ))
                        });
                        relations.dedup_by(|later, first| {
                            later.from == first.from
                                && later.kind == first.kind
                                && later.to == first.to
                        });
                    },
                    || {
                        diagnostics.par_sort_by(|a, b| {
                            a.sort_key()
                                .cmp(&b.sort_key())
                                .then_with(|| a.id.cmp(&b.id))
                        });
                        diagnostics.dedup();
                    },
                )
            },
        );
        sorting.stop();

        let mut stats = SnapshotStats {
            files: self.observed.len() as u64,
            ..SnapshotStats::default()
        };
        for entity in &self.entities {
            *stats
                .entities
                .entry(entity.kind().as_str().to_owned())
                .or_default() += 1;
        }
        for relation in &self.relations {
            *stats
                .relations
                .entry(relation.kind.as_str().to_owned())
                .or_default() += 1;
        }
        // Counted before the list is bounded: the stats say how many there were.
        for diagnostic in &self.diagnostics {
            *stats
                .diagnostics
                .entry(diagnostic.code.clone())
                .or_default() += 1;
        }
        let diagnostics = doc_bridge_model::cap_diagnostics(
            std::mem::take(&mut self.diagnostics),
            doc_bridge_model::MAX_DIAGNOSTICS_PER_FILE_AND_CODE,
            doc_bridge_model::MAX_DIAGNOSTICS_PER_CODE,
        );
        let snapshot = Snapshot {
            artifact_type: SNAPSHOT_TYPE.to_owned(),
            schema_version: SNAPSHOT_SCHEMA_VERSION,
            content_hash: ContentHash::of_bytes(b""),
            content_hash_algo: SEMANTIC_HASH_ALGO.to_owned(),
            generated_at,
            project: Project {
                name: self.options.project_name.clone(),
                root: ".".to_owned(),
            },
            analyzers: analyzer_versions(),
            files: files_with_attributes(self.observed, &self.sphinx_texts),
            entities: self.entities,
            relations: self.relations,
            diagnostics,
            stats,
        };
        (snapshot, self.texts)
    }
}

/// A snapshot's seal, its `content_hash`: the semantic hash of everything but the fields
/// `SNAPSHOT_HASH_EXCLUDED` names (the empty input's hash should it not encode, which a
/// snapshot built here always does).
pub fn seal_snapshot(snapshot: &Snapshot) -> ContentHash {
    phase("snapshot: seal", || {
        semantic_hash(snapshot, SNAPSHOT_HASH_EXCLUDED)
    })
    .unwrap_or_else(|_| ContentHash::of_bytes(b""))
}

fn normalize_name(ecosystem: Ecosystem, name: &str) -> String {
    match ecosystem {
        Ecosystem::Cargo | Ecosystem::Python => name.replace('-', "_").to_lowercase(),
        Ecosystem::Npm
        | Ecosystem::Go
        | Ecosystem::Maven
        | Ecosystem::Gradle
        | Ecosystem::Dotnet
        | Ecosystem::Rubygems
        | Ecosystem::Composer
        | Ecosystem::Swift
        | Ecosystem::Cmake => name.to_owned(),
    }
}

/// The serde (kebab-case) name of an analyzer enum value.
/// The document facts of an observation: a document's, or a `.txt` file's inside a Sphinx
/// source directory (`sphinx_texts`).
/// The script an image sphinx-gallery renders was made from: `sphx_glr_<script>_001.png` or
/// `sphx_glr_<script>_thumb.png` gives `<script>`.
fn rendered_image_script(name: &str) -> Option<&str> {
    let stem = name.strip_prefix("sphx_glr_")?;
    let stem = stem.rsplit_once('.').map_or(stem, |(stem, _)| stem);
    let (script, suffix) = stem.rsplit_once('_')?;
    (suffix == "thumb" || (!suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit())))
        .then_some(script)
        .filter(|script| !script.is_empty())
}

/// Whether a file lies where sphinx-gallery sources are kept: example code, or a `galleries/`
/// directory.
/// Whether a Rust `mod` declaration names a file that is on disk although the walk did not
/// read it: behind a symbolic link, which the walk never follows (serde's `src/core`, a link
/// to another crate's sources, `#[path = "core/macros.rs"] mod macros;`), or ignored. The
/// candidates are the `#[path]` file from the declaring file's folder, else `name.rs` and
/// `name/mod.rs` beside it or in the folder of its name.
fn rust_module_on_disk(
    from: &RelPath,
    specifier: &str,
    exists: &(dyn Fn(&RelPath) -> bool + Sync),
) -> bool {
    let folder = from.parent();
    if specifier.ends_with(".rs") {
        return RelPath::join_normalized(&folder, specifier).is_some_and(|p| exists(&p));
    }
    let own_folder = match from.file_name() {
        "mod.rs" | "lib.rs" | "main.rs" => Some(folder.clone()),
        _ => folder.join(from.file_stem()),
    };
    [Some(folder), own_folder]
        .into_iter()
        .flatten()
        .flat_map(|dir| {
            [
                dir.join(&format!("{specifier}.rs")),
                dir.join(&format!("{specifier}/mod.rs")),
            ]
        })
        .flatten()
        .any(|path| exists(&path))
}

/// Whether an import names a module the walk never reads because a part of its name looks
/// like a secret store (`mod credentials;`, `from .secrets import token`, see
/// [`crate::walk::looks_like_secret`]): the file may well be there, unread on purpose.
fn names_excluded_secret(specifier: &str) -> bool {
    specifier
        .split(['/', '.', ':', '\\'])
        .any(|segment| !segment.is_empty() && crate::walk::looks_like_secret(segment))
}

fn is_gallery_path(path: &RelPath) -> bool {
    doc_bridge_model::file_role::file_role(path)
        == Some(doc_bridge_model::file_role::FileRole::Example)
        || path.as_str().split('/').any(|dir| dir.contains("galler"))
}

fn document_facts<'f>(
    file: &'f ObservedFile,
    sphinx_texts: &HashSet<&str>,
) -> Option<&'f doc_bridge_markdown::MarkdownFacts> {
    match &file.analysis {
        Analysis::Document(facts) => Some(facts),
        Analysis::Text(facts) if sphinx_texts.contains(file.record.path.as_str()) => Some(facts),
        _ => None,
    }
}

/// The inventory, each record with what the repository's `.gitattributes` say of it; a `.txt`
/// file a Sphinx source directory holds is a document.
fn files_with_attributes(
    observed: &[ObservedFile],
    sphinx_texts: &HashSet<&str>,
) -> Vec<FileRecord> {
    let attributes: Vec<(RelPath, &str)> = observed
        .iter()
        .filter_map(|f| match &f.analysis {
            Analysis::Attributes(text) => Some((f.record.path.parent(), text.as_str())),
            _ => None,
        })
        .collect();
    let linguist =
        crate::attributes::linguist_of(&attributes, observed.iter().map(|f| &f.record.path));
    observed
        .iter()
        .map(|f| FileRecord {
            linguist: linguist.get(&f.record.path).map(|l| l.as_str().to_owned()),
            class: if sphinx_texts.contains(f.record.path.as_str()) {
                doc_bridge_model::snapshot::FileClass::Document
            } else {
                f.record.class
            },
            ..f.record.clone()
        })
        .collect()
}

/// An inline-code mention written as `Owner.member` (also `Owner::member`, `Owner#member`,
/// with or without `()`), as the key members are declared under; `None` for other shapes.
fn qualified_member(text: &str) -> Option<String> {
    let trimmed = text.trim().trim_end_matches("()");
    let normalized = trimmed.replace("::", ".").replace('#', ".");
    let (owner, name) = normalized.rsplit_once('.')?;
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
    };
    (ident(owner) && ident(name) && !name.contains('.')).then(|| {
        // The owner as declared is the type's name alone (`a.b.Store.get` is `Store.get`).
        let owner = owner.rsplit('.').next().unwrap_or(owner);
        format!("{owner}.{name}")
    })
}

fn member_kind(kind: doc_bridge_source::MemberKind) -> &'static str {
    match kind {
        doc_bridge_source::MemberKind::Method => "method",
        doc_bridge_source::MemberKind::AssociatedFunction => "associated-function",
        doc_bridge_source::MemberKind::Field => "field",
        doc_bridge_source::MemberKind::Constant => "constant",
    }
}

fn kebab<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "unknown".to_owned(),
    }
}

/// Whether an unresolved path-shaped mention is worth reporting: a concrete path with a
/// directory part. Bare file names (`package.json`, `llms.txt`) name a kind of file rather than
/// one file; patterns and placeholders (`crates/*`, `<dir>/x.md`, `$HOME/x`) cannot resolve;
/// absolute paths are URL paths or paths on another machine (`/v1/chat/completions`); paths
/// under a dot-directory (`.git/`, `.doc-bridge/`) name tool state that is usually not in the
/// walk.
fn is_reportable_path(path: &str) -> bool {
    path.contains('/')
        && !path.starts_with(['/', '.'])
        && !path.contains([
            '*', '?', '[', ']', '{', '}', '<', '>', '$', '|', '=', '%', '~',
        ])
        && !path.contains("...")
}

/// Directories that hold what a build or an install produces, absent from a clean checkout.
const BUILD_OUTPUT_DIRS: &[&str] = &[
    "dist",
    "build",
    "out",
    "node_modules",
    "generated",
    "__generated__",
    ".generated",
];

/// Whether a relative import reaches into a build's output (`../dist/node/cli.js`,
/// `../node_modules/x/index.mjs`, `./generated/app`, code a script writes): it names nothing in the repository until the build ran, so
/// it stays `unresolved` but is no finding.
fn is_build_output(specifier: &str) -> bool {
    specifier.starts_with('.')
        && specifier
            .split('/')
            .any(|segment| BUILD_OUTPUT_DIRS.contains(&segment))
}

/// Why a site-absolute link names nothing: the roots it was looked up in (at most four).
/// The DocC documentation catalog (`Sources/X/X.docc`) a path lies in: the nearest directory
/// above it named `*.docc`.
pub(crate) fn docc_catalog(path: &RelPath) -> Option<RelPath> {
    let text = path.as_str();
    let mut end = None;
    let mut at = 0;
    for segment in text.split('/') {
        let next = at + segment.len();
        if next < text.len() && segment.len() > ".docc".len() && segment.ends_with(".docc") {
            end = Some(next);
        }
        at = next + 1;
    }
    RelPath::new(text.get(..end?)?)
}

fn site_miss(roots: &[crate::sites::SiteRoot]) -> String {
    let mut dirs: Vec<String> = Vec::new();
    for root in roots {
        let dir = format!("`{}`", root.dir);
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    let more = dirs.len().saturating_sub(4);
    dirs.truncate(4);
    let listed = if more > 0 {
        format!("{} and {more} more", dirs.join(", "))
    } else {
        dirs.join(", ")
    };
    format!(
        "names no file under the site root(s) {listed}; set `analysis.links.siteRoots` if `/` stands for another directory"
    )
}

/// At most `max` characters of `text`, for quoting file content in messages.
pub fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn gallery_images_name_their_script() {
        assert_eq!(
            rendered_image_script("sphx_glr_plot_kmeans_001.png"),
            Some("plot_kmeans")
        );
        assert_eq!(
            rendered_image_script("sphx_glr_plot_kmeans_thumb.png"),
            Some("plot_kmeans")
        );
        assert_eq!(rendered_image_script("sphx_glr_a_b_012.svg"), Some("a_b"));
        for name in [
            "sphx_glr_plot.png",
            "sphx_glr__001.png",
            "logo.png",
            "sphx_glr_x_1a.png",
        ] {
            assert_eq!(rendered_image_script(name), None, "{name}");
        }
    }

    #[test]
    fn a_rust_module_behind_a_symbolic_link_is_on_disk() {
        let on_disk = [
            "serde/src/core/macros.rs",
            "a/src/net/tcp.rs",
            "a/src/util/mod.rs",
        ];
        let exists = |p: &RelPath| on_disk.contains(&p.as_str());
        let lib = RelPath::new("serde/src/lib.rs").unwrap();
        assert!(rust_module_on_disk(&lib, "core/macros.rs", &exists));
        assert!(!rust_module_on_disk(&lib, "core/gone.rs", &exists));
        let net = RelPath::new("a/src/net.rs").unwrap();
        assert!(rust_module_on_disk(&net, "tcp", &exists));
        let main = RelPath::new("a/src/main.rs").unwrap();
        assert!(rust_module_on_disk(&main, "util", &exists));
        assert!(!rust_module_on_disk(&main, "gone", &exists));
    }

    #[test]
    fn imports_of_modules_the_walk_leaves_unread_are_no_findings() {
        for specifier in [
            "credentials",
            "crate::auth::credential",
            "./secrets/token",
            ".secret_service",
        ] {
            assert!(names_excluded_secret(specifier), "{specifier}");
        }
        for specifier in ["crate::auth::token", "./store", "keyring"] {
            assert!(!names_excluded_secret(specifier), "{specifier}");
        }
    }

    #[test]
    fn imports_into_build_output_are_no_findings() {
        for specifier in [
            "../dist/node/cli.js",
            "./build/hacks/x.js",
            "../node_modules/p/index.mjs",
            "./generated/app",
        ] {
            assert!(is_build_output(specifier), "{specifier}");
        }
        for specifier in [
            "./distance.js",
            "dist",
            "@scope/dist",
            "./src/builder.ts",
            "./generator",
        ] {
            assert!(!is_build_output(specifier), "{specifier}");
        }
    }

    #[test]
    fn moving_the_bodies_builds_the_snapshot_copying_them_builds() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("docs")).unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(
            root.join("docs/a.md"),
            "# A\n\nFirst paragraph, see [b](b.md) and `src/x.ts`.\n\nMore text.\n",
        )
        .unwrap();
        std::fs::write(root.join("docs/b.md"), "---\ntitle: B\n---\nBody of b.\n").unwrap();
        std::fs::write(root.join("src/x.ts"), "export const x = 1;\n").unwrap();
        let (observed, options) = observe_for_build(root);
        let at = || "2026-11-30T00:00:00.000Z".to_owned();
        let copied = build_snapshot(&observed, Vec::new(), &options, &|_: &RelPath| false, at());
        let mut moved = build_snapshot_unsealed_from(
            observed.clone(),
            Vec::new(),
            &options,
            &|_: &RelPath| false,
            at(),
        );
        moved.0.content_hash = seal_snapshot(&moved.0);
        assert_eq!(copied, moved);
        let texts = &moved.1;
        let body = |path: &str| {
            let id = EntityId::document(&RelPath::new(path).unwrap());
            texts.get(&id).map(|t| t.body.clone()).unwrap_or_default()
        };
        assert!(body("docs/a.md").ends_with("More text."), "{texts:?}");
        assert!(body("docs/b.md").contains("Body of b."), "{texts:?}");
        // The text is kept apart: the snapshot's JSON holds none of it (only the summary, the
        // first paragraph, is a fact of the document).
        let json = serde_json::to_string(&moved.0).unwrap();
        assert!(!json.contains("More text"), "{json}");
    }

    /// The observations of every file under `root`, and build options for them.
    fn observe_for_build(root: &std::path::Path) -> (Vec<ObservedFile>, BuildOptions) {
        let walked = crate::walk(root, &crate::WalkOptions::default()).unwrap();
        let observed = crate::observe::observe_all(
            &crate::read::RootDir::open(root).unwrap(),
            &walked.files,
            1 << 20,
            &crate::analysis_cache::AnalysisCache::default(),
            &|| {},
        );
        let options = BuildOptions {
            project_name: "p".to_owned(),
            agent_root: None,
            area_rules: crate::areas::AreaRules {
                depth: 1,
                source_roots: vec!["src".to_owned()],
            },
            site_roots: None,
        };
        (observed, options)
    }

    /// The snapshot of a tree of `files` (path, text), built as `index` builds it.
    fn snapshot_of(files: &[(&str, &str)]) -> Snapshot {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let (observed, options) = observe_for_build(root);
        let at = "2026-11-30T00:00:00.000Z".to_owned();
        build_snapshot(&observed, Vec::new(), &options, &|_: &RelPath| false, at).0
    }

    /// What the document at `path` links to, in relation order.
    fn link_targets<'s>(snapshot: &'s Snapshot, path: &str) -> Vec<&'s str> {
        let from = EntityId::document(&RelPath::new(path).unwrap());
        snapshot
            .relations
            .iter()
            .filter(|r| r.from == from && r.kind == RelationKind::LinksTo)
            .map(|r| r.to.as_str())
            .collect()
    }

    fn broken_links(snapshot: &Snapshot) -> Vec<String> {
        snapshot
            .diagnostics
            .iter()
            .filter(|d| d.code == "broken-link")
            .map(|d| format!("{}: {}", d.path, d.message))
            .collect()
    }

    /// A gallery page's links are written for where sphinx-gallery renders it.
    const GALLERY_PAGE: &str = "Interactive\n===========\n\nSee the :doc:`../../../index`, \
        `tools <../../../../lib/pkg/tools.py>`_, `the gallery <../index.html>`_, \
        `a picture <../../../_static/toolbar.png>`_ and `a typo <../../nowhere.html>`_.\n";

    #[test]
    fn a_gallery_source_links_from_where_sphinx_gallery_renders_it() {
        let conf = "extensions = ['sphinx_gallery.gen_gallery']\n\
            sphinx_gallery_conf = {'examples_dirs': ['../galleries/users_explain'], \
            'gallery_dirs': ['users/explain']}\n";
        let index = "Home\n====\n\n.. toctree::\n\n   users/explain/index\n   users/explain/gone\n   missing/page\n";
        let s = snapshot_of(&[
            ("doc/conf.py", conf),
            ("doc/index.rst", index),
            ("doc/_static/toolbar.png", "png"),
            ("lib/pkg/tools.py", "X = 1\n"),
            (
                "galleries/users_explain/GALLERY_HEADER.rst",
                "Explain\n=======\n",
            ),
            (
                "galleries/users_explain/figure/interactive.rst",
                GALLERY_PAGE,
            ),
        ]);
        // From `doc/users/explain/figure/`: the toolbar image and the module are found, the
        // gallery's index is a page it renders, the typo stays broken; `doc/index.rst`'s
        // entry into the gallery is rendered, its missing page is not, nor is a gallery page
        // of no source.
        assert_eq!(
            broken_links(&s),
            [
                "doc/index.rst: link `users/explain/gone` points to `doc/users/explain/gone`, which does not exist",
                "doc/index.rst: link `missing/page` points to `doc/missing/page`, which does not exist",
                "galleries/users_explain/figure/interactive.rst: link `../../nowhere.html` points to `galleries/nowhere.html`, which does not exist",
            ]
        );
        let targets = link_targets(&s, "galleries/users_explain/figure/interactive.rst");
        assert!(targets.contains(&"module:lib/pkg/tools.py"), "{targets:?}");
        assert!(targets.contains(&"document:doc/index.rst"), "{targets:?}");
    }

    #[test]
    fn an_mkdocs_page_links_from_the_folder_it_is_served_as() {
        let page = "# Async\n\nSee [transports](../advanced/transports#asgi), \
            [clients](advanced/clients.md) and [a typo](../advanced/transport).\n";
        let mut files = vec![
            ("mkdocs.yml", "site_name: X\n"),
            (
                "docs/index.md",
                "# X\n\n[Async](async.md) and [up](../advanced/clients)\n",
            ),
            ("docs/async.md", page),
            ("docs/advanced/transports.md", "# Transports\n"),
            ("docs/advanced/clients.md", "# Clients\n"),
        ];
        // `docs/async.md` is `/async/`: its `../advanced/transports` is the page beside
        // `advanced/clients.md`; the typo stays broken. The index is served at its own folder,
        // the site's root: its `../advanced/clients` leaves the site (not judged).
        let s = snapshot_of(&files);
        assert_eq!(
            broken_links(&s),
            [
                "docs/async.md: link `../advanced/transport` points to `advanced/transport`, which does not exist"
            ]
        );
        let targets = link_targets(&s, "docs/async.md");
        assert!(
            targets.contains(&"document:docs/advanced/transports.md"),
            "{targets:?}"
        );
        // A site that serves pages as files reads the link from the page's own folder, where
        // it climbs out of the site: no page of it, and not judged.
        files[0].1 = "site_name: X\nuse_directory_urls: false # flat\n";
        let flat = snapshot_of(&files);
        assert!(broken_links(&flat).is_empty(), "{:?}", broken_links(&flat));
        let targets = link_targets(&flat, "docs/async.md");
        assert!(
            !targets.contains(&"document:docs/advanced/transports.md"),
            "{targets:?}"
        );
    }

    #[test]
    fn a_link_written_as_a_url_that_leaves_its_site_is_not_judged() {
        let chapter = "# Guessing\n\nSee [`String`](../std/string/struct.String.html), \
            [the reference](../reference), [next](ch03.html), [gone](ch09.html), \
            [notes](../notes.md) and [the README](../README.md).\n";
        let s = snapshot_of(&[
            ("README.md", "# Book\n"),
            ("book.toml", "[book]\ntitle = \"B\"\n"),
            (
                "src/SUMMARY.md",
                "- [Guessing](ch02.md)\n- [Next](ch03.md)\n",
            ),
            ("src/ch02.md", chapter),
            ("src/ch03.md", "# Next\n"),
            // An older edition, served in a folder of the current one's site.
            ("old/book.toml", "[book]\nsrc = \"pages\"\n"),
            (
                "old/pages/ch02.md",
                "# Moved\n\nSee [the current page](../ch02.html).\n",
            ),
            // No site: a link is a file's path.
            (
                "notes/a.md",
                "# A\n\n[up](../../std/index.html) and [gone](../b.html)\n",
            ),
        ]);
        // `src/` is the book's root: `../std/…` and `../reference` name pages the host serves
        // beside it; a page of the book that is missing, or a file of the repository, is judged.
        assert_eq!(
            broken_links(&s),
            [
                "notes/a.md: link `../../std/index.html` points outside the repository",
                "notes/a.md: link `../b.html` points to `b.html`, which does not exist",
                "src/ch02.md: link `../notes.md` points to `notes.md`, which does not exist",
                "src/ch02.md: link `ch09.html` points to `src/ch09.html`, which does not exist",
            ]
        );
        let targets = link_targets(&s, "src/ch02.md");
        assert!(targets.contains(&"document:src/ch03.md"), "{targets:?}");
        assert!(targets.contains(&"document:README.md"), "{targets:?}");
    }

    #[test]
    fn a_hugo_site_serves_pages_as_folders_and_its_link_hook_decides_what_is_unknown() {
        let page = "# Build\n\nA [regular expression](g), [caching](../caching) and \
            [a typo](../cachin).\n";
        let mut files = vec![
            ("docs/hugo.toml", "baseURL = 'https://x.org/'\n"),
            ("docs/content/configuration/build.md", page),
            ("docs/content/configuration/caching.md", "# Caching\n"),
            (
                "docs/content/configuration/_index.md",
                "# Configuration\n\n[up](../build)\n",
            ),
        ];
        // `build.md` is `/configuration/build/`: `../caching` is its sibling. Without a link
        // render hook, what names nothing is broken.
        let s = snapshot_of(&files);
        assert_eq!(
            broken_links(&s),
            [
                "docs/content/configuration/_index.md: link `../build` points to `docs/content/build`, which does not exist",
                "docs/content/configuration/build.md: link `../cachin` points to `docs/content/cachin`, which does not exist",
                "docs/content/configuration/build.md: link `g` points to `docs/content/configuration/g`, which does not exist",
            ]
        );
        let targets = link_targets(&s, "docs/content/configuration/build.md");
        assert!(
            targets.contains(&"document:docs/content/configuration/caching.md"),
            "{targets:?}"
        );
        // With one (`[text](g)` is a glossary term there), nothing unresolved is judged.
        files.push((
            "docs/layouts/_markup/render-link.html",
            "{{ .Destination }}\n",
        ));
        assert!(broken_links(&snapshot_of(&files)).is_empty());
    }

    #[test]
    fn a_numbered_tree_served_flat_elsewhere_links_above_itself_to_other_sites() {
        let start = "# Getting started\n\nUse [SvelteKit](../kit/project-types), see \
            [state](state), [gone](gone) and [a file](../02-runes/09-gone.md).\n";
        let files = vec![
            (
                "documentation/docs/01-introduction/01-overview.md",
                "# Overview\n",
            ),
            (
                "documentation/docs/01-introduction/02-getting-started.md",
                start,
            ),
            ("documentation/docs/02-runes/01-state.md", "# State\n"),
            (
                "docs/guide/intro.md",
                "# Intro\n\n[SvelteKit](../kit/project-types)\n",
            ),
        ];
        // `../kit/…` leaves the flat namespace svelte.dev serves the numbered pages in; a bare
        // name that is no page and a file's path are judged, and so is the same link from a
        // page of no numbered tree.
        let s = snapshot_of(&files);
        assert_eq!(
            broken_links(&s),
            [
                "docs/guide/intro.md: link `../kit/project-types` points to `docs/kit/project-types`, which does not exist",
                "documentation/docs/01-introduction/02-getting-started.md: link `../02-runes/09-gone.md` points to `documentation/docs/02-runes/09-gone.md`, which does not exist",
                "documentation/docs/01-introduction/02-getting-started.md: link `gone` points to `documentation/docs/01-introduction/gone`, which does not exist",
            ]
        );
        let mut in_site = files.clone();
        in_site.push((
            "documentation/docusaurus.config.js",
            "module.exports = {};\n",
        ));
        // Inside a detected site, the site's layout decides: Docusaurus keeps folders.
        assert_eq!(broken_links(&snapshot_of(&in_site)).len(), 4);
    }

    #[test]
    fn an_mdbook_serves_a_folders_readme_as_its_index() {
        let files = [
            ("book/book.toml", "[book]\ntitle = \"B\"\n"),
            (
                "book/src/SUMMARY.md",
                "- [Intro](README.md)\n- [CI](ci/README.md)\n",
            ),
            ("book/src/README.md", "# Intro\n"),
            ("book/src/ci/README.md", "# CI\n"),
            (
                "book/src/usage.md",
                "[intro](index.md), [CI](ci/index.md), [gone](gone/index.md)\n",
            ),
            ("notes/a.md", "[up](index.md)\n"),
            ("notes/README.md", "# Notes\n"),
        ];
        let s = snapshot_of(&files);
        // Outside a book, `index.md` is a file of that name.
        assert_eq!(
            broken_links(&s),
            [
                "book/src/usage.md: link `gone/index.md` points to `book/src/gone/index.md`, which does not exist",
                "notes/a.md: link `index.md` points to `notes/index.md`, which does not exist",
            ]
        );
        let targets = link_targets(&s, "book/src/usage.md");
        assert_eq!(
            targets,
            [
                "document:book/src/README.md",
                "document:book/src/ci/README.md"
            ]
        );
    }

    #[test]
    fn an_included_document_links_from_where_it_is_included() {
        let contributing = "Contributing\n============\n\n\
            `build <../../../requirements/build.txt>`_, `here <requirements/test.txt>`_ and \
            `gone <../../../requirements/gone.txt>`_.\n";
        let mut files = vec![
            ("CONTRIBUTING.rst", contributing),
            ("requirements/build.txt", "x\n"),
            ("requirements/test.txt", "x\n"),
            ("doc/source/conf.py", "project = 'p'\n"),
            (
                "doc/source/index.rst",
                "P\n=\n\n.. toctree::\n\n   development/contribute\n",
            ),
        ];
        let alone = broken_links(&snapshot_of(&files));
        assert_eq!(alone.len(), 3, "{alone:#?}");
        files.push((
            "doc/source/development/contribute.rst",
            ".. include:: ../../../CONTRIBUTING.rst\n",
        ));
        let s = snapshot_of(&files);
        assert_eq!(
            broken_links(&s),
            [
                "CONTRIBUTING.rst: link `../../../requirements/gone.txt` points outside the repository"
            ]
        );
    }

    #[test]
    fn a_document_name_above_the_sphinx_source_stays_at_it() {
        let guide = "Guide\n=====\n\nSee :doc:`../topics/caching`, :doc:`../topics/gone` and \
            `the file <../topics/caching.md>`_.\n";
        let s = snapshot_of(&[
            ("docs/html/conf.py", "project = 'p'\n"),
            (
                "docs/html/index.rst",
                "P\n=\n\n.. toctree::\n\n   user_guide\n   topics/caching\n",
            ),
            ("docs/html/user_guide.rst", guide),
            ("docs/html/topics/caching.md", "# Caching\n"),
        ]);
        // Sphinx joins `../topics/caching` from the source root to `topics/caching`; a
        // hyperlink is a URL, read from the file's folder.
        assert_eq!(
            broken_links(&s),
            [
                "docs/html/user_guide.rst: link `../topics/caching.md` points to `docs/topics/caching.md`, which does not exist",
                "docs/html/user_guide.rst: link `../topics/gone` points to `docs/topics/gone`, which does not exist",
            ]
        );
    }

    #[test]
    fn a_forge_url_of_a_document_here_links_to_it() {
        let readme = "# A\n\n[Usage](https://github.com/o/a/blob/master/Documentation/Usage.md#x), \
            [guide](https://github.com/o/a/blob/master/Documentation/Guide%202.md), \
            [other](https://github.com/o/b/blob/main/docs/elsewhere.md).\n";
        let s = snapshot_of(&[
            ("README.md", readme),
            ("Documentation/Usage.md", "# Usage\n"),
            ("Documentation/Guide 2.md", "# Guide\n"),
        ]);
        let targets = link_targets(&s, "README.md");
        assert_eq!(
            targets,
            [
                "document:Documentation/Guide 2.md",
                "document:Documentation/Usage.md"
            ]
        );
        assert!(broken_links(&s).is_empty());
    }

    #[test]
    fn a_myst_reference_finds_an_object_a_module_re_exports_with_a_star() {
        let page =
            "# Examples\n\n[include](attrs.filters.include) and [gone](attrs.filters.gone).\n";
        let s = snapshot_of(&[
            ("pyproject.toml", "[project]\nname = \"attrs\"\n"),
            ("src/attr/__init__.py", ""),
            ("src/attr/filters.py", "def include(*what):\n    pass\n"),
            ("src/attrs/__init__.py", ""),
            ("src/attrs/filters.py", "from attr.filters import *\n"),
            ("docs/conf.py", "extensions = ['myst_parser']\n"),
            ("docs/index.md", "# A\n\n```{toctree}\nexamples\n```\n"),
            ("docs/examples.md", page),
        ]);
        assert_eq!(
            broken_links(&s),
            [
                "docs/examples.md: link `attrs.filters.gone` points to `docs/attrs.filters.gone`, which does not exist"
            ]
        );
        let from = EntityId::document(&RelPath::new("docs/examples.md").unwrap());
        assert!(
            s.relations
                .iter()
                .any(|r| r.from == from && r.to.as_str() == "module:src/attr/filters.py")
        );
    }

    #[test]
    fn a_page_rendered_from_a_template_or_by_sphinx_itself_is_found() {
        let index = "Home\n====\n\n.. toctree::\n\n   old\n   new\n   gone\n";
        let s = snapshot_of(&[
            ("doc/conf.py", "project = 'p'\n"),
            ("doc/index.rst", index),
            ("doc/old.rst.template", "Old\n===\n"),
            ("doc/new.rst.tpl", "New\n===\n"),
            (
                "doc/guide.md",
                "# Guide\n\n[Index](genindex), [search](search.html), [x](guide/genindex)\n",
            ),
        ]);
        // Sphinx writes its indexes and search page at the build's root, not below it.
        assert_eq!(
            broken_links(&s),
            [
                "doc/guide.md: link `guide/genindex` points to `doc/guide/genindex`, which does not exist",
                "doc/index.rst: link `gone` points to `doc/gone`, which does not exist",
            ]
        );
    }

    #[test]
    fn computed_gallery_directories_leave_gallery_links_unjudged() {
        let conf = "extensions = ['sphinx_gallery.gen_gallery']\n\
            gallery_dirs = [d for d in ['users/explain']]\n\
            sphinx_gallery_conf = {'examples_dirs': ['../galleries/users_explain'], \
            'gallery_dirs': gallery_dirs}\n";
        let index = "Home\n====\n\n.. toctree::\n\n   users/explain/index\n   missing\n";
        let files = [
            ("doc/conf.py", conf),
            ("doc/index.rst", index),
            (
                "galleries/users_explain/GALLERY_HEADER.rst",
                "Explain\n=======\n",
            ),
            (
                "galleries/users_explain/figure/interactive.rst",
                GALLERY_PAGE,
            ),
        ];
        // Where the gallery renders is not known: its pages' links and links into folders that
        // do not exist are not judged; a missing page in a folder that exists still is.
        assert_eq!(
            broken_links(&snapshot_of(&files)),
            ["doc/index.rst: link `missing` points to `doc/missing`, which does not exist"]
        );
        // Without sphinx-gallery, the same links are read where they are.
        let plain = [
            ("doc/conf.py", "extensions = []\n"),
            files[1],
            files[2],
            files[3],
        ];
        assert_eq!(
            broken_links(&snapshot_of(&plain)).len(),
            6,
            "{:#?}",
            broken_links(&snapshot_of(&plain))
        );
    }

    #[test]
    fn only_concrete_paths_with_a_directory_are_reported_when_unresolved() {
        for path in ["packages/app/src/nowhere.ts", "docs/old.md", "src/a/b"] {
            assert!(is_reportable_path(path), "{path}");
        }
        for path in [
            "package.json",
            "crates/*",
            "src/**/*.ts",
            "<dir>/x.md",
            "$HOME/x",
            "/v1/chat/completions",
            ".git/info/exclude",
            "a/.../b",
        ] {
            assert!(!is_reportable_path(path), "{path}");
        }
    }
}
