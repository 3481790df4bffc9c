//! Coverage of a Node reference by a corpus (`parity-diff coverage`,
//! `parity-diff cmin`): each case run alone with V8's coverage on
//! ([`collect`], [`v8`]), ranges made counts ([`ranges`]), the script's
//! text, lines and source map ([`source`], [`sourcemap`]), its spans and
//! the cases that reach each ([`spans`], [`reach`]), never-run spans
//! against the allowlist and per-op figures ([`analysis`],
//! [`allowlist`], [`attribution`]), the smallest cover ([`cmin`]), what a
//! batch reaches beyond the corpus ([`novelty`]), the coverage-guided
//! fuzzer that grows the corpus with it (`fuzz --grow`: [`grow`]), the
//! reports ([`report`]) and the commands ([`command`]).
//! docs/COVERAGE.md says how. Generic: nothing here knows the contract
//! or imports its modules (`tests/no_contract.rs` checks).
pub mod allowlist;
pub mod analysis;
pub mod attribution;
pub mod cmin;
pub mod collect;
pub mod command;
pub mod grow;
pub mod measure;
pub mod novelty;
pub mod ranges;
pub mod reach;
pub mod report;
pub mod source;
pub mod sourcemap;
pub mod spans;
pub mod v8;
