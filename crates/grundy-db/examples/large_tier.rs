//! Times the valuation of a sample of one large tier's shapes against the
//! earlier tiers of a built database, with those tiers held three ways:
//! the file's memory map (`mmap`), copies on the heap (`heap`), or as a
//! build holds them ([`TierBytes`]: copies
//! in anonymous memory advised to use transparent huge pages, `huge`), or
//! as a build holds the large tiers it has just solved (`lines`: each tier
//! a [`LineTier`], its keys regenerated tier by tier and its values read
//! from the database, which takes minutes on 6 x 6). A
//! build of a large box spends most of its time reading earlier tiers;
//! this isolates that cost. Mode `enumerate` times the shapes' options
//! alone (rectangles, flood fills, canonical forms and keys, no read of an
//! earlier tier) and counts them, so that `huge` less `enumerate` is what
//! the reads cost.
//!
//! ```sh
//! cargo run --release -p grundy-db --example large_tier -- clear-6x6.gdb 26 300000 heap huge enumerate
//! ```
//!
//! Prints µs a shape for each mode, and checks every value against the
//! database's own.

use std::path::PathBuf;
use std::time::Instant;

use grundy::clear::shapes::ClearShapes;
use grundy::clear::Board;
use grundy::tier::{
    generate_keys, solve_tier, CompactTier, Entry, LineTier, Tier, TierControl, TierGame,
    TierTable, TierValues,
};
use grundy_db::store::TierBytes;
use grundy_db::Database;
use rand::{RngExt as _, SeedableRng as _};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: large_tier DB CELLS SAMPLES MODE... (mmap, heap, huge, lines, enumerate)";
    let [_, db, cells, samples, modes @ ..] = &args[..] else {
        return Err(usage.into());
    };
    let db = Database::open(&PathBuf::from(db))?;
    let cells: usize = cells.parse()?;
    let samples: usize = samples.parse()?;
    let shape_box = db.header().shape_box;
    let tiers = db.compact_tiers().ok_or("not a compact database")?;
    let (rows, cols) = (shape_box.rows(), shape_box.cols());
    // Random connected shapes of `cells` cells in the box, grown a cell at
    // a time from a random one: not uniform, but every one a real shape.
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let mut keys = std::collections::BTreeSet::new();
    while keys.len() < samples {
        let mut shape = 1u64 << rng.random_range(0..rows * cols);
        while (shape.count_ones() as usize) < cells {
            let mut frontier = Vec::new();
            for at in 0..rows * cols {
                if shape >> at & 1 == 0 {
                    let (r, c) = (at / cols, at % cols);
                    let near = (r > 0 && shape >> (at - cols) & 1 == 1)
                        || (r + 1 < rows && shape >> (at + cols) & 1 == 1)
                        || (c > 0 && shape >> (at - 1) & 1 == 1)
                        || (c + 1 < cols && shape >> (at + 1) & 1 == 1);
                    if near {
                        frontier.push(at);
                    }
                }
            }
            shape |= 1 << frontier[rng.random_range(0..frontier.len())];
        }
        let board = Board::new(rows, cols, shape)?;
        keys.insert(
            shape_box
                .key_of_board(&board)
                .ok_or("a shape out of the box")?,
        );
    }
    let keys: Vec<u64> = keys.into_iter().collect();
    let game = ClearShapes::new(shape_box);
    let tier = Tier::at(cells - 1);
    for mode in modes {
        let started = Instant::now();
        let seconds = match mode.as_str() {
            "mmap" => time(&game, tier, &keys, tiers, &db)?,
            "heap" => {
                let copies: Vec<CompactTier<Vec<u8>>> = tiers[..cells - 1]
                    .iter()
                    .map(|t| CompactTier::from_bytes(t.bytes().to_vec()))
                    .collect::<Result<_, _>>()?;
                time(&game, tier, &keys, &copies, &db)?
            }
            "huge" => {
                let copies: Vec<CompactTier<TierBytes>> = tiers[..cells - 1]
                    .iter()
                    .map(|t| {
                        Ok::<_, Box<dyn std::error::Error>>(CompactTier::from_bytes(
                            TierBytes::new(t.bytes())?,
                        )?)
                    })
                    .collect::<Result<_, _>>()?;
                time(&game, tier, &keys, &copies, &db)?
            }
            "lines" => {
                let lines = lines_of(&game, tiers, cells - 1)?;
                time(&game, tier, &keys, &lines, &db)?
            }
            "enumerate" => {
                let started = Instant::now();
                let (mut options, mut lookups, mut sum) = (0u64, 0u64, 0u64);
                for &key in &keys {
                    game.for_each_option(key, |known, components| {
                        options += 1;
                        lookups += components.len() as u64;
                        // Used, so that nothing is optimised away.
                        sum = components
                            .iter()
                            .fold(sum ^ u64::from(known.value()), |s, &c| s ^ c);
                    });
                }
                let seconds = started.elapsed().as_secs_f64();
                println!(
                    "enumerate: {:.1} options and {:.1} components to look up a shape (checksum {sum:x})",
                    options as f64 / keys.len() as f64,
                    lookups as f64 / keys.len() as f64,
                );
                seconds
            }
            _ => return Err(usage.into()),
        };
        println!(
            "{mode}: {:.3} µs a shape ({} shapes of {cells} cells, {:.1} s in all)",
            seconds * 1e6 / keys.len() as f64,
            keys.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The first `count` tiers as a build holds the tiers it has just solved
/// ([`LineTier`] in huge pages): their keys regenerated tier by tier, as a
/// resumed build regenerates them, and their values read from `tiers`.
fn lines_of<B: AsRef<[u8]>>(
    game: &ClearShapes,
    tiers: &[CompactTier<B>],
    count: usize,
) -> Result<Vec<LineTier<TierBytes>>, Box<dyn std::error::Error>> {
    let control = TierControl::new();
    let mut parent: Option<TierTable> = None;
    let mut out = Vec::with_capacity(count);
    for (t, stored) in tiers[..count].iter().enumerate() {
        let keys = generate_keys(game, Tier::at(t), parent.as_ref(), &control)?;
        let mut table = TierTable::from_keys(keys)?;
        let values: Vec<u16> = table
            .slots()
            .iter()
            .map(|&s| match Entry::from_word(s) {
                None => Ok(0),
                Some(entry) => stored
                    .get(entry.key())
                    .map(|v| v.value() as u16)
                    .ok_or_else(|| format!("tier {}: a key the database lacks", t + 1)),
            })
            .collect::<Result<_, _>>()?;
        table.set_slot_values(0, &values)?;
        let lines = LineTier::build_until(&table, &|| false)?.with_bytes(TierBytes::new)?;
        eprintln!(
            "tier {}: {} shapes, {} in the second level, {:.2} bytes a shape",
            t + 1,
            table.positions(),
            lines.overflowed(),
            lines.len() as f64 / table.positions() as f64
        );
        out.push(lines);
        parent = Some(table);
    }
    Ok(out)
}

/// Seconds to value `keys` against `tiers`; every value checked.
fn time<V: TierValues>(
    game: &ClearShapes,
    tier: Tier,
    keys: &[u64],
    tiers: &[V],
    db: &Database,
) -> Result<f64, Box<dyn std::error::Error>> {
    let mut table = TierTable::from_keys(keys.to_vec())?;
    let earlier: Vec<Option<&V>> = tiers.iter().map(Some).collect();
    let started = Instant::now();
    solve_tier(game, tier, &mut table, &earlier, &TierControl::new())?;
    let seconds = started.elapsed().as_secs_f64();
    for (key, value) in table.iter() {
        if db.compact_tiers().and_then(|t| t[tier.index()].get(key)) != Some(value) {
            return Err(format!("shape {key:#x}: {value} here, not the database's").into());
        }
    }
    Ok(seconds)
}
