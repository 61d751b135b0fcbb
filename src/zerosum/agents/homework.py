"""The 8 x 8 homework's player contract, and what a student's agent file may declare.

**The board player.**  A function in an agent file that takes one argument, ``player(board)``, is the course
homework's player: it is handed the board as a numpy array (``rows x cols``, the top row first, ``0`` empty,
``1`` X, ``2`` O) and returns a 0-based column.  The homework's player is O, the maximising side, so the
adapter (:class:`BoardPlayer`) always shows the board from O's side: when the player is in fact the first
player (X), ``1`` and ``2`` are swapped, so that its own stones are always ``2``.  It plays every Connect-X
board (``--game connect4-8x8``, the homework's board, or any other size).

Its answer must be a column: a Python int or a numpy integer (not a bool, not a float, not None) in
``0..cols-1``, in a column that is not full.  Anything else is one :class:`BadAnswer` line naming the
function, the position (its move string) and what was expected; in the arena the game is forfeited with that
line as its reason (``malformed move: ...`` or ``illegal move: ...``).

**Declarations** an agent file may make (module-level names):

- ``NODES_COUNTED_BY = "minMax"``: the arena counts the calls of that function as the player's nodes
  (:mod:`zerosum.arena.counting`).  The name is looked up in the agent file, then in the module that
  defines the player; ``"hw_student.minMax"`` names a function of a module the file imported.  Every global
  binding of the function is replaced by the counting wrapper, so the recursion's own calls count.  A
  player handed over in Python (``zerosum.play_game(game, hw.player, ...)``) has its declaration read the
  same way from the module that defines it (:func:`defining_module`).

**The entry function.**  An agent file named without a function (``homework.py`` rather than
``homework.py:player``) plays with :func:`entry_function`: ``player``, else the file's only function.

**Sibling modules.**  While an agent file is loaded (and while its function plays a move) the modules of its
own folder are found first, as if the folder came first on ``sys.path`` but for the thread running the agent
alone (``sys.path`` itself is left as it is), so ``import hw_student`` finds ``hw_student.py`` beside it.  The modules it
imports from its folder are kept with the agent and taken out of ``sys.modules`` again, so two students'
files that each import their own ``helpers.py`` each get their own (:func:`sibling_imports`).
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import os
import sys
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterator

from ..core.per_thread import folder_first
from ..errors import AgentError
from ..game import Game
from ..spec import quoted

__all__ = ["BoardPlayer", "BadAnswer", "Declared", "takes_board", "check_arity", "declared_counter",
           "defining_module", "sibling_imports", "board_of", "plain_int", "in_position", "DECLARATION", "ENTRY", "entry_function"]

#: the module-level name by which an agent file names its search function (the nodes the arena counts)
DECLARATION = "NODES_COUNTED_BY"


#: the entry function looked for first in an agent file named without one (``homework.py``)
ENTRY = "player"


def entry_function(path: str, entry: str | None = None) -> str:
    """The name of the function an agent file plays with: ``entry`` when given (AgentError unless the file
    defines it), else ``player`` (the homework's ``player(board)``), else the file's only top-level function.
    Read from the file's syntax: nothing of it runs.  AgentError (one line) when there is no function,
    several and no ``player``, or the file does not parse.  A contest's Python submission
    (:mod:`zerosum.contest.seats`) and an agent file named without a function (``zerosum match hw.py random``)
    both play with it."""
    from ..core.files import python_syntax

    tree = python_syntax(path, "agent file", AgentError)
    defined: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined += [t.id for t in targets if isinstance(t, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defined += [(a.asname or a.name).partition(".")[0] for a in node.names]
    if entry is not None:
        if entry not in defined:
            raise AgentError(f"{os.path.basename(path)} defines no {quoted(entry)}")
        return entry
    if ENTRY in defined:
        return ENTRY
    functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    if len(functions) == 1:
        return functions[0]
    if not functions:
        raise AgentError(f"{os.path.basename(path)} defines no function: define player(board), which returns a column")
    raise AgentError(f"{os.path.basename(path)} defines {len(functions)} functions ({', '.join(functions[:6])}"
                     f"{', ...' if len(functions) > 6 else ''}) and none is called player: "
                     "name your entry function player")


class BadAnswer(AgentError):
    """A board player's answer that is not a legal column; ``kind``: ``malformed move`` or ``illegal move``
    (the arena's forfeit reason starts with it)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


# ---- sibling modules --------------------------------------------------------------------------------


def _sibling(name: str, folder: str) -> bool:
    """Whether module ``name`` was found beside the agent file: its top-level module is ``folder/top.py`` or
    the package ``folder/top/``.  A library installed below the folder (a ``.venv`` there, a checkout's
    ``src/``) is not a sibling: it stays imported, as any library does."""
    top = sys.modules.get(name.partition(".")[0])
    where = getattr(top, "__file__", None)
    if not isinstance(where, str):
        return False
    path = os.path.realpath(where)
    parent = os.path.dirname(path)
    if os.path.basename(path).startswith("__init__."):
        parent = os.path.dirname(parent)
    return parent == folder


@contextlib.contextmanager
def sibling_imports(folder: str, kept: dict[str, ModuleType]) -> Iterator[None]:
    """Within, in this thread: the modules of ``folder`` found first (as with ``folder`` first on
    ``sys.path``, other threads unaffected: :func:`~zerosum.core.per_thread.folder_first`) and the modules ``kept`` from it in ``sys.modules``; after: as they
    were, and every module newly imported from ``folder`` moved into ``kept`` (the agent's own).
    ``sys.modules`` is read from snapshots, since other threads may import meanwhile."""
    folder = os.path.realpath(folder)
    saved = {name: sys.modules.get(name) for name in kept}
    sys.modules.update(kept)
    before = set(list(sys.modules))
    try:
        with folder_first(folder):
            yield
    finally:
        for name in [n for n in list(sys.modules) if n not in before and _sibling(n, folder)]:
            module = sys.modules.pop(name, None)
            if module is not None:
                kept[name] = module
        for name, old in saved.items():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old


# ---- the one-argument board player ------------------------------------------------------------------


def takes_board(func: Callable[..., Any]) -> bool:
    """Whether ``func`` is a one-argument player (``player(board)``): exactly one required positional
    parameter and no ``*args``.  Classes and callables whose signature cannot be read are not."""
    if isinstance(func, type):
        return False
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in params):
        return False
    required = [p for p in params if p.kind in positional and p.default is inspect.Parameter.empty]
    return len(required) == 1


def check_arity(func: Callable[..., Any], label: str) -> None:
    """One AgentError line unless ``func`` can be called as ``player(board)`` or ``f(game, state)``: with one
    or two positional arguments (defaults and ``*args`` count; a signature that cannot be read passes)."""
    if isinstance(func, type):
        return
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return
    for count in (1, 2):
        try:
            signature.bind(*range(count))
        except TypeError:
            continue
        return
    names = [("*" if p.kind == p.VAR_POSITIONAL else "**" if p.kind == p.VAR_KEYWORD else "") + p.name
             for p in signature.parameters.values()]
    takes = f"takes ({', '.join(names[:6])}{', ...' if len(names) > 6 else ''})" if names else "takes no parameters"
    raise AgentError(f"{label} {takes}: expected player(board), which returns a column, or f(game, state), "
                     f"which returns an action")


def board_of(game: Any, state: Any) -> Any:
    """The numpy board the homework's player sees: ``rows x cols`` ints, the top row first, 0 empty, the
    side to move's stones 2 (O) and the other side's 1 (X)."""
    import numpy as np

    mover = game.player(state)
    codes = {".": 0, "X": 1 if mover == 2 else 2, "O": 2 if mover == 2 else 1}
    rows = game.to_grid(state).split("\n")
    return np.array([[codes[c] for c in row] for row in rows], dtype=np.int64)


def in_position(game: Any, state: Any) -> str:
    """Where an error happened, as words: ``at the start`` when no move was played, else ``in position
    '4453'`` (its move string), else ``in position grid ...`` (a position built from a grid)."""
    try:
        moves = game.to_moves(state)
    except Exception:  # noqa: BLE001 - a position built from a grid has no history
        try:
            return "in position grid " + "/".join(game.to_grid(state).split("\n"))
        except Exception:  # noqa: BLE001 - a game without a grid
            return "in a position"
    return f"in position {quoted(moves)}" if moves else "at the start"


def _shown(answer: Any) -> str:
    from ..game import safe_repr

    return f"{safe_repr(answer)} ({type(answer).__name__})"


class BoardPlayer:
    """The adapter of a one-argument ``player(board)`` (see the module doc): called ``(game, state)``."""

    def __init__(self, func: Callable[[Any], Any], label: str) -> None:
        self.func = func
        self.label = label  # "hw.py:player": how errors name the function

    def check_game(self, game: Game[Any, Any]) -> None:
        """One AgentError line unless ``game`` is a Connect-X board (the only board the contract has)."""
        from ..core.game_types import COLUMN_BITBOARD

        if game.traits.layout != COLUMN_BITBOARD:  # the Connect-X boards (a column of stones, gravity)
            raise AgentError(f"{self.label} takes one argument, so it is the homework's player(board): it plays "
                             f"Connect-X boards only, not {game.spec} (write f(game, state) for other games)")

    def move(self, game: Game[Any, Any], state: Any) -> int:
        """The player's column in ``state``, checked (:class:`BadAnswer` for anything but a legal one)."""
        self.check_game(game)
        answer = self.func(board_of(game, state))
        return self.check_answer(game, state, answer)

    def check_answer(self, game: Any, state: Any, answer: Any) -> int:
        legal = game.actions(state)
        cols = game.cols
        expected = f"expected a 0-based column 0..{cols - 1} that is not full: one of {', '.join(map(str, legal))}"
        where = f"{self.label} returned {_shown(answer)} {in_position(game, state)}"
        column = plain_int(answer)
        if column is None:
            raise BadAnswer(f"{where}: {expected}", "malformed move")
        if not 0 <= column < cols:  # a 0-based number said both ways (docs/teaching.md, one numbering)
            raise BadAnswer(f"{where}: column {column + 1} is outside 1..{cols} (0-based {column} is outside "
                            f"0..{cols - 1}); {expected}", "illegal move")
        if column not in legal:
            raise BadAnswer(f"{where}: column {column + 1} is full (0-based {column}); {expected}", "illegal move")
        return column


def plain_int(value: Any) -> int | None:
    """A plain int for an int or numpy integer (never a bool, float or anything else), else None: what a
    player may answer where an action is a number (the arena reads every answer through it)."""
    if type(value) is int:
        return value
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        return None
    return int(value) if isinstance(value, np.integer) else None


# ---- the declared search function ------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Declared:
    """The function an agent file names with ``NODES_COUNTED_BY``: its ``name`` and the global namespaces
    (module dicts) that bind it, where the counting wrapper replaces it."""

    text: str  # the declaration as written
    name: str
    function: Callable[..., Any] = field(repr=False)
    namespaces: tuple[dict[str, Any], ...] = field(repr=False)


def defining_module(player: Any) -> tuple[dict[str, Any], str] | None:
    """The global namespace of the module that defines ``player`` (handed over in Python, not loaded from a
    file) and how a refusal names it (its file, else the module's name), or None when there is none: a
    function's own ``__globals__`` (right even for a module imported under a name ``sys.modules`` lacks),
    else the module its ``__module__`` names (a callable object: its class's module)."""
    space = getattr(player, "__globals__", None)
    if not isinstance(space, dict):
        module = sys.modules.get(str(getattr(player, "__module__", None) or ""))
        space = vars(module) if module is not None else None
    if not isinstance(space, dict):
        return None
    where = space.get("__file__")
    return space, where if isinstance(where, str) else str(space.get("__name__") or "its module")


def declared_counter(module: ModuleType | dict[str, Any], player: Any, path: str) -> Declared | None:
    """The ``NODES_COUNTED_BY`` of ``module`` (an agent file's module, or the global namespace of the module
    that defines a player: :func:`defining_module`) resolved, None when it has none; one AgentError line,
    naming ``path``'s file, when it names no function."""
    space = module if isinstance(module, dict) else vars(module)
    text = space.get(DECLARATION)
    if text is None:
        return None
    where = f"{quoted(os.path.basename(path))}: {DECLARATION} = {quoted(text) if isinstance(text, str) else repr(text)}"
    if not isinstance(text, str) or not text.strip():
        raise AgentError(f"{where}: expected the name of the search function whose calls are the nodes, "
                         f"such as 'minMax'")
    *path_parts, name = text.strip().split(".")
    for part in path_parts:
        owner = space.get(part)
        if not isinstance(owner, ModuleType):
            raise AgentError(f"{where}: {quoted(part)} is not a module the file imported (write 'minMax', or "
                             f"'module.minMax' for a module it imports)")
        space = vars(owner)
    spaces = [space]
    inner = getattr(player, "__globals__", None)
    if not path_parts and isinstance(inner, dict) and inner is not spaces[0]:
        spaces.append(inner)
    function = next((space[name] for space in spaces if name in space), None)
    if not callable(function) or isinstance(function, type):
        raise AgentError(f"{where}: there is no function {quoted(name)} there to count (expected the search "
                         f"function whose calls are the nodes, such as 'minMax')")
    holders = tuple(space for space in spaces if space.get(name) is function)
    return Declared(text.strip(), name, function, holders)
