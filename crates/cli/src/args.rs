//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// doc-bridge: a repository knowledge engine for people and coding agents.
#[derive(Debug, Parser)]
#[command(name = "doc-bridge", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command shares.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// The repository root (default: the nearest directory at or above the current one holding
    /// `.doc-bridge/` or `doc-bridge.config.json`, else the git work tree, else the current one).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// The configuration file to load (default: `doc-bridge.config.json` at the root); its
    /// directory is the repository root. It must exist (except for `init`, which writes it);
    /// with --root, both must name the same directory.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// No progress bar, and no run summary from `index` and `scan` (warnings, errors and
    /// `--json` output still print).
    #[arg(long, short)]
    pub quiet: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Observe the repository and write `.doc-bridge/snapshot.json` and `.doc-bridge/index.json`.
    Index(IndexArgs),
    /// Observe the repository and write `.doc-bridge/snapshot.json` only.
    Scan(ScanArgs),
    /// Print the JSON Schema of an artifact.
    Schema(SchemaArgs),
    /// Print an artifact (`index`, `snapshot`, `report`) as stored, or indented with --pretty;
    /// exit 1 when its seal does not match its content.
    Show(ShowArgs),
    /// Write a starting `doc-bridge.config.json` (never overwrites one).
    Init(InitArgs),
    /// Ranked search over the index, with every score explained on request.
    Search(SearchArgs),
    /// The handoff for any entity: where to start, what to read, which checks to run.
    Query(QueryArgs),
    /// The entities of one kind in the index (documents, modules, packages, areas) or its
    /// `knowledge[]` entries.
    List(ListArgs),
    /// A file's lines, numbered: `PATH`, `PATH:START` or `PATH:START-END` (confined to the root,
    /// secrets redacted).
    Get(GetArgs),
    /// One screen on the repository's state: index, configuration, diagnostics, agents, and
    /// what to run next. Writes nothing.
    Doctor(DoctorArgs),
    /// Check the configuration file and list every error by key (exit 1 when invalid).
    ValidateConfig(ValidateConfigArgs),
    /// Measure retrieval quality against a suite of queries.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Decide enrichment proposals and keep the overlay (only on request; never on the query path).
    Enrich(EnrichArgs),
    /// Rules over the snapshot and the index; writes `.doc-bridge/report.json` (exit 1 on errors).
    Check(CheckArgs),
    /// A Model Context Protocol server over stdio, answering from the index in memory.
    Mcp(McpArgs),
    /// One self-contained HTML page: areas, packages, diagnostics, the graph, the review queue.
    Render(RenderArgs),
}

/// How `check` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Readable lines (the default).
    Text,
    /// The report as JSON.
    Json,
    /// SARIF 2.1.0, as GitHub code scanning reads it.
    Sarif,
}

/// The least severe finding `check` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MinSeverity {
    /// Everything (the default).
    Info,
    /// Warnings and errors.
    Warning,
    /// Errors only.
    Error,
}

impl MinSeverity {
    /// The severity itself.
    pub fn severity(self) -> doc_bridge_model::snapshot::Severity {
        use doc_bridge_model::snapshot::Severity;
        match self {
            MinSeverity::Info => Severity::Info,
            MinSeverity::Warning => Severity::Warning,
            MinSeverity::Error => Severity::Error,
        }
    }
}

/// `doc-bridge check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Warnings count as errors for the exit code.
    #[arg(long)]
    pub strict: bool,
    /// Print (text, JSON, SARIF) and count for the exit code only findings at least this
    /// severe; `.doc-bridge/report.json` keeps them all.
    #[arg(long, value_enum, default_value_t = MinSeverity::Info)]
    pub min_severity: MinSeverity,
    /// Also run the enrich stage and report its status (never changes the result).
    #[arg(long)]
    pub enrich: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge mcp`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct McpArgs {
    /// `install`.
    #[command(subcommand)]
    pub action: Option<McpAction>,
    /// Answer from a stale index (responses carry `fresh: false`) instead of refusing; with
    /// refresh on, only when the refresh itself fails.
    #[arg(long)]
    pub allow_stale: bool,
    /// Never re-index: a stale index is refused (or served marked stale with --allow-stale).
    /// By default a stale or missing index is brought up to date before a call is answered.
    #[arg(long)]
    pub no_refresh: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge mcp <action>`.
#[derive(Debug, Subcommand)]
pub enum McpAction {
    /// Print (or write, with `--write`) the client configuration that starts this server.
    Install(McpInstallArgs),
}

/// `doc-bridge mcp install`.
#[derive(Debug, Args)]
pub struct McpInstallArgs {
    /// Claude Code / Claude Desktop configuration.
    #[arg(long, conflicts_with = "cursor", required_unless_present = "cursor")]
    pub claude: bool,
    /// Cursor configuration.
    #[arg(long)]
    pub cursor: bool,
    /// Write the configuration file instead of printing it (asks for confirmation).
    #[arg(long)]
    pub write: bool,
    /// Do not ask for confirmation before writing.
    #[arg(long, short = 'y', requires = "write")]
    pub yes: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Where to write the page (default: `.doc-bridge/report.html`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge enrich`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct EnrichArgs {
    /// `list`.
    #[command(subcommand)]
    pub action: Option<EnrichAction>,
    /// Decide a JSON array of proposals from this file (made elsewhere: another machine, a
    /// batch job, a person).
    #[arg(long, value_name = "FILE")]
    pub from_file: Option<std::path::PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge enrich <action>`.
#[derive(Debug, Subcommand)]
pub enum EnrichAction {
    /// List the overlay's entries.
    List(EnrichListArgs),
    /// Approve a pending proposal (a person's decision; never an agent's, never `policy`).
    Approve(EnrichDecideArgs),
    /// Reject a pending proposal.
    Reject(EnrichDecideArgs),
    /// Re-run the validators over the stored proposals; exit 1 when the partition differs.
    Revalidate(EnrichRevalidateArgs),
    /// Acceptance rates per agent and kind, from the overlay and the people's decisions.
    Stats(EnrichRevalidateArgs),
}

/// `doc-bridge enrich approve|reject`.
#[derive(Debug, Args)]
pub struct EnrichDecideArgs {
    /// The pending proposal's id.
    pub proposal_id: String,
    /// Who decides (a person's name).
    #[arg(long, value_name = "NAME")]
    pub by: String,
    /// Why (kept in the approval record).
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge enrich revalidate`.
#[derive(Debug, Args)]
pub struct EnrichRevalidateArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// Overlay entry states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EnrichState {
    /// Accepted (by policy or a person).
    Accepted,
    /// Waiting for a person.
    Pending,
    /// Rejected, with a reason.
    Rejected,
}

/// `doc-bridge enrich list`.
#[derive(Debug, Args)]
pub struct EnrichListArgs {
    /// Only entries in this state.
    #[arg(long)]
    pub state: Option<EnrichState>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// How a query command prints.
#[derive(Debug, Clone, Args)]
pub struct Output {
    /// Print JSON on stdout.
    #[arg(long, conflicts_with = "text")]
    pub json: bool,
    /// Print readable text (the default).
    #[arg(long)]
    pub text: bool,
}

/// `doc-bridge get`.
#[derive(Debug, Args)]
pub struct GetArgs {
    /// `PATH`, `PATH:START` or `PATH:START-END` (1-based, inclusive), relative to the root.
    pub target: String,
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The query (several words are joined with spaces).
    #[arg(required = true, num_args = 1..)]
    pub query: Vec<String>,
    /// Maximum results (at least 1).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub limit: u64,
    /// Only results of this kind.
    #[arg(long, value_parser = ["document", "module", "area", "package"])]
    pub kind: Option<String>,
    /// Attach every score part and the matched terms and fields.
    #[arg(long)]
    pub explain: bool,
    /// Favour documentation written for agents.
    #[arg(long)]
    pub agent: bool,
    /// The asked language (default: `retrieval.language`, else `en`).
    #[arg(long)]
    pub lang: Option<String>,
    /// Drop results under this share of the best score, 0 to 1 (0 keeps all) [default: a third].
    #[arg(long, value_name = "SHARE")]
    pub floor: Option<f64>,
    /// Leave out tests and test fixtures.
    #[arg(long)]
    pub no_tests: bool,
    /// Only results whose path matches this glob (gitignore-style `*`, `**`, `?`; repeatable).
    #[arg(long = "path", value_name = "GLOB")]
    pub paths: Vec<String>,
    /// Answer from a stale index (marked stale) instead of failing.
    #[arg(long)]
    pub allow_stale: bool,
    /// Bring the index up to date first, as `doc-bridge index` does (this writes
    /// `.doc-bridge/`; a line on stderr says what it did).
    #[arg(long, conflicts_with = "allow_stale")]
    pub refresh: bool,
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge query`.
#[derive(Debug, Clone, Args)]
pub struct QueryArgs {
    /// An entity id (`package:@fx/auth`), package name, alias or path; or, followed by more
    /// words, a form: `package NAME`, `ownership KEY`, `intent PHRASE...`.
    pub target: String,
    /// The form's argument (`query package @fx/auth`, `query intent rotate the signing key`).
    /// Without it, the first word is a target like any other (`query package` resolves an
    /// entity named `package`).
    #[arg(value_name = "WORDS", num_args = 0..)]
    pub words: Vec<String>,
    /// Answer from a stale index (marked stale) instead of failing.
    #[arg(long)]
    pub allow_stale: bool,
    #[command(flatten)]
    pub output: Output,
    #[command(flatten)]
    pub common: Common,
}

/// What `list` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListKind {
    /// Documentation files.
    Documents,
    /// Source modules.
    Modules,
    /// Packages (manifests).
    Packages,
    /// Areas (directories of modules).
    Areas,
    /// Every other inventoried file (configuration, data, templates, images, other languages).
    Files,
    /// The index's `knowledge[]` entries (agent docs, projected documents and modules).
    Knowledge,
}

/// `doc-bridge list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Which entities.
    pub kind: ListKind,
    /// List from a stale index (a warning on stderr) instead of failing.
    #[arg(long)]
    pub allow_stale: bool,
    /// Print a JSON array on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print one JSON object on stdout (sorted keys).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge validate-config`.
#[derive(Debug, Args)]
pub struct ValidateConfigArgs {
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge bench`.
#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Run a retrieval suite: hit@1, hit@3, MRR and zero-result rate.
    Retrieval(BenchRetrievalArgs),
}

/// `doc-bridge bench retrieval`.
#[derive(Debug, Args)]
pub struct BenchRetrievalArgs {
    /// The suite: a JSON array of `{"query", "expected": [ids or paths], "kind"?}`.
    pub suite: std::path::PathBuf,
    /// Exit 1 when hit@3 falls under this value (0..=1).
    #[arg(long)]
    pub min: Option<f64>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Answer from a stale index instead of failing.
    #[arg(long)]
    pub allow_stale: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Only answer whether the index is current (exit 0 fresh, 1 stale, 2 error); writes nothing.
    #[arg(long, conflicts_with = "watch")]
    pub check: bool,
    /// Keep the index current as files change (debounced; re-analyses only changed files).
    #[arg(long)]
    pub watch: bool,
    /// With --watch: how long the file system must stay quiet before a refresh, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 200, requires = "watch",
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub debounce_ms: u64,
    /// Rebuild even when nothing changed since the last run (which otherwise stops after
    /// checking the inputs, the program and the files it wrote, and writes nothing).
    #[arg(long, conflicts_with_all = ["check", "watch"])]
    pub force: bool,
    /// Publish past a failing `index.referenceFindingsGate`, recording why in the index's
    /// `publication` (reason codes only).
    #[arg(long, conflicts_with_all = ["check", "watch"])]
    pub allow_pending_findings: bool,
    /// Print the result as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// `doc-bridge scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Print the result as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}

/// Artifacts with a schema.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SchemaName {
    /// `.doc-bridge/index.json` (`DocBridgeIndexV1`).
    Index,
    /// `.doc-bridge/snapshot.json`.
    Snapshot,
    /// `doc-bridge.config.json`.
    Config,
    /// One `EnrichmentProposalV1`.
    Proposal,
    /// `.doc-bridge/enrich/overlay.json` (`EnrichmentOverlayV1`).
    Overlay,
    /// `.doc-bridge/report.json` (`CheckReportV1`).
    Report,
}

/// `doc-bridge schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which artifact.
    pub name: SchemaName,
}

/// `doc-bridge show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Which artifact.
    pub name: ShowName,
    /// Indented, keys in order, for reading (the stored form is one line of canonical JSON).
    #[arg(long)]
    pub pretty: bool,
    #[command(flatten)]
    pub common: Common,
}

/// The artifacts `show` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowName {
    /// `.doc-bridge/index.json`.
    Index,
    /// `.doc-bridge/snapshot.json`.
    Snapshot,
    /// `.doc-bridge/report.json` (written by `check`).
    Report,
}

/// `doc-bridge init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Print the result as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub common: Common,
}
