"""Golden: the seven presets of docs/RULES.md play exactly as they did before issue 18.

The fixture ``golden_5b941a5.json`` was recorded ONCE from commit 5b941a5 (the engine before
the family of VARIANTS.md was added) by running this file as a script from a worktree of that
commit::

    git worktree add /tmp/golden5b 5b941a5
    PYTHONPATH=/tmp/golden5b .venv/bin/python tests/engine/test_family_golden.py --record

For deals 0-49 of each of the seven presets it holds the deal, and along a fixed playout of up
to 60 moves (see :func:`playout`) the list of legal moves before every move (in the engine's
order: the lab's random strategy picks by index, so the order is part of what a deal gives),
the refusal sentences of ``draw`` and ``redeal``, the final status, score, ``str(game)`` and
``game.to_json()``. Long texts are kept as SHA-256 digests, the played line and the number of
legal moves at each step in full, and deals 0-2 of each preset in full so that a difference
can be read. This module imports nothing but :mod:`pyramid_widget`, so that it runs
against the old commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pyramid_widget import Game, MoveKind, deal_from_number, format_deal

FIXTURE = Path(__file__).with_name("golden_5b941a5.json")
OLD_PRESETS = ("easy", "medium", "hard", "relaxed", "apophis", "cheops", "egypt")
DEALS = range(50)
MOVES = 60
FULL = range(3)


def digest(text: str) -> str:
    """The first 20 hex digits of the SHA-256 of ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def playout(rules: str, number: int) -> dict[str, Any]:
    """Play deal ``number`` of ``rules`` by a fixed rule and return what it showed.

    At step ``i`` the moves are the legal moves sorted by text; if any removes cards, the
    ``(number + i) % k``-th of the ``k`` removals is played, else the first move (so the
    playout draws, redeals and starts rounds when nothing can be removed).
    """
    game = Game(rules, number, clock=lambda: 0.0)
    legal_lists: list[list[str]] = []
    refusals: list[str] = []
    line: list[str] = []
    for step in range(MOVES):
        legal = [str(m) for m in game.legal_moves]
        legal_lists.append(legal)
        refusals.append(f"{game.explain('draw')}|{game.explain('redeal')}")
        moves = sorted(game.legal_moves, key=str)
        if not moves:
            break
        removals = [m for m in moves if m.kind in (MoveKind.PAIR, MoveKind.KING)]
        move = removals[(number + step) % len(removals)] if removals else moves[0]
        game.play(move)
        line.append(str(move))
    if len(line) == MOVES:
        legal_lists.append([str(m) for m in game.legal_moves])
    transcript = ";".join(",".join(legal) for legal in legal_lists)
    return {
        "line": " ".join(line),
        "counts": [len(legal) for legal in legal_lists],
        "legal": digest(transcript),
        "legal_sets": digest(";".join(",".join(sorted(legal)) for legal in legal_lists)),
        "refusals": digest("\n".join(refusals)),
        "status": f"{game.status.value}: {game.status_reason}",
        "score": game.score,
        "text": digest(str(game)),
        "json": digest(game.to_json()),
        "full": {"transcript": transcript, "text": str(game), "json": game.to_json()},
    }


def record() -> dict[str, Any]:
    """Everything the fixture holds, from the engine that is imported."""
    games: dict[str, dict[str, Any]] = {}
    for rules in OLD_PRESETS:
        for number in DEALS:
            seen = playout(rules, number)
            full = seen.pop("full")
            if number in FULL:
                seen["full"] = full
            games[f"{rules}/{number}"] = seen
    return {
        "recorded_from": "5b941a5",
        "deals": [format_deal(deal_from_number(n)) for n in DEALS],
        "games": games,
    }


def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def test_fixture_covers_every_old_preset_and_deal() -> None:
    games = _golden()["games"]
    assert sorted(games) == sorted(f"{r}/{n}" for r in OLD_PRESETS for n in DEALS)
    # the playouts reach more than the first moves: removals, redeals and ends are in them
    lines = " ".join(g["line"] for g in games.values())
    assert "redeal" in lines and "+" in lines and "next-round" in lines
    assert any(g["status"].startswith("lost") for g in games.values())


def test_numbered_deals_are_unchanged() -> None:
    assert [format_deal(deal_from_number(n)) for n in DEALS] == _golden()["deals"]


@pytest.mark.parametrize("rules", OLD_PRESETS)
def test_old_presets_play_as_at_5b941a5(rules: str) -> None:
    golden = _golden()["games"]
    for number in DEALS:
        want = golden[f"{rules}/{number}"]
        got = playout(rules, number)
        case = f"{rules} deal {number}"
        if number in FULL:
            assert got["full"]["transcript"] == want["full"]["transcript"], case
            assert got["full"]["text"] == want["full"]["text"], case
            assert got["full"]["json"] == want["full"]["json"], case
        assert got["line"] == want["line"], f"{case}: the playout's moves differ"
        assert got["counts"] == want["counts"], f"{case}: the numbers of legal moves differ"
        assert got["legal_sets"] == want["legal_sets"], f"{case}: the legal moves differ"
        assert got["legal"] == want["legal"], f"{case}: the legal moves come in another order"
        assert got["refusals"] == want["refusals"], f"{case}: a refusal sentence differs"
        assert (got["status"], got["score"]) == (want["status"], want["score"]), case
        assert got["text"] == want["text"], f"{case}: str(game) differs"
        assert got["json"] == want["json"], f"{case}: game.to_json() differs"


@pytest.mark.parametrize("rules", OLD_PRESETS)
def test_old_save_files_still_load(rules: str) -> None:
    """A game saved by the engine of 5b941a5 loads into today's and is the same game."""
    golden = _golden()["games"]
    for number in FULL:
        want = golden[f"{rules}/{number}"]["full"]
        game = Game.from_json(want["json"])
        assert str(game) == want["text"], f"{rules} deal {number}"


if __name__ == "__main__":  # pragma: no cover - run once to record the fixture
    if sys.argv[1:] != ["--record"]:
        raise SystemExit("usage: test_family_golden.py --record (from a 5b941a5 worktree)")
    FIXTURE.write_text(json.dumps(record(), separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size} bytes)")
