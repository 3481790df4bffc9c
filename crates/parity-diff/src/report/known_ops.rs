//! The ops a suite knows (its `ops` key in `parity.toml`), which decide
//! the cases on the [`UNKNOWN_OP`](super::UNKNOWN_OP) row in place of their goldens.

use std::collections::BTreeSet;

/// The ops a suite knows, when its `ops` key names them: a case of any
/// other op counts on the [`UNKNOWN_OP`](super::UNKNOWN_OP) row, whatever its golden says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownOps(BTreeSet<String>);

impl KnownOps {
    /// The ops `names` names.
    pub fn new(names: &[String]) -> Self {
        KnownOps(names.iter().cloned().collect())
    }

    /// Whether a case of `op` stands on the [`UNKNOWN_OP`](super::UNKNOWN_OP) row, its golden
    /// having thrown `unknown op …` or not (`golden_unknown`): a string op
    /// by this list; a case without one (which no list can name) by its
    /// golden, as without a list.
    pub fn unknown(&self, op: Option<&str>, golden_unknown: bool) -> bool {
        match op {
            Some(op) => !self.0.contains(op),
            None => golden_unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_ops_decide_string_ops_and_the_golden_the_rest() {
        let known = KnownOps::new(&["a".to_owned(), "b".to_owned()]);
        assert!(!known.unknown(Some("a"), true));
        assert!(known.unknown(Some("zzz"), false));
        assert!(known.unknown(None, true));
        assert!(!known.unknown(None, false));
    }
}
