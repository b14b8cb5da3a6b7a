//! The `doc-bridge` binary: everything lives in the library; this file only picks the allocator.

// Indexing allocates and frees millions of small strings and JSON values across rayon workers;
// glibc malloc spent about a quarter of a cold index in its free lists (perf on synth 10,000).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    doc_bridge::run(std::env::args_os())
}
