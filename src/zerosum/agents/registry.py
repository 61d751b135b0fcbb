"""Agent names and spec strings: :func:`make_agent`, :func:`register_agent`, :func:`agent_names`.

The one loader of agents.  A spec is ``name[:option=value,...]`` (``"alphabeta:depth=6,eval=window"``) or
``path/to/file.py:name`` (a user's own agent; ``path/to/file.py`` alone plays its ``player``, else its only
function: :func:`named_file_spec`).  The agents zerosum ships are listed in :data:`BUILTIN` and
imported only when named, so naming ``random`` never loads numba; other packages (and zerosum's adapters,
such as OpenSpiel's ``openspiel-mcts``, which :mod:`zerosum` registers) add theirs with :func:`register_agent`.

This module stands above every engine it lists (the agents and the solver's agent); none of them imports it.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import fields
from typing import Any, Callable

from ..errors import AgentError
from ..game import Game
from ..spec import convert, listed, parse_spec, quoted
from .base import LIMIT_OPTIONS, SEED_OPTION, Agent, Limits, check_agent, check_search

__all__ = ["BUILTIN", "make_agent", "file_agent_parts", "named_file_spec", "build_agent", "register_agent", "agent_names", "agent_class", "strongest_agent_spec",
           "opponents", "plays_itself", "FunctionAgent"]

#: the agents zerosum ships: name -> (module, class), imported when the name is first used
BUILTIN: dict[str, tuple[str, str]] = {
    name: (module, cls)
    for module, classes in (
        ("zerosum.agents.simple", {"random": "RandomAgent", "first": "FirstAgent", "human": "HumanAgent"}),
        ("zerosum.agents.minimax", {"minimax": "MinimaxAgent"}),
        ("zerosum.agents.alphabeta", {"alphabeta": "AlphaBetaAgent"}),
        ("zerosum.agents.mcts", {"mcts": "MCTSAgent"}),
        ("zerosum.solver.agent", {"solver": "SolverAgent"}),
    )
    for name, cls in classes.items()
}

Loader = Callable[[], "type[Agent] | None"]


def _from_module(module_name: str, attr: str) -> Loader:
    """A loader of ``module_name.attr``: None when that module (an optional extra) is not installed."""

    def load() -> type[Agent] | None:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None
            raise
        return getattr(module, attr, None)

    return load


_REGISTRY: dict[str, Loader] = {name: _from_module(*target) for name, target in BUILTIN.items()}
#: why a registered name cannot be had here, and how to have it (``register_agent(..., missing=)``)
_MISSING: dict[str, str] = {}


def register_agent(name: str, target: str | type[Agent] | Loader, missing: str = "") -> None:
    """Make ``name`` usable in specs.

    ``target``: an :class:`Agent` class; ``"module:Class"`` (imported when the name is first used); or a
    function of no arguments that returns the class, or None when it cannot be had here (a missing extra).
    ``missing``: what a spec naming it is told where it cannot be had (how to install it).
    """
    if missing:
        _MISSING[name] = missing
    if isinstance(target, str):
        module_name, _, attr = target.partition(":")
        if not module_name or not attr:
            raise AgentError(f"register_agent({name!r}, {target!r}): expected 'module:Class'")
        _REGISTRY[name] = _from_module(module_name, attr)
    elif isinstance(target, type):
        cls = target
        _REGISTRY[name] = lambda: cls
    elif callable(target):
        _REGISTRY[name] = target
    else:
        raise AgentError(f"register_agent({name!r}, ...): expected an Agent class, 'module:Class' or a loader")


def agent_class(name: str) -> type[Agent] | None:
    """The class registered as ``name``, or None (unknown, or its module is not installed)."""
    load = _REGISTRY.get(name)
    cls = load() if load is not None else None
    return cls if isinstance(cls, type) and issubclass(cls, Agent) else None


def agent_names() -> list[str]:
    """The agent names that specs can use on this installation."""
    return [name for name in _REGISTRY if agent_class(name) is not None]


def opponents() -> list[tuple[str, type[Agent]]]:
    """``(spec, class)`` of every installed agent that declares how it is offered as an opponent
    (``TRAITS.opponent``), strongest (``TRAITS.strength``) first; ties in registration order."""
    found = []
    for name in list(_REGISTRY):
        cls = agent_class(name)
        offered = cls.TRAITS.opponent if cls is not None else None
        if cls is not None and offered is not None:
            found.append((name + (":" + offered[0] if offered[0] else ""), cls))
    found.sort(key=lambda pair: -pair[1].TRAITS.strength)  # stable: ties keep the registration order
    return found


def plays_itself(cls: type[Agent], game: Game[Any, Any]) -> bool:
    """Whether agent class ``cls`` moves itself on ``game``: an agent of exact values (``TRAITS.exact``) only
    where the exact solver takes the game (``game.traits.solver``); others everywhere."""
    return not cls.TRAITS.exact or game.traits.solver


def strongest_agent_spec(game: Game[Any, Any]) -> str:
    """The strongest agent this installation has for ``game`` (the default opponent of ``zerosum play``): the
    first of :func:`opponents` that moves itself on ``game``."""
    return next((spec for spec, cls in opponents() if plays_itself(cls, game)), "random")


class FunctionAgent(Agent):
    """Wraps a plain callable ``f(game, state) -> action`` (the classic player convention), or a one-argument
    ``player(board)`` from an agent file (the 8 x 8 homework's contract: :mod:`zerosum.agents.homework`).

    In the arena, under a node limit (``limits.nodes``, or the run's ``--nodes``) or with a declared search
    function (``NODES_COUNTED_BY``: in its agent file, or for a function handed over in Python in the module
    that defines it), its nodes are counted (:mod:`zerosum.arena.counting`).  A function from
    an agent file plays with the modules of its file's folder found first (in its own thread:
    :func:`.homework.sibling_imports`) and its sibling modules at hand."""

    name = "function"
    LIMITS = ("nodes",)

    def __init__(self, func: Callable[..., Any], spec: str = "function",
                 limits: Limits | None = None) -> None:
        super().__init__(limits=limits)
        self.func = func
        self.spec = spec
        #: the homework's board adapter, when ``func`` is a one-argument ``player(board)``
        self.board: Any = None
        #: the search function its file or module declares (``NODES_COUNTED_BY``), else None
        self.declared: Any = None
        #: the agent file's folder and the modules it imported from there (None: not from a file)
        self.folder: str | None = None
        self.siblings: dict[str, Any] = {}

    def check_game(self, game: Game[Any, Any]) -> None:
        """One AgentError line for a game the function cannot play: the homework's ``player(board)`` plays
        Connect-X boards only (the arena asks before its first game)."""
        if self.board is not None:
            self.board.check_game(game)

    def warm_up(self, game: Game[Any, Any]) -> None:
        self.check_game(game)

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        check_search(self.spec, game, state)
        if self.folder is None:
            return self.func(game, state) if self.board is None else self.board.move(game, state)
        from .homework import sibling_imports

        with sibling_imports(self.folder, self.siblings):
            return self.func(game, state) if self.board is None else self.board.move(game, state)


def file_agent_parts(spec: str) -> tuple[str, str] | None:
    """``(path, name)`` when ``spec`` names an agent in a file (``path/to/file.py:name``: the path comes
    before the first colon), else None (``minimax:eval=f.py:fn`` is a built-in agent with an option)."""
    text = spec.strip()
    head, sep, _ = text.partition(":")
    if not sep or not head.endswith(".py"):
        return None
    path, _, attr = text.rpartition(":")
    return path, attr


def named_file_spec(spec: str) -> str:
    """``spec`` with its agent file's function named: ``path/to/file.py`` alone stands for
    ``path/to/file.py:ENTRY``, ENTRY as :func:`.homework.entry_function` finds it (``player``, else the file's
    only function).  Any other spec, and a file that is not there, come back unchanged; AgentError (one
    line) when the file has no such function, or is no file to read (a FIFO, a device, too big)."""
    text = spec.strip()
    if ":" in text or not text.endswith(".py") or not os.path.lexists(text):
        return spec
    from .homework import entry_function

    return f"{text}:{entry_function(text)}"


def _load_file_agent(spec: str, limits: Limits | None = None) -> Agent:
    from ..core.files import load_user_module
    from .homework import BoardPlayer, check_arity, declared_counter, sibling_imports, takes_board

    path, _, attr = spec.rpartition(":")
    if not os.path.lexists(path):  # anything else there (a FIFO, a device) is named by load_user_module
        raise AgentError(f"agent file {quoted(path)} not found (expected path/to/file.py:name)")
    folder = os.path.dirname(os.path.abspath(path))
    siblings: dict[str, Any] = {}
    with sibling_imports(folder, siblings):  # the file imports the modules beside it, and only its own
        module = load_user_module(path)
    obj = getattr(module, attr, None)
    if obj is None:
        raise AgentError(f"{quoted(path)} has no {quoted(attr)}")
    try:
        if isinstance(obj, type) and issubclass(obj, Agent):
            obj = obj()
    except Exception as exc:  # a user class whose constructor fails
        from ..core.files import describe_exception

        raise AgentError(f"{quoted(spec)} could not be made: {describe_exception(exc)}") from None
    if not callable(obj):
        raise AgentError(f"{quoted(spec)} is not callable: an agent is f(game, state) -> action")
    if isinstance(obj, Agent):
        obj.spec = spec
        return obj
    check_arity(obj, f"{os.path.basename(path)}:{attr}")
    agent = FunctionAgent(obj, spec, limits)
    agent.folder, agent.siblings = folder, siblings
    agent.declared = declared_counter(module, obj, path)
    if takes_board(obj):
        agent.board = BoardPlayer(obj, f"{os.path.basename(path)}:{attr}")
    return agent


def make_agent(
    spec: "str | Agent | Callable[..., Any]",
    *,
    seed: int | None = None,
    limits: Limits | None = None,
) -> Agent:
    """The agent named by ``spec`` (``"alphabeta:depth=6,eval=window"``, ``"random"``, ``"file.py:name"``,
    ``"file.py"``: its ``player``, else its only function).

    ``seed`` and ``limits`` are defaults that options in the spec override.  An :class:`Agent` passes
    through; a plain callable is wrapped.  Unknown names and bad options raise :class:`AgentError`.
    """
    check_agent("make_agent", limits, seed)
    if isinstance(spec, Agent):
        return spec
    if callable(spec) and not isinstance(spec, str):
        from .homework import BoardPlayer, check_arity, declared_counter, defining_module, takes_board

        check_arity(spec, f"{getattr(spec, '__name__', 'the function')}")
        agent = FunctionAgent(spec, getattr(spec, "__name__", "function"), limits)
        module = defining_module(spec)  # its NODES_COUNTED_BY, read as an agent file's is
        agent.declared = None if module is None else declared_counter(module[0], spec, module[1])
        if takes_board(spec):  # the homework's player(board), handed over in Python
            agent.board = BoardPlayer(spec, f"{agent.spec}(board)")
        return agent
    if not isinstance(spec, str):
        raise AgentError(f"an agent spec is a string, not {type(spec).__name__}")
    head = spec.strip().partition(":")[0]  # a file's path: before the first colon (eval=f.py:fn is an option)
    if head.endswith(".py"):
        named = named_file_spec(spec).strip()
        if named.endswith(".py"):  # the file is not there
            raise AgentError(f"agent file {quoted(named)} not found (expected path/to/file.py or path/to/file.py:name)")
        return _load_file_agent(named, limits)
    name, raw = parse_spec(spec, AgentError)
    return build_agent(name, raw, spec, seed=seed, limits=limits)


def build_agent(name: str, raw: dict[str, str], spec: str, *, seed: int | None = None,
                limits: Limits | None = None) -> Agent:
    """The agent ``name`` with options ``raw`` (text, as :func:`zerosum.spec.parse_spec` gives them), its
    spec ``spec``: :func:`make_agent` after the parse, for callers that parsed (and checked) a spec already."""
    cls = agent_class(name)
    if cls is None and name in _REGISTRY:  # registered, and not installed here (an extra)
        raise AgentError(f"agent {quoted(name)} is not available here: "
                         f"{_MISSING.get(name) or 'what it needs is not installed'}")
    if cls is None:
        known = listed(agent_names())
        where = f" in {quoted(spec)}" if spec.strip() != name else ""
        raise AgentError(f"unknown agent {quoted(name)}{where}: choose one of {known}")
    limit_values: dict[str, Any] = {}
    if limits is not None:
        limit_values = {f.name: getattr(limits, f.name) for f in fields(limits)}
    kwargs: dict[str, Any] = {}
    for key, text in raw.items():
        if key in LIMIT_OPTIONS and LIMIT_OPTIONS[key][0] in cls.LIMITS:
            field_name, opt = LIMIT_OPTIONS[key]
            limit_values[field_name] = convert(key, text, opt.kind, AgentError, spec, opt.check, opt.expect)
        elif key == "seed":
            seed = convert(key, text, int, AgentError, spec, SEED_OPTION.check, SEED_OPTION.expect)
        elif key in cls.OPTIONS:
            opt = cls.OPTIONS[key]
            kwargs[key] = convert(key, text, opt.kind, AgentError, spec, opt.check, opt.expect)
        else:
            accepted = [k for k, (f, _) in LIMIT_OPTIONS.items() if f in cls.LIMITS] + ["seed", *cls.OPTIONS]
            raise AgentError(f"agent {name!r} has no option {quoted(key)} (options: {', '.join(accepted)})")
    agent_limits = Limits(**{k: v for k, v in limit_values.items() if v is not None})
    agent = cls(limits=agent_limits, seed=seed, **kwargs)
    agent.spec = spec.strip()
    return agent
