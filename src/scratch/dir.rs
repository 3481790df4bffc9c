//! One scratch directory on disk: named with our mark, locked while it
//! lives, registered before it exists, removed with a constant number of
//! open files.
//!
//! The name is the reference's, `path.join(os.tmpdir(),
//! "linzumi-worker-spawn-oracle-")` and six characters, so that paths near
//! PATH_MAX succeed or fail as the reference's do. Node (and every common
//! temporary-name generator) draws those six from letters and digits, and
//! Python's from those and `_`; ours start with [`MARK`], which none of
//! them uses, so that the collector of crash leftovers ([`super::collect`])
//! can tell our directories from anyone else's. Nothing is put inside the
//! directory (contract 3 promises a fresh one): it is held by `flock` on
//! its own descriptor, which the kernel releases however the process ends.

use std::ffi::{CStr, CString, OsStr};
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::collect;
use super::name::MARK;
use super::registry::{remove_live, Live, Scope};
use super::tmpdir::{libuv_error, mkdtemp_message, template_parent};
use sys_unix::{identity, identity_at};

const ALPHANUMERIC: &[u8; 62] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// How many names are tried before giving up (each clash is one chance in
/// 62^5 per directory already there).
const ATTEMPTS: usize = 1000;

fn random_suffix() -> [u8; 5] {
    static DRAWN: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(DRAWN.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    hasher.write_u128(now.as_nanos());
    let mut bits = hasher.finish();
    let mut suffix = [0; 5];
    for byte in &mut suffix {
        *byte = ALPHANUMERIC[(bits % 62) as usize];
        bits /= 62;
    }
    suffix
}

fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Why a scratch directory could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreateError {
    /// The case's message, as the reference words it (`ENOENT: no such
    /// file or directory, mkdtemp '/x/linzumi-worker-spawn-oracle-XXXXXX'`).
    Unavailable(String),
    /// Its scope was stopped.
    Stopped,
}

impl std::fmt::Display for CreateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CreateError::Unavailable(message) => f.write_str(message),
            CreateError::Stopped => {
                f.write_str("scratch directories were removed: the run was stopped")
            }
        }
    }
}

/// What one attempt at a name came to.
enum Attempt {
    Made(OwnedFd, (u64, u64)),
    /// The name was taken, or a collector took the directory before it
    /// was locked: try another.
    Again,
    Failed(io::Error),
}

/// One scratch directory: made fresh, removed on drop.
pub struct ScratchDir {
    scope: Arc<Scope>,
    id: u64,
    fd: OwnedFd,
    real_path: PathBuf,
    text: String,
}

impl ScratchDir {
    /// Makes a fresh directory from `template` (a path to which six
    /// characters are appended), in `scope`, first collecting the crash
    /// leftovers once per process. `before_lock` runs between making the
    /// directory and locking it (tests put a collector there).
    pub(super) fn create(
        scope: &Arc<Scope>,
        template: &str,
        before_lock: &dyn Fn(&CStr),
    ) -> Result<ScratchDir, CreateError> {
        collect::collect_once(template_parent(template));
        let unavailable =
            |error: &io::Error| CreateError::Unavailable(mkdtemp_message(error, template));
        for _ in 0..ATTEMPTS {
            let mut name = template.as_bytes().to_vec();
            name.push(MARK);
            name.extend_from_slice(&random_suffix());
            let path = CString::new(name)
                .map_err(|_| unavailable(&io::Error::from_raw_os_error(libc::EINVAL)))?;
            let id = next_id();
            let mut state = scope.write();
            if state.stopped {
                return Err(CreateError::Stopped);
            }
            // Registered before it exists: whoever removes the scope's
            // directories waits for this lock, and then finds it.
            state.live.push(Live {
                id,
                path: path.clone(),
                held: None,
            });
            let attempt = make_and_lock(&path, before_lock);
            let at = state
                .live
                .iter()
                .position(|live| live.id == id)
                .expect("registered under this lock");
            let (fd, identity) = match attempt {
                Attempt::Made(fd, identity) => (fd, identity),
                Attempt::Again => {
                    state.live.swap_remove(at);
                    continue;
                }
                Attempt::Failed(error) => {
                    state.live.swap_remove(at);
                    return Err(unavailable(&error));
                }
            };
            state.live[at].held = Some((fd.as_raw_fd(), identity));
            // Resolved under the lock too: a stop never comes in between.
            return match real_path(&path) {
                Ok(real_path) => Ok(ScratchDir {
                    scope: Arc::clone(scope),
                    id,
                    fd,
                    text: real_path.to_string_lossy().into_owned(),
                    real_path,
                }),
                Err(message) => {
                    remove_live(&state.live.swap_remove(at));
                    Err(CreateError::Unavailable(message))
                }
            };
        }
        Err(unavailable(&io::Error::from_raw_os_error(libc::EEXIST)))
    }

    /// The real path of the directory.
    pub fn path(&self) -> &Path {
        &self.real_path
    }

    /// The real path as text: what `$DIR` stands for.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The open directory, for making things inside it.
    pub fn fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

/// The real path (`D`) of a directory just made, or why not, as Node's
/// `realpathSync.native` words it.
fn real_path(path: &CStr) -> Result<PathBuf, String> {
    std::fs::canonicalize(OsStr::from_bytes(path.to_bytes())).map_err(|error| {
        let (code, text) = libuv_error(&error);
        format!("{code}: {text}, realpath '{}'", path.to_string_lossy())
    })
}

fn errno(error: &io::Error) -> i32 {
    error.raw_os_error().unwrap_or(0)
}

/// Makes the directory `path`, opens it and locks it, making sure that
/// what is locked is still what `path` names: a collector in another
/// process may have locked and removed it in between.
fn make_and_lock(path: &CStr, before_lock: &dyn Fn(&CStr)) -> Attempt {
    // SAFETY: a valid C string; the result is checked.
    if unsafe { libc::mkdir(path.as_ptr(), 0o700) } != 0 {
        let error = io::Error::last_os_error();
        return match errno(&error) {
            libc::EEXIST => Attempt::Again,
            _ => Attempt::Failed(error),
        };
    }
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: a valid C string; the result is checked.
    let raw = unsafe { libc::open(path.as_ptr(), flags) };
    if raw < 0 {
        let error = io::Error::last_os_error();
        return match errno(&error) {
            libc::ENOENT | libc::ENOTDIR | libc::ELOOP => Attempt::Again,
            _ => {
                // SAFETY: removes the empty directory just made.
                unsafe { libc::rmdir(path.as_ptr()) };
                Attempt::Failed(error)
            }
        };
    }
    // SAFETY: open just returned this descriptor.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    before_lock(path);
    // SAFETY: flock on a valid descriptor; the result is checked.
    if unsafe { libc::flock(fd.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = io::Error::last_os_error();
        if errno(&error) == libc::EWOULDBLOCK {
            // A collector holds it, and removes it.
            return Attempt::Again;
        }
        // A file system without flock: no collector can lock it either,
        // so none removes it; go on unlocked.
    }
    let Ok(held) = identity(fd.as_raw_fd()) else {
        return Attempt::Again;
    };
    match identity_at(libc::AT_FDCWD, path) {
        Ok(named) if named == held && links(fd.as_raw_fd()) > 0 => Attempt::Made(fd, held),
        _ => Attempt::Again,
    }
}

fn links(fd: RawFd) -> u64 {
    // SAFETY: fstat fills the zeroed struct; a failure reads as 0 links.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut stat) } != 0 {
        return 0;
    }
    stat.st_nlink
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let mut state = self.scope.write();
        if let Some(at) = state.live.iter().position(|live| live.id == self.id) {
            let live = state.live.swap_remove(at);
            remove_live(&live);
        }
        // The descriptor (and the lock) goes after, with `self.fd`.
    }
}
