"""Shape databases: a build round trip (built, opened, equal to the built-in
database and to `grundy tables info`), values against searches, and bad
files."""

import contextlib
import errno
import json
import os
import re

import numpy as np
import pytest

import grundy


@pytest.fixture(scope="module")
def db_4x5(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "clear-4x5.gdb"
    return grundy.tables.build("4x5", path, progress=False)


def test_a_build_round_trip(db_4x5, cli):
    info = db_4x5.info(values=True)
    assert db_4x5.box == (4, 5) == info["box"]
    again = grundy.tables.open(db_4x5.path)
    assert again.info() == db_4x5.info()
    # The path is text, as `.path`, for a file and for the built-in one.
    assert info["path"] == db_4x5.path == str(db_4x5.path)
    builtin = grundy.tables.open()
    assert builtin.info()["path"] == builtin.path == str(builtin.path)
    # So are the parts' paths.
    assert builtin.info()["parts"] == [builtin.path]
    assert info["parts"] == [db_4x5.path]
    # The same shapes per tier, largest values and checksums as the CLI says.
    text = cli.run(["tables", "info", db_4x5.path]).stdout
    rows = re.findall(r"^\s*(\d+)\s+(\d+)\s+(\d+)\s+([0-9a-f]{8})$", text, re.M)
    assert [(t["tier"], t["shapes"], t["largest_value"], t["crc32"]) for t in info["tiers"]] == [
        (int(a), int(b), int(c), [int(d, 16)]) for a, b, c, d in rows
    ]
    assert sum(info["shapes_per_value"].values()) == info["shapes"]
    # Full boards agree with a search.
    for (a, b), value in info["full_boards"].items():
        assert value == grundy.clear.analyze(np.ones((a, b), dtype=bool)).value


def test_a_4x4_build_equals_the_built_in_tiers_it_shares(tmp_path):
    built = grundy.tables.build((4, 4), tmp_path / "x.gdb", threads=1, progress=False)
    mine = built.info()["tiers"]
    assert built.info()["shapes"] == 1280
    assert all(t["shapes"] > 0 for t in mine)


def test_values_agree_with_value_and_with_search(db_4x5):
    rng = np.random.default_rng(7)
    for shape, db in (((5, 5), grundy.tables.open()), ((4, 5), db_4x5), ((3, 8), grundy.tables.open())):
        boards = rng.random((300, *shape)) < rng.choice([0.4, 0.7])
        values = db.values(boards)
        assert values.dtype == np.int64 and values.shape == (300,)
        assert list(values[:40]) == [db.value(b) for b in boards[:40]]
        assert list(values[:40]) == [grundy.clear.analyze(b).value for b in boards[:40]]
    assert db_4x5.values(np.zeros((0, 4, 5))).shape == (0,)


def test_analyses_consult_a_database(db_4x5):
    board = np.ones((4, 5), dtype=bool)
    assert grundy.clear.analyze(board, tables=db_4x5).value == grundy.clear.analyze(board).value


def test_a_missing_file():
    with pytest.raises(FileNotFoundError, match="no such database"):
        grundy.tables.open("/nonexistent/clear.gdb")


def test_a_path_given_to_the_class_names_open():
    with pytest.raises(TypeError, match=r"use grundy.tables.open\(path\)"):
        grundy.tables.Database("/nonexistent/clear.gdb")


def test_a_damaged_file(db_4x5, tmp_path):
    data = bytearray(open(db_4x5.path, "rb").read())
    data[4096 + 8] ^= 0xFF  # a slot of the first tier's section, after the 4 KiB header
    damaged = tmp_path / "damaged.gdb"
    damaged.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum mismatch"):
        grundy.tables.open(damaged)
    truncated = tmp_path / "truncated.gdb"
    truncated.write_bytes(bytes(data[:5000]))
    with pytest.raises(ValueError):
        grundy.tables.open(truncated)
    other = tmp_path / "other.gdb"
    other.write_text("not a database\n")
    with pytest.raises(ValueError):
        grundy.tables.open(other)


def test_bad_boxes_and_threads(tmp_path):
    for box in ["9x9", "6", (0, 5), "axb"]:
        with pytest.raises(ValueError):
            grundy.tables.build(box, tmp_path / "x.gdb", progress=False)
    with pytest.raises(ValueError, match="threads"):
        grundy.tables.build("3x3", tmp_path / "x.gdb", threads=0)
    # A bool or a float is a type error, as everywhere else.
    for threads in (True, 2.0):
        with pytest.raises(TypeError, match="threads must be an integer"):
            grundy.tables.build("3x3", tmp_path / "x.gdb", threads=threads)
    # A mistyped count is refused before any thread starts (2**40 threads
    # never finished starting), by the Python half and by the native one.
    assert grundy.tables.MAX_THREADS == grundy._grundy.TABLES_MAX_THREADS >= 64
    for threads in (grundy.tables.MAX_THREADS + 1, 2**40):
        with pytest.raises(ValueError, match="threads must be an integer from 1 to"):
            grundy.tables.build("3x3", tmp_path / "x.gdb", threads=threads)
        with pytest.raises(ValueError, match="threads must be an integer from 1 to"):
            grundy._grundy.tables_build(3, 3, str(tmp_path / "x.gdb"), threads, None, False, None, None)
    built = grundy.tables.build((2, 2), tmp_path / "many.gdb", threads=grundy.tables.MAX_THREADS, progress=False)
    assert built.value(["11", "11"]) == grundy.clear.analyze(["11", "11"]).value
    # Sides as any integer, numpy's too, and a side of 0 said as such.
    again = grundy.tables.build((np.int64(2), 2), tmp_path / "np.gdb", progress=False)
    assert again.info()["content_crc32"] == built.info()["content_crc32"]
    for box in [(0, 3), (np.int64(0), 2), (True, 2), (2.0, 2)]:
        with pytest.raises(ValueError, match="rows and cols are positive integers"):
            grundy.tables.build(box, tmp_path / "x.gdb", progress=False)


def test_values_of_uneven_boards_name_the_board():
    db = grundy.tables.open()
    with pytest.raises(ValueError, match=r"boards\[1\] has shape \(1, 1\), boards\[0\] \(1, 2\)"):
        db.values([[[1, 0]], [[1]]])
    with pytest.raises(ValueError, match=r"boards\[0\]: ragged rows: row 1 has 1 cell, row 0 has 2 cells"):
        db.values([[[1, 0], [1]]])
    # A row that is no row, or an entry that is a list, names the board too.
    for bad in ([[[1, 1], [1, 1]], [1, [1, 1]]], [[[1, 1], [1, 1]], [[1, [1]], [1, 1]]]):
        with pytest.raises(ValueError, match=r"^boards\[1\]: not rows x cols of 0/1"):
            db.values(bad)


def test_a_progress_callback_and_a_time_budget_that_resumes(tmp_path):
    seen = []
    path = tmp_path / "p.gdb"
    with pytest.raises(grundy.BudgetExceeded) as err:
        grundy.tables.build("5x5", path, progress=lambda *a: seen.append(a), max_time=0.3)
    assert err.value.budget == "max_time"
    kept = err.value.found["tiers"]
    assert (tmp_path / "p.gdb.partial").exists()
    db = grundy.tables.build("5x5", path, progress=lambda *a: seen.append(a))
    assert seen and all(tiers == 25 for _, tiers, _, _ in seen)
    # Resumed, it is the built-in database, byte for byte in content.
    assert db.info()["content_crc32"] == grundy.tables.open().info()["content_crc32"]
    assert db.info()["tiers"] == grundy.tables.open().info()["tiers"]
    assert kept < 25
    # The build record, as `grundy tables build` writes it: the CLI's
    # command, the tier this call resumed at, its own time.
    record = json.loads((tmp_path / "p.gdb.build.json").read_text())
    assert record["command"] == "grundy tables build --box 5x5 --out p.gdb"
    assert record["first_tier"] == kept + 1
    assert record["measured"]["wall_seconds"] > 0


def test_a_time_budget_in_which_no_tier_finishes_says_so(tmp_path):
    # A tier under way is solved again from its start (small tiers keep no
    # stretches): the same budget would stop the build there again.
    path = tmp_path / "t.gdb"
    for _ in range(2):
        with pytest.raises(grundy.BudgetExceeded) as err:
            grundy.tables.build("4x5", path, progress=False, max_time=0)
        assert err.value.budget == "max_time"
        assert err.value.found["tiers"] == 0
        message = str(err.value)
        assert message.startswith("the build stopped: "), message
        assert "call again with a larger max_time to resume" in message, message


def test_a_memory_budget_below_the_process_stops_the_build(tmp_path):
    # The interpreter alone holds more than 1 MiB: the first check stops
    # the build, which keeps its partial file; a budget it stays under then
    # builds the whole box, the built-in database in content.
    path = tmp_path / "m.gdb"
    with pytest.raises(grundy.BudgetExceeded) as err:
        grundy.tables.build("5x5", path, progress=False, max_memory=1 << 20)
    assert err.value.budget == "max_memory"
    assert err.value.limit == 1 << 20
    assert err.value.found["tiers"] == 0
    message = str(err.value)
    assert "gave up at the memory budget of 1.0 MiB: the build's memory reached" in message
    assert "call again with a larger max_memory to resume" in message
    db = grundy.tables.build("5x5", path, progress=False, max_memory=1 << 40)
    assert db.info()["content_crc32"] == grundy.tables.open().info()["content_crc32"]
    with pytest.raises(ValueError, match="max_memory"):
        grundy.tables.build("2x3", tmp_path / "z.gdb", progress=False, max_memory=0)


def cli_warning(cli, directory, name):
    """The command line's warning for the damaged file ``name`` of
    ``directory``, less its ``warning: `` (the text Python's warning
    carries)."""
    done = cli.run(["clear", "--tables", str(directory), "-"], "1\n")
    (line,) = [l for l in done.stderr.splitlines() if name in l]
    return line.removeprefix("warning: ")


def test_discover_finds_what_the_cli_finds(db_4x5, tmp_path, monkeypatch, cli):
    monkeypatch.delenv("GRUNDY_TABLES", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nothing"))
    assert grundy.tables.discover() == []
    directory = tmp_path / "dir"
    directory.mkdir()
    (directory / "a.gdb").write_bytes(open(db_4x5.path, "rb").read())
    (directory / "damaged.gdb").write_text("not a database\n")
    with pytest.warns(UserWarning, match="skipping .*damaged.gdb") as warned:
        found = grundy.tables.discover([directory])
    # Worded as the command line's warning: the file named once.
    (message,) = [str(w.message) for w in warned]
    assert message.count("damaged.gdb") == 1, message
    assert message == cli_warning(cli, directory, "damaged.gdb")
    assert [db.box for db in found] == [db_4x5.box]
    board = np.ones((4, 5), dtype=bool)
    assert grundy.clear.analyze(board, tables=found[0]).value == grundy.clear.analyze(board).value
    # The environment, when no paths are given; a damaged file it names is an error.
    monkeypatch.setenv("GRUNDY_TABLES", str(directory / "a.gdb"))
    assert [db.box for db in grundy.tables.discover()] == [db_4x5.box]
    monkeypatch.setenv("GRUNDY_TABLES", str(directory / "damaged.gdb"))
    with pytest.raises(ValueError):
        grundy.tables.discover()


def test_file_system_errors_are_oserrors_as_pythons_own(db_4x5, tmp_path):
    # As open() raises them: the OSError subclass of the errno, with the
    # errno and the path.
    missing = tmp_path / "missing"
    with pytest.raises(FileNotFoundError) as raised:
        grundy.tables.discover([missing])
    assert (raised.value.errno, raised.value.filename) == (errno.ENOENT, str(missing))
    # One path alone, as a string or a path, is that path (not a list of
    # its characters).
    for alone in (str(missing), missing, os.fsencode(missing)):
        with pytest.raises(FileNotFoundError) as raised:
            grundy.tables.discover(alone)
        assert raised.value.filename == str(missing)
    with pytest.raises(FileNotFoundError) as raised:
        grundy.tables.open(missing / "clear.gdb")
    assert (raised.value.errno, raised.value.filename) == (errno.ENOENT, str(missing / "clear.gdb"))
    with pytest.raises(FileNotFoundError) as raised:
        grundy.tables.build("2x2", missing / "clear-2x2.gdb", progress=False)
    assert raised.value.errno == errno.ENOENT
    assert raised.value.filename.startswith(str(missing))
    # Refused before the work, not after it when the file is moved there.
    with pytest.raises(IsADirectoryError) as raised:
        grundy.tables.build("2x2", tmp_path, progress=False)
    assert (raised.value.errno, raised.value.filename) == (errno.EISDIR, str(tmp_path))


def test_a_directory_opens_its_one_database_as_the_cli_does(db_4x5, tmp_path, cli):
    # As `grundy tables info DIR`: the one database in it, else an error in
    # the command line's words.
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match=r"is a directory without a database \(\*\.gdb\)$") as raised:
        grundy.tables.open(empty)
    assert cli.run(["tables", "info", str(empty)]).stderr == f"error: {raised.value}\n"
    one = tmp_path / "one"
    one.mkdir()
    (one / "clear-4x5.gdb").write_bytes(open(db_4x5.path, "rb").read())
    assert grundy.tables.open(os.fsencode(one)).path == str(one / "clear-4x5.gdb")
    assert grundy.tables.open(one).info() == {
        **db_4x5.info(),
        "path": str(one / "clear-4x5.gdb"),
        "parts": [str(one / "clear-4x5.gdb")],
    }
    (one / "again.gdb").write_bytes(open(db_4x5.path, "rb").read())
    with pytest.raises(ValueError, match=r"is a directory of several databases \(.*again\.gdb, .*clear-4x5\.gdb\); name one$"):
        grundy.tables.open(one)


@contextlib.contextmanager
def without_root():
    """Root reads any file: as root, the block runs with the effective
    user `nobody` (the saved user id stays root, so it can come back)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        yield
        return
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)


def test_unreadable_files_are_permission_errors(db_4x5, tmp_path):
    tmp_path.chmod(0o755)
    locked = tmp_path / "locked.gdb"
    locked.write_bytes(open(db_4x5.path, "rb").read())
    locked.chmod(0)
    closed = tmp_path / "closed"
    closed.mkdir()
    closed.chmod(0)
    try:
        with without_root():
            with pytest.raises(PermissionError) as raised:
                grundy.tables.open(locked)
            assert (raised.value.errno, raised.value.filename) == (errno.EACCES, str(locked))
            with pytest.raises(PermissionError) as raised:
                grundy.tables.discover([closed])
            assert raised.value.filename == str(closed)
    finally:
        closed.chmod(0o700)
