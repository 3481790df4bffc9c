//! The benchmark batches of `scripts/bench.sh` and `scripts/bench-speed.sh`,
//! the same bytes on every machine. `main.rs` writes them to stdout;
//! `tests/parity_diff_reports_kept.rs` includes this file to run the
//! bench file's reports.

use std::io::{self, Write};

/// Which batch: `light` (eight cheap ops), `mixed` (every op, scratch
/// cases among them) or `one` (a single light case).
#[derive(Clone, Copy)]
pub enum Batch {
    Light,
    Mixed,
    One,
}

/// A small deterministic generator (xorshift), so the batches are the same
/// bytes on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const OPTIONS: &str = r#"{"kandanUrl":"https://kandan.example.com","token":"tok-4f9a2c","runnerId":"runner-17","kandanThreadId":"thread-9c1e","cwd":"/home/dev/project","codexBin":"codex""#;

fn light_case(rng: &mut Rng, n: u64) -> String {
    match rng.below(8) {
        0 => format!(
            r#"{{"op":"readyTimeoutMs","configured":{}}}"#,
            rng.below(700_000)
        ),
        1 => format!(
            r#"{{"op":"sessionClosedGuard","message":{{"type":"codex-session-closed","reason":"r{n}"}}}}"#
        ),
        2 => format!(r#"{{"op":"scriptPath","scriptPath":"../lib/w{n}.js","cwd":"/srv/app/x"}}"#),
        3 => format!(
            r#"{{"op":"redactedCliArgs","args":["thread-codex-worker","--token","s{n}","--cwd","/w"]}}"#
        ),
        4 => format!(
            r#"{{"op":"readyTimeoutError","kandanThreadId":"thread-{n}","timeoutMs":30000}}"#
        ),
        5 => format!(
            r#"{{"op":"stillborn","message":"Thread worker failed to start after {} attempts: x"}}"#,
            rng.below(10)
        ),
        6 => format!(
            r#"{{"op":"readyMessage","message":{{"type":"thread-codex-worker-ready","kandanThreadId":"t{n}","pid":{}}},"expectedKandanThreadId":"t{n}"}}"#,
            1 + rng.below(99_999)
        ),
        _ => format!(r#"{{"op":"boundedOutput","value":"worker {n} said hello\n"}}"#),
    }
}

fn mixed_case(rng: &mut Rng, n: u64) -> String {
    match rng.below(20) {
        0 if rng.below(2) == 0 => {
            // Scratch cases vary their directories, as a real corpus does.
            let mkdirs =
                ["[\"a/b\",\"c\"]", "[\"a\"]", "[\"w/x/y\",\"a/bc\"]", "[]"][rng.below(4) as usize];
            format!(
                r#"{{"op":"preflight","mkdirs":{mkdirs},"cwd":"$DIR/a/b","allowedCwds":["$DIR/a","$DIR/c"]}}"#
            )
        }
        0 => format!(
            r#"{{"op":"parseWorkerArgs","mkdirs":["w{}"],"args":["thread-codex-worker","--kandan-url","https://k","--token","t","--runner-id","r","--thread-id","t{n}","--cwd","$DIR/w0","--allowed-cwd","$DIR/w1"],"env":{{"LINZUMI_CODEX_BIN":"codex"}}}}"#,
            rng.below(2)
        ),
        1 => format!(
            r#"{{"op":"cliArgs","options":{OPTIONS},"allowedCwds":["/a","/b"],"runtimeDefaults":{{"model":"m{n}","effort":"high","n":[1,2.5,1e21]}}}}}}"#
        ),
        2 => format!(
            r#"{{"op":"envOverlay","options":{OPTIONS},"logFile":"/l{n}"}},"devServicesParentPid":{},"forwardableOpenAiApiKey":"sk"}}"#,
            1 + rng.below(9999)
        ),
        3 => format!(
            r#"{{"op":"nodeArgs","scriptPath":"/app/dist/index.js","args":["thread-codex-worker","--cwd","/w{n}"],"execArgv":["--import","tsx","--inspect","--no-warnings","--eval","x"]}}"#
        ),
        4 => format!(
            r#"{{"op":"respawn","maxAttempts":3,"script":[{{"kind":"exited","code":1,"capturedOutput":"boom {n}"}},{{"kind":"ready"}}]}}"#
        ),
        5 => format!(
            r#"{{"op":"liveness","schedule":[{{"op":"create","now":0}},{{"op":"pingSent","now":15000}},{{"op":"tick","now":25000}},{{"op":"verdict","now":25000}},{{"op":"pong","now":26000}},{{"op":"shouldSendPing","now":{}}}]}}"#,
            30000 + rng.below(10000)
        ),
        6 => format!(
            r#"{{"op":"outputRouting","pid":{},"script":[{{"step":"chunk","text":"line {n}\n","tuiActive":true,"captureActive":true}},{{"step":"route","tuiActive":false}}]}}"#,
            1 + rng.below(9999)
        ),
        7 => format!(
            r#"{{"op":"remoteConfig","json":"{{\"kandanUrl\":\"https://k.example/\",\"token\":\"t\",\"runnerId\":\"r{n}\",\"cwd\":\"/w\",\"labels\":{{\"a\":\"b\"}}}}"}}"#
        ),
        8 => format!(
            r#"{{"op":"ipcWorker","script":[{{"step":"parentMessage","message":{{"type":"codex-request","id":1,"method":"thread/read","params":{{"n":{n}}}}}}},{{"step":"notification","notification":{{"method":"x"}}}}]}}"#
        ),
        9 => format!(
            r#"{{"op":"ipcParent","requestHandlers":[{{"name":"h","kind":"answer","result":{{"ok":true}}}}],"script":[{{"step":"request","method":"m{n}"}},{{"step":"childMessage","message":{{"type":"codex-response","id":1,"result":{{"v":1}}}}}}]}}"#
        ),
        10 => format!(
            r#"{{"op":"exitBeforeReadyMessage","code":1,"capturedOutput":"  error {n}\n  at x\n"}}"#
        ),
        11 => format!(
            r#"{{"op":"remoteConfigEnv","env":{{"LINZUMI_KANDAN_URL":"https://k","LINZUMI_RUNNER_TOKEN":"t","LINZUMI_RUNNER_ID":"r{n}","LINZUMI_CWD":"/w","LINZUMI_ALLOWED_CWDS":"/a:/b"}}}}"#
        ),
        12 => format!(
            r#"{{"op":"remoteJoinPayload","config":{{"runnerId":"r{n}","cwd":"/w","labels":{{"zone":"eu"}}}}}}"#
        ),
        13 => format!(
            r#"{{"op":"preflightLine","capturedOutput":"x\nLINZUMI_WORKER_PREFLIGHT_FAILURE: no {n}\r\n"}}"#
        ),
        _ => light_case(rng, n),
    }
}

/// Writes `count` cases of `batch` (one for [`Batch::One`]) as a JSON
/// array, a case a line.
pub fn write_batch(batch: Batch, count: u64, out: &mut impl Write) -> io::Result<()> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let count = if matches!(batch, Batch::One) {
        1
    } else {
        count
    };
    out.write_all(b"[")?;
    for n in 0..count {
        if n > 0 {
            out.write_all(b",\n")?;
        }
        let case = match batch {
            Batch::Mixed => mixed_case(&mut rng, n),
            Batch::Light | Batch::One => light_case(&mut rng, n),
        };
        out.write_all(case.as_bytes())?;
    }
    out.write_all(b"]")
}
