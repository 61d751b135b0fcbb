"""``zerosum kaggle-agent``'s words: a wait past two seconds is said (the command was silent for 4-15 s before its
one line), its line names the solver's opening agent when one is given, and the import closure it follows parses
each module once (it parsed each five times: most of the wait)."""

from __future__ import annotations

import ast
from collections import Counter

from zerosum.cli import main
from zerosum.core.files import shown


def test_writing_a_submission_says_what_it_is_doing_past_its_wait(tmp_path, capsys, monkeypatch) -> None:
    from zerosum.agents import prepare_words

    monkeypatch.setattr(prepare_words, "SAY_AFTER", 0.05)  # the command's own wait is seconds: said at once here
    path = tmp_path / "main.py"
    assert main(["kaggle-agent", "random", "-o", str(path)]) == 0
    lines = capsys.readouterr().err.strip().splitlines()
    said = f"zerosum: writing {shown(path)}: finding the modules the agent needs and compressing them: "
    assert lines[0].startswith(said), lines
    assert lines[-1].startswith(f"wrote {path} (") and lines[-1].endswith("Kaggle ConnectX agent 'random'"), lines


def test_the_line_names_the_solvers_opening_agent(tmp_path, capsys, monkeypatch) -> None:
    from zerosum.interop import kaggle_bundle

    # what is carried is not what this checks: nothing packed (the solver's book takes 3-6 s to compress)
    monkeypatch.setattr(kaggle_bundle, "payload", lambda modules: ("", "0" * 16, 0))
    path = tmp_path / "main.py"
    assert main(["kaggle-agent", "solver", "--opening", "random", "-o", str(path)]) == 0
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.endswith("Kaggle ConnectX agent 'solver', opening agent 'random'"), line
    assert main(["kaggle-agent", "solver", "-o", str(path), "--overwrite"]) == 0  # the default is not named
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith("Kaggle ConnectX agent 'solver'")


def test_a_submissions_modules_are_each_parsed_once(monkeypatch) -> None:
    from zerosum.interop import kaggle_bundle

    cached = getattr(kaggle_bundle, "_parsed", None)
    if cached is not None:
        cached.cache_clear()  # as a fresh `zerosum kaggle-agent` finds it
    parsed: Counter[str] = Counter()
    parse = ast.parse

    def counted(source, filename="<unknown>", *args, **kwargs):  # type: ignore[no-untyped-def]
        parsed[str(filename)] += 1
        return parse(source, filename, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counted)
    module = "zerosum.agents.alphabeta"
    assert kaggle_bundle.uncarried(module) is None  # as the writer checks the agent, then packs its modules
    files = kaggle_bundle.bundle_files([module])
    assert sum(1 for name, _ in files if name.endswith(".py")) == len(parsed)
    assert set(parsed.values()) == {1}, parsed.most_common(3)

