//! Contract 5's cross-implementation matrix: every pairing of parent and
//! child, Rust (this oracle) or JavaScript (the reference under `node`),
//! must print the same bytes.
//!
//! The JavaScript side is the reference named by `REFERENCE_ORACLE` (a
//! shell command such as `node /abs/worker-spawn-oracle.mjs`; the script
//! is the word ending in `.mjs`, `.js` or `.cjs`). The test is ignored
//! unless asked for (`--include-ignored`), and then fails without them.

use crate::ipc_support;
use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use ipc_support::{run_bounded, Ran};
use support::{oracle_binary, repo_root, require_node, require_reference};

/// Our parent's own bound on the choreography.
const PARENT_TIMEOUT_SECS: &str = "10";
/// The test's bound on each pairing (the reference's parent has none).
const PAIRING_LIMIT: Duration = Duration::from_secs(20);

/// One implementation of a side.
#[derive(Clone, Copy, Debug)]
enum Side {
    Rust,
    Js,
}

/// The reference script named by `REFERENCE_ORACLE`, made absolute
/// against the repository root (where the other tests run it from).
fn reference_script(command: &str) -> PathBuf {
    let script = command
        .split_whitespace()
        .find(|word| [".mjs", ".js", ".cjs"].iter().any(|s| word.ends_with(s)))
        .unwrap_or_else(|| panic!("REFERENCE_ORACLE names no .mjs/.js/.cjs script: {command}"));
    let path = repo_root().join(script);
    assert!(
        path.is_file(),
        "the reference script is missing: {}",
        path.display()
    );
    path
}

fn child_argv(side: Side, script: &Path) -> Vec<String> {
    match side {
        Side::Rust => vec![oracle_binary().display().to_string()],
        Side::Js => vec![script.display().to_string()],
    }
    .into_iter()
    .chain(["ipc-child".to_string(), "t-matrix".to_string()])
    .collect()
}

fn run_pairing(parent: Side, child: Side, script: &Path) -> Ran {
    let mut command = match parent {
        Side::Rust => {
            let mut command = Command::new(oracle_binary());
            command.args(["ipc-parent", "--timeout", PARENT_TIMEOUT_SECS]);
            command
        }
        Side::Js => {
            let mut command = Command::new("node");
            command.arg(script).arg("ipc-parent");
            command
        }
    };
    command.args(child_argv(child, script));
    run_bounded(&mut command, PAIRING_LIMIT)
}

/// One JSON member or element per line, for a readable diff.
fn lines(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .replace("},{", "},\n{")
        .replace("],\"", "],\n\"")
}

#[test]
#[ignore = "needs REFERENCE_ORACLE"]
fn all_four_pairings_print_the_same_bytes() {
    let reference = require_reference();
    require_node();
    let script = reference_script(&reference);
    let pairings = [
        (Side::Js, Side::Js),
        (Side::Rust, Side::Rust),
        (Side::Rust, Side::Js),
        (Side::Js, Side::Rust),
    ];
    let runs: Vec<(String, Ran)> = pairings
        .iter()
        .map(|&(parent, child)| {
            (
                format!("{parent:?} parent x {child:?} child"),
                run_pairing(parent, child, &script),
            )
        })
        .collect();
    let mut report = String::new();
    for (name, ran) in &runs {
        report.push_str(&format!("== {name}: {}\n", ran.describe()));
    }
    for (name, ran) in &runs {
        assert_eq!(ran.code(), Some(0), "{name} failed\n{report}");
        assert!(ran.stderr.is_empty(), "{name} wrote on stderr\n{report}");
        assert!(
            ran.stdout.starts_with(b"{\"frames\":[") && ran.stdout.ends_with(b"}"),
            "{name} printed no result object (or a trailing newline)\n{report}"
        );
    }
    let (golden_name, golden) = &runs[0];
    for (name, ran) in &runs[1..] {
        if ran.stdout != golden.stdout {
            let diff = similar::TextDiff::from_lines(&lines(&golden.stdout), &lines(&ran.stdout))
                .unified_diff()
                .header(golden_name, name)
                .to_string();
            panic!("{name} differs from {golden_name}\n{report}\n{diff}");
        }
    }
    println!("{report}");
}
