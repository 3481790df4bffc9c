//! The Markdown delta keeps its promise of at most 60 000 characters
//! whatever the corpus, and says what it left out (issue 40, item 9):
//! 3 000 ops of long names, each newly failing, once made a comment of
//! 150 308 characters (GitHub refuses more than 65 536).

use std::path::Path;
use std::process::Command;

fn parity_diff(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args(args)
        .arg("--no-config")
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn three_thousand_newly_failing_ops_fit_one_comment() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::create_dir_all(dir.path().join("golden")).unwrap();
    let ops = 3000;
    let cases: Vec<String> = (0..ops)
        .map(|n| format!(r#"{{"op":"op-{n:04}-{}","v":1}}"#, "é".repeat(120)))
        .collect();
    let array = format!("[{}]", cases.join(","));
    std::fs::write(dir.path().join("cases/a.json"), &array).unwrap();
    std::fs::write(dir.path().join("golden/a.json"), &array).unwrap();
    for (name, oracle) in [("base", "cat"), ("head", "sed 's/\"v\":1/\"v\":2/g'")] {
        let (code, stdout, stderr) =
            parity_diff(dir.path(), &["run", "--oracle", oracle, "--format", "json"]);
        assert!(code <= 1, "{stderr}");
        std::fs::write(dir.path().join(format!("{name}.json")), stdout).unwrap();
    }
    let (code, comment, stderr) = parity_diff(
        dir.path(),
        &["delta", "base.json", "head.json", "--format", "markdown"],
    );
    assert_eq!(code, 1, "{stderr}");
    let chars = comment.chars().count();
    assert!(chars <= 60_000, "{chars} characters");
    // It says what it left out: ops of the table, cases of the list.
    assert!(comment.contains("newly failing"), "{comment}");
    let left = comment
        .lines()
        .find(|line| line.contains("more ops whose pass count changed"))
        .unwrap_or_else(|| panic!("no note of the ops left out"));
    let rows = comment
        .lines()
        .filter(|line| line.starts_with("| `op-"))
        .count();
    assert!(rows > 0);
    assert!(
        left.contains(&format!("… and {} more ops", ops - rows)),
        "{left}"
    );
    assert!(comment.contains(" more"), "{comment}");
}
