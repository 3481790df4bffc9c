//! Which cases a run takes. `--filter` picked the files; `--op` picks the
//! cases of some ops; `--shard K/N` takes the K-th of N contiguous ranges
//! of what is selected, in corpus order, balanced by count (sizes differ
//! by one at most). A file whose cases straddle two shards is sent to
//! each shard's oracle as the array of that shard's cases, as `--op`
//! sends a file's selected cases. What holds no case (a file without
//! cases, or one that cannot be read) goes to exactly one shard: the one
//! whose range it stands in.
//!
//! Planning reads every selected case file once, one case at a time, to
//! count its cases, and hashes the case files and goldens, so that a
//! report records the corpus it ran ([`CorpusInfo`]) and `merge` can tell
//! shards of one corpus from shards of two.

use std::fs::File;
use std::ops::Range;

use super::case_stream::{hash_reader, ElementStream, Step};
use super::cases::{op_of, CaseFile};
use super::corpus::{Corpus, Entry as FileEntry, Shard};
use super::error::InputError;
use super::identity::fnv1a;
use super::report::{CorpusInfo, ShardInfo};
use crate::js::{self, TextMode};

/// What a run does with one file of the listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Another shard's: left out of this report.
    Skip,
    /// Every selected case (as without a shard).
    Whole,
    /// The selected cases from `from` to `to` (counted among the file's
    /// selected cases); `tail` when they end the file.
    Cases {
        /// The first.
        from: usize,
        /// One past the last.
        to: usize,
        /// Whether the file's last selected case is among them.
        tail: bool,
    },
}

/// The cases of one file that a run sends, by position in the case file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The positions, in order.
    pub positions: Vec<usize>,
    /// Whether what stands past the file's cases (golden elements
    /// without a case, results without one) is compared here, as a run
    /// without a selection compares it: every op is wanted and these
    /// cases end the file.
    pub tail: bool,
}

/// The plan of a run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Per file of the listing: where its selected cases start among all
    /// selected cases, and how many it has.
    files: Vec<Range<usize>>,
    shard: Option<Shard>,
    /// What reports record about the corpus.
    pub info: CorpusInfo,
}

/// A file's selected cases, counted as [`CaseFile::read`] splits them;
/// with its per-op counts, and the hash of its bytes (`None` when it
/// cannot be read).
fn count_cases(entry: &FileEntry, ops: &[String]) -> (usize, Vec<usize>, Option<u64>) {
    let mut per_op = vec![0; ops.len()];
    if entry.broken.is_some() {
        return (0, per_op, None);
    }
    let Ok(file) = File::open(&entry.case_path) else {
        return (0, per_op, None);
    };
    let mut stream = ElementStream::new(file);
    let mut count = 0;
    let array = loop {
        match stream.next_step() {
            Ok(Step::Element) if ops.is_empty() => count += 1,
            Ok(Step::Element) => {
                let op = js::parse(stream.element(), TextMode::LossyUtf8)
                    .ok()
                    .as_ref()
                    .and_then(op_of);
                if let Some(at) = op.and_then(|op| ops.iter().position(|o| *o == op)) {
                    per_op[at] += 1;
                    count += 1;
                }
            }
            Ok(Step::End) => break true,
            Ok(Step::NotArray) => break false,
            Err(_) => return (0, vec![0; ops.len()], None),
        }
    };
    let hash = stream.finish().ok();
    if !array {
        per_op.iter_mut().for_each(|n| *n = 0);
        count = 0;
    }
    (count, per_op, hash)
}

fn hex(hash: Option<u64>) -> String {
    hash.map_or_else(|| "unreadable".to_owned(), |hash| format!("{hash:016x}"))
}

impl Plan {
    /// Plans a run of `files` (the corpus's listing): counts the selected
    /// cases of each, and fingerprints the corpus. An op that matches no
    /// case is an input error, so that a typo in `--op` is not an empty
    /// pass.
    pub fn new(corpus: &Corpus, files: &[FileEntry], ops: &[String]) -> Result<Self, InputError> {
        let mut ranges = Vec::with_capacity(files.len());
        let mut op_counts = vec![0; ops.len()];
        let mut parts: Vec<String> = vec!["cases".into()];
        let mut total = 0;
        for entry in files {
            let (count, per_op, hash) = count_cases(entry, ops);
            ranges.push(total..total + count);
            total += count;
            op_counts
                .iter_mut()
                .zip(per_op)
                .for_each(|(n, more)| *n += more);
            parts.push(entry.name.clone());
            parts.push(hex(hash));
        }
        if let Some(at) = op_counts.iter().position(|&n| n == 0) {
            return Err(InputError::new(format!(
                "--op {} matches no case in the selected case files",
                ops[at]
            )));
        }
        let goldens = corpus.golden_files()?;
        parts.push("goldens".into());
        for golden in &goldens {
            let hash = match &golden.broken {
                Some(_) => None,
                None => File::open(&golden.golden_path)
                    .ok()
                    .and_then(|file| hash_reader(file).ok()),
            };
            parts.push(golden.name.clone());
            parts.push(hex(hash));
        }
        let bytes: Vec<&[u8]> = parts.iter().map(|part| part.as_bytes()).collect();
        let info = CorpusInfo {
            fingerprint: format!("{:016x}", fnv1a(&bytes)),
            case_files: files.iter().map(|entry| entry.name.clone()).collect(),
            golden_files: goldens.into_iter().map(|entry| entry.name).collect(),
            cases: total,
            case_dir: corpus.cases.display().to_string(),
            golden_dir: corpus.golden.display().to_string(),
            filter: corpus.filter.as_ref().map(|glob| glob.pattern()),
            ops: ops.to_vec(),
        };
        Ok(Plan {
            files: ranges,
            shard: corpus.shard,
            info,
        })
    }

    /// The shard's place, for the report.
    pub fn shard_info(&self) -> Option<ShardInfo> {
        self.shard.map(|shard| {
            let range = shard.range(self.info.cases);
            ShardInfo {
                index: shard.index,
                count: shard.count,
                from: range.start,
                to: range.end,
            }
        })
    }

    /// What the run does with the file at `position` in the listing.
    pub fn part(&self, position: usize) -> Part {
        let (Some(shard), Some(file)) = (self.shard, self.files.get(position)) else {
            return Part::Whole;
        };
        let total = self.info.cases;
        if file.is_empty() {
            return if shard.owns_gap(file.start, total) {
                Part::Whole
            } else {
                Part::Skip
            };
        }
        let range = shard.range(total);
        let (from, to) = (file.start.max(range.start), file.end.min(range.end));
        if from >= to {
            Part::Skip
        } else if from == file.start && to == file.end {
            Part::Whole
        } else {
            Part::Cases {
                from: from - file.start,
                to: to - file.start,
                tail: to == file.end,
            }
        }
    }
}

/// The cases of `cases` that a part takes; `None` for every case, sent
/// as the file stands.
pub fn select(part: Part, cases: &CaseFile, ops: &[String]) -> Option<Selection> {
    select_among(part, ops.is_empty(), || {
        if ops.is_empty() {
            (0..cases.items.len()).collect()
        } else {
            cases.select(ops)
        }
    })
}

/// [`select`], given whether every op is wanted and (when asked) the
/// positions of the file's selected cases.
pub fn select_among(
    part: Part,
    every_op: bool,
    selected: impl FnOnce() -> Vec<usize>,
) -> Option<Selection> {
    match part {
        Part::Skip => Some(Selection {
            positions: Vec::new(),
            tail: false,
        }),
        Part::Whole if every_op => None,
        Part::Whole => Some(Selection {
            positions: selected(),
            tail: false,
        }),
        Part::Cases { from, to, tail } => {
            // The file may have changed since it was planned: never
            // index past what it holds now.
            let mut positions = selected();
            let to = to.min(positions.len());
            positions.truncate(to);
            positions.drain(..from.min(to));
            Some(Selection {
                positions,
                tail: tail && every_op,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(dir: &std::path::Path, shard: Option<&str>) -> Corpus {
        Corpus {
            cases: dir.join("cases"),
            golden: dir.join("golden"),
            filter: None,
            shard: shard.map(|text| text.parse().unwrap()),
        }
    }

    fn plan(dir: &std::path::Path, shard: Option<&str>, ops: &[&str]) -> Plan {
        let corpus = corpus(dir, shard);
        let files = corpus.case_files().unwrap();
        let ops: Vec<String> = ops.iter().map(|op| op.to_string()).collect();
        Plan::new(&corpus, &files, &ops).unwrap()
    }

    fn layout() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [
            ("a.json", r#"[{"op":"x"},{"op":"y"},{"op":"x"}]"#),
            ("b.json", "[]"),
            ("c.json", "{}"),
            ("d.json", r#"[{"op":"x"}, {"op":"y"}]"#),
        ] {
            std::fs::create_dir_all(dir.path().join("cases")).unwrap();
            std::fs::create_dir_all(dir.path().join("golden")).unwrap();
            std::fs::write(dir.path().join("cases").join(name), text).unwrap();
            std::fs::write(dir.path().join("golden").join(name), "[]\n").unwrap();
        }
        dir
    }

    #[test]
    fn shards_take_ranges_of_cases_and_files_without_cases_go_to_one() {
        let dir = layout();
        let parts = |shard: &str, ops: &[&str]| -> Vec<Part> {
            let plan = plan(dir.path(), Some(shard), ops);
            (0..4).map(|at| plan.part(at)).collect()
        };
        let cases = |from, to, tail| Part::Cases { from, to, tail };
        // Five cases in three shards: 0..1, 1..3, 3..5.
        assert_eq!(
            parts("1/3", &[]),
            [cases(0, 1, false), Part::Skip, Part::Skip, Part::Skip]
        );
        assert_eq!(
            parts("2/3", &[]),
            [cases(1, 3, true), Part::Skip, Part::Skip, Part::Skip]
        );
        assert_eq!(
            parts("3/3", &[]),
            [Part::Skip, Part::Whole, Part::Whole, Part::Whole]
        );
        // Three x cases in two shards: 0..1, 1..3.
        assert_eq!(
            parts("1/2", &["x"]),
            [cases(0, 1, false), Part::Skip, Part::Skip, Part::Skip]
        );
        assert_eq!(
            parts("2/2", &["x"]),
            [cases(1, 2, true), Part::Whole, Part::Whole, Part::Whole]
        );
        let whole = plan(dir.path(), None, &[]);
        assert_eq!(whole.part(0), Part::Whole);
        assert_eq!(whole.shard_info(), None);
        assert_eq!(
            plan(dir.path(), Some("2/3"), &[]).shard_info(),
            Some(ShardInfo {
                index: 2,
                count: 3,
                from: 1,
                to: 3
            })
        );
    }

    #[test]
    fn a_part_selects_positions_in_the_case_file() {
        let file = CaseFile::read(
            "a.json",
            br#"[{"op":"x"},{"op":"y"},{"op":"x"},{"op":"x"}]"#.to_vec(),
        );
        let select = |part, ops: &[&str]| {
            let ops: Vec<String> = ops.iter().map(|op| op.to_string()).collect();
            super::select(part, &file, &ops)
        };
        let cases = |from, to, tail| Part::Cases { from, to, tail };
        let taken = |positions: &[usize], tail| {
            Some(Selection {
                positions: positions.to_vec(),
                tail,
            })
        };
        assert_eq!(select(Part::Whole, &[]), None);
        assert_eq!(select(Part::Whole, &["x"]), taken(&[0, 2, 3], false));
        assert_eq!(select(cases(1, 3, false), &[]), taken(&[1, 2], false));
        assert_eq!(select(cases(1, 3, true), &["x"]), taken(&[2, 3], false));
        assert_eq!(select(cases(2, 4, true), &[]), taken(&[2, 3], true));
        // A file that shrank since it was planned.
        assert_eq!(select(cases(3, 9, true), &["x"]), taken(&[], false));
        assert_eq!(select(Part::Skip, &[]), taken(&[], false));
    }

    #[test]
    fn the_corpus_is_counted_and_fingerprinted() {
        let dir = layout();
        let first = plan(dir.path(), None, &[]);
        assert_eq!(first.info.cases, 5);
        assert_eq!(
            first.info.case_files,
            ["a.json", "b.json", "c.json", "d.json"]
        );
        assert_eq!(first.info.golden_files, first.info.case_files);
        assert_eq!(plan(dir.path(), None, &["y"]).info.cases, 2);
        // The fingerprint does not depend on the selection, only on the
        // files' names and bytes.
        let sharded = plan(dir.path(), Some("2/2"), &["x"]);
        assert_eq!(sharded.info.fingerprint, first.info.fingerprint);
        assert_eq!(sharded.info.ops, ["x"]);
        std::fs::write(dir.path().join("golden/b.json"), "[ ]\n").unwrap();
        let changed = plan(dir.path(), None, &[]);
        assert_ne!(changed.info.fingerprint, first.info.fingerprint);
        std::fs::rename(
            dir.path().join("golden/b.json"),
            dir.path().join("golden/e.json"),
        )
        .unwrap();
        std::fs::write(dir.path().join("golden/e.json"), "[ ]\n").unwrap();
        assert_ne!(
            plan(dir.path(), None, &[]).info.fingerprint,
            changed.info.fingerprint
        );
        let corpus = corpus(dir.path(), None);
        let files = corpus.case_files().unwrap();
        let error = Plan::new(&corpus, &files, &["x".into(), "nope".into()]).unwrap_err();
        assert_eq!(
            error.message,
            "--op nope matches no case in the selected case files"
        );
    }
}
