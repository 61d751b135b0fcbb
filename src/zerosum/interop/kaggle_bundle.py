"""What a single-file Kaggle submission carries: the import closure of its agent, found from the source.

:func:`bundle_files` starts from the Kaggle runtime (:mod:`zerosum.interop.kaggle`) and the modules that
define the submitted agents, and follows every ``import`` of the package's own modules (at module level
and inside functions, where the numba kernels are imported lazily; not under ``if TYPE_CHECKING:`` nor in
a package's lazy ``__getattr__``),
adding each module's parent packages (their ``__init__`` runs on import).  Data files come along when a
carried module names them (a literal ``"openings-connect4.txt"``, or an f-string such as
``f"book-{rows}x{cols}-k{k}.npz"`` read as the pattern ``book-*x*-k*.npz``).

The front ends and the other adapters never travel: a closure reaching :data:`NOT_CARRIED` is an
:class:`~zerosum.errors.AgentError` (such an agent cannot play on Kaggle's servers).  This module is used
only when a submission is written; the submission itself does not carry it.
"""

from __future__ import annotations

import ast
import base64
import fnmatch
import functools
import hashlib
import io
import lzma
import tarfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import AgentError

__all__ = ["NOT_CARRIED", "PACKAGE", "RUNTIME", "bundle_files", "check_unattended", "module_closure", "payload",
           "uncarried"]

#: the zerosum package folder whose source is read
PACKAGE = Path(__file__).resolve().parent.parent
#: the module the submission imports to play (its source is read here, never imported)
RUNTIME = f"{__package__}.kaggle"
#: parts of the package a submission never carries (front ends, other adapters, this writer); names, not imports
NOT_CARRIED = tuple(f"zerosum.{part}" for part in ("arena", "ui", "commands", "cli", "interop.openspiel",
                                                   "interop.pettingzoo", "interop.kaggle_bundle",
                                                   "interop.kaggle_submission"))


def _path_of(module: str, root: Path = PACKAGE) -> Path | None:
    """The source file of a dotted ``zerosum...`` module name, or None when there is none."""
    parts = module.split(".")
    if parts[0] != "zerosum":
        return None
    base = root.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _nodes(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node of a module but the bodies of ``if TYPE_CHECKING:`` (imports only type checkers see) and
    of a module-level ``__getattr__`` (a package's lazy attributes, such as ``zerosum.Solver``, which an
    agent that needs them imports itself)."""
    def visible(children: Iterable[ast.AST]) -> Iterator[ast.AST]:
        for child in children:
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                yield from child.orelse
            else:
                yield child

    stack = [n for n in visible(tree.body) if not (isinstance(n, ast.FunctionDef) and n.name == "__getattr__")]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(visible(ast.iter_child_nodes(node)))


def _tree(path: Path) -> ast.Module:
    """``path`` parsed, once while it is unchanged (a submission's closure is followed several times)."""
    stat = path.stat()
    return _parsed(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=1024)
def _parsed(path: Path, mtime_ns: int, size: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _imports(module: str, path: Path, root: Path) -> set[str]:
    """The ``zerosum`` modules that ``module`` (at ``path``) imports anywhere in its source."""
    stat = path.stat()
    return set(_imports_of(module, path, root, stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=1024)
def _imports_of(module: str, path: Path, root: Path, mtime_ns: int, size: int) -> frozenset[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _nodes(_parsed(path, mtime_ns, size)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            for alias in node.names:  # ``from . import fast``: the name may be a submodule
                if _path_of(f"{target}.{alias.name}", root) is not None:
                    found.add(f"{target}.{alias.name}")
    return frozenset(name for name in found if name.split(".")[0] == "zerosum" and _path_of(name, root) is not None)


def module_closure(roots: Iterable[str], root: Path = PACKAGE, *, carried_only: bool = False) -> list[str]:
    """The sorted dotted names of ``roots``, everything they import from zerosum, and their packages.

    ``carried_only``: leave out (and do not follow) the modules a submission never carries.
    """
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop()
        if name in seen or (carried_only and not _carried(name)):
            continue
        path = _path_of(name, root)
        if path is None:
            raise AgentError(f"{name!r} is not a module of the zerosum package")
        seen.add(name)
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # parent packages run on import
        todo.extend(_imports(name, path, root))
    return sorted(seen)


def _carried(name: str) -> bool:
    return not any(name == part or name.startswith(part + ".") for part in NOT_CARRIED)


def uncarried(module: str, root: Path = PACKAGE) -> str | None:
    """The first module ``module`` needs that a submission does not carry (maybe itself), or None."""
    if module.split(".")[0] != "zerosum" or _path_of(module, root) is None:
        return module
    outside = [name for name in module_closure([module], root) if not _carried(name)]
    return outside[0] if outside else None


def check_unattended(inner: Any, what: str) -> None:
    """Refuse an agent that cannot play alone on Kaggle's servers: one that waits for a person, or one whose
    module needs a part of zerosum a submission does not carry (another adapter and its library)."""
    from .kaggle_agents import check_plays_alone

    check_plays_alone(inner, what)  # the Kaggle adapter's own check
    needs = uncarried(type(inner).__module__)
    if needs is not None:
        raise AgentError(f"{what} {inner.spec!r} cannot be a Kaggle submission: it needs {needs!r}, which a "
                         "submission does not carry; submit one of zerosum's own agents such as 'solver'")


def _patterns(path: Path) -> set[str]:
    """File names (or glob patterns, from f-strings) that a module's source spells out."""
    found = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" not in node.value:
            found.add(node.value)
        elif isinstance(node, ast.JoinedStr):
            found.add("".join(str(v.value) if isinstance(v, ast.Constant) else "*" for v in node.values))
    # a usable name: a suffix, and enough fixed text that it is not a bare wildcard
    return {p for p in found if "." in p and len(p.replace("*", "")) >= 4 and not p.startswith("*")}


def bundle_files(agent_modules: Iterable[str], root: Path = PACKAGE) -> list[tuple[str, bytes]]:
    """``(path below the source folder, bytes)`` of what a submission of these agents' modules needs."""
    agent_modules = list(agent_modules)
    for module in agent_modules:
        needs = uncarried(module, root)
        if needs is not None:
            raise AgentError(f"a Kaggle submission cannot carry {needs!r} (needed by {module!r})")
    files = {}
    patterns: set[str] = set()
    for name in module_closure([RUNTIME, *agent_modules], root, carried_only=True):  # not the writer's imports
        path = _path_of(name, root)
        assert path is not None
        files[path] = path.relative_to(root)
        patterns |= _patterns(path)
    for path in sorted(root.rglob("*")):
        data = path.is_file() and path.suffix not in (".py", ".pyc", ".nbi", ".nbc") and "__pycache__" not in path.parts
        if data and any(fnmatch.fnmatchcase(path.name, p) for p in patterns):
            files[path] = path.relative_to(root)
    return sorted((str(Path("zerosum") / rel).replace("\\", "/"), path.read_bytes()) for path, rel in files.items())


def payload(agent_modules: Iterable[str], root: Path = PACKAGE) -> tuple[str, str, int]:
    """:func:`bundle_files` as an lzma-compressed tar in base85 text, a short hash of it, and the file count."""
    files = bundle_files(agent_modules, root)
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    packed = lzma.compress(raw.getvalue(), preset=9)
    return base64.b85encode(packed).decode("ascii"), hashlib.sha256(packed).hexdigest()[:16], len(files)
