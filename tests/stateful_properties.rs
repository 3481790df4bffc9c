//! Laws of the stateful ops, checked on generated inputs:
//!
//! - round trip (contract 4.26): for valid options whose directories
//!   exist, `parseWorkerArgs(cliArgs(options))` gives the options back,
//!   with the parser's defaults for what was unset;
//! - liveness (4.18): a worker whose pong is overdue is never `healthy`
//!   when the deadline has been ticked at the time of the verdict (the
//!   verdict itself never looks at the clock of a pending ping: only
//!   `tick` turns an overdue pong into a missed one).

use std::path::Path;

use js_exact::{JsString, Object, Value};
use proptest::prelude::*;
use worker_spawn_oracle::ops::argv::cli_args;
use worker_spawn_oracle::ops::liveness::{Verdict, WorkerLiveness};
use worker_spawn_oracle::ops::options::OPTIONAL_STRING_OPTIONS;
use worker_spawn_oracle::ops::worker_args::{is_existing_directory, parse_worker_args};

/// Directory names made once per test run under a temporary directory.
const DIRECTORY_NAMES: [&str; 6] = ["ws", "repo", "caf\u{e9}", "a b", "\u{1F600}", "x=y"];

fn js(text: &str) -> Value {
    Value::String(JsString::from(text))
}

/// Any non-empty JavaScript string: arbitrary code units, lone
/// surrogates included, and strings that look like options.
fn non_empty_string() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[a-zA-Z0-9:/._=-]{1,12}".prop_map(|s| js(&s)),
        "--[a-z-]{1,10}(=[a-z]{0,3})?".prop_map(|s| js(&s)),
        prop::collection::vec(any::<u16>(), 1..8)
            .prop_map(|units| Value::String(JsString::from_utf16(&units))),
        Just(js(" ")),
        Just(js("\u{2028}")),
    ]
}

fn optional<T: std::fmt::Debug + Clone>(
    strategy: impl Strategy<Value = T>,
) -> impl Strategy<Value = Option<T>> {
    prop::option::of(strategy)
}

/// A JSON value for runtimeDefaults, small and nested.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<f64>()
            .prop_filter("finite", |n| n.is_finite())
            .prop_map(Value::Number),
        (-1000i32..1000).prop_map(|n| Value::Number(f64::from(n))),
        non_empty_string(),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z0-9]{0,4}", inner), 0..4)
                .prop_map(|members| { Value::Object(members.into_iter().collect::<Object>()) }),
        ]
    })
}

/// Valid worker options (4.1) whose cwd and allowed cwds are existing
/// directories under `root`, allowed cwds and ports without duplicates.
#[derive(Debug, Clone)]
struct Generated {
    options: Value,
}

fn options(root: String) -> impl Strategy<Value = Generated> {
    let dir = move |name: &str| js(&format!("{root}/{name}"));
    let required = prop::collection::vec(non_empty_string(), 5);
    let optional_strings = prop::collection::vec(optional(non_empty_string()), 7);
    let modes = (
        optional(prop::sample::select(vec!["local", "vm", "remote"])),
        optional(prop::sample::select(vec!["open", "restricted", "offline"])),
    );
    let directories = (
        0..DIRECTORY_NAMES.len(),
        optional(
            prop::sample::subsequence(DIRECTORY_NAMES.to_vec(), 0..=DIRECTORY_NAMES.len())
                .prop_shuffle(),
        ),
    );
    let ports = optional(
        prop::collection::btree_set(1u32..=65535, 0..5)
            .prop_map(|set| set.into_iter().collect::<Vec<_>>())
            .prop_shuffle(),
    );
    let flags = (optional(any::<bool>()), optional(any::<bool>()));
    let runtime_defaults = optional(
        prop::collection::vec(("[a-z0-9]{0,4}", json_value()), 0..4)
            .prop_map(|members| members.into_iter().collect::<Object>()),
    );
    (
        required,
        optional_strings,
        modes,
        directories,
        ports,
        flags,
        runtime_defaults,
    )
        .prop_map(
            move |(
                required,
                strings,
                (execution, egress),
                (cwd, allowed),
                ports,
                (vm, fast),
                rd,
            )| {
                let mut object = Object::new();
                for (field, value) in [
                    "kandanUrl",
                    "token",
                    "runnerId",
                    "kandanThreadId",
                    "codexBin",
                ]
                .iter()
                .zip(required)
                {
                    object.insert(*field, value);
                }
                object.insert("cwd", dir(DIRECTORY_NAMES[cwd]));
                for (field, value) in OPTIONAL_STRING_OPTIONS.iter().zip(strings) {
                    object.insert(*field, value.into());
                }
                object.insert("executionMode", execution.map(js).into());
                object.insert("egressMode", egress.map(js).into());
                object.insert(
                    "allowedCwds",
                    allowed
                        .map(|names| Value::Array(names.iter().map(|n| dir(n)).collect()))
                        .into(),
                );
                object.insert(
                    "allowedForwardPorts",
                    ports
                        .map(|ports| Value::Array(ports.into_iter().map(Value::from).collect()))
                        .into(),
                );
                object.insert("vmExecution", vm.into());
                object.insert("fast", fast.into());
                object.insert("runtimeDefaults", rd.map(Value::Object).into());
                Generated {
                    options: Value::Object(object),
                }
            },
        )
}

/// What the parser must give back for options: each member as set, or the
/// parser's default.
fn expected(options: &Value) -> Value {
    let or_null = |field: &str| options.get(field).or(&Value::Null).clone();
    let or_false = |field: &str| Value::Bool(options.get(field).as_bool() == Some(true));
    let or_empty = |field: &str| options.get(field).or(&Value::Array(Vec::new())).clone();
    let allowed = match options.get("allowedCwds").as_array() {
        Some(list) if !list.is_empty() => Value::Array(list.to_vec()),
        _ => Value::Array(vec![options.get("cwd").clone()]),
    };
    let mut object = Object::new();
    for (field, value) in [
        ("kandanUrl", options.get("kandanUrl").clone()),
        ("token", options.get("token").clone()),
        ("runnerId", options.get("runnerId").clone()),
        ("workspaceSlug", or_null("workspaceSlug")),
        ("cwd", options.get("cwd").clone()),
        ("codexBin", options.get("codexBin").clone()),
        ("vmExecution", or_false("vmExecution")),
        ("executionMode", or_null("executionMode")),
        ("egressMode", or_null("egressMode")),
        ("projectPublicId", or_null("projectPublicId")),
        ("goldenImagePublicId", or_null("goldenImagePublicId")),
        ("fast", or_false("fast")),
        ("logFile", or_null("logFile")),
        ("allowedCwds", allowed),
        ("missingAllowedCwds", Value::Array(Vec::new())),
        ("allowedForwardPorts", or_empty("allowedForwardPorts")),
        ("runtimeDefaults", or_null("runtimeDefaults")),
        ("codexModelProvider", or_null("codexModelProvider")),
        ("linzumiAgentMcpToken", or_null("linzumiAgentMcpToken")),
        ("kandanThreadId", options.get("kandanThreadId").clone()),
        ("debugTrace", or_null("debugTrace")),
    ] {
        object.insert(field, value);
    }
    Value::Object(object)
}

fn make_directories(root: &Path) {
    for name in DIRECTORY_NAMES {
        std::fs::create_dir_all(root.join(name)).expect("a test directory");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parse_worker_args_inverts_cli_args(generated in {
        // One directory tree for the whole run; its path goes into the
        // generated options.
        static ROOT: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
        let root = ROOT.get_or_init(|| {
            let dir = tempfile::tempdir().expect("a temporary directory");
            make_directories(dir.path());
            dir
        });
        let real = std::fs::canonicalize(root.path()).expect("its real path");
        options(real.to_str().expect("a UTF-8 path").to_owned())
    }) {
        let options = generated.options;
        let args = cli_args(&options).expect("generated options are valid");
        let args = Value::Array(args.into_iter().map(Value::String).collect());
        let parsed = parse_worker_args(&args, &Object::new(), &is_existing_directory)
            .map_err(|error| TestCaseError::fail(error.message.to_string()))?;
        prop_assert_eq!(parsed.to_value(), expected(&options));
    }
}

/// One step of a generated liveness schedule.
#[derive(Debug, Clone)]
enum Step {
    Create,
    PingSent,
    Pong,
    ProbeSent,
    ProbeReply,
    Tick,
    /// A tick and then a verdict, at the same time.
    TickedVerdict,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => Just(Step::Create),
        4 => Just(Step::PingSent),
        2 => Just(Step::Pong),
        1 => Just(Step::ProbeSent),
        1 => Just(Step::ProbeReply),
        2 => Just(Step::Tick),
        4 => Just(Step::TickedVerdict),
    ]
}

fn config() -> impl Strategy<Value = (Value, f64)> {
    (
        1.0f64..50_000.0,
        0.5f64..30_000.0,
        1u32..5,
        1.0f64..20_000.0,
    )
        .prop_map(|(ping, pong, missed, probe)| {
            let mut object = Object::new();
            object.insert("pingIntervalMs", Value::Number(ping));
            object.insert("pongTimeoutMs", Value::Number(pong));
            object.insert("maxMissedPongs", Value::from(missed));
            object.insert("probeTimeoutMs", Value::Number(probe));
            (Value::Object(object), pong)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn an_overdue_pong_is_never_healthy_once_ticked(
        (config, pong_timeout) in config(),
        start in -1e6f64..1e6,
        steps in prop::collection::vec((step(), 0.0f64..40_000.0, any::<bool>()), 1..40),
    ) {
        let mut liveness = WorkerLiveness::new();
        liveness.create(&Value::Number(start)).expect("a finite now");
        let mut now = start;
        // The oldest ping not answered by a pong or a probe reply.
        let mut oldest_unanswered: Option<f64> = None;
        for (step, advance, backwards) in steps {
            // Time mostly moves forward; sometimes it jumps back.
            now = if backwards { now - advance / 8.0 } else { now + advance };
            let at = Value::Number(now);
            match step {
                Step::Create => {
                    liveness.create(&at).expect("create");
                    oldest_unanswered = None;
                }
                Step::PingSent => {
                    liveness.ping_sent(&at).expect("ping");
                    oldest_unanswered.get_or_insert(now);
                }
                Step::Pong => {
                    liveness.pong(&at).expect("pong");
                    oldest_unanswered = None;
                }
                Step::ProbeSent => liveness.probe_sent(&at).expect("probe"),
                Step::ProbeReply => {
                    liveness.probe_reply(&at).expect("reply");
                    oldest_unanswered = None;
                }
                Step::Tick => liveness.tick(&config, &at).expect("tick"),
                Step::TickedVerdict => {
                    liveness.tick(&config, &at).expect("tick");
                    let verdict = liveness.verdict(&config, &at).expect("verdict");
                    let overdue = oldest_unanswered.is_some_and(|sent| now - sent >= pong_timeout);
                    prop_assert!(
                        !(overdue && verdict == Verdict::Healthy),
                        "healthy at {} with a pong overdue since {:?}", now, oldest_unanswered
                    );
                }
            }
        }
    }
}

/// The fields the stateful ops read, with values they are likely to meet.
const OP_FIELDS: [(&str, &[&str]); 9] = [
    ("preflight", &["mkdirs", "cwd", "allowedCwds"]),
    ("respawn", &["maxAttempts", "script"]),
    ("outputRouting", &["pid", "streamName", "script"]),
    ("liveness", &["config", "schedule"]),
    ("remoteConfig", &["json"]),
    ("remoteConfigEnv", &["env"]),
    ("remoteEntrypoint", &["entrypoint"]),
    ("remoteJoinPayload", &["config"]),
    ("parseWorkerArgs", &["mkdirs", "args", "env"]),
];

/// Values that steer the ops down their paths: scripts and schedules of
/// steps, paths under `$DIR`, argv elements, and anything else.
fn field_value() -> impl Strategy<Value = Value> {
    let word = prop::sample::select(vec![
        "ready",
        "exited",
        "chunk",
        "route",
        "create",
        "pingSent",
        "pong",
        "probeSent",
        "probeReply",
        "tick",
        "verdict",
        "shouldSendPing",
        "stdout",
        "stderr",
        "$DIR",
        "$DIR/a",
        "/",
        "thread-codex-worker",
        "--cwd",
        "--fast",
        "--token",
        "a",
        "..",
        "",
    ])
    .prop_map(js);
    let member = prop::sample::select(vec![
        "kind",
        "code",
        "signal",
        "capturedOutput",
        "step",
        "text",
        "tuiActive",
        "captureActive",
        "op",
        "now",
        "pingIntervalMs",
        "pongTimeoutMs",
        "maxMissedPongs",
        "probeTimeoutMs",
        "kandanUrl",
        "token",
        "runnerId",
        "cwd",
        "LINZUMI_CWD",
    ]);
    let leaf = prop_oneof![word, json_value()];
    leaf.prop_recursive(3, 32, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((member.clone(), inner), 0..5)
                .prop_map(|members| { Value::Object(members.into_iter().collect::<Object>()) }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// No input makes a stateful op panic, and every result is an object.
    #[test]
    fn the_stateful_ops_never_panic(
        op in 0..OP_FIELDS.len(),
        values in prop::collection::vec(prop::option::of(field_value()), 3),
    ) {
        let (name, fields) = OP_FIELDS[op];
        let mut case = Object::new();
        case.insert("op", js(name));
        for (field, value) in fields.iter().zip(values) {
            if let Some(value) = value {
                case.insert(*field, value);
            }
        }
        let result = worker_spawn_oracle::ops::run_op(&Value::Object(case));
        prop_assert!(result.is_object());
    }
}
