//! A case weighed against the ledger in use: its case entry first (by
//! fingerprint), then, for a divergence no entry names, the rule that
//! decides it ([`rules::decide`]). One place decides for compared cases
//! and for cases the oracle failed on alike.

use super::{CaseState, EntryRef, VerdictKind};
use crate::corpus::identity::CaseId;
use crate::judge::compare::{Comparison, Verdict};
use crate::judge::explain::ReasonKind;
use crate::judge::signature::ErrorProtocol;
use crate::ledger::rules::{self, Divergent, Form};
use crate::ledger::Ledger;

/// What the ledger says of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Weighed {
    /// Its state.
    pub state: CaseState,
    /// The entry or rule that accounts for it, as reports show it.
    pub entry: Option<EntryRef>,
    /// The rule that decided it (its index), when one did.
    pub rule: Option<usize>,
}

/// What is known of one case before the ledger weighs it.
#[derive(Debug, Clone, Copy)]
pub struct Case<'a> {
    /// Its identity.
    pub id: &'a CaseId,
    /// Its op.
    pub op: Option<&'a str>,
    /// Its verdict.
    pub verdict: VerdictKind,
    /// Whether it passes as it stands (identical, or the same value with
    /// `--semantic`).
    pub passes: bool,
    /// Its divergence's fingerprint, when it diverges.
    pub fingerprint: Option<&'a str>,
    /// Its form, when it has one.
    pub form: Option<&'a Form>,
    /// Every place it differs at, when all are known.
    pub paths: Option<&'a [String]>,
}

/// Weighs a case: without a ledger it passes or fails; with one, its
/// entry decides (stale when it passes, accepted when the fingerprint is
/// the entry's, changed otherwise), then a rule, else it is new.
pub fn weigh(ledger: Option<&Ledger>, case: Case) -> Weighed {
    let bare = |state| Weighed {
        state,
        entry: None,
        rule: None,
    };
    let Some(ledger) = ledger else {
        return bare(if case.passes {
            CaseState::Passed
        } else {
            CaseState::Failed
        });
    };
    if let Some(entry) = ledger.get(case.id) {
        let state = if case.passes {
            CaseState::Stale
        } else if Some(entry.fingerprint.as_str()) == case.fingerprint {
            CaseState::Accepted
        } else {
            CaseState::Changed
        };
        return Weighed {
            state,
            entry: Some(entry.entry_ref()),
            rule: None,
        };
    }
    if case.passes {
        return bare(CaseState::Passed);
    }
    let divergent = Divergent {
        file: &case.id.file,
        op: case.op,
        verdict: case.verdict,
        form: case.form,
        paths: case.paths,
    };
    match rules::decide(ledger.rules(), &divergent) {
        Some(at) => Weighed {
            state: CaseState::Accepted,
            entry: Some(ledger.rules()[at].entry_ref()),
            rule: Some(at),
        },
        None => bare(CaseState::New),
    }
}

/// The form of a compared divergence: the port threw a message the
/// golden did not throw, returned a value where the golden threw (both
/// by the suite's error protocol), or wrote only numbers otherwise.
pub fn form_of(comparison: &Comparison, errors: &ErrorProtocol) -> Option<Form> {
    match &comparison.verdict {
        Verdict::SameValue(explanation) => {
            let reasons = &explanation.reasons;
            let spelling = !reasons.is_empty()
                && explanation.total == reasons.len()
                && reasons.iter().all(|r| r.kind == ReasonKind::NumberForm);
            spelling.then_some(Form::Spelling)
        }
        Verdict::Different(_) => {
            let golden = errors.thrown(comparison.golden.as_ref());
            match errors.thrown(comparison.actual.as_ref()) {
                Some(thrown) => (golden != Some(thrown))
                    .then(|| Form::Threw(thrown.to_utf8_lossy().into_owned())),
                None => golden.is_some().then_some(Form::Returned),
            }
        }
        _ => None,
    }
}

/// Every place a compared divergence differs at, when all were kept.
pub fn paths_of(comparison: &Comparison) -> Option<Vec<String>> {
    let pointers: Vec<String> = match &comparison.verdict {
        Verdict::Different(divergence) if divergence.total == divergence.paths.len() => divergence
            .paths
            .iter()
            .map(|path| path.pointer.to_utf8_lossy().into_owned())
            .collect(),
        Verdict::SameValue(explanation) if explanation.total == explanation.reasons.len() => {
            explanation
                .reasons
                .iter()
                .map(|reason| reason.pointer.to_utf8_lossy().into_owned())
                .collect()
        }
        _ => return None,
    };
    (!pointers.is_empty()).then_some(pointers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::identity::CaseKey;
    use crate::judge::compare::compare_elements;

    const LEDGER: &str = "\
rule op a
  match: threw \"not implemented\"
  state: accepted
  reason: not ported

case f.json \"entry\"
  op: a
  state: triaged
  reason: a bug
  fingerprint: 0000000000000001
";

    fn case<'a>(
        id: &'a CaseId,
        passes: bool,
        fingerprint: &'a str,
        form: Option<&'a Form>,
    ) -> Case<'a> {
        Case {
            id,
            op: Some("a"),
            verdict: VerdictKind::Different,
            passes,
            fingerprint: Some(fingerprint),
            form,
            paths: None,
        }
    }

    #[test]
    fn an_entry_wins_over_a_rule_and_a_rule_over_nothing() {
        let ledger = Ledger::parse(LEDGER).unwrap();
        let named = |name: &str| CaseId {
            file: "f.json".into(),
            key: CaseKey::Name(name.into()),
        };
        let (entry, other) = (named("entry"), named("other"));
        let threw = Form::Threw("not implemented".into());
        let weigh = |case| weigh(Some(&ledger), case);
        // The entry's case, threwing what the rule accepts: the entry decides.
        let changed = weigh(case(&entry, false, "0000000000000002", Some(&threw)));
        assert_eq!((changed.state, changed.rule), (CaseState::Changed, None));
        assert_eq!(
            weigh(case(&entry, false, "0000000000000001", None)).state,
            CaseState::Accepted
        );
        assert_eq!(
            weigh(case(&entry, true, "0000000000000001", None)).state,
            CaseState::Stale
        );
        let ruled = weigh(case(&other, false, "0000000000000002", Some(&threw)));
        assert_eq!((ruled.state, ruled.rule), (CaseState::Accepted, Some(0)));
        assert_eq!(ruled.entry.unwrap().reason, "not ported");
        assert_eq!(
            weigh(case(&other, false, "0000000000000002", None)).state,
            CaseState::New
        );
        assert_eq!(
            weigh(case(&other, true, "0000000000000002", None)).state,
            CaseState::Passed
        );
        let alone = super::weigh(None, case(&other, false, "0000000000000002", Some(&threw)));
        assert_eq!(alone.state, CaseState::Failed);
    }

    #[test]
    fn forms_and_paths_of_comparisons() {
        let form = |golden: &str, actual: &str| {
            let errors = crate::judge::signature::DEFAULT_ERRORS.clone();
            form_of(
                &compare_elements(golden.as_bytes(), actual.as_bytes()),
                &errors,
            )
        };
        let threw = r#"{"threw":true,"message":"no"}"#;
        assert_eq!(
            form(r#"{"value":1}"#, threw),
            Some(Form::Threw("no".into()))
        );
        assert_eq!(
            form(r#"{"threw":true,"message":"yes"}"#, threw),
            Some(Form::Threw("no".into()))
        );
        // The golden threw the same message: the difference is elsewhere.
        assert_eq!(form(r#"{"threw":true,"message":"no","x":1}"#, threw), None);
        assert_eq!(form(r#"{"value":1}"#, r#"{"value":2}"#), None);
        assert_eq!(form(threw, r#"{"value":1}"#), Some(Form::Returned));
        assert_eq!(form("[1,2]", "[1.0,2e0]"), Some(Form::Spelling));
        assert_eq!(
            form(r#"{"a":1,"b":2}"#, r#"{"b":2,"a":1.0}"#),
            None,
            "key order too"
        );
        // Another protocol: one member is the flag and the message.
        let error = ErrorProtocol {
            flag: "/error".into(),
            message: "/error".into(),
        };
        let other = |golden: &str, actual: &str| {
            form_of(
                &compare_elements(golden.as_bytes(), actual.as_bytes()),
                &error,
            )
        };
        assert_eq!(
            other(r#"{"value":1}"#, r#"{"error":"no"}"#),
            Some(Form::Threw("no".into()))
        );
        assert_eq!(other(r#"{"value":1}"#, threw), None);
        assert_eq!(other(r#"{"error":"no"}"#, r#"{"error":"no","x":1}"#), None);
        let paths = |golden: &str, actual: &str| {
            paths_of(&compare_elements(golden.as_bytes(), actual.as_bytes()))
        };
        assert_eq!(
            paths(r#"{"a":1,"b":[1,2]}"#, r#"{"a":2,"b":[1,3]}"#),
            Some(vec!["/a".to_owned(), "/b/1".to_owned()])
        );
        let many = |n: usize| format!("[{}]", vec![n.to_string(); 11].join(","));
        assert_eq!(paths(&many(1), &many(2)), None, "more paths than were kept");
        assert_eq!(paths("1", "1.0"), Some(vec![String::new()]));
    }
}
