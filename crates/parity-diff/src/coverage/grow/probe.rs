//! A probe: cases run as one batch through the reference with V8's
//! coverage on, and what the batch reached, or why nothing can be said of
//! it. Every run of `fuzz --grow` is one: a generated batch, a half of one
//! being bisected, a round's candidates while a kept case shrinks.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::coverage::collect::{run_batch, RunCoverage};
use crate::coverage::novelty::Reached;
use crate::exec::oracle::{OracleFailure, OracleOptions};
use crate::fuzz::tree::Node;

/// What one probe found.
#[derive(Debug)]
pub enum Probe {
    /// The batch ran: what it reached, and its coverage (whose functions
    /// name what a kept case reaches).
    Ran {
        /// The offsets it reached.
        reached: Reached,
        /// The run's coverage.
        coverage: RunCoverage,
    },
    /// The reference failed on the batch, or wrote no coverage: why.
    Failed(String),
}

/// Runs probes through one reference, counting them.
pub struct Prober<'a> {
    reference: &'a str,
    limits: OracleOptions,
    /// Whether the two halves of a batch may run at once (`--jobs` over 1).
    parallel: bool,
    runs: AtomicUsize,
}

/// A batch of cases as the reference reads it.
pub fn batch_text(cases: &[Node]) -> Vec<u8> {
    let mut text = b"[".to_vec();
    for (at, case) in cases.iter().enumerate() {
        if at > 0 {
            text.push(b',');
        }
        case.write(&mut text);
    }
    text.push(b']');
    text
}

/// How the reference failed, in one line, with the last line of its
/// stderr (the oracle layer's words name it "the oracle").
pub fn failure_text(failure: &OracleFailure) -> String {
    let stderr = failure
        .stderr
        .as_deref()
        .and_then(|stderr| stderr.trim_end().lines().last())
        .map(|line| format!(" (its stderr ends: {line})"))
        .unwrap_or_default();
    let message = failure
        .message
        .replace("the oracle command", "the reference")
        .replace("the oracle", "the reference");
    format!("{}: {message}{stderr}", failure.kind)
}

impl<'a> Prober<'a> {
    /// Probes through `reference` under `limits`; `parallel`: two at once.
    pub fn new(reference: &'a str, limits: OracleOptions, parallel: bool) -> Prober<'a> {
        Prober {
            reference,
            limits,
            parallel,
            runs: AtomicUsize::new(0),
        }
    }

    /// Whether two probes may run at once.
    pub fn parallel(&self) -> bool {
        self.parallel
    }

    /// Runs a case array's bytes.
    pub fn probe_input(&self, input: &[u8]) -> Probe {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let ran = run_batch(self.reference, input, self.limits);
        match (ran.failure, ran.coverage) {
            (Some(failure), _) => Probe::Failed(failure_text(&failure)),
            (None, Err(why)) => Probe::Failed(why),
            (None, Ok(coverage)) => Probe::Ran {
                reached: Reached::of(&coverage),
                coverage,
            },
        }
    }

    /// Runs cases as one batch.
    pub fn probe(&self, cases: &[Node]) -> Probe {
        self.probe_input(&batch_text(cases))
    }

    /// Runs two batches, at once when parallel.
    pub fn pair(&self, first: &[Node], second: &[Node]) -> (Probe, Probe) {
        if !self.parallel {
            return (self.probe(first), self.probe(second));
        }
        std::thread::scope(|scope| {
            let other = scope.spawn(|| self.probe(second));
            let mine = self.probe(first);
            let other = other
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (mine, other)
        })
    }

    /// How many probes ran.
    pub fn runs(&self) -> usize {
        self.runs.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_batch_is_one_array_and_a_reference_without_coverage_says_so() {
        let cases = [Node::object([("op", Node::str("a"))]), Node::int(2)];
        assert_eq!(batch_text(&cases), br#"[{"op":"a"},2]"#);
        assert_eq!(batch_text(&[]), b"[]");
        let limits = OracleOptions::new(Duration::from_secs(10), 1 << 20);
        let prober = Prober::new("cat", limits, true);
        let (first, second) = prober.pair(&cases, &[]);
        for probe in [first, second] {
            match probe {
                Probe::Failed(why) => assert!(why.contains("no coverage"), "{why}"),
                Probe::Ran { .. } => panic!("cat wrote coverage"),
            }
        }
        let failing = Prober::new("echo broken >&2; exit 3", limits, false);
        match failing.probe(&cases) {
            Probe::Failed(why) => assert_eq!(
                why,
                "crash: the reference exited with status 3 (its stderr ends: broken)"
            ),
            Probe::Ran { .. } => panic!("a failing reference ran"),
        }
        assert_eq!((prober.runs(), failing.runs()), (2, 1));
    }
}
