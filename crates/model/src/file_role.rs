//! What part a file plays in its repository, from path conventions: tests, fixtures, examples,
//! playgrounds, generated and vendored code, changelogs. A search for how something works wants
//! the source and the documentation first, and these after them (unless the query asks for
//! them: `search "session tests"`).
//!
//! The conventions are the common ones across ecosystems: directories (`tests/`, `__tests__/`,
//! `spec/`, `fixtures/`, `testdata/`, `examples/`, `playground/`, `vendor/`, `_vendor/`, `third_party/`,
//! `generated/`) and file names (`test_x.py`, `x_test.py`, `x_test.go`, `x.test.ts`,
//! `x.spec.js`, `conftest.py`, `x.min.js`, `x_pb2.py`, `x.pb.go`, `CHANGELOG.md`); source
//! files kept under a documentation or tutorial directory (`docs/`, `docs_src/`, `tutorial/`)
//! are examples. A path gets the role of its first matching convention, directories from the
//! root first (a fixture directory anywhere on the way wins: `tests/fixtures/` holds fixtures).
//! Change log entries include news fragments named as towncrier names them (`19939.bugfix.rst`,
//! and in a `news/` folder `certifi.vendor.rst`).
//!
//! Roles are recorded in indexes and decide findings, so a change to these rules must bump
//! discovery's `SNAPSHOT_BUILD_VERSION`: an index built under the old rules is then stale.

use crate::RelPath;

/// A file's role, when it is not plain source or documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileRole {
    /// Test code (`tests/`, `test_*.py`, `*_test.go`, `*.spec.ts`).
    Test,
    /// Test data (`fixtures/`, `testdata/`, `__snapshots__/`).
    Fixture,
    /// Examples and demos.
    Example,
    /// Playgrounds and sandboxes.
    Playground,
    /// Generated code (`generated/`, `*.min.js`, protobuf output).
    Generated,
    /// Third-party code kept in the repository.
    Vendored,
    /// Change logs, release notes, changesets.
    Changelog,
}

impl FileRole {
    /// Every role, in tag order.
    pub const ALL: [FileRole; 7] = [
        FileRole::Test,
        FileRole::Fixture,
        FileRole::Example,
        FileRole::Playground,
        FileRole::Generated,
        FileRole::Vendored,
        FileRole::Changelog,
    ];

    /// The role's name (`test`, ...); its projection tag is `role:<name>`.
    pub fn name(self) -> &'static str {
        match self {
            FileRole::Test => "test",
            FileRole::Fixture => "fixture",
            FileRole::Example => "example",
            FileRole::Playground => "playground",
            FileRole::Generated => "generated",
            FileRole::Vendored => "vendored",
            FileRole::Changelog => "changelog",
        }
    }

    /// The projection tag.
    pub fn tag(self) -> String {
        format!("role:{}", self.name())
    }

    /// The role a projection tag names.
    pub fn from_tag(tag: &str) -> Option<FileRole> {
        let name = tag.strip_prefix("role:")?;
        FileRole::ALL.into_iter().find(|r| r.name() == name)
    }

    /// A number for the search collection's entry flags (1..=7; 0 is no role).
    pub fn code(self) -> u8 {
        match self {
            FileRole::Test => 1,
            FileRole::Fixture => 2,
            FileRole::Example => 3,
            FileRole::Playground => 4,
            FileRole::Generated => 5,
            FileRole::Vendored => 6,
            FileRole::Changelog => 7,
        }
    }

    /// The role a flag number names.
    pub fn from_code(code: u8) -> Option<FileRole> {
        FileRole::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Query words that ask for files of this role (folded): with one of them in the query, the
    /// role is not ranked down.
    pub fn asked_by(self) -> &'static [&'static str] {
        match self {
            FileRole::Test | FileRole::Fixture => &[
                "test",
                "tests",
                "testing",
                "tested",
                "spec",
                "specs",
                "fixture",
                "fixtures",
                "conftest",
                "pytest",
                "unittest",
                "jest",
                "vitest",
                "mock",
                "mocks",
                "snapshot",
                "snapshots",
            ],
            FileRole::Example => &["example", "examples", "demo", "demos", "sample", "samples"],
            FileRole::Playground => &["playground", "playgrounds", "sandbox"],
            FileRole::Generated => &["generated", "codegen"],
            FileRole::Vendored => &["vendor", "vendored", "third-party", "thirdparty"],
            FileRole::Changelog => &[
                "changelog",
                "changelogs",
                "release",
                "releases",
                "changeset",
                "changesets",
                "history",
                "changed",
                "changes",
                "version",
                "migration",
            ],
        }
    }
}

const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "spec",
    "specs",
    "e2e",
    "testing",
];
const FIXTURE_DIRS: &[&str] = &[
    "fixtures",
    "fixture",
    "__fixtures__",
    "testdata",
    "test-data",
    "test_data",
    "__snapshots__",
    "__mocks__",
];
const EXAMPLE_DIRS: &[&str] = &["examples", "example", "demo", "demos", "samples"];
/// Directories below which a JVM project keeps its packages (`src/main/java`,
/// `src/test/kotlin`).
pub const JVM_SOURCE_ROOTS: &[&str] = &["java", "kotlin", "scala", "groovy"];
const PLAYGROUND_DIRS: &[&str] = &["playground", "playgrounds", "sandbox", "sandboxes"];
/// Lowercase. `BenchmarkDotNet.Artifacts` is where BenchmarkDotNet writes its reports.
const GENERATED_DIRS: &[&str] = &[
    "generated",
    ".generated",
    "__generated__",
    "gen",
    "benchmarkdotnet.artifacts",
];
const VENDORED_DIRS: &[&str] = &[
    "vendor",
    "vendored",
    "_vendor",
    "_vendored",
    "third_party",
    "third-party",
    "thirdparty",
];
const CHANGELOG_DIRS: &[&str] = &[
    ".changeset",
    ".changesets",
    "changelog",
    "changelogs",
    "changelog_unreleased",
    "release-notes",
    "newsfragments",
    "upcoming_changes",
    "changelog.d",
];

/// The role of a file: what the repository's `.gitattributes` say (`linguist`: `generated`,
/// `vendored`, `documentation` — an example when the file is code — or `source`, no role
/// whatever the path), else the path conventions ([`file_role`]).
pub fn role_of(path: &RelPath, linguist: Option<&str>, is_code: bool) -> Option<FileRole> {
    match linguist {
        Some("generated") => Some(FileRole::Generated),
        Some("vendored") => Some(FileRole::Vendored),
        Some("documentation") if is_code => Some(FileRole::Example),
        Some("documentation" | "source") => None,
        _ => file_role(path),
    }
}

/// The role of the file at `path` by its path alone, if any.
pub fn file_role(path: &RelPath) -> Option<FileRole> {
    let text = path.as_str();
    let mut parts: Vec<&str> = text.split('/').collect();
    let name = parts.pop().unwrap_or("");
    let mut dirs: Vec<String> = parts.iter().map(|d| d.to_ascii_lowercase()).collect();
    // Below a JVM source root (`src/main/java/`) directories are package names: `com/example/`
    // or `org/foo/gen/` say nothing of what the file is for.
    if let Some(root) = dirs
        .iter()
        .position(|d| JVM_SOURCE_ROOTS.contains(&d.as_str()))
    {
        dirs.truncate(root + 1);
    }
    // Test data is test data wherever it sits (`tests/fixtures/` holds fixtures).
    if dirs.iter().any(|d| FIXTURE_DIRS.contains(&d.as_str())) {
        return Some(FileRole::Fixture);
    }
    for dir in &dirs {
        let dir = dir.as_str();
        if TEST_DIRS.contains(&dir) {
            return Some(FileRole::Test);
        }
        if EXAMPLE_DIRS.contains(&dir) {
            return Some(FileRole::Example);
        }
        if PLAYGROUND_DIRS.contains(&dir) {
            return Some(FileRole::Playground);
        }
        if GENERATED_DIRS.contains(&dir) {
            return Some(FileRole::Generated);
        }
        if VENDORED_DIRS.contains(&dir) {
            return Some(FileRole::Vendored);
        }
        if CHANGELOG_DIRS.contains(&dir) {
            return Some(FileRole::Changelog);
        }
    }
    if let Some(role) = name_role(name) {
        return Some(role);
    }
    if dirs.last().is_some_and(|dir| dir == "news")
        && is_named_news_fragment(&name.to_ascii_lowercase())
    {
        return Some(FileRole::Changelog);
    }
    // Code kept with the documentation or a tutorial is there to be shown
    // (`docs_src/tutorial001.py`, `docs/examples/app.ts`, `tutorial/step-3/App.js`): an example.
    if is_code(name) && dirs.iter().any(|d| DOC_DIRS.contains(&d.as_str())) {
        return Some(FileRole::Example);
    }
    None
}

const DOC_DIRS: &[&str] = &[
    "docs",
    "doc",
    "documentation",
    "docs_src",
    "doc_src",
    "docs-src",
    "tutorial",
    "tutorials",
];

fn is_code(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.rsplit_once('.').is_some_and(|(_, ext)| {
        matches!(
            ext,
            "py" | "js"
                | "jsx"
                | "mjs"
                | "cjs"
                | "ts"
                | "tsx"
                | "mts"
                | "cts"
                | "go"
                | "rs"
                | "java"
                | "kt"
                | "rb"
                | "svelte"
                | "vue"
        )
    })
}

fn name_role(name: &str) -> Option<FileRole> {
    let lower = name.to_ascii_lowercase();
    let (stem, _) = lower.rsplit_once('.').unwrap_or((lower.as_str(), ""));
    if is_code(name)
        && (stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with(".test")
            || stem.ends_with(".spec")
            || stem.ends_with("_spec")
            || stem == "conftest"
            || stem == "tests"
            || stem == "test")
    {
        return Some(FileRole::Test);
    }
    if stem.ends_with(".min")
        || stem.ends_with("_pb2")
        || stem.ends_with("_pb2_grpc")
        || stem.ends_with(".pb")
        || stem.ends_with(".generated")
        || stem.ends_with(".g")
    {
        return Some(FileRole::Generated);
    }
    let plain = stem.trim_start_matches(|c: char| !c.is_ascii_alphabetic());
    if matches!(
        plain,
        "changelog"
            | "changes"
            | "history"
            | "news"
            | "release-notes"
            | "release_notes"
            | "releasenotes"
    ) || plain.starts_with("changelog")
        || plain.starts_with("release-notes")
        || is_news_fragment(&lower)
    {
        return Some(FileRole::Changelog);
    }
    None
}

/// Whether a (lowercased) file name is a news fragment as towncrier and its kin name them:
/// `<issue>.<type>[.<n>].<ext>`, as `19939.bugfix.rst` or `1234.feature.1.md` — change-log
/// entries waiting to be assembled into the change log at the next release.
fn is_news_fragment(name: &str) -> bool {
    let mut parts = name.split('.');
    let (Some(issue), Some(kind)) = (parts.next(), parts.next()) else {
        return false;
    };
    let rest: Vec<&str> = parts.collect();
    let extension_ok = match rest.as_slice() {
        [ext] => matches!(*ext, "rst" | "md" | "txt"),
        [n, ext] => n.bytes().all(|b| b.is_ascii_digit()) && matches!(*ext, "rst" | "md" | "txt"),
        _ => false,
    };
    !issue.is_empty()
        && issue.bytes().all(|b| b.is_ascii_digit())
        && !kind.is_empty()
        && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        && extension_ok
}

/// The fragment types towncrier projects configure most (its defaults and pip's, attrs',
/// pytest's additions).
const NEWS_TYPES: &[&str] = &[
    "feature",
    "bugfix",
    "doc",
    "removal",
    "misc",
    "vendor",
    "process",
    "trivial",
    "deprecation",
    "breaking",
    "security",
    "performance",
    "improvement",
    "packaging",
    "contrib",
];

/// Whether a (lowercased) file name in a `news/` folder is a fragment named for what it is
/// about rather than an issue number: `certifi.vendor.rst`, `<name>.<type>.<ext>` with a type
/// towncrier projects use.
fn is_named_news_fragment(name: &str) -> bool {
    let parts: Vec<&str> = name.split('.').collect();
    matches!(parts.as_slice(), [topic, kind, "rst" | "md" | "txt"]
        if !topic.is_empty() && NEWS_TYPES.contains(kind))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn role(path: &str) -> Option<FileRole> {
        file_role(&RelPath::new(path).unwrap())
    }

    #[test]
    fn test_files_by_directory_and_by_name_in_each_ecosystem() {
        for path in [
            "packages/svelte/tests/runtime/samples/a/_config.js",
            "src/__tests__/session.ts",
            "sklearn/compose/tests/test_column_transformer.py",
            "tests/test_app.py",
            "pkg/server/server_test.go",
            "src/session.test.ts",
            "src/session.spec.js",
            "conftest.py",
            "crates/x/tests/cli.rs",
            "spec/models/user_spec.rb",
        ] {
            assert_eq!(role(path), Some(FileRole::Test), "{path}");
        }
    }

    #[test]
    fn other_roles_by_convention() {
        assert_eq!(role("tests/fixtures/a.json"), Some(FileRole::Fixture));
        assert_eq!(role("pkg/testdata/input.go"), Some(FileRole::Fixture));
        assert_eq!(role("examples/basic/main.py"), Some(FileRole::Example));
        assert_eq!(
            role("bench/BenchmarkDotNet.Artifacts/results/Polly.Bench-report-github.md"),
            Some(FileRole::Generated)
        );
        // Java packages are no role directories; the source set above them still is.
        assert_eq!(role("src/main/java/com/example/app/Server.java"), None);
        assert_eq!(role("src/main/java/org/foo/gen/Parser.java"), None);
        assert_eq!(
            role("src/test/java/com/example/app/ServerTest.java"),
            Some(FileRole::Test)
        );
        assert_eq!(
            role("examples/src/main/java/com/a/Demo.java"),
            Some(FileRole::Example)
        );
        assert_eq!(
            role("docs_src/sql_databases/tutorial001.py"),
            Some(FileRole::Example)
        );
        assert_eq!(role("docs/snippets/setup.ts"), Some(FileRole::Example));
        assert_eq!(
            role("src/tutorial/src/step-12/App/composition.js"),
            Some(FileRole::Example)
        );
        // A tutorial's pages are documents, not examples.
        assert_eq!(role("src/tutorial/src/step-12/description.md"), None);
        assert_eq!(
            role("playgrounds/sandbox/run.js"),
            Some(FileRole::Playground)
        );
        assert_eq!(
            role("documentation/docs/98-reference/.generated/errors.md"),
            Some(FileRole::Generated)
        );
        assert_eq!(role("static/app.min.js"), Some(FileRole::Generated));
        assert_eq!(role("api/service_pb2.py"), Some(FileRole::Generated));
        assert_eq!(role("vendor/github.com/x/y.go"), Some(FileRole::Vendored));
        assert_eq!(
            role("src/pip/_vendor/msgpack/__init__.py"),
            Some(FileRole::Vendored)
        );
        assert_eq!(role("CHANGELOG.md"), Some(FileRole::Changelog));
        assert_eq!(
            role("packages/svelte/CHANGELOG-pre-5.md"),
            Some(FileRole::Changelog)
        );
        assert_eq!(
            role("docs/en/docs/release-notes.md"),
            Some(FileRole::Changelog)
        );
        assert_eq!(
            role(".changeset/tough-pandas-shout.md"),
            Some(FileRole::Changelog)
        );
        // News fragments (towncrier), by name or by directory.
        for fragment in [
            "docs/changes/io.fits/19939.bugfix.rst",
            "doc/whats_new/upcoming_changes/sklearn.svm/31022.fix.rst",
            "changes/1234.feature.2.md",
            "newsfragments/fix-typo.doc",
            "news/certifi.vendor.rst",
        ] {
            assert_eq!(role(fragment), Some(FileRole::Changelog), "{fragment}");
        }
        for not_a_fragment in [
            "docs/2024.intro.html",
            "docs/12.rst",
            "docs/v1.2.rst",
            "docs/certifi.vendor.rst",
            "news/release.notes.rst",
        ] {
            assert_eq!(role(not_a_fragment), None, "{not_a_fragment}");
        }
    }

    #[test]
    fn plain_source_and_documentation_have_no_role() {
        for path in [
            "src/flask/app.py",
            "sklearn/compose/_column_transformer.py",
            "docs/en/docs/tutorial/testing.md",
            "documentation/docs/07-misc/02-testing.md",
            "src/latest.ts",
            "lib/contest.py",
            "docs/guide/examples-of-use.md",
        ] {
            assert_eq!(role(path), None, "{path}");
        }
    }

    #[test]
    fn gitattributes_come_before_path_conventions() {
        let path = RelPath::new("src/api_pb2.py").unwrap();
        assert_eq!(role_of(&path, None, true), Some(FileRole::Generated));
        assert_eq!(role_of(&path, Some("source"), true), None);
        let lib = RelPath::new("lib/parser.js").unwrap();
        assert_eq!(
            role_of(&lib, Some("vendored"), true),
            Some(FileRole::Vendored)
        );
        assert_eq!(
            role_of(&lib, Some("generated"), true),
            Some(FileRole::Generated)
        );
        assert_eq!(
            role_of(&lib, Some("documentation"), true),
            Some(FileRole::Example)
        );
        let page = RelPath::new("tests/README.md").unwrap();
        assert_eq!(role_of(&page, Some("documentation"), false), None);
    }

    #[test]
    fn tags_and_codes_round_trip() {
        for role in FileRole::ALL {
            assert_eq!(FileRole::from_tag(&role.tag()), Some(role));
            assert_eq!(FileRole::from_code(role.code()), Some(role));
        }
        assert_eq!(FileRole::from_tag("test"), None);
        assert_eq!(FileRole::from_code(0), None);
    }
}
