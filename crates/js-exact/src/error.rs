//! What the ops throw: a JavaScript `Error`, of which only the message is
//! ever observed.

use super::string::JsString;
use super::value::Value;

/// An `Error` thrown with this message.
#[derive(Debug, Clone, PartialEq)]
pub struct JsError {
    /// `error.message`.
    pub message: JsString,
}

/// What a JavaScript function does: return a value or throw.
pub type JsResult<T> = Result<T, JsError>;

impl JsError {
    /// `new Error(message)`.
    pub fn new(message: impl Into<JsString>) -> Self {
        JsError {
            message: message.into(),
        }
    }

    /// `new Error(str(x))` of a scripted message, with the empty message
    /// when `x` is absent (`new Error(undefined)`), as the harnesses build
    /// their errors.
    pub fn scripted(message: &Value) -> Self {
        match message {
            Value::Undefined => JsError::new(""),
            other => JsError::new(other.to_js_string()),
        }
    }
}

/// Returns early with `Err(JsError::new(js_concat!(parts…)))`: JavaScript's
/// `throw new Error(\`…\`)`.
#[macro_export]
macro_rules! throw {
    ($($part:expr),+ $(,)?) => {
        return Err($crate::JsError::new($crate::js_concat!($($part),+)))
    };
}
