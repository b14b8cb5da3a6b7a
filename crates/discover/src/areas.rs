//! Areas: a directory that holds modules, `analysis.areas.depth` levels below the module's
//! anchor. The anchor is the module's source root (a `src`-like directory directly under its
//! package root), else its package root, else the repository root. Each module belongs to
//! exactly one area, its most specific.

use doc_bridge_model::RelPath;

use crate::packages::PackageRoots;

/// Area rules from the configuration.
#[derive(Debug, Clone)]
pub struct AreaRules {
    /// Levels below the anchor.
    pub depth: u32,
    /// Directory names that are source roots when directly under a package root (or the
    /// repository root).
    pub source_roots: Vec<String>,
}

/// The area directory of a module.
pub fn area_of(module: &RelPath, packages: &PackageRoots<'_>, rules: &AreaRules) -> RelPath {
    let dir = module.parent();
    let package_root = packages
        .owning(module)
        .map(|p| p.path.clone())
        .unwrap_or_else(RelPath::root);
    let mut anchor = package_root;
    let mut rest: Vec<&str> = match dir.strip_dir(&anchor) {
        Some("") | None => Vec::new(),
        Some(rest) => rest.split('/').collect(),
    };
    if let Some(first) = rest.first()
        && rules.source_roots.iter().any(|root| root == first)
        && let Some(joined) = anchor.join(first)
    {
        anchor = joined;
        rest.remove(0);
    }
    let take = (rules.depth as usize).min(rest.len());
    if take == 0 {
        return anchor;
    }
    anchor.join(&rest[..take].join("/")).unwrap_or(anchor)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(depth: u32) -> AreaRules {
        AreaRules {
            depth,
            source_roots: vec!["src".into(), "internal".into()],
        }
    }

    fn p(s: &str) -> RelPath {
        RelPath::new(s).unwrap()
    }

    fn area_of_plain(module: &RelPath, _: &[()], rules: &AreaRules) -> RelPath {
        area_of(module, &PackageRoots::new(&[]), rules)
    }

    #[test]
    fn module_in_source_root_belongs_to_the_source_root() {
        assert_eq!(area_of_plain(&p("src/a.py"), &[], &rules(1)), p("src"));
        assert_eq!(
            area_of_plain(&p("src/pyfx/a.py"), &[], &rules(1)),
            p("src/pyfx")
        );
        assert_eq!(
            area_of_plain(&p("src/pyfx/deep/a.py"), &[], &rules(1)),
            p("src/pyfx")
        );
        assert_eq!(
            area_of_plain(&p("src/pyfx/deep/a.py"), &[], &rules(2)),
            p("src/pyfx/deep")
        );
    }

    #[test]
    fn root_level_module_belongs_to_the_root_area() {
        assert!(area_of_plain(&p("setup.py"), &[], &rules(1)).is_root());
        assert_eq!(
            area_of_plain(&p("internal/store/s.go"), &[], &rules(1)),
            p("internal/store")
        );
        assert_eq!(area_of_plain(&p("tests/t.py"), &[], &rules(1)), p("tests"));
    }
}
