//! Secrets stay out of every report: an oracle echoing a case file nobody
//! can read, and a golden argv shifted by one element (issue 14, item 10),
//! in every format, GitHub's annotations and job summary included.

use crate::support;

use support::{golden_of, run_with, write, Corpus, Ran};

/// The planted token number `n`: distinct, and shaped like a token.
fn token(n: usize) -> String {
    format!("plant-{n:02}-q7Zx")
}

/// A case file holding 26 tokens in every form redaction documents, with
/// a trailing comma, so that no case of it can be read.
fn broken_case_file() -> String {
    let t: Vec<String> = (1..=26).map(token).collect();
    let cases = [
        format!(
            r#"{{"op":"argv","options":{{"kandanUrl":"https://user:{}@kandan.test/","token":"{}","linzumiAgentMcpToken":"{}","runnerId":"r","kandanThreadId":"th","cwd":"/w","codexBin":"codex"}}}}"#,
            t[0], t[1], t[2]
        ),
        format!(
            r#"{{"op":"overlay","options":{{}},"forwardableOpenAiApiKey":"{}"}}"#,
            t[3]
        ),
        format!(
            r#"{{"op":"redactedArgv","args":["--token","{}","--token={}","--linzumi-agent-mcp-token","{}","--linzumi-agent-mcp-token={}"]}}"#,
            t[4], t[5], t[6], t[7]
        ),
        format!(
            r#"{{"op":"redactedArgv","args":["--bearer","{}","--bearer={}","-t","{}","--auth","{}","--auth={}","--private-key","{}","--private-key={}"]}}"#,
            t[8], t[9], t[10], t[11], t[12], t[13], t[14]
        ),
        format!(
            r#"{{"op":"parseArgs","args":["thread-codex-worker","--runtime-defaults","{{\"model\":\"m\",\"apiToken\":\"{}\"}}"],"env":{{"LINZUMI_RUNNER_TOKEN":"{}","LINZUMI_AGENT_MCP_TOKEN":"{}","OPENAI_API_KEY":"{}"}}}}"#,
            t[15], t[16], t[17], t[18]
        ),
        format!(
            r#"{{"op":"remote","json":"{{\"kandanUrl\":\"https://k.test\",\"token\":\"{}\"}}"}}"#,
            t[19]
        ),
        format!(
            r#"{{"op":"remoteEnv","env":{{"LINZUMI_REMOTE_HARNESS_CONFIG":"{{\"kandanUrl\":\"https://bot:{}@k.test/\",\"token\":\"{}\"}}"}}}}"#,
            t[20], t[21]
        ),
        format!(
            r#"{{"op":"greeting","message":{{"type":"x","headers":["Authorization: Bearer {}","authorization: bearer {}"]}}}}"#,
            t[22], t[23]
        ),
        format!(
            r#"{{"op":"greeting","message":{{"db":"postgres://admin:{}@db:5432/x","log":"export MY_SERVICE_TOKEN={}; run"}}}}"#,
            t[24], t[25]
        ),
    ];
    format!("[\n{},\n]\n", cases.join(",\n"))
}

fn assert_no_token(ran: &Ran, what: &str) {
    for n in 1..=26 {
        let planted = token(n);
        assert!(
            !ran.stdout.contains(&planted) && !ran.stderr.contains(&planted),
            "{what}: token {n} printed:\n{}\n{}",
            ran.stdout,
            ran.stderr
        );
    }
}

#[test]
fn an_oracle_echoing_an_unreadable_case_file_prints_no_token() {
    let corpus = Corpus::new();
    let cases = broken_case_file();
    assert!(
        (1..=26).all(|n| cases.contains(&token(n))),
        "every token is planted"
    );
    corpus
        .case("secrets.json", &cases)
        .golden("secrets.json", "[]\n");
    for format in ["human", "json", "junit", "markdown"] {
        let summary = corpus.join("summary.md");
        let ran = run_with(
            corpus.path(),
            &["run", "--oracle", "cat >&2; exit 3", "--format", format],
            b"",
            &[
                ("GITHUB_ACTIONS", "true"),
                ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
            ],
        );
        assert_eq!(ran.code, 1, "{format}: {ran:?}");
        assert!(
            ran.stderr.starts_with("::error "),
            "{format}: {}",
            ran.stderr
        );
        assert_no_token(&ran, format);
        let summary = std::fs::read_to_string(summary).unwrap();
        assert_no_token(
            &Ran {
                code: 0,
                stdout: summary,
                stderr: String::new(),
            },
            "the job summary",
        );
        // The echo is shown, masked: the test is not passed by silence.
        assert!(ran.stdout.contains("remoteEnv"), "{format}: {}", ran.stdout);
        assert!(ran.stdout.contains("redacted"), "{format}: {}", ran.stdout);
    }
    let ran = corpus.run(&["bless", "--reference", "cat >&2; exit 3"]);
    assert_eq!(ran.code, 2, "bless: {ran:?}");
    assert_no_token(&ran, "bless");
    assert!(ran.stdout.contains("remoteEnv"), "bless: {}", ran.stdout);
}

#[test]
fn a_golden_argv_shifted_by_one_element_prints_no_token() {
    let secret = "sk-shift-4711";
    let argv = [
        "thread-codex-worker",
        "--kandan-url",
        "https://kandan.test",
        "--token",
        secret,
        "--runner-id",
        "r",
        "--thread-id",
        "th",
        "--cwd",
        "/w",
        "--codex-bin",
        "codex",
    ];
    let quoted = |items: &[&str]| {
        let items: Vec<String> = items.iter().map(|item| format!("\"{item}\"")).collect();
        format!(r#"{{"defined":true,"value":[{}]}}"#, items.join(","))
    };
    let mut shifted = argv.to_vec();
    shifted.insert(1, "--workspace");
    let corpus = Corpus::new();
    write(
        corpus.join("cases.json"),
        format!(
            r#"[{{"op":"argv","name":"shifted","options":{{"kandanUrl":"https://kandan.test","token":"{secret}","runnerId":"r","kandanThreadId":"th","cwd":"/w","codexBin":"codex"}}}}]"#
        ),
    );
    write(corpus.join("golden.json"), golden_of(&[&quoted(&argv)]));
    write(
        corpus.join("results.json"),
        format!("[{}]", quoted(&shifted)),
    );
    for format in ["human", "json", "junit", "markdown"] {
        let summary = corpus.join("summary.md");
        let ran = run_with(
            corpus.path(),
            &[
                "compare",
                "results.json",
                "golden.json",
                "--cases",
                "cases.json",
                "--format",
                format,
            ],
            b"",
            &[
                ("GITHUB_ACTIONS", "true"),
                ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
            ],
        );
        assert_eq!(ran.code, 1, "{format}: {ran:?}");
        assert!(
            ran.stderr.starts_with("::error "),
            "{format}: {}",
            ran.stderr
        );
        let summary = std::fs::read_to_string(summary).unwrap();
        assert!(summary.contains("--workspace"), "{summary}");
        assert!(
            !ran.stdout.contains(secret)
                && !ran.stderr.contains(secret)
                && !summary.contains(secret),
            "{format}: the token both sides hold was printed:\n{}",
            ran.stdout
        );
        // The divergence itself is reported.
        assert!(
            ran.stdout.contains("--workspace"),
            "{format}: {}",
            ran.stdout
        );
    }
}

/// A port that quotes the case's token: in its error for the first case
/// of `tok.json` (its sibling gets another error), and on stderr before it
/// crashes on `crash.json`.
const QUOTING_PORT: &str = r#"input=$(cat)
tok=$(printf '%s\n' "$input" | sed -n 's/.*"--token", *"\([^"]*\)".*/\1/p' | head -n 1)
case "$input" in
  *crash*) echo "port: rejected token $tok" >&2; exit 3 ;;
  *--token*) printf '[{"threw":true,"message":"rejected token %s"},{"threw":true,"message":"not implemented"}]\n' "$tok" ;;
  *) echo '[]' ;;
esac
"#;

#[test]
fn a_port_quoting_the_case_s_token_prints_it_nowhere() {
    // Issue 18, defect 6: the token stood on the port's side only, so the
    // one-side-only rule showed it in the input, the signature, the
    // annotation, the summary and the JSON; its sibling showed `<redacted>`.
    let secret = "tok-Q7zx-4711";
    let case = |name: &str| {
        format!(
            r#"{{"op":"redactedArgv","name":"{name}","args":["--token","{secret}","--cwd","/w"]}}"#
        )
    };
    let golden = r#"{"defined":true,"value":["--token","<redacted>","--cwd","/w"]}"#;
    let corpus = Corpus::new();
    corpus
        .case(
            "tok.json",
            &format!("[\n{},\n{}\n]\n", case("quoted"), case("sibling")),
        )
        .golden("tok.json", &golden_of(&[golden, golden]))
        .case("crash.json", &format!("[\n{}\n]\n", case("crash")))
        .golden("crash.json", &golden_of(&[golden]));
    write(corpus.join("port.sh"), QUOTING_PORT);
    for format in ["human", "json", "junit", "markdown", "html"] {
        let summary = corpus.join("summary.md");
        let _ = std::fs::remove_file(&summary);
        let ran = run_with(
            corpus.path(),
            &[
                "run",
                "--oracle",
                "sh port.sh",
                "--format",
                format,
                "--annotate",
                "github",
            ],
            b"",
            &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
        );
        assert_eq!(ran.code, 1, "{format}: {ran:?}");
        let summary = std::fs::read_to_string(summary).unwrap();
        for (what, text) in [
            ("stdout", &ran.stdout),
            ("stderr", &ran.stderr),
            ("the job summary", &summary),
        ] {
            assert!(
                !text.contains(secret),
                "{format}: {what} prints the case's token:\n{text}"
            );
        }
        // The port's words are reported, with the token masked: the test
        // is not passed by silence.
        for (what, text) in [
            ("stdout", &ran.stdout),
            ("stderr", &ran.stderr),
            ("the job summary", &summary),
        ] {
            assert!(
                text.contains("rejected token"),
                "{format}: {what} does not show the port's error:\n{text}"
            );
        }
        assert!(ran.stderr.contains("::error "), "{format}: {}", ran.stderr);
        let masked = if matches!(format, "html" | "junit") {
            "rejected token &lt;redacted&gt;"
        } else {
            "rejected token <redacted>"
        };
        assert!(ran.stdout.contains(masked), "{format}: {}", ran.stdout);
        assert!(
            ran.stderr.contains("rejected token <redacted>"),
            "{format}: {}",
            ran.stderr
        );
    }
}
