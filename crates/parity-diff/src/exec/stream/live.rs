//! A large file whose oracle runs while its report is made ready (issue
//! 23). An oracle prints its results only once it has read its input
//! whole (the contract's: a malformed input at its last byte must leave
//! no results), so what `run` can do alongside is the work that needs
//! no result: the oracle runs on a thread of its own ([`start`]), its
//! stdout spooled; meanwhile the reporting thread reads the golden for
//! what the report would count of each case were it identical
//! ([`PassingCounts`]: its op, which the plan learned when it counted the
//! case file ([`OpRuns`]), and whether its golden says the op is
//! unknown) and for where the golden's elements stand. From then
//! on the output is matched against them as it is spooled
//! ([`as_golden`](super::as_golden)).
//!
//! When the run succeeds and its output is exactly the array
//! `JSON.stringify` prints of the golden's elements, every case is
//! identical, and those counts are the report: no result is split,
//! parsed or compared. Anything else (another output, a ledger to
//! consult, a report that lists passing cases, a selection of cases) is
//! judged after the run as before ([`Judged::After`]), from the same
//! spool read through.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::as_golden::{Expected, Watching};
use super::passing::PassingCounts;
use super::run::{accepted, golden_elements, run_large_unchecked, Large};
use crate::corpus::op_runs::OpRuns;
use crate::corpus::plan::Selection;
use crate::corpus::Entry as FileEntry;
use crate::exec::oracle::{check_spooled, Leak, LeakLog, Oracle, OracleOptions, Streamed};
use crate::judge::scan::Element;
use crate::ledger::Ledger;
use crate::report::record::build::is_unknown_op;
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

/// A large file's oracle run under way, and the watch of its output.
/// Dropped unreported, it waits for the run: no oracle outlives `run`.
pub struct Live {
    run: Option<JoinHandle<Ran>>,
    watching: Watching,
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Some(run) = self.run.take() {
            let _ = run.join();
        }
    }
}

/// Starts a large file's run (of the cases `selection` names, or every
/// one) on a thread of its own; `None` when no thread can be had (the
/// caller runs it the ordinary way).
pub fn start(
    entry: &FileEntry,
    selection: Option<&Selection>,
    oracle: &Oracle,
    options: OracleOptions,
) -> Option<Live> {
    let (entry, selection, oracle) = (entry.clone(), selection.cloned(), oracle.clone());
    let (watching, watch) = Watching::new();
    let run = thread::Builder::new()
        .name("oracle-run".into())
        .spawn(move || {
            let started = Instant::now();
            let leaks = LeakLog::default();
            let output =
                run_large_unchecked(&entry, selection.as_ref(), &oracle, options, &leaks, watch);
            (output, leaks.into_leaks(), started.elapsed())
        })
        .ok()?;
    Some(Live {
        run: Some(run),
        watching,
    })
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
    mut live: Live,
    ledger: Option<&Ledger>,
) -> io::Result<Judged> {
    // Without a ledger an identical case is only counted, by a report
    // that does not list passing cases; its golden and its case pair by
    // position only when every case was sent.
    let counts = large.selection.is_none()
        && large.is_array
        && ledger.is_none()
        && !consumer.wants_passing();
    // The spans go to the match (a million cases: 16 MB, held once).
    let (golden, spans) = match check_golden(entry, large, counts) {
        Ok(Some((passing, spans))) => (Ok(Some(passing)), Some(spans)),
        Ok(None) => (Ok(None), None),
        Err(message) => (Err(message), None),
    };
    // Matched as it comes from here on, and caught up with.
    live.watching.expect(spans.map(|spans| Expected {
        golden: entry.golden_path.clone(),
        spans,
    }));
    let ran = live.run.take().map(JoinHandle::join);
    let (output, leaks, elapsed) = match ran {
        Some(Ok(ran)) => ran,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        // Taken only here, once: as a run that failed, were it again.
        None => (None, Vec::new(), Duration::ZERO),
    };
    let passing = match golden {
        Ok(passing) => passing,
        Err(message) => return Ok(Judged::BadGolden(message)),
    };
    let Some(mut output) = output else {
        let finished = Finished {
            output: None,
            leaks,
            elapsed,
        };
        return Ok(Judged::After(finished));
    };
    if let Some(passing) = passing {
        if live.watching.verdict(&output) {
            passing.count_with(consumer)?;
            return Ok(Judged::Reported { leaks, elapsed });
        }
    }
    // Read through, the spool must hold what the match held back.
    let output = live
        .watching
        .restore(&mut output)
        .ok()
        .and_then(|()| check_spooled(output).ok())
        .and_then(|streamed| accepted(large, streamed));
    Ok(Judged::After(Finished {
        output,
        leaks,
        elapsed,
    }))
}

/// Reads the golden through and checks it (as
/// [`golden_elements`] does before a run that is not live); with
/// `counts`, also counts every case as identical, in order, under the op
/// the plan found it has ([`Large::op_runs`]), and notes where each
/// golden element stands. The counts are `None` without the plan's ops,
/// or when the golden's elements are not as many as the cases planned.
fn check_golden<'l>(
    entry: &FileEntry,
    large: &'l Large,
    counts: bool,
) -> Result<Counts<'l>, String> {
    let op_runs = large.op_runs.as_deref().filter(|_| counts);
    let mut ops = op_runs.map(OpRuns::cases);
    let mut passing = op_runs.map(PassingCounts::of);
    let mut spans = Vec::new();
    let each = |element: Element<'_>| {
        let (Some(cases), Some(counted)) = (&mut ops, &mut passing) else {
            return;
        };
        match cases.next() {
            Some(op) => {
                spans.push(element.offset..element.offset + element.bytes.len() as u64);
                counted.push(op, is_unknown_op(element.bytes));
            }
            None => passing = None,
        }
    };
    golden_elements(entry, each).map_err(|failure| failure.message)?;
    // Each span was counted, so as many spans as cases planned is a
    // golden of as many elements.
    Ok(passing
        .filter(|_| spans.len() == large.cases)
        .map(|counted| (counted, spans)))
}

/// Every case counted as identical, and where each golden element stands.
type Counts<'l> = Option<(PassingCounts<'l>, Vec<Range<u64>>)>;
