//! The few Unix calls std lacks that the oracle and `parity-diff` both
//! need, so that neither side imports the other for them: process groups
//! (an oracle command's, `ipc-parent`'s child's), directories walked by
//! descriptor (scratch removal, and the atomic writes of `diff::files`),
//! and malloc's arena limit. A crate of its own, below both: it imports
//! nothing of either.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};

/// Sends `signal` to the process group a child leads (spawned with a
/// group of its own), and to the child itself, should it have left the
/// group. The child must not have been reaped yet: until then neither its
/// pid nor its group id can be reused, so no stranger gets the signal. A
/// pid that no process can have (0, or beyond `pid_t`) is ignored, since
/// `kill(0, …)` would signal our own group.
pub fn signal_group(pid: u32, signal: libc::c_int) {
    let Ok(group) = libc::pid_t::try_from(pid) else {
        return;
    };
    if group <= 0 {
        return;
    }
    // SAFETY: kill(2) touches no memory of ours.
    unsafe {
        libc::kill(-group, signal);
        libc::kill(group, signal);
    }
}

/// SIGKILL to a child's process group and to the child (see
/// [`signal_group`]).
pub fn kill_group(pid: u32) {
    signal_group(pid, libc::SIGKILL);
}

/// A libc call's result, or the error `errno` holds when it is negative.
pub fn check(result: libc::c_int) -> io::Result<libc::c_int> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

/// The `errno` value of an error (0 when it has none).
pub fn errno(error: &io::Error) -> i32 {
    error.raw_os_error().unwrap_or(0)
}

/// Opens `name` inside the directory `dir` (never following a symlink at
/// the last component).
pub fn open_dir_at(dir: RawFd, name: &CStr) -> io::Result<OwnedFd> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: a valid C string and a descriptor; the result is checked.
    let fd = check(unsafe { libc::openat(dir, name.as_ptr(), flags) })?;
    // SAFETY: openat just returned this descriptor, owned by no one else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// The device and inode of an open file: what it is, whatever its name.
pub fn identity(fd: RawFd) -> io::Result<(u64, u64)> {
    // SAFETY: fstat fills the zeroed struct; the result is checked.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    check(unsafe { libc::fstat(fd, &mut stat) })?;
    Ok((stat.st_dev, stat.st_ino))
}

/// The device and inode that `name` inside `dir` names, not following a
/// symlink.
pub fn identity_at(dir: RawFd, name: &CStr) -> io::Result<(u64, u64)> {
    // SAFETY: fstatat fills the zeroed struct; the result is checked.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    check(unsafe { libc::fstatat(dir, name.as_ptr(), &mut stat, libc::AT_SYMLINK_NOFOLLOW) })?;
    Ok((stat.st_dev, stat.st_ino))
}

/// The entries of a directory (without `.` and `..`): its subdirectories,
/// and everything else.
pub fn list(dir: RawFd) -> io::Result<(Vec<CString>, Vec<CString>)> {
    // The stream gets a descriptor of its own, closed with it.
    // SAFETY: F_DUPFD_CLOEXEC on a valid descriptor; checked.
    let copy = check(unsafe { libc::fcntl(dir, libc::F_DUPFD_CLOEXEC, 0) })?;
    // SAFETY: fdopendir takes ownership of `copy` when it succeeds.
    let stream = unsafe { libc::fdopendir(copy) };
    if stream.is_null() {
        let error = io::Error::last_os_error();
        // SAFETY: `copy` is still ours when fdopendir failed.
        unsafe { libc::close(copy) };
        return Err(error);
    }
    // The copy shares its offset with `dir`, which may have been read.
    // SAFETY: a valid stream.
    unsafe { libc::rewinddir(stream) };
    let mut directories = Vec::new();
    let mut others = Vec::new();
    let outcome = loop {
        // SAFETY: errno is thread-local; readdir reports errors through it.
        unsafe { *libc::__errno_location() = 0 };
        // SAFETY: a valid stream; the entry lives until the next readdir.
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            let error = io::Error::last_os_error();
            break if errno(&error) == 0 {
                Ok(())
            } else {
                Err(error)
            };
        }
        // SAFETY: readdir returned a valid entry with a NUL-terminated name.
        let (name, kind) = unsafe { (CStr::from_ptr((*entry).d_name.as_ptr()), (*entry).d_type) };
        if matches!(name.to_bytes(), b"." | b"..") {
            continue;
        }
        let is_directory = match kind {
            libc::DT_DIR => true,
            libc::DT_UNKNOWN => {
                // SAFETY: fstatat fills the zeroed struct; checked.
                let mut stat: libc::stat = unsafe { std::mem::zeroed() };
                let found = unsafe {
                    libc::fstatat(dir, name.as_ptr(), &mut stat, libc::AT_SYMLINK_NOFOLLOW)
                };
                found == 0 && stat.st_mode & libc::S_IFMT == libc::S_IFDIR
            }
            _ => false,
        };
        let name = name.to_owned();
        if is_directory {
            directories.push(name);
        } else {
            others.push(name);
        }
    };
    // SAFETY: closes the stream and `copy` with it.
    unsafe { libc::closedir(stream) };
    outcome.map(|()| (directories, others))
}

/// Makes every thread allocate from one glibc malloc arena (C code does:
/// `opendir`, the signal thread's setup). glibc gives each thread that
/// allocates an arena of its own, and each reserves 64 MiB of address
/// space: under `ulimit -v 256M` one more arena, made by the signal thread
/// before the batch thread's 64 MiB stack was mapped, left the batch
/// unable to start (now and then, by the threads' timing); in parity-diff
/// the report's thread and an oracle command's readers made the address
/// space 360 MB before any work. Small blocks still come from each
/// thread's own cache without a lock. Call it first, before any thread
/// starts.
pub fn limit_malloc_arenas() {
    #[cfg(target_env = "gnu")]
    // SAFETY: mallopt changes a setting of the allocator; no thread runs yet.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

extern "C" fn ignore_signal(_: libc::c_int) {}

/// Makes a write past `ulimit -f` fail with `EFBIG` (an error parity-diff
/// reports, exit 2) instead of killing the process with SIGXFSZ (exit
/// 153, no message). A handler, not `SIG_IGN`: exec resets a handler to
/// the default, so the commands parity-diff runs get the limit as usual,
/// where an ignored signal would stay ignored in them.
pub fn write_past_file_limit_fails() -> io::Result<()> {
    // SAFETY: a zeroed sigaction with a handler that does nothing (it is
    // async-signal-safe); the result is checked.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = ignore_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        check(libc::sigaction(
            libc::SIGXFSZ,
            &action,
            std::ptr::null_mut(),
        ))
        .map(drop)
    }
}
