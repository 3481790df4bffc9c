//! One case file of `run` (and `accept`): its oracle run, which may
//! happen on any thread ([`run_ready`]), and its records, made in corpus
//! order on the thread that reports ([`report_ready`]).
//!
//! When the oracle fails on the file, the cases to blame are found by
//! [`execute`](super::execute): each becomes a record of its own
//! (verdict `crash`, `invalid-output` or `timeout`, state `error`, with
//! the end of what the oracle wrote on stderr when it ran that case
//! alone), and every other case is compared as usual.

use std::borrow::Cow;
use std::io;
use std::ops::Range;

use super::arrays;
use super::bisect::Together;
use super::cases::CaseFile;
use super::corpus::Entry as FileEntry;
use super::execute::{execute, spans_in, Execution};
use super::judge::compare_file;
use super::ledger::Ledger;
use super::oracle::{FailureKind, OracleFailure};
use super::plan::Selection;
use super::record::build;
use super::record::{CaseRecord, VerdictKind};
use super::redact::Secrets;
use super::report::{Consumer, Problem};

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
    /// The golden's elements, and the oracle's run.
    Ran(Vec<Range<usize>>, Execution),
}

/// The oracle's input: the case file as it stands, or the array of the
/// selected cases.
fn oracle_input<'a>(cases: &'a CaseFile, selection: Option<&Selection>) -> Cow<'a, [u8]> {
    match selection {
        Some(selection) => Cow::Owned(cases.array_of(&selection.positions)),
        None => Cow::Borrowed(&cases.bytes),
    }
}

/// Runs a ready file through the oracle (`oracle` runs one batch),
/// bisecting when it fails. Safe to call on any thread.
pub fn run_ready(
    entry: &FileEntry,
    (cases, selection, golden): Ready,
    oracle: impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>,
) -> FileRun {
    let golden_name = entry.golden_path.display().to_string();
    let golden_spans = match arrays::elements("golden", &golden_name, golden) {
        Ok(elements) => spans_in(golden, &elements),
        Err(failure) => return FileRun::BadGolden(failure.message),
    };
    let input = oracle_input(cases, selection);
    let sent: Option<Vec<&[u8]>> = cases.is_array.then(|| match selection {
        Some(selection) => selection
            .positions
            .iter()
            .map(|&at| cases.raw(at).unwrap_or(b"null"))
            .collect(),
        None => (0..cases.items.len())
            .filter_map(|at| cases.raw(at))
            .collect(),
    });
    FileRun::Ran(golden_spans, execute(oracle, &input, sent.as_deref()))
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

/// The record of a case the oracle failed on alone: its stderr masked
/// (before it is cut, so that no part of a secret survives the cut).
pub fn failure_record(
    file: &str,
    cases: &CaseFile,
    index: usize,
    failure: OracleFailure,
    secrets: &Secrets,
) -> CaseRecord {
    let verdict = failure_verdict(failure.kind);
    let mut record = build::oracle_failure(file, cases, index, verdict, &failure.message);
    record.stderr = failure
        .stderr
        .map(|text| tail(&secrets.mask_quoted_text(&text), STDERR_TAIL));
    record
}

/// The problem of cases the oracle failed on only together: compared,
/// but from results of separate runs.
fn together_problem(positions: &[usize], together: Together, secrets: &Secrets) -> Problem {
    let range = together.cases;
    let (first, last) = (positions[range.start], positions[range.end - 1]);
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
    }
}

/// Compares a file's results with its golden and hands every record, in
/// order, to `consumer`.
pub fn report_ready<C: Consumer>(
    consumer: &mut C,
    entry: &FileEntry,
    (cases, selection, golden_bytes): Ready,
    run: FileRun,
    semantic: bool,
    ledger: Option<&Ledger>,
) -> io::Result<()> {
    let (golden_spans, execution) = match run {
        FileRun::BadGolden(message) => {
            return consumer.problem(Problem::Error {
                message,
                stderr: None,
                skipped: 0,
            })
        }
        FileRun::Ran(spans, execution) => (spans, execution),
    };
    let golden: Vec<&[u8]> = golden_spans
        .iter()
        .map(|span| &golden_bytes[span.clone()])
        .collect();
    let name = &entry.name;
    let known = cases.is_array.then_some(cases);
    // A selection is made only of the cases of an array.
    let positions: Vec<usize> = match selection {
        Some(selection) => selection.positions.clone(),
        None => (0..cases.items.len()).collect(),
    };
    // What stands past the file's cases is compared when every case is
    // (or when a shard's last part of the file is selected).
    let past = cases.items.len();
    let tail = match selection {
        Some(selection) if !selection.tail => 0,
        _ => golden.len().saturating_sub(past),
    };
    match execution {
        Execution::Results { output, spans } => {
            let actual: Vec<&[u8]> = spans.iter().map(|span| &output[span.clone()]).collect();
            if selection.is_some() {
                let pairs = positions
                    .iter()
                    .enumerate()
                    .map(|(k, &at)| (at, golden.get(at).copied(), actual.get(k).copied()));
                compare_file(consumer, name, known, ledger, semantic, pairs)?;
                // Results past the selection are extra, numbered past the
                // file's cases; they meet the golden's elements past the
                // cases when those are compared here.
                let extra = actual.len().saturating_sub(positions.len());
                let pairs = (0..tail.max(extra)).map(|k| {
                    let golden = if k < tail { golden.get(past + k) } else { None };
                    (
                        past + k,
                        golden.copied(),
                        actual.get(positions.len() + k).copied(),
                    )
                });
                compare_file(consumer, name, None, ledger, semantic, pairs)
            } else {
                let pairs = (0..golden.len().max(actual.len()))
                    .map(|at| (at, golden.get(at).copied(), actual.get(at).copied()));
                compare_file(consumer, name, known, ledger, semantic, pairs)
            }
        }
        Execution::Failed(failure) => {
            let wanted = match selection {
                Some(selection) => {
                    tail + selection
                        .positions
                        .iter()
                        .filter(|&&at| at < golden.len())
                        .count()
                }
                None => golden.len(),
            };
            // An oracle may echo its input on stderr, tokens included.
            let secrets = Secrets::of_case_file(&cases.bytes);
            consumer.problem(Problem::Error {
                message: failure.message,
                stderr: failure.stderr.map(|text| secrets.mask_quoted_text(&text)),
                skipped: wanted,
            })
        }
        Execution::Blamed(blamed) => {
            let secrets = Secrets::of_case_file(&cases.bytes);
            for (&at, outcome) in positions.iter().zip(blamed.outcomes) {
                match outcome {
                    Ok(result) => {
                        let pair = (at, golden.get(at).copied(), Some(result.as_slice()));
                        compare_file(consumer, name, known, ledger, semantic, [pair].into_iter())?;
                    }
                    Err(failure) => {
                        consumer.case(failure_record(name, cases, at, failure, &secrets))?;
                    }
                }
            }
            // Golden cases past the last case are missing.
            let pairs = (past..past + tail).map(|at| (at, golden.get(at).copied(), None));
            let known_past = if selection.is_some() { None } else { known };
            compare_file(consumer, name, known_past, ledger, semantic, pairs)?;
            for together in blamed.together {
                consumer.problem(together_problem(&positions, together, &secrets))?;
            }
            Ok(())
        }
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
        };
        let record = failure_record("f.json", &cases, 0, failure, &secrets);
        assert_eq!(record.verdict, VerdictKind::Crash);
        assert_eq!(record.summary, "the oracle exited with status 1");
        assert_eq!(record.stderr.as_deref(), Some("… saw <redacted>\n"));
    }
}
