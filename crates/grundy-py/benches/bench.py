"""Speed of the Python API (a benchmark, not a test): Database.values on
10^6 random 5 x 5 boards with the built-in database, and clear.analyze on
4 x 4 boards (compare with `cargo bench -p grundy-bench --bench analyze`).

    python crates/grundy-py/benches/bench.py
"""

import time
import timeit

import numpy as np

import grundy


def main() -> None:
    db = grundy.tables.open()
    boards = np.random.default_rng(1).integers(0, 2, size=(10**6, 5, 5), dtype=np.uint8)
    db.values(boards[:1000])  # warm up the workers
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        db.values(boards)
        best = min(best, time.perf_counter() - started)
    print(f"Database.values, 10^6 random 5 x 5 boards: {best:.3f} s, {1e6 / best:,.0f} boards/s (best of 5)")
    for name, board in [
        ("readme_example", ["0110", "0000", "0000", "0001"]),
        ("full", ["1111"] * 4),
        ("random", ["1011", "1110", "0111", "1101"]),
    ]:
        n = 20000
        per = min(timeit.repeat(lambda: grundy.clear.analyze(board), number=n, repeat=5)) / n
        print(f"clear.analyze 4 x 4 {name}: {per * 1e6:.2f} us")


if __name__ == "__main__":
    main()
