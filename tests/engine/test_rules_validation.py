"""Every field of a rule set is checked by type and range when it is built or loaded
(issue 14 item 6): a string where a flag or a number belongs is refused, never believed."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from pyramid_widget import Game
from pyramid_widget.engine.rules import (
    MAX_DESCRIPTION,
    MAX_NAME,
    PRESETS,
    RuleSet,
    Scoring,
    get_rules,
)
from pyramid_widget.errors import InvalidRulesError


def medium(**changes: Any) -> dict[str, Any]:
    data = get_rules("medium").to_dict()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "field", ["kings_alone", "stock_top_available", "stock_face_up", "stall_rule", "rounds"]
)
@pytest.mark.parametrize("value", ["false", "true", 0, 1, None, [True]])
def test_a_flag_must_be_a_bool(field: str, value: object) -> None:
    with pytest.raises(InvalidRulesError, match=f"{field} must be true or false"):
        get_rules(medium(**{field: value}))
    with pytest.raises(InvalidRulesError, match=f"{field} must be true or false"):
        RuleSet(name="x", **{field: value})  # type: ignore[arg-type]
    with pytest.raises(InvalidRulesError, match=f"{field} must be true or false"):
        get_rules("medium").replace(**{field: value})


def test_kings_alone_false_as_a_string_does_not_let_kings_go_alone() -> None:
    with pytest.raises(InvalidRulesError, match="kings_alone"):
        RuleSet.from_dict(medium(name="strings", kings_alone="false"))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("waste_piles", 9),
        ("waste_piles", "1"),
        ("waste_piles", 1.0),
        ("waste_piles", True),
        ("draw_count", 53),
        ("draw_count", 10**400),
        ("cells", 5),
        ("undo_depth", -1),
        ("undo_depth", 10**7),
        ("passes", 0),
        ("passes", "3"),
        ("passes", 10**20),
        ("pairing", ["sum13"]),
        ("pairing", "Sum13"),
        ("win", None),
    ],
)
def test_numbers_and_choices_are_checked_by_type_and_range(field: str, value: object) -> None:
    with pytest.raises(InvalidRulesError, match=field):
        get_rules(medium(**{field: value}))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("per_card", "5"),
        ("per_removal", 2.5),
        ("win_bonus", None),
        ("time_bonus_start", 10**400),
        ("round_number_bonus", True),
        ("time_bonus_per_second", math.nan),
        ("time_bonus_per_second", math.inf),
        ("time_bonus_per_second", -1.0),
        ("time_bonus_per_second", "1"),
        ("undo_keeps_score", "no"),
    ],
)
def test_a_bad_scoring_field_is_refused_when_the_rules_are_built(field: str, value: object) -> None:
    with pytest.raises(InvalidRulesError, match=f"bad scoring: {field}"):
        Scoring(**{field: value})  # type: ignore[arg-type]
    scoring = dict(get_rules("medium").to_dict()["scoring"], **{field: value})
    with pytest.raises(InvalidRulesError, match=f"bad scoring: {field}"):
        get_rules(medium(scoring=scoring))


def test_scoring_with_unknown_or_mistyped_fields_is_refused() -> None:
    with pytest.raises(InvalidRulesError, match="scoring has no field"):
        get_rules(medium(scoring={"bonus": 1}))
    with pytest.raises(InvalidRulesError, match="scoring must be a mapping"):
        get_rules(medium(scoring="classic"))


@pytest.mark.parametrize(
    "name", ["", "a\nb", "tab\there", "bell\x07", "x" * (MAX_NAME + 1), 5, None, ["medium"]]
)
def test_a_name_is_printable_text_of_bounded_length(name: object) -> None:
    with pytest.raises(InvalidRulesError, match="name"):
        get_rules(medium(name=name))
    with pytest.raises(InvalidRulesError, match="name"):
        get_rules("medium").replace(name=name)


@pytest.mark.parametrize("name", ["<img src=x onerror=alert(1)>", "a & b", "Pyramide à 3 tas"])
def test_a_name_with_markup_is_accepted_as_text_everywhere(name: str) -> None:
    rules = get_rules("medium").replace(name=name)
    assert rules.name == name
    assert get_rules(rules.to_dict()) == rules
    game = Game(rules, deal=1)
    assert Game.from_json(game.to_json()).rules.name == name


@pytest.mark.parametrize("description", [3, "x" * (MAX_DESCRIPTION + 1), "two\nlines"])
def test_a_description_is_bounded_printable_text(description: object) -> None:
    with pytest.raises(InvalidRulesError, match="description"):
        get_rules(medium(description=description))


@pytest.mark.parametrize(
    "zones", ["pyramid+waste", [["pyramid", "waste"]], [{"a": 1}], {"pyramid+waste": 1}, [1]]
)
def test_malformed_pair_zones_raise_the_package_error(zones: object) -> None:
    with pytest.raises(InvalidRulesError):
        get_rules(medium(pair_zones=zones))


def test_unknown_fields_of_any_type_are_refused_in_one_line() -> None:
    with pytest.raises(InvalidRulesError, match="no field") as caught:
        get_rules({**medium(), 1: 2, "extra": 3})  # type: ignore[dict-item]
    assert "\n" not in str(caught.value)


def test_every_preset_still_passes_and_round_trips_through_json() -> None:
    for rules in PRESETS.values():
        assert get_rules(json.loads(json.dumps(rules.to_dict()))) == rules


def test_a_huge_value_is_not_echoed_whole() -> None:
    with pytest.raises(InvalidRulesError) as caught:
        get_rules(medium(pairing="x" * 100_000))
    assert len(str(caught.value)) < 300
