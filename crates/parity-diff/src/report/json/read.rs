//! A JSON report read back one piece at a time: its head (version,
//! command, shard, corpus, ledger), then each file's head, each of its
//! cases as a [`CaseRecord`], and its end, then each member after the
//! files (each orphaned entry, each group and each stale or orphaned
//! rule on its own). Only one case
//! (or group) is held at a time, so that `merge` and `delta` read reports
//! of a million cases in little memory. A member this reader does not
//! know is read past, so a report of a later version still reads as far
//! as its version allows; it is read past without being built (at a bit
//! per level of nesting), and so is every member of the head, of a file,
//! of a case or of a list element that this reader does not use: the
//! memory a report costs is that of the parts kept.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::case::{read_case, read_entry};
use super::head::{read_corpus, read_ledger, read_shard};
use super::tail::{
    read_by_op, read_group, read_ledger_changes, read_orphaned, read_rule_finding,
    read_shard_rules, read_summary,
};
use super::{size, string, strings, GroupInfo, LedgerChanges, ReportHead, Summary, Version};
use crate::base::error::InputError;
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::report::record::{CaseRecord, CaseState};
use crate::report::{FileInfo, Problem, Tally};
use js_exact::{JsonReader, Object, ParseError, TextMode, Value};

/// A file's head: its name and path, its counts and its problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHead {
    /// The name and path.
    pub info: FileInfo,
    /// The counts the report gives.
    pub tally: Tally,
    /// Its problem, when it had one.
    pub problem: Option<Problem>,
    /// Its warnings, which change no verdict.
    pub warnings: Vec<String>,
}

/// One piece of a report.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A file starts.
    File(FileHead),
    /// One of its cases.
    Case(Box<CaseRecord>),
    /// It ends.
    EndFile,
    /// A ledger entry whose case is gone (`orphanedEntries`).
    OrphanedEntry(Box<Entry>),
    /// A failure group (`groups`).
    Group(GroupInfo),
    /// A stale or orphaned ledger rule (`ledgerRules`), its index 0.
    RuleFinding(Box<RuleFinding>),
    /// The rules a shard's cases did not decide (`shardRules`, in a
    /// shard's report with a ledger), with their indexes.
    ShardRules(Vec<RuleFinding>),
    /// The counts per op (`byOp`), in the report's order.
    ByOp(Vec<(String, Tally)>),
    /// What `accept` changed in the ledger (`ledgerChanges`).
    LedgerChanges(LedgerChanges),
    /// The summary.
    Summary(Summary),
}

/// The members of the report's head this reader uses; any other is read
/// past without being built.
const HEAD_KEYS: &[&str] = &[
    "version",
    "command",
    "shard",
    "corpus",
    "ledger",
    "suites",
    "suiteLedgers",
    "unredacted",
];

/// The members of a file's head this reader uses.
const FILE_KEYS: &[&str] = &[
    "name", "path", "suite", "problem", "golden", "message", "stderr", "skipped", "port", "state",
    "entry", "warnings", "passed", "accepted", "failed",
];

/// The members of a case this reader uses ([`read_case`]).
const CASE_KEYS: &[&str] = &[
    "id",
    "index",
    "line",
    "op",
    "name",
    "label",
    "verdict",
    "state",
    "entry",
    "fingerprint",
    "signature",
    "summary",
    "thrown",
    "unknownOp",
    "paths",
    "totalPaths",
    "reasons",
    "totalReasons",
    "note",
    "input",
    "golden",
    "actual",
    "stderr",
];

/// The members of an orphaned entry, a group or a rule finding this
/// reader uses (the three share one list: a member one of them does not
/// know costs a lookup, not its value).
const LIST_KEYS: &[&str] = &[
    "id",
    "op",
    "kind",
    "state",
    "reason",
    "link",
    "fingerprint",
    "verdict",
    "paths",
    "comments",
    "signature",
    "count",
    "cases",
    "index",
    "rule",
    "match",
    "files",
    "stale",
    "orphaned",
    "text",
    "label",
    "file",
    "name",
    "hash",
    "triaged",
    "accepted",
    "passed",
    "failed",
    "problem",
    "entry",
    "suite",
    "line",
];

/// The arrays after the files, read one element at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum List {
    Orphaned,
    Groups,
    Rules,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// In the files array; `true` before its first file.
    Files(bool),
    /// In a file's cases array; `true` before its first case.
    Cases(bool),
    /// A file without a cases array ended.
    Ended,
    /// Among the members after the files.
    Tail,
    /// In one of those that are arrays; `true` before its first element.
    List(List, bool),
    Done,
}

/// Reads one report.
pub struct ReportReader<R> {
    reader: JsonReader<R>,
    name: String,
    state: State,
    file: Option<String>,
}

impl ReportReader<File> {
    /// Opens the report at `path` and reads its head.
    pub fn open(path: &Path) -> Result<(Self, ReportHead), InputError> {
        let name = path.display().to_string();
        let file = crate::base::files::input::open(path, crate::base::files::input::REPORT)
            .map_err(|error| InputError::new(format!("cannot read the report {name}: {error}")))?;
        ReportReader::new(file, &name)
    }
}

fn is_string(value: &Value) -> bool {
    value.as_js_string().is_some()
}

impl<R: Read> ReportReader<R> {
    /// A reader over `source`, named `name` in messages, with the head
    /// read. A report of another format version is refused.
    pub fn new(source: R, name: &str) -> Result<(Self, ReportHead), InputError> {
        let mut reader = ReportReader {
            reader: JsonReader::new(source, TextMode::LossyUtf8).without_depth_limit(),
            name: name.to_owned(),
            state: State::Files(true),
            file: None,
        };
        let head = reader.head()?;
        Ok((reader, head))
    }

    fn syntax(&self, error: ParseError) -> InputError {
        InputError::new(format!(
            "{} is not a parity-diff JSON report: {error}",
            self.name
        ))
    }

    fn malformed(&self, what: &str) -> InputError {
        InputError::new(format!(
            "{}: {what} (near byte {}); is it a parity-diff JSON report of format {}?",
            self.name,
            self.reader.offset(),
            Version::readable()
        ))
    }

    fn expect(&mut self, byte: u8) -> Result<(), InputError> {
        self.reader
            .expect_byte(byte)
            .map_err(|error| self.syntax(error))
    }

    /// The next byte that is not white space, left unread.
    fn next_byte(&mut self) -> Result<Option<u8>, InputError> {
        self.reader
            .skip_white_space()
            .map_err(|error| self.syntax(error))?;
        self.reader.peek().map_err(|error| self.syntax(error))
    }

    fn value(&mut self, depth: usize) -> Result<Value, InputError> {
        self.reader
            .parse_value(depth)
            .map_err(|error| self.syntax(error))
    }

    /// Reads past a value, building nothing (a member this reader does not
    /// use may be millions of levels deep).
    fn skip(&mut self, depth: usize) -> Result<(), InputError> {
        self.reader
            .skip_value(depth)
            .map_err(|error| self.syntax(error))
    }

    /// A value that should be an object, with only the members `keep`
    /// names built; any other value is read whole (and refused by its
    /// reader).
    fn kept(&mut self, depth: usize, keep: &[&str]) -> Result<Value, InputError> {
        if self.next_byte()? != Some(b'{') {
            return self.value(depth);
        }
        self.expect(b'{')?;
        let mut members = Object::new();
        let mut first = true;
        while let Some(key) = self.key(first)? {
            first = false;
            if keep.contains(&key.as_str()) {
                let value = self.value(depth + 1)?;
                members.insert(key.as_str(), value);
            } else {
                self.skip(depth + 1)?;
            }
            if !self.more()? {
                break;
            }
        }
        Ok(Value::Object(members))
    }

    /// After a member: `,` (true) or the object's end (false).
    fn more(&mut self) -> Result<bool, InputError> {
        match self.reader.expect_one_of(b",}") {
            Ok(byte) => Ok(byte == b','),
            Err(error) => Err(self.syntax(error)),
        }
    }

    /// The next key of an object, and its colon; `None` at the object's
    /// end (`first`: no member read yet, so `}` may come).
    fn key(&mut self, first: bool) -> Result<Option<String>, InputError> {
        if first && self.next_byte()? == Some(b'}') {
            self.expect(b'}')?;
            return Ok(None);
        }
        let key = self.value(1)?;
        let key = string(&key).ok_or_else(|| self.malformed("a key that is not a string"))?;
        self.expect(b':')?;
        Ok(Some(key))
    }

    fn head(&mut self) -> Result<ReportHead, InputError> {
        self.expect(b'{')?;
        let mut members = Object::new();
        let mut first = true;
        loop {
            let Some(key) = self.key(first)? else {
                return Err(self.malformed("no files"));
            };
            first = false;
            if key == "files" {
                self.expect(b'[')?;
                break;
            }
            if HEAD_KEYS.contains(&key.as_str()) {
                let value = self.value(1)?;
                members.insert(key.as_str(), value);
            } else {
                self.skip(1)?;
            }
            if !self.more()? {
                return Err(self.malformed("no files"));
            }
        }
        let members = Value::Object(members);
        let version = match members.get("version").as_number() {
            Some(number) => Version::of_number(number).ok_or_else(|| {
                InputError::new(format!(
                    "{} is a report of format version {number}; this parity-diff reads {}",
                    self.name,
                    Version::readable()
                ))
            })?,
            None => return Err(self.malformed("no format version before the files")),
        };
        let command = string(members.get("command"))
            .ok_or_else(|| self.malformed("no command before the files"))?;
        let optional = |key: &str, read: &dyn Fn(&Value) -> bool| -> Result<(), InputError> {
            let value = members.get(key);
            if value.is_unset() || read(value) {
                Ok(())
            } else {
                Err(self.malformed(&format!("a malformed `{key}`")))
            }
        };
        optional("shard", &|v| read_shard(v).is_some())?;
        optional("corpus", &|v| read_corpus(v).is_some())?;
        optional("ledger", &|v| read_ledger(v).is_some())?;
        Ok(ReportHead {
            version,
            command,
            shard: read_shard(members.get("shard")),
            corpus: read_corpus(members.get("corpus")),
            ledger: read_ledger(members.get("ledger")),
            suites: strings(members.get("suites")).unwrap_or_default(),
            suite_ledgers: strings(members.get("suiteLedgers")).unwrap_or_default(),
            unredacted: strings(members.get("unredacted")).unwrap_or_default(),
        })
    }

    fn file_head(&self, members: &Value) -> Result<FileHead, InputError> {
        let text = |key: &str| -> Result<Option<String>, InputError> {
            let value = members.get(key);
            if value.is_unset() {
                Ok(None)
            } else if is_string(value) {
                Ok(string(value))
            } else {
                Err(self.malformed(&format!("a file whose `{key}` is not a string")))
            }
        };
        let number = |key: &str| size(members.get(key)).unwrap_or(0);
        let problem = match text("problem")?.as_deref() {
            None => None,
            Some("missing golden") => Some(Problem::MissingGolden {
                golden: text("golden")?.unwrap_or_default(),
            }),
            Some("orphaned golden") => Some(Problem::OrphanGolden {
                golden: text("golden")?.unwrap_or_default(),
            }),
            Some("error") => Some(Problem::Error {
                message: text("message")?.unwrap_or_default(),
                stderr: text("stderr")?,
                skipped: number("skipped"),
                port: members.get("port") == &Value::Bool(true),
            }),
            Some("framing") => Some(Problem::Framing {
                found: text("message")?.unwrap_or_default(),
                state: text("state")?
                    .as_deref()
                    .and_then(CaseState::from_name)
                    .filter(|state| {
                        matches!(
                            state,
                            CaseState::Failed | CaseState::New | CaseState::Accepted
                        )
                    })
                    .ok_or_else(|| self.malformed("a framing problem without its state"))?,
                entry: match members.get("entry") {
                    Value::Undefined => None,
                    value => Some(read_entry(value).ok_or_else(|| {
                        self.malformed("a framing problem whose entry is not one")
                    })?),
                },
                rule: None,
            }),
            Some(other) => {
                return Err(self.malformed(&format!("a file problem {other:?}")));
            }
        };
        let warnings = match members.get("warnings") {
            Value::Undefined => Vec::new(),
            value => strings(value)
                .ok_or_else(|| self.malformed("a file whose `warnings` are not strings"))?,
        };
        Ok(FileHead {
            info: FileInfo {
                name: text("name")?,
                path: text("path")?,
                suite: text("suite")?,
            },
            tally: Tally {
                passed: number("passed"),
                accepted: number("accepted"),
                failed: number("failed"),
            },
            problem,
            warnings,
        })
    }

    /// In an array: `true` when it closes (`]` consumed), else the comma
    /// before an element that is not the first is consumed.
    fn element_or_close(&mut self, first: bool) -> Result<bool, InputError> {
        if self.next_byte()? == Some(b']') {
            self.expect(b']')?;
            return Ok(true);
        }
        if !first {
            self.expect(b',')?;
        }
        Ok(false)
    }

    /// Reads past a member's value that this reader does not know.
    fn skip_value(&mut self) -> Result<(), InputError> {
        self.skip(1)
    }

    /// A member after the files read whole, as `read` makes it.
    fn member<T>(
        &mut self,
        key: &str,
        read: impl FnOnce(&Value) -> Option<T>,
    ) -> Result<T, InputError> {
        let value = self.value(1)?;
        read(&value).ok_or_else(|| self.malformed(&format!("a malformed `{key}`")))
    }

    /// The next piece after the files; `None` at the report's end (the
    /// end of the input checked).
    fn next_in_tail(&mut self) -> Result<Option<Item>, InputError> {
        loop {
            if let State::List(list, first) = self.state {
                if self.element_or_close(first)? {
                    self.state = State::Tail;
                    continue;
                }
                self.state = State::List(list, false);
                let value = self.kept(2, LIST_KEYS)?;
                let item = match list {
                    List::Orphaned => {
                        read_orphaned(&value).map(|entry| Item::OrphanedEntry(Box::new(entry)))
                    }
                    List::Groups => read_group(&value).map(Item::Group),
                    List::Rules => read_rule_finding(&value)
                        .map(|finding| Item::RuleFinding(Box::new(finding))),
                };
                let what = match list {
                    List::Orphaned => "an orphaned entry that is not one",
                    List::Groups => "a group that is not one",
                    List::Rules => "a ledger rule that is not one",
                };
                return item.map(Some).ok_or_else(|| self.malformed(what));
            }
            if !self.more()? {
                self.reader
                    .expect_end()
                    .map_err(|error| self.syntax(error))?;
                self.state = State::Done;
                return Ok(None);
            }
            let Some(key) = self.key(false)? else {
                continue;
            };
            let list = match key.as_str() {
                "orphanedEntries" => List::Orphaned,
                "groups" => List::Groups,
                "ledgerRules" => List::Rules,
                "shardRules" => {
                    return self
                        .member(&key, read_shard_rules)
                        .map(|rules| Some(Item::ShardRules(rules)))
                }
                "byOp" => {
                    return self
                        .member(&key, read_by_op)
                        .map(|by_op| Some(Item::ByOp(by_op)))
                }
                "ledgerChanges" => {
                    return self
                        .member(&key, read_ledger_changes)
                        .map(|changes| Some(Item::LedgerChanges(changes)))
                }
                "summary" => {
                    return self
                        .member(&key, read_summary)
                        .map(|summary| Some(Item::Summary(summary)))
                }
                _ => {
                    self.skip_value()?;
                    continue;
                }
            };
            self.expect(b'[')?;
            self.state = State::List(list, true);
        }
    }

    /// The next piece; `None` at the report's end (the end of the input
    /// checked).
    pub fn next_item(&mut self) -> Result<Option<Item>, InputError> {
        match self.state {
            State::Done => Ok(None),
            State::Tail | State::List(..) => self.next_in_tail(),
            State::Ended => {
                self.state = State::Files(false);
                Ok(Some(Item::EndFile))
            }
            State::Files(first) => {
                if self.element_or_close(first)? {
                    self.state = State::Tail;
                    return self.next_in_tail();
                }
                self.expect(b'{')?;
                let mut members = Object::new();
                let mut first_key = true;
                let mut cases = false;
                while let Some(key) = self.key(first_key)? {
                    first_key = false;
                    if key == "cases" {
                        self.expect(b'[')?;
                        cases = true;
                        break;
                    }
                    if FILE_KEYS.contains(&key.as_str()) {
                        let value = self.value(2)?;
                        members.insert(key.as_str(), value);
                    } else {
                        self.skip(2)?;
                    }
                    if !self.more()? {
                        break;
                    }
                }
                let head = self.file_head(&Value::Object(members))?;
                self.file = head.info.name.clone();
                self.state = if cases {
                    State::Cases(true)
                } else {
                    State::Ended
                };
                Ok(Some(Item::File(head)))
            }
            State::Cases(first) => {
                if self.element_or_close(first)? {
                    // Members after the cases: none are written; any are
                    // read past.
                    while self.more()? {
                        if self.key(false)?.is_none() {
                            break;
                        }
                        self.skip(2)?;
                    }
                    self.state = State::Files(false);
                    return Ok(Some(Item::EndFile));
                }
                self.state = State::Cases(false);
                let value = self.kept(3, CASE_KEYS)?;
                let record = read_case(&value).ok_or_else(|| {
                    let file = self.file.as_deref().unwrap_or("(no name)");
                    self.malformed(&format!("a case of {file} that is not a case object"))
                })?;
                Ok(Some(Item::Case(Box::new(record))))
            }
        }
    }
}
