//! Files that play a part other than maintained source or documentation (tests, fixtures,
//! examples, playgrounds, generated and vendored files, by [`doc_bridge_model::file_role`]) are
//! inputs, outputs or demonstrations: a Markdown file under `tests/format/` is a formatter's
//! input, a playground imports what its build produces, an example is assembled by the site
//! that shows it. Their broken links, unresolved imports, orphan status, text that is not
//! UTF-8 or not text (a test's deliberately mis-encoded input), front matter and manifests that do not parse (a
//! highlighter's test input named `Cargo.toml`) are not findings, and neither is a package
//! of them that no document covers (a playground's `package.json`
//! needs no page; an area is judged as it is, since the file its finding names is only its
//! first module).
//! Changelogs keep every rule: a dead link in release notes is a dead link.
//!
//! A file under a `templates/` or `template/` directory (or one named `*_template`, or
//! `template-*` as a scaffolding tool names its starters: `create-vite/template-react-ts/`) may
//! be a template: a generator copies it elsewhere before anything reads it, so its relative
//! imports name files beside where it will be, no page links to it, and its manifest is the
//! package of the project it starts, not one of this repository's. Its unresolved imports,
//! orphan status and uncovered package are not findings; its broken links are (a documentation section about
//! templates, `docs/ref/templates/`, is pages, and their links are read where they are).
//!
//! A package of benchmarks, fuzz targets or stress tests (its manifest under a `bench/`,
//! `benches/`, `benchmarks/`, `fuzz/` or `stress-test/` directory: tokio's `benches/Cargo.toml`,
//! cargo-fuzz's `fuzz/Cargo.toml`), a test application (a folder named with the word `test`,
//! `tests`, `testing`, `e2e`, `bench` or `stress`: `android-test-app`, `maven-tests`), an
//! example (the word `example`, `demo` or `sample`, or their plurals: `internal-example-plugin`)
//! or a build's own logic (`buildSrc/`, `build-logic/`, a Rust workspace's `xtask`, `xtask-*`)
//! exercises, shows or builds the code for
//! its developers; no document needs to cover it, so its `uncovered-package` is not a finding.

use std::collections::HashMap;

use doc_bridge_model::file_role::{FileRole, role_of};
use doc_bridge_model::snapshot::{Diagnostic, FileClass, Snapshot};

/// The codes that judge a file's links, imports, reachability, coverage and encoding.
const CONTENT_CODES: &[&str] = &[
    "broken-link",
    "unresolved-import",
    "orphan-document",
    "uncovered-package",
    "invalid-utf8",
    "binary-file",
    "manifest-invalid",
    "front-matter-invalid",
];

/// `diagnostics` without the [`CONTENT_CODES`] findings on files whose role exempts them.
pub fn drop_exempt(snapshot: &Snapshot, mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let files: HashMap<&str, _> = snapshot
        .files
        .iter()
        .map(|f| (f.path.as_str(), f))
        .collect();
    diagnostics.retain(|d| {
        if !CONTENT_CODES.contains(&d.code.as_str()) {
            return true;
        }
        if d.code != "broken-link" && is_template(&d.path) {
            return false;
        }
        if d.code == "uncovered-package" && is_exercise(&d.path) {
            return false;
        }
        let (linguist, is_code) = files.get(d.path.as_str()).map_or((None, false), |f| {
            (f.linguist.as_deref(), f.class == FileClass::Module)
        });
        matches!(
            role_of(&d.path, linguist, is_code),
            None | Some(FileRole::Changelog)
        )
    });
    diagnostics
}

/// Whether a file lies in a templates directory (`templates/`, `template/`,
/// `project_template/`, a scaffolding tool's `template-react-ts/`, Hugo's `skeletons/` and
/// `archetypes/`, which `hugo new` copies).
fn is_template(path: &doc_bridge_model::RelPath) -> bool {
    let text = path.as_str();
    let mut dirs = text.split('/');
    dirs.next_back();
    dirs.any(|dir| {
        let dir = dir.to_ascii_lowercase();
        matches!(
            dir.as_str(),
            "templates" | "template" | "skeletons" | "skeleton" | "archetypes"
        ) || dir.ends_with("_template")
            || dir.ends_with("-template")
            || dir.starts_with("template-")
            || dir.starts_with("template_")
    })
}

/// Directory names of packages that exercise the code rather than ship it: benchmarks, fuzz
/// targets, stress tests.
const EXERCISE_DIRS: &[&str] = &[
    "bench",
    "benches",
    "benchmark",
    "benchmarks",
    "fuzz",
    "fuzzing",
    "stress-test",
    "stress-tests",
    "stress_test",
    "stress_tests",
    "test_suite",
    "test-suite",
    "testsuite",
    "integration-tests",
    "integration_tests",
    "e2e",
];

/// Words in a package folder's name (split at `-`, `_` and `.`) that say the package exercises
/// or builds the code rather than ships it, or shows how to use it: okhttp's
/// `android-test-app`, `maven-tests`, `okhttp-osgi-tests`, tailwindcss's
/// `internal-example-plugin`, nushell's `nu_plugin_stress_internals`.
const EXERCISE_WORDS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "e2e",
    "bench",
    "benchmarks",
    "stress",
    "example",
    "examples",
    "demo",
    "demos",
    "sample",
    "samples",
];

/// Folders of a Gradle build's own logic (convention plugins), which no reader needs a page on.
const BUILD_LOGIC_DIRS: &[&str] = &["buildsrc", "build-logic", "build_logic"];

/// Whether a file lies under a benchmark, fuzzing or stress-test directory, or its folder's
/// name says it is a test application or a build's own logic.
fn is_exercise(path: &doc_bridge_model::RelPath) -> bool {
    let text = path.as_str();
    let mut dirs = text.split('/');
    dirs.next_back();
    let dirs: Vec<String> = dirs.map(str::to_ascii_lowercase).collect();
    let folder = dirs.last().map_or("", String::as_str);
    dirs.iter().any(|dir| EXERCISE_DIRS.contains(&dir.as_str()))
        || BUILD_LOGIC_DIRS.contains(&folder)
        // The `cargo xtask` convention: a workspace's own automation (`xtask/`, `xtask-lint-docs/`).
        || folder == "xtask"
        || folder.starts_with("xtask-")
        || folder.starts_with("xtask_")
        || folder
            .split(['-', '_', '.'])
            .any(|word| EXERCISE_WORDS.contains(&word))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use doc_bridge_model::RelPath;
    use doc_bridge_model::snapshot::Severity;

    use super::*;

    fn finding(code: &str, path: &str) -> Diagnostic {
        Diagnostic::new(
            code,
            Severity::Warning,
            RelPath::new(path).unwrap(),
            None,
            "m",
            None,
        )
    }

    fn code_and_path(kept: &[Diagnostic]) -> Vec<String> {
        kept.iter()
            .map(|d| format!("{} {}", d.code, d.path))
            .collect()
    }

    #[test]
    fn content_findings_on_tests_fixtures_examples_and_generated_files_are_dropped() {
        let snapshot = crate::tests::snapshot(Vec::new(), Vec::new());
        let kept = drop_exempt(
            &snapshot,
            vec![
                finding("broken-link", "docs/guide.md"),
                finding("broken-link", "tests/format/markdown/a.md"),
                finding("unresolved-import", "playground/hmr/main.js"),
                finding("unresolved-import", "src/app.ts"),
                finding("orphan-document", "examples/readme-like.md"),
                finding("orphan-document", "docs/fixtures/page.md"),
                finding("broken-link", "CHANGELOG.md"),
                finding("broken-link", "packages/a/dist/generated/api.md"),
                finding("parse-error", "tests/broken.py"),
                finding("uncovered-package", "playgrounds/sandbox/package.json"),
                finding("uncovered-package", "packages/core/package.json"),
                finding("invalid-utf8", "tests/roots/test-pycode/cp_1251_coded.py"),
                finding("invalid-utf8", "src/legacy.py"),
                finding("manifest-invalid", "tests/syntax-tests/TOML/Cargo.toml"),
                finding("manifest-invalid", "Cargo.toml"),
            ],
        );
        let paths = code_and_path(&kept);
        assert_eq!(
            paths,
            [
                "broken-link docs/guide.md",
                "unresolved-import src/app.ts",
                "broken-link CHANGELOG.md",
                "parse-error tests/broken.py",
                "uncovered-package packages/core/package.json",
                "invalid-utf8 src/legacy.py",
                "manifest-invalid Cargo.toml",
            ]
        );
    }

    #[test]
    fn content_findings_on_templates_and_exercising_packages_are_dropped() {
        let snapshot = crate::tests::snapshot(Vec::new(), Vec::new());
        let kept = drop_exempt(
            &snapshot,
            vec![
                finding("unresolved-import", "scripts/templates/client-errors.js"),
                finding("unresolved-import", "conf/project_template/app.py"),
                finding(
                    "uncovered-package",
                    "packages/create-vite/template-lit-ts/package.json",
                ),
                finding("uncovered-package", "packages/templatex/package.json"),
                finding("uncovered-package", "benches/Cargo.toml"),
                finding("uncovered-package", "tokio/fuzz/Cargo.toml"),
                finding("uncovered-package", "stress-test/Cargo.toml"),
                finding("uncovered-package", "benchmarking/Cargo.toml"),
                finding("uncovered-package", "android-test-app/build.gradle.kts"),
                finding("uncovered-package", "okhttp-osgi-tests/build.gradle.kts"),
                finding("uncovered-package", "build-logic/settings.gradle.kts"),
                finding("uncovered-package", "test_suite/no_std/Cargo.toml"),
                finding("uncovered-package", "packages/contest/package.json"),
                finding(
                    "uncovered-package",
                    "packages/internal-example-plugin/package.json",
                ),
                finding(
                    "uncovered-package",
                    "crates/nu_plugin_stress_internals/Cargo.toml",
                ),
                finding("uncovered-package", "crates/resampler/Cargo.toml"),
                finding("uncovered-package", "crates/xtask-lint-docs/Cargo.toml"),
                finding("uncovered-package", "xtask/Cargo.toml"),
                finding("uncovered-package", "crates/xtasks-of-mine/Cargo.toml"),
                finding("unresolved-import", "benches/src/lib.rs"),
                finding("broken-link", "docs/ref/templates/language.txt"),
                finding("orphan-document", "gen/Template/page.md"),
                finding(
                    "orphan-document",
                    "create/skeletons/theme/content/posts/post-1.md",
                ),
                finding("binary-file", "media/testdata/fake.js"),
                finding("front-matter-invalid", "test/source/_broken/bad_post.md"),
                finding("parse-error", "scripts/templates/broken.js"),
                finding("orphan-document", "docs/templates-guide.md"),
                finding("unresolved-import", "src/templates.js"),
            ],
        );
        let paths = code_and_path(&kept);
        assert_eq!(
            paths,
            [
                "uncovered-package packages/templatex/package.json",
                "uncovered-package benchmarking/Cargo.toml",
                "uncovered-package packages/contest/package.json",
                "uncovered-package crates/resampler/Cargo.toml",
                "uncovered-package crates/xtasks-of-mine/Cargo.toml",
                "unresolved-import benches/src/lib.rs",
                "broken-link docs/ref/templates/language.txt",
                "parse-error scripts/templates/broken.js",
                "orphan-document docs/templates-guide.md",
                "unresolved-import src/templates.js",
            ]
        );
    }
}
