"""Reading records takes memory in proportion to the text (docs/records.md, Bounds), measured with tracemalloc:
many small games, a game of 10,000 variations counted without making its lines, ``zerosum replay`` reading one
game at a time, and too little memory as one line."""

import io
import pickle
import tracemalloc

import pytest

import zerosum.core.files
import zerosum.ui.replay  # noqa: F401 - imported before anything is measured
import zerosum.ui.terminal  # noqa: F401
from zerosum.cli import main
from zerosum.errors import InvalidFileError
from zerosum.records import MoveNote, Record, Variation, format, parse, read

SMALL = '[Game "tictactoe"]\n\n1. 5 *\n\n'  # 28 characters: the costliest game for its text


def traced(run):
    """``(what run returned, the most bytes it held at once)``."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        out = run()
        return out, tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def variations_game(count=10_000, moves=3_800):
    """One connectx:rows=64,cols=64,k=64 game of ``moves`` moves, unfinished, with ``count`` one-move variations
    ``( 1900... 57 )`` at its last move (the file of the audit: about 170 KB)."""
    columns = [c for c in [*range(1, 57), 58, 59, 60, 61] for _ in range(64)][:moves]
    words = [(f"{i // 2 + 1}. " if i % 2 == 0 else "") + str(c) for i, c in enumerate(columns)]
    last = f"{(moves - 1) // 2 + 1}{'.' if moves % 2 else '...'}"
    body = " ".join(words + [f"( {last} 57 )"] * count + ["*"])
    lines, line = [], ""
    for word in body.split(" "):
        if line and len(line) + 1 + len(word) > 80:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return '[Game "connectx:rows=64,cols=64,k=64"]\n\n' + "\n".join(lines + [line]) + "\n"


@pytest.fixture
def in_memory(monkeypatch, tmp_path):
    """``put(text) -> path``: a record file whose text ``read_text`` gives from memory, so that what is
    measured is the reading, not the file's buffers."""
    texts = {}
    real = zerosum.core.files.read_text

    def read_text(path, what="file"):
        return texts[str(path)] if str(path) in texts else real(path, what)

    monkeypatch.setattr(zerosum.core.files, "read_text", read_text)

    def put(text, name="games.pgn"):
        path = tmp_path / name
        path.write_text(text[:1000])  # a file there, for any check of the path
        texts[str(path)] = text
        return path

    return put


def test_many_small_games_take_a_few_times_their_text():
    text = SMALL * 2_500  # the same share of the text as 5,000 games (7.2 and 7.3 times), in half the time
    parse(SMALL)  # the game's modules imported
    games, peak = traced(lambda: parse(text))
    assert len(games) == 2_500 and games[-1].moves == ["5"]
    assert peak < 10 * len(text), f"{peak / len(text):.1f} times the text"  # 6.6 to 7.4 measured; 30 before


def test_a_record_read_is_the_record_made():
    text = ('[Event "e"]\n[Round "3"]\n[First "a"]\n[Game "connect4"]\n[Opening "44"]\n[Extra "x y"]\n\n'
            '2. 3 {time=0.5s nodes=7} 2... 4? ( 2... 5 3. 1 ) 3. 4 {good} 1/2-1/2\n')
    made = Record({"Event": "e", "Round": "3", "First": "a", "Game": "connect4", "Opening": "44", "Extra": "x y",
                   "Termination": "?"}, ["3", "4", "4"],
                  [MoveNote(time=0.5, nodes=7), MoveNote(mark="?"), MoveNote(comment="good")], "1/2-1/2",
                  {1: [Variation(["5", "1"])]})
    record = parse(text)[0]
    assert record == made and repr(record) == repr(made) and record != parse(text.replace("{good}", ""))[0]
    assert list(record.tags) == list(made.tags) and record.tags["White"] == "a" and record.tags["Black"] == "?"
    assert pickle.loads(pickle.dumps(record)) == record
    fresh = parse(format(made))[0]
    assert fresh == made and fresh.notes[2].comment == "good" and fresh.variations[1][0].notes == [None, None]
    fresh.moves.append("4")  # the lists given are the record's own, changed in place
    fresh.tags["Event"] = "changed"
    assert format(fresh).count("changed") == 1 and fresh.moves[-1] == "4"
    assert "4 1/2-1/2" in format(fresh).splitlines()[-1]


def _unread(err: str) -> str:
    """Standard error without the line a load over a second says (``zerosum replay: reading ...``: traced, it is
    slow)."""
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith("zerosum replay: reading "))


def test_variations_are_counted_without_making_the_lines(in_memory, capsys):
    text = variations_game()
    path = in_memory(text, "variations.pgn")
    code, peak = traced(lambda: main(["replay", str(path), "--list"]))
    out = capsys.readouterr()
    assert (code, _unread(out.err)) == (0, "")
    assert out.out == "   1  ? - ?  *  ?  (connectx:rows=64,cols=64,k=64, 3800 moves, 10000 variations, round ?)\n"
    assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MB"  # about 9 MB, the game read; 290 MB when it made its lines
    record = parse(text)[0]
    count, peak = traced(record.count_variations)
    assert count == 10_000 and peak < 10_000
    small = parse('[Game "connect4"]\n\n1. 4 4 2. 3 ( 2. 5 5 ( 2... 2 ) ( 2... 1 6 ) 3. 1 ) ( 2. 1 ) 2... 4 *')[0]
    assert small.count_variations() == len(small.lines()) - 1 == 4
    assert small.variations[2][0].count_variations() == 2


def test_replay_holds_one_game_at_a_time(in_memory, capsys, monkeypatch):
    text = SMALL * 3_000
    many, one = in_memory(text), in_memory(SMALL, "one.pgn")

    def cost(path, *args):
        """The most bytes ``zerosum replay PATH ARGS`` held, and what it printed."""
        monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
        code, peak = traced(lambda: main(["replay", str(path), "--no-color", *args]))
        out = capsys.readouterr()
        assert code == 0 and _unread(out.err) == ""
        return peak, out.out

    cost(one, "--list")  # the command's modules imported
    base = cost(one, "--index", "1")[0]  # what the command costs besides the games
    peak, out = cost(many, "--index", "2999")
    assert "Game 2999 of 3000" in out
    # bounds with room for what the rest of a test run leaves in memory (5.3 times once, for --list): every game
    # kept was 30 times the text
    assert peak - base < 3 * len(text), f"{(peak - base) / len(text):.1f} times the text"
    base = cost(one, "--list")[0]
    peak, out = cost(many, "--list")  # the lines (printed once the whole file is known to be sound)
    assert out.count("\n") == 3_000 and out.endswith("3000  ? - ?  *  ?  (tictactoe, 1 move, round ?)\n")
    assert peak - base < 10 * len(text), f"{(peak - base) / len(text):.1f} times the text"


def test_a_malformed_game_after_the_one_asked_for_is_still_refused(in_memory, capsys):
    path = in_memory(SMALL * 3 + '[Game "tictactoe"]\n\n1. 5 5 *\n')
    for extra in (["--index", "1"], ["--list"]):
        assert main(["replay", str(path), *extra]) == 2
        out = capsys.readouterr()
        assert out.out == "" and out.err.count("\n") == 1
        assert "game 4, line 15: ply 2, move 2 ('5')" in out.err


def test_too_little_memory_is_one_line(monkeypatch, tmp_path, capsys):
    path = tmp_path / "games.pgn"
    path.write_text(SMALL * 5)
    from zerosum.records import reading

    real, calls = reading._finish, []

    def short_of_memory(*args):
        calls.append(1)
        if len(calls) == 3:
            raise MemoryError
        return real(*args)

    monkeypatch.setattr(reading, "_finish", short_of_memory)
    with pytest.raises(InvalidFileError, match=r"^record file '.*games.pgn': game 3: not enough memory to read on "
                                               r"\(140 characters of records\)$"):
        read(path)
    calls.clear()
    with pytest.raises(InvalidFileError, match=r"^game 3: not enough memory"):
        parse(SMALL * 5)
    calls.clear()
    assert main(["replay", str(path), "--list"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == (f"zerosum replay: error: record file {str(path)!r}: game 3: not enough "
                                         "memory to read on (140 characters of records)\n")

    def no_memory(*args):
        raise MemoryError

    monkeypatch.setattr(zerosum.core.files, "read_text", no_memory)
    with pytest.raises(InvalidFileError, match=r"^record file '.*games.pgn': not enough memory to read it$"):
        read(path)


def test_a_small_file_reads_under_a_small_address_space(tmp_path):
    # a read of the limit (256 MB) reserved it whatever the file's size: under `ulimit -v 200000` every record
    # read failed, a tiny file too
    import resource
    import subprocess
    import sys

    (tmp_path / "tiny.pgn").write_text('[Game "tictactoe"]\n\n1. 5 *\n')

    def small() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (200 << 20, 200 << 20))

    done = subprocess.run([sys.executable, "-c", "from zerosum import records; print(len(records.read('tiny.pgn')))"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, preexec_fn=small)
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr
