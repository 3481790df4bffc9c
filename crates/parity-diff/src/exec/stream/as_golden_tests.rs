use super::*;
use crate::judge::scan::{spans, Mode};
use proptest::prelude::*;
use std::io::{Read, Seek};

/// A golden written to a file of `dir`, and where its elements stand.
fn expected(dir: &tempfile::TempDir, golden: &str) -> Expected {
    let path = dir.path().join("golden.json");
    std::fs::write(&path, golden).unwrap();
    let spans = spans(golden.as_bytes(), Mode::Strict { validate: true })
        .unwrap()
        .into_iter()
        .map(|span| span.start as u64..span.end as u64)
        .collect();
    Expected {
        golden: path,
        spans,
    }
}

/// Whether `output`, fed in chunks of `sizes` (cycled), matches `golden`.
fn matches_in_chunks(output: &[u8], golden: &str, sizes: &[usize]) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let mut matcher = Matcher::new(expected(&dir, golden)).unwrap();
    let mut rest = output;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (chunk, after) = rest.split_at(size.clamp(1, rest.len()));
        matcher.feed(chunk);
        rest = after;
    }
    matcher.matched()
}

fn matches(output: &str, golden: &str) -> bool {
    matches_in_chunks(output.as_bytes(), golden, &[usize::MAX])
}

#[test]
fn only_the_array_json_stringify_prints_of_the_golden_elements_matches() {
    let golden = "[\n{\"a\":1},\n\"x,]\",\n[2, 3]\n]\n";
    assert!(matches(r#"[{"a":1},"x,]",[2, 3]]"#, golden));
    for other in [
        "[{\"a\":1},\"x,]\",[2, 3]]\n",
        "[{\"a\":1}, \"x,]\",[2, 3]]",
        "[{\"a\":1},\"x,]\"]",
        "[{\"a\":1},\"x,]\",[2, 3],4]",
        "[{\"a\":2},\"x,]\",[2, 3]]",
        " [{\"a\":1},\"x,]\",[2, 3]]",
        "[{\"a\":1},\"x,]\",[2, 3]",
        "",
    ] {
        assert!(!matches(other, golden), "{other:?}");
    }
    assert!(matches("[]", "[]\n"));
    assert!(!matches("[ ]", "[]\n"));
    assert!(!matches("[]]", "[]\n"));
}

#[test]
fn elements_longer_than_what_is_read_of_the_golden_at_a_time_match() {
    let long = "x".repeat(3 * CHUNK + 17);
    let golden = format!("[\n\"{long}\",\n\"{long}\"\n]\n");
    let output = format!("[\"{long}\",\"{long}\"]");
    assert!(matches_in_chunks(
        output.as_bytes(),
        &golden,
        &[65536, 1, 7]
    ));
    let other = format!("[\"{long}\",\"{long}y\"]");
    assert!(!matches_in_chunks(other.as_bytes(), &golden, &[65536]));
}

#[test]
fn a_golden_that_cannot_be_opened_matches_nothing() {
    let expected = Expected {
        golden: "/nonexistent/golden.json".into(),
        spans: vec![],
    };
    assert!(Matcher::new(expected).is_none());
}

/// The output in chunks, with the golden's elements given before chunk
/// `given` (past the last: after the run, to the verdict). Whatever the
/// verdict, the spool then restored holds the output exactly.
fn watched_verdict(output: &[u8], golden: &str, chunk: usize, given: usize) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let (watching, mut watch) = Watching::new();
    let mut spool = tempfile::tempfile().unwrap();
    let mut expected = Some(expected(&dir, golden));
    for (index, bytes) in output.chunks(chunk.max(1)).enumerate() {
        if index == given {
            watching.expect(expected.take());
        }
        watch(&mut spool, bytes).unwrap();
    }
    if expected.is_some() {
        watching.expect(expected.take());
    }
    let verdict = watching.verdict(&spool);
    watching.restore(&mut spool).unwrap();
    let mut spooled = Vec::new();
    spool.rewind().unwrap();
    spool.read_to_end(&mut spooled).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&spooled),
        String::from_utf8_lossy(output),
        "chunks of {chunk}, the golden given at {given}"
    );
    verdict
}

/// How much of the output the spool holds once the run is done, before
/// any restore.
fn spooled_len(output: &[u8], golden: &str, chunk: usize) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let (watching, mut watch) = Watching::new();
    let mut spool = tempfile::tempfile().unwrap();
    watching.expect(Some(expected(&dir, golden)));
    for bytes in output.chunks(chunk) {
        watch(&mut spool, bytes).unwrap();
    }
    spool.metadata().unwrap().len()
}

#[test]
fn a_matching_output_is_not_spooled_and_a_diverging_one_is_from_its_first_difference() {
    let golden = "[\n{\"a\":1},\n\"x,]\",\n[2, 3]\n]\n";
    let output = br#"[{"a":1},"x,]",[2, 3]]"#;
    assert_eq!(spooled_len(output, golden, 4), 0);
    // The chunk that differs, and all before it, are written.
    let differs = br#"[{"a":1},"x,]",[2, 4]]"#;
    assert_eq!(spooled_len(differs, golden, 4), differs.len() as u64);
    // An output cut short is held back until it is restored.
    let cut = br#"[{"a":1},"x"#;
    assert_eq!(spooled_len(cut, golden, 4), 0);
    assert!(!watched_verdict(cut, golden, 4, 0));
}

#[test]
fn the_golden_may_come_before_the_output_while_it_comes_or_after_it() {
    let golden = "[\n{\"a\":1},\n\"x,]\",\n[2, 3]\n]\n";
    let output = br#"[{"a":1},"x,]",[2, 3]]"#;
    let differs = br#"[{"a":1},"x,]",[2, 4]]"#;
    for given in 0..=output.len() {
        assert!(
            watched_verdict(output, golden, 1, given),
            "given at {given}"
        );
        assert!(
            !watched_verdict(differs, golden, 1, given),
            "given at {given}"
        );
    }
    assert!(watched_verdict(output, golden, 5, 2));
}

#[test]
fn nothing_expected_is_no_match() {
    let (watching, mut watch) = Watching::new();
    let mut spool = tempfile::tempfile().unwrap();
    watching.expect(None);
    watch(&mut spool, b"[]").unwrap();
    assert_eq!(spool.metadata().unwrap().len(), 2, "spooled as it came");
    assert!(!watching.verdict(&spool));
    // Never told: no match either.
    let (watching, _) = Watching::new();
    assert!(!watching.verdict(&spool));
}

/// JSON values as a golden holds them (with insignificant spaces inside
/// some), and the bytes `JSON.stringify` prints of each.
fn element() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..1000).prop_map(|n| n.to_string()),
        "[a-z,\\]\\[ {}:]{0,12}".prop_map(|text| format!("{text:?}")),
        (0u32..9, 0u32..9).prop_map(|(a, b)| format!("{{\"a\":{a},\"b\":[{b}, {a}]}}")),
    ]
}

proptest! {
    /// However the output is cut into chunks, and whenever the golden
    /// comes, it matches exactly when it is `[` + the elements joined by
    /// `,` + `]`.
    #[test]
    fn a_match_is_byte_equality_with_the_joined_elements(
        elements in prop::collection::vec(element(), 0..8),
        gaps in prop::collection::vec("[ \n]{0,3}", 8),
        flip in prop::option::of((any::<prop::sample::Index>(), any::<u8>())),
        sizes in prop::collection::vec(1usize..9, 1..4),
        given in 0usize..40,
    ) {
        let mut golden = String::from("[");
        for (index, element) in elements.iter().enumerate() {
            if index > 0 {
                golden.push(',');
            }
            golden.push_str(&gaps[index % gaps.len()]);
            golden.push_str(element);
        }
        golden.push_str("\n]\n");
        let joined = format!("[{}]", elements.join(","));
        let mut output = joined.clone().into_bytes();
        if let Some((at, byte)) = flip {
            let at = at.index(output.len());
            output[at] = byte;
        }
        let same = output == joined.as_bytes();
        prop_assert_eq!(matches_in_chunks(&output, &golden, &sizes), same);
        prop_assert_eq!(watched_verdict(&output, &golden, sizes[0], given), same);
    }
}
