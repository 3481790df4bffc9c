//! `parity-diff accept`: runs the corpus as `run` does and records every
//! new or changed divergence in the selection in the ledger, with the
//! reason given; `--prune` removes the entries of cases that pass now
//! (stale) and, on a full run, of cases that are gone (orphaned). It
//! prints what it added, changed and removed, and writes the ledger
//! atomically, keeping its permissions, holding the ledger's lock from
//! before it reads the ledger until it has written it
//! ([`LedgerLock`]): two at once never lose each other's entries.
//!
//! It refuses to run without `--reason` (unless it only prunes), and in
//! CI (the `CI` variable set) unless forced: a pipeline must not accept
//! its own divergences.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::base::error::InputError;
use crate::command::run::{run_corpus, RunArgs};
use crate::corpus::identity::CaseId;
use crate::exec::verdicts::LedgerUse;
use crate::judge::signature::cause_of;
use crate::ledger::lock::LedgerLock;
use crate::ledger::rules::{Form, Match, Rule, RuleFinding};
use crate::ledger::Entry;
use crate::report::formats::{self, Command, Renderer};
use crate::report::record::{CaseRecord, CaseState, EntryState};
use crate::report::render::Render;
use crate::report::{
    Consumer, FileInfo, Format, LedgerChanges, Problem, ReportOptions, RunInfo, Sink,
};
use edits::{framing_rules, one_line, op_rule, plain_message, said, Change, Divergence};
use errors::{Errors, NAMED_ERRORS};
use render::{ChangeLines, ChangesEnd};

pub mod edits;
mod errors;
mod render;

/// The `accept` command's inputs.
#[derive(Debug, Clone)]
pub struct AcceptArgs {
    /// The run (its `ledger` is the ledger to write).
    pub run: RunArgs,
    /// Why the divergences are accepted.
    pub reason: Option<String>,
    /// Record them as known bugs rather than deliberate differences.
    pub triaged: bool,
    /// Where a triaged bug is tracked.
    pub link: Option<String>,
    /// Remove stale and orphaned entries and rules.
    pub prune: bool,
    /// Write one rule for each op whose every divergence has one form
    /// (`--rule`), entries for the rest.
    pub rule: bool,
    /// `--case FILE:NAME`: accept only these cases (every case when
    /// empty).
    pub cases: Vec<String>,
    /// Write even in CI.
    pub force: bool,
}

/// `--case FILE:NAME`, split at the first `:` (a case's name holds
/// colons more often than a file's).
fn wanted_cases(given: &[String]) -> Result<Vec<(String, String)>, InputError> {
    given
        .iter()
        .map(|text| match text.split_once(':') {
            Some((file, name)) if !file.is_empty() && !name.is_empty() => {
                Ok((file.to_owned(), name.to_owned()))
            }
            _ => Err(InputError::new(format!(
                "--case {text:?}: FILE:NAME, the case file and the case's name"
            ))),
        })
        .collect()
}

/// Watches a run's records on their way to the report.
struct Collector<W: Write> {
    sink: Sink<W>,
    found: Found,
    errors: Errors,
    /// The current file: its name, its first input error, and how many
    /// cases it compared.
    file_name: String,
    file_error: Option<(String, bool)>,
    file_cases: usize,
    /// `--case`: the cases to accept, and whether each was met diverging.
    wanted: Vec<((String, String), bool)>,
}

impl<W: Write> Consumer for Collector<W> {
    fn explains(&self) -> bool {
        true
    }

    fn fingerprints(&self) -> bool {
        true
    }

    fn wants_detail(&self, _record: &CaseRecord) -> bool {
        // Paths go into the ledger.
        true
    }

    fn wants_passing(&self) -> bool {
        self.sink.wants_passing()
    }

    fn counted(
        &mut self,
        op: Option<&str>,
        unknown_op: bool,
        state: CaseState,
        cases: u64,
    ) -> io::Result<()> {
        self.file_cases += cases as usize;
        self.sink.counted(op, unknown_op, state, cases)
    }

    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        // A golden without a case file has no path: it ran nothing.
        self.found.files += usize::from(file.path.is_some());
        self.file_name = file.name.clone().unwrap_or_else(|| "-".into());
        self.file_error = None;
        self.file_cases = 0;
        self.sink.begin_file(file)
    }

    fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        self.file_cases += 1;
        match record.state {
            CaseState::New | CaseState::Changed => {
                let name = record.name.as_deref();
                let mut wanted = self.wanted.is_empty();
                for ((file, wanted_name), met) in &mut self.wanted {
                    if *file == record.id.file && Some(wanted_name.as_str()) == name {
                        (*met, wanted) = (true, true);
                    }
                }
                if wanted {
                    self.found.entries.push(Divergence::of(&record));
                }
            }
            CaseState::Stale => self.found.stale.push(record.id.clone()),
            _ => {}
        }
        self.sink.case(record)
    }

    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        if let Problem::Framing { state, .. } = &problem {
            if !state.passes() {
                self.found.framing.push(self.file_name.clone());
            }
        }
        if let Problem::Error { message, port, .. } = &problem {
            self.file_error
                .get_or_insert_with(|| (message.clone(), *port));
        }
        self.sink.problem(problem)
    }

    fn warning(&mut self, text: &str) -> io::Result<()> {
        self.sink.warning(text)
    }

    fn end_file(&mut self) -> io::Result<()> {
        if let Some((message, port)) = self.file_error.take() {
            if self.file_cases == 0 {
                self.errors.files += 1;
                self.errors.port_files += usize::from(port);
                if self.errors.named_files.len() < NAMED_ERRORS {
                    let text = format!("{}: {message}", self.file_name);
                    self.errors.named_files.push(text);
                }
            } else {
                self.errors.split += 1;
            }
        }
        self.sink.end_file()
    }

    fn orphaned_entry(&mut self, entry: &Entry) {
        self.found.orphaned.push(entry.id.clone());
        self.sink.orphaned_entry(entry);
    }

    fn rule_finding(&mut self, finding: &RuleFinding) {
        self.found.rules.push(finding.clone());
        Consumer::rule_finding(&mut self.sink, finding);
    }
}

/// Runs `accept`; `in_ci` is whether the `CI` variable is set. Returns the
/// exit status: 0 done, 1 when the port failed on whole
/// files, 2 when some could not be read (their entries are left alone;
/// the rest is written).
pub fn accept_command(
    args: &AcceptArgs,
    in_ci: bool,
    mut out: impl Write,
) -> Result<u8, InputError> {
    let renderer = Command::Accept.check(args.run.report.format)?;
    if in_ci && !args.force {
        return Err(InputError::new(
            "refusing to change the ledger in CI (the CI environment variable is set); \
             use --force to write anyway",
        ));
    }
    if args.reason.is_none() && !args.prune {
        return Err(InputError::new(
            "accept needs --reason TEXT, saying why these divergences are acceptable \
             (only --prune runs without one)",
        ));
    }
    if let Some(reason) = &args.reason {
        one_line("--reason", reason)?;
    }
    if let Some(link) = &args.link {
        one_line("--link", link)?;
        if !args.triaged {
            return Err(InputError::new("--link goes with --triaged"));
        }
    }
    let run = &args.run;
    let path = run.ledger_path();
    // Held from before the ledger is read until it is written, and
    // dropped on every way out.
    let lock = LedgerLock::acquire(&path)?;
    let mut ledger = LedgerUse::open(Some(&path), &run.corpus.cases, true)?
        .ok_or_else(|| InputError::new("no ledger to write"))?;
    let info = RunInfo {
        command: "accept",
        ledger: Some(ledger.info()),
        unredacted: run.unredacted(),
        ..RunInfo::default()
    };
    // The formats that can hold the run's report show it, the ledger's
    // changes in it; the text prints the changes alone.
    let run_shown = match renderer {
        Renderer::LedgerChanges => false,
        Renderer::Json | Renderer::Markdown | Renderer::Html => true,
        other => return Err(formats::not_mine(Command::Accept, other)),
    };
    if run_shown {
        let collector = collect(args, &mut ledger, Sink::new(&mut out, run.report, info))?;
        let status = exit_status(&collector.sink.totals(), &collector.errors);
        let (changes, left) = apply(args, &mut ledger, &lock, collector.found)?;
        let changes = ledger_changes(&changes, &ledger, left);
        collector.sink.finish_with(Some(&changes))?;
        Ok(status)
    } else {
        // The run's records are only counted, as cheaply as can be.
        let options = ReportOptions {
            format: Format::Human,
            quiet: true,
            ..run.report
        };
        let unredacted =
            info.unredacted_notice(|suite| crate::base::outside::text(suite).into_owned());
        let collector = collect(args, &mut ledger, Sink::new(io::sink(), options, info))?;
        let status = exit_status(&collector.sink.totals(), &collector.errors);
        let errors = collector.errors.clone();
        let (changes, left) = apply(args, &mut ledger, &lock, collector.found)?;
        let end = ChangesEnd {
            changes: &changes,
            ledger: &ledger,
            left,
            errors: &errors,
            unredacted,
        };
        ChangeLines.finish(&mut out, end)?;
        Ok(status)
    }
}

/// `accept`'s exit status: 2 when some files could not be read, else 1
/// when the port failed on whole files (none of their cases could be
/// recorded), else 0.
fn exit_status(totals: &crate::report::Totals, errors: &Errors) -> u8 {
    if totals.errors > 0 {
        2
    } else if errors.port_files > 0 {
        1
    } else {
        0
    }
}

/// Runs the corpus, watching the records.
fn collect<W: Write>(
    args: &AcceptArgs,
    ledger: &mut LedgerUse,
    sink: Sink<W>,
) -> Result<Collector<W>, InputError> {
    let mut collector = Collector {
        sink,
        found: Found::default(),
        errors: Errors::default(),
        file_name: String::new(),
        file_error: None,
        file_cases: 0,
        wanted: wanted_cases(&args.cases)?
            .into_iter()
            .map(|case| (case, false))
            .collect(),
    };
    run_corpus(&args.run, Some(ledger), &mut collector)?;
    if let Some(((file, name), _)) = collector.wanted.iter().find(|(_, met)| !met) {
        return Err(InputError::new(format!(
            "--case {file}:{name}: no new or changed divergence of a case named {} in {}",
            crate::base::outside::json_string(name),
            crate::base::outside::text(file)
        )));
    }
    Ok(collector)
}

/// What a run found for the ledger.
#[derive(Default)]
struct Found {
    entries: Vec<Divergence>,
    stale: Vec<CaseId>,
    orphaned: Vec<CaseId>,
    rules: Vec<RuleFinding>,
    /// The files whose framing diverges, and none accepts.
    framing: Vec<String>,
    /// How many case files ran.
    files: usize,
}

/// Makes and writes the changes; returns them, and how many divergences
/// were left out for want of a reason.
fn apply(
    args: &AcceptArgs,
    ledger: &mut LedgerUse,
    lock: &LedgerLock,
    found: Found,
) -> Result<(Vec<Change>, usize), InputError> {
    let Found {
        entries,
        stale,
        orphaned,
        rules,
        framing,
        files,
    } = found;
    let state = if args.triaged {
        EntryState::Triaged {
            link: args.link.clone(),
        }
    } else {
        EntryState::Accepted
    };
    let mut changes = Vec::new();
    let mut left = 0;
    let entries = match (&args.reason, args.rule) {
        (Some(reason), true) => {
            let (rules, entries) = by_rule(entries, ledger.ledger.rules(), &state, reason);
            changes.extend(rules);
            entries
        }
        _ => entries,
    };
    // A framing divergence is a file's, and only a rule can name it.
    match &args.reason {
        Some(reason) => changes.extend(
            framing_rules(&framing, files, &state, reason)
                .into_iter()
                .map(|(rule, files)| Change::AddedRule(rule, files)),
        ),
        None => left += framing.len(),
    }
    for Divergence { entry, .. } in entries {
        let Some(reason) = &args.reason else {
            left += 1;
            continue;
        };
        changes.push(edits::record_entry(&ledger.ledger, entry, &state, reason));
    }
    if args.prune {
        for id in stale {
            changes.push(Change::Removed(id, edits::STALE));
        }
        for id in orphaned {
            changes.push(Change::Removed(id, edits::ORPHANED));
        }
        changes.extend(rules.into_iter().map(Change::RemovedRule));
    }
    edits::apply(&mut ledger.ledger, &changes);
    if !changes.is_empty() {
        ledger.ledger.save(lock)?;
    }
    Ok((changes, left))
}

/// `accept --rule`: one rule for each op whose divergences are all new
/// and of one form, and none a rule of the ledger already says; the
/// others are left to be entries. Cases without an op are grouped by
/// file instead, each group's rule `rule op *` narrowed to its file.
fn by_rule(
    entries: Vec<Divergence>,
    existing: &[Rule],
    state: &EntryState,
    reason: &str,
) -> (Vec<Change>, Vec<Divergence>) {
    let mut by_op: BTreeMap<(Option<String>, Option<String>), Vec<Divergence>> = BTreeMap::new();
    for pending in entries {
        let file = match pending.entry.op {
            Some(_) => None,
            None => Some(pending.entry.id.file.clone()),
        };
        let key = (pending.entry.op.clone(), file);
        by_op.entry(key).or_default().push(pending);
    }
    let (mut rules, mut rest) = (Vec::new(), Vec::new());
    for ((op, file), pending) in by_op {
        let rule = common_match(&pending).and_then(|m| op_rule(op, file, m, state, reason));
        match rule {
            Some(rule) if !said(existing, &rule) => {
                rules.push(Change::AddedRule(rule, pending.len()));
            }
            _ => rest.extend(pending),
        }
    }
    (rules, rest)
}

/// The match every divergence of a group shares: its one form; else, when
/// each is a throw where the golden did not throw it, the glob of their
/// messages' cause with what varies masked (`threw-like "index * out of
/// bounds"`; the lines after the cause's are one `*`), or any such throw
/// (`threw`).
fn common_match(pending: &[Divergence]) -> Option<Match> {
    let first = pending.first()?.form.as_ref()?;
    if pending.iter().any(|p| p.changed || p.form.is_none()) {
        return None;
    }
    // A message that cannot stand in a rule as it is (a line break, a
    // character the reports escape) is matched by its cause's glob.
    let writable = !matches!(first, Form::Threw(message) if !plain_message(message));
    if writable && pending.iter().all(|p| p.form.as_ref() == Some(first)) {
        return Some(first.to_match());
    }
    let messages: Option<Vec<&str>> = pending
        .iter()
        .map(|p| match &p.form {
            Some(Form::Threw(message)) => Some(message.as_str()),
            _ => None,
        })
        .collect();
    let messages = messages?;
    let glob = |message: &str| {
        let glob = cause_of(message).replace(['#', '…'], "*");
        (!message.contains(['*', '?']) && plain_message(&glob)).then_some(glob)
    };
    let first_glob = glob(messages[0]);
    if first_glob.is_some() && messages.iter().all(|m| glob(m) == first_glob) {
        return first_glob.map(Match::ThrewLike);
    }
    Some(Match::ThrewAny)
}

/// What the changes were, for a report.
fn ledger_changes(changes: &[Change], ledger: &LedgerUse, left: usize) -> LedgerChanges {
    let ids = |pick: fn(&Change) -> Option<&CaseId>| -> Vec<CaseId> {
        changes.iter().filter_map(pick).cloned().collect()
    };
    LedgerChanges {
        path: ledger.path.display().to_string(),
        written: !changes.is_empty(),
        added: ids(|c| match c {
            Change::Added(entry) => Some(&entry.id),
            _ => None,
        }),
        changed: ids(|c| match c {
            Change::Changed(entry) => Some(&entry.id),
            _ => None,
        }),
        removed: ids(|c| match c {
            Change::Removed(id, _) => Some(id),
            _ => None,
        }),
        not_accepted: left,
        added_rules: changes
            .iter()
            .filter_map(|c| match c {
                Change::AddedRule(rule, _) => Some(rule.describe()),
                _ => None,
            })
            .collect(),
        removed_rules: changes
            .iter()
            .filter_map(|c| match c {
                Change::RemovedRule(finding) => Some(finding.rule.describe()),
                _ => None,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::identity::CaseKey;
    use crate::ledger::Ledger;

    fn entry(file: &str) -> Entry {
        Entry {
            id: CaseId {
                file: file.into(),
                key: CaseKey::Name("n".into()),
            },
            op: None,
            state: EntryState::Accepted,
            reason: "r".into(),
            verdict: Some("different".into()),
            paths: vec!["/value".into()],
            fingerprint: "0000000000000001".into(),
            comments: Vec::new(),
        }
    }

    fn printed(ledger: Ledger, changes: &[Change]) -> String {
        let ledger = LedgerUse::new("l.txt".into(), ledger);
        let mut out = Vec::new();
        let end = ChangesEnd {
            changes,
            ledger: &ledger,
            left: 0,
            errors: &Errors::default(),
            unredacted: None,
        };
        ChangeLines.finish(&mut out, end).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn reasons_and_links_hold_one_line_and_no_control_character() {
        assert!(one_line("--reason", "round() rounds half to even").is_ok());
        for (text, message) in [
            ("a\nb", "--reason must be one line"),
            ("a\rb", "--reason must be one line"),
            ("  ", "--reason must not be empty"),
            (
                "a\tb",
                "--reason must not hold the control character U+0009",
            ),
            (
                "sets \u{1b}]0;pwn\u{7} the title",
                "--reason must not hold the control character U+001B",
            ),
            (
                "bidi \u{202e}",
                "--reason must not hold the control character U+202E",
            ),
            (
                "del \u{7f}",
                "--reason must not hold the control character U+007F",
            ),
        ] {
            assert_eq!(one_line("--reason", text).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn the_unchanged_count_is_counted_and_never_wraps() {
        let mut ledger = Ledger::default();
        for file in ["a.json", "b.json", "c.json"] {
            ledger.insert(entry(file));
        }
        let changes = [
            Change::Added(entry("a.json")),
            Change::Changed(entry("b.json")),
            Change::Removed(entry("gone.json").id, "stale: the case passes now"),
        ];
        assert!(printed(ledger.clone(), &changes)
            .ends_with("ledger l.txt: 1 added, 1 changed, 1 removed, 1 unchanged\n"));
        // Two changes of one case (what names that collided made) once
        // printed 18446744073709551615 unchanged.
        let mut one = Ledger::default();
        one.insert(entry("a.json"));
        let twice = [
            Change::Added(entry("a.json")),
            Change::Added(entry("a.json")),
        ];
        assert!(printed(one, &twice).ends_with(", 0 unchanged\n"));
    }
}
