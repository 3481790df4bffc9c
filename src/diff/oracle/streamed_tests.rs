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
) -> Result<(Vec<u8>, usize), OracleFailure> {
    let streamed = oracle.run_streamed(input(bytes), options)?;
    let mut output = Vec::new();
    let mut file = streamed.output;
    file.read_to_end(&mut output).unwrap();
    Ok((output, streamed.elements))
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
        "head -c 2000000 /dev/zero",
    ] {
        let oracle = Oracle::Command(command.into());
        let in_memory = oracle.run(b"[1,2]", options);
        let on_disk = streamed(&oracle, b"[1,2]", options);
        match (in_memory, on_disk) {
            (Ok(bytes), Ok((output, elements))) => {
                assert_eq!(output, bytes, "{command}");
                let count = crate::diff::golden::split_elements(&bytes).unwrap().len();
                assert_eq!(elements, count, "{command}");
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
    let failure = streamed(&Oracle::Command("cat /dev/zero".into()), b"[]", options).unwrap_err();
    assert_eq!(
        failure.message,
        "the oracle printed more than 1 MiB on stdout and was stopped (--max-output sets the limit)"
    );
    assert_eq!(failure.kind, FailureKind::InvalidOutput);
    assert!(started.elapsed() < Duration::from_secs(10));
    let options = OracleOptions::new(Duration::from_millis(300), 1 << 20);
    let failure = streamed(&Oracle::Command("sleep 30".into()), b"[]", options).unwrap_err();
    assert_eq!(failure.kind, FailureKind::Timeout);
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn our_own_oracle_streams_as_it_runs_in_memory() {
    let options = OracleOptions::new(Duration::from_secs(10), 1 << 20);
    for batch in [
        &b"[]"[..],
        br#"[{"op":"readyTimeoutMs","configured":1500.9},7,{"op":"nope"}]"#,
        br#"[{"op":"preflight","mkdirs":["a"],"cwd":"$DIR/a"}]"#,
        b"{}",
        b"[1,",
    ] {
        let in_memory = Oracle::InProcess.run(batch, options);
        let on_disk = streamed(&Oracle::InProcess, batch, options);
        match (in_memory, on_disk) {
            (Ok(bytes), Ok((output, elements))) => {
                assert_eq!(output, bytes);
                let count = crate::diff::golden::split_elements(&bytes).unwrap().len();
                assert_eq!(elements, count);
            }
            (Err(expected), Err(failure)) => {
                assert_eq!(failure.kind, expected.kind);
                assert_eq!(failure.message, expected.message);
            }
            (expected, got) => panic!("{expected:?} in memory, {got:?} on disk"),
        }
    }
}
