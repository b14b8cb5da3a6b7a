//! The `doc-bridge` binary: parses arguments and hands over to the library.

fn main() -> std::process::ExitCode {
    doc_bridge::run(std::env::args_os())
}
