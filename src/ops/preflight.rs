//! `preflight` (contract 4.13): whether a worker may start in a cwd, judged
//! on the real file system (inside a scratch directory, contract 3).
//!
//! Paths are JavaScript strings; they reach the file system through
//! `with_path`, as Node encodes them. Containment compares *real* paths
//! (symlinks, `.` and `..` resolved), so `$DIR/a/../b` is inside `$DIR/b`,
//! and `/a/bc` is not inside `/a/b`.

use std::fs;
use std::path::Path;

use super::argv::string_array;
use super::{outcome, threw};
use crate::scratch::in_scratch;
use js_exact::{js_concat, throw};
use js_exact::{JsResult, JsStr, JsString, Value};

/// What `stat` says about a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathKind {
    /// Nothing there, or it cannot be reached (`statSync` threw).
    Missing,
    /// A directory (after following symlinks).
    Directory,
    /// Anything else: a file, a device, a socket.
    Other,
}

/// Runs `op` on a JavaScript string as a file system path, encoded as
/// Node encodes it (lone surrogates as U+FFFD, as
/// [`js_path`](crate::scratch::js_path) does): borrowed when the string is
/// UTF-8 already, so a long path is not copied on its way to the kernel.
fn with_path<T>(path: JsStr<'_>, op: impl FnOnce(&Path) -> T) -> T {
    op(Path::new(&*path.to_utf8_lossy()))
}

/// `statSync(path)`, reduced to what preflight asks of it. Every failure
/// (no entry, a file in the middle of the path, a NUL byte, a name too
/// long) counts as missing, as the reference's `catch` does.
pub fn path_kind<'a>(path: impl Into<JsStr<'a>>) -> PathKind {
    match with_path(path.into(), |path| fs::metadata(path)) {
        Ok(metadata) if metadata.is_dir() => PathKind::Directory,
        Ok(_) => PathKind::Other,
        Err(_) => PathKind::Missing,
    }
}

/// `realpathSync.native(path)`, or `None` when it fails.
pub fn real_path(path: &JsString) -> Option<JsString> {
    // realpath fails on a path with a segment the kernel cannot take
    // (PATH_MAX bytes or more: the prefix it looks up through that
    // segment is too long), and would first copy the path twice over
    // (std's C string, glibc's own buffer), so a huge path is not handed
    // to it. WTF-8 and the UTF-8 Node passes have the same lengths.
    if path
        .as_wtf8()
        .split(|&byte| byte == b'/')
        .any(|segment| segment.len() >= libc::PATH_MAX as usize)
    {
        return None;
    }
    let real = with_path(path.as_js_str(), |path| fs::canonicalize(path)).ok()?;
    Some(JsString::from(real.to_string_lossy().into_owned()))
}

/// Whether the allowed directory whose real path is `real_allowed`
/// contains the real cwd: the root contains everything, any other
/// directory itself and what lies below it (a whole segment: `/a/b` does
/// not contain `/a/bc`).
pub fn real_path_contains(real_allowed: &JsString, real_cwd: &JsString) -> bool {
    real_allowed.eq_str("/")
        || real_cwd == real_allowed
        || real_cwd.starts_with_js(&js_concat!(real_allowed, "/"))
}

/// Whether an allowed-cwd entry contains the real cwd. An entry that is
/// not absolute, or whose real path cannot be found, contains nothing.
fn allowed_cwd_contains(allowed: &JsString, real_cwd: &JsString) -> bool {
    if !allowed.starts_with("/") {
        return false;
    }
    real_path(allowed).is_some_and(|real_allowed| real_path_contains(&real_allowed, real_cwd))
}

/// `threadWorkerStartPreflightFailure({cwd, allowedCwds})`: the sentence
/// saying why a worker may not start in `cwd`, or `None` when it may. An
/// unset `allowedCwds` allows every cwd.
pub fn preflight_failure(cwd: &Value, allowed_cwds: &Value) -> JsResult<Option<JsString>> {
    let Some(cwd) = cwd.as_js_string() else {
        throw!("preflight cwd must be a string");
    };
    let allowed = if allowed_cwds.is_unset() {
        Vec::new()
    } else {
        let Some(allowed) = string_array(allowed_cwds) else {
            throw!("preflight allowedCwds must be an array of strings");
        };
        allowed
    };
    if !cwd.starts_with("/") {
        return Ok(Some(js_concat!(
            "worker cwd must be an absolute path: ",
            cwd
        )));
    }
    match path_kind(cwd) {
        PathKind::Missing => return Ok(Some(js_concat!("worker cwd does not exist: ", cwd))),
        PathKind::Other => return Ok(Some(js_concat!("worker cwd is not a directory: ", cwd))),
        PathKind::Directory => {}
    }
    if allowed.is_empty() {
        return Ok(None);
    }
    // The reference falls back to the cwd as written when realpath fails
    // after stat succeeded (a directory that cannot be searched, say).
    let real_cwd = real_path(cwd).unwrap_or_else(|| cwd.clone());
    if allowed
        .iter()
        .any(|entry| allowed_cwd_contains(entry, &real_cwd))
    {
        return Ok(None);
    }
    // The entries are listed straight into the sentence: each is copied
    // once.
    let mut sentence = js_concat!("worker cwd ", cwd, " is not inside an allowed cwd (");
    sentence.reserve(allowed.iter().map(|entry| entry.as_wtf8().len() + 2).sum());
    for (at, entry) in allowed.iter().enumerate() {
        if at > 0 {
            sentence.push_str(", ");
        }
        sentence.push_js(entry);
    }
    sentence.push_str(")");
    Ok(Some(sentence))
}

/// The `preflight` op: [`preflight_failure`] in a scratch directory.
pub fn preflight_op(case: &Value) -> Value {
    in_scratch(case, |case, _dir| {
        outcome(preflight_failure(case.get("cwd"), case.get("allowedCwds")).map(Value::from))
    })
    .unwrap_or_else(|error| threw(error.message()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};

    /// Runs the op on a case written as JSON and prints its result.
    fn run(case: &str) -> String {
        json(&preflight_op(&value(case)))
    }

    fn js(text: &str) -> JsString {
        JsString::from(text)
    }

    #[test]
    fn containment_is_by_whole_segments() {
        assert!(real_path_contains(&js("/a/b"), &js("/a/b")));
        assert!(real_path_contains(&js("/a/b"), &js("/a/b/c")));
        assert!(!real_path_contains(&js("/a/b"), &js("/a/bc")));
        assert!(!real_path_contains(&js("/a/b/c"), &js("/a/b")));
        assert!(real_path_contains(&js("/"), &js("/anything/at/all")));
        assert!(real_path_contains(&js("/"), &js("/")));
    }

    #[test]
    fn the_inputs_must_be_strings() {
        assert_eq!(
            run(r#"{"cwd":7}"#),
            r#"{"threw":true,"message":"preflight cwd must be a string"}"#
        );
        assert_eq!(
            run(r#"{}"#),
            r#"{"threw":true,"message":"preflight cwd must be a string"}"#
        );
        for allowed in [r#""/""#, r#"["/",1]"#, r#"{}"#, "true"] {
            assert_eq!(
                run(&format!(r#"{{"cwd":"/","allowedCwds":{allowed}}}"#)),
                r#"{"threw":true,"message":"preflight allowedCwds must be an array of strings"}"#,
                "{allowed}"
            );
        }
        // The type checks come before the path checks.
        assert_eq!(
            run(r#"{"cwd":"relative","allowedCwds":[null]}"#),
            r#"{"threw":true,"message":"preflight allowedCwds must be an array of strings"}"#
        );
    }

    #[test]
    fn the_cwd_must_be_an_existing_absolute_directory() {
        assert_eq!(
            run(r#"{"cwd":"rel/dir"}"#),
            r#"{"defined":true,"value":"worker cwd must be an absolute path: rel/dir"}"#
        );
        assert_eq!(
            run(r#"{"cwd":""}"#),
            r#"{"defined":true,"value":"worker cwd must be an absolute path: "}"#
        );
        assert_eq!(
            run(r#"{"cwd":"$DIR/missing"}"#),
            r#"{"defined":true,"value":"worker cwd does not exist: $DIR/missing"}"#
        );
        assert_eq!(
            run(r#"{"cwd":"/dev/null"}"#),
            r#"{"defined":true,"value":"worker cwd is not a directory: /dev/null"}"#
        );
        assert_eq!(
            run(r#"{"cwd":"/dev/null/below"}"#),
            r#"{"defined":true,"value":"worker cwd does not exist: /dev/null/below"}"#
        );
        assert_eq!(
            run(r#"{"mkdirs":["a"],"cwd":"$DIR/a"}"#),
            r#"{"defined":false}"#
        );
    }

    #[test]
    fn a_segment_too_long_for_the_kernel_has_no_real_path() {
        for length in [4095, 4096, 100_000] {
            let path = JsString::from(format!("/{}/..", "x".repeat(length)).as_str());
            assert_eq!(real_path(&path), None, "{length}");
        }
        // Long paths of short segments are still resolved.
        let long = JsString::from(format!("/{}", "./".repeat(3000)).as_str());
        assert_eq!(real_path(&long), Some(JsString::from("/")));
    }

    #[test]
    fn allowed_cwds_contain_by_real_path() {
        let case = |cwd: &str, allowed: &str| {
            run(&format!(
                r#"{{"mkdirs":["a/b","a/bc","c"],"cwd":"{cwd}","allowedCwds":{allowed}}}"#
            ))
        };
        assert_eq!(case("$DIR/a/b", r#"["$DIR/a"]"#), r#"{"defined":false}"#);
        assert_eq!(case("$DIR/a/b", r#"[]"#), r#"{"defined":false}"#);
        assert_eq!(case("$DIR/c", r#"["/"]"#), r#"{"defined":false}"#);
        assert_eq!(
            case("$DIR/a/../c", r#"["$DIR/c/"]"#),
            r#"{"defined":false}"#
        );
        assert_eq!(
            case("$DIR/a/bc", r#"["$DIR/a/b","relative","$DIR/gone"]"#),
            r#"{"defined":true,"value":"worker cwd $DIR/a/bc is not inside an allowed cwd ($DIR/a/b, relative, $DIR/gone)"}"#
        );
        assert_eq!(
            case("$DIR/a", r#"["$DIR/a/b"]"#),
            r#"{"defined":true,"value":"worker cwd $DIR/a is not inside an allowed cwd ($DIR/a/b)"}"#
        );
    }
}
