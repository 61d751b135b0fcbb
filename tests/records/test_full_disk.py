"""A record file a full disk, a file-size limit or an interrupted run cannot tear: every game is appended whole
or not at all, the error names the file, and a resumed run removes a torn last game (saying so), refuses a
file damaged before its end, and writes the stored games the file lacks."""

import dataclasses
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import process_helpers  # tests/process_helpers.py
from zerosum.cli import main
from zerosum.errors import InvalidFileError
from zerosum.records import Record, Writer, format, from_store, parse, read

RUN = ["--jobs", "1", "--quiet", "--grace", "5"]


def games(n: int) -> list[Record]:
    """``n`` short Tic-Tac-Toe records, told apart by their Round."""
    return [Record({"Game": "tictactoe", "Round": str(i + 1), "Termination": "normal"}, ["5", "1", "9"],
                   result="*") for i in range(n)]


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs (root and a working ``mount`` only), unmounted afterwards."""
    with process_helpers.small_disk(tmp_path / "small", "64k") as where:
        yield where


def test_full_disk_leaves_only_whole_games(small_disk, tmp_path, capsys):
    db, pgn = tmp_path / "sm.db", small_disk / "sm.pgn"
    code = main(["match", "random", "first", "--game", "tictactoe", "--games", "400", *RUN, "--out", str(db),
                 "--pgnout", str(pgn)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert f"record file '{pgn}': No space left on device; it holds " in err
    held = read(pgn)  # every game in the file is whole: it reads back
    assert f"it holds {len(held)} whole games" in err
    stored = list(from_store(db))
    assert len(stored) == len(held) + 1 and f"(game {len(stored)} is in the results file" in err
    assert held == stored[: len(held)]
    # with room again, --resume writes the stored game the file lacks, then the rest of the run
    subprocess.run(["mount", "-o", "remount,size=1m", str(small_disk)], check=True)
    code = main(["match", "--resume", *RUN, "--out", str(db), "--pgnout", str(pgn)])
    err = capsys.readouterr().err
    assert code == 0
    assert err == f"record file '{pgn}': wrote 1 game of the results file that it lacked (round {len(stored)})\n"
    assert read(pgn) == list(from_store(db)) and len(read(pgn)) == 400


FILE_SIZE_LIMIT = textwrap.dedent("""
    import resource, signal, sys
    from zerosum.errors import InvalidFileError
    from zerosum.records import Record, Writer
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit is short, the next one EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
    with Writer(sys.argv[1]) as w:
        try:
            for i in range(1000):
                w.write(Record({"Game": "tictactoe", "Round": str(i + 1), "Termination": "normal"}, ["5", "1", "9"],
                                 result="*"))
        except InvalidFileError as exc:
            print(exc)
""")


@pytest.mark.parametrize("limit", [1000, 1500, 2222])
def test_a_file_size_limit_cuts_back_a_short_write_and_names_the_file(tmp_path, limit):
    path = tmp_path / "limit.pgn"
    done = subprocess.run([sys.executable, "-c", FILE_SIZE_LIMIT, str(path), str(limit)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    message = done.stdout.strip()
    held = read(path)
    assert message == f"record file '{path}': File too large; it holds {len(held)} whole games"
    assert held == games(len(held)) and len(held) >= 1
    assert path.read_text() == "\n".join(format(r) for r in held)  # nothing after the last whole game
    assert os.path.getsize(path) <= limit


@settings(max_examples=30, deadline=None)  # each example fsyncs a few games
@given(st.integers(1, 4), st.data())
def test_resume_removes_a_torn_last_game_and_says_so(tmp_path_factory, whole, data):
    path = tmp_path_factory.mktemp("torn") / "t.pgn"
    with Writer(path) as w:
        for r in games(whole + 1):
            w.write(r)
    text = path.read_bytes()
    start = len("\n".join(format(r) for r in games(whole)).encode())
    cut = data.draw(st.integers(start + 2, len(text) - 2), label="cut")  # inside the last game (not its newline)
    path.write_bytes(text[:cut])
    first = text[: start + 1].count(b"\n") + 1  # the torn game's first line
    with Writer(path) as w:
        assert w.held == whole
        assert w.notes == [f"record file '{path}': removed a torn last game ({cut - start:,} bytes from line "
                           f"{first}) left by an interrupted run"]
        w.write(games(whole + 2)[-1])
    assert read(path) == games(whole) + games(whole + 2)[-1:]


def test_a_file_that_ends_in_whole_games_is_appended_to_as_it_is(tmp_path):
    path = tmp_path / "w.pgn"
    path.write_text(format(games(1)[0]).rstrip("\n"))  # no newline after the result token
    with Writer(path) as w:
        assert (w.held, w.notes) == (1, [])
        w.write(games(2)[1])
    assert read(path) == games(2)


@pytest.mark.parametrize("damage, where", [
    (lambda t: t[:300] + "\n" + t, "tag line cut short"),  # a torn game, then the games again
    (lambda t: t.replace(" *\n", "\n", 1), "followed by a tag"),  # a game without its result, then more
    (lambda t: "notes, not a record\n" + t, "where a game's first tag belongs"),
    (lambda t: t + "x" * 70_000 + "\n" + t, "a line longer than"),
])
def test_resume_refuses_a_file_damaged_before_its_end(tmp_path, damage, where):
    path = tmp_path / "d.pgn"
    text = damage("\n".join(format(r) for r in games(3)))
    path.write_text(text)
    with pytest.raises(InvalidFileError) as info:
        Writer(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"record file '{path}', line ") and where in message
    assert "nothing is appended" in message and len(message) < 400
    assert path.read_text() == text


def untimed(records: list[Record]) -> list[Record]:
    """The records with every move's time left out (a replayed game's times are its own)."""
    return [Record(r.tags, r.moves, [n and dataclasses.replace(n, time=None) for n in r.notes], r.result)
            for r in records]


def test_resume_writes_the_stored_games_the_record_lacks(killed_run, capsys):
    db, pgn, full = killed_run(6, 4)  # killed after four games were stored ...
    pgn.write_text("\n".join(format(r) for r in full[:2]) + format(full[2])[:-40])  # ... and two and a bit written
    capsys.readouterr()
    code = main(["match", "--resume", *RUN, "--out", str(db), "--pgnout", str(pgn)])
    err = capsys.readouterr().err.splitlines()
    assert code == 0 and len(err) == 2
    assert err[0].startswith(f"record file '{pgn}': removed a torn last game (")
    assert err[1] == f"record file '{pgn}': wrote 2 games of the results file that it lacked (round 3, 4)"
    again = read(pgn)
    assert again == list(from_store(db))
    assert again[:4] == full[:4]  # written from the results file as they were played
    # games 5 and 6 are played again by the resumed run: the same moves, but their move times are new ones
    assert untimed(again[4:]) == untimed(full[4:])


def test_a_record_file_that_is_not_a_regular_file_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InvalidFileError, match="not a regular file"):
        Writer(fifo)  # one line, and no hang waiting for a reader
    (tmp_path / "real.pgn").write_text("")
    os.symlink(tmp_path / "real.pgn", tmp_path / "link.pgn")
    with pytest.raises(InvalidFileError, match="symbolic link"):
        Writer(tmp_path / "link.pgn")


def test_write_never_leaves_a_file_when_a_game_is_refused(tmp_path):
    path = tmp_path / "all.pgn"
    bad = games(1)[0]
    bad.moves = ["5", "\ud800"]  # changed after it was made: format checks it again
    with pytest.raises(InvalidFileError, match="surrogate"):
        from zerosum.records import write

        write(games(2) + [bad], path)
    assert not path.exists() and os.listdir(tmp_path) == []
    assert parse("".join(format(r) for r in games(2))) == games(2)


def test_a_resume_refused_for_its_record_file_prints_no_header(killed_run, capsys):
    """The run's header ("deadline per move: ...") came before the one-line error, as if the run had begun."""
    db, pgn, full = killed_run(6, 4)
    pgn.write_text("notes, not a record\n" + "\n".join(format(r) for r in full[:2]))
    capsys.readouterr()
    assert main(["match", "--resume", "--jobs", "1", "--grace", "5", "--out", str(db), "--pgnout", str(pgn)]) == 2
    out, err = capsys.readouterr()  # not --quiet: the header would show
    assert "deadline per move" not in out and err.count("\n") == 1 and "nothing is appended" in err, (out, err)
