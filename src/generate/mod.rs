//! Case generators for every op of the contract: what
//! `worker-spawn-oracle generate --op OP --seed N --count K` prints, the
//! generator `parity-diff fuzz --generator` runs (the protocol is
//! parity-diff's `fuzz::source::generator_command`; this package does
//! not depend on parity-diff, only on the `case-tree` crate they share).
//!
//! Each op's generator builds mostly well-formed cases (so that the deep
//! branches run) and, through [`Gen::near_miss`], cases one step off:
//! a field removed, or a field or a nested value of the wrong kind. The
//! primitives here lean on the values where implementations part ways:
//! boundary numbers in every spelling, non-BMP text and lone surrogates,
//! controls, U+2028, U+FEFF and the other JavaScript white space,
//! numeric-looking keys, `$DIR` in keys and values.

mod ipc;
mod runner;
mod stateful;

use case_tree::rng::Rng;
use case_tree::tree::{Escapes, Node};
use js_exact::JsString;

/// The generator state: a seeded source and the helpers that draw from it.
pub struct Gen {
    /// The random source.
    pub rng: Rng,
}

/// Pieces random text is made of.
const TEXT_PIECES: &[&str] = &[
    "a",
    "b",
    "x",
    "thread",
    "worker",
    "0",
    "7",
    " ",
    "  ",
    "/",
    "/tmp",
    "$DIR",
    "$DIR/a",
    "=",
    "-",
    "--",
    ":",
    ",",
    ".",
    "..",
    "é",
    "ω",
    "😀",
    "𝄞",
    "\n",
    "\r",
    "\t",
    "\r\n",
    "\u{0}",
    "\u{1f}",
    "\u{7f}",
    "\u{85}",
    "\u{a0}",
    "\u{2028}",
    "\u{2029}",
    "\u{feff}",
    "\u{3000}",
    "\u{200a}",
    "\"",
    "\\",
    "'",
    "LINZUMI_WORKER_PREFLIGHT_FAILURE:",
    "…",
    "\u{fffd}",
];

/// The largest pid Linux hands out (`pid_max` on 64-bit systems).
const MAX_PID: f64 = 4_194_304.0;

/// Numbers where implementations disagree most, spelled in several ways.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "0.0",
    "1",
    "-1",
    "1.0",
    "1.5",
    "0.5",
    "2",
    "3",
    "7",
    "10",
    "11",
    "999",
    "1000",
    "1e3",
    "1000.5",
    "4000",
    "15000",
    "30000",
    "65535",
    "65536",
    "300000",
    "300001",
    "600000",
    "600001",
    "1e21",
    "1e20",
    "1.5e-7",
    "1e-7",
    "0.000001",
    "5e-324",
    "1e400",
    "-1e400",
    "12345678901234567890",
    "9007199254740993",
    "4294967295",
    "4294967294",
    "123456789012345680000",
    "-5",
    "2.5",
    "1E2",
    "1e+2",
    "0.1",
    "100.0",
];

/// Keys that look numeric, or are special to JavaScript.
const KEYS: &[&str] = &[
    "0",
    "1",
    "2",
    "10",
    "01",
    "-1",
    "1.5",
    "4294967294",
    "4294967295",
    "a",
    "b",
    "z",
    "__proto__",
    "constructor",
    "toString",
    "",
    " ",
    "$DIR",
    "$DIR/k",
    "é",
    "😀",
    "type",
    "id",
];

impl Gen {
    /// A generator for a seed.
    pub fn new(seed: u64) -> Self {
        Gen {
            rng: Rng::new(seed),
        }
    }

    /// Random text: a few pieces, sometimes with a lone surrogate.
    pub fn js_text(&mut self) -> JsString {
        let mut text = JsString::new();
        for _ in 0..self.rng.below(6) {
            if self.rng.one_in(14) {
                let unit = *self
                    .rng
                    .pick(&[0xD800u16, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00]);
                text.push_code_unit(unit);
            } else {
                text.push_str(self.rng.pick_str(TEXT_PIECES));
            }
        }
        text
    }

    /// A string node with random text and escape style.
    pub fn text(&mut self) -> Node {
        let text = self.js_text();
        self.string(text)
    }

    /// A string node of given text, escaped one way or the other.
    pub fn string(&mut self, text: JsString) -> Node {
        let escapes = if self.rng.one_in(5) {
            Escapes::Unicode
        } else {
            Escapes::Plain
        };
        Node::String(text, escapes)
    }

    /// One of `words`, or now and then something near it.
    pub fn word(&mut self, words: &[&str]) -> Node {
        let word = *self.rng.pick(words);
        match self.rng.below(12) {
            0 => self.string(JsString::from(word.to_uppercase().as_str())),
            1 => self.string(JsString::from(format!(" {word}").as_str())),
            2 => self.text(),
            _ => self.string(JsString::from(word)),
        }
    }

    /// A boundary number.
    pub fn number(&mut self) -> Node {
        Node::Number((*self.rng.pick(NUMBERS)).to_owned())
    }

    /// A random double in or around `low..=high`: anywhere in the range,
    /// within a few units of either end, or up to a quarter of the span
    /// outside it. Spelled as an integer, as a half (`1234.5`, where
    /// rounding rules part ways), with one to three decimals (trailing
    /// zeros kept: `7.50`), or with all the digits the double needs.
    pub fn number_around(&mut self, low: f64, high: f64) -> Node {
        let span = (high - low).abs().max(1.0);
        let value = match self.rng.below(8) {
            0 => low - 2.0 + 4.0 * self.rng.unit(),
            1 => high - 2.0 + 4.0 * self.rng.unit(),
            2 => low - span / 4.0 + span * 1.5 * self.rng.unit(),
            _ => low + (high - low) * self.rng.unit(),
        };
        let text = match self.rng.below(4) {
            0 => format!("{}", value.trunc()),
            1 => format!("{}", value.trunc() + 0.5f64.copysign(value)),
            2 => {
                let digits = self.rng.between(1, 3);
                format!("{value:.digits$}")
            }
            _ => format!("{value}"),
        };
        Node::Number(text)
    }

    /// A number for a field whose meaningful values lie in
    /// `low..=high`: one of `boundaries` half the time, otherwise a
    /// random double in or around the range ([`Gen::number_around`]).
    pub fn number_in(&mut self, boundaries: &[&str], low: f64, high: f64) -> Node {
        if self.rng.one_in(2) {
            self.number_from(boundaries)
        } else {
            self.number_around(low, high)
        }
    }

    /// One of these numbers, spelled as given.
    pub fn number_from(&mut self, texts: &[&str]) -> Node {
        Node::Number((*self.rng.pick(texts)).to_owned())
    }

    /// A key for a generated object.
    pub fn key(&mut self) -> JsString {
        if self.rng.one_in(4) {
            self.js_text()
        } else {
            JsString::from(*self.rng.pick(KEYS))
        }
    }

    /// A value of a random kind, nested at most `depth` levels.
    pub fn any(&mut self, depth: usize) -> Node {
        let kinds = if depth == 0 { 5 } else { 7 };
        match self.rng.below(kinds) {
            0 => Node::Null,
            1 => Node::Bool(self.rng.one_in(2)),
            2 => self.number(),
            3 | 4 => self.text(),
            5 => {
                let items = (0..self.rng.below(4))
                    .map(|_| self.any(depth - 1))
                    .collect();
                Node::Array(items)
            }
            _ => self.object(depth - 1),
        }
    }

    /// An object with numeric-looking and ordinary keys, duplicates now
    /// and then.
    pub fn object(&mut self, depth: usize) -> Node {
        let members = (0..self.rng.below(5))
            .map(|_| (self.key(), self.any(depth)))
            .collect();
        Node::Object(members)
    }

    /// A value of the wrong kind for a field: any kind, shallow.
    pub fn wrong(&mut self) -> Node {
        self.any(1)
    }

    /// What `make` builds, or one time in `n` a value of the wrong kind.
    pub fn or_wrong(&mut self, n: usize, make: impl FnOnce(&mut Gen) -> Node) -> Node {
        if self.rng.one_in(n) {
            self.wrong()
        } else {
            make(self)
        }
    }

    /// A list of `count` strings drawn by `each`.
    pub fn strings(&mut self, count: usize, mut each: impl FnMut(&mut Gen) -> Node) -> Node {
        Node::Array((0..count).map(|_| each(self)).collect())
    }

    /// A case one step off: a member removed, or a member (or something
    /// inside one) replaced by a value of the wrong kind. `op` is kept.
    pub fn near_miss(&mut self, case: Node) -> Node {
        let Node::Object(mut members) = case else {
            return case;
        };
        let fields: Vec<usize> = (0..members.len())
            .filter(|&at| !members[at].0.eq_str("op"))
            .collect();
        if fields.is_empty() {
            return Node::Object(members);
        }
        let at = *self.rng.pick(&fields);
        self.damage_member(&mut members, at);
        Node::Object(members)
    }

    /// Removes a member, gives it a value of the wrong kind, or damages
    /// something inside its value.
    fn damage_member(&mut self, members: &mut Vec<(JsString, Node)>, at: usize) {
        match self.rng.below(3) {
            0 => {
                members.remove(at);
            }
            1 => members[at].1 = self.wrong(),
            _ => {
                let inner = std::mem::replace(&mut members[at].1, Node::Null);
                members[at].1 = self.damage_inside(inner);
            }
        }
    }

    fn damage_inside(&mut self, node: Node) -> Node {
        match node {
            Node::Array(mut items) if !items.is_empty() => {
                let at = self.rng.below(items.len());
                let item = std::mem::replace(&mut items[at], Node::Null);
                items[at] = if self.rng.one_in(2) {
                    self.wrong()
                } else {
                    self.damage_inside(item)
                };
                Node::Array(items)
            }
            Node::Object(mut members) if !members.is_empty() => {
                let at = self.rng.below(members.len());
                self.damage_member(&mut members, at);
                Node::Object(members)
            }
            _ => self.wrong(),
        }
    }

    /// A case made by `make`: well-formed most of the time, a near miss
    /// otherwise.
    pub fn case_from(&mut self, make: MakeCase) -> Node {
        let case = make(self);
        if self.rng.one_in(4) {
            self.near_miss(case)
        } else {
            case
        }
    }

    /// A case for `op`, if it has a generator (see [`Gen::case_from`]).
    pub fn case(&mut self, op: &str) -> Option<Node> {
        generator(op).map(|make| self.case_from(make))
    }
}

/// Builds a mostly well-formed case for one op.
pub type MakeCase = fn(&mut Gen) -> Node;

/// The case generator of every op. A test checks that the ops named here
/// are exactly those of [`crate::ops::OPS`], each once.
pub const GENERATORS: &[(&str, MakeCase)] = &[
    ("cliArgs", runner::cli_args),
    ("redactedCliArgs", runner::redacted_cli_args),
    ("envOverlay", runner::env_overlay),
    ("nodeArgs", runner::node_args),
    ("scriptPath", runner::script_path),
    ("readyMessage", runner::ready_message),
    ("sessionClosedGuard", runner::session_closed_guard),
    ("readyTimeoutMs", runner::ready_timeout_ms),
    ("readyTimeoutError", runner::ready_timeout_error),
    ("boundedOutput", runner::bounded_output),
    ("exitBeforeReadyMessage", runner::exit_before_ready_message),
    ("preflight", stateful::preflight),
    ("preflightLine", runner::preflight_line),
    ("stillborn", runner::stillborn),
    ("respawn", stateful::respawn),
    ("outputRouting", stateful::output_routing),
    ("liveness", stateful::liveness),
    ("ipcWorker", ipc::ipc_worker),
    ("ipcParent", ipc::ipc_parent),
    ("remoteConfig", stateful::remote_config),
    ("remoteConfigEnv", stateful::remote_config_env),
    ("remoteEntrypoint", stateful::remote_entrypoint),
    ("remoteJoinPayload", stateful::remote_join_payload),
    ("parseWorkerArgs", stateful::parse_worker_args),
];

/// The generator of `op`'s cases, if it has one.
pub fn generator(op: &str) -> Option<MakeCase> {
    GENERATORS
        .iter()
        .find(|(name, _)| *name == op)
        .map(|(_, make)| *make)
}

/// `count` cases of `op` from `seed`, as `worker-spawn-oracle generate`
/// prints them: one JSON array, one case a line. An op with no generator
/// is refused, naming the ops that have one.
pub fn generate(op: &str, seed: u64, count: usize) -> Result<Vec<u8>, String> {
    let cases = cases(op, seed, count)?;
    let mut out = b"[".to_vec();
    for (at, case) in cases.iter().enumerate() {
        out.extend_from_slice(if at == 0 { b"\n" } else { b",\n" });
        case.write(&mut out);
    }
    out.extend_from_slice(b"\n]\n");
    Ok(out)
}

/// The cases [`generate`] prints, as trees.
pub fn cases(op: &str, seed: u64, count: usize) -> Result<Vec<Node>, String> {
    let make = generator(op).ok_or_else(|| {
        let ops: Vec<&str> = GENERATORS.iter().map(|(name, _)| *name).collect();
        format!("unknown op {op:?}; the ops are: {}", ops.join(", "))
    })?;
    let mut gen = Gen::new(seed);
    Ok((0..count).map(|_| gen.case_from(make)).collect())
}

/// Builds a case object: `op` first, then the fields.
pub fn case_of(op: &str, fields: Vec<(&str, Node)>) -> Node {
    let mut members = vec![(JsString::from("op"), Node::str(op))];
    members.extend(fields.into_iter().map(|(k, v)| (JsString::from(k), v)));
    Node::Object(members)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::OPS;

    #[test]
    fn every_op_has_one_generator_and_every_generator_an_op() {
        for spec in OPS {
            let count = GENERATORS.iter().filter(|(op, _)| *op == spec.name).count();
            assert_eq!(count, 1, "{} has {count} generators", spec.name);
        }
        for (op, _) in GENERATORS {
            assert!(
                crate::ops::named(op).is_some(),
                "the generator of {op} names no op"
            );
        }
        assert!(Gen::new(1).case("noSuchOp").is_none());
    }

    #[test]
    fn every_op_generates_valid_json_cases_that_name_it() {
        let mut gen = Gen::new(42);
        for spec in OPS {
            for _ in 0..200 {
                let case = gen.case(spec.name).expect("a generator");
                assert_eq!(case.get("op"), Some(&Node::str(spec.name)), "{case:?}");
                js_exact::parse(&case.to_text(), js_exact::TextMode::LossyUtf8)
                    .expect("valid JSON");
            }
        }
    }

    #[test]
    fn random_numbers_fall_in_and_around_the_range_with_fractions() {
        let mut gen = Gen::new(11);
        let values: Vec<(String, f64)> = (0..4000)
            .map(|_| match gen.number_around(1000.0, 600000.0) {
                Node::Number(text) => {
                    let value = text.parse::<f64>().unwrap();
                    (text, value)
                }
                other => panic!("{other:?}"),
            })
            .collect();
        let inside = |v: f64| (1000.0..=600000.0).contains(&v);
        let count = |f: &dyn Fn(&(String, f64)) -> bool| values.iter().filter(|x| f(x)).count();
        assert!(count(&|(_, v)| inside(*v)) > 2500);
        assert!(count(&|(_, v)| *v < 1000.0) > 100);
        assert!(count(&|(_, v)| *v > 600000.0) > 100);
        assert!(count(&|(_, v)| (998.0..=1002.0).contains(v)) > 200);
        // Halves and other fractions at or above one half, where floor
        // and round part ways, inside the range.
        assert!(count(&|(t, v)| inside(*v) && t.ends_with(".5")) > 300);
        assert!(count(&|(_, v)| inside(*v) && v.fract() > 0.5) > 300);
        assert!(count(&|(t, _)| t.ends_with('0') && t.contains('.')) > 10);
        assert!(values
            .iter()
            .all(|(t, _)| !t.contains('e') && !t.contains("inf")));
    }

    #[test]
    fn the_same_seed_gives_the_same_cases() {
        let texts = |seed| {
            let mut gen = Gen::new(seed);
            GENERATORS
                .iter()
                .map(|(_, make)| gen.case_from(*make).to_text())
                .collect::<Vec<_>>()
        };
        assert_eq!(texts(9), texts(9));
        assert_ne!(texts(9), texts(10));
    }

    #[test]
    fn generated_cases_throw_exactly_when_the_op_can() {
        let mut gen = Gen::new(3);
        for spec in OPS {
            let (mut threw, mut fine) = (0, 0);
            for _ in 0..300 {
                let case = gen.case(spec.name).expect("a generator").to_value();
                if (spec.handler)(&case).get("threw").is_set() {
                    threw += 1;
                } else {
                    fine += 1;
                }
            }
            assert!(fine > 0, "{}: no case succeeded", spec.name);
            if spec.can_throw {
                assert!(threw > 0, "{}: no case failed", spec.name);
            } else {
                assert_eq!(threw, 0, "{} threw, yet OPS says it cannot", spec.name);
            }
        }
    }
}
