//! Every command example in the README and the book that shows its
//! output runs, and prints what it shows: each ```console block (trycmd's
//! syntax: `$ command`, an optional `? status` line, then the output,
//! `...` for lines left out and `[..]` for part of one) is run from the
//! repository's root, on the bundled corpus or a fixture, with the
//! binaries of this build first on the PATH. A block whose info string
//! says `needs-python3` runs a port written in Python: those run in the
//! test ignored without python3.
//!
//! trycmd reads Markdown files itself, but takes a bare ``` fence for one
//! of its own; the book's bare fences are plain text, so the console
//! blocks are copied, each file's into a file of its own, and trycmd runs
//! those. Its messages name the copy: the source and line of each block
//! are in the copy, above it.

use crate::parity_diff_support as parity_support;

use std::path::{Path, PathBuf};

/// One file's console blocks: its path, and the blocks as trycmd reads
/// them, each preceded by a line naming where it is.
fn console_blocks(path: &Path, text: &str, python: bool) -> Option<String> {
    let mut out = String::new();
    let mut lines = text.lines().enumerate();
    let mut blocks = 0;
    while let Some((at, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```console") else {
            continue;
        };
        if info
            .split(',')
            .any(|attribute| attribute == "needs-python3")
            != python
        {
            continue;
        }
        blocks += 1;
        out.push_str(&format!("{}:{}\n\n```console\n", path.display(), at + 1));
        for (_, line) in lines.by_ref() {
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

/// The README's and the book's console blocks, copied into `into`: how
/// many files have some.
fn copy_blocks(into: &Path, python: bool) -> usize {
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
        if let Some(blocks) = console_blocks(relative, &text, python) {
            let name = relative.display().to_string().replace('/', "__");
            let copy = into.join(name);
            std::fs::write(&copy, blocks).unwrap();
            if python {
                sandbox(&copy);
            }
            copied += 1;
        }
    }
    copied
}

/// Makes trycmd run `copy`'s blocks in a fresh copy of what they read:
/// `copy.in/` holds the bundled corpus, parity.toml and examples/, and an
/// empty `copy.out/` (nothing to compare afterwards) turns the sandbox on.
fn sandbox(copy: &Path) {
    let root = parity_support::root();
    let base = copy.with_extension("in");
    for part in ["cases", "golden", "examples", "parity.toml"] {
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

/// Runs the copied blocks with this build's binaries, from the root.
fn run_examples(python: bool) {
    let dir = tempfile::tempdir().unwrap();
    let copied = copy_blocks(dir.path(), python);
    assert!(copied > 0, "no console block found (python: {python})");
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
        // has it: no GitHub Actions, no colour asked for or refused.
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
    // The examples run from the root, where trycmd's default working
    // directory (the test's own) is.
    assert_eq!(
        std::env::current_dir().unwrap().canonicalize().unwrap(),
        parity_support::root().canonicalize().unwrap()
    );
    run_examples(false);
}

#[test]
#[ignore = "needs python3"]
fn the_examples_with_a_port_in_python_print_what_they_show() {
    parity_support::require_python3();
    run_examples(true);
}

#[test]
fn console_blocks_are_copied_with_where_they_are_and_nothing_else() {
    let text = "intro\n```\nnot a command\n```\n```console\n$ parity-diff --version\nparity-diff [..]\n```\n```console,needs-python3\n$ python3 x.py\n```\n";
    let copied = console_blocks(Path::new("a.md"), text, false).unwrap();
    assert_eq!(
        copied,
        "a.md:5\n\n```console\n$ parity-diff --version\nparity-diff [..]\n```\n\n"
    );
    let python = console_blocks(Path::new("a.md"), text, true).unwrap();
    assert!(
        python.starts_with("a.md:9\n\n```console\n$ python3 x.py\n"),
        "{python}"
    );
    assert_eq!(
        console_blocks(Path::new("b.md"), "no blocks\n", false),
        None
    );
}
