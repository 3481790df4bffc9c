use super::*;
use crate::ledger::Ledger;

const RULES: &str = "\
# parity-diff ledger: divergences of this port from the goldens that are known.

# Not ported yet.
rule op sum product
  match: threw \"not implemented\"
  state: accepted
  reason: not ported yet

rule op round
  files: \"env ready*.json\"
  match: paths /value \"/a b\"
  state: triaged https://github.com/acme/port/issues/12
  reason: rounding

rule op *
  match: crash
  state: triaged
  reason: Python's recursion limit

rule op \"two words\"
  match: any
  state: accepted
  reason: later

rule op *
  files: \"gen [?].json\"
  match: framing
  state: accepted
  reason: pretty-printed
";

fn divergent<'a>(
    op: Option<&'a str>,
    verdict: VerdictKind,
    form: Option<&'a Form>,
) -> Divergent<'a> {
    Divergent {
        file: "argv.json",
        op,
        verdict,
        form,
        paths: None,
    }
}

#[test]
fn rules_read_and_write_back_unchanged() {
    let ledger = Ledger::parse(RULES).unwrap();
    let rules = ledger.rules();
    assert_eq!(rules.len(), 5);
    assert_eq!(
        rules[0].ops,
        RuleOps::Named(vec!["sum".into(), "product".into()])
    );
    assert_eq!(rules[0].matches, Match::Threw("not implemented".into()));
    assert_eq!(rules[0].comments, vec!["# Not ported yet.".to_owned()]);
    assert_eq!(
        rules[1].files.as_ref().unwrap().pattern(),
        "env ready*.json"
    );
    assert_eq!(
        rules[1].matches,
        Match::Paths(vec!["/value".into(), "/a b".into()])
    );
    assert_eq!(
        rules[1].state,
        EntryState::Triaged {
            link: Some("https://github.com/acme/port/issues/12".into())
        }
    );
    assert_eq!(rules[2].ops, RuleOps::Every);
    assert_eq!(rules[3].matches, Match::Any);
    assert_eq!(rules[4].matches, Match::Framing);
    assert_eq!(ledger.render(), RULES);
    assert_eq!(Ledger::parse(&ledger.render()).unwrap(), ledger);
}

#[test]
fn malformed_rules_name_their_line() {
    for (text, line, message) in [
        ("rule sum\n  match: any\n  state: accepted\n", 1, "a rule is `rule op OP…` or `rule op *`, not `rule sum`"),
        ("rule op\n", 1, "a rule is `rule op OP…` or `rule op *`"),
        ("rule op a * b\n", 1, "`*` stands alone: `rule op *`"),
        ("rule op a a\n", 1, "the op a is named twice"),
        ("rule op a\n  state: accepted\n", 1, "the rule op a has no `match`"),
        ("rule op a\n  match: any\n", 1, "the rule op a has no `state`"),
        ("rule op a\n  match: threw not implemented\n", 2, "`match: threw` takes the message as a JSON string (threw \"not implemented\")"),
        ("rule op a\n  match: crashed\n", 2, "match is `threw MESSAGE`, `threw`, `threw-like GLOB`, `returned`, `spelling`, `crash`, `timeout`, `invalid-output`, `nondeterministic`, `framing`, `paths P…` or `any`, not \"crashed\""),
        ("rule op a\n  match: threw-like index\n", 2, "`match: threw-like` takes a glob as a JSON string (threw-like \"index\")"),
        ("rule op a\n  match: returned now\n", 2, "`match: returned` takes nothing after it, not \"now\""),
        ("rule op a\n  match: crash now\n", 2, "`match: crash` takes nothing after it, not \"now\""),
        ("rule op a\n  match: paths value\n", 2, "a path is a JSON Pointer (\"\" or /…), not \"value\""),
        ("rule op a\n  match: paths\n", 2, "`match: paths` needs at least one JSON Pointer"),
        ("rule op a\n  match: any\n  match: any\n", 3, "`match` given twice"),
        ("rule op a\n  files: [x\n", 2, "unclosed '[' in filter pattern \"[x\""),
        ("rule op a\n  fingerprint: 0000000000000001\n", 2, "unknown member `fingerprint` of a rule (files, match, state, reason)"),
        ("rule op a\n  match: any\n  state: accepted\n\nrule op a\n  match: any\n  state: triaged\n", 5, "a second rule op a (match: any)"),
        ("rule op a\n  match: framing\n  state: accepted\n", 1, "`match: framing` is about a file's whole output, not an op's cases: its rule is `rule op *` (narrowed by `files:`), not `rule op a`"),
        ("ruled op a\n", 1, "expected `case FILE KEY`, `rule op OP…`, a comment or a blank line, not \"ruled op a\""),
    ] {
        assert_eq!(
            Ledger::parse(text).unwrap_err(),
            (line, message.to_owned()),
            "{text}"
        );
    }
}

#[test]
fn each_match_word_matches_its_divergences() {
    let rule = |text: &str| {
        let text = format!("rule op *\n  match: {text}\n  state: accepted\n");
        Ledger::parse(&text).unwrap().rules()[0].clone()
    };
    let threw = Form::Threw("not implemented".into());
    let other = Form::Threw("not implemented yet".into());
    let crash = Form::Failed(VerdictKind::Crash);
    let d = VerdictKind::Different;
    assert!(rule("threw \"not implemented\"").matches(&divergent(None, d, Some(&threw))));
    assert!(!rule("threw \"not implemented\"").matches(&divergent(None, d, Some(&other))));
    assert!(!rule("threw \"not implemented\"").matches(&divergent(None, d, None)));
    for (word, verdict) in [
        ("crash", VerdictKind::Crash),
        ("timeout", VerdictKind::Timeout),
        ("invalid-output", VerdictKind::InvalidOutput),
        ("nondeterministic", VerdictKind::Nondeterministic),
    ] {
        let rule = rule(word);
        for other in [
            VerdictKind::Crash,
            VerdictKind::Timeout,
            VerdictKind::InvalidOutput,
            VerdictKind::Nondeterministic,
            d,
        ] {
            assert_eq!(
                rule.matches(&divergent(None, other, Some(&crash))),
                other == verdict,
                "{word}"
            );
        }
    }
    assert!(rule("any").matches(&divergent(None, VerdictKind::Missing, None)));
    // A framing rule is about a file, never a case.
    for verdict in [d, VerdictKind::InvalidOutput, VerdictKind::Crash] {
        assert!(!rule("framing").matches(&divergent(None, verdict, None)));
    }
    let paths = rule("paths /value /a");
    let at = |rule: &Rule, paths: &[&str]| {
        let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        rule.matches(&Divergent {
            paths: Some(&paths),
            ..divergent(None, d, None)
        })
    };
    assert!(at(&paths, &["/value"]));
    assert!(at(&paths, &["/value/3/x", "/a"]));
    assert!(!at(&paths, &["/value", "/ab"]));
    assert!(!at(&paths, &["/values"]));
    assert!(!at(&paths, &[]));
    // Not every path known (more differ than were kept): no match.
    assert!(!paths.matches(&divergent(None, d, None)));
    assert!(at(&rule("paths \"\""), &["/anything"]));
}

#[test]
fn scope_and_specificity_decide_which_rule_wins() {
    let text = "\
rule op *
  match: any
  state: accepted
  reason: every

rule op a b
  match: any
  state: accepted
  reason: ops

rule op a
  match: any
  state: accepted
  reason: a again

rule op a
  files: env*.json
  match: any
  state: accepted
  reason: ops and files

rule op *
  files: env*.json
  match: any
  state: accepted
  reason: files
";
    let ledger = Ledger::parse(text).unwrap();
    let rules = ledger.rules();
    let decide_for = |file: &str, op: Option<&str>| {
        let case = Divergent {
            file,
            ..divergent(op, VerdictKind::Different, None)
        };
        decide(rules, &case).map(|at| rules[at].reason.as_str())
    };
    assert_eq!(decide_for("argv.json", Some("a")), Some("ops"));
    assert_eq!(decide_for("argv.json", Some("b")), Some("ops"));
    assert_eq!(decide_for("argv.json", Some("c")), Some("every"));
    assert_eq!(decide_for("argv.json", None), Some("every"));
    assert_eq!(
        decide_for("env-ready.json", Some("a")),
        Some("ops and files")
    );
    assert_eq!(decide_for("sub/env-ready.json", Some("b")), Some("ops"));
    assert_eq!(decide_for("env-ready.json", Some("c")), Some("files"));
    assert!(decide(&[], &divergent(None, VerdictKind::Crash, None)).is_none());
}

#[test]
fn rules_say_what_they_are() {
    let ledger = Ledger::parse(RULES).unwrap();
    assert_eq!(
        ledger.rules()[0].describe(),
        "rule op sum product (match: threw \"not implemented\")"
    );
    assert_eq!(
        ledger.rules()[1].describe(),
        "rule op round, files env ready*.json (match: paths /value \"/a b\")"
    );
    assert_eq!(ledger.rules()[3].head(), "rule op \"two words\"");
    assert_eq!(
        Form::Failed(VerdictKind::Timeout).to_match(),
        Match::Timeout
    );
}

#[test]
fn a_framing_divergence_is_decided_by_the_most_specific_framing_rule() {
    let ledger = Ledger::parse(RULES).unwrap();
    let rules = ledger.rules();
    // `gen [?].json` takes the file named so, and no other.
    assert_eq!(decide_framing(rules, "gen ?.json"), Some(4));
    assert_eq!(decide_framing(rules, "gen x.json"), None);
    // `rule op * / match: any` is about cases: it does not take framing.
    let every = "rule op *\n  match: any\n  state: accepted\n";
    assert_eq!(
        decide_framing(Ledger::parse(every).unwrap().rules(), "a.json"),
        None
    );
    let both = "rule op *\n  match: framing\n  state: accepted\n  reason: all\n\n\
                rule op *\n  files: a.json\n  match: framing\n  state: triaged\n  reason: a\n";
    let ledger = Ledger::parse(both).unwrap();
    assert_eq!(decide_framing(ledger.rules(), "a.json"), Some(1));
    assert_eq!(decide_framing(ledger.rules(), "b.json"), Some(0));
}

/// A finding of the rule at `index`.
fn finding(index: usize, problem: RuleProblem) -> RuleFinding {
    let ledger =
        Ledger::parse("rule op x\n  match: any\n  state: accepted\n  reason: r\n").unwrap();
    RuleFinding {
        rule: ledger.rules()[0].clone(),
        index,
        problem,
    }
}

/// What a run finds of rules whose scope and use it knows.
fn findings_of(scoped: &[bool], used: &[bool]) -> Vec<(usize, RuleProblem)> {
    (0..scoped.len())
        .filter_map(|at| match (scoped[at], used[at]) {
            (false, _) => Some((at, RuleProblem::Orphaned)),
            (true, false) => Some((at, RuleProblem::Stale)),
            (true, true) => None,
        })
        .collect()
}

#[test]
fn a_rule_is_stale_or_orphaned_in_the_whole_run_only_as_every_shard_says() {
    use RuleProblem::{Orphaned, Stale};
    let shard = |found: &[(usize, RuleProblem)]| -> Vec<RuleFinding> {
        found
            .iter()
            .map(|&(at, problem)| finding(at, problem))
            .collect()
    };
    let whole = whole_run_findings(&[
        shard(&[(0, Orphaned), (1, Orphaned), (2, Stale), (3, Orphaned)]),
        shard(&[(1, Stale), (2, Stale), (3, Orphaned)]),
        shard(&[(1, Orphaned), (2, Orphaned), (3, Orphaned)]),
    ]);
    let found: Vec<(usize, RuleProblem)> = whole.iter().map(|f| (f.index, f.problem)).collect();
    // 0 decided a case in the second shard; 1 and 2 had cases in scope
    // somewhere and decided none; 3 never had one.
    assert_eq!(found, [(1, Stale), (2, Stale), (3, Orphaned)]);
    assert_eq!(whole[0].rule, finding(1, Stale).rule);
    assert!(whole_run_findings(&[]).is_empty());
    assert_eq!(whole_run_findings(&[shard(&[(4, Orphaned)])])[0].index, 4);
}

proptest::proptest! {
    /// However a run's cases fall into shards, the whole run's findings
    /// are what its shards' findings make: a rule's scope and use are
    /// each some shard's.
    #[test]
    fn shards_findings_make_the_whole_runs(
        shards in proptest::collection::vec(
            proptest::collection::vec((proptest::bool::ANY, proptest::bool::ANY), 6),
            1..5,
        ),
    ) {
        // Per shard and rule: in scope, and deciding a case (only in scope).
        let shards: Vec<(Vec<bool>, Vec<bool>)> = shards
            .iter()
            .map(|rules| rules.iter().map(|&(s, u)| (s, s && u)).unzip())
            .collect();
        let scoped: Vec<bool> = (0..6).map(|at| shards.iter().any(|s| s.0[at])).collect();
        let used: Vec<bool> = (0..6).map(|at| shards.iter().any(|s| s.1[at])).collect();
        let per_shard: Vec<Vec<RuleFinding>> = shards
            .iter()
            .map(|(scoped, used)| {
                findings_of(scoped, used)
                    .into_iter()
                    .map(|(at, problem)| finding(at, problem))
                    .collect()
            })
            .collect();
        let merged: Vec<(usize, RuleProblem)> = whole_run_findings(&per_shard)
            .iter()
            .map(|f| (f.index, f.problem))
            .collect();
        proptest::prop_assert_eq!(merged, findings_of(&scoped, &used));
    }
}

/// A thrown message (a port's words) is written with the rule of case
/// names: U+202E, U+009B, DEL and U+200E escaped, the value the same.
#[test]
fn a_thrown_message_is_written_escaped() {
    let message = "a\u{202e}b\u{9b}c\u{7f}d\u{200e}";
    let rendered = Match::Threw(message.into()).render();
    assert_eq!(rendered, r#"threw "a\u202eb\u009bc\u007fd\u200e""#);
    assert_eq!(
        Match::parse(&rendered).unwrap(),
        Match::Threw(message.into())
    );
}

#[test]
fn the_second_contract_s_matches() {
    let ledger = Ledger::parse(
        "rule op a\n  match: threw-like \"index * out of bounds\"\n  state: accepted\n  reason: r\n\n\
         rule op b\n  match: threw\n  state: accepted\n  reason: r\n\n\
         rule op c\n  match: returned\n  state: accepted\n  reason: r\n\n\
         rule op d\n  match: spelling\n  state: accepted\n  reason: r\n",
    )
    .unwrap();
    assert_eq!(Ledger::parse(&ledger.render()).unwrap(), ledger);
    let rules = ledger.rules();
    let threw = |m: &str| Form::Threw(m.into());
    let different = VerdictKind::Different;
    let matches = |at: usize, op: &str, form: &Form| {
        let verdict = if *form == Form::Spelling {
            VerdictKind::SameValue
        } else {
            different
        };
        rules[at].matches(&divergent(Some(op), verdict, Some(form)))
    };
    assert!(matches(0, "a", &threw("index 3 out of bounds")));
    assert!(matches(0, "a", &threw("index  out of bounds")));
    assert!(!matches(0, "a", &threw("index 3 out of range")));
    assert!(!matches(0, "a", &Form::Returned));
    assert!(matches(1, "b", &threw("anything")));
    assert!(!matches(1, "b", &Form::Returned));
    assert!(matches(2, "c", &Form::Returned));
    assert!(!matches(2, "c", &threw("x")));
    assert!(matches(3, "d", &Form::Spelling));
    assert!(!matches(3, "d", &Form::Returned));
    assert!(!rules[3].matches(&divergent(Some("d"), VerdictKind::SameValue, None)));
}

#[test]
fn wildcards_match_runs_and_single_characters() {
    use crate::ledger::rules::wildcard;
    for (glob, text, expected) in [
        ("*", "", true),
        ("a*c", "abbbc", true),
        ("a*c", "abbbd", false),
        ("a?c", "abc", true),
        ("a?c", "ac", false),
        ("*x*y", "axbxcy", true),
        ("index * at *", "index 3 at line 4", true),
        ("", "a", false),
    ] {
        assert_eq!(wildcard(glob, text), expected, "{glob} {text}");
    }
}
