# gridgame, WRONG: every coordinate indexes fixed arrays of 1001 entries (the
# author assumed coordinates up to 1000): a crash (IndexError) on larger ones.
# Otherwise as gridgame_brute.py, whose solver it runs.
import gridgame_brute


def answers(blocked, starts):
    seen_row = [0] * 1001
    for x, y in list(blocked) + starts:
        seen_row[x] += 0
        seen_row[y] += 0
    return gridgame_brute.answers(blocked, starts)


gridgame_brute.main(answers)
