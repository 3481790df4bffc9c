//! Inputs and the baseline for `scripts/bench-diff.sh`.
//!
//! `cargo bench --bench diff -- generate DIR COUNT` writes a golden and
//! result files for each scenario; `cargo bench --bench diff -- baseline
//! A B` reads two files and parses each into `serde_json::Value`, the
//! yardstick the comparison is held to (at most twice its time).
//! `cargo bench --bench diff -- redact COUNT` times the redaction a
//! failing case costs (harvest, the divergence's exceptions, and masking
//! the input, both elements and a stderr) over COUNT failing cases.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// One result element, in one of several shapes results really have; the
/// number makes every element distinct.
fn element(n: usize) -> String {
    match n % 4 {
        0 => format!(
            r#"{{"defined":true,"value":["thread-codex-worker","--kandan-url","https://kandan.test","--token","pub-token-{n}","--runner-id","pub-runner","--thread-id","pub-thread-{n}","--cwd","/home/pub/project","--codex-bin","codex"]}}"#
        ),
        1 => format!(
            r#"{{"threw":true,"message":"thread runner option cwd must be a non-empty string ({n})"}}"#
        ),
        2 => format!(
            r#"{{"sent":[{{"type":"codex-response","id":{n},"result":{{"items":["pub",0.5,-3e-7]}}}}],"trace":[{{"t":"codexRequest","method":"thread/read","params":{{"threadId":"pub-thread"}}}}]}}"#
        ),
        _ => format!(
            r#"{{"defined":true,"value":{{"kandanUrl":"https://kandan.test","runnerId":"pub-r","cwd":"/home/pub","allowedCwds":["/home/pub"],"heartbeatIntervalMs":{n},"labels":{{"os":"linux","\u00e9":null}}}}}}"#
        ),
    }
}

/// The same value written another way: the first two keys swapped and
/// a number written with a fraction, as a careless port would print it.
fn same_value_other_bytes(n: usize) -> String {
    let text = element(n);
    match n % 4 {
        0 => text
            .replacen(r#"{"defined":true,"value":"#, r#"{"value":"#, 1)
            .replacen("]}", r#"],"defined":true}"#, 1),
        1 => format!(
            r#"{{"message":"thread runner option cwd must be a non-empty string ({n})","threw":true}}"#
        ),
        2 => text.replacen(&format!(r#""id":{n},"#), &format!(r#""id":{n}.0,"#), 1),
        _ => text.replacen(r#""\u00e9""#, "\"é\"", 1),
    }
}

/// A real difference in one member.
fn different(n: usize) -> String {
    element(n).replacen("pub", "PUB", 1)
}

fn write_array(path: &Path, golden_format: bool, count: usize, make: impl Fn(usize) -> String) {
    let mut out = BufWriter::new(fs::File::create(path).expect("create"));
    let (open, sep, close) = if golden_format {
        ("[\n", ",\n", "\n]\n")
    } else {
        ("[", ",", "]")
    };
    out.write_all(open.as_bytes()).unwrap();
    for n in 0..count {
        if n > 0 {
            out.write_all(sep.as_bytes()).unwrap();
        }
        out.write_all(make(n).as_bytes()).unwrap();
    }
    out.write_all(close.as_bytes()).unwrap();
    out.flush().unwrap();
}

fn generate(dir: &Path, count: usize) {
    fs::create_dir_all(dir).unwrap();
    write_array(&dir.join("golden.json"), true, count, element);
    write_array(&dir.join("identical.json"), false, count, element);
    write_array(&dir.join("one-percent-different.json"), false, count, |n| {
        if n % 100 == 7 {
            different(n)
        } else {
            element(n)
        }
    });
    write_array(
        &dir.join("all-same-value.json"),
        false,
        count,
        same_value_other_bytes,
    );
    write_array(&dir.join("all-different.json"), false, count, different);
}

fn baseline(a: &Path, b: &Path) {
    let started = Instant::now();
    let mut elements = 0;
    for path in [a, b] {
        let bytes = fs::read(path).expect("read");
        let value: serde_json::Value = serde_json::from_slice(&bytes).expect("parse");
        elements += value.as_array().map_or(0, Vec::len);
    }
    eprintln!(
        "baseline: parsed {elements} elements in {:?}",
        started.elapsed()
    );
}

/// What the report of one failing case asks of `diff::redact`: the
/// secrets of the case and both elements, the ones to keep masked while
/// showing the differing values, then every quoted text masked.
fn redact(count: usize) {
    use js_exact::{parse, TextMode, Value};
    use parity_diff::base::redact::Secrets;
    let read = |text: &str| parse(text.as_bytes(), TextMode::LossyUtf8).expect("parse");
    let mut triples = Vec::with_capacity(count.min(1000));
    for n in 0..count.min(1000) {
        let case = format!(
            r#"{{"op":"connect","name":"case {n}","options":{{"kandanUrl":"https://kandan.test","token":"pub-token-{n}","runnerId":"pub-runner","kandanThreadId":"pub-thread-{n}","cwd":"/home/pub/project","codexBin":"codex","runtimeDefaults":{{"model":"m","apiToken":"rt-{n}"}}}}}}"#
        );
        let golden = element(n * 4);
        let actual = different(n * 4);
        triples.push((
            read(&case),
            read(&golden),
            read(&actual),
            case,
            golden,
            actual,
        ));
    }
    let stderr = "Traceback (most recent call last):\n  File \"port.py\", line 12, in main\nValueError: bad option at pub-token-7\n";
    let started = Instant::now();
    let mut masked = 0;
    for n in 0..count {
        let (case, golden, actual, case_text, golden_text, actual_text) =
            &triples[n % triples.len()];
        let shown = [Value::from("pub"), Value::from("PUB")];
        let own = Secrets::harvest([case]);
        let secrets = own.and_harvest([golden, actual]).for_divergence(
            &own,
            Some(golden),
            Some(actual),
            &shown,
        );
        masked += secrets.mask_json_text(case_text).len();
        masked += secrets.mask_json_text(golden_text).len();
        masked += secrets.mask_json_text(actual_text).len();
        masked += secrets.mask_quoted_text(stderr).len();
    }
    eprintln!(
        "redact: {count} failing cases in {:?} ({masked} bytes masked)",
        started.elapsed()
    );
}

/// What the report's unified diff costs on the inputs that cost Myers
/// most: two 64 KiB elements pretty-printed to 32 000 lines a side, every
/// line different or every other one, and 1 000 distinct lines a side
/// (the largest the smallest-diff path takes). No deadline bounds it: the
/// input's size does (crates/parity-diff/src/judge/textdiff.rs).
fn textdiff() {
    use parity_diff::judge::textdiff::unified;
    let lines = |count: usize, line: &dyn Fn(usize) -> String| -> String {
        (0..count).map(|n| line(n) + "\n").collect()
    };
    let inputs = [
        (
            "32 000 lines a side, all different",
            lines(32_000, &|n| format!("  \"a{n}\",")),
            lines(32_000, &|n| format!("  \"b{n}\",")),
        ),
        (
            "32 000 lines a side, every other one different",
            lines(32_000, &|n| format!("  {n},")),
            lines(32_000, &|n| {
                if n % 2 == 0 {
                    format!("  {n},")
                } else {
                    format!("  -{n},")
                }
            }),
        ),
        (
            "1 000 lines a side, all different",
            lines(1_000, &|n| format!("  \"a{n}\",")),
            lines(1_000, &|n| format!("  \"b{n}\",")),
        ),
    ];
    for (name, golden, actual) in &inputs {
        let started = Instant::now();
        let shown = unified(golden, actual).len();
        eprintln!(
            "textdiff: {name}: {:?} ({shown} lines shown)",
            started.elapsed()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate", dir, count] => generate(Path::new(dir), count.parse().expect("COUNT")),
        ["baseline", a, b] => baseline(Path::new(a), Path::new(b)),
        ["redact", count] => redact(count.parse().expect("COUNT")),
        ["textdiff"] => textdiff(),
        [] => eprintln!("run scripts/bench-diff.sh"),
        _ => {
            eprintln!("usage: diff generate DIR COUNT | diff baseline A B | diff redact COUNT | diff textdiff");
            std::process::exit(2);
        }
    }
}
