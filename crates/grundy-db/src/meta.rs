//! What a database holds, for people and scripts: its metadata (box,
//! shapes, largest value and histogram of values per tier, full boards,
//! file sizes and SHA-256) as one serialisable record, the build's own
//! record kept beside the file, and an export of every shape with its
//! value as CSV.
//!
//! **Metadata.** [`describe`] reads every slot of every tier once (the
//! histograms) and every byte of every file once (SHA-256, streamed in
//! 1 MiB blocks by the `sha2` crate): linear in the file, memory bounded by
//! the block and a histogram of at most 4,096 counts per tier. The record
//! depends only on the database's bytes and on its build record, so a
//! rebuild from the same command gives the same record but for the build's
//! measured time and memory.
//!
//! **Build record.** The format's header has no room for how a file was
//! made, and its bytes must stay a function of the box alone (a resumed or
//! repeated build writes the same bytes). So `grundy tables build` writes
//! `PATH.build.json` ([`build_record_path`]) beside the database when it
//! finishes: the command (with the output named by its file name only, so
//! it does not depend on the directory), threads, whether it resumed, and
//! the CPU time, wall time and peak memory of the run that finished it.
//! [`describe`] includes it when present.
//!
//! **Export.** [`export_csv`] writes one line per shape, tier by tier and
//! in each tier in slot order (the table's layout: a fixed order that
//! depends only on the set of keys). It streams: nothing but one line is
//! held, whatever the size of the database. See [`EXPORT_HEADER`] for the
//! columns and [`shape_rows`] for the key's decoding.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use grundy::tier::Tier;

use crate::{io, DbError, DbSet, Result};

/// Tag of the metadata record, so a reader knows what it holds.
pub const METADATA_FORMAT: &str = "grundy-box-metadata";
/// Version of the metadata record's layout.
pub const METADATA_VERSION: u32 = 1;

/// A database's metadata: what `grundy tables info --json` prints and
/// `docs/data/boxes/AxB.json` holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// [`METADATA_FORMAT`].
    pub format: String,
    /// [`METADATA_VERSION`].
    pub version: u32,
    /// The game (`clear`, rectangle clearing).
    pub game: String,
    /// The database file format version ([`crate::VERSION_SLOTS`] or [`crate::VERSION`]).
    pub database_format: u32,
    /// The box, short side first.
    #[serde(rename = "box")]
    pub shape_box: BoxSize,
    /// Shapes in the box.
    pub shapes: u64,
    /// The largest value of any shape.
    pub largest_value: u32,
    /// How many shapes have each value (index = value), over all tiers.
    pub values: Vec<u64>,
    /// Tier by tier, tier 1 first.
    pub tiers: Vec<TierMetadata>,
    /// Every full `rows x cols` board the box holds (`rows <= cols`).
    pub full_boards: Vec<FullBoard>,
    /// The database's files: one, or the parts of a partitioned build.
    pub files: Vec<FileMetadata>,
    /// How the database was built, when its build record is beside it.
    pub build: Option<BuildRecord>,
}

/// A box or a board size: `rows <= cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxSize {
    /// The short side.
    pub rows: usize,
    /// The long side.
    pub cols: usize,
}

/// One tier: the shapes of `tier` cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierMetadata {
    /// Cells of its shapes.
    pub tier: usize,
    /// Shapes in the tier.
    pub shapes: u64,
    /// The largest value in the tier (0 for an empty tier).
    pub largest_value: u32,
    /// How many shapes of the tier have each value (index = value, up to
    /// the largest).
    pub values: Vec<u64>,
}

/// The value of a full board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FullBoard {
    /// The short side.
    pub rows: usize,
    /// The long side.
    pub cols: usize,
    /// Its Sprague-Grundy value.
    pub value: u32,
}

/// One file of a database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileMetadata {
    /// Its file name (no directory, so the record does not depend on where
    /// the file lies).
    pub name: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// SHA-256 of its bytes, lower-case hex (as `sha256sum` prints it).
    pub sha256: String,
}

/// How a database was built: written by `grundy tables build` beside the
/// file as `PATH.build.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildRecord {
    /// The command, with the output named by its file name only.
    pub command: String,
    /// The grundy version that built it.
    pub grundy_version: String,
    /// The first tier this run solved: 1, or later when it resumed a
    /// stopped build (then the measurements cover only this run).
    pub first_tier: usize,
    /// What the run that finished the build measured; varies run to run.
    pub measured: Measured,
}

impl Eq for BuildRecord {}

/// A run's cost, from `/proc/self` at its end (`None` where unavailable).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// Worker threads.
    pub threads: usize,
    /// CPU time in user mode, seconds, over all threads.
    pub cpu_user_seconds: Option<f64>,
    /// CPU time in kernel mode, seconds, over all threads.
    pub cpu_system_seconds: Option<f64>,
    /// Wall time, seconds.
    pub wall_seconds: f64,
    /// Peak resident memory (`VmHWM`), bytes.
    pub peak_rss_bytes: Option<u64>,
}

/// The build record of the database at `path`: `PATH.build.json`.
#[must_use]
pub fn build_record_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".build.json");
    PathBuf::from(name)
}

/// Writes the build record of the database at `path`, atomically (a
/// temporary file renamed into place).
///
/// # Errors
///
/// I/O errors.
pub fn write_build_record(path: &Path, record: &BuildRecord) -> Result<()> {
    let target = build_record_path(path);
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut text = serde_json::to_string_pretty(record).expect("a record serialises");
    text.push('\n');
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, &target).map_err(io(&target))
}

/// Reads the build record of the database at `path`, `None` when there is
/// none. A `path` through symbolic links finds the record beside the file
/// they name, where a build through them wrote it.
///
/// # Errors
///
/// I/O errors other than a missing file; [`DbError::Corrupt`] for a record
/// that does not parse.
pub fn read_build_record(path: &Path) -> Result<Option<BuildRecord>> {
    let target =
        build_record_path(&std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()));
    let text = match std::fs::read_to_string(&target) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(&target)(e)),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| DbError::Corrupt {
            path: target,
            what: format!("build record: {e}"),
        })
}

/// CPU time (user, system) of this process so far, in seconds, from
/// `/proc/self/stat` (Linux; `None` elsewhere). Its clock ticks are
/// `USER_HZ`, which Linux fixes at 100 for user space on every
/// architecture; reading it needs no `unsafe` `sysconf` call.
#[must_use]
pub fn cpu_seconds() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) in parentheses.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 here.
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user / 100.0, system / 100.0))
}

/// Peak resident memory of this process (`VmHWM` of `/proc/self/status`),
/// bytes; `None` where unavailable.
#[must_use]
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// SHA-256 of a file, lower-case hex, read in 1 MiB blocks.
///
/// # Errors
///
/// I/O errors.
pub fn sha256_file(path: &Path) -> Result<String> {
    let mut file = File::open(path).map_err(io(path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(io(path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The metadata of an opened database (see the module doc). The build
/// record is read beside the path the set was opened with.
///
/// # Errors
///
/// I/O errors reading the files or the build record; a corrupt build
/// record.
pub fn describe(set: &DbSet) -> Result<Metadata> {
    let shape_box = set.shape_box();
    let mut tiers = Vec::with_capacity(shape_box.cells());
    let mut values: Vec<u64> = Vec::new();
    for tier in Tier::all(shape_box.cells()) {
        let histogram = set.value_counts(tier);
        if values.len() < histogram.len() {
            values.resize(histogram.len(), 0);
        }
        for (total, count) in values.iter_mut().zip(&histogram) {
            *total += count;
        }
        tiers.push(TierMetadata {
            tier: tier.number() as usize,
            shapes: set.positions(tier),
            largest_value: histogram.len().saturating_sub(1) as u32,
            values: histogram,
        });
    }
    let mut full_boards = Vec::new();
    for rows in 1..=shape_box.rows() {
        for cols in rows..=shape_box.cols() {
            if let Some(value) = set.full_board(rows, cols) {
                full_boards.push(FullBoard {
                    rows,
                    cols,
                    value: value.value(),
                });
            }
        }
    }
    let mut files = Vec::with_capacity(set.parts().len());
    for part in set.parts() {
        let path = part.path();
        files.push(FileMetadata {
            name: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            bytes: std::fs::metadata(path).map_err(io(path))?.len(),
            sha256: sha256_file(path)?,
        });
    }
    Ok(Metadata {
        format: METADATA_FORMAT.into(),
        version: METADATA_VERSION,
        game: "clear".into(),
        database_format: set.version(),
        shape_box: BoxSize {
            rows: shape_box.rows(),
            cols: shape_box.cols(),
        },
        shapes: tiers.iter().map(|t| t.shapes).sum(),
        largest_value: values.len().saturating_sub(1) as u32,
        values,
        tiers,
        full_boards,
        files,
        build: read_build_record(set.path())?,
    })
}

/// The columns of [`export_csv`]:
/// - `tier`: cells of the shape;
/// - `key`: the shape's key in the database (decimal);
/// - `value`: its Sprague-Grundy value;
/// - `height`, `width`: its bounding box, `height <= width` (the key's
///   image is the landscape one);
/// - `shape`: its rows, top to bottom, as `0`/`1` (1 = a cell), joined by
///   `/`, e.g. `110/011` (see [`shape_rows`]).
pub const EXPORT_HEADER: &str = "tier,key,value,height,width,shape";

/// The rows of 0/1 of a key's shape, joined by `/`, cut to its bounding
/// box, with its height and width.
///
/// **Decoding a key.** In an `R x C` box (`R <= C`), bit `r * C + c` of the
/// key is the cell in row `r`, column `c` (0-based) of the shape's canonical
/// image, which lies at the top-left corner (row 0 and column 0 each hold a
/// cell) and is landscape (no more rows than columns). The key depends on
/// the box's number of columns `C`: the same shape has other keys in boxes
/// of other widths.
#[must_use]
pub fn shape_rows(key: u64, box_cols: usize) -> (usize, usize, String) {
    let row_mask = (1u64 << box_cols) - 1;
    let rows: Vec<u64> = (0..64 / box_cols)
        .map(|r| (key >> (r * box_cols)) & row_mask)
        .collect();
    let height = rows.iter().rposition(|&r| r != 0).map_or(0, |r| r + 1);
    let width = rows
        .iter()
        .map(|&r| 64 - r.leading_zeros() as usize)
        .max()
        .unwrap_or(0);
    let mut text = String::with_capacity(height * (width + 1));
    for (i, &row) in rows[..height].iter().enumerate() {
        if i > 0 {
            text.push('/');
        }
        text.extend((0..width).map(|c| if row >> c & 1 == 1 { '1' } else { '0' }));
    }
    (height, width, text)
}

/// Writes every shape of the database with its value as CSV (header line
/// [`EXPORT_HEADER`]), tier by tier, by key within a tier; returns the shapes
/// written. Pass a buffered writer: one `write` per line.
///
/// # Errors
///
/// The writer's errors (a closed pipe among them).
pub fn export_csv(set: &DbSet, out: &mut impl Write) -> std::io::Result<u64> {
    let shape_box = set.shape_box();
    writeln!(out, "{EXPORT_HEADER}")?;
    let mut written = 0u64;
    set.for_each_tier(|tier, entries| {
        for &entry in entries {
            let (key, value) = (entry.key(), entry.value());
            let (height, width, shape) = shape_rows(key, shape_box.cols());
            writeln!(out, "{tier},{key},{value},{height},{width},{shape}")?;
            written += 1;
        }
        Ok::<(), std::io::Error>(())
    })?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::clear::shapes::ShapeBox;

    /// A key's rows of 0/1 read back to the key, and the full boards'
    /// keys (built by the engine's `full_key`) are rectangles of ones.
    #[test]
    fn shape_rows_decode_keys() {
        // In a 2 x 3 box: the L tromino `11/10` is bits 0, 1 and 3.
        assert_eq!(shape_rows(0b1011, 3), (2, 2, "11/10".into()));
        assert_eq!(shape_rows(0b010_111, 3), (2, 3, "111/010".into()));
        for (rows, cols) in [(5, 5), (2, 20), (3, 13), (4, 9)] {
            let shape_box = ShapeBox::new(rows, cols).unwrap();
            for a in 1..=rows {
                for b in a..=cols {
                    let key = shape_box.full_key(a, b).unwrap();
                    let (h, w, text) = shape_rows(key, cols);
                    assert_eq!((h, w), (a, b));
                    assert_eq!(text, vec!["1".repeat(b); a].join("/"));
                }
            }
        }
    }

    #[test]
    fn build_records_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("clear-2x2.gdb");
        assert_eq!(read_build_record(&db).unwrap(), None);
        let record = BuildRecord {
            command: "grundy tables build --box 2x2 --out clear-2x2.gdb".into(),
            grundy_version: "0.1.0".into(),
            first_tier: 1,
            measured: Measured {
                threads: 2,
                cpu_user_seconds: Some(0.01),
                cpu_system_seconds: None,
                wall_seconds: 0.5,
                peak_rss_bytes: Some(1 << 20),
            },
        };
        write_build_record(&db, &record).unwrap();
        assert_eq!(read_build_record(&db).unwrap(), Some(record));
        assert!(build_record_path(&db).ends_with("clear-2x2.gdb.build.json"));
    }

    /// `/proc/self` is read: the CPU clock moves with work done.
    #[cfg(target_os = "linux")]
    #[test]
    fn cpu_and_memory_are_read() {
        let (before, _) = cpu_seconds().unwrap();
        let started = std::time::Instant::now();
        let mut x = 1u64;
        while started.elapsed().as_millis() < 300 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        }
        std::hint::black_box(x);
        let (after, system) = cpu_seconds().unwrap();
        assert!(after > before && system >= 0.0, "{before} {after}");
        assert!(peak_rss().is_some_and(|b| b > 0));
    }
}
