"""The engine protocol's lines (zerosum.external.protocol, docs/protocol.md): every value written as a line
reads back as itself, malformed lines are refused with one line naming them, and no text breaks the parser."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.external.protocol import (MAX_LINE, MAX_NODES, MAX_NUMBER, BestMove, GameSpec, Go, Hello, HelloDone, Id,
                                       Info, IsReady, NewGame, OptionSpec, Position, ProtocolError, Quit, ReadyOk,
                                       SetOption, Stop, Unknown, parse_command, parse_reply, read_line)

# ---- strategies: valid values of every kind ------------------------------------------------------------

_CHARS = st.characters(blacklist_categories=("Cc", "Cs"))
words = st.text(_CHARS.filter(lambda c: c not in " \t"), min_size=1, max_size=12)
texts = st.text(_CHARS | st.just("\t"), min_size=1, max_size=30).map(lambda s: s.strip(" \t")).filter(bool)
naturals = st.integers(0, MAX_NUMBER)
positives = st.integers(1, MAX_NUMBER)
wholes = st.integers(-MAX_NUMBER, MAX_NUMBER)
finite = st.floats(allow_nan=False, allow_infinity=False)


def _go() -> st.SearchStrategy[Go]:
    clocks = st.one_of(
        st.just({}),
        st.builds(lambda f, s, fi, si: {"ftime": f, "stime": s, "finc": fi, "sinc": si},
                  naturals, naturals, st.none() | naturals, st.none() | naturals))
    return st.builds(lambda m, n, d, c: Go(movetime=m, nodes=n, depth=d, **c),
                     st.none() | positives, st.none() | positives, st.none() | positives, clocks)


commands = st.one_of(
    st.builds(Hello, positives), st.just(IsReady()), st.just(NewGame()), st.just(Stop()), st.just(Quit()),
    st.builds(SetOption, words, st.just("") | texts), st.builds(Position, words, st.just("") | texts), _go())


def _option() -> st.SearchStrategy[OptionSpec]:
    spin = st.tuples(wholes, wholes).map(sorted).flatmap(
        lambda b: st.builds(lambda n, d: OptionSpec(n, "spin", str(d), b[0], b[1]), words, st.integers(b[0], b[1])))
    check = st.builds(lambda n, d: OptionSpec(n, "check", d), words, st.sampled_from(["true", "false"]))
    string = st.builds(lambda n, d: OptionSpec(n, "string", d), words, st.just("") | texts)
    return st.one_of(spin, check, string)


def _info_safe(d: object, n: object, t: object, s: dict[str, object], r: dict[str, object]) -> Info | None:
    try:
        return Info(depth=d, nodes=n, time=t, **s, **r)  # type: ignore[arg-type]
    except ProtocolError:  # every field empty
        return None


infos = st.builds(_info_safe, st.none() | naturals, st.none() | st.integers(0, MAX_NODES), st.none() | naturals,
                  st.one_of(st.just({}), wholes.map(lambda s: {"exact": s}), finite.map(lambda e: {"est": e})),
                  st.one_of(st.just({}), texts.map(lambda t: {"pv": t}), texts.map(lambda t: {"string": t}))
                  ).filter(lambda i: i is not None)
replies = st.one_of(
    st.builds(Id, st.sampled_from(["name", "author"]), texts), _option(), st.builds(GameSpec, words),
    st.just(HelloDone()), st.just(ReadyOk()), infos, st.builds(BestMove, st.none() | words))


# ---- round trips ---------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(commands, st.sampled_from(["", "\n", "\r\n"]))
def test_every_command_reads_back_as_itself(command: object, end: str) -> None:
    line = command.line()  # type: ignore[attr-defined]
    assert "\n" not in line and "\r" not in line
    assert parse_command(line + end) == command
    assert parse_reply(line) == Unknown(line)  # a command is no reply


@settings(max_examples=300, deadline=None)
@given(replies, st.sampled_from(["", "\n", "\r\n"]))
def test_every_reply_reads_back_as_itself(reply: object, end: str) -> None:
    line = reply.line()  # type: ignore[attr-defined]
    assert "\n" not in line and "\r" not in line
    assert parse_reply(line + end) == reply
    assert parse_command(line) == Unknown(line)


@settings(max_examples=200, deadline=None)
@given(_go(), st.lists(st.sampled_from([" ", "  ", "\t", " \t "]), min_size=20, max_size=20))
def test_blanks_between_words_do_not_matter(go: Go, blanks: list[str]) -> None:
    words_ = go.line().split(" ")
    line = blanks[0] + "".join(w + blanks[i + 1] for i, w in enumerate(words_))
    assert parse_command(line) == go


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60) | st.builds(lambda w, t: w + " " + t, st.sampled_from(
    ["zsp", "go", "position", "setoption", "info", "option", "id", "bestmove", "game", "isready"]), st.text(max_size=40)))
def test_any_text_is_a_value_or_one_protocol_error_line(text: str) -> None:
    for parse in (parse_command, parse_reply):
        try:
            value = parse(text)
        except ProtocolError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 400
            continue
        if not isinstance(value, Unknown):
            assert parse(value.line()) == value  # what was read is written canonically and reads the same


# ---- a transcript, read as a person reads docs/protocol.md --------------------------------------------

def test_a_transcript_reads_as_the_documented_values() -> None:
    gui = ["zsp 1", "setoption name Hash value 64", "isready", "newgame", "position connect4 moves 4453",
           "go ftime 60000 stime 59000 finc 1000 sinc 1000", "stop", "position tictactoe", "go depth 3 nodes 500",
           "quit"]
    assert [parse_command(line) for line in gui] == [
        Hello(1), SetOption("Hash", "64"), IsReady(), NewGame(), Position("connect4", "4453"),
        Go(ftime=60000, stime=59000, finc=1000, sinc=1000), Stop(), Position("tictactoe"), Go(depth=3, nodes=500),
        Quit()]
    engine = ["id name alphabeta 1.0", "id author A. Student", "option name Hash type spin default 16 min 1 max 1024",
              "game connectx:rows=6,cols=7,k=4", "zspok", "readyok",
              "info depth 5 nodes 1234 time 17 score est -0.25 pv 4 3 5", "info depth 12 score exact 18 pv 44",
              "info string error column 9 is outside 1..7", "bestmove 4", "bestmove (none)"]
    assert [parse_reply(line) for line in engine] == [
        Id("name", "alphabeta 1.0"), Id("author", "A. Student"), OptionSpec("Hash", "spin", "16", 1, 1024),
        GameSpec("connectx:rows=6,cols=7,k=4"), HelloDone(), ReadyOk(),
        Info(depth=5, nodes=1234, time=17, est=-0.25, pv="4 3 5"), Info(depth=12, exact=18, pv="44"),
        Info(string="error column 9 is outside 1..7"), BestMove("4"), BestMove(None)]
    assert Go(ftime=5, stime=7, sinc=2).clock(2) == (7, 2) and Go(ftime=5, stime=7).clock(1) == (5, 0)
    assert Go(depth=3).clock(1) is None


# ---- malformed lines -----------------------------------------------------------------------------------

BAD_COMMANDS = ["zsp", "zsp 0", "zsp one", "zsp 1 2", "isready now", "newgame x", "stop 1", "quit now",
                "setoption", "setoption Hash value 1", "setoption name Hash", "setoption name Hash 16",
                "position", "position connect4 4453", "position connect4 move 4453",
                "go 100", "go movetime", "go movetime 0", "go movetime -5", "go movetime 1.5", "go nodes 0",
                "go depth 0", "go depth 3 depth 4", "go ftime 100", "go stime 100", "go finc 5",
                "go ftime 1 stime 1 finc x", "go movetime ４", "go movetime banana", "go mate 3 movetime banana",
                "go depth 2 3", "go nodes 99999999999999999999",
                "zsp 1\x00", "isready\rgo", "go\x1b[2J"]
BAD_REPLIES = ["id", "id name", "id nick x", "option", "option name", "option name X type", "option name X type spin",
               "option name X type spin default 1", "option name X type spin default 1 min 0",
               "option name X type spin default 5 min 0 max 3", "option name X type spin default a min 0 max 3",
               "option name X type button default 1", "option name X type check default maybe",
               "option name X type check default true min 0 max 1", "option name X type check",
               "game", "game connect4 tictactoe", "zspok now", "readyok 1", "info", "info depth", "info depth x",
               "info depth -1", "info nodes 1.5", "info score", "info score 3", "info score exact", "info score exact 1.5",
               "info score est nan", "info score est inf", "info score est 1e9999", "info score est 0x10",
               "info score exact 1 score est 2", "info depth 1 depth 2", "info pv", "info string", "info seldepth 3",
               "info depth 1 cp 30", "bestmove", "bestmove 4 ponder 5", "bestmove 4 5"]


@pytest.mark.parametrize("line, go, ignored", [
    ("go depth 2 ponder", Go(depth=2), ("ponder",)), ("go depth 2 mate 3", Go(depth=2), ("mate 3",)),
    ("go infinite", Go(), ("infinite",)), ("go mate 3 movetime 50 searchmoves 4 5", Go(movetime=50),
                                           ("mate 3", "searchmoves 4 5")),
])
def test_a_go_field_of_a_later_version_is_skipped_not_refused(line: str, go: Go, ignored: tuple[str, ...]) -> None:
    """docs/protocol.md: a limit an engine does not understand does not make it refuse the go (it was an error)."""
    parsed = parse_command(line)
    assert parsed == go and isinstance(parsed, Go) and parsed.ignored == ignored and parsed.line() == go.line()


@pytest.mark.parametrize("line, bound", [("info score exact 99999999999999999999", -MAX_NUMBER),
                                         ("info score exact -9223372036854775808", -MAX_NUMBER),
                                         ("info depth 99999999999999999999", 0),
                                         ("option name X type spin default 1 min 0 max 99999999999999999999", -MAX_NUMBER)])
def test_a_number_too_large_is_said_to_be_out_of_range_with_its_bound(line: str, bound: int) -> None:
    """It said 'an exact score is a whole number, not ...' of a whole number: the fault is its size."""
    with pytest.raises(ProtocolError) as exc:
        parse_reply(line)
    assert f"out of range: a whole number in {bound}..{MAX_NUMBER}" in str(exc.value), exc.value
    assert parse_reply(f"info score exact {-MAX_NUMBER}") == Info(exact=-MAX_NUMBER)
    with pytest.raises(ProtocolError, match="out of range"):
        Info(exact=MAX_NUMBER + 1)


@pytest.mark.parametrize("line", BAD_COMMANDS)
def test_a_malformed_command_is_one_error_line_naming_it(line: str) -> None:
    with pytest.raises(ProtocolError) as exc:
        parse_command(line)
    message = str(exc.value)
    assert "\n" not in message and repr(line.split()[0])[1:-1] in message


@pytest.mark.parametrize("line", BAD_REPLIES)
def test_a_malformed_reply_is_one_error_line_naming_it(line: str) -> None:
    with pytest.raises(ProtocolError) as exc:
        parse_reply(line)
    assert "\n" not in str(exc.value) and line.split()[0] in str(exc.value)


@pytest.mark.parametrize("line", ["", "   ", "uci", "ucinewgame", "debug on", "ISREADY", "xyzzy 1 2 3", "bestmove 4"])
def test_an_unknown_first_word_is_unknown_not_an_error(line: str) -> None:
    assert parse_command(line) == Unknown(line)


@pytest.mark.parametrize("build", [
    lambda: Position("connect 4"), lambda: Position("connect4", " 44"), lambda: Position("", "4"),
    lambda: BestMove("4 5"), lambda: BestMove(""), lambda: Info(), lambda: Info(exact=1, est=1.0),
    lambda: Info(pv="4", string="x"), lambda: Info(est=float("nan")), lambda: Info(depth=-1), lambda: Info(depth=True),
    lambda: Go(movetime=0), lambda: Go(ftime=1), lambda: Go(nodes=2**63), lambda: Hello(0), lambda: Id("nick", "x"),
    lambda: Id("name", "a\nb"), lambda: SetOption("a b", "1"), lambda: OptionSpec("x", "spin", "3", 4, 5),
    lambda: OptionSpec("x", "check", "yes"), lambda: OptionSpec("x", "string", "a", 0, 1), lambda: GameSpec("a\tb"),
])
def test_a_value_that_could_not_be_a_line_is_refused(build: object) -> None:
    with pytest.raises(ProtocolError):
        build()  # type: ignore[operator]


# ---- bounded lines -------------------------------------------------------------------------------------

def test_lines_are_bounded() -> None:
    moves = "4" * (MAX_LINE - len("position connect4 moves "))
    assert parse_command(f"position connect4 moves {moves}") == Position("connect4", moves)
    with pytest.raises(ProtocolError, match="longer than"):
        parse_command(f"position connect4 moves {moves}4")
    with pytest.raises(ProtocolError, match="longer than"):  # counted in bytes of UTF-8
        parse_reply("info string " + "é" * (MAX_LINE // 2))


def test_read_line_drops_a_line_too_long_and_reads_on() -> None:
    stream = io.BytesIO(b"isready\r\n" + b"x" * 5000 + b"\n" + b"caf\xc3\xa9\n" + b"\xff\xfe\nquit")
    assert read_line(stream, limit=1000) == "isready"
    with pytest.raises(ProtocolError, match="longer than 1,000"):
        read_line(stream, limit=1000)
    assert read_line(stream, limit=1000) == "café"
    with pytest.raises(ProtocolError, match="not UTF-8"):
        read_line(stream, limit=1000)
    assert read_line(stream, limit=1000) == "quit"
    assert read_line(stream, limit=1000) is None
