//! The subcommands, one module each.

pub mod clear;
pub mod judge;
pub mod pawn;
pub mod serve;
pub mod split;
pub mod sum;

use std::time::Duration;

/// Parses a `--max-time` value: a positive, finite number of seconds.
///
/// # Errors
///
/// A message for clap, which prints it with the option's name and exits 2.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| "not a number of seconds".to_owned())?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err("must be a positive number of seconds".to_owned());
    }
    Duration::try_from_secs_f64(seconds).map_err(|err| err.to_string())
}

/// Parses a `--max-memory` value: a positive number with a unit, `B`,
/// `KiB`, `MiB`, `GiB` or `TiB` (powers of 1024; `K`, `M`, `G`, `T` are read
/// the same way, and the decimal `KB`, `MB`, `GB`, `TB` as powers of 1000),
/// case-insensitive, as in `2GiB`, `512MiB` or `1.5G`; a bare number is
/// bytes. Shared by every subcommand with a memory budget.
///
/// # Errors
///
/// A message for clap, which prints it with the option's name and exits 2.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number
        .parse()
        .map_err(|_| "not a size: use a number and a unit, as in 2GiB or 512MiB".to_owned())?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "t" | "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        other => {
            return Err(format!(
                "unknown unit {other:?}: use B, KiB, MiB, GiB or TiB (or KB, MB, GB, TB)"
            ))
        }
    };
    let bytes = number * scale as f64;
    if !(bytes.is_finite() && bytes >= 1.0) {
        return Err("must be at least one byte".to_owned());
    }
    if bytes >= u64::MAX as f64 {
        return Err("too large".to_owned());
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::{parse_bytes, parse_seconds};
    use std::time::Duration;

    #[test]
    fn sizes_take_binary_and_decimal_units() {
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("2gib"), Ok(2 << 30));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("1.5G"), Ok(3 << 29));
        assert_eq!(parse_bytes("3KB"), Ok(3000));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("7 B"), Ok(7));
        for bad in [
            "",
            "GiB",
            "0",
            "0.1B",
            "-1GiB",
            "2GiBs",
            "1e3",
            "2 XB",
            "1.2.3G",
            "99999999TiB",
        ] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seconds_are_positive_finite_numbers() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds("2"), Ok(Duration::from_secs(2)));
        for bad in ["0", "-1", "nan", "inf", "", "1s", "1e300"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
