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
//! Making, tracking and removing a directory's contents takes memory
//! linear in the size of its `mkdirs` (layout.rs) and a constant number
//! of open files at any depth (remove.rs). A directory is removed when
//! its thread ends, on drop while a panic unwinds, by [`remove_all`] or
//! [`ScratchScope::stop`] from another thread (a signal handler's, a
//! timeout's), and, when its process died without any of those, by the
//! next process that needs one (collect.rs).
//!
//! This layer knows nothing of ops: it answers with a [`ScratchError`],
//! which the ops turn into their results.

mod collect;
mod dir;
mod layout;
mod name;
mod path;
mod registry;
pub(crate) mod remove;
mod scope;
pub mod shape;
mod tmpdir;

pub use dir::{CreateError, ScratchDir};
pub use name::SCRATCH_PREFIX;
pub use path::js_path;
pub use scope::{remove_all, ScratchScope};
use shape::{with_shaped_scratch, ShapeError};

use js_exact::js_concat;
use js_exact::{JsString, Object, Value};

/// The placeholder that stands for the scratch directory in cases and
/// results.
pub const DIR_PLACEHOLDER: &str = "$DIR";

/// Why a case could not run in a scratch directory. Its
/// [`message`](Self::message) is the case's `threw` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScratchError {
    /// `mkdirs` is neither unset nor an array.
    NotAnArray,
    /// This entry (shown as `str(entry)`) would leave the directory.
    Escapes(JsString),
    /// This entry could not be made.
    NotCreated(JsString),
    /// The directory itself could not be made (or its scope was stopped).
    Unavailable(CreateError),
}

impl ScratchError {
    /// The message of the case's `{"threw":true,"message":…}`.
    pub fn message(&self) -> JsString {
        match self {
            ScratchError::NotAnArray => JsString::from("mkdirs must be an array"),
            ScratchError::Escapes(shown) => {
                js_concat!("mkdirs entry escapes the scratch directory: ", shown)
            }
            ScratchError::NotCreated(entry) => {
                js_concat!("mkdirs entry could not be created: ", entry)
            }
            ScratchError::Unavailable(error) => JsString::from(error.to_string().as_str()),
        }
    }
}

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
fn mkdirs_refusal(mkdirs: &Value) -> Option<ScratchError> {
    if mkdirs.is_unset() {
        return None;
    }
    let Some(entries) = mkdirs.as_array() else {
        return Some(ScratchError::NotAnArray);
    };
    let escaping = entries.iter().find(|entry| escapes_scratch(entry))?;
    Some(ScratchError::Escapes(escaping.to_js_string()))
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

/// [`replace_in_strings`] on a value it may consume: strings are
/// rewritten where they stand when `to` is no longer than `from` (a
/// result's scratch path put back to `$DIR`), so that a large string of a
/// result is not held twice.
pub fn replace_in_strings_owned(mut value: Value, from: &str, to: &str) -> Value {
    replace_in_place(&mut value, from, to);
    value
}

fn replace_in_place(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::String(text) => text.replace_all_in_place(from, to),
        Value::Array(items) => {
            for item in items {
                replace_in_place(item, from, to);
            }
        }
        Value::Object(object) => {
            let entries = std::mem::take(object).into_entries();
            let mut replaced = Object::with_capacity(entries.len());
            for (key, mut member) in entries {
                replace_in_place(&mut member, from, to);
                replaced.insert(key.replace_all(from, to), member);
            }
            *object = replaced;
        }
        _ => {}
    }
}

/// Runs an op in a scratch directory (contract 3): refuses bad `mkdirs`,
/// makes the case's directories, substitutes `$DIR` into the case, runs
/// `op` on it, and normalizes the result back to `$DIR`.
pub fn in_scratch(
    case: &Value,
    op: impl FnOnce(&Value, &ScratchDir) -> Value,
) -> Result<Value, ScratchError> {
    let mkdirs = case.get("mkdirs");
    if let Some(refusal) = mkdirs_refusal(mkdirs) {
        return Err(refusal);
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
        drop(case);
        replace_in_strings_owned(result, dir.text(), DIR_PLACEHOLDER)
    });
    outcome.map_err(|error| match error {
        ShapeError::Entry(entry) => ScratchError::NotCreated(entry),
        ShapeError::Scratch(error) => ScratchError::Unavailable(error),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};
    use std::path::PathBuf;

    /// Runs `work` with this thread's scratch directories made in `dir`
    /// instead of the system's temporary directory, so that unit tests leave
    /// nothing there and see only their own directories.
    fn with_private_tmpdir<T>(dir: &std::path::Path, work: impl FnOnce() -> T) -> T {
        let dir = dir.to_string_lossy().into_owned();
        tmpdir::PRIVATE_TMPDIR.with(|private| *private.borrow_mut() = Some(dir));
        let result = work();
        shape::release_thread_scratch();
        tmpdir::PRIVATE_TMPDIR.with(|private| *private.borrow_mut() = None);
        result
    }

    #[test]
    fn mkdirs_that_escape_are_refused_before_anything_is_made() {
        let refusal = |mkdirs: &str| {
            mkdirs_refusal(&value(mkdirs))
                .unwrap()
                .message()
                .to_string()
        };
        assert_eq!(refusal("{}"), "mkdirs must be an array");
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
                format!("mkdirs entry escapes the scratch directory: {shown}")
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
    fn results_are_put_back_in_place_as_substitution_would() {
        let result = value(
            r#"{"/tmp/s-1":1,"$DIR":2,"x":["/tmp/s-1/a/tmp/s-1",{"2":"/tmp/s-1","1":0}],"1":"/tmp/s-1"}"#,
        );
        let expected = replace_in_strings(&result, "/tmp/s-1", "$DIR");
        assert_eq!(
            json(&expected),
            r#"{"1":"$DIR","$DIR":2,"x":["$DIR/a$DIR",{"1":0,"2":"$DIR"}]}"#
        );
        let owned = replace_in_strings_owned(result, "/tmp/s-1", "$DIR");
        assert_eq!(json(&owned), json(&expected));
    }

    /// Runs `work` on a thread of its own whose scratch directories go in
    /// a private temporary directory, and returns what it returned and
    /// what that directory holds afterwards.
    fn on_private_thread<T: Send + 'static>(
        work: impl FnOnce() -> T + Send + 'static,
    ) -> (T, usize) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let result = std::thread::spawn(move || with_private_tmpdir(&dir, work))
            .join()
            .unwrap();
        (result, std::fs::read_dir(tmp.path()).unwrap().count())
    }

    #[test]
    fn the_directory_exists_during_the_op_and_is_gone_with_its_thread() {
        let (seen, left) = on_private_thread(|| {
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
            assert_eq!(result, Ok(Value::from("$DIR/a/b")));
            seen
        });
        assert!(!seen.as_os_str().is_empty() && !seen.exists());
        assert_eq!(left, 0);
    }

    #[test]
    fn a_thread_whose_op_panicked_still_removes_its_directory() {
        let (seen, left) = on_private_thread(|| {
            let mut seen = PathBuf::new();
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                in_scratch(&value("{}"), |_, dir| {
                    seen = dir.path().to_path_buf();
                    panic!("op failed");
                })
            }));
            assert!(outcome.is_err());
            seen
        });
        assert!(!seen.as_os_str().is_empty() && !seen.exists());
        assert_eq!(left, 0);
    }

    #[test]
    fn entries_that_cannot_be_created_are_reported() {
        let long = "n".repeat(300);
        let (result, left) = on_private_thread(move || {
            in_scratch(&value(&format!(r#"{{"mkdirs":["{long}"]}}"#)), |_, _| {
                Value::Null
            })
        });
        let long = "n".repeat(300);
        assert_eq!(
            result.unwrap_err().message().to_string(),
            format!("mkdirs entry could not be created: {long}")
        );
        assert_eq!(left, 0);
    }

    #[test]
    fn an_unusable_temporary_directory_is_worded_as_node_words_it() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        for (dir, code) in [
            (
                tmp.path().join("missing"),
                "ENOENT: no such file or directory",
            ),
            (file.clone(), "ENOTDIR: not a directory"),
        ] {
            let shown = dir.to_string_lossy().into_owned();
            let result = std::thread::spawn(move || {
                with_private_tmpdir(&dir, || in_scratch(&value("{}"), |_, _| Value::Null))
            })
            .join()
            .unwrap();
            assert_eq!(
                result.unwrap_err().message().to_string(),
                format!("{code}, mkdtemp '{shown}/{SCRATCH_PREFIX}XXXXXX'")
            );
        }
        let (result, _) =
            on_private_thread(|| in_scratch(&value(r#"{"mkdirs":7}"#), |_, _| Value::Null));
        assert_eq!(result, Err(ScratchError::NotAnArray), "refusals come first");
    }

    #[test]
    fn a_stopped_scope_removes_its_directories_and_makes_no_more() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let scope = ScratchScope::new();
        let runner = scope.clone();
        let (made_tx, made_rx) = std::sync::mpsc::channel();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            with_private_tmpdir(&dir, || {
                runner.enter(|| {
                    let mut made = PathBuf::new();
                    let first = in_scratch(&value(r#"{"mkdirs":["a/b"]}"#), |_, d| {
                        made = d.path().to_path_buf();
                        Value::Null
                    });
                    made_tx.send(first.map(|_| made)).unwrap();
                    go_rx.recv().unwrap();
                    in_scratch(&value(r#"{"mkdirs":["c"]}"#), |_, _| Value::Null)
                })
            })
        });
        let path = made_rx.recv().unwrap().unwrap();
        assert_eq!(scope.live(), 1);
        assert!(path.join("a/b").is_dir());
        scope.stop();
        assert!(!path.exists());
        assert!(scope.is_stopped());
        go_tx.send(()).unwrap();
        let second = worker.join().unwrap();
        assert_eq!(
            second.unwrap_err().message().to_string(),
            "scratch directories were removed: the run was stopped"
        );
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
}
