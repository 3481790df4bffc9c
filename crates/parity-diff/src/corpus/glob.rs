//! `--filter` patterns: shell globs over paths relative to the cases
//! directory, always with `/` between components.
//!
//! `*` matches any run of characters within one component, `**` any run
//! across components (`ipc/**` is everything under `ipc/`, `**/x.json`
//! every `x.json`), `?` one character, `[abc]`, `[a-z]` and `[!abc]` one
//! character of (or not of) a set. A pattern with no `/` also matches
//! the file name alone, so `--filter 'ipc*'` finds `deep/ipc.json`.

/// A compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    pattern: Vec<char>,
    anywhere: bool,
}

impl Glob {
    /// Compiles a pattern; an unclosed `[` is an error.
    pub fn new(pattern: &str) -> Result<Self, String> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut at = 0;
        while at < chars.len() {
            if chars[at] == '[' {
                match class_end(&chars, at) {
                    Some(end) => at = end,
                    None => return Err(format!("unclosed '[' in filter pattern {pattern:?}")),
                }
            }
            at += 1;
        }
        Ok(Glob {
            anywhere: !pattern.contains('/'),
            pattern: chars,
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
        // Every `[` opened here is closed.
        Glob::new(&pattern).unwrap_or_else(|_| unreachable!("{pattern}"))
    }

    /// The pattern as it was given.
    pub fn pattern(&self) -> String {
        self.pattern.iter().collect()
    }

    /// Whether a relative path (components joined by `/`) matches.
    pub fn matches(&self, path: &str) -> bool {
        let text: Vec<char> = path.chars().collect();
        if matches_at(&self.pattern, &text) {
            return true;
        }
        if self.anywhere {
            let name_start = text.iter().rposition(|&c| c == '/').map_or(0, |at| at + 1);
            return name_start > 0 && matches_at(&self.pattern, &text[name_start..]);
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
    while at < pattern.len() {
        if pattern[at] == ']' {
            return Some(at);
        }
        at += 1;
    }
    None
}

fn class_matches(class: &[char], c: char) -> bool {
    let (negated, class) = match class.split_first() {
        Some(('!', rest)) => (true, rest),
        _ => (false, class),
    };
    let mut found = false;
    let mut at = 0;
    while at < class.len() {
        if at + 2 < class.len() && class[at + 1] == '-' {
            found |= class[at] <= c && c <= class[at + 2];
            at += 3;
        } else {
            found |= class[at] == c;
            at += 1;
        }
    }
    found != negated
}

/// Whether `pattern` matches the whole of `text`, in time and memory
/// proportional to their lengths' product: a table of whether
/// `pattern[i..]` matches `text[j..]`, filled from the ends. (Trying each
/// way a star could stretch, as a backtracking matcher does, takes
/// exponential time on `**a**a**a**a**a**a**b` against a long path.)
fn matches_at(pattern: &[char], text: &[char]) -> bool {
    let width = text.len() + 1;
    // Row `i` holds, for each `j`, whether `pattern[i..]` matches `text[j..]`.
    let mut table = vec![false; (pattern.len() + 1) * width];
    table[pattern.len() * width + text.len()] = true;
    for i in (0..pattern.len()).rev() {
        let (row, below) = table.split_at_mut((i + 1) * width);
        let row = &mut row[i * width..];
        // `below[k * width + j]`: whether `pattern[i + 1 + k..]` matches `text[j..]`.
        let at = |from: usize, j: usize| below[(from - i - 1) * width + j];
        let one = |j: usize| text.get(j).filter(|&&c| c != '/');
        match pattern[i] {
            '*' if pattern.get(i + 1) == Some(&'*') => {
                // `**` takes any run of characters; `**/` may also take
                // nothing at all, slash included, where it starts.
                let after_slash = pattern.get(i + 2) == Some(&'/');
                let mut any_later = false;
                for j in (0..width).rev() {
                    any_later |= at(i + 2, j);
                    row[j] = any_later || (after_slash && at(i + 3, j));
                }
            }
            '*' => {
                // `*` takes a run of characters up to a `/`.
                for j in (0..width).rev() {
                    row[j] = at(i + 1, j) || (one(j).is_some() && row[j + 1]);
                }
            }
            '?' => {
                for (j, cell) in row.iter_mut().enumerate() {
                    *cell = one(j).is_some() && at(i + 1, j + 1);
                }
            }
            '[' => {
                let end = class_end(pattern, i);
                for (j, cell) in row.iter_mut().enumerate() {
                    *cell = match (end, one(j)) {
                        (Some(end), Some(&c)) => {
                            class_matches(&pattern[i + 1..end], c) && at(end + 1, j + 1)
                        }
                        _ => false,
                    };
                }
            }
            literal => {
                for (j, cell) in row.iter_mut().enumerate() {
                    *cell = text.get(j) == Some(&literal) && at(i + 1, j + 1);
                }
            }
        }
    }
    table[0]
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

    proptest::proptest! {
        #[test]
        fn the_table_answers_as_backtracking_did(
            pattern in "[ab/*?\\[\\]!-]{0,10}",
            path in "[ab/!\\]-]{0,12}",
        ) {
            let pattern: Vec<char> = pattern.chars().collect();
            let path: Vec<char> = path.chars().collect();
            proptest::prop_assert_eq!(
                matches_at(&pattern, &path),
                backtracking(&pattern, &path)
            );
        }
    }
}
