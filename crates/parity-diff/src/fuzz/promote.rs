//! `fuzz --promote DIR`: findings moved into the corpus. fuzz writes its
//! findings outside the cases directory (a finding has no golden, and a
//! case file without one fails the next `run`); promoting one moves it to
//! `regressions/` under the cases directory, where `bless` then writes its
//! golden from the reference. `fuzz --grow` stages a golden beside each
//! case file it writes (`DIR/golden/NAME`); that golden moves along, to
//! `regressions/` under the goldens directory, and `bless` then checks it
//! against the reference again.

use std::io;
use std::path::{Path, PathBuf};

use crate::base::error::InputError;
use crate::base::files;

/// Where promoted findings go, under the cases directory (and their
/// goldens, under the goldens directory).
pub const REGRESSIONS: &str = "regressions";

/// Where `fuzz --grow` stages the golden of a finding, under the findings
/// directory: `golden/NAME` for the finding `NAME`, for a person to
/// review with it.
pub const STAGED_GOLDEN: &str = "golden";

/// What promoting did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Promoted {
    /// The findings moved, as the corpus names them (`regressions/NAME`).
    pub moved: Vec<String>,
    /// Findings the corpus held already with the same bytes (removed from
    /// the findings).
    pub present: Vec<String>,
}

/// The findings of `findings` (its `*.json` files, in name order).
fn findings_in(findings: &Path) -> Result<Vec<PathBuf>, InputError> {
    let cannot = |error: io::Error| {
        InputError::new(format!(
            "cannot list the findings in {}: {error}",
            findings.display()
        ))
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(findings).map_err(cannot)? {
        let path = entry.map_err(cannot)?.path();
        if path.extension().is_some_and(|ext| ext == "json") && path.is_file() {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// One file to move: from `source` to `root/relative`, unless the same
/// bytes are there already (`present`).
struct Move<'a> {
    source: PathBuf,
    root: &'a Path,
    relative: PathBuf,
    bytes: Vec<u8>,
    present: bool,
}

/// The move of `source` to `root/relative`, checked: other bytes there
/// already stop the whole promotion (`what`: "the corpus", "the
/// goldens").
fn planned<'a>(
    source: PathBuf,
    root: &'a Path,
    relative: PathBuf,
    what: &str,
) -> Result<Move<'a>, InputError> {
    let bytes = crate::base::files::input::read(&source, crate::base::files::input::CORPUS_FILE)
        .map_err(|error| InputError::new(format!("cannot read {}: {error}", source.display())))?;
    let target = root.join(&relative);
    let present =
        match crate::base::files::input::read(&target, crate::base::files::input::CORPUS_FILE) {
            Ok(there) if there == bytes => true,
            Ok(_) => {
                return Err(InputError::new(format!(
                    "{} is in {what} already, with other bytes: nothing promoted",
                    target.display()
                )))
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => false,
            Err(error) => {
                return Err(InputError::new(format!(
                    "cannot read {}: {error}",
                    target.display()
                )))
            }
        };
    Ok(Move {
        source,
        root,
        relative,
        bytes,
        present,
    })
}

impl Move<'_> {
    fn make(&self) -> Result<(), InputError> {
        if !self.present {
            files::write_new(self.root, &self.relative, &self.bytes).map_err(|error| {
                InputError::new(format!(
                    "cannot write {}: {error}",
                    self.root.join(&self.relative).display()
                ))
            })?;
        }
        std::fs::remove_file(&self.source).map_err(|error| {
            InputError::new(format!("cannot remove {}: {error}", self.source.display()))
        })
    }
}

/// Moves every finding of `findings` to `cases/regressions/`, and the
/// golden `fuzz --grow` staged beside it (`findings/golden/NAME`), when
/// there is one, to `golden/regressions/`. A finding or golden whose
/// name the corpus has already with other bytes stops the move before
/// anything is moved; with the same bytes it is only removed from the
/// findings.
pub fn promote(findings: &Path, cases: &Path, golden: &Path) -> Result<Promoted, InputError> {
    let found = findings_in(findings)?;
    let mut plan = Vec::with_capacity(found.len());
    for path in found {
        let file_name = path.file_name().unwrap_or_default().to_owned();
        let name = format!("{REGRESSIONS}/{}", file_name.to_string_lossy());
        let relative = Path::new(REGRESSIONS).join(&file_name);
        let staged = findings.join(STAGED_GOLDEN).join(&file_name);
        let staged = match staged.is_file() {
            true => Some(planned(staged, golden, relative.clone(), "the goldens")?),
            false => None,
        };
        plan.push((name, planned(path, cases, relative, "the corpus")?, staged));
    }
    let mut promoted = Promoted::default();
    for (name, case, staged) in plan {
        case.make()?;
        if let Some(staged) = staged {
            staged.make()?;
        }
        if case.present {
            promoted.present.push(name);
        } else {
            promoted.moved.push(name);
        }
    }
    Ok(promoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_move_under_regressions_and_a_clash_moves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (findings, cases) = (dir.path().join("findings"), dir.path().join("cases"));
        let golden = dir.path().join("golden");
        std::fs::create_dir_all(&findings).unwrap();
        std::fs::create_dir_all(&cases).unwrap();
        std::fs::write(findings.join("b.json"), "[2]").unwrap();
        std::fs::write(findings.join("a.json"), "[1]").unwrap();
        std::fs::write(findings.join("notes.txt"), "kept").unwrap();
        let promoted = promote(&findings, &cases, &golden).unwrap();
        assert_eq!(promoted.moved, ["regressions/a.json", "regressions/b.json"]);
        assert_eq!(
            std::fs::read_to_string(cases.join("regressions/b.json")).unwrap(),
            "[2]"
        );
        assert!(!findings.join("a.json").exists());
        assert!(findings.join("notes.txt").exists());
        // The same finding again: only removed from the findings.
        std::fs::write(findings.join("a.json"), "[1]").unwrap();
        let promoted = promote(&findings, &cases, &golden).unwrap();
        assert_eq!(promoted.present, ["regressions/a.json"]);
        assert!(!findings.join("a.json").exists());
        // Another finding of that name: nothing moves.
        std::fs::write(findings.join("a.json"), "[9]").unwrap();
        std::fs::write(findings.join("c.json"), "[3]").unwrap();
        let error = promote(&findings, &cases, &golden).unwrap_err().message;
        assert!(
            error.ends_with("with other bytes: nothing promoted"),
            "{error}"
        );
        assert!(findings.join("c.json").exists());
        assert!(!cases.join("regressions/c.json").exists());
    }

    #[test]
    fn a_staged_golden_moves_with_its_finding_and_a_clash_moves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (findings, cases) = (dir.path().join("grown"), dir.path().join("cases"));
        let golden = dir.path().join("golden");
        std::fs::create_dir_all(findings.join(STAGED_GOLDEN)).unwrap();
        std::fs::write(findings.join("grow-x.json"), "[{}]").unwrap();
        std::fs::write(findings.join("golden/grow-x.json"), "[\n1\n]\n").unwrap();
        std::fs::write(findings.join("plain.json"), "[2]").unwrap();
        std::fs::create_dir_all(golden.join(REGRESSIONS)).unwrap();
        std::fs::write(golden.join("regressions/grow-x.json"), "[\n0\n]\n").unwrap();
        // The corpus has another golden of that name: nothing moves.
        let error = promote(&findings, &cases, &golden).unwrap_err().message;
        assert!(error.contains("is in the goldens already"), "{error}");
        assert!(findings.join("plain.json").exists());
        std::fs::remove_file(golden.join("regressions/grow-x.json")).unwrap();
        let promoted = promote(&findings, &cases, &golden).unwrap();
        assert_eq!(
            promoted.moved,
            ["regressions/grow-x.json", "regressions/plain.json"]
        );
        assert_eq!(
            std::fs::read_to_string(golden.join("regressions/grow-x.json")).unwrap(),
            "[\n1\n]\n"
        );
        assert!(!findings.join("golden/grow-x.json").exists());
        assert!(!golden.join("regressions/plain.json").exists());
    }
}
