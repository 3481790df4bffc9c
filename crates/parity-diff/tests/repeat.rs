//! `--repeat N` (issue 21, item 3): each file runs N times, and a case
//! whose result bytes differ between runs is `nondeterministic`, in
//! memory and streamed alike, failing the run unless an entry or a rule
//! accepts it; no other case changes its verdict; `bless --repeat`
//! refuses a reference that is nondeterministic unless
//! `--allow-nondeterministic`; a suite's `repeat` sets it.

use crate::support;

use serde_json::Value;
use support::{run_with, Corpus, Ran};

/// `fixed` cases answer `1`, `wrong` cases `0` (a deterministic
/// divergence), `dice` cases a random number: the same on no two runs
/// but by chance.
const RANDOM_PORT: &str = r#"input=$(cat)
printf '%s' "$input" | tr '{' '\n' | grep '"op"' | while read -r case; do
  case "$case" in
    *dice*) od -An -N4 -tu4 /dev/urandom | tr -d ' \n' ;;
    *wrong*) printf 0 ;;
    *) printf 1 ;;
  esac
  echo
done | paste -sd, - | sed 's/^/[/; s/$/]/' | tr -d '\n'"#;

/// Prints how many times it has run, as the result of its only case.
const COUNTING_PORT: &str = r#"cat > /dev/null; n=$(($(cat count 2>/dev/null || echo 0) + 1)); echo $n > count; printf '[%s]' $n"#;

fn corpus() -> Corpus {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            r#"[{"name":"f1","op":"fixed"},{"name":"d1","op":"dice"},{"name":"w1","op":"wrong"},
{"name":"d2","op":"dice"},{"name":"f2","op":"fixed"}]"#,
        )
        .golden("a.json", "[1,7,1,7,1]");
    corpus
}

fn run(corpus: &Corpus, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let mut full = vec!["run", "--oracle", RANDOM_PORT];
    full.extend(args);
    run_with(corpus.path(), &full, b"", env)
}

fn verdicts(ran: &Ran) -> Vec<(String, String)> {
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    report["files"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let name = case["id"]["name"].as_str().unwrap().to_owned();
            (name, case["verdict"].as_str().unwrap().to_owned())
        })
        .collect()
}

#[test]
fn repeat_marks_the_cases_whose_results_change_and_no_other() {
    let corpus = corpus();
    let want = |dice: &str| {
        [
            ("f1", "identical"),
            ("d1", dice),
            ("w1", "different"),
            ("d2", dice),
            ("f2", "identical"),
        ]
        .map(|(name, verdict)| (name.to_owned(), verdict.to_owned()))
        .to_vec()
    };
    for env in [&[][..], &[("PARITY_DIFF_STREAM_ABOVE", "0")]] {
        let ran = run(&corpus, &["--repeat", "3", "--format", "json"], env);
        assert_eq!(ran.code, 1, "{env:?}: {ran:?}");
        assert_eq!(verdicts(&ran), want("nondeterministic"), "{env:?}");
    }
    // Once, the dice only differ from the golden.
    let ran = run(&corpus, &["--format", "json"], &[]);
    assert_eq!(verdicts(&ran), want("different"));
}

#[test]
fn a_deterministic_port_reports_the_same_with_and_without_repeat() {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            r#"[{"name":"f","op":"fixed"},{"name":"w","op":"wrong"}]"#,
        )
        .golden("a.json", "[1,1]");
    let once = run(&corpus, &["--format", "json"], &[]);
    let thrice = run(&corpus, &["--format", "json", "--repeat", "3"], &[]);
    assert_eq!(once.code, 1);
    assert_eq!(once.stdout, thrice.stdout);
}

#[test]
fn the_other_run_s_value_is_shown_and_a_rule_accepts_the_verdict() {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            r#"[{"name":"n","op":"count","token":"tok-secret-99"}]"#,
        )
        .golden("a.json", "[1]");
    let ran = corpus.run(&["run", "--oracle", COUNTING_PORT, "--repeat", "2"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "  FAIL a.json:1 #0 count \"n\": the result differs between runs: run 1 printed 1, run 2 printed 2\n"
        ),
        "{ran:?}"
    );
    assert!(
        ran.stdout
            .contains("      run 1: 1\n      golden: 1\n      run 2: 2\n"),
        "{ran:?}"
    );
    assert!(!ran.stdout.contains("tok-secret"), "{ran:?}");
    let accepted = corpus.run(&[
        "accept",
        "--oracle",
        COUNTING_PORT,
        "--repeat",
        "2",
        "--rule",
        "--reason",
        "a counter",
    ]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    assert!(
        accepted
            .stdout
            .contains("added    rule op count (match: nondeterministic) (1 case)\n"),
        "{accepted:?}"
    );
    let ran = corpus.run(&["run", "--oracle", COUNTING_PORT, "--repeat", "2", "--quiet"]);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "0 passed, 0 failed, 1 accepted\n")
    );
}

#[test]
fn bless_refuses_a_nondeterministic_reference_unless_allowed() {
    let corpus = corpus();
    std::fs::remove_file(corpus.join("golden/a.json")).unwrap();
    let bless = |more: &[&str]| {
        let mut args = vec!["bless", "--reference", RANDOM_PORT, "--repeat", "3"];
        args.extend(more);
        corpus.run(&args)
    };
    let ran = bless(&[]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.starts_with(
            "ERROR      a.json: the reference's result differs between runs on 2 cases \
             (#1 dice \"d1\", #3 dice \"d2\"): no golden written (--allow-nondeterministic \
             writes the first run's)\n"
        ),
        "{ran:?}"
    );
    assert!(!corpus.join("golden/a.json").exists());
    let ran = bless(&["--allow-nondeterministic"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(corpus.join("golden/a.json").exists());
    // Without --repeat the reference runs once, as before.
    std::fs::remove_file(corpus.join("golden/a.json")).unwrap();
    let ran = corpus.run(&["bless", "--reference", RANDOM_PORT]);
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
fn repeat_zero_is_a_usage_error_and_a_suite_may_set_repeat() {
    let corpus = corpus();
    let ran = run(&corpus, &["--repeat", "0"], &[]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains("invalid value '0' for '--repeat <N>'"),
        "{ran:?}"
    );
    support::write(
        corpus.join("parity.toml"),
        format!("[suite.s]\ncases = \"cases\"\noracle = '''{RANDOM_PORT}'''\nrepeat = 3\n"),
    );
    let ran = corpus.run(&["run", "--format", "json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(verdicts(&ran).contains(&("d1".into(), "nondeterministic".into())));
    // The flag wins over the key.
    let ran = corpus.run(&["run", "--format", "json", "--repeat", "1"]);
    assert!(verdicts(&ran).contains(&("d1".into(), "different".into())));
}
