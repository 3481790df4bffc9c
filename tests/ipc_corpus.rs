//! The IPC halves at the contract's nesting limit, which the corpus tools
//! (Python's `json`) cannot carry. `tests/corpus.rs` checks the IPC case
//! files with the rest.

use crate::support;

use worker_spawn_oracle::batch::run_batch_bytes;

fn nested(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

/// A batch at the contract's limit (1000 levels, counting the batch
/// array), and the bytes the reference prints for it.
fn at_the_nesting_limit() -> (String, String) {
    let input = format!(
        concat!(
            r#"[{{"op":"ipcWorker","script":[{{"step":"notification","notification":{a}}}]}},"#,
            r#"{{"op":"ipcWorker","codex":{{"responses":{{"m":{{"response":{b}}}}}}},"script":[{{"step":"parentMessage","message":{{"type":"codex-request","id":1,"method":"m"}}}}]}},"#,
            r#"{{"op":"ipcParent","script":[{{"step":"childMessage","message":{{"type":"codex-notification","notification":{b}}}}}]}},"#,
            r#"{{"op":"ipcParent","script":[{{"step":"request","method":"m","params":{a}}}]}}]"#
        ),
        a = nested(996),
        b = nested(995)
    );
    let expected = format!(
        concat!(
            r#"[{{"sent":[{{"type":"codex-notification","notification":{a}}}],"trace":[]}},"#,
            r#"{{"sent":[{{"type":"codex-response","id":1,"result":{b}}}],"trace":[{{"t":"codexRequest","method":"m","params":null}}]}},"#,
            r#"{{"sent":[],"trace":[{{"t":"notification","notification":{b}}}]}},"#,
            r#"{{"sent":[{{"type":"codex-request","id":1,"method":"m","params":{a}}}],"trace":[]}}]"#
        ),
        a = nested(996),
        b = nested(995)
    );
    (input, expected)
}

#[test]
fn values_at_the_nesting_limit_pass_through_both_halves() {
    let (input, expected) = at_the_nesting_limit();
    let output = run_batch_bytes(input.as_bytes()).expect("the batch is not refused");
    assert!(
        output == expected.as_bytes(),
        "the nested values did not come back whole"
    );
}

/// The expected bytes above are the reference's.
#[test]
#[ignore = "needs REFERENCE_ORACLE"]
fn the_reference_prints_the_expected_bytes_at_the_nesting_limit() {
    let reference = support::require_reference();
    let (input, expected) = at_the_nesting_limit();
    let output = support::run_reference(&reference, input.as_bytes());
    assert_eq!(output.status.code(), Some(0), "the reference failed");
    assert!(
        output.stdout == expected.as_bytes(),
        "the reference disagrees with the expected bytes"
    );
}
