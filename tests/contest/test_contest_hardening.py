"""Hardening of the class contest: ``contest new --overwrite`` deletes only the contest's own files (never a
folder without a contest), a full disk is one line (``contest new``, ``serve``) or a 507 upload that leaves
nothing behind, a final that cannot grade is refused before it freezes anything, and ids in URLs are ASCII
digits only."""

from __future__ import annotations

import errno
import json
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from contest_players import make_contest as make_graded
from contest_players import source
from contest_serving import GOOD, make_contest
from zerosum.cli import main
from zerosum.contest import submissions
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.store import Store
from zerosum.contest.submissions import accept
from zerosum.ui.contest_server import create_contest_app

UNCONFINED = sandbox_problem() is not None


def _new(folder: Path, *extra: str) -> list[str]:
    """``contest new FOLDER`` (connect4, given openings: quick) as arguments of ``main``."""
    roster = folder.parent / "roster.csv"
    roster.write_text("name\nAda\nAlan\n")
    openings = folder.parent / "openings.txt"
    openings.write_text("44\n43\n")
    return ["contest", "new", str(folder), "--game", "connect4", "--roster", str(roster), "--nodes", "10000",
            "--move-time", "1", "--openings", str(openings), "--seed", "1", *extra]


def _tree(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def _limited(limit: int):  # noqa: ANN202 - a preexec_fn
    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return preexec


# ---- 1. --overwrite deletes only the contest's own files ------------------------------------------------

@pytest.mark.parametrize("mine", ["submissions/alice/hw1.py", "references/mine.py", "results.csv", "tokens.csv"])
def test_a_folder_without_a_contest_is_refused_with_or_without_overwrite(tmp_path, capsys, mine):
    folder = tmp_path / "hw2"
    (folder / mine).parent.mkdir(parents=True, exist_ok=True)
    (folder / mine).write_text("alice hw1\n")
    before = _tree(folder)
    for extra in ((), ("--overwrite",)):
        assert main(_new(folder, *extra)) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "holds files a contest would write" in err[0] and mine.split("/")[0] in err[0], err
        assert "holds a contest already" not in err[0]
        assert _tree(folder) == before  # the user's file is there, and no contest was made


def test_overwrite_refuses_files_the_contest_did_not_write_and_replaces_its_own(tmp_path, capsys):
    folder = tmp_path / "c"
    assert main(_new(folder)) == 0
    store = Store(folder)
    upload = accept(store, "Ada", "player.py", GOOD.encode())  # an upload's own folder: the contest's
    store.close()
    (folder / "notes.txt").write_text("the teacher's own file")
    for mine in ("submissions/alice/hw1.py", "references/mine.py"):
        (folder / mine).parent.mkdir(exist_ok=True)
        (folder / mine).write_text("not the contest's")
        before = _tree(folder)
        capsys.readouterr()
        assert main(_new(folder, "--overwrite")) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and mine in err[0] and "is not the contest's" in err[0], err
        assert _tree(folder) == before
        (folder / mine).unlink()
        (folder / mine).parent.rmdir()
    assert main(_new(folder, "--overwrite")) == 0
    assert Store(folder).submission(upload) is None  # a new contest, its upload gone with the old one
    assert sorted(p.name for p in (folder / "submissions").iterdir()) == []
    assert (folder / "notes.txt").read_text() == "the teacher's own file"


# ---- 2, 3. a full disk is one line, and says so ----------------------------------------------------------

def test_contest_new_on_a_full_disk_is_one_line_and_leaves_nothing(tmp_path):
    folder = tmp_path / "cu"
    args = _new(folder)
    done = subprocess.run([sys.executable, "-m", "zerosum", *args], capture_output=True, text=True, timeout=120,
                          preexec_fn=_limited(20 * 1024))
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(err) == 1 and "cannot write the contest" in err[0], done.stderr
    assert "file-size limit" in err[0] and "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["openings.txt", "roster.csv"]


def test_serve_on_a_full_disk_says_the_database_is_not_damaged(tmp_path):
    folder = tmp_path / "cc"
    assert main(_new(folder)) == 0
    before = _tree(folder)
    done = subprocess.run([sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--port", "1"],
                          capture_output=True, text=True, timeout=120, preexec_fn=_limited(20 * 1024))
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(err) == 1, done.stderr
    assert "not damaged" in err[0] and "free some space" in err[0], err
    assert "make the contest again" not in err[0] and "not a readable contest database" not in err[0], err
    after = _tree(folder)
    assert after.pop("contest.db-wal", b"") == b"", err  # SQLite's empty log (and its index) at most
    after.pop("contest.db-shm", None)
    assert sorted(after) == sorted(before) and after == before, (err, sorted(after))


# ---- 4. an upload on a full disk -------------------------------------------------------------------------

@pytest.fixture
def app_client(tmp_path):
    folder = tmp_path / "c"
    tokens = make_contest(folder, ["Ada", "Alan"])
    app = create_contest_app(folder, unconfined=True, ladder=False, viewer=False, validators=1)
    client = TestClient(app)
    yield folder, tokens, client
    client.close()
    app.state.contest.validations.shutdown(wait=True, cancel_futures=True)


def _full(*args, **kwargs):  # noqa: ANN002, ANN003
    raise OSError(errno.ENOSPC, "No space left on device")


def _db_full(*args, **kwargs):  # noqa: ANN002, ANN003
    exc = sqlite3.OperationalError("database or disk is full")
    exc.sqlite_errorcode = 13  # SQLITE_FULL
    raise exc


@pytest.mark.parametrize("where", ["file", "database"])
def test_an_upload_on_a_full_disk_is_507_and_leaves_nothing(app_client, monkeypatch, where):
    folder, tokens, client = app_client
    if where == "file":
        monkeypatch.setattr(submissions.os, "fsync", _full)
    else:
        monkeypatch.setattr(Store, "add_submission", _db_full)
    answer = client.post("/api/submit?wait=0", files={"file": ("player.py", GOOD.encode())},
                         headers={"Authorization": f"Bearer {tokens['Ada']}"})
    assert answer.status_code == 507, answer.text
    assert list(answer.json()) == ["error"] and "disk is full" in answer.json()["error"]
    assert "internal error" not in answer.text and "\n" not in answer.json()["error"]
    assert list((folder / "submissions").iterdir()) == []  # no orphan folder, no empty submission.py
    assert Store(folder).submissions() == []


# ---- 5. a final that cannot grade is refused before it freezes ------------------------------------------

def test_a_final_that_cannot_grade_is_refused_before_any_game(tmp_path, capsys):
    folder = tmp_path / "c"
    make_graded(folder, {"ann": source("greedy")})  # the default single reference, and one student: 2 games
    extra = ["--unconfined"] if UNCONFINED else []
    assert main(["contest", "final", str(folder), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot grade" in err[0] and "--no-grade" in err[0], err
    store = Store(folder)
    assert not store.get("frozen") and store.get("final") is None and store.games() == []
    assert not (folder / "results.csv").exists()
    store.close()
    assert main(["contest", "final", str(folder), "--no-grade", *extra]) == 0  # asked for no grades: played
    capsys.readouterr()
    result = json.loads((folder / "results.json").read_text())
    assert result["grade"] is None and result["games"] == 2
    assert [r["points"] for r in result["results"]] == [None] * 2


# ---- 6. ids in URLs are ASCII digits ---------------------------------------------------------------------

def test_a_code_id_of_other_digits_is_not_an_id(app_client):
    folder, tokens, client = app_client
    store = Store(folder)
    sid = accept(store, "Ada", "player.py", GOOD.encode())
    auth = {"Authorization": f"Bearer {tokens['Ada']}"}
    assert sid == 1 and client.get(f"/api/code/{sid}", headers=auth).status_code == 200
    for text in ("\u0661", "\u00b9", "\uff11", "\u0967", "1\u0660"):  # Arabic-Indic, superscript, full-width, ...
        answer = client.get(f"/api/code/{text}", headers=auth)
        assert answer.status_code == 404 and list(answer.json()) == ["error"], (text, answer.text)


# ---- 7. a contest path asked with another method is 405, the viewer still served --------------------------

def test_a_contest_path_with_another_method_is_405_not_the_viewers_404(tmp_path):
    folder = tmp_path / "c"
    tokens = make_contest(folder, ["Ada"])
    app = create_contest_app(folder, unconfined=True, ladder=False, viewer=True, validators=1)
    client = TestClient(app)
    try:
        auth = {"Authorization": f"Bearer {tokens['Ada']}"}
        for method, path in [("POST", "/api/leaderboard"), ("GET", "/api/submit"), ("PUT", "/api/me"),
                             ("GET", "/api/freeze"), ("DELETE", "/api/code/1")]:
            answer = client.request(method, path, headers=auth)
            assert answer.status_code == 405, (method, path, answer.status_code, answer.text)
            assert list(answer.json()) == ["error"] and "\n" not in answer.json()["error"], answer.text
        assert client.get("/api/leaderboard").status_code == 200
        assert client.get("/api/health").status_code == 200  # the viewer's own API, mounted beside
        assert client.get("/api/no-such-thing").status_code == 404
    finally:
        client.close()
        app.state.contest.validations.shutdown(wait=True, cancel_futures=True)
