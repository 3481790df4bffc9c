//! [`ScratchScope`], the handle to a set of scratch directories that a
//! caller removes together from another thread, and [`remove_all`], which
//! removes every scope's. The directories themselves are registered in
//! registry.rs.

use std::sync::{Arc, Mutex, Weak};

use super::registry::{current, Scope, CURRENT, DEFAULT};

/// Every scope but the default one, for [`remove_all`].
static SCOPES: Mutex<Vec<Weak<Scope>>> = Mutex::new(Vec::new());

/// A set of scratch directories that can be removed together, from any
/// thread, while the threads that made them still run.
///
/// A caller that runs a batch on a thread it cannot kill (a test, a
/// harness) runs the batch inside [`enter`](Self::enter) on that thread,
/// and calls [`stop`](Self::stop) from its own thread when the run times
/// out. The directories go at once; cases that need one afterwards get a
/// `threw` result instead, and nothing more is made.
///
/// ```
/// use worker_spawn_oracle::scratch::ScratchScope;
/// let scope = ScratchScope::new();
/// let runner = scope.clone();
/// let worker = std::thread::spawn(move || {
///     runner.enter(|| worker_spawn_oracle::batch::run_batch_bytes(b"[]"))
/// });
/// // ... on timeout, from this thread:
/// scope.stop();
/// # worker.join().unwrap().unwrap();
/// ```
#[derive(Clone)]
pub struct ScratchScope {
    inner: Arc<Scope>,
}

impl ScratchScope {
    /// A new scope, with no directory yet.
    pub fn new() -> ScratchScope {
        let inner = Arc::new(Scope::new());
        let mut scopes = SCOPES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        scopes.retain(|scope| scope.strong_count() > 0);
        scopes.push(Arc::downgrade(&inner));
        ScratchScope { inner }
    }

    /// The scope this thread's directories belong to: the one it
    /// [`enter`](Self::enter)ed, or the process's default. A thread that
    /// hands work to another (as the batch does, for its deep stack)
    /// enters this scope there, so that the work's directories stay where
    /// the caller can stop them.
    pub fn current() -> ScratchScope {
        ScratchScope { inner: current() }
    }

    /// Runs `work` on this thread with every scratch directory it makes
    /// belonging to this scope. The thread's pooled directories are
    /// removed before and after, so none outlives its scope.
    pub fn enter<T>(&self, work: impl FnOnce() -> T) -> T {
        struct Restore(Option<Arc<Scope>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                super::shape::release_thread_scratch();
                let previous = self.0.take();
                CURRENT.with(|current| *current.borrow_mut() = previous);
            }
        }
        super::shape::release_thread_scratch();
        let previous =
            CURRENT.with(|current| current.borrow_mut().replace(Arc::clone(&self.inner)));
        let _restore = Restore(previous);
        work()
    }

    /// Removes every directory of this scope now, and makes no more: a
    /// case that needs one from now on gets a `threw` result. Safe to call
    /// from any thread, more than once; it waits for a directory being
    /// made or filled to be done (a few system calls per `mkdirs` entry).
    pub fn stop(&self) {
        self.inner.stop();
    }

    /// Whether [`stop`](Self::stop) has run.
    pub fn is_stopped(&self) -> bool {
        self.inner.filling().is_none()
    }

    /// How many of its directories exist now.
    pub fn live(&self) -> usize {
        self.inner.write().live.len()
    }
}

impl Default for ScratchScope {
    fn default() -> Self {
        ScratchScope::new()
    }
}

/// Removes every scratch directory of the process, in every scope, and
/// makes no more: for a signal handler's thread before it ends the process
/// (not async-signal-safe: call it from a thread such as
/// `signal_hook::iterator::Signals`'s, never from a signal handler itself).
pub fn remove_all() {
    DEFAULT.stop();
    let scopes: Vec<Arc<Scope>> = SCOPES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .iter()
        .filter_map(Weak::upgrade)
        .collect();
    for scope in scopes {
        scope.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::dir::ScratchDir;
    use crate::scratch::tmpdir::join;
    use crate::scratch::SCRATCH_PREFIX;
    use std::time::Duration;

    #[test]
    fn a_stop_racing_a_creation_waits_for_it_and_removes_it() {
        let tmp = tempfile::tempdir().unwrap();
        let template = join(tmp.path().to_str().unwrap(), SCRATCH_PREFIX);
        let scope = ScratchScope::new();
        let (exists, told) = std::sync::mpsc::channel();
        let stopper = {
            let scope = scope.clone();
            std::thread::spawn(move || {
                told.recv().unwrap();
                scope.stop();
            })
        };
        // The directory exists, not yet locked, when the stop comes.
        let made = ScratchDir::create(&scope.inner, &template, &|_| {
            exists.send(()).unwrap();
            std::thread::sleep(Duration::from_millis(50));
        })
        .unwrap();
        stopper.join().unwrap();
        assert!(!made.path().exists(), "the stop found it and removed it");
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
        assert_eq!(
            ScratchDir::create(&scope.inner, &template, &|_| {}).err(),
            Some(crate::scratch::CreateError::Stopped)
        );
    }
}
