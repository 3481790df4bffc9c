use proptest::prelude::*;

use super::*;
use crate::exec::stream::cases::CaseReader;
use crate::judge::scan::Mode;

/// What a slot holds, owned: its position, its case's bytes, the golden's
/// element, the result (or its failure's message).
type Owned = (
    usize,
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Option<Result<Vec<u8>, String>>,
);

fn owned(slot: Slot<'_>) -> Owned {
    (
        slot.index,
        slot.case.map(|case| case.raw.to_vec()),
        slot.golden.map(<[u8]>::to_vec),
        slot.actual.map(|actual| {
            actual
                .map(<[u8]>::to_vec)
                .map_err(|failure| failure.message)
        }),
    )
}

fn array(elements: &[&str]) -> String {
    format!("[{}]", elements.join(", "))
}

/// The slots of files held in memory.
fn in_memory(rule: Rule<'_>, cases: &str, golden: &[&str], actual: &[&str]) -> Vec<Owned> {
    let file = CaseFile::read("f.json", cases.as_bytes().to_vec());
    let golden: Vec<&[u8]> = golden.iter().map(|g| g.as_bytes()).collect();
    let actual: Vec<&[u8]> = actual.iter().map(|a| a.as_bytes()).collect();
    let mut found = Vec::new();
    let sides = (
        &mut HeldCases(file.is_array.then_some(&file)),
        &mut Held(&golden),
        &mut HeldResults(&actual),
    );
    pair(rule, sides, |slot| -> Result<(), Never> {
        found.push(owned(slot));
        Ok(())
    })
    .unwrap();
    found
}

/// The slots of the same files read as streams.
fn streamed(rule: Rule<'_>, cases: &str, golden: &[&str], actual: &[&str]) -> Vec<Owned> {
    let error = |error: ReadError| error.to_string();
    let mut cases = CaseReader::new("f.json", cases.as_bytes());
    let golden = array(golden);
    let mut golden = ElementReader::new(golden.as_bytes(), Mode::Strict { validate: true });
    let actual = array(actual);
    let mut actual = ElementReader::new(actual.as_bytes(), Mode::Lenient);
    let mut found = Vec::new();
    let sides = (
        &mut StreamedCases {
            reader: &mut cases,
            error: &error,
        },
        &mut Streamed {
            reader: &mut golden,
            error: &error,
        },
        &mut StreamedResults {
            reader: &mut actual,
            judged: false,
            error: &error,
        },
    );
    pair(rule, sides, |slot| -> Result<(), String> {
        found.push(owned(slot));
        Ok(())
    })
    .unwrap();
    found
}

fn slot(index: usize, case: Option<&str>, golden: Option<&str>, actual: Option<&str>) -> Owned {
    let bytes = |text: Option<&str>| text.map(|text| text.as_bytes().to_vec());
    (index, bytes(case), bytes(golden), bytes(actual).map(Ok))
}

#[test]
fn by_position_every_case_meets_the_elements_at_its_place() {
    let by_position = Rule::ByPosition { until_cases: false };
    let cases = "[{\"a\":0}, {\"a\":1}]";
    // A result too many: an extra, past the cases.
    let found = in_memory(by_position, cases, &["0", "1"], &["0", "1", "2"]);
    assert_eq!(
        found,
        [
            slot(0, Some("{\"a\":0}"), Some("0"), Some("0")),
            slot(1, Some("{\"a\":1}"), Some("1"), Some("1")),
            slot(2, None, None, Some("2")),
        ]
    );
    assert_eq!(
        found,
        streamed(by_position, cases, &["0", "1"], &["0", "1", "2"])
    );
    // Until the cases end: the golden's last element is not compared.
    let until_cases = Rule::ByPosition { until_cases: true };
    let found = in_memory(until_cases, cases, &["0", "1", "2"], &["0"]);
    assert_eq!(
        found,
        [
            slot(0, Some("{\"a\":0}"), Some("0"), Some("0")),
            slot(1, Some("{\"a\":1}"), Some("1"), None),
        ]
    );
    assert_eq!(
        found,
        streamed(until_cases, cases, &["0", "1", "2"], &["0"])
    );
}

#[test]
fn selected_results_meet_the_golden_at_their_cases_places_then_the_tail() {
    let cases = "[0, 1, 2, 3]";
    let golden = ["g0", "g1", "g2", "g3", "g4"];
    let rule = |tail| Rule::Selected {
        positions: &[1, 3],
        tail,
        cases: 4,
    };
    let found = in_memory(rule(true), cases, &golden, &["r1", "r3", "r4", "r5"]);
    assert_eq!(
        found,
        [
            slot(1, Some("1"), Some("g1"), Some("r1")),
            slot(3, Some("3"), Some("g3"), Some("r3")),
            slot(4, None, Some("g4"), Some("r4")),
            slot(5, None, None, Some("r5")),
        ]
    );
    // Without the tail, the golden's elements past the cases are another
    // part's; an extra result is still this part's.
    let found = in_memory(rule(false), cases, &golden, &["r1", "r3", "r4"]);
    assert_eq!(
        found,
        [
            slot(1, Some("1"), Some("g1"), Some("r1")),
            slot(3, Some("3"), Some("g3"), Some("r3")),
            slot(4, None, None, Some("r4")),
        ]
    );
}

#[test]
fn results_judged_alone_fail_their_own_case() {
    let error = |error: ReadError| error.to_string();
    let mut output = ElementReader::new(&b"[1, NaN]"[..], Mode::Lenient);
    let mut results = StreamedResults {
        reader: &mut output,
        judged: true,
        error: &error,
    };
    assert_eq!(
        results.result_at(0).unwrap().map(|r| r.unwrap().to_vec()),
        Some(b"1".to_vec())
    );
    let failure = results.result_at(1).unwrap().unwrap().unwrap_err();
    assert_eq!(
        failure.message,
        "the oracle printed `NaN`, which is not JSON"
    );
    assert!(results.result_at(2).unwrap().is_none());
    let outcomes = [Ok(b"1".to_vec()), Err(failure)];
    let mut held = HeldOutcomes(&outcomes);
    assert!(held.result_at(1).unwrap().unwrap().is_err());
}

#[test]
fn the_selected_cases_are_sent_as_one_array_in_memory_or_streamed() {
    let text = "[ {\"a\":1},\n\"x\" , [2] ]";
    let file = CaseFile::read("f.json", text.as_bytes().to_vec());
    let mut held = Vec::new();
    write_selected::<_, io::Error>(&mut HeldCases(Some(&file)), &[0, 2, 5], &mut held).unwrap();
    assert_eq!(held, b"[{\"a\":1},[2],null]");
    let mut reader = CaseReader::new("f.json", text.as_bytes());
    let error = |error: ReadError| io::Error::other(error.to_string());
    let mut cursor = StreamedCases {
        reader: &mut reader,
        error: &error,
    };
    let mut streamed = Vec::new();
    write_selected::<_, io::Error>(&mut cursor, &[0, 2, 5], &mut streamed).unwrap();
    assert_eq!(streamed, held);
}

/// JSON texts that are elements both ways.
fn element() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?(0|[1-9][0-9]{0,2})",
        "\"[a-z ,\\]\\[]{0,4}\"",
        Just("{\"op\":\"x\"}".to_owned()),
        Just("[1, [2]]".to_owned()),
    ]
}

proptest! {
    /// Memory and streams pair alike, whatever the rule and the inputs.
    #[test]
    fn files_in_memory_and_streamed_pair_alike(
        cases in prop::collection::vec(element(), 0..6),
        golden in prop::collection::vec(element(), 0..8),
        actual in prop::collection::vec(element(), 0..8),
        picked in prop::collection::vec(any::<bool>(), 0..6),
        tail in any::<bool>(),
        rule_kind in 0..3u8,
    ) {
        let text = array(&cases.iter().map(String::as_str).collect::<Vec<_>>());
        let golden: Vec<&str> = golden.iter().map(String::as_str).collect();
        let actual: Vec<&str> = actual.iter().map(String::as_str).collect();
        let positions: Vec<usize> = picked
            .iter()
            .enumerate()
            .filter(|&(at, &picked)| picked && at < cases.len())
            .map(|(at, _)| at)
            .collect();
        let rule = match rule_kind {
            0 => Rule::ByPosition { until_cases: false },
            1 => Rule::ByPosition { until_cases: true },
            _ => Rule::Selected { positions: &positions, tail, cases: cases.len() },
        };
        prop_assert_eq!(
            in_memory(rule, &text, &golden, &actual),
            streamed(rule, &text, &golden, &actual)
        );
    }
}
