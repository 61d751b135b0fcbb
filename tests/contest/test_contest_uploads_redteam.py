"""What a red-team audit of the contest found about uploads, each checked on the real parts: the contest's files
are the teacher's account's only (and the seats still play them, as root and as an ordinary user), a notebook
whose cell is not text is refused in one line (never a 500), and a student's files are bounded (their oldest
replaced submissions' files removed, their code answering 410)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from contest_serving import GOOD, curl, make_contest, serving
from hypothesis import HealthCheck, given, settings, strategies as st

from zerosum.contest import submissions
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.setup import ContestSettings, create_contest, read_roster
from zerosum.contest.store import Store
from zerosum.contest.submissions import Refused, accept, prepare

SURROGATE = b'{"cells":[{"cell_type":"code","source":"# submission\\ndef player(board):\\n    return 3\\n# \\ud800\\n"}]}'
NOTEBOOK = json.dumps({"cells": [{"cell_type": "code", "source": "# submission\n" + GOOD}]}).encode()
PROGRAM = b"#!/bin/sh\necho zspok\n"
OTHER = 65534  # another account of the machine (nobody)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _contest(folder: Path, names: str = "Ada\nBob\n") -> Store:
    create_contest(folder, ContestSettings(game="connect4", roster=read_roster(names), move_time=0.5,
                                           openings=["44", "43"]))
    return Store(folder)


def _as_other(*words: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(list(words), user=OTHER, group=OTHER, extra_groups=[], capture_output=True, timeout=30)


def test_the_contest_folder_its_uploads_and_its_database_are_the_teachers_only(tmp_path: Path) -> None:
    old = os.umask(0)  # the widest umask: the modes are the contest's, not the umask's
    try:
        folder = tmp_path / "class"
        store = _contest(folder)
        ids = [accept(store, "Ada", "p.py", GOOD.encode()), accept(store, "Bob", "n.ipynb", NOTEBOOK),
               accept(store, "Bob", "engine", PROGRAM)]
    finally:
        os.umask(old)
    assert _mode(folder) == 0o700 and _mode(folder / "submissions") == 0o700
    assert _mode(folder / "contest.db") == 0o600 and _mode(folder / "tokens.csv") == 0o600
    # as root too, where each seat runs as a user of its own: it plays a read-only copy, never the file itself
    for number, runs in zip(ids, (0o600, 0o600, 0o700)):
        row = store.submission(number)
        assert row is not None
        assert _mode((folder / row["path"]).parent) == 0o700, row["path"]
        assert _mode(folder / row["path"]) == runs, (row["path"], oct(_mode(folder / row["path"])))
    notebook = store.submission(ids[1])
    assert notebook is not None and _mode((folder / notebook["path"]).parent / "original.ipynb") == 0o600
    store.close()
    if os.geteuid() != 0:
        return
    # another account: nothing of the contest can be read or listed
    code = folder / str(store.submission(ids[0])["path"])  # type: ignore[index]
    for words in (["cat", str(code)], ["cat", str(folder / "contest.db")], ["ls", str(folder)],
                  ["ls", str(folder / "submissions")]):
        done = _as_other(*words)
        assert done.returncode != 0 and b"Permission denied" in done.stderr, (words, done)


SEAT_AS_USER = textwrap.dedent("""
    import json, os, stat, sys
    from pathlib import Path
    from zerosum.contest.setup import ContestSettings, create_contest, read_roster
    from zerosum.contest.store import Store
    from zerosum.contest.submissions import accept
    from zerosum.contest.validate import validate_submission
    assert os.geteuid() != 0
    folder = Path(sys.argv[1])
    create_contest(folder, ContestSettings(game="connect4", roster=read_roster("Ada\\n"), move_time=0.5,
                                           openings=["44", "43"]))
    store = Store(folder)
    sub = accept(store, "Ada", "p.py", sys.argv[2].encode())
    print(oct(stat.S_IMODE(os.stat(folder / store.submission(sub)["path"]).st_mode)))
    print(json.dumps(validate_submission(store, sub)))
""")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="runs the teacher as an ordinary user in a user namespace: needs root and unshare")
@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
def test_a_seat_plays_its_private_file_when_the_teacher_is_an_ordinary_user(tmp_path: Path) -> None:
    # the teacher as uid 1000 (this machine's root, seen from a user namespace): bubblewrap then runs without
    # root, in a user namespace of its own, the seat as the teacher, who owns the 0600 file
    done = subprocess.run(["unshare", "--user", "--map-user=1000", "--map-group=1000", sys.executable, "-c",
                           SEAT_AS_USER, str(tmp_path / "class"), GOOD], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    mode, answer = done.stdout.strip().splitlines()[-2:]
    assert mode == "0o600", done.stdout
    status, message, ply = json.loads(answer)
    # the seat read its file and played (ok; or, on a machine too busy for the check's clock, a move too late)
    assert status == "ok" or ply is not None, done.stdout
    assert "does not start" not in message and "ermission" not in message and "not found" not in message, message


def test_a_lone_surrogate_and_a_pruned_code_over_http_and_serve_makes_an_old_folder_private(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    tokens = make_contest(folder, ["Ada", "Bob"])
    store = Store(folder)
    big = "# padding\n" + "#" * (200 * 1024) + "\n" + GOOD
    old = []
    for k in range(24):  # 24 x 200 KB, each the active one in turn
        old.append(accept(store, "Bob", f"v{k}.py", f"# version {k}\n{big}".encode()))
        store.set_status(old[-1], "ok", "fine")
    store.close()
    os.chmod(folder, 0o755)  # as an older zerosum left it: serve makes it the teacher's only again
    os.chmod(folder / "contest.db", 0o644)
    files = tmp_path / "files"
    files.mkdir()
    (files / "sur.ipynb").write_bytes(SURROGATE)
    (files / "good.py").write_text(GOOD)
    with serving(folder) as url:
        status, body, _ = curl("-F", f"file=@{files / 'sur.ipynb'}", f"{url}/api/submit", token=tokens["Ada"])
        assert status == 400, (status, body)  # was 500: UnicodeEncodeError
        assert "lone surrogate, U+D800" in body["error"] and "\n" not in body["error"], body
        assert _mode(folder) == 0o700 and _mode(folder / "contest.db") == 0o600
        assert "readable by this account only" in (tmp_path / "class-server.log").read_text()
        status, body, _ = curl("-F", f"file=@{files / 'good.py'}", f"{url}/api/submit?wait=0", token=tokens["Ada"])
        assert status == 201 and body["filename"] == "good.py", body  # a real upload is taken
        status, gone, _ = curl(f"{url}/api/code/{old[0]}", token=tokens["Bob"])
        assert status == 410 and "is no longer kept" in gone["error"] and "4 MB" in gone["error"], gone
        status, kept, _ = curl(f"{url}/api/code/{old[-1]}", token=tokens["Bob"])
        assert status == 200 and kept["code"].startswith("# version 23"), status
    store = Store(folder)
    assert [s["filename"] for s in store.submissions("Ada")] == ["good.py"]  # nothing of the refused ones kept
    kept = [n for n in old if not submissions.pruned(store, store.submission(n))]  # type: ignore[arg-type]
    assert len(os.listdir(folder / "submissions")) == 1 + len(kept) < 1 + len(old)
    store.close()


def _stored(store: Store, name: str) -> int:
    total = 0
    for row in store.submissions(name):
        where = store.directory / Path(row["path"]).parent
        total += sum(p.stat().st_size for p in where.iterdir()) if where.is_dir() else 0
    return total


def test_a_students_files_are_bounded_by_removing_their_oldest_replaced_ones(tmp_path: Path) -> None:
    limit = submissions.STUDENT_BYTES
    store = _contest(tmp_path / "class")
    bob = accept(store, "Bob", "bob.py", GOOD.encode())
    padding = "#" * (submissions.MAX_UPLOAD - 2000)
    ids = []
    for k in range(40):  # 40 uploads of almost 256 KB: 10 MB sent
        data = f"# version {k}\n# {padding}\n{GOOD}".encode()
        ids.append(accept(store, "Ada", f"v{k}.py", data))
        if k % 3 != 2:  # every third one is left being checked
            store.set_status(ids[-1], "ok" if k % 3 == 0 else "failed", "answered")
        protected = sum((store.directory / Path(r["path"]).parent / "submission.py").stat().st_size
                        for r in store.submissions("Ada") if r["active"] or r["status"] == "validating")
        assert _stored(store, "Ada") <= max(limit, protected), k
    rows = store.submissions("Ada")
    assert len(rows) == 40  # the history stays whole
    gone = [r for r in rows if submissions.pruned(store, r)]
    assert len(gone) >= 20 and not any(r["active"] or r["status"] == "validating" for r in gone)
    assert {ids[0], ids[1], ids[3]} <= {r["id"] for r in gone} and ids[2] not in {r["id"] for r in gone}  # oldest first
    assert _stored(store, "Ada") > limit - submissions.MAX_UPLOAD  # only what was needed went
    assert not submissions.pruned(store, store.submission(bob))  # type: ignore[arg-type]
    store.close()


_TEXT = st.text(st.characters(exclude_categories=()) | st.characters(categories=["Cs"]), max_size=30)  # lone surrogates
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
                     max_leaves=12)
_SOURCE = st.one_of(_TEXT, st.lists(_TEXT, max_size=4), _JSON).map(
    lambda s: ("# submission\n" + s) if isinstance(s, str) else s)
_CELL = st.fixed_dictionaries({"cell_type": st.sampled_from(["code", "markdown", "raw"]) | _TEXT,
                               "source": _SOURCE}) | _JSON
_NOTEBOOK = st.one_of(st.fixed_dictionaries({"cells": st.lists(_CELL, max_size=4)}), _JSON)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_NOTEBOOK)
def test_any_notebook_json_is_a_submission_or_one_line_refusal(notebook: Any) -> None:
    data = json.dumps(notebook).encode("ascii")  # \\udXXX escapes: what a browser's JSON holds
    try:
        prepared = prepare("nb.ipynb", data)
    except Refused as exc:
        line = str(exc)
        assert line and "\n" not in line
        line.encode("utf-8")  # the 400's JSON can be sent
    else:
        assert prepared.kind == "notebook" and prepared.original == data
        text = prepared.runnable.decode("utf-8")
        assert text.lstrip().lower().startswith("# submission")
