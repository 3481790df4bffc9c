//! A record's JSON form: the JSON report's case object (format version
//! 1, docs/REPORT.md), written and read back.

use super::{
    CaseRecord, CaseState, EntryRef, EntryState, PathRecord, ReasonRecord, Signature, VerdictKind,
};
use crate::diff::identity::{CaseId, CaseKey};
use crate::js::{Object, Value};

fn count(value: usize) -> Value {
    Value::Number(value as f64)
}

fn text(value: &Option<String>) -> Value {
    value.as_deref().map_or(Value::Undefined, Value::from)
}

/// The JSON form of an identity: `{"file","name"}` or `{"file","hash"}`.
pub fn id_json(id: &CaseId) -> Value {
    let object = Object::new().with("file", id.file.as_str());
    Value::Object(match &id.key {
        CaseKey::Name(name) => object.with("name", name.as_str()),
        CaseKey::Hash(hash) => object.with("hash", hash.as_str()),
    })
}

/// An identity read back from its JSON form.
pub fn id_from_json(value: &Value) -> Option<CaseId> {
    let file = string(value.get("file"))?;
    let key = match (string(value.get("name")), string(value.get("hash"))) {
        (Some(name), None) => CaseKey::Name(name),
        (None, Some(hash)) => CaseKey::Hash(hash),
        _ => return None,
    };
    Some(CaseId { file, key })
}

fn string(value: &Value) -> Option<String> {
    value
        .as_js_string()
        .map(|text| text.to_utf8_lossy().into_owned())
}

fn size(value: &Value) -> Option<usize> {
    value
        .as_number()
        .filter(|n| *n >= 0.0 && n.fract() == 0.0)
        .map(|n| n as usize)
}

/// The JSON form of an entry reference.
pub fn entry_json(entry: &EntryRef) -> Value {
    let (state, link) = match &entry.state {
        EntryState::Accepted => ("accepted", None),
        EntryState::Triaged { link } => ("triaged", link.as_deref()),
    };
    Value::Object(
        Object::new()
            .with("state", state)
            .with("reason", entry.reason.as_str())
            .with("link", link.map_or(Value::Null, Value::from)),
    )
}

/// An entry reference read back from its JSON form.
pub fn entry_from_json(value: &Value) -> Option<EntryRef> {
    let state = match string(value.get("state"))?.as_str() {
        "accepted" => EntryState::Accepted,
        "triaged" => EntryState::Triaged {
            link: string(value.get("link")),
        },
        _ => return None,
    };
    Some(EntryRef {
        state,
        reason: string(value.get("reason")).unwrap_or_default(),
    })
}

/// A Rust string as `JSON.stringify` writes it (a Rust string holds no
/// lone surrogate, so only quotes, backslashes and controls need escapes).
fn write_str(text: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut copied = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        let escape: &[u8] = match byte {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x0C => b"\\f",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0..=0x1F => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[copied..at]);
        if escape.is_empty() {
            out.extend_from_slice(format!("\\u{byte:04x}").as_bytes());
        } else {
            out.extend_from_slice(escape);
        }
        copied = at + 1;
    }
    out.extend_from_slice(&bytes[copied..]);
    out.push(b'"');
}

fn write_text_or_null(text: Option<&str>, out: &mut Vec<u8>) {
    match text {
        Some(text) => write_str(text, out),
        None => out.extend_from_slice(b"null"),
    }
}

impl CaseRecord {
    /// Appends the record's case object, as [`CaseRecord::to_json`] makes
    /// it; a passing identical case (most of a run) is written directly.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        if self.verdict != VerdictKind::Identical || self.state != CaseState::Passed {
            crate::js::write_value(&self.to_json(), out);
            return;
        }
        out.extend_from_slice(format!("{{\"index\":{},\"line\":", self.index).as_bytes());
        match self.line {
            Some(line) => out.extend_from_slice(line.to_string().as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"id\":{\"file\":");
        write_str(&self.id.file, out);
        match &self.id.key {
            CaseKey::Name(name) => {
                out.extend_from_slice(b",\"name\":");
                write_str(name, out);
            }
            CaseKey::Hash(hash) => {
                out.extend_from_slice(b",\"hash\":");
                write_str(hash, out);
            }
        }
        out.extend_from_slice(b"},\"label\":");
        write_str(&self.label, out);
        out.extend_from_slice(b",\"op\":");
        write_text_or_null(self.op.as_deref(), out);
        out.extend_from_slice(b",\"name\":");
        write_text_or_null(self.name.as_deref(), out);
        out.extend_from_slice(b",\"verdict\":\"identical\",\"state\":\"passed\",\"passed\":true}");
    }

    /// The record as the JSON report's case object. Passing identical
    /// cases carry the identifying keys only.
    pub fn to_json(&self) -> Value {
        let mut object = Object::new()
            .with("index", count(self.index))
            .with("line", self.line.map_or(Value::Null, count))
            .with("id", id_json(&self.id))
            .with("label", self.label.as_str())
            .with("op", self.op.as_deref().map_or(Value::Null, Value::from))
            .with(
                "name",
                self.name.as_deref().map_or(Value::Null, Value::from),
            )
            .with("verdict", self.verdict.name())
            .with("state", self.state.name())
            .with("passed", self.passes());
        if self.verdict == VerdictKind::Identical && self.state == CaseState::Passed {
            return Value::Object(object);
        }
        if let Some(entry) = &self.entry {
            object.insert("entry", entry_json(entry));
        }
        object.insert("fingerprint", text(&self.fingerprint));
        if let Some(signature) = &self.signature {
            object.insert("signature", signature.to_json());
        }
        object.insert("summary", Value::from(self.summary.as_str()));
        object.insert("thrown", text(&self.thrown));
        if self.verdict == VerdictKind::Different {
            let paths: Vec<Value> = self
                .paths
                .iter()
                .map(|path| {
                    Value::Object(
                        Object::new()
                            .with("pointer", &path.pointer)
                            .with("golden", path.golden.clone())
                            .with("actual", path.actual.clone()),
                    )
                })
                .collect();
            object.insert("paths", Value::Array(paths));
            object.insert("totalPaths", count(self.total_paths));
        }
        if self.verdict == VerdictKind::SameValue {
            let reasons: Vec<Value> = self
                .reasons
                .iter()
                .map(|reason| {
                    Value::Object(
                        Object::new()
                            .with("kind", reason.kind.as_str())
                            .with("pointer", &reason.pointer)
                            .with("golden", reason.golden.as_str())
                            .with("actual", reason.actual.as_str())
                            .with("text", reason.text.as_str()),
                    )
                })
                .collect();
            object.insert("reasons", Value::Array(reasons));
            object.insert("totalReasons", count(self.total_reasons));
        }
        object.insert("note", text(&self.note));
        object.insert("input", text(&self.input));
        object.insert("golden", text(&self.golden));
        object.insert("actual", text(&self.actual));
        object.insert("stderr", text(&self.stderr));
        Value::Object(object)
    }

    /// A record read back from its case object; `None` when a required
    /// key is missing or malformed.
    pub fn from_json(value: &Value) -> Option<Self> {
        let id = id_from_json(value.get("id"))?;
        let list = |key: &str| value.get(key).as_array().unwrap_or_default();
        let paths = list("paths")
            .iter()
            .map(|path| {
                let side = |key: &str| match path.get(key) {
                    Value::Undefined => None,
                    other => Some(other.clone()),
                };
                Some(PathRecord {
                    pointer: path.get("pointer").as_js_string()?.clone(),
                    golden: side("golden"),
                    actual: side("actual"),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let reasons = list("reasons")
            .iter()
            .map(|reason| {
                Some(ReasonRecord {
                    kind: string(reason.get("kind"))?,
                    pointer: reason.get("pointer").as_js_string()?.clone(),
                    golden: string(reason.get("golden"))?,
                    actual: string(reason.get("actual"))?,
                    text: string(reason.get("text"))?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let signature = match value.get("signature") {
            Value::Undefined => None,
            other => Some(Signature::from_json(other)?),
        };
        let entry = match value.get("entry") {
            Value::Undefined => None,
            other => Some(entry_from_json(other)?),
        };
        let verdict = VerdictKind::from_name(&string(value.get("verdict"))?)?;
        Some(CaseRecord {
            file: id.file.clone(),
            index: size(value.get("index"))?,
            line: size(value.get("line")),
            op: string(value.get("op")),
            name: string(value.get("name")),
            label: string(value.get("label"))?,
            verdict,
            state: CaseState::from_name(&string(value.get("state"))?)?,
            entry,
            fingerprint: string(value.get("fingerprint")),
            signature,
            summary: string(value.get("summary")).unwrap_or_else(|| verdict.name().to_owned()),
            thrown: string(value.get("thrown")),
            paths,
            total_paths: size(value.get("totalPaths")).unwrap_or(0),
            reasons,
            total_reasons: size(value.get("totalReasons")).unwrap_or(0),
            note: string(value.get("note")),
            input: string(value.get("input")),
            golden: string(value.get("golden")),
            actual: string(value.get("actual")),
            stderr: string(value.get("stderr")),
            id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::js::{self, JsString, TextMode};

    fn round_trip(record: &CaseRecord) -> CaseRecord {
        let text = js::to_json(&record.to_json());
        let value = js::parse(&text, TextMode::LossyUtf8).unwrap();
        CaseRecord::from_json(&value).expect("reads back")
    }

    pub(crate) fn sample() -> CaseRecord {
        CaseRecord {
            file: "argv.json".into(),
            index: 3,
            line: Some(5),
            id: CaseId {
                file: "argv.json".into(),
                key: CaseKey::Name("a \"b\"".into()),
            },
            op: Some("cliArgs".into()),
            name: Some("a \"b\"".into()),
            label: "#3 cliArgs \"a \\\"b\\\"\"".into(),
            verdict: VerdictKind::Different,
            state: CaseState::Changed,
            entry: Some(EntryRef {
                state: EntryState::Triaged {
                    link: Some("https://x/1".into()),
                },
                reason: "known".into(),
            }),
            fingerprint: Some("0123456789abcdef".into()),
            signature: Some(Signature::new(
                Some("cliArgs"),
                "different",
                "different at /*",
            )),
            summary: "different at /1".into(),
            thrown: None,
            paths: vec![PathRecord {
                pointer: JsString::from_utf16(&[0x2f, 0xd800]),
                golden: Some(Value::from("x")),
                actual: None,
            }],
            total_paths: 4,
            reasons: Vec::new(),
            total_reasons: 0,
            note: Some("n".into()),
            input: Some("{\"op\":\"cliArgs\"}".into()),
            golden: Some("[\"x\"]".into()),
            actual: Some("[]".into()),
            stderr: Some("oracle: tried\n".into()),
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
        let text = String::from_utf8(js::to_json(&passed.to_json())).unwrap();
        assert_eq!(
            text,
            r##"{"index":0,"line":null,"id":{"file":"argv.json","hash":"0123456789ab"},"label":"#0","op":null,"name":null,"verdict":"identical","state":"passed","passed":true}"##
        );
        assert_eq!(round_trip(&passed), passed);
    }

    #[test]
    fn passing_cases_are_written_directly_as_to_json_would() {
        let mut passed = CaseRecord {
            line: Some(7),
            op: Some("o\u{1}\"\\\u{7f}\u{2028}é".into()),
            name: Some("n\n\t\u{8}\u{c}\r".into()),
            id: CaseId {
                file: "d/a.json".into(),
                key: CaseKey::Name("n\n\t\u{8}\u{c}\r".into()),
            },
            ..CaseRecord::passing_default()
        };
        for _ in 0..2 {
            let mut direct = Vec::new();
            passed.write_json(&mut direct);
            assert_eq!(
                String::from_utf8(direct).unwrap(),
                String::from_utf8(js::to_json(&passed.to_json())).unwrap()
            );
            passed.line = None;
            passed.op = None;
            passed.id.key = CaseKey::Hash("abc".into());
        }
        let failing = sample();
        let mut direct = Vec::new();
        failing.write_json(&mut direct);
        assert_eq!(direct, js::to_json(&failing.to_json()));
    }

    #[test]
    fn names_read_back() {
        for kind in VerdictKind::ALL {
            assert_eq!(VerdictKind::from_name(kind.name()), Some(kind));
        }
        for state in CaseState::ALL {
            assert_eq!(CaseState::from_name(state.name()), Some(state));
        }
        assert!(CaseState::Accepted.passes() && !CaseState::Stale.passes());
        assert!(VerdictKind::Timeout.is_oracle_failure());
    }
}
