"""One game of ``zerosum play`` at the terminal (:mod:`zerosum.ui.terminal`, which starts it): a
:class:`PlaySession` holds the seats, the moves so far and where text goes, and plays the turns -- a person's
typed moves and keys (``h`` hint, ``a`` analysis, ``u`` undo, ``s`` save, ``q`` quit, ``?`` help), an engine's
move shown as it fills in -- until the game ends, then says the result and offers the review.
:mod:`.terminal` re-exports :class:`PlaySession`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rich.markup import escape

from ..agents.base import Agent
from ..core.files import describe_exception
from ..errors import AgentError, GameError, IllegalMoveError
from ..game import Game
from .analysis import HINT_TIME, SOLVER_TIME, Analysis
from .terminal_settings import Settings, move_example
from .hints import format_move, hint_analysis, show_hint, think
from .terminal_review import offer_review
from .terminal_view import QUIT, STYLE, Keys, Output, Quit, mark, render_plain, render_rich

__all__ = ["PlaySession", "Reader"]

Reader = Callable[[str], "str | None"]
Line = tuple[str, Any]

UNDO = ("u", "undo")
HINT = ("h", "hint")
ANALYSIS = ("a", "analysis")
SAVE = ("s", "save")
HELP = ("?", "help")


@dataclass
class PlaySession:
    """One game at the terminal: the seats, the moves so far, and where text goes."""

    game: Game[Any, Any]
    seats: dict[int, Agent | None]  # None: a person at the keyboard
    read: Reader
    output: Output
    actions: list[Any] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    hint_time: float = HINT_TIME
    solver_time: float = SOLVER_TIME
    analyzer: Callable[..., Analysis] = hint_analysis
    settings: Settings | None = None
    hint_agent: Agent | None = None  # the engine that answers hints: its compiled code is waited for first
    keys: Keys | None = None  # a terminal's keys, read while an engine prepares or thinks (q quits at once)
    asking: bool = field(default=False, init=False, repr=False)  # a prompt waits on its line for a person's move

    def __post_init__(self) -> None:
        if not self.states:
            self.states = self.game.states_of(self.actions)
        if self.settings is None:
            spec = {p: "human" if a is None else a.spec for p, a in self.seats.items()}
            self.settings = Settings(self.game.spec, spec[1], spec[2], hint_time=self.hint_time,
                                     solver_time=self.solver_time, no_color=not self.output.color)

    # ---- small helpers -----------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def last(self) -> Any:
        return self.actions[-1] if self.actions else None

    @property
    def people(self) -> int:
        return sum(s is None for s in self.seats.values())

    def say(self, plain: str = "", rich: Any = None) -> None:
        self.output.say(plain, rich)

    def who(self, player: int) -> str:
        seat = self.seats[player]
        role = "you" if seat is None and self.people == 1 else f"player {player}" if seat is None else seat.spec
        return f"{mark(self.game, player)} ({role})"

    def who_rich(self, player: int) -> str:
        return f"[{STYLE[player]}]{escape(self.who(player))}[/]"

    def head(self) -> list[Line]:
        """The game's title and keys (said once in a log; at the top of every board drawn in place)."""
        keys = "  Keys: h hint, a analysis, u undo, s save, q quit, ? help." if self.people else ""
        title = self.game.title
        lines: list[Line] = [(f"{title}: {self.who(1)} against {self.who(2)}.{keys}",
                              f"[bold]{escape(title)}[/]: {self.who_rich(1)} against {self.who_rich(2)}.[dim]{keys}[/]")]
        if self.people:
            lines.append((f"Type a move: {move_example(self.game, self.state)}.", None))
        return lines

    def show(self, fresh: bool = False) -> None:
        game, state = self.game, self.state
        board: Line = (game.render(state), None)  # a game that describes no board (your own game): its text
        if game.board_view(state).rows:
            board = (render_plain(game, state, self.last), render_rich(game, state, self.last) if self.output.color
                     else None)
        moves = self.move_string()
        head = self.head() + [(f"Moves: {moves or '(none yet)'}", None)]
        self.output.frame(head, board, fresh)

    def move_string(self) -> str:
        return self.game.format_moves(self.actions)

    # ---- the keys ----------------------------------------------------------------------------

    def _ply_owner(self, i: int, n: int) -> str:
        """Whose move ply ``i`` was, for the undo message (``n``: how many plies are taken back)."""
        player = self.game.player(self.states[i])
        move = self.game.format_action(self.actions[i])
        if self.seats[player] is not None:
            return f"the engine's {'reply ' if n > 1 else 'move '}({move})"
        return f"your move ({move})" if self.people == 1 else f"{mark(self.game, player)}'s move ({move})"

    def undo(self) -> None:
        """Take back plies until a person is to move again: the person's last move, and the engine's reply
        to it when an engine sits in the other seat."""
        turns = [i for i in range(len(self.actions)) if self.seats[self.game.player(self.states[i])] is None]
        if not turns:
            self.say("Nothing to undo: no moves have been played yet." if not self.actions else
                     "Nothing to undo: only the engine's move has been played.")
            return
        back = len(self.actions) - turns[-1]
        taken = [self._ply_owner(i, back) for i in range(turns[-1], len(self.actions))]
        for _ in range(back):
            self.pop()
        self.output.forget()  # drawn in place, the board after the undo shows its message only
        if back == 1:
            self.say(f"Took back {taken[0]}.")
        else:
            self.say(f"Took back {back} plies: {', '.join(taken[:-1])} and {taken[-1]}.")
        self.show()

    def pop(self) -> None:
        self.actions.pop()
        self.states.pop()

    def save(self) -> None:
        moves = self.move_string()
        assert self.settings is not None
        self.say(f"Move string: {moves or '(empty: the start position)'}")
        self.say(f"Continue later with: {self.settings.command(moves)}")

    def hint(self) -> None:
        show_hint(self)  # the analysis filling in, then every legal move's value

    def toggle_analysis(self) -> None:
        assert self.settings is not None
        self.settings.analysis = not self.settings.analysis
        self.say("Analysis on: a hint at each of your turns (a turns it off)." if self.settings.analysis
                 else "Analysis off.")
        if self.settings.analysis:
            self.hint()

    def help(self) -> None:
        self.say(f"Type a move ({self.game.MOVES_HELP}); h hint, a analysis on/off, u undo, "
                 "s save (the move string and a command to continue), q quit.")

    # ---- turns -------------------------------------------------------------------------------

    def human_turn(self) -> bool:
        """Ask until a legal move or a key that ends the turn; returns False to stop."""
        game = self.game
        assert self.settings is not None
        if self.settings.analysis:
            self.hint()
        while True:
            state = self.state
            player = game.player(state)
            prompt = self.output.prompt(f"{self.who(player)} to move: ", f"{self.who_rich(player)} to move: ")
            self.asking = True
            line = self.read(prompt)
            self.asking = False
            text = (line or "").strip()
            if line is None or text.lower() in QUIT:
                return self.abandon(line is None)
            key = text.lower()
            if key in UNDO:
                self.undo()
                return True
            if key in HINT:
                self.hint()
                continue
            if key in ANALYSIS:
                self.toggle_analysis()
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
            self.show(fresh=True)
            return True

    def abandon(self, eof: bool = False) -> bool:
        """``q`` or the end of input (``eof``), at a prompt or while an engine thinks (Ctrl-C too:
        :meth:`interrupted`): the game ends, saying the moves and the command that continues it.  False: stop."""
        moves = self.move_string()
        self.say(("End of input: game abandoned. " if eof else "Game abandoned. ")
                 + (f"Moves: {moves}" if moves else "No moves were played."))
        if moves:
            assert self.settings is not None
            self.say(f"Continue later with: {self.settings.command(moves)}")
        return False

    def interrupted(self) -> None:
        """Ctrl-C, at a prompt or while an engine prepares or thinks (or a hint is worked out): the moves and the
        command that continues them, as ``q`` says them (nothing before a move is played); the command line
        then says ``interrupted`` and exits with status 130."""
        if not self.actions or self.output.closed:
            return
        try:
            if self.asking:  # the prompt's line (`X (you) to move: ^C`) ends first
                self.say()
            self.abandon()
        except (OSError, ValueError):  # nowhere to say it (the reader of a pipe stopped by the same Ctrl-C)
            pass

    def push(self, action: Any) -> None:
        self.states.append(self.game.result(self.state, action))
        self.actions.append(action)

    def engine_turn(self, agent: Agent) -> None:
        player = self.game.player(self.state)
        ply = len(self.actions)
        try:
            played, note, prepared = think(self, agent)  # the solver shows its moves filling in; it never waits in silence
        except (GameError, Quit, KeyboardInterrupt):  # Ctrl-C still stops zerosum play
            raise
        except BaseException as exc:  # noqa: BLE001 - a student's function that raises (GeneratorExit, a bare
            # BaseException too) or calls sys.exit, or an agent's bug: one line, no traceback, not the end of zerosum
            from ..agents.homework import in_position

            raise AgentError(f"{agent.spec} failed {in_position(self.game, self.state)}: "
                             f"{describe_exception(exc)}") from None
        if self.output.closed:  # the student's player closed sys.stdout: nowhere to show the game
            from ..agents.homework import in_position

            raise AgentError(f"{agent.spec} closed standard output {in_position(self.game, self.state)}: "
                             "zerosum play has nowhere to show the game (a player must not close sys.stdout)")
        self.push(played.action)
        symbol = mark(self.game, player)
        who = (f"{symbol} ({agent.spec})", f"[{STYLE[player]}]{escape(symbol)}[/] ({escape(agent.spec)})")
        self.say(*format_move(self.game, agent, played, who=who, ply=ply, prepared=prepared))
        if note:
            self.say(f"({note})")
        self.show()

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
        cheer = " You win!" if seat is None and self.people == 1 else f" {seat.spec} wins." if seat is not None else ""
        if how.lower() in (f"{label} wins".lower(), f"player {w} wins"):  # a game that says no more: say it once
            named = [n for n in (label if label.lower() != f"player {w}" else "", seat.spec if seat else "") if n]
            who = f"Player {w}" + (f" ({', '.join(named)})" if named else "")
            cheer = " You win!" if seat is None and self.people == 1 else ""
            self.say(f"{who} wins.{cheer} Moves: {moves}",
                     f"[bold {STYLE[w]}]{escape(who)} wins[/].[bold]{escape(cheer)}[/] Moves: {moves}")
            return
        plain = f"Player {w} ({label}) wins: {how}.{cheer} Moves: {moves}"
        self.say(plain, f"[bold {STYLE[w]}]Player {w} ({label}) wins[/]: {how}.[bold]{escape(cheer)}[/] Moves: {moves}")

    def run(self) -> int:
        if not self.output.redraw:
            for line in self.head():
                self.say(*line)
        self.show()
        try:
            while not self.game.is_terminal(self.state):
                agent = self.seats[self.game.player(self.state)]
                if agent is None and not self.human_turn():
                    return 0
                if agent is not None:
                    self.engine_turn(agent)
        except Quit as stop:  # q typed while an engine prepared or thought: at once, as at a prompt
            self.abandon(stop.eof)
            return 0
        except KeyboardInterrupt:  # Ctrl-C: the game kept as q keeps it, then exit status 130 as ever
            self.interrupted()
            raise
        except AgentError:  # the engine failed (its one line follows): the moves so far, and how to go on
            moves = self.move_string()
            if moves and self.settings is not None and not self.output.closed:
                self.say(f"Game stopped: an engine failed. Moves: {moves}")
                self.say(f"Continue later with: {self.settings.command(moves)}")
            raise
        self.announce()
        return offer_review(self)  # r: each move judged, the summary
