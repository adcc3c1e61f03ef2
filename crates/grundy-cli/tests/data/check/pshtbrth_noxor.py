# pshtbrth, WRONG: a range is won when any of its boards is (no XOR of the values).
# Otherwise as pshtbrth_brute.py, whose solver it runs.
import pshtbrth_brute


def won(values, left, right):
    return any(values[left - 1:right])


pshtbrth_brute.main(won=won)
