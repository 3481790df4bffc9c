//! What a report says about its run before any file: the command, the
//! shard, the corpus and the ledger. `merge` checks shards against each
//! other by these, so they are written and read back here, in one place.

use crate::diff::identity::CaseId;
use crate::diff::ledger::Entry;
use crate::diff::record::{entry_from_json, entry_json, id_from_json, id_json, EntryRef};
use crate::js::{Object, Value};

/// A shard's place in its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardInfo {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
    /// The first selected case it took (counted from 0 over the whole
    /// selection, in corpus order).
    pub from: usize,
    /// One past the last.
    pub to: usize,
}

/// The corpus a run read, as reports record it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorpusInfo {
    /// A hash over the listed case files' and goldens' relative paths
    /// and bytes.
    pub fingerprint: String,
    /// The case files the filter selected, relative to the cases
    /// directory, in order.
    pub case_files: Vec<String>,
    /// The goldens the filter selected, likewise.
    pub golden_files: Vec<String>,
    /// How many cases were selected (after `--filter` and `--op`, before
    /// `--shard`).
    pub cases: usize,
    /// The cases directory, as given.
    pub case_dir: String,
    /// The goldens directory, as given.
    pub golden_dir: String,
    /// `--filter`, when given.
    pub filter: Option<String>,
    /// `--op`, in the order given (empty: every op).
    pub ops: Vec<String>,
}

impl CorpusInfo {
    /// Whether the whole-run checks apply (no filter, no op chosen).
    pub fn is_whole(&self) -> bool {
        self.filter.is_none() && self.ops.is_empty()
    }
}

/// The ledger a run used, as reports name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerInfo {
    /// Its path.
    pub path: String,
    /// A hash of its text.
    pub fingerprint: String,
    /// Its entries (comments, verdicts and paths left out).
    pub entries: Vec<Entry>,
}

/// What ran, for the report's head.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunInfo {
    /// `run`, `compare`, `accept` or `merge`.
    pub command: &'static str,
    /// The shard, when one.
    pub shard: Option<ShardInfo>,
    /// The corpus (`run` and `merge`).
    pub corpus: Option<CorpusInfo>,
    /// The ledger, when one is in use.
    pub ledger: Option<LedgerInfo>,
}

fn count(value: usize) -> Value {
    Value::Number(value as f64)
}

fn strings(list: &[String]) -> Value {
    Value::Array(list.iter().map(|text| Value::from(text.as_str())).collect())
}

/// A string member.
pub fn string(value: &Value) -> Option<String> {
    value
        .as_js_string()
        .map(|text| text.to_utf8_lossy().into_owned())
}

/// A count member: a whole number, not negative.
pub fn size(value: &Value) -> Option<usize> {
    value
        .as_number()
        .filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n < 9.0e15)
        .map(|n| n as usize)
}

fn string_list(value: &Value) -> Option<Vec<String>> {
    value.as_array()?.iter().map(string).collect()
}

impl RunInfo {
    /// The head of the JSON report: `version`, `command`, `shard`,
    /// `corpus`, `ledger`.
    pub fn head_json(&self) -> Object {
        Object::new()
            .with("version", count(1))
            .with("command", self.command)
            .with("shard", self.shard.as_ref().map_or(Value::Null, shard_json))
            .with(
                "corpus",
                self.corpus.as_ref().map_or(Value::Null, corpus_json),
            )
            .with(
                "ledger",
                self.ledger.as_ref().map_or(Value::Null, ledger_json),
            )
    }
}

/// `{"index","count","from","to"}`.
pub fn shard_json(shard: &ShardInfo) -> Value {
    Value::Object(
        Object::new()
            .with("index", count(shard.index))
            .with("count", count(shard.count))
            .with("from", count(shard.from))
            .with("to", count(shard.to)),
    )
}

/// A shard read back; `None` when malformed.
pub fn shard_from_json(value: &Value) -> Option<ShardInfo> {
    let shard = ShardInfo {
        index: size(value.get("index"))?,
        count: size(value.get("count"))?,
        from: size(value.get("from"))?,
        to: size(value.get("to"))?,
    };
    (shard.index >= 1 && shard.index <= shard.count && shard.from <= shard.to).then_some(shard)
}

/// The corpus member.
pub fn corpus_json(corpus: &CorpusInfo) -> Value {
    Value::Object(
        Object::new()
            .with("fingerprint", corpus.fingerprint.as_str())
            .with("caseFiles", strings(&corpus.case_files))
            .with("goldenFiles", strings(&corpus.golden_files))
            .with("cases", count(corpus.cases))
            .with("caseDir", corpus.case_dir.as_str())
            .with("goldenDir", corpus.golden_dir.as_str())
            .with(
                "filter",
                corpus.filter.as_deref().map_or(Value::Null, Value::from),
            )
            .with("ops", strings(&corpus.ops)),
    )
}

/// A corpus member read back; `None` when malformed.
pub fn corpus_from_json(value: &Value) -> Option<CorpusInfo> {
    Some(CorpusInfo {
        fingerprint: string(value.get("fingerprint"))?,
        case_files: string_list(value.get("caseFiles"))?,
        golden_files: string_list(value.get("goldenFiles"))?,
        cases: size(value.get("cases"))?,
        case_dir: string(value.get("caseDir"))?,
        golden_dir: string(value.get("goldenDir"))?,
        filter: string(value.get("filter")),
        ops: string_list(value.get("ops"))?,
    })
}

/// An entry as the ledger member lists it: its identity's members, then
/// `op`, `entry` and `fingerprint`.
fn ledger_entry_json(entry: &Entry) -> Value {
    let id = id_json(&entry.id).into_object().unwrap_or_default();
    let reference = EntryRef {
        state: entry.state.clone(),
        reason: entry.reason.clone(),
    };
    Value::Object(
        id.with("op", entry.op.as_deref().map_or(Value::Null, Value::from))
            .with("entry", entry_json(&reference))
            .with("fingerprint", entry.fingerprint.as_str()),
    )
}

/// The ledger member.
pub fn ledger_json(ledger: &LedgerInfo) -> Value {
    Value::Object(
        Object::new()
            .with("path", ledger.path.as_str())
            .with("fingerprint", ledger.fingerprint.as_str())
            .with(
                "entries",
                ledger
                    .entries
                    .iter()
                    .map(ledger_entry_json)
                    .collect::<Vec<_>>(),
            ),
    )
}

/// A ledger member read back; `None` when malformed.
pub fn ledger_from_json(value: &Value) -> Option<LedgerInfo> {
    let entries = value
        .get("entries")
        .as_array()?
        .iter()
        .map(|item| {
            let id: CaseId = id_from_json(item)?;
            let reference = entry_from_json(item.get("entry"))?;
            Some(Entry {
                id,
                op: string(item.get("op")),
                state: reference.state,
                reason: reference.reason,
                verdict: None,
                paths: Vec::new(),
                fingerprint: string(item.get("fingerprint"))?,
                comments: Vec::new(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(LedgerInfo {
        path: string(value.get("path"))?,
        fingerprint: string(value.get("fingerprint"))?,
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::identity::CaseKey;
    use crate::diff::record::EntryState;
    use crate::js::{self, TextMode};

    fn back(value: &Value) -> Value {
        js::parse(&js::to_json(value), TextMode::LossyUtf8).unwrap()
    }

    #[test]
    fn the_head_reads_back() {
        let shard = ShardInfo {
            index: 2,
            count: 4,
            from: 10,
            to: 20,
        };
        assert_eq!(shard_from_json(&back(&shard_json(&shard))), Some(shard));
        let bad = ShardInfo { index: 5, ..shard };
        assert_eq!(shard_from_json(&back(&shard_json(&bad))), None);

        let corpus = CorpusInfo {
            fingerprint: "0123456789abcdef".into(),
            case_files: vec!["a.json".into(), "sub/b.json".into()],
            golden_files: vec!["a.json".into()],
            cases: 7,
            case_dir: "cases".into(),
            golden_dir: "golden".into(),
            filter: Some("*".into()),
            ops: vec!["x".into()],
        };
        let text = String::from_utf8(js::to_json(&corpus_json(&corpus))).unwrap();
        assert_eq!(
            text,
            r#"{"fingerprint":"0123456789abcdef","caseFiles":["a.json","sub/b.json"],"goldenFiles":["a.json"],"cases":7,"caseDir":"cases","goldenDir":"golden","filter":"*","ops":["x"]}"#
        );
        assert_eq!(
            corpus_from_json(&back(&corpus_json(&corpus))),
            Some(corpus.clone())
        );
        assert!(!corpus.is_whole());

        let ledger = LedgerInfo {
            path: "parity-ledger.txt".into(),
            fingerprint: "fedcba9876543210".into(),
            entries: vec![Entry {
                id: CaseId {
                    file: "a.json".into(),
                    key: CaseKey::Hash("0123456789ab".into()),
                },
                op: Some("x".into()),
                state: EntryState::Triaged {
                    link: Some("https://x/1".into()),
                },
                reason: "known".into(),
                verdict: None,
                paths: Vec::new(),
                fingerprint: "1111222233334444".into(),
                comments: Vec::new(),
            }],
        };
        let text = String::from_utf8(js::to_json(&ledger_json(&ledger))).unwrap();
        assert!(text.contains(r#"{"file":"a.json","hash":"0123456789ab","op":"x","entry":{"state":"triaged","reason":"known","link":"https://x/1"},"fingerprint":"1111222233334444"}"#), "{text}");
        assert_eq!(ledger_from_json(&back(&ledger_json(&ledger))), Some(ledger));
        assert_eq!(ledger_from_json(&Value::Null), None);
    }
}
