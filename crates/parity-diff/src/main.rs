//! `parity-diff`: result arrays against goldens made by another
//! implementation. The command line is `cli` (the subcommands) and
//! `flags` (what several share); this file runs a parsed command; the
//! work is in the `parity_diff` library.

use parity_diff::fuzz::runner::{Shrinking, DEFAULT_SHRINK_BUDGET};
use parity_diff::judge::signature::ErrorProtocol;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use parity_diff::base::outside;
use parity_diff::command::compare::{compare_command, CompareArgs, InputError};
use parity_diff::command::delta::{delta_command, DeltaArgs};
use parity_diff::command::init::{init_command, InitArgs};
use parity_diff::command::merge::{merge_command, MergeArgs};
use parity_diff::command::report::{report_command, ReportArgs};
use parity_diff::command::run::run_command;
use parity_diff::corpus::config::Suite;
use parity_diff::corpus::timings::Timings;
use parity_diff::coverage::command::{cmin_command, coverage_command, CminArgs, CoverageArgs};
use parity_diff::exec::oracle;
use parity_diff::fuzz::command::{fuzz_command, FuzzArgs};
use parity_diff::report::{formats, ExtraReport};

mod cli;

use cli::each_suite::{several_suites_print_text, Accept, Bless};
use cli::flags::{given_side, ReportFlags, VerdictFlags};
use cli::project::{one_suite_only, ConfigFlags, GivenPlaces, Project};
use cli::settle::{grow_corpus, lone_suite, promote_findings, Given, Growing};
use cli::{did_you_mean, each_suite, progress_command, project, review};
use cli::{AcceptFlags, BlessFlags, Cli, Command, FuzzFlags, RunFlags};
use parity_diff::command::suites::{run_suites, SuiteRun};

/// Standard output, buffered, as every subcommand is given it.
type Stdout = io::BufWriter<io::StdoutLock<'static>>;

fn main_inner(cli: Cli) -> anyhow::Result<u8> {
    let report = &cli.report;
    let flags = &cli.project;
    let stdout = io::BufWriter::new(io::stdout().lock());
    match cli.command {
        Command::Init { dir, lang } => {
            let args = InitArgs {
                dir,
                lang: lang.into(),
            };
            Ok(init_command(&args, stdout)?)
        }
        Command::Compare {
            results,
            golden,
            cases,
            select,
            ledger,
            verdict,
        } => {
            let ledger = compare_ledger(ledger.ledger, flags)?;
            let args = CompareArgs {
                results,
                golden,
                cases,
                ops: select.ops,
                ledger,
                report: report.options(&verdict),
                errors: ErrorProtocol::default(),
            };
            Ok(compare_command(&args, stdout)?.exit_code())
        }
        Command::Run { flags: run } => run_subcommand(run, flags, report, stdout),
        Command::Accept { flags: accept } => accept_subcommand(accept, flags, report, stdout),
        Command::Review { flags: review } => review::review(review, flags, report, stdout),
        Command::Progress { flags: progress } => {
            progress_command::progress(progress, flags, report, stdout)
        }
        Command::Merge { reports, extra } => {
            let args = MergeArgs {
                reports,
                report: report.options(&VerdictFlags::default()),
                extra,
            };
            Ok(merge_command(&args, stdout)?.exit_code())
        }
        Command::Report {
            saved,
            output,
            extra,
        } => report_subcommand(saved, output, extra, report, stdout),
        Command::Delta { base, head } => {
            report.check(formats::Command::Delta)?;
            let args = DeltaArgs {
                base,
                head,
                format: report.format(),
                quiet: report.quiet,
            };
            Ok(delta_command(&args, stdout)?)
        }
        Command::Bless { flags: bless } => bless_subcommand(bless, flags, report, stdout),
        Command::Coverage {
            corpus,
            allowlist,
            check,
            run,
        } => {
            let args = CoverageArgs {
                selection: corpus.selection(&run)?,
                allowlist,
                check,
                format: report.format(),
                quiet: report.quiet,
            };
            Ok(coverage_command(&args, stdout)?)
        }
        Command::Cmin { corpus, run } => {
            let args = CminArgs {
                selection: corpus.selection(&run)?,
                format: report.format(),
                quiet: report.quiet,
            };
            Ok(cmin_command(&args, stdout)?)
        }
        Command::Fuzz { flags: fuzz } => fuzz_subcommand(fuzz, flags, report, stdout),
    }
}

/// `compare --ledger`, else the ledger of the suite --suite names, when
/// it exists: compare runs nothing, so a suite gives it only its ledger,
/// and only when --suite names it.
fn compare_ledger(given: Option<PathBuf>, flags: &ConfigFlags) -> anyhow::Result<Option<PathBuf>> {
    Ok(match (given, flags.suites.is_empty()) {
        (Some(path), _) => Some(path),
        (None, true) => None,
        (None, false) => {
            let project = Project::open(flags)?;
            let suite = lone_suite(&project, &flags.suites)?;
            let places = project.places(GivenPlaces::default(), suite)?;
            // Spelled from here: compare does not change directory.
            let path = project.outside(&places.ledger_default);
            path.exists().then_some(path)
        }
    })
}

fn run_subcommand(
    run: RunFlags,
    flags: &ConfigFlags,
    report: &ReportFlags,
    stdout: Stdout,
) -> anyhow::Result<u8> {
    let RunFlags {
        oracle,
        corpus,
        shard,
        timings,
        record_timings,
        reports,
        with,
    } = run;
    let project = Project::open(flags)?;
    let suites = project.suites(&flags.suites)?;
    one_suite_only(
        &suites,
        &[
            ("--cases", corpus.cases.is_some()),
            ("--golden", corpus.golden.is_some()),
            ("--ledger", with.ledger.ledger.is_some()),
            ("--oracle", oracle.is_some()),
            ("--shard", shard.is_some()),
            ("--record-timings", record_timings.is_some()),
        ],
    )?;
    project.enter()?;
    let rerun = with.rerun.read(&project)?;
    let timings = read_timings(&project, &timings)?;
    let given = Given {
        timings: timings.as_ref(),
        record_timings: record_timings.map(|path| project.given(path)),
        extra: reports
            .into_iter()
            .map(|extra| ExtraReport {
                path: project.given(extra.path),
                ..extra
            })
            .collect(),
        ..Given::of(&oracle, &corpus, &with, report, rerun.as_ref())
    };
    // `run` settles the ledger's known failures in one batch each.
    let run_args = |suite| {
        let mut args = given.run_args(&project, suite, shard)?;
        args.known_failure_batches = true;
        anyhow::Ok(args)
    };
    if suites.is_empty() {
        let args = run_args(None)?;
        return Ok(run_command(&args, stdout)?.exit_code());
    }
    let runs = suites
        .iter()
        .map(|suite| {
            Ok(SuiteRun {
                name: suite.name.clone(),
                args: run_args(Some(suite))?,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(run_suites(&runs, report.options(&with.verdict), stdout)?.exit_code())
}

fn accept_subcommand(
    accept: AcceptFlags,
    flags: &ConfigFlags,
    report: &ReportFlags,
    stdout: Stdout,
) -> anyhow::Result<u8> {
    let AcceptFlags {
        oracle,
        reason,
        triaged,
        link,
        prune,
        rule,
        one_case,
        force,
        corpus,
        with,
    } = accept;
    report.check(formats::Command::Accept)?;
    let project = Project::open(flags)?;
    let suites = project.suites(&flags.suites)?;
    one_suite_only(
        &suites,
        &[
            ("--cases", corpus.cases.is_some()),
            ("--golden", corpus.golden.is_some()),
            ("--ledger", with.ledger.ledger.is_some()),
            ("--oracle", oracle.is_some()),
        ],
    )?;
    several_suites_print_text(&suites, report, "accept")?;
    project.enter()?;
    let rerun = with.rerun.read(&project)?;
    let given = Given::of(&oracle, &corpus, &with, report, rerun.as_ref());
    let accept = Accept {
        reason,
        triaged,
        link,
        prune,
        rule,
        cases: one_case,
        force,
    };
    each_suite::accept(&project, &suites, &given, &accept, stdout)
}

/// `report`: to standard output, or to --output's file.
fn report_subcommand(
    saved: PathBuf,
    output: Option<PathBuf>,
    extra: Vec<ExtraReport>,
    report: &ReportFlags,
    stdout: Stdout,
) -> anyhow::Result<u8> {
    let args = ReportArgs {
        saved,
        report: report.options(&VerdictFlags::default()),
        extra,
    };
    let totals = match output {
        Some(path) => {
            let file = std::fs::File::create(&path).map_err(|error| {
                InputError::new(format!(
                    "cannot write {}: {error}",
                    outside::text(&path.display().to_string())
                ))
            })?;
            report_command(&args, io::BufWriter::new(file))?
        }
        None => report_command(&args, stdout)?,
    };
    Ok(totals.exit_code())
}

fn bless_subcommand(
    bless: BlessFlags,
    flags: &ConfigFlags,
    report: &ReportFlags,
    stdout: Stdout,
) -> anyhow::Result<u8> {
    let BlessFlags {
        reference,
        check,
        force,
        allow_nondeterministic,
        corpus,
        run,
        repeat,
    } = bless;
    report.check(formats::Command::Bless)?;
    let project = Project::open(flags)?;
    let suites = project.suites(&flags.suites)?;
    one_suite_only(
        &suites,
        &[
            ("--cases", corpus.cases.is_some()),
            ("--golden", corpus.golden.is_some()),
            ("--reference", reference.is_some()),
        ],
    )?;
    several_suites_print_text(&suites, report, "bless")?;
    let bless = Bless {
        reference,
        corpus: &corpus,
        check,
        force,
        repeat: repeat.repeat,
        allow_nondeterministic,
        run: &run,
        report,
    };
    each_suite::bless(&project, &suites, &bless, stdout)
}

/// `fuzz`, or its --promote or --grow.
fn fuzz_subcommand(
    fuzz: FuzzFlags,
    flags: &ConfigFlags,
    report: &ReportFlags,
    stdout: Stdout,
) -> anyhow::Result<u8> {
    let FuzzFlags {
        left,
        right,
        ops,
        generator,
        corpus,
        seed,
        count,
        duration,
        out,
        promote,
        grow,
        reference,
        ledger,
        no_minimize,
        shrink_budget,
        batch_size,
        force,
        verbose,
        mut run,
    } = fuzz;
    if let Some(findings) = promote {
        return promote_findings(flags, findings, corpus, left, run, report, stdout);
    }
    if let Some(dir) = grow {
        let given = Growing {
            dir,
            reference,
            corpus,
            ops,
            generator,
            seed,
            count,
            duration,
            batch_size,
        };
        return grow_corpus(flags, given, run, report, stdout);
    }
    report.check(formats::Command::Fuzz)?;
    let project = Project::open(flags)?;
    let suite = lone_suite(&project, &flags.suites)?;
    let given = GivenPlaces {
        cases: corpus,
        ..GivenPlaces::default()
    };
    let places = project.places(given, suite)?;
    if project::in_ci() && out.is_none() && !force {
        return Err(InputError::new(
            "refusing to write fuzz's findings where parity.toml says in CI (the CI \
             environment variable is set); give --out DIR, or --force to write anyway",
        )
        .into());
    }
    let out = project.fuzz_out(out, suite, &places)?;
    run.settle(suite);
    let key = |pick: fn(&Suite) -> Option<&String>| suite.and_then(pick).cloned();
    let left = left.or_else(|| key(|suite| suite.reference.as_ref()));
    let right = right.or_else(|| key(|suite| suite.oracle.as_ref()));
    let generator = generator.or_else(|| key(|suite| suite.generator.as_ref()));
    project.enter()?;
    let args = FuzzArgs {
        left: given_side(left, "--left", "reference")?,
        right: given_side(right, "--right", "oracle")?,
        ops,
        generator,
        corpus: places.cases,
        seed,
        count,
        duration,
        batch_size,
        out_dir: out,
        ledger,
        ledger_default: places.ledger_default,
        limits: run.limits(None)?,
        jobs: run.jobs(),
        format: report.format(),
        quiet: report.quiet,
        shrinking: Shrinking {
            minimize: !no_minimize,
            budget: Some(shrink_budget.unwrap_or(DEFAULT_SHRINK_BUDGET)),
        },
        verbose,
    };
    Ok(fuzz_command(&args, stdout, &mut io::stderr())?)
}

/// `--timings`' files read and added up (`None` without any), once
/// `project` has been entered.
fn read_timings(project: &Project, paths: &[PathBuf]) -> anyhow::Result<Option<Timings>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let mut timings = Timings::default();
    for path in paths {
        timings.read(&project.given(path.clone()), &path.display().to_string())?;
    }
    Ok(Some(timings))
}

/// Everything runs on a thread with a stack of its own: elements nest
/// up to 4096 levels (the batch's limit). Measured: reading, comparing
/// and reporting the deepest elements (`run`, `compare`, `bless`, every
/// format) needs 48 KiB in a debug build; our batch needs 4 MiB for its
/// values at that depth, and this leaves the report that much room and
/// more. The whole reservation counts against `ulimit -v`, under 256M of
/// which parity-diff must run with our batch's own 64 MiB thread beside.
const STACK_BYTES: usize = 16 * 1024 * 1024;

/// Whether the report's reader went away (`| head`): nothing worth saying.
fn output_closed(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<InputError>()
            .is_some_and(|input| input.output_closed)
            || cause
                .downcast_ref::<io::Error>()
                .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    sys_unix::limit_malloc_arenas();
    if let Err(error) = sys_unix::write_past_file_limit_fails() {
        eprintln!("parity-diff: cannot watch for the file-size limit: {error}");
    }
    // A usage error exits 2 (clap's), a mistyped subcommand with its
    // nearest names.
    let cli = Cli::try_parse()
        .unwrap_or_else(|error| did_you_mean::suggest(error, &Cli::command()).exit());
    // Kept to the end: dropping it waits for a stop on a signal to finish.
    let _signals = oracle::install_signal_handlers()
        .map_err(|error| eprintln!("parity-diff: cannot watch for signals: {error}"))
        .ok();
    let worker = std::thread::Builder::new()
        .name("parity-diff".into())
        .stack_size(STACK_BYTES)
        .spawn(move || main_inner(cli));
    match worker.map(|handle| handle.join()) {
        Ok(Ok(Ok(code))) => ExitCode::from(code),
        // Like any filter, stop quietly when the reader goes away
        // (`| head`). SIGPIPE stays ignored, as Rust sets it: an oracle
        // that exits without reading its input must not kill us.
        Ok(Ok(Err(error))) if output_closed(&error) => ExitCode::SUCCESS,
        Ok(Ok(Err(error))) => {
            // Errors quote file names and oracles' words: outside text,
            // and standard error is read for workflow commands too.
            let message = format!("{error:#}");
            eprintln!("parity-diff: {}", outside::text(&message));
            ExitCode::from(2)
        }
        Ok(Err(_)) => {
            oracle::stop_every_oracle();
            eprintln!("parity-diff: internal error (a panic; please report it)");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("parity-diff: cannot start: {error}");
            ExitCode::from(2)
        }
    }
}
