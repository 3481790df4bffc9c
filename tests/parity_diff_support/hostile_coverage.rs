//! A small hostile Node reference and corpus for the coverage snapshots
//! (tests/snapshots.rs): the reference's own text holds what outside text
//! can (ESC and BEL, a bidi override, a line separator, a workflow
//! command at the start of a line, `##[`, a mention, a link, markup,
//! backticks and a pipe), in two functions no case calls (one of them
//! allowlisted); case names and ops hold them too, and so do the
//! allowlist's reasons, one of them stale.
#![allow(dead_code)]

use std::path::Path;

/// The reference command, from the corpus's directory.
pub const REFERENCE: &str = "node ref.mjs";

const SOURCE: &str = "// A hostile reference: the text of a function no case calls.
import { readFileSync } from \"node:fs\";

function answer(c) {
  if (c.op === \"echo\") return c.value ?? null;
  return { threw: true, message: \"unknown op \" + String(c.op) };
}

function neverCalled() {
  // \u{1b}]0;pwn\u{7} \u{202e}reversed\u{202c} <b>bold</b> @octocat https://evil/x
  return 1;
}

function unlisted() {
  return `|pipe| \\`\\`\\` \u{2028} ok
::error title=PWNED::from the source
##[stop-commands]tok`;
}

const cases = JSON.parse(readFileSync(0, \"utf8\"));
process.stdout.write(JSON.stringify(cases.map(answer)));
";

const CASES: &str = r#"[
{"name": "echo: \u001b]0;pwn\u0007 @octocat https://evil/x", "op": "echo", "value": 1},
{"name": "::error title=PWNED::echo without a value", "op": "echo"},
{"name": "an op of markup `|`", "op": "<b>op</b>|\u202ex"}
]
"#;

/// The allowlist: the uncalled function with a reason in red, and an
/// entry that names nothing (stale).
pub fn allowlist(never_called_hash: &str) -> String {
    format!(
        "# the allowlist of a hostile corpus\n\
         span \"neverCalled\" {never_called_hash}\n  reason: \u{1b}[31mshown in red\u{1b}[0m, @octocat\n\n\
         span \"gone\" 0123456789ab\n  reason: stale ##[stop-commands]x\n"
    )
}

/// Writes the reference and its corpus into `dir`.
pub fn write(dir: &Path) {
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    std::fs::write(dir.join("ref.mjs"), SOURCE).unwrap();
    std::fs::write(dir.join("cases/hostile.json"), CASES).unwrap();
}
