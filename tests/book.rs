//! The README and the book (docs/, an mdBook) against the repository and
//! the tool: every relative link points at a file that exists (and at a
//! heading of it, for `#anchor`), every chapter SUMMARY.md names exists,
//! and every flag that `parity-diff SUB --help` lists is in SUB's
//! reference chapter (docs/reference/SUB.md). Their command examples run
//! in tests/book_examples.rs.

use crate::parity_diff_support as parity_support;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The README and every Markdown file of the book, by path.
fn documents() -> Vec<PathBuf> {
    let root = parity_support::root();
    let mut found = vec![root.join("README.md")];
    found.extend(
        walkdir::WalkDir::new(root.join("docs"))
            .into_iter()
            .filter_map(Result::ok)
            .map(|entry| entry.into_path())
            .filter(|path| path.extension().is_some_and(|e| e == "md")),
    );
    found.sort();
    found
}

/// The lines of `text` outside fenced code blocks, with their numbers,
/// and with code spans blanked (a link in code is text, not a link).
fn prose(text: &str) -> Vec<(usize, String)> {
    outside_fences(text)
        .into_iter()
        .map(|(at, line)| (at, without_code_spans(line)))
        .collect()
}

/// The lines of `text` outside fenced code blocks, with their numbers.
fn outside_fences(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<String> = None;
    let mut lines = Vec::new();
    for (at, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let ticks = trimmed.len() - trimmed.trim_start_matches(['`', '~']).len();
        if ticks >= 3 {
            let marker = &trimmed[..ticks];
            match &fence {
                Some(open) if marker.starts_with(open.as_str()) => fence = None,
                Some(_) => {}
                None => fence = Some(marker.to_owned()),
            }
            continue;
        }
        if fence.is_none() {
            lines.push((at + 1, line));
        }
    }
    lines
}

/// `line` with each code span's text replaced by spaces.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let run = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let ticks = &rest[start..start + run];
        out.push_str(&rest[..start]);
        let after = &rest[start + run..];
        match after.find(ticks) {
            Some(end) => {
                out.push_str(&" ".repeat(run * 2 + end));
                rest = &after[end + run..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links and images in `line`: `[text](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(['<', '>']).to_owned());
        rest = &after[end..];
    }
    targets
}

/// The anchors GitHub (and mdBook) give a document's headings: lowercase,
/// punctuation dropped, spaces as hyphens, a repeated one numbered.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut found = BTreeSet::new();
    for (_, line) in outside_fences(text) {
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let count = seen.entry(slug.clone()).or_insert(0);
        found.insert(if *count == 0 {
            slug.clone()
        } else {
            format!("{slug}-{count}")
        });
        *count += 1;
    }
    found
}

/// Where `target`, a link in `document`, leads nowhere; None for a link
/// elsewhere (a scheme) or one that holds.
fn broken(document: &Path, text: &str, target: &str) -> Option<String> {
    if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        document.to_path_buf()
    } else {
        document.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!("{target}: {} does not exist", file.display()));
    }
    let anchor = anchor.filter(|anchor| !anchor.is_empty())?;
    if file.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let heads = if path.is_empty() {
        anchors(text)
    } else {
        anchors(&std::fs::read_to_string(&file).unwrap())
    };
    (!heads.contains(anchor))
        .then(|| format!("{target}: no heading of {path} has the anchor #{anchor}"))
}

#[test]
fn every_relative_link_in_the_readme_and_the_book_leads_somewhere() {
    let root = parity_support::root();
    let mut problems = Vec::new();
    let mut links = 0;
    for document in documents() {
        let text = std::fs::read_to_string(&document).unwrap();
        for (line, prose) in prose(&text) {
            for target in link_targets(&prose) {
                links += 1;
                if let Some(why) = broken(&document, &text, &target) {
                    let name = document.strip_prefix(root).unwrap().display();
                    problems.push(format!("{name}:{line}: {why}"));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "links that lead nowhere:\n{}",
        problems.join("\n")
    );
    assert!(
        links > 100,
        "only {links} links found: is the parser reading the files?"
    );
}

#[test]
fn the_link_checker_finds_a_missing_file_and_a_missing_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let document = dir.path().join("a.md");
    let text = "# A title, with `code`\n\n## Twice\n\n## Twice\n";
    std::fs::write(&document, text).unwrap();
    assert_eq!(broken(&document, text, "#a-title-with-code"), None);
    assert_eq!(broken(&document, text, "a.md#twice-1"), None);
    assert!(broken(&document, text, "#twice-2").is_some());
    assert!(broken(&document, text, "b.md").is_some());
    assert_eq!(broken(&document, text, "https://example.com/b.md"), None);
    let line = "see [b](b.md) and `[c](c.md)`, ![d](d.png \"title\")";
    assert_eq!(link_targets(&without_code_spans(line)), ["b.md", "d.png"]);
}

#[test]
fn every_chapter_that_summary_names_exists() {
    let docs = parity_support::root().join("docs");
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).unwrap();
    let chapters: Vec<String> = prose(&summary)
        .iter()
        .flat_map(|(_, line)| link_targets(line))
        .collect();
    assert!(chapters.len() > 20, "SUMMARY.md names {chapters:?}");
    for chapter in chapters {
        assert!(
            docs.join(&chapter).is_file(),
            "SUMMARY.md names {chapter}, which does not exist"
        );
    }
}

/// The subcommands that `parity-diff --help` lists (without `help`).
fn subcommands() -> Vec<String> {
    let ran = parity_support::run(parity_support::root(), &["--help"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    ran.stdout
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.strip_prefix("  "))
        .filter(|line| !line.starts_with(' '))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The flags an option line of clap's help names: `-j, --jobs <N>  …`
/// gives `-j` and `--jobs`; `--help` and `--version` are left out.
fn flags(help: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in help.lines() {
        let Some(option) = line.strip_prefix("  ") else {
            continue;
        };
        let option = option.trim_start();
        if !option.starts_with('-') || line.len() - option.len() > 8 {
            continue;
        }
        let names = option.split("  ").next().unwrap_or("");
        for name in names.split([',', ' ']) {
            let name = name.trim();
            if name.starts_with('-') && !matches!(name, "-h" | "--help" | "-V" | "--version") {
                found.push(name.to_owned());
            }
        }
    }
    found
}

#[test]
fn every_flag_that_help_lists_is_in_its_subcommand_s_reference_chapter() {
    let root = parity_support::root();
    let summary = std::fs::read_to_string(root.join("docs/SUMMARY.md")).unwrap();
    let subcommands = subcommands();
    assert!(subcommands.len() >= 10, "subcommands: {subcommands:?}");
    let mut missing = Vec::new();
    for sub in &subcommands {
        let chapter = format!("reference/{sub}.md");
        let Ok(text) = std::fs::read_to_string(root.join("docs").join(&chapter)) else {
            missing.push(format!("docs/{chapter} does not exist"));
            continue;
        };
        if !summary.contains(&format!("]({chapter})")) {
            missing.push(format!("docs/SUMMARY.md does not name {chapter}"));
        }
        let ran = parity_support::run(root, &[sub, "--help"]);
        assert_eq!(ran.code, 0, "{sub} --help: {}", ran.stderr);
        let listed = flags(&ran.stdout);
        assert!(
            !listed.is_empty(),
            "{sub} --help lists no flag:\n{}",
            ran.stdout
        );
        for flag in listed {
            if !mentions(&text, &flag) {
                missing.push(format!("docs/{chapter} does not name {flag}"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Whether `text` names `flag` whole: `--rerun-failed` is no mention of
/// `--rerun`.
fn mentions(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(at, _)| {
        let next = text[at + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

#[test]
fn flags_are_read_from_help_and_found_whole() {
    let help = "Options:\n      --oracle <CMD>  The oracle\n  -j, --jobs <N>      How many\n  -h, --help   Print help\n                 --not-a-flag in a description\n";
    assert_eq!(flags(help), ["--oracle", "-j", "--jobs"]);
    assert!(mentions("`--rerun-failed REPORT`", "--rerun-failed"));
    assert!(!mentions("`--rerun-failed REPORT`", "--rerun"));
}
