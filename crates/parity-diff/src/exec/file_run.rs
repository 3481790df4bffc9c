//! One case file of `run` (and `accept`): its oracle run, which may
//! happen on any thread ([`run_ready`]), and its records, made in corpus
//! order on the thread that reports ([`report_ready`]).
//!
//! When the oracle fails on the file, the cases to blame are found by
//! [`execute`](crate::exec::execute): each becomes a record of its own
//! (verdict `crash`, `invalid-output` or `timeout`, with the end of what
//! the oracle wrote on stderr when it ran that case alone), a divergence
//! the ledger weighs like any other, and every other case is compared as
//! usual.

use crate::exec::known_crash::{execute_known, KnownCrashes};
use std::borrow::Cow;
use std::io;
use std::ops::Range;

use crate::base::redact::Secrets;
use crate::corpus::cases::{Case, CaseFile};
use crate::corpus::identity::path_text;
use crate::corpus::plan::Selection;
use crate::corpus::Entry as FileEntry;
use crate::exec::bisect::Together;
use crate::exec::execute::{execute, spans_in, Blamed, Execution};
use crate::exec::oracle::{FailureKind, OracleFailure};
use crate::exec::pairing::{
    pair, write_selected, Held, HeldCases, HeldOutcomes, HeldResults, Rule, Slot,
};
use crate::exec::repeat::{self, Rerun, Reruns};
use crate::exec::verdicts::{compare_case, Pair};
use crate::judge::compare::Judging;
use crate::judge::framing::{describe, odd_gaps, Framing};
use crate::judge::input;
use crate::ledger::rules::decide_framing;
use crate::ledger::Ledger;
use crate::report::record::{build, unstable};
use crate::report::record::{CaseRecord, CaseState, VerdictKind};
use crate::report::{Consumer, Problem};

/// How much of the oracle's stderr a case's record keeps: its end.
pub const STDERR_TAIL: usize = 2048;

/// A file ready to run: its cases, the selected ones (`None`: every
/// case) and the golden's bytes.
pub type Ready<'a> = (&'a CaseFile, Option<&'a Selection>, &'a [u8]);

/// What the oracle made of a ready file.
#[derive(Debug)]
pub enum FileRun {
    /// The golden is not a JSON array (the oracle was not run).
    BadGolden(String),
    /// The golden's elements, the oracle's run, and (with `--repeat`)
    /// the results that differed on another run.
    Ran(Vec<Range<usize>>, Execution, Reruns),
}

/// The oracle's input: the case file as it stands, or the array of the
/// selected cases ([`write_selected`], as a streamed file sends them).
fn oracle_input<'a>(cases: &'a CaseFile, selection: Option<&Selection>) -> Cow<'a, [u8]> {
    let Some(selection) = selection else {
        return Cow::Borrowed(&cases.bytes);
    };
    let mut array = Vec::with_capacity(cases.bytes.len());
    let positions = &selection.positions;
    match write_selected::<_, io::Error>(&mut HeldCases(Some(cases)), positions, &mut array) {
        Ok(()) => Cow::Owned(array),
        // Writing to memory cannot fail.
        Err(error) => unreachable!("{error}"),
    }
}

/// How a file's results stand against its `cases` cases: at their
/// positions, or (with a selection) the selected cases' in order.
pub fn rule(selection: Option<&Selection>, cases: usize) -> Rule<'_> {
    match selection {
        None => Rule::ByPosition { until_cases: false },
        Some(selection) => Rule::Selected {
            positions: &selection.positions,
            tail: selection.tail,
            cases,
        },
    }
}

/// Runs a ready file through the oracle (`oracle` runs one batch),
/// bisecting when it fails; with `repeat` above 1, a run that succeeds
/// is run again that many times in all ([`repeat::reruns`]). Safe to
/// call on any thread.
pub fn run_ready(
    entry: &FileEntry,
    (cases, selection, golden): Ready,
    oracle: impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>,
    (repeat, known): (usize, Option<&KnownCrashes>),
) -> FileRun {
    let golden_name = path_text(&entry.golden_path);
    let golden_spans = match input::elements("golden", &golden_name, golden) {
        Ok(elements) => spans_in(golden, &elements),
        Err(failure) => return FileRun::BadGolden(failure.message),
    };
    let input = oracle_input(cases, selection);
    let positions: Option<Vec<usize>> = cases.is_array.then(|| match selection {
        Some(selection) => selection.positions.clone(),
        None => (0..cases.items.len())
            .filter(|&at| cases.raw(at).is_some())
            .collect(),
    });
    let sent: Option<Vec<&[u8]>> = positions.as_ref().map(|positions| {
        positions
            .iter()
            .map(|&at| cases.raw(at).unwrap_or(b"null"))
            .collect()
    });
    let execution = match (known, &positions, &sent) {
        (Some(known), Some(positions), Some(sent)) => {
            let mask = known.of_sent(&entry.name, cases, positions);
            execute_known(&oracle, &input, sent, &mask)
        }
        _ => execute(&oracle, &input, sent.as_deref()),
    };
    let reruns = match &execution {
        Execution::Results { output, spans } => {
            repeat::reruns(&oracle, &input, (output, spans), repeat)
        }
        _ => Vec::new(),
    };
    FileRun::Ran(golden_spans, execution, reruns)
}

/// The verdict of a case the oracle failed on.
pub fn failure_verdict(kind: FailureKind) -> VerdictKind {
    match kind {
        FailureKind::Crash => VerdictKind::Crash,
        FailureKind::InvalidOutput => VerdictKind::InvalidOutput,
        FailureKind::Timeout => VerdictKind::Timeout,
    }
}

/// The end of a text, at most `bytes` bytes, from a line's start when one
/// starts there.
pub fn tail(text: &str, bytes: usize) -> String {
    if text.len() <= bytes {
        return text.to_owned();
    }
    let mut start = text.len() - bytes;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let cut = &text[start..];
    let from_line = cut.find('\n').map_or(cut, |at| &cut[at + 1..]);
    let kept = if from_line.trim().is_empty() {
        cut
    } else {
        from_line
    };
    format!("… {kept}")
}

/// The record of a case the oracle failed on: its stderr masked with
/// the case file's `secrets` (before it is cut, so that no part of a
/// secret survives the cut). A result of a streamed file that is not
/// JSON has no stderr (the oracle did not run its case alone), and no
/// secrets are needed.
pub fn failure_record(
    file: &str,
    index: usize,
    case: Option<Case<'_>>,
    failure: OracleFailure,
    secrets: Option<&Secrets>,
    judged: build::Judged<'_>,
) -> CaseRecord {
    let verdict = failure_verdict(failure.kind);
    let case = case.map(|case| (case.item, case.raw));
    let mut record = build::oracle_failure_of(file, index, case, verdict, &failure.message, judged);
    record.stderr = failure
        .stderr
        .zip(secrets)
        .map(|(text, secrets)| tail(&secrets.mask_quoted_text(&text), STDERR_TAIL));
    // What the oracle printed instead of an array goes in the case's
    // summary, not its signature: every case's differs.
    if let Some((head, secrets)) = failure.stdout.zip(secrets) {
        let summary = format!("{}; its stdout {head}", record.summary);
        record.summary = secrets.mask_quoted_text(&summary);
    }
    record
}

/// What meets at one position of a run's file, judged: a result that
/// is its case's failure is a record of its own ([`failure_record`]);
/// anything else is compared ([`compare_case`]).
pub fn judge_slot<C: Consumer>(
    consumer: &mut C,
    file: &str,
    slot: Slot<'_>,
    (secrets, rerun): (Option<&Secrets>, Option<&Rerun>),
    (ledger, judging): (Option<&Ledger>, Judging<'_>),
) -> io::Result<()> {
    let Slot {
        index,
        case,
        golden,
        actual,
    } = slot;
    if let (Some(rerun), Some(Ok(first))) = (rerun, &actual) {
        let unstable = unstable::Unstable {
            first,
            run: rerun.run,
            answer: rerun.answer.as_deref().map_err(String::as_str),
        };
        let case = case.map(|case| (case.item, case.raw));
        let judged = build::Judged { golden, ledger };
        let record = unstable::nondeterministic_of(file, index, case, unstable, judged);
        return consumer.case(record);
    }
    let actual = match actual {
        Some(Err(failure)) => {
            let judged = build::Judged { golden, ledger };
            let record = failure_record(file, index, case, failure, secrets, judged);
            return consumer.case(record);
        }
        Some(Ok(bytes)) => Some(bytes),
        None => None,
    };
    let pair = Pair {
        index,
        case,
        golden,
        actual,
    };
    compare_case(consumer, file, pair, ledger, judging)
}

/// The problem of cases the oracle failed on only together: compared,
/// but from results of separate runs. `position` says where the k-th
/// case sent stands in the case file.
fn together_problem(
    position: impl Fn(usize) -> usize,
    together: Together,
    secrets: &Secrets,
) -> Problem {
    let range = together.cases;
    let (first, last) = (position(range.start), position(range.end - 1));
    let failure = together.failure;
    let how = match failure.kind {
        FailureKind::Timeout => "did not finish".to_owned(),
        kind => format!("failed ({kind}: {})", failure.message),
    };
    Problem::Error {
        message: format!(
            "the oracle {how} on cases #{first} to #{last} ({} cases) run together, \
             but not on either half of them; their results come from separate runs",
            range.len()
        ),
        stderr: failure.stderr.map(|text| secrets.mask_quoted_text(&text)),
        skipped: 0,
        port: true,
    }
}

/// The framing divergence of a file, weighed against the ledger: failed
/// without a ledger, accepted by the `match: framing` rule that takes the
/// file, else new. `found` says how the framing differs; the gaps of an
/// array that is JSON hold only white space, brackets and commas, so
/// nothing in it is masked.
pub fn framing_problem(found: String, file: &str, ledger: Option<&Ledger>) -> Problem {
    let rule = ledger.and_then(|ledger| decide_framing(ledger.rules(), file));
    let state = match (ledger, rule) {
        (None, _) => CaseState::Failed,
        (Some(_), None) => CaseState::New,
        (Some(_), Some(_)) => CaseState::Accepted,
    };
    Problem::Framing {
        found,
        state,
        entry: ledger
            .zip(rule)
            .map(|(ledger, at)| ledger.rules()[at].entry_ref()),
        rule,
    }
}

/// Compares a file's results with its golden and hands every record, in
/// order, to `consumer`: a framing divergence first, with `framing`
/// exact.
pub fn report_ready<C: Consumer>(
    consumer: &mut C,
    entry: &FileEntry,
    (cases, selection, golden_bytes): Ready,
    run: FileRun,
    (judging, framing): (Judging, Framing),
    ledger: Option<&Ledger>,
) -> io::Result<()> {
    let (golden_spans, execution, reruns) = match run {
        FileRun::BadGolden(message) => {
            return consumer.problem(Problem::Error {
                message,
                stderr: None,
                skipped: 0,
                port: false,
            })
        }
        FileRun::Ran(spans, execution, reruns) => (spans, execution, reruns),
    };
    let golden: Vec<&[u8]> = golden_spans
        .iter()
        .map(|span| &golden_bytes[span.clone()])
        .collect();
    let file = Reported {
        name: &entry.name,
        cases,
        selection,
        golden: &golden,
        ledger,
    };
    match execution {
        Execution::Results { output, spans } => {
            file.results(consumer, (&output, &spans), &reruns, (judging, framing))
        }
        Execution::Failed(failure) => file.failed(consumer, failure),
        Execution::Blamed(blamed) => file.blamed(consumer, blamed, judging),
    }
}

/// A ran file whose records are being reported.
struct Reported<'a> {
    name: &'a str,
    cases: &'a CaseFile,
    selection: Option<&'a Selection>,
    golden: &'a [&'a [u8]],
    ledger: Option<&'a Ledger>,
}

impl<'a> Reported<'a> {
    fn known(&self) -> HeldCases<'a> {
        HeldCases(self.cases.is_array.then_some(self.cases))
    }

    fn rule(&self) -> Rule<'a> {
        rule(self.selection, self.cases.items.len())
    }

    /// Reports the results of a run that printed one: its framing, then
    /// each case's record.
    fn results<C: Consumer>(
        &self,
        consumer: &mut C,
        (output, spans): (&[u8], &[Range<usize>]),
        reruns: &Reruns,
        (judging, framing): (Judging, Framing),
    ) -> io::Result<()> {
        if framing == Framing::Exact {
            let gaps = odd_gaps(spans, output.len());
            let bytes_of =
                |range: Range<u64>| output[range.start as usize..range.end as usize].to_vec();
            if let Some(found) = describe(&gaps, bytes_of) {
                consumer.problem(framing_problem(found, self.name, self.ledger))?;
            }
        }
        let actual: Vec<&[u8]> = spans.iter().map(|span| &output[span.clone()]).collect();
        let sides = (
            &mut self.known(),
            &mut Held(self.golden),
            &mut HeldResults(&actual),
        );
        // A result is known by where it starts in the output.
        let rerun_of = |slot: &Slot<'_>| {
            let Some(Ok(bytes)) = &slot.actual else {
                return None;
            };
            let start = bytes.as_ptr() as usize - output.as_ptr() as usize;
            let at = spans.binary_search_by_key(&start, |span| span.start).ok()?;
            reruns.get(at)?.as_ref()
        };
        let judging = (self.ledger, judging);
        pair(self.rule(), sides, |slot| {
            let rerun = rerun_of(&slot);
            judge_slot(consumer, self.name, slot, (None, rerun), judging)
        })
    }

    /// Reports a run that failed with no case to blame: one problem for
    /// the file, skipping every case it would have compared.
    fn failed<C: Consumer>(&self, consumer: &mut C, failure: OracleFailure) -> io::Result<()> {
        let wanted = self.wanted();
        // An oracle may echo its input on stderr or stdout (quoted in
        // the message), tokens included.
        let secrets = Secrets::of_case_file(&self.cases.bytes);
        let message = match &failure.stdout {
            Some(head) => format!("{}; its stdout {head}", failure.message),
            None => failure.message,
        };
        consumer.problem(Problem::Error {
            message: secrets.mask_quoted_text(&message),
            stderr: failure.stderr.map(|text| secrets.mask_quoted_text(&text)),
            skipped: wanted,
            port: true,
        })
    }

    /// How many golden elements the file compares.
    fn wanted(&self) -> usize {
        // What stands past the file's cases is compared when every
        // case is (or when a shard's last part of the file is
        // selected).
        let past = self.cases.items.len();
        let golden = self.golden;
        match self.selection {
            Some(selection) => {
                let tail = match selection.tail {
                    true => golden.len().saturating_sub(past),
                    false => 0,
                };
                tail + selection
                    .positions
                    .iter()
                    .filter(|&&at| at < golden.len())
                    .count()
            }
            None => golden.len(),
        }
    }

    /// Reports a run that failed with cases to blame: each case's
    /// record, then the cases it failed on only together.
    fn blamed<C: Consumer>(
        &self,
        consumer: &mut C,
        blamed: Blamed,
        judging: Judging,
    ) -> io::Result<()> {
        let secrets = Secrets::of_case_file(&self.cases.bytes);
        let outcomes = &blamed.outcomes;
        let sides = (
            &mut self.known(),
            &mut Held(self.golden),
            &mut HeldOutcomes(outcomes),
        );
        let judging = (self.ledger, judging);
        pair(self.rule(), sides, |slot| {
            judge_slot(consumer, self.name, slot, (Some(&secrets), None), judging)
        })?;
        // The k-th case sent is the one at this position.
        let selection = self.selection;
        let position = |k: usize| selection.map_or(k, |selection| selection.positions[k]);
        for together in blamed.together {
            consumer.problem(together_problem(position, together, &secrets))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_start_at_a_line_and_say_they_were_cut() {
        assert_eq!(tail("short\n", 100), "short\n");
        let text = format!("{}\nlast line\n", "x".repeat(100));
        assert_eq!(tail(&text, 20), "… last line\n");
        // No line starts in the kept part: it is kept as cut.
        assert_eq!(tail(&"é".repeat(50), 7), format!("… {}", "é".repeat(3)));
    }

    #[test]
    fn verdicts_of_failures() {
        assert_eq!(failure_verdict(FailureKind::Crash), VerdictKind::Crash);
        assert_eq!(
            failure_verdict(FailureKind::InvalidOutput),
            VerdictKind::InvalidOutput
        );
        assert_eq!(failure_verdict(FailureKind::Timeout), VerdictKind::Timeout);
    }

    #[test]
    fn a_blamed_case_keeps_the_end_of_its_masked_stderr() {
        let cases = CaseFile::read(
            "f.json",
            br#"[{"op":"x","name":"n","token":"tok-secret-1"}]"#.to_vec(),
        );
        let secrets = Secrets::of_case_file(&cases.bytes);
        let stderr = format!("{}\nsaw tok-secret-1\n", "noise ".repeat(1000));
        let failure = OracleFailure {
            kind: FailureKind::Crash,
            message: "the oracle exited with status 1".into(),
            stderr: Some(stderr),
            stdout: None,
        };
        let case = Case {
            item: &cases.items[0],
            raw: cases.raw(0).unwrap(),
        };
        let record = failure_record(
            "f.json",
            0,
            Some(case),
            failure.clone(),
            Some(&secrets),
            Default::default(),
        );
        assert_eq!(record.verdict, VerdictKind::Crash);
        assert_eq!(record.summary, "the oracle exited with status 1");
        assert_eq!(record.stderr.as_deref(), Some("… saw <redacted>\n"));
        assert_eq!(
            record.input.as_deref(),
            Some(r#"{"op":"x","name":"n","token":"<redacted>"}"#)
        );
        // Without the case file's secrets (a streamed result), no stderr.
        let record = failure_record("f.json", 0, Some(case), failure, None, Default::default());
        assert_eq!(record.stderr, None);
        assert_eq!(record.summary, "the oracle exited with status 1");
    }
}
