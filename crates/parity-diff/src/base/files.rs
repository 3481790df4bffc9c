//! The one way parity-diff creates files: goldens (`bless`), the ledger
//! and its lock (`accept`) and regression cases (`fuzz --out`).
//!
//! Every write names a root, the directory the command was given (the
//! golden directory, the ledger's directory, `--out`), and a path
//! relative to it. Nothing is ever written through a symbolic link: not
//! the file itself (a link named like it, even one pointing nowhere), and
//! not any directory between the root and the file (`golden/sub ->
//! ../outside` would otherwise send a golden outside the goldens). The
//! root itself is followed: the user named it. Reading follows links
//! (a linked directory of cases is read as part of the corpus).
//!
//! How: [`Dir::open`] opens the root, then each directory below it with
//! `openat(…, O_DIRECTORY | O_NOFOLLOW)` from the one above, making the
//! missing ones with `mkdirat`; the file is then created, renamed and
//! removed relative to the last one's descriptor, never by its path.
//! This guards against a link anywhere below the root, whether it was
//! there before the write or is swapped in during it: once a directory
//! is open, its descriptor is where the write goes, whatever its name
//! points to later. It does not guard the root's own path (followed as
//! given), nor a directory below the root that someone moves elsewhere
//! while it is open (the file goes with it; whoever can move it could
//! write there anyway), nor bind mounts.
//!
//! New files get mode 0666 less the umask, as a shell redirection would
//! make them; a file that is replaced keeps its permission bits (not its
//! owner: the new file is ours). Missing directories are made.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sys_unix::{check, identity, identity_at, list, open_dir_at};

pub mod input;

/// A new file's mode before the umask.
const NEW_FILE_MODE: u32 = 0o666;

/// A new directory's mode before the umask, as `mkdir -p` makes them.
const NEW_DIR_MODE: libc::mode_t = 0o777;

/// How many temporary names to try before giving up.
const TEMPORARY_TRIES: u32 = 64;

/// What every temporary file's name carries, so that a leftover is known
/// for ours ([`Dir::remove_temporaries_of`]).
const TEMPORARY_MARK: &str = "parity-diff-";

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
}

/// The directory a path's file is in, and the file's name: the
/// directory is empty (the current one, [`Dir::open`] says) for a bare
/// name.
pub fn split(path: &Path) -> io::Result<(&Path, &OsStr)> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })?;
    Ok((path.parent().unwrap_or(Path::new("")), name))
}

/// What is at a name in a directory, the name not followed.
enum Found {
    Nothing,
    Link,
    File { mode: u32 },
    Other,
}

/// A directory at or below a root, opened without following a link
/// below the root. Files are made in it by name, relative to its
/// descriptor.
pub struct Dir {
    fd: OwnedFd,
    /// Its path, for messages.
    path: PathBuf,
}

impl Dir {
    /// Opens `root/relative`, making what is missing. `relative` is
    /// directory names only (no `..`, not absolute); a symbolic link
    /// among them is refused with a message naming it. An empty `root`
    /// is the current directory (and messages name files without `./`).
    pub fn open(root: &Path, relative: &Path) -> io::Result<Dir> {
        let mut parts = Vec::new();
        for part in relative.components() {
            match part {
                Component::Normal(name) => parts.push(name),
                Component::CurDir => {}
                _ => return Err(not_inside(root, relative)),
            }
        }
        let opened = if root.as_os_str().is_empty() {
            Path::new(".")
        } else {
            root
        };
        fs::create_dir_all(opened)?;
        let root_file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
            .open(opened)?;
        let mut dir = Dir {
            fd: OwnedFd::from(root_file),
            path: root.to_path_buf(),
        };
        for part in parts {
            dir = dir.open_child(part)?;
        }
        Ok(dir)
    }

    /// Its path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn open_child(&self, name: &OsStr) -> io::Result<Dir> {
        let path = self.path.join(name);
        let c = c_name(name)?;
        let fd = match open_dir_at(self.fd.as_raw_fd(), &c) {
            Err(error) if error.raw_os_error() == Some(libc::ENOENT) => {
                // SAFETY: a valid descriptor and C string; checked.
                let made =
                    check(unsafe { libc::mkdirat(self.fd.as_raw_fd(), c.as_ptr(), NEW_DIR_MODE) });
                match made {
                    Err(error) if error.raw_os_error() != Some(libc::EEXIST) => return Err(error),
                    _ => open_dir_at(self.fd.as_raw_fd(), &c),
                }
            }
            opened => opened,
        };
        let fd = fd.map_err(|error| match (error.raw_os_error(), self.find(&c)) {
            (Some(libc::ELOOP | libc::ENOTDIR), Ok(Found::Link)) => refused_link(&path),
            (Some(libc::ENOTDIR), _) => io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", path.display()),
            ),
            _ => error,
        })?;
        Ok(Dir { fd, path })
    }

    fn find(&self, name: &CStr) -> io::Result<Found> {
        // SAFETY: fstatat fills the zeroed struct; the result is checked.
        let mut stat: libc::stat = unsafe { std::mem::zeroed() };
        let found = check(unsafe {
            libc::fstatat(
                self.fd.as_raw_fd(),
                name.as_ptr(),
                &mut stat,
                libc::AT_SYMLINK_NOFOLLOW,
            )
        });
        match found {
            Err(error) if error.raw_os_error() == Some(libc::ENOENT) => Ok(Found::Nothing),
            Err(error) => Err(error),
            Ok(_) => Ok(match stat.st_mode & libc::S_IFMT {
                libc::S_IFLNK => Found::Link,
                libc::S_IFREG => Found::File {
                    mode: stat.st_mode & 0o7777,
                },
                _ => Found::Other,
            }),
        }
    }

    /// Opens `name` in this directory with `flags` (and `O_NOFOLLOW`:
    /// a link there is `ELOOP`), creating it with mode 0666 less the
    /// umask when `flags` say so.
    pub fn open_file(&self, name: &OsStr, flags: libc::c_int) -> io::Result<File> {
        let c = c_name(name)?;
        let flags = flags | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        // SAFETY: a valid descriptor and C string; the result is checked.
        let fd = check(unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                flags,
                NEW_FILE_MODE as libc::c_uint,
            )
        })?;
        // SAFETY: openat just returned this descriptor, owned by no one else.
        Ok(File::from(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// Whether the open file `file` is what `name` in this directory
    /// names now (not removed, not replaced).
    pub fn still_names(&self, name: &OsStr, file: &File) -> io::Result<bool> {
        let held = identity(file.as_raw_fd())?;
        match identity_at(self.fd.as_raw_fd(), &c_name(name)?) {
            Ok(named) => Ok(named == held),
            Err(error) if error.raw_os_error() == Some(libc::ENOENT) => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// Removes `name` from this directory (a link itself, never what it
    /// points to); one already gone is fine.
    pub fn remove(&self, name: &OsStr) -> io::Result<()> {
        let c = c_name(name)?;
        // SAFETY: a valid descriptor and C string; the result is checked.
        match check(unsafe { libc::unlinkat(self.fd.as_raw_fd(), c.as_ptr(), 0) }) {
            Err(error) if error.raw_os_error() != Some(libc::ENOENT) => Err(error),
            _ => Ok(()),
        }
    }

    fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        let (from, to) = (c_name(from)?, c_name(to)?);
        let fd = self.fd.as_raw_fd();
        // SAFETY: a valid descriptor and C strings; the result is checked.
        check(unsafe { libc::renameat(fd, from.as_ptr(), fd, to.as_ptr()) }).map(drop)
    }

    /// Makes a rename in this directory durable. Some file systems refuse
    /// to sync a directory; the file itself is synced already, so that is
    /// not worth failing for.
    fn sync(&self) {
        // SAFETY: fsync on a valid descriptor; its failure is ignored.
        unsafe { libc::fsync(self.fd.as_raw_fd()) };
    }

    /// Removes the temporary files that writes of `target` in this
    /// directory left behind (their writer was killed); returns their
    /// paths. Only call this holding a lock that every writer of
    /// `target` holds while it writes: a live writer's temporary looks
    /// the same.
    pub fn remove_temporaries_of(&self, target: &OsStr) -> io::Result<Vec<PathBuf>> {
        let (_, names) = list(self.fd.as_raw_fd())?;
        let mut removed = Vec::new();
        for name in names {
            let name = OsStr::from_bytes(name.to_bytes());
            if is_temporary_of(name, target) {
                self.remove(name)?;
                removed.push(self.path.join(name));
            }
        }
        Ok(removed)
    }
}

/// The error for a path that does not stay below the root (`..`,
/// absolute), or names no file there.
fn not_inside(root: &Path, relative: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is not a path inside {}",
            relative.display(),
            root.display()
        ),
    )
}

fn refused_link(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!(
            "{} is a symbolic link; nothing is written through it",
            path.display()
        ),
    )
}

/// The name of a temporary file for `target`: hidden, named after it (so
/// that a leftover says what it was for), with our mark, this process's
/// id, a count and the clock, and `.tmp`.
fn temporary_name(target: &OsStr, count: u64, clock: u32) -> OsString {
    let mut name = OsString::from(".");
    name.push(target);
    name.push(format!(
        ".{TEMPORARY_MARK}{}-{count}-{clock:08x}.tmp",
        std::process::id()
    ));
    name
}

/// Whether `name` is what [`temporary_name`] makes for `target`.
fn is_temporary_of(name: &OsStr, target: &OsStr) -> bool {
    let rest = name.as_bytes().strip_prefix(b".");
    let rest = rest.and_then(|rest| rest.strip_prefix(target.as_bytes()));
    let rest = rest.and_then(|rest| rest.strip_prefix(b"."));
    let rest = rest.and_then(|rest| rest.strip_prefix(TEMPORARY_MARK.as_bytes()));
    let Some(rest) = rest.and_then(|rest| rest.strip_suffix(b".tmp")) else {
        return false;
    };
    let parts: Vec<&[u8]> = rest.split(|&byte| byte == b'-').collect();
    let digits = |part: &[u8]| !part.is_empty() && part.iter().all(u8::is_ascii_digit);
    matches!(parts[..], [pid, count, clock]
        if digits(pid) && digits(count) && clock.len() == 8 && clock.iter().all(u8::is_ascii_hexdigit))
}

/// A temporary file in a directory, removed unless it was renamed.
struct Temporary<'a> {
    dir: &'a Dir,
    name: OsString,
    kept: bool,
}

impl Drop for Temporary<'_> {
    fn drop(&mut self) {
        if !self.kept {
            let _ = self.dir.remove(&self.name);
        }
    }
}

/// A fresh temporary file in `dir` for `target`.
fn temporary_for<'a>(dir: &'a Dir, target: &OsStr) -> io::Result<(Temporary<'a>, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let clock = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.subsec_nanos());
    let mut last_error = None;
    for _ in 0..TEMPORARY_TRIES {
        let name = temporary_name(target, COUNTER.fetch_add(1, Ordering::Relaxed), clock);
        match dir.open_file(&name, libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL) {
            Ok(file) => {
                let temporary = Temporary {
                    dir,
                    name,
                    kept: false,
                };
                return Ok((temporary, file));
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                last_error = Some(error);
            }
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::other("no temporary name was free")))
}

/// Splits a path relative to a root into its directories and its file's
/// name.
fn dir_and_name<'a>(root: &Path, relative: &'a Path) -> io::Result<(&'a Path, &'a OsStr)> {
    let name = match relative.components().next_back() {
        Some(Component::Normal(name)) => name,
        _ => return Err(not_inside(root, relative)),
    };
    let below = |part| matches!(part, Component::Normal(_) | Component::CurDir);
    if !relative.components().all(below) {
        return Err(not_inside(root, relative));
    }
    Ok((relative.parent().unwrap_or(Path::new("")), name))
}

/// Replaces (or creates) `root/relative` with `bytes` atomically: readers
/// see the old file or the new one, never a part. The bytes go to a
/// temporary file beside the target, created fresh, synced, then renamed
/// over it. An existing target keeps its permission bits; a new one
/// follows the umask. A target that is a symbolic link or not a regular
/// file, and a symbolic link between `root` and it, are refused rather
/// than written through.
pub fn write_atomic(root: &Path, relative: &Path, bytes: &[u8]) -> io::Result<()> {
    let (parent, name) = dir_and_name(root, relative)?;
    Dir::open(root, parent)?.replace(name, bytes)
}

/// Creates `root/relative` with `bytes`; it must not exist. Any existing
/// name is refused with [`io::ErrorKind::AlreadyExists`], a symbolic link
/// too (dangling or not: it is never followed), and the message says
/// which; so is a symbolic link between `root` and it. A write that fails
/// half way removes the file again.
pub fn write_new(root: &Path, relative: &Path, bytes: &[u8]) -> io::Result<()> {
    let (parent, name) = dir_and_name(root, relative)?;
    Dir::open(root, parent)?.create(name, bytes)
}

impl Dir {
    /// [`write_atomic`] of `name` in this directory.
    pub fn replace(&self, name: &OsStr, bytes: &[u8]) -> io::Result<()> {
        let path = self.path.join(name);
        let kept_mode = match self.find(&c_name(name)?)? {
            Found::Link => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} is a symbolic link; it is not replaced", path.display()),
                ))
            }
            Found::Other => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!("{} is not a regular file", path.display()),
                ))
            }
            Found::File { mode } => Some(mode),
            Found::Nothing => None,
        };
        let (mut temporary, mut file) = temporary_for(self, name)?;
        if let Some(mode) = kept_mode {
            // Set after creation: the umask would clear bits at open.
            file.set_permissions(Permissions::from_mode(mode))?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        // A link put at the name since it was looked at is replaced, not
        // followed: rename never follows its target.
        self.rename(&temporary.name, name)?;
        temporary.kept = true;
        self.sync();
        Ok(())
    }

    /// [`write_new`] of `name` in this directory.
    pub fn create(&self, name: &OsStr, bytes: &[u8]) -> io::Result<()> {
        let path = self.path.join(name);
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL;
        let mut file = self.open_file(name, flags).map_err(|error| {
            if error.kind() != io::ErrorKind::AlreadyExists {
                return error;
            }
            let what = match c_name(name).and_then(|c| self.find(&c)) {
                Ok(Found::Link) => "is a symbolic link; it is not followed",
                _ => "exists already",
            };
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} {what}", path.display()),
            )
        })?;
        if let Err(error) = file.write_all(bytes).and_then(|()| file.sync_all()) {
            drop(file);
            let _ = self.remove(name);
            return Err(error);
        }
        self.sync();
        Ok(())
    }
}

/// Reads a case file or golden without following a symbolic link at its
/// last component (`ELOOP` when it is one), on [`input`]'s terms (a
/// regular file, a FIFO refused rather than waited on).
pub fn read_no_follow(path: &Path) -> io::Result<Vec<u8>> {
    input::read_no_follow(path, input::CORPUS_FILE)
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
mod tests;
