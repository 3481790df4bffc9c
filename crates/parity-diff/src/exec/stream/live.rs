//! A large file whose oracle runs while its report is made ready (issue
//! 23). An oracle prints its results only once it has read its input
//! whole (the contract's: a malformed input at its last byte must leave
//! no results), so what `run` can do alongside is the work that needs
//! no result: the oracle runs on a thread of its own ([`start`]), its
//! stdout spooled and not read; meanwhile the reporting thread reads the
//! case file and the golden for what the report would count of each case
//! were it identical ([`PassingRuns`]: its op, and whether its golden
//! says the op is unknown) and for the golden's framing.
//!
//! When the run succeeds and its output is the golden's very bytes,
//! every case is identical, and those counts are the report: no result
//! is split, parsed or compared (one `memcmp` of the two files). Anything
//! else (another output, a ledger to consult, a report that lists passing
//! cases, a selection of cases) is judged after the run as before
//! ([`Judged::After`]), from the same spool read through.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek};
use std::ops::Range;
use std::path::Path;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::cases::CaseReader;
use super::passing::PassingRuns;
use super::run::{accepted, golden_elements, run_large_unchecked, Large};
use crate::command::arrays;
use crate::corpus::cases::CaseItem;
use crate::corpus::Entry as FileEntry;
use crate::exec::oracle::{check_spooled, Leak, LeakLog, Oracle, OracleOptions, Streamed};
use crate::judge::scan::Element;
use crate::ledger::Ledger;
use crate::record::build::is_unknown_op;
use crate::report::Consumer;

/// What a large file's run came to: its output, read through and
/// accepted as [`run_large`](super::run::run_large) accepts it (`None`:
/// the file is to be run again in memory), the processes it left holding
/// its output, and how long it took.
#[derive(Debug)]
pub struct Finished {
    pub output: Option<Streamed>,
    pub leaks: Vec<Leak>,
    pub elapsed: Duration,
}

/// The run's thread gives its unread output (`None`: the run failed),
/// its leaks and its time.
type Ran = (Option<File>, Vec<Leak>, Duration);

/// A large file's oracle run under way.
pub struct Live {
    run: JoinHandle<Ran>,
}

/// Starts a large file's run on a thread of its own; `None` when no
/// thread can be had (the caller runs it the ordinary way).
pub fn start(
    entry: &FileEntry,
    large: &Large,
    oracle: &Oracle,
    options: OracleOptions,
) -> Option<Live> {
    let (entry, large, oracle) = (entry.clone(), large.clone(), oracle.clone());
    let run = thread::Builder::new()
        .name("oracle-run".into())
        .spawn(move || {
            let started = Instant::now();
            let leaks = LeakLog::default();
            let output = run_large_unchecked(&entry, &large, &oracle, options, &leaks);
            (output, leaks.into_leaks(), started.elapsed())
        })
        .ok()?;
    Some(Live { run })
}

/// How a live run was reported.
pub enum Judged {
    /// Every case identical: its counts are reported.
    Reported { leaks: Vec<Leak>, elapsed: Duration },
    /// The golden cannot be compared (why, as a run that checks it
    /// before the oracle runs says it); the run is not the report's.
    BadGolden(String),
    /// Nothing was reported: the file is judged after its run.
    After(Finished),
}

/// Waits for a live run, checking the golden and counting the file's
/// cases as identical meanwhile, and reports them when they are (see the
/// module's text).
pub fn report_live<C: Consumer>(
    consumer: &mut C,
    entry: &FileEntry,
    large: &Large,
    live: Live,
    ledger: Option<&Ledger>,
) -> io::Result<Judged> {
    // Without a ledger an identical case is only counted, by a report
    // that does not list passing cases; its golden and its case pair by
    // position only when every case was sent.
    let counts = large.selection.is_none()
        && large.is_array
        && ledger.is_none()
        && !consumer.wants_passing();
    let golden = check_golden(entry, large, counts);
    let (output, leaks, elapsed) = match live.run.join() {
        Ok(ran) => ran,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    let passing = match golden {
        Ok(passing) => passing,
        Err(message) => return Ok(Judged::BadGolden(message)),
    };
    let Some(output) = output else {
        let finished = Finished {
            output: None,
            leaks,
            elapsed,
        };
        return Ok(Judged::After(finished));
    };
    if let Some((passing, spans)) = passing {
        if exactly_the_golden_elements(&output, &entry.golden_path, &spans) {
            passing.count_with(consumer)?;
            return Ok(Judged::Reported { leaks, elapsed });
        }
    }
    let output = check_spooled(output)
        .ok()
        .and_then(|streamed| accepted(large, streamed));
    Ok(Judged::After(Finished {
        output,
        leaks,
        elapsed,
    }))
}

/// Reads the golden through and checks it (as
/// [`golden_elements`] does before a run that is not live); with
/// `counts`, also counts every case as identical, in order, and notes
/// where each golden element stands. The counts are `None` when the case
/// file cannot be read so, or when its cases and the golden's elements
/// are not as many as were planned.
fn check_golden(entry: &FileEntry, large: &Large, counts: bool) -> Result<Counts, String> {
    let source = counts
        .then(|| arrays::open_file("case file", &entry.case_path).ok())
        .flatten();
    let mut cases = source.map(|source| CaseReader::new(&entry.name, source));
    let mut passing = PassingRuns::default();
    let mut spans = Vec::new();
    let each = |element: Element<'_>| {
        let Some(reader) = &mut cases else {
            return;
        };
        match reader.next_raw() {
            Ok(Some(raw)) => {
                spans.push(element.offset..element.offset + element.bytes.len() as u64);
                let op = CaseItem::op_of_raw(raw);
                passing.push(op.as_deref(), is_unknown_op(element.bytes));
            }
            _ => cases = None,
        }
    };
    golden_elements(entry, each).map_err(|failure| failure.message)?;
    let ended = cases.is_some_and(|mut reader| matches!(reader.next_raw(), Ok(None)));
    Ok((ended && spans.len() == large.cases).then_some((passing, spans)))
}

/// Every case counted as identical, and where each golden element stands.
type Counts = Option<(PassingRuns, Vec<Range<u64>>)>;

/// Whether a spooled output is exactly `[`, the golden's elements (at
/// `spans` of the file at `path`) joined by `,`, and `]`: the array
/// `JSON.stringify` prints of them, with the framing it prints. Its
/// results are then the golden's, element for element, and JSON.
fn exactly_the_golden_elements(output: &File, path: &Path, spans: &[Range<u64>]) -> bool {
    let Ok(golden) = arrays::open_file("golden", path) else {
        return false;
    };
    // Its writer left it at its end.
    let mut from_start = output;
    if from_start.rewind().is_err() {
        return false;
    }
    let mut output = BufReader::with_capacity(CHUNK, output);
    let mut golden = BufReader::with_capacity(CHUNK, golden);
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut at = 0;
    let expect = |output: &mut BufReader<&File>, byte: u8| {
        let mut one = [0];
        output.read_exact(&mut one).is_ok() && one[0] == byte
    };
    if !expect(&mut output, b'[') {
        return false;
    }
    for (index, span) in spans.iter().enumerate() {
        if index > 0 && !expect(&mut output, b',') {
            return false;
        }
        let len = (span.end - span.start) as usize;
        ours.resize(len, 0);
        theirs.resize(len, 0);
        // What lies between golden elements is white space and commas.
        let gap = i64::try_from(span.start - at).unwrap_or(i64::MAX);
        if golden.seek_relative(gap).is_err()
            || output.read_exact(&mut ours).is_err()
            || golden.read_exact(&mut theirs).is_err()
            || ours != theirs
        {
            return false;
        }
        at = span.end;
    }
    let mut rest = [0];
    expect(&mut output, b']') && matches!(output.read(&mut rest), Ok(0))
}

/// How much of each file is read at a time.
const CHUNK: usize = 256 * 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::scan::Mode;
    use std::io::Write;

    /// Whether `output` is exactly the elements of the golden `golden`.
    fn exactly(output: &str, golden: &str) -> bool {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("golden.json");
        std::fs::write(&path, golden).unwrap();
        let spans = crate::judge::scan::spans(golden.as_bytes(), Mode::Strict { validate: true })
            .unwrap()
            .into_iter()
            .map(|span| span.start as u64..span.end as u64)
            .collect::<Vec<_>>();
        let mut spool = tempfile::tempfile().unwrap();
        spool.write_all(output.as_bytes()).unwrap();
        exactly_the_golden_elements(&spool, &path, &spans)
    }

    #[test]
    fn only_the_array_json_stringify_prints_of_the_golden_elements_is_exact() {
        let golden = "[\n{\"a\":1},\n\"x,]\",\n[2, 3]\n]\n";
        assert!(exactly(r#"[{"a":1},"x,]",[2, 3]]"#, golden));
        for other in [
            "[{\"a\":1},\"x,]\",[2, 3]]\n",
            "[{\"a\":1}, \"x,]\",[2, 3]]",
            "[{\"a\":1},\"x,]\"]",
            "[{\"a\":1},\"x,]\",[2, 3],4]",
            "[{\"a\":2},\"x,]\",[2, 3]]",
            " [{\"a\":1},\"x,]\",[2, 3]]",
            "",
        ] {
            assert!(!exactly(other, golden), "{other:?}");
        }
        assert!(exactly("[]", "[]\n"));
        assert!(!exactly("[ ]", "[]\n"));
    }
}
