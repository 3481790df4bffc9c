//! `parity-diff merge`: the JSON reports of `run --shard K/N`, K = 1…N,
//! made into the report of one whole run, in any format.
//!
//! The shards are checked first, from their heads: every one a `run`
//! report of format version 1 or 2 with a shard; one N; each K once (else
//! overlapping or missing shards); one corpus (fingerprint, file lists,
//! selection: `--filter`, `--op`, `--rerun-failed`), one balance (by
//! count, or by one `--timings`) and one ledger. Then their records are read in shard order,
//! one at a time, and handed to a report as a run hands them: a file
//! whose cases straddle shards becomes one file again, its problems one
//! problem. Last come the checks only a whole run can make: orphaned
//! goldens (goldens whose case file is not in the recorded list, unless
//! the shards ran with `--op`) and orphaned ledger entries (entries whose
//! case no shard saw, unless the shards ran with `--filter` or `--op`;
//! the entries of a file that could not be compared are not checked),
//! and, on the same terms, stale and orphaned ledger rules, from each
//! shard's `shardRules` ([`whole_run_findings`]).
//! The counts, per-op table and groups are recomputed from the records,
//! so the summary and `byOp` are those of the unsharded run.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::base::error::InputError;
use crate::base::outside;
use crate::corpus::identity::CaseId;
use crate::ledger::rules::{whole_run_findings, RuleFinding};
use crate::report::json::{FileHead, Item, ReportReader};
use crate::report::record::{CaseRecord, VerdictKind};
use crate::report::{
    Consumer, CorpusInfo, ExtraReport, FileInfo, LedgerInfo, Problem, ReportOptions, Reports,
    RunInfo, Totals,
};

use shards::check_shards;

mod shards;

/// The `merge` command's inputs.
#[derive(Debug, Clone)]
pub struct MergeArgs {
    /// The shards' JSON reports, in any order.
    pub reports: Vec<PathBuf>,
    /// How to report.
    pub report: ReportOptions,
    /// `--report FORMAT=PATH`: more formats, each to its file.
    pub extra: Vec<ExtraReport>,
}

/// Two problems of one file (a file straddling shards) as one: the first
/// says what is wrong; errors add up what they skipped.
fn combine(earlier: &mut Option<Problem>, later: Problem) {
    match (earlier.as_mut(), later) {
        (None, later) => *earlier = Some(later),
        (Some(Problem::Error { skipped, .. }), Problem::Error { skipped: more, .. }) => {
            *skipped += more
        }
        _ => {}
    }
}

/// The file being merged.
struct Current {
    name: Option<String>,
    problem: Option<Problem>,
    /// The position of its last case (extra results aside), to catch
    /// shards that overlap within it.
    last: Option<usize>,
    /// Its warnings, from every shard that had some of its cases.
    warnings: Vec<String>,
}

struct Merger<W: Write> {
    sink: Reports<W>,
    current: Option<Current>,
    finished: HashSet<String>,
    /// Ledger entries by identity: whether a shard saw the case.
    entries: HashMap<CaseId, bool>,
    /// Files that had a problem: their entries are not checked.
    troubled: HashSet<String>,
    /// The report being read, for messages.
    shard: String,
}

impl<W: Write> Merger<W> {
    fn close(&mut self) -> Result<(), InputError> {
        let Some(current) = self.current.take() else {
            return Ok(());
        };
        if let Some(problem) = current.problem {
            if let Some(name) = &current.name {
                self.troubled.insert(name.clone());
            }
            self.sink.problem(problem)?;
        }
        // As a run warns: after the file's records, before its end.
        for warning in &current.warnings {
            Consumer::warning(&mut self.sink, warning)?;
        }
        if let Some(name) = current.name {
            self.finished.insert(name);
        }
        self.sink.end_file()?;
        Ok(())
    }

    fn file(&mut self, file: FileHead) -> Result<(), InputError> {
        let FileHead {
            info,
            problem,
            warnings,
            ..
        } = file;
        let continues = self
            .current
            .as_ref()
            .is_some_and(|current| current.name == info.name && info.name.is_some());
        if !continues {
            self.close()?;
            if let Some(name) = &info.name {
                if self.finished.contains(name) {
                    return Err(InputError::new(format!(
                        "overlapping shards: {name} comes again in {} after other files",
                        self.shard
                    )));
                }
            }
            self.current = Some(Current {
                name: info.name.clone(),
                problem: None,
                last: None,
                warnings: Vec::new(),
            });
            self.sink.begin_file(info)?;
        }
        if let Some(current) = self.current.as_mut() {
            if let Some(problem) = problem {
                combine(&mut current.problem, problem);
            }
            current.warnings.extend(warnings);
        }
        Ok(())
    }

    fn case(&mut self, record: CaseRecord) -> Result<(), InputError> {
        let Some(current) = self.current.as_mut() else {
            return Err(InputError::new("a case outside any file"));
        };
        if record.verdict != VerdictKind::Extra {
            if current.last.is_some_and(|last| record.index <= last) {
                return Err(InputError::new(format!(
                    "overlapping shards: {} #{} is in {} and in a shard before it",
                    record.file, record.index, self.shard
                )));
            }
            current.last = Some(record.index);
        }
        if let Some(seen) = self.entries.get_mut(&record.id) {
            *seen = true;
        }
        // A shard's records are its JSON report's, made for every format.
        self.sink.take_wide(record)?;
        Ok(())
    }
}

/// Whether the shards' rules are one ledger's: a rule that two shards
/// list at one index must be the same rule (the ledgers' fingerprints
/// agree, so a shard that says otherwise was edited).
fn check_shard_rules(shards: &[Vec<RuleFinding>], paths: &[&Path]) -> Result<(), InputError> {
    let mut seen: HashMap<usize, (&RuleFinding, &Path)> = HashMap::new();
    for (findings, path) in shards.iter().zip(paths) {
        for finding in findings {
            match seen.get(&finding.index) {
                Some((first, at)) if first.rule != finding.rule => {
                    return Err(InputError::new(format!(
                        "{} and {} disagree about the ledger's rule {} ({}): \
                         merge combines the reports of one run",
                        at.display(),
                        path.display(),
                        finding.index + 1,
                        outside::text(&first.rule.describe()),
                    )))
                }
                Some(_) => {}
                None => {
                    seen.insert(finding.index, (finding, path));
                }
            }
        }
    }
    Ok(())
}

/// What one shard's report accounts for, to check against the range of
/// cases it claims: a record removed from a shard (a failing case
/// deleted to pass the merge) or added to it is found.
#[derive(Debug, Default)]
struct Held {
    /// Its case records.
    records: usize,
    /// Those of them that are `missing`: a golden's element past the
    /// last case of its file is one, and is no case of the range.
    missing: usize,
    /// The cases its files' errors skipped.
    skipped: usize,
    /// Whether a file's golden was missing: its cases are in the range
    /// but no record or count says how many.
    uncounted: bool,
}

impl Held {
    fn file(&mut self, problem: Option<&Problem>) {
        match problem {
            Some(Problem::Error { skipped, .. }) => {
                self.skipped = self.skipped.saturating_add(*skipped)
            }
            Some(Problem::MissingGolden { .. }) => self.uncounted = true,
            _ => {}
        }
    }

    fn check(&self, path: &Path, from: usize, to: usize) -> Result<(), InputError> {
        let claimed = to - from;
        let most = self.records.saturating_add(self.skipped);
        let least = most - self.missing;
        if least <= claimed && (claimed <= most || self.uncounted) {
            return Ok(());
        }
        Err(InputError::new(format!(
            "{} is the shard of cases {from}..{to} ({claimed} cases) but accounts for {} \
             ({} records, {} of them `missing`, {} skipped by errors): a record was removed \
             or added; merge combines the unedited reports of one run",
            outside::text(&path.display().to_string()),
            if least == most {
                least.to_string()
            } else {
                format!("{least} to {most}")
            },
            self.records,
            self.missing,
            self.skipped
        )))
    }
}

/// Runs `merge`.
pub fn merge_command(args: &MergeArgs, out: impl Write) -> Result<Totals, InputError> {
    let (head, paths) = check_shards(&args.reports)?;
    let corpus = head.corpus.clone().unwrap_or_default();
    let ledger = head.ledger.clone();
    let run = RunInfo {
        command: "merge",
        shard: None,
        corpus: Some(corpus.clone()),
        ledger: ledger.clone(),
        suites: head.suites.clone(),
        suite_ledgers: head.suite_ledgers.clone(),
        unredacted: head.unredacted.clone(),
    };
    let entries = ledger
        .iter()
        .flat_map(|ledger| &ledger.entries)
        .map(|entry| (entry.id.clone(), false))
        .collect();
    let mut merger = Merger {
        sink: Reports::new(out, args.report, run, &args.extra)?,
        current: None,
        finished: HashSet::new(),
        entries,
        troubled: HashSet::new(),
        shard: String::new(),
    };
    // Each shard's rules that its cases did not decide; `None` for a
    // shard whose report does not say (no ledger, or an older report).
    let mut shard_rules = Vec::with_capacity(paths.len());
    for &path in &paths {
        shard_rules.push(merger.shard_records(path)?);
    }
    merger.close()?;
    if corpus.ops.is_empty() {
        merger.orphaned_goldens(&corpus)?;
    }
    if let Some(ledger) = &ledger {
        if corpus.is_whole() {
            merger.ledger_findings(ledger, shard_rules, &paths)?;
        }
    }
    Ok(merger.sink.finish()?)
}

impl<W: Write> Merger<W> {
    /// Merges one shard's records, checked against the range of cases it
    /// claims; returns the rules its cases did not decide, when it says.
    fn shard_records(&mut self, path: &Path) -> Result<Option<Vec<RuleFinding>>, InputError> {
        let (mut reader, head) = ReportReader::open(path)?;
        let mut shard_rules = None;
        self.shard = path.display().to_string();
        let mut held = Held::default();
        // Goldens without a case file are the merge's to find.
        let mut skipping = false;
        while let Some(item) = reader.next_item()? {
            match item {
                Item::File(file) => {
                    skipping = matches!(file.problem, Some(Problem::OrphanGolden { .. }));
                    held.file(file.problem.as_ref());
                    if !skipping {
                        self.file(file)?;
                    }
                }
                Item::Case(record) if !skipping => {
                    held.records += 1;
                    held.missing += usize::from(record.verdict == VerdictKind::Missing);
                    self.case(*record)?
                }
                Item::Case(_) | Item::EndFile => {}
                Item::ShardRules(rules) => shard_rules = Some(rules),
                // The tail is recomputed from the records.
                _ => {}
            }
        }
        // A rerun or an --op selection runs part of each shard's range,
        // so only a shard that ran its whole range can be counted.
        let whole_range = head
            .corpus
            .as_ref()
            .is_none_or(|corpus| corpus.rerun.is_none() && corpus.ops.is_empty());
        if let Some(shard) = head.shard.filter(|_| whole_range) {
            held.check(path, shard.from, shard.to)?;
        }
        Ok(shard_rules)
    }

    /// A problem for each golden whose case file is not in the recorded
    /// list, each as a file of its own.
    fn orphaned_goldens(&mut self, corpus: &CorpusInfo) -> Result<(), InputError> {
        let cases: HashSet<&String> = corpus.case_files.iter().collect();
        for golden in corpus.golden_files.iter().filter(|g| !cases.contains(g)) {
            self.sink.begin_file(FileInfo {
                name: Some(golden.clone()),
                path: None,
                suite: None,
            })?;
            self.sink.problem(Problem::OrphanGolden {
                // Both are text already (as the shards' reports hold them).
                golden: Path::new(&corpus.golden_dir)
                    .join(golden)
                    .to_string_lossy()
                    .into_owned(),
            })?;
            self.sink.end_file()?;
        }
        Ok(())
    }

    /// A whole run's findings of the ledger: the entries whose case no
    /// shard saw, and the stale and orphaned rules of every shard's
    /// `shardRules`.
    fn ledger_findings(
        &mut self,
        ledger: &LedgerInfo,
        shard_rules: Vec<Option<Vec<RuleFinding>>>,
        paths: &[&Path],
    ) -> Result<(), InputError> {
        for entry in &ledger.entries {
            let seen = self.entries.get(&entry.id).copied().unwrap_or(true);
            if !seen && !self.troubled.contains(&entry.id.file) {
                self.sink.orphaned_entry(entry);
            }
        }
        if let Some(at) = shard_rules.iter().position(Option::is_none) {
            // A ledger, and a shard that does not say which rules
            // its cases decided: written before `shardRules`.
            let _ = writeln!(
                std::io::stderr(),
                "parity-diff: warning: {} does not list the ledger rules its cases did not \
                 decide (a report of an older parity-diff): the ledger's rules are not \
                 checked",
                outside::text(&paths[at].display().to_string())
            );
        }
        let shard_rules: Option<Vec<_>> = shard_rules.into_iter().collect();
        let shard_rules = shard_rules.unwrap_or_default();
        check_shard_rules(&shard_rules, paths)?;
        for finding in whole_run_findings(&shard_rules) {
            self.sink.rule_finding(&finding);
        }
        Ok(())
    }
}
