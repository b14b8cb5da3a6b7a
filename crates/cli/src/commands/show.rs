//! `doc-bridge show index|snapshot|report [--pretty]`: an artifact for people to read. The
//! sealed artifacts are stored as one line of canonical JSON (docs/storage.md); this prints them
//! as stored or indented, and says whether the seal still matches the content.

use doc_bridge_model::ContentHash;
use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::index::INDEX_HASH_EXCLUDED;
use doc_bridge_model::report::REPORT_HASH_EXCLUDED;
use doc_bridge_model::snapshot::SNAPSHOT_HASH_EXCLUDED;
use doc_bridge_store::sealed::bytes_carry_seal;

use crate::args::{ShowArgs, ShowName};
use crate::exit::{CommandResult, Exit, UserError};
use crate::repo::Repo;

/// Prints the artifact; exit 1 (after printing it) when its `contentHash` does not match its
/// content, 2 when it is missing or not JSON.
pub fn run(args: &ShowArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let (file, excluded) = match args.name {
        ShowName::Index => (crate::pipeline::INDEX_FILE, INDEX_HASH_EXCLUDED),
        ShowName::Snapshot => (crate::pipeline::SNAPSHOT_FILE, SNAPSHOT_HASH_EXCLUDED),
        ShowName::Report => (super::check::REPORT_FILE, REPORT_HASH_EXCLUDED),
    };
    let shown = format!(".doc-bridge/{file}");
    let bytes = match std::fs::read(repo.artifact(file)) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(UserError::error(format!(
                "no {shown}; run `doc-bridge {}` to write it",
                if file == super::check::REPORT_FILE {
                    "check"
                } else {
                    "index"
                }
            )));
        }
        Err(e) => return Err(UserError::error(format!("cannot read {shown}: {e}"))),
    };
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| UserError::error(format!("{shown} is not JSON: {e}")))?;
    let sealed = seal_matches(&bytes, &value, excluded);
    if args.pretty {
        crate::outln!("{value:#}");
    } else {
        let text = String::from_utf8_lossy(&bytes);
        crate::outln!("{}", text.trim_end_matches('\n'));
    }
    if sealed {
        Ok(Exit::Ok)
    } else {
        crate::errln!(
            "warning: {shown}: its contentHash does not match its content (edited or corrupt); run `doc-bridge index` to regenerate it"
        );
        Ok(Exit::Findings)
    }
}

/// Whether the artifact's `contentHash` is the seal of its content: on the bytes as written,
/// else (a file laid out otherwise) hashed again from its value.
fn seal_matches(bytes: &[u8], value: &serde_json::Value, excluded: &[&str]) -> bool {
    let Some(claimed) = value
        .get("contentHash")
        .and_then(|h| serde_json::from_value::<ContentHash>(h.clone()).ok())
    else {
        return false;
    };
    bytes_carry_seal(bytes, excluded, &claimed)
        || semantic_hash(value, excluded).ok().as_ref() == Some(&claimed)
}
