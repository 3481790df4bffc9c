//! The report as JUnit XML, for CI dashboards: one `<testsuite>` per file
//! and one `<testcase>` per case.
//!
//! A test case is named by the case's identity (`sums.json "sum:
//! every value set"`, or `sums.json #3fa2c91b0d7e` for a case without a
//! name), never by its position, so that inserting a case does not rename
//! the ones after it; it carries `file` (the case file's path) and `line`
//! (where the case starts). A failing case carries a `<failure>` with its
//! summary as the message and its details as the text; an accepted or
//! triaged case is `<skipped>`, what its entry or rule says (and its
//! link) the message, so that a dashboard counts as passed only the
//! identical cases while `failures` stays 0 for a green run; a file that could not
//! be compared is one test case with an `<error>`; a missing or orphaned
//! golden is one test case with a `<failure>`. The ledger's own failures
//! (orphaned entries, stale and orphaned rules) are one suite, `parity-diff:
//! ledger`, a test case with a `<failure>` each, so that a run failing on
//! them alone is not green here. A last, empty suite carries the counts
//! per op as properties.
//!
//! Suites wait in a spool until the end, since the root element carries
//! the totals.

use std::io::{self, Write};

use super::spool::Spool;
use super::LedgerChanges;
use super::{detail, Aggregates, FileInfo, Needs, Problem, RecordFormat, RecordHandlers, Tally};
use crate::base::outside;
use crate::judge::signature::op_display;
use crate::report::record::{CaseRecord, CaseState};

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
    skipped: usize,
    all_tests: usize,
    all_failures: usize,
    all_errors: usize,
    all_skipped: usize,
}

/// XML for report text: markup characters escaped; in an attribute, tab,
/// LF and CR as character references (a parser would read them raw as
/// spaces); characters XML 1.0 cannot carry at all (the other controls,
/// U+FFFE, U+FFFF) in the report notation.
fn xml(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' if !attribute => out.push(c),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if outside::is_forbidden(c) || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// Outside text (or a sentence quoting it) as an attribute's value: the
/// report notation ([`outside::text`]), but tab, LF and CR as XML's
/// character references, so that the value a parser reads is the name
/// itself where XML can carry it.
pub fn attribute(text: &str) -> String {
    let neutral = outside::text_keeping(text, |c| matches!(c, '\t' | '\n' | '\r'));
    xml(&neutral, true)
}

/// Report text, neutral already ([`outside`], detail lines), as an
/// element's content.
pub fn content(neutral: &str) -> String {
    xml(neutral, false)
}

fn element(tag: &str, kind: &str, message: &str, text: &str) -> String {
    format!(
        "      <{tag} type=\"{}\" message=\"{}\">{}</{tag}>\n",
        attribute(kind),
        attribute(message),
        content(text)
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
            attribute(name),
            attribute(classname)
        );
        if let Some((file, number)) = place {
            line.push_str(&format!(" file=\"{}\"", attribute(file)));
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

/// A file's `<testsuite>` name: the file's name, after its suite's (`toy/a.json`)
/// when it has one, so that two suites' files of one name stay two.
fn suite_name(file: &FileInfo) -> String {
    let name = file.name.as_deref().unwrap_or("parity-diff");
    match &file.suite {
        Some(suite) => format!("{suite}/{name}"),
        None => name.to_owned(),
    }
}

impl RecordHandlers for Junit {
    fn begin_file(&mut self, _out: &mut dyn Write, file: &FileInfo) -> io::Result<()> {
        self.path = file.path.clone();
        self.tests = 0;
        self.failures = 0;
        self.errors = 0;
        self.skipped = 0;
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let body = match record.state {
            CaseState::Passed => String::new(),
            CaseState::Accepted => {
                self.skipped += 1;
                skipped(&detail::entry_text(record).unwrap_or_default())
            }
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
            &record.id.shown(),
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
                    &format!("no golden at {}", golden),
                    "",
                )
            }
            Problem::OrphanGolden { golden } => {
                self.failures += 1;
                element(
                    "failure",
                    "orphaned golden",
                    &format!("{} has no case file", golden),
                    "",
                )
            }
            Problem::Error {
                message, stderr, ..
            } => {
                self.errors += 1;
                let stderr = outside::block(stderr.as_deref().unwrap_or(""));
                element("error", "error", message, &stderr)
            }
            Problem::Framing { found, state, .. } => {
                let place = file.path.as_deref().map(|path| (path, None));
                if state.passes() {
                    self.skipped += 1;
                    let entry = problem_entry(problem).unwrap_or_default();
                    return self.testcase("framing", &name, place, &skipped(&entry));
                }
                self.failures += 1;
                let body = element("failure", "framing", found, "");
                return self.testcase("framing", &name, place, &body);
            }
        };
        let place = file.path.as_deref().map(|path| (path, None));
        self.testcase(&name, &name, place, &body)
    }

    fn end_file(
        &mut self,
        _out: &mut dyn Write,
        file: &FileInfo,
        _tally: &Tally,
    ) -> io::Result<()> {
        let head = format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n",
            attribute(&suite_name(file)),
            self.tests,
            self.failures,
            self.errors,
            self.skipped
        );
        self.suites.append(head.as_bytes())?;
        self.cases.drain_to(&mut self.suites)?;
        self.suites.append(b"  </testsuite>\n")?;
        self.all_tests += self.tests;
        self.all_failures += self.failures;
        self.all_errors += self.errors;
        self.all_skipped += self.skipped;
        Ok(())
    }

    fn end(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        _changes: Option<&LedgerChanges>,
    ) -> io::Result<()> {
        let (ledger_failures, ledger) = ledger_suite(aggregates);
        write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"parity-diff\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n",
            self.all_tests + ledger_failures,
            self.all_failures + ledger_failures,
            self.all_errors,
            self.all_skipped
        )?;
        self.suites.drain_to(out)?;
        out.write_all(ledger.as_bytes())?;
        if !aggregates.run.unredacted.is_empty() {
            // A suite's `redact = false`: its secrets are shown as written.
            writeln!(
                out,
                "  <testsuite name=\"parity-diff: redaction off\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n    <properties>"
            )?;
            for suite in &aggregates.run.unredacted {
                writeln!(
                    out,
                    "      <property name=\"unredacted\" value=\"{}\"/>",
                    attribute(suite)
                )?;
            }
            writeln!(out, "    </properties>\n  </testsuite>")?;
        }
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
                        attribute(op)
                    )?;
                }
            }
            writeln!(out, "    </properties>\n  </testsuite>")?;
        }
        out.write_all(b"</testsuites>\n")
    }
}

/// The body of a case the ledger accepts or triages: `<skipped>`, what
/// the entry or rule says (`triaged (LINK): REASON`) its message, and
/// the same in `<system-out>` for the dashboards that show no message.
fn skipped(entry: &str) -> String {
    let said = format!("accepted by the ledger: {entry}");
    let said = outside::text(&said);
    format!(
        "      <skipped message=\"{}\"/>\n      <system-out>{}</system-out>\n",
        attribute(entry),
        content(&said)
    )
}

/// What the rule accepting a framing divergence says.
fn problem_entry(problem: &Problem) -> Option<String> {
    match problem {
        Problem::Framing {
            entry: Some(entry), ..
        } => Some(detail::entry_ref_text(entry)),
        _ => None,
    }
}

/// The ledger's failures as one `<testsuite>` (empty when it has none),
/// and how many: each orphaned entry and each stale or orphaned rule a
/// test case of the ledger's file.
fn ledger_suite(aggregates: &Aggregates) -> (usize, String) {
    let path = aggregates
        .run
        .ledger
        .as_ref()
        .map(|ledger| ledger.path.as_str());
    let classname = path.unwrap_or("ledger");
    let mut cases = Vec::new();
    for entry in &aggregates.orphaned {
        let id = entry.id.shown();
        let message = format!(
            "{id} (op {}): no such case; remove the entry with `parity-diff accept --prune`",
            op_display(entry.op.as_deref())
        );
        cases.push((id, element("failure", "orphaned entry", &message, "")));
    }
    for finding in &aggregates.rules {
        let kind = format!("{} rule", finding.problem.name());
        let body = element("failure", &kind, &finding.describe(), "");
        cases.push((finding.rule.describe(), body));
    }
    if cases.is_empty() {
        return (0, String::new());
    }
    let mut out = format!(
        "  <testsuite name=\"parity-diff: ledger\" tests=\"{0}\" failures=\"{0}\" errors=\"0\" skipped=\"0\">\n",
        cases.len()
    );
    let file = path.map_or(String::new(), |path| {
        format!(" file=\"{}\"", attribute(path))
    });
    for (name, body) in &cases {
        out.push_str(&format!(
            "    <testcase name=\"{}\" classname=\"{}\"{file}>\n{body}    </testcase>\n",
            attribute(name),
            attribute(classname)
        ));
    }
    out.push_str("  </testsuite>\n");
    (cases.len(), out)
}

impl Junit {
    /// The format, with what it needs of the records.
    pub fn format() -> RecordFormat {
        RecordFormat::new(Junit::default(), Needs::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(attribute("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(attribute("x\u{1b}[31m\ty"), "x\\u{1b}[31m&#9;y");
        assert_eq!(
            attribute("a\tb\nc\rd\u{7f}\u{202e}##[e"),
            "a&#9;b&#10;c&#13;d\\u{7f}\\u{202e}##\\u{5b}e"
        );
        assert_eq!(attribute("\u{fffe}\\u{"), "\\u{fffe}\\u{5c}u{");
        assert_eq!(content("a\n| b\t<c>"), "a\n| b&#9;&lt;c&gt;");
    }

    /// An attribute reads back as its text: XML's references, then the
    /// report notation, undone.
    fn read_back(value: &str) -> String {
        let xml = value
            .replace("&#9;", "\t")
            .replace("&#10;", "\n")
            .replace("&#13;", "\r")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&");
        outside::decode(&xml)
    }

    proptest::proptest! {
        #[test]
        fn attributes_read_back_and_hold_no_raw_control(
            text in "([\t\n\r\u{0}\u{1b}\u{7f}\u{85}\u{202e}\u{2028}\u{fffe}<>&\"'#\\[\\\\u{}a-c ]|::|##\\[){0,20}"
        ) {
            let value = attribute(&text);
            proptest::prop_assert_eq!(read_back(&value), text);
            let raw = value.chars().any(|c| outside::is_forbidden(c) || c == '\u{fffe}');
            proptest::prop_assert!(!raw, "{}", value);
            proptest::prop_assert!(!value.contains("##["));
        }
    }
}
