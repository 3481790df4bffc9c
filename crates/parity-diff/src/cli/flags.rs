//! The flags several subcommands share (report, corpus, oracle, ledger,
//! selection), and what each becomes for the library.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use parity_diff::base::error::InputError;
use parity_diff::base::glob::Glob;
use parity_diff::base::size::parse_size;
use parity_diff::command::rerun::{Rerun, Scope};
use parity_diff::corpus::config::{self, Framing, Suite};
use parity_diff::corpus::{Corpus, Shard};
use parity_diff::coverage::measure::Selection;
use parity_diff::exec::oracle::{self, Oracle, OracleOptions};
use parity_diff::exec::pool;
use parity_diff::judge::numbers::Numbers;
use parity_diff::report::{formats, Format, ReportOptions, DEFAULT_MAX_FAILURES};

use crate::cli::project::{GivenPlaces, Places, Project};

/// How every subcommand reports.
#[derive(Args)]
#[command(next_help_heading = "Report")]
pub(crate) struct ReportFlags {
    /// Report format.
    #[arg(long, global = true, value_enum, default_value_t = FormatArg::Human)]
    pub(crate) format: FormatArg,
    /// Print the closing summary line alone (human format).
    #[arg(long, short, global = true)]
    pub(crate) quiet: bool,
    /// Colour: auto means on a terminal whose TERM is set and not dumb,
    /// unless NO_COLOR is set or CLICOLOR=0; CLICOLOR_FORCE turns it on
    /// anywhere (NO_COLOR still wins).
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub(crate) color: ColorArg,
    /// Human and Markdown formats: how many groups of alike failures to
    /// print.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_FAILURES)]
    pub(crate) max_failures: usize,
    /// GitHub Actions annotations (workflow commands on stderr) for the
    /// first failure groups: auto means when GITHUB_ACTIONS=true.
    #[arg(long, global = true, value_enum, default_value_t = AnnotateArg::Auto)]
    pub(crate) annotate: AnnotateArg,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum FormatArg {
    Human,
    Json,
    Junit,
    Markdown,
    Html,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum AnnotateArg {
    Auto,
    Github,
    None,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ColorArg {
    Auto,
    Always,
    Never,
}

/// Where a corpus lives and which of its files are wanted (`run`, `bless`).
#[derive(Args, Clone)]
#[command(next_help_heading = "Corpus")]
pub(crate) struct CorpusFlags {
    /// The case files' directory [default: the suite's `cases`, else
    /// cases].
    #[arg(long, value_name = "DIR")]
    pub(crate) cases: Option<PathBuf>,
    /// The goldens' directory [default: the suite's `golden`, else golden
    /// beside the cases directory].
    #[arg(long, value_name = "DIR")]
    pub(crate) golden: Option<PathBuf>,
    /// Only case files whose relative path matches this glob.
    #[arg(long, value_name = "GLOB")]
    pub(crate) filter: Option<String>,
}

/// What `run`, `accept` and `review` take after their corpus, in this
/// order: which cases, the rerun, the ledger, how the oracle runs, what
/// counts as a pass, the framing and the repeats. Each group keeps its
/// own help heading.
#[derive(Args)]
pub(crate) struct CorpusRunFlags {
    #[command(flatten)]
    pub(crate) select: SelectFlags,
    #[command(flatten)]
    pub(crate) rerun: RerunFlags,
    #[command(flatten)]
    pub(crate) ledger: LedgerFlags,
    #[command(flatten)]
    pub(crate) run: OracleFlags,
    #[command(flatten)]
    pub(crate) verdict: VerdictFlags,
    #[command(flatten)]
    pub(crate) framing: FramingFlag,
    #[command(flatten)]
    pub(crate) repeat: RepeatFlag,
}

/// Which cases are compared (`run`, `compare`, `accept`).
#[derive(Args)]
#[command(next_help_heading = "Comparison")]
pub(crate) struct SelectFlags {
    /// Only the cases of this op (repeat the flag for more): only they
    /// are compared (and, for `run` and `accept`, sent to the oracle).
    #[arg(long = "op", value_name = "OP")]
    pub(crate) ops: Vec<String>,
}

/// A rerun of what a report says failed (`run`, `accept`).
#[derive(Args)]
#[command(next_help_heading = "Comparison")]
pub(crate) struct RerunFlags {
    /// Only the cases this JSON report (of run, merge or accept) says
    /// are not done, by identity: failed, new, changed, stale, and
    /// triaged (a known bug's fix is rerun), and the files it could not
    /// compare as a whole; with --filter, --op or --shard, the cases that
    /// both select. It says on stderr which kinds it took.
    #[arg(long, value_name = "REPORT")]
    pub(crate) rerun_failed: Option<PathBuf>,
    /// With --rerun-failed: leave out the triaged cases (only those that
    /// neither passed nor were accepted).
    #[arg(long, requires = "rerun_failed")]
    pub(crate) rerun_only_failed: bool,
}

impl RerunFlags {
    /// The report read; `project` has been entered (the path is spelled
    /// from where the run works).
    pub(crate) fn read(&self, project: &Project) -> anyhow::Result<Option<Rerun>> {
        let Some(path) = &self.rerun_failed else {
            return Ok(None);
        };
        let name = path.display().to_string();
        let scope = match self.rerun_only_failed {
            true => Scope::Failed,
            false => Scope::NotDone,
        };
        let path = project.given(path.clone());
        Ok(Some(Rerun::read_scoped(&path, &name, scope)?))
    }
}

/// The divergence ledger (`run`, `compare`, `accept`).
#[derive(Args)]
#[command(next_help_heading = "Comparison")]
pub(crate) struct LedgerFlags {
    /// The ledger of known divergences (default: the suite's `ledger`,
    /// else parity-ledger.txt beside the cases directory, when it exists;
    /// `compare` uses one only when given, or with --suite).
    #[arg(long, value_name = "FILE")]
    pub(crate) ledger: Option<PathBuf>,
}

/// What counts as a pass (`run`, `compare`, `accept`).
#[derive(Args, Default)]
#[command(next_help_heading = "Comparison")]
pub(crate) struct VerdictFlags {
    /// Count "same value, different bytes" as a pass [default: the
    /// suite's `semantic`, else off].
    #[arg(long)]
    pub(crate) semantic: bool,
    /// What makes two numbers the same value: `double` (IEEE doubles, as
    /// JavaScript and jq read JSON: -0 is 0) or `exact` (the decimals as
    /// written; -0 is not 0) [default: the suite's `numbers`, else double].
    #[arg(long, value_name = "double|exact", value_parser = parse_numbers)]
    pub(crate) numbers: Option<Numbers>,
}

/// `--numbers double|exact`.
pub(crate) fn parse_numbers(text: &str) -> Result<Numbers, String> {
    Numbers::from_name(text).ok_or_else(|| format!("`double` or `exact`, not {text:?}"))
}

/// `--repeat N` (`run`, `accept`, `bless`).
#[derive(Args, Clone, Copy, Default)]
pub(crate) struct RepeatFlag {
    /// Run each case file N times; a case whose result bytes differ
    /// between runs is `nondeterministic` [default: the suite's
    /// `repeat`, else 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(config::MAX_REPEAT)))]
    pub(crate) repeat: Option<u32>,
}

/// `--framing exact|json` (`run`, `accept`, `review`).
#[derive(Args, Clone, Copy, Default)]
pub(crate) struct FramingFlag {
    /// How the bytes around the results are checked: `exact` (what
    /// JSON.stringify prints: no white space, no trailing newline) or
    /// `json` (any JSON array) [default: the suite's `framing`, else
    /// json].
    #[arg(long, value_name = "exact|json", value_parser = parse_framing)]
    pub(crate) framing: Option<Framing>,
}

/// `--framing exact|json`.
pub(crate) fn parse_framing(text: &str) -> Result<Framing, String> {
    match text {
        "exact" => Ok(Framing::Exact),
        "json" => Ok(Framing::Json),
        other => Err(format!("`exact` or `json`, not {other:?}")),
    }
}

/// `--timeout SECS`: more than 0, at most [`config::MAX_TIMEOUT_SECS`].
fn parse_timeout(text: &str) -> Result<f64, String> {
    seconds(text, f64::MIN_POSITIVE, config::MAX_TIMEOUT_SECS).ok_or_else(|| {
        format!(
            "a positive number of seconds, at most {} (a week)",
            config::MAX_TIMEOUT_SECS
        )
    })
}

/// `--kill-grace SECS`: 0 to [`config::MAX_KILL_GRACE_SECS`].
fn parse_kill_grace(text: &str) -> Result<f64, String> {
    seconds(text, 0.0, config::MAX_KILL_GRACE_SECS).ok_or_else(|| {
        format!(
            "a number of seconds, 0 to {} (an hour)",
            config::MAX_KILL_GRACE_SECS
        )
    })
}

fn seconds(text: &str, min: f64, max: f64) -> Option<f64> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|secs| (min..=max).contains(secs))
}

/// How an oracle process is run and stopped (`run`, `bless`, `accept`, `fuzz`).
#[derive(Args, Clone)]
#[command(next_help_heading = "Oracle process")]
pub(crate) struct OracleFlags {
    /// Seconds one oracle run may take before it is stopped [default:
    /// the suite's `timeout`, else 60].
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub(crate) timeout: Option<f64>,
    /// Seconds a stopped oracle command gets between SIGTERM and SIGKILL
    /// [default: the suite's `kill-grace`, else 2].
    #[arg(long, value_name = "SECS", value_parser = parse_kill_grace)]
    pub(crate) kill_grace: Option<f64>,
    /// Most an oracle command may print on stdout (64M, 1G, bytes) before
    /// it is stopped [default: run, bless: 16 times the corpus's largest
    /// file, at least 64M; fuzz: 256M]
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) max_output: Option<u64>,
    /// How many oracle runs at once (default: the suite's `jobs`, else the
    /// number of cores).
    /// Reports, goldens and findings are the same for every N.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(config::MAX_JOBS)))]
    pub(crate) jobs: Option<u32>,
}

/// Which cases `coverage` and `cmin` run, and through what.
#[derive(Args)]
#[command(next_help_heading = "Corpus")]
pub(crate) struct CoverageCorpusFlags {
    /// The reference: a Node program (run with `sh -c`, a case array on
    /// stdin), run once per case with NODE_V8_COVERAGE set.
    #[arg(long)]
    pub(crate) reference: String,
    /// The case files' directory.
    #[arg(long, default_value = "cases")]
    pub(crate) cases: PathBuf,
    /// Only case files whose relative path matches this glob.
    #[arg(long, value_name = "GLOB")]
    pub(crate) filter: Option<String>,
    /// Only the cases of this op (repeat the flag for more).
    #[arg(long = "op", value_name = "OP")]
    pub(crate) ops: Vec<String>,
}

impl CoverageCorpusFlags {
    pub(crate) fn selection(self, run: &OracleFlags) -> anyhow::Result<Selection> {
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

/// The oracle given with `--oracle` or by the suite. parity-diff knows
/// no contract, so it has no oracle of its own to fall back on.
pub(crate) fn given_oracle(given: Option<String>) -> Result<Oracle, InputError> {
    given.map(Oracle::command).ok_or_else(|| {
        InputError::new(
            "no oracle to run: give --oracle CMD, or `oracle = \"CMD\"` in the suite's table \
             of parity.toml (`parity-diff init` writes one)",
        )
    })
}

/// A side of `fuzz`: the command given, or the suite's key for it.
pub(crate) fn given_side(
    given: Option<String>,
    flag: &str,
    key: &str,
) -> Result<String, InputError> {
    given.ok_or_else(|| {
        InputError::new(format!(
            "fuzz needs both sides: give {flag} CMD, or `{key} = \"CMD\"` in the suite's table of \
             parity.toml"
        ))
    })
}

impl OracleFlags {
    /// The suite's keys where no flag was given.
    pub(crate) fn settle(&mut self, suite: Option<&Suite>) {
        if let Some(suite) = suite {
            self.timeout = self.timeout.or(suite.timeout);
            self.kill_grace = self.kill_grace.or(suite.kill_grace);
            self.max_output = self.max_output.or(suite.max_output);
            self.jobs = self.jobs.or(suite.jobs);
        }
    }

    pub(crate) fn jobs(&self) -> usize {
        self.jobs
            .map_or_else(pool::default_jobs, |jobs| jobs as usize)
    }

    /// The limits, with `--max-output`'s default for a corpus, or for fuzz
    /// without one.
    pub(crate) fn limits(&self, corpus: Option<&Places>) -> anyhow::Result<OracleOptions> {
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
    pub(crate) fn given(&self, ledger: Option<&LedgerFlags>) -> GivenPlaces {
        GivenPlaces {
            cases: self.cases.clone(),
            golden: self.golden.clone(),
            ledger: ledger.and_then(|ledger| ledger.ledger.clone()),
        }
    }

    pub(crate) fn corpus(&self, places: &Places, shard: Option<Shard>) -> anyhow::Result<Corpus> {
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
    pub(crate) fn format(&self) -> Format {
        match self.format {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Junit => Format::Junit,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Html => Format::Html,
        }
    }

    pub(crate) fn annotate(&self) -> bool {
        match self.annotate {
            AnnotateArg::Github => true,
            AnnotateArg::None => false,
            AnnotateArg::Auto => std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
        }
    }

    pub(crate) fn color(&self) -> bool {
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

    pub(crate) fn options(&self, verdict: &VerdictFlags) -> ReportOptions {
        ReportOptions {
            format: self.format(),
            quiet: self.quiet,
            color: self.color(),
            semantic: verdict.semantic,
            numbers: verdict.numbers.unwrap_or_default(),
            max_failures: self.max_failures,
            annotate: self.annotate(),
            // Written only when GITHUB_STEP_SUMMARY names a file.
            step_summary: true,
            // A suite's `redact` key alone turns masking off.
            show_secrets: false,
        }
    }

    /// Refuses a format the command does not report in (the one table
    /// of formats says which it does), before anything runs.
    pub(crate) fn check(&self, command: formats::Command) -> anyhow::Result<()> {
        command.check(self.format())?;
        Ok(())
    }
}
