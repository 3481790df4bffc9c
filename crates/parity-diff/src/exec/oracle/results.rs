//! An oracle's stdout read as its results: the one reader every command
//! uses on what an oracle printed.
//!
//! Most outputs are one JSON array, read strictly (see
//! [`Mode::Strict`]). When one is not, but its elements can still be
//! told apart (tracking strings and bracket depth, the top-level commas
//! split it: [`Mode::Lenient`]), each element that is not JSON
//! (`Infinity`, `NaN`, `undefined`, a stray token) is a failure of its
//! own case, and every other element is that case's result: the output
//! already says which cases are to blame, so nothing is run again.
//! Only an output whose elements cannot be delimited fails as a whole.

use std::ops::Range;

use serde_json::value::RawValue;

use super::failure::{FailureKind, OracleFailure};
use crate::judge::scan::{self, Mode, ReadError};

/// One element of an output: where it stands, or why it is not a result.
pub type Element = Result<Range<usize>, OracleFailure>;

/// Tokens of JavaScript that are not JSON, named in a failure's message
/// as they are (they are ours to print, not the port's).
const JS_TOKENS: [&str; 4] = ["Infinity", "-Infinity", "NaN", "undefined"];

/// The elements of an oracle's stdout: each one's span, or (when the
/// array is not JSON as a whole but can be delimited) the failure of an
/// element that is not JSON. Fails as a whole when the output is not an
/// array whose elements can be told apart.
pub fn read_results(output: &[u8]) -> Result<Vec<Element>, OracleFailure> {
    let strict = match scan::spans(output, Mode::Strict { validate: true }) {
        Ok(spans) => return Ok(spans.into_iter().map(Ok).collect()),
        Err(error) => error,
    };
    let whole = || not_an_array(output, &strict);
    let Ok(spans) = scan::spans(output, Mode::Lenient) else {
        return Err(whole());
    };
    let elements: Vec<Element> = spans
        .into_iter()
        .map(|span| match element_failure(&output[span.clone()]) {
            Some(failure) => Err(failure),
            None => Ok(span),
        })
        .collect();
    // Every element is JSON, yet the whole is not (nothing known does
    // this): the whole's failure stands.
    if elements.iter().all(Result::is_ok) {
        return Err(whole());
    }
    Ok(elements)
}

/// Why a whole output is not a result array, as every report says it.
pub fn not_an_array(output: &[u8], error: &ReadError) -> OracleFailure {
    let first = output.iter().find(|byte| !byte.is_ascii_whitespace());
    not_an_array_from(first.copied(), &error.to_string())
}

/// [`not_an_array`] from the output's first byte that is not white space.
pub fn not_an_array_from(first: Option<u8>, error: &str) -> OracleFailure {
    OracleFailure::new(
        FailureKind::InvalidOutput,
        match first {
            None => "the oracle printed nothing on stdout".to_owned(),
            Some(b'[') => format!("the oracle printed an incomplete or malformed array: {error}"),
            Some(_) => format!("the oracle printed no JSON array: {error}"),
        },
    )
}

/// How many characters of a stdout that is no result array a report
/// quotes.
pub const STDOUT_HEAD: usize = 200;

/// How many bytes of stdout hold [`STDOUT_HEAD`] characters at the most
/// (four to a character in UTF-8): what is read of a spooled one.
pub const STDOUT_HEAD_BYTES: usize = 4 * STDOUT_HEAD;

/// A whole output's failure (it is no array whose elements can be told
/// apart), with the start of what the oracle printed (`head`, of `len`
/// bytes in all), escaped as a JSON string is: a debug line before the
/// array shows as itself. An output of white space alone says so
/// already.
pub fn with_stdout_head(failure: OracleFailure, head: &[u8], len: u64) -> OracleFailure {
    if head.iter().all(u8::is_ascii_whitespace) {
        return failure;
    }
    let head = &head[..head.len().min(STDOUT_HEAD_BYTES)];
    let stdout = format!(
        "({len} byte{}) begins {}",
        if len == 1 { "" } else { "s" },
        crate::judge::framing::quoted_at_most(head, STDOUT_HEAD)
    );
    OracleFailure {
        stdout: Some(stdout),
        ..failure
    }
}

/// The failure of a batch whose output holds `invalid` elements that
/// are not JSON among `total`: each of those is its own case's failure.
pub fn invalid_elements(invalid: usize, total: usize) -> OracleFailure {
    OracleFailure::new(
        FailureKind::InvalidOutput,
        format!(
            "{invalid} of the oracle's {total} result{} {} not JSON",
            if total == 1 { "" } else { "s" },
            if invalid == 1 { "is" } else { "are" },
        ),
    )
}

/// Why one element (delimited by [`Mode::Lenient`], without the white
/// space around it) is not a result, or `None` when it is one: UTF-8,
/// and one JSON value.
/// The message never quotes the element (a port's output may hold a
/// secret), only the JavaScript tokens `Infinity`, `-Infinity`, `NaN`
/// and `undefined`.
pub fn element_failure(bytes: &[u8]) -> Option<OracleFailure> {
    let message = match std::str::from_utf8(bytes) {
        Err(_) => "the oracle printed a result that is not UTF-8".to_owned(),
        Ok(text) => match serde_json::from_str::<&RawValue>(text) {
            Ok(_) => return None,
            Err(_) if JS_TOKENS.contains(&text) => {
                format!("the oracle printed `{text}`, which is not JSON")
            }
            Err(error) => format!("the oracle printed a result that is not JSON: {error}"),
        },
    };
    Some(OracleFailure::new(FailureKind::InvalidOutput, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// JSON values whose strings hold the bytes that delimit elements.
    fn json_value() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,2})?",
            "\"([a-z,\\[\\]{}: ]|\\\\\"|\\\\\\\\)*\"",
            Just("null".to_owned()),
            Just("true".to_owned()),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                prop::collection::vec(inner, 0..4).prop_map(|items| {
                    let members: Vec<String> =
                        items.iter().map(|item| format!("\"k\": {item}")).collect();
                    format!("{{{}}}", members.join(", "))
                }),
            ]
        })
    }

    /// Elements that can be delimited but are not JSON.
    fn not_json() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("Infinity".to_owned()),
            Just("-Infinity".to_owned()),
            Just("NaN".to_owned()),
            Just("undefined".to_owned()),
            json_value().prop_map(|value| format!("[{value}, NaN]")),
            json_value().prop_map(|value| format!("{value} 1")),
        ]
    }

    proptest! {
        /// One entry per element, in order: each JSON one its own bytes,
        /// each other one a failure of its own.
        #[test]
        fn every_element_is_judged_where_it_stands(
            elements in prop::collection::vec(
                prop_oneof![
                    3 => json_value().prop_map(|text| (text, true)),
                    1 => not_json().prop_map(|text| (text, false)),
                ],
                0..8,
            ),
            space in "[ \n\t]{0,2}",
        ) {
            let texts: Vec<&str> = elements.iter().map(|(text, _)| text.as_str()).collect();
            let output = format!("[{space}{}{space}]", texts.join(&format!("{space},{space}")));
            let read = read_results(output.as_bytes());
            if elements.iter().all(|(_, json)| *json) {
                let spans = read.expect("a JSON array");
                let got: Vec<&str> = spans.into_iter().map(|span| &output[span.unwrap()]).collect();
                prop_assert_eq!(got, texts);
            } else {
                let read = read.expect("delimited");
                prop_assert_eq!(read.len(), elements.len());
                for (element, (text, json)) in read.into_iter().zip(&elements) {
                    match element {
                        Ok(span) => {
                            prop_assert!(json);
                            prop_assert_eq!(&output[span], text.as_str());
                        }
                        Err(failure) => {
                            prop_assert!(!json);
                            prop_assert_eq!(failure.kind, FailureKind::InvalidOutput);
                        }
                    }
                }
            }
        }
    }

    fn read(output: &str) -> Result<Vec<Result<&str, String>>, String> {
        read_results(output.as_bytes())
            .map(|elements| {
                elements
                    .into_iter()
                    .map(|element| {
                        element
                            .map(|span| &output[span])
                            .map_err(|failure| failure.message)
                    })
                    .collect()
            })
            .map_err(|failure| failure.message)
    }

    #[test]
    fn a_json_array_is_its_elements() {
        assert_eq!(
            read(" [1, {\"a\": [2]}]\n"),
            Ok(vec![Ok("1"), Ok("{\"a\": [2]}")])
        );
        assert_eq!(read("[]"), Ok(vec![]));
    }

    #[test]
    fn elements_that_are_not_json_fail_alone() {
        let infinity = Err("the oracle printed `Infinity`, which is not JSON".to_owned());
        assert_eq!(
            read("[1, Infinity ,\"a,]\"]"),
            Ok(vec![Ok("1"), infinity.clone(), Ok("\"a,]\"")])
        );
        assert_eq!(
            read("[NaN,undefined,[1,{\"b\":-Infinity}]]"),
            Ok(vec![
                Err("the oracle printed `NaN`, which is not JSON".to_owned()),
                Err("the oracle printed `undefined`, which is not JSON".to_owned()),
                Err("the oracle printed a result that is not JSON: invalid number at line 1 column 10".to_owned()),
            ])
        );
        // A stray token stays inside the element it is found in.
        assert_eq!(
            read("[1 2,3]"),
            Ok(vec![
                Err("the oracle printed a result that is not JSON: trailing characters at line 1 column 3".to_owned()),
                Ok("3"),
            ])
        );
        assert_eq!(
            read("[\"\u{e9}\",\"\\ud800\"]"),
            Ok(vec![Ok("\"\u{e9}\""), Ok("\"\\ud800\"")])
        );
        let bytes = read_results(b"[\"\xff\",1]").unwrap();
        assert_eq!(
            bytes[0].as_ref().unwrap_err().message,
            "the oracle printed a result that is not UTF-8"
        );
        assert_eq!(bytes[1], Ok(5..6));
    }

    #[test]
    fn an_output_whose_elements_cannot_be_told_apart_fails_whole() {
        assert_eq!(read(""), Err("the oracle printed nothing on stdout".into()));
        for cut in [
            "[1,",
            "[1,Infinity",
            "[\"a]",
            "[1,]",
            "[,1]",
            "[1] x",
            "[[1]",
        ] {
            let message = read(cut).unwrap_err();
            assert!(
                message.starts_with("the oracle printed an incomplete or malformed array: "),
                "{cut}: {message}"
            );
        }
        assert_eq!(
            read("{}"),
            Err("the oracle printed no JSON array: not a JSON array".into())
        );
        assert_eq!(
            read("Infinity"),
            Err("the oracle printed no JSON array: not a JSON array".into())
        );
    }

    #[test]
    fn a_whole_failure_quotes_the_start_of_stdout() {
        let head = |output: &[u8]| {
            let failure = read_results(output).unwrap_err();
            with_stdout_head(failure, output, output.len() as u64).stdout
        };
        assert_eq!(
            head(b"debug: starting\n[1]").as_deref(),
            Some("(19 bytes) begins \"debug: starting\\n[1]\"")
        );
        let long = format!("\x1b]0;x\x07{}", "y".repeat(300));
        let quoted = format!(
            "(306 bytes) begins \"\\u001b]0;x\\u0007{}\"…",
            "y".repeat(194)
        );
        assert_eq!(head(long.as_bytes()), Some(quoted));
        assert_eq!(head(b" \n"), None);
    }

    #[test]
    fn a_batch_failure_counts_its_invalid_elements() {
        assert_eq!(
            invalid_elements(1, 1).message,
            "1 of the oracle's 1 result is not JSON"
        );
        assert_eq!(
            invalid_elements(92, 1000).message,
            "92 of the oracle's 1000 results are not JSON"
        );
        assert_eq!(invalid_elements(2, 3).kind, FailureKind::InvalidOutput);
    }
}
