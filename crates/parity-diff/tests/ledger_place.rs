//! The ledger's default place is beside parity.toml (issue 36), not
//! beside the cases, which may be vendored: a ledger `accept` writes
//! stays in the project that owns it.

use crate::daily_support::{Corpus, ORACLE_CMD};

fn vendored() -> Corpus {
    let corpus = Corpus::new();
    corpus.write(
        "tools/wso/cases/a.json",
        r#"[{"op":"a","name":"x","throw":"not yet"}]"#,
    );
    corpus.write("tools/wso/golden/a.json", r#"[{"op":"a","name":"x"}]"#);
    corpus.write(
        "parity.toml",
        &format!("[suite.port]\ncases = \"tools/wso/cases\"\noracle = \"{ORACLE_CMD}\"\n"),
    );
    corpus
}

#[test]
#[ignore = "needs python3"]
fn accept_writes_the_ledger_beside_parity_toml() {
    crate::support::require_python3();
    let corpus = vendored();
    let accepted = corpus.run(&["accept", "--reason", "later"]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    assert!(corpus.join("parity-ledger.txt").exists());
    assert!(!corpus.join("tools/wso/parity-ledger.txt").exists());
    // And run finds it there.
    let ran = corpus.run(&["run"]);
    assert_eq!(ran.code, 0, "{}{}", ran.text(), ran.stderr);
    assert!(ran.text().contains("1 accepted"), "{}", ran.text());
}

#[test]
#[ignore = "needs python3"]
fn several_suites_have_a_ledger_each_beside_parity_toml() {
    crate::support::require_python3();
    let corpus = vendored();
    corpus.write("other/cases/b.json", r#"[{"op":"b","throw":"no"}]"#);
    corpus.write("other/golden/b.json", r#"[{"op":"b"}]"#);
    corpus.write(
        "parity.toml",
        &format!(
            "[suite.port]\ncases = \"tools/wso/cases\"\noracle = \"{ORACLE_CMD}\"\n\n\
             [suite.other]\ncases = \"other/cases\"\noracle = \"{ORACLE_CMD}\"\n"
        ),
    );
    let accepted = corpus.run(&["accept", "--reason", "later", "--suite", "port"]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    assert!(corpus.join("parity-ledger-port.txt").exists());
    assert!(!corpus.join("parity-ledger-other.txt").exists());
}

#[test]
#[ignore = "needs python3"]
fn a_ledger_at_the_former_place_is_still_used_with_a_warning() {
    crate::support::require_python3();
    let corpus = vendored();
    corpus.write(
        "tools/wso/parity-ledger.txt",
        "rule op a\n  match: threw \"not yet\"\n  state: accepted\n  reason: later\n",
    );
    let ran = corpus.run(&["run"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("warning: using the ledger tools/wso/parity-ledger.txt beside the cases"),
        "{}",
        ran.stderr
    );
}
