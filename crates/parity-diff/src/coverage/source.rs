//! A script's source as V8 counts it: offsets are UTF-16 code units of
//! the text, so the file's UTF-8 is decoded once and kept as code units,
//! with where each line starts. And the path of a `file:` URL, and how a
//! report names it.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

/// A script's text, by UTF-16 offsets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Source {
    units: Vec<u16>,
    /// The offset where each line starts; the first is 0.
    line_starts: Vec<u32>,
}

impl Source {
    /// The text of a file's bytes (UTF-8; an invalid sequence is one
    /// U+FFFD, as Node reads a script).
    pub fn new(bytes: &[u8]) -> Source {
        let units: Vec<u16> = String::from_utf8_lossy(bytes).encode_utf16().collect();
        let mut line_starts = vec![0];
        for (at, unit) in units.iter().enumerate() {
            if *unit == u16::from(b'\n') {
                line_starts.push(at as u32 + 1);
            }
        }
        Source { units, line_starts }
    }

    /// The text V8 ran when the file starts with a byte-order mark and V8
    /// says the script is one unit shorter: Node strips the mark.
    pub fn fitted_to(self, ran: u32) -> Source {
        if self.units.first() == Some(&0xfeff) && self.len() == ran.saturating_add(1) {
            Source::new(String::from_utf16_lossy(&self.units[1..]).as_bytes())
        } else {
            self
        }
    }

    /// How many code units it has.
    pub fn len(&self) -> u32 {
        self.units.len() as u32
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The text from `start` to `end` (clamped to the source).
    pub fn text(&self, start: u32, end: u32) -> String {
        let end = (end as usize).min(self.units.len());
        let start = (start as usize).min(end);
        String::from_utf16_lossy(&self.units[start..end])
    }

    /// The 0-based line of an offset and its column in code units.
    pub fn position(&self, offset: u32) -> (usize, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        (line, offset - self.line_starts[line])
    }

    /// The 1-based line of an offset.
    pub fn line_of(&self, offset: u32) -> usize {
        self.position(offset).0 + 1
    }

    /// How many lines it has.
    pub fn lines(&self) -> usize {
        self.line_starts.len()
    }

    /// Where a 0-based line starts and ends (before its line feed).
    pub fn line_span(&self, line: usize) -> (u32, u32) {
        let start = self.line_starts[line];
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.len(), |next| next - 1);
        (start, end)
    }

    /// Whether the text from `start` to `end` is only white space (then no
    /// statement can stand in it).
    pub fn is_blank(&self, start: u32, end: u32) -> bool {
        self.text(start, end)
            .chars()
            .all(|c| c.is_whitespace() || c == '\u{feff}')
    }
}

/// The path a `file:` URL names (`file:///a%20b.js`, `file://localhost/x`).
pub fn path_of_url(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut path = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[at], bytes.get(at + 1), bytes.get(at + 2)) {
            (b'%', Some(&high), Some(&low)) if hex(high).is_some() && hex(low).is_some() => {
                path.push((hex(high)? * 16 + hex(low)?) as u8);
                at += 3;
            }
            (b'?' | b'#', ..) => break,
            (byte, ..) => {
                path.push(byte);
                at += 1;
            }
        }
    }
    Some(PathBuf::from(OsString::from_vec(path)))
}

/// How a report names a script or a source: its path relative to `cwd`
/// when it is below it, else the whole path; a URL that is not a file's
/// as it is.
pub fn display_name(url: &str, cwd: &Path) -> String {
    match path_of_url(url) {
        Some(path) => {
            let shown = path.strip_prefix(cwd).unwrap_or(&path);
            crate::corpus::identity::path_text(shown)
        }
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_utf16_code_units_and_lines_count_from_one() {
        // "é" is one unit, "𝄞" two; V8's offsets count them so.
        let source = Source::new("a é\n𝄞x\n\nlast".as_bytes());
        assert_eq!(source.len(), 13);
        assert_eq!(source.text(4, 7), "𝄞x");
        assert_eq!(source.position(4), (1, 0));
        assert_eq!(source.position(6), (1, 2));
        assert_eq!(source.line_of(8), 3);
        assert_eq!(source.line_of(12), 4);
        assert_eq!(source.lines(), 4);
        assert_eq!(source.line_span(1), (4, 7));
        assert_eq!(source.line_span(3), (9, 13));
        assert_eq!(source.text(11, 99), "st");
        assert!(source.is_blank(7, 9));
        assert!(!source.is_blank(0, 2));
    }

    #[test]
    fn a_byte_order_mark_is_dropped_when_v8_ran_the_text_without_it() {
        let source = Source::new("\u{feff}ab".as_bytes());
        assert_eq!(source.clone().fitted_to(3).len(), 3);
        assert_eq!(source.fitted_to(2).text(0, 2), "ab");
    }

    #[test]
    fn file_urls_name_paths_relative_to_the_directory_when_below_it() {
        assert_eq!(
            path_of_url("file:///tmp/a%20b/r%C3%A9f.mjs"),
            Some(PathBuf::from("/tmp/a b/réf.mjs"))
        );
        assert_eq!(
            path_of_url("file://localhost/x.js?query"),
            Some(PathBuf::from("/x.js"))
        );
        assert_eq!(path_of_url("node:fs"), None);
        let cwd = Path::new("/work/repo");
        assert_eq!(
            display_name("file:///work/repo/ref/a.mjs", cwd),
            "ref/a.mjs"
        );
        assert_eq!(
            display_name("file:///elsewhere/a.mjs", cwd),
            "/elsewhere/a.mjs"
        );
        assert_eq!(display_name("webpack://x/a.ts", cwd), "webpack://x/a.ts");
    }
}
