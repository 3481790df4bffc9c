//! The kept cases staged for review: one case file per op in the staging
//! directory, named as `fuzz` names its findings (a slug and a hash of
//! the file: `grow-sum-3fa2c91b0d7e.json`, so a second session's
//! file never clashes with the first's, here or once promoted), each case
//! named for what it reaches; and beside it, under `golden/`, its golden
//! from the reference, which `fuzz --promote` moves along with it.

use std::path::{Path, PathBuf};

use super::Kept;
use crate::base::files;
use crate::exec::oracle::{Oracle, OracleOptions};
use crate::fuzz::promote::STAGED_GOLDEN;
use crate::fuzz::regression::{self, FileStatus, RegressionFile};
use crate::judge::golden::{golden_from_output, split_elements};

use super::probe::failure_text;

/// One op's staged file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staged {
    /// The op.
    pub op: String,
    /// How many cases it holds.
    pub cases: usize,
    /// The case file, and what became of it.
    pub file: RegressionFile,
    /// Its golden, when it was written (or was there already).
    pub golden: Option<PathBuf>,
    /// Why the golden is missing.
    pub golden_error: Option<String>,
}

/// The kept cases by op, in the order each op was first kept.
fn by_op(kept: &[Kept]) -> Vec<(&str, Vec<&Kept>)> {
    let mut ops: Vec<(&str, Vec<&Kept>)> = Vec::new();
    for case in kept {
        match ops.iter_mut().find(|(op, _)| *op == case.op) {
            Some((_, cases)) => cases.push(case),
            None => ops.push((&case.op, vec![case])),
        }
    }
    ops
}

/// The golden of a case file: the reference's results for it, one per
/// case.
fn golden_of(
    contents: &[u8],
    cases: usize,
    reference: &str,
    limits: OracleOptions,
) -> Result<Vec<u8>, String> {
    let output = Oracle::command(reference)
        .run(contents, limits)
        .map_err(|failure| format!("the reference failed on it: {}", failure_text(&failure)))?;
    let results = split_elements(&output)
        .map_err(|error| format!("the reference printed no result array: {}", error.reason))?
        .len();
    if results != cases {
        return Err(format!(
            "the reference gave {results} results for its {cases} cases"
        ));
    }
    golden_from_output(&output).map_err(|error| error.reason)
}

/// Writes each op's case file into `dir` (never over a file, never
/// through a link) and its golden into `dir/golden/`.
pub fn stage(dir: &Path, kept: &[Kept], reference: &str, limits: OracleOptions) -> Vec<Staged> {
    by_op(kept)
        .into_iter()
        .map(|(op, cases)| {
            let named: Vec<_> = cases
                .iter()
                .map(|kept| (kept.case.clone(), kept.name.clone()))
                .collect();
            let contents = regression::named_case_file(&named);
            let file = regression::write(dir, &format!("grow {op}"), &contents, &contents);
            let (mut golden, mut golden_error) = (None, None);
            if matches!(file.status, FileStatus::Written | FileStatus::Unchanged) {
                let name = file.path.file_name().unwrap_or_default();
                let relative = Path::new(STAGED_GOLDEN).join(name);
                let written =
                    golden_of(&contents, cases.len(), reference, limits).and_then(|bytes| {
                        match files::write_new(dir, &relative, &bytes) {
                            Ok(()) => Ok(()),
                            Err(_)
                                if files::read_no_follow(&dir.join(&relative)).ok()
                                    == Some(bytes) =>
                            {
                                Ok(())
                            }
                            Err(error) => Err(format!(
                                "cannot write {}: {error}",
                                dir.join(&relative).display()
                            )),
                        }
                    });
                match written {
                    Ok(()) => golden = Some(dir.join(&relative)),
                    Err(why) => golden_error = Some(why),
                }
            }
            Staged {
                op: op.to_owned(),
                cases: cases.len(),
                file,
                golden,
                golden_error,
            }
        })
        .collect()
}
