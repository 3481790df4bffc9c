//! The ledger's words: a token (bare, or a JSON string where it would
//! not read back bare) and an entry's `state:` value, read and written;
//! the entries' and the rules' blocks both use them.

use super::entry_ref::EntryState;

/// A string written as a JSON string when it would not read back bare,
/// or holds a character no output shows raw: the rule case names follow
/// ([`outside::json_string`]), so a file named with U+202E or U+009B is
/// as visible in a ledger's diff as a case so named.
pub(super) fn token(text: &str) -> String {
    let plain = !text.is_empty()
        && !text.starts_with(['"', '#'])
        && text.chars().all(|c| {
            !c.is_whitespace() && !c.is_control() && !crate::base::outside::is_forbidden(c)
        });
    if plain {
        text.to_owned()
    } else {
        crate::base::outside::json_string(text)
    }
}

/// Reads one token (bare up to white space, or a JSON string) from the
/// start of `text`; returns it and the rest.
pub(super) fn read_token(text: &str) -> Result<(String, &str), String> {
    let text = text.trim_start();
    if text.starts_with('"') {
        let mut stream = serde_json::Deserializer::from_str(text).into_iter::<String>();
        match stream.next() {
            Some(Ok(value)) => Ok((value, &text[stream.byte_offset()..])),
            _ => Err(format!("a malformed quoted string: {text}")),
        }
    } else {
        let end = text.find(char::is_whitespace).unwrap_or(text.len());
        Ok((text[..end].to_owned(), &text[end..]))
    }
}

/// A `state:` value: `accepted`, or `triaged` and an optional link.
pub(super) fn parse_state(value: &str) -> Result<EntryState, String> {
    let (word, link) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
    let link = link.trim();
    Ok(match word {
        "accepted" if link.is_empty() => EntryState::Accepted,
        "accepted" => return Err("an accepted entry takes no link".into()),
        "triaged" => EntryState::Triaged {
            link: (!link.is_empty()).then(|| link.to_owned()),
        },
        other => {
            return Err(format!(
                "state is `accepted` or `triaged [LINK]`, not {other:?}"
            ))
        }
    })
}

/// A `state:` value, as the ledger writes it.
pub(super) fn render_state(state: &EntryState) -> String {
    match state {
        EntryState::Accepted => "accepted".to_owned(),
        EntryState::Triaged { link: None } => "triaged".to_owned(),
        EntryState::Triaged { link: Some(link) } => format!("triaged {link}"),
    }
}
