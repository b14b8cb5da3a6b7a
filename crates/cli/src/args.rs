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
    /// The repository root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// No progress bar and no summary on stderr.
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
    /// Write a starting `doc-bridge.config.json` (never overwrites one).
    Init(InitArgs),
}

/// `doc-bridge index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Only answer whether the index is current (exit 0 fresh, 1 stale, 2 error); writes nothing.
    #[arg(long)]
    pub check: bool,
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
}

/// `doc-bridge schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which artifact.
    pub name: SchemaName,
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
