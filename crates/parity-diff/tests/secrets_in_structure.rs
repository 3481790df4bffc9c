//! A case's secret never leaves through the structure of a result
//! (issue 40, items 1 and 3): a port that answers with the case's token
//! as an object key, glued to other text (`Bearer`+token, token+`x`),
//! cut short, or holding `/` and `~` (escaped in JSON Pointers) prints it
//! in no format, no annotation, no job summary, and `accept` writes no
//! pointer holding it into the ledger.

use std::path::Path;
use std::process::Command;

const TOKENS: [&str; 2] = ["tok-SECRET-4242abcd", "tok/SECRET~77efgh"];

/// Every form the port plants, for one token: the planted texts a leak
/// would show (each at least 8 characters of the token).
fn leaked_forms(token: &str) -> Vec<String> {
    vec![
        token.to_owned(),
        token[..token.len() - 2].to_owned(),
        token[2..].to_owned(),
        token.replace('~', "~0").replace('/', "~1"),
        "SECRET".to_owned(),
    ]
}

/// The port: the token as a key, `Bearer`+token as a key, token+`x` as a
/// key, the token cut as a value, `Bearer`+token as a value, and the
/// token less its first two characters as a nested key.
const PORT: &str = r#"
import json, sys
out = []
for case in json.load(sys.stdin):
    t = case["token"]
    out.append({"v": "ok", t: "X", "Bearer" + t: 1, t + "x": 2, "cut": t[:-2],
                "glued": "Bearer" + t, "deep": {t[2:]: [t]}})
sys.stdout.write(json.dumps(out, separators=(",", ":")))
"#;

fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::create_dir_all(dir.path().join("golden")).unwrap();
    let cases: Vec<String> = TOKENS
        .iter()
        .enumerate()
        .map(|(n, token)| format!(r#"{{"op":"x","name":"n{n}","token":"{token}"}}"#))
        .collect();
    std::fs::write(
        dir.path().join("cases/a.json"),
        format!("[{}]\n", cases.join(",")),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("golden/a.json"),
        r#"[{"v":"ok"},{"v":"ok"}]"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("port.py"), PORT).unwrap();
    dir
}

fn parity_diff(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let summary = dir.join("summary.md");
    let out = Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args(args)
        .args(["--no-config", "--oracle", "python3 port.py"])
        .current_dir(dir)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env_remove("CI")
        .output()
        .unwrap();
    let summary = std::fs::read_to_string(&summary).unwrap_or_default();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned() + &summary,
    )
}

fn assert_no_leak(what: &str, text: &str) {
    for token in TOKENS {
        for form in leaked_forms(token) {
            assert!(!text.contains(&form), "{what} shows {form:?}:\n{text}");
        }
    }
}

#[test]
#[ignore = "needs python3"]
fn a_token_in_keys_glued_or_cut_is_masked_everywhere() {
    crate::support::require_python3();
    let dir = corpus();
    for format in ["human", "json", "junit", "markdown", "html"] {
        let (code, stdout, stderr) = parity_diff(dir.path(), &["run", "--format", format]);
        assert_eq!(code, 1, "{format}: {stdout}{stderr}");
        assert_no_leak(format, &stdout);
        assert_no_leak(&format!("{format}: annotations and job summary"), &stderr);
        // Not passed by silence: the divergence is reported, masked.
        assert!(stdout.contains("redacted"), "{format}: {stdout}");
        assert!(stderr.contains("::error "), "{format}: {stderr}");
    }
    let (code, stdout, stderr) = parity_diff(dir.path(), &["run"]);
    assert_eq!(code, 1);
    for shown in [
        "different at /<redacted>",
        "Bearer<redacted>",
        "<redacted>x",
        r#""cut": "<redacted>""#,
    ] {
        assert!(stdout.contains(shown), "{shown}: {stdout}{stderr}");
    }
}

#[test]
#[ignore = "needs python3"]
fn accept_writes_no_secret_into_the_ledger() {
    crate::support::require_python3();
    let dir = corpus();
    let (code, stdout, stderr) = parity_diff(dir.path(), &["accept", "--reason", "known"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_no_leak("accept", &(stdout + &stderr));
    let ledger = std::fs::read_to_string(dir.path().join("parity-ledger.txt")).unwrap();
    assert_no_leak("the ledger", &ledger);
    assert!(
        ledger.contains("paths: /<redacted> /Bearer<redacted> /<redacted>x /cut /glued /deep"),
        "{ledger}"
    );
    // The entries still accept the divergences they were written for.
    let (code, stdout, _) = parity_diff(dir.path(), &["run"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("2 accepted"), "{stdout}");
}
