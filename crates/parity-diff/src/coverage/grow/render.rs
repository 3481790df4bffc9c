//! The report of `fuzz --grow`, in its two formats: each kept case with
//! what it reaches and its text, each staged file, the errors, then the
//! closing line; or one JSON object. Cases, names, function names,
//! source text, paths and the reference's messages are outside text,
//! written through [`outside`].

use std::io::Write;

use super::stage::Staged;
use super::{GrowReport, Kept};
use crate::base::outside;
use crate::coverage::report::preview;
use crate::fuzz::regression::FileStatus;
use crate::report::render::write_json;
use js_exact::{Object, Value};

/// A session as its report shows it.
#[derive(Debug, Clone, Copy)]
pub struct Grown<'a> {
    /// What the session did.
    pub report: &'a GrowReport,
    /// What was staged.
    pub staged: &'a [Staged],
    /// The seed.
    pub seed: u64,
}

/// How many of a kept case's new stretches the human report shows.
const SHOWN: usize = 5;

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn path_text(path: &std::path::Path) -> String {
    outside::text(&path.display().to_string()).into_owned()
}

fn write_kept(out: &mut dyn Write, kept: &Kept) -> std::io::Result<()> {
    writeln!(out, "KEPT {}", outside::text(&kept.name))?;
    for named in kept.reaches.iter().take(SHOWN) {
        let shown = preview(&named.text, 60);
        writeln!(
            out,
            "    reaches:  {}  {}  {}",
            outside::text(&named.at.to_string()),
            outside::text(&named.function),
            outside::text(&shown)
        )?;
    }
    if kept.reaches.len() > SHOWN {
        writeln!(
            out,
            "    reaches:  … and {} more (the JSON report lists them all)",
            kept.reaches.len() - SHOWN
        )?;
    }
    let case = String::from_utf8_lossy(&kept.case.to_text()).into_owned();
    writeln!(out, "    case:     {}", outside::json_line(&case))
}

fn write_staged(out: &mut dyn Write, staged: &Staged) -> std::io::Result<()> {
    let path = path_text(&staged.file.path);
    let cases = plural(staged.cases, "case", "cases");
    match &staged.file.status {
        FileStatus::Written | FileStatus::Unchanged => {
            let there = match staged.file.status {
                FileStatus::Unchanged => ", already there",
                _ => "",
            };
            match (&staged.golden, &staged.golden_error) {
                (Some(golden), _) => writeln!(
                    out,
                    "STAGED {path} ({cases}{there}), its golden {}",
                    path_text(golden)
                ),
                (None, why) => writeln!(
                    out,
                    "STAGED {path} ({cases}{there}), without its golden: {}",
                    outside::text(why.as_deref().unwrap_or("not written"))
                ),
            }
        }
        FileStatus::SameCase | FileStatus::Differs => writeln!(
            out,
            "NOT STAGED {path} ({cases}): a file of that name is there with other content; left as it is"
        ),
        FileStatus::Failed(why) => writeln!(
            out,
            "NOT STAGED {path} ({cases}): {}",
            outside::text(why)
        ),
    }
}

/// The closing line.
pub fn summary_line(grown: Grown<'_>) -> String {
    let report = grown.report;
    let seconds = report.elapsed.as_secs_f64();
    let mut line = format!(
        "fuzz --grow: seed {}: {} cases generated in {seconds:.1} s ({:.0}/s), {}, {}: \
         {} of the corpus's {} never-run spans reached, {} kept",
        grown.seed,
        report.cases,
        report.cases as f64 / seconds.max(1e-9),
        plural(report.batches, "batch", "batches"),
        plural(report.runs, "reference run", "reference runs"),
        report.newly_reached,
        report.never_run,
        plural(report.kept.len(), "case", "cases"),
    );
    let errors = errors(grown);
    if errors > 0 {
        line.push_str(&format!(", {}", plural(errors, "error", "errors")));
    }
    if report.stopped.is_some() {
        line.push_str(", stopped early");
    }
    line
}

/// The errors the exit status counts: the session's, and each staged
/// file or golden that could not be written.
pub fn errors(grown: Grown<'_>) -> usize {
    let staging = grown
        .staged
        .iter()
        .filter(|staged| {
            !matches!(
                staged.file.status,
                FileStatus::Written | FileStatus::Unchanged
            ) || staged.golden.is_none()
        })
        .count();
    grown.report.errors.len() + staging
}

/// The report for people.
pub fn human(grown: Grown<'_>, quiet: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if !quiet {
        for kept in &grown.report.kept {
            let _ = write_kept(&mut out, kept);
        }
        for staged in grown.staged {
            let _ = write_staged(&mut out, staged);
        }
        for error in &grown.report.errors {
            let _ = writeln!(out, "ERROR {}", outside::text(error));
        }
        if let Some(why) = &grown.report.stopped {
            let _ = writeln!(out, "STOPPED {}", outside::text(why));
        }
    }
    let _ = writeln!(out, "{}", summary_line(grown));
    out
}

fn kept_value(kept: &Kept) -> Value {
    let reaches = kept
        .reaches
        .iter()
        .map(|named| {
            js_exact::js_object! {
                "function" => named.function.as_str(),
                "at" => named.at.to_string(),
                "text" => named.text.as_str(),
            }
        })
        .collect();
    js_exact::js_object! {
        "op" => kept.op.as_str(),
        "name" => kept.name.as_str(),
        "case" => String::from_utf8_lossy(&kept.case.to_text()).into_owned(),
        "reaches" => Value::Array(reaches),
    }
}

fn staged_value(staged: &Staged) -> Value {
    let mut object = Object::new();
    object.insert("op", Value::from(staged.op.as_str()));
    object.insert("cases", Value::from(staged.cases as f64));
    object.insert("file", Value::from(staged.file.path.display().to_string()));
    object.insert("fileStatus", Value::from(staged.file.status.as_str()));
    object.insert(
        "fileMessage",
        match &staged.file.status {
            FileStatus::Failed(why) => Value::from(why.as_str()),
            _ => Value::Null,
        },
    );
    object.insert(
        "golden",
        staged.golden.as_ref().map_or(Value::Null, |golden| {
            Value::from(golden.display().to_string())
        }),
    );
    object.insert(
        "goldenError",
        staged
            .golden_error
            .as_deref()
            .map_or(Value::Null, Value::from),
    );
    Value::Object(object)
}

/// The report as one JSON object.
pub fn json(grown: Grown<'_>) -> Vec<u8> {
    let report = grown.report;
    let value = js_exact::js_object! {
        "seed" => grown.seed.to_string(),
        "cases" => report.cases as f64,
        "batches" => report.batches as f64,
        "runs" => report.runs as f64,
        "seconds" => report.elapsed.as_secs_f64(),
        "corpusFiles" => report.corpus_files as f64,
        "neverRun" => report.never_run as f64,
        "newlyReached" => report.newly_reached as f64,
        "unitsReached" => report.units as f64,
        "kept" => Value::Array(report.kept.iter().map(kept_value).collect()),
        "files" => Value::Array(grown.staged.iter().map(staged_value).collect()),
        "errors" => Value::Array(report.errors.iter().map(|e| Value::from(e.as_str())).collect()),
        "stopped" => report.stopped.as_deref().map_or(Value::Null, Value::from),
        "exitStatus" => f64::from(exit_code(grown)),
    };
    let mut out = Vec::new();
    let _ = write_json(&mut out, &value);
    out
}

/// 2 when something went wrong (an error, a file not staged, an early
/// stop), else 0: a session that keeps nothing has not failed.
pub fn exit_code(grown: Grown<'_>) -> u8 {
    if errors(grown) > 0 || grown.report.stopped.is_some() {
        2
    } else {
        0
    }
}
