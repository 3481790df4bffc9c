//! Result bytes held back until the input has parsed whole: in memory
//! while small, in an anonymous temporary file beyond that.
//!
//! A temporary directory that cannot take the file (missing, a file, not
//! writable, full) must not cost results that never needed it: the spool
//! then moves to an anonymous memory file (`memfd_create`), with one
//! warning line on stderr. Memory then grows with the output.

use std::ffi::CStr;
use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::os::fd::FromRawFd;

use js_exact::{write_value_to, JsonSink, Value};

/// How much result text stays in memory before the spool moves to a file.
pub const SPOOL_MEMORY_LIMIT: usize = 1024 * 1024;

/// The in-memory buffer's usual size: the limit and room for the result
/// that crosses it.
const MEMORY_CAPACITY: usize = SPOOL_MEMORY_LIMIT + 64 * 1024;

/// Result bytes held back until the input has parsed whole.
pub struct Spool {
    memory: Vec<u8>,
    file: Option<File>,
    /// How many bytes went to the file.
    in_file: u64,
    /// The first error of moving bytes to the file in the middle of a
    /// result (printing cannot fail; [`Spool::write_result`] reports it).
    failed: Option<io::Error>,
}

/// An anonymous file in memory.
fn memory_file() -> io::Result<File> {
    const NAME: &CStr = c"worker-spawn-oracle-results";
    // SAFETY: a valid C string; the result is checked.
    let fd = unsafe { libc::memfd_create(NAME.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: memfd_create just returned this descriptor.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// The spool's file: an anonymous one in the temporary directory, or in
/// memory when that directory cannot take it.
fn spool_file() -> io::Result<File> {
    let error = match tempfile::tempfile() {
        Ok(file) => return Ok(file),
        Err(error) => error,
    };
    let Ok(file) = memory_file() else {
        return Err(error);
    };
    super::say(&format!(
        "cannot spool results in {} ({error}); holding them in memory instead, which grows with the output",
        std::env::temp_dir().display()
    ));
    Ok(file)
}

impl JsonSink for Spool {
    fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.memory
    }

    fn between(&mut self) {
        if self.failed.is_none() {
            if let Err(error) = self.relieve() {
                self.failed = Some(error);
            }
        }
    }
}

impl Spool {
    /// An empty spool.
    pub fn new() -> Self {
        Spool {
            memory: Vec::with_capacity(MEMORY_CAPACITY),
            file: None,
            in_file: 0,
            failed: None,
        }
    }

    /// Where the next result is printed.
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.memory
    }

    /// Prints one result, moving what is printed to the file between
    /// its members and elements once it is large: a result that holds a
    /// large string twice (shared in memory) is never printed whole into
    /// memory.
    pub fn write_result(&mut self, value: &Value) -> io::Result<()> {
        write_value_to(value, self);
        match self.failed.take() {
            Some(error) => Err(error),
            None => self.relieve(),
        }
    }

    /// Moves the in-memory part to the file once it is large.
    pub fn relieve(&mut self) -> io::Result<()> {
        if self.memory.len() < SPOOL_MEMORY_LIMIT {
            return Ok(());
        }
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(spool_file()?),
        };
        file.write_all(&self.memory)?;
        self.in_file += self.memory.len() as u64;
        self.memory.clear();
        // One huge result grew the buffer: give that memory back now, not
        // at the end of the batch.
        if self.memory.capacity() > 2 * MEMORY_CAPACITY {
            self.memory.shrink_to(MEMORY_CAPACITY);
        }
        Ok(())
    }

    /// How many bytes it holds.
    pub fn len(&self) -> u64 {
        self.in_file + self.memory.len() as u64
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes everything spooled to `output`.
    pub fn copy_to(mut self, output: &mut impl Write) -> io::Result<()> {
        if let Some(mut file) = self.file.take() {
            file.rewind()?;
            let mut chunk = vec![0; 64 * 1024];
            loop {
                let read = match file.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(read) => read,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => return Err(error),
                };
                output.write_all(&chunk[..read])?;
            }
        }
        output.write_all(&self.memory)
    }
}

impl Default for Spool {
    fn default() -> Self {
        Spool::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_order_across_memory_and_file() {
        let mut spool = Spool::new();
        let mut expected = Vec::new();
        for n in 0..40u8 {
            let piece = vec![b'a' + n % 26; 100_000 + usize::from(n)];
            spool.buffer().extend_from_slice(&piece);
            expected.extend_from_slice(&piece);
            spool.relieve().unwrap();
        }
        assert_eq!(spool.len(), expected.len() as u64);
        assert!(spool.in_file > 0);
        let mut out = Vec::new();
        spool.copy_to(&mut out).unwrap();
        assert_eq!(out, expected);
    }

    #[test]
    fn a_huge_result_gives_its_memory_back() {
        let mut spool = Spool::new();
        spool.buffer().resize(10 * MEMORY_CAPACITY, b'x');
        spool.relieve().unwrap();
        assert!(spool.buffer().capacity() <= 2 * MEMORY_CAPACITY);
        assert_eq!(spool.len(), 10 * MEMORY_CAPACITY as u64);
    }

    #[test]
    fn a_memory_file_holds_what_is_written() {
        let mut file = memory_file().unwrap();
        file.write_all(b"[1,2]").unwrap();
        file.rewind().unwrap();
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "[1,2]");
    }
}
