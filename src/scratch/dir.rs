//! One scratch directory on disk, and the registry of live ones that a
//! signal handler empties before the process ends.

use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::SCRATCH_PREFIX;

/// The scratch directories alive right now.
static LIVE_DIRECTORIES: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// Removes every scratch directory still alive, and returns the registry
/// still locked so that no new one can be made before the caller ends the
/// process. A case may still be making directories inside one while it
/// goes, so removal is retried until the directory is gone.
fn remove_live_directories() -> std::sync::MutexGuard<'static, BTreeSet<PathBuf>> {
    let live = LIVE_DIRECTORIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for path in live.iter() {
        for _ in 0..100 {
            if std::fs::remove_dir_all(path).is_ok() || !path.exists() {
                break;
            }
        }
    }
    live
}

/// Makes SIGINT, SIGTERM and SIGHUP remove the live scratch directories
/// before the process ends (with status 128 + the signal's number), so an
/// interrupted batch leaves nothing behind.
pub fn remove_on_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("scratch-cleanup".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let _held = remove_live_directories();
                let name = match signal {
                    SIGINT => "SIGINT",
                    SIGTERM => "SIGTERM",
                    _ => "SIGHUP",
                };
                let _ = writeln!(
                    io::stderr(),
                    "worker-spawn-oracle: interrupted by {name}; scratch directories removed"
                );
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// One scratch directory: created fresh, removed on drop.
pub struct ScratchDir {
    directory: tempfile::TempDir,
    real_path: PathBuf,
    text: String,
}

impl ScratchDir {
    /// Creates a fresh directory under the system temporary directory and
    /// resolves it to its real path (`D`).
    pub fn create() -> io::Result<ScratchDir> {
        let directory = tempfile::Builder::new().prefix(SCRATCH_PREFIX).tempdir()?;
        LIVE_DIRECTORIES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(directory.path().to_path_buf());
        let real_path = std::fs::canonicalize(directory.path())?;
        let text = real_path.to_string_lossy().into_owned();
        Ok(ScratchDir {
            directory,
            real_path,
            text,
        })
    }

    /// The real path of the directory.
    pub fn path(&self) -> &Path {
        &self.real_path
    }

    /// The real path as text: what `$DIR` stands for.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        LIVE_DIRECTORIES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .remove(self.directory.path());
        // The TempDir field removes the directory itself when it drops.
    }
}
