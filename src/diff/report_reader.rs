//! A JSON report (format version 1) read back one piece at a time: its
//! head (command, shard, corpus, ledger), then each file's head, each of
//! its cases as a [`CaseRecord`], and its end. Only one case is held at a
//! time, so that `merge` and `delta` read reports of a million cases in
//! little memory. The members after `files` (groups, per-op counts, the
//! summary) are read and dropped: the commands that read reports
//! recompute them from the cases.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::error::InputError;
use super::record::CaseRecord;
use super::report::head::{corpus_from_json, ledger_from_json, shard_from_json, size, string};
use super::report::{CorpusInfo, FileInfo, LedgerInfo, Problem, ShardInfo, Tally};
use crate::js::{JsonReader, Object, ParseError, TextMode, Value};

/// What a report says before its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportHead {
    /// `run`, `compare`, `accept` or `merge`.
    pub command: String,
    /// The shard, when one.
    pub shard: Option<ShardInfo>,
    /// The corpus, when recorded.
    pub corpus: Option<CorpusInfo>,
    /// The ledger, when one was used.
    pub ledger: Option<LedgerInfo>,
}

/// A file's head: its name and path, its counts and its problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHead {
    /// The name and path.
    pub info: FileInfo,
    /// The counts the report gives.
    pub tally: Tally,
    /// Its problem, when it had one.
    pub problem: Option<Problem>,
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// In the files array; `true` before its first file.
    Files(bool),
    /// In a file's cases array; `true` before its first case.
    Cases(bool),
    /// A file without a cases array ended.
    Ended,
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
        if path.is_dir() {
            return Err(InputError::new(format!(
                "{name} is a directory, not a JSON report"
            )));
        }
        let file = File::open(path)
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
            "{}: {what} (near byte {}); is it a parity-diff JSON report of format version 1?",
            self.name,
            self.reader.offset()
        ))
    }

    fn expect(&mut self, byte: u8) -> Result<(), InputError> {
        self.reader
            .expect_byte(byte)
            .map_err(|error| self.syntax(error))
    }

    fn value(&mut self, depth: usize) -> Result<Value, InputError> {
        self.reader
            .parse_value(depth)
            .map_err(|error| self.syntax(error))
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
        if first {
            self.reader
                .skip_white_space()
                .map_err(|error| self.syntax(error))?;
            if self.reader.peek().map_err(|error| self.syntax(error))? == Some(b'}') {
                self.expect(b'}')?;
                return Ok(None);
            }
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
            let value = self.value(1)?;
            members.insert(key.as_str(), value);
            if !self.more()? {
                return Err(self.malformed("no files"));
            }
        }
        let members = Value::Object(members);
        match members.get("version").as_number() {
            Some(1.0) => {}
            Some(version) => {
                return Err(InputError::new(format!(
                    "{} is a report of format version {version}; this parity-diff reads version 1",
                    self.name
                )))
            }
            None => return Err(self.malformed("no format version before the files")),
        }
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
        optional("shard", &|v| shard_from_json(v).is_some())?;
        optional("corpus", &|v| corpus_from_json(v).is_some())?;
        optional("ledger", &|v| ledger_from_json(v).is_some())?;
        Ok(ReportHead {
            command,
            shard: shard_from_json(members.get("shard")),
            corpus: corpus_from_json(members.get("corpus")),
            ledger: ledger_from_json(members.get("ledger")),
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
                golden: PathBuf::from(text("golden")?.unwrap_or_default()),
            }),
            Some("orphaned golden") => Some(Problem::OrphanGolden {
                golden: PathBuf::from(text("golden")?.unwrap_or_default()),
            }),
            Some("error") => Some(Problem::Error {
                message: text("message")?.unwrap_or_default(),
                stderr: text("stderr")?,
                skipped: number("skipped"),
            }),
            Some(other) => {
                return Err(self.malformed(&format!("a file problem {other:?}")));
            }
        };
        Ok(FileHead {
            info: FileInfo {
                name: text("name")?,
                path: text("path")?,
            },
            tally: Tally {
                passed: number("passed"),
                accepted: number("accepted"),
                failed: number("failed"),
            },
            problem,
        })
    }

    /// In an array: `true` when it closes (`]` consumed), else the comma
    /// before an element that is not the first is consumed.
    fn element_or_close(&mut self, first: bool) -> Result<bool, InputError> {
        self.reader
            .skip_white_space()
            .map_err(|error| self.syntax(error))?;
        if self.reader.peek().map_err(|error| self.syntax(error))? == Some(b']') {
            self.expect(b']')?;
            return Ok(true);
        }
        if !first {
            self.expect(b',')?;
        }
        Ok(false)
    }

    /// Reads the members after `files`, and the end. An array is read one
    /// element at a time: `groups` may have as many elements as the report
    /// has failures.
    fn tail(&mut self) -> Result<(), InputError> {
        while self.more()? {
            if self.key(false)?.is_none() {
                break;
            }
            self.reader
                .skip_white_space()
                .map_err(|error| self.syntax(error))?;
            if self.reader.peek().map_err(|error| self.syntax(error))? != Some(b'[') {
                self.value(1)?;
                continue;
            }
            self.expect(b'[')?;
            let mut first = true;
            while !self.element_or_close(first)? {
                first = false;
                self.value(2)?;
            }
        }
        self.reader.expect_end().map_err(|error| self.syntax(error))
    }

    /// The next piece; `None` after the last file (the rest of the report
    /// read and checked).
    pub fn next_item(&mut self) -> Result<Option<Item>, InputError> {
        match self.state {
            State::Done => Ok(None),
            State::Ended => {
                self.state = State::Files(false);
                Ok(Some(Item::EndFile))
            }
            State::Files(first) => {
                if self.element_or_close(first)? {
                    self.tail()?;
                    self.state = State::Done;
                    return Ok(None);
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
                    let value = self.value(2)?;
                    members.insert(key.as_str(), value);
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
                        self.value(2)?;
                    }
                    self.state = State::Files(false);
                    return Ok(Some(Item::EndFile));
                }
                self.state = State::Cases(false);
                let value = self.value(3)?;
                let record = CaseRecord::from_json(&value).ok_or_else(|| {
                    let file = self.file.as_deref().unwrap_or("(no name)");
                    self.malformed(&format!("a case of {file} that is not a case object"))
                })?;
                Ok(Some(Item::Case(Box::new(record))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::identity::{CaseId, CaseKey};
    use crate::diff::record::{CaseState, Signature, VerdictKind};
    use crate::diff::report::{Format, ReportOptions, RunInfo, Sink};

    fn record(name: &str, index: usize, failing: bool) -> CaseRecord {
        let id = CaseId {
            file: "a.json".into(),
            key: CaseKey::Name(name.into()),
        };
        let mut record = CaseRecord {
            file: "a.json".into(),
            index,
            line: Some(index + 1),
            label: format!("#{index} x {name:?}"),
            op: Some("x".into()),
            name: Some(name.into()),
            id,
            ..CaseRecord::passing_default()
        };
        if failing {
            record.verdict = VerdictKind::Different;
            record.state = CaseState::Failed;
            record.fingerprint = Some("0123456789abcdef".into());
            record.signature = Some(Signature::new(Some("x"), "different", "different at /v"));
            record.summary = "different at /v".into();
            record.golden = Some("{\"v\":1}".into());
            record.actual = Some("{\"v\":2}".into());
        }
        record
    }

    fn report(run: RunInfo) -> (Vec<u8>, Vec<CaseRecord>) {
        let options = ReportOptions {
            format: Format::Json,
            ..ReportOptions::default()
        };
        let mut out = Vec::new();
        let mut sink = Sink::new(&mut out, options, run);
        let records = vec![record("one", 0, false), record("two \u{2028}\"", 1, true)];
        sink.begin_file(FileInfo {
            name: Some("a.json".into()),
            path: Some("cases/a.json".into()),
        })
        .unwrap();
        for record in &records {
            sink.case(record.clone()).unwrap();
        }
        sink.end_file().unwrap();
        sink.begin_file(FileInfo {
            name: Some("b.json".into()),
            path: Some("cases/b.json".into()),
        })
        .unwrap();
        sink.problem(Problem::Error {
            message: "the oracle exited with status 3".into(),
            stderr: Some("boom".into()),
            skipped: 4,
        })
        .unwrap();
        sink.end_file().unwrap();
        sink.finish().unwrap();
        (out, records)
    }

    fn read_all(bytes: &[u8]) -> Result<(ReportHead, Vec<Item>), InputError> {
        let (mut reader, head) = ReportReader::new(bytes, "r.json")?;
        let mut items = Vec::new();
        while let Some(item) = reader.next_item()? {
            items.push(item);
        }
        Ok((head, items))
    }

    #[test]
    fn a_report_reads_back_piece_by_piece() {
        let run = RunInfo {
            command: "run",
            shard: Some(ShardInfo {
                index: 1,
                count: 2,
                from: 0,
                to: 2,
            }),
            corpus: Some(CorpusInfo {
                fingerprint: "ffff".into(),
                cases: 4,
                case_files: vec!["a.json".into(), "b.json".into()],
                ..CorpusInfo::default()
            }),
            ledger: None,
        };
        let (bytes, records) = report(run.clone());
        let (head, items) = read_all(&bytes).unwrap();
        assert_eq!(head.command, "run");
        assert_eq!(head.shard, run.shard);
        assert_eq!(head.corpus, run.corpus);
        assert_eq!(head.ledger, None);
        let expected = vec![
            Item::File(FileHead {
                info: FileInfo {
                    name: Some("a.json".into()),
                    path: Some("cases/a.json".into()),
                },
                tally: Tally {
                    passed: 1,
                    accepted: 0,
                    failed: 1,
                },
                problem: None,
            }),
            Item::Case(Box::new(records[0].clone())),
            Item::Case(Box::new(records[1].clone())),
            Item::EndFile,
            Item::File(FileHead {
                info: FileInfo {
                    name: Some("b.json".into()),
                    path: Some("cases/b.json".into()),
                },
                tally: Tally::default(),
                problem: Some(Problem::Error {
                    message: "the oracle exited with status 3".into(),
                    stderr: Some("boom".into()),
                    skipped: 4,
                }),
            }),
            Item::EndFile,
        ];
        assert_eq!(items, expected);
    }

    #[test]
    fn what_is_not_a_version_1_report_is_refused_with_a_reason() {
        let (bytes, _) = report(RunInfo {
            command: "run",
            ..RunInfo::default()
        });
        let text = String::from_utf8(bytes).unwrap();
        let error = |text: &str| read_all(text.as_bytes()).unwrap_err().message;
        assert_eq!(
            error(&text.replacen("\"version\":1", "\"version\":2", 1)),
            "r.json is a report of format version 2; this parity-diff reads version 1"
        );
        assert!(
            error("[1,2]").starts_with("r.json is not a parity-diff JSON report: unexpected '['")
        );
        assert!(error("").contains("unexpected end of input"));
        assert!(error("{\"version\":1}").starts_with("r.json: no files"));
        assert!(error("{\"files\":[]}").starts_with("r.json: no format version before the files"));
        assert!(
            error("{\"version\":1,\"command\":\"run\",\"shard\":{\"index\":3},\"files\":[]}")
                .starts_with("r.json: a malformed `shard`")
        );
        let truncated = &text[..text.len() / 2];
        assert!(
            error(truncated).contains("unexpected end of input"),
            "{}",
            error(truncated)
        );
        let bad_case = text.replacen("\"verdict\":\"identical\"", "\"verdict\":\"odd\"", 1);
        assert!(error(&bad_case).contains("a case of a.json that is not a case object"));
        let trailing = format!("{text} x");
        assert!(error(&trailing).contains("unexpected 'x'"));
        // Members a later version adds are read past.
        let more = text.replacen("\"files\":[{", "\"extra\":[1,{}],\"files\":[{\"new\":1,", 1);
        assert_eq!(read_all(more.as_bytes()).unwrap().1.len(), 6);
    }
}
