//! `redact = false` (issue 39): a suite of a contract with no secrets
//! shows every value as written, and every report says redaction is off;
//! without the key, the same values are masked and no report says so.

use crate::support;

use support::{golden_of, write, Corpus};

const TOKEN: &str = "tok-4f9a2c7e1b";

const NOTICE: &str = "Redaction is off for suite plain (redact = false): \
                      secrets are shown as written";

/// One case holding a token under a secret-named key, whose port (`cat`)
/// differs from the golden in a value beside it.
fn project(redact: &str) -> Corpus {
    let project = Corpus::new();
    write(
        project.join("parity.toml"),
        format!("[suite.plain]\ncases = \"cases\"\noracle = \"cat\"\n{redact}"),
    );
    let case = format!(r#"{{"op":"x","name":"a","token":"{TOKEN}","v":1}}"#);
    write(project.join("cases/a.json"), format!("[{case}]"));
    let golden = format!(r#"{{"op":"x","name":"a","token":"{TOKEN}","v":2}}"#);
    write(project.join("golden/a.json"), golden_of(&[&golden]));
    project
}

const FORMATS: [&str; 5] = ["human", "json", "junit", "markdown", "html"];

#[test]
fn redact_false_shows_secrets_and_every_report_says_so() {
    let project = project("redact = false\n");
    for format in FORMATS {
        let ran = project.run(&["run", "--format", format]);
        assert_eq!(ran.code, 1, "{format}: {ran:?}");
        assert!(ran.stdout.contains(TOKEN), "{format}: {}", ran.stdout);
        let says = match format {
            "json" => ran.stdout.contains(r#""unredacted":["plain"]"#),
            "junit" => ran.stdout.contains(r#"<property name="unredacted" value="plain"/>"#),
            "markdown" => ran.stdout.contains(
                "Redaction is off for suite `plain` (redact = false): secrets are shown as written.",
            ),
            "html" => ran.stdout.contains(
                "Redaction is off for suite <code>plain</code> (redact = false): secrets are shown as written",
            ),
            _ => ran.stdout.contains(&format!("{NOTICE}\n")),
        };
        assert!(
            says,
            "{format} does not say redaction is off: {}",
            ran.stdout
        );
    }
    let quiet = project.run(&["run", "--quiet"]);
    assert_eq!(quiet.stdout, format!("{NOTICE}\n0 passed, 1 failed\n"));
    // A saved report renders again as the run did, notice and all.
    let json = project.run(&["run", "--format", "json"]);
    write(project.join("saved.json"), &json.stdout);
    for format in FORMATS {
        let alone = project.run(&["run", "--format", format]);
        let rendered = project.run(&["report", "saved.json", "--format", format]);
        assert_eq!(rendered.stdout, alone.stdout, "{format}");
    }
    // accept: its list of changes says so first, and writes the ledger.
    let accepted = support::run_with(project.path(), &["accept", "--reason", "known"], b"", &[]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    assert!(
        accepted
            .stdout
            .starts_with(&format!("{NOTICE}\nadded    a.json")),
        "{}",
        accepted.stdout
    );
    let github = support::run_with(project.path(), &["run"], b"", &[("GITHUB_ACTIONS", "true")]);
    assert!(
        github
            .stderr
            .contains(&format!("::notice title=parity-diff::{NOTICE}")),
        "{}",
        github.stderr
    );
}

#[test]
fn without_the_key_the_same_secrets_are_masked_and_no_report_mentions_it() {
    for redact in ["", "redact = true\n"] {
        let project = project(redact);
        for format in FORMATS {
            let ran = project.run(&["run", "--format", format]);
            assert_eq!(ran.code, 1, "{format}: {ran:?}");
            assert!(!ran.stdout.contains(TOKEN), "{format}: {}", ran.stdout);
            assert!(ran.stdout.contains("<redacted>") || ran.stdout.contains("&lt;redacted&gt;"));
            assert!(!ran.stdout.contains("Redaction is off"), "{format}");
            assert!(!ran.stdout.contains("unredacted"), "{format}");
        }
    }
}

#[test]
fn redact_takes_true_or_false() {
    let project = project("redact = \"no\"\n");
    let ran = project.run(&["run"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .contains("parity.toml:4: suite.plain.redact: true or false, not the string \"no\""),
        "{}",
        ran.stderr
    );
}
