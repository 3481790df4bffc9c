//! The fuzzing loop: take a batch from the source (a generator, or a
//! corpus mutated), run it through both oracles, compare element by
//! element, and minimize one case per divergence signature.
//!
//! A side that fails on a batch (crash, invalid output, a wrong number of
//! results, timeout) does not end the session: the cases that cause the
//! failure become `crash`, `invalid-output` or `timeout` divergences,
//! minimized like any other, and every other case is compared as usual.
//! They are found by bisection, unless the side printed one element per
//! case: its elements that are not JSON are then the cases to blame. Only a side that fails even on the empty batch
//! `[]` stops the session, since no case could be compared; the report
//! says so.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use super::batch_oracle::{BatchOracle, Classified};
use super::batch_run::{run_batch, Ran, Sides};
use super::divergence::first_difference;
use super::known::is_known;
use super::minimize::{minimize, op_of, Minimized};
use super::outcome::{case_signature, BatchOutcomes, Broken, Outcome, Side};
use super::regression::{self, FileStatus, RegressionFile};
use super::source::CaseSource;
use super::tree::Node;
use crate::exec::bisect::{batch_of, Together};
use crate::exec::oracle::{FailureKind, OracleFailure};
use crate::exec::pool;
use crate::ledger::Ledger;

/// What to fuzz, and for how long.
#[derive(Debug, Clone)]
pub struct FuzzConfig {
    /// The session's seed (the source has it too), named in regression
    /// cases.
    pub seed: u64,
    /// Stop after this many cases.
    pub count: Option<usize>,
    /// Stop after this long (checked between batches; bisecting and
    /// minimizing a batch's findings can run past it).
    pub duration: Option<Duration>,
    /// Cases per batch.
    pub batch_size: usize,
    /// Most minimization rounds per divergence.
    pub max_rounds: usize,
    /// Where minimized cases are written (none: not written).
    pub out_dir: Option<PathBuf>,
    /// How many batches run at once (`--jobs`); the findings are the same
    /// for every number.
    pub jobs: usize,
}

/// How much minimizing a session may cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shrinking {
    /// Minimize at all (`--no-minimize`: no).
    pub minimize: bool,
    /// Stop minimizing once it has spent this many times the oracle runs
    /// of the session's own batches (`--shrink-budget`; `None`: no
    /// limit): the findings after that are kept as found, as with
    /// `--no-minimize`. Runs, not seconds, so that a session's findings
    /// are the same on any machine; a minimizing run holds a round's
    /// candidates, fewer cases than a batch, so it costs no more than a
    /// batch's run and the time stays within the factor too.
    pub budget: Option<f64>,
}

/// The default budget: minimizing spends at most three times the
/// session's own oracle runs.
pub const DEFAULT_SHRINK_BUDGET: f64 = 3.0;

impl Default for Shrinking {
    fn default() -> Self {
        Shrinking {
            minimize: true,
            budget: Some(DEFAULT_SHRINK_BUDGET),
        }
    }
}

/// Every case of one divergence signature.
#[derive(Debug, Clone)]
pub struct DivergenceGroup {
    /// The op and the shape of the path where results part, or the op,
    /// the failure kind and the side that failed.
    pub signature: String,
    /// `None` when both sides gave results that differ; else how a side
    /// failed (the left's when both did).
    pub kind: Option<FailureKind>,
    /// Whether this is a range of cases that fail only together (a side
    /// failed on them as one batch, yet passed on each half); `first` and
    /// `minimized` are then an array of those cases, not minimized.
    pub together: bool,
    /// How many generated cases diverged this way.
    pub cases: usize,
    /// The first such case, as generated.
    pub first: Node,
    /// That case, minimized.
    pub minimized: Node,
    /// The minimized case's outcome on the left side.
    pub left: Outcome,
    /// See `left`.
    pub right: Outcome,
    /// Where the results first differ (value divergences).
    pub pointer: Option<String>,
    /// The regression case file for it.
    pub file: Option<RegressionFile>,
}

/// What a fuzzing session found.
#[derive(Debug, Clone, Default)]
pub struct FuzzReport {
    /// Cases run through both sides.
    pub cases: usize,
    /// The divergences, by signature.
    pub groups: Vec<DivergenceGroup>,
    /// How long it took.
    pub elapsed: Duration,
    /// Batch runs that failed as a whole (a side's run of a batch).
    pub failed_batches: usize,
    /// How many of them were bisected: the others printed one element
    /// per case, and the elements that are not JSON failed their cases.
    pub bisected_batches: usize,
    /// Oracle runs spent bisecting them.
    pub bisect_runs: usize,
    /// Oracle runs spent minimizing.
    pub minimize_runs: usize,
    /// The oracles' own time on the session's batches (each batch's run
    /// of both sides, bisection included).
    pub oracle_time: Duration,
    /// The oracle runs of the session's batches (two a batch, and
    /// bisection's).
    pub oracle_runs: usize,
    /// Time spent minimizing.
    pub minimize_time: Duration,
    /// Findings kept as found: `--no-minimize`, or the budget was spent.
    pub unminimized: usize,
    /// The budget the session had (`None`: no limit).
    pub shrink_budget: Option<f64>,
    /// Why the session ended early: a side fails even on `[]`.
    pub stopped: Option<Broken>,
    /// The divergences the ledger knows (an entry or a rule accepts
    /// them), by signature in the order found, with how many cases
    /// diverged so: counted, neither minimized nor written.
    pub known: Vec<(String, usize)>,
    /// The known divergences' cases by op (`?` for a case without a
    /// string op), for the closing line.
    pub known_by_op: std::collections::BTreeMap<String, usize>,
}

impl FuzzReport {
    /// How many cases diverged, over all signatures.
    pub fn diverged(&self) -> usize {
        self.groups.iter().map(|g| g.cases).sum()
    }
}

fn failure_kind(left: &Outcome, right: &Outcome) -> Option<FailureKind> {
    match (left, right) {
        (Err(failure), _) | (_, Err(failure)) => Some(failure.kind),
        _ => None,
    }
}

/// The name member a regression case gets.
fn case_name(group: &DivergenceGroup, seed: u64) -> String {
    match (&group.kind, &group.pointer) {
        (None, pointer) => format!(
            "fuzz seed {seed}: {} diverges at {}",
            op_of(&group.minimized),
            pointer.as_deref().unwrap_or("(bytes only)")
        ),
        _ => format!("fuzz seed {seed}: {}", group.signature),
    }
}

fn write_group(dir: &std::path::Path, group: &DivergenceGroup, seed: u64) -> RegressionFile {
    let cases = match (&group.minimized, group.together) {
        (Node::Array(cases), true) => cases.clone(),
        (case, _) => vec![case.clone()],
    };
    let contents = regression::case_file(&cases, &case_name(group, seed));
    regression::write(dir, &group.signature, &group.minimized.to_text(), &contents)
}

/// A group for cases that a side fails on only together.
fn together_group(
    cases: &[Node],
    outcomes: &[(Outcome, Outcome)],
    side: Side,
    together: Together,
) -> DivergenceGroup {
    let range = together.cases;
    let nodes = Node::Array(cases[range.clone()].to_vec());
    // The other side's results for the range, as one array.
    let other: Result<Vec<Vec<u8>>, OracleFailure> = outcomes[range.clone()]
        .iter()
        .map(|(l, r)| {
            if side == Side::Left {
                r.clone()
            } else {
                l.clone()
            }
        })
        .collect();
    let other = other.map(|results| batch_of(&results));
    let failed = Err(together.failure.clone());
    let (left, right) = match side {
        Side::Left => (failed, other),
        Side::Right => (other, failed),
    };
    DivergenceGroup {
        signature: format!(
            "(batch) {} ({}) only together",
            together.failure.kind,
            side.name()
        ),
        kind: Some(together.failure.kind),
        together: true,
        cases: range.len(),
        first: nodes.clone(),
        minimized: nodes,
        left,
        right,
        pointer: None,
        file: None,
    }
}

/// A session's batches, as `(number, first case, size)`: drawn while the
/// count and the duration allow (the duration is checked as each batch is
/// drawn). `fuzz --grow` draws its batches so too.
pub fn batch_plan(
    count: Option<usize>,
    duration: Option<Duration>,
    batch_size: usize,
    started: Instant,
) -> impl Iterator<Item = (u64, usize, usize)> {
    let (mut drawn, mut number) = (0usize, 0u64);
    std::iter::from_fn(move || {
        let done_count = count.is_some_and(|count| drawn >= count);
        let done_time = duration.is_some_and(|limit| started.elapsed() >= limit);
        if done_count || done_time {
            return None;
        }
        let size = match count {
            Some(count) => batch_size.min(count - drawn),
            None => batch_size,
        };
        let batch = (number, drawn, size);
        (number, drawn) = (number + 1, drawn + size);
        Some(batch)
    })
}

/// Runs a fuzzing session and reports every divergence, grouped by
/// signature, each with a minimized case. Progress goes to `progress`.
/// Fails on a configuration no session can run (no op, a batch size of 0)
/// and when the source fails (a generator that fails, or prints no case
/// array); an oracle's failures are findings. Findings made before a
/// source's failure are in `--out` already.
pub fn fuzz(
    config: &FuzzConfig,
    source: &dyn CaseSource,
    left: &(dyn BatchOracle + Sync),
    right: &(dyn BatchOracle + Sync),
    progress: &mut dyn Write,
) -> Result<FuzzReport, String> {
    fuzz_knowing(config, None, source, (left, right), progress)
}

/// [`fuzz_knowing`] with a minimizing budget ([`Shrinking`]).
pub fn fuzz_budgeted(
    config: &FuzzConfig,
    shrinking: Shrinking,
    ledger: Option<&Ledger>,
    source: &dyn CaseSource,
    sides: (&(dyn BatchOracle + Sync), &(dyn BatchOracle + Sync)),
    progress: &mut dyn Write,
) -> Result<FuzzReport, String> {
    session(config, shrinking, ledger, source, sides, progress)
}

/// [`fuzz`], weighing each divergence against a ledger: one it knows
/// ([`known`](super::known)) is counted in [`FuzzReport::known`], not
/// minimized and not written.
pub fn fuzz_knowing(
    config: &FuzzConfig,
    ledger: Option<&Ledger>,
    source: &dyn CaseSource,
    sides: (&(dyn BatchOracle + Sync), &(dyn BatchOracle + Sync)),
    progress: &mut dyn Write,
) -> Result<FuzzReport, String> {
    let unlimited = Shrinking {
        minimize: true,
        budget: None,
    };
    session(config, unlimited, ledger, source, sides, progress)
}

fn session(
    config: &FuzzConfig,
    shrinking: Shrinking,
    ledger: Option<&Ledger>,
    source: &dyn CaseSource,
    (left, right): Sides<'_>,
    progress: &mut dyn Write,
) -> Result<FuzzReport, String> {
    if source.ops().is_empty() {
        return Err("no op to fuzz".into());
    }
    if config.batch_size == 0 {
        return Err("the batch size must be at least 1".into());
    }
    let started = Instant::now();
    let mut merged = Merged {
        config,
        shrinking,
        ledger,
        sides: (left, right),
        progress,
        started,
        report: FuzzReport::default(),
        groups: BTreeMap::new(),
        order: Vec::new(),
        known: Vec::new(),
        known_by_op: Default::default(),
        last_progress: Instant::now(),
        source_failed: None,
    };
    // Batch `n` depends on the seed and `n` alone, so batches may run in
    // any order and at once. Their findings are merged here, in batch
    // order.
    let batches = batch_plan(config.count, config.duration, config.batch_size, started);
    merged.report.shrink_budget = shrinking.budget.filter(|_| shrinking.minimize);
    let run = |&batch: &(u64, usize, usize)| run_batch(source, ledger, (left, right), batch);
    pool::ordered(config.jobs, batches, run, |batch, ran| {
        merged.merge(batch, ran)
    });
    merged.into_report()
}

/// A session's findings so far, its batches' merged in batch order.
struct Merged<'a> {
    config: &'a FuzzConfig,
    shrinking: Shrinking,
    ledger: Option<&'a Ledger>,
    sides: Sides<'a>,
    progress: &'a mut dyn Write,
    started: Instant,
    report: FuzzReport,
    groups: BTreeMap<String, DivergenceGroup>,
    /// The groups' signatures, in the order found.
    order: Vec<String>,
    known: Vec<(String, usize)>,
    known_by_op: BTreeMap<String, usize>,
    last_progress: Instant,
    source_failed: Option<String>,
}

impl Merged<'_> {
    /// Merges one batch's outcomes; breaks when the session must stop.
    fn merge(&mut self, (_, _, size): (u64, usize, usize), ran: Ran) -> ControlFlow<()> {
        let cases = match ran {
            Ok((cases, outcomes, took)) => {
                self.report.oracle_time += took;
                self.report.oracle_runs += 2;
                Ok((cases, outcomes))
            }
            Err(message) => Err(message),
        };
        let (cases, outcomes) = match cases {
            Ok(ran) => ran,
            Err(message) => {
                self.source_failed = Some(message);
                return ControlFlow::Break(());
            }
        };
        let outcomes = match outcomes {
            Ok(outcomes) => outcomes,
            Err(broken) => {
                let _ = writeln!(
                    self.progress,
                    "fuzz: stopped: the {} oracle fails even on an empty batch `[]` ({}: {})",
                    broken.side.name(),
                    broken.failure.kind,
                    broken.failure.message
                );
                self.report.stopped = Some(broken);
                return ControlFlow::Break(());
            }
        };
        self.count_failed_runs(&outcomes, size);
        for (side, together) in outcomes.together.clone() {
            let group = together_group(&cases, &outcomes.cases, side, together);
            add_group(
                group,
                self.config,
                &mut self.groups,
                &mut self.order,
                self.progress,
            );
        }
        for (case, (l, r)) in cases.iter().zip(outcomes.cases) {
            self.merge_case(case, l, r);
        }
        self.report.cases += size;
        self.note_progress();
        ControlFlow::Continue(())
    }

    /// Counts a batch's runs that failed as a whole, a progress line each.
    fn count_failed_runs(&mut self, outcomes: &BatchOutcomes, size: usize) {
        let report = &mut self.report;
        report.failed_batches += outcomes.failed.len();
        report.bisected_batches += outcomes.failed.iter().filter(|run| run.bisected).count();
        report.bisect_runs += outcomes.bisect_runs;
        report.oracle_runs += outcomes.bisect_runs;
        for run in &outcomes.failed {
            let _ = writeln!(
                self.progress,
                "fuzz: the {} oracle failed on a batch of {size} cases ({}: {}); {}",
                run.side.name(),
                run.failure.kind,
                run.failure.message,
                if run.bisected {
                    "bisected"
                } else {
                    "each result judged alone"
                }
            );
        }
    }

    /// Merges one case's outcomes: a divergence is counted as known, into
    /// its group, or minimized as the first of a new group.
    fn merge_case(&mut self, case: &Node, l: Outcome, r: Outcome) {
        let op = op_of(case);
        let Some(signature) = case_signature(&op, &l, &r) else {
            return;
        };
        if self
            .ledger
            .is_some_and(|ledger| is_known(ledger, &op, &l, &r))
        {
            // Counted, and named once in the report (with --verbose):
            // a partial port has dozens, each known already.
            *self.known_by_op.entry(op).or_default() += 1;
            match self.known.iter_mut().find(|(seen, _)| *seen == signature) {
                Some((_, count)) => *count += 1,
                None => self.known.push((signature, 1)),
            }
            return;
        }
        if let Some(group) = self.groups.get_mut(&signature) {
            group.cases += 1;
            return;
        }
        let kind = failure_kind(&l, &r);
        let minimized = self.minimized(case, &signature, (l, r));
        let pointer = match (&minimized.left, &minimized.right) {
            (Ok(l), Ok(r)) => first_difference(l, r),
            _ => None,
        };
        let group = DivergenceGroup {
            signature,
            kind,
            together: false,
            cases: 1,
            first: case.clone(),
            minimized: minimized.case,
            left: minimized.left,
            right: minimized.right,
            pointer,
            file: None,
        };
        add_group(
            group,
            self.config,
            &mut self.groups,
            &mut self.order,
            self.progress,
        );
    }

    /// The first case of a new group, minimized as far as the budget
    /// allows (kept as found when it allows nothing).
    fn minimized(&mut self, case: &Node, signature: &str, (l, r): (Outcome, Outcome)) -> Minimized {
        let report = &mut self.report;
        // What the budget leaves: minimizing may spend `budget` times
        // the session's oracle runs so far, less what it has spent.
        let left_to_spend = match self.shrinking.budget {
            _ if !self.shrinking.minimize => Some(0),
            Some(budget) => {
                let allowed = (report.oracle_runs as f64 * budget) as usize;
                Some(allowed.saturating_sub(report.minimize_runs))
            }
            None => None,
        };
        let minimized = if left_to_spend == Some(0) {
            report.unminimized += 1;
            Minimized {
                case: case.clone(),
                left: l,
                right: r,
                runs: 0,
            }
        } else {
            let began = Instant::now();
            let (left, right) = self.sides;
            let minimized = minimize(
                case,
                signature,
                (l, r),
                (left, right),
                self.config.max_rounds,
                left_to_spend,
            );
            report.minimize_time += began.elapsed();
            minimized
        };
        report.minimize_runs += minimized.runs;
        minimized
    }

    /// A progress line, at most one every two seconds.
    fn note_progress(&mut self) {
        if self.last_progress.elapsed() >= Duration::from_secs(2) {
            self.last_progress = Instant::now();
            let report = &self.report;
            let rate = report.cases as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
            let diverged: usize = self.groups.values().map(|g| g.cases).sum();
            let _ = writeln!(
                self.progress,
                "fuzz: {} cases, {} diverged ({} signatures), {} cases/s",
                report.cases,
                diverged,
                self.groups.len(),
                super::rate::rate_text(rate)
            );
        }
    }

    /// The session's report, or the source's failure.
    fn into_report(self) -> Result<FuzzReport, String> {
        if let Some(message) = self.source_failed {
            return Err(message);
        }
        let mut report = self.report;
        let mut groups = self.groups;
        report.groups = self
            .order
            .into_iter()
            .filter_map(|s| groups.remove(&s))
            .collect();
        report.known = self.known;
        report.known_by_op = self.known_by_op;
        report.elapsed = self.started.elapsed();
        Ok(report)
    }
}

/// Records a new group (or counts another range into a known one),
/// writing its regression file.
fn add_group(
    mut group: DivergenceGroup,
    config: &FuzzConfig,
    groups: &mut BTreeMap<String, DivergenceGroup>,
    order: &mut Vec<String>,
    progress: &mut dyn Write,
) {
    if let Some(known) = groups.get_mut(&group.signature) {
        known.cases += group.cases;
        return;
    }
    if let Some(dir) = &config.out_dir {
        let file = write_group(dir, &group, config.seed);
        let path = file.path.display();
        let _ = match &file.status {
            FileStatus::Written => Ok(()),
            FileStatus::Unchanged | FileStatus::SameCase => {
                writeln!(progress, "fuzz: {path} is already there")
            }
            FileStatus::Differs => writeln!(
                progress,
                "fuzz: {path} exists with other content; left as it is"
            ),
            FileStatus::Failed(message) => writeln!(progress, "fuzz: not written: {message}"),
        };
        group.file = Some(file);
    }
    let _ = writeln!(progress, "fuzz: new divergence {}", group.signature);
    order.push(group.signature.clone());
    groups.insert(group.signature.clone(), group);
}
