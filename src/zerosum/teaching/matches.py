"""``zerosum.match(first, second, ...)``: a match from Python, with the statistics ``zerosum match`` prints.

The arena does the work: the same configuration (:class:`~zerosum.arena.match.ArenaConfig`), plan (pairs of
games from one opening with colours swapped, seeds from ``seed``), running score and summary
(:func:`~zerosum.arena.report.summarize`), kept in a results file in a temporary folder.  Games are played in
this process by default (``jobs=1``), so plain functions and lambdas work; with ``jobs`` > 1 the arena's
worker processes play them, and every agent must be a spec string (a function cannot be sent to another
process: name it in a file, ``"path/to/file.py:name"``).

In this process a move is not stopped at its hard deadline (only a worker process can be killed), but a move
that took longer than it still forfeits the game (``timeout: ...``), as in the arena.
"""

from __future__ import annotations

import os
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from ..agents.base import Agent, Limits, check_range
from ..agents.unbounded import SearchLimitWarning, ignored_nodes, said, unbounded
from ..errors import AgentError
from ..game import Game
from ..spec import visible
from .play import GameRecord, Move, MoveTooLate, agent_label, as_agent, limits_of, play_one

__all__ = ["match", "MatchResult"]


@dataclass
class MatchResult:
    """A finished match from the first agent's view: W/D/L, score, Elo with its 95% interval, every game.

    ``report`` is the arena's whole summary (:class:`~zerosum.arena.report.Report`: the pentanomial pair
    counts, LOS, standings with ms and nodes per move, forfeits); :meth:`print` shows it as ``zerosum match``
    does.  ``games`` are the games in the order of the plan.
    """

    first: str
    second: str
    report: Any
    games: list[GameRecord]
    #: the labels of the plain functions handed over in Python that declare no search function (the note
    #: after the tables names those whose nodes were not counted, as it names such agent files)
    functions: tuple[str, ...] = ()

    @property
    def _pairing(self) -> Any:
        return self.report.pairings[0]

    @property
    def wins(self) -> int:
        return int(self._pairing.wins)

    @property
    def draws(self) -> int:
        return int(self._pairing.draws)

    @property
    def losses(self) -> int:
        return int(self._pairing.losses)

    @property
    def score(self) -> float:
        """The first agent's mean score per game (a win 1, a draw 0.5)."""
        return float(self._pairing.tri.score)

    @property
    def elo(self) -> float:
        """The Elo difference of the first agent over the second (from single games; ``±inf`` at 0% or 100%)."""
        return float(self._pairing.tri.elo)

    @property
    def elo_interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`elo`: ``elo(s - h)`` to ``elo(s + h)`` for the score ``s`` and its normal
        half-width ``h``, so not centred on :attr:`elo`; when every game ended alike, the exact bound (10 wins of
        10: ``(140.1, inf)``; :func:`zerosum.arena.stats.score_interval`)."""
        return float(self._pairing.tri.elo_low), float(self._pairing.tri.elo_high)

    @property
    def los(self) -> float:
        """The likelihood that the first agent is the stronger (from wins and losses)."""
        return float(self._pairing.los)

    def print(self) -> None:
        """The tables ``zerosum match`` prints (pairing, ranking, forfeits) and the lines it prints after them
        (the nodes not counted, the endings)."""
        from rich.console import Console

        from ..arena.report import print_tables

        console = Console()
        if not console.is_terminal:  # files and pipes: wide tables, prose one line each
            console = Console(width=max(console.width, 160), soft_wrap=True)
        print_tables(self.report, console, self.functions, option="move_cpu=")

    def _elo_text(self) -> str:
        """``Elo +170 [+45, +364]``: the Elo and its 95% interval's two ends (lopsided about it: no ``±``)."""
        from ..arena.stats import fmt_summary

        return f"Elo {fmt_summary(self._pairing.tri)}"

    def __repr__(self) -> str:
        from ..arena.stats import fmt_percent

        return (f"<MatchResult {self.first} vs {self.second} on {self.report.config.game}: {len(self.games)} games, "
                f"+{self.wins} ={self.draws} -{self.losses}, score {100 * self.score:.1f}%, {self._elo_text()}, "
                f"LOS {fmt_percent(self.los)}>")

    def _repr_html_(self) -> str:
        from html import escape

        from ..arena.stats import fmt_percent

        rows = "".join(
            f"<tr><td>{i + 1}</td><td>{escape(g.first)}</td><td>{escape(g.second)}</td><td>{g.result}</td>"
            f"<td>{escape(g.reason)}</td><td><code>{escape(g.notation)}</code></td></tr>"
            for i, g in enumerate(self.games)
        )
        return (f"<p><b>{escape(self.first)}</b> vs <b>{escape(self.second)}</b> on {escape(self.report.config.game)}: "
                f"+{self.wins} ={self.draws} -{self.losses}, score {100 * self.score:.1f}%, "
                f"{escape(self._elo_text())}, LOS {fmt_percent(self.los)}</p>"
                "<table><tr><th>#</th><th>first</th><th>second</th><th>result</th><th>how</th><th>moves</th></tr>"
                f"{rows}</table>")


class _InProcess:
    """The arena's runner protocol (``run(tasks, on_record, stop)``), playing each game in this process."""

    def __init__(self, game: Game[Any, Any], plan: dict[int, Any], objects: dict[int, Agent], labels: list[str],
                 limits: Limits) -> None:
        self.game, self.plan, self.objects, self.labels, self.limits = game, plan, objects, labels, limits
        self.records: dict[int, GameRecord] = {}

    def run(self, tasks: Sequence[Any], on_record: Callable[[Any, Any], None], stop: Callable[[], bool],
            watch: Any = None) -> bool:  # watch: for a progress line, which a Python match has not
        from ..arena.openings import parse_opening
        from ..arena.play import _seat_seed
        from ..arena.store import GameRecord as Stored

        for task in tasks:
            if stop():
                return False
            planned = self.plan[task.idx]
            agents = {}
            for seat, idx, spec in ((1, planned.first, task.first), (2, planned.second, task.second)):
                if idx in self.objects:
                    agents[seat] = self.objects[idx]
                    agents[seat].reset()  # as a fresh agent in each game of the arena
                else:
                    agents[seat] = as_agent(spec, seed=_seat_seed(task.seed, seat), limits=self.limits)
            said(self.game, agents.values())  # match warned before the first game: not again at each search
            names = (self.labels[planned.first], self.labels[planned.second])
            start = time.perf_counter()
            rec = play_one(self.game, agents, list(parse_opening(self.game, task.opening)), task.seed, names,
                           _deadline(task.deadlines), task.move_cpu)
            self.records[task.idx] = rec
            on_record(task, Stored(
                task.idx, rec.result, rec.winner, rec.reason, rec.forfeit, [m.notation for m in rec.moves],
                [round(m.seconds, 6) for m in rec.moves], [m.nodes for m in rec.moves],
                [m.value for m in rec.moves], [m.depth for m in rec.moves], time.perf_counter() - start, time.time()))
        return True


def _deadline(deadlines: tuple[float, float]) -> Callable[[Any, Move], None]:
    def check(state: Any, move: Move) -> None:
        limit = deadlines[move.player - 1]
        if move.seconds > limit:
            raise MoveTooLate(limit)

    return check


def _openings(game: Game[Any, Any], openings: Any, plies: int | None, rounds: int, seed: int) -> tuple[list[Any], str]:
    from ..arena.openings import max_plies, parse_opening, random_openings, read_openings, shipped_openings

    if openings is not None:
        if plies is not None:
            raise AgentError("openings and opening_plies exclude each other")
        if isinstance(openings, (str, Path)):
            try:
                os.fsencode(openings)
            except UnicodeError:
                raise AgentError("openings: the file name holds characters no file name can have") from None
            return read_openings(openings, game), str(openings)
        if not isinstance(openings, (list, tuple)) or not openings or not all(isinstance(o, str) for o in openings):
            raise AgentError("openings: a file name or a list of move strings in the game's notation")
        return [parse_opening(game, o) for o in openings], f"{len(openings)} given"
    shipped = shipped_openings(game)
    if plies is None and shipped is not None:
        return read_openings(shipped, game), "shipped balanced set"
    plies = 2 if plies is None else check_range("match", "opening_plies", plies, 0, max_plies(game))
    return (random_openings(game, rounds, plies, seed) if plies else [()]), (
        f"random, {plies} plies" if plies else "start position")


def match(first: Any, second: Any, *, game: "Game[Any, Any] | str" = "connect4", games: int = 2, seed: int = 0,
          limits: "Limits | dict[str, Any] | None" = None, openings: Any = None, opening_plies: int | None = None,
          order: str = "random", deadline: float | None = None, sprt: str | None = None,
          jobs: int = 1, move_cpu: float | None = None) -> MatchResult:
    """A match of ``games`` games between ``first`` and ``second`` (agents, spec strings or functions
    ``f(game, state) -> action``), played and scored by the arena as ``zerosum match`` does.

    ``games`` (1..100,000) come in pairs from one opening with colours swapped; ``openings``: a file or a list
    of move strings (default for connect4: the shipped balanced set; other games: random openings of
    ``opening_plies`` plies, default 2); ``seed`` fixes openings, colours and agent seeds; ``limits``
    (depth, nodes, time) go to every agent built from a spec, and a plain function is held to ``nodes`` (it
    forfeits a move that expands more states: :mod:`zerosum.arena.counting`); ``deadline``: the hard seconds
    per move, above 0 and at most 7,200 (default: time + max(0.25 s, 10%), else 60); ``sprt``: ``"ELO0,ELO1[,ALPHA,BETA]"`` stops when
    the test decides; ``jobs``: worker processes (spec strings only; 1 plays here); ``move_cpu``: with a
    ``nodes`` limit, the CPU seconds a move of a plain function whose nodes cannot be counted may take, above 0
    and at most 3,600 (default: 1 ms per node, at least 1 s), as ``zerosum match --move-cpu``.

    >>> result = match("first", lambda game, state: game.actions(state)[-1], game="tictactoe", games=2)
    >>> result.wins + result.draws + result.losses, len(result.games)
    (2, 2)
    """
    from ..agents.registry import FunctionAgent
    from ..arena.counting import MAX_MOVE_CPU
    from ..arena.forfeits import run_move_cpu
    from ..arena.match import MAX_DEADLINE, ArenaConfig, canonical_spec, check_agents, iter_plan, labels_for, run_arena
    from ..arena.openings import format_opening
    from ..arena.report import summarize
    from ..arena.runner import LocalRunner
    from ..arena.stats import Sprt
    from ..arena.store import Store
    from ..core.processes import MAX_JOBS
    from ..games import get_game
    from .play import _seed

    g = get_game(game)
    check_range("match", "games", games, 1, 100_000)
    check_range("match", "jobs", jobs, 1, MAX_JOBS)
    if not isinstance(order, str):
        raise AgentError(f"match: order is 'random' or 'sequential', not {type(order).__name__}")
    if deadline is not None:
        check_range("match", "deadline", deadline, 0, MAX_DEADLINE, whole=False)
    seed = _seed(seed)
    lim = limits_of(limits)
    if lim.simulations is not None:
        raise AgentError("match: give simulations in the agent's spec (mcts:sims=N), not in limits")
    if move_cpu is not None:
        if lim.nodes is None:
            raise AgentError("match: move_cpu bounds the moves whose nodes cannot be counted under a node limit: "
                             "give limits={'nodes': N} too")
        if check_range("match", "move_cpu", move_cpu, 0, MAX_MOVE_CPU, whole=False) == 0:
            raise AgentError(f"match: move_cpu=0 is out of range: expected a number above 0, at most {MAX_MOVE_CPU:g}")
    limit_values = {k: getattr(lim, k) for k in ("depth", "nodes", "time") if getattr(lim, k) is not None}
    objects: dict[int, Agent] = {}
    specs, named = [], []
    for i, entry in enumerate((first, second)):
        if isinstance(entry, str):
            specs.append(canonical_spec(entry))
            named.append(specs[-1])
        else:
            objects[i] = as_agent(entry, limits=lim)  # a plain function is held to limits.nodes (arena.counting)
            named.append(visible(agent_label(entry)))  # a function's name may hold anything: shown escaped
            specs.append(f"<{named[-1]}>")  # a label no spec parses: the object plays, not a name
    if jobs > 1 and not getattr(g, "portable", True):
        raise AgentError(f"match: jobs={jobs} needs a game that worker processes can build: your {g.title} object "
                         f"lives in this process only (use jobs=1, or name it in a file: 'path/to/file.py:{g.title}')")
    if objects and jobs > 1:
        raise AgentError(f"match: jobs={jobs} needs spec strings: a function or Agent object cannot be sent to "
                         "worker processes (use jobs=1, or name it in a file: 'path/to/file.py:name')")
    warned: list[str] = []
    digests = check_agents([s for i, s in enumerate(specs) if i not in objects], limit_values, game=g.spec,
                           searched=g, warned=warned)
    nodes = limit_values.get("nodes")
    said = [(unbounded(g, agent), ignored_nodes(agent, nodes)) for agent in objects.values()]
    for line in [*warned, *filter(None, (text for pair in said for text in pair))]:
        warnings.warn(line.removeprefix("Warning: ").removeprefix("Note: "), SearchLimitWarning, stacklevel=2)
    chosen, source = _openings(g, openings, opening_plies, (games + 1) // 2, seed)
    if sprt is not None and not isinstance(sprt, str):
        raise AgentError(f"sprt is a string \"ELO0,ELO1[,ALPHA,BETA]\" such as \"0,5\", not {type(sprt).__name__}")
    try:
        test = None if sprt is None else Sprt.parse(sprt)
    except ValueError as exc:
        raise AgentError(f"sprt: {exc}") from None
    config = ArenaConfig(game=g.spec, agents=specs, games=games, seed=seed, openings=[format_opening(g, o) for o in chosen],
                         openings_source=source, order=order, limits=limit_values, deadline=deadline,
                         sprt=None if test is None else [test.elo0, test.elo1, test.alpha, test.beta], digests=digests)
    why = config.problem()
    if why is not None:
        raise AgentError(f"match: the {why}")
    labels = labels_for(named)
    with tempfile.TemporaryDirectory(prefix="zerosum-match-") as folder:
        store = Store(Path(folder) / "match.db", create=True)
        try:
            store.initialise(config.to_json(), list(zip(labels, specs)), iter_plan(config))
            cpu = run_move_cpu(limit_values, move_cpu)  # under nodes: kept with the run, as the CLI keeps it
            if cpu is not None:
                store.set_meta("move_cpu", cpu)
            plan = {p.idx: p for p in store.plan()}
            runner: Any = _InProcess(g, plan, objects, labels, lim) if jobs == 1 else LocalRunner(jobs, config.grace)
            run_arena(store, config, runner)
            report = summarize(store)
            kept = runner.records if jobs == 1 else {}
            records = [kept.get(r.idx) or _from_store(g, plan[r.idx], r, labels) for r in sorted(store.games(), key=lambda r: r.idx)]
        finally:
            store.close()
    undeclared = tuple(labels[i] for i, agent in objects.items()  # plain functions: held to CPU time, not counted
                       if isinstance(agent, FunctionAgent) and agent.declared is None)
    return MatchResult(labels[0], labels[1], report, records, undeclared)


def _from_store(game: Game[Any, Any], planned: Any, rec: Any, labels: list[str]) -> GameRecord:
    """A stored game (played in a worker) as a :class:`GameRecord`, its moves replayed."""
    from ..arena.openings import parse_opening

    opening = list(parse_opening(game, planned.opening))
    state = game.states_of(opening)[-1]
    moves = []
    for i, text in enumerate(rec.moves):
        action = game.parse_action(text, state)
        moves.append(Move(len(opening) + i + 1, game.player(state), action, text, rec.times[i], rec.nodes[i],
                          rec.vals[i], rec.depths[i]))
        state = game.result(state, action)
    winner = {"1-0": 1, "0-1": 2}.get(rec.result)
    return GameRecord(game, labels[planned.first], labels[planned.second], opening, moves, winner, rec.reason,
                      bool(rec.forfeit), state, planned.seed)

