//! Fixture oracles: small programs the tests run as `--oracle` or
//! `--reference`, in place of a real implementation. Each reads the JSON
//! array of cases on stdin and prints one result per case, as any port
//! does; they know nothing but what the test tells them.

use std::path::Path;

/// The files [`by_name`] writes, in the corpus's directory: its table,
/// and the script that puts each case on a line of its own.
const TABLE: &str = "reference.sed";
const SPLIT: &str = "split.sed";

/// The command [`by_name`] returns.
pub const BY_NAME: &str = "sed -f split.sed | sed -f reference.sed | tr -d '\\n'";

/// An oracle, to run from `dir`, that answers each case by its name as
/// `table` says (`(name, result)`), and any other case with itself (as
/// `cat` would). Each case must start with its name (`{"name": ...`):
/// one `sed` script breaks the line before each, another writes each
/// result in its case's place, and `tr` joins the lines, so that the
/// results are framed as `JSON.stringify` frames an array (when the case
/// file's are framed so but for new lines), whether parity-diff sends
/// the case file's lines or some cases of it on one line.
///
/// A POSIX `sed` and `tr` are all it needs, so the tests that run it
/// need no Python.
pub fn by_name(dir: &Path, table: &[(&str, &str)]) -> String {
    let mut script = String::new();
    for (name, result) in table {
        script.push_str(&format!(
            "s/^\\(\\[*\\){{.*\"name\": *\"{}\".*}}\\(,*\\]*\\)$/\\1{}\\2/\n",
            escape(name),
            escape_replacement(result)
        ));
    }
    super::write(dir.join(TABLE), script);
    super::write(
        dir.join(SPLIT),
        "s/},[[:space:]]*{\"name\"/},\\\n{\"name\"/g\n",
    );
    BY_NAME.to_owned()
}

/// `text` as a basic regular expression that matches it literally.
fn escape(text: &str) -> String {
    let mut escaped = String::new();
    for c in text.chars() {
        if "\\.[]*^$/".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// `text` as the replacement of a `sed` `s` command.
fn escape_replacement(text: &str) -> String {
    let mut escaped = String::new();
    for c in text.chars() {
        if "\\&/".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// The file [`generator`] writes, in `dir`.
const GENERATOR: &str = "generate.sh";

/// A fuzz generator (`--generator`), written to `dir`: `CMD --op OP
/// --seed N --count K` prints K cases of OP, the same for the same seed:
/// `{"op":OP,"seed":"N","n":I,"v":V}`, where V is the seed's last three
/// digits plus 7 I, mod 1000, so that every value of V turns up in a
/// thousand cases; of an op whose name starts with `unknown` it has none
/// (it prints `[]`). It returns the command.
pub fn generator(dir: &Path) -> String {
    super::write(
        dir.join(GENERATOR),
        r#"while [ $# -gt 0 ]; do
  case $1 in
    --op) op=$2; shift 2;;
    --seed) seed=$2; shift 2;;
    --count) count=$2; shift 2;;
    *) echo "generate.sh: unknown argument $1" >&2; exit 2;;
  esac
done
case $op in unknown*) printf '[]'; exit 0;; esac
awk -v op="$op" -v seed="$seed" -v count="$count" 'BEGIN {
  printf "["
  for (i = 0; i < count; i++) {
    if (i) printf ","
    printf "{\"op\":\"%s\",\"seed\":\"%s\",\"n\":%d,\"v\":%d}", op, seed, i, (substr(seed, length(seed) - 2) + 7 * i) % 1000
  }
  printf "]"
}'
"#,
    );
    format!("sh '{}'", dir.join(GENERATOR).display())
}
