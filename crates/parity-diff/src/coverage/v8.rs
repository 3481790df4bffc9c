//! The files Node writes into `NODE_V8_COVERAGE`, one per process: V8's
//! precise block coverage (the result of the inspector's
//! `Profiler.takePreciseCoverage`), and Node's `source-map-cache` beside
//! it. The format is small and documented, so it is read here rather
//! than through a package:
//!
//! ```text
//! {"result":[{"scriptId":"…","url":"file:///…",
//!             "functions":[{"functionName":"…","isBlockCoverage":true,
//!                           "ranges":[{"startOffset":N,"endOffset":N,"count":N},…]},…]},…],
//!  "source-map-cache":{"file:///…":{"url":…,"data":{"version":3,…},"lineLengths":[…]}}}
//! ```
//!
//! Only scripts with a `file:` URL are kept: Node's own (`node:…`,
//! `internal/…`) and code made at run time (`evalmachine…`, `data:`) are
//! not the reference's source.

use std::path::Path;

use serde_json::Value;

use super::ranges::Range;

/// One function as V8 reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCoverage {
    /// Its name (empty for an anonymous function and the script's top
    /// level).
    pub name: String,
    /// Its own range first, then its blocks (none when V8 kept only a
    /// count for the whole function).
    pub ranges: Vec<Range>,
}

/// One script of one process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptCoverage {
    /// Its URL (`file:///…`).
    pub url: String,
    /// Its functions, outer before inner, in V8's order.
    pub functions: Vec<FunctionCoverage>,
}

/// What one coverage file holds.
#[derive(Debug, Clone, Default)]
pub struct ProcessCoverage {
    /// The scripts with a `file:` URL.
    pub scripts: Vec<ScriptCoverage>,
    /// How many scripts were left out (Node's own, and code without a
    /// file).
    pub left_out: usize,
    /// Source maps Node found, by the URL of the script they map.
    pub source_maps: Vec<(String, Value)>,
}

fn number(value: &Value, what: &str) -> Result<u64, String> {
    value
        .as_u64()
        .ok_or_else(|| format!("{what} is not a whole number of 0 or more: {value}"))
}

fn offset(value: &Value, what: &str) -> Result<u32, String> {
    let n = number(value, what)?;
    u32::try_from(n).map_err(|_| format!("{what} is past any script's length: {n}"))
}

fn read_function(value: &Value) -> Result<FunctionCoverage, String> {
    let name = match value.get("functionName") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(name)) => name.clone(),
        Some(other) => return Err(format!("a functionName that is not a string: {other}")),
    };
    let ranges = value
        .get("ranges")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("function {name:?} has no `ranges` array"))?;
    let ranges = ranges
        .iter()
        .map(|range| {
            let start = offset(&range["startOffset"], "startOffset")?;
            let end = offset(&range["endOffset"], "endOffset")?;
            if end < start {
                return Err(format!(
                    "a range that ends before it starts: {start} to {end}"
                ));
            }
            let count = number(&range["count"], "count")?;
            Ok(Range { start, end, count })
        })
        .collect::<Result<_, String>>()?;
    Ok(FunctionCoverage { name, ranges })
}

/// Whether a script is the reference's own source, not Node's.
pub fn is_source_file(url: &str) -> bool {
    url.starts_with("file:")
}

/// Reads one coverage file's text.
pub fn read_process(bytes: &[u8]) -> Result<ProcessCoverage, String> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|error| format!("not JSON: {error}"))?;
    let scripts = value
        .get("result")
        .and_then(Value::as_array)
        .ok_or("not V8 coverage: no `result` array")?;
    let mut coverage = ProcessCoverage::default();
    for script in scripts {
        let url = script
            .get("url")
            .and_then(Value::as_str)
            .ok_or("a script without a `url` string")?;
        if !is_source_file(url) {
            coverage.left_out += 1;
            continue;
        }
        let functions = script
            .get("functions")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{url}: no `functions` array"))?
            .iter()
            .map(read_function)
            .collect::<Result<_, String>>()
            .map_err(|error| format!("{url}: {error}"))?;
        coverage.scripts.push(ScriptCoverage {
            url: url.to_owned(),
            functions,
        });
    }
    if let Some(Value::Object(maps)) = value.get("source-map-cache") {
        for (url, entry) in maps {
            if let Some(data) = entry.get("data").filter(|data| data.is_object()) {
                coverage.source_maps.push((url.clone(), data.clone()));
            }
        }
    }
    Ok(coverage)
}

/// Reads every coverage file in a directory (`coverage-*.json`, one per
/// process that ran with it as `NODE_V8_COVERAGE`), in name order.
pub fn read_dir(dir: &Path) -> Result<Vec<ProcessCoverage>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|error| format!("cannot list {}: {error}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|error| format!("cannot list {}: {error}", dir.display()))?;
        let path = entry.path();
        if path.extension().is_some_and(|ext| ext == "json") {
            paths.push(path);
        }
    }
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path)
                .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
            read_process(&bytes).map_err(|error| {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                format!("the coverage file {name}: {error}")
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_file_scripts_and_leaves_out_nodes_own() {
        let text = br#"{"result":[
            {"scriptId":"1","url":"node:internal/bootstrap/realm","functions":[]},
            {"scriptId":"2","url":"file:///r/ref.mjs","functions":[
                {"functionName":"","ranges":[{"startOffset":0,"endOffset":50,"count":1}],"isBlockCoverage":true},
                {"functionName":"f","ranges":[{"startOffset":5,"endOffset":20,"count":2},
                                              {"startOffset":9,"endOffset":12,"count":0}],"isBlockCoverage":true}]},
            {"scriptId":"3","url":"","functions":[]}],
            "source-map-cache":{"file:///r/ref.mjs":{"url":"ref.mjs.map","data":{"version":3,"sources":[],"mappings":""}}}}"#;
        let coverage = read_process(text).unwrap();
        assert_eq!(coverage.left_out, 2);
        assert_eq!(coverage.scripts.len(), 1);
        let script = &coverage.scripts[0];
        assert_eq!(script.url, "file:///r/ref.mjs");
        assert_eq!(script.functions[1].name, "f");
        assert_eq!(
            script.functions[1].ranges,
            [
                Range {
                    start: 5,
                    end: 20,
                    count: 2
                },
                Range {
                    start: 9,
                    end: 12,
                    count: 0
                }
            ]
        );
        assert_eq!(coverage.source_maps[0].0, "file:///r/ref.mjs");
    }

    #[test]
    fn refuses_what_is_not_v8_coverage_with_a_reason() {
        for (text, why) in [
            (&b"{"[..], "not JSON"),
            (b"{\"results\":[]}", "no `result` array"),
            (b"{\"result\":[{\"url\":\"file:///a\"}]}", "no `functions` array"),
            (
                b"{\"result\":[{\"url\":\"file:///a\",\"functions\":[{\"ranges\":[{\"startOffset\":9,\"endOffset\":2,\"count\":1}]}]}]}",
                "ends before it starts",
            ),
            (
                b"{\"result\":[{\"url\":\"file:///a\",\"functions\":[{\"ranges\":[{\"startOffset\":-1,\"endOffset\":2,\"count\":1}]}]}]}",
                "startOffset is not a whole number",
            ),
            (
                b"{\"result\":[{\"url\":\"file:///a\",\"functions\":[{\"ranges\":[{\"startOffset\":1,\"endOffset\":99999999999,\"count\":1}]}]}]}",
                "past any script's length",
            ),
        ] {
            let error = read_process(text).unwrap_err();
            assert!(error.contains(why), "{error:?} should say {why:?}");
        }
    }
}
