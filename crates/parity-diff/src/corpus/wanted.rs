//! Which cases of a case file a run wants before `--shard` cuts its
//! range: those of the `--op`s given (every op without one) and, with
//! `--rerun-failed`, those its report names. One predicate, so that the
//! plan's counts, the selection of a file held in memory and the survey
//! of a streamed one always agree.
//!
//! `--op` decides which cases a run counts, and so where `--shard`'s
//! ranges fall; the rerun only narrows what each range sends. So a shard
//! of a rerun takes the cases of that same shard of the run the report
//! was made by (the same corpus, `--op` and `--timings`), and a rerun of
//! a shard's report with that `--shard` takes that shard's failures.

use std::collections::BTreeSet;

use crate::corpus::identity::{CaseId, CaseKey};
use crate::corpus::rerun::{FileRerun, RerunFiles};

/// What a run wants of its corpus's cases.
#[derive(Debug, Clone, Copy)]
pub struct Wanted<'a> {
    /// `--op` (empty: every op).
    pub ops: &'a [String],
    /// `--rerun-failed`'s selection for this run's suite.
    pub rerun: Option<&'a RerunFiles>,
}

impl<'a> Wanted<'a> {
    /// Every case of these ops.
    pub fn ops(ops: &'a [String]) -> Self {
        Wanted { ops, rerun: None }
    }

    /// What is wanted of the file `name`; `None` when nothing is (a
    /// rerun whose report names nothing there).
    pub fn file(&self, name: &str) -> Option<FileWanted<'a>> {
        let keys = match self.rerun.map(|rerun| rerun.file(name)) {
            None => None,
            Some(None) => return None,
            Some(Some(FileRerun::Whole)) => None,
            Some(Some(FileRerun::Cases(keys))) => Some(keys),
        };
        Some(FileWanted {
            ops: self.ops,
            keys,
        })
    }
}

/// What a run wants of one file.
#[derive(Debug, Clone, Copy)]
pub struct FileWanted<'a> {
    /// `--op` (empty: every op).
    pub ops: &'a [String],
    /// Only the cases of these keys (`None`: every case of those ops).
    pub keys: Option<&'a BTreeSet<CaseKey>>,
}

impl<'a> FileWanted<'a> {
    /// Every case of these ops.
    pub fn ops(ops: &'a [String]) -> Self {
        FileWanted { ops, keys: None }
    }

    /// Whether every case is wanted (the file is sent as it stands).
    pub fn every(&self) -> bool {
        self.ops.is_empty() && self.keys.is_none()
    }

    /// Whether a case of this op counts (`--op`).
    pub fn by_op(&self, op: Option<&str>) -> bool {
        self.ops.is_empty() || op.is_some_and(|op| self.ops.iter().any(|wanted| wanted == op))
    }

    /// Whether a counted case is sent (`--rerun-failed`).
    pub fn by_key(&self, id: &CaseId) -> bool {
        self.keys.is_none_or(|keys| keys.contains(&id.key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn a_file_is_wanted_by_op_and_by_the_rerun_s_keys() {
        let ops = ["x".to_owned()];
        let id = |name: &str| CaseId {
            file: "a.json".into(),
            key: CaseKey::Name(name.into()),
        };
        let every = Wanted::ops(&[]).file("a.json").unwrap();
        assert!(every.every() && every.by_op(None) && every.by_key(&id("any")));
        let by_op = Wanted::ops(&ops).file("a.json").unwrap();
        assert!(!by_op.every());
        assert!(by_op.by_op(Some("x")) && !by_op.by_op(Some("y")) && !by_op.by_op(None));

        let rerun = RerunFiles {
            files: BTreeMap::from([
                (
                    "a.json".to_owned(),
                    FileRerun::Cases(BTreeSet::from([CaseKey::Name("bad".into())])),
                ),
                ("b.json".to_owned(), FileRerun::Whole),
            ]),
            ..RerunFiles::default()
        };
        let wanted = Wanted {
            ops: &[],
            rerun: Some(&rerun),
        };
        let a = wanted.file("a.json").unwrap();
        assert!(!a.every() && a.by_op(Some("y")));
        assert!(a.by_key(&id("bad")) && !a.by_key(&id("good")));
        assert!(wanted.file("b.json").unwrap().every());
        assert!(wanted.file("c.json").is_none());
    }
}
