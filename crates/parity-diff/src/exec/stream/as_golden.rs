//! Whether a live run's output is exactly the array `JSON.stringify`
//! prints of its golden's elements (`[`, the elements joined by `,`,
//! `]`), matched as the output comes (issue 23): every case is then
//! identical, and nothing is left to do once the oracle is done.
//!
//! An oracle prints only once it has read its input whole, and the
//! golden is checked meanwhile ([`live`](super::live)); where each golden
//! element stands is known once that check is done. The thread that
//! spools the output hands each chunk to a [`Watch`] of [`Watching`]:
//! until the golden's [`Expected`] arrives it spools the chunk and notes
//! how much came; then it matches what the spool already holds and every
//! chunk after. When the golden's check ends after the output did, the
//! report matches the spool itself ([`Watching::verdict`]): one
//! [`Matcher`] either way.
//!
//! A chunk that matches is not spooled: it is the golden's bytes, and
//! whatever needs them is given them back from the golden. On the first
//! chunk that differs, the spool gets what the match held back, then
//! that chunk and every one after; when the output ends before the match
//! does, [`Watching::restore`] writes it. An output that matches is never
//! written at all (200 000 cases: 15 MB of page cache the oracle's
//! writes need not wait for).

use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};

use crate::exec::oracle::Watch;

/// How much of the golden, and of a spool caught up with, is read at a
/// time.
const CHUNK: usize = 256 * 1024;

/// What the output must be: the golden at `golden`, whose elements stand
/// at `spans` (in order; between them white space and commas).
#[derive(Debug, Clone)]
pub struct Expected {
    pub golden: PathBuf,
    pub spans: Vec<Range<u64>>,
}

/// Where a match stands in the expected bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// `[` next.
    Open,
    /// `,` next, then element `index`.
    Comma(usize),
    /// Element `index`, at golden offset `at` (inside its span).
    Element { index: usize, at: u64 },
    /// `]` next.
    Close,
    /// Everything matched: one more byte is one too many.
    Done,
    /// A byte differed, or the golden could not be read.
    Differs,
}

/// Matches bytes, fed in chunks of any size, against an [`Expected`].
pub struct Matcher {
    golden: File,
    spans: Vec<Range<u64>>,
    stage: Stage,
    /// The golden's bytes from offset `from`.
    read: Vec<u8>,
    from: u64,
}

impl Matcher {
    /// A match of `expected` from its first byte; `None` when its golden
    /// cannot be opened.
    pub fn new(expected: Expected) -> Option<Matcher> {
        let golden = crate::base::files::input::open(
            &expected.golden,
            crate::base::files::input::CORPUS_FILE,
        )
        .ok()?;
        Some(Matcher {
            golden,
            spans: expected.spans,
            stage: Stage::Open,
            read: Vec::new(),
            from: 0,
        })
    }

    /// Whether every expected byte, and no other, was fed.
    pub fn matched(&self) -> bool {
        self.stage == Stage::Done
    }

    /// Whether a byte fed was not the one expected.
    pub fn differs(&self) -> bool {
        self.stage == Stage::Differs
    }

    /// The stage after element `index`.
    fn after(&self, index: usize) -> Stage {
        match index + 1 < self.spans.len() {
            true => Stage::Comma(index + 1),
            false => Stage::Close,
        }
    }

    /// The element at `index`, from its start.
    fn element(&self, index: usize) -> Stage {
        Stage::Element {
            index,
            at: self.spans[index].start,
        }
    }

    /// The golden's bytes from `at`, up to `end` (read in when the
    /// buffer does not hold `at`); empty when it cannot be read.
    fn golden_at(&mut self, at: u64, end: u64) -> &[u8] {
        let held = self.from..self.from + self.read.len() as u64;
        if !held.contains(&at) {
            self.read.resize(CHUNK, 0);
            let mut filled = 0;
            while filled < CHUNK {
                match self
                    .golden
                    .read_at(&mut self.read[filled..], at + filled as u64)
                {
                    Ok(0) => break,
                    Ok(read) => filled += read,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            self.read.truncate(filled);
            self.from = at;
        }
        let start = (at - self.from) as usize;
        let stop = (end - self.from).min(self.read.len() as u64) as usize;
        &self.read[start..stop.max(start)]
    }

    /// Matches the next bytes of the output.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while let Some((&first, rest)) = bytes.split_first() {
            self.stage = match self.stage {
                Stage::Differs => return,
                Stage::Done => Stage::Differs,
                Stage::Open if first == b'[' && self.spans.is_empty() => Stage::Close,
                Stage::Open if first == b'[' => self.element(0),
                Stage::Comma(index) if first == b',' => self.element(index),
                Stage::Close if first == b']' => Stage::Done,
                Stage::Open | Stage::Comma(_) | Stage::Close => Stage::Differs,
                Stage::Element { index, at } => {
                    let end = self.spans[index].end;
                    let golden = self.golden_at(at, end);
                    let same = golden.len().min(bytes.len());
                    if same == 0 || golden[..same] != bytes[..same] {
                        self.stage = Stage::Differs;
                        return;
                    }
                    bytes = &bytes[same..];
                    let at = at + same as u64;
                    self.stage = match at == end {
                        true => self.after(index),
                        false => Stage::Element { index, at },
                    };
                    continue;
                }
            };
            bytes = rest;
        }
    }

    /// Writes bytes `range` of the text matched against (`[`, the golden's
    /// elements joined by `,`, then `]`) to `out`: what an output held
    /// there, as far as it matched.
    pub fn write_expected(&self, range: Range<u64>, out: &mut impl Write) -> io::Result<()> {
        if range.is_empty() {
            return Ok(());
        }
        let elements = self.spans.iter().enumerate().flat_map(|(index, span)| {
            let comma = (index > 0).then_some(Piece::Byte(b','));
            comma.into_iter().chain([Piece::Golden(span.clone())])
        });
        let pieces = [Piece::Byte(b'[')]
            .into_iter()
            .chain(elements)
            .chain([Piece::Byte(b']')]);
        // One buffer for every element copied: a restore may span them all.
        let mut chunk = Vec::new();
        let mut at = 0u64;
        for piece in pieces {
            if at >= range.end {
                break;
            }
            let len = piece.len();
            let (from, to) = (range.start.max(at), range.end.min(at + len));
            if from < to {
                match piece {
                    Piece::Byte(byte) => out.write_all(&[byte])?,
                    Piece::Golden(span) => {
                        let start = span.start + (from - at);
                        copy_range(&self.golden, start..start + (to - from), &mut chunk, out)?;
                    }
                }
            }
            at += len;
        }
        Ok(())
    }

    /// Feeds what `source` holds, to its end (or the first difference).
    pub fn feed_from(&mut self, mut source: impl Read) {
        let mut chunk = vec![0; CHUNK];
        while !self.differs() {
            match source.read(&mut chunk) {
                Ok(0) => return,
                Ok(read) => self.feed(&chunk[..read]),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    self.stage = Stage::Differs;
                    return;
                }
            }
        }
    }
}

/// A piece of the text a match is against.
enum Piece {
    Byte(u8),
    /// Bytes of the golden.
    Golden(Range<u64>),
}

impl Piece {
    fn len(&self) -> u64 {
        match self {
            Piece::Byte(_) => 1,
            Piece::Golden(span) => span.end - span.start,
        }
    }
}

/// Copies bytes `range` of `file` to `out`, through `chunk` (grown to at
/// most [`CHUNK`]).
fn copy_range(
    file: &File,
    range: Range<u64>,
    chunk: &mut Vec<u8>,
    out: &mut impl Write,
) -> io::Result<()> {
    let wanted = CHUNK.min((range.end - range.start) as usize);
    if chunk.len() < wanted {
        chunk.resize(wanted, 0);
    }
    let mut at = range.start;
    while at < range.end {
        let wanted = ((range.end - at) as usize).min(chunk.len());
        let read = file.read_at(&mut chunk[..wanted], at)?;
        if read == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the golden is shorter than when it was checked",
            ));
        }
        out.write_all(&chunk[..read])?;
        at += read as u64;
    }
    Ok(())
}

/// Where the watch of an output stands.
enum State {
    /// No [`Expected`] yet: `seen` bytes came, all spooled.
    Waiting { seen: u64 },
    /// Matching, every byte that came fed: the first `spooled` are in the
    /// spool, the `held` after them are not (they are the golden's).
    Matching {
        matcher: Matcher,
        spooled: u64,
        held: u64,
    },
    /// Nothing to match: no [`Expected`] will come, or a byte differed.
    /// Every byte is spooled.
    Given,
}

/// A live run's output as its spool's thread sees it, and the channel
/// its [`Expected`] comes by.
struct Watched {
    state: State,
    expected: Receiver<Option<Expected>>,
}

impl Watched {
    /// Takes the [`Expected`] if it came: matches what `spool` holds of
    /// the `seen` bytes so far.
    fn try_start(&mut self, spool: &File, seen: u64) {
        self.state = match self.expected.try_recv() {
            Err(TryRecvError::Empty) => return,
            Ok(Some(expected)) => match Matcher::new(expected) {
                Some(mut matcher) => {
                    matcher.feed_from(ReadAt { file: spool, at: 0 }.take(seen));
                    State::Matching {
                        matcher,
                        spooled: seen,
                        held: 0,
                    }
                }
                None => State::Given,
            },
            Ok(None) | Err(TryRecvError::Disconnected) => State::Given,
        };
    }

    fn watch(&mut self, spool: &mut File, chunk: &[u8]) -> io::Result<()> {
        if let State::Waiting { seen } = self.state {
            self.try_start(spool, seen);
        }
        match &mut self.state {
            State::Waiting { seen } => {
                *seen += chunk.len() as u64;
                spool.write_all(chunk)
            }
            State::Matching {
                matcher,
                spooled,
                held,
            } => {
                matcher.feed(chunk);
                if !matcher.differs() {
                    *held += chunk.len() as u64;
                    return Ok(());
                }
                // Not the golden's output: the spool gets back what the
                // match held, then this chunk and every one after.
                matcher.write_expected(*spooled..*spooled + *held, spool)?;
                self.state = State::Given;
                spool.write_all(chunk)
            }
            State::Given => spool.write_all(chunk),
        }
    }

    /// Writes to the spool what the match holds back.
    fn restore(&mut self, spool: &mut File) -> io::Result<()> {
        if let State::Matching {
            matcher,
            spooled,
            held,
        } = &mut self.state
        {
            matcher.write_expected(*spooled..*spooled + *held, spool)?;
            *spooled += *held;
            *held = 0;
        }
        Ok(())
    }
}

/// Reads a file from an offset of its own, leaving the file's offset (its
/// writer's) alone.
struct ReadAt<'a> {
    file: &'a File,
    at: u64,
}

impl Read for ReadAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.file.read_at(buf, self.at)?;
        self.at += read as u64;
        Ok(read)
    }
}

/// The watch of one live run's output: the [`Watch`] its spool's thread
/// runs, the sender of its [`Expected`], and its verdict.
pub struct Watching {
    watched: Arc<Mutex<Watched>>,
    expected: Sender<Option<Expected>>,
}

impl Watching {
    /// A watch, and what the spooling thread is to run.
    pub fn new() -> (Watching, Watch) {
        let (expected, received) = mpsc::channel();
        let watched = Arc::new(Mutex::new(Watched {
            state: State::Waiting { seen: 0 },
            expected: received,
        }));
        let shared = Arc::clone(&watched);
        let watch: Watch = Box::new(move |spool, chunk| {
            shared
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .watch(spool, chunk)
        });
        (Watching { watched, expected }, watch)
    }

    /// Gives what the output must be (`None`: nothing, the output is
    /// judged otherwise): matched from the next chunk on.
    pub fn expect(&self, expected: Option<Expected>) {
        // The receiver lives as long as `self`.
        let _ = self.expected.send(expected);
    }

    /// Once the run is done: writes to its spool, `output`, what the
    /// match held back, so that the spool holds the whole output (to be
    /// read when it did not match).
    pub fn restore(&self, output: &mut File) -> io::Result<()> {
        let mut watched = self.watched.lock().unwrap_or_else(PoisonError::into_inner);
        watched.restore(output)
    }

    /// Once the run is done: whether its output, spooled in `output`, is
    /// exactly what was expected (matched now where the watch could not
    /// start while it came); `false` when nothing was expected.
    pub fn verdict(&self, output: &File) -> bool {
        let mut watched = self.watched.lock().unwrap_or_else(PoisonError::into_inner);
        match &mut watched.state {
            State::Matching { matcher, .. } => return matcher.matched(),
            State::Given => return false,
            State::Waiting { .. } => {}
        }
        let Ok(Some(expected)) = watched.expected.try_recv() else {
            return false;
        };
        let Some(mut matcher) = Matcher::new(expected) else {
            return false;
        };
        matcher.feed_from(ReadAt {
            file: output,
            at: 0,
        });
        matcher.matched()
    }
}

#[cfg(test)]
#[path = "as_golden_tests.rs"]
mod tests;
