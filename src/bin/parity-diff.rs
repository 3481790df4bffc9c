//! `parity-diff`: result arrays against goldens made by another
//! implementation. Flags here; the work is in `worker_spawn_oracle::diff`
//! and `worker_spawn_oracle::fuzz`.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::{Args, Parser, Subcommand, ValueEnum};
use worker_spawn_oracle::diff::accept::{accept_command, AcceptArgs};
use worker_spawn_oracle::diff::arrays::{compare_command, CompareArgs, InputError};
use worker_spawn_oracle::diff::bless::{bless_command, BlessArgs};
use worker_spawn_oracle::diff::corpus::{Corpus, Shard};
use worker_spawn_oracle::diff::delta::{delta_command, DeltaArgs};
use worker_spawn_oracle::diff::glob::Glob;
use worker_spawn_oracle::diff::merge::{merge_command, MergeArgs};
use worker_spawn_oracle::diff::oracle::{self, parse_size, Oracle, OracleOptions};
use worker_spawn_oracle::diff::pool;
use worker_spawn_oracle::diff::report::{Format, ReportOptions, DEFAULT_MAX_FAILURES};
use worker_spawn_oracle::diff::run::{run_command, RunArgs};
use worker_spawn_oracle::fuzz::command::{fuzz_command, parse_duration, FuzzArgs};

/// Compares result arrays with goldens, case by case: identical, same
/// value with different bytes (and why), or different (where, with both
/// values and a diff). With a ledger of known divergences, a case that
/// diverges as its entry says is accepted. Exit status: 0 all passed or
/// accepted, 1 any failure, 2 usage or input error.
#[derive(Parser)]
#[command(name = "parity-diff", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    report: ReportFlags,
}

/// How every subcommand reports.
#[derive(Args)]
#[command(next_help_heading = "Report")]
struct ReportFlags {
    /// Report format.
    #[arg(long, global = true, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// Print the closing summary line alone (human format).
    #[arg(long, short, global = true)]
    quiet: bool,
    /// Colour: auto means on a terminal unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Human and Markdown formats: how many groups of alike failures to
    /// print.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_FAILURES)]
    max_failures: usize,
    /// GitHub Actions annotations (workflow commands on stderr) for the
    /// first failure groups: auto means when GITHUB_ACTIONS=true.
    #[arg(long, global = true, value_enum, default_value_t = AnnotateArg::Auto)]
    annotate: AnnotateArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
    Junit,
    Markdown,
    Html,
}

#[derive(Clone, Copy, ValueEnum)]
enum AnnotateArg {
    Auto,
    Github,
    None,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

/// Where a corpus lives and which of its files are wanted (`run`, `bless`).
#[derive(Args)]
#[command(next_help_heading = "Corpus")]
struct CorpusFlags {
    /// The case files' directory.
    #[arg(long, default_value = "cases")]
    cases: PathBuf,
    /// The goldens' directory.
    #[arg(long, default_value = "golden")]
    golden: PathBuf,
    /// Only case files whose relative path matches this glob.
    #[arg(long, value_name = "GLOB")]
    filter: Option<String>,
}

/// Which cases are compared (`run`, `compare`, `accept`).
#[derive(Args)]
#[command(next_help_heading = "Comparison")]
struct SelectFlags {
    /// Only the cases of this op (repeat the flag for more): only they
    /// are compared (and, for `run` and `accept`, sent to the oracle).
    #[arg(long = "op", value_name = "OP")]
    ops: Vec<String>,
}

/// The divergence ledger (`run`, `compare`, `accept`).
#[derive(Args)]
#[command(next_help_heading = "Comparison")]
struct LedgerFlags {
    /// The ledger of known divergences (default: parity-ledger.txt beside
    /// the cases directory, when it exists; `compare` uses one only when
    /// given).
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
}

/// What counts as a pass (`run`, `compare`, `accept`).
#[derive(Args, Default)]
#[command(next_help_heading = "Comparison")]
struct VerdictFlags {
    /// Count "same value, different bytes" as a pass.
    #[arg(long)]
    semantic: bool,
}

/// How an oracle process is run and stopped (`run`, `bless`, `accept`, `fuzz`).
#[derive(Args)]
#[command(next_help_heading = "Oracle process")]
struct OracleFlags {
    /// Seconds one oracle run may take before it is stopped.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    timeout: f64,
    /// Seconds a stopped oracle command gets between SIGTERM and SIGKILL.
    #[arg(long, default_value_t = 2.0, value_name = "SECS")]
    kill_grace: f64,
    /// Most an oracle command may print on stdout (64M, 1G, bytes) before
    /// it is stopped [default: run, bless: 16 times the corpus's largest
    /// file, at least 64M; fuzz: 256M]
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_output: Option<u64>,
    /// How many oracle runs at once (default: the number of cores).
    /// Reports, goldens and findings are the same for every N.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
}

#[derive(Subcommand)]
enum Command {
    /// Compare one result array with one golden (either may be `-`).
    Compare {
        /// The results: a golden-format file or a compact array.
        results: String,
        /// The golden.
        golden: String,
        /// The case file: labels (`#index op name`), lines, identities
        /// and ops.
        #[arg(long)]
        cases: Option<String>,
        #[command(flatten)]
        select: SelectFlags,
        #[command(flatten)]
        ledger: LedgerFlags,
        #[command(flatten)]
        verdict: VerdictFlags,
    },
    /// Run an oracle over a corpus and compare with its goldens.
    Run {
        /// The oracle command (run with `sh -c`, cases on stdin);
        /// without it, this crate's own oracle runs in-process.
        #[arg(long)]
        oracle: Option<String>,
        #[command(flatten)]
        corpus: CorpusFlags,
        /// Only the K-th of N shards: N contiguous ranges of the selected
        /// cases, in corpus order, balanced by count (`merge` joins
        /// their JSON reports).
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        #[command(flatten)]
        select: SelectFlags,
        #[command(flatten)]
        ledger: LedgerFlags,
        #[command(flatten)]
        run: OracleFlags,
        #[command(flatten)]
        verdict: VerdictFlags,
    },
    /// Run the corpus and record every new or changed divergence in the
    /// ledger, with a reason; --prune removes entries that no longer
    /// apply.
    Accept {
        /// The oracle command (run with `sh -c`, cases on stdin);
        /// without it, this crate's own oracle runs in-process.
        #[arg(long)]
        oracle: Option<String>,
        /// Why these divergences are acceptable (required unless only
        /// pruning).
        #[arg(long, value_name = "TEXT")]
        reason: Option<String>,
        /// Record them as known bugs to fix, not deliberate differences.
        #[arg(long)]
        triaged: bool,
        /// Where a triaged bug is tracked.
        #[arg(long, value_name = "URL", requires = "triaged")]
        link: Option<String>,
        /// Remove entries of cases that pass now (stale) and, on a full
        /// run, of cases that are gone (orphaned).
        #[arg(long)]
        prune: bool,
        /// Write even when the CI environment variable is set.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        corpus: CorpusFlags,
        #[command(flatten)]
        select: SelectFlags,
        #[command(flatten)]
        ledger: LedgerFlags,
        #[command(flatten)]
        run: OracleFlags,
        #[command(flatten)]
        verdict: VerdictFlags,
    },
    /// Merge the JSON reports of `run --shard K/N`, every K, into the
    /// report of one whole run (any format), with the checks only a
    /// whole run makes: orphaned goldens and ledger entries.
    Merge {
        /// The shards' JSON reports, in any order.
        #[arg(required = true, value_name = "REPORT")]
        reports: Vec<PathBuf>,
    },
    /// What changed between two runs' JSON reports, case by case:
    /// newly failing, failing differently, newly passing, added, removed,
    /// and each op's change in pass count (human, or markdown for a pull
    /// request comment). Exit status 1 when anything newly fails.
    Delta {
        /// The report of the run before (the base branch's, say).
        base: PathBuf,
        /// The report of the run after.
        head: PathBuf,
    },
    /// Write goldens from a reference oracle.
    Bless {
        /// The reference oracle command (run with `sh -c`).
        #[arg(long)]
        reference: String,
        /// Write nothing; exit 1 when any golden would change or is orphaned.
        #[arg(long)]
        check: bool,
        /// Write even when the CI environment variable is set.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        corpus: CorpusFlags,
        #[command(flatten)]
        run: OracleFlags,
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
        #[command(flatten)]
        run: OracleFlags,
    },
}

impl OracleFlags {
    fn jobs(&self) -> usize {
        self.jobs
            .map_or_else(pool::default_jobs, |jobs| jobs as usize)
    }

    /// The limits, with `--max-output`'s default for a corpus, or for fuzz
    /// without one.
    fn limits(&self, corpus: Option<&CorpusFlags>) -> anyhow::Result<OracleOptions> {
        let timeout = match Duration::try_from_secs_f64(self.timeout) {
            Ok(duration) if !duration.is_zero() => duration,
            _ => bail!(
                "--timeout must be a positive number of seconds, not {}",
                self.timeout
            ),
        };
        let Ok(kill_grace) = Duration::try_from_secs_f64(self.kill_grace) else {
            bail!(
                "--kill-grace must be a number of seconds, 0 or more, not {}",
                self.kill_grace
            );
        };
        let max_output = match (self.max_output, corpus) {
            (Some(size), _) => size,
            (None, Some(corpus)) => oracle::corpus_max_output(&[&corpus.cases, &corpus.golden]),
            (None, None) => oracle::FUZZ_MAX_OUTPUT,
        };
        Ok(OracleOptions {
            timeout,
            kill_grace,
            max_output,
        })
    }
}

impl CorpusFlags {
    fn corpus(self, shard: Option<Shard>) -> anyhow::Result<Corpus> {
        let filter = match self.filter {
            Some(pattern) => Some(
                Glob::new(&pattern)
                    .map_err(InputError::new)
                    .context("--filter")?,
            ),
            None => None,
        };
        Ok(Corpus {
            cases: self.cases,
            golden: self.golden,
            filter,
            shard,
        })
    }
}

impl ReportFlags {
    fn format(&self) -> Format {
        match self.format {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Junit => Format::Junit,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Html => Format::Html,
        }
    }

    fn annotate(&self) -> bool {
        match self.annotate {
            AnnotateArg::Github => true,
            AnnotateArg::None => false,
            AnnotateArg::Auto => std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
        }
    }

    fn color(&self) -> bool {
        match self.color {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => {
                io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }

    fn options(&self, verdict: &VerdictFlags) -> ReportOptions {
        ReportOptions {
            format: self.format(),
            quiet: self.quiet,
            color: self.color(),
            semantic: verdict.semantic,
            max_failures: self.max_failures,
            annotate: self.annotate(),
            // Written only when GITHUB_STEP_SUMMARY names a file.
            step_summary: true,
        }
    }

    /// Refuses `--format junit` for a command without test cases to report.
    fn no_junit(&self, command: &str) -> anyhow::Result<()> {
        if matches!(self.format, FormatArg::Junit) {
            bail!("{command} reports in human, json, markdown or html format only");
        }
        Ok(())
    }

    /// Refuses the formats of case reports for a command without one.
    fn human_or_json(&self, command: &str) -> anyhow::Result<()> {
        if !matches!(self.format, FormatArg::Human | FormatArg::Json) {
            bail!("{command} reports in human or json format only");
        }
        Ok(())
    }
}

fn main_inner(cli: Cli) -> anyhow::Result<u8> {
    let report = &cli.report;
    let stdout = io::BufWriter::new(io::stdout().lock());
    match cli.command {
        Command::Compare {
            results,
            golden,
            cases,
            select,
            ledger,
            verdict,
        } => {
            let args = CompareArgs {
                results,
                golden,
                cases,
                ops: select.ops,
                ledger: ledger.ledger,
                report: report.options(&verdict),
            };
            Ok(compare_command(&args, stdout)?.exit_code())
        }
        Command::Run {
            oracle,
            corpus,
            shard,
            select,
            ledger,
            run,
            verdict,
        } => {
            let limits = run.limits(Some(&corpus))?;
            let args = RunArgs {
                oracle: oracle.map_or(Oracle::InProcess, Oracle::Command),
                corpus: corpus.corpus(shard)?,
                ops: select.ops,
                ledger: ledger.ledger,
                limits,
                jobs: run.jobs(),
                report: report.options(&verdict),
            };
            Ok(run_command(&args, stdout)?.exit_code())
        }
        Command::Accept {
            oracle,
            reason,
            triaged,
            link,
            prune,
            force,
            corpus,
            select,
            ledger,
            run,
            verdict,
        } => {
            report.no_junit("accept")?;
            let limits = run.limits(Some(&corpus))?;
            let args = AcceptArgs {
                run: RunArgs {
                    oracle: oracle.map_or(Oracle::InProcess, Oracle::Command),
                    corpus: corpus.corpus(None)?,
                    ops: select.ops,
                    ledger: ledger.ledger,
                    limits,
                    jobs: run.jobs(),
                    report: report.options(&verdict),
                },
                reason,
                triaged,
                link,
                prune,
                force,
            };
            let in_ci = std::env::var_os("CI").is_some();
            Ok(accept_command(&args, in_ci, stdout)?)
        }
        Command::Merge { reports } => {
            let args = MergeArgs {
                reports,
                report: report.options(&VerdictFlags::default()),
            };
            Ok(merge_command(&args, stdout)?.exit_code())
        }
        Command::Delta { base, head } => {
            let markdown = match report.format {
                FormatArg::Human => false,
                FormatArg::Markdown => true,
                _ => bail!("delta reports in human or markdown format only"),
            };
            let args = DeltaArgs {
                base,
                head,
                markdown,
                quiet: report.quiet,
            };
            Ok(delta_command(&args, stdout)?)
        }
        Command::Bless {
            reference,
            corpus,
            check,
            force,
            run,
        } => {
            report.human_or_json("bless")?;
            let limits = run.limits(Some(&corpus))?;
            let args = BlessArgs {
                reference,
                corpus: corpus.corpus(None)?,
                check,
                force,
                limits,
                jobs: run.jobs(),
                format: report.format(),
                quiet: report.quiet,
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
            run,
        } => {
            report.human_or_json("fuzz")?;
            let args = FuzzArgs {
                left,
                right,
                ops,
                seed,
                count,
                duration,
                batch_size,
                out_dir: out,
                limits: run.limits(None)?,
                jobs: run.jobs(),
                json: matches!(report.format, FormatArg::Json),
                quiet: report.quiet,
            };
            Ok(fuzz_command(&args, stdout, &mut io::stderr())?)
        }
    }
}

/// Everything runs on a thread with a stack of its own: elements nest
/// up to 4096 levels (the batch's limit). Measured: reading, comparing
/// and reporting the deepest elements (`run`, `compare`, `bless`, every
/// format) needs 48 KiB in a debug build; our batch needs 4 MiB for its
/// values at that depth, and this leaves the report that much room and
/// more. The whole reservation counts against `ulimit -v`, under 256M of
/// which parity-diff must run with our batch's own 64 MiB thread beside.
const STACK_BYTES: usize = 16 * 1024 * 1024;

/// Whether the report's reader went away (`| head`): nothing worth saying.
fn output_closed(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<InputError>()
            .is_some_and(|input| input.output_closed)
            || cause
                .downcast_ref::<io::Error>()
                .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    oracle::limit_malloc_arenas();
    let cli = Cli::parse();
    // Kept to the end: dropping it waits for a stop on a signal to finish.
    let _signals = oracle::install_signal_handlers()
        .map_err(|error| eprintln!("parity-diff: cannot watch for signals: {error}"))
        .ok();
    let worker = std::thread::Builder::new()
        .name("parity-diff".into())
        .stack_size(STACK_BYTES)
        .spawn(move || main_inner(cli));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(Ok(code))) => ExitCode::from(code),
        // Like any filter, stop quietly when the reader goes away
        // (`| head`). SIGPIPE stays ignored, as Rust sets it: an oracle
        // that exits without reading its input must not kill us.
        Ok(Ok(Err(error))) if output_closed(&error) => ExitCode::SUCCESS,
        Ok(Ok(Err(error))) => {
            eprintln!("parity-diff: {error:#}");
            ExitCode::from(2)
        }
        Ok(Err(_)) => {
            eprintln!("parity-diff: internal error (a panic; please report it)");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("parity-diff: cannot start: {error}");
            ExitCode::from(2)
        }
    }
}
