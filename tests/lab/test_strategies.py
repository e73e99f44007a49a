"""Strategies: legal moves only, the fast path plays the engine's games exactly, the rule of
thumb does what it says, and ``perfect`` agrees with the solver."""

from __future__ import annotations

import random

import pytest

from pyramid_widget import PRESETS, Game, Move, get_rules
from pyramid_widget.engine.deals import deal_from_number
from pyramid_widget.engine.layout import Layout
from pyramid_widget.engine.rules import CLASSIC_ZONES, RuleSet
from pyramid_widget.errors import StrategyError
from pyramid_widget.lab.fastplay import LOST, PLAYING, WON, FastGame, from_move, to_move
from pyramid_widget.lab.strategies import (
    GREEDY,
    STRATEGIES,
    Lookahead,
    Perfect,
    get_strategy,
    play_game,
)
from pyramid_widget.solver import solve
from tests.support.tier import sized

STATUS = {PLAYING: "playing", WON: "won", LOST: "lost"}

VARIANTS = {
    "by-pile apophis": get_rules("apophis").replace(
        name="by-pile apophis", redeal_order="by-pile", passes=3
    ),
    "by-pile eleven": get_rules("eleven_triangle").replace(
        name="by-pile eleven", redeal_order="by-pile", passes=3
    ),
    "overlap relaxed": get_rules("relaxed").replace(name="overlap relaxed", overlap_discards=True),
    "overlap adjacent": get_rules("cheops").replace(
        name="overlap adjacent", overlap_discards=True, passes=2
    ),
    "waste pair medium": get_rules("medium").replace(name="waste pair medium", waste_pair=True),
    "pharaohs stock": get_rules("pharaohs").replace(
        name="pharaohs stock",
        layout=Layout.side_by_side(Layout.pyramid(2), Layout.pyramid(6)),
        passes=2,
        pair_zones=CLASSIC_ZONES,
    ),
}
"""Rule sets no preset has: by-pile redeals, overlap discards with other rules, the waste
pair with three passes, a small side-by-side tableau with a stock."""
FAMILY = [*PRESETS, *VARIANTS]


def _rules(name: str) -> RuleSet:
    return VARIANTS.get(name) or get_rules(name)


@pytest.mark.parametrize("rules", FAMILY)
def test_fast_engine_has_the_engines_legal_moves_and_status(rules: str) -> None:
    """Random walks through 10 deals (25 with ``--thorough``): at every step the same legal
    moves and status."""
    rule_set = _rules(rules)
    for deal in range(sized(25, quick=10)):
        game, fg, rng = (
            Game(rule_set, deal),
            FastGame(rule_set, deal_from_number(deal, rule_set.decks)),
            random.Random(deal),
        )
        while True:
            legal = sorted(from_move(m) for m in game.legal_moves)
            assert legal == sorted(fg.legal()) or game.is_over
            assert game.status.value == STATUS[fg.status], (rules, deal, game.history)
            if game.is_over:
                break
            move = rng.choice(legal)
            game.play(to_move(move))
            fg.play(move)


@pytest.mark.parametrize("rules", FAMILY)
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_fast_path_and_engine_path_play_identical_games(rules: str, strategy: str) -> None:
    """Deals 0-7 (0-19 with ``--thorough``) played on both paths move for move."""
    rule_set = _rules(rules)
    for deal in range(sized(20, quick=8)):
        fast = play_game(strategy, rule_set, deal, random.Random(deal), record=True)
        plain = play_game(strategy, rule_set, deal, random.Random(deal), record=True, fast=False)
        assert fast.history == plain.history, (rules, strategy, deal)
        assert (fast.result, fast.cards_left, fast.moves) == (
            plain.result,
            plain.cards_left,
            plain.moves,
        )


@pytest.mark.parametrize("rules", FAMILY)
def test_lookahead_fast_path_and_engine_path_play_identical_games(rules: str) -> None:
    rule_set = _rules(rules)
    for deal in range(2):
        fast = play_game("lookahead", rule_set, deal, random.Random(deal), record=True)
        plain = play_game("lookahead", rule_set, deal, random.Random(deal), record=True, fast=False)
        assert fast.history == plain.history
        assert fast.result == plain.result


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["medium", "hard", "easy", "relaxed"])
def test_lookahead_parity_on_more_deals(rules: str) -> None:
    for deal in range(2, 12):
        fast = play_game("lookahead", rules, deal, random.Random(deal), record=True)
        plain = play_game("lookahead", rules, deal, random.Random(deal), record=True, fast=False)
        assert fast.history == plain.history


@pytest.mark.parametrize("strategy", ["random", "greedy", "lookahead"])
@pytest.mark.parametrize("rules", ["easy", "medium", "hard", "apophis", "egypt", *FAMILY[7:]])
def test_fast_games_replay_legally_through_the_engine(strategy: str, rules: str) -> None:
    rule_set = _rules(rules)
    for deal in range(3):
        outcome = play_game(strategy, rule_set, deal, random.Random(deal), record=True)
        game = Game(rule_set, deal)
        for move in outcome.history:
            assert move in game.legal_moves
            game.play(move)
        assert game.status.value == outcome.result
        assert rule_set.deck_size - len(game.discard) == outcome.cards_left


def _position(rules: str, pyramid: dict[int, str], stock: list[str], waste: list[str]) -> Game:
    slots: list[str | None] = [None] * 28
    for pos, card in pyramid.items():
        slots[pos] = card
    return Game.from_position(rules, pyramid=slots, stock=stock, wastes=[waste], clock=lambda: 0.0)


def test_greedy_takes_a_king_first() -> None:
    game = _position("medium", {21: "5H", 22: "8C", 27: "KS"}, ["2D"], [])
    assert str(GREEDY(game, random.Random(0))) == "KS"


def test_greedy_pairs_in_the_pyramid_before_using_the_waste() -> None:
    game = _position("medium", {21: "5H", 22: "8C"}, ["2D"], ["8D"])
    assert str(GREEDY(game, random.Random(0))) == "5H+8C"


def test_greedy_prefers_the_pair_that_uncovers_more() -> None:
    # 6C at 27 is the last card covering QD at 20; 5H and 8C cover nothing that is left.
    game = _position("medium", {20: "QD", 22: "7S", 23: "5H", 24: "8C", 27: "6C"}, ["2D"], [])
    assert str(GREEDY(game, random.Random(0))) == "6C+7S"


def test_greedy_draws_only_when_nothing_else() -> None:
    game = _position("medium", {21: "5H", 22: "9C"}, ["2D"], ["3S"])
    assert str(GREEDY(game, random.Random(0))) == "draw"


def test_user_strategy_returning_text_plays() -> None:
    def drawer(game: Game, rng: random.Random) -> str:
        return "draw" if "draw" in game.legal_moves else str(sorted(game.legal_moves)[0])

    outcome = play_game(drawer, "hard", 3)
    assert outcome.result == "lost"
    assert outcome.moves >= 24


def test_an_illegal_move_is_an_error_naming_the_strategy() -> None:
    def cheater(game: Game, rng: random.Random) -> Move:
        return Move.parse("redeal")

    with pytest.raises(StrategyError, match=r"strategy 'cheater' played .*redeal"):
        play_game(cheater, "hard", 3)


def test_endless_games_stop_at_the_move_limit_as_unknown() -> None:
    endless = get_rules("medium").replace(name="endless", passes=None)

    def shuffler(game: Game, rng: random.Random) -> Move:
        return Move.draw() if game.stock else Move.redeal()

    outcome = play_game(shuffler, endless, 3, max_moves=300)
    assert (outcome.result, outcome.moves) == ("unknown", 300)
    assert not outcome.won


def test_unknown_strategy_names_the_choices() -> None:
    with pytest.raises(ValueError, match="choose one of random, greedy, lookahead, perfect"):
        get_strategy("smart")
    with pytest.raises(ValueError, match="a strategy is a name or a callable"):
        get_strategy(42)  # type: ignore[arg-type]
    assert set(STRATEGIES) == {"random", "greedy", "lookahead", "perfect"}
    with pytest.raises(ValueError, match="samples"):
        Lookahead(samples=0)


@pytest.mark.parametrize(("rules", "deals"), [("hard", [1, 3, 5]), ("medium", [0, 2, 4])])
def test_perfect_agrees_with_the_solver(rules: str, deals: list[int]) -> None:
    strategy = Perfect(max_seconds=60, verify=True)  # verify replays each winning line
    for deal in deals:
        verdict = solve(Game(rules, deal), max_seconds=60).verdict.value
        outcome = strategy.classify(get_rules(rules), deal)
        assert {"winnable": "won", "unwinnable": "lost", "unknown": "unknown"}[
            verdict
        ] == outcome.result
        if outcome.won:
            assert outcome.cards_left == 0
            assert outcome.moves == len(outcome.history) > 0


def test_perfect_as_a_callable_plays_a_winning_line() -> None:
    game = Game("medium", 0)
    strategy = Perfect(max_seconds=60)
    while not game.is_over:
        game.play(strategy(game, random.Random(0)))
    assert game.status.value == "won"


@pytest.mark.slow
def test_lookahead_beats_greedy_on_medium() -> None:
    """Paired comparison on the same 200 deals: the look-ahead wins clearly more."""
    greedy = sum(play_game("greedy", "medium", d, random.Random(d)).won for d in range(200))
    ahead = sum(play_game("lookahead", "medium", d, random.Random(d)).won for d in range(200))
    assert ahead > greedy + 10
