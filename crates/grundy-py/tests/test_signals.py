"""Ctrl-C (SIGINT) during a long search and during a build raises
KeyboardInterrupt promptly; a build leaves a partial file it resumes from."""

import os
import signal
import subprocess
import sys
import textwrap
import time

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

BUILD = """
import sys, grundy
print("started", flush=True)
try:
    grundy.tables.build("5x5", sys.argv[1], progress=False)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


def interrupt(script, *args, after=1.5):
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "started"
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out.strip(), err


def test_ctrl_c_during_a_search():
    code, out, err = interrupt(SEARCH)
    assert (code, out) == (0, "interrupted"), err


def test_ctrl_c_during_a_build_leaves_a_file_to_resume(tmp_path):
    path = tmp_path / "clear-5x5.gdb"
    code, out, err = interrupt(BUILD, str(path), after=1.0)
    assert (code, out) == (0, "interrupted"), err
    assert not path.exists()
    assert (tmp_path / "clear-5x5.gdb.partial").exists()
    db = grundy.tables.build("5x5", path, progress=False)
    assert db.info()["content_crc32"] == grundy.tables.open().info()["content_crc32"]
    assert not (tmp_path / "clear-5x5.gdb.partial").exists()
