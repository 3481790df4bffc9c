//! `parity-diff`: result arrays against goldens made by another
//! implementation. Flags here; the work is in the `parity_diff` library.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use parity_diff::command::arrays::{compare_command, CompareArgs, InputError};
use parity_diff::command::delta::{delta_command, DeltaArgs};
use parity_diff::command::merge::{merge_command, MergeArgs};
use parity_diff::command::run::run_command;
use parity_diff::config::{Framing, Suite};
use parity_diff::corpus::glob::Glob;
use parity_diff::corpus::rerun::Rerun;
use parity_diff::corpus::timings::Timings;
use parity_diff::corpus::{Corpus, Shard};
use parity_diff::coverage::command::{cmin_command, coverage_command, CminArgs, CoverageArgs};
use parity_diff::coverage::measure::Selection;
use parity_diff::exec::oracle::{self, parse_size, Oracle, OracleOptions};
use parity_diff::exec::pool;
use parity_diff::fuzz::command::{fuzz_command, parse_duration, FuzzArgs};
use parity_diff::outside;
use parity_diff::report::{formats, Format, ReportOptions, DEFAULT_MAX_FAILURES};

mod did_you_mean;
mod each_suite;
mod project;
mod review;
mod settle;

use each_suite::{several_suites_print_text, Accept, Bless};
use parity_diff::command::suites::{run_suites, SuiteRun};
use project::{one_suite_only, ConfigFlags, GivenPlaces, Places, Project};
use settle::{grow_corpus, lone_suite, promote_findings, Given, Growing};

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
    #[command(flatten)]
    project: ConfigFlags,
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
    /// Colour: auto means on a terminal whose TERM is set and not dumb,
    /// unless NO_COLOR is set or CLICOLOR=0; CLICOLOR_FORCE turns it on
    /// anywhere (NO_COLOR still wins).
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
#[derive(Args, Clone)]
#[command(next_help_heading = "Corpus")]
struct CorpusFlags {
    /// The case files' directory [default: the suite's `cases`, else
    /// cases].
    #[arg(long, value_name = "DIR")]
    cases: Option<PathBuf>,
    /// The goldens' directory [default: the suite's `golden`, else golden
    /// beside the cases directory].
    #[arg(long, value_name = "DIR")]
    golden: Option<PathBuf>,
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

/// A rerun of what a report says failed (`run`, `accept`).
#[derive(Args)]
#[command(next_help_heading = "Comparison")]
struct RerunFlags {
    /// Only the cases this JSON report (of run, merge or accept) says
    /// neither passed nor were accepted, by identity, and the files it
    /// could not compare as a whole; with --filter, --op or --shard, the
    /// cases that both select.
    #[arg(long, value_name = "REPORT")]
    rerun_failed: Option<PathBuf>,
}

impl RerunFlags {
    /// The report read; `project` has been entered (the path is spelled
    /// from where the run works).
    fn read(&self, project: &Project) -> anyhow::Result<Option<Rerun>> {
        let Some(path) = &self.rerun_failed else {
            return Ok(None);
        };
        let name = path.display().to_string();
        Ok(Some(Rerun::read(&project.given(path.clone()), &name)?))
    }
}

/// The divergence ledger (`run`, `compare`, `accept`).
#[derive(Args)]
#[command(next_help_heading = "Comparison")]
struct LedgerFlags {
    /// The ledger of known divergences (default: the suite's `ledger`,
    /// else parity-ledger.txt beside the cases directory, when it exists;
    /// `compare` uses one only when given, or with --suite).
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

/// `--repeat N` (`run`, `accept`, `bless`).
#[derive(Args, Clone, Copy, Default)]
struct RepeatFlag {
    /// Run each case file N times; a case whose result bytes differ
    /// between runs is `nondeterministic` [default: the suite's
    /// `repeat`, else 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    repeat: Option<u32>,
}

/// `--framing exact|json` (`run`, `accept`, `review`).
#[derive(Args, Clone, Copy, Default)]
struct FramingFlag {
    /// How the bytes around the results are checked: `exact` (what
    /// JSON.stringify prints: no white space, no trailing newline) or
    /// `json` (any JSON array) [default: the suite's `framing`, else
    /// exact].
    #[arg(long, value_name = "exact|json", value_parser = parse_framing)]
    framing: Option<Framing>,
}

/// `--framing exact|json`.
fn parse_framing(text: &str) -> Result<Framing, String> {
    match text {
        "exact" => Ok(Framing::Exact),
        "json" => Ok(Framing::Json),
        other => Err(format!("`exact` or `json`, not {other:?}")),
    }
}

/// How an oracle process is run and stopped (`run`, `bless`, `accept`, `fuzz`).
#[derive(Args, Clone)]
#[command(next_help_heading = "Oracle process")]
struct OracleFlags {
    /// Seconds one oracle run may take before it is stopped [default:
    /// the suite's `timeout`, else 60].
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Seconds a stopped oracle command gets between SIGTERM and SIGKILL
    /// [default: the suite's `kill-grace`, else 2].
    #[arg(long, value_name = "SECS")]
    kill_grace: Option<f64>,
    /// Most an oracle command may print on stdout (64M, 1G, bytes) before
    /// it is stopped [default: run, bless: 16 times the corpus's largest
    /// file, at least 64M; fuzz: 256M]
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_output: Option<u64>,
    /// How many oracle runs at once (default: the suite's `jobs`, else the
    /// number of cores).
    /// Reports, goldens and findings are the same for every N.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
}

/// Which cases `coverage` and `cmin` run, and through what.
#[derive(Args)]
#[command(next_help_heading = "Corpus")]
struct CoverageCorpusFlags {
    /// The reference: a Node program (run with `sh -c`, a case array on
    /// stdin), run once per case with NODE_V8_COVERAGE set.
    #[arg(long)]
    reference: String,
    /// The case files' directory.
    #[arg(long, default_value = "cases")]
    cases: PathBuf,
    /// Only case files whose relative path matches this glob.
    #[arg(long, value_name = "GLOB")]
    filter: Option<String>,
    /// Only the cases of this op (repeat the flag for more).
    #[arg(long = "op", value_name = "OP")]
    ops: Vec<String>,
}

impl CoverageCorpusFlags {
    fn selection(self, run: &OracleFlags) -> anyhow::Result<Selection> {
        // No goldens or ledger: coverage reads the cases alone, as given
        // (parity.toml's suites are not read for it).
        let places = Places {
            cases: self.cases.clone(),
            golden: PathBuf::new(),
            ledger: None,
            ledger_default: PathBuf::new(),
        };
        let corpus = CorpusFlags {
            cases: Some(self.cases),
            golden: None,
            filter: self.filter,
        };
        Ok(Selection {
            limits: run.limits(Some(&places))?,
            corpus: corpus.corpus(&places, None)?,
            reference: self.reference,
            ops: self.ops,
            jobs: run.jobs(),
        })
    }
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
    #[command(override_usage = "parity-diff run [--oracle <CMD>] [OPTIONS]")]
    Run {
        /// The oracle command (run with `sh -c`, cases on stdin) [default:
        /// the suite's `oracle`, else the worker-spawn-oracle binary
        /// beside parity-diff].
        #[arg(long, value_name = "CMD")]
        oracle: Option<String>,
        #[command(flatten)]
        corpus: CorpusFlags,
        /// Only the K-th of N shards: N contiguous ranges of the selected
        /// cases, in corpus order, balanced by count, or by time with
        /// --timings (`merge` joins their JSON reports).
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// Balance --shard by the oracle times a timings file holds
        /// (`run --record-timings`); repeat the flag to add up several
        /// (each shard's, say).
        #[arg(long, value_name = "FILE", requires = "shard")]
        timings: Vec<PathBuf>,
        /// Write each case file's oracle time (and how many cases it was
        /// sent) to FILE, for --timings. Never in the report.
        #[arg(long, value_name = "FILE")]
        record_timings: Option<PathBuf>,
        #[command(flatten)]
        select: SelectFlags,
        #[command(flatten)]
        rerun: RerunFlags,
        #[command(flatten)]
        ledger: LedgerFlags,
        #[command(flatten)]
        run: OracleFlags,
        #[command(flatten)]
        verdict: VerdictFlags,
        #[command(flatten)]
        framing: FramingFlag,
        #[command(flatten)]
        repeat: RepeatFlag,
    },
    /// Run the corpus and record every new or changed divergence in the
    /// ledger, with a reason; --prune removes entries that no longer
    /// apply.
    #[command(override_usage = "parity-diff accept [--oracle <CMD>] [--reason <TEXT>] [OPTIONS]")]
    Accept {
        /// The oracle command (run with `sh -c`, cases on stdin) [default:
        /// the suite's `oracle`, else the worker-spawn-oracle binary
        /// beside parity-diff].
        #[arg(long, value_name = "CMD")]
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
        /// run, of cases that are gone (orphaned), and rules that match
        /// no case (stale) or whose ops have none (orphaned).
        #[arg(long)]
        prune: bool,
        /// Write one rule for each op whose every divergence has one form
        /// (one thrown message, or crash, timeout or invalid output), and
        /// case entries for the rest.
        #[arg(long)]
        rule: bool,
        /// Write even when the CI environment variable is set.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        corpus: CorpusFlags,
        #[command(flatten)]
        select: SelectFlags,
        #[command(flatten)]
        rerun: RerunFlags,
        #[command(flatten)]
        ledger: LedgerFlags,
        #[command(flatten)]
        run: OracleFlags,
        #[command(flatten)]
        verdict: VerdictFlags,
        #[command(flatten)]
        framing: FramingFlag,
        #[command(flatten)]
        repeat: RepeatFlag,
    },
    /// Walk the new, changed and stale divergences of a run (or of a JSON
    /// report) in a terminal, group by group: accept, triage, write an op
    /// rule, prune or skip each, written to the ledger as it is decided.
    Review {
        #[command(flatten)]
        flags: review::ReviewFlags,
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
    #[command(override_usage = "parity-diff bless [--reference <CMD>] [OPTIONS]")]
    Bless {
        /// The reference oracle command (run with `sh -c`) [default: the
        /// suite's `reference`].
        #[arg(long, value_name = "CMD")]
        reference: Option<String>,
        /// Write nothing; exit 1 when any golden would change or is orphaned.
        #[arg(long)]
        check: bool,
        /// Write even when the CI environment variable is set.
        #[arg(long)]
        force: bool,
        /// With --repeat, write the first run's goldens even for cases
        /// whose result differs between the reference's runs.
        #[arg(long)]
        allow_nondeterministic: bool,
        #[command(flatten)]
        corpus: CorpusFlags,
        #[command(flatten)]
        run: OracleFlags,
        #[command(flatten)]
        repeat: RepeatFlag,
    },
    /// Run each case alone through a Node reference with V8's coverage
    /// on, and report per op the spans its cases reach, and every span
    /// no case runs (allowlisted or not).
    Coverage {
        #[command(flatten)]
        corpus: CoverageCorpusFlags,
        /// The allowlist of spans no case can reach (default:
        /// coverage-allowlist.txt beside the cases directory, when it
        /// exists).
        #[arg(long, value_name = "FILE")]
        allowlist: Option<PathBuf>,
        /// Exit 1 when a span that is not allowlisted never runs, or an
        /// allowlisted one is reached (a stale entry).
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        run: OracleFlags,
    },
    /// The smallest part of the corpus found with the same per-op
    /// coverage of a Node reference: lists the cases it would drop
    /// (deletes nothing).
    Cmin {
        #[command(flatten)]
        corpus: CoverageCorpusFlags,
        #[command(flatten)]
        run: OracleFlags,
    },
    /// Take cases from a generator, or mutate a corpus's, run them through
    /// two oracles side by side, and minimize and keep every divergence.
    Fuzz {
        /// One implementation (run with `sh -c`, cases on stdin); without
        /// it, the suite's `reference`, else the worker-spawn-oracle binary
        /// beside parity-diff.
        #[arg(long)]
        left: Option<String>,
        /// The other; without it, the suite's `oracle`, else that binary
        /// too.
        #[arg(long)]
        right: Option<String>,
        /// Only these ops (repeat the flag; default: the ops of the
        /// corpus's cases).
        #[arg(long = "op", value_name = "OP")]
        ops: Vec<String>,
        /// A case generator: `CMD --op OP --seed N --count K` prints a
        /// JSON array of K cases of op OP (run with `sh -c`). Without it,
        /// the corpus's cases are mutated [default: the suite's
        /// `generator`].
        #[arg(long, value_name = "CMD")]
        generator: Option<String>,
        /// The corpus whose cases are mutated, and whose ops are fuzzed
        /// when no --op is given [default: the suite's `cases`, else
        /// cases].
        #[arg(long, visible_alias = "cases", value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// The seed (default: a fresh one, printed so a finding can be replayed).
        #[arg(long)]
        seed: Option<u64>,
        /// Stop after this many cases (default 10000 without --duration).
        #[arg(long, conflicts_with = "duration")]
        count: Option<usize>,
        /// Stop after this long: 30s, 10m, 2h.
        #[arg(long, value_parser = parse_duration)]
        duration: Option<Duration>,
        /// Where minimized divergences are written as case files, outside
        /// the corpus [default: the suite's `fuzz-out`, else fuzz-findings
        /// beside the cases directory].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Fuzz nothing: move the findings in DIR (a former --out) into
        /// the corpus, under regressions/, and bless their goldens with
        /// the reference (--left, else the suite's `reference`).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["seed", "count", "duration", "generator", "out"])]
        promote: Option<PathBuf>,
        /// Grow the corpus, guided by a Node reference's coverage: keep
        /// each case that reaches code the corpus does not, shrunk, in a
        /// case file in DIR with its golden (for --promote DIR).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["promote", "left", "right", "out", "ledger"])]
        grow: Option<PathBuf>,
        /// The Node reference --grow runs with coverage on [default: the
        /// suite's `reference`].
        #[arg(long, value_name = "CMD", requires = "grow")]
        reference: Option<String>,
        /// The ledger whose entries and rules say which divergences are
        /// known (counted, neither minimized nor written); default:
        /// parity-ledger.txt beside the corpus, when it exists.
        #[arg(long, value_name = "FILE")]
        ledger: Option<PathBuf>,
        /// Cases per batch.
        #[arg(long, default_value_t = 1000)]
        batch_size: usize,
        #[command(flatten)]
        run: OracleFlags,
    },
}

/// The oracle `parity-diff` runs when it is given none: our own, built
/// (and installed) beside it.
const OUR_ORACLE: &str = "worker-spawn-oracle";

/// How to build [`OUR_ORACLE`] beside parity-diff, for the error when it
/// is missing.
const BUILD_OURS: &str = "cargo build --release --bins puts both binaries in target/release/";

/// The oracle given, else ours; `flag` names the flag that gives one.
fn oracle_or_ours(given: Option<String>, flag: &str) -> Result<Oracle, InputError> {
    match given {
        Some(command) => Ok(Oracle::command(command)),
        None => oracle::beside_current_exe(OUR_ORACLE, BUILD_OURS, flag),
    }
}

/// A side of `fuzz`: the command given, else our oracle's.
fn side_or_ours(given: Option<String>) -> Result<String, InputError> {
    oracle_or_ours(given, "--left CMD and --right CMD").map(|oracle| oracle.as_command().to_owned())
}

impl OracleFlags {
    /// The suite's keys where no flag was given.
    fn settle(&mut self, suite: Option<&Suite>) {
        if let Some(suite) = suite {
            self.timeout = self.timeout.or(suite.timeout);
            self.kill_grace = self.kill_grace.or(suite.kill_grace);
            self.max_output = self.max_output.or(suite.max_output);
            self.jobs = self.jobs.or(suite.jobs);
        }
    }

    fn jobs(&self) -> usize {
        self.jobs
            .map_or_else(pool::default_jobs, |jobs| jobs as usize)
    }

    /// The limits, with `--max-output`'s default for a corpus, or for fuzz
    /// without one.
    fn limits(&self, corpus: Option<&Places>) -> anyhow::Result<OracleOptions> {
        let timeout = self.timeout.unwrap_or(60.0);
        let timeout = match Duration::try_from_secs_f64(timeout) {
            Ok(duration) if !duration.is_zero() => duration,
            _ => bail!("--timeout must be a positive number of seconds, not {timeout}"),
        };
        let kill_grace = self.kill_grace.unwrap_or(2.0);
        let Ok(kill_grace) = Duration::try_from_secs_f64(kill_grace) else {
            bail!("--kill-grace must be a number of seconds, 0 or more, not {kill_grace}");
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
    /// The paths given, with `--ledger`'s.
    fn given(&self, ledger: Option<&LedgerFlags>) -> GivenPlaces {
        GivenPlaces {
            cases: self.cases.clone(),
            golden: self.golden.clone(),
            ledger: ledger.and_then(|ledger| ledger.ledger.clone()),
        }
    }

    fn corpus(&self, places: &Places, shard: Option<Shard>) -> anyhow::Result<Corpus> {
        let filter = match &self.filter {
            Some(pattern) => Some(
                Glob::new(pattern)
                    .map_err(InputError::new)
                    .context("--filter")?,
            ),
            None => None,
        };
        Ok(Corpus {
            cases: places.cases.clone(),
            golden: places.golden.clone(),
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
            // anstream reads the conventions as clap's own help does:
            // NO_COLOR, CLICOLOR_FORCE, CLICOLOR, a terminal, TERM=dumb.
            ColorArg::Auto => {
                anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
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

    /// Refuses a format the command does not report in (the one table
    /// of formats says which it does), before anything runs.
    fn check(&self, command: formats::Command) -> anyhow::Result<()> {
        command.check(self.format())?;
        Ok(())
    }
}

fn main_inner(cli: Cli) -> anyhow::Result<u8> {
    let report = &cli.report;
    let flags = &cli.project;
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
            // compare runs nothing: a suite gives it only its ledger, and
            // only when --suite names it.
            let ledger = match (ledger.ledger, flags.suites.is_empty()) {
                (Some(path), _) => Some(path),
                (None, true) => None,
                (None, false) => {
                    let project = Project::open(flags)?;
                    let suite = lone_suite(&project, &flags.suites)?;
                    let places = project.places(GivenPlaces::default(), suite);
                    // Spelled from here: compare does not change directory.
                    let path = project.outside(&places.ledger_default);
                    path.exists().then_some(path)
                }
            };
            let args = CompareArgs {
                results,
                golden,
                cases,
                ops: select.ops,
                ledger,
                report: report.options(&verdict),
            };
            Ok(compare_command(&args, stdout)?.exit_code())
        }
        Command::Run {
            oracle,
            corpus,
            shard,
            timings,
            record_timings,
            select,
            rerun,
            ledger,
            run,
            verdict,
            framing,
            repeat,
        } => {
            let project = Project::open(flags)?;
            let suites = project.suites(&flags.suites)?;
            one_suite_only(
                &suites,
                &[
                    ("--cases", corpus.cases.is_some()),
                    ("--golden", corpus.golden.is_some()),
                    ("--ledger", ledger.ledger.is_some()),
                    ("--oracle", oracle.is_some()),
                    ("--shard", shard.is_some()),
                    ("--record-timings", record_timings.is_some()),
                ],
            )?;
            project.enter()?;
            let rerun = rerun.read(&project)?;
            let timings = read_timings(&project, &timings)?;
            let given = Given {
                oracle: &oracle,
                corpus: &corpus,
                ledger: &ledger,
                run: &run,
                ops: &select.ops,
                report: report.options(&verdict),
                framing: framing.framing,
                rerun: rerun.as_ref(),
                timings: timings.as_ref(),
                record_timings: record_timings.map(|path| project.given(path)),
                repeat: repeat.repeat,
            };
            if suites.is_empty() {
                let args = given.run_args(&project, None, shard)?;
                return Ok(run_command(&args, stdout)?.exit_code());
            }
            let runs = suites
                .iter()
                .map(|suite| {
                    Ok(SuiteRun {
                        name: suite.name.clone(),
                        args: given.run_args(&project, Some(suite), shard)?,
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            Ok(run_suites(&runs, report.options(&verdict), stdout)?.exit_code())
        }
        Command::Accept {
            oracle,
            reason,
            triaged,
            link,
            prune,
            rule,
            force,
            corpus,
            select,
            rerun,
            ledger,
            run,
            verdict,
            framing,
            repeat,
        } => {
            report.check(formats::Command::Accept)?;
            let project = Project::open(flags)?;
            let suites = project.suites(&flags.suites)?;
            one_suite_only(
                &suites,
                &[
                    ("--cases", corpus.cases.is_some()),
                    ("--golden", corpus.golden.is_some()),
                    ("--ledger", ledger.ledger.is_some()),
                    ("--oracle", oracle.is_some()),
                ],
            )?;
            several_suites_print_text(&suites, report, "accept")?;
            project.enter()?;
            let rerun = rerun.read(&project)?;
            let given = Given {
                oracle: &oracle,
                corpus: &corpus,
                ledger: &ledger,
                run: &run,
                ops: &select.ops,
                report: report.options(&verdict),
                framing: framing.framing,
                rerun: rerun.as_ref(),
                timings: None,
                record_timings: None,
                repeat: repeat.repeat,
            };
            let accept = Accept {
                reason,
                triaged,
                link,
                prune,
                rule,
                force,
            };
            each_suite::accept(&project, &suites, &given, &accept, stdout)
        }
        Command::Review { flags: review } => review::review(review, flags, report, stdout),
        Command::Merge { reports } => {
            let args = MergeArgs {
                reports,
                report: report.options(&VerdictFlags::default()),
            };
            Ok(merge_command(&args, stdout)?.exit_code())
        }
        Command::Delta { base, head } => {
            report.check(formats::Command::Delta)?;
            let args = DeltaArgs {
                base,
                head,
                format: report.format(),
                quiet: report.quiet,
            };
            Ok(delta_command(&args, stdout)?)
        }
        Command::Bless {
            reference,
            corpus,
            check,
            force,
            allow_nondeterministic,
            run,
            repeat,
        } => {
            report.check(formats::Command::Bless)?;
            let project = Project::open(flags)?;
            let suites = project.suites(&flags.suites)?;
            one_suite_only(
                &suites,
                &[
                    ("--cases", corpus.cases.is_some()),
                    ("--golden", corpus.golden.is_some()),
                    ("--reference", reference.is_some()),
                ],
            )?;
            several_suites_print_text(&suites, report, "bless")?;
            let bless = Bless {
                reference,
                corpus: &corpus,
                check,
                force,
                repeat: repeat.repeat,
                allow_nondeterministic,
                run: &run,
                report,
            };
            each_suite::bless(&project, &suites, &bless, stdout)
        }
        Command::Coverage {
            corpus,
            allowlist,
            check,
            run,
        } => {
            let args = CoverageArgs {
                selection: corpus.selection(&run)?,
                allowlist,
                check,
                format: report.format(),
                quiet: report.quiet,
            };
            Ok(coverage_command(&args, stdout)?)
        }
        Command::Cmin { corpus, run } => {
            let args = CminArgs {
                selection: corpus.selection(&run)?,
                format: report.format(),
                quiet: report.quiet,
            };
            Ok(cmin_command(&args, stdout)?)
        }
        Command::Fuzz {
            left,
            right,
            ops,
            generator,
            corpus,
            seed,
            count,
            duration,
            out,
            ledger,
            promote,
            grow,
            reference,
            batch_size,
            mut run,
        } => {
            if let Some(findings) = promote {
                return promote_findings(flags, findings, corpus, left, run, report, stdout);
            }
            if let Some(dir) = grow {
                let given = Growing {
                    dir,
                    reference,
                    corpus,
                    ops,
                    generator,
                    seed,
                    count,
                    duration,
                    batch_size,
                };
                return grow_corpus(flags, given, run, report, stdout);
            }
            report.check(formats::Command::Fuzz)?;
            let project = Project::open(flags)?;
            let suite = lone_suite(&project, &flags.suites)?;
            let given = GivenPlaces {
                cases: corpus,
                ..GivenPlaces::default()
            };
            let places = project.places(given, suite);
            let out = project.fuzz_out(out, suite, &places.cases);
            run.settle(suite);
            let key = |pick: fn(&Suite) -> Option<&String>| suite.and_then(pick).cloned();
            let left = left.or_else(|| key(|suite| suite.reference.as_ref()));
            let right = right.or_else(|| key(|suite| suite.oracle.as_ref()));
            let generator = generator.or_else(|| key(|suite| suite.generator.as_ref()));
            project.enter()?;
            let args = FuzzArgs {
                left: side_or_ours(left)?,
                right: side_or_ours(right)?,
                ops,
                generator,
                corpus: places.cases,
                seed,
                count,
                duration,
                batch_size,
                out_dir: out,
                ledger,
                ledger_default: places.ledger_default,
                limits: run.limits(None)?,
                jobs: run.jobs(),
                format: report.format(),
                quiet: report.quiet,
            };
            Ok(fuzz_command(&args, stdout, &mut io::stderr())?)
        }
    }
}

/// `--timings`' files read and added up (`None` without any), once
/// `project` has been entered.
fn read_timings(project: &Project, paths: &[PathBuf]) -> anyhow::Result<Option<Timings>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let mut timings = Timings::default();
    for path in paths {
        timings.read(&project.given(path.clone()), &path.display().to_string())?;
    }
    Ok(Some(timings))
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
    sys_unix::limit_malloc_arenas();
    // A usage error exits 2 (clap's), a mistyped subcommand with its
    // nearest names.
    let cli = Cli::try_parse()
        .unwrap_or_else(|error| did_you_mean::suggest(error, &Cli::command()).exit());
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
            // Errors quote file names and oracles' words: outside text,
            // and standard error is read for workflow commands too.
            let message = format!("{error:#}");
            eprintln!("parity-diff: {}", outside::text(&message));
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
