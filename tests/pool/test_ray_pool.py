"""The pool on Ray: long-lived actors; a cluster named by --ray-address or RAY_ADDRESS; failures in one line."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jobs_for_tests as jobs  # noqa: E402

from zerosum.cli import main  # noqa: E402


@pytest.mark.parametrize("how", [["--ray-address", "127.0.0.1:1"], ["--ray-address", "no-port"],
                                 ["--ray-address", "host:70000"], "env"])
def test_a_ray_cluster_that_cannot_be_reached_is_one_line_and_nothing_is_written(how, tmp_path, monkeypatch, capsys):  # type: ignore[no-untyped-def]
    pytest.importorskip("ray")
    extra = how if isinstance(how, list) else []
    if how == "env":
        monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    db = tmp_path / "r.db"
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "2", "--backend", "ray", *extra,
                 "--out", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Ray" in err and ("cannot reach" in err or "HOST:PORT" in err), err
    assert not db.exists()
    book = tmp_path / "b.npz"
    assert main(["book", "--game", "connectx:rows=4,cols=5,k=4", "--depth", "2", "--backend", "ray", *extra,
                 "-o", str(book)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Ray" in err, err
    assert list(tmp_path.iterdir()) == []


def test_missing_ray_is_one_line_for_the_book_too(tmp_path, monkeypatch, capsys):  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as when it is not installed
    assert main(["book", "--game", "connectx:rows=4,cols=5,k=4", "--depth", "2", "--backend", "ray",
                 "-o", str(tmp_path / "b.npz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'zerosum[ray]'" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # starts a local Ray instance: tens of seconds on a busy machine
def test_ray_actors_are_long_lived_workers(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ray = pytest.importorskip("ray")
    from zerosum.pool import RayPool

    here = str(Path(__file__).resolve().parent)  # the actors import this folder's jobs too
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))

    got: dict[int, int] = {}
    try:
        pool = RayPool(1)
        assert pool.each(jobs.supervise_pid, range(4), lambda item, result: got.update([result])) is True
        assert sorted(got) == [0, 1, 2, 3] and len(set(got.values())) == 1  # one worker served every job
        assert pool.run(jobs.pid_after, (0.0,), 60) == got[0]
        pool.close()
    finally:
        ray.shutdown()
