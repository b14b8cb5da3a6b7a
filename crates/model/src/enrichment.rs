//! Enrichment: typed agent proposals (`EnrichmentProposalV1`), the closed list of rejection
//! reasons, proposal and approval ids, and the overlay that stores decisions
//! (`EnrichmentOverlayV1`, `.doc-bridge/enrich/overlay.json`).
//!
//! Implements enrichment-overlay-v1, sections "Typed proposals", "The overlay" and "Approvals"
//! (the approval id). The validators that decide proposals live in `doc-bridge-enrich`; this
//! module only defines the data and its hashing, so nothing here knows how a proposal is judged.
//!
//! Parsing is two-step on purpose: [`parse_proposals`] keeps every element of an agent's answer
//! as a raw JSON value, so one malformed or unknown-kind proposal never makes the whole batch
//! unparsable; [`EnrichmentProposalV1::from_value`] then turns one value into a typed proposal
//! or says whether it failed on its `kind` or on its shape.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use crate::hash::{ContentHash, HashError, hash_canonical};
use crate::ids::EntityId;

/// The `type` tag of an overlay artifact.
pub const OVERLAY_TYPE: &str = "enrichment-overlay";
/// The overlay schema version this build writes and reads.
pub const OVERLAY_SCHEMA_VERSION: u32 = 1;
/// `acceptedBy` for entries accepted by policy rather than by a person
/// (enrichment-overlay-v1, "The overlay").
pub const ACCEPTED_BY_POLICY: &str = "policy";

/// Maximum `reason` length in characters (Unicode scalar values), enrichment-overlay-v1 "Typed
/// proposals".
pub const REASON_MAX_CHARS: usize = 1_000;
/// Maximum `summarize` summary length in characters.
pub const SUMMARY_MAX_CHARS: usize = 400;
/// Maximum `add-alias` alias length in characters.
pub const ALIAS_MAX_CHARS: usize = 64;
/// Maximum `add-intent` phrase length in characters.
pub const PHRASE_MAX_CHARS: usize = 120;
/// Maximum length of the other free-text payload fields (`claim`, `observed`, `missing`,
/// `detection`). The seed names no bound; this one matches `reason`.
pub const TEXT_MAX_CHARS: usize = 1_000;
/// Maximum length of short names (`suggest-area` `name`, a language tag, an origin field). The
/// seed names no bound.
pub const NAME_MAX_CHARS: usize = 120;
/// Maximum number of evidence items, related diagnostic ids, or suggested directories in one
/// proposal. The seed names no bound; this keeps one proposal from bloating the overlay.
pub const LIST_MAX_ITEMS: usize = 64;

/// The eleven proposal kinds (enrichment-overlay-v1, "Typed proposals").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ProposalKind {
    /// `classify-document`: type, audience, lifecycle, criticality of a document.
    ClassifyDocument,
    /// `summarize`: a summary for an entity.
    Summarize,
    /// `add-alias`: one more name an entity answers to.
    AddAlias,
    /// `add-intent`: a phrase a person might ask that leads to the entity.
    AddIntent,
    /// `mark-canonical`: the document is the canonical one for a scope.
    MarkCanonical,
    /// `propose-relation`: an edge that was not observed.
    ProposeRelation,
    /// `flag-contradiction`: the entity contradicts another.
    FlagContradiction,
    /// `flag-redundancy`: the document repeats another.
    FlagRedundancy,
    /// `flag-gap`: an area lacks documentation of something.
    FlagGap,
    /// `rank-hint`: the entity is more (strong) or a little more (weak) relevant.
    RankHint,
    /// `suggest-area`: directories that form an area together.
    SuggestArea,
}

impl ProposalKind {
    /// Every kind, in declaration order.
    pub const ALL: [ProposalKind; 11] = [
        ProposalKind::ClassifyDocument,
        ProposalKind::Summarize,
        ProposalKind::AddAlias,
        ProposalKind::AddIntent,
        ProposalKind::MarkCanonical,
        ProposalKind::ProposeRelation,
        ProposalKind::FlagContradiction,
        ProposalKind::FlagRedundancy,
        ProposalKind::FlagGap,
        ProposalKind::RankHint,
        ProposalKind::SuggestArea,
    ];

    /// The kebab-case name used in proposals and overlays.
    pub fn as_str(self) -> &'static str {
        match self {
            ProposalKind::ClassifyDocument => "classify-document",
            ProposalKind::Summarize => "summarize",
            ProposalKind::AddAlias => "add-alias",
            ProposalKind::AddIntent => "add-intent",
            ProposalKind::MarkCanonical => "mark-canonical",
            ProposalKind::ProposeRelation => "propose-relation",
            ProposalKind::FlagContradiction => "flag-contradiction",
            ProposalKind::FlagRedundancy => "flag-redundancy",
            ProposalKind::FlagGap => "flag-gap",
            ProposalKind::RankHint => "rank-hint",
            ProposalKind::SuggestArea => "suggest-area",
        }
    }

    /// The kind named `text`, or `None` for anything else (an `invalid-kind` rejection).
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }

    /// How an accepted proposal of this kind is decided (the "Policy" column of the seed table).
    pub fn policy(self) -> Policy {
        match self {
            ProposalKind::ClassifyDocument
            | ProposalKind::Summarize
            | ProposalKind::AddAlias
            | ProposalKind::AddIntent
            | ProposalKind::RankHint => Policy::AcceptByPolicy,
            ProposalKind::MarkCanonical
            | ProposalKind::ProposeRelation
            | ProposalKind::FlagContradiction
            | ProposalKind::FlagRedundancy
            | ProposalKind::SuggestArea => Policy::HumanApproval,
            ProposalKind::FlagGap => Policy::Finding,
        }
    }
}

impl fmt::Display for ProposalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a proposal that passes every validator is decided (enrichment-overlay-v1, "Typed
/// proposals", the Policy column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Accepted by the validators alone; `acceptedBy` is `policy`.
    AcceptByPolicy,
    /// Stays pending until a named person approves it; `acceptedBy` is never `policy`.
    HumanApproval,
    /// `flag-gap`: "accepted as a finding, never as a fact". Accepted by policy like
    /// [`Policy::AcceptByPolicy`], but it never has an effect on the projection.
    Finding,
}

impl Policy {
    /// Whether a proposal under this policy is accepted without a person.
    pub fn accepted_by_policy(self) -> bool {
        matches!(self, Policy::AcceptByPolicy | Policy::Finding)
    }
}

/// `classify-document` `type`. The seed leaves the values open; these follow the Diátaxis modes
/// plus the kinds of document a repository keeps besides them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DocumentType {
    /// How to do a task.
    Guide,
    /// Facts to look up (APIs, options, formats).
    Reference,
    /// Learning by doing, start to finish.
    Tutorial,
    /// Why things are the way they are.
    Explanation,
    /// A recorded decision (ADR, RFC outcome).
    Decision,
    /// What changed between versions.
    Changelog,
    /// Rules people must follow (security, contribution, conduct).
    Policy,
    /// Operational steps for incidents and routine operations.
    Runbook,
    /// None of the above.
    Other,
}

/// `classify-document` `audience`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Audience {
    /// Written for people.
    Human,
    /// Written for coding agents.
    Agent,
    /// Written for both.
    Both,
}

/// `classify-document` `lifecycle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Lifecycle {
    /// Not finished.
    Draft,
    /// In force.
    Current,
    /// Still present, no longer to be followed.
    Deprecated,
    /// Kept for the record.
    Archived,
}

/// `classify-document` `criticality`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Criticality {
    /// Nice to have.
    Low,
    /// Matters for some work.
    Medium,
    /// Wrong or missing, it breaks things.
    High,
}

/// `rank-hint` `relevance`: 1 (strong) or 0.5 (weak) of the accepted signal
/// (enrichment-overlay-v1, "Projection and bounded influence").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Relevance {
    /// The whole signal.
    Strong,
    /// Half the signal.
    Weak,
}

/// The relation kinds a `propose-relation` may name (enrichment-overlay-v1, "Typed proposals").
/// `related-to` and `documents` have no observed counterpart in the snapshot.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ProposedRelationKind {
    /// The document covers the target (counts toward `coveredBy`).
    Covers,
    /// The source mentions the target.
    Mentions,
    /// The source links to the target.
    LinksTo,
    /// The source depends on the target.
    DependsOn,
    /// A looser association.
    RelatedTo,
    /// The source documents the target.
    Documents,
}

impl ProposedRelationKind {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ProposedRelationKind::Covers => "covers",
            ProposedRelationKind::Mentions => "mentions",
            ProposedRelationKind::LinksTo => "links-to",
            ProposedRelationKind::DependsOn => "depends-on",
            ProposedRelationKind::RelatedTo => "related-to",
            ProposedRelationKind::Documents => "documents",
        }
    }

    /// The snapshot relation kind this corresponds to, when the snapshot can observe it.
    pub fn observed_kind(self) -> Option<crate::snapshot::RelationKind> {
        use crate::snapshot::RelationKind;
        match self {
            ProposedRelationKind::Covers => Some(RelationKind::Covers),
            ProposedRelationKind::Mentions => Some(RelationKind::Mentions),
            ProposedRelationKind::LinksTo => Some(RelationKind::LinksTo),
            ProposedRelationKind::DependsOn => Some(RelationKind::DependsOn),
            ProposedRelationKind::RelatedTo | ProposedRelationKind::Documents => None,
        }
    }
}

/// `classify-document` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClassifyDocument {
    /// What kind of document it is.
    #[serde(rename = "type")]
    pub doc_type: DocumentType,
    /// Who it is written for.
    pub audience: Audience,
    /// Where it is in its life.
    pub lifecycle: Lifecycle,
    /// How much it matters.
    pub criticality: Criticality,
}

/// `summarize` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Summarize {
    /// At most [`SUMMARY_MAX_CHARS`] characters.
    #[schemars(length(min = 1, max = 400))]
    pub summary: String,
    /// Language tag of the summary (`en`, `pt-BR`).
    pub language: String,
}

/// `add-alias` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddAlias {
    /// At most [`ALIAS_MAX_CHARS`] characters.
    #[schemars(length(min = 1, max = 64))]
    pub alias: String,
}

/// `add-intent` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddIntent {
    /// At most [`PHRASE_MAX_CHARS`] characters.
    #[schemars(length(min = 1, max = 120))]
    pub phrase: String,
    /// Language tag of the phrase.
    pub language: String,
}

/// `mark-canonical` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MarkCanonical {
    /// The entity the document is canonical for (an area, a package, a module, ...).
    pub scope: EntityId,
}

/// `propose-relation` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProposeRelation {
    /// Source entity; must equal the proposal's `entity`.
    pub from: EntityId,
    /// Target entity.
    pub to: EntityId,
    /// Relation kind.
    pub kind: ProposedRelationKind,
    /// How the agent detected it, in a few words.
    pub detection: String,
}

/// `flag-contradiction` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FlagContradiction {
    /// The entity contradicted.
    pub against: EntityId,
    /// What the proposal's entity claims.
    pub claim: String,
    /// What `against` shows instead.
    pub observed: String,
}

/// `flag-redundancy` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FlagRedundancy {
    /// The document the proposal's entity repeats.
    pub with: EntityId,
}

/// `flag-gap` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FlagGap {
    /// The area lacking documentation.
    pub area: EntityId,
    /// What is missing.
    pub missing: String,
}

/// `rank-hint` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RankHint {
    /// `strong` or `weak`.
    pub relevance: Relevance,
}

/// `suggest-area` payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SuggestArea {
    /// Repository-relative directories that would form the area.
    pub directories: Vec<String>,
    /// The area's suggested name.
    pub name: String,
}

/// The `kind` + `payload` pair of a proposal, adjacently tagged so the JSON reads
/// `{"kind": "add-alias", "payload": {"alias": "…"}}` (enrichment-overlay-v1, "Typed proposals").
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", content = "payload", rename_all = "kebab-case")]
pub enum ProposalPayload {
    /// See [`ClassifyDocument`].
    ClassifyDocument(ClassifyDocument),
    /// See [`Summarize`].
    Summarize(Summarize),
    /// See [`AddAlias`].
    AddAlias(AddAlias),
    /// See [`AddIntent`].
    AddIntent(AddIntent),
    /// See [`MarkCanonical`].
    MarkCanonical(MarkCanonical),
    /// See [`ProposeRelation`].
    ProposeRelation(ProposeRelation),
    /// See [`FlagContradiction`].
    FlagContradiction(FlagContradiction),
    /// See [`FlagRedundancy`].
    FlagRedundancy(FlagRedundancy),
    /// See [`FlagGap`].
    FlagGap(FlagGap),
    /// See [`RankHint`].
    RankHint(RankHint),
    /// See [`SuggestArea`].
    SuggestArea(SuggestArea),
}

impl ProposalPayload {
    /// The payload's kind.
    pub fn kind(&self) -> ProposalKind {
        match self {
            ProposalPayload::ClassifyDocument(_) => ProposalKind::ClassifyDocument,
            ProposalPayload::Summarize(_) => ProposalKind::Summarize,
            ProposalPayload::AddAlias(_) => ProposalKind::AddAlias,
            ProposalPayload::AddIntent(_) => ProposalKind::AddIntent,
            ProposalPayload::MarkCanonical(_) => ProposalKind::MarkCanonical,
            ProposalPayload::ProposeRelation(_) => ProposalKind::ProposeRelation,
            ProposalPayload::FlagContradiction(_) => ProposalKind::FlagContradiction,
            ProposalPayload::FlagRedundancy(_) => ProposalKind::FlagRedundancy,
            ProposalPayload::FlagGap(_) => ProposalKind::FlagGap,
            ProposalPayload::RankHint(_) => ProposalKind::RankHint,
            ProposalPayload::SuggestArea(_) => ProposalKind::SuggestArea,
        }
    }

    /// Strictly parses the payload of a proposal of `kind` (unknown fields are errors).
    pub fn from_parts(
        kind: ProposalKind,
        payload: &serde_json::Value,
    ) -> Result<Self, serde_json::Error> {
        fn parse<T: serde::de::DeserializeOwned>(
            value: &serde_json::Value,
        ) -> Result<T, serde_json::Error> {
            T::deserialize(value)
        }
        Ok(match kind {
            ProposalKind::ClassifyDocument => ProposalPayload::ClassifyDocument(parse(payload)?),
            ProposalKind::Summarize => ProposalPayload::Summarize(parse(payload)?),
            ProposalKind::AddAlias => ProposalPayload::AddAlias(parse(payload)?),
            ProposalKind::AddIntent => ProposalPayload::AddIntent(parse(payload)?),
            ProposalKind::MarkCanonical => ProposalPayload::MarkCanonical(parse(payload)?),
            ProposalKind::ProposeRelation => ProposalPayload::ProposeRelation(parse(payload)?),
            ProposalKind::FlagContradiction => ProposalPayload::FlagContradiction(parse(payload)?),
            ProposalKind::FlagRedundancy => ProposalPayload::FlagRedundancy(parse(payload)?),
            ProposalKind::FlagGap => ProposalPayload::FlagGap(parse(payload)?),
            ProposalKind::RankHint => ProposalPayload::RankHint(parse(payload)?),
            ProposalKind::SuggestArea => ProposalPayload::SuggestArea(parse(payload)?),
        })
    }

    /// The payload part of the proposal id: the field that tells apart several proposals of
    /// this kind on one entity, or `null` for kinds that are a slot (enrichment-overlay-v1,
    /// "Typed proposals": "a summary is a slot, an alias is a set").
    ///
    /// `alias` (add-alias), `phrase` (add-intent), `{"kind", "to"}` (propose-relation),
    /// `against` (flag-contradiction), `with` (flag-redundancy), `{"area", "missing"}`
    /// (flag-gap), the `directories` sorted by code point (suggest-area), `null` otherwise.
    pub fn id_key(&self) -> serde_json::Value {
        use serde_json::{Value, json};
        match self {
            ProposalPayload::AddAlias(p) => Value::String(p.alias.clone()),
            ProposalPayload::AddIntent(p) => Value::String(p.phrase.clone()),
            ProposalPayload::ProposeRelation(p) => {
                json!({"kind": p.kind.as_str(), "to": p.to.as_str()})
            }
            ProposalPayload::FlagContradiction(p) => Value::String(p.against.as_str().to_owned()),
            ProposalPayload::FlagRedundancy(p) => Value::String(p.with.as_str().to_owned()),
            ProposalPayload::FlagGap(p) => json!({"area": p.area.as_str(), "missing": p.missing}),
            ProposalPayload::SuggestArea(p) => {
                let mut directories = p.directories.clone();
                directories.sort();
                json!(directories)
            }
            ProposalPayload::ClassifyDocument(_)
            | ProposalPayload::Summarize(_)
            | ProposalPayload::MarkCanonical(_)
            | ProposalPayload::RankHint(_) => Value::Null,
        }
    }
}

/// Where an evidence item is found.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum EvidenceSource {
    /// A file recorded in the snapshot.
    Snapshot,
    /// A diagnostic in the report.
    Report,
}

/// One evidence item: a source, a repository-relative path and a 1-based inclusive line range.
/// The path is kept as written and checked by the validators (`evidence-outside-artifacts`), so
/// a bad path is a rejection of that proposal, not a parse failure.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvidenceItem {
    /// `snapshot` or `report`.
    pub source: EvidenceSource,
    /// Repository-relative path.
    pub path: String,
    /// First and last line, 1-based inclusive.
    pub lines: [u32; 2],
}

/// Who made a proposal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Origin {
    /// The agent identity; never `policy`, never an approver of its own proposals.
    pub agent_id: String,
    /// The agent's version.
    pub agent_version: String,
    /// The prompt version; part of the proposal id.
    pub prompt_version: String,
    /// The model, when the agent reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The provider, when the agent reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The past judgments the agent was shown as examples when it made the proposal, by id and
    /// digest (never their content). Set by the stage, not by the agent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 16))]
    pub examples: Vec<ExampleRef>,
}

/// A reference to one example a proposal was made with.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExampleRef {
    /// The judgment's approval id.
    pub id: String,
    /// sha256 over the canonical JSON of the example exactly as sent.
    #[schemars(regex(pattern = "^[0-9a-f]{64}$"))]
    pub digest: String,
}

/// One typed proposal (enrichment-overlay-v1, "Typed proposals"): the envelope every kind
/// shares, with `kind` and `payload` flattened in from [`ProposalPayload`].
///
/// Deserialization is strict (unknown fields are errors) and goes through
/// [`EnrichmentProposalV1::from_value`]'s rules. `targetContentHash` and `baseSnapshotHash` are
/// kept as strings: their form is checked by the validators (`schema`), so a malformed hash is a
/// rejection of one proposal rather than a parse failure.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrichmentProposalV1 {
    /// See [`proposal_id`].
    pub proposal_id: String,
    /// The entity the proposal is about; must exist in the snapshot.
    pub entity: EntityId,
    /// The entity's content hash when the proposal was made; the entry expires when it moves.
    #[schemars(regex(pattern = "^[0-9a-f]{64}$"))]
    pub target_content_hash: String,
    /// 0..=1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: f64,
    /// Why, in at most [`REASON_MAX_CHARS`] characters.
    #[schemars(length(min = 1, max = 1000))]
    pub reason: String,
    /// At least one item, each present in the snapshot or the report.
    #[schemars(length(min = 1, max = 64))]
    pub evidence: Vec<EvidenceItem>,
    /// Diagnostics in the report the proposal relates to.
    #[serde(default)]
    pub related_diagnostic_ids: Vec<String>,
    /// Who made it.
    pub origin: Origin,
    /// The snapshot's `contentHash` the proposal was made against.
    #[schemars(regex(pattern = "^[0-9a-f]{64}$"))]
    pub base_snapshot_hash: String,
    /// `kind` and `payload`.
    #[serde(flatten)]
    pub payload: ProposalPayload,
}

/// The wire form [`EnrichmentProposalV1`] deserializes through: strict envelope, raw payload.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ProposalWire {
    proposal_id: String,
    #[allow(
        dead_code,
        reason = "read from the raw value before this struct is built"
    )]
    kind: String,
    entity: EntityId,
    target_content_hash: String,
    confidence: f64,
    reason: String,
    evidence: Vec<EvidenceItem>,
    #[serde(default)]
    related_diagnostic_ids: Vec<String>,
    origin: Origin,
    base_snapshot_hash: String,
    payload: serde_json::Value,
}

/// Why a JSON value is not a typed proposal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProposalShapeError {
    /// `kind` is missing, not a string, or not one of the eleven kinds.
    #[error("unknown proposal kind")]
    InvalidKind,
    /// The kind is known but a field is missing, unknown, or of the wrong type.
    #[error("{0}")]
    Schema(String),
}

impl EnrichmentProposalV1 {
    /// The proposal's kind.
    pub fn kind(&self) -> ProposalKind {
        self.payload.kind()
    }

    /// Strictly converts one raw proposal. A missing or unknown `kind` is
    /// [`ProposalShapeError::InvalidKind`]; everything else that is wrong is
    /// [`ProposalShapeError::Schema`] with the JSON path of the problem. Never panics.
    pub fn from_value(value: &serde_json::Value) -> Result<Self, ProposalShapeError> {
        let kind = value
            .get("kind")
            .and_then(serde_json::Value::as_str)
            .and_then(ProposalKind::parse)
            .ok_or(ProposalShapeError::InvalidKind)?;
        let wire: ProposalWire = serde_path_to_error::deserialize(value).map_err(|e| {
            ProposalShapeError::Schema(format!("{} (at `{}`)", e.inner(), e.path()))
        })?;
        let payload = ProposalPayload::from_parts(kind, &wire.payload)
            .map_err(|e| ProposalShapeError::Schema(format!("payload: {e}")))?;
        Ok(EnrichmentProposalV1 {
            proposal_id: wire.proposal_id,
            entity: wire.entity,
            target_content_hash: wire.target_content_hash,
            confidence: wire.confidence,
            reason: wire.reason,
            evidence: wire.evidence,
            related_diagnostic_ids: wire.related_diagnostic_ids,
            origin: wire.origin,
            base_snapshot_hash: wire.base_snapshot_hash,
            payload,
        })
    }

    /// The id this proposal should carry, recomputed from its fields with [`proposal_id`].
    pub fn expected_id(&self) -> String {
        proposal_id(
            self.kind(),
            &self.entity,
            &self.target_content_hash,
            &self.origin.agent_id,
            &self.origin.prompt_version,
            self.payload.id_key(),
        )
    }
}

impl<'de> Deserialize<'de> for EnrichmentProposalV1 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        EnrichmentProposalV1::from_value(&value).map_err(|e| match e {
            ProposalShapeError::InvalidKind => {
                serde::de::Error::custom("proposal `kind` is missing or not a known kind")
            }
            ProposalShapeError::Schema(detail) => serde::de::Error::custom(detail),
        })
    }
}

/// One element of an agent's answer, kept as raw JSON until a validator decides it.
pub type RawProposal = serde_json::Value;

/// An agent's answer is not a JSON array of proposals.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The bytes are not JSON.
    #[error("proposals are not valid JSON: {0}")]
    Json(String),
    /// The JSON is valid but its top level is not an array.
    #[error("proposals must be a JSON array at the top level, found {0}")]
    NotAnArray(&'static str),
}

/// Parses an agent's proposal list: the top level must be a JSON array; every element is kept
/// as it is, whatever it holds, so that one bad element is one rejection and not a lost batch
/// (enrichment-overlay-v1, "Typed proposals": any other kind is recorded as `invalid-kind`).
pub fn parse_proposals(json: &[u8]) -> Result<Vec<RawProposal>, ParseError> {
    let value: serde_json::Value =
        serde_json::from_slice(json).map_err(|e| ParseError::Json(e.to_string()))?;
    match value {
        serde_json::Value::Array(items) => Ok(items),
        other => Err(ParseError::NotAnArray(json_type_name(&other))),
    }
}

/// `null`, `a boolean`, `a number`, `a string`, `an array` or `an object`.
pub fn json_type_name(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// The proposal id (enrichment-overlay-v1, "Typed proposals"): lowercase hex sha256 of the RFC
/// 8785 canonical JSON of
/// `{"agentId", "entity", "key", "kind", "promptVersion", "targetContentHash"}`, where `key` is
/// [`ProposalPayload::id_key`]. A re-run over unchanged inputs produces the same id.
///
/// ```
/// use doc_bridge_model::EntityId;
/// use doc_bridge_model::enrichment::{ProposalKind, proposal_id};
///
/// let id = proposal_id(
///     ProposalKind::AddAlias,
///     &EntityId::from_raw("document:docs/auth.md"),
///     &"a".repeat(64),
///     "curator",
///     "1",
///     serde_json::json!("login guide"),
/// );
/// // sha256 of
/// // {"agentId":"curator","entity":"document:docs/auth.md","key":"login guide",
/// //  "kind":"add-alias","promptVersion":"1","targetContentHash":"aaaa…"}
/// assert_eq!(id.len(), 64);
/// ```
pub fn proposal_id(
    kind: ProposalKind,
    entity: &EntityId,
    target_content_hash: &str,
    agent_id: &str,
    prompt_version: &str,
    key: serde_json::Value,
) -> String {
    let identity = serde_json::json!({
        "kind": kind.as_str(),
        "entity": entity.as_str(),
        "targetContentHash": target_content_hash,
        "agentId": agent_id,
        "promptVersion": prompt_version,
        "key": key,
    });
    hash_hex(&identity)
}

/// The approval id (enrichment-overlay-v1, "Approvals"): lowercase hex sha256 of the canonical
/// `{"proposalId", "targetContentHash"}`, so an approval given for one version of a document
/// cannot be replayed against the next.
pub fn approval_id(proposal_id: &str, target_content_hash: &str) -> String {
    hash_hex(&serde_json::json!({
        "proposalId": proposal_id,
        "targetContentHash": target_content_hash,
    }))
}

/// Hashes a JSON value built from strings and nulls. Canonicalization fails only on non-finite
/// numbers, which a `serde_json::Value` cannot hold; the empty string that would stand for a
/// failure can never equal a real 64-digit id.
fn hash_hex(value: &serde_json::Value) -> String {
    hash_canonical(value)
        .map(|hash| hash.as_str().to_owned())
        .unwrap_or_default()
}

/// The closed list of rejection reasons (enrichment-overlay-v1, "Typed proposals":
/// `ENRICHMENT_REJECTION_REASONS`). Every rejection carries exactly one, so a run's rejections
/// are a histogram.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum RejectionReason {
    /// `kind` missing or not one of the eleven.
    InvalidKind,
    /// Wrong shape: a missing, unknown or mistyped field, a value out of range or too long, a
    /// malformed hash, a duplicate `proposalId` in one batch.
    Schema,
    /// No evidence item.
    NoEvidence,
    /// `baseSnapshotHash` is not the snapshot's `contentHash`.
    BaseSnapshotMismatch,
    /// `entity` is not in the snapshot.
    UnknownEntity,
    /// `targetContentHash` is not the entity's `contentHash`.
    StaleTarget,
    /// A `relatedDiagnosticIds` entry is not in the report.
    UnknownDiagnostic,
    /// An evidence item names no file, line range or diagnostic of the snapshot or report.
    EvidenceOutsideArtifacts,
    /// `proposalId` is not the id recomputed from the proposal.
    ProposalIdMismatch,
    /// The entity (or the other document) is of a kind the proposal does not apply to.
    EntityKind,
    /// A free-text field contains a secret.
    Redaction,
    /// The summary equals the entity's current summary.
    SummaryUnchanged,
    /// The alias collides with an id, name, title, file stem or alias.
    AliasCollision,
    /// The `mark-canonical` scope is not an entity.
    UnknownScope,
    /// The scope would have two canonical documents. Kept in the closed list (the seed's, and
    /// older overlays hold it), but no validator gives it now: a second canonical document for a
    /// scope waits as pending with the note `canonical-conflict`.
    CanonicalConflict,
    /// The other entity of a relation, contradiction or redundancy does not exist.
    UnknownEndpoint,
    /// The snapshot already observes the relation.
    RelationAlreadyObserved,
    /// An evidence item lies outside the entities the proposal connects.
    EvidenceOutsideEndpoints,
    /// The two documents are already byte-identical.
    AlreadyDuplicate,
    /// The gap is already flagged with the same text.
    AlreadyFlagged,
    /// A suggested directory does not exist.
    UnknownDirectory,
    /// A suggested directory overlaps an existing area.
    AreaOverlap,
    /// An approver equal to the proposal's author (the approval gate).
    SelfApproval,
    /// An adjudication by the author of a proposal it judges.
    SelfAdjudication,
    /// Lost an adjudication.
    Adjudicated,
    /// A person rejected it.
    HumanRejected,
    /// Its target or another endpoint moved or vanished after acceptance.
    Expired,
    /// `flag-gap` `area` is not an area of the snapshot (added: the seed names no reason).
    UnknownArea,
    /// An agent proposed a kind its role is not for (enrichment-overlay-v1, "Roles": the
    /// curator's and the reviewer's kinds; the adjudicator proposes nothing). Added: the seed
    /// names no reason.
    OutOfRole,
}

/// Every rejection reason, in declaration order (`ENRICHMENT_REJECTION_REASONS`).
pub const ENRICHMENT_REJECTION_REASONS: &[RejectionReason] = &[
    RejectionReason::InvalidKind,
    RejectionReason::Schema,
    RejectionReason::NoEvidence,
    RejectionReason::BaseSnapshotMismatch,
    RejectionReason::UnknownEntity,
    RejectionReason::StaleTarget,
    RejectionReason::UnknownDiagnostic,
    RejectionReason::EvidenceOutsideArtifacts,
    RejectionReason::ProposalIdMismatch,
    RejectionReason::EntityKind,
    RejectionReason::Redaction,
    RejectionReason::SummaryUnchanged,
    RejectionReason::AliasCollision,
    RejectionReason::UnknownScope,
    RejectionReason::CanonicalConflict,
    RejectionReason::UnknownEndpoint,
    RejectionReason::RelationAlreadyObserved,
    RejectionReason::EvidenceOutsideEndpoints,
    RejectionReason::AlreadyDuplicate,
    RejectionReason::AlreadyFlagged,
    RejectionReason::UnknownDirectory,
    RejectionReason::AreaOverlap,
    RejectionReason::SelfApproval,
    RejectionReason::SelfAdjudication,
    RejectionReason::Adjudicated,
    RejectionReason::HumanRejected,
    RejectionReason::Expired,
    RejectionReason::UnknownArea,
    RejectionReason::OutOfRole,
];

impl RejectionReason {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            RejectionReason::InvalidKind => "invalid-kind",
            RejectionReason::Schema => "schema",
            RejectionReason::NoEvidence => "no-evidence",
            RejectionReason::BaseSnapshotMismatch => "base-snapshot-mismatch",
            RejectionReason::UnknownEntity => "unknown-entity",
            RejectionReason::StaleTarget => "stale-target",
            RejectionReason::UnknownDiagnostic => "unknown-diagnostic",
            RejectionReason::EvidenceOutsideArtifacts => "evidence-outside-artifacts",
            RejectionReason::ProposalIdMismatch => "proposal-id-mismatch",
            RejectionReason::EntityKind => "entity-kind",
            RejectionReason::Redaction => "redaction",
            RejectionReason::SummaryUnchanged => "summary-unchanged",
            RejectionReason::AliasCollision => "alias-collision",
            RejectionReason::UnknownScope => "unknown-scope",
            RejectionReason::CanonicalConflict => "canonical-conflict",
            RejectionReason::UnknownEndpoint => "unknown-endpoint",
            RejectionReason::RelationAlreadyObserved => "relation-already-observed",
            RejectionReason::EvidenceOutsideEndpoints => "evidence-outside-endpoints",
            RejectionReason::AlreadyDuplicate => "already-duplicate",
            RejectionReason::AlreadyFlagged => "already-flagged",
            RejectionReason::UnknownDirectory => "unknown-directory",
            RejectionReason::AreaOverlap => "area-overlap",
            RejectionReason::SelfApproval => "self-approval",
            RejectionReason::SelfAdjudication => "self-adjudication",
            RejectionReason::Adjudicated => "adjudicated",
            RejectionReason::HumanRejected => "human-rejected",
            RejectionReason::Expired => "expired",
            RejectionReason::UnknownArea => "unknown-area",
            RejectionReason::OutOfRole => "out-of-role",
        }
    }
}

impl fmt::Display for RejectionReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `.doc-bridge/enrich/overlay.json` (enrichment-overlay-v1, "The overlay").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EnrichmentOverlayV1 {
    /// Always [`OVERLAY_TYPE`].
    #[serde(rename = "type")]
    pub artifact_type: String,
    /// Always [`OVERLAY_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// [`overlay_hash`]: over the decisions, not over `acceptedAt` or `stats`.
    pub content_hash: ContentHash,
    /// The snapshot the decisions were made against.
    pub base_snapshot_hash: ContentHash,
    /// Accepted proposals, sorted by proposal id.
    pub accepted: Vec<AcceptedEntry>,
    /// Proposals awaiting a person, sorted by proposal id.
    pub pending: Vec<PendingEntry>,
    /// Rejections, sorted by (proposal id, kind, entity, reason, detail).
    pub rejected: Vec<RejectedEntry>,
    /// Counts for people; outside the hash.
    pub stats: OverlayStats,
}

/// An accepted proposal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AcceptedEntry {
    /// The proposal as validated.
    pub proposal: EnrichmentProposalV1,
    /// RFC 3339 time of acceptance; outside the hash (a timestamp is not a fact).
    pub accepted_at: String,
    /// [`ACCEPTED_BY_POLICY`] for policy kinds, a person's name for human-approval kinds.
    pub accepted_by: String,
}

/// A proposal awaiting approval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingEntry {
    /// The proposal as validated.
    pub proposal: EnrichmentProposalV1,
    /// [`approval_id`] of the proposal id and its target content hash.
    pub approval_id: String,
    /// Why it waits (`awaiting approval`, or a conflict).
    pub note: String,
}

/// A rejection. Junk proposals are recorded with whatever strings they carried (redacted and
/// bounded by the validators), so `kind` and `entity` are plain strings.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RejectedEntry {
    /// The proposal id as given (`""` when absent).
    pub proposal_id: String,
    /// The kind as given (`""` when absent).
    pub kind: String,
    /// The entity as given (`""` when absent).
    pub entity: String,
    /// One reason from [`ENRICHMENT_REJECTION_REASONS`].
    pub reason: RejectionReason,
    /// What failed, naming fields and ids, never quoting document text.
    pub detail: String,
}

/// Overlay counts; outside the hash.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OverlayStats {
    /// Decisions per proposal kind (unknown kinds are counted only in `rejectionReasons`).
    pub by_kind: BTreeMap<String, KindStats>,
    /// Rejections per reason.
    pub rejection_reasons: BTreeMap<String, u64>,
    /// Agent calls made.
    pub agent_runs: u64,
    /// Packs answered from the cache.
    pub cache_hits: u64,
    /// Context packs built.
    pub packs: u64,
    /// Bytes sent to agents.
    pub input_bytes: u64,
    /// Bytes received from agents.
    pub output_bytes: u64,
    /// Accepted entries moved to `rejected` as `expired`.
    pub expired: u64,
    /// The `contentHash` of the check report the last `enrich` run's validators read (absent
    /// when they read the snapshot's diagnostics only). With the overlay's `contentHash`, the
    /// stage's input `{reportHash, overlayHash}` (enrichment-overlay-v1, "The stage").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_hash: Option<ContentHash>,
}

/// Counts for one proposal kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KindStats {
    /// Proposals received.
    pub proposed: u64,
    /// Accepted.
    pub accepted: u64,
    /// Pending.
    pub pending: u64,
    /// Rejected.
    pub rejected: u64,
}

/// What [`overlay_hash`] covers: the overlay minus `contentHash` and `stats`, with `acceptedAt`
/// left out of every accepted entry.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OverlayHashView<'a> {
    #[serde(rename = "type")]
    artifact_type: &'a str,
    schema_version: u32,
    base_snapshot_hash: &'a ContentHash,
    accepted: Vec<AcceptedHashView<'a>>,
    pending: &'a [PendingEntry],
    rejected: &'a [RejectedEntry],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AcceptedHashView<'a> {
    proposal: &'a EnrichmentProposalV1,
    accepted_by: &'a str,
}

/// The overlay's `contentHash` (enrichment-overlay-v1, "The overlay"): sha256 over the RFC 8785
/// canonical JSON of every accepted, pending and rejected entry and the hashes they bind to —
/// the overlay minus `contentHash` and `stats`, and minus every `acceptedAt`, because two runs
/// over one unchanged repository must produce one overlay hash.
pub fn overlay_hash(overlay: &EnrichmentOverlayV1) -> Result<ContentHash, HashError> {
    // Destructured without `..` so a new overlay field is a compile error here until someone
    // decides whether it is a fact.
    let EnrichmentOverlayV1 {
        artifact_type,
        schema_version,
        content_hash: _,
        base_snapshot_hash,
        accepted,
        pending,
        rejected,
        stats: _,
    } = overlay;
    let accepted = accepted
        .iter()
        .map(|entry| {
            let AcceptedEntry {
                proposal,
                accepted_at: _,
                accepted_by,
            } = entry;
            AcceptedHashView {
                proposal,
                accepted_by,
            }
        })
        .collect();
    hash_canonical(&OverlayHashView {
        artifact_type,
        schema_version: *schema_version,
        base_snapshot_hash,
        accepted,
        pending,
        rejected,
    })
}

impl EnrichmentOverlayV1 {
    /// An overlay with no decisions, sealed.
    pub fn empty(base_snapshot_hash: ContentHash) -> Result<Self, HashError> {
        let mut overlay = EnrichmentOverlayV1 {
            artifact_type: OVERLAY_TYPE.to_owned(),
            schema_version: OVERLAY_SCHEMA_VERSION,
            content_hash: base_snapshot_hash.clone(),
            base_snapshot_hash,
            accepted: Vec::new(),
            pending: Vec::new(),
            rejected: Vec::new(),
            stats: OverlayStats::default(),
        };
        overlay.seal()?;
        Ok(overlay)
    }

    /// Recomputes `contentHash` with [`overlay_hash`].
    pub fn seal(&mut self) -> Result<(), HashError> {
        self.content_hash = overlay_hash(self)?;
        Ok(())
    }
}

/// Why an overlay is refused ([`validate_overlay`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OverlayError {
    /// The `type` is not [`OVERLAY_TYPE`].
    #[error("overlay `type` is `{0}`, expected `{OVERLAY_TYPE}`")]
    Type(String),
    /// The `schemaVersion` is not [`OVERLAY_SCHEMA_VERSION`].
    #[error("overlay `schemaVersion` is {0}, expected {OVERLAY_SCHEMA_VERSION}")]
    SchemaVersion(u32),
    /// An accepted entry with an empty `acceptedBy`.
    #[error("accepted proposal {0} has an empty `acceptedBy`")]
    EmptyAcceptedBy(String),
    /// A human-approval kind accepted by `policy`.
    #[error("accepted proposal {id} is a {kind} (human approval) but `acceptedBy` is `policy`")]
    PolicyOnHumanKind {
        /// The proposal.
        id: String,
        /// Its kind.
        kind: String,
    },
    /// An accepted entry approved by the agent that proposed it.
    #[error("accepted proposal {id} was approved by its own author `{agent}`")]
    SelfApproved {
        /// The proposal.
        id: String,
        /// Its `origin.agentId`.
        agent: String,
    },
    /// A pending entry whose `approvalId` is not [`approval_id`] of its proposal.
    #[error("pending proposal {id} has approvalId {found}, expected {expected}")]
    ApprovalId {
        /// The proposal.
        id: String,
        /// The stored `approvalId`.
        found: String,
        /// The one its proposal gives.
        expected: String,
    },
    /// The decisions do not encode (a bug or a hostile value).
    #[error("{0}")]
    Hash(#[from] HashError),
    /// The stored `contentHash` is not [`overlay_hash`] of the decisions.
    #[error("overlay contentHash is {stored}, but its decisions hash to {computed}")]
    ContentHash {
        /// The stored seal.
        stored: ContentHash,
        /// The seal of the decisions.
        computed: ContentHash,
    },
}

/// The refusals the overlay schema makes (enrichment-overlay-v1, "The overlay" and
/// "Approvals"): the wrong `type` or `schemaVersion`; an empty `acceptedBy`; `acceptedBy` equal
/// to `policy` on a human-approval kind; `acceptedBy` equal to the proposal's
/// `origin.agentId` (no agent approves its own output); a pending `approvalId` that is not
/// [`approval_id`] of its proposal; a `contentHash` that is not [`overlay_hash`]. Returns the
/// first problem found.
pub fn validate_overlay(overlay: &EnrichmentOverlayV1) -> Result<(), OverlayError> {
    if overlay.artifact_type != OVERLAY_TYPE {
        return Err(OverlayError::Type(overlay.artifact_type.clone()));
    }
    if overlay.schema_version != OVERLAY_SCHEMA_VERSION {
        return Err(OverlayError::SchemaVersion(overlay.schema_version));
    }
    for entry in &overlay.accepted {
        let proposal = &entry.proposal;
        let id = &proposal.proposal_id;
        if entry.accepted_by.trim().is_empty() {
            return Err(OverlayError::EmptyAcceptedBy(id.clone()));
        }
        if entry.accepted_by == ACCEPTED_BY_POLICY && !proposal.kind().policy().accepted_by_policy()
        {
            return Err(OverlayError::PolicyOnHumanKind {
                id: id.clone(),
                kind: proposal.kind().to_string(),
            });
        }
        if entry.accepted_by == proposal.origin.agent_id {
            return Err(OverlayError::SelfApproved {
                id: id.clone(),
                agent: proposal.origin.agent_id.clone(),
            });
        }
    }
    for entry in &overlay.pending {
        let proposal = &entry.proposal;
        let expected = approval_id(&proposal.proposal_id, &proposal.target_content_hash);
        if entry.approval_id != expected {
            return Err(OverlayError::ApprovalId {
                id: proposal.proposal_id.clone(),
                found: entry.approval_id.to_string(),
                expected: expected.to_string(),
            });
        }
    }
    let computed = overlay_hash(overlay)?;
    if computed != overlay.content_hash {
        return Err(OverlayError::ContentHash {
            stored: overlay.content_hash.clone(),
            computed,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn alias_proposal() -> serde_json::Value {
        let target = "b".repeat(64);
        let entity = EntityId::from_raw("document:docs/auth.md");
        let id = proposal_id(
            ProposalKind::AddAlias,
            &entity,
            &target,
            "curator",
            "1",
            json!("login guide"),
        );
        json!({
            "proposalId": id,
            "kind": "add-alias",
            "entity": "document:docs/auth.md",
            "targetContentHash": target,
            "confidence": 0.75,
            "reason": "people call it that",
            "evidence": [{"source": "snapshot", "path": "docs/auth.md", "lines": [1, 3]}],
            "origin": {"agentId": "curator", "agentVersion": "0.1.0", "promptVersion": "1"},
            "baseSnapshotHash": "c".repeat(64),
            "payload": {"alias": "login guide"},
        })
    }

    #[test]
    fn proposal_id_matches_an_independent_computation() {
        // python3: json.dumps(obj, sort_keys=True, separators=(",",":"), ensure_ascii=False)
        // then sha256 — identical to RFC 8785 for ASCII strings without floats.
        let id = proposal_id(
            ProposalKind::AddAlias,
            &EntityId::from_raw("document:docs/auth.md"),
            &"a".repeat(64),
            "curator",
            "1",
            json!("login guide"),
        );
        assert_eq!(id, EXPECTED_ALIAS_ID);
        let relation = proposal_id(
            ProposalKind::ProposeRelation,
            &EntityId::from_raw("document:docs/auth.md"),
            &"a".repeat(64),
            "reviewer",
            "2",
            json!({"to": "module:src/session.rs", "kind": "documents"}),
        );
        assert_eq!(relation, EXPECTED_RELATION_ID);
        let slot = proposal_id(
            ProposalKind::Summarize,
            &EntityId::from_raw("area:src"),
            &"a".repeat(64),
            "curator",
            "1",
            serde_json::Value::Null,
        );
        assert_eq!(slot, EXPECTED_SLOT_ID);
    }

    const EXPECTED_ALIAS_ID: &str =
        "f9ac031fe580a8b16a0a36abd765396fa3e10238e0f89bca9bcd6471ae69a6be";
    const EXPECTED_RELATION_ID: &str =
        "4016bd520bdd0ec934e48cf66ab877bc0e3a6778bae40c9ce0b616f32f48e148";
    const EXPECTED_SLOT_ID: &str =
        "087d62410940ee22474f3588e19aba74afec7e79b22efa69623716422552f6c4";

    #[test]
    fn approval_id_binds_the_target_hash() {
        let a = approval_id("p", &"a".repeat(64));
        let b = approval_id("p", &"b".repeat(64));
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(a, EXPECTED_APPROVAL_ID);
    }

    const EXPECTED_APPROVAL_ID: &str =
        "7b28daca6df7cc327e7879ef950b858d49d4b32b8173985adb60c229e8bb6e3b";

    #[test]
    fn suggest_area_key_sorts_directories() {
        let a = ProposalPayload::SuggestArea(SuggestArea {
            directories: vec!["b".into(), "a".into()],
            name: "x".into(),
        });
        assert_eq!(a.id_key(), json!(["a", "b"]));
    }

    #[test]
    fn proposal_round_trips_with_kind_and_payload_at_the_top_level() {
        let value = alias_proposal();
        let proposal = EnrichmentProposalV1::from_value(&value).unwrap();
        assert_eq!(proposal.kind(), ProposalKind::AddAlias);
        assert_eq!(proposal.expected_id(), proposal.proposal_id);
        let back = serde_json::to_value(&proposal).unwrap();
        // relatedDiagnosticIds defaults to [] and is written back.
        let mut expected = value.clone();
        expected["relatedDiagnosticIds"] = json!([]);
        assert_eq!(back, expected);
        let parsed: EnrichmentProposalV1 = serde_json::from_value(back).unwrap();
        assert_eq!(parsed, proposal);
    }

    #[test]
    fn unknown_kind_is_invalid_kind_and_bad_fields_are_schema() {
        let mut value = alias_proposal();
        value["kind"] = json!("make-coffee");
        assert_eq!(
            EnrichmentProposalV1::from_value(&value),
            Err(ProposalShapeError::InvalidKind)
        );
        value.as_object_mut().unwrap().remove("kind");
        assert_eq!(
            EnrichmentProposalV1::from_value(&value),
            Err(ProposalShapeError::InvalidKind)
        );
        let mut value = alias_proposal();
        value["payload"]["extra"] = json!(1);
        assert!(matches!(
            EnrichmentProposalV1::from_value(&value),
            Err(ProposalShapeError::Schema(_))
        ));
        let mut value = alias_proposal();
        value["surprise"] = json!(true);
        assert!(matches!(
            EnrichmentProposalV1::from_value(&value),
            Err(ProposalShapeError::Schema(detail)) if detail.contains("surprise")
        ));
        let mut value = alias_proposal();
        value["confidence"] = json!("high");
        assert!(matches!(
            EnrichmentProposalV1::from_value(&value),
            Err(ProposalShapeError::Schema(detail)) if detail.contains("confidence")
        ));
    }

    #[test]
    fn parse_proposals_requires_an_array_and_keeps_junk_elements() {
        let items = parse_proposals(br#"[1, "x", {"kind": "nope"}, null]"#).unwrap();
        assert_eq!(items.len(), 4);
        assert_eq!(
            parse_proposals(br#"{"proposals": []}"#),
            Err(ParseError::NotAnArray("an object"))
        );
        assert!(matches!(parse_proposals(b"[1,"), Err(ParseError::Json(_))));
        let message = parse_proposals(b"7").unwrap_err().to_string();
        assert!(message.contains("JSON array"), "{message}");
    }

    #[test]
    fn rejection_reason_list_is_complete_and_kebab_case() {
        assert_eq!(ENRICHMENT_REJECTION_REASONS.len(), 29);
        for reason in ENRICHMENT_REJECTION_REASONS {
            assert_eq!(
                serde_json::to_value(reason).unwrap(),
                json!(reason.as_str())
            );
        }
        let mut unique: Vec<_> = ENRICHMENT_REJECTION_REASONS.to_vec();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ENRICHMENT_REJECTION_REASONS.len());
    }

    #[test]
    fn the_overlay_schema_lists_exactly_the_closed_reasons() {
        let schema = crate::schema::schema_for("overlay").unwrap();
        let listed: Vec<&str> = schema["$defs"]["RejectionReason"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|variant| variant["const"].as_str().unwrap())
            .collect();
        let names: Vec<&str> = ENRICHMENT_REJECTION_REASONS
            .iter()
            .map(|r| r.as_str())
            .collect();
        assert_eq!(listed, names);
        assert!(listed.contains(&"out-of-role"));
    }

    #[test]
    fn every_kind_parses_back_from_its_name_and_has_a_policy() {
        for kind in ProposalKind::ALL {
            assert_eq!(ProposalKind::parse(kind.as_str()), Some(kind));
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.as_str()));
        }
        assert_eq!(ProposalKind::FlagGap.policy(), Policy::Finding);
        assert_eq!(ProposalKind::MarkCanonical.policy(), Policy::HumanApproval);
        assert_eq!(ProposalKind::AddAlias.policy(), Policy::AcceptByPolicy);
    }

    fn overlay_with(accepted_by: &str) -> EnrichmentOverlayV1 {
        let proposal = EnrichmentProposalV1::from_value(&alias_proposal()).unwrap();
        let mut overlay = EnrichmentOverlayV1::empty(ContentHash::of_bytes(b"snap")).unwrap();
        overlay.accepted.push(AcceptedEntry {
            proposal,
            accepted_at: "2026-09-14T00:00:00.000Z".into(),
            accepted_by: accepted_by.into(),
        });
        overlay.seal().unwrap();
        overlay
    }

    #[test]
    fn overlay_hash_ignores_accepted_at_and_stats_but_not_decisions() {
        let overlay = overlay_with("policy");
        let mut later = overlay.clone();
        later.accepted[0].accepted_at = "2027-01-01T00:00:00.000Z".into();
        later.stats.agent_runs = 9;
        later
            .stats
            .by_kind
            .insert("add-alias".into(), KindStats::default());
        assert_eq!(overlay_hash(&overlay), overlay_hash(&later));
        let mut moved = overlay.clone();
        let entry = moved.accepted.remove(0);
        moved.rejected.push(RejectedEntry {
            proposal_id: entry.proposal.proposal_id,
            kind: "add-alias".into(),
            entity: entry.proposal.entity.as_str().into(),
            reason: RejectionReason::Expired,
            detail: String::new(),
        });
        assert_ne!(overlay_hash(&overlay), overlay_hash(&moved));
        let mut approver = overlay.clone();
        approver.accepted[0].accepted_by = "ana".into();
        assert_ne!(overlay_hash(&overlay), overlay_hash(&approver));
    }

    #[test]
    fn validate_overlay_refuses_self_approval_policy_on_human_kinds_and_bad_hashes() {
        assert_eq!(validate_overlay(&overlay_with("policy")), Ok(()));
        let self_approved = overlay_with("curator");
        assert!(
            validate_overlay(&self_approved)
                .unwrap_err()
                .to_string()
                .contains("own author")
        );

        let mut human = overlay_with("policy");
        let mut value = alias_proposal();
        value["kind"] = json!("mark-canonical");
        value["payload"] = json!({"scope": "area:src"});
        human.accepted[0].proposal = EnrichmentProposalV1::from_value(&value).unwrap();
        human.seal().unwrap();
        assert!(
            validate_overlay(&human)
                .unwrap_err()
                .to_string()
                .contains("human approval")
        );
        human.accepted[0].accepted_by = "ana".into();
        human.seal().unwrap();
        assert_eq!(validate_overlay(&human), Ok(()));

        let mut tampered = overlay_with("policy");
        tampered.accepted[0].proposal.confidence = 0.5;
        assert!(
            validate_overlay(&tampered)
                .unwrap_err()
                .to_string()
                .contains("contentHash")
        );
    }

    #[test]
    fn overlay_round_trips_through_json() {
        let overlay = overlay_with("policy");
        let bytes = serde_json::to_vec(&overlay).unwrap();
        let back: EnrichmentOverlayV1 = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, overlay);
        assert_eq!(validate_overlay(&back), Ok(()));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// The same proposal written with its envelope and payload keys in any textual order
        /// parses to the same proposal with the same recomputed id.
        #[test]
        fn proposal_id_is_stable_under_key_order(
            envelope_order in Just((0..10usize).collect::<Vec<_>>()).prop_shuffle(),
            payload_order in Just((0..4usize).collect::<Vec<_>>()).prop_shuffle(),
        ) {
            let target = "b".repeat(64);
            let payload = [
                r#""from":"document:docs/auth.md""#,
                r#""to":"module:src/session.rs""#,
                r#""kind":"documents""#,
                r#""detection":"prose names the module""#,
            ];
            let payload_text: Vec<&str> = payload_order.iter().map(|i| payload[*i]).collect();
            let payload_text = format!("{{{}}}", payload_text.join(","));
            let envelope = [
                r#""proposalId":"x""#.to_owned(),
                r#""kind":"propose-relation""#.to_owned(),
                r#""entity":"document:docs/auth.md""#.to_owned(),
                format!(r#""targetContentHash":"{target}""#),
                r#""confidence":0.5"#.to_owned(),
                r#""reason":"r""#.to_owned(),
                r#""evidence":[{"lines":[1,2],"path":"docs/auth.md","source":"snapshot"}]"#
                    .to_owned(),
                r#""origin":{"promptVersion":"2","agentVersion":"1","agentId":"reviewer"}"#
                    .to_owned(),
                format!(r#""baseSnapshotHash":"{}""#, "c".repeat(64)),
                format!(r#""payload":{payload_text}"#),
            ];
            let text: Vec<&str> = envelope_order.iter().map(|i| envelope[*i].as_str()).collect();
            let text = format!("{{{}}}", text.join(","));
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            let proposal = EnrichmentProposalV1::from_value(&value).unwrap();
            let expected = proposal_id(
                ProposalKind::ProposeRelation,
                &EntityId::from_raw("document:docs/auth.md"),
                &target,
                "reviewer",
                "2",
                json!({"kind": "documents", "to": "module:src/session.rs"}),
            );
            prop_assert_eq!(proposal.expected_id(), expected);
        }
    }
}
