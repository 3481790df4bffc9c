//! The report of a fuzz session ([`Sessions`]), in its two formats: each
//! divergence group with its minimized case and both sides' outcomes,
//! then the closing line ([`Lines`]); or one JSON object ([`Json`]).
//! Signatures, cases, results, messages and stderr come from the oracles
//! and the generators: outside text, written through [`outside`].

use std::convert::Infallible;
use std::io::{self, Write};

use super::outcome::Outcome;
use super::rate::rate_text;
use super::regression::{FileStatus, RegressionFile};
use super::runner::{DivergenceGroup, FuzzReport};
use super::tree::Node;
use crate::base::outside;
use crate::exec::oracle::{FailureKind, OracleFailure};
use crate::report::render::{write_json, Render, Report};
use js_exact::{JsString, Object, Value};

/// A fuzz session's report, known whole at its end.
#[derive(Debug)]
pub struct Sessions;

/// A session, as its report shows it.
#[derive(Debug, Clone, Copy)]
pub struct Session<'a> {
    /// What it found.
    pub report: &'a FuzzReport,
    /// Its seed.
    pub seed: u64,
    /// The left side, as given.
    pub left: &'a str,
    /// The right side, as the closing line names it.
    pub right: &'a str,
}

impl Report for Sessions {
    type Part<'a> = Infallible;
    type End<'a> = Session<'a>;
}

/// The divergences for people, then the closing line.
pub struct Lines {
    /// The closing line alone.
    pub quiet: bool,
    /// List each known divergence's signature.
    pub verbose: bool,
}

impl Render<Sessions> for Lines {
    fn part(&mut self, _out: &mut dyn Write, part: Infallible) -> io::Result<()> {
        match part {}
    }

    fn finish(&mut self, out: &mut dyn Write, session: Session<'_>) -> io::Result<()> {
        write_human(session, (self.quiet, self.verbose), out)
    }
}

/// The session as one JSON object.
pub struct Json;

impl Render<Sessions> for Json {
    fn part(&mut self, _out: &mut dyn Write, part: Infallible) -> io::Result<()> {
        match part {}
    }

    fn finish(&mut self, out: &mut dyn Write, session: Session<'_>) -> io::Result<()> {
        write_json(out, &report_value(session.report, session.seed))
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// At most this much of a together group's result array is shown.
const SHOWN: usize = 600;

/// A minimized case longer than this is shown in a window, like a long
/// string: its start, then where the whole case is.
const MINIMIZED_SHOWN: usize = 300;

fn window(text: String, group: &DivergenceGroup) -> String {
    match text.char_indices().nth(MINIMIZED_SHOWN) {
        Some((at, _)) => {
            let whole = match &group.file {
                Some(file) => format!("whole in {}", file.path.display()),
                None => "whole in --format json".to_owned(),
            };
            format!("{}… ({} bytes in all, {whole})", &text[..at], text.len())
        }
        None => text,
    }
}

fn cut(text: String) -> String {
    match text.char_indices().nth(SHOWN) {
        Some((at, _)) => format!("{}… ({} bytes in all)", &text[..at], text.len()),
        None => text,
    }
}

/// The last few lines of an oracle's stderr, for a human report.
fn stderr_lines(failure: &OracleFailure) -> Vec<&str> {
    let lines: Vec<&str> = failure
        .stderr
        .as_deref()
        .unwrap_or("")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    lines[lines.len().saturating_sub(5)..].to_vec()
}

fn write_outcome(out: &mut dyn Write, label: &str, outcome: &Outcome) -> io::Result<()> {
    match outcome {
        Ok(bytes) => writeln!(
            out,
            "    {label:<10} {}",
            outside::json_line(&cut(text(bytes)))
        ),
        Err(failure) => {
            writeln!(
                out,
                "    {label:<10} {}: {}",
                failure.kind,
                outside::text(&failure.message)
            )?;
            for line in stderr_lines(failure) {
                writeln!(out, "               | {}", outside::text(line))?;
            }
            Ok(())
        }
    }
}

fn write_file_line(out: &mut dyn Write, file: &RegressionFile) -> io::Result<()> {
    let path = file.path.display().to_string();
    let path = outside::text(&path);
    match &file.status {
        FileStatus::Written => writeln!(out, "    written:   {path}"),
        FileStatus::Unchanged => writeln!(out, "    kept:      {path} (already there)"),
        FileStatus::SameCase => writeln!(
            out,
            "    kept:      {path} (the same case, found before under another name)"
        ),
        FileStatus::Differs => writeln!(
            out,
            "    not written: {path} exists with other content; left as it is"
        ),
        FileStatus::Failed(message) => {
            writeln!(out, "    not written: {}", outside::text(message))
        }
    }
}

fn write_group(out: &mut dyn Write, group: &DivergenceGroup) -> io::Result<()> {
    writeln!(
        out,
        "DIVERGENCE {} ({} case{})",
        outside::text(&group.signature),
        group.cases,
        if group.cases == 1 { "" } else { "s" }
    )?;
    if group.together {
        let count = match &group.minimized {
            Node::Array(cases) => cases.len(),
            _ => 1,
        };
        writeln!(
            out,
            "    together:  {count} cases fail as one batch, yet each half of them passes alone (not minimized)"
        )?;
        writeln!(
            out,
            "    cases:     {}",
            outside::json_line(&cut(text(&group.minimized.to_text())))
        )?;
    } else {
        writeln!(
            out,
            "    minimized: {}",
            outside::json_line(&window(text(&group.minimized.to_text()), group))
        )?;
    }
    if group.kind.is_none() {
        let at = match group.pointer.as_deref() {
            None => "(same value, different bytes)",
            Some("") => "(root)",
            Some(pointer) => pointer,
        };
        writeln!(out, "    at:        {}", outside::text(at))?;
    }
    write_outcome(out, "left:", &group.left)?;
    write_outcome(out, "right:", &group.right)?;
    if let Some(file) = &group.file {
        write_file_line(out, file)?;
    }
    Ok(())
}

fn write_human(
    session: Session<'_>,
    (quiet, verbose): (bool, bool),
    out: &mut dyn Write,
) -> io::Result<()> {
    let report = session.report;
    if !quiet {
        write_findings(out, report, verbose)?;
    }
    let line = closing_line(session, verbose);
    // Minimizing's cost, on a line of its own just above the summary.
    if (report.minimize_runs > 0 || report.unminimized > 0) && !quiet {
        writeln!(out, "{}", minimizing_line(report))?;
    }
    writeln!(out, "{line}")
}

/// Each divergence group, each known signature (`verbose`), and why the
/// session stopped, if it did.
fn write_findings(out: &mut dyn Write, report: &FuzzReport, verbose: bool) -> io::Result<()> {
    for group in &report.groups {
        write_group(out, group)?;
    }
    for (signature, cases) in report.known.iter().filter(|_| verbose) {
        writeln!(
            out,
            "KNOWN {} ({cases} case{}): the ledger accepts it; not minimized, not written",
            outside::text(signature),
            if *cases == 1 { "" } else { "s" }
        )?;
    }
    if let Some(broken) = &report.stopped {
        writeln!(
            out,
            "STOPPED the {} oracle fails even on an empty batch `[]`, so no case can be compared: {}: {}",
            broken.side.name(),
            broken.failure.kind,
            outside::text(&broken.failure.message)
        )?;
        for line in stderr_lines(&broken.failure) {
            writeln!(out, "    | {}", outside::text(line))?;
        }
    }
    Ok(())
}

/// The session's summary: what ran, what diverged, what the ledger
/// knew, the batch runs that failed, and whether it stopped.
fn closing_line(session: Session<'_>, verbose: bool) -> String {
    let Session {
        report,
        seed,
        left,
        right,
    } = session;
    let diverged = report.diverged();
    let seconds = report.elapsed.as_secs_f64();
    let mut line = format!(
        "fuzz: seed {seed}: {} cases in {seconds:.1} s{} ({}/s), left `{}` vs right `{right}`: {} diverged, {} signature{}",
        report.cases,
        if report.minimize_runs > 0 {
            format!(", {:.1} s of it minimizing", report.minimize_time.as_secs_f64())
        } else {
            String::new()
        },
        rate_text(report.cases as f64 / seconds.max(1e-9)),
        outside::text(left),
        diverged,
        report.groups.len(),
        if report.groups.len() == 1 { "" } else { "s" },
    );
    if !report.known.is_empty() {
        let cases: usize = report.known.iter().map(|(_, cases)| cases).sum();
        let signatures = report.known.len();
        let by_op: Vec<String> = report
            .known_by_op
            .iter()
            .map(|(op, cases)| format!("{} {cases}", outside::text(op)))
            .collect();
        line.push_str(&format!(
            "; {cases} known ({signatures} signature{}, accepted by the ledger; by op: {}{})",
            if signatures == 1 { "" } else { "s" },
            by_op.join(", "),
            if verbose {
                ""
            } else {
                "; --verbose lists them"
            }
        ));
    }
    if report.failed_batches > 0 {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let judged = report.failed_batches - report.bisected_batches;
        line.push_str(&format!(
            ", {} failed batch run{}: {judged} judged result by result, {} bisected in {} oracle run{}",
            report.failed_batches,
            plural(report.failed_batches),
            report.bisected_batches,
            report.bisect_runs,
            plural(report.bisect_runs),
        ));
    }
    if let Some(broken) = &report.stopped {
        line.push_str(&format!(
            ", stopped: the {} oracle is broken",
            broken.side.name()
        ));
    }
    line
}

/// What minimizing cost: its oracle runs, against the budget, and the
/// findings kept as found.
fn minimizing_line(report: &FuzzReport) -> String {
    let mut minimizing = format!(
        "fuzz: minimizing: {} oracle run{}",
        report.minimize_runs,
        if report.minimize_runs == 1 { "" } else { "s" },
    );
    if let Some(budget) = report.shrink_budget {
        minimizing.push_str(&format!(
            " (budget: {budget}× the session's {} runs)",
            report.oracle_runs
        ));
    }
    if report.unminimized > 0 {
        minimizing.push_str(&format!(
            ", {} finding{} kept as found",
            report.unminimized,
            if report.unminimized == 1 { "" } else { "s" }
        ));
    }
    minimizing
}

fn failure_value(failure: &OracleFailure) -> Value {
    js_exact::js_object! {
        "kind" => failure.kind.as_str(),
        "message" => failure.message.as_str(),
        "stderr" => failure.stderr.as_deref().map_or(Value::Null, Value::from),
    }
}

fn group_value(group: &DivergenceGroup) -> Value {
    let mut object = Object::new();
    object.insert("signature", Value::from(group.signature.as_str()));
    object.insert(
        "kind",
        Value::from(group.kind.map_or("value", FailureKind::as_str)),
    );
    object.insert("together", Value::Bool(group.together));
    object.insert("cases", Value::from(group.cases as f64));
    object.insert(
        "minimized",
        Value::from(JsString::from(text(&group.minimized.to_text()))),
    );
    object.insert(
        "pointer",
        group.pointer.as_deref().map_or(Value::Null, Value::from),
    );
    for (name, outcome) in [("left", &group.left), ("right", &group.right)] {
        object.insert(
            name,
            outcome
                .as_ref()
                .map_or(Value::Null, |bytes| Value::from(text(bytes))),
        );
        object.insert(
            format!("{name}Failure").as_str(),
            outcome.as_ref().err().map_or(Value::Null, failure_value),
        );
    }
    let file = group.file.as_ref();
    object.insert(
        "file",
        file.map_or(Value::Null, |file| {
            Value::from(file.path.display().to_string())
        }),
    );
    object.insert(
        "fileStatus",
        file.map_or(Value::Null, |file| Value::from(file.status.as_str())),
    );
    object.insert(
        "fileMessage",
        match file.map(|file| &file.status) {
            Some(FileStatus::Failed(message)) => Value::from(message.as_str()),
            _ => Value::Null,
        },
    );
    Value::Object(object)
}

fn report_value(report: &FuzzReport, seed: u64) -> Value {
    let groups = report.groups.iter().map(group_value).collect();
    let stopped = report.stopped.as_ref().map_or(Value::Null, |broken| {
        let mut value = failure_value(&broken.failure);
        if let Value::Object(object) = &mut value {
            object.insert("side", Value::from(broken.side.name()));
        }
        value
    });
    js_exact::js_object! {
        "seed" => seed.to_string(),
        "cases" => report.cases as f64,
        "seconds" => report.elapsed.as_secs_f64(),
        "failedBatches" => report.failed_batches as f64,
        "bisectedBatches" => report.bisected_batches as f64,
        "bisectRuns" => report.bisect_runs as f64,
        "minimizeRuns" => report.minimize_runs as f64,
        "unminimized" => report.unminimized as f64,
        "stopped" => stopped,
        "divergences" => Value::Array(groups),
        "known" => Value::Array(report.known.iter().map(|(signature, cases)| js_exact::js_object! {
            "signature" => signature.as_str(),
            "cases" => *cases as f64,
        }).collect()),
    }
}
