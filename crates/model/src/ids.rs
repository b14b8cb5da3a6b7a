//! Identities: repository-relative paths and entity ids, validated once at the boundary.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// A repository-relative path with `/` separators, no `.` or `..` segments, no leading `/`, and
/// no empty segments. `"."` names the repository root itself (used by root-level areas).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(transparent)]
#[schemars(with = "String")]
pub struct RelPath(String);

impl RelPath {
    /// The repository root.
    pub fn root() -> Self {
        Self(".".to_owned())
    }

    /// Validates a `/`-separated relative path. Returns `None` for absolute paths, `..`
    /// segments, empty segments, backslashes, or NUL bytes.
    pub fn new(text: &str) -> Option<Self> {
        if text == "." {
            return Some(Self::root());
        }
        let valid = !text.is_empty()
            && !text.starts_with('/')
            && !text.contains('\\')
            && !text.contains('\0')
            && text
                .split('/')
                .all(|seg| !seg.is_empty() && seg != "." && seg != "..");
        valid.then(|| Self(text.to_owned()))
    }

    /// Normalises `base/relative` (where `relative` may hold `.` and `..` segments) into a
    /// repository-relative path, or `None` when it escapes the root.
    pub fn join_normalized(base_dir: &RelPath, relative: &str) -> Option<Self> {
        let mut parts: Vec<&str> = if base_dir.is_root() {
            Vec::new()
        } else {
            base_dir.0.split('/').collect()
        };
        for seg in relative.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                other => parts.push(other),
            }
        }
        if parts.is_empty() {
            return Some(Self::root());
        }
        Self::new(&parts.join("/"))
    }

    /// Whether this is the repository root.
    pub fn is_root(&self) -> bool {
        self.0 == "."
    }

    /// The path text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The parent directory (`.` for a top-level entry and for the root).
    pub fn parent(&self) -> RelPath {
        match self.0.rfind('/') {
            Some(i) => Self(self.0[..i].to_owned()),
            None => Self::root(),
        }
    }

    /// The last segment.
    pub fn file_name(&self) -> &str {
        match self.0.rfind('/') {
            Some(i) => &self.0[i + 1..],
            None => &self.0,
        }
    }

    /// The file name without its last extension (`guide.md` → `guide`, `.env` → `.env`).
    pub fn file_stem(&self) -> &str {
        let name = self.file_name();
        match name.rfind('.') {
            Some(0) | None => name,
            Some(i) => &name[..i],
        }
    }

    /// The last extension without the dot, lowercased comparison is the caller's choice.
    pub fn extension(&self) -> Option<&str> {
        let name = self.file_name();
        match name.rfind('.') {
            Some(0) | None => None,
            Some(i) => Some(&name[i + 1..]),
        }
    }

    /// Whether `self` is `dir` or lies below it.
    pub fn is_within(&self, dir: &RelPath) -> bool {
        dir.is_root()
            || self.0 == dir.0
            || (self.0.len() > dir.0.len()
                && self.0.starts_with(&dir.0)
                && self.0.as_bytes()[dir.0.len()] == b'/')
    }

    /// `self` relative to `dir` (`""` when equal), or `None` when not within it.
    pub fn strip_dir(&self, dir: &RelPath) -> Option<&str> {
        if dir.is_root() {
            return Some(if self.is_root() { "" } else { &self.0 });
        }
        if self.0 == dir.0 {
            return Some("");
        }
        self.is_within(dir).then(|| &self.0[dir.0.len() + 1..])
    }

    /// `self/child` where `child` is a valid relative path.
    pub fn join(&self, child: &str) -> Option<RelPath> {
        if self.is_root() {
            Self::new(child)
        } else {
            Self::new(&format!("{}/{}", self.0, child))
        }
    }

    /// Number of segments (0 for the root).
    pub fn depth(&self) -> usize {
        if self.is_root() {
            0
        } else {
            self.0.split('/').count()
        }
    }
}

impl fmt::Debug for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for RelPath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        RelPath::new(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{text}` is not a repository-relative path (`/`-separated, no `..`)"
            ))
        })
    }
}

/// An entity id: `document:<path>`, `module:<path>`, `area:<dir>` or `package:<name>`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct EntityId(String);

impl EntityId {
    /// `document:<path>`.
    pub fn document(path: &RelPath) -> Self {
        Self(format!("document:{path}"))
    }
    /// `module:<path>`.
    pub fn module(path: &RelPath) -> Self {
        Self(format!("module:{path}"))
    }
    /// `area:<dir>`.
    pub fn area(dir: &RelPath) -> Self {
        Self(format!("area:{dir}"))
    }
    /// `file:<path>`.
    pub fn file(path: &RelPath) -> Self {
        Self(format!("file:{path}"))
    }
    /// `package:<name>`.
    pub fn package(name: &str) -> Self {
        Self(format!("package:{name}"))
    }
    /// Wraps an id read from elsewhere (an index, a proposal); no validation beyond the type.
    pub fn from_raw(text: impl Into<String>) -> Self {
        Self(text.into())
    }
    /// The id text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl fmt::Display for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_path_rejects_escapes_and_absolute_paths() {
        for bad in ["", "/etc", "a/../b", "a//b", "./a", "a\\b", "a/"] {
            assert!(RelPath::new(bad).is_none(), "{bad}");
        }
        assert!(RelPath::new("docs/naïve plan.md").is_some());
    }

    #[test]
    fn join_normalized_resolves_dots_and_refuses_escape() {
        let base = RelPath::new("docs/guide").unwrap();
        assert_eq!(
            RelPath::join_normalized(&base, "../a.md").unwrap().as_str(),
            "docs/a.md"
        );
        assert_eq!(
            RelPath::join_normalized(&base, "./x/./y.md")
                .unwrap()
                .as_str(),
            "docs/guide/x/y.md"
        );
        assert!(RelPath::join_normalized(&base, "../../../etc/passwd").is_none());
        assert!(RelPath::join_normalized(&base, "../..").unwrap().is_root());
    }

    #[test]
    fn within_is_segment_aware() {
        let dir = RelPath::new("packages/auth").unwrap();
        assert!(
            RelPath::new("packages/auth/src/a.ts")
                .unwrap()
                .is_within(&dir)
        );
        assert!(!RelPath::new("packages/authz/a.ts").unwrap().is_within(&dir));
        assert_eq!(
            RelPath::new("packages/auth/x").unwrap().strip_dir(&dir),
            Some("x")
        );
    }

    #[test]
    fn stem_and_extension() {
        let p = RelPath::new("a/b.test.ts").unwrap();
        assert_eq!(p.file_stem(), "b.test");
        assert_eq!(p.extension(), Some("ts"));
        assert_eq!(RelPath::new(".env").unwrap().extension(), None);
    }
}
