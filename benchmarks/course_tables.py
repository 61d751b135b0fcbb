"""The course's experiments with the course's own agents, side by side with zerosum's stronger ones: the
tables of docs/experiments.md ("The courses' experiments with their own agents"), generated.

    python benchmarks/course_tables.py                       # every part (about 5 minutes on 2 busy cores)
    python benchmarks/course_tables.py --part evals homework  # only these (seconds)

Parts (run from the checkout's root: the Migration heuristic is the file benchmarks/course_migration_eval.py):

* ``evals``: evaluation calls and nodes of depth-limited minimax, the textbook alpha-beta and zerosum's
  alpha-beta with the run-length heuristic (``eval=runs``) on Connect Four, summed over :data:`POSITIONS`.
* ``homework``: the 8 x 8 homework's node counts (calls of the search function, the root included) by depth,
  from the empty 8 x 8 board and :data:`HOMEWORK_POSITIONS`, against its limit of 10,000.
* ``connect4``: depth-3 minimax and alpha-beta with ``runs`` against the random player, 500 games each,
  the course's minimax with a depth discount, and zerosum's alpha-beta with ``runs``, ``window`` and ``threats``.
* ``mcts``: MCTS with alpha-beta playouts and plain UCT against the course's alpha-beta and each other, and
  zerosum's MCTS against MCTS with alpha-beta playouts.
* ``migration``: the game-API course's Migration tournaments (5 x 5 gauntlet, 8 x 8 round robin) with the
  textbook alpha-beta and the course heuristic, and which of algorithm and heuristic changes the outcome.
* ``ties``: how often the course's alpha-beta meets a tie for the best move (which its textbook rule, the
  first such move in the game's order, then decides).

Every game and count is fixed by the seeds (the tables are the same on every machine); only the times
(``ms/move``, the seconds after each command) are this machine's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from zerosum import get_game, make_agent
from zerosum.arena.match import open_run
from zerosum.arena.report import summarize
from zerosum.cli import main

ROOT = Path(__file__).resolve().parent.parent
#: the course's Migration heuristic as a file evaluation (own moves minus the opponent's)
COURSE_EVAL = "benchmarks/course_migration_eval.py:own_minus_opponent"
#: Connect Four positions of the ``evals`` part (move strings; "" is the empty board)
POSITIONS = ["", "4", "44", "4453", "3443", "1234567", "445566", "2233"]
#: 8 x 8 positions of the ``homework`` part
HOMEWORK_POSITIONS = ["", "45", "4455", "36453"]
#: the homework's node limit per move
HOMEWORK_LIMIT = 10_000


def _run(args: list[str], jobs: int, path: str) -> float:
    """``zerosum ARGS --jobs J --out PATH --quiet`` in this process; its seconds."""
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        code = main([*args, "--jobs", str(jobs), "--out", path, "--quiet", "--overwrite"])
    if code != 0:
        raise SystemExit(f"zerosum {shlex.join(args)} failed (exit {code})")
    return time.perf_counter() - start


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def _results(path: str) -> tuple[list[str], list[Any], dict[int, Any], Any]:
    store, _ = open_run(path)
    with store:
        labels = [label for label, _ in store.agents()]
        plan = {g.idx: g for g in store.plan()}
        games = list(store.games())
        report = summarize(store)
    return labels, games, plan, report


# ---- evaluation counts and node counts (searches, no games) -----------------------------------------


def _counts(spec: str, game: Any, moves: list[str]) -> tuple[int, int]:
    nodes = evals = 0
    for m in moves:
        result = make_agent(spec).search(game, game.from_moves(m) if m else game.initial_state)
        nodes, evals = nodes + result.nodes, evals + (result.evals or 0)
    return nodes, evals


def evals_table(depths: range = range(1, 6)) -> str:
    """Evaluation calls (and nodes) per depth, summed over :data:`POSITIONS`, with ``eval=runs``."""
    game = get_game("connect4")
    agents = [("minimax (course)", "minimax:discount=0,depth={d},eval=runs"),
              ("alpha-beta (course)", "alphabeta:plain=1,depth={d},eval=runs"),
              ("zerosum alpha-beta", "alphabeta:depth={d},eval=runs")]
    out = ["| depth | " + " | ".join(f"{name}: evaluations (nodes)" for name, _ in agents)
           + " | alpha-beta / minimax |", "| --- |" + " --- |" * (len(agents) + 1)]
    for d in depths:
        counts = [_counts(spec.format(d=d), game, POSITIONS) for _, spec in agents]
        cells = [f"{e:,} ({n:,})" for n, e in counts]
        out.append(f"| {d} | " + " | ".join(cells) + f" | {counts[1][1] / counts[0][1]:.1%} |")
    return "\n".join(out)


def homework_table(depths: range = range(1, 8)) -> str:
    """Nodes per search on 8 x 8 (calls of the search function, root included) by depth, ``eval=window``."""
    game = get_game("connect4-8x8")
    agents = [("minimax (course)", "minimax:discount=0,depth={d},eval=window"),
              ("alpha-beta (course)", "alphabeta:plain=1,depth={d},eval=window"),
              ("zerosum alpha-beta", "alphabeta:depth={d},eval=window")]
    header = ["| depth | " + " | ".join(f"{name}: empty board / most of {len(HOMEWORK_POSITIONS)}"
                                        for name, _ in agents) + " |",
              "| --- |" + " --- |" * len(agents)]
    rows = []
    for d in depths:
        cells = []
        for _, spec in agents:
            if spec.startswith("minimax") and d > 5:
                cells.append("")
                continue
            per = [_counts(spec.format(d=d), game, [m])[0] for m in HOMEWORK_POSITIONS]
            mark = lambda n: f"**{n:,}**" if n > HOMEWORK_LIMIT else f"{n:,}"  # noqa: E731
            cells.append(f"{mark(per[0])} / {mark(max(per))}")
        rows.append(f"| {d} | " + " | ".join(cells) + " |")
    return "\n".join(header + rows)


# ---- matches ---------------------------------------------------------------------------------------

#: the ``connect4`` part: (whose, agent, opponent), 500 games from the empty board; the third row is the
#: course's minimax with zerosum's one change that matters here (a faster win scores higher)
CONNECT4 = [("course", "minimax:discount=0,depth=3,eval=runs", "random"),
            ("course", "alphabeta:plain=1,depth=3,eval=runs", "random"),
            ("course + discount", "minimax:depth=3,eval=runs", "random"),
            ("zerosum", "alphabeta:depth=3,eval=runs", "random"),
            ("zerosum", "alphabeta:depth=3,eval=window", "random"),
            ("zerosum", "alphabeta:depth=3", "random")]
#: the course's alpha-beta of the comparison text
COURSE_AB = "alphabeta:plain=1,depth=3,eval=runs"
#: the ``mcts`` part: 10 games each from the empty board
MCTS = [("course", "mcts:sims=200,playout=alphabeta", COURSE_AB),
        ("course", "mcts:plain=1,sims=200", COURSE_AB),
        ("course", "mcts:sims=200,playout=alphabeta", "mcts:plain=1,sims=200"),
        ("zerosum", "mcts:sims=2000", "mcts:sims=200,playout=alphabeta")]


def match_args(spec: str, opponent: str, games: int) -> list[str]:
    return ["match", spec, opponent, "--games", str(games), "--opening-plies", "0"]


def matches_table(rows: list[tuple[str, str, str]], games: int, jobs: int, folder: str) -> str:
    """One line a match (whose agent, the agent, its opponent): the command, the agent's result, its cost
    (nodes are MCTS's simulations), the time."""
    out = [f"| agent | command | +W =D -L | score | nodes/move | ms/move | time ({_load()}) |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for i, (who, spec, opponent) in enumerate(rows):
        path = os.path.join(folder, f"match{i}.db")
        seconds = _run(match_args(spec, opponent, games), jobs, path)
        _, _, _, report = _results(path)
        st = next(s for s in report.standings if s.label == spec)
        out.append(f"| {who} | `zerosum {shlex.join(match_args(spec, opponent, games))}` | +{st.wins} ={st.draws} "
                   f"-{st.losses} | {st.score:.1%} | {st.nodes:,.0f} | {st.move_ms:,.1f} | {seconds:.0f} s |")
    return "\n".join(out)


# ---- Migration -------------------------------------------------------------------------------------


def migration_runs(n: int, spec: str) -> list[str]:
    """The tournament of the course's Migration task on n x n with agents ``spec`` (a ``{d}`` format)."""
    if n == 5:
        depths, extra = [1000, 2, 5, 100], ["--gauntlet"]
    else:
        depths, extra = [1, 2, 3, 5, 7], ["--deadline", "300"]
    return ["tournament", *(spec.format(d=d) for d in depths), *extra, "--game", f"migration:n={n}", "--games",
            "2", "--opening-plies", "0"]


#: the algorithm x heuristic variants: the course's, then each change alone, then zerosum's
VARIANTS = [("course: textbook alpha-beta, course heuristic", "alphabeta:plain=1,depth={d},eval=" + COURSE_EVAL),
            ("textbook alpha-beta, mobility", "alphabeta:plain=1,depth={d},eval=mobility"),
            ("zerosum alpha-beta, course heuristic", "alphabeta:depth={d},eval=" + COURSE_EVAL),
            ("zerosum: zerosum alpha-beta, mobility", "alphabeta:depth={d}")]


def _depth(label: str) -> str:
    return label.split("depth=")[1].split(",")[0]


def cross_table(path: str) -> str:
    """Row: the agent that moved first; column: the one that moved second; cell: result (moves)."""
    labels, games, plan, _ = _results(path)
    cells = {(plan[r.idx].first, plan[r.idx].second): f"{r.result} ({len(r.moves)})" for r in games}
    firsts = sorted({g.first for g in plan.values()})
    seconds = sorted({g.second for g in plan.values()})
    out = ["| first \\ second | " + " | ".join(f"depth {_depth(labels[j])}" for j in seconds) + " |",
           "| --- |" + " --- |" * len(seconds)]
    for i in firsts:
        out.append(f"| depth {_depth(labels[i])} | " + " | ".join(cells.get((i, j), "") for j in seconds) + " |")
    return "\n".join(out)


def seats(path: str) -> tuple[int, int, dict[str, tuple[float, int]]]:
    """First-player wins, games, and each depth's (points, games)."""
    labels, games, plan, report = _results(path)
    first = sum(1 for r in games if r.result == "1-0")
    by = {_depth(s.label): (s.points, s.games) for s in report.standings}
    return first, len(games), by


def count_ties(game: Any, depth: int, evaluation: str, opponent: str | None, games: int) -> tuple[int, int]:
    """(positions where two or more moves share the best value, positions): along the games the course's
    depth-limited alpha-beta plays (against itself when ``opponent`` is None, else against ``opponent``,
    seats alternating, seeds 1, 2, ...), every position where it is to move, the best value computed
    exactly by minimax with the same evaluation and depth."""
    agent = make_agent(f"alphabeta:plain=1,depth={depth},eval={evaluation}")
    exact = make_agent(f"minimax:discount=0,depth={depth},eval={evaluation}")
    ties = total = 0
    for i in range(games):
        other = agent if opponent is None else make_agent(opponent, seed=i + 1)
        players = {1: agent, 2: other} if i % 2 == 0 else {1: other, 2: agent}
        state = game.initial_state
        while not game.is_terminal(state):
            mover = players[game.player(state)]
            if mover is agent:
                scores = exact.search(game, state).scores
                best = max(scores.values())
                ties += sum(1 for v in scores.values() if v == best) > 1
                total += 1
            state = game.result(state, mover(game, state))
    return ties, total


def tie_table() -> str:
    """How often the course's depth-limited search meets a tie for the best move (:func:`count_ties`)."""
    out = ["| game | course agent | its games | positions | a tie for the best move |", "| --- | --- | --- | --- | --- |"]
    cases = [("connect4", 3, "runs", "random", 20)] + [
        (f"migration:n={n}", d, COURSE_EVAL, None, 1) for n in (5, 8) for d in (2, 3)]
    for spec, d, evaluation, opponent, games in cases:
        ties, total = count_ties(get_game(spec), d, evaluation, opponent, games)
        short = "course heuristic" if evaluation == COURSE_EVAL else evaluation
        played = f"{games} against {opponent}" if opponent else "1 against itself"
        out.append(f"| {spec} | depth {d}, {short} | {played} | {total} | {ties} ({ties / total:.0%}) |")
    return "\n".join(out)


def migration_part(jobs: int, folder: str) -> str:
    out = []
    for n in (5, 8):
        course = migration_runs(n, VARIANTS[0][1])
        path = os.path.join(folder, f"course{n}.db")
        seconds = _run(course, jobs, path)
        out += [f"Migration {n} x {n}, the course's agents: `zerosum {shlex.join(course)}` "
                f"({seconds:.0f} s with --jobs {jobs}, {_load()})", "", cross_table(path), ""]
        rows = ["| algorithm, heuristic | first player wins | " + " | ".join(
            f"depth {d}" for d in ([1000, 2, 5, 100] if n == 5 else [1, 2, 3, 5, 7])) + " | time |",
                "| --- | --- |" + " --- |" * (4 if n == 5 else 5) + " --- |"]
        for name, spec in VARIANTS:
            vpath = os.path.join(folder, f"variant{n}-{len(rows)}.db")
            took = seconds if spec == VARIANTS[0][1] else _run(migration_runs(n, spec), jobs, vpath)
            first, total, by = seats(path if spec == VARIANTS[0][1] else vpath)
            depths = [1000, 2, 5, 100] if n == 5 else [1, 2, 3, 5, 7]
            rows.append(f"| {name} | {first} of {total} | "
                        + " | ".join(f"{by[str(d)][0]:g}/{by[str(d)][1]}" for d in depths) + f" | {took:.0f} s |")
        out += [f"Migration {n} x {n}, each variant's tournament as above (`alphabeta:plain=1,depth=D,eval=...` "
                f"for the textbook search, `alphabeta:depth=D,eval=...` for zerosum's); cells: points/games", "",
                *rows, ""]
    return "\n".join(out)


PARTS: dict[str, Callable[[int, str], str]] = {
    "evals": lambda jobs, folder: "Evaluation calls (nodes), summed over the positions "
                                  f"{', '.join(repr(p) for p in POSITIONS)}, with `eval=runs`\n\n" + evals_table(),
    "homework": lambda jobs, folder: "Nodes of one search on 8 x 8 with `eval=window`, from the empty board and the "
                                     f"largest from {', '.join(repr(p) for p in HOMEWORK_POSITIONS)}; "
                                     f"in bold: over the homework's {HOMEWORK_LIMIT:,}\n\n" + homework_table(),
    "connect4": lambda jobs, folder: "Against the random player, 500 games from the empty board, seats alternating\n\n"
                                     + matches_table(CONNECT4, 500, jobs, folder),
    "mcts": lambda jobs, folder: "MCTS, 10 games a match from the empty board, seats alternating\n\n"
                                 + matches_table(MCTS, 10, jobs, folder),
    "migration": migration_part,
    "ties": lambda jobs, folder: "Ties for the best move in the course's alpha-beta's own games\n\n" + tie_table(),
}


def run(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", nargs="+", choices=list(PARTS), default=list(PARTS))
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    args = parser.parse_args(argv)
    os.chdir(ROOT)  # the file evaluation's path is relative to the checkout
    with tempfile.TemporaryDirectory(prefix="zerosum-course-") as folder:
        for part in args.part:
            start = time.perf_counter()
            text = PARTS[part](args.jobs, folder)
            print(f"<!-- {part}: python benchmarks/course_tables.py --part {part} "
                  f"({time.perf_counter() - start:.0f} s, {_load()}) -->\n\n{text}\n")


if __name__ == "__main__":
    run()
