use std::path::{Path, PathBuf};

use super::*;

fn parsed(text: &str) -> Result<Config, String> {
    parse(text, Path::new("/p/parity.toml")).map_err(|error| error.message)
}

#[test]
fn every_key_is_read_and_paths_start_at_the_file_s_directory() {
    let config = parsed(
        r#"
progress = "status/progress.json"

[suite.main]
cases = "corpus/cases"
golden = "/abs/golden"
ledger = "ledger.txt"
oracle = "python3 port.py"
reference = "node ref.mjs"
generator = "gen"
timeout = 5
kill-grace = 0.5
jobs = 3
max-output = "64M"
repeat = 3
framing = "json"
semantic = true
numbers = "exact"
error-flag = "/error/0"
error-message = "/error/1"
ops = ["sum", "keys"]
fuzz-out = "findings"
redact = false

[suite.toy]
max-output = 1000
"#,
    )
    .unwrap();
    assert_eq!(config.dir, PathBuf::from("/p"));
    assert_eq!(config.progress, Some("/p/status/progress.json".into()));
    let [suite, toy] = &config.suites[..] else {
        panic!("{config:?}")
    };
    assert_eq!(
        suite,
        &Suite {
            name: "main".into(),
            cases: Some("/p/corpus/cases".into()),
            golden: Some("/abs/golden".into()),
            ledger: Some("/p/ledger.txt".into()),
            oracle: Some("python3 port.py".into()),
            reference: Some("node ref.mjs".into()),
            generator: Some("gen".into()),
            timeout: Some(5.0),
            kill_grace: Some(0.5),
            jobs: Some(3),
            max_output: Some(64 << 20),
            repeat: Some(3),
            framing: Some(Framing::Json),
            semantic: Some(true),
            numbers: Some(Numbers::Exact),
            error_flag: Some("/error/0".into()),
            error_message: Some("/error/1".into()),
            ops: Some(vec!["sum".into(), "keys".into()]),
            fuzz_out: Some("/p/findings".into()),
            redact: Some(false),
            lines: suite.lines.clone(),
        }
    );
    assert_eq!(suite.lines.get("golden"), Some(&6));
    assert_eq!(suite.lines.get("fuzz-out"), Some(&22));
    assert_eq!(config.progress_line, Some(2));
    assert_eq!(suite.lines.get("redact"), Some(&23));
    assert_eq!(toy.max_output, Some(1000));
    assert_eq!(toy.redact, None);
    assert!(toy.errors().is_default());
    let errors = suite.errors();
    assert_eq!((&*errors.flag, &*errors.message), ("/error/0", "/error/1"));
    assert_eq!(toy.cases_dir(&config.dir), PathBuf::from("/p/cases"));
}

#[test]
fn an_unknown_key_names_its_line_and_the_known_keys() {
    let error = parsed("[suite.a]\ncases = \"c\"\norcale = \"x\"\n").unwrap_err();
    assert!(
        error.starts_with(
            "/p/parity.toml:3: suite.a: unknown key \"orcale\" (the keys: cases, golden,"
        ),
        "{error}"
    );
    let error = parsed("\n[suites.a]\n").unwrap_err();
    assert!(
        error.starts_with("/p/parity.toml:2: unknown key \"suites\""),
        "{error}"
    );
}

#[test]
fn a_value_of_the_wrong_type_names_its_line_key_and_type() {
    for (text, expected) in [
        (
            "[suite.a]\n\ntimeout = \"5\"\n",
            "/p/parity.toml:3: suite.a.timeout: a positive number of seconds, at most 604800 (a week), not the string \"5\"",
        ),
        (
            "[suite.a]\ntimeout = 0\n",
            "/p/parity.toml:2: suite.a.timeout: a positive number of seconds, at most 604800 (a week), not the integer 0",
        ),
        (
            "[suite.a]\njobs = 0\n",
            "/p/parity.toml:2: suite.a.jobs: a whole number, 1 to 256, not the integer 0",
        ),
        (
            "[suite.a]\nrepeat = 0\n",
            "/p/parity.toml:2: suite.a.repeat: a whole number, 1 to 1000, not the integer 0",
        ),
        (
            "[suite.a]\n\n\ntimeout = 1e308\n",
            "/p/parity.toml:4: suite.a.timeout: a positive number of seconds, at most 604800 (a week), not the number 1e308",
        ),
        (
            "[suite.a]\nkill-grace = 1.8e19\n",
            "/p/parity.toml:2: suite.a.kill-grace: a number of seconds, 0 to 3600 (an hour), not the number 1.8e19",
        ),
        (
            "[suite.a]\njobs = 20000\n",
            "/p/parity.toml:2: suite.a.jobs: a whole number, 1 to 256, not the integer 20000",
        ),
        (
            "[suite.a]\nrepeat = 1001\n",
            "/p/parity.toml:2: suite.a.repeat: a whole number, 1 to 1000, not the integer 1001",
        ),
        (
            "progress = 3\n",
            "/p/parity.toml:1: progress: a path (a string), not the integer 3",
        ),
        (
            "progress = \"\"\n",
            "/p/parity.toml:1: progress: a path (a string), not the string \"\"",
        ),
        (
            "[suite.a]\ncases = 3\n",
            "/p/parity.toml:2: suite.a.cases: a path (a string), not the integer 3",
        ),
        (
            "[suite.a]\nops = [\"x\", 1]\n",
            "/p/parity.toml:2: suite.a.ops: an array of op names (strings), not an array",
        ),
        (
            "[suite.a]\nframing = \"loose\"\n",
            "/p/parity.toml:2: suite.a.framing: \"exact\" or \"json\", not the string \"loose\"",
        ),
        (
            "[suite.a]\nnumbers = \"decimal\"\n",
            "/p/parity.toml:2: suite.a.numbers: \"double\" or \"exact\", not the string \"decimal\"",
        ),
        (
            "[suite.a]\nerror-flag = \"threw\"\n",
            "/p/parity.toml:2: suite.a.error-flag: a JSON Pointer (\"\" or \"/key/0\"), not the string \"threw\"",
        ),
        (
            "[suite.a]\n\nsemantic = \"yes\"\n",
            "/p/parity.toml:3: suite.a.semantic: true or false, not the string \"yes\"",
        ),
        (
            "[suite.a]\nmax-output = \"lots\"\n",
            "/p/parity.toml:2: suite.a.max-output: a size (64M, 1G, or a number of bytes), not the string \"lots\"",
        ),
        (
            "[suite.a]\nkill-grace = true\n",
            "/p/parity.toml:2: suite.a.kill-grace: a number of seconds, 0 to 3600 (an hour), not the boolean true",
        ),
        (
            "[suite.a]\noracle = \" \"\n",
            "/p/parity.toml:2: suite.a.oracle: a command (a string), not the string \" \"",
        ),
        (
            "suite = 1\n",
            "/p/parity.toml:1: suite: a table of [suite.NAME] tables, not integer",
        ),
        ("[suite]\na = 1\n", "/p/parity.toml:2: suite.a: a table, not integer"),
    ] {
        assert_eq!(parsed(text).unwrap_err(), expected, "{text}");
    }
}

#[test]
fn bad_toml_and_bad_names_are_errors_with_a_line() {
    let error = parsed("[suite.a]\ncases = \n").unwrap_err();
    assert!(error.starts_with("/p/parity.toml:2: not TOML: "), "{error}");
    let error = parsed("[suite.\"a b\"]\n").unwrap_err();
    assert!(
        error.starts_with("/p/parity.toml:1: suite \"a b\": a suite's name is"),
        "{error}"
    );
}

#[test]
fn suites_are_selected_by_name_in_the_file_s_order() {
    let config = parsed("[suite.b]\n[suite.a]\n").unwrap();
    let names = |selected: Vec<&Suite>| -> Vec<String> {
        selected
            .into_iter()
            .map(|suite| suite.name.clone())
            .collect()
    };
    assert_eq!(names(config.select(&[]).unwrap()), ["b", "a"]);
    assert_eq!(
        names(config.select(&["a".into(), "b".into()]).unwrap()),
        ["b", "a"]
    );
    assert_eq!(
        config.select(&["c".into()]).unwrap_err().message,
        "/p/parity.toml: no suite \"c\" (its suites: b, a)"
    );
}

#[test]
fn discovery_walks_up_from_the_start_directory() {
    let root = tempfile::tempdir().unwrap();
    let deep = root.path().join("a/b/c");
    std::fs::create_dir_all(&deep).unwrap();
    // A directory of that name is not a config.
    std::fs::create_dir_all(root.path().join("a/b/parity.toml")).unwrap();
    // (A parity.toml above the temporary directory is not this test's.)
    assert!(discover(&deep).is_none_or(|found| !found.starts_with(root.path())));
    std::fs::write(root.path().join("a/parity.toml"), "").unwrap();
    assert_eq!(discover(&deep), Some(root.path().join("a/parity.toml")));
    std::fs::write(root.path().join("a/b/c/parity.toml"), "").unwrap();
    assert_eq!(discover(&deep), Some(deep.join("parity.toml")));
}

#[test]
fn a_relative_file_s_directory_is_its_parent_or_the_current_one() {
    assert_eq!(
        parse("", Path::new("parity.toml")).unwrap().dir,
        PathBuf::from(".")
    );
    assert_eq!(
        parse("", Path::new("x/parity.toml")).unwrap().dir,
        PathBuf::from("x")
    );
}
