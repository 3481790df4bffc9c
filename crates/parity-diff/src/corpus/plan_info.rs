//! What a plan records of the corpus it planned: its files, each hashed,
//! and their fingerprint ([`CorpusInfo`]) and, for a rerun, what the
//! report names that the corpus no longer holds ([`RerunCount`]).

use std::collections::HashSet;

use crate::corpus::identity::{fnv1a, HashingReader};
use crate::corpus::info::CorpusInfo;
use crate::corpus::rerun::{FileRerun, RerunCount, RerunFiles};
use crate::corpus::{Corpus, Entry as FileEntry};

/// The hash of a file's bytes; `None` when it cannot be read (or, given
/// why, `broken`, is not to be).
pub(super) fn hash_of(path: &std::path::Path, broken: Option<&String>) -> Option<u64> {
    match broken {
        Some(_) => None,
        None => crate::base::files::input::open(path, crate::base::files::input::CORPUS_FILE)
            .ok()
            .and_then(|file| HashingReader::new(file).finish().ok()),
    }
}

/// Hashes every case file and golden, in order.
pub(super) fn hash_files(
    files: &[FileEntry],
    goldens: &[FileEntry],
) -> (Vec<Option<u64>>, Vec<Option<u64>>) {
    let cases: Vec<Option<u64>> = files
        .iter()
        .map(|entry| hash_of(&entry.case_path, entry.broken.as_ref()))
        .collect();
    let goldens: Vec<Option<u64>> = goldens
        .iter()
        .map(|golden| hash_of(&golden.golden_path, golden.broken.as_ref()))
        .collect();
    (cases, goldens)
}

/// The hashes of a corpus's files, in the listings' order: each case
/// file's with whether the count read it through, then each golden's.
pub(super) struct Hashes<'a> {
    pub cases: Vec<Option<u64>>,
    pub readable: &'a [bool],
    pub goldens: Vec<Option<u64>>,
}

/// What reports record about a planned corpus: `hashes` given, with its
/// fingerprint.
pub(super) fn corpus_info(
    corpus: &Corpus,
    (files, goldens): (&[FileEntry], Vec<FileEntry>),
    hashes: Option<Hashes<'_>>,
    (cases, ops): (usize, &[String]),
    rerun: Option<&RerunFiles>,
) -> CorpusInfo {
    CorpusInfo {
        fingerprint: match hashes {
            Some(hashes) => fingerprint(files, &goldens, hashes),
            None => String::new(),
        },
        case_files: files.iter().map(|entry| entry.name.clone()).collect(),
        golden_files: goldens.into_iter().map(|entry| entry.name).collect(),
        cases,
        case_dir: corpus.cases.display().to_string(),
        golden_dir: corpus.golden.display().to_string(),
        filter: corpus.filter.as_ref().map(|glob| glob.pattern()),
        ops: ops.to_vec(),
        rerun: rerun.map(|taken| taken.fingerprint()),
    }
}

/// The hash of every file's name and hash, case files then goldens.
fn fingerprint(files: &[FileEntry], goldens: &[FileEntry], hashes: Hashes<'_>) -> String {
    let mut parts: Vec<String> = vec!["cases".into()];
    // A file the count could not read through is unreadable, whatever
    // the other pass made of it.
    let case_hashes = files.iter().zip(hashes.cases).zip(hashes.readable);
    for ((entry, hash), &readable) in case_hashes {
        parts.push(entry.name.clone());
        parts.push(hex(hash.filter(|_| readable)));
    }
    parts.push("goldens".into());
    for (golden, hash) in goldens.iter().zip(hashes.goldens) {
        parts.push(golden.name.clone());
        parts.push(hex(hash));
    }
    let bytes: Vec<&[u8]> = parts.iter().map(|part| part.as_bytes()).collect();
    format!("{:016x}", fnv1a(&bytes))
}

fn hex(hash: Option<u64>) -> String {
    hash.map_or_else(|| "unreadable".to_owned(), |hash| format!("{hash:016x}"))
}

/// Counts into `rerun` what the report `taken` names in files that are
/// gone, unless --filter leaves them out anyway.
pub(super) fn count_gone(
    corpus: &Corpus,
    files: &[FileEntry],
    taken: &RerunFiles,
    rerun: &mut RerunCount,
) {
    let listed: HashSet<&str> = files.iter().map(|entry| entry.name.as_str()).collect();
    let filtered = |name: &str| {
        corpus
            .filter
            .as_ref()
            .is_some_and(|glob| !glob.matches(name))
    };
    for (name, file) in &taken.files {
        if listed.contains(name.as_str()) || filtered(name) {
            continue;
        }
        match file {
            FileRerun::Whole => rerun.gone_files += 1,
            FileRerun::Cases(keys) => rerun.gone += keys.len(),
        }
    }
}
