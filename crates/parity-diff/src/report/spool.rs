//! Bytes that a report must hold until later (a file's cases until the
//! file's counts are known, a group's first cases until the groups are
//! printed): in memory while they are few, in an unnamed temporary file
//! once they are many, so that a report's memory does not grow with the
//! corpus.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

use super::json::case::{read_case, write_case};
use crate::report::record::CaseRecord;
use js_exact::{self as js, TextMode};

/// Past this many bytes in memory, a spool moves to disk.
pub const MEMORY_LIMIT: usize = 4 * 1024 * 1024;

/// On disk, writes are gathered into chunks of this many bytes.
const CHUNK: usize = 64 * 1024;

/// An append-only store of bytes, read back by offset.
#[derive(Debug)]
pub struct Spool {
    memory: Vec<u8>,
    file: Option<File>,
    len: u64,
    limit: usize,
}

impl Default for Spool {
    fn default() -> Self {
        Spool::with_limit(MEMORY_LIMIT)
    }
}

impl Spool {
    /// A spool that moves to disk past `limit` bytes.
    pub fn with_limit(limit: usize) -> Self {
        Spool {
            memory: Vec::new(),
            file: None,
            len: 0,
            limit,
        }
    }

    /// How many bytes it holds.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether it has moved to disk.
    pub fn on_disk(&self) -> bool {
        self.file.is_some()
    }

    /// Appends bytes; returns where they start.
    pub fn append(&mut self, bytes: &[u8]) -> io::Result<u64> {
        let at = self.len;
        match &mut self.file {
            // On disk, `memory` gathers what is not written yet.
            Some(file) => {
                self.memory.extend_from_slice(bytes);
                if self.memory.len() >= CHUNK {
                    file.write_all(&self.memory)?;
                    self.memory.clear();
                }
            }
            None if self.memory.len() + bytes.len() > self.limit => {
                let mut file = tempfile::tempfile()?;
                file.write_all(&self.memory)?;
                file.write_all(bytes)?;
                self.memory = Vec::new();
                self.file = Some(file);
            }
            None => self.memory.extend_from_slice(bytes),
        }
        self.len += bytes.len() as u64;
        Ok(at)
    }

    /// The bytes from `at`, `len` of them.
    pub fn read(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        match &mut self.file {
            None => {
                let at = at as usize;
                Ok(self.memory[at..at + len].to_vec())
            }
            Some(file) => {
                file.write_all(&self.memory)?;
                self.memory.clear();
                let mut bytes = vec![0; len];
                file.seek(SeekFrom::Start(at))?;
                file.read_exact(&mut bytes)?;
                file.seek(SeekFrom::End(0))?;
                Ok(bytes)
            }
        }
    }

    /// Copies everything held to `out`, then empties the spool.
    pub fn drain_to(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.file.take() {
            None => out.write_all(&self.memory)?,
            Some(mut file) => {
                file.write_all(&self.memory)?;
                file.seek(SeekFrom::Start(0))?;
                io::copy(&mut file, out)?;
            }
        }
        self.memory.clear();
        self.len = 0;
        Ok(())
    }

    /// Appends a record as one JSON text; returns where and how long.
    pub fn put_record(&mut self, record: &CaseRecord) -> io::Result<(u64, usize)> {
        let mut bytes = Vec::new();
        write_case(record, &mut bytes);
        let at = self.append(&bytes)?;
        Ok((at, bytes.len()))
    }

    /// A record put there before.
    pub fn get_record(&mut self, at: u64, len: usize) -> io::Result<CaseRecord> {
        let bytes = self.read(at, len)?;
        js::parse(&bytes, TextMode::LossyUtf8)
            .ok()
            .as_ref()
            .and_then(read_case)
            .ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidData, "a spooled record is damaged")
            })
    }
}

/// Writing to a spool appends to it, so that one spool drains into
/// another without passing through memory whole.
impl Write for Spool {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.append(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_spools_stay_in_memory_and_large_ones_move_to_disk() {
        let mut spool = Spool::with_limit(8);
        assert_eq!(spool.append(b"abc").unwrap(), 0);
        assert_eq!(spool.append(b"de").unwrap(), 3);
        assert!(!spool.on_disk());
        assert_eq!(spool.append(b"fghij").unwrap(), 5);
        assert!(spool.on_disk());
        assert_eq!(spool.append(b"k").unwrap(), 10);
        assert_eq!(spool.read(3, 4).unwrap(), b"defg");
        assert_eq!(spool.append(b"l").unwrap(), 11);
        assert_eq!(spool.len(), 12);
        let mut out = Vec::new();
        spool.drain_to(&mut out).unwrap();
        assert_eq!(out, b"abcdefghijkl");
        assert!(spool.is_empty() && !spool.on_disk());
        spool.append(b"m").unwrap();
        let mut out = Vec::new();
        spool.drain_to(&mut out).unwrap();
        assert_eq!(out, b"m");
        let mut other = Spool::with_limit(4);
        spool.append(b"nopqrs").unwrap();
        other.append(b"x").unwrap();
        spool.drain_to(&mut other).unwrap();
        assert_eq!(other.read(0, 7).unwrap(), b"xnopqrs");
    }

    #[test]
    fn records_come_back_whole() {
        let mut spool = Spool::with_limit(10);
        let record = CaseRecord::passing_default();
        let (at, len) = spool.put_record(&record).unwrap();
        let (at2, len2) = spool.put_record(&record).unwrap();
        assert!(spool.on_disk());
        assert_eq!(spool.get_record(at, len).unwrap(), record);
        assert_eq!(spool.get_record(at2, len2).unwrap(), record);
        assert!(spool.get_record(at + 1, len - 1).is_err());
    }
}
