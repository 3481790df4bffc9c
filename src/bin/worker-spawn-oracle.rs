//! `worker-spawn-oracle`: the batch protocol on stdin/stdout, the IPC
//! process modes, and the case generators `parity-diff fuzz --generator`
//! runs.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use worker_spawn_oracle::batch;
use worker_spawn_oracle::ipc::process::{parse_timeout, run_child, run_parent, ParentOptions};

/// The oracle's allocator: mimalloc for the many small blocks, large
/// blocks mapped from the kernel (see [`batch::allocator`]).
#[global_allocator]
static ALLOCATOR: batch::allocator::LargeMapped = batch::allocator::LargeMapped;

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
    /// The worker half over this process's Node IPC channel (NODE_CHANNEL_FD).
    IpcChild {
        /// The thread id (required, unused).
        thread_id: String,
    },
    /// Spawn a child with a Node IPC channel and run the cross-implementation
    /// choreography against it.
    IpcParent {
        /// Bound on the whole run, in seconds.
        #[arg(long, default_value = "10", value_parser = parse_timeout)]
        timeout: Duration,
        /// The child's command line; a first argument ending in .mjs, .js
        /// or .cjs runs under node. Everything from here on is the child's.
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<OsString>,
    },
    /// Print a JSON array of generated cases of one op, the same for the
    /// same seed: the generator protocol of `parity-diff fuzz --generator`.
    Generate {
        /// The op.
        #[arg(long)]
        op: String,
        /// The seed.
        #[arg(long)]
        seed: u64,
        /// How many cases.
        #[arg(long)]
        count: usize,
    },
}

/// Prints `count` cases of `op`; for an op without a generator, `[]` (the
/// protocol's "no cases of this op"), and a note on stderr.
fn generate(op: &str, seed: u64, count: usize) -> u8 {
    let cases = worker_spawn_oracle::generate::generate(op, seed, count).unwrap_or_else(|why| {
        eprintln!("worker-spawn-oracle: generate: {why}: no cases");
        b"[]\n".to_vec()
    });
    match std::io::stdout().lock().write_all(&cases) {
        Ok(()) => 0,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(error) => {
            eprintln!("worker-spawn-oracle: generate: cannot write the cases: {error}");
            1
        }
    }
}

/// Runs before Rust's runtime, which would put /dev/null on a closed
/// stdout: a batch whose stdout was closed is refused rather than run
/// for nothing.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_STDOUT: extern "C" fn() = {
    extern "C" fn note() {
        batch::note_stdout_at_start();
    }
    note
};

fn main() -> ExitCode {
    sys_unix::limit_malloc_arenas();
    let cli = Cli::parse();
    ExitCode::from(match cli.mode {
        None | Some(Mode::Batch) => batch::run_stdio(),
        Some(Mode::IpcChild { thread_id }) => run_child(&thread_id),
        Some(Mode::IpcParent { timeout, command }) => {
            run_parent(&ParentOptions { timeout, command })
        }
        Some(Mode::Generate { op, seed, count }) => generate(&op, seed, count),
    })
}
