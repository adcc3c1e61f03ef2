//! A database read back: the file mapped (or bytes in the binary), every
//! section checked, the tiers served in place.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use grundy::clear::shapes::ShapeTables;
use grundy::tier::{CompactTier, Tier, TierTable};
use grundy::Nimber;

use crate::error::*;
use crate::format::*;
use crate::header::*;

/// The bytes of a database: a memory-mapped file, an array in the binary,
/// or a copy in memory (in `u64`s, for their alignment) of that many bytes.
#[derive(Debug)]
pub(crate) enum Bytes {
    Mapped(memmap2::Mmap),
    Static(&'static [u8]),
    Owned(Vec<u64>, usize),
}

impl Bytes {
    pub(crate) fn as_slice(&self) -> &[u8] {
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
    pub(crate) bytes: Arc<Bytes>,
    pub(crate) start: usize,
    pub(crate) len: usize,
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
    pub(crate) bytes: Arc<Bytes>,
    pub(crate) start: usize,
    pub(crate) len: usize,
}

impl AsRef<[u8]> for Section {
    fn as_ref(&self) -> &[u8] {
        &self.bytes.as_slice()[self.start..self.start + self.len]
    }
}

/// A database's tiers as its format stores them.
#[derive(Debug)]
pub(crate) enum Store {
    /// Version 1: tables of 8-byte slots.
    Slots(ShapeTables<Slots>),
    /// Version 2: compact tiers, tier 1 first.
    Compact(Vec<CompactTier<Section>>),
}

/// A shape database read back: its header and tables.
#[derive(Debug)]
pub struct Database {
    pub(crate) path: PathBuf,
    pub(crate) header: Header,
    pub(crate) bytes: Arc<Bytes>,
    pub(crate) store: Store,
}

impl Database {
    /// Maps the file at `path` and checks it: header, layout, and every
    /// section's checksum.
    ///
    /// # Errors
    ///
    /// [`DbError::Incomplete`] for a build that has not finished, and the
    /// errors of [`Header::decode`] and of the sections' checksums.
    pub fn open(path: &Path) -> Result<Database> {
        // Looked at before opening: opening a FIFO waits for a writer, and
        // a device (`/dev/zero`) has no length to bound the read of a
        // short file. Opening a directory succeeds, and mapping it fails
        // with a "no such device" that names no cause.
        let kind = std::fs::metadata(path).map_err(io(path))?.file_type();
        if kind.is_dir() {
            return Err(io(path)(std::io::ErrorKind::IsADirectory.into()));
        }
        if !kind.is_file() {
            return Err(io(path)(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file (a database is a file that `grundy tables build` wrote)",
            )));
        }
        let file = File::open(path).map_err(io(path))?;
        let metadata = file.metadata().map_err(io(path))?;
        let len = metadata.len();
        if len < HEADER_LEN as u64 {
            // At most the header's length, whatever the file became since.
            let mut start = Vec::new();
            (&file)
                .take(HEADER_LEN as u64)
                .read_to_end(&mut start)
                .map_err(io(path))?;
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

    pub(crate) fn from_bytes(path: &Path, bytes: Bytes) -> Result<Database> {
        let all = bytes.as_slice();
        let header = Header::decode(all, all.len() as u64, path)?;
        if !header.complete {
            return Err(DbError::Incomplete {
                path: path.to_owned(),
                stored: header.tiers.len(),
                tiers: header.shape_box.cells(),
                running: crate::writer::held_by_a_build(path),
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
                            what: format!("tier {}: {what}", Tier::at(i)),
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
                        what: format!("tier {}: {e}", Tier::at(i)),
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
    /// (see [`DbSet::for_each_tier`](crate::DbSet::for_each_tier) to read every shape of either).
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
    pub(crate) fn value_of_key(&self, key: u64) -> Option<Nimber> {
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
pub(crate) fn check_sections(path: &Path, all: &[u8], header: &Header) -> Result<()> {
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
                section: format!("tier {}", Tier::at(i)),
            });
        }
        check_section(header.version, t, section)
            .map_err(|what| corrupt(format!("section tier {}: {what}", Tier::at(i))))?;
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
pub(crate) fn check_section(
    version: u32,
    t: &TierEntry,
    section: &[u8],
) -> std::result::Result<(), String> {
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
            "a compact tier of {} shape{} up to value {}, its directory entry says {} up to {}",
            tier.positions(),
            if tier.positions() == 1 { "" } else { "s" },
            tier.max_value(),
            t.positions,
            t.max_value
        ));
    }
    Ok(())
}

/// Maps a database file for reading.
#[allow(unsafe_code)]
pub(crate) fn map(file: &File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is only read, and this project never changes a
    // database file in place: builds write `PATH.partial` and rename it over
    // `PATH`, which leaves a mapped old file's inode as it was. Another
    // program truncating the file under us could fault the process; that is
    // the accepted cost of serving gigabyte tables without copying them
    // (`cargo bench -p grundy-bench --bench open`: opening the 5 x 5
    // database mapped and reading one value, against reading the file into
    // memory first; figures in docs/benchmarks.md).
    unsafe { memmap2::Mmap::map(file) }
}
