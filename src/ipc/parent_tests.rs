//! Unit tests of the parent half's state machine.

use super::*;
use crate::ipc::testing::Recorder;
use js_exact::js_object;
use js_exact::testing::json;

/// Handlers answer by their position in `answers`; everything lands in `log`.
#[derive(Default)]
struct Host {
    answers: Vec<HandlerAnswer>,
    log: Vec<String>,
}

impl ParentHost for Host {
    fn notification(&mut self, subscriber: SubscriberId, notification: &Value) {
        self.log.push(format!(
            "notification {} {}",
            subscriber.0,
            json(notification)
        ));
    }
    fn server_request(&mut self, handler: HandlerId, request: &Value) -> HandlerAnswer {
        self.log
            .push(format!("handler {} {}", handler.0, json(request)));
        self.answers
            .get(handler.0)
            .cloned()
            .unwrap_or(HandlerAnswer::Pass)
    }
    fn request_settled(&mut self, ticket: RequestTicket, outcome: JsResult<Value>) {
        self.log.push(match outcome {
            Ok(value) => format!("resolved {} {}", ticket.0, json(&value)),
            Err(error) => format!("rejected {} {}", ticket.0, error.message),
        });
    }
}

fn client(answers: Vec<HandlerAnswer>) -> ParentHalf<Recorder, Host> {
    let mut client = ParentHalf::connect(
        Recorder::default(),
        Host {
            answers,
            log: Vec::new(),
        },
    );
    for _ in 0..client.host().answers.len() {
        client.on_request();
    }
    client
}

fn sent(client: &ParentHalf<Recorder, Host>) -> Vec<String> {
    client.channel().sent.iter().map(json).collect()
}

fn log(client: &ParentHalf<Recorder, Host>) -> Vec<String> {
    client.host().log.clone()
}

fn response(id: f64) -> Value {
    js_object! { "type" => "codex-response", "id" => id, "result" => id }
}

#[test]
fn requests_get_ids_and_settle_by_id() {
    let mut client = client(vec![]);
    assert_eq!(
        client.request(Value::from("a"), Value::Undefined),
        RequestTicket(0)
    );
    assert_eq!(
        client.request(Value::from("b"), js_object! { "p" => 1.0 }),
        RequestTicket(1)
    );
    assert_eq!(
        sent(&client),
        [
            r#"{"type":"codex-request","id":1,"method":"a"}"#,
            r#"{"type":"codex-request","id":2,"method":"b","params":{"p":1}}"#
        ]
    );
    for stranger in [0.0, -0.0, 1.5, 3.0, f64::INFINITY] {
        client.on_message(&response(stranger));
    }
    client.on_message(&response(2.0));
    assert!(log(&client).is_empty());
    client.run_completions();
    assert_eq!(log(&client), ["resolved 1 2"]);
    client.on_message(&response(2.0));
    client.on_message(&js_object! { "type" => "codex-response", "id" => 1.0, "error" => "x" });
    client.run_completions();
    assert_eq!(log(&client)[1], "rejected 0 codex request failed");
    assert_eq!(client.pending_requests(), 0);
}

#[test]
fn refused_requests_use_no_id_but_failed_sends_do() {
    let mut client = client(vec![]);
    client.channel_mut().disconnected = true;
    client.request(Value::from("a"), Value::Undefined);
    client.channel_mut().disconnected = false;
    client.channel_mut().failure = Some("pipe");
    client.request(Value::from("b"), Value::Undefined);
    client.channel_mut().failure = None;
    client.request(Value::from("c"), Value::Undefined);
    client.run_completions();
    assert_eq!(
        log(&client),
        [
            "rejected 0 thread worker IPC is not connected",
            "rejected 1 thread worker IPC send failed: pipe"
        ]
    );
    assert_eq!(
        sent(&client),
        [r#"{"type":"codex-request","id":2,"method":"c"}"#]
    );
}

#[test]
fn notify_throws_synchronously() {
    let mut client = client(vec![]);
    assert_eq!(client.notify(Value::from("n"), Value::Undefined), Ok(()));
    client.channel_mut().failure = Some("");
    assert_eq!(
        client.notify(Value::from("n"), Value::Undefined),
        Err(JsError::new("thread worker IPC send failed: "))
    );
    client.channel_mut().disconnected = true;
    assert_eq!(
        client.notify(Value::from("n"), Value::Undefined),
        Err(JsError::new(NOT_CONNECTED))
    );
    client.close();
    assert_eq!(
        client.notify(Value::from("n"), Value::Undefined),
        Err(JsError::new(CLOSED))
    );
    assert!(!client.has_completions());
    assert_eq!(sent(&client), [r#"{"type":"codex-notify","method":"n"}"#]);
}

#[test]
fn notifications_reach_current_subscribers_only() {
    let mut client = client(vec![]);
    let notification = js_object! { "type" => "codex-notification", "notification" => 1.0 };
    client.on_message(&notification);
    client.on_notification();
    client.on_message(&notification);
    client.on_notification();
    client.on_message(&js_object! { "type" => "codex-notification" });
    assert_eq!(
        log(&client),
        [
            "notification 0 1",
            "notification 0 null",
            "notification 1 null"
        ]
    );
}

#[test]
fn handler_chains_answer_after_the_step() {
    let mut client = client(vec![
        HandlerAnswer::Pass,
        HandlerAnswer::Resolve(Value::Null),
        HandlerAnswer::Reject(JsError::new("unused")),
    ]);
    client.on_message(&js_object! {
        "type" => "codex-server-request", "id" => 7.0, "request" => js_object! { "method" => "m" }
    });
    assert_eq!(
        log(&client),
        [r#"handler 0 {"method":"m"}"#, r#"handler 1 {"method":"m"}"#]
    );
    assert!(sent(&client).is_empty());
    client.run_completions();
    assert_eq!(
        sent(&client),
        [r#"{"type":"codex-server-response","id":7,"result":null}"#]
    );
}

#[test]
fn rejections_and_the_no_handler_answer() {
    let mut client = client(vec![HandlerAnswer::Reject(JsError::new("no"))]);
    client.on_message(&js_object! { "type" => "codex-server-request", "id" => 1.0 });
    client.run_completions();
    let mut bare = self::client(vec![HandlerAnswer::Pass]);
    for request in [
        js_object! { "method" => "m" },
        js_object! { "method" => 5.0 },
        Value::Undefined,
    ] {
        bare.on_message(&js_object! {
            "type" => "codex-server-request", "id" => 2.0, "request" => request
        });
    }
    bare.run_completions();
    assert_eq!(
        sent(&client),
        [r#"{"type":"codex-server-response","id":1,"error":{"message":"no"}}"#]
    );
    assert_eq!(
        sent(&bare),
        [
            r#"{"type":"codex-server-response","id":2,"error":{"message":"no handler for server request m"}}"#,
            r#"{"type":"codex-server-response","id":2,"error":{"message":"no handler for server request unknown"}}"#,
            r#"{"type":"codex-server-response","id":2,"error":{"message":"no handler for server request unknown"}}"#
        ]
    );
}

#[test]
fn the_first_close_wins_and_rejects_pending_in_id_order() {
    let mut client = client(vec![]);
    client.request(Value::from("a"), Value::Undefined);
    client.request(Value::from("b"), Value::Undefined);
    client.on_message(&js_object! { "type" => "codex-session-closed", "reason" => 3.0 });
    client.on_exit();
    client.close();
    assert!(client.is_closed());
    assert_eq!(
        client.close_reason(),
        Some(&JsString::from("thread worker session closed: unknown"))
    );
    client.run_completions();
    assert_eq!(
        log(&client),
        [
            "rejected 0 thread worker session closed: unknown",
            "rejected 1 thread worker session closed: unknown"
        ]
    );
    client.request(Value::from("c"), Value::Undefined);
    client.run_completions();
    assert_eq!(
        log(&client)[2],
        "rejected 2 thread worker session closed: unknown"
    );
}

#[test]
fn after_exit_messages_still_arrive_but_responses_are_lost() {
    let mut client = client(vec![HandlerAnswer::Resolve(Value::Null)]);
    client.on_exit();
    client.on_message(&js_object! { "type" => "codex-notification", "notification" => 1.0 });
    client.on_message(&js_object! { "type" => "codex-server-request", "id" => 1.0 });
    client.run_completions();
    assert_eq!(log(&client), ["handler 0 null"]);
    assert!(sent(&client).is_empty());
    client.on_notification();
    client.on_message(&js_object! { "type" => "codex-notification", "notification" => 2.0 });
    assert_eq!(log(&client)[1], "notification 0 2");
}

#[test]
fn close_stops_listening_and_events_fire_once() {
    let mut client = client(vec![]);
    client.on_notification();
    client.on_disconnect();
    assert_eq!(client.close_reason(), Some(&JsString::from(DISCONNECTED)));
    client.close();
    client.on_message(&js_object! { "type" => "codex-notification", "notification" => 1.0 });
    assert!(log(&client).is_empty());

    let mut exited = self::client(vec![]);
    exited.on_exit();
    exited.on_disconnect();
    assert_eq!(exited.close_reason(), Some(&JsString::from(EXITED)));
}
