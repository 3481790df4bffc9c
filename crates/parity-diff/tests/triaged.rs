//! Triaged cases (known bugs the ledger accepts until they are fixed)
//! are listed in a green run: the human report counts them and names the
//! first 20 before its closing line, the Markdown report the first 10;
//! the rest are counted, and each link stands in a code span. A run
//! without any lists none; a run of several suites names each case's.

use crate::support;

use support::{golden_of, Corpus, Ran};

/// Cases of op `x`, and goldens the port (`sed`) gets wrong for each.
fn corpus(count: usize) -> Corpus {
    let corpus = Corpus::new();
    let cases: Vec<String> = (0..count)
        .map(|n| format!(r#"{{"name":"case {n:02}","op":"x"}}"#))
        .collect();
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    corpus.case("a.json", &golden_of(&cases));
    let golden = vec![r#"{"defined":true,"value":1}"#; count];
    corpus.golden("a.json", &golden_of(&golden));
    corpus
}

/// The port: every case's answer is 2 where the golden has 1.
const PORT: &str = r#"sed 's/{[^}]*}/{"defined":true,"value":2}/g'"#;

fn port(corpus: &Corpus, args: &[&str]) -> Ran {
    let mut full = args.to_vec();
    full.extend(["--no-config", "--oracle", PORT]);
    corpus.run(&full)
}

fn triage(corpus: &Corpus) {
    let ran = port(
        corpus,
        &[
            "accept",
            "--triaged",
            "--link",
            "https://example.test/issues/3",
            "--reason",
            "answers 2",
        ],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
fn a_green_run_names_its_first_triaged_cases_and_counts_the_rest() {
    let corpus = corpus(25);
    triage(&corpus);
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let lines: Vec<&str> = ran.stdout.lines().collect();
    let at = lines
        .iter()
        .position(|line| *line == "25 triaged cases (known bugs, not yet fixed):")
        .unwrap_or_else(|| panic!("no count line in\n{}", ran.stdout));
    let named = &lines[at + 1..at + 21];
    for (n, line) in named.iter().enumerate() {
        assert_eq!(
            *line,
            format!(
                "  a.json:{} #{n} x \"case {n:02}\": triaged (https://example.test/issues/3): answers 2",
                n + 2
            )
        );
    }
    assert_eq!(lines[at + 21], "  … and 5 more");
    // The closing line stays last.
    assert_eq!(lines[at + 22..], ["0 passed, 0 failed, 25 accepted"]);

    let markdown = port(&corpus, &["run", "--format", "markdown"]);
    assert_eq!(markdown.code, 0, "{markdown:?}");
    // (Not `assert_markdown_well_formed`, which refuses `https://` even
    // in a code span: the link stands in one, as every ledger entry's
    // does, where nothing becomes a link.)
    let list = markdown
        .stdout
        .split("### Triaged: 25 cases\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no triaged list in\n{}", markdown.stdout));
    let items: Vec<&str> = list
        .lines()
        .skip_while(|line| !line.starts_with("- "))
        .take_while(|line| line.starts_with("- "))
        .collect();
    assert_eq!(items.len(), 11, "{list}");
    assert_eq!(
        items[0],
        "- `cases/a.json:2` `#0 x \"case 00\"`: `triaged (https://example.test/issues/3): answers 2`"
    );
    assert_eq!(items[10], "- … and 15 more");
}

#[test]
fn one_triaged_case_is_a_known_bug_and_none_lists_nothing() {
    let corpus = corpus(1);
    triage(&corpus);
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "\n1 triaged case (a known bug, not yet fixed):\n  a.json:2 #0 x \"case 00\": \
             triaged (https://example.test/issues/3): answers 2\n0 passed, 0 failed, 1 accepted\n"
        ),
        "{}",
        ran.stdout
    );
    // Accepted as deliberate, the same case is not listed.
    std::fs::remove_file(corpus.join("parity-ledger.txt")).unwrap();
    let ran = port(&corpus, &["accept", "--reason", "deliberate"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(!ran.stdout.contains("triaged"), "{}", ran.stdout);
    let ran = port(&corpus, &["run", "--format", "markdown"]);
    assert!(!ran.stdout.contains("Triaged"), "{}", ran.stdout);
}

#[test]
fn in_a_run_of_several_suites_each_triaged_case_names_its_suite() {
    let corpus = corpus(1);
    for suite in ["one", "two"] {
        for dir in ["cases", "golden"] {
            let from = corpus.join(&format!("{dir}/a.json"));
            support::write(
                corpus.join(&format!("{suite}/{dir}/a.json")),
                std::fs::read(from).unwrap(),
            );
        }
    }
    let oracle = PORT.replace('\\', "\\\\").replace('"', "\\\"");
    support::write(
        corpus.join("parity.toml"),
        format!(
            "[suite.one]\ncases = \"one/cases\"\noracle = \"{oracle}\"\n\n\
             [suite.two]\ncases = \"two/cases\"\noracle = \"{oracle}\"\n"
        ),
    );
    for suite in ["one", "two"] {
        let args = [
            "--suite",
            suite,
            "accept",
            "--triaged",
            "--link",
            "L",
            "--reason",
            suite,
        ];
        let ran = corpus.run(&args);
        assert_eq!(ran.code, 0, "{ran:?}");
    }
    let ran = corpus.run(&["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "\n2 triaged cases (known bugs, not yet fixed):\n\
             \x20 suite one: a.json:2 #0 x \"case 00\": triaged (L): one\n\
             \x20 suite two: a.json:2 #0 x \"case 00\": triaged (L): two\n\
             0 passed, 0 failed, 2 accepted\n"
        ),
        "{}",
        ran.stdout
    );
}
