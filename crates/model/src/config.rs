//! `doc-bridge.config.json`: optional, strict, validated with errors that name the key.
//!
//! Zero-config works on any repository: every section has a default. Keys follow the seeds'
//! names where they exist (`project.name`, `corpus.agent.root`, `safety.exclude`, ...). The
//! `intelligence` section is accepted here and validated by the enrich stage; `rules` is typed
//! here against the code catalog in [`crate::report`].

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::report::{RULES, RuleLevel, rule_info};

/// The config file name at the repository root.
pub const CONFIG_FILE: &str = "doc-bridge.config.json";
/// The config schema version.
pub const CONFIG_SCHEMA_VERSION: u32 = 1;
/// Default `safety.maxFileBytes`: 4 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// Default `corpus.agent.root`.
pub const DEFAULT_AGENT_ROOT: &str = "docs/for-agents";
/// Default `analysis.areas.depth`.
pub const DEFAULT_AREA_DEPTH: u32 = 1;
/// Default `analysis.areas.sourceRoots`.
pub const DEFAULT_SOURCE_ROOTS: &[&str] =
    &["src", "lib", "source", "app", "internal", "pkg", "cmd"];

/// The whole configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Config {
    /// Must be 1.
    pub schema_version: u32,
    /// Project identity.
    #[serde(default)]
    pub project: ProjectConfig,
    /// Corpus roots.
    #[serde(default)]
    pub corpus: CorpusConfig,
    /// What the walk never reads.
    #[serde(default)]
    pub safety: SafetyConfig,
    /// Analysis options.
    #[serde(default)]
    pub analysis: AnalysisConfig,
    /// Ranking options.
    #[serde(default)]
    pub retrieval: RetrievalConfig,
    /// Declared routes.
    #[serde(default)]
    pub routing: RoutingConfig,
    /// `llms.txt` output.
    #[serde(default)]
    pub llms: LlmsConfig,
    /// Opt-in parts of the index artifact; absent means every default (and then it is not
    /// written back, so a configuration without it hashes as it always did).
    #[serde(default, skip_serializing_if = "IndexConfig::is_default")]
    pub index: IndexConfig,
    /// Per-code severities for `check`: `{"<code>": "error" | "warning" | "info" | "off"}`.
    /// Codes must be known ([`crate::report::RULES`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: BTreeMap<String, RuleLevel>,
    /// Enrichment settings (validated by the enrich stage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intelligence: Option<serde_json::Value>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            schema_version: CONFIG_SCHEMA_VERSION,
            project: ProjectConfig::default(),
            corpus: CorpusConfig::default(),
            safety: SafetyConfig::default(),
            analysis: AnalysisConfig::default(),
            retrieval: RetrievalConfig::default(),
            routing: RoutingConfig::default(),
            llms: LlmsConfig::default(),
            index: IndexConfig::default(),
            rules: BTreeMap::new(),
            intelligence: None,
        }
    }
}

/// `project`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectConfig {
    /// The project name; default: the root package name, else the directory name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A one-line summary of the project (the `llms.txt` blockquote); default: the root
    /// README's summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// `corpus`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CorpusConfig {
    /// The curated agent corpus.
    #[serde(default)]
    pub agent: AgentCorpusConfig,
}

/// `corpus.agent`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentCorpusConfig {
    /// Directory of curated agent documents; default `docs/for-agents` when it exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
}

/// `safety`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SafetyConfig {
    /// Extra globs (gitignore syntax) the walk skips, on top of the built-in safety excludes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// Files larger than this are inventoried but not analysed; default 4 MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_file_bytes: Option<u64>,
}

impl SafetyConfig {
    /// The effective size limit.
    pub fn max_file_bytes(&self) -> u64 {
        self.max_file_bytes.unwrap_or(DEFAULT_MAX_FILE_BYTES)
    }
}

/// `analysis`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnalysisConfig {
    /// How areas are formed.
    #[serde(default)]
    pub areas: AreasConfig,
    /// How links resolve; absent means every default (and then it is not written back, so a
    /// configuration without it hashes as it always did).
    #[serde(default, skip_serializing_if = "LinksConfig::is_default")]
    pub links: LinksConfig,
}

/// `analysis.links`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LinksConfig {
    /// Repository-relative directories that `/` stands for in a site-absolute link
    /// (`/guide/intro`), tried in order (`"."` is the repository root). Default: the content
    /// directories of the documentation sites found in the repository (VitePress, Docusaurus,
    /// Starlight, MkDocs), then the repository root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_roots: Option<Vec<String>>,
}

impl LinksConfig {
    /// Whether nothing is set.
    pub fn is_default(&self) -> bool {
        self.site_roots.is_none()
    }

    /// The configured site roots as repository paths (`None`: not configured, detect them).
    /// An entry that is not a repository-relative directory is left out here; validation
    /// reports it.
    pub fn site_roots(&self) -> Option<Vec<crate::RelPath>> {
        self.site_roots
            .as_ref()
            .map(|roots| roots.iter().filter_map(|r| site_root_path(r)).collect())
    }
}

/// A `siteRoots` entry as a repository path: `./` and trailing `/` tolerated, `""` and `.` the
/// root; `None` for absolute paths and paths with `..`.
fn site_root_path(entry: &str) -> Option<crate::RelPath> {
    let mut text = entry.trim();
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    let text = text.trim_end_matches('/');
    if text.is_empty() {
        return Some(crate::RelPath::root());
    }
    crate::RelPath::new(text)
}

/// `analysis.areas`: an area is a directory `depth` levels below the module's anchor (its source
/// root inside its package, else its package root, else the repository root).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AreasConfig {
    /// Directory levels below the anchor that form an area; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Directory names that are source roots when directly under a package root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_roots: Option<Vec<String>>,
}

impl AreasConfig {
    /// The effective depth.
    pub fn depth(&self) -> u32 {
        self.depth.unwrap_or(DEFAULT_AREA_DEPTH)
    }
    /// The effective source roots.
    pub fn source_roots(&self) -> Vec<String> {
        match &self.source_roots {
            Some(roots) => roots.clone(),
            None => DEFAULT_SOURCE_ROOTS
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
        }
    }
}

/// `retrieval`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetrievalConfig {
    /// Field weight overrides (`title`, `headings`, `symbols`, `path`, `aliases`, `summary`, `body`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub weights: BTreeMap<String, f64>,
    /// BM25 parameter overrides (`k1`, `b`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, f64>,
    /// The default language of documentation; default `en`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Whether `knowledge[]` carries projected documents and modules; default true.
    #[serde(default)]
    pub corpus: RetrievalCorpusConfig,
    /// Whether an alias accepted by policy (no person approved it) names its entity exactly;
    /// default false: such an alias is searchable text only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trust_policy_aliases: bool,
}

impl RetrievalConfig {
    /// The documentation's language: `language`, else `en`.
    pub fn language(&self) -> &str {
        self.language.as_deref().unwrap_or("en")
    }
}

/// `retrieval.corpus`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetrievalCorpusConfig {
    /// Project documents and modules into `knowledge[]`.
    #[serde(default = "yes")]
    pub enabled: bool,
}

impl Default for RetrievalCorpusConfig {
    fn default() -> Self {
        RetrievalCorpusConfig { enabled: true }
    }
}

fn yes() -> bool {
    true
}

/// `routing`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoutingConfig {
    /// Route declarations.
    #[serde(default)]
    pub options: RoutingOptions,
}

/// `routing.options`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoutingOptions {
    /// Ownership records by id: who owns a directory, its agent doc and its checks.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ownership: BTreeMap<String, OwnershipConfig>,
    /// Intent routes: a phrase people search for, and where it leads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intents: Vec<IntentConfig>,
}

/// One ownership record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OwnershipConfig {
    /// The owned directory (repository-relative).
    pub path: String,
    /// Checks that override every other source.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<String>,
    /// The curated agent doc for this owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_doc: Option<String>,
}

/// One intent route.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IntentConfig {
    /// What people ask ("rotate the signing key").
    pub phrase: String,
    /// Where it leads: an entity id or a repository-relative path.
    pub target: String,
}

/// `llms`: the `llms.txt` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LlmsConfig {
    /// Write `llms.txt`; default true.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Where, relative to the root; default `llms.txt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// `index`: opt-in parts of the index artifact (docs/index-artifact.md).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IndexConfig {
    /// `knowledgeEntities`: the index's section of typed entities (default off; off leaves the
    /// index byte for byte as without it).
    #[serde(default, skip_serializing_if = "KnowledgeEntitiesConfig::is_default")]
    pub knowledge_entities: KnowledgeEntitiesConfig,
    /// Refuse to publish an index while reference findings are pending against the base report
    /// (default off; `index --allow-pending-findings` publishes past it and records why).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reference_findings_gate: bool,
}

impl IndexConfig {
    /// Whether every setting is its default.
    pub fn is_default(&self) -> bool {
        *self == IndexConfig::default()
    }
}

/// `index.knowledgeEntities`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeEntitiesConfig {
    /// Emit the `knowledgeEntities` section.
    #[serde(default)]
    pub enabled: bool,
}

impl KnowledgeEntitiesConfig {
    /// Whether it is off (the default).
    pub fn is_default(&self) -> bool {
        !self.enabled
    }
}

/// Default `llms.path`.
pub const DEFAULT_LLMS_PATH: &str = "llms.txt";

impl LlmsConfig {
    /// The effective path, relative to the root.
    pub fn path(&self) -> &str {
        self.path.as_deref().unwrap_or(DEFAULT_LLMS_PATH)
    }
}

impl Default for LlmsConfig {
    fn default() -> Self {
        LlmsConfig {
            enabled: true,
            path: None,
        }
    }
}

/// A config file that could not be accepted, naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {key}: {message}")]
pub struct ConfigError {
    /// The file name.
    pub file: String,
    /// The dotted key path (`safety.maxFileBytes`), or `.` for the whole document.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl ConfigError {
    /// `(key, message)` problems as errors of `file`.
    pub fn all_of(file: &str, problems: Vec<(String, String)>) -> Vec<ConfigError> {
        problems
            .into_iter()
            .map(|(key, message)| ConfigError {
                file: file.to_owned(),
                key,
                message,
            })
            .collect()
    }
}

/// The most errors [`Config::parse_all`] collects from one file.
pub const MAX_CONFIG_ERRORS: usize = 64;

impl Config {
    /// Parses and validates a config file's bytes, stopping at the first error: the first the
    /// file holds, else the first value check that fails ([`Config::parse_all`] lists them all).
    pub fn parse(bytes: &[u8], file: &str) -> Result<Config, ConfigError> {
        let config = Config::read(bytes, file)?;
        match config.errors(file).into_iter().next() {
            Some(error) => Err(error),
            None => Ok(config),
        }
    }

    /// The typed reading of a file, without the value checks.
    fn read(bytes: &[u8], file: &str) -> Result<Config, ConfigError> {
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let config: Config =
            serde_path_to_error::deserialize(&mut deserializer).map_err(|e| ConfigError {
                file: file.to_owned(),
                key: e.path().to_string(),
                message: e.into_inner().to_string(),
            })?;
        deserializer.end().map_err(|e| ConfigError {
            file: file.to_owned(),
            key: ".".into(),
            message: format!("trailing content: {e}"),
        })?;
        Ok(config)
    }

    /// Parses and validates a config file's bytes, listing every error (at most
    /// [`MAX_CONFIG_ERRORS`]), each naming its key, sorted by key: a wrong key is set aside
    /// and the rest read again, so one mistake does not hide the next, and the value checks
    /// run over what is left. A field missing only because its wrong value was set aside is
    /// not listed twice. A file that is not a JSON object has one error.
    ///
    /// Returns what was read (with the wrong keys set aside; `None` when nothing could be) and
    /// the errors; the file is valid when there are none.
    pub fn parse_all(bytes: &[u8], file: &str) -> (Option<Config>, Vec<ConfigError>) {
        let first = match Config::read(bytes, file) {
            Ok(config) => {
                let errors = config.errors(file);
                return (Some(config), errors);
            }
            Err(first) => first,
        };
        // Not a JSON object (or trailing content): nothing more can be read.
        let mut value = match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(value) if value.is_object() => value,
            _ => return (None, vec![first]),
        };
        let mut read = None;
        let mut errors: Vec<ConfigError> = Vec::new();
        let mut set_aside = SetAside::default();
        loop {
            let e = match serde_path_to_error::deserialize::<_, Config>(&value) {
                Ok(config) => {
                    errors.extend(config.errors(file));
                    read = Some(config);
                    break;
                }
                Err(e) => e,
            };
            let Some(current) = segments(e.path()) else {
                break;
            };
            let original = set_aside.original(&current);
            let message = e.into_inner().to_string();
            // A field left missing by a key set aside before: already reported.
            if !set_aside.caused(&original, &message) {
                let key = render(&original);
                // The first error read from the file itself says where it stands.
                let message = if key == first.key {
                    first.message.clone()
                } else {
                    message
                };
                errors.push(ConfigError {
                    file: file.to_owned(),
                    key,
                    message,
                });
            }
            if errors.len() >= MAX_CONFIG_ERRORS || !set_aside.remove(&mut value, &current) {
                break;
            }
        }
        // The file's first error is found again in the value, unless reading the value cannot
        // see it (a duplicate key, which only the file shows).
        if !errors.iter().any(|e| e.key == first.key) {
            errors.push(first);
        }
        errors.sort_by(|a, b| a.key.cmp(&b.key).then(a.message.cmp(&b.message)));
        errors.dedup();
        errors.truncate(MAX_CONFIG_ERRORS);
        (read, errors)
    }

    /// [`Config::problems`] as errors of `file`.
    fn errors(&self, file: &str) -> Vec<ConfigError> {
        ConfigError::all_of(file, self.problems())
    }

    /// Every value the types accept but the configuration does not, as (key, message).
    fn problems(&self) -> Vec<(String, String)> {
        let mut problems = Vec::new();
        let mut problem = |key: &str, message: String| problems.push((key.to_owned(), message));
        if self.schema_version != CONFIG_SCHEMA_VERSION {
            problem(
                "schemaVersion",
                format!(
                    "unsupported version {} (this build reads 1)",
                    self.schema_version
                ),
            );
        }
        if self.safety.max_file_bytes == Some(0) {
            problem("safety.maxFileBytes", "must be greater than 0".into());
        }
        if let Some(depth) = self.analysis.areas.depth
            && !(1..=8).contains(&depth)
        {
            problem("analysis.areas.depth", format!("{depth} is outside 1..=8"));
        }
        for (i, root) in self.analysis.links.site_roots.iter().flatten().enumerate() {
            if site_root_path(root).is_none() {
                problem(
                    &format!("analysis.links.siteRoots[{i}]"),
                    format!(
                        "`{root}` must be a directory relative to the repository root, without `..`"
                    ),
                );
            }
        }
        for (name, weight) in &self.retrieval.weights {
            let key = format!("retrieval.weights.{name}");
            if !crate::FIELD_NAMES.contains(&name.as_str()) {
                problem(
                    &key,
                    format!(
                        "unknown field `{name}` (expected one of {})",
                        crate::FIELD_NAMES.join(", ")
                    ),
                );
            } else if !weight.is_finite() || *weight < 0.0 {
                problem(&key, format!("`{name}` must be a finite number ≥ 0"));
            }
        }
        for (name, value) in &self.retrieval.params {
            let key = format!("retrieval.params.{name}");
            let ok = match name.as_str() {
                "k1" => value.is_finite() && *value >= 0.0,
                "b" => (0.0..=1.0).contains(value),
                _ => {
                    problem(&key, format!("unknown parameter `{name}` (expected k1, b)"));
                    continue;
                }
            };
            if !ok {
                problem(&key, format!("`{name}` = {value} is out of range"));
            }
        }
        if self
            .project
            .name
            .as_deref()
            .is_some_and(|n| n.trim().is_empty())
        {
            problem("project.name", "must not be empty".into());
        }
        if let Some(path) = &self.llms.path
            && crate::RelPath::new(path.trim_start_matches("./")).is_none_or(|p| p.is_root())
        {
            problem(
                "llms.path",
                format!(
                    "`{path}` must be a file path relative to the repository root, without `..`"
                ),
            );
        }
        for code in self.rules.keys().filter(|code| rule_info(code).is_none()) {
            problem(
                &format!("rules.{code}"),
                format!(
                    "unknown diagnostic code `{code}` (known codes: {})",
                    RULES.iter().map(|r| r.code).collect::<Vec<_>>().join(", ")
                ),
            );
        }
        problems
    }
}

/// One step of a key path: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// A serde path as steps; `None` when a step is unknown (nothing can be set aside there).
fn segments(path: &serde_path_to_error::Path) -> Option<Vec<Step>> {
    path.iter()
        .map(|segment| match segment {
            serde_path_to_error::Segment::Seq { index } => Some(Step::Index(*index)),
            serde_path_to_error::Segment::Map { key }
            | serde_path_to_error::Segment::Enum { variant: key } => Some(Step::Key(key.clone())),
            serde_path_to_error::Segment::Unknown => None,
        })
        .collect()
}

/// Steps written as serde_path_to_error writes a path (`routing.options.intents[1].phrase`,
/// `.` for the whole document).
fn render(steps: &[Step]) -> String {
    if steps.is_empty() {
        return ".".to_owned();
    }
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Step::Index(index) => out.push_str(&format!("[{index}]")),
        }
    }
    out
}

/// The keys [`Config::parse_all`] set aside, as paths into the file as written (array indices
/// as they were before any element was taken out).
#[derive(Debug, Default)]
struct SetAside {
    removed: Vec<Vec<Step>>,
}

impl SetAside {
    /// `current` (a path into the value as it is now) as a path into the file as written.
    fn original(&self, current: &[Step]) -> Vec<Step> {
        let mut original: Vec<Step> = Vec::with_capacity(current.len());
        for step in current {
            let step = match step {
                Step::Index(index) => {
                    let gone: Vec<usize> = self
                        .removed
                        .iter()
                        .filter(|r| r.len() == original.len() + 1 && r.starts_with(&original))
                        .filter_map(|r| match r.last() {
                            Some(Step::Index(i)) => Some(*i),
                            _ => None,
                        })
                        .collect();
                    let mut kept = 0;
                    let mut at = 0;
                    loop {
                        if !gone.contains(&at) {
                            if kept == *index {
                                break;
                            }
                            kept += 1;
                        }
                        at += 1;
                    }
                    Step::Index(at)
                }
                Step::Key(key) => Step::Key(key.clone()),
            };
            original.push(step);
        }
        original
    }

    /// Whether an error at `original` is the field a key set aside left missing (serde's
    /// ``missing field `name` ``).
    fn caused(&self, original: &[Step], message: &str) -> bool {
        let Some(field) = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next())
        else {
            return false;
        };
        self.removed.iter().any(|r| {
            r.len() == original.len() + 1
                && r.starts_with(original)
                && r.last() == Some(&Step::Key(field.to_owned()))
        })
    }

    /// Takes the value at `current` out of `value` and records it; at the root, puts in the
    /// one required key (`schemaVersion`) when it is missing or was set aside, so the rest can
    /// be read. `false` when nothing could be taken out (the reading stops).
    fn remove(&mut self, value: &mut serde_json::Value, current: &[Step]) -> bool {
        let original = self.original(current);
        let Some((last, parents)) = current.split_last() else {
            let Some(object) = value.as_object_mut() else {
                return false;
            };
            if object.contains_key("schemaVersion") {
                return false;
            }
            object.insert(
                "schemaVersion".to_owned(),
                serde_json::Value::from(CONFIG_SCHEMA_VERSION),
            );
            return true;
        };
        let mut parent = &mut *value;
        for step in parents {
            let next = match step {
                Step::Key(key) => parent.get_mut(key.as_str()),
                Step::Index(index) => parent.get_mut(*index),
            };
            let Some(next) = next else { return false };
            parent = next;
        }
        let removed = match last {
            Step::Key(key) => parent
                .as_object_mut()
                .and_then(|object| object.remove(key.as_str()))
                .is_some(),
            Step::Index(index) => match parent.as_array_mut() {
                Some(array) if *index < array.len() => {
                    array.remove(*index);
                    true
                }
                _ => false,
            },
        };
        if removed {
            self.removed.push(original);
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_object_with_version_is_the_default() {
        let config = Config::parse(br#"{"schemaVersion": 1}"#, CONFIG_FILE).unwrap();
        assert_eq!(config, Config::default());
    }

    #[test]
    fn unknown_key_error_names_the_key_path() {
        let err = Config::parse(
            br#"{"schemaVersion": 1, "safety": {"exlude": []}}"#,
            CONFIG_FILE,
        )
        .unwrap_err();
        assert_eq!(err.key, "safety.exlude");
        assert!(err.message.contains("exlude"), "{err}");
    }

    #[test]
    fn wrong_type_error_names_the_nested_key() {
        let err = Config::parse(
            br#"{"schemaVersion": 1, "safety": {"maxFileBytes": "big"}}"#,
            CONFIG_FILE,
        )
        .unwrap_err();
        assert_eq!(err.key, "safety.maxFileBytes");
    }

    #[test]
    fn unsupported_version_and_bad_weights_are_refused() {
        assert_eq!(
            Config::parse(br#"{"schemaVersion": 2}"#, "c")
                .unwrap_err()
                .key,
            "schemaVersion"
        );
        let err = Config::parse(
            br#"{"schemaVersion": 1, "retrieval": {"weights": {"titel": 3}}}"#,
            "c",
        )
        .unwrap_err();
        assert_eq!(err.key, "retrieval.weights.titel");
    }

    #[test]
    fn llms_path_must_stay_inside_the_root() {
        for bad in [r#""/etc/llms.txt""#, r#""../llms.txt""#, r#""""#, r#"".""#] {
            let json = format!(r#"{{"schemaVersion": 1, "llms": {{"path": {bad}}}}}"#);
            assert_eq!(
                Config::parse(json.as_bytes(), "c").unwrap_err().key,
                "llms.path",
                "{bad}"
            );
        }
        let ok = Config::parse(
            br#"{"schemaVersion": 1, "llms": {"path": "public/llms.txt"}}"#,
            "c",
        )
        .unwrap();
        assert_eq!(ok.llms.path(), "public/llms.txt");
        assert_eq!(Config::default().llms.path(), "llms.txt");
    }

    #[test]
    fn rules_take_known_codes_and_levels_only() {
        let config = Config::parse(
            br#"{"schemaVersion": 1, "rules": {"broken-link": "warning", "orphan-document": "off"}}"#,
            "c",
        )
        .unwrap();
        assert_eq!(config.rules["broken-link"], RuleLevel::Warning);
        assert_eq!(config.rules["orphan-document"], RuleLevel::Off);
        let err = Config::parse(
            br#"{"schemaVersion": 1, "rules": {"broken-lnk": "off"}}"#,
            "c",
        )
        .unwrap_err();
        assert_eq!(err.key, "rules.broken-lnk");
        assert!(err.message.contains("unknown diagnostic code"), "{err}");
        let err = Config::parse(
            br#"{"schemaVersion": 1, "rules": {"broken-link": "fatal"}}"#,
            "c",
        )
        .unwrap_err();
        assert_eq!(err.key, "rules.broken-link");
    }

    #[test]
    fn site_roots_are_repository_directories() {
        let config = Config::parse(
            br#"{"schemaVersion": 1, "analysis": {"links": {"siteRoots": ["./src/content/docs/", ".", "docs"]}}}"#,
            "c.json",
        )
        .unwrap();
        let roots: Vec<String> = config
            .analysis
            .links
            .site_roots()
            .unwrap()
            .iter()
            .map(|r| r.as_str().to_owned())
            .collect();
        assert_eq!(roots, ["src/content/docs", ".", "docs"]);
        assert_eq!(Config::default().analysis.links.site_roots(), None);
        let (_, errors) = Config::parse_all(
            br#"{"schemaVersion": 1, "analysis": {"links": {"siteRoots": ["docs", "../out", "/abs"]}}}"#,
            "c.json",
        );
        let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(
            keys,
            ["analysis.links.siteRoots[1]", "analysis.links.siteRoots[2]"],
            "{errors:#?}"
        );
    }

    #[test]
    fn a_configuration_without_links_serialises_as_before() {
        let value = serde_json::to_value(Config::default()).unwrap();
        assert_eq!(value["analysis"], serde_json::json!({"areas": {}}));
    }

    #[test]
    fn truncated_json_is_an_error_not_a_panic() {
        assert!(Config::parse(br#"{"schemaVersion": 1, "safety": {"#, "c").is_err());
        assert!(Config::parse(b"\xff\xfe", "c").is_err());
    }

    #[test]
    fn parse_all_lists_every_wrong_key_once() {
        let (read, errors) = Config::parse_all(
            br#"{
                "schemaVersion": 1,
                "safety": {"exlude": [], "maxFileBytes": "big"},
                "analysis": {"areas": {"depth": 9}},
                "routing": {"options": {"intents": [
                    {"phrase": 3, "target": "a"},
                    {"phrase": "ok", "target": "b", "extra": true}
                ]}},
                "rules": {"broken-lnk": "off", "orphan-document": "loud"}
            }"#,
            CONFIG_FILE,
        );
        // What was left once the wrong keys were set aside: the second intent, without `extra`.
        let intents = read.unwrap().routing.options.intents;
        assert_eq!(intents.len(), 1);
        assert_eq!(intents[0].phrase, "ok");
        let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "analysis.areas.depth",
                "routing.options.intents[0].phrase",
                // The second intent keeps its index although the first was set aside.
                "routing.options.intents[1].extra",
                "rules.broken-lnk",
                "rules.orphan-document",
                "safety.exlude",
                "safety.maxFileBytes",
            ],
            "{errors:#?}"
        );
        // The first is the one `parse` reports, with its position in the file.
        let first = Config::parse(b"{\"schemaVersion\": 1, \"safety\": {\"exlude\": []}}", "c")
            .unwrap_err();
        assert_eq!(first.key, "safety.exlude");
    }

    #[test]
    fn parse_all_reads_on_past_a_wrong_schema_version_type() {
        let errors =
            Config::parse_all(br#"{"schemaVersion": "one", "project": {"name": ""}}"#, "c").1;
        let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["project.name", "schemaVersion"], "{errors:#?}");
        let errors = Config::parse_all(br#"{"project": {"nam": "x"}}"#, "c").1;
        let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, [".", "project.nam"], "{errors:#?}");
        assert!(errors[0].message.contains("schemaVersion"), "{errors:#?}");
    }

    #[test]
    fn parse_all_keeps_an_error_only_the_file_shows() {
        let errors = Config::parse_all(
            br#"{"schemaVersion": 1, "project": {}, "project": {}, "analysis": {"areas": {"depth": 0}}}"#,
            "c",
        )
        .1;
        let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, [".", "analysis.areas.depth"], "{errors:#?}");
        assert!(errors[0].message.contains("duplicate field `project`"));
    }

    #[test]
    fn parse_all_of_broken_json_is_one_error() {
        let (read, errors) = Config::parse_all(br#"{"schemaVersion": 1,"#, "c");
        assert!(read.is_none());
        assert_eq!(errors.len(), 1);
        assert_eq!(Config::parse_all(b"[1, 2]", "c").1.len(), 1);
        let (read, errors) = Config::parse_all(br#"{"schemaVersion": 1}"#, "c");
        assert_eq!((read, errors), (Some(Config::default()), Vec::new()));
    }
}
