//! `run`'s batches of known failures: before any file runs, the cases
//! the ledger says crash (time out, write invalid output) are gathered
//! from every file and run once, one batch per failure
//! ([`KnownCrashes::run_batches`]). Each file then takes its cases'
//! outcomes from there instead of running each alone.
//!
//! A case is gathered as its file's run would send it: only a selected
//! case of a file the plan runs, read in memory (a large file's known
//! cases run alone, when it is run again in memory).

use super::RunArgs;
use crate::base::redact::Secrets;
use crate::corpus::cases::CaseFile;
use crate::corpus::plan::{self, Part, Plan};
use crate::corpus::wanted::FileWanted;
use crate::corpus::Entry as FileEntry;
use crate::exec::known_crash::{Gathered, KnownCrashes};
use crate::exec::oracle::OracleFailure;
use crate::exec::stream;
use crate::judge::input;

/// Runs the batches of the known failures of `files` (see the module's
/// text); `known` keeps what they made of each case.
pub(super) fn run_known_batches(
    args: &RunArgs,
    (files, plan): (&[FileEntry], &Plan),
    known: &mut KnownCrashes,
) {
    let mut gathered = Vec::new();
    let mut secrets = Vec::new();
    let batchable_files = known.batchable_files();
    for (position, entry) in files.iter().enumerate() {
        let part = plan.part(position);
        if part == Part::Skip
            || entry.broken.is_some()
            || stream::run::streams(entry)
            || !batchable_files.contains(entry.name.as_str())
        {
            continue;
        }
        let Ok(bytes) = input::read_file("case file", &entry.case_path) else {
            // Its run says why it cannot be read.
            continue;
        };
        let cases = CaseFile::read(&entry.name, bytes);
        let wanted = plan.wanted_of(position, &entry.name, args.wanted());
        let before = gathered.len();
        gather(&cases, part, wanted, known, &mut gathered);
        if gathered.len() > before {
            secrets.push(Secrets::of_case_file(&cases.bytes));
        }
    }
    if gathered.is_empty() {
        return;
    }
    let oracle = |batch: &[u8]| args.oracle.run(batch, args.limits);
    known.run_batches(gathered, oracle, |failure| masked(failure, &secrets));
}

/// The known failures among the cases of `cases` its run sends.
fn gather(
    cases: &CaseFile,
    part: Part,
    wanted: FileWanted<'_>,
    known: &KnownCrashes,
    gathered: &mut Vec<Gathered>,
) {
    // A file its run refuses (not an array, two cases of one identity)
    // sends nothing.
    if !cases.is_array || cases.duplicate_identity().is_some() {
        return;
    }
    let positions = match plan::select(part, cases, wanted) {
        Some(selection) => selection.positions,
        None => (0..cases.items.len()).collect(),
    };
    for at in positions {
        let (Some(raw), Some(id)) = (cases.raw(at), cases.id(at)) else {
            continue;
        };
        if let Some(kind) = known.batchable(&id) {
            gathered.push((id.into_owned(), kind, raw.to_vec()));
        }
    }
}

/// A batch's failure, its texts masked with the secrets of every file of
/// the batch.
fn masked(failure: OracleFailure, secrets: &[Secrets]) -> OracleFailure {
    let mask = |text: String| {
        secrets
            .iter()
            .fold(text, |text, secrets| secrets.mask_quoted_text(&text))
    };
    OracleFailure {
        message: mask(failure.message),
        stderr: failure.stderr.map(mask),
        stdout: failure.stdout.map(mask),
        ..failure
    }
}
