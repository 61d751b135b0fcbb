"""Build Christophe Steininger's Connect Four solver (github.com/ChristopheSteininger/c4) for one board.

    python benchmarks/steininger_build.py --source DIR --cols 8 --rows 8

Nothing of that solver is kept in this project: the source folder is yours (``--source`` or the environment
variable ``ZEROSUM_C4_SOURCE``; e.g. ``git clone https://github.com/ChristopheSteininger/c4``).  Its tree is
copied to a build folder outside the project (``--build-dir``, default ``~/.cache/zerosum/steininger``), where
its compile-time settings (``src/solver/settings.h``: ``BOARD_WIDTH``, ``BOARD_HEIGHT``, ``NUM_THREADS``,
``NUM_TABLE_ENTRIES``) are set for the board, one search thread and the table asked for, and the solver's own
files are compiled with the flags of its CMake ``optimise`` preset (``-O3 -flto -DNDEBUG``), together with a
small driver of ours (:data:`DRIVER`) that reads positions a line at a time.  A build is kept and reused while
the source, the settings and the flags are the same.

The driver's protocol, one line each way:

    score COLS        ->  = SCORE NODES MICROSECONDS
    analysis COLS     ->  = S0,S1,...  NODES MICROSECONDS    (x for a full column)
    clear             ->  = cleared                           (empties the table)

``COLS``: the moves from the empty board as 0-based columns separated by commas, ``-`` for none.  Scores are
the side to move's, in the solver's own convention: a win with the stone of move ``p`` (counted from 1) scores
``1 + (cols * rows - p) // 2``, a loss its negative, a draw 0.  Bad input answers ``? REASON``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["DRIVER", "ENV_SOURCE", "FLAGS", "build", "min_table_entries", "find_source", "next_prime"]

#: the environment variable naming the source folder when ``--source`` is not given
ENV_SOURCE = "ZEROSUM_C4_SOURCE"
#: the compiler flags of the solver's CMake ``optimise`` preset (GCC/Clang), with threads
FLAGS = ("-std=c++20", "-O3", "-flto", "-DNDEBUG", "-pthread")
DEFAULT_BUILD_DIR = Path.home() / ".cache" / "zerosum" / "steininger"
#: bits of a position's key that each table entry keeps (64 minus score, type, move and work fields)
ENTRY_HASH_BITS = 46

#: our driver: reads a position a line, answers with the solver's score, its nodes and microseconds
DRIVER = r"""
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "solver/position.h"
#include "solver/settings.h"
#include "solver/solver.h"

static bool read_position(const std::string &text, Position &pos, std::string &error) {
    if (text == "-") return true;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        int col = -1;
        try { col = std::stoi(item); } catch (...) { error = "not a column: " + item; return false; }
        if (col < 0 || col >= BOARD_WIDTH || !pos.is_move_valid(col)) { error = "illegal move " + item; return false; }
        if (pos.is_game_over()) { error = "the game is over before move " + item; return false; }
        pos.move(col);
    }
    return true;
}

int main() {
    Solver solver{};
    std::string line;
    while (std::getline(std::cin, line)) {
        std::stringstream words(line);
        std::string task, moves = "-";
        words >> task >> moves;
        if (task == "clear") { solver.clear_state(); std::cout << "= cleared" << std::endl; continue; }
        if (task == "quit") break;
        Position pos{};
        std::string error;
        if (task != "score" && task != "analysis") error = "unknown task " + task;
        else if (read_position(moves, pos, error) && pos.is_game_over()) error = "the game is over";
        if (!error.empty()) { std::cout << "? " << error << std::endl; continue; }
        unsigned long long before = solver.get_merged_stats().get_num_nodes();
        auto start = std::chrono::steady_clock::now();
        std::string scores;
        if (task == "score") {
            scores = std::to_string(solver.solve_strong(pos));
        } else {
            for (int col = 0; col < BOARD_WIDTH; col++) {
                if (col) scores += ",";
                if (!pos.is_move_valid(col)) { scores += "x"; continue; }
                Position child{pos};
                child.move(col);
                scores += std::to_string(-solver.solve_strong(child));
            }
        }
        auto micros = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
        unsigned long long nodes = solver.get_merged_stats().get_num_nodes() - before;
        std::cout << "= " << scores << " " << nodes << " " << micros.count() << std::endl;
    }
    return 0;
}
"""

SETTINGS = "src/solver/settings.h"


def find_source(source: str | None) -> Path:
    """The solver's source folder: ``source``, else ``$ZEROSUM_C4_SOURCE``; SystemExit with one line when
    neither names a folder holding ``src/solver/settings.h``."""
    text = source or os.environ.get(ENV_SOURCE, "")
    if not text:
        raise SystemExit(f"steininger: error: no source folder: give --source DIR or set {ENV_SOURCE} "
                         "(a checkout of github.com/ChristopheSteininger/c4)")
    path = Path(text).expanduser().resolve()
    if not (path / SETTINGS).is_file():
        raise SystemExit(f"steininger: error: {path} holds no {SETTINGS}: not a checkout of Steininger's c4")
    return path


def next_prime(n: int) -> int:
    """The smallest odd prime >= n (the solver's table wants an odd, preferably prime, number of entries)."""
    n = max(3, n | 1)
    while any(n % d == 0 for d in range(3, int(n ** 0.5) + 1, 2)):
        n += 2
    return n


def min_table_entries(cols: int, rows: int) -> int:
    """The fewest entries the solver accepts for the board: it keeps part of the key in each entry and the rest
    is given by the index (its static assert: floor(log2 entries) + 45 > cols * (rows + 1))."""
    log = max(0, cols * (rows + 1) - ENTRY_HASH_BITS + 2)
    return next_prime(1 << log)


def _settings(text: str, cols: int, rows: int, entries: int) -> str:
    for name, value in (("BOARD_WIDTH", cols), ("BOARD_HEIGHT", rows), ("NUM_THREADS", 1),
                        ("NUM_TABLE_ENTRIES", entries)):
        text, found = re.subn(rf"(constexpr\s+\w+\s+{name}\s*=\s*)[^;]+;", rf"\g<1>{value};", text)
        if found != 1:
            raise SystemExit(f"steininger: error: {SETTINGS} has no single setting {name}; has the source changed?")
    return text


def build(source: Path, cols: int, rows: int, entries: int | None = None, build_dir: Path | None = None,
          native: bool = False, quiet: bool = False) -> Path:
    """The driver program built for a ``cols`` x ``rows`` board (four in a row), one thread and a table of
    ``entries`` (default: the fewest the board allows, at least 2**24 + a little); built once, then reused."""
    if not 4 <= cols <= 16 or not 4 <= rows or cols * (rows + 1) > 128:
        raise SystemExit(f"steininger: error: the solver takes boards of at least 4 x 4 with cols x (rows + 1) "
                         f"<= 128, not {cols} x {rows}")
    entries = entries or max(min_table_entries(cols, rows), next_prime(1 << 24))
    if entries < min_table_entries(cols, rows):
        raise SystemExit(f"steininger: error: a {cols} x {rows} board needs a table of at least "
                         f"{min_table_entries(cols, rows):,} entries")
    flags = FLAGS + (("-march=native",) if native else ())
    files = sorted(p for p in source.rglob("*") if p.is_file() and p.suffix in (".cpp", ".h")
                   and p.relative_to(source).parts[0] == "src")
    digest = hashlib.sha256(f"{cols}x{rows}|{entries}|{' '.join(flags)}|{DRIVER}".encode())
    for path in files:
        digest.update(str(path.relative_to(source)).encode() + path.read_bytes())
    folder = (build_dir or DEFAULT_BUILD_DIR) / f"{cols}x{rows}-{digest.hexdigest()[:12]}"
    program = folder / "driver"
    if program.is_file():
        return program
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(source / "src", folder / "src")
    settings = folder / SETTINGS
    settings.write_text(_settings(settings.read_text(), cols, rows, entries))
    (folder / "driver.cpp").write_text(DRIVER)
    units = [str(p.relative_to(folder)) for p in sorted((folder / "src" / "solver").rglob("*.cpp"))]
    command = [os.environ.get("CXX", "g++"), *flags, "-Isrc", "-o", "driver.tmp", "driver.cpp", *units]
    if not quiet:
        print(f"building Steininger's solver for {cols} x {rows} in {folder}: {' '.join(command[:len(flags) + 1])} ...",
              file=sys.stderr, flush=True)
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"steininger: error: the build failed in {folder}:\n{done.stderr[-3000:]}")
    (folder / "driver.tmp").rename(program)
    return program


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", help=f"the solver's source folder (default ${ENV_SOURCE})")
    parser.add_argument("--cols", type=int, default=8)
    parser.add_argument("--rows", type=int, default=8)
    parser.add_argument("--entries", type=int, default=None, help="table entries (default: the board's least)")
    parser.add_argument("--build-dir", type=Path, default=None, help=f"default {DEFAULT_BUILD_DIR}")
    parser.add_argument("--native", action="store_true", help="add -march=native")
    args = parser.parse_args()
    print(build(find_source(args.source), args.cols, args.rows, args.entries, args.build_dir, args.native))


if __name__ == "__main__":
    main()
