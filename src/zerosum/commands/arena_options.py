"""The arena's options for game clocks and adjudication (``--tc``, ``--adjudicate``), for ``zerosum match``
and ``zerosum tournament`` (:mod:`zerosum.commands.arena`), and for external engines (``--engine NAME=COMMAND``,
``--engine-dir``, ``--engine-option``), which ``zerosum play`` takes too.  The run's results file (``-o``) is
:mod:`zerosum.commands.arena_results`'s.

Kept quick to import (``--help`` loads no solver): the arena's modules load when a run is built.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .inputs import same_file

__all__ = ["add_rule_options", "rule_settings", "add_ranking_options", "check_ranking", "check_clashes",
           "finish_ranking",
           "add_engine_options", "engine_settings", "resumed_engines", "resume_conflicts", "resumed_move_cpu",
           "stored_cpu", "is_png"]


def _tc_arg(text: str) -> list[float]:
    """An argparse ``type`` for ``--tc``: the one-line error of :func:`~zerosum.arena.clock.parse_tc`."""
    from ..arena.clock import parse_tc
    from ..errors import UsageError

    try:
        return parse_tc(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_rule_options(p: argparse.ArgumentParser) -> None:
    from ..arena.adjudicate import (
        DEFAULT_SOLVER_NODES,
        MAX_DRAW_MOVES,
        MAX_SOLVER_NODES,
        MIN_SOLVER_NODES,
    )
    from ..arena.clock import MAX_BASE, MAX_INCREMENT, MOVES_TO_GO

    p.add_argument("--tc", type=_tc_arg, metavar="BASE+INC",
                   help=f"a game clock per player: BASE seconds for the game plus INC seconds after each move "
                        f"(10+0.1; 60 = no increment; BASE above 0 and at most {MAX_BASE:g}, INC 0..{MAX_INCREMENT:g}); "
                        f"a player whose clock runs out loses (time forfeit). Agents with a time limit are told "
                        f"remaining/{MOVES_TO_GO} + INC a move (at most half of what remains, and at most their "
                        f"--time or time=); agents bound by depth, nodes or sims play as always")
    p.add_argument("--adjudicate", action="append", default=[], metavar="RULE",
                   help=f"end games early: 'solver' (Connect-X boards the solver takes: a game ends as soon as the "
                        f"solver proves its result within {DEFAULT_SOLVER_NODES:,} nodes, or solver=NODES, "
                        f"{MIN_SOLVER_NODES:,}..{MAX_SOLVER_NODES:,}) or 'draw=N' (a draw after N moves after the "
                        f"opening, 1..{MAX_DRAW_MOVES:,}); may be given once for each")
    add_cpu_option(p)


def add_cpu_option(p: argparse.ArgumentParser) -> None:
    """``--move-cpu``: the CPU seconds a move of a player function whose nodes cannot be counted (docs/arena.md)."""
    from ..arena.counting import CPU_PER_NODE, MAX_MOVE_CPU, MIN_MOVE_CPU
    from .options import float_arg

    p.add_argument("--move-cpu", type=float_arg(hi=MAX_MOVE_CPU, above=0), metavar="SECONDS",
                   help=f"with --nodes: the process CPU time a move of a player function may take when its nodes "
                        f"cannot be counted (no zerosum state expanded, no NODES_COUNTED_BY), above 0 and at most "
                        f"{MAX_MOVE_CPU:g}; past it the game is forfeited (cpu time limit). Default: "
                        f"{CPU_PER_NODE * 1000:g} ms per node of --nodes, at least {MIN_MOVE_CPU:g} s "
                        f"(--nodes 10000: 10 s); kept with the run, the default too (--resume plays on under it)")


def rule_settings(args: argparse.Namespace, game: Any) -> dict[str, Any]:
    """``tc`` and ``adjudicate`` of a new run's configuration, checked against ``game`` (one UsageError line
    for a rule the game cannot have)."""
    from ..arena.adjudicate import check_adjudication, parse_adjudicate

    if getattr(args, "move_cpu", None) is not None and getattr(args, "nodes", None) is None:
        from .options import UsageError

        raise UsageError("--move-cpu bounds the moves whose nodes cannot be counted under a node limit: give --nodes too")
    rules = parse_adjudicate(args.adjudicate)
    check_adjudication(game, rules)
    return {"tc": args.tc, "adjudicate": rules}


# ---- --ranking FILE.csv|.json and --grade LOW,HIGH (zerosum.arena.grading) ------------------------------


def add_ranking_options(p: argparse.ArgumentParser, grade: bool) -> None:
    """``--ranking`` (match, tournament, report) and, where a run has more than two agents, ``--grade``."""
    p.add_argument("--ranking", metavar="FILE", help="also write the ranking to FILE.csv or FILE.json: rank, agent, "
                   "spec, points, games, score, W/D/L, Elo with its 95%% interval, forfeits (and grade with --grade); "
                   "an existing FILE is refused unless --overwrite")
    if grade:
        p.add_argument("--grade", metavar="LOW,HIGH", help="grade every agent from 0 to 10 points: 0 at or below "
                       "LOW's Elo, 10 at or above HIGH's, ten equal Elo bands between (docs/arena.md); LOW and "
                       "HIGH are agents of the run (a spec, a label, or an agent file's name: random,instructor)")


def check_clashes(args: argparse.Namespace, results: Path | None, pgnout: Path | None) -> None:
    """One line, before any game, when ``--ranking``, ``--pgnout`` and the results file (``-o``) name one
    file (or ``--pgnout`` names the results file's SQLite journal, ``FILE-wal``, ``FILE-shm``)."""
    from ..core.files import shown
    from ..errors import UsageError

    ranking = getattr(args, "ranking", None)
    if results is not None and pgnout is not None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            if same_file(pgnout, str(results) + suffix):
                what = "the results file" if not suffix else f"the results file's SQLite journal ({suffix})"
                raise UsageError(f"--pgnout {shown(pgnout)} is {what}: name another file for the records")
    for other, what in ((results, "the results file"), (pgnout, "the record file (--pgnout)")):
        if ranking is not None and other is not None and same_file(ranking, other):
            raise UsageError(f"--ranking {shown(ranking)} is {what}: name another file for the ranking")


def check_ranking(args: argparse.Namespace, config: Any, results: Path | None = None,
                  pgnout: Path | None = None) -> None:
    """``--ranking`` and ``--grade`` checked against the run's configuration, before any game: one line for
    a file that may not be written (an existing one without ``--overwrite``; the results or record file
    itself, :func:`check_clashes`; any output, a report's plots too, that is a file the run reads,
    :mod:`zerosum.commands.inputs`) or a grade whose agents are not in the run."""
    from ..arena.grading import check_ranking_path, resolve_grade
    from ..arena.plan import labels_for
    from .inputs import check_inputs, stored_inputs, written

    check_clashes(args, results, pgnout)
    check_inputs(stored_inputs(config), written(args, results, pgnout))  # --resume, report: the run's inputs
    if getattr(args, "ranking", None) is not None:
        check_ranking_path(args.ranking, overwrite=args.overwrite)
    if getattr(args, "grade", None) is not None:
        resolve_grade(args.grade, labels_for(config.agents), config.agents)


def finish_ranking(args: argparse.Namespace, report: Any, console: Any, quiet: bool) -> None:
    """After a run (or for ``zerosum report``): the grades' table, and the ranking file with ``--ranking``."""
    from ..arena.grading import grades_table, ranking, resolve_grade, write_ranking

    grade = getattr(args, "grade", None)
    if grade is not None:
        rows = ranking(report, grade, flag="--grade")  # LOW not ranking below HIGH is one line, quiet or not
        if not quiet:
            labels = [row["agent"] for row in rows]
            console.print(grades_table(rows, *resolve_grade(grade, labels, [row["spec"] for row in rows])))
    if getattr(args, "ranking", None) is not None:
        write_ranking(args.ranking, report, grade, overwrite=args.overwrite, flag="--grade")
        if not quiet:
            console.print(f"wrote the ranking to {args.ranking}")


def add_engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                   help="an external program speaking zerosum's engine protocol (docs/protocol.md), then usable as "
                        "the agent NAME (NAME:time=0.5, NAME:depth=6); COMMAND is split into words as a shell "
                        "would and run without one; may be given for several engines")
    p.add_argument("--engine-dir", action="append", default=[], metavar="NAME=DIR",
                   help="the folder engine NAME runs in (default: the current one)")
    p.add_argument("--engine-option", action="append", default=[], metavar="NAME.OPTION=VALUE",
                   help="set an option engine NAME declares (setoption) after its handshake")


def engine_settings(args: argparse.Namespace) -> list[Any]:
    """The engines of ``--engine`` (with ``--engine-dir`` and ``--engine-option``), each name registered as an
    agent spec in this process (:mod:`zerosum.external.definitions`: one UsageError line for a malformed flag,
    a name given twice or a name that is a zerosum agent)."""
    from ..external import parse_engines, register_engine

    found = parse_engines(args.engine, args.engine_dir, args.engine_option)
    for definition in found:
        register_engine(definition)
    return found


# ---- a report's plots, --resume -----------------------------------------------------------------------


def is_png(path: Path) -> bool:
    """Whether ``path`` is a PNG image (an earlier report's plot, which ``report`` replaces): a regular file that
    starts with PNG's signature.  Anything else there is kept unless ``--overwrite``."""
    try:
        if not path.is_file():  # never opened otherwise: a FIFO would wait for ever
            return False
        with open(path, "rb") as f:
            return f.read(8) == b"\x89PNG\r\n\x1a\n"
    except OSError:
        return False


def resume_conflicts(args: argparse.Namespace, config: Any, move_cpu: Any = None) -> list[str]:
    """``--resume`` with settings of the run's own (``--games``, ``--time``, ...): each one that differs from the
    stored run, in words (``--games 10 (the run: 2)``); the same value again is no conflict, so the command
    that began a run, with ``--resume`` added, carries it on.  ``move_cpu``: the run's stored ``--move-cpu``
    rule (None: the run has none, a run without ``--nodes`` or one an older zerosum began,
    :func:`resumed_move_cpu`)."""
    from ..arena.adjudicate import describe_adjudication, parse_adjudicate
    from ..arena.clock import format_tc
    from ..arena.stats import Sprt

    def differs(flag: str, given: Any, stored: Any, shown: Any = None, stored_shown: Any = None) -> None:
        if given is not None and given != stored:
            had = "none" if stored is None else stored_shown if stored_shown is not None else f"{stored:g}" \
                if isinstance(stored, float) else stored
            out.append(f"{flag} {shown if shown is not None else given} (the run: {had})")

    out: list[str] = []
    if args.game is not None:
        from ..games import get_game

        from ..arena.match import canonical_game

        differs("--game", get_game(canonical_game(args.game)).spec, config.game, args.game)
    differs("--games", args.games, config.games)
    differs("--seed", args.seed, config.seed)
    differs("--order", args.order, config.order)
    differs("--grace", args.grace, config.grace)
    differs("--deadline", args.deadline, config.deadline)
    for name in ("time", "nodes", "depth"):
        differs(f"--{name}", getattr(args, name), config.limits.get(name))
    if args.tc is not None:
        differs("--tc", [float(x) for x in args.tc], None if config.tc is None else [float(x) for x in config.tc],
                format_tc(args.tc), None if config.tc is None else format_tc(config.tc))
    if args.adjudicate:
        differs("--adjudicate", parse_adjudicate(args.adjudicate), config.adjudicate, " ".join(args.adjudicate),
                describe_adjudication(config.adjudicate).removeprefix("adjudication: "))
    if getattr(args, "sprt", None):
        try:
            s = Sprt.parse(args.sprt)
        except ValueError:
            s = None
        had = None if not config.sprt else ",".join(f"{v:g}" for v in config.sprt)  # as --sprt takes it: 0,50,0.05,0.05
        differs("--sprt", None if s is None else [s.elo0, s.elo1, s.alpha, s.beta], config.sprt, args.sprt, had)
    cpu = getattr(args, "move_cpu", None)
    if cpu is not None and config.limits.get("nodes") is None:
        out.append(f"--move-cpu {cpu:g} (the run: no --nodes, so no CPU rule)")
    elif cpu is not None and stored_cpu(move_cpu) is not None:
        differs("--move-cpu", cpu, stored_cpu(move_cpu), f"{cpu:g}")
    if getattr(args, "gauntlet", False) and config.mode != "gauntlet":
        out.append(f"--gauntlet (the run: a {config.mode})")
    if args.openings is not None and str(args.openings) != config.openings_source:
        out.append(f"--openings {args.openings} (the run: {config.openings_source})")
    if args.opening_plies is not None:
        plies = f"random, {args.opening_plies} plies" if args.opening_plies else "start position"
        if plies != config.openings_source:
            out.append(f"--opening-plies {args.opening_plies} (the run: {config.openings_source})")
    return out


def resumed_engines(args: argparse.Namespace, store: Any) -> None:
    """``--resume``: the run's engines, as its results file keeps them, registered as agent specs again (their
    handshake and game are checked with the other agents); ``--engine`` flags with ``--resume`` are one line."""
    from ..errors import UsageError
    from ..external import EngineDefinition, register_engine
    from ..external.names import stored_engines

    if getattr(args, "engine", None) or getattr(args, "engine_dir", None) or getattr(args, "engine_option", None):
        raise UsageError("--resume starts the engines stored with the run: leave out --engine, --engine-dir and "
                         "--engine-option")
    for seen in stored_engines(store.meta("engines")).values():
        register_engine(EngineDefinition.from_json(seen.get("definition")))


def stored_cpu(value: Any) -> float | None:
    """A results file's ``move_cpu`` as a rule: its seconds when a number above 0, else None (none stored)."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    return float(value) if ok else None


def resumed_move_cpu(args: argparse.Namespace, config: Any, stored: Any) -> tuple[float | None, str]:
    """``(the --move-cpu rule to keep with a resumed run, what to say of it)``.  A run this zerosum began with
    ``--nodes`` kept its CPU rule from its start (:mod:`.arena_results`, the default too): nothing to keep or
    say (another ``--move-cpu`` is :func:`resume_conflicts`'s).  A run an older zerosum began kept none:
    ``--move-cpu`` given now becomes its rule (kept, so later resumes play on under it); without it its
    remaining games get the default, nothing is kept (a later resume may still choose), and each resume says
    so in one line where an agent of the run is a file's player function, whose nodes may go uncounted (no
    other agent is bound by the rule)."""
    from ..agents.registry import file_agent_parts
    from ..arena.forfeits import declares_counter, run_move_cpu
    from ..arena.plan import labels_for

    nodes = config.limits.get("nodes")
    if nodes is None or stored_cpu(stored) is not None:
        return None, ""
    given = getattr(args, "move_cpu", None)
    rule = run_move_cpu(config.limits, given)
    held = [label for label, spec in zip(labels_for(config.agents), config.agents)
            if file_agent_parts(spec) is not None and not declares_counter(spec)]
    if not held:
        return given, ""
    said = (f"{rule:g} s of CPU (--move-cpu), kept with the run from now on" if given is not None else
            f"{rule:g} s of CPU, the default of --nodes {nodes} (that zerosum may have set none); --move-cpu SECONDS "
            "with --resume sets another, kept with the run")
    return given, (f"--resume: an older zerosum began this run and kept no CPU rule with it: each move of "
                   f"{', '.join(held)} whose nodes cannot be counted is held to {said}")
