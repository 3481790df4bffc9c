//! The verdict on one case: its result element against the golden's.
//!
//! Bytes first: equal bytes are *identical* and nothing is parsed. Other
//! elements are read with [`js_exact::parse()`] (so strings compare as
//! UTF-16 code units, lone surrogates included, and numbers as doubles)
//! and compared as values, objects as maps. Equal values are *same value,
//! different bytes*, with [`explain`](mod@crate::judge::explain) saying why; unequal
//! ones are *different*, with the JSON Pointer of every place they part.

use crate::judge::explain::{self, Explanation};
use crate::judge::pointer::{Places, Step, ROOT};
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

/// Compares one result element with the golden's.
pub fn compare_elements(golden: &[u8], actual: &[u8]) -> Comparison {
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
    let divergence = value_paths(&golden_value, &actual_value);
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
/// index by index.
pub fn value_paths(golden: &Value, actual: &Value) -> Divergence {
    let mut found = Divergence::default();
    let mut places = Places::new();
    // Work is a stack of pairs still to compare and of differences found
    // inside a container but reported in their turn, so that the paths
    // come out in document order.
    let mut stack = vec![Work::Pair(ROOT, golden, actual)];
    let mut children = Vec::new();
    while let Some(work) = stack.pop() {
        let (at, g, a) = match work {
            Work::Pair(at, g, a) => (at, g, a),
            Work::Differs(at, g, a) => {
                if found.paths.len() < SHOWN_PATHS {
                    found.paths.push(PathDiff {
                        pointer: places.pointer(at),
                        golden: g.cloned(),
                        actual: a.cloned(),
                    });
                }
                found.total += 1;
                continue;
            }
        };
        match (g, a) {
            (Value::Object(go), Value::Object(ao)) => {
                for (key, gv) in go.iter() {
                    let here = places.push(at, Step::Key(key));
                    children.push(match ao.get_js(key) {
                        Some(av) => Work::Pair(here, gv, av),
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
                        (Some(gv), Some(av)) => Work::Pair(here, gv, av),
                        (gv, av) => Work::Differs(here, gv, av),
                    });
                }
            }
            _ if same_scalar(g, a) => {}
            _ => children.push(Work::Differs(at, Some(g), Some(a))),
        }
        stack.extend(children.drain(..).rev());
    }
    found
}

enum Work<'v> {
    Pair(usize, &'v Value, &'v Value),
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
}
