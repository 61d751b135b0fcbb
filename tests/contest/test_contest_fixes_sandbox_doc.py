"""docs/contest.md says exactly what a seat sees: its `/` (the system's folders, the submission's, and the first
folders of the paths of the Python installation and the zerosum package, bound in read-only), and above those
two only the way down to them (`/root` holding only `.pyenv` where Python is under `/root/.pyenv`) -- checked
against a real sandbox, here, whatever the paths of this machine."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest

from zerosum.contest.sandbox import _python_roots, sandbox_problem, wrap

PROBLEM = sandbox_problem()
DOC = Path(__file__).resolve().parents[2] / "docs" / "contest.md"
LIST = "import json, os, sys\nprint(json.dumps({p: sorted(os.listdir(p)) for p in sys.argv[1:]}))\n"


def _above(roots: list[str]) -> dict[str, set[str]]:
    """Each folder above a root (``/`` aside): the names the way down to the roots takes in it."""
    ways: dict[str, set[str]] = {}
    for root in roots:
        parts = PurePosixPath(root).parts
        for i in range(2, len(parts)):
            ways.setdefault(str(PurePosixPath(*parts[:i])), set()).add(parts[i])
    return ways


def _said() -> tuple[set[str], list[str], dict[str, str]]:
    """What the doc says: the names of a seat's `/`, its example's two paths, and each `/FOLDER` only `NAME`."""
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    top = re.search(r"a seat's `/` holds `([a-z0-9 ]+)`", text)
    example = re.search(r"with Python in `(/[^`]+)` and zerosum installed editable from `(/[^`]+)`", text)
    assert top is not None and example is not None, "docs/contest.md names what a seat's / holds, for an example"
    way = text[top.end():].partition("Nothing else")[0]  # the sentence of the way down
    only = dict(re.findall(r"`(/[^`]+)` only `([^`]+)`", way))
    return set(top.group(1).split()), [example.group(1), example.group(2)], only


def test_the_docs_example_is_consistent() -> None:
    names, example, only = _said()
    ways = _above(example)
    assert only and all(ways.get(folder) == {name} for folder, name in only.items()), (only, ways)
    assert {PurePosixPath(p).parts[1] for p in example} <= names  # its paths' first folders are in its `/`
    assert "`/root`, `/home` and the rest of the machine are not there" not in " ".join(DOC.read_text().split())


@pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox on this machine: {PROBLEM}")
def test_a_seat_sees_what_the_docs_say(tmp_path: Path) -> None:
    names, example, _ = _said()
    roots = _python_roots()
    ways = _above(roots)
    probe = tmp_path / "probe.py"
    probe.write_text(LIST)
    command = wrap([sys.executable, "-I", "/submission/probe.py", "/", *ways],
                   files=[(str(probe), "/submission/probe.py")])
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    seen = {k: set(v) for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}
    here = {PurePosixPath(r).parts[1] for r in roots}
    there = {PurePosixPath(p).parts[1] for p in example}
    assert seen.pop("/") - here == names - there  # the system's folders and /submission, as the doc lists them
    assert seen == ways  # above Python and zerosum: only the way down to them, as the doc says
