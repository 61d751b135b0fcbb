"""A hint's headline says what the person waited: its search's time, and the wait outside the search (the
solver made, its compiled code loaded, its opening book read) as the 8 x 8 hint says a wait for its code:
``Hint from the solver (exact): play 4, win in 19 moves; 0.03 s, from the opening book, after 2.2 s preparing
the engine.``  A newcomer's first hint after install came 2.2 s after ``h`` and said only ``0.03 s, from the
opening book``: the 7 x 6 book's answer needs no step of its own, so the solver's loading went unsaid.

And the line under a wait that names what compiles meanwhile reads as English for any label (``the solver's
tables``, ``MCTS's kernels on bitboards``): ``(meanwhile preparing the solver's tables for later)``, not
"the solver's tables is being prepared".
"""

from __future__ import annotations

import re
import subprocess
import sys
import time

from zerosum.agents import prepare
from zerosum.ui.terminal_waits import waiting_words

#: a fresh process, as ``zerosum play`` sets one up (the engines' code loading in the background from the
#: start), asks a hint at once in a position the opening book answers: the hint's wall time, then the screen
HINT = """
import io, time
from zerosum import ConnectX, make_agent
from zerosum.agents.prepare import start, steps_of
from zerosum.ui.terminal import PlaySession
from zerosum.ui.terminal_view import Output
game, screen = ConnectX(), io.StringIO()
solver = make_agent('solver')
start(steps_of(solver, game))
session = PlaySession(game, {1: None, 2: solver}, lambda prompt: None, Output(screen, color=False),
                      game.parse_moves('44'), hint_agent=solver)
began = time.perf_counter()
session.hint()
print(round(time.perf_counter() - began, 3))
print(screen.getvalue())
"""

HEADLINE = re.compile(r"Hint from the solver \(exact\): play 4, win in 20 moves; (\d+\.\d\d) s, from the opening "
                      r"book(?:, after (\d+(?:\.\d)?) s preparing the engine)?\.")


def test_a_fresh_processs_first_hint_says_the_wait_for_the_solver_besides_its_search() -> None:
    done = subprocess.run([sys.executable, "-c", HINT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    waited, shown = done.stdout.split("\n", 1)
    found = HEADLINE.search(shown)
    assert found is not None, shown
    said = float(found[1]) + float(found[2] or 0)
    # what it says is what the person waited, less at most a wait too short to say (prepare.MESSAGE_AFTER)
    assert float(waited) - prepare.MESSAGE_AFTER - 0.1 <= said <= float(waited) + 0.1, (waited, shown)


def test_what_compiles_meanwhile_is_said_in_english_whatever_its_label() -> None:
    for label in ("the solver's tables", "MCTS's kernels on bitboards"):
        step = prepare.step(f"{label} {time.perf_counter()}", label, lambda: time.sleep(1.0), cold=3.0)
        prepare.start([step])
        deadline = time.perf_counter() + 10
        while step.started is None and time.perf_counter() < deadline:
            time.sleep(0.01)
        assert step.started is not None and not step.ready
        # 0.9 s into a wait that needs nothing being prepared, while the step has run as long (for later)
        words = waiting_words("solver is thinking", step.started, step.started + 0.9, needs=[])
        assert words == f"solver is thinking: 0.9 s (meanwhile preparing {label} for later)", words
        step.wait(10)
