//! The imports between the files of one crate, read from their text: what
//! `use` lines and inline paths (`crate::a::b`, `super::c`) name, each
//! resolved to the file that defines it. A `mod` line is no import, nor is
//! a parent's `pub use` of a child (it only hands the name on: a name
//! reached through it resolves to the child that defines it). Inline test
//! modules (`#[cfg(test)] mod tests { … }`) and test files are left out:
//! tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One file of a crate: its module path and its code, comments and test
/// module stripped.
pub struct Module {
    pub file: PathBuf,
    pub path: Vec<String>,
    code: String,
}

/// One import of a file, as written, and the file it resolves to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Import {
    pub from: PathBuf,
    pub written: String,
    pub to: PathBuf,
}

/// A crate's files, by module path.
pub struct Crate {
    pub modules: BTreeMap<Vec<String>, Module>,
    /// What `other_crate::…` paths resolve into (`parity_diff` for the
    /// binary): its name and its modules.
    pub extern_crate: Option<(String, BTreeMap<Vec<String>, Module>)>,
}

/// The files of the crate whose root is `root` (`lib.rs`, `main.rs`):
/// those whose first path part under the root's folder `keep` keeps.
pub fn read_modules(root: &Path, keep: &dyn Fn(&str) -> bool) -> BTreeMap<Vec<String>, Module> {
    let dir = root.parent().expect("a crate root has a folder");
    let mut modules = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.expect("the source tree reads");
        let file = entry.path();
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = file.strip_prefix(dir).unwrap();
        let name = relative.file_name().unwrap().to_string_lossy().into_owned();
        let top = relative.iter().next().unwrap().to_string_lossy();
        let top = top.trim_end_matches(".rs");
        if !name.ends_with(".rs")
            || name == "tests.rs"
            || name.ends_with("_tests.rs")
            || (file != root && (!keep(top) || is_root_file(&name)))
        {
            continue;
        }
        let mut path: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned())
            .collect();
        if matches!(
            path.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            path.pop();
        }
        let text = std::fs::read_to_string(file).expect("a source file reads");
        modules.insert(
            path.clone(),
            Module {
                file: file.to_owned(),
                path,
                code: code_of(&text),
            },
        );
    }
    modules
}

fn is_root_file(name: &str) -> bool {
    matches!(name, "lib.rs" | "main.rs")
}

/// The text without comments and without its inline test modules
/// (`#[cfg(test)] mod name { … }`).
fn code_of(text: &str) -> String {
    let code: String = text
        .lines()
        .map(|line| match line.trim_start().starts_with("//") {
            true => "",
            false => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut kept = String::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        let open = after.find(['{', ';']);
        if !after.starts_with("mod ") || open.is_none_or(|open| after.as_bytes()[open] == b';') {
            kept.push_str(&rest[..at + 1]);
            rest = &rest[at + 1..];
            continue;
        }
        kept.push_str(&rest[..at]);
        let body = &after[open.unwrap()..];
        let mut depth = 0;
        let mut end = body.len();
        for (index, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = index + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &body[end..];
    }
    kept.push_str(rest);
    kept
}

impl Crate {
    /// Every import of every file, resolved; imports of a module's own
    /// file, of other crates, and of what no file defines are left out.
    pub fn imports(&self) -> Vec<Import> {
        let mut imports = BTreeSet::new();
        for module in self.modules.values() {
            for written in written_paths(&module.code) {
                if self.hands_on(module, &written) {
                    continue;
                }
                if let Some(to) = self.resolve(module, &written) {
                    if to != module.file {
                        imports.insert(Import {
                            from: module.file.clone(),
                            written: written.join("::"),
                            to,
                        });
                    }
                }
            }
        }
        imports.into_iter().collect()
    }

    /// Whether `written` is a parent's `pub use` of one of its own
    /// children: it hands a name on, and imports nothing.
    fn hands_on(&self, module: &Module, written: &[String]) -> bool {
        let child = match written[0].as_str() {
            "self" => written.get(1),
            _ => written.first(),
        };
        let Some(child) = child else { return false };
        let is_child = self
            .modules
            .contains_key(&[&module.path[..], std::slice::from_ref(child)].concat());
        is_child && module.reexports().any(|path| path == written)
    }

    fn resolve(&self, module: &Module, written: &[String]) -> Option<PathBuf> {
        let (modules, mut path): (&BTreeMap<_, _>, Vec<String>) = match written[0].as_str() {
            "crate" => (&self.modules, written[1..].to_vec()),
            "self" => (&self.modules, [&module.path[..], &written[1..]].concat()),
            "super" => {
                let mut base = module.path.clone();
                let mut rest = written;
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop();
                    rest = &rest[1..];
                }
                (&self.modules, [&base[..], rest].concat())
            }
            first => match &self.extern_crate {
                Some((name, modules)) if name == first => (modules, written[1..].to_vec()),
                _ => {
                    let child = [&module.path[..], &written[..1]].concat();
                    if !self.modules.contains_key(&child) {
                        return None;
                    }
                    (&self.modules, [&module.path[..], written].concat())
                }
            },
        };
        // Follow re-exports (`pub use child::Name;`) to the defining file.
        for _ in 0..8 {
            let (file, rest) = longest_module(modules, &path)?;
            let Some(name) = rest.first() else {
                return Some(file.file.clone());
            };
            match reexport(file, name) {
                Some(target) => {
                    let base = file.path.clone();
                    path = match target[0].as_str() {
                        "crate" => target[1..].to_vec(),
                        "super" => [&base[..base.len().saturating_sub(1)], &target[1..]].concat(),
                        "self" => [&base[..], &target[1..]].concat(),
                        _ => [&base[..], &target[..]].concat(),
                    };
                }
                None => return Some(file.file.clone()),
            }
        }
        None
    }
}

fn longest_module<'m>(
    modules: &'m BTreeMap<Vec<String>, Module>,
    path: &[String],
) -> Option<(&'m Module, Vec<String>)> {
    (0..=path.len()).rev().find_map(|len| {
        modules
            .get(&path[..len])
            .map(|module| (module, path[len..].to_vec()))
    })
}

impl Module {
    /// The paths of its `pub use` statements, as written.
    fn reexports(&self) -> impl Iterator<Item = Vec<String>> + '_ {
        use_statements(&self.code)
            .into_iter()
            .filter(|statement| statement.starts_with("pub"))
            .filter_map(|statement| statement.split_once("use ").map(|(_, tree)| expand(tree)))
            .flatten()
    }
}

/// Where a module's `pub use` takes `name` from, as written there.
fn reexport(module: &Module, name: &str) -> Option<Vec<String>> {
    for statement in use_statements(&module.code) {
        if !statement.starts_with("pub") {
            continue;
        }
        for path in expand(statement.split_once("use ")?.1) {
            if path.last().map(String::as_str) == Some(name) && path.len() > 1 {
                return Some(path);
            }
        }
    }
    None
}

/// Every path a file's code names: its `use` statements, expanded, and
/// inline `crate::`, `super::` and `self::` paths.
fn written_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for statement in use_statements(code) {
        if let Some((_, tree)) = statement.split_once("use ") {
            paths.extend(expand(tree));
        }
    }
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            if code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| word(c) || c == ':')
            {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(word(c) || c == ':'))
                .map_or(code.len(), |end| at + end);
            let parts: Vec<String> = code[at..end]
                .split("::")
                .filter(|part| !part.is_empty())
                .map(str::to_owned)
                .collect();
            if parts.len() > 1 {
                paths.push(parts);
            }
        }
    }
    paths
}

/// The `use` statements of a file's code, each from `use` (or `pub …
/// use`) to its `;`, whitespace squeezed.
fn use_statements(code: &str) -> Vec<String> {
    let mut statements = Vec::new();
    let mut rest = code;
    while let Some(at) = find_use(rest) {
        let end = rest[at..].find(';').map_or(rest.len(), |end| at + end);
        statements.push(
            rest[at..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        );
        rest = &rest[end.min(rest.len())..];
        if rest.is_empty() {
            break;
        }
        rest = &rest[1..];
    }
    statements
}

fn find_use(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find("use ").map(|at| from + at) {
        let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
        let before = text[line_start..at].trim();
        if before.is_empty() || before.starts_with("pub") {
            return Some(
                line_start + text[line_start..].len() - text[line_start..].trim_start().len(),
            );
        }
        from = at + 4;
    }
    None
}

/// `a::{b, c::{D, E as F}}` as paths: `a::b`, `a::c::D`, `a::c::E`.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree
        .chars()
        .filter(|c| !c.is_whitespace() || *c == ' ')
        .collect();
    let mut out = Vec::new();
    expand_into(&[], tree.trim(), &mut out);
    out
}

fn expand_into(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim().trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = segments(&tree[..open]);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let base = [prefix, &head[..]].concat();
        for item in split_top(inner) {
            expand_into(&base, item, out);
        }
        return;
    }
    let tree = tree.split(" as ").next().unwrap_or(tree);
    let mut path = [prefix, &segments(tree)[..]].concat();
    if path.last().map(String::as_str) == Some("self") {
        path.pop();
    }
    if path.last().map(String::as_str) == Some("*") {
        path.pop();
    }
    if !path.is_empty() {
        out.push(path);
    }
}

fn segments(text: &str) -> Vec<String> {
    text.split("::")
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Splits at the commas outside braces.
fn split_top(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .collect()
}
