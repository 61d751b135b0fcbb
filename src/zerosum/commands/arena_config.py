"""The configuration of a run of ``zerosum match`` or ``zerosum tournament`` (:mod:`zerosum.commands.arena`):
a new run's, built from the command line with every argument and agent checked before anything is written,
or the stored one of a run carried on (``--resume``), once its settings agree and every agent is known to
start.

Kept quick to import (``--help`` loads no solver): the arena's modules load when a run is built.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__: list[str] = []  # its two functions are private to zerosum.commands.arena


def _build_config(args: argparse.Namespace, mode: str) -> Any:
    """The configuration of a new run, with every argument and agent checked (nothing is written here; a check
    that fails: the caller lets go of the results file claimed for a run that names none)."""
    from ..arena.match import (
        MAX_PLANNED,
        ArenaConfig,
        canonical_game,
        canonical_spec,
        check_agents,
        planned_count,
    )
    from ..arena.openings import (
        format_opening,
        max_plies,
        random_openings,
        read_openings,
        shipped_openings,
    )
    from ..arena.stats import Sprt
    from ..games import get_game
    from .arena_options import engine_settings, rule_settings
    from .options import DEFAULT_GAME, UsageError

    n = len(args.agents)
    if mode == "match" and n != 2:
        raise UsageError(f"a match needs exactly two agents, got {n}")
    if mode != "match" and n < 2:
        raise UsageError(f"a tournament needs at least two agents, got {n}")
    if mode != "match":
        mode = "gauntlet" if args.gauntlet else "round-robin"
    game = get_game(canonical_game(args.game or DEFAULT_GAME))  # a game file by its absolute path
    seed = 0 if args.seed is None else args.seed
    sprt = None
    if getattr(args, "sprt", None):
        try:
            s = Sprt.parse(args.sprt)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        sprt = [s.elo0, s.elo1, s.alpha, s.beta]
    games = args.games or (20000 if sprt else 100 if mode == "match" else 20)
    planned = planned_count(mode, n, games)
    if planned > MAX_PLANNED:
        raise UsageError(f"{n} agents x {games} games plan {planned:,} games; a run plans at most {MAX_PLANNED:,}: "
                         "use fewer --games or agents")
    if args.opening_plies is not None and args.opening_plies > max_plies(game):
        raise UsageError(f"--opening-plies {args.opening_plies}: {game.spec} allows 0..{max_plies(game)}")
    rules = rule_settings(args, game)  # --tc, --adjudicate
    specs = [canonical_spec(spec) for spec in args.agents]  # agent files by absolute path
    limits = {k: getattr(args, k) for k in ("depth", "nodes", "time") if getattr(args, k) is not None}
    engine_settings(args)  # --engine: each NAME an agent spec
    args.engines_seen = {}  # what each engine says of itself and its latency, kept with the run
    # bad or human agents fail here, before anything is written (an engine: its handshake and game too)
    warned: list[str] = []  # a search that cannot end, a node limit an agent takes none of: said at the start
    digests = check_agents(specs, limits, game=game.spec, engines=args.engines_seen, searched=game, warned=warned)
    if sprt and games // 2 < s.fewest:  # every pair moves the LLR a bounded step: too few can never decide
        warned.append(f"zerosum {'match' if mode == 'match' else 'tournament'}: --sprt {args.sprt.strip()} can decide "
                      f"only after {s.fewest:,} pairs ({2 * s.fewest:,} games); --games {games:,} plays {games // 2:,}: "
                      "the run will play every game and end without a decision")
    for line in warned:
        print(line, file=sys.stderr)
    rounds = (games + 1) // 2
    if args.openings:
        if args.opening_plies is not None:
            raise UsageError("--openings and --opening-plies exclude each other")
        openings = read_openings(args.openings, game)
        source = str(args.openings)
    elif args.opening_plies is None and shipped_openings(game) is not None:
        path = shipped_openings(game)
        openings = read_openings(path, game)  # type: ignore[arg-type]
        source = "shipped balanced set"
    else:
        plies = 2 if args.opening_plies is None else args.opening_plies
        openings = random_openings(game, rounds, plies, seed) if plies else [()]
        source = f"random, {plies} plies" if plies else "start position"
    return ArenaConfig(
        game=game.spec, agents=specs, games=games, seed=seed, mode=mode,
        openings=[format_opening(game, o) for o in openings], openings_source=source, order=args.order or "random",
        limits=limits, deadline=args.deadline, grace=30.0 if args.grace is None else args.grace, sprt=sprt,
        digests=digests, **rules,
    )


def _open_resumed(args: argparse.Namespace, mode: str, out: Path) -> tuple[Any, Any]:
    """The store (locked) and configuration of the run to carry on, once every agent is known to start and its
    record file (``--pgnout``) is known to be no other run's."""
    from ..arena.match import canonical_spec, check_agents, open_run
    from ..arena.store import lock_file
    from ..core.files import shown
    from ..errors import AgentError
    from .arena_options import resume_conflicts, resumed_engines, resumed_move_cpu
    from .options import UsageError
    from .replay import resumed_pgnout

    store, config = open_run(out, lock=True)
    try:
        if (config.mode == "match") != (mode == "match"):
            raise UsageError(f"--resume: {shown(out)} holds a {config.mode}, not a {mode}")
        if args.agents and [canonical_spec(a) for a in args.agents] != config.agents:
            raise UsageError(f"--resume: {shown(out)} holds a run of {' '.join(config.agents)}, not of these agents")
        changed = resume_conflicts(args, config, store.meta("move_cpu"))
        if changed:
            more = f" and {len(changed) - 2} more" if len(changed) > 2 else ""
            raise UsageError(f"--resume carries on the run in {shown(out)} as it began, not with {', '.join(changed[:2])}"
                             f"{more}: under other settings, start a new run (-o FILE)")
        resumed_engines(args, store)  # the run's engines as stored with it
        unchecked: list[str] = []  # files an older zerosum kept no digest of: said, as nothing can be checked
        try:
            check_agents(config.agents, config.limits, config.digests, game=config.game, unchecked=unchecked)
        except AgentError as exc:
            raise AgentError(f"--resume: the run in {shown(out)} cannot go on: {exc}") from None
        args.resume_notes = [f"--resume: {line}" for line in unchecked]  # said once the run is sure to start
        args.move_cpu_kept = resumed_move_cpu(args, config, store.meta("move_cpu"))  # kept then too
        records = resumed_pgnout(args, Path(args.pgnout) if getattr(args, "pgnout", None) else None, store)[0]
        if records is not None:  # written by another run: one line, before the run says where its records go
            with lock_file(records, "record file"):
                pass
    except BaseException:
        store.close()
        raise
    return store, config


def _resume_notes(args: argparse.Namespace, store: Any) -> list[str]:
    """A resumed run sure to start: the ``--move-cpu`` rule :func:`_open_resumed` settled kept with the run (a
    run an older zerosum began kept none); returns the lines for standard error of what an older zerosum left
    unknown (files without digests, the CPU rule)."""
    rule, notice = getattr(args, "move_cpu_kept", None) or (None, "")
    if rule is not None:
        store.set_meta("move_cpu", rule)
    return [*getattr(args, "resume_notes", []), *([notice] if notice else [])]
