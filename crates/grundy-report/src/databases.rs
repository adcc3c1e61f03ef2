//! The shape databases whose builds `docs/results.md` measured (its table
//! "The databases built"), as the command line and the web page quote them:
//! the page suggests the smallest that holds a board, and `grundy tables
//! build` sizes its progress bar and its disk check by their shape counts;
//! [`TablesHint`] names the database that would answer a position, for the
//! page's answer and the command line's note alike. One list for both;
//! tests check it and the full boards' values against `docs/results.md`.

use grundy::clear::shapes::ShapeBox;
use grundy::clear::Board;
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
    measured(2, 8, 643, 0.00, Some(0.01), "66 KB"),
    measured(3, 8, 149_413, 0.34, Some(0.23), "365 KB"),
    measured(4, 6, 256_985, 0.54, Some(0.33), "569 KB"),
    measured(5, 5, 262_292, 0.58, Some(0.35), "582 KB"),
    measured(4, 7, 2_618_529, 7.58, Some(4.17), "5.1 MB"),
    measured(5, 6, 10_230_680, 35.1, Some(18.1), "19.8 MB"),
    measured(4, 8, 26_452_916, 269.5, Some(1342.0), "283 MB"),
    measured(6, 6, 205_515_653, 2490.0, Some(1792.0), "395 MB"),
    measured(5, 7, 208_208_471, 2384.0, None, "2.22 GB"),
    measured(3, 9, 754_049, 2.18, Some(1.19), "1.5 MB"),
    measured(3, 10, 3_806_516, 14.5, Some(7.66), "7.4 MB"),
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

/// A shape database never built whose cost `docs/results.md` (its table of
/// the boxes that fit this machine) or `docs/distributed.md` (its
/// estimates for a cluster) estimates; a test checks the figures against
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EstimatedDatabase {
    /// The short side of the box.
    pub rows: usize,
    /// The long side of the box.
    pub cols: usize,
    /// The CPU it would take, as estimated.
    pub cpu: &'static str,
    /// The file's size, as estimated.
    pub file_size: &'static str,
    /// The memory it would take, as estimated.
    pub memory: &'static str,
    /// Where the estimate is.
    pub source: &'static str,
}

const DISTRIBUTED: &str = "docs/distributed.md";

/// The estimated boxes, cheapest first.
pub const ESTIMATED_DATABASES: &[EstimatedDatabase] = &[
    EstimatedDatabase {
        rows: 3,
        cols: 14,
        cpu: "8 to 9 core-hours",
        file_size: "4.8 GB",
        memory: "13 GB",
        source: RESULTS,
    },
    EstimatedDatabase {
        rows: 4,
        cols: 10,
        cpu: "8 to 10 core-hours",
        file_size: "5.2 GB",
        memory: "14 GB",
        source: RESULTS,
    },
    EstimatedDatabase {
        rows: 5,
        cols: 8,
        cpu: "13 to 15 core-hours",
        file_size: "8.1 GB",
        memory: "22 GB",
        source: RESULTS,
    },
    EstimatedDatabase {
        rows: 6,
        cols: 7,
        cpu: "~63 core-hours",
        file_size: "~29 GB",
        memory: "~160 GB of replicas a rank, on nodes of 256 GB",
        source: DISTRIBUTED,
    },
    EstimatedDatabase {
        rows: 7,
        cols: 7,
        cpu: "~8,400 core-hours",
        file_size: "~1.1 TB",
        memory: "64 nodes of 256 GB",
        source: DISTRIBUTED,
    },
];

/// Boxes every server and CLI already has (the 4 x 5 and 2 x 8 tables,
/// the embedded 5 x 5 database): a component fitting one needs no database.
const BUILT_IN: &[(usize, usize)] = &[(4, 5), (2, 8), (5, 5)];

/// The values of full boards (every cell 1) that `docs/results.md` gives in
/// its table "Full boards", short side first (a test checks them against
/// it).
pub const FULL_BOARD_VALUES: &[(usize, usize, u32)] = &[
    (3, 7, 8),
    (3, 8, 15),
    (3, 9, 27),
    (4, 6, 24),
    (4, 7, 19),
    (4, 8, 5),
    (4, 9, 10),
    (5, 5, 8),
    (5, 6, 23),
    (5, 7, 28),
    (6, 6, 8),
];

/// The value `docs/results.md` gives for a full board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KnownValue {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Its value.
    pub grundy: u32,
    /// Where the number comes from.
    pub source: &'static str,
}

/// What would answer a position the budget could not: the box of a shape
/// database holding every component, and the value when it is a full board
/// `docs/results.md` gives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TablesHint {
    /// The smallest box (`[rows, cols]`, short side first) holding every
    /// component of every board that no built-in table holds (the 4 x 5,
    /// 2 x 8 and 5 x 5 boxes), whatever its orientation; `[0, 0]` when there
    /// is none.
    pub needed: [usize; 2],
    /// The box whose database would answer: the measured one of least build
    /// time holding `needed`, else the estimated one of least CPU holding
    /// it, else `needed` itself when a database of it can be built, else
    /// `null` (no database holds components this large).
    #[serde(rename = "box")]
    pub shape_box: Option<[usize; 2]>,
    /// Its build as measured in `docs/results.md`, or `null` when it was
    /// never built there.
    pub measured: Option<MeasuredDatabase>,
    /// When it was never built: its cost as estimated in `docs/results.md`
    /// or `docs/distributed.md`, or `null` when neither estimates it.
    pub estimated: Option<EstimatedDatabase>,
    /// The value of this full board, from `docs/results.md`.
    pub known_value: Option<KnownValue>,
    /// Where the figures come from.
    pub source: &'static str,
}

const RESULTS: &str = "docs/results.md";

impl TablesHint {
    /// What would answer the sum `boards`.
    #[must_use]
    pub fn of(boards: &[Board]) -> TablesHint {
        // Each component is read from the first table holding it: only the
        // components no built-in table holds need the database.
        let mut needed = [0, 0];
        for board in boards {
            for cells in board.components() {
                let part = board.crop(cells);
                let (a, b) = short_long(part.rows(), part.cols());
                if !BUILT_IN.iter().any(|&(rows, cols)| a <= rows && b <= cols) {
                    needed = [needed[0].max(a), needed[1].max(b)];
                }
            }
        }
        let holds = |rows: usize, cols: usize| needed[0] <= rows && needed[1] <= cols;
        let built_in = needed == [0, 0];
        let measured = MEASURED_DATABASES
            .iter()
            .filter(|db| !BUILT_IN.contains(&(db.rows, db.cols)) && holds(db.rows, db.cols))
            .min_by(|x, y| x.cpu_seconds.total_cmp(&y.cpu_seconds))
            .copied();
        let estimated = ESTIMATED_DATABASES
            .iter()
            .find(|db| holds(db.rows, db.cols))
            .copied();
        let shape_box = if built_in {
            None
        } else if let Some(db) = measured {
            Some([db.rows, db.cols])
        } else if let Some(db) = estimated {
            Some([db.rows, db.cols])
        } else {
            ShapeBox::new(needed[0], needed[1])
                .ok()
                .map(|b| [b.rows(), b.cols()])
        };
        let known_value = match boards {
            [board] if board.cells().count() as usize == board.rows() * board.cols() => {
                let (a, b) = short_long(board.rows(), board.cols());
                FULL_BOARD_VALUES
                    .iter()
                    .find(|&&(rows, cols, _)| (rows, cols) == (a, b))
                    .map(|&(_, _, grundy)| KnownValue {
                        rows: board.rows(),
                        cols: board.cols(),
                        grundy,
                        source: RESULTS,
                    })
            }
            _ => None,
        };
        TablesHint {
            needed,
            shape_box,
            measured: if built_in { None } else { measured },
            estimated: if built_in || measured.is_some() {
                None
            } else {
                estimated
            },
            known_value,
            source: RESULTS,
        }
    }

    /// The hint in words, for the command line: which database would
    /// answer, what it costs to build, and how to use it; `None` when no
    /// database would help.
    #[must_use]
    pub fn sentence(&self) -> Option<String> {
        let [rows, cols] = self.shape_box?;
        let known = self.known_value.map_or(String::new(), |k| {
            format!(
                "; {RESULTS} gives the full {} x {} board the value {}",
                k.rows, k.cols, k.grundy
            )
        });
        if self.measured.is_none() {
            // Not "would answer at once": a box never built is days of CPU
            // or a cluster's, or more than anyone has estimated.
            let cost = self.estimated.map_or_else(
                || format!(" or estimated (no box that large is in {RESULTS})"),
                |db| {
                    format!(
                        ": {} estimates {} of CPU, a file of {} and {} of memory",
                        db.source, db.cpu, db.file_size, db.memory
                    )
                },
            );
            return Some(format!(
                "a {rows} x {cols} shape database would answer, but none has been built{cost}{known}"
            ));
        }
        let file = format!("clear-{rows}x{cols}.gdb");
        let cost = self.measured.map_or_else(String::new, |db| {
            let wall = db
                .wall_seconds
                .map_or(String::new(), |w| format!(", {} on 2 cores", seconds(w)));
            format!(
                " ({} of CPU{wall}, {}, as measured in {RESULTS})",
                seconds(db.cpu_seconds),
                db.file_size
            )
        });
        Some(format!(
            "the {rows} x {cols} shape database would answer at once: build it with \
             `grundy tables build --box {rows}x{cols} --out {file}`{cost}, then add \
             `--tables {file}`{known}"
        ))
    }
}

fn short_long(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// Seconds for people: "0.7 s", "84 s", "30 min", "1.8 h".
#[must_use]
pub fn seconds(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.1} s")
    } else if s < 600.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
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

    /// The full-board values shown are the table "Full boards" of
    /// docs/results.md: all of its boards over 20 cells (the server answers
    /// the smaller ones itself).
    #[test]
    fn full_board_values_are_those_of_docs_results() {
        let mut found = Vec::new();
        for line in RESULTS_MD
            .lines()
            .skip_while(|l| !l.starts_with("| a \\ b |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
        {
            let row = cells(line);
            let a: usize = row[0].parse().unwrap();
            for (i, value) in row[1..].iter().enumerate() {
                let b = i + 1;
                let value = value.trim_matches('*');
                if !value.is_empty() && a * b > 20 {
                    found.push((a, b, value.parse::<u32>().unwrap()));
                }
            }
        }
        found.sort_unstable();
        assert_eq!(found, FULL_BOARD_VALUES);
    }

    fn full(rows: usize, cols: usize) -> Board {
        Board::new(
            rows,
            cols,
            grundy::clear::Bitboard::below((rows * cols) as u32).0,
        )
        .unwrap()
    }

    /// The estimates quoted are those of the documents they cite: a row
    /// of docs/results.md's table of the boxes that fit this machine, or
    /// the columns of docs/distributed.md's estimates.
    #[test]
    fn the_estimates_are_the_documents() {
        const DISTRIBUTED_MD: &str = include_str!("../../../docs/distributed.md");
        for db in ESTIMATED_DATABASES {
            if db.source == RESULTS {
                let row = RESULTS_MD
                    .lines()
                    .find(|l| l.starts_with(&format!("| {} x {} |", db.rows, db.cols)))
                    .unwrap_or_else(|| panic!("no row of {} x {}", db.rows, db.cols));
                let cells = cells(row);
                assert_eq!(
                    (cells[2], cells[3], cells[4]),
                    (db.memory, db.file_size, db.cpu),
                    "{row}"
                );
            } else {
                assert_eq!(db.source, DISTRIBUTED);
                let column = [(6, 7), (7, 7)]
                    .iter()
                    .position(|&b| b == (db.rows, db.cols))
                    .expect("a box of the estimates")
                    + 1;
                let value = |label: &str| {
                    let row = DISTRIBUTED_MD
                        .lines()
                        .find(|l| l.starts_with(label))
                        .unwrap_or_else(|| panic!("no row {label}"));
                    cells(row)[column].to_owned()
                };
                assert_eq!(value("| merged compact file"), db.file_size);
                let cpu = [
                    "| core-hours, all tiers replicated",
                    "| core-hours, queried",
                ]
                .map(value)
                .into_iter()
                .find(|v| v != "—")
                .unwrap();
                assert_eq!(format!("{cpu} core-hours"), db.cpu);
            }
        }
    }

    #[test]
    fn the_hint_names_the_cheapest_database_holding_every_component() {
        let hint = TablesHint::of(&[full(6, 6)]);
        assert_eq!(hint.needed, [6, 6]);
        assert_eq!(hint.shape_box, Some([6, 6]));
        assert_eq!(hint.measured.unwrap().file_size, "395 MB");
        assert_eq!(hint.known_value.unwrap().grundy, 8);
        let text = hint.sentence().unwrap();
        assert!(
            text.contains("grundy tables build --box 6x6 --out clear-6x6.gdb"),
            "{text}"
        );
        assert!(text.contains("--tables clear-6x6.gdb"), "{text}");
        // A 3 x 8 board and a 4 x 6 one: the 4 x 8 box holds both (the
        // 4 x 6 box is cheaper but too short for the 3 x 8).
        let hint = TablesHint::of(&[full(8, 3), full(4, 6)]);
        assert_eq!(hint.needed, [4, 8]);
        assert_eq!(hint.shape_box, Some([4, 8]));
        assert_eq!(hint.known_value, None);
        // A 3 x 9 board (27 in docs/results.md): the 3 x 9 database.
        let hint = TablesHint::of(&[full(3, 9)]);
        assert_eq!(hint.shape_box, Some([3, 9]));
        assert_eq!(hint.known_value.unwrap().grundy, 27);
        // Components the built-in tables hold need no database.
        let hint = TablesHint::of(&[full(5, 5), full(2, 8)]);
        assert_eq!(hint.shape_box, None);
        assert_eq!(hint.sentence(), None);
        // 7 x 7 and 6 x 7: boxes never built, with the estimates of
        // docs/distributed.md and no build command; 6 x 8: nor estimated;
        // 8 x 8: no database.
        let hint = TablesHint::of(&[full(7, 7)]);
        assert_eq!((hint.shape_box, hint.measured), (Some([7, 7]), None));
        let text = hint.sentence().unwrap();
        assert!(
            text.starts_with("a 7 x 7 shape database would answer, but none has been built: docs/distributed.md estimates ~8,400 core-hours of CPU, a file of ~1.1 TB"),
            "{text}"
        );
        assert!(!text.contains("tables build"), "{text}");
        let hint = TablesHint::of(&[full(6, 7)]);
        assert_eq!(hint.estimated.unwrap().cpu, "~63 core-hours");
        // A 5 x 8 board: the estimate of docs/results.md.
        let hint = TablesHint::of(&[full(5, 8)]);
        assert_eq!(hint.shape_box, Some([5, 8]));
        assert!(hint.sentence().unwrap().contains("13 to 15 core-hours"));
        let hint = TablesHint::of(&[full(6, 8)]);
        assert_eq!((hint.shape_box, hint.estimated), (Some([6, 8]), None));
        assert!(hint.sentence().unwrap().contains(
            "but none has been built or estimated (no box that large is in docs/results.md)"
        ));
        assert_eq!(TablesHint::of(&[full(8, 8)]).shape_box, None);
    }
}
