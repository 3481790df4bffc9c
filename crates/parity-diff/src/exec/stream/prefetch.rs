//! A case file read on a thread of its own, a few batches ahead of the
//! cases asked for ([`Prefetched`]): `compare --cases` reads the results
//! and the golden on its own thread meanwhile (issue 23). Each case is
//! read as [`CaseReader`] reads it (its op and identity), so what the
//! comparison gets is the same, case for case, in the same order.
//!
//! At most four batches of about 128 KiB (or one case, when it is
//! larger) wait to be taken: memory stays bounded by the file's largest
//! case, not its size.

use std::io::Read;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread;

use super::cases::{CaseReader, CaseSource};
use crate::corpus::cases::{Case, CaseItem};
use crate::judge::scan::ReadError;

/// How many batches may wait.
const AHEAD: usize = 4;

/// A batch closes once its cases' bytes pass this. With the batch being
/// filled and the one being taken, at most `AHEAD + 2` are held: well
/// under a MiB (`tests/memory.rs` holds memory to a few MiB over the
/// smallest input's).
const BATCH_BYTES: usize = 128 * 1024;

/// A batch closes with this many cases, whatever their bytes.
const BATCH_CASES: usize = 1024;

/// Cases read ahead: each with its raw bytes (`bytes[ends[i - 1]..ends[i]]`).
#[derive(Default)]
struct Batch {
    items: Vec<CaseItem>,
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Batch {
    /// An empty batch with room for a full one's bytes (grown by
    /// doubling, a batch could hold twice them).
    fn new() -> Self {
        Batch {
            bytes: Vec::with_capacity(BATCH_BYTES + BATCH_BYTES / 4),
            ..Batch::default()
        }
    }
}

/// What the reading thread sends: a batch, or the error that ended it.
type Sent = Result<Batch, ReadError>;

/// A case file read ahead on a thread of its own.
pub struct Prefetched {
    batches: Receiver<Sent>,
    batch: Batch,
    /// The next case's index in `batch`.
    at: usize,
    /// How many cases were taken.
    taken: usize,
    /// The file ended, or its error was given.
    ended: bool,
}

impl Prefetched {
    /// Reads `reader`'s cases on a new thread; gives `reader` back when
    /// no thread can be had (the caller reads them itself).
    pub fn start<R: Read + Send + 'static>(
        reader: CaseReader<R>,
    ) -> Result<Self, Box<CaseReader<R>>> {
        let (send, batches) = mpsc::sync_channel(AHEAD);
        let (hand, handed) = mpsc::channel();
        let spawned = thread::Builder::new()
            .name("case-reader".into())
            .spawn(move || {
                // Given back when the thread does start.
                let Ok(reader) = handed.recv() else { return };
                read_ahead(reader, &send);
            });
        if spawned.is_err() {
            return Err(Box::new(reader));
        }
        // The thread waits for it: the send cannot fail.
        let _ = hand.send(reader);
        Ok(Prefetched {
            batches,
            batch: Batch::default(),
            at: 0,
            taken: 0,
            ended: false,
        })
    }

    /// Moves to the next case; `false` at the end (an error, given
    /// once, ends it too).
    fn advance(&mut self) -> Result<bool, ReadError> {
        while self.at >= self.batch.items.len() {
            if self.ended {
                return Ok(false);
            }
            match self.batches.recv() {
                Ok(Ok(batch)) => {
                    self.batch = batch;
                    self.at = 0;
                }
                Ok(Err(error)) => {
                    self.ended = true;
                    return Err(error);
                }
                // The thread is done: the file ended.
                Err(_) => {
                    self.ended = true;
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// The raw bytes of the case at `at` of the batch.
    fn raw_at(&self, at: usize) -> &[u8] {
        let start = at
            .checked_sub(1)
            .map_or(0, |before| self.batch.ends[before]);
        &self.batch.bytes[start..self.batch.ends[at]]
    }
}

impl CaseSource for Prefetched {
    fn next_case(&mut self) -> Result<Option<Case<'_>>, ReadError> {
        if !self.advance()? {
            return Ok(None);
        }
        let at = self.at;
        self.at += 1;
        self.taken += 1;
        Ok(Some(Case {
            item: &self.batch.items[at],
            raw: self.raw_at(at),
        }))
    }

    fn next_raw(&mut self) -> Result<Option<&[u8]>, ReadError> {
        Ok(self.next_case()?.map(|case| case.raw))
    }

    fn cases_read(&self) -> usize {
        self.taken
    }
}

/// Reads every case into batches until the file ends, it fails, or
/// nobody takes them any more.
fn read_ahead<R: Read>(mut reader: CaseReader<R>, send: &SyncSender<Sent>) {
    let mut batch = Batch::new();
    loop {
        match reader.next_owned() {
            Ok(Some((item, raw))) => {
                batch.bytes.extend_from_slice(raw);
                batch.ends.push(batch.bytes.len());
                batch.items.push(item);
                let full = batch.bytes.len() >= BATCH_BYTES || batch.items.len() >= BATCH_CASES;
                if full
                    && send
                        .send(Ok(std::mem::replace(&mut batch, Batch::new())))
                        .is_err()
                {
                    return;
                }
            }
            Ok(None) => {
                if !batch.items.is_empty() {
                    let _ = send.send(Ok(batch));
                }
                return;
            }
            Err(error) => {
                if !batch.items.is_empty()
                    && send
                        .send(Ok(std::mem::replace(&mut batch, Batch::new())))
                        .is_err()
                {
                    return;
                }
                let _ = send.send(Err(error));
                return;
            }
        }
    }
}

#[cfg(test)]
#[path = "prefetch_tests.rs"]
mod tests;
