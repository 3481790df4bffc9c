//! The project's root, and where a path really goes.
//!
//! A pull request can change `parity.toml`: its paths must not send a
//! write (`bless`'s goldens, `accept`'s ledger, `fuzz`'s findings)
//! anywhere else on the machine. So every path the config gives must
//! resolve, symbolic links followed, inside the project's root: the git
//! work tree that holds the config, else the config's directory. And
//! whatever gives them (the config or flags), the goldens must not be the
//! case files, nor either hold the other or the ledger: `golden =
//! "cases"` would have `bless` write results over every case.

use std::io;
use std::path::{Component, Path, PathBuf};

/// The root of the project whose config is in `config_dir`: the nearest
/// directory at or above it holding `.git` (a directory, or the file a
/// linked work tree has), else `config_dir`; resolved.
pub fn project_root(config_dir: &Path) -> io::Result<PathBuf> {
    let dir = config_dir.canonicalize()?;
    let tree = dir
        .ancestors()
        .find(|dir| dir.join(".git").symlink_metadata().is_ok())
        .map(Path::to_path_buf);
    Ok(tree.unwrap_or(dir))
}

/// Where absolute `path` goes: its longest part that exists with every
/// symbolic link followed, then the rest (not there yet, so no link)
/// with `.` and `..` taken as a later `mkdir -p` would.
pub fn resolve(path: &Path) -> PathBuf {
    for base in path.ancestors() {
        let Ok(real) = base.canonicalize() else {
            continue;
        };
        let rest = path.strip_prefix(base).unwrap_or(Path::new(""));
        let mut out = real;
        for component in rest.components() {
            match component {
                Component::ParentDir => {
                    out.pop();
                }
                Component::Normal(name) => out.push(name),
                _ => {}
            }
        }
        return out;
    }
    path.to_path_buf()
}

/// Whether resolved `path` is `dir` or below it.
pub fn within(path: &Path, dir: &Path) -> bool {
    path.starts_with(dir)
}

/// One of a suite's places, resolved, and how to name it in an error.
pub struct Place {
    /// `the golden directory`, `the ledger`.
    pub what: &'static str,
    /// Where it came from: `--golden`, `parity.toml:3: suite.a.golden`.
    pub origin: String,
    /// The path, resolved.
    pub resolved: PathBuf,
}

/// The error when the places overlap: the goldens are the case files, or
/// inside them, or around them; or the ledger is inside either.
pub fn overlap(cases: &Place, golden: &Place, ledger: &Place) -> Option<String> {
    let name = |place: &Place| {
        format!(
            "{} ({}, {})",
            place.what,
            place.origin,
            place.resolved.display()
        )
    };
    let clash = if golden.resolved == cases.resolved {
        Some((golden, "is", cases))
    } else if within(&golden.resolved, &cases.resolved) {
        Some((golden, "is inside", cases))
    } else if within(&cases.resolved, &golden.resolved) {
        Some((golden, "holds", cases))
    } else if within(&ledger.resolved, &cases.resolved) {
        Some((ledger, "is inside", cases))
    } else if within(&ledger.resolved, &golden.resolved) {
        Some((ledger, "is inside", golden))
    } else {
        None
    };
    clash.map(|(a, how, b)| {
        format!(
            "{} {how} {}: they must be apart (goldens written there would overwrite or join the \
             others); nothing was written",
            name(a),
            name(b)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn the_root_is_the_git_work_tree_else_the_config_s_directory() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(top.join("a/b")).unwrap();
        assert_eq!(project_root(&top.join("a/b")).unwrap(), top.join("a/b"));
        std::fs::create_dir(top.join("a/.git")).unwrap();
        assert_eq!(project_root(&top.join("a/b")).unwrap(), top.join("a"));
    }

    #[test]
    fn links_are_followed_and_the_missing_rest_is_taken_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::create_dir(top.join("p")).unwrap();
        std::fs::create_dir(top.join("out")).unwrap();
        symlink(top.join("out"), top.join("p/link")).unwrap();
        assert_eq!(resolve(&top.join("p/link/new/x")), top.join("out/new/x"));
        assert_eq!(resolve(&top.join("p/new/../../y")), top.join("y"));
        assert_eq!(resolve(&top.join("p/link/..")), top);
        assert!(!within(&resolve(&top.join("p/link/g")), &top.join("p")));
        assert!(within(&resolve(&top.join("p/./g")), &top.join("p")));
    }

    #[test]
    fn goldens_and_cases_must_be_apart() {
        let place = |what, path: &str| Place {
            what,
            origin: "test".to_owned(),
            resolved: PathBuf::from(path),
        };
        let check = |cases, golden, ledger| {
            overlap(
                &place("the cases directory", cases),
                &place("the golden directory", golden),
                &place("the ledger", ledger),
            )
        };
        assert_eq!(check("/p/cases", "/p/golden", "/p/l.txt"), None);
        assert_eq!(check("/p/cases", "/p/cases-golden", "/p/l.txt"), None);
        let equal = check("/p/cases", "/p/cases", "/p/l.txt").unwrap();
        assert!(
            equal.starts_with(
                "the golden directory (test, /p/cases) is the cases directory (test, /p/cases)"
            ),
            "{equal}"
        );
        assert!(check("/p/cases", "/p/cases/g", "/p/l.txt")
            .unwrap()
            .contains(" is inside "));
        assert!(check("/p/c/cases", "/p/c", "/p/l.txt")
            .unwrap()
            .contains(" holds "));
        assert!(check("/p/cases", "/p/golden", "/p/golden/l.txt")
            .unwrap()
            .starts_with("the ledger"));
        assert!(check("/p/cases", "/p/golden", "/p/cases/l.txt")
            .unwrap()
            .starts_with("the ledger"));
    }
}
