"""The public Python API as a list of calls, each with a valid value for every parameter, for the wrong-type
fuzz (:mod:`test_fuzz_api_types`), and the wrong values to put in their place.

The calls are derived, not listed: every name in ``zerosum.__all__``, ``zerosum.records.__all__`` and
``zerosum.analysis.__all__`` (and a ``Service``'s methods), every
public method of each registered game (and of its states), of an agent of every kind, of a
:class:`~zerosum.Solver` and of a record :class:`~zerosum.records.Writer`.  A parameter gets its valid value by
its name from the context of its area (:func:`game_context` for a game's methods, one dict each for the
agents, the Solver, the top level and the records; :data:`BY_CALL` and :data:`TOP_BY_CALL` where one call's
parameter means something else), so a new public function is fuzzed as soon as it exists, and one whose
parameter has a name seen nowhere before stops the suite (:class:`MissingValue`, reported by
``test_every_parameter_has_a_valid_value``) until it is given one.  What is left out, and why, is
:data:`EXCLUDED`.
"""

from __future__ import annotations

import inspect
import math
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

import zerosum
import zerosum.records as records
from zerosum.games import registered_games

#: a game of each registered class, small enough that every method answers in milliseconds
SMALL_GAMES = {"connectx": "connectx:rows=4,cols=4,k=3", "tictactoe": "tictactoe", "migration": "migration:n=4",
               "othello": "othello:n=4"}
#: agents of every kind, with budgets that answer in milliseconds; the game each one is called on
AGENTS = {"random": "tictactoe", "first": "tictactoe", "minimax:depth=1": "tictactoe",
          "alphabeta:depth=2": "tictactoe", "alphabeta:plain=1,depth=2": "tictactoe",
          "mcts:sims=20,seed=1": "tictactoe", "mcts:plain=1,sims=20,seed=1": "tictactoe",
          "solver:tt=10": "connectx:rows=4,cols=4,k=4", "function": "tictactoe", "human": "tictactoe"}
#: the board the Solver is fuzzed on (20 bits: every solve takes milliseconds)
SOLVER_GAME = "connectx:rows=4,cols=4,k=4"

#: what is not fuzzed, and why
EXCLUDED = {
    "zerosum.Game": "the abstract base class to subclass: instantiating it is Python's own TypeError",
    "zerosum.errors": "a module of exception classes (their constructors take anything, as Exception's do)",
    "zerosum.records": "a module: its own __all__ is fuzzed name by name",
    "zerosum.analysis": "a module: its own __all__ is fuzzed name by name, and a Service's methods",
    "analysis.EXACT": "a constant", "analysis.CLASS": "a constant", "analysis.ESTIMATE": "a constant",
    "analysis.SOLVER_NAME": "a constant", "analysis.ESTIMATE_TIME": "a constant", "analysis.MAX_RUNS": "a constant",
    "analysis.DEFAULT_TABLE": "a constant",
    "zerosum.__version__": "a string, not a function",
    "records.RESULTS": "a constant", "records.ROSTER": "a constant", "records.WIDTH": "a constant",
    # Beyond the surface this suite fuzzes: the agent classes themselves (AlphaBetaAgent(...): Python builds
    # agents with make_agent, whose seed and limits are fuzzed, and spec options pass the spec parser), the
    # results' own methods (trace's Tree, play_game's GameRecord, match's MatchResult), the registries'
    # register_game / register_agent (they change the process), the evaluation functions a game offers
    # (called inside searches with what the search hands them), an Analysis's own methods (an answer's data,
    # read by the faces), zerosum.spec's integer and real (documented to
    # raise ValueError, which convert() turns into the caller's error), and the OpenSpiel adapter's agent
    # (openspiel-mcts: an optional extra).
}

# Areas other engineers own: a failure there is reported to them (the test marks it xfail(strict=True)).
OWNERS = {"records.": "records (src/zerosum/records/)", "zerosum.trace": "trace (src/zerosum/trace/)",
          "zerosum.play_game": "teaching/arena (play_game)", "zerosum.match": "teaching/arena (match)",
          "Writer.": "records (src/zerosum/records/)"}


def owner_of(label: str) -> str:
    """The area another engineer owns that ``label`` is in, or ''."""
    return next((who for prefix, who in OWNERS.items() if label.startswith(prefix)), "")


@dataclass
class Call:
    """One public function or method, with a valid value for each of its parameters."""

    label: str
    func: Callable[..., Any]
    args: dict[str, Any] = field(default_factory=dict)
    #: parameters whose values no wrong value may replace (a callback the test itself needs)
    fixed: tuple[str, ...] = ()

    def params(self) -> list[str]:
        return [name for name in self.args if name not in self.fixed]

    def __call__(self, **wrong: Any) -> Any:
        args = {**self.args, **wrong}
        positional = [args.pop(name) for name in list(args) if name in _positional_only(self.func)]
        return self.func(*positional, **args)


def _positional_only(func: Callable[..., Any]) -> set[str]:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return set()
    return {p.name for p in sig.parameters.values() if p.kind is p.POSITIONAL_ONLY}


def parameters(func: Callable[..., Any]) -> list[str]:
    """The names of ``func``'s parameters (not ``*args`` / ``**kwargs``)."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


class MissingValue(Exception):
    """A parameter with no valid value in :data:`VALID` or :data:`BY_CALL`."""


def _public_methods(obj: Any) -> Iterator[tuple[str, Callable[..., Any]]]:
    for name in dir(obj):
        if name.startswith("_") and name not in ("__call__", "_repr_svg_"):
            continue
        if isinstance(inspect.getattr_static(type(obj), name, None), property):
            continue
        owner = next((k for k in type(obj).__mro__ if name in vars(k)), object)
        if owner.__module__ == "builtins" and name != "__call__":  # a tuple's count, not the API's
            continue
        attr = getattr(obj, name, None)
        if callable(attr) and not isinstance(attr, type):
            yield name, attr


# ---- the valid value of each parameter, by name -------------------------------------------------------


def _first_empty_cell(game: Any, state: Any) -> Any:
    view = game.board_view(state)
    for r, row in enumerate(view.cells):
        for c, v in enumerate(row):
            if not v:
                return c if view.gravity else r * view.cols + c
    return 0


def game_context(game: Any) -> dict[str, Any]:
    """Valid values for a game's parameters: a position two moves in, a legal action there, ..."""
    state = game.initial_state
    for _ in range(2):
        state = game.result(state, game.actions(state)[0])
    action = game.actions(state)[0]
    played = [game.actions(game.initial_state)[0]]
    view = game.board_view(state)
    own = getattr(state, "black", getattr(state, "current", 0))
    opp = getattr(state, "white", getattr(state, "mask", 0) ^ own)
    return {
        "state": state, "action": action, "player": 1, "to_move": 1, "last": None, "cell": 40, "strict": True,
        "where": _first_empty_cell(game, state), "row": 0, "col": 0, "origin": "bottom", "cells": view.cells, "view": view,
        "index": game.action_index(action), "actions": played, "moves": game.format_moves(played),
        "text": game.format_moves(played), "spec": game.spec, "own": own, "opp": opp,
        "options": {key: getattr(game, key, opt.default) for key, opt in type(game).OPTIONS.items()},
        "game": game, "partial": False,
    }


#: per top-level call, values that differ from the shared context
TOP_BY_CALL: dict[str, dict[str, Any]] = {"zerosum.make_agent": {"spec": "random"}, "zerosum.match": {"seed": 0}}
#: per call, values that differ from the game's context (a parameter named alike that means another thing)
BY_CALL: dict[str, dict[str, Any]] = {
    "parse_action": {"text": "1"},
    "from_grid": {"text": None},  # filled per game: its own grid
    "position": {"spec": None},  # filled per game: a move string
}


def game_calls() -> Iterator[Call]:
    """Every public method of a small game of each registered class, and of its state; and the classes."""
    for cls in registered_games():
        game = zerosum.get_game(SMALL_GAMES.get(cls.name, cls.name))
        ctx = game_context(game)
        if hasattr(game, "to_grid"):
            ctx_grid = game.to_grid(ctx["state"])
        else:
            ctx_grid = game.render(ctx["state"])
        yield Call(f"{cls.__name__}()", cls, {key: opt.default for key, opt in cls.OPTIONS.items()})
        for name, method in _public_methods(game):
            extra = dict(BY_CALL.get(name, {}))
            if name == "from_grid":
                extra["text"] = ctx_grid
            if name == "position":
                extra["spec"] = ctx["moves"]
            yield _call(f"{cls.__name__}.{name}", method, {**ctx, **extra})
        for name, method in _public_methods(ctx["state"]):
            yield _call(f"{type(ctx['state']).__name__}.{name}", method, ctx)


def _call(label: str, func: Callable[..., Any], ctx: dict[str, Any], fixed: tuple[str, ...] = ()) -> Call:
    args = {}
    for name in parameters(func):
        if name not in ctx:
            raise MissingValue(f"{label}: no valid value for parameter {name!r}: add one to api_calls.py")
        args[name] = ctx[name]
    return Call(label, func, args, fixed)


def _reader(prompt: str) -> str:
    return "1"


def _function_agent(game: Any, state: Any) -> Any:
    return game.actions(state)[0]


def agent_calls() -> Iterator[Call]:
    """Every public method of an agent of every kind (``__call__`` and ``search`` above all)."""
    from zerosum.agents.simple import HumanAgent

    for spec, game_spec in AGENTS.items():
        if spec == "function":
            agent = zerosum.make_agent(_function_agent)
        elif spec == "human":
            agent = HumanAgent(read=_reader)
        else:
            agent = zerosum.make_agent(spec)
        game = zerosum.get_game(game_spec)
        ctx = {"game": game, "state": game.initial_state, "tracer": None, "cores": 1, "seconds": None,
               "report": None, "clock": _clock, "hard": False}
        agent(game, game.initial_state)  # compiled code loaded (or compiled, on a cold cache) before any clock
        for name, method in _public_methods(agent):
            if f"agent.{spec}.{name}" in EXCLUDED:
                continue
            yield _call(f"agent.{spec}.{name}", method, ctx)


def _clock() -> float:
    import time

    return time.perf_counter()


def solver_calls() -> Iterator[Call]:
    """The Solver's constructor and every public method of one."""
    solver = zerosum.Solver(SOLVER_GAME, tt_size=1 << 10, book=False)
    game = solver.game
    state = game.from_moves("1234")
    solver.analyze("")  # compiled code loaded (or compiled, on a cold cache) before any clock
    yield _call("zerosum.Solver", zerosum.Solver,
                {"game": SOLVER_GAME, "tt_size": 1 << 10, "book": False, "threads": 1, "wide": False})
    ctx = {"position": "1234", "weak": False, "node_limit": None, "threads": 1, "current": state.current,
           "mask": state.mask, "lane": solver.lanes(1)[0], "limit": None, "n": 1, "positions": ["1234"],
           "states": [state]}
    for name, method in _public_methods(solver):
        yield _call(f"Solver.{name}", method, ctx)


def top_level_calls(workdir: str) -> Iterator[Call]:
    """Every callable of ``zerosum.__all__`` (the game classes among them are :func:`game_calls`')."""
    game_classes = {cls.__name__ for cls in registered_games()}
    ctx: dict[str, Any] = {
        "spec": "tictactoe", "max_cells": None, "seed": 1, "limits": None, "depth": None, "nodes": None,
        "time": None, "simulations": None, "action": 0, "value": 0, "elapsed": 0.0, "pv": (), "scores": {},
        "exact": False, "evals": 0, "winner": 1, "reason": "three in a row",
        "agent": "alphabeta:depth=1", "game": "tictactoe", "state": None, "max_nodes": 1000, "max_time": None,
        "first": "first", "second": "random", "moves": None, "show": False, "games": 2, "openings": None,
        "opening_plies": None, "order": "random", "deadline": None, "sprt": None, "jobs": 1,
        "score_kinds": {}, "unknown": (), "record_or_moves": "5 1", "line": 2, "threads": None, "on_mark": None, "seconds": 0.2,
        "solver_time": None, "outcome": None, "move_cpu": None,
    }
    for name in zerosum.__all__:
        label = f"zerosum.{name}"
        if label in EXCLUDED or name in game_classes or name == "Solver":
            continue
        obj = getattr(zerosum, name)
        if not callable(obj):
            raise MissingValue(f"{label} is public and neither a function nor excluded: add it to EXCLUDED")
        yield _call(label, obj, {**ctx, **TOP_BY_CALL.get(label, {})})
    outcome = zerosum.Outcome(1, "three in a row")
    yield _call("Outcome.utility", outcome.utility, {"player": 1})
    limits = zerosum.Limits(depth=2)  # replace(**changes): its keywords are Limits' fields
    yield Call("Limits.replace", limits.replace, {"depth": 3, "nodes": None, "time": None, "simulations": None})


def records_calls(workdir: str) -> Iterator[Call]:
    """Every callable of ``zerosum.records.__all__``, and a Writer's methods (files go to ``workdir``)."""
    import os

    record = records.Record({"Game": "tictactoe"}, ["5", "1"], [None, records.MoveNote(time=0.5)], "*")
    game_record = zerosum.play_game("tictactoe", "first", "first")
    ctx = {"tags": {"Game": "tictactoe"}, "moves": ["5"], "notes": [None], "result": "*", "time": 0.5,
           "nodes": 10, "value": 1.0, "record": record, "records": [record], "rec": game_record,
           "store": os.path.join(workdir, "missing.db"), "text": records.format(record),
           "path": os.path.join(workdir, "fuzz.pgn"), "overwrite": True, "reason": "three in a row",
           "forfeit": False, "exact": True, "ply": 3, "mark": "?", "comment": "mistake: draw -> loss in 3 moves",
           "variations": {0: [records.Variation(["1"])]}, "lines": [["5", "1"], ["5", "9"]],
           "game": "tictactoe"}  # the game the caller names (records of a game file need it)
    for name in records.__all__:
        label = f"records.{name}"
        if label in EXCLUDED:
            continue
        yield _call(label, getattr(records, name), ctx)
    writer = records.Writer(os.path.join(workdir, "writer.pgn"), overwrite=True)
    for name, method in _public_methods(writer):
        yield _call(f"Writer.{name}", method, {**ctx, "store": None})


def analysis_calls() -> Iterator[Call]:
    """Every callable of ``zerosum.analysis.__all__``, and the methods of a Service of its own (a small board
    the solver takes, so every analysis answers in milliseconds)."""
    import threading

    from zerosum import analysis

    game: Any = zerosum.get_game(SOLVER_GAME)
    state = game.from_moves("1234")
    engine = analysis.Service(game, table=1 << 10)
    first = engine.analyse(state, seconds=0.001)  # compiled code loaded before any clock; a progress
    solver = zerosum.Solver(SOLVER_GAME, tt_size=1 << 10, book=False)
    ctx = {"game": game, "table": 1 << 10, "state": state, "seconds": None, "resume": None, "on_update": None,
           "stop": threading.Event(), "time": 0.05, "use_solver": True, "threads": 1, "weak": False, "book": True,
           "clock": _clock, "score": 1, "nodes": 1000, "solver": solver, "text": analysis.token(first.progress),
           "progress": first.progress, "engine": "someone", "exact": False, "scores": {}, "values": {},
           "best": None, "elapsed": 0.0, "note": "", "points": {}, "legend": "", "classes": {}, "done": True,
           "exact_moves": set(), "solver_scores": False, "from_book": False, "depth": None}
    for name in analysis.__all__:
        label = f"analysis.{name}"
        if label not in EXCLUDED:
            yield _call(label, getattr(analysis, name), ctx)
    for name, method in _public_methods(engine):
        yield _call(f"Service.{name}", method, ctx)


def all_calls(workdir: str) -> list[Call]:
    """Every call above, in a fixed order."""
    return [*top_level_calls(workdir), *game_calls(), *agent_calls(), *solver_calls(), *records_calls(workdir),
            *analysis_calls()]


# ---- wrong values ---------------------------------------------------------------------------------------


class Opaque:
    """An arbitrary object."""


def hostile(method: str) -> object:
    """An object whose ``method`` (``__repr__``, ``__index__``, ``__eq__``) raises RuntimeError."""

    def fail(self: object, *args: object) -> Any:
        raise RuntimeError(f"hostile {method}")

    namespace: dict[str, Any] = {method: fail, "__hash__": lambda self: 7}
    return type(f"Hostile{method.strip('_').title()}", (), namespace)()


def _nested(depth: int) -> list[Any]:
    out: list[Any] = []
    for _ in range(depth):
        out = [out]
    return out


def wrong_values() -> list[Any]:
    """Values of every wrong kind: no documented parameter takes most of them, and none costs seconds when one
    does (ints are at most 0 or at least 2**62: above every documented maximum that would cost time)."""
    from zerosum.games import ConnectXState, MigrationState, OthelloState, TicTacToeState

    states = [zerosum.get_game(spec).initial_state for spec in SMALL_GAMES.values()]
    # states of the right classes holding what no board has (built by hand, as a caller could)
    nothing: Any = None
    states += [ConnectXState(-1, 10**400, 3, 0, 0, None), ConnectXState(*[nothing] * 6), TicTacToeState((9,) * 9),
               TicTacToeState(nothing), MigrationState(nothing, 1), MigrationState(((1, 2),), 3),
               OthelloState(-1, 2**70, 5), OthelloState(nothing, nothing)]
    games = [zerosum.get_game(spec) for spec in ("tictactoe", "migration:n=3")]
    return [
        None, True, False, 0, -1, -(2**63), 2**63, 2**64, 10**400, -(10**400),
        1.5, -0.0, math.nan, math.inf, -math.inf, float("1e400"), 1j,
        b"4", bytearray(b"\xff"), "", " ", "x", "\ud800", "4\udfff", "\x00", "٣", "4²", "nan", "-1",
        [], [1, 2], [None], [[1]], {}, {"a": 1}, {1}, (), (1,), (1, 2, 3, 4, 5), (None, None), ("a", "b"),
        Opaque(), hostile("__repr__"), hostile("__index__"), hostile("__eq__"), int, len, sys, _nested(5000),
        np.array([1, 2]), np.float64("nan"), np.int64(-1),
        *states, *games,
    ]
