//! The framing divergences of two reports, file by file: a file whose
//! framing fails in HEAD and did not in BASE is newly failing, and so
//! on, as for a case. A file's framing is a divergence of the file (its
//! cases are compared all the same), so it is a change of its own,
//! named `FILE (framing)`.

use std::collections::BTreeMap;

use super::{Change, Kind};
use crate::report::Problem;

/// How a file's framing stood in a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Framed {
    /// Exact, or not checked.
    Exact,
    /// It differed, and a rule accepted it.
    Accepted,
    /// It differed, and that failed the run: how.
    Failed(String),
}

impl Framed {
    fn of(problem: Option<&Problem>) -> Self {
        match problem {
            Some(Problem::Framing { state, .. }) if state.passes() => Framed::Accepted,
            Some(Problem::Framing { found, .. }) => Framed::Failed(found.clone()),
            _ => Framed::Exact,
        }
    }

    fn fails(&self) -> bool {
        matches!(self, Framed::Failed(_))
    }

    fn word(&self) -> String {
        match self {
            Framed::Exact => "passed".into(),
            Framed::Accepted => "accepted".into(),
            Framed::Failed(found) => format!("failed: {found}"),
        }
    }
}

/// Each file's framing in one report, by the name a change shows.
pub type Framings = BTreeMap<String, Framed>;

/// Notes a file of a report (`suite`: when cases are keyed by suite).
pub fn note(
    framings: &mut Framings,
    suite: Option<&str>,
    name: Option<&str>,
    problem: Option<&Problem>,
) {
    let Some(name) = name else { return };
    let shown = match suite {
        Some(suite) => format!("{suite}: {name} (framing)"),
        None => format!("{name} (framing)"),
    };
    framings.insert(shown, Framed::of(problem));
}

/// The changes between BASE's and HEAD's framings, of the files both
/// reports hold.
pub fn changes(base: &Framings, head: &Framings) -> Vec<(Kind, Change)> {
    let mut out = Vec::new();
    for (id, after) in head {
        let Some(before) = base.get(id) else { continue };
        let kind = match (before.fails(), after.fails()) {
            (false, true) => Kind::NewlyFailing,
            (true, false) => Kind::NewlyPassing,
            (true, true) if before != after => Kind::FailingDifferently,
            _ => continue,
        };
        out.push((
            kind,
            Change {
                id: id.clone(),
                before: before.word(),
                after: after.word(),
            },
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::record::CaseState;

    fn framing(state: CaseState, found: &str) -> Problem {
        Problem::Framing {
            found: found.into(),
            state,
            entry: None,
            rule: None,
        }
    }

    #[test]
    fn a_file_s_framing_changes_as_a_case_does() {
        let newline = framing(CaseState::Failed, "after the last result \"]\\n\"");
        let spaces = framing(CaseState::New, "before the first result \"[ \"");
        let accepted = framing(CaseState::Accepted, "after the last result \"]\\n\"");
        let mut base = Framings::new();
        let mut head = Framings::new();
        for (name, before, after) in [
            ("a.json", None, Some(&newline)),
            ("b.json", Some(&newline), None),
            ("c.json", Some(&newline), Some(&spaces)),
            ("d.json", Some(&newline), Some(&accepted)),
            ("e.json", Some(&newline), Some(&newline)),
        ] {
            note(&mut base, None, Some(name), before);
            note(&mut head, None, Some(name), after);
        }
        note(&mut head, None, Some("new.json"), Some(&newline));
        let found: Vec<(Kind, String, String, String)> = changes(&base, &head)
            .into_iter()
            .map(|(kind, change)| (kind, change.id, change.before, change.after))
            .collect();
        let failed = |text: &str| format!("failed: {text}");
        assert_eq!(
            found,
            vec![
                (
                    Kind::NewlyFailing,
                    "a.json (framing)".into(),
                    "passed".into(),
                    failed("after the last result \"]\\n\"")
                ),
                (
                    Kind::NewlyPassing,
                    "b.json (framing)".into(),
                    failed("after the last result \"]\\n\""),
                    "passed".into()
                ),
                (
                    Kind::FailingDifferently,
                    "c.json (framing)".into(),
                    failed("after the last result \"]\\n\""),
                    failed("before the first result \"[ \"")
                ),
                (
                    Kind::NewlyPassing,
                    "d.json (framing)".into(),
                    failed("after the last result \"]\\n\""),
                    "accepted".into()
                ),
            ]
        );
    }
}
