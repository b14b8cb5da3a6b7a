//! The `doc-bridge` command line: argument parsing, the index pipeline that ties discovery and
//! retrieval together, and the mapping of errors to messages and exit codes.
//!
//! Architecture invariant: no ranking, analysis or hashing logic lives here; commands call the
//! library crates and print.

mod agent_stage;
pub mod allocator;
pub mod args;
mod clock;
pub mod commands;
pub mod exit;
mod head;
mod last_run;
pub mod llms;
pub mod lock;
pub mod mcp;
pub mod output;
pub mod pipeline;
mod progress;
pub mod render;
pub mod repo;
mod watch;

use std::ffi::OsString;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::exit::Exit;

/// Parses `args`, runs the command, prints errors, and returns the exit code. It configures the
/// allocator for the command first, so call it once per process, from `main`, before starting
/// any thread.
pub fn run(args: impl IntoIterator<Item = OsString>) -> std::process::ExitCode {
    doc_bridge_model::timing::start();
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            let code = if error.use_stderr() {
                Exit::Error
            } else {
                Exit::Ok
            };
            return code.into();
        }
    };
    // Before any thread exists (the rayon pool below is the first).
    let long_running = matches!(&cli.command, Command::Index(args) if args.watch)
        || matches!(&cli.command, Command::Mcp(_));
    allocator::configure(long_running);
    if let Some(threads) = threads(&cli.command) {
        // Only fails when a pool already exists; the default pool is then used.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }
    let result = match &cli.command {
        Command::Index(args) => commands::index::run(args),
        Command::Scan(args) => commands::index::scan(args),
        Command::Schema(args) => commands::schema::run(args),
        Command::Init(args) => commands::init::run(args),
        Command::Search(args) => commands::search::run(args),
        Command::Query(args) => commands::query::run(args),
        Command::Bench(args::BenchCommand::Retrieval(args)) => commands::bench::retrieval(args),
        Command::Enrich(args) => match &args.action {
            Some(args::EnrichAction::List(list)) => commands::enrich::list(list),
            Some(args::EnrichAction::Approve(decide)) => commands::approve::decide(decide, true),
            Some(args::EnrichAction::Reject(decide)) => commands::approve::decide(decide, false),
            Some(args::EnrichAction::Revalidate(revalidate)) => {
                commands::approve::revalidate(revalidate)
            }
            Some(args::EnrichAction::Stats(stats)) => commands::approve::stats(stats),
            None => commands::enrich::run(args),
        },
        Command::Check(args) => commands::check::run(args),
        Command::Mcp(args) => commands::mcp::run(args),
        Command::Render(args) => commands::render::run(args),
    };
    match result {
        Ok(_) if output::write_failed() => {
            crate::errln!("doc-bridge: could not write the output");
            Exit::Error.into()
        }
        Ok(exit) => exit.into(),
        Err(error) => {
            crate::errln!("doc-bridge: {}", error.message);
            error.exit.into()
        }
    }
}

fn threads(command: &Command) -> Option<usize> {
    match command {
        Command::Index(a) => a.common.threads,
        Command::Scan(a) => a.common.threads,
        Command::Search(a) => a.common.threads,
        Command::Query(a) => a.common.threads,
        Command::Bench(args::BenchCommand::Retrieval(a)) => a.common.threads,
        Command::Enrich(a) => a.common.threads,
        Command::Check(a) => a.common.threads,
        Command::Mcp(a) => a.common.threads,
        Command::Render(a) => a.common.threads,
        Command::Init(_) | Command::Schema(_) => None,
    }
}
