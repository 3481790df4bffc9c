//! `worker-spawn-oracle`: the batch protocol on stdin/stdout, and the IPC
//! process modes.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use worker_spawn_oracle::batch;

/// Every case allocates and frees many small strings and objects; mimalloc
/// does that markedly faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Reads a JSON array of cases on stdin and prints the array of their
/// results exactly as the reference implementation's JSON.stringify would.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    mode: Option<Mode>,
}

#[derive(Subcommand)]
enum Mode {
    /// Run the batch protocol (the default): cases on stdin, results on stdout.
    Batch,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.mode {
        None | Some(Mode::Batch) => ExitCode::from(batch::run_stdio()),
    }
}
