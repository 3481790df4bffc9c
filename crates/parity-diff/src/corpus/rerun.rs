//! What a rerun takes again of a corpus (`--rerun-failed REPORT.json`):
//! by case file, the cases by identity or the whole file, and the line the
//! rerun prints. Reading the report that says so is the command's
//! ([`command::rerun`](crate::command::rerun)); the plan reads only this.

use std::collections::{BTreeMap, BTreeSet};

use crate::corpus::identity::{fnv1a, CaseId, CaseKey};

/// What a rerun takes again of one case file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRerun {
    /// Every case (as `--op` selects them).
    Whole,
    /// The cases of these keys.
    Cases(BTreeSet<CaseKey>),
}

impl FileRerun {
    /// Both selections in one: a whole file takes in any case.
    fn join(&mut self, other: &FileRerun) {
        match (&mut *self, other) {
            (FileRerun::Whole, _) => {}
            (_, FileRerun::Whole) => *self = FileRerun::Whole,
            (FileRerun::Cases(keys), FileRerun::Cases(more)) => keys.extend(more.iter().cloned()),
        }
    }
}

/// One suite's part of a rerun (or a run without suites): what each case
/// file is to run again, and the orphaned goldens to look for again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RerunFiles {
    /// The report, as given, for messages.
    pub source: String,
    /// By case file name.
    pub files: BTreeMap<String, FileRerun>,
    /// The names of the goldens the report found orphaned.
    pub orphans: BTreeSet<String>,
    /// How many of the report's cases it takes, by kind (`failed`,
    /// `new`, `triaged`…): what the rerun says it took.
    pub kinds: BTreeMap<&'static str, usize>,
    /// The cases the report saw crash, time out or write invalid output
    /// (accepted or not): the last recorded run's known crashes, which
    /// run apart from the rest as the ledger's do.
    pub crashed: BTreeSet<CaseId>,
}

impl RerunFiles {
    /// What the rerun takes of the file `name`; `None`: nothing.
    pub fn file(&self, name: &str) -> Option<&FileRerun> {
        self.files.get(name)
    }

    /// Whether the report named nothing to take again.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.orphans.is_empty()
    }

    /// 16 hex digits naming this selection (reports record it, so that
    /// `merge` can tell shards of one rerun from shards of two).
    pub fn fingerprint(&self) -> String {
        let mut parts: Vec<Vec<u8>> = Vec::new();
        for (name, rerun) in &self.files {
            parts.push(b"file".to_vec());
            parts.push(name.as_bytes().to_vec());
            match rerun {
                FileRerun::Whole => parts.push(b"whole".to_vec()),
                FileRerun::Cases(keys) => {
                    for key in keys {
                        let (kind, text) = match key {
                            CaseKey::Name(name) => (&b"name"[..], name),
                            CaseKey::Hash(hash) => (&b"hash"[..], hash),
                        };
                        parts.push(kind.to_vec());
                        parts.push(text.as_bytes().to_vec());
                    }
                }
            }
        }
        for orphan in &self.orphans {
            parts.push(b"orphan".to_vec());
            parts.push(orphan.as_bytes().to_vec());
        }
        let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        format!("{:016x}", fnv1a(&parts))
    }

    pub(crate) fn take(&mut self, file: &str, rerun: FileRerun) {
        match self.files.get_mut(file) {
            Some(taken) => taken.join(&rerun),
            None => {
                self.files.insert(file.to_owned(), rerun);
            }
        }
    }

    pub(crate) fn take_case(&mut self, file: &str, key: CaseKey) {
        self.take(file, FileRerun::Cases(BTreeSet::from([key])));
    }

    pub(crate) fn join(&mut self, other: &RerunFiles) {
        for (name, rerun) in &other.files {
            self.take(name, rerun.clone());
        }
        self.orphans.extend(other.orphans.iter().cloned());
        for (kind, count) in &other.kinds {
            *self.kinds.entry(kind).or_default() += count;
        }
        self.crashed.extend(other.crashed.iter().cloned());
    }

    /// `2 failed, 1 triaged`: the kinds it took, or `None` when it took
    /// no case.
    pub fn kinds_text(&self) -> Option<String> {
        let parts: Vec<String> = self
            .kinds
            .iter()
            .map(|(kind, count)| format!("{count} {kind}"))
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// What a rerun takes of one run's corpus, for the line it prints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RerunCount {
    /// Whether the report names anything to take again.
    pub named: bool,
    /// The cases this run sends (after `--op` and `--shard`).
    pub selected: usize,
    /// The report's cases that the corpus no longer holds (in the files
    /// `--filter` selects).
    pub gone: usize,
    /// The files the report takes whole that the corpus no longer holds.
    pub gone_files: usize,
}

/// `1 case`, `2 cases`.
fn counted(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

impl RerunCount {
    /// The line a rerun prints on stderr (after `parity-diff: `), outside
    /// text neutralized: `rerun: 3 cases selected from r.json (1 case it
    /// names no longer exists)`; an empty selection says that nothing
    /// runs, which passes.
    /// `kinds` says which kinds of the report's cases it took
    /// ([`RerunFiles::kinds_text`]).
    pub fn note(&self, source: &str, suite: Option<&str>, kinds: Option<&str>) -> String {
        let mut line = String::from("rerun: ");
        if let Some(suite) = suite {
            line.push_str(&format!("suite {suite}: "));
        }
        if !self.named {
            line.push_str(&format!(
                "{source} names no case that failed: nothing to run"
            ));
            return crate::base::outside::text(&line).into_owned();
        }
        match self.selected {
            0 => line.push_str(&format!("no case selected from {source}")),
            selected => line.push_str(&format!(
                "{} selected from {source}",
                counted(selected, "case")
            )),
        }
        let gone = match (self.gone, self.gone_files) {
            (0, 0) => None,
            (cases, 0) => Some((counted(cases, "case"), cases == 1)),
            (0, files) => Some((counted(files, "file"), files == 1)),
            (cases, files) => Some((
                format!("{} and {}", counted(cases, "case"), counted(files, "file")),
                false,
            )),
        };
        if let Some((what, one)) = gone {
            let verb = if one { "exists" } else { "exist" };
            line.push_str(&format!(" ({what} it names no longer {verb})"));
        }
        if let Some(kinds) = kinds {
            line.push_str(&format!("; the report's cases taken: {kinds}"));
        }
        if self.selected == 0 {
            line.push_str(": nothing to run");
        }
        crate::base::outside::text(&line).into_owned()
    }
}
