//! Ranking with named parts (DESIGN.md "Ranking"):
//!
//! `score = lexical × prior + exactId + exactPath + exactSymbol + graphProximity + canonicality
//!  + audienceFit + acceptedAgentSignals`
//!
//! `lexical` is BM25F scaled so the best lexical hit of a query scores [`LEXICAL_SCALE`]. Every
//! other part is bounded, so the parts that are not exact identity can never add up to
//! [`EXACT_PATH`]: an entry the query names exactly always outranks one that matched only
//! lexically, even with the maximum accepted signal (property-tested).

use std::collections::BTreeMap;

use doc_bridge_model::index::RetrievalSettings;
use doc_bridge_model::retrieval::{DEFAULT_B, DEFAULT_K1, Field};
use serde::Serialize;

use crate::collection::{Collection, Entry, ExactKind, FIELD_COUNT, normalize_name, style_key};
use crate::file_role::FileRole;
use crate::lexicon;
use crate::references::{self, Reference};

/// The best lexical hit of a query scores this much.
pub const LEXICAL_SCALE: f64 = 50.0;
/// The whole query is an entry's id or alias.
pub const EXACT_ID: f64 = 200.0;
/// The whole query is an entry's path, file name or stem.
pub const EXACT_PATH: f64 = 150.0;
/// The whole query is a symbol the module declares.
pub const EXACT_SYMBOL: f64 = 150.0;
/// The whole query is a symbol the module only re-exports.
pub const REEXPORTED_SYMBOL: f64 = 75.0;
/// The whole query is a name a document writes as inline code: after the code that declares
/// it ([`EXACT_SYMBOL`]), before a re-export ([`REEXPORTED_SYMBOL`]).
pub const EXACT_MENTION: f64 = 100.0;
/// The whole query is a document's title.
pub const EXACT_TITLE: f64 = 150.0;
/// The whole query is one of a document's headings: after its title and the code that declares
/// it, before a page that only writes the name as inline code ([`EXACT_MENTION`]).
pub const EXACT_HEADING: f64 = 125.0;
/// For queries of two or three terms, an entry one of the terms names exactly earns this much:
/// enough to reorder close lexical hits, never to lift a weak one (10% of [`LEXICAL_SCALE`]).
pub const TERM_IDENTITY: f64 = 5.0;
/// Weight of an accepted agent signal (0..=1): 15% of the exact-id boost.
pub const SIGNAL_WEIGHT: f64 = 30.0;
/// Prior for curated agent documents.
pub const PRIOR_AGENT_DOC: f64 = 1.15;
/// A report's reference to a file path resolves to the entries at that path: this much,
/// shared among them.
pub const REFERENCE_PATH: f64 = 40.0;
/// A dotted name (`pkg.module.name`, `Class.method`) that resolves.
pub const REFERENCE_DOTTED: f64 = 25.0;
/// A code-shaped identifier (`store_cv_values`, `_hstack`) that a module declares.
pub const REFERENCE_IDENTIFIER: f64 = 12.0;
/// Upper bound of the reference part for one entry.
pub const REFERENCE_CAP: f64 = 60.0;
/// A reference that resolves to more entries than this names nothing in particular.
pub const REFERENCE_MAX_TARGETS: usize = 6;

/// The best place of a result's file holds this share of the query's weight: up to this much
/// (`rerank_by_passages`; 70% of [`LEXICAL_SCALE`]). A question, a few words or a message is
/// answered in one place of its page, so where the words stand together weighs nearly as much
/// as how often they occur.
pub const PASSAGE_WEIGHT: f64 = 35.0;
/// A result's file writes this share of the query's consecutive word pairs: up to this much more
/// (`rerank_by_passages`).
pub const PHRASE_WEIGHT: f64 = 15.0;
/// [`PASSAGE_WEIGHT`] for a pasted report (a bug report, a traceback): the file a report is about
/// is about the whole report, whose words it holds spread over it (40% of [`LEXICAL_SCALE`]).
pub const REPORT_PASSAGE_WEIGHT: f64 = 20.0;
/// [`PHRASE_WEIGHT`] for a pasted report.
pub const REPORT_PHRASE_WEIGHT: f64 = 10.0;
/// How many of the best results are looked into for [`PASSAGE_WEIGHT`].
pub const PASSAGE_CANDIDATES: usize = 30;

/// Prior for modules when the query is a pasted report (a bug report, a traceback): the file
/// a report is about is code.
pub const PRIOR_MODULE_FOR_REPORT: f64 = 1.3;
/// Prior for documents for every other query (words, a question, a name): documentation
/// explains what code implements, so a page that matches as well as a module comes first.
pub const PRIOR_DOCUMENT: f64 = 1.5;
/// A query of at least this many words is read as a pasted report.
pub const REPORT_WORDS: usize = 30;
/// Prior for `file:` entries (files no analyzer reads: configuration, data, templates, other
/// languages): only their name and path are words, so a match there is thinner evidence than
/// the same words in a document or module. An exact name still finds them first (identity).
pub const PRIOR_FILE: f64 = 0.5;
/// Prior for tests, fixtures, examples, playgrounds, generated and vendored files and
/// changelogs, unless the query asks for them (see `file_role`): they rank after the source
/// and documentation they exercise or describe.
pub const PRIOR_SECONDARY_ROLE: f64 = 0.5;
/// Graph proximity one hop from an anchor, at most (scaled by the anchor's share of the best
/// anchor): 10% of [`LEXICAL_SCALE`]. It reorders close hits; it never lifts an entry above its
/// anchor (the gain is cut to the gap) nor above a clearly stronger lexical hit.
pub const PROXIMITY_ONE_HOP: f64 = 5.0;
/// Graph proximity two hops from an anchor, at most.
pub const PROXIMITY_TWO_HOPS: f64 = 2.5;
/// How many of the best lexical hits anchor graph proximity.
pub const PROXIMITY_ANCHORS: usize = 10;
/// Canonicality: this × ln(1 + pagerank × N), capped at [`CANONICALITY_CAP`].
pub const CANONICALITY_WEIGHT: f64 = 0.5;
/// Upper bound of canonicality.
pub const CANONICALITY_CAP: f64 = 5.0;
/// `--agent`: documentation for agents earns this share of its lexical × prior.
pub const AUDIENCE_FIT: f64 = 0.15;
/// Default result floor: results under this share of the best score are dropped.
pub const DEFAULT_FLOOR: f64 = 1.0 / 3.0;

/// BM25F parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Scoring {
    /// Field weights, in `Field::ALL` order.
    pub weights: [f64; FIELD_COUNT],
    /// Term-frequency saturation.
    pub k1: f64,
    /// Length normalization.
    pub b: f64,
}

impl Scoring {
    /// The settings an index recorded.
    pub fn from_settings(settings: &RetrievalSettings) -> Self {
        let mut weights = [0.0; FIELD_COUNT];
        for (i, field) in Field::ALL.iter().enumerate() {
            weights[i] = settings
                .weights
                .get(field.name())
                .copied()
                .unwrap_or(field.default_weight());
        }
        Scoring {
            weights,
            k1: settings.params.get("k1").copied().unwrap_or(DEFAULT_K1),
            b: settings.params.get("b").copied().unwrap_or(DEFAULT_B),
        }
    }
}

impl Default for Scoring {
    fn default() -> Self {
        let mut weights = [0.0; FIELD_COUNT];
        for (i, field) in Field::ALL.iter().enumerate() {
            weights[i] = field.default_weight();
        }
        Scoring {
            weights,
            k1: DEFAULT_K1,
            b: DEFAULT_B,
        }
    }
}

/// Search options.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    /// Maximum results.
    pub limit: usize,
    /// Leave out tests and fixtures (`search --no-tests`).
    pub no_tests: bool,
    /// Only entries whose path one of these globs matches (`search --path GLOB`).
    pub paths: Option<globset::GlobSet>,
    /// Only entries of this kind.
    pub kind: Option<String>,
    /// Attach an explanation to each result (never changes the ranking).
    pub explain: bool,
    /// Favour documentation written for agents.
    pub agent: bool,
    /// Drop results under this share of the best score (0 keeps everything).
    pub floor: f64,
    /// The asked language.
    pub language: String,
    /// BM25F parameters.
    pub scoring: Scoring,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limit: 10,
            no_tests: false,
            paths: None,
            kind: None,
            explain: false,
            agent: false,
            floor: DEFAULT_FLOOR,
            language: "en".to_owned(),
            scoring: Scoring::default(),
        }
    }
}

/// Every part of a score.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Parts {
    /// Raw BM25F.
    pub bm25: f64,
    /// BM25F scaled to the query's best hit.
    pub lexical: f64,
    /// Multiplier on lexical.
    pub prior: f64,
    /// Exact id or alias.
    pub exact_id: f64,
    /// Exact path, file name or stem.
    pub exact_path: f64,
    /// Exact exported symbol.
    pub exact_symbol: f64,
    /// Exact title, or a name the document writes as inline code.
    #[serde(skip_serializing_if = "is_zero")]
    pub exact_title: f64,
    /// A term of a short query names the entry.
    #[serde(skip_serializing_if = "is_zero")]
    pub term_identity: f64,
    /// Explicit references of a pasted report that resolve to the entry.
    #[serde(skip_serializing_if = "is_zero")]
    pub reference: f64,
    /// The best window of the file holds this much of the query (see `rerank_by_passages`).
    #[serde(skip_serializing_if = "is_zero")]
    pub passage: f64,
    /// Nearness to the best lexical hits.
    pub graph_proximity: f64,
    /// Log-scaled PageRank.
    pub canonicality: f64,
    /// `--agent` preference.
    pub audience_fit: f64,
    /// Accepted enrichment signal.
    pub accepted_agent_signals: f64,
}

impl Parts {
    /// The total.
    pub fn total(&self) -> f64 {
        self.lexical * self.prior
            + self.exact_id
            + self.exact_path
            + self.exact_symbol
            + self.exact_title
            + self.term_identity
            + self.reference
            + self.passage
            + self.graph_proximity
            + self.canonicality
            + self.audience_fit
            + self.accepted_agent_signals
    }

    /// The identity parts together (the whole query names the entry).
    pub fn identity(&self) -> f64 {
        self.exact_id + self.exact_path + self.exact_symbol + self.exact_title
    }

    /// The lexical evidence: BM25F scaled, times the prior.
    pub fn evidence(&self) -> f64 {
        self.lexical * self.prior
    }
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

/// How a result was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confidence {
    /// The query names it.
    High,
    /// It matched lexically.
    Medium,
    /// Only a relation surfaced it.
    Low,
}

/// A ranked result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Index into the projection's entries.
    pub entry: usize,
    /// The score.
    pub score: f64,
    /// Its parts.
    pub parts: Parts,
    /// How it was found.
    pub confidence: Confidence,
    /// With `explain`.
    pub explain: Option<Explain>,
}

/// Why a result scored what it did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explain {
    /// Every part.
    pub parts: Parts,
    /// Matched query terms: per-field frequencies, idf and contribution to bm25.
    pub terms: Vec<TermMatch>,
    /// Fields with at least one matched term.
    pub matched_fields: Vec<String>,
    /// What the exact parts matched (`id`, `path`, `symbol`, `reexported-symbol`), per query term.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub identity: Vec<String>,
    /// The report's references that named this entry.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<String>,
    /// The anchor that gave graph proximity, and the hops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proximity_anchor: Option<String>,
    /// Other entries collapsed into this one (same path, or a route to it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub collapsed: Vec<String>,
    /// Notes (translation capping, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One matched term.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TermMatch {
    /// The token (a stem for plain words: `compon`).
    pub term: String,
    /// The query's words that gave it (`components`, `Component`).
    pub words: Vec<String>,
    /// Its weight in the query: 1 a word, more when repeated, a share for a compound's parts
    /// (see [`query_terms`]).
    pub query_weight: f64,
    /// Inverse document frequency.
    pub idf: f64,
    /// Term frequency per matched field.
    pub fields: BTreeMap<String, u32>,
    /// Contribution to bm25.
    pub contribution: f64,
}

/// The query's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Looks like a symbol or path (`createSession`, `src/a.ts`, `a::b`, `run()`).
    pub code: bool,
    /// Looks like a question.
    pub question: bool,
    /// A pasted report: many words, several lines with code, or a traceback.
    pub report: bool,
}

/// Classifies a query.
pub fn shape(query: &str) -> Shape {
    let terms: Vec<&str> = query.split_whitespace().collect();
    let code = terms.len() <= 2
        && !terms.is_empty()
        && terms.iter().any(|t| {
            t.contains('/')
                || t.contains("::")
                || t.ends_with("()")
                || t.contains('_')
                || (t.contains('.') && !t.ends_with('.'))
                || t.chars()
                    .zip(t.chars().skip(1))
                    .any(|(a, b)| a.is_lowercase() && b.is_uppercase())
        });
    let first = terms.first().map(|t| lexicon::fold(t)).unwrap_or_default();
    let question = query.trim_end().ends_with('?')
        || matches!(
            first.as_str(),
            "how"
                | "what"
                | "why"
                | "where"
                | "when"
                | "which"
                | "who"
                | "can"
                | "does"
                | "do"
                | "is"
                | "should"
                | "could"
                | "are"
        );
    let report = terms.len() >= REPORT_WORDS
        || query.contains("Traceback (most recent call last)")
        || query.contains("```")
        || (query.lines().count() >= 3 && terms.len() >= 12);
    Shape {
        code,
        question,
        report,
    }
}

fn idf(n: usize, df: usize) -> f64 {
    let (n, df) = (n as f64, df as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

fn term_weight(
    collection: &Collection,
    scoring: &Scoring,
    entry: usize,
    tf: &[u16; FIELD_COUNT],
) -> f64 {
    let lengths = collection.entry(entry).lengths();
    let averages = collection.average();
    let mut weighted = 0.0;
    for f in 0..FIELD_COUNT {
        if tf[f] == 0 {
            continue;
        }
        let average = if averages[f] > 0.0 { averages[f] } else { 1.0 };
        let norm = 1.0 - scoring.b + scoring.b * f64::from(lengths[f]) / average;
        weighted += scoring.weights[f] * f64::from(tf[f]) / norm;
    }
    weighted
}

fn bm25_part(weighted: f64, k1: f64, idf: f64) -> f64 {
    idf * weighted * (k1 + 1.0) / (k1 + weighted)
}

/// Query terms and their weights. Every word of the query weighs 1; a compound word
/// (`JavaScript`, `snake_case`, `a/b`) weighs 1 whole and its parts share one more, so a word
/// written in camel case does not count three times (`javascript`, `java`, `script`) against
/// one written plainly. A term that occurs again adds its weight again.
pub fn query_terms(query: &str) -> BTreeMap<String, f64> {
    let mut terms = BTreeMap::new();
    let mut tokens: Vec<String> = Vec::new();
    lexicon::segments(query, &mut |segment| {
        tokens.clear();
        lexicon::expand(segment, &mut |t| tokens.push(t.to_owned()));
        let compound = matches!(segment, lexicon::Segment::Word(_)) && tokens.len() > 1;
        let part_weight = if compound {
            1.0 / (tokens.len() - 1) as f64
        } else {
            1.0
        };
        for (i, token) in tokens.drain(..).enumerate() {
            let weight = if compound && i > 0 { part_weight } else { 1.0 };
            *terms.entry(token).or_insert(0.0) += weight;
        }
    });
    terms
}

fn exact_value(kind: ExactKind) -> (f64, &'static str) {
    match kind {
        ExactKind::Id => (EXACT_ID, "id"),
        ExactKind::Path => (EXACT_PATH, "path"),
        ExactKind::Symbol => (EXACT_SYMBOL, "symbol"),
        ExactKind::ReexportedSymbol => (REEXPORTED_SYMBOL, "reexported-symbol"),
        ExactKind::Title => (EXACT_TITLE, "title"),
        ExactKind::Member => (0.0, "member"),
        ExactKind::Mention => (EXACT_MENTION, "mention"),
        ExactKind::Heading => (EXACT_HEADING, "heading"),
    }
}

fn add_identity(parts: &mut Parts, kind: ExactKind, value: f64) {
    let slot = match kind {
        ExactKind::Id => &mut parts.exact_id,
        ExactKind::Path => &mut parts.exact_path,
        ExactKind::Symbol | ExactKind::ReexportedSymbol => &mut parts.exact_symbol,
        ExactKind::Title | ExactKind::Mention | ExactKind::Heading => &mut parts.exact_title,
        ExactKind::Member => return,
    };
    *slot = slot.max(value);
}

/// What `name` names exactly: by its normalized form, and by its words in any case style.
fn exact_names(collection: &Collection, name: &str) -> Vec<(u32, ExactKind)> {
    let mut found = collection.exact(&normalize_name(name));
    let styled = style_key(name);
    if !styled.is_empty() && styled != normalize_name(name) {
        found.extend(collection.exact(&styled));
    }
    found.sort_unstable();
    found.dedup();
    found
}

struct Candidate {
    parts: Parts,
    identity: Vec<String>,
    references: Vec<String>,
    anchor: Option<String>,
}

/// Candidates by entry: a dense slot table, so accumulating postings costs O(1) per posting.
struct Candidates {
    slot: Vec<u32>,
    items: Vec<(usize, Candidate)>,
}

impl Candidates {
    fn new(n: usize, capacity: usize) -> Self {
        Candidates {
            slot: vec![u32::MAX; n],
            items: Vec::with_capacity(capacity),
        }
    }

    fn entry(&mut self, entry: usize) -> &mut Candidate {
        let index = match self.slot.get(entry) {
            Some(&i) if i != u32::MAX => i as usize,
            _ => {
                let i = self.items.len();
                if let Some(slot) = self.slot.get_mut(entry) {
                    *slot = u32::try_from(i).unwrap_or(u32::MAX);
                }
                self.items.push((
                    entry,
                    Candidate {
                        parts: Parts {
                            prior: 1.0,
                            ..Parts::default()
                        },
                        identity: Vec::new(),
                        references: Vec::new(),
                        anchor: None,
                    },
                ));
                i
            }
        };
        &mut self.items[index].1
    }
}

/// A candidate with its final score, and what collapsing and capping did to it. The candidate
/// itself stays in the candidate list (`candidate` indexes it): sorting and grouping thousands
/// of candidates moves this small record, not the candidate's parts.
struct Scored {
    entry: usize,
    score: f64,
    candidate: usize,
    identity: f64,
    collapsed: Vec<String>,
    notes: Vec<String>,
}

/// Ranks the collection for `query`.
pub fn search(collection: &Collection, query: &str, options: &SearchOptions) -> Vec<Hit> {
    let n = collection.len();
    let scored = collection.scored_len();
    let scoring = &options.scoring;
    let terms = query_terms(query);
    let lists: Vec<_> = terms
        .iter()
        .filter_map(|(term, qtf)| Some((qtf, collection.postings(term)?)))
        .collect();
    // Room for every entry the lists can reach, so the candidate list never grows by copying.
    let reach = lists.iter().map(|(_, (df, _))| df).sum::<usize>().min(n);
    let mut candidates = Candidates::new(n, reach);

    // Lexical: BM25F, every query term contributes.
    for (qtf, (df, postings)) in lists {
        let idf = idf(scored, df);
        for posting in postings {
            let entry = posting.entry as usize;
            let weighted = term_weight(collection, scoring, entry, &posting.tf);
            let part = *qtf * bm25_part(weighted, scoring.k1, idf);
            candidates.entry(entry).parts.bm25 += part;
        }
    }

    // Exact identity: the whole query names the entry.
    for (entry, kind) in exact_names(collection, query) {
        let (value, label) = exact_value(kind);
        let candidate = candidates.entry(entry as usize);
        add_identity(&mut candidate.parts, kind, value);
        candidate
            .identity
            .push(format!("{label}: {}", query.trim()));
    }
    // A term of a two- or three-term query that names an entry: a small bonus, for lexical hits.
    let raw_terms: Vec<&str> = query.split_whitespace().collect();
    let mut term_named: BTreeMap<usize, String> = BTreeMap::new();
    if (2..=3).contains(&raw_terms.len()) {
        for raw in &raw_terms {
            // A heading is a page's section, too common a name for one word of a query.
            for (entry, kind) in exact_names(collection, raw) {
                if kind == ExactKind::Heading {
                    continue;
                }
                let (_, label) = exact_value(kind);
                term_named
                    .entry(entry as usize)
                    .or_insert_with(|| format!("{label} (term): {raw}"));
            }
        }
    }

    // A report's explicit references: paths, dotted names, identifiers, resolved.
    if raw_terms.len() >= 4 {
        for reference in references::extract(query) {
            let (targets, weight) = resolve_reference(collection, &reference);
            if targets.is_empty() || targets.len() > REFERENCE_MAX_TARGETS {
                continue;
            }
            let share = weight / targets.len() as f64;
            for target in targets {
                let candidate = candidates.entry(target);
                let before = candidate.parts.reference;
                candidate.parts.reference = (before + share).min(REFERENCE_CAP);
                if candidate.parts.reference > before && candidate.references.len() < 5 {
                    candidate.references.push(reference.text().to_owned());
                }
            }
        }
    }

    // Scale lexical and apply priors.
    let best_bm25 = candidates
        .items
        .iter()
        .map(|(_, c)| c)
        .map(|c| c.parts.bm25)
        .fold(0.0, f64::max);
    let shape = shape(query);
    let asked = asked_roles(query);
    for (entry, candidate) in candidates.items.iter_mut() {
        let e = collection.entry(*entry);
        let parts = &mut candidate.parts;
        if let Some(role) = e.role()
            && !asked.contains(&role)
        {
            parts.prior *= PRIOR_SECONDARY_ROLE;
        }
        if best_bm25 > 0.0 {
            parts.lexical = LEXICAL_SCALE * parts.bm25 / best_bm25;
        }
        if e.agent_doc() {
            parts.prior *= PRIOR_AGENT_DOC;
        }
        if e.is_kind("file") {
            parts.prior *= PRIOR_FILE;
        }
        if shape.report {
            if e.is_kind("module") {
                parts.prior *= PRIOR_MODULE_FOR_REPORT;
            }
        } else if e.is_kind("document") {
            parts.prior *= PRIOR_DOCUMENT;
        }
    }

    for (entry, named) in term_named {
        if let Some(&slot) = candidates.slot.get(entry)
            && slot != u32::MAX
        {
            let candidate = &mut candidates.items[slot as usize].1;
            if candidate.parts.lexical > 0.0 && candidate.parts.identity() == 0.0 {
                candidate.parts.term_identity = TERM_IDENTITY;
                candidate.identity.push(named);
            }
        }
    }

    // Canonicality, audience fit and accepted signals join lexical hits only.
    for (entry, candidate) in candidates.items.iter_mut() {
        let e = collection.entry(*entry);
        let parts = &mut candidate.parts;
        if parts.lexical > 0.0 {
            parts.canonicality = (CANONICALITY_WEIGHT * (1.0 + e.pagerank() * scored as f64).ln())
                .clamp(0.0, CANONICALITY_CAP);
            if options.agent && (e.agent_doc() || e.for_agents()) {
                parts.audience_fit = AUDIENCE_FIT * parts.lexical * parts.prior;
            }
            parts.accepted_agent_signals = SIGNAL_WEIGHT * e.signal().clamp(0.0, 1.0);
        }
    }

    // Graph proximity around the best lexical hits, last: the gain is cut so that no entry
    // rises above its anchor, whatever the other parts gave either.
    let mut anchors: Vec<(usize, f64)> = candidates
        .items
        .iter()
        .filter(|(_, c)| c.parts.lexical > 0.0)
        .map(|(e, c)| (*e, c.parts.lexical * c.parts.prior))
        .collect();
    let by_value = |a: &(usize, f64), b: &(usize, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if anchors.len() > PROXIMITY_ANCHORS {
        anchors.select_nth_unstable_by(PROXIMITY_ANCHORS, by_value);
        anchors.truncate(PROXIMITY_ANCHORS);
    }
    anchors.sort_unstable_by(by_value);
    let best_anchor = anchors.first().map(|a| a.1).unwrap_or(0.0);
    let mut proximity: BTreeMap<usize, (f64, String)> = BTreeMap::new();
    for (anchor, value) in &anchors {
        let share = value / best_anchor;
        // The anchor's score before proximity: no neighbour is lifted above it.
        let anchor_score = candidates
            .slot
            .get(*anchor)
            .and_then(|&i| candidates.items.get(i as usize))
            .map_or(0.0, |(_, c)| c.parts.total());
        for (hop, factor) in [(1usize, PROXIMITY_ONE_HOP), (2, PROXIMITY_TWO_HOPS)] {
            let reached = neighbours(collection, *anchor, hop);
            for target in reached {
                if target == *anchor {
                    continue;
                }
                let own = candidates
                    .slot
                    .get(target)
                    .and_then(|&i| candidates.items.get(i as usize))
                    .map_or(0.0, |(_, c)| c.parts.total());
                let gain = (factor * share).min((anchor_score - own).max(0.0));
                if gain <= 0.0 {
                    continue;
                }
                let slot = proximity.entry(target).or_insert((0.0, String::new()));
                if gain > slot.0 {
                    *slot = (
                        gain,
                        format!(
                            "{} ({hop} hop{})",
                            collection.entry(*anchor).id(),
                            if hop == 1 { "" } else { "s" }
                        ),
                    );
                }
            }
        }
    }
    for (entry, (gain, anchor)) in proximity {
        let candidate = candidates.entry(entry);
        candidate.parts.graph_proximity = gain;
        candidate.anchor = Some(anchor);
    }

    let items = candidates.items;
    let mut scored: Vec<Scored> = items
        .iter()
        .enumerate()
        .filter(|(_, (entry, _))| {
            let e = collection.entry(*entry);
            options.kind.as_deref().is_none_or(|k| kind_matches(e, k))
                && !(options.no_tests
                    && matches!(e.role(), Some(FileRole::Test | FileRole::Fixture)))
                && options
                    .paths
                    .as_ref()
                    .is_none_or(|globs| globs.is_match(e.path()))
        })
        .map(|(index, (entry, candidate))| Scored {
            entry: *entry,
            score: candidate.parts.total(),
            candidate: index,
            identity: candidate.parts.identity(),
            collapsed: Vec::new(),
            notes: Vec::new(),
        })
        .filter(|s| s.score > 0.0)
        .collect();

    collapse_translations(collection, &mut scored, &options.language);
    // Collapsing keeps each group's best score, so the floor can be applied first (cheaper).
    // The floor holds for the total and, separately, for the lexical evidence: an entry the
    // query names does not hide every answer that only matched its words.
    let best = scored.iter().map(|s| s.score).fold(0.0, f64::max);
    let evidence = |s: &Scored| items[s.candidate].1.parts.evidence();
    let best_evidence = scored.iter().map(evidence).fold(0.0, f64::max);
    scored.retain(|s| {
        s.score >= best * options.floor
            || (best_evidence > 0.0 && evidence(s) >= best_evidence * options.floor)
    });
    let mut scored = collapse_by_path(collection, scored);
    // A total order (entries are unique after collapsing), so an unstable sort is exact.
    scored.sort_unstable_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.identity.total_cmp(&a.identity))
            // Entries are in id order, so the index order is the id's code-point order.
            .then(a.entry.cmp(&b.entry))
    });
    scored.truncate(options.limit);

    scored
        .into_iter()
        .map(
            |Scored {
                 entry,
                 score,
                 candidate,
                 collapsed,
                 notes,
                 ..
             }| {
                let candidate = &items[candidate].1;
                let confidence = if candidate.parts.identity() > 0.0 {
                    Confidence::High
                } else if candidate.parts.lexical > 0.0 {
                    Confidence::Medium
                } else {
                    Confidence::Low
                };
                let explain = options.explain.then(|| {
                    explain(
                        collection, query, scoring, entry, candidate, collapsed, notes,
                    )
                });
                Hit {
                    entry,
                    score,
                    parts: candidate.parts.clone(),
                    confidence,
                    explain,
                }
            },
        )
        .collect()
}

/// Reorders `hits` (the best first, as [`search`] returns them, asked with a limit of at least
/// [`PASSAGE_CANDIDATES`]) by how much of the query one place of each file holds: `texts[i]` is
/// the text of `hits[i]`'s file, when it could be read. Each hit gains up to
/// [`PASSAGE_WEIGHT`] × its [`snippet::coverage`] and [`PHRASE_WEIGHT`] × its
/// [`snippet::phrase_share`] ([`REPORT_PASSAGE_WEIGHT`] and [`REPORT_PHRASE_WEIGHT`] for a pasted
/// report); the order is then the new scores', and `limit` hits are kept. Pure: the caller
/// reads the files.
pub fn rerank_by_passages(
    collection: &Collection,
    query: &str,
    mut hits: Vec<Hit>,
    texts: &[Option<String>],
    limit: usize,
) -> Vec<Hit> {
    let n = collection.scored_len();
    let weights: Vec<(String, f64)> = query_terms(query)
        .into_keys()
        .filter_map(|term| {
            let (df, _) = collection.postings(&term)?;
            Some((term, idf(n, df)))
        })
        .collect();
    let pairs = crate::snippet::word_pairs(query);
    // A pair of common words is no phrase worth finding: each pair weighs its rarer word's idf.
    let idf_of = |term: &str| collection.postings(term).map_or(0.0, |(df, _)| idf(n, df));
    let (passage_weight, phrase_weight) = if shape(query).report {
        (REPORT_PASSAGE_WEIGHT, REPORT_PHRASE_WEIGHT)
    } else {
        (PASSAGE_WEIGHT, PHRASE_WEIGHT)
    };
    if weights.len() >= 2 {
        for (hit, text) in hits.iter_mut().zip(texts) {
            let Some(text) = text else { continue };
            let gain = passage_weight * crate::snippet::coverage(text, &weights)
                + phrase_weight * crate::snippet::phrase_share(text, &pairs, &idf_of);
            if gain > 0.0 && hit.parts.lexical > 0.0 {
                hit.parts.passage = gain;
                hit.score += gain;
                if let Some(explain) = &mut hit.explain {
                    explain.parts.passage = gain;
                }
            }
        }
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(b.parts.identity().total_cmp(&a.parts.identity()))
                .then(a.entry.cmp(&b.entry))
        });
    }
    hits.truncate(limit);
    hits
}

/// The entries a reference names, and the weight it carries: a path by its longest suffix
/// that names a file; a dotted name as a module path, then as `Owner.member`, then as a
/// module path and a name it declares, then by its last name alone (weaker); an identifier as
/// a declared symbol or member.
fn resolve_reference(collection: &Collection, reference: &Reference) -> (Vec<usize>, f64) {
    let of_kind = |key: &str, kinds: &[ExactKind]| -> Vec<usize> {
        let mut found: Vec<usize> = collection
            .exact(&normalize_name(key))
            .into_iter()
            .filter(|(entry, kind)| {
                kinds.contains(kind)
                    && matches!(
                        collection.entry(*entry as usize).kind(),
                        "module" | "document"
                    )
            })
            .map(|(entry, _)| entry as usize)
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    };
    const CODE: &[ExactKind] = &[ExactKind::Symbol, ExactKind::ReexportedSymbol];
    const NAMES: &[ExactKind] = &[ExactKind::Symbol, ExactKind::Member];
    match reference {
        Reference::Path(path) => {
            let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
            for start in 0..segments.len() {
                let suffix = segments[start..].join("/");
                let found = of_kind(&suffix, &[ExactKind::Path]);
                if !found.is_empty() {
                    let weight = if segments.len() - start >= 2 {
                        REFERENCE_PATH
                    } else {
                        REFERENCE_PATH / 2.0
                    };
                    return (found, weight);
                }
            }
            (Vec::new(), 0.0)
        }
        Reference::Dotted(name) => {
            let parts: Vec<&str> = name.split('.').collect();
            let as_path = parts.join("/");
            for key in [as_path.clone(), format!("{as_path}/__init__")] {
                let found = of_kind(&key, &[ExactKind::Path]);
                if !found.is_empty() {
                    return (found, REFERENCE_DOTTED);
                }
            }
            if parts.len() >= 2 {
                let last = parts[parts.len() - 1];
                let qualified = format!("{}.{last}", parts[parts.len() - 2]);
                let found = of_kind(&qualified, CODE);
                if !found.is_empty() {
                    return (found, REFERENCE_DOTTED);
                }
                // `pkg.module.name`: the module at `pkg/module` declaring `name`.
                let prefix = parts[..parts.len() - 1].join("/");
                let mut modules = of_kind(&prefix, &[ExactKind::Path]);
                modules.extend(of_kind(&format!("{prefix}/__init__"), &[ExactKind::Path]));
                let declaring = of_kind(last, NAMES);
                let both: Vec<usize> = declaring
                    .iter()
                    .copied()
                    .filter(|e| modules.contains(e))
                    .collect();
                if !both.is_empty() {
                    return (both, REFERENCE_DOTTED);
                }
                if !declaring.is_empty() {
                    return (declaring, REFERENCE_IDENTIFIER);
                }
            }
            (Vec::new(), 0.0)
        }
        Reference::Identifier(name) => (of_kind(name, NAMES), REFERENCE_IDENTIFIER),
    }
}

/// The roles a query asks for by name (`session tests` asks for tests).
fn asked_roles(query: &str) -> Vec<FileRole> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(lexicon::fold)
        .collect();
    FileRole::ALL
        .into_iter()
        .filter(|role| role.asked_by().iter().any(|w| words.iter().any(|q| q == w)))
        .collect()
}

fn kind_matches(entry: Entry<'_>, kind: &str) -> bool {
    entry.kind() == kind
        || (matches!(entry.kind(), "intent" | "ownership")
            && entry
                .target()
                .is_some_and(|t| t.strip_prefix(kind).is_some_and(|r| r.starts_with(':'))))
}

/// Entries exactly `hops` relation steps away (either direction, proximity kinds only).
fn neighbours(collection: &Collection, start: usize, hops: usize) -> Vec<usize> {
    let step = |from: usize| collection.entry(from).neighbours();
    let mut frontier = vec![start];
    let mut seen = std::collections::BTreeSet::from([start]);
    for _ in 0..hops {
        let mut next = Vec::new();
        for node in frontier {
            for neighbour in step(node) {
                if seen.insert(neighbour) {
                    next.push(neighbour);
                }
            }
        }
        frontier = next;
    }
    frontier.sort_unstable();
    frontier
}

/// Keys under which two documents are the same page in different languages.
fn page_keys(entry: Entry<'_>) -> (String, Option<String>) {
    let path = entry.path();
    let Some(language) = entry.language() else {
        return (path.to_owned(), None);
    };
    let segments: Vec<&str> = path.split('/').collect();
    match segments.iter().position(|s| {
        s.eq_ignore_ascii_case(language) || s.replace('_', "-").eq_ignore_ascii_case(language)
    }) {
        Some(i) => {
            let without: Vec<&str> = segments
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, s)| *s)
                .collect();
            (without.join("/"), Some(segments[i + 1..].join("/")))
        }
        None => (path.to_owned(), None),
    }
}

/// One result per page: a translation whose page in the asked language is also a result is
/// folded into that page (named in its `collapsed`, with a note); the page keeps its own score.
/// A translation whose page did not match stays.
fn collapse_translations(collection: &Collection, scored: &mut Vec<Scored>, asked: &str) {
    let in_asked = |e: Entry<'_>| {
        e.language().is_none_or(|l| {
            l.eq_ignore_ascii_case(asked)
                || l.split('-')
                    .next()
                    .is_some_and(|p| p.eq_ignore_ascii_case(asked))
        })
    };
    // Most queries have no translation among their candidates: skip the page-key work then.
    let translations = scored.iter().any(|s| {
        let e = collection.entry(s.entry);
        e.language().is_some() && e.is_kind("document") && !in_asked(e)
    });
    if !translations {
        return;
    }
    // Pages in the asked language, by both keys (the path without its language segment, and
    // the part after it).
    let mut by_full: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_suffix: BTreeMap<String, usize> = BTreeMap::new();
    for (i, s) in scored.iter().enumerate() {
        let e = collection.entry(s.entry);
        if e.kind() == "document" && in_asked(e) {
            let (full, suffix) = page_keys(e);
            by_full.entry(full).or_insert(i);
            if let Some(suffix) = suffix {
                by_suffix.entry(suffix).or_insert(i);
            }
        }
    }
    let mut folded: Vec<(usize, usize)> = Vec::new();
    for (i, s) in scored.iter().enumerate() {
        let e = collection.entry(s.entry);
        if e.kind() != "document" || in_asked(e) {
            continue;
        }
        let (full, suffix) = page_keys(e);
        let page = by_full
            .get(&full)
            .or_else(|| suffix.as_ref().and_then(|s| by_suffix.get(s)));
        if let Some(&page) = page {
            folded.push((i, page));
        }
    }
    if folded.is_empty() {
        return;
    }
    let mut remove = vec![false; scored.len()];
    for (translation, page) in folded {
        let e = collection.entry(scored[translation].entry);
        let note = format!(
            "translation ({}) folded into this page",
            e.language().unwrap_or("")
        );
        let id = e.id().to_owned();
        let keep = &mut scored[page];
        keep.collapsed.push(id);
        if !keep.notes.contains(&note) {
            keep.notes.push(note);
        }
        remove[translation] = true;
    }
    let mut index = 0;
    scored.retain(|_| {
        let keep = !remove[index];
        index += 1;
        keep
    });
}

/// One result per path. A route (intent, ownership) gives its score to the entity at its path.
fn collapse_by_path(collection: &Collection, scored: Vec<Scored>) -> Vec<Scored> {
    let entry = |i: usize| collection.entry(i);
    let mut groups: BTreeMap<&str, Vec<Scored>> = BTreeMap::new();
    for item in scored {
        groups
            .entry(entry(item.entry).path())
            .or_default()
            .push(item);
    }
    groups
        .into_values()
        .map(|mut group| {
            let best_score = group
                .iter()
                .map(|g| g.score)
                .fold(f64::NEG_INFINITY, f64::max);
            let is_route = |i: usize| matches!(entry(i).kind(), "intent" | "ownership");
            group.sort_by(|a, b| {
                is_route(a.entry)
                    .cmp(&is_route(b.entry))
                    .then(b.score.total_cmp(&a.score))
                    .then(entry(a.entry).id().cmp(entry(b.entry).id()))
            });
            let mut keep = group.remove(0);
            for other in &group {
                keep.collapsed.push(entry(other.entry).id().to_owned());
            }
            if best_score > keep.score {
                keep.notes.push(format!(
                    "score from {}",
                    group
                        .iter()
                        .find(|g| g.score == best_score)
                        .map(|g| entry(g.entry).id())
                        .unwrap_or("a route")
                ));
                keep.score = best_score;
            }
            keep
        })
        .collect()
}

/// The words of `query` whose tokens include `term`: runs of token characters (a leading `$`
/// kept), so `class:active={isActive}` shows `isActive`, not the whole run.
fn words_of(query: &str, term: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let pieces = query.split(|c: char| !lexicon::is_word_char(c) && c != '$');
    for word in pieces {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '$' && c != '@');
        let mut gives = false;
        lexicon::tokenize(word, &mut |t| gives |= t == term);
        if gives && !words.iter().any(|w| w == word) {
            words.push(word.to_owned());
        }
    }
    words
}

fn explain(
    collection: &Collection,
    query: &str,
    scoring: &Scoring,
    entry: usize,
    candidate: &Candidate,
    collapsed: Vec<String>,
    notes: Vec<String>,
) -> Explain {
    let terms = &query_terms(query);
    let n = collection.scored_len();
    let mut matched = Vec::new();
    let mut fields_seen = [false; FIELD_COUNT];
    for (term, qtf) in terms {
        let Some((df, mut postings)) = collection.postings(term) else {
            continue;
        };
        let Some(posting) = postings.find(|p| p.entry as usize == entry) else {
            continue;
        };
        let idf = idf(n, df);
        let weighted = term_weight(collection, scoring, entry, &posting.tf);
        let mut fields = BTreeMap::new();
        for (f, field) in Field::ALL.iter().enumerate() {
            if posting.tf[f] > 0 {
                fields.insert(field.name().to_owned(), u32::from(posting.tf[f]));
                fields_seen[f] = true;
            }
        }
        matched.push(TermMatch {
            term: term.clone(),
            words: words_of(query, term),
            query_weight: *qtf,
            idf,
            fields,
            contribution: *qtf * bm25_part(weighted, scoring.k1, idf),
        });
    }
    Explain {
        parts: candidate.parts.clone(),
        terms: matched,
        matched_fields: Field::ALL
            .iter()
            .zip(fields_seen)
            .filter(|(_, seen)| *seen)
            .map(|(f, _)| f.name().to_owned())
            .collect(),
        identity: candidate.identity.clone(),
        references: candidate.references.clone(),
        proximity_anchor: candidate.anchor.clone(),
        collapsed,
        notes,
    }
}
