//! The partitioned build against the single-process one, shape by shape,
//! with ranks as threads ([`LocalComm`]).

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use grundy::clear::shapes::{ClearShapes, ShapeBox};
use grundy::tier::{
    solve_tiers, Entry, MemoryStore, Tier, TierControl, TierError, TierGame, TierTable,
};
use grundy::Nimber;
use grundy_db::DbSet;

use super::*;

/// The single-process build: the oracle.
fn single(shape_box: ShapeBox) -> Vec<TierTable> {
    let mut tables = Vec::new();
    solve_tiers::<_, TierError, _>(
        &ClearShapes::new(shape_box),
        &mut tables,
        &TierControl::new(),
        |_, _| Ok(()),
    )
    .unwrap();
    tables
}

/// Runs `build` of the `shape_box` database on `ranks` threads, each with
/// options from `opts(rank)` and its part file.
fn run<F>(ranks: u32, shape_box: ShapeBox, opts: F) -> Vec<Result<Report, DistError>>
where
    F: Fn(u32) -> Options<'static> + Send + Sync + 'static,
{
    run_box(ranks, move |rank| (shape_box, opts(rank)))
}

/// As [`run`], every rank with the options of `out` as `edit` changes
/// them.
fn run_out<F>(
    ranks: u32,
    shape_box: ShapeBox,
    out: &Path,
    edit: F,
) -> Vec<Result<Report, DistError>>
where
    F: Fn(&mut Options<'static>) + Send + Sync + 'static,
{
    let out = out.to_owned();
    run(ranks, shape_box, move |_| {
        let mut opts = Options::new(out.clone());
        edit(&mut opts);
        opts
    })
}

/// A cancel flag, and a build log that raises it at the first line that
/// starts with `prefix`; both leaked, as [`Options`] holds them for the
/// whole run.
fn cancel_at_line(prefix: &'static str) -> (&'static AtomicBool, &'static (dyn Fn(&str) + Sync)) {
    let cancel: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let log: &'static (dyn Fn(&str) + Sync) = Box::leak(Box::new(move |line: &str| {
        if line.starts_with(prefix) {
            cancel.store(true, Ordering::Relaxed);
        }
    }));
    (cancel, log)
}

/// As [`run`], each rank with its own box (to test mismatches).
fn run_box<F>(ranks: u32, opts: F) -> Vec<Result<Report, DistError>>
where
    F: Fn(u32) -> (ShapeBox, Options<'static>) + Send + Sync + 'static,
{
    let opts = Arc::new(opts);
    let handles: Vec<_> = LocalComm::group(ranks)
        .into_iter()
        .map(|comm| {
            let opts = Arc::clone(&opts);
            std::thread::spawn(move || {
                let (shape_box, opts) = opts(comm.rank());
                let game = ClearShapes::new(shape_box);
                build(&game, &comm, &opts, |r, n| {
                    open_part_file(&opts.out, shape_box, r, n)
                })
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

/// Each rank's part kept in memory, for builds whose files do not matter.
fn in_memory(_rank: u32, _parts: u32) -> Result<MemoryStore, std::convert::Infallible> {
    Ok(MemoryStore::new())
}

/// The one-process build of any game's tiers, in memory: the oracle for
/// games other than clear's shapes.
fn single_in_memory<G: TierGame>(game: &G) -> Vec<TierTable> {
    grundy::tier::build(
        game,
        &mut MemoryStore::new(),
        &grundy::tier::Solo,
        &grundy::tier::BuildConfig::default(),
        &TierControl::new(),
    )
    .unwrap()
    .own
}

/// Runs `build` of `game` on `ranks` threads, each rank's part in memory,
/// every rank with the options of an output it never writes, as `edit`
/// changes them.
fn run_in_memory<G, F>(ranks: u32, game: G, edit: F) -> Vec<Result<Report, DistError>>
where
    G: TierGame + Clone + Send + 'static,
    F: Fn(&mut Options<'static>) + Send + Sync + 'static,
{
    let edit = Arc::new(edit);
    let handles: Vec<_> = LocalComm::group(ranks)
        .into_iter()
        .map(|comm| {
            let (game, edit) = (game.clone(), Arc::clone(&edit));
            std::thread::spawn(move || {
                let mut opts = Options::new("unused".into());
                edit(&mut opts);
                build(&game, &comm, &opts, in_memory)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

/// The full boards of a box and their keys, for [`Options::report_keys`].
fn full_board_keys(shape_box: ShapeBox) -> (Vec<(usize, usize)>, Vec<u64>) {
    (1..=shape_box.rows())
        .flat_map(|a| (a..=shape_box.cols()).map(move |c| (a, c)))
        .filter_map(|(a, c)| Some(((a, c), shape_box.full_key(a, c)?)))
        .unzip()
}

/// The database at `out` holds exactly `expected`: every tier, joined from
/// its parts (either format), has the single build's table.
fn assert_same(out: &Path, expected: &[TierTable]) {
    let set = DbSet::open(out).unwrap();
    assert_eq!(set.shape_box().cells(), expected.len());
    let lists = grundy_db::check::tier_entries(&set).unwrap();
    for (i, want) in expected.iter().enumerate() {
        let joined: Vec<Entry> = lists
            .iter()
            .filter(|(t, _)| *t == Tier::at(i))
            .flat_map(|(_, e)| e.iter().filter_map(|&word| Entry::from_word(word)))
            .collect();
        let joined = TierTable::from_entries(joined).unwrap();
        assert_eq!(joined.slots(), want.slots(), "tier {}", i + 1);
    }
}

fn boxed(a: usize, b: usize) -> ShapeBox {
    ShapeBox::new(a, b).unwrap()
}

#[test]
fn every_rank_count_and_exchange_gives_the_single_build() {
    let shape_box = boxed(4, 4);
    let expected = single(shape_box);
    for ranks in 1..=3u32 {
        for exchange in [Exchange::Replicate, Exchange::Query, Exchange::Auto] {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join("clear-4x4.gdb");
            let results = run_out(ranks, shape_box, &out, move |o| {
                o.exchange = exchange;
                // Room for the lower tiers only: auto switches mid-build.
                o.memory = Some(4096);
                o.batch = 100;
                o.round_bytes = 512;
            });
            for r in &results {
                let report = r.as_ref().unwrap();
                assert_eq!(report.ranks, ranks);
                let queried = report.tiers.iter().filter(|t| t.queried).count();
                match (ranks, exchange) {
                    (1, _) | (_, Exchange::Replicate) => assert_eq!(queried, 0),
                    (_, Exchange::Query) => assert_eq!(queried, 15, "all but tier 1"),
                    (_, Exchange::Auto) => assert!(queried > 0 && queried < 15, "{queried}"),
                }
            }
            assert_same(&out, &expected);
        }
    }
}

#[test]
fn one_rank_writes_the_single_build_file() {
    let shape_box = boxed(3, 5);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("one.gdb");
    run_out(1, shape_box, &out, |_| {})[0].as_ref().unwrap();
    let single_file = dir.path().join("single.gdb");
    grundy_db::build(&single_file, shape_box, &TierControl::new(), |_| {}).unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&single_file).unwrap()
    );
}

#[test]
fn five_by_five_over_three_ranks_matches_and_reports_full_boards() {
    let shape_box = boxed(5, 5);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clear-5x5.gdb");
    let (boards, keys) = full_board_keys(shape_box);
    let results = run_out(3, shape_box, &out, move |opts| {
        opts.memory = Some(1 << 20);
        opts.report_keys = keys.clone();
    });
    let report = results[0].as_ref().unwrap();
    assert_same(&out, &expected);
    let tables = grundy::clear::shapes::ShapeTables::new(shape_box, expected).unwrap();
    assert!(!boards.is_empty());
    for (&(a, b), v) in boards.iter().zip(&report.values) {
        assert_eq!(v.map(Nimber::new), tables.full_board(a, b), "{a} x {b}");
    }
    // Every shape once over the ranks: the single build's count.
    let single_count: u64 = tables.tiers().iter().map(TierTable::positions).sum();
    assert_eq!(report.own_shapes.iter().sum::<u64>(), single_count);
    assert!(report.sent.iter().all(|&s| s > 0));
}

/// A box longer than 8 (built in a wide frame) over 2 ranks, querying:
/// the single build's tables and full boards.
#[test]
fn a_wide_box_over_two_ranks_matches_the_single_build() {
    let shape_box = boxed(2, 12);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clear-2x12.gdb");
    let (boards, keys) = full_board_keys(shape_box);
    let results = run_out(2, shape_box, &out, move |opts| {
        opts.exchange = Exchange::Query;
        opts.report_keys = keys.clone();
    });
    let report = results[0].as_ref().unwrap();
    assert_same(&out, &expected);
    let tables = grundy::clear::shapes::ShapeTables::new(shape_box, expected).unwrap();
    assert!(boards.contains(&(2, 12)));
    for (&(a, b), v) in boards.iter().zip(&report.values) {
        assert_eq!(v.map(Nimber::new), tables.full_board(a, b), "{a} x {b}");
    }
}

#[test]
fn mismatched_options_stop_every_rank() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.gdb");
    let results = run_box(2, move |rank| {
        (boxed(3, 3 + rank as usize), Options::new(out.clone()))
    });
    for r in results {
        match r {
            Err(DistError::Mismatch(m)) => {
                assert!(m.contains("rank 1 was given other options"), "{m}")
            }
            other => panic!("{other:?}"),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.gdb");
    let results = run(2, boxed(3, 3), move |rank| {
        let mut o = Options::new(out.clone());
        o.binary = u64::from(rank);
        o
    });
    for r in results {
        assert!(matches!(r, Err(DistError::Mismatch(m)) if m.contains("another grundy binary")));
    }
}

#[test]
fn a_stopped_build_resumes_to_the_same_database() {
    let shape_box = boxed(4, 4);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.gdb");
    let (cancel, log) = cancel_at_line("tier  6:");
    let results = run_out(3, shape_box, &out, move |opts| {
        opts.cancel = Some(cancel);
        opts.log = Some(log);
        opts.exchange = Exchange::Query;
    });
    for r in results {
        match r {
            Err(DistError::Stopped { reason, kept }) => {
                assert_eq!((reason, kept), (TierError::Cancelled, 6));
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(DbSet::open(&out).is_err(), "no complete database yet");
    cancel.store(false, Ordering::Relaxed);
    let results = run_out(3, shape_box, &out, |opts| opts.exchange = Exchange::Query);
    for r in &results {
        assert_eq!(r.as_ref().unwrap().resumed, 6);
    }
    assert_same(&out, &expected);
}

#[test]
fn a_part_from_another_build_restarts_every_part() {
    let shape_box = boxed(3, 4);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.gdb");
    let (cancel, log) = cancel_at_line("tier  4:");
    let results = run_out(2, shape_box, &out, move |opts| {
        opts.cancel = Some(cancel);
        opts.log = Some(log);
    });
    assert!(results
        .iter()
        .all(|r| matches!(r, Err(DistError::Stopped { kept: 4, .. }))));
    // Rank 1's partial file is lost: nothing can be resumed, and the log
    // says so.
    std::fs::remove_file(grundy_db::partial_path(&grundy_db::part_path(&out, 1, 2))).unwrap();
    cancel.store(false, Ordering::Relaxed);
    let lines: &'static std::sync::Mutex<Vec<String>> =
        Box::leak(Box::new(std::sync::Mutex::new(Vec::new())));
    let log: &'static (dyn Fn(&str) + Sync) = Box::leak(Box::new(|line: &str| {
        lines.lock().unwrap().push(line.to_owned());
    }));
    let results = run_out(2, shape_box, &out, move |opts| opts.log = Some(log));
    for r in &results {
        assert_eq!(r.as_ref().unwrap().resumed, 0);
    }
    assert_same(&out, &expected);
    let lines = lines.lock().unwrap();
    assert_eq!(
        lines[0],
        "starting afresh from tier 1: part 1 of 2 keeps no tier (its partial file is missing or empty) while part 0 of 2 keeps tiers 1 to 4, and a build resumes only from tiers every part keeps",
        "{lines:?}"
    );
}

/// Why a build starts afresh: a part that keeps nothing, or one of another
/// build; nothing to say when every part resumes or none keeps a tier.
#[test]
fn the_note_of_a_fresh_start_names_the_part() {
    assert_eq!(afresh_note(&[4, 4], &[7, 7]), None);
    assert_eq!(afresh_note(&[0, 0], &[7, 9]), None);
    assert_eq!(afresh_note(&[4], &[7]), None);
    let foreign = afresh_note(&[4, 4, 3], &[7, 7, 9]).unwrap();
    assert!(
        foreign.contains("part 2 of 3 is of another build than part 0"),
        "{foreign}"
    );
}

/// The lines and messages a user reads: no stray space, plurals right,
/// options as a command line gives them.
#[test]
fn tier_lines_and_options_read_as_words() {
    let mut report = TierReport {
        tier: Tier::from_number(3).unwrap(),
        positions: 10,
        own: 5,
        queried: true,
        replicated: false,
        elapsed: Duration::from_millis(10),
        sent: 80,
    };
    let line = tier_line(&report);
    assert!(line.contains("solved with queries, 80 bytes"), "{line}");
    report.replicated = true;
    let line = tier_line(&report);
    assert!(
        line.contains("solved with queries and replicated, 80 bytes"),
        "{line}"
    );
    let game = ClearShapes::new(boxed(2, 2));
    let mut opts = Options::new("x.gdb".into());
    let text = opts.shared(&game);
    assert!(
        !text.contains("--memory") && !text.contains("--max-time"),
        "{text}"
    );
    opts.memory = Some(1 << 20);
    opts.max_time = Some(Duration::from_millis(1500));
    let text = opts.shared(&game);
    assert!(text.ends_with("--memory 1048576 --max-time 1.5"), "{text}");
}

/// A second game for the same loop: Kayles on several rows (knock down one
/// pin, or two adjacent pins, of one row; a row may split in two). A
/// position is a multiset of row lengths, keyed in unary (each row
/// `L` ones then a zero, longest first); tier `p - 1` holds the positions of
/// `p` pins. Every tier grows from nothing (no parent tier), and an option
/// names three kinds of components: the untouched rows as one position, and
/// the one or two rows the move leaves.
#[derive(Clone)]
struct Kayles {
    pins: u32,
}

impl Kayles {
    fn key(rows: &[u32]) -> u64 {
        let mut rows: Vec<u32> = rows.iter().copied().filter(|&r| r > 0).collect();
        rows.sort_unstable_by(|a, b| b.cmp(a));
        let (mut key, mut at) = (0u64, 0);
        for r in rows {
            key |= ((1u64 << r) - 1) << at;
            at += r + 1;
        }
        key
    }

    fn rows(mut key: u64) -> Vec<u32> {
        let mut rows = Vec::new();
        while key != 0 {
            key >>= key.trailing_zeros();
            let r = key.trailing_ones();
            rows.push(r);
            key >>= r;
        }
        rows
    }

    /// Every multiset of rows of `pins` pins, rows of at most `most`.
    fn partitions(pins: u32, most: u32, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if pins == 0 {
            out.push(prefix.clone());
            return;
        }
        for r in (1..=most.min(pins)).rev() {
            prefix.push(r);
            Kayles::partitions(pins - r, r, prefix, out);
            prefix.pop();
        }
    }

    /// Every move of `rows`: the rows left, one move per list.
    fn moves(rows: &[u32]) -> Vec<(Vec<u32>, [u32; 2])> {
        let mut out = Vec::new();
        for (i, &len) in rows.iter().enumerate() {
            let rest: Vec<u32> = rows
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &r)| r)
                .collect();
            for knock in 1..=2.min(len) {
                for left in 0..=len - knock {
                    out.push((rest.clone(), [left, len - knock - left]));
                }
            }
        }
        out
    }
}

impl TierGame for Kayles {
    fn id(&self) -> grundy::tier::GameId {
        grundy::tier::GameId::new("kayles", [self.pins, 0])
    }
    fn tier_count(&self) -> usize {
        self.pins as usize
    }
    fn tier_of(&self, position: u64) -> Tier {
        Tier::new(position.count_ones() - 1)
    }
    fn parent_tier(&self, _tier: Tier) -> Option<Tier> {
        None
    }
    fn generate<E: FnMut(u64)>(&self, tier: Tier, _parent: Option<u64>, mut emit: E) {
        let mut all = Vec::new();
        Kayles::partitions(tier.number(), tier.number(), &mut Vec::new(), &mut all);
        for rows in all {
            emit(Kayles::key(&rows));
        }
    }
    fn for_each_option<F: FnMut(Nimber, &[u64])>(&self, position: u64, mut option: F) {
        for (rest, split) in Kayles::moves(&Kayles::rows(position)) {
            let components: Vec<u64> = [
                Kayles::key(&rest),
                Kayles::key(&split[..1]),
                Kayles::key(&split[1..]),
            ]
            .into_iter()
            .filter(|&k| k != 0)
            .collect();
            option(Nimber::ZERO, &components);
        }
    }
}

/// The oracle: the mex recursion over whole positions (no components, no
/// Sprague-Grundy sums), memoized by the sorted rows.
fn kayles_brute(rows: &[u32], memo: &mut std::collections::HashMap<u64, u32>) -> u32 {
    let key = Kayles::key(rows);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut seen = grundy::MexSet::new();
    for (mut rest, split) in Kayles::moves(rows) {
        rest.extend(split.into_iter().filter(|&r| r > 0));
        seen.insert(Nimber::new(kayles_brute(&rest, memo)));
    }
    let v = seen.mex().value();
    memo.insert(key, v);
    v
}

/// Kayles through the one loop: in one process (memory store), and over
/// 1, 2 and 3 ranks with every exchange, each position equal to the brute
/// force.
#[test]
fn a_second_game_builds_single_and_partitioned() {
    let game = Kayles { pins: 13 };
    let mut memo = std::collections::HashMap::new();
    let mut all = Vec::new();
    for pins in 1..=game.pins {
        Kayles::partitions(pins, pins, &mut Vec::new(), &mut all);
    }
    let want: Vec<u32> = all
        .iter()
        .map(|rows| kayles_brute(rows, &mut memo))
        .collect();
    let keys: Vec<u64> = all.iter().map(|rows| Kayles::key(rows)).collect();
    // Kayles rows are not all zero: the oracle is not trivially matched.
    assert!(want.iter().any(|&v| v > 2));

    let built = single_in_memory(&game);
    for (key, &v) in keys.iter().zip(&want) {
        let tier = &built[game.tier_of(*key).index()];
        assert_eq!(
            tier.get(*key),
            Some(Nimber::new(v)),
            "{:?}",
            Kayles::rows(*key)
        );
    }

    for ranks in 1..=3u32 {
        for exchange in [Exchange::Replicate, Exchange::Query, Exchange::Auto] {
            let report_keys = keys.clone();
            let results = run_in_memory(ranks, game.clone(), move |opts| {
                opts.exchange = exchange;
                opts.memory = Some(2048);
                opts.batch = 7;
                opts.round_bytes = 64;
                opts.report_keys = report_keys.clone();
            });
            for r in results {
                let report = r.unwrap();
                let got: Vec<u32> = report.values.iter().map(|v| v.unwrap()).collect();
                assert_eq!(got, want, "{ranks} ranks, {exchange}");
                assert_eq!(report.own_shapes.iter().sum::<u64>(), keys.len() as u64);
            }
        }
    }
}

/// Splitting's rectangles (every sub-rectangle of a grid) over 2 and 3
/// ranks, querying owners: the values of the one-process build, which the
/// engine's tests check against the brute force.
#[test]
fn splitting_rectangles_build_partitioned() {
    use grundy::split::tiers::SplitRects;
    let raw: Vec<Vec<bool>> = [
        "1011010", "0110101", "1101011", "0011110", "1110011", "0101101",
    ]
    .iter()
    .map(|r| r.bytes().map(|b| b == b'1').collect())
    .collect();
    let game = SplitRects::new(&raw).unwrap();
    let single = single_in_memory(&game);
    let mut keys = Vec::new();
    let mut want = Vec::new();
    for table in &single {
        for (key, value) in table.iter() {
            keys.push(key);
            want.push(value.value());
        }
    }
    assert!(want.iter().any(|&v| v > 1));
    for (ranks, exchange) in [(2u32, Exchange::Query), (3, Exchange::Auto)] {
        let report_keys = keys.clone();
        let results = run_in_memory(ranks, game.clone(), move |opts| {
            opts.exchange = exchange;
            opts.memory = Some(4096);
            opts.batch = 50;
            opts.report_keys = report_keys.clone();
        });
        for r in results {
            let report = r.unwrap();
            let got: Vec<u32> = report.values.iter().map(|v| v.unwrap()).collect();
            assert_eq!(got, want, "{ranks} ranks, {exchange}");
        }
    }
}

/// A part file whose completion fails on one rank (a full disk, say).
struct FailsToComplete {
    file: grundy_db::FileStore,
    fails: bool,
}

impl TierStore for FailsToComplete {
    type Error = grundy_db::DbError;
    type Values = <grundy_db::FileStore as TierStore>::Values;

    fn stored(&self) -> usize {
        self.file.stored()
    }

    fn build_id(&self) -> u64 {
        self.file.build_id()
    }

    fn resume(&mut self, tiers: usize, build_id: u64) -> Result<Vec<Self::Values>, Self::Error> {
        self.file.resume(tiers, build_id)
    }

    fn write(
        &mut self,
        tier: Tier,
        table: &TierTable,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), Self::Error> {
        self.file.write(tier, table, stop)
    }

    fn seal(&mut self, tier: Tier, table: TierTable) -> Result<Self::Values, Self::Error> {
        self.file.seal(tier, table)
    }
}

impl PartStore for FailsToComplete {
    fn complete(&mut self) -> Result<(), grundy_db::DbError> {
        if self.fails {
            return Err(grundy_db::DbError::Io {
                path: self.file.writer().partial().to_owned(),
                error: std::io::Error::other("cannot complete"),
            });
        }
        self.file.complete()
    }

    fn publish(self) -> Result<(), grundy_db::DbError> {
        self.file.publish().map(|_| ())
    }
}

/// A rebuild in which one rank cannot complete its part leaves every part
/// of the earlier build in place, byte for byte, and readable; the next
/// run resumes from the parts the failed one stored, to the same values.
#[test]
fn a_part_that_cannot_complete_leaves_the_earlier_build_whole() {
    let shape_box = boxed(3, 4);
    let expected = single(shape_box);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.gdb");
    for r in run_out(2, shape_box, &out, |_| {}) {
        r.unwrap();
    }
    let parts: Vec<_> = (0..2).map(|r| grundy_db::part_path(&out, r, 2)).collect();
    let before: Vec<_> = parts.iter().map(|p| std::fs::read(p).unwrap()).collect();

    let handles: Vec<_> = LocalComm::group(2)
        .into_iter()
        .map(|comm| {
            let out = out.clone();
            std::thread::spawn(move || {
                let game = ClearShapes::new(shape_box);
                build(&game, &comm, &Options::new(out.clone()), |r, n| {
                    open_part_file(&out, shape_box, r, n).map(|file| FailsToComplete {
                        file,
                        fails: r == 1,
                    })
                })
            })
        })
        .collect();
    for h in handles {
        let err = h.join().unwrap().unwrap_err();
        assert!(err.to_string().contains("cannot complete"), "{err}");
    }
    for (path, bytes) in parts.iter().zip(&before) {
        assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", path.display());
    }
    assert_same(&out, &expected);

    for r in run_out(2, shape_box, &out, |_| {}) {
        assert_eq!(r.unwrap().resumed, shape_box.cells());
    }
    assert_same(&out, &expected);
}

/// The watchdog fires once its time has passed, and never once dropped:
/// leaving its scope does not wait for its deadline.
#[test]
fn a_watchdog_fires_on_time_and_not_once_dropped() {
    use std::sync::atomic::Ordering;
    let fired = AtomicBool::new(false);
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        let _watchdog = watchdog::Watchdog::start(scope, Duration::from_millis(50), || {
            fired.store(true, Ordering::SeqCst);
        });
        std::thread::sleep(Duration::from_millis(300));
    });
    assert!(fired.load(Ordering::SeqCst));

    let fired = AtomicBool::new(false);
    let started_again = std::time::Instant::now();
    std::thread::scope(|scope| {
        let watchdog = watchdog::Watchdog::start(scope, Duration::from_secs(60), || {
            fired.store(true, Ordering::SeqCst);
        });
        drop(watchdog);
    });
    assert!(!fired.load(Ordering::SeqCst));
    assert!(started_again.elapsed() < Duration::from_secs(10));
    assert!(started.elapsed() < Duration::from_secs(20));

    assert_eq!(
        watchdog::grace(Duration::from_secs(5)),
        Duration::from_millis(10_500)
    );
    assert_eq!(
        watchdog::message(1, Duration::from_millis(2500)),
        "error: rank 1: the time budget of 2.5 s ran out while this rank waited for the others (a rank stopped answering?); stopping, the parts resume from the last complete tier"
    );
}

/// A rank that never reaches the first exchange (as one stopped with
/// SIGSTOP under MPI): the other, waiting in the exchange, is told by its
/// watchdog; once the lost rank comes back, both go on as agreed.
#[test]
fn a_rank_that_stops_answering_fires_the_watchdog_of_the_other() {
    use std::sync::{mpsc, Mutex};
    let (release, released) = mpsc::channel::<()>();
    let release = Mutex::new(Some(release));
    let messages = Mutex::new(Vec::new());
    let started = std::time::Instant::now();
    let comms = LocalComm::group(2);
    let outcomes = std::thread::scope(|scope| {
        let waiting = scope.spawn(|| {
            let on_stall = |message: &str| {
                messages.lock().unwrap().push(message.to_owned());
                // Bring the lost rank back, so that the test ends.
                drop(release.lock().unwrap().take());
            };
            let mut opts = Options::new("unused".into());
            opts.max_time = Some(Duration::from_millis(100));
            opts.on_stall = Some(&on_stall);
            build_watched(
                comms[0].rank(),
                &opts,
                Some(Duration::from_millis(300)),
                || build_ranks(&ClearShapes::new(boxed(3, 3)), &comms[0], &opts, in_memory),
            )
        });
        let comms = &comms;
        let lost = scope.spawn(move || {
            // Until the other rank's watchdog has fired.
            let _ = released.recv();
            let mut opts = Options::new("unused".into());
            opts.max_time = Some(Duration::from_millis(100));
            build_ranks(&ClearShapes::new(boxed(3, 3)), &comms[1], &opts, in_memory)
        });
        [waiting.join().unwrap(), lost.join().unwrap()]
    });
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(
        *messages.lock().unwrap(),
        [watchdog::message(0, Duration::from_millis(100))]
    );
    for outcome in outcomes {
        assert!(
            matches!(outcome, Ok(_) | Err(DistError::Stopped { .. })),
            "{outcome:?}"
        );
    }
}

/// Healthy builds never fire the watchdog: one that stops on its budget
/// and one that finishes well within it, which returns at once (the
/// watchdog is cancelled, not waited for).
#[test]
fn the_watchdog_stays_quiet_on_healthy_builds() {
    use std::sync::Mutex;
    for budget in [Duration::ZERO, Duration::from_secs(60)] {
        let messages = Mutex::new(Vec::new());
        let started = std::time::Instant::now();
        let comms = LocalComm::group(2);
        let outcomes: Vec<_> = std::thread::scope(|scope| {
            let ranks: Vec<_> = comms
                .iter()
                .map(|comm| {
                    let messages = &messages;
                    scope.spawn(move || {
                        let on_stall = |message: &str| {
                            messages.lock().unwrap().push(message.to_owned());
                        };
                        let mut opts = Options::new("unused".into());
                        opts.max_time = Some(budget);
                        opts.on_stall = Some(&on_stall);
                        build(&ClearShapes::new(boxed(3, 4)), comm, &opts, in_memory)
                    })
                })
                .collect();
            ranks.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(messages.lock().unwrap().is_empty(), "{budget:?}");
        assert!(started.elapsed() < Duration::from_secs(30), "{budget:?}");
        for outcome in outcomes {
            if budget.is_zero() {
                assert!(
                    matches!(outcome, Err(DistError::Stopped { .. })),
                    "{outcome:?}"
                );
            } else {
                assert!(outcome.is_ok(), "{outcome:?}");
            }
        }
    }
}
