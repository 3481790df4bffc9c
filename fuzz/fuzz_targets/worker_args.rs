//! The worker's argv parser on arbitrary argument lists (NUL-separated
//! strings) and environments: never a panic, and what it accepts renders
//! with `cliArgs`-shaped output.
#![no_main]

use libfuzzer_sys::fuzz_target;
use worker_spawn_oracle::js::{to_json, JsString, Object, Value};
use worker_spawn_oracle::ops::worker_args::parse_worker_args;

fuzz_target!(|data: &[u8]| {
    let (args_part, env_part) = match data.iter().position(|&b| b == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let strings = |part: &[u8]| -> Vec<JsString> {
        part.split(|&b| b == 0).map(|s| JsString::from(String::from_utf8_lossy(s).as_ref())).collect()
    };
    let args = Value::Array(strings(args_part).into_iter().map(Value::String).collect());
    let mut env = Object::new();
    for pair in strings(env_part) {
        let text = pair.to_string();
        if let Some((name, value)) = text.split_once('=') {
            env.insert(name, Value::from(value));
        }
    }
    let directories = |path: &JsString| path.starts_with("/") && path.len_utf16() % 2 == 0;
    if let Ok(parsed) = parse_worker_args(&args, &env, &directories) {
        let _ = to_json(&parsed.to_value());
    }
});
