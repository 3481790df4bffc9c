//! Quiet by default (issue 36): fuzz names no known divergence one line
//! at a time, on neither stream; its closing line counts them per op, and
//! `--verbose` lists each signature once. A long minimized case is shown
//! in a window, the whole case in the finding's file.

use crate::daily_support::Corpus;

/// Prints `count` cases of `op`: `{"op":OP,"n":N}`, with `s`, a string
/// of 1001 + N characters, for op `long`.
const GENERATOR: &str = r#"import json, sys
args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
op, seed, count = args["--op"], int(args["--seed"]), int(args["--count"])
cases = []
for n in range(count):
    case = {"op": op, "n": seed + n}
    if op == "long":
        case["s"] = "x" * (1001 + n)
    cases.append(case)
print(json.dumps(cases))
"#;

/// Echoes, but throws for ops `a` and `b` (two known signatures each of
/// its own op), and drops the last character of a long `s`.
const RIGHT: &str = r#"import json, sys
out = []
for case in json.load(sys.stdin):
    if case.get("op") in ("a", "b"):
        out.append({"threw": True, "message": "not implemented: " + case["op"]})
    elif case.get("op") == "long" and len(case.get("s", "")) > 1000:
        out.append(dict(case, s=case["s"][:-1]))
    else:
        out.append(case)
print(json.dumps(out, separators=(",", ":")))
"#;

fn project() -> Corpus {
    let corpus = Corpus::new();
    corpus.write("gen.py", GENERATOR);
    corpus.write("right.py", RIGHT);
    corpus.write(
        "left.py",
        "import sys\nsys.stdout.write(sys.stdin.read())\n",
    );
    corpus.write(
        "parity-ledger.txt",
        "rule op a b\n  match: any\n  state: accepted\n  reason: not ported\n",
    );
    corpus
}

fn fuzz(corpus: &Corpus, ops: &[&str], more: &[&str]) -> crate::daily_support::Ran {
    let count = if ops == ["long"] { "1" } else { "40" };
    let mut args = vec![
        "fuzz",
        "--left",
        "python3 left.py",
        "--right",
        "python3 right.py",
        "--generator",
        "python3 gen.py",
        "--seed",
        "1",
        "--count",
        count,
        "--batch-size",
        "20",
        "--out",
        "findings",
    ];
    for op in ops {
        args.extend(["--op", op]);
    }
    args.extend(more);
    corpus.run(&args)
}

#[test]
#[ignore = "needs python3"]
fn known_divergences_are_counted_per_op_and_listed_with_verbose() {
    crate::support::require_python3();
    let corpus = project();
    let ran = fuzz(&corpus, &["a", "b"], &[]);
    assert_eq!(ran.code, 0, "{}{}", ran.text(), ran.stderr);
    let text = ran.text();
    assert!(!text.contains("KNOWN"), "{text}");
    assert!(!ran.stderr.contains("known"), "{}", ran.stderr);
    assert!(
        text.contains(
            "40 known (2 signatures, accepted by the ledger; by op: a 20, b 20; --verbose lists them)"
        ),
        "{text}"
    );
    let verbose = fuzz(&corpus, &["a", "b"], &["--verbose"]);
    let verbose_text = verbose.text();
    let listed: Vec<&str> = verbose_text
        .lines()
        .filter(|line| line.starts_with("KNOWN"))
        .collect();
    assert_eq!(listed.len(), 2, "{}", verbose.text());
    assert!(!verbose.stderr.contains("known"), "{}", verbose.stderr);
}

#[test]
#[ignore = "needs python3"]
fn a_long_minimized_case_is_shown_in_a_window_and_written_whole() {
    crate::support::require_python3();
    let corpus = project();
    let ran = fuzz(&corpus, &["long"], &[]);
    assert_eq!(ran.code, 1, "{}{}", ran.text(), ran.stderr);
    let text = ran.text();
    let line = text
        .lines()
        .find(|line| line.trim_start().starts_with("minimized:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.chars().count() < 500, "{line}");
    assert!(line.contains("bytes in all, whole in findings/"), "{line}");
    let file = std::fs::read_dir(corpus.join("findings"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|e| e == "json"))
        .unwrap();
    let whole = std::fs::read_to_string(file).unwrap();
    assert!(whole.contains(&"x".repeat(1001)), "{whole}");
}
