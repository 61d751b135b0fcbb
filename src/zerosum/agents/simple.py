"""The simple agents: ``random`` (seeded), ``first`` (the classic "dummy") and ``human``."""

from __future__ import annotations

import random
import sys
from typing import Any, Callable, TextIO

from ..errors import AgentError, IllegalMoveError
from ..game import Game
from .base import Agent, Limits, check_search
from .traits import AgentTraits, ServerTraits

__all__ = ["RandomAgent", "FirstAgent", "HumanAgent", "QuitGame", "UndoMove"]


class RandomAgent(Agent):
    """A uniformly random legal action; the same seed gives the same choices."""

    name = "random"
    description = "a uniformly random legal move (seed= for reproducible play)"
    TRAITS = AgentTraits(label="random moves", server=ServerTraits(), opponent=("", "random moves"), strength=10)

    def __init__(self, *, limits: Limits | None = None, seed: int | None = None) -> None:
        super().__init__(limits=limits, seed=seed)
        self.rng = random.Random(seed)

    def reset(self) -> None:
        pass  # a seeded random player keeps its stream across games, like any generator

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        check_search(self.spec, game, state)
        actions = game.actions(state)
        if not actions:
            raise AgentError("no legal action: the game is over")
        return actions[self.rng.randrange(len(actions))]


class FirstAgent(Agent):
    """The first legal action in the game's documented order (leftmost column, lowest cell)."""

    name = "first"
    description = "the first legal move (the classic dummy player)"
    TRAITS = AgentTraits(label="first legal move", server=ServerTraits(refuses=("seed",)),
                         opponent=("", "first legal move"), strength=0)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        check_search(self.spec, game, state)
        actions = game.actions(state)
        if not actions:
            raise AgentError("no legal action: the game is over")
        return actions[0]


class QuitGame(Exception):
    """The human asked to quit."""


class UndoMove(Exception):
    """The human asked to take a move back."""


class HumanAgent(Agent):
    """Reads moves from a person (standard input by default), explains bad input and asks again.

    ``q`` raises :class:`QuitGame` and ``u`` raises :class:`UndoMove` for the caller to handle; the end of
    input raises :class:`QuitGame` too.
    """

    name = "human"
    description = "a person at the keyboard"
    TRAITS = AgentTraits(label="a person")

    def __init__(
        self,
        *,
        limits: Limits | None = None,
        seed: int | None = None,
        read: Callable[[str], str] | None = None,
        out: TextIO | None = None,
    ) -> None:
        super().__init__(limits=limits, seed=seed)
        self.read = read
        self.out = out

    def _readline(self, prompt: str) -> str:
        if self.read is not None:
            return self.read(prompt)
        out = self.out or sys.stdout
        out.write(prompt)
        out.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        check_search(self.spec, game, state)
        while True:
            try:
                text = self._readline(f"Player {game.player(state)}, your move: ").strip()
            except EOFError:
                raise QuitGame("end of input") from None
            if text.lower() in ("q", "quit", "exit"):
                raise QuitGame(text)
            if text.lower() in ("u", "undo"):
                raise UndoMove(text)
            if not text:
                continue
            try:
                return game.parse_action(text, state)
            except IllegalMoveError as exc:
                print(f"{exc}. Try again.", file=self.out or sys.stdout)
