//! Benchmark corpora for doc-bridge: a deterministic synthetic monorepo generator ([`synth`]) and
//! the SciFact-as-Markdown writer ([`scifact`]). The `doc-bridge-corpus` binary wraps both.

pub mod fsutil;
pub mod paths;
pub mod rng;
pub mod scifact;
pub mod synth;
mod words;
