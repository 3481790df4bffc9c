//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod faults;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The oracle binary under test.
pub fn oracle_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
}

/// Our generators through their command, `worker-spawn-oracle generate`
/// (the generator protocol, end to end), as the source of a fuzzing
/// session of `ops` from `seed` in batches of `batch_size`.
pub fn generator(
    ops: &[&str],
    seed: u64,
    batch_size: usize,
) -> parity_diff::fuzz::source::Generated {
    use parity_diff::exec::oracle::{shell_word, OracleOptions, FUZZ_MAX_OUTPUT};
    let command = format!(
        "{} generate",
        shell_word(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
    );
    let limits = OracleOptions::new(std::time::Duration::from_secs(60), FUZZ_MAX_OUTPUT);
    let ops = ops.iter().map(|op| op.to_string()).collect();
    parity_diff::fuzz::source::generator_command(&command, limits, ops, seed, batch_size)
}

/// A fuzzing session of one op, its cases from [`generator`].
pub fn fuzz_op(
    op: &str,
    config: &parity_diff::fuzz::FuzzConfig,
    left: &(dyn parity_diff::fuzz::BatchOracle + Sync),
    right: &(dyn parity_diff::fuzz::BatchOracle + Sync),
) -> parity_diff::fuzz::FuzzReport {
    let source = generator(&[op], config.seed, config.batch_size);
    parity_diff::fuzz::fuzz(config, &source, left, right, &mut Vec::new())
        .expect("the session runs")
}

/// Runs a command with `input` on stdin and returns what it did.
pub fn run_with_stdin(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("the command finishes");
    writer.join().expect("the writer finishes");
    output
}

/// Runs the oracle binary on a batch.
pub fn run_oracle(input: &[u8]) -> Output {
    run_with_stdin(&mut Command::new(oracle_binary()), input)
}

/// The full test command (docs/maintainers/building.md), which runs the
/// tests that need the
/// reference or node (they are `#[ignore]`d otherwise).
pub const FULL_TEST_COMMAND: &str = "REFERENCE_ORACLE=\"node ../shared/reference/worker-spawn-oracle.mjs\" cargo test --locked -- --include-ignored";

/// The reference oracle command (`REFERENCE_ORACLE`, a shell command), if
/// one is given.
pub fn reference_command() -> Option<String> {
    std::env::var("REFERENCE_ORACLE")
        .ok()
        .filter(|command| !command.trim().is_empty())
}

/// The reference oracle command, for a test marked
/// `#[ignore = "needs REFERENCE_ORACLE"]`. Such a test runs only when
/// asked for, so a reference that is unset or does not work fails it
/// (saying how to run it) rather than letting it pass unrun.
pub fn require_reference() -> String {
    let Some(command) = reference_command() else {
        panic!(
            "REFERENCE_ORACLE is not set, and this test compares with the reference oracle; run\n  {FULL_TEST_COMMAND}"
        );
    };
    let probe = run_reference(&command, b"[]");
    assert!(
        probe.status.success() && probe.stdout == b"[]",
        "REFERENCE_ORACLE={command:?} does not work (run from {}): on the batch [] it exited {:?}, printed {:?}, stderr {:?}",
        repo_root().display(),
        probe.status.code(),
        String::from_utf8_lossy(&probe.stdout),
        String::from_utf8_lossy(&probe.stderr).trim()
    );
    command
}

/// Runs the reference oracle on a batch.
pub fn run_reference(command: &str, input: &[u8]) -> Output {
    run_with_stdin(
        Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(repo_root()),
        input,
    )
}

/// For a test marked `#[ignore = "needs node"]`: fails, saying so, unless
/// `node` runs here.
pub fn require_node() {
    let ran = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    assert!(
        ran.as_ref().is_ok_and(|status| status.success()),
        "node does not run here ({ran:?}), and this test compares with Node itself: install Node.js 20 or newer"
    );
}

/// Splits a JSON array into its elements' raw bytes.
pub fn elements(bytes: &[u8]) -> Vec<Vec<u8>> {
    parity_diff::judge::golden::split_elements(bytes)
        .unwrap_or_else(|error| {
            panic!(
                "not a JSON array ({error}): {}",
                String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
            )
        })
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect()
}

/// Every `*.json` file below a directory, sorted, as paths relative to it.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| {
            entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "json")
        })
        .map(|entry| {
            entry
                .path()
                .strip_prefix(dir)
                .expect("below dir")
                .to_path_buf()
        })
        .collect();
    files.sort();
    files
}
