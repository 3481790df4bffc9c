//! `merge` takes no shard's word for what it holds (issue 40, items 6
//! and 7): a forged shard count allocates nothing by it (10^8 and 8e15
//! are refused at once, naming a few missing shards), and a shard whose
//! records do not fill the range of cases it claims (a failing record
//! deleted to pass the merge) is refused, exit 2, naming the report.

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

/// Two shards of a run of six cases, the second failing at its case 4.
fn shards() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::create_dir_all(dir.path().join("golden")).unwrap();
    let cases: Vec<String> = (0..6).map(|n| format!(r#"{{"op":"x","v":{n}}}"#)).collect();
    let mut golden = cases.clone();
    golden[4] = r#"{"op":"x","v":-1}"#.to_owned();
    std::fs::write(
        dir.path().join("cases/a.json"),
        format!("[{}]", cases.join(",")),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("golden/a.json"),
        format!("[{}]", golden.join(",")),
    )
    .unwrap();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let (code, stdout, stderr) = parity_diff(
            dir.path(),
            &[
                "run", "--oracle", "cat", "--shard", &shard, "--format", "json",
            ],
        );
        assert!(code <= 1, "{stderr}");
        std::fs::write(dir.path().join(format!("s{k}.json")), stdout).unwrap();
    }
    dir
}

/// Edits a report's text (a JSON round trip would reorder its members).
fn edit(dir: &Path, name: &str, change: impl FnOnce(String) -> String) {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = change(text.clone());
    assert_ne!(changed, text, "the edit of {name} changes it");
    std::fs::write(&path, changed).unwrap();
}

/// The text of the case record at `index` (with its leading comma).
fn record(text: &str, index: usize) -> String {
    let start = text.find(&format!(r#",{{"index":{index},"#)).unwrap();
    let end = text[start + 1..].find(r#",{"index":"#).map_or_else(
        || start + 1 + text[start + 1..].find("]}").unwrap(),
        |end| start + 1 + end,
    );
    text[start..end].to_owned()
}

#[test]
fn unedited_shards_merge() {
    let dir = shards();
    let (code, stdout, stderr) = parity_diff(dir.path(), &["merge", "s1.json", "s2.json"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("5 passed, 1 failed"), "{stdout}");
}

#[test]
fn a_deleted_failing_record_is_found() {
    let dir = shards();
    edit(dir.path(), "s2.json", |text| {
        let failing = record(&text, 4);
        assert!(failing.contains(r#""state":"failed""#), "{failing}");
        text.replacen(&failing, "", 1)
            .replacen(r#""failed":1"#, r#""failed":0"#, 1)
    });
    let (code, stdout, stderr) = parity_diff(dir.path(), &["merge", "s1.json", "s2.json"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("s2.json is the shard of cases 3..6 (3 cases) but accounts for 2"),
        "{stderr}"
    );
    assert!(stderr.contains("a record was removed or added"), "{stderr}");
    // An added record is found too.
    let dir = shards();
    edit(dir.path(), "s2.json", |text| {
        let last = record(&text, 5);
        let invented = last.replacen(r#""index":5"#, r#""index":6"#, 1);
        text.replacen(&last, &format!("{last}{invented}"), 1)
    });
    let (code, _, stderr) = parity_diff(dir.path(), &["merge", "s1.json", "s2.json"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn a_forged_shard_count_allocates_nothing_by_it() {
    for (count, shown) in [
        ("100000000", 100_000_000u64),
        ("8e15", 8_000_000_000_000_000),
    ] {
        let dir = shards();
        for name in ["s1.json", "s2.json"] {
            edit(dir.path(), name, |text| {
                text.replacen(
                    r#""count":2,"from""#,
                    &format!(r#""count":{count},"from""#),
                    1,
                )
            });
        }
        let (code, stdout, stderr) = parity_diff(dir.path(), &["merge", "s1.json", "s2.json"]);
        assert_eq!(code, 2, "{count}: {stdout}{stderr}");
        assert!(
            stderr.contains(&format!("missing shards: 3/{shown}, 4/{shown}")),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("and {} more", shown - 2 - 10)),
            "{stderr}"
        );
    }
}
