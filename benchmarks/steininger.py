"""zerosum's solver beside Christophe Steininger's, on the same positions, one thread each.

    python benchmarks/steininger.py --source DIR [--game connect4-8x8] [--plies 16,20,24,28,32,40]
        [--per-ply 10] [--seed 0] [--task score|analysis] [--timeout 300] [--check]
    python benchmarks/steininger.py --source DIR --game connect4 --positions $ZEROSUM_BENCHMARKS/pons/Test_L2_R2 --limit 100

Steininger's solver (github.com/ChristopheSteininger/c4, a 128-bit board) is built from its public source for
the board by :mod:`steininger_build` (``--source DIR`` or ``$ZEROSUM_C4_SOURCE``; never copied into the
project).  Positions are the quiet ones ``zerosum bench analysis`` samples
(:func:`zerosum.solver.sampling.quiet_positions`, the same ``--seed``, the same positions), or the
``moves [score]`` lines of ``--positions FILE`` (Pons' format; its score, when given, is checked too).

Each solver runs in a process of its own, answering one position at a time, and the two take turns: one
position is solved by one, then by the other (the order alternating from position to position), never both
at once.  Each measures its own solve (``--task score``: the position's score; ``--task analysis``: the score of
every column, as the faces' analysis asks), its tables emptied before each position unless ``--keep-tables``.
A solve longer than ``--timeout`` seconds is stopped (its process killed and started again) and counted as
``>T``.  zerosum's side is the library's :class:`zerosum.Solver` (``threads=1``, no book unless ``--book``);
where it cannot take the board yet, the report says so and shows Steininger's side alone.

**Scores.** Both give the side to move's score with one scale: Steininger's ``score_win_at(p) = 1 + (W*H -
p) // 2`` for a win with the stone of move ``p`` is zerosum's (Pons') ``(W*H + 2 - p) // 2``, and a loss is the
negative of the opponent's win.  So the two are compared as they are; the Pons sets (``--positions``) check
that against published scores, both signs and the whole scale.

It prints the command, the load at the start and the end, each position (ply, moves, both scores and times,
agreement), then per ply p50 / p90 / worst seconds of each side (nearest rank) and how many agree.  With
``--check`` the exit status is 1 when any two answers disagree.
"""

from __future__ import annotations

import argparse
import math
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from steininger_build import ENV_SOURCE, build, find_source  # noqa: E402  (a sibling script)

DEFAULT_PLIES = "16,20,24,28,32,40"
#: zerosum's table: 2**24 entries (the library's default)
DEFAULT_TT_LOG_SIZE = 24
STARTUP_TIMEOUT = 900.0
#: what a process's reader hands on when the process has stopped
ENDED = "! ended"


class Answer(NamedTuple):
    """One solver's answer: scores (one, or one a column with None for a full one), nodes and seconds;
    ``scores`` is None when the solve was stopped at the timeout."""

    scores: tuple[int | None, ...] | None
    nodes: int
    seconds: float


class Engine:
    """A solver process speaking the driver's line protocol (see :mod:`steininger_build`), started when first
    asked, killed and started again when an answer is late."""

    def __init__(self, name: str, command: list[str], cwd: str | None = None) -> None:
        self.name, self.command, self.cwd = name, command, cwd
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str] = queue.Queue()
        self.errors: list[str] = []
        self.note = ""

    def _start(self) -> None:
        self.proc = subprocess.Popen(self.command, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines, self.errors = queue.Queue(), []
        threading.Thread(target=self._pump, args=(self.proc, self.lines), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc, self.errors), daemon=True).start()
        first = self._send("clear", STARTUP_TIMEOUT)  # the first answer: started, table allocated and empty
        if first is None or not first.startswith("= cleared"):
            self.stop()
            last = self.errors[-1] if self.errors else "no answer"
            self.note = first.removeprefix("! ") if first and first != ENDED else f"it stopped: {last}"
            raise RuntimeError(f"{self.name}: {self.note}")

    @staticmethod
    def _pump(proc: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(("=", "?", "!")):  # answers; anything else the program prints is not ours
                lines.put(line.strip())
        lines.put(ENDED)

    @staticmethod
    def _drain(proc: subprocess.Popen[str], errors: list[str]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:  # kept (the last lines say why a process stopped), never left to fill the pipe
            if line.strip():
                errors[:] = errors[-20:] + [line.strip()]

    def _send(self, line: str, timeout: float) -> str | None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:  # it has stopped
            return ENDED
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def ask(self, task: str, cols: list[int], timeout: float, clear: bool) -> Answer:
        if self.proc is None:
            self._start()
        elif clear and self._send("clear", STARTUP_TIMEOUT) is None:
            raise RuntimeError(f"{self.name}: no answer to clear")
        answer = self._send(f"{task} {','.join(map(str, cols)) or '-'}", timeout)
        if answer is None:
            self.stop()
            return Answer(None, 0, timeout)
        if answer == ENDED:
            self.stop()
            raise RuntimeError(f"{self.name}: it stopped: {self.errors[-1] if self.errors else 'no answer'}")
        if not answer.startswith("= "):
            raise RuntimeError(f"{self.name}: {answer}")
        scores, nodes, micros = answer[2:].split()
        return Answer(tuple(None if s == "x" else int(s) for s in scores.split(",")), int(nodes), int(micros) / 1e6)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()  # our own child, by its handle
            self.proc.wait()
            self.proc = None


def zerosum_worker(game_spec: str, log_size: int, book: bool) -> None:
    """The zerosum side's process: the driver's protocol over :class:`zerosum.Solver` (one thread)."""
    from zerosum import Solver
    from zerosum.errors import GameError

    try:
        solver = Solver(game_spec, tt_size=1 << log_size, book=book, threads=1)
    except GameError as exc:
        print(f"! unavailable: {exc}", flush=True)
        return
    game = solver.game
    warm = game.initial_state  # compile before the first timed solve: a position near the end
    while warm.ply < game.cells - 6 and not game.is_terminal(warm):
        warm = game.result(warm, game.actions(warm)[0 if warm.ply % 4 < 2 else -1])
    if not game.is_terminal(warm):
        solver.analyze(warm)
    for line in sys.stdin:
        task, _, moves = line.strip().partition(" ")
        if task == "clear":
            solver.reset()
            print("= cleared", flush=True)
            continue
        try:
            cols = [] if moves in ("", "-") else [int(c) for c in moves.split(",")]
            start = time.perf_counter()
            if task == "score":
                scores: list[int | None] = [solver.solve(cols)]
            elif task == "analysis":
                scores = list(solver.analyze(cols))
            else:
                raise ValueError(f"unknown task {task}")
            seconds = time.perf_counter() - start
        except (GameError, ValueError) as exc:
            print(f"? {exc}", flush=True)
            continue
        shown = ",".join("x" if s is None else str(s) for s in scores)
        print(f"= {shown} {solver.nodes} {round(seconds * 1e6)}", flush=True)


def positions(args: argparse.Namespace, game: Any) -> list[tuple[Any, int | None]]:
    """(state, expected score or None) to solve: from ``--positions FILE`` or sampled ply by ply."""
    from zerosum.solver.sampling import quiet_positions

    if args.positions:
        found = []
        for line in Path(args.positions).read_text().splitlines()[: args.limit]:
            words = line.split()
            if words:
                found.append((game.from_moves(words[0]), int(words[1]) if len(words) > 1 else None))
        return found
    return [(state, None) for ply in parse_plies(args.plies)
            for state in quiet_positions(game, ply, args.per_ply, seed=args.seed)]


def parse_plies(text: str) -> list[int]:
    """``"16,20,24"``, ``"28-40"`` or a mix: the plies, in order."""
    plies: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        plies.extend(range(int(lo), int(hi or lo) + 1))
    return plies


def percentile(values: list[float], q: float) -> float:
    """Nearest rank: the smallest value with at least a fraction ``q`` of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {os.cpu_count()} CPUs)"


def _seconds(answer: Answer | None) -> str:
    if answer is None:
        return "-"
    return f">{answer.seconds:g}" if answer.scores is None else f"{answer.seconds:.4f}"


def _scores(answer: Answer | None) -> str:
    if answer is None:
        return "-"
    if answer.scores is None:
        return "timeout"
    return " ".join("x" if s is None else str(s) for s in answer.scores)


def _summary(times: list[Answer]) -> list[str]:
    if not times:
        return ["-", "-", "-", "-"]
    values = [a.seconds for a in times]
    out = []
    for q in (0.5, 0.9, 1.0):
        pick = percentile(values, q)
        late = any(a.scores is None and a.seconds == pick for a in times)
        out.append(f">{pick:g}" if late else f"{pick:.4f}")
    solved = [a.nodes for a in times if a.scores is not None]
    return out + [f"{sum(solved) / len(solved):,.0f}" if solved else "-"]


def _git_head() -> str:
    """The checkout's commit, and whether zerosum's source differs from it (what the zerosum side runs)."""
    here = str(Path(__file__).resolve().parent)
    head = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--", "../src"], capture_output=True, text=True)
    return (head.stdout.strip() or "unknown") + (" + uncommitted changes under src/" if dirty.stdout.strip() else "")


def _board(spec: str) -> Any:
    """The Connect-X game of ``spec``; one line and exit status 2 for a bad spec or another game."""
    from zerosum.errors import GameError
    from zerosum.solver.sampling import connectx_game

    try:
        return connectx_game(spec)
    except GameError as exc:
        print(f"steininger: error: --game {spec}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def run(args: argparse.Namespace) -> int:
    game = _board(args.game)
    if game.k != 4:
        raise SystemExit("steininger: error: Steininger's solver plays four in a row on Connect-X boards only")
    source = None if args.only == "zerosum" else find_source(args.source)
    todo = positions(args, game)
    print(f"command: python benchmarks/steininger.py {' '.join(sys.argv[1:])}")
    print(f"zerosum commit {_git_head()}; board {game.cols} x {game.rows} ({game.spec}); {len(todo)} positions; "
          f"task {args.task}; timeout {args.timeout:g} s; tables {'kept' if args.keep_tables else 'emptied'} "
          "between positions")
    print(f"load at start: {_load()}", flush=True)
    engines: list[Engine] = []
    if source is not None:
        program = build(source, game.cols, game.rows, args.entries, args.build_dir, args.native)
        engines.append(Engine("steininger", [str(program)], cwd=str(program.parent)))
        print(f"steininger: {program} (one thread; table: {program.parent / 'src/solver/settings.h'})")
    if args.only != "steininger":
        command = [sys.executable, __file__, "--zerosum-worker", "--game", game.spec,
                   "--tt-log-size", str(args.tt_log_size)] + (["--book"] if args.book else [])
        engines.append(Engine("zerosum", command))
        print(f"zerosum: Solver(threads=1, tt_size=2**{args.tt_log_size}, book={args.book})")
    answers: dict[str, list[Answer | None]] = {e.name: [] for e in engines}
    print("| ply | moves | expected | " + " | ".join(f"{e.name} | {e.name} s" for e in engines) + " | agree |")
    print("| --- " * (3 + 2 * len(engines) + 1) + "|", flush=True)
    disagreements = 0
    for i, (state, expected) in enumerate(todo):
        cols = list(state.history)
        turn = engines if i % 2 == 0 else engines[::-1]
        got: dict[str, Answer | None] = {}
        for engine in turn:
            if engine.note:  # unavailable: not asked again
                got[engine.name] = None
                continue
            try:
                got[engine.name] = engine.ask(args.task, cols, args.timeout, clear=not args.keep_tables)
            except RuntimeError as exc:
                print(f"{exc} (its side is left out)", flush=True)
                engine.note = engine.note or str(exc)
                got[engine.name] = None
        for name, answer in got.items():
            answers[name].append(answer)
        known = [a.scores for a in got.values() if a is not None and a.scores is not None]
        if expected is not None and args.task == "score":
            known.append((expected,))
        agree = "-" if len(known) < 2 else ("yes" if len(set(known)) == 1 else "NO")
        disagreements += agree == "NO"
        cells = " | ".join(f"{_scores(got[e.name])} | {_seconds(got[e.name])}" for e in engines)
        shown = "-" if expected is None else str(expected)
        print(f"| {state.ply} | {game.to_moves(state)} | {shown} | {cells} | {agree} |", flush=True)
    for engine in engines:
        engine.stop()
    _report(todo, engines, answers)
    print(f"disagreements: {disagreements}")
    print(f"load at end: {_load()}")
    return 1 if args.check and disagreements else 0


def _report(todo: list[tuple[Any, int | None]], engines: list[Engine], answers: dict[str, list[Answer | None]]) -> None:
    print()
    print("| ply | positions | " + " | ".join(f"{e.name} p50 s | p90 s | worst s | mean nodes" for e in engines)
          + " | agree |")
    print("| --- " * (2 + 4 * len(engines) + 1) + "|")
    for ply in sorted({state.ply for state, _ in todo}):
        index = [i for i, (state, _) in enumerate(todo) if state.ply == ply]
        cells = []
        for engine in engines:
            cells.extend(_summary([a for a in (answers[engine.name][i] for i in index) if a is not None]))
        agree = "-"
        if len(engines) > 1:  # of the positions every side answered, how many got one answer
            solved = [[answers[e.name][i] for e in engines] for i in index]
            solved = [row for row in solved if all(a is not None and a.scores is not None for a in row)]
            agree = f"{sum(len({a.scores for a in row if a is not None}) == 1 for row in solved)}/{len(solved)}"
        print(f"| {ply} | {len(index)} | {' | '.join(cells)} | {agree} |")
    for engine in engines:
        if engine.note:
            print(f"{engine.name}: left out: {engine.note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", help=f"Steininger's c4 source folder (default ${ENV_SOURCE})")
    parser.add_argument("--game", default="connect4-8x8", help="a Connect-X board with k=4 (default connect4-8x8)")
    parser.add_argument("--plies", default=DEFAULT_PLIES, help=f"plies sampled, e.g. 28-40 (default {DEFAULT_PLIES})")
    parser.add_argument("--per-ply", type=int, default=10, help="quiet positions a ply (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    parser.add_argument("--positions", help="solve the `moves [score]` lines of this file instead of sampling")
    parser.add_argument("--limit", type=int, default=None, help="only the first N lines of --positions")
    parser.add_argument("--task", choices=("score", "analysis"), default="score")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a solve may take (default 300)")
    parser.add_argument("--keep-tables", action="store_true", help="keep both tables from position to position")
    parser.add_argument("--only", choices=("steininger", "zerosum"), default=None, help="run one side only")
    parser.add_argument("--check", action="store_true", help="exit 1 when any two answers disagree")
    parser.add_argument("--tt-log-size", type=int, default=DEFAULT_TT_LOG_SIZE, help="zerosum's table: 2**N entries")
    parser.add_argument("--book", action="store_true", help="zerosum uses its opening book for the board")
    parser.add_argument("--entries", type=int, default=None, help="Steininger's table entries (default: the least "
                        "its board allows, at least 2**24)")
    parser.add_argument("--native", action="store_true", help="build Steininger's with -march=native")
    parser.add_argument("--build-dir", type=Path, default=None, help="where Steininger's builds are kept")
    parser.add_argument("--write-positions", metavar="FILE", help="write the positions' move strings and stop")
    parser.add_argument("--zerosum-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.zerosum_worker:
        zerosum_worker(args.game, args.tt_log_size, args.book)
        return 0
    if args.write_positions:
        game = _board(args.game)
        Path(args.write_positions).write_text("".join(f"{game.to_moves(s)}\n" for s, _ in positions(args, game)))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
