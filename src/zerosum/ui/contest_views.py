"""The contest server's JSON views: a person's own page, the games with their replay links, the leaderboard
and the teacher's everything (:mod:`zerosum.ui.contest_server` answers them).  A student never reads another
program's words: the reason of a game the opponent forfeited is only its kind (:func:`own_reason`)."""

from __future__ import annotations

import re
from typing import Any

from ..contest.store import Store
from ..contest.submissions import closed_reason

#: what a replay link asks of the board viewer besides the game and its moves: no engine on either side (the
#: page's own setting, ``opponent=person``), so it shows the game as it was played and nothing more -- never a
#: move the engine would add where a game stopped with a player to move (a forfeit), nor the viewer's engine time
REPLAY = {"opponent": "person"}
#: the kind a forfeit's reason begins with (``crash``, ``timeout``, ``illegal move``, ``could not start``...)
_KIND = re.compile(r"[a-z][a-z ]{0,39}")


def replay(game: Any, opening: str | None, moves: str | None) -> str | None:
    """The whole move string of a game (the opening's, then its own), for the viewer; None if it does not parse."""
    from ..arena.openings import parse_opening

    try:
        actions = list(parse_opening(game, opening or "-"))
        state = game.states_of(actions)[-1]
        for text in (moves or "").split():
            action = game.parse_action(text, state)
            actions.append(action)
            state = game.result(state, action)
        return str(game.format_moves(actions))
    except Exception:  # noqa: BLE001 - a game the viewer cannot show keeps its text only
        return None


def games(store: Store, rows: list[dict[str, Any]], own: set[str] | None = None) -> list[dict[str, Any]]:
    """Games as the pages show them; ``own``: the entries of the person asking (their colour and result)."""
    from urllib.parse import urlencode

    from ..contest.standings import entry_names
    from ..games import get_game

    names = entry_names(store.connection(), store.config())
    spec = str(store.get("game"))
    game = get_game(spec)
    out = []
    for row in rows:
        line = replay(game, row["opening"], row["moves"]) if row["status"] == "done" else None
        item = {key: row[key] for key in ("id", "stage", "opening", "status", "result", "reason", "moves")}
        item.update(first=names.get(row["first"], row["first"]), second=names.get(row["second"], row["second"]),
                    replay=f"/board?{urlencode({'game': spec, 'moves': line, **REPLAY})}" if line is not None else None)
        if own is not None:
            item["seat"] = 1 if row["first"] in own else 2
            item["reason"] = own_reason(row, item["seat"])
        out.append(item)
    return out


def own_reason(row: Any, seat: int) -> str | None:
    """A game's reason as the player in ``seat`` may read it: whole, unless the other side forfeited, whose reason
    quotes that program's output (its errors, what it printed): then only its kind, ``the opponent forfeited:
    crash`` (the teacher's page and the opponent's own see it whole)."""
    reason = row["reason"]
    loser = {"1-0": 2, "0-1": 1}.get(row["result"] or "")
    if not row["forfeit"] or not reason or loser is None or loser == seat:
        return reason  # type: ignore[no-any-return]
    kind = str(reason).partition(":")[0].strip()
    return f"the opponent forfeited: {kind if _KIND.fullmatch(kind) else 'a rule broken'}"


def me(store: Store, name: str, role: str) -> dict[str, Any]:
    config = store.config()
    about = {"name": "teacher" if role == "teacher" else name, "role": role, "deadline": config.get("deadline"),
             "frozen": bool(config.get("frozen")), "closed": closed_reason(config), "game": config.get("game")}
    if role != "student":
        return about | {"submissions": [], "games": []}
    subs = store.submissions(name)
    entries = [f"sub:{s['id']}" for s in subs]
    return about | {"submissions": [submission(s) for s in subs],
                    "games": games(store, store.games(entries)[:300], set(entries))}


def submission(row: dict[str, Any]) -> dict[str, Any]:
    return {key: row[key] for key in ("id", "created", "filename", "kind", "sha256", "status", "message", "ply",
                                      "active")} | {"active": bool(row["active"])}


def leaderboard(store: Store, reasons: bool) -> list[dict[str, Any]]:
    """The leaderboard's rows; ``reasons``: with each entry's forfeit reasons, short as the page's table shows
    them (the games table and the final's files keep them whole), else without them."""
    from ..contest.standings import leaderboard, shortened

    rows = leaderboard(store)
    if not reasons:
        return [{k: v for k, v in row.items() if k != "forfeit_reasons"} for row in rows]
    return [row | {"forfeit_reasons": shortened(row["forfeit_reasons"])} for row in rows]


def teacher(store: Store) -> dict[str, Any]:
    config = store.config()
    subs = store.submissions()
    people = [{"name": n, "submissions": sum(1 for s in subs if s["name"] == n)} for n in store.people("student")]
    return {"config": config, "people": people,
            "submissions": [submission(s) | {"name": s["name"]} for s in subs],
            "games": games(store, store.games()[:500]), "leaderboard": leaderboard(store, True),
            "final": f"zerosum contest final {store.directory}", "results": final_results(store)}


#: what the teacher's page shows of each row of the final's results.json
FINAL_FIELDS = ("rank", "name", "kind", "rating", "rating_low", "rating_high", "points", "games")


def final_results(store: Store) -> dict[str, Any] | None:
    """The final's results as ``zerosum contest final`` wrote them (``DIR/results.json``), for the teacher's page:
    its games, grading rule (with its warning, or why it could not grade) and each row's :data:`FINAL_FIELDS`;
    None before any final; ``{"error": ...}`` for a file that cannot be read."""
    import json

    path = store.directory / "results.json"
    try:
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read(4 << 20))
        rows = [{k: row.get(k) for k in FINAL_FIELDS} for row in data["results"]]
        grade = data.get("grade") or {}
        return {"games": int(data["games"]), "rows": rows, "grade": {k: grade.get(k) for k in
                                                                  ("rule", "low", "high", "warning", "ungraded")}}
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        return {"error": f"results.json cannot be read: {type(exc).__name__}"}
