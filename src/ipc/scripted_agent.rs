//! The scripted `codex` object (`scriptedCodex` in the reference): the
//! agent of the `ipcWorker` op (contract 4.20) and of the `ipc-child`
//! process mode (contract 5).

use std::collections::BTreeSet;

use super::worker::{Agent, ServerRequestTicket};
use js_exact::js_object;
use js_exact::{JsError, JsResult, JsString, Object, Value};

/// An agent that answers from a script and records what it sees.
#[derive(Clone, Debug, Default)]
pub struct ScriptedAgent {
    responses: Option<Object>,
    without_on_request: bool,
    trace: Vec<Value>,
    unsettled: BTreeSet<ServerRequestTicket>,
}

impl ScriptedAgent {
    /// The agent a `codex` spec describes: `{responses?, withoutOnRequest?}`.
    /// A spec that is not a JSON object (or is unset) scripts nothing.
    pub fn new(spec: &Value) -> Self {
        ScriptedAgent {
            responses: spec.get("responses").as_object().cloned(),
            without_on_request: matches!(spec.get("withoutOnRequest"), Value::Bool(true)),
            trace: Vec::new(),
            unsettled: BTreeSet::new(),
        }
    }

    /// What the agent has recorded, in order.
    pub fn trace(&self) -> &[Value] {
        &self.trace
    }

    /// The recorded trace, taken out.
    pub fn into_trace(self) -> Vec<Value> {
        self.trace
    }

    /// Notes that a server request emitted under `ticket` awaits its
    /// settlement (the `ipc-child` mode waits for all of a cue's).
    pub fn expect_settlement(&mut self, ticket: ServerRequestTicket) {
        self.unsettled.insert(ticket);
    }

    /// Whether the server request emitted under `ticket` has settled.
    pub fn is_settled(&self, ticket: ServerRequestTicket) -> bool {
        !self.unsettled.contains(&ticket)
    }

    /// `scriptedResponse`: the entry for `method` when `responses` has an
    /// own member of that name whose value is a JSON object.
    fn scripted(&self, method: &JsString) -> Option<&Value> {
        self.responses
            .as_ref()?
            .get_js(method)
            .filter(|entry| entry.is_object())
    }
}

impl Agent for ScriptedAgent {
    fn request(&mut self, method: &JsString, params: &Value) -> JsResult<Value> {
        self.trace.push(js_object! {
            "t" => "codexRequest",
            "method" => method,
            "params" => params.or(&Value::Null),
        });
        match self.scripted(method) {
            None => Ok(js_object! {
                "id" => 0.0,
                "result" => js_object! { "echoed" => method },
            }),
            Some(entry) => match entry.get("reject") {
                Value::Undefined => Ok(entry.get("response").clone()),
                reason => Err(JsError::scripted(reason)),
            },
        }
    }

    fn notify(&mut self, method: &JsString, params: &Value) {
        self.trace.push(js_object! {
            "t" => "codexNotify",
            "method" => method,
            "params" => params.or(&Value::Null),
        });
    }

    fn has_on_request(&self) -> bool {
        !self.without_on_request
    }

    fn server_request_settled(&mut self, ticket: ServerRequestTicket, outcome: JsResult<Value>) {
        self.unsettled.remove(&ticket);
        self.trace.push(match outcome {
            Ok(value) => js_object! {
                "t" => "serverRequestResolved",
                "value" => value.or(&Value::Null),
            },
            Err(error) => js_object! {
                "t" => "serverRequestRejected",
                "message" => error.message,
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};

    fn answer(spec: &str, method: &str) -> String {
        let mut agent = ScriptedAgent::new(&value(spec));
        match agent.request(&JsString::from(method), &Value::Undefined) {
            Ok(value) => json(&value),
            Err(error) => format!("reject {}", error.message),
        }
    }

    #[test]
    fn scripted_responses_rejections_and_echoes() {
        let spec = r#"{"responses":{"a":{"response":[1]},"b":{"reject":"no"},
            "c":{},"d":{"reject":null},"e":{"reject":{}},"f":5,"g":{"response":null,"reject":false}}}"#;
        assert_eq!(answer(spec, "a"), "[1]");
        assert_eq!(answer(spec, "b"), "reject no");
        assert_eq!(answer(spec, "c"), "null");
        assert_eq!(answer(spec, "d"), "reject null");
        assert_eq!(answer(spec, "e"), "reject [object Object]");
        assert_eq!(answer(spec, "f"), r#"{"id":0,"result":{"echoed":"f"}}"#);
        assert_eq!(answer(spec, "g"), "reject false");
        assert_eq!(
            answer(spec, "toString"),
            r#"{"id":0,"result":{"echoed":"toString"}}"#
        );
    }

    #[test]
    fn an_absent_response_resolves_undefined() {
        let mut agent = ScriptedAgent::new(&value(r#"{"responses":{"a":{}}}"#));
        let answer = agent.request(&JsString::from("a"), &Value::Undefined);
        assert_eq!(answer, Ok(Value::Undefined));
    }

    #[test]
    fn specs_that_script_nothing() {
        for spec in [
            "null",
            "7",
            r#""responses""#,
            "[]",
            r#"{"responses":[{"a":{"response":1}}]}"#,
        ] {
            assert_eq!(
                answer(spec, "a"),
                r#"{"id":0,"result":{"echoed":"a"}}"#,
                "{spec}"
            );
            assert!(ScriptedAgent::new(&value(spec)).has_on_request());
        }
    }

    #[test]
    fn without_on_request_only_when_exactly_true() {
        assert!(!ScriptedAgent::new(&value(r#"{"withoutOnRequest":true}"#)).has_on_request());
        assert!(ScriptedAgent::new(&value(r#"{"withoutOnRequest":"true"}"#)).has_on_request());
        assert!(ScriptedAgent::new(&value(r#"{"withoutOnRequest":1}"#)).has_on_request());
    }

    #[test]
    fn the_trace_records_params_or_null_and_settlements() {
        let mut agent = ScriptedAgent::new(&Value::Null);
        let _ = agent.request(&JsString::from("m"), &Value::Undefined);
        agent.notify(&JsString::from("n"), &value(r#"{"p":1}"#));
        agent.notify(&JsString::from("o"), &Value::Null);
        agent.expect_settlement(ServerRequestTicket(0));
        assert!(!agent.is_settled(ServerRequestTicket(0)));
        agent.server_request_settled(ServerRequestTicket(0), Ok(Value::Undefined));
        assert!(agent.is_settled(ServerRequestTicket(0)));
        agent.server_request_settled(ServerRequestTicket(1), Err(JsError::new("x")));
        assert_eq!(
            json(&Value::Array(agent.into_trace())),
            concat!(
                r#"[{"t":"codexRequest","method":"m","params":null},"#,
                r#"{"t":"codexNotify","method":"n","params":{"p":1}},"#,
                r#"{"t":"codexNotify","method":"o","params":null},"#,
                r#"{"t":"serverRequestResolved","value":null},"#,
                r#"{"t":"serverRequestRejected","message":"x"}]"#
            )
        );
    }
}
