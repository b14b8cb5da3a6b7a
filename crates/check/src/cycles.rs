//! `area-import-cycle`: cycles in the area-level import graph (area A → area B when a module of
//! A imports a module of B). `mod` declarations are containment, not dependency (a parent
//! declaring a child module that uses the parent's items is ordinary Rust), so they make no edge.
//!
//! Every elementary cycle is reported once, rotated to start at its smallest area id, in a
//! deterministic order. Only edges inside one strongly connected component are walked, so an
//! acyclic graph costs one linear pass; a dense tangle is capped at [`MAX_CYCLES`] cycles and a
//! fixed step budget.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::snapshot::{Diagnostic, Severity};
use doc_bridge_model::{EntityId, RelPath};

use crate::graph::Graph;

/// At most this many cycles are listed.
pub const MAX_CYCLES: usize = 100;
/// At most this many edge visits are spent looking for cycles.
const MAX_STEPS: usize = 200_000;

/// One diagnostic per cycle, located at the first edge's import.
pub fn diagnostics(graph: &Graph<'_>) -> Vec<Diagnostic> {
    // Per area edge, the earliest import that makes it (by path, then line): deterministic.
    let mut edges: BTreeMap<&EntityId, BTreeMap<&EntityId, (&RelPath, u32)>> = BTreeMap::new();
    for &(from, to, path, line) in &graph.imports {
        let (Some(from), Some(to)) = (graph.area_of.get(from), graph.area_of.get(to)) else {
            continue;
        };
        if from == to {
            continue;
        }
        let slot = edges
            .entry(from)
            .or_default()
            .entry(to)
            .or_insert((path, line));
        if (path, line) < *slot {
            *slot = (path, line);
        }
    }
    let adjacency: BTreeMap<&EntityId, BTreeSet<&EntityId>> = edges
        .iter()
        .map(|(from, targets)| (*from, targets.keys().copied().collect()))
        .collect();
    area_cycles(&adjacency)
        .into_iter()
        .filter_map(|cycle| {
            let first = *cycle.first()?;
            let second = *cycle.get(1)?;
            let (path, line) = *edges.get(first)?.get(second)?;
            let chain: Vec<&str> = cycle
                .iter()
                .chain(std::iter::once(&first))
                .map(|id| id.as_str())
                .collect();
            Some(Diagnostic::new(
                "area-import-cycle",
                Severity::Warning,
                path.clone(),
                Some(line),
                format!(
                    "areas import each other in a cycle: {} (this import is the first edge)",
                    chain.join(" → ")
                ),
                Some(first.clone()),
            ))
        })
        .collect()
}

/// Every elementary cycle of a directed graph, each once, rotated to start at its smallest node,
/// ordered by that node and then by the depth-first order of sorted successors. Self-loops are
/// ignored. Capped at [`MAX_CYCLES`] cycles and a fixed step budget.
pub fn area_cycles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    let nodes: Vec<&N> = edges
        .iter()
        .flat_map(|(from, to)| std::iter::once(from).chain(to.iter()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let index: BTreeMap<&N, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adjacency: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges
                .get(*n)
                .map(|to| to.iter().filter_map(|t| index.get(t).copied()).collect())
                .unwrap_or_default()
        })
        .collect();
    let component = components(&adjacency);
    let mut cycles = Vec::new();
    let mut steps = 0usize;
    'starts: for start in 0..nodes.len() {
        let mut path = vec![start];
        let mut cursor = vec![0usize];
        let mut on_path = vec![false; nodes.len()];
        on_path[start] = true;
        while let Some(&node) = path.last() {
            let depth = path.len() - 1;
            let Some(&next) = adjacency[node].get(cursor[depth]) else {
                on_path[node] = false;
                path.pop();
                cursor.pop();
                continue;
            };
            cursor[depth] += 1;
            steps += 1;
            if next == node {
                continue;
            }
            if steps > MAX_STEPS {
                break 'starts;
            }
            if component[next] != component[start] {
                continue;
            }
            if next == start {
                cycles.push(path.iter().map(|&i| nodes[i].clone()).collect());
                if cycles.len() >= MAX_CYCLES {
                    break 'starts;
                }
            } else if next > start && !on_path[next] {
                on_path[next] = true;
                path.push(next);
                cursor.push(0);
            }
        }
    }
    cycles
}

/// Strongly connected components (Kosaraju, iterative): a component number per node.
fn components(adjacency: &[Vec<usize>]) -> Vec<usize> {
    let n = adjacency.len();
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some((node, next)) = stack.last_mut() {
            if let Some(&child) = adjacency[*node].get(*next) {
                *next += 1;
                if !seen[child] {
                    seen[child] = true;
                    stack.push((child, 0));
                }
            } else {
                order.push(*node);
                stack.pop();
            }
        }
    }
    let mut reverse = vec![Vec::new(); n];
    for (from, targets) in adjacency.iter().enumerate() {
        for &to in targets {
            reverse[to].push(from);
        }
    }
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &root in order.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        component[root] = count;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            for &prev in &reverse[node] {
                if component[prev] == usize::MAX {
                    component[prev] = count;
                    stack.push(prev);
                }
            }
        }
        count += 1;
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{area, contains, module_importing, snapshot};

    fn graph(
        edges: &[(&'static str, &'static str)],
    ) -> BTreeMap<&'static str, BTreeSet<&'static str>> {
        let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (from, to) in edges {
            out.entry(*from).or_default().insert(*to);
        }
        out
    }

    #[test]
    fn each_cycle_is_reported_once_in_canonical_rotation() {
        let g = graph(&[
            ("c", "a"),
            ("a", "b"),
            ("b", "c"),
            ("b", "a"),
            ("d", "e"),
            ("e", "d"),
            ("e", "e"),
            ("x", "y"),
        ]);
        assert_eq!(
            area_cycles(&g),
            vec![vec!["a", "b"], vec!["a", "b", "c"], vec!["d", "e"]]
        );
    }

    #[test]
    fn an_acyclic_graph_has_no_cycles() {
        let g = graph(&[("a", "b"), ("b", "c"), ("a", "c"), ("c", "d")]);
        assert!(area_cycles(&g).is_empty());
    }

    #[test]
    fn a_complete_graph_is_capped() {
        let names: Vec<String> = (0..12).map(|i| format!("n{i:02}")).collect();
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for a in &names {
            for b in &names {
                if a != b {
                    g.entry(a.clone()).or_default().insert(b.clone());
                }
            }
        }
        let cycles = area_cycles(&g);
        assert_eq!(cycles.len(), MAX_CYCLES);
        assert!(cycles.iter().all(|c| c[0] == "n00"));
    }

    #[test]
    fn modules_importing_across_areas_make_one_cycle_diagnostic() {
        let s = snapshot(
            vec![
                area("a"),
                area("b"),
                module_importing(
                    "a/x.ts",
                    &[("b/z.ts", 2, "static"), ("a/y.ts", 1, "static")],
                ),
                module_importing("a/y.ts", &[("b/z.ts", 4, "static")]),
                module_importing("b/z.ts", &[("a/x.ts", 1, "static")]),
            ],
            vec![
                contains("area:a", "module:a/x.ts"),
                contains("area:a", "module:a/y.ts"),
                contains("area:b", "module:b/z.ts"),
            ],
        );
        let out = diagnostics(&Graph::new(&s));
        assert_eq!(out.len(), 1);
        let d = &out[0];
        assert_eq!(d.code, "area-import-cycle");
        assert_eq!((d.path.as_str(), d.line), ("a/x.ts", Some(2)));
        assert_eq!(d.entity.as_ref().map(|e| e.as_str()), Some("area:a"));
        assert!(
            d.message.contains("area:a → area:b → area:a"),
            "{}",
            d.message
        );
    }

    #[test]
    fn a_mod_declaration_is_containment_not_a_cycle_edge() {
        let s = snapshot(
            vec![
                area("src"),
                area("src/commands"),
                module_importing("src/lib.rs", &[("src/commands/mod.rs", 3, "mod-decl")]),
                module_importing("src/commands/mod.rs", &[("src/lib.rs", 1, "static")]),
            ],
            vec![
                contains("area:src", "module:src/lib.rs"),
                contains("area:src/commands", "module:src/commands/mod.rs"),
            ],
        );
        assert!(diagnostics(&Graph::new(&s)).is_empty());
    }
}
