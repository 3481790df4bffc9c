//! The project a command works in: its `parity.toml` (found, given with
//! `--config`, or ignored with `--no-config`), the suites selected with
//! `--suite`, and where paths start.
//!
//! With a config, the commands that run an oracle (`run`, `accept`,
//! `bless`, `fuzz`) work in its directory: the process changes into it,
//! so every command (port, reference, generator) runs there, and every
//! path is spelled from there. The config's paths are relative to it
//! already; paths given on the command line are rebased onto it, so
//! they still mean what they meant where parity-diff was started. A
//! report then names the same files the same way from any directory of
//! the project.

use std::path::{Component, Path, PathBuf};

use clap::Args;
use parity_diff::config::{self, Config, Suite};
use parity_diff::error::InputError;
use parity_diff::{corpus, ledger};

/// Where the project's configuration is.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = "Project")]
pub struct ConfigFlags {
    /// The project configuration [default: parity.toml in the current
    /// directory or the nearest one above it].
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Ignore any parity.toml.
    #[arg(long, global = true, conflicts_with = "config")]
    pub no_config: bool,
    /// Only this suite of parity.toml (repeat the flag for more; default:
    /// every suite).
    #[arg(long = "suite", global = true, value_name = "NAME")]
    pub suites: Vec<String>,
}

/// The configuration in use, and where parity-diff was started.
pub struct Project {
    /// The directory parity-diff was started in.
    started: PathBuf,
    /// The config, when one is in use.
    pub config: Option<Config>,
    /// The config's directory, absolute.
    dir: PathBuf,
}

impl Project {
    /// The project `flags` say, from the current directory.
    pub fn open(flags: &ConfigFlags) -> Result<Project, InputError> {
        let started = std::env::current_dir().map_err(|error| {
            InputError::new(format!("cannot read the current directory: {error}"))
        })?;
        let path = match (&flags.config, flags.no_config) {
            (_, true) => None,
            (Some(path), false) => Some(path.clone()),
            (None, false) => config::discover(&started),
        };
        let config = path.as_deref().map(config::load).transpose()?;
        if config.is_none() && !flags.suites.is_empty() {
            return Err(InputError::new(
                "--suite NAME needs a parity.toml (none was found, or --no-config)",
            ));
        }
        let dir = config
            .as_ref()
            .map_or_else(|| started.clone(), |config| started.join(&config.dir));
        Ok(Project {
            started,
            config,
            dir,
        })
    }

    /// The suites selected (none without a config).
    pub fn suites(&self, names: &[String]) -> Result<Vec<&Suite>, InputError> {
        match &self.config {
            Some(config) => config.select(names),
            None => Ok(Vec::new()),
        }
    }

    /// Works in the config's directory from now on (nothing without one).
    pub fn enter(&self) -> Result<(), InputError> {
        if self.config.is_none() {
            return Ok(());
        }
        std::env::set_current_dir(&self.dir).map_err(|error| {
            InputError::new(format!(
                "cannot work in {}, the directory of the config: {error}",
                self.dir.display()
            ))
        })
    }

    /// A path given on the command line, spelled from the directory
    /// [`enter`](Self::enter) works in.
    pub fn given(&self, path: PathBuf) -> PathBuf {
        if self.config.is_none() {
            return path;
        }
        self.spelled_from_dir(&self.started.join(path))
    }

    /// A path of the config (joined to its directory), spelled from that
    /// directory: relative to it when it is inside it.
    pub fn configured(&self, path: &Path) -> PathBuf {
        self.spelled_from_dir(&self.started.join(path))
    }

    /// A path spelled from the config's directory, spelled from where
    /// parity-diff was started instead (for a command that does not
    /// [`enter`](Self::enter)): absolute.
    pub fn outside(&self, path: &Path) -> PathBuf {
        lexical(&self.dir.join(path))
    }

    fn spelled_from_dir(&self, absolute: &Path) -> PathBuf {
        let absolute = lexical(absolute);
        match absolute.strip_prefix(lexical(&self.dir)) {
            Ok(inside) if inside.as_os_str().is_empty() => PathBuf::from("."),
            Ok(inside) => inside.to_path_buf(),
            Err(_) => absolute,
        }
    }
}

/// Where a suite's files are: each the flag's path when given, else the
/// suite's key, else the default beside the cases directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    /// The case files' directory.
    pub cases: PathBuf,
    /// The goldens' directory.
    pub golden: PathBuf,
    /// `--ledger`: a ledger that must exist.
    pub ledger: Option<PathBuf>,
    /// Where the ledger is otherwise (when that file exists).
    pub ledger_default: PathBuf,
}

/// The paths flags gave.
#[derive(Debug, Clone, Default)]
pub struct GivenPlaces {
    pub cases: Option<PathBuf>,
    pub golden: Option<PathBuf>,
    pub ledger: Option<PathBuf>,
}

impl Project {
    /// A suite's places, the flags' overriding its keys.
    pub fn places(&self, given: GivenPlaces, suite: Option<&Suite>) -> Places {
        let key = |pick: fn(&Suite) -> Option<&PathBuf>| {
            suite.and_then(pick).map(|path| self.configured(path))
        };
        let cases = match given.cases {
            Some(path) => self.given(path),
            None => key(|suite| suite.cases.as_ref()).unwrap_or_else(|| PathBuf::from("cases")),
        };
        let golden = match given.golden {
            Some(path) => self.given(path),
            None => key(|suite| suite.golden.as_ref())
                .unwrap_or_else(|| corpus::beside(&cases, "golden")),
        };
        let ledger_default =
            key(|suite| suite.ledger.as_ref()).unwrap_or_else(|| ledger::default_path(&cases));
        Places {
            golden,
            ledger: given.ledger.map(|path| self.given(path)),
            ledger_default,
            cases,
        }
    }

    /// Where fuzz writes its findings: `--out`, else the suite's
    /// `fuzz-out`, else `fuzz-findings` beside the cases directory.
    pub fn fuzz_out(&self, given: Option<PathBuf>, suite: Option<&Suite>, cases: &Path) -> PathBuf {
        match (given, suite.and_then(|suite| suite.fuzz_out.as_ref())) {
            (Some(path), _) => self.given(path),
            (None, Some(path)) => self.configured(path),
            (None, None) => corpus::beside(cases, FUZZ_FINDINGS),
        }
    }
}

/// fuzz's findings directory by default, beside the cases directory (not
/// in it: a finding has no golden until it is promoted).
pub const FUZZ_FINDINGS: &str = "fuzz-findings";

/// Refuses the flags that name one suite's files or port (`flags`: each
/// flag's name and whether it was given) when several suites are
/// selected.
pub fn one_suite_only(suites: &[&Suite], flags: &[(&str, bool)]) -> Result<(), InputError> {
    if suites.len() < 2 {
        return Ok(());
    }
    match flags.iter().find(|(_, given)| *given) {
        Some((flag, _)) => {
            let names: Vec<&str> = suites.iter().map(|suite| suite.name.as_str()).collect();
            Err(InputError::new(format!(
                "{flag} names one suite's, and {} suites are selected ({}): choose one with --suite NAME",
                suites.len(),
                names.join(", ")
            )))
        }
        None => Ok(()),
    }
}

/// `path` with its `.` components dropped and each `..` taking the
/// component before it (a symbolic link is not followed: the path names
/// what it named for a shell's `cd`, as a relative path given here did).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(started: &str, dir: &str) -> Project {
        Project {
            started: started.into(),
            config: Some(Config {
                path: PathBuf::from(dir).join("parity.toml"),
                dir: dir.into(),
                suites: Vec::new(),
            }),
            dir: dir.into(),
        }
    }

    #[test]
    fn paths_are_spelled_from_the_config_s_directory() {
        let project = project("/p/sub", "/p");
        assert_eq!(project.given("x".into()), PathBuf::from("sub/x"));
        assert_eq!(project.given("../x".into()), PathBuf::from("x"));
        assert_eq!(project.given(".".into()), PathBuf::from("sub"));
        assert_eq!(project.given("..".into()), PathBuf::from("."));
        assert_eq!(
            project.given("/elsewhere/x".into()),
            PathBuf::from("/elsewhere/x")
        );
        assert_eq!(project.given("../../q".into()), PathBuf::from("/q"));
        assert_eq!(
            project.configured(Path::new("/p/cases")),
            PathBuf::from("cases")
        );
        assert_eq!(
            project.configured(Path::new("/p/../o/c")),
            PathBuf::from("/o/c")
        );
    }
}

/// Whether parity-diff runs in CI, where it refuses to change the goldens,
/// the ledger or the corpus: `CI` set to anything but empty, `0` or
/// `false` (any case), the convention of ci-info and insta, so that a
/// shell that cleared it (`CI=`) or turned it off (`CI=0`) is not CI.
pub fn in_ci() -> bool {
    ci_value_means_ci(std::env::var_os("CI").as_deref())
}

fn ci_value_means_ci(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|value| {
        let value = value.to_string_lossy();
        let value = value.trim();
        !(value.is_empty() || value == "0" || value.eq_ignore_ascii_case("false"))
    })
}

#[cfg(test)]
mod ci_tests {
    use super::ci_value_means_ci;

    #[test]
    fn ci_is_set_unless_empty_zero_or_false() {
        let means = |value: Option<&str>| ci_value_means_ci(value.map(std::ffi::OsStr::new));
        assert!(!means(None));
        for off in ["", " ", "0", "false", "FALSE", "False"] {
            assert!(!means(Some(off)), "CI={off:?} is not CI");
        }
        for on in ["true", "1", "yes", "github", "TRUE"] {
            assert!(means(Some(on)), "CI={on:?} is CI");
        }
    }
}
