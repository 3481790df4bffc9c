//! A finding of an op with a long name is saved (issue 40, item 12): its
//! file name is cut and hashed under the file system's 255 bytes, where a
//! 600-character op once gave "File name too long" and lost the finding.

use std::process::Command;

#[test]
fn a_finding_of_a_600_character_op_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let op = "o".repeat(600);
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::write(
        dir.path().join("cases/a.json"),
        format!(r#"[{{"op":"{op}","v":1}}]"#),
    )
    .unwrap();
    // Right answers every case with something else than left.
    let out = Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args(["fuzz", "--no-config", "--left", "cat", "--right"])
        .arg(r#"sed 's/"v":/"w":/g'"#)
        .args(["--seed", "1", "--count", "20", "--out", "found"])
        .current_dir(dir.path())
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("too long"), "{stderr}");
    assert!(!stdout.contains("too long"), "{stdout}");
    let saved: Vec<_> = std::fs::read_dir(dir.path().join("found"))
        .unwrap_or_else(|error| panic!("{error}: {stdout}{stderr}"))
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".json"))
        .collect();
    assert!(!saved.is_empty(), "{stdout}{stderr}");
    for name in &saved {
        assert!(name.len() < 140, "{name}");
        assert!(name.starts_with("ooooo"), "{name}");
        let text = std::fs::read_to_string(dir.path().join("found").join(name)).unwrap();
        assert!(text.contains(&op), "{name}: {text}");
    }
}
