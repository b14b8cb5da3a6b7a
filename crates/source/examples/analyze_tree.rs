//! How long the source analysis (tree-sitter parsing plus the walks for exports, imports,
//! members and text) takes over every module under a directory, on one thread, with the files already in memory:
//! the floor the analyzers put under a cold `index`.
//!
//! ```text
//! cargo run --release -p doc-bridge-source --example analyze_tree -- DIR
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use doc_bridge_source::{Language, analyze};

/// Prints a line on stdout; a closed stdout (`| head`) ends the output, not the program.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

fn main() {
    let Some(root) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: analyze_tree DIR");
        std::process::exit(2);
    };
    let mut modules = Vec::new();
    collect(&root, &mut modules);
    let bytes: usize = modules.iter().map(|(_, source)| source.len()).sum();
    let start = Instant::now();
    let (mut symbols, mut members, mut text, mut truncated) = (0usize, 0usize, 0usize, 0usize);
    for (language, source) in &modules {
        let facts = analyze(*language, source);
        symbols += facts.symbols.len();
        members += facts.members.len();
        text += facts.text.len();
        truncated += usize::from(facts.text_truncated);
    }
    let seconds = start.elapsed().as_secs_f64();
    say!(
        "{} modules, {:.1} MB, {symbols} symbols, {members} members, {:.1} MB of text \
         ({truncated} modules cut): {seconds:.2} s on one thread ({:.1} MB/s)",
        modules.len(),
        bytes as f64 / 1e6,
        text as f64 / 1e6,
        bytes as f64 / 1e6 / seconds
    );
}

/// Every module under `dir` (`.doc-bridge` and `.git` left out), read into memory.
fn collect(dir: &Path, out: &mut Vec<(Language, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name == ".doc-bridge" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            collect(&path, out);
        } else if let Some(language) = path.to_str().and_then(Language::from_path)
            && let Ok(source) = std::fs::read(&path)
        {
            out.push((language, source));
        }
    }
}
