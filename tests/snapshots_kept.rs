//! Issue 23 made `run` and `compare` fast on a large file and was to
//! change no report. This test writes the reports `scripts/bench-speed.sh`
//! keeps for it (`REPORTS_SAVE`): the bundled corpus's, and the benchmark
//! file's (its 200 000 light cases, `examples/bench_batch`) through our
//! oracle's results and through results with divergences, by `run` and
//! by `compare` with and without `--cases`, as JSON and as text. The
//! snapshot holds each one's length and hash, and the text reports
//! whole. (That `--jobs` and streaming change no report is
//! `parity_diff_stream`'s and `parity_diff_jobs`' to show.)
//!
//! The snapshot's figures were first those of the build of 01e3cab, the
//! commit before the live run, the plan's single pass and the case
//! prefetch: its binaries wrote the same bytes for the same commands on
//! the same files (checked by hand when this test was written, with
//! that worktree's `target/release`). A figure that changes is a report
//! that changed: review it as any snapshot, and say why in the commit. (A
//! change to the bundled corpus changes its two lines, rightly.)

// The generator of the benchmark batches, shared with the example that
// writes them for the scripts; this test takes the light batch only.
#[allow(dead_code)]
#[path = "../examples/bench_batch/batches.rs"]
mod batches;

use super::{check, parity_diff};
use crate::parity_diff_support as support;

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// The bench file's size, as `scripts/bench-speed.sh` runs it.
const CASES: u64 = 200_000;

/// The divergences `scripts/bench-speed.sh` makes of our oracle's results:
/// stillborn attempts (a number), the ready timeout's message (a string)
/// and the protocol version written `1.0` (the same value in other bytes).
const EDITS: [(&str, &str); 3] = [
    ("\"attempts\":4}", "\"attempts\":5}"),
    ("within 30000ms", "within 3e4ms"),
    ("\"protocolVersion\":1}", "\"protocolVersion\":1.0}"),
];

/// A port that prints `file` whatever its cases (the oracle's results
/// computed once, so each run costs only parity-diff's own work).
fn printing(file: &str) -> String {
    format!("cat > /dev/null; cat {file}")
}

/// 64-bit FNV-1a: enough to tell two reports apart, and ten lines here.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The bench file's corpus (`cases/l.json`, its golden blessed from our
/// oracle's results) with those results (`results.json`) and the
/// diverging ones (`diverging.json`) beside it.
fn bench_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases/l.json");
    std::fs::create_dir_all(cases.parent().unwrap()).unwrap();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&cases).unwrap());
    batches::write_batch(batches::Batch::Light, CASES, &mut file).unwrap();
    drop(file);
    let results = Command::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
        .stdin(std::fs::File::open(&cases).unwrap())
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    assert!(results.status.success(), "{:?}", results.status);
    let results = String::from_utf8(results.stdout).unwrap();
    let diverging = EDITS
        .iter()
        .fold(results.clone(), |text, (from, to)| text.replace(from, to));
    support::write(dir.path().join("results.json"), &results);
    support::write(dir.path().join("diverging.json"), &diverging);
    let blessed = parity_diff(
        dir.path(),
        &[
            "bless",
            "--no-config",
            "--reference",
            &printing("results.json"),
            "--cases",
            "cases",
            "--golden",
            "golden",
            "-q",
        ],
        &[],
    );
    assert_eq!(blessed.code, Some(0), "{}", blessed.render());
    dir
}

/// The snapshot's entry for one report: a line of its length, hash and
/// exit status, and the report itself when it is text (a JSON report of
/// the bench file is tens of megabytes, one line).
fn kept(listing: &mut String, name: &str, dir: &Path, args: &[&str]) {
    let ran = parity_diff(dir, args, &[]);
    assert!(ran.stderr.is_empty(), "{}", ran.render());
    writeln!(
        listing,
        "{name:<24} {:>9} bytes  fnv1a {:016x}  exit {}",
        ran.stdout.len(),
        fnv1a(&ran.stdout),
        ran.code.map_or("none".into(), |code| code.to_string()),
    )
    .unwrap();
    if name.ends_with(".human") {
        let text = String::from_utf8(ran.stdout).expect("a report is UTF-8");
        for line in text.lines() {
            writeln!(listing, "    {line}").unwrap();
        }
    }
}

/// Each report as `scripts/bench-speed.sh` writes it: the bench file is
/// above 8 MiB, so `run` streams it (the live run); `--jobs` as the
/// script gives it.
#[test]
fn reports_of_the_bundled_corpus_and_the_bench_file_are_kept() {
    let bench = bench_corpus();
    let dir = bench.path();
    let oracle = printing("results.json");
    let port = printing("diverging.json");
    let mut listing = String::new();
    // Our oracle as this test build made it (parity.toml names the
    // release build, which a plain `cargo test` has not built).
    let ours = support::our_oracle();
    for format in ["json", "human"] {
        let corpus = ["run", "--oracle", &ours, "--jobs", "2", "--format", format];
        kept(
            &mut listing,
            &format!("corpus.{format}"),
            support::root(),
            &corpus,
        );
        let run = ["run", "--no-config", "--format", format, "--oracle"];
        let light = [&run[..], &[&oracle, "--jobs", "1"]].concat();
        kept(&mut listing, &format!("light.{format}"), dir, &light);
        let diverging = [&run[..], &[&port, "--jobs", "2"]].concat();
        let name = format!("light-diverging.{format}");
        kept(&mut listing, &name, dir, &diverging);
        let compare = [
            "compare",
            "--format",
            format,
            "diverging.json",
            "golden/l.json",
        ];
        let with_cases = [&compare[..], &["--cases", "cases/l.json"]].concat();
        let name = format!("compare-diverging.{format}");
        kept(&mut listing, &name, dir, &with_cases);
        kept(
            &mut listing,
            &format!("compare-bare.{format}"),
            dir,
            &compare,
        );
    }
    check("kept-reports", &listing);
}
