//! File-system paths from JavaScript strings.

use std::path::PathBuf;

use js_exact::JsString;

/// The file-system path a JavaScript string names, as Node encodes it
/// (lone surrogates become U+FFFD).
pub fn js_path(text: &JsString) -> PathBuf {
    PathBuf::from(text.to_utf8_lossy().into_owned())
}
