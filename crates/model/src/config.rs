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

impl Config {
    /// Parses and validates a config file's bytes.
    pub fn parse(bytes: &[u8], file: &str) -> Result<Config, ConfigError> {
        let err = |key: String, message: String| ConfigError {
            file: file.to_owned(),
            key,
            message,
        };
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let config: Config = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
            let key = e.path().to_string();
            err(key, e.into_inner().to_string())
        })?;
        deserializer
            .end()
            .map_err(|e| err(".".into(), format!("trailing content: {e}")))?;
        config
            .validate()
            .map_err(|(key, message)| err(key.into(), message))?;
        if let Some(code) = config.rules.keys().find(|code| rule_info(code).is_none()) {
            return Err(err(
                format!("rules.{code}"),
                format!(
                    "unknown diagnostic code `{code}` (known codes: {})",
                    RULES.iter().map(|r| r.code).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        Ok(config)
    }

    fn validate(&self) -> Result<(), (&'static str, String)> {
        if self.schema_version != CONFIG_SCHEMA_VERSION {
            return Err((
                "schemaVersion",
                format!(
                    "unsupported version {} (this build reads 1)",
                    self.schema_version
                ),
            ));
        }
        if self.safety.max_file_bytes == Some(0) {
            return Err(("safety.maxFileBytes", "must be greater than 0".into()));
        }
        if let Some(depth) = self.analysis.areas.depth
            && !(1..=8).contains(&depth)
        {
            return Err(("analysis.areas.depth", format!("{depth} is outside 1..=8")));
        }
        for (name, weight) in &self.retrieval.weights {
            if !crate::FIELD_NAMES.contains(&name.as_str()) {
                return Err((
                    "retrieval.weights",
                    format!(
                        "unknown field `{name}` (expected one of {})",
                        crate::FIELD_NAMES.join(", ")
                    ),
                ));
            }
            if !weight.is_finite() || *weight < 0.0 {
                return Err((
                    "retrieval.weights",
                    format!("`{name}` must be a finite number ≥ 0"),
                ));
            }
        }
        for (name, value) in &self.retrieval.params {
            let ok = match name.as_str() {
                "k1" => value.is_finite() && *value >= 0.0,
                "b" => (0.0..=1.0).contains(value),
                _ => {
                    return Err((
                        "retrieval.params",
                        format!("unknown parameter `{name}` (expected k1, b)"),
                    ));
                }
            };
            if !ok {
                return Err((
                    "retrieval.params",
                    format!("`{name}` = {value} is out of range"),
                ));
            }
        }
        if self
            .project
            .name
            .as_deref()
            .is_some_and(|n| n.trim().is_empty())
        {
            return Err(("project.name", "must not be empty".into()));
        }
        if let Some(path) = &self.llms.path
            && crate::RelPath::new(path.trim_start_matches("./")).is_none_or(|p| p.is_root())
        {
            return Err((
                "llms.path",
                format!(
                    "`{path}` must be a file path relative to the repository root, without `..`"
                ),
            ));
        }
        Ok(())
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
        assert_eq!(err.key, "retrieval.weights");
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
    fn truncated_json_is_an_error_not_a_panic() {
        assert!(Config::parse(br#"{"schemaVersion": 1, "safety": {"#, "c").is_err());
        assert!(Config::parse(b"\xff\xfe", "c").is_err());
    }
}
