//! What the corpus reaches before a session grows it, and the scripts
//! that name what a kept case reaches.
//!
//! Each case file runs as one batch: a session needs only what the corpus
//! reaches as a whole (`coverage` runs case by case to say which case
//! reaches what), so this costs one Node start-up per file. The staged
//! case files of earlier sessions count as part of the corpus (a second
//! session with the same seed keeps nothing again). The corpus's
//! never-run spans are made as `coverage` makes them, from these runs:
//! a never-run span is the same however the cases were split into
//! processes.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::probe::{Probe, Prober};
use crate::base::error::InputError;
use crate::corpus::Corpus;
use crate::coverage::analysis::{Location, Script};
use crate::coverage::collect::{Collected, RunCoverage};
use crate::coverage::measure::{script_of, some_coverage};
use crate::coverage::novelty::Reached;
use crate::coverage::report::preview;
use crate::coverage::source::{path_of_url, Source};
use crate::exec::pool;

/// A never-run span of the corpus: its script's URL, start and end.
pub type SpanAt = (String, u32, u32);

/// The corpus, measured.
#[derive(Debug)]
pub struct Baseline {
    /// What its files reached.
    pub reached: Reached,
    /// Its never-run spans, in script and source order.
    pub never_run: Vec<SpanAt>,
    /// How many case files ran.
    pub files: usize,
    /// Files that could not be read or run: one line each.
    pub errors: Vec<String>,
    /// The scripts, to name what a kept case reaches.
    pub catalog: Catalog,
}

/// The case files of the corpus (`*.json` at any depth), then the staged
/// ones (`*.json` directly in the staging directory: its `golden/` holds
/// goldens, not cases).
fn case_files(cases: &Path, staged: &Path) -> Result<Vec<(String, PathBuf)>, InputError> {
    let corpus = Corpus {
        cases: cases.to_path_buf(),
        golden: PathBuf::new(),
        filter: None,
        shard: None,
    };
    let mut files = Vec::new();
    for entry in corpus.case_files()? {
        match entry.broken {
            Some(broken) => files.push((broken, PathBuf::new())),
            None => files.push((entry.name, entry.case_path)),
        }
    }
    let listed = match std::fs::read_dir(staged) {
        Ok(listed) => listed,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(files),
        Err(error) => {
            return Err(InputError::new(format!(
                "cannot list {}: {error}",
                staged.display()
            )))
        }
    };
    let mut found: Vec<PathBuf> = listed
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json") && path.is_file())
        .collect();
    found.sort();
    for path in found {
        files.push((path.display().to_string(), path));
    }
    Ok(files)
}

/// Runs every case file of `cases` and of `staged` through the prober's
/// reference, each as one batch, `jobs` at once.
pub fn measure(
    prober: &Prober<'_>,
    cases: &Path,
    staged: &Path,
    jobs: usize,
) -> Result<Baseline, InputError> {
    let files = case_files(cases, staged)?;
    if files.is_empty() {
        return Err(InputError::new(format!(
            "no case files under {}: nothing to grow from",
            cases.display()
        )));
    }
    let mut errors = Vec::new();
    let mut collected = Collected::default();
    pool::ordered(
        jobs,
        files.iter().enumerate(),
        |(_, (_, path))| match path.as_os_str().is_empty() {
            true => None,
            false => Some(
                crate::base::files::input::read(path, crate::base::files::input::CORPUS_FILE)
                    .map(|input| prober.probe_input(&input)),
            ),
        },
        |(run, (name, _)), probe| {
            match probe {
                // A file that could not even be listed: the reason is its name.
                None => errors.push(name.clone()),
                Some(Err(error)) => errors.push(format!("cannot read {name}: {error}")),
                Some(Ok(Probe::Failed(why))) => errors.push(format!("{name}: {why}")),
                Some(Ok(Probe::Ran { coverage, .. })) => collected.add(run, coverage),
            }
            ControlFlow::<()>::Continue(())
        },
    );
    some_coverage(&collected, "fuzz --grow")?;
    collected.pad(files.len());
    let mut catalog = Catalog {
        collected,
        next_run: files.len(),
        sources: BTreeMap::new(),
        cwd: std::env::current_dir().unwrap_or_default(),
    };
    let (mut reached, mut never_run) = (Reached::default(), Vec::new());
    for (url, runs) in &catalog.collected.scripts {
        for counts in runs.runs.iter().flatten() {
            reached.add(&Reached::of_intervals(url, counts.reached()));
        }
        let script = script_of(url, runs, &catalog.collected.source_maps, &catalog.cwd)?;
        for span in script
            .spans
            .spans
            .iter()
            .filter(|span| span.reach.is_empty())
        {
            never_run.push((url.clone(), span.start, span.end));
        }
        catalog.sources.insert(url.clone(), Some(script.source));
    }
    Ok(Baseline {
        reached,
        never_run,
        files: files.len(),
        errors,
        catalog,
    })
}

/// What a kept case reaches, named: the innermost function holding it,
/// where it stands, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The function's path (`a > b > (anonymous)`, `(top level)`).
    pub function: String,
    /// Its file and line, through the script's source map when it has
    /// one.
    pub at: Location,
    /// Its text, each run of white space one space, cut at 120
    /// characters (`…` when cut).
    pub text: String,
}

/// The reference's scripts as the runs so far saw them: their functions
/// (a function nested in one the corpus never calls is reported only by
/// a run that calls it), source maps and sources.
#[derive(Debug)]
pub struct Catalog {
    collected: Collected,
    /// The number the next run's counts get (the corpus's files had the
    /// first ones, each its own).
    next_run: usize,
    sources: BTreeMap<String, Option<Source>>,
    cwd: PathBuf,
}

impl Catalog {
    /// Adds the functions a kept case's run reported.
    pub fn add(&mut self, coverage: RunCoverage) {
        self.collected.add(self.next_run, coverage);
        self.next_run += 1;
    }

    /// Whether a stretch of a script is white space alone (no statement
    /// stands there: V8's ranges end in the gaps between blocks). A script
    /// whose source cannot be read has none.
    pub fn is_blank(&mut self, url: &str, start: u32, end: u32) -> bool {
        let source = self.sources.entry(url.to_owned()).or_insert_with(|| {
            let path = path_of_url(url)?;
            std::fs::read(path).ok().map(|bytes| Source::new(&bytes))
        });
        source
            .as_ref()
            .is_some_and(|source| source.is_blank(start, end))
    }

    /// Names each stretch of `target`: the function holding its start
    /// and its line, each function and line once, in order.
    pub fn name_all(&self, target: &Reached) -> Result<Vec<Named>, InputError> {
        let mut named: Vec<Named> = Vec::new();
        let mut script = None;
        for (url, start, end) in target.intervals() {
            if script
                .as_ref()
                .is_none_or(|script: &Script| script.url != url)
            {
                let runs = self.collected.scripts.get(url).ok_or_else(|| {
                    InputError::new(format!("{url}: no run reported this script's functions"))
                })?;
                script = Some(script_of(
                    url,
                    runs,
                    &self.collected.source_maps,
                    &self.cwd,
                )?);
            }
            let Some(script) = &script else { continue };
            // Named where its code starts: a stretch often begins with the
            // white space after the statement before it.
            let text = script.source.text(start, end);
            let blank: usize = text
                .chars()
                .take_while(|c| c.is_whitespace())
                .map(char::len_utf16)
                .sum();
            let start = start + blank as u32;
            let (function, at) = script
                .function_at(start)
                .map(|(function, at)| (function.to_owned(), at))
                .unwrap_or_else(|| ("(top level)".to_owned(), script.location(start)));
            if named
                .iter()
                .any(|seen| seen.function == function && seen.at == at)
            {
                continue;
            }
            let text = preview(&text, 120);
            named.push(Named { function, at, text });
        }
        Ok(named)
    }
}
