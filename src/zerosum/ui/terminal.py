"""``zerosum play``: a game in the terminal -- a person against an agent, two people, or two agents.

Keys at a person's turn: a move (a column number for Connect-X, a cell 1..9 for Tic-Tac-Toe, the stone
``x,y`` for Migration), ``h`` a hint (the best move and every move's score), ``u`` undo (a full move
against an engine), ``s`` save (print the move string), ``q`` quit, ``?`` help.

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
from ..errors import GameError, IllegalMoveError, UsageError
from ..game import Game
from ..games import get_game
from ..games.connectx import ConnectX
from ..games.migration import Migration
from ..games.tictactoe import TicTacToe
from .analysis import Analysis, EngineMove, bounded_analyze, bounded_solver_move, engine_move, solver_available
from .notation import format_move, format_moves, replay, states_of

__all__ = ["PlaySession", "play", "describe_line", "render_plain"]

Reader = Callable[[str], "str | None"]

QUIT = ("q", "quit", "exit")
UNDO = ("u", "undo")
HINT = ("h", "hint")
SAVE = ("s", "save")
HELP = ("?", "help")

# colours of the two sides and of the highlights (rich styles)
STYLE = {1: "bold red", 2: "bold yellow", "empty": "grey42", "last": "on grey30", "win": "on dark_green",
         "header": "bold cyan", "dim": "grey50"}
DISC = {1: "●", 2: "●"}


def _name(game: Game[Any, Any]) -> str:
    if isinstance(game, ConnectX):
        if (game.rows, game.cols, game.k) == (6, 7, 4):
            return "Connect Four"
        return f"Connect {game.k} on {game.rows} x {game.cols}"
    if isinstance(game, TicTacToe):
        return "Tic-Tac-Toe"
    if isinstance(game, Migration):
        return f"Migration {game.n} x {game.n}"
    return game.spec


def mark(game: Game[Any, Any], player: int) -> str:
    if isinstance(game, Migration):
        return ">" if player == 1 else "^"
    return "X" if player == 1 else "O"


def describe_line(cells: list[tuple[int, int]]) -> str:
    """A Connect-X winning line in words (rows counted from the bottom, both 1-based)."""
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    if len(rows) == 1:
        return f"row {rows[0] + 1}, columns {cols[0] + 1} to {cols[-1] + 1}"
    if len(cols) == 1:
        return f"column {cols[0] + 1}, rows {rows[0] + 1} to {rows[-1] + 1}"
    first, last = min(cells, key=lambda rc: rc[1]), max(cells, key=lambda rc: rc[1])
    return f"diagonal from column {first[1] + 1} row {first[0] + 1} to column {last[1] + 1} row {last[0] + 1}"


def _ttt_line(state: Any) -> list[int]:
    from ..games.tictactoe import LINES

    for line in LINES:
        a, b, c = line
        if state.cells[a] and state.cells[a] == state.cells[b] == state.cells[c]:
            return list(line)
    return []


def render_plain(game: Game[Any, Any], state: Any, last: Any = None) -> str:
    """The board as plain text (no escape codes): the game's own rendering, Tic-Tac-Toe with free cell
    numbers, and a marker ``v`` over the column of the last Connect-X move."""
    if isinstance(game, TicTacToe):
        rows = []
        for r in range(3):
            cells = [("X", "O")[v - 1] if v else str(3 * r + i + 1) for i, v in enumerate(state.cells[3 * r:3 * r + 3])]
            rows.append(" " + " | ".join(cells))
        return "\n---+---+---\n".join(rows)
    text = game.render(state)
    if isinstance(game, ConnectX) and last is not None:
        width = len(str(game.cols))
        marker = " ".join(("v" if c == last else " ").rjust(width) for c in range(game.cols)).rstrip()
        text = marker + "\n" + text
    return text


def render_rich(game: Game[Any, Any], state: Any, last: Any = None) -> Any:
    """The board as a rich ``Text``: coloured discs, the last move and a winning line highlighted."""
    from rich.text import Text

    text = Text()
    if isinstance(game, ConnectX):
        win = {(game.rows - 1 - r, c) for r, c in game.winning_line(state)}
        width = max(2, len(str(game.cols)))
        for c in range(game.cols):
            label = str(c + 1)
            text.append(" " * (width + 1 - len(label)))
            text.append(label, style=STYLE["header"] + (" reverse" if c == last else ""))
        text.append("\n")
        last_row = game.column_height(state, last) - 1 if last is not None else -1
        for row in range(game.rows - 1, -1, -1):
            for c in range(game.cols):
                who = game.cell(state, row, c)
                text.append(" ")
                if who:
                    style = STYLE[who]
                    if (row, c) in win:
                        style += " " + STYLE["win"]
                    elif c == last and row == last_row:
                        style += " " + STYLE["last"]
                    text.append(DISC[who].rjust(width), style=style)
                else:
                    text.append("·".rjust(width), style=STYLE["empty"])
            text.append("\n")
        text.rstrip()
        return text
    if isinstance(game, TicTacToe):
        line = set(_ttt_line(state))
        for r in range(3):
            for i in range(3):
                cell = 3 * r + i
                v = state.cells[cell]
                if v:
                    style = STYLE[v] + (" " + STYLE["win"] if cell in line else " " + STYLE["last"] if cell == last else "")
                    text.append(f" {'XO'[v - 1]} ", style=style)
                else:
                    text.append(f" {cell + 1} ", style=STYLE["dim"])
                if i < 2:
                    text.append("│", style=STYLE["dim"])
            if r < 2:
                text.append("\n───┼───┼───\n", style=STYLE["dim"])
        return text
    if isinstance(game, Migration):
        n = game.n
        width = len(str(n - 1))
        dest = (last[2], last[3]) if last is not None else None
        text.append(" " * (width + 1) + " ".join(str(y).rjust(width) for y in range(n)), style=STYLE["header"])
        for x in range(n):
            text.append("\n" + str(x).rjust(width), style=STYLE["header"])
            for y in range(n):
                v = state.board[x][y]
                text.append(" ")
                if v:
                    style = STYLE[v] + (" " + STYLE["last"] if (x, y) == dest else "")
                    text.append(("▶" if v == 1 else "▲").rjust(width), style=style)
                else:
                    text.append("·".rjust(width), style=STYLE["empty"])
        return text
    return Text(game.render(state))


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
    analyzer: Callable[..., Analysis] = bounded_analyze

    def __post_init__(self) -> None:
        if not self.states:
            self.states = states_of(self.game, self.actions)

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
        return format_moves(self.game, self.actions)

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
        game, state = self.game, self.state
        with self.output.thinking("analysing..."):
            try:
                found = self.analyzer(game, state, time=self.hint_time, solver_time=self.solver_time)
            except GameError as exc:
                self.say(f"No hint: {exc}.")
                return
        if not found.source:
            self.say(f"No hint: {found.note}.")
            return
        engine = "the solver" if found.source == "solver" else found.source
        best = format_move(game, found.best)
        head = f"Hint from {engine}: play {best} ({found.words(found.best)})"
        stats = f"{found.elapsed:.2f} s" + (f", {found.nodes:,} nodes" if found.nodes else "")
        self.say(f"{head}; {stats}.", f"[bold]Hint[/] from {engine}: play [bold green]{best}[/] "
                 f"({found.words(found.best)}); [dim]{stats}[/].")
        if found.note:
            self.say(f"({found.note})")
        if isinstance(game, ConnectX) and found.source == "solver":
            self.say(*self._score_row(found))
            return
        width = max(len(format_move(game, a)) for a in found.scores)
        ordered = sorted(found.scores, key=lambda a: -found.values[a])
        for a in ordered:
            self.say(f"  {format_move(game, a).rjust(width)}  {found.words(a)}")

    def _score_row(self, found: Analysis) -> tuple[str, Any]:
        """Connect-X solver scores aligned under the column numbers, plus the rich version."""
        from rich.text import Text

        game = self.game
        assert isinstance(game, ConnectX)
        cells = []
        for c in range(game.cols):
            s = found.scores.get(c)
            cells.append("#" if s is None else f"{int(s):+d}" if s else "0")
        width = max(3, *(len(x) for x in cells))
        header = " ".join(str(c + 1).rjust(width) for c in range(game.cols))
        row = " ".join(x.rjust(width) for x in cells)
        plain = f"{header}\n{row}\n(score per column; + wins, - loses, 0 draws, # full)"
        text = Text()
        text.append(header + "\n", style=STYLE["header"])
        for c, x in enumerate(cells):
            s = found.scores.get(c)
            style = "grey42" if s is None else "bold green" if s > 0 else "bold red" if s < 0 else "white"
            if c == found.best:
                style += " reverse"
            text.append(("" if c == 0 else " ") + x.rjust(width), style=style)
        text.append("\n(score per column; + wins, - loses, 0 draws, # full)", style=STYLE["dim"])
        return plain, text

    def help(self) -> None:
        game = self.game
        if isinstance(game, ConnectX):
            what = f"a column number 1..{game.cols}"
        elif isinstance(game, TicTacToe):
            what = "a cell number 1..9, row by row from the top left"
        else:
            what = "the stone to move as 'x,y' (row from the top, column, both from 0)"
        self.say(f"Type {what}; h hint, u undo, s save (print the move string), q quit.")

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
        note = ""
        with self.output.thinking(f"{agent.spec} is thinking..."):
            if agent.spec.split(":")[0] == "solver" and solver_available(game) and state.history is not None:
                played, note = bounded_solver_move(game, state, agent, self.solver_time)
            else:
                played = engine_move(game, state, agent)
        self.push(played.action)
        self.say(*self._report(player, agent, played))
        if note:
            self.say(f"({note})")
        self.show()

    def _report(self, player: int, agent: Agent, played: EngineMove) -> tuple[str, str]:
        move = format_move(self.game, played.action)
        plain = f"{mark(self.game, player)} ({agent.spec}) plays {move}"
        rich = f"[{STYLE[player]}]{mark(self.game, player)}[/] ({escape(agent.spec)}) plays [bold]{escape(move)}[/]"
        if played.found is not None:
            found = played.found
            facts = f"{played.words}, {found.nodes:,} nodes, {played.elapsed:.2f} s"
            if found.depth:
                facts += f", depth {found.depth}"
            plain += f": {facts}"
            rich += f": [bold]{played.words}[/], [dim]{found.nodes:,} nodes, {played.elapsed:.2f} s" + (
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
        label = ("moves right" if w == 1 else "moves up") if isinstance(game, Migration) else mark(game, w)
        seat = self.seats[w]
        people = sum(s is None for s in self.seats.values())
        cheer = " You win!" if seat is None and people == 1 else f" {seat.spec} wins." if seat is not None else ""
        plain = f"Player {w} ({label}) wins: {how}.{cheer} Moves: {moves}"
        self.say(plain, f"[bold {STYLE[w]}]Player {w} ({label}) wins[/]: {how}.[bold]{escape(cheer)}[/] Moves: {moves}")

    def run(self) -> int:
        keys = "  Keys: h hint, u undo, s save, q quit, ? help." if None in self.seats.values() else ""
        self.say(f"{_name(self.game)}: {self.who(1)} against {self.who(2)}.{keys}",
                 f"[bold]{_name(self.game)}[/]: {self.who_rich(1)} against {self.who_rich(2)}.[dim]{keys}[/]")
        if isinstance(self.game, Migration):
            self.say("> moves a stone one step right, ^ one step up; type the stone to move as x,y "
                     "(row from the top, column). No legal move loses.")
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
        seats[player] = None if spec.strip() == "human" else make_agent(spec, seed=seed)
    actions = replay(game, moves) if moves else []
    out = out or sys.stdout
    if out is None:
        raise UsageError("standard output is closed: zerosum play needs somewhere to draw the board")
    output = Output(out, use_color(out) if color is None else color)
    session = PlaySession(game, seats, read or _stdin_reader(out), output, actions, hint_time=hint_time,
                          solver_time=solver_time)
    return session.run()
