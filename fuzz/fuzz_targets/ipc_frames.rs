//! The IPC frame reader and both halves on arbitrary messages: a frame
//! that is read prints as an object that reads back as the same frame;
//! the scripted harnesses get one message per JSON line, never panic, and
//! answer with their `{"sent":[…],"trace":[…]}` result.
#![no_main]

use js_exact::{parse, to_json, TextMode, Value};
use libfuzzer_sys::fuzz_target;
use worker_spawn_oracle::ipc::frame::Frame;
use worker_spawn_oracle::ops::run_op;

/// Asserts that a harness answered with its result shape.
fn assert_result(op: &str, result: &Value) {
    assert!(
        result.get("sent").as_array().is_some() && result.get("trace").as_array().is_some(),
        "{op} answered {}",
        String::from_utf8_lossy(&to_json(result))
    );
}

fuzz_target!(|data: &[u8]| {
    let messages: Vec<Value> = data
        .split(|&b| b == b'\n')
        .filter_map(|line| parse(line, TextMode::LossyUtf8).ok())
        .collect();
    for message in &messages {
        if let Some(frame) = Frame::parse(message) {
            let printed = frame.to_value();
            assert_eq!(
                Frame::parse(&printed),
                Some(frame),
                "a printed frame reads back"
            );
        }
    }
    let steps = |kind: &str| -> Value {
        Value::Array(
            messages
                .iter()
                .map(
                    |message| js_exact::js_object! { "step" => kind, "message" => message.clone() },
                )
                .collect(),
        )
    };
    let worker = js_exact::js_object! { "op" => "ipcWorker", "script" => steps("parentMessage") };
    let parent = js_exact::js_object! { "op" => "ipcParent", "script" => steps("childMessage") };
    assert_result("ipcWorker", &run_op(&worker));
    assert_result("ipcParent", &run_op(&parent));
});
