//! Regression case files for `fuzz --out`: one per divergence signature,
//! named so that the same minimized case always gets the same name.
//!
//! The name is the signature as a slug and a short hash of the
//! minimized case's bytes: `round-value-3fa2c91b0d7e.json`. Run
//! the same seed twice and the second run finds the files already there:
//! an identical file is left alone. A file of that name that holds the
//! same case under another `name` (found with another seed) is left
//! alone as well, and so is a different file (edited by hand), which the
//! report points out. Files
//! are created with [`files::write_new`], which never follows a symbolic
//! link: one named like a regression file is reported and not written
//! through.

use std::path::{Path, PathBuf};

use super::tree::Node;
use crate::base::files;
use crate::corpus::identity::short_hash;
use js_exact::{parse, to_json, JsString, Object, TextMode, Value};

/// What became of a regression file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileStatus {
    /// Written now.
    Written,
    /// The same bytes were there already.
    Unchanged,
    /// The same case was there already, named otherwise (another seed).
    SameCase,
    /// A different file of that name is there; it was left alone.
    Differs,
    /// It could not be written; why.
    Failed(String),
}

impl FileStatus {
    /// The JSON report's name for it.
    pub fn as_str(&self) -> &'static str {
        match self {
            FileStatus::Written => "written",
            FileStatus::Unchanged => "unchanged",
            FileStatus::SameCase => "same-case",
            FileStatus::Differs => "differs",
            FileStatus::Failed(_) => "failed",
        }
    }
}

/// A regression file and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegressionFile {
    /// Where it is, or would be.
    pub path: PathBuf,
    /// Whether it was written.
    pub status: FileStatus,
}

/// The signature as a file name part: letters and digits, runs of
/// anything else as one `-`.
pub fn slug(signature: &str) -> String {
    let slug = signature
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() {
        "divergence".into()
    } else {
        slug
    }
}

/// The most characters of a signature's slug a file name keeps. A file
/// name has at most 255 bytes on most file systems, and an op's name
/// (in the signature) has no bound: a 600-character op once made the
/// finding's file fail with "File name too long", and the finding was
/// lost. With the hashes, a name stays under 140 bytes.
pub const SLUG_CHARS: usize = 100;

/// The file name of a regression case: the signature's slug and a hash
/// of the case's bytes. A slug longer than [`SLUG_CHARS`] is cut there,
/// and a hash of the whole signature follows it, so that two long
/// signatures that start alike still name two files.
pub fn file_name(signature: &str, case_bytes: &[u8]) -> String {
    let slug = slug(signature);
    // The slug is ASCII: a cut by bytes is a cut by characters.
    if slug.len() > SLUG_CHARS {
        let cut = slug[..SLUG_CHARS].trim_end_matches('-');
        return format!(
            "{cut}-{}-{}.json",
            short_hash(signature.as_bytes()),
            short_hash(case_bytes)
        );
    }
    format!("{slug}-{}.json", short_hash(case_bytes))
}

/// A case with a `name` member first (replacing any it had).
fn named(case: &Node, name: &str) -> Node {
    let mut members = vec![(JsString::from("name"), Node::str(name))];
    if let Node::Object(fields) = case {
        members.extend(fields.iter().filter(|(k, _)| !k.eq_str("name")).cloned());
        Node::Object(members)
    } else {
        case.clone()
    }
}

/// A case file holding `cases`, each given `name` (numbered when there
/// are several), one case per line.
pub fn case_file(cases: &[Node], name: &str) -> Vec<u8> {
    let named: Vec<(Node, String)> = cases
        .iter()
        .enumerate()
        .map(|(at, case)| {
            let name = if cases.len() == 1 {
                name.to_owned()
            } else {
                format!("{name} ({} of {})", at + 1, cases.len())
            };
            (case.clone(), name)
        })
        .collect();
    named_case_file(&named)
}

/// A case file holding each case with its own name, one case per line.
pub fn named_case_file(cases: &[(Node, String)]) -> Vec<u8> {
    let mut text = b"[\n".to_vec();
    for (at, (case, name)) in cases.iter().enumerate() {
        if at > 0 {
            text.extend_from_slice(b",\n");
        }
        named(case, name).write(&mut text);
    }
    text.extend_from_slice(b"\n]\n");
    text
}

/// Writes the case file for a signature into `dir`, never over an
/// existing file and never through a link. `key` is the bytes the name's
/// hash is taken of (the minimized case).
pub fn write(dir: &Path, signature: &str, key: &[u8], contents: &[u8]) -> RegressionFile {
    let name = file_name(signature, key);
    let path = dir.join(&name);
    let status = match files::write_new(dir, Path::new(&name), contents) {
        Ok(()) => FileStatus::Written,
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            match files::read_no_follow(&path) {
                Ok(existing) if existing == contents => FileStatus::Unchanged,
                Ok(existing) if same_cases(&existing, contents) => FileStatus::SameCase,
                Ok(_) => FileStatus::Differs,
                // A link, or unreadable: what write_new said is clearer.
                Err(_) => FileStatus::Failed(error.to_string()),
            }
        }
        Err(error) => FileStatus::Failed(format!("cannot write {}: {error}", path.display())),
    };
    RegressionFile { path, status }
}

/// The cases of a case file without their `name` members, as JSON.
fn unnamed(bytes: &[u8]) -> Option<Vec<u8>> {
    let cases = parse(bytes, TextMode::LossyUtf8).ok()?;
    let cases = cases
        .as_array()?
        .iter()
        .map(|case| match case {
            Value::Object(members) => {
                let mut kept = Object::new();
                for (key, value) in members.iter().filter(|(k, _)| !k.eq_str("name")) {
                    kept.insert(key.clone(), value.clone());
                }
                Value::Object(kept)
            }
            other => other.clone(),
        })
        .collect();
    Some(to_json(&Value::Array(cases)))
}

/// Whether two case files hold the same cases, names aside.
fn same_cases(a: &[u8], b: &[u8]) -> bool {
    matches!((unnamed(a), unnamed(b)), (Some(a), Some(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_slugs_and_hashes() {
        assert_eq!(slug("sum /value/*"), "sum-value");
        assert_eq!(slug("x (bytes)"), "x-bytes");
        assert_eq!(slug("op crash (left)"), "op-crash-left");
        assert_eq!(slug("//"), "divergence");
        let name = file_name("op /a", b"{\"op\":\"op\"}");
        assert_eq!(
            name,
            format!("op-a-{}.json", short_hash(b"{\"op\":\"op\"}"))
        );
        assert_ne!(name, file_name("op /a", b"{\"op\":\"op\",\"a\":1}"));
        // A long op's signature: the name is bounded, and two that start
        // alike name two files.
        let long = format!("{} different at /v", "o".repeat(600));
        let other = format!("{}x different at /v", "o".repeat(600));
        let name = file_name(&long, b"{}");
        assert!(name.len() < 140, "{name}");
        assert!(name.starts_with(&"o".repeat(SLUG_CHARS)), "{name}");
        assert_ne!(name, file_name(&other, b"{}"));
        assert_eq!(name, file_name(&long, b"{}"));
    }

    #[test]
    fn case_files_name_every_case() {
        let case = Node::object([("op", Node::str("x")), ("name", Node::str("old"))]);
        assert_eq!(
            String::from_utf8(case_file(std::slice::from_ref(&case), "n")).unwrap(),
            "[\n{\"name\":\"n\",\"op\":\"x\"}\n]\n"
        );
        assert_eq!(
            String::from_utf8(case_file(&[case, Node::int(1)], "n")).unwrap(),
            "[\n{\"name\":\"n (1 of 2)\",\"op\":\"x\"},\n1\n]\n"
        );
        let other = Node::object([("op", Node::str("y"))]);
        assert_eq!(
            String::from_utf8(named_case_file(&[(other, "y: b".into())])).unwrap(),
            "[\n{\"name\":\"y: b\",\"op\":\"y\"}\n]\n"
        );
    }

    #[test]
    fn existing_files_are_kept_and_links_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let first = write(dir.path(), "op /a", b"k", b"[1]\n");
        assert_eq!(first.status, FileStatus::Written);
        assert_eq!(
            write(dir.path(), "op /a", b"k", b"[1]\n").status,
            FileStatus::Unchanged
        );
        assert_eq!(
            write(dir.path(), "op /a", b"k", b"[2]\n").status,
            FileStatus::Differs
        );
        let case = Node::object([("op", Node::str("x"))]);
        let seed_1 = case_file(std::slice::from_ref(&case), "fuzz seed 1: x");
        let seed_2 = case_file(std::slice::from_ref(&case), "fuzz seed 2: x");
        assert_eq!(
            write(dir.path(), "x", b"k", &seed_1).status,
            FileStatus::Written
        );
        assert_eq!(
            write(dir.path(), "x", b"k", &seed_2).status,
            FileStatus::SameCase
        );
        assert_eq!(
            std::fs::read(dir.path().join(file_name("x", b"k"))).unwrap(),
            seed_1
        );
        assert_eq!(std::fs::read(&first.path).unwrap(), b"[1]\n");

        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("escaped.json");
        let link = dir.path().join(file_name("op /b", b"k"));
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let written = write(dir.path(), "op /b", b"k", b"[3]\n");
        assert_eq!(
            written.status,
            FileStatus::Failed(format!(
                "{} is a symbolic link; it is not followed",
                link.display()
            ))
        );
        assert!(!target.exists());
    }
}
