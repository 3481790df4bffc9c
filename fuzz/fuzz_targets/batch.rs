//! The batch entry on arbitrary bytes: never a panic; either a refusal,
//! which prints nothing, of input that is not a JSON array (or nests
//! deeper than the batch allows), or one result per case, in a JSON array
//! with nothing after it.
#![no_main]

use js_exact::{JsonReader, TextMode, Value};
use libfuzzer_sys::fuzz_target;
use parity_diff::judge::golden::split_elements;
use worker_spawn_oracle::batch::{run_batch, MAX_BATCH_DEPTH};

/// The cases, when the input is a JSON array the batch may read.
fn cases(data: &[u8]) -> Option<usize> {
    let mut reader =
        JsonReader::from_slice(data, TextMode::LossyUtf8).with_max_depth(MAX_BATCH_DEPTH);
    let value = reader.parse_value(0).ok()?;
    reader.expect_end().ok()?;
    match &value {
        Value::Array(cases) => Some(cases.len()),
        _ => None,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut output = Vec::new();
    let ran = run_batch(data, &mut output);
    let expected = cases(data);
    match ran {
        Ok(summary) => {
            let results = split_elements(&output).expect("a batch prints a JSON array");
            assert_eq!(
                output.last(),
                Some(&b']'),
                "nothing follows the result array"
            );
            assert_eq!(
                Some(summary.cases),
                expected,
                "the batch ran a case per element"
            );
            assert_eq!(results.len(), summary.cases, "one result per case");
        }
        Err(_) => {
            assert!(output.is_empty(), "a refused batch prints nothing");
            assert_eq!(
                expected, None,
                "a JSON array within the depth limit was refused"
            );
        }
    }
    worker_spawn_oracle::scratch::shape::release_thread_scratch();
});
