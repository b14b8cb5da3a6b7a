//! Reading each admitted file once: hash it, classify it, and run its analyzer, from the same
//! buffer. Files are processed in parallel; the output keeps the walk's sorted order.

use std::io::Read;

use doc_bridge_markdown::{Format, MarkdownFacts};
use doc_bridge_model::hash::StreamingHasher;
use doc_bridge_model::snapshot::{Diagnostic, FileClass, FileRecord, Severity};
use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_source::{Language, SourceFacts};
use rayon::prelude::*;

use crate::analysis_cache::AnalysisCache;
use crate::manifest::{self, ManifestFacts, ManifestKind};
use crate::read::{ReadError, RepoFile, RootDir};
use crate::walk::WalkedFile;

/// What a file was found to be, with its analyzer's facts.
#[derive(Debug, Clone)]
pub enum Analysis {
    /// A document (Markdown, reStructuredText or AsciiDoc).
    Document(Box<MarkdownFacts>),
    /// A `.txt` file read as reStructuredText: a document only inside a Sphinx source
    /// directory, which the snapshot's build decides from the whole tree (its record says
    /// `other` until then).
    Text(Box<MarkdownFacts>),
    /// A source module.
    Module(Language, Box<SourceFacts>),
    /// A package manifest that parsed.
    Manifest(Box<ManifestFacts>),
    /// A `.gitattributes` file's text (its `linguist-*` attributes mark files).
    Attributes(String),
    /// Not analysed (other file types, oversize or unreadable files, broken manifests).
    None,
}

/// One observed file.
#[derive(Debug, Clone)]
pub struct ObservedFile {
    /// The inventory record.
    pub record: FileRecord,
    /// The analyzer's output.
    pub analysis: Analysis,
    /// Problems with this file.
    pub diagnostics: Vec<Diagnostic>,
    /// The analysis came from the analysis cache.
    pub reused: bool,
    /// For a documentation site's configuration (`mkdocs.yml`, `.vitepress/config.*`, a Sphinx
    /// `conf.py`), what it says about the site's pages ([`crate::sites::site_settings`]).
    pub site: Option<Box<crate::sites::SiteSettings>>,
}

/// What kind of analysis a path calls for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A document in this format.
    Document(Format),
    /// A `.txt` file: reStructuredText if a Sphinx source directory holds it.
    Text,
    /// Source code.
    Module(Language),
    /// A manifest.
    Manifest(ManifestKind),
    /// The config file at the root.
    Config,
    /// A `.gitattributes` file.
    Attributes,
    /// Anything else.
    Other,
}

/// The finding a module's syntax errors give: information, since the grammars lag behind the
/// languages (import types, reserved words as export names, labelled tuples in TypeScript) and
/// test inputs are invalid on purpose, so nearly every such finding is in code that compiles;
/// what the parser recovered is kept either way. C and C++ have their own code,
/// `c-parse-error`: they are parsed without their preprocessor, so macros the grammar cannot
/// expand leave errors in code that compiles.
fn parse_error_code(language: Language) -> (&'static str, Severity) {
    match language {
        Language::C | Language::Cpp => ("c-parse-error", Severity::Info),
        _ => ("parse-error", Severity::Info),
    }
}

/// Classifies a path by its name alone.
pub fn classify(path: &RelPath) -> Kind {
    let name = path.file_name();
    if path.as_str() == doc_bridge_model::config::CONFIG_FILE {
        return Kind::Config;
    }
    if name == ".gitattributes" {
        return Kind::Attributes;
    }
    if let Some(kind) = ManifestKind::of_file(name) {
        return Kind::Manifest(kind);
    }
    let ext = path.extension().map(str::to_ascii_lowercase);
    if let Some(format) = ext.as_deref().and_then(Format::from_extension) {
        return Kind::Document(format);
    }
    // A page the documentation build renders from a template (`index.rst.template`): read as
    // the page it becomes, so its toctree and links count.
    if name.to_ascii_lowercase().ends_with(".rst.template") {
        return Kind::Document(Format::ReStructuredText);
    }
    if ext.as_deref() == Some("txt") {
        return Kind::Text;
    }
    match Language::from_path(path.as_str()) {
        Some(language) => Kind::Module(language),
        None => Kind::Other,
    }
}

/// Reads, hashes and analyses every file, in parallel. Output order = input order.
/// `on_file` is called once per file (for progress reporting), from any thread.
pub fn observe_all(
    root: &RootDir,
    files: &[WalkedFile],
    max_file_bytes: u64,
    cache: &AnalysisCache,
    on_file: &(dyn Fn() + Sync),
) -> Vec<ObservedFile> {
    files
        .par_iter()
        .map(|file| {
            let observed = observe(root, file, max_file_bytes, cache);
            on_file();
            observed
        })
        .collect()
}

/// [`observe_all`] for files walked with `defer_stat` (or not): each file's `bytes` and
/// `modified_ns` are set from the file as it was opened, with no second stat by path.
pub fn observe_and_stat_all(
    root: &RootDir,
    files: &mut [WalkedFile],
    max_file_bytes: u64,
    cache: &AnalysisCache,
    on_file: &(dyn Fn() + Sync),
) -> Vec<ObservedFile> {
    files
        .par_iter_mut()
        .map(|file| {
            let (observed, metadata) = observe_opened(root, file, max_file_bytes, cache);
            if let Some(metadata) = metadata {
                file.bytes = metadata.len();
                file.modified_ns = crate::walk::modified_ns(Some(metadata));
            }
            on_file();
            observed
        })
        .collect()
}

/// Reads, hashes and analyses one file. Never panics; I/O problems become diagnostics. The file
/// is opened through `root` (no symbolic link, nothing but a regular file; see [`crate::read`]).
pub fn observe(
    root: &RootDir,
    file: &WalkedFile,
    max_file_bytes: u64,
    cache: &AnalysisCache,
) -> ObservedFile {
    observe_opened(root, file, max_file_bytes, cache).0
}

/// [`observe`], with the metadata of the file as it was opened (`None` when it could not be).
fn observe_opened(
    root: &RootDir,
    file: &WalkedFile,
    max_file_bytes: u64,
    cache: &AnalysisCache,
) -> (ObservedFile, Option<std::fs::Metadata>) {
    let mut handle = match root.open_file(file.path.as_str()) {
        Ok(handle) => handle,
        Err(error) => return (unreadable(file, &error), None),
    };
    // The size now, not the walk's: the file may have changed since (and a deferred walk has
    // none).
    let size = handle.metadata.len();
    let observed = if size > max_file_bytes {
        oversize(file, &mut handle, max_file_bytes)
    } else {
        match handle.read_bounded(max_file_bytes) {
            // It grew past the limit since it was opened: what was read is what it was.
            Ok(bytes) if bytes.len() as u64 > max_file_bytes => oversize_record(
                file,
                ContentHash::of_bytes(&bytes),
                bytes.len() as u64,
                max_file_bytes,
            ),
            Ok(bytes) => analyse_bytes(file, bytes, cache),
            Err(error) => unreadable(file, &ReadError::Io(error)),
        }
    };
    (observed, Some(handle.metadata))
}

/// A file over the size limit: inventoried (hashed as it streams past, up to the size it had
/// when opened) but not analysed.
fn oversize(file: &WalkedFile, handle: &mut RepoFile, max_file_bytes: u64) -> ObservedFile {
    match hash_streaming(&mut handle.reported_bytes()) {
        Ok((hash, bytes)) => oversize_record(file, hash, bytes, max_file_bytes),
        Err(error) => unreadable(file, &ReadError::Io(error)),
    }
}

fn oversize_record(
    file: &WalkedFile,
    hash: ContentHash,
    bytes: u64,
    max_file_bytes: u64,
) -> ObservedFile {
    // A `.txt` file is not known to be a document yet: oversize, it is just inventoried.
    let analysable = !matches!(classify(&file.path), Kind::Other | Kind::Text);
    let class = if analysable {
        FileClass::Oversize
    } else {
        FileClass::Other
    };
    let mut diagnostics = Vec::new();
    if analysable {
        diagnostics.push(Diagnostic::new(
            "oversize-file",
            Severity::Warning,
            file.path.clone(),
            None,
            format!(
                "{bytes} bytes exceeds safety.maxFileBytes ({max_file_bytes}); inventoried but not analysed"
            ),
            None,
        ));
    }
    ObservedFile {
        reused: false,
        site: None,
        record: FileRecord {
            path: file.path.clone(),
            bytes,
            content_hash: hash,
            class,
            lines: None,
            linguist: None,
        },
        analysis: Analysis::None,
        diagnostics,
    }
}

/// Hashes and analyses a file's bytes; a documentation site's configuration also gives what
/// it says about the site's pages.
fn analyse_bytes(file: &WalkedFile, bytes: Vec<u8>, cache: &AnalysisCache) -> ObservedFile {
    let site = crate::sites::site_settings(&file.path, &bytes);
    let mut observed = analyse_file_bytes(file, bytes, cache);
    observed.site = site;
    observed
}

/// Hashes and analyses a file's bytes.
fn analyse_file_bytes(file: &WalkedFile, bytes: Vec<u8>, cache: &AnalysisCache) -> ObservedFile {
    let kind = classify(&file.path);
    let analysable = !matches!(kind, Kind::Other);
    let record = |bytes: u64, hash: ContentHash, class: FileClass, lines: Option<u32>| FileRecord {
        path: file.path.clone(),
        bytes,
        content_hash: hash,
        class,
        lines,
        linguist: None,
    };

    let hash = ContentHash::of_bytes(&bytes);
    let size = bytes.len() as u64;
    if !analysable {
        return ObservedFile {
            reused: false,
            site: None,
            record: record(size, hash, FileClass::Other, None),
            analysis: Analysis::None,
            diagnostics: Vec::new(),
        };
    }
    let text = match text_of(&file.path, &bytes) {
        Ok(text) => text,
        // Not text after all: a `.txt` file is just inventoried, as any other file.
        Err(_) if kind == Kind::Text => {
            return ObservedFile {
                reused: false,
                site: None,
                record: record(size, hash, FileClass::Other, None),
                analysis: Analysis::None,
                diagnostics: Vec::new(),
            };
        }
        Err(diagnostic) => {
            return ObservedFile {
                reused: false,
                site: None,
                record: record(size, hash, FileClass::Unreadable, None),
                analysis: Analysis::None,
                diagnostics: vec![*diagnostic],
            };
        }
    };
    let lines = Some(count_lines(&bytes));
    match kind {
        Kind::Text => ObservedFile {
            reused: false,
            site: None,
            record: record(size, hash, FileClass::Other, lines),
            analysis: Analysis::Text(Box::new(doc_bridge_markdown::rst::analyze(
                text,
                file.path.file_stem(),
            ))),
            diagnostics: Vec::new(),
        },
        Kind::Document(format) => {
            let facts = format.analyze(text, file.path.file_stem());
            let mut diagnostics = Vec::new();
            // A template's front matter (a Hugo archetype's `title: {{ .Name }}`) becomes YAML
            // only once it is filled in.
            if let Some(error) = facts
                .front_matter_error
                .as_ref()
                .filter(|_| !front_matter_is_template(text))
            {
                diagnostics.push(Diagnostic::new(
                    "front-matter-invalid",
                    Severity::Warning,
                    file.path.clone(),
                    Some(error.line),
                    format!("front matter is not a valid YAML mapping ({}); the rest of the document was read", error.message),
                    None,
                ));
            }
            ObservedFile {
                reused: false,
                site: None,
                record: record(size, hash, FileClass::Document, lines),
                analysis: Analysis::Document(Box::new(facts)),
                diagnostics,
            }
        }
        // Objective-C headers share `.h`; they are not analyzed (not C++ full of errors).
        Kind::Module(Language::Cpp) if doc_bridge_source::is_objective_c(&bytes) => ObservedFile {
            reused: false,
            site: None,
            record: record(size, hash, FileClass::Other, None),
            analysis: Analysis::None,
            diagnostics: Vec::new(),
        },
        Kind::Module(language) => {
            let cached = cache.get(language, &hash).cloned();
            let reused = cached.is_some();
            let facts = cached.unwrap_or_else(|| doc_bridge_source::analyze(language, &bytes));
            let diagnostics = facts
                .syntax_errors
                .first()
                .map(|first| {
                    let (code, severity) = parse_error_code(language);
                    Diagnostic::new(
                        code,
                        severity,
                        file.path.clone(),
                        Some(first.line),
                        format!(
                            "{} syntax error(s), first: {}; symbols and imports were read where possible",
                            facts.syntax_error_count, first.message
                        ),
                        None,
                    )
                })
                .into_iter()
                .collect();
            ObservedFile {
                record: record(size, hash, FileClass::Module, lines),
                analysis: Analysis::Module(language, Box::new(facts)),
                diagnostics,
                reused,
                site: None,
            }
        }
        Kind::Manifest(kind) => match manifest::analyze_file(kind, text, file.path.file_name()) {
            Ok(facts) => ObservedFile {
                reused: false,
                site: None,
                record: record(size, hash, FileClass::Manifest, lines),
                analysis: Analysis::Manifest(Box::new(facts)),
                diagnostics: Vec::new(),
            },
            Err(message) => ObservedFile {
                reused: false,
                site: None,
                record: record(size, hash, FileClass::Manifest, lines),
                analysis: Analysis::None,
                diagnostics: vec![Diagnostic::new(
                    "manifest-invalid",
                    Severity::Warning,
                    file.path.clone(),
                    None,
                    format!("manifest could not be read: {message}"),
                    None,
                )],
            },
        },
        Kind::Config => ObservedFile {
            reused: false,
            site: None,
            record: record(size, hash, FileClass::Config, lines),
            analysis: Analysis::None,
            diagnostics: Vec::new(),
        },
        Kind::Attributes => ObservedFile {
            reused: false,
            site: None,
            record: record(size, hash, FileClass::Other, None),
            analysis: Analysis::Attributes(text.to_owned()),
            diagnostics: Vec::new(),
        },
        Kind::Other => ObservedFile {
            reused: false,
            site: None,
            record: record(size, hash, FileClass::Other, None),
            analysis: Analysis::None,
            diagnostics: Vec::new(),
        },
    }
}

/// The file's text, or a diagnostic for binary content or invalid UTF-8.
fn text_of<'a>(path: &RelPath, bytes: &'a [u8]) -> Result<&'a str, Box<Diagnostic>> {
    let head = &bytes[..bytes.len().min(8192)];
    if memchr::memchr(0, head).is_some() {
        return Err(Box::new(Diagnostic::new(
            "binary-file",
            Severity::Warning,
            path.clone(),
            None,
            "file has a text extension but binary content (NUL bytes); not analysed",
            None,
        )));
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(body).map_err(|error| {
        let offset = error.valid_up_to();
        let line = count_lines(&body[..offset]) + u32::from(body[..offset].ends_with(b"\n"));
        Box::new(Diagnostic::new(
            "invalid-utf8",
            Severity::Warning,
            path.clone(),
            Some(line.max(1)),
            format!("invalid UTF-8 at byte {offset}; not analysed (re-encode the file as UTF-8)"),
            None,
        ))
    })
}

/// Lines of a text: newlines, plus one for a last line without a trailing newline.
pub fn count_lines(bytes: &[u8]) -> u32 {
    let newlines = memchr::memchr_iter(b'\n', bytes).count();
    let partial = usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
    u32::try_from(newlines + partial).unwrap_or(u32::MAX)
}

fn hash_streaming(file: &mut impl Read) -> std::io::Result<(ContentHash, u64)> {
    let mut hasher = StreamingHasher::default();
    let mut buffer = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        total += n as u64;
        hasher.update(&buffer[..n]);
    }
    Ok((hasher.finish(), total))
}

fn unreadable(file: &WalkedFile, error: &ReadError) -> ObservedFile {
    // The size as a stat by path says (a file that cannot be opened may still be statted; a
    // symbolic link is not followed); the walk's when that fails too.
    let bytes = std::fs::symlink_metadata(&file.full_path).map_or(file.bytes, |m| m.len());
    ObservedFile {
        reused: false,
        site: None,
        record: FileRecord {
            path: file.path.clone(),
            bytes,
            // The content could not be read; hash the empty input so the record stays well formed
            // and any later successful read registers as a change.
            content_hash: ContentHash::of_bytes(b""),
            class: FileClass::Unreadable,
            lines: None,
            linguist: None,
        },
        analysis: Analysis::None,
        diagnostics: vec![Diagnostic::new(
            "unreadable-file",
            Severity::Warning,
            file.path.clone(),
            None,
            format!("could not read the file ({error}); it was skipped"),
            None,
        )],
    }
}

/// Hashes every file without analysing it, in parallel: the freshness fingerprint. A file that
/// cannot be read hashes as empty, exactly as [`observe`] records it.
pub fn hash_all(root: &RootDir, files: &[WalkedFile]) -> Vec<(RelPath, ContentHash)> {
    files
        .par_iter()
        .map(|file| (file.path.clone(), hash_file(root, file)))
        .collect()
}

/// One file's hash as [`observe`] records it (empty-input hash when unreadable, or when it is
/// no longer a regular file).
pub fn hash_file(root: &RootDir, file: &WalkedFile) -> ContentHash {
    root.open_file(file.path.as_str())
        .ok()
        .and_then(|mut handle| hash_streaming(&mut handle.reported_bytes()).ok())
        .map_or_else(|| ContentHash::of_bytes(b""), |(hash, _)| hash)
}

/// Whether a document's front matter (its opening `---` block) holds template placeholders
/// (`{{`, `{%`, `<%`): a template a tool fills in, not YAML yet.
fn front_matter_is_template(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("---") else {
        return false;
    };
    let block = rest.find("\n---").map_or(rest, |end| &rest[..end]);
    ["{{", "{%", "<%"].iter().any(|open| block.contains(open))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counting_matches_the_analyzers_definition() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"a"), 1);
        assert_eq!(count_lines(b"a\n"), 1);
        assert_eq!(count_lines(b"a\nb"), 2);
    }

    #[test]
    fn classification_by_name() {
        let p = |s| RelPath::new(s).unwrap();
        assert_eq!(classify(&p("docs/A.MD")), Kind::Document(Format::Markdown));
        assert_eq!(
            classify(&p("docs/guide.RST")),
            Kind::Document(Format::ReStructuredText)
        );
        assert_eq!(
            classify(&p("docs/guide.adoc")),
            Kind::Document(Format::AsciiDoc)
        );
        assert_eq!(classify(&p("docs/intro.txt")), Kind::Text);
        assert_eq!(
            classify(&p("doc/index.rst.template")),
            Kind::Document(Format::ReStructuredText)
        );
        assert_eq!(classify(&p("doc/mail.txt.template")), Kind::Other);
        assert_eq!(
            classify(&p("x/package.json")),
            Kind::Manifest(ManifestKind::PackageJson)
        );
        assert_eq!(
            classify(&p("native/CMakeLists.txt")),
            Kind::Manifest(ManifestKind::CmakeLists)
        );
        assert_eq!(classify(&p("doc-bridge.config.json")), Kind::Config);
        assert_eq!(classify(&p("a/doc-bridge.config.json")), Kind::Other);
        assert!(matches!(
            classify(&p("src/a.tsx")),
            Kind::Module(Language::Tsx)
        ));
        assert_eq!(classify(&p("logo.png")), Kind::Other);
    }

    #[test]
    fn a_deferred_walk_gets_its_stats_from_the_opened_files_and_observes_the_same() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "# A\n\nText.\n").unwrap();
        std::fs::write(dir.path().join("big.md"), "x".repeat(100)).unwrap();
        std::fs::write(dir.path().join("c.txt"), "other").unwrap();
        let options = |defer_stat| crate::walk::WalkOptions {
            defer_stat,
            ..Default::default()
        };
        let statted = crate::walk::walk(dir.path(), &options(false))
            .unwrap()
            .files;
        let mut deferred = crate::walk::walk(dir.path(), &options(true)).unwrap().files;
        assert!(
            deferred
                .iter()
                .all(|f| f.bytes == 0 && f.modified_ns.is_none())
        );
        let cache = AnalysisCache::default();
        let root = RootDir::open(dir.path()).unwrap();
        let observed = observe_and_stat_all(&root, &mut deferred, 50, &cache, &|| {});
        // The stats the walk would have taken, and the same observations.
        assert_eq!(deferred, statted);
        let expected = observe_all(&root, &statted, 50, &cache, &|| {});
        let records = |o: &[ObservedFile]| o.iter().map(|f| f.record.clone()).collect::<Vec<_>>();
        assert_eq!(records(&observed), records(&expected));
        let big = observed
            .iter()
            .find(|f| f.record.path.as_str() == "big.md")
            .unwrap();
        assert_eq!(big.record.class, FileClass::Oversize);
        assert_eq!(big.record.bytes, 100);
        // A file gone between the walk and the read: unreadable, never a panic.
        std::fs::remove_file(dir.path().join("a.md")).unwrap();
        let observed = observe_and_stat_all(&root, &mut deferred, 50, &cache, &|| {});
        assert_eq!(observed[0].record.class, FileClass::Unreadable);
        assert_eq!(observed[0].diagnostics[0].code, "unreadable-file");
    }

    #[test]
    fn an_objective_c_header_is_a_file_and_a_c_header_a_module() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Lamp.h"),
            "#import <Foundation/Foundation.h>\n@interface Lamp : NSObject\n@end\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("wick.h"), "int wick_trim(int length);\n").unwrap();
        let walked = crate::walk::walk(dir.path(), &crate::walk::WalkOptions::default())
            .unwrap()
            .files;
        let root = RootDir::open(dir.path()).unwrap();
        let observed = observe_all(&root, &walked, 1 << 20, &AnalysisCache::default(), &|| {});
        let by_name = |name: &str| {
            observed
                .iter()
                .find(|f| f.record.path.as_str() == name)
                .unwrap()
        };
        let objc = by_name("Lamp.h");
        assert_eq!(objc.record.class, FileClass::Other);
        assert!(matches!(objc.analysis, Analysis::None));
        assert!(
            objc.diagnostics.is_empty(),
            "no parse-error for Objective-C"
        );
        let c = by_name("wick.h");
        assert_eq!(c.record.class, FileClass::Module);
        assert!(matches!(c.analysis, Analysis::Module(Language::Cpp, _)));
        assert_eq!(
            parse_error_code(Language::Cpp),
            ("c-parse-error", Severity::Info)
        );
        assert_eq!(
            parse_error_code(Language::C),
            ("c-parse-error", Severity::Info)
        );
        assert_eq!(
            parse_error_code(Language::Kotlin),
            ("parse-error", Severity::Info)
        );
    }

    /// The walk saw regular files; before they are read, one becomes a link to a file outside
    /// the root, one a FIFO with no writer, one a link to `/dev/zero`. None is followed, none
    /// blocks, and nothing of the outside file is read.
    #[cfg(unix)]
    #[test]
    fn files_swapped_after_the_walk_are_never_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("passwd"), "root:x:0:0:secret-marker").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("docs")).unwrap();
        for name in ["a.md", "b.md", "c.md", "docs/d.md", "ok.md"] {
            std::fs::write(dir.path().join(name), "# Fine\n").unwrap();
        }
        let walked = crate::walk::walk(dir.path(), &crate::walk::WalkOptions::default())
            .unwrap()
            .files;
        assert_eq!(walked.len(), 5);
        let swap = |name: &str, target: &std::path::Path| {
            std::fs::remove_file(dir.path().join(name)).unwrap();
            std::os::unix::fs::symlink(target, dir.path().join(name)).unwrap();
        };
        swap("a.md", &outside.path().join("passwd"));
        swap("c.md", std::path::Path::new("/dev/zero"));
        std::fs::remove_file(dir.path().join("b.md")).unwrap();
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            dir.path().join("b.md"),
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        )
        .unwrap();
        // A directory on the way becomes a link to the outside.
        std::fs::rename(dir.path().join("docs"), dir.path().join("docs-moved")).unwrap();
        std::fs::copy(outside.path().join("passwd"), outside.path().join("d.md")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("docs")).unwrap();

        let root = RootDir::open(dir.path()).unwrap();
        let observed = observe_all(&root, &walked, 1 << 20, &AnalysisCache::default(), &|| {});
        for file in &observed[..4] {
            assert_eq!(
                file.record.class,
                FileClass::Unreadable,
                "{:?}",
                file.record
            );
            assert_eq!(file.record.content_hash, ContentHash::of_bytes(b""));
            assert!(matches!(file.analysis, Analysis::None));
            assert!(
                file.diagnostics[0].message.contains("not a regular file"),
                "{:?}",
                file.diagnostics
            );
        }
        assert_eq!(observed[4].record.class, FileClass::Document);
        // The freshness hash refuses them the same way.
        for file in &walked[..4] {
            assert_eq!(hash_file(&root, file), ContentHash::of_bytes(b""));
        }
    }

    #[test]
    fn a_file_that_grows_past_the_limit_is_never_held_whole() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "x".repeat(10)).unwrap();
        let root = RootDir::open(dir.path()).unwrap();
        let mut file = root.open_file("a.md").unwrap();
        std::fs::write(dir.path().join("a.md"), "x".repeat(1000)).unwrap();
        // Opened at 10 bytes, 1000 now: at most the limit plus one byte is read.
        assert_eq!(file.read_bounded(50).unwrap().len(), 51);
    }

    #[test]
    fn invalid_utf8_reports_its_line() {
        let path = RelPath::new("a.md").unwrap();
        let err = text_of(&path, b"ok\nfine\nbad \xff here").unwrap_err();
        assert_eq!(err.code, "invalid-utf8");
        assert_eq!(err.line, Some(3));
        assert_eq!(text_of(&path, b"\x00\x01").unwrap_err().code, "binary-file");
        assert_eq!(text_of(&path, b"\xEF\xBB\xBFhi").unwrap(), "hi");
    }
}
