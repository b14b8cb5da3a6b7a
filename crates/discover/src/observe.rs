//! Reading each admitted file once: hash it, classify it, and run its analyzer, from the same
//! buffer. Files are processed in parallel; the output keeps the walk's sorted order.

use std::io::Read;

use doc_bridge_markdown::MarkdownFacts;
use doc_bridge_model::hash::StreamingHasher;
use doc_bridge_model::snapshot::{Diagnostic, FileClass, FileRecord, Severity};
use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_source::{Language, SourceFacts};
use rayon::prelude::*;

use crate::analysis_cache::AnalysisCache;
use crate::manifest::{self, ManifestFacts, manifest_ecosystem};
use crate::walk::WalkedFile;

/// What a file was found to be, with its analyzer's facts.
#[derive(Debug, Clone)]
pub enum Analysis {
    /// A Markdown document.
    Document(Box<MarkdownFacts>),
    /// A source module.
    Module(Language, Box<SourceFacts>),
    /// A package manifest that parsed.
    Manifest(Box<ManifestFacts>),
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
}

/// What kind of analysis a path calls for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Markdown.
    Document,
    /// Source code.
    Module(Language),
    /// A manifest.
    Manifest(doc_bridge_model::snapshot::Ecosystem),
    /// The config file at the root.
    Config,
    /// Anything else.
    Other,
}

/// Classifies a path by its name alone.
pub fn classify(path: &RelPath) -> Kind {
    let name = path.file_name();
    if path.as_str() == doc_bridge_model::config::CONFIG_FILE {
        return Kind::Config;
    }
    if let Some(ecosystem) = manifest_ecosystem(name) {
        return Kind::Manifest(ecosystem);
    }
    let ext = path.extension().map(str::to_ascii_lowercase);
    if matches!(ext.as_deref(), Some("md" | "mdx" | "markdown")) {
        return Kind::Document;
    }
    match Language::from_path(path.as_str()) {
        Some(language) => Kind::Module(language),
        None => Kind::Other,
    }
}

/// Reads, hashes and analyses every file, in parallel. Output order = input order.
/// `on_file` is called once per file (for progress reporting), from any thread.
pub fn observe_all(
    files: &[WalkedFile],
    max_file_bytes: u64,
    cache: &AnalysisCache,
    on_file: &(dyn Fn() + Sync),
) -> Vec<ObservedFile> {
    files
        .par_iter()
        .map(|file| {
            let observed = observe(file, max_file_bytes, cache);
            on_file();
            observed
        })
        .collect()
}

/// [`observe_all`] for files walked with `defer_stat` (or not): each file's `bytes` and
/// `modified_ns` are set from the file as it was opened, with no second stat by path.
pub fn observe_and_stat_all(
    files: &mut [WalkedFile],
    max_file_bytes: u64,
    cache: &AnalysisCache,
    on_file: &(dyn Fn() + Sync),
) -> Vec<ObservedFile> {
    files
        .par_iter_mut()
        .map(|file| {
            let (observed, metadata) = observe_opened(file, max_file_bytes, cache);
            if let Some(metadata) = metadata {
                file.bytes = metadata.len();
                file.modified_ns = crate::walk::modified_ns(Some(metadata));
            }
            on_file();
            observed
        })
        .collect()
}

/// Reads, hashes and analyses one file. Never panics; I/O problems become diagnostics.
pub fn observe(file: &WalkedFile, max_file_bytes: u64, cache: &AnalysisCache) -> ObservedFile {
    observe_opened(file, max_file_bytes, cache).0
}

/// [`observe`], with the metadata of the file as it was opened (`None` when it could not be).
fn observe_opened(
    file: &WalkedFile,
    max_file_bytes: u64,
    cache: &AnalysisCache,
) -> (ObservedFile, Option<std::fs::Metadata>) {
    let mut handle = match std::fs::File::open(&file.full_path) {
        Ok(handle) => handle,
        Err(error) => return (unreadable(file, &error), None),
    };
    let metadata = handle.metadata().ok();
    // The size now, not the walk's: the file may have changed since (and a deferred walk has
    // none).
    let size = metadata.as_ref().map_or(file.bytes, std::fs::Metadata::len);
    let observed = if size > max_file_bytes {
        oversize(file, &mut handle, max_file_bytes)
    } else {
        let mut bytes = Vec::new();
        // The exact size up front, as `std::fs::read` does; a file that grew just reads on.
        // Read through `Take`: `File`'s own `read_to_end` asks the size and position again
        // (two more system calls per file).
        let _ = bytes.try_reserve_exact(usize::try_from(size).unwrap_or(0));
        match (&mut handle).take(u64::MAX).read_to_end(&mut bytes) {
            Ok(_) => analyse_bytes(file, bytes, cache),
            Err(error) => unreadable(file, &error),
        }
    };
    (observed, metadata)
}

/// A file over the size limit: inventoried (hashed as it streams past) but not analysed.
fn oversize(file: &WalkedFile, handle: &mut std::fs::File, max_file_bytes: u64) -> ObservedFile {
    let kind = classify(&file.path);
    let analysable = !matches!(kind, Kind::Other);
    match hash_streaming(handle) {
        Ok((hash, bytes)) => {
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
                record: FileRecord {
                    path: file.path.clone(),
                    bytes,
                    content_hash: hash,
                    class,
                    lines: None,
                },
                analysis: Analysis::None,
                diagnostics,
            }
        }
        Err(error) => unreadable(file, &error),
    }
}

/// Hashes and analyses a file's bytes.
fn analyse_bytes(file: &WalkedFile, bytes: Vec<u8>, cache: &AnalysisCache) -> ObservedFile {
    let kind = classify(&file.path);
    let analysable = !matches!(kind, Kind::Other);
    let record = |bytes: u64, hash: ContentHash, class: FileClass, lines: Option<u32>| FileRecord {
        path: file.path.clone(),
        bytes,
        content_hash: hash,
        class,
        lines,
    };

    let hash = ContentHash::of_bytes(&bytes);
    let size = bytes.len() as u64;
    if !analysable {
        return ObservedFile {
            reused: false,
            record: record(size, hash, FileClass::Other, None),
            analysis: Analysis::None,
            diagnostics: Vec::new(),
        };
    }
    let text = match text_of(&file.path, &bytes) {
        Ok(text) => text,
        Err(diagnostic) => {
            return ObservedFile {
                reused: false,
                record: record(size, hash, FileClass::Unreadable, None),
                analysis: Analysis::None,
                diagnostics: vec![*diagnostic],
            };
        }
    };
    let lines = Some(count_lines(&bytes));
    match kind {
        Kind::Document => {
            let facts = doc_bridge_markdown::analyze(text, file.path.file_stem());
            let mut diagnostics = Vec::new();
            if let Some(error) = &facts.front_matter_error {
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
                record: record(size, hash, FileClass::Document, lines),
                analysis: Analysis::Document(Box::new(facts)),
                diagnostics,
            }
        }
        Kind::Module(language) => {
            let cached = cache.get(language, &hash).cloned();
            let reused = cached.is_some();
            let facts = cached.unwrap_or_else(|| doc_bridge_source::analyze(language, &bytes));
            let diagnostics = facts
                .syntax_errors
                .first()
                .map(|first| {
                    Diagnostic::new(
                        "parse-error",
                        Severity::Warning,
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
            }
        }
        Kind::Manifest(ecosystem) => match manifest::analyze(ecosystem, text) {
            Ok(facts) => ObservedFile {
                reused: false,
                record: record(size, hash, FileClass::Manifest, lines),
                analysis: Analysis::Manifest(Box::new(facts)),
                diagnostics: Vec::new(),
            },
            Err(message) => ObservedFile {
                reused: false,
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
            record: record(size, hash, FileClass::Config, lines),
            analysis: Analysis::None,
            diagnostics: Vec::new(),
        },
        Kind::Other => ObservedFile {
            reused: false,
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

fn hash_streaming(file: &mut std::fs::File) -> std::io::Result<(ContentHash, u64)> {
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

fn unreadable(file: &WalkedFile, error: &std::io::Error) -> ObservedFile {
    // The size as a stat by path says (a file that cannot be opened may still be statted); the
    // walk's when that fails too.
    let bytes = std::fs::metadata(&file.full_path).map_or(file.bytes, |m| m.len());
    ObservedFile {
        reused: false,
        record: FileRecord {
            path: file.path.clone(),
            bytes,
            // The content could not be read; hash the empty input so the record stays well formed
            // and any later successful read registers as a change.
            content_hash: ContentHash::of_bytes(b""),
            class: FileClass::Unreadable,
            lines: None,
        },
        analysis: Analysis::None,
        diagnostics: vec![Diagnostic::new(
            "unreadable-file",
            Severity::Warning,
            file.path.clone(),
            None,
            format!("could not read the file ({}); it was skipped", error.kind()),
            None,
        )],
    }
}

/// Hashes every file without analysing it, in parallel: the freshness fingerprint. A file that
/// cannot be read hashes as empty, exactly as [`observe`] records it.
pub fn hash_all(files: &[WalkedFile]) -> Vec<(RelPath, ContentHash)> {
    files
        .par_iter()
        .map(|file| (file.path.clone(), hash_file(file)))
        .collect()
}

/// One file's hash as [`observe`] records it (empty-input hash when unreadable).
pub fn hash_file(file: &WalkedFile) -> ContentHash {
    std::fs::File::open(&file.full_path)
        .and_then(|mut handle| hash_streaming(&mut handle))
        .map(|(hash, _)| hash)
        .unwrap_or_else(|_| ContentHash::of_bytes(b""))
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
        assert_eq!(classify(&p("docs/A.MD")), Kind::Document);
        assert_eq!(
            classify(&p("x/package.json")),
            Kind::Manifest(doc_bridge_model::snapshot::Ecosystem::Npm)
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
        let observed = observe_and_stat_all(&mut deferred, 50, &cache, &|| {});
        // The stats the walk would have taken, and the same observations.
        assert_eq!(deferred, statted);
        let expected = observe_all(&statted, 50, &cache, &|| {});
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
        let observed = observe_and_stat_all(&mut deferred, 50, &cache, &|| {});
        assert_eq!(observed[0].record.class, FileClass::Unreadable);
        assert_eq!(observed[0].diagnostics[0].code, "unreadable-file");
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
