#!/usr/bin/env python3
"""Writes the seed inputs in fuzz/seeds/<target>/ from the project's sample
files (crates/grundy-cli/tests/data/) and a few hand-written examples of
each format. Run from anywhere; it rewrites the seeds directory."""

import json
import pathlib
import shutil

FUZZ = pathlib.Path(__file__).resolve().parent
DATA = FUZZ.parent / "crates" / "grundy-cli" / "tests" / "data"
SEEDS = FUZZ / "seeds"


def sample(name):
    return (DATA / name).read_bytes()


# The first byte of some targets is a parameter: N boards, a chunk size,
# or the game and endpoint.
def with_byte(byte, body):
    return bytes([byte]) + body


pshtbrth = sample("pshtbrth.in")
caos3 = sample("caos3.in")
caos3_map = b"\n".join(caos3.split(b"\n")[2:])

seeds = {
    "clear_boards": [
        b"0110\n0000\n0000\n0001\n",
        b".##.\n#..#\r\n\n\n111\n101\n\n1\n",
        sample("gfg1.in"),
        b"11111111\n" * 8,
        b"0110\n01x0\n",
    ],
    "split_grids": [
        b"101\n010\n",
        b"\n1 0 x\r\n.1.\n\n",
        caos3_map,
        b"^^^^^\n" * 5,
        b"3 4\n0 0\n1 1\n2 3\n",
        b"1000000000 1000000000\n999999999 0\n",
    ],
    "pawn_blocked": [
        b"1 1\r\n\n  4\t2  \n5,6\n 7 , 8\n",
        b"1 1\n2 -3\n",
        b"1,2",
        b" 3 , 4 ",
        b"0,0,9,9",
        b"1000000000 0\n",
    ],
    "sum_queries": [
        with_byte(2, b"value 1 3\r\n\nwinner 2 2\n  move\t1 3\nset 2\n0110\n.##.\nvalue 1 1\nset 3\n1\n\n"),
        with_byte(0, b"set 1\n01\n011\n"),
        with_byte(5, b"move 1 2 3\n"),
    ],
    "judge_gfg": [sample("gfg1.in"), sample("gfg2.in")],
    "judge_pshtbrth": [
        with_byte(63, pshtbrth),
        with_byte(2, pshtbrth.replace(b"\n\n", b"\n").replace(b"\n", b"\r\n")),
        with_byte(6, b"1\n2 3\n1111\n1111\n1111\n1111\n0000\n0000\n0000\n0000\n1 1 2\n1 2 2\n1 2 3\n"),
    ],
    "judge_gridgame": [sample("gridgame.in"), b"1\n2\n1 1\n4 2\n1\n000000000001 2\n"],
    "judge_caos3": [caos3, b"2\n1 1\n^\n2 3\n^^^\n^#^\n"],
}

# web_requests: first byte % 3 picks clear, pawn, split; bit 7 picks play.
CLEAR, PAWN, SPLIT = 0, 1, 2
web = [
    (CLEAR, {"board": ["0110", "0000", "0000", "0001"]}),
    (CLEAR, {"boards": [["110", "111", "011"], ["11", "10"], ["1"]]}),
    (CLEAR, {"boards": [["111", "101"], ["11"]]}),
    (CLEAR, {"board": ["11111", "11111"], "budget": {"max_positions": 1000, "max_time_ms": 50}}),
    (PAWN, {"pawns": [[1, 2], [5, 5]], "blocked": [[1, 1], [4, 2]], "region": [8, 8]}),
    (PAWN, {"pawns": [[1000000000, 5]]}),
    (SPLIT, {"grid": ["101", "010", "111"], "moves": [[0, 0]]}),
    (SPLIT, {"grid": ["11111", "1x.x1", "11111"], "budget": {"max_positions": 100}}),
]
seeds["web_requests"] = [with_byte(b, json.dumps(body).encode()) for b, body in web]
# The same bodies for play: 0x80 + k with (0x80 + k) % 3 the game.
for b, body in web:
    game = b % 3
    k = next(k for k in range(3) if (0x80 + k) % 3 == game)
    seeds["web_requests"].append(with_byte(0x80 + k, json.dumps(body).encode()))

# db_reader: small databases written by `grundy tables build` (whole
# files of a few boxes, in format version 2, and the two parts of a
# partitioned build, in version 1).
def databases():
    import subprocess
    import tempfile

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        grundy = ["cargo", "run", "-q", "-p", "grundy-cli", "--", "tables", "build"]
        for b in ["1x1", "1x2", "1x3", "2x2", "2x3"]:
            subprocess.run(grundy + ["--box", b, "--out", str(tmp / f"{b}.gdb")],
                           check=True, cwd=FUZZ.parent, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            out.append((tmp / f"{b}.gdb").read_bytes())
        subprocess.run(grundy + ["--box", "2x2", "--local-ranks", "2", "--out", str(tmp / "p.gdb")],
                       check=True, cwd=FUZZ.parent, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        out += [(tmp / f"p.part-{i}-of-2.gdb").read_bytes() for i in range(2)]
    return out


seeds["db_reader"] = databases()


# db_partial: a mode byte (0: the rest is the partial file), then what a
# 3 x 3 build stopped after a few tiers keeps, the finished file as a
# partial, its first half, and another box's file (refused).
def partials():
    import subprocess
    import tempfile

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        grundy = ["cargo", "run", "-q", "-p", "grundy-cli", "--", "tables", "build", "--keep-every", "16"]
        for b, limit in [("3x3", ["--max-time", "0.02"]), ("3x3", []), ("2x3", [])]:
            path = tmp / f"{b}-{len(limit)}.gdb"
            subprocess.run(grundy + ["--box", b, "--out", str(path)] + limit,
                           cwd=FUZZ.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            kept = path if path.exists() else pathlib.Path(str(path) + ".partial")
            out.append(with_byte(0, kept.read_bytes()))
    whole = out[1][1:]
    out.insert(2, with_byte(0, whole[: len(whole) // 2]))
    return out


seeds["db_partial"] = partials()

shutil.rmtree(SEEDS, ignore_errors=True)
for target, inputs in seeds.items():
    folder = SEEDS / target
    folder.mkdir(parents=True)
    for i, data in enumerate(inputs):
        (folder / f"seed-{i:02}").write_bytes(data)
    print(f"{target}: {len(inputs)} seeds")
