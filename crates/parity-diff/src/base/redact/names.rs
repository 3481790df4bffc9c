//! Which names are secret-named: keys, flags and environment variable
//! names whose values [`Secrets`](super::Secrets) harvests.

/// Words that make a key, a flag or a variable name secret-named, found
/// anywhere in the name with its case and punctuation dropped
/// (`LINZUMI_RUNNER_TOKEN`, `forwardableOpenAiApiKey`, `--private-key`).
/// [`is_secret_name_bytes`] spells them out by first letter, for speed;
/// a test holds it to this list.
#[cfg(test)]
pub(super) const SECRET_WORDS: [&str; 11] = [
    "token",
    "secret",
    "password",
    "passwd",
    "passphrase",
    "apikey",
    "accesskey",
    "privatekey",
    "credential",
    "authorization",
    "bearer",
];

/// Words that make a name secret-named only as a whole word of it
/// (`--auth`, `basicAuth`, `OAUTH`), not inside one (`author`).
const SECRET_SEGMENTS: [&str; 2] = ["auth", "oauth"];

/// Short flags whose value is a secret (`-t V`).
const SECRET_SHORT_FLAGS: [&str; 1] = ["-t"];

/// Whether a key, a flag or an environment variable name names a secret:
/// `token`, `linzumiAgentMcpToken`, `--token`, `LINZUMI_RUNNER_TOKEN`,
/// `api_key`, `--bearer`, `--auth`, `--private-key`.
pub fn is_secret_name(name: &str) -> bool {
    is_secret_name_bytes(name.as_bytes())
}

/// Whether an argv element is a flag whose value is a secret: a
/// secret-named flag, or `-t`.
pub fn is_secret_flag(flag: &str) -> bool {
    flag.starts_with('-') && (SECRET_SHORT_FLAGS.contains(&flag) || is_secret_name(flag))
}

/// Whether a name is an `Authorization` header's, whose value is taken
/// whatever it looks like.
pub(super) fn is_authorization(name: &str) -> bool {
    let name = name.as_bytes();
    (0..name.len()).any(|at| squashed_starts_with(&name[at..], b"authorization"))
}

/// [`is_secret_name`] over bytes (UTF-8 or WTF-8), without allocating:
/// it runs for every key of every reported element and for every name
/// the token patterns meet, so each word is tried only where its first
/// letter stands.
pub(super) fn is_secret_name_bytes(name: &[u8]) -> bool {
    let mut might_segment = false;
    for at in 0..name.len() {
        let rest = &name[at..];
        // SECRET_WORDS, by first letter (a test holds the two in step).
        let words: &[&[u8]] = match rest[0].to_ascii_lowercase() {
            b't' => &[b"token"],
            b's' => &[b"secret"],
            b'p' => &[b"password", b"passwd", b"passphrase", b"privatekey"],
            b'a' => {
                might_segment |= squashed_starts_with(rest, b"auth");
                &[b"apikey", b"accesskey", b"authorization"]
            }
            b'c' => &[b"credential"],
            b'b' => &[b"bearer"],
            _ => continue,
        };
        if words.iter().any(|word| squashed_starts_with(rest, word)) {
            return true;
        }
    }
    might_segment && has_secret_segment(name)
}

/// Whether `name`, its case and everything but ASCII letters and digits
/// dropped, starts with `word` (lowercase): `Api_Key` starts with
/// `apikey`.
fn squashed_starts_with(name: &[u8], word: &[u8]) -> bool {
    let mut matched = 0;
    for &byte in name {
        if matched == word.len() {
            break;
        }
        if !byte.is_ascii_alphanumeric() {
            continue;
        }
        if byte.to_ascii_lowercase() != word[matched] {
            return false;
        }
        matched += 1;
    }
    matched == word.len()
}

/// Whether a word of the name (split at punctuation and where a small
/// letter meets a capital) is one of [`SECRET_SEGMENTS`].
fn has_secret_segment(name: &[u8]) -> bool {
    let mut start = 0;
    for at in 0..=name.len() {
        let here = name.get(at).copied();
        let boundary = match here {
            None => true,
            Some(byte) if !byte.is_ascii_alphanumeric() => true,
            Some(byte) => {
                at > start && name[at - 1].is_ascii_lowercase() && byte.is_ascii_uppercase()
            }
        };
        if !boundary {
            continue;
        }
        let word = &name[start..at];
        if SECRET_SEGMENTS
            .iter()
            .any(|segment| word.eq_ignore_ascii_case(segment.as_bytes()))
        {
            return true;
        }
        start = if here.is_some_and(|byte| byte.is_ascii_alphanumeric()) {
            at
        } else {
            at + 1
        };
    }
    false
}
