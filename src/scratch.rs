//! Scratch directories and `$DIR` (contract 3).
//!
//! The ops that touch the file system (`preflight`, `parseWorkerArgs`) run
//! inside a fresh directory under the system temporary directory, which is
//! removed afterwards whatever happened: on success, on error, and while a
//! panic unwinds (it is a [`tempfile::TempDir`]). Every live directory is
//! also listed in a process-wide registry, so that a signal handler can
//! remove it when the process is interrupted mid-case.

use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::js::{JsString, Object, Value};
use crate::js_concat;
use crate::ops::threw;

/// The placeholder that stands for the scratch directory in cases and
/// results.
pub const DIR_PLACEHOLDER: &str = "$DIR";

/// The name prefix of every scratch directory.
pub const SCRATCH_PREFIX: &str = "linzumi-worker-spawn-oracle-";

/// The scratch directories alive right now.
static LIVE_DIRECTORIES: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// Removes every scratch directory still alive, and returns the registry
/// still locked so that no new one can be made before the caller ends the
/// process. A case may still be making directories inside one while it
/// goes, so removal is retried until the directory is gone.
fn remove_live_directories() -> std::sync::MutexGuard<'static, BTreeSet<PathBuf>> {
    let live = LIVE_DIRECTORIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for path in live.iter() {
        for _ in 0..100 {
            if std::fs::remove_dir_all(path).is_ok() || !path.exists() {
                break;
            }
        }
    }
    live
}

/// Makes SIGINT, SIGTERM and SIGHUP remove the live scratch directories
/// before the process ends (with status 128 + the signal's number), so an
/// interrupted batch leaves nothing behind.
pub fn remove_on_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("scratch-cleanup".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let _held = remove_live_directories();
                let name = match signal {
                    SIGINT => "SIGINT",
                    SIGTERM => "SIGTERM",
                    _ => "SIGHUP",
                };
                let _ = writeln!(
                    io::stderr(),
                    "worker-spawn-oracle: interrupted by {name}; scratch directories removed"
                );
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// One scratch directory: created fresh, removed on drop.
pub struct ScratchDir {
    directory: tempfile::TempDir,
    real_path: PathBuf,
    text: String,
}

impl ScratchDir {
    /// Creates a fresh directory under the system temporary directory and
    /// resolves it to its real path (`D`).
    pub fn create() -> io::Result<ScratchDir> {
        let directory = tempfile::Builder::new().prefix(SCRATCH_PREFIX).tempdir()?;
        LIVE_DIRECTORIES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(directory.path().to_path_buf());
        let real_path = std::fs::canonicalize(directory.path())?;
        let text = real_path.to_string_lossy().into_owned();
        Ok(ScratchDir {
            directory,
            real_path,
            text,
        })
    }

    /// The real path of the directory.
    pub fn path(&self) -> &Path {
        &self.real_path
    }

    /// The real path as text: what `$DIR` stands for.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        LIVE_DIRECTORIES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .remove(self.directory.path());
        // The TempDir field removes the directory itself when it drops.
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
/// creates the directory and its `mkdirs`, substitutes `$DIR` into the
/// case, runs `op` on it, normalizes the result back to `$DIR`, and removes
/// the directory.
pub fn in_scratch(case: &Value, op: impl FnOnce(&Value, &ScratchDir) -> Value) -> Value {
    let mkdirs = case.get("mkdirs");
    if let Some(refusal) = mkdirs_refusal(mkdirs) {
        return refusal;
    }
    let dir = match ScratchDir::create() {
        Ok(dir) => dir,
        Err(error) => {
            return threw(format!("scratch directory could not be created: {error}"));
        }
    };
    for entry in mkdirs.as_array().unwrap_or_default() {
        let entry = entry.as_js_string().expect("mkdirs entries were checked");
        if std::fs::create_dir_all(dir.path().join(js_path(entry))).is_err() {
            return threw(js_concat!("mkdirs entry could not be created: ", entry));
        }
    }
    let case = replace_in_strings(case, DIR_PLACEHOLDER, dir.text());
    let result = op(&case, &dir);
    replace_in_strings(&result, dir.text(), DIR_PLACEHOLDER)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::js::{parse, to_json, TextMode};

    fn value(json: &str) -> Value {
        parse(json.as_bytes(), TextMode::LossyUtf8).unwrap()
    }

    fn json(value: &Value) -> String {
        String::from_utf8(to_json(value)).unwrap()
    }

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
    fn the_directory_exists_during_the_op_and_is_gone_after() {
        let mut seen = PathBuf::new();
        let case = value(r#"{"mkdirs":["a/b","c"],"cwd":"$DIR/a/b"}"#);
        let result = in_scratch(&case, |case, dir| {
            seen = dir.path().to_path_buf();
            assert!(dir.path().join("a/b").is_dir());
            assert!(dir.path().join("c").is_dir());
            let cwd = case.get("cwd").as_js_string().unwrap().to_string();
            assert_eq!(cwd, format!("{}/a/b", dir.text()));
            Value::from(cwd.as_str())
        });
        assert_eq!(result, Value::from("$DIR/a/b"));
        assert!(!seen.as_os_str().is_empty() && !seen.exists());
    }

    #[test]
    fn a_panicking_op_still_removes_its_directory() {
        let mut seen = PathBuf::new();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            in_scratch(&value("{}"), |_, dir| {
                seen = dir.path().to_path_buf();
                panic!("op failed");
            })
        }));
        assert!(outcome.is_err());
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
