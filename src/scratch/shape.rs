//! Scratch directories reused from case to case, each reshaped to hold
//! exactly the directories a case's `mkdirs` makes.
//!
//! Making and removing a directory tree per case costs far more than the
//! ops themselves (ext4 `mkdir` dominated the profile of a mixed batch).
//! The ops only read the directory, and results name it `$DIR`, so a case
//! cannot tell a fresh directory from one that was emptied and refilled.
//! Each thread therefore keeps a few directories, and gives a case the one
//! that needs the fewest changes: one already holding exactly its
//! directories when a corpus repeats a layout (then nothing is touched),
//! a new one while the thread has fewer than `POOL_SIZE`, and otherwise
//! the closest, after removing the directories the case does not make
//! and making the ones that are missing. Anything unexpected (a failed removal, a panic mid-case)
//! marks a directory's contents unknown, and it is emptied before its next
//! case. What a directory holds is a `Layout` (layout.rs), linear in the size of
//! the entries that made it.

use std::cell::RefCell;
use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use super::dir::{CreateError, ScratchDir};
use super::layout::{components, leading, Entry, Layout};
use super::registry::{self, Scope};
use super::remove::{remove_contents, remove_tree_at};
use super::tmpdir;
use js_exact::JsString;

/// The scratch directory of one thread and what it holds.
pub struct ReusedScratch {
    dir: ScratchDir,
    /// The directories inside it, when known.
    layout: Layout,
    /// Whether `layout` may be wrong.
    unknown: bool,
}

/// Why a case's directories could not be made.
pub enum ShapeError {
    /// The scratch directory itself could not be made.
    Scratch(CreateError),
    /// This `mkdirs` entry could not be made.
    Entry(JsString),
}

/// Entries whose missing part is at most this deep are made by relative
/// path from the scratch directory (one system call a directory); deeper
/// ones by walking down from directory to directory, so that making an
/// entry costs time linear in its depth, not quadratic.
const SHALLOW: usize = 8;

fn c_path(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

fn make_dir_at(dir: RawFd, name: &CString) -> io::Result<()> {
    // SAFETY: a valid C string and descriptor; the result is checked.
    if unsafe { libc::mkdirat(dir, name.as_ptr(), 0o777) } == 0 {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    match error.raw_os_error() {
        Some(libc::EEXIST) => Ok(()),
        _ => Err(error),
    }
}

fn open_path_at(dir: RawFd, name: &CString) -> io::Result<OwnedFd> {
    let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: a valid C string and descriptor; the result is checked.
    let fd = unsafe { libc::openat(dir, name.as_ptr(), flags) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: openat just returned it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// `mkdir -p` of `path` inside `root`, whose first `known` components
/// exist already.
fn make_entry(root: RawFd, path: &[u8], known: usize) -> io::Result<()> {
    let wanted = components(path);
    if known >= wanted {
        return Ok(());
    }
    if wanted - known <= SHALLOW {
        for depth in known + 1..=wanted {
            make_dir_at(root, &c_path(leading(path, depth))?)?;
        }
        return Ok(());
    }
    let mut here: Option<OwnedFd> = match known {
        0 => None,
        _ => Some(open_path_at(root, &c_path(leading(path, known))?)?),
    };
    for component in path.split(|&byte| byte == b'/').skip(known) {
        let name = c_path(component)?;
        let at = here.as_ref().map_or(root, AsRawFd::as_raw_fd);
        make_dir_at(at, &name)?;
        here = Some(open_path_at(at, &name)?);
    }
    Ok(())
}

impl ReusedScratch {
    fn create(scope: &std::sync::Arc<Scope>) -> Result<ReusedScratch, CreateError> {
        Ok(ReusedScratch {
            dir: ScratchDir::create(scope, &tmpdir::template(), &|_| {})?,
            layout: Layout::default(),
            unknown: false,
        })
    }

    /// The directory.
    pub fn dir(&self) -> &ScratchDir {
        &self.dir
    }

    /// How many directories must go or come for this one to hold `keep`.
    fn changes_for(&self, keep: &Layout) -> usize {
        if self.unknown {
            return usize::MAX;
        }
        self.layout.changes_to(keep)
    }

    /// Removes the directories that `keep` does not hold (or everything,
    /// when what is there is unknown).
    fn prune(&mut self, keep: &Layout) -> io::Result<()> {
        if !self.unknown {
            let mut failed = false;
            for root in self.layout.removals(keep) {
                if remove_tree_at(self.dir.fd(), &c_path(root)?).is_err() {
                    failed = true;
                    break;
                }
            }
            if !failed {
                return Ok(());
            }
        }
        self.unknown = true;
        remove_contents(self.dir.fd())?;
        self.layout = Layout::default();
        self.unknown = false;
        Ok(())
    }

    /// Makes the directory hold exactly what `mkdir -p` of each entry, in
    /// order, would make in a fresh one (`keep`); or says which entry
    /// could not be made (the first, as in a fresh directory).
    /// Call after [`prune`](Self::prune).
    fn shape(&mut self, entries: &[Entry], keep: Layout) -> Result<(), ShapeError> {
        // What was there and is kept; entries made below add to it.
        let before = std::mem::take(&mut self.layout);
        self.unknown = true;
        let dir_len = self.dir.text().len();
        for entry in entries {
            let fail = || ShapeError::Entry(entry.text.clone());
            if entry.cannot_be_made(dir_len) {
                return Err(fail());
            }
            let known = before.depth_of(&entry.path);
            make_entry(self.dir.fd(), &entry.path, known).map_err(|_| fail())?;
        }
        self.layout = keep;
        self.unknown = false;
        Ok(())
    }
}

/// How many scratch directories a thread keeps.
const POOL_SIZE: usize = 8;

thread_local! {
    static POOL: RefCell<Vec<ReusedScratch>> = const { RefCell::new(Vec::new()) };
}

/// Runs `work` with one of this thread's scratch directories shaped for
/// `entries`. While `work` runs the contents count as unknown, so a panic
/// that unwinds out of it leaves that directory to be emptied before its
/// next case.
pub fn with_shaped_scratch<T>(
    entries: &[&JsString],
    work: impl FnOnce(&ScratchDir) -> T,
) -> Result<T, ShapeError> {
    let entries: Vec<Entry> = entries.iter().map(|entry| Entry::new(entry)).collect();
    let keep = Layout::of(entries.iter().map(|entry| &entry.path[..]));
    let scope = registry::current();
    POOL.with(|cell| {
        let mut pool = cell.borrow_mut();
        let exact = pool
            .iter()
            .position(|scratch| !scratch.unknown && scratch.layout == keep);
        if let Some(at) = exact {
            let Some(filling) = scope.filling() else {
                return Err(ShapeError::Scratch(CreateError::Stopped));
            };
            drop(filling);
            // Its directories are all there, but an entry that names one
            // of them by a path too long for the kernel still fails.
            let dir_len = pool[at].dir.text().len();
            if let Some(entry) = entries.iter().find(|entry| entry.cannot_be_made(dir_len)) {
                return Err(ShapeError::Entry(entry.text.clone()));
            }
            return Ok(run_in(&mut pool[at], work));
        }
        let mut keep = Some(keep);
        // A directory that cannot be emptied is dropped, and the case gets
        // a fresh one.
        for retry in [false, true] {
            // Below the pool's size a new directory per layout keeps
            // alternating layouts from reshaping one directory back and
            // forth; beyond it, the closest is reshaped.
            let wanted = keep.as_ref().expect("taken only on the way out");
            let at = if pool.len() < POOL_SIZE {
                pool.push(ReusedScratch::create(&scope).map_err(ShapeError::Scratch)?);
                pool.len() - 1
            } else {
                pool.iter()
                    .enumerate()
                    .map(|(at, scratch)| (scratch.changes_for(wanted), at))
                    .min()
                    .map_or(0, |(_, at)| at)
            };
            let Some(filling) = scope.filling() else {
                return Err(ShapeError::Scratch(CreateError::Stopped));
            };
            let shaped = match pool[at].prune(wanted) {
                Ok(()) => pool[at]
                    .shape(&entries, keep.take().expect("kept until shaped"))
                    .map(|()| at),
                Err(error) => Err(ShapeError::Scratch(CreateError::Unavailable(format!(
                    "the scratch directory could not be emptied: {error}"
                )))),
            };
            drop(filling);
            match shaped {
                Ok(at) => return Ok(run_in(&mut pool[at], work)),
                Err(ShapeError::Scratch(error)) => {
                    // Beyond repair: drop it (which removes it).
                    pool.remove(at);
                    if retry {
                        return Err(ShapeError::Scratch(error));
                    }
                }
                Err(error) => return Err(error),
            }
        }
        unreachable!("the second attempt returns")
    })
}

/// Runs a case's op in its shaped directory, whose contents count as
/// unknown until it returns.
fn run_in<T>(scratch: &mut ReusedScratch, work: impl FnOnce(&ScratchDir) -> T) -> T {
    scratch.unknown = true;
    let result = work(&scratch.dir);
    scratch.unknown = false;
    result
}

/// Removes this thread's scratch directories now (they also go when the
/// thread ends).
pub fn release_thread_scratch() {
    let pooled = POOL.with(|cell| std::mem::take(&mut *cell.borrow_mut()));
    drop(pooled);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(dir: &ScratchDir) -> Vec<String> {
        let mut found: Vec<String> = walkdir::WalkDir::new(dir.path())
            .min_depth(1)
            .into_iter()
            .map(|entry| {
                let entry = entry.unwrap();
                entry
                    .path()
                    .strip_prefix(dir.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        found.sort();
        found
    }

    fn shaped(entries: &[&str]) -> Result<Vec<String>, String> {
        let entries: Vec<JsString> = entries.iter().map(|e| JsString::from(*e)).collect();
        let refs: Vec<&JsString> = entries.iter().collect();
        match with_shaped_scratch(&refs, tree) {
            Ok(tree) => Ok(tree),
            Err(ShapeError::Entry(entry)) => Err(entry.to_string()),
            Err(ShapeError::Scratch(error)) => Err(error.to_string()),
        }
    }

    #[test]
    fn each_case_sees_exactly_its_own_directories() {
        assert_eq!(shaped(&["a/b", "c"]).unwrap(), ["a", "a/b", "c"]);
        assert_eq!(shaped(&["a", "d/./e//"]).unwrap(), ["a", "d", "d/e"]);
        assert_eq!(shaped(&[]).unwrap(), Vec::<String>::new());
        assert_eq!(shaped(&[".", "./"]).unwrap(), Vec::<String>::new());
        assert_eq!(shaped(&["x/y/z", "x"]).unwrap(), ["x", "x/y", "x/y/z"]);
        release_thread_scratch();
    }

    #[test]
    fn the_first_entry_that_cannot_be_made_is_named_and_the_next_case_is_clean() {
        let long = "n".repeat(300);
        let failing = format!("ok/{long}");
        assert_eq!(shaped(&["fine", &failing, "later"]), Err(failing.clone()));
        assert_eq!(shaped(&["other"]).unwrap(), ["other"]);
        assert_eq!(shaped(&["a\u{0}b"]), Err("a\u{0}b".to_owned()));
        assert_eq!(shaped(&["b"]).unwrap(), ["b"]);
        release_thread_scratch();
    }

    #[test]
    fn a_panic_mid_case_leaves_an_emptied_directory_for_the_next() {
        let entries = [JsString::from("p/q")];
        let refs: Vec<&JsString> = entries.iter().collect();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            with_shaped_scratch(&refs, |dir| {
                std::fs::create_dir(dir.path().join("stray")).unwrap();
                panic!("op failed")
            })
        }));
        assert!(outcome.is_err());
        assert_eq!(shaped(&["r"]).unwrap(), ["r"]);
        release_thread_scratch();
    }

    #[test]
    fn a_repeated_layout_gets_back_the_directory_that_already_has_it() {
        let dir_for = |entries: &[&str]| {
            let entries: Vec<JsString> = entries.iter().map(|e| JsString::from(*e)).collect();
            let refs: Vec<&JsString> = entries.iter().collect();
            with_shaped_scratch(&refs, |dir| (dir.path().to_path_buf(), tree(dir)))
                .ok()
                .unwrap()
        };
        let (first, first_tree) = dir_for(&["a/b", "c"]);
        let (other, other_tree) = dir_for(&["w/x/y", "z"]);
        let (again, again_tree) = dir_for(&["c", "a/b"]);
        assert_ne!(first, other);
        assert_eq!(first, again);
        assert_eq!(first_tree, again_tree);
        assert_eq!(other_tree, ["w", "w/x", "w/x/y", "z"]);
        // With the pool full, a new layout is made from the closest one.
        for n in 2..POOL_SIZE {
            dir_for(&[format!("filler{n}").as_str()]);
        }
        let (close, close_tree) = dir_for(&["a/b", "c", "d"]);
        assert_eq!(close, first);
        assert_eq!(close_tree, ["a", "a/b", "c", "d"]);
        release_thread_scratch();
        assert!(!first.exists() && !other.exists());
    }

    #[test]
    fn the_directory_goes_with_the_thread() {
        let path = std::thread::spawn(|| {
            let entries = [JsString::from("a")];
            let refs: Vec<&JsString> = entries.iter().collect();
            with_shaped_scratch(&refs, |dir| dir.path().to_path_buf())
                .ok()
                .unwrap()
        })
        .join()
        .unwrap();
        assert!(!path.exists());
    }
}
