//! A writer that holds a report back until it is opened: `compare` finds
//! out that an input is malformed only when it gets there, possibly at
//! its last byte, and an input error must leave stdout empty. What is
//! held goes to a [`Spool`] (to disk past a few MiB), whatever a report
//! format writes early.

use std::io::{self, Write};

use crate::report::spool::Spool;

/// Holds everything written until [`Gate::open`], then writes through.
#[derive(Debug)]
pub struct Gate<W: Write> {
    out: W,
    held: Option<Spool>,
}

impl<W: Write> Gate<W> {
    /// A closed gate in front of `out`.
    pub fn new(out: W) -> Self {
        Gate {
            out,
            held: Some(Spool::default()),
        }
    }

    /// Writes what was held, and everything from now on.
    pub fn open(&mut self) -> io::Result<()> {
        if let Some(mut held) = self.held.take() {
            held.drain_to(&mut self.out)?;
        }
        Ok(())
    }
}

impl<W: Write> Write for Gate<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.held {
            Some(held) => {
                held.append(bytes)?;
                Ok(bytes.len())
            }
            None => self.out.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.held {
            Some(_) => Ok(()),
            None => self.out.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_passes_until_the_gate_opens() {
        let mut out = Vec::new();
        {
            let mut gate = Gate::new(&mut out);
            gate.write_all(b"head").unwrap();
            gate.flush().unwrap();
        }
        assert!(out.is_empty(), "a gate dropped closed writes nothing");
        let mut gate = Gate::new(&mut out);
        gate.write_all(b"head,").unwrap();
        gate.open().unwrap();
        gate.write_all(b"tail").unwrap();
        gate.open().unwrap();
        drop(gate);
        assert_eq!(out, b"head,tail");
    }
}
