//! Our JSON reader and printer against Node's: for generated JSON texts
//! (numbers in every notation, strings with any code unit written raw or
//! escaped, numeric-looking and duplicated keys, nesting, white space, and
//! near-misses that are not JSON at all), `print(parse(text))` must be
//! byte-identical to `JSON.stringify(JSON.parse(text))`, and both must
//! refuse the same texts. The generated texts go to one `node` process
//! per batch; the tests are ignored unless asked for, and then fail
//! without node.

use crate::support;

use std::process::Command;

use js_exact::{parse, to_json, TextMode};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const NODE_ROUND_TRIP: &str = r#"
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const texts = JSON.parse(input);
  const out = texts.map((text) => {
    try { return JSON.stringify(JSON.parse(text)); } catch { return null; }
  });
  process.stdout.write(JSON.stringify(out));
});
"#;

/// Node's `JSON.stringify(JSON.parse(text))` of each text (None: refused).
fn node_round_trips(texts: &[String]) -> Vec<Option<String>> {
    let input = serde_json::to_vec(texts).unwrap();
    let output =
        support::run_with_stdin(Command::new("node").arg("-e").arg(NODE_ROUND_TRIP), &input);
    assert!(
        output.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("node prints an array of strings")
}

fn ours(text: &str) -> Option<String> {
    parse(text.as_bytes(), TextMode::LossyUtf8)
        .ok()
        .map(|value| String::from_utf8(to_json(&value)).unwrap())
}

fn number_text() -> impl Strategy<Value = String> {
    let digits = |max: usize| {
        proptest::collection::vec(0u8..10, 1..max).prop_map(|ds| {
            ds.into_iter()
                .map(|d| char::from(b'0' + d))
                .collect::<String>()
        })
    };
    prop_oneof![
        (
            any::<bool>(),
            digits(26),
            proptest::option::of(digits(20)),
            proptest::option::of((any::<bool>(), -400i32..400))
        )
            .prop_map(|(negative, int, frac, exp)| {
                let int = int.trim_start_matches('0');
                let int = if int.is_empty() { "0" } else { int };
                let mut text = String::new();
                if negative {
                    text.push('-');
                }
                text.push_str(int);
                if let Some(frac) = frac {
                    text.push('.');
                    text.push_str(&frac);
                }
                if let Some((upper, exp)) = exp {
                    text.push(if upper { 'E' } else { 'e' });
                    text.push_str(&exp.to_string());
                }
                text
            }),
        any::<f64>()
            .prop_filter("finite", |n| n.is_finite())
            .prop_map(|n| format!("{n:e}")),
        any::<i64>().prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "0",
            "-0",
            "1e21",
            "1e-7",
            "5e-324",
            "1.7976931348623157e308",
            "1e309",
            "9007199254740993",
            "0.1",
            "100",
            "1e+21",
            "123456789012345680000"
        ])
        .prop_map(str::to_owned),
    ]
}

fn string_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => any::<char>().prop_filter("plain", |c| *c >= ' ' && *c != '"' && *c != '\\').prop_map(String::from),
        2 => (any::<u16>(), any::<bool>()).prop_map(|(unit, upper)| if upper { format!("\\u{unit:04X}") } else { format!("\\u{unit:04x}") }),
        2 => (0xD800u16..0xE000).prop_map(|unit| format!("\\u{unit:04x}")),
        1 => prop::sample::select(vec!["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\u{2028}", "\u{7f}", "😀", "\u{feff}"]).prop_map(str::to_owned),
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|pieces| format!("\"{}\"", pieces.concat()))
}

fn key_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "1",
            "2",
            "10",
            "01",
            "-1",
            "1.0",
            "4294967294",
            "4294967295",
            "4294967296",
            "a",
            "b",
            "__proto__",
            "",
            " 1"
        ])
        .prop_map(|k| format!("\"{k}\"")),
        (0u64..5_000_000_000).prop_map(|n| format!("\"{n}\"")),
        string_text(),
    ]
}

fn white_space() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "", "", " ", "\n", "\t", "\r\n  "]).prop_map(str::to_owned)
}

fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        number_text(),
        string_text(),
        prop::sample::select(vec!["true", "false", "null"]).prop_map(str::to_owned),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            (proptest::collection::vec((white_space(), inner.clone()), 0..6)).prop_map(
                |items| format!(
                    "[{}]",
                    items
                        .into_iter()
                        .map(|(ws, v)| format!("{ws}{v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            ),
            (proptest::collection::vec((key_text(), white_space(), inner), 0..6)).prop_map(
                |members| format!(
                    "{{{}}}",
                    members
                        .into_iter()
                        .map(|(k, ws, v)| format!("{k}{ws}:{v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            ),
        ]
    })
}

/// A JSON text, sometimes damaged so that it may no longer be JSON.
fn maybe_damaged_text() -> impl Strategy<Value = String> {
    (
        json_text(),
        0usize..10,
        any::<prop::sample::Index>(),
        prop::sample::select(vec![
            "", ",", "]", "}", "\"", "\\", "0", "-", ".", "e", "\u{feff}", "\u{0}", "tru", " ",
        ]),
    )
        .prop_map(|(text, damage, at, insert)| {
            if damage > 1 {
                return text;
            }
            let chars: Vec<char> = text.chars().collect();
            let at = at.index(chars.len() + 1);
            let mut damaged: String = chars[..at].iter().collect();
            damaged.push_str(insert);
            if damage == 0 && at < chars.len() {
                damaged.extend(&chars[at + 1..]);
            } else {
                damaged.extend(&chars[at..]);
            }
            damaged
        })
}

#[test]
#[ignore = "needs node"]
fn parse_then_print_matches_node_on_generated_texts() {
    support::require_node();
    let mut runner = TestRunner::new(Config {
        cases: 12,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = proptest::collection::vec(maybe_damaged_text(), 400);
    runner
        .run(&strategy, |texts| {
            let expected = node_round_trips(&texts);
            for (text, expected) in texts.iter().zip(expected) {
                prop_assert_eq!(ours(text), expected, "input: {:?}", text);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
#[ignore = "needs node"]
fn random_doubles_print_as_node_prints_them() {
    support::require_node();
    let mut runner = TestRunner::new(Config {
        cases: 4,
        failure_persistence: None,
        ..Config::default()
    });
    let bits = proptest::collection::vec(
        any::<u64>()
            .prop_map(f64::from_bits)
            .prop_filter("finite", |n| n.is_finite()),
        2000,
    );
    runner
        .run(&bits, |numbers| {
            // Rust's shortest round-trip form is read back exactly by both.
            let texts: Vec<String> = numbers.iter().map(|n| format!("{n:e}")).collect();
            let expected = node_round_trips(&texts);
            for (text, expected) in texts.iter().zip(expected) {
                prop_assert_eq!(ours(text), expected, "input: {}", text);
            }
            Ok(())
        })
        .unwrap();
}
