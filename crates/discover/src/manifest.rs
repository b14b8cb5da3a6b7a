//! Manifest analyzers: package.json, Cargo.toml, pyproject.toml, go.mod, Maven's pom.xml,
//! Gradle's settings.gradle(.kts), .NET project files, Ruby gemspecs and composer.json. Pure functions of a manifest's text
//! (and, for a .NET project, its file name, which names the project).

use std::collections::BTreeMap;

use doc_bridge_model::snapshot::{Dependency, Ecosystem};

/// Bumped whenever output for the same input could change.
pub const ANALYZER_VERSION: u32 = 3;

/// The manifest file names, and the ecosystem each declares.
pub fn manifest_ecosystem(file_name: &str) -> Option<Ecosystem> {
    match file_name {
        "package.json" => Some(Ecosystem::Npm),
        "Cargo.toml" => Some(Ecosystem::Cargo),
        "pyproject.toml" => Some(Ecosystem::Python),
        "go.mod" => Some(Ecosystem::Go),
        "pom.xml" => Some(Ecosystem::Maven),
        "settings.gradle" | "settings.gradle.kts" => Some(Ecosystem::Gradle),
        "composer.json" => Some(Ecosystem::Composer),
        name if name.len() > ".gemspec".len() && name.ends_with(".gemspec") => {
            Some(Ecosystem::Rubygems)
        }
        name if [".csproj", ".fsproj", ".vbproj"]
            .iter()
            .any(|ext| name.len() > ext.len() && name.ends_with(ext)) =>
        {
            Some(Ecosystem::Dotnet)
        }
        _ => None,
    }
}

/// What a manifest declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestFacts {
    /// Which ecosystem.
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
}

impl ManifestFacts {
    fn empty(ecosystem: Ecosystem) -> Self {
        ManifestFacts {
            ecosystem,
            name: None,
            version: None,
            scripts: BTreeMap::new(),
            workspaces: Vec::new(),
            dependencies: Vec::new(),
            package_manager: None,
            lib_path: None,
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
/// is named by its file (`Lantern.Core.csproj` → `Lantern.Core`).
pub fn analyze_file(
    ecosystem: Ecosystem,
    text: &str,
    file_name: &str,
) -> Result<ManifestFacts, ManifestError> {
    let mut facts = analyze(ecosystem, text)?;
    if ecosystem == Ecosystem::Dotnet && facts.name.is_none() {
        let stem = file_name
            .rsplit_once('.')
            .map_or(file_name, |(stem, _)| stem);
        facts.name = Some(stem.to_owned()).filter(|s| !s.is_empty());
    }
    Ok(facts)
}

/// Parses a manifest. The error is a short, value-free description of what is wrong.
pub fn analyze(ecosystem: Ecosystem, text: &str) -> Result<ManifestFacts, ManifestError> {
    let mut facts = match ecosystem {
        Ecosystem::Npm => package_json(text)?,
        Ecosystem::Cargo => cargo_toml(text)?,
        Ecosystem::Python => pyproject(text)?,
        Ecosystem::Go => go_mod(text),
        Ecosystem::Maven => pom_xml(text)?,
        Ecosystem::Gradle => gradle_settings(text),
        Ecosystem::Dotnet => dotnet_project(text)?,
        Ecosystem::Rubygems => gemspec(text),
        Ecosystem::Composer => composer_json(text)?,
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
    let mut facts = ManifestFacts::empty(Ecosystem::Maven);
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
    let mut facts = ManifestFacts::empty(Ecosystem::Gradle);
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
        } else if let Some(rest) = line.strip_prefix("include") {
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

/// A .NET project file: `AssemblyName` (else the file's name, see [`analyze_file`]),
/// `Version`, `PackageReference` dependencies.
fn dotnet_project(text: &str) -> Result<ManifestFacts, ManifestError> {
    let document = xml(text)?;
    let mut facts = ManifestFacts::empty(Ecosystem::Dotnet);
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
    let mut facts = ManifestFacts::empty(Ecosystem::Rubygems);
    let first_literal = |text: &str| -> Option<String> {
        let start = text.find(['"', '\''])?;
        let quote = text[start..].chars().next()?;
        let rest = &text[start + 1..];
        let end = rest.find(quote)?;
        Some(rest[..end].to_owned()).filter(|s| !s.is_empty())
    };
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

/// `composer.json`: `name`, `version`, `scripts` (names only), `require` (platform entries such
/// as `php` and `ext-json` left out) and `require-dev`.
fn composer_json(text: &str) -> Result<ManifestFacts, ManifestError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ManifestError::Json(e.to_string()))?;
    let object = value.as_object().ok_or(ManifestError::NotAnObject)?;
    let mut facts = ManifestFacts::empty(Ecosystem::Composer);
    let string = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    facts.name = string("name");
    facts.version = string("version");
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
    let mut facts = ManifestFacts::empty(Ecosystem::Npm);
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
    let mut facts = ManifestFacts::empty(Ecosystem::Cargo);
    if let Some(package) = table.get("package").and_then(|v| v.as_table()) {
        facts.name = package
            .get("name")
            .and_then(|v| v.as_str())
            .map(str::to_owned);
        facts.version = package
            .get("version")
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
    let mut facts = ManifestFacts::empty(Ecosystem::Python);
    let project = table.get("project").and_then(|v| v.as_table());
    let poetry = table
        .get("tool")
        .and_then(|t| t.get("poetry"))
        .and_then(|v| v.as_table());
    for section in [project, poetry].into_iter().flatten() {
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
    let mut facts = ManifestFacts::empty(Ecosystem::Go);
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
            Ecosystem::Npm,
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
            Ecosystem::Cargo,
            "[package]\nname = \"engine\"\n[dependencies]\nu = { package = \"util\", path = \"../util\" }\n",
        )
        .unwrap();
        assert_eq!(facts.dependencies[0].name, "util");
        let facts = analyze(Ecosystem::Cargo, "[workspace]\nmembers = [\"crates/*\"]\n").unwrap();
        assert_eq!(facts.name, None);
        assert_eq!(facts.workspaces, ["crates/*"]);
    }

    #[test]
    fn go_mod_reads_module_and_require_block() {
        let facts = analyze(
            Ecosystem::Go,
            "module example.com/gofx // main\n\nrequire (\n\tgolang.org/x/sync v0.1.0\n)\nrequire a.b/c v1\n",
        )
        .unwrap();
        assert_eq!(facts.name.as_deref(), Some("example.com/gofx"));
        assert_eq!(facts.dependencies.len(), 2);
    }

    #[test]
    fn broken_manifests_are_errors_not_panics() {
        assert!(analyze(Ecosystem::Npm, "{\"name\": ").is_err());
        assert!(analyze(Ecosystem::Npm, "[1,2]").is_err());
        assert!(analyze(Ecosystem::Cargo, "[package\nname=").is_err());
        assert!(
            analyze(Ecosystem::Python, "[project]\nname = \"pyfx\"\n")
                .unwrap()
                .name
                .is_some()
        );
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
        let facts = analyze(Ecosystem::Maven, pom).unwrap();
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
            Ecosystem::Gradle,
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
        let facts = analyze_file(Ecosystem::Dotnet, csproj, "Lantern.Core.csproj").unwrap();
        assert_eq!(facts.name.as_deref(), Some("Lantern.Core"));
        assert_eq!(facts.version.as_deref(), Some("2.0.1"));
        assert_eq!(facts.dependencies[0].name, "Serilog");
        let named = csproj.replace("<Version>", "<AssemblyName>Lantern</AssemblyName><Version>");
        let facts = analyze_file(Ecosystem::Dotnet, &named, "Lantern.Core.csproj").unwrap();
        assert_eq!(facts.name.as_deref(), Some("Lantern"));
        assert_eq!(manifest_ecosystem("App.csproj"), Some(Ecosystem::Dotnet));
        assert_eq!(manifest_ecosystem(".csproj"), None);
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
        if let Ok(facts) = analyze(Ecosystem::Maven, bomb) {
            assert!(facts.name.map_or(0, |n| n.len()) < 1_000_000);
        }
        assert!(matches!(
            analyze(Ecosystem::Maven, "<project><artifactId>x</project>"),
            Err(ManifestError::Xml(_))
        ));
        // Deep nesting is read without recursion (roxmltree parses iteratively, the project
        // reader walks descendants iteratively).
        let deep = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
        let facts = analyze_file(Ecosystem::Dotnet, &deep, "Deep.csproj").unwrap();
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
        let facts = analyze(Ecosystem::Rubygems, spec).unwrap();
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
            manifest_ecosystem("lantern.gemspec"),
            Some(Ecosystem::Rubygems)
        );
    }

    #[test]
    fn composer_json_gives_scripts_and_package_dependencies_only() {
        let composer = r#"{"name": "acme/lantern", "scripts": {"test": "phpunit", "lint": ["a", "b"]},
            "require": {"php": ">=8.1", "ext-json": "*", "guzzlehttp/guzzle": "^7"},
            "require-dev": {"phpunit/phpunit": "^10"}}"#;
        let facts = analyze(Ecosystem::Composer, composer).unwrap();
        assert_eq!(facts.name.as_deref(), Some("acme/lantern"));
        assert_eq!(
            facts.scripts.keys().collect::<Vec<_>>(),
            vec!["lint", "test"]
        );
        let deps: Vec<&str> = facts.dependencies.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(deps, vec!["guzzlehttp/guzzle", "phpunit/phpunit"]);
        assert!(matches!(
            analyze(Ecosystem::Composer, "[1]"),
            Err(ManifestError::NotAnObject)
        ));
    }
}
