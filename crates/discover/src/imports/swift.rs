//! Swift imports: a module by its Swift Package Manager target.

use doc_bridge_model::snapshot::ImportResolution;

use super::{Resolved, Resolver};

impl Resolver<'_> {
    /// `import Name` imports a module; in a Swift package, target `Name` is the directory
    /// `Sources/Name/` (tests: `Tests/Name/`), and the import depends on all of its modules.
    /// Any other name is external (Foundation, a dependency). `import Name.Sub` imports from
    /// `Name`.
    pub(super) fn swift(&self, specifier: &str) -> Resolved {
        let target = specifier.split('.').next().unwrap_or(specifier);
        match self.swift_targets.get(target) {
            Some(modules) if !modules.is_empty() => (ImportResolution::Internal, modules.clone()),
            _ => (ImportResolution::External, Vec::new()),
        }
    }
}

/// The SwiftPM target a Swift module belongs to: the directory below the last `Sources/` or
/// `Tests/` directory on its path (`Sources/App/Models/User.swift` → `App`).
pub(super) fn swift_target(path: &str) -> Option<&str> {
    let segments: Vec<&str> = path.split('/').collect();
    let at = segments
        .iter()
        .rposition(|s| matches!(*s, "Sources" | "Tests"))?;
    // The target is a directory: a file directly in `Sources/` belongs to none.
    (at + 2 < segments.len()).then(|| segments[at + 1])
}
