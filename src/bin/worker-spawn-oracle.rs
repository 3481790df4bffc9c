//! `worker-spawn-oracle`: the batch protocol on stdin/stdout, and the IPC
//! process modes.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use worker_spawn_oracle::batch::{self, BatchError};

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

/// The batch runs on a thread with a large stack: values nest up to
/// `MAX_BATCH_DEPTH` levels, and printing and dropping them recurses.
const BATCH_STACK_BYTES: usize = 256 * 1024 * 1024;

fn run_batch() -> ExitCode {
    let worker = std::thread::Builder::new()
        .name("batch".into())
        .stack_size(BATCH_STACK_BYTES)
        .spawn(|| {
            let stdin = io::stdin().lock();
            let mut stdout = io::stdout().lock();
            batch::run_batch(stdin, &mut stdout)
        })
        .expect("the batch thread starts");
    match worker.join() {
        Ok(Ok(_)) => ExitCode::SUCCESS,
        Ok(Err(BatchError::Refused(refusal))) => {
            eprintln!("worker-spawn-oracle: {refusal}");
            ExitCode::from(2)
        }
        // A reader that went away (`| head`) is not an error worth a word.
        Ok(Err(BatchError::Output(error))) if error.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Ok(Err(BatchError::Output(error))) => {
            let _ = writeln!(
                io::stderr(),
                "worker-spawn-oracle: cannot write results: {error}"
            );
            ExitCode::FAILURE
        }
        Err(_) => ExitCode::FAILURE,
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.mode {
        None | Some(Mode::Batch) => run_batch(),
    }
}
