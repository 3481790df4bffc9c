//! The IPC case files against their goldens (made by the reference), and
//! the nesting limit, which the corpus tools cannot carry.

use std::path::Path;

use worker_spawn_oracle::batch::run_batch_bytes;
use worker_spawn_oracle::diff::golden::golden_from_output;

/// Values nest up to 1000 levels; running and printing them recurses, so
/// the batch runs on a thread with room for that, as the binary's does.
fn run_on_big_stack(input: Vec<u8>) -> Vec<u8> {
    std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(move || run_batch_bytes(&input).expect("the batch is not refused"))
        .expect("the batch thread starts")
        .join()
        .expect("the batch thread does not panic")
}

fn check_corpus(name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = std::fs::read(root.join("cases").join(format!("{name}.json"))).unwrap();
    let golden = std::fs::read(root.join("golden").join(format!("{name}.json"))).unwrap();
    let output = run_on_big_stack(cases);
    let ours = golden_from_output(&output).expect("the output is an array");
    if ours != golden {
        let ours = String::from_utf8_lossy(&ours);
        let golden = String::from_utf8_lossy(&golden);
        for (at, (a, b)) in ours.lines().zip(golden.lines()).enumerate() {
            assert_eq!(a, b, "{name}: golden line {}", at + 1);
        }
        panic!("{name}: the outputs differ in length");
    }
}

#[test]
fn ipc_worker_corpus_matches_its_golden() {
    check_corpus("ipc-worker");
}

#[test]
fn ipc_parent_corpus_matches_its_golden() {
    check_corpus("ipc-parent");
}

fn nested(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

/// Input at the contract's limit (1000 levels, counting the batch array):
/// the expected bytes were compared with the reference's output once, by
/// hand, since the corpus tools (Python's `json`) refuse such depth.
#[test]
fn values_at_the_nesting_limit_pass_through_both_halves() {
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
    let output = run_on_big_stack(input.into_bytes());
    assert!(
        output == expected.as_bytes(),
        "the nested values did not come back whole"
    );
}
