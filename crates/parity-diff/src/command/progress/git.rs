//! What git knows of a progress file, asked through the `git` command:
//! the commit a file is written at (`git rev-parse HEAD`), and the
//! file's versions (`git log` once, then `git cat-file --batch` once for
//! every version's text, so a long history costs two processes).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use super::{file, Progress};
use crate::base::error::InputError;

/// `git rev-parse HEAD` in `dir`: `None` when git is missing, `dir` is
/// in no repository, or it has no commit yet.
pub fn head_commit(dir: &Path) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "--verify", "--quiet", "HEAD"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let commit = String::from_utf8(output.stdout).ok()?.trim().to_owned();
    let hex = !commit.is_empty() && commit.bytes().all(|b| b.is_ascii_hexdigit());
    (output.status.success() && hex).then_some(commit)
}

/// One version of the file: the commit that made it and its date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// The commit.
    pub commit: String,
    /// Its committer date, seconds since the epoch.
    pub time: i64,
    /// The same, `YYYY-MM-DD`.
    pub date: String,
    /// The file as it was; an error when that version is not a progress
    /// file (it is then left out of the history, with a warning).
    pub progress: Result<Progress, String>,
}

fn git_error(what: &str, path: &Path, detail: &str) -> InputError {
    InputError::new(format!(
        "cannot read the history of {} from git ({what}): {}",
        path.display(),
        detail.trim()
    ))
}

/// Every version of the file at `path` git has, oldest first (commits
/// that delete it are left out).
pub fn versions(path: &Path) -> Result<Vec<Version>, InputError> {
    let (dir, name) = match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if !parent.as_os_str().is_empty() => (parent, name),
        (_, Some(name)) => (Path::new("."), name),
        _ => return Err(git_error("not a file name", path, "")),
    };
    let name = name
        .to_str()
        .filter(|name| !name.contains('\n'))
        .ok_or_else(|| git_error("not a name git's batch can take", path, ""))?;
    let log = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["log", "--format=%H %ct %cs", "--", name])
        .stdin(Stdio::null())
        .output()
        .map_err(|error| git_error("git log", path, &error.to_string()))?;
    if !log.status.success() {
        let stderr = String::from_utf8_lossy(&log.stderr);
        return Err(git_error("git log", path, &stderr));
    }
    let text = String::from_utf8_lossy(&log.stdout);
    let mut commits = Vec::new();
    for line in text.lines() {
        let mut fields = line.split(' ');
        let (Some(commit), Some(time), Some(date)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(git_error("git log", path, &format!("an odd line {line:?}")));
        };
        let time = time
            .parse::<i64>()
            .map_err(|_| git_error("git log", path, &format!("an odd date in {line:?}")))?;
        commits.push((commit.to_owned(), time, date.to_owned()));
    }
    commits.reverse();
    // Each version is parsed as it is read: only its counts are kept.
    let parse = |commit: &str, blob: Result<Vec<u8>, String>| {
        let short = &commit[..commit.len().min(12)];
        match blob {
            Ok(bytes) => {
                file::parse(&bytes, &format!("{name} at {short}")).map_err(|error| error.message)
            }
            Err(message) => Err(format!("{name} at {short}: {message}")),
        }
    };
    let read = read_versions(dir, name, &commits, parse)
        .map_err(|error| git_error("git cat-file", path, &error.to_string()))?;
    Ok(commits
        .into_iter()
        .zip(read)
        .filter_map(|((commit, time, date), progress)| {
            Some(Version {
                commit,
                time,
                date,
                progress: progress?,
            })
        })
        .collect())
}

/// A version as read (`None`: not in that commit).
type Versioned = Option<Result<Progress, String>>;

/// The file `name` (in `dir`) at each commit, through one `git cat-file
/// --batch` (a thread writes the requests while this one reads), each
/// handed to `parse` with its commit as it comes (an error: too large).
fn read_versions(
    dir: &Path,
    name: &str,
    commits: &[(String, i64, String)],
    parse: impl Fn(&str, Result<Vec<u8>, String>) -> Result<Progress, String>,
) -> io::Result<Vec<Versioned>> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped");
    let requests: Vec<u8> = commits
        .iter()
        .flat_map(|(commit, _, _)| format!("{commit}:./{name}\n").into_bytes())
        .collect();
    let writer = std::thread::spawn(move || {
        let written = stdin.write_all(&requests);
        drop(stdin);
        written
    });
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let read = (|| {
        let mut blobs = Vec::with_capacity(commits.len());
        let mut header = String::new();
        for (commit, _, _) in commits {
            header.clear();
            if stdout.read_line(&mut header)? == 0 {
                return Err(io::Error::other("git cat-file stopped early"));
            }
            let header = header.trim_end();
            // A request that names no object is echoed, spaces and all.
            if header.ends_with(" missing") || header.ends_with(" ambiguous") {
                blobs.push(None);
                continue;
            }
            let fields: Vec<&str> = header.split(' ').collect();
            match fields[..] {
                [_, "blob", size] => {
                    let size: u64 = size
                        .parse()
                        .map_err(|_| io::Error::other("git cat-file: an odd header"))?;
                    let blob = if size > file::MAX_BYTES {
                        io::copy(&mut (&mut stdout).take(size), &mut io::sink())?;
                        Err(format!("larger than {} bytes", file::MAX_BYTES))
                    } else {
                        let mut bytes = Vec::with_capacity(size as usize);
                        (&mut stdout).take(size).read_to_end(&mut bytes)?;
                        Ok(bytes)
                    };
                    let mut newline = [0u8];
                    stdout.read_exact(&mut newline)?;
                    blobs.push(Some(parse(commit, blob)));
                }
                [_, kind, size] => {
                    let size: u64 = size
                        .parse()
                        .map_err(|_| io::Error::other("git cat-file: an odd header"))?;
                    io::copy(&mut (&mut stdout).take(size + 1), &mut io::sink())?;
                    blobs.push(Some(parse(commit, Err(format!("a {kind}, not a file")))));
                }
                _ => return Err(io::Error::other("git cat-file: an odd header")),
            }
        }
        Ok(blobs)
    })();
    // Closing our end first stops a git that still writes (on an error).
    drop(stdout);
    let _ = child.wait();
    let written = writer.join();
    let blobs = read?;
    written.map_err(|_| io::Error::other("the request writer failed"))??;
    Ok(blobs)
}
