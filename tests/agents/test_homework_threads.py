"""An agent file's move while another thread imports (``zerosum play`` prepares its engines in a background
thread): the sibling modules are gathered from a snapshot of ``sys.modules``, and the agent's folder never
shadows a module another thread imports."""

import sys
import textwrap
import threading
import types
from pathlib import Path

import zerosum
from zerosum.agents.registry import make_agent


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_move_survives_a_thread_that_imports_while_it_ends(tmp_path):
    write(tmp_path / "student", "helpers_t1.py", "def column():\n    return 2\n")
    student = write(tmp_path / "student", "hw.py", "import helpers_t1\ndef player(board):\n"
                                                    "    return helpers_t1.column()\n")
    agent = make_agent(f"{student}:player")
    game = zerosum.get_game("connect4-8x8")
    stop = threading.Event()

    def importer() -> None:  # what a background import does to sys.modules: entries come and go
        names = [f"zs_fake_import_{i}" for i in range(50)]
        while not stop.is_set():
            for name in names:
                sys.modules[name] = types.ModuleType(name)
            for name in names:
                sys.modules.pop(name, None)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    thread = threading.Thread(target=importer, daemon=True)
    thread.start()
    try:
        for _ in range(300):
            assert agent(game, game.initial_state) == 2
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(old)
    assert "helpers_t1" not in sys.modules


def test_the_agent_s_folder_does_not_shadow_another_thread_s_import(tmp_path, monkeypatch):
    library = tmp_path / "lib"
    write(library, "zs_shadowed_mod.py", "WHO = 'library'\n")
    monkeypatch.syspath_prepend(str(library))
    folder = tmp_path / "student"
    write(folder, "zs_shadowed_mod.py", "WHO = 'student'\n")  # a student file named like a library module
    write(folder, "zs_own_helper.py", "WHO = 'helper'\n")
    started, done = threading.Event(), threading.Event()
    student = write(folder, "hw.py", """\
        import zs_own_helper
        hold = None
        def player(board):
            hold()
            import zs_own_helper as again
            assert again.WHO == 'helper'
            return 3
        """)
    agent = make_agent(f"{student}:player")
    seen = {}

    def hold() -> None:  # the move in progress while another thread imports the library module
        started.set()
        assert done.wait(10)

    def other() -> None:
        assert started.wait(10)
        import zs_shadowed_mod

        seen["who"] = zs_shadowed_mod.WHO
        done.set()

    agent.func.__globals__["hold"] = hold
    game = zerosum.get_game("connect4-8x8")
    thread = threading.Thread(target=other)
    thread.start()
    try:
        assert agent(game, game.initial_state) == 3
    finally:
        thread.join()
        sys.modules.pop("zs_shadowed_mod", None)
    assert seen["who"] == "library"
    assert "zs_own_helper" not in sys.modules and str(folder) not in sys.path


def test_modules_imported_while_the_siblings_are_gathered_are_left_alone(tmp_path, monkeypatch):
    # deterministic: another thread's import lands exactly while the agent's new modules are gathered
    from zerosum.agents import homework

    write(tmp_path, "helpers_t3.py", "def column():\n    return 1\n")
    student = write(tmp_path, "hw.py", "def player(board):\n    import helpers_t3\n    return helpers_t3.column()\n")
    agent = make_agent(f"{student}:player")
    sibling = homework._sibling
    landed = []

    def importing_meanwhile(name: str, folder: str) -> bool:
        if not landed:
            landed.append(types.ModuleType("zs_landed_meanwhile"))
            sys.modules["zs_landed_meanwhile"] = landed[0]
        return sibling(name, folder)

    monkeypatch.setattr(homework, "_sibling", importing_meanwhile)
    game = zerosum.get_game("connect4-8x8")
    try:
        assert agent(game, game.initial_state) == 1
        assert sys.modules["zs_landed_meanwhile"] is landed[0]  # another thread's module stays imported
        assert "helpers_t3" not in sys.modules
    finally:
        sys.modules.pop("zs_landed_meanwhile", None)
