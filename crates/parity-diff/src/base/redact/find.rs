//! Where secrets stand in a text: the ranges [`super::Secrets`] masks.
//!
//! Three ways a secret shows, as docs/REDACTION.md promises:
//! - as a whole word (`pub-t` in `--token=pub-t`, not in `pub-thread`);
//! - glued to other text (`Bearer`+token, token+`x`): a secret of at
//!   least [`GLUED_CHARS`] characters is masked wherever it stands, even
//!   inside a longer word, for so long a run of characters is no word a
//!   report would use by chance;
//! - cut short: a word of at least [`CUT_CHARS`] characters that is part
//!   of a secret (of at most [`CUT_SECRET_BYTES`] bytes) is masked whole.

use std::collections::BTreeMap;

/// A secret this long is masked inside longer words too.
pub const GLUED_CHARS: usize = 8;

/// A word this long that is part of a secret is masked.
pub const CUT_CHARS: usize = 8;

/// Cut parts are looked for in secrets up to this long only: each word
/// of the text is searched for in each such secret, and a PEM key of
/// 16 KiB would make that search slow; tokens are far shorter.
pub const CUT_SECRET_BYTES: usize = 1024;

/// Characters that continue a word: a secret next to one of them is part
/// of some longer text, not the secret itself.
pub fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Where `secret` stands as a whole word in `text`: a boundary is needed
/// only where the secret itself has a word character at that edge.
pub fn whole_words<'t>(text: &'t str, secret: &'t str) -> impl Iterator<Item = usize> + 't {
    let open_free = !is_word(secret.chars().next());
    let close_free = !is_word(secret.chars().next_back());
    text.match_indices(secret)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let end = at + secret.len();
            (open_free || !is_word(text[..at].chars().next_back()))
                && (close_free || !is_word(text[end..].chars().next()))
        })
}

/// The ranges of `text` to mask for the secrets' written `forms`
/// (longest first), inside one of `spans` when given; sorted and
/// disjoint. Where two overlap, the one found first wins: longer secrets
/// first, then cut parts.
pub fn ranges(
    forms: &[String],
    text: &str,
    spans: Option<&[(usize, usize)]>,
) -> Vec<(usize, usize)> {
    let mut taken: BTreeMap<usize, usize> = BTreeMap::new();
    let mut take = |at: usize, end: usize| {
        let inside = match spans {
            None => true,
            Some(spans) => {
                let index = spans.partition_point(|&(start, _)| start <= at);
                index > 0 && spans[index - 1].1 >= end
            }
        };
        let overlaps = taken
            .range(..end)
            .next_back()
            .is_some_and(|(_, &taken_end)| taken_end > at);
        if inside && !overlaps {
            taken.insert(at, end);
        }
    };
    for secret in forms {
        if secret.chars().nth(GLUED_CHARS - 1).is_some() {
            for (at, _) in text.match_indices(secret.as_str()) {
                take(at, at + secret.len());
            }
        } else {
            for at in whole_words(text, secret) {
                take(at, at + secret.len());
            }
        }
    }
    let cuttable: Vec<&str> = forms
        .iter()
        .map(String::as_str)
        .filter(|form| form.len() <= CUT_SECRET_BYTES && form.chars().nth(CUT_CHARS).is_some())
        .collect();
    if !cuttable.is_empty() {
        // Words, and longer runs that a secret of `/` or `.` or `~` may
        // span (`tok/SEC`, a JWT's first two parts).
        let candidates = runs(text, |c| is_word(Some(c))).chain(runs(text, is_in_value));
        for (at, end) in candidates {
            let word = &text[at..end];
            if word.chars().nth(CUT_CHARS - 1).is_some()
                && cuttable.iter().any(|form| form.contains(word))
            {
                take(at, end);
            }
        }
    }
    taken.into_iter().collect()
}

/// Whether a character can stand inside an unquoted value: anything but
/// white space, quotes and the punctuation that separates values.
fn is_in_value(c: char) -> bool {
    !c.is_whitespace() && !"\"'`\\,;:=(){}[]<>&|".contains(c)
}

/// The maximal runs of characters that are `part` of one in `text`.
fn runs<'t>(
    text: &'t str,
    part: impl Fn(char) -> bool + 't,
) -> impl Iterator<Item = (usize, usize)> + 't {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let (start, _) = chars.find(|&(_, c)| part(c))?;
        let mut end = text.len();
        while let Some(&(at, c)) = chars.peek() {
            if !part(c) {
                end = at;
                break;
            }
            chars.next();
        }
        Some((start, end))
    })
}

/// The text with each of the (sorted, disjoint) ranges replaced by `mask`.
pub fn splice(text: &str, ranges: &[(usize, usize)], mask: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for &(start, end) in ranges {
        out.push_str(&text[copied..start]);
        out.push_str(mask);
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(forms: &[&str], text: &str) -> String {
        let forms: Vec<String> = forms.iter().map(|form| (*form).to_owned()).collect();
        splice(text, &ranges(&forms, text, None), "#")
    }

    #[test]
    fn long_secrets_are_masked_glued_to_other_text() {
        let secret = "tok-SECRET-42";
        assert_eq!(
            masked(
                &[secret],
                "Bearertok-SECRET-42 tok-SECRET-42x xtok-SECRET-42y"
            ),
            "Bearer# #x x#y"
        );
        // A short secret stays a whole-word match.
        assert_eq!(masked(&["pub-t"], "pub-thread pub-t"), "pub-thread #");
    }

    #[test]
    fn long_enough_parts_of_a_secret_are_masked_whole() {
        let secret = "tok-SECRET-4242";
        assert_eq!(
            masked(&[secret], "cut tok-SECRET-4 ; ET-4242 ; SECRET-4 ; tok-SEC"),
            "cut # ; ET-4242 ; # ; tok-SEC"
        );
        // A word is masked only when it lies inside the secret.
        assert_eq!(masked(&[secret], "tok-SECRET-99"), "tok-SECRET-99");
    }

    #[test]
    fn runs_are_maximal() {
        let words = |text| runs(text, |c| is_word(Some(c))).collect::<Vec<_>>();
        assert_eq!(words("ab, c-d_e  é1"), [(0, 2), (4, 9), (11, 14)]);
        assert_eq!(words(""), []);
        let values: Vec<_> = runs(r#""a/b~c",x.y"#, is_in_value).collect();
        assert_eq!(values, [(1, 6), (8, 11)]);
    }

    #[test]
    fn parts_of_a_secret_with_slashes_are_masked() {
        let secret = "tok/SECRET~77efgh";
        assert_eq!(
            masked(&[secret], r#""tok/SECRET~77ef" k/SECRET~77efgh"#),
            "\"#\" #"
        );
    }
}
