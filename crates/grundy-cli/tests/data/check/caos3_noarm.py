# caos3, WRONG: every '^' cell is a candidate (the arm rule is not applied:
# arms of length 0 are enough). Otherwise as caos3_brute.py, whose solver it
# runs.
import caos3_brute

caos3_brute.main(lambda grid: caos3_brute.solve(grid, least_arm=0))
