//! The deterministic synthetic monorepo generator.
//!
//! The tree has TypeScript packages (`packages/`), Rust crates (`crates/`), Python projects (`py/`),
//! Go modules (`go/`), Markdown documents (`docs/`, `docs/for-agents/`, `AGENTS.md`) and root
//! manifests. Roughly 60% of the files are source modules, 30% documents and 10% manifests, and the
//! total is exactly the requested number of files.
//!
//! Design: only a per-package module count is kept in memory ([`Plan`]). Every other property of an
//! item (its path, its symbol names, the packages it depends on) is a pure function of
//! `(seed, item number)` through [`hash`], so a document can name a symbol or link to a file it has
//! never seen, and files are streamed to disk one at a time.

use crate::fsutil::TreeWriter;
use crate::paths::{parent, relative};
use crate::rng::{SplitMix64, hash, pick_by};
use crate::words::{
    ADJECTIVES, AREAS, CONST_SUFFIXES, CONTRACT_SUFFIXES, FILLERS, NOUNS, SECTIONS, SUBDIRS,
    SUBTOPICS, TYPE_SUFFIXES, VERBS, capitalize, third_person,
};
use anyhow::{Result, anyhow, bail};
use std::fmt::{self, Write as _};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

/// The smallest tree the generator can lay out with every kind of file present.
pub const MIN_FILES: u64 = 20;

/// Files outside packages and `docs/<section>`: `AGENTS.md`, root `Cargo.toml`, root
/// `package.json` and the [`AGENT_DOCS`].
const FIXED_FILES: u64 = 3 + AGENT_DOCS.len() as u64;

/// Stems of the documents under `docs/for-agents/`.
const AGENT_DOCS: [&str; 3] = ["overview", "conventions", "testing"];

/// Leaf modules next to the package root module, before the first area.
const ROOT_LEAVES: u64 = 4;

/// Modules per source area: the area head (slot 0), [`AREA_LEAVES`] leaves, the nested head
/// ([`SUB_SLOT`]) and its leaves. About ten files per directory keeps the directory count near a
/// real repository's (creating directories dominates the generator's run time).
const AREA_SIZE: u64 = 10;

/// Leaves directly in an area directory (slots 1 to this).
const AREA_LEAVES: u64 = 6;

/// Slot of the nested directory's head; the slots after it are leaves of the nested directory.
const SUB_SLOT: u64 = AREA_LEAVES + 1;

/// Stride between the NOUNS picked for the leaves of one directory (distinct for every slot, see
/// the `leaf_stems_are_distinct` test).
const LEAF_STRIDE: u64 = 7;

/// `leaf_name`'s area number for the package root directory.
const ROOT_AREA: u64 = u64::MAX;

/// At most this many symbols per module; symbol ids are `module * MAX_SYMBOLS + s`.
const MAX_SYMBOLS: u64 = 5;

/// Documents per documentation directory group.
const DOCS_PER_GROUP: u64 = 12;

/// Directory groups per documentation section.
const GROUPS_PER_SECTION: u64 = 10;

/// Domain-separation tags: each use of the seed hashes a different tag so streams never overlap.
mod tag {
    pub const LAYOUT: u64 = 1;
    pub const PKG_NAME: u64 = 2;
    pub const DEPS: u64 = 3;
    pub const AREA: u64 = 4;
    pub const SUB: u64 = 5;
    pub const LEAF: u64 = 6;
    pub const SYMBOL_COUNT: u64 = 7;
    pub const SYMBOL: u64 = 8;
    pub const MODULE_BODY: u64 = 9;
    pub const DOC_DIR: u64 = 10;
    pub const DOC_NAME: u64 = 11;
    pub const DOC_TITLE: u64 = 12;
    pub const DOC_BODY: u64 = 13;
    pub const FIXED: u64 = 14;
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Exact number of files in the tree (at least [`MIN_FILES`]).
    pub files: u64,
    /// Seed of every random choice; the same `(files, seed)` gives a byte-identical tree.
    pub seed: u64,
    /// Threads writing files (at least 1); has no effect on the tree's content.
    pub jobs: usize,
}

/// What was generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub files: u64,
    pub bytes: u64,
    pub packages: u64,
    pub modules: u64,
    pub documents: u64,
}

/// The four source languages; package `p` is in `LANGS[p % 4]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    TypeScript,
    Rust,
    Python,
    Go,
}

const LANGS: [Lang; 4] = [Lang::TypeScript, Lang::Rust, Lang::Python, Lang::Go];

/// The kinds of exported symbol, by symbol slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Function,
    Type,
    Const,
    /// Interface (TS, Go), trait (Rust), protocol (Python).
    Contract,
}

/// Symbol kinds by slot; slot 0 is always a function so every module has one to import.
const KINDS: [Kind; MAX_SYMBOLS as usize] = [
    Kind::Function,
    Kind::Type,
    Kind::Const,
    Kind::Contract,
    Kind::Function,
];

/// One source file's place in its package.
#[derive(Debug, Clone)]
struct Module {
    /// Repository-relative file path.
    path: String,
    /// Directories below the package's source root: `[]`, `[area]` or `[area, sub]`.
    dirs: Vec<String>,
    /// File stem of a leaf; `None` for a directory head (`lib.rs`, `mod.rs`, `index.ts`,
    /// `__init__.py`, the Go file named after its package).
    leaf: Option<String>,
    /// Repository-wide module number; names the module's symbols.
    global: u64,
}

/// The layout of a tree: how many documents, and how many modules each package has.
#[derive(Debug, Clone)]
pub struct Plan {
    seed: u64,
    documents: u64,
    /// Module count of each package (each at least 1: the package root module).
    modules: Vec<u64>,
    /// Global number of each package's first module (prefix sums of `modules`).
    first: Vec<u64>,
}

/// Generates the tree described by `cfg` into `out`, which must exist (see
/// [`crate::fsutil::prepare_out_dir`]).
///
/// The work is split into units (one package with its manifest and modules, the root files, one
/// document) dealt round-robin to `cfg.jobs` threads. Every file's bytes depend only on the plan,
/// so the thread count changes the write order, never the tree. Why threads at all: creating files
/// and directories is kernel work that dominates the run time, and it overlaps well.
pub fn generate(cfg: &Config, out: &Path) -> Result<Summary> {
    let plan = Plan::new(cfg)?;
    let jobs = cfg.jobs.max(1);
    let units = plan.packages() as u64 + 1 + plan.documents;
    let failed = AtomicBool::new(false);
    let counts = thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|worker| {
                let (plan, failed) = (&plan, &failed);
                scope
                    .spawn(move || plan.write_units(out, worker as u64, jobs as u64, units, failed))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().map_err(|_| anyhow!("a writer thread panicked"))?)
            .collect::<Result<Vec<(u64, u64)>>>()
    })?;
    Ok(Summary {
        files: counts.iter().map(|c| c.0).sum(),
        bytes: counts.iter().map(|c| c.1).sum(),
        packages: plan.packages() as u64,
        modules: plan.modules.iter().sum(),
        documents: plan.documents + AGENT_DOCS.len() as u64 + 1,
    })
}

/// The root `package.json`: an npm workspace over `packages/*`.
const ROOT_PACKAGE_JSON: &str = r#"{
  "name": "synth-monorepo",
  "private": true,
  "workspaces": [
    "packages/*"
  ],
  "scripts": {
    "test": "npm test --workspaces",
    "build": "npm run build --workspaces"
  }
}
"#;

impl Plan {
    /// Splits `cfg.files` into documents, manifests and modules, and spreads the modules over the
    /// packages (some packages large, most small, like a real monorepo).
    pub fn new(cfg: &Config) -> Result<Self> {
        let n = cfg.files;
        if n < MIN_FILES {
            bail!("--files must be at least {MIN_FILES} (got {n})");
        }
        // 30% documents in all, of which the fixed ones (AGENTS.md, for-agents) are part.
        let documents = ((n * 3 + 5) / 10)
            .saturating_sub(AGENT_DOCS.len() as u64 + 1)
            .max(1);
        // 10% manifests in all, the root Cargo.toml and package.json included.
        let packages = (n / 10).saturating_sub(2).max(LANGS.len() as u64);
        let modules = n - FIXED_FILES - documents - packages;
        let count = usize::try_from(packages)?;
        let mut per_package = vec![1u64; count];
        let mut rng = SplitMix64::new(hash(&[cfg.seed, tag::LAYOUT]));
        for _ in 0..modules.saturating_sub(packages) {
            // Half uniform, half skewed towards low package numbers: a few big packages.
            let p = if rng.chance(50) {
                rng.below(packages)
            } else {
                let bound = rng.below(packages) + 1;
                rng.below(bound)
            };
            per_package[p as usize] += 1;
        }
        let first = per_package
            .iter()
            .scan(0u64, |acc, m| {
                let start = *acc;
                *acc += m;
                Some(start)
            })
            .collect();
        Ok(Self {
            seed: cfg.seed,
            documents,
            modules: per_package,
            first,
        })
    }

    /// Writes units `worker`, `worker + jobs`, ... below `units`; returns (files, bytes).
    /// Stops early once any worker has failed (`failed`), so an error surfaces promptly.
    fn write_units(
        &self,
        out: &Path,
        worker: u64,
        jobs: u64,
        units: u64,
        failed: &AtomicBool,
    ) -> Result<(u64, u64)> {
        let mut w = TreeWriter::new(out);
        let mut unit = worker;
        while unit < units && !failed.load(Ordering::Relaxed) {
            if let Err(err) = self.write_unit(&mut w, unit) {
                failed.store(true, Ordering::Relaxed);
                return Err(err);
            }
            unit += jobs;
        }
        Ok((w.files(), w.bytes()))
    }

    /// Writes one unit: package `unit`, then the root files, then document `unit - packages - 1`.
    fn write_unit(&self, w: &mut TreeWriter, unit: u64) -> Result<()> {
        let packages = self.packages() as u64;
        if unit < packages {
            let p = unit as usize;
            w.write(&self.manifest_path(p), self.manifest(p)?.as_bytes())?;
            for j in 0..self.modules[p] {
                let module = self.module(p, j);
                w.write(&module.path, self.module_source(p, j, &module)?.as_bytes())?;
            }
        } else if unit == packages {
            w.write("Cargo.toml", self.root_cargo_toml()?.as_bytes())?;
            w.write("package.json", ROOT_PACKAGE_JSON.as_bytes())?;
            w.write("AGENTS.md", self.agents_md()?.as_bytes())?;
            for (i, stem) in AGENT_DOCS.iter().enumerate() {
                let path = format!("docs/for-agents/{stem}.md");
                w.write(&path, self.agent_doc(i, &path)?.as_bytes())?;
            }
        } else {
            let k = unit - packages - 1;
            let path = self.doc_path(k);
            w.write(&path, self.document(k, &path)?.as_bytes())?;
        }
        Ok(())
    }

    /// Number of packages (all languages).
    pub fn packages(&self) -> usize {
        self.modules.len()
    }

    fn lang(&self, p: usize) -> Lang {
        LANGS[p % LANGS.len()]
    }

    fn h(&self, parts: &[u64]) -> u64 {
        let mut all = Vec::with_capacity(parts.len() + 1);
        all.push(self.seed);
        all.extend_from_slice(parts);
        hash(&all)
    }

    // ----- names and paths ---------------------------------------------------------------

    /// The package's kebab-case name, unique thanks to its number (`swift-ledger-12`).
    fn pkg_name(&self, p: usize) -> String {
        let h = self.h(&[tag::PKG_NAME, p as u64]);
        format!("{}-{}-{p}", pick_by(ADJECTIVES, h), pick_by(NOUNS, h >> 20))
    }

    /// The package's name as an identifier: Rust crate / Python import name (`swift_ledger_12`).
    fn pkg_ident(&self, p: usize) -> String {
        self.pkg_name(p).replace('-', "_")
    }

    /// The Go module's last path element (`swiftledger12`).
    fn go_mod_name(&self, p: usize) -> String {
        self.pkg_name(p).replace('-', "")
    }

    /// The package directory (`packages/x`, `crates/x`, `py/x`, `go/x`).
    fn pkg_dir(&self, p: usize) -> String {
        match self.lang(p) {
            Lang::TypeScript => format!("packages/{}", self.pkg_name(p)),
            Lang::Rust => format!("crates/{}", self.pkg_name(p)),
            Lang::Python => format!("py/{}", self.pkg_name(p)),
            Lang::Go => format!("go/{}", self.go_mod_name(p)),
        }
    }

    /// The directory holding the package's root module.
    fn source_root(&self, p: usize) -> String {
        match self.lang(p) {
            Lang::TypeScript | Lang::Rust => format!("{}/src", self.pkg_dir(p)),
            Lang::Python => format!("{}/{}", self.pkg_dir(p), self.pkg_ident(p)),
            Lang::Go => self.pkg_dir(p),
        }
    }

    fn manifest_path(&self, p: usize) -> String {
        let file = match self.lang(p) {
            Lang::TypeScript => "package.json",
            Lang::Rust => "Cargo.toml",
            Lang::Python => "pyproject.toml",
            Lang::Go => "go.mod",
        };
        format!("{}/{file}", self.pkg_dir(p))
    }

    /// 1–3 earlier packages of the same language (fewer for the first ones), ascending.
    /// Only earlier packages, so the dependency graph has no cycles.
    fn deps(&self, p: usize) -> Vec<usize> {
        let rank = (p / LANGS.len()) as u64; // position among packages of this language
        let mut rng = SplitMix64::new(self.h(&[tag::DEPS, p as u64]));
        let wanted = rng.range(1, 3).min(rank);
        let mut picked: Vec<u64> = Vec::new();
        while (picked.len() as u64) < wanted {
            let candidate = rng.below(rank);
            if !picked.contains(&candidate) {
                picked.push(candidate);
            }
        }
        picked.sort_unstable();
        picked
            .into_iter()
            .map(|r| r as usize * LANGS.len() + p % LANGS.len())
            .collect()
    }

    fn area_name(&self, p: usize, area: u64) -> String {
        let h = self.h(&[tag::AREA, p as u64, area]);
        format!("{}{area}", pick_by(AREAS, h))
    }

    fn sub_name(&self, p: usize, area: u64) -> String {
        pick_by(SUBDIRS, self.h(&[tag::SUB, p as u64, area])).to_string()
    }

    /// Stem of leaf `slot` of an area (or of the root, `area` = [`ROOT_AREA`]). Leaves sharing a
    /// directory have different slots, and [`LEAF_STRIDE`] keeps their stems distinct.
    fn leaf_name(&self, p: usize, area: u64, slot: u64) -> String {
        let h = self.h(&[tag::LEAF, p as u64, area]);
        pick_by(NOUNS, h % NOUNS.len() as u64 + LEAF_STRIDE * slot).to_string()
    }

    /// The place of module `j` of package `p`. Module 0 is the package root, modules 1 to
    /// [`ROOT_LEAVES`] are leaves beside it; then come areas of [`AREA_SIZE`] modules: slot 0 the
    /// `area/` head, then leaves in `area/`, the `area/sub/` head and leaves in `area/sub/`.
    fn module(&self, p: usize, j: u64) -> Module {
        let lang = self.lang(p);
        let global = self.first[p] + j;
        let (dirs, leaf) = if j == 0 {
            (Vec::new(), None)
        } else if j <= ROOT_LEAVES {
            (Vec::new(), Some(self.leaf_name(p, ROOT_AREA, j)))
        } else {
            let k = j - 1 - ROOT_LEAVES;
            let (area, slot) = (k / AREA_SIZE, k % AREA_SIZE);
            let area_dir = self.area_name(p, area);
            match slot {
                0 => (vec![area_dir], None),
                1..=AREA_LEAVES => (vec![area_dir], Some(self.leaf_name(p, area, slot))),
                SUB_SLOT => (vec![area_dir, self.sub_name(p, area)], None),
                _ => (
                    vec![area_dir, self.sub_name(p, area)],
                    Some(self.leaf_name(p, area, slot)),
                ),
            }
        };
        let file = match (&leaf, lang) {
            (Some(stem), Lang::TypeScript) => format!("{stem}.ts"),
            (Some(stem), Lang::Rust) => format!("{stem}.rs"),
            (Some(stem), Lang::Python) => format!("{stem}.py"),
            (Some(stem), Lang::Go) => format!("{stem}.go"),
            (None, Lang::TypeScript) => "index.ts".to_string(),
            (None, Lang::Rust) if dirs.is_empty() => "lib.rs".to_string(),
            (None, Lang::Rust) => "mod.rs".to_string(),
            (None, Lang::Python) => "__init__.py".to_string(),
            (None, Lang::Go) => format!("{}.go", self.go_package_name(p, &dirs)),
        };
        let mut path = self.source_root(p);
        for dir in &dirs {
            path.push('/');
            path.push_str(dir);
        }
        path.push('/');
        path.push_str(&file);
        Module {
            path,
            dirs,
            leaf,
            global,
        }
    }

    /// Direct children of a head module: the areas of the root, the leaves and nested head of an
    /// area, the leaf of a nested directory. Leaves have none.
    fn children(&self, p: usize, j: u64) -> Vec<u64> {
        let count = self.modules[p];
        if j == 0 {
            let leaves = 1..(ROOT_LEAVES + 1).min(count);
            let areas = (ROOT_LEAVES + 1..count).step_by(AREA_SIZE as usize);
            return leaves.chain(areas).collect();
        }
        if j <= ROOT_LEAVES {
            return Vec::new();
        }
        match (j - 1 - ROOT_LEAVES) % AREA_SIZE {
            0 => (j + 1..=j + SUB_SLOT).filter(|&c| c < count).collect(),
            SUB_SLOT => (j + 1..j + AREA_SIZE - SUB_SLOT)
                .filter(|&c| c < count)
                .collect(),
            _ => Vec::new(),
        }
    }

    fn symbol_count(&self, global: u64) -> u64 {
        2 + self.h(&[tag::SYMBOL_COUNT, global]) % (MAX_SYMBOLS - 1)
    }

    /// The name of symbol slot `s` of module `global`, in the conventions of `lang`. Names end in
    /// the repository-wide symbol id, so every name is unique and a mention resolves to one place.
    fn symbol(&self, lang: Lang, global: u64, s: u64) -> String {
        let h = self.h(&[tag::SYMBOL, global, s]);
        let id = global * MAX_SYMBOLS + s;
        let verb = pick_by(VERBS, h);
        let noun = pick_by(NOUNS, h >> 16);
        match KINDS[s as usize] {
            Kind::Function => match lang {
                Lang::TypeScript => format!("{verb}{}{id}", capitalize(noun)),
                Lang::Rust | Lang::Python => format!("{verb}_{noun}_{id}"),
                Lang::Go => format!("{}{}{id}", capitalize(verb), capitalize(noun)),
            },
            Kind::Type => format!(
                "{}{}{id}",
                capitalize(noun),
                pick_by(TYPE_SUFFIXES, h >> 32)
            ),
            Kind::Const => {
                let suffix = pick_by(CONST_SUFFIXES, h >> 32);
                match lang {
                    Lang::Go => format!(
                        "{}{}{id}",
                        capitalize(noun),
                        capitalize(&suffix.to_lowercase())
                    ),
                    _ => format!("{}_{suffix}_{id}", noun.to_uppercase()),
                }
            }
            Kind::Contract => {
                format!(
                    "{}{}{id}",
                    capitalize(noun),
                    pick_by(CONTRACT_SUFFIXES, h >> 32)
                )
            }
        }
    }

    /// The function every module exports first (slot 0): what other modules import.
    fn entry_fn(&self, p: usize, j: u64) -> String {
        self.symbol(self.lang(p), self.first[p] + j, 0)
    }

    /// Go package name of a directory: its last component, or the module name at the root.
    fn go_package_name(&self, p: usize, dirs: &[String]) -> String {
        dirs.last().cloned().unwrap_or_else(|| self.go_mod_name(p))
    }

    /// Go import path of a module's directory.
    fn go_import_path(&self, p: usize, dirs: &[String]) -> String {
        let mut path = format!("example.com/synth/{}", self.go_mod_name(p));
        for dir in dirs {
            path.push('/');
            path.push_str(dir);
        }
        path
    }

    /// Rust path of a module (`ident::area::leaf`), with `root` as the first segment.
    fn rust_path(root: &str, module: &Module) -> String {
        let mut path = root.to_string();
        for part in module.dirs.iter().chain(module.leaf.iter()) {
            path.push_str("::");
            path.push_str(part);
        }
        path
    }

    /// Python dotted module name below the package (`area.leaf`), or `None` for the package.
    fn python_path(module: &Module) -> Vec<String> {
        module
            .dirs
            .iter()
            .chain(module.leaf.iter())
            .cloned()
            .collect()
    }

    // ----- manifests -------------------------------------------------------------------------

    fn manifest(&self, p: usize) -> Result<String, fmt::Error> {
        match self.lang(p) {
            Lang::TypeScript => self.package_json(p),
            Lang::Rust => self.cargo_toml(p),
            Lang::Python => self.pyproject_toml(p),
            Lang::Go => self.go_mod(p),
        }
    }

    fn description(&self, p: usize) -> String {
        let mut rng = SplitMix64::new(self.h(&[tag::PKG_NAME, p as u64, 1]));
        let noun = rng.pick(NOUNS);
        format!(
            "{} {} for the {} {noun}",
            capitalize(&third_person(rng.pick(VERBS))),
            rng.pick(NOUNS),
            rng.pick(ADJECTIVES),
        )
    }

    fn package_json(&self, p: usize) -> Result<String, fmt::Error> {
        let mut s = String::new();
        writeln!(s, "{{")?;
        writeln!(s, "  \"name\": \"@synth/{}\",", self.pkg_name(p))?;
        writeln!(s, "  \"version\": \"0.1.0\",")?;
        writeln!(s, "  \"description\": \"{}\",", self.description(p))?;
        writeln!(s, "  \"private\": true,")?;
        writeln!(s, "  \"main\": \"src/index.ts\",")?;
        writeln!(s, "  \"scripts\": {{")?;
        writeln!(s, "    \"test\": \"vitest run\",")?;
        writeln!(s, "    \"build\": \"tsc -p .\"")?;
        writeln!(s, "  }},")?;
        writeln!(s, "  \"dependencies\": {{")?;
        let deps = self.deps(p);
        for (i, d) in deps.iter().enumerate() {
            let comma = if i + 1 < deps.len() { "," } else { "" };
            writeln!(s, "    \"@synth/{}\": \"^0.1.0\"{comma}", self.pkg_name(*d))?;
        }
        writeln!(s, "  }}")?;
        writeln!(s, "}}")?;
        Ok(s)
    }

    fn cargo_toml(&self, p: usize) -> Result<String, fmt::Error> {
        let mut s = String::new();
        writeln!(s, "[package]")?;
        writeln!(s, "name = \"{}\"", self.pkg_name(p))?;
        writeln!(s, "version = \"0.1.0\"")?;
        writeln!(s, "edition = \"2021\"")?;
        writeln!(s, "description = \"{}\"", self.description(p))?;
        writeln!(s, "\n[dependencies]")?;
        for d in self.deps(p) {
            let name = self.pkg_name(d);
            writeln!(s, "{name} = {{ path = \"../{name}\" }}")?;
        }
        Ok(s)
    }

    fn pyproject_toml(&self, p: usize) -> Result<String, fmt::Error> {
        let mut s = String::new();
        writeln!(s, "[project]")?;
        writeln!(s, "name = \"{}\"", self.pkg_name(p))?;
        writeln!(s, "version = \"0.1.0\"")?;
        writeln!(s, "description = \"{}\"", self.description(p))?;
        writeln!(s, "requires-python = \">=3.10\"")?;
        let deps: Vec<String> = self
            .deps(p)
            .into_iter()
            .map(|d| format!("\"{}\"", self.pkg_name(d)))
            .collect();
        writeln!(s, "dependencies = [{}]", deps.join(", "))?;
        writeln!(s, "\n[build-system]")?;
        writeln!(s, "requires = [\"setuptools>=68\"]")?;
        writeln!(s, "build-backend = \"setuptools.build_meta\"")?;
        Ok(s)
    }

    fn go_mod(&self, p: usize) -> Result<String, fmt::Error> {
        let mut s = String::new();
        writeln!(s, "module example.com/synth/{}", self.go_mod_name(p))?;
        writeln!(s, "\ngo 1.22")?;
        let deps = self.deps(p);
        if !deps.is_empty() {
            writeln!(s)?;
            for d in &deps {
                writeln!(
                    s,
                    "require example.com/synth/{} v0.0.0",
                    self.go_mod_name(*d)
                )?;
            }
            writeln!(s)?;
            for d in &deps {
                let name = self.go_mod_name(*d);
                writeln!(s, "replace example.com/synth/{name} => ../{name}")?;
            }
        }
        Ok(s)
    }

    fn root_cargo_toml(&self) -> Result<String, fmt::Error> {
        let mut s = String::from("[workspace]\nresolver = \"2\"\nmembers = [\n");
        for p in (0..self.packages()).filter(|&p| self.lang(p) == Lang::Rust) {
            writeln!(s, "    \"{}\",", self.pkg_dir(p))?;
        }
        s.push_str("]\n");
        Ok(s)
    }

    // ----- source modules --------------------------------------------------------------------

    /// Which functions a module imports: `(package, module)` pairs. One or two earlier modules of
    /// the same package (so Go packages never import in a cycle), and sometimes the root of a
    /// dependency (always for the package root).
    fn imports(&self, p: usize, j: u64, rng: &mut SplitMix64) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        if j > 0 {
            for _ in 0..rng.range(1, 2) {
                let target = (p, rng.below(j));
                if !out.contains(&target) {
                    out.push(target);
                }
            }
        }
        let deps = self.deps(p);
        if !deps.is_empty() && (j == 0 || rng.chance(25)) {
            out.push((deps[rng.index(deps.len())], 0));
        }
        out
    }

    /// One sentence of pseudo-English.
    fn sentence(rng: &mut SplitMix64) -> String {
        let len = rng.range(6, 14);
        let mut words = Vec::with_capacity(len as usize);
        for i in 0..len {
            let word = match (i % 3, rng.below(3)) {
                (1, _) => rng.pick(FILLERS).to_string(),
                (_, 0) => third_person(rng.pick(VERBS)),
                (_, 1) => rng.pick(ADJECTIVES).to_string(),
                _ => rng.pick(NOUNS).to_string(),
            };
            words.push(word);
        }
        format!("{}.", capitalize(&words.join(" ")))
    }

    fn module_source(&self, p: usize, j: u64, module: &Module) -> Result<String, fmt::Error> {
        let mut rng = SplitMix64::new(self.h(&[tag::MODULE_BODY, module.global]));
        let imports = self.imports(p, j, &mut rng);
        let children = self.children(p, j);
        match self.lang(p) {
            Lang::TypeScript => self.typescript(p, module, &imports, &children, &mut rng),
            Lang::Rust => self.rust(p, module, &imports, &children, &mut rng),
            Lang::Python => self.python(p, module, &imports, &children, &mut rng),
            Lang::Go => self.go(p, module, &imports, &mut rng),
        }
    }

    /// The module's symbols as `(kind, name)`.
    fn symbols_of(&self, p: usize, module: &Module) -> Vec<(Kind, String)> {
        (0..self.symbol_count(module.global))
            .map(|s| {
                (
                    KINDS[s as usize],
                    self.symbol(self.lang(p), module.global, s),
                )
            })
            .collect()
    }

    fn typescript(
        &self,
        p: usize,
        module: &Module,
        imports: &[(usize, u64)],
        children: &[u64],
        rng: &mut SplitMix64,
    ) -> Result<String, fmt::Error> {
        let mut s = String::new();
        let dir = parent(&module.path);
        writeln!(s, "/** {} */", Self::sentence(rng))?;
        let mut calls = Vec::new();
        for &(q, i) in imports {
            let name = self.entry_fn(q, i);
            if q == p {
                let target = self.module(q, i);
                writeln!(
                    s,
                    "import {{ {name} }} from '{}';",
                    ts_specifier(dir, &target.path)
                )?;
            } else {
                writeln!(s, "import {{ {name} }} from '@synth/{}';", self.pkg_name(q))?;
            }
            calls.push(name);
        }
        for &c in children {
            let child = self.module(p, c);
            writeln!(s, "export * from '{}';", ts_specifier(dir, &child.path))?;
        }
        for (kind, name) in self.symbols_of(p, module) {
            writeln!(s, "\n/** {} */", Self::sentence(rng))?;
            match kind {
                Kind::Function => {
                    writeln!(s, "export function {name}(text: string): string {{")?;
                    writeln!(s, "  let value = text;")?;
                    for call in calls.drain(..) {
                        writeln!(s, "  value = {call}(value);")?;
                    }
                    writeln!(s, "  return `${{value}}:{}`;", rng.pick(NOUNS))?;
                    writeln!(s, "}}")?;
                }
                Kind::Type => {
                    writeln!(s, "export class {name} {{")?;
                    writeln!(s, "  constructor(public readonly name: string) {{}}\n")?;
                    writeln!(s, "  describe(): string {{\n    return this.name;\n  }}")?;
                    writeln!(s, "}}")?;
                }
                Kind::Const => writeln!(s, "export const {name} = {};", rng.range(1, 4096))?,
                Kind::Contract => {
                    writeln!(s, "export interface {name} {{")?;
                    writeln!(s, "  name: string;\n  limit: number;\n}}")?;
                }
            }
        }
        Ok(s)
    }

    fn rust(
        &self,
        p: usize,
        module: &Module,
        imports: &[(usize, u64)],
        children: &[u64],
        rng: &mut SplitMix64,
    ) -> Result<String, fmt::Error> {
        let mut s = String::new();
        writeln!(s, "//! {}\n", Self::sentence(rng))?;
        for &c in children {
            let child = self.module(p, c);
            let name = child.leaf.as_ref().or(child.dirs.last());
            if let Some(name) = name {
                writeln!(s, "pub mod {name};")?;
            }
        }
        if !children.is_empty() {
            writeln!(s)?;
        }
        let mut calls = Vec::new();
        for &(q, i) in imports {
            let name = self.entry_fn(q, i);
            let root = if q == p {
                "crate".to_string()
            } else {
                self.pkg_ident(q)
            };
            let path = Self::rust_path(&root, &self.module(q, i));
            writeln!(s, "use {path}::{name};")?;
            calls.push(name);
        }
        for (kind, name) in self.symbols_of(p, module) {
            writeln!(s, "\n/// {}", Self::sentence(rng))?;
            match kind {
                Kind::Function => {
                    writeln!(s, "pub fn {name}(text: &str) -> String {{")?;
                    writeln!(s, "    let value = text.to_string();")?;
                    for call in calls.drain(..) {
                        writeln!(s, "    let value = {call}(&value);")?;
                    }
                    writeln!(s, "    format!(\"{{value}}:{}\")", rng.pick(NOUNS))?;
                    writeln!(s, "}}")?;
                }
                Kind::Type => {
                    writeln!(s, "#[derive(Debug, Clone, Default)]")?;
                    writeln!(s, "pub struct {name} {{\n    pub name: String,\n}}\n")?;
                    writeln!(s, "impl {name} {{")?;
                    writeln!(s, "    /// Returns the name.")?;
                    writeln!(
                        s,
                        "    pub fn describe(&self) -> String {{\n        self.name.clone()\n    }}"
                    )?;
                    writeln!(s, "}}")?;
                }
                Kind::Const => writeln!(s, "pub const {name}: usize = {};", rng.range(1, 4096))?,
                Kind::Contract => {
                    writeln!(
                        s,
                        "pub trait {name} {{\n    fn describe(&self) -> String;\n}}"
                    )?;
                }
            }
        }
        Ok(s)
    }

    fn python(
        &self,
        p: usize,
        module: &Module,
        imports: &[(usize, u64)],
        children: &[u64],
        rng: &mut SplitMix64,
    ) -> Result<String, fmt::Error> {
        let mut s = String::new();
        writeln!(s, "\"\"\"{}\"\"\"\n", Self::sentence(rng))?;
        let symbols = self.symbols_of(p, module);
        if symbols.iter().any(|(k, _)| *k == Kind::Contract) {
            writeln!(s, "from typing import Protocol\n")?;
        }
        let here = Self::python_path(module);
        // `.` is the package containing this file, i.e. its directory, for heads and leaves alike.
        let here_dir = &here[..module.dirs.len()];
        let mut calls = Vec::new();
        for &(q, i) in imports {
            let name = self.entry_fn(q, i);
            if q == p {
                let target = Self::python_path(&self.module(q, i));
                writeln!(
                    s,
                    "from {} import {name}",
                    python_relative(here_dir, &target)
                )?;
            } else {
                writeln!(s, "from {} import {name}", self.pkg_ident(q))?;
            }
            calls.push(name);
        }
        for &c in children {
            let child = self.module(p, c);
            let target = Self::python_path(&child);
            let name = self.entry_fn(p, c);
            writeln!(
                s,
                "from {} import {name}",
                python_relative(here_dir, &target)
            )?;
        }
        for (kind, name) in symbols {
            match kind {
                Kind::Function => {
                    writeln!(s, "\n\ndef {name}(text: str) -> str:")?;
                    writeln!(s, "    \"\"\"{}\"\"\"", Self::sentence(rng))?;
                    writeln!(s, "    value = text")?;
                    for call in calls.drain(..) {
                        writeln!(s, "    value = {call}(value)")?;
                    }
                    writeln!(s, "    return value + \":{}\"", rng.pick(NOUNS))?;
                }
                Kind::Type => {
                    writeln!(s, "\n\nclass {name}:")?;
                    writeln!(s, "    \"\"\"{}\"\"\"\n", Self::sentence(rng))?;
                    writeln!(s, "    def __init__(self, name: str) -> None:")?;
                    writeln!(s, "        self.name = name\n")?;
                    writeln!(
                        s,
                        "    def describe(self) -> str:\n        return self.name"
                    )?;
                }
                Kind::Const => writeln!(s, "\n\n{name} = {}", rng.range(1, 4096))?,
                Kind::Contract => {
                    writeln!(s, "\n\nclass {name}(Protocol):")?;
                    writeln!(s, "    \"\"\"{}\"\"\"\n", Self::sentence(rng))?;
                    writeln!(s, "    def describe(self) -> str: ...")?;
                }
            }
        }
        Ok(s)
    }

    fn go(
        &self,
        p: usize,
        module: &Module,
        imports: &[(usize, u64)],
        rng: &mut SplitMix64,
    ) -> Result<String, fmt::Error> {
        let mut s = String::new();
        let package = self.go_package_name(p, &module.dirs);
        if module.leaf.is_none() {
            writeln!(s, "// Package {package}: {}", Self::sentence(rng))?;
        }
        writeln!(s, "package {package}\n")?;
        // (alias, import path) of other packages, and the qualified calls to make.
        let mut paths: Vec<(String, String)> = Vec::new();
        let mut calls = Vec::new();
        for &(q, i) in imports {
            let target = self.module(q, i);
            let name = self.entry_fn(q, i);
            if q == p && target.dirs == module.dirs {
                calls.push(name); // same directory: same Go package, no import
                continue;
            }
            let alias = if q == p {
                let mut alias = self.go_mod_name(p);
                target.dirs.iter().for_each(|d| alias.push_str(d));
                alias
            } else {
                self.go_mod_name(q)
            };
            let path = self.go_import_path(q, &target.dirs);
            if !paths.iter().any(|(_, existing)| *existing == path) {
                paths.push((alias.clone(), path));
            }
            calls.push(format!("{alias}.{name}"));
        }
        if !paths.is_empty() {
            writeln!(s, "import (")?;
            for (alias, path) in &paths {
                writeln!(s, "\t{alias} \"{path}\"")?;
            }
            writeln!(s, ")\n")?;
        }
        for (kind, name) in self.symbols_of(p, module) {
            // Go doc comments start with the name and go on in lower case.
            writeln!(s, "// {name} {}", lower_first(&Self::sentence(rng)))?;
            match kind {
                Kind::Function => {
                    writeln!(s, "func {name}(text string) string {{")?;
                    writeln!(s, "\tvalue := text")?;
                    for call in calls.drain(..) {
                        writeln!(s, "\tvalue = {call}(value)")?;
                    }
                    writeln!(s, "\treturn value + \":{}\"", rng.pick(NOUNS))?;
                    writeln!(s, "}}\n")?;
                }
                Kind::Type => {
                    writeln!(s, "type {name} struct {{\n\tName string\n}}\n")?;
                    writeln!(s, "// Describe returns the name.")?;
                    writeln!(
                        s,
                        "func (v {name}) Describe() string {{\n\treturn v.Name\n}}\n"
                    )?;
                }
                Kind::Const => writeln!(s, "const {name} = {}\n", rng.range(1, 4096))?,
                Kind::Contract => {
                    writeln!(s, "type {name} interface {{\n\tDescribe() string\n}}\n")?;
                }
            }
        }
        Ok(s)
    }

    // ----- documents -------------------------------------------------------------------------

    /// `docs/<section>[/<topic>[/<subtopic>]]/<adjective>-<noun>-<k>.md`: 2–4 directory levels.
    fn doc_path(&self, k: u64) -> String {
        let group = k / DOCS_PER_GROUP;
        let section = group / GROUPS_PER_SECTION;
        let h = self.h(&[tag::DOC_DIR, group]);
        let base = SECTIONS[(section % SECTIONS.len() as u64) as usize];
        let mut parts = vec![match section / SECTIONS.len() as u64 {
            0 => format!("docs/{base}"),
            round => format!("docs/{base}-{round}"),
        }];
        let depth = h % 3;
        if depth >= 1 {
            parts.push(format!(
                "{}-{}",
                pick_by(NOUNS, h >> 8),
                pick_by(NOUNS, h >> 24)
            ));
        }
        if depth >= 2 {
            parts.push(pick_by(SUBTOPICS, h >> 40).to_string());
        }
        let n = self.h(&[tag::DOC_NAME, k]);
        parts.push(format!(
            "{}-{}-{k}.md",
            pick_by(ADJECTIVES, n),
            pick_by(NOUNS, n >> 20)
        ));
        parts.join("/")
    }

    /// A document's title; a pure function of `k` so other documents can use it as link text.
    fn doc_title(&self, k: u64) -> String {
        let h = self.h(&[tag::DOC_TITLE, k]);
        let (adj, noun, verb) = (
            pick_by(ADJECTIVES, h),
            pick_by(NOUNS, h >> 16),
            pick_by(VERBS, h >> 32),
        );
        let other = pick_by(NOUNS, h >> 48);
        match h % 4 {
            0 => format!("{} {noun} {other}", capitalize(adj)),
            1 => format!("How the {noun} {} {other}", third_person(verb)),
            2 => format!("{} {other} reference", capitalize(noun)),
            _ => format!("Working with {adj} {noun}"),
        }
    }

    /// A random module: `(package, module)`, preferring the focus packages when there are any.
    fn random_module(&self, rng: &mut SplitMix64, focus: &[usize]) -> (usize, u64) {
        let p = if !focus.is_empty() && rng.chance(70) {
            focus[rng.index(focus.len())]
        } else {
            rng.index(self.packages())
        };
        (p, rng.below(self.modules[p]))
    }

    /// A document number near `k` (documents in one directory link to each other) or anywhere.
    fn random_doc(&self, rng: &mut SplitMix64, k: u64) -> u64 {
        if rng.chance(50) {
            let lo = k.saturating_sub(5);
            let hi = (k + 5).min(self.documents - 1);
            rng.range(lo, hi)
        } else {
            rng.below(self.documents)
        }
    }

    /// A sentence that mentions a symbol, a file or another document.
    fn mention(&self, rng: &mut SplitMix64, dir: &str, k: u64, focus: &[usize]) -> String {
        let (p, j) = self.random_module(rng, focus);
        let module = self.module(p, j);
        let s = rng.below(self.symbol_count(module.global));
        let sym = self.symbol(self.lang(p), module.global, s);
        let verb = third_person(rng.pick(VERBS));
        let noun = rng.pick(NOUNS);
        match rng.below(6) {
            0 => format!(
                "Call `{sym}` from `{}` when the {noun} {verb} {} {}.",
                module.path,
                rng.pick(FILLERS),
                rng.pick(NOUNS)
            ),
            1 => format!(
                "The [`{sym}`]({}) helper {verb} the {} {noun}.",
                relative(dir, &module.path),
                rng.pick(ADJECTIVES)
            ),
            2 => {
                let other = self.random_doc(rng, k);
                format!(
                    "See [{}]({}) for the {} {noun} details.",
                    self.doc_title(other),
                    relative(dir, &self.doc_path(other)),
                    rng.pick(ADJECTIVES)
                )
            }
            3 => format!(
                "The package manifest [`{}`]({}) lists what `{sym}` needs.",
                self.manifest_path(p),
                relative(dir, &self.manifest_path(p))
            ),
            4 => format!(
                "`{sym}` {verb} every {noun}; its source is in [{}]({}).",
                module.path.rsplit('/').next().unwrap_or_default(),
                relative(dir, &module.path)
            ),
            _ => format!(
                "Prefer `{sym}` over a hand-written {noun} {}.",
                rng.pick(NOUNS)
            ),
        }
    }

    /// A paragraph: sentences with about one mention in three.
    fn paragraph(&self, rng: &mut SplitMix64, dir: &str, k: u64, focus: &[usize]) -> String {
        let count = rng.range(2, 6);
        let sentences: Vec<String> = (0..count)
            .map(|_| {
                if rng.chance(35) {
                    self.mention(rng, dir, k, focus)
                } else {
                    Self::sentence(rng)
                }
            })
            .collect();
        sentences.join(" ")
    }

    /// A code fence showing how to call a module's entry function, or how to test its package.
    fn code_fence(&self, rng: &mut SplitMix64, focus: &[usize]) -> String {
        let (p, j) = self.random_module(rng, focus);
        let module = self.module(p, j);
        let f = self.entry_fn(p, j);
        if rng.chance(25) {
            let command = match self.lang(p) {
                Lang::TypeScript => format!("npm test --workspace @synth/{}", self.pkg_name(p)),
                Lang::Rust => format!("cargo test -p {}", self.pkg_name(p)),
                Lang::Python => format!("python -m pytest {}", self.pkg_dir(p)),
                Lang::Go => format!("cd {} && go test ./...", self.pkg_dir(p)),
            };
            return format!("```bash\n{command}\n```");
        }
        match self.lang(p) {
            Lang::TypeScript => format!(
                "```ts\nimport {{ {f} }} from '@synth/{}';\n\nconst result = {f}('example');\nconsole.log(result);\n```",
                self.pkg_name(p)
            ),
            Lang::Rust => format!(
                "```rust\nuse {}::{f};\n\nlet result = {f}(\"example\");\nprintln!(\"{{result}}\");\n```",
                Self::rust_path(&self.pkg_ident(p), &module)
            ),
            Lang::Python => {
                let mut dotted = vec![self.pkg_ident(p)];
                dotted.extend(Self::python_path(&module));
                format!(
                    "```python\nfrom {} import {f}\n\nresult = {f}(\"example\")\nprint(result)\n```",
                    dotted.join(".")
                )
            }
            Lang::Go => {
                let alias = self.go_package_name(p, &module.dirs);
                format!(
                    "```go\nimport {alias} \"{}\"\n\nresult := {alias}.{f}(\"example\")\nfmt.Println(result)\n```",
                    self.go_import_path(p, &module.dirs)
                )
            }
        }
    }

    fn document(&self, k: u64, path: &str) -> Result<String, fmt::Error> {
        let mut rng = SplitMix64::new(self.h(&[tag::DOC_BODY, k]));
        let dir = parent(path);
        let title = self.doc_title(k);
        let focus: Vec<usize> = if rng.chance(35) {
            let mut f = vec![rng.index(self.packages())];
            if rng.chance(30) {
                let second = rng.index(self.packages());
                if !f.contains(&second) {
                    f.push(second);
                }
            }
            f
        } else {
            Vec::new()
        };
        let mut s = String::from("---\n");
        writeln!(s, "title: \"{title}\"")?;
        writeln!(s, "description: \"{}\"", Self::sentence(&mut rng))?;
        let mut tags: Vec<&str> = Vec::new();
        for _ in 0..rng.range(1, 3) {
            let t = rng.pick(NOUNS);
            if !tags.contains(&t) {
                tags.push(t);
            }
        }
        tags.push(path.split('/').nth(1).unwrap_or("docs"));
        writeln!(s, "tags: [{}]", tags.join(", "))?;
        if !focus.is_empty() {
            let covers: Vec<String> = focus.iter().map(|&p| self.pkg_dir(p)).collect();
            writeln!(s, "covers: [{}]", covers.join(", "))?;
        }
        writeln!(s, "---\n\n# {title}\n")?;
        writeln!(s, "{}\n", self.paragraph(&mut rng, dir, k, &focus))?;
        let fence_at = if rng.chance(40) {
            Some(rng.range(0, 2))
        } else {
            None
        };
        for section in 0..rng.range(2, 5) {
            writeln!(
                s,
                "## {} {}\n",
                capitalize(rng.pick(ADJECTIVES)),
                rng.pick(NOUNS)
            )?;
            for _ in 0..rng.range(1, 3) {
                writeln!(s, "{}\n", self.paragraph(&mut rng, dir, k, &focus))?;
            }
            if fence_at == Some(section) {
                writeln!(s, "{}\n", self.code_fence(&mut rng, &focus))?;
            }
        }
        writeln!(s, "## See also\n")?;
        for _ in 0..rng.range(1, 3) {
            let other = self.random_doc(&mut rng, k);
            let target = self.doc_path(other);
            writeln!(
                s,
                "- [{}]({})",
                self.doc_title(other),
                relative(dir, &target)
            )?;
        }
        for &p in &focus {
            let manifest = self.manifest_path(p);
            writeln!(s, "- [`{manifest}`]({})", relative(dir, &manifest))?;
        }
        Ok(s)
    }

    /// The first few documents, for the fixed agent-facing pages to point at.
    fn doc_links(&self, from_dir: &str, count: u64) -> Result<String, fmt::Error> {
        let mut s = String::new();
        for k in 0..count.min(self.documents) {
            let path = self.doc_path(k);
            writeln!(
                s,
                "- [{}]({})",
                self.doc_title(k),
                relative(from_dir, &path)
            )?;
        }
        Ok(s)
    }

    fn agents_md(&self) -> Result<String, fmt::Error> {
        let mut s = String::from(
            "# AGENTS.md\n\nGuidance for coding agents working in this synthetic monorepo.\n\n## Layout\n\n\
             - `packages/`: TypeScript packages, npm workspaces named `@synth/*`.\n\
             - `crates/`: Rust crates in one Cargo workspace (root `Cargo.toml`).\n\
             - `py/`: Python projects, one `pyproject.toml` each.\n\
             - `go/`: Go modules under `example.com/synth/`.\n\
             - `docs/`: documentation; agents start at `docs/for-agents/`.\n\n## Read first\n\n",
        );
        for stem in AGENT_DOCS {
            writeln!(s, "- [{stem}](docs/for-agents/{stem}.md)")?;
        }
        s.push_str(
            "\n## Commands\n\n```bash\nnpm test --workspaces\ncargo test --workspace\n\
             python -m pytest py\n(cd go/<module> && go test ./...)\n```\n\n## Start here\n\n",
        );
        s.push_str(&self.doc_links("", 5)?);
        Ok(s)
    }

    fn agent_doc(&self, i: usize, path: &str) -> Result<String, fmt::Error> {
        let mut rng = SplitMix64::new(self.h(&[tag::FIXED, i as u64]));
        let dir = parent(path);
        let stem = AGENT_DOCS[i];
        let mut s = String::new();
        writeln!(s, "---\ntitle: \"Agents: {stem}\"")?;
        writeln!(
            s,
            "description: \"What a coding agent should know: {stem}.\""
        )?;
        writeln!(s, "tags: [agents, {stem}]\n---\n\n# Agents: {stem}\n")?;
        writeln!(s, "{}\n", self.paragraph(&mut rng, dir, 0, &[]))?;
        writeln!(s, "## Packages to know\n")?;
        for p in 0..self.packages().min(8) {
            let manifest = self.manifest_path(p);
            writeln!(
                s,
                "- [`{}`]({}): `{}`",
                self.pkg_dir(p),
                relative(dir, &manifest),
                self.entry_fn(p, 0)
            )?;
        }
        writeln!(s, "\n## Related\n")?;
        writeln!(s, "- [AGENTS.md]({})", relative(dir, "AGENTS.md"))?;
        for other in AGENT_DOCS.iter().filter(|o| **o != stem) {
            writeln!(s, "- [{other}]({other}.md)")?;
        }
        s.push_str(&self.doc_links(dir, 3)?);
        Ok(s)
    }
}

/// `text` with its first letter in lower case.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A TypeScript relative import specifier: no extension, always starting with `./` or `../`.
fn ts_specifier(from_dir: &str, target: &str) -> String {
    let rel = relative(from_dir, target);
    let rel = rel.strip_suffix(".ts").unwrap_or(&rel);
    if rel.starts_with("../") {
        rel.to_string()
    } else {
        format!("./{rel}")
    }
}

/// A Python relative module reference from the package `here` (its directory components) to the
/// module `target` (components of its dotted name): `.leaf`, `..area.leaf`, or `.` for the
/// package itself.
fn python_relative(here: &[String], target: &[String]) -> String {
    let common = here.iter().zip(target).take_while(|(a, b)| a == b).count();
    let mut out = ".".repeat(1 + here.len() - common);
    out.push_str(&target[common..].join("."));
    out
}

#[cfg(test)]
mod tests;
