//! The bundled corpus passes the corpus lint (`diff::lint`): no
//! placeholder strings, every object case named once, names that match
//! their op, no case twice. So does the toy cluster's, with the op names
//! its suite's `ops` key gives (the lint knows no contract: its ops are
//! the caller's).

use crate::support;

use std::path::Path;

use parity_diff::corpus::lint::{lint_case_file, Finding};
use support::{json_files, repo_root};
use worker_spawn_oracle::ops::OPS;

/// The findings of every case file under `cases_dir`, named from `shown`.
fn lint_dir(cases_dir: &Path, shown: &str, ops: &[&str]) -> Vec<Finding> {
    let files = json_files(cases_dir);
    assert!(
        !files.is_empty(),
        "no case file under {}",
        cases_dir.display()
    );
    let mut findings = Vec::new();
    for file in &files {
        let bytes = std::fs::read(cases_dir.join(file)).expect("the case file reads");
        let name = format!("{shown}/{}", file.display());
        findings.extend(lint_case_file(&name, &bytes, ops));
    }
    findings
}

fn assert_none(findings: &[Finding]) {
    assert!(
        findings.is_empty(),
        "the corpus lint found {} problem(s):\n{}",
        findings.len(),
        findings
            .iter()
            .map(|finding| format!("  {finding}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn every_case_file_passes_the_corpus_lint() {
    let cases_dir = repo_root().join("cases");
    let files = json_files(&cases_dir);
    assert!(
        files.len() >= 10,
        "expected the whole corpus under {}, found {} files",
        cases_dir.display(),
        files.len()
    );
    let ops: Vec<&str> = OPS.iter().map(|spec| spec.name).collect();
    assert_none(&lint_dir(&cases_dir, "cases", &ops));
}

#[test]
fn the_toy_clusters_corpus_passes_the_corpus_lint_with_its_suites_ops() {
    let dir = repo_root().join("tests/toy-cluster");
    let config =
        parity_diff::corpus::config::load(&dir.join("parity.toml")).expect("its parity.toml");
    let suite = &config.suites[0];
    let ops = suite.ops.as_ref().expect("the toy suite names its ops");
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    assert_none(&lint_dir(&suite.cases_dir(&config.dir), "cases", &ops));
    // A name that starts with one of those ops, on a case of another, is
    // found: the lint checks the suite's ops, not the contract's.
    let findings = lint_case_file(
        "t.json",
        br#"[{"name":"keys: on a sum case","op":"sum","values":[]}]"#,
        &ops,
    );
    assert_eq!(findings.len(), 1, "{findings:?}");
}
