# pshtbrth, WRONG: replacement queries are read but ignored.
# Otherwise as pshtbrth_brute.py, whose solver it runs.
import pshtbrth_brute


def replace(values, p, board):
    board()  # the bug: should be values[p - 1] = pshtbrth_brute.grundy(board())


pshtbrth_brute.main(replace=replace)
