//! Handoffs: "to change X, start here, read this, run these checks" (doc-bridge-index-v1,
//! `AgentHandoffV1`).

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::index::{Handoff, HandoffTarget};
use doc_bridge_model::snapshot::{Document, Ecosystem, Package, RelationKind};
use doc_bridge_model::{EntityId, RelPath};

use crate::graph::Graph;

/// A configured or derived ownership record, as handoffs use it.
#[derive(Debug, Clone)]
pub struct Owner {
    /// The ownership id.
    pub id: String,
    /// The owned directory.
    pub path: RelPath,
    /// Checks that override every other source.
    pub checks: Vec<String>,
    /// The owner's agent doc.
    pub agent_doc: Option<RelPath>,
}

/// How many documents a handoff lists to read before editing (`readBeforeEditing`, the
/// explanation), besides `AGENTS.md`.
const READ_FIRST: usize = 5;

/// Where a handoff starts and what it reads, best first, each with the reason it was chosen: the
/// first `limit` of the list. The list is built in stages, each appending after the ones
/// before, so the stages after the one that fills it are never worked out (the links-to hop is
/// most of the cost of a package read by many documents).
pub fn reading_list(
    graph: &Graph<'_>,
    scope: &RelPath,
    targets: &BTreeSet<EntityId>,
    owner: Option<&Owner>,
    agent_root: Option<&RelPath>,
    owner_names: &[&str],
    limit: usize,
) -> Vec<(RelPath, &'static str)> {
    let mut ordered = Ordered::default();
    let push = |path: RelPath, reason: &'static str, list: &mut Ordered| list.push(path, reason);
    let full = |ordered: &mut Ordered| {
        let full = ordered.list.len() >= limit;
        if full {
            ordered.list.truncate(limit);
        }
        full
    };
    // 1. The ownership agent doc, then agent docs that name an owner of the scope.
    if let Some(doc) = owner
        .and_then(|o| o.agent_doc.clone())
        .filter(|p| graph.has_file(p.as_str()))
    {
        push(doc, "ownership agent doc", &mut ordered);
    }
    let mut owned: Vec<&Document> = owner_names
        .iter()
        .flat_map(|name| graph.agent_docs_owned_by(name).into_owned())
        .collect();
    owned.dedup_by(|a, b| a.path == b.path);
    owned.sort_by(|a, b| a.path.cmp(&b.path));
    for doc in owned {
        push(doc.path.clone(), "agent doc naming the owner", &mut ordered);
    }
    if full(&mut ordered) {
        return ordered.list;
    }
    // 2. Covering documents; then the scope's own README (a package's front page), then
    // 3. mentioning documents. Agent docs first, changelogs, tests and the like last (a
    // changelog names every module it ever touched), then the more canonical.
    for (kind, reason) in [
        (RelationKind::Covers, "covers it"),
        (RelationKind::Mentions, "mentions it"),
    ] {
        if kind == RelationKind::Mentions
            && let Some(front) = front_page(graph, scope)
        {
            push(front, "its README", &mut ordered);
        }
        let mut counts: BTreeMap<&EntityId, usize> = BTreeMap::new();
        for target in targets {
            for relation in graph.inbound(target).iter().filter(|r| r.kind == kind) {
                *counts.entry(&relation.from).or_default() += 1;
            }
        }
        let mut docs: Vec<(&Document, usize)> = counts
            .into_iter()
            .filter_map(|(id, n)| graph.document(id).map(|d| (d, n)))
            .collect();
        // The key once per document (its role and inbound links take a lookup each), not per
        // comparison.
        docs.sort_by_cached_key(|(doc, n)| {
            (
                std::cmp::Reverse(doc.agent_doc),
                secondary(doc),
                std::cmp::Reverse(*n),
                std::cmp::Reverse(graph.inbound_links(&doc.id)),
                doc.path.clone(),
            )
        });
        for (doc, _) in docs {
            push(doc.path.clone(), reason, &mut ordered);
        }
        if full(&mut ordered) {
            return ordered.list;
        }
    }
    // 4. One links-to hop from what was found so far.
    let found: Vec<EntityId> = ordered
        .list
        .iter()
        .map(|(p, _)| EntityId::document(p))
        .collect();
    let mut hop: BTreeSet<RelPath> = BTreeSet::new();
    for id in &found {
        for relation in graph
            .inbound(id)
            .iter()
            .filter(|r| r.kind == RelationKind::LinksTo)
        {
            if let Some(doc) = graph.document(&relation.from) {
                hop.insert(doc.path.clone());
            }
        }
    }
    for path in hop {
        push(
            path,
            "links to a document that covers or mentions it",
            &mut ordered,
        );
    }
    if full(&mut ordered) {
        return ordered.list;
    }
    // Documents inside the scope itself (a package's README), then the corpus index.
    let mut inside: Vec<&Document> = if scope.is_root() {
        Vec::new()
    } else {
        graph.documents_within(scope).to_vec()
    };
    inside.sort_by(|a, b| {
        a.path
            .depth()
            .cmp(&b.path.depth())
            .then(a.path.cmp(&b.path))
    });
    for doc in inside {
        push(doc.path.clone(), "inside it", &mut ordered);
    }
    if full(&mut ordered) {
        return ordered.list;
    }
    let index_candidates = [
        agent_root.and_then(|r| r.join("index.md")),
        agent_root.and_then(|r| r.join("README.md")),
        RelPath::new("README.md"),
    ];
    if let Some(index) = index_candidates
        .into_iter()
        .flatten()
        .find(|p| graph.has_file(p.as_str()))
    {
        push(index, "corpus index", &mut ordered);
    }
    ordered.list
}

/// The README (or `index.md`) directly in `scope`, when the scope is a directory below the root
/// that has one.
fn front_page(graph: &Graph<'_>, scope: &RelPath) -> Option<RelPath> {
    if scope.is_root() {
        return None;
    }
    ["README.md", "readme.md", "README.mdx", "index.md"]
        .into_iter()
        .filter_map(|name| scope.join(name))
        .find(|p| graph.document(&EntityId::document(p)).is_some())
}

/// Whether a document is a changelog, test, fixture, example or other secondary file
/// (`file_role`): read after the documents that explain.
fn secondary(doc: &Document) -> bool {
    crate::file_role::file_role(&doc.path).is_some()
}

/// A reading list under construction: first reason wins, each path once (a set beside the list,
/// since a package's list can hold thousands of documents).
#[derive(Default)]
struct Ordered {
    list: Vec<(RelPath, &'static str)>,
    seen: std::collections::HashSet<RelPath>,
}

impl Ordered {
    fn push(&mut self, path: RelPath, reason: &'static str) {
        if self.seen.insert(path.clone()) {
            self.list.push((path, reason));
        }
    }
}

/// Checks for a package: (commands, source). The graph answers what one package cannot: the
/// Gradle settings that include a project, the wrapper of its build, a Ruby package's `spec/`.
pub fn package_checks(graph: &Graph<'_>, package: &Package) -> (Vec<String>, &'static str) {
    let member = !package.path.is_root();
    let name = &package.name;
    let dir = package.path.as_str();
    if package.ecosystem == Ecosystem::Npm {
        let script = |script: &str| match (package.package_manager.as_str(), member) {
            ("pnpm", true) => format!("pnpm --filter {name} {script}"),
            ("yarn", true) => format!("yarn workspace {name} {script}"),
            ("bun", true) => format!("bun run --filter {name} {script}"),
            (pm, true) => format!(
                "{} run {script} -w {name}",
                if pm == "npm" { "npm" } else { pm }
            ),
            (pm, false) => format!("{pm} run {script}"),
        };
        let wanted = ["test", "lint", "typecheck", "check"];
        let checks: Vec<String> = wanted
            .iter()
            .filter(|s| package.scripts.contains_key(**s))
            .map(|s| script(s))
            .collect();
        return if checks.is_empty() {
            (Vec::new(), "none")
        } else {
            (checks, "package-scripts")
        };
    }
    let default = match package.ecosystem {
        Ecosystem::Cargo => format!("cargo test -p {name}"),
        Ecosystem::Python if member => format!("python -m pytest {dir}"),
        Ecosystem::Python => "python -m pytest".to_owned(),
        Ecosystem::Go if member => format!("go -C {dir} test ./..."),
        Ecosystem::Go => "go test ./...".to_owned(),
        Ecosystem::Maven if member => format!("mvn -pl {dir} test"),
        Ecosystem::Maven => "mvn test".to_owned(),
        Ecosystem::Gradle => gradle_check(graph, package),
        Ecosystem::Dotnet => format!("dotnet test {}", package.manifest),
        Ecosystem::Rubygems => ruby_check(graph, package),
        Ecosystem::Composer if package.scripts.contains_key("test") => "composer test".to_owned(),
        Ecosystem::Composer => "vendor/bin/phpunit".to_owned(),
        Ecosystem::Swift if member => format!("swift test --package-path {dir}"),
        Ecosystem::Swift => "swift test".to_owned(),
        Ecosystem::Cmake if member => format!(
            "cmake -S {dir} -B {dir}/build && cmake --build {dir}/build && ctest --test-dir {dir}/build"
        ),
        Ecosystem::Cmake => {
            "cmake -B build && cmake --build build && ctest --test-dir build".to_owned()
        }
        Ecosystem::Npm => String::new(),
    };
    (vec![default], "package-manager-default")
}

/// A Gradle project's check, run from the repository root: its own task (`:app:ui:test`) when
/// the settings of a build above it include it, else its build's `test` (`-p DIR` for a build
/// outside the root); through the nearest wrapper at or above the build (`./gradlew`) when
/// there is one.
fn gradle_check(graph: &Graph<'_>, package: &Package) -> String {
    let is_settings = |p: &Package| {
        p.ecosystem == Ecosystem::Gradle && p.manifest.file_name().starts_with("settings.")
    };
    let including = graph
        .packages()
        .filter(|settings| is_settings(settings) && settings.path != package.path)
        .filter_map(|settings| {
            let project = package.path.strip_dir(&settings.path)?;
            settings
                .workspaces
                .iter()
                .any(|w| w == project)
                .then_some((settings, project))
        })
        .max_by_key(|(settings, _)| settings.path.depth());
    let (build, task) = match including {
        Some((settings, project)) => (
            &settings.path,
            format!(":{}:test", project.replace('/', ":")),
        ),
        None => (&package.path, "test".to_owned()),
    };
    let project_dir = if build.is_root() {
        String::new()
    } else {
        format!(" -p {build}")
    };
    format!("{}{project_dir} {task}", gradle_command(graph, build))
}

/// `./gradlew` (or `DIR/gradlew`) for the nearest wrapper at or above `build`, else `gradle`.
fn gradle_command(graph: &Graph<'_>, build: &RelPath) -> String {
    let mut dir = build.clone();
    loop {
        if let Some(wrapper) = dir.join("gradlew")
            && graph.has_file(wrapper.as_str())
        {
            return if dir.is_root() {
                "./gradlew".to_owned()
            } else {
                wrapper.as_str().to_owned()
            };
        }
        if dir.is_root() {
            return "gradle".to_owned();
        }
        dir = dir.parent();
    }
}

/// A Ruby gem's or application's check: `bundle exec rspec` when it depends on RSpec (`rspec`,
/// `rspec-rails`, …) or has a `spec/` directory, else `bundle exec rake test`; run in the
/// package's directory, where its Gemfile and specs are.
fn ruby_check(graph: &Graph<'_>, package: &Package) -> String {
    let rspec = package
        .dependencies
        .iter()
        .any(|d| d.name == "rspec" || d.name.starts_with("rspec-"))
        || package
            .path
            .join("spec")
            .is_some_and(|spec| graph.has_files_below(&spec));
    let command = if rspec {
        "bundle exec rspec"
    } else {
        "bundle exec rake test"
    };
    if package.path.is_root() {
        command.to_owned()
    } else {
        format!("cd {} && {command}", package.path)
    }
}

/// Everything a handoff needs to know about its target.
pub struct HandoffInput<'a> {
    /// `package`, `area`, `module`, `document` or `ownership`.
    pub target_type: &'a str,
    /// Package name, ownership id or entity id.
    pub target_id: String,
    /// Directory or file.
    pub path: RelPath,
    /// Entities whose covering or mentioning documents count.
    pub targets: BTreeSet<EntityId>,
    /// The package the target belongs to.
    pub package: Option<&'a Package>,
    /// The ownership record that applies.
    pub owner: Option<&'a Owner>,
    /// Names an agent doc's `owner` may use for this target.
    pub owner_names: Vec<&'a str>,
    /// A file that must be read first (a document target reads itself first).
    pub first_read: Option<RelPath>,
}

/// A handoff with what the index leaves out of `AgentHandoffV1`: where its checks came from,
/// the document it starts at (if one covers the target), and why each file was chosen.
pub struct BuiltHandoff {
    /// The `AgentHandoffV1` itself.
    pub handoff: Handoff,
    /// Where `checks` came from: `ownership`, `front-matter`, `package-scripts`,
    /// `package-manager-default` or `none`.
    pub checks_source: &'static str,
    /// The document `startHere` names, when a document covers or mentions the target.
    pub start_document: Option<RelPath>,
    /// One line per reading-list entry and for the checks, saying why it was chosen.
    pub explain: Vec<String>,
}

/// Builds a handoff, with what explains it.
pub fn build_handoff(
    graph: &Graph<'_>,
    input: &HandoffInput<'_>,
    agent_root: Option<&RelPath>,
) -> BuiltHandoff {
    // One more than is read: the target itself, when it is a document, moves to the front.
    let mut reading = reading_list(
        graph,
        &input.path,
        &input.targets,
        input.owner,
        agent_root,
        &input.owner_names,
        READ_FIRST + 1,
    );
    if let Some(first) = &input.first_read {
        reading.retain(|(p, _)| p != first);
        reading.insert(0, (first.clone(), "the target itself"));
    }
    let mut explain: Vec<String> = reading
        .iter()
        .take(READ_FIRST)
        .map(|(path, reason)| format!("{path}: {reason}"))
        .collect();
    let start_document = reading.first().map(|(p, _)| p.clone());
    let mut read_before_editing: Vec<RelPath> = reading
        .iter()
        .take(READ_FIRST)
        .map(|(p, _)| p.clone())
        .collect();
    if let Some(agents) = RelPath::new("AGENTS.md").filter(|p| graph.has_file(p.as_str()))
        && !read_before_editing.contains(&agents)
    {
        read_before_editing.push(agents);
    }
    let front_matter_checks: Vec<String> = start_document
        .as_ref()
        .and_then(|p| graph.document(&EntityId::document(p)))
        .map(|d| d.checks.clone())
        .unwrap_or_default();
    let (checks, checks_source) = if let Some(owner) = input.owner.filter(|o| !o.checks.is_empty())
    {
        (owner.checks.clone(), "ownership")
    } else if !front_matter_checks.is_empty() {
        (front_matter_checks, "front-matter")
    } else if let Some(package) = input.package {
        package_checks(graph, package)
    } else {
        (Vec::new(), "none")
    };
    let mut notes = Vec::new();
    if let Some(package) = input.package {
        let mut note = format!(
            "{} package `{}` at {}",
            ecosystem_name(package.ecosystem),
            package.name,
            package.path
        );
        // The targets are the package's modules only when the package is the target: a module
        // or an area inside it counts its own, which is no fact about the package.
        if input.target_type == "package" {
            let modules = input
                .targets
                .iter()
                .filter(|id| id.as_str().starts_with("module:"))
                .count();
            let noun = if modules == 1 { "module" } else { "modules" };
            note.push_str(&format!(" ({modules} {noun})"));
        }
        notes.push(note);
    }
    if start_document.is_none() {
        notes.push("no document covers or mentions this yet".to_owned());
    }
    // Without a document, start at the package manifest, else at the target itself.
    let start_here = start_document
        .clone()
        .unwrap_or_else(|| match input.package {
            Some(package) if input.target_type == "package" => package.manifest.clone(),
            _ => input.path.clone(),
        });
    explain.push(format!("checks: {checks_source}"));
    let handoff = Handoff {
        handoff_type: "agent-handoff".to_owned(),
        schema_version: 1,
        source: ".doc-bridge/index.json".to_owned(),
        target: HandoffTarget {
            target_type: input.target_type.to_owned(),
            id: input.target_id.clone(),
            path: input.path.clone(),
        },
        start_here,
        read_before_editing,
        edit_roots: vec![input.path.clone()],
        checks,
        notes,
    };
    BuiltHandoff {
        handoff,
        checks_source,
        start_document,
        explain,
    }
}

fn ecosystem_name(ecosystem: Ecosystem) -> &'static str {
    match ecosystem {
        Ecosystem::Npm => "npm",
        Ecosystem::Cargo => "Cargo",
        Ecosystem::Python => "Python",
        Ecosystem::Go => "Go",
        Ecosystem::Maven => "Maven",
        Ecosystem::Gradle => "Gradle",
        Ecosystem::Dotnet => ".NET",
        Ecosystem::Rubygems => "Ruby",
        Ecosystem::Composer => "Composer",
        Ecosystem::Swift => "Swift",
        Ecosystem::Cmake => "CMake",
    }
}

/// The ids of `package` and the areas and modules it owns: the areas it `contains` and their
/// modules (a workspace root does not own its members' code).
pub fn package_targets(graph: &Graph<'_>, package: &Package) -> BTreeSet<EntityId> {
    let mut targets = BTreeSet::from([package.id.clone()]);
    for area in graph
        .outbound(&package.id)
        .iter()
        .filter(|r| r.kind == RelationKind::Contains)
    {
        targets.insert(area.to.clone());
        for module in graph
            .outbound(&area.to)
            .iter()
            .filter(|r| r.kind == RelationKind::Contains)
        {
            targets.insert(module.to.clone());
        }
    }
    targets
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use doc_bridge_model::ContentHash;
    use doc_bridge_model::snapshot::{
        Dependency, Entity, FileClass, FileRecord, Project, Relation, SNAPSHOT_SCHEMA_VERSION,
        SNAPSHOT_TYPE, Snapshot, SnapshotStats,
    };

    /// A package of `ecosystem` declared by `manifest`.
    fn package(ecosystem: Ecosystem, manifest: &str, workspaces: &[&str]) -> Package {
        let manifest = RelPath::new(manifest).unwrap();
        let name = manifest.parent().file_name().to_owned();
        Package {
            readme: None,
            content_hash: ContentHash::of_bytes(b""),
            dependencies: Vec::new(),
            ecosystem,
            id: EntityId::package(&name),
            manifest: manifest.clone(),
            name,
            package_manager: String::new(),
            path: manifest.parent(),
            scripts: BTreeMap::new(),
            version: None,
            workspaces: workspaces.iter().map(|w| (*w).to_owned()).collect(),
        }
    }

    /// A snapshot of `packages` and the inventoried `files`.
    fn snapshot(packages: &[Package], files: &[&str]) -> Snapshot {
        let mut files: Vec<FileRecord> = files
            .iter()
            .map(|path| FileRecord {
                bytes: 0,
                class: FileClass::Other,
                content_hash: ContentHash::of_bytes(b""),
                lines: None,
                linguist: None,
                path: RelPath::new(path).unwrap(),
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Snapshot {
            artifact_type: SNAPSHOT_TYPE.to_owned(),
            schema_version: SNAPSHOT_SCHEMA_VERSION,
            content_hash: ContentHash::of_bytes(b""),
            content_hash_algo: "sha256-semantic-v1".to_owned(),
            generated_at: String::new(),
            project: Project {
                name: "lamps".to_owned(),
                root: ".".to_owned(),
            },
            analyzers: BTreeMap::new(),
            files,
            entities: packages.iter().cloned().map(Entity::Package).collect(),
            relations: Vec::new(),
            diagnostics: Vec::new(),
            stats: SnapshotStats::default(),
        }
    }

    /// The check of each package of `packages`, in order.
    fn checks(packages: &[Package], files: &[&str]) -> Vec<String> {
        let snapshot = snapshot(packages, files);
        let graph = Graph::new(&snapshot);
        packages
            .iter()
            .map(|p| {
                let (checks, source) = package_checks(&graph, p);
                assert_eq!(source, "package-manager-default");
                checks.join("; ")
            })
            .collect()
    }

    /// A document at `path`, or a module when `path` ends in `.ts`, read from the artifact's JSON.
    fn entity(path: &str) -> Entity {
        let hash = ContentHash::of_bytes(path.as_bytes());
        let json = if path.ends_with(".ts") {
            serde_json::json!({
                "kind": "module", "id": format!("module:{path}"), "path": path,
                "language": "typescript", "contentHash": hash, "lineCount": 1, "imports": [], "symbols": [],
            })
        } else {
            serde_json::json!({
                "kind": "document", "id": format!("document:{path}"), "path": path,
                "contentHash": hash, "headings": [], "lineCount": 1, "summary": "", "title": path,
                "titleSource": "heading",
            })
        };
        serde_json::from_value(json).unwrap()
    }

    fn relation(kind: &str, from: &str, to: &str) -> Relation {
        serde_json::from_value(serde_json::json!({
            "evidence": {"lines": [1, 1], "path": from.split_once(':').unwrap().1},
            "from": from, "kind": kind, "provenance": "observed", "to": to,
        }))
        .unwrap()
    }

    #[test]
    fn a_reading_list_cut_short_is_the_start_of_the_whole_list() {
        // A package read by many documents: two cover it, six mention its module, and links
        // between the documents give the links-to hop something to add.
        let mut snapshot = snapshot(
            &[package(Ecosystem::Npm, "lamp/package.json", &[])],
            &["lamp/package.json", "README.md"],
        );
        let mut relations = Vec::new();
        for n in 0..8 {
            let doc = format!("docs/d{n}.md");
            snapshot.entities.push(entity(&doc));
            let kind = if n < 2 { "covers" } else { "mentions" };
            relations.push(relation(
                kind,
                &format!("document:{doc}"),
                "module:lamp/src/wick.ts",
            ));
            let other = format!("document:docs/linking{}.md", n % 3);
            relations.push(relation("links-to", &other, &format!("document:{doc}")));
        }
        for n in 0..3 {
            snapshot
                .entities
                .push(entity(&format!("docs/linking{n}.md")));
        }
        for path in [
            "lamp/README.md",
            "lamp/guide/intro.md",
            "lamp/src/wick.ts",
            "README.md",
        ] {
            snapshot.entities.push(entity(path));
        }
        snapshot.relations = relations;
        let graph = Graph::new(&snapshot);
        let targets =
            BTreeSet::from([EntityId::module(&RelPath::new("lamp/src/wick.ts").unwrap())]);
        let scope = RelPath::new("lamp").unwrap();
        let list = |limit| reading_list(&graph, &scope, &targets, None, None, &[], limit);
        let whole = list(usize::MAX);
        let reasons: BTreeSet<&str> = whole.iter().map(|(_, reason)| *reason).collect();
        assert_eq!(
            reasons,
            BTreeSet::from([
                "corpus index",
                "covers it",
                "inside it",
                "its README",
                "links to a document that covers or mentions it",
                "mentions it",
            ]),
            "every stage adds to the list: {whole:?}"
        );
        for limit in 0..=whole.len() + 1 {
            assert_eq!(
                list(limit),
                whole[..limit.min(whole.len())],
                "limit {limit}"
            );
        }
    }

    #[test]
    fn gradle_projects_run_their_own_task_through_the_builds_wrapper() {
        let packages = [
            package(Ecosystem::Gradle, "settings.gradle", &["core", "app/ui"]),
            package(Ecosystem::Gradle, "core/build.gradle", &[]),
            package(Ecosystem::Gradle, "app/ui/build.gradle.kts", &[]),
            package(Ecosystem::Gradle, "tools/build.gradle", &[]),
            package(Ecosystem::Gradle, "android/settings.gradle.kts", &["app"]),
            package(Ecosystem::Gradle, "android/app/build.gradle", &[]),
        ];
        assert_eq!(
            checks(&packages, &["gradlew", "android/gradlew"]),
            vec![
                "./gradlew test",
                "./gradlew :core:test",
                "./gradlew :app:ui:test",
                "./gradlew -p tools test",
                "android/gradlew -p android test",
                "android/gradlew -p android :app:test",
            ]
        );
        assert_eq!(
            checks(&packages[..2], &[]),
            vec!["gradle test", "gradle :core:test"]
        );
    }

    #[test]
    fn swift_and_cmake_packages_build_and_test_where_they_are() {
        let packages = [
            package(Ecosystem::Swift, "Package.swift", &[]),
            package(Ecosystem::Swift, "Tools/Lint/Package.swift", &[]),
            package(Ecosystem::Cmake, "CMakeLists.txt", &[]),
            package(Ecosystem::Cmake, "native/CMakeLists.txt", &[]),
        ];
        assert_eq!(
            checks(&packages, &[]),
            vec![
                "swift test",
                "swift test --package-path Tools/Lint",
                "cmake -B build && cmake --build build && ctest --test-dir build",
                "cmake -S native -B native/build && cmake --build native/build && ctest --test-dir native/build",
            ]
        );
    }

    #[test]
    fn ruby_packages_run_rspec_when_they_use_it_in_their_directory() {
        let mut gem = package(Ecosystem::Rubygems, "lantern.gemspec", &[]);
        gem.dependencies.push(Dependency {
            kind: "dev".into(),
            name: "rspec-core".into(),
        });
        let packages = [
            gem,
            package(Ecosystem::Rubygems, "apps/web/Gemfile", &[]),
            package(Ecosystem::Rubygems, "apps/admin/Gemfile", &[]),
        ];
        assert_eq!(
            checks(
                &packages,
                &["apps/web/spec/lamp_spec.rb", "apps/admin/test/a.rb"]
            ),
            vec![
                "bundle exec rspec",
                "cd apps/web && bundle exec rspec",
                "cd apps/admin && bundle exec rake test",
            ]
        );
    }

    #[test]
    fn a_solution_is_tested_whole() {
        let packages = [package(Ecosystem::Dotnet, "Lantern.sln", &["src/Lantern"])];
        assert_eq!(checks(&packages, &[]), vec!["dotnet test Lantern.sln"]);
    }
}
