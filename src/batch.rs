//! The batch protocol (contract 1): a JSON array of cases in, the array of
//! their results out.
//!
//! The input is read as a stream, one case at a time: each case runs as
//! soon as it has been read, and its result is printed into a [`Spool`]
//! at once, so memory holds one case and one result, not the batch. Since
//! a batch that turns out malformed anywhere (even after its last case)
//! must leave stdout empty, results reach the output only once the whole
//! input has parsed.

use std::io::{self, Read, Write};
use std::panic::{self, AssertUnwindSafe};

use crate::ops::{self, threw};
use js_exact::js_concat;
use js_exact::parse::ParseErrorKind;
use js_exact::{JsonReader, ParseError, TextMode, Value};

pub mod allocator;
mod spool;
mod stdio;

pub use spool::{Spool, SPOOL_MEMORY_LIMIT};
pub use stdio::note_stdout_at_start;

/// The deepest nesting a batch may have, counting the batch array itself.
/// The contract requires 1000; Node prints up to about 4100 levels.
pub const MAX_BATCH_DEPTH: usize = 4096;

/// Why a batch was refused: exit status 2, this on stderr, nothing on stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// One line saying what was wrong.
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "batch refused: {}", self.reason)
    }
}

/// What can stop a batch.
#[derive(Debug)]
pub enum BatchError {
    /// The input is not a JSON array (exit 2).
    Refused(Refusal),
    /// Writing the results failed.
    Output(io::Error),
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Refused(refusal) => refusal.fmt(f),
            BatchError::Output(error) => write!(f, "cannot hold the results: {error}"),
        }
    }
}

impl From<io::Error> for BatchError {
    fn from(error: io::Error) -> Self {
        BatchError::Output(error)
    }
}

fn refused(reason: impl Into<String>) -> BatchError {
    BatchError::Refused(Refusal {
        reason: reason.into(),
    })
}

fn not_json(error: ParseError) -> BatchError {
    match error.kind {
        ParseErrorKind::Io(message) => {
            refused(format!("standard input could not be read: {message}"))
        }
        _ => refused(format!("standard input is not valid JSON: {error}")),
    }
}

/// The result of one case (contract 1): a case that is not an object, or
/// whose iterated fields are not arrays of objects, is refused; anything
/// else goes to its op. A panic inside an op (a bug) becomes a `threw`
/// result of its own rather than the end of the batch.
pub fn run_case(case: &Value) -> Value {
    if !case.is_object() {
        return threw("case must be a JSON object");
    }
    if let Some(spec) = ops::find(case.get("op")) {
        for field in spec.iterated {
            let value = case.get(field);
            let iterable = value.is_unset()
                || value
                    .as_array()
                    .is_some_and(|items| items.iter().all(Value::is_object));
            if !iterable {
                return threw(js_concat!(*field, " must be an array of objects"));
            }
        }
    }
    match panic::catch_unwind(AssertUnwindSafe(|| ops::run_op(case))) {
        Ok(result) => result,
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            threw(format!("internal error in the oracle: {detail}"))
        }
    }
}

/// Counts of what a batch did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// How many cases were run.
    pub cases: usize,
}

/// Runs a whole batch: reads the case array from `input`, and writes the
/// result array to `output` (with no trailing newline) only when the input
/// was a JSON array from its first byte to its last.
pub fn run_batch(input: impl Read, output: &mut impl Write) -> Result<BatchSummary, BatchError> {
    let (spool, summary) = read_batch(input)?;
    spool.copy_to(output)?;
    output.flush()?;
    Ok(summary)
}

/// Reads the case array from `input` and runs its cases; returns the
/// complete result array, held back in a [`Spool`], once the input has
/// proved to be a JSON array from its first byte to its last.
pub fn read_batch(input: impl Read) -> Result<(Spool, BatchSummary), BatchError> {
    let mut reader = JsonReader::new(input, TextMode::LossyUtf8).with_max_depth(MAX_BATCH_DEPTH);
    reader.skip_white_space().map_err(not_json)?;
    if reader.peek().map_err(not_json)? != Some(b'[') {
        // Valid JSON that is not an array is refused for that reason.
        reader.parse_value(0).map_err(not_json)?;
        reader.expect_end().map_err(not_json)?;
        return Err(refused("standard input is not a JSON array"));
    }
    reader.expect_byte(b'[').map_err(not_json)?;
    let mut spool = Spool::new();
    spool.buffer().push(b'[');
    let mut summary = BatchSummary::default();
    reader.skip_white_space().map_err(not_json)?;
    if reader.peek().map_err(not_json)? == Some(b']') {
        reader.expect_byte(b']').map_err(not_json)?;
    } else {
        loop {
            let case = reader.parse_value(1).map_err(not_json)?;
            let result = run_case(&case);
            drop(case);
            if summary.cases > 0 {
                spool.buffer().push(b',');
            }
            spool.write_result(&result)?;
            drop(result);
            summary.cases += 1;
            if reader.expect_one_of(b",]").map_err(not_json)? == b']' {
                break;
            }
        }
    }
    reader.expect_end().map_err(not_json)?;
    spool.buffer().push(b']');
    Ok((spool, summary))
}

/// The batch runs on a thread with a stack of its own: values nest up to
/// [`MAX_BATCH_DEPTH`] levels, and JSON text that an op parses up to
/// 100 000 (`OP_TEXT_MAX_DEPTH`); printing and dropping them recurses.
/// Measured: 4 MiB runs the deepest batch, 16 MiB (release) and 32 MiB
/// (debug) the deepest op text. The whole reservation counts against
/// `ulimit -v`, so it stays small enough for batches to start under
/// `ulimit -v 256M`.
const BATCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Runs the batch protocol on the process's stdin and stdout, and returns
/// the exit status: 0 when the complete result array was written (or the
/// reader of stdout went away, `| head`), 2 when the batch was refused
/// (with one line on stderr), 1 when the results could not be written
/// (stdout closed, full, failing) or the batch could not run. A signal
/// ends the process itself (see batch/stdio.rs): 128 + the signal, never 0
/// unless the results were out.
pub fn run_stdio() -> u8 {
    if let Err(line) = stdio::check_standard_streams() {
        say(&line);
        return 1;
    }
    if let Err(error) = stdio::handle_signals() {
        say(&format!("cannot watch for signals: {error}"));
    }
    let worker = std::thread::Builder::new()
        .name("batch".into())
        .stack_size(BATCH_STACK_BYTES)
        .spawn(|| -> Result<(), BatchError> {
            let (spool, _) = read_batch(io::stdin().lock())?;
            let mut stdout = stdio::Stdout::new(spool.len());
            spool.copy_to(&mut stdout)?;
            Ok(())
        });
    let outcome = match worker {
        Ok(worker) => worker.join(),
        Err(error) => {
            say(&format!("cannot start the batch thread: {error}"));
            return 1;
        }
    };
    if outcome.as_ref().map_or(true, Result::is_err) {
        // A signal may be why (SIGXFSZ fails the write it interrupts):
        // it decides the ending.
        if let Some(signal) = stdio::received() {
            stdio::end_on_signal(signal);
        }
    }
    match outcome {
        Ok(Ok(())) => 0,
        Ok(Err(BatchError::Refused(refusal))) => {
            say(&refusal.to_string());
            2
        }
        Ok(Err(BatchError::Output(error))) if error.kind() == io::ErrorKind::BrokenPipe => 0,
        Ok(Err(BatchError::Output(error))) => {
            say(&format!("cannot write results: {error}"));
            1
        }
        Err(_) => {
            say("the batch thread panicked");
            1
        }
    }
}

/// One line on stderr; a closed stderr is not worth a panic.
fn say(line: &str) {
    let _ = writeln!(io::stderr(), "worker-spawn-oracle: {line}");
}

/// Runs `work` on a thread with a stack deep enough for the nesting a
/// batch may hold, whatever thread the caller is on (test threads have
/// 2 MiB). The work's scratch directories belong to the caller's
/// [`ScratchScope`](crate::scratch::ScratchScope), so a caller that stops
/// its scope removes them.
pub fn with_batch_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let caller = crate::scratch::ScratchScope::current();
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("batch".into())
            .stack_size(BATCH_STACK_BYTES)
            .spawn_scoped(scope, move || caller.enter(work))
            .expect("the batch thread starts")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Runs a batch held in memory and returns its output bytes. The results
/// wait in a spool, which can fail (a full disk) even though the output
/// is memory.
pub fn run_batch_bytes(input: &[u8]) -> Result<Vec<u8>, BatchError> {
    with_batch_stack(|| {
        let mut output = Vec::new();
        run_batch(input, &mut output).map(|_| output)
    })
}

/// [`run_batch_bytes`] for a test's or a harness's fuzzing side (a
/// closure is a `fuzz::BatchOracle`): the result array, or why the batch
/// was refused or failed.
pub fn in_process(input: &[u8]) -> Result<Vec<u8>, String> {
    run_batch_bytes(input).map_err(|error| match error {
        BatchError::Refused(refusal) => refusal.reason,
        output => output.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, String> {
        run_batch_bytes(input.as_bytes())
            .map(|out| String::from_utf8(out).unwrap())
            .map_err(|error| match error {
                BatchError::Refused(refusal) => refusal.reason,
                output => panic!("{output}"),
            })
    }

    #[test]
    fn empty_and_trivial_batches() {
        assert_eq!(run("[]"), Ok("[]".into()));
        assert_eq!(run(" [ ] \n"), Ok("[]".into()));
        assert_eq!(
            run(r#"[1,null,[],"x",{"op":7},{}]"#),
            Ok(concat!(
                r#"[{"threw":true,"message":"case must be a JSON object"},"#,
                r#"{"threw":true,"message":"case must be a JSON object"},"#,
                r#"{"threw":true,"message":"case must be a JSON object"},"#,
                r#"{"threw":true,"message":"case must be a JSON object"},"#,
                r#"{"threw":true,"message":"unknown op 7"},"#,
                r#"{"threw":true,"message":"unknown op undefined"}]"#
            )
            .into())
        );
    }

    #[test]
    fn refusals() {
        assert!(run("")
            .unwrap_err()
            .starts_with("standard input is not valid JSON"));
        assert!(run("[1,")
            .unwrap_err()
            .starts_with("standard input is not valid JSON"));
        assert!(run("[1] x")
            .unwrap_err()
            .starts_with("standard input is not valid JSON"));
        assert!(run("\u{feff}[]")
            .unwrap_err()
            .starts_with("standard input is not valid JSON"));
        assert_eq!(run("{}").unwrap_err(), "standard input is not a JSON array");
        assert_eq!(
            run(" 5 ").unwrap_err(),
            "standard input is not a JSON array"
        );
        assert!(run("{} x")
            .unwrap_err()
            .starts_with("standard input is not valid JSON"));
    }

    #[test]
    fn iterated_fields_must_be_arrays_of_objects() {
        assert_eq!(
            run(r#"[{"op":"ipcParent","script":5,"requestHandlers":[1]}]"#),
            Ok(
                r#"[{"threw":true,"message":"requestHandlers must be an array of objects"}]"#
                    .into()
            )
        );
        assert_eq!(
            run(r#"[{"op":"liveness","schedule":{}}]"#),
            Ok(r#"[{"threw":true,"message":"schedule must be an array of objects"}]"#.into())
        );
    }

    #[test]
    fn depth_limit_counts_the_batch_array() {
        let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        assert!(run(&deep(MAX_BATCH_DEPTH)).is_ok());
        assert!(run(&deep(MAX_BATCH_DEPTH + 1))
            .unwrap_err()
            .contains("nesting deeper than"));
    }
}
