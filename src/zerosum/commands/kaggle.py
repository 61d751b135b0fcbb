"""``zerosum kaggle-agent SPEC -o main.py``: a single-file Kaggle ConnectX submission (see
:mod:`zerosum.interop.kaggle`, which loads inside ``run``)."""

from __future__ import annotations

import argparse
import sys

__all__ = ["COMMANDS"]

#: the solver's opening agent unless ``--opening`` names another (then the command's last line names it)
OPENING = "alphabeta"


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", nargs="?", default="solver", metavar="SPEC",
                        help="the agent to submit (default: solver), e.g. 'alphabeta:depth=8', 'mcts:time=1'")
    parser.add_argument("-o", "--output", default="main.py", metavar="FILE",
                        help="where to write the submission (default: main.py)")
    parser.add_argument("--overwrite", action="store_true", help="replace FILE when it exists")
    parser.add_argument("--opening", default=OPENING, metavar="SPEC",
                        help="for the solver: the agent that plays until 28 cells are empty (default: alphabeta; "
                        "'alphabeta:fast=0' spares compiling it on the first move, at some strength)")


def _run(args: argparse.Namespace) -> int:
    from ..agents.prepare_words import said_while
    from ..core.files import shown
    from ..interop.kaggle import write_submission
    from .inputs import check_inputs, spec_inputs

    check_inputs([*spec_inputs(args.spec), *spec_inputs(args.opening)],  # never the agent's own file
                 [(args.output, f"-o {shown(args.output)}", "name another file for the submission", ())])
    # 3-10 s, mostly compressing (the solver's opening book): said once past 2 s, not a silent wait
    with said_while(f"writing {shown(args.output)}: finding the modules the agent needs and compressing them"):
        out = write_submission(args.output, args.spec, opening=args.opening, overwrite=args.overwrite)
    size = out.stat().st_size
    opening = "" if args.opening == OPENING else f", opening agent {args.opening!r}"  # refused for others
    print(f"wrote {out} ({size / 1024:.0f} KiB): Kaggle ConnectX agent {args.spec!r}{opening}", file=sys.stderr)
    return 0


COMMANDS = {"kaggle-agent": (_add_arguments, _run)}
