//! `doc-bridge render`: the HTML report. `view` gathers the artifacts into a view model,
//! `graph` lays out the relation graph, `report` reads `check`'s report leniently, and the
//! askama template (`templates/report.html`, compiled in, every value escaped) prints it.
//!
//! The page is self-contained (inline CSS, SVG and a few lines of JS; nothing loaded from the
//! network) and deterministic: the only date on it is the index's `generatedAt`.

pub mod graph;
pub mod report;
pub mod view;

use askama::Template;

pub use view::{Inputs, Page};

/// The template over the view model.
#[derive(Template)]
#[template(path = "report.html")]
struct ReportTemplate<'a> {
    page: &'a Page,
}

/// Renders the page for `inputs`.
pub fn render(inputs: &Inputs<'_>) -> Result<String, askama::Error> {
    let page = view::build(inputs);
    ReportTemplate { page: &page }.render()
}
