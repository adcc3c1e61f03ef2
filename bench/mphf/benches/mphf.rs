//! `grundy::tier::CompactTier` (hand-written: per-part PTHash with 8-bit
//! pilots and eviction, values and fingerprints in the slots) against
//! `ptr_hash` (PtrHash, the same family, as a crate) plus the same packed
//! values, and against the version-1 `TierTable` of 8-byte slots. What is
//! measured: bits a key (printed), build ns a key, query ns one key at a
//! time and in batches of 16 (every record prefetched, then every location
//! with its entry prefetched, then the reads, as the tier worker does), and opening a tier in place from a checksummed
//! section (CRC-32 of the bytes plus the layout checks).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use grundy::tier::table::slot;
use grundy::tier::{CompactTier, TierTable, TierValues};
use ptr_hash::{DefaultPtrHash, PtrHashParams};
use std::hint::black_box;

const N: u64 = 2_000_000;

fn keys(n: u64) -> Vec<u64> {
    // Distinct 40-bit keys, spread like shape keys (sparse in their range).
    (1..=n)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24) | 1 << 41)
        .collect()
}

fn value(key: u64) -> u32 {
    (key % 41) as u32
}

/// `ptr_hash` with the values (and, as in the compact tier, fingerprint
/// bits) packed in 12-bit fields by its minimal index.
struct PtrHashTier {
    hash: DefaultPtrHash,
    fields: Vec<u8>,
}

impl PtrHashTier {
    fn build(keys: &[u64]) -> PtrHashTier {
        let hash = DefaultPtrHash::new(keys, PtrHashParams::default());
        let mut fields = vec![0u8; (keys.len() * 12).div_ceil(8) + 8];
        for &k in keys {
            let i = hash.index(&k);
            let bit = i * 12;
            let field = (u64::from(value(k)) | (k >> 30 & 0x3F) << 6) << (bit % 8);
            for (j, b) in field.to_le_bytes().iter().take(3).enumerate() {
                fields[bit / 8 + j] |= b;
            }
        }
        PtrHashTier { hash, fields }
    }

    fn get(&self, key: u64) -> Option<u32> {
        let bit = self.hash.index(&key) * 12;
        let w = u64::from_le_bytes(self.fields[bit / 8..bit / 8 + 8].try_into().unwrap());
        let field = (w >> (bit % 8)) & 0xFFF;
        (field >> 6 == key >> 30 & 0x3F).then_some((field & 0x3F) as u32)
    }
}

fn bench(c: &mut Criterion) {
    let keys = keys(N);
    let table = TierTable::from_entries(keys.iter().map(|&k| slot(k, value(k))).collect()).unwrap();
    let compact_bytes = CompactTier::build(&table).unwrap();
    let compact = CompactTier::from_bytes(&compact_bytes[..]).unwrap();
    let ptr = PtrHashTier::build(&keys);
    let (pilots, remap) = ptr.hash.bits_per_element();
    eprintln!(
        "bits a key: compact tier {:.2} (hash and 12-bit fields), ptr_hash {:.2} + 12-bit fields = {:.2}, table of slots {:.2}",
        compact_bytes.len() as f64 * 8.0 / N as f64,
        pilots + remap,
        pilots + remap + 12.0,
        table.slots().len() as f64 * 64.0 / N as f64,
    );
    // Every key answers its value.
    for &k in keys.iter().step_by(97) {
        assert_eq!(compact.get(k).map(|v| v.value()), Some(value(k)));
        assert_eq!(ptr.get(k), Some(value(k)));
    }
    // Queries in a random order.
    let mut order = keys.clone();
    let mut x = 1u64;
    for i in (1..order.len()).rev() {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        order.swap(i, (x >> 33) as usize % (i + 1));
    }
    let queries = &order[..1 << 16];

    let mut g = c.benchmark_group("build");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N));
    g.bench_function("compact tier", |b| b.iter(|| CompactTier::build(&table).unwrap()));
    g.bench_function("ptr_hash + fields", |b| b.iter(|| PtrHashTier::build(&keys)));
    g.finish();

    let mut g = c.benchmark_group("query one by one");
    g.throughput(Throughput::Elements(queries.len() as u64));
    g.bench_function("compact tier", |b| {
        b.iter(|| queries.iter().map(|&k| compact.value(k).unwrap_or(0)).sum::<u32>())
    });
    g.bench_function("ptr_hash + fields", |b| {
        b.iter(|| queries.iter().map(|&k| ptr.get(k).unwrap_or(0)).sum::<u32>())
    });
    g.bench_function("table of slots", |b| {
        b.iter(|| queries.iter().map(|&k| table.value(k).unwrap_or(0)).sum::<u32>())
    });
    g.finish();

    let mut g = c.benchmark_group("query in batches of 16");
    g.throughput(Throughput::Elements(queries.len() as u64));
    fn batched<V: TierValues>(tier: &V, queries: &[u64]) -> u32 {
        let mut sum = 0;
        for chunk in queries.chunks(16) {
            let mut at = [0usize; 16];
            for &k in chunk {
                tier.prefetch_key(k);
            }
            for (i, &k) in chunk.iter().enumerate() {
                at[i] = tier.locate(k);
                tier.prefetch(at[i]);
            }
            for (i, &k) in chunk.iter().enumerate() {
                sum += tier.value_at(k, at[i]).unwrap_or(0);
            }
        }
        sum
    }
    g.bench_function("compact tier", |b| b.iter(|| batched(&compact, queries)));
    g.bench_function("table of slots", |b| b.iter(|| batched(&table, queries)));
    g.bench_function("ptr_hash + fields", |b| {
        b.iter(|| {
            let mut sum = 0;
            for chunk in queries.chunks(16) {
                let mut at = [0usize; 16];
                for (i, k) in chunk.iter().enumerate() {
                    at[i] = ptr.hash.index(k) * 12;
                    black_box(ptr.fields[at[i] / 8]);
                }
                for (i, &k) in chunk.iter().enumerate() {
                    let bit = at[i];
                    let w = u64::from_le_bytes(ptr.fields[bit / 8..bit / 8 + 8].try_into().unwrap());
                    let field = (w >> (bit % 8)) & 0xFFF;
                    if field >> 6 == k >> 30 & 0x3F {
                        sum += (field & 0x3F) as u32;
                    }
                }
            }
            sum
        })
    });
    g.finish();

    // Opening in place: the section's CRC, then the layout checks; no copy.
    let mut g = c.benchmark_group("open in place");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N));
    g.bench_function("compact tier (crc32 + checks)", |b| {
        b.iter_batched(
            || (),
            |()| {
                let crc = crc32fast::hash(&compact_bytes);
                let tier = CompactTier::from_bytes(&compact_bytes[..]).unwrap();
                tier.check().unwrap();
                (crc, tier.positions())
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
