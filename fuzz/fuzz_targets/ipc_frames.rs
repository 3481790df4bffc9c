//! The IPC frame reader and both halves on arbitrary messages: the
//! scripted harnesses get one message per JSON line, never panic, and a
//! frame that is read prints back as a frame of the same type.
#![no_main]

use libfuzzer_sys::fuzz_target;
use worker_spawn_oracle::ipc::frame::Frame;
use worker_spawn_oracle::js::{parse, to_json, TextMode, Value};
use worker_spawn_oracle::ops::run_op;

fuzz_target!(|data: &[u8]| {
    let messages: Vec<Value> = data
        .split(|&b| b == b'\n')
        .filter_map(|line| parse(line, TextMode::LossyUtf8).ok())
        .collect();
    for message in &messages {
        if let Some(frame) = Frame::parse(message) {
            let printed = frame.to_value();
            let reread = Frame::parse(&printed).expect("a printed frame reads back");
            assert_eq!(reread.type_name(), frame.type_name());
            let _ = to_json(&printed);
        }
    }
    let steps = |kind: &str| -> Value {
        Value::Array(
            messages
                .iter()
                .map(|message| worker_spawn_oracle::js_object! { "step" => kind, "message" => message.clone() })
                .collect(),
        )
    };
    let worker = worker_spawn_oracle::js_object! { "op" => "ipcWorker", "script" => steps("parentMessage") };
    let parent = worker_spawn_oracle::js_object! { "op" => "ipcParent", "script" => steps("childMessage") };
    let _ = to_json(&run_op(&worker));
    let _ = to_json(&run_op(&parent));
});
