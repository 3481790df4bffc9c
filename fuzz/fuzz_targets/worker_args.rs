//! The worker's argv parser on arbitrary argument lists (NUL-separated
//! strings) and environments: never a panic, and what it accepts is
//! `cliArgs`-shaped: rendering the parsed options with `cliArgs` gives an
//! argv that parses, without the environment, to the same options. Only
//! an option given with an empty value (which the parser accepts and
//! `cliArgs` refuses) stops the round trip, and then `cliArgs` names it.
#![no_main]

use js_exact::{to_json, JsStr, JsString, Object, Value};
use libfuzzer_sys::fuzz_target;
use worker_spawn_oracle::ops::argv::cli_args;
use worker_spawn_oracle::ops::worker_args::{parse_worker_args, WorkerArgs};

/// The parsed options as `cliArgs` takes them: every allowed cwd given,
/// found or not.
fn as_options(parsed: &WorkerArgs) -> Value {
    let mut options = parsed
        .to_value()
        .into_object()
        .expect("to_value makes an object");
    let cwds = parsed
        .allowed_cwds
        .iter()
        .chain(&parsed.missing_allowed_cwds);
    options.insert("allowedCwds", Value::Array(cwds.map(Value::from).collect()));
    Value::Object(options)
}

/// The string options that are set to the empty string, by field name.
fn empty_strings(options: &Value) -> Vec<String> {
    options
        .as_object()
        .into_iter()
        .flat_map(Object::iter)
        .filter(|(_, value)| value.as_js_string().is_some_and(JsString::is_empty))
        .map(|(field, _)| field.to_string())
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let (args_part, env_part) = match data.iter().position(|&b| b == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let strings = |part: &[u8]| -> Vec<JsString> {
        part.split(|&b| b == 0)
            .map(|s| JsString::from(String::from_utf8_lossy(s).as_ref()))
            .collect()
    };
    let args = Value::Array(strings(args_part).into_iter().map(Value::String).collect());
    let mut env = Object::new();
    for pair in strings(env_part) {
        let text = pair.to_string();
        if let Some((name, value)) = text.split_once('=') {
            env.insert(name, Value::from(value));
        }
    }
    let directories = |path: JsStr<'_>| path.starts_with("/") && path.len_utf16() % 2 == 0;
    let Ok(parsed) = parse_worker_args(&args, &env, &directories) else {
        return;
    };
    let options = as_options(&parsed);
    let empty = empty_strings(&options);
    match cli_args(&options) {
        Ok(argv) => {
            assert!(empty.is_empty(), "cliArgs accepted empty {empty:?}");
            eprintln!("PROBE round trip");
            let argv = Value::Array(argv.into_iter().map(Value::String).collect());
            let again = parse_worker_args(&argv, &Object::new(), &directories)
                .unwrap_or_else(|error| panic!("cliArgs's argv does not parse: {}", error.message));
            // Compared as printed: a runtime default of 1e400 is Infinity
            // in both, and prints null in both.
            assert_eq!(
                String::from_utf8_lossy(&to_json(&again.to_value())),
                String::from_utf8_lossy(&to_json(&parsed.to_value())),
                "the options do not survive cliArgs"
            );
        }
        Err(error) => {
            let message = error.message.to_string();
            eprintln!("PROBE refused: {message}");
            assert!(
                empty
                    .iter()
                    .any(|field| message.contains(&format!(" {field} must be a non-empty string"))),
                "cliArgs refused parsed options for another reason: {message} (empty: {empty:?})"
            );
        }
    }
});
