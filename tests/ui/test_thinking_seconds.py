""""solver is thinking: 8 of 8 moves proven (8.3 s)" was said at 4.2 s on the clock: the seconds of a
progressive event add up its threads' search times.  The line says the time on the clock."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from zerosum import ConnectX
from zerosum.solver.agent import SolverAgent
from zerosum.solver.progressive import Event
from zerosum.ui.hints import think
from zerosum.ui.terminal import PlaySession
from zerosum.ui.terminal_view import Output

sys.path.insert(0, str(Path(__file__).parent))
from test_terminal_waits import Screen  # noqa: E402


class Threads(SolverAgent):
    """The solver, whose first report says its threads took 100 s between them (as several threads do)."""

    def search_within(self, game: Any, state: Any, seconds: float, report: Any = None) -> Any:
        report(Event(3, "wdl", 1, 1000, 100.0))
        return super().search_within(game, state, seconds, None)


def test_the_thinking_line_says_the_time_on_the_clock() -> None:
    game, screen = ConnectX(), Screen()
    session = PlaySession(game, {1: None, 2: None}, lambda prompt: None, Output(screen, color=False),
                          game.parse_moves("4455"), hint_time=0.3, solver_time=2.0)
    agent = Threads()
    played, _, _ = think(session, agent)
    assert played.action in game.actions(session.state)
    said = [float(m) for m in re.findall(r"solver is thinking: \d+ of 7 moves proven \((\d+\.\d) s\)",
                                         screen.getvalue())]
    assert said and max(said) < 50, said  # seconds on the clock, not the threads' 100
