//! `parity-diff delta BASE.json HEAD.json`: what changed between two
//! runs, case by case, by identity (never by position): cases newly
//! failing, failing differently (another fingerprint or signature),
//! newly passing, added and removed, and each op's change in pass count.
//! A case passes when it is passed or accepted. A case whose file could
//! not be compared in one report (an oracle that failed on it) counts as
//! failing there.
//!
//! Neither report is held: BASE is read once into a compact index (per
//! case, a hash of its identity, its state, its fingerprint and the hash
//! of its signature, 32 bytes), then HEAD is read one case at a time
//! against it, then BASE again for what HEAD did not have. The changes
//! wait in spools ([`Spool`]) until they are printed ([`render`]).
//!
//! [`Spool`]: crate::report::spool::Spool

mod changes;
mod framing;
pub mod render;

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::base::error::InputError;
use crate::corpus::identity::{fnv1a, CaseId, CaseKey};
use crate::report::formats::{self, Command, Renderer};
use crate::report::json::{Item, ReportReader};
use crate::report::record::{CaseRecord, CaseState};
use crate::report::render::Render;
use crate::report::Format;

pub use changes::{Change, Changes, Delta, Kind, OpCounts};

/// The `delta` command's inputs.
#[derive(Debug, Clone)]
pub struct DeltaArgs {
    /// The report of the run before.
    pub base: PathBuf,
    /// The report of the run after.
    pub head: PathBuf,
    /// The format: text, or Markdown for a pull-request comment.
    pub format: Format,
    /// Text: print the closing line alone.
    pub quiet: bool,
}

/// A case of BASE, compactly: 32 bytes.
#[derive(Debug, Clone, Copy)]
struct Indexed {
    /// The hash of its identity.
    key: u64,
    fingerprint: u64,
    /// The hash of its signature's text.
    signature: u64,
    /// Its position in BASE.
    seq: u32,
    state: CaseState,
    flags: u8,
}

const HAS_FINGERPRINT: u8 = 1;
const HAS_SIGNATURE: u8 = 2;
const SEEN: u8 = 4;

/// The most signature text BASE's index keeps for messages; past it,
/// changes still count but say less of what BASE's failure was.
const SIGNATURE_TEXT_BUDGET: usize = 8 * 1024 * 1024;

/// A case's key: its identity, within its suite when both reports name
/// suites (a report of version 1, or of a run without `parity.toml`,
/// names none: its cases pair with either's by identity alone, so that a
/// delta across the upgrade pairs every case).
fn identity_key(suite: Option<&str>, id: &CaseId) -> u64 {
    let (kind, key): (&[u8], &str) = match &id.key {
        CaseKey::Name(name) => (b"name", name),
        CaseKey::Hash(hash) => (b"hash", hash),
    };
    match suite {
        Some(suite) => fnv1a(&[suite.as_bytes(), id.file.as_bytes(), kind, key.as_bytes()]),
        None => fnv1a(&[id.file.as_bytes(), kind, key.as_bytes()]),
    }
}

/// A case as a change names it: after its suite's name when cases are
/// keyed within suites.
fn shown_id(suite: Option<&str>, id: &CaseId) -> String {
    match suite {
        Some(suite) => format!("{suite}: {id}"),
        None => id.to_string(),
    }
}

fn fingerprint_bits(text: &str) -> u64 {
    u64::from_str_radix(text, 16).unwrap_or_else(|_| fnv1a(&[text.as_bytes()]))
}

/// What a failing record's failure is called.
fn failure_text(record: &CaseRecord) -> &str {
    record
        .signature
        .as_ref()
        .map_or(record.summary.as_str(), |signature| &signature.text)
}

/// What a report says of a case: `passed`, `accepted`, or the state and
/// the failure.
fn word(record: &CaseRecord) -> String {
    if record.passes() {
        record.state.name().to_owned()
    } else {
        format!("{}: {}", record.state.name(), failure_text(record))
    }
}

/// BASE, indexed.
struct Index {
    cases: Vec<Indexed>,
    signatures: HashMap<u64, Box<str>>,
    signature_bytes: usize,
    /// Files that could not be compared in BASE.
    troubled: HashMap<String, String>,
    /// Whether cases are keyed within their suites.
    suited: bool,
    /// Each file's framing in BASE.
    framings: framing::Framings,
}

/// Why a file's cases are not in a report, when a problem says so: a
/// framing divergence is beside its cases, which were compared.
fn problem_text(problem: &crate::report::Problem) -> Option<String> {
    use crate::report::Problem;
    Some(match problem {
        Problem::MissingGolden { .. } => "its golden is missing".to_owned(),
        Problem::OrphanGolden { .. } => "its case file is missing".to_owned(),
        Problem::Error { message, .. } => format!("its file could not be compared: {message}"),
        Problem::Framing { .. } => return None,
    })
}

fn op_key(record: &CaseRecord) -> Option<String> {
    record.op.clone()
}

fn read_base(path: &Path, delta: &mut Delta, suited: bool) -> Result<Index, InputError> {
    let (mut reader, head) = ReportReader::open(path)?;
    let hint = head.corpus.as_ref().map_or(0, |corpus| corpus.cases);
    let mut index = Index {
        cases: Vec::with_capacity(hint.min(1 << 24)),
        signatures: HashMap::new(),
        signature_bytes: 0,
        troubled: HashMap::new(),
        suited,
        framings: framing::Framings::new(),
    };
    let mut suite = None;
    while let Some(item) = reader.next_item()? {
        match item {
            Item::File(head) => {
                suite = head.info.suite.filter(|_| suited);
                let (name, problem) = (head.info.name.as_deref(), head.problem.as_ref());
                framing::note(&mut index.framings, suite.as_deref(), name, problem);
                if let Some((name, text)) = head
                    .info
                    .name
                    .as_ref()
                    .zip(head.problem.as_ref().and_then(problem_text))
                {
                    index.troubled.insert(name.clone(), text);
                }
            }
            Item::Case(record) => {
                let seq = u32::try_from(index.cases.len()).map_err(|_| {
                    InputError::new(format!("{} holds too many cases", path.display()))
                })?;
                let counts = delta.by_op.entry(op_key(&record)).or_default();
                counts.base_cases += 1;
                counts.base_passed += usize::from(record.state == CaseState::Passed);
                counts.base_accepted += usize::from(record.state == CaseState::Accepted);
                let mut flags = 0;
                let fingerprint = record.fingerprint.as_deref().map_or(0, |text| {
                    flags |= HAS_FINGERPRINT;
                    fingerprint_bits(text)
                });
                let mut signature = 0;
                if !record.passes() {
                    flags |= HAS_SIGNATURE;
                    let text = failure_text(&record);
                    signature = fnv1a(&[text.as_bytes()]);
                    if index.signature_bytes + text.len() <= SIGNATURE_TEXT_BUDGET
                        && !index.signatures.contains_key(&signature)
                    {
                        index.signature_bytes += text.len();
                        index.signatures.insert(signature, text.into());
                    }
                }
                index.cases.push(Indexed {
                    key: identity_key(suite.as_deref(), &record.id),
                    fingerprint,
                    signature,
                    seq,
                    state: record.state,
                    flags,
                });
            }
            // The tail is recomputed from the cases.
            _ => {}
        }
    }
    // Stable: cases that share an identity keep their order, and pair
    // with HEAD's in order.
    index.cases.sort_by_key(|case| case.key);
    Ok(index)
}

impl Index {
    /// BASE's first unpaired case with this identity, now paired.
    fn pair(&mut self, key: u64) -> Option<Indexed> {
        let start = self.cases.partition_point(|case| case.key < key);
        let case = self.cases[start..]
            .iter_mut()
            .take_while(|case| case.key == key)
            .find(|case| case.flags & SEEN == 0)?;
        case.flags |= SEEN;
        Some(*case)
    }

    fn base_word(&self, case: &Indexed) -> String {
        if case.state.passes() {
            return case.state.name().to_owned();
        }
        match self.signatures.get(&case.signature) {
            Some(text) => format!("{}: {text}", case.state.name()),
            None => format!("{} (its failure was not kept)", case.state.name()),
        }
    }
}

fn read_head(
    path: &Path,
    index: &mut Index,
    delta: &mut Delta,
) -> Result<(HashMap<String, String>, framing::Framings), InputError> {
    let (mut reader, _) = ReportReader::open(path)?;
    let mut troubled = HashMap::new();
    let mut framings = framing::Framings::new();
    let mut suite = None;
    while let Some(item) = reader.next_item()? {
        let record = match item {
            Item::File(head) => {
                suite = head.info.suite.clone().filter(|_| index.suited);
                let (name, problem) = (head.info.name.as_deref(), head.problem.as_ref());
                framing::note(&mut framings, suite.as_deref(), name, problem);
                if let Some((name, text)) = head
                    .info
                    .name
                    .as_ref()
                    .zip(head.problem.as_ref().and_then(problem_text))
                {
                    troubled.insert(name.clone(), text);
                }
                continue;
            }
            Item::Case(record) => record,
            _ => continue,
        };
        let counts = delta.by_op.entry(op_key(&record)).or_default();
        counts.head_cases += 1;
        counts.head_passed += usize::from(record.state == CaseState::Passed);
        counts.head_accepted += usize::from(record.state == CaseState::Accepted);
        let id = shown_id(suite.as_deref(), &record.id);
        let after = word(&record);
        let change = |before: String| Change {
            id: id.clone(),
            before,
            after: after.clone(),
        };
        let kind_and_change = match index.pair(identity_key(suite.as_deref(), &record.id)) {
            Some(base) => {
                let before = index.base_word(&base);
                match (base.state.passes(), record.passes()) {
                    (true, false) => Some((Kind::NewlyFailing, change(before))),
                    (false, true) => Some((Kind::NewlyPassing, change(before))),
                    (true, true) => None,
                    (false, false) => {
                        let fingerprint = record.fingerprint.as_deref().map(fingerprint_bits);
                        let was = (base.flags & HAS_FINGERPRINT != 0).then_some(base.fingerprint);
                        let signature = fnv1a(&[failure_text(&record).as_bytes()]);
                        if signature != base.signature {
                            Some((Kind::FailingDifferently, change(before)))
                        } else if fingerprint != was {
                            // One kind of failure, other bytes: say so,
                            // rather than print one signature twice.
                            let hex = |print: Option<u64>| {
                                print.map_or("none".to_owned(), |print| format!("{print:016x}"))
                            };
                            let after = format!(
                                "{}: the same failure with other bytes (fingerprint {} → {})",
                                record.state.name(),
                                hex(was),
                                hex(fingerprint)
                            );
                            Some((
                                Kind::FailingDifferently,
                                Change {
                                    id: id.clone(),
                                    before,
                                    after,
                                },
                            ))
                        } else {
                            None
                        }
                    }
                }
            }
            None => match index.troubled.get(&record.file) {
                Some(problem) if record.passes() => {
                    Some((Kind::NewlyPassing, change(problem.clone())))
                }
                Some(problem) => Some((Kind::FailingDifferently, change(problem.clone()))),
                None => {
                    delta.added_failing += usize::from(!record.passes());
                    Some((Kind::Added, change(String::new())))
                }
            },
        };
        if let Some((kind, change)) = kind_and_change {
            delta.of(kind).add(&change)?;
        }
    }
    Ok((troubled, framings))
}

/// BASE again, for its cases HEAD did not have.
fn read_removed(
    path: &Path,
    index: &Index,
    troubled: &HashMap<String, String>,
    delta: &mut Delta,
) -> Result<(), InputError> {
    let mut unpaired = vec![false; index.cases.len()];
    let mut any = false;
    for case in &index.cases {
        if case.flags & SEEN == 0 {
            unpaired[case.seq as usize] = true;
            any = true;
        }
    }
    if !any {
        return Ok(());
    }
    let (mut reader, _) = ReportReader::open(path)?;
    let mut seq = 0;
    let mut suite = None;
    while let Some(item) = reader.next_item()? {
        let record = match item {
            Item::File(head) => {
                suite = head.info.suite.filter(|_| index.suited);
                continue;
            }
            Item::Case(record) => record,
            _ => continue,
        };
        let Some(&wanted) = unpaired.get(seq) else {
            return Err(InputError::new(format!(
                "{} changed while it was read",
                path.display()
            )));
        };
        seq += 1;
        if !wanted {
            continue;
        }
        let before = word(&record);
        let (kind, after) = match troubled.get(&record.file) {
            Some(problem) if record.passes() => (Kind::NewlyFailing, problem.clone()),
            Some(problem) => (Kind::FailingDifferently, problem.clone()),
            None => (Kind::Removed, String::new()),
        };
        let change = Change {
            id: shown_id(suite.as_deref(), &record.id),
            before,
            after,
        };
        delta.of(kind).add(&change)?;
    }
    if seq != index.cases.len() {
        return Err(InputError::new(format!(
            "{} changed while it was read",
            path.display()
        )));
    }
    Ok(())
}

/// Compares two reports.
pub fn delta(base: &Path, head: &Path) -> Result<Delta, InputError> {
    let mut delta = Delta::default();
    let names_suites = |path: &Path| -> Result<bool, InputError> {
        Ok(!ReportReader::open(path)?.1.suites.is_empty())
    };
    let suited = names_suites(base)? && names_suites(head)?;
    let mut index = read_base(base, &mut delta, suited)?;
    let (troubled, framings) = read_head(head, &mut index, &mut delta)?;
    read_removed(base, &index, &troubled, &mut delta)?;
    for (kind, change) in framing::changes(&index.framings, &framings) {
        delta.of(kind).add(&change)?;
    }
    Ok(delta)
}

/// Runs `delta`: the report on `out`; the exit status is 1 when
/// anything newly fails.
pub fn delta_command(args: &DeltaArgs, mut out: impl Write) -> Result<u8, InputError> {
    let mut render: Box<dyn Render<render::Changes>> = match Command::Delta.check(args.format)? {
        Renderer::DeltaHuman => Box::new(render::Text { quiet: args.quiet }),
        Renderer::DeltaMarkdown => Box::new(render::Comment),
        other => return Err(formats::not_mine(Command::Delta, other)),
    };
    let mut delta = delta(&args.base, &args.head)?;
    render.finish(&mut out, &mut delta)?;
    out.flush()?;
    Ok(u8::from(delta.anything_newly_fails()))
}
