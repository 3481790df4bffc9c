//! `parity-diff fuzz`: the command around [`fuzz`]: the two
//! oracles, the stopping rule, the progress line, and the report.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use super::runner::{fuzz, in_process, BatchOracle, FuzzConfig, FuzzReport};
use crate::diff::arrays::InputError;
use crate::diff::oracle::Oracle;
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
    /// How long one oracle run may take.
    pub timeout: Duration,
    /// Print a JSON report instead of the human one.
    pub json: bool,
    /// Print the closing summary line alone (human report).
    pub quiet: bool,
}

/// A command oracle with its timeout.
struct TimedOracle {
    oracle: Oracle,
    timeout: Duration,
}

impl BatchOracle for TimedOracle {
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, String> {
        self.oracle
            .run(batch, self.timeout)
            .map_err(|failure| match failure.stderr {
                Some(stderr) if !stderr.trim().is_empty() => {
                    format!(
                        "{}; its stderr ends: {}",
                        failure.message,
                        stderr.trim_end()
                    )
                }
                _ => failure.message,
            })
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

/// Runs the session and writes its report; returns the exit status (0 no
/// divergence, 1 divergences).
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
    };
    let _ = writeln!(progress, "fuzz: seed {seed} (replay with --seed {seed})");
    let left = TimedOracle {
        oracle: Oracle::Command(args.left.clone()),
        timeout: args.timeout,
    };
    let right_command = args.right.clone().map(|command| TimedOracle {
        oracle: Oracle::Command(command),
        timeout: args.timeout,
    });
    let right: &dyn BatchOracle = match &right_command {
        Some(oracle) => oracle,
        None => &in_process,
    };
    let report = fuzz(&config, &left, right, progress).map_err(InputError::new)?;
    if args.json {
        out.write_all(&to_json(&report_value(&report, seed)))?;
        out.write_all(b"\n")?;
    } else {
        write_human(&report, seed, args, &mut out)?;
    }
    out.flush()?;
    Ok(if report.groups.is_empty() { 0 } else { 1 })
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write_human(
    report: &FuzzReport,
    seed: u64,
    args: &FuzzArgs,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let right = args.right.as_deref().unwrap_or("our oracle (in-process)");
    for group in report.groups.iter().filter(|_| !args.quiet) {
        writeln!(
            out,
            "DIVERGENCE {} ({} case{})",
            group.signature,
            group.cases,
            if group.cases == 1 { "" } else { "s" }
        )?;
        writeln!(out, "    minimized: {}", text(&group.minimized.to_text()))?;
        writeln!(
            out,
            "    at:        {}",
            group
                .pointer
                .as_deref()
                .map_or("(same value, different bytes)".to_owned(), |p| {
                    if p.is_empty() {
                        "(root)".into()
                    } else {
                        p.to_owned()
                    }
                })
        )?;
        writeln!(out, "    left:      {}", text(&group.left))?;
        writeln!(out, "    right:     {}", text(&group.right))?;
        if let Some(file) = &group.file {
            writeln!(out, "    written:   {}", file.display())?;
        }
    }
    let diverged: usize = report.groups.iter().map(|g| g.cases).sum();
    let seconds = report.elapsed.as_secs_f64();
    writeln!(
        out,
        "fuzz: seed {seed}: {} cases in {seconds:.1} s ({:.0}/s), left `{}` vs right `{right}`: {} diverged, {} signature{}",
        report.cases,
        report.cases as f64 / seconds.max(1e-9),
        args.left,
        diverged,
        report.groups.len(),
        if report.groups.len() == 1 { "" } else { "s" },
    )
}

fn report_value(report: &FuzzReport, seed: u64) -> Value {
    let groups = report
        .groups
        .iter()
        .map(|group| {
            let mut object = Object::new();
            object.insert("signature", Value::from(group.signature.as_str()));
            object.insert("cases", Value::from(group.cases as f64));
            object.insert(
                "minimized",
                Value::from(JsString::from(text(&group.minimized.to_text()))),
            );
            object.insert(
                "pointer",
                group.pointer.as_deref().map_or(Value::Null, Value::from),
            );
            object.insert("left", Value::from(text(&group.left)));
            object.insert("right", Value::from(text(&group.right)));
            object.insert(
                "file",
                group
                    .file
                    .as_ref()
                    .map_or(Value::Null, |file| Value::from(file.display().to_string())),
            );
            Value::Object(object)
        })
        .collect();
    crate::js_object! {
        "seed" => seed.to_string(),
        "cases" => report.cases as f64,
        "seconds" => report.elapsed.as_secs_f64(),
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
            timeout: Duration::from_secs(1),
            json: false,
            quiet: false,
        };
        let error = fuzz_command(&args, Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(error.message.contains("unknown op \"nope\""));
    }
}
