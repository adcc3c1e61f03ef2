//! `caos3`'s test cases: maps of open and wall cells.

use grundy_cli::judge::{self, JudgeError};
use rand::rngs::StdRng;
use rand::RngExt as _;

use super::*;

/// `caos3`: maps of open (`^`) and wall (`#`) cells.
#[derive(Clone, Debug)]
pub struct Caos3 {
    maps: Vec<Vec<Vec<bool>>>,
    layout: Layout,
}

impl Case for Caos3 {
    const NAME: &'static str = "caos3";
    const WORDS: [&'static str; 2] = ["Asuna", "Kirito"];
    const TIME_LIMIT: f64 = 1.0;
    const EDGES: &'static [&'static str] = &[
        "a 1 x 1 map",
        "all walls",
        "all open",
        "a single test of the largest side",
        "ten tests",
    ];
    const ELEMENTS: &'static str =
        "dropping any one test, row or column, closing any one open cell, \
         or making the whitespace plainer";
    type Test = Vec<Vec<bool>>;

    fn generate(rng: &mut StdRng, gen: &Gen) -> Caos3 {
        let side = gen.size.clamp(1, judge::caos3::MAX_SIDE);
        // The last case is the largest input the statement allows: every
        // test at the largest side, the first all open (the most
        // candidates), so that a solution is timed, and caught, there.
        let tests = match gen.edge {
            _ if gen.full => judge::caos3::MAX_TESTS,
            Some(0 | 3) => 1,
            Some(4) => judge::caos3::MAX_TESTS,
            _ => rng.random_range(1..=3),
        };
        let maps = (0..tests)
            .map(|t| {
                let (rows, cols) = match gen.edge {
                    _ if gen.full => (side, side),
                    Some(0) => (1, 1),
                    Some(3) => (side, side),
                    _ => (rng.random_range(1..=side), rng.random_range(1..=side)),
                };
                let open = match gen.edge {
                    _ if gen.full && t == 0 => 1.0,
                    _ if gen.full => [0.85, 0.95, 1.0][rng.random_range(0..3)],
                    Some(1) => 0.0,
                    Some(2) => 1.0,
                    _ => [0.7, 0.85, 0.95, 1.0][rng.random_range(0..4)],
                };
                (0..rows)
                    .map(|_| (0..cols).map(|_| rng.random_bool(open)).collect())
                    .collect()
            })
            .collect();
        Caos3 {
            maps,
            layout: Layout::random(rng, gen.layouts),
        }
    }

    fn render(&self) -> Vec<u8> {
        let mut text = Text::new(self.layout);
        text.line(&[&self.maps.len()]);
        for map in &self.maps {
            text.line(&[&map.len(), &map[0].len()]);
            for row in map {
                let row: String = row.iter().map(|&o| if o { '^' } else { '#' }).collect();
                text.line(&[&row]);
            }
        }
        text.finish()
    }

    fn edits(&self, coarse: bool) -> Vec<Edit> {
        let lists: Vec<(usize, List, usize)> = (self.maps.iter().enumerate())
            .flat_map(|(t, map)| [(t, List::Rows, map.len()), (t, List::Cols, map[0].len())])
            .collect();
        let mut edits = drops(self.maps.len(), &lists, coarse);
        if coarse {
            return edits;
        }
        for (t, map) in self.maps.iter().enumerate() {
            let cols = map[0].len();
            for (r, row) in map.iter().enumerate() {
                for (c, &open) in row.iter().enumerate() {
                    if open {
                        edits.push(Edit::Clear {
                            test: t,
                            cell: (r * cols + c) as u16,
                        });
                    }
                }
            }
        }
        edits.extend(self.layout.edits());
        edits
    }

    fn edit(&mut self, edit: &Edit) -> Option<()> {
        match edit {
            Edit::Drop { test, list, range } => {
                let map = &mut self.maps[*test];
                match list {
                    List::Rows if keeps_one(map.len(), range) => {
                        map.drain(range.clone());
                    }
                    List::Cols if keeps_one(map[0].len(), range) => {
                        for row in map.iter_mut() {
                            row.drain(range.clone());
                        }
                    }
                    _ => return None,
                }
            }
            &Edit::Clear { test, cell, .. } => {
                let map = &mut self.maps[test];
                let cols = map[0].len();
                map[usize::from(cell) / cols][usize::from(cell) % cols] = false;
            }
            _ => return None,
        }
        Some(())
    }

    fn tests_mut(&mut self) -> Option<&mut Vec<Vec<Vec<bool>>>> {
        Some(&mut self.maps)
    }

    fn read(input: &[u8]) -> Option<Caos3> {
        let mut reader = Reader::new(input);
        let maps = (0..reader.num()?)
            .map(|_| {
                let (rows, _cols) = (reader.num()?, reader.num()?);
                (0..rows)
                    .map(|_| Some(reader.token()?.iter().map(|&b| b == b'^').collect()))
                    .collect::<Option<_>>()
            })
            .collect::<Option<_>>()?;
        Some(Caos3 {
            maps,
            layout: Layout::default(),
        })
    }

    fn size(&self) -> String {
        let open: usize = self.maps.iter().flatten().flatten().filter(|&&o| o).count();
        let candidates: usize = self
            .maps
            .iter()
            .map(|map| judge::caos3::candidates(map).len())
            .sum();
        let shapes: Vec<String> = self
            .maps
            .iter()
            .map(|m| format!("{} x {}", m.len(), m[0].len()))
            .collect();
        format!(
            "{} ({}), {} open, {}",
            plural(self.maps.len(), "test"),
            shapes.join(", "),
            plural(open, "cell"),
            plural(candidates, "candidate")
        )
    }

    fn judge(input: &[u8], out: &mut Vec<u8>) -> Result<(), JudgeError> {
        judge::caos3::run(input, out)
    }

    fn layout(&self) -> Layout {
        self.layout
    }

    fn layout_mut(&mut self) -> &mut Layout {
        &mut self.layout
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng as _;

    /// The last case of a run is the largest input the statement allows:
    /// ten maps of the largest side, the first with every cell open.
    #[test]
    fn the_last_case_is_the_largest_the_statement_allows() {
        let side = judge::caos3::MAX_SIDE;
        for seed in 0..20 {
            let gen = Gen {
                size: side,
                max_coord: 0,
                edge: None,
                layouts: false,
                full: true,
            };
            let case = Caos3::generate(&mut StdRng::seed_from_u64(seed), &gen);
            assert_eq!(case.maps.len(), judge::caos3::MAX_TESTS);
            for map in &case.maps {
                assert_eq!((map.len(), map[0].len()), (side, side));
            }
            assert!(case.maps[0].iter().flatten().all(|&open| open));
        }
    }
}
