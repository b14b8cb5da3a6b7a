//! C# usings: a namespace by the modules that declare it.

use doc_bridge_model::snapshot::ImportResolution;

use super::{Resolved, Resolver};

impl Resolver<'_> {
    /// `using A.B;` names a namespace, which any number of files may declare (`namespace
    /// A.B`): the using depends on all of this repository's modules that do. `using static
    /// A.B.C;` and `using X = A.B.C;` name a type: the modules declaring its namespace `A.B`.
    /// A namespace no module here declares is external (the framework's, a package's).
    pub(super) fn csharp(&self, specifier: &str) -> Resolved {
        let namespace = self.csharp_namespaces.get(specifier).or_else(|| {
            specifier
                .rsplit_once('.')
                .and_then(|(outer, _)| self.csharp_namespaces.get(outer))
        });
        match namespace {
            Some(modules) if !modules.is_empty() => (ImportResolution::Internal, modules.clone()),
            _ => (ImportResolution::External, Vec::new()),
        }
    }
}
