//! A corpus: case files under one directory, goldens under another at the
//! same relative paths.
//!
//! Files are `*.json` at any depth, named by their relative path (`/`
//! between components; bytes that are not UTF-8 escaped, so that two
//! names that differ only there stay two: [`relative_name`]) and sorted
//! by name, in byte order. `--filter` keeps the names that match a
//! [`Glob`]; goldens without a case file (orphans) are filtered the same
//! way, in a list of their own. `--shard K/N` splits the selected cases,
//! not the files ([`Shard::range`]; [`plan`](mod@plan) applies it).
//!
//! Symbolic links are followed when listing and reading: a linked
//! directory of cases is part of the corpus. Writes never follow one
//! ([`files`](crate::base::files)).
//!
//! An entry that cannot be listed (a dangling symbolic link, a link that
//! loops) is listed anyway, with what is wrong with it: it is that file's
//! input error, and the rest of the corpus still runs.
//!
//! The corpus stage, what a run reads before any oracle runs: [`glob`](crate::base::glob)
//! (`--filter`), [`cases`] (a case file's cases, lines, ops and
//! identities), [`plan`](mod@plan) (which cases a run sends: `--op`,
//! `--shard`), [`op_runs`] (the ops of a file's cases as the plan counted
//! them, in runs), [`wanted`] (the one predicate of `--op` and
//! `--rerun-failed`), [`rerun`] (a report's failures, by identity),
//! [`balance`] (where shards' ranges fall), [`timings`] (the oracle times
//! `--record-timings` writes and `--timings` reads), [`identity`] (stable
//! case identities) and [`lint`] (what a case file must not hold).

pub mod balance;
pub mod cases;
pub mod config;
pub mod head;
pub mod identity;
pub mod info;
pub mod lint;
pub mod op_runs;
pub mod plan;
mod plan_info;
pub mod rerun;
pub mod timings;
pub mod wanted;

use std::path::{Path, PathBuf};
use std::str::FromStr;

use walkdir::WalkDir;

use crate::base::error::InputError;
use crate::base::glob::Glob;
use crate::corpus::identity::relative_name;

/// `--shard K/N`: the K-th of N shards, K counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1 to N.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

impl Shard {
    /// The positions, among `total` selected cases, that this shard
    /// takes: the K-th of N contiguous ranges whose sizes differ by one
    /// at most.
    pub fn range(&self, total: usize) -> std::ops::Range<usize> {
        let start = |k: usize| ((k as u128 * total as u128) / self.count as u128) as usize;
        start(self.index - 1)..start(self.index)
    }

    /// Whether this shard takes what stands before the case at `cursor`
    /// (from 0, among `total`) and holds no case itself, such as a file
    /// without cases: the last shard whose range starts at or before it,
    /// so that exactly one shard does, in corpus order.
    pub fn owns_gap(&self, cursor: usize, total: usize) -> bool {
        let start = |k: usize| ((k as u128 * total as u128) / self.count as u128) as usize;
        let owner = (1..=self.count)
            .rev()
            .find(|&k| start(k - 1) <= cursor)
            .unwrap_or(1);
        owner == self.index
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("shard must be K/N with 1 <= K <= N, not {text:?}");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// `name` beside the cases directory `cases` (`cases/../NAME`): where
/// the goldens, the ledger and fuzz's findings go by default.
pub fn beside(cases: &Path, name: &str) -> PathBuf {
    let cases = cases.components().as_path();
    match cases.parent() {
        Some(parent) if cases.file_name().is_some() => parent.join(name),
        _ => cases.join("..").join(name),
    }
}

/// Where a corpus lives and which part of it is wanted.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The case files' directory.
    pub cases: PathBuf,
    /// The goldens' directory.
    pub golden: PathBuf,
    /// `--filter`.
    pub filter: Option<Glob>,
    /// `--shard`.
    pub shard: Option<Shard>,
}

/// One file of the corpus, by its relative path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The relative path, `/` between components, as identities and
    /// reports name it (bytes that are not UTF-8 escaped:
    /// [`name_of_bytes`](crate::corpus::identity::name_of_bytes)).
    pub name: String,
    /// The relative path itself.
    pub relative: PathBuf,
    /// The case file.
    pub case_path: PathBuf,
    /// Its golden.
    pub golden_path: PathBuf,
    /// Why the entry could not be listed (a dangling or looping link).
    pub broken: Option<String>,
}

/// A listed file: its name, its relative path, and what is wrong with it.
type Listed = (String, PathBuf, Option<String>);

/// The relative paths of the `*.json` files under `dir`, sorted. An entry
/// that cannot be followed is listed with the reason; only a directory
/// that cannot be read at all fails the listing.
fn json_files(what: &str, dir: &Path) -> Result<Vec<Listed>, InputError> {
    let mut found = Vec::new();
    for entry in WalkDir::new(dir).follow_links(true) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                let broken = error.path().filter(|path| *path != dir).and_then(|path| {
                    path.symlink_metadata().ok()?;
                    Some(path.to_path_buf())
                });
                let Some(path) = broken else {
                    return Err(InputError::new(format!(
                        "cannot list the {what} directory {}: {error}",
                        dir.display()
                    )));
                };
                let looping = error.loop_ancestor().is_some();
                if !looping && path.extension().is_none_or(|ext| ext != "json") {
                    continue;
                }
                let why = if looping {
                    "a symbolic link that loops back to a directory above it".to_owned()
                } else if path.metadata().is_err() {
                    match std::fs::metadata(&path) {
                        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                            "a symbolic link that loops".to_owned()
                        }
                        _ => "a symbolic link to nothing".to_owned(),
                    }
                } else {
                    error.to_string()
                };
                let relative = path.strip_prefix(dir).unwrap_or(&path).to_path_buf();
                let message = format!("{} is {why}", path.display());
                found.push((relative_name(&relative), relative, Some(message)));
                continue;
            }
        };
        let is_json = entry.path().extension().is_some_and(|ext| ext == "json");
        if entry.file_type().is_dir() || !is_json {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .to_path_buf();
        // A `.json` that is a device, a FIFO or a socket (or a link to
        // one: `a.json -> /dev/null`) is listed broken, never dropped.
        let broken = entry
            .metadata()
            .ok()
            .and_then(|metadata| crate::base::files::input::not_regular(&metadata))
            .map(|kind| format!("{} is {kind}, not a regular file", entry.path().display()));
        found.push((relative_name(&relative), relative, broken));
    }
    found.sort();
    Ok(found)
}

/// An input error unless `dir` is a directory.
pub fn require_dir(what: &str, dir: &Path) -> Result<(), InputError> {
    if !dir.exists() {
        Err(InputError::new(format!(
            "the {what} directory {} does not exist",
            dir.display()
        )))
    } else if !dir.is_dir() {
        Err(InputError::new(format!(
            "the {what} directory {} is not a directory",
            dir.display()
        )))
    } else {
        Ok(())
    }
}

impl Corpus {
    fn select(&self, files: Vec<Listed>) -> Vec<Entry> {
        files
            .into_iter()
            .filter(|(name, ..)| self.filter.as_ref().is_none_or(|glob| glob.matches(name)))
            .map(|(name, relative, broken)| Entry {
                name,
                case_path: self.cases.join(&relative),
                golden_path: self.golden.join(&relative),
                relative,
                broken,
            })
            .collect()
    }

    /// Whether this is the whole corpus (no filter, no shard).
    pub fn is_whole(&self) -> bool {
        self.filter.is_none() && self.shard.is_none()
    }

    /// The case files wanted, in order. No case file at all, or none that
    /// the filter matches, is an input error (a typo must not pass); an
    /// empty shard is not.
    pub fn case_files(&self) -> Result<Vec<Entry>, InputError> {
        require_dir("cases", &self.cases)?;
        let all = json_files("cases", &self.cases)?;
        if all.is_empty() {
            return Err(InputError::new(format!(
                "no case files (*.json) under {}",
                self.cases.display()
            )));
        }
        if let Some(glob) = &self.filter {
            if !all.iter().any(|(name, ..)| glob.matches(name)) {
                return Err(InputError::new("--filter matches no case file"));
            }
        }
        Ok(self.select(all))
    }

    /// Every golden the filter wants, in order (what a report records).
    /// A golden directory that does not exist has none.
    pub fn golden_files(&self) -> Result<Vec<Entry>, InputError> {
        if !self.golden.exists() {
            return Ok(Vec::new());
        }
        require_dir("golden", &self.golden)?;
        Ok(self.select(json_files("golden", &self.golden)?))
    }

    /// The goldens wanted whose case file is gone, in order. A golden
    /// directory that does not exist has none.
    pub fn orphans(&self) -> Result<Vec<Entry>, InputError> {
        if !self.golden.exists() {
            return Ok(Vec::new());
        }
        require_dir("golden", &self.golden)?;
        let goldens = json_files("golden", &self.golden)?;
        let orphans = goldens
            .into_iter()
            .filter(|(_, relative, _)| {
                let case = self.cases.join(relative);
                !case.is_file() && case.symlink_metadata().is_err()
            })
            .collect();
        Ok(self.select(orphans))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_cases_into_balanced_contiguous_ranges() {
        let shard = |text: &str| text.parse::<Shard>().unwrap();
        let ranges: Vec<_> = (1..=3).map(|k| shard(&format!("{k}/3")).range(8)).collect();
        assert_eq!(ranges, [0..2, 2..5, 5..8]);
        let ranges: Vec<_> = (1..=4).map(|k| shard(&format!("{k}/4")).range(2)).collect();
        assert_eq!(ranges, [0..0, 0..1, 1..1, 1..2]);
        assert_eq!(shard("1/1").range(5), 0..5);
        // Whatever holds no case goes to exactly one shard, in order.
        for cursor in 0..=2 {
            let owners: Vec<usize> = (1..=4)
                .filter(|&k| shard(&format!("{k}/4")).owns_gap(cursor, 2))
                .collect();
            assert_eq!(owners, [[2], [4], [4]][cursor], "{cursor}");
        }
        assert!(shard("3/3").owns_gap(0, 0));
        assert!(!shard("1/3").owns_gap(0, 0));
        // Sizes differ by one at most, however large.
        let total = usize::MAX / 2;
        let sizes: Vec<usize> = (1..=7)
            .map(|k| shard(&format!("{k}/7")).range(total).len())
            .collect();
        assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        for bad in ["0/3", "4/3", "1", "a/b", "1/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(shard("1/1"), Shard { index: 1, count: 1 });
    }

    #[test]
    fn listing_filters_and_shards() {
        let dir = tempfile::tempdir().unwrap();
        let cases = dir.path().join("cases");
        let golden = dir.path().join("golden");
        for path in ["b.json", "a.json", "sub/c.json", "notes.md", "sub/d.json"] {
            let path = cases.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "[]").unwrap();
        }
        for path in ["a.json", "gone.json", "sub/old.json"] {
            let path = golden.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "[]\n").unwrap();
        }
        let mut corpus = Corpus {
            cases,
            golden,
            filter: None,
            shard: None,
        };
        let names = |entries: Vec<Entry>| entries.into_iter().map(|e| e.name).collect::<Vec<_>>();
        assert_eq!(
            names(corpus.case_files().unwrap()),
            ["a.json", "b.json", "sub/c.json", "sub/d.json"]
        );
        assert_eq!(
            names(corpus.orphans().unwrap()),
            ["gone.json", "sub/old.json"]
        );
        assert_eq!(
            names(corpus.golden_files().unwrap()),
            ["a.json", "gone.json", "sub/old.json"]
        );
        // A shard splits cases, not the listing.
        corpus.shard = Some("2/2".parse().unwrap());
        assert_eq!(names(corpus.case_files().unwrap()).len(), 4);
        corpus.shard = None;
        corpus.filter = Some(Glob::new("sub/*").unwrap());
        assert_eq!(
            names(corpus.case_files().unwrap()),
            ["sub/c.json", "sub/d.json"]
        );
        assert_eq!(names(corpus.golden_files().unwrap()), ["sub/old.json"]);
        corpus.filter = Some(Glob::new("nothing*").unwrap());
        assert!(corpus.case_files().is_err());
    }

    #[test]
    fn broken_links_are_listed_with_what_is_wrong() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let cases = dir.path().join("cases");
        std::fs::create_dir_all(&cases).unwrap();
        std::fs::write(cases.join("a.json"), "[]").unwrap();
        symlink("nowhere.json", cases.join("gone.json")).unwrap();
        symlink("x.json", cases.join("y.json")).unwrap();
        symlink("y.json", cases.join("x.json")).unwrap();
        symlink(".", cases.join("loop")).unwrap();
        symlink("nowhere.md", cases.join("notes.md")).unwrap();
        let corpus = Corpus {
            cases: cases.clone(),
            golden: dir.path().join("golden"),
            filter: None,
            shard: None,
        };
        let listed: Vec<(String, Option<String>)> = corpus
            .case_files()
            .unwrap()
            .into_iter()
            .map(|e| (e.name, e.broken))
            .collect();
        let shown = |name: &str, why: &str| {
            (
                name.to_owned(),
                Some(format!("{} is {why}", cases.join(name).display())),
            )
        };
        assert_eq!(
            listed,
            [
                ("a.json".to_owned(), None),
                shown("gone.json", "a symbolic link to nothing"),
                shown(
                    "loop",
                    "a symbolic link that loops back to a directory above it"
                ),
                shown("x.json", "a symbolic link that loops"),
                shown("y.json", "a symbolic link that loops"),
            ]
        );
    }
}
