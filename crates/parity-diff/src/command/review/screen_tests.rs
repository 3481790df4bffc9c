use super::*;
use crate::command::review::prompt::Key;
use crate::command::review::queue::tests::record;
use crate::command::review::queue::Builder;
use crate::report::record::example::Example;
use crate::report::record::CaseState;

/// The screen as text, a line a row.
fn text(rows: &[Row]) -> String {
    let mut out = String::new();
    for row in rows {
        for (_, span) in row {
            out.push_str(span);
        }
        out.push('\n');
    }
    out
}

/// A record made as a run makes it, of a case, its golden and its
/// result.
fn compared(case: &str, golden: &str, actual: &str) -> CaseRecord {
    let example = Example {
        file: "a.json",
        index: 0,
        line: Some(1),
        op: Example::op_of(case),
        case,
        golden,
        actual,
    };
    let mut record = example.record();
    record.state = CaseState::New;
    record
}

fn session_of(records: &[CaseRecord]) -> Session {
    let mut builder = Builder::default();
    for record in records {
        builder.case(record).unwrap();
    }
    Session::new(builder.finish(), "parity-ledger.txt".into())
}

#[test]
fn a_case_is_shown_side_by_side_or_unified_within_80_by_24() {
    let case = r#"{"op":"sum","name":"small","values":[1,2]}"#;
    let record = compared(
        case,
        r#"{"defined":true,"value":{"total":3,"count":2}}"#,
        r#"{"defined":true,"value":{"total":4,"count":2}}"#,
    );
    let mut session = session_of(&[record]);
    let rows = draw(&mut session, 80, 24);
    assert_eq!(rows.len(), 24);
    let shown = text(&rows);
    for row in shown.lines() {
        assert!(row.chars().count() <= 80, "{row:?}");
    }
    assert!(
        shown.starts_with(
            "parity-diff review · 1 of 1 · new · 1 case · ledger parity-ledger.txt\n\
         sum: different at /value/total (golden number, port number)\n"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("case 1 of 1 · a.json:1 #0 sum \"small\"\n"),
        "{shown}"
    );
    assert!(shown.contains(&format!("input: {case}\n")), "{shown}");
    assert!(
        shown.contains("at /value/total  golden: 3  actual: 4\n"),
        "{shown}"
    );
    assert!(
        shown.contains("    \"total\": 3,                        │     \"total\": 4,\n"),
        "{shown}"
    );
    assert!(
        shown.ends_with("a accept  t triage  r rule  s skip  n/N case  v view  ? help  q quit  \n")
    );
    session.key(Key::Char('v'));
    let shown = text(&draw(&mut session, 80, 24));
    assert!(shown.contains("@@ -1,7 +1,7 @@\n"), "{shown}");
    assert!(
        shown.contains("-    \"total\": 3,\n+    \"total\": 4,\n"),
        "{shown}"
    );
}

/// Wide characters (CJK, emoji) take two columns of a terminal, a
/// combining mark none: the screen measures columns, so no row is wider
/// than the screen and the side-by-side divider stays in one column.
#[test]
fn wide_characters_are_measured_in_columns() {
    let case = r#"{"op":"合計","name":"大きな名前の事例","values":[1,2]}"#;
    let record = compared(
        case,
        r#"{"defined":true,"value":{"合計":"三三三三三三三三三三三三三三三三三三三三三三三三三"}}"#,
        r#"{"defined":true,"value":{"合計":"四🦀é"}}"#,
    );
    let mut session = session_of(&[record]);
    for width in [40, 61, 80] {
        let rows = draw(&mut session, width, 24);
        let shown = text(&rows);
        for row in shown.lines() {
            assert!(columns::width(row) <= width, "{width}: {row:?}");
        }
        let dividers: Vec<usize> = shown
            .lines()
            .filter_map(|row| row.find(" │ ").map(|at| columns::width(&row[..at])))
            .collect();
        assert!(dividers.len() >= 3, "{shown}");
        assert!(
            dividers.iter().all(|&at| at == (width - 3) / 2),
            "{dividers:?}\n{shown}"
        );
        assert!(shown.contains("三三…"), "{shown}");
    }
    // The line being typed keeps its end in sight, by columns too.
    session.key(Key::Char('a'));
    for c in "理由は長い説明です理由は長い説明です理由は長い説明です".chars()
    {
        session.key(Key::Char(c));
    }
    let rows = draw(&mut session, 40, 24);
    let last = text(&rows[rows.len() - 1..]);
    assert!(
        columns::width(last.trim_end_matches('\n')) <= 40,
        "{last:?}"
    );
    assert!(last.contains("説明です▏"), "{last:?}");
}

#[test]
fn a_long_body_scrolls_and_says_what_is_below() {
    let golden: Vec<String> = (0..40).map(|n| n.to_string()).collect();
    let actual: Vec<String> = (0..40).map(|n| (n + 100).to_string()).collect();
    let record = compared(
        r#"{"op":"list"}"#,
        &format!("[{}]", golden.join(",")),
        &format!("[{}]", actual.join(",")),
    );
    let mut session = session_of(&[record]);
    let shown = text(&draw(&mut session, 80, 24));
    assert!(shown.contains("… and 37 more differing paths\n"), "{shown}");
    assert!(
        shown.contains("more lines: ↓ and Page Down scroll\n"),
        "{shown}"
    );
    session.key(Key::PageDown);
    session.key(Key::PageDown);
    session.key(Key::PageDown);
    session.key(Key::PageDown);
    session.key(Key::PageDown);
    let end = text(&draw(&mut session, 80, 24));
    assert!(!end.contains("more lines"), "{end}");
    assert!(
        end.contains("]                                      │ ]\n"),
        "{end}"
    );
    assert!(
        session.scroll < 50,
        "kept within the body: {}",
        session.scroll
    );
}

#[test]
fn outside_text_is_neutral_on_the_screen() {
    let mut record = record(
        "e\u{1b}]0;pwn\u{7}",
        "sum\u{202e}",
        CaseState::New,
        "x\u{1b}[2J",
    );
    record.input = Some("{\"name\":\"\u{1b}[31m\u{2028}\u{200e}\u{feff}\"}".into());
    record.golden = Some("\"\u{9b}\u{200b}\u{e0041}\"".into());
    record.actual = Some("\"::error::x\u{61c}\u{2060}\"".into());
    record.summary = "::warning::\u{7f}".into();
    let mut session = session_of(&[record]);
    for unified in [false, true] {
        session.unified = unified;
        let shown = text(&draw(&mut session, 80, 24));
        assert_eq!(outside::violation(&shown, false), None, "{shown}");
        assert!(shown.contains("\\u{1b}"), "{shown}");
    }
    session.key(Key::Char('a'));
    for c in "typed \u{1b}[2J".chars() {
        session.key(Key::Char(c));
    }
    let shown = text(&draw(&mut session, 80, 24));
    assert_eq!(outside::violation(&shown, false), None, "{shown}");
    assert!(shown.ends_with("reason: typed [2J▏\n"), "{shown}");
}

#[test]
fn help_and_the_end_are_screens_too() {
    let mut session = session_of(&[record("a", "sum", CaseState::New, "x")]);
    session.key(Key::Char('?'));
    let shown = text(&draw(&mut session, 80, 24));
    assert!(shown.contains("    a  accept the group: asks a reason (the last one is offered)\n"));
    session.key(Key::Char('?'));
    session.key(Key::Char('s'));
    let shown = text(&draw(&mut session, 80, 24));
    assert!(
        shown.starts_with("parity-diff review · done · ledger parity-ledger.txt\n"),
        "{shown}"
    );
    assert!(shown.contains("0 accepted, 0 triaged, 0 as rules, 0 pruned, 1 skipped, 0 left\n"));
    assert!(
        shown.ends_with("skipped: nothing written\nq quit  \n"),
        "{shown}"
    );
}

/// Issue 40, item 10: a forged report's case of 300 000 elements a side
/// (too long to lay out) or of 100 000 (laid out, 2 000 lines shown)
/// draws its screen (side by side and unified) after bounded work, and
/// says what it left out; the screen is drawn again at every key.
#[test]
fn a_forged_large_case_draws_its_screen_with_bounded_work() {
    let case = r#"{"op":"sum","name":"big"}"#;
    for (count, said) in [
        (
            300_000,
            "golden: 600009 bytes, too long to lay out: its first 65536 shown raw",
        ),
        (
            100_000,
            "golden: the first 2000 of its 100005 lines are shown and diffed",
        ),
    ] {
        let mut record = compared(case, r#"{"v":[0]}"#, r#"{"v":[1]}"#);
        let side = |n: u8| format!("{{\"v\":[{}{n}]}}", format!("{n},").repeat(count));
        record.golden = Some(side(0));
        record.actual = Some(side(1));
        let mut session = session_of(&[record]);
        for view in ["side by side", "unified"] {
            let shown = text(&draw(&mut session, 80, 24));
            assert!(shown.contains(said), "{view}: {shown}");
            assert!(shown.contains("actual: "), "{view}: {shown}");
            session.key(Key::Char('v'));
        }
    }
}
