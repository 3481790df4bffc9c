//! [`Oracle::run_streamed`] does what [`Oracle::run`] does, its output
//! on disk: the same results, the same failures with the same messages.

use std::io::{Read, Seek, Write};
use std::time::{Duration, Instant};

use super::*;

fn input(bytes: &[u8]) -> File {
    let mut file = tempfile::tempfile().unwrap();
    file.write_all(bytes).unwrap();
    file.rewind().unwrap();
    file
}

fn streamed(
    oracle: &Oracle,
    bytes: &[u8],
    options: OracleOptions,
) -> Result<(Vec<u8>, usize, usize), OracleFailure> {
    let streamed = oracle.run_streamed(input(bytes), options, &LeakLog::default())?;
    let mut output = Vec::new();
    let mut file = streamed.output;
    file.read_to_end(&mut output).unwrap();
    Ok((output, streamed.elements, streamed.invalid))
}

/// What the results reader makes of an output in memory: its element
/// count, and how many are not JSON.
fn counted(bytes: &[u8]) -> (usize, usize) {
    let elements = results::read_results(bytes).unwrap();
    let invalid = elements.iter().filter(|element| element.is_err()).count();
    (elements.len(), invalid)
}

#[test]
fn streamed_runs_succeed_and_fail_as_runs_in_memory_do() {
    let options = OracleOptions::new(Duration::from_secs(10), 1 << 20);
    for command in [
        "cat",
        "cat; echo",
        "echo '[1, {\"a\": [2]}, \"x\"]'",
        "echo oops >&2; exit 3",
        "kill -9 $$",
        "true",
        "printf '[1,'",
        "echo '{}'",
        "printf '[1] x'",
        "printf '[NaN]'",
        "printf '[1, NaN ,\"a,]\" , [Infinity]]'",
        "printf '[1, NaN'",
        "head -c 2000000 /dev/zero",
    ] {
        let oracle = Oracle::command(command);
        let in_memory = oracle.run(b"[1,2]", options);
        let on_disk = streamed(&oracle, b"[1,2]", options);
        match (in_memory, on_disk) {
            (Ok(bytes), Ok((output, elements, invalid))) => {
                assert_eq!(output, bytes, "{command}");
                assert_eq!((elements, invalid), counted(&bytes), "{command}");
            }
            (Err(expected), Err(failure)) => {
                assert_eq!(failure.kind, expected.kind, "{command}");
                assert_eq!(failure.message, expected.message, "{command}");
                assert_eq!(failure.stderr, expected.stderr, "{command}");
            }
            (expected, got) => panic!("{command}: {expected:?} in memory, {got:?} on disk"),
        }
    }
}

#[test]
fn a_streamed_flood_or_hang_is_stopped() {
    let started = Instant::now();
    let options = OracleOptions::new(Duration::from_secs(60), 1 << 20);
    let failure = streamed(&Oracle::command("cat /dev/zero"), b"[]", options).unwrap_err();
    assert_eq!(
        failure.message,
        "the oracle printed more than 1 MiB on stdout and was stopped (--max-output sets the limit)"
    );
    assert_eq!(failure.kind, FailureKind::InvalidOutput);
    assert!(started.elapsed() < Duration::from_secs(10));
    let options = OracleOptions::new(Duration::from_millis(300), 1 << 20);
    let failure = streamed(&Oracle::command("sleep 30"), b"[]", options).unwrap_err();
    assert_eq!(failure.kind, FailureKind::Timeout);
    assert!(started.elapsed() < Duration::from_secs(20));
}
