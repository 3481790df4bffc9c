//! `--jobs N`: oracles run in parallel, and what comes out (reports,
//! goldens, fuzz findings) is byte for byte the same for every N.
//!
//! The port is `cat` (each case is its own result) with a planted
//! divergence and a crash on one case, so that reports hold failures,
//! groups and an error found by bisection; the corpus is thirteen files,
//! so that every number of jobs has files to share.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use support::{golden_of, oracle, run, Corpus, Ran};

/// `cat`, except that it crashes on any batch holding the case "argv:
/// every option set", and prints FORCE_COLOR as "1".
const PORT: &str = r#"input=$(cat); case "$input" in *'argv: every option set'*) echo "port: crashed" >&2; exit 3;; esac; printf '%s' "$input" | sed 's/"FORCE_COLOR":"0"/"FORCE_COLOR":"1"/g'"#;

/// Thirteen case files with their goldens (each case its own result):
/// argv.json's second case crashes the port, its third diverges at
/// /value/FORCE_COLOR; twelve files of ops o0 to o3 pass.
fn corpus() -> Corpus {
    let corpus = Corpus::new();
    let argv = [
        r#"{"op":"argv","name":"argv: none","value":{}}"#,
        r#"{"op":"argv","name":"argv: every option set","value":{"all":true}}"#,
        r#"{"op":"argv","name":"argv: env","value":{"FORCE_COLOR":"0"}}"#,
        r#"{"op":"argv","name":"argv: more","value":{"n":4}}"#,
    ];
    corpus
        .case("argv.json", &format!("[{}]", argv.join(",")))
        .golden("argv.json", &golden_of(&argv));
    for file in 0..12 {
        let cases: Vec<String> = (0..3 + file % 4)
            .map(|n| {
                format!(
                    r#"{{"op":"o{}","name":"f{file} c{n}","v":{n}}}"#,
                    (file + n) % 4
                )
            })
            .collect();
        let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
        let name = format!("f{file:02}.json");
        corpus
            .case(&name, &format!("[{}]", cases.join(",")))
            .golden(&name, &golden_of(&cases));
    }
    corpus
}

const JOBS: [&str; 3] = ["1", "2", "4"];

fn run_jobs(dir: &Path, args: &[&str], jobs: &str) -> Ran {
    let mut full = args.to_vec();
    full.extend(["--jobs", jobs]);
    run(dir, &full)
}

#[test]
fn run_reports_are_the_same_for_every_number_of_jobs() {
    let corpus = corpus();
    for format in ["human", "json", "junit"] {
        let args = ["run", "--oracle", PORT, "--format", format];
        let ran: Vec<Ran> = JOBS
            .iter()
            .map(|jobs| run_jobs(corpus.path(), &args, jobs))
            .collect();
        assert_eq!(ran[0].code, 1, "{}", ran[0].stderr);
        if format == "human" {
            let stdout = &ran[0].stdout;
            assert!(stdout.contains("FAIL argv.json:"), "{stdout}");
            assert!(stdout.contains("\"argv: every option set\": the oracle exited"));
            assert!(
                stdout.contains("different at /value/FORCE_COLOR"),
                "{stdout}"
            );
        }
        for (jobs, other) in JOBS.iter().zip(&ran).skip(1) {
            assert!(
                other.stdout == ran[0].stdout,
                "--format {format} --jobs {jobs} differs from --jobs 1"
            );
            assert_eq!(other.code, ran[0].code);
        }
    }
}

/// Every file under `dir`, by relative path.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(dir).unwrap().to_path_buf();
            found.insert(relative, std::fs::read(entry.path()).unwrap());
        }
    }
    found
}

#[test]
fn bless_writes_the_same_goldens_for_every_number_of_jobs() {
    let corpus = corpus();
    let cases = corpus.join("cases");
    let cases = cases.to_str().unwrap();
    let mut results = Vec::new();
    for jobs in JOBS {
        let dir = tempfile::tempdir().unwrap();
        // The corpus's goldens to start from: the crashing case keeps
        // its element from them.
        let golden = dir.path().join("golden");
        std::fs::create_dir(&golden).unwrap();
        for (name, bytes) in files(&corpus.join("golden")) {
            std::fs::write(golden.join(name), bytes).unwrap();
        }
        // Relative, so that the reports name it alike.
        let golden = "golden";
        let args = [
            "bless",
            "--reference",
            PORT,
            "--cases",
            cases,
            "--golden",
            golden,
        ];
        let ran = run_jobs(dir.path(), &args, jobs);
        assert_eq!(ran.code, 2, "{ran:?}");
        let json = run_jobs(
            dir.path(),
            &[&args[..], &["--check", "--format", "json"]].concat(),
            jobs,
        );
        results.push((ran.stdout, json.stdout, files(dir.path())));
    }
    let (stdout, json, goldens) = &results[0];
    assert!(
        stdout.contains("ERROR #1 argv \"argv: every option set\" (crash)"),
        "{stdout}"
    );
    assert!(json.contains("\"failedCases\":1"), "{json}");
    assert_eq!(goldens.len(), 13);
    for (jobs, other) in JOBS.iter().zip(&results).skip(1) {
        assert!(other.0 == *stdout, "--jobs {jobs}: bless's report differs");
        assert!(
            other.1 == *json,
            "--jobs {jobs}: bless's JSON report differs"
        );
        assert!(other.2 == *goldens, "--jobs {jobs}: the goldens differ");
    }
}

/// A port for fuzzing: `cat` with op b's cases renamed, which crashes
/// on any batch holding a case whose `v` is 999.
fn fuzz_port(dir: &Path) -> String {
    let script = format!(
        "t=$(mktemp '{dir}/batch.XXXXXX'); cat > \"$t\"\n\
         if grep -q '\"v\":999[,}}]' \"$t\"; then rm -f \"$t\"; echo died >&2; exit 3; fi\n\
         sed 's/\"op\":\"b\"/\"op\":\"B\"/g' < \"$t\"; rm -f \"$t\"\n",
        dir = dir.display()
    );
    let path = dir.join("port.sh");
    std::fs::write(&path, script).unwrap();
    format!("sh '{}'", path.display())
}

/// The closing line without its time and rate.
fn timeless(summary: &str) -> String {
    let start = summary.find(" cases in ").expect("a summary") + " cases".len();
    let end = summary.find("/s), ").expect("a rate") + "/s)".len();
    format!("{}{}", &summary[..start], &summary[end..])
}

#[test]
fn fuzz_finds_the_same_for_every_number_of_jobs() {
    let scratch = tempfile::tempdir().unwrap();
    let left = fuzz_port(scratch.path());
    let generator = oracle::generator(scratch.path());
    let mut results = Vec::new();
    for jobs in JOBS {
        // Each session in a directory of its own, writing to `out` there,
        // so that the reports name the files alike.
        let dir = tempfile::tempdir().unwrap();
        let fuzz = |format: &str| {
            Command::new(env!("CARGO_BIN_EXE_parity-diff"))
                .args(["fuzz", "--left", &left, "--right", "cat"])
                .args(["--seed", "5", "--count", "1500"])
                .args(["--batch-size", "250", "--op", "a"])
                .args(["--generator", &generator])
                .args(["--op", "b", "--op", "c"])
                .args(["--jobs", jobs, "--format", format, "--out", "out"])
                .current_dir(dir.path())
                .output()
                .unwrap()
        };
        let human = fuzz("human");
        assert_eq!(human.status.code(), Some(1), "{human:?}");
        let human = String::from_utf8(human.stdout).unwrap();
        let (body, last) = human.trim_end().rsplit_once('\n').unwrap();
        // A second session finds what the first wrote: files unchanged.
        let json = fuzz("json");
        let mut json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        json.as_object_mut().unwrap().remove("seconds");
        results.push((
            body.to_owned(),
            timeless(last),
            json,
            files(&dir.path().join("out")),
        ));
    }
    let (body, last, json, found) = &results[0];
    assert!(body.contains("crash (left)"), "{body}");
    assert!(last.contains("1500 cases"), "{last}");
    assert!(found.len() >= 2, "{found:?}");
    assert!(json["divergences"].as_array().unwrap().len() >= 2);
    for (jobs, other) in JOBS.iter().zip(&results).skip(1) {
        assert!(other.0 == *body, "--jobs {jobs}: the divergences differ");
        assert_eq!(other.1, *last, "--jobs {jobs}");
        assert_eq!(other.2, *json, "--jobs {jobs}");
        assert!(
            other.3 == *found,
            "--jobs {jobs}: the regression files differ"
        );
    }
}

#[test]
fn jobs_must_be_at_least_one() {
    let corpus = corpus();
    let ran = run(corpus.path(), &["run", "--oracle", "cat", "--jobs", "0"]);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("--jobs"), "{}", ran.stderr);
    let ran = run(corpus.path(), &["run", "--oracle", "cat", "--jobs", "many"]);
    assert_eq!(ran.code, 2);
}
