//! A `nondeterministic` case (`--repeat`) in the formats that show
//! values: a port that counts its runs, so that each run's result is
//! known and the snapshot stable.

use super::{check, parity_diff};

/// Prints how many times it has run as its only case's result, with a
/// hostile text beside it.
const PORT: &str = r#"cat > /dev/null; n=$(($(cat count 2>/dev/null || echo 0) + 1)); echo $n > count; printf '[{"run":%s,"note":"\\u001b]0;x\\u0007 @octocat"}]' $n"#;

#[test]
fn nondeterministic_in_every_format_that_shows_values() {
    for (name, format) in [
        ("repeat-human", "human"),
        ("repeat-json", "json"),
        ("repeat-markdown", "markdown"),
        ("repeat-junit", "junit"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in [
            ("cases/a.json", r#"[{"name":"counted","op":"count"}]"#),
            ("golden/a.json", r#"[{"run":1,"note":""}]"#),
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let args = ["run", "--oracle", PORT, "--repeat", "3", "--format", format];
        let ran = parity_diff(dir.path(), &args, &[]);
        assert_eq!(ran.code, Some(1), "{}", ran.render());
        let text = match format {
            "json" => ran.render_json(),
            _ => ran.render(),
        };
        check(name, &text);
    }
}
