//! The bundled corpus: every `cases/**/*.json` run through the binary must
//! print, element by element, the bytes of `golden/` (made by the
//! reference implementation).

use crate::support;

use support::{elements, json_files, repo_root, run_oracle};

fn case_label(cases: &serde_json::Value, index: usize) -> String {
    let case = &cases[index];
    let op = case.get("op").map_or("-".to_owned(), |op| op.to_string());
    let name = case.get("name").and_then(|n| n.as_str()).unwrap_or("");
    format!("#{index} {op} {name}")
}

#[test]
fn every_case_file_matches_its_golden_byte_for_byte() {
    let cases_dir = repo_root().join("cases");
    let golden_dir = repo_root().join("golden");
    let files = json_files(&cases_dir);
    assert!(!files.is_empty(), "the corpus is empty");
    let mut failures = Vec::new();
    let mut compared = 0;
    for file in &files {
        let input = std::fs::read(cases_dir.join(file)).expect("case file reads");
        let golden_path = golden_dir.join(file);
        let Ok(golden) = std::fs::read(&golden_path) else {
            failures.push(format!(
                "{}: no golden at {}",
                file.display(),
                golden_path.display()
            ));
            continue;
        };
        let output = run_oracle(&input);
        assert!(
            output.status.success(),
            "{}: exit {:?}",
            file.display(),
            output.status
        );
        assert!(
            output.stdout.last() == Some(&b']'),
            "{}: output must end at the array",
            file.display()
        );
        let ours = elements(&output.stdout);
        let expected = elements(&golden);
        let cases: serde_json::Value =
            serde_json::from_slice(&input).unwrap_or(serde_json::Value::Null);
        if ours.len() != expected.len() {
            failures.push(format!(
                "{}: {} results, golden has {}",
                file.display(),
                ours.len(),
                expected.len()
            ));
            continue;
        }
        for (index, (ours, expected)) in ours.iter().zip(&expected).enumerate() {
            compared += 1;
            if ours != expected {
                failures.push(format!(
                    "{} {}\n  ours:   {}\n  golden: {}",
                    file.display(),
                    case_label(&cases, index),
                    String::from_utf8_lossy(&ours[..ours.len().min(400)]),
                    String::from_utf8_lossy(&expected[..expected.len().min(400)]),
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} results differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_golden_has_a_case_file() {
    let cases = json_files(&repo_root().join("cases"));
    let orphans: Vec<_> = json_files(&repo_root().join("golden"))
        .into_iter()
        .filter(|golden| !cases.contains(golden))
        .collect();
    assert!(
        orphans.is_empty(),
        "goldens without case files: {orphans:?}"
    );
}

#[test]
fn goldens_are_in_the_golden_format() {
    for file in json_files(&repo_root().join("golden")) {
        let bytes = std::fs::read(repo_root().join("golden").join(&file)).unwrap();
        let reformatted = parity_diff::judge::golden::golden_from_output(&bytes).unwrap();
        assert!(
            bytes == reformatted,
            "{} is not in the golden format",
            file.display()
        );
        assert!(
            !bytes.contains(&b'\r'),
            "{} has a carriage return",
            file.display()
        );
    }
}
