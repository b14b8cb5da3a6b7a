//! C and C++ includes: a header by its path, beside the including file or below an include
//! directory of this repository.

use doc_bridge_model::snapshot::ImportResolution;
use doc_bridge_model::{EntityId, RelPath};

use super::{Resolved, Resolver};

impl Resolver<'_> {
    /// `#include "a/b.h"` looks beside the including file first (a module, or another file
    /// such as `table.inc`); then, like `#include <a/b.h>`, for the one module of this
    /// repository whose path ends with `a/b.h` (below whatever `-I` directory the build
    /// names). Two or more such modules are unresolved: the build's include path decides,
    /// and it is not read. A header no file here has is external (the system's, a
    /// dependency's, or one the build generates).
    pub(super) fn include(&self, from: &RelPath, specifier: &str) -> Resolved {
        let (path, quoted) = match specifier
            .strip_prefix('<')
            .and_then(|s| s.strip_suffix('>'))
        {
            Some(inner) => (inner, false),
            None => (specifier, true),
        };
        if quoted && let Some(beside) = RelPath::join_normalized(&from.parent(), path) {
            if self.is_module(&beside) {
                return (ImportResolution::Internal, vec![EntityId::module(&beside)]);
            }
            if self.files.contains(beside.as_str()) {
                return (ImportResolution::File, Vec::new());
            }
        }
        // `../x.h` from the include directory cannot be told without the build's `-I`.
        let rel = path.trim_start_matches("./");
        if rel.split('/').any(|segment| segment == "..") {
            return (ImportResolution::External, Vec::new());
        }
        match self.modules_ending_with(rel).as_slice() {
            [only] => (ImportResolution::Internal, vec![EntityId::module(only)]),
            [] => (ImportResolution::External, Vec::new()),
            _ => (ImportResolution::Unresolved, Vec::new()),
        }
    }
}
