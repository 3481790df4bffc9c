//! A corpus case whose name promises a number spelling holds it, written
//! as a JSON number token (not inside a string), in the case file's raw
//! bytes: a case named "op is 1e21" must hold the token `1e21`, one named
//! for Infinity a token that overflows to it (`1e400`), one named for
//! 2^53+1 the token `9007199254740993`.
//!
//! A JSON value serialized by a library loses these spellings (`1e21`
//! becomes `1e+21`, `-0` becomes `0`, `1e400` becomes an error or `null`),
//! which is how the corpus once came to hold placeholder strings instead.
//! JSON text that an op parses out of a string (`remoteConfig`'s `json`,
//! `--runtime-defaults`) counts: its tokens are read too. So do the strings
//! of the ops that read numbers from strings (environment variables, argv):
//! there a string that is a number is the spelling.

use crate::support;

use js_exact::{self as js, TextMode};
use parity_diff::judge::golden::split_elements;
use support::{json_files, repo_root};

/// What a case's name promises its bytes hold.
#[derive(Debug, Clone, PartialEq)]
enum Promise {
    /// This exact number token.
    Token(String),
    /// A number token that reads as Infinity (`negative`: −Infinity).
    Infinite { negative: bool },
}

/// A literal in a name is a promised spelling when JSON's reader and
/// printer would change it: a fraction or an exponent, negative zero, or
/// more digits than a double keeps.
fn is_spelling(literal: &str) -> bool {
    let digits = literal.bytes().filter(u8::is_ascii_digit).count();
    literal.contains(['.', 'e', 'E'])
        || literal.trim_start_matches('-').bytes().all(|b| b == b'0') && literal.starts_with('-')
        || digits >= 16
}

/// The JSON number at the start of `text`, if one starts there.
fn number_at(text: &[u8]) -> Option<usize> {
    let mut at = usize::from(text.first() == Some(&b'-'));
    let int_digits = text[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    if int_digits == 0 || (text[at] == b'0' && int_digits > 1) {
        return None;
    }
    at += int_digits;
    if text.get(at) == Some(&b'.') {
        let fraction = text[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if fraction > 0 {
            at += 1 + fraction;
        }
    }
    if matches!(text.get(at), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(text.get(at + 1), Some(b'+' | b'-')));
        let exponent = text[at + 1 + sign..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if exponent > 0 {
            at += 1 + sign + exponent;
        }
    }
    Some(at)
}

/// The number spellings and Infinity that a case name promises.
fn promises(name: &str) -> Vec<Promise> {
    let bytes = name.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        // A literal stands alone: not the tail of a word, a version, an
        // exponent (`2^53`) or a sum (`U+0085`, `53+1`).
        let free = at == 0
            || !(bytes[at - 1].is_ascii_alphanumeric() || b".^+-_".contains(&bytes[at - 1]));
        match number_at(&bytes[at..]).filter(|_| free) {
            Some(length) if length > 0 => {
                let end = at + length;
                let ends_clean =
                    !matches!(bytes.get(end), Some(b) if b.is_ascii_alphanumeric() || *b == b'.');
                let literal = &name[at..end];
                if ends_clean && is_spelling(literal) {
                    found.push(Promise::Token(literal.to_string()));
                }
                at = end;
            }
            _ => at += 1,
        }
    }
    if name.contains("2^53+1") {
        found.push(Promise::Token("9007199254740993".into()));
    }
    for (at, _) in name.match_indices("Infinity") {
        found.push(Promise::Infinite {
            negative: name[..at].ends_with('-'),
        });
    }
    found
}

/// Decodes the JSON string that starts at `text[0]` (a `"`), returning
/// its text (lone surrogates as U+FFFD) and the length of its token.
fn string_at(text: &[u8]) -> (String, usize) {
    let mut units = Vec::new();
    let mut at = 1;
    while at < text.len() && text[at] != b'"' {
        if text[at] == b'\\' {
            let escaped = text.get(at + 1).copied().unwrap_or(b'\\');
            match escaped {
                b'u' => {
                    let hex =
                        std::str::from_utf8(&text[at + 2..(at + 6).min(text.len())]).unwrap_or("");
                    units.push(u16::from_str_radix(hex, 16).unwrap_or(0xFFFD));
                    at += 6;
                    continue;
                }
                b'b' => units.push(8),
                b'f' => units.push(12),
                b'n' => units.push(10),
                b'r' => units.push(13),
                b't' => units.push(9),
                other => units.push(u16::from(other)),
            }
            at += 2;
        } else {
            let width = match text[at] {
                0xF0.. => 4,
                0xE0.. => 3,
                0xC0.. => 2,
                _ => 1,
            };
            let end = (at + width).min(text.len());
            units.extend(String::from_utf8_lossy(&text[at..end]).encode_utf16());
            at = end;
        }
    }
    (String::from_utf16_lossy(&units), at + 1)
}

/// The ops whose string inputs are number text they read (environment
/// variables, argv): for them a string that is a number is a spelling.
const READ_NUMBERS_FROM_STRINGS: &[&str] = &["remoteConfigEnv", "parseWorkerArgs"];

/// Every number token in JSON text, outside strings, and in JSON text
/// held by a string (one that starts with `{` or `[`), at any depth; with
/// `strings_are_numbers`, also each string that is a number as a whole.
fn number_tokens(text: &[u8], strings_are_numbers: bool) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < text.len() {
        match text[at] {
            b'"' => {
                let (inner, length) = string_at(&text[at..]);
                if inner.trim_start().starts_with(['{', '[']) {
                    tokens.extend(number_tokens(inner.as_bytes(), strings_are_numbers));
                } else if strings_are_numbers
                    && number_at(inner.as_bytes()).is_some_and(|length| length == inner.len())
                {
                    tokens.push(inner);
                }
                at += length;
            }
            b'-' | b'0'..=b'9' => {
                let length = number_at(&text[at..]).unwrap_or(1).max(1);
                tokens.push(String::from_utf8_lossy(&text[at..at + length]).into_owned());
                at += length;
            }
            _ => at += 1,
        }
    }
    tokens
}

fn kept(promise: &Promise, tokens: &[String]) -> bool {
    match promise {
        Promise::Token(spelling) => tokens.iter().any(|token| token == spelling),
        Promise::Infinite { negative } => tokens.iter().any(|token| {
            token
                .parse::<f64>()
                .is_ok_and(|n| n.is_infinite() && n.is_sign_negative() == *negative)
        }),
    }
}

#[test]
fn every_promised_number_spelling_is_a_number_token_in_its_case() {
    let cases_dir = repo_root().join("cases");
    let mut broken = Vec::new();
    let mut promising = Vec::new();
    for file in json_files(&cases_dir) {
        let bytes = std::fs::read(cases_dir.join(&file)).expect("the case file reads");
        let elements = split_elements(&bytes).expect("the case file is a JSON array");
        for (index, raw) in elements.into_iter().enumerate() {
            let Ok(case) = js::parse(raw, TextMode::LossyUtf8) else {
                continue;
            };
            let Some(name) = case
                .as_object()
                .and_then(|case| case.get("name"))
                .and_then(|name| name.as_js_string())
                .map(|name| name.to_utf8_lossy().into_owned())
            else {
                continue;
            };
            let promised = promises(&name);
            if promised.is_empty() {
                continue;
            }
            let op = case.as_object().and_then(|case| case.get("op"));
            let strings_are_numbers = op.and_then(|op| op.as_js_string()).is_some_and(|op| {
                READ_NUMBERS_FROM_STRINGS
                    .iter()
                    .any(|known| op.eq_str(known))
            });
            let tokens = number_tokens(raw, strings_are_numbers);
            for promise in &promised {
                if !kept(promise, &tokens) {
                    broken.push(format!(
                        "{} #{index} {name:?} promises {promise:?}; its number tokens are {tokens:?}",
                        file.display()
                    ));
                }
            }
            promising.push(name);
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    // The promises checked include the ones that were once placeholders.
    for name in [
        "op is 1e21",
        "op is -Infinity, written -1e400",
        "JSON: 2^53+1 rounds to even",
        "readyTimeoutMs: Infinity, written 1e400",
        "readyTimeoutMs: -0",
        "readyMessage: version written 1.0",
        "exitBeforeReadyMessage: code 1e21",
        "cliArgs: allowedForwardPorts 1e400",
    ] {
        assert!(
            promising.iter().any(|promising| promising == name),
            "no case named {name:?} was checked"
        );
    }
    assert!(
        promising.len() >= 60,
        "only {} cases promise a spelling",
        promising.len()
    );
}

#[test]
fn names_promise_spellings_and_not_plain_numbers() {
    use Promise::{Infinite, Token};
    let tok = |text: &str| Token(text.to_string());
    assert_eq!(promises("op is 1e21"), [tok("1e21")]);
    assert_eq!(promises("pid -0"), [tok("-0")]);
    assert_eq!(
        promises("version written 1.0, 1E+2 and 2.5e-7"),
        [tok("1.0"), tok("1E+2"), tok("2.5e-7")]
    );
    assert_eq!(promises("[80.5]"), [tok("80.5")]);
    assert_eq!(
        promises("huge: 12345678901234567890"),
        [tok("12345678901234567890")]
    );
    assert_eq!(promises("2^53+1 rounds to even"), [tok("9007199254740993")]);
    assert_eq!(promises("pid Infinity"), [Infinite { negative: false }]);
    assert_eq!(
        promises("-Infinity, written -1e400"),
        [tok("-1e400"), Infinite { negative: true }]
    );
    // Plain integers, versions, code points and exponents of powers are
    // not spellings.
    assert_eq!(promises("pid 0, port 65536, -1 and 42"), []);
    assert_eq!(promises("v1.5 U+0085 2^53 x1e3 1.5x a-0"), []);
}

#[test]
fn number_tokens_are_read_outside_strings_and_inside_json_text() {
    let raw = br#"{"name": "1e21 -0", "a": [1e21, -0, 1.0E+2], "json": "{\"x\": 1000.0, \"s\": \"5e-324\"}", "t": "[-1e400]", "u": "1.5"}"#;
    assert_eq!(
        number_tokens(raw, false),
        ["1e21", "-0", "1.0E+2", "1000.0", "-1e400"]
    );
    let other = r#"["\"[\\\"", 7, "\ud800", "😀 -1", 8]"#;
    assert_eq!(number_tokens(other.as_bytes(), false), ["7", "8"]);
    let env = br#"{"A": "1e400", "B": "80.0 ", "C": "[1.0]", "D": "x1"}"#;
    assert_eq!(number_tokens(env, true), ["1e400", "1.0"]);
    assert_eq!(number_tokens(env, false), ["1.0"]);
}

#[test]
fn a_promise_is_kept_only_by_its_token() {
    let tokens = number_tokens(
        br#"{"a": "1e21", "b": 1e+21, "c": -1e400, "d": "-0"}"#,
        false,
    );
    assert!(!kept(&Promise::Token("1e21".into()), &tokens));
    assert!(!kept(&Promise::Token("-0".into()), &tokens));
    assert!(kept(&Promise::Token("1e+21".into()), &tokens));
    assert!(kept(&Promise::Infinite { negative: true }, &tokens));
    assert!(!kept(&Promise::Infinite { negative: false }, &tokens));
}
