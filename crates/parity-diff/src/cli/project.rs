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
use parity_diff::base::error::InputError;
use parity_diff::corpus::config::{self, Config, Suite};
use parity_diff::{corpus, ledger};

use crate::cli::root::{self, Place};

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
    /// Let parity.toml's paths (cases, golden, ledger, fuzz-out) resolve
    /// outside the project's root (the git work tree holding the config,
    /// else its directory). Only a flag can: a pull request can change
    /// the config, not the command line CI runs.
    #[arg(long, global = true)]
    pub allow_outside_root: bool,
}

/// The configuration in use, and where parity-diff was started.
pub struct Project {
    /// The directory parity-diff was started in.
    started: PathBuf,
    /// The config, when one is in use.
    pub config: Option<Config>,
    /// The config's directory, absolute.
    dir: PathBuf,
    /// The project's root ([`root::project_root`]) when a config is in
    /// use and its paths must stay inside it.
    root: Option<PathBuf>,
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
        let root = match (&config, flags.allow_outside_root) {
            (Some(config), false) => Some(root::project_root(&dir).map_err(|error| {
                InputError::new(format!(
                    "cannot find the project's root from {}: {error}",
                    config.path.display()
                ))
            })?),
            _ => None,
        };
        Ok(Project {
            started,
            config,
            dir,
            root,
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

/// Where one of a suite's places came from, for errors.
#[derive(Clone, Copy)]
enum Origin {
    /// A flag (or a default beside a flag's path): the user's choice.
    Flag(&'static str),
    /// The suite's key.
    Key(&'static str),
    /// The default (beside the config's `cases`, or its default).
    Default(&'static str),
}

impl Project {
    /// A suite's places, the flags' overriding its keys. A path that
    /// the config gives (a key, or a default beside its `cases`) must
    /// resolve inside the project's root; and the places must be apart
    /// ([`root::overlap`]), whoever gave them.
    pub fn places(&self, given: GivenPlaces, suite: Option<&Suite>) -> Result<Places, InputError> {
        let key = |pick: fn(&Suite) -> Option<&PathBuf>| {
            suite.and_then(pick).map(|path| self.configured(path))
        };
        let (cases, cases_from) = match given.cases {
            Some(path) => (self.given(path), Origin::Flag("--cases")),
            None => match key(|suite| suite.cases.as_ref()) {
                Some(path) => (path, Origin::Key("cases")),
                None => (PathBuf::from("cases"), Origin::Default("cases")),
            },
        };
        // A default beside the cases is the cases' giver's.
        let beside = |what| match cases_from {
            Origin::Flag(flag) => Origin::Flag(flag),
            _ => Origin::Default(what),
        };
        let (golden, golden_from) = match given.golden {
            Some(path) => (self.given(path), Origin::Flag("--golden")),
            None => match key(|suite| suite.golden.as_ref()) {
                Some(path) => (path, Origin::Key("golden")),
                None => (corpus::beside(&cases, "golden"), beside("golden")),
            },
        };
        // Without a key, beside parity.toml (unless --cases named the
        // cases: then beside them, as without a config).
        let (ledger_default, default_from) = match (key(|suite| suite.ledger.as_ref()), cases_from)
        {
            (Some(path), _) => (path, Origin::Key("ledger")),
            (None, Origin::Flag(_)) => (ledger::default_path(&cases), beside("ledger")),
            (None, _) => (
                self.default_ledger(suite, &cases),
                Origin::Default("ledger"),
            ),
        };
        let ledger = given.ledger.map(|path| self.given(path));
        let (ledger_in_use, ledger_from) = match &ledger {
            Some(path) => (path, Origin::Flag("--ledger")),
            None => (&ledger_default, default_from),
        };
        let cases_place = self.place("the cases directory", &cases, cases_from, suite)?;
        let golden_place = self.place("the golden directory", &golden, golden_from, suite)?;
        let ledger_place = self.place("the ledger", ledger_in_use, ledger_from, suite)?;
        self.place("the ledger", &ledger_default, default_from, suite)?;
        if let Some(clash) = root::overlap(&cases_place, &golden_place, &ledger_place) {
            return Err(InputError::new(clash));
        }
        Ok(Places {
            golden,
            ledger,
            ledger_default,
            cases,
        })
    }

    /// Where a suite's ledger is without `--ledger` or its `ledger` key:
    /// beside parity.toml (`parity-ledger.txt`, or
    /// `parity-ledger-SUITE.txt` when the config has several suites),
    /// not beside the cases, which may be another project's (vendored);
    /// without a config, beside the cases. A ledger at the former place
    /// beside the cases is still used while there is none beside
    /// parity.toml, with a warning.
    fn default_ledger(&self, suite: Option<&Suite>, cases: &Path) -> PathBuf {
        let beside_cases = ledger::default_path(cases);
        let Some(config) = &self.config else {
            return beside_cases;
        };
        let name = match suite {
            Some(suite) if config.suites.len() > 1 => format!("parity-ledger-{}.txt", suite.name),
            _ => ledger::DEFAULT_NAME.to_owned(),
        };
        let beside_config = PathBuf::from(name);
        if beside_cases != beside_config
            && !self.outside(&beside_config).exists()
            && self.outside(&beside_cases).exists()
        {
            eprintln!(
                "parity-diff: warning: using the ledger {} beside the cases; the default \
                 ledger of a project is {} beside parity.toml: move it there, or name it \
                 with the suite's `ledger` key",
                parity_diff::base::outside::text(&beside_cases.display().to_string()),
                parity_diff::base::outside::text(&beside_config.display().to_string()),
            );
            return beside_cases;
        }
        beside_config
    }

    /// Where fuzz writes its findings: `--out`, else the suite's
    /// `fuzz-out`, else `fuzz-findings` beside the cases directory; the
    /// config's inside the project's root, and none among the case
    /// files or goldens.
    pub fn fuzz_out(
        &self,
        given: Option<PathBuf>,
        suite: Option<&Suite>,
        places: &Places,
    ) -> Result<PathBuf, InputError> {
        let (out, from) = match (given, suite.and_then(|suite| suite.fuzz_out.as_ref())) {
            (Some(path), _) => (self.given(path), Origin::Flag("--out")),
            (None, Some(path)) => (self.configured(path), Origin::Key("fuzz-out")),
            (None, None) => (
                corpus::beside(&places.cases, FUZZ_FINDINGS),
                Origin::Default("fuzz-out"),
            ),
        };
        let place = self.place("fuzz's findings directory", &out, from, suite)?;
        for (what, dir) in [
            ("the cases directory", &places.cases),
            ("the golden directory", &places.golden),
        ] {
            let dir = root::resolve(&self.dir.join(dir));
            if root::within(&place.resolved, &dir) || root::within(&dir, &place.resolved) {
                return Err(InputError::new(format!(
                    "{} ({}, {}) overlaps {what} ({}): findings are kept apart from the corpus",
                    place.what,
                    place.origin,
                    place.resolved.display(),
                    dir.display()
                )));
            }
        }
        Ok(out)
    }

    /// The progress file (`parity-diff progress`): `--file`, else the
    /// config's `progress` (inside the project's root, as every path the
    /// config gives), else `parity-progress.json` where the project works
    /// (beside parity.toml).
    pub fn progress_file(&self, given: Option<PathBuf>) -> Result<PathBuf, InputError> {
        let progress = self
            .config
            .as_ref()
            .and_then(|config| config.progress.as_ref());
        let (path, from) = match (given, progress) {
            (Some(path), _) => (self.given(path), Origin::Flag("--file")),
            (None, Some(path)) => (self.configured(path), Origin::Key("progress")),
            (None, None) => (
                PathBuf::from(parity_diff::command::progress::FILE_NAME),
                Origin::Default("progress"),
            ),
        };
        self.place("the progress file", &path, from, None)?;
        Ok(path)
    }

    /// `path` resolved, with its origin in words; an error when the
    /// config gave it and it resolves outside the project's root.
    fn place(
        &self,
        what: &'static str,
        path: &Path,
        from: Origin,
        suite: Option<&Suite>,
    ) -> Result<Place, InputError> {
        let resolved = root::resolve(&lexical(&self.dir.join(path)));
        let origin = self.origin(from, suite);
        if let (Some(root), Origin::Key(_) | Origin::Default(_)) = (&self.root, from) {
            if !root::within(&resolved, root) {
                return Err(InputError::new(format!(
                    "{origin}: {} resolves to {}, outside the project's root {} (the git work \
                     tree holding the config, else its directory); give --allow-outside-root \
                     on the command line to allow it",
                    path.display(),
                    resolved.display(),
                    root.display()
                )));
            }
        }
        Ok(Place {
            what,
            origin,
            resolved,
        })
    }

    /// Where a place came from, in words: the flag, the config's line
    /// and key, or the default the config leaves.
    fn origin(&self, from: Origin, suite: Option<&Suite>) -> String {
        let file = self
            .config
            .as_ref()
            .map_or_else(String::new, |config| config.path.display().to_string());
        let table = suite.map_or_else(String::new, |suite| format!("suite.{}.", suite.name));
        match from {
            Origin::Flag(flag) => flag.to_owned(),
            Origin::Key(key) => {
                let top = self.config.as_ref().and_then(|config| config.progress_line);
                let line = match suite {
                    Some(suite) => suite.lines.get(key).copied(),
                    None if key == "progress" => top,
                    None => None,
                };
                let at = line.map_or(String::new(), |line| format!(":{line}"));
                format!("{file}{at}: {table}{key}")
            }
            Origin::Default(key) if self.config.is_some() => {
                format!("{file}: {table}{key} (not given: the default)")
            }
            Origin::Default(key) => format!("the default {key}"),
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
                progress: None,
                progress_line: None,
            }),
            dir: dir.into(),
            root: None,
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
