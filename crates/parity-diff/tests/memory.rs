//! parity-diff's memory does not grow with its inputs: `compare` (with
//! and without a case file), `run`, `merge` and `delta`, in the human and
//! JSON formats (delta: human and Markdown, it has no JSON), each run on
//! inputs of a fifth of `LARGE` elements and of `LARGE`. Every tenth case
//! fails, each in a failure group of its own (the worst case for
//! grouping). The peak resident set of parity-diff and of the children it
//! waited for (wait4) must stay at most 128 MiB, and must not grow from
//! the small inputs to the large ones by more than the compact per-case
//! structures (see `GROWTH_MIB`): far less than one large input (16 MiB),
//! which holding any would cost.
//!
//! A debug build is slow per element, so the cases are padded to about
//! 800 bytes. `PARITY_DIFF_MEMORY_ELEMENTS` and `PARITY_DIFF_MEMORY_PAD`
//! change both: scripts/bench-memory.sh runs this test on the release
//! build with a million unpadded cases, and prints the peaks
//! (`--nocapture`).

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// The bound issue 13 sets, in KiB.
const LIMIT_KIB: i64 = 128 * 1024;

/// How much more the large inputs may cost than the small ones: the
/// spools (up to 4 MiB each in memory before they move to disk), plus
/// `PER_CASE` bytes per case more: a shard's selected positions (8 bytes
/// a case) and the failure groups (32 bytes a group, an 8-byte index
/// slot or two). Holding an input would cost its size, at least 50 bytes
/// a case.
const GROWTH_MIB: i64 = 6;

/// See [`GROWTH_MIB`]; delta's own: it indexes BASE, 32 bytes a case,
/// and sorts the index.
const PER_CASE: i64 = 16;
const PER_CASE_DELTA: i64 = 96;

/// The element counts (small, large) and the padding of each case.
fn sizes() -> (usize, usize, usize) {
    let var = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|text| text.parse().ok())
            .unwrap_or(default)
    };
    let large = var("PARITY_DIFF_MEMORY_ELEMENTS", 20_000);
    (large / 5, large, var("PARITY_DIFF_MEMORY_PAD", 800))
}

/// A case: `pad` bytes of padding make an input large without making it
/// long (a debug build is slow per element, not per byte).
fn case(n: usize, pad: usize) -> String {
    format!(
        r#"{{"op":"o{}","name":"c{n}","pad":"{}","k{n}":{n}}}"#,
        n % 20,
        "p".repeat(pad)
    )
}

/// The golden of a case: every tenth (`base`) or every seventh (not
/// `base`) differs from what `cat` prints, at a path of its own.
fn golden(n: usize, pad: usize, base: bool) -> String {
    let every = if base { 10 } else { 7 };
    let case = case(n, pad);
    if n.is_multiple_of(every) {
        case.replace(&format!(r#""k{n}":{n}"#), &format!(r#""k{n}":-1"#))
    } else {
        case
    }
}

fn write_array(path: &Path, count: usize, make: impl Fn(usize) -> String) {
    let mut out = BufWriter::new(File::create(path).unwrap());
    out.write_all(b"[\n").unwrap();
    for n in 0..count {
        if n > 0 {
            out.write_all(b",\n").unwrap();
        }
        out.write_all(make(n).as_bytes()).unwrap();
    }
    out.write_all(b"\n]\n").unwrap();
    out.flush().unwrap();
}

/// A corpus of one case file of `count` cases (`cases/`, `golden/`),
/// another golden for the run after (`golden2/`), and `cat` as the port.
fn inputs(dir: &Path, count: usize, pad: usize) {
    for sub in ["cases", "golden", "golden2"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    write_array(&dir.join("cases/big.json"), count, |n| case(n, pad));
    write_array(&dir.join("golden/big.json"), count, |n| {
        golden(n, pad, true)
    });
    write_array(&dir.join("golden2/big.json"), count, |n| {
        golden(n, pad, false)
    });
}

/// Runs parity-diff in `dir`, its report to `out` (in `dir`); returns its
/// exit status, the ends of its report, and the peak resident set in KiB
/// of it and the children it waited for.
// The child is reaped by wait4, which std's Child does not know of.
#[allow(clippy::zombie_processes)]
fn peak(dir: &Path, args: &[&str], out: &str) -> (i32, String, i64) {
    let report = File::create(dir.join(out)).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        // Every case file is streamed, as large ones are, at both sizes.
        .env("PARITY_DIFF_STREAM_ABOVE", "0")
        .stdin(Stdio::null())
        .stdout(report)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, writing into locals.
    let waited = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as i32, "wait4");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, ends(&dir.join(out)), usage.ru_maxrss)
}

/// The first and the last KiB of a report, never the whole of it: this
/// process stays small, whatever a child might inherit from it.
fn ends(path: &Path) -> String {
    let mut file = File::open(path).unwrap();
    let len = file.metadata().unwrap().len();
    let mut read = |from: u64| {
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(from)).unwrap();
        (&mut file).take(1024).read_to_end(&mut bytes).unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let head = read(0);
    let tail = read(len.saturating_sub(1024));
    format!("{head}\n…\n{tail}")
}

/// One measured command: what it is, its arguments, where its report
/// goes, and what its report must say of `count` cases.
struct Step {
    what: &'static str,
    args: Vec<&'static str>,
    out: &'static str,
    code: i32,
    says: fn(usize) -> String,
}

fn steps() -> Vec<Step> {
    let failed_json = |count: usize| format!("\"failed\":{},", count.div_ceil(10));
    let failed_text = |count: usize| {
        let failed = count.div_ceil(10);
        format!("{} passed, {failed} failed\n", count - failed)
    };
    let compare = ["compare", "cases/big.json", "golden/big.json"];
    let with_cases = [
        "compare",
        "--cases",
        "cases/big.json",
        "cases/big.json",
        "golden/big.json",
    ];
    // `cat` echoes the case file, framing and all.
    let run = ["run", "--oracle", "cat", "--framing", "json", "--jobs", "1"];
    let step = |what, args: Vec<&'static str>, out, code, says| Step {
        what,
        args,
        out,
        code,
        says,
    };
    let with = |base: &[&'static str], more: &[&'static str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(more);
        args
    };
    vec![
        step("compare", with(&compare, &[]), "out.txt", 1, failed_text),
        step(
            "compare",
            with(&compare, &["--format", "json"]),
            "out.json",
            1,
            failed_json,
        ),
        step(
            "compare --cases",
            with(&with_cases, &[]),
            "out.txt",
            1,
            failed_text,
        ),
        step(
            "compare --cases",
            with(&with_cases, &["--format", "json"]),
            "out.json",
            1,
            failed_json,
        ),
        step("run", with(&run, &[]), "out.txt", 1, failed_text),
        step(
            "run",
            with(&run, &["--format", "json"]),
            "base.json",
            1,
            failed_json,
        ),
        step(
            "run --shard 1/2",
            with(&run, &["--format", "json", "--shard", "1/2"]),
            "shard-1.json",
            1,
            |_| "\"summary\":".into(),
        ),
        step(
            "run --shard 2/2",
            with(&run, &["--format", "json", "--shard", "2/2"]),
            "shard-2.json",
            1,
            |_| "\"summary\":".into(),
        ),
        step(
            "merge",
            vec!["merge", "shard-1.json", "shard-2.json"],
            "out.txt",
            1,
            failed_text,
        ),
        step(
            "merge",
            vec!["merge", "--format", "json", "shard-1.json", "shard-2.json"],
            "out.json",
            1,
            failed_json,
        ),
        step(
            "run (the run after)",
            with(&run, &["--format", "json", "--golden", "golden2"]),
            "head.json",
            1,
            |_| "\"summary\":".into(),
        ),
        step(
            "delta",
            vec!["delta", "base.json", "head.json"],
            "out.txt",
            1,
            |_| "newly failing".into(),
        ),
        step(
            "delta",
            vec!["delta", "--format", "markdown", "base.json", "head.json"],
            "out.md",
            1,
            |_| "newly failing".into(),
        ),
    ]
}

#[test]
fn memory_does_not_grow_with_the_inputs() {
    let (small, large, pad) = sizes();
    let root = tempfile::tempdir().unwrap();
    let dirs = [root.path().join("small"), root.path().join("large")];
    inputs(&dirs[0], small, pad);
    inputs(&dirs[1], large, pad);
    let input_mib = std::fs::metadata(dirs[1].join("golden/big.json"))
        .unwrap()
        .len()
        >> 20;
    eprintln!(
        "peak resident set (MiB) at {small} and {large} elements (one input: {input_mib} MiB):"
    );
    let mut missed = Vec::new();
    for step in steps() {
        let started = std::time::Instant::now();
        let mut peaks = [0; 2];
        for (at, (dir, count)) in dirs.iter().zip([small, large]).enumerate() {
            let (code, out, peak) = peak(dir, &step.args, step.out);
            assert_eq!(code, step.code, "{:?} at {count}: {out}", step.args);
            let says = (step.says)(count);
            assert!(
                out.contains(&says),
                "{:?} at {count}: no {says:?} in {out}",
                step.args
            );
            peaks[at] = peak;
        }
        let format = match step.args.iter().position(|arg| *arg == "--format") {
            Some(at) => step.args[at + 1],
            None => "human",
        };
        let mib = |kib: i64| kib as f64 / 1024.0;
        eprintln!(
            "  {:<22} {:<9} {:7.1} {:7.1}   ({:.1} s)",
            step.what,
            format,
            mib(peaks[0]),
            mib(peaks[1]),
            started.elapsed().as_secs_f64()
        );
        if peaks[1] > LIMIT_KIB {
            missed.push(format!("{} {format}: {:.1} MiB", step.what, mib(peaks[1])));
        }
        let per_case = match step.args[0] {
            "delta" => PER_CASE_DELTA,
            _ => PER_CASE,
        };
        let allowed = GROWTH_MIB * 1024 + per_case * (large - small) as i64 / 1024;
        if peaks[1] > peaks[0] + allowed {
            missed.push(format!(
                "{} {format}: grew from {:.1} to {:.1} MiB",
                step.what,
                mib(peaks[0]),
                mib(peaks[1])
            ));
        }
    }
    assert!(missed.is_empty(), "{missed:#?}");
}
