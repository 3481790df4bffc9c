//! `parity-diff fuzz` against ports that break on one kind of case: they
//! print `Infinity` for a case whose `v` is 990 or more (and are judged result by
//! result), or crash or hang whenever a batch holds one (and are
//! bisected), and are `cat` otherwise. Each such case is a divergence of
//! its own kind, every other case is still compared, and the session
//! ends with its summary. Also: regression files written twice, and a
//! symbolic link named like one. The cases are the fixture generator's
//! (`support::oracle::generator`), the right side is `cat`.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::oracle;

/// What the ports look for, in a case's text as the fuzzer writes it: a
/// basic regular expression (for `grep` and `sed`), a `v` of 990 to 999.
const MARKER: &str = r#""v":99[0-9]}"#;

/// A shell port: `cat`, except that a batch holding [`MARKER`] runs
/// `broken` (with the batch in the file `$t`) instead. Batches are kept
/// in `dir`, so that a port killed mid-run leaves nothing elsewhere.
fn port(dir: &Path, name: &str, broken: &str) -> String {
    let script = format!(
        "t=$(mktemp '{dir}/batch.XXXXXX'); cat > \"$t\"\n\
         if grep -q '{MARKER}' \"$t\"; then {broken}; rm -f \"$t\"; exit; fi\n\
         cat \"$t\"; status=$?; rm -f \"$t\"; exit $status\n",
        dir = dir.display()
    );
    let path = dir.join(name);
    std::fs::write(&path, script).unwrap();
    format!("sh '{}'", path.display())
}

/// The `v` of each of the first `count` cases of a seed (one batch) that
/// holds the marker: the cases a broken port must be blamed for. The
/// generator's `v` is (the seed's last three digits + 7 I) mod 1000.
fn marked_values(seed: u64, count: usize) -> Vec<u64> {
    (0..count as u64)
        .map(|i| (seed % 1000 + 7 * i) % 1000)
        .filter(|v| *v >= 990)
        .collect()
}

/// How many cases [`marked_values`] finds.
fn marked(seed: u64, count: usize) -> usize {
    marked_values(seed, count).len()
}

/// The case a session minimizes its divergence to: its first marked
/// case, without the members the port does not need.
fn minimized(seed: u64, count: usize) -> String {
    format!(
        r#"{{"op":"timeoutMs","v":{}}}"#,
        marked_values(seed, count)[0]
    )
}

fn fuzz(left: &str, seed: u64, count: usize, out: &Path, extra: &[&str]) -> Output {
    let count = count.to_string();
    let seed = seed.to_string();
    let scratch = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args(["fuzz", "--left", left, "--right", "cat"])
        .args(["--op", "timeoutMs"])
        .args(["--generator", &oracle::generator(scratch.path())])
        .args(["--count", &count, "--batch-size", &count, "--seed", &seed])
        .arg("--out")
        .arg(out)
        .args(extra)
        .env_remove("CI")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// The port that prints `Infinity` for the marked cases alone.
fn infinity_port() -> String {
    format!("sed 's/{{[^{{}}]*{MARKER}/Infinity/g'")
}

/// Checks a human report blaming exactly the marked cases on `kind`,
/// bisected (or judged result by result when not `bisected`).
fn assert_blamed(output: &Output, kind: &str, seed: u64, count: usize, bisected: bool) -> String {
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    let bad = marked(seed, count);
    assert!(bad > 0, "seed {seed} makes no marked case");
    let plural = if bad == 1 { "" } else { "s" };
    let minimized = minimized(seed, count);
    assert!(
        stdout.starts_with(&format!(
            "DIVERGENCE timeoutMs {kind} (left) ({bad} case{plural})\n    minimized: {minimized}\n"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("    right:     {minimized}\n")),
        "{stdout}"
    );
    // Every other case was compared and agreed; the summary closes.
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with(&format!("fuzz: seed {seed}: {count} cases in ")),
        "{last}"
    );
    let how = if bisected {
        "0 judged result by result, 1 bisected in "
    } else {
        "1 judged result by result, 0 bisected in 0 oracle runs"
    };
    assert!(
        last.contains(&format!(
            ": {bad} diverged, 1 signature, 1 failed batch run: {how}"
        )),
        "{last}"
    );
    assert!(
        stderr.contains(&format!(
            "fuzz: the left oracle failed on a batch of {count} cases ({kind}: "
        )),
        "{stderr}"
    );
    stdout
}

#[test]
fn a_port_that_prints_infinity_for_one_kind_of_case() {
    let dir = tempfile::tempdir().unwrap();
    let left = infinity_port();
    let out = dir.path().join("out");
    let output = fuzz(&left, 5, 300, &out, &[]);
    let stdout = assert_blamed(&output, "invalid-output", 5, 300, false);
    assert!(
        stdout.contains(
            "    left:      invalid-output: the oracle printed `Infinity`, which is not JSON\n"
        ),
        "{stdout}"
    );
    let stderr = text(&output.stderr);
    let bad = marked(5, 300);
    assert!(
        stderr.contains(&format!(
            "(invalid-output: {bad} of the oracle's 300 results are not JSON); each result judged alone\n"
        )),
        "{stderr}"
    );
    let written = files(&out);
    assert_eq!(written.len(), 1, "{written:?}");
    let name = written[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with("timeoutMs-invalid-output-left-"), "{name}");
    assert_eq!(
        std::fs::read_to_string(&written[0]).unwrap(),
        "[\n{\"name\":\"fuzz seed 5: timeoutMs invalid-output (left)\",\"op\":\"timeoutMs\",\"v\":992}\n]\n"
    );

    // The JSON report says the same, and is printed whole.
    let output = fuzz(&left, 5, 300, &out, &["--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["cases"], 300);
    assert_eq!(report["stopped"], serde_json::Value::Null);
    assert_eq!(report["failedBatches"], 1);
    assert_eq!(report["bisectedBatches"], 0);
    assert_eq!(report["bisectRuns"], 0);
    let divergence = &report["divergences"][0];
    assert_eq!(divergence["kind"], "invalid-output");
    assert_eq!(divergence["cases"], marked(5, 300));
    assert_eq!(divergence["left"], serde_json::Value::Null);
    assert_eq!(divergence["leftFailure"]["kind"], "invalid-output");
    assert_eq!(divergence["right"], minimized(5, 300));
    assert_eq!(divergence["rightFailure"], serde_json::Value::Null);
    assert_eq!(divergence["fileStatus"], "unchanged");
}

#[test]
fn a_port_that_crashes_on_one_kind_of_case() {
    let dir = tempfile::tempdir().unwrap();
    let left = port(
        dir.path(),
        "port.sh",
        "echo 'Traceback (most recent call last):' >&2; echo 'OverflowError: cannot convert float infinity to integer' >&2; rm -f \"$t\"; exit 3",
    );
    let out = dir.path().join("out");
    let stdout = assert_blamed(&fuzz(&left, 5, 300, &out, &[]), "crash", 5, 300, true);
    assert!(
        stdout.contains(concat!(
            "    left:      crash: the oracle exited with status 3\n",
            "               | Traceback (most recent call last):\n",
            "               | OverflowError: cannot convert float infinity to integer\n",
        )),
        "{stdout}"
    );
}

#[test]
fn a_port_that_hangs_on_one_kind_of_case() {
    let dir = tempfile::tempdir().unwrap();
    let left = port(dir.path(), "port.sh", "rm -f \"$t\"; sleep 30");
    let out = dir.path().join("out");
    // A second: a batch of a dozen cases through the shell port took over
    // 0.3 s once on a loaded machine, and was blamed as a hang.
    let output = fuzz(&left, 5, 200, &out, &["--timeout", "1"]);
    let stdout = assert_blamed(&output, "timeout", 5, 200, true);
    assert!(
        stdout.contains(
            "    left:      timeout: the oracle did not finish within 1 s and was killed\n"
        ),
        "{stdout}"
    );
}

#[test]
fn the_same_seed_twice_writes_no_new_file_and_keeps_what_is_there() {
    let dir = tempfile::tempdir().unwrap();
    let left = infinity_port();
    let out = dir.path().join("out");
    assert_eq!(fuzz(&left, 5, 300, &out, &[]).status.code(), Some(1));
    let written = files(&out);
    let [file] = written.as_slice() else {
        panic!("{written:?}");
    };
    let before = std::fs::read(file).unwrap();
    let inode = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(file).unwrap());

    let output = fuzz(&left, 5, 300, &out, &[]);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "    kept:      {} (already there)\n",
            file.display()
        )),
        "{stdout}"
    );
    assert_eq!(files(&out), written);
    assert_eq!(std::fs::read(file).unwrap(), before);
    assert_eq!(
        std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(file).unwrap()),
        inode,
        "the file was left alone, not rewritten"
    );

    // Another seed that finds the same case: the same file, kept.
    let other_seed = (6..40)
        .find(|&seed| marked(seed, 300) > 0 && minimized(seed, 300) == minimized(5, 300))
        .unwrap();
    let stdout = text(&fuzz(&left, other_seed, 300, &out, &[]).stdout);
    assert!(
        stdout.contains(&format!(
            "    kept:      {} (the same case, found before under another name)\n",
            file.display()
        )),
        "{stdout}"
    );
    assert_eq!(std::fs::read(file).unwrap(), before);

    // A file of that name with other content is not overwritten.
    std::fs::write(file, "[]\n").unwrap();
    let output = fuzz(&left, 5, 300, &out, &[]);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "    not written: {} exists with other content; left as it is\n",
            file.display()
        )),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(file).unwrap(), "[]\n");
    assert_eq!(files(&out).len(), 1);
}

#[test]
fn a_dangling_link_named_like_a_regression_file_is_not_followed() {
    // Issue 14: fuzz --out followed such a link and wrote outside --out.
    let dir = tempfile::tempdir().unwrap();
    let left = infinity_port();
    let first = dir.path().join("first");
    assert_eq!(fuzz(&left, 5, 300, &first, &[]).status.code(), Some(1));
    let name = files(&first)[0].file_name().unwrap().to_owned();

    let out = dir.path().join("out");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let escaped = outside.join("escaped.json");
    std::os::unix::fs::symlink(&escaped, out.join(&name)).unwrap();
    let output = fuzz(&left, 5, 300, &out, &[]);
    let stdout = text(&output.stdout);
    // A finding that could not be written is fuzz's own failure (exit 2),
    // not a divergence's (1).
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "    not written: {} is a symbolic link; it is not followed\n",
            out.join(&name).display()
        )),
        "{stdout}"
    );
    assert!(!escaped.exists(), "the link was followed");
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("fuzz: seed 5: 300 cases"),
        "{stdout}"
    );
}
