//! Which golden element and which result meet at each case of a file:
//! one routine ([`pair`]) for files held in memory and files read as
//! streams (`run`'s large files, `compare`'s inputs), so that the two
//! make the same records in the same order; and the one way the selected
//! cases are put together for the oracle ([`write_selected`]).
//!
//! Each side (the case file, [`Cases`]; the golden, [`Elements`]; the
//! results, [`Results`]) is asked for what stands at a position,
//! positions only ever growing, so that a stream is read once, front to
//! back, and a file in memory is indexed.

use std::io::{self, Read, Write};

use crate::base::error::InputError;
use crate::corpus::cases::{Case, CaseFile};
use crate::exec::oracle::{results, OracleFailure};
use crate::exec::stream::cases::CaseSource;
use crate::judge::scan::{ElementReader, ReadError};

/// A case file, read by position. Every call asks for a position after
/// the one before (a stream reads past what lies between).
pub trait Cases {
    /// Why it could not be read.
    type Error;
    /// The case at `index`, `None` past the end.
    fn case_at(&mut self, index: usize) -> Result<Option<Case<'_>>, Self::Error>;
}

/// A golden, read by position (as [`Cases`]).
pub trait Elements {
    /// Why it could not be read.
    type Error;
    /// The element at `index`, `None` past the end.
    fn element_at(&mut self, index: usize) -> Result<Option<&[u8]>, Self::Error>;
}

/// An oracle's results, read by position (as [`Cases`]).
pub trait Results {
    /// Why they could not be read.
    type Error;
    /// The result at `index`, `None` past the end.
    fn result_at(&mut self, index: usize) -> Result<Option<Outcome<'_>>, Self::Error>;
}

/// A result: the element the oracle printed, or why it is not one (an
/// element that is not JSON, a case the oracle failed on alone).
pub type Outcome<'a> = Result<&'a [u8], OracleFailure>;

/// How the results stand against the cases.
#[derive(Debug, Clone, Copy)]
pub enum Rule<'s> {
    /// At their cases' positions, as the golden's elements are: each
    /// position meets the golden's element and the result there, until
    /// both have ended (or, with `until_cases`, until the case file has).
    ByPosition {
        /// Stop where the case file ends (`compare --op`: only cases are
        /// selected).
        until_cases: bool,
    },
    /// The results of the selected cases, in order (`run --op`,
    /// `--shard`): each meets the golden's element at its case's
    /// position. Results past them are extra, numbered past the file's
    /// `cases`; they meet the golden's elements past the cases when
    /// `tail` (the selection ends the file and every op is wanted).
    Selected {
        /// The selected positions, increasing, each one of a case.
        positions: &'s [usize],
        /// Whether what stands past the cases is compared here.
        tail: bool,
        /// How many cases the file has.
        cases: usize,
    },
}

/// What meets at one position.
#[derive(Debug)]
pub struct Slot<'a> {
    /// The position in the case file (past its cases for an element
    /// without a case).
    pub index: usize,
    /// The case, when the file has one there.
    pub case: Option<Case<'a>>,
    /// The golden's element.
    pub golden: Option<&'a [u8]>,
    /// The result.
    pub actual: Option<Outcome<'a>>,
}

/// Hands `each` what meets at every position `rule` pairs, in order.
pub fn pair<C, G, A, E>(
    rule: Rule<'_>,
    (cases, golden, actual): (&mut C, &mut G, &mut A),
    mut each: impl FnMut(Slot<'_>) -> Result<(), E>,
) -> Result<(), E>
where
    C: Cases,
    G: Elements,
    A: Results,
    E: From<C::Error> + From<G::Error> + From<A::Error>,
{
    match rule {
        Rule::ByPosition { until_cases } => {
            for index in 0.. {
                let case = cases.case_at(index)?;
                let golden = golden.element_at(index)?;
                let actual = actual.result_at(index)?;
                let over = match until_cases {
                    true => case.is_none(),
                    false => golden.is_none() && actual.is_none(),
                };
                if over {
                    break;
                }
                each(Slot {
                    index,
                    case,
                    golden,
                    actual,
                })?;
            }
        }
        Rule::Selected {
            positions,
            tail,
            cases: past,
        } => {
            for (k, &index) in positions.iter().enumerate() {
                let case = cases.case_at(index)?;
                let golden = golden.element_at(index)?;
                let actual = actual.result_at(k)?;
                each(Slot {
                    index,
                    case,
                    golden,
                    actual,
                })?;
            }
            for k in 0.. {
                let element = match tail {
                    true => golden.element_at(past + k)?,
                    false => None,
                };
                let result = actual.result_at(positions.len() + k)?;
                if element.is_none() && result.is_none() {
                    break;
                }
                each(Slot {
                    index: past + k,
                    case: None,
                    golden: element,
                    actual: result,
                })?;
            }
        }
    }
    Ok(())
}

/// The array of the cases at `positions`, raw bytes kept, as the oracle
/// is sent them: `[` the cases `,` between `]`, `null` for a position
/// the file does not have.
pub fn write_selected<C, E>(
    cases: &mut C,
    positions: &[usize],
    out: &mut impl Write,
) -> Result<(), E>
where
    C: Cases,
    E: From<C::Error> + From<io::Error>,
{
    out.write_all(b"[")?;
    for (n, &at) in positions.iter().enumerate() {
        if n > 0 {
            out.write_all(b",")?;
        }
        let raw = cases.case_at(at)?.map_or(&b"null"[..], |case| case.raw);
        out.write_all(raw)?;
    }
    out.write_all(b"]")?;
    Ok(())
}

/// Nothing can go wrong.
#[derive(Debug)]
pub enum Never {}

impl From<Never> for io::Error {
    fn from(never: Never) -> Self {
        match never {}
    }
}

impl From<Never> for InputError {
    fn from(never: Never) -> Self {
        match never {}
    }
}

/// A case file held in memory, by position (any order will do).
pub struct HeldCases<'a>(pub Option<&'a CaseFile>);

impl Cases for HeldCases<'_> {
    type Error = Never;

    fn case_at(&mut self, index: usize) -> Result<Option<Case<'_>>, Never> {
        Ok(self.0.and_then(|cases| {
            Some(Case {
                item: cases.items.get(index)?,
                raw: cases.raw(index)?,
            })
        }))
    }
}

/// Elements held in memory, by position.
pub struct Held<'a>(pub &'a [&'a [u8]]);

impl Elements for Held<'_> {
    type Error = Never;

    fn element_at(&mut self, index: usize) -> Result<Option<&[u8]>, Never> {
        Ok(self.0.get(index).copied())
    }
}

/// Results held in memory: each an element, or how the oracle failed on
/// its case alone.
pub struct HeldOutcomes<'a>(pub &'a [Result<Vec<u8>, OracleFailure>]);

impl Results for HeldOutcomes<'_> {
    type Error = Never;

    fn result_at(&mut self, index: usize) -> Result<Option<Outcome<'_>>, Never> {
        Ok(self.0.get(index).map(|outcome| match outcome {
            Ok(bytes) => Ok(bytes.as_slice()),
            Err(failure) => Err(failure.clone()),
        }))
    }
}

/// Results held in memory, every one an element.
pub struct HeldResults<'a>(pub &'a [&'a [u8]]);

impl Results for HeldResults<'_> {
    type Error = Never;

    fn result_at(&mut self, index: usize) -> Result<Option<Outcome<'_>>, Never> {
        Ok(self.0.get(index).map(|element| Ok(*element)))
    }
}

/// A case file read as a stream, `error` saying what a read error
/// means.
pub struct StreamedCases<'r, S, E> {
    /// The cases.
    pub reader: &'r mut S,
    /// A read error, as the caller reports it.
    pub error: &'r dyn Fn(ReadError) -> E,
}

impl<S: CaseSource, E> Cases for StreamedCases<'_, S, E> {
    type Error = E;

    fn case_at(&mut self, index: usize) -> Result<Option<Case<'_>>, E> {
        while self.reader.cases_read() < index {
            // Skipped cases need no parsing.
            if self.reader.next_raw().map_err(self.error)?.is_none() {
                return Ok(None);
            }
        }
        self.reader.next_case().map_err(self.error)
    }
}

/// An array read as a stream (a golden), `error` saying what a read
/// error means.
pub struct Streamed<'r, R, E> {
    /// The elements.
    pub reader: &'r mut ElementReader<R>,
    /// A read error, as the caller reports it.
    pub error: &'r dyn Fn(ReadError) -> E,
}

impl<R: Read, E> Elements for Streamed<'_, R, E> {
    type Error = E;

    fn element_at(&mut self, index: usize) -> Result<Option<&[u8]>, E> {
        skip_to(self.reader, index, self.error)?;
        Ok(self
            .reader
            .next_element()
            .map_err(self.error)?
            .map(|e| e.bytes))
    }
}

/// An oracle's output read as a stream. When `judged` (the output is
/// read as it was delimited, some of its elements not JSON), each
/// element that is not JSON is its case's failure, as
/// [`read_results`](results::read_results) makes it in memory.
pub struct StreamedResults<'r, R, E> {
    /// The elements.
    pub reader: &'r mut ElementReader<R>,
    /// Whether each element is judged on its own.
    pub judged: bool,
    /// A read error, as the caller reports it.
    pub error: &'r dyn Fn(ReadError) -> E,
}

impl<R: Read, E> Results for StreamedResults<'_, R, E> {
    type Error = E;

    fn result_at(&mut self, index: usize) -> Result<Option<Outcome<'_>>, E> {
        skip_to(self.reader, index, self.error)?;
        let judged = self.judged;
        let element = self.reader.next_element().map_err(self.error)?;
        Ok(element.map(|element| {
            // Parsed again only when some element is known not to be JSON.
            let failure = judged.then(|| results::element_failure(element.bytes));
            match failure.flatten() {
                Some(failure) => Err(failure),
                None => Ok(element.bytes),
            }
        }))
    }
}

/// Reads past the elements before `index`.
fn skip_to<R: Read, E>(
    reader: &mut ElementReader<R>,
    index: usize,
    error: &dyn Fn(ReadError) -> E,
) -> Result<(), E> {
    while reader.elements_read() < index {
        if reader.next_element().map_err(error)?.is_none() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
