//! The framing divergence (`framing = "exact"`) in every format: a port
//! that ends one file's array with a newline, pretty-prints another, and
//! prints a debug line before a third; then what `accept` writes for it
//! and the run that follows.

use super::{check, parity_diff, Ran};

/// Answers `[1]` to each case file of one case, framed by what the case
/// is named: `newline` adds a trailing newline, `pretty` indents, and
/// `debug` prints a line (with a hostile escape and mention) before it.
const PORT: &str = r#"input=$(cat)
case "$input" in
  *'"newline"'*) printf '[1]\n' ;;
  *'"pretty"'*) printf '[\n  1,\n  2\n]' ;;
  *'"debug"'*) printf 'debug: ready \033]0;pwn\007 @octocat\n[1]' ;;
  *'"exact"'*) printf '[1]' ;;
  *) printf '[]' ;;
esac"#;

fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let case = |name: &str| format!(r#"[{{"name":"{name}","op":"echo"}}]"#);
    for (file, cases, golden) in [
        ("debug.json", case("debug"), "[1]"),
        ("exact.json", case("exact"), "[1]"),
        ("newline.json", case("newline"), "[1]"),
        (
            "pretty.json",
            r#"[{"name":"pretty","op":"echo"},{"name":"pretty 2","op":"echo"}]"#.to_owned(),
            "[1,2]",
        ),
    ] {
        for (folder, text) in [("cases", cases.as_str()), ("golden", golden)] {
            let path = dir.path().join(folder).join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }
    dir
}

/// `run` with PORT, exact framing unless `more` says otherwise.
fn run(dir: &std::path::Path, more: &[&str]) -> Ran {
    let mut args = vec!["run", "--oracle", PORT];
    if !more.contains(&"--framing") {
        args.extend(["--framing", "exact"]);
    }
    args.extend(more);
    parity_diff(dir, &args, &[])
}

#[test]
fn framing_in_every_format() {
    let corpus = corpus();
    for (name, format) in [
        ("framing-human", "human"),
        ("framing-json", "json"),
        ("framing-markdown", "markdown"),
        ("framing-junit", "junit"),
        ("framing-html", "html"),
    ] {
        let ran = run(corpus.path(), &["--format", format]);
        assert_eq!(ran.code, Some(1), "{name}: {}", ran.render());
        let text = match format {
            "json" => ran.render_json(),
            _ => ran.render(),
        };
        check(name, &text);
    }
    // Annotations for a pull request: one per file that fails.
    let ran = run(corpus.path(), &["--annotate", "github", "--color", "never"]);
    let annotations = Ran {
        stdout: b"(the same as framing-human)\n".to_vec(),
        ..ran
    };
    check("framing-github-annotations", &annotations.render());
    // `json` framing takes any JSON array: only the debug line fails.
    let ran = run(corpus.path(), &["--framing", "json"]);
    check("framing-json-mode", &ran.render());
}

#[test]
fn accept_writes_a_framing_rule_and_the_run_then_passes() {
    let corpus = corpus();
    let accepted = parity_diff(
        corpus.path(),
        &[
            "accept",
            "--oracle",
            PORT,
            "--framing",
            "exact",
            "--filter",
            "[np]*.json",
            "--reason",
            "the port's printer pretty-prints",
        ],
        &[],
    );
    let ledger = std::fs::read_to_string(corpus.path().join("parity-ledger.txt")).unwrap();
    check(
        "framing-accept",
        &format!("{}\nledger:\n{ledger}", accepted.render()),
    );
    let ran = run(corpus.path(), &["--filter", "[np]*.json"]);
    assert_eq!(ran.code, Some(0), "{}", ran.render());
    check("framing-accepted-run", &ran.render());
}
