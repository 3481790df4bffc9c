//! The whole output of every report format and every command, run
//! through the parity-diff binary over a fixed hostile corpus and a fixed
//! port (tests/parity_diff_support/hostile.rs), kept as reviewed
//! snapshots in `tests/snapshots/` (insta). Each snapshot is named, and
//! its file is `tests/snapshots/<name>.snap` wherever the test moves.
//!
//! A snapshot holds the command's arguments, its exit status, its stdout
//! and its stderr (or a file it wrote), after a visible transform: insta
//! reads CR LF as LF and trims trailing white space when it compares, and
//! a raw ESC in a `.snap` file would act on the terminal of whoever
//! reviews it (the very attack these outputs must not allow). So:
//! - LF stays a line break; every other C0 control, DEL, C1 control,
//!   bidi control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069),
//!   invisible character (U+200B–U+200D, U+2060, the tags U+E0000–U+E007F),
//!   U+2028, U+2029, U+FEFF and U+FFFD (easily missed) shows as `⟨NAME⟩`
//!   (`⟨ESC⟩`, `⟨CR⟩`, `⟨TAB⟩`, …) or `⟨U+XXXX⟩`;
//! - a byte that is not UTF-8 shows as `⟨\xFF⟩`;
//! - `⟨` itself shows as `⟨U+27E8⟩`, so the transform is reversible;
//! - output that does not end with a newline ends with
//!   `⟨no newline at end⟩`.
//!
//! The outputs' own escapes (`\u001b`, `\u{1b}`, `%0A`) stay as they are,
//! and differ from these. The JSON report, one long line, is shown
//! reflowed (`reflow_json`): a line break and indentation added between
//! its tokens, nothing else.
//!
//! Only what varies from run to run is redacted: the fuzz session's time
//! and rate, and its progress lines (one every 2 s, so their number
//! depends on the machine's load). (The commands run in the corpus's temporary directory with
//! relative paths, and print none of its path.)
//!
//! To review a change: `cargo insta review` (`cargo install cargo-insta`),
//! or `INSTA_UPDATE=always cargo test --test main snapshots::` and read the
//! `.snap` files' diff.

#[path = "parity_diff_support/hostile.rs"]
mod hostile;

#[path = "parity_diff_support/hostile_coverage.rs"]
mod hostile_coverage;

#[path = "snapshots_framing.rs"]
mod framing;

#[path = "snapshots_repeat.rs"]
mod repeat;

#[path = "snapshots_kept.rs"]
mod kept;

#[path = "snapshots_commands.rs"]
mod commands;

use std::path::Path;
use std::process::{Command, Stdio};

use hostile::{Hostile, LEDGER_REASON, PORT};

/// What a run of parity-diff did.
struct Ran {
    args: Vec<String>,
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Runs the parity-diff binary in `dir`, with only `PATH` from this
/// process's environment (so no `CI`, `NO_COLOR`, `GITHUB_*`, `TERM` or
/// colour variable changes what it prints) and `env` added.
fn parity_diff(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let output = Command::new(
        std::path::Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
            .with_file_name("parity-diff"),
    )
    .args(args)
    .current_dir(dir)
    .env_clear()
    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
    .envs(env.iter().copied())
    .stdin(Stdio::null())
    .output()
    .expect("parity-diff starts");
    Ran {
        args: args.iter().map(|arg| arg.to_string()).collect(),
        code: output.status.code(),
        stdout: output.stdout,
        stderr: output.stderr,
    }
}

/// The name a control or invisible character shows as, if it is one.
fn invisible(c: char) -> Option<String> {
    const C0: [&str; 32] = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF",
        "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM",
        "SUB", "ESC", "FS", "GS", "RS", "US",
    ];
    match c {
        '\0'..='\x1f' => Some(C0[c as usize].to_owned()),
        '\x7f' => Some("DEL".to_owned()),
        '\u{80}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2060}'
        | '\u{e0000}'..='\u{e007f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{2028}'
        | '\u{2029}'
        | '\u{feff}'
        | '\u{fffd}'
        | '⟨' => Some(format!("U+{:04X}", c as u32)),
        _ => None,
    }
}

/// Bytes as reviewable text: the visible transform of the module's doc.
fn visible(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match invisible(c) {
                Some(name) if c != '\n' => out.push_str(&format!("⟨{name}⟩")),
                _ => out.push(c),
            }
        }
        for byte in chunk.invalid() {
            out.push_str(&format!("⟨\\x{byte:02X}⟩"));
        }
    }
    out
}

/// One output stream, or a file, under its heading.
fn section(heading: &str, bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return format!("──── {heading}: empty ────\n");
    }
    let mut text = format!("──── {heading} ────\n{}", visible(bytes));
    if !bytes.ends_with(b"\n") {
        text.push_str("⟨no newline at end⟩\n");
    }
    text
}

/// A compact JSON text with a line break and indentation added after
/// each `{`, `[` and `,` outside strings and before each `}` and `]` (an
/// empty `{}` or `[]` stays as it is). Nothing else changes, so the
/// original is the result with that white space taken out again.
fn reflow_json(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() * 2);
    let mut depth = 0usize;
    let (mut in_string, mut escaped) = (false, false);
    let newline = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        out.extend(std::iter::repeat_n(b' ', 2 * depth));
    };
    for (at, &byte) in bytes.iter().enumerate() {
        if in_string {
            out.push(byte);
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => {
                in_string = true;
                out.push(byte);
            }
            b'{' | b'[' => {
                out.push(byte);
                depth += 1;
                if !matches!(bytes.get(at + 1), Some(b'}' | b']')) {
                    newline(&mut out, depth);
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if !matches!(out.last(), Some(b'{' | b'[')) {
                    newline(&mut out, depth);
                }
                out.push(byte);
            }
            b',' => {
                out.push(byte);
                newline(&mut out, depth);
            }
            _ => out.push(byte),
        }
    }
    out
}

impl Ran {
    /// The whole run as a snapshot's text: arguments, status, stdout,
    /// stderr.
    fn render(&self) -> String {
        self.render_as("stdout", &self.stdout)
    }

    /// The same with stdout, a JSON report, reflowed (`reflow_json`).
    fn render_json(&self) -> String {
        self.render_as("stdout (JSON, reflowed)", &reflow_json(&self.stdout))
    }

    fn render_as(&self, heading: &str, stdout: &[u8]) -> String {
        let args: Vec<String> = (self.args.iter())
            .map(|arg| match visible(arg.as_bytes()) {
                shown if shown.is_empty() || shown.contains(' ') => format!("'{shown}'"),
                shown => shown,
            })
            .collect();
        format!(
            "args: {}\nexit status: {}\n{}{}",
            args.join(" "),
            self.code
                .map_or("none (a signal)".to_owned(), |c| c.to_string()),
            section(heading, stdout),
            section("stderr", &self.stderr)
        )
    }
}

/// Checks `text` against the snapshot `name` in `tests/snapshots/`.
fn check(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    // One fixed folder and file names without the module's path: moving
    // a test renames no snapshot.
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.add_filter(
        r"in [0-9.]+ s \(([0-9]+|inf|NaN)/s\)",
        "in [TIME] s ([RATE]/s)",
    );
    // The coverage report's script URLs name the temporary directory.
    settings.add_filter(r"file://[^\s\x22]*/\.tmp[A-Za-z0-9]+/", "file:///[TMP]/");
    settings.add_filter(r#""seconds":[0-9.e+-]+"#, r#""seconds":[TIME]"#);
    // fuzz's session time with the part of it minimizing took.
    settings.add_filter(
        r"in [0-9.]+ s, [0-9.]+ s of it minimizing \(([0-9]+|inf|NaN)/s\)",
        "in [TIME] s, [TIME] s of it minimizing ([RATE]/s)",
    );
    // fuzz's progress lines come every 2 s of the session: how many a
    // snapshot would hold depends on the machine's load.
    settings.add_filter(
        r"fuzz: [0-9]+ cases, [0-9]+ diverged \([0-9]+ signatures?\), [0-9]+ cases/s\n",
        "",
    );
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// The hostile corpus with its ledger: what `accept` records for the
/// `readyTimeoutMs` cases of `plain.json`, with a hostile reason, and the
/// entries written by hand (whose reasons hold control characters, which
/// `accept` refuses).
fn with_ledger() -> Hostile {
    let corpus = Hostile::new();
    let accepted = parity_diff(
        corpus.path(),
        &[
            "accept",
            "--oracle",
            PORT,
            "--filter",
            "plain.json",
            "--op",
            "readyTimeoutMs",
            "--reason",
            LEDGER_REASON,
        ],
        &[],
    );
    assert_eq!(accepted.code, Some(0), "{}", accepted.render());
    corpus.add_ledger_by_hand();
    corpus
}

#[test]
fn run_in_every_format() {
    let corpus = with_ledger();
    for (name, format) in [
        ("run-human", &["--color", "never"][..]),
        ("run-human-color", &["--color", "always"]),
        ("run-json", &["--format", "json"]),
        ("run-junit", &["--format", "junit"]),
        ("run-markdown", &["--format", "markdown"]),
        ("run-html", &["--format", "html"]),
    ] {
        let mut args = vec!["run", "--oracle", PORT];
        args.extend(format);
        let ran = parity_diff(corpus.path(), &args, &[]);
        let text = if name == "run-json" {
            ran.render_json()
        } else {
            ran.render()
        };
        check(name, &text);
    }
}

/// The hostile corpus with triaged cases besides: `accept --triaged`
/// on the cases of `names.json` (hostile names and ops, a hostile link
/// and reason), and a triaged rule, so that the triaged lists of the
/// human, Markdown and HTML reports show hostile text neutral.
#[test]
fn triaged_cases_in_every_format_that_lists_them() {
    let corpus = with_ledger();
    let accepted = parity_diff(
        corpus.path(),
        &[
            "accept",
            "--oracle",
            PORT,
            "--filter",
            "names.json",
            "--triaged",
            "--link",
            TRIAGED_LINK,
            "--reason",
            "a bug: <b>bold</b> ##[stop-commands]x @octocat",
        ],
        &[],
    );
    assert_eq!(accepted.code, Some(0), "{}", accepted.render());
    let ledger = corpus.join("parity-ledger.txt");
    let mut text = std::fs::read_to_string(&ledger).unwrap();
    text.push_str(
        "\nrule op remoteJoinPayload\n  match: any\n  state: triaged https://evil/y#@octocat\n  \
         reason: rejects every token ##[stop-commands]r\n",
    );
    std::fs::write(&ledger, text).unwrap();
    for (name, format) in [
        ("run-triaged-human", "human"),
        ("run-triaged-markdown", "markdown"),
        ("run-triaged-html", "html"),
    ] {
        let args = ["run", "--oracle", PORT, "--format", format];
        check(name, &parity_diff(corpus.path(), &args, &[]).render());
    }
}

/// A triaged entry's link, hostile: a mention, a workflow command's
/// marker and markup.
const TRIAGED_LINK: &str = "https://evil/x?q=@octocat&r=##[stop-commands]<b>";

/// Where `needle` first starts in `bytes`.
fn find(bytes: &[u8], needle: &[u8]) -> Option<usize> {
    bytes
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Usage errors: mistyped subcommands (near ones, clap's own
/// suggestion or ours; a far one, none), an unknown flag of the commands
/// whose `--oracle` or `--reference` a suite can give (their usage shows
/// it optional), and the head of `run --help`. Exit status 2 for each
/// error.
#[test]
fn usage_and_mistyped_subcommands() {
    let dir = tempfile::tempdir().unwrap();
    let runs: Vec<String> = [
        &["rnu"][..],
        &["acept"],
        &["acpt"],
        &["acc"],
        &["blss"],
        &["revew"],
        &["run", "--bogus"],
        &["accept", "--bogus"],
        &["bless", "--bogus"],
        &["run", "--help"],
    ]
    .iter()
    .map(|args| {
        let mut ran = parity_diff(dir.path(), args, &[]);
        // Help: its head alone (what it says and the usage line). How
        // the options wrap depends on clap's features, which a build
        // of the whole workspace unifies differently.
        if let Some(at) = find(&ran.stdout, b"\nOptions:\n") {
            ran.stdout.truncate(at + 1);
        }
        ran.render()
    })
    .collect();
    check("cli-usage", &runs.join("\n"));
}

/// A run that fails only on its ledger's rules, one stale and one
/// orphaned, with hostile text in them: the JUnit report's ledger suite
/// and GitHub's annotations of both (with room for them, which the
/// hostile corpus's many failures leave none of).
#[test]
fn stale_and_orphaned_rules_in_junit_and_annotations() {
    let dir = tempfile::tempdir().unwrap();
    let element = r#"{"defined":true,"value":1}"#;
    for (path, text) in [
        ("cases/a.json", r#"[{"name":"one","op":"x"}]"#.to_owned()),
        ("golden/a.json", format!("[\n{element}\n]\n")),
        ("results.json", format!("[{element}]")),
        (
            "parity-ledger.txt",
            "rule op x\n  match: threw \"never \\u001b]0;pwn\\u0007 ##[stop-commands]\"\n  \
             state: accepted\n  reason: stale ##[stop-commands]x @octocat\n\n\
             rule op \"::error title=PWNED::gone\" y\n  match: any\n  \
             state: triaged https://evil/x\n  reason: orphaned\n"
                .to_owned(),
        ),
    ] {
        std::fs::create_dir_all(dir.path().join(path).parent().unwrap()).unwrap();
        std::fs::write(dir.path().join(path), text).unwrap();
    }
    let args = [
        "run",
        "--oracle",
        "cat results.json",
        "--format",
        "junit",
        "--annotate",
        "github",
    ];
    let ran = parity_diff(dir.path(), &args, &[]);
    assert_eq!(ran.code, Some(1), "{}", ran.render());
    check("run-rules-junit-annotations", &ran.render());
}

/// A corpus of one case whose golden and port's result differ near the
/// end of a long string, with hostile text in the window.
fn long_string_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let head = "x".repeat(300);
    let tail = r"\u001b]0;pwn\u0007 @octocat ::error::y";
    let value = |mark: &str| format!("[{{\"value\":\"{head}{mark}{tail}\"}}]");
    for (path, text) in [
        (
            "cases/long.json",
            r#"[{"name":"long","op":"echo"}]"#.to_owned(),
        ),
        ("golden/long.json", value("A")),
        ("result.json", value("B")),
    ] {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// Where a long string first differs, in every format that shows values.
#[test]
fn long_string_window_in_every_format() {
    let corpus = long_string_corpus();
    for (name, format) in [
        ("run-long-string-human", "human"),
        ("run-long-string-json", "json"),
        ("run-long-string-markdown", "markdown"),
        ("run-long-string-html", "html"),
    ] {
        let args = ["run", "--oracle", "cat result.json", "--format", format];
        let ran = parity_diff(corpus.path(), &args, &[]);
        let text = if format == "json" {
            ran.render_json()
        } else {
            ran.render()
        };
        check(name, &text);
    }
}

/// Without a ledger (with one, two cases of one identity are an error):
/// the JUnit names of two cases named by different lone surrogates.
#[test]
fn junit_names_of_lone_surrogates() {
    let corpus = Hostile::new();
    let ran = parity_diff(
        corpus.path(),
        &[
            "run",
            "--oracle",
            PORT,
            "--filter",
            "surrogates.json",
            "--format",
            "junit",
        ],
        &[],
    );
    check("run-junit-surrogates", &ran.render());
}

#[test]
fn github_annotations_and_job_summary() {
    let corpus = with_ledger();
    let args = ["run", "--oracle", PORT, "--color", "never"];
    let plain = parity_diff(corpus.path(), &args, &[]);
    let summary = corpus.join("summary.md");
    let mut github = args.to_vec();
    github.extend(["--annotate", "github"]);
    let ran = parity_diff(
        corpus.path(),
        &github,
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
    );
    // The report is the plain run's; the annotations come on stderr.
    assert_eq!(ran.stdout, plain.stdout);
    assert_eq!(ran.code, plain.code);
    let annotations = Ran {
        stdout: b"(the same as run-human)\n".to_vec(),
        ..ran
    };
    check("run-github-annotations", &annotations.render());
    let written = std::fs::read(&summary).expect("the summary is written");
    check(
        "run-github-summary",
        &section("GITHUB_STEP_SUMMARY", &written),
    );
}

#[test]
fn the_visible_transform_shows_every_invisible_character_and_is_reversible() {
    assert_eq!(
        visible("a\x1b[2J\r\n\t\x07\x7f\u{9b}\u{202e}\u{2028}\u{fffd}⟨ESC⟩ é".as_bytes()),
        "a⟨ESC⟩[2J⟨CR⟩\n⟨TAB⟩⟨BEL⟩⟨DEL⟩⟨U+009B⟩⟨U+202E⟩⟨U+2028⟩⟨U+FFFD⟩⟨U+27E8⟩ESC⟩ é"
    );
    assert_eq!(
        visible(b"s\xed\xa0\x80 \xff"),
        "s⟨\\xED⟩⟨\\xA0⟩⟨\\x80⟩ ⟨\\xFF⟩"
    );
    assert_eq!(section("out", b"a\n"), "──── out ────\na\n");
    assert_eq!(
        section("out", b"a"),
        "──── out ────\na⟨no newline at end⟩\n"
    );
    assert_eq!(section("out", b""), "──── out: empty ────\n");
}

#[test]
fn reflowed_json_differs_only_by_white_space_between_tokens() {
    let compact = br#"{"a":[1,{"b":"x,{y}\"]["}],"c":{},"d":[],"e":"\\"}"#;
    let reflowed = reflow_json(compact);
    assert_eq!(
        String::from_utf8(reflowed).unwrap(),
        "{\n  \"a\":[\n    1,\n    {\n      \"b\":\"x,{y}\\\"][\"\n    }\n  ],\n  \"c\":{},\n  \"d\":[],\n  \"e\":\"\\\\\"\n}"
    );
}
