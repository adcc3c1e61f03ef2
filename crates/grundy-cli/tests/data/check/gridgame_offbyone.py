# gridgame, WRONG: the impassable cells are read as 1-based (X - 1, Y - 1).
# Otherwise as gridgame_brute.py, whose solver it runs.
import gridgame_brute


def answers(blocked, starts):
    return gridgame_brute.answers({(x - 1, y - 1) for x, y in blocked}, starts)


gridgame_brute.main(answers)
