//! The subcommands, one module each.

pub mod clear;
pub mod judge;
pub mod pawn;
pub mod serve;
pub mod split;
pub mod sum;
pub mod tables;

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

#[cfg(test)]
mod tests {
    use super::parse_seconds;
    use std::time::Duration;

    #[test]
    fn seconds_are_positive_finite_numbers() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds("2"), Ok(Duration::from_secs(2)));
        for bad in ["0", "-1", "nan", "inf", "", "1s", "1e300"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
