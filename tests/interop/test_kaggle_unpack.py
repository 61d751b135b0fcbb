"""Where a Kaggle submission file unpacks the zerosum it carries, and how.

Before, the folder was ``$TMPDIR/zerosum-kaggle-<hash>/zerosum_<hash>`` (the hash depends only on zerosum's source),
and a ``.complete`` file in it was enough for it to be imported: on a shared machine another user could plant code
there that a student's submission ran.  And processes loading a new file at once rewrote the same files in
place: one imported a file another had just truncated (ImportError, about one round in ten of four processes).
Now the folder is the user's alone, used again only when nobody else could have changed it and its files have
the hashes its marker gives, and it is put in place whole by one rename."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from zerosum.interop import kaggle

#: unpacks as the file does, then compares every file of the folder it got with the payload's own
UNPACK = textwrap.dedent(
    """
    import base64, io, json, lzma, os, runpy, sys, tarfile
    ns = runpy.run_path(sys.argv[1])
    folder = ns["_unpack"]()
    data = lzma.decompress(base64.b85decode("".join(ns["PAYLOAD"])))
    bad = []
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():
            want = tar.extractfile(member).read()
            if member.name.endswith(".py"):
                want = ns["_own_name"](want.decode("utf-8")).encode("utf-8")
            path = os.path.join(folder, *member.name.split("/")[1:])
            if not os.path.isfile(path) or open(path, "rb").read() != want:
                bad.append(member.name)
    print(json.dumps({"folder": folder, "bad": bad, "planted": os.path.exists(os.path.join(folder, "PLANTED"))}))
    """
)


@pytest.fixture(scope="module")
def defs(tmp_path_factory) -> Path:
    """A ``random`` submission's definitions: all but its last lines, which unpack, import and build the agent."""
    text = kaggle.submission_source("random")
    head = text.split("\n_AGENT = ")[0]
    assert "def _unpack" in head and "PAYLOAD_HASH" in head
    path = tmp_path_factory.mktemp("defs") / "defs.py"
    path.write_text(head)
    return path


def package(defs: Path) -> str:
    line = next(line for line in defs.read_text().splitlines() if line.startswith("PAYLOAD_HASH = "))
    return "zerosum_" + line.partition(" = ")[2].strip("'\"")


def start(defs: Path, tmpdir: Path, cwd: Path | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", UNPACK, str(defs)], cwd=cwd or tmpdir, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "TMPDIR": str(tmpdir)})


def result(proc: subprocess.Popen[str]) -> dict:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def unpack(defs: Path, tmpdir: Path, cwd: Path | None = None) -> dict:
    return result(start(defs, tmpdir, cwd))


# ---- nobody else's folder is ever used ----------------------------------------------------------------------


def planted(defs: Path, tmp_path: Path) -> list[Path]:
    """A whole copy of the file's folder, unpacked elsewhere, whose ``__init__.py`` now leaves a PLANTED file and
    whose marker gives that file's new hash (as one who planted it would write it): at the name the file used
    before and at the one it uses now."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    good = Path(unpack(defs, scratch)["folder"])
    init = good / "__init__.py"
    init.write_text('open(__file__.replace("__init__.py", "PLANTED"), "w").close()\n' + init.read_text())
    (good / "PLANTED").write_text("")  # what running it would leave: seen by UNPACK as the planted folder
    marker = good / ".complete"
    digest = hashlib.sha256(init.read_bytes()).hexdigest()
    lines = [f"{digest} __init__.py" if line.endswith(" __init__.py") else line
             for line in (marker.read_text().splitlines() if marker.stat().st_size else [])]
    marker.write_text("\n".join(lines) + "\n" if lines else "")
    homes = []
    for home in {good.parent.name, good.parent.name.rsplit("-", 1)[0]}:  # with and without the user's number
        shutil.copytree(good.parent, tmp_path / "tmp" / home, symlinks=True)
        homes.append(tmp_path / "tmp" / home)
    return homes


def chown_all(path: Path, uid: int) -> None:
    for folder, dirs, files in os.walk(path):
        for name in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
            os.chown(name, uid, -1)


@pytest.mark.parametrize("how", ["another user's", "open to others", "a folder open to others in it",
                                 "the user's own"])
def test_a_folder_planted_where_the_file_unpacks_is_never_used(defs, tmp_path, how) -> None:
    if how == "another user's" and (not hasattr(os, "geteuid") or os.geteuid() != 0):
        pytest.skip("only root can make a folder another user's")
    homes = planted(defs, tmp_path)
    for home in homes:
        if how == "another user's":
            chown_all(home, 65534)  # nobody's
        elif how == "open to others":
            home.chmod(0o777)
        elif how == "a folder open to others in it":
            (home / package(defs)).chmod(0o757)
    out = unpack(defs, tmp_path / "tmp")
    if how == "the user's own":  # the control: whole and nobody else's, so it is used (the checks above bite)
        assert out["planted"] and out["folder"] == str(max(homes) / package(defs)), out
        return
    assert not out["planted"] and out["bad"] == [], out
    assert out["folder"] not in [str(home / package(defs)) for home in homes]
    # the planted folders are left alone, and the one this process unpacked afresh is gone with it
    assert sorted((tmp_path / "tmp").iterdir()) == sorted(homes)
    for home in homes:
        assert [p.name for p in home.iterdir()] == [package(defs)] and (home / package(defs) / "PLANTED").exists()


def test_a_folder_cut_short_is_not_used_and_a_whole_one_is(defs, tmp_path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    first = unpack(defs, tmpdir)
    folder = Path(first["folder"])
    assert first["bad"] == [] and folder.name == package(defs) and folder.parent.parent == tmpdir
    assert (folder.stat().st_mode & 0o777, folder.parent.stat().st_mode & 0o777) == (0o700, 0o700)
    again = unpack(defs, tmpdir)
    assert again == first  # used again as it is (numba's cache is kept)
    (folder / "interop" / "kaggle.py").write_text("")  # cut short: not trusted, but replaced by a whole one
    third = unpack(defs, tmpdir)  # (it stayed: every later load unpacked a copy of its own, compiled anew)
    assert third["bad"] == [] and third["folder"] == first["folder"], third
    assert (folder / "interop" / "kaggle.py").read_text() != ""
    assert unpack(defs, tmpdir) == first  # and used again from then on
    assert sorted(p.name for p in folder.parent.iterdir()) == [".lock", package(defs)]  # nothing else left


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="owners and modes: POSIX")
def test_a_temporary_folder_others_may_change_is_the_last_resort(defs, tmp_path) -> None:
    """A TMPDIR writable by others without /tmp's sticky bit (anyone may rename what it holds): the folder goes
    into the current folder instead; with the sticky bit, into TMPDIR."""
    tmpdir, cwd = tmp_path / "tmp", tmp_path / "cwd"
    tmpdir.mkdir()
    cwd.mkdir(mode=0o755)
    tmpdir.chmod(0o777)
    assert Path(unpack(defs, tmpdir, cwd)["folder"]).is_relative_to(cwd)
    tmpdir.chmod(0o1777)
    assert Path(unpack(defs, tmpdir, cwd)["folder"]).is_relative_to(tmpdir)


# ---- processes loading the same new file at once ------------------------------------------------------------


def test_processes_unpacking_at_once_never_see_a_folder_half_written(defs, tmp_path) -> None:
    """Four processes at once on a fresh TMPDIR, three rounds, while this one watches: the file's folder is
    never in place without its marker (before, it was from its first file to its last, while other processes
    wrote into it), every process gets one and the same whole folder, and only that one is left."""
    name = package(defs)
    for round_ in range(3):
        tmpdir = tmp_path / f"round{round_}"
        tmpdir.mkdir()
        procs = [start(defs, tmpdir) for _ in range(4)]
        unmarked = 0
        while any(p.poll() is None for p in procs):
            for home in tmpdir.glob("zerosum-kaggle-*"):
                folder = home / name
                if folder.is_dir() and not (folder / ".complete").exists():
                    unmarked += 1
            time.sleep(0.0005)
        outs = [result(p) for p in procs]
        assert unmarked == 0, f"round {round_}: the folder was seen in place without its marker {unmarked} times"
        assert all(out["bad"] == [] for out in outs), outs
        assert len({out["folder"] for out in outs}) == 1, outs
        assert [p.name for p in Path(outs[0]["folder"]).parent.iterdir()] == [name]
