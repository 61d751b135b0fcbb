"""A student's evaluation that calls ``sys.exit()`` or raises what is no Exception (GeneratorExit, a bare
BaseException) is one AgentError line naming it, from Python (``search``) and in ``zerosum explain``/``play``
(audit: ``explain`` and ``play`` ended with status 0 and printed nothing, ``search`` let SystemExit out).
Ctrl-C (KeyboardInterrupt) still stops the search."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import zerosum
from zerosum.agents.registry import make_agent
from zerosum.errors import AgentError

EVALS = textwrap.dedent("""\
    import sys
    def e_exit(game, state, player): sys.exit(0)
    def e_exit_text(game, state, player): sys.exit("bye\\nbye2")
    def e_generator_exit(game, state, player): raise GeneratorExit
    def e_base(game, state, player): raise BaseException("x")
    def e_ctrl_c(game, state, player): raise KeyboardInterrupt
    def e_late_exit(game, state, player):
        if sum(1 for row in game.board_view(state).cells for cell in row if cell) >= 2: sys.exit(0)
        return 0.5 if player == 1 else -0.5
    """)
GAME = "connectx:rows=4,cols=4,k=3"
SAID = {"e_exit": "called sys.exit(0)", "e_exit_text": "called sys.exit('bye\\nbye2')",
        "e_generator_exit": "raised GeneratorExit", "e_base": "raised BaseException: x",
        "e_late_exit": "called sys.exit(0)"}


@pytest.fixture
def evals(tmp_path: Path) -> Path:
    path = tmp_path / "ev.py"
    path.write_text(EVALS)
    return path


@pytest.mark.parametrize("name", sorted(SAID))
@pytest.mark.parametrize("kind", ["alphabeta:depth=2", "minimax:depth=2", "alphabeta:depth=0"])
def test_search_says_an_evaluation_that_exits_in_one_agent_error_line(evals, name, kind):
    game = zerosum.get_game(GAME)
    agent = make_agent(f"{kind},eval={evals}:{name}")
    with pytest.raises(AgentError) as info:
        agent.search(game, game.initial_state)
    text = str(info.value)
    assert text.startswith(f"evaluation {evals}:{name} {SAID[name]} at ") and "\n" not in text, text


def test_ctrl_c_in_an_evaluation_still_stops_the_search(evals):
    game = zerosum.get_game(GAME)
    with pytest.raises(KeyboardInterrupt):
        make_agent(f"alphabeta:depth=2,eval={evals}:e_ctrl_c").search(game, game.initial_state)


def test_a_course_game_s_own_evaluate_that_exits_is_one_line(tmp_path):
    path = tmp_path / "g.py"
    path.write_text(textwrap.dedent("""\
        import sys
        class TakeAway:
            def __init__(self):
                self.initial = (5, "A")
            def actions(self, state):
                return [n for n in (1, 2) if n <= state[0]]
            def result(self, state, n):
                return (state[0] - n, "B" if state[1] == "A" else "A")
            def terminal_test(self, state):
                return state[0] == 0
            def utility(self, state, player):
                return -1 if state[1] == player else +1
            def to_move(self, state):
                return state[1]
            def evaluate(self, state, player):
                sys.exit(0)
        """))
    game = zerosum.get_game(f"{path}:TakeAway")
    with pytest.raises(AgentError, match=r"^evaluation TakeAway.evaluate called sys.exit\(0\) at "):
        make_agent("alphabeta:depth=2").search(game, game.initial_state)


@pytest.mark.parametrize("command", [("explain", "--agent", "{agent}", "--depth", "0"),
                                     ("play", "--first", "{agent}", "--second", "random", "--log")])
@pytest.mark.parametrize("name", ["e_exit", "e_generator_exit", "e_base", "e_late_exit"])
def test_explain_and_play_say_an_evaluation_that_exits_in_one_line(evals, command, name):
    agent = f"alphabeta:depth=2,eval=ev.py:{name}"
    done = subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", command[0], "--game", GAME,
                           *(a.format(agent=agent) for a in command[1:])], cwd=evals.parent, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, (done.returncode, done.stdout[-300:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    line, = done.stderr.strip().splitlines()
    assert line.startswith(f"zerosum {command[0]}: error: evaluation ev.py:{name} {SAID[name]} at "), line
