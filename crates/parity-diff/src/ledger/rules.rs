//! Ledger rules: one block that accepts (or triages) every divergence of
//! a kind in a scope of ops, where a case entry names one case.
//!
//! ```text
//! rule op sum product
//!   files: argv*.json
//!   match: threw "not implemented"
//!   state: accepted
//!   reason: not ported yet
//! ```
//!
//! A case entry wins over a rule; among the rules that match a case, the
//! most specific wins (ops with `files`, then ops, then `*`), then the
//! first in the file. docs/LEDGER.md describes the format.

use std::collections::BTreeMap;

use super::tokens::{parse_state, read_token, render_state, token};
use crate::base::glob::Glob;
use crate::judge::verdict::VerdictKind;
use crate::ledger::entry_ref::{EntryRef, EntryState};

/// Which ops a rule covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleOps {
    /// `rule op *`: every op, cases without one included.
    Every,
    /// `rule op A B`: these ops.
    Named(Vec<String>),
}

/// What a rule's `match:` takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Match {
    /// The port threw exactly this message where the golden did not
    /// throw it (it has a value, or threw another message).
    Threw(String),
    /// `threw` alone: the port threw, whatever its message, where the
    /// golden did not throw that message.
    ThrewAny,
    /// `threw-like GLOB`: as `threw`, its message matching the glob (`*`
    /// any run of characters, `?` one).
    ThrewLike(String),
    /// The port returned a value where the golden threw.
    Returned,
    /// The same value, only numbers written otherwise (`1.0` for `1`).
    Spelling,
    /// The oracle crashed on the case.
    Crash,
    /// The oracle did not finish the case in time.
    Timeout,
    /// The oracle printed something that is not a result for it.
    InvalidOutput,
    /// The oracle's result for the case differed between runs
    /// (`--repeat N`).
    Nondeterministic,
    /// The bytes around a file's elements differ from what
    /// `JSON.stringify` prints (a divergence of the file, not of a case:
    /// its rule is `rule op *`, narrowed by `files:`).
    Framing,
    /// The case differs only at these JSON Pointers or below them.
    Paths(Vec<String>),
    /// Any divergence.
    Any,
}

impl Match {
    /// The `match:` value, as the ledger writes it.
    pub fn render(&self) -> String {
        match self {
            Match::Threw(message) => {
                // A port's message: outside text, escaped as names are.
                format!("threw {}", crate::base::outside::json_string(message))
            }
            Match::ThrewAny => "threw".into(),
            Match::ThrewLike(glob) => {
                format!(
                    "threw-like {}",
                    serde_json::to_string(glob).unwrap_or_default()
                )
            }
            Match::Returned => "returned".into(),
            Match::Spelling => "spelling".into(),
            Match::Crash => "crash".into(),
            Match::Timeout => "timeout".into(),
            Match::InvalidOutput => "invalid-output".into(),
            Match::Nondeterministic => "nondeterministic".into(),
            Match::Framing => "framing".into(),
            Match::Paths(paths) => {
                let paths: Vec<String> = paths.iter().map(|p| token(p)).collect();
                format!("paths {}", paths.join(" "))
            }
            Match::Any => "any".into(),
        }
    }

    fn parse(value: &str) -> Result<Self, String> {
        let (word, rest) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
        let rest = rest.trim();
        let bare = |matched: Match| {
            if rest.is_empty() {
                Ok(matched)
            } else {
                Err(format!(
                    "`match: {word}` takes nothing after it, not {rest:?}"
                ))
            }
        };
        match word {
            "threw" if rest.is_empty() => Ok(Match::ThrewAny),
            "threw" if !rest.starts_with('"') => Err(format!(
                "`match: threw` takes the message as a JSON string (threw \"{rest}\")"
            )),
            "threw-like" if !rest.starts_with('"') => Err(format!(
                "`match: threw-like` takes a glob as a JSON string (threw-like \"{rest}\")"
            )),
            "threw-like" => match read_token(rest)? {
                (glob, "") => Ok(Match::ThrewLike(glob)),
                (_, extra) => Err(format!("unexpected text after the glob: {extra}")),
            },
            "returned" => bare(Match::Returned),
            "spelling" => bare(Match::Spelling),
            "threw" => match read_token(rest)? {
                (message, "") => Ok(Match::Threw(message)),
                (_, extra) => Err(format!("unexpected text after the message: {extra}")),
            },
            "crash" => bare(Match::Crash),
            "timeout" => bare(Match::Timeout),
            "invalid-output" => bare(Match::InvalidOutput),
            "nondeterministic" => bare(Match::Nondeterministic),
            "framing" => bare(Match::Framing),
            "any" => bare(Match::Any),
            "paths" => {
                let mut paths = Vec::new();
                let mut rest = rest;
                while !rest.trim().is_empty() {
                    let (path, next) = read_token(rest)?;
                    if !path.is_empty() && !path.starts_with('/') {
                        return Err(format!(
                            "a path is a JSON Pointer (\"\" or /…), not {path:?}"
                        ));
                    }
                    paths.push(path);
                    rest = next;
                }
                if paths.is_empty() {
                    return Err("`match: paths` needs at least one JSON Pointer".into());
                }
                Ok(Match::Paths(paths))
            }
            other => Err(format!(
                "match is `threw MESSAGE`, `threw`, `threw-like GLOB`, `returned`, \
                 `spelling`, `crash`, `timeout`, `invalid-output`, `nondeterministic`, \
                 `framing`, `paths P…` or `any`, not {other:?}"
            )),
        }
    }
}

/// The kind of a divergence, when it has one a rule can name by a word
/// (what `accept --rule` groups an op's divergences by).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    /// The port threw this message where the golden did not throw it.
    Threw(String),
    /// A crash, a timeout, invalid output, or a result that differed
    /// between runs.
    Failed(VerdictKind),
    /// The port returned a value where the golden threw.
    Returned,
    /// The same value, only numbers written otherwise.
    Spelling,
}

impl Form {
    /// The `match:` that matches exactly this form.
    pub fn to_match(&self) -> Match {
        match self {
            Form::Threw(message) => Match::Threw(message.clone()),
            Form::Returned => Match::Returned,
            Form::Spelling => Match::Spelling,
            Form::Failed(VerdictKind::Crash) => Match::Crash,
            Form::Failed(VerdictKind::Timeout) => Match::Timeout,
            Form::Failed(VerdictKind::Nondeterministic) => Match::Nondeterministic,
            Form::Failed(_) => Match::InvalidOutput,
        }
    }
}

/// What a rule looks at in one diverging case.
#[derive(Debug, Clone, Copy)]
pub struct Divergent<'a> {
    /// The identity file (relative to the cases directory).
    pub file: &'a str,
    /// The case's op.
    pub op: Option<&'a str>,
    /// Its verdict.
    pub verdict: VerdictKind,
    /// Its form, when it has one.
    pub form: Option<&'a Form>,
    /// Every place it differs at (`None`: not all of them are known).
    pub paths: Option<&'a [String]>,
}

/// One rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Its ops.
    pub ops: RuleOps,
    /// `files: GLOB`, narrowing it to the case files the glob matches.
    pub files: Option<Glob>,
    /// What it matches.
    pub matches: Match,
    /// Accepted or triaged.
    pub state: EntryState,
    /// Why.
    pub reason: String,
    /// Comment lines written directly above it, kept with it.
    pub comments: Vec<String>,
}

/// How specific a rule is: the higher wins.
fn specificity(rule: &Rule) -> u8 {
    match (&rule.ops, &rule.files) {
        (RuleOps::Named(_), Some(_)) => 3,
        (RuleOps::Named(_), None) => 2,
        (RuleOps::Every, Some(_)) => 1,
        (RuleOps::Every, None) => 0,
    }
}

/// Whether `text` matches `glob`: `*` any run of characters (none
/// included), `?` one character, anything else itself. Linear in
/// practice: the last `*` is the only one backtracked to.
pub fn wildcard(glob: &str, text: &str) -> bool {
    let (glob, text): (Vec<char>, Vec<char>) = (glob.chars().collect(), text.chars().collect());
    let (mut g, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match glob.get(g) {
            Some('*') => {
                star = Some((g, t));
                g += 1;
            }
            Some(&c) if c == '?' || c == text[t] => {
                g += 1;
                t += 1;
            }
            _ => match star {
                Some((at, from)) => {
                    g = at + 1;
                    t = from + 1;
                    star = Some((at, from + 1));
                }
                None => return false,
            },
        }
    }
    glob[g..].iter().all(|&c| c == '*')
}

/// Whether `path` is `under` or below it (`/a/b` is below `/a`, `/ab`
/// is not; everything is below the root `""`).
fn is_below(path: &str, under: &str) -> bool {
    path == under
        || (path.starts_with(under) && path.as_bytes().get(under.len()) == Some(&b'/'))
        || under.is_empty()
}

impl Rule {
    /// The rule's head, as the ledger writes it: `rule op sum product`.
    pub fn head(&self) -> String {
        match &self.ops {
            RuleOps::Every => "rule op *".to_owned(),
            RuleOps::Named(ops) => {
                let ops: Vec<String> = ops.iter().map(|op| token(op)).collect();
                format!("rule op {}", ops.join(" "))
            }
        }
    }

    /// The rule for people, one line: its head, files and match.
    pub fn describe(&self) -> String {
        let files = self
            .files
            .as_ref()
            .map_or(String::new(), |glob| format!(", files {}", glob.pattern()));
        format!("{}{files} (match: {})", self.head(), self.matches.render())
    }

    /// What reports say about it, as about an entry.
    pub fn entry_ref(&self) -> EntryRef {
        EntryRef {
            state: self.state.clone(),
            reason: self.reason.clone(),
        }
    }

    /// Whether a case of `op` in `file` is in the rule's scope.
    pub fn covers(&self, file: &str, op: Option<&str>) -> bool {
        self.covers_op(op) && self.covers_file(file)
    }

    /// Whether cases of `op` are in the rule's scope, whatever their file.
    pub fn covers_op(&self, op: Option<&str>) -> bool {
        match &self.ops {
            RuleOps::Every => true,
            RuleOps::Named(ops) => op.is_some_and(|op| ops.iter().any(|o| o == op)),
        }
    }

    /// Whether cases of `file` can be in its scope.
    pub fn covers_file(&self, file: &str) -> bool {
        self.files.as_ref().is_none_or(|glob| glob.matches(file))
    }

    /// Whether the rule matches a diverging case.
    pub fn matches(&self, case: &Divergent) -> bool {
        if !self.covers(case.file, case.op) {
            return false;
        }
        match &self.matches {
            Match::Any => true,
            Match::Threw(message) => {
                matches!(case.form, Some(Form::Threw(thrown)) if thrown == message)
            }
            Match::ThrewAny => matches!(case.form, Some(Form::Threw(_))),
            Match::ThrewLike(glob) => {
                matches!(case.form, Some(Form::Threw(thrown)) if wildcard(glob, thrown))
            }
            Match::Returned => case.form == Some(&Form::Returned),
            Match::Spelling => case.form == Some(&Form::Spelling),
            Match::Crash => case.verdict == VerdictKind::Crash,
            Match::Timeout => case.verdict == VerdictKind::Timeout,
            Match::InvalidOutput => case.verdict == VerdictKind::InvalidOutput,
            Match::Nondeterministic => case.verdict == VerdictKind::Nondeterministic,
            Match::Framing => false,
            Match::Paths(under) => case.paths.is_some_and(|paths| {
                !paths.is_empty()
                    && paths
                        .iter()
                        .all(|path| under.iter().any(|u| is_below(path, u)))
            }),
        }
    }

    /// The rule's block, as the ledger writes it.
    pub fn render(&self, out: &mut String) {
        for comment in &self.comments {
            out.push_str(comment);
            out.push('\n');
        }
        out.push_str(&self.head());
        out.push('\n');
        if let Some(glob) = &self.files {
            out.push_str(&format!("  files: {}\n", token(&glob.pattern())));
        }
        out.push_str(&format!("  match: {}\n", self.matches.render()));
        out.push_str(&format!("  state: {}\n", render_state(&self.state)));
        out.push_str(&format!("  reason: {}\n", self.reason));
    }
}

/// What a full run found wrong with a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleProblem {
    /// It matched no case: what it accepted passes now, or other
    /// entries and rules account for it.
    Stale,
    /// No case is in its scope (its ops, in its files).
    Orphaned,
}

impl RuleProblem {
    /// The word reports use.
    pub fn name(self) -> &'static str {
        match self {
            RuleProblem::Stale => "stale",
            RuleProblem::Orphaned => "orphaned",
        }
    }

    /// Why, for people.
    pub fn why(self) -> &'static str {
        match self {
            RuleProblem::Stale => "matches no case",
            RuleProblem::Orphaned => "no case of its ops",
        }
    }
}

/// A rule a full run found stale or orphaned: a failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleFinding {
    /// The rule.
    pub rule: Rule,
    /// Its index among the ledger's rules.
    pub index: usize,
    /// What is wrong with it.
    pub problem: RuleProblem,
}

impl RuleFinding {
    /// One line for people (outside text: write it through
    /// [`outside`](crate::base::outside)).
    pub fn describe(&self) -> String {
        format!(
            "{}: {}; remove it with `parity-diff accept --prune`",
            self.rule.describe(),
            self.problem.why()
        )
    }
}

/// Among `rules`, the one that decides a diverging case: the most
/// specific that matches, then the first. Returns its index.
pub fn decide(rules: &[Rule], case: &Divergent) -> Option<usize> {
    let mut best: Option<(u8, usize)> = None;
    for (at, rule) in rules.iter().enumerate() {
        let rank = specificity(rule);
        if best.is_some_and(|(best, _)| best >= rank) || !rule.matches(case) {
            continue;
        }
        best = Some((rank, at));
    }
    best.map(|(_, at)| at)
}

/// Among `rules`, the one that accepts a framing divergence of `file`:
/// the most specific `match: framing` rule whose files take it, then the
/// first. Returns its index.
pub fn decide_framing(rules: &[Rule], file: &str) -> Option<usize> {
    let mut best: Option<(u8, usize)> = None;
    for (at, rule) in rules.iter().enumerate() {
        let rank = specificity(rule);
        let takes = rule.matches == Match::Framing && rule.covers_file(file);
        if best.is_some_and(|(best, _)| best >= rank) || !takes {
            continue;
        }
        best = Some((rank, at));
    }
    best.map(|(_, at)| at)
}

/// A rule being read: its head, then its members.
#[derive(Debug)]
pub(super) struct PartialRule {
    ops: RuleOps,
    files: Option<Glob>,
    matches: Option<Match>,
    state: Option<EntryState>,
    reason: Option<String>,
    comments: Vec<String>,
}

impl PartialRule {
    /// A rule from its head line (after `rule `).
    pub(super) fn head(rest: &str, comments: Vec<String>) -> Result<Self, String> {
        let Some(rest) = rest.trim_start().strip_prefix("op") else {
            return Err(format!(
                "a rule is `rule op OP…` or `rule op *`, not `rule {}`",
                rest.trim()
            ));
        };
        if !rest.starts_with(char::is_whitespace) {
            return Err("a rule is `rule op OP…` or `rule op *`".into());
        }
        let ops = if rest.trim() == "*" {
            RuleOps::Every
        } else {
            let mut ops = Vec::new();
            let mut rest = rest;
            while !rest.trim().is_empty() {
                let (op, next) = read_token(rest)?;
                if op == "*" && !rest.trim_start().starts_with('"') {
                    return Err("`*` stands alone: `rule op *`".into());
                }
                if ops.contains(&op) {
                    return Err(format!("the op {} is named twice", token(&op)));
                }
                ops.push(op);
                rest = next;
            }
            if ops.is_empty() {
                return Err("a rule names its ops (`rule op sum`), or `*`".into());
            }
            RuleOps::Named(ops)
        };
        Ok(PartialRule {
            ops,
            files: None,
            matches: None,
            state: None,
            reason: None,
            comments,
        })
    }

    /// One member line.
    pub(super) fn member(&mut self, line: &str) -> Result<(), String> {
        let Some((key, value)) = line.split_once(':') else {
            return Err(format!("expected `key: value`, not {:?}", line.trim()));
        };
        let (key, value) = (key.trim(), value.trim());
        let duplicate = || format!("`{key}` given twice");
        match key {
            "files" => {
                if self.files.is_some() {
                    return Err(duplicate());
                }
                let (pattern, rest) = read_token(value)?;
                if !rest.trim().is_empty() || pattern.is_empty() {
                    return Err(format!("`files` takes one glob, not {value:?}"));
                }
                self.files = Some(Glob::new(&pattern)?);
            }
            "match" => {
                if self.matches.is_some() {
                    return Err(duplicate());
                }
                self.matches = Some(Match::parse(value)?);
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
            other => {
                return Err(format!(
                    "unknown member `{other}` of a rule (files, match, state, reason)"
                ))
            }
        }
        Ok(())
    }

    /// The rule, once its members are read.
    pub(super) fn finish(self) -> Result<Rule, String> {
        let head = match &self.ops {
            RuleOps::Every => "rule op *".to_owned(),
            RuleOps::Named(ops) => format!("rule op {}", ops.join(" ")),
        };
        if self.matches == Some(Match::Framing) && self.ops != RuleOps::Every {
            return Err(format!(
                "`match: framing` is about a file's whole output, not an op's cases: \
                 its rule is `rule op *` (narrowed by `files:`), not `{head}`"
            ));
        }
        Ok(Rule {
            matches: self
                .matches
                .ok_or_else(|| format!("the {head} has no `match`"))?,
            state: self
                .state
                .ok_or_else(|| format!("the {head} has no `state`"))?,
            ops: self.ops,
            files: self.files,
            reason: self.reason.unwrap_or_default(),
            comments: self.comments,
        })
    }
}

/// The whole run's stale and orphaned rules, from what each of its
/// shards found within itself (`shards`: every shard's findings). A
/// rule is in the whole run's scope when it is in some shard's, and
/// decides a case when it does in some shard; so a rule one shard did
/// not list decided a case, a rule every shard found orphaned is
/// orphaned, and any other listed by every shard is stale.
pub fn whole_run_findings(shards: &[Vec<RuleFinding>]) -> Vec<RuleFinding> {
    let Some((first, rest)) = shards.split_first() else {
        return Vec::new();
    };
    let others: Vec<BTreeMap<usize, RuleProblem>> = rest
        .iter()
        .map(|shard| shard.iter().map(|f| (f.index, f.problem)).collect())
        .collect();
    first
        .iter()
        .filter_map(|finding| {
            let mut problem = finding.problem;
            for shard in &others {
                if *shard.get(&finding.index)? == RuleProblem::Stale {
                    problem = RuleProblem::Stale;
                }
            }
            Some(RuleFinding {
                problem,
                ..finding.clone()
            })
        })
        .collect()
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
