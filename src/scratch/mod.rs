//! Scratch directories and `$DIR` (contract 3).
//!
//! The ops that touch the file system (`preflight`, `parseWorkerArgs`) run
//! inside a scratch directory under the system temporary directory, named
//! `linzumi-worker-spawn-oracle-…` and known by its real path. Each case
//! finds in it exactly the directories of its own `mkdirs`, as in a fresh
//! one (see [`shape`] for why one directory per thread is reshaped rather
//! than one made per case), sees `$DIR` in its strings replaced by that
//! path, and gets results with the path turned back into `$DIR`.
//!
//! The directory is removed when its thread ends, on drop while a panic
//! unwinds (it is a [`tempfile::TempDir`]), and by the signal handler of
//! [`remove_on_signals`] when the process is interrupted.

mod dir;
pub mod shape;

use std::path::PathBuf;

pub use dir::{remove_on_signals, ScratchDir};
use shape::{with_shaped_scratch, ShapeError};

use crate::js::{JsString, Object, Value};
use crate::js_concat;
use crate::ops::threw;

/// The placeholder that stands for the scratch directory in cases and
/// results.
pub const DIR_PLACEHOLDER: &str = "$DIR";

/// The name prefix of every scratch directory.
pub const SCRATCH_PREFIX: &str = "linzumi-worker-spawn-oracle-";

/// Whether a `mkdirs` entry would leave the scratch directory: not a
/// string, empty, absolute, or with a `..` segment.
fn escapes_scratch(entry: &Value) -> bool {
    match entry.as_js_string() {
        None => true,
        Some(path) => {
            path.is_empty()
                || path.starts_with("/")
                || path.split("/").iter().any(|s| s.eq_str(".."))
        }
    }
}

/// The refusal a case's `mkdirs` earns before anything is created.
fn mkdirs_refusal(mkdirs: &Value) -> Option<Value> {
    if mkdirs.is_unset() {
        return None;
    }
    let Some(entries) = mkdirs.as_array() else {
        return Some(threw("mkdirs must be an array"));
    };
    let escaping = entries.iter().find(|entry| escapes_scratch(entry))?;
    Some(threw(js_concat!(
        "mkdirs entry escapes the scratch directory: ",
        escaping.to_js_string()
    )))
}

/// The file-system path a JavaScript string names, as Node encodes it
/// (lone surrogates become U+FFFD).
pub fn js_path(text: &JsString) -> PathBuf {
    PathBuf::from(text.to_utf8_lossy().into_owned())
}

/// Every string of a value (object keys included, at any depth) with each
/// occurrence of `from` replaced by `to`. Keys that become equal merge:
/// the later value at the first key's position.
pub fn replace_in_strings(value: &Value, from: &str, to: &str) -> Value {
    match value {
        Value::String(text) => Value::String(text.replace_all(from, to)),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| replace_in_strings(item, from, to))
                .collect(),
        ),
        Value::Object(object) => {
            let mut replaced = Object::with_capacity(object.len());
            for (key, member) in object.iter() {
                replaced.insert(
                    key.replace_all(from, to),
                    replace_in_strings(member, from, to),
                );
            }
            Value::Object(replaced)
        }
        other => other.clone(),
    }
}

/// Runs an op in a scratch directory (contract 3): refuses bad `mkdirs`,
/// makes the case's directories, substitutes `$DIR` into the case, runs
/// `op` on it, and normalizes the result back to `$DIR`.
pub fn in_scratch(case: &Value, op: impl FnOnce(&Value, &ScratchDir) -> Value) -> Value {
    let mkdirs = case.get("mkdirs");
    if let Some(refusal) = mkdirs_refusal(mkdirs) {
        return refusal;
    }
    let entries: Vec<&JsString> = mkdirs
        .as_array()
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_js_string)
        .collect();
    let outcome = with_shaped_scratch(&entries, |dir| {
        let case = replace_in_strings(case, DIR_PLACEHOLDER, dir.text());
        let result = op(&case, dir);
        replace_in_strings(&result, dir.text(), DIR_PLACEHOLDER)
    });
    match outcome {
        Ok(result) => result,
        Err(ShapeError::Entry(entry)) => {
            threw(js_concat!("mkdirs entry could not be created: ", entry))
        }
        Err(ShapeError::Scratch(error)) => {
            threw(format!("scratch directory could not be created: {error}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::js::testing::{json, value};

    #[test]
    fn mkdirs_that_escape_are_refused_before_anything_is_made() {
        let refusal = |mkdirs: &str| json(&mkdirs_refusal(&value(mkdirs)).unwrap());
        assert_eq!(
            refusal("{}"),
            r#"{"threw":true,"message":"mkdirs must be an array"}"#
        );
        for (mkdirs, shown) in [
            (r#"["a",""]"#, ""),
            (r#"["/etc"]"#, "/etc"),
            (r#"["a/../../x"]"#, "a/../../x"),
            (r#"["ok",null]"#, "null"),
            (r#"[[1,2]]"#, "1,2"),
            (r#"[{}]"#, "[object Object]"),
        ] {
            assert_eq!(
                refusal(mkdirs),
                format!(
                    r#"{{"threw":true,"message":"mkdirs entry escapes the scratch directory: {shown}"}}"#
                )
            );
        }
        assert!(mkdirs_refusal(&value(r#"["a/b", "..a", "a..", "./x"]"#)).is_none());
        assert!(mkdirs_refusal(&Value::Null).is_none());
    }

    #[test]
    fn substitution_reaches_keys_and_merges_them() {
        let case = value(r#"{"$DIR":1,"/d":2,"x":["$DIR/a$DIR"],"1":"$DIR"}"#);
        let substituted = replace_in_strings(&case, "$DIR", "/d");
        assert_eq!(json(&substituted), r#"{"1":"/d","/d":2,"x":["/d/a/d"]}"#);
    }

    #[test]
    fn the_directory_exists_during_the_op_and_is_gone_with_its_thread() {
        let seen = std::thread::spawn(|| {
            let mut seen = PathBuf::new();
            let case = value(r#"{"mkdirs":["a/b","c"],"cwd":"$DIR/a/b"}"#);
            let result = in_scratch(&case, |case, dir| {
                seen = dir.path().to_path_buf();
                assert!(dir.path().join("a/b").is_dir());
                assert!(dir.path().join("c").is_dir());
                let cwd = case.get("cwd").as_js_string().unwrap().to_string();
                assert_eq!(cwd, format!("{}/a/b", dir.text()));
                assert!(dir.text().contains(SCRATCH_PREFIX));
                Value::from(cwd.as_str())
            });
            assert_eq!(result, Value::from("$DIR/a/b"));
            seen
        })
        .join()
        .unwrap();
        assert!(!seen.as_os_str().is_empty() && !seen.exists());
    }

    #[test]
    fn a_thread_whose_op_panicked_still_removes_its_directory() {
        let seen = std::thread::spawn(|| {
            let mut seen = PathBuf::new();
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                in_scratch(&value("{}"), |_, dir| {
                    seen = dir.path().to_path_buf();
                    panic!("op failed");
                })
            }));
            assert!(outcome.is_err());
            seen
        })
        .join()
        .unwrap();
        assert!(!seen.as_os_str().is_empty() && !seen.exists());
    }

    #[test]
    fn entries_that_cannot_be_created_are_reported() {
        let long = "n".repeat(300);
        let result = in_scratch(&value(&format!(r#"{{"mkdirs":["{long}"]}}"#)), |_, _| {
            Value::Null
        });
        assert_eq!(
            json(&result),
            format!(r#"{{"threw":true,"message":"mkdirs entry could not be created: {long}"}}"#)
        );
    }
}
