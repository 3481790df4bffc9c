use proptest::prelude::*;

use super::*;
use js_exact::{self as js, TextMode, Value};

#[test]
fn plain_text_is_left_as_it_is() {
    for plain in [
        "argv.json",
        "a\\b.json",
        "\"a\\nb\\u0000\"",
        "#3 sum \"x\"",
        "a::b",
        "# [x]",
        "é 😀",
        "",
    ] {
        assert!(matches!(text(plain), Cow::Borrowed(_)), "{plain}");
        assert!(matches!(json(plain), Cow::Borrowed(_)), "{plain}");
    }
}

#[test]
fn forbidden_characters_are_escapes() {
    assert_eq!(text("a\u{1b}]0;pwn\u{7}b"), "a\\u{1b}]0;pwn\\u{7}b");
    assert_eq!(
        text("x\n::error title=PWNED::y"),
        "x\\u{a}::error title=PWNED::y"
    );
    assert_eq!(
        text("\r\t\u{0}\u{7f}\u{85}\u{9f}"),
        "\\u{d}\\u{9}\\u{0}\\u{7f}\\u{85}\\u{9f}"
    );
    assert_eq!(
        text("a\u{202e}b\u{2066}c\u{2069}d\u{2028}e\u{2029}"),
        "a\\u{202e}b\\u{2066}c\\u{2069}d\\u{2028}e\\u{2029}"
    );
    // Issues 38 and 40: the direction marks and the invisible characters.
    assert_eq!(
        text("a\u{200e}b\u{200f}c\u{61c}d\u{200b}e\u{200d}f\u{2060}g\u{feff}h\u{e0041}i\u{e007f}"),
        "a\\u{200e}b\\u{200f}c\\u{61c}d\\u{200b}e\\u{200d}f\\u{2060}g\\u{feff}h\\u{e0041}i\\u{e007f}"
    );
    // In JSON, a tag is a surrogate pair: still the same value.
    assert_eq!(json("\"\u{e0041}\u{feff}\""), "\"\\udb40\\udc41\\ufeff\"");
    assert_eq!(
        serde_json::from_str::<String>(&json_string("x\u{e0041}\u{200e}")).unwrap(),
        "x\u{e0041}\u{200e}"
    );
    // Visible, or not controls: kept.
    assert_eq!(
        text("\u{a0}\u{200a}\u{202f}\u{fffd}\u{e0080}\u{fefe}\u{61b}"),
        "\u{a0}\u{200a}\u{202f}\u{fffd}\u{e0080}\u{fefe}\u{61b}"
    );
    for c in [
        '\u{0}',
        '\u{1f}',
        '\u{7f}',
        '\u{9f}',
        '\u{202a}',
        '\u{202e}',
        '\u{2066}',
        '\u{2069}',
        '\u{61c}',
        '\u{200b}',
        '\u{200f}',
        '\u{2060}',
        '\u{feff}',
        '\u{e0000}',
        '\u{e007f}',
    ] {
        assert!(is_forbidden(c), "{c:?}");
    }
    for c in [
        ' ',
        '~',
        '\u{a0}',
        '\u{a1}',
        '\u{2030}',
        '\u{2065}',
        '\u{206a}',
        '\u{200a}',
        '\u{2010}',
        '\u{2061}',
        '\u{fefe}',
        '\u{e0080}',
        '\u{61b}',
        '\u{61d}',
    ] {
        assert!(!is_forbidden(c), "{c:?}");
    }
}

#[test]
fn workflow_commands_are_broken() {
    assert_eq!(text("::error::x"), "\\u{3a}:error::x");
    assert_eq!(text("  \u{3000}::error::x"), "  \u{3000}\\u{3a}:error::x");
    // A forbidden blank is escaped, so the line no longer starts blank.
    assert_eq!(text("\t::x"), "\\u{9}::x");
    assert_eq!(text(":x::y"), ":x::y");
    assert_eq!(text("##[stop-commands]tok"), "##\\u{5b}stop-commands]tok");
    assert_eq!(text("a###[b"), "a###\\u{5b}b");
    assert_eq!(text("#[x ##"), "#[x ##");
}

#[test]
fn a_backslash_is_escaped_only_where_it_would_start_an_escape() {
    assert_eq!(text("\\u{1b}"), "\\u{5c}u{1b}");
    assert_eq!(text("\\u0000 \\n \\"), "\\u0000 \\n \\");
    assert_eq!(text("\\\u{1b}"), "\\\\u{1b}");
    assert_eq!(decode("\\\\u{1b}"), "\\\u{1b}");
    assert_eq!(decode("\\u{5c}u{1b}"), "\\u{1b}");
}

#[test]
fn decoding_leaves_what_is_not_an_escape() {
    assert_eq!(
        decode("\\u{zz} \\u{} \\u{1234567} \\u{d800} \\u{"),
        "\\u{zz} \\u{} \\u{1234567} \\u{d800} \\u{"
    );
    assert_eq!(decode("a\\u{1F600}b"), "a😀b");
}

#[test]
fn stderr_is_lines_each_neutral() {
    let stderr = "one\r\n\u{1b}]0;pwn\u{7}\u{1b}[2J\n::error::x\rcr\n";
    let shown: Vec<_> = lines(stderr).collect();
    assert_eq!(
        shown,
        [
            "one",
            "\\u{1b}]0;pwn\\u{7}\\u{1b}[2J",
            "\\u{3a}:error::x\\u{d}cr"
        ]
    );
    assert_eq!(block("a\n\n b"), "a\n\n b\n");
    assert_eq!(block(""), "");
}

#[test]
fn json_keeps_its_value() {
    assert_eq!(
        json("\"a\u{7f}\u{85}\u{202e}\u{2028}\""),
        "\"a\\u007f\\u0085\\u202e\\u2028\""
    );
    assert_eq!(json("[\"##[x\"]"), "[\"##\\u005bx\"]");
    assert_eq!(json("{\n  \"a\": 1\n}"), "{\n  \"a\": 1\n}");
    assert_eq!(json("ok\n  ::x\n"), "ok\n  \\u003a:x\n");
    assert_eq!(json("{\r}"), "{\\u000d}");
    assert_eq!(json_string("a\u{1b}\u{7f}\n"), "\"a\\u001b\\u007f\\n\"");
    assert_eq!(
        json_line("{\r\n  \"a\":\t\"\u{7f}\"\n}"),
        "{    \"a\": \"\\u007f\" }"
    );
    assert!(matches!(json_line("[1]"), Cow::Borrowed("[1]")));
    assert_eq!(json_bytes(b"[1]"), Cow::Borrowed(b"[1]".as_slice()));
    assert_eq!(
        json_bytes("[\"\u{2029}\"]".as_bytes()).as_ref(),
        b"[\"\\u2029\"]".as_slice()
    );
    assert_eq!(json_bytes(b"\xff##["), Cow::Borrowed(b"\xff##[".as_slice()));
}

#[test]
fn lone_surrogates_stay_distinct() {
    let parse = |text: &str| {
        let value: Value = js::parse(text.as_bytes(), TextMode::LossyUtf8).unwrap();
        value.as_js_string().cloned().unwrap()
    };
    let (a, b) = (parse(r#""s\ud800""#), parse(r#""s\ud801""#));
    assert_eq!(js_text(&a), "s\\ud800");
    assert_eq!(js_text(&b), "s\\ud801");
    assert_eq!(js_text(&parse(r#""s\ud83d\ude00""#)), "s😀");
    assert!(matches!(
        js_text(&parse(r#""plain""#)),
        Cow::Borrowed("plain")
    ));
}

#[test]
fn progress_lines_are_written_neutral() {
    use std::io::Write as _;
    let mut out = Vec::new();
    {
        let mut lines = NeutralLines::new(&mut out);
        write!(lines, "fuzz: new divergence a\u{1b}[2J").unwrap();
        writeln!(lines, " ##[x").unwrap();
        lines.write_all(b"::error::y\r\nnot ended \xff").unwrap();
    }
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "fuzz: new divergence a\\u{1b}[2J ##\\u{5b}x\n\\u{3a}:error::y\\u{d}\nnot ended \u{fffd}"
    );
}

#[test]
fn violations_are_found() {
    assert_eq!(violation("ok\nfine ## [\n", false), None);
    assert!(violation("a\n  ::error::x", false)
        .unwrap()
        .contains("line 2"));
    assert!(violation("a ##[b", false).is_some());
    assert!(violation("a\rb", false).is_some());
    assert!(violation("a\u{202e}", false).is_some());
    assert_eq!(violation("\u{1b}[1;31mFAIL\u{1b}[0m", true), None);
    assert!(violation("\u{1b}[1;31mFAIL\u{1b}[0m", false).is_some());
    assert!(violation("\u{1b}[2J", true).is_some());
    assert!(violation("\u{1b}]0;x\u{7}", true).is_some());
}

/// Text with every kind of trouble in it, often.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\\".to_owned()),
        Just("u{".to_owned()),
        Just("\\u{1b}".to_owned()),
        Just("::".to_owned()),
        Just(":".to_owned()),
        Just("#".to_owned()),
        Just("##[".to_owned()),
        Just("[".to_owned()),
        Just(" ".to_owned()),
        Just("\u{3000}".to_owned()),
        Just("\n".to_owned()),
        Just("\r".to_owned()),
        Just("}".to_owned()),
        "[a-f0-9]{1,3}",
        any::<char>().prop_map(String::from),
        prop::sample::select(vec![
            '\u{0}',
            '\u{1b}',
            '\u{7f}',
            '\u{85}',
            '\u{9f}',
            '\u{202a}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}',
            '\u{2028}',
            '\u{2029}',
            '\u{61c}',
            '\u{200b}',
            '\u{200e}',
            '\u{200f}',
            '\u{2060}',
            '\u{feff}',
            '\u{e0001}',
            '\u{e007f}',
            '\u{e0080}',
            '\u{200a}',
            '\u{fefe}',
        ])
        .prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

proptest! {
    /// The fast path says "plain" only where the escaping would change
    /// nothing.
    #[test]
    fn the_fast_path_never_skips_an_escape(raw in hostile()) {
        if is_plain(&raw, false) {
            prop_assert_eq!(escape_text(&raw, |_| false), raw.clone());
        }
        if is_plain(&raw, true) {
            prop_assert_eq!(escape_json(&raw), raw.clone());
        }
    }

    #[test]
    fn the_notation_is_reversible_and_neutral(raw in hostile()) {
        let shown = text(&raw);
        prop_assert_eq!(decode(&shown), raw.clone());
        prop_assert_eq!(violation(&shown, false), None);
        // Behind any prefix a renderer puts, or none.
        prop_assert_eq!(violation(&format!("  | {shown}"), false), None);
    }

    #[test]
    fn lines_are_neutral_and_keep_their_text(raw in hostile()) {
        let shown: Vec<String> = lines(&raw).map(Cow::into_owned).collect();
        let back: Vec<String> = shown.iter().map(|line| decode(line)).collect();
        let expected: Vec<&str> = raw.lines().collect();
        prop_assert_eq!(back, expected);
        prop_assert_eq!(violation(&block(&raw), false), None);
    }

    #[test]
    fn json_strings_keep_their_value_and_are_neutral(raw in hostile()) {
        let quoted = json_string(&raw);
        prop_assert_eq!(violation(&quoted, false), None);
        let back: String = serde_json::from_str(&quoted).unwrap();
        prop_assert_eq!(back, raw);
    }

    #[test]
    fn json_text_keeps_its_value_and_is_neutral(raw in hostile(), pretty in any::<bool>()) {
        let value = serde_json::json!({ "k": [raw.clone(), { raw.clone(): 1 }] });
        let written = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        let shown = json(&written);
        prop_assert_eq!(violation(&shown, false), None);
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        prop_assert_eq!(back, value);
    }
}
