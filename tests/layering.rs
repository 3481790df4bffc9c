//! The workspace's shape, kept: no import circle between files in any
//! crate, and no import in parity-diff from a lower stage into a higher
//! one. parity-diff's stages are the folders that `src/lib.rs` declares,
//! in the order it declares them, from the bottom up (written once: this
//! test reads them there); the binary's `cli/` and `main.rs` stand above
//! them all. Inside a stage, files may import each other, but not in a
//! circle. See docs/ARCHITECTURE.md.

mod imports;

use imports::{read_modules, Crate, Import};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn parity_diff_src() -> PathBuf {
    root().join("crates/parity-diff/src")
}

/// parity-diff's stages, bottom first, as `src/lib.rs` declares them.
fn stages() -> Vec<String> {
    stages_in(&parity_diff_src())
}

/// The stages a `lib.rs` in `src` declares (its `pub mod` lines), in order.
fn stages_in(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    lib.lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|name| name.trim_end_matches(';').to_owned())
        .collect()
}

fn parity_diff_lib() -> Crate {
    let lib = root().join("crates/parity-diff/src/lib.rs");
    Crate {
        modules: read_modules(&lib, &|top| top != "cli"),
        extern_crate: None,
    }
}

fn parity_diff_bin() -> Crate {
    let main = root().join("crates/parity-diff/src/main.rs");
    let lib = root().join("crates/parity-diff/src/lib.rs");
    Crate {
        modules: read_modules(&main, &|top| top == "cli"),
        extern_crate: Some((
            "parity_diff".into(),
            read_modules(&lib, &|top| top != "cli"),
        )),
    }
}

/// Every crate of the workspace, by the name its failures give it.
fn workspace() -> Vec<(&'static str, Crate)> {
    let lib = |path: &str| Crate {
        modules: read_modules(&root().join(path), &|_| true),
        extern_crate: None,
    };
    vec![
        ("parity-diff (library)", parity_diff_lib()),
        ("parity-diff (binary)", parity_diff_bin()),
        ("js-exact", lib("crates/js-exact/src/lib.rs")),
        ("case-tree", lib("crates/case-tree/src/lib.rs")),
        ("sys-unix", lib("crates/sys-unix/src/lib.rs")),
        (
            "worker-spawn-oracle (library)",
            Crate {
                modules: read_modules(&root().join("src/lib.rs"), &|top| top != "bin"),
                extern_crate: None,
            },
        ),
    ]
}

/// The stage of a file under `src`: its first folder there, or `cli` for
/// the binary's files.
fn stage_of(file: &Path, src: &Path, stages: &[String]) -> Option<usize> {
    let relative = file.strip_prefix(src).ok()?;
    let top = relative.iter().next()?.to_string_lossy();
    let top = top.trim_end_matches(".rs");
    match top {
        "cli" | "main" => Some(stages.len()),
        _ => stages.iter().position(|stage| stage == top),
    }
}

/// Every import of `krates` (files under `src`) from a lower stage into a
/// higher one, said.
fn back_imports(src: &Path, stages: &[String], krates: &[Crate]) -> Vec<String> {
    let mut broken = Vec::new();
    for krate in krates {
        for Import { from, written, to } in krate.imports() {
            let (Some(low), Some(high)) =
                (stage_of(&from, src, stages), stage_of(&to, src, stages))
            else {
                continue;
            };
            if high > low {
                broken.push(format!(
                    "{} imports `{written}` ({}): the stage {} may not import from {}, a stage above it",
                    relative(&from),
                    relative(&to),
                    stage_name(low, stages),
                    stage_name(high, stages),
                ));
            }
        }
    }
    broken
}

/// Every circle of a crate's files, said with the imports that tie it.
fn circles_of(name: &str, krate: &Crate) -> Vec<String> {
    let imports = krate.imports();
    circles(&imports)
        .into_iter()
        .map(|circle| {
            let ties: Vec<String> = imports
                .iter()
                .filter(|import| circle.contains(&import.from) && circle.contains(&import.to))
                .map(|import| {
                    format!(
                        "    {} -> {}: `{}`",
                        relative(&import.from),
                        relative(&import.to),
                        import.written
                    )
                })
                .collect();
            format!(
                "{name}: a circle of {} files:\n{}",
                circle.len(),
                ties.join("\n")
            )
        })
        .collect()
}

fn stage_name(index: usize, stages: &[String]) -> &str {
    stages.get(index).map_or("cli", String::as_str)
}

#[test]
fn parity_diff_declares_its_stages_in_src_lib_rs() {
    let stages = stages();
    assert!(
        stages.len() >= 5,
        "src/lib.rs declares too few stages: {stages:?}"
    );
    let src = root().join("crates/parity-diff/src");
    let mut entries: Vec<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert!(
        entries.len() <= 12,
        "crates/parity-diff/src has {} entries at its top (at most 12: lib.rs, main.rs and stage folders): {entries:?}",
        entries.len()
    );
    for entry in &entries {
        let name = entry.trim_end_matches(".rs");
        assert!(
            matches!(entry.as_str(), "lib.rs" | "main.rs" | "cli") || stages.iter().any(|s| s == name),
            "crates/parity-diff/src/{entry} is neither lib.rs, main.rs, cli/ nor a stage that src/lib.rs declares"
        );
        assert!(
            matches!(entry.as_str(), "lib.rs" | "main.rs") || src.join(entry).is_dir(),
            "crates/parity-diff/src/{entry}: a stage is a folder"
        );
    }
}

#[test]
fn no_parity_diff_stage_imports_from_a_stage_above_it() {
    let stages = stages();
    let broken = back_imports(
        &parity_diff_src(),
        &stages,
        &[parity_diff_lib(), parity_diff_bin()],
    );
    assert!(
        broken.is_empty(),
        "{} imports run back up (the stages, from the bottom, as crates/parity-diff/src/lib.rs declares them: {}; then cli):\n{}\n\
         A lower stage that must hand results upward owns a trait that the higher one implements.",
        broken.len(),
        stages.join(", "),
        broken.join("\n")
    );
}

#[test]
fn no_file_of_the_workspace_imports_itself_through_a_circle() {
    let found: Vec<String> = workspace()
        .iter()
        .flat_map(|(name, krate)| circles_of(name, krate))
        .collect();
    assert!(
        found.is_empty(),
        "{} import circles:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The checks above, on a planted crate that breaks each rule: they can
/// fail, and they say where.
#[test]
fn the_checks_find_a_planted_back_import_and_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let files = [
        ("lib.rs", "pub mod low;\n\npub mod high;\n"),
        ("low/mod.rs", "pub mod a;\npub mod b;\npub use a::A;\n"),
        // A parent's `pub use` of its child and a test module import nothing.
        ("low/a.rs", "use super::b::B;\npub struct A(B);\n#[cfg(test)]\nmod tests {\n    use crate::high::H;\n}\n"),
        ("low/b.rs", "pub struct B;\nfn f() -> crate::low::a::A { todo!() }\n"),
        ("high/mod.rs", "use crate::low::A;\npub struct H(A);\n"),
        ("high/up.rs", "// use crate::low::b::B; is a comment\npub struct Up;\n"),
    ];
    for (path, text) in files {
        std::fs::create_dir_all(src.join(path).parent().unwrap()).unwrap();
        std::fs::write(src.join(path), text).unwrap();
    }
    let krate = || Crate {
        modules: read_modules(&src.join("lib.rs"), &|_| true),
        extern_crate: None,
    };
    let stages = stages_in(&src);
    assert_eq!(stages, ["low", "high"]);
    assert!(back_imports(&src, &stages, &[krate()]).is_empty());
    let circles = circles_of("planted", &krate());
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(circles[0].contains("a circle of 2 files"), "{}", circles[0]);
    assert!(circles[0].contains("low/a.rs -> "), "{}", circles[0]);
    assert!(circles[0].contains("low/b.rs -> "), "{}", circles[0]);

    std::fs::write(
        src.join("low/b.rs"),
        "pub struct B;\nfn f() -> crate::high::H { todo!() }\n",
    )
    .unwrap();
    let broken = back_imports(&src, &stages, &[krate()]);
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(
        broken[0].contains("low/b.rs imports `crate::high::H`")
            && broken[0].ends_with("the stage low may not import from high, a stage above it"),
        "{}",
        broken[0]
    );
    // high imports low's A, which imports B: the back import closed a
    // circle of three files across the stages.
    let circles = circles_of("planted", &krate());
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(circles[0].contains("a circle of 3 files"), "{}", circles[0]);
}

/// The strongly connected parts of more than one file (Tarjan's).
fn circles(imports: &[Import]) -> Vec<Vec<PathBuf>> {
    let mut next: BTreeMap<&PathBuf, Vec<&PathBuf>> = BTreeMap::new();
    for import in imports {
        next.entry(&import.from).or_default().push(&import.to);
        next.entry(&import.to).or_default();
    }
    struct Walk<'a> {
        next: &'a BTreeMap<&'a PathBuf, Vec<&'a PathBuf>>,
        index: BTreeMap<&'a PathBuf, (usize, usize)>,
        stack: Vec<&'a PathBuf>,
        found: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(walk: &mut Walk<'a>, file: &'a PathBuf) {
        let order = walk.index.len();
        walk.index.insert(file, (order, order));
        walk.stack.push(file);
        for &to in &walk.next[file] {
            match walk.index.get(to).copied() {
                None => {
                    visit(walk, to);
                    let low = walk.index[to].1;
                    walk.index.get_mut(file).unwrap().1 = walk.index[file].1.min(low);
                }
                Some((to_order, _)) if walk.stack.contains(&to) => {
                    walk.index.get_mut(file).unwrap().1 = walk.index[file].1.min(to_order);
                }
                Some(_) => {}
            }
        }
        if walk.index[file].0 == walk.index[file].1 {
            let at = walk.stack.iter().rposition(|on| *on == file).unwrap();
            let part: Vec<PathBuf> = walk.stack.drain(at..).cloned().collect();
            if part.len() > 1 {
                walk.found.push(part);
            }
        }
    }
    let mut walk = Walk {
        next: &next,
        index: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for &file in next.keys() {
        if !walk.index.contains_key(file) {
            visit(&mut walk, file);
        }
    }
    walk.found
}
