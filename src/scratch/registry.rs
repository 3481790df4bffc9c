//! The scratch directories alive in this process, by scope, so that
//! another thread can remove them: a signal handler before the process
//! ends, or a caller whose in-process run overran its time. The handle
//! callers hold, [`ScratchScope`](crate::scratch::ScratchScope), and
//! [`remove_all`](crate::scratch::remove_all) are in scope.rs.
//!
//! Every directory belongs to the scope of the thread that made it (the
//! process-wide default one unless the thread runs inside
//! [`ScratchScope::enter`](crate::scratch::ScratchScope::enter)). A
//! directory is registered before it exists, under the scope's write
//! lock, and filled in under its read lock; so
//! [`ScratchScope::stop`](crate::scratch::ScratchScope::stop) and
//! [`remove_all`](crate::scratch::remove_all), which take the write lock,
//! never see a directory half made or half filled, and once they have run
//! the scope makes and fills nothing more.

use std::cell::RefCell;
use std::ffi::CString;
use std::os::fd::RawFd;
use std::sync::{Arc, LazyLock, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::remove::remove_contents;
use sys_unix::identity_at;

/// One live directory: its path as made, and the open, locked descriptor
/// that its owner holds until it has removed it.
pub(super) struct Live {
    pub id: u64,
    pub path: CString,
    /// `None` while it is being made.
    pub held: Option<(RawFd, (u64, u64))>,
}

pub(super) struct ScopeState {
    pub stopped: bool,
    pub live: Vec<Live>,
}

/// The shared part of a [`ScratchScope`](crate::scratch::ScratchScope).
pub(super) struct Scope {
    state: RwLock<ScopeState>,
}

impl Scope {
    pub fn new() -> Scope {
        Scope {
            state: RwLock::new(ScopeState {
                stopped: false,
                live: Vec::new(),
            }),
        }
    }

    /// The lock under which directories are registered, made and removed.
    pub fn write(&self) -> RwLockWriteGuard<'_, ScopeState> {
        self.state
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The lock under which a directory is filled; `None` once the scope
    /// has stopped.
    pub fn filling(&self) -> Option<RwLockReadGuard<'_, ScopeState>> {
        let state = self
            .state
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (!state.stopped).then_some(state)
    }

    pub fn stop(&self) {
        let mut state = self.write();
        state.stopped = true;
        for live in state.live.drain(..) {
            remove_live(&live);
        }
    }
}

/// Removes a live directory through its held descriptor, if its path
/// still names it. A failure leaves it for a later collector (the lock
/// goes when the descriptor closes).
pub(super) fn remove_live(live: &Live) {
    let Some((fd, held)) = live.held else {
        return;
    };
    if identity_at(libc::AT_FDCWD, &live.path).ok() != Some(held) {
        return;
    }
    if remove_contents(fd).is_ok() {
        // SAFETY: a valid C string; a failure is left to a collector.
        unsafe { libc::rmdir(live.path.as_ptr()) };
    }
}

/// The scope of threads that entered none.
pub(super) static DEFAULT: LazyLock<Arc<Scope>> = LazyLock::new(|| Arc::new(Scope::new()));

thread_local! {
    pub(super) static CURRENT: RefCell<Option<Arc<Scope>>> = const { RefCell::new(None) };
}

/// The scope that directories made on this thread belong to.
pub(super) fn current() -> Arc<Scope> {
    CURRENT
        .with(|current| current.borrow().clone())
        .unwrap_or_else(|| Arc::clone(&DEFAULT))
}
