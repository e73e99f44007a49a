"""Rules ``g-cycle`` and ``g-cycle-lost`` of the general search (unlimited passes) against
the plain exhaustive search, with the shuffled searches cut off after a handful of
positions so that what they record as lost is carried into the next ones many times over.
"""

from __future__ import annotations

import pytest

from pyramid_widget import Game, get_rules
from pyramid_widget.solver import general
from pyramid_widget.solver.general import GeneralModel, Generator
from tests.solver.test_family_exhaustive import RULES, decide_agrees, family_position

CYCLE_RULES = sorted(name for name, rules in RULES.items() if rules.passes is None)


def test_the_cycle_rules_are_tried_on_several_shapes() -> None:
    assert {"king_tut", "tuts_tomb", "cycle-stock-top", "cycle-waste-pair"} <= set(CYCLE_RULES)


@pytest.mark.parametrize("name", CYCLE_RULES)
def test_short_shuffled_searches_sharing_lost_positions_agree_with_plain_search(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(general, "RESTART_UNIT", 3)
    monkeypatch.setattr(general, "CYCLE_RESTARTS", (6, 3))
    rules = RULES[name]
    verdicts = set()
    for seed in range(40):
        verdicts.add(decide_agrees(family_position(rules, seed), (name, seed)))
    assert verdicts == {True, False}, verdicts


def test_positions_on_a_boards_cycle_share_a_key() -> None:
    model = GeneralModel.from_game(Game("king_tut", deal=0))
    gen = Generator(model)
    root = model.root
    assert not gen.on_cycle(root)  # the stall rule is armed in the root pass
    unarmed = (*root[:5], 0)
    after_one_draw = gen._draw(unarmed)
    assert gen.on_cycle(unarmed) and gen.on_cycle(after_one_draw)
    assert gen.key(unarmed) == gen.key(after_one_draw)
    assert get_rules("king_tut").draw_count == 3
