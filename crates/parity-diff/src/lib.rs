//! Comparing result arrays with goldens made by another implementation:
//! the library behind `parity-diff`. It knows no contract: it depends on
//! `js-exact` and `sys-unix` only, and runs every oracle, ours too, as a
//! command.
//!
//! Grouped by stage, in the order a run goes:
//! - [`config`]: `parity.toml`, a project's suites
//!   ([`command::suites`]: `run` over several of them into one report).
//! - [`command`]: one module per command: [`arrays`](command::arrays)
//!   (`compare`, and the input checks every command shares),
//!   [`run`](mod@command::run), [`accept`](command::accept),
//!   [`bless`](command::bless), [`merge`](command::merge) and
//!   [`delta`](command::delta); `merge` and `delta` read reports back with
//!   [`report::json`]'s reader.
//! - [`corpus`]: what a run reads before any oracle runs: the corpus's
//!   files, `--filter` ([`glob`](corpus::glob)), case files
//!   ([`cases`](corpus::cases)), the plan of a run (`--op`, `--shard`:
//!   [`plan`](mod@corpus::plan)), stable case identities
//!   ([`identity`](corpus::identity)), the corpus lint
//!   ([`lint`](corpus::lint)).
//! - [`exec`]: oracles run: one batch through an oracle command in a
//!   process group of its own ([`oracle`](exec::oracle)), `--jobs`
//!   ([`pool`](exec::pool)), one case file through an oracle and
//!   bisected when it fails ([`execute`](exec::execute),
//!   [`bisect`](exec::bisect)), one file of `run`
//!   ([`file_run`](exec::file_run)), large files streamed
//!   ([`stream`](exec::stream)).
//! - [`judge`]: elements to verdicts, weighed against the ledger in use:
//!   the one reader of JSON arrays ([`scan`](judge::scan)), the golden
//!   format ([`golden`](judge::golden)), the one pairing of cases and
//!   results ([`pairing`](judge::pairing)), the verdict on one element
//!   ([`compare`](judge::compare)) and why ([`explain`](judge::explain),
//!   [`pointer`](mod@judge::pointer), [`raw`](judge::raw),
//!   [`textdiff`](judge::textdiff), where two long strings first differ:
//!   [`first_difference`](judge::first_difference)).
//! - [`record`]: one record per case, everything any report needs;
//!   [`report`]: the sink that tallies, groups and spools records, the one
//!   table of formats by command, and the formats.
//! - [`ledger`]: a port's known divergences.
//! - [`fuzz`]: cases from a generator command or mutated from a corpus,
//!   through two oracles, each divergence minimized (`parity-diff fuzz`),
//!   and findings promoted into the corpus ([`promote`](fuzz::promote)).
//! - [`coverage`]: `parity-diff coverage` and `cmin`, how much of a Node
//!   reference the corpus runs (docs/COVERAGE.md).
//! - [`progress`]: `parity-diff progress`, per-op counts kept in a
//!   committed file and read back over its history in git
//!   (docs/PROGRESS.md).
//!
//! Across every stage: [`outside`]: text from case files, file names,
//! ledgers and ports, made harmless for every output (no control
//! characters, no workflow commands); [`redact`]: secrets kept out of
//! reports; [`files`]: the one way files are written; [`error`]: the
//! input error every command reports as exit status 2; [`columns`]: how
//! wide text is on a terminal, for what lines text up for people.
pub mod base;
pub mod command;
pub mod corpus;
pub mod coverage;
pub mod exec;
pub mod fuzz;
pub mod judge;
pub mod ledger;
pub mod progress;
pub mod record;
pub mod report;
