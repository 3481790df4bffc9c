//! The example partial port's Markdown report on the bundled corpus:
//! headline, per-op table with the JSON report's counts, the failure
//! groups. The rest of --format markdown is parity-diff's own tests'
//! (crates/parity-diff/tests/markdown.rs).

use crate::parity_diff_support as support;

use js_exact::{self as js, TextMode, Value};
use support::{assert_markdown_well_formed, require_python3, root, run, EXAMPLE_PORT};

fn number(value: &Value) -> usize {
    value.as_number().unwrap() as usize
}

/// (op, passed, accepted, failed) of a JSON report's byOp, and its
/// summary's (passed, failed, accepted).
fn counts(report: &str) -> (Vec<(String, [usize; 3])>, [usize; 3]) {
    let report = report.to_owned();
    // The bundled corpus nests 20 000 levels deep: read the report with
    // our own reader, on a thread with room for it.
    std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(move || {
            let report = js::parse(report.as_bytes(), TextMode::LossyUtf8).unwrap();
            let by_op = report.get("byOp").as_object().unwrap();
            let ops = by_op
                .iter()
                .map(|(op, tally)| {
                    let get = |key| number(tally.get(key));
                    (
                        op.to_utf8_lossy().into_owned(),
                        [get("passed"), get("accepted"), get("failed")],
                    )
                })
                .collect();
            let summary = report.get("summary");
            let get = |key| number(summary.get(key));
            (ops, [get("passed"), get("failed"), get("accepted")])
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
#[ignore = "needs python3"]
fn the_example_ports_markdown_report() {
    require_python3();
    let json = run(
        root(),
        &["run", "--oracle", EXAMPLE_PORT, "--format", "json"],
    );
    assert_eq!(json.code, 1, "{}", json.stderr);
    let (ops, [passed, failed, accepted]) = counts(&json.stdout);
    let ran = run(
        root(),
        &["run", "--oracle", EXAMPLE_PORT, "--format", "markdown"],
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(ran.stderr, "");
    let md = &ran.stdout;
    assert_markdown_well_formed(md);
    assert!(
        md.starts_with(&format!(
            "## ❌ parity-diff run: failed\n\n\
             **{passed}** passed · **{failed}** failed · **{accepted}** accepted\n\n\
             Exit status 1: failures ("
        )),
        "{md}"
    );
    // The per-op table holds the JSON report's counts, with a bar each.
    assert!(md.contains(
        "### Per op\n\n| op | passed | accepted | failed | identical |\n|:--|--:|--:|--:|:--|\n"
    ));
    let mut plain = 0;
    for (op, [p, a, f]) in &ops {
        if op.is_empty() || !op.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        plain += 1;
        let percent = p * 100 / (p + a + f);
        let row = format!("\n| `{op}` | {p} | {a} | {f} | `");
        let at = md
            .find(&row)
            .unwrap_or_else(|| panic!("no row {row:?}:\n{md}"));
        let line = md[at + 1..].lines().next().unwrap();
        assert!(line.ends_with(&format!("` {percent}% |")), "{line}");
    }
    assert!(plain > 20, "{ops:?}");
    assert!(md.contains("\n| `envOverlay` | 32 | 0 | 0 | `████████████████████` 100% |\n"));
    assert!(md.contains(&format!(
        "\n| **all** | **{passed}** | **{accepted}** | **{failed}** | `"
    )));
    assert!(md.contains("\nBars: █ passed, ▒ accepted, ░ failed.\n"));
    // The ops that implement nothing: one row each.
    assert!(md.contains(
        "| op | cases | the port threw |\n|:--|--:|:--|\n| (no op) | 9 | `\"not implemented\"` |\n\
         | (unknown op) | 20 | `\"not implemented\"` |\n"
    ));
    assert!(md.contains("\n| `cliArgs` | 121 | `\"not implemented\"` |\n"));
    // The rounding bug, in full: where, what, and the details.
    let group = concat!(
        "### Failures: 1 group, 1 case\n\n",
        "#### 1. `readyTimeoutMs: different at /value (golden number, port number)` (1 case)\n\n",
        "**failed** `cases/env-ready.json:104` `#102 readyTimeoutMs \"readyTimeoutMs: fractional\"`: ",
        "`different at /value`\n\n",
        "<details><summary>input, differences, golden and actual</summary>\n\n",
        "Input:\n\n```json\n",
        "{\"name\":\"readyTimeoutMs: fractional\",\"op\":\"readyTimeoutMs\",\"configured\":1500.9}\n",
        "```\n\n",
        "Differences:\n\n```diff\nat /value\n  golden: 1500\n  actual: 1501\n```\n\n",
        "Golden:\n\n```json\n{\n  \"defined\": true,\n  \"value\": 1500\n}\n```\n\n",
        "Actual:\n\n```json\n{\n  \"defined\": true,\n  \"value\": 1501\n}\n```\n\n",
        "</details>\n\n",
    );
    assert!(md.ends_with(group), "{md}");
}
