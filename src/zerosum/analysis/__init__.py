"""The analysis service: one object per process and game that owns the solver, its table and its book, and
answers "analyse this position" for every face (the terminal's hints, the page, ``zerosum analyze``,
``bench analysis``, explain) and for the solver agent and the arena's adjudication.

>>> from zerosum import ConnectX, analysis
>>> game = ConnectX()
>>> found = analysis.service(game).analyse(game.from_moves("4453"))
>>> found.engine, found.exact, game.format_action(found.best), found.kind(found.best), found.distance(found.best)
('the solver', True, '3', 'exact', 36)

* :func:`service` ``(game)`` is the process's :class:`Service` of that game (one a game spec, made at first
  use; importing this package loads no compiled code).  ``Service.solver`` is its solver (None where the
  solver does not take the game), made at first use with the largest table anyone asked for; the solver agent
  (``zerosum.solver.agent``) borrows the same one (:meth:`Service.borrowed`), so what a hint proves warms the
  engine's table and the other way round.
* :meth:`Service.analyse` answers an :class:`Analysis`: every legal move's value as an agent value, its kind
  (``exact``, ``class``: win/draw/loss proven, distance not yet; ``estimate``), a proven win's or loss's
  distance in plies, the best move (the highest value; ties to the centre-most column on boards with gravity,
  else the game's first: ``result.centre_order``), nodes, seconds and who answered (``engine``).  Where the
  solver takes the game it is exact; given ``seconds`` it is progressive (each column's win/draw/loss, then its
  exact score, ``on_update`` seeing each), stoppable (``stop``), and resumable: the answer's
  :attr:`Analysis.progress` is plain data that ``analyse(state, resume=progress)`` continues in any process
  (:mod:`.progress`: a ``resume`` the service did not hand out goes on in a run of its own, never in the one
  it keeps for everyone).  Elsewhere alpha-beta estimates every move (:mod:`.estimate`) -- and so it does,
  with a note, for a progressive analysis (or one given alpha-beta's ``time``: a person waits) of an early
  position of a board past 64 bits (:meth:`Service.reaches`: at most ``REACH`` empty cells, 8 x 8 from ply
  24), which the solver would take hours to prove; only an untimed ``analyse(state)`` proves it anyway.
* :meth:`Service.from_book` says whether the opening book scores every move of a position;
  :meth:`Service.prove` is the adjudicator's node-bounded ruling (:func:`prove`), on a bookless table of its
  own (docs/architecture.md says why it is the one exception).

Values are not worded here: the faces word them (``zerosum.ui``).
"""

from __future__ import annotations

from .engine import DEFAULT_TABLE, ESTIMATE_TIME, MAX_RUNS, REACH, SOLVER_NAME, Service, prove, service
from .estimate import estimating_agent
from .progress import parse, token
from .result import CLASS, ESTIMATE, EXACT, Analysis

__all__ = ["service", "Service", "Analysis", "prove", "parse", "token", "estimating_agent",
           "EXACT", "CLASS", "ESTIMATE", "SOLVER_NAME", "ESTIMATE_TIME", "MAX_RUNS", "DEFAULT_TABLE", "REACH"]
