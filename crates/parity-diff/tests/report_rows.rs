//! The per-op table as a partial port reads it: cases whose op the
//! reference does not know stand on one `(unknown op)` row (or, when the
//! suite's `ops` say which ops it knows, the cases of any other op), and
//! the share an op passes counts identical cases only, never accepted
//! ones (an op the ledger accepts whole is not done).

use crate::support;

use support::report::{tally, Report};
use support::{golden_of, Corpus};

/// The per-op table's rows of a human report: `(op, [passed, accepted,
/// failed])`.
fn op_rows(stdout: &str) -> Vec<(String, [usize; 3])> {
    let table = stdout
        .split("\nop ")
        .nth(1)
        .expect("a per-op table")
        .lines()
        .skip(1);
    table
        .map_while(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (op, counts) = words.split_at(words.len().checked_sub(3)?);
            let count = |w: &str| w.parse::<usize>().ok();
            Some((
                op.join(" "),
                [count(counts[0])?, count(counts[1])?, count(counts[2])?],
            ))
        })
        .collect()
}

/// Cases of ops `a` and `c` and `zzz`, and one whose op is no string; the
/// golden answers `c` and `5` with `unknown op …`, and the port prints the
/// golden's elements. A suite whose `ops` are `a`, `b`, `c` knows `c`
/// (whatever its golden says) and not `zzz` (although its golden has a
/// value).
fn ops_corpus() -> Corpus {
    let corpus = Corpus::new();
    let golden = [
        r#"{"defined":true,"value":1}"#,
        r#"{"threw":true,"message":"unknown op c"}"#,
        r#"{"defined":true,"value":3}"#,
        r#"{"threw":true,"message":"unknown op 5"}"#,
    ];
    corpus.case(
        "t.json",
        &golden_of(&[
            r#"{"name":"an a","op":"a"}"#,
            r#"{"name":"a c","op":"c"}"#,
            r#"{"name":"a zzz","op":"zzz"}"#,
            r#"{"name":"a number","op":5}"#,
        ]),
    );
    corpus.golden("t.json", &golden_of(&golden));
    // As JSON.stringify prints it: nothing around the elements.
    support::write(
        corpus.join("results.json"),
        format!("[{}]", golden.join(",")),
    );
    support::write(
        corpus.join("parity.toml"),
        "[suite.s]\ncases = \"cases\"\noracle = \"cat results.json\"\nops = [\"a\", \"b\", \"c\"]\n",
    );
    corpus
}

#[test]
fn a_suites_ops_say_which_cases_stand_on_the_unknown_op_row() {
    let corpus = ops_corpus();
    // Human (passing cases only counted) and JSON (every case a record).
    let ran = corpus.run(&["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let rows = op_rows(&ran.stdout);
    assert_eq!(
        rows,
        [
            ("(unknown op)".to_owned(), [2, 0, 0]),
            ("a".to_owned(), [1, 0, 0]),
            ("c".to_owned(), [1, 0, 0]),
        ],
        "{}",
        ran.stdout
    );
    let json = corpus.run(&["run", "--format", "json"]);
    let report = Report::read(&json.stdout);
    assert!(report.case("t.json", "a zzz").unknown_op);
    assert!(report.case("t.json", "a number").unknown_op);
    assert!(!report.case("t.json", "a c").unknown_op);
    assert_eq!(report.op("(unknown op)"), tally(2, 0, 0));
    assert_eq!(report.op("c"), tally(1, 0, 0));
    assert!(!report.by_op.iter().any(|(op, _)| op == "zzz"));

    // Without `ops`, the golden decides: `c` is unknown, `zzz` an op.
    let args = ["--no-config", "run", "--oracle", "cat results.json"];
    let ran = corpus.run(&args);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        op_rows(&ran.stdout),
        [
            ("(unknown op)".to_owned(), [2, 0, 0]),
            ("a".to_owned(), [1, 0, 0]),
            ("zzz".to_owned(), [1, 0, 0]),
        ],
        "{}",
        ran.stdout
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let report = Report::read(&corpus.run(&json_args).stdout);
    assert!(report.case("t.json", "a c").unknown_op);
    assert!(!report.case("t.json", "a zzz").unknown_op);
}

/// The table lines up on a terminal whatever the ops are written in: a
/// CJK op takes two columns a character, a combining mark none, and the
/// counts stand in the same columns on every row.
#[test]
fn the_per_op_table_lines_up_in_terminal_columns() {
    let corpus = Corpus::new();
    let cases = [
        r#"{"op":"x","name":"a"}"#,
        r#"{"op":"合計","name":"b"}"#,
        r#"{"op":"合計の平均値","name":"c"}"#,
        "{\"op\":\"cafe\u{301}\",\"name\":\"d\"}",
    ];
    corpus
        .case("w.json", &format!("[{}]", cases.join(",")))
        .golden("w.json", &golden_of(&cases));
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let table: Vec<&str> = ran
        .stdout
        .lines()
        .skip_while(|line| !line.starts_with("op "))
        .take(5)
        .collect();
    assert_eq!(table.len(), 5, "{}", ran.stdout);
    let width = |line: &str| parity_diff::base::columns::width(line);
    assert!(
        table.iter().all(|line| width(line) == width(table[0])),
        "{}",
        ran.stdout
    );
    assert_eq!(
        op_rows(&ran.stdout)
            .iter()
            .map(|(op, _)| op.as_str())
            .collect::<Vec<_>>(),
        ["cafe\u{301}", "x", "合計", "合計の平均値"]
    );
}
