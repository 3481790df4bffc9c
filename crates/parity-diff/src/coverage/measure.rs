//! A corpus through a Node reference, one process per case, with V8's
//! coverage on: the cases, each script with its source, source map and
//! spans, and what went wrong. `coverage` and `cmin` both start here.
//!
//! One process per case is what lets a report say which cases reach a
//! span; it costs one Node start-up per case (about 50 ms of CPU),
//! spread over `--jobs` processes.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::analysis::{CaseInfo, Script};
use super::collect::{run_batch, Collected, ScriptRuns};
use super::novelty::Reached;
use super::reach::RunSet;
use super::source::{display_name, path_of_url, Source};
use super::sourcemap::SourceMap;
use super::spans;
use crate::base::error::InputError;
use crate::corpus::cases::CaseFile;
use crate::corpus::Corpus;
use crate::exec::oracle::OracleOptions;
use crate::exec::pool;

/// What to run.
#[derive(Debug, Clone)]
pub struct Selection {
    /// The reference command (`sh -c`, a case array on stdin).
    pub reference: String,
    /// The corpus (`--cases`, `--filter`).
    pub corpus: Corpus,
    /// `--op`: only these ops' cases (all when empty).
    pub ops: Vec<String>,
    /// One run's limits.
    pub limits: OracleOptions,
    /// Runs at once.
    pub jobs: usize,
}

/// What the runs gave.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The cases, by run number.
    pub cases: Vec<CaseInfo>,
    /// The reference's scripts.
    pub scripts: Vec<Script>,
    /// Files that could not be read, runs that failed: one line each.
    pub errors: Vec<String>,
    /// The runs whose coverage could not be read.
    pub unknown: RunSet,
    /// The offsets some run reached, to tell what a new batch reaches
    /// beyond the corpus ([`Reached::beyond`]).
    pub reached: Reached,
}

/// Reads the selected cases: their identities, and each one's input (a
/// case array of it alone, its bytes as they stand).
fn read_cases(
    selection: &Selection,
    errors: &mut Vec<String>,
) -> Result<(Vec<CaseInfo>, Vec<Vec<u8>>), InputError> {
    let (mut cases, mut inputs) = (Vec::new(), Vec::new());
    for entry in selection.corpus.case_files()? {
        if let Some(broken) = &entry.broken {
            errors.push(broken.clone());
            continue;
        }
        let bytes = match crate::base::files::input::read(
            &entry.case_path,
            crate::base::files::input::CORPUS_FILE,
        ) {
            Ok(bytes) => bytes,
            Err(error) => {
                errors.push(format!(
                    "cannot read {}: {error}",
                    entry.case_path.display()
                ));
                continue;
            }
        };
        let file = CaseFile::read(&entry.name, bytes);
        if !file.is_array {
            errors.push(format!("{}: not a JSON array of cases", entry.name));
            continue;
        }
        let positions = if selection.ops.is_empty() {
            (0..file.items.len()).collect()
        } else {
            file.select(&selection.ops)
        };
        for index in positions {
            let item = &file.items[index];
            // One case per batch: V8's counts then belong to that case alone.
            let raw = file.raw(index).unwrap_or(b"null");
            inputs.push([b"[", raw, b"]"].concat());
            cases.push(CaseInfo {
                id: item.id(&file.file, raw).into_owned(),
                op: item.op.clone(),
                line: item.line,
            });
        }
    }
    if cases.is_empty() && errors.is_empty() {
        return Err(InputError::new(if selection.ops.is_empty() {
            "no cases to run: the selected case files are empty".to_owned()
        } else {
            format!(
                "no case of {} in the selected files",
                selection.ops.join(", ")
            )
        }));
    }
    Ok((cases, inputs))
}

/// Runs every selected case alone through the reference with coverage
/// on, and makes each script's spans.
pub fn measure(selection: &Selection) -> Result<Measured, InputError> {
    let mut errors = Vec::new();
    let (cases, inputs) = read_cases(selection, &mut errors)?;
    let mut collected = Collected::default();
    let mut unknown = RunSet::with_runs(cases.len());
    let reference = selection.reference.as_str();
    pool::ordered(
        selection.jobs,
        inputs.into_iter().enumerate(),
        |(_, input)| run_batch(reference, input, selection.limits),
        |(run, _), ran| {
            let id = &cases[run].id;
            if let Some(failure) = ran.failure {
                let stderr = failure
                    .stderr
                    .as_deref()
                    .and_then(|s| s.trim_end().lines().last())
                    .map(|line| format!(" (its stderr ends: {line})"))
                    .unwrap_or_default();
                errors.push(format!(
                    "{id}: the reference failed on this case alone: {}{stderr}",
                    failure.message
                ));
            }
            match ran.coverage {
                Ok(coverage) => collected.add(run, coverage),
                Err(why) => {
                    unknown.insert(run);
                    errors.push(format!("{id}: {why}"));
                }
            }
            ControlFlow::<()>::Continue(())
        },
    );
    if !cases.is_empty() {
        some_coverage(&collected, "coverage")?;
    }
    collected.pad(cases.len());
    let mut reached = Reached::default();
    for (url, runs) in &collected.scripts {
        for counts in runs.runs.iter().flatten() {
            reached.add(&Reached::of_intervals(url, counts.reached()));
        }
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let scripts = collected
        .scripts
        .iter()
        .map(|(url, runs)| script_of(url, runs, &collected.source_maps, &cwd))
        .collect::<Result<Vec<Script>, InputError>>()?;
    Ok(Measured {
        cases,
        scripts,
        errors,
        unknown,
        reached,
    })
}

/// The error of runs that wrote no coverage of the reference's own: none
/// at all (not a Node program, or one that drops `NODE_V8_COVERAGE`), or
/// only Node's own scripts. `command` is what needs it (`coverage`).
pub fn some_coverage(collected: &Collected, command: &str) -> Result<(), InputError> {
    if collected.runs_with_coverage == 0 {
        return Err(InputError::new(format!(
            "the reference wrote no coverage: each run had NODE_V8_COVERAGE set to a fresh \
             directory, and it stayed empty; `{command}` needs a reference that runs on Node \
             and keeps NODE_V8_COVERAGE in its environment"
        )));
    }
    if collected.scripts.is_empty() {
        return Err(InputError::new(format!(
            "the reference's coverage holds only Node's own scripts ({} of them, node:…): \
             no file of its own ran",
            collected.left_out
        )));
    }
    Ok(())
}

/// One script of the runs: its source (read now, and as long as the
/// script V8 counted), its source map, and its spans over `runs`; named
/// relative to `cwd`.
pub fn script_of(
    url: &str,
    runs: &ScriptRuns,
    source_maps: &BTreeMap<String, serde_json::Value>,
    cwd: &Path,
) -> Result<Script, InputError> {
    let ran = runs
        .functions
        .keys()
        .map(|&(_, end)| end)
        .max()
        .unwrap_or(0);
    let source = read_source(url, ran)?;
    let (map, map_error) = match source_maps.get(url) {
        Some(data) => match SourceMap::read(data, url) {
            Ok(map) => (Some(map), None),
            Err(why) => (None, Some(why)),
        },
        None => (None, None),
    };
    let spans = spans::build(&runs.functions, &runs.runs, &source);
    Ok(Script {
        url: url.to_owned(),
        name: display_name(url, cwd),
        source,
        map,
        map_error,
        spans,
        cwd: cwd.to_path_buf(),
    })
}

/// A script's source as V8 ran it: the file its URL names, which must be
/// as long as the script V8 counted (`ran` code units), or the spans
/// would name text that did not run.
fn read_source(url: &str, ran: u32) -> Result<Source, InputError> {
    let path: PathBuf = path_of_url(url)
        .ok_or_else(|| InputError::new(format!("{url}: not a file URL that names a path")))?;
    let bytes = std::fs::read(&path).map_err(|error| {
        InputError::new(format!(
            "cannot read the source of {}: {error}",
            path.display()
        ))
    })?;
    let source = Source::new(&bytes).fitted_to(ran);
    if source.len() != ran {
        return Err(InputError::new(format!(
            "{} has {} UTF-16 code units now, but the script that ran had {ran}: it changed \
             during the run",
            path.display(),
            source.len()
        )));
    }
    Ok(source)
}
