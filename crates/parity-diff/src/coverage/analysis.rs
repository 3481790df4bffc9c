//! What a coverage run found, ready for every report: the cases, each
//! script with its source, source map and spans, the spans no case ran
//! (allowlisted or not), the allowlist entries that no longer name one,
//! per-op coverage and the totals.

use std::path::Path;

use super::allowlist::{span_hash, AllowEntry, Allowlist, SpanKey};
pub use super::attribution::CaseInfo;
use super::attribution::{by_op, OpCoverage};
use super::source::{display_name, Source};
use super::sourcemap::SourceMap;
use super::spans::{ScriptSpans, Span};

/// Where something stands, for people: a file and a 1-based line (in the
/// original source when the script has a source map).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file, as reports name it.
    pub file: String,
    /// The line.
    pub line: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// One script of the reference.
#[derive(Debug, Clone)]
pub struct Script {
    /// Its URL.
    pub url: String,
    /// Its path as reports name it.
    pub name: String,
    /// Its text.
    pub source: Source,
    /// Its source map, when Node found one that could be read.
    pub map: Option<SourceMap>,
    /// Why a source map Node found could not be read.
    pub map_error: Option<String>,
    /// Its functions and spans.
    pub spans: ScriptSpans,
    /// The directory names are relative to.
    pub cwd: std::path::PathBuf,
}

impl Script {
    /// Where an offset stands: through the source map when there is one
    /// and it maps the offset, else in the script itself.
    pub fn location(&self, offset: u32) -> Location {
        let (line, column) = self.source.position(offset);
        if let Some(original) = self.map.as_ref().and_then(|map| map.original(line, column)) {
            return Location {
                file: display_name(&original.source, &self.cwd),
                line: original.line,
            };
        }
        Location {
            file: self.name.clone(),
            line: line + 1,
        }
    }

    /// A span's source text.
    pub fn text(&self, span: &Span) -> String {
        self.source.text(span.start, span.end)
    }

    /// What names a span in the allowlist.
    pub fn key(&self, span: &Span) -> SpanKey {
        let source = &self.source;
        let (first, _) = source.position(span.start);
        let (last, _) = source.position(span.end.saturating_sub(1).max(span.start));
        let before = source.text(source.line_span(first).0, span.start);
        let after = source.text(span.end, source.line_span(last).1.max(span.end));
        SpanKey {
            function: self.spans.functions[span.function].path.clone(),
            hash: span_hash(&before, &self.text(span), &after),
        }
    }

    /// The innermost function holding an offset, and where the offset
    /// stands: how a fuzzer names what a new case reaches
    /// (`"<op>: reaches <function>:<line>"`).
    pub fn function_at(&self, offset: u32) -> Option<(&str, Location)> {
        let function = self
            .spans
            .functions
            .iter()
            .rev()
            .find(|f| f.start <= offset && offset < f.end)?;
        Some((function.path.as_str(), self.location(offset)))
    }
}

/// A span no case ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrun {
    /// Its script (an index into [`Analysis::scripts`]).
    pub script: usize,
    /// The span (an index into its script's spans).
    pub span: usize,
    /// What names it.
    pub key: SpanKey,
    /// The allowlist's reason, when it is allowlisted.
    pub allowed: Option<String>,
}

/// The counts a report closes with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Cases run.
    pub cases: usize,
    /// Spans in all.
    pub spans: usize,
    /// Spans some case reached.
    pub reached: usize,
    /// Spans no case reached.
    pub never_run: usize,
    /// Of those, allowlisted.
    pub allowlisted: usize,
    /// Allowlist entries that name no never-run span.
    pub stale: usize,
    /// Input errors (files that could not be read, runs that failed).
    pub errors: usize,
    /// Whether this is `--check`.
    pub check: bool,
}

impl Totals {
    /// Never-run spans that are not allowlisted.
    pub fn not_allowlisted(&self) -> usize {
        self.never_run - self.allowlisted
    }

    /// 2 on an error; with `--check`, 1 when a never-run span is not
    /// allowlisted or an entry is stale; else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.check && (self.not_allowlisted() > 0 || self.stale > 0) {
            1
        } else {
            0
        }
    }

    /// The share reached, rounded down (so 99.9% never reads 100%).
    pub fn percent(reached: usize, of: usize) -> usize {
        (reached * 100).checked_div(of).unwrap_or(100)
    }

    /// The closing line.
    pub fn summary_line(&self) -> String {
        let mut line = format!(
            "{} of {} spans reached ({}%) by {}; {} never run: {} allowlisted, {} not; {} stale {}",
            self.reached,
            self.spans,
            Totals::percent(self.reached, self.spans),
            crate::report::human::cases(self.cases, "case"),
            self.never_run,
            self.allowlisted,
            self.not_allowlisted(),
            self.stale,
            if self.stale == 1 {
                "allowlist entry"
            } else {
                "allowlist entries"
            },
        );
        if self.errors > 0 {
            line.push_str(&format!(
                ", {}",
                crate::report::human::cases(self.errors, "error")
            ));
        }
        line
    }
}

/// Everything a coverage report shows.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The reference command.
    pub reference: String,
    /// The cases, by run number.
    pub cases: Vec<CaseInfo>,
    /// The reference's scripts, by URL.
    pub scripts: Vec<Script>,
    /// Per op, sorted.
    pub by_op: Vec<OpCoverage>,
    /// Never-run spans, in script and source order.
    pub unrun: Vec<Unrun>,
    /// Allowlist entries that name no never-run span.
    pub stale: Vec<AllowEntry>,
    /// The allowlist's path, when one was read.
    pub allowlist: Option<String>,
    /// Input errors, each one line.
    pub errors: Vec<String>,
    /// The counts.
    pub totals: Totals,
}

impl Analysis {
    /// Finds the never-run spans, weighs them against the allowlist and
    /// counts.
    pub fn new(
        reference: String,
        cases: Vec<CaseInfo>,
        scripts: Vec<Script>,
        allowlist: Option<(&Path, Allowlist)>,
        errors: Vec<String>,
        check: bool,
    ) -> Analysis {
        let (path, list) = match allowlist {
            Some((path, list)) => (Some(path.display().to_string()), list),
            None => (None, Allowlist::default()),
        };
        let mut unrun = Vec::new();
        for (at, script) in scripts.iter().enumerate() {
            for (index, span) in script.spans.spans.iter().enumerate() {
                if !span.reach.is_empty() {
                    continue;
                }
                let key = script.key(span);
                let allowed = list.get(&key).map(|entry| entry.reason.clone());
                unrun.push(Unrun {
                    script: at,
                    span: index,
                    key,
                    allowed,
                });
            }
        }
        let stale: Vec<AllowEntry> = list
            .entries
            .iter()
            .filter(|entry| !unrun.iter().any(|unrun| unrun.key == entry.key))
            .cloned()
            .collect();
        let spans: Vec<&ScriptSpans> = scripts.iter().map(|script| &script.spans).collect();
        let by_op = by_op(&cases, &spans);
        let total: usize = spans.iter().map(|s| s.spans.len()).sum();
        let totals = Totals {
            cases: cases.len(),
            spans: total,
            reached: total - unrun.len(),
            never_run: unrun.len(),
            allowlisted: unrun.iter().filter(|u| u.allowed.is_some()).count(),
            stale: stale.len(),
            errors: errors.len(),
            check,
        };
        Analysis {
            reference,
            cases,
            scripts,
            by_op,
            unrun,
            stale,
            allowlist: path,
            errors,
            totals,
        }
    }

    /// The never-run spans grouped by function (script, function index),
    /// in source order.
    pub fn unrun_by_function(&self) -> Vec<((usize, usize), Vec<&Unrun>)> {
        let mut groups: Vec<((usize, usize), Vec<&Unrun>)> = Vec::new();
        for unrun in &self.unrun {
            let function = self.scripts[unrun.script].spans.spans[unrun.span].function;
            let key = (unrun.script, function);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, list)) => list.push(unrun),
                None => groups.push((key, vec![unrun])),
            }
        }
        groups.sort_by_key(|((script, function), _)| {
            (
                *script,
                self.scripts[*script].spans.functions[*function].start,
            )
        });
        groups
    }

    /// A never-run span's script and span.
    pub fn span_of(&self, unrun: &Unrun) -> (&Script, &Span) {
        let script = &self.scripts[unrun.script];
        (script, &script.spans.spans[unrun.span])
    }
}
