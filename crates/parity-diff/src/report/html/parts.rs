//! What every section of the HTML page uses: the counted writer, the row
//! cap, words for `data-` attributes, plurals, op names and state classes.

use std::collections::BTreeSet;
use std::io::{self, Write};

use crate::judge::signature::op_display;
use crate::report::is_row_marker;
use crate::report::record::CaseState;

/// How many orphaned ledger entries (and ops that only threw) are listed.
pub(super) const MAX_ROWS: usize = 500;

/// Writes bytes out, counting them.
pub(super) struct Page<'a> {
    pub(super) out: &'a mut dyn Write,
    pub(super) written: usize,
}

impl Page<'_> {
    pub(super) fn put(&mut self, text: &str) -> io::Result<()> {
        self.written += text.len();
        self.out.write_all(text.as_bytes())
    }
}

/// Space-separated, for a `data-` attribute.
pub(super) fn words(set: &BTreeSet<&'static str>) -> String {
    set.iter().copied().collect::<Vec<_>>().join(" ")
}

/// `1 entry`, `2 entries`.
pub(super) fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

pub(super) fn op_shown(op: &str) -> String {
    if is_row_marker(op) {
        op.to_owned()
    } else {
        op_display(Some(op))
    }
}

/// The state's class name, for colour.
pub(super) fn state_class(state: &str) -> &'static str {
    match CaseState::from_name(state) {
        Some(CaseState::Passed) => "s-passed",
        Some(CaseState::Accepted) => "s-accepted",
        Some(CaseState::Stale) => "s-stale",
        Some(CaseState::Error) => "s-error",
        _ => "s-failed",
    }
}
