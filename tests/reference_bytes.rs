//! Byte-level input against the reference oracle: batches whose strings
//! hold arbitrary bytes (invalid UTF-8 included, cut anywhere, batches
//! larger than Node's 64 KiB read chunks) must give the same stdout and
//! exit status from both implementations. Needs `REFERENCE_ORACLE`.

use crate::support;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Bytes that may stand inside a JSON string literal: anything but `"`,
/// `\` and ASCII controls, with invalid UTF-8 made likely.
fn string_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        3 => 0x20u8..0x7F,
        3 => 0x80u8..=0xFF,
        1 => prop::sample::select(vec![0xE2u8, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0xC3, 0xA9]),
    ]
    .prop_filter("not a quote or backslash", |b| *b != b'"' && *b != b'\\');
    proptest::collection::vec(byte, 0..40)
}

fn batch() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec((string_bytes(), string_bytes(), 0usize..3), 1..3000).prop_map(|cases| {
        let mut batch = b"[".to_vec();
        for (at, (text, key, shape)) in cases.into_iter().enumerate() {
            if at > 0 {
                batch.extend_from_slice(b",\n");
            }
            let fields: &[&[u8]] = match shape {
                0 => &[b"{\"op\":\"boundedOutput\",\"value\":\"", &text, b"\"}"],
                1 => &[b"{\"op\":\"readyTimeoutError\",\"kandanThreadId\":\"", &text, b"\",\"timeoutMs\":1}"],
                _ => &[b"{\"op\":\"cliArgs\",\"options\":{\"kandanUrl\":\"u\",\"token\":\"t\",\"runnerId\":\"r\",\"kandanThreadId\":\"", &text,
                        b"\",\"cwd\":\"/c\",\"codexBin\":\"b\",\"runtimeDefaults\":{\"", &key, b"\":\"", &text, b"\"}}}"],
            };
            for part in fields {
                batch.extend_from_slice(part);
            }
        }
        batch.push(b']');
        batch
    })
}

#[test]
#[ignore = "needs REFERENCE_ORACLE"]
fn arbitrary_bytes_in_strings_decode_as_node_decodes_them() {
    let reference = support::require_reference();
    let mut runner = TestRunner::new(Config {
        cases: 6,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&batch(), |input| {
            let expected = support::run_reference(&reference, &input);
            let ours = support::run_oracle(&input);
            prop_assert_eq!(ours.status.code(), expected.status.code());
            if ours.stdout != expected.stdout {
                let ours = support::elements(&ours.stdout);
                let expected = support::elements(&expected.stdout);
                let first = ours.iter().zip(&expected).position(|(a, b)| a != b);
                prop_assert!(
                    false,
                    "first difference at case {:?}: ours {:?} reference {:?}",
                    first,
                    first.map(|i| String::from_utf8_lossy(&ours[i]).into_owned()),
                    first.map(|i| String::from_utf8_lossy(&expected[i]).into_owned())
                );
            }
            Ok(())
        })
        .unwrap();
}

#[test]
#[ignore = "needs REFERENCE_ORACLE"]
fn truncated_and_damaged_batches_are_refused_alike() {
    let reference = support::require_reference();
    let whole = br#"[{"op":"boundedOutput","value":"a\u00e9\ud800"},{"op":"readyTimeoutMs","configured":2500}]"#;
    let mut inputs: Vec<Vec<u8>> = (0..whole.len()).map(|cut| whole[..cut].to_vec()).collect();
    inputs.extend([
        b"\xef\xbb\xbf[]".to_vec(),
        b"[]\xff".to_vec(),
        b"[\xff]".to_vec(),
        b" ".to_vec(),
        b"{}".to_vec(),
        b"\"x\"".to_vec(),
        b"[] []".to_vec(),
    ]);
    for input in inputs {
        let expected = support::run_reference(&reference, &input);
        let ours = support::run_oracle(&input);
        assert_eq!(
            ours.status.code(),
            expected.status.code(),
            "{:?}",
            String::from_utf8_lossy(&input)
        );
        assert_eq!(
            ours.stdout,
            expected.stdout,
            "{:?}",
            String::from_utf8_lossy(&input)
        );
    }
}
