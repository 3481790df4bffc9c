//! How `parity-diff` stops its oracles (issue 14, defect 9; issue 13,
//! `--max-output`): SIGTERM first, so that an oracle's own cleanup runs,
//! and SIGKILL after the grace; our own oracle's scratch directories
//! removed on timeout and on signals (by the oracle binary itself, on the
//! SIGTERM it gets); SIGINT, SIGTERM and SIGHUP ending
//! parity-diff with 130, 143 and 129 and nothing left running; a flooding
//! oracle stopped at the cap with bounded memory; and a start under
//! `ulimit -v 256M`.
//!
//! The oracles here are shell scripts that write down their process group
//! (`$$`: each runs in a group it leads) and leave marks when their
//! traps run; every test works in temporary directories of its own.

use crate::parity_diff_support as pd;
use crate::support;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use pd::{golden_of, Corpus};
use support::faults::{
    private_tmpdir, scratch_dirs, scratch_heavy_batch, signal, wait_until, wait_with_usage,
};

/// A parity-diff process, its output read as it comes.
struct Running {
    child: Child,
    started: Instant,
    stdout: JoinHandle<String>,
    stderr: JoinHandle<String>,
}

/// What a parity-diff process did.
#[derive(Debug)]
struct Finished {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    took: Duration,
    peak_kib: i64,
}

fn read_all(mut source: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = source.read_to_string(&mut text);
        text
    })
}

/// Starts parity-diff in `dir`, with `TMPDIR` set to `tmpdir`; `run`
/// without `--oracle` runs ours (parity-diff has none of its own).
fn start(dir: &Path, tmpdir: &Path, args: &[&str]) -> Running {
    let mut args = args.to_vec();
    if args.first() == Some(&"run") && !args.contains(&"--oracle") {
        args.splice(
            1..1,
            ["--oracle", env!("CARGO_BIN_EXE_worker-spawn-oracle")],
        );
    }
    start_command(
        Command::new(
            std::path::Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
                .with_file_name("parity-diff"),
        )
        .args(args),
        dir,
        tmpdir,
    )
}

fn start_command(command: &mut Command, dir: &Path, tmpdir: &Path) -> Running {
    let mut child = command
        .current_dir(dir)
        .env("TMPDIR", tmpdir)
        .env_remove("CI")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("parity-diff starts");
    let stdout = read_all(child.stdout.take().unwrap());
    let stderr = read_all(child.stderr.take().unwrap());
    Running {
        child,
        started: Instant::now(),
        stdout,
        stderr,
    }
}

impl Running {
    /// Waits for the end, and measures parity-diff's own peak memory.
    fn finish(self) -> Finished {
        let (status, peak_kib) = wait_with_usage(&self.child);
        let took = self.started.elapsed();
        Finished {
            status,
            stdout: self.stdout.join().unwrap(),
            stderr: self.stderr.join().unwrap(),
            took,
            peak_kib,
        }
    }
}

fn run(dir: &Path, tmpdir: &Path, args: &[&str]) -> Finished {
    start(dir, tmpdir, args).finish()
}

/// A corpus of one case file, `a.json`, whose golden the oracles here
/// never match (they are stopped first).
fn one_file_corpus() -> Corpus {
    let corpus = Corpus::new();
    corpus
        .case("a.json", r#"[{"op":"x"}]"#)
        .golden("a.json", &golden_of(&[r#"{"op":"x"}"#]));
    corpus
}

/// Waits for a file the oracle writes, and reads it.
fn wait_for(path: &Path) -> String {
    assert!(
        wait_until(|| std::fs::read_to_string(path).is_ok_and(|text| text.ends_with('\n'))),
        "{} never appeared",
        path.display()
    );
    std::fs::read_to_string(path).unwrap()
}

/// The process group an oracle wrote down (`echo $$ > pgid`).
fn recorded_group(corpus: &Corpus) -> libc::pid_t {
    wait_for(&corpus.join("pgid")).trim().parse().unwrap()
}

/// Whether a process group still has a live member: `kill -0` on it, and
/// when that finds one, whether any is more than a zombie that the
/// system's init has not reaped yet (orphans go to init, which on some
/// machines reaps them seconds later).
fn group_alive(group: libc::pid_t) -> bool {
    // SAFETY: signal 0 checks for existence; it delivers nothing.
    if unsafe { libc::kill(-group, 0) } != 0 {
        return false;
    }
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            return false;
        };
        // pid (comm) state ppid pgrp …; comm may hold spaces and parens.
        let Some((_, after)) = stat.rsplit_once(')') else {
            return false;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        fields.get(2) == Some(&group.to_string().as_str()) && fields.first() != Some(&"Z")
    })
}

fn assert_group_gone(group: libc::pid_t) {
    assert!(
        wait_until(|| !group_alive(group)),
        "the oracle's process group {group} is still running"
    );
}

/// An oracle that writes down its group, cleans up on SIGTERM (a mark in
/// `cleaned`), and would sleep for long otherwise.
// The group is recorded once the sleep is in it: a signal sent between
// the shell's start and the sleep's fork would miss the sleep, which then
// rightly shows as a process that kept the output open. The sleep starts
// before the trap is set: a shell forked for it while the trap is in place
// (between its fork and its exec) can take the SIGTERM as the trap's, drop
// it when it resets its traps, and exec a sleep that outlives the stop
// (seen once in CI under load).
const TRAPPING: &str = "sleep 401 & trap 'echo yes > cleaned; exit 1' TERM; echo $$ > pgid; wait";

/// An oracle (and its sleep) that ignores SIGTERM.
const DEAF: &str = "trap '' TERM; echo $$ > pgid; sleep 401";

#[test]
fn a_timeout_sends_sigterm_first_so_the_oracles_own_cleanup_runs() {
    let corpus = one_file_corpus();
    let tmp = private_tmpdir();
    let args = [
        "run",
        "--oracle",
        TRAPPING,
        "--timeout",
        "0.3",
        "--kill-grace",
        "10",
    ];
    let ran = run(corpus.path(), tmp.path(), &args);
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    assert!(
        ran.stdout.contains(
            "ERROR a.json: the oracle did not finish within 0.3 s and was killed; \
                       it fails on an empty array `[]` too, so no case is to blame\n"
        ),
        "{ran:?}"
    );
    assert_eq!(corpus.read("cleaned"), "yes\n", "its trap ran");
    // It ended on SIGTERM: nobody waited for the grace.
    assert!(ran.took < Duration::from_secs(5), "{:?}", ran.took);
    assert_group_gone(recorded_group(&corpus));
}

#[test]
fn an_oracle_that_ignores_sigterm_is_killed_after_the_grace() {
    let corpus = one_file_corpus();
    let tmp = private_tmpdir();
    let args = [
        "run",
        "--oracle",
        DEAF,
        "--timeout",
        "0.2",
        "--kill-grace",
        "0.6",
    ];
    let ran = run(corpus.path(), tmp.path(), &args);
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    assert!(
        ran.stdout
            .contains("the oracle did not finish within 0.2 s"),
        "{ran:?}"
    );
    assert!(
        ran.took >= Duration::from_millis(800) && ran.took < Duration::from_secs(5),
        "the timeout and the whole grace: {:?}",
        ran.took
    );
    assert_group_gone(recorded_group(&corpus));
}

/// Our own oracle is a command like any other: at the timeout its group
/// gets SIGTERM, and it removes its scratch directories itself. (Before,
/// an oracle run in parity-diff's own process past `--timeout` left up to
/// 8 behind.)
#[test]
fn our_oracle_past_its_timeout_leaves_no_scratch_directory() {
    let corpus = Corpus::new();
    corpus
        .case("slow.json", &scratch_heavy_batch(20_000))
        .golden("slow.json", "[]\n");
    let tmp = private_tmpdir();
    let ran = run(corpus.path(), tmp.path(), &["run", "--timeout", "0.2"]);
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    // The whole file outlives the timeout; its halves, bisected, may or
    // may not: either way each run past the timeout is stopped.
    assert!(ran.stdout.contains("did not finish"), "{ran:?}");
    assert_eq!(scratch_dirs(tmp.path()), Vec::<String>::new());
}

const SIGNALS: [(libc::c_int, &str); 3] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
];

/// Before, SIGINT to parity-diff left the oracle's process group running.
#[test]
fn sigint_sigterm_and_sighup_stop_the_oracles_group_and_exit_130_143_129() {
    for (number, name) in SIGNALS {
        let corpus = one_file_corpus();
        let tmp = private_tmpdir();
        let running = start(corpus.path(), tmp.path(), &["run", "--oracle", TRAPPING]);
        let group = recorded_group(&corpus);
        signal(&running.child, number);
        let ran = running.finish();
        assert_eq!(ran.status.code(), Some(128 + number), "{name}: {ran:?}");
        assert_eq!(
            ran.stderr,
            format!("parity-diff: interrupted by {name} (1 oracle stopped)\n"),
            "{name}"
        );
        assert_eq!(corpus.read("cleaned"), "yes\n", "{name}: SIGTERM first");
        assert!(ran.took < Duration::from_secs(5), "{name}: {:?}", ran.took);
        assert_group_gone(group);
    }
}

/// Before, SIGINT or SIGTERM to parity-diff running our own oracle left 8
/// scratch directories. Our oracle is stopped as any oracle is, and its
/// SIGTERM removes them.
#[test]
fn a_signal_while_our_oracle_runs_leaves_no_scratch_directory() {
    let corpus = Corpus::new();
    corpus
        .case("slow.json", &scratch_heavy_batch(50_000))
        .golden("slow.json", "[]\n");
    for (number, name) in SIGNALS {
        let tmp = private_tmpdir();
        let running = start(corpus.path(), tmp.path(), &["run"]);
        assert!(
            wait_until(|| !scratch_dirs(tmp.path()).is_empty()),
            "{name}: our oracle made no scratch directory"
        );
        signal(&running.child, number);
        let ran = running.finish();
        assert_eq!(ran.status.code(), Some(128 + number), "{name}: {ran:?}");
        assert_eq!(
            ran.stderr,
            format!("parity-diff: interrupted by {name} (1 oracle stopped)\n"),
            "{name}"
        );
        assert_eq!(scratch_dirs(tmp.path()), Vec::<String>::new(), "{name}");
    }
}

/// An oracle that ends at once on SIGTERM fails while parity-diff is
/// stopping: that failure blames no case, and no oracle is started on
/// `[]` (or on halves of the file) to find one.
#[test]
fn a_failure_caused_by_stopping_is_not_bisected() {
    let corpus = one_file_corpus();
    let tmp = private_tmpdir();
    let running = start(corpus.path(), tmp.path(), &["run", "--oracle", TRAPPING]);
    let group = recorded_group(&corpus);
    std::fs::remove_file(corpus.join("pgid")).unwrap();
    signal(&running.child, libc::SIGTERM);
    let ran = running.finish();
    assert_eq!(ran.status.code(), Some(143), "{ran:?}");
    assert!(!ran.stdout.contains("no case is to blame"), "{ran:?}");
    assert!(
        !corpus.join("pgid").exists(),
        "an oracle started after the signal"
    );
    assert_group_gone(group);
}

#[test]
fn a_signal_stops_an_oracle_that_ignores_sigterm_after_the_grace_or_at_a_second_signal() {
    let corpus = one_file_corpus();
    let tmp = private_tmpdir();
    let args = ["run", "--oracle", DEAF, "--kill-grace", "0.5"];
    let running = start(corpus.path(), tmp.path(), &args);
    let group = recorded_group(&corpus);
    signal(&running.child, libc::SIGTERM);
    let ran = running.finish();
    assert_eq!(ran.status.code(), Some(143), "{ran:?}");
    assert!(
        ran.took >= Duration::from_millis(500),
        "the grace: {:?}",
        ran.took
    );
    assert_group_gone(group);

    // A second signal does not wait for a grace of a minute.
    std::fs::remove_file(corpus.join("pgid")).unwrap();
    let args = ["run", "--oracle", DEAF, "--kill-grace", "60"];
    let running = start(corpus.path(), tmp.path(), &args);
    let group = recorded_group(&corpus);
    signal(&running.child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(200));
    assert!(group_alive(group), "still in its grace");
    signal(&running.child, libc::SIGINT);
    let ran = running.finish();
    assert_eq!(ran.status.code(), Some(130), "{ran:?}");
    assert!(ran.took < Duration::from_secs(10), "{:?}", ran.took);
    assert_group_gone(group);
}

/// Before, `cat /dev/zero` as the oracle grew parity-diff to 2.45 GB in
/// 3 seconds.
#[test]
fn a_flooding_oracle_is_stopped_at_the_cap_with_bounded_memory() {
    let corpus = one_file_corpus();
    let tmp = private_tmpdir();
    // The default for a corpus this small: 64 MiB.
    let ran = run(
        corpus.path(),
        tmp.path(),
        &["run", "--oracle", "cat /dev/zero"],
    );
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    assert!(
        ran.stdout.contains(
            "ERROR a.json: the oracle printed more than 64 MiB on stdout and was stopped \
             (--max-output sets the limit); it fails on an empty array `[]` too, so no case \
             is to blame\n"
        ),
        "{ran:?}"
    );
    assert!(ran.took < Duration::from_secs(5), "{:?}", ran.took);
    assert!(ran.peak_kib < 100 * 1024, "peak {} KiB", ran.peak_kib);

    let args = [
        "run",
        "--oracle",
        "echo $$ > pgid; trap 'echo yes > cleaned' TERM; yes",
        "--max-output",
        "1M",
    ];
    let ran = run(corpus.path(), tmp.path(), &args);
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    assert!(
        ran.stdout
            .contains("ERROR a.json: the oracle printed more than 1 MiB on stdout"),
        "{ran:?}"
    );
    assert!(ran.peak_kib < 32 * 1024, "peak {} KiB", ran.peak_kib);
    assert_group_gone(recorded_group(&corpus));
}

#[test]
fn bless_and_fuzz_cap_their_oracles_output_too() {
    let corpus = one_file_corpus();
    let tmp = private_tmpdir();
    let args = [
        "bless",
        "--reference",
        "cat /dev/zero",
        "--max-output",
        "100000",
    ];
    let ran = run(corpus.path(), tmp.path(), &args);
    assert_eq!(ran.status.code(), Some(2), "{ran:?}");
    assert!(
        ran.stdout
            .contains("the oracle printed more than 100000 bytes on stdout and was stopped"),
        "{ran:?}"
    );
    assert_eq!(corpus.read("golden/a.json"), golden_of(&[r#"{"op":"x"}"#]));

    let out = corpus.join("found");
    let args = [
        "fuzz",
        "--right",
        env!("CARGO_BIN_EXE_worker-spawn-oracle"),
        "--left",
        "cat /dev/zero",
        "--count",
        "10",
        "--seed",
        "1",
        "--max-output",
        "2M",
        "--out",
        out.to_str().unwrap(),
    ];
    let ran = run(corpus.path(), tmp.path(), &args);
    assert_eq!(ran.status.code(), Some(2), "{ran:?}");
    assert!(
        ran.stdout
            .contains("the oracle printed more than 2 MiB on stdout and was stopped"),
        "{ran:?}"
    );
    assert!(ran.took < Duration::from_secs(10), "{:?}", ran.took);
}

#[test]
fn bad_limits_are_refused() {
    let corpus = one_file_corpus();
    let tmp = private_tmpdir();
    for (flag, message) in [
        (
            "--max-output=0",
            "invalid value '0' for '--max-output <SIZE>': not a positive size: \"0\"",
        ),
        (
            "--max-output=lots",
            "invalid value 'lots' for '--max-output <SIZE>': not a size: \"lots\" (try 64M, 1G, or a number of bytes)",
        ),
        (
            "--kill-grace=-1",
            "invalid value '-1' for '--kill-grace <SECS>': a number of seconds, 0 to 3600 (an hour)",
        ),
    ] {
        let ran = run(corpus.path(), tmp.path(), &["run", "--oracle", "cat", flag]);
        assert_eq!(ran.status.code(), Some(2), "{ran:?}");
        assert!(ran.stderr.contains(message), "{ran:?}");
    }
}

/// The batch thread reserves 64 MiB, and parity-diff reserved 256 MiB for
/// its own thread and as much for the oracle it ran in its own process: it
/// could not start under `ulimit -v 256M`. Both binaries start under it.
#[test]
fn parity_diff_runs_under_ulimit_v_256m() {
    let corpus = Corpus::new();
    let levels = 4094;
    let deep = |leaf: &str| format!("{}{leaf}{}", "[".repeat(levels), "]".repeat(levels));
    let deep_case = format!(r#"{{"op":"x","v":{}}}"#, deep("1"));
    let scratch_case = r#"{"op":"preflight","mkdirs":["a"],"cwd":"$DIR/a"}"#;
    corpus
        .case("deep.json", &format!("[{deep_case}]"))
        .golden(
            "deep.json",
            &golden_of(&[&format!(r#"{{"op":"x","v":{}}}"#, deep("2"))]),
        )
        .case("scratch.json", &format!("[{scratch_case}]"))
        .golden("scratch.json", &golden_of(&[r#"{"defined":false}"#]));
    let tmp = private_tmpdir();
    let under_limit = |args: &str| {
        let script = format!(
            "ulimit -v 262144; exec \"{}\" {args}",
            std::path::Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
                .with_file_name("parity-diff")
                .display()
        );
        start_command(
            Command::new("sh").arg("-c").arg(script),
            corpus.path(),
            tmp.path(),
        )
        .finish()
    };
    // Our own oracle (the binary, under the same limit): its batch thread
    // starts, and the deep case is read.
    let ours = format!("--oracle '{}'", env!("CARGO_BIN_EXE_worker-spawn-oracle"));
    let ran = under_limit(&format!("run {ours} --filter scratch.json"));
    assert_eq!(ran.status.code(), Some(0), "{ran:?}");
    let ran = under_limit(&format!("run {ours} --filter deep.json"));
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    assert!(
        ran.stdout.contains("FAIL deep.json (1 of 1 case failed)"),
        "{ran:?}"
    );
    // Results 4096 levels deep, compared and reported in every format.
    for format in ["human", "json", "junit"] {
        let ran = under_limit(&format!(
            "run --oracle cat --filter deep.json --format {format}"
        ));
        assert_eq!(ran.status.code(), Some(1), "{format}: {ran:?}");
        assert_eq!(ran.stderr, "", "{format}");
        assert!(ran.stdout.contains("/v/0/0/0/0/0"), "{format}: {ran:?}");
    }
    // And a flood, at the default cap.
    let ran = under_limit("run --oracle 'cat /dev/zero'");
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    assert!(ran.stdout.contains("more than 64 MiB"), "{ran:?}");
    assert_eq!(scratch_dirs(tmp.path()), Vec::<String>::new());
}
