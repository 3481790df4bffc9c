//! The table against what documents and pins it: docs/REPORT.md (a
//! section for every renderer, and the table itself) and the snapshots
//! (one, at least, of every renderer).

use std::collections::BTreeSet;
use std::path::Path;

use super::*;

/// The workspace's root, two directories above this crate's: the docs
/// and the snapshots are the repository's, not the crate's.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn repository(path: &str) -> String {
    let path = root().join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// A heading's anchor, as GitHub makes it: lowercase, spaces as `-`,
/// punctuation left out.
fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The table as docs/REPORT.md holds it.
fn table() -> String {
    let mut text = String::from("| command |");
    for format in Format::ALL {
        text.push_str(&format!(" `{}` |", format.name()));
    }
    text.push_str("\n|---|");
    text.push_str(&"---|".repeat(Format::ALL.len()));
    text.push('\n');
    for &command in Command::ALL {
        text.push_str(&format!("| `{command}` |"));
        for &format in Format::ALL {
            match command.renderer(format) {
                Some(renderer) => text.push_str(&format!(
                    " [{}](#{}) |",
                    renderer.label(),
                    anchor(renderer.section())
                )),
                None => text.push_str(" — |"),
            }
        }
        text.push('\n');
    }
    text
}

#[test]
fn the_document_holds_the_table_and_a_section_for_every_renderer() {
    let document = repository("docs/REPORT.md");
    let table = table();
    assert!(
        document.contains(&table),
        "docs/REPORT.md must hold the table of formats by command, as it is:\n\n{table}"
    );
    let headings: BTreeSet<&str> = document
        .lines()
        .filter_map(|line| line.strip_prefix("## "))
        .collect();
    for renderer in Renderer::ALL {
        assert!(
            headings.contains(renderer.section()),
            "docs/REPORT.md has no section `## {}` for {renderer:?}",
            renderer.section()
        );
    }
}

/// The command and format of each snapshot that records its arguments
/// (but `cli-*.snap`, usage errors and help, which are no report).
fn snapshots() -> Vec<(String, Command, Format)> {
    let dir = root().join("tests/snapshots");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "snap")
            || path
                .file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with("cli-"))
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let Some(args) = text.lines().find_map(|line| line.strip_prefix("args: ")) else {
            continue;
        };
        let words: Vec<&str> = args.split_whitespace().collect();
        // The longest name the arguments start with: `fuzz --grow` is
        // not `fuzz`.
        let command = Command::ALL
            .iter()
            .filter(|command| {
                let name: Vec<&str> = command.name().split(' ').collect();
                words.starts_with(&name)
            })
            .max_by_key(|command| command.name().len())
            .unwrap_or_else(|| panic!("{}: no command in {args:?}", path.display()));
        let format = match words.iter().position(|word| *word == "--format") {
            Some(at) => *Format::ALL
                .iter()
                .find(|format| Some(&format.name()) == words.get(at + 1))
                .unwrap_or_else(|| panic!("{}: no format in {args:?}", path.display())),
            None => Format::default(),
        };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        found.push((name, *command, format));
    }
    found
}

#[test]
fn every_renderer_has_a_snapshot() {
    let snapshots = snapshots();
    for &renderer in Renderer::ALL {
        let shown = snapshots
            .iter()
            .any(|(_, command, format)| command.renderer(*format) == Some(renderer));
        assert!(
            shown,
            "no snapshot in tests/snapshots/ shows {renderer:?}: add one to tests/snapshots.rs \
             (a command and a `--format` the table gives it to)"
        );
    }
    for (name, command, format) in &snapshots {
        assert!(
            command.renderer(*format).is_some(),
            "{name}: {command} does not report in {}",
            format.name()
        );
    }
}

#[test]
fn every_renderer_writes_some_command_s_report() {
    for renderer in Renderer::ALL {
        let used = Command::ALL.iter().any(|command| {
            Format::ALL
                .iter()
                .any(|&format| command.renderer(format) == Some(*renderer))
        });
        assert!(used, "{renderer:?} is in no row of the table");
    }
}

#[test]
fn a_format_a_command_lacks_is_refused_with_the_formats_it_has() {
    let refused = |command: Command, format| command.check(format).unwrap_err().message;
    assert_eq!(
        refused(Command::Accept, Format::Junit),
        "accept reports in human, json, markdown or html format only"
    );
    assert_eq!(
        refused(Command::Bless, Format::Html),
        "bless reports in human or json format only"
    );
    assert_eq!(
        refused(Command::Fuzz, Format::Markdown),
        "fuzz reports in human or json format only"
    );
    assert_eq!(
        refused(Command::Delta, Format::Json),
        "delta reports in human or markdown format only"
    );
    for command in [Command::Compare, Command::Run, Command::Merge] {
        assert_eq!(command.formats(), Format::ALL);
    }
    assert_eq!(Command::Run.check(Format::Junit).unwrap(), Renderer::Junit);
    assert_eq!(
        Command::Accept.check(Format::Human).unwrap(),
        Renderer::LedgerChanges
    );
    assert_eq!(anchor("JSON, format version 1"), "json-format-version-1");
    assert_eq!(
        anchor("Markdown, and GitHub Actions"),
        "markdown-and-github-actions"
    );
}
