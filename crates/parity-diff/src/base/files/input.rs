//! The one way parity-diff opens a file it reads: case files, goldens,
//! ledgers, configs, saved reports, timings, allowlists.
//!
//! Every one of them may come from a pull request, so a name may be a
//! symbolic link to anything. Only a regular file is read (links
//! followed): a device (`/dev/zero` is endless), a FIFO or
//! `/proc/self/fd/0` (either blocks until someone writes), a socket, a
//! directory or a file of `/proc` or `/sys` (sizes that lie) is an error
//! saying what it is. And each kind of file has a bound on its size
//! ([`Bound`]), checked before reading and again while reading (a file
//! may grow): a sparse file of 8 EB is as endless as `/dev/zero`.
//! docs/LIMITS.md lists the bounds.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The most bytes a kind of input may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// What the file is, for the error (`a ledger`).
    pub what: &'static str,
    /// Its most bytes.
    pub max: u64,
}

const MIB: u64 = 1024 * 1024;
const GIB: u64 = 1024 * MIB;

/// `parity.toml`: a handful of tables.
pub const CONFIG: Bound = Bound {
    what: "a config",
    max: MIB,
};

/// A ledger: read whole, and every entry is held.
pub const LEDGER: Bound = Bound {
    what: "a ledger",
    max: 64 * MIB,
};

/// A case file or a golden: streamed when large, so memory does not
/// follow it; the bound only stops what never ends.
pub const CORPUS_FILE: Bound = Bound {
    what: "a case file or golden",
    max: 16 * GIB,
};

/// A saved JSON report (`merge`, `delta`, `review --report`,
/// `--rerun-failed`).
pub const REPORT: Bound = Bound {
    what: "a saved report",
    max: GIB,
};

/// A timings file (`--timings`).
pub const TIMINGS: Bound = Bound {
    what: "a timings file",
    max: 64 * MIB,
};

/// A progress file (`parity-diff progress`): a few counts per op.
pub const PROGRESS: Bound = Bound {
    what: "a progress file",
    max: 16 * MIB,
};

/// A coverage allowlist.
pub const ALLOWLIST: Bound = Bound {
    what: "an allowlist",
    max: 16 * MIB,
};

/// `/proc`'s and `/sys`'s file system magic numbers: their files say
/// size 0, or 4096, whatever they hold.
const PSEUDO_FILE_SYSTEMS: [i64; 2] = [0x9fa0, 0x6265_6572];

/// What a file that is not a regular one is, for an error (`None` for
/// a regular file).
pub fn not_regular(metadata: &Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    Some(if kind.is_file() {
        return None;
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a FIFO (a named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    })
}

fn refused(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Whether the open file is on `/proc` or `/sys`.
fn on_pseudo_file_system(file: &File) -> bool {
    // SAFETY: fstatfs fills the zeroed struct; the result is checked.
    let mut stat: libc::statfs = unsafe { std::mem::zeroed() };
    let done = unsafe { libc::fstatfs(file.as_raw_fd(), &mut stat) };
    #[allow(clippy::unnecessary_cast)]
    let magic = stat.f_type as i64;
    done == 0 && PSEUDO_FILE_SYSTEMS.contains(&magic)
}

/// Opens `path` (links followed) to be read, when it is a regular file
/// of at most `bound.max` bytes; otherwise an error whose message says
/// what it is, or its size and the bound. The error does not name the
/// path: every caller's message does.
pub fn open(path: &Path, bound: Bound) -> io::Result<File> {
    open_with(path, bound, 0)
}

/// [`open`], but a symbolic link at the path's last component is not
/// followed (`ELOOP`): for a file parity-diff wrote itself.
pub fn open_no_follow(path: &Path, bound: Bound) -> io::Result<File> {
    open_with(path, bound, libc::O_NOFOLLOW)
}

fn open_with(path: &Path, bound: Bound, flags: libc::c_int) -> io::Result<File> {
    // Non-blocking: opening a FIFO would otherwise wait for a writer.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(flags | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC)
        .open(path)?;
    let metadata = file.metadata()?;
    if let Some(kind) = not_regular(&metadata) {
        return Err(refused(format!("{kind}, not a regular file")));
    }
    if on_pseudo_file_system(&file) {
        return Err(refused(
            "a file of /proc or /sys, not a regular file".to_owned(),
        ));
    }
    if metadata.len() > bound.max {
        return Err(too_large(metadata.len(), bound));
    }
    // SAFETY: fcntl on a descriptor we own; clearing O_NONBLOCK again
    // (a regular file ignores it, but a reader may hand it on).
    unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETFL, 0) };
    Ok(file)
}

fn too_large(size: u64, bound: Bound) -> io::Error {
    refused(format!(
        "{} bytes, over the bound of {} for {} (docs/LIMITS.md)",
        size,
        human(bound.max),
        bound.what
    ))
}

/// A bound as people write it (`64 MiB`).
pub fn human(bytes: u64) -> String {
    match bytes {
        _ if bytes >= GIB && bytes.is_multiple_of(GIB) => format!("{} GiB", bytes / GIB),
        _ if bytes >= MIB && bytes.is_multiple_of(MIB) => format!("{} MiB", bytes / MIB),
        _ => format!("{bytes} bytes"),
    }
}

/// Reads `path` whole, on [`open`]'s terms; a file that grows past the
/// bound while it is read is refused too.
pub fn read(path: &Path, bound: Bound) -> io::Result<Vec<u8>> {
    read_from(open(path, bound)?, bound)
}

/// [`read`] on [`open_no_follow`]'s terms.
pub fn read_no_follow(path: &Path, bound: Bound) -> io::Result<Vec<u8>> {
    read_from(open_no_follow(path, bound)?, bound)
}

fn read_from(file: File, bound: Bound) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(bound.max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > bound.max {
        return Err(too_large(bytes.len() as u64, bound));
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text.
pub fn read_text(path: &Path, bound: Bound) -> io::Result<String> {
    String::from_utf8(read(path, bound)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Bound = Bound {
        what: "a test file",
        max: 4,
    };

    fn error(path: &str, bound: Bound) -> String {
        read(Path::new(path), bound).unwrap_err().to_string()
    }

    #[test]
    fn only_regular_files_are_read() {
        assert_eq!(
            error("/dev/zero", SMALL),
            "a character device, not a regular file"
        );
        assert_eq!(error("/", SMALL), "a directory, not a regular file");
        assert_eq!(
            error("/proc/self/status", LEDGER),
            "a file of /proc or /sys, not a regular file"
        );
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Would block forever if opened as a file is.
        assert_eq!(
            error(fifo.to_str().unwrap(), SMALL),
            "a FIFO (a named pipe), not a regular file"
        );
        // A finding named like ours but a FIFO: refused, not waited on.
        let no_follow = read_no_follow(&fifo, SMALL).unwrap_err().to_string();
        assert_eq!(no_follow, "a FIFO (a named pipe), not a regular file");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert_eq!(
            error(link.to_str().unwrap(), SMALL),
            "a character device, not a regular file"
        );
        let followed = read_no_follow(&link, SMALL).unwrap_err();
        assert_eq!(followed.raw_os_error(), Some(libc::ELOOP));
    }

    #[test]
    fn sizes_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"1234").unwrap();
        assert_eq!(read(&path, SMALL).unwrap(), b"1234");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(
            error(path.to_str().unwrap(), SMALL),
            "5 bytes, over the bound of 4 bytes for a test file (docs/LIMITS.md)"
        );
        // Sparse: no disk, but endless enough.
        let file = File::create(&path).unwrap();
        file.set_len(1 << 40).unwrap();
        assert!(
            error(path.to_str().unwrap(), LEDGER).contains("over the bound of 64 MiB for a ledger")
        );
    }
}
