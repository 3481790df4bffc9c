//! `--repeat N`: a file's input run again, N times in all, to tell an
//! oracle whose result for a case changes from run to run (a clock, a
//! random number, a hash order) from one that is wrong. A case whose
//! result bytes differ between runs is `nondeterministic`; the first
//! run's result is the one compared and reported beside the first other
//! run that printed something else.
//!
//! Only what differs is kept: per case, the first other run's element,
//! or why that run gave none. A run that fails as a whole makes every
//! case of the file differ: its output says nothing about any of them.

use std::fs::File;
use std::io::{self, Read, Seek};
use std::ops::Range;

use crate::exec::oracle::results::read_results;
use crate::exec::oracle::OracleFailure;

/// Another run's answer for a case whose result differed from the
/// first's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rerun {
    /// Which run, from 1 (the first run is 1, so this is at least 2).
    pub run: usize,
    /// Its element's bytes, or why it gave none.
    pub answer: Result<Vec<u8>, String>,
}

/// Per result of the first run, in order: `None` when every run gave
/// the same bytes (empty: nothing was run again).
pub type Reruns = Vec<Option<Rerun>>;

/// Runs `input` through `oracle` `repeat - 1` more times and compares
/// each result with the first run's (`output`, its elements at `spans`).
pub fn reruns(
    oracle: impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>,
    input: &[u8],
    (output, spans): (&[u8], &[Range<usize>]),
    repeat: usize,
) -> Reruns {
    if repeat < 2 {
        return Vec::new();
    }
    let mut found: Reruns = vec![None; spans.len()];
    for run in 2..=repeat {
        let again = oracle(input).and_then(|bytes| {
            let elements = read_results(&bytes)?;
            Ok((bytes, elements))
        });
        for (at, span) in spans.iter().enumerate() {
            if found[at].is_some() {
                continue;
            }
            let first = &output[span.clone()];
            let answer = match &again {
                Err(failure) => Err(format!("run {run} failed: {}", failure.message)),
                Ok((bytes, elements)) => match elements.get(at) {
                    Some(Ok(span)) if &bytes[span.clone()] == first => continue,
                    Some(Ok(span)) => Ok(bytes[span.clone()].to_vec()),
                    Some(Err(failure)) => Err(failure.message.clone()),
                    None => Err(format!(
                        "run {run} printed {} result{}",
                        elements.len(),
                        if elements.len() == 1 { "" } else { "s" }
                    )),
                },
            };
            found[at] = Some(Rerun { run, answer });
        }
    }
    found
}

/// How many results differed between runs.
pub fn count(reruns: &Reruns) -> usize {
    reruns.iter().filter(|rerun| rerun.is_some()).count()
}

/// Whether two spooled outputs hold the same bytes (each read from its
/// start, and left there).
pub fn same_files(a: &mut File, b: &mut File) -> io::Result<bool> {
    if a.metadata()?.len() != b.metadata()?.len() {
        return Ok(false);
    }
    a.rewind()?;
    b.rewind()?;
    let (mut left, mut right) = (vec![0; 64 * 1024], vec![0; 64 * 1024]);
    let same = loop {
        let read = a.read(&mut left)?;
        if read == 0 {
            break true;
        }
        b.read_exact(&mut right[..read])?;
        if left[..read] != right[..read] {
            break false;
        }
    };
    a.rewind()?;
    b.rewind()?;
    Ok(same)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::scan::{spans, Mode};
    use std::cell::Cell;
    use std::io::Write;

    /// An oracle that answers from a list, one output per run.
    fn answers<'a>(
        outputs: &'a [&'static str],
    ) -> impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure> + 'a {
        let next = Cell::new(0);
        move |_| {
            let at = next.get();
            next.set(at + 1);
            match outputs[at] {
                "crash" => Err(OracleFailure::new(
                    crate::exec::oracle::FailureKind::Crash,
                    "the oracle exited with status 1",
                )),
                text => Ok(text.as_bytes().to_vec()),
            }
        }
    }

    fn of(first: &str, others: &[&'static str], repeat: usize) -> Reruns {
        let spans = spans(first.as_bytes(), Mode::Strict { validate: true }).unwrap();
        reruns(answers(others), b"[]", (first.as_bytes(), &spans), repeat)
    }

    #[test]
    fn the_same_bytes_every_run_are_stable() {
        assert_eq!(
            of("[1,{\"a\":2}]", &["[1,{\"a\":2}]", "[1,{\"a\":2}]"], 3),
            vec![None, None]
        );
        assert_eq!(of("[1]", &[], 1), Vec::<Option<Rerun>>::new());
    }

    #[test]
    fn the_first_other_run_that_differs_is_kept() {
        let found = of("[1,2,3]", &["[1,5,3]", "[9,6,3]"], 3);
        assert_eq!(
            found,
            vec![
                Some(Rerun {
                    run: 3,
                    answer: Ok(b"9".to_vec())
                }),
                Some(Rerun {
                    run: 2,
                    answer: Ok(b"5".to_vec())
                }),
                None,
            ]
        );
        assert_eq!(count(&found), 2);
        // The same value written otherwise differs too: bytes are compared.
        assert_eq!(
            of("[1.0]", &["[1]"], 2),
            vec![Some(Rerun {
                run: 2,
                answer: Ok(b"1".to_vec())
            })]
        );
    }

    #[test]
    fn a_run_without_a_result_for_a_case_differs_on_it() {
        assert_eq!(
            of("[1,2]", &["[1]"], 2),
            vec![
                None,
                Some(Rerun {
                    run: 2,
                    answer: Err("run 2 printed 1 result".into())
                })
            ]
        );
        let crashed = of("[1]", &["crash"], 2);
        assert_eq!(
            crashed,
            vec![Some(Rerun {
                run: 2,
                answer: Err("run 2 failed: the oracle exited with status 1".into())
            })]
        );
        let invalid = of("[1,2]", &["[1,NaN]"], 2);
        assert_eq!(
            invalid[1],
            Some(Rerun {
                run: 2,
                answer: Err("the oracle printed `NaN`, which is not JSON".into())
            })
        );
    }

    #[test]
    fn spooled_outputs_compare_by_their_bytes() {
        let file = |text: &[u8]| {
            let mut file = tempfile::tempfile().unwrap();
            file.write_all(text).unwrap();
            file
        };
        let big = vec![b'x'; 200_000];
        let mut other = big.clone();
        other[150_000] = b'y';
        assert!(same_files(&mut file(&big), &mut file(&big)).unwrap());
        assert!(!same_files(&mut file(&big), &mut file(&other)).unwrap());
        assert!(!same_files(&mut file(b"[1]"), &mut file(b"[1] ")).unwrap());
        let (mut a, mut b) = (file(b"[1]"), file(b"[1]"));
        assert!(same_files(&mut a, &mut b).unwrap());
        let mut back = String::new();
        a.read_to_string(&mut back).unwrap();
        assert_eq!(back, "[1]", "left at its start");
    }
}
