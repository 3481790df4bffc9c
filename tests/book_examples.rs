//! Every command example in the README and the book that shows its
//! output runs, and prints what it shows: each ```console block (trycmd's
//! syntax: `$ command`, an optional `? status` line, then the output,
//! `...` for lines left out and `[..]` for part of one) runs with the
//! binaries of this build first on the PATH, where its info string says:
//!
//! - `console`: from the repository's root, on the bundled corpus or a
//!   fixture (tests/fixtures/book/), writing nothing;
//! - `console,in-empty-dir`: in a fresh empty directory (a new project:
//!   `parity-diff init`, `bless`, `run`);
//! - `console,needs-python3`: in a fresh copy of the bundled corpus,
//!   parity.toml and examples/ (a port written in Python, and a ledger
//!   written), in the test ignored without python3.
//!
//! trycmd reads Markdown files itself, but takes a bare ``` fence for one
//! of its own; the book's bare fences are plain text, so the console
//! blocks are copied, each file's of one kind into a file of its own, and
//! trycmd runs those (a fresh directory is trycmd's sandbox: the copy's
//! `.in` directory, copied afresh for each run). Its messages name the
//! copy: the source and line of each block are in the copy, above it.

use crate::parity_diff_support as parity_support;

use std::path::{Path, PathBuf};

/// Where a console block runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Root,
    EmptyDir,
    Python,
}

impl Kind {
    /// A block's kind, from its info string after `console`.
    fn of(info: &str) -> Kind {
        let attributes: Vec<&str> = info.split(',').collect();
        if attributes.contains(&"needs-python3") {
            Kind::Python
        } else if attributes.contains(&"in-empty-dir") {
            Kind::EmptyDir
        } else {
            Kind::Root
        }
    }

    /// What the copies of this kind are called after their source.
    fn suffix(self) -> &'static str {
        match self {
            Kind::Root => "",
            Kind::EmptyDir => "__empty-dir",
            Kind::Python => "__corpus-copy",
        }
    }
}

/// One file's console blocks of one kind, as trycmd reads them, each
/// preceded by a line naming where it is; None when it has none.
fn console_blocks(path: &Path, text: &str, kind: Kind) -> Option<String> {
    let mut out = String::new();
    let mut lines = text.lines().enumerate();
    let mut blocks = 0;
    while let Some((at, line)) = lines.next() {
        // A block in a list item is indented as the item is: it is
        // copied without that indent.
        let indent = line.len() - line.trim_start_matches(' ').len();
        let Some(info) = line[indent..].strip_prefix("```console") else {
            continue;
        };
        if Kind::of(info) != kind {
            continue;
        }
        blocks += 1;
        out.push_str(&format!("{}:{}\n\n```console\n", path.display(), at + 1));
        for (_, line) in lines.by_ref() {
            let spaces = line.len() - line.trim_start_matches(' ').len();
            let line = &line[spaces.min(indent)..];
            out.push_str(line);
            out.push('\n');
            if line.starts_with("```") {
                break;
            }
        }
        out.push('\n');
    }
    (blocks > 0).then_some(out)
}

/// The README's and the book's console blocks of `kinds`, copied into
/// `into`: how many files were written.
fn copy_blocks(into: &Path, kinds: &[Kind]) -> usize {
    let root = parity_support::root();
    let mut sources: Vec<PathBuf> = vec![root.join("README.md")];
    sources.extend(
        walkdir::WalkDir::new(root.join("docs"))
            .into_iter()
            .filter_map(Result::ok)
            .map(|entry| entry.into_path())
            .filter(|path| path.extension().is_some_and(|e| e == "md")),
    );
    let mut copied = 0;
    for source in sources {
        let relative = source.strip_prefix(root).unwrap();
        let text = std::fs::read_to_string(&source).unwrap();
        for &kind in kinds {
            let Some(blocks) = console_blocks(relative, &text, kind) else {
                continue;
            };
            let stem = relative.with_extension("").display().to_string();
            let copy = into.join(format!("{}{}.md", stem.replace('/', "__"), kind.suffix()));
            std::fs::write(&copy, blocks).unwrap();
            match kind {
                Kind::Root => {}
                Kind::EmptyDir => sandbox(&copy, &[]),
                Kind::Python => sandbox(&copy, &["cases", "golden", "examples", "parity.toml"]),
            }
            copied += 1;
        }
    }
    copied
}

/// Makes trycmd run `copy`'s blocks in a fresh directory holding copies
/// of the repository's `parts`: `copy.in/` holds them, and an empty
/// `copy.out/` (nothing to compare afterwards) turns the sandbox on.
fn sandbox(copy: &Path, parts: &[&str]) {
    let root = parity_support::root();
    let base = copy.with_extension("in");
    std::fs::create_dir_all(&base).unwrap();
    for part in parts {
        for entry in walkdir::WalkDir::new(root.join(part)) {
            let entry = entry.unwrap();
            let to = base.join(entry.path().strip_prefix(root).unwrap());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::copy(entry.path(), &to).unwrap();
            }
        }
    }
    std::fs::create_dir_all(copy.with_extension("out")).unwrap();
}

/// Runs the copied blocks of `kinds` with this build's binaries.
fn run_examples(kinds: &[Kind]) {
    let dir = tempfile::tempdir().unwrap();
    let copied = copy_blocks(dir.path(), kinds);
    assert!(copied > 0, "no console block of {kinds:?} found");
    let bin = Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("parity-diff", bin.join("parity-diff"))
        .register_bin("worker-spawn-oracle", bin.join("worker-spawn-oracle"))
        .env("PATH", path.to_string_lossy())
        // What the tool reads from its surroundings, as a reader's shell
        // has it: not CI (an empty CI is none), no GitHub Actions, no
        // colour asked for or refused.
        .env("CI", "")
        .env("GITHUB_ACTIONS", "")
        .env("GITHUB_STEP_SUMMARY", "")
        .env("NO_COLOR", "")
        .env("CLICOLOR", "")
        .env("CLICOLOR_FORCE", "")
        .case(dir.path().join("*.md"));
    cases.run();
}

#[test]
fn the_examples_of_the_readme_and_the_book_print_what_they_show() {
    // The root's examples run where trycmd's default working directory
    // (the test's own) is.
    assert_eq!(
        std::env::current_dir().unwrap().canonicalize().unwrap(),
        parity_support::root().canonicalize().unwrap()
    );
    run_examples(&[Kind::Root, Kind::EmptyDir]);
}

#[test]
#[ignore = "needs python3"]
fn the_examples_with_a_port_in_python_print_what_they_show() {
    parity_support::require_python3();
    run_examples(&[Kind::Python]);
}

#[test]
fn console_blocks_are_copied_by_kind_with_where_they_are() {
    let text = "intro\n```\nnot a command\n```\n```console\n$ parity-diff --version\nparity-diff [..]\n```\n```console,needs-python3\n$ python3 x.py\n```\n```console,in-empty-dir\n$ parity-diff init\n```\n";
    let root = console_blocks(Path::new("a.md"), text, Kind::Root).unwrap();
    assert_eq!(
        root,
        "a.md:5\n\n```console\n$ parity-diff --version\nparity-diff [..]\n```\n\n"
    );
    let python = console_blocks(Path::new("a.md"), text, Kind::Python).unwrap();
    assert!(
        python.starts_with("a.md:9\n\n```console\n$ python3 x.py\n"),
        "{python}"
    );
    let empty = console_blocks(Path::new("a.md"), text, Kind::EmptyDir).unwrap();
    assert!(
        empty.starts_with("a.md:12\n\n```console\n$ parity-diff init\n"),
        "{empty}"
    );
    assert_eq!(
        console_blocks(Path::new("b.md"), "no blocks\n", Kind::Root),
        None
    );
    let item = "1. a step:\n\n   ```console\n   $ parity-diff run\n     indented output\n   ```\n";
    assert_eq!(
        console_blocks(Path::new("c.md"), item, Kind::Root).unwrap(),
        "c.md:3\n\n```console\n$ parity-diff run\n  indented output\n```\n\n"
    );
}
