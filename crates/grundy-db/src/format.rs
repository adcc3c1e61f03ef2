//! The file format of shape databases, versions 1 and 2 (one format: its
//! description and its constants; the code that reads and writes it is in
//! `header`, `database`, `writer` and `set`).
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
//! | 16 | game, 8 bytes (`clear` and zeros), from [`TierGame::id`](grundy::tier::TierGame::id) |
//! | 24, 28 | the game's parameters, for clearing the box: rows, columns (`u32`, rows <= columns) |
//! | 32 | tiers of the box (`u32`, rows x columns) |
//! | 36 | complete (`u32`, 1 once every tier is stored) |
//! | 40 | tiers stored so far (`u32`, a prefix: tier 1 to this) |
//! | 44, 48 | part index and number of parts (`u32`; both 0 for a whole database) |
//! | 56 | build id (`u64`, shared by the parts of one build; 0 for a whole database) |
//! | 64 | one 48-byte entry per tier: positions, capacity, slots, offset (`u64` each), largest value, CRC-32 of the section (`u32` each), 8 zero bytes |
//! | 4092 | CRC-32 of bytes 0 to 4091 |
//!
//! In version 1 a section is the tier's [`TierTable`](grundy::tier::TierTable) slots, 8 bytes each
//! (about 10.7 bytes a shape). In version 2 it is the tier's
//! [`CompactTier`](grundy::tier::CompactTier) (a minimal-size perfect hash of the tier's shapes, and in
//! each shape's slot its value and fingerprint bits: about 1.9 bytes a
//! shape, see `grundy::tier::compact`), zero-padded to a multiple of 8
//! bytes; the entry's `capacity` field holds the compact tier's byte length
//! and `slots` the section's 8-byte words. Checksums are CRC-32 (IEEE) by
//! `crc32fast`, over the whole section, padding included.
//!
//! **What a compact file, which stores no keys, answers.** A key is looked
//! up only once it is known to be a shape of the box: [`ShapeLookup`](grundy::clear::shapes::ShapeLookup) gets
//! keys from [`ShapeBox::key_of`](grundy::clear::shapes::ShapeBox::key_of) and [`ShapeBox::key_of_wide`](grundy::clear::shapes::ShapeBox::key_of_wide), which refuse
//! a shape that does not fit the box and canonicalise one that does, and
//! [`DbSet::get`](crate::DbSet::get) checks a raw key the same way (cells inside the box, one
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
//! [`DbSet::check_layout`](crate::DbSet::check_layout) (`tables verify`) regenerates every shape of the
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
//! is a [`DbError`](crate::DbError), never a panic or an absurd count. A checksum cannot
//! tell a crafted value whose checksums were recomputed: `grundy tables
//! verify` re-solves values by an independent search for that.
//!
//! **Writing.** A build writes `PATH.partial` and holds an exclusive lock
//! on it (`fs4`, `flock` on Unix) for its whole life: a second build of the
//! same path fails at once with [`DbError::Busy`](crate::DbError::Busy) and never touches the
//! file. Each tier's section is appended and synced, then the header is
//! rewritten to count it and synced, so a build killed at any moment leaves
//! every tier the header counts intact, and [`Writer::create_or_resume`](crate::Writer::create_or_resume)
//! carries on from there; a partial file whose header is unreadable (a
//! 0-byte file left by a full disk, say) is started afresh, with a note
//! ([`Writer::note`](crate::Writer::note)). The last step marks the header complete, trims the
//! file to its last section, syncs it, renames it to `PATH` and syncs the
//! directory, so `PATH` is always either the old file or a complete new
//! one: a file at `PATH`, which readers may have mapped, is never truncated
//! or rewritten in place. The layout depends only on the box (tables are
//! laid out by key, see [`TierTable`](grundy::tier::TierTable)), so a resumed build writes the same
//! bytes as an uninterrupted one. A full disk is [`DbError::NoSpace`](crate::DbError::NoSpace),
//! naming the file and the bytes it needed, wherever it happens.
//!
//! **Reading.** [`Database::open`](crate::Database::open) maps the file, checks the header, the
//! layout and every section's checksum, and serves the slots (version 1) or
//! the compact tiers (version 2) in place, without copying.
//!
//! **Partitioned databases.** A build over `P` processes (MPI ranks) writes
//! one file per rank, `STEM.part-R-of-P.gdb`: the same format, holding the
//! shapes that rank owns ([`grundy::tier::owner`] of the key), with the
//! part's index, the number of parts and the build's id in the header.
//! [`DbSet::open`](crate::DbSet::open) opens all the parts of a build (given any part, or the
//! path the build was asked to write) and checks that they belong
//! together; [`DbSet`](crate::DbSet) answers lookups by asking the owning part.

/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"GRUNDYDB";
/// The format version this crate writes by default: compact tiers.
pub const VERSION: u32 = 2;
/// The first format version, of 8-byte slots, still read and written.
pub const VERSION_SLOTS: u32 = 1;
/// Bytes of the header; sections start on multiples of it.
pub const HEADER_LEN: usize = 4096;
pub(crate) const DIRECTORY: usize = 64;
pub(crate) const ENTRY_LEN: usize = 48;
/// The most tiers a header lists.
pub const MAX_TIERS: usize = (HEADER_LEN - 4 - DIRECTORY) / ENTRY_LEN;
pub(crate) const ALIGN: u64 = HEADER_LEN as u64;
