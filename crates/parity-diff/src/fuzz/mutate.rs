//! Fuzzing any contract from its corpus: each case is taken from a case
//! file and mutated, its op kept, so that a contract without a generator
//! of its own is fuzzed all the same (`parity-diff fuzz` without
//! `--generator`).
//!
//! A mutation changes one place in the case:
//! - a number to a boundary value, to a random double near it (halves
//!   and other fractions included, where rounding rules part ways), or
//!   to another spelling of the same value (`1.0`, `1e0`, `-0`);
//! - a string to an edge string, or an edge piece put into it (lone
//!   surrogates, U+2028, non-BMP text, controls, JavaScript white space),
//!   or its characters escaped (`\u00e9`);
//! - an object's members dropped, duplicated or reordered, an array's
//!   elements too;
//! - a value's type changed.
//!
//! Words of a contract's own (`$DIR`, its option names) belong to its
//! generator, not here: nothing here knows a contract.

use std::path::Path;

use super::rng::Rng;
use super::source::CaseSource;
use super::tree::{Escapes, Node};
use crate::base::error::InputError;
use crate::corpus::Corpus;
use crate::judge::golden::split_elements;
use js_exact::JsString;

/// Numbers where implementations part ways, spelled as JSON allows.
const BOUNDARY_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "-0.5",
    "1.5",
    "2.5",
    "0.1",
    "1e21",
    "1e20",
    "1e-7",
    "0.000001",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9007199254740991",
    "9007199254740993",
    "12345678901234567890",
    "1.7976931348623157e308",
    "5e-324",
    "1e400",
    "-1e400",
];

/// Strings and pieces of strings where implementations part ways.
const EDGE_STRINGS: &[&str] = &[
    "",
    " ",
    "\u{2028}",
    "\u{2029}",
    "\u{feff}",
    "\u{a0}",
    "\u{3000}",
    "😀",
    "𝄞",
    "\u{10ffff}",
    "\u{0}",
    "\u{1f}",
    "\u{7f}",
    "\u{85}",
    "\n",
    "\r\n",
    "\t",
    "\"",
    "\\",
    "é",
    "e\u{301}",
    "\u{fffd}",
    "0",
    "-1",
    "1e400",
    "null",
    "__proto__",
];

/// Lone surrogates, the code units no UTF-8 text holds.
const LONE_SURROGATES: &[u16] = &[0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D];

/// The cases of a corpus, by op, in the order the ops first appear.
#[derive(Debug, Clone, Default)]
pub struct Seeds {
    /// Each op with its cases (objects whose `op` is a string).
    pub ops: Vec<(String, Vec<Node>)>,
    /// Case files that are not JSON arrays, and cases that cannot be
    /// trees (nested too deep), each with why.
    pub unread: Vec<String>,
    /// Cases that are not objects with a string `op`.
    pub without_op: usize,
    /// Those cases, kept: a corpus with no op at all fuzzes them as one
    /// implicit op ([`IMPLICIT_OP`]).
    without: Vec<Node>,
}

/// The op a corpus without ops is fuzzed as: what [`op_of`] says of a
/// case without one.
///
/// [`op_of`]: super::minimize::op_of
pub const IMPLICIT_OP: &str = "?";

impl Seeds {
    /// Reads every case file under `dir` (`*.json`, as `run` lists them).
    pub fn read(dir: &Path) -> Result<Seeds, InputError> {
        let corpus = Corpus {
            cases: dir.to_path_buf(),
            golden: dir.to_path_buf(),
            filter: None,
            shard: None,
        };
        let mut seeds = Seeds::default();
        for entry in corpus.case_files()? {
            let bytes = match crate::base::files::input::read(
                &entry.case_path,
                crate::base::files::input::CORPUS_FILE,
            ) {
                Ok(bytes) => bytes,
                Err(error) => {
                    seeds.unread.push(format!("{}: {error}", entry.name));
                    continue;
                }
            };
            let cases = match split_elements(&bytes) {
                Ok(cases) => cases,
                Err(error) => {
                    seeds.unread.push(format!("{}: {error}", entry.name));
                    continue;
                }
            };
            // Case by case: one that cannot be a tree costs itself alone.
            for (index, case) in cases.into_iter().enumerate() {
                match Node::parse(case) {
                    Ok(case) => seeds.add(case),
                    Err(error) => seeds
                        .unread
                        .push(format!("{} #{index}: {error}", entry.name)),
                }
            }
        }
        seeds.settle();
        Ok(seeds)
    }

    /// Once every case is in: a corpus without ops is one implicit op
    /// of its cases; with ops, the cases without one are not fuzzed.
    fn settle(&mut self) {
        let without = std::mem::take(&mut self.without);
        if self.ops.is_empty() && !without.is_empty() {
            self.ops.push((IMPLICIT_OP.to_owned(), without));
        }
    }

    fn add(&mut self, case: Node) {
        let Some(Node::String(op, _)) = case.get("op") else {
            self.without_op += 1;
            self.without.push(case);
            return;
        };
        let op = op.to_string();
        match self.ops.iter_mut().find(|(known, _)| *known == op) {
            Some((_, cases)) => cases.push(case),
            None => self.ops.push((op, vec![case])),
        }
    }

    /// The ops, in order.
    pub fn op_names(&self) -> Vec<String> {
        self.ops.iter().map(|(op, _)| op.clone()).collect()
    }
}

/// Mutated corpus cases: the session's `i`-th case is of the `i mod
/// ops`-th op, one of its corpus cases changed one to three times; batch
/// `n` draws from the seed `seed + n` alone.
pub struct Mutated {
    ops: Vec<String>,
    cases: Vec<Vec<Node>>,
    seed: u64,
}

impl Mutated {
    /// A source over `ops` (each must have cases in `seeds`).
    pub fn new(seeds: &Seeds, ops: &[String], seed: u64) -> Result<Mutated, String> {
        let cases = ops
            .iter()
            .map(|op| {
                seeds
                    .ops
                    .iter()
                    .find(|(known, _)| known == op)
                    .map(|(_, cases)| cases.clone())
                    .ok_or_else(|| {
                        format!(
                            "no case of op {op:?} in the corpus; its ops are: {}",
                            seeds.op_names().join(", ")
                        )
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(Mutated {
            ops: ops.to_vec(),
            cases,
            seed,
        })
    }
}

impl CaseSource for Mutated {
    fn ops(&self) -> &[String] {
        &self.ops
    }

    fn batch(&self, number: u64, first: usize, size: usize) -> Result<Vec<Node>, String> {
        let mut rng = Rng::new(self.seed.wrapping_add(number));
        Ok((first..first + size)
            .map(|at| {
                let pool = &self.cases[at % self.ops.len()];
                let mut case = rng.pick(pool).clone();
                for _ in 0..rng.between(1, 3) {
                    mutate(&mut case, &mut rng);
                }
                case
            })
            .collect())
    }
}

/// Changes one place of `case`: any node but the root itself and its
/// `op` members.
pub fn mutate(case: &mut Node, rng: &mut Rng) {
    let mut places = Vec::new();
    collect_places(case, &mut Vec::new(), true, &mut places);
    let path = rng.pick(&places).clone();
    let node = at_path(case, &path);
    if path.is_empty() {
        // The case itself: its members change, never its kind or op.
        if let Node::Object(members) = node {
            change_members(members, rng, true);
        }
        return;
    }
    match rng.below(6) {
        0 => *node = other_kind(node, rng),
        _ => change(node, rng),
    }
}

/// Every place's path (child positions) below `node`, `node` first.
fn collect_places(node: &Node, path: &mut Vec<usize>, root: bool, out: &mut Vec<Vec<usize>>) {
    out.push(path.clone());
    let children: Vec<&Node> = match node {
        Node::Array(items) => items.iter().collect(),
        Node::Object(members) => members.iter().map(|(_, value)| value).collect(),
        _ => return,
    };
    for (at, child) in children.into_iter().enumerate() {
        let is_op = root && matches!(node, Node::Object(members) if members[at].0.eq_str("op"));
        if !is_op {
            path.push(at);
            collect_places(child, path, false, out);
            path.pop();
        }
    }
}

fn at_path<'a>(mut node: &'a mut Node, path: &[usize]) -> &'a mut Node {
    for &at in path {
        node = match node {
            Node::Array(items) => &mut items[at],
            Node::Object(members) => &mut members[at].1,
            _ => unreachable!("a path leads through containers"),
        };
    }
    node
}

/// A change that keeps the node's kind.
fn change(node: &mut Node, rng: &mut Rng) {
    match node {
        Node::Number(text) => {
            let near = number_near(text, rng);
            // Whatever Rust formatting made, the case stays JSON.
            if matches!(Node::parse(near.as_bytes()), Ok(Node::Number(_))) {
                *text = near;
            }
        }
        Node::String(text, escapes) => change_string(text, escapes, rng),
        Node::Array(items) => change_items(items, rng),
        Node::Object(members) => change_members(members, rng, false),
        Node::Bool(flag) => *flag = !*flag,
        Node::Null => *node = other_kind(node, rng),
    }
}

/// A number: a boundary value, one near this one, or this one spelled
/// otherwise.
fn number_near(text: &str, rng: &mut Rng) -> String {
    let value: f64 = text.parse().unwrap_or(0.0);
    match rng.below(3) {
        0 => rng.pick_str(BOUNDARY_NUMBERS).to_owned(),
        1 => respelled(text, value, rng),
        _ => {
            let base = if value.is_finite() { value } else { 0.0 };
            let near = match rng.below(5) {
                0 => base.trunc() + 0.5f64.copysign(base),
                1 => base + 1.0,
                2 => base - 1.0,
                3 => -base,
                _ => base + (rng.unit() - 0.5) * 10f64.powi(rng.between(0, 6) as i32),
            };
            match rng.below(3) {
                0 => format!("{near}"),
                1 => format!("{near:.digits$}", digits = rng.between(1, 3)),
                _ => format!("{}", near.trunc()),
            }
        }
    }
}

/// The same value written another way (what is not JSON is left out by
/// the caller).
fn respelled(text: &str, value: f64, rng: &mut Rng) -> String {
    let exponent = text.contains(['e', 'E']);
    let mut spellings: Vec<String> = if !value.is_finite() {
        // Past the largest double: more digits stay Infinity.
        vec![format!("{text}0"), format!("{text}1")]
    } else if value == 0.0 {
        ["0", "-0", "0.0", "-0.0", "0e0", "0E-5"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else if !text.contains('.') && !exponent {
        vec![
            format!("{text}.0"),
            format!("{text}e0"),
            format!("{text}E+0"),
            format!("{text}0e-1"),
        ]
    } else {
        vec![format!("{value:e}"), format!("{value}")]
    };
    if text.contains('.') && !exponent {
        spellings.push(format!("{text}0"));
    }
    rng.pick(&spellings).clone()
}

fn change_string(text: &mut JsString, escapes: &mut Escapes, rng: &mut Rng) {
    match rng.below(4) {
        0 => {
            *text = edge_text(rng);
            *escapes = Escapes::Plain;
        }
        1 | 2 => {
            let mut units = text.to_utf16();
            let at = rng.below(units.len() + 1);
            let piece = edge_text(rng).to_utf16();
            units.splice(at..at, piece);
            *text = JsString::from_utf16(&units);
            *escapes = Escapes::Plain;
        }
        // Every non-ASCII unit escaped, or every unit (`\u0061`).
        _ if rng.one_in(2) => *escapes = Escapes::Unicode,
        _ => *escapes = Escapes::Written(escaped_all(text)),
    }
}

/// `text` as a JSON string whose every code unit is a `\u` escape.
fn escaped_all(text: &JsString) -> std::sync::Arc<[u8]> {
    let mut out = String::from("\"");
    for unit in text.to_utf16() {
        out.push_str(&format!("\\u{unit:04x}"));
    }
    out.push('"');
    std::sync::Arc::from(out.as_bytes())
}

/// An edge string, or a lone surrogate.
fn edge_text(rng: &mut Rng) -> JsString {
    if rng.one_in(5) {
        JsString::from_utf16(&[*rng.pick(LONE_SURROGATES)])
    } else {
        JsString::from(rng.pick_str(EDGE_STRINGS))
    }
}

fn change_items(items: &mut Vec<Node>, rng: &mut Rng) {
    if items.is_empty() {
        items.push(any_leaf(rng));
        return;
    }
    let at = rng.below(items.len());
    match rng.below(3) {
        0 => {
            items.remove(at);
        }
        1 => items.insert(at, items[at].clone()),
        _ => {
            let other = rng.below(items.len());
            items.swap(at, other);
        }
    }
}

/// A member dropped (never a case's `op`), duplicated (a later duplicate
/// wins in JSON.parse, with the first's position), or moved.
fn change_members(members: &mut Vec<(JsString, Node)>, rng: &mut Rng, case: bool) {
    let movable: Vec<usize> = (0..members.len())
        .filter(|&at| !(case && members[at].0.eq_str("op")))
        .collect();
    if movable.is_empty() {
        return;
    }
    let at = *rng.pick(&movable);
    match rng.below(3) {
        0 => {
            members.remove(at);
        }
        1 => {
            let (key, mut value) = members[at].clone();
            change(&mut value, rng);
            let to = rng.between(at + 1, members.len());
            members.insert(to, (key, value));
        }
        _ => {
            let member = members.remove(at);
            let to = rng.below(members.len() + 1);
            members.insert(to, member);
        }
    }
}

fn any_leaf(rng: &mut Rng) -> Node {
    match rng.below(4) {
        0 => Node::Null,
        1 => Node::Bool(rng.one_in(2)),
        2 => Node::Number(rng.pick_str(BOUNDARY_NUMBERS).to_owned()),
        _ => Node::String(edge_text(rng), Escapes::Plain),
    }
}

/// A value of another kind than `node`'s.
fn other_kind(node: &Node, rng: &mut Rng) -> Node {
    loop {
        let other = match rng.below(6) {
            0 => Node::Null,
            1 => Node::Bool(rng.one_in(2)),
            2 => Node::Number(rng.pick_str(BOUNDARY_NUMBERS).to_owned()),
            3 => Node::String(edge_text(rng), Escapes::Plain),
            4 => Node::Array(vec![node.clone()]),
            _ => Node::Object(Vec::new()),
        };
        if std::mem::discriminant(&other) != std::mem::discriminant(node) {
            return other;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeds(cases: &str) -> Seeds {
        let mut seeds = Seeds::default();
        let Node::Array(cases) = Node::parse(cases.as_bytes()).unwrap() else {
            panic!()
        };
        cases.into_iter().for_each(|case| seeds.add(case));
        seeds.settle();
        seeds
    }

    fn texts(source: &Mutated, number: u64, first: usize, size: usize) -> Vec<String> {
        source
            .batch(number, first, size)
            .unwrap()
            .iter()
            .map(|case| String::from_utf8(case.to_text()).unwrap())
            .collect()
    }

    const CORPUS: &str = r#"[
        {"name": "a", "op": "sum", "values": [1, 2.5, 3]},
        {"name": "b", "op": "length", "text": "abc"},
        5,
        {"op": 7},
        {"name": "c", "op": "sum", "values": []}
    ]"#;

    #[test]
    fn the_ops_are_the_corpus_s_in_order_and_cases_keep_theirs() {
        let seeds = seeds(CORPUS);
        assert_eq!(seeds.op_names(), ["sum", "length"]);
        assert_eq!(seeds.without_op, 2);
        let source = Mutated::new(&seeds, &seeds.op_names(), 1).unwrap();
        let cases = source.batch(0, 0, 400).unwrap();
        for (at, case) in cases.iter().enumerate() {
            let op = if at % 2 == 0 { "sum" } else { "length" };
            assert_eq!(case.get("op"), Some(&Node::str(op)), "{case:?}");
            // Every case is JSON text as written.
            js_exact::parse(&case.to_text(), js_exact::TextMode::LossyUtf8).unwrap();
        }
        let error = Mutated::new(&seeds, &["keys".into()], 1).err().unwrap();
        assert_eq!(
            error,
            "no case of op \"keys\" in the corpus; its ops are: sum, length"
        );
    }

    #[test]
    fn batches_depend_on_the_seed_and_their_number_alone() {
        let seeds = seeds(CORPUS);
        let source = Mutated::new(&seeds, &seeds.op_names(), 9).unwrap();
        assert_eq!(texts(&source, 3, 30, 10), texts(&source, 3, 30, 10));
        assert_ne!(texts(&source, 3, 30, 10), texts(&source, 4, 30, 10));
        let other = Mutated::new(&seeds, &seeds.op_names(), 10).unwrap();
        assert_ne!(texts(&source, 3, 30, 10), texts(&other, 3, 30, 10));
    }

    #[test]
    fn mutations_reach_every_kind_of_change() {
        let seeds = seeds(CORPUS);
        let source = Mutated::new(&seeds, &seeds.op_names(), 2).unwrap();
        let cases = texts(&source, 0, 0, 4000);
        let any = |test: &dyn Fn(&str) -> bool| cases.iter().filter(|c| test(c)).count();
        // Numbers: halves and other fractions, boundaries, spellings.
        assert!(any(&|c| c.contains(".5,") || c.contains(".5]")) > 20);
        assert!(any(&|c| c.contains("1e400")) > 10);
        assert!(any(&|c| c.contains("1.0") || c.contains("e0")) > 10);
        assert!(any(&|c| c.contains("-0")) > 10);
        // Strings: non-BMP text, U+2028, lone surrogates, escapes.
        assert!(any(&|c| c.contains('😀') || c.contains('𝄞')) > 10);
        assert!(any(&|c| c.contains('\u{2028}')) > 5);
        assert!(any(&|c| c.contains("\\ud8") || c.contains("\\udc") || c.contains("\\udb")) > 5);
        assert!(any(&|c| c.contains(r#""\u0061\u0062"#)) > 5);
        // Members dropped, duplicated and moved; types changed.
        assert!(any(&|c| !c.contains("\"values\"") && c.contains("\"sum\"")) > 20);
        assert!(any(&|c| c.matches("\"text\"").count() > 1) > 10);
        assert!(any(&|c| c.starts_with(r#"{"op""#)) > 10);
        assert!(any(&|c| c.contains(r#""text":null"#) || c.contains(r#""text":{}"#)) > 10);
        // The op never changes, and is never dropped.
        for case in &cases {
            let value = js_exact::parse(case.as_bytes(), js_exact::TextMode::LossyUtf8).unwrap();
            let op = value.get("op").as_js_string().unwrap().to_string();
            assert!(op == "sum" || op == "length", "{case}");
        }
    }

    #[test]
    fn a_corpus_without_ops_is_one_implicit_op() {
        let seeds = seeds(r#"[{"name": "a", "x": 1}, [2], "three"]"#);
        assert_eq!(seeds.op_names(), [IMPLICIT_OP]);
        assert_eq!(seeds.ops[0].1.len(), 3);
        let source = Mutated::new(&seeds, &seeds.op_names(), 1).unwrap();
        let batch = source.batch(0, 0, 20).unwrap();
        assert_eq!(batch.len(), 20);
        assert!(batch.iter().all(|case| case.get("op").is_none()));
    }
}
