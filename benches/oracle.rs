//! Per-case costs of the oracle's layers (divan): reading a case, running
//! an op, printing a result, and a whole one-case batch. `scripts/bench.sh`
//! measures whole batches against the serde_json floor; these numbers show
//! where a regression comes from.
//!
//!     cargo bench --bench oracle

use js_exact::{parse, to_json, TextMode, Value};
use worker_spawn_oracle::batch::run_batch_bytes;
use worker_spawn_oracle::ops::run_op;

fn main() {
    divan::main();
}

/// One case per kind of work: light, string-heavy, stateful, IPC, scratch.
const CASES: &[(&str, &str)] = &[
    (
        "readyTimeoutMs",
        r#"{"op":"readyTimeoutMs","configured":2500.5}"#,
    ),
    (
        "cliArgs",
        r#"{"op":"cliArgs","options":{"kandanUrl":"https://k.test","token":"t","runnerId":"r","kandanThreadId":"th","cwd":"/w","codexBin":"codex","allowedCwds":["/a","/b"],"allowedForwardPorts":[80,443],"runtimeDefaults":{"model":"m","2":[1.5,1e21],"1":"x"}}}"#,
    ),
    (
        "liveness",
        r#"{"op":"liveness","schedule":[{"op":"create","now":0},{"op":"pingSent","now":15000},{"op":"tick","now":25000},{"op":"verdict","now":25000},{"op":"pong","now":26000},{"op":"shouldSendPing","now":41000}]}"#,
    ),
    (
        "ipcParent",
        r#"{"op":"ipcParent","requestHandlers":[{"name":"h","kind":"answer","result":{"ok":true}}],"script":[{"step":"request","method":"m","params":{"a":1}},{"step":"childMessage","message":{"type":"codex-server-request","id":4,"request":{"method":"x"}}},{"step":"childMessage","message":{"type":"codex-response","id":1,"result":{"v":1}}},{"step":"close"}]}"#,
    ),
    (
        "preflight",
        r#"{"op":"preflight","mkdirs":["a/b","c"],"cwd":"$DIR/a/b","allowedCwds":["$DIR/a","$DIR/c"]}"#,
    ),
];

fn case(name: &str) -> &'static str {
    CASES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .expect("a known case")
}

const NAMES: &[&str] = &[
    "readyTimeoutMs",
    "cliArgs",
    "liveness",
    "ipcParent",
    "preflight",
];

#[divan::bench(args = NAMES)]
fn read_case(name: &str) -> Value {
    parse(divan::black_box(case(name)).as_bytes(), TextMode::LossyUtf8).unwrap()
}

#[divan::bench(args = NAMES)]
fn run_the_op(bencher: divan::Bencher, name: &str) {
    let value = parse(case(name).as_bytes(), TextMode::LossyUtf8).unwrap();
    bencher.bench_local(|| run_op(divan::black_box(&value)));
}

#[divan::bench(args = NAMES)]
fn print_result(bencher: divan::Bencher, name: &str) {
    let result = run_op(&parse(case(name).as_bytes(), TextMode::LossyUtf8).unwrap());
    bencher.bench_local(|| to_json(divan::black_box(&result)));
}

#[divan::bench(args = NAMES)]
fn one_case_batch(bencher: divan::Bencher, name: &str) {
    let batch = format!("[{}]", case(name));
    bencher.bench_local(|| run_batch_bytes(divan::black_box(batch.as_bytes())).unwrap());
}
