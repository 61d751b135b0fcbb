"""``zerosum openings``: a file of openings for the arena, judged or random.

A judge (``--with``: the solver on the Connect-X boards it takes, or any search agent on any game) values
every position ``--plies`` in, and the positions within ``--max-score`` are kept: ``--max-score 0`` gives
openings of evaluation 0.  Without a judge (games the solver does not take, no ``--with``) the openings are
random.  Whatever cannot apply is refused in one line.

Kept quick to import: the arena's openings and the solver load inside ``run``.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

__all__ = ["COMMANDS", "MAX_SCORE", "MAX_COUNT"]

#: ``zerosum openings --max-score``: every heuristic value, and below every proven win (beyond 10**6)
MAX_SCORE = 1_000_000
#: ``zerosum openings --count``
MAX_COUNT = 100_000


def _add(p: argparse.ArgumentParser) -> None:
    from ..agents.base import MAX_SEED
    from ..arena.openings import MAX_OPENING_PLIES, MAX_POSITIONS
    from .options import add_game_option, float_arg, int_arg

    add_game_option(p)
    p.add_argument("--plies", type=int_arg(0, MAX_OPENING_PLIES), default=4,
                   help=f"moves into the game, 0..{MAX_OPENING_PLIES} and fewer than the board's cells (default 4); "
                        f"judged openings: at most {MAX_POSITIONS:,} positions at any ply")
    p.add_argument("--with", dest="evaluator", default=None, metavar="SPEC",
                   help="what judges a position: solver (the default on the Connect-X boards it takes: exact "
                        "scores) or a search agent spec on any game (alphabeta:depth=2,eval=window: the value of "
                        "its search, in its own unit; beyond 10**6 is a proven win). Other games without --with: "
                        "random openings")
    p.add_argument("--max-score", type=float_arg(0, MAX_SCORE), default=None, metavar="S",
                   help=f"judged openings: keep positions whose value for the side to move is within +-S, "
                        f"0..{MAX_SCORE:,} (default 2; 0 = evaluation 0 only)")
    p.add_argument("--sample", type=int_arg(1, MAX_POSITIONS), default=None, metavar="N",
                   help=f"judged openings: judge only N of the positions, 1..{MAX_POSITIONS:,}, drawn from --seed "
                        "(default: all)")
    p.add_argument("--count", type=int_arg(1, MAX_COUNT), default=None,
                   help=f"how many openings, 1..{MAX_COUNT:,}: random ones (default 100), or the first N kept "
                        "of the judged positions taken in an order shuffled from --seed (default: all kept, "
                        "in move order)")
    p.add_argument("--seed", type=int_arg(0, MAX_SEED), default=0,
                   help="seed of --sample, of --count's order and of random openings, 0..2**63-1 (default 0)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write here (default: standard output). Judged openings: each position as it is judged "
                        "goes to FILE.partial, renamed FILE at the end; Ctrl-C keeps it, and the same command "
                        "again goes on from there. Random openings: all at once at the end")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output file")


def _judge(args: argparse.Namespace, game: Any) -> tuple[str | None, Any]:
    """The judge's name and an agent's evaluator (None for the solver; None, None: random openings); one
    UsageError line for an option that cannot apply to ``game``."""
    from ..arena.openings import agent_evaluator, has_balanced_openings
    from .options import UsageError

    judge = args.evaluator
    if judge is None and has_balanced_openings(game):
        judge = "solver"
    if judge is None:  # random openings: every judged option is refused, never ignored
        given = [o for o, v in (("--max-score", args.max_score), ("--sample", args.sample)) if v is not None]
        if given:
            raise UsageError(f"{given[0]} needs a judge, and the solver does not take {game.spec}: give --with "
                             "AGENT (a search agent, e.g. alphabeta:depth=2,eval=window)")
        return None, None
    if judge == "solver":
        if not has_balanced_openings(game):
            raise UsageError(f"--with solver: the solver does not take {game.spec}: give --with AGENT "
                             "(a search agent, e.g. alphabeta:depth=2,eval=window)")
        return judge, None  # the solver loads once the positions are known (a bad option costs nothing)
    return judge, agent_evaluator(game, judge)


def _run(args: argparse.Namespace) -> int:
    import contextlib
    import random

    from ..arena.openings import candidate_positions, format_opening, max_plies, solver_evaluator
    from ..core.files import atomic_output, check_output, shown
    from ..games import get_game
    from .inputs import check_inputs, game_inputs, spec_inputs
    from .options import UsageError

    if args.output:  # never the judge's files nor the game file, whatever --overwrite says
        check_inputs([*spec_inputs(args.evaluator), *game_inputs(args.game)],
                     [(args.output, f"-o {shown(args.output)}", "name another file for the openings", (PARTIAL,))])
    game = get_game(args.game)
    if args.plies > max_plies(game):
        raise UsageError(f"--plies {args.plies}: {game.spec} allows openings of 0..{max_plies(game)} plies")
    if args.output:  # everything is checked before any work; FILE itself is written whole at the end
        check_output(args.output, overwrite=args.overwrite, what="openings file")
    start = time.perf_counter()
    judge, evaluate = _judge(args, game)
    if judge is not None:  # too many plies or positions: refused before the solver loads
        if args.output:  # judged lines go to FILE.partial as they are judged
            check_output(args.output + PARTIAL, overwrite=True, what="openings checkpoint")
        max_score = 2 if args.max_score is None else args.max_score
        order = list(candidate_positions(game, args.plies, args.sample, args.seed))
        nearest: list[float] = []  # the value nearest 0, said when no position qualifies
        evaluate = _nearest(evaluate or solver_evaluator(game), nearest)
        if args.count is not None:  # generate_openings' order: the first N kept of a seeded shuffle
            random.Random(f"zerosum-openings-order/{args.seed}").shuffle(order)
        header = _header(args, game, judge, max_score, len(order))
        none = _none_kept(args, max_score, len(order), nearest)
        if args.output:
            written = _judged_to_file(args, game, evaluate, order, max_score, header, none)
        else:
            sys.stdout.write(header)

            def said(done: int, held: int) -> str:
                return f"{done} of {len(order)} positions judged, {held} opening{'s' * (held != 1)} written"

            written = len(_judged(game, evaluate, order, max_score, args.count, sys.stdout, [], 0, False, said))
            if not written:  # the header alone is no openings file: match --openings refuses it
                raise none()
    else:
        with contextlib.ExitStack() as stack:
            if args.output:
                out = stack.enter_context(atomic_output(args.output, overwrite=args.overwrite, checked=True))
            else:
                out = sys.stdout
            number = 100 if args.count is None else args.count
            openings, exist = _distinct_openings(game, number, args.plies, args.seed)
            if exist is not None:
                print(f"only {exist} distinct open position{'s' * (exist != 1)} {args.plies} "
                      f"{'ply' if args.plies == 1 else 'plies'} into {game.spec}: writing {'all' if exist > 1 else 'it'} "
                      f"(--count {number} asked for more)", file=sys.stderr)
            out.write(f"# zerosum openings --game {game.spec} --plies {args.plies} --count {number} "
                      f"--seed {args.seed}\n")
            out.writelines(format_opening(game, o) + "\n" for o in openings)
            written = len(openings)
    if args.output:
        print(f"wrote {written} openings to {args.output} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


def _nearest(evaluate: Any, nearest: list[float]) -> Any:
    """``evaluate``, keeping in ``nearest`` the value nearest 0 it gave (for the line that says none qualified)."""
    def judged(state: Any) -> float:
        value = evaluate(state)
        if not nearest or abs(value) < abs(nearest[0]):
            nearest[:] = [value]
        return value  # type: ignore[no-any-return]

    return judged


def _none_kept(args: argparse.Namespace, max_score: float, total: int, nearest: list[float]) -> Any:
    """The one line for judged openings none of which qualified (made when it is needed: the nearest value
    is known by then): nothing is written, as an openings file of none is refused by match --openings."""
    from ..arena.openings import format_value
    from .options import UsageError

    def line() -> UsageError:
        plies = f"{args.plies} {'ply' if args.plies == 1 else 'plies'}"
        why = "a larger --max-score keeps more"
        if nearest and abs(nearest[0]) > MAX_SCORE:  # beyond every --max-score: proven
            why = "every one is a proven win or loss for the side to move: fewer --plies, or a bigger board"
        near = f" (the value nearest 0: {format_value(nearest[0])})" if nearest else ""
        where = f"; {args.output} is not written" if args.output else ""
        return UsageError(f"no opening: none of the {total} position{'s' * (total != 1)} {plies} in has a value "
                          f"within +-{format_value(max_score)}{near}: {why}{where}")

    return line


#: judged openings written to a file go first to FILE + this, a line a position judged, renamed FILE at the end
PARTIAL = ".partial"
#: a line of the checkpoint for a position judged and not kept (the final file leaves these out)
REJECTED = "#- "


def _header(args: argparse.Namespace, game: Any, judge: str, max_score: float, total: int) -> str:
    """The two comment lines that open a file of judged openings (and its checkpoint, which they identify)."""
    from ..arena.openings import format_value

    sample = f" --sample {args.sample}" if args.sample else ""
    count = f" --count {args.count}" if args.count else ""
    seed = f" --seed {args.seed}" if sample or count else ""
    unit = "the solver's score" if judge == "solver" else f"{judge}'s value, in its unit"
    return (f"# zerosum openings --game {game.spec} --plies {args.plies} --max-score {format_value(max_score)} "
            f"--with {judge}{sample}{count}{seed}\n"
            f"# of the {total} positions {args.plies} {'ply' if args.plies == 1 else 'plies'} in{' (a sample)' if sample else ''}, "
            f"{f'the first {args.count} found in an order shuffled from the seed,' if count else 'those'} whose value is "
            f"within +-{format_value(max_score)}; the number after each is {unit} for the side to move\n")


def _command(args: argparse.Namespace) -> str:
    """The command that carries an interrupted run on: this one, as a shell would read it."""
    import shlex

    from ..arena.openings import format_value

    words = ["zerosum", "openings", "--game", args.game, "--plies", str(args.plies)]
    words += ["--with", args.evaluator] if args.evaluator is not None else []
    words += ["--max-score", format_value(args.max_score)] if args.max_score is not None else []
    words += ["--sample", str(args.sample)] if args.sample is not None else []
    words += ["--count", str(args.count)] if args.count is not None else []
    words += ["--seed", str(args.seed)] if args.seed else []
    return shlex.join([*words, "-o", args.output, *(["--overwrite"] if args.overwrite else [])])


def _judged(game: Any, evaluate: Any, order: list[Any], max_score: float, count: int | None, out: Any,
            kept: list[str], done: int, rejected: bool, said: Any) -> list[str]:
    """Judge ``order[done:]``, each line written and flushed as it is judged (the kept ones; ``rejected``:
    the others too, after :data:`REJECTED`), until ``count`` are kept; ``kept``, the kept lines, grown.
    Ctrl-C: a KeyboardInterrupt saying ``said(judged, kept)``, what the command line prints."""
    from ..arena.opening_files import play_opening
    from ..arena.openings import format_value, opening_line

    tty = sys.stderr.isatty()
    try:
        for seq in order[done:]:
            if count is not None and len(kept) >= count:
                break
            score = evaluate(play_opening(game, seq))
            line = opening_line(game, tuple(seq), format_value(score))
            if abs(score) <= max_score:
                kept.append(line)
                out.write(line + "\n")
            elif rejected:
                out.write(REJECTED + line + "\n")
            out.flush()
            done += 1
            if tty:
                print(f"\r{done}/{len(order)} positions judged", end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        if tty:
            print(file=sys.stderr)
        raise KeyboardInterrupt(said(done, len(kept))) from None
    if tty:
        print(file=sys.stderr)
    return kept


def _checkpoint(partial: str, header: str, total: int) -> list[str]:
    """The lines an interrupted run left in ``partial`` after ``header`` (none when there is no such file),
    less a torn last line; one line naming the file when it is another run's."""
    import os

    from ..core.files import read_text, shown
    from ..errors import InvalidFileError

    if not os.path.lexists(partial):
        return []
    lines = read_text(partial, "openings checkpoint").split("\n")[:-1]  # whole lines only
    head = header.split("\n")[:-1]
    body = lines[len(head):]
    if lines[:len(head)] != head or len(body) > total or not all(body):
        raise InvalidFileError(f"openings checkpoint {shown(partial)} is not this command's (it starts "
                               f"{(lines or [''])[0][:80]!r}): remove it to start again")
    return body


def _judged_to_file(args: argparse.Namespace, game: Any, evaluate: Any, order: list[Any], max_score: float,
                    header: str, none: Any) -> int:
    """Judged openings into ``args.output``: each line as it is judged into its checkpoint, FILE.partial, which
    a run of the same command goes on from; renamed FILE at the end.  The number of openings written; none
    kept is ``none()`` raised, with FILE not written and the checkpoint removed."""
    import os

    from ..core.files import atomic_output, open_append

    partial = args.output + PARTIAL
    body = _checkpoint(partial, header, len(order))
    with atomic_output(partial, overwrite=True, what="openings checkpoint") as fh:  # less any torn line
        fh.write(header + "".join(line + "\n" for line in body))
    kept = [line for line in body if not line.startswith("#")]

    def said(done: int, _: int) -> str:
        body = _checkpoint(partial, header, len(order))  # what the file holds, to the line
        held = sum(not line.startswith("#") for line in body)
        return (f"{len(body)} of {len(order)} positions judged, {held} opening{'s' * (held != 1)} kept in "
                f"{partial}; to carry on: {_command(args)}")

    with os.fdopen(open_append(partial, what="openings checkpoint"), "a", encoding="utf-8") as out:
        kept = _judged(game, evaluate, order, max_score, args.count, out, kept, len(body), True, said)
    if not kept:
        os.remove(partial)
        raise none()
    with atomic_output(args.output, overwrite=args.overwrite, checked=True) as fh:
        fh.write(header + "".join(line + "\n" for line in kept))
    os.remove(partial)
    return len(kept)


#: the most positions a ply :func:`_all_positions` keeps while it looks for every opening of a small game
MAX_LISTED = 200_000


def _distinct_openings(game: Any, number: int, plies: int, seed: int) -> tuple[list[Any], int | None]:
    """``number`` random openings ``plies`` in, each a different position (two move orders reaching the same
    position count once); when fewer exist, all of them and how many (else None)."""
    import random

    from ..arena.openings import random_openings

    kept: dict[Any, Any] = {}
    for opening in random_openings(game, number, plies, seed):  # distinct move orders, then the same again
        kept.setdefault(_state_after(game, opening), opening)
    if len(kept) >= number:
        return list(kept.values())[:number], None
    every = _all_positions(game, plies)
    if every is None:  # too many to list: what the random draws found
        return list(kept.values()), None
    rest = [opening for state, opening in every.items() if state not in kept]
    random.Random(f"zerosum-openings/{seed}").shuffle(rest)
    openings = [*kept.values(), *rest][:number]
    return openings, (len(every) if len(every) < number else None)


def _state_after(game: Any, opening: Any) -> Any:
    state = game.initial_state
    for action in opening:
        state = game.result(state, action)
    return state


def _all_positions(game: Any, plies: int) -> dict[Any, Any] | None:
    """Every open position ``plies`` in, each with the first move order found to it; None past
    :data:`MAX_LISTED` positions at a ply."""
    level: dict[Any, Any] = {game.initial_state: ()}
    for _ in range(plies):
        following: dict[Any, Any] = {}
        for state, moves in level.items():
            for action in game.actions(state):
                after = game.result(state, action)
                if after not in following:
                    following[after] = (*moves, action)
            if len(following) > MAX_LISTED:
                return None
        level = following
    return {state: moves for state, moves in level.items() if not game.is_terminal(state)}


COMMANDS = {"openings": (_add, _run)}
