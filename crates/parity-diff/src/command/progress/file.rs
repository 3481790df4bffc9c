//! The progress file: JSON written with stable keys and lines (suites and
//! ops sorted, one op per line), so that a pull request's diff of it
//! shows exactly the ops that moved; and read back, from disk or from a
//! version git keeps.
//!
//! ```text
//! {
//!   "version": 1,
//!   "commit": "…40 hex…" | null,
//!   "suites": {
//!     "SUITE": {
//!       "total": {"cases": N, "passing": N, "acceptedEntries": N, "acceptedRules": N, "failing": N},
//!       "ops": {
//!         "OP": {"cases": N, "passing": N, "acceptedEntries": N, "acceptedRules": N, "failing": N}
//!       }
//!     }
//!   }
//! }
//! ```

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Counts, Progress};
use crate::base::error::InputError;
use crate::base::outside;

/// The format's version.
pub const VERSION: u64 = 1;

/// The most a version of the file may hold (on disk or in git): far
/// more than any port's ops need, and it keeps a hostile history from
/// filling memory.
pub const MAX_BYTES: u64 = crate::base::files::input::PROGRESS.max;

fn counts_json(counts: &Counts) -> String {
    let fields: Vec<String> = counts
        .fields()
        .iter()
        .map(|(name, value)| format!("\"{name}\": {value}"))
        .collect();
    format!("{{{}}}", fields.join(", "))
}

/// The file's text. Names are JSON strings made neutral (the same value),
/// so a hostile op name stays on its line.
pub fn render(progress: &Progress) -> String {
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"version\": {VERSION},\n"));
    let commit = match &progress.commit {
        Some(commit) => outside::json_string(commit),
        None => "null".to_owned(),
    };
    out.push_str(&format!("  \"commit\": {commit},\n"));
    if progress.suites.is_empty() {
        out.push_str("  \"suites\": {}\n}\n");
        return out;
    }
    out.push_str("  \"suites\": {\n");
    let last_suite = progress.suites.len() - 1;
    for (at, (suite, ops)) in progress.suites.iter().enumerate() {
        out.push_str(&format!("    {}: {{\n", outside::json_string(suite)));
        let total = counts_json(&progress.suite_total(suite));
        out.push_str(&format!("      \"total\": {total},\n"));
        if ops.is_empty() {
            out.push_str("      \"ops\": {}\n");
        } else {
            out.push_str("      \"ops\": {\n");
            let last_op = ops.len() - 1;
            for (at, (op, counts)) in ops.iter().enumerate() {
                let comma = if at == last_op { "" } else { "," };
                let name = outside::json_string(op);
                out.push_str(&format!("        {name}: {}{comma}\n", counts_json(counts)));
            }
            out.push_str("      }\n");
        }
        out.push_str(if at == last_suite {
            "    }\n"
        } else {
            "    },\n"
        });
    }
    out.push_str("  }\n}\n");
    out
}

/// Reads a file's text; `name` says which file (or version) in errors.
pub fn parse(bytes: &[u8], name: &str) -> Result<Progress, InputError> {
    let bad = |what: String| InputError::new(format!("{name}: not a progress file: {what}"));
    if bytes.len() as u64 > MAX_BYTES {
        return Err(bad(format!("larger than {MAX_BYTES} bytes")));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|error| bad(error.to_string()))?;
    let Value::Object(top) = value else {
        return Err(bad("not a JSON object".into()));
    };
    match top.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(other) => {
            return Err(bad(format!(
                "version {other} (this parity-diff reads version {VERSION})"
            )))
        }
        None => return Err(bad("no \"version\" number".into())),
    }
    let commit = match top.get("commit") {
        None | Some(Value::Null) => None,
        Some(Value::String(commit)) => Some(commit.clone()),
        Some(_) => return Err(bad("\"commit\" is neither a string nor null".into())),
    };
    let Some(Value::Object(suites)) = top.get("suites") else {
        return Err(bad("no \"suites\" object".into()));
    };
    let mut progress = Progress {
        commit,
        suites: BTreeMap::new(),
    };
    for (suite, value) in suites {
        // Quoted as config errors quote names; main makes the line neutral.
        let shown = format!("{suite:?}");
        let Some(Value::Object(ops)) = value.get("ops") else {
            return Err(bad(format!("suite {shown} has no \"ops\" object")));
        };
        let mut counted = BTreeMap::new();
        for (op, value) in ops {
            let counts = read_counts(value)
                .ok_or_else(|| bad(format!("suite {shown}, op {op:?}: not five whole counts")))?;
            counted.insert(op.clone(), counts);
        }
        progress.suites.insert(suite.clone(), counted);
    }
    Ok(progress)
}

fn read_counts(value: &Value) -> Option<Counts> {
    let field = |name: &str| value.get(name).and_then(Value::as_u64);
    Some(Counts {
        cases: field("cases")?,
        passing: field("passing")?,
        accepted_entries: field("acceptedEntries")?,
        accepted_rules: field("acceptedRules")?,
        failing: field("failing")?,
    })
}
