"""Agent names a table can show: an agent file whose name holds a control character, a line break, a
right-to-left override or a zero-width space is refused before anything is written or played (it used to play
every game, then no command could read the results file); a zero-width joiner (an emoji sequence, a Persian
word) plays, is stored and reads back, in a file written now or before."""

import json
import os
import sqlite3
from pathlib import Path

import pytest

import zerosum
from zerosum.errors import AgentError

from process_helpers import zerosum_run  # tests/process_helpers.py

EMOJI = "\U0001F469\u200d\U0001F4BBbot.py"  # woman technologist: two emoji joined by U+200D
#: each refused character, and the words the refusal says of it
REFUSED = {"\x1b": "a control character '\\x1b'", "\n": "a control character '\\n'",
           "\u202e": "a bidirectional control '\\u202e'", "\u200b": "an invisible format character '\\u200b'"}
PLAYER = "def agent(game, state):\n    open(__file__ + '.played', 'a').close()\n    return game.actions(state)[0]\n"


def agent_file(folder: Path, name: str) -> Path:
    """An agent file named ``name`` in ``folder`` that leaves ``NAME.played`` beside it once it moves."""
    path = folder / name
    path.write_text(PLAYER, encoding="utf-8")
    return path


def listing(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def test_the_predicate_keeps_the_joiners_and_refuses_what_hides_or_reorders_text():
    from zerosum.spec import unshowable

    for name in (EMOJI, "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.py", "caf\u00e9 \u4e94.py", "plain.py"):
        assert unshowable(name) is None, name  # ZWJ (emoji), ZWNJ (Persian), accents, CJK
    for char, said in REFUSED.items():
        assert unshowable(f"a{char}b.py:agent") == said
    for char in "\ufeff\u2060\u2064\u061c\u200e\u2066\u00ad\u2028\u2029\x07\ud800\U000e0041":
        assert unshowable(f"a{char}b") is not None, repr(char)


def test_a_joined_emoji_name_plays_stores_and_reports(tmp_path):
    path = agent_file(tmp_path, EMOJI)
    db, pgn = tmp_path / "r.db", tmp_path / "r.pgn"
    run = zerosum_run(["match", f"{path}:agent", "random", "--game", "tictactoe", "--games", "2", "-o", str(db),
                       "--pgnout", str(pgn), "--quiet"])
    assert run.returncode == 0, run.stderr
    report = zerosum_run(["report", str(db), "--no-plots"])
    assert report.returncode == 0, report.stderr
    assert f"{EMOJI}:agent" in report.stdout and "2 of 2 games played" in report.stdout
    assert f'"{EMOJI}:agent"' in pgn.read_text(encoding="utf-8")
    result = zerosum.match(f"{path}:agent", "random", game="tictactoe", games=2)
    assert result.first == f"{EMOJI}:agent" and result.wins + result.draws + result.losses == 2


@pytest.mark.parametrize("char", list(REFUSED))
def test_a_name_no_table_can_show_is_refused_before_anything_is_written(tmp_path, char):
    label = f"a{char}b.py:agent"
    path = agent_file(tmp_path, f"a{char}b.py")
    before = listing(tmp_path)
    db, pgn = tmp_path / "r.db", tmp_path / "r.pgn"
    run = zerosum_run(["match", f"{path}:agent", "random", "--game", "tictactoe", "--games", "2", "-o", str(db),
                       "--pgnout", str(pgn)])
    assert run.returncode == 2
    assert run.stderr == f"zerosum match: error: agent {label!r} holds {REFUSED[char]}, which no table may show: " \
                         "rename the file\n"
    assert listing(tmp_path) == before  # no results file, no record file, not a move played
    with pytest.raises(AgentError, match="which no table may show: rename the file") as caught:
        zerosum.match(f"{path}:agent", "random", game="tictactoe", games=2)
    assert repr(label) in str(caught.value) and "\n" not in str(caught.value)
    assert listing(tmp_path) == before


@pytest.mark.parametrize("how", [["tournament"], ["tournament", "--gauntlet"]])
def test_a_tournament_and_a_gauntlet_refuse_it_too(tmp_path, how):
    path = agent_file(tmp_path, "evil\u202etxt.py")
    before = listing(tmp_path)
    run = zerosum_run([*how, "random", "first", f"{path}:agent", "--game", "tictactoe", "--games", "2",
                       "-o", str(tmp_path / "t.db"), "--pgnout", str(tmp_path / "t.pgn")])
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "agent 'evil\\u202etxt.py:agent' holds a bidirectional control" in run.stderr
    assert listing(tmp_path) == before


def test_a_folder_no_table_can_show_is_named(tmp_path):
    folder = tmp_path / "d\x1bir"
    folder.mkdir()
    path = agent_file(folder, "ok.py")
    run = zerosum_run(["match", f"{path}:agent", "random", "--game", "tictactoe", "--games", "2",
                       "-o", str(tmp_path / "r.db")])
    assert run.returncode == 2
    assert run.stderr.startswith("zerosum match: error: agent 'ok.py:agent': its folder ")
    assert "d\\x1bir' holds a control character '\\x1b'" in run.stderr and "rename the folder" in run.stderr
    assert listing(tmp_path) == ["d\x1bir"] and listing(folder) == ["ok.py"]


def test_a_results_file_written_before_with_a_joined_name_reads(tmp_path):
    db = tmp_path / "old.db"
    run = zerosum_run(["match", "first", "random", "--game", "tictactoe", "--games", "2", "-o", str(db), "--quiet"])
    assert run.returncode == 0, run.stderr
    con = sqlite3.connect(db)  # the label an older zerosum stored for an agent file named so
    with con:
        con.execute("UPDATE agents SET label = ? WHERE id = 0", (f"{EMOJI}:agent",))
    con.close()
    report = zerosum_run(["report", str(db), "--no-plots"])
    assert report.returncode == 0, report.stderr
    assert f"{EMOJI}:agent" in report.stdout
    con = sqlite3.connect(db)  # an escape in a name is still refused on reading, in one line
    with con:
        con.execute("UPDATE agents SET label = ? WHERE id = 0", ("a\x1b[31mb",))
    con.close()
    report = zerosum_run(["report", str(db), "--no-plots"])
    assert report.returncode == 2
    assert report.stderr == (f"zerosum report: error: results file {str(db)!r}: its agents table holds the name "
                             "'a\\x1b[31mb', with a control character '\\x1b'\n")


# ---- a game file's name: it heads every report ("match on /path/nim.py:Nim: ..."), printed as it was ----------

def game_file(folder: Path, name: str) -> Path:
    from course_sources import nim  # tests/course_sources.py: a course game as a student writes it

    path = folder / name
    path.write_text(nim(), encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["folder", "file"])
def test_a_game_file_no_table_can_show_is_refused_before_anything_is_written(tmp_path, where):
    # before: every game played, then `zerosum report` printed the raw ESC in its first line
    folder = tmp_path / ("g\x1bames" if where == "folder" else "games")
    folder.mkdir()
    path = game_file(folder, "nim.py" if where == "folder" else "n\u202eim.py")
    before = listing(tmp_path), listing(folder)
    run = zerosum_run(["match", "first", "random", "--game", f"{path}:Nim", "--games", "2",
                       "-o", str(tmp_path / "r.db"), "--pgnout", str(tmp_path / "r.pgn")])
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    if where == "folder":
        assert run.stderr.startswith("zerosum match: error: game 'nim.py:Nim': its folder ")
        assert "g\\x1bames' holds a control character '\\x1b'" in run.stderr and "rename the folder" in run.stderr
    else:
        assert run.stderr == ("zerosum match: error: game 'n\\u202eim.py:Nim' holds a bidirectional control "
                              "'\\u202e', which no table may show: rename the file\n")
    with pytest.raises(AgentError, match="which no table may show"):
        zerosum.match("first", "random", game=f"{path}:Nim", games=2)
    assert (listing(tmp_path), listing(folder)) == before


def test_a_report_shows_a_stored_game_spec_escaped(tmp_path):
    # a results file written before the check (or by hand): its game is shown escaped, not sent to the terminal
    path = game_file(tmp_path, "nim.py")
    db = tmp_path / "r.db"
    assert zerosum_run(["match", "first", "random", "--game", f"{path}:Nim", "--games", "2", "-o", str(db)]) \
        .returncode == 0
    with sqlite3.connect(db) as con:
        (text,) = con.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
        config = json.loads(text)
        config["game"] = config["game"].replace("nim.py", "n\x1b[31mim.py")
        con.execute("UPDATE meta SET value = ? WHERE key = 'config'", (json.dumps(config),))
    run = zerosum_run(["report", str(db)])
    assert run.returncode == 0, run.stderr
    assert "\x1b" not in run.stdout and "n\\x1b[31mim.py:Nim" in "".join(run.stdout.split())  # wrapped anywhere
