use super::*;
use std::fs;

const EXAMPLE: &str = "\
# parity-diff ledger: divergences of this port from the goldens that are known.
# Edit reasons and links freely; `parity-diff accept` adds and updates entries.

# Sorting is tracked upstream too.
case argv.json \"sum: every option set\"
  op: sum
  state: triaged https://github.com/acme/port/issues/12
  reason: allowedForwardPorts are printed in insertion order, not sorted
  verdict: different
  paths: /value/14 /value/15
  fingerprint: 3f2a9c1b7d4e5f60

case \"odd dir/x.json\" #0123456789ab
  op: \" spaced op\"
  state: accepted
  reason: we print -0 as 0 on purpose
  paths: \"\" \"/a b\" /c
  fingerprint: 00000000000000ff
";

fn id(file: &str, name: &str) -> CaseId {
    CaseId {
        file: file.into(),
        key: CaseKey::Name(name.into()),
    }
}

/// An accepted entry of a case, its verdict `missing`.
fn accepted(file: &str, name: &str) -> Entry {
    Entry {
        id: id(file, name),
        op: None,
        state: EntryState::Accepted,
        reason: "r".into(),
        verdict: Some("missing".into()),
        paths: Vec::new(),
        fingerprint: "0000000000000001".into(),
        comments: Vec::new(),
    }
}

/// The `case` lines of a ledger's text.
fn case_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("case ")).collect()
}

#[test]
fn the_documented_example_reads_and_writes_back_unchanged() {
    let ledger = Ledger::parse(EXAMPLE).unwrap();
    assert_eq!(ledger.len(), 2);
    let entry = ledger
        .get(&id("argv.json", "sum: every option set"))
        .unwrap();
    assert_eq!(entry.op.as_deref(), Some("sum"));
    assert_eq!(
        entry.state,
        EntryState::Triaged {
            link: Some("https://github.com/acme/port/issues/12".into())
        }
    );
    assert_eq!(entry.paths, ["/value/14", "/value/15"]);
    assert_eq!(entry.fingerprint, "3f2a9c1b7d4e5f60");
    assert_eq!(entry.comments, ["# Sorting is tracked upstream too."]);
    let other = ledger
        .get(&CaseId {
            file: "odd dir/x.json".into(),
            key: CaseKey::Hash("0123456789ab".into()),
        })
        .unwrap();
    assert_eq!(other.op.as_deref(), Some(" spaced op"));
    assert_eq!(other.paths, ["", "/a b", "/c"]);
    assert_eq!(other.verdict, None);
    assert_eq!(ledger.header.len(), 2);
    assert_eq!(ledger.render(), EXAMPLE);
}

#[test]
fn entries_are_written_sorted_whatever_order_they_came_in() {
    let mut ledger = Ledger::default();
    for (file, name) in [("b.json", "z"), ("a.json", "y"), ("b.json", "a")] {
        ledger.insert(accepted(file, name));
    }
    let text = ledger.render();
    assert_eq!(
        case_lines(&text),
        [
            "case a.json \"y\"",
            "case b.json \"a\"",
            "case b.json \"z\""
        ]
    );
    assert!(text.starts_with(HEADER));
    let read = Ledger::parse(&text).unwrap();
    assert_eq!(read, ledger);
    assert_ne!(ledger.fingerprint(), Ledger::default().fingerprint());
    // Read or made, the same text has the same fingerprint.
    assert_eq!(read.fingerprint(), ledger.fingerprint());
}

#[test]
fn parse_errors_name_the_line() {
    for (text, line, message) in [
        ("  op: x\n", 1, "an indented line outside any entry"),
        ("hello\n", 1, "expected `case FILE KEY`"),
        ("case a.json\n", 1, "a case is `case FILE \"NAME\"`"),
        ("case a.json #\n", 1, "a malformed case hash"),
        (
            "case a.json \"x\" y\n",
            1,
            "unexpected text after the case name",
        ),
        ("case a.json \"x\n", 1, "a malformed quoted string"),
        (
            "case a.json \"x\"\n  state: accepted\n",
            1,
            "the entry for a.json \"x\" has no `fingerprint`",
        ),
        (
            "case a.json \"x\"\n  fingerprint: 0000000000000001\n",
            1,
            "has no `state`",
        ),
        (
            "case a.json \"x\"\n  color: red\n",
            2,
            "unknown member `color`",
        ),
        (
            "case a.json \"x\"\n  state: maybe\n",
            2,
            "state is `accepted`",
        ),
        (
            "case a.json \"x\"\n  state: accepted http://x\n",
            2,
            "takes no link",
        ),
        ("case a.json \"x\"\n  fingerprint: 12\n", 2, "16 hex digits"),
        (
            "case a.json \"x\"\n  reason: a\n  reason: b\n",
            3,
            "`reason` given twice",
        ),
        ("case a.json \"x\"\n  nothing\n", 2, "expected `key: value`"),
        (
            "case a.json \"x\"\n  state: accepted\n  fingerprint: 0000000000000001\n\
             case a.json \"x\"\n  state: accepted\n  fingerprint: 0000000000000001\n",
            4,
            "a second entry for a.json \"x\"",
        ),
    ] {
        let (found_line, found) = Ledger::parse(text).unwrap_err();
        assert_eq!(found_line, line, "{text:?}: {found}");
        assert!(found.contains(message), "{text:?}: {found}");
    }
}

/// Issue 18's tenth defect: a line of two spaces between entries was
/// `line 11: expected key: value, not ""`.
#[test]
fn lines_of_white_space_alone_are_blank_lines() {
    let expected = Ledger::parse(EXAMPLE).unwrap();
    for filler in [" ", "  ", "   ", "\t", "  \t", "\t  \t ", "    \r"] {
        let text = EXAMPLE
            .replace("\n\ncase", &format!("\n{filler}\ncase"))
            .replace(
                "  reason: we print",
                &format!("{filler}\n  reason: we print"),
            );
        let ledger = Ledger::parse(&text).unwrap_or_else(|e| panic!("{filler:?}: {e:?}"));
        assert_eq!(ledger, expected, "{filler:?}");
        assert_eq!(ledger.render(), EXAMPLE, "{filler:?}");
    }
}

/// Issue 18's eighth defect: names that differ only in bytes that are not
/// UTF-8 were one entry.
#[test]
fn escaped_file_names_read_back_as_they_were_written() {
    let mut ledger = Ledger::default();
    for file in [
        r"a\xff.json",
        r"a\xfe.json",
        r"a\\xff.json",
        r"sp ace\xff.json",
    ] {
        ledger.insert(accepted(file, "n"));
    }
    let text = ledger.render();
    assert_eq!(
        case_lines(&text),
        [
            r#"case a\\xff.json "n""#,
            r#"case a\xfe.json "n""#,
            r#"case a\xff.json "n""#,
            r#"case "sp ace\\xff.json" "n""#,
        ]
    );
    assert_eq!(Ledger::parse(&text).unwrap(), ledger);
}

/// Issue 38: file names kept a raw U+202E, U+009B and DEL where case
/// names were escaped.
#[test]
fn file_names_follow_the_case_names_escaping_rule() {
    let mut ledger = Ledger::default();
    for file in [
        "a\u{202e}b.json",
        "c\u{9b}d.json",
        "e\u{7f}.json",
        "f\u{200e}.json",
    ] {
        ledger.insert(accepted(file, "n\u{202e}"));
    }
    ledger.insert(accepted("g", "n"));
    let text = ledger.render();
    assert_eq!(
        case_lines(&text),
        [
            r#"case "a\u202eb.json" "n\u202e""#,
            r#"case "c\u009bd.json" "n\u202e""#,
            r#"case "e\u007f.json" "n\u202e""#,
            r#"case "f\u200e.json" "n\u202e""#,
            r#"case g "n""#,
        ]
    );
    assert_eq!(crate::base::outside::violation(&text, false), None);
    assert_eq!(Ledger::parse(&text).unwrap(), ledger);
}

#[test]
fn comments_and_blank_lines_anywhere_read() {
    let text = "case a.json \"x\"\r\n  # a note\n  state: accepted\n  fingerprint: 0000000000000001\n\n\n# tail\n";
    let ledger = Ledger::parse(text).unwrap();
    assert_eq!(ledger.len(), 1);
    assert!(ledger.header.is_empty());
    assert_eq!(Ledger::parse("").unwrap().len(), 0);
}

#[test]
fn the_default_path_is_beside_the_cases() {
    assert_eq!(default_path(Path::new("cases")), Path::new(DEFAULT_NAME));
    assert_eq!(default_path(Path::new("cases/")), Path::new(DEFAULT_NAME));
    assert_eq!(
        default_path(Path::new("/srv/port/corpus/cases")),
        Path::new("/srv/port/corpus/parity-ledger.txt")
    );
    assert_eq!(
        default_path(Path::new(".")),
        Path::new("./../parity-ledger.txt")
    );
}

#[test]
fn saving_keeps_the_files_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.txt");
    let lock = LedgerLock::acquire(&path).unwrap();
    Ledger::default().save(&lock).unwrap();
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o666 & !crate::base::files::umask());
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    Ledger::default().save(&lock).unwrap();
    drop(lock);
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(Ledger::load(&path).unwrap(), Ledger::default());
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary or lock file left behind");
    let error = Ledger::load(&dir.path().join("nope.txt")).unwrap_err();
    assert!(
        error.message.starts_with("cannot read the ledger"),
        "{error}"
    );
    fs::write(&path, "case x\n").unwrap();
    let error = Ledger::load(&path).unwrap_err();
    assert!(error.message.contains("line 1: a case is"), "{error}");
}

#[test]
fn the_example_in_the_documentation_reads_and_writes_back_unchanged() {
    let doc = include_str!("../../../../docs/LEDGER.md");
    let start = doc.find("```\n# parity-diff ledger").expect("an example") + 4;
    let end = start + doc[start..].find("```").expect("its end");
    let example = &doc[start..end];
    let ledger = Ledger::parse(example).unwrap();
    assert_eq!(ledger.len(), 3);
    assert_eq!(ledger.render(), example);
    let hashed = CaseId {
        file: "protocol.json".into(),
        key: CaseKey::Hash(crate::corpus::identity::short_hash(b"1")),
    };
    assert_eq!(ledger.get(&hashed).unwrap().fingerprint, "df097a73fa1baa24");
}
