//! What `cmin` prints: the cases that add nothing to their op's
//! coverage (which it would drop; it deletes nothing), a table per op,
//! and the closing line; or the same as JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::json::{case_value, count};
use crate::base::columns;
use crate::base::outside;
use crate::coverage::analysis::CaseInfo;
use crate::coverage::attribution::op_key;
use crate::coverage::cmin::Cover;
use js_exact::{Object, Value};

/// Per op: (cases, kept).
fn by_op<'a>(cases: &'a [CaseInfo], cover: &Cover) -> BTreeMap<&'a str, (usize, usize)> {
    let mut ops: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for case in cases {
        ops.entry(op_key(case)).or_default().0 += 1;
    }
    for &run in &cover.keep {
        ops.entry(op_key(&cases[run])).or_default().1 += 1;
    }
    ops
}

/// The closing line.
pub fn summary_line(cases: usize, cover: &Cover, errors: usize) -> String {
    let mut line = format!(
        "{} of {cases} cases keep the same per-op coverage; {} could be dropped (nothing was deleted)",
        cover.keep.len(),
        cover.drop.len()
    );
    if errors > 0 {
        line.push_str(&format!(
            ", {}",
            crate::report::human::cases(errors, "error")
        ));
    }
    line
}

/// The human report.
pub fn human(cases: &[CaseInfo], cover: &Cover, errors: &[String], quiet: bool) -> String {
    let closing = summary_line(cases.len(), cover, errors.len());
    if quiet {
        return format!("{closing}\n");
    }
    let mut out = String::new();
    if !cover.drop.is_empty() {
        out.push_str("add nothing to their op's coverage:\n");
    }
    for &run in &cover.drop {
        let case = &cases[run];
        let _ = writeln!(
            out,
            "  drop {}:{} {}",
            outside::text(&case.id.file),
            case.line,
            case.id.neutral()
        );
    }
    let ops = by_op(cases, cover);
    let width = ops
        .keys()
        .map(|op| columns::width(&outside::text(&super::shown_op(op))))
        .max()
        .unwrap_or(2)
        .max(2);
    let _ = writeln!(out, "\n{:<width$}  {:>6}  {:>6}", "op", "cases", "kept");
    for (op, (all, kept)) in &ops {
        let _ = writeln!(
            out,
            "{}  {all:>6}  {kept:>6}",
            columns::pad(&outside::text(&super::shown_op(op)), width)
        );
    }
    for error in errors {
        let _ = writeln!(out, "error: {}", outside::text(error));
    }
    let _ = writeln!(out, "{closing}");
    out
}

/// The JSON report.
pub fn json(
    reference: &str,
    cases: &[CaseInfo],
    cover: &Cover,
    errors: &[String],
    exit_code: u8,
) -> Vec<u8> {
    let listed = |runs: &[usize]| -> Vec<Value> {
        runs.iter().map(|&run| case_value(&cases[run])).collect()
    };
    let mut ops = Object::new();
    for (op, (all, kept)) in by_op(cases, cover) {
        ops.insert(
            op,
            Value::Object(
                Object::new()
                    .with("cases", count(all))
                    .with("kept", count(kept)),
            ),
        );
    }
    let report = Object::new()
        .with("version", 1u32)
        .with("command", "cmin")
        .with("reference", reference)
        .with("keep", listed(&cover.keep))
        .with("drop", listed(&cover.drop))
        .with("byOp", ops)
        .with(
            "errors",
            errors
                .iter()
                .map(|e| Value::from(e.as_str()))
                .collect::<Vec<_>>(),
        )
        .with(
            "summary",
            Object::new()
                .with("cases", count(cases.len()))
                .with("kept", count(cover.keep.len()))
                .with("dropped", count(cover.drop.len()))
                .with("errors", count(errors.len()))
                .with("exitCode", u32::from(exit_code)),
        );
    let mut bytes = js_exact::to_json(&Value::Object(report));
    bytes.push(b'\n');
    outside::json_bytes(&bytes).into_owned()
}
