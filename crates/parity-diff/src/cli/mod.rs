//! The command line: `parity-diff`'s subcommands and what each takes
//! (clap derives the parser and `--help` from them), the flags they share
//! ([`flags`]), the project they find (`parity.toml` and its places:
//! [`project`], [`root`]), and what a command does for each suite
//! ([`each_suite`], [`settle`]) or in the terminal ([`review`],
//! [`progress_command`]). Only the binary sees this stage.

pub mod did_you_mean;
pub mod each_suite;
pub mod flags;
pub mod progress_command;
pub mod project;
pub mod review;
pub mod root;
pub mod settle;

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use parity_diff::command::init::Lang;
use parity_diff::corpus::Shard;
use parity_diff::fuzz::command::parse_duration;
use parity_diff::report::ExtraReport;

use self::flags::{
    CorpusFlags, CorpusRunFlags, CoverageCorpusFlags, LedgerFlags, OracleFlags, RepeatFlag,
    ReportFlags, SelectFlags, VerdictFlags,
};
use self::project::ConfigFlags;

/// Compares result arrays with goldens, case by case: identical, same
/// value with different bytes (and why), or different (where, with both
/// values and a diff). With a ledger of known divergences, a case that
/// diverges as its entry says is accepted. Exit status: 0 all passed or
/// accepted, 1 any failure, 2 usage or input error.
#[derive(Parser)]
#[command(name = "parity-diff", version)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    #[command(flatten)]
    pub(crate) report: ReportFlags,
    #[command(flatten)]
    pub(crate) project: ConfigFlags,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Start a project in DIR (default: here): a commented parity.toml,
    /// cases/example.json and an oracle skeleton that explains the
    /// protocol. `bless` and then `run` pass right after it. Overwrites
    /// nothing.
    Init {
        /// The project's directory (made when missing).
        #[arg(value_name = "DIR", default_value = ".")]
        dir: PathBuf,
        /// The oracle skeleton's language.
        #[arg(long, value_enum, default_value_t = SkeletonLang::Python)]
        lang: SkeletonLang,
    },
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
        #[command(flatten)]
        flags: RunFlags,
    },
    /// Run the corpus and record every new or changed divergence in the
    /// ledger, with a reason; --prune removes entries that no longer
    /// apply.
    #[command(override_usage = "parity-diff accept [--oracle <CMD>] [--reason <TEXT>] [OPTIONS]")]
    Accept {
        #[command(flatten)]
        flags: AcceptFlags,
    },
    /// Walk the new, changed and stale divergences of a run (or of a JSON
    /// report) in a terminal, group by group: accept, triage, write an op
    /// rule, prune or skip each, written to the ledger as it is decided.
    Review {
        #[command(flatten)]
        flags: review::ReviewFlags,
    },
    /// How far the port is, per suite and op: cases passing, accepted (by
    /// entries, by rules) and failing, from a run (or a JSON report),
    /// written to a small committed file (parity-progress.json, or
    /// parity.toml's `progress`); --check compares instead, --history
    /// reads the file's versions from git.
    #[command(
        override_usage = "parity-diff progress [--oracle <CMD> | --from-report <REPORT>] [--check] [OPTIONS]\n       parity-diff progress --history [--format human|markdown|html] [OPTIONS]"
    )]
    Progress {
        #[command(flatten)]
        flags: progress_command::ProgressFlags,
    },
    /// Merge the JSON reports of `run --shard K/N`, every K, into the
    /// report of one whole run (any format), with the checks only a
    /// whole run makes: orphaned goldens and ledger entries.
    Merge {
        /// The shards' JSON reports, in any order.
        #[arg(required = true, value_name = "REPORT")]
        reports: Vec<PathBuf>,
        /// Also write the merged report in FORMAT to PATH (repeat the
        /// flag).
        #[arg(long = "report", value_name = "FORMAT=PATH", value_parser = ExtraReport::parse)]
        extra: Vec<ExtraReport>,
    },
    /// Render a saved JSON report (of run, merge, accept or compare)
    /// again, in any format: byte for byte what the run would have
    /// written in that format. Exit status: the run's.
    Report {
        /// The saved JSON report.
        saved: PathBuf,
        /// Write the report to PATH, not standard output.
        #[arg(long, short = 'o', value_name = "PATH")]
        output: Option<PathBuf>,
        /// Also write it in FORMAT to PATH (repeat the flag).
        #[arg(long = "report", value_name = "FORMAT=PATH", value_parser = ExtraReport::parse)]
        extra: Vec<ExtraReport>,
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
        #[command(flatten)]
        flags: BlessFlags,
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
        #[command(flatten)]
        flags: FuzzFlags,
    },
}

/// `run`'s flags.
#[derive(Args)]
pub(crate) struct RunFlags {
    /// The oracle command (run with `sh -c`, cases on stdin) [default:
    /// the suite's `oracle`].
    #[arg(long, value_name = "CMD")]
    pub(crate) oracle: Option<String>,
    #[command(flatten)]
    pub(crate) corpus: CorpusFlags,
    /// Only the K-th of N shards: N contiguous ranges of the selected
    /// cases, in corpus order, balanced by count, or by time with
    /// --timings (`merge` joins their JSON reports).
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<Shard>,
    /// Balance --shard by the oracle times a timings file holds
    /// (`run --record-timings`); repeat the flag to add up several
    /// (each shard's, say).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub(crate) timings: Vec<PathBuf>,
    /// Write each case file's oracle time (and how many cases it was
    /// sent) to FILE, for --timings. Never in the report.
    #[arg(long, value_name = "FILE")]
    pub(crate) record_timings: Option<PathBuf>,
    /// Also write the report in FORMAT to PATH, from this same run
    /// (repeat the flag: `--report junit=out.xml --report
    /// html=out.html`); each file is what `--format FORMAT` alone
    /// would print.
    #[arg(long = "report", value_name = "FORMAT=PATH", value_parser = ExtraReport::parse)]
    pub(crate) reports: Vec<ExtraReport>,
    #[command(flatten)]
    pub(crate) with: CorpusRunFlags,
}

/// `accept`'s flags.
#[derive(Args)]
pub(crate) struct AcceptFlags {
    /// The oracle command (run with `sh -c`, cases on stdin) [default:
    /// the suite's `oracle`].
    #[arg(long, value_name = "CMD")]
    pub(crate) oracle: Option<String>,
    /// Why these divergences are acceptable (required unless only
    /// pruning).
    #[arg(long, value_name = "TEXT")]
    pub(crate) reason: Option<String>,
    /// Record them as known bugs to fix, not deliberate differences.
    #[arg(long)]
    pub(crate) triaged: bool,
    /// Where a triaged bug is tracked.
    #[arg(long, value_name = "URL", requires = "triaged")]
    pub(crate) link: Option<String>,
    /// Remove entries of cases that pass now (stale) and, on a full
    /// run, of cases that are gone (orphaned), and rules that match
    /// no case (stale) or whose ops have none (orphaned).
    #[arg(long)]
    pub(crate) prune: bool,
    /// Write one rule for each op whose every divergence has one form
    /// (one thrown message, or crash, timeout or invalid output), and
    /// case entries for the rest.
    #[arg(long)]
    pub(crate) rule: bool,
    /// Accept only this case: FILE (its case file, as the ledger
    /// names it) and the case's `name`, split at the first `:`
    /// (repeatable).
    #[arg(long = "case", id = "case", value_name = "FILE:NAME")]
    pub(crate) one_case: Vec<String>,
    /// Write even when the CI environment variable is set.
    #[arg(long)]
    pub(crate) force: bool,
    #[command(flatten)]
    pub(crate) corpus: CorpusFlags,
    #[command(flatten)]
    pub(crate) with: CorpusRunFlags,
}

/// `bless`'s flags.
#[derive(Args)]
pub(crate) struct BlessFlags {
    /// The reference oracle command (run with `sh -c`) [default: the
    /// suite's `reference`].
    #[arg(long, value_name = "CMD")]
    pub(crate) reference: Option<String>,
    /// Write nothing; exit 1 when any golden would change or is orphaned.
    #[arg(long)]
    pub(crate) check: bool,
    /// Write even when the CI environment variable is set.
    #[arg(long)]
    pub(crate) force: bool,
    /// With --repeat, write the first run's goldens even for cases
    /// whose result differs between the reference's runs.
    #[arg(long)]
    pub(crate) allow_nondeterministic: bool,
    #[command(flatten)]
    pub(crate) corpus: CorpusFlags,
    #[command(flatten)]
    pub(crate) run: OracleFlags,
    #[command(flatten)]
    pub(crate) repeat: RepeatFlag,
}

/// `fuzz`'s flags.
#[derive(Args)]
pub(crate) struct FuzzFlags {
    /// One implementation (run with `sh -c`, cases on stdin) [default:
    /// the suite's `reference`].
    #[arg(long)]
    pub(crate) left: Option<String>,
    /// The other [default: the suite's `oracle`].
    #[arg(long)]
    pub(crate) right: Option<String>,
    /// Only these ops (repeat the flag; default: the ops of the
    /// corpus's cases).
    #[arg(long = "op", value_name = "OP")]
    pub(crate) ops: Vec<String>,
    /// A case generator: `CMD --op OP --seed N --count K` prints a
    /// JSON array of K cases of op OP (run with `sh -c`). Without it,
    /// the corpus's cases are mutated [default: the suite's
    /// `generator`].
    #[arg(long, value_name = "CMD")]
    pub(crate) generator: Option<String>,
    /// The corpus whose cases are mutated, and whose ops are fuzzed
    /// when no --op is given [default: the suite's `cases`, else
    /// cases].
    #[arg(long, visible_alias = "cases", value_name = "DIR")]
    pub(crate) corpus: Option<PathBuf>,
    /// The seed (default: a fresh one, printed so a finding can be replayed).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Stop after this many cases (default 10000 without --duration).
    #[arg(long, conflicts_with = "duration")]
    pub(crate) count: Option<usize>,
    /// Stop after this long: 30s, 10m, 2h.
    #[arg(long, value_parser = parse_duration)]
    pub(crate) duration: Option<Duration>,
    /// Where minimized divergences are written as case files, outside
    /// the corpus [default: the suite's `fuzz-out`, else fuzz-findings
    /// beside the cases directory].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Fuzz nothing: move the findings in DIR (a former --out) into
    /// the corpus, under regressions/, and bless their goldens with
    /// the reference (--left, else the suite's `reference`).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["seed", "count", "duration", "generator", "out"])]
    pub(crate) promote: Option<PathBuf>,
    /// Grow the corpus, guided by a Node reference's coverage: keep
    /// each case that reaches code the corpus does not, shrunk, in a
    /// case file in DIR with its golden (for --promote DIR).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["promote", "left", "right", "out", "ledger"])]
    pub(crate) grow: Option<PathBuf>,
    /// The Node reference --grow runs with coverage on [default: the
    /// suite's `reference`].
    #[arg(long, value_name = "CMD", requires = "grow")]
    pub(crate) reference: Option<String>,
    /// The ledger whose entries and rules say which divergences are
    /// known (counted, neither minimized nor written); default:
    /// parity-ledger.txt beside the corpus, when it exists.
    #[arg(long, value_name = "FILE")]
    pub(crate) ledger: Option<PathBuf>,
    /// Keep every finding as found: no minimizing.
    #[arg(long, conflicts_with_all = ["promote", "grow"])]
    pub(crate) no_minimize: bool,
    /// How many times the session's own oracle runs minimizing may
    /// spend; past it, findings are kept as found (as with
    /// --no-minimize) [default: 3].
    #[arg(long, value_name = "FACTOR", value_parser = parse_budget, conflicts_with_all = ["promote", "grow"])]
    pub(crate) shrink_budget: Option<f64>,
    /// Cases per batch.
    #[arg(long, default_value_t = 1000)]
    pub(crate) batch_size: usize,
    /// Write findings with CI set even where parity.toml says
    /// (`fuzz-out`, or its default): without it, CI writes them only
    /// to an --out given on the command line, as accept and bless
    /// write nothing there without --force.
    #[arg(long, conflicts_with_all = ["promote", "grow"])]
    pub(crate) force: bool,
    /// List each known divergence's signature (by default the
    /// closing line counts them per op).
    #[arg(long)]
    pub(crate) verbose: bool,
    #[command(flatten)]
    pub(crate) run: OracleFlags,
}

/// `init --lang`: the oracle skeleton's language.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum SkeletonLang {
    /// oracle.py, run by python3.
    Python,
    /// oracle.mjs, run by node.
    Node,
    /// oracle.sh, POSIX sh and awk.
    Sh,
}

impl From<SkeletonLang> for Lang {
    fn from(lang: SkeletonLang) -> Self {
        match lang {
            SkeletonLang::Python => Lang::Python,
            SkeletonLang::Node => Lang::Node,
            SkeletonLang::Sh => Lang::Sh,
        }
    }
}

/// `--shrink-budget FACTOR`: a positive number.
fn parse_budget(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|factor| factor.is_finite() && *factor > 0.0)
        .ok_or_else(|| format!("a positive number, not {text:?}"))
}
