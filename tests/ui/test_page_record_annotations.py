"""In Chromium: a record opened on the page and saved again (Save record) keeps every move's mark and comment --
the main line's and every variation's -- on the same move, and its own Annotator; moves the person added carry
none; where the page's review judged the main line again, its marks stand there and the Annotator names both.

The truth is the record itself: both records are read with :func:`zerosum.records.parse` and their trees
compared node by node (each node named by its moves from the start)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)

from zerosum import records

#: a teacher's notes: marks and comments on the main line and in variations, one inside another
TAUGHT = """[Game "connect4"]
[Annotator "a teacher; and a class"]
[Result "*"]

1. 4 {the centre} 1... 4 2. 3!? {a try} ( 2. 5 {the mirror} 2... 5? {too slow} ( 2... 3!! {the answer} 3. 3 )
3. 5 ) ( 2. 1?! ) 2... 3 3. 2 {x} ( 3. 6?! 3... 6 {and back} ) 3... 5 *
"""

#: a study with variations (the audit's study.pgn): `zerosum review` annotates it, a comment inside a variation
STUDY = """[Game "connectx:rows=6,cols=7,k=4"]
[Result "*"]

1. 4 4 2. 4 ( 2. 1 1 ) 2... 4 3. 4 ( 3. 5 ) 3... 4 4. 1?? {blunder: bad} 4... 3 *
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory) -> str:
    """`zerosum review study.pgn -o rev.pgn`: the solver's marks on the main line, and its refutation added as a
    variation with a comment."""
    folder = tmp_path_factory.mktemp("review")
    (folder / "study.pgn").write_text(STUDY, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "zerosum", "review", "study.pgn", "-o", "rev.pgn"], cwd=folder,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    text = (folder / "rev.pgn").read_text(encoding="utf-8")
    assert "{refutation}" in text and "zerosum review" in text, text
    return text


def nodes(record: records.Record) -> dict[str, tuple[str | None, str | None]]:
    """Every move of the record's tree, by its moves from the start (one digit a move): its mark and comment."""
    found: dict[str, tuple[str | None, str | None]] = {}

    def walk(before: str, moves, notes, variations) -> None:
        for i, move in enumerate(moves):
            for v in variations.get(i, ()):
                walk(before, v.moves, v.notes, v.variations)
            before += move
            note = notes[i] if i < len(notes) else None
            found[before] = (None, None) if note is None else (note.mark, note.comment)

    walk("", record.moves, record.notes, record.variations)
    return found


def open_record(page, text: str, analysis: str = "0") -> None:
    page.goto(page.base + f"/?game=tictactoe&opponent=person&analysis={analysis}")  # another game first
    wait_moves(page, "")
    page.click("#record-box summary")
    page.fill("#record-text", text)
    page.click("#record-open")
    page.wait_for_function("() => new URL(location.href).searchParams.get('game') === 'connect4'", timeout=30000)
    wait_moves(page, "")  # the record opens at its start
    page.locator("#variations button[data-node]").first.wait_for(timeout=30000)


def saved(page) -> tuple[records.Record, str]:
    with page.expect_download() as download:
        page.click("#save-record")
    (record,) = records.parse(open(download.value.path(), encoding="utf-8").read())
    return record, page.text_content("#save-info")


def test_a_record_saved_as_it_was_opened_keeps_every_mark_and_comment_and_its_annotator(page, reviewed) -> None:
    for text in (TAUGHT, reviewed):
        (before,) = records.parse(text)
        open_record(page, text)
        after, said = saved(page)
        assert nodes(after) == nodes(before) and after.lines() == before.lines(), text
        assert after.tags["Annotator"] == before.tags["Annotator"]
        marked = sum(1 for v in nodes(before).values() if any(v))
        assert f"the record's marks and comments on {marked} moves" in said, said
        if text == TAUGHT:  # docs/page.md's words
            assert said == "Saved the main line, and 4 variations; the record's marks and comments on 9 moves."
    # the variations' marks are shown: in the Variations panel, and in the move list on the variation's line
    refutation = page.locator('#variations button[data-moves="44444412"]')
    assert refutation.get_attribute("title") == "refutation" and "refutation" in refutation.get_attribute("aria-label")
    refutation.click()
    wait_moves(page, "44444412")
    assert page.locator('#move-list button[data-ply="8"]').get_attribute("title") == "refutation"


def test_moves_added_in_the_record_s_tree_carry_no_mark_and_the_others_keep_theirs(page) -> None:
    (before,) = records.parse(TAUGHT)
    open_record(page, TAUGHT)
    page.click('#variations button[data-moves="4455"]')  # inside the variation 2. 5 2... 5?
    wait_moves(page, "4455")
    page.click('[data-column="0"]')  # 3. 1: a line of its own, before the record's 2... 3!! in the page's order
    wait_moves(page, "44551")
    page.click('#variations button[data-moves="44"]')
    wait_moves(page, "44")
    page.click('[data-column="6"]')  # 2. 7 beside 2. 3!?, 2. 5 and 2. 1?!
    wait_moves(page, "447")
    page.click('#variations button[data-moves="44555"]')
    wait_moves(page, "44555")
    page.click('[data-column="1"]')  # 3... 2: the variation's line goes on
    wait_moves(page, "445552")
    after, said = saved(page)
    added = {"44551", "447", "445552"}
    want = {**nodes(before), **{moves: (None, None) for moves in added}}
    assert nodes(after) == want
    assert after.tags["Annotator"] == "a teacher; and a class" and "on 9 moves" in said, said


def test_where_the_page_s_review_judged_the_main_line_its_marks_stand_and_the_annotator_names_both(page) -> None:
    (before,) = records.parse(TAUGHT)
    open_record(page, TAUGHT, analysis="1")
    page.wait_for_function("n => document.querySelectorAll('#eval-graph [data-graph-ply]').length === n "
                           "&& !document.querySelector('#review-info').textContent.includes('…')",
                           arg=len(before.moves) + 1, timeout=60000)
    after, said = saved(page)
    main = "".join(before.moves)
    ours, theirs = nodes(after), nodes(before)
    assert {k: v for k, v in ours.items() if not main.startswith(k)} == {
        k: v for k, v in theirs.items() if not main.startswith(k)}  # the variations: the record's marks
    assert ours["4"] == ("!", "best (only move): win in 21 moves")  # the main line: the review's
    assert all(ours[main[:i]] != theirs[main[:i]] for i in (1, 3, 5))  # none of the record's is left there
    assert after.tags["Annotator"] == "a teacher; and a class; zerosum serve, the page's review"
    assert "with the review's marks" in said and "on 6 moves" in said, said


def test_a_record_without_annotator_says_unknown_and_a_move_gone_from_the_tree_loses_its_mark(page) -> None:
    text = TAUGHT.replace('[Annotator "a teacher; and a class"]\n', "")
    open_record(page, text)
    # the tree of a history entry without the variation 2. 1?! (as Back brings an earlier tree)
    page.evaluate("""() => {
      const state = { ...history.state, lines: history.state.lines.filter((l) => l.join("") !== "441") };
      history.pushState(state, "", location.href);
      window.dispatchEvent(new PopStateEvent("popstate", { state }));
    }""")
    page.locator('#variations button[data-moves="441"]').wait_for(state="detached", timeout=15000)
    after, said = saved(page)
    (before,) = records.parse(text)
    assert nodes(after) == {k: v for k, v in nodes(before).items() if k != "441"}
    assert after.tags["Annotator"] == "?" and "on 8 moves" in said, said  # PGN's unknown: not the page's review


def test_a_new_game_is_not_the_record_s_tree(page) -> None:
    open_record(page, TAUGHT)
    page.click("#new-game")
    wait_moves(page, "")
    page.click('[data-column="3"]')  # the record's first move, in another game: its comment is not this game's
    wait_moves(page, "4")
    after, said = saved(page)
    assert nodes(after) == {"4": (None, None)} and "Annotator" not in after.tags and "record's" not in said


def test_the_page_s_annotator_and_tag_limit_are_the_server_s() -> None:
    from pathlib import Path

    from zerosum.records.lexer import MAX_TAG
    from zerosum.ui import study

    script = (Path(study.__file__).parent / "static" / "study.js").read_text(encoding="utf-8")
    assert f'const PAGE_ANNOTATOR = "{study.PAGE_ANNOTATOR}", MAX_TAG = {MAX_TAG};' in script
