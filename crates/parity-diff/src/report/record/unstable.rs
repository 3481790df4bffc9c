//! The record of a case whose result differed between runs of its file
//! (`--repeat N`, verdict `nondeterministic`).

use super::build::{oracle_failure_of, Judged, INPUT_CHARS};
use super::explain::SUMMARY_VALUE_CHARS;
use super::{CaseRecord, VerdictKind};
use crate::base::redact::Secrets;
use crate::judge::signature::cut_chars;

/// What `--repeat` found of a case: the first run's element, and the
/// first other run that printed something else (its number, and its
/// element or why it gave none).
#[derive(Debug, Clone, Copy)]
pub struct Unstable<'a> {
    /// The first run's element.
    pub first: &'a [u8],
    /// The other run, from 2.
    pub run: usize,
    /// Its element, or why it gave none.
    pub answer: Result<&'a [u8], &'a str>,
}

/// A case whose result differed between runs (`--repeat N`), judged as
/// an oracle failure is: its signature is its op's and the verdict's,
/// and its fingerprint the golden's and the verdict's, so that an entry
/// accepts it whatever the runs print. Its summary and detail show the
/// first run's result, the golden's and the other run's, masked.
pub fn nondeterministic_of(
    file: &str,
    index: usize,
    case: Option<(&crate::corpus::cases::CaseItem, &[u8])>,
    unstable: Unstable<'_>,
    judged: Judged<'_>,
) -> CaseRecord {
    let kind = VerdictKind::Nondeterministic;
    let golden = judged.golden;
    let message = "the result differs between runs";
    let mut record = oracle_failure_of(file, index, case, kind, message, judged);
    let secrets = Secrets::of_case_file(case.map_or(&[][..], |(_, raw)| raw));
    let shown = |bytes: &[u8], chars: usize| {
        let text = cut_chars(&String::from_utf8_lossy(bytes), chars * 4);
        cut_chars(&secrets.mask_json_text(&text), chars)
    };
    let other = match unstable.answer {
        Ok(bytes) => format!("printed {}", shown(bytes, SUMMARY_VALUE_CHARS)),
        Err(why) => secrets.mask_quoted_text(why),
    };
    record.summary = format!(
        "{message}: run 1 printed {}, run {} {other}",
        shown(unstable.first, SUMMARY_VALUE_CHARS),
        unstable.run
    );
    record.actual = Some(shown(unstable.first, INPUT_CHARS));
    record.golden = golden.map(|golden| shown(golden, INPUT_CHARS));
    record.note = Some(match unstable.answer {
        Ok(bytes) => format!("run {}: {}", unstable.run, shown(bytes, INPUT_CHARS)),
        Err(why) => format!("run {}: {}", unstable.run, secrets.mask_quoted_text(why)),
    });
    record
}
