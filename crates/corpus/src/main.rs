//! `doc-bridge-corpus`: writes benchmark corpora for doc-bridge.

use anyhow::Result;
use clap::{Parser, Subcommand};
use doc_bridge_corpus::{fsutil, scifact, synth};
use std::path::PathBuf;
use std::process::ExitCode;
use std::thread;
use std::time::Instant;

/// Writes benchmark corpora for doc-bridge.
#[derive(Debug, Parser)]
#[command(name = "doc-bridge-corpus", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write a deterministic synthetic monorepo (TypeScript, Rust, Python, Go, Markdown docs).
    Synth {
        /// Output directory (created if missing; must be empty unless --force).
        #[arg(long)]
        out: PathBuf,
        /// Exact number of files to write (at least 20).
        #[arg(long)]
        files: u64,
        /// Seed; the same --files and --seed always give a byte-identical tree.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write into a non-empty directory (overwrites files, deletes nothing).
        #[arg(long)]
        force: bool,
        /// Writer threads (default: the number of CPUs); the tree is the same for any value.
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Write each SciFact abstract of a BEIR corpus.jsonl as OUT/<_id>.md.
    Scifact {
        /// Path to BEIR's corpus.jsonl.
        #[arg(long)]
        corpus: PathBuf,
        /// Output directory (created if missing; must be empty unless --force).
        #[arg(long)]
        out: PathBuf,
        /// Write into a non-empty directory (overwrites files, deletes nothing).
        #[arg(long)]
        force: bool,
    },
}

fn main() -> ExitCode {
    // Print the error chain on one line; returning the error from main would also print a
    // backtrace whenever RUST_BACKTRACE is set, which buries the message.
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("doc-bridge-corpus: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let started = Instant::now();
    match cli.command {
        Command::Synth {
            out,
            files,
            seed,
            force,
            jobs,
        } => {
            fsutil::prepare_out_dir(&out, force)?;
            let jobs =
                jobs.unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()));
            let s = synth::generate(&synth::Config { files, seed, jobs }, &out)?;
            eprintln!(
                "synth: wrote {} files ({:.1} MiB; {} packages, {} modules, {} documents) to {} in {:.2} s",
                s.files,
                mib(s.bytes),
                s.packages,
                s.modules,
                s.documents,
                out.display(),
                started.elapsed().as_secs_f64()
            );
        }
        Command::Scifact { corpus, out, force } => {
            fsutil::prepare_out_dir(&out, force)?;
            let s = scifact::write_markdown(&corpus, &out)?;
            eprintln!(
                "scifact: wrote {} documents ({:.1} MiB) to {} in {:.2} s",
                s.documents,
                mib(s.bytes),
                out.display(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

/// Bytes in MiB, for messages.
fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
