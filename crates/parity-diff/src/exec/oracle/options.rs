//! How an oracle run is bounded and stopped, and the defaults of those
//! bounds.

use std::path::Path;
use std::time::Duration;

/// How an oracle run is bounded and stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OracleOptions {
    /// How long one run may take before it is stopped.
    pub timeout: Duration,
    /// How long a command has between SIGTERM and SIGKILL.
    pub kill_grace: Duration,
    /// How many bytes a command may print on stdout before it is stopped.
    pub max_output: u64,
}

/// The grace between SIGTERM and SIGKILL unless `--kill-grace` says.
pub const DEFAULT_KILL_GRACE: Duration = Duration::from_secs(2);

/// `fuzz`'s `--max-output` unless set: a batch of 1000 generated cases
/// prints about 250 KB (measured: at most 264 KB over `--seed 1 --count
/// 5000`), so this leaves room for batches a thousand times larger and
/// still bounds what one oracle run can cost.
pub const FUZZ_MAX_OUTPUT: u64 = 256 << 20;

/// The least `--max-output` of `run` and `bless` unless set: a corpus of
/// small files still allows a port that prints far more than the goldens.
pub const MIN_CORPUS_MAX_OUTPUT: u64 = 64 << 20;

/// `run` and `bless` allow this many times the corpus's largest file.
pub const CORPUS_OUTPUT_FACTOR: u64 = 16;

impl OracleOptions {
    /// A timeout with the default grace and the given cap.
    pub fn new(timeout: Duration, max_output: u64) -> Self {
        OracleOptions {
            timeout,
            kill_grace: DEFAULT_KILL_GRACE,
            max_output,
        }
    }
}

/// The default `--max-output` of `run` and `bless`: [`CORPUS_OUTPUT_FACTOR`]
/// times the largest case file or golden under these directories, at
/// least [`MIN_CORPUS_MAX_OUTPUT`]. A result array is about as large as
/// its golden (a new corpus has none yet, hence the case files too), so
/// the cap only ever stops an oracle that floods its output. Entries that
/// cannot be read count as empty: the corpus reports them itself.
pub fn corpus_max_output(dirs: &[&Path]) -> u64 {
    let largest = dirs
        .iter()
        .flat_map(|dir| walkdir::WalkDir::new(dir).into_iter().flatten())
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| entry.metadata().ok())
        .map(|metadata| metadata.len())
        .max()
        .unwrap_or(0);
    largest
        .saturating_mul(CORPUS_OUTPUT_FACTOR)
        .max(MIN_CORPUS_MAX_OUTPUT)
}
