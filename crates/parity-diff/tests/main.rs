//! parity-diff's integration tests: one test crate, one module per
//! subject. They run the built `parity-diff` against corpora laid out in
//! temporary directories and fixture oracles of their own (a few lines
//! of sh or python3, see `support::oracle`); none runs node, the
//! worker-spawn oracle or reads the bundled corpus. The tests of that
//! oracle, and of the two together on the bundled corpus, are the root
//! package's (`tests/main.rs` at the workspace's root).

mod support;

mod blame;
mod bless;
mod color;
mod compare;
mod config;
mod coverage_plumbing;
mod daily_support;
mod delta;
mod delta_budget;
mod errors;
mod files;
mod framing;
mod fuzz;
mod fuzz_any;
mod fuzz_broken;
mod fuzz_ledger;
mod fuzz_long_op;
mod fuzz_out;
mod fuzz_quiet;
mod github;
mod glob_bounds;
mod hostile_config;
mod invalid_elements;
mod jobs;
mod junit_skipped;
mod known_batches;
mod known_crashes;
mod leaks;
mod ledger;
mod ledger_place;
mod markdown;
mod memory;
mod merge;
mod merge_forged;
mod numbers;
mod outside_text;
mod partial_port;
mod progress;
mod repeat;
mod report_rows;
mod reports;
mod rerun;
mod rerun_kinds;
mod review;
mod rules;
mod run;
mod second_contract_rules;
mod secrets;
mod secrets_in_structure;
mod standalone;
mod stream;
mod suites;
mod timings;
mod triaged;
mod unredacted;
mod words;
mod your_contract;
