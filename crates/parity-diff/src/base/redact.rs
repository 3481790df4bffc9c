//! Keeping secrets out of reports: the one redaction layer.
//!
//! Cases carry tokens (`"token": "…"`, `--token VALUE`,
//! `LINZUMI_RUNNER_TOKEN=…`, JSON text holding a token), and results and
//! an oracle's stderr echo them. A report is read in CI logs, so every
//! secret found in a case or in either element, and every value the
//! documented token patterns find, is masked wherever it stands inside
//! quoted data: inside the string literals of a JSON text
//! ([`Secrets::mask_json_text`]), inside values ([`Secrets::mask_value`])
//! and in quoted stderr ([`Secrets::mask_quoted_text`]). The report's own
//! words are never changed. A value the reader must see to understand a
//! divergence (it differs, stands on one side only, and is not the
//! case's own secret) stays visible ([`Secrets::for_divergence`]).
//! docs/REDACTION.md is the user's account.

mod find;
mod names;
mod scan;
#[cfg(test)]
mod tests;

use js_exact::{self as js, JsString, Value};
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};

use names::is_secret_name_bytes;
#[cfg(test)]
use names::SECRET_WORDS;
pub use names::{is_secret_flag, is_secret_name};

/// A suite's `redact = false`: nothing is masked.
static SECRETS_SHOWN: AtomicBool = AtomicBool::new(false);

/// Turns masking off (`true`: a suite's `redact = false`, for a contract
/// with no secrets) or on again. It is one switch for the process, set by
/// each suite's run before its cases are judged: suites run one after
/// another, and a run's records are all made before the next begins.
pub fn show_secrets(shown: bool) {
    SECRETS_SHOWN.store(shown, Ordering::Relaxed);
}

/// Whether masking is off ([`show_secrets`]).
pub fn secrets_shown() -> bool {
    SECRETS_SHOWN.load(Ordering::Relaxed)
}

/// What a masked secret shows as.
pub const MASK: &str = "<redacted>";

/// A secret has at least this many characters (white space around it not
/// counted): a token of `at` would mask the word "at" everywhere.
pub const MIN_SECRET_CHARS: usize = 4;

/// The secrets known for one case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    /// The secrets still masked, as found (sorted, no duplicates).
    plain: Vec<String>,
    /// Every way those secrets are written ([`written_forms`]), longest
    /// first, so that a secret that contains another is masked whole.
    values: Vec<String>,
    /// The written forms of the secrets a divergence shows: never masked,
    /// even when a pattern finds them again in the text being masked.
    visible: Vec<String>,
}

impl Secrets {
    /// Gathers the secrets of some values (a case, both elements):
    /// strings under a secret-named key (alone or in an array, and the
    /// credentials after `Bearer ` there), the element after a secret
    /// flag in an array of strings, the right-hand side of a
    /// `NAME=value` string whose name is secret-named, and whatever the
    /// token patterns find inside any string (JSON text held in a string
    /// included).
    pub fn harvest<'v>(values: impl IntoIterator<Item = &'v Value>) -> Self {
        // Nothing is masked: walking the values would be wasted.
        if secrets_shown() {
            return Secrets::default();
        }
        let mut found = Vec::new();
        harvest_into(values, &mut found);
        Secrets::from_found(found)
    }

    /// The secrets of a whole case file, to mask an oracle's stderr with.
    /// A file that does not parse (a trailing comma) is still read as far
    /// as it can be, and the token patterns apply to its raw text.
    pub fn of_case_file(bytes: &[u8]) -> Self {
        // Nothing is masked: parsing the file would be wasted.
        if secrets_shown() {
            return Secrets::default();
        }
        match js::parse(bytes, js::TextMode::LossyUtf8) {
            Ok(cases) => Secrets::harvest([&cases]),
            Err(_) => {
                let mut found = Vec::new();
                scan::scan_text(&String::from_utf8_lossy(bytes), &mut found);
                Secrets::from_found(found)
            }
        }
    }

    fn from_found(mut found: Vec<String>) -> Self {
        // `Bearer V` found whole: V alone is the secret too.
        let credentials: Vec<String> = found
            .iter()
            .filter_map(|secret| scan::credentials(secret).map(str::to_owned))
            .collect();
        found.extend(credentials);
        let mut plain: Vec<String> = found
            .into_iter()
            .filter_map(|secret| {
                let trimmed = secret.trim();
                let counts = trimmed.chars().nth(MIN_SECRET_CHARS - 1).is_some();
                // A secret inside the mask would mask the masks.
                if !counts || MASK.contains(trimmed) {
                    None
                } else if trimmed.len() == secret.len() {
                    Some(secret)
                } else {
                    Some(trimmed.to_owned())
                }
            })
            .collect();
        plain.sort_unstable();
        plain.dedup();
        let mut values = Vec::with_capacity(plain.len());
        for secret in &plain {
            values.extend(written_forms(secret));
        }
        longest_first(&mut values);
        Secrets {
            plain,
            values,
            visible: Vec::new(),
        }
    }

    /// These secrets and the ones `found` adds (less the visible ones).
    fn with_found(&self, found: Vec<String>) -> Cow<'_, Secrets> {
        // Most of what a text's patterns find is known already.
        let known = |secret: &str| {
            let secret = secret.trim();
            self.plain
                .binary_search_by(|plain| plain.as_str().cmp(secret))
                .is_ok()
                || self.visible.iter().any(|form| form == secret)
        };
        let fresh: Vec<String> = found.into_iter().filter(|secret| !known(secret)).collect();
        if fresh.is_empty() {
            return Cow::Borrowed(self);
        }
        let extra = Secrets::from_found(fresh);
        let is_new = |form: &String| !self.values.contains(form) && !self.visible.contains(form);
        if !extra.values.iter().any(is_new) {
            return Cow::Borrowed(self);
        }
        let mut merged = self.clone();
        merged
            .values
            .extend(extra.values.into_iter().filter(is_new));
        longest_first(&mut merged.values);
        merged.plain.extend(extra.plain);
        merged.plain.sort_unstable();
        merged.plain.dedup();
        Cow::Owned(merged)
    }

    /// These secrets with `shown` ones made visible.
    fn reveal(mut self, shown: Vec<String>) -> Self {
        for secret in &shown {
            for form in written_forms(secret) {
                if !self.visible.contains(&form) {
                    self.visible.push(form);
                }
            }
        }
        let visible = &self.visible;
        self.values.retain(|form| !visible.contains(form));
        self.plain.retain(|secret| !shown.contains(secret));
        self
    }

    /// These secrets and the ones `values` hold: a case's own secrets
    /// ([`Secrets::harvest`] of the case, or [`Secrets::of_case_file`])
    /// with those of its two elements, each harvested once.
    pub fn and_harvest<'v>(&self, values: impl IntoIterator<Item = &'v Value>) -> Self {
        let mut found = Vec::new();
        harvest_into(values, &mut found);
        self.with_found(found).into_owned()
    }

    /// The secrets to keep masked while showing where two values part:
    /// all of them, except a secret that one of the `shown` (differing)
    /// values holds, that stands on one side only, and that the case
    /// does not hold. A secret both sides hold, wherever they hold it,
    /// stays masked (an argv shifted by one element must not print the
    /// token it carries on both sides). A secret of the case's own
    /// (`case`: its [`Secrets::harvest`] or [`Secrets::of_case_file`])
    /// stays masked too, and so does any value that contains one or is
    /// part of one: a port that quotes the case's token in its error, or
    /// cuts it, differs from the golden on one side only, and that is
    /// exactly when the token must not be shown.
    pub fn for_divergence<'v>(
        self,
        case: &Secrets,
        golden: Option<&Value>,
        actual: Option<&Value>,
        shown: impl IntoIterator<Item = &'v Value>,
    ) -> Self {
        let shown = shown_strings(shown);
        let reveal = self
            .plain
            .iter()
            .filter(|secret| {
                !case.touches(secret)
                    && shown
                        .iter()
                        .any(|text| find::whole_words(text, secret).next().is_some())
                    && holds(golden, secret) != holds(actual, secret)
            })
            .cloned()
            .collect();
        self.reveal(reveal)
    }

    /// Whether `value` contains one of these secrets (in any of its
    /// written forms) or is part of one: showing it would show all or
    /// some of a secret.
    fn touches(&self, value: &str) -> bool {
        self.values
            .iter()
            .any(|form| form.contains(value) || value.contains(form.as_str()))
    }

    /// Whether there is nothing to mask.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The text with every known secret masked where it stands as a whole
    /// word: `pub-t` is masked in `--token=pub-t` and in `"pub-t"`, but
    /// not in `pub-thread`, which merely starts the same way. The text is
    /// taken as data: use [`Secrets::mask_json_text`] or
    /// [`Secrets::mask_quoted_text`] where it may hold the report's words.
    pub fn mask(&self, text: &str) -> String {
        if secrets_shown() {
            return text.to_owned();
        }
        find::splice(text, &self.ranges_in(text, None), MASK)
    }

    /// A JSON text (an element, a case, a value, cut or whole) with the
    /// secrets masked inside its string literals only: the text between
    /// literals (punctuation, numbers, the report's own words) is never
    /// changed. The token patterns apply to the text too, so raw bytes
    /// that were never read as a value are masked as well. An
    /// unterminated literal at the end (a cut text) counts as a literal.
    pub fn mask_json_text(&self, json: &str) -> String {
        if secrets_shown() {
            return json.to_owned();
        }
        let mut found = Vec::new();
        scan::scan_text(json, &mut found);
        let secrets = self.with_found(found);
        if secrets.is_empty() {
            return json.to_owned();
        }
        let bytes = json.as_bytes();
        let mut literals = Vec::new();
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
            literals.push((start, end));
            at = end + 1;
        }
        find::splice(json, &secrets.ranges_in(json, Some(&literals)), MASK)
    }

    /// Where the secrets stand in `text` (inside one of `spans`, when
    /// given): as whole words, glued to other text, or cut short
    /// ([`find::ranges`]); sorted and disjoint.
    fn ranges_in(&self, text: &str, spans: Option<&[(usize, usize)]>) -> Vec<(usize, usize)> {
        find::ranges(&self.values, text, spans)
    }

    /// Free text quoted from elsewhere (an oracle's standard error) with
    /// every known secret masked, and every value the token patterns find
    /// in the text itself: an oracle that echoes a case file nobody could
    /// read still has its tokens masked.
    pub fn mask_quoted_text(&self, text: &str) -> String {
        if secrets_shown() {
            return text.to_owned();
        }
        let mut found = Vec::new();
        scan::scan_text(text, &mut found);
        self.with_found(found).mask(text)
    }

    /// A JSON Pointer with every secret masked in its keys, and every
    /// value the token patterns find there: a port that answers with the
    /// case's token as a key (`{"<token>":"X"}`) must not print it in
    /// `different at /<token>`, nor have `accept` write it into the
    /// ledger. A pointer with nothing to mask comes back unchanged (a
    /// lone surrogate in a key included).
    pub fn mask_pointer(&self, pointer: &JsString) -> JsString {
        if secrets_shown() || !has_keys(pointer) {
            return pointer.clone();
        }
        let text = pointer.to_utf8_lossy();
        // Key by key, unescaped: a cut secret that held a `/` is masked
        // as the key it stands in, not as `~1` glued to other text.
        let mut changed = false;
        let tokens: Vec<String> = text
            .split('/')
            .map(|token| {
                if !token.contains('~') {
                    let masked = self.mask_quoted_text(token);
                    changed |= masked != token;
                    return masked;
                }
                let key = token.replace("~1", "/").replace("~0", "~");
                let masked = self.mask_quoted_text(&key);
                if masked == key {
                    token.to_owned()
                } else {
                    changed = true;
                    masked.replace('~', "~0").replace('/', "~1")
                }
            })
            .collect();
        if changed {
            JsString::from(tokens.join("/"))
        } else {
            pointer.clone()
        }
    }

    /// A copy of a value with every secret masked inside its strings (and
    /// inside its keys), for reports that embed values as JSON; the
    /// value's own secrets are masked too.
    pub fn mask_value(&self, value: &Value) -> Value {
        if secrets_shown() {
            return value.clone();
        }
        let mut found = Vec::new();
        harvest_into([value], &mut found);
        let secrets = self.with_found(found);
        if secrets.is_empty() {
            return value.clone();
        }
        secrets.mask_value_with(value)
    }

    fn mask_value_with(&self, value: &Value) -> Value {
        let mask_text = |text: &JsString| {
            let lossy = text.to_utf8_lossy();
            let ranges = self.ranges_in(&lossy, None);
            if ranges.is_empty() {
                text.clone()
            } else {
                JsString::from(find::splice(&lossy, &ranges, MASK))
            }
        };
        match value {
            Value::String(text) => Value::String(mask_text(text)),
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| self.mask_value_with(item))
                    .collect(),
            ),
            Value::Object(object) => Value::Object(
                object
                    .iter()
                    .map(|(key, member)| (mask_text(key), self.mask_value_with(member)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// Whether a JSON Pointer names an object key (not only array indices):
/// only then can it hold a secret, and most pointers do not.
pub fn has_keys(pointer: &JsString) -> bool {
    !pointer
        .to_utf8_lossy()
        .split('/')
        .all(|token| token.bytes().all(|byte| byte.is_ascii_digit()))
}

/// The walk behind [`Secrets::harvest`].
fn harvest_into<'v>(values: impl IntoIterator<Item = &'v Value>, found: &mut Vec<String>) {
    let mut stack: Vec<&Value> = values.into_iter().collect();
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(object) => {
                for (key, member) in object.iter() {
                    if is_secret_name_bytes(key.as_wtf8()) {
                        take_strings(member, found);
                    }
                    stack.push(member);
                }
            }
            Value::Array(items) => {
                let mut after_flag = false;
                for item in items {
                    if let Value::String(text) = item {
                        let text = text.to_utf8_lossy();
                        if after_flag {
                            found.push(text.clone().into_owned());
                        }
                        after_flag = is_secret_flag(&text) && !text.contains('=');
                    } else {
                        after_flag = false;
                    }
                    stack.push(item);
                }
            }
            Value::String(text) => {
                let text = text.to_utf8_lossy();
                // `NAME=value` as a whole string keeps the spaces of its value.
                if let Some((name, secret)) = text.split_once('=') {
                    let plain_name = !name.is_empty() && !name.contains(char::is_whitespace);
                    if plain_name && (is_secret_name(name) || is_secret_flag(name)) {
                        found.push(secret.to_owned());
                    }
                }
                scan::scan_text(&text, found);
            }
            _ => {}
        }
    }
}

/// The strings of a secret-named member: the string, or the strings of
/// an array.
fn take_strings(value: &Value, found: &mut Vec<String>) {
    let mut take = |text: &JsString| found.push(text.to_utf8_lossy().into_owned());
    match value {
        Value::String(text) => take(text),
        Value::Array(items) => {
            for item in items {
                if let Value::String(text) = item {
                    take(text);
                }
            }
        }
        _ => {}
    }
}

/// The shown values that are strings, as text.
fn shown_strings<'v>(shown: impl IntoIterator<Item = &'v Value>) -> Vec<Cow<'v, str>> {
    shown
        .into_iter()
        .filter_map(|value| match value {
            Value::String(text) => Some(text.to_utf8_lossy()),
            _ => None,
        })
        .collect()
}

/// Whether a string or a key of `side` holds `secret` as a whole word.
fn holds(side: Option<&Value>, secret: &str) -> bool {
    let has_word = |text: &JsString| {
        find::whole_words(&text.to_utf8_lossy(), secret)
            .next()
            .is_some()
    };
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
}

fn longest_first(values: &mut Vec<String>) {
    values.sort_unstable_by(|x, y| y.len().cmp(&x.len()).then_with(|| x.cmp(y)));
    values.dedup();
}

/// The ways a secret can stand in a report: as text, as a key in a JSON
/// Pointer, as the inside of a JSON string literal, and as the inside of
/// a JSON string holding JSON (`--runtime-defaults` carries such text).
fn written_forms(secret: &str) -> Vec<String> {
    let plain = secret.to_owned();
    let mut forms = vec![plain];
    if secret.contains(['~', '/']) {
        // As a key inside a JSON Pointer (RFC 6901 escapes).
        forms.push(secret.replace('~', "~0").replace('/', "~1"));
    }
    if !secret
        .bytes()
        .any(|byte| byte == b'"' || byte == b'\\' || byte < 0x20)
    {
        // Nothing (else) to escape.
        return forms;
    }
    let mut current = JsString::from(secret);
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
