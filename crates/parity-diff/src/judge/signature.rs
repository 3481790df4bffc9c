//! What kind of failure a case is, so that a report can print a hundred
//! alike failures once: the op, the kind of divergence, the first
//! differing path's shape (array indices as `*`) and the shape of both
//! sides there. Two kinds stand out: the port threw where the golden has
//! a value (the port's message is part of the signature: every "not
//! implemented" of one op is one group), and the reverse.

use std::borrow::Cow;

use crate::base::outside;
use crate::judge::pointer;
use js_exact::{JsString, Value};

/// How many characters of a thrown message a signature keeps.
pub const MESSAGE_CHARS: usize = 80;

/// A failure's kind, and its text for people: `round: different
/// at /value (golden number, port number)`. Two failures are alike when
/// their texts are equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The op, when the case has one.
    pub op: Option<String>,
    /// `different`, `threw`, `returned`, `same-value`, `missing`,
    /// `extra`, `crash`, `invalid-output`, `timeout` or `stale`.
    pub kind: String,
    /// The op and the description, one line.
    pub text: String,
}

impl Signature {
    /// A signature of `kind` for `op`, described by `description`.
    pub fn new(op: Option<&str>, kind: &str, description: &str) -> Self {
        Signature {
            op: op.map(str::to_owned),
            kind: kind.to_owned(),
            text: format!("{}: {description}", op_display(op)),
        }
    }
}

/// An op as reports print it: bare when it reads plainly, as a JSON
/// string ([`outside::json_string`]) when it is empty or holds spaces,
/// quotes, backslashes, parentheses or characters no output prints raw
/// (controls, bidi controls, separators), and `(no op)` when the case
/// has none. Still outside text: a renderer writes it through
/// [`outside`] like any other.
pub fn op_display(op: Option<&str>) -> String {
    match op {
        None => "(no op)".to_owned(),
        Some(op)
            if !op.is_empty()
                && op.chars().all(|c| {
                    !c.is_whitespace()
                        && !c.is_control()
                        && !outside::is_forbidden(c)
                        && !"\"\\()".contains(c)
                }) =>
        {
            op.to_owned()
        }
        Some(op) => outside::json_string(op),
    }
}

/// A value's shape: `string`, `number`, `object`, `array`, `boolean`,
/// `null`, or `absent` when there is none.
pub fn shape(value: Option<&Value>) -> &'static str {
    match value {
        None | Some(Value::Undefined) => "absent",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "boolean",
        Some(Value::Number(_)) => "number",
        Some(Value::String(_)) => "string",
        Some(Value::Array(_)) => "array",
        Some(Value::Object(_)) => "object",
    }
}

/// A pointer's shape: array indices (all-digit tokens) as `*`, for
/// people (`(root)` for the root).
pub fn pointer_shape(pointer: &JsString) -> String {
    let text = pointer.to_utf8_lossy();
    let shaped: Vec<&str> = text
        .split('/')
        .map(|token| {
            if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                token
            }
        })
        .collect();
    pointer::display(&JsString::from(shaped.join("/")))
}

/// How a result says it threw: a suite's error protocol (`error-flag`,
/// `error-message`: JSON Pointers into a result element). A result threw
/// when the value at `flag` is `true` and the value at `message` is a
/// string, its message; when both name one place, a string there is the
/// flag and the message at once (`{"error":"…"}`). The default is
/// `{"threw":true,"message":…}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorProtocol {
    /// The flag's JSON Pointer (`/threw`).
    pub flag: Cow<'static, str>,
    /// The message's JSON Pointer (`/message`).
    pub message: Cow<'static, str>,
}

/// `{"threw":true,"message":…}`.
pub static DEFAULT_ERRORS: ErrorProtocol = ErrorProtocol {
    flag: Cow::Borrowed("/threw"),
    message: Cow::Borrowed("/message"),
};

impl Default for ErrorProtocol {
    fn default() -> Self {
        DEFAULT_ERRORS.clone()
    }
}

impl ErrorProtocol {
    /// The message of a thrown outcome, by this protocol.
    pub fn thrown<'v>(&self, element: Option<&'v Value>) -> Option<&'v JsString> {
        let element = element?;
        let message = value_at(element, &self.message)?.as_js_string()?;
        if self.flag == self.message {
            return Some(message);
        }
        (value_at(element, &self.flag)? == &Value::Bool(true)).then_some(message)
    }

    /// Whether this is the default protocol.
    pub fn is_default(&self) -> bool {
        *self == DEFAULT_ERRORS
    }
}

/// Whether `text` is a JSON Pointer (RFC 6901): empty, or `/` tokens
/// whose `~` is `~0` or `~1`.
pub fn is_pointer(text: &str) -> bool {
    (text.is_empty() || text.starts_with('/'))
        && text
            .split('~')
            .skip(1)
            .all(|rest| rest.starts_with(['0', '1']))
}

/// The value a JSON Pointer names in `value`.
pub fn value_at<'v>(value: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(value);
    }
    let mut here = value;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        here = match here {
            Value::Object(object) => object.get(&token)?,
            Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(here)
}

/// The message of a thrown outcome by the default protocol
/// (`{"threw":true,"message":m}`).
pub fn thrown_message(element: Option<&Value>) -> Option<&JsString> {
    DEFAULT_ERRORS.thrown(element)
}

/// A thrown message's cause, as its failure group shows it: its first
/// line that holds a letter or a digit, with what varies masked
/// ([`mask_variable`]), and `…` for the lines left out. The lines after
/// the first are context (a stack, a source excerpt quoting the
/// program), which differs by case where the cause does not. A line
/// that is one quoted text after its prefix (`Error: "index 2 out of
/// bounds"`) is masked inside its quotes: they hold the message, not a
/// value in it.
pub fn cause_of(message: &str) -> String {
    let mut lines = message.lines();
    let line = lines
        .by_ref()
        .find(|line| line.chars().any(char::is_alphanumeric))
        .unwrap_or_else(|| message.lines().next().unwrap_or_default());
    let mut more = lines.any(|line| !line.trim().is_empty());
    // A cause masked already ends in the `…` of its lines left out.
    let line = match line.strip_suffix('…') {
        Some(cut) if quoted_whole(cut).is_some() => {
            more = true;
            cut
        }
        _ => line,
    };
    let mut cause = match quoted_whole(line) {
        Some((prefix, quote, inner)) => {
            // Masked as the text it stands for: its escaped quotes are
            // quotes there, and escaped again after.
            let escaped = format!("\\{quote}");
            let text = inner.replace(&escaped, &quote.to_string());
            let masked = mask_variable(&text).replace(quote, &escaped);
            format!("{prefix}{quote}{masked}{quote}")
        }
        None => mask_variable(line),
    };
    if more {
        cause.push('…');
    }
    cause
}

/// A line that is a prefix (empty, or ending in `: `) and one quoted
/// text to its end: the prefix, the quote and what it holds.
fn quoted_whole(line: &str) -> Option<(&str, char, &str)> {
    let line = line.trim_end();
    let quote = line
        .chars()
        .next_back()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let open = line.find(quote)?;
    let (prefix, inner) = (&line[..open], line.get(open + 1..line.len() - 1)?);
    let fits = prefix.is_empty() || prefix.ends_with(": ");
    // One quoted text: any quote inside it is escaped.
    let one = inner
        .match_indices(quote)
        .all(|(at, _)| inner[..at].ends_with('\\'));
    let plain = !prefix.contains(['"', '\'', '`']) && !inner.is_empty();
    (fits && one && plain).then_some((prefix, quote, inner))
}

/// JSON's literals and the numbers JSON cannot write, values wherever
/// they stand as words in a message (the longer spelling first).
const LITERALS: [&str; 6] = ["null", "true", "false", "NaN", "-Infinity", "Infinity"];

/// A message with what varies between cases of one cause masked, so
/// that one cause makes one failure group: numbers (`3`, `-1.5e3`,
/// `0x1f`, `NaN`, `-Infinity`) and JSON's literals (`null`, `true`,
/// `false`) become `#`,
/// quoted text (`"…"`, `'…'`, `` `…` ``) becomes its quotes around `…`,
/// and an array or object of such values (`[1,2,3]`, `{"a":null}`)
/// becomes `[…]` or `{…}`. Digits inside a word (`utf8`, `sha256`) stay,
/// and so do brackets after a word (`items[3]` is `items[#]`).
pub fn mask_variable(message: &str) -> String {
    collapse_values(&mask_scalars(message))
}

/// [`mask_variable`]'s numbers, literals and quoted text.
fn mask_scalars(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len());
    let mut at = 0;
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    while at < chars.len() {
        let c = chars[at];
        if matches!(c, '"' | '\'' | '`') {
            // A quote closed on the same line masks what it holds; an
            // apostrophe inside a word (`don't`) is no quote. "Inside a
            // word" is read from what is written so far, not the message:
            // a masked number (`0xab'` → `#'`) must decide alike when the
            // signature is masked again, or masking would not be idempotent.
            let after_letter = out.chars().next_back().is_some_and(char::is_alphabetic);
            let opens = c != '\'' || !after_letter;
            let close = chars[at + 1..]
                .iter()
                .position(|&d| d == c || d == '\n')
                .filter(|&n| chars[at + 1 + n] == c);
            if let (true, Some(n)) = (opens, close) {
                out.push(c);
                out.push('…');
                out.push(c);
                at += n + 2;
                continue;
            }
        }
        let after_word = word(at.checked_sub(1).and_then(|i| chars.get(i)));
        let literal = LITERALS.iter().find(|literal| {
            let end = at + literal.len();
            !after_word
                && chars
                    .get(at..end)
                    .is_some_and(|run| run.iter().copied().eq(literal.chars()))
                && !word(chars.get(end))
        });
        if let Some(literal) = literal {
            out.push('#');
            at += literal.len();
            continue;
        }
        let starts_number =
            c.is_ascii_digit() || (c == '-' && chars.get(at + 1).is_some_and(char::is_ascii_digit));
        if starts_number && !word(at.checked_sub(1).and_then(|i| chars.get(i))) {
            let mut end = at + 1;
            let hex = c == '0' && matches!(chars.get(end), Some('x' | 'X'));
            if hex {
                end += 1;
            }
            while let Some(&d) = chars.get(end) {
                let more = d.is_ascii_digit()
                    || (hex && d.is_ascii_hexdigit())
                    || (!hex && d == '.' && chars.get(end + 1).is_some_and(char::is_ascii_digit))
                    || (!hex
                        && matches!(d, 'e' | 'E')
                        && chars
                            .get(end + 1)
                            .is_some_and(|n| n.is_ascii_digit() || *n == '-' || *n == '+'));
                if !more {
                    break;
                }
                end += if matches!(d, 'e' | 'E') && matches!(chars.get(end + 1), Some('-' | '+')) {
                    2
                } else {
                    1
                };
            }
            if !word(chars.get(end)) {
                out.push('#');
                at = end;
                continue;
            }
            // A number that runs into a word (`3rd`, `2x`) is a word.
            out.extend(&chars[at..end]);
            at = end;
            continue;
        }
        out.push(c);
        at += 1;
    }
    out
}

/// A masked message with each array or object of masked values
/// (brackets not after a word, on one line, holding only `#`, masked
/// quotes, separators and such brackets) written `[…]` or `{…}`.
fn collapse_values(masked: &str) -> String {
    let chars: Vec<char> = masked.chars().collect();
    let mut out = String::with_capacity(masked.len());
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let after_word = at
            .checked_sub(1)
            .and_then(|i| chars.get(i))
            .is_some_and(|c| c.is_alphanumeric() || *c == '_');
        if matches!(c, '[' | '{') && !after_word {
            if let Some(end) = value_end(&chars, at) {
                out.push(c);
                out.push('…');
                out.push(if c == '[' { ']' } else { '}' });
                at = end + 1;
                continue;
            }
        }
        out.push(c);
        at += 1;
    }
    out
}

/// Where the array or object opened at `open` closes, when all it holds
/// is masked values.
fn value_end(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            '#' | '…' | '"' | '\'' | '`' | ',' | ':' | ' ' => {}
            _ => return None,
        }
    }
    None
}

/// Text cut to `chars` characters, with `…` when cut.
pub fn cut_chars(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::{self as js, TextMode};

    fn value(text: &str) -> Value {
        js::parse(text.as_bytes(), TextMode::LossyUtf8).unwrap()
    }

    #[test]
    fn ops_are_shown_plainly_when_they_read_plainly() {
        assert_eq!(op_display(Some("sum")), "sum");
        assert_eq!(op_display(None), "(no op)");
        assert_eq!(op_display(Some("")), "\"\"");
        assert_eq!(op_display(Some(" sum")), "\" sum\"");
        assert_eq!(op_display(Some("sum\u{0}")), "\"sum\\u0000\"");
        assert_eq!(op_display(Some("(no op)")), "\"(no op)\"");
        assert_eq!(op_display(Some("a\u{202e}b")), "\"a\\u202eb\"");
        assert_eq!(op_display(Some("a\u{7f}")), "\"a\\u007f\"");
    }

    #[test]
    fn shapes() {
        assert_eq!(
            pointer_shape(&JsString::from("/value/14/a1/0")),
            "/value/*/a1/*"
        );
        assert_eq!(pointer_shape(&JsString::new()), "(root)");
        assert_eq!(pointer_shape(&JsString::from("/")), "/");
        for (text, name) in [
            ("1", "number"),
            ("\"x\"", "string"),
            ("{}", "object"),
            ("[]", "array"),
            ("true", "boolean"),
            ("null", "null"),
        ] {
            assert_eq!(shape(Some(&value(text))), name);
        }
        assert_eq!(shape(None), "absent");
    }

    #[test]
    fn pointers_find_values_and_check_their_syntax() {
        let element = value(r#"{"a/b":[{"~k":true}],"":1}"#);
        assert_eq!(value_at(&element, "/a~1b/0/~0k"), Some(&Value::Bool(true)));
        assert_eq!(value_at(&element, "/"), Some(&Value::Number(1.0)));
        assert_eq!(value_at(&element, ""), Some(&element));
        assert_eq!(value_at(&element, "/a~1b/1"), None);
        assert_eq!(value_at(&element, "a"), None);
        for good in ["", "/", "/threw", "/a~0b~1c/0"] {
            assert!(is_pointer(good), "{good}");
        }
        for bad in ["threw", "/a~2", "/a~"] {
            assert!(!is_pointer(bad), "{bad}");
        }
    }

    #[test]
    fn another_protocol_reads_its_own_places() {
        let nested = ErrorProtocol {
            flag: "/status/failed".into(),
            message: "/status/why".into(),
        };
        let threw = value(r#"{"status":{"failed":true,"why":"no"}}"#);
        assert_eq!(nested.thrown(Some(&threw)).unwrap(), &JsString::from("no"));
        let default_shape = value(r#"{"threw":true,"message":"no"}"#);
        assert_eq!(nested.thrown(Some(&default_shape)), None);
        let failed_false = value(r#"{"status":{"failed":false,"why":"no"}}"#);
        assert_eq!(nested.thrown(Some(&failed_false)), None);
    }

    #[test]
    fn what_varies_in_a_message_is_masked() {
        for (message, masked) in [
            ("index 3 out of bounds", "index # out of bounds"),
            ("index 7 out of bounds", "index # out of bounds"),
            (
                "syntax error at line 1, column 17",
                "syntax error at line #, column #",
            ),
            (
                "cannot index number with \"foo\"",
                "cannot index number with \"…\"",
            ),
            ("key 'a b' missing", "key '…' missing"),
            ("don't know `x`", "don't know `…`"),
            ("got -1.5e3 and 0x1F", "got # and #"),
            (
                "utf8 and sha256 stay, 3rd too",
                "utf8 and sha256 stay, 3rd too",
            ),
            ("an \"unclosed quote 3", "an \"unclosed quote #"),
            ("cannot use null as string", "cannot use # as string"),
            ("got NaN, -Infinity and Infinity", "got #, # and #"),
            ("NaNa and Infinityx stay", "NaNa and Infinityx stay"),
            ("cannot index [1,2,3] with null", "cannot index […] with #"),
            ("got {\"a\":1,\"b\":[true, false]}", "got {…}"),
            (
                "items[3] is nullable, true_value",
                "items[#] is nullable, true_value",
            ),
            ("[x] and {y} stay", "[x] and {y} stay"),
            ("", ""),
        ] {
            assert_eq!(mask_variable(message), masked, "{message}");
        }
    }

    #[test]
    fn an_apostrophe_after_a_masked_number_masks_alike_twice() {
        // Found by the property below: `0x'` became `#'`, and the second
        // pass took that apostrophe for an opening quote.
        for message in ["a'''\"\"0x'\"\"'", "at 0xab'c' and 5'd'"] {
            let once = mask_variable(message);
            assert_eq!(mask_variable(&once), once, "{message}");
        }
        assert_eq!(mask_variable("a'''\"\"0x'\"\"'"), "a''…'\"…\"#'…'");
        assert_eq!(mask_variable("don't 'x' 3rd"), "don't '…' 3rd");
    }

    proptest::proptest! {
        // Masking twice masks nothing more, and a message differing only
        // in a number masks alike.
        #[test]
        fn masking_is_idempotent(message in "([a-z '\"`0-9.x:,\\[\\]{}\n-]|null|true){0,30}", n in 0u32..1000, m in 0u32..1000) {
            let once = mask_variable(&message);
            proptest::prop_assert_eq!(mask_variable(&once), once.clone());
            let cause = cause_of(&message);
            proptest::prop_assert_eq!(cause_of(&cause), cause);
            proptest::prop_assert_eq!(
                mask_variable(&format!("{message} at {n}")),
                mask_variable(&format!("{message} at {m}"))
            );
        }
    }

    #[test]
    fn a_cause_is_the_first_line_that_says_something_masked() {
        for (message, cause) in [
            ("index 7 out of bounds", "index # out of bounds"),
            (
                "Error: undefined filter\n  ╭─[<inline>]\n  │\n1 │ path(..)\n",
                "Error: undefined filter…",
            ),
            (
                "\n\nTypeError: x is 3\n    at f (file.js:1:2)",
                "TypeError: x is #…",
            ),
            ("last line\n\n  \n", "last line"),
            // The quotes hold the whole message: masked inside.
            (
                "Error: \"index 2 out of bounds\"",
                "Error: \"index # out of bounds\"",
            ),
            ("'no key 3'", "'no key #'"),
            (
                "Error: \"say \\\"hi\\\" 3 times\"",
                "Error: \"say \\\"…\\\" # times\"",
            ),
            // Not one quoted text: each quote is a value.
            ("Error: \"a\" or \"b\"", "Error: \"…\" or \"…\""),
            ("say \"a 1\"", "say \"…\""),
            // Found by the property below: the `…` of the lines left out
            // must not hide a whole quoted message the second time.
            ("\"null\"\na", "\"#\"…"),
            ("", ""),
        ] {
            assert_eq!(cause_of(message), cause, "{message:?}");
            assert_eq!(cause_of(cause), cause, "{cause:?}");
        }
    }

    #[test]
    fn thrown_messages() {
        let threw = value(r#"{"threw":true,"message":"no"}"#);
        assert_eq!(thrown_message(Some(&threw)).unwrap(), &JsString::from("no"));
        for other in [
            r#"{"threw":"true","message":"no"}"#,
            r#"{"threw":true}"#,
            "[1]",
        ] {
            assert_eq!(thrown_message(Some(&value(other))), None, "{other}");
        }
        assert_eq!(cut_chars("abcdef", 3), "abc…");
        assert_eq!(cut_chars("abc", 3), "abc");
    }
}
