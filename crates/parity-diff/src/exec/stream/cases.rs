//! A case file read one case at a time ([`CaseReader`]), and what a pass
//! over its cases learns on the way ([`Watch`]): which `--op` matched,
//! which positions are selected, and whether two cases share an identity
//! (which a ledger cannot tell apart).

use std::io::Read;

use crate::corpus::cases::{Case, CaseItem, Duplicates};
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
        let Some(element) = self.elements.next_element()? else {
            return Ok(None);
        };
        let start = element.offset as usize;
        let span = start..start + element.bytes.len();
        let item = self.item.insert(CaseItem::read(
            &self.file,
            element.bytes,
            span,
            element.line,
        ));
        Ok(Some(Case {
            item,
            raw: element.bytes,
        }))
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

    /// Notes the case at `index`; returns whether it is selected.
    pub fn see(&mut self, index: usize, item: &CaseItem) -> bool {
        if let Some(duplicates) = &mut self.duplicates {
            duplicates.see(index, item);
        }
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
