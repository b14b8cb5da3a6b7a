//! The relation graph of the report: entities folded to packages, areas and documents (a
//! module stands for its area), laid out in three columns, drawn as inline SVG.
//!
//! Deterministic: nodes sort by id, edges by (from, to, style); no randomness, no iteration over
//! hash maps. Bounded: at most [`MAX_NODES_PER_COLUMN`] nodes per column (the most connected,
//! tests and fixtures last), and the page says what was left out.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::EntityId;
use doc_bridge_model::snapshot::{Entity, RelationKind, Snapshot};
use unicode_width::UnicodeWidthChar;

/// Most nodes drawn per column.
pub const MAX_NODES_PER_COLUMN: usize = 40;

const NODE_WIDTH: u32 = 210;
const NODE_HEIGHT: u32 = 24;
const ROW: u32 = 32;
const COLUMN_GAP: u32 = 150;
const MARGIN_X: u32 = 90;
const TOP: u32 = 40;
const LABEL_CHARS: usize = 28;

/// An edge before layout: from and to are node ids (entity ids of packages, areas, documents).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct GraphEdge {
    /// Source node.
    pub from: EntityId,
    /// Target node.
    pub to: EntityId,
    /// An accepted proposed relation (drawn dashed) rather than an observed or declared one.
    pub proposed: bool,
    /// Relation kind (`imports`, `mentions`, ...).
    pub kind: String,
}

/// A laid-out node.
#[derive(Debug, Clone)]
pub struct SvgNode {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Text baseline x.
    pub text_x: u32,
    /// Text baseline y.
    pub text_y: u32,
    /// The label, shortened to fit.
    pub label: String,
    /// The full name and id, for the tooltip.
    pub title: String,
    /// `package`, `area` or `document` (CSS class).
    pub kind: &'static str,
    /// Anchor of the entity's card on the page.
    pub anchor: String,
}

/// A laid-out edge.
#[derive(Debug, Clone)]
pub struct SvgEdge {
    /// SVG path data.
    pub path: String,
    /// CSS classes: the kind, and `proposed` for dashed edges.
    pub class: String,
    /// Tooltip.
    pub title: String,
}

/// A column heading.
#[derive(Debug, Clone)]
pub struct SvgHeading {
    /// Left edge.
    pub x: u32,
    /// The text.
    pub text: String,
}

/// The laid-out graph.
#[derive(Debug, Clone, Default)]
pub struct Svg {
    /// Canvas width.
    pub width: u32,
    /// Canvas height.
    pub height: u32,
    /// Column headings.
    pub headings: Vec<SvgHeading>,
    /// Nodes.
    pub nodes: Vec<SvgNode>,
    /// Edges.
    pub edges: Vec<SvgEdge>,
    /// What the caps left out, for the page.
    pub omitted: Vec<String>,
}

/// Which column a node kind goes to.
fn column(id: &EntityId) -> Option<usize> {
    match id.as_str().split_once(':').map(|(kind, _)| kind) {
        Some("package") => Some(0),
        Some("area") => Some(1),
        Some("document") => Some(2),
        _ => None,
    }
}

/// The node an entity is drawn as: a module folds into its area.
fn node_of(id: &EntityId, area_of: &BTreeMap<&EntityId, &EntityId>) -> Option<EntityId> {
    if column(id).is_some() {
        return Some(id.clone());
    }
    area_of.get(id).map(|a| (*a).clone())
}

/// Folds the snapshot's relations and the accepted proposed ones onto package, area and
/// document nodes. Relations inside one node (a module importing a module of its own area)
/// disappear.
pub fn fold_edges(
    snapshot: &Snapshot,
    proposed: &[(EntityId, EntityId, String)],
) -> Vec<GraphEdge> {
    let area_of: BTreeMap<&EntityId, &EntityId> = snapshot
        .relations
        .iter()
        .filter(|r| {
            r.kind == RelationKind::Contains
                && r.from.as_str().starts_with("area:")
                && r.to.as_str().starts_with("module:")
        })
        .map(|r| (&r.to, &r.from))
        .collect();
    let observed = snapshot
        .relations
        .iter()
        .map(|r| (&r.from, &r.to, r.kind.as_str().to_owned(), false));
    let accepted = proposed
        .iter()
        .map(|(from, to, kind)| (from, to, kind.clone(), true));
    let mut edges = BTreeSet::new();
    for (from, to, kind, proposed) in observed.chain(accepted) {
        let (Some(from), Some(to)) = (node_of(from, &area_of), node_of(to, &area_of)) else {
            continue;
        };
        if from != to {
            edges.insert(GraphEdge {
                from,
                to,
                proposed,
                kind,
            });
        }
    }
    edges.into_iter().collect()
}

/// Lays out the nodes of `snapshot` (packages, areas, documents) and `edges`. `anchor` gives
/// each entity's card anchor.
pub fn layout(
    snapshot: &Snapshot,
    edges: &[GraphEdge],
    anchor: &dyn Fn(&EntityId) -> String,
) -> Svg {
    let mut degree: BTreeMap<&EntityId, usize> = BTreeMap::new();
    for edge in edges {
        *degree.entry(&edge.from).or_default() += 1;
        *degree.entry(&edge.to).or_default() += 1;
    }
    let mut columns: [Vec<&Entity>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for entity in &snapshot.entities {
        if let Some(c) = column(entity.id()) {
            columns[c].push(entity);
        }
    }
    let names = ["packages", "areas", "documents"];
    let mut omitted = Vec::new();
    for (c, nodes) in columns.iter_mut().enumerate() {
        if nodes.len() > MAX_NODES_PER_COLUMN {
            let total = nodes.len();
            // Tests, fixtures, examples and the like after the rest: a fixture package can be
            // the most connected without being what a reader looks for.
            let secondary =
                |e: &Entity| doc_bridge_retrieve::file_role::file_role(e.path()).is_some();
            nodes.sort_by(|a, b| {
                let da = degree.get(a.id()).copied().unwrap_or(0);
                let db = degree.get(b.id()).copied().unwrap_or(0);
                secondary(a)
                    .cmp(&secondary(b))
                    .then(db.cmp(&da))
                    .then_with(|| a.id().cmp(b.id()))
            });
            nodes.truncate(MAX_NODES_PER_COLUMN);
            omitted.push(format!(
                "The graph shows the {MAX_NODES_PER_COLUMN} most connected of {total} {}.",
                names[c]
            ));
        }
        nodes.sort_by(|a, b| a.id().cmp(b.id()));
    }

    let column_x = |c: usize| MARGIN_X + c as u32 * (NODE_WIDTH + COLUMN_GAP);
    let mut placed: BTreeMap<&EntityId, (usize, u32, u32)> = BTreeMap::new();
    let mut nodes = Vec::new();
    for (c, column_nodes) in columns.iter().enumerate() {
        for (row, entity) in column_nodes.iter().enumerate() {
            let (x, y) = (column_x(c), TOP + row as u32 * ROW);
            placed.insert(entity.id(), (c, x, y));
            let name = match entity {
                Entity::Area(a) if a.path.is_root() => "(root)".to_owned(),
                other => other.name().to_owned(),
            };
            nodes.push(SvgNode {
                x,
                y,
                width: NODE_WIDTH,
                height: NODE_HEIGHT,
                text_x: x + 8,
                text_y: y + 16,
                label: shorten(&name, LABEL_CHARS),
                title: format!("{name} ({})", entity.id()),
                kind: entity.kind().as_str(),
                anchor: anchor(entity.id()),
            });
        }
    }

    let mut svg_edges = Vec::new();
    for edge in edges {
        let (Some(&(fc, fx, fy)), Some(&(tc, tx, ty))) =
            (placed.get(&edge.from), placed.get(&edge.to))
        else {
            continue;
        };
        let (fy, ty) = (fy + NODE_HEIGHT / 2, ty + NODE_HEIGHT / 2);
        let path = if fc == tc {
            // Same column: an arc outside the column (left of the first, right of the others).
            let bulge = 30 + (fy.abs_diff(ty) / 4).min(50);
            if fc == 0 {
                format!(
                    "M{fx},{fy} C{},{fy} {},{ty} {fx},{ty}",
                    fx.saturating_sub(bulge),
                    fx.saturating_sub(bulge)
                )
            } else {
                let (fx, tx) = (fx + NODE_WIDTH, tx + NODE_WIDTH);
                format!(
                    "M{fx},{fy} C{},{fy} {},{ty} {tx},{ty}",
                    fx + bulge,
                    tx + bulge
                )
            }
        } else {
            let (sx, ex) = if fc < tc {
                (fx + NODE_WIDTH, tx)
            } else {
                (fx, tx + NODE_WIDTH)
            };
            let mid = (sx + ex) / 2;
            format!("M{sx},{fy} C{mid},{fy} {mid},{ty} {ex},{ty}")
        };
        let mut class = format!("edge k-{}", edge.kind);
        if edge.proposed {
            class.push_str(" proposed");
        }
        svg_edges.push(SvgEdge {
            path,
            class,
            title: format!(
                "{} {} {}{}",
                edge.from,
                edge.kind,
                edge.to,
                if edge.proposed {
                    " (accepted proposal)"
                } else {
                    ""
                }
            ),
        });
    }
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0).max(1) as u32;
    Svg {
        width: 2 * MARGIN_X + 3 * NODE_WIDTH + 2 * COLUMN_GAP,
        height: TOP + rows * ROW + 10,
        headings: names
            .iter()
            .enumerate()
            .map(|(c, name)| SvgHeading {
                x: column_x(c),
                text: name.to_string(),
            })
            .collect(),
        nodes,
        edges: svg_edges,
        omitted,
    }
}

/// At most `max` columns wide (a wide character, as CJK, takes two): a longer text keeps its
/// start and its end, with `…` between, since the end is what tells `@scope/payments-api` from
/// `@scope/payments-web` and one guide's title from the next.
pub fn shorten(text: &str, max: usize) -> String {
    let width = |c: char| c.width().unwrap_or(0);
    if text.chars().map(width).sum::<usize>() <= max {
        return text.to_owned();
    }
    let budget = max.saturating_sub(1);
    let tail_budget = budget * 2 / 5;
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in text.chars().rev() {
        if used + width(c) > tail_budget {
            break;
        }
        used += width(c);
        tail.push(c);
    }
    let head_budget = budget - used;
    let mut cut = String::new();
    let mut used = 0;
    for c in text.chars() {
        if used + width(c) > head_budget {
            break;
        }
        used += width(c);
        cut.push(c);
    }
    cut.push('…');
    cut.extend(tail.into_iter().rev());
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_label_keeps_its_start_and_its_end() {
        assert_eq!(shorten("short", 28), "short");
        let label = shorten("@acme/payments-gateway-sandbox-api", 20);
        assert_eq!(label.chars().count(), 20);
        assert!(label.starts_with("@acme/payme"), "{label}");
        assert!(label.ends_with("ox-api"), "{label}");
        assert!(label.contains('…'));
        // Two names that differ only at the end stay apart.
        assert_ne!(
            shorten("Configuring the reverse proxy (nginx)", 28),
            shorten("Configuring the reverse proxy (caddy)", 28)
        );
        assert_eq!(shorten("ééééééééééé", 5).chars().count(), 5);
        // Wide characters take two columns: ten of them do not fit in twelve.
        let wide = shorten("設定ガイドの最初の一歩です", 12);
        let columns: usize = wide.chars().map(|c| c.width().unwrap_or(0)).sum();
        assert!(columns <= 12, "{wide}: {columns}");
        assert!(wide.starts_with('設') && wide.ends_with('す'), "{wide}");
    }
}
