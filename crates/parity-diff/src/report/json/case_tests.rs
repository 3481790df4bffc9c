//! The case object written and read back: its bytes are those
//! `JSON.stringify` writes for the same object, and it reads back into
//! the same record.

use super::case::*;
use crate::corpus::identity::{CaseId, CaseKey};
use crate::report::record::{
    CaseRecord, CaseState, EntryRef, EntryState, PathRecord, ReasonRecord, Signature, VerdictKind,
};
use js_exact::{self as js, TextMode};
use js_exact::{JsString, Object, Value};

fn written(record: &CaseRecord) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_case(record, &mut bytes);
    bytes
}

fn round_trip(record: &CaseRecord) -> CaseRecord {
    let value = js::parse(&written(record), TextMode::LossyUtf8).unwrap();
    read_case(&value).expect("reads back")
}

fn sample() -> CaseRecord {
    CaseRecord {
        file: "argv.json".into(),
        index: 3,
        line: Some(5),
        id: CaseId {
            file: "argv.json".into(),
            key: CaseKey::Name("a \"b\"".into()),
        },
        op: Some("sum".into()),
        name: Some("a \"b\"".into()),
        label: "#3 sum \"a \\\"b\\\"\"".into(),
        verdict: VerdictKind::Different,
        state: CaseState::Changed,
        entry: Some(EntryRef {
            state: EntryState::Triaged {
                link: Some("https://x/1".into()),
            },
            reason: "known".into(),
        }),
        fingerprint: Some("0123456789abcdef".into()),
        signature: Some(Signature::new(Some("sum"), "different", "different at /*")),
        summary: "different at /1".into(),
        thrown: None,
        unknown_op: true,
        paths: vec![PathRecord {
            pointer: JsString::from_utf16(&[0x2f, 0xd800]),
            golden: Some(Value::from("x")),
            actual: None,
            golden_text: None,
            actual_text: None,
        }],
        total_paths: 4,
        reasons: Vec::new(),
        total_reasons: 0,
        note: Some("n".into()),
        input: Some("{\"op\":\"sum\"}".into()),
        golden: Some("[\"x\"]".into()),
        actual: Some("[]".into()),
        stderr: Some("oracle: tried\n".into()),
        rule: None,
        form: None,
    }
}

#[test]
fn records_round_trip_through_json() {
    let record = sample();
    assert_eq!(round_trip(&record), record);

    let mut same = sample();
    same.verdict = VerdictKind::SameValue;
    same.state = CaseState::Failed;
    same.entry = None;
    same.paths.clear();
    same.total_paths = 0;
    same.reasons = vec![ReasonRecord {
        kind: "key order".into(),
        pointer: JsString::new(),
        golden: "\"a\",\"b\"".into(),
        actual: "\"b\",\"a\"".into(),
        text: "key order".into(),
    }];
    same.total_reasons = 1;
    same.thrown = Some("boom".into());
    assert_eq!(round_trip(&same), same);

    let passed = CaseRecord {
        verdict: VerdictKind::Identical,
        state: CaseState::Passed,
        line: None,
        op: None,
        name: None,
        id: CaseId {
            file: "argv.json".into(),
            key: CaseKey::Hash("0123456789ab".into()),
        },
        ..CaseRecord::passing_default()
    };
    assert_eq!(
        String::from_utf8(written(&passed)).unwrap(),
        r##"{"index":0,"line":null,"id":{"file":"argv.json","hash":"0123456789ab"},"label":"#0","op":null,"name":null,"verdict":"identical","state":"passed","passed":true}"##
    );
    assert_eq!(round_trip(&passed), passed);
}

/// The case object of format version 1, as a value: every member in
/// its place, an absent one `undefined` (left out). Written only
/// here, to check the writer's bytes against `JSON.stringify`'s.
fn as_value(record: &CaseRecord) -> Value {
    let text = |value: &Option<String>| value.as_deref().map_or(Value::Undefined, Value::from);
    let entry = |entry: &EntryRef| {
        let mut bytes = Vec::new();
        write_entry(entry, &mut bytes);
        js::parse(&bytes, TextMode::LossyUtf8).unwrap()
    };
    let mut object = Object::new()
        .with("index", record.index as f64)
        .with(
            "line",
            record.line.map_or(Value::Null, |n| Value::from(n as f64)),
        )
        .with("id", id_json(&record.id))
        .with("label", record.label.as_str())
        .with("op", record.op.as_deref().map_or(Value::Null, Value::from))
        .with(
            "name",
            record.name.as_deref().map_or(Value::Null, Value::from),
        )
        .with("verdict", record.verdict.name())
        .with("state", record.state.name())
        .with("passed", record.passes())
        .with(
            "unknownOp",
            if record.unknown_op {
                Value::Bool(true)
            } else {
                Value::Undefined
            },
        );
    if record.verdict == VerdictKind::Identical && record.state == CaseState::Passed {
        return Value::Object(object);
    }
    if let Some(reference) = &record.entry {
        object.insert("entry", entry(reference));
    }
    object.insert("fingerprint", text(&record.fingerprint));
    if let Some(signature) = &record.signature {
        let signature = Object::new()
            .with(
                "op",
                signature.op.as_deref().map_or(Value::Null, Value::from),
            )
            .with("kind", signature.kind.as_str())
            .with("text", signature.text.as_str());
        object.insert("signature", Value::Object(signature));
    }
    object.insert("summary", Value::from(record.summary.as_str()));
    object.insert("thrown", text(&record.thrown));
    if record.verdict == VerdictKind::Different {
        let paths = record.paths.iter().map(|path| {
            Value::Object(
                Object::new()
                    .with("pointer", &path.pointer)
                    .with("golden", path.golden.clone())
                    .with("actual", path.actual.clone()),
            )
        });
        object.insert("paths", Value::Array(paths.collect()));
        object.insert("totalPaths", Value::from(record.total_paths as f64));
    }
    if record.verdict == VerdictKind::SameValue {
        let reasons = record.reasons.iter().map(|reason| {
            Value::Object(
                Object::new()
                    .with("kind", reason.kind.as_str())
                    .with("pointer", &reason.pointer)
                    .with("golden", reason.golden.as_str())
                    .with("actual", reason.actual.as_str())
                    .with("text", reason.text.as_str()),
            )
        });
        object.insert("reasons", Value::Array(reasons.collect()));
        object.insert("totalReasons", Value::from(record.total_reasons as f64));
    }
    for (key, value) in [
        ("note", &record.note),
        ("input", &record.input),
        ("golden", &record.golden),
        ("actual", &record.actual),
        ("stderr", &record.stderr),
    ] {
        object.insert(key, text(value));
    }
    Value::Object(object)
}

#[test]
fn the_case_object_is_the_bytes_json_stringify_writes_for_it() {
    let mut records = vec![sample()];
    let mut passed = CaseRecord {
        file: "d/a.json".into(),
        line: Some(7),
        op: Some("o\u{1}\"\\\u{7f}\u{2028}é".into()),
        name: Some("n\n\t\u{8}\u{c}\r".into()),
        id: CaseId {
            file: "d/a.json".into(),
            key: CaseKey::Name("n\n\t\u{8}\u{c}\r".into()),
        },
        ..CaseRecord::passing_default()
    };
    records.push(passed.clone());
    passed.line = None;
    passed.op = None;
    passed.id.key = CaseKey::Hash("abc".into());
    records.push(passed);
    let mut same = sample();
    same.verdict = VerdictKind::SameValue;
    same.entry = None;
    same.signature = Some(Signature::new(None, "same-value", "key order"));
    same.reasons = vec![ReasonRecord {
        kind: "key order".into(),
        pointer: JsString::from_utf16(&[0x2f, 0xdc00]),
        golden: "1.0".into(),
        actual: "1".into(),
        text: "number form".into(),
    }];
    same.total_reasons = 3;
    same.paths.clear();
    same.total_paths = 0;
    same.fingerprint = None;
    same.note = None;
    records.push(same);
    let mut different = sample();
    different.paths.push(PathRecord {
        pointer: JsString::from("/a\u{0}"),
        golden: None,
        actual: Some(
            js::parse(
                br#"{"z":[1,-0,1e21,"\u2028"],"1":null}"#,
                TextMode::LossyUtf8,
            )
            .unwrap(),
        ),
        golden_text: None,
        actual_text: None,
    });
    different.entry = Some(EntryRef {
        state: EntryState::Accepted,
        reason: "r\u{1b}".into(),
    });
    different.thrown = Some("not implemented".into());
    records.push(different);
    let mut crashed = CaseRecord {
        verdict: VerdictKind::Crash,
        state: CaseState::Error,
        ..sample()
    };
    crashed.paths.clear();
    crashed.total_paths = 0;
    records.push(crashed);
    for record in &records {
        assert_eq!(
            String::from_utf8(written(record)).unwrap(),
            String::from_utf8(js::to_json(&as_value(record))).unwrap()
        );
        assert_eq!(&round_trip(record), record);
    }
}

#[test]
fn numbers_are_written_as_the_oracle_wrote_them_and_read_back() {
    let mut record = sample();
    let spelled = r#"{"1":null,"z":[1,-0,1e1000,100000000000000000000001]}"#;
    record.paths = vec![PathRecord {
        pointer: JsString::from("/a"),
        golden: Some(js::parse(b"[0]", TextMode::LossyUtf8).unwrap()),
        actual: Some(js::parse(spelled.as_bytes(), TextMode::LossyUtf8).unwrap()),
        golden_text: None,
        actual_text: Some(spelled.into()),
    }];
    let text = String::from_utf8(written(&record)).unwrap();
    // The value itself as written, and its text for double-reading readers.
    assert!(text.contains(&format!(r#""actual":{spelled}"#)), "{text}");
    assert!(
        text.contains(
            r#""actualText":"{\"1\":null,\"z\":[1,-0,1e1000,100000000000000000000001]}""#
        ),
        "{text}"
    );
    assert!(text.contains(r#""golden":[0],"#), "{text}");
    assert!(!text.contains("goldenText"), "{text}");
    let read = round_trip(&record);
    assert_eq!(read.paths[0].actual_text.as_deref(), Some(spelled));
    assert_eq!(read.paths[0].actual_json().as_deref(), Some(spelled));
    assert_eq!(read.paths[0].golden_json().as_deref(), Some("[0]"));
}

#[test]
fn signatures_and_entries_read_back() {
    let signature = Signature::new(Some("x"), "threw", "the port threw \"a\"");
    let mut text = Vec::new();
    write_signature(&signature, &mut text);
    let back = read_signature(&js::parse(&text, TextMode::LossyUtf8).unwrap());
    assert_eq!(back, Some(signature));
    let entry = EntryRef {
        state: EntryState::Triaged { link: None },
        reason: "why".into(),
    };
    let mut text = Vec::new();
    write_entry(&entry, &mut text);
    assert_eq!(
        String::from_utf8(text.clone()).unwrap(),
        r#"{"state":"triaged","reason":"why","link":null}"#
    );
    assert_eq!(
        read_entry(&js::parse(&text, TextMode::LossyUtf8).unwrap()),
        Some(entry)
    );
    let id = CaseId {
        file: "a.json".into(),
        key: CaseKey::Name("n".into()),
    };
    let mut text = Vec::new();
    write_id(&id, &mut text);
    assert_eq!(text, js::to_json(&id_json(&id)));
    assert_eq!(
        read_id(&js::parse(&text, TextMode::LossyUtf8).unwrap()),
        Some(id)
    );
}
