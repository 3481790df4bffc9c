//! The coverage allowlist: spans of the reference that no batch case can
//! reach (process modes, defensive catches), each with its reason, in a
//! text file that reads well in review, like the ledger.
//!
//! ```text
//! # Only `ipc-child` runs it: a batch never does.
//! span "runIpcChild" 1f2e3d4c5b6a
//!   reason: process mode: the worker half of the IPC protocol
//!   at: worker-spawn-oracle.mjs:1259
//!   text: async function runIpcChild() {
//! ```
//!
//! An entry names a span by its function's path and a hash of the
//! span's source text in its lines ([`span_hash`]), never by line
//! number, so that an edit elsewhere in the file leaves it standing. `reason` is required; `at`
//! and `text` are there for people and decide nothing. Lines starting
//! with `#` are comments; blank lines separate entries.

use std::path::{Path, PathBuf};

use crate::base::error::InputError;
use crate::corpus::identity::short_hash;

/// The allowlist's file name, beside the cases directory unless
/// `--allowlist` names one.
pub const DEFAULT_NAME: &str = "coverage-allowlist.txt";

/// What names a span: its function's path and the hash of its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpanKey {
    /// The function's path (`a > (anonymous)`).
    pub function: String,
    /// [`span_hash`] of the span's source text.
    pub hash: String,
}

impl SpanKey {
    /// The line that starts the span's entry: `span "FUNCTION" HASH`.
    pub fn entry_line(&self) -> String {
        let function = serde_json::to_string(&self.function).unwrap_or_default();
        format!("span {function} {}", self.hash)
    }
}

/// The hash that names a span: 12 hex digits of its source text as it
/// stands in its lines (the text before it on its first line, less the
/// indentation; the span's text; the text after it on its last line).
/// So two spans of one text in one function (`?? []` on two lines) are
/// two keys, and an edit on any other line changes neither.
pub fn span_hash(before: &str, text: &str, after: &str) -> String {
    let context = format!("{}\0{text}\0{}", before.trim_start(), after.trim_end());
    short_hash(context.as_bytes())
}

/// One entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowEntry {
    /// The span it names.
    pub key: SpanKey,
    /// Why no case can reach it.
    pub reason: String,
    /// Where it was, for people.
    pub at: Option<String>,
    /// Its first line, for people.
    pub text: Option<String>,
    /// The line its entry starts on.
    pub line: usize,
}

/// The entries, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowlist {
    /// Every entry.
    pub entries: Vec<AllowEntry>,
}

/// The allowlist's path when `--allowlist` is not given: beside the
/// cases directory, where the ledger would be.
pub fn default_path(cases: &Path) -> PathBuf {
    crate::ledger::default_path(cases).with_file_name(DEFAULT_NAME)
}

fn read_key(rest: &str) -> Result<SpanKey, String> {
    let rest = rest.trim();
    if !rest.starts_with('"') {
        return Err("`span` must be followed by the function as a JSON string".into());
    }
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<String>();
    let function = match stream.next() {
        Some(Ok(function)) => function,
        _ => return Err("the function is not a well-formed JSON string".into()),
    };
    let hash = rest[stream.byte_offset()..].trim();
    let well_formed = hash.len() == 12
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if !well_formed {
        return Err(format!(
            "after the function comes the span's hash, 12 lowercase hex digits, not {hash:?}"
        ));
    }
    Ok(SpanKey {
        function,
        hash: hash.to_owned(),
    })
}

impl Allowlist {
    /// Reads an allowlist's text; an error names its line.
    pub fn parse(text: &str) -> Result<Allowlist, (usize, String)> {
        let mut entries: Vec<AllowEntry> = Vec::new();
        let mut open = false;
        for (at, line) in text.lines().enumerate() {
            let number = at + 1;
            let trimmed = line.trim();
            if trimmed.is_empty() {
                open = false;
                continue;
            }
            if trimmed.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("span ") {
                let key = read_key(rest).map_err(|message| (number, message))?;
                if let Some(first) = entries.iter().find(|entry| entry.key == key) {
                    return Err((
                        number,
                        format!("the span is listed already, on line {}", first.line),
                    ));
                }
                entries.push(AllowEntry {
                    key,
                    reason: String::new(),
                    at: None,
                    text: None,
                    line: number,
                });
                open = true;
                continue;
            }
            let entry = match entries.last_mut() {
                Some(entry) if open && line.starts_with(char::is_whitespace) => entry,
                _ => return Err((
                    number,
                    "expected `span \"FUNCTION\" HASH`, an indented member of one, or a comment"
                        .into(),
                )),
            };
            let Some((name, value)) = trimmed.split_once(':') else {
                return Err((number, "a member is `name: value`".into()));
            };
            let value = value.trim().to_owned();
            match name {
                "reason" => entry.reason = value,
                "at" => entry.at = Some(value),
                "text" => entry.text = Some(value),
                other => {
                    return Err((
                        number,
                        format!("unknown member {other:?} (reason, at or text)"),
                    ))
                }
            }
        }
        if let Some(entry) = entries.iter().find(|entry| entry.reason.is_empty()) {
            return Err((
                entry.line,
                "an entry needs a reason: say why no case can reach the span".into(),
            ));
        }
        Ok(Allowlist { entries })
    }

    /// Reads the allowlist at `path`.
    pub fn load(path: &Path) -> Result<Allowlist, InputError> {
        let bytes = crate::base::files::input::read(path, crate::base::files::input::ALLOWLIST)
            .map_err(|error| {
                InputError::new(format!(
                    "cannot read the allowlist {}: {error}",
                    path.display()
                ))
            })?;
        let text = String::from_utf8(bytes).map_err(|_| {
            InputError::new(format!(
                "the allowlist {} is not UTF-8 text",
                path.display()
            ))
        })?;
        Allowlist::parse(&text).map_err(|(line, message)| {
            InputError::new(format!(
                "allowlist {} line {line}: {message}",
                path.display()
            ))
        })
    }

    /// The entry for a span.
    pub fn get(&self, key: &SpanKey) -> Option<&AllowEntry> {
        self.entries.iter().find(|entry| &entry.key == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# spans no batch case can reach\n\
        \n\
        # the worker half\n\
        span \"runIpcChild\" 1f2e3d4c5b6a\n  reason: process mode: ipc-child\n  at: ref.mjs:12\n  text: async function runIpcChild() {\n\
        \n\
        span \"handle > (anonymous)\" 00000000abcd\n\treason:   a catch: nothing throws here  \n";

    #[test]
    fn entries_name_spans_by_function_and_hash_with_a_reason() {
        let list = Allowlist::parse(TEXT).unwrap();
        assert_eq!(list.entries.len(), 2);
        let first = &list.entries[0];
        assert_eq!(first.key.function, "runIpcChild");
        assert_eq!(first.key.hash, "1f2e3d4c5b6a");
        assert_eq!(first.reason, "process mode: ipc-child");
        assert_eq!(first.at.as_deref(), Some("ref.mjs:12"));
        assert_eq!(first.line, 4);
        assert_eq!(list.entries[1].reason, "a catch: nothing throws here");
        assert!(list.get(&list.entries[1].key).is_some());
        assert_eq!(
            list.entries[1].key.entry_line(),
            "span \"handle > (anonymous)\" 00000000abcd"
        );
        let again = Allowlist::parse(&format!(
            "{}\n  reason: r\n",
            list.entries[1].key.entry_line()
        ))
        .unwrap();
        assert_eq!(again.entries[0].key, list.entries[1].key);
    }

    #[test]
    fn a_bad_allowlist_is_refused_at_its_line() {
        for (text, line, why) in [
            (
                "span runIpcChild 1f2e3d4c5b6a\n  reason: r\n",
                1,
                "JSON string",
            ),
            ("span \"f\" 1F2E3D4C5B6A\n  reason: r\n", 1, "lowercase hex"),
            ("span \"f\" 1f2e\n  reason: r\n", 1, "12 lowercase"),
            ("span \"f\" 1f2e3d4c5b6a\n  at: x:1\n", 1, "needs a reason"),
            (
                "span \"f\" 1f2e3d4c5b6a\n  reason: r\n  why: x\n",
                3,
                "unknown member",
            ),
            ("  reason: r\n", 1, "expected `span"),
            (
                "span \"f\" 1f2e3d4c5b6a\n  reason: r\n\n  reason: s\n",
                4,
                "expected",
            ),
            ("span \"f\" 1f2e3d4c5b6a\n  reason\n", 2, "name: value"),
            (
                "span \"f\" 1f2e3d4c5b6a\n  reason: r\nspan \"f\" 1f2e3d4c5b6a\n  reason: s\n",
                3,
                "listed already, on line 1",
            ),
        ] {
            let (at, message) = Allowlist::parse(text).unwrap_err();
            assert_eq!(at, line, "{text:?}: {message}");
            assert!(message.contains(why), "{message:?} should say {why:?}");
        }
    }

    #[test]
    fn the_hash_is_of_the_text_alone_and_the_file_sits_beside_the_cases() {
        let hash = span_hash("  a: options.a ", "?? []", ",");
        assert_eq!(hash, span_hash("a: options.a ", "?? []", ",  "));
        assert_ne!(hash, span_hash("  b: options.b ", "?? []", ","));
        assert_ne!(hash, span_hash("  a: options.a ", "?? null", ","));
        assert_eq!(hash.len(), 12);
        assert_eq!(
            default_path(Path::new("cases")),
            Path::new("coverage-allowlist.txt")
        );
        assert_eq!(
            default_path(Path::new("port/parity/cases/")),
            Path::new("port/parity/coverage-allowlist.txt")
        );
    }
}
