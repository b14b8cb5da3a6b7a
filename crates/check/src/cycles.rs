//! `area-import-cycle`: cycles in the area-level import graph (area A → area B when a module of
//! A imports a module of B). `mod` declarations are containment, not dependency (a parent
//! declaring a child module that uses the parent's items is ordinary Rust), so they make no edge.
//! Nor do imports from or into test inputs, playgrounds, generated and vendored code: a
//! playground that imports in a circle on purpose is no design to fix (`graph::is_inert`).
//!
//! One finding per tangle (a strongly connected component of two or more areas): its shortest
//! elementary cycle found, rotated to start at its smallest area id, with how many areas the
//! tangle holds and how many cycles run through them. A package whose areas import each other
//! freely (ordinary inside a Rust crate or a large Python package) is one finding to look at,
//! not a hundred. Cycles are enumerated only along edges inside one component, so an acyclic
//! graph costs one linear pass; each tangle is capped at [`MAX_CYCLES`] cycles and a fixed
//! step budget, so one dense tangle does not hide the others.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::snapshot::{Diagnostic, Severity};
use doc_bridge_model::{EntityId, RelPath};

use crate::graph::Graph;

/// At most this many cycles are counted in one tangle.
pub const MAX_CYCLES: usize = 100;
/// At most this many edge visits are spent looking for the cycles of one tangle.
const MAX_STEPS: usize = 200_000;
/// At most this many edge visits are spent in all.
const MAX_TOTAL_STEPS: usize = 2_000_000;

/// One diagnostic per tangle, located at the first edge of its shortest cycle.
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
    tangles(&adjacency)
        .into_iter()
        .filter_map(|tangle| {
            let cycle = &tangle.cycle;
            let first = *cycle.first()?;
            let second = *cycle.get(1)?;
            let (path, line) = *edges.get(first)?.get(second)?;
            let chain: Vec<&str> = cycle
                .iter()
                .chain(std::iter::once(&first))
                .map(|id| id.as_str())
                .collect();
            let more = match tangle.cycles {
                1 => String::new(),
                n if n >= MAX_CYCLES => {
                    format!(
                        "; {} areas import each other in at least {n} cycles",
                        tangle.areas
                    )
                }
                n => format!("; {} areas import each other in {n} cycles", tangle.areas),
            };
            Some(Diagnostic::new(
                "area-import-cycle",
                Severity::Warning,
                path.clone(),
                Some(line),
                format!(
                    "areas import each other in a cycle: {} (this import is the first edge){more}",
                    chain.join(" → ")
                ),
                Some(first.clone()),
            ))
        })
        .collect()
}

/// A strongly connected component of two or more nodes, as [`tangles`] reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tangle<N> {
    /// Its shortest cycle found (the first of that length), rotated to its smallest node.
    pub cycle: Vec<N>,
    /// How many cycles were found in it (at most [`MAX_CYCLES`]).
    pub cycles: usize,
    /// How many nodes it holds.
    pub areas: usize,
}

/// The tangles of a directed graph, in the order of their first cycle in [`area_cycles`].
pub fn tangles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Tangle<N>> {
    let (cycles, sizes) = cycles_by_component(edges);
    let mut tangles: Vec<(usize, Tangle<N>)> = Vec::new();
    for (component, cycle) in cycles {
        match tangles.iter_mut().find(|(c, _)| *c == component) {
            Some((_, tangle)) => {
                tangle.cycles += 1;
                if cycle.len() < tangle.cycle.len() {
                    tangle.cycle = cycle;
                }
            }
            None => tangles.push((
                component,
                Tangle {
                    cycle,
                    cycles: 1,
                    areas: sizes.get(component).copied().unwrap_or(0),
                },
            )),
        }
    }
    tangles.into_iter().map(|(_, tangle)| tangle).collect()
}

/// Every elementary cycle of a directed graph, each once, rotated to start at its smallest node,
/// ordered by that node and then by the depth-first order of sorted successors. Self-loops are
/// ignored. Capped at [`MAX_CYCLES`] cycles and a fixed step budget per strongly connected
/// component, and a larger budget in all.
pub fn area_cycles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    cycles_by_component(edges)
        .0
        .into_iter()
        .map(|(_, cycle)| cycle)
        .collect()
}

/// [`area_cycles`], each with its component's number, and each component's size by number.
fn cycles_by_component<N: Ord + Clone>(
    edges: &BTreeMap<N, BTreeSet<N>>,
) -> (Vec<(usize, Vec<N>)>, Vec<usize>) {
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
    let mut sizes = vec![0usize; nodes.len()];
    for &c in &component {
        if let Some(size) = sizes.get_mut(c) {
            *size += 1;
        }
    }
    let mut cycles = Vec::new();
    let mut steps = 0usize;
    // Per component: the cycles found and the edge visits spent; a component at its cap is
    // done, and the others are still walked.
    let mut found = vec![0usize; nodes.len()];
    let mut spent = vec![0usize; nodes.len()];
    'starts: for start in 0..nodes.len() {
        let here = component[start];
        if found[here] >= MAX_CYCLES {
            continue;
        }
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
            spent[here] += 1;
            if next == node {
                continue;
            }
            if steps > MAX_TOTAL_STEPS {
                break 'starts;
            }
            if spent[here] > MAX_STEPS {
                found[here] = MAX_CYCLES;
                continue 'starts;
            }
            if component[next] != here {
                continue;
            }
            if next == start {
                cycles.push((here, path.iter().map(|&i| nodes[i].clone()).collect()));
                found[here] += 1;
                if found[here] >= MAX_CYCLES {
                    continue 'starts;
                }
            } else if next > start && !on_path[next] {
                on_path[next] = true;
                path.push(next);
                cursor.push(0);
            }
        }
    }
    (cycles, sizes)
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
    use crate::tests::{area, contains, module_importing, package, snapshot};
    use doc_bridge_model::snapshot::{Ecosystem, Entity, RelationKind, Snapshot};

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
    fn a_tangle_is_reported_once_by_its_shortest_cycle() {
        let g = graph(&[
            ("a", "c"),
            ("c", "b"),
            ("b", "a"),
            ("b", "c"),
            ("d", "e"),
            ("e", "d"),
            ("x", "y"),
        ]);
        assert_eq!(
            area_cycles(&g),
            vec![vec!["a", "c", "b"], vec!["b", "c"], vec!["d", "e"]]
        );
        assert_eq!(
            tangles(&g),
            vec![
                Tangle {
                    cycle: vec!["b", "c"],
                    cycles: 2,
                    areas: 3
                },
                Tangle {
                    cycle: vec!["d", "e"],
                    cycles: 1,
                    areas: 2
                },
            ]
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
        let tangles_of = tangles(&g);
        assert_eq!(tangles_of.len(), 1);
        assert_eq!(
            (tangles_of[0].cycles, tangles_of[0].areas),
            (MAX_CYCLES, 12)
        );
        assert_eq!(tangles_of[0].cycle.len(), 2);
        // A dense tangle does not hide another one after it.
        g.entry("z1".to_owned())
            .or_default()
            .insert("z2".to_owned());
        g.entry("z2".to_owned())
            .or_default()
            .insert("z1".to_owned());
        let tangles_of = tangles(&g);
        assert_eq!(tangles_of.len(), 2);
        assert_eq!(tangles_of[1].cycle, ["z1", "z2"]);
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

    /// Two crates whose areas import each other, `b` only in its tests: `b` declares `a` as a
    /// dev-dependency. In Cargo that is no cycle (the import compiles only under
    /// `#[cfg(test)]`); in npm it is (a bundler ships what `src/` imports).
    fn crates_testing_with_each_other(ecosystem: Ecosystem, b_needs_a: &[&str]) -> Snapshot {
        use doc_bridge_model::snapshot::{Provenance, Relation};
        let with = |entity: Entity, package: &str| match entity {
            Entity::Area(mut area) => {
                area.package_id = Some(EntityId::package(package));
                Entity::Area(area)
            }
            Entity::Package(mut p) => {
                p.ecosystem = ecosystem;
                Entity::Package(p)
            }
            other => other,
        };
        let depends = |from: &str, to: &str, kind: &str| Relation {
            from: EntityId::package(from),
            to: EntityId::package(to),
            kind: RelationKind::DependsOn,
            provenance: Provenance::Declared,
            evidence: doc_bridge_model::snapshot::Evidence {
                path: RelPath::new(&format!("{from}/Cargo.toml")).unwrap(),
                lines: [1, 1],
            },
            via: Some(kind.to_owned()),
        };
        let mut relations = vec![
            contains("area:a/src", "module:a/src/lib.rs"),
            contains("area:b/src", "module:b/src/lib.rs"),
            depends("a", "b", "normal"),
        ];
        relations.extend(b_needs_a.iter().map(|kind| depends("b", "a", kind)));
        snapshot(
            vec![
                with(package("a", "a"), "a"),
                with(package("b", "b"), "b"),
                with(area("a/src"), "a"),
                with(area("b/src"), "b"),
                module_importing("a/src/lib.rs", &[("b/src/lib.rs", 1, "static")]),
                module_importing("b/src/lib.rs", &[("a/src/lib.rs", 9, "static")]),
            ],
            relations,
        )
    }

    #[test]
    fn an_import_of_a_dev_dependency_is_no_cycle_edge_where_the_build_enforces_it() {
        let cargo = crates_testing_with_each_other(Ecosystem::Cargo, &["dev"]);
        assert!(diagnostics(&Graph::new(&cargo)).is_empty());
        // Declared for the code as well as the tests: a cycle.
        let both = crates_testing_with_each_other(Ecosystem::Cargo, &["dev", "normal"]);
        assert_eq!(diagnostics(&Graph::new(&both)).len(), 1);
        // Not declared at all (an import discovery resolved by path): judged as written.
        let undeclared = crates_testing_with_each_other(Ecosystem::Cargo, &[]);
        assert_eq!(diagnostics(&Graph::new(&undeclared)).len(), 1);
        // npm ships what `src/` imports, devDependencies included.
        let npm = crates_testing_with_each_other(Ecosystem::Npm, &["dev"]);
        assert_eq!(diagnostics(&Graph::new(&npm)).len(), 1);
    }

    #[test]
    fn playgrounds_fixtures_and_generated_code_make_no_cycle() {
        let circle = |a: &str, b: &str| {
            snapshot(
                vec![
                    area(a),
                    area(b),
                    module_importing(&format!("{a}/x.js"), &[(&format!("{b}/y.js"), 1, "static")]),
                    module_importing(&format!("{b}/y.js"), &[(&format!("{a}/x.js"), 1, "static")]),
                ],
                vec![
                    contains(&format!("area:{a}"), &format!("module:{a}/x.js")),
                    contains(&format!("area:{b}"), &format!("module:{b}/y.js")),
                ],
            )
        };
        let found = |s: &Snapshot| diagnostics(&Graph::new(s)).len();
        assert_eq!(found(&circle("src/nested", "src/views")), 1);
        assert_eq!(found(&circle("playground/nested", "playground/views")), 0);
        assert_eq!(found(&circle("tests/fixtures/a", "tests/fixtures/b")), 0);
        // One side inert is enough: the circle runs through code nobody designs.
        assert_eq!(found(&circle("src/a", "vendor/b")), 0);
        // Tests are code their maintainers write: a circle there is one.
        assert_eq!(found(&circle("tests/a", "tests/b")), 1);
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
