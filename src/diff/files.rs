//! The one way parity-diff creates files: goldens (`bless`), the ledger
//! (`accept`) and regression cases (`fuzz --out`).
//!
//! Neither function ever writes through a symbolic link: a link named
//! like the file (even one pointing nowhere) could otherwise send the
//! bytes outside the directory they belong in. New files get mode 0666
//! less the umask, as a shell redirection would make them; a file that
//! is replaced keeps its permission bits (not its owner: the new file is
//! ours). Both make the file's missing parent directories.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A new file's mode before the umask.
const NEW_FILE_MODE: u32 = 0o666;

/// How many temporary names to try before giving up.
const TEMPORARY_TRIES: u32 = 64;

fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Opens a file that must not exist yet: `O_CREAT | O_EXCL` fails on any
/// existing name, a symbolic link included, and `O_NOFOLLOW` says so
/// again.
fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(NEW_FILE_MODE)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Makes the rename that publishes a file durable. Some file systems
/// refuse to sync a directory; the file itself is synced already, so
/// that is not worth failing for.
fn sync_directory(dir: &Path) {
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// A temporary file beside the target, removed unless it was renamed.
struct Temporary {
    path: PathBuf,
    kept: bool,
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.kept {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// A fresh temporary file in `dir`, named after the target so that a
/// leftover says what it was for.
fn temporary_beside(dir: &Path, target: &Path) -> io::Result<(Temporary, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let stem = target
        .file_name()
        .map_or_else(|| OsString::from("file"), OsString::from);
    let clock = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.subsec_nanos());
    let mut last_error = None;
    for _ in 0..TEMPORARY_TRIES {
        let count = COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut name = OsString::from(".");
        name.push(&stem);
        name.push(format!(".{}-{count}-{clock:08x}.tmp", std::process::id()));
        let path = dir.join(name);
        match create_new(&path) {
            Ok(file) => return Ok((Temporary { path, kept: false }, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                last_error = Some(error);
            }
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::other("no temporary name was free")))
}

/// Replaces (or creates) `path` with `bytes` atomically: readers see the
/// old file or the new one, never a part. The bytes go to a temporary
/// file beside the target, created fresh, synced, then renamed over it.
/// An existing target keeps its permission bits; a new one follows the
/// umask. A target that is a symbolic link, or not a regular file, is
/// refused rather than replaced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = directory_of(path);
    fs::create_dir_all(dir)?;
    let kept_mode = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} is a symbolic link; it is not replaced", path.display()),
            ))
        }
        Ok(meta) if !meta.is_file() => {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} is not a regular file", path.display()),
            ))
        }
        Ok(meta) => Some(meta.permissions().mode() & 0o7777),
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(error) => return Err(error),
    };
    let (mut temporary, mut file) = temporary_beside(dir, path)?;
    if let Some(mode) = kept_mode {
        // Set after creation: the umask would clear bits at open.
        file.set_permissions(Permissions::from_mode(mode))?;
    }
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&temporary.path, path)?;
    temporary.kept = true;
    sync_directory(dir);
    Ok(())
}

/// Creates `path` with `bytes`; it must not exist. Any existing name is
/// refused with [`io::ErrorKind::AlreadyExists`], a symbolic link too
/// (dangling or not: it is never followed), and the message says which.
/// A write that fails half way removes the file again.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = directory_of(path);
    fs::create_dir_all(dir)?;
    let mut file = create_new(path).map_err(|error| {
        if error.kind() != io::ErrorKind::AlreadyExists {
            return error;
        }
        let what = match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => "is a symbolic link; it is not followed",
            _ => "exists already",
        };
        io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} {what}", path.display()),
        )
    })?;
    if let Err(error) = file.write_all(bytes).and_then(|()| file.sync_all()) {
        drop(file);
        let _ = fs::remove_file(path);
        return Err(error);
    }
    sync_directory(dir);
    Ok(())
}

/// Reads a file without following a symbolic link at its last component
/// (`ELOOP` when it is one).
pub fn read_no_follow(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut file, &mut bytes)?;
    Ok(bytes)
}

/// This process's umask, read without changing it (tests of the modes
/// new files get).
#[cfg(test)]
pub(crate) fn umask() -> u32 {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
    u32::from_str_radix(line["Umask:".len()..].trim(), 8).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    use super::umask;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn atomic_writes_replace_make_directories_and_leave_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep/x.json");
        write_atomic(&path, b"[\n1\n]\n").unwrap();
        assert_eq!(mode(&path), NEW_FILE_MODE & !umask());
        write_atomic(&path, b"[\n2\n]\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"[\n2\n]\n");
        assert_eq!(names(&dir.path().join("deep")), ["x.json"]);
    }

    #[test]
    fn atomic_writes_keep_the_permission_bits_of_the_file_they_replace() {
        let dir = tempfile::tempdir().unwrap();
        for kept in [0o640, 0o600, 0o755, 0o444] {
            let path = dir.path().join(format!("{kept:o}.json"));
            fs::write(&path, "old").unwrap();
            fs::set_permissions(&path, Permissions::from_mode(kept)).unwrap();
            write_atomic(&path, b"new").unwrap();
            assert_eq!(mode(&path), kept, "{}", path.display());
            assert_eq!(fs::read(&path).unwrap(), b"new");
        }
    }

    #[test]
    fn atomic_writes_refuse_links_and_directories_and_write_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("victim");
        let link = dir.path().join("x.json");
        symlink(&target, &link).unwrap();
        let error = write_atomic(&link, b"x").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(
            error.to_string(),
            format!("{} is a symbolic link; it is not replaced", link.display())
        );
        assert!(!target.exists());
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        assert_eq!(
            write_atomic(&sub, b"x").unwrap_err().to_string(),
            format!("{} is not a regular file", sub.display())
        );
        assert_eq!(names(dir.path()), ["sub", "x.json"]);
    }

    #[test]
    fn new_files_are_never_written_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("escaped.json");
        let link = dir.path().join("case.json");
        symlink(&target, &link).unwrap();
        let error = write_new(&link, b"[]").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(
            error.to_string(),
            format!("{} is a symbolic link; it is not followed", link.display())
        );
        assert!(!target.exists(), "the dangling link was followed");
        assert_eq!(
            read_no_follow(&link).unwrap_err().raw_os_error(),
            Some(libc::ELOOP)
        );
    }

    #[test]
    fn new_files_follow_the_umask_and_never_replace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b.json");
        write_new(&path, b"one").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        assert_eq!(read_no_follow(&path).unwrap(), b"one");
        assert_eq!(mode(&path), NEW_FILE_MODE & !umask());
        let error = write_new(&path, b"two").unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("{} exists already", path.display())
        );
        assert_eq!(fs::read(&path).unwrap(), b"one");
    }
}
