"""``zerosum play``: a game in the terminal, a person against an agent, two people, or two agents.

It reads moves line by line from standard input, so it works the same at a keyboard and in a script:
``printf '4\\n4\\nq\\n' | zerosum play``.  Bad input is explained and asked again; ``u`` undoes (a full move
when playing an engine), ``q`` quits.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

from ..agents.base import Agent, SearchAgent, SearchResult, make_agent, strongest_agent_spec
from ..errors import IllegalMoveError
from ..game import Game
from ..games import get_game

__all__ = ["PlaySession", "play", "COMMANDS"]


@dataclass
class PlaySession:
    """One game at the terminal: the seats, the states so far, and where text goes."""

    game: Game[Any, Any]
    seats: dict[int, Agent | None]  # None: a person at the keyboard
    read: Callable[[], str | None]
    out: TextIO
    states: list[Any] = field(default_factory=list)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    @property
    def state(self) -> Any:
        return self.states[-1]

    def show(self) -> None:
        self.say(self.game.render(self.state))

    def undo(self) -> None:
        """Take back the last move, or the last full move when an engine sits in the other seat."""
        if len(self.states) == 1:
            self.say("Nothing to undo.")
            return
        self.states.pop()
        # keep taking back until it is a person's turn (or the start)
        while len(self.states) > 1 and self.seats[self.game.player(self.state)] is not None:
            self.states.pop()
        self.say("Move taken back.")
        self.show()

    def human_turn(self) -> bool:
        """Ask until a legal move, ``u`` or ``q``; returns False to quit."""
        game, state = self.game, self.state
        while True:
            self.out.write(f"Player {game.player(state)} ({_mark(game, game.player(state))}), your move: ")
            self.out.flush()
            line = self.read()
            if line is None:
                self.say()
                self.say("End of input: game abandoned.")
                return False
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                self.say("Game abandoned.")
                return False
            if text.lower() in ("u", "undo"):
                self.undo()
                return True
            if text.lower() in ("?", "help"):
                self.say(_help(game))
                continue
            if not text:
                continue
            try:
                action = game.parse_action(text, state)
            except IllegalMoveError as exc:
                self.say(f"{exc}. Try again.")
                continue
            self.states.append(game.result(state, action))
            self.show()
            return True

    def engine_turn(self, agent: Agent) -> None:
        game, state = self.game, self.state
        start = time.perf_counter()
        found: SearchResult | None = None
        if isinstance(agent, SearchAgent):
            found = agent.search(game, state)
            action = found.action
        else:
            action = agent(game, state)
        elapsed = time.perf_counter() - start
        self.states.append(game.result(state, action))
        info = f"{agent.spec} plays {game.format_action(action)}"
        if found is not None:
            info += f" ({found.describe()}, {found.nodes:,} nodes, {elapsed:.2f} s)"
        self.say(info)
        self.show()

    def run(self) -> int:
        self.show()
        while True:
            game, state = self.game, self.state
            out = game.outcome(state)
            if out is not None:
                if out.winner is None:
                    self.say(f"Draw ({out.reason}).")
                else:
                    self.say(f"Player {out.winner} ({_mark(game, out.winner)}) wins: {out.reason}.")
                return 0
            agent = self.seats[game.player(state)]
            if agent is None:
                if not self.human_turn():
                    return 0
            else:
                self.engine_turn(agent)


def _mark(game: Game[Any, Any], player: int) -> str:
    if game.spec.startswith("migration"):
        return "moves right" if player == 1 else "moves up"
    return "X" if player == 1 else "O"


def _help(game: Game[Any, Any]) -> str:
    if game.spec.startswith("connectx"):
        what = f"a column number 1..{getattr(game, 'cols', '?')}"
    elif game.spec == "tictactoe":
        what = "a cell number 1..9, row by row from the top left"
    else:
        what = "the stone to move as 'x,y' (row and column from 0)"
    return f"Type {what}; u to undo, q to quit."


def play(
    game_spec: str = "connect4",
    first: str = "human",
    second: str | None = None,
    moves: str = "",
    read: Callable[[], str | None] | None = None,
    out: TextIO | None = None,
    seed: int | None = None,
) -> int:
    """Play one game; ``first``/``second`` are agent specs (``human`` for a person)."""
    game = get_game(game_spec)
    if second is None:
        second = strongest_agent_spec(game) if first == "human" else "human"
    seats: dict[int, Agent | None] = {}
    for player, spec in ((1, first), (2, second)):
        seats[player] = None if spec.strip() == "human" else make_agent(spec, seed=seed)
    start = game.initial_state
    if moves:
        if not hasattr(game, "from_moves"):
            raise IllegalMoveError(f"{game.spec} has no move strings")
        start = game.from_moves(moves)  # type: ignore[attr-defined]
    if read is None:
        def read() -> str | None:
            line = sys.stdin.readline()
            return line if line else None
    session = PlaySession(game, seats, read, out or sys.stdout, [start])
    return session.run()


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..cli import add_game_option

    add_game_option(parser)
    parser.add_argument("--first", default="human", metavar="AGENT",
                        help="who moves first: an agent spec or 'human' (default: human)")
    parser.add_argument("--second", default=None, metavar="AGENT",
                        help="who moves second (default: the strongest agent when a person moves first)")
    parser.add_argument("--moves", default="", help="start from this move string, e.g. 4453")
    parser.add_argument("--seed", type=int, default=None, help="seed for agents that use randomness")


def _run(args: argparse.Namespace) -> int:
    return play(args.game, args.first, args.second, args.moves, seed=args.seed)


COMMANDS = {"play": (_add_arguments, _run)}
