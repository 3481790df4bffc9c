use super::*;
use js_exact::{parse, TextMode};

fn value(text: &str) -> Value {
    parse(text.as_bytes(), TextMode::LossyUtf8).unwrap()
}

/// What a default (empty) set of secrets makes of a quoted text: the
/// token patterns alone.
fn patterns(text: &str) -> String {
    Secrets::default().mask_quoted_text(text)
}

#[test]
fn secret_names() {
    for name in [
        "token",
        "linzumiAgentMcpToken",
        "--token",
        "LINZUMI_RUNNER_TOKEN",
        "api_key",
        "clientSecret",
        "forwardableOpenAiApiKey",
        "OPENAI_API_KEY",
        "--bearer",
        "--auth",
        "basicAuth",
        "OAuth",
        "X-Auth-Key",
        "--private-key",
        "Authorization",
        "passphrase",
    ] {
        assert!(is_secret_name(name), "{name}");
    }
    for word in SECRET_WORDS {
        assert!(is_secret_name(word), "{word}");
        assert!(
            is_secret_name(&format!("x_{}_y", word.to_uppercase())),
            "{word}"
        );
    }
    for name in [
        "cwd",
        "runnerId",
        "--kandan-url",
        "name",
        "author",
        "authority",
        "-t",
        "",
    ] {
        assert!(!is_secret_name(name), "{name}");
    }
}

#[test]
fn secret_flags() {
    for flag in [
        "--token",
        "-t",
        "--auth",
        "--bearer",
        "--private-key",
        "--linzumi-agent-mcp-token",
    ] {
        assert!(is_secret_flag(flag), "{flag}");
    }
    for flag in ["token", "-T", "--cwd", "-r", "t"] {
        assert!(!is_secret_flag(flag), "{flag}");
    }
}

#[test]
fn harvests_members_flags_and_assignments() {
    let case = value(
        r#"{"options":{"token":"tok-1","linzumiAgentMcpToken":"mcp-2"},
            "args":["x","--token","tok-3","--linzumi-agent-mcp-token=mcp-4","--cwd","/dir"],
            "env":["LINZUMI_RUNNER_TOKEN=tok-5","HOME=/home"],
            "token":"<redacted>","other":"tok-6"}"#,
    );
    let secrets = Secrets::harvest([&case]);
    let masked = secrets.mask("tok-1 mcp-2 tok-3 mcp-4 tok-5 /dir /home tok-6 x");
    assert_eq!(
        masked,
        "<redacted> <redacted> <redacted> <redacted> <redacted> /dir /home tok-6 x"
    );
}

#[test]
fn short_and_blank_values_are_never_secrets() {
    // A token of `at` once turned the report's word "at" into a mask, and
    // a whitespace-only key every space.
    for case in [
        r#"{"token":"at"}"#,
        r#"{"token":"   "}"#,
        r#"{"token":" \t\n "}"#,
        r#"{"token":" ab "}"#,
        r#"{"token":"abc"}"#,
        r#"["--token","at"]"#,
        r#"["TOKEN= ab"]"#,
    ] {
        let secrets = Secrets::harvest([&value(case)]);
        assert!(secrets.is_empty(), "{case}: {secrets:?}");
        let text = "FAIL at /options:  ab abc";
        assert_eq!(secrets.mask(text), text, "{case}");
        assert_eq!(
            secrets.mask_json_text(r#"["at","   ","abc"]"#),
            r#"["at","   ","abc"]"#
        );
    }
    // Nor is a part of the mask itself.
    let secrets = Secrets::harvest([&value(r#"{"token":"redacted","secret":"tok-1234"}"#)]);
    assert_eq!(secrets.mask("tok-1234 redacted"), "<redacted> redacted");
    // Four characters are enough, and spaces around a secret are not it.
    let secrets = Secrets::harvest([&value(r#"{"token":"  abcd  "}"#)]);
    assert_eq!(secrets.mask("x abcd y"), "x <redacted> y");
    assert_eq!(
        patterns("TOKEN=abc and TOKEN=abcd"),
        "TOKEN=abc and TOKEN=<redacted>"
    );
}

/// The forms a probe found unmasked, and today's: each case holds the
/// secret `V4lue-9x` once. Each must be found from the value, and from the
/// raw text of a case file that does not parse.
const FORMS: [&str; 24] = [
    r#"["--bearer","V4lue-9x"]"#,
    r#"["--bearer=V4lue-9x"]"#,
    r#"["-t","V4lue-9x"]"#,
    r#"["-t=V4lue-9x"]"#,
    r#"["--auth","V4lue-9x"]"#,
    r#"["--auth=V4lue-9x"]"#,
    r#"["--private-key","V4lue-9x"]"#,
    r#"["--private-key=V4lue-9x"]"#,
    r#"["--token","V4lue-9x"]"#,
    r#"["--linzumi-agent-mcp-token=V4lue-9x"]"#,
    r#"{"headers":["Authorization: Bearer V4lue-9x"]}"#,
    r#"{"message":"sent authorization: bearer V4lue-9x to the host"}"#,
    r#"{"Authorization":"Bearer V4lue-9x"}"#,
    r#"{"kandanUrl":"https://user:V4lue-9x@kandan.test/"}"#,
    r#"{"url":"postgres://admin:V4lue-9x@db:5432/x"}"#,
    r#"{"op":"config","json":"{\"kandanUrl\":\"https://k.test\",\"token\":\"V4lue-9x\"}"}"#,
    r#"{"args":["--runtime-defaults","{\"model\":\"m\",\"apiToken\":\"V4lue-9x\"}"]}"#,
    r#"{"env":{"LINZUMI_REMOTE_HARNESS_CONFIG":"{\"token\":\"V4lue-9x\"}"}}"#,
    r#"{"message":"run with MY_SERVICE_TOKEN=V4lue-9x now"}"#,
    r#"{"env":{"OPENAI_API_KEY":"V4lue-9x"}}"#,
    r#"{"env":{"LINZUMI_RUNNER_TOKEN":"V4lue-9x"}}"#,
    r#"{"env":["LINZUMI_AGENT_MCP_TOKEN=V4lue-9x"]}"#,
    r#"{"forwardableOpenAiApiKey":"V4lue-9x"}"#,
    r#"{"options":{"linzumiAgentMcpToken":"V4lue-9x"}}"#,
];

#[test]
fn every_documented_form_is_found() {
    for form in FORMS {
        let text = "shown: V4lue-9x.";
        let secrets = Secrets::harvest([&value(form)]);
        assert_eq!(secrets.mask(text), "shown: <redacted>.", "harvest {form}");
        // The file does not parse: a trailing comma.
        let broken = format!("[{form},]");
        let secrets = Secrets::of_case_file(broken.as_bytes());
        assert_eq!(secrets.mask(text), "shown: <redacted>.", "raw {form}");
        // An oracle echoing it to stderr, with nothing known beforehand.
        assert!(!patterns(&broken).contains("V4lue-9x"), "stderr {form}");
    }
    // Nothing is found where no form stands.
    let plain = r#"[{"op":"sum","options":{"cwd":"/V4lue-9x","runnerId":"V4lue-9x"}},]"#;
    assert!(Secrets::of_case_file(plain.as_bytes()).is_empty());
    assert!(Secrets::harvest([&value(&plain.replace(",]", "]"))]).is_empty());
}

#[test]
fn free_text_patterns() {
    let masked = [
        (
            "error: --token tok-abc-123 rejected",
            "error: --token <redacted> rejected",
        ),
        ("curl -t Tok3nValue x", "curl -t <redacted> x"),
        ("--bearer \"two words\"", "--bearer \"<redacted>\""),
        (
            "Authorization: Bearer abcdefgh",
            "Authorization: Bearer <redacted>",
        ),
        (
            "AUTHORIZATION=basic dXNlcjpw",
            "AUTHORIZATION=basic <redacted>",
        ),
        ("authorization: abcdefgh", "authorization: <redacted>"),
        ("Bearer abc.def-12 sent", "Bearer <redacted> sent"),
        (
            "git clone https://bob:hunter22@h.test/x",
            "git clone https://bob:<redacted>@h.test/x",
        ),
        (
            "redis://:s3cretpw@cache:6379",
            "redis://:<redacted>@cache:6379",
        ),
        (
            "MY_TOKEN=xyzw1; later xyzw1",
            "MY_TOKEN=<redacted>; later <redacted>",
        ),
        (
            "GET /x?access_token=a1b2c3&page=2",
            "GET /x?access_token=<redacted>&page=2",
        ),
        (
            "{'token': 'abcdefg', 'x': 1}",
            "{'token': '<redacted>', 'x': 1}",
        ),
        ("X-Api-Key: ab12cd34", "X-Api-Key: <redacted>"),
        ("SECRET=\"two words\"", "SECRET=\"<redacted>\""),
    ];
    for (text, expected) in masked {
        assert_eq!(patterns(text), expected, "{text}");
    }
    // Prose, the contract's own messages, and numbers are left alone.
    for text in [
        "option --token requires a value",
        "missing --token (or LINZUMI_RUNNER_TOKEN)",
        "remote harness config token must be a non-empty string",
        "token: expected a string",
        "Bearer tokens expire",
        "maxTokens: 4096",
        "at 12:30 see https://example.com/a:b@c and mailto:x@y",
        "--token --runner-id r",
        "Authorization: Bearer",
        "ls -t dir",
    ] {
        assert_eq!(patterns(text), text, "{text}");
    }
}

#[test]
fn json_in_strings_is_followed() {
    // Twice nested: JSON text in a string of JSON text in a string.
    let inner = r#"{"token":"deep-tok-1"}"#;
    let middle = js::stringify(&Value::from(inner))
        .to_utf8_lossy()
        .into_owned();
    let outer = format!(
        r#"{{"json":{}}}"#,
        js::stringify(&Value::from(middle.as_str())).to_utf8_lossy()
    );
    let case = value(&format!(r#"{{"config":{outer}}}"#));
    assert_eq!(Secrets::harvest([&case]).mask("deep-tok-1"), MASK);
    // An array under a secret-named key, in JSON held in a string.
    let case =
        value(r#"{"json":"{\"tokens\":[\"tok-aaa-1\",\"tok-bbb-2\"],\"n\":[\"tok-ccc-3\"]}"}"#);
    assert_eq!(
        Secrets::harvest([&case]).mask("tok-aaa-1 tok-bbb-2 tok-ccc-3"),
        "<redacted> <redacted> tok-ccc-3"
    );
    // Held JSON that is itself broken is read leniently.
    let case = value(r#"{"json":"{\"token\":\"tok-ddd-4\",,"}"#);
    assert_eq!(Secrets::harvest([&case]).mask("tok-ddd-4"), MASK);
}

#[test]
fn of_case_file_reads_a_broken_file_as_far_as_it_can() {
    let broken = br#"[{"op":"sum","options":{"token":"tok-1111","cwd":"/w"}},
        {"op":"mask","args":["--token", "tok-2222", "--cwd"]},
        {"op":"config","json":"{\"token\":\"tok-3333\"}"},
    ]"#;
    let secrets = Secrets::of_case_file(broken);
    assert_eq!(
        secrets.mask("tok-1111 tok-2222 tok-3333 /w"),
        "<redacted> <redacted> <redacted> /w"
    );
    // A cut file, and bytes that are not UTF-8.
    let cut = b"[{\"token\":\"tok-4444\"},{\"args\":[\"-t\",\"tok-5\xff55";
    let secrets = Secrets::of_case_file(cut);
    assert_eq!(secrets.mask("tok-4444"), MASK);
    assert_eq!(secrets.mask("tok-5\u{FFFD}55"), MASK);
}

#[test]
fn escaped_forms_are_masked_too() {
    let case = value(r#"{"token":"a\"b\\c"}"#);
    let secrets = Secrets::harvest([&case]);
    assert_eq!(secrets.mask(r#"["a\"b\\c"]"#), r#"["<redacted>"]"#);
    assert_eq!(
        secrets.mask(r#""{\"t\":\"a\\\"b\\\\c\"}""#),
        r#""{\"t\":\"<redacted>\"}""#
    );
    assert_eq!(secrets.mask("a\"b\\c"), "<redacted>");
}

/// The secrets of a case and its two elements, shown as a divergence
/// of `shown` shows them, as the report of a failing case does.
fn diverging(case: &Value, golden: &Value, actual: &Value, shown: &[Value]) -> Secrets {
    let own = Secrets::harvest([case]);
    own.and_harvest([golden, actual])
        .for_divergence(&own, Some(golden), Some(actual), shown)
}

#[test]
fn differing_values_stay_visible() {
    let golden = value(r#"{"token":"tok-old","x":"tok-keep"}"#);
    let actual = value(r#"{"token":"tok-new","apiKey":"tok-keep"}"#);
    let shown = [Value::from("tok-old"), Value::from("tok-new")];
    let secrets = diverging(&value("{}"), &golden, &actual, &shown);
    assert_eq!(
        secrets.mask("tok-old tok-new tok-keep"),
        "tok-old tok-new <redacted>"
    );
    // Found again by a pattern in the text being masked, they stay visible.
    assert_eq!(
        secrets.mask_json_text(r#"{"token":"tok-old","x":"tok-keep"}"#),
        r#"{"token":"tok-old","x":"<redacted>"}"#
    );
    assert_eq!(
        secrets.mask_quoted_text("--token tok-new-9 TOKEN=tok-old"),
        "--token <redacted> TOKEN=tok-old"
    );
    let masked = secrets.mask_value(&golden);
    assert_eq!(
        String::from_utf8(js::to_json(&masked)).unwrap(),
        r#"{"token":"tok-old","x":"<redacted>"}"#
    );
}

#[test]
fn a_secret_inside_a_differing_value_is_shown() {
    let golden = value(r#"["--token=tok-aaa-1"]"#);
    let actual = value(r#"["--token=tok-bbb-2"]"#);
    let shown = [
        Value::from("--token=tok-aaa-1"),
        Value::from("--token=tok-bbb-2"),
    ];
    let secrets = diverging(&value("{}"), &golden, &actual, &shown);
    assert_eq!(secrets.mask("tok-aaa-1 tok-bbb-2"), "tok-aaa-1 tok-bbb-2");
}

#[test]
fn a_secret_both_sides_hold_stays_masked() {
    let none = value("{}");
    let golden = value(r#"["--token","tok-same","--cwd","/a"]"#);
    let shifted = value(r#"["x","--token","tok-same","--cwd"]"#);
    let shown = [
        Value::from("--token"),
        Value::from("tok-same"),
        Value::from("x"),
    ];
    let secrets = diverging(&none, &golden, &shifted, &shown);
    assert_eq!(secrets.mask("tok-same"), "<redacted>");
    // Even when the secret is not among the shown paths on one side.
    let shown_once = [Value::from("tok-same"), Value::from("x")];
    let secrets = diverging(&none, &golden, &shifted, &shown_once);
    assert_eq!(
        secrets.mask_json_text(r#"["tok-same"]"#),
        r#"["<redacted>"]"#
    );

    let actual = value(r#"["--token","tok-other","--cwd","/a"]"#);
    let shown = [Value::from("tok-same"), Value::from("tok-other")];
    let secrets = diverging(&none, &golden, &actual, &shown);
    assert_eq!(secrets.mask("tok-same tok-other"), "tok-same tok-other");
}

#[test]
fn a_port_quoting_the_case_s_token_never_unmasks_it() {
    // Issue 18, defect 6: the token stands on the port's side only, in a
    // differing value, and is still the case's own.
    let case = value(r#"{"op":"mask","args":["--token","tok-Q7zx-4711"]}"#);
    let golden = value(r#"{"defined":true,"value":["--token","<redacted>"]}"#);
    let actual = value(r#"{"threw":true,"message":"rejected token tok-Q7zx-4711"}"#);
    let shown = [actual.clone()];
    let secrets = diverging(&case, &golden, &actual, &shown);
    assert_eq!(
        secrets.mask_json_text(r#"{"message":"rejected token tok-Q7zx-4711"}"#),
        r#"{"message":"rejected token <redacted>"}"#
    );
    assert_eq!(
        secrets.mask_quoted_text("rejected token tok-Q7zx-4711"),
        "rejected token <redacted>"
    );
    // The message as a shown string, the case's token on one side only.
    let shown = [Value::from("rejected token tok-Q7zx-4711")];
    let secrets = diverging(&case, &golden, &actual, &shown);
    assert_eq!(secrets.mask("tok-Q7zx-4711"), MASK);
    // Without the case, the same divergence shows it: the case is what
    // protects it.
    let unprotected = Secrets::harvest([&case, &golden, &actual]).for_divergence(
        &Secrets::default(),
        Some(&golden),
        Some(&actual),
        &shown,
    );
    assert_eq!(unprotected.mask("tok-Q7zx-4711"), "tok-Q7zx-4711");
}

#[test]
fn a_differing_secret_of_the_case_s_own_stays_masked_the_port_s_shows() {
    let case = value(r#"{"options":{"token":"tok-case-1"}}"#);
    let golden = value(r#"["--token","tok-case-1"]"#);
    let actual = value(r#"["--token","tok-port-2"]"#);
    let shown = [Value::from("tok-case-1"), Value::from("tok-port-2")];
    let secrets = diverging(&case, &golden, &actual, &shown);
    assert_eq!(
        secrets.mask("tok-case-1 tok-port-2"),
        "<redacted> tok-port-2"
    );
}

#[test]
fn a_value_that_holds_or_cuts_the_case_s_secret_stays_masked() {
    let case = value(r#"{"token":"tok-case-12345"}"#);
    let golden = value(r#"["--token","tok-gold"]"#);
    for port in ["tok-case-1234", "Xtok-case-12345", "tok-case-12345Y"] {
        let actual = value(&format!(r#"["--token","{port}"]"#));
        let shown = [Value::from("tok-gold"), Value::from(port)];
        let secrets = diverging(&case, &golden, &actual, &shown);
        assert_eq!(secrets.mask(port), MASK, "{port}");
        assert_eq!(secrets.mask("tok-gold"), "tok-gold", "{port}");
    }
}

#[test]
fn a_case_that_does_not_parse_still_protects_its_secrets() {
    let own = Secrets::of_case_file(br#"{"token":"tok-broken-9",}"#);
    let golden = value(r#"["--token","tok-gold"]"#);
    let actual = value(r#"["--token","tok-broken-9"]"#);
    let shown = [Value::from("tok-gold"), Value::from("tok-broken-9")];
    let secrets = own.and_harvest([&golden, &actual]).for_divergence(
        &own,
        Some(&golden),
        Some(&actual),
        &shown,
    );
    assert_eq!(secrets.mask("tok-gold tok-broken-9"), "tok-gold <redacted>");
}

#[test]
fn values_are_masked_inside() {
    let case = value(r#"{"token":"1234"}"#);
    let secrets = Secrets::harvest([&case]);
    let masked = secrets.mask_value(&value(r#"{"a":[1234,"k=1234"],"1234":"1234"}"#));
    assert_eq!(
        String::from_utf8(js::to_json(&masked)).unwrap(),
        r#"{"<redacted>":"<redacted>","a":[1234,"k=<redacted>"]}"#
    );
    // A value's own secrets are masked, whatever was harvested before.
    let masked = Secrets::default().mask_value(&value(r#"{"apiKey":"ak-1234","n":"ak-1234"}"#));
    assert_eq!(
        String::from_utf8(js::to_json(&masked)).unwrap(),
        r#"{"apiKey":"<redacted>","n":"<redacted>"}"#
    );
}

#[test]
fn only_whole_words_are_masked() {
    let case = value(r#"{"token":"pub-t"}"#);
    let secrets = Secrets::harvest([&case]);
    assert_eq!(
        secrets.mask(r#"pub-thread pub-t "pub-t" --token=pub-t xpub-t pub-t."#),
        r#"pub-thread <redacted> "<redacted>" --token=<redacted> xpub-t <redacted>."#
    );
}

#[test]
fn json_texts_are_masked_inside_literals_only() {
    let case = value(r#"{"token":"at-1","x":"12345"}"#);
    let secrets = Secrets::harvest([&case]);
    assert_eq!(
        secrets.mask_json_text(r#"{"at-1":["at-1",at-1],"k":"x\"at-1"}"#),
        r#"{"<redacted>":["<redacted>",at-1],"k":"x\"<redacted>"}"#
    );
    // A cut text ends inside a literal.
    assert_eq!(secrets.mask_json_text(r#"["at-1"#), r#"["<redacted>"#);
    assert_eq!(secrets.mask_json_text(r#"["a\"#), r#"["a\"#);
    assert_eq!(Secrets::default().mask_json_text("at-1"), "at-1");
    // A pattern found in the text masks inside literals only, too.
    assert_eq!(
        Secrets::default().mask_json_text(r#"{"token":"tok-9999","n":tok-9999}"#),
        r#"{"token":"<redacted>","n":tok-9999}"#
    );
}

#[test]
fn longer_secrets_are_masked_first() {
    let case = value(r#"{"token":"abcd","secret":"abcdefgh"}"#);
    assert_eq!(
        Secrets::harvest([&case]).mask("abcdefgh abcd"),
        "<redacted> <redacted>"
    );
}

#[test]
fn escapes_are_decoded() {
    assert_eq!(scan::unescape(r#"a\"b\\c\/\n\t\u00e9"#), "a\"b\\c/\n\té");
    assert_eq!(scan::unescape(r"\ud83d\ude00"), "\u{1F600}");
    assert_eq!(scan::unescape(r"\ud83dx\udc00"), "\u{FFFD}x\u{FFFD}");
    assert_eq!(scan::unescape(r"\q\u12"), r"\q\u12");
    assert_eq!(scan::unescape("end\\"), "end\\");
}

#[test]
fn scanning_stays_linear() {
    // Every `=` starts a value that runs to the end; each is taken once.
    let text = "token=".repeat(200_000);
    let started = std::time::Instant::now();
    let masked = patterns(&text);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(masked.contains(MASK) && masked.len() < text.len());
    let nested = format!("{}{}", "\"\\\"".repeat(50_000), "-t x".repeat(50_000));
    let started = std::time::Instant::now();
    let _ = Secrets::of_case_file(nested.as_bytes());
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

proptest::proptest! {
    /// Any text: no panic, and a JSON text keeps every byte outside its
    /// string literals.
    #[test]
    fn masking_never_panics_nor_touches_the_text_between_literals(
        text in "[-a-zA-Z0-9 :=@/\"'\\\\,\\[\\]{}é_.]{0,80}"
    ) {
        let secrets = Secrets::of_case_file(text.as_bytes());
        let _ = secrets.mask_quoted_text(&text);
        let masked = secrets.mask_json_text(&text);
        let outside = |json: &str| {
            let mut out = String::new();
            let mut inside = false;
            let mut escaped = false;
            for c in json.chars() {
                if inside {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        inside = false;
                        out.push(c);
                    }
                } else {
                    out.push(c);
                    inside = c == '"';
                }
            }
            out
        };
        proptest::prop_assert_eq!(outside(&masked), outside(&text));
    }
}
