//! A small hostile corpus and the fixed port that answers it, for the
//! snapshot tests (tests/snapshots.rs). Everything outside text can hold
//! is here once: control characters in file names and case names, a
//! workflow command at the start of a name, `##[`, bidi controls, marks
//! (U+200E, U+200F, U+061C) and invisible characters (zero-width, BOM,
//! tags), line separators, a name of 325 characters (cut in reports), a mention and a link in names and ops, lone surrogates,
//! file names that are not UTF-8, a long string that differs at its end,
//! a case whose token the port quotes back (and answers as a key, glued
//! to `Bearer` and cut short), a port whose stderr holds
//! terminal escapes, a ledger reason with ESC, an orphaned golden and an
//! orphaned ledger entry.
//!
//! It is built in a temporary directory by the test, so no odd file name
//! is committed. The port is a POSIX `sh` script (built-ins only) written
//! from the same table as the goldens: it knows each case by the `id`
//! this module gives it and prints a fixed result for it, identical to
//! the golden, different, or throwing; one case makes it crash. So it
//! answers any selection of the cases (`--op`, `--shard`, bisection).
#![allow(dead_code)]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

/// The oracle command that runs the port, from the corpus's directory.
pub const PORT: &str = "sh port.sh";

/// The token of `secret.json`, which the port quotes back in a message.
const SECRET: &str = "tok-SECRET-4f2a9c";

/// The two case files whose names are not UTF-8, and differ only there.
pub const NOT_UTF8: [&[u8]; 2] = [b"bytes-\xff.json", b"bytes-\xfe.json"];

/// The port's answer that is no answer: it crashes.
const CRASH: &str = "crash";

/// What the port writes on stderr before it crashes: a window title and
/// a screen clear (OSC 0, CSI 2J), an OSC 8 link, a bare CR and a
/// workflow command. In `printf` notation.
const CRASH_STDERR: &str = r"port: liveness: segmentation fault\n\033]0;pwn\007\033[2J\033]8;;https://evil/x\033\\click\033]8;;\033\\\nhalf a line\r::error title=PWNED::from stderr\n";

/// One case: its bytes in the case file, the golden's element, and the
/// port's answer now and in the base run that `delta` compares with.
struct Case {
    case: String,
    golden: String,
    head: String,
    base: String,
}

fn case(case: &str, golden: &str, head: &str) -> Case {
    Case {
        case: case.into(),
        golden: golden.into(),
        head: head.into(),
        base: head.into(),
    }
}

impl Case {
    fn base(mut self, base: &str) -> Case {
        self.base = base.into();
        self
    }
}

fn value(json: &str) -> String {
    format!(r#"{{"defined":true,"value":{json}}}"#)
}

/// A case file: its name (bytes: some are not UTF-8) and its cases.
struct File {
    name: Vec<u8>,
    cases: Vec<Case>,
}

fn files() -> Vec<File> {
    let long = "a".repeat(2000);
    vec![
        File {
            name: b"plain.json".to_vec(),
            cases: vec![
                case(
                    r#"{"name":"ready: same","op":"readyTimeoutMs","configured":5000}"#,
                    &value("5000"),
                    &value("5000"),
                ),
                case(
                    r#"{"name":"ready: written differently","op":"readyTimeoutMs","configured":30000}"#,
                    &value("30000"),
                    &value("30000.0"),
                ),
                case(
                    r#"{"name":"ready: off by one","op":"readyTimeoutMs","configured":1500.9}"#,
                    &value("1500"),
                    &value("1501"),
                )
                .base(&value("1500")),
                case(
                    &format!(r#"{{"name":"long: differs at its end {}","op":"scriptPath"}}"#, "n".repeat(300)),
                    &value(&format!(r#""{long}golden-end""#)),
                    &value(&format!(r#""{long}port-end""#)),
                ),
                case(
                    r#"{"name":"throws: not implemented","op":"cliArgs"}"#,
                    &value(r#"["--x"]"#),
                    r#"{"threw":true,"message":"not implemented"}"#,
                ),
                case(
                    r#"{"name":"value: hostile text","op":"envOverlay"}"#,
                    &value(r#""ok""#),
                    &value(
                        r#""\u001b]0;pwn\u0007\u001b[2J @octocat https://evil/x\n::error title=PWNED::v""#,
                    ),
                ),
            ],
        },
        File {
            name: b"names.json".to_vec(),
            cases: vec![
                case(
                    r###"{"name":"##[stop-commands]tok","op":"readyTimeoutMs","configured":2}"###,
                    &value("2"),
                    &value("3"),
                )
                .base(&value("2")),
                case(
                    r#"{"name":"::error title=PWNED::case","op":"::error title=PWNED::op","configured":3}"#,
                    &value("3"),
                    &value("4"),
                )
                .base(&value("3")),
                case(
                    r#"{"name":"lf\n::error title=PWNED::after-lf cr\r::warning::after-cr","op":"cliArgs\n::error title=PWNED::op after lf","configured":4}"#,
                    &value("4"),
                    &value("5"),
                )
                .base(&value("4")),
                case(
                    r#"{"name":"esc \u001b[2J bel \u0007 del \u007f csi \u009b nel \u0085 tab \t end","op":"nodeArgs","configured":5}"#,
                    &value("5"),
                    &value("6"),
                )
                .base(&value("5")),
                case(
                    r#"{"name":"bidi \u202etxt.exe\u202c isolate \u2066x\u2069 ls \u2028 ps \u2029 marks \u200e\u200f\u061c zw \u200b\u200c\u200d\u2060 bom \ufeff tag \udb40\udc41\udb40\udc7f end","op":"envOverlay","configured":6}"#,
                    &value("6"),
                    &value("7"),
                )
                .base(&value("6")),
                case(
                    r#"{"name":"osc8 \u001b]8;;https://evil/x\u0007click\u001b]8;;\u0007","op":"@octocat","configured":7}"#,
                    &value(r#""a""#),
                    &value(r#""b""#),
                )
                .base(&value(r#""a""#)),
                case(
                    r#"{"name":"mention @octocat and https://evil/x","op":"https://evil/x"}"#,
                    &value(r#""a""#),
                    &value(r#""b""#),
                )
                .base(&value(r#""a""#)),
            ],
        },
        File {
            name: b"surrogates.json".to_vec(),
            cases: vec![
                case(
                    r#"{"name":"s\ud800","op":"readyTimeoutMs","configured":8}"#,
                    &value("8"),
                    &value("9"),
                ),
                case(
                    r#"{"name":"s\ud801","op":"readyTimeoutMs","configured":9}"#,
                    &value("9"),
                    &value("10"),
                ),
            ],
        },
        File {
            name: b"\n::error title=PWNED::y.json".to_vec(),
            cases: vec![case(
                r#"{"name":"in a file named with a workflow command","op":"readyTimeoutMs","configured":1000}"#,
                &value("1000"),
                &value("1001"),
            )],
        },
        File {
            name: "\r::warning::cr \t tab \x1b[31m esc \x07 bel \x7f del \u{9b} csi \u{202e} rlo \u{2028} ls \u{200e} lrm \u{200b} zwsp \u{feff} bom.json"
                .as_bytes()
                .to_vec(),
            cases: vec![case(
                r#"{"name":"in a file named with controls","op":"readyTimeoutMs","configured":1000}"#,
                &value("1000"),
                &value("1001"),
            )],
        },
        File {
            name: NOT_UTF8[0].to_vec(),
            cases: vec![case(
                r#"{"name":"in a file named with byte FF","op":"readyTimeoutMs","configured":1000}"#,
                &value("1000"),
                &value("1000"),
            )
            .base(&value("1001"))],
        },
        File {
            name: NOT_UTF8[1].to_vec(),
            cases: vec![case(
                r#"{"name":"in a file named with byte FE","op":"readyTimeoutMs","configured":1000}"#,
                &value("1000"),
                &value("1001"),
            )
            .base(&value("1000"))],
        },
        File {
            name: b"secret.json".to_vec(),
            cases: vec![
                case(
                    &format!(
                        r#"{{"name":"token: quoted back","op":"remoteJoinPayload","token":"{SECRET}"}}"#
                    ),
                    &value(r#"{"joined":true}"#),
                    &format!(r#"{{"threw":true,"message":"rejected token {SECRET}"}}"#),
                ),
                case(
                    &format!(
                        r#"{{"name":"token: sibling","op":"remoteJoinPayload","token":"{SECRET}"}}"#
                    ),
                    &value(r#"{"joined":true}"#),
                    r#"{"threw":true,"message":"rejected"}"#,
                ),
                // Issue 40: the token as a key (in every JSON Pointer),
                // glued to other text, and cut short.
                case(
                    &format!(
                        r#"{{"name":"token: as a key","op":"remoteJoinPayload","token":"{SECRET}"}}"#
                    ),
                    &value(r#"{"joined":true}"#),
                    &value(&format!(
                        r#"{{"joined":true,"{SECRET}":"X","Bearer{SECRET}":1,"cut":"{}"}}"#,
                        &SECRET[..SECRET.len() - 3]
                    )),
                ),
            ],
        },
        File {
            name: b"crash.json".to_vec(),
            cases: vec![
                case(
                    r#"{"name":"crash: the port dies","op":"liveness"}"#,
                    &value("true"),
                    CRASH,
                ),
                case(
                    r#"{"name":"crash: its neighbour","op":"liveness"}"#,
                    &value("true"),
                    &value("true"),
                ),
            ],
        },
        File {
            name: b"no-golden ##[stop-commands]x.json".to_vec(),
            cases: vec![case(
                r#"{"name":"a case without a golden","op":"readyTimeoutMs","configured":1000}"#,
                "",
                &value("1000"),
            )],
        },
    ]
}

/// A golden without a case file, named to start a line with a workflow
/// command and to clear the screen.
const ORPHAN_GOLDEN: &[u8] = b"gone \x1b[2J\n::error title=PWNED::orphan.json";

/// The reason `accept` records in the fixture's ledger: a legacy
/// workflow command, a mention and a link (`accept` refuses control
/// characters in a reason; the entries written by hand below hold them).
pub const LEDGER_REASON: &str = "known: ##[stop-commands]red, see @octocat https://evil/x";

/// Entries written by hand after `accept`: one stale (its case passes),
/// one changed (a fingerprint the case does not have), one orphaned (no
/// such case file), with escapes in their reasons and names; and two
/// rules, one orphaned (its glob matches no file), one stale.
const LEDGER_BY_HAND: &str = "
case plain.json \"ready: same\"
  state: accepted
  reason: stale, and sets \x1b]0;pwn\x07 the title
  fingerprint: 0000000000000000

case names.json \"##[stop-commands]tok\"
  state: triaged https://evil/x
  reason: changed: ##[stop-commands]tok2
  fingerprint: 0123456789abcdef

case \"orphan\\n::error title=PWNED::entry.json\" \"::error title=PWNED::orphan key\"
  state: accepted
  reason: orphaned
  fingerprint: 0123456789abcdef

rule op \"::error title=PWNED::op\" @octocat
  files: \"*\\n::error title=PWNED::rule*\"
  match: threw \"\\u001b]0;pwn\\u0007 ##[stop-commands]x\"
  state: triaged https://evil/x
  reason: orphaned, and sets \x1b]0;pwn\x07 the title ##[stop-commands]r

rule op readyTimeoutMs
  match: threw \"never thrown\"
  state: accepted
  reason: stale: ##[stop-commands]s @octocat
";

/// The golden format of some elements.
fn golden_text(elements: &[&str]) -> String {
    format!("[\n{}\n]\n", elements.join(",\n"))
}

fn os(bytes: &[u8]) -> OsString {
    OsString::from_vec(bytes.to_vec())
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// The port's script: each case's `id` in turn, and its answer.
fn port_script(files: &[File]) -> String {
    let mut script = String::from(
        "# The fixed port of tests/snapshots.rs, written by it: it answers each case by\n\
         # the id in it, in order (PORT_MODE=base: as in the base run).\n\
         rest=$(cat)\n\
         out='' sep=''\n\
         while :; do\n\
         case $rest in *'\"id\":\"'*) ;; *) break ;; esac\n\
         rest=${rest#*'\"id\":\"'}\n\
         id=${rest%%'\"'*}\n\
         case $PORT_MODE:$id in\n",
    );
    let quoted = |text: &str| {
        assert!(!text.contains('\''), "a quote in a port answer: {text}");
        format!("'{text}'")
    };
    for (id, case) in files.iter().flat_map(|file| &file.cases).enumerate() {
        if case.head == CRASH {
            script.push_str(&format!(
                "*:c{id}) printf '{CRASH_STDERR}' >&2; exit 139 ;;\n"
            ));
            continue;
        }
        if case.base != case.head {
            script.push_str(&format!("base:c{id}) a={} ;;\n", quoted(&case.base)));
        }
        script.push_str(&format!("*:c{id}) a={} ;;\n", quoted(&case.head)));
    }
    script.push_str(
        "*) echo \"port: no case $id\" >&2; exit 3 ;;\n\
         esac\n\
         out=$out$sep$a sep=,\n\
         done\n\
         printf '[%s]' \"$out\"\n",
    );
    script
}

/// A case's text with its `id` (`c0`, `c1`, … through the corpus) first.
fn with_id(id: usize, case: &str) -> String {
    let members = case.strip_prefix('{').expect("a case is an object");
    format!("{{\"id\":\"c{id}\",{members}")
}

/// The hostile corpus in a temporary directory: `cases/`, `golden/`,
/// `port.sh`, and, with a ledger, `parity-ledger.txt`.
pub struct Hostile {
    pub dir: tempfile::TempDir,
}

impl Hostile {
    /// The corpus without a ledger.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let files = files();
        let mut id = 0;
        for file in &files {
            let mut name = b"cases/".to_vec();
            name.extend(&file.name);
            let cases: Vec<String> = (file.cases.iter().enumerate())
                .map(|(at, case)| with_id(id + at, &case.case))
                .collect();
            let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
            write(&dir.path().join(os(&name)), golden_text(&cases).as_bytes());
            id += file.cases.len();
            if file.cases.iter().any(|c| c.golden.is_empty()) {
                continue;
            }
            let mut name = b"golden/".to_vec();
            name.extend(&file.name);
            let golden: Vec<&str> = file.cases.iter().map(|c| c.golden.as_str()).collect();
            write(&dir.path().join(os(&name)), golden_text(&golden).as_bytes());
        }
        let mut orphan = b"golden/".to_vec();
        orphan.extend(ORPHAN_GOLDEN);
        write(
            &dir.path().join(os(&orphan)),
            golden_text(&[&value("1")]).as_bytes(),
        );
        write(&dir.path().join("port.sh"), port_script(&files).as_bytes());
        Hostile { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn join(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// Removes the case files whose names are not UTF-8, and their
    /// goldens.
    pub fn remove_not_utf8_files(&self) {
        for name in NOT_UTF8 {
            for dir in [&b"cases/"[..], b"golden/"] {
                let path = self.dir.path().join(os(&[dir, name].concat()));
                std::fs::remove_file(path).unwrap();
            }
        }
    }

    /// Appends the ledger entries written by hand to `parity-ledger.txt`.
    pub fn add_ledger_by_hand(&self) {
        let path = self.join("parity-ledger.txt");
        let mut text = std::fs::read(&path).unwrap_or_default();
        text.extend(LEDGER_BY_HAND.as_bytes());
        std::fs::write(path, text).unwrap();
    }
}

impl Default for Hostile {
    fn default() -> Self {
        Self::new()
    }
}
