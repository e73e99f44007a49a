"""Fuzz: hostile saved games and hostile rule-set dicts (issue 14, "a fuzz suite that keeps it
so"). Seeded (``derandomize``), a few seconds each.

Every case either loads cleanly into a valid game (or rule set) that survives its own round
trip, or raises a :class:`~pyramid_widget.errors.PyramidError` with one line of text. No other
exception escapes, and the object handed in is not changed. Run with ``-s`` to see the counts;
set ``PYRAMID_FUZZ_SCALE=10`` for ten times as many cases.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import os
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import Game, PyramidError
from pyramid_widget.engine.rules import PRESETS, RuleSet, Scoring, get_rules
from tests.support.engine import bottom


def fuzz(examples: int) -> settings:
    """Seeded settings for ``examples`` cases (times ``PYRAMID_FUZZ_SCALE``, default 1, for a
    longer run before a release)."""
    return settings(
        max_examples=examples * int(os.environ.get("PYRAMID_FUZZ_SCALE", "1")),
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _played(game: Game, count: int, now: list[float]) -> Game:
    for _ in range(count):
        moves = list(game.legal_moves)
        if not moves:
            break
        removals = [m for m in moves if m.is_removal]
        now[0] += 1.25
        game.play(removals[0] if removals else moves[-1])
    return game


def _reader(now: list[float]) -> Callable[[], float]:
    return lambda: now[0]


def _bases() -> list[dict[str, Any]]:
    out = []
    for rules, deal, count in (
        ("medium", 7, 14),
        ("easy", 3, 10),
        ("egypt", 5, 12),
        ("relaxed", 9, 8),
    ):
        now = [0.0]
        g = _played(Game(rules, deal=deal, clock=_reader(now)), count, now)
        if g.can_undo:
            g.undo()
        out.append(json.loads(g.to_json()))
    now = [0.0]
    g = Game.from_position(
        "egypt",
        pyramid=bottom("5H", "8C", "KD", "9S"),
        stock=["2D", "4C", "JH"],
        cells=["QS"],
        clock=lambda: now[0],
    )
    g.play("5H+8C")
    g.undo()
    out.append(json.loads(g.to_json()))
    out.append(
        json.loads(
            Game.from_position(
                "apophis",
                pyramid=bottom("5H", "KD"),
                stock=["8C", "2S"],
                wastes=[["4C"], [], ["9H"]],
                clock=lambda: 0.0,
            ).to_json()
        )
    )
    return out


BASES = _bases()
MARKUP = [
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "{{7*7}}",
    "false",
    "true",
    "5H",
    "draw",
    "\x00\n\t",
    "",
]


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


hostile_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([2**63, 2**64 - 1, 2**64, 10**400, -1, -(10**30), 0]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(MARKUP),
    st.lists(st.integers(min_value=-3, max_value=60), max_size=4),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=3),
    st.integers(min_value=20, max_value=120).map(nested),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


def mutate(data: dict[str, Any], draw: Callable[..., Any]) -> dict[str, Any]:
    """One to three random edits of a copy of ``data``."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        path = draw(st.sampled_from(_paths(data)[1:]))
        parent, last = _at(data, path[:-1]), path[-1]
        action = draw(
            st.sampled_from(["replace", "replace", "replace", "delete", "add", "swap", "cut"])
        )
        if action == "replace":
            parent[last] = draw(hostile_values)
        elif action == "delete":
            del parent[last]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "<b>x</b>", "deal_number", "score"]))] = draw(
                hostile_values
            )
        elif action == "add":
            parent.append(draw(hostile_values))
        elif action == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(min_value=0, max_value=len(parent) - 1))
            parent[last], parent[other] = parent[other], parent[last]
        elif action == "cut" and isinstance(parent, list):
            del parent[last:]
        if not isinstance(data, dict):
            break
    return data


def one_line(error: PyramidError) -> None:
    text = str(error)
    assert text and "\n" not in text and len(text) < 600, text


def check_clean_game(game: Game) -> None:
    """A loaded game is a valid one: its own save loads back to the same game."""
    game.pause()  # a loaded game in play runs the real clock
    text = game.to_json()
    twin = Game.from_json(text)
    twin.pause()
    mine, theirs = json.loads(text), json.loads(twin.to_json())
    assert theirs.pop("elapsed") >= mine.pop("elapsed")
    assert theirs == mine and str(twin) == str(game)
    assert twin.history == game.history and twin.score == game.score
    assert isinstance(game.rules, RuleSet) and math.isfinite(game.elapsed) and game.elapsed >= 0


SAVES: Counter[str] = Counter()


@fuzz(600)
@given(st.data())
def hostile_saved_game(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(BASES))
    edited = mutate(base, data.draw)
    form = data.draw(st.sampled_from(["dict", "text", "text", "truncated", "deep"]))
    source: Any = edited
    if form == "text":
        source = json.dumps(edited)
    elif form == "truncated":
        text = json.dumps(edited)
        source = text[: data.draw(st.integers(min_value=0, max_value=max(0, len(text) - 1)))]
    elif form == "deep":
        depth = data.draw(st.integers(min_value=500, max_value=200_000))
        source = (
            '{"format":"pyramid-widget/game","version":1,"rules":' + "[" * depth + "]" * depth + "}"
        )
    before = json.dumps(source) if isinstance(source, dict) else source
    SAVES["cases"] += 1
    try:
        game = Game.from_json(source)
    except PyramidError as error:
        one_line(error)
        SAVES["refused"] += 1
    else:
        check_clean_game(game)
        SAVES["loaded"] += 1
    after = json.dumps(source) if isinstance(source, dict) else source
    assert after == before  # the caller's data is not changed


rule_values = st.one_of(
    hostile_values, st.sampled_from([1, 2, 3, 8, 9, None, "sum13", "adjacent", "all"])
)
RULE_FIELDS = [f.name for f in dataclasses.fields(RuleSet)]
SCORING_FIELDS = [f.name for f in dataclasses.fields(Scoring)]
RULES: Counter[str] = Counter()


def check_clean_rules(rules: RuleSet) -> None:
    """A rule set that loaded is well typed, round-trips and plays."""
    for name in ("kings_alone", "stock_top_available", "stock_face_up", "stall_rule", "rounds"):
        assert type(getattr(rules, name)) is bool
    for name in ("waste_piles", "draw_count", "cells", "undo_depth"):
        assert type(getattr(rules, name)) is int
    assert rules.passes is None or type(rules.passes) is int
    assert isinstance(rules.name, str) and isinstance(rules.description, str)
    for name in SCORING_FIELDS:
        assert not isinstance(getattr(rules.scoring, name), str)
    assert get_rules(json.loads(json.dumps(rules.to_dict()))) == rules
    game = Game(rules, deal=1, clock=lambda: 0.0)
    for _ in range(3):
        moves = list(game.legal_moves)
        if not moves:
            break
        game.play(moves[0])


@fuzz(800)
@given(st.data())
def hostile_rule_set_dict(data: st.DataObject) -> None:
    base = PRESETS[data.draw(st.sampled_from(sorted(PRESETS)))].to_dict()
    edited = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        where = data.draw(
            st.sampled_from(["field", "field", "scoring", "unknown", "delete", "zones"])
        )
        if where == "field":
            edited[data.draw(st.sampled_from(RULE_FIELDS))] = data.draw(rule_values)
        elif where == "scoring" and isinstance(edited.get("scoring"), dict):
            edited["scoring"][data.draw(st.sampled_from(SCORING_FIELDS))] = data.draw(rule_values)
        elif where == "unknown":
            edited[data.draw(st.sampled_from(["extra", "<i>x</i>", "scoring2"]))] = data.draw(
                rule_values
            )
        elif where == "delete" and edited:
            del edited[data.draw(st.sampled_from(sorted(edited)))]
        elif where == "zones":
            edited["pair_zones"] = data.draw(
                st.lists(
                    st.one_of(
                        st.sampled_from(
                            ["pyramid+waste", "stock+waste", "cell+pyramid", "waste+waste"]
                        ),
                        hostile_values,
                    ),
                    max_size=4,
                )
            )
    how = data.draw(st.sampled_from(["get_rules", "from_dict", "replace", "json"]))
    before = json.dumps(edited)
    RULES["cases"] += 1
    try:
        if how == "get_rules":
            rules = get_rules(edited)
        elif how == "from_dict":
            rules = RuleSet.from_dict(edited)
        elif how == "json":
            rules = get_rules(json.loads(json.dumps(edited)))
        else:
            field = data.draw(st.sampled_from(RULE_FIELDS))
            # to_dict leaves out the family's fields where they hold their defaults
            value = edited.get(field, base.get(field, getattr(get_rules(base), field)))
            rules = get_rules(base).replace(**{field: value})
    except PyramidError as error:
        one_line(error)
        RULES["refused"] += 1
    else:
        check_clean_rules(rules)
        RULES["loaded"] += 1
    assert json.dumps(edited) == before


def _run_and_count(prop: Callable[[], None], counts: Counter[str], what: str) -> None:
    """Run one fuzz property from scratch and check its own counts: it reached both outcomes
    (edits that still load and edits that are refused). Printed with ``-s``."""
    counts.clear()
    prop()
    print(f"\n{what}: {dict(counts)}")
    assert counts["cases"] > 0 and counts["loaded"] > 0 and counts["refused"] > 0, counts


def test_hostile_saved_games() -> None:
    """Random hostile edits of real saves load into a valid game or raise one PyramidError."""
    _run_and_count(hostile_saved_game, SAVES, "hostile saves")


def test_hostile_rule_set_dicts() -> None:
    """Random hostile rule-set dicts build a valid rule set or raise one PyramidError."""
    _run_and_count(hostile_rule_set_dict, RULES, "rule-set dicts")
