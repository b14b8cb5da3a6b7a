use super::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

/// Every file under `root` as (relative `/` path → bytes), in sorted order.
fn read_tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for entry in fs::read_dir(root.join(&rel)).unwrap() {
            let entry = entry.unwrap();
            let child = rel.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                stack.push(child);
            } else {
                let key = child.to_str().unwrap().replace('\\', "/");
                out.insert(key, fs::read(entry.path()).unwrap());
            }
        }
    }
    out
}

fn generate_tree(files: u64, seed: u64) -> (tempfile::TempDir, Summary) {
    generate_with_jobs(files, seed, 2)
}

fn generate_with_jobs(files: u64, seed: u64, jobs: usize) -> (tempfile::TempDir, Summary) {
    let tmp = tempfile::tempdir().unwrap();
    let summary = generate(&Config { files, seed, jobs }, tmp.path()).unwrap();
    (tmp, summary)
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

#[test]
fn same_seed_gives_byte_identical_trees() {
    // Different thread counts too: the write order must not leak into the content.
    let (a, _) = generate_with_jobs(700, 42, 1);
    let (b, _) = generate_with_jobs(700, 42, 3);
    let (ta, tb) = (read_tree(a.path()), read_tree(b.path()));
    assert_eq!(ta.len(), 700);
    assert!(ta == tb, "trees differ");
}

#[test]
fn different_seeds_give_different_trees() {
    let (a, _) = generate_tree(200, 1);
    let (b, _) = generate_tree(200, 2);
    assert!(read_tree(a.path()) != read_tree(b.path()));
}

#[test]
fn file_count_is_exact() {
    for files in [MIN_FILES, 21, 57, 100, 999, 2345] {
        let (dir, summary) = generate_tree(files, 7);
        assert_eq!(summary.files, files, "summary for {files}");
        assert_eq!(
            read_tree(dir.path()).len() as u64,
            files,
            "tree for {files}"
        );
    }
}

#[test]
fn too_few_files_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let err = generate(
        &Config {
            files: 5,
            seed: 0,
            jobs: 1,
        },
        tmp.path(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("at least"), "{err}");
}

#[test]
fn mix_is_roughly_sixty_thirty_ten() {
    let (dir, summary) = generate_tree(3000, 3);
    let tree = read_tree(dir.path());
    let docs = tree.keys().filter(|p| p.ends_with(".md")).count() as f64;
    let manifests = tree
        .keys()
        .filter(|p| {
            ["package.json", "Cargo.toml", "pyproject.toml", "go.mod"]
                .iter()
                .any(|m| p.ends_with(m))
        })
        .count() as f64;
    let sources = 3000.0 - docs - manifests;
    assert!((docs / 3000.0 - 0.30).abs() < 0.01, "docs {docs}");
    assert!(
        (manifests / 3000.0 - 0.10).abs() < 0.01,
        "manifests {manifests}"
    );
    assert!((sources / 3000.0 - 0.60).abs() < 0.01, "sources {sources}");
    assert_eq!(summary.documents as f64, docs);
    for ext in [".ts", ".rs", ".py", ".go"] {
        assert!(tree.keys().any(|p| p.ends_with(ext)), "no {ext} files");
    }
    assert!(tree.contains_key("AGENTS.md"));
    assert!(tree.keys().any(|p| p.starts_with("docs/for-agents/")));
}

#[test]
fn source_directories_nest() {
    let (dir, _) = generate_tree(3000, 3);
    let tree = read_tree(dir.path());
    // packages/<pkg>/src/<area>/<sub>/<leaf>.ts: two levels below src.
    assert!(
        tree.keys()
            .any(|p| p.starts_with("packages/") && p.split('/').count() == 6)
    );
    // docs/<section>/<topic>/<subtopic>/<file>.md: four directory levels.
    assert!(
        tree.keys()
            .any(|p| p.starts_with("docs/") && p.split('/').count() == 5)
    );
    assert!(
        tree.keys()
            .any(|p| p.starts_with("docs/") && p.split('/').count() == 3)
    );
}

/// Link targets of a Markdown document, outside code fences.
fn links(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let end = after.find(')').unwrap();
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// Resolves `link` against directory `dir`, both `/`-separated and repository-relative.
fn resolve(dir: &str, link: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|c| !c.is_empty()).collect();
    for part in link.split('/') {
        match part {
            ".." => {
                assert!(
                    parts.pop().is_some(),
                    "{link} escapes the repository from {dir}"
                );
            }
            "." | "" => {}
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[test]
fn every_relative_link_points_at_a_generated_file() {
    let (dir, _) = generate_tree(2500, 11);
    let tree = read_tree(dir.path());
    let mut checked = 0;
    for (path, bytes) in tree.iter().filter(|(p, _)| p.ends_with(".md")) {
        for link in links(text(bytes)) {
            let target = resolve(parent(path), &link);
            assert!(tree.contains_key(&target), "{path}: broken link {link}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} links");
}

#[test]
fn mentions_resolve_to_generated_symbols_and_files() {
    let (dir, _) = generate_tree(1200, 5);
    let tree = read_tree(dir.path());
    let mut defined = BTreeSet::new();
    for (path, bytes) in &tree {
        if [".ts", ".rs", ".py", ".go"]
            .iter()
            .any(|e| path.ends_with(e))
        {
            for word in text(bytes).split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                defined.insert(word.to_string());
            }
        }
    }
    let mut symbols = 0;
    for (path, bytes) in tree.iter().filter(|(p, _)| p.ends_with(".md")) {
        let mut in_fence = false;
        for line in text(bytes).lines() {
            if line.starts_with("```") {
                in_fence = !in_fence;
            }
            if in_fence {
                continue;
            }
            for (i, span) in line.split('`').enumerate() {
                if i % 2 == 0 || span.is_empty() {
                    continue;
                }
                let top = span.split('/').next().unwrap_or_default();
                let is_path = ["packages", "crates", "py", "go", "docs"].contains(&top);
                if is_path && span.contains('/') && !span.contains(' ') {
                    assert!(
                        tree.contains_key(span) || tree.keys().any(|k| k.starts_with(span)),
                        "{path}: mentions missing path {span}"
                    );
                } else if span.chars().any(|c| c.is_ascii_digit()) && !span.contains(' ') {
                    assert!(
                        defined.contains(span),
                        "{path}: mentions unknown symbol {span}"
                    );
                    symbols += 1;
                }
            }
        }
    }
    assert!(symbols > 200, "only {symbols} symbol mentions");
}

#[test]
fn covers_point_at_package_directories() {
    let (dir, _) = generate_tree(1500, 9);
    let tree = read_tree(dir.path());
    let mut seen = 0;
    for bytes in tree
        .iter()
        .filter(|(p, _)| p.ends_with(".md"))
        .map(|(_, b)| b)
    {
        if let Some(line) = text(bytes).lines().find(|l| l.starts_with("covers: [")) {
            let inner = line.trim_start_matches("covers: [").trim_end_matches(']');
            for pkg in inner.split(", ") {
                let prefix = format!("{pkg}/");
                assert!(tree.keys().any(|k| k.starts_with(&prefix)), "{pkg}");
                seen += 1;
            }
        }
    }
    assert!(seen > 50);
}

/// The value of a `key = "value"` line in a TOML file.
fn toml_string<'a>(toml: &'a str, key: &str) -> Option<&'a str> {
    let prefix = format!("{key} = \"");
    toml.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|rest| rest.strip_suffix('"'))
}

#[test]
fn manifests_parse_and_dependencies_exist() {
    let (dir, _) = generate_tree(2000, 13);
    let tree = read_tree(dir.path());
    let mut npm_names = BTreeSet::new();
    let mut npm_deps = Vec::new();
    let mut counts = [0; 4];
    for (path, bytes) in &tree {
        let body = text(bytes);
        if path.starts_with("packages/") && path.ends_with("/package.json") {
            let json: serde_json::Value = serde_json::from_str(body).unwrap();
            let name = json["name"].as_str().unwrap();
            assert!(name.starts_with("@synth/"), "{path}");
            assert!(json["scripts"]["test"].is_string() && json["scripts"]["build"].is_string());
            npm_names.insert(name.to_string());
            for dep in json["dependencies"].as_object().unwrap().keys() {
                npm_deps.push(dep.clone());
            }
            counts[0] += 1;
        } else if path.starts_with("crates/") && path.ends_with("/Cargo.toml") {
            assert!(body.starts_with("[package]\n"), "{path}");
            let name = toml_string(body, "name").unwrap();
            assert_eq!(path, &format!("crates/{name}/Cargo.toml"));
            assert!(body.contains("\n[dependencies]\n"));
            for line in body.lines().filter(|l| l.contains("path = ")) {
                let dep = line.split(" = ").next().unwrap();
                assert!(
                    tree.contains_key(&format!("crates/{dep}/Cargo.toml")),
                    "{line}"
                );
                assert!(
                    line.ends_with(&format!("{{ path = \"../{dep}\" }}")),
                    "{line}"
                );
            }
            counts[1] += 1;
        } else if path.ends_with("/pyproject.toml") {
            assert!(body.starts_with("[project]\n"), "{path}");
            let name = toml_string(body, "name").unwrap();
            assert_eq!(path, &format!("py/{name}/pyproject.toml"));
            let ident = name.replace('-', "_");
            assert!(tree.contains_key(&format!("py/{name}/{ident}/__init__.py")));
            assert!(body.contains("\ndependencies = ["));
            counts[2] += 1;
        } else if path.ends_with("/go.mod") {
            let module = body
                .lines()
                .next()
                .unwrap()
                .strip_prefix("module ")
                .unwrap();
            let name = module.strip_prefix("example.com/synth/").unwrap();
            assert_eq!(path, &format!("go/{name}/go.mod"));
            for line in body.lines().filter(|l| l.starts_with("replace ")) {
                let target = line.rsplit("=> ../").next().unwrap();
                assert!(tree.contains_key(&format!("go/{target}/go.mod")), "{line}");
            }
            counts[3] += 1;
        }
    }
    assert!(counts.iter().all(|&c| c > 10), "{counts:?}");
    for dep in npm_deps {
        assert!(npm_names.contains(&dep), "unknown npm dependency {dep}");
    }
    let root = text(&tree["Cargo.toml"]);
    assert!(root.starts_with("[workspace]\n"));
    let members: Vec<&str> = root
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"')?.strip_suffix("\","))
        .collect();
    assert_eq!(members.len(), counts[1]);
    for member in members {
        assert!(
            tree.contains_key(&format!("{member}/Cargo.toml")),
            "{member}"
        );
    }
    let root_json: serde_json::Value = serde_json::from_str(text(&tree["package.json"])).unwrap();
    assert_eq!(root_json["workspaces"][0], "packages/*");
}

#[test]
fn relative_imports_resolve() {
    let (dir, _) = generate_tree(2000, 17);
    let tree = read_tree(dir.path());
    let mut checked = 0;
    for (path, bytes) in tree.iter().filter(|(p, _)| p.ends_with(".ts")) {
        for line in text(bytes).lines() {
            let Some(spec) = line.split(" from '").nth(1) else {
                continue;
            };
            let spec = spec.trim_end_matches("';");
            if spec.starts_with('.') {
                let target = format!("{}.ts", resolve(parent(path), spec));
                assert!(tree.contains_key(&target), "{path}: {line}");
                checked += 1;
            }
        }
    }
    for (path, bytes) in tree.iter().filter(|(p, _)| p.ends_with(".rs")) {
        let body = text(bytes);
        for name in body.lines().filter_map(|l| l.strip_prefix("pub mod ")) {
            let name = name.trim_end_matches(';');
            let dir = parent(path);
            let leaf = format!("{dir}/{name}.rs");
            let nested = format!("{dir}/{name}/mod.rs");
            assert!(
                tree.contains_key(&leaf) || tree.contains_key(&nested),
                "{path}: {name}"
            );
            checked += 1;
        }
    }
    for (path, bytes) in tree.iter().filter(|(p, _)| p.ends_with(".py")) {
        for line in text(bytes).lines().filter(|l| l.starts_with("from .")) {
            let module = line["from ".len()..].split(' ').next().unwrap();
            let dots = module.chars().take_while(|&c| c == '.').count();
            let mut base = parent(path).to_string();
            for _ in 1..dots {
                base = parent(&base).to_string();
            }
            let rest = module[dots..].replace('.', "/");
            let target = if rest.is_empty() {
                base
            } else {
                format!("{base}/{rest}")
            };
            assert!(
                tree.contains_key(&format!("{target}.py"))
                    || tree.contains_key(&format!("{target}/__init__.py")),
                "{path}: {line}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked}");
}

#[test]
fn go_imports_name_generated_packages() {
    let (dir, _) = generate_tree(2000, 19);
    let tree = read_tree(dir.path());
    let dirs: BTreeSet<String> = tree.keys().map(|k| parent(k).to_string()).collect();
    for (path, bytes) in tree.iter().filter(|(p, _)| p.ends_with(".go")) {
        for line in text(bytes)
            .lines()
            .filter(|l| l.contains("\"example.com/synth/"))
        {
            let import = line.split('"').nth(1).unwrap();
            let dir = format!("go/{}", import.strip_prefix("example.com/synth/").unwrap());
            assert!(dirs.contains(&dir), "{path}: {line}");
        }
    }
}

#[test]
fn python_relative_references() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(python_relative(&s(&[]), &s(&["core0"])), ".core0");
    assert_eq!(
        python_relative(&s(&["core0"]), &s(&["core0", "ledger"])),
        ".ledger"
    );
    assert_eq!(
        python_relative(&s(&["core0", "detail"]), &s(&["core0"])),
        ".."
    );
    assert_eq!(
        python_relative(&s(&["io1"]), &s(&["core0", "ledger"])),
        "..core0.ledger"
    );
}

#[test]
fn typescript_specifiers() {
    assert_eq!(
        ts_specifier("p/src", "p/src/core0/index.ts"),
        "./core0/index"
    );
    assert_eq!(
        ts_specifier("p/src/io1", "p/src/core0/ledger.ts"),
        "../core0/ledger"
    );
}

#[test]
fn leaf_stems_are_distinct() {
    // Slots sharing a directory: 1..=ROOT_LEAVES in the root, 1..=AREA_LEAVES in an area, the
    // slots after SUB_SLOT in the nested directory.
    let n = NOUNS.len() as u64;
    let slots: Vec<u64> = (1..=ROOT_LEAVES.max(AREA_SIZE)).collect();
    for a in &slots {
        for b in &slots {
            if a < b {
                assert_ne!(
                    LEAF_STRIDE * a % n,
                    LEAF_STRIDE * b % n,
                    "slots {a} and {b}"
                );
            }
        }
    }
}
