"""Agents that misbehave, for the arena's tests (loaded as ``path/to/faulty_agents.py:name``)."""

import os
import time


def raises(game, state):
    raise ValueError("boom")


def sleeper(game, state):
    time.sleep(3600)
    return game.actions(state)[0]


def illegal(game, state):
    return 99  # no board has a column 99


def string(game, state):
    return "four"


def first(game, state):  # a well-behaved classic player
    return game.actions(state)[0]


def slow_first(game, state):  # well-behaved but slow: a run lasts long enough to be killed mid-way
    time.sleep(0.1)
    return game.actions(state)[0]


def crasher(game, state):
    os._exit(3)


class _BadRepr:
    def __repr__(self):
        raise RuntimeError("no repr for you")


def bad_repr(game, state):  # an action whose __repr__ raises
    return _BadRepr()


class _BadStr(Exception):
    def __str__(self):
        raise RuntimeError("no str for you")


def bad_str(game, state):  # raises an exception whose __str__ raises
    raise _BadStr()


class _BadEq(int):
    def __eq__(self, other):
        raise RuntimeError("no eq for you")

    __hash__ = int.__hash__


def bad_eq(game, state):  # an int subclass whose __eq__ raises
    return _BadEq(game.actions(state)[0])


class _ExitRepr:
    def __repr__(self):
        raise SystemExit(4)


def exit_repr(game, state):  # an action whose __repr__ raises SystemExit
    return _ExitRepr()
