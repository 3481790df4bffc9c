//! `--color auto` decides by the usual conventions, read by anstream:
//! `NO_COLOR`, `CLICOLOR`, `CLICOLOR_FORCE`, a terminal and `TERM`
//! (issue 18). `--color always` and `never` override them all.

use crate::support;

use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};

use support::{run_with, write, Corpus};

/// A corpus where `compare` fails one case, so that its report has
/// something to colour.
fn failing() -> Corpus {
    let corpus = Corpus::new();
    write(corpus.join("results.json"), "[2]");
    write(corpus.join("golden.json"), "[\n1\n]\n");
    corpus
}

/// Whether parity-diff coloured its report, its stdout a pipe.
fn coloured_on_a_pipe(corpus: &Corpus, color: &str, env: &[(&str, &str)]) -> bool {
    let ran = run_with(
        corpus.path(),
        &["compare", "results.json", "golden.json", "--color", color],
        b"",
        env,
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    ran.stdout.contains('\x1b')
}

/// Whether parity-diff coloured its report, its stdout a terminal (a
/// pseudo-terminal), with the colour variables and `TERM` only as `env`
/// sets them.
fn coloured_on_a_terminal(corpus: &Corpus, env: &[(&str, &str)]) -> bool {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two descriptors, which are ours to own.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both were just opened and nothing else owns them.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut command = Command::new(env!("CARGO_BIN_EXE_parity-diff"));
    command
        .args(["compare", "results.json", "golden.json", "--color", "auto"])
        .current_dir(corpus.path())
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::null());
    for name in [
        "CI",
        "NO_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "TERM",
        "GITHUB_ACTIONS",
        "GITHUB_STEP_SUMMARY",
    ] {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    let mut child = command.spawn().expect("parity-diff starts");
    // The command holds the only other copy of the terminal's end: drop
    // it, so that reading ends (EIO) when the child exits.
    drop(command);
    let mut output = Vec::new();
    let mut master = File::from(master);
    let mut chunk = [0u8; 4096];
    loop {
        match master.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => output.extend_from_slice(&chunk[..read]),
            // Linux says EIO once the terminal's other end is closed.
            Err(error) if error.raw_os_error() == Some(libc::EIO) => break,
            Err(error) => panic!("reading the terminal: {error}"),
        }
    }
    let status = child.wait().unwrap();
    let output = String::from_utf8_lossy(&output);
    assert_eq!(status.code(), Some(1), "{output}");
    assert!(output.contains("0 passed, 1 failed"), "{output}");
    output.contains('\x1b')
}

#[test]
fn on_a_terminal_auto_reads_term_no_color_and_clicolor() {
    let corpus = failing();
    let term = ("TERM", "xterm");
    assert!(coloured_on_a_terminal(&corpus, &[term]), "a terminal");
    assert!(
        !coloured_on_a_terminal(&corpus, &[("TERM", "dumb")]),
        "TERM=dumb"
    );
    assert!(!coloured_on_a_terminal(&corpus, &[]), "no TERM at all");
    assert!(
        coloured_on_a_terminal(&corpus, &[("CI", "true")]),
        "CI vouches for a terminal without TERM"
    );
    assert!(
        !coloured_on_a_terminal(&corpus, &[term, ("NO_COLOR", "1")]),
        "NO_COLOR"
    );
    assert!(
        coloured_on_a_terminal(&corpus, &[term, ("NO_COLOR", "")]),
        "an empty NO_COLOR is no NO_COLOR"
    );
    assert!(
        !coloured_on_a_terminal(&corpus, &[term, ("CLICOLOR", "0")]),
        "CLICOLOR=0"
    );
    assert!(
        coloured_on_a_terminal(&corpus, &[("TERM", "dumb"), ("CLICOLOR", "1")]),
        "CLICOLOR=1 asks for colour on a terminal TERM does not vouch for"
    );
}

#[test]
fn on_a_pipe_auto_colours_only_when_clicolor_force_says_so() {
    let corpus = failing();
    assert!(!coloured_on_a_pipe(&corpus, "auto", &[]), "a pipe");
    assert!(
        !coloured_on_a_pipe(&corpus, "auto", &[("CLICOLOR", "1")]),
        "CLICOLOR=1 wants a terminal"
    );
    assert!(
        coloured_on_a_pipe(&corpus, "auto", &[("CLICOLOR_FORCE", "1")]),
        "CLICOLOR_FORCE"
    );
    assert!(
        !coloured_on_a_pipe(
            &corpus,
            "auto",
            &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
        ),
        "NO_COLOR wins over CLICOLOR_FORCE"
    );
}

#[test]
fn always_and_never_override_every_variable() {
    let corpus = failing();
    for env in [
        &[("NO_COLOR", "1")][..],
        &[("CLICOLOR", "0")],
        &[("TERM", "dumb")],
    ] {
        assert!(coloured_on_a_pipe(&corpus, "always", env), "{env:?}");
    }
    assert!(!coloured_on_a_pipe(
        &corpus,
        "never",
        &[("CLICOLOR_FORCE", "1")]
    ));
}
