//! GitHub Actions through the binary: annotations on stderr (on with
//! GITHUB_ACTIONS=true or `--annotate github`, off with `--annotate
//! none`; at most 10 and a notice), the job summary appended to the file
//! GITHUB_STEP_SUMMARY names (twice: two summaries; cut under 1 MiB with
//! a note), and JUnit cases that carry their file and line.

use crate::support;

use std::path::Path;

use support::{assert_markdown_well_formed, golden_of, run_with, Corpus, Ran};

fn in_actions(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let mut all = vec![("GITHUB_ACTIONS", "true")];
    all.extend_from_slice(env);
    run_with(dir, args, b"", &all)
}

/// A corpus of `count` cases that each fail alike only with themselves:
/// each its own op, each element `size` bytes long.
fn distinct_failures(count: usize, size: usize) -> Corpus {
    let corpus = Corpus::new();
    let element =
        |n: usize, fill: &str| format!("{{\"op\":\"op{n}\",\"v\":\"{}\"}}", fill.repeat(size));
    let cases: Vec<String> = (0..count).map(|n| element(n, "x")).collect();
    let golden: Vec<String> = (0..count).map(|n| element(n, "y")).collect();
    corpus.case("many.json", &format!("[\n{}\n]\n", cases.join(",\n")));
    let golden: Vec<&str> = golden.iter().map(String::as_str).collect();
    corpus.golden("many.json", &golden_of(&golden));
    corpus
}

#[test]
fn annotations_follow_the_flag_and_the_environment() {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            "[{\"op\":\"x\",\"v\":1},\n{\"op\":\"y\",\"v\":1}]",
        )
        .golden(
            "a.json",
            &golden_of(&["{\"op\":\"x\",\"v\":2}", "{\"op\":\"y\",\"v\":1}"]),
        );
    let dir = corpus.path();
    let expected = "::error file=cases/a.json,line=1,title=x::x: different at /v (golden number, \
                    port number) — 1 case, the first #0 x: different at /v\n";
    // `cat` echoes the case file, framing and all.
    let args = ["run", "--oracle", "cat", "--framing", "json", "--quiet"];
    for (extra, env, annotated) in [
        (None, None, false),
        (None, Some("true"), true),
        (None, Some("false"), false),
        (None, Some(""), false),
        (Some("auto"), Some("true"), true),
        (Some("none"), Some("true"), false),
        (Some("github"), None, true),
        (Some("github"), Some("false"), true),
    ] {
        let mut all: Vec<&str> = args.to_vec();
        if let Some(value) = extra {
            all.extend(["--annotate", value]);
        }
        let env: Vec<(&str, &str)> = env.map(|v| ("GITHUB_ACTIONS", v)).into_iter().collect();
        let ran = run_with(dir, &all, b"", &env);
        assert_eq!(ran.code, 1, "{ran:?}");
        assert_eq!(ran.stdout, "1 passed, 1 failed\n");
        let want = if annotated { expected } else { "" };
        assert_eq!(ran.stderr, want, "{extra:?} {env:?}");
    }
    let ran = run_with(dir, &["run", "--annotate", "always"], b"", &[]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("invalid value 'always' for '--annotate"),
        "{}",
        ran.stderr
    );
}

#[test]
fn annotations_escape_their_properties_and_messages() {
    let corpus = Corpus::new();
    corpus
        .case("a,b:c.json", "[{\"op\":\"50%:x,y\",\"v\":1}]")
        .golden("a,b:c.json", &golden_of(&["{\"op\":\"50%:x,y\",\"v\":2}"]));
    let ran = in_actions(corpus.path(), &["run", "--oracle", "cat", "--quiet"], &[]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        ran.stderr,
        "::error file=cases/a%2Cb%3Ac.json,line=1,title=50%25%3Ax%2Cy::50%25:x,y: different at /v \
         (golden number, port number) — 1 case, the first #0 50%25:x,y: different at /v\n"
    );
}

#[test]
fn the_summary_is_appended_each_time() {
    let corpus = Corpus::new();
    corpus
        .case("a.json", "[{\"op\":\"x\",\"name\":\"one\",\"v\":1}]")
        .golden(
            "a.json",
            &golden_of(&["{\"op\":\"x\",\"name\":\"one\",\"v\":2}"]),
        );
    let summary = corpus.join("out/summary.md");
    std::fs::create_dir_all(corpus.join("out")).unwrap();
    let env = [("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())];
    // Made when missing: the Markdown report, whatever the format.
    let ran = run_with(
        corpus.path(),
        &["run", "--oracle", "cat", "--format", "json"],
        b"",
        &env,
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(ran.stderr, "");
    assert!(ran.stdout.starts_with("{\"version\":2,"));
    let markdown = run_with(
        corpus.path(),
        &["run", "--oracle", "cat", "--format", "markdown"],
        b"",
        &[],
    );
    let first = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(first, markdown.stdout);
    // Appended, not replaced, and set apart from what was there.
    let ran = run_with(
        corpus.path(),
        &["run", "--oracle", "cat", "--quiet"],
        b"",
        &env,
    );
    assert_eq!(ran.stdout, "0 passed, 1 failed\n");
    let both = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(both, format!("{first}\n{first}"));
    assert_eq!(both.matches("## ❌ parity-diff run: failed\n").count(), 2);
    // Standard output sent to the file already: not appended twice.
    let once = corpus.join("once.md");
    let ran = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" run --oracle cat --format markdown >> \"$GITHUB_STEP_SUMMARY\"")
        .arg(env!("CARGO_BIN_EXE_parity-diff"))
        .current_dir(corpus.path())
        .env("GITHUB_STEP_SUMMARY", &once)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    let stderr = String::from_utf8(ran.stderr).unwrap();
    assert_eq!(std::fs::read_to_string(&once).unwrap(), first);
    assert!(
        stderr.contains("warning: standard output is the file GITHUB_STEP_SUMMARY names;"),
        "{stderr}"
    );
    // An empty variable names nothing.
    let ran = run_with(
        corpus.path(),
        &["run", "--oracle", "cat", "--quiet"],
        b"",
        &[("GITHUB_STEP_SUMMARY", "")],
    );
    assert_eq!((ran.code, ran.stderr.as_str()), (1, ""));
    // A summary that cannot be written is a warning; the outcome stands.
    let dir = corpus.join("out");
    let env = [("GITHUB_STEP_SUMMARY", dir.to_str().unwrap())];
    let ran = run_with(
        corpus.path(),
        &["run", "--oracle", "cat", "--quiet"],
        b"",
        &env,
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(ran.stdout, "0 passed, 1 failed\n");
    assert!(
        ran.stderr.starts_with(&format!(
            "parity-diff: warning: cannot append the summary to GITHUB_STEP_SUMMARY ({}): ",
            dir.display()
        )),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_summary_stays_under_a_mebibyte_and_says_what_it_left_out() {
    let corpus = distinct_failures(1000, 600);
    let summary = corpus.join("summary.md");
    let env = [("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())];
    let args = [
        "run",
        "--oracle",
        "cat",
        "--framing",
        "json",
        "--format",
        "markdown",
        "--max-failures",
        "5000",
    ];
    let ran = run_with(corpus.path(), &args, b"", &env);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    // Standard output has it all.
    assert!(ran.stdout.len() > 1_100_000, "{}", ran.stdout.len());
    assert_eq!(ran.stdout.matches("\n#### ").count(), 1000);
    assert!(!ran.stdout.contains("> **Cut"));
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.len() < 1_000_000, "{}", text.len());
    assert!(text.len() > 990_000, "{}", text.len());
    let kept = text.matches("\n#### ").count();
    let note = format!(
        "\n> **Cut to stay under GitHub's 1 MiB limit for a step's summary:** left out \
         {} failure groups ({} cases).\n\n",
        1000 - kept,
        1000 - kept
    );
    assert!(text.ends_with(&note), "{}", &text[text.len() - 500..]);
    // Whole groups: the kept text is the start of the whole report.
    assert!(ran.stdout.starts_with(&text[..text.len() - note.len()]));
    assert_markdown_well_formed(&text);

    // What the step's file holds already counts.
    std::fs::write(&summary, "x".repeat(990_000)).unwrap();
    let ran = run_with(corpus.path(), &args, b"", &env);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.len() < 1_000_000, "{}", text.len());
    let added = &text[990_000..];
    assert!(
        added.starts_with("\n## ❌ parity-diff run: failed\n"),
        "{added}"
    );
    // A table cut between rows, then the note, set apart from it.
    assert!(
        added.contains(
            " |\n\n> **Cut to stay under GitHub's 1 MiB limit for a step's summary:** left out "
        ),
        "{added}"
    );
    assert!(
        added.ends_with(" rows of the per-op table, 1000 failure groups (1000 cases).\n\n"),
        "{added}"
    );
    assert_markdown_well_formed(added);
    // And when there is no room at all, nothing is added.
    std::fs::write(&summary, "x".repeat(999_900)).unwrap();
    let ran = run_with(corpus.path(), &args, b"", &env);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("the file holds 999900 bytes already"),
        "{}",
        ran.stderr
    );
    assert_eq!(std::fs::metadata(&summary).unwrap().len(), 999_900);
}

#[test]
fn junit_cases_carry_their_file_and_line() {
    let corpus = Corpus::new();
    corpus
        .case("a.json", "[\n{\"op\":\"x\",\"name\":\"one\",\"v\":1},\n\n  {\"op\":\"x\",\"name\":\"two\",\"v\":1}]")
        .golden("a.json", &golden_of(&["{\"op\":\"x\",\"name\":\"one\",\"v\":1}", "{\"op\":\"x\",\"name\":\"two\",\"v\":2}"]))
        .case("b.json", "[1]");
    let ran = corpus.run(&["run", "--oracle", "cat", "--format", "junit"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let xml = &ran.stdout;
    assert!(
        xml.contains("<testcase name=\"a.json &quot;one&quot;\" classname=\"a.json\" file=\"cases/a.json\" line=\"2\"/>"),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase name=\"a.json &quot;two&quot;\" classname=\"a.json\" file=\"cases/a.json\" line=\"4\">\n      <failure type=\"different\""),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase name=\"b.json\" classname=\"b.json\" file=\"cases/b.json\">\n      <failure type=\"missing golden\""),
        "{xml}"
    );
}
