//! Draws the pictures of `docs/results.md` from the data files of
//! `docs/data/`, as SVG:
//! - `full-boards.svg`: the value of every full `a x b` board of
//!   `full-boards.csv` as an `a x b` heatmap;
//! - `shapes-per-value.svg`: for each box of `boxes/*.json`, the share of
//!   its shapes with each value;
//! - `largest-by-tier.svg`: for each box, the largest value of each tier;
//! - `winning-moves.svg`: a few full boards with every winning move drawn
//!   (the rectangle to clear), found by the engine's top-down solver.
//!
//!
//! It also writes what a reader checks a rebuilt database against, from
//! the same files: `docs/data/SHA256SUMS` (for `sha256sum -c`) and the table
//! between the `checksums` markers of `docs/results.md` (box, rebuild
//! command, SHA-256).
//!
//! `cargo run --release -p grundy-plots -- docs/data` (or
//! `docs/data/generate.sh`) rewrites them. The output depends only on the
//! data files, so a re-run changes nothing unless they changed.
//!
//! Why plotters: a well-kept Rust plotting crate whose SVG backend needs no
//! system library or font (the SVG names a font family and the viewer draws
//! the text), so the pictures build with `cargo` alone, in CI too; a Python
//! script would need matplotlib, which this machine does not have.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use grundy::clear::{Board, Clear};
use plotters::prelude::*;
use serde::Deserialize;

/// The columns of `full-boards.csv` this tool reads.
#[derive(Debug, Deserialize)]
struct FullBoardRow {
    rows: usize,
    cols: usize,
    value: u32,
}

/// The part of a `boxes/AxB.json` this tool reads.
#[derive(Debug, Deserialize)]
struct BoxMeta {
    #[serde(rename = "box")]
    shape_box: BoxSize,
    shapes: u64,
    values: Vec<u64>,
    tiers: Vec<Tier>,
    files: Vec<FileMeta>,
    build: Option<Build>,
}

#[derive(Debug, Deserialize)]
struct FileMeta {
    name: String,
    bytes: u64,
    sha256: String,
}

#[derive(Debug, Deserialize)]
struct Build {
    command: String,
}

/// Boxes built before their metadata existed, whose files are not on this
/// machine, with their shapes (`docs/results.md`): the table lists their
/// rebuild command, and their SHA-256 once `docs/data/boxes/AxB.json`
/// exists.
const BUILT_ELSEWHERE: [(usize, usize, u64); 6] = [
    (4, 8, 26_452_916),
    (2, 20, 23_315_392),
    (6, 6, 205_515_653),
    (5, 7, 208_208_471),
    (4, 9, 266_676_851),
    (3, 13, 491_747_885),
];

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[derive(Debug, Deserialize)]
struct BoxSize {
    rows: usize,
    cols: usize,
}

#[derive(Debug, Deserialize)]
struct Tier {
    tier: usize,
    largest_value: u32,
}

const FONT: &str = "sans-serif";

fn main() -> anyhow::Result<()> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/data".into()),
    );
    let img = dir.join("img");
    std::fs::create_dir_all(&img).with_context(|| format!("creating {}", img.display()))?;
    let boards = read_full_boards(&dir.join("full-boards.csv"))?;
    let boxes = read_boxes(&dir.join("boxes"))?;
    heatmap(&boards, &img.join("full-boards.svg"))?;
    shapes_per_value(&boxes, &img.join("shapes-per-value.svg"))?;
    largest_by_tier(&boxes, &img.join("largest-by-tier.svg"))?;
    winning_moves(
        &[(3, 4), (4, 4), (3, 5), (4, 5)],
        &img.join("winning-moves.svg"),
    )?;
    println!("wrote 4 pictures to {}", img.display());
    let results = dir.join("../results.md");
    checksums(&boxes, &dir.join("SHA256SUMS"), &results)?;
    println!(
        "wrote {} and the checksum table of {}",
        dir.join("SHA256SUMS").display(),
        results.display()
    );
    Ok(())
}

fn read_full_boards(path: &Path) -> anyhow::Result<BTreeMap<(usize, usize), u32>> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let mut boards = BTreeMap::new();
    for (i, row) in reader.deserialize::<FullBoardRow>().enumerate() {
        let row = row.with_context(|| format!("{}: row {}", path.display(), i + 2))?;
        boards.insert((row.rows, row.cols), row.value);
    }
    Ok(boards)
}

/// The boxes, smallest first.
fn read_boxes(dir: &Path) -> anyhow::Result<Vec<BoxMeta>> {
    let mut boxes = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path)?;
            let meta: BoxMeta =
                serde_json::from_str(&text).with_context(|| format!("{}", path.display()))?;
            boxes.push(meta);
        }
    }
    boxes.sort_by_key(|b| (b.shapes, b.shape_box.rows));
    Ok(boxes)
}

fn name(b: &BoxMeta) -> String {
    format!("{} x {}", b.shape_box.rows, b.shape_box.cols)
}

/// Viridis from dark (0) to light (1).
fn shade(t: f64) -> RGBColor {
    // Five stops of matplotlib's viridis, interpolated linearly.
    const STOPS: [(u8, u8, u8); 5] = [
        (68, 1, 84),
        (59, 82, 139),
        (33, 145, 140),
        (94, 201, 98),
        (253, 231, 37),
    ];
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

fn heatmap(boards: &BTreeMap<(usize, usize), u32>, out: &Path) -> anyhow::Result<()> {
    let rows = boards.keys().map(|k| k.0).max().unwrap_or(1);
    let cols = boards.keys().map(|k| k.1).max().unwrap_or(1);
    let max = boards.values().copied().max().unwrap_or(1).max(1);
    let cell = 40i32;
    let (left, top) = (60i32, 70i32);
    let width = left + cell * cols as i32 + 20;
    let height = top + cell * rows as i32 + 40;
    let root = SVGBackend::new(out, (width as u32, height as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    root.draw(&Text::new(
        "Value of the full a x b board (a rows, b columns)",
        (left, 15),
        (FONT, 18).into_font(),
    ))?;
    let small = (FONT, 13).into_font();
    for b in 1..=cols {
        let x = left + cell * (b as i32 - 1);
        root.draw(&Text::new(
            format!("{b}"),
            (x + cell / 2 - 6, top - 20),
            small.clone(),
        ))?;
    }
    root.draw(&Text::new("b", (left - 20, top - 20), small.clone()))?;
    root.draw(&Text::new("a", (left - 40, top + 5), small.clone()))?;
    for a in 1..=rows {
        let y = top + cell * (a as i32 - 1);
        root.draw(&Text::new(
            format!("{a}"),
            (left - 20, y + cell / 2 - 7),
            small.clone(),
        ))?;
        for b in a..=cols {
            let Some(&value) = boards.get(&(a, b)) else {
                continue;
            };
            let x = left + cell * (b as i32 - 1);
            let t = f64::from(value) / f64::from(max);
            root.draw(&Rectangle::new(
                [(x, y), (x + cell - 1, y + cell - 1)],
                shade(t).filled(),
            ))?;
            let ink = if t > 0.6 { BLACK } else { WHITE };
            let label = format!("{value}");
            let dx = 7 * label.len() as i32 / 2;
            root.draw(&Text::new(
                label,
                (x + cell / 2 - dx, y + cell / 2 - 7),
                (FONT, 14).into_font().color(&ink),
            ))?;
        }
    }
    root.draw(&Text::new(
        format!(
            "Only a <= b is drawn (a x b and b x a are the same game). Colour: value, 0 to {max}."
        ),
        (left, top + cell * rows as i32 + 15),
        small,
    ))?;
    root.present()?;
    Ok(())
}

fn shapes_per_value(boxes: &[BoxMeta], out: &Path) -> anyhow::Result<()> {
    if boxes.is_empty() {
        bail!("no box metadata in docs/data/boxes");
    }
    let max_value = boxes.iter().map(|b| b.values.len()).max().unwrap_or(1);
    let max_share = boxes
        .iter()
        .flat_map(|b| b.values.iter().map(move |&c| c as f64 / b.shapes as f64))
        .fold(0.0f64, f64::max);
    let root = SVGBackend::new(out, (800, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Share of a box's shapes with each value",
            (FONT, 20).into_font(),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0u32..max_value as u32, 0.0..max_share * 100.0 * 1.05)?;
    chart
        .configure_mesh()
        .x_desc("value")
        .y_desc("shapes with the value (% of the box)")
        .label_style((FONT, 13).into_font())
        .draw()?;
    for (i, b) in boxes.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(u32, f64)> = b
            .values
            .iter()
            .enumerate()
            .map(|(v, &c)| (v as u32, c as f64 / b.shapes as f64 * 100.0))
            .collect();
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))?
            .label(format!("{} ({} shapes)", name(b), b.shapes))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font((FONT, 12).into_font())
        .draw()?;
    root.present()?;
    Ok(())
}

fn largest_by_tier(boxes: &[BoxMeta], out: &Path) -> anyhow::Result<()> {
    let max_tier = boxes
        .iter()
        .map(|b| b.tiers.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let max_value = boxes
        .iter()
        .flat_map(|b| b.tiers.iter().map(|t| t.largest_value))
        .max()
        .unwrap_or(1);
    let root = SVGBackend::new(out, (800, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Largest value among the shapes of each tier (k cells)",
            (FONT, 20).into_font(),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(1u32..max_tier as u32 + 1, 0u32..max_value + 2)?;
    chart
        .configure_mesh()
        .x_desc("tier k (cells of the shape)")
        .y_desc("largest value")
        .label_style((FONT, 13).into_font())
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            (1..=max_value + 1).map(|k| (k, k)),
            BLACK.mix(0.3).stroke_width(1),
        ))?
        .label("value = k")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.3)));
    for (i, b) in boxes.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(u32, u32)> = b
            .tiers
            .iter()
            .filter(|t| t.tier > 0)
            .map(|t| (t.tier as u32, t.largest_value))
            .collect();
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))?
            .label(name(b))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font((FONT, 12).into_font())
        .draw()?;
    root.present()?;
    Ok(())
}

/// Each board with its value and every winning move: one small board per
/// move, the rectangle to clear in red.
fn winning_moves(boards: &[(usize, usize)], out: &Path) -> anyhow::Result<()> {
    let mut solver = Clear::solver();
    let mut found = Vec::new();
    for &(rows, cols) in boards {
        let board = Board::new(rows, cols, (1u64 << (rows * cols)) - 1)?;
        let value = solver.value(&board)?;
        let moves: Vec<_> = solver
            .winning_moves(&board)?
            .into_iter()
            .map(|(mv, _)| mv)
            .collect();
        found.push((rows, cols, value, moves));
    }
    let cell = 14i32;
    let per_line = 10usize;
    let gap = 12i32;
    let widest = boards.iter().map(|b| b.1).max().unwrap_or(1) as i32;
    let width = 20 + per_line as i32 * (widest * cell + gap);
    let mut height = 40;
    for (rows, _, _, moves) in &found {
        let lines = moves.len().div_ceil(per_line).max(1) as i32;
        height += 28 + lines * (*rows as i32 * cell + gap);
    }
    let root = SVGBackend::new(out, (width as u32, height as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    root.draw(&Text::new(
        "Winning moves of full boards: clear the red rectangle to leave value 0",
        (20, 12),
        (FONT, 16).into_font(),
    ))?;
    let mut y = 40;
    for (rows, cols, value, moves) in &found {
        root.draw(&Text::new(
            format!(
                "{rows} x {cols}: value {value}, {} winning move{}",
                moves.len(),
                if moves.len() == 1 { "" } else { "s" }
            ),
            (20, y),
            (FONT, 14).into_font(),
        ))?;
        y += 22;
        for (i, mv) in moves.iter().enumerate() {
            let x0 = 20 + (i % per_line) as i32 * (widest * cell + gap);
            let y0 = y + (i / per_line) as i32 * (*rows as i32 * cell + gap);
            for r in 0..*rows {
                for c in 0..*cols {
                    let inside = (usize::from(mv.top)..=usize::from(mv.bottom)).contains(&r)
                        && (usize::from(mv.left)..=usize::from(mv.right)).contains(&c);
                    let fill = if inside {
                        RGBColor(214, 39, 40)
                    } else {
                        RGBColor(200, 200, 200)
                    };
                    let (x, yy) = (x0 + c as i32 * cell, y0 + r as i32 * cell);
                    root.draw(&Rectangle::new(
                        [(x, yy), (x + cell - 2, yy + cell - 2)],
                        fill.filled(),
                    ))?;
                }
            }
        }
        let lines = moves.len().div_ceil(per_line).max(1) as i32;
        y += lines * (*rows as i32 * cell + gap) + 6;
    }
    root.present()?;
    Ok(())
}

const BEGIN: &str = "<!-- BEGIN checksums: generated by docs/data/generate.sh, do not edit -->";
const END: &str = "<!-- END checksums -->";

/// `SHA256SUMS` and the table of `docs/results.md` between [`BEGIN`] and
/// [`END`]: per box, the command that rebuilds it and the SHA-256 to
/// compare with.
fn checksums(boxes: &[BoxMeta], sums: &Path, results: &Path) -> anyhow::Result<()> {
    let mut sum_lines = String::new();
    let mut table = String::from(
        "| box | shapes | rebuild command | bytes | SHA-256 of the file | metadata |\n\
         |---|---:|---|---:|---|---|\n",
    );
    let mut rows: Vec<(u64, String)> = Vec::new();
    for b in boxes {
        let (r, c) = (b.shape_box.rows, b.shape_box.cols);
        let command = b.build.as_ref().map_or_else(
            || format!("grundy tables build --box {r}x{c} --out clear-{r}x{c}.gdb"),
            |build| build.command.clone(),
        );
        for f in &b.files {
            sum_lines.push_str(&format!("{}  {}\n", f.sha256, f.name));
            rows.push((
                b.shapes,
                format!(
                    "| {r} x {c} | {} | `{command}` | {} | `{}` | [{r}x{c}.json](data/boxes/{r}x{c}.json) |\n",
                    thousands(b.shapes),
                    thousands(f.bytes),
                    f.sha256
                ),
            ));
        }
    }
    for (r, c, shapes) in BUILT_ELSEWHERE {
        if !boxes
            .iter()
            .any(|b| (b.shape_box.rows, b.shape_box.cols) == (r, c))
        {
            rows.push((
                shapes,
                format!(
                    "| {r} x {c} | {} | `grundy tables build --box {r}x{c} --out clear-{r}x{c}.gdb` | | not yet published: built before the metadata existed | |\n",
                    thousands(shapes)
                ),
            ));
        }
    }
    rows.sort_by_key(|row| row.0);
    for (_, row) in rows {
        table.push_str(&row);
    }
    std::fs::write(sums, sum_lines).with_context(|| format!("writing {}", sums.display()))?;
    let text = std::fs::read_to_string(results)
        .with_context(|| format!("reading {}", results.display()))?;
    let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        bail!("{}: no {BEGIN} ... {END} block", results.display());
    };
    let updated = format!("{}{BEGIN}\n{table}{}", &text[..start], &text[end..]);
    std::fs::write(results, updated).with_context(|| format!("writing {}", results.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(643), "643");
        assert_eq!(thousands(20_484), "20,484");
        assert_eq!(thousands(205_515_653), "205,515,653");
    }

    #[test]
    fn shades_run_from_viridis_dark_to_light() {
        assert_eq!(shade(0.0), RGBColor(68, 1, 84));
        assert_eq!(shade(1.0), RGBColor(253, 231, 37));
        assert_eq!(shade(0.5), RGBColor(33, 145, 140));
    }
}
