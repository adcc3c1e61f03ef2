//! What every judge shares: a FILE argument or `-`, a skipped BOM, one
//! tokenising rule, and answers written as they come (those before an error
//! at the end of a large input are printed).

use std::io::Write as _;

use crate::common::{assert_input_error, data, data_text, grundy};

/// Every judge with its sample's name.
const SAMPLES: [(&str, &str); 4] = [
    ("gfg", "gfg1"),
    ("pshtbrth", "pshtbrth"),
    ("gridgame", "gridgame"),
    ("caos3", "caos3"),
];

fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(bytes).unwrap();
    file
}

fn judge_file(problem: &str, path: &std::path::Path) -> std::process::Output {
    grundy()
        .args(["judge", problem])
        .arg(path)
        .output()
        .unwrap()
}

fn assert_answers(output: &std::process::Output, expected: &str) {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}

#[test]
fn every_judge_reads_a_file_or_dash_and_skips_a_bom() {
    for (problem, sample) in SAMPLES {
        let expected = data_text(&format!("{sample}.out"));
        let input = data_text(&format!("{sample}.in"));
        assert_answers(
            &judge_file(problem, &data(&format!("{sample}.in"))),
            &expected,
        );
        let output = grundy()
            .args(["judge", problem, "-"])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert_answers(&output, &expected);
        let with_bom = file(format!("\u{FEFF}{input}").as_bytes());
        assert_answers(&judge_file(problem, with_bom.path()), &expected);
        // Errors name the file; a BOM does not count as a column.
        let bad = file(b"\xEF\xBB\xBFx\n");
        let path = bad.path().display().to_string();
        assert_input_error(
            grundy().args(["judge", problem]).arg(bad.path()),
            &path,
            1,
            1,
            "unexpected 'x'",
        );
        let output = grundy()
            .args(["judge", problem, "/no/such/file.in"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{problem}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("error: /no/such/file.in: cannot read"),
            "{stderr}"
        );
        // A directory has no text to place an error in.
        let dir = tempfile::tempdir().unwrap();
        let output = grundy()
            .args(["judge", problem])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{problem}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let expected = format!("error: {}: cannot read: ", dir.path().display());
        assert!(stderr.starts_with(&expected), "{problem}: {stderr}");
    }
}

/// The sample with every token of decimal digits (of fewer than `keep`
/// characters: board rows are 4 digits) prefixed by 30 zeros, tabs for
/// spaces and CRLF line ends.
fn padded(input: &str, keep: usize) -> String {
    let mut out = String::new();
    for line in input.lines() {
        let words: Vec<String> = line
            .split(' ')
            .map(|word| {
                if !word.is_empty() && word.len() < keep && word.bytes().all(|b| b.is_ascii_digit())
                {
                    format!("{}{word}", "0".repeat(30))
                } else {
                    word.to_owned()
                }
            })
            .collect();
        out.push_str(&words.join("\t"));
        out.push_str("\r\n");
    }
    out
}

#[test]
fn every_judge_takes_numbers_with_leading_zeros_and_any_whitespace() {
    for (problem, sample, keep) in [
        ("pshtbrth", "pshtbrth", 4),
        ("gridgame", "gridgame", usize::MAX),
        ("caos3", "caos3", usize::MAX),
        ("gfg", "gfg1", 0),
    ] {
        let input = padded(&data_text(&format!("{sample}.in")), keep);
        let output = grundy()
            .args(["judge", problem])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_answers(&output, &data_text(&format!("{sample}.out")));
    }
    // pshtbrth's query type is a number too.
    let input = data_text("pshtbrth.in")
        .replace("\n1 ", "\n001 ")
        .replace("\n2 ", "\n02 ");
    let output = grundy()
        .args(["judge", "pshtbrth"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_answers(&output, &data_text("pshtbrth.out"));
}

#[test]
fn every_judge_checks_the_value_not_the_digits() {
    let zeros = "0".repeat(30);
    // The first count of each format, out of range by value.
    for (problem, input, shown) in [
        (
            "pshtbrth",
            format!("{zeros}10000001\n"),
            "0000000000000000... (38 digits) is out of range 1 to 10000000",
        ),
        (
            "gridgame",
            format!("{zeros}10001\n"),
            "0000000000000000... (35 digits) is out of range 1 to 10000",
        ),
        (
            "caos3",
            format!("{zeros}11\n"),
            "00000000000000000000000000000011 is out of range 1 to 10",
        ),
    ] {
        assert_input_error(
            grundy().args(["judge", problem]).write_stdin(input),
            "<stdin>",
            1,
            1,
            &format!("the number of tests T {shown}"),
        );
    }
    // A gfg cell is one token: `11` is not two cells.
    assert_input_error(
        grundy()
            .args(["judge", "gfg"])
            .write_stdin("1 1 11 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"),
        "<stdin>",
        1,
        6,
        "a cell is one character 0 or 1",
    );
}

/// A large input whose last line is bad: the answers before it, far more
/// than one output chunk, are all printed, then the error.
#[test]
fn answers_before_an_error_at_the_end_of_a_large_input_are_printed() {
    let queries = 200_000;
    let mut input = format!(
        "1\n2 {}\n1111\n1111\n1111\n1111\n0000\n0000\n0000\n0000\n",
        queries + 1
    );
    for _ in 0..queries {
        input.push_str("1 1 2\n");
    }
    input.push_str("1 2 1\n");
    let output = grundy()
        .args(["judge", "pshtbrth"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(output.stdout, "Pishty\n".repeat(queries).as_bytes());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "error: <stdin>:{}:5: R 1 is less than L 2: a range L R needs L <= R\n",
            queries + 11
        )
    );

    // gridgame: a whole test of answers, then a bad second test (within
    // the statement's 10^5 starts in all).
    let starts = 99_999;
    let mut input = format!("2\n1\n0 0\n{starts}\n");
    for i in 0..starts {
        input.push_str(&format!("{} {}\n", i + 1, i % 7));
    }
    input.push_str("1\n5 5\n1\n5 5\n");
    let output = grundy()
        .args(["judge", "gridgame"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        output.stdout.iter().filter(|&&b| b == b'\n').count(),
        starts
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("impassable"), "{stderr}");
}

/// `grundy sum` too: the answers of a long script before its bad last line.
#[test]
fn sum_prints_answers_before_an_error_at_the_end_of_a_long_script() {
    let boards = file(b"11\n\n1\n");
    let lines = 100_000;
    let mut script = "value 1 2\n".repeat(lines);
    script.push_str("value 2 1\n");
    let script = file(script.as_bytes());
    let output = grundy()
        .args(["sum", "--queries"])
        .arg(script.path())
        .arg(boards.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    // 11 is worth 2 and 1 is worth 1: the sum is 3.
    assert_eq!(output.stdout, "3\n".repeat(lines).as_bytes());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(":{}:9: R 1 is less than L 2", lines + 1)),
        "{stderr}"
    );
}

/// `grundy judge` with standard input from `stdin`, mapped, or read when
/// `no_map` (see `output::map_source`).
fn judge_stdin(problem: &str, stdin: std::fs::File, no_map: bool) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.args(["judge", problem]).stdin(stdin);
    if no_map {
        command.env("GRUNDY_NO_MAP", "1");
    }
    command.output().unwrap()
}

#[test]
fn a_mapped_input_reads_as_a_read_one() {
    for (problem, sample) in [("pshtbrth", "pshtbrth"), ("gridgame", "gridgame")] {
        let path = data(&format!("{sample}.in"));
        let expected = data_text(&format!("{sample}.out"));
        for no_map in [false, true] {
            let stdin = std::fs::File::open(&path).unwrap();
            assert_answers(&judge_stdin(problem, stdin, no_map), &expected);
        }
        // A standard input already read up to a point: the judge reads the
        // rest, as it would from a pipe.
        let skip = "not the input\n";
        let text = format!("{skip}{}", data_text(&format!("{sample}.in")));
        let partly_read = file(text.as_bytes());
        let mut stdin = std::fs::File::open(partly_read.path()).unwrap();
        std::io::Read::read_exact(&mut stdin, &mut vec![0; skip.len()]).unwrap();
        assert_answers(&judge_stdin(problem, stdin, false), &expected);
        // The same answers and the same located error, mapped or read.
        let bad = file(
            data_text(&format!("{sample}.in"))
                .replacen(" 1", " x", 1)
                .as_bytes(),
        );
        let [mapped, read] = [false, true]
            .map(|no_map| judge_stdin(problem, std::fs::File::open(bad.path()).unwrap(), no_map));
        assert_eq!(mapped.status.code(), Some(2));
        assert_eq!(mapped.status.code(), read.status.code());
        assert_eq!(mapped.stdout, read.stdout);
        assert_eq!(
            String::from_utf8_lossy(&mapped.stderr),
            String::from_utf8_lossy(&read.stderr)
        );
    }
}
