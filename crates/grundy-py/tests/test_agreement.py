"""Every game agrees with the command line's `--json` (and `--play`) on
random positions: values, winners, winning moves in order, and play-outs.
The CLI is an independent front-end over the same engine, itself checked
against brute force in the Rust tests."""

import random
from typing import List

import numpy as np
import pytest

import grundy

SEED = 20261124


def random_board(rng: random.Random, max_rows: int = 5, max_cols: int = 5) -> List[str]:
    rows, cols = rng.randint(1, max_rows), rng.randint(1, max_cols)
    density = rng.choice([0.3, 0.6, 0.9])
    return ["".join("1" if rng.random() < density else "0" for _ in range(cols)) for _ in range(rows)]


def clear_moves(moves):
    return [(m.board, m.top, m.left, m.bottom, m.right) for m in moves]


def cli_moves(moves):
    return [(m["board"], m["top"], m["left"], m["bottom"], m["right"]) for m in moves]


@pytest.mark.parametrize("case", range(40))
def test_clear_agrees_with_the_cli(cli, case):
    rng = random.Random(SEED + case)
    boards = [random_board(rng, 6, 6) for _ in range(rng.choice([1, 1, 2, 3]))]
    text = "\n\n".join("\n".join(b) for b in boards) + "\n"
    expected = cli.json(["clear", "--play", "-"], text)
    given = boards[0] if len(boards) == 1 else boards
    # Lists of strings and numpy arrays are the same boards.
    if case % 2:
        given = [np.array([[c == "1" for c in row] for row in b]) for b in boards]
        if len(boards) == 1:
            given = given[0]
    got = grundy.clear.analyze(given)
    assert got.value == expected["grundy"]
    assert got.winner == expected["winner"]
    assert clear_moves(got.winning_moves) == cli_moves(expected["winning_moves"])
    assert got.board_values == [b["grundy"] for b in expected["boards"]]
    assert [(c.board, [list(x) for x in c.cells], c.value) for c in got.components] == [
        (i, b["components"][j]["cells"], b["components"][j]["grundy"])
        for i, b in enumerate(expected["boards"])
        for j in range(len(b["components"]))
    ]
    play = got.play()
    assert [(*clear_moves([m])[0], v) for m, v in play] == [
        (*cli_moves([m])[0], m["grundy"]) for m in expected["play"]
    ]
    # The options leaving 0 are exactly the winning moves.
    options = got.options()
    assert [m for m, v in options if v == 0] == got.winning_moves


def test_clear_text_of_a_file_is_a_sum(cli):
    text = "0110\n0000\n0000\n0001\n\n11\n11\n"
    expected = cli.json(["clear", "-"], text)
    got = grundy.clear.analyze(text)
    assert (got.value, clear_moves(got.winning_moves)) == (
        expected["grundy"],
        cli_moves(expected["winning_moves"]),
    )


@pytest.mark.parametrize("case", range(30))
def test_split_agrees_with_the_cli(cli, case):
    rng = random.Random(SEED * 3 + case)
    rows, cols = rng.randint(1, 7), rng.randint(1, 7)
    density = rng.choice([0.2, 0.4, 0.6])
    grid = ["".join("1" if rng.random() < density else "0" for _ in range(cols)) for _ in range(rows)]
    expected = cli.json(["split", "--play", "-"], "\n".join(grid) + "\n")
    got = grundy.split.analyze(grid if case % 2 else np.array([[int(c) for c in r] for r in grid]))
    assert (got.value, got.winner) == (expected["grundy"], expected["winner"])
    assert [(m.row, m.col) for m in got.winning_moves] == [
        (m["row"], m["col"]) for m in expected["winning_moves"]
    ]
    assert [(m.row, m.col, v) for m, v in got.play()] == [
        (m["row"], m["col"], m["grundy"]) for m in expected["play"]
    ]


def test_split_cells_agree_with_the_cli(cli, tmp_path):
    rng = random.Random(SEED)
    cells = sorted({(rng.randrange(10**9), rng.randrange(10**9)) for _ in range(40)})
    path = tmp_path / "cells.txt"
    path.write_text(f"{10**9} {10**9}\n" + "".join(f"{r} {c}\n" for r, c in cells))
    expected = cli.json(["split", "--cells", str(path)])
    got = grundy.split.analyze(size=(10**9, 10**9), cells=cells)
    assert got.value == expected["grundy"]
    assert [(m.row, m.col) for m in got.winning_moves] == [
        (m["row"], m["col"]) for m in expected["winning_moves"]
    ]


@pytest.mark.parametrize("case", range(30))
def test_pawn_agrees_with_the_cli(cli, case, tmp_path):
    rng = random.Random(SEED * 7 + case)
    side = rng.choice([6, 12, 40])
    blocked = sorted({(rng.randrange(side), rng.randrange(side)) for _ in range(rng.randint(0, 12))})
    free = [(x, y) for x in range(side) for y in range(side) if (x, y) not in set(blocked)]
    pawns = rng.sample(free, rng.randint(1, 3))
    path = tmp_path / "walls.txt"
    path.write_text("".join(f"{x} {y}\n" for x, y in blocked))
    args = ["pawn", str(path), "--play"]
    for x, y in pawns:
        args += ["--at", f"{x},{y}"]
    expected = cli.json(args)
    got = grundy.pawn.analyze(pawns if len(pawns) > 1 or case % 2 else pawns[0], blocked=blocked)
    assert got.value == expected["grundy"]
    assert got.winner == expected["winner"]
    assert got.values == [p["grundy"] for p in expected["pawns"]]
    assert got.losing == [p["losing"] for p in expected["pawns"]]
    assert [(m.pawn, m.x, m.y) for m in got.winning_moves] == [
        (m["pawn"], m["x"], m["y"]) for m in expected["winning_moves"]
    ]
    assert [(m.pawn, m.x, m.y, v) for m, v in got.play()] == [
        (m["pawn"], m["x"], m["y"], m["grundy"]) for m in expected["play"]
    ]


def test_a_far_pawn_agrees_with_the_cli(cli, tmp_path):
    path = tmp_path / "walls.txt"
    path.write_text("5 7\n999999999 3\n12 999999990\n")
    expected = cli.json(["pawn", str(path), "--at", "1000000000,999999999"])
    got = grundy.pawn.analyze((10**9, 999999999), blocked=path.read_text())
    assert got.value is None and expected["grundy"] is None
    assert got.winner == expected["winner"]
    assert [(m.x, m.y) for m in got.winning_moves] == [(m["x"], m["y"]) for m in expected["winning_moves"]]


def test_far_pawns_with_no_wall_below_left_are_valued_as_the_cli_does(cli, tmp_path):
    # Two Nim heaps each: x ^ y, and their sum the XOR.
    path = tmp_path / "walls.txt"
    path.write_text("6000 7\n8 999999990\n")
    pawns = [(10**9, 5), (7, 999999999), (2, 9)]
    args = ["pawn", str(path)]
    for x, y in pawns:
        args += ["--at", f"{x},{y}"]
    expected = cli.json(args)
    got = grundy.pawn.analyze(pawns, blocked=path.read_text())
    total = 0
    for x, y in pawns:
        total ^= x ^ y
    assert got.value == expected["grundy"] == total
    assert got.values == [x ^ y for x, y in pawns]
    assert [(m.pawn, m.x, m.y) for m in got.winning_moves] == [
        (m["pawn"], m["x"], m["y"]) for m in expected["winning_moves"]
    ]
    with pytest.raises(ValueError, match="a table of values"):
        got.options()


def same_engine_words(got, expected) -> bool:
    """Python's engine move says what `--move --json` says; False when
    there is no move (and Python has none either)."""
    keys = ("proven", "kind", "reason", "text")
    assert [got[k] for k in keys] == [expected[k] for k in keys]
    # The CLI says null for an unknown value; Python says None.
    assert got["grundy"] == expected["grundy"]
    if expected["move"] is None:
        assert got["move"] is None
        return False
    return True


@pytest.mark.parametrize("case", range(8))
def test_clear_engine_move_agrees_with_the_cli(cli, case):
    rng = random.Random(SEED * 17 + case)
    boards = [random_board(rng, 6, 6) for _ in range(rng.choice([1, 2, 3]))]
    text = "\n\n".join("\n".join(b) for b in boards) + "\n"
    # Both with 600 s, not their 5 s default: a hard 6 x 6 block (value 26) takes
    # seconds of a loaded machine, and either side's clock may run out
    # first; with time enough both find the same proof.
    expected = cli.json(["clear", "--move", "--max-time", "600", "-"], text)
    got = grundy.clear.engine_move(boards[0] if len(boards) == 1 else boards, max_time=600)
    if not same_engine_words(got, expected):
        return
    m = got["move"]
    assert (m.board, m.top, m.left, m.bottom, m.right) == tuple(
        expected["move"][k] for k in ("board", "top", "left", "bottom", "right")
    )


@pytest.mark.parametrize("case", range(8))
def test_split_engine_move_agrees_with_the_cli(cli, case):
    rng = random.Random(SEED * 13 + case)
    rows, cols = rng.randint(1, 7), rng.randint(1, 7)
    grid = ["".join(rng.choice("01") for _ in range(cols)) for _ in range(rows)]
    expected = cli.json(["split", "--move", "-"], "\n".join(grid) + "\n")
    got = grundy.split.engine_move(grid)
    if not same_engine_words(got, expected):
        return
    assert (got["move"].row, got["move"].col) == (expected["move"]["row"], expected["move"]["col"])
    # A proven winning move leaves 0, by the analysis.
    if got["kind"] == "winning":
        options = dict(((m.row, m.col), v) for m, v in grundy.split.analyze(grid).options())
        assert options[(got["move"].row, got["move"].col)] == 0


def test_split_engine_move_guesses_past_its_budget():
    rng = random.Random(SEED)
    grid = ["".join(rng.choice("01") for _ in range(120)) for _ in range(120)]
    got = grundy.split.engine_move(grid, max_time=0.3)
    assert got["kind"] == "unproven" and not got["proven"]
    assert grid[got["move"].row][got["move"].col] == "1"


@pytest.mark.parametrize("case", range(10))
def test_sum_agrees_with_the_cli(cli, case, tmp_path):
    rng = random.Random(SEED * 11 + case)
    boards = [random_board(rng, 4, 4) for _ in range(rng.randint(1, 8))]
    n = len(boards)
    queries, steps = [], []
    for _ in range(15):
        kind = rng.choice(["value", "winner", "move", "set"])
        if kind == "set":
            p = rng.randrange(n)
            b = random_board(rng, 4, 4)
            queries.append(f"set {p + 1}\n" + "\n".join(b) + "\n\n")
            steps.append(("set", p, b))
        else:
            left = rng.randrange(n)
            right = rng.randrange(left, n)
            queries.append(f"{kind} {left + 1} {right + 1}\n")
            steps.append((kind, left, right))
    (tmp_path / "q.txt").write_text("".join(queries))
    (tmp_path / "b.txt").write_text("\n\n".join("\n".join(b) for b in boards) + "\n")
    answers = cli.json_lines(["sum", "--queries", str(tmp_path / "q.txt"), str(tmp_path / "b.txt")])
    s = grundy.sum.BoardSum(boards)
    assert len(s) == n
    for step, answer in zip(steps, answers):
        if step[0] == "set":
            assert s.set(step[1], step[2]) == answer["grundy"]
            continue
        kind, left, right = step
        if kind == "value":
            assert s.value(left, right + 1) == answer["grundy"]
        elif kind == "winner":
            assert s.winner(left, right + 1) == answer["winner"]
        else:
            move = s.winning_move(left, right + 1)
            # A lost range: no winning move, where the CLI's engine plays
            # a losing one.
            if answer["move"] is None or answer.get("kind") == "losing":
                assert move is None
            else:
                m, before, after = move
                a = answer["move"]
                assert (m.board, m.top, m.left, m.bottom, m.right) == (
                    a["board"], a["top"], a["left"], a["bottom"], a["right"],
                )
                # The CLI gives the range's value after the move (`grundy`,
                # 0 for a winning move); Python gives the board's value
                # before and after, which change the range's value by
                # before ^ after.
                assert s.value(left, right + 1) ^ before ^ after == a["grundy"]
    assert len(answers) == len(steps)


def brute_losing(walls, side):
    """Every free cell of a side x side box: losing when no move (left or
    down, over free cells) reaches a losing cell. The plain definition,
    cell by cell."""
    losing = {}
    for y in range(side):
        for x in range(side):
            if (x, y) in walls:
                continue
            moves = []
            a = x - 1
            while a >= 0 and (a, y) not in walls:
                moves.append((a, y))
                a -= 1
            b = y - 1
            while b >= 0 and (x, b) not in walls:
                moves.append((x, b))
                b -= 1
            losing[(x, y)] = not any(losing[m] for m in moves)
    return losing


@pytest.mark.parametrize("case", range(20))
def test_pawn_classify_agrees_with_a_brute_force(case):
    rng = random.Random(SEED * 13 + case)
    side = rng.choice([5, 12, 30])
    walls = {(rng.randrange(side), rng.randrange(side)) for _ in range(rng.randint(0, side * side // 4))}
    brute = brute_losing(walls, side)
    cells = [(x, y) for x in range(side) for y in range(side)]
    rng.shuffle(cells)
    expected = ["blocked" if c in walls else "losing" if brute[c] else "winning" for c in cells]
    assert grundy.pawn.classify(cells, blocked=sorted(walls)) == expected


def test_pawn_classify_agrees_with_the_cli_far_out(cli, tmp_path):
    rng = random.Random(SEED * 17)
    walls = sorted({(rng.randrange(10**9), rng.randrange(10**9)) for _ in range(40)})
    path = tmp_path / "walls.txt"
    path.write_text("".join(f"{x} {y}\n" for x, y in walls))
    cells = [(rng.randrange(10**9), rng.randrange(10**9)) for _ in range(10)]
    # Near the diagonal, where the losing cells are.
    cells += [(d, min(10**9, d + rng.randint(-2, 2))) for d in (rng.randrange(10**9) for _ in range(10))]
    got = grundy.pawn.classify(cells + [walls[0]], blocked=path.read_text())
    assert got[-1] == "blocked"
    for cell, kind in zip(cells, got):
        expected = cli.json(["pawn", str(path), "--at", f"{cell[0]},{cell[1]}"])["pawns"][0]["losing"]
        assert kind == ("losing" if expected else "winning"), cell
    assert "losing" in got and "winning" in got


def test_pawn_sum_with_a_dropped_pawn_lists_the_others_moves():
    """A pawn on a losing cell past 4096 with a wall below-left has value 0
    and drops out: the total is the other pawn's (by a mex brute force),
    its winning moves (to losing cells, by brute_losing) are listed, and
    the list says it is not complete (the dropped pawn's moves are not
    examined)."""
    walls = {(1, 1)}
    values = {}
    for y in range(4):
        for x in range(18):
            if (x, y) in walls:
                continue
            seen = set()
            a = x - 1
            while a >= 0 and (a, y) not in walls:
                seen.add(values[(a, y)])
                a -= 1
            b = y - 1
            while b >= 0 and (x, b) not in walls:
                seen.add(values[(x, b)])
                b -= 1
            values[(x, y)] = next(v for v in range(len(seen) + 1) if v not in seen)
    assert grundy.pawn.classify([(5000, 5000)], blocked=sorted(walls)) == ["losing"]
    a = grundy.pawn.analyze([(5000, 5000), (17, 3)], blocked=sorted(walls))
    assert a.value == values[(17, 3)] != 0
    assert a.values == [0, values[(17, 3)]]
    assert a.winner == "first"
    assert a.winning_moves_complete is False
    losing = brute_losing(walls, 18)
    expected = sorted(
        [(x, 3) for x in range(17) if all((c, 3) not in walls for c in range(x, 17)) and losing[(x, 3)]]
        + [(17, y) for y in range(3) if all((17, c) not in walls for c in range(y, 3)) and losing[(17, y)]]
    )
    assert sorted((m.x, m.y) for m in a.winning_moves) == expected
    assert all(m.pawn == 1 for m in a.winning_moves)
    assert grundy.pawn.analyze([(17, 3)], blocked=sorted(walls)).winning_moves_complete is True


@pytest.mark.parametrize("case", range(6))
def test_to_data_writes_json_that_agrees_with_the_cli(cli, case):
    """`grundy.to_data` makes every result `json.dumps`-able, with the
    fields and 0-based cells of the command line's JSON."""
    import json

    rng = random.Random(SEED * 31 + case)
    boards = [random_board(rng) for _ in range(rng.choice([1, 2]))]
    text = "\n\n".join("\n".join(b) for b in boards) + "\n"
    a = grundy.clear.analyze(boards[0] if len(boards) == 1 else boards)
    data = json.loads(json.dumps(grundy.to_data(a)))
    expected = cli.json(["clear", "-"], text)
    assert data["value"] == expected["grundy"]
    assert data["winner"] == expected["winner"]
    assert cli_moves(data["winning_moves"]) == cli_moves(expected["winning_moves"])
    per_board = [b["components"] for b in expected.get("boards", [expected])]
    assert sorted((c["board"], sorted(map(tuple, c["cells"]))) for c in data["components"]) == sorted(
        (i, sorted(map(tuple, c["cells"]))) for i, cs in enumerate(per_board) for c in cs
    )
    engine = json.loads(json.dumps(grundy.to_data(grundy.clear.engine_move(boards))))
    expected = cli.json(["clear", "--move", "-"], text)
    assert engine["kind"] == expected["kind"] and engine["grundy"] == expected.get("grundy")
    if expected["move"] is not None:
        assert engine["move"] == expected["move"]
    # The other games' results, and a database's record with its tuple keys.
    split = grundy.split.analyze(["101", "010"])
    assert json.loads(json.dumps(grundy.to_data(split)))["winning_moves"] == [
        {"row": m.row, "col": m.col} for m in split.winning_moves
    ]
    pawn = grundy.pawn.analyze([(2, 3), (1, 1)])
    assert json.loads(json.dumps(grundy.to_data(pawn)))["winning_moves"] == [
        {"pawn": m.pawn, "x": m.x, "y": m.y} for m in pawn.winning_moves
    ]
    json.dumps(grundy.to_data(grundy.tables.open().info()))
    with pytest.raises(TypeError, match="to_data takes the package's results, not object"):
        grundy.to_data(object())


def test_to_data_names_the_fields_of_large_components_and_classes():
    import json

    a = grundy.clear.analyze(["110" * 4] * 8, max_time=3)
    data = json.loads(json.dumps(grundy.to_data(a)))
    assert [(c["board"], [tuple(x) for x in c["cells"]], c["value"]) for c in data["components"]] == [
        (board, list(cells), value) for board, cells, value in a.components
    ]
    assert [(c["cells"], c["count"], c["value"]) for c in data["classes"]] == list(a.classes)
