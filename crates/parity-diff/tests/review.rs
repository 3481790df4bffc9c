//! `parity-diff review` in a real terminal: tmux runs it in an 80×24
//! pane (`send-keys` types, `capture-pane` reads the screen), with `CI`
//! unset for the session. A corpus with two new divergence groups and a
//! stale entry is reviewed as the issue's "Done when" says: one group
//! accepted with a typed reason, the other triaged with a link, the
//! stale entry pruned, then quit; the ledger holds that, and `run`
//! passes. Without a terminal, or with `CI` set, review refuses (exit
//! 2); with nothing to review it says so (exit 0).
//!
//! Each test needs tmux and is ignored by a plain `cargo test`; with
//! `--include-ignored` and without tmux it fails, saying so (`.ci/run`
//! installs it).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support;

use support::{Corpus, Ran};

/// How long a screen may take to show what is waited for (a debug
/// build on a loaded machine runs the corpus first).
const PATIENCE: Duration = Duration::from_secs(60);

/// The parity-diff binary.
fn parity_diff() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_parity-diff"))
}

/// For a test marked `#[ignore = "needs tmux"]`: fails, saying so, unless
/// tmux runs here (a plain `cargo test` lists these tests as ignored).
fn require_tmux() {
    let version = Command::new("tmux").arg("-V").output();
    if !version.is_ok_and(|output| output.status.success()) {
        panic!(
            "tmux does not run here, and this test drives `parity-diff review` in a \
             terminal through it: install it (`apt-get install tmux`; .ci/run does)"
        );
    }
}

/// A tmux server of the test's own (its socket in a temporary
/// directory), running one command in a detached 80×24 session; killed
/// when dropped.
struct Tmux {
    socket: PathBuf,
    _dir: tempfile::TempDir,
}

impl Tmux {
    /// Starts `command` with `sh` in `dir`, `CI` unset; when it ends, the
    /// pane says `exited STATUS` and stays.
    fn start(dir: &Path, command: &str) -> Tmux {
        require_tmux();
        let own = tempfile::tempdir().unwrap();
        let tmux = Tmux {
            socket: own.path().join("socket"),
            _dir: own,
        };
        let script = format!("env -u CI {command}; echo \"exited $?\"; exec sleep 600");
        let started = tmux
            .command()
            .args([
                "new-session",
                "-d",
                "-x",
                "80",
                "-y",
                "24",
                "-s",
                "review",
                "-c",
            ])
            .arg(dir)
            .arg(script)
            .status()
            .unwrap();
        assert!(started.success(), "tmux new-session: {started}");
        tmux
    }

    fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        command
            .arg("-S")
            .arg(&self.socket)
            .env_remove("TMUX")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        command
    }

    /// The pane's text, a line a row (the shell's lines that wrapped
    /// joined, trailing spaces left out).
    fn screen(&self) -> String {
        let output = self
            .command()
            .args(["capture-pane", "-p", "-J", "-t", "review"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        text.lines()
            .map(|line| format!("{}\n", line.trim_end()))
            .collect()
    }

    /// Waits until the screen shows `text`; returns the screen. Polls,
    /// failing with the last screen after [`PATIENCE`].
    fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {text:?}; it shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Presses keys (tmux's names: `Enter`, `C-u`, or a letter).
    fn keys(&self, keys: &[&str]) {
        let status = self
            .command()
            .args(["send-keys", "-t", "review"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Types text as it is.
    fn type_text(&self, text: &str) {
        let status = self
            .command()
            .args(["send-keys", "-t", "review", "-l", text])
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").status();
    }
}

/// `review` with `args` as a shell command line, in the corpus.
fn review_line(args: &str) -> String {
    format!("'{}' --no-config review {args}", parity_diff().display())
}

/// A corpus whose port is `cat` (each case is its own result, its file
/// written compactly, as exact framing wants): two cases of `sum`
/// differ at `/v` (one group), one of `max` at `/w` (another), and `min`
/// passes but has a ledger entry (stale).
fn corpus() -> Corpus {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            r#"[{"op":"sum","name":"s1","v":1},{"op":"sum","name":"s2","v":2},{"op":"max","name":"m1","w":"a"},{"op":"min","name":"n1"}]"#,
        )
        .golden(
            "a.json",
            &support::golden_of(&[
                r#"{"op":"sum","name":"s1","v":10}"#,
                r#"{"op":"sum","name":"s2","v":20}"#,
                r#"{"op":"max","name":"m1","w":3}"#,
                r#"{"op":"min","name":"n1"}"#,
            ]),
        );
    support::write(
        corpus.join("parity-ledger.txt"),
        "case a.json \"n1\"\n  op: min\n  state: accepted\n  reason: it differed once\n  \
         verdict: different\n  fingerprint: 0123456789abcdef\n",
    );
    corpus
}

/// The ledger with each fingerprint (a hash of the divergence) checked
/// to be one and shown as `(16 hex digits)`.
fn ledger_text(corpus: &Corpus) -> String {
    let mut out = String::new();
    for line in corpus.read("parity-ledger.txt").lines() {
        match line.strip_prefix("  fingerprint: ") {
            Some(hex) => {
                assert!(
                    hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
                    "{line}"
                );
                out.push_str("  fingerprint: (16 hex digits)\n");
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Checks the screen against the snapshot `name` in `tests/snapshots/`
/// (no `args:` line: review is no report, and the table of formats reads
/// the command of every snapshot that has one).
fn check_screen(name: &str, screen: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let text = format!("screen: 80×24, tmux capture-pane\n──── screen ────\n{screen}");
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
#[ignore = "needs tmux"]
fn a_review_accepts_triages_and_prunes_in_a_terminal_and_the_run_then_passes() {
    require_tmux();
    let corpus = corpus();
    let tmux = Tmux::start(corpus.path(), &review_line("--oracle cat"));
    // The keys are the last row painted: the screen is whole.
    let first = tmux.wait_for("q quit");
    check_screen("review-first-screen", &first);
    // The other view, and the keys' help: screens too.
    tmux.keys(&["v"]);
    check_screen("review-unified-screen", &tmux.wait_for("@@ -1,5 +1,5 @@"));
    tmux.keys(&["v", "?"]);
    check_screen("review-help-screen", &tmux.wait_for("While typing"));
    tmux.keys(&["?"]);
    assert_eq!(
        tmux.wait_for("golden                                 │ actual"),
        first
    );
    // The first group (the larger): accepted with a typed reason.
    tmux.keys(&["a"]);
    tmux.wait_for("reason: ▏");
    tmux.type_text("sums are scaled by ten");
    tmux.keys(&["Enter"]);
    tmux.wait_for("accepted: 2 entries added");
    // The second: triaged, the last reason offered, cleared, a link.
    let screen = tmux.wait_for("parity-diff review · 2 of 3 · new · 1 case");
    assert!(
        screen.contains("max: different at /w (golden number, port string)"),
        "{screen}"
    );
    tmux.keys(&["t"]);
    tmux.wait_for("reason: sums are scaled by ten▏");
    tmux.keys(&["C-u"]);
    tmux.type_text("max answers a string");
    tmux.keys(&["Enter"]);
    tmux.wait_for("link: ▏");
    tmux.type_text("https://example.com/issues/21");
    tmux.keys(&["Enter"]);
    tmux.wait_for("triaged: 1 entry added");
    // The stale entry: pruned.
    let screen = tmux.wait_for("parity-diff review · 3 of 3 · stale · 1 case");
    assert!(screen.contains("p prune  s skip"), "{screen}");
    tmux.keys(&["p"]);
    tmux.wait_for("pruned: 1 entry removed");
    tmux.wait_for("1 accepted, 1 triaged, 0 as rules, 1 pruned, 0 skipped, 0 left");
    tmux.keys(&["q"]);
    let end = tmux.wait_for("exited 0");
    assert!(
        end.contains(
            "review: 1 accepted, 1 triaged, 0 as rules, 1 pruned, 0 skipped, 0 left; \
             ledger parity-ledger.txt"
        ),
        "{end}"
    );
    assert_eq!(
        ledger_text(&corpus),
        concat!(
            "case a.json \"m1\"\n",
            "  op: max\n",
            "  state: triaged https://example.com/issues/21\n",
            "  reason: max answers a string\n",
            "  verdict: different\n",
            "  paths: /w\n",
            "  fingerprint: (16 hex digits)\n",
            "\n",
            "case a.json \"s1\"\n",
            "  op: sum\n",
            "  state: accepted\n",
            "  reason: sums are scaled by ten\n",
            "  verdict: different\n",
            "  paths: /v\n",
            "  fingerprint: (16 hex digits)\n",
            "\n",
            "case a.json \"s2\"\n",
            "  op: sum\n",
            "  state: accepted\n",
            "  reason: sums are scaled by ten\n",
            "  verdict: different\n",
            "  paths: /v\n",
            "  fingerprint: (16 hex digits)\n",
        )
    );
    let ran = corpus.run(&["--no-config", "run", "--oracle", "cat"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "1 passed, 0 failed, 3 accepted");
}

#[test]
#[ignore = "needs tmux"]
fn quitting_while_a_reason_is_typed_drops_that_decision_and_keeps_the_others() {
    require_tmux();
    let corpus = corpus();
    let before = corpus.read("parity-ledger.txt");
    let tmux = Tmux::start(corpus.path(), &review_line("--oracle cat"));
    tmux.wait_for("q quit");
    tmux.keys(&["s"]);
    tmux.wait_for("parity-diff review · 2 of 3");
    tmux.keys(&["a"]);
    tmux.wait_for("reason: ▏");
    tmux.type_text("not yet");
    tmux.keys(&["Escape"]);
    tmux.wait_for("dropped: nothing written");
    tmux.keys(&["r"]);
    tmux.type_text("quit now");
    tmux.keys(&["C-c"]);
    let end = tmux.wait_for("exited 0");
    assert!(
        end.contains("review: 0 accepted, 0 triaged, 0 as rules, 0 pruned, 1 skipped, 2 left"),
        "{end}"
    );
    assert_eq!(corpus.read("parity-ledger.txt"), before, "nothing written");
}

#[test]
#[ignore = "needs tmux"]
fn a_report_is_reviewed_without_running_and_r_writes_the_op_s_rule() {
    require_tmux();
    let corpus = Corpus::new();
    corpus
        .case(
            "t.json",
            r#"[{"op":"parse","name":"p1","threw":true,"message":"not implemented"},{"op":"parse","name":"p2","threw":true,"message":"not implemented"}]"#,
        )
        .golden(
            "t.json",
            &support::golden_of(&[r#"{"defined":true,"value":1}"#, r#"{"defined":true,"value":2}"#]),
        );
    let report = corpus.run(&["--no-config", "run", "--oracle", "cat", "--format", "json"]);
    assert_eq!(report.code, 1, "{report:?}");
    support::write(corpus.join("report.json"), &report.stdout);
    let tmux = Tmux::start(corpus.path(), &review_line("--report report.json"));
    let screen = tmux.wait_for("q quit");
    assert!(
        screen.contains("parse: the port threw \"not implemented\" where the golden has a value"),
        "{screen}"
    );
    tmux.keys(&["r"]);
    tmux.wait_for("reason: ▏");
    tmux.type_text("parse is not ported yet");
    tmux.keys(&["Enter"]);
    tmux.wait_for("accepted by a rule: 1 rule added");
    tmux.keys(&["q"]);
    tmux.wait_for("exited 0");
    assert!(corpus.read("parity-ledger.txt").ends_with(
        "rule op parse\n  match: threw \"not implemented\"\n  state: accepted\n  \
         reason: parse is not ported yet\n"
    ));
    let ran = corpus.run(&["--no-config", "run", "--oracle", "cat"]);
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
#[ignore = "needs tmux"]
fn the_screen_is_coloured_as_color_says() {
    require_tmux();
    let corpus = corpus();
    // capture-pane -e writes the screen's colours as escapes.
    let painted = |command: String| {
        let tmux = Tmux::start(corpus.path(), &command);
        tmux.wait_for("q quit");
        let output = tmux
            .command()
            .args(["capture-pane", "-p", "-e", "-t", "review"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let plain = painted(review_line("--oracle cat --color never"));
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
    assert!(plain.contains("a accept  t triage"), "{plain:?}");
    let coloured = painted(review_line("--oracle cat --color always"));
    assert!(
        coloured.contains("\u{1b}[1m"),
        "bold heads and keys: {coloured:?}"
    );
    let golden_row = coloured
        .lines()
        .find(|line| line.contains("\"v\": 10"))
        .unwrap();
    assert!(
        golden_row.contains('\u{1b}'),
        "the differing row is painted: {golden_row:?}"
    );
    // auto: a terminal whose TERM is set (tmux sets it), unless NO_COLOR.
    let auto = painted(review_line("--oracle cat"));
    assert_eq!(auto, coloured);
    let no_color = painted(format!("NO_COLOR=1 {}", review_line("--oracle cat")));
    assert_eq!(no_color, plain);
}

#[test]
#[ignore = "needs tmux"]
fn nothing_to_review_says_so_and_exits_0() {
    require_tmux();
    let corpus = Corpus::new();
    corpus
        .case("a.json", r#"[{"op":"sum","v":1}]"#)
        .golden("a.json", &support::golden_of(&[r#"{"op":"sum","v":1}"#]));
    let tmux = Tmux::start(corpus.path(), &review_line("--oracle cat"));
    let end = tmux.wait_for("exited 0");
    assert!(
        end.contains(
            "nothing to review: no new, changed or stale case, and no orphaned entry or stale \
             rule (ledger parity-ledger.txt)"
        ),
        "{end}"
    );
    assert!(!corpus.join("parity-ledger.txt").exists(), "no ledger made");
}

#[test]
fn review_refuses_without_a_terminal_in_ci_and_for_a_report_format() {
    let corpus = corpus();
    let before = corpus.read("parity-ledger.txt");
    let refused = |ran: Ran, message: &str| {
        assert_eq!(ran.code, 2, "{ran:?}");
        assert_eq!(ran.stdout, "", "{ran:?}");
        assert_eq!(ran.stderr, format!("parity-diff: {message}\n"));
    };
    let args = ["--no-config", "review", "--oracle", "cat"];
    refused(
        corpus.run(&args),
        "review needs a terminal: its standard input and output must both be one; a script \
         records divergences with `parity-diff accept --reason TEXT`",
    );
    refused(
        support::run_with(corpus.path(), &args, b"", &[("CI", "true")]),
        "refusing to review in CI (the CI environment variable is set): review asks a person \
         at a terminal; a script records divergences with `parity-diff accept --reason TEXT`",
    );
    refused(
        corpus.run(&["--no-config", "review", "--format", "json"]),
        "review shows a terminal screen, not a report: --format json is for run and accept",
    );
    let conflict = corpus.run(&[
        "--no-config",
        "review",
        "--report",
        "r.json",
        "--oracle",
        "cat",
    ]);
    assert_eq!(conflict.code, 2, "{conflict:?}");
    assert!(
        conflict.stderr.contains("cannot be used with"),
        "{conflict:?}"
    );
    assert_eq!(corpus.read("parity-ledger.txt"), before);
}

/// SIGTERM while the screen is up: parity-diff exits 143, and the
/// terminal is itself again (canonical mode, the main screen), not left
/// raw for the shell that started it.
#[test]
#[ignore = "needs tmux"]
fn a_signal_during_a_review_leaves_the_terminal_as_it_was() {
    require_tmux();
    let corpus = corpus();
    let line = format!(
        "{}; s=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*icanon'; (exit $s)",
        review_line("--oracle cat")
    );
    let tmux = Tmux::start(corpus.path(), &line);
    tmux.wait_for("q quit");
    let pane = tmux
        .command()
        .args(["list-panes", "-t", "review", "-F", "#{pane_pid}"])
        .output()
        .unwrap();
    let shell = String::from_utf8_lossy(&pane.stdout).trim().to_owned();
    let child = Command::new("pgrep").args(["-P", &shell]).output().unwrap();
    let pid = String::from_utf8_lossy(&child.stdout).trim().to_owned();
    assert!(
        !pid.is_empty(),
        "no review process under the pane's shell {shell}"
    );
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
    let end = tmux.wait_for("exited 143");
    assert!(
        end.contains("\nicanon\n"),
        "the terminal is left raw:\n{end}"
    );
    assert!(
        !end.contains("q quit"),
        "the review's screen is still shown:\n{end}"
    );
}
