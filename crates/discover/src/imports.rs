//! Import resolution. Relative imports and workspace package names resolve to modules in the
//! repository; a relative import of another file that exists (`./style.css`, `../package.json`)
//! resolves to that file; everything else is external. An internal-looking import that names
//! nothing is `unresolved`: never guessed.

use std::collections::{BTreeMap, HashMap, HashSet};

use doc_bridge_model::snapshot::{Ecosystem, ImportResolution, Package};
use doc_bridge_model::{EntityId, RelPath};
use doc_bridge_source::Language;

mod c_family;
mod csharp;
mod jvm;
mod php;
mod swift;

use swift::swift_target;

/// Lookups shared by every resolution.
pub struct Resolver<'a> {
    modules: HashSet<&'a str>,
    /// Every file of the repository (modules or not), for imports of stylesheets, images, data.
    files: HashSet<&'a str>,
    /// C, C++ and Cython sources by file stem: what a compiled Python extension module of that
    /// name may be built from.
    extension_sources: HashMap<&'a str, Vec<&'a str>>,
    /// Files a build writes into the tree (a `pyproject.toml`'s version file): imported, never
    /// in a checkout.
    generated: HashSet<RelPath>,
    npm: BTreeMap<&'a str, &'a Package>,
    /// Crate name with `-` folded to `_` → (package, crate root file).
    crates: BTreeMap<String, (&'a Package, Option<RelPath>)>,
    /// Cargo package directory → its crate root file.
    cargo_roots: HashMap<RelPath, Option<RelPath>>,
    /// Top-level Python name → the import roots that hold it.
    python_tops: HashMap<String, Vec<RelPath>>,
    python_names: HashSet<String>,
    go_modules: HashMap<&'a str, &'a RelPath>,
    /// Directory → its non-test Go modules, sorted.
    go_dirs: BTreeMap<RelPath, Vec<EntityId>>,
    /// File name (`Server.java`, `core.h`) → the modules of that name, sorted.
    file_names: HashMap<&'a str, Vec<&'a RelPath>>,
    /// Java and Kotlin: a directory's name → the directories of that name holding Java or
    /// Kotlin modules, each with its modules, sorted.
    jvm_dirs: HashMap<&'a str, BTreeMap<RelPath, Vec<EntityId>>>,
    /// Java and Kotlin: every two consecutive directory names above a module (`com/example`),
    /// the packages this repository declares classes under.
    jvm_pairs: HashSet<String>,
    /// Kotlin: a declared name → the Kotlin modules declaring it, sorted (a Kotlin file may
    /// hold several classes and top-level functions, whatever its name).
    kotlin_declared: HashMap<&'a str, Vec<&'a RelPath>>,
    /// C#: a namespace (`A.B`) → the modules declaring it, sorted.
    csharp_namespaces: HashMap<&'a str, Vec<EntityId>>,
    /// PHP: the first name of every namespace a module declares (`Illuminate` of
    /// `Illuminate\Support`): a `use` under no such name is another vendor's class or PHP's own.
    php_vendors: HashSet<&'a str>,
    /// PHP: the modules that declare a namespace (the others are in the global one).
    php_namespaced: HashSet<&'a RelPath>,
    /// Swift: a SwiftPM target (`Sources/NAME/`, `Tests/NAME/`) → its modules, sorted.
    swift_targets: HashMap<&'a str, Vec<EntityId>>,
    /// Ruby: a module's path below its last `lib/` directory (`lantern/server.rb`) → the
    /// modules with that path, sorted: what `require "lantern/server"` loads from a gem's load
    /// path.
    ruby_lib: HashMap<&'a str, Vec<&'a RelPath>>,
}

/// An import's resolution and targets.
pub type Resolved = (ImportResolution, Vec<EntityId>);

/// Top-level names of reverse-domain packages (`com.squareup`, `org.apache`): an organisation
/// publishes many libraries under its domain, so a repository owns the third name too.
const REVERSE_DOMAINS: &[&str] = &[
    "com", "org", "net", "io", "dev", "edu", "gov", "me", "co", "app", "ai", "uk", "de", "fr",
    "nl", "ch", "jp", "cn", "ru", "us", "ca", "au", "it", "es", "se", "be", "at", "pl", "br",
];

/// The names of a JVM package a repository owns when it declares classes in it: the first
/// three of a reverse-domain package (`com/squareup/okhttp3`), else the first two
/// (`okhttp3/internal`); a shorter package whole, if it has two names or more.
fn jvm_owned_prefix<'n>(package: &'n [&'n str]) -> Option<&'n [&'n str]> {
    let first = package.first()?;
    let owned = if REVERSE_DOMAINS.contains(first) {
        3
    } else {
        2
    };
    let prefix = &package[..owned.min(package.len())];
    (prefix.len() >= 2).then_some(prefix)
}

/// Where the package path starts among a JVM module's directory names: after the first
/// `java`, `kotlin`, `scala` or `groovy` directory that follows `src/<source set>/`
/// (`src/main/java/`, `src/commonMain/kotlin/`, `src/androidTest/java/`); `None` for another
/// layout. A package may hold those names too (`okhttp3/java/net/`): the first one after
/// `src/` is the root.
fn jvm_package_start(names: &[&str]) -> Option<usize> {
    let src = names.iter().position(|name| *name == "src")?;
    let language = names.get(src + 2)?;
    doc_bridge_model::file_role::JVM_SOURCE_ROOTS
        .contains(language)
        .then_some(src + 3)
}

const JS_EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "d.ts", "js", "jsx", "mjs", "cjs"];

/// The sources a compiled Python extension module is built from (Cython, and the templates
/// scikit-learn and others render into it).
const PYTHON_COMPILED: [&str; 5] = ["pyx", "pyx.tp", "pxd", "pxd.tp", "pyx.in"];

/// Build scripts that declare a package directory's compiled extension modules.
const EXTENSION_BUILD_SCRIPTS: [&str; 2] = ["setup_package.py", "meson.build"];

/// The sources such a script compiles an extension module from, by extension.
const EXTENSION_SOURCES: [&str; 5] = ["c", "cc", "cpp", "cxx", "pyx"];

impl<'a> Resolver<'a> {
    /// Builds the lookups. `cargo_lib_paths` maps a Cargo package id to its `[lib] path`.
    pub fn new(
        modules: &'a [RelPath],
        packages: &'a [Package],
        cargo_lib_paths: &BTreeMap<EntityId, String>,
    ) -> Self {
        let mut go_dirs: BTreeMap<RelPath, Vec<EntityId>> = BTreeMap::new();
        for module in modules {
            if module.extension() == Some("go") && !module.file_name().ends_with("_test.go") {
                go_dirs
                    .entry(module.parent())
                    .or_default()
                    .push(EntityId::module(module));
            }
        }
        for targets in go_dirs.values_mut() {
            targets.sort();
        }
        let mut file_names: HashMap<&str, Vec<&RelPath>> = HashMap::new();
        let mut jvm_dirs: HashMap<&str, BTreeMap<RelPath, Vec<EntityId>>> = HashMap::new();
        let mut swift_targets: HashMap<&str, Vec<EntityId>> = HashMap::new();
        for module in modules {
            file_names
                .entry(module.file_name())
                .or_default()
                .push(module);
            if matches!(module.extension(), Some("java" | "kt")) {
                // The directory's name, borrowed from the module's path.
                let name = module.as_str().rsplit('/').nth(1).unwrap_or("");
                jvm_dirs
                    .entry(name)
                    .or_default()
                    .entry(module.parent())
                    .or_default()
                    .push(EntityId::module(module));
            }
            if module.extension() == Some("swift")
                && let Some(target) = swift_target(module.as_str())
            {
                swift_targets
                    .entry(target)
                    .or_default()
                    .push(EntityId::module(module));
            }
        }
        for files in file_names.values_mut() {
            files.sort();
        }
        for targets in swift_targets.values_mut() {
            targets.sort();
        }
        let mut ruby_lib: HashMap<&str, Vec<&RelPath>> = HashMap::new();
        for module in modules {
            let text = module.as_str();
            if module.extension() == Some("rb") {
                let below_lib = match text.rfind("/lib/") {
                    Some(at) => Some(&text[at + 5..]),
                    None => text.strip_prefix("lib/"),
                };
                if let Some(below) = below_lib {
                    ruby_lib.entry(below).or_default().push(module);
                }
            }
        }
        for paths in ruby_lib.values_mut() {
            paths.sort();
        }
        let mut jvm_pairs = HashSet::new();
        for dir in jvm_dirs.values().flat_map(BTreeMap::keys) {
            let names: Vec<&str> = dir.as_str().split('/').collect();
            // Below a known source root, the package's start only; else any folder may be.
            let starts = match jvm_package_start(&names) {
                Some(start) => start..start + 1,
                None => 0..names.len(),
            };
            for start in starts {
                if let Some(prefix) = names.get(start..).and_then(jvm_owned_prefix) {
                    jvm_pairs.insert(prefix.join("/"));
                }
            }
        }
        let python_modules: Vec<&RelPath> = modules
            .iter()
            .filter(|m| matches!(m.extension(), Some("py" | "pyi")))
            .collect();
        let mut python_roots: HashSet<RelPath> = HashSet::new();
        let modules: HashSet<&str> = modules.iter().map(RelPath::as_str).collect();
        let mut resolver = Resolver {
            go_dirs,
            file_names,
            jvm_dirs,
            jvm_pairs,
            kotlin_declared: HashMap::new(),
            csharp_namespaces: HashMap::new(),
            php_vendors: HashSet::new(),
            php_namespaced: HashSet::new(),
            swift_targets,
            ruby_lib,
            npm: BTreeMap::new(),
            crates: BTreeMap::new(),
            cargo_roots: HashMap::new(),
            python_tops: HashMap::new(),
            python_names: HashSet::new(),
            go_modules: HashMap::new(),
            modules,
            files: HashSet::new(),
            extension_sources: HashMap::new(),
            generated: HashSet::new(),
        };
        for package in packages {
            match package.ecosystem {
                Ecosystem::Npm => {
                    resolver.npm.entry(package.name.as_str()).or_insert(package);
                }
                Ecosystem::Cargo => {
                    let root_file = resolver.crate_root(package, cargo_lib_paths.get(&package.id));
                    resolver
                        .crates
                        .entry(package.name.replace('-', "_"))
                        .or_insert((package, root_file.clone()));
                    resolver
                        .cargo_roots
                        .entry(package.path.clone())
                        .or_insert(root_file);
                }
                Ecosystem::Python => {
                    // A project kept as a test's input (`test/ecosystem/httpx/`) does not make
                    // its name this repository's: `import httpx` elsewhere is the installed one.
                    use doc_bridge_model::file_role::{FileRole, file_role};
                    if !matches!(
                        file_role(&package.manifest),
                        Some(FileRole::Test | FileRole::Fixture | FileRole::Example)
                    ) {
                        resolver
                            .python_names
                            .insert(package.name.replace('-', "_").to_lowercase());
                    }
                    if let Some(src) = package.path.join("src") {
                        python_roots.insert(src);
                    }
                    python_roots.insert(package.path.clone());
                }
                Ecosystem::Go => {
                    resolver
                        .go_modules
                        .entry(package.name.as_str())
                        .or_insert(&package.path);
                }
                // Java imports resolve by package path, C# usings name namespaces, Ruby
                // requires load paths, Swift imports name modules (targets), C and C++ include
                // files: none by the package's name.
                Ecosystem::Maven
                | Ecosystem::Gradle
                | Ecosystem::Dotnet
                | Ecosystem::Rubygems
                | Ecosystem::Composer
                | Ecosystem::Swift
                | Ecosystem::Cmake => {}
            }
        }
        python_roots.insert(RelPath::root());
        // A workspace package's import package kept in a directory of its own (`lib/matplotlib`,
        // `python/pkg`): that directory is an import root too, as the build's `package-dir`
        // makes it (a `src/` layout is found above without this).
        for module in &python_modules {
            if module.file_name() != "__init__.py" {
                continue;
            }
            let package_dir = module.parent();
            let name = package_dir.file_name().replace('-', "_").to_lowercase();
            if !package_dir.is_root() && resolver.python_names.contains(&name) {
                python_roots.insert(package_dir.parent());
            }
        }
        // Index each root by the top-level names below it, so an absolute import looks only at
        // the roots that can hold it (not at every project in a large monorepo).
        for module in python_modules {
            let mut ancestor = module.parent();
            loop {
                if python_roots.contains(&ancestor)
                    && let Some(rest) = module.strip_dir(&ancestor)
                {
                    let first = rest.split('/').next().unwrap_or(rest);
                    let top = first
                        .strip_suffix(".pyi")
                        .or_else(|| first.strip_suffix(".py"))
                        .unwrap_or(first);
                    let bases = resolver.python_tops.entry(top.to_owned()).or_default();
                    if !bases.contains(&ancestor) {
                        bases.push(ancestor.clone());
                    }
                }
                if ancestor.is_root() {
                    break;
                }
                ancestor = ancestor.parent();
            }
        }
        for bases in resolver.python_tops.values_mut() {
            bases.sort();
        }
        resolver
    }

    /// The dotted names Python code imports each of `modules` by (`pkg.sub.mod` for
    /// `src/pkg/sub/mod.py`, `pkg.sub` for `src/pkg/sub/__init__.py`), from every import root
    /// that holds it, as `import` resolution finds them.
    pub fn python_dotted_names(&self, modules: &[RelPath]) -> Vec<(String, RelPath)> {
        let mut names = Vec::new();
        for module in modules {
            let Some(stem) = module
                .as_str()
                .strip_suffix(".py")
                .or_else(|| module.as_str().strip_suffix(".pyi"))
            else {
                continue;
            };
            let mut ancestor = module.parent();
            loop {
                let rest = if ancestor.is_root() {
                    Some(stem)
                } else {
                    stem.strip_prefix(ancestor.as_str())
                        .and_then(|r| r.strip_prefix('/'))
                };
                if let Some(rest) = rest {
                    let top = rest.split('/').next().unwrap_or(rest);
                    if self
                        .python_tops
                        .get(top)
                        .is_some_and(|bases| bases.contains(&ancestor))
                    {
                        let dotted = rest.strip_suffix("/__init__").unwrap_or(rest);
                        if dotted != "__init__" {
                            names.push((dotted.replace('/', "."), module.clone()));
                        }
                    }
                }
                if ancestor.is_root() {
                    break;
                }
                ancestor = ancestor.parent();
            }
        }
        names
    }

    /// The same lookups, also knowing the names each Kotlin module declares (its symbols and
    /// its `internal` names), so that an import of a class or function from a file named
    /// otherwise resolves.
    pub fn with_kotlin_declarations(
        mut self,
        declarations: impl IntoIterator<Item = (&'a RelPath, &'a str)>,
    ) -> Self {
        for (module, name) in declarations {
            self.kotlin_declared.entry(name).or_default().push(module);
        }
        for modules in self.kotlin_declared.values_mut() {
            modules.sort();
            modules.dedup();
        }
        self
    }

    /// The same lookups, also knowing the namespaces each C# module declares, so that a
    /// `using` resolves to the modules of its namespace.
    /// The PHP modules' declared namespaces: (module, fully qualified namespace).
    pub fn with_php_namespaces(
        mut self,
        declarations: impl IntoIterator<Item = (&'a RelPath, &'a str)>,
    ) -> Self {
        for (module, namespace) in declarations {
            self.php_namespaced.insert(module);
            if let Some(vendor) = namespace.split('\\').find(|s| !s.is_empty()) {
                self.php_vendors.insert(vendor);
            }
        }
        self
    }

    pub fn with_csharp_namespaces(
        mut self,
        declarations: impl IntoIterator<Item = (&'a RelPath, &'a str)>,
    ) -> Self {
        for (module, namespace) in declarations {
            self.csharp_namespaces
                .entry(namespace)
                .or_default()
                .push(EntityId::module(module));
        }
        for modules in self.csharp_namespaces.values_mut() {
            modules.sort();
            modules.dedup();
        }
        self
    }

    /// The same lookups, also knowing every file of the repository (not only modules), so that a
    /// relative import of an existing non-module file resolves ([`ImportResolution::File`]).
    pub fn with_files(mut self, files: impl IntoIterator<Item = &'a str>) -> Self {
        self.files = files.into_iter().collect();
        for &file in &self.files {
            let name = file.rsplit_once('/').map_or(file, |(_, name)| name);
            if let Some((stem, ext)) = name.split_once('.')
                && EXTENSION_SOURCES.contains(&ext)
            {
                self.extension_sources.entry(stem).or_default().push(file);
            }
        }
        self
    }

    /// With the files a build writes into the tree (repository paths).
    pub fn with_generated(mut self, files: impl IntoIterator<Item = RelPath>) -> Self {
        self.generated = files.into_iter().collect();
        self
    }

    /// Whether a C, C++ or Cython source named `name` lies in `dir` or below it.
    fn extension_source_within(&self, dir: &RelPath, name: &str) -> bool {
        self.extension_sources.get(name).is_some_and(|sources| {
            sources
                .iter()
                .any(|source| RelPath::new(source).is_some_and(|s| s.is_within(dir)))
        })
    }

    fn crate_root(&self, package: &Package, lib_path: Option<&String>) -> Option<RelPath> {
        if let Some(lib) = lib_path {
            return RelPath::join_normalized(&package.path, lib).filter(|p| self.is_module(p));
        }
        ["src/lib.rs", "src/main.rs"]
            .iter()
            .filter_map(|f| package.path.join(f))
            .find(|p| self.is_module(p))
    }

    fn is_module(&self, path: &RelPath) -> bool {
        self.modules.contains(path.as_str())
    }

    fn found(&self, candidates: impl IntoIterator<Item = Option<RelPath>>) -> Option<RelPath> {
        candidates.into_iter().flatten().find(|p| self.is_module(p))
    }

    /// Resolves one import of the module at `from`.
    pub fn resolve(
        &self,
        language: Language,
        from: &RelPath,
        specifier: &str,
        names: &[String],
        mod_decl: bool,
    ) -> Resolved {
        match language {
            Language::TypeScript | Language::Tsx | Language::JavaScript => self.js(from, specifier),
            Language::Rust if mod_decl => self.rust_mod(from, specifier),
            Language::Rust => self.rust_use(from, specifier, names),
            Language::Python => self.python(from, specifier, names),
            Language::Go => self.go(specifier),
            Language::Java => self.jvm(specifier, &["java"]),
            Language::Kotlin => self.jvm(specifier, &["kt", "java"]),
            Language::CSharp => self.csharp(specifier),
            Language::Ruby => self.ruby(from, specifier),
            Language::C | Language::Cpp => self.include(from, specifier),
            Language::Php => self.php(from, specifier),
            Language::Swift => self.swift(specifier),
        }
    }

    /// Ruby: `require_relative` (kept as `./x` by the analyzer) joins the requiring file's
    /// directory, `.rb` added; `require "a/b"` loads `a/b.rb` from a `lib/` directory of this
    /// repository when exactly one has it, else it is external (a gem or the standard library).
    fn ruby(&self, from: &RelPath, specifier: &str) -> Resolved {
        let with_rb = |path: &str| {
            if path.ends_with(".rb") {
                path.to_owned()
            } else {
                format!("{path}.rb")
            }
        };
        if specifier.starts_with('.') {
            let target = RelPath::join_normalized(&from.parent(), &with_rb(specifier));
            return match target.filter(|t| self.is_module(t)) {
                Some(module) => (ImportResolution::Internal, vec![EntityId::module(&module)]),
                None => (ImportResolution::Unresolved, Vec::new()),
            };
        }
        match self
            .ruby_lib
            .get(with_rb(specifier).as_str())
            .map(Vec::as_slice)
        {
            Some([only]) => (ImportResolution::Internal, vec![EntityId::module(only)]),
            Some([_, _, ..]) => (ImportResolution::Unresolved, Vec::new()),
            _ => (ImportResolution::External, Vec::new()),
        }
    }

    fn js(&self, from: &RelPath, specifier: &str) -> Resolved {
        if specifier.starts_with("./")
            || specifier.starts_with("../")
            || specifier == "."
            || specifier == ".."
        {
            return self.js_relative(from, specifier);
        }
        if specifier.starts_with('/') {
            return (ImportResolution::Unresolved, Vec::new());
        }
        let segments: Vec<&str> = specifier.split('/').collect();
        let name_len = if specifier.starts_with('@') { 2 } else { 1 };
        if segments.len() < name_len {
            return (ImportResolution::External, Vec::new());
        }
        let name = segments[..name_len].join("/");
        let Some(package) = self.npm.get(name.as_str()) else {
            return (ImportResolution::External, Vec::new());
        };
        let subpath = segments[name_len..].join("/");
        let found = if subpath.is_empty() {
            ["src/index", "index", "lib/index", "src/main", "main"]
                .iter()
                .filter_map(|stem| package.path.join(stem))
                .find_map(|base| self.js_file(&base))
        } else {
            [subpath.clone(), format!("src/{subpath}")]
                .iter()
                .filter_map(|rel| RelPath::join_normalized(&package.path, rel))
                .find_map(|base| self.js_file(&base))
        };
        match found {
            Some(path) => (ImportResolution::Internal, vec![EntityId::module(&path)]),
            None => (ImportResolution::Package, vec![package.id.clone()]),
        }
    }

    /// A relative specifier: a module ([`Self::js_file`]), else any existing file; both also
    /// with a bundler's query (`./icon.svg?raw`, `./worker.ts?worker`) taken off.
    fn js_relative(&self, from: &RelPath, specifier: &str) -> Resolved {
        let without_query = specifier.split_once('?').map(|(path, _)| path);
        for specifier in std::iter::once(specifier).chain(without_query) {
            let Some(base) = RelPath::join_normalized(&from.parent(), specifier) else {
                continue;
            };
            if let Some(path) = self.js_file(&base) {
                return (ImportResolution::Internal, vec![EntityId::module(&path)]);
            }
            if self.files.contains(base.as_str()) {
                return (ImportResolution::File, Vec::new());
            }
        }
        (ImportResolution::Unresolved, Vec::new())
    }

    /// `base` as written, with a JS/TS extension, with `.js` mapped to its TS source or its
    /// declaration file (`./types.js` → `types.ts`, `types.tsx`, `types.d.ts`, as TypeScript
    /// resolves it), or as a directory index.
    fn js_file(&self, base: &RelPath) -> Option<RelPath> {
        if self.is_module(base) {
            return Some(base.clone());
        }
        let text = base.as_str();
        let with_ext = JS_EXTENSIONS
            .iter()
            .map(|ext| RelPath::new(&format!("{text}.{ext}")));
        let swapped = [
            ("js", "ts"),
            ("js", "tsx"),
            ("js", "d.ts"),
            ("jsx", "tsx"),
            ("mjs", "mts"),
            ("mjs", "d.mts"),
            ("cjs", "cts"),
            ("cjs", "d.cts"),
        ]
        .iter()
        .filter_map(|(js, ts)| {
            text.strip_suffix(&format!(".{js}"))
                .map(|stem| RelPath::new(&format!("{stem}.{ts}")))
        });
        let index = JS_EXTENSIONS
            .iter()
            .map(|ext| base.join(&format!("index.{ext}")));
        self.found(with_ext.chain(swapped).chain(index))
    }

    /// Whether a Rust file is a crate root: `lib.rs`, `main.rs`, `build.rs`, or a file directly
    /// in `tests/`, `examples/`, `benches/` or `src/bin/` (each is its own crate).
    fn rust_crate_root(file: &RelPath) -> bool {
        let parent = file.parent();
        matches!(file.file_name(), "lib.rs" | "main.rs" | "build.rs")
            || matches!(parent.file_name(), "tests" | "examples" | "benches" | "bin")
    }

    /// The directory that holds a Rust file's child modules.
    fn rust_children_dir(file: &RelPath) -> Option<RelPath> {
        let dir = file.parent();
        if file.file_name() == "mod.rs" || Self::rust_crate_root(file) {
            Some(dir)
        } else {
            dir.join(file.file_stem())
        }
    }

    fn rust_mod(&self, from: &RelPath, name: &str) -> Resolved {
        let found = if name.contains('/') || name.ends_with(".rs") {
            // `#[path = "..."]` is relative to the declaring file's directory.
            self.found([RelPath::join_normalized(&from.parent(), name)])
        } else {
            Self::rust_children_dir(from).and_then(|dir| {
                self.found([
                    dir.join(&format!("{name}.rs")),
                    dir.join(&format!("{name}/mod.rs")),
                ])
            })
        };
        match found {
            Some(path) => (ImportResolution::Internal, vec![EntityId::module(&path)]),
            None => (ImportResolution::Unresolved, Vec::new()),
        }
    }

    fn rust_use(&self, from: &RelPath, specifier: &str, names: &[String]) -> Resolved {
        let segments: Vec<&str> = specifier.split("::").filter(|s| !s.is_empty()).collect();
        let Some(first) = segments.first() else {
            return (ImportResolution::External, Vec::new());
        };
        // The crate a file belongs to: the nearest `lib.rs` or `main.rs` up its folders (a
        // binary whose `[[bin]] path` is `crates/core/main.rs`, `src/bin/tool/main.rs`), else
        // the crate root of the nearest package.
        let crate_root = || {
            let mut dir = from.parent();
            loop {
                let nearest = ["lib.rs", "main.rs"]
                    .iter()
                    .filter_map(|name| dir.join(name))
                    .find(|path| self.is_module(path));
                if nearest.is_some() {
                    return nearest;
                }
                if let Some(root) = self.cargo_roots.get(&dir) {
                    return root.clone();
                }
                if dir.is_root() {
                    return None;
                }
                dir = dir.parent();
            }
        };
        // A file Cargo compiles as a crate of its own, found by where it lies in its package
        // (`src/bin/x.rs`, `tests/x.rs`, `examples/x.rs`, `benches/x.rs`, `build.rs`), is its
        // own root.
        let own_root = || {
            let parent = from.parent();
            let package_dir = match parent.file_name() {
                "bin" if parent.parent().file_name() == "src" => parent.parent().parent(),
                "tests" | "examples" | "benches" => parent.parent(),
                _ if from.file_name() == "build.rs" => parent,
                _ => return false,
            };
            self.cargo_roots.contains_key(&package_dir)
        };
        let (start_file, rest) = match *first {
            "crate" if own_root() => (Some(from.clone()), &segments[1..]),
            "crate" => (crate_root(), &segments[1..]),
            "self" => (Some(from.clone()), &segments[1..]),
            "super" => {
                let mut file = from.clone();
                let mut rest = &segments[..];
                while rest.first() == Some(&"super") {
                    // Above a crate root, `super` can only come from an inline module (`mod tests
                    // { use super::*; }`): it names the file itself.
                    if let Some(parent) = Self::rust_parent_module(&file, |p| self.is_module(p)) {
                        file = parent;
                    }
                    rest = &rest[1..];
                }
                (Some(file), rest)
            }
            name => match self.crates.get(name) {
                Some((package, root)) => match root {
                    Some(root) => (Some(root.clone()), &segments[1..]),
                    None => return (ImportResolution::Package, vec![package.id.clone()]),
                },
                None => return (ImportResolution::External, Vec::new()),
            },
        };
        let Some(mut file) = start_file else {
            return (ImportResolution::Unresolved, Vec::new());
        };
        // Walk the path as far as module files exist; the rest names items (or inline modules)
        // inside the last file reached.
        for segment in rest {
            match self.rust_child(&file, segment) {
                Some(child) => file = child,
                None => break,
            }
        }
        // `use crate::{a, b}` imports modules by name: target them when they are files.
        let named: Vec<EntityId> = names
            .iter()
            .filter_map(|n| self.rust_child(&file, n))
            .map(|p| EntityId::module(&p))
            .collect();
        if named.is_empty() {
            (ImportResolution::Internal, vec![EntityId::module(&file)])
        } else {
            (ImportResolution::Internal, named)
        }
    }

    fn rust_child(&self, file: &RelPath, name: &str) -> Option<RelPath> {
        let dir = Self::rust_children_dir(file)?;
        self.found([
            dir.join(&format!("{name}.rs")),
            dir.join(&format!("{name}/mod.rs")),
        ])
    }

    fn rust_parent_module(file: &RelPath, exists: impl Fn(&RelPath) -> bool) -> Option<RelPath> {
        // a/b.rs and a/b/mod.rs have the parent a.rs, a/mod.rs, or a/lib.rs / a/main.rs.
        if Self::rust_crate_root(file) {
            return None;
        }
        let dir = match file.file_name() {
            "mod.rs" => file.parent().parent(),
            _ => file.parent(),
        };
        let stem_file = RelPath::new(&format!("{dir}.rs")).filter(|_| !dir.is_root());
        [
            dir.join("mod.rs"),
            dir.join("lib.rs"),
            dir.join("main.rs"),
            stem_file,
        ]
        .into_iter()
        .flatten()
        .find(|p| exists(p))
    }

    fn python(&self, from: &RelPath, specifier: &str, names: &[String]) -> Resolved {
        let dots = specifier.chars().take_while(|c| *c == '.').count();
        let dotted = &specifier[dots..];
        let bases: Vec<RelPath> = if dots > 0 {
            let mut base = from.parent();
            for _ in 1..dots {
                if base.is_root() {
                    return (ImportResolution::Unresolved, Vec::new());
                }
                base = base.parent();
            }
            vec![base]
        } else {
            let top = dotted.split('.').next().unwrap_or(dotted);
            self.python_tops.get(top).cloned().unwrap_or_default()
        };
        let rel = dotted.replace('.', "/");
        for base in &bases {
            let target = if rel.is_empty() {
                Some(base.clone())
            } else {
                base.join(&rel)
            };
            let Some(target) = target else { continue };
            // `from pkg import mod` may import submodules by name.
            let submodules: Vec<EntityId> = names
                .iter()
                .filter_map(|n| self.python_module(target.join(n).as_ref()))
                .map(|p| EntityId::module(&p))
                .collect();
            if !submodules.is_empty() {
                return (ImportResolution::Internal, submodules);
            }
            if let Some(found) = self.python_module(Some(&target)) {
                return (ImportResolution::Internal, vec![EntityId::module(&found)]);
            }
        }
        // A compiled extension module: built from a Cython source (or its template) that no
        // analyzer reads, found as the file it is built from.
        for base in &bases {
            let target = if rel.is_empty() {
                None
            } else {
                base.join(&rel)
            };
            let Some(target) = target else { continue };
            if PYTHON_COMPILED
                .iter()
                .any(|ext| self.files.contains(format!("{target}.{ext}").as_str()))
            {
                return (ImportResolution::File, Vec::new());
            }
            // A module the build writes (`_version.py`, from setuptools-scm).
            if RelPath::new(&format!("{target}.py")).is_some_and(|p| self.generated.contains(&p)) {
                return (ImportResolution::File, Vec::new());
            }
            // A module of a package whose directory holds the build script that declares its
            // extensions (astropy's `setup_package.py`, meson-python's `meson.build`): compiled
            // from sources that name it in that script. Taken as one when it is private
            // (`_wcs`), or when a C, C++ or Cython source of its name lies in the package
            // (`signature_deprecations.c` beside it, `src/fast_converters.pyx` below).
            let package_dir = target.parent();
            let name = target.file_name();
            if (name.starts_with('_') || self.extension_source_within(&package_dir, name))
                && EXTENSION_BUILD_SCRIPTS.iter().any(|script| {
                    package_dir
                        .join(script)
                        .is_some_and(|p| self.files.contains(p.as_str()))
                })
            {
                return (ImportResolution::File, Vec::new());
            }
        }
        let first = dotted.split('.').next().unwrap_or("").to_lowercase();
        // A namespace package (a top-level directory without `__init__.py`, PEP 420) is shared
        // with other distributions: `poetry.core` comes from poetry-core, installed beside this
        // repository's `poetry`. What it does not hold here may be theirs.
        let top = dotted.split('.').next().unwrap_or("");
        let namespace = dots == 0
            && !bases.is_empty()
            && bases
                .iter()
                .all(|base| self.python_module(base.join(top).as_ref()).is_none());
        if namespace {
            (ImportResolution::External, Vec::new())
        } else if dots > 0 || self.python_names.contains(&first) {
            (ImportResolution::Unresolved, Vec::new())
        } else {
            (ImportResolution::External, Vec::new())
        }
    }

    fn python_module(&self, base: Option<&RelPath>) -> Option<RelPath> {
        let base = base?;
        let (file, stub) = if base.is_root() {
            (None, None)
        } else {
            (
                RelPath::new(&format!("{base}.py")),
                RelPath::new(&format!("{base}.pyi")),
            )
        };
        self.found([
            file,
            base.join("__init__.py"),
            stub,
            base.join("__init__.pyi"),
        ])
    }

    fn go(&self, specifier: &str) -> Resolved {
        // The longest module path that prefixes the import path wins (nested modules).
        let mut prefix = specifier;
        loop {
            if let Some(root) = self.go_modules.get(prefix) {
                let rest = specifier[prefix.len()..].trim_start_matches('/');
                let dir = if rest.is_empty() {
                    Some((*root).clone())
                } else {
                    RelPath::join_normalized(root, rest)
                };
                let targets = dir
                    .and_then(|d| self.go_dirs.get(&d).cloned())
                    .unwrap_or_default();
                return if targets.is_empty() {
                    (ImportResolution::Unresolved, Vec::new())
                } else {
                    (ImportResolution::Internal, targets)
                };
            }
            match prefix.rfind('/') {
                Some(i) => prefix = &prefix[..i],
                None => break,
            }
        }
        (ImportResolution::External, Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use doc_bridge_model::ContentHash;
    use doc_bridge_model::snapshot::Ecosystem;

    /// A path; `""` is the repository root.
    fn p(s: &str) -> RelPath {
        if s.is_empty() {
            return RelPath::root();
        }
        RelPath::new(s).unwrap()
    }

    fn package(name: &str, dir: &str, ecosystem: Ecosystem) -> Package {
        Package {
            readme: None,
            id: EntityId::package(name),
            path: p(dir),
            content_hash: ContentHash::of_bytes(b""),
            name: name.into(),
            ecosystem,
            manifest: p(dir).join("manifest").unwrap(),
            version: None,
            scripts: Default::default(),
            workspaces: Vec::new(),
            dependencies: Vec::new(),
            package_manager: "npm".into(),
        }
    }

    fn ids(resolved: &Resolved) -> Vec<&str> {
        resolved.1.iter().map(EntityId::as_str).collect()
    }

    #[test]
    fn rust_crate_paths_start_at_the_nearest_crate_root() {
        // ripgrep: the root package's binary is `[[bin]] path = "crates/core/main.rs"`.
        let modules = vec![
            p("crates/core/main.rs"),
            p("crates/core/flags/mod.rs"),
            p("crates/core/flags/defs.rs"),
            p("crates/core/flags/complete/bash.rs"),
            p("crates/grep/src/lib.rs"),
            p("crates/grep/src/search.rs"),
        ];
        let packages = vec![
            package("ripgrep", "", Ecosystem::Cargo),
            package("grep", "crates/grep", Ecosystem::Cargo),
        ];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new());
        let use_ = |from: &str, specifier: &str| {
            r.resolve(Language::Rust, &p(from), specifier, &[], false)
        };
        let resolved = use_("crates/core/flags/complete/bash.rs", "crate::flags::defs");
        assert_eq!(ids(&resolved), ["module:crates/core/flags/defs.rs"]);
        let resolved = use_("crates/grep/src/search.rs", "crate::search");
        assert_eq!(ids(&resolved), ["module:crates/grep/src/search.rs"]);
    }

    #[test]
    fn a_binary_test_example_or_build_script_is_its_own_crate_root() {
        let modules = vec![
            p("tools/src/bin/lines.rs"),
            p("tools/tests/cli.rs"),
            p("tools/build.rs"),
            p("app/src/lib.rs"),
            p("app/src/tests/mod.rs"),
            p("app/src/tests/unit.rs"),
        ];
        let packages = vec![
            package("tools", "tools", Ecosystem::Cargo),
            package("app", "app", Ecosystem::Cargo),
        ];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new());
        let use_ = |from: &str, specifier: &str| {
            r.resolve(Language::Rust, &p(from), specifier, &[], false)
        };
        for own in [
            "tools/src/bin/lines.rs",
            "tools/tests/cli.rs",
            "tools/build.rs",
        ] {
            assert_eq!(ids(&use_(own, "crate::helper")), [format!("module:{own}")]);
        }
        // A module folder named `tests` inside a crate is no crate of its own.
        assert_eq!(
            ids(&use_("app/src/tests/unit.rs", "crate::tests")),
            ["module:app/src/tests/mod.rs"]
        );
    }

    #[test]
    fn rust_integration_tests_find_their_common_module() {
        let modules = vec![
            p("c/tests/cli.rs"),
            p("c/tests/common/mod.rs"),
            p("c/src/lib.rs"),
        ];
        let packages = vec![package("c", "c", Ecosystem::Cargo)];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new());
        let resolved = r.resolve(Language::Rust, &p("c/tests/cli.rs"), "common", &[], true);
        assert_eq!(ids(&resolved), ["module:c/tests/common/mod.rs"]);
        // `use super::*` inside an inline module of a crate root names the root itself.
        let resolved = r.resolve(
            Language::Rust,
            &p("c/src/lib.rs"),
            "super",
            &["*".into()],
            false,
        );
        assert_eq!(resolved.0, ImportResolution::Internal);
        // A workspace crate by name, `-` folded to `_`.
        let resolved = r.resolve(
            Language::Rust,
            &p("c/tests/cli.rs"),
            "c",
            &["x".into()],
            false,
        );
        assert_eq!(ids(&resolved), ["module:c/src/lib.rs"]);
        assert_eq!(
            r.resolve(Language::Rust, &p("c/src/lib.rs"), "serde", &[], false)
                .0,
            ImportResolution::External
        );
    }

    #[test]
    fn ts_relative_imports_try_extensions_js_swaps_and_index() {
        let modules = vec![p("src/a.ts"), p("src/b.ts"), p("src/dir/index.tsx")];
        let r = Resolver::new(&modules, &[], &BTreeMap::new());
        assert_eq!(
            ids(&r.resolve(Language::TypeScript, &p("src/a.ts"), "./b.js", &[], false)),
            ["module:src/b.ts"]
        );
        assert_eq!(
            ids(&r.resolve(Language::TypeScript, &p("src/a.ts"), "./dir", &[], false)),
            ["module:src/dir/index.tsx"]
        );
        assert_eq!(
            r.resolve(
                Language::TypeScript,
                &p("src/a.ts"),
                "./missing",
                &[],
                false
            )
            .0,
            ImportResolution::Unresolved
        );
        assert_eq!(
            r.resolve(
                Language::TypeScript,
                &p("src/a.ts"),
                "../../../x",
                &[],
                false
            )
            .0,
            ImportResolution::Unresolved
        );
        assert_eq!(
            r.resolve(Language::TypeScript, &p("src/a.ts"), "react", &[], false)
                .0,
            ImportResolution::External
        );
    }

    #[test]
    fn relative_imports_of_existing_non_module_files_resolve_to_the_file() {
        let modules = vec![p("src/main.ts"), p("src/worker.ts")];
        let files = [
            "src/main.ts",
            "src/worker.ts",
            "src/style.css",
            "src/App.vue",
            "src/icon.svg",
            "package.json",
        ];
        let r = Resolver::new(&modules, &[], &BTreeMap::new()).with_files(files);
        let resolve = |specifier: &str| {
            r.resolve(
                Language::TypeScript,
                &p("src/main.ts"),
                specifier,
                &[],
                false,
            )
        };
        for specifier in [
            "./style.css",
            "./App.vue",
            "./icon.svg?raw",
            "../package.json",
        ] {
            assert_eq!(
                resolve(specifier),
                (ImportResolution::File, Vec::new()),
                "{specifier}"
            );
        }
        assert_eq!(
            ids(&resolve("./worker.ts?worker")),
            ["module:src/worker.ts"]
        );
        // A declaration file answers for the `.js` a `.d.ts` imports.
        let modules = vec![p("src/types/index.d.ts"), p("src/types/public.d.ts")];
        let r = Resolver::new(&modules, &[], &BTreeMap::new());
        assert_eq!(
            ids(&r.resolve(
                Language::TypeScript,
                &p("src/types/index.d.ts"),
                "./public.js",
                &[],
                false
            )),
            ["module:src/types/public.d.ts"]
        );
        for specifier in [
            "./missing.css",
            "./style",
            "../../outside.css",
            "./App.vue/x",
        ] {
            assert_eq!(
                resolve(specifier).0,
                ImportResolution::Unresolved,
                "{specifier}"
            );
        }
        // Without the file list (or for a file not in it), nothing changes.
        let bare = Resolver::new(&modules, &[], &BTreeMap::new());
        assert_eq!(
            bare.resolve(
                Language::TypeScript,
                &p("src/main.ts"),
                "./style.css",
                &[],
                false
            )
            .0,
            ImportResolution::Unresolved
        );
    }

    #[test]
    fn workspace_package_without_entry_module_resolves_to_the_package() {
        let packages = vec![package("@fx/ui", "packages/ui", Ecosystem::Npm)];
        let modules = vec![p("packages/app/main.ts")];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new());
        let resolved = r.resolve(
            Language::TypeScript,
            &p("packages/app/main.ts"),
            "@fx/ui",
            &[],
            false,
        );
        assert_eq!(resolved.0, ImportResolution::Package);
        assert_eq!(ids(&resolved), ["package:@fx/ui"]);
    }

    #[test]
    fn a_python_project_kept_as_test_input_does_not_own_its_name() {
        let modules = vec![
            p("test/ecosystem/httpx/httpx/__init__.py"),
            p("scripts/fetch.py"),
            p("tools/lint/lint/__init__.py"),
        ];
        let packages = vec![
            package("httpx", "test/ecosystem/httpx", Ecosystem::Python),
            package("lint", "tools/lint", Ecosystem::Python),
        ];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new());
        let import = |s: &str| r.resolve(Language::Python, &modules[1], s, &[], false).0;
        assert_eq!(import("httpx.gone"), ImportResolution::External);
        // The repository's own project still owns its name.
        assert_eq!(import("lint.gone"), ImportResolution::Unresolved);
    }

    #[test]
    fn python_relative_imports_and_submodules() {
        let modules = vec![
            p("src/pkg/__init__.py"),
            p("src/pkg/a.py"),
            p("src/pkg/b.py"),
        ];
        let packages = vec![package("pkg", ".", Ecosystem::Python)];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new());
        assert_eq!(
            ids(&r.resolve(
                Language::Python,
                &p("src/pkg/a.py"),
                ".",
                &["b".into()],
                false
            )),
            ["module:src/pkg/b.py"]
        );
        assert_eq!(
            ids(&r.resolve(Language::Python, &p("src/pkg/a.py"), "pkg.b", &[], false)),
            ["module:src/pkg/b.py"]
        );
        assert_eq!(
            r.resolve(Language::Python, &p("src/pkg/a.py"), "....x", &[], false)
                .0,
            ImportResolution::Unresolved
        );
        assert_eq!(
            r.resolve(Language::Python, &p("src/pkg/a.py"), "json", &[], false)
                .0,
            ImportResolution::External
        );
    }

    #[test]
    fn a_namespace_package_may_hold_other_distributions_modules() {
        let modules = vec![
            p("src/poetry/console/app.py"),
            p("src/poetry/console/__init__.py"),
        ];
        let packages = vec![package("poetry", ".", Ecosystem::Python)];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new());
        let from = p("src/poetry/console/app.py");
        let resolve = |specifier: &str| r.resolve(Language::Python, &from, specifier, &[], false);
        assert_eq!(
            ids(&resolve("poetry.console.app")),
            ["module:src/poetry/console/app.py"]
        );
        // `poetry` has no `__init__.py`: `poetry.core` may be poetry-core's.
        assert_eq!(
            resolve("poetry.core.packages").0,
            ImportResolution::External
        );
        // With an `__init__.py` it is a regular package: what it does not hold is missing.
        let mut regular = modules.clone();
        regular.push(p("src/poetry/__init__.py"));
        let r = Resolver::new(&regular, &packages, &BTreeMap::new());
        assert_eq!(
            r.resolve(Language::Python, &from, "poetry.core.packages", &[], false)
                .0,
            ImportResolution::Unresolved
        );
    }

    #[test]
    fn python_packages_kept_below_the_root_stubs_and_compiled_modules() {
        let modules = vec![
            p("lib/matplotlib/__init__.py"),
            p("lib/matplotlib/text.py"),
            p("lib/matplotlib/ft2font.pyi"),
            p("lib/mpl_toolkits/mplot3d/__init__.py"),
            p("tools/helper.py"),
        ];
        let packages = vec![package("matplotlib", ".", Ecosystem::Python)];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new())
            .with_files(["lib/matplotlib/_path.pyx", "lib/matplotlib/_tri.pyx.tp"]);
        let from = p("lib/matplotlib/text.py");
        let resolve = |specifier: &str, names: &[&str]| {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            r.resolve(Language::Python, &from, specifier, &names, false)
        };
        // The package's directory is found below `lib/`, and so is its neighbour.
        assert_eq!(
            ids(&resolve("matplotlib.text", &[])),
            ["module:lib/matplotlib/text.py"]
        );
        assert_eq!(
            ids(&resolve("mpl_toolkits.mplot3d", &[])),
            ["module:lib/mpl_toolkits/mplot3d/__init__.py"]
        );
        // A stub stands for a compiled module; a Cython source (or template) is a file.
        assert_eq!(
            ids(&resolve("matplotlib.ft2font", &[])),
            ["module:lib/matplotlib/ft2font.pyi"]
        );
        assert_eq!(resolve("._path", &[]).0, ImportResolution::File);
        assert_eq!(resolve("matplotlib._tri", &[]).0, ImportResolution::File);
        // What exists nowhere is still unresolved.
        assert_eq!(
            resolve("matplotlib.nothing", &[]).0,
            ImportResolution::Unresolved
        );
        assert_eq!(resolve(".nothing", &[]).0, ImportResolution::Unresolved);
        // A private module of a package whose build script declares its extensions.
        let r = Resolver::new(&modules, &packages, &BTreeMap::new()).with_files([
            "lib/matplotlib/meson.build",
            "lib/matplotlib/fast_paths.c",
            "lib/matplotlib/src/converters.pyx",
            "lib/mpl_toolkits/mplot3d/helper.txt",
            "lib/mpl_toolkits/mplot3d/elsewhere.c",
        ]);
        let resolve = |specifier: &str| r.resolve(Language::Python, &from, specifier, &[], false);
        assert_eq!(resolve("._c_internal").0, ImportResolution::File);
        assert_eq!(resolve("matplotlib._c_internal").0, ImportResolution::File);
        assert_eq!(resolve(".public_missing").0, ImportResolution::Unresolved);
        // A public one when a C or Cython source of its name lies in the package.
        assert_eq!(resolve(".fast_paths").0, ImportResolution::File);
        assert_eq!(resolve(".converters").0, ImportResolution::File);
        assert_eq!(
            resolve(".elsewhere").0,
            ImportResolution::Unresolved,
            "a source of that name outside the package"
        );
        // A module the build writes into the tree.
        let r = Resolver::new(&modules, &packages, &BTreeMap::new())
            .with_generated([p("lib/matplotlib/_version.py")]);
        let resolve = |specifier: &str| r.resolve(Language::Python, &from, specifier, &[], false);
        assert_eq!(resolve("._version").0, ImportResolution::File);
        assert_eq!(resolve("matplotlib._version").0, ImportResolution::File);
        assert_eq!(resolve("._other").0, ImportResolution::Unresolved);
        assert_eq!(
            resolve("matplotlib.sub._private").0,
            ImportResolution::Unresolved,
            "no build script there"
        );
    }

    #[test]
    fn go_imports_resolve_to_the_package_directory() {
        let modules = vec![
            p("cmd/main.go"),
            p("internal/s/s.go"),
            p("internal/s/s_test.go"),
        ];
        let packages = vec![package("example.com/m", ".", Ecosystem::Go)];
        let r = Resolver::new(&modules, &packages, &BTreeMap::new());
        assert_eq!(
            ids(&r.resolve(
                Language::Go,
                &p("cmd/main.go"),
                "example.com/m/internal/s",
                &[],
                false
            )),
            ["module:internal/s/s.go"]
        );
        assert_eq!(
            r.resolve(
                Language::Go,
                &p("cmd/main.go"),
                "example.com/m/nope",
                &[],
                false
            )
            .0,
            ImportResolution::Unresolved
        );
        assert_eq!(
            r.resolve(Language::Go, &p("cmd/main.go"), "fmt", &[], false)
                .0,
            ImportResolution::External
        );
    }

    #[test]
    fn kotlin_imports_resolve_by_file_then_by_declaration() {
        let modules = vec![
            p("app/src/main/kotlin/com/example/Server.kt"),
            p("app/src/main/kotlin/com/example/util/Strings.kt"),
            p("app/src/main/java/com/example/Legacy.java"),
        ];
        let r = Resolver::new(&modules, &[], &BTreeMap::new())
            .with_kotlin_declarations([(&modules[1], "slugify"), (&modules[1], "Text")]);
        let kt = |s: &str| r.resolve(Language::Kotlin, &modules[0], s, &[], false);
        assert_eq!(
            ids(&kt("com.example.Server")),
            [format!("module:{}", modules[0])]
        );
        // A Java class from Kotlin.
        assert_eq!(
            ids(&kt("com.example.Legacy")),
            [format!("module:{}", modules[2])]
        );
        // A top-level function and a class in a file named otherwise.
        assert_eq!(
            ids(&kt("com.example.util.slugify")),
            [format!("module:{}", modules[1])]
        );
        assert_eq!(
            ids(&kt("com.example.util.Text")),
            [format!("module:{}", modules[1])]
        );
        // Not declared in that package: the name alone is not enough.
        assert_eq!(kt("com.example.slugify").0, ImportResolution::Unresolved);
        assert_eq!(kt("com.example.util.*").1.len(), 1);
        assert_eq!(
            kt("kotlinx.coroutines.launch"),
            (ImportResolution::External, vec![])
        );
    }

    #[test]
    fn a_jvm_package_is_read_below_its_source_root() {
        // okhttp's `okhttp3.java.net.cookiejar` declares nothing under `java.net`.
        let modules = vec![
            p("cookiejar/src/main/kotlin/okhttp3/java/net/cookiejar/JavaNetCookieJar.kt"),
            p("legacy/com/acme/tools/Tool.java"),
            p("maven-tests/src/main/java/com/squareup/okhttp3/maventest/App.java"),
        ];
        let r = Resolver::new(&modules, &[], &BTreeMap::new());
        let kt = |s: &str| r.resolve(Language::Kotlin, &modules[0], s, &[], false).0;
        assert_eq!(kt("java.net.InetAddress"), ImportResolution::External);
        assert_eq!(kt("okhttp3.java.Gone"), ImportResolution::Unresolved);
        // A reverse-domain package is owned to its third name: Square's other libraries are
        // not this repository's.
        assert_eq!(kt("com.squareup.moshi.Moshi"), ImportResolution::External);
        assert_eq!(
            kt("com.squareup.okhttp3.Gone"),
            ImportResolution::Unresolved
        );
        // Another layout: any two names on the way may be the package's.
        assert_eq!(kt("acme.tools.Gone"), ImportResolution::Unresolved);
        assert_eq!(
            jvm_package_start(&["src", "main", "java", "com", "x"]),
            Some(3)
        );
        assert_eq!(
            jvm_package_start(&["a", "src", "jvmTest", "kotlin", "k"]),
            Some(4)
        );
        assert_eq!(jvm_package_start(&["src", "com", "x"]), None);
        // Kotlin Multiplatform: `expect` and `actual` in source sets of one project are one
        // class; the same path in two projects is ambiguous.
        let modules = vec![
            p("okhttp/src/jvmMain/kotlin/okhttp3/internal/Registry.kt"),
            p("okhttp/src/androidMain/kotlin/okhttp3/internal/Registry.kt"),
            p("okhttp/src/main/kotlin/okhttp3/Client.kt"),
            p("one/src/main/java/okhttp3/Twin.java"),
            p("two/src/main/java/okhttp3/Twin.java"),
        ];
        let r = Resolver::new(&modules, &[], &BTreeMap::new());
        let kt = |s: &str| r.resolve(Language::Kotlin, &modules[2], s, &[], false);
        assert_eq!(
            ids(&kt("okhttp3.internal.Registry")),
            [
                "module:okhttp/src/androidMain/kotlin/okhttp3/internal/Registry.kt",
                "module:okhttp/src/jvmMain/kotlin/okhttp3/internal/Registry.kt"
            ]
        );
        assert_eq!(kt("okhttp3.Twin").0, ImportResolution::Unresolved);
    }

    #[test]
    fn c_includes_resolve_beside_the_file_then_by_unique_path_suffix() {
        let modules = vec![
            p("src/format.cc"),
            p("src/detail.h"),
            p("include/fmt/core.h"),
            p("a/util.h"),
            p("b/util.h"),
        ];
        let r = Resolver::new(&modules, &[], &BTreeMap::new())
            .with_files(["src/table.inc", "src/format.cc"]);
        let inc = |s: &str| r.resolve(Language::Cpp, &modules[0], s, &[], false);
        assert_eq!(ids(&inc("detail.h")), ["module:src/detail.h"]);
        assert_eq!(ids(&inc("fmt/core.h")), ["module:include/fmt/core.h"]);
        assert_eq!(ids(&inc("<fmt/core.h>")), ["module:include/fmt/core.h"]);
        assert_eq!(inc("table.inc"), (ImportResolution::File, vec![]));
        // The angle form never looks beside the file.
        assert_eq!(inc("<table.inc>").0, ImportResolution::External);
        assert_eq!(inc("<stdio.h>"), (ImportResolution::External, vec![]));
        assert_eq!(inc("util.h"), (ImportResolution::Unresolved, vec![]));
        assert_eq!(ids(&inc("a/util.h")), ["module:a/util.h"]);
        // `core.h` alone is a suffix of `include/fmt/core.h` too; `mt/core.h` is not.
        assert_eq!(ids(&inc("core.h")), ["module:include/fmt/core.h"]);
        assert_eq!(inc("mt/core.h").0, ImportResolution::External);
    }

    #[test]
    fn php_uses_under_no_namespace_declared_here_are_other_vendors_or_php_itself() {
        let modules = vec![
            p("src/Illuminate/Support/Stringable.php"),
            p("src/Illuminate/Console/Application.php"),
            p("src/Illuminate/Foundation/Console/Application.php"),
            p("src/Illuminate/Support/Str.php"),
            p("helpers/Legacy.php"),
        ];
        let from = p("src/Illuminate/Support/Str.php");
        let namespaced = [
            (&modules[0], "Illuminate\\Support"),
            (&modules[1], "Illuminate\\Console"),
            (&modules[2], "Illuminate\\Foundation\\Console"),
            (&modules[3], "Illuminate\\Support"),
        ];
        let php = |r: &Resolver<'_>, s: &str| r.resolve(Language::Php, &from, s, &[], false);
        let plain = Resolver::new(&modules, &[], &BTreeMap::new());
        // By path tails alone, PHP's `Stringable` is this repository's file of that name, and
        // Symfony's `Console\Application` one of its two.
        assert_eq!(php(&plain, "Stringable").0, ImportResolution::Internal);
        assert_eq!(
            php(&plain, "Symfony\\Component\\Console\\Application").0,
            ImportResolution::Unresolved
        );
        let r = Resolver::new(&modules, &[], &BTreeMap::new()).with_php_namespaces(namespaced);
        assert_eq!(php(&r, "Stringable").0, ImportResolution::External);
        assert_eq!(
            php(&r, "Symfony\\Component\\Console\\Application").0,
            ImportResolution::External
        );
        assert_eq!(ids(&php(&r, "Legacy")), ["module:helpers/Legacy.php"]);
        assert_eq!(
            ids(&php(&r, "Illuminate\\Support\\Str")),
            ["module:src/Illuminate/Support/Str.php"]
        );
    }

    #[test]
    fn php_uses_resolve_by_namespace_path_suffix_and_includes_by_path() {
        let modules = vec![
            p("src/Monolog/Logger.php"),
            p("src/Monolog/Handler/StreamHandler.php"),
            p("app/Http/Kernel.php"),
            p("bootstrap.php"),
            p("lib/util.php"),
        ];
        let r = Resolver::new(&modules, &[], &BTreeMap::new());
        let from = &modules[0];
        let php = |s: &str| r.resolve(Language::Php, from, s, &[], false);
        assert_eq!(
            ids(&php("Monolog\\Handler\\StreamHandler")),
            ["module:src/Monolog/Handler/StreamHandler.php"]
        );
        // PSR-4 maps `App\\` to `app/`: the tail `Http/Kernel.php` finds it.
        assert_eq!(
            ids(&php("App\\Http\\Kernel")),
            ["module:app/Http/Kernel.php"]
        );
        assert_eq!(
            php("Psr\\Log\\LoggerInterface"),
            (ImportResolution::External, vec![])
        );
        // One segment is never matched alone.
        assert_eq!(php("Other\\Logger").0, ImportResolution::External);
        assert_eq!(ids(&php("lib/util.php")), ["module:lib/util.php"]);
        assert_eq!(
            ids(&r.resolve(
                Language::Php,
                &modules[4],
                "__DIR__/../bootstrap.php",
                &[],
                false
            )),
            ["module:bootstrap.php"]
        );
        assert_eq!(php("__DIR__/missing.php").0, ImportResolution::Unresolved);
        assert_eq!(php("vendor/autoload.php").0, ImportResolution::External);
    }

    #[test]
    fn swift_imports_resolve_to_the_package_target() {
        let modules = vec![
            p("Sources/ArgumentParser/Parsing/Split.swift"),
            p("Sources/ArgumentParser/Command.swift"),
            p("Tests/ArgumentParserTests/SplitTests.swift"),
            p("Sources/main.swift"),
        ];
        let r = Resolver::new(&modules, &[], &BTreeMap::new());
        let swift = |s: &str| r.resolve(Language::Swift, &modules[2], s, &[], false);
        assert_eq!(
            ids(&swift("ArgumentParser")),
            [
                "module:Sources/ArgumentParser/Command.swift",
                "module:Sources/ArgumentParser/Parsing/Split.swift"
            ]
        );
        assert_eq!(swift("Foundation"), (ImportResolution::External, vec![]));
        assert_eq!(swift("main"), (ImportResolution::External, vec![]));
    }

    #[test]
    fn csharp_usings_resolve_to_the_modules_declaring_the_namespace() {
        let modules = vec![
            p("src/Lantern.Core/Lamp.cs"),
            p("src/Lantern.Core/Wick.cs"),
            p("src/Lantern.Cli/Program.cs"),
        ];
        let r = Resolver::new(&modules, &[], &BTreeMap::new()).with_csharp_namespaces([
            (&modules[0], "Lantern.Core"),
            (&modules[1], "Lantern.Core"),
            (&modules[2], "Lantern.Cli"),
        ]);
        let cs = |s: &str| r.resolve(Language::CSharp, &modules[2], s, &[], false);
        assert_eq!(
            ids(&cs("Lantern.Core")),
            [
                "module:src/Lantern.Core/Lamp.cs",
                "module:src/Lantern.Core/Wick.cs"
            ]
        );
        // `using static Lantern.Core.Lamp;` names a type of that namespace.
        assert_eq!(cs("Lantern.Core.Lamp").1.len(), 2);
        assert_eq!(cs("System.Text"), (ImportResolution::External, vec![]));
        // No partial names: `Lantern` itself is declared by nothing.
        assert_eq!(cs("Lantern").0, ImportResolution::External);
    }
}
