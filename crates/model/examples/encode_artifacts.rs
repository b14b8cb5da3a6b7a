//! How long the JSON of a repository's two artifacts takes to make, on one thread, from the
//! values in memory: the canonical encoding, its sha256 (the seal) and the indented form written
//! to disk. The floor the artifact contract puts under a cold `index` (which does each once).
//!
//! ```text
//! cargo run --release -p doc-bridge-model --example encode_artifacts -- DIR   # DIR/.doc-bridge/*.json
//! ```

use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;
use sha2::{Digest, Sha256};

use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::sorted_json::{Style, indent, to_vec};

/// Prints a line on stdout; a closed stdout (`| head`) ends the output, not the program.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

fn main() {
    let Some(root) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: encode_artifacts DIR");
        std::process::exit(2);
    };
    let artifacts = root.join(".doc-bridge");
    let read = |name: &str| match std::fs::read(artifacts.join(name)) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("cannot read {name}: {e}");
            std::process::exit(2);
        }
    };
    let snapshot: Snapshot = parse(&read("snapshot.json"));
    let index: DocBridgeIndexV1 = parse(&read("index.json"));
    let mut total = 0.0;
    total += measure("snapshot.json", &snapshot);
    total += measure("index.json", &index);
    say!("both: {total:.2} s on one thread");
}

fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> T {
    match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(e) => {
            eprintln!("not an artifact: {e}");
            std::process::exit(2);
        }
    }
}

/// Encodes, hashes and indents `value`; prints each step's time and returns their sum.
fn measure<T: Serialize>(name: &str, value: &T) -> f64 {
    let start = Instant::now();
    let Ok(canonical) = to_vec(value, Style::Canonical) else {
        eprintln!("{name}: cannot encode");
        std::process::exit(2);
    };
    let encoded = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let digest = Sha256::digest(&canonical);
    let hashed = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut pretty = Vec::with_capacity(canonical.len() + canonical.len() / 4);
    indent(&canonical, 0, &mut pretty);
    let indented = start.elapsed().as_secs_f64();
    say!(
        "{name}: canonical {:.1} MB in {encoded:.2} s, sha256 {hashed:.2} s ({:02x}{:02x}…), indented {:.1} MB in {indented:.2} s",
        canonical.len() as f64 / 1e6,
        digest[0],
        digest[1],
        pretty.len() as f64 / 1e6
    );
    encoded + hashed + indented
}
