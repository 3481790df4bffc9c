//! `parity-diff fuzz`: the command around [`fuzz`]: the two
//! oracles, the stopping rule, the progress line, and the report.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use super::outcome::Outcome;
use super::regression::{FileStatus, RegressionFile};
use super::runner::{fuzz, BatchOracle, DivergenceGroup, FuzzConfig, FuzzReport};
use super::tree::Node;
use crate::diff::error::InputError;
use crate::diff::oracle::{FailureKind, Oracle, OracleFailure, OracleOptions};
use crate::js::{to_json, JsString, Object, Value};
use crate::ops::OPS;

/// What `parity-diff fuzz` was asked to do.
#[derive(Debug, Clone)]
pub struct FuzzArgs {
    /// The first implementation (a shell command).
    pub left: String,
    /// The second: a shell command, or our own oracle in-process.
    pub right: Option<String>,
    /// The ops to fuzz (none: every op).
    pub ops: Vec<String>,
    /// The seed (none: a fresh one, printed).
    pub seed: Option<u64>,
    /// Stop after this many cases.
    pub count: Option<usize>,
    /// Stop after this long.
    pub duration: Option<Duration>,
    /// Cases per batch.
    pub batch_size: usize,
    /// Where minimized cases go.
    pub out_dir: PathBuf,
    /// How long one oracle run may take, and how much it may print.
    pub limits: OracleOptions,
    /// `--jobs`: how many batches run at once.
    pub jobs: usize,
    /// Print a JSON report instead of the human one.
    pub json: bool,
    /// Print the closing summary line alone (human report).
    pub quiet: bool,
}

/// An oracle with its limits.
struct TimedOracle {
    oracle: Oracle,
    limits: OracleOptions,
}

impl BatchOracle for TimedOracle {
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        self.oracle.run(batch, self.limits)
    }
}

/// A seed nobody chose: the clock's nanoseconds and the process id.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// Reads `30s`, `10m`, `2h` or a plain number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let (number, unit) = match text.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "s"),
    };
    let seconds: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("not a duration: {text:?} (try 30s, 10m, 2h)"))?;
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("not a duration: {text:?} (try 30s, 10m, 2h)")),
    };
    Duration::try_from_secs_f64(seconds * scale)
        .ok()
        .filter(|duration| !duration.is_zero())
        .ok_or_else(|| format!("not a positive duration: {text:?}"))
}

/// Runs the session and writes its report, always, with its closing
/// summary; returns the exit status: 0 no divergence, 1 divergences
/// (failures of a side on some cases included), 2 the session stopped
/// because a side fails even on the empty batch `[]`.
pub fn fuzz_command(
    args: &FuzzArgs,
    mut out: impl Write,
    progress: &mut dyn Write,
) -> Result<u8, InputError> {
    let known: Vec<&str> = OPS.iter().map(|spec| spec.name).collect();
    for op in &args.ops {
        if !known.contains(&op.as_str()) {
            return Err(InputError::new(format!(
                "unknown op {op:?}; the ops are: {}",
                known.join(", ")
            )));
        }
    }
    let ops = if args.ops.is_empty() {
        known.iter().map(|op| op.to_string()).collect()
    } else {
        args.ops.clone()
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let count = match (args.count, args.duration) {
        (None, None) => Some(10_000),
        (count, _) => count,
    };
    let config = FuzzConfig {
        seed,
        ops,
        count,
        duration: args.duration,
        batch_size: args.batch_size.max(1),
        max_rounds: 200,
        out_dir: Some(args.out_dir.clone()),
        jobs: args.jobs.max(1),
    };
    let _ = writeln!(progress, "fuzz: seed {seed} (replay with --seed {seed})");
    let left = TimedOracle {
        oracle: Oracle::Command(args.left.clone()),
        limits: args.limits,
    };
    // Our own oracle runs on a thread under the same timeout, so that even
    // a hang of ours is a finding rather than the end of the session.
    let right = TimedOracle {
        oracle: args
            .right
            .clone()
            .map_or(Oracle::InProcess, Oracle::Command),
        limits: args.limits,
    };
    let report = fuzz(&config, &left, &right, progress).map_err(InputError::new)?;
    if args.json {
        out.write_all(&to_json(&report_value(&report, seed)))?;
        out.write_all(b"\n")?;
    } else {
        write_human(&report, seed, args, &mut out)?;
    }
    out.flush()?;
    Ok(if report.stopped.is_some() {
        2
    } else if report.groups.is_empty() {
        0
    } else {
        1
    })
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// At most this much of a together group's result array is shown.
const SHOWN: usize = 600;

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

fn write_outcome(out: &mut impl Write, label: &str, outcome: &Outcome) -> std::io::Result<()> {
    match outcome {
        Ok(bytes) => writeln!(out, "    {label:<10} {}", cut(text(bytes))),
        Err(failure) => {
            writeln!(out, "    {label:<10} {}: {}", failure.kind, failure.message)?;
            for line in stderr_lines(failure) {
                writeln!(out, "               | {line}")?;
            }
            Ok(())
        }
    }
}

fn write_file_line(out: &mut impl Write, file: &RegressionFile) -> std::io::Result<()> {
    let path = file.path.display();
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
        FileStatus::Failed(message) => writeln!(out, "    not written: {message}"),
    }
}

fn write_group(out: &mut impl Write, group: &DivergenceGroup) -> std::io::Result<()> {
    writeln!(
        out,
        "DIVERGENCE {} ({} case{})",
        group.signature,
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
            cut(text(&group.minimized.to_text()))
        )?;
    } else {
        writeln!(out, "    minimized: {}", text(&group.minimized.to_text()))?;
    }
    if group.kind.is_none() {
        let at = match group.pointer.as_deref() {
            None => "(same value, different bytes)",
            Some("") => "(root)",
            Some(pointer) => pointer,
        };
        writeln!(out, "    at:        {at}")?;
    }
    write_outcome(out, "left:", &group.left)?;
    write_outcome(out, "right:", &group.right)?;
    if let Some(file) = &group.file {
        write_file_line(out, file)?;
    }
    Ok(())
}

fn write_human(
    report: &FuzzReport,
    seed: u64,
    args: &FuzzArgs,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let right = args.right.as_deref().unwrap_or("our oracle (in-process)");
    if !args.quiet {
        for group in &report.groups {
            write_group(out, group)?;
        }
        if let Some(broken) = &report.stopped {
            writeln!(
                out,
                "STOPPED the {} oracle fails even on an empty batch `[]`, so no case can be compared: {}: {}",
                broken.side.name(),
                broken.failure.kind,
                broken.failure.message
            )?;
            for line in stderr_lines(&broken.failure) {
                writeln!(out, "    | {line}")?;
            }
        }
    }
    let diverged = report.diverged();
    let seconds = report.elapsed.as_secs_f64();
    let mut line = format!(
        "fuzz: seed {seed}: {} cases in {seconds:.1} s ({:.0}/s), left `{}` vs right `{right}`: {} diverged, {} signature{}",
        report.cases,
        report.cases as f64 / seconds.max(1e-9),
        args.left,
        diverged,
        report.groups.len(),
        if report.groups.len() == 1 { "" } else { "s" },
    );
    if report.failed_batches > 0 {
        line.push_str(&format!(
            ", {} failed batch run{} bisected in {} runs",
            report.failed_batches,
            if report.failed_batches == 1 { "" } else { "s" },
            report.bisect_runs
        ));
    }
    if let Some(broken) = &report.stopped {
        line.push_str(&format!(
            ", stopped: the {} oracle is broken",
            broken.side.name()
        ));
    }
    writeln!(out, "{line}")
}

fn failure_value(failure: &OracleFailure) -> Value {
    crate::js_object! {
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
    crate::js_object! {
        "seed" => seed.to_string(),
        "cases" => report.cases as f64,
        "seconds" => report.elapsed.as_secs_f64(),
        "failedBatches" => report.failed_batches as f64,
        "bisectRuns" => report.bisect_runs as f64,
        "minimizeRuns" => report.minimize_runs as f64,
        "stopped" => stopped,
        "divergences" => Value::Array(groups),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("5d").is_err());
    }

    #[test]
    fn unknown_ops_are_refused() {
        let args = FuzzArgs {
            left: "cat".into(),
            right: None,
            ops: vec!["nope".into()],
            seed: Some(1),
            count: Some(1),
            duration: None,
            batch_size: 1,
            out_dir: PathBuf::from("/nonexistent"),
            limits: OracleOptions::new(
                Duration::from_secs(1),
                crate::diff::oracle::FUZZ_MAX_OUTPUT,
            ),
            jobs: 1,
            json: false,
            quiet: false,
        };
        let error = fuzz_command(&args, Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(error.message.contains("unknown op \"nope\""));
    }
}
