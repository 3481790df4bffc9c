use super::file::{parse, render};
use super::{moved, Counts, Progress};

fn counts(cases: u64, passing: u64) -> Counts {
    Counts {
        cases,
        passing,
        accepted_entries: 0,
        accepted_rules: 0,
        failing: cases - passing,
    }
}

fn progress(ops: &[(&str, &str, Counts)]) -> Progress {
    let mut progress = Progress::default();
    for (suite, op, counts) in ops {
        progress
            .suites
            .entry(suite.to_string())
            .or_default()
            .insert(op.to_string(), *counts);
    }
    progress
}

#[test]
fn the_file_reads_back_as_written_one_op_a_line_even_with_hostile_names() {
    let mut written = progress(&[
        ("toy", "add", counts(4, 2)),
        ("toy", "evil\n\u{1b}[31m\"}", counts(1, 0)),
        ("other", "mul", counts(3, 3)),
    ]);
    written.commit = Some("0123abcd".into());
    let text = render(&written);
    assert_eq!(parse(text.as_bytes(), "f").unwrap(), written);
    // Suites, then ops, sorted; a hostile name stays on its line.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 19, "{text}");
    assert!(
        lines[7].starts_with("        \"mul\": {\"cases\": 3,"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'));
    assert!(
        lines[14].starts_with("        \"evil\\n\\u001b[31m\\\"}\": {"),
        "{text}"
    );
}

#[test]
fn a_file_that_is_not_one_is_refused_with_its_name() {
    for (text, says) in [
        ("[]", "not a JSON object"),
        ("{\"version\":2,\"suites\":{}}", "version 2"),
        ("{\"version\":1}", "no \"suites\""),
        (
            "{\"version\":1,\"suites\":{\"s\":{\"ops\":{\"a\":{\"cases\":1}}}}}",
            "not five whole counts",
        ),
    ] {
        let error = parse(text.as_bytes(), "p.json").unwrap_err().message;
        assert!(error.starts_with("p.json: not a progress file"), "{error}");
        assert!(error.contains(says), "{error}");
    }
}

#[test]
fn moved_names_each_op_that_changed_came_or_went() {
    let before = progress(&[("s", "a", counts(4, 2)), ("s", "b", counts(1, 1))]);
    let after = progress(&[("s", "a", counts(4, 4)), ("s", "c", counts(2, 0))]);
    let lines: Vec<String> = moved(&before, &after)
        .iter()
        .map(|m| m.describe())
        .collect();
    assert_eq!(
        lines,
        [
            "s a: passing 2 -> 4, failing 2 -> 0",
            "s b: gone (was cases 1, passing 1, acceptedEntries 0, acceptedRules 0, failing 0)",
            "s c: new (cases 2, passing 0, acceptedEntries 0, acceptedRules 0, failing 2)",
        ]
    );
    assert!(moved(&after, &after).is_empty());
}
