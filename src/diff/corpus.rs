//! A corpus: case files under one directory, goldens under another at the
//! same relative paths; and `parity-diff run`, which feeds every case file
//! to an oracle and compares what it prints with the golden.
//!
//! Files are `*.json` at any depth, sorted by relative path (byte order,
//! `/` between components). `--filter` keeps the paths that match a
//! [`Glob`]; `--shard K/N` then keeps the files whose position in that
//! list, counted from 0, is K−1 modulo N. Goldens without a case file
//! (orphans) are filtered and sharded the same way, in a list of their own.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use walkdir::WalkDir;

use super::arrays::{self, compare_arrays, InputError};
use super::glob::Glob;
use super::oracle::{Oracle, OracleOptions};
use super::redact::Secrets;
use super::report::{Problem, ReportOptions, Reporter, Totals};

/// `--shard K/N`: the K-th of N shards, K counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1 to N.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

impl Shard {
    /// Whether the file at `position` (from 0) in the sorted list is ours.
    pub fn takes(&self, position: usize) -> bool {
        position % self.count == self.index - 1
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
    /// The relative path, `/` between components, as reports show it.
    pub name: String,
    /// The case file.
    pub case_path: PathBuf,
    /// Its golden.
    pub golden_path: PathBuf,
}

/// The relative paths of the `*.json` files under `dir`, sorted.
fn json_files(what: &str, dir: &Path) -> Result<Vec<(String, PathBuf)>, InputError> {
    let mut found = Vec::new();
    for entry in WalkDir::new(dir).follow_links(true) {
        let entry = entry.map_err(|error| {
            InputError::new(format!(
                "cannot list the {what} directory {}: {error}",
                dir.display()
            ))
        })?;
        let is_json = entry.path().extension().is_some_and(|ext| ext == "json");
        if !entry.file_type().is_file() || !is_json {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .to_path_buf();
        let name = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        found.push((name, relative));
    }
    found.sort();
    Ok(found)
}

fn require_dir(what: &str, dir: &Path) -> Result<(), InputError> {
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
    fn select(&self, files: Vec<(String, PathBuf)>) -> Vec<Entry> {
        files
            .into_iter()
            .filter(|(name, _)| self.filter.as_ref().is_none_or(|glob| glob.matches(name)))
            .enumerate()
            .filter(|(position, _)| self.shard.is_none_or(|shard| shard.takes(*position)))
            .map(|(_, (name, relative))| Entry {
                name,
                case_path: self.cases.join(&relative),
                golden_path: self.golden.join(&relative),
            })
            .collect()
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
            if !all.iter().any(|(name, _)| glob.matches(name)) {
                return Err(InputError::new("--filter matches no case file"));
            }
        }
        Ok(self.select(all))
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
            .filter(|(_, relative)| !self.cases.join(relative).is_file())
            .collect();
        Ok(self.select(orphans))
    }
}

/// The `run` command's inputs.
#[derive(Debug, Clone)]
pub struct RunArgs {
    /// Who produces the results.
    pub oracle: Oracle,
    /// The corpus.
    pub corpus: Corpus,
    /// How long one oracle run may take, and how much it may print.
    pub limits: OracleOptions,
    /// How to report.
    pub report: ReportOptions,
}

/// Runs `run`: every wanted case file through the oracle, each result
/// array against its golden, then the orphaned goldens. Never stops at a
/// failing file.
pub fn run_command(args: &RunArgs, out: impl std::io::Write) -> Result<Totals, InputError> {
    let corpus = &args.corpus;
    let files = corpus.case_files()?;
    require_dir("golden", &corpus.golden)?;
    let orphans = corpus.orphans()?;
    let mut reporter = Reporter::new(out, args.report);
    for entry in &files {
        reporter.begin_file(Some(&entry.name))?;
        if let Err(problem) = run_file(&mut reporter, entry, &args.oracle, args.limits)? {
            reporter.problem(&entry.name, problem)?;
        }
        reporter.end_file()?;
    }
    for orphan in &orphans {
        reporter.begin_file(Some(&orphan.name))?;
        reporter.problem(
            &orphan.name,
            Problem::OrphanGolden {
                golden: orphan.golden_path.clone(),
            },
        )?;
        reporter.end_file()?;
    }
    Ok(reporter.finish()?)
}

fn error(message: impl Into<String>, skipped: usize) -> Problem {
    Problem::Error {
        message: message.into(),
        stderr: None,
        skipped,
    }
}

/// One file: `Ok(Err(problem))` when it could not be compared.
fn run_file<W: std::io::Write>(
    reporter: &mut Reporter<W>,
    entry: &Entry,
    oracle: &Oracle,
    limits: OracleOptions,
) -> std::io::Result<Result<(), Problem>> {
    if !entry.golden_path.exists() {
        return Ok(Err(Problem::MissingGolden {
            golden: entry.golden_path.clone(),
        }));
    }
    let golden_bytes = match arrays::read_file("golden", &entry.golden_path) {
        Ok(bytes) => bytes,
        Err(failure) => return Ok(Err(error(failure.message, 0))),
    };
    let golden_name = entry.golden_path.display().to_string();
    let golden = match arrays::elements("golden", &golden_name, &golden_bytes) {
        Ok(elements) => elements,
        Err(failure) => return Ok(Err(error(failure.message, 0))),
    };
    let case_bytes = match arrays::read_file("case file", &entry.case_path) {
        Ok(bytes) => bytes,
        Err(failure) => return Ok(Err(error(failure.message, golden.len()))),
    };
    let output = match oracle.run(&case_bytes, limits) {
        Ok(output) => output,
        Err(failure) => {
            // An oracle may echo its input on stderr, tokens included.
            let secrets = Secrets::of_case_file(&case_bytes);
            return Ok(Err(Problem::Error {
                message: failure.message,
                stderr: failure.stderr.map(|text| secrets.mask_quoted_text(&text)),
                skipped: golden.len(),
            }));
        }
    };
    let actual = match arrays::elements("oracle output for", &entry.name, &output) {
        Ok(elements) => elements,
        Err(failure) => return Ok(Err(error(failure.message, golden.len()))),
    };
    // Labels only: an oracle that accepted the file may know better.
    let cases = arrays::cases(&entry.name, &case_bytes).unwrap_or_default();
    compare_arrays(reporter, &golden, &actual, &cases)?;
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards() {
        let shard: Shard = "2/3".parse().unwrap();
        let taken: Vec<usize> = (0..8).filter(|&p| shard.takes(p)).collect();
        assert_eq!(taken, [1, 4, 7]);
        for bad in ["0/3", "4/3", "1", "a/b", "1/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(
            "1/1".parse::<Shard>().unwrap(),
            Shard { index: 1, count: 1 }
        );
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
        corpus.shard = Some("2/2".parse().unwrap());
        assert_eq!(
            names(corpus.case_files().unwrap()),
            ["b.json", "sub/d.json"]
        );
        assert_eq!(names(corpus.orphans().unwrap()), ["sub/old.json"]);
        corpus.shard = None;
        corpus.filter = Some(Glob::new("sub/*").unwrap());
        assert_eq!(
            names(corpus.case_files().unwrap()),
            ["sub/c.json", "sub/d.json"]
        );
        corpus.filter = Some(Glob::new("nothing*").unwrap());
        assert!(corpus.case_files().is_err());
    }
}
