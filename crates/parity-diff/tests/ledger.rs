//! The porting workflow with a divergence ledger, walked end to end with
//! a partial port: a reference that answers each case by its name
//! (`support::oracle::by_name`), wrapped so that one op's results are
//! rewritten and another op's messages changed (`PORT_MODE` adds more).
//!
//! 1. `run` fails;
//! 2. `accept` makes `run` pass;
//! 3. a new divergence fails, named new;
//! 4. a fixed one fails, named stale;
//! 5. `accept --prune` makes `run` pass again;
//! 6. a changed form fails, named changed;
//! 7. an orphaned entry fails a full run only.

use crate::support;

use support::report::{named, CaseState, EntryState, Report};
use support::{oracle, require_python3, run_with, Corpus, Ran};

/// The partial port: the reference's results, with timeoutMs values
/// one too high (except for "ready: in range" when PORT_MODE has
/// `fixed`; two too high for "ready: default" with `form`), pathJoin's
/// messages changed, and with `new` one closedGuard answer flipped.
const PORT: &str = r#"
import json, os, subprocess, sys
data = sys.stdin.buffer.read()
out = subprocess.run(os.environ["ORACLE"], shell=True, input=data, capture_output=True, check=True).stdout
cases, results = json.loads(data), json.loads(out)
mode = os.environ.get("PORT_MODE", "").split(",")
for case, result in zip(cases, results):
    op, name = case.get("op"), case.get("name")
    if op == "timeoutMs" and "value" in result:
        if not ("fixed" in mode and name == "ready: in range"):
            result["value"] += 2 if ("form" in mode and name == "ready: default") else 1
    if op == "pathJoin" and result.get("threw"):
        result["message"] += " (in the port)"
    if "new" in mode and name == "guard: closed":
        result["value"] = not result["value"]
sys.stdout.write(json.dumps(results, separators=(",", ":")))
"#;

const A: &str = r#"[
{"name": "ready: default", "op": "timeoutMs"},
{"name": "ready: in range", "op": "timeoutMs", "configured": 5000},
{"name": "ready: not a number", "op": "timeoutMs", "configured": "x"},
{"name": "guard: closed", "op": "closedGuard", "message": {"type": "codex-session-closed"}},
{"name": "guard: other", "op": "closedGuard", "message": {"type": "x"}}
]"#;

const B: &str = r#"[
{"name": "script: relative", "op": "pathJoin", "pathJoin": "w.js", "cwd": "/srv"},
{"name": "script: relative cwd", "op": "pathJoin", "pathJoin": "w.js", "cwd": "rel"}
]"#;

/// What the reference answers for each case of [`A`] and [`B`], by name.
const REFERENCE: [(&str, &str); 7] = [
    ("ready: default", r#"{"defined":true,"value":30000}"#),
    ("ready: in range", r#"{"defined":true,"value":5000}"#),
    (
        "ready: not a number",
        r#"{"threw":true,"message":"threadRunnerReadyTimeoutMs must be a number"}"#,
    ),
    ("guard: closed", r#"{"defined":true,"value":true}"#),
    ("guard: other", r#"{"defined":true,"value":false}"#),
    (
        "script: relative",
        r#"{"defined":true,"value":"/srv/w.js"}"#,
    ),
    (
        "script: relative cwd",
        r#"{"threw":true,"message":"worker cwd must be an absolute path"}"#,
    ),
];

/// The reference's command.
const ORACLE: &str = oracle::BY_NAME;

/// A corpus with goldens from the reference, and the port beside it
/// (which needs python3: the tests that run it are ignored by default).
fn corpus() -> Corpus {
    let corpus = Corpus::new();
    corpus.case("a.json", A).case("b.json", B);
    support::write(corpus.join("port.py"), PORT);
    oracle::by_name(corpus.path(), &REFERENCE);
    let ran = corpus.run(&["bless", "--reference", ORACLE]);
    assert_eq!(ran.code, 0, "{ran:?}");
    corpus
}

fn port(corpus: &Corpus, mode: &str, args: &[&str]) -> Ran {
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--oracle", "python3 port.py"]);
    run_with(
        corpus.path(),
        &full,
        b"",
        &[("ORACLE", ORACLE), ("PORT_MODE", mode)],
    )
}

fn json(ran: &Ran) -> Report {
    Report::read(&ran.stdout)
}

#[test]
#[ignore = "needs python3"]
fn the_porting_workflow() {
    require_python3();
    let corpus = corpus();

    // 1. The port diverges, and there is no ledger yet: the run fails.
    let ran = port(&corpus, "", &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("  FAIL a.json:2 #0 timeoutMs \"ready: default\": different at /value\n"),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("  FAIL b.json:3 #1 pathJoin \"script: relative cwd\": the port threw \"worker cwd must be an absolute path (in the port)\" where the golden threw \"worker cwd must be an absolute path\"\n"), "{}", ran.stdout);
    assert_eq!(ran.last_line(), "4 passed, 3 failed");

    // 2. Accept them: the run passes, the divergences counted as accepted.
    let ran = port(
        &corpus,
        "",
        &["accept", "--reason", "off by one, being fixed", "--triaged"],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "added    a.json \"ready: default\" (timeoutMs, different at /value)\n",
            "added    a.json \"ready: in range\" (timeoutMs, different at /value)\n",
            "added    b.json \"script: relative cwd\" (pathJoin, different at /message)\n",
            "ledger parity-ledger.txt: 3 added, 0 changed, 0 removed, 0 unchanged\n"
        )
    );
    let ledger = corpus.read("parity-ledger.txt");
    assert!(ledger.starts_with("# parity-diff ledger"), "{ledger}");
    assert!(
        ledger.contains(concat!(
            "case a.json \"ready: default\"\n",
            "  op: timeoutMs\n",
            "  state: triaged\n",
            "  reason: off by one, being fixed\n",
            "  verdict: different\n",
            "  paths: /value\n",
            "  fingerprint: "
        )),
        "{ledger}"
    );
    let ran = port(&corpus, "", &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "4 passed, 0 failed, 3 accepted");
    assert!(ran.stdout.contains("ok a.json (5 cases, 2 accepted)\n"));
    let report = json(&port(&corpus, "", &["run", "--format", "json"]));
    assert_eq!(report.totals().accepted, 3);
    assert_eq!(report.totals().triaged, 3);
    assert_eq!(report.summary.exit_code, 0);
    let ledger = report.head.ledger.as_ref().unwrap();
    assert_eq!(ledger.path, "parity-ledger.txt");
    assert_eq!(ledger.entries.len(), 3);
    let first = &report.files[0].cases[0];
    assert_eq!(first.state, CaseState::Accepted);
    let entry = first.entry.as_ref().unwrap();
    assert!(matches!(entry.state, EntryState::Triaged { .. }));
    assert_eq!(entry.reason, "off by one, being fixed");

    // 3. A new divergence fails, named new.
    let ran = port(&corpus, "new", &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("  NEW a.json:5 #3 closedGuard \"guard: closed\": different at /value\n"),
        "{}",
        ran.stdout
    );
    assert!(ran
        .stdout
        .contains("1 new and 0 changed divergences: fix them, or record them"));
    assert_eq!(ran.last_line(), "3 passed, 1 failed, 3 accepted");
    let report = json(&port(&corpus, "new", &["run", "--format", "json"]));
    assert_eq!((report.totals().new, report.totals().failed), (1, 1));

    // 4. A fixed one fails, named stale, saying how to prune it.
    let ran = port(&corpus, "fixed", &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(concat!(
            "  STALE a.json:3 #1 timeoutMs \"ready: in range\": passes now, but its ledger entry ",
            "(triaged: off by one, being fixed) expects a divergence: run `parity-diff accept --prune`\n"
        )),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "4 passed, 1 failed, 2 accepted");
    let report = json(&port(&corpus, "fixed", &["run", "--format", "json"]));
    assert_eq!(report.totals().stale, 1);

    // 5. Pruning removes it (no reason needed to prune alone).
    let ran = port(&corpus, "fixed", &["accept", "--prune"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "removed  a.json \"ready: in range\" (stale: the case passes now)\n",
            "ledger parity-ledger.txt: 0 added, 0 changed, 1 removed, 2 unchanged\n"
        )
    );
    let ran = port(&corpus, "fixed", &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "5 passed, 0 failed, 2 accepted");

    // 6. A changed form fails, named changed, with what its entry said.
    let ran = port(&corpus, "fixed,form", &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(concat!(
            "  CHANGED a.json:2 #0 timeoutMs \"ready: default\": different at /value\n",
            "      input: {\"name\":\"ready: default\",\"op\":\"timeoutMs\"}\n",
            "      ledger: triaged: off by one, being fixed\n",
            "      at /value\n",
            "        golden: 30000\n",
            "        actual: 30002\n"
        )),
        "{}",
        ran.stdout
    );
    let report = json(&port(&corpus, "fixed,form", &["run", "--format", "json"]));
    assert_eq!(report.totals().changed, 1);

    // 7. An entry whose case is gone fails a full run, and only a full run.
    support::write(
        corpus.join("cases/b.json"),
        r#"[{"name": "script: relative", "op": "pathJoin", "pathJoin": "w.js", "cwd": "/srv"}]"#,
    );
    let ran = corpus.run(&["bless", "--reference", ORACLE]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let ran = port(&corpus, "fixed", &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "ORPHANED b.json \"script: relative cwd\" (op pathJoin): no such case; \
             remove the entry with `parity-diff accept --prune`\n"
        ),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "5 passed, 0 failed, 1 accepted");
    let report = json(&port(&corpus, "fixed", &["run", "--format", "json"]));
    assert_eq!(report.totals().orphaned, 1);
    assert_eq!(report.summary.exit_code, 1);
    assert_eq!(
        report.orphaned[0].id,
        named("b.json", "script: relative cwd")
    );
    for partial in [
        &["run", "--op", "timeoutMs"][..],
        &["run", "--filter", "a.json"],
        &["run", "--shard", "1/1"],
    ] {
        let ran = port(&corpus, "fixed", partial);
        assert_eq!(ran.code, 0, "{partial:?}: {ran:?}");
        assert!(!ran.stdout.contains("ORPHANED"), "{partial:?}");
    }
    let ran = port(&corpus, "fixed", &["accept", "--prune"]);
    assert!(
        ran.stdout
            .contains("removed  b.json \"script: relative cwd\" (orphaned: no such case)\n"),
        "{ran:?}"
    );
    let ran = port(&corpus, "fixed", &["run"]);
    assert_eq!(
        (ran.code, ran.last_line()),
        (0, "5 passed, 0 failed, 1 accepted")
    );
}

#[test]
#[ignore = "needs python3"]
fn accept_refuses_without_a_reason_and_in_ci() {
    require_python3();
    let corpus = corpus();
    let ran = port(&corpus, "", &["accept"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains("accept needs --reason TEXT"),
        "{}",
        ran.stderr
    );
    let ran = run_with(
        corpus.path(),
        &["accept", "--reason", "r", "--oracle", "python3 port.py"],
        b"",
        &[("ORACLE", ORACLE), ("CI", "true")],
    );
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("refusing to change the ledger in CI"));
    assert!(!corpus.join("parity-ledger.txt").exists());
    let ran = run_with(
        corpus.path(),
        &[
            "accept",
            "--reason",
            "r",
            "--force",
            "--oracle",
            "python3 port.py",
        ],
        b"",
        &[("ORACLE", ORACLE), ("CI", "true")],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    for (args, message) in [
        (
            &["accept", "--reason", "a\nb"][..],
            "--reason must be one line",
        ),
        (&["accept", "--reason", " "], "--reason must not be empty"),
        (
            &["accept", "--reason", "r", "--link", "http://x"],
            "--triaged",
        ),
        (
            &["accept", "--reason", "r", "--format", "junit"],
            "accept reports in human, json, markdown or html format only",
        ),
    ] {
        let ran = port(&corpus, "", args);
        assert_eq!(ran.code, 2, "{args:?}: {ran:?}");
        assert!(ran.stderr.contains(message), "{args:?}: {}", ran.stderr);
    }
}

#[test]
#[ignore = "needs python3"]
fn accept_keeps_the_ledgers_permissions_comments_and_other_entries() {
    use std::os::unix::fs::PermissionsExt;
    require_python3();
    let corpus = corpus();
    let ledger = corpus.join("my-ledger.txt");
    let ran = port(
        &corpus,
        "",
        &[
            "accept",
            "--reason",
            "known",
            "--ledger",
            "my-ledger.txt",
            "--op",
            "pathJoin",
        ],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains("1 added"), "{}", ran.stdout);
    let text = std::fs::read_to_string(&ledger).unwrap();
    let text = text.replace(
        "case b.json",
        "# Upstream rejects relative cwds with another message.\ncase b.json",
    );
    std::fs::write(&ledger, text).unwrap();
    std::fs::set_permissions(&ledger, std::fs::Permissions::from_mode(0o640)).unwrap();
    let ran = port(
        &corpus,
        "",
        &[
            "accept",
            "--reason",
            "off by one",
            "--triaged",
            "--link",
            "https://x/1",
            "--ledger",
            "my-ledger.txt",
            "--format",
            "json",
        ],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    let report = json(&ran);
    assert_eq!(report.head.command, "accept");
    let changes = report.ledger_changes.as_ref().unwrap();
    assert_eq!(changes.added.len(), 2);
    assert!(changes.written);
    let mode = std::fs::metadata(&ledger).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    let text = std::fs::read_to_string(&ledger).unwrap();
    assert!(
        text.contains("# Upstream rejects relative cwds with another message.\ncase b.json \"script: relative cwd\"\n  op: pathJoin\n  state: accepted\n  reason: known\n"),
        "{text}"
    );
    assert!(
        text.contains("  state: triaged https://x/1\n  reason: off by one\n"),
        "{text}"
    );
    // Nothing new: nothing written, and it says so.
    let ran = port(
        &corpus,
        "",
        &["accept", "--reason", "x", "--ledger", "my-ledger.txt"],
    );
    assert_eq!(
        ran.stdout,
        "ledger my-ledger.txt: nothing to change (3 entries, 0 rules)\n"
    );
}

#[test]
#[ignore = "needs python3"]
fn a_ledger_needs_unique_names_and_must_exist_when_named() {
    require_python3();
    let corpus = corpus();
    let ran = port(&corpus, "", &["run", "--ledger", "nope.txt"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .contains("the ledger nope.txt does not exist (`parity-diff accept` creates it)"),
        "{}",
        ran.stderr
    );
    support::write(
        corpus.join("parity-ledger.txt"),
        "case a.json \"x\"\n  state: maybe\n",
    );
    let ran = port(&corpus, "", &["run"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .contains("ledger parity-ledger.txt line 2: state is `accepted` or `triaged [LINK]`"),
        "{}",
        ran.stderr
    );
    support::write(corpus.join("parity-ledger.txt"), "");
    corpus.case(
        "a.json",
        r#"[{"name": "same", "op": "timeoutMs"},
{"name": "same", "op": "timeoutMs", "configured": 5000}]"#,
    );
    let ran = port(&corpus, "", &["run"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "ERROR a.json: cases #0 (line 1) and #1 (line 2) of a.json are both known as a.json \"same\"; \
             a ledger needs each case's name to be unique within its file\n"
        ),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("FAIL b.json"),
        "the other files still run"
    );
    // Without a ledger, duplicate names are no error.
    std::fs::remove_file(corpus.join("parity-ledger.txt")).unwrap();
    let ran = port(&corpus, "", &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
}

#[test]
fn compare_with_a_ledger_knows_cases_by_the_case_files_base_name() {
    let corpus = corpus();
    support::write(
        corpus.join("ledger.txt"),
        "case a.json \"ready: default\"\n  state: accepted\n  reason: r\n  fingerprint: 0000000000000000\n",
    );
    let results = r#"[{"defined":true,"value":30000},{"defined":true,"value":1},{"threw":true,"message":"threadRunnerReadyTimeoutMs must be a number"},{"defined":true,"value":true},{"defined":true,"value":false}]"#;
    support::write(corpus.join("results.json"), results);
    let compare = |extra: &[&str]| {
        let mut args = vec!["compare", "results.json", "golden/a.json"];
        args.extend_from_slice(extra);
        corpus.run(&args)
    };
    let ran = compare(&["--cases", "cases/a.json", "--ledger", "ledger.txt"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stdout.contains("  STALE a.json:2 #0"), "{}", ran.stdout);
    assert!(ran.stdout.contains("  NEW a.json:3 #1"), "{}", ran.stdout);
    let ran = compare(&["--ledger", "ledger.txt"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("--ledger needs --cases"),
        "{}",
        ran.stderr
    );
    let ran = compare(&["--op", "timeoutMs"]);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("--op needs --cases"), "{}", ran.stderr);
    // --op picks the results and the golden's elements at the same places.
    let ran = compare(&["--cases", "cases/a.json", "--op", "closedGuard"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (0, "2 passed, 0 failed\n"));
    let ran = compare(&["--cases", "cases/a.json", "--op", "nope"]);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("--op nope matches no case in a.json"));
}
