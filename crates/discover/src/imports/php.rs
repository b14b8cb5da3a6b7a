//! PHP imports: a class by its namespace path (PSR-4's layout), an include by its path.

use doc_bridge_model::snapshot::ImportResolution;
use doc_bridge_model::{EntityId, RelPath};

use super::{Resolved, Resolver};

impl Resolver<'_> {
    /// `use A\B\C` names a class; PSR-4 autoloading maps a namespace prefix to a directory,
    /// so the class is in a file ending with `B/C.php` for some trailing part of its name.
    /// The longest trailing part (of two segments or more, or the whole name) that exactly
    /// one module's path ends with resolves it; several modules for the longest part that
    /// has any are unresolved; none is external (a Composer dependency, PHP itself). Where the
    /// modules declare namespaces, a name under a first segment none of them starts with is
    /// external without looking (`Symfony\Component\Console\Application` in a repository of
    /// `Illuminate\…` classes, though it has a `Console/Application.php`), and a one-segment
    /// name (`use Stringable;`) is a global class: a module here only when one file of that
    /// name declares no namespace, else PHP's own.
    ///
    /// An include (`require __DIR__ . '/x.php'`, recorded as `__DIR__/x.php`) joins the
    /// including file's directory, and is unresolved when no file is there; a path without
    /// `__DIR__` is looked for there and at the repository root, and is external otherwise
    /// (PHP looks along its `include_path`).
    pub(super) fn php(&self, from: &RelPath, specifier: &str) -> Resolved {
        if specifier.contains(['/', '.']) {
            return self.php_include(from, specifier);
        }
        let segments: Vec<&str> = specifier.split('\\').filter(|s| !s.is_empty()).collect();
        if !self.php_vendors.is_empty() {
            match segments.as_slice() {
                // `use Stringable;`: a class of the global namespace, PHP's own unless one
                // module here declares it outside any namespace.
                [name] => {
                    let rel = format!("{name}.php");
                    let global: Vec<&RelPath> = self
                        .modules_ending_with(&rel)
                        .into_iter()
                        .filter(|m| m.file_name() == rel && !self.php_namespaced.contains(m))
                        .collect();
                    return match global.as_slice() {
                        [only] => (ImportResolution::Internal, vec![EntityId::module(only)]),
                        _ => (ImportResolution::External, Vec::new()),
                    };
                }
                // Under a name no namespace here starts with: another vendor's class.
                [vendor, ..] if !self.php_vendors.contains(vendor) => {
                    return (ImportResolution::External, Vec::new());
                }
                _ => {}
            }
        }
        let shortest = segments.len().min(2);
        for take in (shortest..=segments.len()).rev() {
            let Some(tail) = segments.get(segments.len() - take..) else {
                continue;
            };
            let rel = format!("{}.php", tail.join("/"));
            match self.modules_ending_with(&rel).as_slice() {
                [only] => return (ImportResolution::Internal, vec![EntityId::module(only)]),
                [] => {}
                _ => return (ImportResolution::Unresolved, Vec::new()),
            }
        }
        (ImportResolution::External, Vec::new())
    }

    fn php_include(&self, from: &RelPath, specifier: &str) -> Resolved {
        let (path, anchored) = match specifier.strip_prefix("__DIR__") {
            Some(rest) => (rest.trim_start_matches('/'), true),
            None => (specifier, false),
        };
        let mut bases = vec![from.parent()];
        if !anchored {
            bases.push(RelPath::root());
        }
        for base in &bases {
            let Some(target) = RelPath::join_normalized(base, path) else {
                continue;
            };
            if self.is_module(&target) {
                return (ImportResolution::Internal, vec![EntityId::module(&target)]);
            }
            if self.files.contains(target.as_str()) {
                return (ImportResolution::File, Vec::new());
            }
        }
        if anchored {
            (ImportResolution::Unresolved, Vec::new())
        } else {
            (ImportResolution::External, Vec::new())
        }
    }
}
