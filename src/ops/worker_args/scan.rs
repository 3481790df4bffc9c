//! `scanOptions`: the worker argv after its command, read into what was
//! given, option by option, before any value is checked.

use std::collections::{HashMap, HashSet};

use crate::js::{JsResult, JsString};
use crate::throw;

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

/// What the command line gave, by field: the last value of an ordinary
/// option, every value of an accumulating one, and the flags present.
#[derive(Debug, Default)]
pub(super) struct Given {
    pub(super) values: HashMap<&'static str, JsString>,
    pub(super) lists: HashMap<&'static str, Vec<JsString>>,
    pub(super) flags: HashSet<&'static str>,
}

impl Given {
    pub(super) fn value(&self, field: &str) -> Option<&JsString> {
        self.values.get(field)
    }

    pub(super) fn list(&self, field: &str) -> &[JsString] {
        self.lists.get(field).map(Vec::as_slice).unwrap_or_default()
    }
}

fn lookup(table: &[(&'static str, &'static str)], name: &JsString) -> Option<&'static str> {
    table
        .iter()
        .find(|(option, _)| name.eq_str(option))
        .map(|&(_, field)| field)
}

/// `scanOptions`: the elements after the command, left to right. An
/// element is `--name` or `--name=value`; a value option without an inline
/// value takes the next element, whatever it is.
pub(super) fn scan_options(elements: &[&JsString]) -> JsResult<Given> {
    let mut given = Given::default();
    let mut index = 0;
    while index < elements.len() {
        let element = elements[index];
        if !element.starts_with("--") {
            throw!("unexpected argument ", element);
        }
        let parts = element.split("=");
        let name = parts.first().cloned().unwrap_or_default();
        let inline_value = (parts.len() > 1)
            .then(|| element.slice_utf16(name.len_utf16() + 1, element.len_utf16()));
        if let Some(field) = lookup(&VALUE_OPTIONS, &name) {
            let value = match inline_value {
                Some(value) => value,
                None => {
                    index += 1;
                    match elements.get(index) {
                        Some(&next) => next.clone(),
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
        } else if let Some(field) = lookup(&FLAG_OPTIONS, &name) {
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

    fn scan(elements: &[&str]) -> Result<Given, String> {
        let elements: Vec<JsString> = elements.iter().map(|&e| JsString::from(e)).collect();
        let refs: Vec<&JsString> = elements.iter().collect();
        scan_options(&refs).map_err(|error| error.message.to_string())
    }

    #[test]
    fn every_value_option_and_flag_is_known() {
        for (option, field) in VALUE_OPTIONS {
            let given = scan(&[option, "v"]).unwrap();
            let accumulating = ACCUMULATING_OPTIONS.contains(&option);
            assert_eq!(given.value(field).is_some(), !accumulating, "{option}");
            assert_eq!(
                given.list(field).len(),
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
        assert_eq!(given.value("token"), Some(&JsString::from("--fast")));
        assert_eq!(given.value("workspaceSlug"), Some(&JsString::from("")));
        assert!(given.flags.is_empty());
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
