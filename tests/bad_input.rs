//! The bad-input matrix: what the oracle binary does with input that is
//! malformed, hostile or huge. Each row states the exit status, stdout and
//! what stderr says.

use crate::support;

use std::io::Write;
use std::process::{Command, Stdio};

use support::run_oracle;

/// Runs the binary and checks a refusal: exit 2, empty stdout, one stderr
/// line containing `says`.
fn assert_refused(input: &[u8], says: &str) {
    let output = run_oracle(input);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(output.stdout.is_empty(), "stdout must stay empty");
    assert_eq!(stderr.lines().count(), 1, "one line on stderr: {stderr:?}");
    assert!(
        stderr.contains(says),
        "stderr {stderr:?} should say {says:?}"
    );
}

/// Runs the binary and checks it printed `expected` exactly, with exit 0
/// and nothing on stderr.
fn assert_prints(input: &[u8], expected: &[u8]) {
    let output = run_oracle(input);
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stdout == expected,
        "got {}",
        String::from_utf8_lossy(&output.stdout[..output.stdout.len().min(300)])
    );
}

const NOT_OBJECT: &str = r#"{"threw":true,"message":"case must be a JSON object"}"#;

#[test]
fn empty_and_blank_input_is_refused() {
    assert_refused(b"", "not valid JSON");
    assert_refused(b" \n\t\r ", "not valid JSON");
}

#[test]
fn truncated_json_is_refused() {
    for input in [
        &b"["[..],
        b"[{",
        b"[{\"op\":",
        b"[{\"op\":\"x\"}",
        b"[{\"op\":\"x\"},",
        b"[\"abc",
        b"[1e",
        b"[tru",
    ] {
        assert_refused(input, "not valid JSON");
    }
}

#[test]
fn trailing_garbage_is_refused() {
    assert_refused(b"[] x", "not valid JSON");
    assert_refused(b"[][]", "not valid JSON");
    assert_refused(b"[{\"op\":\"x\"}] ,", "not valid JSON");
    assert_refused(b"[]\x00", "not valid JSON");
}

#[test]
fn top_level_values_that_are_not_arrays_are_refused() {
    for input in [
        &b"{}"[..],
        b"{\"op\":\"cliArgs\"}",
        b"\"[]\"",
        b"42",
        b"-0",
        b"null",
        b"true",
    ] {
        assert_refused(input, "not a JSON array");
    }
}

#[test]
fn a_byte_order_mark_is_not_white_space() {
    assert_refused(b"\xef\xbb\xbf[]", "not valid JSON");
}

#[test]
fn invalid_utf8_is_decoded_as_node_decodes_it() {
    assert_prints(
        b"[{\"op\":\"boundedOutput\",\"value\":\"a\xffb\xed\xa0\x80c\xe2\x82\"}]",
        "[{\"defined\":true,\"value\":\"a\u{FFFD}b\u{FFFD}\u{FFFD}\u{FFFD}c\u{FFFD}\"}]".as_bytes(),
    );
    assert_refused(b"[\xff]", "not valid JSON");
}

#[test]
fn lone_surrogate_escapes_are_carried_through() {
    assert_prints(
        br#"[{"op":"boundedOutput","value":"\ud800x\uDFFF\ud83d\ude00"}]"#,
        "[{\"defined\":true,\"value\":\"\\ud800x\\udfff😀\"}]".as_bytes(),
    );
}

#[test]
fn nesting_of_1000_levels_works() {
    // The batch array plus 999 levels inside it.
    let input = format!("[{}{}]", "[".repeat(998), "]".repeat(998));
    let mut expected = b"[".to_vec();
    expected.extend_from_slice(NOT_OBJECT.as_bytes());
    expected.push(b']');
    assert_prints(input.as_bytes(), &expected);
    let deep_member = format!(
        r#"[{{"op":"readyMessage","expectedKandanThreadId":"t","message":{{"type":"thread-codex-worker-ready","kandanThreadId":"t","protocolVersion":{}1{}}}}}]"#,
        "[".repeat(990),
        "]".repeat(990)
    );
    let output = run_oracle(deep_member.as_bytes());
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        r#"[{"threw":true,"message":"unsupported worker protocol version 1"}]"#
    );
}

#[test]
fn nesting_of_100000_levels_is_refused_without_a_stack_overflow() {
    let input = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_refused(input.as_bytes(), "nesting deeper than");
    let objects = format!("[{}1{}]", "{\"a\":".repeat(100_000), "}".repeat(100_000));
    assert_refused(objects.as_bytes(), "nesting deeper than");
}

#[test]
fn a_100_mb_string_is_handled() {
    let mut input = br#"[{"op":"boundedOutput","value":""#.to_vec();
    input.extend(std::iter::repeat_n(b'x', 100 * 1024 * 1024));
    input.extend_from_slice(br#""},{"op":"readyTimeoutMs"}]"#);
    let output = run_oracle(&input);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with(&format!(
        "[{{\"defined\":true,\"value\":\"\u{2026}[{} characters omitted]\\nxxx",
        100 * 1024 * 1024 - 4000
    )));
    assert!(text.ends_with(r#"xxx"},{"defined":true,"value":30000}]"#));
}

#[test]
fn a_million_element_array_is_handled() {
    let mut input = b"[".to_vec();
    for at in 0..1_000_000 {
        if at > 0 {
            input.push(b',');
        }
        input.push(b'0');
    }
    input.push(b']');
    let output = run_oracle(&input);
    assert_eq!(output.status.code(), Some(0));
    let results = support::elements(&output.stdout);
    assert_eq!(results.len(), 1_000_000);
    assert!(results.iter().all(|result| result == NOT_OBJECT.as_bytes()));
}

#[test]
fn extreme_numbers_print_as_javascript_prints_them() {
    assert_prints(
        br#"[{"op":"readyTimeoutError","kandanThreadId":[1e400,-1e400,-0,1e21,12345678901234567890],"timeoutMs":-0}]"#,
        br#"[{"defined":true,"value":"Thread worker for Infinity,-Infinity,0,1e+21,12345678901234567000 did not send ready within 0ms"}]"#,
    );
    assert_prints(
        br#"[{"op":"cliArgs","options":{"kandanUrl":"u","token":"t","runnerId":"r","kandanThreadId":"i","cwd":"/","codexBin":"c","runtimeDefaults":{"a":[1e400,-0,5e-324]}}}]"#,
        br#"[{"defined":true,"value":["thread-codex-worker","--kandan-url","u","--token","t","--runner-id","r","--thread-id","i","--cwd","/","--codex-bin","c","--runtime-defaults","{\"a\":[null,0,5e-324]}"]}]"#,
    );
}

#[test]
fn cases_that_are_not_objects_or_lack_an_op_get_their_own_results() {
    let expected = format!(
        r#"[{NOT_OBJECT},{NOT_OBJECT},{NOT_OBJECT},{{"threw":true,"message":"unknown op undefined"}},{{"defined":true,"value":30000}}]"#
    );
    assert_prints(
        br#"[null,[],[{"op":"readyTimeoutMs"}],{},{"op":"readyTimeoutMs"}]"#,
        expected.as_bytes(),
    );
}

#[test]
fn a_closed_stdout_ends_the_process_quietly() {
    let mut input = b"[".to_vec();
    for at in 0..300_000 {
        if at > 0 {
            input.push(b',');
        }
        input.extend_from_slice(br#"{"op":"readyTimeoutMs","configured":2500}"#);
    }
    input.push(b']');
    let mut child = Command::new(support::oracle_binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    // Read nothing and close the pipe, as `| head -c 0` would.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(output.status.code(), Some(0));
}
