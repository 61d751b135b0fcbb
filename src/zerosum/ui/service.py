"""What the browser page asks, answered as plain JSON-ready dicts (the server validates, this computes).

* :func:`check_agent` and :func:`checked_agent` turn an agent spec into an agent the server plays, raising a
  :class:`~zerosum.errors.GameError` subclass with a message for the person (the server makes it a 400).  A
  request's game and moves, the position as the page shows it and the games it offers are
  :mod:`zerosum.ui.position`'s (no engine involved); this module checks agents and runs the engines.
* :func:`agent_choice` says whether the server plays an agent spec on a game, and :func:`nearest_agent` the
  spec nearest to a refused one that it does play (the page's address uses them).
* :func:`offered_opponents` are the engines the page offers and :func:`server_agents` what it may ask of each,
  drawn from the agents' declared traits (:mod:`zerosum.agents.traits`: no agent is named here); every one
  plays every board the page offers (an exact agent, on a board the solver cannot take, hands its moves to
  its fallback as its agent does, and says so: :func:`hands_off`).
* :func:`analyze_job` runs an engine (and :func:`zerosum.ui.explain.explain_job`, the "why?"); the server runs
  it in a worker process with a hard time limit, so it takes and returns only picklable values.  A move is the
  pool's one engine job (:func:`zerosum.pool.choose_move`), checked here (:func:`check_move`) and put in the
  page's words here (:func:`move_reply`).
"""

from __future__ import annotations

from dataclasses import dataclass
from time import perf_counter as _perf_counter
from typing import Any

from ..agents.base import INT as _INT, Agent, server_options
from ..agents.registry import agent_class, agent_names, build_agent, file_agent_parts, opponents
from ..core.processes import usable_cores
from ..errors import AgentError
from ..game import Game
from ..spec import integer, listed, parse_spec, real
from ..pool.moves import MoveReport
from ..core.words import value_words
from .analysis import keeps_no_clock, proof_words, summary
from ..trace.exact import hands_off  # noqa: F401 - why an agent hands a board on, as explain says it too
from .position import MAX_SPEC, check_game, check_position, describe_state

__all__ = ["check_agent", "checked_agent", "nearest_agent", "agent_choice", "check_move", "MoveRequest",
           "analyze_job", "move_reply", "number", "MAX_TIME",
           "SERVER_CAPS", "server_agents", "offered_opponents", "hands_off", "stand_in"]

MAX_TIME = 5.0  # seconds an engine may think per request
DEFAULT_TIME = 1.0  # seconds, when an agent spec sets no budget
#: the server's bounds on budget options, whatever the agent (each agent's own ranges and its declared
#: ``TRAITS.server.caps`` narrow them further): ``time`` above the engine time is lowered to it
SERVER_CAPS: dict[str, tuple[float, float]] = {"time": (0.01, MAX_TIME), "nodes": (1, 10**6), "sims": (1, 100_000),
                                              "seed": (0, 2**32 - 1)}


def server_agents() -> dict[str, dict[str, tuple[str, float, float] | None]]:
    """What the page may ask of each installed agent the server offers (``TRAITS.server``; never ``human`` or
    a file on the server's disk): option -> (kind, lowest, highest), or None for an option the agent checks
    itself (eval, playout, book, fast); other options are refused.  Derived from each agent's own options
    (:func:`zerosum.agents.base.server_options`), read when asked, so an agent registered later is in it."""
    out = {}
    for name in agent_names():
        cls = agent_class(name)
        allowed = server_options(cls, SERVER_CAPS) if cls is not None else None
        if allowed is not None:
            out[name] = allowed
    return out


def offered_opponents() -> tuple[tuple[str, str, str], ...]:
    """The engines the page offers as opponents, strongest first (their declared ``TRAITS.opponent``): (spec,
    label, its label on a board it does not play itself, or "")."""
    served = server_agents()
    return tuple((spec, cls.TRAITS.opponent[1], _elsewhere_label(cls)) for spec, cls in opponents()
                 if spec.partition(":")[0] in served and cls.TRAITS.opponent is not None)


def _elsewhere_label(cls: type[Agent]) -> str:
    traits = cls.TRAITS
    if not traits.exact or not traits.fallback:
        return ""
    fallback = agent_class(traits.fallback)
    who = (fallback.TRAITS.label if fallback is not None else "") or traits.fallback
    return f"{traits.label or cls.name} (not this board: {who} moves for it)"


def stand_in(seconds: float) -> str:
    """The search that moves instead when an engine overruns the hard limit, given ``seconds``: the strongest
    opponent the page offers that keeps its own clock (it honours ``time``) and plays every game itself; ""
    when there is none."""
    served = server_agents()
    specs = [spec.partition(":")[0] for spec, cls in opponents()
             if spec.partition(":")[0] in served and "time" in cls.LIMITS and not cls.TRAITS.exact]
    return f"{specs[0]}:time={seconds:g}" if specs else ""


def _range(lo: float, hi: float) -> str:
    return f"{lo:g}..{hi:g}" if hi < 10**6 else f"{lo:g}..{int(hi)}"


def check_agent(game: Game[Any, Any], spec: str | None, max_time: float = MAX_TIME) -> str:
    """A safe agent spec for the server (the spec of :func:`checked_agent`'s agent)."""
    return checked_agent(game, spec, max_time).spec


def checked_agent(game: Game[Any, Any], spec: str | None, max_time: float = MAX_TIME,
                  seed: int | None = None) -> Agent:
    """A safe agent for the server: an agent of :func:`server_agents` with options in its ranges, built.

    Agents that honour a time budget and are given no budget (:func:`~zerosum.ui.analysis.keeps_no_clock`)
    get ``DEFAULT_TIME``; an explicit ``time`` above ``max_time`` is lowered to it.  (The worker's hard
    limit covers depth/node budgets too.)  An agent that keeps no clock as configured (the textbook
    alpha-beta, ``plain=1``: :meth:`~zerosum.agents.base.Agent.needs_budget`) needs a depth or a node budget.
    An exact agent on a board the solver cannot take hands its moves to its fallback (:func:`hands_off`).
    The spec is parsed once, here; the agent's ``spec`` is the checked one.
    """
    if spec is not None and not isinstance(spec, str):
        raise AgentError(f"agent must be a string, not {type(spec).__name__}")
    spec = (spec or "").strip()
    served = server_agents()
    if not spec:
        raise AgentError("no agent given: choose one of " + listed(served))
    if len(spec) > MAX_SPEC:
        raise AgentError(f"the agent spec is {len(spec)} characters long; the limit is {MAX_SPEC}")
    if file_agent_parts(spec) is not None or spec.endswith(".py"):  # never run a file on the server's disk
        raise AgentError(f"agent {spec[:60]!r} is a file: the page plays its own engines, never a file "
                         f"(choose one of {listed(served)}; play a file with zerosum play or zerosum match)")
    name, options = parse_spec(spec, AgentError)
    if name not in served:
        raise AgentError(f"agent {name!r} is not available here: choose one of {listed(served)}")
    allowed = served[name]
    for key, text in options.items():
        if key not in allowed:
            options_text = ", ".join(k + (f" ({_range(*r[1:])})" if r else "") for k, r in allowed.items()) or "none"
            raise AgentError(f"agent {name!r} has no option {key!r} here (options: {options_text})")
        bounds = allowed[key]
        if key == "eval" and ".py" in text:  # never run a file on the server's disk
            raise AgentError(f"option eval={text[:40]!r}: the page offers the games' own evaluations only")
        if bounds is None:
            continue
        kind, lo, hi = bounds
        try:
            value = integer(text) if kind == _INT else real(text)
        except ValueError:
            what = "a whole number" if kind == _INT else "a number"
            raise AgentError(f"option {key}={text!r} in {spec!r} is not {what} {_range(lo, hi)}") from None
        if key == "time" and value > max_time:
            options["time"] = f"{max_time:g}"
        elif not lo <= value <= hi:
            raise AgentError(f"option {key}={text!r} in {spec!r} is out of range here: expected {_range(lo, hi)}")
    cls = agent_class(name)
    if cls is None:
        raise AgentError(f"agent {name!r} is not installed yet")
    served_traits = cls.TRAITS.server
    for key, default in (served_traits.defaults if served_traits is not None else {}).items():
        options.setdefault(key, default)  # the page's own default (a smaller table)
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    agent = build_agent(name, options, spec, seed=seed)  # raises AgentError for a bad option
    if keeps_no_clock(agent):  # the solver's time: for the distance once its move is proven (never a guess)
        options["time"] = f"{min(DEFAULT_TIME, max_time):g}"
        spec = name + ":" + ",".join(f"{k}={v}" for k, v in options.items())
        agent = build_agent(name, options, spec, seed=seed)
    needed = [key for key in agent.needs_budget() if allowed.get(key)]
    if needed:
        said = " or ".join(f"{key}=N ({_range(*allowed[key][1:])})" for key in needed)  # type: ignore[index]
        raise AgentError(f"{spec!r}: this search keeps no clock; give it {said} here")
    agent.use_cores(usable_cores())  # a face: the machine's cores, where the agent can use them
    return agent


def nearest_agent(game: Game[Any, Any], spec: str, max_time: float = MAX_TIME) -> str | None:
    """The spec nearest to a refused ``spec`` that the server takes on ``game`` (each number out of its range
    brought to the nearest end of it, options the page does not offer dropped), or None when there is none
    (an agent the page does not offer).  ``alphabeta:depth=100`` -> ``alphabeta:depth=8``."""
    try:
        name, options = parse_spec(spec, AgentError)
    except AgentError:
        return None
    allowed = server_agents().get(name)
    if allowed is None or len(spec) > MAX_SPEC:
        return None
    kept = {}
    for key, text in options.items():
        bounds = allowed.get(key, ())
        if bounds is None:  # checked by the agent itself
            kept[key] = text
        elif bounds:
            kind, lo, hi = bounds
            try:
                value = integer(text) if kind == _INT else real(text)
            except ValueError:
                continue
            value = min(max(value, lo), hi)
            kept[key] = str(int(value)) if kind == _INT else f"{value:g}"
    nearest = name + (":" + ",".join(f"{k}={v}" for k, v in kept.items()) if kept else "")
    try:
        checked_agent(game, nearest, max_time)
    except AgentError:
        return None
    return nearest


def agent_choice(game_spec: str | None, spec: str | None, max_time: float = MAX_TIME) -> dict[str, Any]:
    """Whether the server plays the agent ``spec`` on the game (``GET /api/agent``): ``accepted``, else why
    not (``error``) and :func:`nearest_agent` (``nearest``, or None)."""
    game = check_game(game_spec)
    try:
        checked_agent(game, spec, max_time)
    except AgentError as exc:
        nearest = nearest_agent(game, spec, max_time) if isinstance(spec, str) else None
        return {"agent": spec, "accepted": False, "error": str(exc), "nearest": nearest}
    return {"agent": spec, "accepted": True, "error": None, "nearest": None}


def analyze_job(game: Game[Any, Any], actions: list[Any], state: Any, time: float, use_solver: bool = True,
                budget: float | None = None, resume: str | None = None) -> dict[str, Any]:
    """Every legal move's score in ``state``, the position after ``actions``, checked by the caller (runs in a
    worker), from the worker's analysis service (:mod:`zerosum.analysis`); ``use_solver=False`` asks
    alpha-beta only.  The reply speaks for itself: ``engine`` names who answered, ``exact`` says whether the
    scores are proofs and ``estimates`` lists the moves whose score is a heuristic one; ``points`` are the
    short figures a narrow slot shows (``legend`` says what they mean).

    ``budget`` (seconds): a slice of a progressive analysis where the solver plays -- what it has proven so
    far, ``done`` saying whether every column is scored and ``classes`` the moves proven only in win/draw/loss
    ("win", "draw", "loss").  Until it is done, ``resume`` is the text of where it stopped: asked again with
    it, on any worker, the analysis goes on from there (a worker that answered before also goes on with what
    its table learned)."""
    from ..analysis import parse, service, token

    engine = service(game)
    time = time if budget is None else min(time, budget)  # alpha-beta's share: the slice, where one is asked
    if budget is not None and use_solver and engine.solves:
        found = engine.analyse(state, seconds=budget, resume=parse(resume), clock=CLOCK, time=time)
    else:
        found = engine.analyse(state, time=time, use_solver=use_solver)
    fmt = game.format_action
    valued = list(found.scores)  # every move with a value: a score, or a class (win/draw/loss) only
    scored = [a for a in valued if a not in found.classes]  # a class's sign is no score: it has none yet
    reply: dict[str, Any] = {
        "game": game.spec,
        "moves": game.format_moves(actions),
        "engine": found.engine or None,
        "exact": found.exact,
        "best": fmt(found.best) if found.best is not None else None,
        "words": found.words(found.best) if found.best is not None else None,
        "scores": {fmt(a): number(found.scores[a]) for a in scored},
        "score_words": {fmt(a): found.words(a) for a in valued},
        "points": {fmt(a): found.point(a) for a in valued},
        "estimates": [fmt(a) for a in valued if found.estimate(a)],
        "legend": found.legend,
        "nodes": found.nodes,
        "elapsed": round(found.elapsed, 4),
        "note": found.note or None,
        "done": found.done,
        "classes": {fmt(a): CLASS_NAMES[v] for a, v in _classes(found).items()},
        "resume": token(found.progress),
        "summary": summary(found, game, state),  # the page's line, in the one vocabulary (core.words)
    }
    view = game.board_view(state)
    if view.gravity:  # a score per column, under the column labels, and what each column's entry is
        column = [game.action_at(state, 0, c) for c in range(view.cols)]
        reply["columns"] = [number(found.scores[a]) if a in scored else None for a in column]
        reply["column_kinds"] = [_column_kind(found, a) for a in column]
    return reply


def _classes(found: Any) -> dict[Any, int]:
    """Every proven move's win (+1), draw (0) or loss (-1): those proven only so far, and those with an exact
    value (its sign); an estimate has none."""
    out: dict[Any, int] = {}
    for a in found.scores:
        if a in found.classes:
            out[a] = found.classes[a]
        elif found.kind(a) == "exact":
            out[a] = (found.values[a] > 0) - (found.values[a] < 0)
    return out


def _column_kind(found: Any, action: Any) -> str:
    """What a column's entry in ``columns`` is: ``full`` (no move there), ``exact`` / ``estimate`` (its score),
    ``class`` (proven win/draw/loss, distance not yet: ``null``, see ``classes``), ``unknown`` (not yet)."""
    if action is None:
        return "full"
    return found.kind(action) or "unknown"


CLASS_NAMES = {1: "win", 0: "draw", -1: "loss"}
CLOCK = _perf_counter  # where a slice's time comes from (tests pass their own)


def number(v: float) -> float | int:
    """A JSON number: whole values as ints, others rounded to 4 places."""
    return int(v) if float(v).is_integer() else round(float(v), 4)


@dataclass(frozen=True)
class MoveRequest:
    """A checked ``/api/move`` request: the game, the actions played, their position and the built agent
    (made once, in the request's thread, by :func:`check_move`; picklable, so it travels to a worker)."""

    game: Game[Any, Any]
    actions: list[Any]
    state: Any
    agent: Agent
    note: str = ""  # what the page should know about who moves (the solver handing a board to alpha-beta)


def check_move(game_spec: str | None, moves: str | None, agent_spec: str | None, seed: int | None = None,
               max_time: float = MAX_TIME) -> MoveRequest:
    """The checked request: the position built once, the agent spec parsed once (raises GameError).  The
    solver on a board it cannot take plays through its agent's fallback (alpha-beta), and the note says so."""
    game, actions, state = check_position(game_spec, moves, "the game is over: there is no move to make")
    agent = checked_agent(game, agent_spec, max_time, seed)
    return MoveRequest(game, actions, state, agent, hands_off(agent, game))


def move_reply(request: MoveRequest, report: MoveReport, note: str = "") -> dict[str, Any]:
    """The ``/api/move`` answer: the move the engine job reported (:func:`zerosum.pool.choose_move`), in the
    page's words, with ``state``, the position after it (as ``/api/state`` describes it, without the games).

    ``exact`` is the search's own word (:attr:`~zerosum.agents.base.SearchResult.exact`); ``note`` says who
    moved instead, when someone did (the server's ``note``, else the agent's own: ``MoveReport.fallback``), then
    what a first run's compile of the engine's code did (``after 28 s preparing the engine, first run only``:
    ``MoveReport.note``, from the server's worker, :func:`zerosum.ui.warmup.job_note`)."""
    game = request.game
    fmt = game.format_action
    actions = [*request.actions, report.action]
    after = describe_state(game, actions, game.result(request.state, report.action), catalogue=False)
    proof = proof_words(report.value) if report.proof else ""  # the one wording, not the agent's own
    words = proof or (value_words(report.value, report.exact) if report.value is not None else "")
    return {
        "agent": report.agent,
        "move": report.text or fmt(report.action),
        "moves": after["moves"],
        "value": number(report.value) if report.value is not None else None,
        "words": words or None,
        "exact": report.exact,
        "nodes": report.nodes,
        "depth": report.depth,
        "elapsed": round(report.elapsed, 4),
        "proof": proof or None,  # a move proven in win/draw/loss only: what that means
        "pv": [fmt(a) for a in report.pv],
        "note": "; ".join(x for x in (note or report.fallback, report.note) if x) or None,
        "state": after,
    }

