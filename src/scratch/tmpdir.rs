//! Where scratch directories go, and how a failure to make one is worded:
//! exactly as the reference's `mkdtempSync(path.join(os.tmpdir(),
//! prefix))` does it (contract 3).

use std::io;

use super::name::SCRATCH_PREFIX;

/// Node's `os.tmpdir()` on POSIX: the first non-empty of `TMPDIR`, `TMP`
/// and `TEMP`, else `/tmp`, without one trailing slash. (Contract 3 names
/// only `TMPDIR`; the reference reads the other two as well.)
pub fn node_tmpdir() -> String {
    let mut dir = ["TMPDIR", "TMP", "TEMP"]
        .iter()
        .filter_map(std::env::var_os)
        .find(|value| !value.is_empty())
        .map(|value| value.to_string_lossy().into_owned())
        .unwrap_or_else(|| "/tmp".to_owned());
    if dir.len() > 1 && dir.ends_with('/') {
        dir.pop();
    }
    dir
}

/// Node's `path.posix.normalize`: `.` and empty segments dropped, `..`
/// resolved lexically (kept above the start of a relative path), one
/// trailing slash kept.
pub fn normalize(path: &str) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let absolute = path.starts_with('/');
    let trailing = path.ends_with('/');
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => match segments.last() {
                Some(&last) if last != ".." => {
                    segments.pop();
                }
                _ if !absolute => segments.push(".."),
                _ => {}
            },
            _ => segments.push(segment),
        }
    }
    let mut normalized = segments.join("/");
    if normalized.is_empty() {
        return match (absolute, trailing) {
            (true, _) => "/".to_owned(),
            (false, true) => "./".to_owned(),
            (false, false) => ".".to_owned(),
        };
    }
    if trailing {
        normalized.push('/');
    }
    if absolute {
        normalized.insert(0, '/');
    }
    normalized
}

/// Node's `path.posix.join(first, second)`.
pub fn join(first: &str, second: &str) -> String {
    let joined = match (first.is_empty(), second.is_empty()) {
        (true, true) => return ".".to_owned(),
        (true, false) => second.to_owned(),
        (false, true) => first.to_owned(),
        (false, false) => format!("{first}/{second}"),
    };
    normalize(&joined)
}

/// The path every scratch directory's name is made from by appending six
/// characters: `path.join(os.tmpdir(), SCRATCH_PREFIX)`.
pub fn template() -> String {
    #[cfg(test)]
    if let Some(dir) = PRIVATE_TMPDIR.with(|dir| dir.borrow().clone()) {
        return join(&dir, SCRATCH_PREFIX);
    }
    join(&node_tmpdir(), SCRATCH_PREFIX)
}

#[cfg(test)]
thread_local! {
    /// Where this thread's scratch directories go instead, when a unit
    /// test says so (`with_private_tmpdir`, in mod.rs's tests).
    pub(super) static PRIVATE_TMPDIR: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The directory that [`template`] names its directories in.
pub fn template_parent(template: &str) -> &str {
    match template.rfind('/') {
        Some(0) => "/",
        Some(at) => &template[..at],
        None => ".",
    }
}

/// libuv's name and wording of an error number, as Node prints them in
/// `<CODE>: <text>, <syscall> '<path>'` (unmapped numbers are `UNKNOWN`).
pub fn libuv_error(error: &io::Error) -> (&'static str, &'static str) {
    match error.raw_os_error().unwrap_or(0) {
        libc::EPERM => ("EPERM", "operation not permitted"),
        libc::ENOENT => ("ENOENT", "no such file or directory"),
        libc::EIO => ("EIO", "i/o error"),
        libc::ENOMEM => ("ENOMEM", "not enough memory"),
        libc::EACCES => ("EACCES", "permission denied"),
        libc::EEXIST => ("EEXIST", "file already exists"),
        libc::ENOTDIR => ("ENOTDIR", "not a directory"),
        libc::EINVAL => ("EINVAL", "invalid argument"),
        libc::ENFILE => ("ENFILE", "file table overflow"),
        libc::EMFILE => ("EMFILE", "too many open files"),
        libc::ENOSPC => ("ENOSPC", "no space left on device"),
        libc::EROFS => ("EROFS", "read-only file system"),
        libc::EMLINK => ("EMLINK", "too many links"),
        libc::ENAMETOOLONG => ("ENAMETOOLONG", "name too long"),
        libc::ELOOP => ("ELOOP", "too many symbolic links encountered"),
        _ => ("UNKNOWN", "unknown error"),
    }
}

/// What the reference's case says when its scratch directory cannot be
/// made: `ENOENT: no such file or directory, mkdtemp '/x/linzumi-…-XXXXXX'`.
pub fn mkdtemp_message(error: &io::Error, template: &str) -> String {
    let (code, text) = libuv_error(error);
    format!("{code}: {text}, mkdtemp '{template}XXXXXX'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_normalize_as_node_does() {
        for (path, normalized) in [
            ("", "."),
            ("/", "/"),
            ("//", "/"),
            ("/nonexistent//x/", "/nonexistent/x/"),
            ("/a/./b/../c", "/a/c"),
            ("/../a", "/a"),
            ("a/../../b", "../b"),
            ("./", "./"),
            (".", "."),
            ("a/..", "."),
            ("a/../", "./"),
            ("../..", "../.."),
            ("x/../..", ".."),
        ] {
            assert_eq!(normalize(path), normalized, "{path:?}");
        }
    }

    #[test]
    fn joins_as_node_does() {
        assert_eq!(
            join("/nonexistent//x", SCRATCH_PREFIX),
            "/nonexistent/x/linzumi-worker-spawn-oracle-"
        );
        assert_eq!(join("/", "p-"), "/p-");
        assert_eq!(join(".", "p-"), "p-");
        assert_eq!(join("./a/../nonex", "p-"), "nonex/p-");
        assert_eq!(join("", "p-"), "p-");
        assert_eq!(join("/tmp/..", "p-"), "/p-");
    }

    #[test]
    fn the_template_parent_is_where_directories_go() {
        assert_eq!(template_parent("/tmp/p-"), "/tmp");
        assert_eq!(template_parent("/p-"), "/");
        assert_eq!(template_parent("p-"), ".");
        assert_eq!(template_parent("a/b/p-"), "a/b");
    }

    #[test]
    fn failures_are_worded_as_libuv_words_them() {
        let message = |errno| {
            mkdtemp_message(
                &io::Error::from_raw_os_error(errno),
                "/nonexistent/linzumi-worker-spawn-oracle-",
            )
        };
        assert_eq!(
            message(libc::ENOENT),
            "ENOENT: no such file or directory, mkdtemp '/nonexistent/linzumi-worker-spawn-oracle-XXXXXX'"
        );
        assert!(message(libc::ENOTDIR).starts_with("ENOTDIR: not a directory, mkdtemp '"));
        assert!(message(libc::EACCES).starts_with("EACCES: permission denied, "));
        assert!(message(libc::EROFS).starts_with("EROFS: read-only file system, "));
        assert!(message(libc::ENOSPC).starts_with("ENOSPC: no space left on device, "));
        assert!(message(libc::ELOOP).starts_with("ELOOP: too many symbolic links encountered, "));
        assert!(message(libc::ENAMETOOLONG).starts_with("ENAMETOOLONG: name too long, "));
        assert!(message(libc::EDQUOT).starts_with("UNKNOWN: unknown error, "));
    }
}
