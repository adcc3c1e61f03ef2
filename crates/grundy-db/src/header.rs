//! The header of a database file: its fields, their encoding and their
//! checks against the box and the file.

use std::path::Path;

use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{capacity_for, CompactTier, GameId, TierGame};

use crate::error::*;
use crate::format::*;

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
    pub(crate) fn end(&self) -> u64 {
        self.offset.saturating_add(self.slots.saturating_mul(8))
    }
}

/// The most shapes a tier of `cells` cells can hold in a box of `box_cells`
/// cells: `C(box_cells, cells)`, the subsets of that size (saturating).
pub(crate) fn max_shapes(box_cells: usize, cells: usize) -> u64 {
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

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Header {
    pub(crate) fn new(shape_box: ShapeBox) -> Header {
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
    pub(crate) fn next_offset(&self) -> u64 {
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
    pub(crate) fn decode_with(
        b: &[u8],
        file_len: u64,
        path: &Path,
        strict: bool,
    ) -> Result<Header> {
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
        if shape_box.rows() != rows {
            // A build names its box rows first, the fewer first.
            return Err(corrupt(format!(
                "box {rows} x {cols}: more rows than columns (a database names its box {shape_box})"
            )));
        }
        if u32_at(b, 32) as usize != shape_box.cells() {
            return Err(corrupt(format!(
                "{} tiers, the {shape_box} box has {}",
                u32_at(b, 32),
                shape_box.cells()
            )));
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
            0 => {
                return Err(corrupt(format!(
                    "a whole database (0 parts) with part index {index} and build id {build_id}, which only a part has"
                )))
            }
            _ => {
                return Err(corrupt(format!(
                    "part {index} of {parts}: a part's index must be below its count of at least 2"
                )))
            }
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
                        "a compact tier of {} bytes in {} words for {} shape{}",
                        entry.capacity,
                        entry.slots,
                        entry.positions,
                        if entry.positions == 1 { "" } else { "s" }
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

pub(crate) fn truncated(path: &Path, what: &str, needed: u64, len: u64) -> DbError {
    DbError::Truncated {
        path: path.to_owned(),
        what: what.to_owned(),
        needed,
        len,
    }
}
