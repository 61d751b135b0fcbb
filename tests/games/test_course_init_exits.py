"""A game class whose constructor calls ``sys.exit()`` or raises a bare BaseException is one line in ``play``,
``match`` and ``explain`` (audit: they ended with status 0 and no line); Ctrl-C still stops them."""

import subprocess
import sys

import pytest

INIT = """\
import sys
class TakeAway:
    def __init__(self):
        {body}
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
"""


@pytest.mark.parametrize("body, said", [("sys.exit(0)", "could not be made: it called sys.exit(0)"),
                                        ("raise BaseException('bad init')", "could not be made: BaseException: bad init")])
@pytest.mark.parametrize("command", [("play", "--first", "random", "--second", "random", "--log"),
                                     ("match", "random", "random", "--games", "2", "-o", "out.db"),
                                     ("explain", "--agent", "alphabeta:plain=1")])
def test_a_constructor_that_exits_is_one_line(tmp_path, body, said, command):
    (tmp_path / "g.py").write_text(INIT.format(body=body))
    done = subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", command[0], "--game",
                           "g.py:TakeAway", *command[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    line, = done.stderr.strip().splitlines()
    assert line.startswith(f"zerosum {command[0]}: error: ") and line.endswith(said), line
