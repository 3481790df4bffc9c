//! One record per case: everything any report format needs about it,
//! already masked (secrets) and cut (sizes bounded), so that renderers
//! never see raw secrets and never compare anything again.
//!
//! [`build`] makes records from comparisons; [`signature`](crate::judge::signature) names the
//! kind of a failure, for grouping. A record's JSON form is the case
//! object of the JSON report, written and read back by
//! [`report::json::case`](crate::report::json::case): spools,
//! `merge` and `delta` rely on it reading back into the same record.

pub mod build;
#[cfg(test)]
pub mod example;
mod explain;
pub mod unstable;
pub mod weigh;

use crate::corpus::identity::{CaseId, CaseKey};
use crate::ledger::rules::Form;
use js_exact::{JsString, Value};

pub use crate::judge::signature::Signature;
pub use crate::judge::verdict::VerdictKind;
pub use crate::ledger::entry_ref::{EntryRef, EntryState};

/// Where a case stands in the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CaseState {
    /// Identical (or the same value, with `--semantic`), no ledger entry.
    Passed,
    /// Diverges, and no ledger is in use.
    Failed,
    /// Diverges exactly as its ledger entry says.
    Accepted,
    /// Diverges, and has no ledger entry.
    New,
    /// Has a ledger entry, but diverges differently.
    Changed,
    /// Has a ledger entry, but passes.
    Stale,
    /// The oracle failed on this case.
    Error,
}

impl CaseState {
    const ALL: [CaseState; 7] = [
        CaseState::Passed,
        CaseState::Failed,
        CaseState::Accepted,
        CaseState::New,
        CaseState::Changed,
        CaseState::Stale,
        CaseState::Error,
    ];

    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            CaseState::Passed => "passed",
            CaseState::Failed => "failed",
            CaseState::Accepted => "accepted",
            CaseState::New => "new",
            CaseState::Changed => "changed",
            CaseState::Stale => "stale",
            CaseState::Error => "error",
        }
    }

    /// The state a name names.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|state| state.name() == name)
    }

    /// Whether the case lets the run pass: passed or accepted.
    pub fn passes(self) -> bool {
        matches!(self, CaseState::Passed | CaseState::Accepted)
    }
}

/// One differing place, values masked.
#[derive(Debug, Clone, PartialEq)]
pub struct PathRecord {
    /// The JSON Pointer.
    pub pointer: JsString,
    /// The golden's value there; `None` when it has none.
    pub golden: Option<Value>,
    /// The actual value there.
    pub actual: Option<Value>,
    /// The golden's value with its numbers as written, when that is not
    /// how `JSON.stringify` prints it (`1e1000`, `-0`, big integers).
    pub golden_text: Option<String>,
    /// The actual value's, alike.
    pub actual_text: Option<String>,
}

impl PathRecord {
    /// The golden's value as JSON, its numbers as written.
    pub fn golden_json(&self) -> Option<std::borrow::Cow<'_, str>> {
        side_json(self.golden.as_ref(), self.golden_text.as_deref())
    }

    /// The actual value as JSON, its numbers as written.
    pub fn actual_json(&self) -> Option<std::borrow::Cow<'_, str>> {
        side_json(self.actual.as_ref(), self.actual_text.as_deref())
    }
}

fn side_json<'a>(
    value: Option<&Value>,
    text: Option<&'a str>,
) -> Option<std::borrow::Cow<'a, str>> {
    match (text, value) {
        (Some(text), _) => Some(std::borrow::Cow::Borrowed(text)),
        (None, Some(value)) => Some(std::borrow::Cow::Owned(
            String::from_utf8_lossy(&js_exact::to_json(value)).into_owned(),
        )),
        (None, None) => None,
    }
}

/// One reason why equal values are written differently, masked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReasonRecord {
    /// The reason's kind (`key order`, `number form`, …).
    pub kind: String,
    /// The JSON Pointer.
    pub pointer: JsString,
    /// How the golden writes it.
    pub golden: String,
    /// How the result writes it.
    pub actual: String,
    /// The reason in one line, for people.
    pub text: String,
}

/// Everything any report says about one case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseRecord {
    /// The identity file (relative to the cases directory), or the name
    /// of a lone comparison's file.
    pub file: String,
    /// The position in the case file, from 0.
    pub index: usize,
    /// The line where the case starts in its case file.
    pub line: Option<usize>,
    /// The stable identity.
    pub id: CaseId,
    /// The case's `op`, when a string.
    pub op: Option<String>,
    /// The case's `name`, when a string.
    pub name: Option<String>,
    /// `#index op "name"`, never masked.
    pub label: String,
    /// What the comparison found.
    pub verdict: VerdictKind,
    /// Where the case stands.
    pub state: CaseState,
    /// Its ledger entry, when it has one.
    pub entry: Option<EntryRef>,
    /// The divergence's fingerprint (every case that is not identical).
    pub fingerprint: Option<String>,
    /// The failure's kind, for grouping (failing cases only).
    pub signature: Option<Signature>,
    /// One line: the verdict and where.
    pub summary: String,
    /// The message the port threw, when it threw and the case fails.
    pub thrown: Option<String>,
    /// The golden threw `unknown op …`: the reference does not know the
    /// case's op, so per-op counts put it on the `(unknown op)` row.
    pub unknown_op: bool,
    /// The first differing places.
    pub paths: Vec<PathRecord>,
    /// How many places differ in all.
    pub total_paths: usize,
    /// The first reasons of a same-value case.
    pub reasons: Vec<ReasonRecord>,
    /// How many reasons in all.
    pub total_reasons: usize,
    /// A remark (an element compared as bytes only).
    pub note: Option<String>,
    /// The case, compact, masked, cut (failing cases only).
    pub input: Option<String>,
    /// The golden's element text, masked, cut (failing cases only).
    pub golden: Option<String>,
    /// The actual element text, masked, cut (failing cases only).
    pub actual: Option<String>,
    /// The end of what the oracle wrote on stderr when it ran this case
    /// alone, masked (cases the oracle failed on only).
    pub stderr: Option<String>,
    /// The ledger rule that decided the case (its index among the
    /// ledger's rules), when one did. Not in the JSON report: a run
    /// notes it on the way to the report, to find stale rules.
    pub rule: Option<usize>,
    /// The divergence's form, when it has one a rule can name (with a
    /// ledger only; not in the JSON report): what `accept --rule` groups
    /// by. The message is the port's own, unmasked: it goes into the
    /// ledger only when masking leaves it as it is.
    pub form: Option<Form>,
}

impl CaseRecord {
    /// Whether the case lets the run pass.
    pub fn passes(&self) -> bool {
        self.state.passes()
    }

    /// Whether the case is triaged: accepted by an entry or a rule that
    /// calls it a known bug to fix.
    pub fn is_triaged(&self) -> bool {
        self.state == CaseState::Accepted
            && matches!(
                self.entry.as_ref().map(|entry| &entry.state),
                Some(EntryState::Triaged { .. })
            )
    }

    /// `file:line`, or the file alone.
    pub fn location(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}", self.file),
            None => self.file.clone(),
        }
    }
}

impl CaseRecord {
    /// A passing, identical record with nothing but an identity, for
    /// building others from.
    pub fn passing_default() -> Self {
        CaseRecord {
            file: "argv.json".into(),
            index: 0,
            line: None,
            id: CaseId {
                file: "argv.json".into(),
                key: CaseKey::Hash(String::new()),
            },
            op: None,
            name: None,
            label: "#0".into(),
            verdict: VerdictKind::Identical,
            state: CaseState::Passed,
            entry: None,
            fingerprint: None,
            signature: None,
            summary: "identical".into(),
            thrown: None,
            unknown_op: false,
            paths: Vec::new(),
            total_paths: 0,
            reasons: Vec::new(),
            total_reasons: 0,
            note: None,
            input: None,
            golden: None,
            actual: None,
            stderr: None,
            rule: None,
            form: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for state in CaseState::ALL {
            assert_eq!(CaseState::from_name(state.name()), Some(state));
        }
        assert!(CaseState::Accepted.passes() && !CaseState::Stale.passes());
    }
}
