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
//! case.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;

use super::dir::ScratchDir;
use super::js_path;
use crate::js::JsString;

/// A directory inside the scratch directory: its components, as the bytes
/// that name them on disk.
type RelativeDir = Vec<Vec<u8>>;

/// The components of a `mkdirs` entry as `mkdir -p` of `path.join(D,
/// entry)` sees them: empty and `.` segments dropped (entries with `..`
/// were refused before).
fn components(entry: &JsString) -> RelativeDir {
    let path = js_path(entry);
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes
        .split(|&b| b == b'/')
        .filter(|segment| !segment.is_empty() && *segment != b".")
        .map(<[u8]>::to_vec)
        .collect()
}

/// The on-disk path of a relative directory.
fn path_of(dir: &ScratchDir, relative: &RelativeDir) -> std::path::PathBuf {
    let mut path = dir.path().to_path_buf();
    for component in relative {
        path.push(OsStr::from_bytes(component));
    }
    path
}

/// The scratch directory of one thread and what it holds.
pub struct ReusedScratch {
    dir: ScratchDir,
    /// The directories inside it, when known.
    present: BTreeSet<RelativeDir>,
    /// Whether `present` may be wrong.
    unknown: bool,
}

/// Why a case's directories could not be made.
pub enum ShapeError {
    /// The scratch directory itself could not be made.
    Scratch(io::Error),
    /// This `mkdirs` entry could not be made.
    Entry(JsString),
}

impl ReusedScratch {
    fn create() -> io::Result<ReusedScratch> {
        Ok(ReusedScratch {
            dir: ScratchDir::create()?,
            present: BTreeSet::new(),
            unknown: false,
        })
    }

    /// The directory.
    pub fn dir(&self) -> &ScratchDir {
        &self.dir
    }

    /// Empties the directory.
    fn empty(&mut self) -> io::Result<()> {
        for entry in std::fs::read_dir(self.dir.path())? {
            std::fs::remove_dir_all(entry?.path())?;
        }
        self.present.clear();
        self.unknown = false;
        Ok(())
    }

    /// How many directories must go or come for this one to hold `keep`.
    fn changes_for(&self, keep: &BTreeSet<RelativeDir>) -> usize {
        if self.unknown {
            return usize::MAX;
        }
        self.present.symmetric_difference(keep).count()
    }

    /// Makes the directory hold exactly what `mkdir -p` of each entry, in
    /// order, would make in a fresh one (`keep`: every directory that
    /// makes); or says which entry could not be made (the first, as in a
    /// fresh directory).
    fn shape(
        &mut self,
        entries: &[&JsString],
        wanted: &[RelativeDir],
        keep: &BTreeSet<RelativeDir>,
    ) -> Result<(), ShapeError> {
        if self.unknown {
            self.empty().map_err(ShapeError::Scratch)?;
        }
        // Deepest first, so each directory is empty when it goes.
        let mut extra: Vec<RelativeDir> = self.present.difference(keep).cloned().collect();
        extra.sort_by_key(|dir| std::cmp::Reverse(dir.len()));
        for dir in extra {
            if std::fs::remove_dir(path_of(&self.dir, &dir)).is_err() {
                self.unknown = true;
                return self.shape(entries, wanted, keep);
            }
            self.present.remove(&dir);
        }
        for (entry, dir) in entries.iter().zip(wanted) {
            for depth in 1..=dir.len() {
                let prefix = dir[..depth].to_vec();
                if self.present.contains(&prefix) {
                    continue;
                }
                match std::fs::create_dir(path_of(&self.dir, &prefix)) {
                    Ok(()) => {
                        self.present.insert(prefix);
                    }
                    Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                        self.unknown = true;
                        return self.shape(entries, wanted, keep);
                    }
                    Err(_) => return Err(ShapeError::Entry((*entry).clone())),
                }
            }
        }
        Ok(())
    }
}

/// How many scratch directories a thread keeps.
const POOL_SIZE: usize = 8;

thread_local! {
    static POOL: RefCell<Vec<ReusedScratch>> = const { RefCell::new(Vec::new()) };
}

/// Every directory `mkdir -p` of each entry makes, and each entry's own.
fn wanted_directories(entries: &[&JsString]) -> (Vec<RelativeDir>, BTreeSet<RelativeDir>) {
    let wanted: Vec<RelativeDir> = entries.iter().map(|entry| components(entry)).collect();
    let mut keep = BTreeSet::new();
    for dir in &wanted {
        for depth in 1..=dir.len() {
            keep.insert(dir[..depth].to_vec());
        }
    }
    (wanted, keep)
}

/// Runs `work` with one of this thread's scratch directories shaped for
/// `entries`. While `work` runs the contents count as unknown, so a panic
/// that unwinds out of it leaves that directory to be emptied before its
/// next case.
pub fn with_shaped_scratch<T>(
    entries: &[&JsString],
    work: impl FnOnce(&ScratchDir) -> T,
) -> Result<T, ShapeError> {
    let (wanted, keep) = wanted_directories(entries);
    POOL.with(|cell| {
        let mut pool = cell.borrow_mut();
        let closest = pool
            .iter()
            .enumerate()
            .map(|(at, scratch)| (scratch.changes_for(&keep), at))
            .min();
        // An exact match costs nothing; below the pool's size a new
        // directory per layout keeps alternating layouts from reshaping
        // one directory back and forth; beyond it, the closest is reshaped.
        let at = match closest {
            Some((0, at)) => at,
            Some((_, at)) if pool.len() >= POOL_SIZE => at,
            _ => {
                pool.push(ReusedScratch::create().map_err(ShapeError::Scratch)?);
                pool.len() - 1
            }
        };
        if let Err(error) = pool[at].shape(entries, &wanted, &keep) {
            if let ShapeError::Scratch(_) = error {
                // This directory is beyond repair: drop it (and remove it).
                pool.remove(at);
            }
            return Err(error);
        }
        let scratch = &mut pool[at];
        scratch.unknown = true;
        let result = work(&scratch.dir);
        scratch.unknown = false;
        Ok(result)
    })
}

/// Removes this thread's scratch directories now (they also go when the
/// thread ends).
pub fn release_thread_scratch() {
    POOL.with(|cell| cell.borrow_mut().clear());
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
