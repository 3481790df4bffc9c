//! GitHub Actions' annotations for the example partial port on the
//! bundled corpus: ten annotations and a notice. The rest of GitHub
//! Actions (annotations, the job summary, JUnit) is parity-diff's own
//! tests' (crates/parity-diff/tests/github.rs).

use crate::parity_diff_support as support;

use std::path::Path;

use support::{require_python3, root, run_with, Ran, EXAMPLE_PORT};

fn in_actions(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let mut all = vec![("GITHUB_ACTIONS", "true")];
    all.extend_from_slice(env);
    run_with(dir, args, b"", &all)
}

fn annotations(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|line| line.starts_with("::"))
        .collect()
}

#[test]
#[ignore = "needs python3"]
fn the_example_port_gets_ten_annotations_and_a_notice() {
    require_python3();
    let plain = run_with(
        root(),
        &["run", "--oracle", EXAMPLE_PORT, "--format", "json"],
        b"",
        &[],
    );
    assert_eq!(plain.code, 1, "{}", plain.stderr);
    assert_eq!(plain.stderr, "");
    let ran = in_actions(
        root(),
        &["run", "--oracle", EXAMPLE_PORT, "--format", "json"],
        &[],
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    // The report on stdout is the same; the annotations are on stderr.
    assert_eq!(ran.stdout, plain.stdout);
    let lines = annotations(&ran.stderr);
    assert_eq!(lines.len(), 11, "{}", ran.stderr);
    // The group that is not a whole op throwing "not implemented" first.
    assert_eq!(
        lines[0],
        "::error file=cases/env-ready.json,line=104,title=readyTimeoutMs::readyTimeoutMs: \
         different at /value (golden number, port number) — 1 case, the first #102 \
         readyTimeoutMs \"readyTimeoutMs: fractional\": different at /value"
    );
    let mut annotated = 0;
    for line in &lines[..10] {
        assert!(line.starts_with("::error file=cases/"), "{line}");
        assert!(line.contains(".json,line="), "{line}");
        let count = line.split(" — ").nth(1).unwrap().split(' ').next().unwrap();
        annotated += count.parse::<usize>().unwrap();
    }
    let groups = plain.stdout.split("\"groups\":[").nth(1).unwrap();
    let groups = groups.split("],\"byOp\"").next().unwrap();
    let group_count = groups.matches("{\"signature\":").count();
    let failed: usize = plain
        .stdout
        .split("\"summary\":{\"passed\":")
        .nth(1)
        .and_then(|rest| rest.split("\"failed\":").nth(1))
        .and_then(|rest| rest.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        lines[10],
        format!(
            "::notice title=parity-diff::{} more failure groups ({} cases) not annotated: \
             GitHub shows 10 annotations per step; the report lists them",
            group_count - 10,
            failed - annotated
        )
    );
}
