use super::hash::{table_hash, table_unhash};
use super::table::{slot, slot_key, slot_value};
use super::*;
use crate::Nimber;

#[test]
fn table_unhash_inverts_table_hash() {
    for key in [1u64, 2, 3, 0xdead_beef, MAX_KEY, 1 << 40, 12345678901] {
        assert_eq!(table_unhash(table_hash(key)), key);
    }
}

#[test]
fn table_finds_every_key_and_no_other() {
    let keys: Vec<u64> = (1..5000u64).map(|k| k * 7919 % 100_003 + 1).collect();
    let table = TierTable::from_keys(keys.clone()).unwrap();
    assert_eq!(table.positions(), keys.len() as u64);
    for &k in &keys {
        assert_eq!(table.get(k), Some(Nimber::ZERO));
    }
    let present: std::collections::HashSet<u64> = keys.iter().copied().collect();
    for k in 1..120_000u64 {
        if !present.contains(&k) {
            assert_eq!(table.get(k), None, "{k}");
        }
    }
    assert_eq!(*table.slots().last().unwrap(), 0);
}

#[test]
fn layout_does_not_depend_on_key_order() {
    let keys: Vec<u64> = (1..3000u64).map(|k| k * 104_729).collect();
    let mut reversed = keys.clone();
    reversed.reverse();
    let a = TierTable::from_keys(keys).unwrap();
    let b = TierTable::from_keys(reversed).unwrap();
    assert_eq!(a.slots(), b.slots());
}

#[test]
fn bad_keys_are_refused() {
    assert_eq!(
        TierTable::from_keys(vec![0]).unwrap_err(),
        TierError::BadKey { key: 0 }
    );
    assert!(TierTable::from_keys(vec![MAX_KEY + 1]).is_err());
}

/// Subtraction game "take 1, 2 or 3" with heaps as tiers (heap `n` in
/// tier `n - 1`): value n mod 4.
struct Take123 {
    heaps: u32,
}

/// Each of `tables`, tier `n - 1`, gives heap `n` of [`Take123`] its
/// value, n mod 4.
fn assert_take123_values(tables: &[TierTable]) {
    for (i, table) in tables.iter().enumerate() {
        let n = i as u64 + 1;
        assert_eq!(table.get(n), Some(Nimber::new((n % 4) as u32)), "heap {n}");
    }
}

impl TierGame for Take123 {
    fn id(&self) -> GameId {
        GameId::new("take123", [self.heaps, 0])
    }
    fn tier_count(&self) -> usize {
        self.heaps as usize
    }
    fn tier_of(&self, position: u64) -> Tier {
        Tier::at(position as usize - 1)
    }
    fn parent_tier(&self, tier: Tier) -> Option<Tier> {
        tier.previous()
    }
    fn generate<E: FnMut(u64)>(&self, tier: Tier, _parent: Option<u64>, mut emit: E) {
        emit(u64::from(tier.number()));
    }
    fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, mut option: F) {
        for take in 1..=3.min(position) {
            if position == take {
                option(Nimber::ZERO, &[]);
            } else {
                option(Nimber::ZERO, &[position - take]);
            }
        }
    }
}

#[test]
fn solves_a_subtraction_game() {
    let tables = solve_all(&Take123 { heaps: 40 });
    assert_eq!(tables.len(), 40);
    assert_take123_values(&tables);
}

#[test]
fn from_entries_lays_out_as_from_keys() {
    let keys: Vec<u64> = (1..4000u64)
        .map(|k| k * 2_654_435_761 % 1_000_003 + 1)
        .collect();
    let by_keys = TierTable::from_keys(keys.clone()).unwrap();
    let mut entries: Vec<u64> = keys
        .iter()
        .rev()
        .map(|&k| slot(k, (k % 7) as u32))
        .collect();
    entries.rotate_left(1234);
    let by_entries = TierTable::from_slot_words(entries).unwrap();
    for (a, b) in by_keys.slots().iter().zip(by_entries.slots()) {
        assert_eq!(slot_key(*a), slot_key(*b));
        if *b != 0 {
            assert_eq!(u64::from(slot_value(*b)), slot_key(*b) % 7);
        }
    }
    assert_eq!(by_keys.slots().len(), by_entries.slots().len());
    assert!(TierTable::from_slot_words(vec![5]).is_err());
    let mut typed: Vec<Entry> = by_entries.entries().collect();
    typed.reverse();
    let by_typed = TierTable::from_entries(typed).unwrap();
    assert_eq!(by_typed.slots(), by_entries.slots());
}

#[test]
fn an_entry_holds_its_key_and_value() {
    for (key, value) in [(1, 0), (MAX_KEY, MAX_VALUE), (0x1234, 7)] {
        let entry = Entry::new(key, value).unwrap();
        assert_eq!((entry.key(), entry.value().value()), (key, value));
        assert_eq!(Entry::from_word(entry.word()), Some(entry));
    }
    assert_eq!(Entry::new(0, 1), None);
    assert_eq!(Entry::new(MAX_KEY + 1, 1), None);
    assert_eq!(Entry::new(1, MAX_VALUE + 1), None);
    assert_eq!(Entry::from_word(5), None);
    let low = Entry::new(2, MAX_VALUE).unwrap();
    assert!(low < Entry::new(3, 0).unwrap(), "entries order by key");
}

#[test]
fn owners_spread_keys_evenly() {
    for parts in [1u32, 2, 3, 7] {
        let mut counts = vec![0u32; parts as usize];
        for key in 1..=30_000u64 {
            counts[owner(key, parts) as usize] += 1;
        }
        let even = 30_000 / parts;
        for &c in &counts {
            assert!(c.abs_diff(even) < even / 10 + 50, "{parts}: {counts:?}");
        }
    }
}

/// Valuing by batches, with lookups in other tables, gives what the
/// tier solver stored, position by position.
#[test]
fn option_batches_value_as_solve_tier() {
    let game = Take123 { heaps: 30 };
    let mut tables: Vec<TierTable> = Vec::new();
    solve_tiers::<_, TierError, _>(&game, &mut tables, &TierControl::new(), |_, _| Ok(())).unwrap();
    for (i, table) in tables.iter().enumerate() {
        let mut batch = OptionBatch::new();
        for (key, _) in table.iter() {
            batch.push(&game, key);
        }
        let values = batch
            .values(Tier::at(i), |child| {
                tables[child as usize - 1].get(child).map(Nimber::value)
            })
            .unwrap();
        let solved: Vec<u32> = table.iter().map(|(_, v)| v.value()).collect();
        assert_eq!(values, solved);
        assert_eq!(batch.positions().len(), 1);
    }
    let mut batch = OptionBatch::new();
    batch.push(&game, 9);
    assert!(matches!(
        batch.values(Tier::new(9), |_| None),
        Err(TierError::MissingChild { .. })
    ));
}

/// The build loop in one process with a memory store gives the tiers
/// solved one by one above, and resumes from a prefix to the same tables.
#[test]
fn the_build_loop_solves_and_resumes_in_memory() {
    let game = Take123 { heaps: 25 };
    let control = TierControl::new();
    let mut store = MemoryStore::new();
    let built = build(&game, &mut store, &Solo, &BuildConfig::default(), &control).unwrap();
    assert_eq!(built.own.len(), 25);
    assert_eq!(built.resumed, 0);
    assert_take123_values(&built.own);
    let prefix: Vec<TierTable> = built.own[..9].to_vec();
    let mut store = MemoryStore::with_tiers(prefix);
    let resumed = build(&game, &mut store, &Solo, &BuildConfig::default(), &control).unwrap();
    assert_eq!(resumed.resumed, 9);
    assert_eq!(resumed.tiers.len(), 16);
    for (a, b) in built.own.iter().zip(&resumed.own) {
        assert_eq!(a.slots(), b.slots());
    }
}

/// A game whose tier grows from a later tier is refused, not looped on.
#[test]
fn a_parent_after_its_tier_is_refused() {
    struct Backwards;
    impl TierGame for Backwards {
        fn id(&self) -> GameId {
            GameId::new("back", [0, 0])
        }
        fn tier_count(&self) -> usize {
            2
        }
        fn tier_of(&self, _: u64) -> Tier {
            Tier::FIRST
        }
        fn parent_tier(&self, tier: Tier) -> Option<Tier> {
            (tier == Tier::FIRST).then_some(Tier::new(1))
        }
        fn generate<E: FnMut(u64)>(&self, _: Tier, _: Option<u64>, _: E) {}
        fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, _: u64, _: F) {}
    }
    let err = build(
        &Backwards,
        &mut MemoryStore::new(),
        &Solo,
        &BuildConfig::default(),
        &TierControl::new(),
    )
    .err()
    .unwrap();
    assert_eq!(
        err.to_string(),
        "tier 1 grows from tier 2, which is not solved before it"
    );
}

/// Take 1, 2 or 3 with tier `t` grown from tier `t - 2`: the loop keeps a
/// tier's keys past its sealing (the parent of a tier two on), and on
/// resume regenerates them from the stored prefix.
#[test]
fn a_parent_two_tiers_back_is_kept_and_regenerated() {
    struct TakeSkip;
    impl TierGame for TakeSkip {
        fn id(&self) -> GameId {
            GameId::new("takeskip", [20, 0])
        }
        fn tier_count(&self) -> usize {
            20
        }
        fn tier_of(&self, position: u64) -> Tier {
            Tier::at(position as usize - 1)
        }
        fn parent_tier(&self, tier: Tier) -> Option<Tier> {
            match tier.get() {
                0 => None,
                1 => Some(Tier::FIRST),
                t => Some(Tier::new(t - 2)),
            }
        }
        fn generate<E: FnMut(u64)>(&self, tier: Tier, _parent: Option<u64>, mut emit: E) {
            emit(u64::from(tier.number()));
        }
        fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, option: F) {
            Take123 { heaps: 20 }.for_each_option(position, option);
        }
    }
    let control = TierControl::new();
    let built = build(
        &TakeSkip,
        &mut MemoryStore::new(),
        &Solo,
        &BuildConfig::default(),
        &control,
    )
    .unwrap();
    for (i, t) in built.own.iter().enumerate() {
        let n = i as u64 + 1;
        assert_eq!(
            (t.positions(), t.get(n)),
            (1, Some(Nimber::new((n % 4) as u32)))
        );
    }
    for prefix in [1, 2, 7, 20] {
        let mut store = MemoryStore::with_tiers(built.own[..prefix].to_vec());
        let resumed = build(
            &TakeSkip,
            &mut store,
            &Solo,
            &BuildConfig::default(),
            &control,
        )
        .unwrap();
        assert_eq!(resumed.resumed, prefix);
        for (a, b) in built.own.iter().zip(&resumed.own) {
            assert_eq!(a.slots(), b.slots(), "resumed from {prefix}");
        }
    }
}

mod compact {
    use super::super::compact::{CompactError, CompactTier, HEADER_LEN};
    use super::super::table::slot;
    use super::super::{TierTable, TierValues};

    /// The length a tier's compact form is estimated at before a build is
    /// the length it is built at, to within 0.5%.
    #[test]
    fn the_estimated_length_is_the_built_one() {
        for n in [1_000u64, 100_000, 1_000_000] {
            let built = CompactTier::build(&sample(n, 40)).unwrap().len() as f64;
            let estimate = CompactTier::estimated_len(n) as f64;
            assert!(
                (estimate - built).abs() / built < 0.005,
                "{n} positions: estimated {estimate}, built {built}"
            );
        }
    }

    /// A table of `n` pseudo-random distinct keys with values below `top`.
    fn sample(n: u64, top: u32) -> TierTable {
        let entries: Vec<u64> = (1..=n)
            .map(|i| {
                let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 14 | 1 << 49;
                slot(key, (key % u64::from(top)) as u32)
            })
            .collect();
        TierTable::from_slot_words(entries).unwrap()
    }

    #[test]
    fn every_key_reads_back_its_value_and_others_mostly_none() {
        for n in [0u64, 1, 2, 255, 256, 257, 5000, 200_000] {
            let table = sample(n, 41);
            let bytes = CompactTier::build(&table).unwrap_or_else(|e| panic!("n {n}: {e}"));
            let tier = CompactTier::from_bytes(&bytes[..]).unwrap();
            tier.check().unwrap();
            assert_eq!(tier.positions(), n);
            for (key, value) in table.iter() {
                assert_eq!(tier.get(key), Some(value), "n {n} key {key:#x}");
                assert_eq!(TierValues::value(&tier, key), Some(value.value()));
            }
            if n >= 5000 {
                // Keys of no tier: found only through a fingerprint collision.
                let false_hits = (1..=n)
                    .filter(|&k| table.get(k).is_none() && tier.get(k).is_some())
                    .count() as f64;
                let rate = false_hits / n as f64;
                let expected = 0.5f64.powi(tier.fingerprint_bits() as i32);
                assert!(rate < expected * 1.5, "rate {rate}, expected {expected}");
                let bits = bytes.len() as f64 * 8.0 / n as f64;
                assert!(bits <= 16.0, "{bits} bits a key");
            }
        }
    }

    #[test]
    fn bytes_do_not_depend_on_threads() {
        let table = sample(100_000, 7);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let four = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let a = one.install(|| CompactTier::build(&table).unwrap());
        let b = four.install(|| CompactTier::build(&table).unwrap());
        assert_eq!(a, b);
        let mut entries: Vec<super::Entry> = table.entries().collect();
        entries.reverse();
        assert_eq!(CompactTier::build_from_entries(&entries).unwrap(), a);
    }

    #[test]
    fn damaged_bytes_are_refused() {
        let table = sample(3000, 5);
        let bytes = CompactTier::build(&table).unwrap();
        let layout = |r: Result<CompactTier<&[u8]>, CompactError>| {
            matches!(r.and_then(|t| t.check()), Err(CompactError::Layout { .. }))
        };
        assert!(layout(CompactTier::from_bytes(&bytes[..bytes.len() - 1])));
        assert!(layout(CompactTier::from_bytes(&bytes[..10])));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(layout(CompactTier::from_bytes(&longer[..])));
        for at in [0usize, 8, 16, 24, 25, 30, 33, 40, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 1;
            assert!(layout(CompactTier::from_bytes(&bad[..])), "byte {at}");
        }
        // A record's start or count.
        for at in [HEADER_LEN + 64, HEADER_LEN + 64 + 4] {
            let mut bad = bytes.clone();
            bad[at] ^= 1;
            assert!(layout(CompactTier::from_bytes(&bad[..])), "byte {at}");
        }
        // Any byte, flipped: lookups never panic.
        for at in (0..bytes.len()).step_by(7) {
            let mut bad = bytes.clone();
            bad[at] ^= 0xA5;
            if let Ok(tier) = CompactTier::from_bytes(&bad[..]) {
                for (key, _) in table.iter().take(50) {
                    let _ = tier.get(key);
                }
            }
        }
    }
}

/// A store in memory keeping only compact views, as the database file's
/// store does: each tier compacted when written, its view the compact form.
#[derive(Default)]
struct CompactStore {
    stored: Vec<CompactTier>,
    written: Option<Vec<u8>>,
}

impl TierStore for CompactStore {
    type Error = CompactError;
    type Values = CompactTier;

    fn stored(&self) -> usize {
        self.stored.len()
    }

    fn resume(&mut self, tiers: usize, _build_id: u64) -> Result<Vec<CompactTier>, CompactError> {
        self.stored.truncate(tiers);
        Ok(std::mem::take(&mut self.stored))
    }

    fn write(
        &mut self,
        _tier: Tier,
        table: &TierTable,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), CompactError> {
        self.written = Some(CompactTier::build_until(table, stop)?);
        Ok(())
    }

    fn seal(&mut self, _tier: Tier, _table: TierTable) -> Result<CompactTier, CompactError> {
        CompactTier::from_bytes(self.written.take().expect("written before sealed"))
    }
}

impl CompactStore {
    /// Seals `tier` as [`TierStore::seal`] does and keeps its view among
    /// the stored ones, as a store that resumes from them must.
    fn seal_and_keep(&mut self, tier: Tier, table: TierTable) -> Result<CompactTier, CompactError> {
        let view = self.seal(tier, table)?;
        self.stored.push(view.clone());
        Ok(view)
    }
}

/// A whole build of `game` into `store` in one process, with the default
/// configuration and no limits: the views of its tiers.
fn build_compact<G: TierGame>(game: &G, store: &mut CompactStore) -> Vec<CompactTier> {
    build(
        game,
        store,
        &Solo,
        &BuildConfig::default(),
        &TierControl::new(),
    )
    .unwrap()
    .own
}

/// Asserts that two builds gave as many tiers, each of the same bytes.
fn assert_same_views(a: &[CompactTier], b: &[CompactTier]) {
    assert_eq!(b.len(), a.len());
    for (a, b) in a.iter().zip(b) {
        assert_eq!(a.bytes(), b.bytes());
    }
}

/// The one build loop keeping only compact views (the keys of a sealed
/// tier dropped) gives every shape the value the in-memory build gives,
/// and a resumed build (keys regenerated from the views' tiers) the same
/// bytes.
#[test]
fn stored_views_solve_as_tables_and_resume_to_the_same_bytes() {
    use crate::clear::shapes::{ClearShapes, ShapeBox};
    let game = ClearShapes::new(ShapeBox::new(4, 4).unwrap());
    let mut tables: Vec<TierTable> = Vec::new();
    solve_tiers::<_, TierError, _>(&game, &mut tables, &TierControl::new(), |_, _| Ok(())).unwrap();
    let views = build_compact(&game, &mut CompactStore::default());
    assert_eq!(views.len(), tables.len());
    for (table, view) in tables.iter().zip(&views) {
        assert_eq!(view.positions(), table.positions());
        for (key, value) in table.iter() {
            assert_eq!(view.get(key), Some(value));
        }
    }
    let resumed = build_compact(
        &game,
        &mut CompactStore {
            stored: views[..9].to_vec(),
            written: None,
        },
    );
    assert_same_views(&views, &resumed);
}

/// A store whose writing takes long gives up when the build's budget runs
/// out in the middle of it, and the build ends as stopped (not as a store
/// failure), keeping the tiers written before; resumed, it writes the
/// bytes an uninterrupted build writes.
#[test]
fn a_budget_spent_while_a_tier_is_written_stops_the_build() {
    use crate::clear::shapes::{ClearShapes, ShapeBox};
    use std::sync::atomic::{AtomicBool, Ordering};
    /// The compact store, cancelling the build as it writes tier `at`.
    struct Cancelling<'a> {
        inner: CompactStore,
        cancel: &'a AtomicBool,
        at: Tier,
        asked: bool,
    }
    impl TierStore for Cancelling<'_> {
        type Error = CompactError;
        type Values = CompactTier;
        fn stored(&self) -> usize {
            self.inner.stored()
        }
        fn resume(&mut self, tiers: usize, id: u64) -> Result<Vec<CompactTier>, CompactError> {
            self.inner.resume(tiers, id)
        }
        fn write(
            &mut self,
            tier: Tier,
            table: &TierTable,
            stop: &(dyn Fn() -> bool + Sync),
        ) -> Result<(), CompactError> {
            if tier == self.at {
                self.cancel.store(true, Ordering::Relaxed);
                self.asked = true;
            }
            self.inner.write(tier, table, stop)
        }
        fn seal(&mut self, tier: Tier, table: TierTable) -> Result<CompactTier, CompactError> {
            self.inner.seal_and_keep(tier, table)
        }
    }
    let game = ClearShapes::new(ShapeBox::new(4, 4).unwrap());
    let whole = build_compact(&game, &mut CompactStore::default());
    // The build itself checks the flag only between chunks of work; what
    // stops it here is the store's own check, in the middle of the write.
    let cancel = AtomicBool::new(false);
    let mut control = TierControl::new();
    control.cancel = Some(&cancel);
    let mut store = Cancelling {
        inner: CompactStore::default(),
        cancel: &cancel,
        at: Tier::new(12),
        asked: false,
    };
    let stopped = build(&game, &mut store, &Solo, &BuildConfig::default(), &control);
    assert!(store.asked);
    assert!(
        matches!(stopped, Err(BuildError::Tier(TierError::Cancelled))),
        "stopped as cancelled, not as a store failure"
    );
    assert!(store.inner.written.is_none(), "nothing of tier 12 was kept");
    let kept = store.inner.stored.len();
    assert!(kept <= 12, "only tiers before the stopped one: {kept}");
    let resumed = build_compact(&game, &mut store.inner);
    assert_same_views(&whole, &resumed);
}

/// A memory budget asked before each large allocation stops the build
/// before the first tier whose keys or table would pass it, as a budget
/// (not a failure); resumed without it, the build writes the bytes of
/// one never stopped. The budget here counts the
/// announced allocations alone, as an oracle that needs no measure of the
/// process: a 4 x 4 tier's table passes 1 KiB from about a hundred shapes.
#[test]
fn a_memory_budget_stops_the_build_before_the_allocation_that_passes_it() {
    use crate::clear::shapes::{ClearShapes, ShapeBox};
    use std::sync::Mutex;
    const LIMIT: u64 = 1 << 10;
    let game = ClearShapes::new(ShapeBox::new(4, 4).unwrap());
    let whole = build_compact(&game, &mut CompactStore::default());
    let largest = Mutex::new(0u64);
    let memory = |extra: u64| {
        let mut largest = largest.lock().unwrap();
        if extra > LIMIT {
            return Some((LIMIT, extra));
        }
        *largest = (*largest).max(extra);
        None
    };
    let mut control = TierControl::new();
    control.memory = Some(&memory);
    let mut store = CompactStore::default();
    let stopped = build(&game, &mut store, &Solo, &BuildConfig::default(), &control);
    match stopped {
        Err(BuildError::Tier(TierError::MemoryBudget { limit, used })) => {
            assert_eq!(limit, LIMIT);
            assert!(used > LIMIT);
        }
        Err(e) => panic!("stopped otherwise: {e}"),
        Ok(_) => panic!("not stopped"),
    }
    let allowed = *largest.lock().unwrap();
    assert!(allowed > 0 && allowed <= LIMIT, "{allowed}");
    assert!(store.stored.len() < 16, "a tier was left unbuilt");
    let resumed = build_compact(&game, &mut store);
    assert_same_views(&whole, &resumed);
}

/// [`CompactTier::build_until`] gives up at once when told to, and builds
/// the bytes [`CompactTier::build`] does when never told to.
#[test]
fn a_compact_build_stops_when_asked() {
    use super::compact::{CompactError, CompactTier};
    let table = TierTable::from_keys((1..5000u64).map(|k| k * 7919).collect()).unwrap();
    assert!(matches!(
        CompactTier::build_until(&table, &|| true),
        Err(CompactError::Stopped)
    ));
    assert_eq!(
        CompactTier::build_until(&table, &|| false).unwrap(),
        CompactTier::build(&table).unwrap()
    );
}

/// A build of one part stopped in the middle of a tier keeps the stretches
/// it solved ([`TierStore::keep_solved`]); resumed, it restores them
/// ([`TierStore::solved_prefix`]), solves only the stretches after them,
/// and writes the bytes an uninterrupted build writes.
#[test]
fn a_build_stopped_inside_a_tier_resumes_after_its_kept_stretches() {
    use crate::clear::shapes::{ClearShapes, ShapeBox};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;
    /// The compact store, keeping the stretches of the tier under way.
    #[derive(Default)]
    struct Keeping {
        inner: CompactStore,
        /// The tier under way and the values of its kept slots.
        kept: Option<(Tier, Vec<u16>)>,
        restored: Vec<(Tier, usize)>,
    }
    impl TierStore for Keeping {
        type Error = CompactError;
        type Values = CompactTier;
        fn stored(&self) -> usize {
            self.inner.stored()
        }
        fn resume(&mut self, tiers: usize, id: u64) -> Result<Vec<CompactTier>, CompactError> {
            self.inner.resume(tiers, id)
        }
        fn write(
            &mut self,
            tier: Tier,
            table: &TierTable,
            stop: &(dyn Fn() -> bool + Sync),
        ) -> Result<(), CompactError> {
            self.kept = None;
            self.inner.write(tier, table, stop)
        }
        fn solved_prefix(
            &mut self,
            tier: Tier,
            table: &mut TierTable,
        ) -> Result<usize, CompactError> {
            match &self.kept {
                Some((t, values)) if *t == tier => {
                    table.set_slot_values(0, values).unwrap();
                    self.restored.push((tier, values.len()));
                    Ok(values.len())
                }
                _ => {
                    self.kept = Some((tier, Vec::new()));
                    Ok(0)
                }
            }
        }
        fn keep_solved(
            &mut self,
            tier: Tier,
            table: &TierTable,
            solved: std::ops::Range<usize>,
        ) -> Result<(), CompactError> {
            let (t, values) = self.kept.as_mut().expect("opened before kept");
            assert_eq!(*t, tier);
            assert_eq!(solved.start, values.len(), "stretches in order");
            values.extend(table.slot_values(solved));
            Ok(())
        }
        fn seal(&mut self, tier: Tier, table: TierTable) -> Result<CompactTier, CompactError> {
            self.inner.seal_and_keep(tier, table)
        }
    }
    let game = ClearShapes::new(ShapeBox::new(4, 4).unwrap());
    let whole = build_compact(&game, &mut CompactStore::default());
    let (stop_tier, stop_round) = (Tier::new(10), 3);
    let cancel = AtomicBool::new(false);
    let rounds = Mutex::new(Vec::new());
    let on_round = |tier: Tier, round: usize, of: usize| {
        rounds.lock().unwrap().push((tier, round, of));
        if (tier, round) == (stop_tier, stop_round) {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let config = BuildConfig {
        progress_slots: 64,
        on_round: Some(&on_round),
        ..BuildConfig::default()
    };
    let mut control = TierControl::new();
    control.cancel = Some(&cancel);
    let mut store = Keeping::default();
    let stopped = build(&game, &mut store, &Solo, &config, &control);
    assert!(matches!(
        stopped,
        Err(BuildError::Tier(TierError::Cancelled))
    ));
    let (tier, values) = store.kept.clone().expect("a tier under way");
    assert_eq!(tier, stop_tier);
    assert_eq!(
        values.len(),
        64 * stop_round,
        "the stretches before the stop"
    );
    assert!(values.iter().any(|&v| v != 0), "solved values were kept");
    let of = rounds.lock().unwrap().last().unwrap().2;
    assert!(of > stop_round + 1, "the tier has stretches after the stop");

    rounds.lock().unwrap().clear();
    cancel.store(false, Ordering::Relaxed);
    let reported = Mutex::new(Vec::new());
    let report = |p: TierProgress| {
        if let TierProgress::Restored { tier, slots, .. } = p {
            reported.lock().unwrap().push((tier, slots));
        }
    };
    let mut control = TierControl::new();
    control.progress = Some(&report);
    let resumed = build(&game, &mut store, &Solo, &config, &control)
        .unwrap()
        .own;
    assert_eq!(store.restored, vec![(stop_tier, 64 * stop_round)]);
    assert_eq!(*reported.lock().unwrap(), store.restored, "reported");
    let first_round = rounds
        .lock()
        .unwrap()
        .iter()
        .find(|r| r.0 == stop_tier)
        .copied();
    assert_eq!(
        first_round,
        Some((stop_tier, stop_round, of)),
        "the kept stretches are not solved again"
    );
    assert_same_views(&whole, &resumed);
}

/// The values a store keeps come back as they were; a stretch that does
/// not fit is refused and leaves the table as it was.
#[test]
fn slot_values_round_trip_and_misfits_are_refused() {
    let keys: Vec<u64> = (1..300u64).map(|k| k * 7919).collect();
    let mut table = TierTable::from_keys(keys).unwrap();
    let len = table.slots().len();
    let values: Vec<u16> = table
        .slots()
        .iter()
        .enumerate()
        .map(|(i, &s)| if s == 0 { 0 } else { (i % 4096) as u16 })
        .collect();
    table.set_slot_values(0, &values).unwrap();
    assert_eq!(table.slot_values(0..len), values);
    let before = table.slots().to_vec();
    let empty = table.slots().iter().position(|&s| s == 0).unwrap();
    assert!(table.set_slot_values(empty, &[1]).is_err(), "an empty slot");
    let full = table.slots().iter().position(|&s| s != 0).unwrap();
    assert!(
        table.set_slot_values(full, &[4096]).is_err(),
        "over 12 bits"
    );
    assert!(
        table.set_slot_values(len - 1, &[0, 0]).is_err(),
        "past the end"
    );
    assert_eq!(table.slots(), &before[..]);
}

/// A game valued in another order: every rule but `solve_order` is
/// `inner`'s.
struct Ordered<G> {
    inner: G,
    order: fn(u64) -> u64,
}

impl<G: TierGame> TierGame for Ordered<G> {
    fn id(&self) -> GameId {
        self.inner.id()
    }
    fn tier_count(&self) -> usize {
        self.inner.tier_count()
    }
    fn tier_of(&self, position: u64) -> Tier {
        self.inner.tier_of(position)
    }
    fn parent_tier(&self, tier: Tier) -> Option<Tier> {
        self.inner.parent_tier(tier)
    }
    fn generate<E: FnMut(u64)>(&self, tier: Tier, parent: Option<u64>, emit: E) {
        self.inner.generate(tier, parent, emit);
    }
    fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, option: F) {
        self.inner.for_each_option(position, option);
    }
    fn solve_order(&self, position: u64) -> u64 {
        (self.order)(position)
    }
}

/// Every tier of `game`, generated and solved one after another.
fn solve_all<G: TierGame>(game: &G) -> Vec<TierTable> {
    let control = TierControl::new();
    let mut tables: Vec<TierTable> = Vec::new();
    for tier in Tier::all(game.tier_count()) {
        let parent = game.parent_tier(tier).map(|t| &tables[t.index()]);
        let mut table = generate_tier(game, tier, parent, &control).unwrap();
        let earlier: Vec<Option<&TierTable>> = tables.iter().map(Some).collect();
        solve_tier(game, tier, &mut table, &earlier, &control).unwrap();
        tables.push(table);
    }
    tables
}

/// The order positions are valued in changes no value: the 4 x 5 box's
/// tables valued in clearing's order (its rows reversed), in the default
/// order (the key's bits reversed), and in slot order (every order word
/// equal, so the sort keeps the slots' order) are the same, slot for
/// slot; so are those of orders whose words use every bit (only their
/// top bits are kept).
#[test]
fn the_solve_order_changes_no_value() {
    use crate::clear::shapes::{ClearShapes, ShapeBox};
    let clear = ClearShapes::new(ShapeBox::new(4, 5).unwrap());
    let slot_order = solve_all(&Ordered {
        inner: clear,
        order: |_| 0,
    });
    // A tier of more than one chunk of positions (4,096), valued on
    // rayon's threads.
    let largest = slot_order.iter().map(TierTable::positions).max();
    assert!(largest > Some(4096), "{largest:?}");
    for order in [
        (|p: u64| p.reverse_bits()) as fn(u64) -> u64,
        |p| !p,
        |p| p.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    ] {
        let tables = solve_all(&Ordered {
            inner: clear,
            order,
        });
        for (a, b) in slot_order.iter().zip(&tables) {
            assert_eq!(a.slots(), b.slots());
        }
    }
    for (a, b) in slot_order.iter().zip(&solve_all(&clear)) {
        assert_eq!(a.slots(), b.slots());
    }
    // And against the subtraction game's known values, in every order.
    let tables = solve_all(&Ordered {
        inner: Take123 { heaps: 40 },
        order: |p| !p,
    });
    assert_eq!(tables.len(), 40);
    assert_take123_values(&tables);
}

/// The one tier numbering: indices from 0 in the API, shown from 1.
#[test]
fn tiers_are_indices_shown_from_one() {
    let all: Vec<Tier> = Tier::all(3).collect();
    assert_eq!(all, [Tier::new(0), Tier::new(1), Tier::new(2)]);
    assert_eq!(all.iter().map(|t| t.index()).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(format!("{:>3}", Tier::FIRST), "  1");
    assert_eq!(Tier::from_number(0), None);
    assert_eq!(Tier::from_number(5), Some(Tier::at(4)));
    assert_eq!(Tier::FIRST.previous(), None);
    assert_eq!(Tier::new(7).previous(), Some(Tier::new(6)));
    assert_eq!(Tier::new(7).number(), 8);
}
