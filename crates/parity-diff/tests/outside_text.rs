//! Text from outside (case file names, case names, ledger reasons, a
//! port's stdout and stderr) through the binary, in every format, with
//! annotations and a job summary: never a raw control character, a line
//! that starts `::`, a `##[`, a live mention or link, or a JUnit name
//! that a parser reads otherwise (docs/REPORT.md, "Outside text").
//!
//! Each test reproduces a defect found by probing the release binaries;
//! the checks here are written independently of the library's own.

use crate::support;

use std::collections::BTreeSet;
use std::path::Path;

use support::report::{CaseKey, Report};
use support::{golden_of, run_with, write, Corpus, Ran};

/// A case file's name with a line break and a workflow command in it.
const HOSTILE_FILE: &str = "x\n::error title=PWNED::y.json";

/// Every way `text` could be read as something other than text: a raw
/// control character (but LF and, with `colour`, SGR escapes `ESC [ … m`),
/// a bidi control or a separator, a line whose first characters after
/// white space are `::`, or a `##[`.
fn assert_neutral(what: &str, text: &str, colour: bool) {
    let forbidden = |c: char| matches!(c as u32, 0..=0x1f | 0x7f..=0x9f | 0x202a..=0x202e | 0x2066..=0x2069 | 0x2028 | 0x2029);
    for (number, line) in text.split('\n').enumerate() {
        let mut plain = String::new();
        let mut rest = line;
        while let Some(at) = rest.find('\u{1b}') {
            plain.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let sgr = after.strip_prefix('[').and_then(|body| {
                let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
                (colour && body[end..].starts_with('m')).then(|| &body[end + 1..])
            });
            match sgr {
                Some(after) => rest = after,
                None => panic!("{what}: line {} holds ESC: {line:?}", number + 1),
            }
        }
        plain.push_str(rest);
        let c = plain.chars().find(|&c| forbidden(c));
        assert_eq!(c, None, "{what}: line {} holds {c:?}: {line:?}", number + 1);
        assert!(
            !plain.trim_start().starts_with("::"),
            "{what}: line {} starts a workflow command: {line:?}",
            number + 1
        );
        assert!(
            !plain.contains("##["),
            "{what}: line {} holds ##[: {line:?}",
            number + 1
        );
    }
}

/// A run in `dir`, as on GitHub's runners: annotations on, a job
/// summary; stdout, stderr and the summary each neutral, but for the
/// `annotations` workflow commands parity-diff means to print, each one
/// line (outside text that broke a line would make more). The summary is
/// returned after the run.
fn run_in_actions(dir: &Path, args: &[&str], annotations: usize) -> (Ran, String) {
    let summary = dir.join("summary.md");
    let _ = std::fs::remove_file(&summary);
    let ran = run_with(
        dir,
        args,
        b"",
        &[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
        ],
    );
    let colour = args.contains(&"always");
    assert_neutral(&format!("{args:?} stdout"), &ran.stdout, colour);
    let (commands, rest): (Vec<&str>, Vec<&str>) = ran
        .stderr
        .split('\n')
        .partition(|line| line.starts_with("::error ") || line.starts_with("::notice "));
    assert_eq!(commands.len(), annotations, "{args:?}: {}", ran.stderr);
    for command in commands {
        assert_neutral(&format!("{args:?} annotation"), &command[2..], false);
    }
    assert_neutral(&format!("{args:?} stderr"), &rest.join("\n"), false);
    let summary = std::fs::read_to_string(summary).unwrap_or_default();
    assert_neutral(&format!("{args:?} summary"), &summary, false);
    (ran, summary)
}

/// Every format of `run` (human with and without colour), each neutral.
fn every_format(dir: &Path, args: &[&str], annotations: usize) -> Vec<(String, Ran, String)> {
    let mut all = Vec::new();
    for format in ["human", "json", "junit", "markdown", "html"] {
        for colour in ["never", "always"] {
            if colour == "always" && format != "human" {
                continue;
            }
            let mut args = args.to_vec();
            args.extend(["--format", format, "--color", colour]);
            let (ran, summary) = run_in_actions(dir, &args, annotations);
            assert!(ran.code == 1 || ran.code == 2, "{args:?}: {ran:?}");
            all.push((format.to_owned(), ran, summary));
        }
    }
    all
}

/// The Markdown outside code spans and code blocks: what GitHub renders
/// as prose, where a mention, a link or HTML would be live.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fence: Option<usize> = None;
    for line in markdown.lines() {
        let ticks = line.chars().take_while(|&c| c == '`').count();
        match fence {
            None if ticks >= 3 => {
                fence = Some(ticks);
                continue;
            }
            Some(n) if ticks >= n && line.trim_end().len() == ticks => {
                fence = None;
                continue;
            }
            Some(_) => continue,
            None => {}
        }
        // Code spans: a run of backticks up to the next run as long.
        let mut rest = line;
        while let Some(at) = rest.find('`') {
            out.push_str(&rest[..at]);
            let run = rest[at..].chars().take_while(|&c| c == '`').count();
            let delimiter = "`".repeat(run);
            let body = &rest[at + run..];
            match body.find(&delimiter) {
                Some(end) => rest = &body[end + run..],
                None => {
                    out.push_str(&rest[at..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out.push('\n');
    }
    out
}

fn assert_inert_markdown(what: &str, markdown: &str) {
    let prose = prose(markdown);
    for live in [
        "@octocat",
        "https://",
        "www.",
        "<b>",
        "](",
        "PWNED",
        "stop-commands",
    ] {
        assert!(
            !prose.contains(live),
            "{what}: {live} outside code:\n{prose}"
        );
    }
}

#[test]
fn a_hostile_case_file_name_starts_no_workflow_command() {
    let corpus = Corpus::new();
    corpus.case(HOSTILE_FILE, r#"[{"op":"x","v":1}]"#);
    corpus.case("a.json", r#"[{"op":"x","v":1}]"#);
    corpus.golden("a.json", &golden_of(&[r#"{"op":"x","v":2}"#]));
    corpus.golden("z\r::error::orphaned\u{1b}[2J.json", &golden_of(&["1"]));
    let runs = every_format(corpus.path(), &["run", "--oracle", "cat"], 3);
    let human = &runs[0].1.stdout;
    assert!(
        human.contains(
            "MISSING x\\u{a}::error title=PWNED::y.json: no golden at \
             golden/x\\u{a}::error title=PWNED::y.json\n"
        ),
        "{human}"
    );
    assert!(
        human.contains("ORPHAN golden/z\\u{d}::error::orphaned\\u{1b}[2J.json: golden without"),
        "{human}"
    );
    // The annotations name the files, escaped, one line each.
    let stderr = &runs[0].1.stderr;
    assert!(
        stderr.contains(
            "::error file=cases/x\\u{a}%3A%3Aerror title=PWNED%3A%3Ay.json,title=missing golden::"
        ),
        "{stderr}"
    );
    // JSON keeps the name exactly.
    let json = Report::read(&runs[2].1.stdout);
    let names: Vec<&str> = json.files.iter().filter_map(|file| file.name()).collect();
    assert!(names.contains(&HOSTILE_FILE), "{names:?}");
    for (format, ran, summary) in &runs {
        if format == "markdown" {
            assert_inert_markdown("run --format markdown", &ran.stdout);
        }
        assert_inert_markdown("job summary", summary);
    }
}

#[test]
fn a_case_named_stop_commands_never_reaches_the_output_as_is() {
    let corpus = Corpus::new();
    let case = r###"{"op":"x","name":"##[stop-commands]tok","v":1}"###;
    let threw = r###"{"op":"##[group]op","name":"n","v":1}"###;
    corpus.case("a.json", &format!("[{case},{threw}]"));
    corpus.golden(
        "a.json",
        &golden_of(&[
            r###"{"op":"x","name":"##[stop-commands]tok","v":2}"###,
            r###"{"op":"##[group]op","name":"n","v":2}"###,
        ]),
    );
    let runs = every_format(corpus.path(), &["run", "--oracle", "cat"], 2);
    let human = &runs[0].1.stdout;
    assert!(
        human.contains("#0 x \"##\\u005bstop-commands]tok\""),
        "{human}"
    );
    assert!(
        human.contains("input: {\"op\":\"x\",\"name\":\"##\\u005bstop-commands]tok\""),
        "{human}"
    );
    assert!(
        human.contains("FAIL [1 case] ##\\u{5b}group]op: different at /v"),
        "{human}"
    );
    // The JSON report reads back to the very name.
    let json = Report::read(&runs[2].1.stdout);
    assert_eq!(
        json.files[0].cases[0].name.as_deref(),
        Some("##[stop-commands]tok")
    );
}

/// A port that writes a terminal title, a screen clear, an OSC 8 link,
/// a CR before a workflow command and a bidi override on stderr, and
/// crashes on the case named `boom`.
const CRASHING_PORT: &str = r#"#!/bin/sh
input=$(cat)
case "$input" in
  *boom*)
    printf '\033]0;pwn\007\033[2J\n' >&2
    printf '\033]8;;https://evil/x\033\\click\033]8;;\033\\\n' >&2
    printf 'ok\r::error title=PWNED::from stderr\n   ::warning::indented\n' >&2
    printf 'abc\342\200\256def ##[stop-commands]tok\n' >&2
    exit 3;;
esac
printf '%s' "$input"
"#;

#[test]
fn a_port_s_stderr_is_shown_escaped_one_prefixed_line_per_line() {
    let corpus = Corpus::new();
    write(corpus.join("port.sh"), CRASHING_PORT);
    // Pretty-printed: the input of the case it crashes on is its bytes.
    corpus.case(
        "a.json",
        "[{\"op\":\"x\",\"name\":\"fine\",\"v\":1},\r\n{\r\n  \"op\":\"x\",\n  \"name\":\"boom\",\n  \"v\":1\n}]",
    );
    corpus.golden(
        "a.json",
        &golden_of(&[
            r#"{"op":"x","name":"fine","v":1}"#,
            r#"{"op":"x","name":"boom","v":1}"#,
        ]),
    );
    let runs = every_format(corpus.path(), &["run", "--oracle", "sh port.sh"], 1);
    let coloured = &runs[1].1.stdout;
    assert!(
        coloured.contains("| \\u{1b}]0;pwn\\u{7}\\u{1b}[2J"),
        "{coloured}"
    );
    {
        let human = &runs[0].1.stdout;
        // The input on one line: its line breaks were white space.
        assert!(
            human.contains("      input: {    \"op\":\"x\",   \"name\":\"boom\",   \"v\":1 }\n"),
            "{human}"
        );
        for line in [
            "      | \\u{1b}]0;pwn\\u{7}\\u{1b}[2J\n",
            "      | \\u{1b}]8;;https://evil/x\\u{1b}\\click\\u{1b}]8;;\\u{1b}\\\n",
            "      | ok\\u{d}::error title=PWNED::from stderr\n",
            "      |    \\u{3a}:warning::indented\n",
            "      | abc\\u{202e}def ##\\u{5b}stop-commands]tok\n",
        ] {
            assert!(human.contains(line), "{line}\n{human}");
        }
    }
    let json = Report::read(&runs[2].1.stdout);
    let stderr = json.files[0].cases[1].stderr.as_deref().unwrap();
    assert!(stderr.contains("\u{1b}]0;pwn\u{7}\u{1b}[2J\n"), "{stderr}");
    assert!(
        stderr.contains("abc\u{202e}def ##[stop-commands]tok"),
        "{stderr}"
    );
    assert!(runs[2]
        .1
        .stdout
        .contains("abc\\u202edef ##\\u005bstop-commands]tok"));
}

#[test]
fn a_ledger_reason_with_an_escape_is_shown_escaped() {
    let corpus = Corpus::new();
    corpus.case(
        "a.json",
        r#"[{"op":"x","name":"stale","v":1},{"op":"x","name":"moved","v":1}]"#,
    );
    corpus.golden(
        "a.json",
        &golden_of(&[
            r#"{"op":"x","name":"stale","v":1}"#,
            r#"{"op":"x","name":"moved","v":3}"#,
        ]),
    );
    let reason = "\u{1b}]0;pwn\u{7}\u{1b}[2J @octocat https://evil/x ##[stop-commands]tok";
    write(
        corpus.join("parity-ledger.txt"),
        format!(
            "case a.json \"stale\"\n  op: x\n  state: accepted\n  reason: {reason}\n  \
             verdict: different\n  paths: /v\n  fingerprint: 0000000000000000\n\n\
             case a.json \"moved\"\n  op: x\n  state: triaged \u{1b}[31mhttps://evil/x\n  \
             reason: {reason}\n  verdict: different\n  paths: /v\n  \
             fingerprint: 0000000000000000\n\n\
             case a.json \"gone\"\n  op: x\n  state: accepted\n  reason: {reason}\n  \
             verdict: different\n  paths: /v\n  fingerprint: 0000000000000000\n"
        ),
    );
    let runs = every_format(corpus.path(), &["run", "--oracle", "cat"], 3);
    let human = &runs[0].1.stdout;
    let shown = "\\u{1b}]0;pwn\\u{7}\\u{1b}[2J @octocat https://evil/x ##\\u{5b}stop-commands]tok";
    assert!(
        human.contains(&format!("(accepted: {shown}) expects a divergence")),
        "{human}"
    );
    assert!(
        human.contains(&format!(
            "ledger: triaged (\\u{{1b}}[31mhttps://evil/x): {shown}\n"
        )),
        "{human}"
    );
    for (format, ran, summary) in &runs {
        if format == "markdown" {
            assert_inert_markdown("run --format markdown", &ran.stdout);
        }
        assert_inert_markdown("job summary", summary);
    }
}

/// Two runs' JSON reports whose op names and signatures hold a mention,
/// an autolink and HTML.
fn hostile_reports(corpus: &Corpus) -> (String, String) {
    let op = "@octocat https://evil/x www.evil.x <b>bold</b> | *em* ##[x \u{1b}[2J";
    let quoted = serde_json::to_string(op).unwrap();
    let cases = format!(
        r#"[{{"op":{quoted},"name":"a","v":1}},{{"op":"y","name":"@octocat https://evil/x","v":1}}]"#
    );
    corpus.case("a.json", &cases);
    corpus.golden(
        "a.json",
        &golden_of(&[
            &format!(r#"{{"op":{quoted},"name":"a","v":1}}"#),
            r#"{"op":"y","name":"@octocat https://evil/x","v":1}"#,
        ]),
    );
    let base = corpus.run(&["run", "--oracle", "cat", "--format", "json"]);
    assert_eq!(base.code, 0, "{base:?}");
    write(corpus.join("base.json"), &base.stdout);
    // The port throws messages that hold them too.
    let port = format!(
        r#"printf '[{{"threw":true,"message":%s}},{{"threw":true,"message":"@octocat https://evil/x"}}]' '{}'"#,
        quoted.replace('\'', "'\\''")
    );
    write(corpus.join("port.sh"), &port);
    let head = corpus.run(&["run", "--oracle", "sh port.sh", "--format", "json"]);
    assert_eq!(head.code, 1, "{head:?}");
    write(corpus.join("head.json"), &head.stdout);
    ("base.json".into(), "head.json".into())
}

#[test]
fn delta_markdown_keeps_mentions_and_links_in_code() {
    let corpus = Corpus::new();
    let (base, head) = hostile_reports(&corpus);
    let (ran, _) = run_in_actions(
        corpus.path(),
        &["delta", &base, &head, "--format", "markdown"],
        0,
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stdout.contains("@octocat"), "{}", ran.stdout);
    assert_inert_markdown("delta --format markdown", &ran.stdout);
    // The table's pipe stays in its cell.
    let row = ran
        .stdout
        .lines()
        .find(|line| line.contains("<b>bold</b>"))
        .unwrap();
    assert!(row.starts_with("| `") && row.contains("\\|"), "{row}");
    let (ran, _) = run_in_actions(corpus.path(), &["delta", &base, &head], 0);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains("##\\u005bx \\u001b[2J"),
        "{}",
        ran.stdout
    );
}

#[test]
fn merge_writes_hostile_shards_neutral() {
    let corpus = Corpus::new();
    corpus.case(
        HOSTILE_FILE,
        r###"[{"op":"##[x","name":"\u001b]0;pwn\u0007","v":1}]"###,
    );
    corpus.golden(
        HOSTILE_FILE,
        &golden_of(&[r###"{"op":"##[x","name":"\u001b]0;pwn\u0007","v":2}"###]),
    );
    corpus.case("b.json", r#"[{"op":"y","v":1}]"#);
    corpus.golden("b.json", &golden_of(&[r#"{"op":"y","v":1}"#]));
    for shard in ["1/2", "2/2"] {
        let ran = corpus.run(&[
            "run", "--oracle", "cat", "--shard", shard, "--format", "json",
        ]);
        write(
            corpus.join(&format!("shard{}.json", &shard[..1])),
            &ran.stdout,
        );
    }
    for format in ["human", "json", "junit", "markdown", "html"] {
        let (ran, _) = run_in_actions(
            corpus.path(),
            &["merge", "shard1.json", "shard2.json", "--format", format],
            1,
        );
        assert_eq!(ran.code, 1, "{format}: {ran:?}");
    }
}

#[test]
fn junit_names_keep_tab_lf_cr_and_lone_surrogates_distinct() {
    let corpus = Corpus::new();
    let file = "t\tl\nc\r.json";
    corpus.case(
        file,
        r#"[{"op":"x","name":"s\ud800","v":1},{"op":"x","name":"s\ud801","v":1}]"#,
    );
    corpus.golden(
        file,
        &golden_of(&[
            r#"{"op":"x","name":"s\ud800","v":2}"#,
            r#"{"op":"x","name":"s\ud801","v":2}"#,
        ]),
    );
    let (ran, _) = run_in_actions(
        corpus.path(),
        &["run", "--oracle", "cat", "--format", "junit"],
        1,
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    let xml = &ran.stdout;
    assert!(
        xml.contains("classname=\"t&#9;l&#10;c&#13;.json\""),
        "{xml}"
    );
    assert!(
        xml.contains("file=\"cases/t&#9;l&#10;c&#13;.json\""),
        "{xml}"
    );
    let names: BTreeSet<&str> = xml
        .split("<testcase name=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert_eq!(
        names,
        BTreeSet::from([
            "t&#9;l&#10;c&#13;.json &quot;s\\\\ud800&quot;",
            "t&#9;l&#10;c&#13;.json &quot;s\\\\ud801&quot;",
        ]),
        "{xml}"
    );
    // The two are two cases everywhere: in the JSON report too.
    let json = corpus.run(&["run", "--oracle", "cat", "--format", "json"]);
    let json = Report::read(&json.stdout);
    let cases = &json.files[0].cases;
    assert_eq!(cases[0].id.key, CaseKey::Name("s\\ud800".into()));
    assert_eq!(cases[1].id.key, CaseKey::Name("s\\ud801".into()));
}

#[test]
fn bless_accept_and_fuzz_messages_are_neutral() {
    let corpus = Corpus::new();
    write(corpus.join("port.sh"), CRASHING_PORT);
    corpus.case(
        HOSTILE_FILE,
        r###"[{"op":"x","name":"fine","v":1},{"op":"x","name":"##[boom]","v":1}]"###,
    );
    for format in ["human", "json"] {
        let (ran, _) = run_in_actions(
            corpus.path(),
            &[
                "bless",
                "--reference",
                "sh port.sh",
                "--force",
                "--format",
                format,
            ],
            0,
        );
        assert_eq!(ran.code, 2, "{ran:?}");
    }
    corpus.golden(
        HOSTILE_FILE,
        &golden_of(&[
            r###"{"op":"x","name":"fine","v":2}"###,
            r###"{"op":"x","name":"##[boom]","v":1}"###,
        ]),
    );
    let refused = run_in_actions(
        corpus.path(),
        &[
            "accept",
            "--oracle",
            "sh port.sh",
            "--reason",
            "\u{1b}]0;pwn\u{7}",
            "--force",
        ],
        0,
    )
    .0;
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(
        refused
            .stderr
            .contains("--reason must not hold the control character U+001B"),
        "{refused:?}"
    );
    let reason = "##[stop-commands]tok @octocat";
    let (ran, _) = run_in_actions(
        corpus.path(),
        &[
            "accept",
            "--oracle",
            "sh port.sh",
            "--reason",
            reason,
            "--force",
        ],
        0,
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout
            .contains("added    x\\u{a}::error title=PWNED::y.json \"fine\" (x, different at /v)"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("added    x\\u{a}::error title=PWNED::y.json \"##\\u005bboom]\" (x, crash)"),
        "{}",
        ran.stdout
    );
    // A left side broken on every batch: the summary quotes its stderr.
    write(
        corpus.join("broken.sh"),
        CRASHING_PORT.replace("*boom*)", "*)"),
    );
    for format in ["human", "json"] {
        let (ran, _) = run_in_actions(
            corpus.path(),
            &[
                "fuzz",
                "--left",
                "sh broken.sh",
                "--right",
                "cat",
                "--count",
                "20",
                "--seed",
                "1",
                "--out",
                "found",
                "--format",
                format,
            ],
            0,
        );
        assert_eq!(ran.code, 2, "{ran:?}");
        assert!(ran.stdout.contains("pwn"), "{}", ran.stdout);
    }
}
