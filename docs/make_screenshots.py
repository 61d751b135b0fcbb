"""Make the README's screenshots: docs/terminal.png (`zerosum play`), docs/browser.png (`zerosum serve`) and
docs/study-board.png (the page as a study board: the review's graph, bar, marks, best line and a variation).

Run from the repository root: ``python docs/make_screenshots.py`` (``--terminal-only``, ``--browser-only``,
``--study-only``: only those pictures).  Needs the solver, playwright and
/usr/bin/chromium (the terminal is recorded with rich and its SVG rendered by Chromium).
"""

from __future__ import annotations

import io
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from zerosum import get_game, make_agent
from zerosum.ui import terminal
from zerosum import analysis

DOCS = Path(__file__).resolve().parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
START = "5554224333234511764415115"  # Pons' Test_L2_R1, line 1: the side to move wins (score 4)


def terminal_svg() -> str:
    game = get_game("connect4")
    output = terminal.Output(io.StringIO(), True)
    output.console = Console(record=True, file=io.StringIO(), force_terminal=True, width=76, highlight=False)
    solver = make_agent("solver")
    session = terminal.PlaySession(game, {1: None, 2: None}, lambda prompt: None, output, game.parse_moves(START))
    session.seats = {session.game.player(session.state): None, 3 - session.game.player(session.state): solver}
    output.say(rich=f"[dim]$[/] zerosum play --moves {START}")
    session.show()
    session.hint()
    # the person follows the hint; the solver answers, until the end
    while not game.is_terminal(session.state):
        if session.seats[game.player(session.state)] is None:
            best = analysis.service(game).analyse(session.state).best
            output.console.print(f"{session.who_rich(game.player(session.state))} to move: {best + 1}")
            session.push(best)
            if not game.is_terminal(session.state):
                output.console.export_text(clear=True)  # keep the picture short: only the end of the game
                output.say(rich=f"[dim]... you follow the hint; the solver defends ...[/]")
        else:
            session.engine_turn(session.seats[game.player(session.state)])
    session.show()
    session.announce()
    return output.console.export_svg(title="zerosum play")


def hint_svg() -> str:
    game = get_game("connect4")
    output = terminal.Output(io.StringIO(), True)
    output.console = Console(record=True, file=io.StringIO(), force_terminal=True, width=76, highlight=False)
    # START has 25 moves: the second player is to move, so the person plays second (the words as play says them)
    session = terminal.PlaySession(game, {1: make_agent("solver"), 2: None}, lambda prompt: None, output,
                                   game.parse_moves(START))
    output.say(rich=f"[dim]$[/] zerosum play --moves {START} --first solver --second human")
    session.show()
    player = game.player(session.state)
    output.console.print(f"{session.who(player)} to move: h")
    session.hint()
    return output.console.export_svg(title="zerosum play")


def render_svg(svg: str, png: Path, browser) -> None:
    page = browser.new_page(viewport={"width": 900, "height": 600}, device_scale_factor=1)
    page.set_content(f"<html><body style='margin:0;background:#fff'>{svg}</body></html>")
    box = page.locator("svg").bounding_box()
    page.set_viewport_size({"width": int(box["width"]) + 2, "height": int(box["height"]) + 2})
    page.locator("svg").screenshot(path=str(png))
    page.close()


def serve() -> tuple[Any, int]:
    """``zerosum serve``'s app on a free port, in a thread: (the uvicorn server, its port)."""
    import uvicorn

    from zerosum.ui.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(engine_time=10, workers=1), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, port


#: a game of Connect Four with mistakes, and a variation from move 6 (the page's address form: docs/page.md)
STUDY = "?game=connect4&moves=44444326566553&v=5.1&opponent=person&side=1&analysis=1&ply=10"


def study_png(browser, png: Path) -> None:
    """The study board: the review's graph and marks, the bar, the best move and line, a variation."""
    server, port = serve()
    page = browser.new_page(viewport={"width": 1100, "height": 1010})
    page.goto(f"http://127.0.0.1:{port}/{STUDY}")
    page.wait_for_function("() => document.querySelectorAll('#eval-graph [data-graph-ply]').length === 15 "
                           "&& !document.querySelector('#review-info').textContent.includes('…') "
                           "&& document.querySelector('#best-line').textContent.startsWith('Best line')",
                           timeout=300000)
    page.wait_for_timeout(800)
    page.screenshot(path=str(png))
    page.close()
    server.should_exit = True


def browser_png(browser, png: Path) -> None:
    server, port = serve()
    page = browser.new_page(viewport={"width": 1000, "height": 860})
    page.goto(f"http://127.0.0.1:{port}/?game=connect4&moves={START}&opponent=solver&side=2&analysis=1")
    page.wait_for_function("() => document.querySelector('#analysis-info').textContent.startsWith('Exact')",
                           timeout=120000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(png))
    page.close()
    server.should_exit = True


def main() -> int:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        if "--browser-only" not in sys.argv and "--study-only" not in sys.argv:
            render_svg(hint_svg(), DOCS / "terminal-hint.png", browser)
            render_svg(terminal_svg(), DOCS / "terminal.png", browser)
        if "--terminal-only" not in sys.argv and "--study-only" not in sys.argv:
            browser_png(browser, DOCS / "browser.png")
        if "--terminal-only" not in sys.argv:
            study_png(browser, DOCS / "study-board.png")
        browser.close()
    print("wrote", *(str(DOCS / n) for n in ("terminal-hint.png", "terminal.png", "browser.png", "study-board.png")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
