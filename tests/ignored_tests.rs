//! The only ignored tests are those that need more than Rust and a POSIX
//! shell (the reference oracle, node, python3, Chromium, bash, tmux, root
//! with unshare), and each of them fails, saying what to install, rather
//! than passing unrun when run without what it needs: a plain `cargo test`
//! (the README's command) counts them as ignored, the book's full command
//! (`-- --include-ignored`, docs/maintainers/building.md) runs them.

use crate::support;

use crate::parity_diff_support as parity_support;

use std::ffi::OsStr;
use std::path::Path;

/// Each allowed reason, and the calls that must open the test's body.
const REASONS: &[(&str, &[&str])] = &[
    (
        "#[ignore = \"needs REFERENCE_ORACLE\"]",
        &["require_reference()"],
    ),
    ("#[ignore = \"needs node\"]", &["require_node()"]),
    ("#[ignore = \"needs python3\"]", &["require_python3()"]),
    (
        "#[ignore = \"needs node and python3\"]",
        &["require_node()", "require_python3()"],
    ),
    ("#[ignore = \"needs bash\"]", &["require_bash()"]),
    ("#[ignore = \"needs tmux\"]", &["require_tmux()"]),
    ("#[ignore = \"needs chromium\"]", &["require_chromium()"]),
    (
        "#[ignore = \"needs python3 and chromium\"]",
        &["require_python3()", "require_chromium()"],
    ),
    (
        "#[ignore = \"needs root, unshare and setpriv\"]",
        &["require_unshare_and_setpriv()"],
    ),
];

/// Every `#[ignore` in a Rust source text that is not allowed, or whose
/// test does not start by requiring what it needs.
fn problems(file: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let attribute = line.trim();
        if !attribute.starts_with("#[ignore") {
            continue;
        }
        let Some((_, calls)) = REASONS.iter().find(|(reason, _)| attribute == *reason) else {
            found.push(format!(
                "{file}:{}: {attribute} is not an allowed reason",
                at + 1
            ));
            continue;
        };
        // The function's line and its first three.
        let opening: Vec<&str> = lines[at + 1..]
            .iter()
            .skip_while(|line| !line.contains("fn "))
            .take(4)
            .copied()
            .collect();
        for call in *calls {
            if !opening.iter().any(|line| line.contains(call)) {
                found.push(format!(
                    "{file}:{}: a test ignored with {attribute} must begin by calling {call}",
                    at + 1
                ));
            }
        }
    }
    found
}

fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|e| e == "rs"))
        .map(|entry| entry.into_path())
        .collect()
}

#[test]
fn ignored_tests_need_a_tool_and_say_so_when_run() {
    let root = support::repo_root();
    let mut found = Vec::new();
    let mut ignored = 0;
    for dir in ["src", "tests", "benches", "examples", "crates"] {
        for path in rust_files(&root.join(dir)) {
            if path.ends_with("tests/ignored_tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("the source reads");
            let name = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string();
            ignored += text
                .lines()
                .filter(|l| l.trim().starts_with("#[ignore"))
                .count();
            found.extend(problems(&name, &text));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert!(
        ignored >= 24,
        "only {ignored} ignored tests: were they renamed?"
    );
}

#[test]
fn other_reasons_and_tests_that_do_not_check_are_refused() {
    let text = "#[test]\n#[ignore]\nfn a() {}\n\n#[test]\n#[ignore = \"needs node\"]\nfn b() {\n    let x = 1;\n}\n\n#[test]\n#[ignore = \"needs REFERENCE_ORACLE\"]\nfn c() {\n    let r = support::require_reference();\n}\n\n#[test]\n#[ignore = \"needs python3 and chromium\"]\nfn d() {\n    require_chromium();\n}\n";
    assert_eq!(
        problems("f.rs", text),
        [
            "f.rs:2: #[ignore] is not an allowed reason",
            "f.rs:6: a test ignored with #[ignore = \"needs node\"] must begin by calling require_node()",
            "f.rs:18: a test ignored with #[ignore = \"needs python3 and chromium\"] must begin by calling require_python3()",
        ]
    );
}

/// Run with `--include-ignored` on a machine without Chromium, the
/// Chromium tests fail saying how to get it, also when `CHROMIUM` names a
/// file that is not there (it used to fail with a bare `NotFound` when
/// the browser was started).
#[test]
fn without_chromium_the_browser_tests_say_how_to_get_it() {
    use parity_support::{find_chromium, CHROMIUM_HINT};
    let empty = tempfile::tempdir().unwrap();
    let path = empty.path().as_os_str();
    for chromium in [
        None,
        Some(OsStr::new("")),
        Some(OsStr::new("/nonexistent/chromium")),
        Some(OsStr::new("chromium")),
    ] {
        let why = find_chromium(chromium, path).expect_err("no Chromium there");
        assert!(why.ends_with(CHROMIUM_HINT), "{chromium:?}: {why}");
        assert!(CHROMIUM_HINT.contains("apt-get install chromium"));
        assert!(CHROMIUM_HINT.contains("set CHROMIUM"));
    }
    let browser = empty.path().join("chromium");
    std::fs::write(&browser, "").unwrap();
    assert_eq!(find_chromium(None, path), Ok(browser.clone()));
    assert_eq!(
        find_chromium(Some(browser.as_os_str()), OsStr::new("")),
        Ok(browser.clone())
    );
    assert_eq!(
        find_chromium(Some(OsStr::new("chromium")), path),
        Ok(browser)
    );
}
