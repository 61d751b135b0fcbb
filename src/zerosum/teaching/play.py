"""The Python entry for notebooks: :func:`play_game` plays one game, :func:`match` a match with the arena's
statistics.  Both take agents as :class:`~zerosum.agents.base.Agent` objects, spec strings
(``"alphabeta:depth=4"``, ``"path/to/file.py:name"``) or plain functions ``f(game, state) -> action``.

Games are played by the arena's own game loop (:func:`zerosum.arena.play.play_game`), in this process: an
agent that raises, or returns a malformed or illegal action, loses the game by forfeit with the reason (as in
``zerosum match``), never with an exception.  In this process nothing can stop a move that never ends (the
arena's hard deadline kills a worker process; here, interrupt the kernel); ``limits`` (depth, nodes, time)
are handed to every agent built from a spec.  The global ``random`` and ``numpy.random`` generators are
seeded for each game (reproducible student functions) and restored afterwards.

>>> import zerosum
>>> record = zerosum.play_game("tictactoe", "first", "first")
>>> record.notation, record.result, record.reason
('1234567', '1-0', 'three in a row')
>>> record.moves[0].notation, record.moves[0].action
('1', 0)
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..agents.base import Agent, Limits, SearchAgent, SearchResult
from ..agents.unbounded import warn_unbounded
from ..errors import AgentError, InvalidMoveError
from ..game import Game

__all__ = ["play_game", "GameRecord", "Move", "MoveTooLate", "as_agent", "limits_of", "agent_label", "play_one"]

AgentLike = "Agent | str | Callable[[Game[Any, Any], Any], Any]"
_RESULT = {1: "1-0", 2: "0-1", None: "1/2-1/2"}


@dataclass(frozen=True)
class Move:
    """One move of a game: who played it, the action and its notation, and what it cost.

    ``nodes``, ``value`` (the mover's view) and ``depth`` are the search's figures (None for agents that do
    not search); ``search`` is the whole :class:`~zerosum.agents.base.SearchResult` when :func:`play_game`
    could keep it (agents searching in this process).
    """

    ply: int
    player: int
    action: Any
    notation: str
    seconds: float
    nodes: int | None = None
    value: float | None = None
    depth: int | None = None
    search: SearchResult | None = field(default=None, repr=False)


@dataclass
class GameRecord:
    """A finished game: its moves (after ``opening``), the result and the final state.

    ``winner`` is 1 (the first player), 2 or None (a draw); ``reason`` how it ended ("4 in a row",
    "illegal move: column 9 is outside 1..7"); ``forfeit`` True when the loser forfeited.  In a notebook the
    record draws its final board (``_repr_svg_``).
    """

    game: Game[Any, Any]
    first: str
    second: str
    opening: list[Any]
    moves: list[Move]
    winner: int | None
    reason: str
    forfeit: bool
    final: Any
    seed: int

    @property
    def actions(self) -> list[Any]:
        """Every action from the start: the opening's, then the moves'."""
        return [*self.opening, *(m.action for m in self.moves)]

    @property
    def notation(self) -> str:
        """The whole game as a move string in the game's notation (it replays with ``game.parse_moves``)."""
        return self.game.format_moves(self.actions)

    @property
    def result(self) -> str:
        """``1-0`` (the first player won), ``0-1`` or ``1/2-1/2``."""
        return _RESULT[self.winner]

    def states(self) -> list[Any]:
        """The states from the start through every move."""
        return self.game.states_of(self.actions)

    def __repr__(self) -> str:
        how = f"forfeit: {self.reason}" if self.forfeit else self.reason
        return (f"<GameRecord {self.game.spec}: {self.first} vs {self.second}, {self.result} ({how}), "
                f"{len(self.moves)} moves: {self.notation or '-'}>")

    def _repr_svg_(self) -> str:
        return self.game.svg(self.final, self.actions[-1] if self.actions else None)


class MoveTooLate(Exception):
    """Raised by an ``on_move`` hook of :func:`play_one` for a move over its hard deadline (``limit`` seconds):
    in this process the move cannot be stopped, so it forfeits the game afterwards, as in the arena."""

    def __init__(self, limit: float) -> None:
        super().__init__(limit)
        self.limit = limit


class _Recorder(SearchAgent):
    """A search agent that keeps every :class:`SearchResult` it returns (so a record can hold them)."""

    def __init__(self, inner: SearchAgent) -> None:
        super().__init__(limits=inner.limits, seed=inner.seed)
        self.inner, self.spec, self.found = inner, inner.spec, []  # type: ignore[var-annotated]

    def search(self, game: Game[Any, Any], state: Any, *args: Any, **kwargs: Any) -> SearchResult:
        result = self.inner.search(game, state, *args, **kwargs)
        self.found.append(result)
        return result

    def warm_up(self, game: Game[Any, Any]) -> None:
        self.inner.warm_up(game)


def limits_of(limits: "Limits | dict[str, Any] | None") -> Limits:
    """``limits`` as :class:`Limits` (a dict of its fields works too); AgentError (one line) otherwise."""
    if limits is None:
        return Limits()
    if isinstance(limits, Limits):
        return limits
    if isinstance(limits, dict):
        unknown = sorted(str(k) for k in limits if k not in ("depth", "nodes", "time", "simulations"))
        if unknown:
            raise AgentError(f"limits: unknown {', '.join(unknown)} (use depth, nodes, time, simulations)")
        return Limits(**{k: v for k, v in limits.items() if v is not None})
    raise AgentError(f"limits are a zerosum.Limits or a dict such as {{'depth': 4}}, not {type(limits).__name__}")


def agent_label(agent: Any) -> str:
    """How a record names an agent: a spec as written, an Agent's spec, a function's name."""
    if isinstance(agent, str):
        return agent.strip()
    if isinstance(agent, Agent):
        return str(agent.spec)
    return str(getattr(agent, "__name__", type(agent).__name__))


def as_agent(agent: Any, *, seed: int | None = None, limits: Limits | None = None) -> Agent:
    """An :class:`Agent` for an agent, a spec string or a plain function (see :func:`make_agent`)."""
    from ..agents.registry import make_agent
    from ..agents.simple import HumanAgent

    if not isinstance(agent, (str, Agent)) and not callable(agent):
        raise AgentError(f"an agent is an Agent, a spec string or a function f(game, state) -> action, "
                         f"not {type(agent).__name__}")
    built = make_agent(agent, seed=seed, limits=limits)
    if isinstance(built, HumanAgent):
        raise AgentError(f"agent {agent_label(agent)!r}: a human plays with zerosum play, not here")
    return built


def _seed(seed: int | None) -> int:
    from ..agents.base import MAX_SEED

    if seed is None:
        return random.SystemRandom().randrange(2**31)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        from ..game import safe_repr

        raise AgentError(f"seed={safe_repr(seed)}: expected a whole number in 0..{MAX_SEED} (or None: a fresh one)")
    return seed


def _opening(game: Game[Any, Any], moves: "str | Sequence[Any] | None") -> list[Any]:
    """The actions of ``moves`` (a move string in the game's notation, or a list of actions), checked."""
    if moves is None:
        return []
    if isinstance(moves, str):
        actions = game.parse_moves(moves)
    else:
        if not isinstance(moves, (list, tuple)):
            raise InvalidMoveError(f"moves are a move string ({game.MOVES_HELP}) or a list of actions, "
                                   f"not {type(moves).__name__}")
        actions = list(moves)
        game.states_of(actions)  # IllegalMoveError names the move that is wrong
    if game.is_terminal(game.states_of(actions)[-1]):
        raise InvalidMoveError(f"moves {game.format_moves(actions)!r} end the game: nothing is left to play")
    return actions


class _Global:
    """Saves and restores the global random generators around a game (the arena seeds them per game)."""

    def __enter__(self) -> None:
        self.state = random.getstate()
        try:
            import numpy as np

            self.np: Any = np.random.get_state()
        except ImportError:  # pragma: no cover
            self.np = None

    def __exit__(self, *exc: object) -> None:
        random.setstate(self.state)
        if self.np is not None:
            import numpy as np

            np.random.set_state(self.np)


def play_one(game: Game[Any, Any], agents: dict[int, Agent], opening: list[Any], seed: int,
             labels: tuple[str, str], on_move: Callable[[Any, Move], None] | None = None,
             move_cpu: float | None = None) -> GameRecord:
    """One game between built agents, through the arena's game loop, as a :class:`GameRecord`; ``move_cpu``:
    the CPU seconds of a move of a plain function whose nodes are not counted under a node limit (None: the
    default of its limit)."""
    from ..arena.play import GameTask
    from ..arena.play import play_game as arena_game

    from ..games.course_objects import arena_view

    seats = {s: _Recorder(a) if isinstance(a, SearchAgent) else a for s, a in agents.items()}
    played = arena_view(game)  # your own game whose moves are not numbers: the arena's numbered view of it
    task = GameTask(0, played, seats[1], seats[2], game.format_moves(opening) or "-", seed,  # type: ignore[arg-type]
                    move_cpu=move_cpu)
    state = game.states_of(opening)[-1]
    moves: list[Move] = []
    end: list[tuple[Any, ...]] = []

    def send(msg: tuple[Any, ...]) -> None:
        nonlocal state
        if msg[0] == "move":
            _, seat, text, seconds, nodes, value, depth, _ = msg  # exact: this record keeps the whole search
            action = game.parse_action(text, state)
            agent = seats[seat]
            found = agent.found[-1] if isinstance(agent, _Recorder) and agent.found else None
            move = Move(len(opening) + len(moves) + 1, seat, action, text, seconds, nodes, value, depth, found)
            after = game.result(state, action)
            if on_move is not None:
                on_move(after, move)  # may raise MoveTooLate: the move is then not played
            moves.append(move)
            state = after
        elif msg[0] in ("end", "unstarted"):
            end.append(msg)

    try:
        with _Global():
            arena_game(task, send)
    except MoveTooLate as late:
        seat = game.player(state)
        end.append(("end", 3 - seat, f"timeout: no move within {late.limit:g} s", True))
    if end[0][0] == "unstarted":
        raise AgentError(f"agent {labels[end[0][1] - 1]!r} could not start: {end[0][2]}")
    _, winner, reason, forfeit = end[0]
    return GameRecord(game, labels[0], labels[1], opening, moves, winner, reason, forfeit, state, seed)


def play_game(game: "Game[Any, Any] | str", first: Any, second: Any, *, moves: "str | Sequence[Any] | None" = None,
              seed: int | None = None, limits: "Limits | dict[str, Any] | None" = None,
              show: bool = False) -> GameRecord:
    """Play one whole game of ``game`` (a Game or a spec) between ``first`` and ``second``; its record.

    ``first`` moves first.  Each is an :class:`Agent`, a spec string or a plain function
    ``f(game, state) -> action``.  ``moves``: start after these moves (a move string in the game's notation
    or a list of actions).  ``seed`` fixes the agents' seeds (built from specs) and the global generators
    during the game (None: a fresh seed, kept in the record).  ``limits``: a :class:`Limits` or a dict
    (``{"depth": 4}``) handed to agents built from specs.  ``show``: print each move and the board as it
    goes, or in Jupyter draw the board (SVG) after each move.

    An agent that raises or returns a bad action forfeits (``record.forfeit``, ``record.reason``).  Bad
    arguments raise one-line :class:`~zerosum.errors.GameError` subclasses.

    >>> record = play_game("connect4", "alphabeta:depth=2", lambda game, state: 9, seed=1)
    >>> record.winner, record.forfeit
    (1, True)
    >>> record.reason.startswith("illegal move: <lambda>(game, state) returned 9 (int) at the position after '4'")
    True
    >>> record.reason.split(": ")[-1]
    'column 10 is outside 1..7 (action 9 is outside 0..6)'
    """
    from ..arena.play import _seat_seed
    from ..games import get_game

    g = get_game(game)
    if not isinstance(show, bool):
        raise AgentError(f"show is True or False, not {type(show).__name__}")
    opening = _opening(g, moves)
    lim, seed = limits_of(limits), _seed(seed)
    agents = {seat: as_agent(a, seed=_seat_seed(seed, seat), limits=lim) for seat, a in ((1, first), (2, second))}
    warn_unbounded(g, agents.values())  # a search that cannot end says so rather than think in silence
    on_move = _shower(g, g.states_of(opening)[-1]) if show else None
    return play_one(g, agents, opening, seed, (agent_label(first), agent_label(second)), on_move)


def _shower(game: Game[Any, Any], start: Any) -> Callable[[Any, Move], None]:
    """What ``show=True`` does after each move: an SVG board updated in place in Jupyter, else text."""
    if _in_jupyter():
        shown = importlib.import_module("IPython.display")  # optional: only inside Jupyter
        handle = shown.display(shown.SVG(game.svg(start)), display_id=True)

        def draw(state: Any, move: Move) -> None:
            handle.update(shown.SVG(game.svg(state, move.action)))

        return draw
    print(game.render(start))

    def write(state: Any, move: Move) -> None:
        print(f"{move.ply}. {game.player_label(move.player)} {move.notation} ({move.seconds:.2f} s)")
        print(game.render(state))

    return write


def _in_jupyter() -> bool:
    """True inside a running IPython kernel (Jupyter), where boards can be drawn."""
    try:
        shell = importlib.import_module("IPython").get_ipython()
    except (ImportError, AttributeError):
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None
