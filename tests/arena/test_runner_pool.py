"""The arena's games are jobs of the engine pool: workers live on from game to game."""

from __future__ import annotations

from zerosum.arena.play import GameTask, run_game
from zerosum.arena.runner import play_supervised
from zerosum.pool import Pool


def test_an_agent_gets_its_grace_once_per_worker_not_once_per_game() -> None:
    task = GameTask(0, "tictactoe", "first", "random:seed=1", "", seed=5)
    thinks: list[list[bool]] = [[], []]
    with Pool(size=1, wait=None, memory_limit=None, rss_limit=None, quiet=True) as pool:
        for game in range(2):
            def clock(msg: tuple, game: int = game) -> float:  # type: ignore[type-arg]
                if msg[0] == "think":
                    thinks[game].append(msg[2])
                return 60.0
            pool.run(run_game, (task,), 60, clock)
        record = play_supervised(pool, task, grace=30.0)
    assert thinks[0][:2] == [True, True] and not any(thinks[0][2:])  # each agent's first move is cold
    assert thinks[1] and not any(thinks[1])  # the next game on the same worker: warm from the start
    assert record.moves and record.result in ("1-0", "0-1", "1/2-1/2") and not record.forfeit
