# caos3, WRONG: the map is copied into a fixed 10 x 10 array: a crash on
# larger maps (IndexError).
# Otherwise as caos3_brute.py, whose solver it runs.
import caos3_brute


def solve(grid):
    fixed = [["#"] * 10 for _ in range(10)]
    for r in range(len(grid)):
        for c in range(len(grid[0])):
            fixed[r][c] = grid[r][c]
    return caos3_brute.solve(grid)


caos3_brute.main(solve)
