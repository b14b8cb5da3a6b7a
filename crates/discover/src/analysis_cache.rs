//! The analysis cache: source-module facts keyed by (language, content hash), so an unchanged
//! module is not parsed again (DESIGN.md "Performance stance"). Tree-sitter parsing is the
//! expensive analysis; Markdown and manifests are cheap to redo and are not cached. Derived,
//! never authoritative: a missing, corrupt or other-version cache is empty.

use std::collections::HashMap;

use doc_bridge_model::ContentHash;
use doc_bridge_source::{Language, SourceFacts};
use serde::{Deserialize, Serialize};

use crate::observe::{Analysis, ObservedFile};

/// Bumped when the cache layout changes.
const CACHE_FORMAT: u32 = 1;

/// Cached source analyses.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisCache {
    format: u32,
    source_version: u32,
    modules: HashMap<String, SourceFacts>,
}

fn key(language: Language, hash: &ContentHash) -> String {
    format!("{}:{hash}", language.name())
}

impl AnalysisCache {
    /// Reads a cache; anything unreadable or written by another analyzer version is empty.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        match postcard::from_bytes::<AnalysisCache>(bytes) {
            Ok(cache)
                if cache.format == CACHE_FORMAT
                    && cache.source_version == doc_bridge_source::ANALYZER_VERSION =>
            {
                cache
            }
            _ => AnalysisCache::default(),
        }
    }

    /// Serializes the cache.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// The cached facts of a module with this language and content hash.
    pub fn get(&self, language: Language, hash: &ContentHash) -> Option<&SourceFacts> {
        self.modules.get(&key(language, hash))
    }

    /// A cache holding the analyses of this run's modules (and nothing stale).
    pub fn from_observed(observed: &[ObservedFile]) -> Self {
        let modules = observed
            .iter()
            .filter_map(|file| match &file.analysis {
                Analysis::Module(language, facts) => {
                    Some((key(*language, &file.record.content_hash), (**facts).clone()))
                }
                _ => None,
            })
            .collect();
        AnalysisCache {
            format: CACHE_FORMAT,
            source_version: doc_bridge_source::ANALYZER_VERSION,
            modules,
        }
    }

    /// Number of cached modules.
    pub fn len(&self) -> usize {
        self.modules.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.modules.is_empty()
    }
}
