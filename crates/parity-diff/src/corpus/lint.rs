//! The corpus lint: what a case file must not hold.
//!
//! A corpus case exists for its exact spelling and its name says what it
//! proves, so a case file is refused when it holds:
//!
//! - a leftover placeholder string `"\u0000RAW<digits>\u0000"`, where a
//!   generator meant to write a raw JSON spelling and did not;
//! - an object case without a name (non-object cases need none: their
//!   bytes are the point);
//! - a name used twice in one file, which makes reports ambiguous;
//! - a name whose text before its first colon is the name of an op other
//!   than the case's own (`add: …` on a `sum` case); the contract's op
//!   names are the caller's ([`lint_case_file`]'s `ops`), so that the lint
//!   knows no contract;
//! - two cases with the same raw bytes, one of which proves nothing.
//!
//! Findings are in case order, each naming its case and rule.

use std::collections::HashMap;
use std::fmt;

use crate::judge::golden::split_elements;
use js_exact::{self as js, TextMode, Value};

/// A rule of the corpus lint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The file is not a JSON array of cases.
    NotAnArray,
    /// A `"\u0000RAW<digits>\u0000"` placeholder string.
    Placeholder,
    /// An object case without a non-empty string `name`.
    MissingName,
    /// A name that an earlier case of the file already has.
    RepeatedName,
    /// A name prefixed by another op's name.
    OtherOpsName,
    /// The same raw bytes as an earlier case of the file.
    RepeatedCase,
}

impl Rule {
    /// The rule's short name, as findings print it.
    pub fn id(self) -> &'static str {
        match self {
            Rule::NotAnArray => "not-an-array",
            Rule::Placeholder => "placeholder",
            Rule::MissingName => "missing-name",
            Rule::RepeatedName => "repeated-name",
            Rule::OtherOpsName => "other-ops-name",
            Rule::RepeatedCase => "repeated-case",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One thing wrong with a case file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The case file, as the caller named it.
    pub file: String,
    /// The case's index from 0; `None` for the file as a whole.
    pub index: Option<usize>,
    /// The case's name, when it has one.
    pub name: Option<String>,
    /// The rule broken.
    pub rule: Rule,
    /// What exactly is wrong.
    pub detail: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(index) = self.index {
            write!(f, " case #{index}")?;
        }
        if let Some(name) = &self.name {
            write!(f, " {name:?}")?;
        }
        write!(f, ": {}: {}", self.rule, self.detail)
    }
}

/// Lints one case file, given its name (for the findings), its bytes and
/// the names of the contract's ops.
pub fn lint_case_file(file: &str, bytes: &[u8], ops: &[&str]) -> Vec<Finding> {
    let elements = match split_elements(bytes) {
        Ok(elements) => elements,
        Err(error) => {
            return vec![Finding {
                file: file.to_string(),
                index: None,
                name: None,
                rule: Rule::NotAnArray,
                detail: error.to_string(),
            }]
        }
    };
    let mut findings = Vec::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut seen: HashMap<&[u8], usize> = HashMap::new();
    for (index, raw) in elements.into_iter().enumerate() {
        // split_elements read it as JSON already; a case that our reader
        // refuses anyway is linted as a nameless non-object.
        let case = js::parse(raw, TextMode::LossyUtf8).unwrap_or(Value::Undefined);
        let name = case
            .as_object()
            .and_then(|object| object.get("name"))
            .and_then(Value::as_non_empty_string)
            .map(|name| name.to_utf8_lossy().into_owned());
        let mut found = |rule: Rule, detail: String| {
            findings.push(Finding {
                file: file.to_string(),
                index: Some(index),
                name: name.clone(),
                rule,
                detail,
            })
        };
        for placeholder in placeholders(raw) {
            found(
                Rule::Placeholder,
                format!("holds the placeholder {placeholder} where a raw JSON spelling was meant"),
            );
        }
        if let Some(object) = case.as_object() {
            match &name {
                None => found(
                    Rule::MissingName,
                    "an object case needs a non-empty string name".into(),
                ),
                Some(name) => {
                    if let Some(first) = names.get(name) {
                        found(
                            Rule::RepeatedName,
                            format!("case #{first} has the same name"),
                        );
                    } else {
                        names.insert(name.clone(), index);
                    }
                    let op = object.get("op").unwrap_or(&js::UNDEFINED);
                    if let Some(named) = other_ops_name(name, op, ops) {
                        found(
                            Rule::OtherOpsName,
                            format!(
                                "the name starts with op {named} but the case's op is {}",
                                describe_op(op)
                            ),
                        );
                    }
                }
            }
        }
        if let Some(first) = seen.get(raw) {
            found(
                Rule::RepeatedCase,
                format!("the same bytes as case #{first}"),
            );
        } else {
            seen.insert(raw, index);
        }
    }
    findings
}

/// Every `\u0000RAW<digits>\u0000` in a case's raw text. A NUL can only
/// be written as that escape inside a JSON string, so searching the text
/// also finds placeholders in values that a duplicate key overwrote. A
/// backslash that is itself escaped (`\\u0000`) starts no escape.
fn placeholders(raw: &[u8]) -> Vec<String> {
    const OPEN: &[u8] = b"\\u0000RAW";
    const CLOSE: &[u8] = b"\\u0000";
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = find(&raw[at..], OPEN) {
        let digits_start = at + offset + OPEN.len();
        let digits = raw[digits_start..]
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        let end = digits_start + digits;
        let starts_escape =
            |at: usize| raw[..at].iter().rev().take_while(|b| **b == b'\\').count() % 2 == 0;
        if digits > 0
            && raw[end..].starts_with(CLOSE)
            && starts_escape(at + offset)
            && starts_escape(end)
        {
            let text = &raw[at + offset..end + CLOSE.len()];
            found.push(format!("\"{}\"", String::from_utf8_lossy(text)));
        }
        at = digits_start;
    }
    found
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// The op that a name's text before its first colon names, when that is
/// an op and not the case's own.
fn other_ops_name<'a>(name: &str, op: &Value, ops: &[&'a str]) -> Option<&'a str> {
    let (prefix, _) = name.split_once(':')?;
    let named = *ops.iter().find(|known| **known == prefix)?;
    let own = op.as_js_string().is_some_and(|op| op.eq_str(named));
    (!own).then_some(named)
}

fn describe_op(op: &Value) -> String {
    match op {
        Value::Undefined => "missing".into(),
        Value::String(text) => text.to_utf8_lossy().into_owned(),
        other => format!("{} (not a string)", js::stringify(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A contract of its own, for the tests.
    const OPS: &[&str] = &["add", "sum", "concat", "keys", "length"];

    fn lint(text: &str) -> Vec<String> {
        lint_case_file("t.json", text.as_bytes(), OPS)
            .iter()
            .map(Finding::to_string)
            .collect()
    }

    #[test]
    fn a_clean_file_has_no_findings() {
        let text = concat!(
            "[1, 1.0, null, [\"x\"],\n",
            "{\"name\": \"add: a\", \"op\": \"add\"},\n",
            "{\"name\": \"add: b\", \"op\": \"add\"},\n",
            "{\"name\": \"JSON: not an op\", \"op\": \"sum\"},\n",
            "{\"name\": \"no colon at all\", \"op\": 5},\n",
            "{\"name\": \"addX: a longer prefix\", \"op\": \"sum\"},\n",
            "{\"name\": \"the text \\\\u0000RAW1 without its closing escape\", \"op\": \"x\"},\n",
            "{\"name\": \"escaped backslashes: \\\\u0000RAW1\\\\u0000\", \"op\": \"x\"}]"
        );
        assert_eq!(lint(text), Vec::<String>::new());
    }

    #[test]
    fn placeholders_are_refused_wherever_they_stand() {
        let text = concat!(
            "[\"\\u0000RAW0\\u0000\",\n",
            "{\"name\": \"n\", \"options\": {\"a\": \"\\u0000RAW12\\u0000\", \"a\": 1}},\n",
            "{\"name\": \"m\", \"v\": \"\\u0000RAW\\u0000 \\u0000RAWx\\u0000\"}]"
        );
        assert_eq!(
            lint(text),
            [
                "t.json case #0: placeholder: holds the placeholder \"\\u0000RAW0\\u0000\" where a raw JSON spelling was meant",
                "t.json case #1 \"n\": placeholder: holds the placeholder \"\\u0000RAW12\\u0000\" where a raw JSON spelling was meant",
            ]
        );
    }

    #[test]
    fn object_cases_need_a_name_and_others_do_not() {
        let text = r#"[{"op": "add"}, {"name": "", "op": "x"}, {"name": 5}, [{"op": "y"}], "s"]"#;
        assert_eq!(
            lint(text),
            [
                "t.json case #0: missing-name: an object case needs a non-empty string name",
                "t.json case #1: missing-name: an object case needs a non-empty string name",
                "t.json case #2: missing-name: an object case needs a non-empty string name",
            ]
        );
    }

    #[test]
    fn a_name_used_twice_is_refused_at_its_second_use() {
        let text = r#"[{"name": "a", "op": 1}, {"name": "b", "op": 2}, {"name": "a", "op": 3}, {"name": "a", "op": 4}]"#;
        assert_eq!(
            lint(text),
            [
                "t.json case #2 \"a\": repeated-name: case #0 has the same name",
                "t.json case #3 \"a\": repeated-name: case #0 has the same name",
            ]
        );
    }

    #[test]
    fn a_name_prefixed_by_another_op_is_refused() {
        let text = concat!(
            "[{\"name\": \"add: argv\", \"op\": \"sum\"},\n",
            "{\"name\": \"concat: x: y\", \"op\": null},\n",
            "{\"name\": \"keys: no op\"},\n",
            "{\"name\": \"length: an array op\", \"op\": [\"length\"]}]"
        );
        assert_eq!(
            lint(text),
            [
                "t.json case #0 \"add: argv\": other-ops-name: the name starts with op add but the case's op is sum",
                "t.json case #1 \"concat: x: y\": other-ops-name: the name starts with op concat but the case's op is null (not a string)",
                "t.json case #2 \"keys: no op\": other-ops-name: the name starts with op keys but the case's op is missing",
                "t.json case #3 \"length: an array op\": other-ops-name: the name starts with op length but the case's op is [\"length\"] (not a string)",
            ]
        );
    }

    #[test]
    fn the_same_bytes_twice_are_refused_and_other_spellings_are_not() {
        let text = r#"[1, 1.0, 1, {"name": "a"}, {"name":"a"}, {"name": "a"}]"#;
        assert_eq!(
            lint(text),
            [
                "t.json case #2: repeated-case: the same bytes as case #0",
                "t.json case #4 \"a\": repeated-name: case #3 has the same name",
                "t.json case #5 \"a\": repeated-name: case #3 has the same name",
                "t.json case #5 \"a\": repeated-case: the same bytes as case #3",
            ]
        );
    }

    #[test]
    fn a_file_that_is_not_an_array_is_one_finding() {
        assert_eq!(lint("{}"), ["t.json: not-an-array: not a JSON array"]);
        assert_eq!(lint("[1,").len(), 1);
    }

    #[test]
    fn findings_carry_their_parts() {
        let findings = lint_case_file("d/f.json", br#"[{"op": "x"}]"#, OPS);
        assert_eq!(
            findings,
            [Finding {
                file: "d/f.json".into(),
                index: Some(0),
                name: None,
                rule: Rule::MissingName,
                detail: "an object case needs a non-empty string name".into(),
            }]
        );
    }
}
