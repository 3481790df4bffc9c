use proptest::prelude::*;
use serde_json::value::RawValue;

use super::*;

/// A source that gives at most `step` bytes per read, so that every
/// element straddles reads somewhere.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(out.len()).min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Every element as (offset, line, bytes), or the error's text.
fn read_all(bytes: &[u8], mode: Mode, step: usize) -> Result<Vec<(u64, usize, Vec<u8>)>, String> {
    read_counting(bytes, mode, step, Lines::Each)
}

/// [`read_all`], counting only `lines`.
fn read_counting(
    bytes: &[u8],
    mode: Mode,
    step: usize,
    lines: Lines,
) -> Result<Vec<(u64, usize, Vec<u8>)>, String> {
    let mut reader = ElementReader::new(Trickle { bytes, step }, mode).counting(lines);
    let mut out = Vec::new();
    loop {
        match reader.next_element() {
            Ok(Some(element)) => {
                assert_eq!(element.index, out.len());
                out.push((element.offset, element.line, element.bytes.to_vec()));
            }
            Ok(None) => return Ok(out),
            Err(error) => return Err(error.to_string()),
        }
    }
}

const STRICT: Mode = Mode::Strict { validate: true };

/// What serde_json makes of the whole text: the reference for strict mode.
fn serde_reference(bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let text = std::str::from_utf8(bytes).map_err(|error| format!("not UTF-8: {error}"))?;
    if !text
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('[')
    {
        return Err("not a JSON array".into());
    }
    let elements: Vec<&RawValue> =
        serde_json::from_str(text).map_err(|error| format!("not a JSON array: {error}"))?;
    Ok(elements
        .into_iter()
        .map(|raw| raw.get().as_bytes().to_vec())
        .collect())
}

/// The splitter case files used before the streaming reader: the
/// reference for lenient mode.
fn lenient_reference(bytes: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    let skip = |mut at: usize| {
        while at < bytes.len() && is_space(bytes[at]) {
            at += 1;
        }
        at
    };
    let mut at = skip(0);
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    at += 1;
    let (mut spans, mut depth, mut start, mut end) = (Vec::new(), 0usize, None, at);
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                start.get_or_insert(at);
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                at += 1;
                end = at.min(bytes.len());
                continue;
            }
            b'[' | b'{' => {
                start.get_or_insert(at);
                depth += 1;
            }
            b']' | b'}' if depth > 0 => depth -= 1,
            b']' => {
                if let Some(start) = start.take() {
                    spans.push(start..end);
                } else if !spans.is_empty() {
                    return None;
                }
                return (skip(at + 1) == bytes.len()).then_some(spans);
            }
            b',' if depth == 0 => {
                spans.push(start.take()?..end);
                at += 1;
                continue;
            }
            byte if is_space(byte) => {
                at += 1;
                continue;
            }
            _ => {
                start.get_or_insert(at);
            }
        }
        at += 1;
        end = at;
    }
    None
}

fn strict(text: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    read_all(text, STRICT, 3).map(|elements| elements.into_iter().map(|(_, _, b)| b).collect())
}

#[test]
fn strict_mode_reads_what_serde_json_reads_and_says_what_it_says() {
    for text in [
        "[]",
        " [ ] \n",
        "[1, \"a,]\\\"\" ,{\"x\":[1,2]},[[]],null,-1e3]",
        "[\n{\"a\":1},\n2\n]\n",
        "",
        "   ",
        "{}",
        "x",
        "[",
        "[1",
        "[1,",
        "[1,]",
        "[,1]",
        "[1,,2]",
        "[1 2]",
        "[1] x",
        "[1]]",
        "[1x]",
        "[-]",
        "[tru]",
        "[nul,1]",
        "[\"a]",
        "[\"a\\",
        "[{\"a\":}]",
        "[{\"a\" 1}]",
        "[[1}]",
        "[{]}",
        "[1.]",
        "[01]",
        "[1e]",
        "[\"\\x\"]",
        "[\"tab\there\"]",
        "[Infinity]",
        "[\u{e9}]",
        "[1\u{e9}]",
        "[\"\\u12\"]",
        "[\"\\u\"]",
        "[\"\\u12\"",
        "[\n  1,\n  {\"a\":\n   [1,,]}\n]",
        "[\"é\", \"\u{1F600}\"]",
    ] {
        assert_eq!(
            strict(text.as_bytes()),
            serde_reference(text.as_bytes()),
            "{text:?}"
        );
    }
}

#[test]
fn strict_mode_says_where_utf8_breaks() {
    for bytes in [
        &b"[\"\xff\"]"[..],
        b"[1,\"ok\",\"\xe2\x82\"]",
        b"\n[1,\n\"x\xc3\x28\"]",
        b"[1,\xff]",
    ] {
        assert_eq!(strict(bytes), serde_reference(bytes), "{bytes:?}");
    }
    // Not `[` and not UTF-8 either: the text is not UTF-8.
    assert_eq!(
        strict(b"\xff[1]").unwrap_err(),
        "not UTF-8: invalid utf-8 sequence of 1 bytes from index 0"
    );
}

#[test]
fn elements_know_their_offsets_and_lines() {
    let text = b"[\n{\"a\":\"x\\ny\"},\n\n  2 ,\"\n\"\n]";
    let expected = vec![
        (2, 2, b"{\"a\":\"x\\ny\"}".to_vec()),
        (19, 4, b"2".to_vec()),
        (22, 4, b"\"\n\"".to_vec()),
    ];
    for step in [1, 2, 5, 1000] {
        assert_eq!(
            read_all(text, Mode::Lenient, step).unwrap(),
            expected,
            "{step}"
        );
    }
    // Strict mode refuses the raw newline in a string, on line 4.
    assert_eq!(
        read_all(text, STRICT, 7).unwrap_err(),
        serde_reference(text).unwrap_err()
    );
    // Counting no line, the same elements at the same offsets, on line 0.
    let mut uncounted = ElementReader::new(&text[..], Mode::Lenient).counting(Lines::None);
    let mut found = Vec::new();
    while let Some(element) = uncounted.next_element().unwrap() {
        found.push((element.offset, element.line, element.bytes.to_vec()));
    }
    let on_line_0: Vec<_> = expected
        .iter()
        .map(|(offset, _, bytes)| (*offset, 0, bytes.clone()))
        .collect();
    assert_eq!(found, on_line_0);
    let mut reader = ElementReader::new(&b"[1,2,3]"[..], Mode::Lenient);
    assert_eq!(reader.next_element().unwrap().unwrap().bytes, b"1");
    assert_eq!(reader.elements_read(), 1);
    assert_eq!(reader.count().unwrap(), 3);
}

#[test]
fn lenient_mode_splits_as_case_files_always_were() {
    for text in [
        &b"[]"[..],
        b" [ ] \n",
        b"[1, \"a,]\\\"\" ,{\"x\":[1,2]},[[]],null,-1e3]",
        b"[\"\xff\",2]",
        b"[1 2, 3]",
        b"[{]}, }]",
        b"",
        b"{}",
        b"[1,]",
        b"[,1]",
        b"[1",
        b"[1] x",
        b"[1,,2]",
        b"x",
        b"[\"a",
        b"[\"a\\",
    ] {
        let got = read_all(text, Mode::Lenient, 2).ok().map(|elements| {
            elements
                .into_iter()
                .map(|(offset, _, bytes)| offset as usize..offset as usize + bytes.len())
                .collect::<Vec<_>>()
        });
        assert_eq!(got, lenient_reference(text), "{text:?}");
    }
    assert_eq!(
        read_all(b"{}", Mode::Lenient, 1).unwrap_err(),
        "not a JSON array"
    );
}

#[test]
fn a_huge_element_grows_the_buffer_and_gives_it_back() {
    let big = format!("\"{}\"", "x".repeat(1 << 20));
    let text = format!("[{big},1,{big}]");
    let mut reader = ElementReader::new(text.as_bytes(), STRICT);
    assert_eq!(
        reader.next_element().unwrap().unwrap().bytes.len(),
        big.len()
    );
    assert!(reader.buf.len() >= big.len());
    assert_eq!(reader.next_element().unwrap().unwrap().bytes, b"1");
    assert_eq!(
        reader.next_element().unwrap().unwrap().offset,
        1 + big.len() as u64 + 3
    );
    assert!(reader.next_element().unwrap().is_none());
    // Small elements after a large one: the buffer shrinks again.
    let text = format!("[{big}{}]", ",1".repeat(2_000_000));
    let mut reader = ElementReader::new(text.as_bytes(), STRICT);
    while reader.next_element().unwrap().is_some() {}
    assert!(reader.buf.len() <= 4 * CHUNK, "{}", reader.buf.len());
}

#[test]
fn read_errors_are_not_syntax_errors() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let error = ElementReader::new(Failing, STRICT)
        .next_element()
        .unwrap_err();
    assert!(matches!(error, ReadError::Io(_)));
    assert_eq!(error.to_string(), "disk on fire");
}

fn json_ish() -> impl Strategy<Value = Vec<u8>> {
    let pieces = prop::sample::select(vec![
        "[", "]", "{", "}", ",", ":", "\"", "\\", " ", "\n", "1", "-", "e", ".", "a", "true",
        "null", "\"k\"", "\u{e9}", "\\u12", "x",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|pieces| pieces.concat().into_bytes())
}

fn arrays() -> impl Strategy<Value = Vec<u8>> {
    // Mostly well-formed arrays with a flaw here and there.
    let element = prop::sample::select(vec![
        "1",
        "-0.5e3",
        "\"s\"",
        "\"a\\\"b\"",
        "{\"k\":[1,{}]}",
        "[]",
        "null",
        "true",
        "[[\"]\"]]",
        "{\"a\":1",
        "1x",
        "\"\\q\"",
        "",
    ]);
    (
        prop::collection::vec(element, 0..6),
        prop::sample::select(vec![",", " , ", ",\n", ",,"]),
        prop::sample::select(vec!["", " ", "\n", "x"]),
    )
        .prop_map(|(elements, sep, tail)| format!("[{}]{tail}", elements.join(sep)).into_bytes())
}

proptest! {
    #[test]
    fn strict_mode_agrees_with_serde_json(
        text in prop_oneof![json_ish(), arrays()],
        step in 1usize..8,
    ) {
        let got = read_all(&text, STRICT, step)
            .map(|elements| elements.into_iter().map(|(_, _, b)| b).collect::<Vec<_>>());
        prop_assert_eq!(&got, &serde_reference(&text));
        // Counting lines only for errors: the same elements, on line 0,
        // and the same errors, at the same lines.
        let for_errors = read_counting(&text, STRICT, step, Lines::ForErrors);
        if let Ok(elements) = &for_errors {
            prop_assert!(elements.iter().all(|(_, line, _)| *line == 0));
        }
        let for_errors = for_errors
            .map(|elements| elements.into_iter().map(|(_, _, b)| b).collect::<Vec<_>>());
        prop_assert_eq!(for_errors, got);
    }

    #[test]
    fn lenient_mode_agrees_with_the_old_splitter(
        text in prop_oneof![json_ish(), arrays()],
        step in 1usize..8,
    ) {
        let got = read_all(&text, Mode::Lenient, step).ok().map(|elements| {
            elements
                .into_iter()
                .map(|(offset, _, bytes)| offset as usize..offset as usize + bytes.len())
                .collect::<Vec<_>>()
        });
        prop_assert_eq!(got, lenient_reference(&text));
    }

    #[test]
    fn unvalidated_strict_mode_splits_valid_arrays_alike(text in arrays(), step in 1usize..8) {
        if let Ok(expected) = serde_reference(&text) {
            let got = read_all(&text, Mode::Strict { validate: false }, step).unwrap();
            let got: Vec<Vec<u8>> = got.into_iter().map(|(_, _, b)| b).collect();
            prop_assert_eq!(got, expected);
        }
    }
}
