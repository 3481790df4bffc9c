use super::*;

#[test]
fn summary_and_exit_codes() {
    let mut totals = Totals {
        passed: 3,
        ..Totals::default()
    };
    assert_eq!(totals.summary_line(), "3 passed, 0 failed");
    assert_eq!(totals.exit_code(), 0);
    totals.accepted = 2;
    assert_eq!(totals.summary_line(), "3 passed, 0 failed, 2 accepted");
    assert_eq!(totals.exit_code(), 0);
    totals.orphaned = 1;
    assert_eq!(totals.exit_code(), 1);
    totals.orphaned = 0;
    totals.failed = 2;
    assert_eq!(totals.exit_code(), 1);
    totals.skipped = 4;
    totals.errors = 1;
    assert_eq!(
        totals.summary_line(),
        "3 passed, 2 failed, 2 accepted, 4 skipped"
    );
    assert_eq!(totals.exit_code(), 2);
}

#[test]
fn an_op_that_threw_one_message_on_every_case_is_uniform() {
    let mut sink = Sink::new(Vec::new(), ReportOptions::default(), RunInfo::default());
    let failing = |message: &str| CaseRecord {
        op: Some("x".into()),
        state: CaseState::Failed,
        thrown: Some(message.into()),
        ..CaseRecord::passing_default()
    };
    sink.case(failing("no")).unwrap();
    sink.case(failing("no")).unwrap();
    assert_eq!(sink.aggregates.by_op["x"].all_threw(), Some("no"));
    sink.case(failing("other")).unwrap();
    assert_eq!(sink.aggregates.by_op["x"].all_threw(), None);
    sink.case(CaseRecord::passing_default()).unwrap();
    assert_eq!(sink.aggregates.by_op[NO_OP].tally.passed, 1);
    assert_eq!(sink.totals().failed, 3);
    // A case only counted counts the same, and breaks uniformity.
    sink.case(failing("no")).unwrap();
    let mut sink = Sink::new(Vec::new(), ReportOptions::default(), RunInfo::default());
    sink.case(failing("no")).unwrap();
    assert!(!Consumer::wants_passing(&sink));
    Consumer::counted(&mut sink, Some("x"), false, CaseState::Passed, 1).unwrap();
    assert_eq!(sink.aggregates.by_op["x"].tally.passed, 1);
    assert_eq!(sink.aggregates.by_op["x"].all_threw(), None);
    assert_eq!(sink.totals().passed, 1);
    assert_eq!(sink.tally.passed, 1);
    Consumer::counted(&mut sink, None, false, CaseState::Failed, 1).unwrap();
    assert_eq!(sink.totals().failed, 2);
    assert_eq!(sink.aggregates.by_op[NO_OP].tally.failed, 1);
    // Many cases counted at once count as many counted one by one.
    Consumer::counted(&mut sink, Some("x"), false, CaseState::Passed, 3).unwrap();
    Consumer::counted(&mut sink, None, false, CaseState::Failed, 2).unwrap();
    assert_eq!(sink.aggregates.by_op["x"].tally.passed, 4);
    assert_eq!(sink.aggregates.by_op[NO_OP].tally.failed, 3);
    assert_eq!((sink.totals().passed, sink.totals().failed), (4, 4));
    assert_eq!((sink.tally.passed, sink.tally.failed), (4, 4));
}
