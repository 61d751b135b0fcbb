"""What an agent declares about itself, as data: the faces and the arena draw from these, never from names.

Every agent class carries one :class:`AgentTraits` as ``TRAITS`` (:class:`zerosum.agents.base.Agent` holds
the defaults: an agent that says nothing is shown under its name, is not offered by the server, and has no
values to word).  A face asks:

- ``label`` / ``short``: what people read (the page's opponent list, the report's tables);
- ``traced``: :func:`zerosum.trace.trace` follows its search node by node (the page's and the command's
  "why?"); ``counts`` names what its ``nodes`` count and ``chooses`` why it plays the move it plays when
  that is not its score;
- ``values``: the unit and range of its values (:class:`ValueUnit`), and how an estimate is said;
- ``exact`` / ``plays`` / ``fallback``: its values are proofs from the exact solver, which takes only the
  games whose :attr:`~zerosum.game.GameTraits.solver` holds (``plays`` says which, for people); elsewhere
  the agent named ``fallback`` moves for it;
- ``server``: what the page may ask of it (:class:`ServerTraits`; None: the page never offers it), and
  ``opponent`` / ``strength``: whether the page offers it as an opponent and in what order (strongest first;
  ``zerosum play``'s default opponent is the strongest that plays the game itself).

The option ranges the server allows are derived from the agent's own options
(:func:`zerosum.agents.base.server_options`): ``ServerTraits.caps`` only narrows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

__all__ = ["AgentTraits", "ValueUnit", "ServerTraits", "PROOF", "ESTIMATE", "MEAN"]

#: the kinds of value an agent reports (``ValueUnit.kind``)
PROOF, ESTIMATE, MEAN = "proof", "estimate", "mean"


@dataclass(frozen=True, kw_only=True)
class ValueUnit:
    """The unit and range of an agent's values (from the side to move's view).

    ``kind``: ``"proof"`` (exact values: a proven win or loss with its distance, a draw 0),
    ``"estimate"`` (a heuristic, centipawn-like number within ``low..high``; a proven win or loss scores
    beyond it) or ``"mean"`` (the mean result of simulations, -1 loss .. +1 win).  ``words``: what one
    estimate is, for people, a template over ``name``, ``label``, ``spec``, ``depth`` and ``nodes``
    (``"{name} depth {depth} estimate"``).
    """

    kind: str = ESTIMATE
    low: float = -1_000_000
    high: float = 1_000_000
    words: str = "{name} depth {depth} estimate"

    def describe(self, *, name: str, label: str, spec: str, depth: int, nodes: int) -> str:
        """What one estimate of this unit is (``words`` filled in); a search without a depth says its spec."""
        if "{depth}" in self.words and not depth:
            return f"{spec} estimate"
        return self.words.format(name=name, label=label, spec=spec, depth=depth, nodes=nodes)


@dataclass(frozen=True, kw_only=True)
class ServerTraits:
    """What the page may ask of an agent, beside its own option ranges.

    ``caps``: option -> (lowest, highest), narrower than the agent's own range (``depth``: 1..8);
    ``refuses``: options the page may not set (``threads``); ``defaults``: options the page sets when a spec
    does not (``tt``: a smaller table than the agent's own default).
    """

    caps: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    refuses: tuple[str, ...] = ()
    defaults: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class AgentTraits:
    """An agent's declared traits (see the module docstring); every field has a default."""

    label: str = ""  # for people ("alpha-beta"); "" -> the agent's name
    short: str = ""  # a compact label for narrow tables ("ab"); "" -> the agent's name
    traced: bool = False
    counts: str = "nodes"  # what SearchResult.nodes counts ("simulations" for MCTS)
    chooses: str = ""  # why it plays its move when not for its score, in words ("the move it visited most")
    values: ValueUnit | None = None  # None: the agent does not search, so it reports no values
    exact: bool = False  # its values are the exact solver's proofs
    plays: str = ""  # exact agents: the games it plays itself, for people
    fallback: str = ""  # exact agents: the agent (its name) that moves for it on a game the solver does not take
    server: ServerTraits | None = None  # None: the page never offers it
    #: (options, label) of the agent as the page offers it: ``("time=1", "alpha-beta, 1 s a move")``
    opponent: tuple[str, str] | None = None
    strength: int = 0  # the order of the opponents, strongest (largest) first
