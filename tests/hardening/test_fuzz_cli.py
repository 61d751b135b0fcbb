"""Fuzzing every subcommand through ``main(argv)``: nothing escapes, bad input is exit 2 and one line.

Arguments are drawn per subcommand from its own parser (every option it declares), with values that are
garbage, out of range, non-ASCII digits, small valid numbers, tiny games, quick agents, and hostile files
(missing, binary, a directory, garbage text, a corrupted results file).  Games are kept tiny and agents
quick so that each call ends in well under a second; `serve` is fuzzed only with arguments it must refuse
before binding.  A bounded run is in CI; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import io
import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerosum.cli import build_parser, main

GAMES = ["tictactoe", "connectx:rows=3,cols=3,k=3", "connectx:rows=4,cols=4,k=3", "migration:n=4",
         "migration:n=3", "nosuchgame", "connectx:rows=4²", "connectx:rows=0", "migration:n=20000",
         "connectx:rows=99999999999999999999", "connectx:", ":", ""]
AGENTS = ["random", "first", "minimax:depth=1", "alphabeta:depth=1", "mcts:sims=5", "human",
          "alphabeta:depth=1,tt=30000000000", "mcts:sims=10000000000", "nosuch", "alphabeta:depth=4²",
          "alphabeta:depth=nan", "missing.py:agent", "x.py", "solver:book=maybe", "solver:tt=99", ""]
NUMBERS = ["1", "2", "0", "-1", "-3", "nan", "inf", "-inf", "1e999", "4²", "٣", "9" * 25, str(2**63),
           "0.5", "x", "", " ", "1,2"]
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
SKIP = {"--help", "-h", "--version"}


def _options() -> dict[str, list[tuple[str, bool]]]:
    """subcommand (bench ones as 'bench NAME') -> [(option or positional dest, takes a value)]."""
    parser = build_parser()
    found: dict[str, list[tuple[str, bool]]] = {}
    subs = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name, sub in subs.items():
        if name == "bench":
            for bench, bsub in sub._subparsers._group_actions[0].choices.items():  # type: ignore[union-attr]
                found[f"bench {bench}"] = _actions(bsub)
        elif name != "serve":
            found[name] = _actions(sub)
    return found


def _actions(parser: object) -> list[tuple[str, bool]]:
    out = []
    for action in parser._actions:  # type: ignore[attr-defined]
        name = action.option_strings[-1] if action.option_strings else action.dest
        if name in SKIP:
            continue
        out.append((name, action.nargs != 0))
    return out


COMMANDS = _options()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("fuzzfiles")
    (root / "garbage.txt").write_text("not\x01 a ☃ file\n4²\n[[[\n", encoding="utf-8")
    (root / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (root / "adir").mkdir()
    db = root / "corrupt.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE config (x)")
        con.execute("INSERT INTO config VALUES ('{garbage')")
    (root / "torn.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 500)
    return {"garbage": str(root / "garbage.txt"), "binary": str(root / "binary.bin"), "dir": str(root / "adir"),
            "corrupt": str(db), "torn": str(root / "torn.db"), "missing": str(root / "nope" / "x.txt")}


def _value(option: str, files: dict[str, str]) -> st.SearchStrategy[str]:
    name = option.lstrip("-")
    paths = st.sampled_from(sorted(files.values()))
    if name in ("game",):
        return st.sampled_from(GAMES)
    if name in ("first", "second", "agents", "spec", "with"):
        return st.sampled_from(AGENTS)
    if name in ("o", "output", "out", "plots", "openings", "file", "benchmark", "files"):
        return st.one_of(paths, st.sampled_from(["out.txt", "adir", ""]))
    if name in ("moves",):
        return st.one_of(st.sampled_from(["4²", "1", "12", "99", "1,1", "0;0"]), TEXT)
    return st.one_of(st.sampled_from(NUMBERS), TEXT)


@st.composite
def invocations(draw: st.DrawFn, files: dict[str, str]) -> tuple[list[str], str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    argv = command.split()
    for option, takes_value in draw(st.lists(st.sampled_from(COMMANDS[command]), max_size=4, unique=True)):
        value = draw(_value(option, files)) if takes_value else None
        if option.startswith("-"):
            argv.append(option)
            if value is not None:
                argv.append(value)
        elif value is not None:
            argv.append(value)
    if "--game" not in argv and any(o == "--game" for o, _ in COMMANDS[command]):
        argv += ["--game", draw(st.sampled_from(GAMES[:5]))]  # never the (slow) default board
    if command == "bench playouts" and "--seconds" not in argv:
        argv += ["--seconds", "0.2"]  # never its (slow) default, 3 s a playout kind
    stdin = draw(st.one_of(TEXT, st.lists(st.sampled_from(["1", "12", "4²", "q", "u", "h", "", "99"]),
                                          max_size=6).map("\n".join)))
    return argv, stdin


def _check(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as exc:  # pragma: no cover - main must return, never exit
        pytest.fail(f"main({argv!r}) raised SystemExit({exc.code!r})")
    out, err = capsys.readouterr()
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 2), (argv, code, err)
    if code == 2:  # one line a problem, each naming the command (solve names each bad input line)
        lines = err.strip().splitlines()
        assert lines and lines[-1].startswith("zerosum"), (argv, err)


def _fuzz(examples: int) -> object:
    def decorate(test: object) -> object:
        return settings(max_examples=examples, deadline=None, derandomize=True,
                        suppress_health_check=list(HealthCheck))(test)  # type: ignore[arg-type]
    return decorate


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_subcommand_refuses_bad_values_with_one_line(command: str, files: dict[str, str],
                                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Each value-taking option, given out-of-range or non-ASCII numbers, answers exit 2 with one line."""
    monkeypatch.chdir(tmp_path)
    for option, takes_value in COMMANDS[command]:
        if not takes_value or not option.startswith("-"):
            continue
        for bad in ("nan", "4²", "9" * 25, "-1e999"):
            if option.lstrip("-") in ("game", "first", "second", "moves", "with", "openings", "out", "o",
                                      "output", "plots", "backend", "order", "sprt", "opening", "host", "ray-address",
                                      "adjudicate", "tc"):
                continue
            argv = [*command.split(), option, bad]
            if any(o == "--game" for o, _ in COMMANDS[command]):
                argv += ["--game", "tictactoe"]
            monkeypatch.setattr(sys, "stdin", io.StringIO(""))
            code = main(argv)
            out, err = capsys.readouterr()
            assert code == 2, (argv, out, err)
            assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)


@pytest.mark.parametrize("argv", [
    ["serve", "--host", ""], ["serve", "--port", "99999"], ["serve", "--port", "4²"], ["serve", "--workers", "0"],
    ["serve", "--workers", "1000"], ["serve", "--engine-time", "nan"], ["serve", "--engine-time", "-1"],
])
def test_serve_refuses_bad_options_before_binding(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err


def _run_fuzz(files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str], examples: int, main_py: bool = False) -> None:
    """``main_py``: a file ./main.py there, kaggle-agent's default output, so that kaggle-agent writes only with
    --overwrite (a submission takes 2 to 4 s to write, its successful writes are test_kaggle.py's)."""
    monkeypatch.chdir(tmp_path)
    if main_py:
        (tmp_path / "main.py").write_text("my own agent\n")

    @_fuzz(examples)
    @given(invocations(files))
    def inner(case: tuple[list[str], str]) -> None:
        _check(case[0], case[1], monkeypatch, capsys)

    inner()


def test_fuzz_every_subcommand_in_process(files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # CI time: the slow test below runs 600, with no main.py (the eighth of these 30, `kaggle-agent`, wrote the
    # solver's submission there: half their time)
    _run_fuzz(files, tmp_path, monkeypatch, capsys, examples=30, main_py=True)


@pytest.mark.slow
def test_fuzz_every_subcommand_in_process_long(files: dict[str, str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    _run_fuzz(files, tmp_path, monkeypatch, capsys, examples=600)


def test_serve_on_a_port_in_use_or_an_unknown_host_is_one_line_and_starts_nothing(capsys) -> None:
    """It printed "zerosum: open http://127.0.0.1:P/ in a browser" -- someone else's server -- then uvicorn's
    own ``ERROR: [Errno 98] ...`` and exit status 3."""
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        for argv, words in ((["serve", "--port", str(port)], f"cannot serve on 127.0.0.1:{port}: the port is in use"),
                            (["serve", "--host", "no-such-host.invalid"], "cannot serve on no-such-host.invalid:")):
            assert main(argv) == 2
            out, err = capsys.readouterr()
            assert out == "" and err.count("\n") == 1 and err.startswith(f"zerosum serve: error: {words}"), (out, err)
    finally:
        taken.close()
