use super::*;
use proptest::prelude::*;
use std::collections::HashMap;

/// The answers and the parse error, parsed in place.
fn answer(input: &str) -> (String, Result<(), ParseError>) {
    answer_in_place(input.as_bytes())
}

fn answer_in_place(input: &[u8]) -> (String, Result<(), ParseError>) {
    let mut out = Vec::new();
    let result = run(input, &mut out).map_err(|err| err.input().expect("a parse error").clone());
    (String::from_utf8(out).unwrap(), result)
}

/// The answers and the parse error, `chunk` bytes at a time.
fn answer_bytes(input: &[u8], chunk: usize) -> (String, Result<(), ParseError>) {
    let mut out = Vec::new();
    let result = run_reader(input, &mut out, chunk)
        .map_err(|err| err.input().expect("a parse error").clone());
    (String::from_utf8(out).unwrap(), result)
}

/// The value of a 4 x 4 board by plain mex recursion over all 100
/// rectangles, without the engine's table.
fn brute_value(cells: u16, memo: &mut HashMap<u16, u32>) -> u32 {
    if let Some(&v) = memo.get(&cells) {
        return v;
    }
    let mut seen = Vec::new();
    for top in 0..4 {
        for bottom in top..4 {
            for left in 0..4 {
                for right in left..4 {
                    let mut rect = 0u16;
                    for r in top..=bottom {
                        for c in left..=right {
                            rect |= 1 << (4 * r + c);
                        }
                    }
                    if cells & rect == rect {
                        seen.push(brute_value(cells ^ rect, memo));
                    }
                }
            }
        }
    }
    let v = (0..).find(|v| !seen.contains(v)).unwrap();
    memo.insert(cells, v);
    v
}

/// The straightforward implementation: split on whitespace, brute-force
/// values, a plain XOR loop per query.
fn straightforward(input: &str) -> String {
    let mut memo = HashMap::new();
    let tokens: Vec<&str> = input.split_ascii_whitespace().collect();
    let mut at = 0;
    let mut next = || {
        at += 1;
        tokens[at - 1]
    };
    let mut out = String::new();
    let tests: usize = next().trim_start_matches('\u{FEFF}').parse().unwrap();
    for _ in 0..tests {
        let n: usize = next().parse().unwrap();
        let m: usize = next().parse().unwrap();
        let mut values = Vec::new();
        for _ in 0..n {
            let rows = [next(), next(), next(), next()];
            values.push(brute_value(cells_of(rows), &mut memo));
        }
        for _ in 0..m {
            if next().parse::<u8>().unwrap() == 1 {
                let l: usize = next().parse().unwrap();
                let r: usize = next().parse().unwrap();
                let total = values[l - 1..r].iter().fold(0, |acc, v| acc ^ v);
                out.push_str(if total == 0 { "Lotsy\n" } else { "Pishty\n" });
            } else {
                let p: usize = next().parse().unwrap();
                let rows = [next(), next(), next(), next()];
                values[p - 1] = brute_value(cells_of(rows), &mut memo);
            }
        }
    }
    out
}

fn cells_of(rows: [&str; 4]) -> u16 {
    let mut cells = 0u16;
    for (row, text) in rows.iter().enumerate() {
        for (col, ch) in text.chars().enumerate() {
            if ch == '1' {
                cells |= 1 << (4 * row + col);
            }
        }
    }
    cells
}

/// A random valid input, with random whitespace between lines.
fn random_input() -> impl Strategy<Value = String> {
    let test = (1usize..7, 1usize..12).prop_flat_map(|(n, m)| {
        (
            proptest::collection::vec(any::<u16>(), n),
            proptest::collection::vec(
                (any::<bool>(), any::<usize>(), any::<usize>(), any::<u16>()),
                m,
            ),
        )
    });
    (
        proptest::collection::vec(test, 1..4),
        // Mostly plain line ends, so that whole boards take the fast path.
        proptest::collection::vec(0usize..12, 256),
    )
        .prop_map(|(tests, seps)| {
            const SEPS: [&str; 12] = [
                "\n",
                "\r\n",
                "\n\n",
                " \n",
                "\t\r\n\r\n",
                "\n \n",
                "\n",
                "\n",
                "\n",
                "\n",
                "\n",
                "\n",
            ];
            let mut seps = seps.into_iter().cycle();
            let mut text = String::new();
            let mut line = |text: &mut String, s: &str| {
                text.push_str(s);
                text.push_str(SEPS[seps.next().unwrap()]);
            };
            let board = |cells: u16| -> Vec<String> {
                (0..4)
                    .map(|r| {
                        (0..4)
                            .map(|c| {
                                if cells >> (4 * r + c) & 1 == 1 {
                                    '1'
                                } else {
                                    '0'
                                }
                            })
                            .collect()
                    })
                    .collect()
            };
            line(&mut text, &tests.len().to_string());
            for (boards, queries) in &tests {
                let n = boards.len();
                line(&mut text, &format!("{n} {}", queries.len()));
                for &b in boards {
                    board(b).iter().for_each(|row| line(&mut text, row));
                }
                for &(ask, a, b, cells) in queries {
                    if ask {
                        let (l, r) = (a % n + 1, b % n + 1);
                        line(&mut text, &format!("1 {} {}", l.min(r), l.max(r)));
                    } else {
                        line(&mut text, &format!("2 {}", a % n + 1));
                        board(cells).iter().for_each(|row| line(&mut text, row));
                    }
                }
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn matches_the_straightforward_implementation(input in random_input()) {
        let (out, result) = answer(&input);
        prop_assert_eq!(result, Ok(()));
        prop_assert_eq!(out, straightforward(&input));
    }

    /// Streamed in small chunks or read in one piece, every input
    /// (valid, or with one byte changed) gives the same answers and the
    /// same located error as parsed in place.
    #[test]
    fn chunk_size_changes_nothing(
        input in random_input(),
        chunk in 1usize..40,
        at in any::<usize>(),
        byte in prop_oneof![Just(b'x'), Just(b'\n'), Just(b' '), Just(b'2'), Just(b'0'), any::<u8>()],
    ) {
        let mut bytes = input.into_bytes();
        for _ in 0..2 {
            let (in_place, in_place_result) = answer_in_place(&bytes);
            for chunk in [chunk, bytes.len() + 1] {
                let (streamed, streamed_result) = answer_bytes(&bytes, chunk);
                prop_assert_eq!(&streamed, &in_place);
                prop_assert_eq!(&streamed_result, &in_place_result);
            }
            let at = at % bytes.len();
            bytes[at] = byte;
        }
    }

    /// Cut anywhere, the input gives an error or an answer, never a
    /// panic; and the answers given are a prefix of the full answers.
    #[test]
    fn truncated_input_keeps_earlier_answers(input in random_input(), cut in any::<usize>()) {
        let full = straightforward(&input);
        let cut = cut % (input.len() + 1);
        let (out, _) = answer(&input[..cut]);
        prop_assert!(full.starts_with(&out));
    }

    /// The tokenising rule of every judge: leading zeros on any number
    /// (the query type too), as many as one likes, a BOM, CRLF; read in
    /// any chunks, the answers are those of the plain input.
    #[test]
    fn leading_zeros_and_a_bom_change_nothing(
        input in random_input(),
        zeros in proptest::collection::vec(0usize..45, 64),
        chunk in 1usize..50,
    ) {
        let expected = straightforward(&input);
        let mut zeros = zeros.into_iter().cycle();
        let mut padded = String::from("\u{FEFF}");
        for line in input.split_inclusive('\n') {
            let mut words = Vec::new();
            for word in line.split(' ') {
                // Board rows are the tokens of 4 characters.
                if (1..4).contains(&word.trim().len()) {
                    words.push("0".repeat(zeros.next().unwrap()) + word);
                } else {
                    words.push(word.to_owned());
                }
            }
            padded.push_str(&words.join(" "));
        }
        let (out, result) = answer_bytes(padded.as_bytes(), chunk);
        prop_assert_eq!(result, Ok(()));
        prop_assert_eq!(&out, &expected);
        let (out, result) = answer_in_place(padded.as_bytes());
        prop_assert_eq!(result, Ok(()));
        prop_assert_eq!(&out, &expected);
        prop_assert_eq!(straightforward(&padded), expected);
    }
}

/// A number of any length is read; it is range-checked, not counted,
/// and shown abbreviated.
#[test]
fn numbers_have_any_number_of_digits() {
    let zeros = "0".repeat(CHUNK + 10);
    let padded = SAMPLE.replacen("1\n3 6", &format!("{zeros}1\n3 {zeros}6"), 1);
    let (out, result) = answer(&padded);
    assert_eq!(result, Ok(()));
    assert_eq!(out, answer(SAMPLE).0);
    let huge = SAMPLE.replacen("3 6", &format!("3 {zeros}10000000000000000000000"), 1);
    for chunk in [7, CHUNK] {
        let (_, result) = answer_bytes(huge.as_bytes(), chunk);
        assert_eq!(
            result.unwrap_err().to_string(),
            format!(
                "2:3: the number of queries M 0000000000000000... ({} digits) is out of range 1 to 10000000",
                CHUNK + 33
            )
        );
    }
}

/// Enough queries to cross several batches, and an error in the third.
#[test]
fn answers_across_batches() {
    let mut state = 12345u64;
    let mut next = |below: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % below
    };
    let board = |cells: u64| -> String {
        (0..4)
            .map(|r| {
                format!("{:04b}\n", (cells >> (4 * r)) & 0xF)
                    .chars()
                    .rev()
                    .skip(1)
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    };
    let (n, m) = (40, 3 * BATCH as u64 - 7);
    let mut text = format!("1\n{n} {m}\n");
    (0..n).for_each(|_| text += &board(next(1 << 16)));
    let mut last_ask = 0;
    for _ in 0..m {
        if next(2) == 0 {
            let (a, b) = (next(n) + 1, next(n) + 1);
            last_ask = text.len();
            text += &format!("1 {} {}\n", a.min(b), a.max(b));
        } else {
            text += &format!("2 {}\n{}", next(n) + 1, board(next(1 << 16)));
        }
    }
    let expected = straightforward(&text);
    let (out, result) = answer(&text);
    assert_eq!(result, Ok(()));
    assert_eq!(out, expected);
    // The last question made bad: every answer before it is given.
    let bad = format!(
        "{}1 0 1\n{}",
        &text[..last_ask],
        &text[text[last_ask..].find('\n').unwrap() + last_ask + 1..]
    );
    let (out, result) = answer(&bad);
    assert!(result.is_err());
    assert_eq!(
        out,
        expected[..expected.trim_end().rfind('\n').unwrap() + 1]
    );
}

const SAMPLE: &str = "1\n3 6\n0110\n0000\n0000\n0001\n\n0000\n0000\n0000\n0000\n\n1000\n1000\n0000\n0000\n\n1 1 1\n1 2 2\n1 3 3\n1 1 3\n2 2\n0001\n0010\n0100\n1000\n1 1 3\n";

fn error_of(input: &str) -> (String, String) {
    let (out, result) = answer(input);
    (out, result.unwrap_err().to_string())
}

#[test]
fn bad_input_is_located_and_earlier_answers_stay() {
    // A query type that does not exist, after two answers.
    let bad = SAMPLE.replace("1 3 3\n", "3 3 3\n");
    let (out, err) = error_of(&bad);
    assert_eq!(out, "Pishty\nLotsy\n");
    assert_eq!(
        err,
        "20:1: unknown query type 3: expected 1 (who wins on L..R) or 2 (replace board P)"
    );
    let (_, err) = error_of(&SAMPLE.replace("1 3 3\n", "x 3 3\n"));
    assert_eq!(
        err,
        "20:1: unexpected 'x', expected a query type: 1 (who wins on L..R) or 2 (replace board P)"
    );
    // L > R, P > N.
    let (_, err) = error_of(&SAMPLE.replace("1 1 3\n2 2", "1 3 2\n2 2"));
    assert_eq!(err, "21:5: R 2 is less than L 3: a range L R needs L <= R");
    let (_, err) = error_of(&SAMPLE.replace("\n2 2\n", "\n2 4\n"));
    assert_eq!(err, "22:3: P 4 is out of range 1 to 3");
    let (_, err) = error_of(&SAMPLE.replace("1 1 1\n", "1 0 1\n"));
    assert_eq!(err, "18:3: L 0 is out of range 1 to 3");
    // Bad cells and rows of the wrong length.
    let (_, err) = error_of(&SAMPLE.replacen("0000", "0020", 1));
    assert_eq!(
        err,
        "4:3: unexpected '2', expected a cell 0 or 1 (a board row is 4 of them)"
    );
    let (_, err) = error_of(&SAMPLE.replacen("0000", "00000", 1));
    assert_eq!(err, "4:5: a board row has 4 cells, this one has more");
    let (_, err) = error_of(&SAMPLE.replacen("0000", "000", 1));
    assert_eq!(err, "4:4: a board row has 4 cells, this one has 3");
    // Truncated: the answers so far stay.
    let cut = &SAMPLE[..SAMPLE.find("0010").unwrap()];
    let (out, err) = error_of(cut);
    assert_eq!(out, "Pishty\nLotsy\nPishty\nPishty\n");
    assert!(err.contains("unexpected end of input"), "{err}");
    // Trailing input, and a number glued to a letter.
    let (_, err) = error_of(&format!("{SAMPLE}7\n"));
    assert_eq!(err, "28:1: trailing input after the 1 test announced");
    let (_, err) = error_of(&SAMPLE.replace("3 6", "3x 6"));
    assert_eq!(err, "2:2: unexpected 'x', expected a digit or whitespace");
    let (_, err) = error_of("");
    assert_eq!(
        err,
        "1:1: unexpected end of input, expected the number of tests T"
    );
}
