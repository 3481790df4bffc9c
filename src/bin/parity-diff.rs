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
use worker_spawn_oracle::fuzz::command::{fuzz_command, parse_duration, FuzzArgs};

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
    /// Generate cases, run them through two oracles side by side, and
    /// minimize and keep every divergence.
    Fuzz {
        /// One implementation (run with `sh -c`, cases on stdin).
        #[arg(long)]
        left: String,
        /// The other; without it, this crate's own oracle in-process.
        #[arg(long)]
        right: Option<String>,
        /// Only these ops (repeat the flag; default: every op).
        #[arg(long = "op", value_name = "OP")]
        ops: Vec<String>,
        /// The seed (default: a fresh one, printed so a finding can be replayed).
        #[arg(long)]
        seed: Option<u64>,
        /// Stop after this many cases (default 10000 without --duration).
        #[arg(long, conflicts_with = "duration")]
        count: Option<usize>,
        /// Stop after this long: 30s, 10m, 2h.
        #[arg(long, value_parser = parse_duration)]
        duration: Option<Duration>,
        /// Where minimized divergences are written as case files.
        #[arg(long, default_value = "cases/regressions")]
        out: PathBuf,
        /// Cases per batch.
        #[arg(long, default_value_t = 1000)]
        batch_size: usize,
        /// Seconds one oracle run may take before it is killed.
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

/// Refuses `--format junit` for a command without test cases to report.
fn no_junit(format: Format, command: &str) -> Result<(), InputError> {
    if matches!(format, Format::Junit) {
        return Err(InputError::new(format!(
            "{command} reports in human or json format only"
        )));
    }
    Ok(())
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
            io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
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
            no_junit(format, "bless")?;
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
        Command::Fuzz {
            left,
            right,
            ops,
            seed,
            count,
            duration,
            out,
            batch_size,
            timeout: seconds,
        } => {
            no_junit(format, "fuzz")?;
            let args = FuzzArgs {
                left,
                right,
                ops,
                seed,
                count,
                duration,
                batch_size,
                out_dir: out,
                timeout: timeout(seconds)?,
                json: matches!(format, Format::Json),
                quiet: cli.quiet,
            };
            fuzz_command(&args, stdout, &mut io::stderr())
        }
    }
}

/// Everything runs on a thread with a large stack: elements nest
/// thousands of levels deep, and reading, printing and dropping them
/// recurses.
const STACK_BYTES: usize = 256 * 1024 * 1024;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let worker = std::thread::Builder::new()
        .name("parity-diff".into())
        .stack_size(STACK_BYTES)
        .spawn(move || main_inner(cli));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(Ok(code))) => ExitCode::from(code),
        // Like any filter, stop quietly when the reader goes away
        // (`| head`). SIGPIPE stays ignored, as Rust sets it: an oracle
        // that exits without reading its input must not kill us.
        Ok(Ok(Err(error))) if error.output_closed => ExitCode::SUCCESS,
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
