//! The string layer's tests: UTF-16 semantics over WTF-8, lone
//! surrogates and pairs cut in two, and the memory a large string costs.

use super::*;

fn units(text: &[u16]) -> JsString {
    JsString::from_utf16(text)
}

#[test]
fn length_counts_utf16_code_units() {
    assert_eq!(JsString::from("").len_utf16(), 0);
    assert_eq!(JsString::from("abc").len_utf16(), 3);
    assert_eq!(JsString::from("é").len_utf16(), 1);
    assert_eq!(JsString::from("😀").len_utf16(), 2);
    assert_eq!(units(&[0xD800]).len_utf16(), 1);
    assert_eq!(units(&[0xD83D, 0xDE00, 0xDC00]).len_utf16(), 3);
}

#[test]
fn adjacent_surrogates_join_into_one_character() {
    let pair = units(&[0xD83D, 0xDE00]);
    assert_eq!(pair, JsString::from("😀"));
    let mut joined = units(&[0xD83D]);
    joined.push_js(&units(&[0xDE00]));
    assert_eq!(joined, JsString::from("😀"));
    let mut code_unit = units(&[0xD83D]);
    code_unit.push_code_unit(0xDE00);
    assert_eq!(code_unit, JsString::from("😀"));
    // A low surrogate before a high one stays two lone surrogates.
    let reversed = units(&[0xDE00, 0xD83D]);
    assert_eq!(reversed.len_utf16(), 2);
    assert_eq!(reversed.to_utf16(), vec![0xDE00, 0xD83D]);
}

#[test]
fn slice_cuts_pairs_into_lone_surrogates() {
    let text = JsString::from("a😀b");
    assert_eq!(text.slice_utf16(0, 2).to_utf16(), vec![0x61, 0xD83D]);
    assert_eq!(text.slice_utf16(2, 4).to_utf16(), vec![0xDE00, 0x62]);
    assert_eq!(text.slice_utf16(1, 3), JsString::from("😀"));
    assert_eq!(text.slice_utf16(3, 99), JsString::from("b"));
    assert_eq!(text.code_unit_at(1), Some(0xD83D));
    assert_eq!(text.code_unit_at(2), Some(0xDE00));
    assert_eq!(text.code_unit_at(4), None);
}

#[test]
fn trim_uses_javascript_white_space() {
    let text = JsString::from("\u{FEFF}\u{3000} a b\u{2028}\t\u{A0}");
    assert_eq!(text.trim(), JsString::from("a b"));
    assert_eq!(text.trim_start(), JsString::from("a b\u{2028}\t\u{A0}"));
    assert_eq!(text.trim_end(), JsString::from("\u{FEFF}\u{3000} a b"));
    // U+0085 is not JavaScript white space.
    assert_eq!(
        JsString::from("\u{85}x\u{85}").trim(),
        JsString::from("\u{85}x\u{85}")
    );
    assert!(JsString::from(" \n\u{200A}").is_blank());
    assert_eq!(JsString::from(" \n ").trim(), JsString::new());
    assert_eq!(units(&[0x20, 0xD800, 0x20]).trim().to_utf16(), vec![0xD800]);
}

#[test]
fn split_and_replace_are_javascript_split_and_join() {
    let text = JsString::from("$DIR/a$DIR$DIR");
    let parts: Vec<String> = text.split("$DIR").iter().map(|p| p.to_string()).collect();
    assert_eq!(parts, vec!["", "/a", "", ""]);
    assert_eq!(text.replace_all("$DIR", "/t"), JsString::from("/t/a/t/t"));
    assert_eq!(
        JsString::from("none").replace_all("$DIR", "/t"),
        JsString::from("none")
    );
    let surrogates = units(&[0xD83D, 0x2C, 0xDE00]);
    assert_eq!(surrogates.replace_all(",", ""), JsString::from("😀"));
}

#[test]
fn concat_macro_joins_parts() {
    let arg = units(&[0x78, 0xD800]);
    let message = crate::js_concat!("unexpected argument ", arg, "!");
    assert_eq!(message.to_utf16()[20..], [0x78, 0xD800, 0x21]);
}

#[test]
fn lossy_utf8_replaces_lone_surrogates() {
    assert_eq!(units(&[0x61, 0xD800]).to_utf8_lossy(), "a\u{FFFD}");
    assert_eq!(units(&[0xDC00, 0xD800]).to_utf8_lossy(), "\u{FFFD}\u{FFFD}");
    assert_eq!(units(&[0x61, 0xD800]).as_str(), None);
    assert_eq!(JsString::from("é").as_str(), Some("é"));
}

#[test]
fn into_utf8_lossy_is_to_utf8_lossy_owned() {
    let large = "é".repeat(crate::string::SHARED_FROM);
    for string in [
        JsString::from("plain é 😀"),
        units(&[0x61, 0xD800]),
        units(&[0xD83D, 0xDE00, 0xDC00]),
        JsString::new(),
        JsString::from(large.as_str()),
    ] {
        let lossy = string.to_utf8_lossy().into_owned();
        assert_eq!(string.into_utf8_lossy(), lossy);
    }
}

#[test]
fn starts_with_a_lone_high_surrogate_matches_half_a_pair() {
    let text = JsString::from("😀x");
    assert!(text.starts_with_js(&units(&[0xD83D])));
    assert!(!text.starts_with_js(&units(&[0xD83C])));
}

/// Strings with every kind of character: ASCII, two- and three-byte ones,
/// pairs, and lone surrogates of both kinds, next to each other and at
/// either end.
fn awkward_strings() -> Vec<JsString> {
    vec![
        JsString::new(),
        JsString::from("abc"),
        JsString::from("a😀b"),
        JsString::from("😀😀"),
        JsString::from("é\u{2028}😀x"),
        units(&[0xD800]),
        units(&[0xDC00, 0x61]),
        units(&[0x61, 0xD83D]),
        units(&[0xDE00, 0xD83D, 0xDE00, 0xD83D]),
        units(&[0xD83D, 0xDE00, 0xDC00, 0xD800, 0x7A]),
    ]
}

#[test]
fn slices_and_code_units_match_the_utf16_units_at_every_index() {
    for text in awkward_strings() {
        let all = text.to_utf16();
        assert_eq!(text.len_utf16(), all.len(), "{text:?}");
        for index in 0..=all.len() + 1 {
            assert_eq!(text.code_unit_at(index), all.get(index).copied());
        }
        for start in 0..=all.len() + 1 {
            for end in 0..=all.len() + 2 {
                let expected = if start < end.min(all.len()) {
                    JsString::from_utf16(&all[start..end.min(all.len())])
                } else {
                    JsString::new()
                };
                let slice = text.slice_utf16(start, end);
                assert_eq!(slice, expected, "{text:?}.slice({start}, {end})");
                assert_eq!(slice.to_utf16(), expected.to_utf16());
            }
        }
    }
}

#[test]
fn cuts_fall_between_characters_or_inside_a_pair() {
    let text = JsString::from("a😀b");
    let text = text.as_js_str();
    fn between(before: &'static str, after: &'static str) -> UnitCut<'static> {
        UnitCut::Between(JsStr::from(before), JsStr::from(after))
    }
    assert_eq!(text.cut_at_unit(0), between("", "a😀b"));
    assert_eq!(text.cut_at_unit(1), between("a", "😀b"));
    assert_eq!(
        text.cut_at_unit(2),
        UnitCut::InsidePair {
            before: JsStr::from("a"),
            high: 0xD83D,
            low: 0xDE00,
            after: JsStr::from("b"),
        }
    );
    assert_eq!(text.cut_at_unit(3), between("a😀", "b"));
    assert_eq!(text.cut_at_unit(4), between("a😀b", ""));
    assert_eq!(text.cut_at_unit(99), between("a😀b", ""));
    assert_eq!(text.cut_from_end(0), between("a😀b", ""));
    assert_eq!(text.cut_from_end(1), between("a😀", "b"));
    assert_eq!(text.cut_from_end(2), text.cut_at_unit(2));
    assert_eq!(text.cut_from_end(3), between("a", "😀b"));
    assert_eq!(text.cut_from_end(4), between("", "a😀b"));
    assert_eq!(text.cut_from_end(99), between("", "a😀b"));
    // Lone surrogates are single units: a cut never falls inside one.
    let lone = units(&[0xDC00, 0xD800]);
    let UnitCut::Between(before, after) = lone.as_js_str().cut_from_end(1) else {
        panic!("a lone surrogate is cut as a whole character");
    };
    assert_eq!(before.to_js_string().to_utf16(), [0xDC00]);
    assert_eq!(after.to_js_string().to_utf16(), [0xD800]);
}

#[test]
fn cuts_from_either_end_agree_with_the_units() {
    for text in awkward_strings() {
        let all = text.to_utf16();
        for count in 0..=all.len() {
            let from_end = text.as_js_str().cut_from_end(count);
            assert_eq!(from_end, text.as_js_str().cut_at_unit(all.len() - count));
            let (before, after) = match from_end {
                UnitCut::Between(before, after) => (before.to_js_string(), after.to_js_string()),
                UnitCut::InsidePair {
                    before,
                    high,
                    low,
                    after,
                } => {
                    let mut head = before.to_js_string();
                    head.push_code_unit(high);
                    let mut tail = units(&[low]);
                    tail.push_js_str(after);
                    (head, tail)
                }
            };
            assert_eq!(before.to_utf16(), all[..all.len() - count], "{text:?}");
            assert_eq!(after.to_utf16(), all[all.len() - count..], "{text:?}");
        }
    }
}

#[test]
fn borrowed_pieces_split_trim_and_strip_without_copying() {
    let text = JsString::from(" a\r\n\u{3000}b \n\nc");
    let lines: Vec<JsStr<'_>> = text.as_js_str().split("\n").collect();
    assert_eq!(lines, [" a\r", "\u{3000}b ", "", "c"]);
    let whole = text.as_wtf8().as_ptr_range();
    assert!(lines
        .iter()
        .all(|line| whole.contains(&line.as_wtf8().as_ptr()) || line.is_empty()));
    assert_eq!(
        lines[0].strip_suffix("\r").map(JsStr::trim_start),
        Some(JsStr::from("a"))
    );
    assert_eq!(lines[1].trim(), "b");
    assert_eq!(lines[1].trim_end(), "\u{3000}b");
    assert_eq!(lines[1].trim_start(), "b ");
    assert!(lines[2].is_blank() && !lines[3].is_blank());
    assert_eq!(text.as_js_str().first_line(), " a\r");
    assert_eq!(
        text.as_js_str().split_once("b"),
        Some((JsStr::from(" a\r\n\u{3000}"), JsStr::from(" \n\nc")))
    );
    assert_eq!(text.as_js_str().split_once("z"), None);
    assert_eq!(JsStr::from("x").split("x").collect::<Vec<_>>(), ["", ""]);
    assert_eq!(JsStr::from("").split("x").collect::<Vec<_>>(), [""]);
    assert!(text.as_js_str().contains("b \n") && !text.as_js_str().contains("b\n"));
    assert_eq!(
        JsStr::from("😀").split_once("😀"),
        Some((JsStr::from(""), JsStr::from("")))
    );
}

#[test]
fn a_large_string_is_shared_by_its_copies_and_copied_on_write() {
    // Sharing costs no room in a value: the variant hides in a niche.
    assert_eq!(
        std::mem::size_of::<JsString>(),
        std::mem::size_of::<Vec<u8>>()
    );
    let large = JsString::from("x".repeat(SHARED_FROM).as_str());
    let copy = large.clone();
    assert_eq!(copy.as_wtf8().as_ptr(), large.as_wtf8().as_ptr());
    let mut grown = copy.clone();
    grown.push_str("y");
    assert_ne!(grown.as_wtf8().as_ptr(), large.as_wtf8().as_ptr());
    assert_eq!(large.as_wtf8().len(), SHARED_FROM);
    assert_eq!(copy, large);
    assert!(grown.ends_with("xy"));
    // A string that grows large by appending is shared from then on.
    let mut built = JsString::new();
    built.push_str(&"z".repeat(SHARED_FROM - 1));
    built.push_code_unit(0xD800);
    assert_eq!(built.clone().as_wtf8().as_ptr(), built.as_wtf8().as_ptr());
    // Shared or not, equal strings are equal and hash alike.
    let small_then_large = JsString::from("x".repeat(SHARED_FROM).as_str());
    let mut pushed = JsString::with_capacity(0);
    pushed.push_str(&"x".repeat(SHARED_FROM));
    let set: std::collections::HashSet<JsString> = [small_then_large, pushed].into();
    assert_eq!(set.len(), 1);
    // Its pieces share it only when they are all of it.
    let padded = JsString::from(format!(" {} ", "p".repeat(SHARED_FROM)).as_str());
    assert_eq!(padded.trim().as_wtf8().len(), SHARED_FROM);
    assert_ne!(padded.trim().as_wtf8().as_ptr(), padded.as_wtf8().as_ptr());
    assert_eq!(large.trim().as_wtf8().as_ptr(), large.as_wtf8().as_ptr());
    assert_eq!(
        large.replace_all("$DIR", "/t").as_wtf8().as_ptr(),
        large.as_wtf8().as_ptr()
    );
    assert_eq!(
        large.first_line().as_wtf8().as_ptr(),
        large.as_wtf8().as_ptr()
    );
}

#[test]
fn concat_reserves_the_exact_length_once() {
    let large = JsString::from("x".repeat(3 * SHARED_FROM).as_str());
    let flag = "--token";
    let message = crate::js_concat!("for ", large, " within ", 7.to_string(), "ms ", *flag);
    assert_eq!(message.as_wtf8().len(), 3 * SHARED_FROM + 23);
    assert!(message.starts_with("for xx") && message.ends_with("x within 7ms --token"));
    let Bytes::Shared(bytes) = &message.bytes else {
        panic!("a large message is shared");
    };
    assert_eq!(bytes.capacity(), bytes.len());
    // Halves of a pair in two parts still join into one character.
    let joined = crate::js_concat!(units(&[0x61, 0xD83D]), units(&[0xDE00]));
    assert_eq!(joined, JsString::from("a😀"));
    assert_eq!(joined.as_wtf8().len(), 5);
}

#[test]
fn replace_in_place_is_replace_all_and_keeps_a_lone_owner_s_bytes() {
    let samples = [
        units(&[0x2F, 0x74, 0x2F, 0xD83D, 0x2F, 0x74, 0xDE00]),
        units(&[0xD83D, 0x2F, 0x74, 0x2F, 0xDE00]),
        JsString::from("/t/a/t/t/"),
        JsString::from("none"),
        JsString::from("/t"),
        JsString::from(""),
    ];
    for text in samples {
        for (from, to) in [("/t", "$"), ("/t/", "$D"), ("/t", "/t"), ("/", "")] {
            let mut in_place = text.clone();
            in_place.replace_all_in_place(from, to);
            let expected = text.replace_all(from, to);
            assert_eq!(in_place, expected, "{text:?} {from:?} → {to:?}");
            assert_eq!(in_place.as_wtf8(), expected.as_wtf8(), "canonical bytes");
        }
    }
    // A large string no other copy uses is rewritten where it stands.
    let mut large = JsString::from(format!("/scratch/x{}", "y".repeat(SHARED_FROM)).as_str());
    let before = large.as_wtf8().as_ptr();
    large.replace_all_in_place("/scratch/x", "$DIR");
    assert_eq!(large.as_wtf8().as_ptr(), before);
    assert!(large.starts_with("$DIRyy"));
    assert_eq!(large.as_wtf8().len(), 4 + SHARED_FROM);
    // One that another copy shares is copied, and the copy is left alone.
    let shared = large.clone();
    large.replace_all_in_place("$DIR", "$");
    assert!(shared.starts_with("$DIRyy") && large.starts_with("$yy"));
}
