use super::*;
use crate::command::review::queue::tests::record;
use crate::command::review::queue::Builder;
use crate::report::record::CaseState;

/// Two new groups (sum: 2 cases, max: 1) and a stale case.
fn session(dir: &std::path::Path) -> Session {
    let mut builder = Builder::default();
    for record in [
        record("a", "sum", CaseState::New, "x"),
        record("b", "sum", CaseState::New, "x"),
        record("c", "max", CaseState::New, "y"),
        record("d", "min", CaseState::Stale, "s"),
    ] {
        builder.case(&record).unwrap();
    }
    let ledger = dir.join("parity-ledger.txt");
    std::fs::write(
        &ledger,
        "case a.json \"d\"\n  op: min\n  state: accepted\n  reason: old\n  fingerprint: 0000000000000001\n",
    )
    .unwrap();
    Session::new(builder.finish(), ledger)
}

fn keys(session: &mut Session, text: &str) {
    for c in text.chars() {
        session.key(Key::Char(c));
    }
}

fn ledger(session: &Session) -> String {
    std::fs::read_to_string(&session.ledger).unwrap()
}

#[test]
fn accept_triage_prune_then_quit_writes_each_decision_as_it_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = session(dir.path());
    keys(&mut session, "a");
    assert!(session.prompt.is_some());
    keys(&mut session, "sums differ");
    assert!(
        !ledger(&session).contains("sums differ"),
        "not before Enter"
    );
    session.key(Key::Enter);
    assert_eq!(
        session.message,
        Some((Tone::Said, "accepted: 2 entries added".into()))
    );
    assert_eq!(ledger(&session).matches("reason: sums differ").count(), 2);
    // The last reason is offered; triaging asks a link after it.
    keys(&mut session, "t");
    assert_eq!(session.prompt.as_ref().unwrap().typed(), "sums differ");
    session.key(Key::ClearLine);
    keys(&mut session, "max is off");
    session.key(Key::Enter);
    keys(&mut session, "https://example.com/issues/3");
    session.key(Key::Enter);
    assert!(ledger(&session).contains(
        "case a.json \"c\"\n  op: max\n  state: triaged https://example.com/issues/3\n  reason: max is off\n"
    ));
    // A stale entry is pruned, not accepted.
    keys(&mut session, "a");
    assert_eq!(
        session.message.as_ref().unwrap().0,
        Tone::Refused,
        "{:?}",
        session.message
    );
    assert!(session.prompt.is_none());
    keys(&mut session, "p");
    assert!(!ledger(&session).contains("case a.json \"d\""));
    assert!(session.queue.is_done());
    keys(&mut session, "a");
    assert_eq!(
        session.message,
        Some((Tone::Said, "every item has been seen: q quits".into()))
    );
    assert!(!session.quit);
    keys(&mut session, "q");
    assert!(session.quit);
    let tally = session.queue.tally();
    assert_eq!(
        (tally.accepted, tally.triaged, tally.pruned, tally.left),
        (1, 1, 1, 0)
    );
}

#[test]
fn esc_or_quitting_while_typing_drops_that_decision_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = session(dir.path());
    let before = ledger(&session);
    keys(&mut session, "aqs");
    assert_eq!(
        session.prompt.as_ref().unwrap().typed(),
        "qs",
        "typed, not keys"
    );
    session.key(Key::Esc);
    assert!(session.prompt.is_none() && !session.quit);
    assert_eq!(session.queue.current().unwrap().0, 0, "still undecided");
    keys(&mut session, "p");
    assert_eq!(
        session.message,
        Some((
            Tone::Refused,
            "only stale entries, orphaned entries and rules are pruned".into()
        ))
    );
    keys(&mut session, "s");
    assert_eq!(session.queue.current().unwrap().0, 1);
    keys(&mut session, "rnot ported");
    session.key(Key::Interrupt);
    assert!(session.quit);
    assert_eq!(ledger(&session), before, "nothing written");
    let tally = session.queue.tally();
    assert_eq!((tally.skipped, tally.left), (1, 2));
}

#[test]
fn cases_views_and_help_change_what_is_shown_not_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = session(dir.path());
    keys(&mut session, "n");
    assert_eq!(session.queue.case_index(), 1);
    keys(&mut session, "n");
    assert_eq!(
        session.message,
        Some((Tone::Said, "this is the last case of the group".into()))
    );
    keys(&mut session, "N");
    assert_eq!(session.queue.case_index(), 0);
    assert!(!session.unified);
    keys(&mut session, "v");
    assert!(session.unified);
    keys(&mut session, "?");
    assert!(session.help);
    keys(&mut session, "a");
    assert!(
        !session.help && session.prompt.is_none(),
        "a key closes help"
    );
    session.key(Key::PageDown);
    session.key(Key::Up);
    assert_eq!(session.scroll, PAGE - 1);
    keys(&mut session, "x");
    assert_eq!(session.message.as_ref().unwrap().0, Tone::Refused);
    assert!(!ledger(&session).contains("reason: \n"));
}
