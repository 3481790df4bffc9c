//! parity-diff knows no contract: its crate (`crates/parity-diff`: the
//! library, the generic fuzz code in its `src/fuzz`, the binary, its benches
//! and tests) and `crates/case-tree` names no op of the worker-spawn contract and imports none
//! of its modules (`ops`, `batch`, `scratch`, `ipc`, `generate`), in
//! code, tests and comments alike, so that it can compare any contract's
//! ports. The crate boundary keeps it from depending on this package
//! (`.ci/run` checks that from `cargo metadata`); this keeps the names
//! out.

use crate::support;

use std::path::Path;

use worker_spawn_oracle::ops::OPS;

/// The contract's modules, which the generic code must not import.
const CONTRACT_MODULES: &[&str] = &["ops", "batch", "scratch", "ipc", "generate"];

/// What in `text` names the contract: an op as a whole word, or a path
/// into one of its modules; one line each, with its number.
fn contract_words(file: &str, text: &str, ops: &[&str]) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for (at, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split(|c: char| !word(c)).collect();
        for op in ops {
            if words.contains(op) {
                found.push(format!(
                    "{file}:{}: names the op {op}: {}",
                    at + 1,
                    line.trim()
                ));
            }
        }
        for module in CONTRACT_MODULES {
            for prefix in ["crate::", "worker_spawn_oracle::", "super::super::"] {
                let path = format!("{prefix}{module}");
                let imports = line.match_indices(&path).any(|(start, _)| {
                    let after = line[start + path.len()..].chars().next();
                    let before = line[..start].chars().next_back();
                    !after.is_some_and(word) && !before.is_some_and(word)
                });
                if imports {
                    found.push(format!("{file}:{}: uses {path}: {}", at + 1, line.trim()));
                }
            }
        }
    }
    found
}

/// The files of parity-diff's crate and of case-tree, the crate it shares
/// with the contract's generators.
fn generic_files(root: &Path) -> Vec<std::path::PathBuf> {
    ["crates/parity-diff", "crates/case-tree"]
        .iter()
        .flat_map(|crate_dir| walkdir::WalkDir::new(root.join(crate_dir)))
        .map(|entry| entry.unwrap().into_path())
        .filter(|path| path.is_file())
        .collect()
}

#[test]
fn the_generic_code_names_no_op_and_imports_no_contract_module() {
    let root = support::repo_root();
    let ops: Vec<&str> = OPS.iter().map(|spec| spec.name).collect();
    let files = generic_files(&root);
    assert!(
        files.len() > 80,
        "{} files: was the code moved?",
        files.len()
    );
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        found.extend(contract_words(&name, &text, &ops));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_check_sees_ops_and_imports_and_nothing_else() {
    let ops = ["cliArgs", "preflight"];
    let text = "use crate::ops::OPS;\n\
                let a = \"cliArgs\"; // preflightLine, cliArgsX\n\
                crate::batch::run(x); crate::batches; my_crate::ipc::x;\n\
                //! worker_spawn_oracle::scratch and super::super::generate\n\
                parity_diff::exec::oracle; preflight\n";
    assert_eq!(
        contract_words("f.rs", text, &ops),
        [
            "f.rs:1: uses crate::ops: use crate::ops::OPS;",
            "f.rs:2: names the op cliArgs: let a = \"cliArgs\"; // preflightLine, cliArgsX",
            "f.rs:3: uses crate::batch: crate::batch::run(x); crate::batches; my_crate::ipc::x;",
            "f.rs:4: uses worker_spawn_oracle::scratch: //! worker_spawn_oracle::scratch and super::super::generate",
            "f.rs:4: uses super::super::generate: //! worker_spawn_oracle::scratch and super::super::generate",
            "f.rs:5: names the op preflight: parity_diff::exec::oracle; preflight",
        ]
    );
}
