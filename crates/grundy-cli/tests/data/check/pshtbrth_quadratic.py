# pshtbrth, right but O(N) per range query in a plain loop: O(N M) in all,
# a time limit exceeded on large inputs. Otherwise as pshtbrth_brute.py,
# whose solver it runs.
import pshtbrth_brute


def won(values, left, right):
    total = 0
    for i in range(left - 1, right):
        total ^= values[i]
    return total != 0


pshtbrth_brute.main(won=won)
