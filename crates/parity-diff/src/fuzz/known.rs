//! Which of a session's divergences the ledger already knows: the left
//! side stands for the golden, the right for the port, and a divergence
//! an accepted or triaged entry or rule matches is *known*, counted but
//! neither minimized nor written. Generated cases belong to no case file,
//! so a case entry (which names one case of one file) never matches one,
//! and neither does a rule narrowed by `files:`; the rules without
//! `files:` are what a partial port's session is weighed against.

use crate::corpus::identity::{CaseId, CaseKey};
use crate::exec::file_run::failure_verdict;
use crate::exec::oracle::FailureKind;
use crate::judge::compare::compare_elements;
use crate::judge::signature::DEFAULT_ERRORS;
use crate::ledger::rules::{Form, Match};
use crate::ledger::Ledger;
use crate::report::record::weigh::{form_of, paths_of, weigh, Case};
use crate::report::record::{CaseState, VerdictKind};

use super::outcome::Outcome;

/// Whether a rule of the ledger (one without `files:`, as every rule a
/// session is weighed against) accepts a failure of `kind` on every
/// case of `op`: a batch of such cases that fails so is known whichever
/// of its cases failed ([`run_both_knowing`](super::outcome::run_both_knowing)).
pub fn accepts_failure(ledger: &Ledger, op: &str, kind: FailureKind) -> bool {
    let wanted = match kind {
        FailureKind::Crash => Match::Crash,
        FailureKind::Timeout => Match::Timeout,
        FailureKind::InvalidOutput => Match::InvalidOutput,
    };
    ledger
        .rules()
        .iter()
        .any(|rule| rule.files.is_none() && rule.matches == wanted && rule.covers_op(Some(op)))
}

/// Whether the ledger accepts the divergence of a case of `op` whose
/// sides gave `left` (the golden's part) and `right` (the port's). A left
/// side that failed is never known: the ledger speaks of the port.
pub fn is_known(ledger: &Ledger, op: &str, left: &Outcome, right: &Outcome) -> bool {
    fn case<'a>(
        id: &'a CaseId,
        op: &'a str,
        verdict: VerdictKind,
        form: Option<&'a Form>,
        paths: Option<&'a [String]>,
    ) -> Case<'a> {
        Case {
            id,
            op: Some(op),
            verdict,
            passes: false,
            fingerprint: None,
            form,
            paths,
        }
    }
    let id = CaseId {
        file: String::new(),
        key: CaseKey::Hash(String::new()),
    };
    let weighed = match (left, right) {
        (Ok(golden), Ok(actual)) => {
            let comparison = compare_elements(golden, actual);
            if comparison.verdict.passes(false) {
                return false;
            }
            let verdict = match comparison.verdict {
                crate::judge::compare::Verdict::SameValue(_) => VerdictKind::SameValue,
                _ => VerdictKind::Different,
            };
            let (form, paths) = (form_of(&comparison, &DEFAULT_ERRORS), paths_of(&comparison));
            weigh(
                Some(ledger),
                case(&id, op, verdict, form.as_ref(), paths.as_deref()),
            )
        }
        (Ok(_), Err(failure)) => {
            let verdict = failure_verdict(failure.kind);
            let form = Form::Failed(verdict);
            weigh(Some(ledger), case(&id, op, verdict, Some(&form), None))
        }
        (Err(_), _) => return false,
    };
    weighed.state == CaseState::Accepted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::oracle::{FailureKind, OracleFailure};

    #[test]
    fn rules_know_the_ports_divergences_and_never_the_lefts() {
        let ledger = Ledger::parse(
            "rule op a\n  match: threw \"not implemented\"\n  state: accepted\n  reason: r\n\n\
             rule op b\n  match: crash\n  state: triaged\n  reason: r\n\n\
             rule op c\n  files: c.json\n  match: any\n  state: accepted\n  reason: r\n",
        )
        .unwrap();
        let ok = |text: &str| -> Outcome { Ok(text.as_bytes().to_vec()) };
        let crash = || -> Outcome { Err(OracleFailure::new(FailureKind::Crash, "exit 139")) };
        let threw = ok(r#"{"threw":true,"message":"not implemented"}"#);
        let value = ok(r#"{"value":1}"#);
        assert!(is_known(&ledger, "a", &value, &threw));
        assert!(!is_known(&ledger, "x", &value, &threw));
        assert!(!is_known(&ledger, "a", &value, &ok(r#"{"value":2}"#)));
        assert!(is_known(&ledger, "b", &value, &crash()));
        assert!(!is_known(&ledger, "b", &crash(), &value));
        assert!(!is_known(&ledger, "a", &value, &value));
        // A rule narrowed to files knows no generated case.
        assert!(!is_known(&ledger, "c", &value, &threw));
    }
}
