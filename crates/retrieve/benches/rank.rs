//! In-process ranking on a 10,000-entry collection (the target: ≤ 2 ms per query).
//!
//! `cargo bench -p doc-bridge-retrieve --bench rank`. The collection is synthetic and
//! deterministic: documents of 150–400 words from a 2,000-word vocabulary with a Zipf-like
//! skew, titles and headings from the same words, and modules with symbols.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use criterion::{Criterion, criterion_group, criterion_main};
use doc_bridge_model::projection::{
    EntryGraph, GraphParams, LexicalStats, ProjectedEntry, ProjectedSymbol, RetrievalIndexV1,
};
use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_retrieve::collection::Collection;
use doc_bridge_retrieve::rank::{SearchOptions, search};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn vocabulary() -> Vec<String> {
    let syllables = [
        "ka", "lo", "mi", "ren", "tor", "sa", "vel", "qui", "dan", "por", "est", "ul", "bri", "zen",
    ];
    (0..2000)
        .map(|i| {
            format!(
                "{}{}{}",
                syllables[i % 14],
                syllables[(i / 14) % 14],
                syllables[(i / 196) % 14]
            )
        })
        .collect()
}

fn word<'a>(rng: &mut Rng, words: &'a [String]) -> &'a str {
    // Zipf-like: small indexes are much more frequent.
    let r = rng.below(1_000_000) as f64 / 1_000_000.0;
    let index = ((words.len() as f64).powf(r) - 1.0) as usize;
    &words[index.min(words.len() - 1)]
}

fn projection(n: usize) -> RetrievalIndexV1 {
    let words = vocabulary();
    let mut rng = Rng(7);
    let mut entries = Vec::with_capacity(n);
    for i in 0..n {
        let module = i % 3 == 0;
        let (kind, path) = if module {
            ("module", format!("src/m{i}.ts"))
        } else {
            ("document", format!("docs/d{i}.md"))
        };
        let title: Vec<&str> = (0..4).map(|_| word(&mut rng, &words)).collect();
        let length = 150 + rng.below(250) as usize;
        let body: Vec<&str> = (0..length).map(|_| word(&mut rng, &words)).collect();
        let mut fields = BTreeMap::new();
        fields.insert("title".to_owned(), title.join(" "));
        fields.insert("headings".to_owned(), body[..8].join(" "));
        fields.insert("path".to_owned(), path.clone());
        fields.insert("summary".to_owned(), body[..30].join(" "));
        fields.insert(
            "body".to_owned(),
            if module {
                String::new()
            } else {
                body.join(" ")
            },
        );
        fields.insert("aliases".to_owned(), String::new());
        let symbols: Vec<ProjectedSymbol> = if module {
            (0..5)
                .map(|s| ProjectedSymbol {
                    name: format!("{}Handler{i}x{s}", word(&mut rng, &words)),
                    declared: true,
                })
                .collect()
        } else {
            Vec::new()
        };
        fields.insert(
            "symbols".to_owned(),
            symbols
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        );
        entries.push(ProjectedEntry {
            id: format!("{kind}:{path}"),
            kind: kind.to_owned(),
            path: RelPath::new(&path).unwrap(),
            title: title.join(" "),
            aliases: Vec::new(),
            symbols,
            tags: Vec::new(),
            fields,
            graph: EntryGraph {
                pagerank: 1.0 / n as f64,
                ..EntryGraph::default()
            },
            content_hash: ContentHash::of_bytes(path.as_bytes()),
            provenance: "observed".to_owned(),
            confidence: "observed".to_owned(),
            language: None,
            mentions: Vec::new(),
            audience: Vec::new(),
            agent_doc: false,
            target: None,
            signal: 0.0,
        });
    }
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    RetrievalIndexV1 {
        schema_version: 1,
        content_hash: ContentHash::of_bytes(b""),
        snapshot_hash: ContentHash::of_bytes(b""),
        overlay_hash: ContentHash::of_bytes(b""),
        configuration_hash: ContentHash::of_bytes(b""),
        lexicon_version: 1,
        graph: GraphParams {
            version: 1,
            damping: 0.85,
            iterations: 100,
            tolerance: 1e-10,
            edges: Vec::new(),
        },
        lexical: LexicalStats {
            document_count: n as u64,
            fields: Vec::new(),
            average_field_lengths: BTreeMap::new(),
        },
        entries,
    }
}

fn bench(c: &mut Criterion) {
    let projection = projection(10_000);
    let collection = Collection::build(&projection);
    let words = vocabulary();
    let options = SearchOptions::default();
    let short = format!("{} {}", words[40], words[300]);
    let sentence = format!(
        "how does the {} {} handle {} when {} fails",
        words[12], words[150], words[700], words[5]
    );
    let report: String = (0..300)
        .map(|i| words[(i * 37) % 2000].as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let mut group = c.benchmark_group("rank-10k");
    group.bench_function("two-terms", |b| {
        b.iter(|| search(&collection, &short, &options))
    });
    group.bench_function("question", |b| {
        b.iter(|| search(&collection, &sentence, &options))
    });
    group.bench_function("pasted-report-300-words", |b| {
        b.iter(|| search(&collection, &report, &options))
    });
    group.bench_function("exact-symbol", |b| {
        b.iter(|| search(&collection, "kalokaHandler42x1", &options))
    });
    group.finish();
    c.bench_function("collection-build-10k", |b| {
        b.iter(|| Collection::build(&projection))
    });
    let image = collection.image().to_vec();
    c.bench_function("collection-load-10k", |b| {
        b.iter(|| Collection::from_image(image.clone(), 0).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
