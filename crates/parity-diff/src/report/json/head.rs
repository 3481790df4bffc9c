//! What a report says about its run before any file: the version, the
//! command, the shard, the corpus and the ledger. `merge` checks shards
//! against each other by these, so they are written and read back here,
//! in one place.

use super::case::{read_entry, write_array, write_entry, write_id_members, write_strings, Members};
use super::{size, string, strings, Version};
pub use crate::corpus::info::{CorpusInfo, ShardInfo};
use crate::ledger::Entry;
use crate::report::record::EntryRef;
use js_exact::Value;

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
    /// The suites of `parity.toml` the run went through, in order (none
    /// without a config).
    pub suites: Vec<String>,
    /// Of several suites, those whose cases were weighed against a
    /// ledger (`ledger` names none then): a report rendered again needs
    /// it, as each record was made for its suite's ledger.
    pub suite_ledgers: Vec<String>,
    /// The suites whose `redact = false` showed secrets as written (the
    /// name of the one suite of a run of one): every report says so.
    pub unredacted: Vec<String>,
}

impl RunInfo {
    /// What every report says when a suite's `redact = false` showed its
    /// secrets (`None` when every suite masked them), each suite's name
    /// spelled by `name` (quoted as the format quotes outside text).
    pub fn unredacted_notice(&self, name: impl Fn(&str) -> String) -> Option<String> {
        let names: Vec<String> = self.unredacted.iter().map(|suite| name(suite)).collect();
        let noun = if names.len() == 1 { "suite" } else { "suites" };
        (!names.is_empty()).then(|| {
            format!(
                "Redaction is off for {noun} {} (redact = false): secrets are shown as written",
                names.join(", ")
            )
        })
    }
}

/// What a report read back says before its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportHead {
    /// Its format version.
    pub version: Version,
    /// `run`, `compare`, `accept` or `merge`.
    pub command: String,
    /// The shard, when one.
    pub shard: Option<ShardInfo>,
    /// The corpus, when recorded.
    pub corpus: Option<CorpusInfo>,
    /// The ledger, when one was used.
    pub ledger: Option<LedgerInfo>,
    /// The suites the run went through (none before version 2).
    pub suites: Vec<String>,
    /// Of several suites, those that had a ledger (`suiteLedgers`; none
    /// in a report written before it was recorded).
    pub suite_ledgers: Vec<String>,
    /// The suites whose secrets were shown as written (`unredacted`).
    pub unredacted: Vec<String>,
}

/// Appends the head's members, `version` to `ledger`, to an object
/// being written.
pub(super) fn write_head(run: &RunInfo, members: &mut Members<'_>) {
    members.count("version", Version::CURRENT.number() as usize);
    members.str("command", run.command);
    match &run.shard {
        Some(shard) => members.with("shard", |out| write_shard(shard, out)),
        None => members.str_or_null("shard", None),
    }
    match &run.corpus {
        Some(corpus) => members.with("corpus", |out| write_corpus(corpus, out)),
        None => members.str_or_null("corpus", None),
    }
    match &run.ledger {
        Some(ledger) => members.with("ledger", |out| write_ledger(ledger, out)),
        None => members.str_or_null("ledger", None),
    }
    members.with("suites", |out| write_strings(&run.suites, out));
    if !run.suite_ledgers.is_empty() {
        members.with("suiteLedgers", |out| write_strings(&run.suite_ledgers, out));
    }
    if !run.unredacted.is_empty() {
        members.with("unredacted", |out| write_strings(&run.unredacted, out));
    }
}

/// `{"index","count","from","to"}`.
fn write_shard(shard: &ShardInfo, out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    members.count("index", shard.index);
    members.count("count", shard.count);
    members.count("from", shard.from);
    members.count("to", shard.to);
    if let Some(timings) = shard.timings {
        members.str("timings", &format!("{timings:016x}"));
    }
    members.close();
}

/// A shard read back; `None` when malformed.
pub(super) fn read_shard(value: &Value) -> Option<ShardInfo> {
    let shard = ShardInfo {
        index: size(value.get("index"))?,
        count: size(value.get("count"))?,
        from: size(value.get("from"))?,
        to: size(value.get("to"))?,
        timings: match value.get("timings") {
            Value::Undefined => None,
            timings => Some(u64::from_str_radix(&string(timings)?, 16).ok()?),
        },
    };
    (shard.index >= 1 && shard.index <= shard.count && shard.from <= shard.to).then_some(shard)
}

/// The corpus member.
fn write_corpus(corpus: &CorpusInfo, out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    members.str("fingerprint", &corpus.fingerprint);
    members.with("caseFiles", |out| write_strings(&corpus.case_files, out));
    members.with("goldenFiles", |out| {
        write_strings(&corpus.golden_files, out)
    });
    members.count("cases", corpus.cases);
    members.str("caseDir", &corpus.case_dir);
    members.str("goldenDir", &corpus.golden_dir);
    members.str_or_null("filter", corpus.filter.as_deref());
    members.with("ops", |out| write_strings(&corpus.ops, out));
    members.str_if("rerun", corpus.rerun.as_deref());
    members.close();
}

/// A corpus member read back; `None` when malformed.
pub(super) fn read_corpus(value: &Value) -> Option<CorpusInfo> {
    Some(CorpusInfo {
        fingerprint: string(value.get("fingerprint"))?,
        case_files: strings(value.get("caseFiles"))?,
        golden_files: strings(value.get("goldenFiles"))?,
        cases: size(value.get("cases"))?,
        case_dir: string(value.get("caseDir"))?,
        golden_dir: string(value.get("goldenDir"))?,
        filter: string(value.get("filter")),
        ops: strings(value.get("ops"))?,
        rerun: string(value.get("rerun")),
    })
}

/// A ledger entry as reports list it (the ledger's entries, orphaned
/// entries): its identity, its op, what it says and its fingerprint.
/// `nested` puts the identity in an `id` member (orphaned entries)
/// rather than among the entry's own members (the ledger's).
pub(super) fn write_ledger_entry(entry: &Entry, nested: bool, out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    if nested {
        members.with("id", |out| super::case::write_id(&entry.id, out));
    } else {
        write_id_members(&entry.id, &mut members);
    }
    members.str_or_null("op", entry.op.as_deref());
    let reference = EntryRef {
        state: entry.state.clone(),
        reason: entry.reason.clone(),
    };
    members.with("entry", |out| write_entry(&reference, out));
    members.str("fingerprint", &entry.fingerprint);
    members.close();
}

/// A ledger entry read back (`id` is where its identity stands); `None`
/// when malformed.
pub(super) fn read_ledger_entry(value: &Value, id: &Value) -> Option<Entry> {
    let reference = read_entry(value.get("entry"))?;
    Some(Entry {
        id: super::case::read_id(id)?,
        op: string(value.get("op")),
        state: reference.state,
        reason: reference.reason,
        verdict: None,
        paths: Vec::new(),
        fingerprint: string(value.get("fingerprint"))?,
        comments: Vec::new(),
    })
}

/// The ledger member.
fn write_ledger(ledger: &LedgerInfo, out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    members.str("path", &ledger.path);
    members.str("fingerprint", &ledger.fingerprint);
    members.with("entries", |out| {
        write_array(&ledger.entries, out, |entry, out| {
            write_ledger_entry(entry, false, out)
        });
    });
    members.close();
}

/// A ledger member read back; `None` when malformed.
pub(super) fn read_ledger(value: &Value) -> Option<LedgerInfo> {
    let entries = value
        .get("entries")
        .as_array()?
        .iter()
        .map(|item| read_ledger_entry(item, item))
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
    use crate::corpus::identity::{CaseId, CaseKey};
    use crate::report::record::EntryState;
    use js_exact::{self as js, TextMode};

    fn written(write: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut bytes = Vec::new();
        write(&mut bytes);
        String::from_utf8(bytes).unwrap()
    }

    fn back(text: &str) -> Value {
        js::parse(text.as_bytes(), TextMode::LossyUtf8).unwrap()
    }

    #[test]
    fn the_head_reads_back() {
        let shard = ShardInfo {
            index: 2,
            count: 4,
            from: 10,
            to: 20,
            timings: None,
        };
        let text = written(|out| write_shard(&shard, out));
        assert_eq!(text, r#"{"index":2,"count":4,"from":10,"to":20}"#);
        assert_eq!(read_shard(&back(&text)), Some(shard));
        // Balanced by time: the timings' fingerprint, as 16 hex digits.
        let timed = ShardInfo {
            timings: Some(0xfe),
            ..shard
        };
        let text = written(|out| write_shard(&timed, out));
        assert_eq!(
            text,
            r#"{"index":2,"count":4,"from":10,"to":20,"timings":"00000000000000fe"}"#
        );
        assert_eq!(read_shard(&back(&text)), Some(timed));
        let odd = text.replace("00000000000000fe", "not hex");
        assert_eq!(read_shard(&back(&odd)), None);
        let bad = ShardInfo { index: 5, ..shard };
        assert_eq!(
            read_shard(&back(&written(|out| write_shard(&bad, out)))),
            None
        );

        let corpus = CorpusInfo {
            fingerprint: "0123456789abcdef".into(),
            case_files: vec!["a.json".into(), "sub/b.json".into()],
            golden_files: vec!["a.json".into()],
            cases: 7,
            case_dir: "cases".into(),
            golden_dir: "golden".into(),
            filter: Some("*".into()),
            ops: vec!["x".into()],
            rerun: None,
        };
        let text = written(|out| write_corpus(&corpus, out));
        assert_eq!(
            text,
            r#"{"fingerprint":"0123456789abcdef","caseFiles":["a.json","sub/b.json"],"goldenFiles":["a.json"],"cases":7,"caseDir":"cases","goldenDir":"golden","filter":"*","ops":["x"]}"#
        );
        assert_eq!(read_corpus(&back(&text)), Some(corpus.clone()));
        assert!(!corpus.is_whole());
        // A rerun's fingerprint comes last, and only for a rerun.
        let rerun = CorpusInfo {
            filter: None,
            ops: Vec::new(),
            rerun: Some("1234".into()),
            ..corpus.clone()
        };
        let text = written(|out| write_corpus(&rerun, out));
        assert!(
            text.ends_with(r#""filter":null,"ops":[],"rerun":"1234"}"#),
            "{text}"
        );
        assert_eq!(read_corpus(&back(&text)), Some(rerun.clone()));
        assert!(!rerun.is_whole());

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
        let text = written(|out| write_ledger(&ledger, out));
        assert_eq!(
            text,
            r#"{"path":"parity-ledger.txt","fingerprint":"fedcba9876543210","entries":[{"file":"a.json","hash":"0123456789ab","op":"x","entry":{"state":"triaged","reason":"known","link":"https://x/1"},"fingerprint":"1111222233334444"}]}"#
        );
        assert_eq!(read_ledger(&back(&text)), Some(ledger.clone()));
        assert_eq!(read_ledger(&Value::Null), None);

        let run = RunInfo {
            suites: Vec::new(),
            suite_ledgers: Vec::new(),
            unredacted: Vec::new(),
            command: "run",
            shard: Some(shard),
            corpus: None,
            ledger: None,
        };
        let text = written(|out| {
            let mut members = Members::open(out);
            write_head(&run, &mut members);
            members.close();
        });
        assert_eq!(
            text,
            r#"{"version":2,"command":"run","shard":{"index":2,"count":4,"from":10,"to":20},"corpus":null,"ledger":null,"suites":[]}"#
        );
    }
}
