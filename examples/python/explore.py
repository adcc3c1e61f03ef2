"""Explore rectangle clearing with the grundy Python package.

Opens a shape database (the built-in 5 x 5 one, or a file given with
--tables), or builds one (--build BOX --tables PATH); tabulates the values
of random boards by tier (the number of ones); draws a histogram of the
values and a winning-move map of one board with matplotlib.

    pip install ./crates/grundy-py matplotlib
    python examples/python/explore.py --out /tmp/pictures
    python examples/python/explore.py --build 4x5 --tables /tmp/clear-4x5.gdb --out /tmp/pictures
"""

import argparse
import os
import time
from collections import defaultdict

import numpy as np

import grundy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", help="a .gdb database (default: the built-in 5 x 5 one)")
    parser.add_argument("--build", metavar="BOX", help="build the database of BOX (e.g. 4x5) into --tables first")
    parser.add_argument("--boards", type=int, default=200_000, help="random boards to value")
    parser.add_argument("--out", default=".", help="directory for the pictures")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    if args.build:
        if not args.tables:
            parser.error("--build needs --tables PATH")
        db = grundy.tables.build(args.build, args.tables)
    else:
        db = grundy.tables.open(args.tables)
    rows, cols = db.box
    info = db.info()
    print(f"{db.path}: box {rows} x {cols}, {info['shapes']:,} shapes, largest value {info['largest_value']}")
    print("tier  shapes  largest value")
    for tier in info["tiers"]:
        print(f"{tier['tier']:>4} {tier['shapes']:>7} {tier['largest_value']:>14}")

    # Random boards of the box, each cell a one with a density drawn per
    # board, so every tier (number of ones) is represented.
    rng = np.random.default_rng(args.seed)
    density = rng.random((args.boards, 1, 1))
    boards = rng.random((args.boards, rows, cols)) < density
    started = time.perf_counter()
    values = db.values(boards)
    seconds = time.perf_counter() - started
    print(f"\nvalued {len(values):,} random {rows} x {cols} boards in {seconds:.3f} s "
          f"({len(values) / seconds:,.0f} boards/s)")

    by_tier = defaultdict(list)
    for ones, value in zip(boards.reshape(len(boards), -1).sum(axis=1), values):
        by_tier[int(ones)].append(int(value))
    print("\nones  boards  mean value  max  second player wins (value 0)")
    for ones in sorted(by_tier):
        v = np.array(by_tier[ones])
        print(f"{ones:>4} {len(v):>7} {v.mean():>11.2f} {v.max():>4} {np.mean(v == 0):>10.1%}")

    os.makedirs(args.out, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(values, bins=np.arange(values.max() + 2) - 0.5, color="#4477aa")
    ax.set_xlabel("Sprague-Grundy value")
    ax.set_ylabel("boards")
    ax.set_title(f"Values of {len(values):,} random {rows} x {cols} boards")
    histogram = os.path.join(args.out, "values_histogram.png")
    fig.tight_layout()
    fig.savefig(histogram, dpi=100)
    plt.close(fig)

    # The winning-move map of the first random board the first player wins
    # with several winning moves: each cell shaded by how many winning
    # rectangles clear it; the winning rectangles outlined.
    board = next(b for b, v in zip(boards, values) if v and rows * cols // 2 <= b.sum() <= rows * cols * 3 // 4)
    analysis = grundy.clear.analyze(board, tables=db)
    cover = np.zeros((rows, cols))
    for m in analysis.winning_moves:
        cover[m.top : m.bottom + 1, m.left : m.right + 1] += 1
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.imshow(np.where(board, cover, np.nan), cmap="YlOrRd", vmin=0)
    for r in range(rows):
        for c in range(cols):
            dark = cover[r, c] > cover.max() / 2
            ax.text(c, r, "1" if board[r, c] else "·", ha="center", va="center", color="white" if dark else "black")
    for m in analysis.winning_moves:
        ax.add_patch(plt.Rectangle((m.left - 0.45, m.top - 0.45), m.right - m.left + 0.9, m.bottom - m.top + 0.9,
                                   fill=False, lw=2, ec="#222288"))
    ax.set_xticks(range(cols))
    ax.set_yticks(range(rows))
    ax.set_title(f"value {analysis.value}: {len(analysis.winning_moves)} winning moves")
    winning_map = os.path.join(args.out, "winning_moves.png")
    fig.tight_layout()
    fig.savefig(winning_map, dpi=100)
    plt.close(fig)
    print(f"\nboard (value {analysis.value}):")
    print("\n".join(" ".join("1" if x else "." for x in row) for row in board))
    print("winning moves (top, left, bottom, right):",
          [(m.top, m.left, m.bottom, m.right) for m in analysis.winning_moves])
    print(f"\nwrote {histogram} and {winning_map}")


if __name__ == "__main__":
    main()
