//! One way of rendering, for every command's report. A kind of report
//! ([`Report`]) says what comes as it happens (its parts) and what comes
//! last (its end); each format of it is a [`Render`], given the parts in
//! order and then the end, and writing to the output it is handed. The
//! one table ([`formats`](super::formats)) says which formats a command
//! has; nothing else picks one.
//!
//! The kinds:
//! - [`Records`](super::Records): `compare`, `run`, `accept` and `merge`,
//!   one record per case, driven by the [`Sink`](super::Sink), which keeps
//!   the aggregates (human, JSON, JUnit, Markdown, HTML; GitHub's
//!   annotations and job summary wrap any of them);
//! - `accept`'s ledger changes ([`accept`](crate::command::accept)), `bless`'s
//!   goldens ([`bless`](crate::command::bless)), `delta`'s changes
//!   ([`delta`](crate::command::delta)) and the fuzz session
//!   (`fuzz::command`).
//!
//! A report known only at its end has no parts: its `Part` is
//! [`Infallible`](std::convert::Infallible).

use std::io::{self, Write};

use crate::base::outside;
use js_exact::{to_json, Value};

/// A kind of report.
pub trait Report {
    /// What a renderer is given as it happens (a file's record, a
    /// golden's status).
    type Part<'a>;
    /// What it is given last.
    type End<'a>;
}

/// One format of one kind of report.
pub trait Render<R: Report> {
    /// The next part.
    fn part(&mut self, out: &mut dyn Write, part: R::Part<'_>) -> io::Result<()>;
    /// The end: the report is written whole once this returns.
    fn finish(&mut self, out: &mut dyn Write, end: R::End<'_>) -> io::Result<()>;
}

/// Writes a JSON value as a whole report: neutral ([`outside::json_bytes`]),
/// one line.
pub fn write_json(out: &mut dyn Write, value: &Value) -> io::Result<()> {
    let mut bytes = to_json(value);
    bytes.push(b'\n');
    out.write_all(&outside::json_bytes(&bytes))
}
