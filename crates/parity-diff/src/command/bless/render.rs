//! What `bless` reports ([`Goldens`]), in its two formats: a line per
//! golden (and the cases that changed), the cases the reference failed
//! on with the end of its stderr, and the closing line ([`Lines`]); or
//! the same as one JSON object ([`Json`]). File names, labels, messages
//! and stderr are outside text: every line writes them in the report
//! notation ([`outside`]).

use std::io::{self, Write};

use super::blessed::{BlessTotals, Blessed, Status};
use crate::base::outside;
use crate::corpus::identity::path_text;
use crate::corpus::Entry;
use crate::report::render::{write_json, Render, Report};
use js_exact::js_object;
use js_exact::{Object, Value};

/// `bless`'s report: each golden's status as it is settled, in corpus
/// order, then the totals.
#[derive(Debug)]
pub struct Goldens;

/// One golden's status.
#[derive(Debug, Clone, Copy)]
pub struct Golden<'a> {
    /// Its case file and golden.
    pub entry: &'a Entry,
    /// What became of it.
    pub blessed: &'a Blessed,
}

impl Report for Goldens {
    type Part<'a> = Golden<'a>;
    type End<'a> = &'a BlessTotals;
}

/// A line per golden, then the closing line.
pub struct Lines {
    /// `--check`: say what would change.
    pub check: bool,
    /// The closing line alone.
    pub quiet: bool,
}

impl Render<Goldens> for Lines {
    fn part(&mut self, out: &mut dyn Write, part: Golden<'_>) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        out.write_all(status_line(part.entry, part.blessed, self.check).as_bytes())
    }

    fn finish(&mut self, out: &mut dyn Write, totals: &BlessTotals) -> io::Result<()> {
        writeln!(out, "{}", totals.summary_line())
    }
}

/// One JSON object: `{"files":[…],"summary":{…}}`.
#[derive(Default)]
pub struct Json {
    files: Vec<Value>,
}

impl Render<Goldens> for Json {
    fn part(&mut self, _out: &mut dyn Write, part: Golden<'_>) -> io::Result<()> {
        self.files.push(status_json(part.entry, part.blessed));
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, totals: &BlessTotals) -> io::Result<()> {
        let summary = js_object! {
            "added" => totals.added as f64,
            "changed" => totals.changed as f64,
            "unchanged" => totals.unchanged as f64,
            "orphaned" => totals.orphaned as f64,
            "errors" => totals.errors as f64,
            "failedCases" => totals.failed_cases as f64,
            "written" => !totals.check,
            "exitCode" => f64::from(totals.exit_code()),
        };
        let files = std::mem::take(&mut self.files);
        write_json(out, &js_object! { "files" => files, "summary" => summary })
    }
}

fn plural(count: usize) -> String {
    crate::report::human::cases(count, "case")
}

/// `    | line` for each line of a stderr, when it has any.
fn stderr_block(stderr: Option<&str>, indent: &str) -> String {
    let mut block = String::new();
    if let Some(stderr) = stderr.map(str::trim_end).filter(|s| !s.is_empty()) {
        block.push_str(&format!("{indent}stderr:\n"));
        for text in outside::lines(stderr) {
            block.push_str(&format!("{indent}| {text}\n"));
        }
    }
    block
}

fn status_line(entry: &Entry, blessed: &Blessed, check: bool) -> String {
    let mut line = golden_line(entry, &blessed.status, check);
    let kept = if matches!(blessed.status, Status::Error { .. }) {
        ""
    } else {
        "; its golden element is left as it was"
    };
    for failed in &blessed.failed {
        line.push_str(&format!(
            "    ERROR {} ({}): {}{kept}\n",
            outside::text(&failed.label),
            failed.kind,
            outside::text(&failed.message)
        ));
        line.push_str(&stderr_block(failed.stderr.as_deref(), "        "));
    }
    for together in &blessed.together {
        line.push_str(&format!("    ERROR {}\n", outside::text(together)));
    }
    line
}

fn golden_line(entry: &Entry, status: &Status, check: bool) -> String {
    let verb = |now: &'static str, later: &'static str| if check { later } else { now };
    let name = outside::text(&entry.name);
    match status {
        Status::Added { cases } => {
            format!(
                "{:<10} {} ({})\n",
                verb("added", "to add"),
                name,
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
                name,
                plural(*cases)
            );
            for label in changed {
                line.push_str(&format!("    {}\n", outside::text(label)));
            }
            if *count > changed.len() {
                line.push_str(&format!("    … and {} more\n", count - changed.len()));
            }
            line
        }
        Status::Unchanged { cases } => {
            format!("{:<10} {} ({})\n", "unchanged", name, plural(*cases))
        }
        Status::Orphaned => format!(
            "{:<10} {} (no case file {}; delete the golden or restore the cases)\n",
            "orphaned",
            outside::text(&path_text(&entry.golden_path)),
            outside::text(&path_text(&entry.case_path))
        ),
        Status::Error { message, stderr } => {
            let line = format!("{:<10} {}: {}\n", "ERROR", name, outside::text(message));
            line + &stderr_block(stderr.as_deref(), "    ")
        }
    }
}

fn status_json(entry: &Entry, blessed: &Blessed) -> Value {
    let object = Object::new()
        .with("name", entry.name.as_str())
        .with("golden", path_text(&entry.golden_path));
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
