//! Every op on one large string (the shapes of
//! `tests/support/large_strings.tsv`, which `scripts/probe.sh` measures
//! for peak memory), against the reference oracle: the pieces an op
//! borrows, shares or cuts out of a large string must be the reference's
//! bytes. Each shape runs with strings of several sizes and characters,
//! so that cuts (the tail `boundedOutput` keeps, a streamed read of op
//! text) fall between the halves of surrogate pairs, beside lone
//! surrogates and inside multi-byte characters. Needs `REFERENCE_ORACLE`.

use crate::support;

/// One row of the shapes file: name, JSON before the string, the unit
/// the string repeats, JSON after it (and the copies the probe allows).
struct Shape {
    name: String,
    before: String,
    unit: String,
    after: String,
}

fn shapes() -> Vec<Shape> {
    let path = support::repo_root().join("tests/support/large_strings.tsv");
    let text = std::fs::read_to_string(&path).expect("the shapes file reads");
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 5, "{line}");
            Shape {
                name: fields[0].to_owned(),
                before: fields[1].to_owned(),
                unit: fields[2].to_owned(),
                after: fields[3].to_owned(),
            }
        })
        .collect()
}

/// Units for a shape made of plain `x`: the plain one, characters of one
/// to four bytes, and JSON escapes of a pair, a lone low surrogate and a
/// lone high one. As JSON text, for a string in a case; `remoteConfig`'s
/// string is inside JSON text inside a string, so its escapes are escaped
/// again.
fn units(shape: &Shape) -> Vec<String> {
    if shape.unit != "x" {
        return vec![shape.unit.clone()];
    }
    let escapes = if shape.name == "remoteConfig" {
        r"\\ud83d\\ude00\\udc00z\\ud800"
    } else {
        r"\ud83d\ude00\udc00z\ud800"
    };
    vec!["x".into(), "é😀\u{2028}x".into(), escapes.into()]
}

/// The UTF-16 length of a string given as JSON text.
fn len_utf16(json_text: &str) -> usize {
    let value = js_exact::parse(
        format!("\"{json_text}\"").as_bytes(),
        js_exact::TextMode::LossyUtf8,
    );
    value.map_or(0, |value| {
        value.as_js_string().map_or(0, |text| text.len_utf16())
    })
}

/// One case of the batch: what it is, and its string's length in UTF-16
/// units.
struct Case {
    name: String,
    units: usize,
}

/// The batch: each shape with each of its units, repeated so that the
/// string passes 4000 UTF-16 units and the size from which strings are
/// shared (64 KiB, a read of the JSON reader, for JSON text an op parses),
/// then followed by 0 to 4 `y`s, so that the cuts made from the end fall
/// at every place of a unit (none is longer than five units).
fn batch() -> (Vec<Case>, Vec<u8>) {
    let mut names = Vec::new();
    let mut cases = Vec::new();
    for shape in shapes() {
        let op_text = shape.name == "remoteConfig" || shape.name.ends_with("runtimeDefaults");
        let bytes = if op_text { 70_000 } else { 9_000 };
        for unit in units(&shape) {
            let count = bytes / unit.len().min(7);
            for extra in 0..5 {
                let text = format!("{}{}", unit.repeat(count), "y".repeat(extra));
                names.push(Case {
                    name: format!("{} ({count} × {unit:?}, {extra} × y)", shape.name),
                    units: len_utf16(&text),
                });
                let case = format!("{}{text}{}", shape.before, shape.after);
                // Each shape is a batch of one case.
                let case = case
                    .strip_prefix('[')
                    .and_then(|case| case.strip_suffix(']'))
                    .expect("a shape is a batch of one case");
                cases.push(case.to_owned());
            }
        }
    }
    (names, format!("[{}]", cases.join(",")).into_bytes())
}

/// A result for a failure message: whole when short, its two ends when
/// long.
fn shown(result: &[u8]) -> String {
    let text = String::from_utf8_lossy(result);
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 400 {
        return text.into_owned();
    }
    let head: String = chars[..200].iter().collect();
    let tail: String = chars[chars.len() - 200..].iter().collect();
    format!("{head}…{tail}")
}

#[test]
#[ignore = "needs REFERENCE_ORACLE"]
fn every_op_on_a_large_string_gives_the_references_bytes() {
    let reference = support::require_reference();
    let (cases, input) = batch();
    let expected = support::run_reference(&reference, &input);
    let ours = support::run_oracle(&input);
    let stderr =
        |output: &std::process::Output| String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(expected.status.code(), Some(0), "{}", stderr(&expected));
    assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
    let ours = support::elements(&ours.stdout);
    let expected = support::elements(&expected.stdout);
    assert_eq!((ours.len(), expected.len()), (cases.len(), cases.len()));
    let differ: Vec<String> = (0..cases.len())
        .filter(|&at| ours[at] != expected[at])
        .map(|at| {
            format!(
                "{}:\n  ours      {}\n  reference {}",
                cases[at].name,
                shown(&ours[at]),
                shown(&expected[at])
            )
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{} of {} differ:\n{}",
        differ.len(),
        cases.len(),
        differ.join("\n")
    );

    // The batch reaches what it is for: boundedOutput cuts the tail both
    // between characters and between the halves of a pair (which it then
    // skips, omitting one unit more), and results echo whole strings.
    let mut skips = std::collections::BTreeSet::new();
    for (case, result) in cases.iter().zip(&ours) {
        if !case.name.starts_with("boundedOutput ") {
            continue;
        }
        let result = String::from_utf8_lossy(result);
        let omitted: usize = result
            .split("\u{2026}[")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|count| count.parse().ok())
            .unwrap_or_else(|| panic!("{}: {}", case.name, shown(result.as_bytes())));
        skips.insert(omitted - (case.units - 4000));
    }
    assert_eq!(skips.into_iter().collect::<Vec<_>>(), [0, 1]);
    let echo = cases
        .iter()
        .position(|case| case.name.starts_with("unknown-op "))
        .unwrap();
    assert!(ours[echo].len() > 9_000);
}
