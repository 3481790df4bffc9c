//! The benchmark floor: streams a JSON array from stdin through serde_json
//! element by element and prints it back, doing nothing else. No
//! JSON-in/JSON-out tool can beat this by much; `scripts/bench.sh`
//! measures the oracle against it.

use std::fmt;
use std::io::{self, BufReader, BufWriter, Write};

use serde::de::{Deserializer, SeqAccess, Visitor};

struct EchoElements<W> {
    out: W,
}

impl<'de, W: Write> Visitor<'de> for EchoElements<W> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut first = true;
        self.out.write_all(b"[").map_err(serde::de::Error::custom)?;
        while let Some(element) = seq.next_element::<serde_json::Value>()? {
            if !first {
                self.out.write_all(b",").map_err(serde::de::Error::custom)?;
            }
            first = false;
            serde_json::to_writer(&mut self.out, &element).map_err(serde::de::Error::custom)?;
        }
        self.out.write_all(b"]").map_err(serde::de::Error::custom)?;
        self.out.flush().map_err(serde::de::Error::custom)
    }
}

fn main() {
    let stdin = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let stdout = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut deserializer = serde_json::Deserializer::from_reader(stdin);
    if let Err(error) = deserializer.deserialize_seq(EchoElements { out: stdout }) {
        eprintln!("json_floor: {error}");
        std::process::exit(2);
    }
}
