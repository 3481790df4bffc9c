//! `fuzz --grow DIR`: the corpus grown by coverage of a Node reference.
//!
//! Cases come from the same sources as `fuzz`'s (a generator, or the
//! corpus mutated: [`CaseSource`]) and run through the reference alone,
//! batch by batch, with V8's coverage on ([`probe`]). What the corpus
//! reaches is measured first ([`baseline`]); a batch that reaches nothing
//! beyond it (nor beyond what the session kept) costs its one run. One
//! that does is bisected, its halves run at once, down to the cases that
//! reach something new alone; each is kept, shrunk by the fuzz
//! minimizer's candidates ([`shrink`]) while it still reaches every new
//! stretch of code it reached ([`search`] finds each round's candidate
//! in few runs), and named for the first
//! (`"<op>: reaches <function>:<line>"`). A kept case's whole reach is
//! known from then on. The kept cases are staged in `DIR` with their
//! goldens ([`stage`]), for a person to review and `fuzz --promote`.

pub mod baseline;
pub mod command;
pub mod probe;
pub mod render;
pub mod search;
pub mod stage;

use std::collections::HashSet;
use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use self::baseline::{Baseline, Catalog, Named};
use self::probe::{Probe, Prober};
use self::search::first_reaching;
use super::collect::RunCoverage;
use super::novelty::Reached;
use crate::exec::pool;
use crate::fuzz::minimize::{op_of, shrink};
use crate::fuzz::runner::batch_plan;
use crate::fuzz::source::CaseSource;
use crate::fuzz::tree::Node;

/// How long and how a session runs.
#[derive(Debug, Clone)]
pub struct GrowConfig {
    /// The seed (the source has it too).
    pub seed: u64,
    /// Stop after this many generated cases.
    pub count: Option<usize>,
    /// Stop after this long (checked between batches).
    pub duration: Option<Duration>,
    /// Cases per batch.
    pub batch_size: usize,
    /// Most shrinking rounds per kept case.
    pub max_rounds: usize,
    /// Generated batches run at once.
    pub jobs: usize,
}

/// A case kept for what it reaches.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    /// Its op.
    pub op: String,
    /// Its name: `"<op>: reaches <function>:<line>"` for its first new
    /// stretch, `… and N more` when it reaches others elsewhere, numbered
    /// when another kept case has that name.
    pub name: String,
    /// The case, shrunk.
    pub case: Node,
    /// What it reaches that the corpus did not: each stretch's function
    /// and line once, in order.
    pub reaches: Vec<Named>,
}

/// What a session did.
#[derive(Debug, Clone, Default)]
pub struct GrowReport {
    /// Cases generated (and run).
    pub cases: usize,
    /// Batches generated.
    pub batches: usize,
    /// Reference runs in all: the corpus's files, the batches, their
    /// halves, the shrinking rounds.
    pub runs: usize,
    /// Case files the corpus was measured by (staged ones included).
    pub corpus_files: usize,
    /// The corpus's never-run spans.
    pub never_run: usize,
    /// How many of them the kept cases reach.
    pub newly_reached: usize,
    /// Code units (UTF-16) the kept cases reach that the corpus did not.
    pub units: u64,
    /// The kept cases, in the order found.
    pub kept: Vec<Kept>,
    /// What could not be run or named: one line each.
    pub errors: Vec<String>,
    /// Why the session ended early: the source failed, or the reference
    /// fails even on `[]`.
    pub stopped: Option<String>,
    /// How long it took.
    pub elapsed: Duration,
}

/// A session under way.
struct Grower<'a, 'p> {
    prober: &'a Prober<'p>,
    catalog: Catalog,
    /// What the corpus, the kept cases and their stretches reach.
    known: Reached,
    /// What the kept cases reach.
    grown: Reached,
    kept: Vec<Kept>,
    names: HashSet<String>,
    errors: Vec<String>,
    stopped: Option<String>,
    /// Whether the reference answers `[]` (asked once a batch fails).
    empty_runs: Option<bool>,
    max_rounds: usize,
    progress: &'a mut dyn Write,
}

/// A case's text, for a message.
fn text_of(case: &Node) -> String {
    String::from_utf8_lossy(&case.to_text()).into_owned()
}

impl Grower<'_, '_> {
    /// What `reached` has beyond what is known, white space left out.
    fn novelty(&mut self, reached: &Reached) -> Reached {
        let catalog = &mut self.catalog;
        reached
            .beyond(&self.known)
            .filtered(|url, start, end| !catalog.is_blank(url, start, end))
    }

    /// Bisects `cases` (whose probe says what they did together) down to
    /// the cases that reach something new alone, and keeps each.
    fn explore(&mut self, cases: &[Node], probe: Probe) {
        if self.stopped.is_some() || cases.is_empty() {
            return;
        }
        match probe {
            Probe::Ran { reached, coverage } => {
                if self.novelty(&reached).is_empty() {
                    return;
                }
                if let [case] = cases {
                    return self.keep(case, &reached, coverage);
                }
            }
            Probe::Failed(why) => {
                if let [case] = cases {
                    let case = text_of(case);
                    let line = format!("the reference failed on a case, left out: {why}: {case}");
                    let _ = writeln!(self.progress, "fuzz --grow: {line}");
                    return self.errors.push(line);
                }
                if !self.empty_batch_runs(&why) {
                    return;
                }
            }
        }
        let (first, second) = cases.split_at(cases.len() / 2);
        let (a, b) = self.prober.pair(first, second);
        self.explore(first, a);
        self.explore(second, b);
    }

    /// Whether the reference answers the empty batch; when it does not,
    /// no case can be told apart and the session stops.
    fn empty_batch_runs(&mut self, why: &str) -> bool {
        let runs = *self
            .empty_runs
            .get_or_insert_with(|| matches!(self.prober.probe(&[]), Probe::Ran { .. }));
        if !runs {
            self.stopped = Some(format!(
                "the reference fails even on an empty batch `[]`: {why}"
            ));
        }
        runs
    }

    /// Keeps `case`, which reached `reached` alone: shrunk while it
    /// still reaches every new stretch it reached, and named for the
    /// first.
    fn keep(&mut self, case: &Node, reached: &Reached, coverage: RunCoverage) {
        let target = self.novelty(reached);
        let prober = self.prober;
        let (mut found, mut hint) = (None, 0);
        let shrunk = shrink(case, self.max_rounds, |candidates| {
            let (at, reached, coverage) = first_reaching(prober, candidates, &target, hint)?;
            (found, hint) = (Some((reached, coverage)), at);
            Some(at)
        });
        // No candidate kept it all: the case as it came.
        let (shrunk_reached, shrunk_coverage) =
            found.unwrap_or_else(|| (reached.clone(), coverage));
        // The target too: a run that reached it once and not again
        // cannot keep a case for it twice.
        self.known.add(&shrunk_reached);
        self.known.add(&target);
        self.grown.add(&shrunk_reached);
        self.catalog.add(shrunk_coverage);
        let reaches = self.catalog.name_all(&target).unwrap_or_else(|error| {
            self.errors.push(error.message);
            Vec::new()
        });
        let op = op_of(case);
        let name = match reaches.split_first() {
            Some((first, rest)) => {
                let more = match rest.len() {
                    0 => String::new(),
                    more => format!(" and {more} more"),
                };
                format!("{op}: reaches {}:{}{more}", first.function, first.at.line)
            }
            None => format!("{op}: reaches new code"),
        };
        let name = self.unique(name);
        let _ = writeln!(self.progress, "fuzz --grow: kept {name}");
        self.kept.push(Kept {
            op,
            name,
            case: shrunk,
            reaches,
        });
    }

    /// `name`, or `name (2)`, `name (3)`… when a kept case has it.
    fn unique(&mut self, name: String) -> String {
        let mut unique = name.clone();
        let mut number = 1;
        while !self.names.insert(unique.clone()) {
            number += 1;
            unique = format!("{name} ({number})");
        }
        unique
    }
}

/// Runs a session from `baseline` (the corpus, measured through the same
/// prober), and reports what it kept. Fails on a configuration no
/// session can run; a source that fails ends the session early, with
/// what it kept.
pub fn grow(
    config: &GrowConfig,
    prober: &Prober<'_>,
    baseline: Baseline,
    source: &dyn CaseSource,
    progress: &mut dyn Write,
) -> Result<GrowReport, String> {
    if source.ops().is_empty() {
        return Err("no op to fuzz".into());
    }
    if config.batch_size == 0 {
        return Err("the batch size must be at least 1".into());
    }
    let started = Instant::now();
    let corpus = baseline.reached;
    let mut grower = Grower {
        prober,
        catalog: baseline.catalog,
        known: corpus.clone(),
        grown: Reached::default(),
        kept: Vec::new(),
        names: HashSet::new(),
        errors: baseline.errors,
        stopped: None,
        empty_runs: None,
        max_rounds: config.max_rounds,
        progress,
    };
    let mut report = GrowReport {
        corpus_files: baseline.files,
        never_run: baseline.never_run.len(),
        ..GrowReport::default()
    };
    let mut last_progress = Instant::now();
    let batches = batch_plan(config.count, config.duration, config.batch_size, started);
    pool::ordered(
        config.jobs.max(1),
        batches,
        |&(number, first, size)| {
            let cases = source.batch(number, first, size)?;
            let probe = prober.probe(&cases);
            Ok::<_, String>((cases, probe))
        },
        |(_, _, size), ran| {
            let (cases, probe) = match ran {
                Ok(ran) => ran,
                Err(message) => {
                    grower.stopped = Some(message);
                    return ControlFlow::Break(());
                }
            };
            grower.explore(&cases, probe);
            report.batches += 1;
            report.cases += size;
            if grower.stopped.is_some() {
                return ControlFlow::Break(());
            }
            if last_progress.elapsed() >= Duration::from_secs(2) {
                last_progress = Instant::now();
                let _ = writeln!(
                    grower.progress,
                    "fuzz --grow: {} cases, {} kept, {} reference runs",
                    report.cases,
                    grower.kept.len(),
                    prober.runs()
                );
            }
            ControlFlow::Continue(())
        },
    );
    report.newly_reached = baseline
        .never_run
        .iter()
        .filter(|(url, start, end)| {
            let span = Reached::of_intervals(url, [(*start, *end)]);
            !grower.grown.both(&span).is_empty()
        })
        .count();
    report.units = grower.grown.beyond(&corpus).units();
    report.kept = grower.kept;
    report.errors = grower.errors;
    report.stopped = grower.stopped;
    report.runs = prober.runs();
    report.elapsed = started.elapsed();
    Ok(report)
}
