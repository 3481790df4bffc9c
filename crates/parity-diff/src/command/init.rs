//! `parity-diff init`: a new project in any directory, so that a team
//! with a contract nobody here has seen starts from files that work
//! rather than from the protocol's description. It writes a commented
//! `parity.toml`, an example case file and a batch-oracle skeleton (the
//! protocol explained in its comments) that serves as both the oracle
//! and the reference until the team points them at theirs: `bless` and
//! then `run` pass right after it, with no edit.
//!
//! It never overwrites: every file is checked before the first is
//! written, so a refusal leaves the directory as it was.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::base::error::InputError;
use crate::base::files;
use crate::base::outside;

/// The language of the oracle skeleton.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// `oracle.py`, run by `python3`.
    #[default]
    Python,
    /// `oracle.mjs`, run by `node`.
    Node,
    /// `oracle.sh`, POSIX sh and awk.
    Sh,
}

impl Lang {
    /// The skeleton's file name, its text and the command that runs it.
    fn skeleton(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Lang::Python => (
                "oracle.py",
                include_str!("init/oracle.py"),
                "python3 oracle.py",
            ),
            Lang::Node => (
                "oracle.mjs",
                include_str!("init/oracle.mjs"),
                "node oracle.mjs",
            ),
            Lang::Sh => ("oracle.sh", include_str!("init/oracle.sh"), "sh oracle.sh"),
        }
    }
}

/// What `init` is given.
#[derive(Debug, Clone)]
pub struct InitArgs {
    /// The project's directory (made when missing).
    pub dir: PathBuf,
    /// The skeleton's language.
    pub lang: Lang,
}

/// The example case file's path in the project.
const EXAMPLE: &str = "cases/example.json";

/// Writes the project's files into `args.dir`, or none of them when any
/// exists; says what it wrote and what to run next.
pub fn init_command(args: &InitArgs, mut out: impl Write) -> Result<u8, InputError> {
    let (oracle, skeleton, command) = args.lang.skeleton();
    let config = include_str!("init/parity.toml")
        .replace("@SUITE@", &suite_name(&args.dir))
        .replace("@ORACLE@", oracle)
        .replace("@COMMAND@", command);
    let writes: [(&str, &str); 3] = [
        ("parity.toml", &config),
        (EXAMPLE, include_str!("init/example.json")),
        (oracle, skeleton),
    ];
    for (name, _) in &writes {
        let path = args.dir.join(name);
        if path.symlink_metadata().is_ok() {
            return Err(InputError::new(format!(
                "init never overwrites a file: {} exists (nothing was written)",
                outside::text(&path.display().to_string())
            )));
        }
    }
    std::fs::create_dir_all(&args.dir).map_err(|error| {
        InputError::new(format!(
            "cannot make the directory {}: {error}",
            outside::text(&args.dir.display().to_string())
        ))
    })?;
    for (name, text) in &writes {
        files::write_new(&args.dir, Path::new(name), text.as_bytes()).map_err(|error| {
            InputError::new(format!(
                "cannot write {}: {error}",
                outside::text(&args.dir.join(name).display().to_string())
            ))
        })?;
        writeln!(out, "wrote {name}")?;
    }
    write_next_steps(&mut out, oracle, command)?;
    Ok(0)
}

fn write_next_steps(out: &mut impl Write, oracle: &str, command: &str) -> io::Result<()> {
    writeln!(
        out,
        "\nThe skeleton {oracle} answers both sides (`{command}`) until parity.toml names yours.\n\
         next:\n  \
         parity-diff bless   # the reference's results become golden/\n  \
         parity-diff run     # the oracle against the goldens"
    )
}

/// The suite's name: the directory's, where it is a bare TOML key, else
/// `main`.
fn suite_name(dir: &Path) -> String {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let name = absolute
        .components()
        .next_back()
        .and_then(|last| last.as_os_str().to_str())
        .unwrap_or_default();
    let bare = !name.is_empty()
        && name.len() <= 40
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
    if bare {
        name.to_owned()
    } else {
        "main".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::suite_name;
    use std::path::Path;

    #[test]
    fn the_suite_is_named_for_its_directory_when_that_is_a_bare_key() {
        assert_eq!(suite_name(Path::new("/work/jq-port")), "jq-port");
        assert_eq!(suite_name(Path::new("/work/my_port/")), "my_port");
        assert_eq!(suite_name(Path::new("/work/a port")), "main");
        assert_eq!(suite_name(Path::new("/work/été")), "main");
        assert_eq!(suite_name(Path::new("/")), "main");
        assert_eq!(suite_name(&Path::new("/x").join("y".repeat(41))), "main");
    }
}
