//! The fuzzing loop: generate a batch, run it through both oracles,
//! compare element by element, and minimize one case per divergence
//! signature.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::divergence::{first_difference, signature};
use super::generate::{generator, Gen, MakeCase};
use super::tree::Node;
use crate::diff::golden::split_elements;
use crate::js::JsString;

/// Something that turns a batch (a JSON array of cases) into its result
/// array: a command, our own oracle, or a test's planted bug.
pub trait BatchOracle {
    /// The result array's bytes, or why there are none.
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, String>;
}

impl<F: Fn(&[u8]) -> Result<Vec<u8>, String>> BatchOracle for F {
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, String> {
        self(batch)
    }
}

/// Our own oracle, in this process.
pub fn in_process(batch: &[u8]) -> Result<Vec<u8>, String> {
    crate::batch::run_batch_bytes(batch).map_err(|refusal| refusal.reason)
}

/// What to fuzz, and for how long.
#[derive(Debug, Clone)]
pub struct FuzzConfig {
    /// The seed of the first batch; batch `n` uses `seed + n`.
    pub seed: u64,
    /// The ops to generate cases for (round robin).
    pub ops: Vec<String>,
    /// Stop after this many cases.
    pub count: Option<usize>,
    /// Stop after this long.
    pub duration: Option<Duration>,
    /// Cases per batch.
    pub batch_size: usize,
    /// Most minimization rounds per divergence.
    pub max_rounds: usize,
    /// Where minimized cases are written (none: not written).
    pub out_dir: Option<PathBuf>,
}

/// Every case of one divergence signature.
#[derive(Debug, Clone)]
pub struct DivergenceGroup {
    /// The op and the shape of the path where results part.
    pub signature: String,
    /// How many generated cases diverged this way.
    pub cases: usize,
    /// The first such case, as generated.
    pub first: Node,
    /// That case, minimized.
    pub minimized: Node,
    /// The minimized case's result from each side.
    pub left: Vec<u8>,
    /// See `left`.
    pub right: Vec<u8>,
    /// Where the results first differ.
    pub pointer: Option<String>,
    /// The regression case file written for it.
    pub file: Option<PathBuf>,
}

/// What a fuzzing session found.
#[derive(Debug, Clone, Default)]
pub struct FuzzReport {
    /// Cases run through both sides.
    pub cases: usize,
    /// The divergences, by signature.
    pub groups: Vec<DivergenceGroup>,
    /// How long it took.
    pub elapsed: Duration,
}

/// The batch text of some cases.
fn batch_text<'a>(cases: impl IntoIterator<Item = &'a Node>) -> Vec<u8> {
    let mut text = b"[".to_vec();
    for (at, case) in cases.into_iter().enumerate() {
        if at > 0 {
            text.push(b',');
        }
        case.write(&mut text);
    }
    text.push(b']');
    text
}

/// One case's result from each side.
type ResultPair = (Vec<u8>, Vec<u8>);

/// Both sides' results for some cases, element by element.
fn results(
    cases: &[Node],
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
) -> Result<Vec<ResultPair>, String> {
    let batch = batch_text(cases);
    let left_out = left.run(&batch).map_err(|e| format!("left oracle: {e}"))?;
    let right_out = right
        .run(&batch)
        .map_err(|e| format!("right oracle: {e}"))?;
    let left = split_elements(&left_out).map_err(|e| format!("left oracle: {e}"))?;
    let right = split_elements(&right_out).map_err(|e| format!("right oracle: {e}"))?;
    if left.len() != cases.len() || right.len() != cases.len() {
        return Err(format!(
            "{} cases gave {} and {} results",
            cases.len(),
            left.len(),
            right.len()
        ));
    }
    Ok(left
        .into_iter()
        .zip(right)
        .map(|(l, r)| (l.to_vec(), r.to_vec()))
        .collect())
}

fn op_of(case: &Node) -> String {
    match case.get("op") {
        Some(Node::String(op, _)) => op.to_string(),
        _ => "?".into(),
    }
}

/// Shrinks a diverging case: takes the smallest one-step simplification
/// that still diverges with the same signature, round after round, until
/// none does.
pub fn minimize(
    case: &Node,
    wanted: &str,
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
    max_rounds: usize,
) -> Result<(Node, Vec<u8>, Vec<u8>), String> {
    let op = op_of(case);
    let mut current = case.clone();
    let mut outputs = results(std::slice::from_ref(&current), left, right)?.remove(0);
    for _ in 0..max_rounds {
        let mut candidates = current.simplifications(&["op"]);
        candidates.sort_by_key(|c| (c.size(), c.to_text().len()));
        candidates.dedup();
        if candidates.is_empty() {
            break;
        }
        let found = results(&candidates, left, right)?
            .into_iter()
            .zip(candidates)
            .find(|((l, r), _)| l != r && signature(&op, l, r) == wanted);
        match found {
            Some((pair, smaller)) => {
                current = smaller;
                outputs = pair;
            }
            None => break,
        }
    }
    Ok((current, outputs.0, outputs.1))
}

/// A file name for a divergence: the op and the path's shape.
fn regression_name(signature: &str) -> String {
    let slug: String = signature
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() {
        "divergence".into()
    } else {
        slug
    }
}

/// Writes a minimized case as a one-case case file, named after its
/// signature, without overwriting an earlier one.
fn write_regression(dir: &Path, group: &DivergenceGroup, seed: u64) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let base = regression_name(&group.signature);
    let mut path = dir.join(format!("{base}.json"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{base}-{n}.json"));
        n += 1;
    }
    let name = format!(
        "fuzz seed {seed}: {} diverges at {}",
        op_of(&group.minimized),
        group.pointer.as_deref().unwrap_or("(bytes only)")
    );
    let mut members = vec![(JsString::from("name"), Node::str(&name))];
    if let Node::Object(fields) = &group.minimized {
        members.extend(fields.iter().cloned());
    }
    let mut text = b"[\n".to_vec();
    Node::Object(members).write(&mut text);
    text.extend_from_slice(b"\n]\n");
    std::fs::write(&path, text)?;
    Ok(path)
}

/// Runs a fuzzing session and reports every divergence, grouped by
/// signature, each with a minimized case. Progress goes to `progress`.
pub fn fuzz(
    config: &FuzzConfig,
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
    progress: &mut dyn Write,
) -> Result<FuzzReport, String> {
    let makers = config
        .ops
        .iter()
        .map(|op| generator(op).ok_or_else(|| format!("no case generator for op {op:?}")))
        .collect::<Result<Vec<MakeCase>, String>>()?;
    let started = Instant::now();
    let mut report = FuzzReport::default();
    let mut groups: BTreeMap<String, DivergenceGroup> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut batch_number = 0u64;
    let mut last_progress = Instant::now();
    loop {
        let done_count = config.count.is_some_and(|count| report.cases >= count);
        let done_time = config
            .duration
            .is_some_and(|limit| started.elapsed() >= limit);
        if done_count || done_time || makers.is_empty() {
            break;
        }
        let size = match config.count {
            Some(count) => config.batch_size.min(count - report.cases),
            None => config.batch_size,
        };
        let mut gen = Gen::new(config.seed.wrapping_add(batch_number));
        let cases: Vec<Node> = (0..size)
            .map(|at| gen.case_from(makers[(report.cases + at) % makers.len()]))
            .collect();
        batch_number += 1;
        for (case, (l, r)) in cases.iter().zip(results(&cases, left, right)?) {
            if l == r {
                continue;
            }
            let op = op_of(case);
            let signature = signature(&op, &l, &r);
            if let Some(group) = groups.get_mut(&signature) {
                group.cases += 1;
                continue;
            }
            let (minimized, left_out, right_out) =
                minimize(case, &signature, left, right, config.max_rounds)?;
            let pointer = first_difference(&left_out, &right_out);
            let mut group = DivergenceGroup {
                signature: signature.clone(),
                cases: 1,
                first: case.clone(),
                minimized,
                left: left_out,
                right: right_out,
                pointer,
                file: None,
            };
            if let Some(dir) = &config.out_dir {
                group.file = Some(
                    write_regression(dir, &group, config.seed)
                        .map_err(|e| format!("cannot write a regression case: {e}"))?,
                );
            }
            let _ = writeln!(progress, "fuzz: new divergence {signature}");
            order.push(signature.clone());
            groups.insert(signature, group);
        }
        report.cases += size;
        if last_progress.elapsed() >= Duration::from_secs(2) {
            last_progress = Instant::now();
            let rate = report.cases as f64 / started.elapsed().as_secs_f64().max(1e-9);
            let diverged: usize = groups.values().map(|g| g.cases).sum();
            let _ = writeln!(
                progress,
                "fuzz: {} cases, {} diverged ({} signatures), {:.0} cases/s",
                report.cases,
                diverged,
                groups.len(),
                rate
            );
        }
    }
    report.groups = order
        .into_iter()
        .filter_map(|s| groups.remove(&s))
        .collect();
    report.elapsed = started.elapsed();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::OPS;

    fn config(ops: &[&str], count: usize) -> FuzzConfig {
        FuzzConfig {
            seed: 1,
            ops: ops.iter().map(|s| s.to_string()).collect(),
            count: Some(count),
            duration: None,
            batch_size: 250,
            max_rounds: 100,
            out_dir: None,
        }
    }

    #[test]
    fn our_oracle_agrees_with_itself() {
        let ops: Vec<&str> = OPS.iter().map(|spec| spec.name).collect();
        let report = fuzz(
            &config(&ops, 500),
            &in_process,
            &in_process,
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(report.cases, 500);
        assert!(report.groups.is_empty());
    }

    #[test]
    fn an_op_without_a_generator_is_refused() {
        let error = fuzz(
            &config(&["cliArgs", "nope"], 10),
            &in_process,
            &in_process,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(error, r#"no case generator for op "nope""#);
    }

    #[test]
    fn regression_names_are_slugs() {
        assert_eq!(regression_name("cliArgs /value/*"), "cliArgs-value");
        assert_eq!(regression_name("x (bytes)"), "x-bytes");
    }
}
