//! Where a fuzzing session's cases come from: a [`CaseSource`] gives the
//! cases of each batch, the same for the same seed whatever order the
//! batches run in (`--jobs`).
//!
//! - [`Generated`]: a contract's own generator, which knows its ops'
//!   fields (`--generator CMD`, see [`generator_command`]);
//! - [`Mutated`](super::mutate::Mutated): the cases of any corpus,
//!   mutated (without `--generator`), for a contract without one.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::tree::Node;
use crate::exec::oracle::{shell_word, Oracle, OracleOptions};

/// The cases of a session, batch by batch.
pub trait CaseSource: Sync {
    /// The ops the cases are of, in the order they take turns.
    fn ops(&self) -> &[String];

    /// Batch `number`: `size` cases, the session's cases `first` to
    /// `first + size`. The same arguments give the same cases.
    fn batch(&self, number: u64, first: usize, size: usize) -> Result<Vec<Node>, String>;
}

/// Asks a generator for `count` cases of `op` from `seed`.
pub type Fetch = dyn Fn(&str, u64, usize) -> Result<Vec<Node>, String> + Sync;

/// One chunk of one op's cases, and how many of them were taken.
struct Chunk {
    cases: OnceLock<Result<Arc<Vec<Node>>, String>>,
    taken: AtomicUsize,
}

/// Cases from a generator, the ops taking turns: the session's `i`-th case
/// is the `j = i / ops`-th case of op `i mod ops`, and an op's cases come
/// in chunks of `chunk`, chunk `k` drawn with seed `seed + k`. So one
/// generator run serves many batches (starting a process per op and batch
/// would cost more than the cases), and with one op and `chunk` the batch
/// size, chunk `k` is batch `k`. A chunk is dropped once all its cases
/// are taken: memory holds the chunks in use.
pub struct Generated {
    ops: Vec<String>,
    seed: u64,
    chunk: usize,
    fetch: Box<Fetch>,
    chunks: Mutex<HashMap<(usize, u64), Arc<Chunk>>>,
}

impl Generated {
    /// A source of `ops`' cases from `fetch`, `chunk` (at least 1) cases
    /// per call.
    pub fn new(ops: Vec<String>, seed: u64, chunk: usize, fetch: Box<Fetch>) -> Self {
        Generated {
            ops,
            seed,
            chunk: chunk.max(1),
            fetch,
            chunks: Mutex::new(HashMap::new()),
        }
    }

    /// Leaves out the ops the generator has no cases of (it printed `[]`
    /// for them: a corpus's ops include ones no contract has, to test
    /// that they are refused), and returns them. Each op's first chunk is
    /// drawn to see, and kept for the session.
    pub fn without_unknown_ops(self) -> Result<(Generated, Vec<String>), String> {
        let mut known = Vec::new();
        let mut unknown = Vec::new();
        for op in &self.ops {
            let cases = (self.fetch)(op, self.seed, self.chunk)?;
            if cases.is_empty() {
                unknown.push(op.clone());
            } else {
                known.push((op.clone(), cases));
            }
        }
        let source = Generated::new(
            known.iter().map(|(op, _)| op.clone()).collect(),
            self.seed,
            self.chunk,
            self.fetch,
        );
        for (at, (op, cases)) in known.into_iter().enumerate() {
            let chunk = source.checked(&op, Ok(cases))?;
            let cell = OnceLock::new();
            let _ = cell.set(Ok(Arc::new(chunk)));
            source.lock().insert(
                (at, 0),
                Arc::new(Chunk {
                    cases: cell,
                    taken: AtomicUsize::new(0),
                }),
            );
        }
        Ok((source, unknown))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(usize, u64), Arc<Chunk>>> {
        self.chunks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A chunk as drawn, refused unless it has `chunk` cases.
    fn checked(&self, op: &str, cases: Result<Vec<Node>, String>) -> Result<Vec<Node>, String> {
        let cases = cases?;
        if cases.len() != self.chunk {
            return Err(format!(
                "the generator gave {} cases of op {op:?} for --count {}",
                cases.len(),
                self.chunk
            ));
        }
        Ok(cases)
    }

    fn chunk(&self, op: usize, number: u64) -> Result<Arc<Vec<Node>>, String> {
        let chunk = {
            let mut chunks = self.lock();
            Arc::clone(chunks.entry((op, number)).or_insert_with(|| {
                Arc::new(Chunk {
                    cases: OnceLock::new(),
                    taken: AtomicUsize::new(0),
                })
            }))
        };
        // Drawn outside the lock: other chunks are drawn meanwhile.
        let cases = chunk.cases.get_or_init(|| {
            let seed = self.seed.wrapping_add(number);
            let op = &self.ops[op];
            self.checked(op, (self.fetch)(op, seed, self.chunk))
                .map(Arc::new)
        });
        if chunk.taken.fetch_add(1, Ordering::SeqCst) + 1 == self.chunk {
            self.lock().remove(&(op, number));
        }
        cases.clone()
    }
}

impl CaseSource for Generated {
    fn ops(&self) -> &[String] {
        &self.ops
    }

    fn batch(&self, _number: u64, first: usize, size: usize) -> Result<Vec<Node>, String> {
        let ops = self.ops.len();
        (first..first + size)
            .map(|at| {
                let (op, nth) = (at % ops, at / ops);
                let cases = self.chunk(op, (nth / self.chunk) as u64)?;
                Ok(cases[nth % self.chunk].clone())
            })
            .collect()
    }
}

/// The generator protocol: `CMD --op OP --seed N --count K` prints one
/// JSON array of `K` cases of op `OP` on stdout, the same array for the
/// same arguments, and exits 0; for an op it has no cases of, it prints
/// `[]` (see [`Generated::without_unknown_ops`]). It runs with `sh -c` and
/// an empty stdin, under the oracles' limits (`--timeout`,
/// `--max-output`).
pub fn generator_command(
    command: &str,
    limits: OracleOptions,
    ops: Vec<String>,
    seed: u64,
    chunk: usize,
) -> Generated {
    let command = command.to_owned();
    let fetch = move |op: &str, seed: u64, count: usize| {
        if op.contains('\0') {
            // No command line can carry it: no generator has its cases.
            return Ok(Vec::new());
        }
        let line = format!(
            "{command} --op {} --seed {seed} --count {count}",
            shell_word(op)
        );
        let failed = |what: String| format!("the generator `{line}` {what}");
        let output = Oracle::command(line.as_str())
            .run(b"", limits)
            .map_err(|failure| {
                let last = failure
                    .stderr
                    .as_deref()
                    .and_then(|stderr| stderr.lines().rev().find(|l| !l.trim().is_empty()))
                    .map(|line| format!(": {line}"))
                    .unwrap_or_default();
                failed(format!(
                    "failed: {}{last}",
                    failure
                        .message
                        .replace("the oracle command", "it")
                        .replace("the oracle", "it")
                ))
            })?;
        match Node::parse(&output) {
            Ok(Node::Array(cases)) => Ok(cases),
            Ok(_) => Err(failed("printed JSON that is not an array".into())),
            Err(error) => Err(failed(format!(
                "printed an array it cannot be read as: {error}"
            ))),
        }
    };
    Generated::new(ops, seed, chunk, Box::new(fetch))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A generator whose cases say which op, seed and place they are.
    fn counting(calls: Arc<AtomicUsize>) -> Box<Fetch> {
        Box::new(move |op: &str, seed: u64, count: usize| {
            calls.fetch_add(1, Ordering::SeqCst);
            Ok((0..count)
                .map(|at| {
                    Node::object([
                        ("op", Node::str(op)),
                        ("n", Node::int((seed * 100 + at as u64) as i64)),
                    ])
                })
                .collect())
        })
    }

    fn texts(cases: &[Node]) -> Vec<String> {
        cases
            .iter()
            .map(|c| String::from_utf8(c.to_text()).unwrap())
            .collect()
    }

    #[test]
    fn ops_take_turns_and_chunks_are_drawn_once_each() {
        let calls = Arc::new(AtomicUsize::new(0));
        let source = Generated::new(vec!["a".into(), "b".into()], 10, 3, counting(calls.clone()));
        let first = source.batch(0, 0, 4).unwrap();
        let second = source.batch(1, 4, 4).unwrap();
        assert_eq!(
            texts(&first),
            [
                r#"{"op":"a","n":1000}"#,
                r#"{"op":"b","n":1000}"#,
                r#"{"op":"a","n":1001}"#,
                r#"{"op":"b","n":1001}"#,
            ]
        );
        assert_eq!(
            texts(&second),
            [
                r#"{"op":"a","n":1002}"#,
                r#"{"op":"b","n":1002}"#,
                r#"{"op":"a","n":1100}"#,
                r#"{"op":"b","n":1100}"#,
            ]
        );
        assert_eq!(calls.load(Ordering::SeqCst), 4);
        // The same batch again gives the same cases, in any order.
        let again = Generated::new(vec!["a".into(), "b".into()], 10, 3, counting(calls.clone()));
        assert_eq!(texts(&again.batch(1, 4, 4).unwrap()), texts(&second));
        // Used-up chunks are dropped.
        assert_eq!(source.chunks.lock().unwrap().len(), 2);
    }

    #[test]
    fn ops_the_generator_has_no_cases_of_are_left_out_and_the_rest_kept() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = counting(calls.clone());
        let fetch = Box::new(move |op: &str, seed: u64, count: usize| match op {
            "none" => Ok(Vec::new()),
            _ => counted(op, seed, count),
        });
        let ops = vec!["a".into(), "none".into(), "b".into()];
        let (source, unknown) = Generated::new(ops, 10, 3, fetch)
            .without_unknown_ops()
            .unwrap();
        assert_eq!(unknown, ["none"]);
        assert_eq!(source.ops(), ["a", "b"]);
        assert_eq!(
            texts(&source.batch(0, 0, 3).unwrap()),
            [
                r#"{"op":"a","n":1000}"#,
                r#"{"op":"b","n":1000}"#,
                r#"{"op":"a","n":1001}"#
            ]
        );
        // The first chunks were drawn once, to see.
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        let short = Box::new(|_: &str, _: u64, _: usize| Ok(vec![Node::Null]));
        let error = Generated::new(vec!["a".into()], 1, 3, short)
            .without_unknown_ops()
            .err()
            .unwrap();
        assert_eq!(
            error,
            "the generator gave 1 cases of op \"a\" for --count 3"
        );
    }

    #[test]
    fn a_generator_that_fails_or_miscounts_is_an_error_naming_it() {
        let limits = OracleOptions::new(Duration::from_secs(10), 1 << 20);
        let ops = vec!["x y".to_string()];
        let cases =
            |command: &str| generator_command(command, limits, ops.clone(), 5, 2).batch(0, 0, 1);
        assert_eq!(
            texts(&cases("printf '[{\"a\":1.0},2]'; : ").unwrap()),
            [r#"{"a":1.0}"#]
        );
        assert_eq!(
            cases("echo 'no such op' >&2; exit 2; : ").unwrap_err(),
            "the generator `echo 'no such op' >&2; exit 2; :  --op 'x y' --seed 5 --count 2` failed: it exited with status 2: no such op"
        );
        assert_eq!(
            cases("printf '[1]'; : ").unwrap_err(),
            "the generator gave 1 cases of op \"x y\" for --count 2"
        );
        assert_eq!(
            cases("printf '[1, 01]'; : ").unwrap_err(),
            "the generator `printf '[1, 01]'; :  --op 'x y' --seed 5 --count 2` printed an array it cannot be read as: not a JSON number at byte 6"
        );
    }
}
