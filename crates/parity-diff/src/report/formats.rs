//! The one table of report formats by command: which `--format`s each
//! command takes, and which renderer writes each (docs/REPORT.md,
//! *Formats by command*, is this table). [`Command::renderer`] matches
//! every pair of a command and a format, with no catch-all arm: a new
//! format or command does not compile until each pair says what renders
//! it or that none does, and a command never falls back to another
//! format than the one asked for. A test checks that every renderer the
//! table names has its section in docs/REPORT.md and a snapshot in
//! `tests/snapshots/`, and that the document's table is this one.

use std::fmt;

use crate::base::error::InputError;

/// An enum with `ALL`, every variant in order, which a new variant
/// cannot be left out of.
macro_rules! listed {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$doc:meta])* $variant:ident,)* }) => {
        $(#[$meta])*
        pub enum $name {
            $($(#[$doc])* $variant,)*
        }

        impl $name {
            /// Every one, in order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
        }
    };
}

listed! {
    /// The report formats (`--format`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum Format {
        /// Text for people.
        #[default]
        Human,
        /// One JSON object.
        Json,
        /// JUnit XML.
        Junit,
        /// GitHub-flavoured Markdown, for a job summary or a PR comment.
        Markdown,
        /// One self-contained HTML page.
        Html,
    }
}

impl Format {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Human => "human",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Markdown => "markdown",
            Format::Html => "html",
        }
    }
}

listed! {
    /// The commands that report.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Command {
        /// `parity-diff compare`.
        Compare,
        /// `parity-diff run`.
        Run,
        /// `parity-diff accept`.
        Accept,
        /// `parity-diff merge`.
        Merge,
        /// `parity-diff delta`.
        Delta,
        /// `parity-diff bless`.
        Bless,
        /// `parity-diff fuzz`.
        Fuzz,
        /// `parity-diff fuzz --grow`: another session, another report.
        Grow,
        /// `parity-diff coverage`.
        Coverage,
        /// `parity-diff cmin`.
        Cmin,
    }
}

listed! {
    /// What writes a report: each is one [`Render`](super::Render).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Renderer {
        /// The records for people ([`human`](super::human)).
        Human,
        /// The JSON report ([`json`](super::json)).
        Json,
        /// The records as JUnit XML ([`junit`](super::junit)).
        Junit,
        /// The records as Markdown ([`markdown`](super::markdown)).
        Markdown,
        /// The records as one HTML page ([`html`](super::html)).
        Html,
        /// What `accept` changed in the ledger, for people
        /// ([`accept`](crate::command::accept)).
        LedgerChanges,
        /// A delta for people ([`delta::render`](crate::command::delta::render)).
        DeltaHuman,
        /// A delta as a pull-request comment.
        DeltaMarkdown,
        /// `bless`'s goldens, a line each ([`bless::render`](crate::command::bless::render)).
        BlessHuman,
        /// `bless`'s goldens as one JSON object.
        BlessJson,
        /// A fuzz session's divergences for people (`fuzz::command`).
        FuzzHuman,
        /// A fuzz session as one JSON object.
        FuzzJson,
        /// What `fuzz --grow` kept, for people
        /// ([`coverage::grow::render`](crate::coverage::grow::render)).
        GrowHuman,
        /// What `fuzz --grow` kept, as one JSON object.
        GrowJson,
        /// The reference's coverage for people
        /// ([`coverage::report`](crate::coverage::report)).
        CoverageHuman,
        /// The reference's coverage as one JSON object.
        CoverageJson,
        /// The reference's coverage as a job summary or PR comment.
        CoverageMarkdown,
        /// The reference's coverage as one HTML page.
        CoverageHtml,
        /// The smallest cover, a case a line.
        CminHuman,
        /// The smallest cover as one JSON object.
        CminJson,
    }
}

impl Command {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Command::Compare => "compare",
            Command::Run => "run",
            Command::Accept => "accept",
            Command::Merge => "merge",
            Command::Delta => "delta",
            Command::Bless => "bless",
            Command::Fuzz => "fuzz",
            Command::Grow => "fuzz --grow",
            Command::Coverage => "coverage",
            Command::Cmin => "cmin",
        }
    }

    /// What renders this command's report in `format`; `None` when the
    /// command does not report in it. The table itself.
    pub fn renderer(self, format: Format) -> Option<Renderer> {
        use Command::*;
        use Format::*;
        match (self, format) {
            (Compare | Run | Merge | Accept, Json) => Some(Renderer::Json),
            (Compare | Run | Merge | Accept, Markdown) => Some(Renderer::Markdown),
            (Compare | Run | Merge | Accept, Html) => Some(Renderer::Html),
            (Compare | Run | Merge, Human) => Some(Renderer::Human),
            (Compare | Run | Merge, Junit) => Some(Renderer::Junit),
            // accept prints its changes; the run's report goes with them
            // only in a format that can hold both.
            (Accept, Human) => Some(Renderer::LedgerChanges),
            (Accept, Junit) => None,
            (Delta, Human) => Some(Renderer::DeltaHuman),
            (Delta, Markdown) => Some(Renderer::DeltaMarkdown),
            (Delta, Json | Junit | Html) => None,
            (Bless, Human) => Some(Renderer::BlessHuman),
            (Bless, Json) => Some(Renderer::BlessJson),
            (Bless, Junit | Markdown | Html) => None,
            (Fuzz, Human) => Some(Renderer::FuzzHuman),
            (Fuzz, Json) => Some(Renderer::FuzzJson),
            (Fuzz, Junit | Markdown | Html) => None,
            (Grow, Human) => Some(Renderer::GrowHuman),
            (Grow, Json) => Some(Renderer::GrowJson),
            (Grow, Junit | Markdown | Html) => None,
            (Coverage, Human) => Some(Renderer::CoverageHuman),
            (Coverage, Json) => Some(Renderer::CoverageJson),
            (Coverage, Markdown) => Some(Renderer::CoverageMarkdown),
            (Coverage, Html) => Some(Renderer::CoverageHtml),
            (Coverage, Junit) => None,
            (Cmin, Human) => Some(Renderer::CminHuman),
            (Cmin, Json) => Some(Renderer::CminJson),
            (Cmin, Junit | Markdown | Html) => None,
        }
    }

    /// The formats this command reports in, in [`Format::ALL`]'s order.
    pub fn formats(self) -> Vec<Format> {
        Format::ALL
            .iter()
            .copied()
            .filter(|&format| self.renderer(format).is_some())
            .collect()
    }

    /// The renderer of `format`, or the error that says which formats
    /// this command takes.
    pub fn check(self, format: Format) -> Result<Renderer, InputError> {
        self.renderer(format).ok_or_else(|| {
            let names: Vec<&str> = self.formats().into_iter().map(Format::name).collect();
            let list = match names.split_last() {
                Some((last, [])) => last.to_string(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => "no".to_owned(),
            };
            InputError::new(format!("{} reports in {list} format only", self.name()))
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Renderer {
    /// The heading of its section in docs/REPORT.md.
    pub fn section(self) -> &'static str {
        match self {
            Renderer::Human => "Human",
            Renderer::Json => "JSON, format version 2",
            Renderer::Junit => "JUnit",
            Renderer::Markdown => "Markdown, and GitHub Actions",
            Renderer::Html => "HTML",
            Renderer::LedgerChanges => "accept",
            Renderer::DeltaHuman | Renderer::DeltaMarkdown => "Delta",
            Renderer::BlessHuman | Renderer::BlessJson => "bless",
            Renderer::FuzzHuman | Renderer::FuzzJson | Renderer::GrowHuman | Renderer::GrowJson => {
                "fuzz"
            }
            Renderer::CoverageHuman
            | Renderer::CoverageJson
            | Renderer::CoverageMarkdown
            | Renderer::CoverageHtml
            | Renderer::CminHuman
            | Renderer::CminJson => "coverage and cmin",
        }
    }

    /// What the table in docs/REPORT.md calls it.
    pub fn label(self) -> &'static str {
        match self {
            Renderer::Human => "records",
            Renderer::Json => "JSON report",
            Renderer::Junit => "JUnit",
            Renderer::Markdown => "Markdown",
            Renderer::Html => "HTML page",
            Renderer::LedgerChanges => "ledger changes",
            Renderer::DeltaHuman => "delta",
            Renderer::DeltaMarkdown => "delta comment",
            Renderer::BlessHuman => "goldens",
            Renderer::BlessJson => "goldens JSON",
            Renderer::FuzzHuman => "divergences",
            Renderer::FuzzJson => "session JSON",
            Renderer::GrowHuman => "growth",
            Renderer::GrowJson => "growth JSON",
            Renderer::CoverageHuman => "coverage",
            Renderer::CoverageJson => "coverage JSON",
            Renderer::CoverageMarkdown => "coverage summary",
            Renderer::CoverageHtml => "coverage page",
            Renderer::CminHuman => "cover",
            Renderer::CminJson => "cover JSON",
        }
    }
}

/// The error of a command handed a renderer that the table gives to
/// another: a bug, never a fallback.
pub fn not_mine(command: Command, renderer: Renderer) -> InputError {
    InputError::new(format!(
        "internal error: {command} has no renderer {renderer:?} (the table of formats says otherwise)"
    ))
}

#[cfg(test)]
mod tests;
