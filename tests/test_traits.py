"""Engines and games declare their traits as data, and the faces draw from them (#21, item 2).

Two checks.  No face (``ui/``, ``commands/``, ``arena/``, the page's ``static/``) knows an agent or a game by
name -- outside a short list of genuine defaults and keywords, each with its reason -- and no engine asks
whether a game is a ``ConnectX``.  And a new agent, defined here from its module alone (its class, its
registration), appears with its label, its units and its trace support in ``zerosum play``, the page's
opponent list, ``zerosum explain`` (and the page's "why?") and ``zerosum report``.
"""

from __future__ import annotations

import ast
import io
import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

import zerosum
from zerosum.agents import registry
from zerosum.agents.base import SearchAgent, SearchResult, Tracer, bounded, check_search, server_options
from zerosum.agents.traits import MEAN, AgentTraits, ServerTraits, ValueUnit
from zerosum.game import Game

SRC = Path(zerosum.__file__).parent
FACES = ("ui", "commands", "arena")

# ---- no face names an agent or a game ------------------------------------------------------------------

#: what counts as a name: every agent and game zerosum ships (and registers), and the game classes
AGENT_NAMES = ("random", "first", "human", "minimax", "alphabeta", "mcts", "solver", "openspiel-mcts")
GAME_NAMES = ("connectx", "connect4", "tictactoe", "migration", "othello")
GAME_CLASSES = ("ConnectX", "TicTacToe", "Migration", "Othello")
_NAME = "|".join(re.escape(n) for n in (*AGENT_NAMES, *GAME_NAMES))
#: a string that *is* a spec of one of them: the name alone, a preset (``connect4-8x8``) or ``name:key=...``
SPEC = re.compile(rf"^({_NAME})(-[\w-]+)?(:\w+=.*)?$", re.S)

#: the genuine exceptions, each (file, the literal found) with its reason; every entry must still be found,
#: so the list cannot outlive what it excuses
ALLOWED = {
    # defaults: the game an option or a request means when it names none (DESIGN: --game default connect4)
    ("commands/options.py", "'connect4'"): "the default of every --game option (DESIGN)",
    ("ui/position.py", "'connect4'"): "the page's game when a request names none (the --game default)",
    ("ui/terminal.py", "'connect4'"): "play()'s default game (the --game default)",
    ("ui/static/app.js", '"connect4"'): "the page's first game before the address is read (the --game default)",
    ("ui/static/index.html", '"connect4"'): "the game chooser's first entry before the catalogue loads",
    ("ui/static/start.js", '"connect4"'): "the --game default, and Pons' ?pos= addresses (below)",
    ("ui/static/start.js", '"connectx:rows=6,cols=7,k=4"'): "Pons' ?pos= is Connect Four's 7 x 6 notation by "
                                                            "definition (an outside format), so it names that board",
    ("commands/bench.py", "'connect4'"): "the board a benchmark measures on by default",
    ("commands/bench.py", "'connect4-8x8'"): "the board the alpha-beta benchmark measures on by default",
    ("ui/warmup.py", "'connect4-8x8'"): "the board whose warm-up compiles the code every board past 64 bits "
                                        "shares (one width: 8 x 8, 9 x 7, 7 x 9), prepared on a first run",
    # default agents of options, values a person may replace
    ("commands/explain.py", "'alphabeta:plain=1,depth=4'"): "explain's default --agent (a value, not a branch)",
    ("commands/kaggle.py", "'solver'"): "kaggle-agent's default SPEC",
    ("commands/kaggle.py", "'alphabeta'"): "kaggle-agent's default --opening SPEC",
    # the person at the keyboard: DESIGN's "an agent spec or 'human'" seat of zerosum play
    ("ui/terminal.py", "'human'"): "play's seat for a person (DESIGN: --first AGENT or 'human')",
    ("ui/terminal_session.py", "'human'"): "a person's seat in the session's Settings (DESIGN: --first AGENT or "
                                           "'human')",
    ("commands/play.py", "'human'"): "--first's default: a person (DESIGN)",
    # keywords of the exact solver as a component (not an agent spec), named by DESIGN's options
    ("arena/adjudicate.py", "'solver'"): "the --adjudicate solver rule (DESIGN), a keyword of the option",
    ("commands/openings.py", "'solver'"): "--with solver: the openings judged by the solver's scores",
    ("ui/position.py", "'solver'"): "the JSON field that carries the game's trait GameTraits.solver",
    # benchmarks of the engines, named after what they measure (zerosum bench mcts / alphabeta / solver)
    ("commands/bench.py", "'mcts'"): "the bench subcommand that measures MCTS",
    ("commands/bench.py", "'alphabeta'"): "the bench subcommand that measures alpha-beta",
    ("commands/bench.py", "'solver'"): "the bench subcommand that measures the solver",
    ("commands/bench.py", "'random'"): "the playout policy named random (an MCTS option value)",
    ("commands/bench.py", "from games.connectx_kernels"): "bench playouts/mcts measure the Connect-X kernels",
    # the compliance checker's test boards: an engine that names a game by its name alone ("game connectx") is
    # checked on these boards of it (each fits the 64-bit bitboard); a fixed test set, not a branch on a game
    ("commands/engine_check.py", "'connect4'"): "engine-check's test boards for 'game connectx'",
    ("commands/engine_check.py", "'connectx:rows=4,cols=5,k=3'"): "engine-check's test boards for 'game connectx'",
    ("commands/engine_check.py", "'connectx:rows=7,cols=6,k=4'"): "engine-check's test boards for 'game connectx'",
    ("commands/engine_check.py", "'connectx'"): "engine-check's test set key: the game named alone",
    ("commands/engine_check.py", "'tictactoe'"): "engine-check's test set for 'game tictactoe'",
    ("commands/engine_check.py", "'migration'"): "engine-check's test set key: the game named alone",
    ("commands/engine_check.py", "'migration:n=5'"): "engine-check's test board for 'game migration'",
    ("commands/engine_check.py", "'othello'"): "engine-check's test set key: the game named alone",
    ("commands/engine_check.py", "'othello:n=6'"): "engine-check's test board for 'game othello'",
    ("ui/terminal_settings.py", "'connect4'"): "Settings' default game (the --game default)",
    ("ui/terminal_settings.py", "'human'"): "Settings' default seats: a person (DESIGN: --first AGENT or 'human')",
    ("commands/contest.py", "'random'"): "contest new's default --reference: the random player, the homework's "
                                         "lower grading reference (DESIGN: --grade random,REFERENCE)",
    # ordinary words that happen to be agent names
    ("ui/contest_views.py", "'first'"): "the first player's column of the contest's games table",
    ("ui/server.py", "'first'"): "the query field 'first': the move a best line starts with",
    ("ui/static/contest/contest.js", '"first"'): "the first player's seat and column in a game row",
    ("arena/plan.py", "'random'"): "the openings order random/sequential",
    ("commands/arena.py", "'random'"): "the --order random/sequential choice",
    ("commands/arena_config.py", "'random'"): "the --order random/sequential choice: a new run's default",
    ("arena/store_schema.py", "'first'"): "the first player's column of the results file",
    ("arena/adjudicate.py", "'first'"): "the first player, in a sentence",
    ("ui/replay.py", "'first'"): "the replay's key for the first position",
    ("ui/static/index.html", '"first"'): "the id of the first-position button",
}


def _docstrings(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def _python_names(path: Path) -> Iterator[str]:
    """What in a module's code names an agent or a game: a string that is a spec of one (docstrings are
    documentation; a name inside a sentence -- help text, a message -- is prose, not a spec), an f-string
    that starts with one, a game class, an import of a game's module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            head = node.values[0] if node.values else None
            if isinstance(head, ast.Constant) and isinstance(head.value, str) \
                    and re.match(rf"^({_NAME})(:\w+=|$)", head.value):
                yield "f" + repr(head.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.lineno not in docs:
            if SPEC.match(node.value) and not _in_fstring(tree, node):
                yield repr(node.value)
        elif isinstance(node, ast.Name) and node.id in GAME_CLASSES:
            yield node.id
        elif isinstance(node, ast.alias) and node.name in GAME_CLASSES:
            yield "import " + node.name
        elif isinstance(node, ast.ImportFrom) and node.module \
                and re.search(rf"(^|\.)games\.({'|'.join(GAME_NAMES)})", node.module):
            yield "from " + node.module


def _in_fstring(tree: ast.AST, constant: ast.Constant) -> bool:
    return any(isinstance(n, ast.JoinedStr) and constant in n.values for n in ast.walk(tree))


_JS_STRING = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")


def _page_names(path: Path) -> Iterator[str]:
    """A string of the page's scripts or markup that is a spec of an agent or a game (comments left out)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        code = re.sub(r"(^|\s)//\s.*$", "", line)
        for m in _JS_STRING.finditer(code):
            if SPEC.match(m.group(2)):
                yield m.group(0)


def _found() -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for room in FACES:
        for path in sorted((SRC / room).rglob("*")):
            where = path.relative_to(SRC).as_posix()
            names = (_python_names(path) if path.suffix == ".py"
                     else _page_names(path) if path.suffix in (".js", ".html") else iter(()))
            for name in names:
                found[(where, name)] = found.get((where, name), 0) + 1
    return found


def test_no_face_names_an_agent_or_a_game_outside_its_documented_defaults() -> None:
    found = _found()
    unexplained = sorted(key for key in found if key not in ALLOWED)
    assert not unexplained, f"faces naming agents or games: {unexplained} (draw from traits, or add a reason)"
    stale = sorted(key for key in ALLOWED if key not in found)
    assert not stale, f"allowed names no longer found (remove them): {stale}"


def test_no_engine_or_face_asks_whether_a_game_is_a_connectx() -> None:
    test = re.compile(r"isinstance\([^)]*\bConnectX\b\s*[),]")
    offenders = [path.relative_to(SRC).as_posix() for path in SRC.rglob("*.py")
                 if path.relative_to(SRC).parts[0] not in ("games", "kernels") and test.search(path.read_text())]
    assert offenders == []


def test_games_declare_whether_the_solver_takes_them() -> None:
    assert zerosum.get_game("connect4").traits.solver
    assert zerosum.get_game("connectx:rows=8,cols=8,k=4").traits.solver  # 72 bits: the 128-bit search
    assert not zerosum.get_game("connectx:rows=15,cols=9,k=4").traits.solver  # 144 bits
    assert zerosum.get_game("connectx:rows=8,cols=8,k=4").traits.layout == zerosum.get_game("connect4").traits.layout
    for spec in ("tictactoe", "migration", "othello"):
        assert not zerosum.get_game(spec).traits.solver and not zerosum.get_game(spec).traits.layout


def test_the_servers_ranges_are_derived_from_each_agents_own_options() -> None:
    from zerosum.ui import service

    served = service.server_agents()
    assert "human" not in served  # declares no server traits: never offered
    if "alphabeta" in served:
        ab = served["alphabeta"]
        assert ab["depth"] == ("int", 1, 8) and ab["tt"] == ("int", 0, 2**20) and ab["eval"] is None
        assert ab["nodes"] == ("int", 1, 10**6) and ab["seed"] == ("int", 0, 2**32 - 1)
    if "solver" in served:
        assert served["solver"]["tt"] == ("int", 10, 22) and "threads" not in served["solver"]
    assert served["first"] == {} and served["random"] == {"seed": ("int", 0, 2**32 - 1)}


# ---- a new agent, from its module alone -----------------------------------------------------------------


class CoinAgent(SearchAgent):
    """Scores each move by the mean of a few coin flips: a search one ply deep, traced, in its own unit."""

    name = "coin"
    description = "each move scored by coin flips"
    OPTIONS = {"flips": bounded(int, "coin flips per move", 1, 1000)}
    TRAITS = AgentTraits(label="coin flipper", short="cf", traced=True, counts="flips",
                         values=ValueUnit(kind=MEAN, low=-1, high=1,
                                          words="{label}: mean of {nodes:,} coin flips, -1 .. +1"),
                         server=ServerTraits(caps={"flips": (1, 50)}),
                         opponent=("flips=5", "coin flipper, 5 flips"), strength=1000)

    def __init__(self, *, flips: int = 5, **common: Any) -> None:
        super().__init__(**common)
        self.flips = flips

    def search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None = None) -> SearchResult:
        check_search(self.spec, game, state, tracer)
        rng = random.Random(self.seed or 0)
        actions = game.actions(state)
        if tracer is not None:
            tracer.enter(state, None, 0, None, None)
        scores = {}
        for a in actions:
            if tracer is not None:
                tracer.enter(game.result(state, a), a, 1, None, None)
            scores[a] = sum(rng.choice((-1, 1)) for _ in range(self.flips)) / self.flips
            if tracer is not None:
                tracer.leave(-scores[a], "depth")  # the child's value, from its side to move's view
        best = max(actions, key=scores.__getitem__)
        if tracer is not None:
            tracer.leave(scores[best])
        return SearchResult(action=best, value=scores[best], nodes=self.flips * len(actions), depth=1,
                            scores=scores, pv=(best,))


@pytest.fixture
def coin() -> Iterator[type[CoinAgent]]:
    registry.register_agent("coin", CoinAgent)  # its registration: all a new agent adds beside its module
    try:
        yield CoinAgent
    finally:
        registry._REGISTRY.pop("coin", None)


def test_a_new_agent_is_the_strongest_in_play_with_its_label_and_units(coin: type[CoinAgent]) -> None:
    from zerosum.ui.terminal import play

    game = zerosum.get_game("tictactoe")
    assert registry.strongest_agent_spec(game) == "coin:flips=5"  # the strongest it declares itself
    feed, out = iter(["5", "q"]), io.StringIO()
    assert play("tictactoe", read=lambda prompt: next(feed, None), out=out, seed=1) == 0
    text = out.getvalue()
    assert "O (coin:flips=5)" in text
    assert re.search(r"O \(coin:flips=5\) plays \d: [+-]?[\d.]+ est\. \(coin flipper: mean of 40 coin flips, "
                     r"-1 \.\. \+1\), 40 flips", text), text


def test_a_new_agent_is_on_the_pages_opponent_list_within_its_own_ranges(coin: type[CoinAgent]) -> None:
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from zerosum.ui.server import create_app

    assert server_options(coin) == {"flips": ("int", 1, 50), "seed": ("int", 0, 2**63 - 1)}
    with TestClient(create_app(mode="inline", engine_time=1.0)) as client:
        health = client.get("/api/health").json()
        assert "coin" in health["agents"]
        assert health["opponents"][0] == {"spec": "coin:flips=5", "label": "coin flipper, 5 flips", "elsewhere": None}
        choice = client.get("/api/agent", params={"game": "tictactoe", "agent": "coin:flips=99"}).json()
        assert choice["accepted"] is False and choice["nearest"] == "coin:flips=50"
        move = client.post("/api/move", json={"game": "tictactoe", "moves": "5", "agent": "coin:flips=5"})
        assert move.status_code == 200, move.text
        assert move.json()["words"].endswith(" est.") and not move.json()["exact"]
        why = client.get("/api/explain", params={"game": "tictactoe", "moves": "5", "agent": "coin:flips=5"})
        assert why.status_code == 200, why.text
        assert why.json()["counts"] == "flips" and len(why.json()["rows"]) == 8  # traced: a row a move
        assert client.get("/api/explain", params={"game": "tictactoe", "moves": "5", "agent": "random"}
                          ).status_code == 400  # does not search: nothing to explain


def test_a_new_agent_is_explained_from_its_traced_search(coin: type[CoinAgent], capsys: Any) -> None:
    from zerosum.cli import main

    assert main(["explain", "5", "--game", "tictactoe", "--agent", "coin:flips=5", "--depth", "1",
                 "--no-boards"]) == 0
    text = capsys.readouterr().out
    assert "coin:flips=5: 40 flips (recorded per depth 1 8)" in text
    assert "is chosen: it scores" in text and "no other move scores more" in text


def test_a_new_agent_has_its_short_label_in_the_report(coin: type[CoinAgent], tmp_path: Path) -> None:
    from rich.console import Console

    from zerosum.arena.plan import ArenaConfig
    from zerosum.arena.report import print_tables, short_labels, summarize
    from zerosum.arena.store import Store

    agents = ["coin:flips=5", "coin:flips=20", "random"]
    assert short_labels(agents) == ["cf:f5", "cf:f20", "random"]
    with Store(tmp_path / "r.db", create=True) as store:
        store.initialise(ArenaConfig(game="tictactoe", agents=agents, games=2, mode="round-robin").to_json(),
                         [(a, a) for a in agents], [])
    with Store(tmp_path / "r.db") as store:
        report = summarize(store)
    shown = []
    for width in range(60, 121, 10):
        text = io.StringIO()
        print_tables(report, Console(file=text, width=width, color_system=None))
        shown.append(text.getvalue())
    assert any("cf:f5" in text and "coin:flips=5" in text for text in shown)  # the legend maps it back
