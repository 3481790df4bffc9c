//! The JSON report's case object (docs/REPORT.md, CASE): one writer,
//! [`write_case`], and one reader, [`read_case`]. Reports, the spools
//! of the human and Markdown reports and the failure groups all store a
//! record this way, and it reads back into the same record. The pieces
//! other members share (an identity, a ledger entry, a signature) are
//! here too.
//!
//! The object is written member by member, straight into bytes: most of
//! a run's cases pass, and building a [`Value`] for each would cost more
//! than the comparison did. The bytes are those `JSON.stringify` writes
//! for the same object, members in this order, an absent member left
//! out.

use super::{size, string};
use crate::corpus::identity::{CaseId, CaseKey};
use crate::judge::first_difference;
use crate::report::record::{
    CaseRecord, CaseState, EntryRef, EntryState, PathRecord, ReasonRecord, Signature, VerdictKind,
};
use js_exact::{number, write_str, write_string, write_value, JsString, Object, Value};

/// An object written member by member, as `JSON.stringify` writes one.
pub(super) struct Members<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Members<'a> {
    /// Opens an object.
    pub(super) fn open(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Members { out, first: true }
    }

    /// Writes a member's key; its value comes next.
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        write_str(key, self.out);
        self.out.push(b':');
        self.out
    }

    pub(super) fn str(&mut self, key: &str, text: &str) {
        write_str(text, self.key(key));
    }

    /// A string, or `null`.
    pub(super) fn str_or_null(&mut self, key: &str, text: Option<&str>) {
        match text {
            Some(text) => self.str(key, text),
            None => self.key(key).extend_from_slice(b"null"),
        }
    }

    /// A string, or no member at all (`undefined`).
    pub(super) fn str_if(&mut self, key: &str, text: Option<&str>) {
        if let Some(text) = text {
            self.str(key, text);
        }
    }

    pub(super) fn count(&mut self, key: &str, count: usize) {
        number::write_json(count as f64, self.key(key));
    }

    fn bool(&mut self, key: &str, flag: bool) {
        let text: &[u8] = if flag { b"true" } else { b"false" };
        self.key(key).extend_from_slice(text);
    }

    /// Any value (an `undefined` one leaves the member out).
    pub(super) fn value(&mut self, key: &str, value: &Value) {
        if !value.is_undefined() {
            write_value(value, self.key(key));
        }
    }

    /// A member whose value its caller writes into the bytes given.
    pub(super) fn with(&mut self, key: &str, write: impl FnOnce(&mut Vec<u8>)) {
        write(self.key(key));
    }

    /// Closes the object.
    pub(super) fn close(self) {
        self.out.push(b'}');
    }
}

/// Appends an array, each item written by `write`.
pub(super) fn write_array<T>(
    items: impl IntoIterator<Item = T>,
    out: &mut Vec<u8>,
    mut write: impl FnMut(T, &mut Vec<u8>),
) {
    out.push(b'[');
    for (at, item) in items.into_iter().enumerate() {
        if at > 0 {
            out.push(b',');
        }
        write(item, out);
    }
    out.push(b']');
}

/// Appends an array of strings.
pub(super) fn write_strings<'a>(list: impl IntoIterator<Item = &'a String>, out: &mut Vec<u8>) {
    write_array(list, out, |text, out| write_str(text, out));
}

/// Appends an identity: `{"file","name"}` or `{"file","hash"}`.
pub fn write_id(id: &CaseId, out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    write_id_members(id, &mut members);
    members.close();
}

/// An identity's members, into an object being written.
pub(super) fn write_id_members(id: &CaseId, members: &mut Members<'_>) {
    members.str("file", &id.file);
    match &id.key {
        CaseKey::Name(name) => members.str("name", name),
        CaseKey::Hash(hash) => members.str("hash", hash),
    }
}

/// An identity as a value (for a member built as one: `accept`'s
/// ledger changes).
pub fn id_json(id: &CaseId) -> Value {
    let object = Object::new().with("file", id.file.as_str());
    Value::Object(match &id.key {
        CaseKey::Name(name) => object.with("name", name.as_str()),
        CaseKey::Hash(hash) => object.with("hash", hash.as_str()),
    })
}

/// An identity read back.
pub fn read_id(value: &Value) -> Option<CaseId> {
    let file = string(value.get("file"))?;
    let key = match (string(value.get("name")), string(value.get("hash"))) {
        (Some(name), None) => CaseKey::Name(name),
        (None, Some(hash)) => CaseKey::Hash(hash),
        _ => return None,
    };
    Some(CaseId { file, key })
}

/// Appends a ledger entry as reports show it:
/// `{"state","reason","link"}`.
pub fn write_entry(entry: &EntryRef, out: &mut Vec<u8>) {
    let (state, link) = match &entry.state {
        EntryState::Accepted => ("accepted", None),
        EntryState::Triaged { link } => ("triaged", link.as_deref()),
    };
    let mut members = Members::open(out);
    members.str("state", state);
    members.str("reason", &entry.reason);
    members.str_or_null("link", link);
    members.close();
}

/// A ledger entry read back.
pub fn read_entry(value: &Value) -> Option<EntryRef> {
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

/// Appends a signature: `{"op","kind","text"}`.
pub fn write_signature(signature: &Signature, out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    members.str_or_null("op", signature.op.as_deref());
    members.str("kind", &signature.kind);
    members.str("text", &signature.text);
    members.close();
}

/// A signature read back.
pub fn read_signature(value: &Value) -> Option<Signature> {
    Some(Signature {
        op: string(value.get("op")),
        kind: string(value.get("kind"))?,
        text: string(value.get("text"))?,
    })
}

/// Appends a record's case object. A passing identical case (most of a
/// run) carries its identifying members only.
pub fn write_case(record: &CaseRecord, out: &mut Vec<u8>) {
    write_case_of(record, None, out);
}

/// [`write_case`], with the case's suite (a member only when it has one).
pub fn write_case_of(record: &CaseRecord, suite: Option<&str>, out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    members.count("index", record.index);
    match record.line {
        Some(line) => members.count("line", line),
        None => members.str_or_null("line", None),
    }
    members.str_if("suite", suite);
    members.with("id", |out| write_id(&record.id, out));
    members.str("label", &record.label);
    members.str_or_null("op", record.op.as_deref());
    members.str_or_null("name", record.name.as_deref());
    members.str("verdict", record.verdict.name());
    members.str("state", record.state.name());
    members.bool("passed", record.passes());
    if record.unknown_op {
        members.bool("unknownOp", true);
    }
    if record.verdict == VerdictKind::Identical && record.state == CaseState::Passed {
        members.close();
        return;
    }
    if let Some(entry) = &record.entry {
        members.with("entry", |out| write_entry(entry, out));
    }
    members.str_if("fingerprint", record.fingerprint.as_deref());
    if let Some(signature) = &record.signature {
        members.with("signature", |out| write_signature(signature, out));
    }
    members.str("summary", &record.summary);
    members.str_if("thrown", record.thrown.as_deref());
    if record.verdict == VerdictKind::Different {
        members.with("paths", |out| {
            write_array(&record.paths, out, |path, out| {
                let mut path_members = Members::open(out);
                path_members.with("pointer", |out| write_string(&path.pointer, out));
                // A value whose numbers JSON.stringify would spell otherwise
                // is written as the oracle wrote it, and its text beside it
                // for readers whose JSON numbers are doubles.
                for (key, value, text) in [
                    ("golden", &path.golden, &path.golden_text),
                    ("actual", &path.actual, &path.actual_text),
                ] {
                    match (value, text) {
                        (Some(_), Some(text)) => {
                            path_members.with(key, |out| out.extend_from_slice(text.as_bytes()));
                            path_members.str(&format!("{key}Text"), text);
                        }
                        (Some(value), None) => path_members.value(key, value),
                        (None, _) => {}
                    }
                }
                let first = first_difference::of_values(path.golden.as_ref(), path.actual.as_ref());
                if let Some(first) = first {
                    path_members.with("firstDifference", |out| {
                        let mut first_members = Members::open(out);
                        first_members.count("offset", first.offset);
                        first_members.count("goldenLength", first.golden_length);
                        first_members.count("actualLength", first.actual_length);
                        first_members.count("start", first.start);
                        first_members.with("golden", |out| write_string(&first.golden.text, out));
                        first_members.with("actual", |out| write_string(&first.actual.text, out));
                        first_members.close();
                    });
                }
                path_members.close();
            });
        });
        members.count("totalPaths", record.total_paths);
    }
    if record.verdict == VerdictKind::SameValue {
        members.with("reasons", |out| {
            write_array(&record.reasons, out, |reason, out| {
                let mut reason_members = Members::open(out);
                reason_members.str("kind", &reason.kind);
                reason_members.with("pointer", |out| write_string(&reason.pointer, out));
                reason_members.str("golden", &reason.golden);
                reason_members.str("actual", &reason.actual);
                reason_members.str("text", &reason.text);
                reason_members.close();
            });
        });
        members.count("totalReasons", record.total_reasons);
    }
    members.str_if("note", record.note.as_deref());
    members.str_if("input", record.input.as_deref());
    members.str_if("golden", record.golden.as_deref());
    members.str_if("actual", record.actual.as_deref());
    members.str_if("stderr", record.stderr.as_deref());
    members.close();
}

/// A record read back from its case object; `None` when a required
/// member is missing or malformed.
pub fn read_case(value: &Value) -> Option<CaseRecord> {
    let id = read_id(value.get("id"))?;
    let list = |key: &str| value.get(key).as_array().unwrap_or_default();
    let paths = list("paths")
        .iter()
        .map(|path| {
            let side = |key: &str| match path.get(key) {
                Value::Undefined => None,
                other => Some(other.clone()),
            };
            Some(PathRecord {
                pointer: pointer(path)?,
                golden: side("golden"),
                actual: side("actual"),
                golden_text: string(path.get("goldenText")),
                actual_text: string(path.get("actualText")),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let reasons = list("reasons")
        .iter()
        .map(|reason| {
            Some(ReasonRecord {
                kind: string(reason.get("kind"))?,
                pointer: pointer(reason)?,
                golden: string(reason.get("golden"))?,
                actual: string(reason.get("actual"))?,
                text: string(reason.get("text"))?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let signature = match value.get("signature") {
        Value::Undefined => None,
        other => Some(read_signature(other)?),
    };
    let entry = match value.get("entry") {
        Value::Undefined => None,
        other => Some(read_entry(other)?),
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
        unknown_op: value.get("unknownOp") == &Value::Bool(true),
        paths,
        total_paths: size(value.get("totalPaths")).unwrap_or(0),
        reasons,
        total_reasons: size(value.get("totalReasons")).unwrap_or(0),
        note: string(value.get("note")),
        input: string(value.get("input")),
        golden: string(value.get("golden")),
        actual: string(value.get("actual")),
        stderr: string(value.get("stderr")),
        // What only a run uses on the way to the report.
        rule: None,
        form: None,
        id,
    })
}

/// A pointer member, kept as JavaScript text (lone surrogates included).
fn pointer(value: &Value) -> Option<JsString> {
    value.get("pointer").as_js_string().cloned()
}
