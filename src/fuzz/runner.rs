//! The fuzzing loop: generate a batch, run it through both oracles,
//! compare element by element, and minimize one case per divergence
//! signature.
//!
//! A side that fails on a batch (crash, invalid output, a wrong number of
//! results, timeout) does not end the session: the batch is bisected, the
//! cases that cause the failure become `crash`, `invalid-output` or
//! `timeout` divergences, minimized like any other, and every other case
//! is compared as usual. Only a side that fails even on the empty batch
//! `[]` stops the session, since no case could be compared; the report
//! says so.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::divergence::first_difference;
use super::generate::{generator, Gen, MakeCase};
use super::minimize::{minimize, op_of};
use super::outcome::{case_signature, run_both, BatchOutcomes, Broken, Outcome, Side};
use super::regression::{self, FileStatus, RegressionFile};
use super::tree::Node;
use crate::diff::bisect::{batch_of, Together};
use crate::diff::oracle::{FailureKind, OracleFailure};
use crate::diff::pool;

/// Something that turns a batch (a JSON array of cases) into its result
/// array: a command, our own oracle, or a test's planted bug.
pub trait BatchOracle {
    /// The result array's bytes, or how the oracle failed.
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, OracleFailure>;
}

/// A function whose failures are plain messages: each is a `crash`.
impl<F: Fn(&[u8]) -> Result<Vec<u8>, String>> BatchOracle for F {
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        self(batch).map_err(|message| OracleFailure::new(FailureKind::Crash, message))
    }
}

/// A function whose failures carry their kind.
pub struct Classified<F>(pub F);

impl<F: Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>> BatchOracle for Classified<F> {
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        (self.0)(batch)
    }
}

/// Our own oracle, in this process.
pub fn in_process(batch: &[u8]) -> Result<Vec<u8>, String> {
    crate::batch::run_batch_bytes(batch).map_err(|error| match error {
        crate::batch::BatchError::Refused(refusal) => refusal.reason,
        output => output.to_string(),
    })
}

/// What to fuzz, and for how long.
#[derive(Debug, Clone)]
pub struct FuzzConfig {
    /// The seed of the first batch; batch `n` uses `seed + n`.
    pub seed: u64,
    /// The ops to generate cases for (round robin).
    pub ops: Vec<String>,
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
    /// Oracle runs spent bisecting them.
    pub bisect_runs: usize,
    /// Oracle runs spent minimizing.
    pub minimize_runs: usize,
    /// Why the session ended early: a side fails even on `[]`.
    pub stopped: Option<Broken>,
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

/// Runs a fuzzing session and reports every divergence, grouped by
/// signature, each with a minimized case. Progress goes to `progress`.
/// Fails only on a configuration no session can run (an op with no
/// generator, a batch size of 0); an oracle's failures are findings.
pub fn fuzz(
    config: &FuzzConfig,
    left: &(dyn BatchOracle + Sync),
    right: &(dyn BatchOracle + Sync),
    progress: &mut dyn Write,
) -> Result<FuzzReport, String> {
    let makers = config
        .ops
        .iter()
        .map(|op| generator(op).ok_or_else(|| format!("no case generator for op {op:?}")))
        .collect::<Result<Vec<MakeCase>, String>>()?;
    if config.batch_size == 0 {
        return Err("the batch size must be at least 1".into());
    }
    let started = Instant::now();
    let mut report = FuzzReport::default();
    let mut groups: BTreeMap<String, DivergenceGroup> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut last_progress = Instant::now();
    // Batches are drawn while the count and the duration allow; batch `n`
    // depends on the seed and `n` alone, so they may run in any order and
    // at once. Their findings are merged here, in batch order.
    let (mut drawn, mut number) = (0usize, 0u64);
    let batches = std::iter::from_fn(|| {
        let done_count = config.count.is_some_and(|count| drawn >= count);
        let done_time = config
            .duration
            .is_some_and(|limit| started.elapsed() >= limit);
        if done_count || done_time || makers.is_empty() {
            return None;
        }
        let size = match config.count {
            Some(count) => config.batch_size.min(count - drawn),
            None => config.batch_size,
        };
        let batch = (number, drawn, size);
        (number, drawn) = (number + 1, drawn + size);
        Some(batch)
    });
    let run_batch = |&(number, first, size): &(u64, usize, usize)| {
        let mut gen = Gen::new(config.seed.wrapping_add(number));
        let cases: Vec<Node> = (0..size)
            .map(|at| gen.case_from(makers[(first + at) % makers.len()]))
            .collect();
        let texts: Vec<Vec<u8>> = cases.iter().map(Node::to_text).collect();
        let outcomes = run_both(&texts, left, right, true);
        (cases, outcomes)
    };
    let merge = |(_, _, size): (u64, usize, usize),
                 (cases, outcomes): (Vec<Node>, Result<BatchOutcomes, Broken>)| {
        let outcomes = match outcomes {
            Ok(outcomes) => outcomes,
            Err(broken) => {
                let _ = writeln!(
                    progress,
                    "fuzz: stopped: the {} oracle fails even on an empty batch `[]` ({}: {})",
                    broken.side.name(),
                    broken.failure.kind,
                    broken.failure.message
                );
                report.stopped = Some(broken);
                return ControlFlow::Break(());
            }
        };
        report.failed_batches += outcomes.failed.len();
        report.bisect_runs += outcomes.bisect_runs;
        for (side, failure) in &outcomes.failed {
            let _ = writeln!(
                progress,
                "fuzz: the {} oracle failed on a batch of {size} cases ({}: {}); bisected",
                side.name(),
                failure.kind,
                failure.message
            );
        }
        for (side, together) in outcomes.together.clone() {
            let group = together_group(&cases, &outcomes.cases, side, together);
            add_group(group, config, &mut groups, &mut order, progress);
        }
        for (case, (l, r)) in cases.iter().zip(outcomes.cases) {
            let op = op_of(case);
            let Some(signature) = case_signature(&op, &l, &r) else {
                continue;
            };
            if let Some(group) = groups.get_mut(&signature) {
                group.cases += 1;
                continue;
            }
            let kind = failure_kind(&l, &r);
            let minimized = minimize(case, &signature, (l, r), left, right, config.max_rounds);
            report.minimize_runs += minimized.runs;
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
            add_group(group, config, &mut groups, &mut order, progress);
        }
        report.cases += size;
        if last_progress.elapsed() >= Duration::from_secs(2) {
            last_progress = Instant::now();
            let rate = report.cases as f64 / started.elapsed().as_secs_f64().max(1e-9);
            let diverged: usize = groups.values().map(|g| g.cases).sum();
            let _ = writeln!(
                progress,
                "fuzz: {} cases, {} diverged ({} signatures), {:.0} cases/s",
                report.cases,
                diverged,
                groups.len(),
                rate
            );
        }
        ControlFlow::Continue(())
    };
    pool::ordered(config.jobs, batches, run_batch, merge);
    report.groups = order
        .into_iter()
        .filter_map(|s| groups.remove(&s))
        .collect();
    report.elapsed = started.elapsed();
    Ok(report)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::OPS;

    fn config(ops: &[&str], count: usize) -> FuzzConfig {
        FuzzConfig {
            seed: 1,
            ops: ops.iter().map(|s| s.to_string()).collect(),
            count: Some(count),
            duration: None,
            batch_size: 250,
            max_rounds: 100,
            out_dir: None,
            jobs: 1,
        }
    }

    #[test]
    fn our_oracle_agrees_with_itself() {
        let ops: Vec<&str> = OPS.iter().map(|spec| spec.name).collect();
        let report = fuzz(
            &config(&ops, 500),
            &in_process,
            &in_process,
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(report.cases, 500);
        assert!(report.groups.is_empty());
    }

    /// Our oracle, except that every case holding `marker` in its text
    /// fails the whole batch as `effect` says.
    fn failing_on(
        marker: &'static str,
        effect: fn(&[u8]) -> Result<Vec<u8>, OracleFailure>,
    ) -> Classified<impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>> {
        Classified(move |batch: &[u8]| {
            let hit = batch.windows(marker.len()).any(|w| w == marker.as_bytes());
            let output =
                in_process(batch).map_err(|m| OracleFailure::new(FailureKind::Crash, m))?;
            if hit {
                effect(&output)
            } else {
                Ok(output)
            }
        })
    }

    fn infinity(output: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        let mut out = output[..output.len() - 1].to_vec();
        out.extend_from_slice(b",Infinity]");
        Ok(out)
    }

    fn dies(_: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        Err(OracleFailure::new(
            FailureKind::Crash,
            "the oracle exited with status 3",
        ))
    }

    fn drops_one(output: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        // The last result is left out.
        let text = String::from_utf8_lossy(output);
        let elements: Vec<&[u8]> = crate::diff::golden::split_elements(text.as_bytes()).unwrap();
        Ok(batch_of(&elements[..elements.len() - 1]))
    }

    fn hangs(_: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        Err(OracleFailure::new(
            FailureKind::Timeout,
            "the oracle did not finish",
        ))
    }

    #[test]
    fn a_failing_side_costs_only_its_cases_and_the_session_goes_on() {
        // `1e400` is among the boundary numbers readyTimeoutMs draws.
        for (effect, kind) in [
            (infinity as fn(&[u8]) -> _, FailureKind::InvalidOutput),
            (dies, FailureKind::Crash),
            (drops_one, FailureKind::InvalidOutput),
            (hangs, FailureKind::Timeout),
        ] {
            let left = failing_on("1e400", effect);
            let report = fuzz(
                &config(&["readyTimeoutMs"], 2000),
                &left,
                &in_process,
                &mut Vec::new(),
            )
            .unwrap();
            assert_eq!(report.cases, 2000);
            assert!(report.stopped.is_none());
            let signature = format!("readyTimeoutMs {kind} (left)");
            let [group] = report.groups.as_slice() else {
                panic!("{kind}: {:?}", report.groups);
            };
            assert_eq!(group.signature, signature);
            assert_eq!(group.kind, Some(kind));
            assert!(group.cases > 1, "{kind}: {} cases", group.cases);
            // Minimized with the same failure kind, op kept.
            let minimized = String::from_utf8(group.minimized.to_text()).unwrap();
            assert!(
                minimized == r#"{"op":"readyTimeoutMs","configured":1e400}"#
                    || minimized == r#"{"op":"readyTimeoutMs","configured":-1e400}"#,
                "{kind}: {minimized}"
            );
            assert_eq!(group.left.as_ref().unwrap_err().kind, kind);
            assert!(group.right.is_ok());
            assert!(report.failed_batches >= 1);
            // About 3% of the cases fail: bisection costs about 2 log2(250/8)
            // runs per bad case (per batch of 250 with 8 bad cases), fewer
            // runs than cases.
            let (runs, bad) = (report.bisect_runs, group.cases);
            assert!(
                runs < 12 * bad && runs < 1000,
                "{kind}: {runs} runs, {bad} bad"
            );
        }
    }

    #[test]
    fn a_side_broken_on_every_batch_stops_the_session_with_a_report() {
        let broken = |_: &[u8]| -> Result<Vec<u8>, String> { Err("cannot start".into()) };
        let mut progress = Vec::new();
        let report = fuzz(
            &config(&["cliArgs"], 500),
            &in_process,
            &broken,
            &mut progress,
        )
        .unwrap();
        assert_eq!(report.cases, 0);
        let stopped = report.stopped.unwrap();
        assert_eq!(stopped.side, Side::Right);
        assert_eq!(stopped.failure.message, "cannot start");
        assert_eq!(
            String::from_utf8(progress).unwrap(),
            "fuzz: stopped: the right oracle fails even on an empty batch `[]` (crash: cannot start)\n"
        );
    }

    #[test]
    fn cases_that_fail_only_together_are_one_group() {
        // The port fails on batches of more than 100 cases.
        let small = Classified(|batch: &[u8]| {
            let cases = crate::js::parse(batch, crate::js::TextMode::LossyUtf8)
                .map_err(|e| OracleFailure::new(FailureKind::Crash, e.to_string()))?;
            if cases.as_array().map_or(0, <[_]>::len) > 100 {
                return Err(OracleFailure::new(FailureKind::Crash, "too big"));
            }
            in_process(batch).map_err(|m| OracleFailure::new(FailureKind::Crash, m))
        });
        let out = tempfile::tempdir().unwrap();
        let mut config = config(&["readyTimeoutMs"], 250);
        config.out_dir = Some(out.path().to_path_buf());
        let report = fuzz(&config, &small, &in_process, &mut Vec::new()).unwrap();
        let [group] = report.groups.as_slice() else {
            panic!("{:?}", report.groups);
        };
        assert_eq!(group.signature, "(batch) crash (left) only together");
        assert!(group.together);
        // 250 → 125 + 125, each of which splits into halves that pass.
        assert_eq!(group.cases, 250);
        let Node::Array(cases) = &group.minimized else {
            panic!("not the range's cases");
        };
        assert_eq!(cases.len(), 125);
        let file = group.file.as_ref().unwrap();
        assert_eq!(file.status, FileStatus::Written);
        let written = crate::js::parse(
            &std::fs::read(&file.path).unwrap(),
            crate::js::TextMode::LossyUtf8,
        )
        .unwrap();
        assert_eq!(written.as_array().unwrap().len(), 125);
        assert_eq!(
            written.as_array().unwrap()[0]
                .get("name")
                .as_js_string()
                .unwrap()
                .to_string(),
            "fuzz seed 1: (batch) crash (left) only together (1 of 125)"
        );
    }

    #[test]
    fn configurations_no_session_can_run_are_refused() {
        let error = fuzz(
            &config(&["nope"], 1),
            &in_process,
            &in_process,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(error, r#"no case generator for op "nope""#);
        let mut zero = config(&["cliArgs"], 1);
        zero.batch_size = 0;
        assert!(fuzz(&zero, &in_process, &in_process, &mut Vec::new()).is_err());
    }
}
