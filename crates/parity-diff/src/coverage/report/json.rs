//! The JSON report (format version 1): everything the other formats
//! show, and for every span the cases that reached it (as `[from, to)`
//! ranges of case numbers: the cases of one op stand together), so that
//! a script can ask which cases reach what.

use crate::base::outside;
use crate::corpus::identity::CaseKey;
use crate::coverage::analysis::{Analysis, CaseInfo};
use js_exact::{Object, Value};

pub(super) fn count(n: usize) -> Value {
    Value::from(n as f64)
}

/// A case: its identity members (`file`, then `name` or `hash`, as in
/// the run report), its op and its line.
pub(super) fn case_value(case: &CaseInfo) -> Value {
    let object = Object::new().with("file", case.id.file.as_str());
    let object = match &case.id.key {
        CaseKey::Name(name) => object.with("name", name.as_str()),
        CaseKey::Hash(hash) => object.with("hash", hash.as_str()),
    };
    Value::Object(
        object
            .with("op", case.op.as_deref())
            .with("line", count(case.line)),
    )
}

fn cases(analysis: &Analysis) -> Value {
    Value::from(analysis.cases.iter().map(case_value).collect::<Vec<_>>())
}

fn scripts(analysis: &Analysis) -> Value {
    let scripts: Vec<Value> = analysis
        .scripts
        .iter()
        .map(|script| {
            let functions: Vec<Value> = script
                .spans
                .functions
                .iter()
                .map(|function| {
                    Value::Object(
                        Object::new()
                            .with("name", function.name.as_str())
                            .with("path", function.path.as_str())
                            .with("start", Value::from(function.start))
                            .with("end", Value::from(function.end))
                            .with("at", script.location(function.start).to_string()),
                    )
                })
                .collect();
            let spans: Vec<Value> = script
                .spans
                .spans
                .iter()
                .map(|span| {
                    let reached: Vec<Value> = span
                        .reach
                        .ranges()
                        .into_iter()
                        .map(|(from, to)| Value::from(vec![count(from), count(to)]))
                        .collect();
                    let key = script.key(span);
                    Value::Object(
                        Object::new()
                            .with("function", count(span.function))
                            .with("start", Value::from(span.start))
                            .with("end", Value::from(span.end))
                            .with("at", script.location(span.start).to_string())
                            .with("hash", key.hash)
                            .with("text", script.text(span))
                            .with("cases", count(span.reach.len()))
                            .with("reachedBy", reached),
                    )
                })
                .collect();
            Value::Object(
                Object::new()
                    .with("url", script.url.as_str())
                    .with("name", script.name.as_str())
                    .with("sourceMap", script.map.is_some())
                    .with("sourceMapError", script.map_error.as_deref())
                    .with("functions", functions)
                    .with("spans", spans),
            )
        })
        .collect();
    Value::from(scripts)
}

/// The whole report, neutral JSON bytes.
pub fn render(analysis: &Analysis) -> Vec<u8> {
    let mut by_op = Object::new();
    for row in &analysis.by_op {
        by_op.insert(
            row.op.as_str(),
            Value::Object(
                Object::new()
                    .with("cases", count(row.cases))
                    .with("functions", count(row.functions))
                    .with("spans", count(row.spans))
                    .with("reached", count(row.reached))
                    .with("neverRun", count(row.never_run))
                    .with("otherOps", count(row.others())),
            ),
        );
    }
    let never_run: Vec<Value> = analysis
        .unrun
        .iter()
        .map(|unrun| {
            let (script, span) = analysis.span_of(unrun);
            Value::Object(
                Object::new()
                    .with("script", count(unrun.script))
                    .with("span", count(unrun.span))
                    .with("function", unrun.key.function.as_str())
                    .with("hash", unrun.key.hash.as_str())
                    .with("at", script.location(span.start).to_string())
                    .with("allowlisted", unrun.allowed.as_deref()),
            )
        })
        .collect();
    let stale: Vec<Value> = analysis
        .stale
        .iter()
        .map(|entry| {
            Value::Object(
                Object::new()
                    .with("function", entry.key.function.as_str())
                    .with("hash", entry.key.hash.as_str())
                    .with("line", count(entry.line))
                    .with("reason", entry.reason.as_str()),
            )
        })
        .collect();
    let errors: Vec<Value> = analysis
        .errors
        .iter()
        .map(|error| Value::from(error.as_str()))
        .collect();
    let totals = &analysis.totals;
    let summary = Object::new()
        .with("cases", count(totals.cases))
        .with("spans", count(totals.spans))
        .with("reached", count(totals.reached))
        .with("neverRun", count(totals.never_run))
        .with("allowlisted", count(totals.allowlisted))
        .with("notAllowlisted", count(totals.not_allowlisted()))
        .with("stale", count(totals.stale))
        .with("errors", count(totals.errors))
        .with("exitCode", u32::from(totals.exit_code()));
    let report = Object::new()
        .with("version", 1u32)
        .with("command", "coverage")
        .with("reference", analysis.reference.as_str())
        .with("check", totals.check)
        .with("allowlist", analysis.allowlist.as_deref())
        .with("cases", cases(analysis))
        .with("scripts", scripts(analysis))
        .with("byOp", by_op)
        .with("neverRun", never_run)
        .with("stale", stale)
        .with("errors", errors)
        .with("summary", summary);
    let mut bytes = js_exact::to_json(&Value::Object(report));
    bytes.push(b'\n');
    outside::json_bytes(&bytes).into_owned()
}
