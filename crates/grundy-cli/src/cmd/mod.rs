//! The subcommands, one module each.

pub mod check;
pub mod clear;
pub mod judge;
pub mod pawn;
pub mod serve;
pub mod split;
pub mod sum;
pub mod tables;

use std::time::Duration;

/// The most seconds a flag takes: about 31 years, longer than any search
/// is run for. The bound keeps every deadline (`now + limit`) and every
/// sum of limits (a checked program's twice its time limit and a second)
/// within what `Instant` and `Duration` hold, where they would panic.
pub const MAX_SECONDS: u64 = 1_000_000_000;

/// Parses a `--max-time` value (and the other seconds flags): a positive,
/// finite number of seconds, at most [`MAX_SECONDS`].
///
/// # Errors
///
/// A message for clap, which prints it with the option's name and exits 2.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let seconds: f64 = text
        .parse()
        .map_err(|_| "not a number of seconds".to_owned())?;
    // Past f64 (`1e400`, `inf`) reads as infinity: past the largest.
    if seconds > MAX_SECONDS as f64 {
        return Err(format!(
            "must be at most {MAX_SECONDS} seconds (about 31 years)"
        ));
    }
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err("must be a positive, finite number of seconds".to_owned());
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Parses the `--max-time` of a search (`clear`, `sum`, `pawn`, `split`,
/// `tables build`): as [`parse_seconds`], and also `0`, a budget spent
/// before the search starts, as Python's `max_time=0` is: the analysis
/// gives what it knows without searching, and the engine plays a legal
/// move at once, unproven unless the position is known.
///
/// # Errors
///
/// A message for clap, which prints it with the option's name and exits 2.
pub fn parse_budget_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(0.0) => Ok(Duration::ZERO),
        Ok(seconds) if seconds.is_nan() || seconds <= 0.0 => {
            Err("must be 0 or a positive, finite number of seconds".to_owned())
        }
        _ => parse_seconds(text),
    }
}

/// A value parser of whole numbers from `min` to `max` (any size from
/// `min` when `max` is `None`) whose errors word the range as every message
/// of this project does (`1 to 256`, `at least 1`): clap's own range parser
/// writes Rust's `1..=256` and names the type's largest value.
pub fn whole_in<T>(
    min: T,
    max: Option<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text| {
        let range = match max {
            Some(max) => format!("from {min} to {max}"),
            None => format!("of at least {min}"),
        };
        match text.trim().parse::<T>() {
            Ok(value) if value >= min && max.is_none_or(|max| value <= max) => Ok(value),
            _ if text.trim().is_empty() => Err(format!("a whole number {range} is needed")),
            _ => Err(format!("{text} is not a whole number {range}")),
        }
    }
}

/// Parses a `--max-positions` value (and the other counts of a budget): a
/// whole number, written in digits (`20000000`, `20_000_000`) or, as the
/// seconds flags take, with an exponent (`2e7`); surrounding spaces are
/// ignored, as in the other budget flags.
///
/// # Errors
///
/// A message for clap, which prints it with the option's name and exits 2.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text.replace('_', "");
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && !text.starts_with('_') {
        return digits
            .parse()
            .map_err(|_| format!("must be at most {}", u64::MAX));
    }
    let number: f64 = text
        .parse()
        .map_err(|_| "not a whole number: write digits, such as 20000000 or 2e7".to_owned())?;
    // Past f64 (`1e400`) reads as infinity: too large, not malformed.
    if number >= u64::MAX as f64 {
        return Err(format!("must be at most {}", u64::MAX));
    }
    if !(number.is_finite() && number >= 0.0 && number.fract() == 0.0) {
        return Err("must be a whole number, 0 or more".to_owned());
    }
    // Checked above: a whole number in 0..u64::MAX.
    Ok(number as u64)
}

/// Parses a `--max-memory` value: a positive number of bytes, optionally
/// with a unit: `B`, `kB`/`MB`/`GB`/`TB` (powers of 1000) or
/// `KiB`/`MiB`/`GiB`/`TiB` (powers of 1024), case-insensitive, with an
/// optional space; fractions allowed (`1.5GiB`). A bare `K`, `M` or `G` is
/// refused as ambiguous.
///
/// # Errors
///
/// A message for clap, which prints it with the option's name and exits 2.
// Written here rather than with a size crate: each reads a bare `K` as one
// unit or the other (byte-unit as 1000 bytes, uucore as 1024), where a
// budget should refuse the ambiguity, and their messages do not say what
// to write instead.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let mut split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    // An exponent, as the counts and seconds take it (`1e9`, `2.5E8`): the
    // `e` and its digits belong to the number, not to a unit.
    if let Some(exponent) = text[split..].strip_prefix(['e', 'E']) {
        let digits = exponent
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(exponent.len());
        if digits > 0 {
            split += 1 + digits;
        }
    }
    if text.starts_with('-') {
        return Err("a size cannot be negative".to_owned());
    }
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().map_err(|_| {
        "not a size: write a number of bytes, or one with a unit such as 512MB or 2GiB".to_owned()
    })?;
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        "k" | "m" | "g" | "t" => {
            // As the units are written: kB but KiB, MB and MiB.
            let unit = unit.trim();
            let decimal = if unit.eq_ignore_ascii_case("k") {
                "k".to_owned()
            } else {
                unit.to_ascii_uppercase()
            };
            let binary = unit.to_ascii_uppercase();
            return Err(format!(
                "ambiguous unit {unit:?}: write {decimal}B (powers of 1000) or {binary}iB (powers of 1024)"
            ));
        }
        _ => {
            return Err(format!(
                "unknown unit {unit:?}: use B, kB, MB, GB, TB, KiB, MiB, GiB or TiB"
            ))
        }
    };
    // Past f64 (`1e400`) reads as infinity: too large, not too small.
    let bytes = number * scale;
    if bytes >= u64::MAX as f64 {
        return Err("too large".to_owned());
    }
    // A fraction of a byte is refused, not rounded up to one.
    if bytes.is_nan() || bytes < 1.0 {
        return Err("must be at least one byte".to_owned());
    }
    // Checked above: in 1..u64::MAX, rounded to whole bytes.
    Ok(bytes.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::{parse_count, parse_seconds, parse_size, stopped, stopped_naming, whole_in};

    /// Ranges are worded as in every message (`1 to 256`), never as Rust's
    /// `1..=256` or with the type's largest value.
    #[test]
    fn whole_numbers_in_a_range_are_worded_in_words() {
        let jobs = whole_in(1u64, Some(256));
        assert_eq!(jobs("7"), Ok(7));
        assert_eq!(jobs("256"), Ok(256));
        assert_eq!(
            jobs("0").unwrap_err(),
            "0 is not a whole number from 1 to 256"
        );
        assert_eq!(
            jobs("257").unwrap_err(),
            "257 is not a whole number from 1 to 256"
        );
        assert_eq!(
            jobs("x").unwrap_err(),
            "x is not a whole number from 1 to 256"
        );
        assert_eq!(
            jobs("-1").unwrap_err(),
            "-1 is not a whole number from 1 to 256"
        );
        assert_eq!(
            jobs(" ").unwrap_err(),
            "a whole number from 1 to 256 is needed"
        );
        let size = whole_in(1u64, None);
        assert_eq!(size(&u64::MAX.to_string()), Ok(u64::MAX));
        assert_eq!(
            size("0").unwrap_err(),
            "0 is not a whole number of at least 1"
        );
        assert_eq!(
            size("18446744073709551616").unwrap_err(),
            "18446744073709551616 is not a whole number of at least 1"
        );
    }

    /// Every budget that ran out is named: raising one alone would leave
    /// the others spent.
    #[test]
    fn a_stop_names_every_budget_that_ran_out() {
        let err = || grundy::SolveError::TimeBudget {
            limit: std::time::Duration::from_secs(2),
        };
        let hint = |flags: &[&str]| stopped_naming(err(), flags).to_string();
        assert_eq!(
            stopped(err()).to_string(),
            "the search stopped early (raise --max-time to search further)"
        );
        assert_eq!(
            hint(&["--max-memory", "--max-time"]),
            "the search stopped early (raise --max-memory and --max-time to search further)"
        );
        assert_eq!(
            hint(&["--max-memory", "--max-time", "--max-positions"]),
            "the search stopped early (raise --max-memory, --max-time and --max-positions to search further)"
        );
    }

    #[test]
    fn counts_take_digits_separators_and_exponents() {
        assert_eq!(parse_count("20000000"), Ok(20_000_000));
        assert_eq!(parse_count("20_000_000"), Ok(20_000_000));
        assert_eq!(parse_count(" 5 "), Ok(5));
        assert_eq!(parse_count("2e7"), Ok(20_000_000));
        assert_eq!(parse_size("1e9"), Ok(1_000_000_000));
        assert_eq!(parse_size("2.5E3 kB"), Ok(2_500_000));
        assert_eq!(parse_size("1e3MiB"), Ok(1000 << 20));
        assert!(parse_size("1e").is_err());
        assert!(parse_size("1eMB").is_err());
        assert_eq!(parse_count("1e9"), Ok(1_000_000_000));
        assert_eq!(parse_count("0"), Ok(0));
        assert_eq!(parse_count("18446744073709551615"), Ok(u64::MAX));
        for bad in [
            "",
            "-1",
            "1.5",
            "1e-3",
            "nan",
            "inf",
            "1e30",
            "five",
            "_5",
            "18446744073709551616",
        ] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_take_decimal_and_binary_units() {
        assert_eq!(parse_size("512MB"), Ok(512_000_000));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("2 gib"), Ok(2 << 30));
        assert_eq!(parse_size("1.5KiB"), Ok(1536));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("64B"), Ok(64));
        for bad in [
            "",
            "0",
            "0.1",
            "-1GB",
            "2G",
            "2 M",
            "GB",
            "1.2.3MB",
            "5 parsecs",
            "99999999999TiB",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        // Messages name the units as they are written.
        assert_eq!(
            parse_size("5m"),
            Err(
                "ambiguous unit \"m\": write MB (powers of 1000) or MiB (powers of 1024)"
                    .to_owned()
            )
        );
        assert_eq!(
            parse_size("5k"),
            Err(
                "ambiguous unit \"k\": write kB (powers of 1000) or KiB (powers of 1024)"
                    .to_owned()
            )
        );
        assert_eq!(
            parse_size("-1"),
            Err("a size cannot be negative".to_owned())
        );
        // Past f64 is too large, and a fraction of a byte too small, not
        // rounded up to one.
        for large in ["1e400", "1e30", "99999999999TiB"] {
            assert_eq!(parse_size(large), Err("too large".to_owned()), "{large}");
        }
        for small in ["0", "0.5", "0.9B", "0.0001kB"] {
            assert_eq!(
                parse_size(small),
                Err("must be at least one byte".to_owned()),
                "{small}"
            );
        }
        assert_eq!(parse_size("1.5"), Ok(2));
        assert_eq!(
            parse_count("1e400"),
            Err(format!("must be at most {}", u64::MAX))
        );
    }
    use std::time::Duration;

    #[test]
    fn seconds_are_positive_finite_numbers() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds("2"), Ok(Duration::from_secs(2)));
        assert_eq!(
            parse_seconds("1e9"),
            Ok(Duration::from_secs(super::MAX_SECONDS))
        );
        for bad in [
            "0",
            "-1",
            "nan",
            "inf",
            "",
            "1s",
            "1e300",
            "1e19",
            "1000000001",
        ] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_search_budget_may_be_zero_seconds() {
        use super::parse_budget_seconds;
        for zero in ["0", "0.0", "-0", "0e5"] {
            assert_eq!(parse_budget_seconds(zero), Ok(Duration::ZERO), "{zero}");
        }
        assert_eq!(parse_budget_seconds("0.5"), parse_seconds("0.5"));
        for bad in ["-1", "-0.001", "nan", "inf", "", "1s", "1000000001"] {
            assert!(parse_budget_seconds(bad).is_err(), "{bad}");
        }
        // Every number below the range is told the same range, 0 included;
        // one past f64 (`1e400`) is past the largest, not below.
        for bad in ["-1", "nan", "-inf", "-1e400"] {
            assert_eq!(
                parse_budget_seconds(bad),
                Err("must be 0 or a positive, finite number of seconds".to_owned()),
                "{bad}"
            );
        }
        for bad in ["inf", "1e400", "1e10"] {
            assert_eq!(
                parse_budget_seconds(bad),
                Err("must be at most 1000000000 seconds (about 31 years)".to_owned()),
                "{bad}"
            );
        }
    }
}

/// Search limits shared by the commands that run a search.
#[derive(Debug, Clone, clap::Args)]
pub struct BudgetArgs {
    /// Give up a search after solving this many distinct shapes (with
    /// --threads 2, those the helper thread solved too); on boards past 64
    /// cells, where a search gives up the analysis and the engine go on with
    /// the others, within the time budget. The memo takes 12 to
    /// 24 bytes a shape; measured peak RSS was 140 MB at 8,700,000 shapes
    /// (16 bytes each), so 20,000,000 shapes stay under about 0.5 GB. The
    /// memo also keeps the shapes a database (--tables) answered, which this
    /// count leaves out: up to about twice the memory (560 MB measured at
    /// 20,000,000 shapes on a 7 x 7 block with the 5 x 6 database). With
    /// --move each question the outcome search decides counts as a shape,
    /// and the values it rules out are kept beside the memo (408 to 416
    /// MB measured at 20,000,000 on a dense 7 x 7 block). With --threads
    /// 2, once the helper joins, its exchange table of up to 128 MB comes
    /// on top whatever this count (--max-memory or --threads 1 bounds it).
    #[arg(long, default_value_t = 20_000_000, value_name = "N", value_parser = crate::cmd::parse_count, allow_hyphen_values = true)]
    pub max_positions: u64,
    /// Give up after this many seconds (at most 10^9; 0 spends the budget
    /// before the search starts, and an engine's move is then a legal one
    /// played at once). Default: no limit on boards of at most 64 cells,
    /// 30 seconds for a run with a board past 64 cells, 5 seconds for
    /// `clear --move`.
    #[arg(long, value_name = "SECONDS", value_parser = crate::cmd::parse_budget_seconds, allow_hyphen_values = true)]
    pub max_time: Option<std::time::Duration>,
    /// Give up before the shape memo and the search's scratch would pass
    /// this size, counted from their allocations (the process needs a few
    /// MB more, and the pages of a --tables database it reads, up to the
    /// file's size): bytes, or with a unit such as 512MB, 2GiB (kB/MB/GB are
    /// powers of 1000, KiB/MiB/GiB of 1024). Default: no limit on boards of
    /// at most 64 cells (--max-positions bounds them), 1 GiB for the search
    /// of shapes past 64 cells, 8 GiB for the cells of the boards read.
    #[arg(long, value_name = "SIZE", value_parser = crate::cmd::parse_size, allow_hyphen_values = true)]
    pub max_memory: Option<u64>,
}

/// The memory the boards' cells may take as they are read when
/// `--max-memory` is not given: a third of this project's machines' 24 GiB.
pub const DEFAULT_BOARD_MEMORY: u64 = 8 << 30;

impl BudgetArgs {
    pub fn budget(&self) -> grundy::Budget {
        grundy::Budget {
            max_positions: Some(self.max_positions),
            max_time: self.max_time,
            max_memory: self.max_memory,
        }
    }
}

/// The error for a search that ran out of budget: which budget, the flag
/// that sets it (the one "raise" hint), and the library's message.
/// The exit code (3) comes from the [`SolveError`](grundy::SolveError) inside.
pub fn stopped(err: grundy::SolveError) -> anyhow::Error {
    let flag = budget_flag(&err);
    stopped_naming(err, &[flag])
}

/// The flag that raises the budget `err` ran out of (`a budget` for a
/// search stopped from outside).
pub fn budget_flag(err: &grundy::SolveError) -> &'static str {
    match err {
        grundy::SolveError::PositionBudget { .. } => "--max-positions",
        grundy::SolveError::TimeBudget { .. } => "--max-time",
        grundy::SolveError::MemoryBudget { .. } => "--max-memory",
        _ => "a budget",
    }
}

/// [`stopped`] for a run in which several budgets ran out (`grundy sum`'s
/// searches, each of which may stop on another): every one of `flags` is
/// named, as raising one alone would leave the others spent.
pub fn stopped_naming(err: grundy::SolveError, flags: &[&str]) -> anyhow::Error {
    let flags = match flags {
        [] => "a budget".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    anyhow::Error::new(err).context(format!(
        "the search stopped early (raise {flags} to search further)"
    ))
}
