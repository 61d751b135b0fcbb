"""The page in real headless Chromium (Playwright with Debian's chromium): click, see the engine answer,
undo, analyse.  Skips cleanly without playwright or /usr/bin/chromium."""

from __future__ import annotations

import pytest

from page_browser import PONS, base_url, browser, engine_reply, page, wait_moves  # noqa: E402,F401  (fixtures)


def test_click_a_column_the_engine_answers_and_undo(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=first")
    wait_moves(page, "")
    page.click('[data-column="3"]')
    wait_moves(page, "41")  # 'first' answers in column 1
    assert page.locator(".cx-grid .disc").count() == 2
    assert page.locator('[data-column="3"] .disc.p1').count() == 1
    assert page.locator('[data-column="0"] .disc.p2').count() == 1
    assert "moves=41" in page.url
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Your turn')")
    assert "first legal move played 1" in page.text_content("#engine-info")  # its label
    page.click("#undo")  # a full move: the engine's and mine
    wait_moves(page, "")
    assert page.locator(".cx-grid .disc").count() == 0


def test_a_won_game_says_so_and_shows_the_line(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=first")
    wait_moves(page, "")
    for n in range(4):
        page.click('[data-column="3"]')
        wait_moves(page, "41" * (n + 1) if n < 3 else "4141414")
    status = page.text_content("#status")
    assert "Player 1 (red) wins" in status and "You win!" in status
    assert page.locator(".disc.win").count() == 4


def test_a_full_column_is_refused_with_a_message(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=111111&opponent=person")
    wait_moves(page, "111111")
    page.click('[data-column="0"]')
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('not a legal move')")
    assert page.text_content("#moves") == "111111"


def test_a_shared_link_opens_the_position_and_a_bad_one_is_explained(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=person")
    wait_moves(page, "4453")
    assert page.locator(".cx-grid .disc").count() == 4
    assert page.text_content("#status").startswith("Player 1 (red) to move.")
    page.goto(page.base + "/?game=connect4&moves=448&opponent=person")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('column 8 is outside')")


def test_tictactoe_and_migration_are_playable(page) -> None:
    page.goto(page.base + "/?game=tictactoe&opponent=first")
    wait_moves(page, "")
    page.click('[data-cell="4"]')
    wait_moves(page, "51")
    assert page.text_content('[data-cell="0"]').strip() == "O"
    page.goto(page.base + "/?game=migration:n=4&opponent=person")
    wait_moves(page, "")
    page.click('[data-at="1,0"]')
    wait_moves(page, "1,0")
    page.click('[data-at="3,1"]')
    wait_moves(page, "1,0;3,1")


def test_new_game_with_the_engine_moving_first(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=person")
    wait_moves(page, "")
    page.select_option("#opponent", "first")
    page.select_option("#side", "2")  # the engine moves at once
    wait_moves(page, "1")
    page.select_option("#game-select", "tictactoe")  # the menu starts the game at once: no New game needed
    page.wait_for_function("() => document.querySelector('[data-cell=\"0\"]')?.textContent === 'X'")
    assert page.text_content("#moves") == "1"  # the engine (X) took cell 1
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Your turn')")
    page.click('[data-cell="4"]')
    wait_moves(page, "152")


def test_the_analysis_switch_shows_every_column_score(page) -> None:
    pytest.importorskip("zerosum.solver.solver")
    path = PONS / "Test_L3_R1"
    if not path.exists():
        pytest.skip(f"Pons' test set is absent: no {path} (set ZEROSUM_BENCHMARKS to the benchmarks folder)")
    moves, score = path.read_text().splitlines()[0].split()
    page.goto(page.base + f"/?game=connect4&moves={moves}&opponent=person")
    wait_moves(page, moves)
    assert page.text_content('[data-score-column="3"]') == ""
    page.check("#analysis")
    page.wait_for_function("() => document.querySelector('#analysis-info').textContent.startsWith('Exact, from the solver')",
                           timeout=30000)
    shown = [page.text_content(f'[data-score-column="{c}"]') for c in range(7)]
    numbers = [int(s) for s in shown if s]
    assert numbers and max(numbers) == int(score)
    page.uncheck("#analysis")
    assert page.text_content('[data-score-column="3"]') == ""


def test_the_analysis_switch_on_tictactoe(page) -> None:
    pytest.importorskip("zerosum.agents.alphabeta")
    page.goto(page.base + "/?game=tictactoe&moves=1425&opponent=person&analysis=1")
    page.wait_for_function("() => (document.querySelector('[data-score-cell=\"2\"]')?.textContent || '') !== ''",
                           timeout=20000)
    assert page.text_content('[data-score-cell="2"]') == "win in 1 move"
    assert page.text_content('[data-score-cell="8"]') == "loss in 1 move"
    assert page.text_content("#analysis-info").startswith("Exact, from ")
    assert page.locator(".score.estimate").count() == 0


def _colour(page, selector: str, prop: str) -> str:
    return page.eval_on_selector(selector, f"n => getComputedStyle(n).{prop}")


def test_othello_draws_black_and_white_discs_and_plays(page) -> None:
    page.goto(page.base + "/?game=othello&opponent=first")
    wait_moves(page, "")
    assert page.locator(".cell.p1").count() == 2 and page.locator(".cell.p2").count() == 2
    black, white = _colour(page, ".cell.p1", "color"), _colour(page, ".cell.p2", "color")
    assert black == "rgb(15, 15, 16)" and white == "rgb(248, 250, 252)"  # the view's colours, not red/yellow
    assert "black" in page.text_content("#status")
    page.click('[data-at="4,5"]')  # f5
    page.wait_for_function("() => document.querySelector('#moves').textContent.startsWith('f5') "
                           "&& document.querySelector('#moves').textContent.length === 4")
    assert page.locator(".cell.p1").count() + page.locator(".cell.p2").count() == 6


def test_connect_four_discs_stay_red_and_yellow(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=44&opponent=person")
    wait_moves(page, "44")
    assert _colour(page, ".disc.p1", "backgroundColor") == "rgb(239, 68, 68)"
    assert _colour(page, ".disc.p2", "backgroundColor") == "rgb(250, 204, 21)"


def test_an_estimate_is_marked_on_the_page(page) -> None:
    pytest.importorskip("zerosum.agents.alphabeta")
    # 15 x 9 needs more than 128 bits: the solver cannot take it, alpha-beta estimates
    page.goto(page.base + "/?game=connectx:rows=15,cols=9,k=4&moves=45&opponent=person&analysis=1")
    page.wait_for_function("() => document.querySelector('#analysis-info').textContent.startsWith('Estimate, from ')",
                           timeout=20000)
    shown = [page.text_content(f'[data-score-column="{c}"]') for c in range(9)]
    assert all(s.startswith("≈") for s in shown), shown
    assert page.locator(".score.estimate").count() == 9


def test_the_analysis_fills_in_win_draw_loss_then_exact(page) -> None:
    pytest.importorskip("zerosum.solver.solver")
    from zerosum.analysis import service
    from zerosum.games import get_game

    moves = "4444433321"  # ply 10, past the book: the solver proves it slice by slice
    game = get_game("connect4")
    truth = service(game).solver.analyze(game.from_moves(moves))
    page.goto(page.base + f"/?game=connect4&moves={moves}&opponent=person")
    wait_moves(page, moves)
    # record every figure each column shows, in order, as the page changes them
    page.evaluate("""() => { window.seen = []; for (let c = 0; c < 7; c++) {
        const n = document.querySelector(`[data-score-column="${c}"]`);
        new MutationObserver(() => window.seen.push([c, n.textContent, n.className])).observe(n,
            { childList: true, characterData: true, subtree: true, attributes: true }); } }""")
    page.check("#analysis")
    page.wait_for_function("() => document.querySelector('#analysis-info').textContent.startsWith('Exact, from the solver')",
                           timeout=60000)
    shown = [page.text_content(f'[data-score-column="{c}"]') for c in range(7)]
    assert [int(s) if s else None for s in shown] == truth
    for c, text, cls in page.evaluate("() => window.seen"):
        if text in ("W", "L"):  # a proven class before its distance: never a figure that looks like an estimate
            assert "proven" in cls and "estimate" not in cls and (text == "W") == (truth[c] > 0)
        assert "≈" not in text


def test_why_after_an_engine_move_on_tictactoe_shows_the_table(page) -> None:
    pytest.importorskip("zerosum.agents.minimax")
    page.goto(page.base + "/?game=tictactoe&moves=1425&opponent=minimax:depth=4&side=1")
    wait_moves(page, "1425")
    assert page.locator("#why").is_hidden()  # no engine move yet: nothing to explain
    page.click('[data-cell="8"]')  # X takes 9; O wins with 6 (4 5 6)
    wait_moves(page, "142596")
    page.click("#why")
    page.wait_for_selector("#why-panel tr[data-why-move]", timeout=20000)
    rows = page.locator("#why-panel tr[data-why-move]")
    assert sorted(rows.nth(i).get_attribute("data-why-move") for i in range(rows.count())) == ["3", "6", "7", "8"]
    chosen = page.locator("#why-panel tr.chosen")
    assert chosen.count() == 1 and chosen.get_attribute("data-why-move") == "6"
    assert "win" in chosen.text_content()
    assert "6 is chosen" in page.text_content("#why-panel")
    page.goto(page.base + "/?game=tictactoe&moves=1425&opponent=minimax:depth=4&side=1")
    wait_moves(page, "1425")
    assert page.locator("#why").is_hidden() and page.locator("#why-panel").is_hidden()


def test_why_after_the_solver_moves_uses_its_exact_scores(page) -> None:
    pytest.importorskip("zerosum.solver.solver")
    page.goto(page.base + "/?game=connect4&moves=444433335555&opponent=solver&side=1")
    wait_moves(page, "444433335555")
    page.click('[data-column="0"]')
    page.wait_for_function("() => document.querySelector('#moves').textContent.length === 14", timeout=30000)
    page.click("#why")
    page.wait_for_selector("#why-panel tr[data-why-move]", timeout=30000)
    chosen = page.locator("#why-panel tr.chosen")
    assert chosen.count() == 1 and chosen.get_attribute("data-why-move") == page.text_content("#moves")[-1]
    assert "exact scores: " in chosen.text_content()  # the other columns score less (or, tied, not more)


def test_on_8x8_the_page_says_why_alphabeta_moved_early_and_the_solver_analyses_late(page) -> None:
    pytest.importorskip("zerosum.solver.solver")
    from zerosum.games import get_game
    from zerosum.solver import Solver
    from zerosum.solver.sampling import quiet_positions

    page.goto(page.base + "/?game=connect4-8x8&opponent=solver:time=0.2")  # alpha-beta's move in 0.2 s, not 1 s
    wait_moves(page, "")
    said = engine_reply(page, 3)
    assert "at most 40 empty cells (from ply 24)" in said and "alphabeta:time=0.2" in said, said  # ply 1: why
    game = get_game("connect4-8x8")
    late = quiet_positions(game, 34, 1, 2)[0]  # ply 34: within the solver's reach (ply 30's proof took a second)
    moves = game.to_moves(late)
    truth = Solver(game, book=False).analyze(late)
    page.goto(page.base + f"/?game=connect4-8x8&moves={moves}&opponent=person&analysis=1")
    page.wait_for_function("() => document.querySelector('#analysis-info').textContent.startsWith('Exact, from the solver')",
                           timeout=60000)
    shown = [page.text_content(f'[data-score-column="{c}"]') for c in range(8)]
    assert [int(s) if s else None for s in shown] == truth
