"""The floors of the package: commands in one place, arrows only downward, and a quick ``zerosum --help``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import zerosum

SRC = Path(zerosum.__file__).resolve().parent
#: the faces: nothing below them may import them
FACES = ("zerosum.commands", "zerosum.cli", "zerosum.ui", "zerosum.interop")
LOWER = ("agents", "solver", "games", "arena", "core", "kernels", "pool")


def imports_of(path: Path) -> set[str]:
    """Every zerosum module a source file imports, anywhere in it (relative imports resolved)."""
    module = ".".join(("zerosum", *path.relative_to(SRC).with_suffix("").parts))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("zerosum."):
            found.add(node.value.split(":")[0])
    return {name for name in found if name.startswith("zerosum")}


def test_no_engine_game_or_arena_module_imports_a_face() -> None:
    wrong = []
    for floor in LOWER:
        for path in sorted((SRC / floor).rglob("*.py")):
            for name in imports_of(path):
                if any(name == face or name.startswith(face + ".") for face in FACES):
                    wrong.append(f"{path.relative_to(SRC)} imports {name}")
    assert not wrong, "\n".join(wrong)


def test_every_subcommand_lives_in_the_commands_package() -> None:
    from zerosum.cli import SUBCOMMANDS, command

    for name, (module, _) in SUBCOMMANDS.items():
        assert module.startswith("zerosum.commands."), name
        add, run = command(name)
        assert add.__module__ == module and run.__module__ == module, name
    leftover = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if "commands" not in p.parts
                and p.name != "cli.py" and "import argparse" in p.read_text(encoding="utf-8")]
    assert not leftover, f"argparse outside zerosum.commands: {leftover}"


def test_help_loads_every_command_without_numba_or_the_faces() -> None:
    code = ("import sys, zerosum.cli as c; c.build_parser(); "
            "print(sorted({m.split('.')[0] if m.startswith('numba') else m for m in sys.modules "
            "if m.startswith(('numba', 'zerosum.ui.', 'zerosum.solver.solver', 'uvicorn', 'starlette'))}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
