//! The framing of an oracle's stdout: the bytes around its elements.
//! Framing is a property of a contract, not of parity-diff: by default
//! (`json`) any JSON array passes, however it is laid out. A contract
//! that prints what `JSON.stringify` prints (`[`, a `,` between elements,
//! `]`, and nothing before or after: no white space, no trailing newline)
//! opts into `framing = "exact"`, where a different framing is one
//! divergence of the file, which a `match: framing` rule can accept.
//!
//! The check needs only where the elements stand and how long the output
//! is: an output already read as a JSON array holds only white space
//! besides its brackets and commas, so a gap is exact exactly when it is
//! one byte long (two for the empty array). The bytes of the gaps that
//! are not are read afterwards, to say what they were, from memory or
//! from a spooled file alike.

use std::ops::Range;

/// How strictly the bytes around an oracle's elements are checked
/// (`--framing`, a suite's `framing`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Framing {
    /// Exactly what `JSON.stringify` prints around the elements.
    Exact,
    /// Any JSON array: the default, since parity-diff knows no contract.
    #[default]
    Json,
}

/// How many odd gaps a description names; the rest are counted.
const NAMED: usize = 3;

/// How many characters of one gap a description quotes.
const QUOTED: usize = 40;

/// Where a gap stands, and what `JSON.stringify` prints there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The whole output of an empty array: `[]`.
    Empty,
    /// Before the first element: `[`.
    Before,
    /// Between elements `#n` and `#n+1`: `,`.
    After(usize),
    /// After the last element: `]`.
    End,
}

impl Place {
    /// What belongs there.
    pub fn expected(self) -> &'static str {
        match self {
            Place::Empty => "[]",
            Place::Before => "[",
            Place::After(_) => ",",
            Place::End => "]",
        }
    }

    fn describe(self) -> String {
        match self {
            Place::Empty => "as the empty array".into(),
            Place::Before => "before the first result".into(),
            Place::After(index) => format!("between results #{index} and #{}", index + 1),
            Place::End => "after the last result".into(),
        }
    }
}

/// The gaps of an output that are not framed as `JSON.stringify` frames
/// them: the first few (`NAMED`), and how many there are in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OddGaps {
    /// The first odd gaps: where, and their bytes' range in the output.
    pub named: Vec<(Place, Range<u64>)>,
    /// How many gaps are odd in all.
    pub total: usize,
}

impl OddGaps {
    fn note(&mut self, place: Place, range: Range<u64>) {
        let exact = range.end - range.start == place.expected().len() as u64;
        if exact {
            return;
        }
        self.total += 1;
        if self.named.len() < NAMED {
            self.named.push((place, range));
        }
    }

    /// Whether the output is framed exactly.
    pub fn is_exact(&self) -> bool {
        self.total == 0
    }
}

/// Finds the odd gaps of an output, element by element, as a reader
/// meets them: [`FramingCheck::element`] for each element's span, then
/// [`FramingCheck::finish`] with the output's length.
#[derive(Debug, Default)]
pub struct FramingCheck {
    gaps: OddGaps,
    /// Where the last element ended, and its index.
    last: Option<(u64, usize)>,
}

impl FramingCheck {
    /// Notes the next element, at `span` of the output.
    pub fn element(&mut self, span: Range<u64>) {
        match self.last {
            None => self.gaps.note(Place::Before, 0..span.start),
            Some((end, index)) => self.gaps.note(Place::After(index), end..span.start),
        }
        let index = self.last.map_or(0, |(_, index)| index + 1);
        self.last = Some((span.end, index));
    }

    /// The odd gaps of an output of `len` bytes.
    pub fn finish(mut self, len: u64) -> OddGaps {
        match self.last {
            None => self.gaps.note(Place::Empty, 0..len),
            Some((end, _)) => self.gaps.note(Place::End, end..len),
        }
        self.gaps
    }
}

/// The odd gaps of an output of `len` bytes whose elements stand at
/// `spans`.
pub fn odd_gaps(spans: &[Range<usize>], len: usize) -> OddGaps {
    let mut check = FramingCheck::default();
    for span in spans {
        check.element(span.start as u64..span.end as u64);
    }
    check.finish(len as u64)
}

/// What the odd gaps were, for people (`None`: the output is exact):
/// each named gap's bytes (`bytes_of` reads them), escaped as a JSON
/// string is, beside what belongs there.
pub fn describe(gaps: &OddGaps, mut bytes_of: impl FnMut(Range<u64>) -> Vec<u8>) -> Option<String> {
    if gaps.is_exact() {
        return None;
    }
    let mut parts: Vec<String> = gaps
        .named
        .iter()
        .map(|(place, range)| {
            let found = quoted(&bytes_of(range.clone()));
            let expected = place.expected();
            format!("{} {found} where \"{expected}\" belongs", place.describe())
        })
        .collect();
    let more = gaps.total - gaps.named.len();
    if more > 0 {
        parts.push(format!(
            "and {more} more place{}",
            if more == 1 { "" } else { "s" }
        ));
    }
    Some(format!(
        "stdout is not framed as JSON.stringify frames an array: {}",
        parts.join("; ")
    ))
}

/// Bytes as a JSON string literal, cut at `QUOTED` characters.
pub fn quoted(bytes: &[u8]) -> String {
    quoted_at_most(bytes, QUOTED)
}

/// Bytes as a JSON string literal, cut at `chars` characters (with `…`
/// after the closing quote when cut).
pub fn quoted_at_most(bytes: &[u8], chars: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let kept: String = text.chars().take(chars).collect();
    let cut = kept.len() < text.len();
    let literal = serde_json::to_string(&kept).unwrap_or_default();
    if cut {
        format!("{literal}…")
    } else {
        literal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::scan::{spans, Mode};

    fn framing(output: &str) -> Option<String> {
        let spans = spans(output.as_bytes(), Mode::Strict { validate: true }).unwrap();
        let gaps = odd_gaps(&spans, output.len());
        describe(&gaps, |range| {
            output.as_bytes()[range.start as usize..range.end as usize].to_vec()
        })
    }

    #[test]
    fn what_json_stringify_prints_is_exact() {
        for exact in ["[]", "[1]", "[1,{\"a\":[2, 3]},\"x\"]", "[[],[]]"] {
            assert_eq!(framing(exact), None, "{exact}");
        }
    }

    #[test]
    fn a_trailing_newline_is_named_with_its_place() {
        assert_eq!(
            framing("[1,2]\n").as_deref(),
            Some(
                "stdout is not framed as JSON.stringify frames an array: \
                 after the last result \"]\\n\" where \"]\" belongs"
            )
        );
        assert_eq!(
            framing("[]\r\n").as_deref(),
            Some(
                "stdout is not framed as JSON.stringify frames an array: \
                 as the empty array \"[]\\r\\n\" where \"[]\" belongs"
            )
        );
    }

    #[test]
    fn every_gap_is_checked_and_the_first_three_are_named() {
        assert_eq!(
            framing(" [1, 2,3 ,4 ]").as_deref(),
            Some(
                "stdout is not framed as JSON.stringify frames an array: \
                 before the first result \" [\" where \"[\" belongs; \
                 between results #0 and #1 \", \" where \",\" belongs; \
                 between results #2 and #3 \" ,\" where \",\" belongs; \
                 and 1 more place"
            )
        );
        let pretty = format!("[\n{}\n]", ["  1"; 10].join(",\n"));
        let described = framing(&pretty).unwrap();
        assert!(described.ends_with("; and 8 more places"), "{described}");
    }

    #[test]
    fn a_long_gap_is_quoted_in_part() {
        let output = format!("[1]{}", " ".repeat(100));
        let described = framing(&output).unwrap();
        assert!(
            described.ends_with(&format!("\"]{}\"… where \"]\" belongs", " ".repeat(39))),
            "{described}"
        );
        assert_eq!(quoted(b"\x1b[2J\xff"), "\"\\u001b[2J\u{fffd}\"");
    }

    #[test]
    fn the_incremental_check_agrees_with_the_spans() {
        let mut check = FramingCheck::default();
        check.element(1..2);
        check.element(3..4);
        assert!(check.finish(5).is_exact());
        let mut check = FramingCheck::default();
        check.element(1..2);
        let gaps = check.finish(4);
        assert_eq!(gaps.named, vec![(Place::End, 2..4)]);
        assert_eq!(gaps.total, 1);
    }
}
