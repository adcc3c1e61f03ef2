"""The analyses as values that travel: `ClearAnalysis`, `LargeClearAnalysis`,
`SplitAnalysis`, `PawnAnalysis` (and `Component`) pickle, copy and
deep-copy to objects whose every attribute and method answers as the
original's, also across a process pool, the way notebooks fan work out
with `concurrent.futures`. A restore refuses a state of another layout
version, of the wrong types, or of no legal position."""

import concurrent.futures
import copy
import functools
import multiprocessing
import pickle
import random
import re

import pytest

import grundy

PROTOCOLS = (2, 5)


def answer(call):
    """What `call()` gives, or the exception it raises (its type and
    message), so that a method that refuses is compared too."""
    try:
        return ("gives", call())
    except Exception as err:  # noqa: BLE001 - the refusal is the answer
        return ("raises", type(err), str(err))


def component_tuple(c):
    return (c.board, c.cells, c.value)


# Every public attribute and method's answer, per class ---------------------


def clear_answers(a):
    moves = list(a.winning_moves) + [m for m, _ in a.options()[:6]]
    return {
        "type": type(a),
        "repr": repr(a),
        "value": a.value,
        "winner": a.winner,
        "winning_moves": a.winning_moves,
        "winning_move_classes": [type(m) for m in a.winning_moves],
        "components": [component_tuple(c) for c in a.components],
        "board_values": a.board_values,
        "boards": a.boards,
        "options": answer(a.options),
        "play": answer(a.play),
        "explain": answer(a.explain),
        "after": [answer(lambda m=m: a.after(m)) for m in moves],
        "after_illegal": answer(lambda: a.after(grundy.clear.Move(0, 0, 0, 0, board=7))),
    }


def large_answers(a):
    return {
        "type": type(a),
        "repr": repr(a),
        "value": a.value,
        "winner": a.winner,
        "winning_moves": a.winning_moves,
        "winning_move_classes": [type(m) for m in a.winning_moves],
        "winning_moves_complete": a.winning_moves_complete,
        "components": a.components,
        "classes": a.classes,
        "stopped": a.stopped,
        "explain": answer(a.explain),
        "after": [a.after(m) for m in a.winning_moves[:3]],
    }


def split_answers(a):
    options = a.options()
    return {
        "type": type(a),
        "repr": repr(a),
        "value": a.value,
        "winner": a.winner,
        "rows": a.rows,
        "cols": a.cols,
        "winning_moves": a.winning_moves,
        "candidates": a.candidates,
        "moves": a.moves,
        "options": options,
        "play": answer(a.play),
        "explain": answer(a.explain),
        "after": [answer(lambda m=m: a.after(m)) for m, _ in options[:6]],
        "after_illegal": [answer(lambda c=c: a.after(c)) for c in a.candidates[:6]],
    }


def pawn_answers(a):
    return {
        "type": type(a),
        "repr": repr(a),
        "value": a.value,
        "values": a.values,
        "losing": a.losing,
        "winner": a.winner,
        "winning_moves": a.winning_moves,
        "winning_moves_complete": a.winning_moves_complete,
        "options": answer(a.options),
        "play": answer(a.play),
        "explain": answer(a.explain),
        "after": [answer(lambda m=m: a.after(m)) for m in a.winning_moves],
        "after_illegal": answer(lambda: a.after(grundy.pawn.Move(0, 0, pawn=9))),
    }


# Random positions ---------------------------------------------------------


def random_board(rng, rows, cols, density=0.7):
    return ["".join("1" if rng.random() < density else "0" for _ in range(cols)) for _ in range(rows)]


@functools.lru_cache(maxsize=None)
def clear_analyses():
    rng = random.Random(20261201)
    out = []
    for _ in range(4):
        out.append(grundy.clear.analyze(random_board(rng, rng.randint(1, 4), rng.randint(1, 5))))
    for _ in range(2):
        out.append(grundy.clear.analyze([random_board(rng, 3, 3) for _ in range(rng.randint(2, 3))]))
    # One board given as a list: `after` gives a list back.
    out.append(grundy.clear.analyze([random_board(rng, 3, 4)]))
    # An empty board: no moves.
    out.append(grundy.clear.analyze(["000", "000"]))
    # Limits, threads and tables of the caller's choosing; and a Solver's
    # analysis, whose memo stays behind.
    out.append(
        grundy.clear.analyze(
            random_board(rng, 4, 4),
            max_positions=10**6,
            max_time=60.0,
            max_memory=1 << 30,
            threads=1,
            tables=grundy.tables.open(),
        )
    )
    out.append(grundy.clear.Solver().analyze(random_board(rng, 5, 5, 0.8)))
    return out


@functools.lru_cache(maxsize=None)
def large_analyses():
    rng = random.Random(20261202)
    out = [grundy.clear.analyze(random_board(rng, 9, 8, 0.4)) for _ in range(2)]
    out.append(grundy.clear.analyze([random_board(rng, 9, 8, 0.4), random_board(rng, 2, 3)]))
    # Stopped by its budget: no value, `stopped` says why.
    out.append(grundy.clear.analyze(random_board(rng, 12, 12, 0.9), max_positions=5))
    return out


@functools.lru_cache(maxsize=None)
def split_analyses():
    rng = random.Random(20261203)
    out = []
    for _ in range(4):
        grid = random_board(rng, rng.randint(2, 5), rng.randint(2, 6), 0.4)
        moves = []
        for _ in range(rng.randint(0, 2)):
            options = grundy.split.analyze(grid, moves=moves).options()
            if not options:
                break
            moves.append(rng.choice(options)[0])
        out.append(grundy.split.analyze(grid, moves=moves))
    # A grid of 10^9 x 10^9 with a few candidates, a move played.
    cells = sorted({(rng.randrange(10**9), rng.randrange(10**9)) for _ in range(7)})
    out.append(grundy.split.analyze(size=(10**9, 10**9), cells=cells, moves=[cells[3]]))
    out.append(grundy.split.analyze(["111", "101"], max_positions=10**5, max_time=30.0, max_memory=1 << 28))
    return out


@functools.lru_cache(maxsize=None)
def pawn_analyses():
    rng = random.Random(20261204)
    out = []
    for _ in range(5):
        walls = sorted({(rng.randrange(12), rng.randrange(12)) for _ in range(rng.randint(0, 10))})
        free = [(x, y) for x in range(12) for y in range(12) if (x, y) not in walls]
        pawns = rng.sample(free, rng.randint(1, 3))
        out.append(grundy.pawn.analyze(pawns, blocked=walls))
    walls = [(1, 1), (4, 2)]
    # One pawn given as (x, y): `after` gives one cell back.
    out.append(grundy.pawn.analyze((2, 2), blocked=walls))
    # Beyond the region of values, with walls below-left: no value, and
    # options() refuses.
    out.append(grundy.pawn.analyze((10**6, 5 * 10**5), blocked=[(3, 3), (7 * 10**5, 2)]))
    # Past 4096 with no wall below-left: the value x ^ y.
    out.append(grundy.pawn.analyze([(10**9 - 1, 12345), (5, 5)]))
    return out


CASES = {
    "clear": (clear_analyses, clear_answers),
    "large": (large_analyses, large_answers),
    "split": (split_analyses, split_answers),
    "pawn": (pawn_analyses, pawn_answers),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    make, answers = CASES[request.param]
    return make(), answers


def test_each_class_pickles_back_to_its_class_over_the_positions_meant():
    clear, large, split, pawns = clear_analyses(), large_analyses(), split_analyses(), pawn_analyses()
    assert any(a.stopped for a in large) and any(a.value is not None for a in large)
    assert any(a.moves for a in split) and any(a.rows == 10**9 for a in split)
    assert any(a.value is None for a in pawns) and any(len(a.values) > 1 for a in pawns)
    for analyses, cls in (
        (clear, grundy.clear.ClearAnalysis),
        (large, grundy.clear.LargeClearAnalysis),
        (split, grundy.split.SplitAnalysis),
        (pawns, grundy.pawn.PawnAnalysis),
    ):
        for a in analyses:
            assert type(a) is cls
            assert type(pickle.loads(pickle.dumps(a))) is cls


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_pickle_gives_back_an_analysis_answering_as_the_original(case, protocol):
    analyses, answers = case
    for a in analyses:
        back = pickle.loads(pickle.dumps(a, protocol=protocol))
        assert back is not a
        assert answers(back) == answers(a)


def test_copy_and_deepcopy_answer_as_the_original(case):
    analyses, answers = case
    for a in analyses:
        expected = answers(a)
        assert answers(copy.copy(a)) == expected
        assert answers(copy.deepcopy(a)) == expected
        assert answers(copy.deepcopy([a, {"a": a}])[1]["a"]) == expected


def test_analyses_inside_containers_pickle_together():
    together = {
        "clear": clear_analyses()[:2],
        "large": large_analyses()[0],
        "split": split_analyses()[0],
        "pawn": (pawn_analyses()[0],),
    }
    back = pickle.loads(pickle.dumps(together, protocol=5))
    assert [clear_answers(a) for a in back["clear"]] == [clear_answers(a) for a in together["clear"]]
    assert large_answers(back["large"]) == large_answers(together["large"])
    assert split_answers(back["split"]) == split_answers(together["split"])
    assert pawn_answers(back["pawn"][0]) == pawn_answers(together["pawn"][0])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_component_pickles_and_copies(protocol):
    a = grundy.clear.analyze(["1101", "0001", "1100"])
    components = a.components
    assert len(components) == 3
    for c in components:
        for back in (pickle.loads(pickle.dumps(c, protocol=protocol)), copy.copy(c), copy.deepcopy(c)):
            assert type(back) is grundy.clear.Component
            assert component_tuple(back) == component_tuple(c)
            assert repr(back) == repr(c)
            # Components compare and hash by board, cells and value.
            assert back == c and hash(back) == hash(c)
    assert components[0] != components[1]
    assert pickle.loads(pickle.dumps(a)).components == components


def test_the_restored_clear_analysis_searches_without_the_tables_and_memo():
    # A Solver's analysis answers options() from its memo; the restored one
    # searches again (the built-in tables only), to the same answers.
    solver = grundy.clear.Solver()
    a = solver.analyze(["11111", "11011", "11111", "10111"])
    back = pickle.loads(pickle.dumps(a))
    assert back.options() == a.options()
    assert back.play() == a.play()
    assert back.explain() == a.explain()
    solver.clear()
    assert back.options() == a.options()


def analyze_pawns(pawns):
    return grundy.pawn.analyze(pawns, blocked=[(1, 1), (4, 2), (0, 5)])


def test_a_process_pool_maps_analyze_and_sends_the_analyses_back():
    rng = random.Random(20261205)
    boards = [random_board(rng, 3, 4) for _ in range(3)] + [random_board(rng, 9, 8, 0.4)]
    grids = [random_board(rng, 4, 4, 0.5) for _ in range(3)]
    pawns = [[(rng.randrange(9), rng.randrange(9)) for _ in range(2)] for _ in range(3)]
    pawns = [[p for p in ps if p not in [(1, 1), (4, 2), (0, 5)]] or [(3, 3)] for ps in pawns]
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        cleared = list(pool.map(grundy.clear.analyze, boards))
        split = list(pool.map(grundy.split.analyze, grids))
        walked = list(pool.map(analyze_pawns, pawns))
    for board, a in zip(boards[:3], cleared[:3]):
        assert clear_answers(a) == clear_answers(grundy.clear.analyze(board))
    assert large_answers(cleared[3]) == large_answers(grundy.clear.analyze(boards[3]))
    for grid, a in zip(grids, split):
        assert split_answers(a) == split_answers(grundy.split.analyze(grid))
    for ps, a in zip(pawns, walked):
        assert pawn_answers(a) == pawn_answers(analyze_pawns(ps))


# Refused states -----------------------------------------------------------


def reduced(a):
    restore, (state,) = a.__reduce__()
    assert restore.__module__ == "grundy._grundy" and restore.__name__.startswith("_restore_")
    assert state[0] == 1
    return restore, list(state)


def one_of_each():
    return {
        "clear": grundy.clear.analyze([["0110", "1111"], ["11"]]),
        "large": grundy.clear.analyze(random_board(random.Random(7), 9, 8, 0.4)),
        "split": grundy.split.analyze(["1101", "0110", "1011"], moves=[(0, 0)]),
        "pawn": grundy.pawn.analyze([(3, 2), (5, 1)], blocked=[(1, 1)]),
        "component": grundy.clear.analyze(["0110", "1111"]).components[0],
    }


@pytest.mark.parametrize("kind", ["clear", "large", "split", "pawn", "component"])
def test_a_state_of_another_version_is_refused_with_a_value_error(kind):
    restore, state = reduced(one_of_each()[kind])
    for version in (0, 2, "1", None):
        with pytest.raises(ValueError, match=r"state version .*this grundy reads version 1"):
            restore(tuple([version] + state[1:]))
    with pytest.raises(ValueError, match="state version"):
        restore(())


@pytest.mark.parametrize("kind", ["clear", "large", "split", "pawn", "component"])
def test_a_state_of_the_wrong_types_is_refused_with_a_type_error(kind):
    restore, state = reduced(one_of_each()[kind])
    with pytest.raises(TypeError, match="malformed"):
        restore(state)  # a list, not a tuple
    with pytest.raises(TypeError, match="malformed"):
        restore(tuple(state[:-1]))
    with pytest.raises(TypeError, match="malformed"):
        restore(tuple(state + [0]))
    with pytest.raises(TypeError, match="malformed"):
        restore(tuple(state[:1] + ["nonsense"] * (len(state) - 1)))


def test_a_state_of_no_legal_clear_position_is_refused_with_a_value_error():
    restore, state = reduced(one_of_each()["clear"])
    boards = state[1]
    bad = {
        "a board past 64 cells": (1, [(9, 9, 1)] + boards[1:]),
        "a cell outside its board": (1, [(2, 2, 1 << 10)] + boards[1:]),
        "no boards": (1, []),
        "an illegal winning move": (6, [(0, 0, 0, 0, 0)]),
        "a winning move of no board": (6, [(5, 0, 1, 0, 1)]),
        "a component on a zero": (7, [(0, [(0, 0)], 1)]),
        "a component of no cells": (7, [(0, [], 1)]),
        "board values not adding up": (8, [3, 3]),
        "too few board values": (8, [1]),
        "three threads": (3, 3),
        "a negative time": (2, (None, -1.0, None)),
        "a negative count": (2, (-5, None, None)),
    }
    for why, (index, value) in bad.items():
        changed = list(state)
        changed[index] = value
        with pytest.raises(ValueError):
            restore(tuple(changed))
            pytest.fail(why)
    # The state as given is restored.
    assert clear_answers(restore(tuple(state))) == clear_answers(one_of_each()["clear"])


def test_a_state_of_no_large_analysis_is_refused_with_a_value_error():
    restore, state = reduced(one_of_each()["large"])
    for index, value in ((2, "nobody"), (2, "second" if state[2] == "first" else "first"), (3, [(0, 5, 0, 4, 0)])):
        changed = list(state)
        changed[index] = value
        with pytest.raises(ValueError):
            restore(tuple(changed))
    # What can be checked against the boards without solving again: a
    # board of 72 cells, value 9 (components of 9, 1 and 1 cells).
    a = grundy.clear.analyze(["1" * 9] + ["0" * 9] * 6 + ["100000001"])
    restore, state = reduced(a)
    assert (state[1], state[2]) == (9, "first")
    bad = {
        "a winning move off the board": (3, [(0, 0, 0, 70, 80)], "row 71 lies outside the 8 x 9 board"),
        "a winning move on a 0": (3, [(0, 3, 3, 3, 3)], "cell (4,4) is 0"),
        "a value that is not the XOR": (1, 5, "value 5 is not the XOR of the components' values, 9"),
        "components of made-up values": (5, [(b, cells, 7) for (b, cells, _) in state[5]], "not the XOR"),
        "a component off its board's ones": (5, [(0, [(3, 3)], 1)] + state[5][1:], "cell (3, 3), not a 1"),
        "classes that do not count the components": (6, [(c, n, 0) for (c, n, _) in state[6]], "the classes"),
        "the winner of another value": (2, "second", "value 9 with winner 'second'"),
    }
    for why, (index, value, message) in bad.items():
        changed = list(state)
        changed[index] = value
        with pytest.raises(ValueError, match=re.escape(message)):
            restore(tuple(changed))
            pytest.fail(why)
    # Unknown value, and a lost position listed with a winning move.
    changed = list(state)
    changed[1], changed[2] = None, "second"
    with pytest.raises(ValueError, match="a lost position with winning moves"):
        restore(tuple(changed))
    assert large_answers(restore(tuple(state))) == large_answers(a)


def test_a_state_of_no_legal_split_position_is_refused_with_a_value_error():
    restore, state = reduced(one_of_each()["split"])
    bad = {
        "a grid of no rows": (1, 0),
        "a candidate outside the grid": (3, state[3] + [(99, 0)]),
        "a repeated candidate": (3, state[3] + state[3][:1]),
        "a move deleted by the first": (4, state[4] + [(0, 1)]),
        "a move on no candidate": (4, [(1, 0)]),
        "an option that is no move": (7, state[7] + [(1, 0, 0)]),
        "a missing option": (7, state[7][1:]),
        "a value that is not the options' mex": (6, state[6] + 1),
    }
    for why, (index, value) in bad.items():
        changed = list(state)
        changed[index] = value
        with pytest.raises(ValueError):
            restore(tuple(changed))
            pytest.fail(why)


def test_a_state_of_no_legal_pawn_position_is_refused_with_a_value_error():
    restore, state = reduced(one_of_each()["pawn"])
    bad = {
        "no pawns": (1, []),
        "a pawn on a wall": (1, [(1, 1)]),
        "a coordinate past 10^9": (1, [(10**10, 0)]),
        "a repeated wall": (3, [(1, 1), (1, 1)]),
        "one pawn of two": (2, True),
    }
    for why, (index, value) in bad.items():
        changed = list(state)
        changed[index] = value
        with pytest.raises(ValueError):
            restore(tuple(changed))
            pytest.fail(why)


# The error a worker sends back --------------------------------------------

STOPPED_SUM = [["11", "11"], ["11111111", "11111111", "11011111", "11111111", "11111111", "11111111"]]


def budget_answers(err):
    return (
        type(err),
        str(err),
        err.args,
        err.budget,
        err.limit,
        [component_tuple(c) for c in err.found["components"]],
        {k: v for k, v in err.found.items() if k != "components"},
    )


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_budget_exceeded_pickles_with_what_it_found(protocol):
    with pytest.raises(grundy.BudgetExceeded) as stopped:
        grundy.clear.analyze(STOPPED_SUM, max_positions=20)
    err = stopped.value
    assert err.found["components"], "a component valued before the stop"
    for back in (pickle.loads(pickle.dumps(err, protocol=protocol)), copy.deepcopy(err)):
        assert budget_answers(back) == budget_answers(err)


def test_a_process_pool_sends_back_a_budget_exceeded():
    with pytest.raises(grundy.BudgetExceeded) as stopped:
        grundy.clear.analyze(STOPPED_SUM, max_positions=20)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        future = pool.submit(grundy.clear.analyze, STOPPED_SUM, max_positions=20)
        with pytest.raises(grundy.BudgetExceeded) as sent:
            future.result(timeout=60)
    assert budget_answers(sent.value) == budget_answers(stopped.value)


def test_a_solver_refuses_copy_and_pickle_in_words_naming_itself():
    s = grundy.clear.Solver()
    for make in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="a Solver is not copied or pickled"):
            make(s)
    # Its analyses pickle.
    a = s.analyze(["0110", "0000"])
    assert pickle.loads(pickle.dumps(a)).value == a.value


def test_a_board_sum_refuses_copy_and_pickle_rather_than_share_its_solver():
    s = grundy.sum.BoardSum([["11"], ["1"]])
    for make in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="a BoardSum is not copied or pickled"):
            make(s)
    # The way the message gives makes an independent sum.
    other = grundy.sum.BoardSum([s[i] for i in range(len(s))])
    other.set(0, ["1"])
    assert (s.value(), other.value()) == (2 ^ 1, 0)
