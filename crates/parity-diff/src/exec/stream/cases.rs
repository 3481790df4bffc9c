//! A case file read one case at a time ([`CaseReader`]), and what a pass
//! over its cases learns on the way ([`Watch`]): which `--op` matched,
//! which positions are selected, and whether two cases share an identity
//! (which a ledger cannot tell apart).

use std::borrow::Cow;
use std::io::Read;

use crate::corpus::cases::{Case, CaseItem, Duplicates};
use crate::corpus::identity::CaseId;
use crate::judge::scan::{ElementReader, Mode, ReadError};

/// The cases of a case file, one at a time (see
/// [`Mode::Lenient`] for what is read as a case).
pub struct CaseReader<R> {
    file: String,
    elements: ElementReader<R>,
    item: Option<CaseItem>,
}

impl<R: Read> CaseReader<R> {
    /// The cases in `source`, known as cases of `file`.
    pub fn new(file: &str, source: R) -> Self {
        CaseReader {
            file: file.to_owned(),
            elements: ElementReader::new(source, Mode::Lenient),
            item: None,
        }
    }

    /// The next case (parsed for its op and identity), `None` after the
    /// last; an error when the file turns out not to be an array.
    pub fn next_case(&mut self) -> Result<Option<Case<'_>>, ReadError> {
        let Some((item, raw)) = read_case(&mut self.elements, &self.file)? else {
            return Ok(None);
        };
        let item = self.item.insert(item);
        Ok(Some(Case { item, raw }))
    }

    /// [`next_case`](Self::next_case), the case's item given, not kept.
    pub fn next_owned(&mut self) -> Result<Option<(CaseItem, &[u8])>, ReadError> {
        read_case(&mut self.elements, &self.file)
    }

    /// The next case's raw bytes alone (nothing parsed).
    pub fn next_raw(&mut self) -> Result<Option<&[u8]>, ReadError> {
        Ok(self.elements.next_element()?.map(|element| element.bytes))
    }

    /// How many cases were read so far.
    pub fn cases_read(&self) -> usize {
        self.elements.elements_read()
    }
}

/// The next element of `elements` as a case of `file`, and its bytes.
fn read_case<'e, R: Read>(
    elements: &'e mut ElementReader<R>,
    file: &str,
) -> Result<Option<(CaseItem, &'e [u8])>, ReadError> {
    let Some(element) = elements.next_element()? else {
        return Ok(None);
    };
    let start = element.offset as usize;
    let span = start..start + element.bytes.len();
    let item = CaseItem::read_lazily(file, element.bytes, span, element.line);
    Ok(Some((item, element.bytes)))
}

/// What reads a case file case by case, front to back: a [`CaseReader`]
/// on the caller's thread, or one on its own
/// ([`Prefetched`](super::prefetch::Prefetched)).
pub trait CaseSource {
    /// The next case (parsed for its op and identity), `None` after the
    /// last.
    fn next_case(&mut self) -> Result<Option<Case<'_>>, ReadError>;
    /// The next case's raw bytes.
    fn next_raw(&mut self) -> Result<Option<&[u8]>, ReadError>;
    /// How many cases were read so far.
    fn cases_read(&self) -> usize;
}

impl<S: CaseSource + ?Sized> CaseSource for Box<S> {
    fn next_case(&mut self) -> Result<Option<Case<'_>>, ReadError> {
        (**self).next_case()
    }
    fn next_raw(&mut self) -> Result<Option<&[u8]>, ReadError> {
        (**self).next_raw()
    }
    fn cases_read(&self) -> usize {
        (**self).cases_read()
    }
}

impl<R: Read> CaseSource for CaseReader<R> {
    fn next_case(&mut self) -> Result<Option<Case<'_>>, ReadError> {
        CaseReader::next_case(self)
    }
    fn next_raw(&mut self) -> Result<Option<&[u8]>, ReadError> {
        CaseReader::next_raw(self)
    }
    fn cases_read(&self) -> usize {
        CaseReader::cases_read(self)
    }
}

/// What a pass over a case file learns besides the cases.
#[derive(Debug)]
pub struct Watch<'o> {
    ops: &'o [String],
    matched: Vec<bool>,
    /// Set when identities must be unique (a ledger is in use).
    duplicates: Option<Duplicates>,
    /// The selected positions, when kept.
    selection: Option<Vec<usize>>,
}

impl<'o> Watch<'o> {
    /// A watch for `--op ops` (none: every case is selected); `unique`
    /// when two cases must not share an identity; `keep` to keep the
    /// selected positions.
    pub fn new(ops: &'o [String], unique: bool, keep: bool) -> Self {
        Watch {
            ops,
            matched: vec![false; ops.len()],
            duplicates: unique.then(Duplicates::default),
            selection: (keep && !ops.is_empty()).then(Vec::new),
        }
    }

    /// Whether the cases must be parsed (for their op or identity).
    pub fn parses(&self) -> bool {
        !self.ops.is_empty() || self.duplicates.is_some()
    }

    /// Notes the case at `index` of `file`, whose identity the caller may
    /// have made already (`known`, so that it is not made twice); returns
    /// whether it is selected.
    pub fn see(
        &mut self,
        index: usize,
        case: Case<'_>,
        file: &str,
        known: Option<&CaseId>,
    ) -> bool {
        if let Some(duplicates) = &mut self.duplicates {
            let id = known.map_or_else(|| case.id(file), Cow::Borrowed);
            duplicates.see(index, case.item.line, &id);
        }
        let item = case.item;
        if self.ops.is_empty() {
            return true;
        }
        let Some(at) = item
            .op
            .as_ref()
            .and_then(|op| self.ops.iter().position(|wanted| wanted == op))
        else {
            return false;
        };
        self.matched[at] = true;
        if let Some(selection) = &mut self.selection {
            selection.push(index);
        }
        true
    }

    /// The first `--op` that matched no case.
    pub fn unmatched_op(&self) -> Option<&'o str> {
        let ops: &'o [String] = self.ops;
        ops.iter()
            .zip(&self.matched)
            .find(|(_, &matched)| !matched)
            .map(|(op, _)| op.as_str())
    }

    /// Whether any case was selected (with `--op`).
    pub fn any_selected(&self) -> bool {
        self.ops.is_empty() || self.matched.iter().any(|&matched| matched)
    }

    /// Two cases with one identity, as a message.
    pub fn duplicate(&self) -> Option<&str> {
        self.duplicates.as_ref()?.message()
    }

    /// The selected positions (`None` without `--op`).
    pub fn into_selection(self) -> Option<Vec<usize>> {
        self.selection
    }
}
