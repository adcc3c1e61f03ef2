//! Invariants shared by the fuzz targets in `fuzz_targets/`.
//!
//! A target does not only look for panics: every parse error must point
//! inside the input and display as `line:col: what`, and every judge's output
//! must be whole lines of its answer words. A broken invariant panics, which
//! libFuzzer reports as a crash with the input that caused it.

use grundy_report::parse::ParseError;

/// The lines of `input` as the parsers count them: split at `\n` (a final
/// line end opens one more, empty, line).
fn lines(input: &[u8]) -> Vec<&[u8]> {
    input.split(|&b| b == b'\n').collect()
}

/// Checks that `err` lies inside `input` (1-based line and column, the
/// column at most one past the end of its line, counted in characters with
/// invalid UTF-8 as one replacement character per bad sequence, as
/// [`grundy_report::parse::line_col`] does) and that it displays as
/// `line:col: message`.
///
/// # Panics
///
/// When it does not: that is the bug the fuzzer reports.
pub fn check_error(input: &[u8], err: &ParseError) {
    let lines = lines(input);
    assert!(err.line >= 1, "line 0 in {err:?}");
    assert!(err.col >= 1, "column 0 in {err:?}");
    assert!(
        err.line <= lines.len(),
        "line {} past the input's {} lines: {err:?}",
        err.line,
        lines.len()
    );
    // A column may name the place just past the line's last character
    // (its line end, or the end of the input).
    let width = String::from_utf8_lossy(lines[err.line - 1]).chars().count();
    assert!(
        err.col <= width + 1,
        "column {} past the end of line {} ({width} characters): {err:?}",
        err.col,
        err.line,
    );
    let shown = err.to_string();
    let place = format!("{}:{}: ", err.line, err.col);
    assert!(
        shown.starts_with(&place) && shown.len() > place.len(),
        "display {shown:?} does not start with {place:?} and a message"
    );
}

/// Checks that a judge's `out` is whole lines, each one of `words`, and
/// returns how many lines there are.
///
/// # Panics
///
/// When it is not.
pub fn check_answers(out: &[u8], words: &[&str]) -> usize {
    let text = std::str::from_utf8(out).expect("judge output is UTF-8");
    if text.is_empty() {
        return 0;
    }
    assert!(text.ends_with('\n'), "output ends mid-line: {text:?}");
    let mut count = 0;
    for line in text[..text.len() - 1].split('\n') {
        assert!(words.contains(&line), "unexpected answer line {line:?}");
        count += 1;
    }
    count
}
