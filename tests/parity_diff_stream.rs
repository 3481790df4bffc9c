//! `run` streams large files with the worker-spawn oracle and on the
//! bundled corpus, reporting them byte for byte as it reports files it
//! holds in memory. Streaming itself is parity-diff's own tests'
//! (crates/parity-diff/tests/stream.rs).

use crate::parity_diff_support as support;

use support::report::Report;
use support::{golden_of, run_with, Corpus};

/// Runs `args` with every file streamed, and with none; both must say the
/// same, byte for byte. Returns what they said.
fn streamed_as_in_memory(corpus: &Corpus, args: &[&str]) -> support::Ran {
    let streamed = run_with(
        corpus.path(),
        args,
        b"",
        &[("PARITY_DIFF_STREAM_ABOVE", "0")],
    );
    let in_memory = run_with(
        corpus.path(),
        args,
        b"",
        &[("PARITY_DIFF_STREAM_ABOVE", "1000000000")],
    );
    assert_eq!(streamed.stdout, in_memory.stdout, "{args:?}");
    assert_eq!(streamed.stderr, in_memory.stderr, "{args:?}");
    assert_eq!(streamed.code, in_memory.code, "{args:?}");
    streamed
}

/// Our own oracle (no `--oracle`) streams a large file too: it reads the
/// case file and writes its results to a temporary file, and the report
/// is the same as from a run held in memory.
#[test]
fn our_own_oracle_streams_a_file_as_it_runs_one_in_memory() {
    let corpus = Corpus::new();
    let cases = [
        r#"{"op":"readyTimeoutMs","name":"r1","configured":1500}"#,
        r#"{"op":"readyTimeoutMs","name":"r2","configured":1}"#,
        r#"{"op":"preflight","name":"p","mkdirs":["a"],"cwd":"$DIR/a"}"#,
        r#"{"op":"nope","name":"u"}"#,
    ];
    let results = [
        r#"{"defined":true,"value":1500}"#,
        // A golden that disagrees, so that the report has a failure.
        r#"{"defined":true,"value":2}"#,
        r#"{"defined":false}"#,
        r#"{"threw":true,"message":"unknown op nope"}"#,
    ];
    corpus
        .case("a.json", &format!("[{}]", cases.join(",\n")))
        .golden("a.json", &golden_of(&results));
    for format in ["json", "human"] {
        let ran = streamed_as_in_memory(&corpus, &["run", "--format", format]);
        assert_eq!(ran.code, 1, "{ran:?}");
        streamed_as_in_memory(&corpus, &["run", "--format", format, "--op", "preflight"]);
    }
    let ran = streamed_as_in_memory(&corpus, &["run", "-q"]);
    assert_eq!(ran.stdout, "3 passed, 1 failed\n");
}

/// The bundled corpus and one large file of its cases twice over,
/// through our own oracle and through a port that diverges from it
/// (other numbers and strings, and the same value in other bytes, as
/// `scripts/bench-speed.sh` edits them): every report, in every format,
/// is the same streamed (large files run live, issue 23) as held in
/// memory.
#[test]
fn the_bundled_corpus_and_a_large_file_of_it_are_reported_as_in_memory() {
    let corpus = Corpus::new();
    let root = support::root();
    let mut inner = Vec::new();
    for entry in std::fs::read_dir(root.join("cases")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let golden = std::fs::read_to_string(root.join("golden").join(&name)).unwrap();
        corpus.case(&name, &text).golden(&name, &golden);
        let cases = text
            .trim()
            .strip_prefix('[')
            .unwrap()
            .strip_suffix(']')
            .unwrap();
        if !cases.trim().is_empty() {
            inner.push(cases.trim().to_owned());
        }
    }
    let once = inner.join(",");
    let big = format!("[{}]", vec![once; 2].join(","));
    corpus.case("big.json", &big);
    let oracle = env!("CARGO_BIN_EXE_worker-spawn-oracle");
    let blessed = run_with(
        corpus.path(),
        &["bless", "--reference", oracle, "--filter", "big.json", "-q"],
        b"",
        &[],
    );
    assert_eq!(blessed.code, 0, "{blessed:?}");
    let edits = "s/\"attempts\":4}/\"attempts\":5}/g; s/within 30000ms/within 3e4ms/g; \
                 s/\"protocolVersion\":1}/\"protocolVersion\":1.0}/g";
    let diverging = format!("'{oracle}' | sed -e '{edits}'");
    for format in ["human", "json", "junit", "markdown", "html"] {
        let ran = streamed_as_in_memory(&corpus, &["run", "--format", format]);
        assert_eq!(ran.code, 0, "{ran:?}");
    }
    let ran = streamed_as_in_memory(&corpus, &["run", "--oracle", &diverging]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let ran = streamed_as_in_memory(
        &corpus,
        &["run", "--oracle", &diverging, "--format", "json"],
    );
    let report = Report::read(&ran.stdout);
    let big = report
        .files
        .iter()
        .find(|file| file.name() == Some("big.json"));
    let tally = &big.expect("big.json is reported").head.tally;
    assert!(tally.failed > 0 && tally.passed > 0, "{tally:?}");
}
