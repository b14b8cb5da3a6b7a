//! The `doc-bridge` command line: argument parsing, the index pipeline that ties discovery and
//! retrieval together, and the mapping of errors to messages and exit codes.
//!
//! Architecture invariant: no ranking, analysis or hashing logic lives here; commands call the
//! library crates and print.

mod agent_config;
mod agent_stage;
pub mod allocator;
pub mod args;
mod clock;
pub mod commands;
pub mod exit;
mod head;
mod last_run;
pub mod lines;
pub mod llms;
pub mod lock;
pub mod mcp;
pub mod output;
pub mod pipeline;
mod progress;
mod publication;
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
    let mut cli = match Cli::try_parse_from(args) {
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
    if let Err(error) = apply_config_option(&mut cli.command) {
        crate::errln!("doc-bridge: {}", error.message);
        return error.exit.into();
    }
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
        Command::Get(args) => commands::get::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Init(args) => commands::init::run(args),
        Command::Search(args) => commands::search::run(args),
        Command::Query(args) => commands::query_forms::run(args),
        Command::List(args) => commands::list::run(args),
        Command::Doctor(args) => commands::doctor::run(args),
        Command::ValidateConfig(args) => commands::validate_config::run(args),
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
        Command::List(a) => a.common.threads,
        Command::Get(a) => a.common.threads,
        Command::Show(a) => a.common.threads,
        Command::Doctor(a) => a.common.threads,
        Command::Bench(args::BenchCommand::Retrieval(a)) => a.common.threads,
        Command::Enrich(a) => a.common.threads,
        Command::Check(a) => a.common.threads,
        Command::Mcp(a) => a.common.threads,
        Command::Render(a) => a.common.threads,
        Command::Init(_) | Command::Schema(_) | Command::ValidateConfig(_) => None,
    }
}

/// `--config FILE`: its directory becomes the command's `--root` (see `repo::choose_config`).
fn apply_config_option(command: &mut Command) -> Result<(), exit::UserError> {
    let to_write = matches!(command, Command::Init(_));
    let Some(common) = common_mut(command) else {
        return Ok(());
    };
    let Some(config) = common.config.clone() else {
        return Ok(());
    };
    let root = repo::choose_config(&config, common.root.as_deref(), to_write)?;
    common.root = Some(root);
    Ok(())
}

/// The options of the command that runs (a subcommand's own, where it has them).
fn common_mut(command: &mut Command) -> Option<&mut args::Common> {
    use args::{EnrichAction, McpAction};
    Some(match command {
        Command::Index(a) => &mut a.common,
        Command::Scan(a) => &mut a.common,
        Command::Init(a) => &mut a.common,
        Command::Search(a) => &mut a.common,
        Command::Query(a) => &mut a.common,
        Command::List(a) => &mut a.common,
        Command::Get(a) => &mut a.common,
        Command::Show(a) => &mut a.common,
        Command::Doctor(a) => &mut a.common,
        Command::ValidateConfig(a) => &mut a.common,
        Command::Bench(args::BenchCommand::Retrieval(a)) => &mut a.common,
        Command::Enrich(a) => match &mut a.action {
            Some(EnrichAction::List(list)) => &mut list.common,
            Some(EnrichAction::Approve(decide) | EnrichAction::Reject(decide)) => {
                &mut decide.common
            }
            Some(EnrichAction::Revalidate(r) | EnrichAction::Stats(r)) => &mut r.common,
            None => &mut a.common,
        },
        Command::Check(a) => &mut a.common,
        Command::Mcp(a) => match &mut a.action {
            Some(McpAction::Install(install)) => &mut install.common,
            None => &mut a.common,
        },
        Command::Render(a) => &mut a.common,
        Command::Schema(_) => return None,
    })
}
