use super::*;
use crate::coverage::ranges::Range;

/// The offsets of `needle` in `text` (ASCII here, so bytes are units).
fn at(text: &str, needle: &str) -> (u32, u32) {
    let start = text.find(needle).expect("in the text") as u32;
    (start, start + needle.len() as u32)
}

fn counts(ranges: &[((u32, u32), u64)]) -> Option<Counts> {
    Some(Counts::of_process(
        ranges
            .iter()
            .map(|&((start, end), count)| Range { start, end, count }),
    ))
}

fn shown(script: &ScriptSpans, text: &str) -> Vec<(String, String, Vec<usize>)> {
    script
        .spans
        .iter()
        .map(|span| {
            (
                script.functions[span.function].path.clone(),
                text[span.start as usize..span.end as usize].to_owned(),
                span.reach.iter().collect(),
            )
        })
        .collect()
}

const TEXT: &str = "function f(x) {\n  if (x) { g(); }\n  return 1;\n}\nf(1);\n";

fn functions(text: &str) -> BTreeMap<(u32, u32), String> {
    let mut functions = BTreeMap::new();
    functions.insert((0, text.len() as u32), String::new());
    functions.insert(
        at(text, "function f(x) {\n  if (x) { g(); }\n  return 1;\n}"),
        "f".into(),
    );
    functions
}

#[test]
fn a_span_is_a_stretch_of_a_function_that_the_same_cases_ran() {
    let source = Source::new(TEXT.as_bytes());
    let whole = (0, TEXT.len() as u32);
    let f = at(TEXT, "function f(x) {\n  if (x) { g(); }\n  return 1;\n}");
    let block = at(TEXT, "{ g(); }");
    // Run 0 takes the branch; run 1 does not; run 2 never loaded it.
    let runs = [
        counts(&[(whole, 1), (f, 1)]),
        counts(&[(whole, 1), (f, 1), (block, 0)]),
        None,
    ];
    let script = build(&functions(TEXT), &runs, &source);
    assert_eq!(
        shown(&script, TEXT),
        [
            ("f".into(), "function f(x) {\n  if (x) ".into(), vec![0, 1]),
            ("f".into(), "{ g(); }".into(), vec![0]),
            ("f".into(), "\n  return 1;\n}".into(), vec![0, 1]),
            ("(top level)".into(), "\nf(1);\n".into(), vec![0, 1]),
        ]
    );
}

#[test]
fn a_stretch_no_case_ran_is_one_span_however_v8_split_its_blocks() {
    let source = Source::new(TEXT.as_bytes());
    let whole = (0, TEXT.len() as u32);
    let f = at(TEXT, "function f(x) {\n  if (x) { g(); }\n  return 1;\n}");
    let block = at(TEXT, "{ g(); }");
    let (call, rest) = (at(TEXT, "g();"), at(TEXT, " }\n  return 1;\n}"));
    // One run cut the block into pieces, at counts of 0 each.
    let runs = [counts(&[
        (whole, 1),
        (f, 1),
        (block, 0),
        (call, 0),
        (rest, 1),
    ])];
    let script = build(&functions(TEXT), &runs, &source);
    let unrun: Vec<_> = shown(&script, TEXT)
        .into_iter()
        .filter(|(_, _, runs)| runs.is_empty())
        .map(|(_, text, _)| text)
        .collect();
    assert_eq!(unrun, ["{ g();"]);
}

#[test]
fn a_callback_in_a_never_run_stretch_is_part_of_it_and_white_space_is_no_span() {
    let text =
        "function f(x) {\n  if (x) { xs.map((y) => y); }\n  for (;;) { return 1; }\n}\nf(0);\n";
    let source = Source::new(text.as_bytes());
    let whole = (0, text.len() as u32);
    let f = at(
        text,
        "function f(x) {\n  if (x) { xs.map((y) => y); }\n  for (;;) { return 1; }\n}",
    );
    let block = at(text, "{ xs.map((y) => y); }");
    let arrow = at(text, "(y) => y");
    // After the loop that only returns: a continuation of white space.
    let after_loop = (at(text, "return 1; }").1, f.1 - 1);
    let mut functions = BTreeMap::new();
    functions.insert(whole, String::new());
    functions.insert(f, "f".into());
    functions.insert(arrow, String::new());
    let runs = [counts(&[
        (whole, 1),
        (f, 1),
        (block, 0),
        (after_loop, 0),
        (arrow, 0),
    ])];
    let script = build(&functions, &runs, &source);
    let unrun: Vec<_> = shown(&script, text)
        .into_iter()
        .filter(|(_, _, runs)| runs.is_empty())
        .collect();
    assert_eq!(
        unrun,
        [("f".into(), "{ xs.map((y) => y); }".into(), vec![])]
    );
    assert_eq!(script.functions[2].path, "f > (anonymous)");
}

#[test]
fn a_never_called_function_beside_code_that_ran_keeps_its_own_name() {
    let text = "function used() { return 1; }\nfunction unused() { return 2; }\nused();\n";
    let source = Source::new(text.as_bytes());
    let mut functions = BTreeMap::new();
    let whole = (0, text.len() as u32);
    functions.insert(whole, String::new());
    let (used, unused) = (
        at(text, "function used() { return 1; }"),
        at(text, "function unused() { return 2; }"),
    );
    functions.insert(used, "used".into());
    functions.insert(unused, "unused".into());
    let runs = [counts(&[(whole, 1), (used, 1), (unused, 0)])];
    let script = build(&functions, &runs, &source);
    let unrun: Vec<_> = shown(&script, text)
        .into_iter()
        .filter(|(_, _, runs)| runs.is_empty())
        .collect();
    assert_eq!(
        unrun,
        [(
            "unused".into(),
            "function unused() { return 2; }".into(),
            vec![]
        )]
    );
}
