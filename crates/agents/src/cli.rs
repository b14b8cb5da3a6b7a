//! A local command speaking `doc-bridge.registry-agent.v2` on stdin/stdout: started without a
//! shell, in the repository root, with a deadline and byte limits; stderr is bounded and dropped.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use doc_bridge_enrich::agent::{
    Agent, AgentFailure, AgentIdentity, AgentRequest, RawFailure, Traffic, TrafficMeter,
    parse_answer,
};
use wait_timeout::ChildExt;

/// Most bytes of stderr kept in memory (and then dropped: it never reaches an artifact).
const STDERR_LIMIT: u64 = 64 * 1024;

/// A command-line agent.
#[derive(Debug, Clone)]
pub struct CliAgent {
    /// Who it is.
    pub identity: AgentIdentity,
    /// The program (looked up on `PATH` when not a path).
    pub command: String,
    /// Its arguments (no shell: no expansion, no quoting).
    pub args: Vec<String>,
    /// The working directory: the repository root.
    pub cwd: PathBuf,
    /// Deadline per call.
    pub timeout: Duration,
    /// Largest request, in bytes.
    pub max_input_bytes: usize,
    /// Largest answer, in bytes.
    pub max_output_bytes: usize,
    /// Bytes written to the command's stdin and read from its stdout, over every call.
    pub meter: TrafficMeter,
}

impl Agent for CliAgent {
    fn identity(&self) -> AgentIdentity {
        self.identity.clone()
    }

    fn call(&self, request: &AgentRequest) -> Result<Vec<serde_json::Value>, AgentFailure> {
        self.call_with_raw(request).map_err(|f| f.failure)
    }

    fn traffic(&self) -> Traffic {
        self.meter.total()
    }

    fn call_with_raw(&self, request: &AgentRequest) -> Result<Vec<serde_json::Value>, RawFailure> {
        let bare = |failure| RawFailure { failure, raw: None };
        let input = serde_json::to_vec(request).map_err(|_| bare(AgentFailure::InvalidJson))?;
        if input.len() > self.max_input_bytes {
            return Err(bare(AgentFailure::InputTooLarge));
        }
        let mut child = Command::new(&self.command)
            .args(&self.args)
            .current_dir(&self.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|_| bare(AgentFailure::Spawn))?;
        // Feed stdin and drain stdout/stderr on threads, so a chatty or stubborn child cannot
        // deadlock us; each reader stops one byte past its limit.
        let stdin = child.stdin.take();
        // What the child took of the request, counted as it is written.
        let written = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let progress = std::sync::Arc::clone(&written);
        let (finished, writer_done) = std::sync::mpsc::channel::<()>();
        let writer = std::thread::spawn(move || {
            if let Some(mut stdin) = stdin {
                // A child that exits without reading is not our failure to report here.
                let mut rest: &[u8] = &input;
                while !rest.is_empty() {
                    match stdin.write(rest) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            progress.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                            rest = &rest[n..];
                        }
                    }
                }
            }
            let _ = finished.send(());
        });
        let count_written = || {
            self.meter
                .sent(written.load(std::sync::atomic::Ordering::Relaxed))
        };
        let limit = self.max_output_bytes as u64 + 1;
        let stdout = child.stdout.take();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(stdout) = stdout {
                let _ = stdout.take(limit).read_to_end(&mut out);
            }
            let _ = sender.send(out);
        });
        let stderr = child.stderr.take();
        let drain = std::thread::spawn(move || {
            if let Some(stderr) = stderr {
                let _ = std::io::copy(&mut stderr.take(STDERR_LIMIT), &mut std::io::sink());
            }
        });
        let status = match child.wait_timeout(self.timeout) {
            Ok(Some(status)) => status,
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                // The I/O threads end when the pipes close; never wait on them here (a forked
                // grandchild could hold a pipe open).
                drop((writer, drain));
                count_written();
                return Err(bare(AgentFailure::Timeout));
            }
        };
        // The child exited: its stdin is closed, so the writer is done (or about to be, past a
        // write the closed pipe refuses); it is never waited on for long.
        let _ = writer_done.recv_timeout(Duration::from_secs(2));
        count_written();
        drop((writer, drain));
        // The child exited; its output is complete unless something it forked holds the pipe:
        // give that a short grace period, then treat it as a timeout.
        let output = receiver
            .recv_timeout(Duration::from_secs(2))
            .map_err(|_| bare(AgentFailure::Timeout))?;
        self.meter.received(output.len());
        // Too much output first: a child cut off mid-write dies of the closed pipe, and that exit
        // status is a consequence, not the cause.
        if output.len() > self.max_output_bytes {
            return Err(bare(AgentFailure::OutputTooLarge));
        }
        if !status.success() {
            return Err(RawFailure {
                failure: AgentFailure::Exit(status.code()),
                raw: Some(output),
            });
        }
        parse_answer(&output).map_err(|failure| RawFailure {
            failure,
            raw: Some(output),
        })
    }
}
