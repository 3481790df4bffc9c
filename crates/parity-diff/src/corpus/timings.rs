//! The timings file: how long the oracle took on each case file of a
//! run (`run --record-timings FILE`), for `--shard K/N --timings FILE`
//! to balance shards by. Its one writer and its one reader are here.
//!
//! Times are never in a report: reports are the same bytes for every
//! `--jobs` and every machine, and times are not. So they go to a file
//! of their own (the book, docs/guide/formats.md):
//!
//! ```text
//! {"version":1,"files":[{"file":"argv.json","cases":196,"microseconds":48213},…]}
//! ```
//!
//! `file` is the case file's name relative to the cases directory (as
//! identities name it), `cases` how many of its cases the oracle was
//! sent, `microseconds` the wall time of every oracle run for the file
//! (bisection's included), in corpus order. Several timings files given
//! together (the shards of one run each record their own) add up: a file
//! that straddled two shards gets both parts' cases and times.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::base::error::InputError;
use crate::corpus::identity::fnv1a;
use js_exact::{self as js, Object, TextMode, Value};

/// The format version this parity-diff writes and reads.
pub const VERSION: u32 = 1;

/// One case file's oracle time in one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileTime {
    /// The case file's name, relative to the cases directory.
    pub file: String,
    /// How many cases the oracle was sent.
    pub cases: usize,
    /// The wall time of its oracle runs.
    pub elapsed: Duration,
}

/// The times recorded, by case file, added up over the files read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timings {
    /// Per file: its cases and microseconds.
    files: BTreeMap<String, (u64, u64)>,
}

/// The timings file's bytes for these times, in their order.
pub fn to_bytes(times: &[FileTime]) -> Vec<u8> {
    let files: Vec<Value> = times
        .iter()
        .map(|time| {
            let micros = u64::try_from(time.elapsed.as_micros()).unwrap_or(u64::MAX);
            Value::Object(
                Object::new()
                    .with("file", time.file.as_str())
                    .with("cases", time.cases as f64)
                    .with("microseconds", micros as f64),
            )
        })
        .collect();
    let top = Object::new()
        .with("version", VERSION)
        .with("files", Value::Array(files));
    let mut out = Vec::new();
    js::write_value(&Value::Object(top), &mut out);
    out.push(b'\n');
    out
}

/// Writes the timings file at `path` atomically (never through a
/// symbolic link: [`files::write_atomic`](crate::base::files::write_atomic)).
pub fn write(path: &Path, times: &[FileTime]) -> Result<(), InputError> {
    let cannot = |error: std::io::Error| {
        InputError::new(format!(
            "--record-timings: cannot write {}: {error}",
            path.display()
        ))
    };
    let (dir, name) = crate::base::files::split(path).map_err(cannot)?;
    crate::base::files::write_atomic(dir, Path::new(name), &to_bytes(times)).map_err(cannot)
}

/// A whole number from 0 to 2^53, as JSON can hold it exactly.
fn whole(value: &Value) -> Option<u64> {
    let number = value.as_number()?;
    (number >= 0.0 && number.fract() == 0.0 && number <= 9_007_199_254_740_992.0)
        .then_some(number as u64)
}

impl Timings {
    /// Reads the timings file at `path`, named `name` in messages (the
    /// path as given), adding it to what was read.
    pub fn read(&mut self, path: &Path, name: &str) -> Result<(), InputError> {
        let bytes = crate::base::files::input::read(path, crate::base::files::input::TIMINGS)
            .map_err(|error| {
                InputError::new(format!("--timings {name}: cannot read it: {error}"))
            })?;
        self.add(&bytes, name)
    }

    /// Adds the timings file `bytes`, named `name` in messages.
    pub fn add(&mut self, bytes: &[u8], name: &str) -> Result<(), InputError> {
        let bad = |what: String| {
            InputError::new(format!(
                "--timings {name}: {what} (a timings file is what run --record-timings writes)"
            ))
        };
        let value = js::parse(bytes, TextMode::LossyUtf8)
            .map_err(|error| bad(format!("not JSON: {error}")))?;
        if !value.is_object() {
            return Err(bad("not a JSON object".into()));
        }
        match value.get("version").as_number() {
            Some(version) if version == f64::from(VERSION) => {}
            Some(version) => {
                return Err(InputError::new(format!(
                    "--timings {name}: a timings file of version {version}; \
                     this parity-diff reads version {VERSION}"
                )))
            }
            None => return Err(bad("no `version` number".into())),
        }
        let files = value
            .get("files")
            .as_array()
            .ok_or_else(|| bad("no `files` array".into()))?;
        let mut seen = std::collections::BTreeSet::new();
        let mut read = Vec::with_capacity(files.len());
        for (at, file) in files.iter().enumerate() {
            let malformed = |what: &str| bad(format!("files[{at}]: {what}"));
            let file_name = file
                .get("file")
                .as_js_string()
                .ok_or_else(|| malformed("`file` is not a string"))?
                .to_utf8_lossy()
                .into_owned();
            let cases = whole(file.get("cases"))
                .ok_or_else(|| malformed("`cases` is not a whole number of 0 or more"))?;
            let micros = whole(file.get("microseconds"))
                .ok_or_else(|| malformed("`microseconds` is not a whole number of 0 or more"))?;
            if !seen.insert(file_name.clone()) {
                return Err(malformed(&format!(
                    "{} comes twice",
                    crate::base::outside::json_string(&file_name)
                )));
            }
            read.push((file_name, cases, micros));
        }
        for (file, cases, micros) in read {
            let sum = self.files.entry(file).or_default();
            sum.0 = sum.0.saturating_add(cases);
            sum.1 = sum.1.saturating_add(micros);
        }
        Ok(())
    }

    /// How many files it knows.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether it knows no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The microseconds one case of `file` took, on average; `None` for a
    /// file it does not know (or knows no case of).
    pub fn per_case(&self, file: &str) -> Option<f64> {
        let &(cases, micros) = self.files.get(file)?;
        (cases > 0).then(|| micros as f64 / cases as f64)
    }

    /// The median of the files' time per case (the mean of the middle
    /// two for an even count); `None` when no file has a case.
    pub fn median_per_case(&self) -> Option<f64> {
        let mut each: Vec<f64> = self
            .files
            .keys()
            .filter_map(|file| self.per_case(file))
            .collect();
        if each.is_empty() {
            return None;
        }
        each.sort_by(f64::total_cmp);
        let middle = each.len() / 2;
        Some(if each.len() % 2 == 1 {
            each[middle]
        } else {
            (each[middle - 1] + each[middle]) / 2.0
        })
    }

    /// What each case of each of `names` weighs: its file's time per case,
    /// else the median ([`Self::median_per_case`]), else 1.
    pub fn weights<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> Vec<f64> {
        let fallback = self.median_per_case().unwrap_or(1.0);
        names
            .into_iter()
            .map(|name| self.per_case(name).unwrap_or(fallback))
            .collect()
    }

    /// A hash of what it holds (reports record it on a shard, so that
    /// `merge` can tell shards balanced alike from others).
    pub fn fingerprint(&self) -> u64 {
        let mut parts: Vec<Vec<u8>> = Vec::with_capacity(self.files.len() * 3);
        for (file, (cases, micros)) in &self.files {
            parts.push(file.as_bytes().to_vec());
            parts.push(cases.to_le_bytes().to_vec());
            parts.push(micros.to_le_bytes().to_vec());
        }
        let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        fnv1a(&parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(file: &str, cases: usize, millis: u64) -> FileTime {
        FileTime {
            file: file.into(),
            cases,
            elapsed: Duration::from_millis(millis),
        }
    }

    fn read(bytes: &[u8]) -> Result<Timings, InputError> {
        let mut timings = Timings::default();
        timings.add(bytes, "t.json")?;
        Ok(timings)
    }

    #[test]
    fn what_is_written_reads_back() {
        let times = [time("a.json", 4, 8), time("sub/b \"x\".json", 0, 0)];
        let bytes = to_bytes(&times);
        assert_eq!(
            String::from_utf8(bytes.clone()).unwrap(),
            concat!(
                r#"{"version":1,"files":[{"file":"a.json","cases":4,"microseconds":8000},"#,
                r#"{"file":"sub/b \"x\".json","cases":0,"microseconds":0}]}"#,
                "\n"
            )
        );
        let timings = read(&bytes).unwrap();
        assert_eq!(timings.len(), 2);
        assert_eq!(timings.per_case("a.json"), Some(2000.0));
        assert_eq!(timings.per_case("sub/b \"x\".json"), None);
        assert_eq!(timings.per_case("c.json"), None);

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("timings.json");
        write(&path, &times).unwrap();
        let mut again = Timings::default();
        again.read(&path, "timings.json").unwrap();
        assert_eq!(again, timings);
    }

    #[test]
    fn files_read_together_add_up() {
        let mut timings = read(&to_bytes(&[time("a.json", 2, 2), time("b.json", 1, 5)])).unwrap();
        let before = timings.fingerprint();
        timings
            .add(&to_bytes(&[time("a.json", 2, 6)]), "u.json")
            .unwrap();
        assert_eq!(timings.per_case("a.json"), Some(2000.0));
        assert_eq!(timings.per_case("b.json"), Some(5000.0));
        assert_ne!(timings.fingerprint(), before);
        // In either order, the same sums and the same fingerprint.
        let mut other = read(&to_bytes(&[time("a.json", 2, 6)])).unwrap();
        other
            .add(
                &to_bytes(&[time("a.json", 2, 2), time("b.json", 1, 5)]),
                "t.json",
            )
            .unwrap();
        assert_eq!(other, timings);
        assert_eq!(other.fingerprint(), timings.fingerprint());
    }

    #[test]
    fn unknown_files_weigh_the_median_or_one() {
        let timings = read(&to_bytes(&[
            time("a.json", 1, 1),
            time("b.json", 1, 9),
            time("c.json", 2, 8),
            time("empty.json", 0, 50),
        ]))
        .unwrap();
        // Per case: 1000, 9000, 4000; the empty file knows no case.
        assert_eq!(timings.median_per_case(), Some(4000.0));
        assert_eq!(
            timings.weights(["c.json", "new.json", "empty.json"]),
            [4000.0, 4000.0, 4000.0]
        );
        let even = read(&to_bytes(&[time("a.json", 1, 1), time("b.json", 1, 3)])).unwrap();
        assert_eq!(even.median_per_case(), Some(2000.0));
        let nothing = Timings::default();
        assert_eq!(nothing.median_per_case(), None);
        assert_eq!(nothing.weights(["a.json"]), [1.0]);
    }

    #[test]
    fn a_bad_timings_file_is_refused_with_a_reason() {
        let error = |bytes: &str| read(bytes.as_bytes()).unwrap_err().message;
        let hint = " (a timings file is what run --record-timings writes)";
        assert_eq!(
            error("[1]"),
            format!("--timings t.json: not a JSON object{hint}")
        );
        assert!(
            error("{").starts_with("--timings t.json: not JSON: "),
            "{}",
            error("{")
        );
        assert_eq!(
            error(r#"{"version":2,"files":[]}"#),
            "--timings t.json: a timings file of version 2; this parity-diff reads version 1"
        );
        assert_eq!(
            error(r#"{"files":[]}"#),
            format!("--timings t.json: no `version` number{hint}")
        );
        assert_eq!(
            error(r#"{"version":1}"#),
            format!("--timings t.json: no `files` array{hint}")
        );
        assert_eq!(
            error(r#"{"version":1,"files":[{"file":"a.json","cases":1,"microseconds":-1}]}"#),
            format!(
                "--timings t.json: files[0]: `microseconds` is not a whole number of 0 or more{hint}"
            )
        );
        assert_eq!(
            error(r#"{"version":1,"files":[{"file":1,"cases":1,"microseconds":1}]}"#),
            format!("--timings t.json: files[0]: `file` is not a string{hint}")
        );
        assert_eq!(
            error(r#"{"version":1,"files":[{"file":"a","cases":1.5,"microseconds":1}]}"#),
            format!("--timings t.json: files[0]: `cases` is not a whole number of 0 or more{hint}")
        );
        let twice = r#"{"version":1,"files":[{"file":"a","cases":1,"microseconds":1},{"file":"a","cases":1,"microseconds":1}]}"#;
        assert_eq!(
            error(twice),
            format!("--timings t.json: files[1]: \"a\" comes twice{hint}")
        );
        let mut timings = Timings::default();
        let missing = timings
            .read(Path::new("/nonexistent/t.json"), "/nonexistent/t.json")
            .unwrap_err()
            .message;
        assert!(
            missing.starts_with("--timings /nonexistent/t.json: cannot read it: "),
            "{missing}"
        );
    }
}
