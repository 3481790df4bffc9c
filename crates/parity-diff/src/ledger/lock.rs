//! The lock a ledger's writer holds for its whole read-modify-write, so
//! that two `accept` at once never lose each other's entries.
//!
//! The lock is `flock` on a file beside the ledger, `.NAME.lock`: a lock
//! on the ledger itself would be lost when the new ledger is renamed over
//! it. The file exists while a writer holds it: the holder removes it
//! before letting go, and whoever locks it checks that the name still
//! names what it locked (else it was removed meanwhile, and it tries
//! again), so that two writers can never hold two files of that name. A
//! writer that was killed leaves the file, not the lock (the kernel
//! drops that); the next one takes it over.
//!
//! A second writer waits up to [`WAIT`], then gives up with an input
//! error: it never writes without the lock. Holding it, a writer removes
//! the temporary files a killed writer left beside the ledger.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::base::error::InputError;
use crate::base::files::{self, Dir};

/// How long a writer waits for another to finish.
pub const WAIT: Duration = Duration::from_secs(30);

/// How often a waiting writer tries again.
const POLL: Duration = Duration::from_millis(20);

/// The lock on one ledger, held until dropped.
pub struct LedgerLock {
    dir: Dir,
    /// The ledger's file name in `dir`.
    name: OsString,
    /// The ledger's path, as given.
    path: PathBuf,
    lock_name: OsString,
    /// Holds the lock; closing it lets go.
    _file: File,
}

/// The lock file's name for a ledger named `name`.
fn lock_name(name: &OsStr) -> OsString {
    let mut lock = OsString::from(".");
    lock.push(name);
    lock.push(".lock");
    lock
}

impl LedgerLock {
    /// Takes the lock on the ledger at `path` (making its directory),
    /// waiting up to [`WAIT`] for another writer; notes on stderr that
    /// it waits, and what a killed writer left that it removed.
    pub fn acquire(path: &Path) -> Result<LedgerLock, InputError> {
        LedgerLock::acquire_within(path, WAIT, &mut io::stderr())
    }

    /// [`acquire`](Self::acquire), waiting up to `wait`, notes to `notes`.
    pub fn acquire_within(
        path: &Path,
        wait: Duration,
        notes: &mut dyn Write,
    ) -> Result<LedgerLock, InputError> {
        let cannot = |error: io::Error| {
            InputError::new(format!(
                "cannot lock the ledger {}: {error}",
                path.display()
            ))
        };
        let (dir, name) = files::split(path).map_err(cannot)?;
        let dir = Dir::open(dir, Path::new("")).map_err(cannot)?;
        let lock_name = lock_name(name);
        let lock_path = dir.path().join(&lock_name);
        let deadline = Instant::now() + wait;
        let mut noted = false;
        let file = loop {
            let file = dir
                .open_file(&lock_name, libc::O_RDWR | libc::O_CREAT)
                .map_err(|error| match error.raw_os_error() {
                    Some(libc::ELOOP) => InputError::new(format!(
                        "cannot lock the ledger {}: {} is a symbolic link; it is not followed",
                        path.display(),
                        lock_path.display()
                    )),
                    _ => cannot(error),
                })?;
            // SAFETY: flock on a valid descriptor; the result is checked.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                if dir.still_names(&lock_name, &file).map_err(cannot)? {
                    break file;
                }
                // Its holder removed it as it let go: take the new one.
                continue;
            }
            let error = io::Error::last_os_error();
            if error.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(cannot(error));
            }
            if Instant::now() >= deadline {
                return Err(InputError::new(format!(
                    "the ledger {} is being written by another process (it holds {}); \
                     gave up after waiting {} s: run again when it is done",
                    path.display(),
                    lock_path.display(),
                    wait.as_secs_f64()
                )));
            }
            if !noted {
                noted = true;
                let _ = writeln!(
                    notes,
                    "parity-diff: waiting for another writer of the ledger {} (up to {} s)",
                    path.display(),
                    wait.as_secs_f64()
                );
            }
            std::thread::sleep(POLL);
        };
        let lock = LedgerLock {
            dir,
            name: name.to_owned(),
            path: path.to_path_buf(),
            lock_name,
            _file: file,
        };
        for left in lock.dir.remove_temporaries_of(name).map_err(cannot)? {
            let _ = writeln!(
                notes,
                "parity-diff: removed {}, left by a writer of the ledger that did not finish",
                left.display()
            );
        }
        Ok(lock)
    }

    /// The ledger's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the ledger with `bytes`, atomically
    /// ([`files::write_atomic`]).
    pub fn write(&self, bytes: &[u8]) -> io::Result<()> {
        self.dir.replace(&self.name, bytes)
    }
}

impl Drop for LedgerLock {
    fn drop(&mut self) {
        // Removed while still held: see the module's comment.
        let _ = self.dir.remove(&self.lock_name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(path: &Path, wait: Duration) -> Result<LedgerLock, InputError> {
        LedgerLock::acquire_within(path, wait, &mut io::sink())
    }

    #[test]
    fn a_second_writer_waits_then_gives_up_and_gets_the_lock_once_it_is_free() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("sub/parity-ledger.txt");
        let first = quiet(&ledger, WAIT).unwrap();
        assert!(dir.path().join("sub/.parity-ledger.txt.lock").exists());
        let mut notes = Vec::new();
        let started = Instant::now();
        let refused = LedgerLock::acquire_within(&ledger, Duration::from_millis(100), &mut notes)
            .err()
            .expect("the lock is held");
        assert!(started.elapsed() >= Duration::from_millis(100));
        assert_eq!(
            refused.to_string(),
            format!(
                "the ledger {} is being written by another process (it holds {}); gave up \
                 after waiting 0.1 s: run again when it is done",
                ledger.display(),
                dir.path().join("sub/.parity-ledger.txt.lock").display()
            )
        );
        assert_eq!(
            String::from_utf8(notes).unwrap(),
            format!(
                "parity-diff: waiting for another writer of the ledger {} (up to 0.1 s)\n",
                ledger.display()
            )
        );
        drop(first);
        assert!(
            !dir.path().join("sub/.parity-ledger.txt.lock").exists(),
            "the holder removes the lock file"
        );
        let second = quiet(&ledger, Duration::ZERO).unwrap();
        second.write(b"x").unwrap();
        assert_eq!(std::fs::read(&ledger).unwrap(), b"x");
    }

    #[test]
    fn a_waiting_writer_gets_the_lock_when_the_holder_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("l.txt");
        let first = quiet(&ledger, WAIT).unwrap();
        let waiter = {
            let ledger = ledger.clone();
            std::thread::spawn(move || {
                let lock = quiet(&ledger, WAIT).unwrap();
                lock.write(b"second").unwrap();
            })
        };
        first.write(b"first").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(std::fs::read(&ledger).unwrap(), b"first", "it waits");
        drop(first);
        waiter.join().unwrap();
        assert_eq!(std::fs::read(&ledger).unwrap(), b"second");
    }

    #[test]
    fn the_lock_file_left_by_a_killed_writer_is_taken_over_and_a_link_refused() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("l.txt");
        // What a killed writer leaves: the lock file, unlocked, and its
        // temporary ledger.
        std::fs::write(dir.path().join(".l.txt.lock"), "").unwrap();
        let leftover = dir.path().join(".l.txt.parity-diff-4242-0-0badf00d.tmp");
        std::fs::write(&leftover, "half").unwrap();
        let mut notes = Vec::new();
        let lock = LedgerLock::acquire_within(&ledger, Duration::ZERO, &mut notes).unwrap();
        assert!(!leftover.exists());
        assert_eq!(
            String::from_utf8(notes).unwrap(),
            format!(
                "parity-diff: removed {}, left by a writer of the ledger that did not finish\n",
                leftover.display()
            )
        );
        drop(lock);
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("x"), dir.path().join(".l.txt.lock"))
            .unwrap();
        let refused = quiet(&ledger, Duration::ZERO).err().unwrap();
        assert!(
            refused
                .to_string()
                .ends_with(".l.txt.lock is a symbolic link; it is not followed"),
            "{refused}"
        );
        assert!(!outside.path().join("x").exists());
    }
}
