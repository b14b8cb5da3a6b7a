//! Snapshot tests of `snapshot.json` and `index.json` for every fixture repository.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;

fn check_fixture(name: &str) {
    let dir = fixture_copy(name);
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let index = artifact(dir.path(), "index.json");
    for text in [snapshot.to_string(), index.to_string()] {
        assert!(
            !text.contains("MUST_NOT_BE_INDEXED"),
            "an excluded file reached an artifact in {name}"
        );
    }
    insta::assert_json_snapshot!(format!("{name}-snapshot"), snapshot);
    insta::assert_json_snapshot!(format!("{name}-index"), index);
    assert_fields_in_key_order(dir.path(), name);
}

/// The artifact structs declare their fields in key order, so the encoder never reorders an
/// object of theirs; the only exception is an enum's tag, which serde writes first.
fn assert_fields_in_key_order(root: &std::path::Path, name: &str) {
    use doc_bridge_model::sorted_json::reordered_objects;
    let read = |file: &str| std::fs::read(root.join(".doc-bridge").join(file)).unwrap();
    let snapshot: doc_bridge_model::snapshot::Snapshot =
        serde_json::from_slice(&read("snapshot.json")).unwrap();
    let index: doc_bridge_model::index::DocBridgeIndexV1 =
        serde_json::from_slice(&read("index.json")).unwrap();
    let mut reordered = reordered_objects(&snapshot).unwrap();
    reordered.extend(reordered_objects(&index).unwrap());
    let misdeclared: Vec<&Vec<String>> = reordered
        .iter()
        .filter(|keys| {
            let untagged = match keys.split_first() {
                Some((first, rest)) if first == "kind" => rest,
                _ => keys.as_slice(),
            };
            !untagged.is_sorted()
        })
        .collect();
    assert!(
        misdeclared.is_empty(),
        "{name}: objects whose fields are not declared in key order: {misdeclared:?}"
    );
}

#[test]
fn ts_workspace() {
    check_fixture("ts-workspace");
}

#[test]
fn rust_workspace() {
    check_fixture("rust-workspace");
}

#[test]
fn python_package() {
    check_fixture("python-package");
}

#[test]
fn go_module() {
    check_fixture("go-module");
}

#[test]
fn docs_site() {
    check_fixture("docs-site");
}

#[test]
fn sphinx_project() {
    check_fixture("sphinx-project");
}

#[test]
fn asciidoc_site() {
    check_fixture("asciidoc-site");
}

#[test]
fn java_project() {
    check_fixture("java-project");
}

#[test]
fn csharp_project() {
    check_fixture("csharp-project");
}

#[test]
fn ruby_gem() {
    check_fixture("ruby-gem");
}

#[test]
fn ruby_app() {
    check_fixture("ruby-app");
}

#[test]
fn swift_package() {
    check_fixture("swift-package");
}

#[test]
fn cmake_project() {
    check_fixture("cmake-project");
}

#[test]
fn gradle_project() {
    check_fixture("gradle-project");
}

#[test]
fn php_app() {
    check_fixture("php-app");
}

/// The checks `query` hands over for a package of `fixture`.
fn package_checks(fixture: &std::path::Path, package: &str) -> serde_json::Value {
    let out = run(fixture, &["query", "--json", package]);
    let handoff: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(handoff["id"], format!("package:{package}"), "{handoff:#}");
    handoff["checks"].clone()
}

/// The manifests of issue 21's third part declare packages whose default checks run from the
/// repository root: Swift's `swift test`, CMake's configure-build-ctest (a CMakeLists.txt
/// without `project()` declares none), a Gradle build's projects through its wrapper (the
/// build script beside the settings is the root project, no second package), a Ruby
/// application's specs, a solution's `dotnet test`.
#[test]
fn new_manifests_declare_packages_with_their_checks() {
    let swift = fixture_copy("swift-package");
    index(swift.path());
    assert_eq!(
        package_checks(swift.path(), "Lantern"),
        serde_json::json!(["swift test"])
    );

    let cmake = fixture_copy("cmake-project");
    index(cmake.path());
    assert_eq!(
        package_checks(cmake.path(), "lantern"),
        serde_json::json!(["cmake -B build && cmake --build build && ctest --test-dir build"])
    );
    assert_eq!(
        package_checks(cmake.path(), "lantern-bench"),
        serde_json::json!([
            "cmake -S tools/bench -B tools/bench/build && cmake --build tools/bench/build && ctest --test-dir tools/bench/build"
        ])
    );
    let s = artifact(cmake.path(), "snapshot.json");
    let packages: Vec<&str> = s["entities"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "package")
        .map(|e| e["manifest"].as_str().unwrap())
        .collect();
    assert_eq!(
        packages,
        vec!["CMakeLists.txt", "tools/bench/CMakeLists.txt"]
    );

    let gradle = fixture_copy("gradle-project");
    index(gradle.path());
    assert_eq!(
        package_checks(gradle.path(), "kiln"),
        serde_json::json!(["./gradlew test"])
    );
    assert_eq!(
        package_checks(gradle.path(), "app"),
        serde_json::json!(["./gradlew :app:test"])
    );
    let s = artifact(gradle.path(), "snapshot.json");
    assert!(relation_exists(
        &s,
        "package:app",
        "depends-on",
        "package:core"
    ));
    // A subproject owns its code: the settings' root project does not.
    assert!(relation_exists(
        &s,
        "package:core",
        "contains",
        "area:core/src/main"
    ));

    let ruby = fixture_copy("ruby-app");
    index(ruby.path());
    assert_eq!(
        package_checks(ruby.path(), "ruby-app"),
        serde_json::json!(["bundle exec rspec"])
    );

    let csharp = fixture_copy("csharp-project");
    index(csharp.path());
    assert_eq!(
        package_checks(csharp.path(), "Lantern.sln"),
        serde_json::json!(["dotnet test Lantern.sln"])
    );
}

/// Ruby: `require_relative` joins the file's directory, `require "a/b"` loads from a `lib/`
/// directory of the repository, else it is a gem's (external); a relative require of a file
/// that is not there is unresolved.
#[test]
fn ruby_gem_requires_resolve_through_lib() {
    let dir = fixture_copy("ruby-gem");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let server = "module:lib/lantern/server.rb";
    assert!(relation_exists(
        &s,
        "module:lib/lantern.rb",
        "imports",
        server
    ));
    assert!(relation_exists(
        &s,
        "module:test/test_server.rb",
        "imports",
        server
    ));
    let test = s["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "module:test/test_server.rb")
        .unwrap();
    let resolutions: Vec<(&str, &str)> = test["imports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["specifier"].as_str().unwrap(),
                i["resolution"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        resolutions,
        vec![
            ("minitest/autorun", "external"),
            ("lantern/server", "internal"),
            ("../lib/lantern/missing", "unresolved"),
        ]
    );
    assert!(relation_exists(
        &s,
        "document:README.md",
        "mentions",
        server
    ));
    // The gemspec declares the package; its default check is the gem's test task.
    let out = run(dir.path(), &["query", "--json", "lantern"]);
    let handoff: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(handoff["id"], "package:lantern");
    assert_eq!(
        handoff["checks"],
        serde_json::json!(["bundle exec rake test"])
    );
}

/// Java: public top-level types are the symbols, reachable members belong to their type, and
/// imports resolve by package path below any source root (`src/main/java`), a wildcard to the
/// package's modules; an unknown class under the project's own packages is unresolved, one
/// of another project external.
#[test]
fn java_project_imports_resolve_by_package_path() {
    let dir = fixture_copy("java-project");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let server = "module:src/main/java/com/example/app/Server.java";
    let strings = "module:src/main/java/com/example/util/Strings.java";
    assert!(relation_exists(&s, server, "imports", strings));
    let module = s["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == server)
        .unwrap();
    let symbols: Vec<&str> = module["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        symbols,
        vec!["Server"],
        "package-private `Helper` is not exported"
    );
    let members: Vec<String> = module["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{}.{}",
                m["owner"].as_str().unwrap(),
                m["name"].as_str().unwrap()
            )
        })
        .collect();
    assert!(members.contains(&"Server.start".to_owned()), "{members:?}");
    assert!(
        !members.contains(&"Server.restartQuietly".to_owned()),
        "{members:?}"
    );
    let resolutions: Vec<(&str, &str)> = module["imports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["specifier"].as_str().unwrap(),
                i["resolution"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        resolutions,
        vec![
            ("java.util.List", "external"),
            ("com.example.util.Strings", "internal"),
            ("com.example.util.*", "internal"),
            ("com.example.util.Strings", "internal"),
            ("com.example.app.missing.Gone", "unresolved"),
        ]
    );
    // `Strings.trim` in the README is a member; the mention resolves to its module.
    assert!(relation_exists(
        &s,
        "document:README.md",
        "mentions",
        strings
    ));
    // `com/example/` is a package, not an examples directory: the unresolved import is a
    // finding of `check`, and the module is ranked as source.
    let check = run(dir.path(), &["check", "--quiet", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert!(
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "unresolved-import"
                && d["path"] == "src/main/java/com/example/app/Server.java"),
        "{report:#}"
    );
}

fn document_ids(snapshot: &serde_json::Value) -> Vec<String> {
    snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "document")
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

/// reStructuredText documents, `.txt` ones inside the Sphinx source directory only, and their
/// links as Sphinx resolves them: `toctree` entries and `:doc:` names without a suffix, `/` for
/// the source directory, `:ref:` through the label another document defines, `literalinclude`
/// to a module; Sphinx roles as mentions of the module that declares the object.
#[test]
fn sphinx_project_links_resolve_as_sphinx_resolves_them() {
    let dir = fixture_copy("sphinx-project");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let documents = document_ids(&s);
    assert!(documents.contains(&"document:docs/firing.txt".to_owned()));
    assert!(!documents.contains(&"document:requirements.txt".to_owned()));
    for (from, to) in [
        ("docs/index.rst", "document:docs/quickstart.rst"),
        ("docs/index.rst", "document:docs/firing.txt"),
        ("docs/index.rst", "document:docs/api/oven.rst"),
        ("docs/quickstart.rst", "document:docs/api/oven.rst"),
        ("docs/quickstart.rst", "document:docs/firing.txt"),
        ("docs/quickstart.rst", "module:src/kiln/oven.py"),
        ("docs/firing.txt", "document:docs/quickstart.rst"),
        ("README.rst", "document:docs/index.rst"),
    ] {
        assert!(
            relation_exists(&s, &format!("document:{from}"), "links-to", to),
            "{from} → {to}"
        );
    }
    assert!(relation_exists(
        &s,
        "document:docs/api/oven.rst",
        "mentions",
        "module:src/kiln/oven.py"
    ));
    // `preheat` is declared by two modules: only the dotted names tell them apart.
    for module in ["module:src/kiln/oven.py", "module:src/kiln/legacy.py"] {
        assert!(relation_exists(
            &s,
            "document:docs/quickstart.rst",
            "mentions",
            module
        ));
    }
    assert_eq!(
        diagnostic_codes(&s, "docs/quickstart.rst"),
        vec!["broken-link".to_owned()],
        "no ambiguous mention of `preheat`"
    );
    let check = run(dir.path(), &["check", "--quiet", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let orphans: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "orphan-document")
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        orphans,
        vec!["docs/notes.rst"],
        "`:orphan:` exempts draft.rst; the release script's template is data; a test naming \
         notes.rst does not make it data"
    );
}

/// A document the code names by path (a release script's template, from an f-string) is data,
/// no orphan, and its links are written for where the code puts its text; an include of a page
/// `conf.py` writes at build time, and a link to a page it renders from a template, are no
/// broken links; a test that reads a page does not make it data.
#[test]
fn documents_the_code_names_are_data_and_generated_pages() {
    let dir = fixture_copy("sphinx-project");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let named_by = |path: &str| {
        s["entities"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["path"] == path)
            .map(|e| e["namedBy"].clone())
    };
    assert_eq!(
        named_by("scripts/release.minor.rst"),
        Some(serde_json::json!(["module:scripts/release.py"]))
    );
    assert_eq!(named_by("docs/notes.rst"), Some(serde_json::Value::Null));
    let broken: Vec<String> = s["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "broken-link" && d["path"] == "docs/index.rst")
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        broken,
        ["link `glazes.txt` points to `docs/glazes.txt`, which does not exist"],
        "`electric-kilns.txt` is written by conf.py; `download.html` is rendered from a \
         template (`html_additional_pages`)"
    );
    // The template's relative link is written for the announcement it becomes; a page the
    // script names but the documentation links to is a page, and its broken link is reported.
    assert!(diagnostic_codes(&s, "scripts/release.minor.rst").is_empty());
    assert_eq!(
        named_by("docs/quickstart.rst"),
        Some(serde_json::json!(["module:scripts/release.py"]))
    );
    assert_eq!(
        diagnostic_codes(&s, "docs/quickstart.rst"),
        vec!["broken-link".to_owned()]
    );
}

/// What a Sphinx build makes or matches: globbed toctrees, conditional toctrees, gallery pages
/// and images, templates, build output, MyST references (labels, dotted and short object names)
/// and toctrees, compiled modules. Only the broken links are reported: a missing page, an object
/// no module declares, and gallery output of no script.
#[test]
fn sphinx_build_conventions_resolve() {
    let dir = fixture_copy("sphinx-gallery");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    for (from, to) in [
        ("docs/index.rst", "document:docs/news/101.bugfix.rst"),
        ("docs/index.rst", "document:docs/news/102.feature.rst"),
        ("docs/index.rst", "document:docs/guide.md"),
        ("docs/index.rst", "document:docs/dev-notes.rst"),
        ("docs/index.rst", "module:examples/plot_glaze.py"),
        ("docs/guide.md", "document:docs/dev-notes.rst"),
        ("docs/guide.md", "module:src/glaze/core.py"),
        ("docs/guide.md", "document:docs/tutorial.md"),
        ("docs/tutorial.md", "document:docs/guide.md"),
        // A label in a module's docstring (autodoc renders it).
        ("docs/tutorial.md", "module:src/glaze/__init__.py"),
    ] {
        assert!(
            relation_exists(&s, &format!("document:{from}"), "links-to", to),
            "{from} → {to}"
        );
    }
    // This `conf.py` leaves `source_suffix` at Sphinx's default: a `.txt` file is no page.
    let ids: Vec<&str> = s["entities"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["id"].as_str())
        .collect();
    assert!(ids.contains(&"file:docs/_static/credits.txt"), "{ids:?}");
    assert!(!ids.contains(&"document:docs/_static/credits.txt"));
    // `exclude_patterns` leave pages out of the build: still documents, marked, and neither
    // their broken links nor their having no inbound link is a finding.
    let excluded: Vec<&str> = s["entities"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["excludedFromSite"] == true)
        .filter_map(|e| e["id"].as_str())
        .collect();
    assert_eq!(
        excluded,
        [
            "document:docs/drafts/wip.rst",
            "document:docs/shared.inc.rst"
        ]
    );
    let check = run(dir.path(), &["check", "--quiet", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let findings: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .map(|f| {
            let message = f["message"].as_str().unwrap();
            (f["code"].as_str().unwrap().to_owned(), message.to_owned())
        })
        .collect();
    let broken: Vec<&str> = findings
        .iter()
        .filter(|(code, _)| code == "broken-link")
        .map(|(_, message)| message.as_str())
        .collect();
    // Nothing else: a MyST label may hold `/` (`labels/firing`), and a toctree's YAML block of
    // options (`maxdepth: 2`) names no page.
    assert_eq!(findings.len(), 4, "{findings:#?}");
    for target in [
        "`missing-page`",
        "`Furnace`",
        "`auto_examples/other/plot_glaze`",
        "`auto_examples/images/sphx_glr_plot_nope_001.png`",
    ] {
        assert!(
            broken.iter().any(|m| m.contains(target)),
            "{target}: {broken:#?}"
        );
    }
}

/// AsciiDoc documents: `xref:` and `<<file.adoc#id,…>>` links, `include::`, a broken `xref:`.
#[test]
fn asciidoc_site_links_resolve() {
    let dir = fixture_copy("asciidoc-site");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    for (from, to) in [
        ("README.adoc", "docs/index.adoc"),
        ("docs/index.adoc", "docs/modules/install.adoc"),
        ("docs/index.adoc", "docs/modules/configure.adoc"),
        ("docs/modules/install.adoc", "docs/modules/configure.adoc"),
        ("docs/modules/install.adoc", "docs/partials/shared.adoc"),
    ] {
        assert!(
            relation_exists(
                &s,
                &format!("document:{from}"),
                "links-to",
                &format!("document:{to}")
            ),
            "{from} → {to}"
        );
    }
    assert_eq!(
        diagnostic_codes(&s, "docs/index.adoc"),
        vec!["broken-link".to_owned()]
    );
}

fn relation_exists(snapshot: &serde_json::Value, from: &str, kind: &str, to: &str) -> bool {
    snapshot["relations"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["from"] == from && r["kind"] == kind && r["to"] == to)
}

fn diagnostic_codes(snapshot: &serde_json::Value, path: &str) -> Vec<String> {
    snapshot["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"] == path)
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn ts_workspace_relations_resolve_relative_and_workspace_imports() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    assert!(relation_exists(
        &s,
        "module:packages/auth/src/session.ts",
        "imports",
        "module:packages/core/src/index.ts"
    ));
    assert!(relation_exists(
        &s,
        "module:packages/auth/src/session.ts",
        "imports",
        "module:packages/auth/src/tokens.ts"
    ));
    assert!(relation_exists(
        &s,
        "package:@fx/auth",
        "depends-on",
        "package:@fx/core"
    ));
    assert!(relation_exists(
        &s,
        "document:docs/auth.md",
        "covers",
        "package:@fx/auth"
    ));
    // `createSession` is declared in session.ts and only re-exported by index.ts.
    assert!(relation_exists(
        &s,
        "document:docs/auth.md",
        "mentions",
        "module:packages/auth/src/session.ts"
    ));
    assert!(!relation_exists(
        &s,
        "document:docs/auth.md",
        "mentions",
        "module:packages/auth/src/index.ts"
    ));
    assert!(diagnostic_codes(&s, "docs/auth.md").contains(&"broken-link".to_owned()));
    assert!(
        diagnostic_codes(&s, "packages/core/src/index.ts")
            .contains(&"unresolved-import".to_owned())
    );
    let paths: Vec<&str> = s["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(
        !paths
            .iter()
            .any(|p| p.starts_with("generated/") || p.starts_with("node_modules/"))
    );
}

#[test]
fn rust_workspace_ambiguous_symbol_is_not_resolved() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    assert!(diagnostic_codes(&s, "docs/design.md").contains(&"ambiguous-mention".to_owned()));
    assert!(relation_exists(
        &s,
        "document:docs/design.md",
        "links-to",
        "document:docs/notes/naïve plan.md"
    ));
    assert!(relation_exists(
        &s,
        "module:crates/engine/src/lib.rs",
        "imports",
        "module:crates/engine/src/parse.rs"
    ));
    assert!(relation_exists(
        &s,
        "package:engine",
        "depends-on",
        "package:util"
    ));
}

#[test]
fn docs_site_excludes_secrets_and_configured_globs_and_records_languages() {
    let dir = fixture_copy("docs-site");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let paths: Vec<&str> = s["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(
        !paths
            .iter()
            .any(|p| p.starts_with("drafts/") || p.contains(".env") || p.contains("credentials"))
    );
    let language = |id: &str| {
        s["entities"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == id)
            .unwrap()["language"]
            .clone()
    };
    assert_eq!(language("document:docs/ja/guide/getting-started.md"), "ja");
    assert_eq!(language("document:i18n/fr/guide/config.md"), "fr");
    assert!(
        diagnostic_codes(&s, "docs/en/broken-front-matter.md")
            .contains(&"front-matter-invalid".to_owned())
    );
    let broken = s["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "document:docs/en/broken-front-matter.md")
        .unwrap();
    assert_eq!(broken["title"], "Still Read");
    let norway = s["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "document:docs/en/regions/norway.md")
        .unwrap();
    assert_eq!(norway["frontMatter"]["country"], "NO");
}

#[test]
fn python_syntax_error_keeps_symbols_read_before_it() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let broken = s["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "module:src/pyfx/broken.py")
        .unwrap();
    assert!(
        broken["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .any(|sym| sym["name"] == "survivor")
    );
    assert!(diagnostic_codes(&s, "src/pyfx/broken.py").contains(&"parse-error".to_owned()));
}

/// A module's (specifier, resolution) pairs, its symbol names and its `owner.name` members.
fn module_facts(
    snapshot: &serde_json::Value,
    id: &str,
) -> (Vec<(String, String)>, Vec<String>, Vec<String>) {
    let module = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"));
    let strings = |field: &str, f: &dyn Fn(&serde_json::Value) -> String| -> Vec<String> {
        module[field]
            .as_array()
            .map(|a| a.iter().map(f).collect())
            .unwrap_or_default()
    };
    let imports = module["imports"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|i| {
                    (
                        i["specifier"].as_str().unwrap().to_owned(),
                        i["resolution"].as_str().unwrap().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let symbols = strings("symbols", &|s| s["name"].as_str().unwrap().to_owned());
    let members = strings("members", &|m| {
        format!(
            "{}.{}",
            m["owner"].as_str().unwrap(),
            m["name"].as_str().unwrap()
        )
    });
    (imports, symbols, members)
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

/// C and C++: headers are read as C++, includes resolve beside the file or below an include
/// directory, system headers are external; members defined out of line belong to their
/// class; a `.c` file's `static` helper and an anonymous namespace's function are not symbols.
#[test]
fn cmake_project_includes_resolve_and_members_are_recorded() {
    let dir = fixture_copy("cmake-project");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let (imports, symbols, members) = module_facts(&s, "module:include/lantern/lamp.h");
    assert_eq!(
        imports,
        pairs(&[("<stddef.h>", "external"), ("lantern/wick.h", "internal")])
    );
    assert_eq!(
        symbols,
        ["LANTERN_DEFAULT_PORT", "Lamp", "Colour", "defaultPort"]
    );
    assert_eq!(
        members,
        [
            "Lamp.Lamp",
            "Lamp.light",
            "Lamp.fromEnv",
            "Lamp.port",
            "Colour.Amber",
            "Colour.White"
        ]
    );
    let (imports, symbols, members) = module_facts(&s, "module:src/lamp.cpp");
    assert_eq!(
        imports,
        pairs(&[("lantern/lamp.h", "internal"), ("<cstdlib>", "external")])
    );
    assert_eq!(symbols, ["defaultPort"]);
    assert_eq!(members, ["Lamp.Lamp", "Lamp.light", "Lamp.fromEnv"]);
    let (imports, symbols, _) = module_facts(&s, "module:src/lantern.c");
    assert_eq!(imports, pairs(&[("../include/lantern/wick.h", "internal")]));
    assert_eq!(symbols, ["lantern_wick_trim"]);
    assert!(relation_exists(
        &s,
        "module:src/lantern.c",
        "imports",
        "module:include/lantern/wick.h"
    ));
}

/// Kotlin beside Java in one Gradle build: a top-level function imported from a file named
/// otherwise resolves by what the file declares; a Kotlin import of a Java class resolves by
/// package path; a companion object's members belong to the class.
#[test]
fn gradle_project_kotlin_imports_resolve_by_declaration() {
    let dir = fixture_copy("gradle-project");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let firing = "module:core/src/main/kotlin/kiln/core/Firing.kt";
    let (imports, _, _) = module_facts(&s, "module:app/src/main/kotlin/kiln/app/Fire.kt");
    assert_eq!(
        imports,
        pairs(&[
            ("kiln.core.Firing", "internal"),
            ("kiln.core.Glaze", "internal"),
            ("kiln.core.schedule", "internal"),
        ])
    );
    for to in [firing, "module:core/src/main/java/kiln/core/Glaze.java"] {
        assert!(relation_exists(
            &s,
            "module:app/src/main/kotlin/kiln/app/Fire.kt",
            "imports",
            to
        ));
    }
    let (_, symbols, members) = module_facts(&s, firing);
    assert_eq!(symbols, ["Firing", "schedule"]);
    assert_eq!(
        members,
        [
            "Firing.glaze",
            "Firing.hours",
            "Firing.peak",
            "Firing.MAX_HOURS"
        ]
    );
}

/// Swift: only `public` declarations are symbols; an extension's public static function
/// belongs to its type; `import Lantern` depends on the SwiftPM target's modules.
#[test]
fn swift_package_imports_resolve_to_targets() {
    let dir = fixture_copy("swift-package");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let lamp = "module:Sources/Lantern/Lamp.swift";
    let (imports, _, _) = module_facts(&s, "module:Sources/LanternCLI/main.swift");
    assert_eq!(
        imports,
        pairs(&[("ArgumentParser", "external"), ("Lantern", "internal")])
    );
    assert!(relation_exists(
        &s,
        "module:Tests/LanternTests/LampTests.swift",
        "imports",
        lamp
    ));
    // DocC: `<doc:GettingStarted>` names the article by stem; `lamp.png`, found by name in
    // `Resources/`, is no broken link.
    let landing = "document:Sources/Lantern/Lantern.docc/Lantern.md";
    assert!(relation_exists(
        &s,
        landing,
        "links-to",
        "document:Sources/Lantern/Lantern.docc/Articles/GettingStarted.md"
    ));
    assert!(
        diagnostic_codes(&s, "Sources/Lantern/Lantern.docc/Lantern.md").is_empty(),
        "{:?}",
        diagnostic_codes(&s, "Sources/Lantern/Lantern.docc/Lantern.md")
    );
    let (_, symbols, members) = module_facts(&s, lamp);
    assert_eq!(symbols, ["Lamp", "Colour"]);
    assert_eq!(
        members,
        [
            "Lamp.port",
            "Lamp.init",
            "Lamp.light",
            "Colour.amber",
            "Colour.white",
            "Lamp.fromEnvironment"
        ]
    );
}

/// PHP: `use` resolves along the PSR-4 layout, a dependency's class is external, an include
/// through `__DIR__` resolves to the file; a guarded function is a symbol.
#[test]
fn php_app_uses_resolve_by_namespace_path() {
    let dir = fixture_copy("php-app");
    index(dir.path());
    let s = artifact(dir.path(), "snapshot.json");
    let (imports, symbols, members) = module_facts(&s, "module:src/Http/LampController.php");
    assert_eq!(
        imports,
        pairs(&[
            ("Lantern\\Models\\Lamp", "internal"),
            ("Psr\\Log\\LoggerInterface", "external"),
            ("__DIR__/../helpers.php", "internal"),
        ])
    );
    assert_eq!(symbols, ["LampController"]);
    assert_eq!(
        members,
        ["LampController.__construct", "LampController.show"]
    );
    assert!(relation_exists(
        &s,
        "module:src/Http/LampController.php",
        "imports",
        "module:src/Models/Lamp.php"
    ));
    let (_, symbols, members) = module_facts(&s, "module:src/Models/Lamp.php");
    assert_eq!(symbols, ["Lamp"]);
    assert_eq!(
        members,
        [
            "Lamp.DEFAULT_PORT",
            "Lamp.__construct",
            "Lamp.port",
            "Lamp.light",
            "Lamp.fromEnv"
        ]
    );
    let (_, symbols, _) = module_facts(&s, "module:src/helpers.php");
    assert_eq!(symbols, ["lantern_port"]);
}
