//! Every op of the contract has cases in the corpus (`cases/`), so that an
//! op added to `ops::OPS` fails here until its cases, and their goldens
//! from the reference, are written.

use crate::support;

use js_exact::{parse, TextMode};

#[test]
fn every_op_has_cases_in_the_corpus() {
    let dir = support::repo_root().join("cases");
    let mut names = Vec::new();
    for file in support::json_files(&dir) {
        let bytes = std::fs::read(dir.join(&file)).unwrap();
        let cases = parse(&bytes, TextMode::LossyUtf8)
            .unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        for case in cases.as_array().unwrap_or_default() {
            if let Some(op) = case.get("op").as_js_string() {
                names.push(op.to_string());
            }
        }
    }
    let missing: Vec<&str> = worker_spawn_oracle::ops::OPS
        .iter()
        .map(|spec| spec.name)
        .filter(|name| !names.iter().any(|op| op == name))
        .collect();
    assert!(missing.is_empty(), "no corpus case for {missing:?}");
}
