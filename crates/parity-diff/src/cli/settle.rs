//! What a command works on, settled: a suite's run from the flags over
//! its keys ([`Given`]), the one suite of the commands that take one
//! ([`lone_suite`]), `fuzz --promote` ([`promote_findings`]) and `fuzz
//! --grow` ([`grow_corpus`]).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use parity_diff::base::error::InputError;
use parity_diff::base::outside;
use parity_diff::command::bless::{bless_command, BlessArgs};
use parity_diff::command::rerun::Rerun;
use parity_diff::command::run::RunArgs;
use parity_diff::corpus::config::{Framing, Suite};
use parity_diff::corpus::timings::Timings;
use parity_diff::corpus::Shard;
use parity_diff::coverage::grow::command::{grow_command, GrowArgs};
use parity_diff::fuzz::promote;
use parity_diff::judge::numbers::Numbers;
use parity_diff::report::{formats, ExtraReport, KnownOps, ReportOptions};

use super::flags::{
    given_oracle, CorpusFlags, CorpusRunFlags, LedgerFlags, OracleFlags, ReportFlags,
};
use super::project::{ConfigFlags, GivenPlaces, Project};

/// What `run` and `accept` were given, for each suite's arguments.
pub struct Given<'a> {
    pub oracle: &'a Option<String>,
    pub corpus: &'a CorpusFlags,
    pub ledger: &'a LedgerFlags,
    pub run: &'a OracleFlags,
    pub ops: &'a [String],
    pub report: ReportOptions,
    /// `--framing`, over the suite's `framing`.
    pub framing: Option<Framing>,
    /// `--numbers`, over the suite's `numbers`.
    pub numbers: Option<Numbers>,
    /// `--rerun-failed`'s report, read.
    pub rerun: Option<&'a Rerun>,
    /// `--timings`, read.
    pub timings: Option<&'a Timings>,
    /// `--record-timings`, spelled from where the run works.
    pub record_timings: Option<PathBuf>,
    /// `--repeat`, over the suite's `repeat`.
    pub repeat: Option<u32>,
    /// `--report FORMAT=PATH`, each path spelled from where the run
    /// works.
    pub extra: Vec<ExtraReport>,
}

impl<'a> Given<'a> {
    /// What `run`, `accept` or `review` was given: `oracle`, `corpus` and
    /// the flags after them, reporting as `report` says; `rerun` is
    /// `--rerun-failed`'s report, read. No `--timings` or
    /// `--record-timings` (only `run` has them).
    pub fn of(
        oracle: &'a Option<String>,
        corpus: &'a CorpusFlags,
        flags: &'a CorpusRunFlags,
        report: &ReportFlags,
        rerun: Option<&'a Rerun>,
    ) -> Self {
        Given {
            oracle,
            corpus,
            ledger: &flags.ledger,
            run: &flags.run,
            ops: &flags.select.ops,
            report: report.options(&flags.verdict),
            framing: flags.framing.framing,
            numbers: flags.verdict.numbers,
            rerun,
            timings: None,
            record_timings: None,
            repeat: flags.repeat.repeat,
            extra: Vec::new(),
        }
    }

    /// The report options for a suite's run: `--semantic` or the suite's
    /// `semantic`, `--numbers` over the suite's `numbers`.
    pub fn report_for(&self, suite: Option<&Suite>) -> ReportOptions {
        let mut report = self.report;
        report.semantic |= suite.and_then(|suite| suite.semantic) == Some(true);
        report.numbers = self
            .numbers
            .or_else(|| suite.and_then(|suite| suite.numbers))
            .unwrap_or_default();
        report.show_secrets = suite.and_then(|suite| suite.redact) == Some(false);
        report
    }

    /// A suite's run (or, without one, the run the flags alone say):
    /// each flag over the suite's key.
    pub fn run_args(
        &self,
        project: &Project,
        suite: Option<&Suite>,
        shard: Option<Shard>,
    ) -> anyhow::Result<RunArgs> {
        let places = project.places(self.corpus.given(Some(self.ledger)), suite)?;
        let mut run = self.run.clone();
        run.settle(suite);
        let oracle = self
            .oracle
            .clone()
            .or_else(|| suite.and_then(|suite| suite.oracle.clone()));
        Ok(RunArgs {
            oracle: given_oracle(oracle)?,
            corpus: self.corpus.corpus(&places, shard)?,
            ops: self.ops.to_vec(),
            ledger: places.ledger.clone(),
            ledger_default: Some(places.ledger_default.clone()),
            limits: run.limits(Some(&places))?,
            jobs: run.jobs(),
            report: self.report_for(suite),
            errors: suite.map(Suite::errors).unwrap_or_default(),
            framing: self
                .framing
                .or_else(|| suite.and_then(|suite| suite.framing))
                .unwrap_or_default(),
            repeat: self
                .repeat
                .or_else(|| suite.and_then(|suite| suite.repeat))
                .unwrap_or(1) as usize,
            suite: suite.map(|suite| suite.name.clone()),
            known_ops: suite.and_then(|suite| suite.ops.as_deref().map(KnownOps::new)),
            rerun: self
                .rerun
                .map(|rerun| rerun.for_suite(suite.map(|suite| suite.name.as_str()))),
            timings: self.timings.cloned(),
            record_timings: self.record_timings.clone(),
            extra: self.extra.clone(),
            known_failure_batches: false,
        })
    }
}

/// `fuzz --promote DIR`: the findings moved into the corpus, then their
/// goldens blessed (a bless report).
pub fn promote_findings(
    flags: &ConfigFlags,
    findings: PathBuf,
    corpus: Option<PathBuf>,
    left: Option<String>,
    mut run: OracleFlags,
    report: &ReportFlags,
    stdout: impl io::Write,
) -> anyhow::Result<u8> {
    report.check(formats::Command::Bless)?;
    let project = Project::open(flags)?;
    let suite = lone_suite(&project, &flags.suites)?;
    let given = GivenPlaces {
        cases: corpus,
        ..GivenPlaces::default()
    };
    let places = project.places(given, suite)?;
    let findings = project.given(findings);
    run.settle(suite);
    let Some(reference) = left.or_else(|| suite.and_then(|suite| suite.reference.clone())) else {
        return Err(InputError::new(
            "fuzz --promote blesses the findings: it needs the reference, --left CMD or the suite's `reference`",
        )
        .into());
    };
    if crate::cli::project::in_ci() {
        return Err(InputError::new(
            "refusing to promote findings into the corpus while CI is set: promoting is a developer's step",
        )
        .into());
    }
    project.enter()?;
    let promoted = promote::promote(&findings, &places.cases, &places.golden)?;
    for name in &promoted.moved {
        eprintln!("parity-diff: promoted {}", outside::text(name));
    }
    for name in &promoted.present {
        eprintln!(
            "parity-diff: in the corpus already: {}",
            outside::text(name)
        );
    }
    if promoted.moved.is_empty() {
        eprintln!(
            "parity-diff: no new finding in {}",
            outside::text(&findings.display().to_string())
        );
    }
    let filter = CorpusFlags {
        cases: None,
        golden: None,
        filter: Some(format!("{}/**", promote::REGRESSIONS)),
    };
    let args = BlessArgs {
        reference,
        corpus: filter.corpus(&places, None)?,
        check: false,
        repeat: 1,
        allow_nondeterministic: false,
        force: false,
        limits: run.limits(Some(&places))?,
        jobs: run.jobs(),
        format: report.format(),
        quiet: report.quiet,
    };
    Ok(bless_command(&args, false, stdout)?.exit_code())
}

/// What `fuzz --grow` was given.
pub struct Growing {
    pub dir: PathBuf,
    pub reference: Option<String>,
    pub corpus: Option<PathBuf>,
    pub ops: Vec<String>,
    pub generator: Option<String>,
    pub seed: Option<u64>,
    pub count: Option<usize>,
    pub duration: Option<Duration>,
    pub batch_size: usize,
}

/// `fuzz --grow DIR`: the suite's reference, cases and generator under
/// the flags, then the session (its report).
pub fn grow_corpus(
    flags: &ConfigFlags,
    given: Growing,
    mut run: OracleFlags,
    report: &ReportFlags,
    stdout: impl io::Write,
) -> anyhow::Result<u8> {
    report.check(formats::Command::Grow)?;
    let project = Project::open(flags)?;
    let suite = lone_suite(&project, &flags.suites)?;
    let places = project.places(
        GivenPlaces {
            cases: given.corpus,
            ..GivenPlaces::default()
        },
        suite,
    )?;
    run.settle(suite);
    let key = |pick: fn(&Suite) -> Option<&String>| suite.and_then(pick).cloned();
    let Some(reference) = given
        .reference
        .or_else(|| key(|suite| suite.reference.as_ref()))
    else {
        return Err(InputError::new(
            "fuzz --grow runs a Node reference with coverage on: give --reference CMD, or `reference` in the suite's table of parity.toml",
        )
        .into());
    };
    let dir = project.given(given.dir);
    project.enter()?;
    let args = GrowArgs {
        reference,
        dir,
        corpus: places.cases,
        ops: given.ops,
        generator: given
            .generator
            .or_else(|| key(|suite| suite.generator.as_ref())),
        seed: given.seed,
        count: given.count,
        duration: given.duration,
        batch_size: given.batch_size,
        limits: run.limits(None)?,
        jobs: run.jobs(),
        format: report.format(),
        quiet: report.quiet,
    };
    Ok(grow_command(&args, stdout, &mut io::stderr())?)
}

/// The one suite a command works on: the config's only one, or the one
/// `--suite` names (none without a config).
pub fn lone_suite<'a>(project: &'a Project, names: &[String]) -> anyhow::Result<Option<&'a Suite>> {
    let suites = project.suites(names)?;
    match suites[..] {
        [] => Ok(None),
        [suite] => Ok(Some(suite)),
        _ => {
            let names: Vec<&str> = suites.iter().map(|suite| suite.name.as_str()).collect();
            Err(InputError::new(format!(
                "this command works on one suite, and {} are selected ({}): choose one with --suite NAME",
                suites.len(),
                names.join(", ")
            ))
            .into())
        }
    }
}
