"""What ``zerosum play`` draws: the board (plain text or rich colour) and where text goes (:class:`Output`).

Two ways to show a game.  **In place** (a terminal, unless ``--log``): each board is drawn over the last
one -- the screen cleared by cursor control, then the game's title, the moves so far, the board, and the
lines said since (the engine's move, an undo) -- so the board stays at the top and the typing goes under it.
**A scrolling log** (a pipe, a file, the tests, ``--log``, ``TERM=dumb``): every board and line printed after
the last, no escape codes, so a transcript reads like the session.
"""

from __future__ import annotations

import os
import select
import threading
from typing import Any, Callable, TextIO

from ..agents.prepare import hold
from ..game import BoardView, Game

__all__ = ["STYLE", "CLEAR", "QUIT", "Output", "Keys", "Quit", "mark", "render_plain", "render_rich", "while_keys"]

#: what quits (at a prompt, and typed while an engine prepares or thinks)
QUIT = ("q", "quit", "exit")

#: cursor control: home, then clear the screen (the frame of a redraw in place)
CLEAR = "\x1b[H\x1b[2J"

# colours of the two sides and of the highlights (rich styles)
STYLE = {1: "bold red", 2: "bold yellow", "empty": "grey42", "last": "on grey30", "win": "on dark_green",
         "header": "bold cyan", "dim": "grey50"}


def mark(game: Game[Any, Any], player: int) -> str:
    """The player's mark in plain text (``X``, ``>``)."""
    return game.MARKS[player - 1]


def _cell_text(view: BoardView, r: int, c: int, glyphs: tuple[str, str] | None = None) -> str:
    who = view.cells[r][c]
    if who:
        return (glyphs or view.marks)[who - 1]
    return view.cell_labels[r][c] if view.cell_labels else "."


def _widths(view: BoardView) -> tuple[int, int]:
    """The width of a cell and of the row labels."""
    labels = [len(x) for x in view.col_labels] + [len(x) for row in view.cell_labels for x in row]
    return max([1, *labels]), max([0, *(len(x) for x in view.row_labels)])


def render_plain(game: Game[Any, Any], state: Any, last: Any = None) -> str:
    """The board as plain text (no escape codes), drawn from the game's :class:`BoardView`: column labels
    over the cells, row labels before them, free cells by the name a person types (or ``.``), and a marker
    ``v`` over the column of the last move on boards where a move is named by its column."""
    view = game.board_view(state, last)
    width, rwidth = _widths(view)
    pad = " " * (rwidth + 1) if rwidth else ""
    lines = []
    if view.gravity and view.last:
        col = view.last[0][1]
        lines.append(pad + " ".join(("v" if c == col else " ").rjust(width) for c in range(view.cols)).rstrip())
    if view.col_labels:
        lines.append(pad + " ".join(x.rjust(width) for x in view.col_labels))
    for r in range(view.rows):
        head = view.row_labels[r].rjust(rwidth) + " " if rwidth else ""
        lines.append(head + " ".join(_cell_text(view, r, c).rjust(width) for c in range(view.cols)))
    return "\n".join(lines)


def render_rich(game: Game[Any, Any], state: Any, last: Any = None) -> Any:
    """The board as a rich ``Text``: coloured pieces, the last move and a winning line highlighted."""
    from rich.text import Text

    view = game.board_view(state, last)
    width, rwidth = _widths(view)
    width = max(2, width) if view.gravity else width
    win, moved = set(view.highlight), set(view.last)
    text = Text()
    last_col = view.last[0][1] if view.gravity and view.last else None
    if view.col_labels:
        text.append(" " * rwidth)
        for c, label in enumerate(view.col_labels):
            text.append(" " * (width + 1 - len(label)))
            text.append(label, style=STYLE["header"] + (" reverse" if c == last_col else ""))
        text.append("\n")
    for r in range(view.rows):
        if rwidth:
            text.append(view.row_labels[r].rjust(rwidth), style=STYLE["header"])
        for c in range(view.cols):
            who = view.cells[r][c]
            text.append(" ")
            if who:
                style = STYLE[who]
                if (r, c) in win:
                    style += " " + STYLE["win"]
                elif (r, c) in moved:
                    style += " " + STYLE["last"]
                text.append(view.glyphs[who - 1].rjust(width), style=style)
            else:
                text.append(_cell_text(view, r, c).rjust(width).replace(".", "·"),
                            style=STYLE["dim"] if view.cell_labels else STYLE["empty"])
        text.append("\n")
    text.rstrip()
    return text


class Output:
    """Where the session writes: plain text, or rich colour on a terminal."""

    def __init__(self, out: TextIO, color: bool, redraw: bool = False) -> None:
        self.out = out
        self.color = color
        self.redraw = redraw  # draw each board in place (a terminal), else a scrolling log
        self.notes: list[tuple[str, Any]] = []  # in place: the lines said since the last board
        self.console: Any = None
        if color:
            from rich.console import Console

            self.console = Console(file=out, force_terminal=True, highlight=False, soft_wrap=True)

    @property
    def closed(self) -> bool:
        """Whether the stream written to was closed (by a player's code, ``sys.stdout.close()``)."""
        return bool(getattr(self.out, "closed", False))

    def say(self, plain: str = "", rich: Any = None) -> None:
        """Print ``plain`` (or, in colour, ``rich`` -- markup text or a renderable -- when given)."""
        if self.redraw:
            self.notes.append((plain, rich))
        self._print(plain, rich)

    def _print(self, plain: str, rich: Any = None) -> None:
        if self.console is not None:
            self.console.print(plain if rich is None else rich)
        else:
            self.out.write(plain + "\n")
            self.out.flush()

    def prompt(self, plain: str, rich: str | None = None) -> str:
        if self.console is not None:
            from rich.text import Text

            return str(Text.from_markup(rich or plain))
        return plain

    def forget(self) -> None:
        """Drop the lines said since the last board: the next board drawn in place shows only what follows."""
        self.notes = []

    def frame(self, head: list[tuple[str, Any]], board: tuple[str, Any], fresh: bool = False) -> None:
        """Show a board.  In place: the screen cleared, ``head``, the board, then the lines said since the
        last board (none when ``fresh``: a person's move makes the earlier hints and errors stale).  In a log:
        the board printed after what came before (``head`` was said once at the start)."""
        if not self.redraw:
            self._print(*board)
            return
        notes, self.notes = ([] if fresh else self.notes), []
        if self.console is not None:
            self.console.clear()
        else:
            self.out.write(CLEAR)
        for line in [*head, board, *notes]:
            self._print(*line)


class Quit(Exception):
    """``q`` (``eof``: the end of input, Ctrl-D) typed while an engine prepared or thought: the game ends."""

    def __init__(self, eof: bool = False) -> None:
        super().__init__("end of input" if eof else "q")
        self.eof = eof


class Keys:
    """What a person types on a terminal while an engine prepares or thinks, read without blocking: the lines
    ended by Enter (the terminal's own line mode), None for the end of input (Ctrl-D)."""

    def __init__(self, stream: Any) -> None:
        self.fd = stream.fileno()

    def poll(self, timeout: float | None, wake: int | None = None) -> list[str] | None:
        """The lines typed within ``timeout`` seconds ([] for none; it returns early when ``wake``, a file
        descriptor, is readable), None at the end of input."""
        ready = select.select([self.fd, *([] if wake is None else [wake])], [], [], timeout)[0]
        if self.fd not in ready:
            return []
        data = os.read(self.fd, 4096)
        return data.decode(errors="replace").splitlines() if data else None


def while_keys(work: Callable[[], Any], keys: Keys | None, ignored: list[str]) -> Any:
    """``work()`` (an engine preparing and thinking) while ``keys`` are read: ``q`` or the end of input raises
    :class:`Quit` at once -- the work goes on in its daemon thread, which the exit waits for no more than a
    second (:func:`zerosum.agents.prepare.hold`) -- and any other line typed is ignored, added to
    ``ignored`` for the caller to say so.  Without ``keys`` (a pipe, a script): ``work()`` here."""
    if keys is None:
        return work()
    done: dict[str, Any] = {}
    wake, woken = os.pipe()

    def run() -> None:
        try:
            done["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            done["error"] = exc
        try:
            os.write(woken, b".")
        except OSError:  # the person quit meanwhile: nobody listens
            pass

    thread = threading.Thread(target=run, name="zerosum-thinking", daemon=True)
    hold(thread)
    thread.start()
    try:
        while not done:
            lines = keys.poll(None, wake)
            if lines is None:
                raise Quit(eof=True)
            for line in (x.strip() for x in lines):
                if line.lower() in QUIT:
                    raise Quit()
                if line:
                    ignored.append(line)
    finally:
        os.close(wake)
    thread.join()
    os.close(woken)
    if "error" in done:
        raise done["error"]
    return done["value"]
