"""An identical re-upload is recognised, one after the other and at the same moment: a double click, or a script
posting twice at once, stores one submission; the other upload is told it is the same file (and leaves no folder).
Real concurrency: threads and processes, each with its own database connection, calling ``accept`` at once many
times over, and two ``curl`` posting at once to a real ``zerosum contest serve``."""

from __future__ import annotations

import multiprocessing
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from contest_players import make_contest, source

from zerosum.contest.store import Store
from zerosum.contest.submissions import Refused, accept

SAME = re.compile(r"this file is the same as your submission (\d+) \((.+?)\), which (is being checked|plays as your "
                  r"entry)")


def _version(k: int) -> bytes:
    return f"# version {k}\n{source('greedy')}".encode()


def _folders(folder: Path) -> set[str]:
    return {p.name for p in (folder / "submissions").iterdir()}


def _stored_once(store: Store, name: str, answers: list[Any]) -> int:
    """The one id among ``answers`` (ids or Refused lines); every other answer names it."""
    ids = [a for a in answers if isinstance(a, int)]
    assert len(ids) == 1, answers
    for a in answers:
        if not isinstance(a, int):
            found = SAME.match(a)
            assert found and int(found[1]) == ids[0] and found[3] == "is being checked", a
    return ids[0]


def _accept(folder: Path, name: str, data: bytes, gate: Any) -> int | str:
    store = Store(folder)  # a connection of its own, as each server thread has
    try:
        gate.wait()
        return accept(store, name, f"{name}.py", data)
    except Refused as exc:
        return str(exc)
    finally:
        store.close()


def test_an_identical_upload_one_after_the_other_is_not_stored_again(tmp_path):
    folder = tmp_path / "c"
    store = make_contest(folder, {}, absent=("ann",))
    first = accept(store, "ann", "a.py", _version(1))
    for filename in ("a.py", "renamed.py"):  # the bytes decide, not the name
        with pytest.raises(Refused, match=rf"same as your submission {first} \(a.py\), which is being checked"):
            accept(store, "ann", filename, _version(1))
    store.set_status(first, "ok", "fine")
    with pytest.raises(Refused, match=rf"same as your submission {first} \(a.py\), which plays as your entry"):
        accept(store, "ann", "a.py", _version(1))
    assert [r["id"] for r in store.submissions("ann")] == [first] and len(_folders(folder)) == 1
    second = accept(store, "ann", "b.py", _version(2))
    store.set_status(second, "failed", "crash")
    again = accept(store, "ann", "b.py", _version(2))  # a failed one sent again is checked again (a retry)
    assert again > second
    store.set_status(again, "ok", "fine")
    back = accept(store, "ann", "a.py", _version(1))  # the file of a replaced submission: stored, to play again
    assert back > again and len(store.submissions("ann")) == 4 and len(_folders(folder)) == 4
    assert accept(store, "bob", "a.py", _version(1)) > back  # another student's identical file is theirs


def test_identical_uploads_at_the_same_moment_from_threads_store_one(tmp_path):
    folder = tmp_path / "c"
    store = make_contest(folder, {}, absent=("ann", "bob"))
    rounds, at_once = 40, 4
    with ThreadPoolExecutor(2 * at_once) as pool:
        for k in range(rounds):
            gate = threading.Barrier(2 * at_once)
            jobs = {name: [pool.submit(_accept, folder, name, _version(k), gate) for _ in range(at_once)]
                    for name in ("ann", "bob")}
            for name, futures in jobs.items():
                _stored_once(store, name, [f.result() for f in futures])
    for name in ("ann", "bob"):
        rows = store.submissions(name)
        assert len(rows) == rounds and len({r["sha256"] for r in rows}) == rounds
    assert len(_folders(folder)) == 2 * rounds  # the refused uploads left no folder


def _racer(folder: str, name: str, rounds: int, gate: Any, out: Any) -> None:
    """A process uploading ``rounds`` versions, each when the other process does (``gate``)."""
    store = Store(folder)
    for k in range(rounds):
        gate.wait()
        try:
            out.put((k, accept(store, name, "p.py", _version(k))))
        except Refused as exc:
            out.put((k, str(exc)))
    store.close()


def test_identical_uploads_at_the_same_moment_from_two_processes_store_one(tmp_path):
    folder = tmp_path / "c"
    store = make_contest(folder, {}, absent=("ann",))
    rounds = 30
    ctx = multiprocessing.get_context("spawn")
    gate, out = ctx.Barrier(2), ctx.Queue()
    racers = [ctx.Process(target=_racer, args=(str(folder), "ann", rounds, gate, out)) for _ in range(2)]
    for p in racers:
        p.start()
    try:
        answers: dict[int, list[Any]] = {}
        for _ in range(2 * rounds):
            k, answer = out.get(timeout=120)
            answers.setdefault(k, []).append(answer)
    finally:
        for p in racers:
            p.join(30)
            if p.is_alive():
                p.kill()
    assert all(p.exitcode == 0 for p in racers)
    ids = [_stored_once(store, "ann", answers[k]) for k in range(rounds)]
    assert sorted(r["id"] for r in store.submissions("ann")) == sorted(ids) and len(_folders(folder)) == rounds


def test_two_posts_at_once_to_the_server_store_one_and_tell_the_other(tmp_path):
    from contest_serving import GOOD, curl, serving
    from contest_serving import make_contest as new_contest

    folder = tmp_path / "class"
    tokens = new_contest(folder, ["Ann", "Bob"])
    files = []
    for k in range(3):  # 3 rounds of 2 posts: the 6 uploads a minute a student may make
        files.append(tmp_path / f"v{k}.py")
        files[-1].write_text(f"# version {k}\n{GOOD}")
    with serving(folder) as url, ThreadPoolExecutor(4) as pool:
        for path in files:
            posts = [pool.submit(curl, "-F", f"file=@{path}", f"{url}/api/submit?wait=0", token=tokens[who])
                     for who in ("Ann", "Bob") for _ in range(2)]
            answers = [f.result()[:2] for f in posts]
            for mine in (answers[:2], answers[2:]):
                assert sorted(status for status, _ in mine) == [201, 400], mine
                made = next(body for status, body in mine if status == 201)
                refused = next(body for status, body in mine if status == 400)
                found = SAME.match(refused["error"])
                assert found and int(found[1]) == made["id"] and found[2] == path.name, refused
        for who in ("Ann", "Bob"):
            status, me, _ = curl(f"{url}/api/me", token=tokens[who])
            assert status == 200 and len(me["submissions"]) == 3, me["submissions"]
