//! SciFact (BEIR) abstracts as a directory of Markdown files.

use crate::fsutil::TreeWriter;
use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// Longest file stem written; ids beyond that are refused rather than silently cut (two cut ids
/// could collide).
const MAX_STEM: usize = 200;

/// One line of BEIR's `corpus.jsonl`.
#[derive(Debug, Deserialize)]
struct Record {
    /// A string in SciFact; BEIR sets elsewhere sometimes use numbers, so accept any scalar.
    #[serde(rename = "_id")]
    id: serde_json::Value,
    #[serde(default)]
    title: String,
    #[serde(default)]
    text: String,
}

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub documents: u64,
    pub bytes: u64,
}

/// Writes every abstract of `corpus` (a BEIR `corpus.jsonl`) as `out/<id>.md`, containing
/// `# <title>\n\n<text>\n`. `out` must exist (see [`crate::fsutil::prepare_out_dir`]).
pub fn write_markdown(corpus: &Path, out: &Path) -> Result<Summary> {
    let file = File::open(corpus).with_context(|| format!("cannot open {}", corpus.display()))?;
    let mut writer = TreeWriter::new(out);
    // Why: two ids that sanitize to one stem would silently overwrite each other and skew recall.
    let mut stems = HashSet::new();
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let at = || format!("{}:{}", corpus.display(), index + 1);
        let line = line.with_context(at)?;
        if line.trim().is_empty() {
            continue;
        }
        let record: Record = serde_json::from_str(&line)
            .with_context(|| format!("{}: not a corpus record", at()))?;
        let id = id_string(&record.id).with_context(at)?;
        let stem = sanitize_id(&id).with_context(at)?;
        if !stems.insert(stem.clone()) {
            bail!(
                "{}: id {id:?} maps to file {stem}.md, already written",
                at()
            );
        }
        writer.write(
            &format!("{stem}.md"),
            render(&record.title, &record.text).as_bytes(),
        )?;
    }
    Ok(Summary {
        documents: writer.files(),
        bytes: writer.bytes(),
    })
}

/// The id as text: a JSON string as is, a number in its JSON spelling.
fn id_string(id: &serde_json::Value) -> Result<String> {
    match id {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        other => bail!("_id must be a string or a number, not {other}"),
    }
}

/// A safe file stem for a corpus id: ASCII letters, digits, `-`, `_` and `.` are kept, anything
/// else becomes `_`, and a leading `.` becomes `_` (no hidden files, no `..`). The evaluation
/// script applies the same rule to qrels ids.
pub fn sanitize_id(id: &str) -> Result<String> {
    if id.is_empty() {
        bail!("empty _id");
    }
    let stem: String = id
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            '.' if i == 0 => '_',
            c if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') => c,
            _ => '_',
        })
        .collect();
    if stem.len() > MAX_STEM {
        bail!("_id longer than {MAX_STEM} characters: {id:?}");
    }
    Ok(stem)
}

/// The Markdown for one abstract. The title goes on one heading line, so line breaks inside it
/// become spaces; everything else is kept as given.
pub fn render(title: &str, text: &str) -> String {
    let title: String = title
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    format!("# {title}\n\n{text}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn sanitizes_ids() {
        assert_eq!(sanitize_id("4983").unwrap(), "4983");
        assert_eq!(sanitize_id("a/b c").unwrap(), "a_b_c");
        assert_eq!(sanitize_id("..").unwrap(), "_.");
        assert_eq!(sanitize_id("é1").unwrap(), "_1");
        assert!(sanitize_id("").is_err());
        assert!(sanitize_id(&"x".repeat(MAX_STEM + 1)).is_err());
    }

    #[test]
    fn renders_title_and_text() {
        assert_eq!(render("T\nU", "body"), "# T U\n\nbody\n");
    }

    #[test]
    fn writes_one_file_per_abstract() {
        let tmp = tempfile::tempdir().unwrap();
        let corpus = tmp.path().join("corpus.jsonl");
        fs::write(
            &corpus,
            concat!(
                r#"{"_id": "4983", "title": "Micro", "text": "Alterations of \"white\" matter."}"#,
                "\n\n",
                r#"{"_id": 7, "title": "", "text": "No title."}"#,
                "\n"
            ),
        )
        .unwrap();
        let out = tmp.path().join("out");
        fs::create_dir(&out).unwrap();
        let summary = write_markdown(&corpus, &out).unwrap();
        assert_eq!(summary.documents, 2);
        assert_eq!(
            fs::read_to_string(out.join("4983.md")).unwrap(),
            "# Micro\n\nAlterations of \"white\" matter.\n"
        );
        assert_eq!(
            fs::read_to_string(out.join("7.md")).unwrap(),
            "# \n\nNo title.\n"
        );
    }

    #[test]
    fn refuses_colliding_ids_and_bad_lines() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        fs::create_dir(&out).unwrap();
        let corpus = tmp.path().join("dup.jsonl");
        fs::write(
            &corpus,
            "{\"_id\": \"a b\", \"text\": \"x\"}\n{\"_id\": \"a_b\", \"text\": \"y\"}\n",
        )
        .unwrap();
        let err = write_markdown(&corpus, &out).unwrap_err();
        assert!(format!("{err:#}").contains("already written"), "{err:#}");
        fs::write(&corpus, "not json\n").unwrap();
        let err = write_markdown(&corpus, &out).unwrap_err();
        assert!(format!("{err:#}").contains(":1"), "{err:#}");
    }
}
