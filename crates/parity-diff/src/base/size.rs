//! Sizes as flags and `parity.toml` give them (`64M`, `1G`) and as
//! messages print them.

const UNITS: [(&str, u32); 5] = [("", 0), ("K", 10), ("M", 20), ("G", 30), ("T", 40)];

/// Reads a size: plain bytes (`1000000`), or a whole number with `K`,
/// `M`, `G` or `T` (powers of 1024, optionally followed by `iB` or `B`):
/// `64M`, `1G`, `512KiB`. Zero is refused: nothing could be printed.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("not a size: {text:?} (try 64M, 1G, or a number of bytes)");
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: u64 = number.parse().map_err(|_| bad())?;
    let unit = unit.to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .filter(|prefix| !prefix.is_empty())
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let (_, shift) = UNITS
        .iter()
        .find(|(name, _)| *name == unit)
        .ok_or_else(bad)?;
    let size = number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("too large a size: {text:?}"))?;
    if size == 0 {
        return Err(format!("not a positive size: {text:?}"));
    }
    Ok(size)
}

/// A size as a person reads it: `64 MiB`, `1 GiB`, `1000 bytes`.
pub fn format_size(bytes: u64) -> String {
    match UNITS.iter().rev().find(|(name, shift)| {
        !name.is_empty() && bytes >= 1 << shift && bytes.is_multiple_of(1 << shift)
    }) {
        Some((name, shift)) => format!("{} {name}iB", bytes >> shift),
        None if bytes == 1 => "1 byte".into(),
        None => format!("{bytes} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        for (text, size) in [
            ("1", 1),
            ("1000000", 1_000_000),
            ("64M", 64 << 20),
            ("64m", 64 << 20),
            ("64MiB", 64 << 20),
            ("64MB", 64 << 20),
            ("1G", 1 << 30),
            ("2T", 2 << 40),
            ("512K", 512 << 10),
            ("512kib", 512 << 10),
            ("5B", 5),
        ] {
            assert_eq!(parse_size(text), Ok(size), "{text}");
        }
        for bad in ["", "M", "1.5G", "-1", "64X", "64 M", "1iB", "64MiBB"] {
            assert_eq!(
                parse_size(bad),
                Err(format!(
                    "not a size: {bad:?} (try 64M, 1G, or a number of bytes)"
                )),
                "{bad}"
            );
        }
        assert_eq!(parse_size("0M"), Err("not a positive size: \"0M\"".into()));
        assert_eq!(
            parse_size("99999999999T"),
            Err("too large a size: \"99999999999T\"".into())
        );
        assert_eq!(format_size(64 << 20), "64 MiB");
        assert_eq!(format_size(1 << 30), "1 GiB");
        assert_eq!(format_size(1536), "1536 bytes");
        assert_eq!(format_size(3 << 10), "3 KiB");
        assert_eq!(format_size(1_000_000), "1000000 bytes");
        assert_eq!(format_size(1), "1 byte");
        assert_eq!(format_size(0), "0 bytes");
    }
}
