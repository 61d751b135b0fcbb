"""Your own game from a file: ``path/to/file.py:Name``, optionally ``path/to/file.py:Name(ARGS)``, or
``path/to/file.py`` alone for the one class the file defines (read from its syntax).

``Name`` is a class (made with ARGS), a function returning a game (called with ARGS) or a game object (no
ARGS).  ARGS are Python literals only, positional or named (``nim.py:Nim(piles=(1, 2, 3))``,
``ttt.py:TicTacToe(h=4, v=4, k=3)``): they are read with :func:`ast.literal_eval`, never run.  The file runs
once per process while it is unchanged (a changed file is read again), with the modules of its own folder
found first while it loads, as with the folder first on ``sys.path`` but for the loading thread alone
(``sys.path`` is left as it is: :func:`~zerosum.core.per_thread.folder_first`), so that it imports the
modules beside it (AIMA's ``games.py``), which stay imported.  The arena's
worker processes, handed the spec, build the same game; the spec is kept as written, so a relative path is
relative to the folder the command runs in.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Any

from ..core.files import describe_exception, load_user_module, python_syntax
from ..core.per_thread import folder_first
from ..errors import AgentError, InvalidSpecError
from ..game import Game
from ..spec import quoted
from .course import CourseGame
from .course_objects import arena_view, course_game, is_course_game
from .course_bugs import one_line, raised

__all__ = ["course_file", "same_course_file", "load_course_file", "FILE_SPEC", "MAX_ARGUMENTS"]

#: the longest ARGS accepted, in characters
MAX_ARGUMENTS = 2000
_SPEC = re.compile(r"(?P<path>.+?\.py):(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\((?P<args>.*)\))?", re.S)

#: a game file's spec as written anywhere (a record's tag, a handshake's ``game`` line): the class optional
FILE_SPEC = re.compile(r"(?P<path>.+?\.py)(?::(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\((?P<args>.*)\))?)?", re.S)

_LOADED: dict[str, tuple[tuple[int, int], Game[Any, Any]]] = {}


def course_file(spec: str) -> bool:
    """True when ``spec`` names a file (its part before the first colon ends in ``.py``)."""
    return spec.strip().partition(":")[0].endswith(".py")


def same_course_file(spec: str, other: str) -> bool:
    """Whether two game file specs name the very same file (the path as the file system resolves it: a
    results file's ``/abs/nim.py:Nim`` and an engine's ``nim.py:Nim``), class and arguments (blanks aside).
    Nothing is loaded."""
    mine, theirs = FILE_SPEC.fullmatch(spec.strip()), FILE_SPEC.fullmatch(other.strip())
    if mine is None or theirs is None or mine["name"] != theirs["name"]:
        return False
    if "".join((mine["args"] or "").split()) != "".join((theirs["args"] or "").split()):
        return False
    try:
        return os.path.realpath(mine["path"]) == os.path.realpath(theirs["path"])
    except (OSError, ValueError):  # a path no file system takes (a NUL in it)
        return False


def _arguments(spec: str, text: str | None) -> tuple[list[Any], dict[str, Any]]:
    if text is None or not text.strip():
        return [], {}
    if len(text) > MAX_ARGUMENTS:
        raise InvalidSpecError(f"the arguments in {quoted(spec)} are over {MAX_ARGUMENTS} characters")
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        assert isinstance(call, ast.Call) and all(k.arg is not None for k in call.keywords)
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {str(k.arg): ast.literal_eval(k.value) for k in call.keywords}
    except (SyntaxError, ValueError, TypeError, AssertionError, MemoryError, RecursionError):
        if sum(text.count(c) for c in "([{") > sum(text.count(c) for c in ")]}"):
            raise InvalidSpecError(f"{quoted(spec)}: a closing bracket is missing in the arguments: write "
                                   "the arguments as Python literals, such as nim.py:Nim(piles=(1, 2, 3))") from None
        raise InvalidSpecError(f"the arguments in {quoted(spec)} are Python literals, such as "
                               "Nim(piles=(1, 2, 3)) or TicTacToe(4, 4, k=3)") from None
    return args, kwargs


def _only_class(path: str) -> str:
    """The one class ``path`` defines at its top level, read from its syntax (nothing of it runs): what
    ``path/to/file.py`` alone names; one InvalidSpecError line when it defines none or several."""
    tree = python_syntax(path, "game file", InvalidSpecError)
    classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    base = os.path.basename(path)
    if not classes:
        raise InvalidSpecError(f"game file {quoted(path)} defines no class: name the game in it, as {base}:Name")
    if len(classes) > 1:
        raise InvalidSpecError(f"game file {quoted(path)} defines {len(classes)} classes ({', '.join(classes[:6])}"
                               f"{', ...' if len(classes) > 6 else ''}): name the one to play, as {base}:{classes[0]}")
    return classes[0]


def load_course_file(spec: str) -> Game[Any, Any]:
    """The game ``spec`` names (see the module doc); one InvalidSpecError line for whatever is wrong."""
    text = spec.strip()
    if text.endswith(".py") and ":" not in text:  # the file's only class
        text = f"{text}:{_only_class(text)}"
    found = _SPEC.fullmatch(text)
    if found is None:
        opened = re.fullmatch(r"(.+?\.py):([A-Za-z_][A-Za-z0-9_]*)\((.*)", text, re.S)
        if opened is not None:  # nim.py:Nim(piles= : the arguments' closing bracket is missing
            raise InvalidSpecError(f"{quoted(spec)}: a closing bracket is missing in the arguments: write "
                                   "the arguments as Python literals, such as nim.py:Nim(piles=(1, 2, 3))")
        raise InvalidSpecError(f"{quoted(spec)}: name the game in the file, as path/to/file.py:ClassName "
                               "or path/to/file.py:ClassName(arguments)")
    path, name = found["path"], found["name"]
    args, kwargs = _arguments(text, found["args"])
    try:
        info = os.stat(path)
    except OSError:
        raise InvalidSpecError(f"game file {quoted(path)} not found (expected path/to/file.py:ClassName)") from None
    stamp = (info.st_mtime_ns, info.st_size)
    known = _LOADED.get(text)
    if known is not None and known[0] == stamp:
        return known[1]
    folder = os.path.dirname(os.path.abspath(path))  # the file imports the modules beside it (AIMA's games.py)
    try:
        with folder_first(folder):  # for this thread alone: another loading beside it keeps its own view
            module = load_user_module(path, "game file")
    except AgentError as exc:
        raise InvalidSpecError(one_line(str(exc))) from None
    target = getattr(module, name, None)
    if target is None:
        raise InvalidSpecError(f"game file {quoted(path)} has no {quoted(name)}")
    if isinstance(target, type) or (callable(target) and not is_course_game(target)):
        try:
            obj = target(*args, **kwargs)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - a student's constructor that fails or calls sys.exit
            said = f"it {raised(exc)}" if isinstance(exc, SystemExit) else describe_exception(exc)
            raise InvalidSpecError(one_line(f"{quoted(text)} could not be made: {said}")) from None
    elif args or kwargs:
        raise InvalidSpecError(f"{quoted(text)}: {name} is a game object, not a class: it takes no arguments")
    else:
        obj = target
    game = _as_game(obj, text)
    _LOADED[text] = (stamp, game)
    return game


def _as_game(obj: Any, spec: str) -> Game[Any, Any]:
    if isinstance(obj, Game) and not obj.COURSE:
        obj.spec = spec  # a complete zerosum Game: the arena's workers build it again from this spec
        return obj
    if not is_course_game(obj):
        raise InvalidSpecError(f"{quoted(spec)} is a {type(obj).__name__}, not a game: a game has the course's "
                               "methods (actions, result, is_terminal, utility, to_move) or easyAI's")
    game: CourseGame = course_game(obj, spec)
    return arena_view(game)  # the arena's workers build it from the spec: moves as numbers where needed
