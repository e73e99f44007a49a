"""The solver on the family's presets (issue 18): deals and positions in play are decided
with lines that replay through the engine, face-down games say the solver saw the hidden
cards, and the seven original presets keep their own searches."""

from __future__ import annotations

import pytest

from pyramid_widget import PRESETS, Game
from pyramid_widget.engine.rules import get_rules
from pyramid_widget.solver import Verdict, solve, solve_deal
from pyramid_widget.solver.general import GeneralModel, fits_classic
from pyramid_widget.solver.lines import replay_wins

ORIGINAL = ("relaxed", "medium", "hard", "cheops", "apophis", "egypt", "easy")
ONE_DECK_NEW = [n for n, r in PRESETS.items() if n not in ORIGINAL and r.decks == 1]


def test_the_original_presets_keep_the_classic_searches() -> None:
    assert all(fits_classic(get_rules(name)) for name in ORIGINAL)
    assert not fits_classic(get_rules("giza"))
    assert not fits_classic(get_rules("medium").replace(name="sum12", pairing="sum12"))


@pytest.mark.parametrize("name", ONE_DECK_NEW)
def test_one_deck_presets_decide_deals_with_lines_that_win(name: str) -> None:
    verdicts = set()
    for number in range(4):
        game = Game(name, deal=number)
        solution = solve(game, max_seconds=60)
        assert solution.verdict is not Verdict.UNKNOWN, (name, number)
        verdicts.add(solution.verdict)
        if solution.winnable:
            assert replay_wins(game, solution.moves), (name, number)
        else:
            assert solution.moves == []


@pytest.mark.parametrize("name", ONE_DECK_NEW)
def test_a_position_in_play_is_solved_from_where_it_stands(name: str) -> None:
    game = Game(name, deal=11)
    for _ in range(3):  # a few moves in: the first legal removal, else the draw
        moves = list(game.legal_moves)
        if not moves or game.is_over:
            break
        game.play(moves[0])
    before = str(game)
    solution = solve(game, max_seconds=60)
    assert str(game) == before  # the game is not changed
    assert solution.verdict is not Verdict.UNKNOWN
    if solution.winnable:
        assert replay_wins(game, solution.moves)


def test_face_down_games_say_the_solver_knew_the_hidden_cards() -> None:
    assert solve(Game("dark_pyramid", deal=3)).knows_hidden is True
    assert solve(Game("thirteen", deal=3), max_seconds=60).knows_hidden is True
    assert solve(Game("medium", deal=3)).knows_hidden is False
    assert solve(Game("giza", deal=3)).knows_hidden is False
    # nothing is face down any more: only bottom-row cards left
    open_cards = Game.from_position(
        "dark_pyramid", pyramid=[None] * 26 + ["5H", "8C"], stock=["KD"]
    )
    assert solve(open_cards).knows_hidden is False
    covered = Game.from_position(
        "dark_pyramid", pyramid=[None] * 20 + ["5H"] + [None] * 6 + ["8C"], stock=["8D"]
    )
    assert covered.hidden and solve(covered).knows_hidden is True


def test_solve_deal_takes_a_family_preset_and_a_two_deck_deal() -> None:
    solution = solve_deal("pharaohs", 5)
    assert solution.verdict is not Verdict.UNKNOWN
    capped = solve_deal("double_pyramid", 0, max_nodes=50)
    assert capped.nodes <= 50
    assert capped.verdict in (Verdict.UNKNOWN, Verdict.WINNABLE, Verdict.UNWINNABLE)


def test_shortest_on_a_family_deal_is_shortest_or_says_it_is_not() -> None:
    game = Game("giza", deal=1)
    decided = solve(game)
    fewest = solve(game, shortest=True, max_seconds=30)
    assert fewest.verdict is decided.verdict
    if decided.winnable:
        assert replay_wins(game, fewest.moves)
        assert len(fewest.moves) <= len(decided.moves)
        if not fewest.shortest:
            assert fewest.moves == decided.moves


def test_the_model_reads_the_layout_and_the_reserve_from_the_rules() -> None:
    model = GeneralModel.from_game(Game("giza", deal=1))
    assert model.tableau == 28 and len(model.reserve_piles) == 8
    assert model.deck_lo == model.deck_hi == 52  # no stock
    two = GeneralModel.from_game(Game("two_pyramids", deal=1))
    assert two.tableau == 56 and two.deck_hi - two.deck_lo == 48
    assert max(two.cards) >= 52  # second-deck cards keep their own numbers
