//! Reports written by the JSON format and read back piece by piece, and
//! what is refused with a reason.

use super::read::*;
use super::{GroupInfo, ReportHead, Summary, Version};
use crate::base::error::InputError;
use crate::base::glob::Glob;
use crate::corpus::identity::{CaseId, CaseKey};
use crate::ledger::rules::{Match, Rule, RuleFinding, RuleOps, RuleProblem};
use crate::ledger::Entry;
use crate::report::json::{CorpusInfo, ShardInfo};
use crate::report::record::CaseRecord;
use crate::report::record::{CaseState, EntryState, Signature, VerdictKind};
use crate::report::{Consumer, Format, ReportOptions, RunInfo, Sink, Totals};
use crate::report::{FileInfo, Problem, Tally};

fn record(name: &str, index: usize, failing: bool) -> CaseRecord {
    let id = CaseId {
        file: "a.json".into(),
        key: CaseKey::Name(name.into()),
    };
    let mut record = CaseRecord {
        file: "a.json".into(),
        index,
        line: Some(index + 1),
        label: format!("#{index} x {name:?}"),
        op: Some("x".into()),
        name: Some(name.into()),
        id,
        ..CaseRecord::passing_default()
    };
    if failing {
        record.verdict = VerdictKind::Different;
        record.state = CaseState::Failed;
        record.fingerprint = Some("0123456789abcdef".into());
        record.signature = Some(Signature::new(Some("x"), "different", "different at /v"));
        record.summary = "different at /v".into();
        record.golden = Some("{\"v\":1}".into());
        record.actual = Some("{\"v\":2}".into());
    }
    record
}

fn report(run: RunInfo) -> (Vec<u8>, Vec<CaseRecord>) {
    let options = ReportOptions {
        format: Format::Json,
        ..ReportOptions::default()
    };
    let mut out = Vec::new();
    let mut sink = Sink::new(&mut out, options, run);
    let records = vec![record("one", 0, false), record("two \u{2028}\"", 1, true)];
    sink.begin_file(FileInfo {
        suite: None,
        name: Some("a.json".into()),
        path: Some("cases/a.json".into()),
    })
    .unwrap();
    for record in &records {
        sink.case(record.clone()).unwrap();
    }
    Consumer::warning(&mut sink, "a warning").unwrap();
    sink.end_file().unwrap();
    sink.begin_file(FileInfo {
        suite: None,
        name: Some("b.json".into()),
        path: Some("cases/b.json".into()),
    })
    .unwrap();
    sink.problem(Problem::Error {
        message: "the oracle exited with status 3".into(),
        stderr: Some("boom".into()),
        skipped: 4,
        port: false,
    })
    .unwrap();
    sink.end_file().unwrap();
    sink.orphaned_entry(&orphan());
    Consumer::rule_finding(&mut sink, &rule_finding());
    Consumer::shard_rules(&mut sink, shard_rules());
    sink.finish().unwrap();
    (out, records)
}

fn orphan() -> Entry {
    Entry {
        id: CaseId {
            file: "a.json".into(),
            key: CaseKey::Name("gone".into()),
        },
        op: None,
        state: EntryState::Accepted,
        reason: "why".into(),
        verdict: None,
        paths: Vec::new(),
        fingerprint: "0123456789abcdef".into(),
        comments: Vec::new(),
    }
}

/// A stale rule whose every member is set, its index 0 as read back.
fn rule_finding() -> RuleFinding {
    RuleFinding {
        rule: Rule {
            ops: RuleOps::Named(vec!["x".into(), "two words".into()]),
            files: Some(Glob::new("a*.json").unwrap()),
            matches: Match::Threw("not \"yet\"".into()),
            state: EntryState::Triaged {
                link: Some("https://example.com/1".into()),
            },
            reason: "why: because".into(),
            comments: Vec::new(),
        },
        index: 0,
        problem: RuleProblem::Stale,
    }
}

/// A shard's rules: their indexes are what `merge` knows them by.
fn shard_rules() -> Vec<RuleFinding> {
    let orphaned = RuleFinding {
        rule: Rule {
            ops: RuleOps::Every,
            files: None,
            matches: Match::Any,
            state: EntryState::Accepted,
            reason: "every op".into(),
            comments: Vec::new(),
        },
        index: 7,
        problem: RuleProblem::Orphaned,
    };
    vec![
        RuleFinding {
            index: 3,
            ..rule_finding()
        },
        orphaned,
    ]
}

fn read_all(bytes: &[u8]) -> Result<(ReportHead, Vec<Item>), InputError> {
    let (mut reader, head) = ReportReader::new(bytes, "r.json")?;
    let mut items = Vec::new();
    while let Some(item) = reader.next_item()? {
        items.push(item);
    }
    Ok((head, items))
}

#[test]
fn a_report_reads_back_piece_by_piece() {
    let run = RunInfo {
        suites: Vec::new(),
        suite_ledgers: Vec::new(),
        unredacted: Vec::new(),
        command: "run",
        shard: Some(ShardInfo {
            index: 1,
            count: 2,
            from: 0,
            to: 2,
            timings: None,
        }),
        corpus: Some(CorpusInfo {
            fingerprint: "ffff".into(),
            cases: 4,
            case_files: vec!["a.json".into(), "b.json".into()],
            ..CorpusInfo::default()
        }),
        ledger: None,
    };
    let (bytes, records) = report(run.clone());
    let (head, items) = read_all(&bytes).unwrap();
    assert_eq!(head.command, "run");
    assert_eq!(head.shard, run.shard);
    assert_eq!(head.corpus, run.corpus);
    assert_eq!(head.ledger, None);
    let expected = vec![
        Item::File(FileHead {
            info: FileInfo {
                suite: None,
                name: Some("a.json".into()),
                path: Some("cases/a.json".into()),
            },
            tally: Tally {
                passed: 1,
                accepted: 0,
                failed: 1,
            },
            problem: None,
            warnings: vec!["a warning".into()],
        }),
        Item::Case(Box::new(records[0].clone())),
        Item::Case(Box::new(records[1].clone())),
        Item::EndFile,
        Item::File(FileHead {
            info: FileInfo {
                suite: None,
                name: Some("b.json".into()),
                path: Some("cases/b.json".into()),
            },
            tally: Tally::default(),
            problem: Some(Problem::Error {
                message: "the oracle exited with status 3".into(),
                stderr: Some("boom".into()),
                skipped: 4,
                port: false,
            }),
            warnings: Vec::new(),
        }),
        Item::EndFile,
        Item::OrphanedEntry(Box::new(orphan())),
        Item::RuleFinding(Box::new(rule_finding())),
        Item::ShardRules(shard_rules()),
        Item::Group(GroupInfo {
            signature: Signature::new(Some("x"), "different", "different at /v"),
            count: 1,
            cases: vec![records[1].id.clone()],
        }),
        Item::ByOp(vec![(
            "x".into(),
            Tally {
                passed: 1,
                accepted: 0,
                failed: 1,
            },
        )]),
        Item::Summary(Summary {
            totals: Totals {
                passed: 1,
                failed: 1,
                orphaned: 1,
                rules: 1,
                skipped: 4,
                errors: 1,
                ..Totals::default()
            },
            exit_code: 2,
        }),
    ];
    assert_eq!(head.version, Version::V2);
    assert_eq!(items, expected);
    // Version 1 reads the same (its reports name no suite).
    let text = String::from_utf8(bytes.clone()).unwrap();
    let old = text
        .replacen("\"version\":2", "\"version\":1", 1)
        .replacen(",\"suites\":[]", "", 1)
        .replacen(",\"bySuite\":{}", "", 1);
    let (old_head, old_items) = read_all(old.as_bytes()).unwrap();
    assert_eq!(old_head.version, Version::V1);
    assert_eq!(old_items, items);
    // Members this reader does not use, 100 000 levels deep, at every
    // level it reads (head, file, case, list element, after the cases,
    // after the files), are read past and change nothing.
    let deep = format!("{}0{}", "[{\"k\":".repeat(100_000), "}]".repeat(100_000));
    let junk = format!("\"junk\":{deep},");
    let text = String::from_utf8(bytes.clone()).unwrap();
    for (at, count) in [
        ("{\"version\"", 1),
        ("\"name\":\"a.json\"", 1),
        ("\"label\":", 4),
        ("\"signature\":\"", 1),
        ("\"summary\":{", 1),
    ] {
        assert!(text.contains(at), "{at}");
        let planted = match at.strip_prefix('{') {
            Some(rest) => text.replacen(at, &format!("{{{junk}{rest}"), count),
            None => text.replacen(at, &format!("{junk}{at}"), count),
        };
        let (_, read) = read_all(planted.as_bytes()).unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(read, items, "{at}");
    }
    let after_cases = text.replacen("]}", &format!("],{}}}", &junk[..junk.len() - 1]), 1);
    assert_eq!(read_all(after_cases.as_bytes()).unwrap().1, items);
}

#[test]
fn what_is_not_a_report_of_a_known_version_is_refused_with_a_reason() {
    let (bytes, _) = report(RunInfo {
        command: "run",
        ..RunInfo::default()
    });
    let text = String::from_utf8(bytes).unwrap();
    let error = |text: &str| read_all(text.as_bytes()).unwrap_err().message;
    assert_eq!(
        error(&text.replacen("\"version\":2", "\"version\":3", 1)),
        "r.json is a report of format version 3; this parity-diff reads versions 1 and 2"
    );
    assert!(error("[1,2]").starts_with("r.json is not a parity-diff JSON report: unexpected '['"));
    assert!(error("").contains("unexpected end of input"));
    assert!(error("{\"version\":1}").starts_with("r.json: no files"));
    assert!(error("{\"files\":[]}").starts_with("r.json: no format version before the files"));
    assert!(
        error("{\"version\":1,\"command\":\"run\",\"shard\":{\"index\":3},\"files\":[]}")
            .starts_with("r.json: a malformed `shard`")
    );
    let truncated = &text[..text.len() / 2];
    assert!(
        error(truncated).contains("unexpected end of input"),
        "{}",
        error(truncated)
    );
    let bad_case = text.replacen("\"verdict\":\"identical\"", "\"verdict\":\"odd\"", 1);
    assert!(error(&bad_case).contains("a case of a.json that is not a case object"));
    let trailing = format!("{text} x");
    assert!(error(&trailing).contains("unexpected 'x'"));
    let bad_group = text.replacen("\"count\":1", "\"count\":-1", 1);
    assert!(error(&bad_group).contains("a group that is not one"));
    let bad_summary = text.replacen("\"exitCode\":2", "\"exitCode\":\"2\"", 1);
    assert!(error(&bad_summary).contains("a malformed `summary`"));
    let bad_shard_rules = text.replacen("\"index\":3,", "\"index\":-3,", 1);
    assert_ne!(bad_shard_rules, text);
    assert!(error(&bad_shard_rules).contains("a malformed `shardRules`"));
    // Members a later version adds are read past, wherever they are.
    let whole = read_all(text.as_bytes()).unwrap().1;
    let more = text
        .replacen("\"files\":[{", "\"extra\":[1,{}],\"files\":[{\"new\":1,", 1)
        .replacen("\"byOp\":", "\"suites\":[[1],{\"a\":2}],\"byOp\":", 1)
        .replacen("}\n", ",\"last\":null}\n", 1);
    assert_ne!(more, text);
    assert_eq!(read_all(more.as_bytes()).unwrap().1, whole);
}
