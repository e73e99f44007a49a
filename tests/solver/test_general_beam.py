"""The beam search of the general solver (``general._beam``), which :func:`general.decide`
runs first for the two-deck games: it may only ever report a win, with a line that wins on
the engine, and never a loss, on small positions of every shape of the family (checked
against the plain exhaustive search) and on real two-deck deals.
"""

from __future__ import annotations

import pytest

from pyramid_widget import Game
from pyramid_widget.solver import general, solve
from pyramid_widget.solver.general import GeneralModel
from pyramid_widget.solver.lines import replay_wins
from pyramid_widget.solver.search import Budget, Result
from tests.solver.test_exhaustive import reference
from tests.solver.test_family_exhaustive import RULES, TWO_DECKS, family_position, ordered_position

SHAPES = {**RULES, **TWO_DECKS}


def _beam(game: Game, width: int, max_nodes: int | None = None) -> Result:
    search = general.Search.of(GeneralModel.from_game(game))
    return general._beam(search, Budget(max_nodes, None), 0, width)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_beam_reports_only_true_wins(name: str) -> None:
    """Width 1 and 2 on small positions: a win found is a win of the plain search and its
    line replays to a win; a lost position is never called anything but unknown."""
    rules = SHAPES[name]
    make = ordered_position if name in TWO_DECKS else family_position
    seen = set()
    for seed in range(30):
        game = make(rules, seed)
        truth = reference(game) is not None
        for width in (1, 2):
            result = _beam(game, width)
            assert result.found in (True, None), (name, seed, width)
            if result.found:
                assert truth, (name, seed, width, str(game))
                assert replay_wins(game, result.line), (name, seed, width)
            seen.add((truth, result.found))
    assert (True, True) in seen, "the beam found no win at all"
    if (False, None) not in seen:  # every position was winnable: nothing to refuse here
        assert all(truth for truth, _ in seen)


@pytest.mark.parametrize("name", ["anubis", "double_pyramid", "two_pyramids", "up_and_down"])
def test_a_two_deck_deal_is_won_by_the_beam_and_the_line_replays(name: str) -> None:
    """Deal 0 of each two-deck game: a beam of 100 wins it, and so does ``solve``."""
    game = Game(name, deal=0)
    result = _beam(game, 100)
    assert result.found is True
    assert replay_wins(game, result.line)
    solution = solve(game, max_seconds=30)
    assert solution.winnable is True
    assert replay_wins(game, solution.moves)


def test_the_beam_stops_at_its_node_budget() -> None:
    game = Game("double_pyramid", deal=1)  # a beam of 100 does not win it
    result = _beam(game, 100, max_nodes=500)
    assert result.found is None
    assert result.nodes == 500


def test_decide_alternates_beams_and_shuffled_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two decks: a beam first, then shuffled searches of as many positions, then the next
    beam; with the beams unable to win the verdict still comes from the searches."""
    calls: list[tuple[str, int]] = []
    real_beam, real_dive = general._beam, general._dive

    def beam(*args: object) -> Result:
        result = real_beam(*args)  # type: ignore[arg-type]
        calls.append(("beam", result.nodes))
        return Result(None, [], result.nodes)  # as if it found nothing

    def dive(*args: object) -> Result:
        result = real_dive(*args)  # type: ignore[arg-type]
        calls.append(("dive", result.nodes))
        return result

    monkeypatch.setattr(general, "_beam", beam)
    monkeypatch.setattr(general, "_dive", dive)
    monkeypatch.setattr(general, "BEAM_WIDTHS", (1, 2))
    monkeypatch.setattr(general, "RESTART_UNIT", 2)
    rules = TWO_DECKS["anubis-one-pass"]
    for seed in range(30):
        game = ordered_position(rules, seed)
        calls.clear()
        result = general.decide(GeneralModel.from_game(game), Budget(None, None))
        assert result.found is (reference(game) is not None)
        if [kind for kind, _ in calls].count("beam") == 2:
            break
    else:
        pytest.fail("no position ran a beam and then searches")
    assert calls[0][0] == "beam"
    kinds = [kind for kind, _ in calls]
    assert "dive" in kinds, calls
    assert kinds.count("beam") == 2, calls  # both widths ran
    second = kinds.index("beam", 1)  # after searches of as many positions as the first
    assert calls[second - 1][1] >= 2 * calls[0][1], calls


def test_the_beam_asks_the_free_pool_test_only_of_positions_it_keeps() -> None:
    """Within a round removals are followed without the free-pool test; it is asked of the
    candidates for the next round, fewer than the positions searched. The win found is the
    same as with the test asked everywhere, since a removal never makes the relaxed game
    easier."""
    game = Game("two_pyramids", deal=0)
    search = general.Search.of(GeneralModel.from_game(game))
    asked = 0
    real = search.relaxed

    def counted(state: general.State) -> bool:
        nonlocal asked
        asked += 1
        return real(state)

    search.relaxed = counted
    result = general._beam(search, Budget(None, None), 0, 100)
    assert result.found is True
    assert replay_wins(game, result.line)
    assert 0 < asked < result.nodes / 2, (asked, result.nodes)


def test_a_late_round_keeps_several_positions_of_a_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Pyramids deal 25: a beam of 100 wins it when a round with fewer tableau boards
    than room keeps up to BEAM_FILL positions of a board, and not with one a board. (Double
    Pyramid's deal 11 showed it until rule ``g-deck-order`` was asked where the waste is
    empty; now one a board wins it too.)"""
    game = Game("two_pyramids", deal=25)
    result = _beam(game, 100)
    assert result.found is True
    assert replay_wins(game, result.line)
    monkeypatch.setattr(general, "BEAM_FILL", 1)
    assert _beam(game, 100).found is None
