//! The divergence ledger: a port's known differences from the goldens,
//! one block per case, in a text file people edit and review in diffs
//! (docs/LEDGER.md describes the format).
//!
//! ```text
//! case sums.json "sum: every value set"
//!   op: sum
//!   state: triaged https://github.com/acme/port/issues/12
//!   reason: allowedForwardPorts are printed in insertion order, not sorted
//!   verdict: different
//!   paths: /value/14 /value/15
//!   fingerprint: 3f2a9c1b7d4e5f60
//! ```
//!
//! With a ledger, a case that diverges with the fingerprint its entry
//! records is *accepted*; every other outcome of a case with an entry
//! (passing: *stale*; diverging otherwise: *changed*) and every
//! divergence without one (*new*) fails the run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::base::error::InputError;
use crate::corpus::identity::{fnv1a, CaseId, CaseKey};
use entry_ref::{EntryRef, EntryState};
use lock::LedgerLock;
use rules::{PartialRule, Rule};
use tokens::{parse_state, read_token, render_state, token};

pub mod entry_ref;
pub mod lock;
pub mod rules;
mod tokens;

/// The file name of the default ledger, beside the cases directory.
pub const DEFAULT_NAME: &str = "parity-ledger.txt";

/// The header a new ledger starts with.
pub const HEADER: &str = "\
# parity-diff ledger: divergences of this port from the goldens that are known.
# Edit reasons and links freely; `parity-diff accept` adds and updates entries.";

/// One known divergence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The case.
    pub id: CaseId,
    /// Its op.
    pub op: Option<String>,
    /// Accepted or triaged.
    pub state: EntryState,
    /// Why.
    pub reason: String,
    /// The verdict when it was accepted (`different`, `missing`, …).
    pub verdict: Option<String>,
    /// Where it differed (JSON Pointers), the first few.
    pub paths: Vec<String>,
    /// The divergence's fingerprint.
    pub fingerprint: String,
    /// Comment lines written directly above the entry, kept with it.
    pub comments: Vec<String>,
}

impl Entry {
    /// What reports say about the entry.
    pub fn entry_ref(&self) -> EntryRef {
        EntryRef {
            state: self.state.clone(),
            reason: self.reason.clone(),
        }
    }
}

/// A ledger, entries sorted by case identity.
#[derive(Debug, Clone)]
pub struct Ledger {
    /// The comment lines that open the file.
    pub header: Vec<String>,
    entries: BTreeMap<CaseId, Entry>,
    /// The rules, in the file's order (the first of equally specific
    /// rules wins).
    rules: Vec<Rule>,
    /// The hash of the text it was read from, while unchanged.
    text_hash: Option<u64>,
}

/// Ledgers are equal when they say the same, whatever text they came from.
impl PartialEq for Ledger {
    fn eq(&self, other: &Self) -> bool {
        self.header == other.header && self.entries == other.entries && self.rules == other.rules
    }
}

impl Eq for Ledger {}

impl Default for Ledger {
    fn default() -> Self {
        Ledger {
            header: HEADER.lines().map(str::to_owned).collect(),
            entries: BTreeMap::new(),
            rules: Vec::new(),
            text_hash: None,
        }
    }
}

/// Where the ledger is looked for when `--ledger` is not given: beside
/// the cases directory (`cases/../parity-ledger.txt`).
pub fn default_path(cases: &Path) -> PathBuf {
    super::corpus::beside(cases, DEFAULT_NAME)
}

/// A ledger path for people: the root pointer is `(root)`.
pub fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "(root)"
    } else {
        path
    }
}

impl Ledger {
    /// The entry of a case.
    pub fn get(&self, id: &CaseId) -> Option<&Entry> {
        self.entries.get(id)
    }

    /// Every entry, in order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }

    /// How many entries (rules not counted).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries and no rules.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.rules.is_empty()
    }

    /// The rules, in the file's order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Adds a rule after the others.
    pub fn push_rule(&mut self, rule: Rule) {
        self.text_hash = None;
        self.rules.push(rule);
    }

    /// Removes the rules at these indices (of [`rules`](Self::rules)).
    pub fn remove_rules(&mut self, indices: &[usize]) {
        self.text_hash = None;
        let mut at = 0;
        self.rules.retain(|_| {
            at += 1;
            !indices.contains(&(at - 1))
        });
    }

    /// Adds or replaces an entry; returns the one it replaced.
    pub fn insert(&mut self, entry: Entry) -> Option<Entry> {
        self.text_hash = None;
        self.entries.insert(entry.id.clone(), entry)
    }

    /// Removes an entry.
    pub fn remove(&mut self, id: &CaseId) -> Option<Entry> {
        self.text_hash = None;
        self.entries.remove(id)
    }

    /// A hash of the ledger's text, for reports to tell ledgers apart: the
    /// text it was read from, or, once changed, the text it would write.
    pub fn fingerprint(&self) -> String {
        let hash = self
            .text_hash
            .unwrap_or_else(|| fnv1a(&[self.render().as_bytes()]));
        format!("{hash:016x}")
    }

    /// Reads a ledger's text; an error names the line.
    pub fn parse(text: &str) -> Result<Self, (usize, String)> {
        let mut ledger = Ledger {
            header: Vec::new(),
            entries: BTreeMap::new(),
            rules: Vec::new(),
            text_hash: Some(fnv1a(&[text.as_bytes()])),
        };
        let mut comments: Vec<String> = Vec::new();
        let mut in_header = true;
        let mut current: Option<(usize, Block)> = None;
        for (number, line) in text.lines().enumerate() {
            let number = number + 1;
            let line = line.strip_suffix('\r').unwrap_or(line);
            // Before members: editors leave lines of spaces between entries.
            if line.trim().is_empty() {
                if in_header && !comments.is_empty() {
                    ledger.header.append(&mut comments);
                }
                in_header = false;
                comments.clear();
                continue;
            }
            if let Some(member) = line.strip_prefix("  ") {
                let Some((_, entry)) = current.as_mut() else {
                    return Err((number, "an indented line outside any entry".into()));
                };
                if member.trim_start().starts_with('#') {
                    continue;
                }
                entry.member(member).map_err(|message| (number, message))?;
                continue;
            }
            if line.starts_with('#') {
                comments.push(line.to_owned());
                continue;
            }
            let block = if let Some(rest) = line.strip_prefix("case ") {
                let id = parse_case(rest).map_err(|message| (number, message))?;
                Block::Case(PartialEntry {
                    id: Some(id),
                    comments: std::mem::take(&mut comments),
                    ..PartialEntry::default()
                })
            } else if let Some(rest) = line.strip_prefix("rule ") {
                let comments = std::mem::take(&mut comments);
                Block::Rule(PartialRule::head(rest, comments).map_err(|message| (number, message))?)
            } else {
                return Err((
                    number,
                    format!(
                        "expected `case FILE KEY`, `rule op OP…`, a comment or a blank line, \
                         not {line:?}"
                    ),
                ));
            };
            if let Some((start, block)) = current.take() {
                ledger.add_block(block, start)?;
            }
            in_header = false;
            current = Some((number, block));
        }
        if let Some((start, block)) = current.take() {
            ledger.add_block(block, start)?;
        }
        if in_header {
            ledger.header.append(&mut comments);
        }
        Ok(ledger)
    }

    fn add_block(&mut self, block: Block, line: usize) -> Result<(), (usize, String)> {
        match block {
            Block::Case(entry) => {
                self.add(entry.finish().map_err(|message| (line, message))?, line)
            }
            Block::Rule(rule) => {
                let rule = rule.finish().map_err(|message| (line, message))?;
                if self.rules.iter().any(|other| {
                    (&other.ops, &other.files, &other.matches)
                        == (&rule.ops, &rule.files, &rule.matches)
                }) {
                    return Err((line, format!("a second {}", rule.describe())));
                }
                self.rules.push(rule);
                Ok(())
            }
        }
    }

    fn add(&mut self, entry: Entry, line: usize) -> Result<(), (usize, String)> {
        if self.entries.contains_key(&entry.id) {
            return Err((line, format!("a second entry for {}", entry.id)));
        }
        self.entries.insert(entry.id.clone(), entry);
        Ok(())
    }

    /// The ledger's text: the header, the rules in order, then each
    /// entry, sorted.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for line in &self.header {
            out.push_str(line);
            out.push('\n');
        }
        for rule in &self.rules {
            if !out.is_empty() {
                out.push('\n');
            }
            rule.render(&mut out);
        }
        for entry in self.entries.values() {
            if !out.is_empty() {
                out.push('\n');
            }
            for comment in &entry.comments {
                out.push_str(comment);
                out.push('\n');
            }
            out.push_str(&format!(
                "case {} {}\n",
                token(&entry.id.file),
                entry.id.key_text()
            ));
            if let Some(op) = &entry.op {
                out.push_str(&format!("  op: {}\n", token(op)));
            }
            out.push_str(&format!("  state: {}\n", render_state(&entry.state)));
            out.push_str(&format!("  reason: {}\n", entry.reason));
            if let Some(verdict) = &entry.verdict {
                out.push_str(&format!("  verdict: {verdict}\n"));
            }
            if !entry.paths.is_empty() {
                let paths: Vec<String> = entry.paths.iter().map(|p| token(p)).collect();
                out.push_str(&format!("  paths: {}\n", paths.join(" ")));
            }
            out.push_str(&format!("  fingerprint: {}\n", entry.fingerprint));
        }
        out
    }

    /// Reads the ledger at `path`.
    pub fn load(path: &Path) -> Result<Self, InputError> {
        let bytes = crate::base::files::input::read(path, crate::base::files::input::LEDGER)
            .map_err(|error| {
                InputError::new(format!(
                    "cannot read the ledger {}: {error}",
                    path.display()
                ))
            })?;
        let text = String::from_utf8(bytes).map_err(|_| {
            InputError::new(format!("the ledger {} is not UTF-8 text", path.display()))
        })?;
        Ledger::parse(&text).map_err(|(line, message)| {
            InputError::new(format!("ledger {} line {line}: {message}", path.display()))
        })
    }

    /// Writes the ledger to the file `lock` holds, atomically, keeping an
    /// existing file's permissions: only a writer that holds the lock can.
    pub fn save(&self, lock: &LedgerLock) -> Result<(), InputError> {
        lock.write(self.render().as_bytes()).map_err(|error| {
            InputError::new(format!(
                "cannot write the ledger {}: {error}",
                lock.path().display()
            ))
        })
    }
}

/// A block being read: a case entry or a rule.
enum Block {
    Case(PartialEntry),
    Rule(PartialRule),
}

impl Block {
    fn member(&mut self, line: &str) -> Result<(), String> {
        match self {
            Block::Case(entry) => entry.member(line),
            Block::Rule(rule) => rule.member(line),
        }
    }
}

fn parse_case(rest: &str) -> Result<CaseId, String> {
    let (file, rest) = read_token(rest)?;
    let rest = rest.trim();
    let key = if let Some(hash) = rest.strip_prefix('#') {
        if hash.is_empty() || !hash.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("a malformed case hash: {rest}"));
        }
        CaseKey::Hash(hash.to_owned())
    } else if rest.starts_with('"') {
        match read_token(rest)? {
            (name, "") => CaseKey::Name(name),
            (_, extra) => return Err(format!("unexpected text after the case name: {extra}")),
        }
    } else {
        return Err(format!(
            "a case is `case FILE \"NAME\"` or `case FILE #HASH`, not `case {file} {rest}`"
        ));
    };
    if file.is_empty() {
        return Err("a case needs its file".into());
    }
    Ok(CaseId { file, key })
}

#[derive(Default)]
struct PartialEntry {
    id: Option<CaseId>,
    op: Option<String>,
    state: Option<EntryState>,
    reason: Option<String>,
    verdict: Option<String>,
    paths: Option<Vec<String>>,
    fingerprint: Option<String>,
    comments: Vec<String>,
}

impl PartialEntry {
    fn member(&mut self, line: &str) -> Result<(), String> {
        let Some((key, value)) = line.split_once(':') else {
            return Err(format!("expected `key: value`, not {:?}", line.trim()));
        };
        let (key, value) = (key.trim(), value.trim());
        let duplicate = || format!("`{key}` given twice");
        match key {
            "op" => {
                if self.op.is_some() {
                    return Err(duplicate());
                }
                self.op = Some(read_token(value)?.0);
            }
            "state" => {
                if self.state.is_some() {
                    return Err(duplicate());
                }
                self.state = Some(parse_state(value)?);
            }
            "reason" => {
                if self.reason.is_some() {
                    return Err(duplicate());
                }
                self.reason = Some(value.to_owned());
            }
            "verdict" => {
                if self.verdict.is_some() {
                    return Err(duplicate());
                }
                self.verdict = Some(value.to_owned());
            }
            "paths" => {
                if self.paths.is_some() {
                    return Err(duplicate());
                }
                let mut paths = Vec::new();
                let mut rest = value;
                while !rest.trim().is_empty() {
                    let (path, next) = read_token(rest)?;
                    paths.push(path);
                    rest = next;
                }
                self.paths = Some(paths);
            }
            "fingerprint" => {
                if self.fingerprint.is_some() {
                    return Err(duplicate());
                }
                if value.len() != 16 || !value.chars().all(|c| c.is_ascii_hexdigit()) {
                    return Err(format!("a fingerprint is 16 hex digits, not {value:?}"));
                }
                self.fingerprint = Some(value.to_ascii_lowercase());
            }
            other => {
                return Err(format!(
                    "unknown member `{other}` (op, state, reason, verdict, paths, fingerprint)"
                ))
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<Entry, String> {
        let Some(id) = self.id else {
            return Err("an entry without its `case` line".into());
        };
        Ok(Entry {
            state: self
                .state
                .ok_or_else(|| format!("the entry for {id} has no `state`"))?,
            fingerprint: self
                .fingerprint
                .ok_or_else(|| format!("the entry for {id} has no `fingerprint`"))?,
            op: self.op,
            reason: self.reason.unwrap_or_default(),
            verdict: self.verdict,
            paths: self.paths.unwrap_or_default(),
            comments: self.comments,
            id,
        })
    }
}

#[cfg(test)]
mod tests;
