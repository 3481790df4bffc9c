//! `parity-diff fuzz`: the command around [`fuzz_budgeted`]: the two
//! oracles, the stopping rule, the progress line, and the report
//! ([`render`](super::render)).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::mutate::{Mutated, Seeds};
use super::regression::FileStatus;
use super::render::{Json, Lines, Session, Sessions};
use super::runner::{fuzz_budgeted, BatchOracle, FuzzConfig, Shrinking};
use super::source::{generator_command, CaseSource};
use crate::base::error::InputError;
use crate::base::outside;
use crate::exec::oracle::{Oracle, OracleFailure, OracleOptions};
use crate::exec::verdicts::LedgerUse;
use crate::report::formats::{self, Command, Renderer};
use crate::report::render::Render;
use crate::report::Format;

/// What `parity-diff fuzz` was asked to do.
#[derive(Debug, Clone)]
pub struct FuzzArgs {
    /// The first implementation (a shell command).
    pub left: String,
    /// The second.
    pub right: String,
    /// The ops to fuzz (none: the corpus's).
    pub ops: Vec<String>,
    /// A generator command (`CMD --op OP --seed N --count K`); without
    /// one, the corpus's cases are mutated.
    pub generator: Option<String>,
    /// The corpus (`--corpus`): the cases mutated, and the ops fuzzed
    /// when no `--op` is given.
    pub corpus: PathBuf,
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
    /// `--ledger`: the ledger whose entries and rules say which
    /// divergences are known; it must exist.
    pub ledger: Option<PathBuf>,
    /// The ledger without `--ledger` (the suite's, else
    /// `parity-ledger.txt` beside the corpus), used when it exists.
    pub ledger_default: PathBuf,
    /// How long one oracle run may take, and how much it may print.
    pub limits: OracleOptions,
    /// `--jobs`: how many batches run at once.
    pub jobs: usize,
    /// The report's format: `human` or `json`.
    pub format: Format,
    /// Print the closing summary line alone (human report).
    pub quiet: bool,
    /// How much minimizing may cost.
    pub shrinking: Shrinking,
    /// Human format: list each known divergence's signature (default:
    /// a count per op in the closing line).
    pub verbose: bool,
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
pub fn fresh_seed() -> u64 {
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
/// because a side fails even on the empty batch `[]`, or a finding could
/// not be written.
pub fn fuzz_command(
    args: &FuzzArgs,
    mut out: impl Write,
    progress: &mut dyn Write,
) -> Result<u8, InputError> {
    let mut render: Box<dyn Render<Sessions>> = match Command::Fuzz.check(args.format)? {
        Renderer::FuzzHuman => Box::new(Lines {
            quiet: args.quiet,
            verbose: args.verbose,
        }),
        Renderer::FuzzJson => Box::new(Json),
        other => return Err(formats::not_mine(Command::Fuzz, other)),
    };
    // Progress quotes signatures and oracles' messages: outside text.
    let mut progress = outside::NeutralLines::new(progress);
    let progress: &mut dyn Write = &mut progress;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let sourcing = Sourcing {
        corpus: &args.corpus,
        ops: &args.ops,
        generator: args.generator.as_deref(),
        limits: args.limits,
        batch_size: args.batch_size,
    };
    let source = case_source(&sourcing, seed, progress)?;
    let count = match (args.count, args.duration) {
        (None, None) => Some(10_000),
        (count, _) => count,
    };
    let config = FuzzConfig {
        seed,
        count,
        duration: args.duration,
        batch_size: args.batch_size.max(1),
        max_rounds: 200,
        out_dir: Some(args.out_dir.clone()),
        jobs: args.jobs.max(1),
    };
    let _ = writeln!(progress, "fuzz: seed {seed} (replay with --seed {seed})");
    let left = TimedOracle {
        oracle: Oracle::command(args.left.as_str()),
        limits: args.limits,
    };
    let right = TimedOracle {
        oracle: Oracle::command(args.right.as_str()),
        limits: args.limits,
    };
    let ledger = LedgerUse::open(args.ledger.as_deref(), &args.ledger_default, false)?;
    let ledger = ledger.as_ref().map(|use_| &use_.ledger);
    let sides: (&(dyn BatchOracle + Sync), &(dyn BatchOracle + Sync)) = (&left, &right);
    let report = fuzz_budgeted(&config, args.shrinking, ledger, &*source, sides, progress)
        .map_err(InputError::new)?;
    let session = Session {
        report: &report,
        seed,
        left: &args.left,
        right: &args.right,
    };
    render.finish(&mut out, session)?;
    out.flush()?;
    let unsaved = report
        .groups
        .iter()
        .filter(|group| matches!(&group.file, Some(file) if matches!(file.status, FileStatus::Failed(_))))
        .count();
    if unsaved > 0 {
        // Not 1: a finding that was not kept is the tool's failure, not
        // a divergence to triage.
        let _ = writeln!(
            progress,
            "fuzz: {unsaved} finding{} could not be written to {}",
            if unsaved == 1 { "" } else { "s" },
            args.out_dir.display()
        );
    }
    Ok(if report.stopped.is_some() || unsaved > 0 {
        2
    } else if report.groups.is_empty() {
        0
    } else {
        1
    })
}

/// What chooses a session's cases: `fuzz`'s, and `fuzz --grow`'s.
#[derive(Debug, Clone, Copy)]
pub struct Sourcing<'a> {
    /// The corpus whose cases are mutated, and whose ops are fuzzed when
    /// `ops` is empty.
    pub corpus: &'a Path,
    /// `--op`.
    pub ops: &'a [String],
    /// `--generator`.
    pub generator: Option<&'a str>,
    /// The limits of a generator's run.
    pub limits: OracleOptions,
    /// Cases per batch (a generator's chunk).
    pub batch_size: usize,
}

/// Where the session's cases come from: the generator, else the corpus
/// mutated; the ops are `--op`'s, else the corpus's.
pub fn case_source(
    args: &Sourcing<'_>,
    seed: u64,
    progress: &mut dyn Write,
) -> Result<Box<dyn CaseSource>, InputError> {
    let seeds = if args.generator.is_none() || args.ops.is_empty() {
        let seeds = Seeds::read(args.corpus)?;
        for unread in &seeds.unread {
            let _ = writeln!(progress, "fuzz: left out of the corpus: {unread}");
        }
        seeds
    } else {
        Seeds::default()
    };
    let ops = if args.ops.is_empty() {
        seeds.op_names()
    } else {
        args.ops.to_vec()
    };
    if ops.is_empty() {
        return Err(InputError::new(format!(
            "no case under {}, so nothing to fuzz",
            args.corpus.display()
        )));
    }
    let Some(command) = args.generator else {
        return Ok(Box::new(
            Mutated::new(&seeds, &ops, seed).map_err(InputError::new)?,
        ));
    };
    // One generator run per op and batch: with one op, a chunk is a batch.
    let chunk = args.batch_size.max(1);
    let (source, unknown) = generator_command(command, args.limits, ops, seed, chunk)
        .without_unknown_ops()
        .map_err(InputError::new)?;
    for op in &unknown {
        let _ = writeln!(
            progress,
            "fuzz: the generator has no cases of op {op:?}; left out"
        );
    }
    if source.ops().is_empty() {
        return Err(InputError::new(format!(
            "the generator has no cases of any op asked for ({})",
            unknown.join(", ")
        )));
    }
    Ok(Box::new(source))
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
    fn ops_missing_from_the_corpus_are_refused_naming_its_ops() {
        let corpus = tempfile::tempdir().unwrap();
        std::fs::write(
            corpus.path().join("a.json"),
            format!(
                r#"[{{"op":"x","n":1}}, {{"op":"y"}}, 5, {}{}]"#,
                "[".repeat(600),
                "]".repeat(600)
            ),
        )
        .unwrap();
        std::fs::write(corpus.path().join("b.json"), "[1, 01]").unwrap();
        let mut args = FuzzArgs {
            left: "cat".into(),
            right: "cat".into(),
            ops: vec!["nope".into()],
            generator: None,
            corpus: corpus.path().to_path_buf(),
            seed: Some(1),
            count: Some(1),
            duration: None,
            batch_size: 1,
            out_dir: PathBuf::from("/nonexistent"),
            ledger: None,
            ledger_default: corpus.path().join("parity-ledger.txt"),
            limits: OracleOptions::new(
                Duration::from_secs(1),
                crate::exec::oracle::FUZZ_MAX_OUTPUT,
            ),
            jobs: 1,
            format: Format::Human,
            quiet: false,
            shrinking: Shrinking::default(),
            verbose: false,
        };
        let mut progress = Vec::new();
        let error = fuzz_command(&args, Vec::new(), &mut progress).unwrap_err();
        assert_eq!(
            error.message,
            "no case of op \"nope\" in the corpus; its ops are: x, y"
        );
        assert_eq!(
            String::from_utf8(progress).unwrap(),
            "fuzz: left out of the corpus: a.json #3: nesting deeper than 512 levels at byte 512\n\
             fuzz: left out of the corpus: b.json: not a JSON array: invalid number at line 1 column 6\n"
        );
        args.ops.clear();
        args.corpus = corpus.path().join("none");
        let error = fuzz_command(&args, Vec::new(), &mut Vec::new()).unwrap_err();
        assert!(error.message.contains("does not exist"), "{error}");
    }
}
