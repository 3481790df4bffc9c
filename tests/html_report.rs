//! The HTML report in a real browser: headless Chromium loads the page
//! of the example partial port's run (examples/partial_port.py over the
//! bundled corpus, with a ledger that accepts some of its divergences),
//! runs its script, and dumps the DOM. The page must have rendered, its
//! counts must equal the JSON report's of the same run, and a filter
//! taken from the URL fragment must hide exactly the rows it should.
//! Markup in a corpus stays text in the browser, and the commands that
//! have no cases to show refuse the format.
//!
//! The tests that need Chromium (and python3, for the example port) are
//! `#[ignore]`d, so a plain `cargo test` lists them as ignored; run with
//! `--include-ignored` and without Chromium they fail and say how to
//! install it (`.ci/run` installs Debian's `chromium`).

use crate::parity_diff_support as support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::report::Report as JsonReport;
use support::{
    chromium, golden_of, require_chromium, require_python3, root, run, Corpus, CHROMIUM_HINT,
    EXAMPLE_PORT,
};

/// How long one page may take to load and dump.
const BROWSER_DEADLINE: Duration = Duration::from_secs(90);

/// The DOM of `page` after its script ran, with `fragment` in its URL.
fn dump_dom(page: &Path, fragment: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let url = format!("file://{}#{fragment}", page.display());
    // As root, Chromium refuses to start without --no-sandbox; the
    // network flags keep it from calling out (this runs offline).
    let chromium = chromium();
    let mut child = Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            panic!(
                "{} does not start ({error}): {CHROMIUM_HINT}",
                chromium.display()
            )
        });
    // Read both pipes meanwhile: a page's DOM is larger than a pipe holds.
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = reader(Box::new(child.stdout.take().unwrap()));
    let stderr = reader(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > BROWSER_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not dump {url} within {BROWSER_DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = std::process::Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    let dom = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success() && dom.contains("</html>"),
        "chromium failed on {url} ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    dom
}

/// One start tag of a dumped DOM: its name, attributes, and the text up
/// to the next tag.
#[derive(Debug)]
struct Tag {
    name: String,
    attributes: BTreeMap<String, String>,
    text: String,
}

impl Tag {
    fn get(&self, name: &str) -> Option<&str> {
        self.attributes.get(name).map(String::as_str)
    }

    fn has(&self, name: &str) -> bool {
        self.attributes.contains_key(name)
    }

    fn hidden(&self) -> bool {
        self.has("hidden")
    }
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The start tags of a serialized DOM (Chromium's, which quotes every
/// attribute value with `"`); script and style bodies are skipped.
fn tags(dom: &str) -> Vec<Tag> {
    let bytes = dom.as_bytes();
    let mut found: Vec<Tag> = Vec::new();
    let mut at = 0;
    while let Some(offset) = dom[at..].find('<') {
        let start = at + offset + 1;
        at = start;
        if !bytes.get(start).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        let mut end = start;
        let mut quoted = false;
        while end < bytes.len() && (quoted || bytes[end] != b'>') {
            if bytes[end] == b'"' {
                quoted = !quoted;
            }
            end += 1;
        }
        let inside = &dom[start..end];
        let name_end = inside
            .find(|c: char| c.is_whitespace() || c == '/')
            .unwrap_or(inside.len());
        let name = inside[..name_end].to_ascii_lowercase();
        let mut attributes = BTreeMap::new();
        let mut rest = &inside[name_end..];
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
            if rest.is_empty() {
                break;
            }
            let key_end = rest
                .find(|c: char| c.is_whitespace() || c == '=')
                .unwrap_or(rest.len());
            let key = rest[..key_end].to_owned();
            rest = &rest[key_end..];
            let value = if let Some(after) = rest.strip_prefix("=\"") {
                let close = after.find('"').unwrap_or(after.len());
                let value = unescape(&after[..close]);
                rest = &after[(close + 1).min(after.len())..];
                value
            } else {
                String::new()
            };
            attributes.insert(key, value);
        }
        at = (end + 1).min(dom.len());
        if name == "script" || name == "style" {
            let close = format!("</{name}>");
            at = dom[at..].find(&close).map_or(dom.len(), |n| at + n);
        }
        let text_end = dom[at..].find('<').map_or(dom.len(), |n| at + n);
        found.push(Tag {
            name,
            attributes,
            text: unescape(&dom[at..text_end]),
        });
    }
    found
}

/// The text of the element with this id.
fn text_of<'a>(tags: &'a [Tag], id: &str) -> &'a str {
    tags.iter()
        .find(|tag| tag.get("id") == Some(id))
        .map(|tag| tag.text.as_str())
        .unwrap_or_else(|| panic!("no element #{id}"))
}

/// What the test needs of the JSON report.
struct Report {
    summary: BTreeMap<String, u64>,
    /// Per op: passed, accepted, failed.
    by_op: BTreeMap<String, [u64; 3]>,
    /// The groups the page lists (not those of ops that only threw):
    /// op, signature, count.
    groups: Vec<(String, String, u64)>,
    /// The ops whose every case failed with the port throwing one
    /// message: the page lists them as one row each, not as groups.
    uniform: BTreeSet<String>,
}

/// A text as the page holds it: outside text in the report notation
/// (`\u{1b}` for a control character, docs/REPORT.md).
fn as_shown(text: &str) -> String {
    parity_diff::base::outside::text(text).into_owned()
}

impl Report {
    fn read(stdout: &str) -> Self {
        let json = JsonReport::read(stdout);
        let totals = json.totals();
        let summary = [
            ("passed", totals.passed),
            ("failed", totals.failed),
            ("accepted", totals.accepted),
            ("triaged", totals.triaged),
            ("new", totals.new),
            ("changed", totals.changed),
            ("stale", totals.stale),
            ("orphaned", totals.orphaned),
            ("skipped", totals.skipped),
            ("errors", totals.errors),
            ("exitCode", usize::from(json.summary.exit_code)),
        ]
        .into_iter()
        .map(|(key, count)| (key.to_owned(), count as u64))
        .collect();
        let by_op = json
            .by_op
            .iter()
            .map(|(op, tally)| {
                let counts = [tally.passed, tally.accepted, tally.failed].map(|n| n as u64);
                (as_shown(op), counts)
            })
            .collect();
        let mut thrown: BTreeMap<String, BTreeSet<Option<String>>> = BTreeMap::new();
        let mut passing = BTreeSet::new();
        let shown = |text: &Option<String>| text.as_deref().map(as_shown);
        // The op each group's op names stands under in the per-op table.
        let mut row_of: BTreeMap<Option<String>, String> = BTreeMap::new();
        for case in json.cases() {
            let op = match case.unknown_op {
                true => "(unknown op)".to_owned(),
                false => shown(&case.op).unwrap_or_else(|| "(no op)".to_owned()),
            };
            row_of.insert(case.op.clone(), op.clone());
            if case.passes() {
                passing.insert(op.clone());
            }
            thrown.entry(op).or_default().insert(shown(&case.thrown));
        }
        let uniform: BTreeSet<String> = thrown
            .into_iter()
            .filter(|(op, messages)| {
                !passing.contains(op) && messages.len() == 1 && !messages.contains(&None)
            })
            .map(|(op, _)| op)
            .collect();
        let groups = json
            .groups
            .iter()
            .map(|group| {
                (
                    row_of[&group.signature.op].clone(),
                    as_shown(&group.signature.text),
                    group.count as u64,
                )
            })
            .filter(|(op, ..)| !uniform.contains(op))
            .collect();
        Report {
            summary,
            by_op,
            groups,
            uniform,
        }
    }
}

/// The run: its JSON report and its HTML page, from one ledger.
struct Fixture {
    _dir: tempfile::TempDir,
    report: Report,
    page: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.txt");
    let ledger = ledger.to_str().unwrap();
    // Accept a part of two ops (their cases in protocol.json), so that
    // the run has accepted cases, new ones, and ops with both.
    let accepted = run(
        root(),
        &[
            "accept",
            "--ledger",
            ledger,
            "--oracle",
            EXAMPLE_PORT,
            "--filter",
            "protocol.json",
            "--op",
            "ipcParent",
            "--op",
            "liveness",
            "--reason",
            "not yet",
        ],
    );
    assert_eq!(accepted.code, 0, "{}{}", accepted.stdout, accepted.stderr);
    // Triage every case of one more op, so that the run has triaged
    // cases too.
    let triaged = run(
        root(),
        &[
            "accept",
            "--ledger",
            ledger,
            "--oracle",
            EXAMPLE_PORT,
            "--op",
            TRIAGED_OP,
            "--triaged",
            "--link",
            "https://example.test/issues/7",
            "--reason",
            "a known bug",
        ],
    );
    assert_eq!(triaged.code, 0, "{}{}", triaged.stdout, triaged.stderr);
    let report = |format: &str| {
        let ran = run(
            root(),
            &[
                "run",
                "--ledger",
                ledger,
                "--oracle",
                EXAMPLE_PORT,
                "--format",
                format,
            ],
        );
        assert_eq!(ran.code, 1, "{}", ran.stderr);
        ran.stdout
    };
    let json = Report::read(&report("json"));
    let page = dir.path().join("report.html");
    std::fs::write(&page, report("html")).unwrap();
    Fixture {
        _dir: dir,
        report: json,
        page,
    }
}

/// The op whose every case the fixture's ledger triages.
const TRIAGED_OP: &str = "stillborn";

/// The visible rows of the Triaged and Accepted sections (their states
/// begin with `accepted`).
fn accepted_rows(tags: &[Tag]) -> Vec<&Tag> {
    visible(tags, "data-filtered")
        .into_iter()
        .filter(|tag| tag.get("data-states").unwrap().starts_with("accepted"))
        .collect()
}

fn visible<'a>(tags: &'a [Tag], attribute: &str) -> Vec<&'a Tag> {
    tags.iter()
        .filter(|tag| tag.has(attribute) && !tag.hidden())
        .collect()
}

fn ops_of(tags: &[&Tag]) -> BTreeSet<String> {
    tags.iter()
        .map(|tag| tag.get("data-op").unwrap().to_owned())
        .collect()
}

#[test]
#[ignore = "needs python3 and chromium"]
fn the_html_report_renders_its_counts_and_filters_in_chromium() {
    require_python3();
    require_chromium();
    let fixture = fixture();
    let report = &fixture.report;
    let by_op = &report.by_op;
    let grouped = &report.groups;
    assert!(!grouped.is_empty() && !report.uniform.is_empty());

    // Unfiltered: rendered, and every count the JSON report's.
    let all = tags(&dump_dom(&fixture.page, ""));
    let body = all.iter().find(|tag| tag.name == "body").unwrap();
    assert_eq!(body.get("data-rendered"), Some("true"), "the script ran");
    assert_eq!(all.iter().filter(|tag| tag.name == "script").count(), 1);
    for (key, value) in &report.summary {
        if key == "exitCode" {
            let status = all.iter().find(|tag| tag.get("id") == Some("status"));
            assert_eq!(status.unwrap().get("data-exit-code"), Some("1"));
            assert_eq!(*value, 1);
        } else {
            let shown = text_of(&all, &format!("count-{key}"));
            assert_eq!(shown, value.to_string(), "summary.{key}");
        }
    }
    let rows = visible(&all, "data-op-row");
    assert_eq!(ops_of(&rows), by_op.keys().cloned().collect());
    let mut sums = [0u64; 3];
    for row in &rows {
        let counts = by_op[row.get("data-op").unwrap()];
        for (at, key) in ["passed", "accepted", "failed"].iter().enumerate() {
            let shown = row.get(&format!("data-{key}")).unwrap();
            assert_eq!(shown, counts[at].to_string(), "{key} of {row:?}");
            sums[at] += counts[at];
        }
    }
    // The foot is the script's sum of the rows shown.
    assert_eq!(text_of(&all, "sum-label"), "all ops");
    assert_eq!(text_of(&all, "sum-passed"), sums[0].to_string());
    assert_eq!(text_of(&all, "sum-accepted"), sums[1].to_string());
    assert_eq!(text_of(&all, "sum-failed"), sums[2].to_string());
    assert_eq!(sums[0], report.summary["passed"]);
    assert_eq!(sums[1], report.summary["accepted"]);
    let groups = visible(&all, "data-group");
    assert_eq!(groups.len(), grouped.len());
    for (tag, (_, signature, count)) in groups.iter().zip(grouped) {
        assert_eq!(tag.get("data-text"), Some(signature.as_str()));
        assert_eq!(tag.get("data-count"), Some(count.to_string().as_str()));
    }
    let uniform: Vec<&Tag> = visible(&all, "data-filtered")
        .into_iter()
        .filter(|tag| !tag.get("data-states").unwrap().starts_with("accepted"))
        .collect();
    assert_eq!(ops_of(&uniform), report.uniform);
    // The accepted cases, each a row: the triaged ones with both words.
    let (triaged, deliberate): (Vec<&Tag>, Vec<&Tag>) = accepted_rows(&all)
        .into_iter()
        .partition(|tag| tag.get("data-states") == Some("accepted triaged"));
    assert_eq!(triaged.len() as u64, report.summary["triaged"]);
    assert_eq!(ops_of(&triaged), [TRIAGED_OP.to_owned()].into());
    assert_eq!(
        deliberate.len() as u64,
        report.summary["accepted"] - report.summary["triaged"]
    );
    let all_rows = all.iter().filter(|tag| tag.has("data-row")).count();
    let listed: u64 = grouped.iter().map(|(.., count)| (*count).min(23)).sum();
    assert_eq!(all_rows as u64, listed, "3 in full and 20 in brief a group");
    assert!(all
        .iter()
        .all(|tag| !tag.hidden() || tag.get("class") == Some("none")));

    // By op: its row, its groups and its cases, nothing else.
    let found = tags(&dump_dom(&fixture.page, "op=readyTimeoutMs"));
    let expected: BTreeSet<String> = ["readyTimeoutMs".to_owned()].into();
    assert_eq!(ops_of(&visible(&found, "data-op-row")), expected);
    assert_eq!(ops_of(&visible(&found, "data-group")), expected);
    let cases = visible(&found, "data-row");
    assert_eq!(ops_of(&cases), expected);
    let listed: u64 = grouped
        .iter()
        .filter(|(op, ..)| op == "readyTimeoutMs")
        .map(|(.., count)| (*count).min(23))
        .sum();
    assert_eq!(cases.len() as u64, listed);
    assert!(visible(&found, "data-filtered").is_empty());
    let counts = by_op["readyTimeoutMs"];
    assert_eq!(text_of(&found, "sum-label"), "1 op shown");
    assert_eq!(text_of(&found, "sum-passed"), counts[0].to_string());
    assert_eq!(text_of(&found, "sum-failed"), counts[2].to_string());
    let hidden_rows = found
        .iter()
        .filter(|tag| tag.has("data-row") && tag.hidden())
        .count();
    assert_eq!(hidden_rows + cases.len(), all_rows);
    let status = found
        .iter()
        .find(|tag| tag.get("id") == Some("filter-status"))
        .unwrap();
    assert_eq!(status.get("data-ops"), Some("1"));
    assert_eq!(
        status.get("data-rows"),
        Some(cases.len().to_string().as_str())
    );

    // By state: accepted shows the ops with accepted cases and those
    // cases, triaged or not, and no group (groups hold failing cases
    // only); triaged only the triaged op and its cases; new hides the
    // ops that only pass or are accepted.
    let found = tags(&dump_dom(&fixture.page, "state=accepted"));
    let with_accepted: BTreeSet<String> = by_op
        .iter()
        .filter(|(_, counts)| counts[1] > 0)
        .map(|(op, _)| op.clone())
        .collect();
    assert_eq!(
        with_accepted,
        ["ipcParent", "liveness", TRIAGED_OP]
            .map(str::to_owned)
            .into()
    );
    assert_eq!(ops_of(&visible(&found, "data-op-row")), with_accepted);
    assert!(visible(&found, "data-group").is_empty());
    assert!(visible(&found, "data-row").is_empty());
    let rows = accepted_rows(&found);
    assert_eq!(rows.len(), visible(&found, "data-filtered").len());
    assert_eq!(rows.len() as u64, report.summary["accepted"]);
    assert_eq!(ops_of(&rows), with_accepted);
    let found = tags(&dump_dom(&fixture.page, "state=triaged"));
    let triaged_op: BTreeSet<String> = [TRIAGED_OP.to_owned()].into();
    assert_eq!(ops_of(&visible(&found, "data-op-row")), triaged_op);
    assert!(visible(&found, "data-group").is_empty());
    let rows = visible(&found, "data-filtered");
    assert_eq!(rows.len() as u64, report.summary["triaged"]);
    assert_eq!(ops_of(&rows), triaged_op);
    let found = tags(&dump_dom(&fixture.page, "state=new"));
    let failing: BTreeSet<String> = by_op
        .iter()
        .filter(|(_, counts)| counts[2] > 0)
        .map(|(op, _)| op.clone())
        .collect();
    assert!(failing.len() < by_op.len());
    assert_eq!(ops_of(&visible(&found, "data-op-row")), failing);
    assert_eq!(visible(&found, "data-group").len(), grouped.len());
    assert_eq!(visible(&found, "data-row").len(), all_rows);

    // By text (any case, across groups), and with a verdict and an op.
    let found = tags(&dump_dom(&fixture.page, "q=FRACTIONAL"));
    let cases = visible(&found, "data-row");
    assert_eq!(cases.len(), 1);
    let label = cases[0].get("data-text").unwrap();
    assert!(label.contains("readyTimeoutMs \"readyTimeoutMs: fractional\""));
    assert_eq!(visible(&found, "data-group").len(), 1);
    assert_eq!(visible(&found, "data-op-row").len(), by_op.len());
    let fragment = "op=ipcParent&verdict=different&q=not+implemented";
    let found = tags(&dump_dom(&fixture.page, fragment));
    let shown: Vec<&str> = visible(&found, "data-group")
        .iter()
        .map(|tag| tag.get("data-text").unwrap())
        .collect();
    let expected: Vec<&str> = grouped
        .iter()
        .filter(|(op, ..)| op == "ipcParent")
        .map(|(_, signature, _)| signature.as_str())
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(shown, expected);
}

#[test]
#[ignore = "needs chromium"]
fn markup_in_a_corpus_stays_text_in_chromium() {
    require_chromium();
    let corpus = Corpus::new();
    corpus.case(
        "evil.json",
        r#"[{"op":"<script>document.body.dataset.owned='yes'</script>","name":"<img src=x onerror=alert(1)>"},
            {"op":"x\"><b>bold</b>","name":"a & b"}]"#,
    );
    let golden = golden_of(&[
        r#"{"defined":true,"value":"</code></pre><script>1</script>"}"#,
        r#"{"defined":true,"value":1}"#,
    ]);
    let results = "[{\"defined\":true,\"value\":\"<i>\"},{\"defined\":true,\"value\":2}]";
    corpus.golden("evil.json", &golden);
    std::fs::write(corpus.join("results.json"), results).unwrap();
    let ran = run(
        corpus.path(),
        &[
            "compare",
            "results.json",
            "golden/evil.json",
            "--cases",
            "cases/evil.json",
            "--format",
            "html",
        ],
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let page = corpus.join("report.html");
    std::fs::write(&page, &ran.stdout).unwrap();
    let found = tags(&dump_dom(&page, "q=a+%26+b"));
    let body = found.iter().find(|tag| tag.name == "body").unwrap();
    assert_eq!(body.get("data-rendered"), Some("true"));
    assert_eq!(body.get("data-owned"), None);
    for name in ["img", "b", "i"] {
        assert!(
            found.iter().all(|tag| tag.name != name),
            "<{name}> in the DOM"
        );
    }
    assert_eq!(found.iter().filter(|tag| tag.name == "script").count(), 1);
    let cases = visible(&found, "data-row");
    assert_eq!(cases.len(), 1, "the free text matched one case");
    assert_eq!(cases[0].get("data-op"), Some("x\"><b>bold</b>"));
}

#[test]
fn commands_without_cases_to_show_refuse_html() {
    for (command, args) in [
        (
            "bless",
            &["bless", "--reference", "true", "--format", "html"][..],
        ),
        ("fuzz", &["fuzz", "--left", "true", "--format", "html"][..]),
    ] {
        let ran = run(root(), args);
        assert_eq!(ran.code, 2, "{command}: {}", ran.stderr);
        assert_eq!(
            ran.stderr,
            format!("parity-diff: {command} reports in human or json format only\n")
        );
        assert_eq!(ran.stdout, "");
    }
}
