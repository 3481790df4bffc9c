use super::*;
use proptest::prelude::*;

fn spelled_of(element: &str) -> Option<String> {
    let value = js::parse(element.as_bytes(), TextMode::LossyUtf8).unwrap();
    spelled_element(&value, element.as_bytes())
}

#[test]
fn decimals_equal_as_written_values() {
    for (x, y) in [
        ("1", "1.0"),
        ("100", "1e2"),
        ("100", "1E+2"),
        ("0.001", "1e-3"),
        ("-12.50", "-1.25e1"),
        ("0", "0.000"),
        ("0", "0e99"),
        ("-0", "-0.0"),
        ("007", "7"),
    ] {
        assert!(same_decimal(x.as_bytes(), y.as_bytes()), "{x} {y}");
    }
    for (x, y) in [
        ("0", "-0"),
        ("100000000000000000000001", "100000000000000010000000"),
        ("1e1000", "2e1000"),
        ("1", "-1"),
        ("0.1", "0.10000000000000001"),
        ("1e-400", "0"),
    ] {
        assert!(!same_decimal(x.as_bytes(), y.as_bytes()), "{x} {y}");
    }
}

#[test]
fn huge_exponents_compare_as_written() {
    let huge = format!("1e{}", "9".repeat(50));
    assert!(same_decimal(huge.as_bytes(), huge.as_bytes()));
    let other = format!("1e{}8", "9".repeat(49));
    assert!(!same_decimal(huge.as_bytes(), other.as_bytes()));
    let negative = format!("1e-{}", "9".repeat(50));
    assert!(!same_decimal(huge.as_bytes(), negative.as_bytes()));
}

#[test]
fn a_value_shows_its_numbers_as_written() {
    assert_eq!(spelled_of("1e1000").as_deref(), Some("1e1000"));
    assert_eq!(
        spelled_of(r#"{"n": 100000000000000000000001, "s": "x"}"#).as_deref(),
        Some(r#"{"n":100000000000000000000001,"s":"x"}"#)
    );
    assert_eq!(spelled_of("[-0, 1.50]").as_deref(), Some("[-0,1.50]"));
    // JSON.stringify's own spelling needs no second text.
    assert_eq!(spelled_of(r#"{"a": [1, 2.5]}"#), None);
    assert_eq!(spelled_of(r#""1e1000""#), None);
    // The last of duplicate keys is the value's.
    assert_eq!(
        spelled_of(r#"{"a": 1e1, "a": 2e1}"#).as_deref(),
        Some(r#"{"a":2e1}"#)
    );
    // Keys in JavaScript's order, found whatever their escapes.
    assert_eq!(
        spelled_of(r#"{"b": 1.0, "\u0061": 2.0, "1": 3.0}"#).as_deref(),
        Some(r#"{"1":3.0,"b":1.0,"a":2.0}"#)
    );
}

#[test]
fn pointers_find_written_nodes() {
    let text = br#"{"a/b": [0, {"~x": 1e5}], "c": 2}"#;
    let mut written = Written::parse(text).unwrap();
    let node = written.at_pointer(&JsString::from("/a~1b/1/~0x")).unwrap();
    assert_eq!(written.number(node), Some(&b"1e5"[..]));
    assert_eq!(written.at_pointer(&JsString::from("/a~1b/7")), None);
    assert_eq!(written.at_pointer(&JsString::from("/c/0")), None);
    let root = written.at_pointer(&JsString::new()).unwrap();
    assert_eq!(root, written.root());
}

fn number_token() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        "[0-9]{1,25}",
        proptest::option::of("[0-9]{1,25}"),
        proptest::option::of((
            prop_oneof![Just("e"), Just("E")],
            prop_oneof![Just(""), Just("+"), Just("-")],
            "[0-9]{1,4}",
        )),
    )
        .prop_map(|(negative, int, fraction, exponent)| {
            let int = int.trim_start_matches('0');
            let mut out = String::new();
            if negative {
                out.push('-');
            }
            out.push_str(if int.is_empty() { "0" } else { int });
            if let Some(fraction) = fraction {
                out.push('.');
                out.push_str(&fraction);
            }
            if let Some((e, sign, digits)) = exponent {
                out.push_str(e);
                out.push_str(sign);
                out.push_str(&digits);
            }
            out
        })
}

proptest! {
    // A token is the same decimal with zeros after its fraction, and
    // with its fraction's digits moved into the exponent.
    #[test]
    fn respelling_keeps_the_decimal(token in number_token(), zeros in 0usize..5) {
        let decimal = Decimal::parse(token.as_bytes()).unwrap();
        if !token.contains(['e', 'E']) {
            let padded = if token.contains('.') {
                format!("{token}{}", "0".repeat(zeros))
            } else {
                format!("{token}.{}", "0".repeat(zeros + 1))
            };
            prop_assert_eq!(Decimal::parse(padded.as_bytes()).unwrap(), decimal.clone());
            let (int, fraction) = padded.split_once('.').unwrap();
            let moved = format!("{int}{fraction}e-{}", fraction.len());
            prop_assert_eq!(Decimal::parse(moved.as_bytes()).unwrap(), decimal);
        }
    }

    // Exact equality implies equality as doubles (never the reverse
    // claim), and -0 stays apart from 0.
    #[test]
    fn exact_implies_double(x in number_token(), y in number_token()) {
        if same_decimal(x.as_bytes(), y.as_bytes()) {
            let (a, b): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            prop_assert!(a == b);
            prop_assert_eq!(a.is_sign_negative() && a == 0.0, b.is_sign_negative() && b == 0.0);
        }
    }

    // Spelled text reads back as the same value as the element.
    #[test]
    fn spelled_reads_back(tokens in proptest::collection::vec(number_token(), 1..6)) {
        let element = format!("{{\"k\": [{}]}}", tokens.join(", "));
        let value = js::parse(element.as_bytes(), TextMode::LossyUtf8).unwrap();
        if let Some(text) = spelled_element(&value, element.as_bytes()) {
            let again = js::parse(text.as_bytes(), TextMode::LossyUtf8).unwrap();
            prop_assert_eq!(js::to_json(&again), js::to_json(&value));
            for token in &tokens {
                prop_assert!(text.contains(token.as_str()));
            }
        }
    }
}
