//! The batch entry on arbitrary bytes: never a panic; either a refusal or
//! one result per case, in a JSON array.
#![no_main]

use libfuzzer_sys::fuzz_target;
use worker_spawn_oracle::batch::run_batch;
use worker_spawn_oracle::diff::golden::split_elements;

fuzz_target!(|data: &[u8]| {
    let mut output = Vec::new();
    if run_batch(data, &mut output).is_ok() {
        split_elements(&output).expect("a batch prints a JSON array");
    } else {
        assert!(output.is_empty(), "a refused batch prints nothing");
    }
    worker_spawn_oracle::scratch::shape::release_thread_scratch();
});
