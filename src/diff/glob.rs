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

/// Backtracking match; patterns are short, so the cost is no concern.
fn matches_at(pattern: &[char], text: &[char]) -> bool {
    match pattern.first() {
        None => text.is_empty(),
        Some('*') if pattern.get(1) == Some(&'*') => {
            // `**/` may also match nothing at all.
            let rest = &pattern[2..];
            if let Some(after_slash) = rest.strip_prefix(&['/']) {
                if matches_at(after_slash, text) {
                    return true;
                }
            }
            (0..=text.len()).any(|skip| matches_at(rest, &text[skip..]))
        }
        Some('*') => {
            let rest = &pattern[1..];
            for skip in 0..=text.len() {
                if matches_at(rest, &text[skip..]) {
                    return true;
                }
                if text.get(skip) == Some(&'/') {
                    break;
                }
            }
            false
        }
        Some('?') => {
            matches!(text.first(), Some(&c) if c != '/') && matches_at(&pattern[1..], &text[1..])
        }
        Some('[') => match (class_end(pattern, 0), text.first()) {
            (Some(end), Some(&c)) if c != '/' => {
                class_matches(&pattern[1..end], c) && matches_at(&pattern[end + 1..], &text[1..])
            }
            _ => false,
        },
        Some(&p) => text.first() == Some(&p) && matches_at(&pattern[1..], &text[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        Glob::new(pattern).unwrap().matches(path)
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
}
