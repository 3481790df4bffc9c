//! The only ignored tests are those that need the reference oracle or
//! node, and each of them fails (rather than passing unrun) when run
//! without what it needs: a plain `cargo test` counts them as ignored, the
//! README's command (`-- --include-ignored`) runs them.

mod support;

use std::path::Path;

/// Each allowed reason, and the call that must open the test's body.
const REASONS: &[(&str, &str)] = &[
    (
        "#[ignore = \"needs REFERENCE_ORACLE\"]",
        "require_reference()",
    ),
    ("#[ignore = \"needs node\"]", "require_node()"),
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
        let Some((_, call)) = REASONS.iter().find(|(reason, _)| attribute == *reason) else {
            found.push(format!(
                "{file}:{}: {attribute} is not an allowed reason",
                at + 1
            ));
            continue;
        };
        // The function's line and its first three.
        let opening = lines[at + 1..]
            .iter()
            .skip_while(|line| !line.contains("fn "))
            .take(4)
            .any(|line| line.contains(call));
        if !opening {
            found.push(format!(
                "{file}:{}: a test ignored with {attribute} must begin by calling {call}",
                at + 1
            ));
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
fn ignored_tests_are_the_reference_and_node_tests_and_say_so_when_run() {
    let root = support::repo_root();
    let mut found = Vec::new();
    let mut ignored = 0;
    for dir in ["src", "tests", "benches", "examples"] {
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
        ignored >= 7,
        "only {ignored} ignored tests: were they renamed?"
    );
}

#[test]
fn other_reasons_and_tests_that_do_not_check_are_refused() {
    let text = "#[test]\n#[ignore]\nfn a() {}\n\n#[test]\n#[ignore = \"needs node\"]\nfn b() {\n    let x = 1;\n}\n\n#[test]\n#[ignore = \"needs REFERENCE_ORACLE\"]\nfn c() {\n    let r = support::require_reference();\n}\n";
    assert_eq!(
        problems("f.rs", text),
        [
            "f.rs:2: #[ignore] is not an allowed reason",
            "f.rs:6: a test ignored with #[ignore = \"needs node\"] must begin by calling require_node()",
        ]
    );
}
