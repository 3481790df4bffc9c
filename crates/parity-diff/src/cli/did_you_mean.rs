//! A mistyped subcommand's "did you mean": clap suggests a subcommand
//! only when it is very near (Jaro similarity above 0.7), so `rnu` and
//! `acpt` got nothing. When clap has no suggestion, the subcommands whose
//! names start with what was typed, else those at the smallest edit
//! distance within [`max_distance`] (a swap of two neighbours is one
//! edit), go into clap's own error, which prints them as it prints its
//! own: `tip: a similar subcommand exists: 'run'`.

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// Adds the subcommands near the unknown one to `error`, when it is about
/// an unknown subcommand and clap suggested none.
pub fn suggest(mut error: clap::Error, command: &clap::Command) -> clap::Error {
    if error.kind() != ErrorKind::InvalidSubcommand
        || error.get(ContextKind::SuggestedSubcommand).is_some()
    {
        return error;
    }
    let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidSubcommand) else {
        return error;
    };
    let names: Vec<&str> = command
        .get_subcommands()
        .map(clap::Command::get_name)
        .collect();
    let near = nearest(typed, &names);
    if !near.is_empty() {
        let value = match <[String; 1]>::try_from(near) {
            Ok([one]) => ContextValue::String(one),
            Err(many) => ContextValue::Strings(many),
        };
        error.insert(ContextKind::SuggestedSubcommand, value);
    }
    error
}

/// How many edits a typo of a name of `len` characters may have: 1 for
/// the shortest names, 2 from four characters, 3 from seven.
fn max_distance(len: usize) -> usize {
    match len {
        0..=3 => 1,
        4..=6 => 2,
        _ => 3,
    }
}

/// The names `typed` may have meant (compared without case): those it
/// starts, when it is two characters or more; else those at the
/// smallest distance, when that is within both names' [`max_distance`].
pub fn nearest(typed: &str, names: &[&str]) -> Vec<String> {
    let typed: Vec<char> = typed.to_lowercase().chars().collect();
    let prefixed: Vec<String> = names
        .iter()
        .filter(|name| typed.len() >= 2 && name.chars().count() > typed.len())
        .filter(|name| name.chars().zip(&typed).all(|(a, &b)| a == b))
        .map(|name| (*name).to_owned())
        .collect();
    if !prefixed.is_empty() {
        return prefixed;
    }
    let scored: Vec<(usize, &str)> = names
        .iter()
        .map(|name| {
            let chars: Vec<char> = name.chars().collect();
            (distance(&typed, &chars), *name)
        })
        .filter(|&(distance, name)| {
            let shorter = typed.len().min(name.chars().count());
            // 0: the name in other case (`RUN`), which clap refuses.
            distance <= max_distance(shorter)
        })
        .collect();
    let Some(best) = scored.iter().map(|&(distance, _)| distance).min() else {
        return Vec::new();
    };
    scored
        .into_iter()
        .filter(|&(distance, _)| distance == best)
        .map(|(_, name)| name.to_owned())
        .collect()
}

/// The edit distance of `a` and `b` where an insertion, a deletion, a
/// substitution and a swap of two neighbours cost one each (optimal
/// string alignment).
fn distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        rows[at(i, 0)] = i;
    }
    for j in 0..=b.len() {
        rows[at(0, j)] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[at(i - 1, j)] + 1)
                .min(rows[at(i, j - 1)] + 1)
                .min(rows[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[at(i - 2, j - 2)] + 1);
            }
            rows[at(i, j)] = best;
        }
    }
    rows[at(a.len(), b.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 10] = [
        "compare", "run", "accept", "merge", "delta", "bless", "coverage", "cmin", "fuzz", "help",
    ];

    fn near(typed: &str) -> Vec<String> {
        nearest(typed, &NAMES)
    }

    #[test]
    fn swaps_and_a_few_edits_are_near_and_prefixes_name_their_commands() {
        let chars = |text: &str| text.chars().collect::<Vec<_>>();
        assert_eq!(distance(&chars("rnu"), &chars("run")), 1);
        assert_eq!(distance(&chars("acpt"), &chars("accept")), 2);
        assert_eq!(distance(&chars(""), &chars("run")), 3);
        assert_eq!(near("rnu"), ["run"]);
        assert_eq!(near("RUN"), ["run"]);
        assert_eq!(near("acpt"), ["accept"]);
        assert_eq!(near("acept"), ["accept"]);
        assert_eq!(near("blss"), ["bless"]);
        assert_eq!(near("covrage"), ["coverage"]);
        assert_eq!(near("cvoerage"), ["coverage"]);
        assert_eq!(near("acc"), ["accept"]);
        assert_eq!(near("co"), ["compare", "coverage"]);
    }

    #[test]
    fn far_names_get_no_suggestion() {
        for typed in ["revew", "x", "", "r", "zzzzzz", "report", "status"] {
            assert_eq!(near(typed), Vec::<String>::new(), "{typed}");
        }
    }
}
