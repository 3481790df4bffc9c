//! `parity-diff`: result arrays against goldens made by another
//! implementation. Flags here; the work is in `worker_spawn_oracle::diff`.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use worker_spawn_oracle::diff::arrays::{compare_command, CompareArgs, InputError};
use worker_spawn_oracle::diff::bless::{bless_command, BlessArgs};
use worker_spawn_oracle::diff::corpus::{run_command, Corpus, RunArgs, Shard};
use worker_spawn_oracle::diff::glob::Glob;
use worker_spawn_oracle::diff::oracle::Oracle;
use worker_spawn_oracle::diff::report::{Format, ReportOptions};

/// Compares result arrays with goldens, case by case: identical, same
/// value with different bytes (and why), or different (where, with both
/// values and a diff). Exit status: 0 all passed, 1 any divergence,
/// 2 usage or input error.
#[derive(Parser)]
#[command(name = "parity-diff", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Report format.
    #[arg(long, global = true, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// Print the closing summary line alone (human format).
    #[arg(long, short, global = true)]
    quiet: bool,
    /// Colour: auto means on a terminal unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
    Junit,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Compare one result array with one golden (either may be `-`).
    Compare {
        /// The results: a golden-format file or a compact array.
        results: String,
        /// The golden.
        golden: String,
        /// The case file, to label cases `#index op name`.
        #[arg(long)]
        cases: Option<String>,
        /// Count "same value, different bytes" as a pass.
        #[arg(long)]
        semantic: bool,
    },
    /// Run an oracle over a corpus and compare with its goldens.
    Run {
        /// The oracle command (run with `sh -c`, cases on stdin);
        /// without it, this crate's own oracle runs in-process.
        #[arg(long)]
        oracle: Option<String>,
        /// The case files' directory.
        #[arg(long, default_value = "cases")]
        cases: PathBuf,
        /// The goldens' directory.
        #[arg(long, default_value = "golden")]
        golden: PathBuf,
        /// Only case files whose relative path matches this glob.
        #[arg(long)]
        filter: Option<String>,
        /// Only the K-th of N shards of the sorted file list.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// Seconds one oracle run may take before it is killed.
        #[arg(long, default_value_t = 60.0, value_name = "SECS")]
        timeout: f64,
        /// Count "same value, different bytes" as a pass.
        #[arg(long)]
        semantic: bool,
    },
    /// Write goldens from a reference oracle.
    Bless {
        /// The reference oracle command (run with `sh -c`).
        #[arg(long)]
        reference: String,
        /// The case files' directory.
        #[arg(long, default_value = "cases")]
        cases: PathBuf,
        /// The goldens' directory.
        #[arg(long, default_value = "golden")]
        golden: PathBuf,
        /// Only case files whose relative path matches this glob.
        #[arg(long, value_name = "PATTERN")]
        filter: Option<String>,
        /// Write nothing; exit 1 when any golden would change or is orphaned.
        #[arg(long)]
        check: bool,
        /// Write even when the CI environment variable is set.
        #[arg(long)]
        force: bool,
        /// Seconds one reference run may take before it is killed.
        #[arg(long, default_value_t = 60.0, value_name = "SECS")]
        timeout: f64,
    },
}

fn timeout(seconds: f64) -> Result<Duration, InputError> {
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|duration| !duration.is_zero())
        .ok_or_else(|| {
            InputError::new(format!(
                "--timeout must be a positive number of seconds, not {seconds}"
            ))
        })
}

fn filter(pattern: Option<String>) -> Result<Option<Glob>, InputError> {
    pattern
        .map(|p| Glob::new(&p).map_err(InputError::new))
        .transpose()
}

fn main_inner(cli: Cli) -> Result<u8, InputError> {
    let color = match cli.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty())
        }
    };
    let format = match cli.format {
        FormatArg::Human => Format::Human,
        FormatArg::Json => Format::Json,
        FormatArg::Junit => Format::Junit,
    };
    let report = |semantic| ReportOptions {
        format,
        quiet: cli.quiet,
        color,
        semantic,
    };
    let stdout = io::BufWriter::new(io::stdout().lock());
    match cli.command {
        Command::Compare {
            results,
            golden,
            cases,
            semantic,
        } => {
            let args = CompareArgs {
                results,
                golden,
                cases,
                report: report(semantic),
            };
            Ok(compare_command(&args, stdout)?.exit_code())
        }
        Command::Run {
            oracle,
            cases,
            golden,
            filter: pattern,
            shard,
            timeout: seconds,
            semantic,
        } => {
            let args = RunArgs {
                oracle: oracle.map_or(Oracle::InProcess, Oracle::Command),
                corpus: Corpus {
                    cases,
                    golden,
                    filter: filter(pattern)?,
                    shard,
                },
                timeout: timeout(seconds)?,
                report: report(semantic),
            };
            Ok(run_command(&args, stdout)?.exit_code())
        }
        Command::Bless {
            reference,
            cases,
            golden,
            filter: pattern,
            check,
            force,
            timeout: seconds,
        } => {
            if matches!(format, Format::Junit) {
                return Err(InputError::new(
                    "bless reports in human or json format only",
                ));
            }
            let args = BlessArgs {
                reference,
                corpus: Corpus {
                    cases,
                    golden,
                    filter: filter(pattern)?,
                    shard: None,
                },
                check,
                force,
                timeout: timeout(seconds)?,
                format,
                quiet: cli.quiet,
            };
            let in_ci = std::env::var_os("CI").is_some();
            Ok(bless_command(&args, in_ci, stdout)?.exit_code())
        }
    }
}

/// Everything runs on a thread with a large stack: elements nest
/// thousands of levels deep, and reading, printing and dropping them
/// recurses.
const STACK_BYTES: usize = 256 * 1024 * 1024;

fn main() -> ExitCode {
    // Like any filter, stop quietly when the reader goes away (`| head`).
    // SAFETY: restoring the default action of SIGPIPE before any thread
    // starts; no handler of ours is involved.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let worker = std::thread::Builder::new()
        .name("parity-diff".into())
        .stack_size(STACK_BYTES)
        .spawn(move || main_inner(cli));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(Ok(code))) => ExitCode::from(code),
        Ok(Ok(Err(error))) => {
            eprintln!("parity-diff: {error}");
            ExitCode::from(2)
        }
        _ => {
            eprintln!("parity-diff: internal error");
            ExitCode::from(2)
        }
    }
}
