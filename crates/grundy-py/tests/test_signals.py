"""Ctrl-C (SIGINT) during a long search and during a build raises
KeyboardInterrupt promptly; a build leaves a partial file it resumes from."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import grundy

SEARCH = """
import sys, numpy as np, grundy
print("started", flush=True)
try:
    grundy.clear.analyze(np.ones((8, 8), dtype=bool), max_positions=None)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""

VALUES = """
import sys, numpy as np, grundy
print("started", flush=True)
try:
    # Full 6 x 6 boards: minutes each, on rayon's workers, not the main
    # thread, where Python's signal handlers run.
    grundy.tables.open().values(np.ones((2, 6, 6), dtype=bool), max_positions=None)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""

ENGINE = """
import sys, grundy
print("started", flush=True)
try:
    # A dense 7 x 7 block whose move takes far longer than the test waits.
    grundy.clear.engine_move(["1111111"] * 3 + ["1110111"] + ["1111111"] * 3, max_time=600)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""

# Boards past 64 cells, searched by the large analyzer for far longer than
# the test waits, with no budget to end them: a 12 x 12 board with one
# corner cell empty to analyse (143 cells), and a 9 x 9 board with one cell
# empty off its centre, whose move takes as long (80 cells).
LARGE = """
import math, sys, grundy
board = %r
print("started", flush=True)
try:
    grundy.clear.%s(board, max_time=math.inf, max_positions=None)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""
LARGE_BOARDS = {
    "analyze": ["1" * 12] * 11 + ["0" + "1" * 11],
    # Two holes that no half turn pairs: the engine proves no move at once
    # (with one hole, clearing the rows below its mirror point wins).
    "engine_move": ["1" * 9] * 3 + ["111101111"] + ["1" * 9] * 2 + ["111111101"] + ["1" * 9] * 2,
}

SPLIT_ENGINE = """
import sys, numpy as np, grundy
# A random 160 x 160 grid: `grundy split --move --max-time 30` on it (a
# release build) answers "unproven: the budget ran out", so the engine
# does not finish on its own in the time the test waits.
grid = np.random.default_rng(0).integers(0, 2, (160, 160))
print("started", flush=True)
try:
    grundy.split.engine_move(grid, max_time=600)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""

BUILD = """
import sys, grundy
print("started", flush=True)

def progress(tier, tiers, done, total):
    # Tell the parent once tiers 1 to 5 are in the file.
    global said
    if tier >= 6 and not said:
        said = True
        print("tier", tier, flush=True)

said = False
try:
    grundy.tables.build("5x6", sys.argv[1], progress=progress)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


# A Solver's memo after Ctrl-C: what the search finished stays, so the
# same call made again goes on from there (as after a budget's stop). The
# first call fills the memo within a position budget; the second, with no
# budget, is interrupted; the memo then holds at least as much, and its
# values answer a third call, within a budget too small to search anew,
# that the first could not finish.
SOLVER = """
import sys, grundy
board = ["1111111"] * 3 + ["1110111"] + ["1111111"] * 3
solver = grundy.clear.Solver(threads=1)
try:
    solver.analyze(["111111", "111111", "111011", "111111"], max_positions=None)
    solver.analyze(board, max_positions=200_000)
except grundy.BudgetExceeded:
    pass
before = solver.memory_bytes
print("started", flush=True)
try:
    solver.analyze(board, max_positions=None)
except KeyboardInterrupt:
    print("interrupted", before > 0 and solver.memory_bytes >= before, flush=True)
    small = solver.analyze(["111111", "111111", "111011", "111111"], max_positions=0)
    print("kept", small.value, flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


# A long play-out of a sum of pawns (300 pawns far out: thousands of moves,
# each step looking at every move of every pawn): other Python threads run
# meanwhile (the GIL is released), and Ctrl-C stops it.
PAWN_PLAY = """
import random, sys, threading, time, grundy
rng = random.Random(1)
pawns = [(rng.randrange(4096), rng.randrange(4096)) for _ in range(300)]
analysis = grundy.pawn.analyze(pawns, blocked=[(5, 5), (100, 7)])
ticks = 0
def tick():
    global ticks
    while True:
        time.sleep(0.01)
        ticks += 1
threading.Thread(target=tick, daemon=True).start()
print("started", flush=True)
try:
    analysis.%s()
except KeyboardInterrupt:
    print("interrupted", ticks > 20, flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


def interrupt(script, *args, after=1.5, wait_for=None, within=None):
    """Runs `script`, sends it SIGINT `after` seconds after it says
    "started" (and `wait_for`), and returns its exit code, stdout and
    stderr; with `within`, asserts that it ended that many seconds after
    the signal."""
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A runner started in the background by a shell without job control
        # (`cmd &` in a script) ignores SIGINT, and an ignored signal stays
        # ignored across exec: Python then installs no handler and Ctrl-C
        # would never arrive. The child gets the default back, as a
        # terminal would give it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout.readline().strip() == "started"
    if wait_for is not None:
        assert proc.stdout.readline().startswith(wait_for)
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        # A child the signal did not stop would run on after the test.
        proc.kill()
        proc.communicate()
        raise
    took = time.monotonic() - sent
    if within is not None:
        assert took < within, f"ended {took:.1f} s after the signal: {err}"
    return proc.returncode, out.strip(), err


def test_ctrl_c_during_a_search():
    code, out, err = interrupt(SEARCH)
    assert (code, out) == (0, "interrupted"), err


def test_ctrl_c_keeps_a_solvers_memo():
    code, out, err = interrupt(SOLVER, after=1, within=5)
    expected = grundy.clear.analyze(["111111", "111111", "111011", "111111"]).value
    assert (code, out) == (0, f"interrupted True\nkept {expected}"), err


def test_ctrl_c_during_a_pawn_play_out_and_other_threads_run():
    code, out, err = interrupt(PAWN_PLAY % "play", after=1, within=5)
    assert (code, out) == (0, "interrupted True"), err


def test_ctrl_c_during_an_engine_move():
    code, out, err = interrupt(ENGINE)
    assert (code, out) == (0, "interrupted"), err


@pytest.mark.parametrize("call", ["analyze", "engine_move"])
def test_ctrl_c_during_a_search_of_a_board_past_64_cells(call):
    # Every phase of the large analysis checks the stop flag the signal
    # sets, so the search ends within one step, not at its next progress
    # report of the small solver.
    code, out, err = interrupt(LARGE % (LARGE_BOARDS[call], call), after=1, within=5)
    assert (code, out) == (0, "interrupted"), err


def test_ctrl_c_during_a_split_engine_move():
    # Without a way to stop it, the engine would run on to max_time (600 s):
    # the SIGINT ends its search within one step.
    code, out, err = interrupt(SPLIT_ENGINE, after=0.5, within=3)
    assert (code, out) == (0, "interrupted"), err


def test_ctrl_c_during_many_boards_valued_at_once():
    code, out, err = interrupt(VALUES)
    assert (code, out) == (0, "interrupted"), err


def test_ctrl_c_during_a_build_leaves_a_file_to_resume(tmp_path):
    # The 5 x 6 box takes far longer than the test waits; the signal comes
    # once tiers 1 to 5 are written.
    path = tmp_path / "clear-5x6.gdb"
    code, out, err = interrupt(BUILD, str(path), after=0.2, wait_for="tier")
    assert (code, out) == (0, "interrupted"), err
    assert not path.exists()
    assert (tmp_path / "clear-5x6.gdb.partial").exists()
    # The same call resumes from the partial file: with a budget too short
    # to rebuild them, it still holds tiers 1 to 5. (A resumed build is
    # checked to completion in test_tables.)
    with pytest.raises(grundy.BudgetExceeded) as stopped:
        grundy.tables.build("5x6", path, progress=False, max_time=0.01)
    assert stopped.value.found["tiers"] >= 5


FORK = """
import os, sys, grundy
grid = ["1" * 12] * 12
first = grundy.split.analyze(grid).value
values = grundy.tables.open().values([[[1, 1, 1], [1, 0, 1]]] * 4)
pid = os.fork()
if pid == 0:
    # A child forked after rayon ran in the parent (a multiprocessing pool
    # on Linux): the same calls answer here too.
    ok = grundy.split.analyze(grid).value == first
    ok = ok and list(grundy.tables.open().values([[[1, 1, 1], [1, 0, 1]]] * 4)) == list(values)
    os._exit(0 if ok else 1)
_, status = os.waitpid(pid, 0)
print("child", os.waitstatus_to_exitcode(status), flush=True)
"""


def test_a_forked_child_can_search_after_its_parent_did():
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(FORK)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip() == "child 0", done.stderr
