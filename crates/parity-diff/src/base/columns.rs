//! How wide text is on a terminal, in columns: a CJK character or an
//! emoji takes two, a combining mark none. Whatever lines text up for
//! people (the human report's per-op table, `review`'s screen) measures
//! and cuts it here, after [`outside`](crate::base::outside) has made control
//! characters visible (they have no width of their own to measure).

use unicode_width::UnicodeWidthChar;

/// The columns `text` takes.
pub fn width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// The columns a character takes (a control character, which outside
/// text no longer holds, counts as none).
fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// `text` cut to at most `columns`, ending in `…` when cut.
pub fn fit(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_owned();
    }
    let room = columns.saturating_sub(1);
    let mut used = 0;
    let mut kept = String::new();
    for c in text.chars() {
        let w = char_width(c);
        if used + w > room {
            break;
        }
        used += w;
        kept.push(c);
    }
    if columns > 0 {
        kept.push('…');
    }
    kept
}

/// The end of `text` that takes at most `columns` (all of it when it
/// fits): what a line being typed shows before its cursor.
pub fn last(text: &str, columns: usize) -> &str {
    let mut used = 0;
    let mut start = text.len();
    for (at, c) in text.char_indices().rev() {
        let w = char_width(c);
        if used + w > columns {
            break;
        }
        used += w;
        start = at;
    }
    &text[start..]
}

/// `text` followed by spaces up to `columns` (as it is when wider).
pub fn pad(text: &str, columns: usize) -> String {
    let fill = columns.saturating_sub(width(text));
    format!("{text}{}", " ".repeat(fill))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_take_two_columns_and_combining_marks_none() {
        assert_eq!(width("abc"), 3);
        assert_eq!(width("操作"), 4);
        assert_eq!(width("e\u{301}"), 1);
        assert_eq!(width("🦀x"), 3);
        assert_eq!(width(""), 0);
    }

    #[test]
    fn a_cut_text_ends_in_an_ellipsis_within_its_columns() {
        assert_eq!(fit("abcdef", 6), "abcdef");
        assert_eq!(fit("abcdef", 4), "abc…");
        // A wide character that would straddle the limit is left out.
        assert_eq!(fit("ab操作", 4), "ab…");
        assert_eq!(width(&fit("ab操作", 4)), 3);
        assert_eq!(fit("操作操作", 5), "操作…");
        assert_eq!(fit("e\u{301}e\u{301}e\u{301}", 2), "e\u{301}…");
        assert_eq!(fit("abc", 1), "…");
        assert_eq!(fit("abc", 0), "");
    }

    #[test]
    fn the_end_that_fits_and_padding_count_columns() {
        assert_eq!(last("abcdef", 3), "def");
        assert_eq!(last("ab操作", 3), "作");
        assert_eq!(last("ab操作", 4), "操作");
        assert_eq!(last("ab", 9), "ab");
        assert_eq!(last("ab", 0), "");
        assert_eq!(pad("操", 4), "操  ");
        assert_eq!(pad("abcdef", 4), "abcdef");
    }

    proptest::proptest! {
        /// A fitted text never takes more than its columns, and is the
        /// text itself whenever that fits.
        #[test]
        fn fitted_text_stays_within_its_columns(text in "\\PC{0,12}", columns in 0usize..16) {
            let fitted = fit(&text, columns);
            proptest::prop_assert!(width(&fitted) <= columns);
            if width(&text) <= columns {
                proptest::prop_assert_eq!(&fitted, &text);
            } else if columns > 0 {
                proptest::prop_assert!(fitted.ends_with('…'));
            }
            let end = last(&text, columns);
            proptest::prop_assert!(width(end) <= columns);
            proptest::prop_assert!(text.ends_with(end));
        }
    }
}
