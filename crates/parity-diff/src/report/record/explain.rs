//! Explaining a compared case: what it reads, each at most once and only
//! when something needs it, and the head of its record that it makes
//! (the summary, the signature and what the port threw).

use std::cell::OnceCell;

use super::{CaseRecord, CaseState, EntryState};
use crate::base::redact::Secrets;
use crate::judge::compare::{Comparison, Divergence, Verdict};
use crate::judge::explain::Explanation;
use crate::judge::numbers::spelled_element;
use crate::judge::pointer;
use crate::judge::signature::{
    cause_of, cut_chars, pointer_shape, shape, ErrorProtocol, Signature, MESSAGE_CHARS,
};
use js_exact::{self as js, JsString, TextMode, Value};

/// How many characters of a value a one-line summary shows.
pub(super) const SUMMARY_VALUE_CHARS: usize = 100;

/// How many characters of a thrown message a summary quotes.
const THROWN_CHARS: usize = 200;

/// Compact JSON of a value, cut.
pub(super) fn compact(value: &Value, chars: usize) -> String {
    cut_chars(&String::from_utf8_lossy(&js::to_json(value)), chars)
}

fn parsed(bytes: Option<&[u8]>) -> Option<Value> {
    bytes.and_then(|bytes| js::parse(bytes, TextMode::LossyUtf8).ok())
}

/// What explaining a case reads, each read at most once and only when
/// something needs it: the case's value, the elements a missing or extra
/// case left unread, and the secrets to mask with.
pub(super) struct Explainer<'c> {
    /// The case's raw bytes, when the cases are known.
    pub(super) raw_case: Option<&'c [u8]>,
    /// The golden's element.
    pub(super) golden_element: Option<&'c [u8]>,
    /// The result's element.
    pub(super) actual_element: Option<&'c [u8]>,
    /// The verdict, and the values read to reach it.
    pub(super) comparison: &'c Comparison,
    errors: &'c ErrorProtocol,
    case: OnceCell<Option<Value>>,
    golden_read: Option<Value>,
    actual_read: Option<Value>,
    secrets: OnceCell<Secrets>,
}

impl<'c> Explainer<'c> {
    /// `raw_case`, `golden` and `actual` are the case's bytes and its two
    /// elements; `errors` says how a result says it threw.
    pub(super) fn new(
        raw_case: Option<&'c [u8]>,
        golden: Option<&'c [u8]>,
        actual: Option<&'c [u8]>,
        comparison: &'c Comparison,
        errors: &'c ErrorProtocol,
    ) -> Self {
        // Missing and extra elements were never read; read them for secrets.
        let (golden_read, actual_read) = match comparison.verdict {
            Verdict::Missing => (parsed(golden), None),
            Verdict::Extra => (None, parsed(actual)),
            _ => (None, None),
        };
        Explainer {
            raw_case,
            golden_element: golden,
            actual_element: actual,
            comparison,
            errors,
            case: OnceCell::new(),
            golden_read,
            actual_read,
            secrets: OnceCell::new(),
        }
    }

    pub(super) fn case(&self) -> Option<&Value> {
        self.case.get_or_init(|| parsed(self.raw_case)).as_ref()
    }

    fn golden(&self) -> Option<&Value> {
        self.comparison
            .golden
            .as_ref()
            .or(self.golden_read.as_ref())
    }

    fn actual(&self) -> Option<&Value> {
        self.comparison
            .actual
            .as_ref()
            .or(self.actual_read.as_ref())
    }

    /// A pointer as reports may show it: the secrets in its keys masked.
    pub(super) fn pointer(&self, pointer: &JsString) -> JsString {
        if crate::base::redact::has_keys(pointer) {
            self.secrets().mask_pointer(pointer)
        } else {
            pointer.clone()
        }
    }

    pub(super) fn secrets(&self) -> &Secrets {
        self.secrets.get_or_init(|| {
            let (golden, actual) = (self.golden(), self.actual());
            // The case's own secrets, kept apart: no divergence shows them.
            // A case that does not parse is still scanned for them.
            let own = match (self.case(), self.raw_case) {
                (Some(case), _) => Secrets::harvest([case]),
                (None, Some(raw)) => Secrets::of_case_file(raw),
                (None, None) => Secrets::default(),
            };
            let secrets = own.and_harvest(golden.into_iter().chain(actual));
            match &self.comparison.verdict {
                Verdict::Different(divergence) => {
                    let shown = divergence
                        .paths
                        .iter()
                        .flat_map(|path| path.golden.iter().chain(path.actual.iter()));
                    secrets.for_divergence(&own, golden, actual, shown)
                }
                _ => secrets,
            }
        })
    }

    /// A text quoted in a summary, its secrets masked. Secrets are looked
    /// for only when a summary quotes data.
    fn quote(&self, text: &str, chars: usize) -> String {
        crate::base::outside::json_string(&cut_chars(&self.secrets().mask_quoted_text(text), chars))
    }

    /// A signature's message: secrets first, then its cause, what
    /// varies by case masked.
    fn quote_masked(&self, text: &str, chars: usize) -> String {
        let secret_free = self.secrets().mask_quoted_text(text);
        crate::base::outside::json_string(&cut_chars(&cause_of(&secret_free), chars))
    }

    /// The value with its numbers as written (`element` is its bytes).
    fn shown_value(&self, value: Option<&Value>, element: Option<&[u8]>) -> String {
        value.map_or("nothing".to_owned(), |value| {
            let text = element
                .and_then(|element| spelled_element(value, element))
                .map_or_else(
                    || compact(value, SUMMARY_VALUE_CHARS),
                    |text| cut_chars(&text, SUMMARY_VALUE_CHARS),
                );
            self.secrets().mask_json_text(&text)
        })
    }
}

/// What the golden and the port threw, as text.
struct Thrown {
    golden: Option<String>,
    actual: Option<String>,
}

impl Thrown {
    fn of(explainer: &Explainer) -> Self {
        let message = |element| {
            explainer
                .errors
                .thrown(element)
                .map(|m| m.to_utf8_lossy().into_owned())
        };
        Thrown {
            golden: message(explainer.golden()),
            actual: message(explainer.actual()),
        }
    }
}

/// Gives a record its summary and, unless it passes, its signature and
/// what the port threw; a stale case's say what its ledger entry expects.
pub(super) fn explain_head(
    mut record: CaseRecord,
    explainer: &Explainer,
    semantic: bool,
) -> CaseRecord {
    let op = record.op.clone();
    let op = op.as_deref();
    let thrown = Thrown::of(explainer);
    let (signature, summary) = signature_and_summary(op, explainer, &thrown, semantic);
    record.summary = summary;
    if record.state == CaseState::Stale {
        record.summary = stale_summary(&record);
        record.signature = Some(Signature::new(
            op,
            "stale",
            "passes now, but its ledger entry expects a divergence",
        ));
    } else if !record.passes() {
        record.signature = Some(signature);
        record.thrown = thrown
            .actual
            .as_deref()
            .map(|message| cut_chars(&explainer.secrets().mask_quoted_text(message), THROWN_CHARS));
    }
    record
}

/// The summary of a case that passes now against a ledger entry that
/// expects a divergence.
fn stale_summary(record: &CaseRecord) -> String {
    let entry = record.entry.as_ref();
    let said = entry.map_or(String::new(), |entry| {
        let state = match entry.state {
            EntryState::Accepted => "accepted",
            EntryState::Triaged { .. } => "triaged",
        };
        format!(" ({state}: {})", entry.reason)
    });
    format!(
        "passes now, but its ledger entry{said} expects a divergence: \
         run `parity-diff accept --prune`"
    )
}

/// The signature and summary the verdict alone gives.
fn signature_and_summary(
    op: Option<&str>,
    explainer: &Explainer,
    thrown: &Thrown,
    semantic: bool,
) -> (Signature, String) {
    match &explainer.comparison.verdict {
        Verdict::Identical => (
            Signature::new(
                op,
                "stale",
                "passes now, but its ledger entry expects a divergence",
            ),
            String::new(),
        ),
        Verdict::SameValue(explanation) => same_value(op, explanation, explainer, semantic),
        Verdict::Different(divergence) => different(op, divergence, explainer, thrown),
        Verdict::Missing => (
            Signature::new(op, "missing", "missing: the results end before the case"),
            "missing: the results end before this case".to_owned(),
        ),
        Verdict::Extra => (
            Signature::new(op, "extra", "extra: the golden ends before the case"),
            "extra: the golden ends before this case".to_owned(),
        ),
    }
}

/// The signature and summary of the same value in different bytes.
fn same_value(
    op: Option<&str>,
    explanation: &Explanation,
    explainer: &Explainer,
    semantic: bool,
) -> (Signature, String) {
    let first = explanation.reasons.first();
    let description = match first {
        Some(reason) => format!(
            "same value, different bytes: {} at {}",
            reason.kind.name(),
            pointer_shape(&explainer.pointer(&reason.pointer))
        ),
        None => "same value, different bytes".to_owned(),
    };
    let summary = if semantic {
        "same value, different bytes (passes with --semantic)"
    } else {
        "same value, different bytes"
    };
    (
        Signature::new(op, "same-value", &description),
        summary.to_owned(),
    )
}

/// The signature and summary of a divergence: one side threw and the
/// other did not, or both differ in value or in what they threw.
fn different(
    op: Option<&str>,
    divergence: &Divergence,
    explainer: &Explainer,
    thrown: &Thrown,
) -> (Signature, String) {
    match (&thrown.golden, &thrown.actual) {
        (None, Some(message)) => (
            Signature::new(
                op,
                "threw",
                &format!(
                    "the port threw {} where the golden has a value",
                    explainer.quote_masked(message, MESSAGE_CHARS)
                ),
            ),
            format!(
                "the port threw {} where the golden has {}",
                explainer.quote(message, THROWN_CHARS),
                explainer.shown_value(explainer.golden(), explainer.golden_element)
            ),
        ),
        (Some(message), None) => (
            Signature::new(
                op,
                "returned",
                "the port returned a value where the golden threw",
            ),
            format!(
                "the port returned {} where the golden threw {}",
                explainer.shown_value(explainer.actual(), explainer.actual_element),
                explainer.quote(message, THROWN_CHARS)
            ),
        ),
        (golden_threw, actual_threw) => {
            let summary = match (golden_threw, actual_threw) {
                (Some(golden), Some(actual)) => format!(
                    "the port threw {} where the golden threw {}",
                    explainer.quote(actual, THROWN_CHARS),
                    explainer.quote(golden, THROWN_CHARS)
                ),
                _ => different_summary(divergence, explainer),
            };
            let description = match divergence.paths.first() {
                Some(first) => format!(
                    "different at {} (golden {}, port {})",
                    pointer_shape(&explainer.pointer(&first.pointer)),
                    shape(first.golden.as_ref()),
                    shape(first.actual.as_ref())
                ),
                None => "different (compared as bytes only)".to_owned(),
            };
            (Signature::new(op, "different", &description), summary)
        }
    }
}

fn different_summary(divergence: &Divergence, explainer: &Explainer) -> String {
    match divergence.paths.first() {
        Some(first) if divergence.total == 1 => {
            format!(
                "different at {}",
                pointer::display(&explainer.pointer(&first.pointer))
            )
        }
        Some(first) => format!(
            "different at {} and {} more {}",
            pointer::display(&explainer.pointer(&first.pointer)),
            divergence.total - 1,
            if divergence.total == 2 {
                "path"
            } else {
                "paths"
            }
        ),
        None => "different".to_owned(),
    }
}
