//! Helpers for repository-relative, `/`-separated paths.

/// The directory part of a repository-relative path (`""` for a top-level file).
pub fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// The path of `to` (a file, repository-relative) as seen from directory `from_dir`
/// (repository-relative, `""` for the root), e.g. `relative("docs/a", "src/x.ts")` is
/// `"../../src/x.ts"`.
pub fn relative(from_dir: &str, to: &str) -> String {
    let from: Vec<&str> = from_dir.split('/').filter(|c| !c.is_empty()).collect();
    let target: Vec<&str> = to.split('/').filter(|c| !c.is_empty()).collect();
    // The last target component is the file itself, never a directory to share with `from`.
    let dirs_of_target = target.len().saturating_sub(1);
    let common = from
        .iter()
        .zip(&target[..dirs_of_target])
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = "../".repeat(from.len() - common);
    out.push_str(&target[common..].join("/"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_of_nested_and_top_level() {
        assert_eq!(parent("a/b/c.md"), "a/b");
        assert_eq!(parent("c.md"), "");
    }

    #[test]
    fn relative_paths() {
        assert_eq!(relative("docs/a", "docs/a/x.md"), "x.md");
        assert_eq!(relative("docs/a", "docs/b/x.md"), "../b/x.md");
        assert_eq!(relative("docs/a/b", "src/x.ts"), "../../../src/x.ts");
        assert_eq!(relative("", "src/x.ts"), "src/x.ts");
        assert_eq!(relative("src/a", "src/x.ts"), "../x.ts");
        // A directory named like the target file must not be mistaken for a shared prefix.
        assert_eq!(relative("x", "x"), "../x");
    }
}
