//! `parity-diff bless` and `scripts/regen-golden.sh`: goldens written from
//! a reference command, atomically, never in CI unless forced.
//!
//! The reference here is `cat`: it prints each case file back, so a case
//! file's bytes become its golden's elements.

use crate::support;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

use support::{run_with, Corpus};

fn bless(corpus: &Corpus, args: &[&str]) -> support::Ran {
    let mut full = vec!["bless", "--reference", "cat"];
    full.extend_from_slice(args);
    corpus.run(&full)
}

fn starter() -> Corpus {
    let corpus = Corpus::new();
    corpus
        .case("a.json", r#"[{"op":"x","name":"one"}, 1.0, "\u00e9"]"#)
        .case("deep/b.json", "[]");
    corpus
}

#[test]
fn bless_adds_goldens_in_the_golden_format_with_the_reference_bytes() {
    let corpus = starter();
    let ran = bless(&corpus, &[]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "added      a.json (3 cases)\n",
            "added      deep/b.json (0 cases)\n",
            "2 added, 0 changed, 0 unchanged, 0 orphaned\n"
        )
    );
    // Each element exactly as the reference printed it, one per line.
    assert_eq!(
        corpus.read("golden/a.json"),
        "[\n{\"op\":\"x\",\"name\":\"one\"},\n1.0,\n\"\\u00e9\"\n]\n"
    );
    assert_eq!(corpus.read("golden/deep/b.json"), "[]\n");
    // The goldens now pass (`cat` echoes the case file, framing and all).
    let ran = corpus.run(&["run", "--oracle", "cat", "--framing", "json"]);
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
fn bless_reports_unchanged_changed_and_orphaned() {
    let corpus = starter();
    assert_eq!(bless(&corpus, &[]).code, 0);
    let ran = bless(&corpus, &[]);
    assert_eq!(
        ran.last_line(),
        "0 added, 0 changed, 2 unchanged, 0 orphaned"
    );
    corpus
        .case("a.json", r#"[{"op":"x","name":"one"}, 2, "\u00e9"]"#)
        .golden("gone.json", "[\n1\n]\n");
    let ran = bless(&corpus, &[]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "changed    a.json (1 of 3 cases)\n",
            "    #1\n",
            "unchanged  deep/b.json (0 cases)\n",
            "orphaned   golden/gone.json (no case file cases/gone.json; delete the golden or restore the cases)\n",
            "0 added, 1 changed, 1 unchanged, 1 orphaned\n"
        )
    );
    assert!(corpus.read("golden/a.json").contains("\n2,\n"));
    assert!(
        corpus.join("golden/gone.json").exists(),
        "bless never deletes"
    );
}

#[test]
fn check_writes_nothing_and_exits_1_on_any_change() {
    let corpus = starter();
    let ran = bless(&corpus, &["--check"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.starts_with("to add     a.json (3 cases)\n"),
        "{}",
        ran.stdout
    );
    assert_eq!(
        ran.last_line(),
        "check: 2 to add, 0 to change, 0 unchanged, 0 orphaned"
    );
    assert!(!corpus.join("golden").exists(), "nothing written");

    assert_eq!(bless(&corpus, &[]).code, 0);
    let ran = bless(&corpus, &["--check"]);
    assert_eq!(ran.code, 0, "{ran:?}");

    corpus.case("a.json", r#"[{"op":"x","name":"one"}, 1.5, "\u00e9"]"#);
    let before = corpus.read("golden/a.json");
    let ran = bless(&corpus, &["--check"]);
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout
            .contains("to change  a.json (1 of 3 cases)\n    #1\n"),
        "{}",
        ran.stdout
    );
    assert_eq!(corpus.read("golden/a.json"), before);

    corpus.case("a.json", r#"[{"op":"x","name":"one"}, 1.0, "\u00e9"]"#);
    corpus.golden("gone.json", "[]\n");
    let ran = bless(&corpus, &["--check"]);
    assert_eq!(ran.code, 1, "an orphan fails the check: {ran:?}");
}

#[test]
fn bless_refuses_to_write_in_ci_unless_forced() {
    let corpus = starter();
    let ci = [("CI", "true")];
    let ran = run_with(corpus.path(), &["bless", "--reference", "cat"], b"", &ci);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains("refusing to write goldens in CI"),
        "{}",
        ran.stderr
    );
    assert!(!corpus.join("golden").exists());
    let ran = run_with(
        corpus.path(),
        &["bless", "--reference", "cat", "--check"],
        b"",
        &ci,
    );
    assert_eq!(ran.code, 1, "--check is allowed in CI: {ran:?}");
    let ran = run_with(
        corpus.path(),
        &["bless", "--reference", "cat", "--force"],
        b"",
        &ci,
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(corpus.join("golden/a.json").exists());
}

#[test]
fn writes_are_atomic_renames() {
    let corpus = starter();
    assert_eq!(bless(&corpus, &[]).code, 0);
    // A hard link to the old golden keeps the old bytes: the new golden
    // is a new file renamed into place, never the old one rewritten.
    let golden = corpus.join("golden/a.json");
    let link = corpus.join("old-a.json");
    std::fs::hard_link(&golden, &link).unwrap();
    let old = std::fs::read(&golden).unwrap();
    corpus.case("a.json", "[7]");
    assert_eq!(bless(&corpus, &[]).code, 0);
    assert_eq!(std::fs::read(&link).unwrap(), old);
    assert_eq!(corpus.read("golden/a.json"), "[\n7\n]\n");
    assert_ne!(
        std::fs::metadata(&golden).unwrap().ino(),
        std::fs::metadata(&link).unwrap().ino()
    );
    let leftovers: Vec<_> = std::fs::read_dir(corpus.join("golden"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_failing_reference_leaves_goldens_alone() {
    let corpus = starter();
    assert_eq!(bless(&corpus, &[]).code, 0);
    let before = corpus.read("golden/a.json");
    let ran = corpus.run(&[
        "bless",
        "--reference",
        "cat >/dev/null; echo broken >&2; exit 4",
    ]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "ERROR      a.json: the oracle exited with status 4; it fails on an empty array `[]` \
             too, so no case is to blame\n    stderr:\n    | broken\n"
        ),
        "{}",
        ran.stdout
    );
    assert_eq!(
        ran.last_line(),
        "0 added, 0 changed, 0 unchanged, 0 orphaned, 2 errors"
    );
    assert_eq!(corpus.read("golden/a.json"), before);
    let ran = corpus.run(&["bless", "--reference", "cat >/dev/null; printf '[1,'"]);
    assert_eq!(ran.code, 2);
    assert_eq!(corpus.read("golden/a.json"), before);
}

#[test]
fn bless_filters_and_reports_json() {
    let corpus = starter();
    let ran = bless(&corpus, &["--filter", "deep/*", "--format", "json"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let report: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(report["files"].as_array().unwrap().len(), 1);
    assert_eq!(report["files"][0]["name"], "deep/b.json");
    assert_eq!(report["files"][0]["status"], "added");
    assert_eq!(report["summary"]["added"], 1);
    assert_eq!(report["summary"]["written"], true);
    assert!(!corpus.join("golden/a.json").exists());
    let ran = bless(&corpus, &["--format", "junit"]);
    assert_eq!(ran.code, 2, "bless has no junit report");
}

/// Runs `parity-diff ARGS` in the corpus under `umask 022`.
fn under_umask_022(corpus: &Corpus, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg("umask 022; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_parity-diff"))
        .args(args)
        .current_dir(corpus.path())
        .env_remove("CI")
        .output()
        .unwrap()
}

fn mode_of(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().mode() & 0o7777
}

#[test]
fn new_goldens_follow_the_umask_and_rewritten_ones_keep_their_mode() {
    // Issue 14: bless rewrote goldens as 0600 under umask 022.
    let corpus = starter();
    let output = under_umask_022(&corpus, &["bless", "--reference", "cat"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(mode_of(&corpus.join("golden/a.json")), 0o644);
    assert_eq!(mode_of(&corpus.join("golden/deep/b.json")), 0o644);

    let golden = corpus.join("golden/a.json");
    std::fs::set_permissions(&golden, std::fs::Permissions::from_mode(0o640)).unwrap();
    corpus.case("a.json", "[8]");
    let output = under_umask_022(&corpus, &["bless", "--reference", "cat"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(corpus.read("golden/a.json"), "[\n8\n]\n");
    assert_eq!(mode_of(&golden), 0o640, "the rewritten golden keeps 0640");
}

#[test]
fn a_golden_that_is_a_symbolic_link_is_not_written_through() {
    let corpus = starter();
    let outside = tempfile::tempdir().unwrap();
    // (A dangling link makes listing the golden directory fail today,
    // which is issue 14's third defect of this kind; the link here
    // points at a file.)
    let target = outside.path().join("elsewhere.json");
    std::fs::write(&target, "[]\n").unwrap();
    std::fs::create_dir_all(corpus.join("golden")).unwrap();
    std::os::unix::fs::symlink(&target, corpus.join("golden/a.json")).unwrap();
    let ran = bless(&corpus, &[]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.contains(&format!(
            "ERROR      a.json: cannot write {}: {} is a symbolic link; it is not replaced\n",
            Path::new("golden/a.json").display(),
            Path::new("golden/a.json").display()
        )),
        "{}",
        ran.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "[]\n",
        "nothing was written outside the corpus"
    );
    assert!(std::fs::symlink_metadata(corpus.join("golden/a.json"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(corpus.read("golden/deep/b.json"), "[]\n");
}
