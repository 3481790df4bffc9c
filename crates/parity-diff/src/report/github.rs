//! GitHub Actions: annotations and the job summary, beside whatever
//! format the report is in.
//!
//! Annotations are workflow commands on standard error (the runner reads
//! both streams; a report on standard output stays clean):
//! `::error file=…,line=…,title=…::…`: the files that could not be
//! compared, one per failure group pointing at its first case (the order
//! of the Markdown report: ops that threw one message on every case
//! last), then missing and orphaned goldens, orphaned ledger entries and
//! stale or orphaned ledger rules;
//! at most [`MAX_ANNOTATIONS`] in all (GitHub shows no more per step),
//! then one `::notice` saying how many more there are.
//!
//! The job summary: when asked to and `GITHUB_STEP_SUMMARY` names a file,
//! the Markdown report is appended to it, cut to stay under GitHub's limit
//! (a step's summary over 1 MiB is dropped whole), whole groups and
//! sections left out from its end with a note saying which.
//!
//! Both render what the sink collected, through a [`Markdown`] report
//! that watches the same events as the format's: nothing is compared
//! twice. Outside text in an annotation is neutral ([`outside`]) before
//! it is escaped for the command: no line break, control character or
//! `##[` of a case file or a port reaches the runner.
//!
//! [`outside`]: crate::base::outside

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::groups::Group;
use super::human::cases;
use super::markdown::{ordered_groups, text::Document, uniform_ops, Markdown};
use super::{
    Aggregates, FileInfo, Needs, Problem, RecordEnd, RecordFormat, RecordPart, Records, Render,
    ReportOptions, NO_OP,
};
use crate::base::outside;
use crate::judge::signature::op_display;

/// GitHub shows at most this many error annotations of a step.
pub const MAX_ANNOTATIONS: usize = 10;

/// A summary (with what the step's summary file holds already) stays
/// under this many bytes; GitHub drops a step's summary over 1 MiB
/// (1 048 576 bytes) whole.
pub const STEP_SUMMARY_LIMIT: usize = 1_000_000;

/// The variable naming the step's summary file.
pub const STEP_SUMMARY_VARIABLE: &str = "GITHUB_STEP_SUMMARY";

/// Escapes a workflow command's message.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command: `::error file=…,line=…,title=…::message`. The
/// file, title and message may hold outside text: each is written in the
/// report notation ([`outside::text`]), then escaped for the command.
pub fn command(
    kind: &str,
    file: Option<&str>,
    line: Option<usize>,
    title: &str,
    message: &str,
) -> String {
    let mut properties = Vec::new();
    if let Some(file) = file {
        properties.push(format!("file={}", escape_property(&outside::text(file))));
        if let Some(line) = line {
            properties.push(format!("line={line}"));
        }
    }
    properties.push(format!("title={}", escape_property(&outside::text(title))));
    format!(
        "::{kind} {}::{}",
        properties.join(","),
        escape_data(&outside::text(message))
    )
}

/// What is left unannotated, by kind.
#[derive(Debug, Default)]
struct Left {
    groups: usize,
    cases: usize,
    problems: usize,
    orphans: usize,
    rules: usize,
}

impl Left {
    /// The notice saying what is left unannotated, if anything is.
    fn notice(&self) -> Option<String> {
        let mut more = Vec::new();
        if self.groups > 0 {
            let noun = if self.groups == 1 { "group" } else { "groups" };
            more.push(format!(
                "{} more failure {noun} ({})",
                self.groups,
                cases(self.cases, "case")
            ));
        }
        if self.problems > 0 {
            more.push(format!("{} more", cases(self.problems, "file problem")));
        }
        if self.orphans > 0 {
            let noun = if self.orphans == 1 {
                "entry"
            } else {
                "entries"
            };
            more.push(format!("{} more orphaned ledger {noun}", self.orphans));
        }
        if self.rules > 0 {
            let noun = if self.rules == 1 { "rule" } else { "rules" };
            more.push(format!(
                "{} more stale or orphaned ledger {noun}",
                self.rules
            ));
        }
        (!more.is_empty()).then(|| {
            format!(
                "::notice title=parity-diff::{}",
                escape_data(&format!(
                    "{} not annotated: GitHub shows {MAX_ANNOTATIONS} annotations per step; \
                     the report lists them",
                    join(&more)
                ))
            )
        })
    }
}

/// The annotations made so far, and what found no room among them.
#[derive(Debug, Default)]
struct Annotating {
    out: Vec<String>,
    left: Left,
}

impl Annotating {
    fn room(&self) -> bool {
        self.out.len() < MAX_ANNOTATIONS
    }

    /// The files that could not be compared.
    fn input_errors(&mut self, errors: &[&(FileInfo, Problem)]) {
        for (file, problem) in errors {
            if !self.room() {
                self.left.problems += 1;
                continue;
            }
            if let Problem::Error { message, .. } = problem {
                self.out.push(command(
                    "error",
                    place(file),
                    None,
                    "could not be compared",
                    message,
                ));
            }
        }
    }

    /// One annotation per failure group, at its first case, in the order
    /// of the Markdown report.
    fn failure_groups(&mut self, aggregates: &mut Aggregates, seen: &Markdown) -> io::Result<()> {
        let uniform = uniform_ops(aggregates);
        for (key, _) in ordered_groups(aggregates, &uniform) {
            if !self.room() {
                self.left.groups += 1;
                self.left.cases += aggregates.groups.count(key);
                continue;
            }
            let group = aggregates.groups.load(key)?;
            self.out.push(group_annotation(&group, seen));
        }
        Ok(())
    }

    /// Missing and orphaned goldens, and framing that fails.
    fn other_problems(&mut self, others: &[&(FileInfo, Problem)]) {
        for (file, problem) in others {
            if !self.room() {
                self.left.problems += 1;
                continue;
            }
            match problem {
                Problem::MissingGolden { golden } => self.out.push(command(
                    "error",
                    place(file),
                    None,
                    "missing golden",
                    &format!("no golden at {}", golden),
                )),
                Problem::OrphanGolden { golden } => {
                    let golden = golden.clone();
                    self.out.push(command(
                        "error",
                        Some(&golden),
                        None,
                        "orphaned golden",
                        "a golden without a case file",
                    ));
                }
                Problem::Framing { found, state, .. } if !state.passes() => {
                    self.out
                        .push(command("error", place(file), None, "framing", found))
                }
                Problem::Error { .. } | Problem::Framing { .. } => {}
            }
        }
    }

    /// Orphaned ledger entries, then stale or orphaned ledger rules, all
    /// pointing at the ledger.
    fn ledger_findings(&mut self, aggregates: &Aggregates) {
        let ledger = aggregates
            .run
            .ledger
            .as_ref()
            .map(|ledger| ledger.path.clone());
        for entry in &aggregates.orphaned {
            if !self.room() {
                self.left.orphans += 1;
                continue;
            }
            self.out.push(command(
                "error",
                ledger.as_deref(),
                None,
                "orphaned ledger entry",
                &format!(
                    "{} (op {}): no such case; `parity-diff accept --prune` removes the entry",
                    entry.id,
                    op_display(entry.op.as_deref())
                ),
            ));
        }
        for finding in &aggregates.rules {
            if !self.room() {
                self.left.rules += 1;
                continue;
            }
            self.out.push(command(
                "error",
                ledger.as_deref(),
                None,
                &format!("{} ledger rule", finding.problem.name()),
                &finding.describe(),
            ));
        }
    }
}

/// A failure group's annotation: its signature and size, at its first
/// case when the group kept one.
fn group_annotation(group: &Group, seen: &Markdown) -> String {
    let first = group.shown().first();
    let title = match group.signature.op.as_deref() {
        None => NO_OP.to_owned(),
        op => op_display(op),
    };
    let mut message = format!("{} — {}", group.signature.text, cases(group.count, "case"));
    let (file, line) = match &first {
        Some(record) => {
            message.push_str(&format!(", the first {}: {}", record.label, record.summary));
            (seen.path_of(&record.file), record.line)
        }
        None => (None, None),
    };
    command("error", file, line, &title, &message)
}

/// The annotations of a report: at most [`MAX_ANNOTATIONS`] errors, then
/// a notice when there is more. Input errors come first (nothing of their
/// file was compared), then the failure groups in report order, then
/// missing and orphaned goldens, orphaned ledger entries and stale or
/// orphaned ledger rules.
pub fn annotations(aggregates: &mut Aggregates, seen: &Markdown) -> io::Result<Vec<String>> {
    let mut annotating = Annotating::default();
    let (problems, more_problems) = seen.problems();
    let (errors, others): (Vec<_>, Vec<_>) = problems
        .iter()
        .partition(|(_, problem)| matches!(problem, Problem::Error { .. }));
    annotating.input_errors(&errors);
    annotating.failure_groups(aggregates, seen)?;
    annotating.other_problems(&others);
    annotating.left.problems += more_problems;
    annotating.ledger_findings(aggregates);
    let Annotating { mut out, left } = annotating;
    out.extend(left.notice());
    let unredacted = aggregates
        .run
        .unredacted_notice(|suite| outside::text(suite).into_owned());
    out.extend(
        unredacted.map(|notice| format!("::notice title=parity-diff::{}", escape_data(&notice))),
    );
    Ok(out)
}

fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn place(file: &FileInfo) -> Option<&str> {
    file.path.as_deref().or(file.name.as_deref())
}

/// The step's summary file, when `GITHUB_STEP_SUMMARY` names one.
pub fn step_summary_path() -> Option<PathBuf> {
    std::env::var_os(STEP_SUMMARY_VARIABLE)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// Appends a summary to a step's summary file, made when missing; cut so
/// that the file stays under [`STEP_SUMMARY_LIMIT`]. The file is the
/// runner's, named by the environment, so it is opened as a shell's `>>`
/// would open it: `O_APPEND | O_CREAT`, links followed, new files 0666
/// less the umask. One write, so that summaries appended at once by
/// several processes do not interleave.
pub fn append_summary(path: &Path, doc: &Document) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o666)
        .open(path)?;
    let held = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
    let separator = if held > 0 { "\n" } else { "" };
    let room = STEP_SUMMARY_LIMIT.saturating_sub(held.saturating_add(separator.len()));
    let text = doc.cut(
        room,
        "to stay under GitHub's 1 MiB limit for a step's summary",
    );
    if text.len() > room {
        return Err(io::Error::other(format!(
            "the file holds {held} bytes already: no room under GitHub's limit"
        )));
    }
    file.write_all(format!("{separator}{text}").as_bytes())
}

/// Whether this process's standard output is the file at `path`.
fn stdout_is(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata("/dev/stdout"), std::fs::metadata(path)) {
        (Ok(out), Ok(file)) => out.dev() == file.dev() && out.ino() == file.ino(),
        _ => false,
    }
}

/// A format's renderer with GitHub's annotations and job summary beside it.
pub struct GitHub {
    inner: Box<dyn Render<Records>>,
    seen: Markdown,
    annotate: bool,
    step_summary: Option<PathBuf>,
}

/// The format, wrapped when the options ask for annotations or a job
/// summary (and the environment names a summary file): those need every
/// failure explained and the groups' first records in full.
pub fn wrap(inner: RecordFormat, options: ReportOptions) -> RecordFormat {
    let step_summary = options.step_summary.then(step_summary_path).flatten();
    if !options.annotate && step_summary.is_none() {
        return inner;
    }
    RecordFormat {
        render: Box::new(GitHub {
            inner: inner.render,
            seen: Markdown::new(options),
            annotate: options.annotate,
            step_summary,
        }),
        needs: Needs {
            groups: true,
            explains: true,
            ..inner.needs
        },
    }
}

impl Render<Records> for GitHub {
    fn part(&mut self, out: &mut dyn Write, part: RecordPart<'_>) -> io::Result<()> {
        // What the summary and the annotations need of the files.
        if let RecordPart::BeginFile(..) | RecordPart::Problem(..) = part {
            self.seen.part(&mut io::sink(), part)?;
        }
        self.inner.part(out, part)
    }

    fn finish(&mut self, out: &mut dyn Write, end: RecordEnd<'_>) -> io::Result<()> {
        let RecordEnd {
            aggregates,
            changes,
        } = end;
        self.inner.finish(
            out,
            RecordEnd {
                aggregates: &mut *aggregates,
                changes,
            },
        )?;
        out.flush()?;
        // Standard error is for people and the runner: a failure to write
        // there must not change the outcome.
        let mut stderr = io::stderr().lock();
        if self.annotate {
            for line in annotations(aggregates, &self.seen)? {
                let _ = writeln!(stderr, "{line}");
            }
        }
        if let Some(path) = &self.step_summary {
            if stdout_is(path) {
                // `--format markdown >> "$GITHUB_STEP_SUMMARY"`: the report
                // is there already; a second copy would only double it.
                let _ = writeln!(
                    stderr,
                    "parity-diff: warning: standard output is the file {STEP_SUMMARY_VARIABLE} \
                     names; the summary is not appended to it again (nor cut to GitHub's limit)"
                );
                return Ok(());
            }
            let doc = self.seen.document(aggregates, changes)?;
            if let Err(error) = append_summary(path, &doc) {
                let _ = writeln!(
                    stderr,
                    "parity-diff: warning: cannot append the summary to {STEP_SUMMARY_VARIABLE} ({}): {error}",
                    path.display()
                );
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_escape_their_messages_and_properties() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        assert_eq!(
            command(
                "error",
                Some("cases/a,b:c.json"),
                Some(4),
                "op:x",
                "one\ntwo"
            ),
            "::error file=cases/a%2Cb%3Ac.json,line=4,title=op%3Ax::one\\u{a}two"
        );
        // Outside text breaks no line and starts no command.
        assert_eq!(
            command(
                "error",
                Some("x\n::error title=PWNED::y.json"),
                None,
                "##[stop-commands]tok",
                "a\r\n::warning::b \u{1b}]0;pwn\u{7} 100%"
            ),
            "::error file=x\\u{a}%3A%3Aerror title=PWNED%3A%3Ay.json,\
             title=##\\u{5b}stop-commands]tok::a\\u{d}\\u{a}::warning::b \\u{1b}]0;pwn\\u{7} 100%25"
        );
        assert_eq!(
            command("error", None, Some(4), "t", "m"),
            "::error title=t::m"
        );
        assert_eq!(
            command("error", Some("f"), None, "t", "m"),
            "::error file=f,title=t::m"
        );
    }

    #[test]
    fn warnings_reach_the_format_beneath() {
        let options = ReportOptions {
            annotate: true,
            ..ReportOptions::default()
        };
        let mut render = wrap(super::super::human::Human::format(options), options).render;
        let mut out = Vec::new();
        let file = FileInfo {
            suite: None,
            name: Some("a\n::error::b.json".into()),
            path: None,
        };
        render
            .part(&mut out, RecordPart::Warning(&file, "leaked\r"))
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "WARNING a\\u{a}::error::b.json: leaked\\u{d}\n"
        );
    }

    #[test]
    fn lists_read_as_prose() {
        assert_eq!(join(&[]), "");
        assert_eq!(join(&["a".into()]), "a");
        assert_eq!(join(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }
}
