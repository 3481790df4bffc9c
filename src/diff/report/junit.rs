//! The report as JUnit XML, for CI dashboards: one `<testsuite>` per file
//! and one `<testcase>` per case.
//!
//! A test case is named by the case's identity (`argv.json "cliArgs:
//! every option set"`, or `argv.json #3fa2c91b0d7e` for a case without a
//! name), never by its position, so that inserting a case does not rename
//! the ones after it; it carries `file` (the case file's path) and `line`
//! (where the case starts). A failing case carries a `<failure>` with its
//! summary as the message and its details as the text; an accepted case
//! passes, with its ledger entry in `<system-out>`; a file that could not
//! be compared is one test case with an `<error>`; a missing or orphaned
//! golden is one test case with a `<failure>`. A last, empty suite carries
//! the counts per op as properties.
//!
//! Suites wait in a spool until the end, since the root element carries
//! the totals.

use std::io::{self, Write};

use super::spool::Spool;
use super::{detail, Aggregates, FileInfo, Problem, Render, Tally};
use crate::diff::record::{CaseRecord, CaseState};
use crate::js::Value;

/// How many diff lines a failure's text keeps.
const DIFF_LINES: usize = 60;

/// The JUnit format.
#[derive(Default)]
pub struct Junit {
    /// The current case file's path.
    path: Option<String>,
    suites: Spool,
    cases: Spool,
    tests: usize,
    failures: usize,
    errors: usize,
    all_tests: usize,
    all_failures: usize,
    all_errors: usize,
}

/// Text made safe for XML: markup characters escaped, and characters XML
/// 1.0 cannot carry written as `\u{..}`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

fn element(tag: &str, kind: &str, message: &str, text: &str) -> String {
    format!(
        "      <{tag} type=\"{}\" message=\"{}\">{}</{tag}>\n",
        escape(kind),
        escape(message),
        escape(text)
    )
}

impl Junit {
    fn testcase(
        &mut self,
        name: &str,
        classname: &str,
        place: Option<(&str, Option<usize>)>,
        body: &str,
    ) -> io::Result<()> {
        self.tests += 1;
        let mut line = format!(
            "    <testcase name=\"{}\" classname=\"{}\"",
            escape(name),
            escape(classname)
        );
        if let Some((file, number)) = place {
            line.push_str(&format!(" file=\"{}\"", escape(file)));
            if let Some(number) = number {
                line.push_str(&format!(" line=\"{number}\""));
            }
        }
        if body.is_empty() {
            line.push_str("/>\n");
        } else {
            line.push_str(&format!(">\n{body}    </testcase>\n"));
        }
        self.cases.append(line.as_bytes())?;
        Ok(())
    }
}

fn suite_name(file: &FileInfo) -> &str {
    file.name.as_deref().unwrap_or("parity-diff")
}

impl Render for Junit {
    fn begin_file(&mut self, _out: &mut dyn Write, file: &FileInfo) -> io::Result<()> {
        self.path = file.path.clone();
        self.tests = 0;
        self.failures = 0;
        self.errors = 0;
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let body = match record.state {
            CaseState::Passed => String::new(),
            CaseState::Accepted => format!(
                "      <system-out>{}</system-out>\n",
                escape(&format!(
                    "accepted by the ledger: {}",
                    detail::entry_text(record).unwrap_or_default()
                ))
            ),
            CaseState::Error => {
                self.errors += 1;
                let text = detail::plain(&detail::lines(record, DIFF_LINES));
                element("error", record.verdict.name(), &record.summary, &text)
            }
            state => {
                self.failures += 1;
                let text = detail::plain(&detail::lines(record, DIFF_LINES));
                let (kind, message) = match state {
                    CaseState::Failed => (record.verdict.name(), record.summary.clone()),
                    state => (
                        state.name(),
                        format!("{}: {}", state.name(), record.summary),
                    ),
                };
                element("failure", kind, &message, &text)
            }
        };
        let path = self.path.clone();
        self.testcase(
            &record.id.to_string(),
            &record.file,
            path.as_deref().map(|path| (path, record.line)),
            &body,
        )
    }

    fn problem(
        &mut self,
        _out: &mut dyn Write,
        file: &FileInfo,
        problem: &Problem,
    ) -> io::Result<()> {
        let name = suite_name(file);
        let body = match problem {
            Problem::MissingGolden { golden } => {
                self.failures += 1;
                element(
                    "failure",
                    "missing golden",
                    &format!("no golden at {}", golden.display()),
                    "",
                )
            }
            Problem::OrphanGolden { golden } => {
                self.failures += 1;
                element(
                    "failure",
                    "orphaned golden",
                    &format!("{} has no case file", golden.display()),
                    "",
                )
            }
            Problem::Error {
                message, stderr, ..
            } => {
                self.errors += 1;
                element("error", "error", message, stderr.as_deref().unwrap_or(""))
            }
        };
        let place = file.path.as_deref().map(|path| (path, None));
        self.testcase(name, name, place, &body)
    }

    fn end_file(
        &mut self,
        _out: &mut dyn Write,
        file: &FileInfo,
        _tally: &Tally,
    ) -> io::Result<()> {
        let head = format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">\n",
            escape(suite_name(file)),
            self.tests,
            self.failures,
            self.errors
        );
        self.suites.append(head.as_bytes())?;
        self.cases.drain_to(&mut self.suites)?;
        self.suites.append(b"  </testsuite>\n")?;
        self.all_tests += self.tests;
        self.all_failures += self.failures;
        self.all_errors += self.errors;
        Ok(())
    }

    fn finish(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        _extra: Option<(&str, Value)>,
    ) -> io::Result<()> {
        write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"parity-diff\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n",
            self.all_tests, self.all_failures, self.all_errors
        )?;
        self.suites.drain_to(out)?;
        if !aggregates.by_op.is_empty() {
            writeln!(
                out,
                "  <testsuite name=\"parity-diff: per op\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n    <properties>"
            )?;
            for (op, tally) in &aggregates.by_op {
                let tally = tally.tally;
                for (what, value) in [
                    ("passed", tally.passed),
                    ("accepted", tally.accepted),
                    ("failed", tally.failed),
                ] {
                    writeln!(
                        out,
                        "      <property name=\"op.{}.{what}\" value=\"{value}\"/>",
                        escape(op)
                    )?;
                }
            }
            writeln!(out, "    </properties>\n  </testsuite>")?;
        }
        out.write_all(b"</testsuites>\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("x\u{1b}[31m\ty"), "x\\u{1b}[31m\ty");
    }
}
