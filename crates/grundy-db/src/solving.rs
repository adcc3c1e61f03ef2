//! The solved stretches of the tier a build is solving, kept beside its
//! partial file (`<partial>.solving`), so that a build stopped in the
//! middle of a large tier (a budget, Ctrl-C, a killed process or a machine
//! that goes away) loses at most one stretch of it: on 4 x 10 a tier takes
//! the 2 cores 40 minutes, a stretch about one.
//!
//! **Format** (little-endian). A header: `GRUNDYSV`, version 1, the box's
//! rows and columns, the tier (0-based), the table's slots and positions,
//! the CRC-32 of the tier's keys in slot order (its layout: a table is laid
//! out by its keys alone, so a resumed build that regenerates them lays it
//! out the same), and the CRC-32 of those fields. Then one record a
//! stretch: its first slot and length, a value a slot (2 bytes, 0 for an
//! empty slot), and the CRC-32 of the record.
//!
//! **Trust.** Nothing is taken on faith: a header of another box, tier or
//! layout discards the file; records are taken in order while each starts
//! where the last ended, is whole, passes its CRC and fits the table
//! ([`TierTable::set_slot_values`]); the first that does not ends what is
//! kept, and the file is cut there before the build appends again. Each
//! record is synced before the build goes on. Only the build holding the
//! partial file's lock writes it, and it is deleted once the tier is
//! written to the partial file.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use grundy::clear::shapes::ShapeBox;
use grundy::tier::{Tier, TierTable};

use crate::DbError;

const MAGIC: &[u8; 8] = b"GRUNDYSV";
const VERSION: u32 = 1;
/// Magic, version, rows, cols, tier, slots, positions, layout CRC, CRC.
const HEADER_LEN: usize = 8 + 4 * 4 + 8 * 2 + 4 + 4;

/// The file of a partial file's solved stretches.
pub(crate) fn solving_path(partial: &Path) -> PathBuf {
    let mut name = partial.as_os_str().to_owned();
    name.push(".solving");
    PathBuf::from(name)
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> DbError + '_ {
    move |error| DbError::Io {
        path: path.to_owned(),
        error,
    }
}

/// The solved stretches of one tier, being kept.
#[derive(Debug)]
pub(crate) struct Solving {
    path: PathBuf,
    file: File,
    tier: Tier,
    /// Slots kept so far (the next record starts here).
    end: usize,
    /// Slots of the tier's table.
    slots: usize,
}

/// The header a table of `tier` in `shape_box` has: its fields and CRC.
fn header(shape_box: ShapeBox, tier: Tier, table: &TierTable) -> Vec<u8> {
    let mut keys = crc32fast::Hasher::new();
    // In blocks: one call a key costs several times the hashing.
    let mut block = Vec::with_capacity(8 * 4096);
    for key in table.keys() {
        block.extend_from_slice(&key.to_le_bytes());
        if block.len() == block.capacity() {
            keys.update(&block);
            block.clear();
        }
    }
    keys.update(&block);
    let mut bytes = Vec::with_capacity(HEADER_LEN);
    bytes.extend_from_slice(MAGIC);
    for word in [
        VERSION,
        shape_box.rows() as u32,
        shape_box.cols() as u32,
        tier.get(),
    ] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(&(table.slots().len() as u64).to_le_bytes());
    bytes.extend_from_slice(&table.positions().to_le_bytes());
    bytes.extend_from_slice(&keys.finalize().to_le_bytes());
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(bytes.len(), HEADER_LEN);
    bytes
}

/// The stretch records of `file` (after its header) that fit `table`, set
/// in it, and the bytes they take: read until the first that does not
/// start where the last ended, is cut short, fails its CRC or does not fit.
fn restore(file: &File, table: &mut TierTable) -> std::io::Result<(usize, u64)> {
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let (mut end, mut bytes) = (0usize, HEADER_LEN as u64);
    let slots = table.slots().len();
    loop {
        let mut head = [0u8; 16];
        if reader.read_exact(&mut head).is_err() {
            break;
        }
        let start = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
        let len = u64::from_le_bytes(head[8..].try_into().expect("8 bytes"));
        if start != end as u64 || len == 0 || len > (slots - end) as u64 {
            break;
        }
        let mut body = vec![0u8; 2 * len as usize + 4];
        if reader.read_exact(&mut body).is_err() {
            break;
        }
        let (values, crc) = body.split_at(2 * len as usize);
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&head);
        hasher.update(values);
        if hasher.finalize().to_le_bytes() != crc {
            break;
        }
        let values: Vec<u16> = values
            .chunks_exact(2)
            .map(|v| u16::from_le_bytes([v[0], v[1]]))
            .collect();
        if table.set_slot_values(end, &values).is_err() {
            break;
        }
        end += len as usize;
        bytes += 16 + body.len() as u64;
    }
    Ok((end, bytes))
}

impl Solving {
    /// Opens the stretches kept for `tier` beside `partial`, restores those
    /// that fit `table` into it (see the module's trust rules) and keeps
    /// the file open to append after them; a missing file, or one of
    /// another box, tier or layout, is started afresh.
    pub(crate) fn open(
        partial: &Path,
        shape_box: ShapeBox,
        tier: Tier,
        table: &mut TierTable,
    ) -> Result<Solving, DbError> {
        let path = solving_path(partial);
        let expected = header(shape_box, tier, table);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io(&path))?;
        let mut found = vec![0u8; HEADER_LEN];
        let same = file.read_exact(&mut found).is_ok() && found == expected;
        let (end, bytes) = if same {
            restore(&file, table).map_err(io(&path))?
        } else {
            file.set_len(0).map_err(io(&path))?;
            file.seek(SeekFrom::Start(0)).map_err(io(&path))?;
            file.write_all(&expected).map_err(io(&path))?;
            (0, HEADER_LEN as u64)
        };
        // Whatever followed the last good record goes before appending.
        file.set_len(bytes).map_err(io(&path))?;
        file.seek(SeekFrom::Start(bytes)).map_err(io(&path))?;
        file.sync_data().map_err(io(&path))?;
        Ok(Solving {
            path,
            file,
            tier,
            end,
            slots: table.slots().len(),
        })
    }

    /// Slots restored or kept so far.
    pub(crate) fn end(&self) -> usize {
        self.end
    }

    /// Slots of the tier's table.
    pub(crate) fn slots(&self) -> usize {
        self.slots
    }

    /// The tier whose stretches these are.
    pub(crate) fn tier(&self) -> Tier {
        self.tier
    }

    /// Appends the values of `table`'s slots in `solved` (starting where
    /// the last record ended), synced.
    pub(crate) fn keep(
        &mut self,
        table: &TierTable,
        solved: std::ops::Range<usize>,
    ) -> Result<(), DbError> {
        if solved.start != self.end || solved.is_empty() {
            return Err(DbError::Corrupt {
                path: self.path.clone(),
                what: format!(
                    "slots {}..{} kept after {}: stretches are kept in order",
                    solved.start, solved.end, self.end
                ),
            });
        }
        let mut record = Vec::with_capacity(16 + 2 * solved.len() + 4);
        record.extend_from_slice(&(solved.start as u64).to_le_bytes());
        record.extend_from_slice(&(solved.len() as u64).to_le_bytes());
        for value in table.slot_values(solved.clone()) {
            record.extend_from_slice(&value.to_le_bytes());
        }
        let crc = crc32fast::hash(&record);
        record.extend_from_slice(&crc.to_le_bytes());
        self.file
            .write_all(&record)
            .and_then(|()| self.file.sync_data())
            .map_err(io(&self.path))?;
        self.end = solved.end;
        Ok(())
    }

    /// Deletes the file: its tier is written.
    pub(crate) fn remove(self) -> Result<(), DbError> {
        drop(self.file);
        remove(&self.path)
    }
}

/// Deletes the stretches kept beside `partial`, if any.
pub(crate) fn remove_beside(partial: &Path) -> Result<(), DbError> {
    remove(&solving_path(partial))
}

fn remove(path: &Path) -> Result<(), DbError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(path)(e)),
        _ => Ok(()),
    }
}
