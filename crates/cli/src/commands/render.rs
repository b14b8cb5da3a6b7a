//! `doc-bridge render`: one self-contained HTML report with the review page.
//!
//! Reads the verified index and its snapshot, the overlay, the approval records and `check`'s
//! report; writes one page atomically (only when its bytes change). Never calls an agent. A
//! stale index still renders, with a visible banner, and exits 1 like any other stale answer; a
//! missing or corrupt index or snapshot writes nothing and exits 2. An invalid overlay or report
//! is treated as absent and named on the page.

use std::path::Path;

use crate::args::RenderArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::{OverlayState, load_for_query_with_snapshot, load_overlay};
use crate::render::report::{CheckReport, parse};
use crate::render::{Inputs, render};
use crate::repo::Repo;

/// The default output, under `.doc-bridge/`.
pub const REPORT_HTML: &str = "report.html";
/// `check`'s report, under `.doc-bridge/`.
pub const REPORT_JSON: &str = "report.json";

/// Runs the command.
pub fn run(args: &RenderArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let (loaded, snapshot) = load_for_query_with_snapshot(&repo, true)?;
    let (overlay, overlay_problem) = match load_overlay(&repo) {
        OverlayState::Valid(overlay) => (Some(*overlay), None),
        OverlayState::Missing => (None, None),
        OverlayState::Invalid(why) => {
            let message = format!(
                "The enrichment overlay is invalid and was ignored ({why}); run `doc-bridge enrich` to rebuild it."
            );
            crate::errln!("warning: {message}");
            (None, Some(message))
        }
    };
    let approvals = crate::agent_stage::load_judgments(&repo);
    let report_bytes = std::fs::read(repo.artifact(REPORT_JSON)).ok();
    let report = parse(report_bytes.as_deref(), snapshot.content_hash.as_str());
    if let CheckReport::Ignored(why) = &report {
        crate::errln!("warning: {why}");
    }
    let stale = loaded.stale.as_ref().map(|f| f.summary(5));
    let inputs = Inputs {
        index: &loaded.index,
        snapshot: &snapshot,
        stale: stale.clone(),
        overlay: overlay.as_ref(),
        overlay_problem,
        approvals: &approvals,
        report,
        config: &repo.config,
    };
    let html =
        render(&inputs).map_err(|e| UserError::error(format!("cannot render the report: {e}")))?;
    let out = match &args.out {
        Some(path) => path.clone(),
        None => repo.artifact(REPORT_HTML),
    };
    let wrote = write_page(&out, html.as_bytes())?;
    crate::outln!(
        "report {} ({})",
        out.display(),
        if wrote { "written" } else { "unchanged" }
    );
    if let Some(stale) = stale {
        crate::errln!(
            "warning: rendered from a stale index: {stale}; run `doc-bridge index` and render again"
        );
        return Ok(Exit::Findings);
    }
    Ok(Exit::Ok)
}

/// Writes the page atomically unless the file already holds these bytes.
fn write_page(path: &Path, bytes: &[u8]) -> Result<bool, UserError> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    doc_bridge_store::artifact::write_atomic(path, bytes)
        .map_err(|e| UserError::error(format!("cannot write {}: {e}", path.display())))?;
    Ok(true)
}
