//! Helpers for the fault tests: private temporary directories, the oracle
//! under shell limits, signals, and what a run leaves behind.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The prefix of every scratch directory.
pub const PREFIX: &str = "linzumi-worker-spawn-oracle-";

/// A private temporary directory for one test, on tmpfs when there is one:
/// deep trees are made and removed there by the thousand, and a disk that
/// discards on every rmdir takes seconds for that.
pub fn private_tmpdir() -> tempfile::TempDir {
    let builder = {
        let mut builder = tempfile::Builder::new();
        builder.prefix("wso-faults-");
        builder
    };
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        if let Ok(dir) = builder.tempdir_in(shm) {
            return dir;
        }
    }
    builder.tempdir().expect("a private temporary directory")
}

/// The names in a directory, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory lists")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The scratch directories in a directory.
pub fn scratch_dirs(dir: &Path) -> Vec<String> {
    names(dir)
        .into_iter()
        .filter(|name| name.starts_with(PREFIX))
        .collect()
}

/// The oracle run by `sh` after `limits` (e.g. `ulimit -n 32`), with
/// `TMPDIR` set.
pub fn oracle_command(tmpdir: &Path, limits: &str) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{limits}\nexec \"$0\""))
        .arg(super::oracle_binary())
        .env("TMPDIR", tmpdir);
    command
}

/// Starts the oracle (after `limits`, as [`oracle_command`]) with stdout
/// and stderr as given, and feeds it `input` from a thread of its own, so
/// that the test can watch it, read it or signal it mid-batch.
pub fn spawn_fed(
    tmpdir: &Path,
    limits: &str,
    input: Vec<u8>,
    stdout: Stdio,
    stderr: Stdio,
) -> (Child, std::thread::JoinHandle<()>) {
    let mut child = oracle_command(tmpdir, limits)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    (child, writer)
}

/// What a finished run did, with its peak resident memory.
pub struct Run {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub peak_kib: i64,
}

/// Runs a command with `input` on stdin to its end, and measures the peak
/// resident memory of that process alone (wait4, not the children of the
/// whole test binary).
// The child is waited for with wait4, for its resource usage.
#[allow(clippy::zombie_processes)]
pub fn run_measured(command: &mut Command, input: &[u8]) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let (status, peak_kib) = wait_with_usage(&child);
    writer.join().unwrap();
    Run {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        peak_kib,
    }
}

/// Waits for a child and returns its status and peak resident memory.
pub fn wait_with_usage(child: &Child) -> (ExitStatus, i64) {
    use std::os::unix::process::ExitStatusExt;
    let mut status = 0;
    // SAFETY: wait4 fills a zeroed rusage for our own child's pid.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    loop {
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if waited == pid {
            break;
        }
        assert_eq!(
            std::io::Error::last_os_error().kind(),
            std::io::ErrorKind::Interrupted
        );
    }
    (ExitStatus::from_raw(status), usage.ru_maxrss)
}

/// Sends a signal to a child.
pub fn signal(child: &Child, signal: libc::c_int) {
    // SAFETY: kill(2) on the pid of our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
}

/// Waits until `ready` holds, for at most ten seconds.
pub fn wait_until(mut ready: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// A batch of `count` scratch cases whose layouts cycle through more than
/// a pool holds, so that directories are made, reshaped and emptied all
/// along; every result is `{"defined":false}`.
pub fn scratch_heavy_batch(count: usize) -> String {
    let cases: Vec<String> = (0..count)
        .map(|n| {
            let layout = n % 11;
            format!(
                r#"{{"op":"preflight","mkdirs":["a/b","l{layout}/x/y","c{}"],"cwd":"$DIR/l{layout}/x/y","allowedCwds":["$DIR/l{layout}"]}}"#,
                n % 3
            )
        })
        .collect();
    format!("[{}]", cases.join(","))
}

/// Whether bytes are one complete JSON array.
pub fn is_complete_array(bytes: &[u8]) -> bool {
    serde_json::from_slice::<Vec<serde_json::Value>>(bytes).is_ok()
}
