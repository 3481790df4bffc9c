//! What `bless` prints about each case file: a line per golden (and the
//! cases that changed), the cases the reference failed on with the end
//! of its stderr; or the same as a JSON object.

use super::{Blessed, Status};
use crate::diff::corpus::Entry;
use crate::js::{Object, Value};

fn plural(count: usize) -> String {
    crate::diff::report::human::cases(count, "case")
}

/// `    | line` for each line of a stderr, when it has any.
fn stderr_block(stderr: Option<&str>, indent: &str) -> String {
    let mut block = String::new();
    if let Some(stderr) = stderr.map(str::trim_end).filter(|s| !s.is_empty()) {
        block.push_str(&format!("{indent}stderr:\n"));
        for text in stderr.lines() {
            block.push_str(&format!("{indent}| {text}\n"));
        }
    }
    block
}

pub(super) fn status_line(entry: &Entry, blessed: &Blessed, check: bool) -> String {
    let mut line = golden_line(entry, &blessed.status, check);
    let kept = if matches!(blessed.status, Status::Error { .. }) {
        ""
    } else {
        "; its golden element is left as it was"
    };
    for failed in &blessed.failed {
        line.push_str(&format!(
            "    ERROR {} ({}): {}{kept}\n",
            failed.label, failed.kind, failed.message
        ));
        line.push_str(&stderr_block(failed.stderr.as_deref(), "        "));
    }
    for together in &blessed.together {
        line.push_str(&format!("    ERROR {together}\n"));
    }
    line
}

fn golden_line(entry: &Entry, status: &Status, check: bool) -> String {
    let verb = |now: &'static str, later: &'static str| if check { later } else { now };
    match status {
        Status::Added { cases } => {
            format!(
                "{:<10} {} ({})\n",
                verb("added", "to add"),
                entry.name,
                plural(*cases)
            )
        }
        Status::Changed {
            changed,
            count,
            cases,
        } => {
            let mut line = format!(
                "{:<10} {} ({count} of {})\n",
                verb("changed", "to change"),
                entry.name,
                plural(*cases)
            );
            for label in changed {
                line.push_str(&format!("    {label}\n"));
            }
            if *count > changed.len() {
                line.push_str(&format!("    … and {} more\n", count - changed.len()));
            }
            line
        }
        Status::Unchanged { cases } => {
            format!("{:<10} {} ({})\n", "unchanged", entry.name, plural(*cases))
        }
        Status::Orphaned => format!(
            "{:<10} {} (no case file {}; delete the golden or restore the cases)\n",
            "orphaned",
            entry.golden_path.display(),
            entry.case_path.display()
        ),
        Status::Error { message, stderr } => {
            let line = format!("{:<10} {}: {message}\n", "ERROR", entry.name);
            line + &stderr_block(stderr.as_deref(), "    ")
        }
    }
}

pub(super) fn status_json(entry: &Entry, blessed: &Blessed) -> Value {
    let object = Object::new()
        .with("name", entry.name.as_str())
        .with("golden", entry.golden_path.display().to_string());
    let failed: Vec<Value> = blessed
        .failed
        .iter()
        .map(|failed| {
            Value::Object(
                Object::new()
                    .with("index", failed.index as f64)
                    .with("label", failed.label.as_str())
                    .with("verdict", failed.kind.as_str())
                    .with("message", failed.message.as_str())
                    .with("stderr", failed.stderr.as_deref()),
            )
        })
        .collect();
    let together: Vec<Value> = blessed
        .together
        .iter()
        .map(|text| Value::from(text.as_str()))
        .collect();
    let object = match &blessed.status {
        Status::Added { cases } => object.with("status", "added").with("cases", *cases as f64),
        Status::Changed {
            changed,
            count,
            cases,
        } => object
            .with("status", "changed")
            .with("cases", *cases as f64)
            .with("changedCases", *count as f64)
            .with(
                "changed",
                changed
                    .iter()
                    .map(|l| Value::from(l.as_str()))
                    .collect::<Vec<_>>(),
            ),
        Status::Unchanged { cases } => object
            .with("status", "unchanged")
            .with("cases", *cases as f64),
        Status::Orphaned => object.with("status", "orphaned"),
        Status::Error { message, stderr } => object
            .with("status", "error")
            .with("message", message.as_str())
            .with("stderr", stderr.as_deref()),
    };
    Value::Object(
        object
            .with("failedCases", failed)
            .with("together", together),
    )
}
