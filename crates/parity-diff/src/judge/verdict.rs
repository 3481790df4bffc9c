//! What comparing one result with its golden found, named as reports
//! and ledgers name it.

/// What the comparison found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictKind {
    /// The bytes are equal.
    Identical,
    /// The values are equal, the bytes are not.
    SameValue,
    /// The values differ.
    Different,
    /// The golden has this case and the results do not.
    Missing,
    /// The results have this case and the golden does not.
    Extra,
    /// The oracle crashed on this case.
    Crash,
    /// The oracle printed something that is not a result array for it.
    InvalidOutput,
    /// The oracle did not finish this case in time.
    Timeout,
    /// The oracle's result for this case differed between runs of the
    /// same input (`--repeat N`).
    Nondeterministic,
}

impl VerdictKind {
    const ALL: [VerdictKind; 9] = [
        VerdictKind::Identical,
        VerdictKind::SameValue,
        VerdictKind::Different,
        VerdictKind::Missing,
        VerdictKind::Extra,
        VerdictKind::Crash,
        VerdictKind::InvalidOutput,
        VerdictKind::Timeout,
        VerdictKind::Nondeterministic,
    ];

    /// The name reports and ledgers use.
    pub fn name(self) -> &'static str {
        match self {
            VerdictKind::Identical => "identical",
            VerdictKind::SameValue => "same-value",
            VerdictKind::Different => "different",
            VerdictKind::Missing => "missing",
            VerdictKind::Extra => "extra",
            VerdictKind::Crash => "crash",
            VerdictKind::InvalidOutput => "invalid-output",
            VerdictKind::Timeout => "timeout",
            VerdictKind::Nondeterministic => "nondeterministic",
        }
    }

    /// The kind a name names.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether the oracle itself failed on the case.
    pub fn is_oracle_failure(self) -> bool {
        matches!(
            self,
            VerdictKind::Crash | VerdictKind::InvalidOutput | VerdictKind::Timeout
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for kind in VerdictKind::ALL {
            assert_eq!(VerdictKind::from_name(kind.name()), Some(kind));
        }
        assert!(VerdictKind::Timeout.is_oracle_failure());
    }
}
