"""The search behind ``zerosum engine`` (:mod:`.engine`): each ``go`` runs in a child process forked from the
engine ahead of time, with the agent warmed up, so that a ``go`` costs no fork and a ``stop`` can kill it; a
search that ends by itself leaves its process for the next ``go`` (whose pages are its own by then).

:class:`SearchProcess` is one such child: it waits for jobs (the game, the position, the limits and when
the ``go`` came), searches each, and reports each finished iteration; an agent that honours a depth deepens one
ply an iteration within what is left of the budget.  Values: ``score exact S`` for a proven result (the
solver's convention on the games the solver takes, elsewhere 1, 0 or -1), ``score est E`` otherwise.  Every
``info`` line's ``time`` counts from the ``go``.

:class:`SearchThread` is the search of a move whose time runs while the engine still prepares its compiled
code (:mod:`.engine_prepare`), when no child may be forked: in a thread of the engine, with a fresh agent of
the same spec, in one search (no iterations), the agent waiting for the code within its own time limit.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from typing import Any, Iterator

from ..external import protocol as p

__all__ = ["SearchProcess", "SearchThread", "fork_search", "iterations", "one_line", "SEARCH_PROCESS"]

#: the name of every search process (the engine kills any left at its end by that name)
SEARCH_PROCESS = "zerosum-engine-search"


def one_line(text: str, limit: int = 500) -> str:
    """``text`` as one printable line of at most ``limit`` characters (an error line's text)."""
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return (text[:limit] + "...") if len(text) > limit else (text or "(no message)")


class SearchProcess:
    """A child forked from the engine now, waiting for the searches it will run, one at a time (:meth:`start`)."""

    def __init__(self, agent: Any) -> None:
        import gc

        gc.freeze()  # the child's collector leaves the engine's objects (and their pages) alone
        context = multiprocessing.get_context("fork")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, os.getpid(), agent), daemon=True,
                                       name=SEARCH_PROCESS)
        try:
            self.process.start()
        except BaseException:  # no process (over a process limit): no pipe left open either
            self.conn.close()
            raise
        finally:
            theirs.close()

    def start(self, game: Any, state: Any, ply: int, limits: Any, start: float) -> None:
        """Search ``state`` (``ply`` moves from the start) within ``limits``, the go having come at ``start``."""
        self.conn.send((game, state, ply, limits, start))

    def freeze(self, wait: float) -> None:
        """Stop the child where it is (``SIGSTOP``) and wait, at most ``wait`` seconds, until it has stopped or
        ended: from then on it writes nothing.  Quicker than :meth:`kill`, which waits while the kernel frees a
        big search's memory (10 ms and more).  (Where the system has no ``waitid``, macOS, it kills the child
        and waits for that instead.)"""
        pid = self.process.pid
        if pid is None:
            return
        if not hasattr(os, "waitid"):  # pragma: no cover - not on Linux
            self.process.kill()
            self.process.join(wait)
            return
        end = time.monotonic() + wait
        try:
            os.kill(pid, signal.SIGSTOP)
            while (os.waitid(os.P_PID, pid, os.WSTOPPED | os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
                   and time.monotonic() < end):
                time.sleep(0.0002)
        except OSError:  # already reaped
            pass

    def kill(self) -> None:
        """SIGKILL the child and reap it (at most 5 s): by its id, not by ``join``, whose pipe a process the
        child's search started and left running (a player that forks) would hold open for the whole wait."""
        try:
            self.process.kill()
            end = time.monotonic() + 5
            while self.process.exitcode is None and time.monotonic() < end:  # waitpid, without blocking
                time.sleep(0.0005)
            self.conn.close()
        except (OSError, ValueError):  # pragma: no cover - already gone
            pass

    def ended(self) -> str:
        """`` (killed by signal 11, SIGSEGV)`` or `` (exit code 3)`` once the child is gone, else ''."""
        self.process.join(0.5)
        code = self.process.exitcode
        if code is None:
            return ""
        if code < 0:
            try:
                return f" (killed by signal {-code}, {signal.Signals(-code).name})"
            except ValueError:
                return f" (killed by signal {-code})"
        return f" (exit code {code})"


def fork_search(agent: Any) -> SearchProcess | str:
    """A new :class:`SearchProcess` for ``agent``, or why none could be forked, in one line: the system's
    limit on processes or memory (a contest seat's, which a fork bomb the last search left behind fills)."""
    try:
        return SearchProcess(agent)
    except (OSError, RuntimeError) as exc:
        return one_line(f"cannot start its search process: {getattr(exc, 'strerror', None) or exc}")


class SearchThread:
    """One search in a thread of the engine (:meth:`start`), with the face of :class:`SearchProcess`: ``conn``
    to read its reports from.  A thread cannot be stopped: :meth:`freeze` and :meth:`kill` let it go (it reports
    nothing after them) and it ends by its own time limit, a daemon :func:`~zerosum.agents.prepare.hold` knows
    of (a command that ends waits for it a second at most).  Its agent is a fresh one of ``agent``'s spec, so the engine's
    own is never searched by two threads."""

    def __init__(self, agent: Any) -> None:
        from ..agents.registry import make_agent

        self.agent = make_agent(agent.spec)
        self.conn, self._theirs = multiprocessing.Pipe(duplex=False)
        self._gone = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self, game: Any, state: Any, ply: int, limits: Any, start: float) -> None:
        """Search ``state`` (``ply`` moves from the start) within ``limits``, the go having come at ``start``."""
        from ..agents.prepare import hold

        self.thread = threading.Thread(target=self._search, args=(game, state, ply, limits, start), daemon=True,
                                       name="zerosum-engine-search")
        self.thread.start()
        hold(self.thread)

    def _search(self, game: Any, state: Any, ply: int, limits: Any, start: float) -> None:
        try:
            for info, move in iterations(self.agent, game, state, ply, limits, start, deepen=False):
                self._send(("info", info, move))
            self._send(("done", None, None))
        except BaseException as exc:  # noqa: BLE001 - the agent's failure is reported, never a traceback
            self._send(("error", None, failure(exc)))
        finally:
            self._theirs.close()

    def _send(self, report: tuple[str, Any, Any]) -> None:
        if not self._gone.is_set():
            try:
                self._theirs.send(report)
            except OSError:  # let go meanwhile
                pass

    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def freeze(self, wait: float) -> None:
        self._gone.set()

    def kill(self) -> None:
        self._gone.set()
        try:
            self.conn.close()
        except OSError:  # pragma: no cover - closed already
            pass

    def ended(self) -> str:
        return ""


def failure(exc: BaseException) -> str:
    """An agent's failure in one line: the homework's answer that is no column in its forfeit's words
    (``kind``), else the exception's type and text."""
    kind = getattr(exc, "kind", None)
    return one_line(f"{kind}: {exc}" if isinstance(kind, str) else f"{type(exc).__name__}: {exc}")


def _serve(conn: Any, parent: int, agent: Any) -> None:
    """The child: for each job, search and send ``("info", Info, move)`` per finished iteration, then
    ``("done", None, None)``; or ``("error", None, why)``, and end."""
    from ..core.processes import die_with_parent

    die_with_parent(parent)
    os.dup2(2, 1)  # nothing the agent prints reaches the protocol's output
    while True:
        try:
            game, state, ply, limits, start = conn.recv()
        except (EOFError, OSError):  # the engine let this process go
            return
        try:
            for info, move in iterations(agent, game, state, ply, limits, start):
                conn.send(("info", info, move))
            conn.send(("done", None, None))
        except BaseException as exc:  # noqa: BLE001 - the agent's failure is reported, never a traceback
            conn.send(("error", None, failure(exc)))
            return


def iterations(agent: Any, game: Any, state: Any, ply: int, limits: Any, start: float, deepen: bool = True
               ) -> Iterator[tuple[Any, str]]:
    """The search's results, one an iteration (``deepen``: of an agent that honours a depth; else one search);
    its time and every ``info`` line's count from ``start`` (``time.monotonic``, the go)."""
    from ..agents.base import SearchAgent

    deadline = None if limits.time is None else start + limits.time
    if deadline is not None:  # what the fork, the pipe or a wait for the code took is the move's time too
        limits = limits.replace(time=max(0.001, deadline - time.monotonic()))
    if not isinstance(agent, SearchAgent):
        yield _info(game, state, ply, None, 0, start, agent(game, state))
        return
    honours = agent.LIMITS
    if (not deepen or "depth" not in honours
            or all(getattr(limits, f) is None for f in ("depth", "nodes", "time"))):
        agent.limits = limits
        found = agent.search(game, state)
        yield _info(game, state, ply, found, found.nodes, start, found.action)
        return
    cells = getattr(game, "cells", None)
    deepest = limits.depth or (cells - ply if isinstance(cells, int) and cells > ply else 10_000)
    nodes = 0
    for depth in range(1, deepest + 1):
        left = None if deadline is None else deadline - time.monotonic()
        budget = None if limits.nodes is None else limits.nodes - nodes
        if (left is not None and left <= 0.001) or (budget is not None and budget < 1):
            return
        agent.limits = limits.replace(depth=depth, nodes=budget, time=left)
        found = agent.search(game, state)
        nodes += found.nodes
        if found.depth < depth and depth > 1:  # cut short by the budget: the last full depth's move stands
            yield p.Info(nodes=nodes, time=int((time.monotonic() - start) * 1000)), ""
            return
        yield _info(game, state, ply, found, nodes, start, found.action)
        if found.exact or found.depth < depth:  # proven, or cut short at depth 1
            return


def _info(game: Any, state: Any, ply: int, found: Any, nodes: int, start: float, action: Any) -> tuple[Any, str]:
    """The ``info`` line of a search result (None: an agent that does not search) and its move's text."""
    from ..values import is_proven, value_to_score

    move = game.format_action(action)
    elapsed = int((time.monotonic() - start) * 1000)
    if found is None:
        return p.Info(time=elapsed), move
    score: dict[str, Any] = {}
    value = found.value
    if found.exact and (value == 0 or is_proven(value)):
        if game.traits.solver and isinstance(getattr(game, "cells", None), int):
            score["exact"] = value_to_score(int(value), ply, game.cells)
        else:
            score["exact"] = (value > 0) - (value < 0)
    else:
        score["est"] = float(value)
    pv = None
    try:
        after = state
        for step in found.pv:  # only a line of legal moves from the position is sent
            after = game.result(after, step)
        pv = game.format_moves(list(found.pv)) or None
    except Exception:  # noqa: BLE001 - a pv the rules refuse is left out
        pass
    return p.Info(depth=max(0, int(found.depth)), nodes=max(0, int(nodes)), time=elapsed, pv=pv, **score), move
