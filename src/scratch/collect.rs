//! Collecting the scratch directories that crashed processes left behind.
//!
//! A process killed by SIGKILL, aborted out of memory, or stopped by a
//! signal its handler never saw leaves its directories; nothing else would
//! ever remove them. Every directory we make carries our mark in its name
//! ([`super::name::is_ours`]) and is locked (`flock`) by its owner while the
//! owner lives; the kernel drops the lock when the owner dies. So the
//! first time a process needs a scratch directory, it removes the marked
//! directories whose lock it can take. It never touches a live process's
//! (locked), nor a directory it did not make (unmarked: the reference's,
//! a port's), nor one that is not ours to remove (another user's).

use std::ffi::{CStr, CString};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Once;

use super::name::is_ours;
use super::remove::{remove_contents, remove_dir_at};
use sys_unix::{identity, identity_at, list, open_dir_at};

/// Collects in `parent` once per process.
pub fn collect_once(parent: &str) {
    static COLLECTED: Once = Once::new();
    COLLECTED.call_once(|| {
        collect(parent);
    });
}

/// Removes the marked directories in `parent` that no live process holds,
/// and returns how many went.
pub fn collect(parent: &str) -> usize {
    let Ok(parent) = CString::new(parent) else {
        return 0;
    };
    let Ok(dir) = open_dir_at(libc::AT_FDCWD, &parent) else {
        return 0;
    };
    let Ok((directories, _)) = list(dir.as_raw_fd()) else {
        return 0;
    };
    directories
        .iter()
        .filter(|name| is_ours(name.to_bytes()))
        .filter(|name| collect_one(dir.as_raw_fd(), name))
        .count()
}

/// Removes one leftover if its lock is free and it is still what its name
/// names once locked.
fn collect_one(parent: RawFd, name: &CStr) -> bool {
    let Ok(fd) = open_dir_at(parent, name) else {
        return false;
    };
    // SAFETY: fstat fills the zeroed struct; checked.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut stat) } != 0
        // SAFETY: geteuid cannot fail.
        || stat.st_uid != unsafe { libc::geteuid() }
    {
        return false;
    }
    // SAFETY: flock on a valid descriptor; checked.
    if unsafe { libc::flock(fd.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return false;
    }
    // Its owner may have removed it (and someone made another of that
    // name) between the open and the lock.
    let Ok(held) = identity(fd.as_raw_fd()) else {
        return false;
    };
    if identity_at(parent, name).ok() != Some(held) {
        return false;
    }
    remove_contents(fd.as_raw_fd()).is_ok() && remove_dir_at(parent, name).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::dir::ScratchDir;
    use crate::scratch::name::MARK;
    use crate::scratch::registry;
    use crate::scratch::tmpdir::join;
    use crate::scratch::SCRATCH_PREFIX;
    use std::cell::{Cell, RefCell};
    use std::os::fd::OwnedFd;
    use std::path::Path;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn ours(suffix: &str) -> String {
        format!("{SCRATCH_PREFIX}{}{suffix}", MARK as char)
    }

    /// Opens and locks a directory as a live owner would.
    fn hold(path: &Path) -> OwnedFd {
        let fd = open_dir_at(
            libc::AT_FDCWD,
            &CString::new(path.to_str().unwrap()).unwrap(),
        )
        .unwrap();
        // SAFETY: flock on a valid descriptor.
        assert_eq!(
            unsafe { libc::flock(fd.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
            0
        );
        fd
    }

    #[test]
    fn the_mark_keeps_the_reference_s_length_and_no_generator_uses_it() {
        assert!(is_ours(ours("aB3x9").as_bytes()));
        assert_eq!(ours("aB3x9").len(), format!("{SCRATCH_PREFIX}XXXXXX").len());
        for other in ["aB3xYz", "_ab3xy", "-abcdef", "-ab", "-ab/cd", "-ab.cd"] {
            assert!(
                !is_ours(format!("{SCRATCH_PREFIX}{other}").as_bytes()),
                "{other}"
            );
        }
    }

    #[test]
    fn dead_leftovers_go_and_nothing_else_is_touched() {
        let tmp = tempfile::tempdir().unwrap();
        let at = |name: &str| tmp.path().join(name);
        let dead = ours("dead1");
        std::fs::create_dir_all(at(&dead).join(["d"; 60].join("/"))).unwrap();
        std::fs::write(at(&dead).join("d/file"), b"x").unwrap();
        let live = ours("live1");
        std::fs::create_dir(at(&live)).unwrap();
        let _held = hold(&at(&live));
        let victim = at("victim");
        std::fs::create_dir(&victim).unwrap();
        std::fs::write(victim.join("keep"), b"x").unwrap();
        std::os::unix::fs::symlink(&victim, at(&ours("link1"))).unwrap();
        std::fs::write(at(&ours("file1")), b"x").unwrap();
        let untouched = [
            format!("{SCRATCH_PREFIX}aB3xYz"),
            format!("{SCRATCH_PREFIX}_ab3xy"),
            format!("{SCRATCH_PREFIX}-abcdef"),
        ];
        for name in &untouched {
            std::fs::create_dir(at(name)).unwrap();
        }
        let before = names(tmp.path());
        assert_eq!(collect(tmp.path().to_str().unwrap()), 1);
        let expected: Vec<String> = before.into_iter().filter(|name| *name != dead).collect();
        assert_eq!(names(tmp.path()), expected);
        assert!(victim.join("keep").exists());
        assert_eq!(collect(tmp.path().to_str().unwrap()), 0);
    }

    #[test]
    fn a_collector_between_making_and_locking_never_takes_a_live_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let parent = tmp.path().to_str().unwrap().to_owned();
        let template = join(&parent, SCRATCH_PREFIX);
        let calls = Cell::new(0);
        let collected = Cell::new(0);
        let made = ScratchDir::create(&registry::current(), &template, &|_| {
            calls.set(calls.get() + 1);
            if calls.get() == 1 {
                // The directory exists, unlocked: a collector takes it.
                collected.set(collect(&parent));
            }
        })
        .unwrap();
        assert_eq!(collected.get(), 1);
        assert_eq!(calls.get(), 2, "the creator noticed, and made another");
        assert!(made.path().is_dir());
        assert_eq!(collect(&parent), 0, "the live one is locked");
        assert!(made.path().is_dir());
        let path = made.path().to_path_buf();
        drop(made);
        assert!(!path.exists());
        assert!(names(tmp.path()).is_empty());
    }

    #[test]
    fn a_collector_holding_the_lock_makes_the_creator_take_another_name() {
        let tmp = tempfile::tempdir().unwrap();
        let template = join(tmp.path().to_str().unwrap(), SCRATCH_PREFIX);
        let taken: RefCell<Option<(std::path::PathBuf, OwnedFd)>> = RefCell::new(None);
        let made = ScratchDir::create(&registry::current(), &template, &|path| {
            if taken.borrow().is_none() {
                let path = Path::new(path.to_str().unwrap()).to_path_buf();
                let fd = hold(&path);
                *taken.borrow_mut() = Some((path, fd));
            }
        })
        .unwrap();
        let (first, fd) = taken.into_inner().unwrap();
        assert_ne!(made.path(), first);
        // The collector removes what it holds.
        remove_contents(fd.as_raw_fd()).unwrap();
        std::fs::remove_dir(&first).unwrap();
        drop(fd);
        drop(made);
        assert!(names(tmp.path()).is_empty());
    }

    #[test]
    fn a_directory_remade_under_the_same_name_is_not_mistaken_for_the_one_made() {
        let tmp = tempfile::tempdir().unwrap();
        let template = join(tmp.path().to_str().unwrap(), SCRATCH_PREFIX);
        let remade = RefCell::new(None);
        let made = ScratchDir::create(&registry::current(), &template, &|path| {
            if remade.borrow().is_none() {
                let path = std::path::PathBuf::from(path.to_str().unwrap());
                std::fs::remove_dir(&path).unwrap();
                std::fs::create_dir(&path).unwrap();
                *remade.borrow_mut() = Some(path);
            }
        })
        .unwrap();
        let remade = remade.into_inner().unwrap();
        assert_ne!(made.path(), remade);
        assert!(remade.is_dir(), "not ours to remove");
        drop(made);
        assert_eq!(
            names(tmp.path()),
            [remade.file_name().unwrap().to_str().unwrap()]
        );
    }
}
