# pshtbrth, WRONG: the range stops one board short (values[L-1:R-1]).
# Otherwise as pshtbrth_brute.py, whose solver it runs.
from functools import reduce
from operator import xor

import pshtbrth_brute


def won(values, left, right):
    return reduce(xor, values[left - 1:right - 1], 0) != 0


pshtbrth_brute.main(won=won)
