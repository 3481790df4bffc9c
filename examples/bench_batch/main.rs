//! Writes a benchmark batch to stdout: `bench_batch light N`,
//! `bench_batch mixed N`, `bench_batch one` (N defaults to a million).

use std::io::{self, BufWriter, Write};

mod batches;

use batches::{write_batch, Batch};

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let batch = match args.get(1).map(String::as_str) {
        Some("mixed") => Batch::Mixed,
        Some("one") => Batch::One,
        _ => Batch::Light,
    };
    let count: u64 = args
        .get(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let mut out = BufWriter::new(io::stdout().lock());
    write_batch(batch, count, &mut out)?;
    out.flush()
}
