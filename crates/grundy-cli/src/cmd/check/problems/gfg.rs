//! `gfg`'s test cases: one 4 x 4 board.

use grundy_cli::judge::{self, JudgeError};
use rand::rngs::StdRng;
use rand::RngExt as _;

use super::*;

/// `gfg`: one 4 x 4 board.
#[derive(Clone, Debug)]
pub struct Gfg {
    cells: u16,
    layout: Layout,
}

impl Case for Gfg {
    const NAME: &'static str = "gfg";
    const WORDS: [&'static str; 2] = ["A", "B"];
    const TIME_LIMIT: f64 = 1.0;
    const EDGES: &'static [&'static str] = &["empty board", "full board", "one cell"];
    const ELEMENTS: &'static str =
        "keeping only part of its ones (halves, quarters and so on), clearing any one cell, or making the whitespace plainer";
    const HAS_LISTS: bool = false;
    /// One board, no tests.
    type Test = ();

    fn generate(rng: &mut StdRng, gen: &Gen) -> Gfg {
        let cells = match gen.edge {
            Some(0) => 0,
            Some(1) => u16::MAX,
            Some(_) => 1 << rng.random_range(0..16),
            None => {
                let density = rng.random_range(0.1..0.9);
                random_board(rng, density)
            }
        };
        Gfg {
            cells,
            layout: Layout::random(rng, gen.layouts),
        }
    }

    fn render(&self) -> Vec<u8> {
        let mut text = Text::new(self.layout);
        for row in 0..4 {
            for col in 0..4 {
                text.token(self.cells >> (4 * row + col) & 1);
            }
            text.newline();
        }
        text.finish()
    }

    fn edits(&self, _coarse: bool) -> Vec<Edit> {
        let mut edits: Vec<Edit> = board_cuts(self.cells)
            .into_iter()
            .map(|cells| Edit::Keep {
                test: 0,
                item: 0,
                cells,
            })
            .collect();
        edits.extend(self.layout.edits());
        edits
    }

    fn edit(&mut self, edit: &Edit) -> Option<()> {
        match *edit {
            Edit::Keep { cells, .. } => self.cells &= cells,
            _ => return None,
        }
        Some(())
    }

    fn tests_mut(&mut self) -> Option<&mut Vec<()>> {
        None
    }

    fn read(input: &[u8]) -> Option<Gfg> {
        let mut reader = Reader::new(input);
        let mut cells = 0;
        for bit in 0..16 {
            if reader.token()? == b"1" {
                cells |= 1 << bit;
            }
        }
        Some(Gfg {
            cells,
            layout: Layout::default(),
        })
    }

    fn size(&self) -> String {
        format!(
            "one 4 x 4 board, {} set",
            plural(self.cells.count_ones() as usize, "cell")
        )
    }

    fn judge(input: &[u8], out: &mut Vec<u8>) -> Result<(), JudgeError> {
        judge::gfg::run(input, out)
    }

    fn layout(&self) -> Layout {
        self.layout
    }

    fn layout_mut(&mut self) -> &mut Layout {
        &mut self.layout
    }
}
