//! JavaScript numbers: doubles, printed as `Number.prototype.toString`.

/// `Number.isInteger`: finite and without a fractional part.
pub fn is_integer(number: f64) -> bool {
    number.is_finite() && number.trunc() == number
}

/// Appends a finite number as `Number.prototype.toString` writes it (`1`,
/// `0.1`, `1e+21`, `1.5e-7`; `-0` as `0`), and a non-finite one as
/// JSON.stringify does (`null`).
pub fn write_json(number: f64, out: &mut Vec<u8>) {
    if number.is_finite() {
        let mut buffer = ryu_js::Buffer::new();
        out.extend_from_slice(buffer.format_finite(number).as_bytes());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// JavaScript's `String(number)`: as JSON prints it, except that the
/// non-finite numbers are `NaN`, `Infinity` and `-Infinity`.
pub fn to_js_string(number: f64) -> String {
    if number.is_nan() {
        "NaN".to_owned()
    } else if number.is_infinite() {
        if number > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }
        .to_owned()
    } else {
        ryu_js::Buffer::new().format_finite(number).to_owned()
    }
}

/// `Number(text)` of a string of one or more ASCII digits: the nearest
/// double (Infinity when too large); `None` for any other text.
pub fn from_ascii_digits<'a>(text: impl Into<super::JsStr<'a>>) -> Option<f64> {
    let bytes = text.into().as_wtf8();
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(bytes).ok()?.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_javascript_does() {
        let cases = [
            (1.0, "1"),
            (-0.0, "0"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (123456789012345680000.0, "123456789012345680000"),
            (5e-324, "5e-324"),
            (-1.25, "-1.25"),
            (12345678901234567890.0, "12345678901234567000"),
            (9007199254740993.0, "9007199254740992"),
        ];
        for (number, expected) in cases {
            let mut out = Vec::new();
            write_json(number, &mut out);
            assert_eq!(String::from_utf8(out).unwrap(), expected);
            assert_eq!(to_js_string(number), expected);
        }
    }

    #[test]
    fn non_finite_numbers() {
        let mut out = Vec::new();
        write_json(f64::INFINITY, &mut out);
        write_json(f64::NAN, &mut out);
        assert_eq!(out, b"nullnull");
        assert_eq!(to_js_string(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(to_js_string(f64::NAN), "NaN");
    }

    #[test]
    fn ascii_digits_are_numbers() {
        let number = |text: &str| from_ascii_digits(&super::super::JsString::from(text));
        assert_eq!(number("0080"), Some(80.0));
        assert_eq!(number("9".repeat(400).as_str()), Some(f64::INFINITY));
        assert_eq!(number("12345678901234567890"), Some(12345678901234567000.0));
        for text in ["", " 1", "1 ", "+1", "-1", "1.0", "1e3", "٣"] {
            assert_eq!(number(text), None, "{text:?}");
        }
    }

    #[test]
    fn integers() {
        assert!(is_integer(0.0) && is_integer(-0.0) && is_integer(1e300));
        assert!(!is_integer(0.5) && !is_integer(f64::INFINITY) && !is_integer(f64::NAN));
    }
}
