//! The search cache is untrusted input: any bytes either fail to decode or decode into a
//! collection that ranks without panicking.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use doc_bridge_model::ContentHash;
use doc_bridge_model::RelPath;
use doc_bridge_model::index::RetrievalSettings;
use doc_bridge_model::projection::{
    EntryGraph, GraphParams, LexicalStats, ProjectedEntry, RetrievalIndexV1,
};
use doc_bridge_retrieve::cache::{CacheHeader, FileStamp, SEARCH_CACHE_FORMAT, SearchCache};
use doc_bridge_retrieve::collection::Collection;
use doc_bridge_retrieve::rank::{SearchOptions, search};
use proptest::prelude::*;

fn projection() -> RetrievalIndexV1 {
    let entries = (0..12)
        .map(|i| {
            let path = format!("docs/d{i}.md");
            let mut fields = BTreeMap::new();
            fields.insert("title".to_owned(), format!("rotation guide {i}"));
            fields.insert(
                "body".to_owned(),
                "keys rotate signing cache ledger ".repeat(i + 1),
            );
            fields.insert("path".to_owned(), path.clone());
            ProjectedEntry {
                id: format!("document:{path}"),
                kind: "document".into(),
                path: RelPath::new(&path).unwrap(),
                title: format!("rotation guide {i}"),
                aliases: vec![format!("alias{i}")],
                symbols: Vec::new(),
                tags: Vec::new(),
                fields,
                graph: EntryGraph::default(),
                content_hash: ContentHash::of_bytes(path.as_bytes()),
                provenance: "observed".into(),
                confidence: "observed".into(),
                language: None,
                mentions: Vec::new(),
                audience: Vec::new(),
                agent_doc: false,
                target: None,
                signal: 0.0,
            }
        })
        .collect();
    RetrievalIndexV1 {
        schema_version: 1,
        content_hash: ContentHash::of_bytes(b""),
        snapshot_hash: ContentHash::of_bytes(b""),
        overlay_hash: ContentHash::of_bytes(b""),
        configuration_hash: ContentHash::of_bytes(b""),
        lexicon_version: doc_bridge_model::retrieval::LEXICON_VERSION,
        graph: GraphParams {
            version: 1,
            damping: 0.85,
            iterations: 100,
            tolerance: 1e-10,
            edges: Vec::new(),
        },
        lexical: LexicalStats {
            document_count: 12,
            fields: Vec::new(),
            average_field_lengths: BTreeMap::new(),
        },
        entries,
    }
}

fn cache_bytes() -> (Vec<u8>, FileStamp) {
    let stamp = FileStamp {
        bytes: 1,
        modified_ns: 2,
        inode: 3,
    };
    let cache = SearchCache {
        format: SEARCH_CACHE_FORMAT,
        lexicon_version: doc_bridge_model::retrieval::LEXICON_VERSION,
        index_stamp: stamp,
        index_hash: ContentHash::of_bytes(b"i"),
        inputs_hash: ContentHash::of_bytes(b"n"),
        snapshot_stamp: Some(FileStamp {
            bytes: 4,
            modified_ns: 5,
            inode: 6,
        }),
        retrieval: RetrievalSettings {
            lexicon_version: doc_bridge_model::retrieval::LEXICON_VERSION,
            weights: BTreeMap::new(),
            params: BTreeMap::new(),
        },
        collection: Collection::build(&projection()),
    };
    (cache.to_bytes(), stamp)
}

#[test]
fn intact_cache_round_trips_and_ranks_like_a_fresh_build() {
    let (bytes, stamp) = cache_bytes();
    let decoded = SearchCache::from_bytes(bytes.clone(), &stamp).unwrap();
    let fresh = Collection::build(&projection());
    let options = SearchOptions {
        floor: 0.0,
        ..SearchOptions::default()
    };
    let ids = |c: &Collection| {
        search(c, "signing rotation", &options)
            .iter()
            .map(|h| h.entry)
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&decoded.collection), ids(&fresh));
    let other_stamp = FileStamp { bytes: 9, ..stamp };
    assert_eq!(decoded.collection, fresh);
    assert!(SearchCache::from_bytes(bytes, &other_stamp).is_none());
}

#[test]
fn a_mapped_cache_file_reads_like_the_bytes_and_a_damaged_one_is_a_miss() {
    let (bytes, stamp) = cache_bytes();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("search.bin");
    std::fs::write(&path, &bytes).unwrap();
    let mapped = SearchCache::open(&path, &stamp).unwrap();
    assert_eq!(
        mapped,
        SearchCache::from_bytes(bytes.clone(), &stamp).unwrap()
    );
    // The header alone says what the whole cache says.
    assert_eq!(
        SearchCache::header(&path, &stamp),
        Some(CacheHeader {
            index_hash: mapped.index_hash.clone(),
            inputs_hash: mapped.inputs_hash.clone(),
            snapshot_stamp: mapped.snapshot_stamp,
        })
    );
    let other_stamp = FileStamp { inode: 7, ..stamp };
    assert_eq!(SearchCache::header(&path, &other_stamp), None);
    // Damage anywhere (the image included) makes the cache, and its header, a miss.
    let mut damaged = bytes.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    std::fs::write(&path, &damaged).unwrap();
    assert!(SearchCache::open(&path, &stamp).is_none());
    assert!(SearchCache::header(&path, &stamp).is_none());
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    assert!(SearchCache::open(&path, &stamp).is_none());
    assert!(SearchCache::header(&path, &stamp).is_none());
    std::fs::write(&path, b"").unwrap();
    assert!(SearchCache::open(&path, &stamp).is_none());
    assert!(SearchCache::open(&dir.path().join("missing.bin"), &stamp).is_none());
    assert!(SearchCache::header(&dir.path().join("missing.bin"), &stamp).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn corrupted_caches_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..16), truncate in any::<prop::sample::Index>(), cut in any::<bool>()) {
        let (mut bytes, stamp) = cache_bytes();
        for (index, value) in flips {
            let i = index.index(bytes.len());
            bytes[i] ^= value | 1;
        }
        if cut {
            let n = truncate.index(bytes.len());
            bytes.truncate(n);
        }
        // A damaged cache is a miss, never a source of different answers.
        if let Some(cache) = SearchCache::from_bytes(bytes, &stamp) {
            let fresh = Collection::build(&projection());
            let options = SearchOptions { floor: 0.0, explain: true, ..SearchOptions::default() };
            for query in ["signing rotation", "alias3", "docs/d1.md", "ledger cache keys"] {
                prop_assert_eq!(search(&cache.collection, query, &options), search(&fresh, query, &options));
            }
        }
    }
}

#[test]
fn a_collection_built_through_the_token_memo_equals_a_plain_one() {
    use doc_bridge_retrieve::token_memo::TokenMemo;
    let plain = Collection::build(&projection());
    let memo = TokenMemo::new();
    let mut changed = projection();
    changed.entries[3]
        .fields
        .insert("body".to_owned(), "entirely different words".to_owned());
    for _ in 0..2 {
        assert_eq!(Collection::build_with(&projection(), Some(&memo)), plain);
        memo.sweep();
    }
    // One entry's text changed: only its analysis is new, and the result is a plain build's.
    assert_eq!(
        Collection::build_with(&changed, Some(&memo)),
        Collection::build(&changed)
    );
}
