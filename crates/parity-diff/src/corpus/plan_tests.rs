//! The plan's counts, parts and selections.

use super::*;
use crate::corpus::identity::fnv1a;
use crate::corpus::plan_info::hash_of;

fn corpus(dir: &std::path::Path, shard: Option<&str>) -> Corpus {
    Corpus {
        cases: dir.join("cases"),
        golden: dir.join("golden"),
        filter: None,
        shard: shard.map(|text| text.parse().unwrap()),
    }
}

fn plan(dir: &std::path::Path, shard: Option<&str>, ops: &[&str]) -> Plan {
    let corpus = corpus(dir, shard);
    let files = corpus.case_files().unwrap();
    let ops: Vec<String> = ops.iter().map(|op| op.to_string()).collect();
    Plan::new(&corpus, &files, Wanted::ops(&ops), None).unwrap()
}

fn layout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("a.json", r#"[{"op":"x"},{"op":"y"},{"op":"x"}]"#),
        ("b.json", "[]"),
        ("c.json", "{}"),
        ("d.json", r#"[{"op":"x"}, {"op":"y"}]"#),
    ] {
        std::fs::create_dir_all(dir.path().join("cases")).unwrap();
        std::fs::create_dir_all(dir.path().join("golden")).unwrap();
        std::fs::write(dir.path().join("cases").join(name), text).unwrap();
        std::fs::write(dir.path().join("golden").join(name), "[]\n").unwrap();
    }
    dir
}

#[test]
fn shards_take_ranges_of_cases_and_files_without_cases_go_to_one() {
    let dir = layout();
    let parts = |shard: &str, ops: &[&str]| -> Vec<Part> {
        let plan = plan(dir.path(), Some(shard), ops);
        (0..4).map(|at| plan.part(at)).collect()
    };
    let cases = |from, to, tail| Part::Cases { from, to, tail };
    // Five cases in three shards: 0..1, 1..3, 3..5.
    assert_eq!(
        parts("1/3", &[]),
        [cases(0, 1, false), Part::Skip, Part::Skip, Part::Skip]
    );
    assert_eq!(
        parts("2/3", &[]),
        [cases(1, 3, true), Part::Skip, Part::Skip, Part::Skip]
    );
    assert_eq!(
        parts("3/3", &[]),
        [Part::Skip, Part::Whole, Part::Whole, Part::Whole]
    );
    // Three x cases in two shards: 0..1, 1..3.
    assert_eq!(
        parts("1/2", &["x"]),
        [cases(0, 1, false), Part::Skip, Part::Skip, Part::Skip]
    );
    assert_eq!(
        parts("2/2", &["x"]),
        [cases(1, 2, true), Part::Whole, Part::Whole, Part::Whole]
    );
    let whole = plan(dir.path(), None, &[]);
    assert_eq!(whole.part(0), Part::Whole);
    assert_eq!(whole.shard_info(), None);
    assert_eq!(
        plan(dir.path(), Some("2/3"), &[]).shard_info(),
        Some(ShardInfo {
            index: 2,
            count: 3,
            from: 1,
            to: 3,
            timings: None,
        })
    );
}

#[test]
fn a_part_selects_positions_in_the_case_file() {
    let file = CaseFile::read(
        "a.json",
        br#"[{"op":"x"},{"op":"y"},{"op":"x"},{"op":"x"}]"#.to_vec(),
    );
    let select = |part, ops: &[&str]| {
        let ops: Vec<String> = ops.iter().map(|op| op.to_string()).collect();
        super::select(part, &file, FileWanted::ops(&ops))
    };
    let cases = |from, to, tail| Part::Cases { from, to, tail };
    let taken = |positions: &[usize], tail| {
        Some(Selection {
            positions: positions.to_vec(),
            tail,
        })
    };
    assert_eq!(select(Part::Whole, &[]), None);
    assert_eq!(select(Part::Whole, &["x"]), taken(&[0, 2, 3], false));
    assert_eq!(select(cases(1, 3, false), &[]), taken(&[1, 2], false));
    assert_eq!(select(cases(1, 3, true), &["x"]), taken(&[2, 3], false));
    assert_eq!(select(cases(2, 4, true), &[]), taken(&[2, 3], true));
    // A file that shrank since it was planned.
    assert_eq!(select(cases(3, 9, true), &["x"]), taken(&[], false));
    assert_eq!(select(Part::Skip, &[]), taken(&[], false));
}

#[test]
fn cases_are_counted_as_case_files_split_and_every_byte_is_hashed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.json");
    let entry = FileEntry {
        name: "a.json".into(),
        case_path: path.clone(),
        golden_path: dir.path().join("golden.json"),
        relative: "a.json".into(),
        broken: None,
    };
    let big = "x".repeat(200_000);
    for text in [
        "[]".to_owned(),
        r#"[{"op":"x"}, "a,]\"", [[1]], {"op":"y"}]"#.to_owned(),
        format!(r#"[{{"op":"x","s":"{big}"}},{{"op":"x"}}]"#),
        // Not arrays, found only at their end: no case, every byte hashed.
        format!(r#"[{{"op":"x","s":"{big}"}}] x"#),
        "[1,]".to_owned(),
        "{}".to_owned(),
    ] {
        std::fs::write(&path, &text).unwrap();
        let file = CaseFile::read("a.json", text.clone().into_bytes());
        let x = file.select(&["x".to_owned()]).len();
        let counted = count_cases(&entry, &[], None, false);
        assert_eq!(counted.count, file.items.len(), "{text:.40}");
        assert!(counted.per_op.is_empty());
        assert!(counted.readable);
        assert_eq!(counted.op_runs, None);
        // Asked for, the count keeps each case's op, as the file's read
        // finds it (none for a file that is no array of cases).
        let kept = count_cases(&entry, &[], None, true);
        let ops_read: Vec<Option<&str>> =
            file.items.iter().map(|item| item.op.as_deref()).collect();
        let ops_kept: Option<Vec<Option<&str>>> = kept.op_runs.as_ref().map(|runs| {
            runs.cases()
                .map(|op| op.map(|at| runs.ops()[at as usize].as_str()))
                .collect()
        });
        match file.is_array {
            true => assert_eq!(ops_kept, Some(ops_read), "{text:.40}"),
            false => assert_eq!(ops_kept, None, "{text:.40}"),
        }
        assert_eq!(kept.count, counted.count);
        let hash = hash_of(&path, None);
        assert_eq!(hash, Some(fnv1a(&[text.as_bytes()])), "{text:.40}");
        assert_eq!(hash_of(&path, Some(&"broken".to_owned())), None);
        let ops = ["x".to_owned(), "z".to_owned()];
        let counted = count_cases(&entry, &ops, None, false);
        assert_eq!(
            (counted.count, counted.per_op, counted.readable),
            (x, vec![x, 0], true)
        );
        // Ops are kept only when every case is wanted.
        assert_eq!(count_cases(&entry, &ops, None, true).op_runs, None);
    }
    std::fs::remove_file(&path).unwrap();
    assert_eq!(count_cases(&entry, &[], None, false), Counted::default());
    assert_eq!(hash_of(&path, None), None);
}

#[test]
fn the_corpus_is_counted_and_fingerprinted() {
    let dir = layout();
    let first = plan(dir.path(), None, &[]);
    assert_eq!(first.info.cases, 5);
    assert_eq!(
        first.info.case_files,
        ["a.json", "b.json", "c.json", "d.json"]
    );
    assert_eq!(first.info.golden_files, first.info.case_files);
    assert_eq!(plan(dir.path(), None, &["y"]).info.cases, 2);
    // The fingerprint does not depend on the selection, only on the
    // files' names and bytes.
    let sharded = plan(dir.path(), Some("2/2"), &["x"]);
    assert_eq!(sharded.info.fingerprint, first.info.fingerprint);
    assert_eq!(sharded.info.ops, ["x"]);
    std::fs::write(dir.path().join("golden/b.json"), "[ ]\n").unwrap();
    let changed = plan(dir.path(), None, &[]);
    assert_ne!(changed.info.fingerprint, first.info.fingerprint);
    std::fs::rename(
        dir.path().join("golden/b.json"),
        dir.path().join("golden/e.json"),
    )
    .unwrap();
    std::fs::write(dir.path().join("golden/e.json"), "[ ]\n").unwrap();
    assert_ne!(
        plan(dir.path(), None, &[]).info.fingerprint,
        changed.info.fingerprint
    );
    let corpus = corpus(dir.path(), None);
    let files = corpus.case_files().unwrap();
    let ops = ["x".to_owned(), "nope".to_owned()];
    let error = Plan::new(&corpus, &files, Wanted::ops(&ops), None).unwrap_err();
    assert_eq!(
        error.message,
        "--op nope matches no case in the selected case files"
    );
}

/// A corpus of named cases: a.json "a0".."a3" (ops x, y, x, y), b.json
/// "b0", "b1" (x), c.json not an array.
fn named_layout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::create_dir_all(dir.path().join("golden")).unwrap();
    for (name, text) in [
        (
            "a.json",
            r#"[{"op":"x","name":"a0"},{"op":"y","name":"a1"},{"op":"x","name":"a2"},{"op":"y","name":"a3"}]"#,
        ),
        (
            "b.json",
            r#"[{"op":"x","name":"b0"},{"op":"x","name":"b1"}]"#,
        ),
        ("c.json", "{}"),
    ] {
        std::fs::write(dir.path().join("cases").join(name), text).unwrap();
        std::fs::write(dir.path().join("golden").join(name), "[]\n").unwrap();
    }
    dir
}

fn keys(names: &[&str]) -> crate::corpus::rerun::FileRerun {
    crate::corpus::rerun::FileRerun::Cases(
        names
            .iter()
            .map(|name| CaseKey::Name((*name).into()))
            .collect(),
    )
}

fn rerun_of(files: &[(&str, crate::corpus::rerun::FileRerun)]) -> crate::corpus::rerun::RerunFiles {
    crate::corpus::rerun::RerunFiles {
        source: "r.json".into(),
        files: files
            .iter()
            .map(|(name, taken)| ((*name).to_owned(), taken.clone()))
            .collect(),
        ..Default::default()
    }
}

fn rerun_plan(
    dir: &std::path::Path,
    shard: Option<&str>,
    ops: &[&str],
    rerun: &crate::corpus::rerun::RerunFiles,
) -> Plan {
    let corpus = corpus(dir, shard);
    let files = corpus.case_files().unwrap();
    let ops: Vec<String> = ops.iter().map(|op| op.to_string()).collect();
    let wanted = Wanted {
        ops: &ops,
        rerun: Some(rerun),
    };
    Plan::new(&corpus, &files, wanted, None).unwrap()
}

#[test]
fn a_rerun_takes_the_cases_its_report_names_and_counts_what_is_gone() {
    use crate::corpus::rerun::{FileRerun, RerunCount};
    let dir = named_layout();
    let rerun = rerun_of(&[
        ("a.json", keys(&["a1", "a2", "renamed"])),
        ("c.json", keys(&["c0"])),
        ("gone.json", keys(&["g0", "g1"])),
        ("gone-whole.json", FileRerun::Whole),
    ]);
    let plan = rerun_plan(dir.path(), None, &[], &rerun);
    // The counts and ranges are the run's without a rerun.
    assert_eq!(plan.info.cases, 6);
    assert_eq!(plan.info.rerun, Some(rerun.fingerprint()));
    assert_eq!(
        (0..3).map(|at| plan.part(at)).collect::<Vec<_>>(),
        // b.json: nothing named; c.json cannot be read case by case: its
        // problem is shown again.
        [Part::Whole, Part::Skip, Part::Whole]
    );
    assert_eq!(
        plan.rerun,
        Some(RerunCount {
            named: true,
            selected: 2,
            gone: 3,
            gone_files: 1,
        })
    );
    // What each file sends: the named cases of a.json, c.json as it is.
    let all = Wanted {
        ops: &[],
        rerun: Some(&rerun),
    };
    let file = CaseFile::read(
        "a.json",
        std::fs::read(dir.path().join("cases/a.json")).unwrap(),
    );
    let a = plan.wanted_of(0, "a.json", all);
    assert_eq!(
        select(plan.part(0), &file, a),
        Some(Selection {
            positions: vec![1, 2],
            tail: false
        })
    );
    assert!(plan.wanted_of(2, "c.json", all).every());

    // With --op y: a1 alone; --op is counted before the rerun narrows.
    let plan = rerun_plan(dir.path(), None, &["y"], &rerun);
    assert_eq!(plan.info.cases, 2);
    assert_eq!(plan.rerun.unwrap().selected, 1);
    let y = ["y".to_owned()];
    let wanted = Wanted {
        ops: &y,
        rerun: Some(&rerun),
    };
    assert_eq!(
        select(plan.part(0), &file, plan.wanted_of(0, "a.json", wanted)),
        Some(Selection {
            positions: vec![1],
            tail: false
        })
    );

    // --filter leaves files out: what it leaves out is not gone.
    let mut filtered = corpus(dir.path(), None);
    filtered.filter = Some(crate::base::glob::Glob::new("a.json").unwrap());
    let files = filtered.case_files().unwrap();
    let wanted = Wanted {
        ops: &[],
        rerun: Some(&rerun),
    };
    let plan = Plan::new(&filtered, &files, wanted, None).unwrap();
    assert_eq!(plan.rerun.unwrap().gone, 1);
    assert_eq!(plan.rerun.unwrap().gone_files, 0);

    // A report that names nothing: nothing runs.
    let nothing = rerun_of(&[]);
    let plan = rerun_plan(dir.path(), None, &[], &nothing);
    assert!((0..3).all(|at| plan.part(at) == Part::Skip));
    assert_eq!(plan.rerun.unwrap(), RerunCount::default());
}

#[test]
fn a_shard_of_a_rerun_takes_the_named_cases_of_that_shard() {
    let dir = named_layout();
    // Six cases in two shards: a0..a2 | a3 b0 b1.
    let rerun = rerun_of(&[("a.json", keys(&["a0", "a3"])), ("b.json", keys(&["b1"]))]);
    let first = rerun_plan(dir.path(), Some("1/2"), &[], &rerun);
    let second = rerun_plan(dir.path(), Some("2/2"), &[], &rerun);
    assert_eq!(first.shard_info().map(|s| (s.from, s.to)), Some((0, 3)));
    assert_eq!(first.rerun.unwrap().selected, 1);
    assert_eq!(second.rerun.unwrap().selected, 2);
    assert_eq!(
        (0..3).map(|at| first.part(at)).collect::<Vec<_>>(),
        [
            Part::Cases {
                from: 0,
                to: 3,
                tail: false
            },
            Part::Skip,
            Part::Skip
        ]
    );
    // Nothing named in a shard's range of a file: left out.
    let only_a0 = rerun_of(&[("a.json", keys(&["a0"]))]);
    let second = rerun_plan(dir.path(), Some("2/2"), &[], &only_a0);
    assert_eq!(second.part(0), Part::Skip);
    assert_eq!(second.rerun.unwrap().selected, 0);
}

#[test]
fn shards_balanced_by_timings_are_recorded_and_deterministic() {
    use crate::corpus::timings::{to_bytes, FileTime};
    let dir = named_layout();
    let corpus_of = |shard: &str| corpus(dir.path(), Some(shard));
    let mut timings = Timings::default();
    // a.json's cases take 1 ms each, b.json's 9 ms; c.json is unknown.
    let times = [
        FileTime {
            file: "a.json".into(),
            cases: 4,
            elapsed: std::time::Duration::from_millis(4),
        },
        FileTime {
            file: "b.json".into(),
            cases: 2,
            elapsed: std::time::Duration::from_millis(18),
        },
    ];
    timings.add(&to_bytes(&times), "t.json").unwrap();
    let plan_of = |shard: &str| {
        let corpus = corpus_of(shard);
        let files = corpus.case_files().unwrap();
        Plan::new(&corpus, &files, Wanted::ops(&[]), Some(&timings)).unwrap()
    };
    let infos: Vec<ShardInfo> = (1..=2)
        .map(|k| plan_of(&format!("{k}/2")).shard_info().unwrap())
        .collect();
    // 4 + 18 = 22: half is 11, nearest after a.json and b0 (13) rather
    // than after a.json (4).
    assert_eq!((infos[0].from, infos[0].to), (0, 5));
    assert_eq!((infos[1].from, infos[1].to), (5, 6));
    assert!(infos
        .iter()
        .all(|info| info.timings == Some(timings.fingerprint())));
    // The same timings, the same shards.
    assert_eq!(plan_of("1/2").shard_info(), Some(infos[0]));
    // By count, without timings.
    assert_eq!(
        plan(dir.path(), Some("1/2"), &[])
            .shard_info()
            .map(|s| (s.from, s.to, s.timings)),
        Some((0, 3, None))
    );
}

#[test]
fn a_plan_not_fingerprinted_is_the_same_plan_with_no_fingerprint() {
    let dir = layout();
    let corpus = corpus(dir.path(), None);
    let files = corpus.case_files().unwrap();
    let planning = |fingerprint| Planning {
        timings: None,
        fingerprint,
        op_runs: None,
    };
    let fingerprinted = Plan::planned(&corpus, &files, Wanted::ops(&[]), planning(true)).unwrap();
    let mut plain = Plan::planned(&corpus, &files, Wanted::ops(&[]), planning(false)).unwrap();
    assert_eq!(plain.info.fingerprint, "");
    assert_eq!(fingerprinted.info.fingerprint.len(), 16);
    plain
        .info
        .fingerprint
        .clone_from(&fingerprinted.info.fingerprint);
    assert_eq!(plain.info, fingerprinted.info);
    for position in 0..files.len() {
        assert_eq!(plain.counted(position), fingerprinted.counted(position));
        assert_eq!(plain.part(position), fingerprinted.part(position));
    }
}

#[test]
fn a_plan_keeps_the_ops_of_the_files_it_is_asked_for() {
    let dir = layout();
    let corpus = corpus(dir.path(), None);
    let files = corpus.case_files().unwrap();
    let planning = Planning {
        timings: None,
        fingerprint: false,
        op_runs: Some(|entry: &FileEntry| entry.name != "d.json"),
    };
    let plan = Plan::planned(&corpus, &files, Wanted::ops(&[]), planning).unwrap();
    let ops_of = |position| {
        plan.op_runs(position).map(|runs| {
            runs.cases()
                .map(|op| op.map(|at| runs.ops()[at as usize].clone()))
                .collect::<Vec<_>>()
        })
    };
    let some = |op: &str| Some(op.to_owned());
    assert_eq!(ops_of(0), Some(vec![some("x"), some("y"), some("x")]));
    // No case; not an array; not asked for.
    assert_eq!(ops_of(1), Some(vec![]));
    assert_eq!(ops_of(2), None);
    assert_eq!(ops_of(3), None);
    // With --op, none is kept: the cases sent are a selection.
    let ops = ["x".to_owned()];
    let plan = Plan::planned(&corpus, &files, Wanted::ops(&ops), planning).unwrap();
    assert!((0..4).all(|position| plan.op_runs(position).is_none()));
}
