//! `grundy_db`'s reader over arbitrary bytes: `Header::decode` and
//! `Database::from_copy` (the checks of `Database::open`, without the file),
//! then what `tables info`, `checksum` and lookups do with an accepted file.
//! Each input is read twice: as it is, and with its checksums recomputed,
//! so the fuzzer gets past the CRCs to the layout and count checks behind
//! them. A crafted file must be an error, never a panic, and an accepted
//! one must hold no more shapes than its bytes can (8 bytes a shape in
//! version 1, over 1 in version 2). Both format versions: a compact
//! (version 2) file's shapes are regenerated from the box and looked up.
#![no_main]

use grundy::tier::Tier;
use grundy_db::{Database, DbError, DbSet, Header, HEADER_LEN, MAX_TIERS, VERSION_SLOTS};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The input with every checksum it names recomputed (sections whose
/// entry points inside the input, then the header).
fn with_checksums(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < HEADER_LEN {
        return None;
    }
    let mut b = data.to_vec();
    let stored = (u32_at(&b, 40) as usize).min(MAX_TIERS);
    for i in 0..stored {
        let at = 64 + i * 48;
        let (slots, offset) = (u64_at(&b, at + 16), u64_at(&b, at + 24));
        let end = slots.checked_mul(8).and_then(|n| n.checked_add(offset));
        if let Some(end) = end.filter(|&e| e <= b.len() as u64 && offset <= e) {
            let crc = crc32fast::hash(&b[offset as usize..end as usize]);
            b[at + 36..at + 40].copy_from_slice(&crc.to_le_bytes());
        }
    }
    let crc = crc32fast::hash(&b[..HEADER_LEN - 4]);
    b[HEADER_LEN - 4..HEADER_LEN].copy_from_slice(&crc.to_le_bytes());
    Some(b)
}

fn read(data: &[u8]) {
    let _ = Header::decode(data, data.len() as u64, Path::new("fuzz.gdb"));
    let Ok(db) = Database::from_copy("fuzz.gdb", data) else {
        return;
    };
    let header = db.header().clone();
    assert!(header.complete);
    assert_eq!(header.tiers.len(), header.shape_box.cells());
    assert_eq!(header.end(), data.len() as u64);
    let set = DbSet::whole(db);
    let shape_box = set.shape_box();
    // What `tables info` prints: counts, largest values, full boards.
    let mut shapes = 0u64;
    for tier in Tier::all(shape_box.cells()) {
        shapes = shapes
            .checked_add(set.positions(tier))
            .expect("no overflow");
    }
    let per_shape = if set.version() == VERSION_SLOTS { 8 } else { 1 };
    assert!(
        shapes <= data.len() as u64 / per_shape,
        "{shapes} shapes in {} bytes",
        data.len()
    );
    for a in 1..=shape_box.rows() {
        for b in a..=shape_box.cols() {
            let _ = set.full_board(a, b);
        }
    }
    // `tables checksum` and `export`: every tier's entries, whose count
    // must be the header's when they can be read at all; `verify`'s layout
    // check, after which every stored key is found with its value; boards
    // of stored keys (as `verify` builds them); lookups of input words.
    let _ = set.content_crc();
    let sound = set.check_layout().is_ok();
    let listed = set.for_each_tier(|tier, entries| {
        let count = entries.len() as u64;
        assert_eq!(
            count,
            set.positions(tier),
            "tier {tier}: header and slots disagree"
        );
        for &entry in entries.iter().take(64) {
            let (key, value) = (entry.key(), entry.value().value());
            let found = set.get(key);
            // `get` answers shapes of the box only (cells inside it, one
            // component, canonical), which a crafted version-1 file with a
            // sound layout may still not hold.
            let is_shape = shape_box
                .board(key)
                .and_then(|b| shape_box.key_of_board(&b))
                == Some(key);
            if sound && is_shape {
                assert_eq!(found.map(|v| v.value()), Some(value), "stored key {key:#x}");
            }
            let _ = shape_box.board(key);
        }
        Ok::<(), DbError>(())
    });
    if set.version() == VERSION_SLOTS {
        // Version 1 lists its slots whatever they hold.
        assert!(listed.is_ok());
    }
    for chunk in data.chunks_exact(8).take(64) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap());
        let _ = set.get(word);
    }
}

fuzz_target!(|data: &[u8]| {
    read(data);
    if let Some(fixed) = with_checksums(data) {
        read(&fixed);
    }
});
