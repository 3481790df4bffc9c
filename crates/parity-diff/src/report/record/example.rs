//! Test records: one explained record of a case, its golden element and
//! its actual result, as a run that explains everything makes it. The
//! one way the renderers' and the review's tests make a failing record.

use super::build::{record, Compared, Needs};
use super::CaseRecord;
use crate::corpus::identity::CaseId;
use crate::judge::compare::compare_elements;
use js_exact::{self as js, TextMode};

/// A case of `file` at `index` (on `line`), with its `op`, its golden
/// element and its actual result.
pub struct Example<'a> {
    pub file: &'a str,
    pub index: usize,
    pub line: Option<usize>,
    pub op: Option<String>,
    pub case: &'a str,
    pub golden: &'a str,
    pub actual: &'a str,
}

impl Example<'_> {
    /// The case's own `op`, when it has one that is a string.
    pub fn op_of(case: &str) -> Option<String> {
        let value = js::parse(case.as_bytes(), TextMode::LossyUtf8).ok();
        value.as_ref().and_then(crate::corpus::cases::op_of)
    }

    /// Its record, explained, fingerprinted, passing ones included.
    pub fn record(&self) -> CaseRecord {
        let value = js::parse(self.case.as_bytes(), TextMode::LossyUtf8).ok();
        let compared = Compared {
            index: self.index,
            line: self.line,
            id: CaseId::of(self.file, self.case.as_bytes(), value.as_ref()),
            op: self.op.clone(),
            raw_case: Some(self.case.as_bytes()),
            golden: Some(self.golden.as_bytes()),
            actual: Some(self.actual.as_bytes()),
            comparison: compare_elements(self.golden.as_bytes(), self.actual.as_bytes()),
            errors: &crate::judge::signature::DEFAULT_ERRORS,
        };
        let needs = Needs {
            semantic: false,
            explain: true,
            fingerprint: true,
            passing: true,
        };
        record(self.file, compared, needs, None, |_| true)
    }
}
