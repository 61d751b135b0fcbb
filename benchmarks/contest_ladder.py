"""How quickly the hosted contest answers: validation, a new submission's first rating, the ladder, the final.

    python benchmarks/contest_ladder.py [--students 30] [--move-time 2] [--instructor-depth 3] [--late 20] [--quick]

A class of generated students (tests/contest/contest_players.py: alpha-beta players of depths 1-3, one-ply
greedy, random-ish, broken, slow and hostile ones) on connect4-8x8, with the references random and an
instructor (the homework's alpha-beta at ``--instructor-depth``).  ``zerosum contest new``, then ``zerosum contest
serve`` in its own process; every student uploads through ``curl`` at once (a class before the deadline).
Measured:

- each upload's answer (``curl``'s total time: the upload, the checks and the validation against random);
- each validated submission's first rating: from its upload to the first leaderboard (``GET
  /api/leaderboard``, polled every 0.5 s) where it has a rating;
- the late submission: ``--late`` seconds after the burst, while the ladder still has its backlog, one student
  submits new code (greedy): from that upload to its first rating (the figure of issue #24: < 60 s on 2 cores);
- the whole ladder (every pairing of the field played once in a colour-swapped pair) and the final round
  robin (``zerosum contest final``), with their games.

Prints one JSON line of figures (seconds) and the machine's load.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "contest"))

from contest_players import roster, source  # noqa: E402
from test_contest_e2e import UNCONFINED, _curl, _free_port, _get  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--move-time", type=float, default=2.0)
    ap.add_argument("--instructor-depth", type=int, default=3)
    ap.add_argument("--late", type=float, default=20.0, help="seconds after the burst of the late submission")
    ap.add_argument("--quick", action="store_true",
                    help="stop once the late submission is rated (no whole ladder, no final)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="contest-bench-"))
    students = roster(args.students)
    folder = tmp / "contest"
    (tmp / "roster.csv").write_text("name\n" + "".join(f"{n}\n" for n, _, _ in students))
    (tmp / "openings.txt").write_text("45\n54\n")
    (tmp / "instructor.py").write_text(source("alphabeta", depth=args.instructor_depth))
    subprocess.run([sys.executable, "-m", "zerosum", "contest", "new", str(folder), "--game", "connect4-8x8",
                    "--roster", str(tmp / "roster.csv"), "--move-time", str(args.move_time), "--openings",
                    str(tmp / "openings.txt"), "--reference", "random", "--reference",
                    f"instructor={tmp / 'instructor.py'}:player", "--seed", "3"], check=True, capture_output=True)
    with open(folder / "tokens.csv", newline="") as f:
        tokens = {row["name"]: row["token"] for row in csv.DictReader(f)}
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--port", str(port)]
                              + (["--unconfined"] if UNCONFINED else []), start_new_session=True,
                              stdout=open(tmp / "server.log", "wb"), stderr=subprocess.STDOUT)
    figures: dict[str, object] = {"students": args.students, "cores": os.cpu_count()}
    try:
        while True:
            try:
                _get(f"{url}/api/leaderboard")
                break
            except OSError:
                time.sleep(0.2)
        answers: dict[str, tuple[float, dict, float]] = {}

        def upload(name: str, kind: str, options: dict) -> None:
            path = tmp / f"{name.replace(' ', '_')}.py"
            path.write_text(source(kind, **options))
            sent = time.monotonic()
            took, answer = _curl(url, tokens[name], path)
            answers[name] = (took, answer, sent)

        start = time.monotonic()
        threads = [threading.Thread(target=upload, args=s) for s in students]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ok = {n for n, a in answers.items() if a[1]["status"] == "ok"}
        figures["validated_ok"] = len(ok)
        figures["validation_max"] = round(max(a[0] for a in answers.values()), 2)
        figures["validation_median"] = round(sorted(a[0] for a in answers.values())[len(answers) // 2], 2)
        first: dict[str, float] = {}
        late_name, late_entry, late_sent, late_first = next(iter(sorted(ok))), None, 0.0, None
        while True:
            rows = _get(f"{url}/api/leaderboard")["rows"]
            now = time.monotonic()
            for row in rows:
                if row["kind"] == "student" and row["rating"] is not None and row["name"] not in first:
                    first[row["name"]] = now - answers[row["name"]][2]
                if row["entry"] == late_entry and row["rating"] is not None and late_first is None:
                    late_first = now - late_sent
            if late_entry is None and now - start > args.late:
                path = tmp / "late.py"
                path.write_text(source("greedy"))
                late_sent = time.monotonic()
                took, answer = _curl(url, tokens[late_name], path)
                late_entry = f"sub:{answer['id']}"
                figures["late_validation"] = round(took, 2)
                figures["late_pending_games_then"] = sum(r["pending"] for r in rows) // 2
            pending = sum(r["pending"] for r in rows)
            if late_first is not None and (args.quick or (not pending and all(r["games"] for r in rows))):
                break
            time.sleep(0.5)
        figures["first_rating_max"] = round(max(first.values()), 1)
        figures["first_rating_median"] = round(sorted(first.values())[len(first) // 2], 1)
        figures["late_first_rating"] = round(late_first, 1)
        figures["ladder_seconds" if not args.quick else "seconds"] = round(time.monotonic() - start, 1)
        figures["ladder_games" if not args.quick else "games_so_far"] = sum(r["games"] for r in rows) // 2
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    if args.quick:
        figures["load"] = [round(x, 1) for x in os.getloadavg()]
        print(json.dumps(figures))
        return
    t = time.monotonic()
    subprocess.run([sys.executable, "-m", "zerosum", "contest", "final", str(folder)]
                   + (["--unconfined"] if UNCONFINED else []), check=True, capture_output=True)
    figures["final_seconds"] = round(time.monotonic() - t, 1)
    figures["final_games"] = json.loads((folder / "results.json").read_text())["games"]
    figures["load"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
