"""Two Kaggle submission files in one process -- the usual local test, last week's file against this week's, or
a notebook that already imported zerosum: each file plays its own code.  Before, a file imported the
``zerosum`` that was loaded first (``AgentError: agent 'alphabeta' is not available here``, or the other file's
code played silently); now each file's copy has a name of its own, ``zerosum_<its hash>``."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.interop import kaggle
from zerosum.interop.kaggle_bundle import bundle_files

pytest.importorskip("kaggle_environments")

ROOT = Path(__file__).resolve().parents[2]
#: the commit before files had names of their own: its template writes a file in the older form
BEFORE = "ecfc5a9"

PLAY = textwrap.dedent(
    """
    import json, sys
    if sys.argv[3] == "notebook":
        import zerosum  # the installed zerosum, imported before the files are loaded
    import kaggle_environments
    from kaggle_environments.agent import get_last_callable

    seen = {}

    def loaded_as_kaggle_does(path):  # the file executed within its first move, by Kaggle's own loader
        built = []

        def agent(observation, configuration):
            if not built:
                built.append(get_last_callable(open(path).read(), path=path))
            column = built[0](observation, configuration)
            played = built[0].__globals__["_AGENT"]
            seen.setdefault(path, []).append({
                "column": column, "board": list(observation.board), "agent": played.last["agent"],
                "runtime": sys.modules[type(played).__module__].__file__,
                "inner": sys.modules[type(played.inner).__module__].__file__})
            return column
        return agent

    env = kaggle_environments.make("connectx", debug=True)
    env.run([loaded_as_kaggle_does(p) if p.endswith(".py") else p for p in sys.argv[1:3]])
    print(json.dumps({"status": [s.status for s in env.state], "seen": seen,
                      "zerosum": getattr(sys.modules.get("zerosum"), "__file__", None)}))
    """
)


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    """One TMPDIR for the module's games: numba's cache of each file's copy is compiled once."""
    return tmp_path_factory.mktemp("unpacked")


def submission(folder: Path, name: str, spec: str) -> Path:
    path = folder / name
    assert main(["kaggle-agent", spec, "-o", str(path)]) == 0
    return path


@pytest.fixture(scope="module")
def first_file(tmp_path_factory) -> Path:
    """``first``'s submission, written once for the module's tests (2 s a file): each plays or reads it, none
    changes it, and a file of the same modules unpacks into the same folder of ``unpacked`` anyway."""
    return submission(tmp_path_factory.mktemp("first"), "first.py", "first")


def payload_hash(path: Path) -> str:
    line = next(line for line in path.read_text().splitlines() if line.startswith("PAYLOAD_HASH = "))
    return ast.literal_eval(line.partition(" = ")[2])


def play(unpacked: Path, seats: list[str], mode: str = "clean") -> dict:
    proc = subprocess.run([sys.executable, "-c", PLAY, *seats, mode], cwd=unpacked, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "TMPDIR": str(unpacked)})
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["status"] == ["DONE", "DONE"], (out["status"], proc.stderr)
    return out


def own_copy(unpacked: Path, path: Path) -> Path:
    """Where a file written now unpacks its code: its own folder (the user's: test_kaggle_unpack.py), under its own
    package name."""
    digest, user = payload_hash(path), f"-{os.getuid()}" if hasattr(os, "getuid") else ""
    return unpacked / f"zerosum-kaggle-{digest}{user}" / f"zerosum_{digest}"


def assert_plays_from(moves: list[dict], copy: Path, spec: str) -> None:
    assert moves, "the file never played"
    for move in moves:
        assert move["agent"] == spec, move["agent"]
        for module in (move["runtime"], move["inner"]):
            assert Path(module).is_relative_to(copy), (module, copy)


#: either order in CI, the other in the slow run (CI time: each a Kaggle game in a process of its own)
SWAPPED = pytest.mark.slow


@pytest.mark.parametrize("order", ["first-file-first", pytest.param("alphabeta-file-first", marks=SWAPPED)])
def test_two_files_of_different_agents_each_play_their_own_code(tmp_path, unpacked, first_file, order) -> None:
    first = first_file
    searcher = submission(tmp_path, "searcher.py", "alphabeta:depth=2")
    assert payload_hash(first) != payload_hash(searcher)  # different modules carried: different copies
    seats = [str(first), str(searcher)] if order == "first-file-first" else [str(searcher), str(first)]
    out = play(unpacked, seats)
    assert_plays_from(out["seen"][str(first)], own_copy(unpacked, first), "first")
    assert_plays_from(out["seen"][str(searcher)], own_copy(unpacked, searcher), "alphabeta:depth=2")
    for move in out["seen"][str(first)]:  # and its moves are `first`'s: the leftmost open column, every time
        assert move["column"] == move["board"].index(0), move
    assert out["zerosum"] is None  # nothing loaded under the plain name: `import zerosum` is left to others


def old_format(path: Path, spec: str) -> Path:
    """``spec``'s file as zerosum wrote it before (commit BEFORE's template, today's modules inside), whose
    loader imports the plain ``zerosum`` from its folder put first on ``sys.path``."""
    old = subprocess.run(["git", "-C", str(ROOT), "show", f"{BEFORE}:src/zerosum/interop/kaggle_submission.py"],
                         capture_output=True, text=True, timeout=60)
    if old.returncode != 0:
        pytest.skip(f"no git history to write an older file from: {old.stderr.strip()[:200]}")
    namespace = {"__name__": "zerosum.interop._before", "__package__": "zerosum.interop"}
    exec(compile(old.stdout, "kaggle_submission_before.py", "exec"), namespace)
    built = kaggle.KaggleAgent(spec)
    path.write_text(namespace["submission_text"](spec, {}, {}, built.inner, built.opening))
    assert "from zerosum.interop.kaggle import" in path.read_text()  # the older loader
    return path


@pytest.mark.parametrize("order", ["older-file-first", pytest.param("newer-file-first", marks=SWAPPED)])
def test_an_older_file_and_a_newer_one_of_the_same_agent_each_play_their_own_code(tmp_path, unpacked,
                                                                                   order) -> None:
    spec = "alphabeta:depth=2,fast=0"  # no numba: nothing to compile, for either copy
    older = old_format(tmp_path / "older.py", spec)
    newer = submission(tmp_path, "newer.py", spec)
    assert payload_hash(older) == payload_hash(newer)  # the same modules: the same folder, side by side
    seats = [str(older), str(newer)] if order == "older-file-first" else [str(newer), str(older)]
    out = play(unpacked, seats)
    assert_plays_from(out["seen"][str(newer)], own_copy(unpacked, newer), spec)
    older_copy = unpacked / f"zerosum-kaggle-{payload_hash(older)}" / "zerosum"
    assert_plays_from(out["seen"][str(older)], older_copy, spec)  # the older file's own zerosum, not the newer's
    assert Path(out["zerosum"]).is_relative_to(older_copy)


def test_a_file_loaded_where_zerosum_is_imported_already_plays_its_own_code(unpacked, first_file) -> None:
    path = first_file
    out = play(unpacked, [str(path), "random"], mode="notebook")
    assert_plays_from(out["seen"][str(path)], own_copy(unpacked, path), "first")
    installed = Path(kaggle.__file__).resolve().parents[1]
    assert Path(out["zerosum"]).resolve().is_relative_to(installed)  # the notebook's zerosum is left as it was


def test_every_module_a_file_can_carry_names_its_own_copy_alone(first_file) -> None:
    """The loader renames the package where the source names it absolutely (``import zerosum.solver.search as
    search``, ``importlib.import_module("zerosum.agents.mcts")``): after it, no module a submission carries
    names the plain ``zerosum``, which would be whichever zerosum the process loaded first."""
    text = first_file.read_text()  # kaggle.submission_source("first"), written; every file has the same loader
    tree = ast.parse(text)
    tree.body = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.Import))
                 or isinstance(node, ast.Assign) and node.targets[0].id in ("PAYLOAD_HASH", "PACKAGE")]
    loader: dict = {}
    exec(compile(tree, "main.py", "exec"), loader)  # the file's definitions, nothing unpacked or imported
    own = loader["PACKAGE"]
    modules = ["zerosum.solver.agent", "zerosum.agents.alphabeta", "zerosum.agents.mcts", "zerosum.agents.minimax",
               "zerosum.agents.simple"]
    renamed = 0
    for name, data in bundle_files(modules):
        if not name.endswith(".py"):
            continue
        source = data.decode("utf-8")
        after = loader["_own_name"](source)
        renamed += after != source
        for node in ast.walk(ast.parse(after, name)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                targets = [node.module or ""] if node.level == 0 else []
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                targets = [node.value]
            else:
                continue
            for target in targets:
                assert target != "zerosum" and not target.startswith("zerosum."), (name, target)
    assert renamed >= 7 and own == f"zerosum_{loader['PAYLOAD_HASH']}"
