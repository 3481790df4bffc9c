//! The shapes a result takes (contract 1.1).

use js_exact::{JsResult, JsString, Object, Value};

/// `{"threw":true,"message":m}`.
pub fn threw(message: impl Into<JsString>) -> Value {
    let mut object = Object::with_capacity(2);
    object.insert("threw", Value::Bool(true));
    object.insert("message", Value::String(message.into()));
    Value::Object(object)
}

/// The outcome of calling one function: `{"defined":false}` when it
/// returned `undefined`, `{"defined":true,"value":v}` when it returned `v`,
/// `{"threw":true,"message":m}` when it threw.
pub fn outcome(result: JsResult<Value>) -> Value {
    match result {
        Ok(Value::Undefined) => js_exact::js_object! { "defined" => false },
        Ok(value) => {
            let mut object = Object::with_capacity(2);
            object.insert("defined", Value::Bool(true));
            object.insert("value", value);
            Value::Object(object)
        }
        Err(error) => threw(error.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::json;
    use js_exact::JsError;

    #[test]
    fn the_three_outcomes() {
        assert_eq!(json(&outcome(Ok(Value::Undefined))), r#"{"defined":false}"#);
        assert_eq!(
            json(&outcome(Ok(Value::Null))),
            r#"{"defined":true,"value":null}"#
        );
        assert_eq!(
            json(&outcome(Err(JsError::new("boom")))),
            r#"{"threw":true,"message":"boom"}"#
        );
    }
}
