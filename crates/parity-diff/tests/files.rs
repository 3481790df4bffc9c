//! Issue 18's defects of the files parity-diff writes and the names it
//! reads, through the binary: nothing written through a symbolic link
//! (5), the ledger written under a lock (7), file names as bytes (8),
//! blank-looking ledger lines (10), and `accept` naming the files it
//! could not compare (12).
//!
//! The ports here are `sh` and `sed`: a port that answers each case with
//! its own bytes, `"x"` made `"y"`, so that every case of op `x`
//! diverges at `/op`.

use crate::support;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use support::report::Report;
use support::{golden_of, Corpus, Ran};

/// Every case of op `x` diverges: `"x"` becomes `"y"`.
const PORT: &str = r#"sed 's/"x"/"y"/g'"#;

/// The same port, slow enough that two runs started together overlap.
const SLOW_PORT: &str = r#"sleep 0.5; sed 's/"x"/"y"/g'"#;

/// A case file of `count` cases of op `x`, and its golden (the cases
/// themselves: what `cat` as the reference gives).
fn case_file(count: usize) -> (String, String) {
    let cases: Vec<String> = (0..count)
        .map(|n| format!(r#"{{"op":"x","name":"c{n}"}}"#))
        .collect();
    let refs: Vec<&str> = cases.iter().map(String::as_str).collect();
    (format!("[{}]", cases.join(",")), golden_of(&refs))
}

/// Writes `cases/NAME` and `golden/NAME` for a name given as bytes.
fn add_file(corpus: &Corpus, name: &[u8], count: usize) {
    let (cases, golden) = case_file(count);
    let name = OsStr::from_bytes(name);
    support::write(corpus.join("cases").join(name), cases);
    support::write(corpus.join("golden").join(name), golden);
}

fn accept(corpus: &Corpus, args: &[&str]) -> Ran {
    let mut full = vec!["accept", "--reason", "r", "--oracle", PORT];
    full.extend_from_slice(args);
    corpus.run(&full)
}

fn case_lines(ledger: &str) -> Vec<&str> {
    ledger.lines().filter(|l| l.starts_with("case ")).collect()
}

/// Defect 5: with `golden/sub -> ../outside/goldsub`, `bless --force`
/// rewrote `outside/goldsub/s.json`.
#[test]
fn bless_never_writes_through_a_linked_golden_directory() {
    let corpus = Corpus::new();
    corpus.case("sub/s.json", "[1]").case("a.json", "[2]");
    let outside = corpus.join("outside/goldsub");
    support::write(outside.join("s.json"), "[\n0\n]\n");
    std::fs::create_dir_all(corpus.join("golden")).unwrap();
    symlink("../outside/goldsub", corpus.join("golden/sub")).unwrap();

    let ran = corpus.run(&["bless", "--force", "--reference", "cat"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    let link = Path::new("golden/sub");
    assert!(
        ran.stdout.contains(&format!(
            "sub/s.json: cannot write {}: {} is a symbolic link; nothing is written through it\n",
            link.join("s.json").display(),
            link.display()
        )),
        "{}",
        ran.stdout
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("s.json")).unwrap(),
        "[\n0\n]\n",
        "nothing was written outside the goldens"
    );
    assert_eq!(
        corpus.read("golden/a.json"),
        "[\n2\n]\n",
        "the rest is blessed"
    );

    // Reading through the link stays allowed: --check compares the
    // golden it finds there.
    let ran = corpus.run(&["bless", "--check", "--reference", "cat"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        ran.last_line(),
        "check: 0 to add, 1 to change, 1 unchanged, 0 orphaned"
    );
}

/// Reading through a linked directory of cases stays allowed: its files
/// are part of the corpus.
#[test]
fn a_linked_case_directory_is_read_and_run() {
    let corpus = Corpus::new();
    let (cases, golden) = case_file(2);
    support::write(corpus.join("elsewhere/l.json"), &cases);
    std::fs::create_dir_all(corpus.join("cases")).unwrap();
    symlink("../elsewhere", corpus.join("cases/linked")).unwrap();
    corpus.golden("linked/l.json", &golden);
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "2 passed, 0 failed");
}

/// Defect 8: `a\xff.json` and `a\xfe.json` were both `a\u{FFFD}.json`, so
/// `accept` printed `… 18446744073709551615 unchanged`, wrote fewer
/// entries than it said, and `run` could never pass. A real file named
/// with a backslash (`a\xff.json`, five characters before `.json`) is
/// a third name.
#[test]
fn file_names_that_are_not_utf8_stay_distinct() {
    let corpus = Corpus::new();
    add_file(&corpus, b"a\xff.json", 1);
    add_file(&corpus, b"a\xfe.json", 1);
    add_file(&corpus, br"a\xff.json", 1);
    add_file(&corpus, b"d\x80/b.json", 1);

    let ran = accept(&corpus, &[]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            r#"added    a\\xff.json "c0" (x, different at /op)"#,
            "\n",
            r#"added    a\xfe.json "c0" (x, different at /op)"#,
            "\n",
            r#"added    a\xff.json "c0" (x, different at /op)"#,
            "\n",
            r#"added    d\x80/b.json "c0" (x, different at /op)"#,
            "\n",
            "ledger parity-ledger.txt: 4 added, 0 changed, 0 removed, 0 unchanged\n",
        )
    );
    assert_eq!(
        case_lines(&corpus.read("parity-ledger.txt")),
        [
            r#"case a\\xff.json "c0""#,
            r#"case a\xfe.json "c0""#,
            r#"case a\xff.json "c0""#,
            r#"case d\x80/b.json "c0""#,
        ]
    );
    let ran = corpus.run(&["run", "--oracle", PORT]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "0 passed, 0 failed, 4 accepted");

    // The JSON report names them as the ledger does, and so does the
    // path annotations use.
    let ran = corpus.run(&["run", "--oracle", PORT, "--format", "json"]);
    let report = Report::read(&ran.stdout);
    let files: Vec<(&str, &str)> = report
        .files
        .iter()
        .map(|f| (f.name().unwrap(), f.head.info.path.as_deref().unwrap()))
        .collect();
    assert_eq!(
        files,
        [
            (r"a\\xff.json", r"cases/a\\xff.json"),
            (r"a\xfe.json", r"cases/a\xfe.json"),
            (r"a\xff.json", r"cases/a\xff.json"),
            (r"d\x80/b.json", r"cases/d\x80/b.json"),
        ]
    );
    // Run again, accept has nothing to do and counts every entry.
    let ran = accept(&corpus, &[]);
    assert_eq!(
        ran.stdout,
        "ledger parity-ledger.txt: nothing to change (4 entries, 0 rules)\n"
    );
}

/// Defect 10: a line of two spaces between entries made every run exit 2
/// (`line 11: expected key: value, not ""`).
#[test]
fn a_ledger_with_lines_of_white_space_reads() {
    let corpus = Corpus::new();
    add_file(&corpus, b"a.json", 3);
    assert_eq!(accept(&corpus, &[]).code, 0);
    let ledger = corpus.read("parity-ledger.txt");
    let spaced = ledger
        .replace("\n\n", "\n  \n")
        .replace("\n  \ncase a.json \"c2\"", "\n \t \ncase a.json \"c2\"");
    assert_ne!(spaced, ledger);
    support::write(corpus.join("parity-ledger.txt"), &spaced);
    let ran = corpus.run(&["run", "--oracle", PORT]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "0 passed, 0 failed, 3 accepted");
}

/// Defect 12: `accept` printed only `error: 1 file could not be
/// compared`; `run` names the file and says why.
#[test]
fn accept_names_each_file_it_could_not_compare_and_why() {
    let corpus = Corpus::new();
    add_file(&corpus, b"a.json", 1);
    corpus.case("bad.json", "{").golden("bad.json", "[\n1\n]\n");
    corpus.case("worse.json", "[1]").golden("worse.json", "{");
    let ran = accept(&corpus, &[]);
    assert_eq!(ran.code, 2, "{ran:?}");
    let run = corpus.run(&["run", "--oracle", PORT]);
    let why = |name: &str| {
        let prefix = format!("ERROR {name}: ");
        let line = run.stdout.lines().find(|l| l.starts_with(&prefix));
        line.unwrap_or_else(|| panic!("{run:?}"))[prefix.len()..].to_owned()
    };
    assert_eq!(
        ran.stdout,
        format!(
            "added    a.json \"c0\" (x, different at /op)\n\
             error    bad.json: {}\n\
             error    worse.json: {}\n\
             error: 2 files could not be compared; their entries were left alone\n\
             ledger parity-ledger.txt: 1 added, 0 changed, 0 removed, 0 unchanged\n",
            why("bad.json"),
            why("worse.json")
        )
    );
}

/// Defect 7: `accept --filter f1.json & accept --filter f2.json` both
/// said "50 added", and f1's entries were gone. The port takes half a
/// second, so both have read the ledger before either writes it unless
/// one waits for the other.
#[test]
fn two_accepts_at_once_keep_each_others_entries() {
    let corpus = Corpus::new();
    add_file(&corpus, b"f1.json", 50);
    add_file(&corpus, b"f2.json", 50);
    let accepts: Vec<_> = ["f1.json", "f2.json"]
        .iter()
        .map(|filter| {
            let args = [
                "accept", "--reason", "r", "--oracle", SLOW_PORT, "--filter", filter,
            ];
            support::command(corpus.path(), &args).spawn().unwrap()
        })
        .collect();
    for child in accepts {
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        // The first to write finds no entries; the second finds the first's.
        let last = stdout.lines().last().unwrap_or_default();
        let counts = "ledger parity-ledger.txt: 50 added, 0 changed, 0 removed";
        assert!(
            [
                format!("{counts}, 0 unchanged"),
                format!("{counts}, 50 unchanged")
            ]
            .contains(&last.to_owned()),
            "{stdout}"
        );
    }
    let ledger = corpus.read("parity-ledger.txt");
    assert_eq!(case_lines(&ledger).len(), 100, "{ledger}");
    let names: Vec<_> = std::fs::read_dir(corpus.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(
        names.is_empty(),
        "no lock or temporary file is left: {names:?}"
    );
}

/// The lock file a writer holds, taken here as another `accept` would.
fn hold_lock(path: &Path) -> std::fs::File {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .unwrap();
    // SAFETY: flock on a valid descriptor; the result is checked.
    assert_eq!(unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) }, 0);
    file
}

/// A second writer waits for the lock, says so, and goes on once it is
/// free; a temporary ledger a killed writer left is removed, and a lock
/// file it left is taken over.
#[test]
fn accept_waits_for_the_lock_and_cleans_up_after_a_killed_writer() {
    let corpus = Corpus::new();
    add_file(&corpus, b"a.json", 2);
    let leftover: PathBuf = corpus.join(".parity-ledger.txt.parity-diff-4242-0-0badf00d.tmp");
    support::write(&leftover, "half a ledger, 25 MB in the probe");
    let held = hold_lock(&corpus.join(".parity-ledger.txt.lock"));

    let mut child = support::command(
        corpus.path(),
        &["accept", "--reason", "r", "--oracle", PORT],
    )
    .spawn()
    .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        "parity-diff: waiting for another writer of the ledger parity-ledger.txt (up to 30 s)\n"
    );
    assert!(!corpus.join("parity-ledger.txt").exists(), "it waits");
    assert!(
        leftover.exists(),
        "only the lock's holder removes leftovers"
    );
    drop(held);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?} {rest}");
    assert_eq!(
        rest,
        format!(
            "parity-diff: removed {}, left by a writer of the ledger that did not finish\n",
            Path::new(".parity-ledger.txt.parity-diff-4242-0-0badf00d.tmp").display()
        )
    );
    assert!(!leftover.exists());
    assert_eq!(case_lines(&corpus.read("parity-ledger.txt")).len(), 2);
    assert!(!corpus.join(".parity-ledger.txt.lock").exists());
}
