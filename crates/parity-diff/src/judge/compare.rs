//! The verdict on one case: its result element against the golden's.
//!
//! Bytes first: equal bytes are *identical* and nothing is parsed. Other
//! elements are read with [`js_exact::parse()`] (so strings compare as
//! UTF-16 code units, lone surrogates included, and numbers as doubles)
//! and compared as values, objects as maps. Equal values are *same value,
//! different bytes*, with [`explain`](mod@crate::judge::explain) saying why; unequal
//! ones are *different*, with the JSON Pointer of every place they part.

use crate::judge::explain::{self, Explanation};
use crate::judge::numbers::{self, Numbers, Written};
use crate::judge::pointer::{Places, Step, ROOT};
use crate::judge::signature::{ErrorProtocol, DEFAULT_ERRORS};
use js_exact::{self as js, JsString, TextMode, Value};

/// How many differing paths a report keeps; the rest are counted.
pub const SHOWN_PATHS: usize = 10;

/// One place where the values part.
#[derive(Debug, Clone, PartialEq)]
pub struct PathDiff {
    /// Where, as a JSON Pointer into the element.
    pub pointer: JsString,
    /// The golden's value there; `None` when the golden has nothing there.
    pub golden: Option<Value>,
    /// The actual value there; `None` when the result has nothing there.
    pub actual: Option<Value>,
    /// The golden's value with its numbers as written, when that is not
    /// how `JSON.stringify` prints the value ([`numbers::spelled`]).
    pub golden_text: Option<String>,
    /// The actual value's, alike.
    pub actual_text: Option<String>,
}

/// Where two unequal values part.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Divergence {
    /// The first [`SHOWN_PATHS`] paths, in document order.
    pub paths: Vec<PathDiff>,
    /// How many paths in all (0 when the values could not be read).
    pub total: usize,
    /// Set when an element could not be read as a value at all (nested
    /// past the reader's limit), so only its bytes were compared.
    pub note: Option<String>,
}

/// The verdict on one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The bytes are equal.
    Identical,
    /// The values are equal, the bytes are not.
    SameValue(Explanation),
    /// The values differ.
    Different(Divergence),
    /// The golden has this case and the results do not.
    Missing,
    /// The results have this case and the golden does not.
    Extra,
}

impl Verdict {
    /// The verdict's name, as reports print it.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Identical => "identical",
            Verdict::SameValue(_) => "same value, different bytes",
            Verdict::Different(_) => "different",
            Verdict::Missing => "missing",
            Verdict::Extra => "extra",
        }
    }

    /// Whether the case passes: identical, or with `semantic` also the
    /// same value.
    pub fn passes(&self, semantic: bool) -> bool {
        match self {
            Verdict::Identical => true,
            Verdict::SameValue(_) => semantic,
            _ => false,
        }
    }
}

/// A verdict and, when the bytes differed, the values that were read (for
/// whoever reports it: secrets are looked for in them).
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The verdict.
    pub verdict: Verdict,
    /// The golden element's value, when it was read.
    pub golden: Option<Value>,
    /// The actual element's value, when it was read.
    pub actual: Option<Value>,
}

/// How a suite judges a result: whether *same value, different bytes*
/// passes (`--semantic`, a suite's `semantic`), how numbers compare (a
/// suite's `numbers`) and how a result says it threw (a suite's
/// `error-flag` and `error-message`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Judging<'e> {
    /// *Same value, different bytes* passes.
    pub semantic: bool,
    /// What makes two numbers equal.
    pub numbers: Numbers,
    /// How a result says it threw.
    pub errors: &'e ErrorProtocol,
}

impl Default for Judging<'static> {
    fn default() -> Self {
        Judging {
            semantic: false,
            numbers: Numbers::Double,
            errors: &DEFAULT_ERRORS,
        }
    }
}

/// Compares one result element with the golden's, numbers as doubles.
pub fn compare_elements(golden: &[u8], actual: &[u8]) -> Comparison {
    compare_elements_as(golden, actual, Numbers::Double)
}

/// Compares one result element with the golden's, numbers as `numbers`
/// says.
pub fn compare_elements_as(golden: &[u8], actual: &[u8], numbers: Numbers) -> Comparison {
    if golden == actual {
        return Comparison {
            verdict: Verdict::Identical,
            golden: None,
            actual: None,
        };
    }
    let (golden_value, actual_value) = match (
        js::parse(golden, TextMode::LossyUtf8),
        js::parse(actual, TextMode::LossyUtf8),
    ) {
        (Ok(g), Ok(a)) => (g, a),
        (g, a) => {
            let why = g.err().or(a.err()).map(|error| error.to_string());
            return Comparison {
                verdict: Verdict::Different(Divergence {
                    paths: Vec::new(),
                    total: 0,
                    note: Some(format!(
                        "compared as bytes only: an element could not be read ({})",
                        why.unwrap_or_default()
                    )),
                }),
                golden: None,
                actual: None,
            };
        }
    };
    let mut written = match numbers {
        Numbers::Double => None,
        Numbers::Exact => Written::parse(golden).zip(Written::parse(actual)),
    };
    let both = written.as_mut().map(|(g, a)| (g, a));
    let mut divergence = walk(&golden_value, &actual_value, both);
    spell_paths(&mut divergence, written, (golden, actual));
    let verdict = if divergence.total == 0 {
        Verdict::SameValue(explain::explain(golden, actual))
    } else {
        Verdict::Different(divergence)
    };
    Comparison {
        verdict,
        golden: Some(golden_value),
        actual: Some(actual_value),
    }
}

/// Whether two scalars are the same JavaScript value as JSON carries it:
/// numbers by their double value (`-0` equals `0`), strings by their code
/// units.
fn same_scalar(golden: &Value, actual: &Value) -> bool {
    match (golden, actual) {
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Null, Value::Null) | (Value::Undefined, Value::Undefined) => true,
        _ => false,
    }
}

/// Every place where two values part, in document order (the golden's
/// member order, then members only the result has). Arrays are compared
/// index by index; numbers as doubles.
pub fn value_paths(golden: &Value, actual: &Value) -> Divergence {
    walk(golden, actual, None)
}

/// Both elements' written shapes, when numbers compare as written.
type Both<'w, 'a> = (&'w mut Written<'a>, &'w mut Written<'a>);

/// [`value_paths`]; with `written`, numbers compare as the decimals
/// written there ([`Numbers::Exact`]).
fn walk(golden: &Value, actual: &Value, mut written: Option<Both<'_, '_>>) -> Divergence {
    let mut found = Divergence::default();
    let mut places = Places::new();
    let roots = written.as_ref().map(|(g, a)| (g.root(), a.root()));
    // Work is a stack of pairs still to compare and of differences found
    // inside a container but reported in their turn, so that the paths
    // come out in document order.
    let mut stack = vec![Work::Pair(ROOT, golden, actual, roots)];
    let mut children = Vec::new();
    while let Some(work) = stack.pop() {
        let (at, g, a, nodes) = match work {
            Work::Pair(at, g, a, nodes) => (at, g, a, nodes),
            Work::Differs(at, g, a) => {
                if found.paths.len() < SHOWN_PATHS {
                    found.paths.push(PathDiff {
                        pointer: places.pointer(at),
                        golden: g.cloned(),
                        actual: a.cloned(),
                        golden_text: None,
                        actual_text: None,
                    });
                }
                found.total += 1;
                continue;
            }
        };
        // The written nodes of a child, when this pair has its own.
        let mut child = |step: &dyn Fn(&mut Written, usize) -> Option<usize>| {
            let (gw, aw) = written.as_mut()?;
            let (gn, an) = nodes?;
            step(gw, gn).zip(step(aw, an))
        };
        match (g, a) {
            (Value::Object(go), Value::Object(ao)) => {
                for (key, gv) in go.iter() {
                    let here = places.push(at, Step::Key(key));
                    children.push(match ao.get_js(key) {
                        Some(av) => {
                            let nodes = child(&|w, n| w.member(n, key));
                            Work::Pair(here, gv, av, nodes)
                        }
                        None => Work::Differs(here, Some(gv), None),
                    });
                }
                for (key, av) in ao.iter() {
                    if go.get_js(key).is_none() {
                        let here = places.push(at, Step::Key(key));
                        children.push(Work::Differs(here, None, Some(av)));
                    }
                }
            }
            (Value::Array(ga), Value::Array(aa)) => {
                for index in 0..ga.len().max(aa.len()) {
                    let here = places.push(at, Step::Index(index));
                    children.push(match (ga.get(index), aa.get(index)) {
                        (Some(gv), Some(av)) => {
                            let nodes = child(&|w, n| w.item(n, index));
                            Work::Pair(here, gv, av, nodes)
                        }
                        (gv, av) => Work::Differs(here, gv, av),
                    });
                }
            }
            (Value::Number(_), Value::Number(_)) if written.is_some() => {
                let tokens = written
                    .as_ref()
                    .zip(nodes)
                    .and_then(|((gw, aw), (gn, an))| gw.number(gn).zip(aw.number(an)));
                let same = match tokens {
                    Some((gt, at)) => numbers::same_decimal(gt, at),
                    None => same_scalar(g, a),
                };
                if !same {
                    children.push(Work::Differs(at, Some(g), Some(a)));
                }
            }
            _ if same_scalar(g, a) => {}
            _ => children.push(Work::Differs(at, Some(g), Some(a))),
        }
        stack.extend(children.drain(..).rev());
    }
    found
}

/// Fills the shown paths' texts with their numbers as written: only
/// paths whose values hold a number cost a look at the elements' bytes.
fn spell_paths<'a>(
    divergence: &mut Divergence,
    written: Option<(Written<'a>, Written<'a>)>,
    elements: (&'a [u8], &'a [u8]),
) {
    let needs = |value: &Option<Value>| value.as_ref().is_some_and(numbers::has_number);
    if !divergence
        .paths
        .iter()
        .any(|path| needs(&path.golden) || needs(&path.actual))
    {
        return;
    }
    let (mut gw, mut aw) = match written {
        Some((g, a)) => (Some(g), Some(a)),
        None => (Written::parse(elements.0), Written::parse(elements.1)),
    };
    for path in &mut divergence.paths {
        for (value, text, written) in [
            (&path.golden, &mut path.golden_text, &mut gw),
            (&path.actual, &mut path.actual_text, &mut aw),
        ] {
            let (Some(value), Some(written)) = (value, written.as_mut()) else {
                continue;
            };
            if let Some(node) = written.at_pointer(&path.pointer) {
                *text = numbers::spelled(value, written, node);
            }
        }
    }
}

enum Work<'v> {
    Pair(usize, &'v Value, &'v Value, Option<(usize, usize)>),
    Differs(usize, Option<&'v Value>, Option<&'v Value>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::pointer;

    fn verdict(golden: &str, actual: &str) -> Verdict {
        compare_elements(golden.as_bytes(), actual.as_bytes()).verdict
    }

    fn paths(golden: &str, actual: &str) -> Vec<(String, Option<String>, Option<String>)> {
        let Verdict::Different(divergence) = verdict(golden, actual) else {
            panic!("expected different");
        };
        let show = |v: &Option<Value>| {
            v.as_ref()
                .map(|v| String::from_utf8(js::to_json(v)).unwrap())
        };
        divergence
            .paths
            .iter()
            .map(|p| {
                (
                    pointer::display(&p.pointer),
                    show(&p.golden),
                    show(&p.actual),
                )
            })
            .collect()
    }

    #[test]
    fn identical_bytes_are_identical() {
        assert_eq!(
            verdict(r#"{"a":[1,"x"]}"#, r#"{"a":[1,"x"]}"#),
            Verdict::Identical
        );
        assert!(Verdict::Identical.passes(false));
    }

    #[test]
    fn same_value_in_other_bytes() {
        for (golden, actual) in [
            (r#"{"a":1,"b":2}"#, r#"{"b":2,"a":1}"#),
            ("[1]", "[1.0]"),
            ("[1000]", "[1e3]"),
            ("0", "-0"),
            (r#""é""#, r#""\u00e9""#),
            (r#""\ud800""#, r#""\uD800""#),
            (r#""😀""#, r#""\ud83d\ude00""#),
            (r#"{"a":2}"#, r#"{"a":1,"a":2}"#),
            ("[1,2]", "[ 1, 2 ]"),
            ("1e400", "2e400"),
        ] {
            let found = verdict(golden, actual);
            assert!(
                matches!(found, Verdict::SameValue(_)),
                "{golden} {actual}: {found:?}"
            );
            assert!(!found.passes(false) && found.passes(true));
        }
    }

    #[test]
    fn lone_surrogates_are_not_replacement_characters() {
        // Read as lossy UTF-8 text both would be U+FFFD; as code units they differ.
        assert_eq!(
            paths(r#""\ud800""#, r#""\udc00""#),
            [(
                "(root)".into(),
                Some(r#""\ud800""#.into()),
                Some(r#""\udc00""#.into())
            )]
        );
        assert_eq!(
            paths(r#""\ud800""#, "\"\u{FFFD}\""),
            [(
                "(root)".into(),
                Some(r#""\ud800""#.into()),
                Some("\"\u{FFFD}\"".into())
            )]
        );
    }

    #[test]
    fn differing_paths_in_document_order() {
        assert_eq!(
            paths(
                r#"{"threw":true,"message":"a","x/y":[1,2,3]}"#,
                r#"{"threw":false,"message":"a","x/y":[1,5],"extra":null}"#
            ),
            [
                ("/threw".into(), Some("true".into()), Some("false".into())),
                ("/x~1y/1".into(), Some("2".into()), Some("5".into())),
                ("/x~1y/2".into(), Some("3".into()), None),
                ("/extra".into(), None, Some("null".into())),
            ]
        );
        assert_eq!(
            paths("[1]", r#"{"0":1}"#),
            [(
                "(root)".into(),
                Some("[1]".into()),
                Some(r#"{"0":1}"#.into())
            )]
        );
        assert_eq!(paths("1", r#""1""#)[0].0, "(root)");
        assert_eq!(paths("null", "false")[0].0, "(root)");
    }

    #[test]
    fn paths_are_counted_past_the_shown_ones() {
        let golden = format!("[{}]", vec!["1"; 30].join(","));
        let actual = format!("[{}]", vec!["2"; 30].join(","));
        let Verdict::Different(divergence) = verdict(&golden, &actual) else {
            panic!("expected different");
        };
        assert_eq!(divergence.paths.len(), SHOWN_PATHS);
        assert_eq!(divergence.total, 30);
    }

    #[test]
    fn unreadable_elements_are_compared_as_bytes() {
        let deep = |inner: &str| {
            let levels = js::parse::DEFAULT_MAX_DEPTH + 1;
            format!("{}{inner}{}", "[".repeat(levels), "]".repeat(levels))
        };
        let found = std::thread::Builder::new()
            .stack_size(64 * 1024 * 1024)
            .spawn(move || verdict(&deep("1"), &deep("2")))
            .unwrap()
            .join()
            .unwrap();
        let Verdict::Different(divergence) = found else {
            panic!("expected different");
        };
        assert!(divergence.note.unwrap().contains("nesting deeper than"));
    }

    #[test]
    fn exact_numbers_compare_as_written_decimals() {
        let exact =
            |g: &str, a: &str| compare_elements_as(g.as_bytes(), a.as_bytes(), Numbers::Exact);
        for (golden, actual) in [
            ("[1]", "[1.0]"),
            ("[1000]", "[1e3]"),
            (r#"{"a":1,"b":2}"#, r#"{"b":2.00,"a":1}"#),
            (r#"{"a":5,"a":2}"#, r#"{"a":2.0}"#),
        ] {
            let found = exact(golden, actual).verdict;
            assert!(
                matches!(found, Verdict::SameValue(_)),
                "{golden} {actual}: {found:?}"
            );
        }
        for (golden, actual, at) in [
            ("0", "-0", "(root)"),
            (
                "[100000000000000000000001]",
                "[100000000000000010000000]",
                "/0",
            ),
            (r#"{"x":{"y":1e400}}"#, r#"{"x":{"y":2e400}}"#, "/x/y"),
            (
                r#"{"\u0061":[0,0.1]}"#,
                r#"{"a":[0,0.10000000000000001]}"#,
                "/a/1",
            ),
        ] {
            let Verdict::Different(found) = exact(golden, actual).verdict else {
                panic!("{golden} {actual}: expected different");
            };
            assert_eq!(found.total, 1);
            assert_eq!(pointer::display(&found.paths[0].pointer), at);
            // Double mode calls them the same value.
            assert!(matches!(verdict(golden, actual), Verdict::SameValue(_)));
        }
    }

    #[test]
    fn differing_paths_keep_their_numbers_as_written() {
        let Verdict::Different(found) = verdict(
            r#"{"a":[1e1000,-0],"b":1}"#,
            r#"{"a":[100000000000000000000001,"x"],"b":1}"#,
        ) else {
            panic!("expected different");
        };
        let texts: Vec<_> = found
            .paths
            .iter()
            .map(|p| (p.golden_text.as_deref(), p.actual_text.as_deref()))
            .collect();
        assert_eq!(
            texts,
            [
                (Some("1e1000"), Some("100000000000000000000001")),
                (Some("-0"), None)
            ]
        );
        // JSON.stringify's own spelling keeps no second text.
        let Verdict::Different(found) = verdict("[1.5]", "[2]") else {
            panic!("expected different");
        };
        assert_eq!(found.paths[0].golden_text, None);
        assert_eq!(found.paths[0].actual_text, None);
    }
}
