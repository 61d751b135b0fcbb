"""The roster after ``zerosum contest new``, through the command line and a real server: ``zerosum contest add``
(a late student) and ``zerosum contest token --new`` / ``--revoke`` change only what they say, print the new
link once, keep tokens.csv in step, and refuse a bad input in one line, changing nothing."""

from __future__ import annotations

import csv
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from contest_serving import GOOD, curl, make_contest, serving

from zerosum.cli import main
from zerosum.contest.lock import claim
from zerosum.contest.store import Store


def _run(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str]:
    code = main(["contest", *words])
    return code, capsys.readouterr().err


def _link_token(err: str, name: str) -> str:
    found = re.search(rf"(?:added {re.escape(name)}|a new token for {re.escape(name)}): their link is (\S+)/s/(\S+)",
                      err)
    assert found, err
    return found.group(2)


def _tokens(folder: Path) -> dict[str, list[str]]:
    with open(folder / "tokens.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["name", "token", "link"]
    return {row[0]: row[1:] for row in rows[1:]}


def _state(folder: Path) -> tuple[bytes, list[tuple[Any, ...]], int]:
    db = sqlite3.connect(folder / "contest.db")
    try:
        people = db.execute("SELECT name, token_hash, role FROM people ORDER BY name").fetchall()
        subs = db.execute("SELECT COUNT(*) FROM submissions").fetchone()[0]
    finally:
        db.close()
    return (folder / "tokens.csv").read_bytes(), people, subs


def test_a_late_student_and_new_tokens_on_a_running_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    tokens = make_contest(folder, ["Ada", "Bob", "Cy"])
    capsys.readouterr()
    (tmp_path / "good.py").write_text(GOOD)
    with serving(folder) as url:
        submit = f"{url}/api/submit?wait=0"  # accepted is what counts here, not the check's answer on a busy machine
        status, first, _ = curl("-F", f"file=@{tmp_path / 'good.py'}", submit, token=tokens["Ada"])
        assert status == 201 and first["filename"] == "good.py", first

        code, err = _run(capsys, "add", str(folder), "Zoë Ñúñez")
        assert code == 0, err
        zoe = _link_token(err, "Zoë Ñúñez")
        assert _tokens(folder)["Zoë Ñúñez"] == [zoe, f"http://localhost:8000/s/{zoe}"]
        status, me, _ = curl(f"{url}/api/me", token=zoe)
        assert status == 200 and me["name"] == "Zoë Ñúñez" and me["role"] == "student", me
        status, sub, _ = curl("-F", f"file=@{tmp_path / 'good.py'}", submit, token=zoe)
        assert status == 201 and sub["filename"] == "good.py", sub  # the late student submits

        code, err = _run(capsys, "token", str(folder), "Ada", "--new")
        assert code == 0 and "the old one is refused from now on" in err, err
        ada = _link_token(err, "Ada")
        assert ada != tokens["Ada"] and _tokens(folder)["Ada"][0] == ada
        assert curl(f"{url}/api/me", token=tokens["Ada"])[0] == 401  # the old token
        status, me, _ = curl(f"{url}/api/me", token=ada)
        assert status == 200 and me["name"] == "Ada" and [s["id"] for s in me["submissions"]] == [first["id"]]
        status, page, _ = curl(f"{url}/s/{tokens['Ada']}")
        assert status == 403  # the old link's page
        (tmp_path / "better.py").write_text(GOOD + "# better\n")
        status, sub, _ = curl("-F", f"file=@{tmp_path / 'better.py'}", submit, token=ada)
        assert status == 201 and sub["filename"] == "better.py", sub

        code, err = _run(capsys, "token", str(folder), "Bob", "--revoke")
        assert code == 0 and "Bob has no token now" in err, err
        assert _tokens(folder)["Bob"] == ["", ""]
        assert curl(f"{url}/api/me", token=tokens["Bob"])[0] == 401
        code, err = _run(capsys, "token", str(folder), "Bob", "--new")
        assert code == 0 and curl(f"{url}/api/me", token=_link_token(err, "Bob"))[0] == 200

        code, err = _run(capsys, "token", str(folder), "#teacher", "--new")
        assert code == 0, err
        teacher = _link_token(err, "#teacher")
        assert curl(f"{url}/api/teacher", token=tokens["teacher"])[0] == 401
        status, everything, _ = curl(f"{url}/api/teacher", token=teacher)
        assert status == 200 and [p["name"] for p in everything["people"]] == ["Ada", "Bob", "Cy", "Zoë Ñúñez"]
        assert curl(f"{url}/api/me", token=tokens["Cy"])[0] == 200  # the others' tokens are as they were
    assert (folder / "tokens.csv").stat().st_mode & 0o777 == 0o600
    store = Store(folder)
    assert len(store.submissions()) == 3 and store.people("student") == ["Ada", "Bob", "Cy", "Zoë Ñúñez"]
    store.close()


@pytest.mark.parametrize("words, said", [
    (["add", "{dir}", "ada"], "'ada' is in the contest already (as 'Ada'): names must differ in more than case"),
    (["add", "{dir}", "Eve", "eve "], "the name 'eve ' must begin with a letter or digit, without spaces"),
    (["add", "{dir}", "Eve", "EVE"], "'EVE' is given twice (as 'Eve')"),
    (["add", "{dir}", "a<b>"], "the name 'a<b>' holds '<'"),
    (["add", "{dir}", "#teacher"], "the name '#teacher' holds '#'"),
    (["token", "{dir}", "ada", "--new"], "no one called 'ada' in the contest in {dir} (did you mean 'Ada'?)"),
    (["token", "{dir}", "Nobody", "--revoke"], "no one called 'Nobody' in the contest in {dir} (the teacher is "
                                                "'#teacher')"),
    (["add", "{dir}/nothing", "Eve"], "is not a contest folder"),
])
def test_bad_input_is_one_line_and_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    words: list[str], said: str) -> None:
    folder = tmp_path / "class"
    make_contest(folder, ["Ada", "Bob"])
    capsys.readouterr()
    before = _state(folder)
    code, err = _run(capsys, *[w.format(dir=folder) for w in words])
    assert code == 2 and said.format(dir=folder) in err and err.count("\n") == 1, err
    assert _state(folder) == before
    assert not [p for p in folder.iterdir() if p.name.startswith(".tokens-")]


def test_add_is_refused_once_uploads_are_closed_or_while_a_final_runs(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    make_contest(folder, ["Ada"])
    capsys.readouterr()
    before = _state(folder)
    held = claim(folder, "final")
    try:
        code, err = _run(capsys, "add", str(folder), "Eve")
    finally:
        held.release()
    assert code == 2 and "a final is running on the contest in" in err and "nothing was changed" in err, err
    assert _state(folder) == before
    store = Store(folder)
    store.set_config(frozen=True)
    store.close()
    before = _state(folder)
    code, err = _run(capsys, "add", str(folder), "Eve")
    assert code == 2 and "uploads are closed (the entries are frozen" in err and "could not submit" in err, err
    assert _state(folder) == before
    code, err = _run(capsys, "token", str(folder), "Ada", "--new")  # a token may change at any time
    assert code == 0 and _tokens(folder)["Ada"][0] == _link_token(err, "Ada")
