//! Manifest analyzers: package.json, Cargo.toml, pyproject.toml, go.mod, Maven's pom.xml,
//! Gradle's settings and build scripts, .NET project files and solutions, Ruby gemspecs and
//! Gemfiles, composer.json, Swift's Package.swift and CMakeLists.txt. Pure functions of a
//! manifest's text (and, for a .NET project or solution, its file name, which names it).
//! What one manifest cannot know alone (a Gemfile beside a gemspec, a Gradle build script
//! beside its settings, the directory a manifest names its package after) is decided in
//! [`crate::packages`].

use std::collections::BTreeMap;

use doc_bridge_model::snapshot::{Dependency, Ecosystem};

/// Bumped whenever output for the same input could change.
pub const ANALYZER_VERSION: u32 = 5;

/// Which manifest a file is: the ecosystem it declares and the reader that reads it (an
/// ecosystem may have several: Gradle's settings and build scripts, a gemspec and a Gemfile).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ManifestKind {
    /// `package.json`
    PackageJson,
    /// `Cargo.toml`
    CargoToml,
    /// `pyproject.toml`
    Pyproject,
    /// `go.mod`
    GoMod,
    /// Maven's `pom.xml`
    Pom,
    /// `settings.gradle`, `settings.gradle.kts`
    GradleSettings,
    /// `build.gradle`, `build.gradle.kts`
    GradleBuild,
    /// `*.csproj`, `*.fsproj`, `*.vbproj`
    DotnetProject,
    /// `*.sln`, `*.slnx`
    DotnetSolution,
    /// `*.gemspec`
    Gemspec,
    /// `Gemfile`
    Gemfile,
    /// `composer.json`
    ComposerJson,
    /// `Package.swift`
    SwiftPackage,
    /// `CMakeLists.txt`
    CmakeLists,
}

impl ManifestKind {
    /// The manifest kind of a file name, if it is one.
    pub fn of_file(file_name: &str) -> Option<ManifestKind> {
        let ends_with = |ext: &str| file_name.len() > ext.len() && file_name.ends_with(ext);
        Some(match file_name {
            "package.json" => ManifestKind::PackageJson,
            "Cargo.toml" => ManifestKind::CargoToml,
            "pyproject.toml" => ManifestKind::Pyproject,
            "go.mod" => ManifestKind::GoMod,
            "pom.xml" => ManifestKind::Pom,
            "settings.gradle" | "settings.gradle.kts" => ManifestKind::GradleSettings,
            "build.gradle" | "build.gradle.kts" => ManifestKind::GradleBuild,
            "composer.json" => ManifestKind::ComposerJson,
            "Gemfile" => ManifestKind::Gemfile,
            "Package.swift" => ManifestKind::SwiftPackage,
            "CMakeLists.txt" => ManifestKind::CmakeLists,
            _ if ends_with(".gemspec") => ManifestKind::Gemspec,
            _ if [".csproj", ".fsproj", ".vbproj"]
                .iter()
                .any(|e| ends_with(e)) =>
            {
                ManifestKind::DotnetProject
            }
            _ if ends_with(".sln") || ends_with(".slnx") => ManifestKind::DotnetSolution,
            _ => return None,
        })
    }

    /// The ecosystem this manifest declares a package of.
    pub fn ecosystem(self) -> Ecosystem {
        match self {
            ManifestKind::PackageJson => Ecosystem::Npm,
            ManifestKind::CargoToml => Ecosystem::Cargo,
            ManifestKind::Pyproject => Ecosystem::Python,
            ManifestKind::GoMod => Ecosystem::Go,
            ManifestKind::Pom => Ecosystem::Maven,
            ManifestKind::GradleSettings | ManifestKind::GradleBuild => Ecosystem::Gradle,
            ManifestKind::DotnetProject | ManifestKind::DotnetSolution => Ecosystem::Dotnet,
            ManifestKind::Gemspec | ManifestKind::Gemfile => Ecosystem::Rubygems,
            ManifestKind::ComposerJson => Ecosystem::Composer,
            ManifestKind::SwiftPackage => Ecosystem::Swift,
            ManifestKind::CmakeLists => Ecosystem::Cmake,
        }
    }

    /// Whether a manifest of this kind that names nothing still declares a package, named after
    /// its directory: Gradle names a project by its directory unless the settings say otherwise,
    /// and a Gemfile is a Ruby application, whose name is its directory's.
    pub fn named_by_directory(self) -> bool {
        matches!(
            self,
            ManifestKind::GradleSettings | ManifestKind::GradleBuild | ManifestKind::Gemfile
        )
    }
}

/// What a manifest declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestFacts {
    /// Which manifest.
    pub kind: ManifestKind,
    /// Which ecosystem (the kind's).
    pub ecosystem: Ecosystem,
    /// The package name; `None` for nameless or virtual manifests (they declare no package).
    pub name: Option<String>,
    /// Declared version.
    pub version: Option<String>,
    /// package.json scripts.
    pub scripts: BTreeMap<String, String>,
    /// Workspace member globs.
    pub workspaces: Vec<String>,
    /// Declared dependencies, sorted and deduplicated.
    pub dependencies: Vec<Dependency>,
    /// package.json `packageManager` (`pnpm@9.1.0` → `pnpm`).
    pub package_manager: Option<String>,
    /// For Cargo: explicit `[lib] path`.
    pub lib_path: Option<String>,
    /// Files the build writes into the tree, relative to the manifest's directory: a
    /// `pyproject.toml`'s version file (setuptools-scm's `version_file` or `write_to`,
    /// hatch-vcs's `version-file`), which modules import though no checkout holds it.
    pub generated_files: Vec<String>,
    /// The readme the registry shows, relative to the manifest's directory, as written:
    /// Cargo's `package.readme`, pyproject's `project.readme` (a path or `{file = …}`) or
    /// Poetry's `readme` (the first of a list), composer's `readme`.
    pub readme: Option<String>,
}

impl ManifestFacts {
    fn empty(kind: ManifestKind) -> Self {
        ManifestFacts {
            kind,
            ecosystem: kind.ecosystem(),
            name: None,
            version: None,
            scripts: BTreeMap::new(),
            workspaces: Vec::new(),
            dependencies: Vec::new(),
            package_manager: None,
            lib_path: None,
            generated_files: Vec::new(),
            readme: None,
        }
    }
}

/// Why a manifest could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    /// `package.json` or `composer.json` does not parse.
    #[error("invalid JSON: {0}")]
    Json(String),
    /// `package.json` or `composer.json` parses to something other than an object.
    #[error("the manifest is not a JSON object")]
    NotAnObject,
    /// `Cargo.toml` or `pyproject.toml` does not parse.
    #[error("invalid TOML: {0}")]
    Toml(String),
    /// `pom.xml` or a .NET project file does not parse.
    #[error("invalid XML: {0}")]
    Xml(String),
}

/// [`analyze`] for the manifest named `file_name`: a .NET project without an `AssemblyName`
/// is named by its file's stem (`Lantern.Core.csproj` → `Lantern.Core`), a solution by its
/// whole file name (`Lantern.sln`), so that it never takes the name of the project it is
/// usually named after.
pub fn analyze_file(
    kind: ManifestKind,
    text: &str,
    file_name: &str,
) -> Result<ManifestFacts, ManifestError> {
    let mut facts = analyze(kind, text)?;
    if facts.name.is_none() {
        facts.name = match kind {
            ManifestKind::DotnetProject => file_name
                .rsplit_once('.')
                .map(|(stem, _)| stem.to_owned())
                .filter(|s| !s.is_empty()),
            ManifestKind::DotnetSolution => Some(file_name.to_owned()),
            _ => None,
        };
    }
    Ok(facts)
}

/// Parses a manifest. The error is a short, value-free description of what is wrong.
pub fn analyze(kind: ManifestKind, text: &str) -> Result<ManifestFacts, ManifestError> {
    let mut facts = match kind {
        ManifestKind::PackageJson => package_json(text)?,
        ManifestKind::CargoToml => cargo_toml(text)?,
        ManifestKind::Pyproject => pyproject(text)?,
        ManifestKind::GoMod => go_mod(text),
        ManifestKind::Pom => pom_xml(text)?,
        ManifestKind::GradleSettings => gradle_settings(text),
        ManifestKind::GradleBuild => gradle_build(text),
        ManifestKind::DotnetProject => dotnet_project(text)?,
        ManifestKind::DotnetSolution => dotnet_solution(text)?,
        ManifestKind::Gemspec => gemspec(text),
        ManifestKind::Gemfile => gemfile(text),
        ManifestKind::ComposerJson => composer_json(text)?,
        ManifestKind::SwiftPackage => swift_package(text),
        ManifestKind::CmakeLists => cmake_lists(text),
    };
    facts.name = facts
        .name
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    facts.dependencies.sort();
    facts.dependencies.dedup();
    Ok(facts)
}

/// An XML manifest's tree (roxmltree refuses DTDs that expand without bound).
fn xml(text: &str) -> Result<roxmltree::Document<'_>, ManifestError> {
    roxmltree::Document::parse(text).map_err(|e| ManifestError::Xml(e.to_string()))
}

/// The text of `node`'s first child element named `name`, trimmed.
fn child_text(node: roxmltree::Node<'_, '_>, name: &str) -> Option<String> {
    node.children()
        .find(|c| c.is_element() && c.tag_name().name() == name)
        .and_then(|c| c.text())
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
}

/// `pom.xml`: the project's own `artifactId` and `version` (not its parent's), `modules` as
/// workspace members, `dependencies` (`test` scope as `dev`).
fn pom_xml(text: &str) -> Result<ManifestFacts, ManifestError> {
    let document = xml(text)?;
    let project = document.root_element();
    let mut facts = ManifestFacts::empty(ManifestKind::Pom);
    facts.name = child_text(project, "artifactId");
    facts.version = child_text(project, "version");
    let section = |name: &str| {
        project
            .children()
            .find(|c| c.is_element() && c.tag_name().name() == name)
    };
    if let Some(modules) = section("modules") {
        facts.workspaces = modules
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() == "module")
            .filter_map(|c| c.text().map(|t| t.trim().to_owned()))
            .filter(|t| !t.is_empty())
            .collect();
    }
    if let Some(dependencies) = section("dependencies") {
        for dependency in dependencies
            .children()
            .filter(|c| c.is_element() && c.tag_name().name() == "dependency")
        {
            if let Some(name) = child_text(dependency, "artifactId") {
                let kind = match child_text(dependency, "scope").as_deref() {
                    Some("test") => "dev",
                    Some("provided") => "peer",
                    _ => "normal",
                };
                facts.dependencies.push(Dependency {
                    name,
                    kind: kind.into(),
                });
            }
        }
    }
    Ok(facts)
}

/// `settings.gradle(.kts)`: `rootProject.name = "x"` and the projects it `include`s
/// (`':core'`, `":app:ui"` as `core`, `app/ui`), read line by line; a settings file that
/// computes them names nothing here.
fn gradle_settings(text: &str) -> ManifestFacts {
    let mut facts = ManifestFacts::empty(ManifestKind::GradleSettings);
    let quoted = |text: &str| -> Vec<String> {
        text.split(['"', '\''])
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("rootProject.name") {
            facts.name = quoted(rest).into_iter().next();
        } else if let Some(rest) = after_word(line, "include") {
            for project in quoted(rest) {
                let path = project.trim_start_matches(':').replace(':', "/");
                if !path.is_empty() {
                    facts.workspaces.push(path);
                }
            }
        }
    }
    facts
}

/// The first quoted literal in `text` (`"x"` or `'x'`), without its quotes; `None` for none or
/// an empty one. Ruby's and Groovy's strings alike; escapes are not read.
fn first_literal(text: &str) -> Option<String> {
    let start = text.find(['"', '\''])?;
    let quote = text[start..].chars().next()?;
    let rest = &text[start + 1..];
    let end = rest.find(quote)?;
    Some(rest[..end].to_owned()).filter(|s| !s.is_empty())
}

/// `text` after the word `word` at its start, when the word ends there (`include ':a'` is
/// `include`, `includeBuild('x')` is not).
fn after_word<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let rest = text.strip_prefix(word)?;
    match rest.chars().next() {
        Some(c) if c.is_alphanumeric() || c == '_' => None,
        _ => Some(rest),
    }
}

/// `build.gradle(.kts)`, read line by line: a top-level literal `version`, and the dependencies
/// declared with a literal: `project(':a:b')` (named `b`, the name Gradle gives the project at
/// `a/b`) and `'group:artifact:version'` coordinates (named by the artifact, as pom.xml's are);
/// test configurations as `dev`, `compileOnly` as `peer`, build tooling (`classpath`,
/// `annotationProcessor`, `kapt`, `ksp`) as `build`. A build script names no project: the
/// settings or its directory do ([`crate::packages`]).
fn gradle_build(text: &str) -> ManifestFacts {
    let mut facts = ManifestFacts::empty(ManifestKind::GradleBuild);
    let mut depth = 0usize;
    for line in text.lines() {
        let line = line.trim();
        if depth == 0
            && let Some(version) = gradle_version(line)
        {
            facts.version = Some(version);
        }
        if let Some(dependency) = gradle_dependency(line) {
            facts.dependencies.push(dependency);
        }
        depth = brace_depth(line, depth);
    }
    facts
}

/// The brace depth after `line`, from `depth` before it; braces inside quotes do not count, and
/// a stray `}` never takes it below zero.
fn brace_depth(line: &str, mut depth: usize) -> usize {
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{') => depth = depth.saturating_add(1),
            (None, '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth
}

/// `version = '1.2'` (Kotlin) or `version '1.2'` (Groovy) with a literal; `None` for anything
/// else (`version = property("v")`, `versionCode 3`).
fn gradle_version(line: &str) -> Option<String> {
    let rest = after_word(line, "version")?.trim_start();
    let rest = rest.strip_prefix('=').unwrap_or(rest).trim_start();
    if rest.starts_with(['"', '\'']) {
        first_literal(rest)
    } else {
        None
    }
}

/// One dependency line of a build script (`implementation(project(":core"))`,
/// `testImplementation 'junit:junit:4.13'`), or `None`.
fn gradle_dependency(line: &str) -> Option<Dependency> {
    let configuration: &str = line
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()?;
    let kind = gradle_configuration_kind(configuration)?;
    let rest = line[configuration.len()..].trim_start();
    let rest = rest.strip_prefix('(').unwrap_or(rest).trim_start();
    let name = if let Some(project) = after_word(rest, "project") {
        let path = first_literal(project)?;
        path.rsplit(':').next()?.to_owned()
    } else if rest.starts_with(['"', '\'']) {
        let coordinate = first_literal(rest)?;
        let mut parts = coordinate.split(':');
        let (_group, artifact) = (parts.next()?, parts.next()?);
        artifact.to_owned()
    } else {
        return None;
    };
    (!name.is_empty()).then(|| Dependency {
        name,
        kind: kind.into(),
    })
}

/// The dependency kind of a Gradle configuration name, or `None` when the word is no
/// configuration (`compileSdk`, `id`, `println`).
fn gradle_configuration_kind(configuration: &str) -> Option<&'static str> {
    if matches!(
        configuration,
        "classpath" | "annotationProcessor" | "kapt" | "ksp"
    ) {
        return Some("build");
    }
    // Each configuration, and its form after a source set's name (`testImplementation`).
    const CONFIGURATIONS: &[(&str, &str)] = &[
        ("implementation", "Implementation"),
        ("api", "Api"),
        ("compileOnly", "CompileOnly"),
        ("runtimeOnly", "RuntimeOnly"),
        ("compile", "Compile"),
    ];
    let is_configuration = CONFIGURATIONS.iter().any(|(base, suffix)| {
        configuration == *base
            || (configuration.len() > suffix.len() && configuration.ends_with(suffix))
    });
    if !is_configuration {
        None
    } else if configuration.starts_with("test") || configuration.contains("Test") {
        Some("dev")
    } else if configuration.ends_with("ompileOnly") {
        Some("peer")
    } else {
        Some("normal")
    }
}

/// A .NET project file: `AssemblyName` (else the file's name, see [`analyze_file`]),
/// `Version`, `PackageReference` dependencies.
fn dotnet_project(text: &str) -> Result<ManifestFacts, ManifestError> {
    let document = xml(text)?;
    let mut facts = ManifestFacts::empty(ManifestKind::DotnetProject);
    let elements = || document.descendants().filter(|n| n.is_element());
    let first_text = |name: &str| {
        elements()
            .find(|n| n.tag_name().name() == name)
            .and_then(|n| n.text())
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
    };
    facts.name = first_text("AssemblyName");
    facts.version = first_text("Version");
    for reference in elements().filter(|n| n.tag_name().name() == "PackageReference") {
        if let Some(name) = reference.attribute("Include") {
            facts.dependencies.push(Dependency {
                name: name.trim().to_owned(),
                kind: "normal".into(),
            });
        }
    }
    Ok(facts)
}

/// A `*.gemspec`, read line by line: `x.name = "…"`, a literal `x.version = "…"`,
/// `add_dependency`/`add_runtime_dependency` (normal) and `add_development_dependency` (dev)
/// with a literal gem name. A gemspec that computes these names nothing here (a version taken
/// from a constant is left out).
fn gemspec(text: &str) -> ManifestFacts {
    let mut facts = ManifestFacts::empty(ManifestKind::Gemspec);
    for line in text.lines() {
        let line = line.trim();
        let Some((_, call)) = line.split_once('.') else {
            continue;
        };
        let assigned = |field: &str| {
            call.strip_prefix(field)
                .map(str::trim_start)
                .and_then(|rest| rest.strip_prefix('='))
                .filter(|rest| !rest.starts_with('='))
        };
        if let Some(value) = assigned("name") {
            facts.name = first_literal(value);
        } else if let Some(value) = assigned("version") {
            let value = value.trim();
            if value.starts_with(['"', '\'']) {
                facts.version = first_literal(value);
            }
        } else {
            let kind = if call.starts_with("add_development_dependency") {
                "dev"
            } else if call.starts_with("add_dependency")
                || call.starts_with("add_runtime_dependency")
            {
                "normal"
            } else {
                continue;
            };
            if let Some(name) = first_literal(call) {
                facts.dependencies.push(Dependency {
                    name,
                    kind: kind.into(),
                });
            }
        }
    }
    facts
}

/// A Visual Studio solution: the directories of the projects it lists, as workspace members
/// (`Project("{…}") = "Name", "src\Name\Name.csproj", "{…}"` lines of a `.sln`, `<Project
/// Path="…"/>` elements of a `.slnx`); solution folders, which are no projects, are left out.
/// The solution is named by its file ([`analyze_file`]).
fn dotnet_solution(text: &str) -> Result<ManifestFacts, ManifestError> {
    let mut facts = ManifestFacts::empty(ManifestKind::DotnetSolution);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let paths: Vec<String> = if text.starts_with('<') {
        xml(text)?
            .descendants()
            .filter(|n| n.is_element() && n.tag_name().name() == "Project")
            .filter_map(|n| n.attribute("Path").map(str::to_owned))
            .collect()
    } else {
        text.lines()
            .filter(|line| line.trim_start().starts_with("Project("))
            // The quoted parts: the type's GUID, the name, the path, the project's GUID.
            .filter_map(|line| line.split('"').skip(1).step_by(2).nth(2).map(str::to_owned))
            .collect()
    };
    for path in paths {
        let path = path.trim().replace('\\', "/");
        if !path.to_ascii_lowercase().ends_with("proj") {
            continue;
        }
        let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        let dir = dir.trim_start_matches("./");
        if !dir.is_empty() && dir != "." && !facts.workspaces.iter().any(|w| w == dir) {
            facts.workspaces.push(dir.to_owned());
        }
    }
    Ok(facts)
}

/// A `Gemfile` (a Ruby application's dependencies), read line by line: `gem "x"` with a
/// literal name, as `dev` inside a `group` of development and test only (`group :test do`, or
/// `group: :test` on the line), else `normal`. A Gemfile names no package: its directory does
/// ([`crate::packages`]).
fn gemfile(text: &str) -> ManifestFacts {
    let mut facts = ManifestFacts::empty(ManifestKind::Gemfile);
    // The blocks open around a line: `true` for a development-or-test group.
    let mut blocks: Vec<bool> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if after_word(line, "end").is_some() {
            blocks.pop();
            continue;
        }
        let opens_block = line.ends_with(" do")
            || (line.contains(" do |") && line.ends_with('|'))
            || ["if", "unless", "case", "begin", "while", "until"]
                .iter()
                .any(|word| after_word(line, word).is_some());
        if let Some(groups) = after_word(line, "group") {
            if opens_block {
                blocks.push(only_dev_groups(groups));
            }
            continue;
        }
        if opens_block {
            blocks.push(false);
        }
        let Some(rest) = after_word(line, "gem") else {
            continue;
        };
        let Some(name) = first_literal(rest) else {
            continue;
        };
        let grouped_here = rest
            .split_once("group")
            .is_some_and(|(_, groups)| only_dev_groups(groups));
        let dev = grouped_here || blocks.iter().any(|&dev| dev);
        facts.dependencies.push(Dependency {
            name,
            kind: if dev { "dev" } else { "normal" }.into(),
        });
    }
    facts
}

/// Whether the Ruby symbols in `text` (`:development, :test`) are some and all development or
/// test groups.
fn only_dev_groups(text: &str) -> bool {
    let mut symbols = text
        .split(':')
        .skip(1)
        .map(|s| {
            let end = s
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(s.len());
            &s[..end]
        })
        .filter(|s| !s.is_empty())
        .peekable();
    symbols.peek().is_some() && symbols.all(|s| s == "development" || s == "test")
}

/// `Package.swift`, read as text (never run): the name in `Package(name: "X", …)`, and each
/// `.package(…)` dependency, named by its `name:`, else the last part of its `url:` (`.git`
/// dropped) or `path:`. Comments are skipped; a name written with an escape or interpolation
/// names nothing here.
fn swift_package(text: &str) -> ManifestFacts {
    let mut facts = ManifestFacts::empty(ManifestKind::SwiftPackage);
    let code = without_swift_comments(text);
    facts.name = code
        .match_indices("Package")
        .filter(|(at, _)| {
            !code[..*at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
        .find_map(|(at, word)| {
            let rest = code[at + word.len()..].trim_start().strip_prefix('(')?;
            let rest = after_word(rest.trim_start(), "name")?.trim_start();
            swift_string(rest.strip_prefix(':')?.trim_start())
        });
    for (at, call) in code.match_indices(".package(") {
        let arguments = &code[at + call.len()..];
        let arguments = &arguments[..arguments.find(')').unwrap_or(arguments.len())];
        let last_part = |label: &str| {
            let value = swift_label(arguments, label)?;
            let part = value.trim_end_matches('/').rsplit('/').next()?;
            let part = part.strip_suffix(".git").unwrap_or(part);
            Some(part.to_owned()).filter(|p| !p.is_empty())
        };
        if let Some(name) = swift_label(arguments, "name")
            .or_else(|| last_part("url"))
            .or_else(|| last_part("path"))
        {
            facts.dependencies.push(Dependency {
                name,
                kind: "normal".into(),
            });
        }
    }
    facts
}

/// Swift text with its comments (`//` to the end of the line, nested `/* */`) taken out and its
/// strings kept, so that a commented-out `name:` is not read and the `//` of a URL is no comment.
fn without_swift_comments(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut comment_depth = 0usize;
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if comment_depth > 0 {
            match (c, chars.peek()) {
                ('*', Some('/')) => {
                    chars.next();
                    comment_depth -= 1;
                    code.push(' ');
                }
                ('/', Some('*')) => {
                    chars.next();
                    comment_depth = comment_depth.saturating_add(1);
                }
                ('\n', _) => code.push('\n'),
                _ => {}
            }
            continue;
        }
        if in_string {
            code.push(c);
            if c == '\\' {
                if let Some(escaped) = chars.next() {
                    code.push(escaped);
                }
            } else if c == '"' || c == '\n' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                for skipped in chars.by_ref() {
                    if skipped == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                comment_depth = 1;
                code.push(' ');
            }
            ('"', _) => {
                in_string = true;
                code.push(c);
            }
            _ => code.push(c),
        }
    }
    code
}

/// The plain Swift string literal at the start of `text` (`"x"`); `None` for anything else,
/// and for a literal with an escape or an interpolation (`"\(prefix)x"`), which is computed.
fn swift_string(text: &str) -> Option<String> {
    let rest = text.strip_prefix('"')?;
    let value = &rest[..rest.find(['"', '\n'])?];
    (!value.contains('\\') && rest[value.len()..].starts_with('"')).then(|| value.to_owned())
}

/// The string given to `label:` among Swift call arguments (`url: "https://…"`).
fn swift_label(arguments: &str, label: &str) -> Option<String> {
    arguments.match_indices(label).find_map(|(at, word)| {
        let before = arguments[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let rest = arguments[at + word.len()..]
            .trim_start()
            .strip_prefix(':')?;
        swift_string(rest.trim_start())
    })
}

/// `CMakeLists.txt`: the first `project(NAME [VERSION v] …)` gives the name and version (a name
/// or version computed from a variable, `${…}`, names nothing); `add_subdirectory(dir)` gives
/// workspace members, `find_package(Name)` dependencies. A CMakeLists.txt without `project()`
/// (a subdirectory's) declares no package. Command names are case-insensitive, as CMake's are.
fn cmake_lists(text: &str) -> ManifestFacts {
    let mut facts = ManifestFacts::empty(ManifestKind::CmakeLists);
    let literal = |arg: &String| (!arg.contains("${") && !arg.is_empty()).then(|| arg.clone());
    let mut project_seen = false;
    for command in cmake_commands(text) {
        match command.name.as_str() {
            "project" if !project_seen => {
                project_seen = true;
                facts.name = command.args.first().and_then(literal);
                facts.version = command
                    .args
                    .iter()
                    .skip(1)
                    .skip_while(|arg| *arg != "VERSION")
                    .nth(1)
                    .and_then(literal);
            }
            "add_subdirectory" => {
                if let Some(dir) = command.args.first().and_then(literal) {
                    let dir = dir
                        .trim_end_matches('/')
                        .trim_start_matches("./")
                        .to_owned();
                    if !dir.is_empty() {
                        facts.workspaces.push(dir);
                    }
                }
            }
            "find_package" => {
                if let Some(name) = command.args.first().and_then(literal) {
                    facts.dependencies.push(Dependency {
                        name,
                        kind: "normal".into(),
                    });
                }
            }
            _ => {}
        }
    }
    facts
}

/// One CMake command invocation: its name lowercased, its arguments without quotes.
struct CmakeCommand {
    name: String,
    args: Vec<String>,
}

/// The command invocations of a CMake file, in order, in one pass: `name(args)` with quoted,
/// bracket (`[[…]]`) and unquoted arguments, `#` and `#[[…]]` comments skipped. Unbalanced
/// parentheses end the last command at the end of the text; nothing is evaluated.
fn cmake_commands(text: &str) -> Vec<CmakeCommand> {
    let bytes = text.as_bytes();
    let mut commands = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => i = cmake_skip_comment(text, i),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let name = text[start..i].to_ascii_lowercase();
                let mut open = i;
                while open < bytes.len() && matches!(bytes[open], b' ' | b'\t') {
                    open += 1;
                }
                if bytes.get(open) == Some(&b'(') {
                    let (args, end) = cmake_arguments(text, open + 1);
                    commands.push(CmakeCommand { name, args });
                    i = end;
                }
            }
            _ => i += 1,
        }
    }
    commands
}

/// The arguments of a command whose `(` ends just before `start`, and the index after its `)`
/// (the text's end when it never closes). Parentheses nested in unquoted arguments are skipped.
fn cmake_arguments(text: &str, start: usize) -> (Vec<String>, usize) {
    let bytes = text.as_bytes();
    let mut args = Vec::new();
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b')' if depth == 0 => return (args, i + 1),
            b')' => {
                depth -= 1;
                i += 1;
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b'#' => i = cmake_skip_comment(text, i),
            b'"' => {
                let mut end = i + 1;
                while end < bytes.len() && bytes[end] != b'"' {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                let end = end.min(bytes.len());
                args.push(text[i + 1..end].to_owned());
                i = end + 1;
            }
            b'[' if cmake_bracket_close(text, i).is_some() => {
                let (content, end) = cmake_bracket(text, i);
                args.push(content.to_owned());
                i = end;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let begin = i;
                while i < bytes.len()
                    && !bytes[i].is_ascii_whitespace()
                    && !matches!(bytes[i], b'(' | b')' | b'"')
                {
                    i += 1;
                }
                args.push(text[begin..i].to_owned());
            }
        }
    }
    (args, bytes.len())
}

/// The closing delimiter of a bracket opened at `at` (`[==[` → `]==]`), if one opens there.
fn cmake_bracket_close(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at + 1..)?;
    let equals = rest.bytes().take_while(|&b| b == b'=').count();
    (rest.as_bytes().get(equals) == Some(&b'[')).then(|| format!("]{}]", "=".repeat(equals)))
}

/// The content of the bracket opened at `at` and the index after it (the text's end when it
/// never closes).
fn cmake_bracket(text: &str, at: usize) -> (&str, usize) {
    let Some(close) = cmake_bracket_close(text, at) else {
        return ("", at + 1);
    };
    let open_len = close.len();
    let content_start = (at + open_len).min(text.len());
    match text[content_start..].find(&close) {
        Some(offset) => (
            &text[content_start..content_start + offset],
            content_start + offset + close.len(),
        ),
        None => (&text[content_start..], text.len()),
    }
}

/// The index after the comment starting at `at` (`#` to the end of the line, or a bracket
/// comment `#[[…]]`).
fn cmake_skip_comment(text: &str, at: usize) -> usize {
    if text.as_bytes().get(at + 1) == Some(&b'[') && cmake_bracket_close(text, at + 1).is_some() {
        return cmake_bracket(text, at + 1).1;
    }
    text[at..]
        .find('\n')
        .map_or(text.len(), |offset| at + offset + 1)
}

/// `composer.json`: `name`, `version`, `scripts` (names only), `require` (platform entries such
/// as `php` and `ext-json` left out) and `require-dev`.
fn composer_json(text: &str) -> Result<ManifestFacts, ManifestError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ManifestError::Json(e.to_string()))?;
    let object = value.as_object().ok_or(ManifestError::NotAnObject)?;
    let mut facts = ManifestFacts::empty(ManifestKind::ComposerJson);
    let string = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    facts.name = string("name");
    facts.version = string("version");
    facts.readme = string("readme");
    if let Some(scripts) = object.get("scripts").and_then(|v| v.as_object()) {
        for (name, command) in scripts {
            let command = match command {
                serde_json::Value::String(command) => command.clone(),
                other => other.to_string(),
            };
            facts.scripts.insert(name.clone(), command);
        }
    }
    for (key, kind) in [("require", "normal"), ("require-dev", "dev")] {
        if let Some(deps) = object.get(key).and_then(|v| v.as_object()) {
            for name in deps.keys().filter(|name| name.contains('/')) {
                facts.dependencies.push(Dependency {
                    name: name.clone(),
                    kind: kind.into(),
                });
            }
        }
    }
    Ok(facts)
}

fn package_json(text: &str) -> Result<ManifestFacts, ManifestError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ManifestError::Json(e.to_string()))?;
    let object = value.as_object().ok_or(ManifestError::NotAnObject)?;
    let mut facts = ManifestFacts::empty(ManifestKind::PackageJson);
    let string = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    facts.name = string("name");
    facts.version = string("version");
    facts.package_manager = string("packageManager")
        .and_then(|pm| pm.split('@').next().map(str::to_owned))
        .filter(|pm| !pm.is_empty());
    if let Some(scripts) = object.get("scripts").and_then(|v| v.as_object()) {
        for (name, command) in scripts {
            if let Some(command) = command.as_str() {
                facts.scripts.insert(name.clone(), command.to_owned());
            }
        }
    }
    let workspaces = match object.get("workspaces") {
        Some(serde_json::Value::Array(items)) => items.as_slice(),
        Some(serde_json::Value::Object(o)) => match o.get("packages") {
            Some(serde_json::Value::Array(items)) => items.as_slice(),
            _ => &[],
        },
        _ => &[],
    };
    facts.workspaces = workspaces
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    for (key, kind) in [
        ("dependencies", "normal"),
        ("devDependencies", "dev"),
        ("peerDependencies", "peer"),
        ("optionalDependencies", "optional"),
    ] {
        if let Some(deps) = object.get(key).and_then(|v| v.as_object()) {
            for name in deps.keys() {
                facts.dependencies.push(Dependency {
                    name: name.clone(),
                    kind: kind.into(),
                });
            }
        }
    }
    Ok(facts)
}

fn cargo_toml(text: &str) -> Result<ManifestFacts, ManifestError> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| ManifestError::Toml(e.message().to_owned()))?;
    let mut facts = ManifestFacts::empty(ManifestKind::CargoToml);
    if let Some(package) = table.get("package").and_then(|v| v.as_table()) {
        facts.name = package
            .get("name")
            .and_then(|v| v.as_str())
            .map(str::to_owned);
        facts.version = package
            .get("version")
            .and_then(|v| v.as_str())
            .map(str::to_owned);
        // `readme = false` turns it off; `readme.workspace = true` inherits the workspace's,
        // which is not followed.
        facts.readme = package
            .get("readme")
            .and_then(|v| v.as_str())
            .map(str::to_owned);
    }
    if let Some(lib) = table.get("lib").and_then(|v| v.as_table()) {
        facts.lib_path = lib.get("path").and_then(|v| v.as_str()).map(str::to_owned);
    }
    if let Some(workspace) = table.get("workspace").and_then(|v| v.as_table())
        && let Some(members) = workspace.get("members").and_then(|v| v.as_array())
    {
        facts.workspaces = members
            .iter()
            .filter_map(|m| m.as_str().map(str::to_owned))
            .collect();
    }
    let mut add_deps = |deps: &toml::Table, kind: &str| {
        for (key, spec) in deps {
            // `foo = { package = "real-name" }` renames a dependency.
            let name = spec
                .as_table()
                .and_then(|t| t.get("package"))
                .and_then(|p| p.as_str())
                .unwrap_or(key);
            facts.dependencies.push(Dependency {
                name: name.to_owned(),
                kind: kind.into(),
            });
        }
    };
    for (key, kind) in [
        ("dependencies", "normal"),
        ("dev-dependencies", "dev"),
        ("build-dependencies", "build"),
    ] {
        if let Some(deps) = table.get(key).and_then(|v| v.as_table()) {
            add_deps(deps, kind);
        }
    }
    Ok(facts)
}

fn pyproject(text: &str) -> Result<ManifestFacts, ManifestError> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| ManifestError::Toml(e.message().to_owned()))?;
    let mut facts = ManifestFacts::empty(ManifestKind::Pyproject);
    let project = table.get("project").and_then(|v| v.as_table());
    let poetry = table
        .get("tool")
        .and_then(|t| t.get("poetry"))
        .and_then(|v| v.as_table());
    for section in [project, poetry].into_iter().flatten() {
        if facts.readme.is_none() {
            facts.readme = match section.get("readme") {
                Some(toml::Value::String(path)) => Some(path.clone()),
                Some(toml::Value::Table(table)) => table
                    .get("file")
                    .and_then(|v| v.as_str())
                    .map(str::to_owned),
                Some(toml::Value::Array(paths)) => {
                    paths.first().and_then(|v| v.as_str()).map(str::to_owned)
                }
                _ => None,
            };
        }
        if facts.name.is_none() {
            facts.name = section
                .get("name")
                .and_then(|v| v.as_str())
                .map(str::to_owned);
            facts.version = section
                .get("version")
                .and_then(|v| v.as_str())
                .map(str::to_owned);
        }
    }
    if let Some(deps) = project
        .and_then(|p| p.get("dependencies"))
        .and_then(|v| v.as_array())
    {
        for dep in deps.iter().filter_map(|d| d.as_str()) {
            if let Some(name) = pep508_name(dep) {
                facts.dependencies.push(Dependency {
                    name,
                    kind: "normal".into(),
                });
            }
        }
    }
    let tool = |path: &[&str]| {
        path.iter()
            .try_fold(table.get("tool")?, |value, key| value.get(*key))
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    facts.generated_files = [
        tool(&["setuptools_scm", "version_file"]),
        tool(&["setuptools_scm", "write_to"]),
        tool(&["hatch", "build", "hooks", "vcs", "version-file"]),
    ]
    .into_iter()
    .flatten()
    .collect();
    facts.generated_files.sort();
    facts.generated_files.dedup();
    Ok(facts)
}

/// The distribution name at the start of a PEP 508 requirement (`requests>=2; python_version>'3'`).
fn pep508_name(requirement: &str) -> Option<String> {
    let name: String = requirement
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    (!name.is_empty()).then_some(name)
}

fn go_mod(text: &str) -> ManifestFacts {
    let mut facts = ManifestFacts::empty(ManifestKind::GoMod);
    let mut in_require = false;
    for raw in text.lines() {
        let line = raw.split("//").next().unwrap_or("").trim();
        if in_require {
            if line == ")" {
                in_require = false;
            } else if let Some(path) = line.split_whitespace().next() {
                facts.dependencies.push(Dependency {
                    name: path.to_owned(),
                    kind: "normal".into(),
                });
            }
            continue;
        }
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("module"), Some(path)) => facts.name = Some(path.trim_matches('"').to_owned()),
            (Some("require"), Some("(")) => in_require = true,
            (Some("require"), Some(path)) => facts.dependencies.push(Dependency {
                name: path.to_owned(),
                kind: "normal".into(),
            }),
            _ => {}
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_json_reads_name_scripts_workspaces_and_dependencies() {
        let facts = analyze(
            ManifestKind::PackageJson,
            r#"{"name": "@fx/auth", "scripts": {"test": "vitest", "n": 1},
                "workspaces": {"packages": ["packages/*"]},
                "dependencies": {"@fx/core": "*"}, "devDependencies": {"vitest": "1"},
                "packageManager": "pnpm@9.1.0"}"#,
        )
        .unwrap();
        assert_eq!(facts.name.as_deref(), Some("@fx/auth"));
        assert_eq!(facts.scripts.len(), 1);
        assert_eq!(facts.workspaces, ["packages/*"]);
        assert_eq!(facts.dependencies.len(), 2);
        assert_eq!(facts.package_manager.as_deref(), Some("pnpm"));
    }

    #[test]
    fn cargo_toml_reads_renamed_dependencies_and_virtual_workspaces() {
        let facts = analyze(
            ManifestKind::CargoToml,
            "[package]\nname = \"engine\"\n[dependencies]\nu = { package = \"util\", path = \"../util\" }\n",
        )
        .unwrap();
        assert_eq!(facts.dependencies[0].name, "util");
        let facts = analyze(
            ManifestKind::CargoToml,
            "[workspace]\nmembers = [\"crates/*\"]\n",
        )
        .unwrap();
        assert_eq!(facts.name, None);
        assert_eq!(facts.workspaces, ["crates/*"]);
    }

    #[test]
    fn go_mod_reads_module_and_require_block() {
        let facts = analyze(
            ManifestKind::GoMod,
            "module example.com/gofx // main\n\nrequire (\n\tgolang.org/x/sync v0.1.0\n)\nrequire a.b/c v1\n",
        )
        .unwrap();
        assert_eq!(facts.name.as_deref(), Some("example.com/gofx"));
        assert_eq!(facts.dependencies.len(), 2);
    }

    #[test]
    fn broken_manifests_are_errors_not_panics() {
        assert!(analyze(ManifestKind::PackageJson, "{\"name\": ").is_err());
        assert!(analyze(ManifestKind::PackageJson, "[1,2]").is_err());
        assert!(analyze(ManifestKind::CargoToml, "[package\nname=").is_err());
        assert!(
            analyze(ManifestKind::Pyproject, "[project]\nname = \"pyfx\"\n")
                .unwrap()
                .name
                .is_some()
        );
    }

    #[test]
    fn manifests_name_the_readme_their_registry_shows() {
        let readme = |kind: ManifestKind, text: &str| analyze(kind, text).unwrap().readme;
        let cargo = |package: &str| {
            readme(
                ManifestKind::CargoToml,
                &format!("[package]\nname = \"a\"\n{package}\n"),
            )
        };
        assert_eq!(
            cargo("readme = \"crates-io.md\"").as_deref(),
            Some("crates-io.md")
        );
        assert_eq!(cargo("readme = false"), None);
        assert_eq!(cargo("readme.workspace = true"), None);
        assert_eq!(cargo(""), None);
        let pyproject = |text: &str| readme(ManifestKind::Pyproject, text);
        assert_eq!(
            pyproject("[project]\nname = \"a\"\nreadme = \"docs/pypi.md\"\n").as_deref(),
            Some("docs/pypi.md")
        );
        assert_eq!(
            pyproject(
                "[project]\nreadme = {file = \"README.rst\", content-type = \"text/x-rst\"}\n"
            )
            .as_deref(),
            Some("README.rst")
        );
        assert_eq!(
            pyproject("[tool.poetry]\nname = \"a\"\nreadme = [\"INTRO.md\", \"USAGE.md\"]\n")
                .as_deref(),
            Some("INTRO.md")
        );
        assert_eq!(
            readme(
                ManifestKind::ComposerJson,
                r#"{"name": "a/b", "readme": "doc/README.md"}"#
            )
            .as_deref(),
            Some("doc/README.md")
        );
        assert_eq!(
            readme(
                ManifestKind::PackageJson,
                r#"{"name": "a", "readme": "x.md"}"#
            ),
            None
        );
    }

    #[test]
    fn pyproject_names_the_version_file_its_build_writes() {
        let generated = |text: &str| {
            analyze(ManifestKind::Pyproject, text)
                .unwrap()
                .generated_files
        };
        assert_eq!(
            generated("[tool.setuptools_scm]\nversion_file = \"src/lamp/_version.py\"\n"),
            ["src/lamp/_version.py"]
        );
        assert_eq!(
            generated("[tool.setuptools_scm]\nwrite_to = \"lamp/_version.py\"\n"),
            ["lamp/_version.py"]
        );
        assert_eq!(
            generated("[tool.hatch.build.hooks.vcs]\nversion-file = \"lamp/_v.py\"\n"),
            ["lamp/_v.py"]
        );
        assert!(generated("[project]\nname = \"lamp\"\n[tool.setuptools_scm]\n").is_empty());
    }

    #[test]
    fn pom_xml_reads_its_own_coordinates_modules_and_dependencies() {
        let pom = r#"<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <parent><artifactId>parent-pom</artifactId><version>9</version></parent>
  <artifactId>kiln-core</artifactId>
  <version>1.4.0</version>
  <modules><module>api</module><module> impl </module></modules>
  <dependencies>
    <dependency><groupId>g</groupId><artifactId>guava</artifactId></dependency>
    <dependency><artifactId>junit-jupiter</artifactId><scope>test</scope></dependency>
  </dependencies>
</project>"#;
        let facts = analyze(ManifestKind::Pom, pom).unwrap();
        assert_eq!(facts.name.as_deref(), Some("kiln-core"));
        assert_eq!(facts.version.as_deref(), Some("1.4.0"));
        assert_eq!(facts.workspaces, vec!["api", "impl"]);
        let deps: Vec<(&str, &str)> = facts
            .dependencies
            .iter()
            .map(|d| (d.name.as_str(), d.kind.as_str()))
            .collect();
        assert_eq!(deps, vec![("guava", "normal"), ("junit-jupiter", "dev")]);
    }

    #[test]
    fn gradle_settings_name_the_root_project_and_its_includes() {
        let facts = analyze(
            ManifestKind::GradleSettings,
            "rootProject.name = 'lantern'\ninclude ':core', ':app:ui'\ninclude(\"cli\")\n",
        )
        .unwrap();
        assert_eq!(facts.name.as_deref(), Some("lantern"));
        assert_eq!(facts.workspaces, vec!["core", "app/ui", "cli"]);
    }

    #[test]
    fn a_dotnet_project_is_named_by_its_assembly_else_its_file() {
        let csproj = r#"<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net8.0</TargetFramework><Version>2.0.1</Version></PropertyGroup>
  <ItemGroup><PackageReference Include="Serilog" Version="3.1.1" /></ItemGroup>
</Project>"#;
        let facts =
            analyze_file(ManifestKind::DotnetProject, csproj, "Lantern.Core.csproj").unwrap();
        assert_eq!(facts.name.as_deref(), Some("Lantern.Core"));
        assert_eq!(facts.version.as_deref(), Some("2.0.1"));
        assert_eq!(facts.dependencies[0].name, "Serilog");
        let named = csproj.replace("<Version>", "<AssemblyName>Lantern</AssemblyName><Version>");
        let facts =
            analyze_file(ManifestKind::DotnetProject, &named, "Lantern.Core.csproj").unwrap();
        assert_eq!(facts.name.as_deref(), Some("Lantern"));
        assert_eq!(
            ManifestKind::of_file("App.csproj"),
            Some(ManifestKind::DotnetProject)
        );
        assert_eq!(ManifestKind::of_file(".csproj"), None);
    }

    #[test]
    fn hostile_xml_is_an_error_not_a_hang() {
        let bomb = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<project><artifactId>&lol9;</artifactId></project>"#;
        // Either refused or bounded; never a gigabyte of `lol`.
        if let Ok(facts) = analyze(ManifestKind::Pom, bomb) {
            assert!(facts.name.map_or(0, |n| n.len()) < 1_000_000);
        }
        assert!(matches!(
            analyze(ManifestKind::Pom, "<project><artifactId>x</project>"),
            Err(ManifestError::Xml(_))
        ));
        // Deep nesting is read without recursion (roxmltree parses iteratively, the project
        // reader walks descendants iteratively).
        let deep = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
        let facts = analyze_file(ManifestKind::DotnetProject, &deep, "Deep.csproj").unwrap();
        assert_eq!(facts.name.as_deref(), Some("Deep"));
    }

    #[test]
    fn a_gemspec_gives_its_literal_name_version_and_dependencies() {
        let spec = r#"require_relative "lib/lantern/version"

Gem::Specification.new do |spec|
  spec.name    = "lantern"
  spec.version = Lantern::VERSION
  spec.add_dependency "rack", ">= 2.0"
  spec.add_runtime_dependency('socket')
  spec.add_development_dependency "rspec", "~> 3.12"
  spec.metadata["name"] = "not this"
end
"#;
        let facts = analyze(ManifestKind::Gemspec, spec).unwrap();
        assert_eq!(facts.name.as_deref(), Some("lantern"));
        assert_eq!(facts.version, None, "a version from a constant is not read");
        let deps: Vec<(&str, &str)> = facts
            .dependencies
            .iter()
            .map(|d| (d.name.as_str(), d.kind.as_str()))
            .collect();
        assert_eq!(
            deps,
            vec![("rack", "normal"), ("rspec", "dev"), ("socket", "normal")]
        );
        assert_eq!(
            ManifestKind::of_file("lantern.gemspec"),
            Some(ManifestKind::Gemspec)
        );
    }

    #[test]
    fn composer_json_gives_scripts_and_package_dependencies_only() {
        let composer = r#"{"name": "acme/lantern", "scripts": {"test": "phpunit", "lint": ["a", "b"]},
            "require": {"php": ">=8.1", "ext-json": "*", "guzzlehttp/guzzle": "^7"},
            "require-dev": {"phpunit/phpunit": "^10"}}"#;
        let facts = analyze(ManifestKind::ComposerJson, composer).unwrap();
        assert_eq!(facts.name.as_deref(), Some("acme/lantern"));
        assert_eq!(
            facts.scripts.keys().collect::<Vec<_>>(),
            vec!["lint", "test"]
        );
        let deps: Vec<&str> = facts.dependencies.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(deps, vec!["guzzlehttp/guzzle", "phpunit/phpunit"]);
        assert!(matches!(
            analyze(ManifestKind::ComposerJson, "[1]"),
            Err(ManifestError::NotAnObject)
        ));
    }

    /// The (name, kind) pairs of a manifest's dependencies.
    fn dependencies(facts: &ManifestFacts) -> Vec<(&str, &str)> {
        facts
            .dependencies
            .iter()
            .map(|d| (d.name.as_str(), d.kind.as_str()))
            .collect()
    }

    #[test]
    fn every_new_manifest_is_known_by_its_file_name() {
        for (name, kind, ecosystem) in [
            (
                "Package.swift",
                ManifestKind::SwiftPackage,
                Ecosystem::Swift,
            ),
            ("CMakeLists.txt", ManifestKind::CmakeLists, Ecosystem::Cmake),
            (
                "Lantern.sln",
                ManifestKind::DotnetSolution,
                Ecosystem::Dotnet,
            ),
            (
                "Lantern.slnx",
                ManifestKind::DotnetSolution,
                Ecosystem::Dotnet,
            ),
            ("build.gradle", ManifestKind::GradleBuild, Ecosystem::Gradle),
            (
                "build.gradle.kts",
                ManifestKind::GradleBuild,
                Ecosystem::Gradle,
            ),
            ("Gemfile", ManifestKind::Gemfile, Ecosystem::Rubygems),
        ] {
            assert_eq!(ManifestKind::of_file(name), Some(kind), "{name}");
            assert_eq!(kind.ecosystem(), ecosystem, "{name}");
        }
        for name in [
            ".sln",
            "cmakelists.txt",
            "package.swift",
            "Gemfile.lock",
            "gradle.properties",
        ] {
            assert_eq!(ManifestKind::of_file(name), None, "{name}");
        }
    }

    #[test]
    fn package_swift_gives_the_package_name_and_its_dependencies() {
        let manifest = r#"// swift-tools-version:5.9
// let package = Package(name: "commented-out")
import PackageDescription

/* A block comment /* nested */ with Package(name: "neither") */
let package = Package(
    name: "Lantern",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.2.0"),
        .package(path: "../LanternCore"),
        .package(name: "Legacy", url: "https://example.com/legacy", .upToNextMajor(from: "2.0.0")),
    ],
    targets: [
        .executableTarget(name: "lantern", dependencies: [
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    ]
)
"#;
        let facts = analyze(ManifestKind::SwiftPackage, manifest).unwrap();
        assert_eq!(facts.ecosystem, Ecosystem::Swift);
        assert_eq!(facts.name.as_deref(), Some("Lantern"));
        assert_eq!(facts.version, None);
        assert_eq!(
            dependencies(&facts),
            vec![
                ("LanternCore", "normal"),
                ("Legacy", "normal"),
                ("swift-argument-parser", "normal"),
            ]
        );
        // A computed name names nothing.
        let computed = "let package = Package(name: \"\\(prefix)Kit\")";
        assert_eq!(
            analyze(ManifestKind::SwiftPackage, computed).unwrap().name,
            None
        );
        let spaced = "let package = Package (\n  name : \"Spaced\" )";
        assert_eq!(
            analyze(ManifestKind::SwiftPackage, spaced)
                .unwrap()
                .name
                .as_deref(),
            Some("Spaced")
        );
    }

    #[test]
    fn cmake_lists_gives_the_project_its_version_subdirectories_and_packages() {
        let lists = r#"cmake_minimum_required(VERSION 3.20)
# project(commented)
#[[ project(bracket-commented) ]]
PROJECT(lantern
        VERSION 1.2.0
        DESCRIPTION "A lamp (with parentheses)"
        LANGUAGES C CXX)
project(second VERSION 9)
if(BUILD_TESTING AND (NOT WIN32))
  add_subdirectory(tests/)
endif()
add_subdirectory("lib")
add_subdirectory(${EXTRA_DIR})
find_package(Threads REQUIRED)
Find_Package([[ZLIB]] 1.2)
"#;
        let facts = analyze(ManifestKind::CmakeLists, lists).unwrap();
        assert_eq!(facts.ecosystem, Ecosystem::Cmake);
        assert_eq!(facts.name.as_deref(), Some("lantern"));
        assert_eq!(facts.version.as_deref(), Some("1.2.0"));
        assert_eq!(facts.workspaces, vec!["tests", "lib"]);
        assert_eq!(
            dependencies(&facts),
            vec![("Threads", "normal"), ("ZLIB", "normal")]
        );
        // A subdirectory's CMakeLists.txt calls no project(): it declares no package.
        let sub = analyze(ManifestKind::CmakeLists, "add_library(lamp lamp.c)\n").unwrap();
        assert_eq!(sub.name, None);
        // A name from a variable is computed, not read.
        let computed = analyze(ManifestKind::CmakeLists, "project(${NAME} VERSION ${V})").unwrap();
        assert_eq!((computed.name, computed.version), (None, None));
        let bare = analyze(ManifestKind::CmakeLists, "project(\"quoted\")").unwrap();
        assert_eq!((bare.name.as_deref(), bare.version), (Some("quoted"), None));
    }

    #[test]
    fn a_solution_lists_its_projects_directories() {
        let sln = "\u{feff}
Microsoft Visual Studio Solution File, Format Version 12.00
Project(\"{2150E333-8FDC-42A3-9474-1A3956D46DE8}\") = \"src\", \"src\", \"{11111111-0000-0000-0000-000000000000}\"
EndProject
Project(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Lantern\", \"src\\Lantern\\Lantern.csproj\", \"{22222222-0000-0000-0000-000000000000}\"
EndProject
Project(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Lantern.Tests\", \"tests\\Lantern.Tests.csproj\", \"{33333333-0000-0000-0000-000000000000}\"
EndProject
Project(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Root\", \"Root.csproj\", \"{44444444-0000-0000-0000-000000000000}\"
EndProject
Global
EndGlobal
";
        let facts = analyze_file(ManifestKind::DotnetSolution, sln, "Lantern.sln").unwrap();
        assert_eq!(facts.ecosystem, Ecosystem::Dotnet);
        assert_eq!(facts.name.as_deref(), Some("Lantern.sln"));
        assert_eq!(facts.workspaces, vec!["src/Lantern", "tests"]);
        let slnx = r#"<Solution>
  <Folder Name="/src/"><Project Path="src/Lantern/Lantern.csproj" /></Folder>
  <Project Path="tests\Lantern.Tests.csproj" />
</Solution>"#;
        let facts = analyze_file(ManifestKind::DotnetSolution, slnx, "Lantern.slnx").unwrap();
        assert_eq!(facts.name.as_deref(), Some("Lantern.slnx"));
        assert_eq!(facts.workspaces, vec!["src/Lantern", "tests"]);
        assert!(matches!(
            analyze_file(ManifestKind::DotnetSolution, "<Solution>", "x.slnx"),
            Err(ManifestError::Xml(_))
        ));
    }

    #[test]
    fn a_gradle_build_script_gives_its_version_and_literal_dependencies() {
        let groovy = r#"plugins {
    id 'java-library'
    id("org.jetbrains.kotlin.jvm") version "1.9.0"
}
version = '2.1.0'
android { compileSdk 34; defaultConfig { versionCode 3 } }
dependencies {
    implementation project(':core')
    api(project(path: ":app:ui"))
    implementation 'com.google.guava:guava:32.1.2-jre'
    testImplementation "junit:junit:4.13.2"
    compileOnly 'org.projectlombok:lombok:1.18.30'
    annotationProcessor 'org.projectlombok:lombok:1.18.30'
    implementation(libs.okhttp)
    implementation group: 'g', name: 'n', version: '1'
    println 'not:a:dependency'
}
subprojects { version = '9.9.9' }
"#;
        let facts = analyze(ManifestKind::GradleBuild, groovy).unwrap();
        assert_eq!(facts.ecosystem, Ecosystem::Gradle);
        assert_eq!(facts.name, None, "a build script names no project");
        assert_eq!(facts.version.as_deref(), Some("2.1.0"));
        assert_eq!(
            dependencies(&facts),
            vec![
                ("core", "normal"),
                ("guava", "normal"),
                ("junit", "dev"),
                ("lombok", "build"),
                ("lombok", "peer"),
                ("ui", "normal"),
            ]
        );
        let kotlin = "version = property(\"v\")\ndependencies {\n  androidTestImplementation(\"androidx.test:runner:1.5\")\n}\n";
        let facts = analyze(ManifestKind::GradleBuild, kotlin).unwrap();
        assert_eq!(facts.version, None);
        assert_eq!(dependencies(&facts), vec![("runner", "dev")]);
    }

    #[test]
    fn gradle_settings_include_no_composite_builds() {
        let facts = analyze(
            ManifestKind::GradleSettings,
            "includeBuild('build-logic')\ninclude(\"core\")\n",
        )
        .unwrap();
        assert_eq!(facts.workspaces, vec!["core"]);
        assert_eq!(facts.name, None);
    }

    #[test]
    fn a_gemfile_gives_its_gems_development_and_test_groups_as_dev() {
        let gemfile = r#"source "https://rubygems.org"
ruby "3.2.2"

gem "rails", "~> 7.1"
gem 'lantern', path: "../lantern"
gem "rubocop", require: false, group: :development

if ENV["PG"]
  gem "pg"
end

group :development, :test do
  gem "rspec-rails"
  platforms :mri do
    gem "byebug"
  end
end

group :production do
  gem "puma"
end
gem "bootsnap" # after every block closed
"#;
        let facts = analyze(ManifestKind::Gemfile, gemfile).unwrap();
        assert_eq!(facts.ecosystem, Ecosystem::Rubygems);
        assert_eq!(facts.name, None, "a Gemfile names no package");
        assert_eq!(
            dependencies(&facts),
            vec![
                ("bootsnap", "normal"),
                ("byebug", "dev"),
                ("lantern", "normal"),
                ("pg", "normal"),
                ("puma", "normal"),
                ("rails", "normal"),
                ("rspec-rails", "dev"),
                ("rubocop", "dev"),
            ]
        );
    }

    /// Manifests are untrusted: empty, huge, unbalanced or nonsensical text gives facts or an
    /// error, never a panic or a hang. (Invalid UTF-8 never gets here: observation reports it
    /// as `invalid-utf8` and analyses nothing.)
    #[test]
    fn hostile_text_reads_as_little_as_it_says() {
        let kinds = [
            ManifestKind::SwiftPackage,
            ManifestKind::CmakeLists,
            ManifestKind::DotnetSolution,
            ManifestKind::GradleBuild,
            ManifestKind::GradleSettings,
            ManifestKind::Gemfile,
        ];
        let huge_parens = format!("project({}", "(".repeat(200_000));
        let huge_closing = ")".repeat(200_000);
        let hostile = [
            "",
            "(",
            ")",
            "\"",
            "[[",
            "#[[",
            "#[==[ never closed",
            "/* never closed",
            "Package(",
            "Package(name:",
            "Package(name: \"open",
            ".package(url:",
            "project(",
            "project(\"unterminated",
            "project([=[x",
            "project(a VERSION",
            "Project(\"",
            "gem",
            "gem \"",
            "end\nend\nend",
            "group :test do",
            "dependencies { implementation project(",
            "version =",
            "}}}}{{{",
            "é(ü\"ß[[ñ",
            huge_parens.as_str(),
            huge_closing.as_str(),
        ];
        for kind in kinds {
            for text in hostile {
                let _ = analyze_file(kind, text, "x");
            }
        }
        let facts = analyze(ManifestKind::CmakeLists, &huge_parens).unwrap();
        assert_eq!(
            facts.name, None,
            "a project() that never closes names no project"
        );
        let many = "project(p VERSION 1)\n".repeat(100_000);
        let facts = analyze(ManifestKind::CmakeLists, &many).unwrap();
        assert_eq!(facts.name.as_deref(), Some("p"));
        let swift = format!(
            "let package = Package(name: \"big\"){}",
            "// x\n".repeat(100_000)
        );
        assert_eq!(
            analyze(ManifestKind::SwiftPackage, &swift)
                .unwrap()
                .name
                .as_deref(),
            Some("big")
        );
    }
}
