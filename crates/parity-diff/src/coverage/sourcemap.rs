//! Source maps (version 3), for a reference that is a bundle: where a
//! generated position came from. Node gives the map itself, already
//! read, in the coverage file's `source-map-cache` (with `sources`
//! made absolute URLs), so only the `mappings` need decoding: lines
//! separated by `;`, segments by `,`, each segment Base64 VLQ numbers
//! (the generated column, then the source, its line and column, each
//! relative to the one before).

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

/// One mapped segment: from `column` of its generated line on, the
/// text came from `line`:`column` of source `source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mapping {
    column: u32,
    /// `None` for a segment that maps to no source.
    source: Option<(u32, u32, u32)>,
}

/// A decoded source map.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    sources: Vec<String>,
    /// Each generated line's segments, by column.
    lines: Vec<Vec<Mapping>>,
}

/// Where a generated position came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Original {
    /// The source's URL (or name, as the map gives it).
    pub source: String,
    /// Its 1-based line.
    pub line: usize,
}

fn base64(byte: u8) -> Option<u32> {
    Some(match byte {
        b'A'..=b'Z' => byte - b'A',
        b'a'..=b'z' => byte - b'a' + 26,
        b'0'..=b'9' => byte - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

/// The VLQ numbers of one segment.
fn vlq(segment: &[u8]) -> Result<Vec<i64>, String> {
    let mut numbers = Vec::new();
    let (mut value, mut shift) = (0i64, 0u32);
    for &byte in segment {
        let digit = base64(byte).ok_or_else(|| format!("{:?} is not Base64", byte as char))? as i64;
        if shift > 60 {
            return Err("a number too large".into());
        }
        value += (digit & 31) << shift;
        if digit & 32 != 0 {
            shift += 5;
            continue;
        }
        numbers.push(if value & 1 == 1 {
            -(value >> 1)
        } else {
            value >> 1
        });
        (value, shift) = (0, 0);
    }
    if shift != 0 {
        return Err("a number cut short".into());
    }
    Ok(numbers)
}

fn field(base: &mut i64, delta: i64, what: &str) -> Result<u32, String> {
    *base += delta;
    u32::try_from(*base).map_err(|_| format!("a {what} of {}", *base))
}

/// Resolves a relative `source` against the directory of the script
/// (`file:` URLs only; anything else is kept as the map gives it).
fn resolve(source: &str, root: &str, script_url: &str) -> String {
    let joined = if root.is_empty() {
        source.to_owned()
    } else {
        format!("{}/{source}", root.trim_end_matches('/'))
    };
    if joined.contains("://") || joined.starts_with("file:") {
        return joined;
    }
    let Some(script) = super::source::path_of_url(script_url) else {
        return joined;
    };
    let base = script.parent().unwrap_or(Path::new("/"));
    let mut path = PathBuf::new();
    for component in base.join(&joined).components() {
        match component {
            Component::ParentDir => {
                path.pop();
            }
            Component::CurDir => {}
            other => path.push(other),
        }
    }
    format!("file://{}", path.display())
}

impl SourceMap {
    /// Decodes a map (Node's `data` for a script at `script_url`).
    /// Index maps (`sections`) are not read.
    pub fn read(map: &Value, script_url: &str) -> Result<SourceMap, String> {
        if map.get("sections").is_some() {
            return Err("an index map (`sections`), which is not read".into());
        }
        let root = map.get("sourceRoot").and_then(Value::as_str).unwrap_or("");
        let sources = map
            .get("sources")
            .and_then(Value::as_array)
            .ok_or("no `sources` array")?
            .iter()
            .map(|source| resolve(source.as_str().unwrap_or(""), root, script_url))
            .collect();
        let mappings = map
            .get("mappings")
            .and_then(Value::as_str)
            .ok_or("no `mappings` string")?;
        let (mut source, mut line, mut column) = (0i64, 0i64, 0i64);
        let mut lines = Vec::new();
        for text in mappings.split(';') {
            let mut segments = Vec::new();
            let mut generated = 0i64;
            for segment in text.split(',').filter(|s| !s.is_empty()) {
                let numbers = vlq(segment.as_bytes())?;
                let at = field(&mut generated, numbers[0], "generated column")?;
                let mapped = match numbers.len() {
                    1 => None,
                    4 | 5 => Some((
                        field(&mut source, numbers[1], "source index")?,
                        field(&mut line, numbers[2], "source line")?,
                        field(&mut column, numbers[3], "source column")?,
                    )),
                    n => return Err(format!("a segment of {n} numbers")),
                };
                segments.push(Mapping {
                    column: at,
                    source: mapped,
                });
            }
            segments.sort_by_key(|m| m.column);
            lines.push(segments);
        }
        Ok(SourceMap { sources, lines })
    }

    /// Where the generated 0-based `line` and `column` came from: the
    /// last segment at or before the column, or, before the line's first
    /// segment (indentation), that one.
    pub fn original(&self, line: usize, column: u32) -> Option<Original> {
        let segments = self.lines.get(line)?;
        let after = segments.partition_point(|m| m.column <= column);
        let mapping = if after == 0 {
            segments.first()?
        } else {
            &segments[after - 1]
        };
        let (source, line, _) = mapping.source?;
        Some(Original {
            source: self.sources.get(source as usize)?.clone(),
            line: line as usize + 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn vlq_numbers_decode_with_their_signs_and_continuations() {
        assert_eq!(vlq(b"AAAA").unwrap(), [0, 0, 0, 0]);
        assert_eq!(vlq(b"D").unwrap(), [-1]);
        assert_eq!(vlq(b"gB").unwrap(), [16]);
        assert_eq!(vlq(b"2H").unwrap(), [123]);
        assert!(vlq(b"g").is_err());
        assert!(vlq(b"A!").is_err());
    }

    #[test]
    fn positions_map_to_the_last_segment_at_or_before_them() {
        // Line 0: column 0 from a.ts:3, column 4 from b.ts:10.
        // Line 1: column 2 from b.ts:11; line 2 has no segment.
        let map = json!({"version":3,"sources":["a.ts","b.ts"],"mappings":"AAEA,ICOA;EACA;"});
        let map = SourceMap::read(&map, "file:///w/dist/out.js").unwrap();
        let at = |line, column| map.original(line, column).map(|o| (o.source, o.line));
        assert_eq!(at(0, 0), Some(("file:///w/dist/a.ts".into(), 3)));
        assert_eq!(at(0, 3), Some(("file:///w/dist/a.ts".into(), 3)));
        assert_eq!(at(0, 9), Some(("file:///w/dist/b.ts".into(), 10)));
        assert_eq!(at(1, 0), Some(("file:///w/dist/b.ts".into(), 11)));
        assert_eq!(at(2, 0), None);
        assert_eq!(at(9, 0), None);
    }

    #[test]
    fn sources_resolve_against_the_root_and_the_scripts_directory() {
        let map =
            json!({"sources":["../src/x.ts","file:///abs/y.ts"],"sourceRoot":"","mappings":"AAAA"});
        let map = SourceMap::read(&map, "file:///w/dist/out.js").unwrap();
        assert_eq!(map.sources, ["file:///w/src/x.ts", "file:///abs/y.ts"]);
        let rooted = json!({"sources":["x.ts"],"sourceRoot":"webpack://app/","mappings":""});
        let rooted = SourceMap::read(&rooted, "file:///w/out.js").unwrap();
        assert_eq!(rooted.sources, ["webpack://app/x.ts"]);
    }

    #[test]
    fn a_map_that_cannot_be_read_says_why() {
        for (map, why) in [
            (json!({"sections":[]}), "index map"),
            (json!({"mappings":""}), "sources"),
            (json!({"sources":[]}), "mappings"),
            (json!({"sources":[],"mappings":"AA"}), "segment of 2"),
            (json!({"sources":[],"mappings":"D"}), "generated column"),
        ] {
            let error = SourceMap::read(&map, "file:///x.js").unwrap_err();
            assert!(error.contains(why), "{error:?} should say {why:?}");
        }
    }
}
