//! Shape databases: the file format of solved [`ShapeTables`], written
//! atomically and resumably by one writer at a time, read back through a
//! memory map.
//!
//! **Format (versions 1 and 2).** A 4,096-byte header, then one section per
//! tier, each starting on a 4,096-byte boundary (so a memory map hands out
//! aligned `u64` slots). All integers are little-endian. Version 2 (written
//! by `tables build`, `merge` and `convert`) differs from version 1 only in
//! what a section holds and in two fields of the directory entry; both are
//! read.
//!
//! | offset | what |
//! |---|---|
//! | 0 | magic `GRUNDYDB` |
//! | 8 | format version (`u32`, 1 or 2) |
//! | 12 | header length (`u32`, 4096) |
//! | 16 | game, 8 bytes (`clear` and zeros), from [`TierGame::id`] |
//! | 24, 28 | the game's parameters, for clearing the box: rows, columns (`u32`, rows <= columns) |
//! | 32 | tiers of the box (`u32`, rows x columns) |
//! | 36 | complete (`u32`, 1 once every tier is stored) |
//! | 40 | tiers stored so far (`u32`, a prefix: tier 1 to this) |
//! | 44, 48 | part index and number of parts (`u32`; both 0 for a whole database) |
//! | 56 | build id (`u64`, shared by the parts of one build; 0 for a whole database) |
//! | 64 | one 48-byte entry per tier: positions, capacity, slots, offset (`u64` each), largest value, CRC-32 of the section (`u32` each), 8 zero bytes |
//! | 4092 | CRC-32 of bytes 0 to 4091 |
//!
//! In version 1 a section is the tier's [`TierTable`] slots, 8 bytes each
//! (about 10.7 bytes a shape). In version 2 it is the tier's
//! [`CompactTier`] (a minimal-size perfect hash of the tier's shapes, and in
//! each shape's slot its value and fingerprint bits: about 1.9 bytes a
//! shape, see `grundy::tier::compact`), zero-padded to a multiple of 8
//! bytes; the entry's `capacity` field holds the compact tier's byte length
//! and `slots` the section's 8-byte words. Checksums are CRC-32 (IEEE) by
//! `crc32fast`, over the whole section, padding included.
//!
//! **What a compact file, which stores no keys, answers.** A key is looked
//! up only once it is known to be a shape of the box: [`ShapeLookup`] gets
//! keys from [`ShapeBox::key_of`] and [`ShapeBox::key_of_wide`], which refuse
//! a shape that does not fit the box and canonicalise one that does, and
//! [`DbSet::get`] checks a raw key the same way (cells inside the box, one
//! component, canonical orientation). Every connected shape that fits the box
//! is in the database by construction (the build generates them all; the
//! census of `grundy tables verify` counts their placements against the
//! transfer-matrix count of connected sets), so such a key is one the file
//! holds. A damaged or foreign file is caught as in version 1: the magic,
//! the version, the game (`clear`) and the box in the header, whose counts
//! must fit the box and the file; a CRC-32 per section and for the header;
//! and each compact tier's own header and records are checked on opening
//! (counts, lengths, zero padding). Beyond the checksums, each shape carries
//! 6 fingerprint bits (for values up to 63) from a hash independent of its
//! slot, so that a key answered from a slot not its own (a forged or
//! mis-assembled file) is refused with probability 63/64 per lookup;
//! [`DbSet::check_layout`] (`tables verify`) regenerates every shape of the
//! box and requires each to be found. A value forged together with its
//! checksums can only be found by re-solving, as in version 1 (`tables
//! verify`).
//!
//! **What is checked, and what the checksums cover.** Every byte of a
//! complete file is accounted for: the header's CRC covers the header
//! (unused bytes included, which must also be zero); each section's CRC
//! covers its slots; the padding between sections must be zero bytes and
//! the file must end exactly where the last section ends. Padding and
//! trailing bytes are *rejected* rather than checksummed: they carry no
//! data, so "all zero, nothing after the end" is the whole of their
//! contract, checked on every open. Every count of the header is checked
//! against the box and the file's size with checked arithmetic (a tier of
//! `k` cells holds at most `C(cells, k)` shapes; capacity and slots follow
//! from the count; sections lie in order inside the file), and each
//! section's occupied slots must number the header's count. A crafted file
//! is a [`DbError`], never a panic or an absurd count. A checksum cannot
//! tell a crafted value whose checksums were recomputed: `grundy tables
//! verify` re-solves values by an independent search for that.
//!
//! **Writing.** A build writes `PATH.partial` and holds an exclusive lock
//! on it (`fs4`, `flock` on Unix) for its whole life: a second build of the
//! same path fails at once with [`DbError::Busy`] and never touches the
//! file. Each tier's section is appended and synced, then the header is
//! rewritten to count it and synced, so a build killed at any moment leaves
//! every tier the header counts intact, and [`Writer::create_or_resume`]
//! carries on from there; a partial file whose header is unreadable (a
//! 0-byte file left by a full disk, say) is started afresh, with a note
//! ([`Writer::note`]). The last step marks the header complete, trims the
//! file to its last section, syncs it, renames it to `PATH` and syncs the
//! directory, so `PATH` is always either the old file or a complete new
//! one: a file at `PATH`, which readers may have mapped, is never truncated
//! or rewritten in place. The layout depends only on the box (tables are
//! laid out by key, see [`TierTable`]), so a resumed build writes the same
//! bytes as an uninterrupted one. A full disk is [`DbError::NoSpace`],
//! naming the file and the bytes it needed, wherever it happens.
//!
//! **Reading.** [`Database::open`] maps the file, checks the header, the
//! layout and every section's checksum, and serves the slots (version 1) or
//! the compact tiers (version 2) in place, without copying.
//!
//! **Partitioned databases.** A build over `P` processes (MPI ranks) writes
//! one file per rank, `STEM.part-R-of-P.gdb`: the same format, holding the
//! shapes that rank owns ([`grundy::tier::owner`] of the key), with the
//! part's index, the number of parts and the build's id in the header.
//! [`DbSet::open`] opens all the parts of a build (given any part, or the
//! path the build was asked to write) and checks that they belong
//! together; [`DbSet`] answers lookups by asking the owning part.

#![deny(missing_docs)]

#[cfg(not(target_endian = "little"))]
compile_error!("shape databases are read in place as little-endian u64 slots");

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use grundy::clear::shapes::{ClearShapes, ShapeBox, ShapeLookup, ShapeTables};
use grundy::clear::ShapeKey;
use grundy::tier::{capacity_for, owner, CompactTier, Entry, GameId, TierGame, TierTable};
use grundy::Nimber;

/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"GRUNDYDB";
/// The format version this crate writes by default: compact tiers.
pub const VERSION: u32 = 2;
/// The first format version, of 8-byte slots, still read and written.
pub const VERSION_SLOTS: u32 = 1;
/// Bytes of the header; sections start on multiples of it.
pub const HEADER_LEN: usize = 4096;
const DIRECTORY: usize = 64;
const ENTRY_LEN: usize = 48;
/// The most tiers a header lists.
pub const MAX_TIERS: usize = (HEADER_LEN - 4 - DIRECTORY) / ENTRY_LEN;
const ALIGN: u64 = HEADER_LEN as u64;

/// Why a database cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DbError {
    /// An operating-system error. (Not a `#[source]`: the message holds
    /// it already, and an error chain would print it twice.)
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{}: not a grundy shape database (no GRUNDYDB header)", path.display())]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// Another format version.
    #[error("{}: format version {found}; this grundy reads versions {VERSION_SLOTS} and {VERSION}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version found.
        found: u32,
    },
    /// The file ends before a part it declares.
    #[error("{}: truncated: {what} needs bytes up to {needed}, the file has {len}", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The part that is cut.
        what: String,
        /// The bytes it needs.
        needed: u64,
        /// The file's length.
        len: u64,
    },
    /// A checksum does not match: the named section is corrupt.
    #[error("{}: checksum mismatch in section {section}: the file is corrupt", path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
        /// `header` or `tier K`.
        section: String,
    },
    /// The header contradicts itself.
    #[error("{}: corrupt: {what}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The build that writes this file has not finished.
    #[error("{}: an unfinished build (tiers 1 to {stored} of {tiers}); run `grundy tables build` again to resume it", path.display())]
    Incomplete {
        /// The file.
        path: PathBuf,
        /// Tiers stored.
        stored: usize,
        /// Tiers of the box.
        tiers: usize,
    },
    /// A partial file of another part or partitioning is in the way.
    #[error("{}: a partial build of {found}, not {expected}; remove it or choose another output", path.display())]
    PartMismatch {
        /// The file.
        path: PathBuf,
        /// What it is.
        found: String,
        /// What was asked for.
        expected: String,
    },
    /// The parts of a partitioned database do not make a whole.
    #[error("{}: {what}", path.display())]
    Parts {
        /// A file of the set, or the path asked for.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// Another build holds the lock on the partial file: one writer per
    /// path.
    #[error("{}: another build is writing it{}; wait for it to finish or stop it, then run again", path.display(), holder.map(|pid| format!(" (process {pid} holds its lock)")).unwrap_or_default())]
    Busy {
        /// The partial file.
        path: PathBuf,
        /// The process holding the lock, where the system tells.
        holder: Option<u32>,
    },
    /// The file system is full (or the quota is used up).
    #[error("{}: out of disk space: writing it needs {needed} more bytes{}", path.display(), available.map(|a| format!(", {a} are available")).unwrap_or_default())]
    NoSpace {
        /// The file being written.
        path: PathBuf,
        /// The bytes the step needed.
        needed: u64,
        /// The bytes available to this user, where known.
        available: Option<u64>,
    },
    /// A database of another game: its header names it.
    #[error("{}: a database of {found}, not of {expected}", path.display())]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// The game and parameters its header names.
        found: String,
        /// What this reader serves.
        expected: String,
    },
    /// A partial build of another box is in the way.
    #[error("{}: a partial build of a {found} box, not {expected}; remove it or choose another output", path.display())]
    BoxMismatch {
        /// The file.
        path: PathBuf,
        /// Its box.
        found: ShapeBox,
        /// The box asked for.
        expected: ShapeBox,
    },
}

type Result<T> = std::result::Result<T, DbError>;

/// For readers that write as they read ([`meta::export_csv`]): a database
/// error met midway is invalid data.
impl From<DbError> for std::io::Error {
    fn from(e: DbError) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DbError + '_ {
    move |error| DbError::Io {
        path: path.to_owned(),
        error,
    }
}

/// A write error: [`DbError::NoSpace`] for a full disk or quota (`needed`
/// bytes were being written), else [`DbError::Io`].
fn write_error(path: &Path, needed: u64) -> impl FnOnce(std::io::Error) -> DbError + '_ {
    move |error| {
        if is_no_space(&error) {
            DbError::NoSpace {
                path: path.to_owned(),
                needed,
                available: available_space(path),
            }
        } else {
            DbError::Io {
                path: path.to_owned(),
                error,
            }
        }
    }
}

fn is_no_space(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(e.kind(), ErrorKind::StorageFull | ErrorKind::QuotaExceeded)
}

/// Bytes available to this user on the file system that holds `path` (a
/// file, or a directory; a file that does not exist yet is looked up by its
/// directory), by `statvfs` through `fs4`; `None` when the system does not
/// say.
#[must_use]
pub fn available_space(path: &Path) -> Option<u64> {
    let dir = if path.is_dir() {
        path
    } else {
        match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        }
    };
    fs4::available_space(dir).ok()
}

/// The bytes of a complete database of `positions` shapes per tier, in the
/// compact format builds write ([`CompactTier::estimated_len`] a section,
/// each aligned as the writer aligns it): for an estimate before a build.
#[must_use]
pub fn estimated_size(positions: impl IntoIterator<Item = u64>) -> u64 {
    positions.into_iter().fold(ALIGN, |end, p| {
        end.next_multiple_of(ALIGN)
            .saturating_add(CompactTier::estimated_len(p).next_multiple_of(8))
    })
}

/// One tier's entry in the header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TierEntry {
    /// Positions (shapes) in the tier.
    pub positions: u64,
    /// Home slots of its table.
    pub capacity: u64,
    /// Slots in the section.
    pub slots: u64,
    /// Byte offset of the section.
    pub offset: u64,
    /// The largest value in the tier.
    pub max_value: u32,
    /// CRC-32 of the section's bytes.
    pub crc32: u32,
}

impl TierEntry {
    /// Where the section ends. Entries are checked on decoding so that this
    /// lies within the file; the saturation only keeps a hand-made entry
    /// from wrapping.
    fn end(&self) -> u64 {
        self.offset.saturating_add(self.slots.saturating_mul(8))
    }
}

/// The most shapes a tier of `cells` cells can hold in a box of `box_cells`
/// cells: `C(box_cells, cells)`, the subsets of that size (saturating).
fn max_shapes(box_cells: usize, cells: usize) -> u64 {
    let (n, k) = (box_cells as u128, cells.min(box_cells - cells) as u128);
    let mut c: u128 = 1;
    for i in 0..k {
        // C(n, i + 1) = C(n, i) * (n - i) / (i + 1), exact at every step.
        c = match c.checked_mul(n - i) {
            Some(v) => v / (i + 1),
            None => return u64::MAX,
        };
    }
    u64::try_from(c).unwrap_or(u64::MAX)
}

/// Which part of a partitioned build a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Part {
    /// The part, `0..parts` (the rank that wrote it).
    pub index: u32,
    /// How many parts the build has (at least 2).
    pub parts: u32,
    /// An id shared by the parts of one build, so parts of different builds
    /// are never mixed.
    pub build_id: u64,
}

/// A database header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version: [`VERSION_SLOTS`] or [`VERSION`].
    pub version: u32,
    /// The box whose shapes the file holds.
    pub shape_box: ShapeBox,
    /// True once every tier is stored.
    pub complete: bool,
    /// The stored tiers, tier 1 first.
    pub tiers: Vec<TierEntry>,
    /// For a part of a partitioned build: which; `None` for a whole one.
    pub part: Option<Part>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Header {
    fn new(shape_box: ShapeBox) -> Header {
        Header {
            version: VERSION,
            shape_box,
            complete: false,
            tiers: Vec::new(),
            part: None,
        }
    }

    /// The game the file holds and its parameters
    /// ([`TierGame::id`] of clearing on the box).
    #[must_use]
    pub fn game(&self) -> GameId {
        ClearShapes::new(self.shape_box).id()
    }

    /// Where the next section starts.
    fn next_offset(&self) -> u64 {
        self.tiers.last().map_or(ALIGN, |t| {
            t.end().checked_next_multiple_of(ALIGN).unwrap_or(u64::MAX)
        })
    }

    /// Where the last section ends (the header's end when there is none):
    /// the length of a complete file.
    #[must_use]
    pub fn end(&self) -> u64 {
        self.tiers.last().map_or(ALIGN, TierEntry::end)
    }

    /// The header's bytes.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut b = vec![0u8; HEADER_LEN];
        b[0..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&self.version.to_le_bytes());
        b[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        let game = self.game();
        b[16..24].copy_from_slice(&game.name);
        b[24..28].copy_from_slice(&game.params[0].to_le_bytes());
        b[28..32].copy_from_slice(&game.params[1].to_le_bytes());
        b[32..36].copy_from_slice(&(self.shape_box.cells() as u32).to_le_bytes());
        b[36..40].copy_from_slice(&u32::from(self.complete).to_le_bytes());
        b[40..44].copy_from_slice(&(self.tiers.len() as u32).to_le_bytes());
        if let Some(part) = self.part {
            b[44..48].copy_from_slice(&part.index.to_le_bytes());
            b[48..52].copy_from_slice(&part.parts.to_le_bytes());
            b[56..64].copy_from_slice(&part.build_id.to_le_bytes());
        }
        for (i, t) in self.tiers.iter().enumerate() {
            let at = DIRECTORY + i * ENTRY_LEN;
            b[at..at + 8].copy_from_slice(&t.positions.to_le_bytes());
            b[at + 8..at + 16].copy_from_slice(&t.capacity.to_le_bytes());
            b[at + 16..at + 24].copy_from_slice(&t.slots.to_le_bytes());
            b[at + 24..at + 32].copy_from_slice(&t.offset.to_le_bytes());
            b[at + 32..at + 36].copy_from_slice(&t.max_value.to_le_bytes());
            b[at + 36..at + 40].copy_from_slice(&t.crc32.to_le_bytes());
        }
        let crc = crc32fast::hash(&b[..HEADER_LEN - 4]);
        b[HEADER_LEN - 4..].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// Reads and checks a header: magic, version, checksum, box, every
    /// count against the box and `file_len` (checked arithmetic), and that
    /// the sections lie in order within `file_len` bytes.
    ///
    /// # Errors
    ///
    /// The [`DbError`] that names the problem.
    pub fn decode(b: &[u8], file_len: u64, path: &Path) -> Result<Header> {
        Header::decode_with(b, file_len, path, true)
    }

    /// As [`Header::decode`]; with `strict` false (resuming a build), the
    /// tiers from the first whose section the file does not hold are left
    /// out instead of an error.
    fn decode_with(b: &[u8], file_len: u64, path: &Path, strict: bool) -> Result<Header> {
        if b.len() < 8 || &b[..8] != MAGIC {
            return Err(DbError::NotADatabase {
                path: path.to_owned(),
            });
        }
        if b.len() < 12 {
            return Err(truncated(path, "the header", 12, file_len));
        }
        let version = u32_at(b, 8);
        if version != VERSION && version != VERSION_SLOTS {
            return Err(DbError::Version {
                path: path.to_owned(),
                found: version,
            });
        }
        if b.len() < HEADER_LEN {
            return Err(truncated(path, "the header", HEADER_LEN as u64, file_len));
        }
        let b = &b[..HEADER_LEN];
        if crc32fast::hash(&b[..HEADER_LEN - 4]) != u32_at(b, HEADER_LEN - 4) {
            return Err(DbError::Checksum {
                path: path.to_owned(),
                section: "header".into(),
            });
        }
        let corrupt = |what: String| DbError::Corrupt {
            path: path.to_owned(),
            what,
        };
        if u32_at(b, 12) as usize != HEADER_LEN {
            return Err(corrupt(format!("header length {}", u32_at(b, 12))));
        }
        let (rows, cols) = (u32_at(b, 24) as usize, u32_at(b, 28) as usize);
        let clear = GameId::new("clear", [0, 0]).name;
        if b[16..24] != clear {
            let found = GameId {
                name: b[16..24].try_into().expect("8 bytes"),
                params: [u32_at(b, 24), u32_at(b, 28)],
            };
            return Err(DbError::WrongGame {
                path: path.to_owned(),
                found: format!("game `{}` ({})", found.name().escape_default(), found),
                expected: "rectangle clearing (`clear`)".into(),
            });
        }
        let shape_box =
            ShapeBox::new(rows, cols).map_err(|e| corrupt(format!("box {rows} x {cols}: {e}")))?;
        if shape_box.rows() != rows || u32_at(b, 32) as usize != shape_box.cells() {
            return Err(corrupt("the box and its tier count disagree".into()));
        }
        let stored = u32_at(b, 40) as usize;
        if stored > shape_box.cells() || stored > MAX_TIERS {
            return Err(corrupt(format!(
                "{stored} tiers stored, the {shape_box} box has {}",
                shape_box.cells()
            )));
        }
        let complete = match u32_at(b, 36) {
            0 => false,
            1 => true,
            other => return Err(corrupt(format!("completion flag {other}"))),
        };
        if complete && stored != shape_box.cells() {
            return Err(corrupt("marked complete with tiers missing".into()));
        }
        let directory_end = DIRECTORY + stored * ENTRY_LEN;
        if b[52..56].iter().any(|&x| x != 0)
            || b[directory_end..HEADER_LEN - 4].iter().any(|&x| x != 0)
            || (0..stored).any(|i| {
                let at = DIRECTORY + i * ENTRY_LEN;
                b[at + 40..at + ENTRY_LEN].iter().any(|&x| x != 0)
            })
        {
            return Err(corrupt(
                "non-zero bytes in the header's unused space".into(),
            ));
        }
        let mut header = Header::new(shape_box);
        header.version = version;
        header.complete = complete;
        let (index, parts, build_id) = (u32_at(b, 44), u32_at(b, 48), u64_at(b, 56));
        header.part = match parts {
            0 if index == 0 && build_id == 0 => None,
            2.. if index < parts => Some(Part {
                index,
                parts,
                build_id,
            }),
            _ => return Err(corrupt(format!("part {index} of {parts}"))),
        };
        for i in 0..stored {
            let at = DIRECTORY + i * ENTRY_LEN;
            let entry = TierEntry {
                positions: u64_at(b, at),
                capacity: u64_at(b, at + 8),
                slots: u64_at(b, at + 16),
                offset: u64_at(b, at + 24),
                max_value: u32_at(b, at + 32),
                crc32: u32_at(b, at + 36),
            };
            let tier = i + 1;
            let bad = |why: String| corrupt(format!("the directory entry of tier {tier}: {why}"));
            let most = max_shapes(shape_box.cells(), tier);
            if entry.positions > most {
                return Err(bad(format!(
                    "{} shapes, but {tier} cells of the {shape_box} box make at most {most}",
                    entry.positions
                )));
            }
            if version == VERSION_SLOTS {
                if Some(entry.capacity) != capacity_for(entry.positions) {
                    return Err(bad(format!(
                        "capacity {} does not fit {} shapes",
                        entry.capacity, entry.positions
                    )));
                }
                // A table has one slot past its capacity at least, and probing
                // moves a shape at most `positions` slots past its home.
                let most_slots = entry
                    .capacity
                    .checked_add(entry.positions)
                    .and_then(|s| s.checked_add(1));
                if entry.slots <= entry.capacity || most_slots.is_none_or(|m| entry.slots > m) {
                    return Err(bad(format!(
                        "{} slots for capacity {} and {} shapes",
                        entry.slots, entry.capacity, entry.positions
                    )));
                }
            } else {
                // Version 2: `capacity` is the compact tier's byte length,
                // `slots` the section's 8-byte words (the tier zero-padded).
                let most = CompactTier::max_len(entry.positions);
                if entry.capacity < CompactTier::min_len() as u64
                    || most.is_none_or(|m| entry.capacity > m)
                    || entry.slots != entry.capacity.div_ceil(8)
                {
                    return Err(bad(format!(
                        "a compact tier of {} bytes in {} words for {} shapes",
                        entry.capacity, entry.slots, entry.positions
                    )));
                }
            }
            if entry.offset != header.next_offset() {
                return Err(bad(format!(
                    "section at byte {}, expected {}",
                    entry.offset,
                    header.next_offset()
                )));
            }
            if entry.max_value > grundy::tier::MAX_VALUE {
                return Err(bad(format!("largest value {}", entry.max_value)));
            }
            let end = entry
                .slots
                .checked_mul(8)
                .and_then(|bytes| entry.offset.checked_add(bytes));
            match end {
                Some(end) if end <= file_len => {}
                _ if !strict => break,
                _ => {
                    return Err(truncated(
                        path,
                        &format!("section tier {tier}"),
                        end.unwrap_or(u64::MAX),
                        file_len,
                    ))
                }
            }
            header.tiers.push(entry);
        }
        if header.tiers.len() < stored {
            header.complete = false;
        }
        Ok(header)
    }
}

fn truncated(path: &Path, what: &str, needed: u64, len: u64) -> DbError {
    DbError::Truncated {
        path: path.to_owned(),
        what: what.to_owned(),
        needed,
        len,
    }
}

/// The bytes of a database: a memory-mapped file, an array in the binary,
/// or a copy in memory (in `u64`s, for their alignment) of that many bytes.
#[derive(Debug)]
enum Bytes {
    Mapped(memmap2::Mmap),
    Static(&'static [u8]),
    Owned(Vec<u64>, usize),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Static(bytes) => bytes,
            Bytes::Owned(words, len) => &bytemuck::cast_slice(words)[..*len],
        }
    }
}

/// One tier's slots, read in place from a [`Database`]'s bytes.
#[derive(Clone, Debug)]
pub struct Slots {
    bytes: Arc<Bytes>,
    start: usize,
    len: usize,
}

impl AsRef<[u64]> for Slots {
    fn as_ref(&self) -> &[u64] {
        // Sections start on 4,096-byte boundaries of a page-aligned map (or
        // of an 8-aligned static array) and hold whole slots, as `open`
        // checked; the cast checks alignment and length once more.
        bytemuck::cast_slice(&self.bytes.as_slice()[self.start..self.start + self.len * 8])
    }
}

/// One compact tier's bytes, read in place from a [`Database`]'s bytes.
#[derive(Clone, Debug)]
pub struct Section {
    bytes: Arc<Bytes>,
    start: usize,
    len: usize,
}

impl AsRef<[u8]> for Section {
    fn as_ref(&self) -> &[u8] {
        &self.bytes.as_slice()[self.start..self.start + self.len]
    }
}

/// A database's tiers as its format stores them.
#[derive(Debug)]
enum Store {
    /// Version 1: tables of 8-byte slots.
    Slots(ShapeTables<Slots>),
    /// Version 2: compact tiers, tier 1 first.
    Compact(Vec<CompactTier<Section>>),
}

/// A shape database read back: its header and tables.
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    header: Header,
    bytes: Arc<Bytes>,
    store: Store,
}

impl Database {
    /// Maps the file at `path` and checks it: header, layout, and every
    /// section's checksum.
    ///
    /// # Errors
    ///
    /// [`DbError::Incomplete`] for a build that has not finished, and the
    /// errors of [`Header::decode`] and [`Database::verify_checksums`].
    pub fn open(path: &Path) -> Result<Database> {
        let file = File::open(path).map_err(io(path))?;
        let len = file.metadata().map_err(io(path))?.len();
        if len < HEADER_LEN as u64 {
            let mut start = Vec::new();
            (&file).read_to_end(&mut start).map_err(io(path))?;
            Header::decode(&start, len, path)?;
            return Err(truncated(path, "the header", HEADER_LEN as u64, len));
        }
        let map = map(&file).map_err(io(path))?;
        Database::from_bytes(path, Bytes::Mapped(map))
    }

    /// A database compiled into the binary (as `include_bytes!` of a file
    /// this crate wrote), checked like a file. `bytes` must start on an
    /// 8-byte boundary.
    ///
    /// # Errors
    ///
    /// As [`Database::open`]; a misaligned array is [`DbError::Corrupt`].
    pub fn from_static(name: &str, bytes: &'static [u8]) -> Result<Database> {
        let path = PathBuf::from(name);
        if bytes.as_ptr().align_offset(8) != 0 {
            return Err(DbError::Corrupt {
                path,
                what: "the embedded array is not 8-byte aligned".into(),
            });
        }
        Database::from_bytes(&path, Bytes::Static(bytes))
    }

    /// A database from a copy of a file's bytes (for tests and fuzzing),
    /// checked like a file.
    ///
    /// # Errors
    ///
    /// As [`Database::open`].
    pub fn from_copy(name: &str, bytes: &[u8]) -> Result<Database> {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        Database::from_bytes(Path::new(name), Bytes::Owned(words, bytes.len()))
    }

    fn from_bytes(path: &Path, bytes: Bytes) -> Result<Database> {
        let all = bytes.as_slice();
        let header = Header::decode(all, all.len() as u64, path)?;
        if !header.complete {
            return Err(DbError::Incomplete {
                path: path.to_owned(),
                stored: header.tiers.len(),
                tiers: header.shape_box.cells(),
            });
        }
        check_sections(path, all, &header)?;
        let bytes = Arc::new(bytes);
        let store = if header.version == VERSION_SLOTS {
            let tiers = header
                .tiers
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let slots = Slots {
                        bytes: Arc::clone(&bytes),
                        start: t.offset as usize,
                        len: t.slots as usize,
                    };
                    TierTable::from_parts(t.positions, t.capacity, slots).map_err(|what| {
                        DbError::Corrupt {
                            path: path.to_owned(),
                            what: format!("tier {}: {what}", i + 1),
                        }
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Store::Slots(ShapeTables::new(header.shape_box, tiers).map_err(|what| {
                DbError::Corrupt {
                    path: path.to_owned(),
                    what,
                }
            })?)
        } else {
            let tiers = header
                .tiers
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let section = Section {
                        bytes: Arc::clone(&bytes),
                        start: t.offset as usize,
                        len: t.capacity as usize,
                    };
                    CompactTier::from_bytes(section).map_err(|e| DbError::Corrupt {
                        path: path.to_owned(),
                        what: format!("tier {}: {e}", i + 1),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Store::Compact(tiers)
        };
        Ok(Database {
            path: path.to_owned(),
            header,
            bytes,
            store,
        })
    }

    /// Where the database came from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The tables of 8-byte slots of a version-1 file, served from its
    /// bytes; `None` for a version-2 (compact) file, which holds no keys
    /// (see [`DbSet::for_each_tier`] to read every shape of either).
    #[must_use]
    pub fn tables(&self) -> Option<&ShapeTables<Slots>> {
        match &self.store {
            Store::Slots(tables) => Some(tables),
            Store::Compact(_) => None,
        }
    }

    /// The compact tiers of a version-2 file, tier 1 first; `None` for a
    /// version-1 file.
    #[must_use]
    pub fn compact_tiers(&self) -> Option<&[CompactTier<Section>]> {
        match &self.store {
            Store::Slots(_) => None,
            Store::Compact(tiers) => Some(tiers),
        }
    }

    /// The value of a shape by its key, which must be the key of a shape
    /// of the box (a compact tier answers for any key; see
    /// [`DbSet::get`], which checks).
    fn value_of_key(&self, key: u64) -> Option<Nimber> {
        match &self.store {
            Store::Slots(tables) => tables.get(key),
            Store::Compact(tiers) => {
                let tier = key.count_ones() as usize;
                tiers.get(tier.checked_sub(1)?)?.get(key)
            }
        }
    }

    /// The file's bytes, all of them (as checked on opening).
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_slice()
    }
}

/// Checks every byte after the header: each section's checksum and count
/// of occupied slots, zero padding between sections, nothing after the
/// last one.
fn check_sections(path: &Path, all: &[u8], header: &Header) -> Result<()> {
    let corrupt = |what: String| DbError::Corrupt {
        path: path.to_owned(),
        what,
    };
    let end = header.end();
    if all.len() as u64 != end {
        return Err(corrupt(format!(
            "{} bytes after the last section, which ends at byte {end}",
            all.len() as u64 - end
        )));
    }
    for (i, t) in header.tiers.iter().enumerate() {
        let section = &all[t.offset as usize..t.end() as usize];
        if crc32fast::hash(section) != t.crc32 {
            return Err(DbError::Checksum {
                path: path.to_owned(),
                section: format!("tier {}", i + 1),
            });
        }
        check_section(header.version, t, section)
            .map_err(|what| corrupt(format!("section tier {}: {what}", i + 1)))?;
        let next = header.tiers.get(i + 1).map_or(t.end(), |next| next.offset);
        if all[t.end() as usize..next as usize].iter().any(|&b| b != 0) {
            return Err(corrupt(format!(
                "non-zero bytes in the padding after section tier {}",
                i + 1
            )));
        }
    }
    Ok(())
}

/// Checks a section's content against its directory entry (its checksum
/// already checked): for version 1 the count of occupied slots; for
/// version 2 the compact tier's own header and records, its count and
/// largest value, and the zero padding to the section's last word.
fn check_section(version: u32, t: &TierEntry, section: &[u8]) -> std::result::Result<(), String> {
    if version == VERSION_SLOTS {
        let occupied = section
            .chunks_exact(8)
            .filter(|slot| u64::from_le_bytes((*slot).try_into().expect("8 bytes")) != 0)
            .count() as u64;
        if occupied != t.positions {
            return Err(format!(
                "holds {occupied} shapes, its directory entry says {}",
                t.positions
            ));
        }
        return Ok(());
    }
    let len = t.capacity as usize;
    if section[len..].iter().any(|&b| b != 0) {
        return Err("non-zero bytes after the compact tier".into());
    }
    let tier = CompactTier::from_bytes(&section[..len]).map_err(|e| e.to_string())?;
    tier.check().map_err(|e| e.to_string())?;
    if tier.positions() != t.positions || tier.max_value() != t.max_value {
        return Err(format!(
            "a compact tier of {} shapes up to value {}, its directory entry says {} up to {}",
            tier.positions(),
            tier.max_value(),
            t.positions,
            t.max_value
        ));
    }
    Ok(())
}

/// Maps a database file for reading.
#[allow(unsafe_code)]
fn map(file: &File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is only read, and this project never changes a
    // database file in place: builds write `PATH.partial` and rename it over
    // `PATH`, which leaves a mapped old file's inode as it was. Another
    // program truncating the file under us could fault the process; that is
    // the accepted cost of serving gigabyte tables without copying them
    // (see `benches/open.rs`: mapping a 6 x 6 database and reading one value
    // against reading the whole file).
    unsafe { memmap2::Mmap::map(file) }
}

/// Writes a database tier by tier into `PATH.partial`, holding an exclusive
/// lock on it, then renames it to `PATH`.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    partial: PathBuf,
    /// Open, and locked, until the writer is dropped (after the rename).
    file: File,
    header: Header,
    note: Option<String>,
    /// Tests: the length past which writes fail as on a full disk.
    #[cfg(test)]
    space_limit: Option<u64>,
}

/// The partial file a build of `path` writes.
#[must_use]
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Opens the partial file (creating it if there is none) and takes its
/// exclusive lock; says whether it was created now.
fn lock_partial(partial: &Path) -> Result<(File, bool)> {
    use std::io::ErrorKind;
    // Between our open and our lock, the build holding the lock may finish
    // and rename the file to its final path: we would then hold the
    // complete file. So check that the path still names the locked file,
    // and start over when it does not.
    for _ in 0..8 {
        let (file, created) = match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(partial)
        {
            Ok(file) => (file, true),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                match OpenOptions::new().read(true).write(true).open(partial) {
                    Ok(file) => (file, false),
                    Err(e) if e.kind() == ErrorKind::NotFound => continue,
                    Err(e) => return Err(io(partial)(e)),
                }
            }
            Err(e) => return Err(write_error(partial, HEADER_LEN as u64)(e)),
        };
        // Fully qualified: std has inherent methods of these names since
        // Rust 1.89 (the workspace supports 1.85, hence fs4).
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                return Err(DbError::Busy {
                    path: partial.to_owned(),
                    holder: lock_holder(&file),
                })
            }
            Err(fs4::TryLockError::Error(e)) => return Err(io(partial)(e)),
        }
        if names_file(partial, &file) {
            return Ok((file, created));
        }
    }
    Err(DbError::Busy {
        path: partial.to_owned(),
        holder: None,
    })
}

/// Whether `path` names the open `file` (not a file renamed over it).
#[cfg(unix)]
fn names_file(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (std::fs::metadata(path), file.metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn names_file(path: &Path, _file: &File) -> bool {
    path.exists()
}

/// The process holding the `flock` of `file`, from `/proc/locks` (Linux;
/// `None` elsewhere or when it does not say).
fn lock_holder(file: &File) -> Option<u32> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt as _;
        let ino = file.metadata().ok()?.ino();
        let locks = std::fs::read_to_string("/proc/locks").ok()?;
        // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`; waiters have
        // `->` after the number.
        locks.lines().find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.get(1) != Some(&"FLOCK") {
                return None;
            }
            let id = fields.get(5)?.rsplit(':').next()?.parse::<u64>().ok()?;
            (id == ino).then(|| fields.get(4)?.parse().ok()).flatten()
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        None
    }
}

impl Writer {
    /// Starts a build of `shape_box` into `path`, or resumes the one whose
    /// partial file is there: returns the writer and the tiers already
    /// stored (checked against their checksums; anything after the last
    /// good tier is dropped). A partial file whose header cannot be read
    /// (empty, cut, corrupt, another version) is started afresh, and
    /// [`Writer::note`] says so.
    ///
    /// # Errors
    ///
    /// [`DbError::Busy`] while another build writes `path`;
    /// [`DbError::BoxMismatch`] when the partial file is of another box;
    /// [`DbError::NoSpace`] and other I/O errors.
    pub fn create_or_resume(path: &Path, shape_box: ShapeBox) -> Result<(Writer, Vec<TierTable>)> {
        Writer::create_or_resume_part(path, shape_box, None)
    }

    /// As [`Writer::create_or_resume`], writing the compact format
    /// ([`VERSION`] 2, [`Writer::append_compact`]): returns the compact
    /// tiers already stored. A partial file of version 1 is started afresh.
    ///
    /// # Errors
    ///
    /// As [`Writer::create_or_resume`].
    pub fn create_or_resume_compact(
        path: &Path,
        shape_box: ShapeBox,
    ) -> Result<(Writer, Vec<CompactTier>)> {
        let (writer, sections) = Writer::open(path, shape_box, None, true, VERSION)?;
        let tiers = sections
            .into_iter()
            .zip(&writer.header.tiers)
            .map(|(mut bytes, t)| {
                bytes.truncate(t.capacity as usize);
                CompactTier::from_bytes(bytes).map_err(|e| DbError::Corrupt {
                    path: writer.partial.clone(),
                    what: e.to_string(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((writer, tiers))
    }

    /// A fresh build of `shape_box` into `path` in the compact format, as
    /// [`Writer::create`] (for `grundy tables convert`).
    ///
    /// # Errors
    ///
    /// As [`Writer::create`].
    pub fn create_compact(path: &Path, shape_box: ShapeBox) -> Result<Writer> {
        Writer::open(path, shape_box, None, false, VERSION).map(|(writer, _)| writer)
    }

    /// As [`Writer::create_or_resume`], for one part of a partitioned build
    /// (`None`: a whole database). A partial file of the same part (index
    /// and number of parts) is resumed whatever its build id: see
    /// [`Writer::restart`] to make the parts agree.
    ///
    /// # Errors
    ///
    /// As [`Writer::create_or_resume`]; [`DbError::PartMismatch`] when the
    /// partial file is of another part or partitioning.
    pub fn create_or_resume_part(
        path: &Path,
        shape_box: ShapeBox,
        part: Option<Part>,
    ) -> Result<(Writer, Vec<TierTable>)> {
        let (writer, sections) = Writer::open(path, shape_box, part, true, VERSION_SLOTS)?;
        let tables = sections
            .into_iter()
            .zip(&writer.header.tiers)
            .map(|(bytes, t)| {
                let slots: Vec<u64> = bytes
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                    .collect();
                TierTable::from_parts(t.positions, t.capacity, slots).map_err(|what| {
                    DbError::Corrupt {
                        path: writer.partial.clone(),
                        what,
                    }
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((writer, tables))
    }

    /// A fresh build of `shape_box` into `path`: a partial file a stopped
    /// build left is discarded (a merge never resumes), one a running
    /// build holds is not touched.
    ///
    /// # Errors
    ///
    /// [`DbError::Busy`] while another build writes `path`;
    /// [`DbError::NoSpace`] and other I/O errors.
    pub fn create(path: &Path, shape_box: ShapeBox) -> Result<Writer> {
        Writer::open(path, shape_box, None, false, VERSION_SLOTS).map(|(writer, _)| writer)
    }

    /// The writer, and the sections already stored when resuming (each
    /// checked against its checksum and entry).
    fn open(
        path: &Path,
        shape_box: ShapeBox,
        part: Option<Part>,
        resume: bool,
        version: u32,
    ) -> Result<(Writer, Vec<Vec<u8>>)> {
        let partial = partial_path(path);
        let (file, created) = lock_partial(&partial)?;
        let mut writer = Writer {
            path: path.to_owned(),
            partial,
            file,
            header: Header {
                part,
                version,
                ..Header::new(shape_box)
            },
            note: None,
            #[cfg(test)]
            space_limit: None,
        };
        if created || !resume {
            writer.start_afresh()?;
            return Ok((writer, Vec::new()));
        }
        writer.resume(shape_box, part, version)
    }

    /// Empties the partial file and writes a header with no tiers.
    fn start_afresh(&mut self) -> Result<()> {
        self.header.tiers.clear();
        self.header.complete = false;
        let len = self.file.metadata().map_err(io(&self.partial))?.len();
        if len != 0 {
            self.file.set_len(0).map_err(io(&self.partial))?;
        }
        self.write_header()
    }

    fn resume(
        mut self,
        shape_box: ShapeBox,
        part: Option<Part>,
        version: u32,
    ) -> Result<(Writer, Vec<Vec<u8>>)> {
        let partial = self.partial.clone();
        let len = self.file.metadata().map_err(io(&partial))?.len();
        let mut head = vec![0u8; usize::try_from(len).map_or(HEADER_LEN, |l| l.min(HEADER_LEN))];
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.read_exact(&mut head))
            .map_err(io(&partial))?;
        let mut header = match Header::decode_with(&head, len, &partial, false) {
            Ok(header) => header,
            Err(
                err @ (DbError::NotADatabase { .. }
                | DbError::Version { .. }
                | DbError::Truncated { .. }
                | DbError::Checksum { .. }
                | DbError::Corrupt { .. }),
            ) => {
                self.note = Some(if len == 0 {
                    format!(
                        "{}: empty (0 bytes: a build stopped before writing its header, perhaps on a full disk); starting the build afresh",
                        partial.display()
                    )
                } else {
                    format!("{err}; starting the build afresh")
                });
                self.start_afresh()?;
                return Ok((self, Vec::new()));
            }
            Err(err) => return Err(err),
        };
        if header.version != version {
            self.note = Some(format!(
                "{}: a partial build in format version {}, not {version}; starting the build afresh",
                partial.display(),
                header.version
            ));
            self.start_afresh()?;
            return Ok((self, Vec::new()));
        }
        if header.shape_box != shape_box {
            return Err(DbError::BoxMismatch {
                path: partial,
                found: header.shape_box,
                expected: shape_box,
            });
        }
        let describe = |p: Option<Part>| match p {
            None => "a whole database".to_owned(),
            Some(p) => format!("part {} of {}", p.index, p.parts),
        };
        if header.part.map(|p| (p.index, p.parts)) != part.map(|p| (p.index, p.parts)) {
            return Err(DbError::PartMismatch {
                path: partial,
                found: describe(header.part),
                expected: describe(part),
            });
        }
        header.complete = false;
        let mut tables = Vec::new();
        for t in &header.tiers {
            // The header checked the section lies within the file.
            let mut bytes = vec![0u8; t.slots as usize * 8];
            self.file
                .seek(SeekFrom::Start(t.offset))
                .and_then(|_| self.file.read_exact(&mut bytes))
                .map_err(io(&partial))?;
            // A torn or damaged section is redone, with every one after it.
            if crc32fast::hash(&bytes) != t.crc32 || check_section(version, t, &bytes).is_err() {
                break;
            }
            tables.push(bytes);
        }
        header.tiers.truncate(tables.len());
        self.header = header;
        self.write_header()?;
        let end = self.header.next_offset();
        self.file.set_len(end).map_err(io(&partial))?;
        Ok((self, tables))
    }

    /// What the writer did that the user should hear of: a partial file it
    /// could not resume and started afresh.
    #[must_use]
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Keeps only the first `tiers` stored tiers and sets the part's build
    /// id (a partitioned build resumes from the tier every part has, under
    /// one id).
    ///
    /// # Errors
    ///
    /// I/O errors.
    pub fn restart(&mut self, tiers: usize, build_id: u64) -> Result<()> {
        self.header.tiers.truncate(tiers);
        if let Some(part) = &mut self.header.part {
            part.build_id = build_id;
        }
        self.write_header()?;
        let end = self.header.next_offset();
        self.file.set_len(end).map_err(io(&self.partial))
    }

    /// The header as written so far.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The partial file being written.
    #[must_use]
    pub fn partial(&self) -> &Path {
        &self.partial
    }

    /// Makes sure the file can grow to `end` bytes: preallocates them
    /// (`fallocate` through `fs4`), so a full disk is found before the
    /// write, with the bytes it needed. File systems without preallocation
    /// leave it to the write, whose error is mapped the same way.
    fn reserve(&self, end: u64) -> Result<()> {
        let len = self.file.metadata().map_err(io(&self.partial))?.len();
        let needed = end.saturating_sub(len);
        #[cfg(test)]
        if let Some(limit) = self.space_limit {
            if needed > 0 && end > limit {
                return Err(DbError::NoSpace {
                    path: self.partial.clone(),
                    needed,
                    available: Some(limit.saturating_sub(len)),
                });
            }
        }
        if needed == 0 {
            return Ok(());
        }
        match fs4::FileExt::allocate(&self.file, end) {
            Err(e) if is_no_space(&e) => Err(DbError::NoSpace {
                path: self.partial.clone(),
                needed,
                available: available_space(&self.partial),
            }),
            _ => Ok(()),
        }
    }

    fn write_header(&mut self) -> Result<()> {
        let bytes = self.header.encode();
        self.reserve(HEADER_LEN as u64)?;
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.write_all(&bytes))
            .and_then(|()| self.file.sync_data())
            .map_err(write_error(&self.partial, HEADER_LEN as u64))
    }

    /// Appends the next tier's table and records it in the header, each
    /// step synced to disk.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSpace`] and other I/O errors; [`DbError::Corrupt`] past
    /// the header's room for tiers.
    pub fn append(&mut self, table: &TierTable) -> Result<()> {
        if self.header.tiers.len() >= self.header.shape_box.cells().min(MAX_TIERS) {
            return Err(DbError::Corrupt {
                path: self.partial.clone(),
                what: "more tiers than the box has".into(),
            });
        }
        if self.header.version != VERSION_SLOTS {
            return Err(DbError::Corrupt {
                path: self.partial.clone(),
                what: "a table of slots for a compact file".into(),
            });
        }
        let offset = self.header.next_offset();
        let bytes: &[u8] = bytemuck::cast_slice(table.slots());
        let entry = TierEntry {
            positions: table.positions(),
            capacity: table.capacity(),
            slots: table.slots().len() as u64,
            offset,
            max_value: table.max_value(),
            crc32: crc32fast::hash(bytes),
        };
        self.append_section(entry, bytes)
    }

    fn append_section(&mut self, entry: TierEntry, bytes: &[u8]) -> Result<()> {
        if self.header.tiers.len() >= self.header.shape_box.cells().min(MAX_TIERS) {
            return Err(DbError::Corrupt {
                path: self.partial.clone(),
                what: "more tiers than the box has".into(),
            });
        }
        let offset = entry.offset;
        self.file.set_len(offset).map_err(io(&self.partial))?;
        self.reserve(entry.end())?;
        self.file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| self.file.write_all(bytes))
            .and_then(|()| self.file.sync_data())
            .map_err(write_error(&self.partial, bytes.len() as u64))?;
        self.header.tiers.push(entry);
        self.write_header()
    }

    /// Appends the next tier in compact form (the bytes of
    /// [`CompactTier::build`]) to a compact-format writer and records it in
    /// the header, each step synced to disk.
    ///
    /// # Errors
    ///
    /// As [`Writer::append`]; [`DbError::Corrupt`] for bytes that are not a
    /// compact tier or a writer of version 1.
    pub fn append_compact(&mut self, tier: &[u8]) -> Result<()> {
        let corrupt = |what: String| DbError::Corrupt {
            path: self.partial.clone(),
            what,
        };
        if self.header.version != VERSION {
            return Err(corrupt(format!(
                "a compact tier for a file of format version {}",
                self.header.version
            )));
        }
        let compact = CompactTier::from_bytes(tier).map_err(|e| corrupt(e.to_string()))?;
        let mut bytes = tier.to_vec();
        bytes.resize(tier.len().next_multiple_of(8), 0);
        let entry = TierEntry {
            positions: compact.positions(),
            capacity: tier.len() as u64,
            slots: bytes.len() as u64 / 8,
            offset: self.header.next_offset(),
            max_value: compact.max_value(),
            crc32: crc32fast::hash(&bytes),
        };
        self.append_section(entry, &bytes)
    }

    /// Marks the database complete, trims it to its last section and
    /// renames it into place, syncing the file and then the directory.
    ///
    /// # Errors
    ///
    /// I/O errors; [`DbError::Incomplete`] when tiers are missing.
    pub fn finish(mut self) -> Result<Header> {
        if self.header.tiers.len() != self.header.shape_box.cells() {
            return Err(DbError::Incomplete {
                path: self.partial.clone(),
                stored: self.header.tiers.len(),
                tiers: self.header.shape_box.cells(),
            });
        }
        self.header.complete = true;
        // A resume pads the file to the next section's start: a complete
        // file ends where its last section does.
        self.file
            .set_len(self.header.end())
            .map_err(io(&self.partial))?;
        self.write_header()?;
        self.file.sync_all().map_err(io(&self.partial))?;
        std::fs::rename(&self.partial, &self.path).map_err(io(&self.path))?;
        if let Some(dir) = self.path.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            // Make the rename itself durable; some filesystems refuse to
            // open a directory, which only loses that guarantee.
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        // The lock goes with the file, after the rename: a build that
        // opened the partial file meanwhile finds it renamed and starts a
        // new one.
        Ok(self.header)
    }

    /// Tests: writes past `limit` bytes fail as on a full disk.
    #[cfg(test)]
    fn set_space_limit(&mut self, limit: u64) {
        self.space_limit = Some(limit);
    }
}

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
fn whole_path(part: &Path) -> Option<PathBuf> {
    let name = part.file_name()?.to_str()?;
    let (stem, rest) = name.rsplit_once(".part-")?;
    let (_, ext) = rest.split_once('.')?;
    Some(part.with_file_name(format!("{stem}.{ext}")))
}

/// A database as one whole file, or as every part of a partitioned build:
/// lookups go to the part that owns the key.
#[derive(Debug)]
pub struct DbSet {
    path: PathBuf,
    /// Part `i` at index `i`; one database for a whole file.
    parts: Vec<Database>,
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

    /// The tables of tier `tier` (1-based), one per part, of a version-1
    /// database (none for a compact one: see [`DbSet::for_each_tier`]).
    pub fn tier(&self, tier: usize) -> impl Iterator<Item = &TierTable<Slots>> + '_ {
        self.parts
            .iter()
            .filter_map(move |p| p.tables().and_then(|t| t.tiers().get(tier.checked_sub(1)?)))
    }

    /// The format version of the parts (all the same, as opening checked).
    #[must_use]
    pub fn version(&self) -> u32 {
        self.parts[0].header().version
    }

    /// Shapes in tier `tier` (1-based), over all parts.
    #[must_use]
    pub fn positions(&self, tier: usize) -> u64 {
        self.parts
            .iter()
            .filter_map(|p| p.header().tiers.get(tier.checked_sub(1)?))
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
    fn value_of_key(&self, key: u64) -> Option<Nimber> {
        let part = owner(key, self.parts.len() as u32) as usize;
        self.parts[part].value_of_key(key)
    }

    /// How many shapes of `tier` (1-based) have each value (the index),
    /// over all parts, trailing zeros trimmed. Read from the values alone,
    /// in either version: a compact tier's entries are counted without
    /// regenerating a key ([`CompactTier::value_counts`]).
    #[must_use]
    pub fn value_counts(&self, tier: usize) -> Vec<u64> {
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
                    if let Some(table) = tier.checked_sub(1).and_then(|i| tables.tiers().get(i)) {
                        for (_, value) in table.iter() {
                            add(value.value() as usize, 1);
                        }
                    }
                }
                Store::Compact(tiers) => {
                    if let Some(compact) = tier.checked_sub(1).and_then(|i| tiers.get(i)) {
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
    /// [`DbError::Corrupt`]; so is a tier whose count differs.
    ///
    /// # Errors
    ///
    /// [`DbError::Corrupt`], or what `f` returns.
    pub fn for_each_tier<E: From<DbError>>(
        &self,
        mut f: impl FnMut(usize, &[Entry]) -> std::result::Result<(), E>,
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
            for tier in 1..=shape_box.cells() {
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
        for tier in 1..=shape_box.cells() {
            // The engine's tier of the shapes of `tier` cells.
            let index = game.tier_of_cells(tier);
            let table = generate_tier(&game, index, parent.as_ref(), &TierControl::new())
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
                    part.compact_tiers()
                        .and_then(|tiers| tiers.get(tier - 1))
                        .and_then(|t| t.get(key))
                        .and_then(|v| Entry::new(key, v.value()))
                        .ok_or_else(|| {
                            corrupt(
                                part.path(),
                                format!("tier {tier}: shape {key:#x} of the box is not found"),
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
    /// lookups look for it. For version 1: its table's layout (see
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
                let tier = i + 1;
                let corrupt = |what: String| DbError::Corrupt {
                    path: part.path().to_owned(),
                    what: format!("tier {tier}: {what}"),
                };
                table.check_layout().map_err(corrupt)?;
                if let Some((key, _)) = table.iter().find(|&(key, _)| {
                    key.count_ones() as usize != tier || owner(key, parts) as usize != index
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

fn parts_first_box(parts: &[Database], otherwise: ShapeBox) -> ShapeBox {
    parts.first().map_or(otherwise, |p| p.header().shape_box)
}

/// The part 0 of a partitioned build asked to write `path`, if there is
/// exactly one such build beside it.
fn find_first_part(path: &Path) -> Result<Option<PathBuf>> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Ok(None);
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(None);
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.contains(".part-0-of-"))
                && whole_path(p)
                    .is_some_and(|w| w.file_name().and_then(|n| n.to_str()) == Some(name))
        })
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
}

pub mod check;
pub mod convert;
pub mod discover;
pub mod meta;
mod solving;
pub mod store;

pub use store::{build, build_with, BuildFailed, BuiltFile, FileStore};

pub use convert::convert;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_compact;
