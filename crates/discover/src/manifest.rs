//! Manifest analyzers: package.json, Cargo.toml, pyproject.toml, go.mod. Pure functions of a
//! manifest's text.

use std::collections::BTreeMap;

use doc_bridge_model::snapshot::{Dependency, Ecosystem};

/// Bumped whenever output for the same input could change.
pub const ANALYZER_VERSION: u32 = 1;

/// The manifest file names, and the ecosystem each declares.
pub fn manifest_ecosystem(file_name: &str) -> Option<Ecosystem> {
    match file_name {
        "package.json" => Some(Ecosystem::Npm),
        "Cargo.toml" => Some(Ecosystem::Cargo),
        "pyproject.toml" => Some(Ecosystem::Python),
        "go.mod" => Some(Ecosystem::Go),
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
    /// `package.json` does not parse.
    #[error("invalid JSON: {0}")]
    Json(String),
    /// `package.json` parses to something other than an object.
    #[error("package.json is not a JSON object")]
    NotAnObject,
    /// `Cargo.toml` or `pyproject.toml` does not parse.
    #[error("invalid TOML: {0}")]
    Toml(String),
}

/// Parses a manifest. The error is a short, value-free description of what is wrong.
pub fn analyze(ecosystem: Ecosystem, text: &str) -> Result<ManifestFacts, ManifestError> {
    let mut facts = match ecosystem {
        Ecosystem::Npm => package_json(text)?,
        Ecosystem::Cargo => cargo_toml(text)?,
        Ecosystem::Python => pyproject(text)?,
        Ecosystem::Go => go_mod(text),
    };
    facts.name = facts
        .name
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    facts.dependencies.sort();
    facts.dependencies.dedup();
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
}
