//! Failures grouped by signature: each group's count, the identities of
//! its first cases, and its first few records in full.
//!
//! A run may have as many groups as failures (a port that throws a
//! message naming each case makes each one a group of its own), so a
//! group holds 40 bytes in memory: a 128-bit hash of its signature, its
//! count, its op, where its data stands in a [`Spool`], and its place in
//! an index of hashes. The signature, the identities and the records
//! shown in full are written to the spool as they come, each node
//! pointing at the one before, and read back when the report is written.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io;

use super::json::case::{
    read_case, read_id, read_signature, write_case, write_id, write_signature,
};
use super::spool::Spool;
use crate::corpus::identity::CaseId;
use crate::report::record::{CaseRecord, Signature};
use js_exact::{self as js, TextMode};

/// How many of a group's cases a report shows in full.
pub const SHOWN_IN_FULL: usize = 3;

/// How many of a group's cases are named (the full ones included).
pub const NAMED: usize = 8;

/// Failing cases that fail alike, read back from the spool.
#[derive(Debug, Clone)]
pub struct Group {
    /// What they share.
    pub signature: Signature,
    /// How many cases.
    pub count: usize,
    /// The first [`NAMED`] cases' identities.
    pub ids: Vec<CaseId>,
    /// The first [`SHOWN_IN_FULL`] records (when kept).
    shown: Vec<CaseRecord>,
}

/// A group, as [`Groups::sorted`] gives it: load it with [`Groups::load`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupKey(u32);

/// What a group holds in memory: 32 bytes.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// A 128-bit hash of its signature's text.
    key: [u64; 2],
    count: u32,
    /// The group's op, in [`Groups::ops`].
    op: u16,
    ids: u8,
    full: u8,
    /// Where the group's last node is in the spool, plus one.
    last: u64,
}

/// The groups by the hash of their signature: open addressing over the
/// slots' own keys, 4 bytes a bucket, at most half full.
#[derive(Debug, Default)]
struct Index {
    buckets: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

impl Index {
    /// The group with this key, or the bucket where it would go.
    fn find(&self, key: [u64; 2], slots: &[Slot]) -> Result<usize, usize> {
        let mask = self.buckets.len() - 1;
        let mut at = key[0] as usize & mask;
        loop {
            match self.buckets[at] {
                EMPTY => return Err(at),
                slot if slots[slot as usize].key == key => return Ok(slot as usize),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Makes room for one more group.
    fn reserve(&mut self, slots: &[Slot]) {
        if self.buckets.len() >= 2 * (slots.len() + 1) {
            return;
        }
        self.buckets = vec![EMPTY; (2 * (slots.len() + 1)).next_power_of_two().max(16)];
        for (at, slot) in slots.iter().enumerate() {
            if let Err(bucket) = self.find(slot.key, slots) {
                self.buckets[bucket] = at as u32;
            }
        }
    }
}

/// What a node of the spool holds.
const SIGNATURE: u8 = 0;
const ID: u8 = 1;
const RECORD: u8 = 2;

/// A node's head: the node before (offset + 1, 0 for none), its kind and
/// its length.
const HEAD: usize = 8 + 1 + 4;

/// Every group of a report.
#[derive(Debug, Default)]
pub struct Groups {
    index: Index,
    /// The groups, in order of first appearance.
    slots: Vec<Slot>,
    /// The ops groups have (few: kept once each).
    ops: Vec<Option<String>>,
    spool: Spool,
    /// Whether the first records are kept in full (a report that prints
    /// groups needs them; one that only counts does not).
    keep_full: bool,
}

/// Two independent 64-bit hashes of a signature's text: two signatures
/// that differ never share a group (a collision is a 2^-128 chance).
fn key(signature: &Signature) -> [u64; 2] {
    let half = |salt: u8| {
        let mut hasher = DefaultHasher::new();
        (salt, &signature.text).hash(&mut hasher);
        hasher.finish()
    };
    [half(0), half(1)]
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
            && (self.slots.is_empty()
                || self
                    .index
                    .find(key(signature), &self.slots)
                    .map_or(true, |at| usize::from(self.slots[at].full) < SHOWN_IN_FULL))
    }

    /// Appends a node to a group's chain.
    fn push(&mut self, at: usize, kind: u8, payload: &[u8]) -> io::Result<()> {
        let slot = &mut self.slots[at];
        let mut node = Vec::with_capacity(HEAD + payload.len());
        node.extend_from_slice(&slot.last.to_le_bytes());
        node.push(kind);
        let len = u32::try_from(payload.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a record too large"))?;
        node.extend_from_slice(&len.to_le_bytes());
        node.extend_from_slice(payload);
        slot.last = self.spool.append(&node)? + 1;
        Ok(())
    }

    /// Counts a failing record into its group, keeping its identity while
    /// the group names few, and the record when the group has room for it
    /// and it carries its details.
    pub fn add(&mut self, record: &CaseRecord) -> io::Result<()> {
        let Some(signature) = &record.signature else {
            return Ok(());
        };
        let key = key(signature);
        self.index.reserve(&self.slots);
        let at = match self.index.find(key, &self.slots) {
            Ok(at) => at,
            Err(bucket) => {
                let at = self.slots.len();
                let too_many = || io::Error::other("more failure groups than a report can hold");
                self.index.buckets[bucket] = u32::try_from(at)
                    .ok()
                    .filter(|&at| at != EMPTY)
                    .ok_or_else(too_many)?;
                // The group's op is its per-op key: the cases of an op the
                // reference does not know are one `(unknown op)` row, and
                // their groups go with it (one line when it threw one
                // message throughout).
                let op_key = match record.unknown_op {
                    true => Some(super::UNKNOWN_OP.to_owned()),
                    false => signature.op.clone(),
                };
                let op = match self.ops.iter().position(|op| *op == op_key) {
                    Some(op) => op,
                    None => {
                        self.ops.push(op_key);
                        self.ops.len() - 1
                    }
                };
                self.slots.push(Slot {
                    key,
                    count: 0,
                    op: u16::try_from(op).unwrap_or(u16::MAX),
                    ids: 0,
                    full: 0,
                    last: 0,
                });
                let mut bytes = Vec::new();
                write_signature(signature, &mut bytes);
                self.push(at, SIGNATURE, &bytes)?;
                at
            }
        };
        self.slots[at].count = self.slots[at].count.saturating_add(1);
        if usize::from(self.slots[at].ids) < NAMED {
            self.slots[at].ids += 1;
            let mut bytes = Vec::new();
            write_id(&record.id, &mut bytes);
            self.push(at, ID, &bytes)?;
        }
        if self.keep_full && usize::from(self.slots[at].full) < SHOWN_IN_FULL {
            self.slots[at].full += 1;
            let mut bytes = Vec::new();
            write_case(record, &mut bytes);
            self.push(at, RECORD, &bytes)?;
        }
        Ok(())
    }

    /// The groups, largest first, ties in order of first appearance.
    pub fn sorted(&self) -> Vec<GroupKey> {
        let mut sorted: Vec<GroupKey> = (0..self.slots.len() as u32).map(GroupKey).collect();
        // A stable sort: ties stay in order of first appearance.
        sorted.sort_by_key(|&group| std::cmp::Reverse(self.count(group)));
        sorted
    }

    /// How many cases a group has.
    pub fn count(&self, group: GroupKey) -> usize {
        self.slots[group.0 as usize].count as usize
    }

    /// A group's op.
    pub fn op(&self, group: GroupKey) -> Option<&str> {
        let op = self.slots[group.0 as usize].op;
        self.ops.get(usize::from(op)).and_then(|op| op.as_deref())
    }

    /// How many groups.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// A group read back: its signature, count and first identities.
    pub fn load(&mut self, group: GroupKey) -> io::Result<Group> {
        let damaged = || io::Error::new(io::ErrorKind::InvalidData, "a spooled group is damaged");
        let mut loaded = Group {
            signature: Signature::new(None, "", ""),
            count: self.count(group),
            ids: Vec::new(),
            shown: Vec::new(),
        };
        let mut next = self.slots[group.0 as usize].last;
        while next > 0 {
            let head = self.spool.read(next - 1, HEAD)?;
            let prev = u64::from_le_bytes(head[..8].try_into().map_err(|_| damaged())?);
            let len = u32::from_le_bytes(head[9..].try_into().map_err(|_| damaged())?);
            let payload = self.spool.read(next - 1 + HEAD as u64, len as usize)?;
            let value = js::parse(&payload, TextMode::LossyUtf8).map_err(|_| damaged())?;
            match head[8] {
                SIGNATURE => {
                    loaded.signature = read_signature(&value).ok_or_else(damaged)?;
                }
                ID => loaded.ids.push(read_id(&value).ok_or_else(damaged)?),
                _ => loaded.shown.push(read_case(&value).ok_or_else(damaged)?),
            }
            next = prev;
        }
        loaded.ids.reverse();
        loaded.shown.reverse();
        Ok(loaded)
    }
}

impl Group {
    /// Its first records, in full (none when the report keeps none).
    pub fn shown(&self) -> &[CaseRecord] {
        &self.shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::identity::CaseKey;
    use crate::report::record::{CaseState, VerdictKind};

    fn failing(name: &str, signature: &str) -> CaseRecord {
        CaseRecord {
            file: "f.json".into(),
            verdict: VerdictKind::Different,
            state: CaseState::Failed,
            summary: format!("different at /{signature}"),
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
        let loaded: Vec<Group> = sorted.iter().map(|&g| groups.load(g).unwrap()).collect();
        let counts: Vec<(String, usize)> = loaded
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
        assert_eq!(groups.count(sorted[0]), 10);
        assert_eq!(groups.op(sorted[0]), Some("op"));
        assert_eq!(loaded[0].ids.len(), NAMED);
        assert_eq!(loaded[0].ids[7].key_text(), "\"b7\"");
        let shown = loaded[0].shown();
        let names: Vec<String> = shown.iter().map(|r| r.id.key_text()).collect();
        assert_eq!(names, ["\"b0\"", "\"b1\"", "\"b2\""]);
        assert_eq!(shown[0], failing("b0", "y"));
        assert_eq!(groups.len(), 3);
        // A report that shows no group keeps no record.
        let mut counted = Groups::new(false);
        counted.add(&failing("a", "x")).unwrap();
        let key = counted.sorted()[0];
        assert!(counted.load(key).unwrap().shown.is_empty());
    }

    #[test]
    fn a_group_per_failure_costs_little_memory_and_comes_back_from_disk() {
        let mut groups = Groups::new(true);
        for n in 0..20_000 {
            groups
                .add(&failing(&format!("c{n}"), &format!("s{n}")))
                .unwrap();
        }
        groups.add(&failing("again", "s19999")).unwrap();
        assert!(groups.spool.on_disk());
        assert_eq!(groups.len(), 20_000);
        let sorted = groups.sorted();
        let first = groups.load(sorted[0]).unwrap();
        assert_eq!(first.signature.text, "op: s19999");
        assert_eq!(first.count, 2);
        let names: Vec<String> = first.ids.iter().map(CaseId::to_string).collect();
        assert_eq!(names, ["f.json \"c19999\"", "f.json \"again\""]);
        let second = groups.load(sorted[1]).unwrap();
        assert_eq!(second.signature.text, "op: s0");
        assert_eq!(second.shown()[0].id.key_text(), "\"c0\"");
    }
}
