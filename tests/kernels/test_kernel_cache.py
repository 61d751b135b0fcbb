"""numba's cache of the kernels follows every source file they are built from (zerosum.core.kernel_cache)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import zerosum
from zerosum.core.kernel_cache import FOLDERS, SOURCES, STAMP, cache_folder, digest, refresh

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "zerosum"


def _module(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The zerosum modules ``path`` imports (at any depth of its code)."""
    name = _module(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            origin = ".".join(base + ([node.module] if node.module else []))
            found |= {m for m in [origin, *(f"{origin}.{a.name}" for a in node.names)] if m in modules}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in modules}
    return found


def _numba(text: str) -> bool:
    """Whether a module's text compiles with numba: ``njit``, or numba's ``@overload`` / ``@intrinsic`` (not
    ``typing.overload``, which a module without numba may use)."""
    return "njit" in text or ("numba" in text and any(w in text for w in ("@overload", "@intrinsic")))


def test_the_stamp_covers_every_source_a_kernel_is_built_from() -> None:
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    compiled = {m for m, p in modules.items() if _numba(p.read_text())}
    assert {"zerosum.solver.negamax", "zerosum.kernels.connectx", "zerosum.agents.kernels.alphabeta"} <= compiled
    closure, todo = set(), list(compiled)
    while todo:
        m = todo.pop()
        if m not in closure:
            closure.add(m)
            todo += _imports(modules[m], modules)
    listed = {_module(PACKAGE / s) for s in SOURCES}
    assert closure <= listed, sorted(closure - listed)
    assert all((PACKAGE / s).is_file() for s in SOURCES)
    assert {str(modules[m].parent.relative_to(PACKAGE)) for m in compiled} <= set(FOLDERS)


def _kernel_folder(tmp: Path) -> Path:
    """A cached kernel that inlines a piece from another file, as the solver's search does."""
    (tmp / "piece.py").write_text("from numba import njit\n\n\n@njit(inline='always')\ndef piece():\n    return 1\n")
    (tmp / "kernel.py").write_text(textwrap.dedent("""\
        from numba import njit

        from piece import piece


        @njit(cache=True)
        def kernel():
            return piece() * 10
        """))
    return tmp


def _run(folder: Path, refreshed: bool, env: dict[str, str] | None = None) -> int:
    script = (f"import sys\nsys.path.insert(0, {str(folder)!r})\n"
              + (f"from pathlib import Path\nfrom zerosum.core.kernel_cache import refresh\n"
                 f"refresh(Path({str(folder)!r}), ('piece.py', 'kernel.py'), ('.',))\n" if refreshed else "")
              + "import kernel\nprint(kernel.kernel())\n")
    return int(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env=None if env is None else {**os.environ, **env}).stdout)


def test_an_edit_to_an_inlined_piece_reaches_the_cached_kernel(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)  # numba's cache in the folder's own __pycache__
    folder = _kernel_folder(tmp_path)
    assert _run(folder, refreshed=False) == 10
    (folder / "piece.py").write_text((folder / "piece.py").read_text().replace("return 1", "return 2"))
    assert _run(folder, refreshed=False) == 10  # numba alone: the old piece, from the cache (the trap)
    assert _run(folder, refreshed=True) == 20  # the stamp saw the piece change: compiled anew
    cached = sorted((folder / "__pycache__").glob("kernel*.nb[ic]"))
    assert cached and (folder / "__pycache__" / STAMP).read_text() == digest(folder, ("piece.py", "kernel.py"))
    assert refresh(folder, ("piece.py", "kernel.py"), (".",)) == []  # unchanged sources: the cache stays
    assert sorted((folder / "__pycache__").glob("kernel*.nb[ic]")) == cached
    assert _run(folder, refreshed=True) == 20


def test_a_folder_that_cannot_hold_a_cache_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "__pycache__").write_text("not a folder")  # mkdir and listing fail, as in a read-only package
    assert refresh(tmp_path, ("a.py",), (".", "missing")) == []
    assert (tmp_path / "__pycache__").read_text() == "not a folder"


def test_zerosums_own_caches_are_stamped_with_its_sources() -> None:
    assert refresh() == []  # import zerosum did it already, and nothing changed since
    package = Path(zerosum.__file__).resolve().parent  # the zerosum imported (installed or from the checkout)
    now = digest(package)
    assert [(cache_folder(package, f) / STAMP).read_text() for f in FOLDERS] == [now] * len(FOLDERS)


@pytest.mark.parametrize("where", ["NUMBA_CACHE_DIR", "user-wide"])
def test_a_cache_numba_keeps_elsewhere_follows_the_sources_too(tmp_path: Path, where: str) -> None:
    """numba keeps the kernels under ``NUMBA_CACHE_DIR`` when it is set (a notebook server, a contest seat), and in
    its user-wide cache when the folder's ``__pycache__`` cannot be written (here: a file in its place): the
    stamp goes there, so the edit is seen there too (it was not: the old piece, from the cache)."""
    (tmp_path / "src").mkdir()
    folder = _kernel_folder(tmp_path / "src")
    if where == "NUMBA_CACHE_DIR":
        env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    else:
        (folder / "__pycache__").write_text("not a folder")
        env = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "NUMBA_CACHE_DIR": ""}
    assert _run(folder, refreshed=True, env=env) == 10
    kept = list((tmp_path / ("numba" if where == "NUMBA_CACHE_DIR" else "xdg/numba")).glob("*/kernel*.nbi"))
    assert len(kept) == 1 and (kept[0].parent / STAMP).is_file()  # numba's own folder, stamped
    (folder / "piece.py").write_text((folder / "piece.py").read_text().replace("return 1", "return 2"))
    assert _run(folder, refreshed=False, env=env) == 10  # numba alone: the trap
    assert _run(folder, refreshed=True, env=env) == 20
    assert _run(folder, refreshed=True, env=env) == 20 and len(list(kept[0].parent.glob("kernel*.nbi"))) == 1
