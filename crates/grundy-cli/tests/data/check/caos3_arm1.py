# caos3, WRONG: arms of length 1 are enough (>= 1 instead of >= 2).
# Otherwise as caos3_brute.py, whose solver it runs.
import caos3_brute

caos3_brute.main(lambda grid: caos3_brute.solve(grid, least_arm=1))
