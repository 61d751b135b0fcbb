"""``zerosum contest new --reference human`` is refused in one line with nothing written, as match and
tournament refuse ``human``: a contest's games are played with no one at the keyboard, and the reference
forfeited every game (``end of input (QuitGame)``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.contest.setup import ContestSettings, create_contest
from zerosum.errors import GameError


@pytest.mark.parametrize("references", [["human"], ["random", "boss=human"]])
def test_a_person_is_no_reference(tmp_path: Path, references: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("Ann\nBob\n")
    given = [word for ref in references for word in ("--reference", ref)]
    assert main(["contest", "new", str(tmp_path / "c"), "--game", "tictactoe", "--roster", str(roster), *given]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "a person cannot be a reference" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roster.csv"]


def test_a_person_is_no_reference_from_python(tmp_path: Path) -> None:
    settings = ContestSettings(game="tictactoe", roster=["Ann", "Bob"],
                               references=[{"name": "me", "spec": "human"}])
    with pytest.raises(GameError, match="a person cannot be a reference"):
        create_contest(tmp_path / "c", settings)
    assert not (tmp_path / "c").exists()
