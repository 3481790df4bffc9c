//! `parity-diff bless`: regenerates goldens from a reference oracle.
//!
//! Each case file goes through the reference command; its output, one
//! element per line (the golden format, every element's bytes exactly as
//! printed), replaces the golden when it differs. Writes are atomic (a
//! temporary file in the golden's own directory, renamed over it), keep
//! the golden's permission bits, and never go through a symbolic link
//! ([`files::write_atomic`](super::files::write_atomic)). With
//! `--check` nothing is written and the exit status says whether
//! anything would change. In CI (the `CI` variable set) writing is
//! refused unless forced, so a pipeline cannot quietly bless its own
//! output.

use std::fs;
use std::io::Write;

use super::arrays::{self, InputError};
use super::cases::CaseFile;
use super::corpus::{Corpus, Entry};
use super::golden::{golden_from_output, split_elements};
use super::oracle::{Oracle, OracleOptions};
use super::record::build::label;
use super::redact::Secrets;
use super::report::Format;
use crate::js::{Object, Value};
use crate::js_object;

/// The `bless` command's inputs.
#[derive(Debug, Clone)]
pub struct BlessArgs {
    /// The reference oracle command.
    pub reference: String,
    /// The corpus.
    pub corpus: Corpus,
    /// Write nothing; exit 1 when anything would change.
    pub check: bool,
    /// Write even in CI.
    pub force: bool,
    /// How long one reference run may take, and how much it may print.
    pub limits: OracleOptions,
    /// Human or JSON.
    pub format: Format,
    /// The closing line alone.
    pub quiet: bool,
}

/// What happened to one golden.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Written where there was none.
    Added {
        /// How many cases it holds.
        cases: usize,
    },
    /// Rewritten.
    Changed {
        /// Labels of the cases whose bytes changed, the first ten.
        changed: Vec<String>,
        /// How many cases changed.
        count: usize,
        /// How many cases it holds now.
        cases: usize,
    },
    /// Already what the reference prints.
    Unchanged {
        /// How many cases it holds.
        cases: usize,
    },
    /// A golden whose case file is gone (never deleted by bless).
    Orphaned,
    /// The reference could not be run, or the golden not written.
    Error {
        /// What went wrong.
        message: String,
        /// The reference's stderr.
        stderr: Option<String>,
    },
}

/// The counts of a bless.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BlessTotals {
    /// Goldens added.
    pub added: usize,
    /// Goldens changed.
    pub changed: usize,
    /// Goldens left alone.
    pub unchanged: usize,
    /// Goldens without a case file.
    pub orphaned: usize,
    /// Files that failed.
    pub errors: usize,
    /// Whether this was `--check`.
    pub check: bool,
}

impl BlessTotals {
    /// 2 on any error; with `--check`, 1 when anything would change or
    /// is orphaned; else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.check && self.added + self.changed + self.orphaned > 0 {
            1
        } else {
            0
        }
    }

    /// The closing line.
    pub fn summary_line(&self) -> String {
        let mut line = if self.check {
            format!(
                "check: {} to add, {} to change, {} unchanged, {} orphaned",
                self.added, self.changed, self.unchanged, self.orphaned
            )
        } else {
            format!(
                "{} added, {} changed, {} unchanged, {} orphaned",
                self.added, self.changed, self.unchanged, self.orphaned
            )
        };
        if self.errors > 0 {
            line.push_str(&format!(", {} errors", self.errors));
        }
        line
    }
}

/// Labels of the cases whose bytes differ between two goldens.
fn changed_cases(old: &[u8], new: &[u8], cases: &CaseFile) -> (Vec<String>, usize) {
    let (Ok(old), Ok(new)) = (split_elements(old), split_elements(new)) else {
        return (vec!["(the old golden is not a JSON array)".into()], 1);
    };
    let mut labels = Vec::new();
    let mut count = 0;
    for index in 0..old.len().max(new.len()) {
        if old.get(index) != new.get(index) {
            count += 1;
            if labels.len() < 10 {
                labels.push(match cases.items.get(index) {
                    Some(item) => label(index, item.op.as_deref(), &item.id),
                    None => format!("#{index}"),
                });
            }
        }
    }
    (labels, count)
}

fn bless_file(entry: &Entry, args: &BlessArgs) -> Status {
    let error = |message: String, stderr: Option<String>| Status::Error { message, stderr };
    if let Some(broken) = &entry.broken {
        return error(broken.clone(), None);
    }
    if entry.golden_path.is_dir() {
        return error(
            format!(
                "golden {} is a directory, not a file",
                entry.golden_path.display()
            ),
            None,
        );
    }
    let case_bytes = match arrays::read_file("case file", &entry.case_path) {
        Ok(bytes) => bytes,
        Err(failure) => return error(failure.message, None),
    };
    let oracle = Oracle::Command(args.reference.clone());
    let output = match oracle.run(&case_bytes, args.limits) {
        Ok(output) => output,
        Err(failure) => {
            let secrets = Secrets::of_case_file(&case_bytes);
            return error(
                failure.message,
                failure.stderr.map(|text| secrets.mask_quoted_text(&text)),
            );
        }
    };
    let Ok(new) = golden_from_output(&output) else {
        return error("the reference printed no JSON array".into(), None);
    };
    let cases_count = split_elements(&new).map_or(0, |elements| elements.len());
    let status = match fs::read(&entry.golden_path) {
        Ok(old) if old == new => return Status::Unchanged { cases: cases_count },
        Ok(old) => {
            let cases = CaseFile::read(&entry.name, case_bytes);
            let (changed, count) = changed_cases(&old, &new, &cases);
            Status::Changed {
                changed,
                count,
                cases: cases_count,
            }
        }
        Err(failure) if failure.kind() == std::io::ErrorKind::NotFound => {
            Status::Added { cases: cases_count }
        }
        Err(failure) => {
            return error(
                format!(
                    "cannot read golden {}: {failure}",
                    entry.golden_path.display()
                ),
                None,
            )
        }
    };
    if !args.check {
        if let Err(failure) = super::files::write_atomic(&entry.golden_path, &new) {
            return error(
                format!("cannot write {}: {failure}", entry.golden_path.display()),
                None,
            );
        }
    }
    status
}

/// Runs `bless`; `in_ci` is whether the `CI` variable is set.
pub fn bless_command(
    args: &BlessArgs,
    in_ci: bool,
    mut out: impl Write,
) -> Result<BlessTotals, InputError> {
    if in_ci && !args.check && !args.force {
        return Err(InputError::new(
            "refusing to write goldens in CI (the CI environment variable is set); \
             use --check to compare, or --force to write anyway",
        ));
    }
    let files = args.corpus.case_files()?;
    let orphans = args.corpus.orphans()?;
    let mut totals = BlessTotals {
        check: args.check,
        ..BlessTotals::default()
    };
    let mut json_files = Vec::new();
    let results = files
        .iter()
        .map(|entry| (entry, bless_file(entry, args)))
        .chain(orphans.iter().map(|entry| (entry, Status::Orphaned)));
    for (entry, status) in results {
        match &status {
            Status::Added { .. } => totals.added += 1,
            Status::Changed { .. } => totals.changed += 1,
            Status::Unchanged { .. } => totals.unchanged += 1,
            Status::Orphaned => totals.orphaned += 1,
            Status::Error { .. } => totals.errors += 1,
        }
        match args.format {
            Format::Json => json_files.push(status_json(entry, &status)),
            _ if args.quiet => {}
            _ => out.write_all(status_line(entry, &status, args.check).as_bytes())?,
        }
    }
    if args.format == Format::Json {
        let summary = js_object! {
            "added" => totals.added as f64,
            "changed" => totals.changed as f64,
            "unchanged" => totals.unchanged as f64,
            "orphaned" => totals.orphaned as f64,
            "errors" => totals.errors as f64,
            "written" => !args.check,
            "exitCode" => f64::from(totals.exit_code()),
        };
        let mut bytes = crate::js::to_json(&js_object! {
            "files" => json_files,
            "summary" => summary,
        });
        bytes.push(b'\n');
        out.write_all(&bytes)?;
    } else {
        writeln!(out, "{}", totals.summary_line())?;
    }
    Ok(totals)
}

fn plural(count: usize) -> String {
    super::report::human::cases(count, "case")
}

fn status_line(entry: &Entry, status: &Status, check: bool) -> String {
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
            let mut line = format!("{:<10} {}: {message}\n", "ERROR", entry.name);
            if let Some(stderr) = stderr
                .as_deref()
                .map(str::trim_end)
                .filter(|s| !s.is_empty())
            {
                line.push_str("    stderr:\n");
                for text in stderr.lines() {
                    line.push_str(&format!("    | {text}\n"));
                }
            }
            line
        }
    }
}

fn status_json(entry: &Entry, status: &Status) -> Value {
    let object = Object::new()
        .with("name", entry.name.as_str())
        .with("golden", entry.golden_path.display().to_string());
    let object = match status {
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
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals() {
        let mut totals = BlessTotals {
            unchanged: 2,
            orphaned: 1,
            ..BlessTotals::default()
        };
        assert_eq!(totals.exit_code(), 0);
        assert_eq!(
            totals.summary_line(),
            "0 added, 0 changed, 2 unchanged, 1 orphaned"
        );
        totals.check = true;
        assert_eq!(totals.exit_code(), 1);
        totals.errors = 1;
        assert_eq!(totals.exit_code(), 2);
    }

    #[test]
    fn changed_case_labels() {
        let cases = CaseFile::read("f.json", br#"[null,{"op":"x","name":"n"}]"#.to_vec());
        let (labels, count) = changed_cases(b"[1,2,3]", b"[1,5]", &cases);
        assert_eq!(labels, ["#1 x \"n\"", "#2"]);
        assert_eq!(count, 2);
    }
}
