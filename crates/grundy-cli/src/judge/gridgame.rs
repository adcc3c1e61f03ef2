//! Judge format `gridgame` (CodeChef GRIDGAME): `T` tests (1..=10^4); each
//! is `N` (1..=10^5) then `N` lines `X Y` of distinct impassable cells, `Q`
//! (1..=10^5) then `Q` lines `X Y` of starting cells, never impassable;
//! coordinates `0..=10^9`. Prints `Alice` when the first player wins, else
//! `Bob`, one line per query.
//!
//! Each test sorts its queries by row (a radix sort, [`grundy::radix`]) and
//! answers them with one sweep of the rows
//! ([`LosingLines::classify_by_rows`]), O((N + Q) log N), which keeps none
//! of the sweep's pieces: measured faster than building [`LosingLines`]
//! and walking its pieces with a cursor (`../shared/baselines/compare.sh
//! gridgame`, see docs/benchmarks.md).
//! Coordinates are read a word at a time; a file is parsed in place,
//! memory-mapped (`grundy judge`; `cargo bench -p grundy-bench --bench
//! judge_input`, one run: 38.0 ms read into fresh memory, 26.2 ms mapped,
//! on the largest input). A repeated impassable
//! cell or a start on an impassable cell is an error at its place, not a
//! silent answer, and so are sums of `N` or of `Q` over the tests past
//! the statement's 10^5.

use std::io::Write;

use grundy::pawn::{Blocked, Cell, CellKind, LosingLines, PawnError, MAX_COORD};

use super::scan::{digit_run, swar_value, DIGIT_ZEROS};
use super::{answering, skip_bom, Answers, JudgeError};
use grundy_report::parse::pawn::scan_coordinate;
use grundy_report::parse::{ParseError, ParseErrorKind, Scanner};

/// The most tests.
pub const MAX_TESTS: usize = 10_000;
/// The most impassable cells in a test.
pub const MAX_CELLS: usize = 100_000;
/// The most queries in a test.
pub const MAX_QUERIES: usize = 100_000;

/// Answers every test.
///
/// # Errors
///
/// A malformed or out-of-range number, a repeated impassable cell, a start
/// on an impassable cell, a truncated input, trailing input, or a failed
/// write.
pub fn run(input: &[u8], out: impl Write) -> Result<(), JudgeError> {
    answering(out, |answers| answer(skip_bom(input), answers))
}

fn answer<W: Write>(input: &[u8], out: &mut Answers<W>) -> Result<(), JudgeError> {
    let mut scanner = Scanner::new(input);
    let tests = scanner.usize_in("the number of tests T", 1, MAX_TESTS)?;
    let mut cells = Vec::new();
    let (mut order, mut xs, mut answers) = (Vec::new(), Vec::new(), Vec::new());
    let mut scratch = Vec::new();
    let (mut all_cells, mut all_queries) = (0, 0);
    for _ in 0..tests {
        let n = test_count(
            &mut scanner,
            "the number of impassable cells N",
            MAX_CELLS,
            &mut all_cells,
            "impassable cells",
        )?;
        let cells_start = scanner.position();
        cells.clear();
        cells.reserve(n);
        for _ in 0..n {
            let x = coordinate(&mut scanner, "x coordinate")?;
            let y = coordinate(&mut scanner, "y coordinate")?;
            cells.push(Cell::new(u64::from(x), u64::from(y)).expect("in range"));
        }
        // One scratch for the three radix sorts of a test (and the next
        // tests'): separate ones would each be fresh memory (`crate::alloc`).
        let blocked = Blocked::new_with_scratch(&cells, &mut scratch)
            .map_err(|err| duplicate(input, cells_start, &err))?;
        let q = test_count(
            &mut scanner,
            "the number of queries Q",
            MAX_QUERIES,
            &mut all_queries,
            "queries",
        )?;
        let queries_start = scanner.position();
        // Offline: read the queries and sort them by row, for the sweep.
        // Room for every query at once: grown by doubling, the two vectors
        // (pushed in turn) would leave a copy of each size behind in the
        // judges' region, which never reuses memory (`crate::alloc`).
        order.clear();
        order.reserve(q);
        xs.clear();
        xs.reserve(q);
        let mut failure = None;
        for index in 0..q {
            let read = coordinate(&mut scanner, "x coordinate")
                .and_then(|x| Ok((x, coordinate(&mut scanner, "y coordinate")?)));
            match read {
                Ok((x, y)) => {
                    order.push(u64::from(y) << 32 | index as u64);
                    xs.push(x);
                }
                Err(err) => {
                    failure = Some(err);
                    break;
                }
            }
        }
        grundy::radix::sort_by_high_half(&mut order, &mut scratch);
        // The impassable cells are in `blocked` now: their vector takes the
        // starting cells, sorted by row, rather than a fresh one.
        cells.clear();
        cells.extend(order.iter().map(|&key| {
            let x = xs[(key & 0xFFFF_FFFF) as usize];
            Cell::new(u64::from(x), key >> 32).expect("read in range")
        }));
        let kinds = LosingLines::classify_by_rows_with_scratch(&blocked, &cells, &mut scratch)
            .expect("the queries were sorted by row");
        answers.clear();
        answers.resize(xs.len(), CellKind::Winning);
        let mut first_blocked = usize::MAX;
        for (&key, &kind) in order.iter().zip(&kinds) {
            let index = (key & 0xFFFF_FFFF) as usize;
            if kind == CellKind::Blocked {
                first_blocked = first_blocked.min(index);
            }
            answers[index] = kind;
        }
        // The answers before the first bad query are printed, then the error.
        for &kind in &answers[..first_blocked.min(answers.len())] {
            out.push(if kind == CellKind::Losing {
                b"Bob\n"
            } else {
                b"Alice\n"
            })?;
        }
        if first_blocked != usize::MAX {
            let offset = nth_pair_offset(input, queries_start, first_blocked);
            return Err(scanner
                .error_at(
                    offset,
                    ParseErrorKind::Invalid(format!(
                        "the starting cell ({},{}) is impassable",
                        xs[first_blocked],
                        order
                            .iter()
                            .find(|&&k| (k & 0xFFFF_FFFF) as usize == first_blocked)
                            .map_or(0, |&k| k >> 32)
                    )),
                )
                .into());
        }
        if let Some(err) = failure {
            return Err(err.into());
        }
    }
    if !scanner.at_end() {
        return Err(scanner.error(super::trailing_input(tests as u64)).into());
    }
    Ok(())
}

/// A test's count of `what`, `name` in messages, in `1..=limit`, added to
/// `total`, its sum over the tests so far: the statement bounds the sum by
/// `limit` too, and a count that passes it is an error at the count.
fn test_count(
    scanner: &mut Scanner<'_>,
    name: &str,
    limit: usize,
    total: &mut usize,
    what: &str,
) -> Result<usize, ParseError> {
    scanner.peek_token();
    let at = scanner.position();
    let count = scanner.usize_in(name, 1, limit)?;
    *total += count;
    if *total <= limit {
        return Ok(count);
    }
    Err(scanner.error_at(
        at,
        ParseErrorKind::Invalid(format!(
            "the tests so far have {total} {what} in all, over the statement's limit of {limit}"
        )),
    ))
}

/// Reads a coordinate. Hand-written fast path (the input is megabytes of
/// digits): skip whitespace, then, with 16 bytes left, find the digits and
/// their value a word at a time (8 digits by SWAR, up to 2 more from the
/// second word: coordinates have at most 10); otherwise, or at anything
/// unusual (no digit, more digits, no whitespace after, out of range), the
/// checked reader reads it again and makes the error message.
#[inline(always)]
fn coordinate(scanner: &mut Scanner<'_>, what: &str) -> Result<u32, ParseError> {
    let input = scanner.input();
    let mut pos = scanner.position();
    while input.get(pos).is_some_and(u8::is_ascii_whitespace) {
        pos += 1;
    }
    if let Some(bytes) = input.get(pos..pos + 16) {
        let word = |at: usize| {
            u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes")) ^ DIGIT_ZEROS
        };
        let first = word(0);
        let len = digit_run(first);
        let value = if len == 8 {
            // The value of 8, 9 or 10 digits.
            let second = word(8);
            match digit_run(second) {
                0 => Some((swar_value(first), 8)),
                1 => Some((swar_value(first) * 10 + (second & 0xF), 9)),
                2 => Some((
                    swar_value(first) * 100 + (second & 0xF) * 10 + (second >> 8 & 0xF),
                    10,
                )),
                _ => None,
            }
        } else if len > 0 {
            Some((swar_value(first << (64 - 8 * len)), len))
        } else {
            None
        };
        if let Some((value, len)) = value {
            if value <= u64::from(MAX_COORD) && bytes[len].is_ascii_whitespace() {
                scanner.set_position(pos + len);
                return Ok(value as u32);
            }
        }
    }
    coordinate_slow(scanner, pos, what)
}

/// [`coordinate`] near the end of the input, or at anything unusual.
#[cold]
#[inline(never)]
fn coordinate_slow(scanner: &mut Scanner<'_>, start: usize, what: &str) -> Result<u32, ParseError> {
    let input = scanner.input();
    let mut pos = start;
    let mut value = 0u64;
    while let Some(&b) = input.get(pos) {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        value = value * 10 + u64::from(digit);
        pos += 1;
        if pos - start > 10 {
            break;
        }
    }
    let clean_end = input.get(pos).is_none_or(u8::is_ascii_whitespace);
    if pos > start && pos - start <= 10 && value <= u64::from(MAX_COORD) && clean_end {
        scanner.set_position(pos);
        return Ok(value as u32);
    }
    scanner.set_position(start);
    scan_coordinate(scanner, what)
}

/// The error for a repeated impassable cell: re-reads the test's cells to
/// find where its second listing is.
fn duplicate(input: &[u8], cells_start: usize, err: &PawnError) -> ParseError {
    let PawnError::DuplicateBlocked {
        cell,
        first,
        second,
    } = *err
    else {
        unreachable!("Blocked::new only reports duplicates: {err}")
    };
    let offsets = [
        nth_pair_offset(input, cells_start, first),
        nth_pair_offset(input, cells_start, second),
    ];
    let (line, _) = grundy_report::parse::line_col(input, offsets[0]);
    ParseError::at(
        input,
        offsets[1],
        ParseErrorKind::Duplicate {
            what: format!("impassable cell {cell}, first listed on line {line}"),
        },
    )
}

/// The byte offset of the `index`-th `X Y` pair after `start`, in input
/// already read once without error.
fn nth_pair_offset(input: &[u8], start: usize, index: usize) -> usize {
    let mut scanner = Scanner::new(input);
    scanner.set_position(start);
    for _ in 0..index {
        for what in ["x coordinate", "y coordinate"] {
            coordinate(&mut scanner, what).expect("read once already");
        }
    }
    scanner.peek_token();
    scanner.position()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(input: &str) -> Result<String, ParseError> {
        let mut out = Vec::new();
        match run(input.as_bytes(), &mut out) {
            Ok(()) => Ok(String::from_utf8(out).unwrap()),
            Err(err) => Err(err.input().expect("a parse error").clone()),
        }
    }

    /// The statement bounds the sums of N and of Q over the tests: the
    /// count that passes one is an error at its place.
    #[test]
    fn sums_past_the_statement_are_errors_at_the_count() {
        let test = |n: usize, q: usize| {
            let mut text = format!("{n}\n");
            for x in 0..n {
                text += &format!("{} 1\n", x + 1);
            }
            text += &format!("{q}\n");
            for y in 0..q {
                text += &format!("0 {}\n", y + 2);
            }
            text
        };
        let half = MAX_CELLS / 2;
        let fits = format!("2\n{}{}", test(half, 1), test(half, 1));
        assert_eq!(judge(&fits).unwrap().lines().count(), 2);
        let over = format!("2\n{}{}", test(half, 1), test(half + 1, 1));
        let e = judge(&over).unwrap_err();
        // The second test's N: after T, the first test's N, its cells, Q
        // and its start.
        assert_eq!((e.line, e.col), (half + 5, 1));
        assert!(e.to_string().contains("100001 impassable cells"), "{e}");
        let over = format!("2\n{}{}", test(1, half), test(1, half + 1));
        let e = judge(&over).unwrap_err();
        assert_eq!((e.line, e.col), (half + 7, 1));
        assert!(e.to_string().contains("100001 queries"), "{e}");
    }

    /// A number of any length is shown by its head and its length, as in
    /// every judge's messages.
    #[test]
    fn a_long_number_is_shown_short() {
        let digits = "9".repeat(5000);
        for input in [
            format!("1\n1\n{digits} 1\n1\n0 0\n"),
            format!("1\n1\n-{digits} 1\n1\n0 0\n"),
        ] {
            let e = judge(&input).unwrap_err().to_string();
            assert!(e.contains("(5000 digits)"), "{e}");
            assert!(e.len() < 200, "{e}");
        }
    }

    #[test]
    fn errors_are_located() {
        let e = judge("1\n2\n1 1\n1 1\n1\n0 0\n").unwrap_err();
        assert_eq!((e.line, e.col), (4, 1));
        assert!(e.to_string().contains("first listed on line 3"), "{e}");
        let e = judge("1\n1\n1 1\n2\n0 0\n1 1\n").unwrap_err();
        assert_eq!((e.line, e.col), (6, 1));
        assert!(e.to_string().contains("impassable"), "{e}");
        let e = judge("1\n1\n1 -1\n").unwrap_err();
        assert_eq!((e.line, e.col), (3, 3));
        assert!(e.to_string().contains("negative"), "{e}");
        let e = judge("1\n1\n1 1000000001\n").unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
        let e = judge("1\n1\n1 1\n2\n0 0\n3").unwrap_err();
        assert!(e.to_string().contains("unexpected end of input"), "{e}");
        let e = judge("1\n1\n1 1\n1\n0 0\n9").unwrap_err();
        assert!(e.to_string().contains("trailing input"), "{e}");
        let e = judge("1\n1\n1 1x\n").unwrap_err();
        assert_eq!((e.line, e.col), (3, 4));
        // Leading zeros are numbers too (the slow path reads them): the
        // sample's walls and its losing start (1,2).
        assert_eq!(
            judge("1\n2\n1 1\n4 2\n1\n000000000001 2\n").unwrap(),
            "Bob\n"
        );
    }

    proptest::proptest! {
        /// Never panics, whatever the bytes (the pawn file format's own
        /// test, in grundy-report, covers its parser alone).
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just(b'1'), proptest::strategy::Just(b'0'),
                proptest::strategy::Just(b' '), proptest::strategy::Just(b'\n'),
                proptest::strategy::Just(b'-'), proptest::strategy::Just(b'#'),
                proptest::prelude::any::<u8>()
            ], 0..80)) {
            let mut out = Vec::new();
            let _ = run(&bytes, &mut out);
        }
    }
}
