//! Removing a directory tree of any depth with a constant number of open
//! files.
//!
//! `std::fs::remove_dir_all` keeps one open directory per level, so a tree
//! deeper than the open-file limit (about 1 000 levels under `ulimit -n
//! 1024`, well within PATH_MAX) is left behind. Here the walk holds only
//! the directory it is in: it climbs back through `..`, checking that it
//! arrives where it came from, and keeps in memory the names still to
//! visit along the current path (no more than the tree itself).

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use sys_unix::{check, errno, identity, list, open_dir_at};

/// How many times, in one removal, a directory that something refilled
/// behind the walk is listed again before giving up.
const RELISTS: u32 = 64;

fn unlink_at(dir: RawFd, name: &CStr, flags: libc::c_int) -> io::Result<()> {
    // SAFETY: a valid C string and a descriptor; the result is checked.
    check(unsafe { libc::unlinkat(dir, name.as_ptr(), flags) }).map(drop)
}

/// Removes the empty directory `name` inside `dir`; one already gone is
/// fine.
pub fn remove_dir_at(dir: RawFd, name: &CStr) -> io::Result<()> {
    match unlink_at(dir, name, libc::AT_REMOVEDIR) {
        Err(error) if errno(&error) != libc::ENOENT => Err(error),
        _ => Ok(()),
    }
}

/// Removes everything but the subdirectories of `dir`, and returns those.
fn clear_files(dir: RawFd) -> io::Result<Vec<CString>> {
    let (directories, others) = list(dir)?;
    for name in others {
        match unlink_at(dir, &name, 0) {
            Err(error) if errno(&error) != libc::ENOENT => return Err(error),
            _ => {}
        }
    }
    Ok(directories)
}

/// One directory on the way down: what it is, its name in its parent, and
/// the subdirectories still to remove.
struct Level {
    identity: (u64, u64),
    name: Option<CString>,
    pending: Vec<CString>,
}

/// Removes everything inside the open directory `top`, at any depth,
/// holding at most two more open files at a time.
pub fn remove_contents(top: RawFd) -> io::Result<()> {
    let mut levels = vec![Level {
        identity: identity(top)?,
        name: None,
        pending: clear_files(top)?,
    }];
    // The directory the walk is in; `None` is `top` itself.
    let mut current: Option<OwnedFd> = None;
    let mut relists = 0;
    loop {
        let here = current.as_ref().map_or(top, AsRawFd::as_raw_fd);
        let level = levels.last_mut().expect("the top level stays");
        if let Some(child) = level.pending.pop() {
            match open_dir_at(here, &child) {
                Ok(fd) => {
                    let child_identity = identity(fd.as_raw_fd())?;
                    // Leaving the parent first keeps the count of open
                    // files at three: `top`, this level, and its listing.
                    let here = current.insert(fd).as_raw_fd();
                    levels.push(Level {
                        identity: child_identity,
                        name: Some(child),
                        pending: clear_files(here)?,
                    });
                }
                Err(error) if errno(&error) == libc::ENOENT => {}
                // Replaced by a file or a symlink since it was listed.
                Err(error) if matches!(errno(&error), libc::ENOTDIR | libc::ELOOP) => {
                    match unlink_at(here, &child, 0) {
                        Err(error) if errno(&error) != libc::ENOENT => return Err(error),
                        _ => {}
                    }
                }
                Err(error) => return Err(error),
            }
            continue;
        }
        if levels.len() == 1 {
            return Ok(());
        }
        let done = levels.pop().expect("more than one level");
        let back_at_top = levels.len() == 1;
        let parent = levels.last_mut().expect("the top level stays");
        current = if back_at_top {
            None
        } else {
            let fd = open_dir_at(here, c"..")?;
            if identity(fd.as_raw_fd())? != parent.identity {
                return Err(io::Error::other(
                    "a directory was moved while its tree was being removed",
                ));
            }
            Some(fd)
        };
        let here = current.as_ref().map_or(top, AsRawFd::as_raw_fd);
        let name = done.name.expect("below the top, every level has a name");
        match unlink_at(here, &name, libc::AT_REMOVEDIR) {
            Err(error) if matches!(errno(&error), libc::ENOTEMPTY | libc::EEXIST) => {
                // Something was made in it behind the walk: list it again.
                relists += 1;
                if relists > RELISTS {
                    return Err(error);
                }
                parent.pending.push(name);
            }
            Err(error) if errno(&error) != libc::ENOENT => return Err(error),
            _ => {}
        }
    }
}

/// Removes the directory `relative` inside `dir` and everything in it.
pub fn remove_tree_at(dir: RawFd, relative: &CStr) -> io::Result<()> {
    let tree = match open_dir_at(dir, relative) {
        Ok(tree) => tree,
        Err(error) if errno(&error) == libc::ENOENT => return Ok(()),
        Err(error) => return Err(error),
    };
    remove_contents(tree.as_raw_fd())?;
    drop(tree);
    remove_dir_at(dir, relative)
}

/// How many files this process has open below `root`, for tests (other
/// tests open files of their own meanwhile).
#[cfg(test)]
pub fn open_files_below(root: &std::path::Path) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return 0;
    };
    entries
        .filter_map(|entry| std::fs::read_link(entry.ok()?.path()).ok())
        .filter(|target| target.starts_with(root))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    fn c(text: &str) -> CString {
        CString::new(text).unwrap()
    }

    /// Makes a chain `d/d/…` `depth` levels deep below `root` without
    /// ever naming it by a long path.
    fn make_chain(root: &std::path::Path, depth: usize) {
        let mut fd = open_dir_at(libc::AT_FDCWD, &c(root.to_str().unwrap())).unwrap();
        for level in 0..depth {
            // SAFETY: valid descriptor and C string.
            let made = unsafe { libc::mkdirat(fd.as_raw_fd(), c"d".as_ptr(), 0o700) };
            assert_eq!(made, 0, "{}", io::Error::last_os_error());
            if level % 97 == 0 {
                std::fs::write(format!("/proc/self/fd/{}/f", fd.as_raw_fd()), b"x").unwrap();
                std::os::unix::fs::symlink("/", format!("/proc/self/fd/{}/l", fd.as_raw_fd()))
                    .unwrap();
            }
            fd = open_dir_at(fd.as_raw_fd(), c"d").unwrap();
        }
    }

    #[test]
    fn a_tree_deeper_than_path_max_goes_with_few_open_files() {
        let root = tempfile::tempdir().unwrap();
        // 3 000 levels: 6 000 bytes of path, beyond PATH_MAX, and beyond
        // any open-file limit a one-fd-per-level walk could live with.
        make_chain(root.path(), 3000);
        for wide in 0..50 {
            std::fs::create_dir_all(root.path().join(format!("w{wide}/x/y"))).unwrap();
        }
        let top = open_dir_at(libc::AT_FDCWD, &c(root.path().to_str().unwrap())).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let peak = std::thread::scope(|scope| {
            let watcher = scope.spawn(|| {
                let mut peak = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    peak = peak.max(open_files_below(root.path()));
                }
                peak
            });
            remove_contents(top.as_raw_fd()).unwrap();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            watcher.join().unwrap()
        });
        // `top`, the level the walk is in, and the copy it lists.
        assert!(peak <= 3, "peak {peak} open files");
        assert!(peak >= 2, "the watcher saw the walk ({peak} open files)");
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_named_subtree_goes_and_its_siblings_stay() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("a/b/c")).unwrap();
        std::fs::create_dir_all(root.path().join("a/k")).unwrap();
        std::fs::write(root.path().join("a/b/file"), b"x").unwrap();
        let top = open_dir_at(libc::AT_FDCWD, &c(root.path().to_str().unwrap())).unwrap();
        remove_tree_at(top.as_raw_fd(), &c("a/b")).unwrap();
        assert!(!root.path().join("a/b").exists());
        assert!(root.path().join("a/k").is_dir());
        // Gone already is fine.
        remove_tree_at(top.as_raw_fd(), &c("a/b")).unwrap();
        let (directories, others) = list(top.as_raw_fd()).unwrap();
        assert_eq!(directories, [c("a")]);
        assert!(others.is_empty());
    }

    #[test]
    fn symlinks_are_removed_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep"), b"x").unwrap();
        std::fs::create_dir(root.path().join("t")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join("t/link")).unwrap();
        let top = open_dir_at(
            libc::AT_FDCWD,
            &CString::new(root.path().as_os_str().as_bytes()).unwrap(),
        )
        .unwrap();
        remove_contents(top.as_raw_fd()).unwrap();
        assert!(outside.path().join("keep").exists());
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
    }
}
