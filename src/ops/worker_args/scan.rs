//! `scanOptions`: the worker argv after its command, read into what was
//! given, option by option, before any value is checked.

use std::collections::{HashMap, HashSet};

use js_exact::throw;
use js_exact::{JsResult, JsStr, JsString};

/// The options that take a value, and the field each one sets.
pub const VALUE_OPTIONS: [(&str, &str); 18] = [
    ("--kandan-url", "kandanUrl"),
    ("--token", "token"),
    ("--runner-id", "runnerId"),
    ("--thread-id", "kandanThreadId"),
    ("--cwd", "cwd"),
    ("--codex-bin", "codexBin"),
    ("--workspace", "workspaceSlug"),
    ("--allowed-cwd", "allowedCwds"),
    ("--allow-forward-port", "allowedForwardPorts"),
    ("--execution-mode", "executionMode"),
    ("--egress-mode", "egressMode"),
    ("--project", "projectPublicId"),
    ("--golden-image", "goldenImagePublicId"),
    ("--log-file", "logFile"),
    ("--runtime-defaults", "runtimeDefaults"),
    ("--codex-model-provider", "codexModelProvider"),
    ("--linzumi-agent-mcp-token", "linzumiAgentMcpToken"),
    ("--debug-trace", "debugTrace"),
];

/// The value options that may be given many times, each value kept.
pub const ACCUMULATING_OPTIONS: [&str; 2] = ["--allowed-cwd", "--allow-forward-port"];

/// The options that take no value, and the field each one sets.
pub const FLAG_OPTIONS: [(&str, &str); 2] = [("--vm-execution", "vmExecution"), ("--fast", "fast")];

/// A value given on the command line: a whole element, or what follows
/// the `=` of one. It stays borrowed until the parser keeps it, so a value
/// that is refused (and echoed in the refusal) is never copied first.
#[derive(Clone, Copy, Debug)]
pub(super) enum Arg<'a> {
    /// The element after the option.
    Element(&'a JsString),
    /// The inline value of `--name=value`.
    Inline(JsStr<'a>),
}

impl<'a> Arg<'a> {
    /// The value's text, borrowed.
    pub(super) fn text(self) -> JsStr<'a> {
        match self {
            Arg::Element(element) => element.as_js_str(),
            Arg::Inline(value) => value,
        }
    }

    /// The value as a string of its own: a whole element is shared.
    pub(super) fn to_js_string(self) -> JsString {
        match self {
            Arg::Element(element) => element.clone(),
            Arg::Inline(value) => value.to_js_string(),
        }
    }
}

/// What the command line gave, by field: the last value of an ordinary
/// option, every value of an accumulating one, and the flags present.
#[derive(Debug, Default)]
pub(super) struct Given<'a> {
    pub(super) values: HashMap<&'static str, Arg<'a>>,
    pub(super) lists: HashMap<&'static str, Vec<Arg<'a>>>,
    pub(super) flags: HashSet<&'static str>,
}

impl<'a> Given<'a> {
    pub(super) fn value(&self, field: &str) -> Option<Arg<'a>> {
        self.values.get(field).copied()
    }

    pub(super) fn list(&self, field: &str) -> &[Arg<'a>] {
        self.lists.get(field).map(Vec::as_slice).unwrap_or_default()
    }
}

fn lookup(table: &[(&'static str, &'static str)], name: JsStr<'_>) -> Option<&'static str> {
    table
        .iter()
        .find(|(option, _)| name.eq_str(option))
        .map(|&(_, field)| field)
}

/// `scanOptions`: the elements after the command, left to right. An
/// element is `--name` or `--name=value`; a value option without an inline
/// value takes the next element, whatever it is.
pub(super) fn scan_options<'a>(elements: &[&'a JsString]) -> JsResult<Given<'a>> {
    let mut given = Given::default();
    let mut index = 0;
    while index < elements.len() {
        let element = elements[index];
        if !element.starts_with("--") {
            throw!("unexpected argument ", element);
        }
        // `name = element.split("=")[0]`, and the inline value is what
        // follows that first `=`: pieces of the element, so only what is
        // kept is copied.
        let (name, inline_value) = match element.as_js_str().split_once("=") {
            Some((name, value)) => (name, Some(Arg::Inline(value))),
            None => (element.as_js_str(), None),
        };
        if let Some(field) = lookup(&VALUE_OPTIONS, name) {
            let value = match inline_value {
                Some(value) => value,
                None => {
                    index += 1;
                    match elements.get(index) {
                        Some(&next) => Arg::Element(next),
                        None => throw!("option ", name, " requires a value"),
                    }
                }
            };
            if ACCUMULATING_OPTIONS
                .iter()
                .any(|option| name.eq_str(option))
            {
                given.lists.entry(field).or_default().push(value);
            } else {
                given.values.insert(field, value);
            }
        } else if let Some(field) = lookup(&FLAG_OPTIONS, name) {
            if inline_value.is_some() {
                throw!("option ", name, " does not take a value");
            }
            given.flags.insert(field);
        } else {
            throw!("unknown thread-codex-worker option ", name);
        }
        index += 1;
    }
    Ok(given)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a scan gave, as text.
    #[derive(Debug)]
    struct Scanned {
        values: HashMap<&'static str, String>,
        lists: HashMap<&'static str, Vec<String>>,
        flags: HashSet<&'static str>,
    }

    fn scan(elements: &[&str]) -> Result<Scanned, String> {
        let elements: Vec<JsString> = elements.iter().map(|&e| JsString::from(e)).collect();
        let refs: Vec<&JsString> = elements.iter().collect();
        let given = scan_options(&refs).map_err(|error| error.message.to_string())?;
        let text = |arg: &Arg<'_>| arg.text().to_string();
        Ok(Scanned {
            values: given.values.iter().map(|(&k, v)| (k, text(v))).collect(),
            lists: (given.lists.iter())
                .map(|(&k, v)| (k, v.iter().map(text).collect()))
                .collect(),
            flags: given.flags,
        })
    }

    #[test]
    fn every_value_option_and_flag_is_known() {
        for (option, field) in VALUE_OPTIONS {
            let given = scan(&[option, "v"]).unwrap();
            let accumulating = ACCUMULATING_OPTIONS.contains(&option);
            assert_eq!(given.values.contains_key(field), !accumulating, "{option}");
            assert_eq!(
                given.lists.get(field).map_or(0, Vec::len),
                usize::from(accumulating),
                "{option}"
            );
        }
        for (flag, field) in FLAG_OPTIONS {
            assert!(scan(&[flag]).unwrap().flags.contains(field), "{flag}");
        }
    }

    #[test]
    fn a_value_option_takes_the_next_element_whatever_it_is() {
        let given = scan(&["--token", "--fast", "--workspace", ""]).unwrap();
        assert_eq!(given.values["token"], "--fast");
        assert_eq!(given.values["workspaceSlug"], "");
        assert!(given.flags.is_empty());
    }

    #[test]
    fn an_inline_value_is_everything_after_the_first_equals_sign() {
        let given = scan(&[
            "--token=a=b",
            "--cwd=",
            "--allowed-cwd==",
            "--allowed-cwd",
            "=x",
        ])
        .unwrap();
        assert_eq!(given.values["token"], "a=b");
        assert_eq!(given.values["cwd"], "");
        assert_eq!(given.lists["allowedCwds"], ["=", "=x"]);
        assert_eq!(
            scan(&["--to=ken"]).unwrap_err(),
            "unknown thread-codex-worker option --to"
        );
    }

    #[test]
    fn a_value_is_shared_when_it_is_a_whole_element_and_copied_when_inline() {
        let large = "v".repeat(js_exact::string::SHARED_FROM);
        let element = JsString::from(large.as_str());
        let inline = JsString::from(format!("--token={large}").as_str());
        let flag = JsString::from("--log-file");
        let given = scan_options(&[&inline, &flag, &element]).unwrap();
        let token = given.value("token").unwrap().to_js_string();
        assert_eq!(token, element);
        let log_file = given.value("logFile").unwrap().to_js_string();
        assert_eq!(log_file.as_wtf8().as_ptr(), element.as_wtf8().as_ptr());
    }

    #[test]
    fn scanning_stops_at_the_first_error() {
        assert_eq!(
            scan(&["--fast=1", "--nope"]).unwrap_err(),
            "option --fast does not take a value"
        );
        assert_eq!(
            scan(&["--nope", "x"]).unwrap_err(),
            "unknown thread-codex-worker option --nope"
        );
        assert_eq!(scan(&["x", "--nope"]).unwrap_err(), "unexpected argument x");
        assert_eq!(
            scan(&["--cwd"]).unwrap_err(),
            "option --cwd requires a value"
        );
    }
}
