//! Failures grouped by signature: each group's count, the identities of
//! its first cases, and its first few records in full (spooled, so that
//! a run with a million failures holds a few records per group, not a
//! million).

use std::collections::HashMap;
use std::io;

use super::spool::Spool;
use crate::diff::identity::CaseId;
use crate::diff::record::{CaseRecord, Signature};

/// How many of a group's cases a report shows in full.
pub const SHOWN_IN_FULL: usize = 3;

/// How many of a group's cases are named (the full ones included).
pub const NAMED: usize = 8;

/// Failing cases that fail alike.
#[derive(Debug, Clone)]
pub struct Group {
    /// What they share.
    pub signature: Signature,
    /// How many cases.
    pub count: usize,
    /// The first [`NAMED`] cases' identities.
    pub ids: Vec<CaseId>,
    /// Where the first [`SHOWN_IN_FULL`] records are spooled.
    full: Vec<(u64, usize)>,
    /// The order in which groups first appeared.
    first: usize,
}

/// Every group of a report.
#[derive(Debug, Default)]
pub struct Groups {
    index: HashMap<String, usize>,
    list: Vec<Group>,
    spool: Spool,
    /// Whether the first records are kept in full (a report that prints
    /// groups needs them; one that only counts does not).
    keep_full: bool,
}

impl Groups {
    /// No groups yet; `keep_full` says whether the first records of each
    /// are kept.
    pub fn new(keep_full: bool) -> Self {
        Groups {
            keep_full,
            ..Groups::default()
        }
    }

    /// Whether a failing record with this signature would be shown in
    /// full (its group has room for it).
    pub fn has_room(&self, signature: &Signature) -> bool {
        self.keep_full
            && self
                .index
                .get(&signature.text)
                .is_none_or(|&at| self.list[at].full.len() < SHOWN_IN_FULL)
    }

    /// Counts a failing record into its group, keeping it when the group
    /// has room for it and it carries its details.
    pub fn add(&mut self, record: &CaseRecord) -> io::Result<()> {
        let Some(signature) = &record.signature else {
            return Ok(());
        };
        let at = match self.index.get(&signature.text) {
            Some(&at) => at,
            None => {
                let at = self.list.len();
                self.index.insert(signature.text.clone(), at);
                self.list.push(Group {
                    signature: signature.clone(),
                    count: 0,
                    ids: Vec::new(),
                    full: Vec::new(),
                    first: at,
                });
                at
            }
        };
        let group = &mut self.list[at];
        group.count += 1;
        if group.ids.len() < NAMED {
            group.ids.push(record.id.clone());
        }
        if self.keep_full && group.full.len() < SHOWN_IN_FULL {
            group.full.push(self.spool.put_record(record)?);
        }
        Ok(())
    }

    /// The groups, largest first, ties in order of first appearance.
    pub fn sorted(&self) -> Vec<&Group> {
        let mut sorted: Vec<&Group> = self.list.iter().collect();
        sorted.sort_by(|a, b| b.count.cmp(&a.count).then(a.first.cmp(&b.first)));
        sorted
    }

    /// How many groups.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// A group's records shown in full.
    pub fn shown(&mut self, signature: &Signature) -> io::Result<Vec<CaseRecord>> {
        let Some(&at) = self.index.get(&signature.text) else {
            return Ok(Vec::new());
        };
        let places = self.list[at].full.clone();
        places
            .into_iter()
            .map(|(offset, len)| self.spool.get_record(offset, len))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::identity::CaseKey;

    fn failing(name: &str, signature: &str) -> CaseRecord {
        CaseRecord {
            id: CaseId {
                file: "f.json".into(),
                key: CaseKey::Name(name.into()),
            },
            signature: Some(Signature::new(Some("op"), "different", signature)),
            ..CaseRecord::passing_default()
        }
    }

    #[test]
    fn groups_count_name_and_keep_their_first_cases() {
        let mut groups = Groups::new(true);
        groups.add(&failing("a", "x")).unwrap();
        for n in 0..10 {
            let record = failing(&format!("b{n}"), "y");
            assert_eq!(groups.has_room(record.signature.as_ref().unwrap()), n < 3);
            groups.add(&record).unwrap();
        }
        groups.add(&failing("c", "z")).unwrap();
        groups.add(&CaseRecord::passing_default()).unwrap();
        let sorted = groups.sorted();
        let counts: Vec<(String, usize)> = sorted
            .iter()
            .map(|g| (g.signature.text.clone(), g.count))
            .collect();
        assert_eq!(
            counts,
            [
                ("op: y".into(), 10),
                ("op: x".into(), 1),
                ("op: z".into(), 1)
            ]
        );
        assert_eq!(sorted[0].ids.len(), NAMED);
        let signature = sorted[0].signature.clone();
        let shown = groups.shown(&signature).unwrap();
        let names: Vec<String> = shown.iter().map(|r| r.id.key_text()).collect();
        assert_eq!(names, ["\"b0\"", "\"b1\"", "\"b2\""]);
        assert_eq!(groups.len(), 3);
    }
}
