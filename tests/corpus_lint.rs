//! The bundled corpus passes the corpus lint (`diff::lint`): no
//! placeholder strings, every object case named once, names that match
//! their op, no case twice.

mod support;

use support::{json_files, repo_root};
use worker_spawn_oracle::diff::lint::lint_case_file;

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
    let mut findings = Vec::new();
    for file in &files {
        let bytes = std::fs::read(cases_dir.join(file)).expect("the case file reads");
        let name = format!("cases/{}", file.display());
        findings.extend(lint_case_file(&name, &bytes));
    }
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
