//! The worker-spawn oracle's integration tests: one test crate, one
//! module per subject, so that the workspace links this package's tests
//! once instead of once per file. The three modules that measure a
//! child's peak memory (faults_output, faults_scratch, parity_diff_faults)
//! are test crates of their own (`tests/peak/`): a child's peak counts the
//! memory of the process that spawned it, which here would be every other
//! module's. Tests that need nothing of the worker-spawn contract (its
//! oracle binary, `cases/`, `golden/`, the example port) live in
//! parity-diff's own tests (`crates/parity-diff/tests/main.rs`).

mod ipc_support;
mod parity_diff_support;
mod support;

mod bad_input;
mod book;
mod book_examples;
mod corpus;
mod corpus_lint;
mod corpus_ops;
mod corpus_spellings;
mod coverage;
mod coverage_grow;
mod deep_op_text;
mod fuzz_planted;
mod fuzz_rounding;
mod fuzz_session;
mod grow_regain;
mod hardening;
mod html_report;
mod ignored_tests;
mod ipc_corpus;
mod ipc_matrix;
mod ipc_process;
mod large_strings;
mod layering;
mod no_contract;
mod node_json_parity;
mod parity_diff_bless;
mod parity_diff_github;
mod parity_diff_markdown;
mod parity_diff_merge;
mod parity_diff_port;
mod parity_diff_report_rows;
mod parity_diff_rerun;
mod parity_diff_rules;
mod parity_diff_run;
mod parity_diff_stream;
mod parity_diff_suites;
mod reference_bytes;
mod reference_wrong_types;
mod snapshots;
mod stateful_process;
mod stateful_properties;
mod toy_cluster;
