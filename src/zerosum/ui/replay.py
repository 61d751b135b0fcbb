"""``zerosum replay``: step through a game record in the terminal.

Keys, one a line (so a script can drive it: ``printf 'n\\nn\\ng 10\\nq\\n' | zerosum replay games.pgn``): Enter
or ``n`` next, ``p`` previous, ``f`` first, ``l`` last, ``g N`` go to ply N, ``v`` the variations of the next
move (``v N`` into the Nth), ``m`` back to the line a variation left, ``a`` the engine's analysis of the shown
position on or off, ``t`` the tags, ``?`` help, ``q`` quit. At a terminal the keys need no Enter
(:func:`key_reader`; the arrows step, Home and End jump, ``g`` asks for the ply, ``v`` for the variation), and
in colour each key redraws the screen; elsewhere each step is printed after the last.

Plies count from the start position (ply 0), so the opening's moves are plies too; the move list marks the
shown ply in brackets and the opening off from the moves with ``|``; a record's variations are listed in
parentheses after the move each replaces; ``v`` lists those of the next move, ``v N`` steps into the Nth (then
the keys step through it, and its own variations in the same way), ``m`` goes back to the line it left. The
analysis is the terminal's hint (:func:`zerosum.ui.hints.show_hint`): the solver's exact scores where it takes
the board, else an alpha-beta search's estimates, labelled by the analysis itself.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from typing import Any, TextIO

from ..core.words import exact_words
from ..errors import GameError
from ..records import MoveNote, Record, Variation, move_number
from ..values import is_proven
from .hints import hint_analysis, show_hint
from .terminal import Output, render_rich

__all__ = ["KEYS_HELP", "ReplaySession"]

Reader = Callable[[str], "str | None"]

KEYS_HELP = ("Keys: Enter/n next, p previous, f first, l last, g N go to ply N, v the variations of the next move "
             "(v N: into the Nth), m back to the line it left, a analysis on/off, t tags, ? help, q quit.")
#: the width the move list wraps at
WIDTH = 78


class ReplaySession:
    """One record at the terminal: its states, the ply shown, and whether the analysis is on."""

    def __init__(self, record: Record, read: Reader, output: Output, *, number: int = 1, total: int = 1,
                 hint_time: float = 1.0, solver_time: float = 10.0,
                 analyzer: Callable[..., Any] = hint_analysis) -> None:
        self.record, self.read, self.output = record, read, output
        self.game = record.game
        self.states = record.states()  # IllegalMoveError names the game and ply
        self.actions = record.actions()
        self.opening = len(self.states) - 1 - len(record.moves)
        self.number, self.total = number, total
        self.hint_time, self.solver_time, self.analyzer = hint_time, solver_time, analyzer
        self.ply = 0
        self.analysis = False
        # the line shown, by ply from the start: each move's note, and the variations of each move; the lines
        # left for a variation, with the ply each was left at (``v N`` pushes one, ``m`` pops it)
        self.notes: list[MoveNote | None] = [record.notes[i - self.opening] if i >= self.opening else None
                                             for i in range(len(self.actions))]
        self.branches: dict[int, list[Variation]] = {self.opening + i: v for i, v in record.variations.items()}
        self.left: list[tuple[list[Any], list[Any], list[MoveNote | None], dict[int, list[Variation]], int]] = []

    # ---- what the analysis (show_hint) reads -------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.states[self.ply]

    @property
    def last_ply(self) -> int:
        return len(self.states) - 1

    def say(self, plain: str = "", rich: Any = None) -> None:
        self.output.say(plain, rich)

    # ---- drawing -------------------------------------------------------------------------------------

    def heading(self) -> str:
        tags = self.record.tags
        return (f"Game {self.number} of {self.total}: {tags['First']} - {tags['Second']}, {self.record.result} "
                f"({tags['Termination']}), {tags['Game']}")

    def show_tags(self) -> None:
        width = max(len(k) for k in self.record.tags)
        for name, value in self.record.tags.items():
            self.say(f"  {name.ljust(width)}  {value}")

    def ply_line(self) -> str:
        """What the shown ply is: the move that led to it, who played it and its note."""
        if self.ply == 0:
            return f"Ply 0 of {self.last_ply}: the start position."
        game, i = self.game, self.ply - 1
        mover = game.player_label(game.player(self.states[i]))
        move = game.format_action(self.actions[i])
        if i < self.opening:
            return f"Ply {self.ply} of {self.last_ply}: {mover} played {move} (opening)."
        note = self.notes[i]
        mark = note.mark if note is not None and note.mark else ""  # a review's ?, ?? or ! (zerosum review -o)
        text = f"Ply {self.ply} of {self.last_ply}: {mover} played {move}{mark}"
        if note is not None:
            facts = ([f"{note.time:g} s"] if note.time is not None else []) + (
                [f"{note.nodes:,} node{'' if note.nodes == 1 else 's'}"] if note.nodes is not None else [])
            if note.value is not None:  # the mover's view: a proof in words (moves), else the agent's own number
                proof = note.exact or is_proven(note.value)
                words = exact_words(note.value) if proof else f"{note.value:+g} (the agent's units)"
                facts.append(f"its value for {mover}: {words}")
            if facts:
                text += f" ({', '.join(facts)})"
            if note.comment:
                text += f": {note.comment}"
        return text + "."

    def move_list(self) -> str:
        """Every ply of the line shown with full-move numbers as a record writes them (``1. 4 4 2. 3 5``: the
        first player's move of each pair numbered) and the review's marks (``3?``), the shown ply in brackets,
        ``|`` after the opening, and the record's variations in parentheses after the move each replaces
        (``2. 3 (2. 5 5 (2... 2) 3. 1) 2... 4``)."""
        items = []
        fresh = False  # a variation just closed: the next move carries its number
        for i, action in enumerate(self.actions):
            note = self.notes[i]
            move = self.game.format_action(action) + (note.mark or "" if note is not None else "")
            move = f"[{move}]" if i + 1 == self.ply else move
            # a number stays on the line of its move (textwrap breaks at ASCII blanks only)
            items.append(f"{move_number(i)}\u00a0{move}" if i % 2 == 0 or i == self.opening or fresh else move)
            fresh = False
            for v in self.branches.get(i, ()):
                items += _variation_items(v, i)
                fresh = True
            if self.opening and i + 1 == self.opening:
                items.append("|")
        if not items:
            return "Moves: none."
        where = f"Variation from ply {self.left[-1][4] + 1}" if self.left else "Moves"
        text = textwrap.fill(f"{where}: " + " ".join(items), WIDTH, break_on_hyphens=False, break_long_words=False)
        return text.replace("\u00a0", " ")

    def ending(self) -> str:
        """At the last ply: how the game ended (in a variation: how the variation ends)."""
        out = self.game.outcome(self.state)
        why = out.reason if out is not None else "not over on the board"
        if self.left:
            return f"The variation ends here ({why}); m goes back to the line it left."
        return f"Result {self.record.result}: {self.record.tags['Termination']} ({why})."

    def variations(self, text: str) -> None:
        """``v``: the variations of the next move (the alternatives to the move after the shown ply); ``v N``:
        into the Nth, its first move shown."""
        here = self.branches.get(self.ply, [])
        if not here:
            self.say(f"No variation of the next move here (ply {self.ply}); the move list shows them in "
                     "parentheses.")
            return
        if not text:
            for n, v in enumerate(here, 1):
                self.say(f"  v {n}: {' '.join(_variation_items(v, self.ply))[1:-1].replace(chr(160), ' ')}")
            return
        n = int(text) if text.isascii() and text.isdigit() and len(text) < 6 else 0
        if not 1 <= n <= len(here):
            self.say(f"v needs a variation 1..{len(here)} of the next move, e.g. v 1.")
            return
        v, p = here[n - 1], self.ply
        states, actions = self.states[: p + 1], self.actions[:p]
        for move in v.moves:  # legal: the record was checked whole when read
            actions.append(self.game.parse_action(move, states[-1]))
            states.append(self.game.result(states[-1], actions[-1]))
        self.left.append((self.states, self.actions, self.notes, self.branches, p))
        self.states, self.actions, self.notes = states, actions, self.notes[:p] + list(v.notes)
        self.branches = {i: b for i, b in self.branches.items() if i < p}
        self.branches.update((p + i, b) for i, b in v.variations.items())
        self.go(p + 1)

    def back(self) -> None:
        """``m``: back to the line the shown variation left, at the position it left it."""
        if not self.left:
            self.say("Already on the main line; v lists the variations of the next move.")
            return
        self.states, self.actions, self.notes, self.branches, p = self.left.pop()
        self.go(p)

    def show(self) -> None:
        console = self.output.console
        if console is not None and getattr(self.output.out, "isatty", lambda: False)():
            console.clear()
        last = self.actions[self.ply - 1] if self.ply else None
        self.say(self.heading())
        if self.output.color:
            self.say(rich=render_rich(self.game, self.state, last))
        else:
            self.say(self.game.render(self.state))
        self.say(self.ply_line())
        if self.ply == self.last_ply:
            self.say(self.ending())
        self.say(self.move_list())
        if self.analysis:
            self.analyse()

    def analyse(self) -> None:
        out = self.game.outcome(self.state)
        if out is not None:
            self.say(f"Analysis: the game is over here ({out.reason}).")
            return
        try:
            show_hint(self)
        except GameError as exc:
            self.say(f"No analysis: {exc}.")

    # ---- the keys --------------------------------------------------------------------------------

    def go(self, ply: int) -> None:
        self.ply = ply
        self.show()

    def key(self, line: str) -> bool:
        """Act on one line of input; False to stop."""
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            return False
        if text in ("", "n", "next"):
            if self.ply == self.last_ply:
                self.say(f"Already at the last ply ({self.last_ply}); p goes back, f to the start, q quits.")
            else:
                self.go(self.ply + 1)
        elif text in ("p", "prev", "previous"):
            if self.ply == 0:
                self.say("Already at the start (ply 0); n goes forward, l to the end.")
            else:
                self.go(self.ply - 1)
        elif text in ("f", "first"):
            self.go(0)
        elif text in ("l", "last"):
            self.go(self.last_ply)
        elif text[:1] == "g" and (text[1:2] in ("", " ") or text[1:2].isdigit()):
            rest = text[1:].strip()
            n = int(rest) if rest.isascii() and rest.isdigit() and len(rest) < 10 else -1
            if n < 0:
                self.say(f"g needs a ply number 0..{self.last_ply}, e.g. g {self.last_ply}.")
            elif n > self.last_ply:
                self.say(f"No ply {n}: this game has plies 0..{self.last_ply} (g {self.last_ply} is the last).")
            else:
                self.go(n)
        elif text == "v" or (text[:1] == "v" and text[1:2] in (" ", *"0123456789")):
            self.variations(text[1:].strip())
        elif text in ("m", "main"):
            self.back()
        elif text in ("a", "analysis"):
            self.analysis = not self.analysis
            self.say("Analysis on." if self.analysis else "Analysis off.")
            if self.analysis:
                self.analyse()
        elif text in ("t", "tags"):
            self.show_tags()
        elif text in ("?", "h", "help"):
            self.say(KEYS_HELP)
        else:
            shown = line.strip()[:20]
            self.say(f"Unknown key {shown!r}. {KEYS_HELP}")
        return True

    def run(self) -> int:
        self.show()
        self.show_tags()
        self.say(KEYS_HELP)
        while True:
            line = self.read(f"ply {self.ply}/{self.last_ply}> ")
            if line is None or not self.key(line):
                return 0


def _variation_items(v: Variation, ply: int) -> list[str]:
    """The words of variation ``v`` (its first move at ``ply``) in a move list: numbered as a record numbers
    them, each move with its mark, its own variations inside, all in parentheses."""
    items: list[str] = []
    fresh = True
    for i, (move, note) in enumerate(zip(v.moves, v.notes)):
        word = move + (note.mark or "" if note is not None else "")
        items.append(f"{move_number(ply + i)}\u00a0{word}" if (ply + i) % 2 == 0 or fresh else word)
        fresh = False
        for inner in v.variations.get(i, ()):
            items += _variation_items(inner, ply + i)  # as deep as the tree: records.MAX_DEPTH
            fresh = True
    items[0] = "(" + items[0]
    items[-1] += ")"
    return items


#: single keys at a terminal: the arrows and Home/End as well as the letters
_ESCAPES = {"[C": "n", "[B": "n", "[D": "p", "[A": "p", "[H": "f", "[F": "l", "OH": "f", "OF": "l"}


def key_reader(out: TextIO, lines: Reader) -> Reader:
    """Single keys when standard input and ``out`` are a terminal (no Enter needed; the arrows step, Home
    and End jump, ``g`` asks for the ply on a line); else ``lines``, one key a line."""
    stdin = sys.stdin
    try:
        import termios
        import tty

        fd = stdin.fileno()
        interactive = stdin.isatty() and out.isatty()
    except (AttributeError, ImportError, OSError, ValueError):
        interactive = False
    if not interactive:
        return lines

    def read(prompt: str) -> str | None:
        saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd, termios.TCSANOW)  # before the prompt, and keeping keys typed ahead
            out.write(prompt)
            out.flush()
            key = stdin.read(1)
            if key == "\x1b":
                key = _ESCAPES.get(stdin.read(2), "?")
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        if key in ("", "\x04"):  # the end of input, Ctrl-D
            return None
        if key == "g":
            rest = lines("go to ply: ")
            return None if rest is None else "g " + rest
        if key == "v":
            rest = lines("variation (a number; Enter lists them): ")
            return None if rest is None else "v " + rest
        out.write("\n")
        return "" if key in ("\r", "\n") else key

    return read
