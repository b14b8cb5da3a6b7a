//! `uncovered-package` and `uncovered-area`: code no document is about.
//!
//! A package is covered when its manifest names a readme, a document lies inside its root, or a
//! document covers, mentions or links to the package or anything inside its root. An area is covered when a document lies
//! inside its directory, covers, mentions or links to the area or one of its modules, or covers
//! a package or directory that holds the area. A package that holds no source module (a BOM, a
//! package of styles or data) has no code to document and is not judged.

use doc_bridge_model::snapshot::{Diagnostic, Entity, RelationKind, Severity, Snapshot};
use doc_bridge_model::{EntityId, RelPath};

use crate::graph::Graph;

/// Diagnostics for every uncovered package and area.
pub fn diagnostics(snapshot: &Snapshot, graph: &Graph<'_>) -> Vec<Diagnostic> {
    let documents: Vec<&RelPath> = snapshot
        .entities
        .iter()
        .filter(|e| matches!(e, Entity::Document(_)))
        .map(|e| e.path())
        .collect();
    let with_code = packages_with_code(snapshot);
    let mut out = Vec::new();
    for entity in &snapshot.entities {
        match entity {
            Entity::Package(package) if with_code.contains(&package.id) => {
                let covered = package.readme.is_some()
                    || documents.iter().any(|d| d.is_within(&package.path))
                    || graph.document_references.iter().any(|r| {
                        graph
                            .path_of(&r.to)
                            .is_some_and(|target| target.is_within(&package.path))
                    });
                if !covered {
                    out.push(Diagnostic::new(
                        "uncovered-package",
                        Severity::Warning,
                        package.manifest.clone(),
                        None,
                        format!(
                            "no document covers, mentions or lives in package `{}`; document it or add `covers: [{}]` to a document's front matter",
                            package.name, package.name
                        ),
                        Some(package.id.clone()),
                    ));
                }
            }
            Entity::Area(area) => {
                if !area_covered(&area.id, &area.path, &documents, graph) {
                    let modules = graph.modules_of.get(&area.id);
                    let location = modules
                        .and_then(|m| m.first())
                        .and_then(|m| graph.path_of(m))
                        .unwrap_or(&area.path);
                    out.push(Diagnostic::new(
                        "uncovered-area",
                        Severity::Info,
                        location.clone(),
                        None,
                        format!(
                            "no document covers, mentions or links into area `{}` ({} module(s))",
                            area.path,
                            modules.map_or(0, Vec::len)
                        ),
                        Some(area.id.clone()),
                    ));
                }
            }
            Entity::Package(_) | Entity::Document(_) | Entity::Module(_) | Entity::File(_) => {}
        }
    }
    out
}

/// The packages that hold a source module: each module counts for the nearest package whose
/// root is one of its folders.
fn packages_with_code(snapshot: &Snapshot) -> std::collections::HashSet<&EntityId> {
    let roots: std::collections::HashMap<&RelPath, &EntityId> = snapshot
        .entities
        .iter()
        .filter_map(|e| match e {
            Entity::Package(p) => Some((&p.path, &p.id)),
            _ => None,
        })
        .collect();
    let mut with_code = std::collections::HashSet::new();
    for entity in &snapshot.entities {
        let Entity::Module(module) = entity else {
            continue;
        };
        let mut folder = module.path.parent();
        loop {
            if let Some(id) = roots.get(&folder) {
                with_code.insert(*id);
                break;
            }
            if folder.is_root() {
                break;
            }
            folder = folder.parent();
        }
    }
    with_code
}

fn area_covered(id: &EntityId, path: &RelPath, documents: &[&RelPath], graph: &Graph<'_>) -> bool {
    if !path.is_root() && documents.iter().any(|d| d.is_within(path)) {
        return true;
    }
    graph.document_references.iter().any(|r| {
        r.to == *id
            || graph.area_of.get(&r.to) == Some(&id)
            || (r.kind == RelationKind::Covers
                && graph
                    .path_of(&r.to)
                    .is_some_and(|target| path.is_within(target)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{area, contains, covers, document, mention, module, package, snapshot};

    #[test]
    fn packages_are_covered_by_documents_inside_or_references_into_them() {
        let s = snapshot(
            vec![
                package("a", "pkgs/a"),
                package("b", "pkgs/b"),
                package("c", "pkgs/c"),
                package("d", "pkgs/d"),
                package("bom", "pkgs/bom"),
                module("pkgs/b/src/x.ts"),
                module("pkgs/d/index.ts"),
                document("pkgs/a/README.md"),
                document("docs/guide.md"),
            ],
            vec![
                mention("docs/guide.md", "module:pkgs/b/src/x.ts"),
                covers("docs/guide.md", "package:c"),
            ],
        );
        let out = diagnostics(&s, &Graph::new(&s));
        let uncovered: Vec<_> = out
            .iter()
            .filter(|d| d.code == "uncovered-package")
            .map(|d| d.entity.as_ref().map(|e| e.as_str().to_owned()))
            .collect();
        // `bom` holds no module: nothing to document.
        assert_eq!(uncovered, [Some("package:d".to_owned())]);
        assert_eq!(out[0].path.as_str(), "pkgs/d/package.json");
    }

    #[test]
    fn areas_are_covered_by_mentions_of_their_modules_or_covers_of_a_holder() {
        let s = snapshot(
            vec![
                package("p", "pkgs/p"),
                area("pkgs/p/src"),
                area("pkgs/q/src"),
                area("tools"),
                area("lonely"),
                module("pkgs/p/src/a.ts"),
                module("pkgs/q/src/b.ts"),
                module("tools/t.ts"),
                module("lonely/z.ts"),
                document("docs/guide.md"),
            ],
            vec![
                contains("area:pkgs/p/src", "module:pkgs/p/src/a.ts"),
                contains("area:pkgs/q/src", "module:pkgs/q/src/b.ts"),
                contains("area:tools", "module:tools/t.ts"),
                contains("area:lonely", "module:lonely/z.ts"),
                covers("docs/guide.md", "package:p"),
                mention("docs/guide.md", "module:tools/t.ts"),
            ],
        );
        let out = diagnostics(&s, &Graph::new(&s));
        let areas: Vec<(&str, &str)> = out
            .iter()
            .filter(|d| d.code == "uncovered-area")
            .map(|d| {
                (
                    d.entity.as_ref().map_or("", |e| e.as_str()),
                    d.path.as_str(),
                )
            })
            .collect();
        assert_eq!(
            areas,
            [
                ("area:lonely", "lonely/z.ts"),
                ("area:pkgs/q/src", "pkgs/q/src/b.ts")
            ]
        );
    }
}
