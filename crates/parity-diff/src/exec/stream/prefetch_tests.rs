use super::*;
use std::io::Cursor;

/// What a source gives, case by case, to its end: each case's item and
/// bytes and how many were read then, and the error that ended it.
type Read = (Vec<(CaseItem, Vec<u8>, usize)>, Option<String>);

fn read_all(source: &mut dyn CaseSource) -> Read {
    let mut cases = Vec::new();
    loop {
        match source.next_case() {
            Ok(Some(case)) => {
                let (item, raw) = (case.item.clone(), case.raw.to_vec());
                cases.push((item, raw, source.cases_read()));
            }
            Ok(None) => return (cases, None),
            Err(error) => return (cases, Some(error.to_string())),
        }
    }
}

/// The cases of `bytes`, read here and read ahead.
fn both(bytes: &[u8]) -> (Read, Read) {
    let here = read_all(&mut CaseReader::new("f.json", Cursor::new(bytes.to_vec())));
    let reader = CaseReader::new("f.json", Cursor::new(bytes.to_vec()));
    let Ok(mut ahead) = Prefetched::start(reader) else {
        panic!("no thread for the reader");
    };
    (here, read_all(&mut ahead))
}

#[test]
fn cases_read_ahead_are_the_cases_read_here() {
    let many: Vec<String> = (0..BATCH_CASES * 2 + 7)
        .map(|n| format!(r#"{{"op":"o{}","name":"c{n}"}}"#, n % 3))
        .collect();
    let large = format!(r#"{{"op":"big","x":"{}"}}"#, "y".repeat(BATCH_BYTES + 5));
    let files = [
        format!("[{}]", many.join(",\n")),
        format!("[{large},{large},1,\"s\"]"),
        "[]".to_owned(),
        " [ 1 , {\"op\":\"a\"} ] ".to_owned(),
    ];
    for file in &files {
        let (here, ahead) = both(file.as_bytes());
        assert_eq!(ahead.1, None);
        assert_eq!(ahead, here);
    }
    let (here, _) = both(files[0].as_bytes());
    assert_eq!(here.0.len(), BATCH_CASES * 2 + 7);
}

#[test]
fn a_file_that_turns_out_no_array_ends_with_its_error_after_its_cases() {
    let many: Vec<String> = (0..BATCH_CASES + 3).map(|n| n.to_string()).collect();
    for file in [
        format!("[{}", many.join(",")),
        format!("[{}]]", many.join(",")),
        "{\"op\":\"x\"}".to_owned(),
        String::new(),
    ] {
        let (here, ahead) = both(file.as_bytes());
        assert!(here.1.is_some(), "{file:.20}");
        assert_eq!(ahead, here, "{file:.20}");
    }
}

#[test]
fn raw_bytes_are_each_case_s_own_and_skipping_reads_on() {
    let file = b"[{\"op\":\"a\"},[1, 2],\"three\"]".to_vec();
    let reader = CaseReader::new("f.json", Cursor::new(file));
    let Ok(mut ahead) = Prefetched::start(reader) else {
        panic!("no thread for the reader");
    };
    assert_eq!(ahead.next_raw().unwrap(), Some(&b"{\"op\":\"a\"}"[..]));
    let case = ahead.next_case().unwrap().unwrap();
    assert_eq!(case.raw, b"[1, 2]");
    assert_eq!(case.item.op, None);
    assert_eq!(ahead.cases_read(), 2);
    assert_eq!(ahead.next_raw().unwrap(), Some(&b"\"three\""[..]));
    assert!(ahead.next_case().unwrap().is_none());
    assert!(ahead.next_case().unwrap().is_none());
    assert_eq!(ahead.cases_read(), 3);
}

/// A source that says when it is dropped (its reading thread ended).
struct Flagged {
    bytes: Cursor<Vec<u8>>,
    dropped: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl std::io::Read for Flagged {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.bytes.read(buf)
    }
}

impl Drop for Flagged {
    fn drop(&mut self) {
        self.dropped
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn a_reader_dropped_early_stops_its_thread() {
    let many: Vec<String> = (0..BATCH_CASES * (AHEAD + 4))
        .map(|n| n.to_string())
        .collect();
    let file = format!("[{}]", many.join(","));
    let dropped = std::sync::Arc::default();
    let source = Flagged {
        bytes: Cursor::new(file.into_bytes()),
        dropped: std::sync::Arc::clone(&dropped),
    };
    let Ok(mut ahead) = Prefetched::start(CaseReader::new("f.json", source)) else {
        panic!("no thread for the reader");
    };
    assert!(ahead.next_case().unwrap().is_some());
    // The thread waits on the full channel, the file far from read.
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(!dropped.load(std::sync::atomic::Ordering::SeqCst));
    drop(ahead);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !dropped.load(std::sync::atomic::Ordering::SeqCst) {
        assert!(
            std::time::Instant::now() < deadline,
            "the thread did not stop"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}
