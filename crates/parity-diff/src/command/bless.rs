//! `parity-diff bless`: regenerates goldens from a reference oracle.
//!
//! Each case file goes through the reference command; its output, one
//! element per line (the golden format, every element's bytes exactly as
//! printed), replaces the golden when it differs. Writes are atomic (a
//! temporary file in the golden's own directory, renamed over it), keep
//! the golden's permission bits, and never go through a symbolic link
//! ([`files::write_atomic`](crate::base::files::write_atomic)). With
//! `--check` nothing is written and the exit status says whether
//! anything would change. In CI (the `CI` variable set) writing is
//! refused unless forced, so a pipeline cannot quietly bless its own
//! output.

use std::io::Write;
use std::ops::ControlFlow;

use crate::base::error::InputError;
use crate::base::redact::Secrets;
use crate::corpus::cases::CaseFile;
use crate::corpus::{Corpus, Entry};
use crate::exec::execute::{execute, Blamed, Execution};
use crate::exec::file_run;
use crate::exec::oracle::{leak_warnings, LeakLog, Oracle, OracleFailure, OracleOptions};
use crate::exec::pool;
use crate::exec::repeat;
use crate::judge::golden::{format_golden, split_elements};
use crate::judge::input;
use crate::report::formats::{self, Command, Renderer};
use crate::report::record::build::label;
use crate::report::render::Render;
use crate::report::Format;
pub use blessed::{BlessTotals, Blessed, CaseFailure, Status};
use render::{Golden, Goldens};

pub mod blessed;
pub mod render;

/// The `bless` command's inputs.
#[derive(Debug, Clone)]
pub struct BlessArgs {
    /// The reference oracle command.
    pub reference: String,
    /// The corpus.
    pub corpus: Corpus,
    /// Write nothing; exit 1 when anything would change.
    pub check: bool,
    /// Write even in CI.
    pub force: bool,
    /// `--repeat N`: the reference runs each file N times, and a file on
    /// one of whose cases its results differ gets no golden...
    pub repeat: usize,
    /// ...unless `--allow-nondeterministic`: the first run's is written.
    pub allow_nondeterministic: bool,
    /// How long one reference run may take, and how much it may print.
    pub limits: OracleOptions,
    /// `--jobs`: how many reference runs at once.
    pub jobs: usize,
    /// Human or JSON.
    pub format: Format,
    /// The closing line alone.
    pub quiet: bool,
}

/// Labels of the cases whose bytes differ between two goldens.
fn changed_cases(old: &[u8], new: &[u8], cases: &CaseFile) -> (Vec<String>, usize) {
    let (Ok(old), Ok(new)) = (split_elements(old), split_elements(new)) else {
        return (vec!["(the old golden is not a JSON array)".into()], 1);
    };
    let mut labels = Vec::new();
    let mut count = 0;
    for index in 0..old.len().max(new.len()) {
        if old.get(index) != new.get(index) {
            count += 1;
            if labels.len() < 10 {
                labels.push(match (cases.items.get(index), cases.id(index)) {
                    (Some(item), Some(id)) => label(index, item.op.as_deref(), &id),
                    _ => format!("#{index}"),
                });
            }
        }
    }
    (labels, count)
}

/// The new golden of a file the reference failed on, from the results
/// it gave and, for the cases it failed on, the old golden's elements;
/// or why there is none to write.
fn golden_with_kept(
    entry: &Entry,
    outcomes: &[Result<Vec<u8>, OracleFailure>],
    failed: usize,
) -> Result<Vec<u8>, String> {
    let not_written = |why: String| {
        format!(
            "the reference failed on {} of {} cases, and {why}: golden not written",
            failed,
            outcomes.len()
        )
    };
    let old = match crate::base::files::input::read(
        &entry.golden_path,
        crate::base::files::input::CORPUS_FILE,
    ) {
        Ok(old) => old,
        Err(_) => {
            return Err(not_written(
                "there is no golden to keep their elements from".into(),
            ))
        }
    };
    let elements = match split_elements(&old) {
        Ok(elements) if elements.len() == outcomes.len() => elements,
        Ok(elements) => {
            return Err(not_written(format!(
                "the golden's {} elements do not line up with the cases",
                elements.len()
            )))
        }
        Err(_) => return Err(not_written("the golden is not a JSON array".into())),
    };
    Ok(format_golden(outcomes.iter().zip(elements).map(
        |(outcome, old)| match outcome {
            Ok(result) => result.as_slice(),
            Err(_) => old,
        },
    )))
}

/// One file blessed, with the leaks of its reference runs.
fn bless_file(entry: &Entry, args: &BlessArgs) -> Blessed {
    let leaks = LeakLog::default();
    let mut blessed = bless_noting(entry, args, &leaks);
    blessed.leaks = leaks.into_leaks();
    blessed
}

fn bless_noting(entry: &Entry, args: &BlessArgs, leaks: &LeakLog) -> Blessed {
    let error =
        |message: String, stderr: Option<String>| Blessed::from(Status::Error { message, stderr });
    let cases = match read_cases(entry) {
        Ok(cases) => cases,
        Err(message) => return error(message, None),
    };
    let sent: Option<Vec<&[u8]>> = cases.is_array.then(|| {
        (0..cases.items.len())
            .filter_map(|at| cases.raw(at))
            .collect()
    });
    let oracle = Oracle::command(args.reference.as_str());
    let run = |batch: &[u8]| oracle.run_noting(batch, args.limits, leaks);
    // The reference may echo its input on stderr, tokens included.
    let secrets = || Secrets::of_case_file(&cases.bytes);
    let mut blessed = Blessed::from(Status::Unchanged { cases: 0 });
    let new = match execute(run, &cases.bytes, sent.as_deref()) {
        Execution::Results { output, spans } => {
            let reruns = repeat::reruns(run, &cases.bytes, (&output, &spans), args.repeat);
            if repeat::count(&reruns) > 0 && !args.allow_nondeterministic {
                return error(nondeterministic(&reruns, &cases), None);
            }
            format_golden(spans.iter().map(|span| &output[span.clone()]))
        }
        Execution::Failed(failure) => {
            let stderr = failure.stderr.map(|text| secrets().mask_quoted_text(&text));
            return error(failure.message, stderr);
        }
        Execution::Blamed(blamed) => {
            note_blamed(&mut blessed, &blamed, &cases, &secrets());
            match golden_with_kept(entry, &blamed.outcomes, blessed.failed.len()) {
                Ok(new) => new,
                Err(message) => {
                    blessed.status = Status::Error {
                        message,
                        stderr: None,
                    };
                    return blessed;
                }
            }
        }
    };
    blessed.status = write_golden(entry, args, &new, &cases);
    blessed
}

/// A file's cases, or why it cannot be blessed.
fn read_cases(entry: &Entry) -> Result<CaseFile, String> {
    if let Some(broken) = &entry.broken {
        return Err(broken.clone());
    }
    if entry.golden_path.is_dir() {
        return Err(format!(
            "golden {} is a directory, not a file",
            entry.golden_path.display()
        ));
    }
    match input::read_file("case file", &entry.case_path) {
        Ok(bytes) => Ok(CaseFile::read(&entry.name, bytes)),
        Err(failure) => Err(failure.message),
    }
}

/// Notes the cases the reference failed on alone, and the ranges it
/// failed on only together.
fn note_blamed(blessed: &mut Blessed, blamed: &Blamed, cases: &CaseFile, secrets: &Secrets) {
    for (index, outcome) in blamed.outcomes.iter().enumerate() {
        let Err(failure) = outcome else { continue };
        let (item, id) = (&cases.items[index], cases.id(index));
        blessed.failed.push(CaseFailure {
            index,
            label: match id {
                Some(id) => label(index, item.op.as_deref(), &id),
                None => format!("#{index}"),
            },
            kind: failure.kind,
            message: failure.message.clone(),
            stderr: failure
                .stderr
                .as_ref()
                .map(|text| file_run::tail(&secrets.mask_quoted_text(text), file_run::STDERR_TAIL)),
        });
    }
    for together in &blamed.together {
        let range = &together.cases;
        blessed.together.push(format!(
            "the reference failed on cases #{} to #{} run together ({}: {}), but not on \
             either half of them; their goldens come from separate runs",
            range.start,
            range.end - 1,
            together.failure.kind,
            together.failure.message
        ));
    }
}

/// The golden's status against `new`, written where it changes (unless
/// `--check`).
fn write_golden(entry: &Entry, args: &BlessArgs, new: &[u8], cases: &CaseFile) -> Status {
    let cases_count = split_elements(new).map_or(0, |elements| elements.len());
    let status = match crate::base::files::input::read(
        &entry.golden_path,
        crate::base::files::input::CORPUS_FILE,
    ) {
        Ok(old) if old == new => Status::Unchanged { cases: cases_count },
        Ok(old) => {
            let (changed, count) = changed_cases(&old, new, cases);
            Status::Changed {
                changed,
                count,
                cases: cases_count,
            }
        }
        Err(failure) if failure.kind() == std::io::ErrorKind::NotFound => {
            Status::Added { cases: cases_count }
        }
        Err(failure) => {
            return Status::Error {
                message: format!(
                    "cannot read golden {}: {failure}",
                    entry.golden_path.display()
                ),
                stderr: None,
            };
        }
    };
    let writes = !matches!(status, Status::Unchanged { .. });
    if writes && !args.check {
        if let Err(failure) =
            crate::base::files::write_atomic(&args.corpus.golden, &entry.relative, new)
        {
            return Status::Error {
                message: format!("cannot write {}: {failure}", entry.golden_path.display()),
                stderr: None,
            };
        }
    }
    status
}

/// Why a file whose results differed between the reference's runs gets
/// no golden: the cases, the first five by label.
fn nondeterministic(reruns: &repeat::Reruns, cases: &CaseFile) -> String {
    let unstable: Vec<usize> = (0..reruns.len())
        .filter(|&at| reruns[at].is_some())
        .collect();
    let named: Vec<String> = unstable
        .iter()
        .take(5)
        .map(|&at| match (cases.items.get(at), cases.id(at)) {
            (Some(item), Some(id)) => label(at, item.op.as_deref(), &id),
            _ => format!("#{at}"),
        })
        .collect();
    let more = unstable.len() - named.len();
    format!(
        "the reference's result differs between runs on {} ({}{}): no golden written \
         (--allow-nondeterministic writes the first run's)",
        crate::report::human::cases(unstable.len(), "case"),
        named.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

/// Runs `bless`; `in_ci` is whether the `CI` variable is set.
pub fn bless_command(
    args: &BlessArgs,
    in_ci: bool,
    mut out: impl Write,
) -> Result<BlessTotals, InputError> {
    if in_ci && !args.check && !args.force {
        return Err(InputError::new(
            "refusing to write goldens in CI (the CI environment variable is set); \
             use --check to compare, or --force to write anyway",
        ));
    }
    let mut render: Box<dyn Render<Goldens>> = match Command::Bless.check(args.format)? {
        Renderer::BlessHuman => Box::new(render::Lines {
            check: args.check,
            quiet: args.quiet,
        }),
        Renderer::BlessJson => Box::<render::Json>::default(),
        other => return Err(formats::not_mine(Command::Bless, other)),
    };
    let files = args.corpus.case_files()?;
    let orphans = args.corpus.orphans()?;
    let mut totals = BlessTotals {
        check: args.check,
        ..BlessTotals::default()
    };
    let mut tally = |entry: &Entry, blessed: &Blessed| -> std::io::Result<()> {
        match &blessed.status {
            Status::Added { .. } => totals.added += 1,
            Status::Changed { .. } => totals.changed += 1,
            Status::Unchanged { .. } => totals.unchanged += 1,
            Status::Orphaned => totals.orphaned += 1,
            Status::Error { .. } => totals.errors += 1,
        }
        totals.failed_cases += blessed.failed.len();
        for text in leak_warnings(&blessed.leaks) {
            let name = crate::base::outside::text(&entry.name);
            let _ = writeln!(std::io::stderr(), "parity-diff: warning: {name}: {text}");
        }
        // Ranges the reference failed on only together are errors too.
        totals.errors += blessed.together.len();
        render.part(&mut out, Golden { entry, blessed })
    };
    // Reference runs go to the pool; goldens are written there too (each
    // file's own), and reported here in corpus order.
    let written = pool::ordered(
        args.jobs,
        files.iter(),
        |entry| bless_file(entry, args),
        |entry, blessed| match tally(entry, &blessed) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => ControlFlow::Break(error),
        },
    );
    if let Some(error) = written {
        return Err(error.into());
    }
    for entry in &orphans {
        tally(entry, &Blessed::from(Status::Orphaned))?;
    }
    render.finish(&mut out, &totals)?;
    // A report that could not be written is an error, not a drop's
    // silence.
    out.flush()?;
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::oracle::FailureKind;
    use std::fs;

    #[test]
    fn totals() {
        let mut totals = BlessTotals {
            unchanged: 2,
            orphaned: 1,
            ..BlessTotals::default()
        };
        assert_eq!(totals.exit_code(), 0);
        assert_eq!(
            totals.summary_line(),
            "0 added, 0 changed, 2 unchanged, 1 orphaned"
        );
        totals.check = true;
        assert_eq!(totals.exit_code(), 1);
        totals.errors = 1;
        assert_eq!(totals.exit_code(), 2);
    }

    #[test]
    fn a_failing_cases_old_element_is_kept_only_where_positions_line_up() {
        let dir = tempfile::tempdir().unwrap();
        let entry = Entry {
            name: "a.json".into(),
            case_path: dir.path().join("a.json"),
            golden_path: dir.path().join("golden.json"),
            relative: "golden.json".into(),
            broken: None,
        };
        let crash = || Err(OracleFailure::new(FailureKind::Crash, "boom"));
        let outcomes = [Ok(b"1".to_vec()), crash(), Ok(b"3".to_vec())];
        assert_eq!(
            golden_with_kept(&entry, &outcomes, 1).unwrap_err(),
            "the reference failed on 1 of 3 cases, and there is no golden to keep their \
             elements from: golden not written"
        );
        fs::write(&entry.golden_path, "[\n10,\n20\n]\n").unwrap();
        assert_eq!(
            golden_with_kept(&entry, &outcomes, 1).unwrap_err(),
            "the reference failed on 1 of 3 cases, and the golden's 2 elements do not line \
             up with the cases: golden not written"
        );
        fs::write(&entry.golden_path, "{}").unwrap();
        assert!(golden_with_kept(&entry, &outcomes, 1)
            .unwrap_err()
            .contains("the golden is not a JSON array"));
        fs::write(&entry.golden_path, "[10, {\"b\": 20}, 30]").unwrap();
        assert_eq!(
            golden_with_kept(&entry, &outcomes, 1).unwrap(),
            b"[\n1,\n{\"b\": 20},\n3\n]\n"
        );
    }

    #[test]
    fn changed_case_labels() {
        let cases = CaseFile::read("f.json", br#"[null,{"op":"x","name":"n"}]"#.to_vec());
        let (labels, count) = changed_cases(b"[1,2,3]", b"[1,5]", &cases);
        assert_eq!(labels, ["#1 x \"n\"", "#2"]);
        assert_eq!(count, 2);
    }
}
