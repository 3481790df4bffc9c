//! `parity-diff fuzz --grow DIR`: the source of cases (`fuzz`'s), the
//! corpus measured, the session, the kept cases staged in `DIR`, and the
//! report.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use super::render::{exit_code, human, json, Grown};
use super::{baseline, grow, stage, GrowConfig};
use crate::base::error::InputError;
use crate::base::outside;
use crate::coverage::grow::probe::Prober;
use crate::exec::oracle::OracleOptions;
use crate::fuzz::command::{case_source, fresh_seed, Sourcing};
use crate::report::formats::{not_mine, Command, Renderer};
use crate::report::Format;

/// Most shrinking rounds per kept case: each costs a few reference runs.
pub const MAX_ROUNDS: usize = 100;

/// What `fuzz --grow` was asked to do.
#[derive(Debug, Clone)]
pub struct GrowArgs {
    /// The Node reference (a shell command), run with coverage on.
    pub reference: String,
    /// The staging directory: kept cases and their goldens go there.
    pub dir: PathBuf,
    /// The corpus: what it reaches is the start, and its cases are
    /// mutated without a generator.
    pub corpus: PathBuf,
    /// The ops to generate (none: the corpus's).
    pub ops: Vec<String>,
    /// A generator command; without one, the corpus's cases are mutated.
    pub generator: Option<String>,
    /// The seed (none: a fresh one, printed).
    pub seed: Option<u64>,
    /// Stop after this many generated cases.
    pub count: Option<usize>,
    /// Stop after this long.
    pub duration: Option<Duration>,
    /// Cases per batch.
    pub batch_size: usize,
    /// One reference run's limits.
    pub limits: OracleOptions,
    /// Runs at once.
    pub jobs: usize,
    /// Human or JSON.
    pub format: Format,
    /// The closing line alone (human).
    pub quiet: bool,
}

/// Runs the session, stages what it kept, and writes the report;
/// returns the exit status (0, or 2 when something could not be run,
/// named or written).
pub fn grow_command(
    args: &GrowArgs,
    mut out: impl Write,
    progress: &mut dyn Write,
) -> Result<u8, InputError> {
    let renderer = Command::Grow.check(args.format)?;
    // Progress quotes cases, names and the reference's messages.
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
    let _ = writeln!(
        progress,
        "fuzz --grow: seed {seed} (replay with --seed {seed})"
    );
    let jobs = args.jobs.max(1);
    let prober = Prober::new(&args.reference, args.limits, jobs > 1);
    let baseline = baseline::measure(&prober, &args.corpus, &args.dir, jobs)?;
    let _ = writeln!(
        progress,
        "fuzz --grow: the corpus ({} case file{}) leaves {} spans never run",
        baseline.files,
        if baseline.files == 1 { "" } else { "s" },
        baseline.never_run.len()
    );
    let config = GrowConfig {
        seed,
        count: match (args.count, args.duration) {
            (None, None) => Some(10_000),
            (count, _) => count,
        },
        duration: args.duration,
        batch_size: args.batch_size.max(1),
        max_rounds: MAX_ROUNDS,
        jobs,
    };
    let report = grow(&config, &prober, baseline, &*source, progress).map_err(InputError::new)?;
    let staged = stage::stage(&args.dir, &report.kept, &args.reference, args.limits);
    let grown = Grown {
        report: &report,
        staged: &staged,
        seed,
    };
    let bytes = match renderer {
        Renderer::GrowHuman => human(grown, args.quiet),
        Renderer::GrowJson => json(grown),
        other => return Err(not_mine(Command::Grow, other)),
    };
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(exit_code(grown))
}
