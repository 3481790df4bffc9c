//! The stateful and file-system ops seen from outside the process: the
//! host environment never reaches a result, and scratch directories are
//! made under the system temporary directory and never left behind.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs the oracle binary on a batch with extra environment variables,
/// and returns its stdout (it must exit 0).
fn run_oracle(batch: &str, env: &[(&str, &str)]) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"));
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("the oracle starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(batch.as_bytes())
        .expect("the batch is written");
    let output = child.wait_with_output().expect("the oracle finishes");
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// The names in a directory that scratch directories would have.
fn scratch_leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("the temporary directory is readable")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.starts_with("linzumi-worker-spawn-oracle-"))
        .collect()
}

#[test]
fn the_host_environment_never_reaches_parse_worker_args() {
    let batch = r#"[
        {"op":"parseWorkerArgs","args":["thread-codex-worker","--thread-id","t","--cwd","$DIR"]},
        {"op":"parseWorkerArgs","args":["thread-codex-worker","--kandan-url","k","--token","t","--runner-id","r","--thread-id","t","--cwd","$DIR"]},
        {"op":"parseWorkerArgs","args":["thread-codex-worker","--thread-id","t","--cwd","$DIR"],"env":{"LINZUMI_KANDAN_URL":"case-url","LINZUMI_RUNNER_TOKEN":"case-token"}}
    ]"#;
    let host = [
        ("LINZUMI_KANDAN_URL", "https://host.example"),
        ("LINZUMI_RUNNER_TOKEN", "host-token"),
        ("LINZUMI_RUNNER_ID", "host-runner"),
        ("LINZUMI_WORKSPACE", "host-workspace"),
        ("LINZUMI_CODEX_BIN", "host-codex"),
        ("LINZUMI_CODEX_MODEL_PROVIDER", "host-provider"),
        ("LINZUMI_AGENT_MCP_TOKEN", "host-mcp"),
        ("LINZUMI_DEBUG_TRACE", "host-trace"),
    ];
    let with_host = run_oracle(batch, &host);
    assert!(!with_host.contains("host"), "{with_host}");
    assert_eq!(with_host, run_oracle(batch, &[]));
    assert!(with_host.starts_with(
        r#"[{"threw":"missing --kandan-url (or LINZUMI_KANDAN_URL)"},{"value":{"kandanUrl":"k","token":"t","runnerId":"r","workspaceSlug":null,"cwd":"$DIR","codexBin":"codex","#
    ), "{with_host}");
    assert!(
        with_host.ends_with(r#"{"threw":"missing --runner-id (or LINZUMI_RUNNER_ID)"}]"#),
        "{with_host}"
    );
}

#[test]
fn the_host_environment_never_reaches_remote_config_env() {
    let batch = r#"[{"op":"remoteConfigEnv"},{"op":"remoteConfigEnv","env":{"LINZUMI_KANDAN_URL":"https://k","LINZUMI_RUNNER_TOKEN":"t","LINZUMI_RUNNER_ID":"r","LINZUMI_CWD":"/c"}}]"#;
    let host = [
        (
            "LINZUMI_REMOTE_HARNESS_CONFIG",
            r#"{"kandanUrl":"https://host","token":"host","runnerId":"host","cwd":"/host"}"#,
        ),
        ("LINZUMI_KANDAN_URL", "https://host.example"),
        ("LINZUMI_HEARTBEAT_INTERVAL_MS", "nonsense"),
        ("LINZUMI_ALLOWED_CWDS", "/host"),
    ];
    let with_host = run_oracle(batch, &host);
    assert!(!with_host.contains("host"), "{with_host}");
    assert_eq!(with_host, run_oracle(batch, &[]));
}

#[test]
fn scratch_directories_live_under_tmpdir_and_are_removed() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let tmp_real = std::fs::canonicalize(tmp.path()).expect("its real path");
    let tmp_text = tmp_real.to_str().expect("a UTF-8 path");
    // The first case proves the scratch directory was made under TMPDIR:
    // `$DIR` is inside the allowed tempdir and outside a sibling name.
    let batch = format!(
        r#"[
        {{"op":"preflight","cwd":"$DIR","allowedCwds":["{tmp_text}"]}},
        {{"op":"preflight","cwd":"$DIR","allowedCwds":["{tmp_text}-sibling"]}},
        {{"op":"preflight","mkdirs":["a/b","c"],"cwd":"$DIR/a/b","allowedCwds":["$DIR/a"]}},
        {{"op":"preflight","mkdirs":["../escape"],"cwd":"$DIR"}},
        {{"op":"preflight","mkdirs":["{long}"],"cwd":"$DIR"}},
        {{"op":"preflight","mkdirs":"nope","cwd":"$DIR"}},
        {{"op":"preflight","cwd":5}},
        {{"op":"parseWorkerArgs","mkdirs":["ws"],"args":["thread-codex-worker","--kandan-url","k","--token","t","--runner-id","r","--thread-id","t","--cwd","$DIR/ws"]}},
        {{"op":"parseWorkerArgs","args":["thread-codex-worker","--verbose"]}},
        {{"op":"parseWorkerArgs","mkdirs":["x/y/z"],"args":null}},
        {{"op":"liveness"}}
    ]"#,
        long = "n".repeat(300)
    );
    let output = run_oracle(&batch, &[("TMPDIR", tmp_text)]);
    assert!(
        output.starts_with(&format!(
            r#"[{{"defined":false}},{{"defined":true,"value":"worker cwd $DIR is not inside an allowed cwd ({tmp_text}-sibling)"}},{{"defined":false}},"#
        )),
        "{output}"
    );
    assert!(
        output.contains("mkdirs entry could not be created"),
        "{output}"
    );
    assert!(output.contains(r#"{"value":{"kandanUrl":"k""#), "{output}");
    assert_eq!(scratch_leftovers(&tmp_real), Vec::<String>::new());
    assert!(
        !Path::new(&tmp_real).join("escape").exists(),
        "a refused mkdirs entry was created"
    );
}
