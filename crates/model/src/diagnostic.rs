//! Building diagnostics with stable ids.

use crate::hash::hash_canonical;
use crate::ids::{EntityId, RelPath};
use crate::snapshot::{Diagnostic, Severity};

impl Diagnostic {
    /// A diagnostic whose `id` is the first 16 hex digits of sha256 over canonical
    /// `{code, path, line, message}`: stable across runs and machines.
    pub fn new(
        code: &str,
        severity: Severity,
        path: RelPath,
        line: Option<u32>,
        message: impl Into<String>,
        entity: Option<EntityId>,
    ) -> Self {
        let message = message.into();
        let key = serde_json::json!({
            "code": code, "path": path.as_str(), "line": line, "message": message,
        });
        let id = match hash_canonical(&key) {
            Ok(hash) => hash.as_str()[..16].to_owned(),
            // Unreachable for strings and integers; keep a deterministic fallback anyway.
            Err(_) => format!("{code}:{path}:{}", line.unwrap_or(0)),
        };
        Diagnostic {
            id,
            code: code.to_owned(),
            severity,
            path,
            line,
            message,
            entity,
        }
    }

    /// The sort key used everywhere diagnostics are listed.
    pub fn sort_key(&self) -> (&RelPath, u32, &str, &str) {
        (
            &self.path,
            self.line.unwrap_or(0),
            &self.code,
            &self.message,
        )
    }
}
