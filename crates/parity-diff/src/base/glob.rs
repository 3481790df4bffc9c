//! `--filter` patterns: shell globs over paths relative to the cases
//! directory, always with `/` between components.
//!
//! `*` matches any run of characters within one component, `**` any run
//! across components (`ipc/**` is everything under `ipc/`, `**/x.json`
//! every `x.json`), `?` one character, `[abc]`, `[a-z]` and `[!abc]` one
//! character of (or not of) a set. A pattern with no `/` also matches
//! the file name alone, so `--filter 'ipc*'` finds `deep/ipc.json`.

/// The longest pattern taken, in characters: matching takes time
/// proportional to the pattern's tokens times the path's characters, and
/// memory proportional to the tokens, so a bound on the pattern keeps
/// each match linear in the path (no path is longer than 4096 bytes
/// either).
pub const MAX_PATTERN_CHARS: usize = 4096;

/// A compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    source: String,
    tokens: Vec<Token>,
    anywhere: bool,
    last: LastAnswer,
}

/// The last path matched and the answer: a rule's glob is asked about
/// every case of a file in turn, and a long pattern against a long name
/// costs their lengths' product each time.
#[derive(Debug, Default)]
struct LastAnswer(std::sync::Mutex<Option<(Box<str>, bool)>>);

impl Clone for LastAnswer {
    fn clone(&self) -> Self {
        LastAnswer::default()
    }
}

/// A memo, not part of the pattern: two globs of one pattern are equal.
impl PartialEq for LastAnswer {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LastAnswer {}

/// One step of a compiled pattern: classes are parsed once, here, not at
/// every character they are tried against.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// A character that matches itself (a `/` included).
    Literal(char),
    /// `?`: any one character but `/`.
    One,
    /// `[…]`: one character but `/` of (or, negated, not of) the ranges.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    /// `*`: a run of characters up to a `/`.
    Star,
    /// `**`: any run of characters; before a `/` (`**/`), it may also
    /// take nothing, that `/` included.
    Stars { before_slash: bool },
}

impl Token {
    /// Whether a token that takes one character takes `c`.
    fn takes(&self, c: char) -> bool {
        match self {
            Token::Literal(literal) => *literal == c,
            Token::One => c != '/',
            Token::Class { negated, ranges } => {
                c != '/' && ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
            }
            Token::Star | Token::Stars { .. } => false,
        }
    }
}

impl Glob {
    /// Compiles a pattern; an unclosed `[` or a pattern longer than
    /// [`MAX_PATTERN_CHARS`] is an error.
    pub fn new(pattern: &str) -> Result<Self, String> {
        let chars: Vec<char> = pattern.chars().collect();
        if chars.len() > MAX_PATTERN_CHARS {
            return Err(format!(
                "a glob of {} characters is longer than the {MAX_PATTERN_CHARS} taken",
                chars.len()
            ));
        }
        let mut tokens = Vec::new();
        let mut at = 0;
        while at < chars.len() {
            match chars[at] {
                '*' => {
                    let run = chars[at..].iter().take_while(|&&c| c == '*').count();
                    at += run;
                    // Stars pair from the left, as `**` then `*`: `***/`
                    // is `**` and `*/`, so its `/` is not optional. Pairs
                    // before the last are one `**` (both take anything).
                    let (pairs, odd) = (run / 2, run % 2 == 1);
                    if pairs >= 2 {
                        tokens.push(Token::Stars {
                            before_slash: false,
                        });
                    }
                    if pairs >= 1 {
                        let before_slash = !odd && chars.get(at) == Some(&'/');
                        tokens.push(Token::Stars { before_slash });
                    }
                    if odd {
                        tokens.push(Token::Star);
                    }
                }
                '?' => {
                    tokens.push(Token::One);
                    at += 1;
                }
                '[' => {
                    let Some(end) = class_end(&chars, at) else {
                        return Err(format!("unclosed '[' in filter pattern {pattern:?}"));
                    };
                    tokens.push(class(&chars[at + 1..end]));
                    at = end + 1;
                }
                literal => {
                    tokens.push(Token::Literal(literal));
                    at += 1;
                }
            }
        }
        Ok(Glob {
            anywhere: !pattern.contains('/'),
            source: pattern.to_owned(),
            tokens,
            last: LastAnswer::default(),
        })
    }

    /// The pattern that matches `name` itself: each character a glob
    /// gives a meaning (`*`, `?`, `[`) stands in a class of its own.
    pub fn literal(name: &str) -> Self {
        let mut pattern = String::with_capacity(name.len());
        for c in name.chars() {
            match c {
                '*' | '?' | '[' => {
                    pattern.push('[');
                    pattern.push(c);
                    pattern.push(']');
                }
                c => pattern.push(c),
            }
        }
        Glob {
            anywhere: !pattern.contains('/'),
            tokens: name.chars().map(Token::Literal).collect(),
            source: pattern,
            last: LastAnswer::default(),
        }
    }

    /// The pattern as it was given.
    pub fn pattern(&self) -> String {
        self.source.clone()
    }

    /// Whether a relative path (components joined by `/`) matches.
    pub fn matches(&self, path: &str) -> bool {
        // Another thread asking at once computes its answer itself.
        if let Ok(mut last) = self.last.0.try_lock() {
            if let Some((last_path, answer)) = last.as_ref() {
                if **last_path == *path {
                    return *answer;
                }
            }
            let answer = self.answer(path);
            *last = Some((path.into(), answer));
            return answer;
        }
        self.answer(path)
    }

    fn answer(&self, path: &str) -> bool {
        if matches_at(&self.tokens, path) {
            return true;
        }
        if self.anywhere {
            if let Some(slash) = path.rfind('/') {
                return matches_at(&self.tokens, &path[slash + 1..]);
            }
        }
        false
    }
}

/// Where the class that opens at `open` closes (a `]` first in the class
/// is a member, not the end).
fn class_end(pattern: &[char], open: usize) -> Option<usize> {
    let mut at = open + 1;
    if pattern.get(at) == Some(&'!') {
        at += 1;
    }
    if pattern.get(at) == Some(&']') {
        at += 1;
    }
    pattern[at.min(pattern.len())..]
        .iter()
        .position(|&c| c == ']')
        .map(|offset| at + offset)
}

/// The class between `[` and `]`.
fn class(inside: &[char]) -> Token {
    let (negated, inside) = match inside.split_first() {
        Some(('!', rest)) => (true, rest),
        _ => (false, inside),
    };
    let mut ranges = Vec::new();
    let mut at = 0;
    while at < inside.len() {
        if at + 2 < inside.len() && inside[at + 1] == '-' {
            ranges.push((inside[at], inside[at + 2]));
            at += 3;
        } else {
            ranges.push((inside[at], inside[at]));
            at += 1;
        }
    }
    Token::Class { negated, ranges }
}

/// Whether the tokens match the whole of `text`: the pattern run as a
/// machine of one state per token, all live states stepped together over
/// the text, once per character. Time is the tokens times the text's
/// characters, memory two rows of the tokens; no way a star could
/// stretch is ever tried twice (backtracking takes exponential time on
/// `**a**a**a**a**a**a**b` against a long path).
fn matches_at(tokens: &[Token], text: &str) -> bool {
    // `live[k]`: the text read so far is matched by `tokens[..k]`:
    // [`ENTERED`] when token `k` has taken nothing yet, [`STAYED`] when a
    // star there has taken characters (a `**/` may skip its `/` only
    // while its `**` has taken nothing).
    let mut live = vec![DEAD; tokens.len() + 1];
    let mut next = vec![DEAD; tokens.len() + 1];
    live[0] = ENTERED;
    close(tokens, &mut live);
    for c in text.chars() {
        next.fill(DEAD);
        let mut any = false;
        for (k, token) in tokens.iter().enumerate() {
            if live[k] == DEAD {
                continue;
            }
            match token {
                Token::Star if c != '/' => next[k] = next[k].max(STAYED),
                Token::Star => {}
                Token::Stars { .. } => next[k] = next[k].max(STAYED),
                token if token.takes(c) => next[k + 1] = ENTERED,
                _ => continue,
            }
            any = true;
        }
        if !any {
            return false;
        }
        close(tokens, &mut next);
        std::mem::swap(&mut live, &mut next);
    }
    live[tokens.len()] != DEAD
}

const DEAD: u8 = 0;
const STAYED: u8 = 1;
const ENTERED: u8 = 2;

/// Adds the states a star reaches by taking nothing. Those steps all go
/// forward, so one pass in order finds them all.
fn close(tokens: &[Token], live: &mut [u8]) {
    for (k, token) in tokens.iter().enumerate() {
        if live[k] == DEAD {
            continue;
        }
        match token {
            Token::Star
            | Token::Stars {
                before_slash: false,
            } => live[k + 1] = ENTERED,
            Token::Stars { before_slash: true } => {
                live[k + 1] = ENTERED;
                // Taking nothing, `**/` takes no `/` either: the literal
                // token after it is skipped too.
                if live[k] == ENTERED {
                    live[k + 2] = ENTERED;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        Glob::new(pattern).unwrap().matches(path)
    }

    #[test]
    fn a_literal_matches_its_name_and_no_other() {
        for name in [
            "a.json",
            "deep/x*y?.json",
            "[a-z].json",
            "b[.json",
            "c]!.json",
        ] {
            let glob = Glob::literal(name);
            assert!(glob.matches(name), "{name}");
            assert!(!glob.matches(&format!("{name}x")), "{name}");
        }
        assert!(!Glob::literal("x*y.json").matches("xzy.json"));
        assert!(!Glob::literal("[a-z].json").matches("b.json"));
        assert_eq!(Glob::literal("a*[?.json").pattern(), "a[*][[][?].json");
    }

    #[test]
    fn stars() {
        assert!(matches("*.json", "ipc.json"));
        assert!(
            matches("*.json", "deep/ipc.json"),
            "no slash: the name alone"
        );
        assert!(!matches("ipc/*.json", "ipc/deep/x.json"));
        assert!(matches("ipc/*.json", "ipc/x.json"));
        assert!(matches("ipc/**", "ipc/deep/x.json"));
        assert!(matches("**/x.json", "x.json"));
        assert!(matches("**/x.json", "a/b/x.json"));
        assert!(matches("a/**/x.json", "a/x.json"));
        assert!(!matches("a/**/x.json", "b/x.json"));
        assert!(matches("ipc", "ipc"));
        assert!(!matches("ipc", "ipc.json"));
    }

    #[test]
    fn single_characters_and_classes() {
        assert!(matches("ca?e.json", "case.json"));
        assert!(!matches("a?b", "a/b"));
        assert!(matches("[is]*.json", "ipc.json"));
        assert!(matches("[is]*.json", "stateful.json"));
        assert!(!matches("[is]*.json", "foundation.json"));
        assert!(matches("[!f]*", "ipc.json"));
        assert!(matches("[a-c]x", "bx"));
        assert!(matches("[]]", "]"));
        assert!(Glob::new("[abc").is_err());
    }

    #[test]
    fn many_double_stars_against_a_long_path_answer_at_once() {
        // Backtracking tried every way six `**` could split the path:
        // about 10^13 ways here, which never finished.
        let pattern = "**a**a**a**a**a**a**b";
        let long = "a/".repeat(500);
        assert!(!matches(pattern, &format!("{long}c.json")));
        assert!(matches(pattern, &format!("{long}b")));
        assert!(!matches("*a*a*a*a*a*a*b", &"a".repeat(2000)));
        assert!(matches("*a*a*a*a*a*a*b", &format!("{}b", "a".repeat(2000))));
    }

    fn class_matches(class: &[char], c: char) -> bool {
        super::class(class).takes(c)
    }

    /// The backtracking matcher this module had, kept as the reference.
    fn backtracking(pattern: &[char], text: &[char]) -> bool {
        match pattern.first() {
            None => text.is_empty(),
            Some('*') if pattern.get(1) == Some(&'*') => {
                let rest = &pattern[2..];
                if let Some(after_slash) = rest.strip_prefix(&['/']) {
                    if backtracking(after_slash, text) {
                        return true;
                    }
                }
                (0..=text.len()).any(|skip| backtracking(rest, &text[skip..]))
            }
            Some('*') => {
                let rest = &pattern[1..];
                for skip in 0..=text.len() {
                    if backtracking(rest, &text[skip..]) {
                        return true;
                    }
                    if text.get(skip) == Some(&'/') {
                        break;
                    }
                }
                false
            }
            Some('?') => {
                matches!(text.first(), Some(&c) if c != '/')
                    && backtracking(&pattern[1..], &text[1..])
            }
            Some('[') => match (class_end(pattern, 0), text.first()) {
                (Some(end), Some(&c)) if c != '/' => {
                    class_matches(&pattern[1..end], c)
                        && backtracking(&pattern[end + 1..], &text[1..])
                }
                _ => false,
            },
            Some(&p) => text.first() == Some(&p) && backtracking(&pattern[1..], &text[1..]),
        }
    }

    #[test]
    fn long_patterns_are_refused_and_long_classes_compiled_once() {
        let long = "[[]".repeat(MAX_PATTERN_CHARS / 3);
        let glob = Glob::new(&long).unwrap();
        assert_eq!(glob.tokens.len(), MAX_PATTERN_CHARS / 3);
        assert!(glob.matches(&"[".repeat(MAX_PATTERN_CHARS / 3)));
        assert!(!glob.matches("a.json"));
        let one_class = format!("[{}]", "[".repeat(MAX_PATTERN_CHARS - 2));
        assert_eq!(Glob::new(&one_class).unwrap().tokens.len(), 1);
        let error = Glob::new(&"[".repeat(16_000)).unwrap_err();
        assert!(error.contains("16000 characters"), "{error}");
        // A run of stars is at most three tokens, however long.
        assert_eq!(Glob::new(&"*".repeat(4001)).unwrap().tokens.len(), 3);
    }

    proptest::proptest! {
        #[test]
        fn the_table_answers_as_backtracking_did(
            pattern in "[ab/*?\\[\\]!-]{0,10}",
            path in "[ab/!\\]-]{0,12}",
        ) {
            let tokens = match Glob::new(&pattern) {
                Ok(glob) => glob.tokens,
                Err(_) => return Ok(()),
            };
            let pattern: Vec<char> = pattern.chars().collect();
            let chars: Vec<char> = path.chars().collect();
            proptest::prop_assert_eq!(
                matches_at(&tokens, &path),
                backtracking(&pattern, &chars)
            );
        }
    }
}
