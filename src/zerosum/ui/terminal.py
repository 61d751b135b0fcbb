"""``zerosum play``: a game in the terminal -- a person against an agent, two people, or two agents.

Keys at a person's turn: a move in the game's notation (its ``MOVES_HELP``: a column number for Connect-X,
a cell 1..9 for Tic-Tac-Toe, the stone ``x,y`` for Migration), ``h`` a hint (the best move and every move's
score), ``u`` undo (a full move against an engine), ``s`` save (print the move string), ``q`` quit, ``?`` help.

It reads moves line by line, so it works the same at a keyboard and in a script:
``printf '4\\n4\\nq\\n' | zerosum play``.  Colour (rich) only when the output is a terminal and neither
``--no-color`` nor ``NO_COLOR`` is set; otherwise plain text without escape codes.  Bad input is explained
and asked again; the end of input ends the game cleanly (exit status 0).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

from rich.markup import escape

from ..agents.base import Agent
from ..agents.registry import make_agent, strongest_agent_spec
from ..core.processes import usable_cores
from ..errors import IllegalMoveError, UsageError
from ..game import BoardView, Game
from ..games import get_game
from .analysis import Analysis, EngineMove
from .hints import hint_analysis, show_hint, think

__all__ = ["PlaySession", "play", "render_plain", "render_rich"]

Reader = Callable[[str], "str | None"]

QUIT = ("q", "quit", "exit")
UNDO = ("u", "undo")
HINT = ("h", "hint")
SAVE = ("s", "save")
HELP = ("?", "help")

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

    def __init__(self, out: TextIO, color: bool) -> None:
        self.out = out
        self.color = color
        self.console: Any = None
        if color:
            from rich.console import Console

            self.console = Console(file=out, force_terminal=True, highlight=False, soft_wrap=True)

    def say(self, plain: str = "", rich: Any = None) -> None:
        """Print ``plain`` (or, in colour, ``rich`` -- markup text or a renderable -- when given)."""
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

    def thinking(self, what: str) -> Any:
        """A context manager showing a spinner in colour mode (nothing in plain mode)."""
        import contextlib

        if self.console is not None and self.out.isatty():
            return self.console.status(what, spinner="dots")
        return contextlib.nullcontext()


@dataclass
class PlaySession:
    """One game at the terminal: the seats, the moves so far, and where text goes."""

    game: Game[Any, Any]
    seats: dict[int, Agent | None]  # None: a person at the keyboard
    read: Reader
    output: Output
    actions: list[Any] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    hint_time: float = 1.0
    solver_time: float = 10.0
    analyzer: Callable[..., Analysis] = hint_analysis

    def __post_init__(self) -> None:
        if not self.states:
            self.states = self.game.states_of(self.actions)

    # ---- small helpers -----------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def last(self) -> Any:
        return self.actions[-1] if self.actions else None

    def say(self, plain: str = "", rich: Any = None) -> None:
        self.output.say(plain, rich)

    def who(self, player: int) -> str:
        seat = self.seats[player]
        role = "you" if seat is None and sum(s is None for s in self.seats.values()) == 1 else (
            f"player {player}" if seat is None else seat.spec)
        return f"{mark(self.game, player)} ({role})"

    def who_rich(self, player: int) -> str:
        return f"[{STYLE[player]}]{escape(self.who(player))}[/]"

    def show(self) -> None:
        game, state = self.game, self.state
        if self.output.color:
            self.say(rich=render_rich(game, state, self.last))
        else:
            self.say(render_plain(game, state, self.last))

    def move_string(self) -> str:
        return self.game.format_moves(self.actions)

    # ---- the keys ----------------------------------------------------------------------------

    def undo(self) -> None:
        """Take back the last move, or the last full move when an engine sits in the other seat."""
        if not self.actions:
            self.say("Nothing to undo.")
            return
        self.pop()
        # keep taking back until it is a person's turn (or the start)
        while self.actions and self.seats[self.game.player(self.state)] is not None:
            self.pop()
        if self.seats[self.game.player(self.state)] is not None:
            self.say("Back at the start; the engine moves first.")
        else:
            self.say("Move taken back.")
        self.show()

    def pop(self) -> None:
        self.actions.pop()
        self.states.pop()

    def save(self) -> None:
        moves = self.move_string()
        spec = self.game.spec
        game_opt = "" if spec == "connectx:rows=6,cols=7,k=4" else f" --game '{spec}'"
        shown = moves or "(empty: the start position)"
        self.say(f"Move string: {shown}")
        if moves:
            self.say(f"Continue later with: zerosum play{game_opt} --moves '{moves}'")

    def hint(self) -> None:
        show_hint(self)  # the analysis filling in, then the best move and every move's figure

    def help(self) -> None:
        self.say(f"Type a move ({self.game.MOVES_HELP}); h hint, u undo, s save (print the move string), q quit.")

    # ---- turns -------------------------------------------------------------------------------

    def human_turn(self) -> bool:
        """Ask until a legal move or a key that ends the turn; returns False to stop."""
        game = self.game
        while True:
            state = self.state
            player = game.player(state)
            prompt = self.output.prompt(f"{self.who(player)} to move: ", f"{self.who_rich(player)} to move: ")
            line = self.read(prompt)
            if line is None:
                self.say("End of input: game abandoned. " + self._resume_hint())
                return False
            text = line.strip()
            key = text.lower()
            if key in QUIT:
                self.say("Game abandoned. " + self._resume_hint())
                return False
            if key in UNDO:
                self.undo()
                return True
            if key in HINT:
                self.hint()
                continue
            if key in SAVE:
                self.save()
                continue
            if key in HELP:
                self.help()
                continue
            if not text:
                continue
            try:
                action = game.parse_action(text, state)
            except IllegalMoveError as exc:
                self.say(f"{exc}. Try again (? for help).")
                continue
            self.push(action)
            self.show()
            return True

    def _resume_hint(self) -> str:
        moves = self.move_string()
        return f"Moves: {moves}" if moves else "No moves were played."

    def push(self, action: Any) -> None:
        self.states.append(self.game.result(self.state, action))
        self.actions.append(action)

    def engine_turn(self, agent: Agent) -> None:
        game, state = self.game, self.state
        player = game.player(state)
        played, note = think(self, agent)  # the solver shows its columns filling in; it never waits in silence
        self.push(played.action)
        self.say(*self._report(player, agent, played))
        if note:
            self.say(f"({note})")
        self.show()

    def _report(self, player: int, agent: Agent, played: EngineMove) -> tuple[str, str]:
        move = self.game.format_action(played.action)
        plain = f"{mark(self.game, player)} ({agent.spec}) plays {move}"
        rich = f"[{STYLE[player]}]{mark(self.game, player)}[/] ({escape(agent.spec)}) plays [bold]{escape(move)}[/]"
        if played.found is not None:
            found = played.found
            said = played.words + ("" if played.exact or played.proof else " (estimate)")
            facts = f"{said}, {found.nodes:,} nodes, {played.elapsed:.2f} s"
            if found.depth:
                facts += f", depth {found.depth}"
            plain += f": {facts}"
            rich += f": [bold]{said}[/], [dim]{found.nodes:,} nodes, {played.elapsed:.2f} s" + (
                f", depth {found.depth}[/]" if found.depth else "[/]")
        else:
            plain += f" ({played.elapsed:.2f} s)"
            rich += f" [dim]({played.elapsed:.2f} s)[/]"
        return plain + ".", rich + "."

    def announce(self) -> None:
        game, state = self.game, self.state
        out = game.outcome(state)
        assert out is not None
        moves = self.move_string()
        if out.winner is None:
            self.say(f"Draw: {out.reason}. Moves: {moves}", f"[bold]Draw[/]: {out.reason}. Moves: {moves}")
            return
        how = game.describe_win(state)
        w = out.winner
        label = game.player_label(w)
        seat = self.seats[w]
        people = sum(s is None for s in self.seats.values())
        cheer = " You win!" if seat is None and people == 1 else f" {seat.spec} wins." if seat is not None else ""
        plain = f"Player {w} ({label}) wins: {how}.{cheer} Moves: {moves}"
        self.say(plain, f"[bold {STYLE[w]}]Player {w} ({label}) wins[/]: {how}.[bold]{escape(cheer)}[/] Moves: {moves}")

    def run(self) -> int:
        keys = "  Keys: h hint, u undo, s save, q quit, ? help." if None in self.seats.values() else ""
        title = self.game.title
        self.say(f"{title}: {self.who(1)} against {self.who(2)}.{keys}",
                 f"[bold]{escape(title)}[/]: {self.who_rich(1)} against {self.who_rich(2)}.[dim]{keys}[/]")
        if None in self.seats.values():
            self.say(f"Type a move: {self.game.MOVES_HELP}.")
        self.show()
        while True:
            if self.game.is_terminal(self.state):
                self.announce()
                return 0
            agent = self.seats[self.game.player(self.state)]
            if agent is None:
                if not self.human_turn():
                    return 0
            else:
                self.engine_turn(agent)


def use_color(out: TextIO, no_color: bool = False) -> bool:
    """Colour only on a terminal, and never with ``--no-color`` or the ``NO_COLOR`` convention."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def _stdin_reader(out: TextIO) -> Reader:
    """Read one line (``None`` at the end of input); on a terminal with line editing via ``input``."""
    stdin = sys.stdin
    interactive = stdin is not None and stdin.isatty() and out is sys.stdout

    def read(prompt: str) -> str | None:
        if stdin is None:  # standard input closed (`zerosum play <&-`): the end of input
            return None
        if interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        out.write(prompt)
        line = stdin.readline()
        out.write(line.rstrip("\n") + "\n")  # echo, so a transcript reads like a session
        out.flush()
        return line if line else None

    return read


def play(
    game_spec: str = "connect4",
    first: str = "human",
    second: str | None = None,
    moves: str = "",
    read: Reader | None = None,
    out: TextIO | None = None,
    seed: int | None = None,
    color: bool | None = None,
    hint_time: float = 1.0,
    solver_time: float = 10.0,
) -> int:
    """Play one game; ``first``/``second`` are agent specs (``human`` for a person).

    ``read(prompt)`` returns the next line or None at the end of input (default: standard input);
    ``color`` None decides from ``out`` (see :func:`use_color`).
    """
    game = get_game(game_spec)
    if second is None:
        second = strongest_agent_spec(game) if first.strip() == "human" else "human"
    seats: dict[int, Agent | None] = {}
    for player, spec in ((1, first), (2, second)):
        agent = None if spec.strip() == "human" else make_agent(spec, seed=seed)
        if agent is not None:
            agent.use_cores(usable_cores())  # a face: the machine's cores, where the agent can use them
        seats[player] = agent
    actions = game.parse_moves(moves) if moves else []
    out = out or sys.stdout
    if out is None:
        raise UsageError("standard output is closed: zerosum play needs somewhere to draw the board")
    output = Output(out, use_color(out) if color is None else color)
    session = PlaySession(game, seats, read or _stdin_reader(out), output, actions, hint_time=hint_time,
                          solver_time=solver_time)
    return session.run()
