//! The per-op key every per-op table and filter counts a case under: its
//! op, or a row that stands for no one op.

use crate::report::record::CaseRecord;

/// The key of the cases without a string op in per-op counts.
pub const NO_OP: &str = "(no op)";

/// The key of the cases whose op the reference does not know (its golden
/// threw `unknown op …`) in per-op counts: one row, not one per name.
pub const UNKNOWN_OP: &str = "(unknown op)";

/// The per-op key a case counts under: its op, [`NO_OP`] without a
/// string op, or [`UNKNOWN_OP`] when the reference does not know its op.
/// Every per-op table and filter keys cases by this.
pub fn op_key(record: &CaseRecord) -> &str {
    key_of(record.op.as_deref(), record.unknown_op)
}

/// The per-op key of a case of `op` (see [`op_key`]).
pub fn key_of(op: Option<&str>, unknown_op: bool) -> &str {
    match (unknown_op, op) {
        (true, _) => UNKNOWN_OP,
        (false, Some(op)) => op,
        (false, None) => NO_OP,
    }
}

/// Whether a per-op key is one of the rows that stand for no one op
/// ([`NO_OP`], [`UNKNOWN_OP`]): reports print those as they are.
pub fn is_row_marker(key: &str) -> bool {
    key == NO_OP || key == UNKNOWN_OP
}
