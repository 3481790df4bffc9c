//! Records from comparisons: the state (with a ledger, against the case's
//! entry), the fingerprint, the signature and the summary for every
//! case; the masked and cut details only when a report wants them
//! (explaining a case costs more than comparing it).

use super::explain::{compact, explain_head, Explainer};
use super::weigh;
use super::{CaseRecord, CaseState, PathRecord, ReasonRecord, VerdictKind};
use crate::base::redact::Secrets;
use crate::corpus::identity::{fingerprint, CaseId, CaseKey};
use crate::judge::compare::{Comparison, Verdict};
use crate::judge::explain::ByteReason;
use crate::judge::numbers::spelled_element;
use crate::judge::signature::{cut_chars, ErrorProtocol, Signature};
use crate::ledger::rules::Form;
use crate::ledger::Ledger;

/// How many characters of a case's input a record keeps.
pub const INPUT_CHARS: usize = 300;

/// How many bytes of an element's text a record keeps.
pub const ELEMENT_BYTES: usize = 64 * 1024;

/// One case, compared: what a record is made from.
#[derive(Debug)]
pub struct Compared<'a> {
    /// The position in the case file.
    pub index: usize,
    /// The line where the case starts.
    pub line: Option<usize>,
    /// Its identity.
    pub id: CaseId,
    /// Its op.
    pub op: Option<String>,
    /// The case's raw bytes, when the cases are known.
    pub raw_case: Option<&'a [u8]>,
    /// The golden's element.
    pub golden: Option<&'a [u8]>,
    /// The result's element.
    pub actual: Option<&'a [u8]>,
    /// The verdict, and the values read to reach it.
    pub comparison: Comparison,
    /// How a result says it threw.
    pub errors: &'a ErrorProtocol,
}

/// `#index op "name"`: `#3 sum "sum: no values"`, a long name cut
/// ([`outside::name`](crate::base::outside::name)).
pub fn label(index: usize, op: Option<&str>, id: &CaseId) -> String {
    let mut out = format!("#{index}");
    if let Some(op) = op {
        out.push(' ');
        out.push_str(&crate::judge::signature::op_display(Some(op)));
    }
    if let CaseKey::Name(name) = &id.key {
        out.push(' ');
        out.push_str(&crate::base::outside::name(name));
    }
    out
}

fn verdict_kind(verdict: &Verdict) -> VerdictKind {
    match verdict {
        Verdict::Identical => VerdictKind::Identical,
        Verdict::SameValue(_) => VerdictKind::SameValue,
        Verdict::Different(_) => VerdictKind::Different,
        Verdict::Missing => VerdictKind::Missing,
        Verdict::Extra => VerdictKind::Extra,
    }
}

/// Text cut to about `bytes` bytes (at a character boundary), with a
/// marker saying how long it was.
fn cut_bytes(text: &str, bytes: usize) -> String {
    if text.len() <= bytes {
        return text.to_owned();
    }
    let mut end = bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len())
}

/// What the taker of records needs of them.
#[derive(Debug, Clone, Copy)]
pub struct Needs {
    /// Same value, different bytes passes.
    pub semantic: bool,
    /// Failing cases need their signature and summary (a report that only
    /// counts does not).
    pub explain: bool,
    /// Cases that are not identical need their fingerprint (a ledger
    /// decides by it, a JSON report prints it; hashing every byte of a
    /// million elements is not free).
    pub fingerprint: bool,
    /// Passing cases that are not identical (accepted, or the same value
    /// with `--semantic`) need their explanation: the report lists them.
    pub passing: bool,
}

/// Makes a case's record. `wants_detail` is asked, once the state and
/// signature are known, whether a failing case needs its masked input,
/// elements, paths and reasons.
pub fn record(
    file: &str,
    compared: Compared,
    needs: Needs,
    ledger: Option<&Ledger>,
    wants_detail: impl FnOnce(&CaseRecord) -> bool,
) -> CaseRecord {
    let semantic = needs.semantic;
    let verdict = verdict_kind(&compared.comparison.verdict);
    let passes_alone = compared.comparison.verdict.passes(semantic);
    let fingerprint = (verdict != VerdictKind::Identical
        && (needs.fingerprint || ledger.is_some()))
    .then(|| fingerprint(compared.golden, compared.actual));
    // What a rule looks at is worked out only for divergences a ledger
    // weighs.
    let weighed_alone = ledger.is_none() || passes_alone;
    let form = (!weighed_alone)
        .then(|| weigh::form_of(&compared.comparison, compared.errors))
        .flatten();
    let paths = ledger
        .filter(|ledger| !weighed_alone && !ledger.rules().is_empty())
        .and_then(|_| weigh::paths_of(&compared.comparison));
    let weighed = weigh::weigh(
        ledger,
        weigh::Case {
            id: &compared.id,
            op: compared.op.as_deref(),
            verdict,
            passes: passes_alone,
            fingerprint: fingerprint.as_deref(),
            form: form.as_ref(),
            paths: paths.as_deref(),
        },
    );
    let state = weighed.state;
    let name = match &compared.id.key {
        CaseKey::Name(name) => Some(name.clone()),
        CaseKey::Hash(_) => None,
    };
    let record = CaseRecord {
        file: file.to_owned(),
        index: compared.index,
        line: compared.line,
        label: label(compared.index, compared.op.as_deref(), &compared.id),
        id: compared.id.clone(),
        op: compared.op.clone(),
        name,
        verdict,
        state,
        entry: weighed.entry,
        fingerprint,
        summary: verdict.name().to_owned(),
        unknown_op: compared.golden.is_some_and(is_unknown_op),
        rule: weighed.rule,
        form,
        // The explanation's members are filled below, when wanted.
        ..CaseRecord::passing_default()
    };
    let unexplained = !needs.explain || (state.passes() && !needs.passing);
    if (verdict == VerdictKind::Identical && state == CaseState::Passed) || unexplained {
        return record;
    }
    let explainer = Explainer::new(
        compared.raw_case,
        compared.golden,
        compared.actual,
        &compared.comparison,
        compared.errors,
    );
    let mut record = explain_head(record, &explainer, semantic);
    if !record.passes() && wants_detail(&record) {
        fill_detail(&mut record, &explainer);
    } else if record.passes() {
        // Passing cases that are not identical keep their explanation
        // (cheap: at most ten paths or reasons), never their texts.
        fill_explanation(&mut record, &explainer);
    }
    record
}

/// The record of a case the oracle itself failed on (found by
/// bisection): `kind` is `Crash`, `InvalidOutput` or `Timeout`, `message`
/// says what happened (stderr already masked by the caller). It is a
/// divergence like any other: without a ledger it fails, with one its
/// entry or a rule may accept it.
pub fn oracle_failure(
    file: &str,
    case: &crate::corpus::cases::CaseFile,
    index: usize,
    kind: VerdictKind,
    message: &str,
) -> CaseRecord {
    let case = case.items.get(index).zip(case.raw(index));
    oracle_failure_of(file, index, case, kind, message, Judged::default())
}

/// What an oracle failure is weighed against: the golden's element (for
/// its fingerprint) and the ledger in use.
#[derive(Debug, Clone, Copy, Default)]
pub struct Judged<'a> {
    /// The golden's element, when it has one.
    pub golden: Option<&'a [u8]>,
    /// The ledger in use.
    pub ledger: Option<&'a Ledger>,
}

/// The fingerprint of a case the oracle failed on: the golden's element
/// and the kind of failure (not its message, which holds exit statuses
/// and timings), marked so that no element's bytes can share it.
pub fn failure_fingerprint(golden: Option<&[u8]>, kind: VerdictKind) -> String {
    let marked = format!("\u{0}oracle failure: {}", kind.name());
    fingerprint(golden, Some(marked.as_bytes()))
}

/// [`oracle_failure`] for a case known by its item and raw bytes (a
/// case file read as a stream), or by its position alone.
pub fn oracle_failure_of(
    file: &str,
    index: usize,
    case: Option<(&crate::corpus::cases::CaseItem, &[u8])>,
    kind: VerdictKind,
    message: &str,
    judged: Judged<'_>,
) -> CaseRecord {
    let (item, raw) = (case.map(|(item, _)| item), case.map(|(_, raw)| raw));
    let id = case.map_or_else(
        || crate::corpus::identity::position_id(file, index),
        |(item, raw)| item.id(file, raw).into_owned(),
    );
    let op = item.and_then(|item| item.op.clone());
    let secrets = Secrets::of_case_file(raw.unwrap_or_default());
    let input = raw.map(|raw| {
        let text = cut_chars(&String::from_utf8_lossy(raw), INPUT_CHARS * 4);
        cut_chars(&secrets.mask_json_text(&text), INPUT_CHARS)
    });
    let fingerprint = failure_fingerprint(judged.golden, kind);
    let form = judged.ledger.map(|_| Form::Failed(kind));
    let weighed = weigh::weigh(
        judged.ledger,
        weigh::Case {
            id: &id,
            op: op.as_deref(),
            verdict: kind,
            passes: false,
            fingerprint: Some(&fingerprint),
            form: form.as_ref(),
            paths: None,
        },
    );
    CaseRecord {
        file: file.to_owned(),
        index,
        line: item.map(|item| item.line),
        label: label(index, op.as_deref(), &id),
        name: match &id.key {
            CaseKey::Name(name) => Some(name.clone()),
            CaseKey::Hash(_) => None,
        },
        signature: Some(Signature::new(op.as_deref(), kind.name(), message)),
        summary: message.to_owned(),
        verdict: kind,
        state: weighed.state,
        entry: weighed.entry,
        rule: weighed.rule,
        form,
        fingerprint: Some(fingerprint),
        input,
        id,
        op,
        ..CaseRecord::passing_default()
    }
}

/// Whether a golden element is the batch driver's answer to an op it
/// does not know (contract §1: `{"threw":true,"message":"unknown op " +
/// str(op)}`, as `JSON.stringify` writes it).
pub fn is_unknown_op(golden: &[u8]) -> bool {
    golden.starts_with(br#"{"threw":true,"message":"unknown op "#)
}

fn fill_explanation(record: &mut CaseRecord, explainer: &Explainer) {
    let secrets = explainer.secrets();
    match &explainer.comparison.verdict {
        Verdict::Different(divergence) => {
            record.paths = divergence
                .paths
                .iter()
                .map(|path| PathRecord {
                    pointer: explainer.pointer(&path.pointer),
                    golden: path.golden.as_ref().map(|v| secrets.mask_value(v)),
                    actual: path.actual.as_ref().map(|v| secrets.mask_value(v)),
                    golden_text: path
                        .golden_text
                        .as_deref()
                        .map(|t| secrets.mask_json_text(t)),
                    actual_text: path
                        .actual_text
                        .as_deref()
                        .map(|t| secrets.mask_json_text(t)),
                })
                .collect();
            record.total_paths = divergence.total;
            record.note = divergence.note.clone();
        }
        Verdict::SameValue(explanation) => {
            record.reasons = explanation
                .reasons
                .iter()
                .map(|reason| {
                    // `describe` quotes the pointer outside any literal.
                    let reason = ByteReason {
                        pointer: explainer.pointer(&reason.pointer),
                        ..reason.clone()
                    };
                    ReasonRecord {
                        kind: reason.kind.name().to_owned(),
                        golden: secrets.mask_json_text(&reason.golden),
                        actual: secrets.mask_json_text(&reason.actual),
                        text: secrets.mask_json_text(&reason.describe()),
                        pointer: reason.pointer,
                    }
                })
                .collect();
            record.total_reasons = explanation.total;
        }
        _ => {}
    }
}

fn fill_detail(record: &mut CaseRecord, explainer: &Explainer) {
    fill_explanation(record, explainer);
    let secrets = explainer.secrets();
    let element = |bytes: Option<&[u8]>| {
        bytes.map(|bytes| {
            // Mask a little more than is kept, so that a cut cannot leave
            // half a secret showing.
            let text = String::from_utf8_lossy(bytes);
            let masked = secrets.mask_json_text(&cut_bytes(&text, ELEMENT_BYTES + 4096));
            if text.len() > ELEMENT_BYTES {
                cut_bytes(&masked, ELEMENT_BYTES)
            } else {
                masked
            }
        })
    };
    record.golden = element(explainer.golden_element);
    record.actual = element(explainer.actual_element);
    record.input = match (explainer.case(), explainer.raw_case) {
        (Some(case), raw) => {
            let text = raw.and_then(|raw| spelled_element(case, raw)).map_or_else(
                || compact(case, INPUT_CHARS * 4),
                |text| cut_chars(&text, INPUT_CHARS * 4),
            );
            Some(cut_chars(&secrets.mask_json_text(&text), INPUT_CHARS))
        }
        (None, Some(raw)) => {
            let text = cut_chars(&String::from_utf8_lossy(raw), INPUT_CHARS * 4);
            Some(cut_chars(&secrets.mask_json_text(&text), INPUT_CHARS))
        }
        (None, None) => None,
    };
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
