//! A database as one file or as the parts of a partitioned build, and
//! lookups that go to the part that owns a key.

use std::path::{Path, PathBuf};

use grundy::clear::shapes::{ShapeBox, ShapeLookup};
use grundy::clear::ShapeKey;
use grundy::tier::{owner, CompactTier, Entry, Tier, TierTable};
use grundy::Nimber;

use crate::database::*;
use crate::error::*;
use crate::format::*;
use crate::header::*;

/// The file of part `index` of `parts` of a build asked to write `path`:
/// `STEM.part-R-of-P.EXT` beside it (`EXT` is `gdb` when `path` has none).
#[must_use]
pub fn part_path(path: &Path, index: u32, parts: u32) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "clear".into(), |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(|| "gdb".into(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.part-{index}-of-{parts}.{ext}"))
}

/// The path a build was asked to write, from the name of one of its parts
/// (`STEM.part-R-of-P.EXT` gives `STEM.EXT`), or `None` for another name.
pub(crate) fn whole_path(part: &Path) -> Option<PathBuf> {
    let name = part.file_name()?.to_str()?;
    let (stem, rest) = name.rsplit_once(".part-")?;
    let (_, ext) = rest.split_once('.')?;
    Some(part.with_file_name(format!("{stem}.{ext}")))
}

/// Which part (index, parts) of a build asked to write `path` the file
/// `file` is named as: the name [`part_path`] gives for `path`, so a name
/// without an extension finds the `.gdb` parts its build wrote.
fn part_name_of(file: &Path, path: &Path) -> Option<(u32, u32)> {
    let name = file.file_name()?.to_str()?;
    let (_, rest) = name.rsplit_once(".part-")?;
    let (numbers, _) = rest.split_once('.')?;
    let (index, parts) = numbers.split_once("-of-")?;
    let (index, parts) = (index.parse().ok()?, parts.parse().ok()?);
    let expected = part_path(path, index, parts);
    (expected.file_name()? == file.file_name()?).then_some((index, parts))
}

/// The partial files beside `path` of builds of it over another number of
/// parts than `parts`, by name: `PATH.partial` of a build of one part, and
/// `STEM.part-R-of-Q.EXT.partial` for `Q` other than `parts`. A build over
/// `parts` cannot resume from them.
#[must_use]
pub fn other_partials(path: &Path, parts: u32) -> Vec<PathBuf> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        // Named as `path` is (`x.gdb.partial`, not `./x.gdb.partial`).
        .filter_map(|e| e.ok().map(|e| path.with_file_name(e.file_name())))
        .filter(|p| {
            let Some(done) = p
                .to_str()
                .and_then(|n| n.strip_suffix(".partial"))
                .map(Path::new)
            else {
                return false;
            };
            if done.file_name() == path.file_name() {
                return parts > 1;
            }
            part_name_of(done, path).is_some_and(|(_, q)| q != parts && q > 1)
        })
        .collect();
    found.sort();
    found
}

/// A database as one whole file, or as every part of a partitioned build:
/// lookups go to the part that owns the key.
#[derive(Debug)]
pub struct DbSet {
    pub(crate) path: PathBuf,
    /// Part `i` at index `i`; one database for a whole file.
    pub(crate) parts: Vec<Database>,
}

impl DbSet {
    /// Opens a whole database, or every part of a partitioned one given
    /// one of its parts or the path its build was asked to write (when that
    /// file does not exist but `STEM.part-0-of-P.EXT` does). Every part is
    /// checked as [`Database::open`] checks a file, and the parts must be
    /// of one build: the same box, number of parts and build id.
    ///
    /// # Errors
    ///
    /// The errors of [`Database::open`]; [`DbError::Parts`] for a missing
    /// part or parts that do not belong together.
    pub fn open(path: &Path) -> Result<DbSet> {
        if !path.exists() {
            if let Some(first) = find_first_part(path)? {
                let mut set = DbSet::open(&first)?;
                set.path = path.to_owned();
                return Ok(set);
            }
            // A build of it that has not finished is named as such (which
            // tiers it keeps, and how to resume), not as a missing file.
            if let Some(partial) = other_partials(path, u32::MAX).first() {
                Database::open(partial)?;
            }
        }
        let db = Database::open(path)?;
        let Some(part) = db.header().part else {
            return Ok(DbSet {
                path: path.to_owned(),
                parts: vec![db],
            });
        };
        let parts_err = |what: String| DbError::Parts {
            path: path.to_owned(),
            what,
        };
        let whole = whole_path(path).ok_or_else(|| {
            parts_err(format!(
                "part {} of {} of a partitioned database, but not named STEM.part-R-of-P.gdb, so its other parts cannot be found",
                part.index, part.parts
            ))
        })?;
        // The file named must be the part its header says, before its
        // header's count of parts is trusted to find the others: a part of
        // a 2-part build copied to `X.part-0-of-3.gdb` would otherwise be
        // reported as missing `X.part-1-of-2.gdb`.
        if let Some((index, parts)) = part_name_of(path, &whole) {
            if (index, parts) != (part.index, part.parts) {
                return Err(parts_err(format!(
                    "it holds part {} of {} (its header says so), not part {index} of {parts} as its name says: renamed, swapped with another part, or copied from another build?",
                    part.index, part.parts
                )));
            }
        }
        let mut parts = Vec::with_capacity(part.parts as usize);
        let mut db = Some(db);
        for index in 0..part.parts {
            let other = if index == part.index {
                db.take().expect("opened once")
            } else {
                let file = part_path(&whole, index, part.parts);
                if !file.exists() {
                    return Err(parts_err(format!(
                        "part {index} of {} is missing ({})",
                        part.parts,
                        file.display()
                    )));
                }
                Database::open(&file)?
            };
            let header = other.header();
            let expected = Part { index, ..part };
            // A file whose header names another part than its name does
            // (renamed, or two parts swapped) is named as such, not as a
            // stranger to the build.
            if let Some(found) = header.part {
                if (found.index, found.parts) != (index, part.parts) {
                    let file = if other.path() == path {
                        "it".to_owned()
                    } else {
                        other.path().display().to_string()
                    };
                    return Err(parts_err(format!(
                        "{file} holds part {} of {} (its header says so), not part {index} of {} as its name says: renamed, swapped with another part, or copied from another build?",
                        found.index,
                        found.parts,
                        part.parts
                    )));
                }
            }
            if header.shape_box != parts_first_box(&parts, header.shape_box)
                || header.part != Some(expected)
                || parts
                    .first()
                    .is_some_and(|p: &Database| p.header().version != header.version)
            {
                return Err(parts_err(format!(
                    "{} is not part {index} of the same build as {} (box, number of parts or build id differ)",
                    other.path().display(),
                    path.display()
                )));
            }
            parts.push(other);
        }
        Ok(DbSet { path: whole, parts })
    }

    /// A set of one whole database.
    #[must_use]
    pub fn whole(db: Database) -> DbSet {
        DbSet {
            path: db.path().to_owned(),
            parts: vec![db],
        }
    }

    /// The path: the file, or the path the partitioned build wrote.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The databases: one whole, or every part in order.
    #[must_use]
    pub fn parts(&self) -> &[Database] {
        &self.parts
    }

    /// The box.
    #[must_use]
    pub fn shape_box(&self) -> ShapeBox {
        self.parts[0].header().shape_box
    }

    /// The tables of `tier`, one per part, of a version-1 database (none
    /// for a compact one: see [`DbSet::for_each_tier`]).
    pub fn tier(&self, tier: Tier) -> impl Iterator<Item = &TierTable<Slots>> + '_ {
        self.parts
            .iter()
            .filter_map(move |p| p.tables().and_then(|t| t.tiers().get(tier.index())))
    }

    /// The format version of the parts (all the same, as opening checked).
    #[must_use]
    pub fn version(&self) -> u32 {
        self.parts[0].header().version
    }

    /// Shapes in every tier, over all parts.
    #[must_use]
    pub fn shapes(&self) -> u64 {
        Tier::all(self.shape_box().cells())
            .map(|tier| self.positions(tier))
            .sum()
    }

    /// Shapes in `tier`, over all parts.
    #[must_use]
    pub fn positions(&self, tier: Tier) -> u64 {
        self.parts
            .iter()
            .filter_map(|p| p.header().tiers.get(tier.index()))
            .map(|t| t.positions)
            .sum()
    }

    /// The value of a shape by its key; `None` when the key is not that of
    /// a shape of the box (cells outside the box, several components, or
    /// not the canonical orientation). Checking first is what keeps a
    /// compact database, which stores no keys, from answering for a key it
    /// does not hold: every connected shape that fits the box is in it by
    /// construction (the census of `grundy tables verify` checks it).
    #[must_use]
    pub fn get(&self, key: u64) -> Option<Nimber> {
        let shape_box = self.shape_box();
        if shape_box.key_of_board(&shape_box.board(key)?) != Some(key) {
            return None;
        }
        self.value_of_key(key)
    }

    /// The value of a key known to be a shape of the box.
    pub(crate) fn value_of_key(&self, key: u64) -> Option<Nimber> {
        let part = owner(key, self.parts.len() as u32) as usize;
        self.parts[part].value_of_key(key)
    }

    /// How many shapes of `tier` have each value (the index),
    /// over all parts, trailing zeros trimmed. Read from the values alone,
    /// in either version: a compact tier's entries are counted without
    /// regenerating a key ([`CompactTier::value_counts`](grundy::tier::CompactTier::value_counts)).
    #[must_use]
    pub fn value_counts(&self, tier: Tier) -> Vec<u64> {
        let mut counts: Vec<u64> = Vec::new();
        let mut add = |value: usize, n: u64| {
            if counts.len() <= value {
                counts.resize(value + 1, 0);
            }
            counts[value] += n;
        };
        for part in &self.parts {
            match &part.store {
                Store::Slots(tables) => {
                    if let Some(table) = tables.tiers().get(tier.index()) {
                        for (_, value) in table.iter() {
                            add(value.value() as usize, 1);
                        }
                    }
                }
                Store::Compact(tiers) => {
                    if let Some(compact) = tiers.get(tier.index()) {
                        for (value, &n) in compact.value_counts().iter().enumerate() {
                            add(value, n);
                        }
                    }
                }
            }
        }
        let used = counts.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
        counts.truncate(used);
        counts
    }

    /// The value of the full `rows x cols` board, when the box holds it.
    #[must_use]
    pub fn full_board(&self, rows: usize, cols: usize) -> Option<Nimber> {
        self.value_of_key(self.shape_box().full_key(rows, cols)?)
    }

    /// Calls `f(tier, entries)` for every tier in order, with the tier's
    /// entries over all parts, sorted by key.
    /// A compact (version 2) database holds no keys: they are regenerated
    /// tier by tier, as a build generates them (each tier from the one
    /// before, no values needed), and each is looked up in its part. A
    /// shape that its part does not answer (a damaged or forged file) is
    /// [`DbError::Corrupt`]; so are a tier whose count differs and a value
    /// above its tier's recorded largest.
    ///
    /// # Errors
    ///
    /// [`DbError::Corrupt`], or what `f` returns.
    pub fn for_each_tier<E: From<DbError>>(
        &self,
        mut f: impl FnMut(Tier, &[Entry]) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        use grundy::clear::shapes::ClearShapes;
        use grundy::tier::{generate_tier, TierControl};
        use rayon::prelude::*;
        let shape_box = self.shape_box();
        let corrupt = |path: &Path, what: String| DbError::Corrupt {
            path: path.to_owned(),
            what,
        };
        if self.version() == VERSION_SLOTS {
            for tier in Tier::all(shape_box.cells()) {
                let mut entries: Vec<Entry> =
                    self.tier(tier).flat_map(TierTable::entries).collect();
                entries.par_sort_unstable();
                f(tier, &entries)?;
            }
            return Ok(());
        }
        let game = ClearShapes::new(shape_box);
        let parts = self.parts.len() as u32;
        let mut parent: Option<TierTable> = None;
        for tier in Tier::all(shape_box.cells()) {
            let table = generate_tier(&game, tier, parent.as_ref(), &TierControl::new())
                .map_err(|e| corrupt(&self.path, format!("tier {tier}: {e}")))?;
            if table.positions() != self.positions(tier) {
                return Err(corrupt(
                    &self.path,
                    format!(
                        "tier {tier} holds {} shapes, the {shape_box} box has {}",
                        self.positions(tier),
                        table.positions()
                    ),
                )
                .into());
            }
            let keys: Vec<u64> = table.keys().collect();
            let mut entries: Vec<Entry> = keys
                .par_iter()
                .map(|&key| {
                    let part = &self.parts[owner(key, parts) as usize];
                    let compact = part
                        .compact_tiers()
                        .and_then(|tiers| tiers.get(tier.index()));
                    let value = compact.and_then(|t| t.get(key)).ok_or_else(|| {
                        corrupt(
                            part.path(),
                            format!("tier {tier}: shape {key:#x} of the box is not found"),
                        )
                    })?;
                    // A value field holds up to the next power of two; one
                    // past the recorded largest value is a forgery that
                    // every reader of the header (`info`, the histogram)
                    // would misreport.
                    let largest = compact.map_or(0, CompactTier::<_>::max_value);
                    if value.value() > largest {
                        return Err(corrupt(
                            part.path(),
                            format!(
                                "tier {tier}: shape {key:#x} has value {}, above the tier's \
                                 recorded largest value {largest}",
                                value.value()
                            ),
                        ));
                    }
                    Entry::new(key, value.value()).ok_or_else(|| {
                        corrupt(
                            part.path(),
                            format!("tier {tier}: shape {key:#x} is out of the keys' range"),
                        )
                    })
                })
                .collect::<Result<_>>()?;
            entries.par_sort_unstable();
            f(tier, &entries)?;
            parent = Some(table);
        }
        Ok(())
    }

    /// Checks what checksums cannot: that every stored shape is where
    /// lookups look for it, and no value is above its tier's recorded
    /// largest. For version 1: its table's layout (see
    /// [`TierTable::check_layout`]), its tier is its number of cells, its
    /// part is its owner. For version 2: every shape of the box is found,
    /// with its fingerprint, in its part ([`DbSet::for_each_tier`]). Holds
    /// for every file this crate writes; a forged one (checksums
    /// recomputed) may fail it.
    ///
    /// # Errors
    ///
    /// [`DbError::Corrupt`] naming the part, the tier and the slot.
    pub fn check_layout(&self) -> Result<()> {
        if self.version() != VERSION_SLOTS {
            return self.for_each_tier(|_, _| Ok::<(), DbError>(()));
        }
        let parts = self.parts.len() as u32;
        for (index, part) in self.parts.iter().enumerate() {
            let Some(tables) = part.tables() else {
                continue;
            };
            for (i, table) in tables.tiers().iter().enumerate() {
                let tier = Tier::at(i);
                let corrupt = |what: String| DbError::Corrupt {
                    path: part.path().to_owned(),
                    what: format!("tier {tier}: {what}"),
                };
                table.check_layout().map_err(corrupt)?;
                let recorded = part.header().tiers[i].max_value;
                if table.max_value() != recorded {
                    return Err(corrupt(format!(
                        "its largest value is {}, its directory entry says {recorded}",
                        table.max_value()
                    )));
                }
                if let Some((key, _)) = table.iter().find(|&(key, _)| {
                    key.count_ones() != tier.number() || owner(key, parts) as usize != index
                }) {
                    return Err(corrupt(format!(
                        "shape {key:#x} does not belong in this tier{}",
                        if parts > 1 { " of this part" } else { "" }
                    )));
                }
            }
        }
        Ok(())
    }

    /// A CRC-32 over the content in a canonical order, independent of the
    /// number of parts, of the layout and of the format version: tier by
    /// tier, each tier's entries (as [`Entry::word`]s, little-endian `u64`)
    /// sorted by key.
    ///
    /// # Errors
    ///
    /// What [`DbSet::for_each_tier`] finds.
    pub fn content_crc(&self) -> Result<u32> {
        let mut hasher = crc32fast::Hasher::new();
        self.for_each_tier(|_, entries| {
            let words: Vec<u64> = entries.iter().map(|e| e.word()).collect();
            hasher.update(bytemuck::cast_slice(&words));
            Ok::<(), DbError>(())
        })?;
        Ok(hasher.finalize())
    }
}

pub(crate) fn parts_first_box(parts: &[Database], otherwise: ShapeBox) -> ShapeBox {
    parts.first().map_or(otherwise, |p| p.header().shape_box)
}

/// The part 0 of a partitioned build asked to write `path`, if there is
/// exactly one such build beside it.
pub(crate) fn find_first_part(path: &Path) -> Result<Option<PathBuf>> {
    if path.file_name().is_none() {
        return Ok(None);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(None);
    };
    let mut found: Vec<PathBuf> = entries
        // Named as `path` is (`x.gdb.partial`, not `./x.gdb.partial`).
        .filter_map(|e| e.ok().map(|e| path.with_file_name(e.file_name())))
        .filter(|p| part_name_of(p, path).is_some_and(|(index, _)| index == 0))
        .collect();
    found.sort();
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop()),
        _ => Err(DbError::Parts {
            path: path.to_owned(),
            what: format!(
                "several partitioned builds write it ({}); name one part",
                found
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// A shape outside the box gets `None` ([`ShapeBox::key`]), never another
/// shape's value. [`ShapeBox::key`] gives the canonical key of a shape
/// inside the box: a key of the database by construction, so a compact
/// database (which stores no keys) needs no further check.
impl ShapeLookup for DbSet {
    #[inline]
    fn lookup(&self, shape: &ShapeKey) -> Option<Nimber> {
        self.value_of_key(self.shape_box().key(shape)?)
    }

    #[inline]
    fn holds(&self, shape: &ShapeKey) -> bool {
        self.shape_box().holds(shape)
    }
}
