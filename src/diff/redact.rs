//! Keeping secrets out of reports.
//!
//! Cases carry tokens (`"token": "…"`, `--token VALUE`,
//! `LINZUMI_RUNNER_TOKEN=…`), and results echo them. A report is read in
//! CI logs, so every token-like value found in a case or in either
//! element is masked wherever it appears in the report, unless it is
//! itself one of the values that differ: then the reader needs to see it.

use crate::js::{self, JsString, Value};

/// What a masked secret shows as.
pub const MASK: &str = "<redacted>";

/// Words that make a key, a flag or a variable name token-like.
const SECRET_WORDS: [&str; 7] = [
    "token",
    "secret",
    "password",
    "passwd",
    "apikey",
    "credential",
    "authorization",
];

/// Whether a key, a flag or an environment variable name names a secret:
/// `token`, `linzumiAgentMcpToken`, `--token`, `LINZUMI_RUNNER_TOKEN`,
/// `api_key`.
pub fn is_secret_name(name: &str) -> bool {
    is_secret_name_bytes(name.as_bytes())
}

/// [`is_secret_name`] over bytes (UTF-8 or WTF-8), without allocating:
/// it runs for every key of every reported element.
fn is_secret_name_bytes(name: &[u8]) -> bool {
    let mut squashed = [0u8; 256];
    let mut len = 0;
    for &byte in name {
        if byte.is_ascii_alphanumeric() && len < squashed.len() {
            squashed[len] = byte.to_ascii_lowercase();
            len += 1;
        }
    }
    let squashed = &squashed[..len];
    SECRET_WORDS.iter().any(|word| {
        squashed
            .windows(word.len())
            .any(|window| window == word.as_bytes())
    })
}

/// The secrets known for one case, longest first (so that a secret that
/// contains another is masked whole).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    values: Vec<String>,
}

impl Secrets {
    /// Gathers the token-like values of some values: string members under a
    /// secret-named key (or arrays of strings there), the element after a
    /// secret-named flag in an array of strings, and the right-hand side of
    /// `NAME=value` strings whose name is secret-named.
    pub fn harvest<'v>(values: impl IntoIterator<Item = &'v Value>) -> Self {
        let mut found: Vec<JsString> = Vec::new();
        let mut stack: Vec<&Value> = values.into_iter().collect();
        while let Some(value) = stack.pop() {
            match value {
                Value::Object(object) => {
                    for (key, member) in object.iter() {
                        if is_secret_name_bytes(key.as_wtf8()) {
                            take_strings(member, &mut found);
                        }
                        stack.push(member);
                    }
                }
                Value::Array(items) => {
                    let mut after_flag = false;
                    for item in items {
                        if let Value::String(text) = item {
                            if after_flag {
                                found.push(text.clone());
                            }
                            let bytes = text.as_wtf8();
                            after_flag = bytes.first() == Some(&b'-')
                                && !bytes.contains(&b'=')
                                && is_secret_name_bytes(bytes);
                        } else {
                            after_flag = false;
                        }
                        stack.push(item);
                    }
                }
                Value::String(text) => {
                    let bytes = text.as_wtf8();
                    if let Some(at) = bytes.iter().position(|&byte| byte == b'=') {
                        let name = &bytes[..at];
                        if !name.iter().any(u8::is_ascii_whitespace) && is_secret_name_bytes(name) {
                            // After an ASCII `=`, the rest is itself
                            // canonical WTF-8.
                            found.push(JsString::from_wtf8_unchecked(bytes[at + 1..].to_vec()));
                        }
                    }
                }
                _ => {}
            }
        }
        let mut values: Vec<String> = Vec::new();
        for secret in found {
            if secret.is_empty() || secret.eq_str(MASK) {
                continue;
            }
            for form in written_forms(&secret) {
                if !values.contains(&form) {
                    values.push(form);
                }
            }
        }
        values.sort_by(|x, y| y.len().cmp(&x.len()).then_with(|| x.cmp(y)));
        Secrets { values }
    }

    /// The secrets of a whole case file (none when it does not parse), to
    /// mask an oracle's stderr with.
    pub fn of_case_file(bytes: &[u8]) -> Self {
        match js::parse(bytes, js::TextMode::LossyUtf8) {
            Ok(cases) => Secrets::harvest([&cases]),
            Err(_) => Secrets::default(),
        }
    }

    /// These secrets less the ones that are among `shown`: the values that
    /// differ, which the report must show.
    pub fn except<'v>(mut self, shown: impl IntoIterator<Item = &'v Value>) -> Self {
        for value in shown {
            if let Value::String(text) = value {
                let forms = written_forms(text);
                self.values.retain(|secret| !forms.contains(secret));
            }
        }
        self
    }

    /// The secrets to keep masked while showing where two values part:
    /// all of them, except a secret that is itself one of the `shown`
    /// (differing) values and stands on one side only. A secret both
    /// sides hold, wherever they hold it, stays masked (an argv shifted
    /// by one element must not print the token it carries on both sides).
    pub fn for_divergence<'v>(
        self,
        golden: Option<&Value>,
        actual: Option<&Value>,
        shown: impl IntoIterator<Item = &'v Value>,
    ) -> Self {
        let holds = |side: Option<&Value>, secret: &str| {
            let has_word =
                |text: &JsString| whole_words(&text.to_utf8_lossy(), secret).next().is_some();
            let mut stack: Vec<&Value> = side.into_iter().collect();
            while let Some(value) = stack.pop() {
                match value {
                    Value::String(text) if has_word(text) => return true,
                    Value::Array(items) => stack.extend(items),
                    Value::Object(object) => {
                        for (key, member) in object.iter() {
                            if has_word(key) {
                                return true;
                            }
                            stack.push(member);
                        }
                    }
                    _ => {}
                }
            }
            false
        };
        let mut visible = Vec::new();
        for value in shown {
            if let Value::String(text) = value {
                let plain = text.to_utf8_lossy().into_owned();
                if holds(golden, &plain) != holds(actual, &plain) {
                    visible.extend(written_forms(text));
                }
            }
        }
        let mut kept = self;
        kept.values.retain(|secret| !visible.contains(secret));
        kept
    }

    /// Whether there is nothing to mask.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The text with every secret masked where it stands as a whole word:
    /// `pub-t` is masked in `--token=pub-t` and in `"pub-t"`, but not in
    /// `pub-thread`, which merely starts the same way.
    pub fn mask(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in &self.values {
            if out.contains(secret.as_str()) {
                out = mask_words(&out, secret);
            }
        }
        out
    }
}

impl Secrets {
    /// A JSON text (an element, a case, a value, cut or whole) with the
    /// secrets masked inside its string literals only: the text between
    /// literals (punctuation, numbers, the report's own words) is never
    /// changed. An unterminated literal at the end (a cut text) counts as
    /// a literal.
    pub fn mask_json_text(&self, json: &str) -> String {
        if self.is_empty() {
            return json.to_owned();
        }
        let bytes = json.as_bytes();
        let mut out = String::with_capacity(json.len());
        let mut copied = 0;
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] != b'"' {
                at += 1;
                continue;
            }
            let start = at + 1;
            let mut end = start;
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            let end = end.min(bytes.len());
            out.push_str(&json[copied..start]);
            out.push_str(&self.mask(&json[start..end]));
            copied = end;
            at = end + 1;
        }
        out.push_str(&json[copied..]);
        out
    }

    /// Free text quoted from elsewhere (an oracle's standard error) with
    /// every secret masked.
    pub fn mask_quoted_text(&self, text: &str) -> String {
        self.mask(text)
    }

    /// A copy of a value with every secret masked inside its strings (and
    /// inside its keys), for reports that embed values as JSON.
    pub fn mask_value(&self, value: &Value) -> Value {
        if self.is_empty() {
            return value.clone();
        }
        let mask_text = |text: &JsString| {
            let lossy = text.to_utf8_lossy();
            if self
                .values
                .iter()
                .any(|secret| lossy.contains(secret.as_str()))
            {
                JsString::from(self.mask(&lossy))
            } else {
                text.clone()
            }
        };
        match value {
            Value::String(text) => Value::String(mask_text(text)),
            Value::Array(items) => {
                Value::Array(items.iter().map(|item| self.mask_value(item)).collect())
            }
            Value::Object(object) => Value::Object(
                object
                    .iter()
                    .map(|(key, member)| (mask_text(key), self.mask_value(member)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// Characters that continue a word: a secret next to one of them is part
/// of some longer text, not the secret itself.
fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Where `secret` stands as a whole word in `text`: a boundary is needed
/// only where the secret itself has a word character at that edge.
fn whole_words<'t>(text: &'t str, secret: &'t str) -> impl Iterator<Item = usize> + 't {
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

fn mask_words(text: &str, secret: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for at in whole_words(text, secret) {
        if at < copied {
            continue;
        }
        out.push_str(&text[copied..at]);
        out.push_str(MASK);
        copied = at + secret.len();
    }
    out.push_str(&text[copied..]);
    out
}

fn take_strings(value: &Value, found: &mut Vec<JsString>) {
    match value {
        Value::String(text) => found.push(text.clone()),
        Value::Array(items) => {
            for item in items {
                if let Value::String(text) = item {
                    found.push(text.clone());
                }
            }
        }
        _ => {}
    }
}

/// The ways a secret can stand in a report: as text, as the inside of a
/// JSON string literal, and as the inside of a JSON string holding JSON
/// (`--runtime-defaults` carries such text).
fn written_forms(secret: &JsString) -> Vec<String> {
    let mut forms = vec![secret.to_utf8_lossy().into_owned()];
    let mut current = secret.clone();
    for _ in 0..2 {
        let literal = js::to_json(&Value::String(current));
        let inner = String::from_utf8_lossy(&literal[1..literal.len() - 1]).into_owned();
        if !forms.contains(&inner) {
            forms.push(inner.clone());
        }
        current = JsString::from(inner);
    }
    forms
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::js::{parse, TextMode};

    fn value(text: &str) -> Value {
        parse(text.as_bytes(), TextMode::LossyUtf8).unwrap()
    }

    #[test]
    fn secret_names() {
        for name in [
            "token",
            "linzumiAgentMcpToken",
            "--token",
            "LINZUMI_RUNNER_TOKEN",
            "api_key",
            "clientSecret",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in ["cwd", "runnerId", "--kandan-url", "name"] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn harvests_members_flags_and_assignments() {
        let case = value(
            r#"{"options":{"token":"tok-1","linzumiAgentMcpToken":"mcp-2"},
                "args":["x","--token","tok-3","--linzumi-agent-mcp-token=mcp-4","--cwd","/d"],
                "env":["LINZUMI_RUNNER_TOKEN=tok-5","HOME=/h"],
                "token":"<redacted>","other":"tok"}"#,
        );
        let secrets = Secrets::harvest([&case]);
        let masked = secrets.mask("tok-1 mcp-2 tok-3 mcp-4 tok-5 /d /h tok x");
        assert_eq!(
            masked,
            "<redacted> <redacted> <redacted> <redacted> <redacted> /d /h tok x"
        );
    }

    #[test]
    fn escaped_forms_are_masked_too() {
        let case = value(r#"{"token":"a\"b\\c"}"#);
        let secrets = Secrets::harvest([&case]);
        assert_eq!(secrets.mask(r#"["a\"b\\c"]"#), r#"["<redacted>"]"#);
        assert_eq!(
            secrets.mask(r#""{\"t\":\"a\\\"b\\\\c\"}""#),
            r#""{\"t\":\"<redacted>\"}""#
        );
        assert_eq!(secrets.mask("a\"b\\c"), "<redacted>");
    }

    #[test]
    fn differing_values_stay_visible() {
        let golden = value(r#"{"token":"tok-old","x":"tok-keep"}"#);
        let actual = value(r#"{"token":"tok-new","apiKey":"tok-keep"}"#);
        let secrets = Secrets::harvest([&golden, &actual])
            .except([&Value::from("tok-old"), &Value::from("tok-new")]);
        assert_eq!(
            secrets.mask("tok-old tok-new tok-keep"),
            "tok-old tok-new <redacted>"
        );
    }

    #[test]
    fn a_secret_both_sides_hold_stays_masked() {
        let golden = value(r#"["--token","tok-same","--cwd","/a"]"#);
        let shifted = value(r#"["x","--token","tok-same","--cwd"]"#);
        let shown = [
            Value::from("--token"),
            Value::from("tok-same"),
            Value::from("x"),
        ];
        let secrets = Secrets::harvest([&golden, &shifted]).for_divergence(
            Some(&golden),
            Some(&shifted),
            &shown,
        );
        assert_eq!(secrets.mask("tok-same"), "<redacted>");

        let actual = value(r#"["--token","tok-other","--cwd","/a"]"#);
        let shown = [Value::from("tok-same"), Value::from("tok-other")];
        let secrets = Secrets::harvest([&golden, &actual]).for_divergence(
            Some(&golden),
            Some(&actual),
            &shown,
        );
        assert_eq!(secrets.mask("tok-same tok-other"), "tok-same tok-other");
    }

    #[test]
    fn values_are_masked_inside() {
        let case = value(r#"{"token":"1"}"#);
        let secrets = Secrets::harvest([&case]);
        let masked = secrets.mask_value(&value(r#"{"a":[1,"k=1"],"1":"1"}"#));
        assert_eq!(
            String::from_utf8(js::to_json(&masked)).unwrap(),
            r#"{"<redacted>":"<redacted>","a":[1,"k=<redacted>"]}"#
        );
    }

    #[test]
    fn only_whole_words_are_masked() {
        let case = value(r#"{"token":"pub-t"}"#);
        let secrets = Secrets::harvest([&case]);
        assert_eq!(
            secrets.mask(r#"pub-thread pub-t "pub-t" --token=pub-t xpub-t pub-t."#),
            r#"pub-thread <redacted> "<redacted>" --token=<redacted> xpub-t <redacted>."#
        );
    }

    #[test]
    fn json_texts_are_masked_inside_literals_only() {
        let case = value(r#"{"token":"at-1","x":"12345"}"#);
        let secrets = Secrets::harvest([&case]);
        assert_eq!(
            secrets.mask_json_text(r#"{"at-1":["at-1",at-1],"k":"x\"at-1"}"#),
            r#"{"<redacted>":["<redacted>",at-1],"k":"x\"<redacted>"}"#
        );
        // A cut text ends inside a literal.
        assert_eq!(secrets.mask_json_text(r#"["at-1"#), r#"["<redacted>"#);
        assert_eq!(secrets.mask_json_text(r#"["a\"#), r#"["a\"#);
        assert_eq!(Secrets::default().mask_json_text("at-1"), "at-1");
    }

    #[test]
    fn longer_secrets_are_masked_first() {
        let case = value(r#"{"token":"abc","secret":"abcdef"}"#);
        assert_eq!(
            Secrets::harvest([&case]).mask("abcdef abc"),
            "<redacted> <redacted>"
        );
    }
}
