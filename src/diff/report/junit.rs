//! The report as JUnit XML, for CI dashboards: one `<testsuite>` per file
//! and one `<testcase>` per case. A failing case carries a `<failure>`
//! with its summary as the message and its details as the text; a file
//! that could not be compared is one test case with an `<error>`; a
//! missing or orphaned golden is one test case with a `<failure>`.

use std::io::{self, Write};

use super::{FileTally, Problem, Render, Totals};
use crate::diff::view::CaseView;

/// The JUnit format. Suites are held until the end, since the root
/// element carries the totals.
#[derive(Default)]
pub struct Junit {
    suites: Vec<u8>,
    name: String,
    cases: Vec<u8>,
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

impl Junit {
    fn testcase(&mut self, name: &str, body: &str) {
        self.tests += 1;
        let _ = write!(
            self.cases,
            "    <testcase name=\"{}\" classname=\"{}\"",
            escape(name),
            escape(&self.name)
        );
        if body.is_empty() {
            self.cases.extend_from_slice(b"/>\n");
        } else {
            let _ = write!(self.cases, ">\n{body}    </testcase>\n");
        }
    }
}

fn element(tag: &str, kind: &str, message: &str, text: &str) -> String {
    format!(
        "      <{tag} type=\"{}\" message=\"{}\">{}</{tag}>\n",
        escape(kind),
        escape(message),
        escape(text)
    )
}

impl Render for Junit {
    fn begin_file(&mut self, _out: &mut dyn Write, name: Option<&str>) -> io::Result<()> {
        self.name = name.unwrap_or("parity-diff").to_owned();
        self.cases.clear();
        self.tests = 0;
        self.failures = 0;
        self.errors = 0;
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, view: &CaseView) -> io::Result<()> {
        let body = if view.passes {
            String::new()
        } else {
            self.failures += 1;
            element(
                "failure",
                view.outcome.comparison.verdict.name(),
                &view.summary,
                &view.plain_details(),
            )
        };
        self.testcase(&view.label, &body);
        Ok(())
    }

    fn problem(&mut self, _out: &mut dyn Write, name: &str, problem: &Problem) -> io::Result<()> {
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
        self.testcase(name, &body);
        Ok(())
    }

    fn end_file(&mut self, _out: &mut dyn Write, _tally: FileTally) -> io::Result<()> {
        let _ = writeln!(
            self.suites,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">",
            escape(&self.name),
            self.tests,
            self.failures,
            self.errors
        );
        self.suites.append(&mut self.cases);
        self.suites.extend_from_slice(b"  </testsuite>\n");
        self.all_tests += self.tests;
        self.all_failures += self.failures;
        self.all_errors += self.errors;
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, _totals: &Totals) -> io::Result<()> {
        write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"parity-diff\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n",
            self.all_tests, self.all_failures, self.all_errors
        )?;
        out.write_all(&self.suites)?;
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
