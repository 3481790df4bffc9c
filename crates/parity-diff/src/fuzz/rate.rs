//! How fast the fuzzer goes, for people.

/// Cases a second, for people: whole from 1/s up, with a decimal below
/// (a slow oracle's `0.3/s` is not `0/s`), two under 0.1/s.
pub fn rate_text(rate: f64) -> String {
    if rate >= 1.0 {
        format!("{rate:.0}")
    } else if rate >= 0.1 {
        format!("{rate:.1}")
    } else {
        format!("{rate:.2}")
    }
}

#[cfg(test)]
mod rate_tests {
    use super::rate_text;

    #[test]
    fn slow_rates_keep_a_decimal() {
        assert_eq!(rate_text(1234.4), "1234");
        assert_eq!(rate_text(1.0), "1");
        assert_eq!(rate_text(0.35), "0.3");
        assert_eq!(rate_text(0.04), "0.04");
        assert_eq!(rate_text(0.0), "0.00");
    }
}
