"""A contest on the teacher's own game (``contest new --game file.py:Class``): the game file copied into the
contest's folder (mode 0600: the teacher's only), pinned by its SHA-256, and seen by every seat as a read-only
copy (the sandbox's, made from a descriptor the server's own user opens: :mod:`.sandbox`).

:func:`copy_game` (at ``contest new``) copies the file into ``game/`` of the folder being built and answers
the game's spec in the contest, the copy's full path (``/home/t/class/game/c3.py:Connect3``), and the
``game_file`` record of the config (``{"file": "game/c3.py", "sha256": ..., "given": "c3.py:Connect3"}``).
The spec is the same string everywhere: the server, the pool's workers and ``final`` load the copy from it,
from any folder, and each seat (:func:`zerosum.contest.seats.seat_definition`) sees the copy read-only at that
very path (:func:`seat_files`), so that its ``zerosum engine --game SPEC`` loads the same game and the engine
protocol's ``position SPEC`` names it in one word.  Hence the folder's full path may hold no space and no ``:``
(one line at ``contest new``).

The copy is played alone: a file that imports a module beside it (AIMA's ``games.py``) is refused at ``contest
new``, one line naming it, and so is a copy that does not load on its own in a fresh Python (``python -I``, as
the seats load it).  :func:`check_game_file` (``serve``, ``final``, each validation and each game) refuses in
one line naming the file a copy that is gone, changed (its SHA-256), or not where the spec says (the folder
moved), and a contest of an older zerosum whose game is a file it did not copy.
"""

from __future__ import annotations

import ast
import hashlib
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..spec import quoted
from .owned import GAME

__all__ = ["is_file_game", "copy_game", "check_game_file", "seat_files", "LOAD_SECONDS"]

#: the longest the copy may take to load in a fresh Python at ``contest new``
LOAD_SECONDS = 60.0
_SRC = str(Path(__file__).resolve().parents[2])  # the folder above the zerosum package
_LOAD = ("import sys; sys.path.insert(0, %r)\nfrom zerosum.games import get_game\ntry:\n    get_game(sys.argv[1])\n"
         "except Exception as exc:\n    print(' '.join(str(exc).split())[:400], file=sys.stderr)\n    sys.exit(1)\n"
         % _SRC)


def _path(path: str | Path) -> str:
    """A path quoted whole for a message (up to 300 characters): the file is named."""
    return quoted(str(path), 300)


def is_file_game(spec: str) -> bool:
    """Whether the game spec names a file (its part before the first colon ends in ``.py``)."""
    return spec.strip().partition(":")[0].endswith(".py")


def _one_word(rest: str, given: str) -> str:
    """The class and arguments (``Connect3(cols=5, rows=4)``) without spaces, which the engine protocol's one
    word cannot hold; one UsageError line when the spaces are inside a literal (a string)."""
    if not any(c.isspace() for c in rest):
        return rest
    tight = "".join(rest.split())
    try:
        same = ast.dump(ast.parse(rest.strip(), mode="eval")) == ast.dump(ast.parse(tight, mode="eval"))
    except (SyntaxError, ValueError, RecursionError):
        same = False
    if not same:
        raise UsageError(f"--game {quoted(given)}: a contest names its game in one word (the engine protocol's): "
                         "write the class's arguments without spaces")
    return tight


def _siblings(tree: ast.Module, folder: Path) -> list[str]:
    """The modules the game file imports that are files beside it (``games.py``, ``pkg/__init__.py``)."""
    found: list[str] = []
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
        for name in names:
            top = name.split(".")[0]
            if top not in found and ((folder / f"{top}.py").is_file() or (folder / top / "__init__.py").is_file()):
                found.append(top)
    return found


def _clean_folder(where: Path, given: str) -> None:
    bad = next((c for c in str(where) if c.isspace() or c == ":" or ord(c) < 32 or ord(c) == 127), None)
    if bad is not None:
        raise UsageError(f"--game {quoted(given)}: the contest's folder {_path(where)} holds {bad!r} in its "
                         "path: a game in a file is played from its copy there, named by its full path in one word "
                         "(no spaces, no ':'): choose a folder whose path has none")


def copy_game(given: str, spec: str, build: Path, target: Path) -> tuple[str, dict[str, Any]]:
    """Copy the game file of ``given`` (the teacher's ``--game``; ``spec``: the game's spec once loaded, its
    class named) into ``build/game/``: ``(the contest's game spec, the config's game_file record)`` (module
    docstring).  ``target``: the contest's folder, where the copy will be.  One UsageError line when the file
    imports a module beside it, does not load alone, or the folder's path cannot be named in one word."""
    path, _, rest = spec.strip().partition(":")
    rest = _one_word(rest, given)
    where = Path(os.path.realpath(target.parent)) / target.name
    _clean_folder(where, given)
    try:
        data = Path(path).read_bytes()
        tree = ast.parse(data, filename=os.path.basename(path))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise UsageError(f"--game {quoted(given)}: the file {_path(path)} cannot be read: "
                         f"{getattr(exc, 'strerror', None) or exc}") from None
    near = _siblings(tree, Path(os.path.abspath(path)).parent)
    if near:
        raise UsageError(f"--game {quoted(given)}: {os.path.basename(path)} imports {quoted(near[0])}, a module "
                         "beside it: the contest plays its copy of the game file alone (each seat sees that one "
                         "file): put the game in one file (it may import installed packages)")
    stem = "".join(c if c.isalnum() or c in "_-" else "_" for c in Path(path).stem)[:40] or "game"
    (build / GAME).mkdir(exist_ok=True)
    copy = build / GAME / f"{stem}.py"
    copy.write_bytes(data)
    os.chmod(copy, 0o600)  # the teacher's only: a seat sees a read-only copy of it (.sandbox's ``files``)
    tail = f":{rest}" if rest else ""
    here = f"{os.path.realpath(copy)}{tail}"
    try:
        done = subprocess.run([sys.executable, "-I", "-c", _LOAD, here], cwd=copy.parent, capture_output=True,
                              text=True, errors="replace", timeout=LOAD_SECONDS, stdin=subprocess.DEVNULL)
        why = done.stderr.strip().splitlines()[-1:] if done.returncode else None
    except subprocess.TimeoutExpired:
        why = [f"it did not load within {LOAD_SECONDS:g} s"]
    if why is not None:
        said = (why[0] if why else "it failed to load").replace(str(os.path.realpath(build)), str(where))
        hint = (" (the contest plays its copy alone: it may import installed packages, not modules beside it)"
                if "No module named" in said else "")
        raise UsageError(f"--game {quoted(given)}: its copy in the contest's folder does not load on its own, as "
                         f"the seats load it: {said}{hint}"[:600])
    record = {"file": f"{GAME}/{copy.name}", "sha256": hashlib.sha256(data).hexdigest(), "given": given.strip()}
    return f"{where}/{GAME}/{copy.name}{tail}", record


def check_game_file(config: dict[str, Any], folder: str | Path) -> None:
    """Nothing when the contest's game is no file, or is its copy as ``contest new`` made it; else one
    UsageError line naming the file (module docstring)."""
    spec = str(config.get("game") or "")
    record = config.get("game_file")
    if record is None:
        if is_file_game(spec):
            raise UsageError(f"this contest's game, {quoted(spec)}, is a file that `contest new` did not copy into "
                             "the contest's folder (a contest of an older zerosum): the seats cannot load it: make the "
                             "contest again")
        return
    if not (isinstance(record, dict) and isinstance(record.get("file"), str) and isinstance(record.get("sha256"), str)
            and is_file_game(spec)):
        raise UsageError(f"the config's 'game_file' is {quoted(str(record), 80)}, not the copy of the game file "
                         '{"file", "sha256"} of a game in a file: the database was edited by hand; make the contest '
                         "again")
    copy = Path(folder) / record["file"]
    try:
        info = os.lstat(copy)
        data = copy.read_bytes() if stat.S_ISREG(info.st_mode) else None
    except OSError:
        raise UsageError(f"the contest's game file {_path(copy)} is gone (the copy `contest new` made): put "
                         "it back, or make the contest again") from None
    if data is None or hashlib.sha256(data).hexdigest() != record["sha256"]:
        raise UsageError(f"the contest's game file {_path(copy)} changed since `contest new` (its SHA-256 is "
                         "not the one the contest keeps): put the copy back as it was, or make the contest again")
    played = spec.strip().partition(":")[0]
    if os.path.realpath(played) != os.path.realpath(copy):
        raise UsageError(f"the contest's game is played from {_path(played)}, not from {_path(copy)}: the "
                         "contest's folder moved since `contest new`: move it back, or make the contest again")


def seat_files(game: str | None) -> list[tuple[str, str]]:
    """``(host path, path inside)`` of the game file a seat must see read-only: the contest's copy, at the
    path its spec names (nothing for a game that is no file, or a file not named by its full path)."""
    if not game or not is_file_game(game):
        return []
    path = game.strip().partition(":")[0]
    return [(path, path)] if os.path.isabs(path) else []
