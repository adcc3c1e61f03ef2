//! The shape databases whose builds `docs/results.md` measured (its table
//! "The databases built"), as the command line and the web page quote them:
//! the page suggests the smallest that holds a board, and `grundy tables
//! build` sizes its progress bar and its disk check by their shape counts.
//! One list for both; a test checks it against `docs/results.md`.

use serde::Serialize;

/// A shape database whose build `docs/results.md` measured (its table "The
/// databases built"; a test checks these figures against it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MeasuredDatabase {
    /// The short side of the box.
    pub rows: usize,
    /// The long side of the box.
    pub cols: usize,
    /// How many shapes it holds.
    pub shapes: u64,
    /// CPU (user) seconds the build took, over all cores.
    pub cpu_seconds: f64,
    /// Wall seconds on the 2-core machine, where measured.
    pub wall_seconds: Option<f64>,
    /// The file's size, as written there.
    pub file_size: &'static str,
}

const fn measured(
    rows: usize,
    cols: usize,
    shapes: u64,
    cpu_seconds: f64,
    wall_seconds: Option<f64>,
    file_size: &'static str,
) -> MeasuredDatabase {
    MeasuredDatabase {
        rows,
        cols,
        shapes,
        cpu_seconds,
        wall_seconds,
        file_size,
    }
}

/// The databases of `docs/results.md`, in its order. The 2 x 8 and 5 x 5
/// boxes are built into every binary, so never suggested.
pub const MEASURED_DATABASES: &[MeasuredDatabase] = &[
    measured(2, 8, 643, 0.01, Some(0.65), "66 KB"),
    measured(3, 8, 149_413, 0.70, Some(4.5), "365 KB"),
    measured(4, 6, 256_985, 1.15, Some(7.9), "569 KB"),
    measured(5, 5, 262_292, 1.27, Some(10.2), "582 KB"),
    measured(4, 7, 2_618_529, 17.8, Some(99.6), "5.1 MB"),
    measured(5, 6, 10_230_680, 83.7, Some(553.0), "19.8 MB"),
    measured(4, 8, 26_452_916, 269.5, Some(1342.0), "283 MB"),
    measured(6, 6, 205_515_653, 2490.0, Some(1792.0), "395 MB"),
    measured(5, 7, 208_208_471, 2384.0, None, "2.22 GB"),
    measured(3, 9, 754_049, 3.47, None, "1.5 MB"),
    measured(3, 10, 3_806_516, 25.3, None, "7.4 MB"),
    measured(4, 9, 266_676_851, 2637.0, Some(1694.0), "513 MB"),
    measured(2, 20, 23_315_392, 366.0, None, "249 MB"),
    measured(3, 13, 491_747_885, 6565.0, Some(4447.0), "5.25 GB"),
    measured(2, 21, 56_281_403, 516.0, Some(264.0), "108 MB"),
    measured(2, 22, 135_858_593, 1436.0, Some(907.0), "261 MB"),
    // The CPU and wall of the resumed run only (tiers 31 to 46).
    measured(2, 23, 327_974_924, 3392.0, Some(2489.0), "631 MB"),
    // The CPU and wall of the last run only (tiers 36 to 48).
    measured(2, 24, 791_761_115, 7224.0, Some(5194.0), "1.52 GB"),
];

/// The shapes of the `rows x cols` box (either way round), when a build of
/// it was measured.
#[must_use]
pub fn shapes_of(rows: usize, cols: usize) -> Option<u64> {
    let (rows, cols) = (rows.min(cols), rows.max(cols));
    MEASURED_DATABASES
        .iter()
        .find(|db| (db.rows, db.cols) == (rows, cols))
        .map(|db| db.shapes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RESULTS_MD: &str = include_str!("../../../docs/results.md");

    /// The cells of a markdown table row, trimmed.
    fn cells(line: &str) -> Vec<&str> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        inner.split('|').map(str::trim).collect()
    }

    /// The number a cell starts with, its thousands' commas dropped.
    fn number(text: &str) -> f64 {
        let digits: String = text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| *c != ',')
            .collect();
        digits.parse().unwrap()
    }

    /// The figures shown to users are the ones docs/results.md gives: every
    /// measured database, in its table's order.
    #[test]
    fn measured_databases_are_those_of_docs_results() {
        let table: Vec<Vec<&str>> = RESULTS_MD
            .lines()
            .skip_while(|l| !l.starts_with("| box | shapes | CPU (user) s"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(cells)
            .collect();
        assert_eq!(table.len(), MEASURED_DATABASES.len());
        for (row, db) in table.iter().zip(MEASURED_DATABASES) {
            assert_eq!(row[0], format!("{} x {}", db.rows, db.cols));
            assert_eq!(number(row[1]) as u64, db.shapes, "{row:?}");
            assert!((number(row[2]) - db.cpu_seconds).abs() < 1e-9, "{row:?}");
            let wall = row[3]
                .starts_with(|c: char| c.is_ascii_digit())
                .then(|| number(row[3]));
            assert_eq!(wall, db.wall_seconds, "{row:?}");
            assert_eq!(row[6], db.file_size, "{row:?}");
        }
    }

    /// A box built again since its row of the table has a record,
    /// `docs/data/boxes/AxB.json`: the size the list gives is its files'
    /// bytes, to the list's rounding.
    #[test]
    fn file_sizes_are_those_of_the_box_records() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/data/boxes");
        let mut checked = 0;
        for db in MEASURED_DATABASES {
            let record = dir.join(format!("{}x{}.json", db.rows, db.cols));
            let Ok(text) = std::fs::read_to_string(&record) else {
                continue;
            };
            let bytes: u64 = text
                .split("\"bytes\":")
                .skip(1)
                .map(|rest| {
                    let digits: String = rest
                        .trim_start()
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    digits.parse::<u64>().unwrap()
                })
                .sum();
            let (number, unit) = db.file_size.split_once(' ').unwrap();
            let scale = match unit {
                "KB" => 1e3,
                "MB" => 1e6,
                "GB" => 1e9,
                _ => panic!("{}", db.file_size),
            };
            let shown = number.parse::<f64>().unwrap() * scale;
            let error = (shown - bytes as f64).abs() / bytes as f64;
            assert!(
                error < 0.03,
                "{}: {} against {bytes} bytes",
                record.display(),
                db.file_size
            );
            checked += 1;
        }
        assert!(checked >= 10, "{checked}");
    }

    #[test]
    fn shapes_of_either_way_round() {
        assert_eq!(shapes_of(6, 5), Some(10_230_680));
        assert_eq!(shapes_of(5, 6), Some(10_230_680));
        assert_eq!(shapes_of(7, 7), None);
    }
}
