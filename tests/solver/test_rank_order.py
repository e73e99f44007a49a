"""Rule ``rank-order`` (:class:`pyramid_widget.solver.shortest_macro.RankOrder`): positions
that differ only in which card of a rank lies where are searched as one, and the line found
is renamed onto the real cards.

The canonical form is checked against its definition on random boards of random deals (the
same pyramid, the same ranks in order in the waste and in the stock map to one board, and
the form keeps them), the step after a removal against the full form, and lines through
renamed positions replay in the engine with the fewest moves a plain search finds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pyramid_widget import Game, get_rules
from pyramid_widget.engine.cards import rank
from pyramid_widget.solver import solve
from pyramid_widget.solver.model import PYRAMID_ALL, Model, normalise, slots_of
from pyramid_widget.solver.search import BucketQueue, Budget
from pyramid_widget.solver.shortest_macro import RankOrder, macro_a_star
from tests.solver.test_agreement import MIDGAME_RULES, _wins, midgame
from tests.solver.test_exhaustive import reference


def signature(model: Model, board: int, lo: int) -> tuple[object, ...]:
    """What the rule keeps of a position: the pyramid, the ranks of the waste and of the
    stock in order."""
    deck = slots_of(board & ~PYRAMID_ALL)
    ranks = [rank(model.cards[s]) for s in deck]
    waste = sum(1 for s in deck if s < lo)
    return board & PYRAMID_ALL, tuple(ranks[:waste]), tuple(ranks[waste:])


def random_position(model: Model, rng: random.Random) -> tuple[int, int]:
    """A board with a random half of the deck cards gone and the stock starting at a card
    left (or past the last)."""
    board = model.root[0]
    for s in range(model.deck_lo, model.deck_hi):
        if rng.random() < 0.5:
            board &= ~(1 << s)
    left = slots_of(board & ~PYRAMID_ALL)
    lo = rng.choice([*left, model.deck_hi])
    return board, lo


@pytest.mark.parametrize("preset", ["relaxed", "cheops", "medium"])
def test_the_canonical_form_keeps_the_signature_and_names_one_board_per_signature(
    preset: str,
) -> None:
    rng = random.Random(f"rank-order-{preset}")
    moved = 0
    for deal in range(20):
        model = Model.from_game(Game(preset, deal=deal))
        order = RankOrder(model)
        forms: dict[tuple[object, ...], tuple[int, int]] = {}
        for _ in range(300):
            board, lo = random_position(model, rng)
            canon = order.of(board, lo)
            assert signature(model, *canon) == signature(model, board, lo)
            assert order.of(*canon) == canon
            moved += canon != (board, lo)
            assert forms.setdefault(signature(model, board, lo), canon) == canon
        # boards of one signature: swap a deck card with a removed one of its rank right below
        for board, lo in list(forms.values())[:50]:
            for s in slots_of(board & ~PYRAMID_ALL):
                t = s + 1
                while t < model.deck_hi and not board >> t & 1:
                    if rank(model.cards[t]) == rank(model.cards[s]):
                        twin = board ^ (1 << s | 1 << t)
                        assert order.of(twin, t if lo == s else lo) == (board, lo)
                        break
                    t += 1
    assert moved > 100  # the form does move cards on these boards


@pytest.mark.parametrize("preset", ["relaxed", "cheops"])
def test_the_step_after_a_removal_gives_the_full_form(preset: str) -> None:
    rng = random.Random(f"rank-order-after-{preset}")
    for deal in range(20):
        model = Model.from_game(Game(preset, deal=deal))
        order = RankOrder(model)
        for _ in range(200):
            board, lo = order.of(*random_position(model, rng))
            deck = slots_of(board & ~PYRAMID_ALL)
            if len(deck) < 2:
                continue
            gone = 0
            for s in rng.sample(deck, rng.choice((1, 2))):
                gone |= 1 << s
            child = board & ~gone
            nlo = normalise(child, lo, model.deck_hi) if gone >> lo & 1 else lo
            assert order.after(child, nlo, gone) == order.of(child, nlo)


def test_a_line_through_renamed_positions_names_the_real_cards() -> None:
    # after 8H+5C from the stock, the 5D is searched in the 5C's slot; the line must say 5D
    game = Game.from_position("relaxed", pyramid=[None] * 26 + ["8H", "8S"], stock=["5C", "5D"])
    model = Model.from_game(game).for_shortest()
    result = macro_a_star(model, Budget(None, None))
    line = [str(move) for move in result.line]
    assert sorted(line) == ["5C+8S", "5D+8H"] or sorted(line) == ["5C+8H", "5D+8S"]
    assert _wins(game, line)


@pytest.mark.parametrize("preset", ["relaxed", "medium", "cheops"])
def test_mid_game_lines_replay_with_the_fewest_moves(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Positions ten moves from the end of deals' winning lines (the engine's position
    numbers only the cards left, so the search's own removals make the gaps); every line
    replays to a win with the fewest moves the plain breadth-first search finds, and the
    searches did rename cards on the way."""
    renamed = []
    after = RankOrder.after

    def counting(self: RankOrder, board: int, lo: int, removed: int) -> tuple[int, int]:
        out = after(self, board, lo, removed)
        renamed.append(out != (board, lo))
        return out

    monkeypatch.setattr(RankOrder, "after", counting)
    checked = 0
    for deal in range(12):
        game = Game(preset, deal=deal)
        line = list(solve(game).moves)
        if len(line) < 10:
            continue
        for move in line[:-10]:
            game.play(move)
        fewest = solve(game, shortest=True)
        assert fewest.shortest
        assert _wins(game, [str(move) for move in fewest.moves])
        assert reference(game) == len(fewest.moves)
        checked += 1
    assert checked >= 3
    assert any(renamed)


STOP_IN_A_GAP = [
    "5C+8H",
    "AD+QD",
    "5D+8S",
    "draw",
    "KS",
    "KH",
    "KD",
    "draw",
    "4D+9C",
    "3S+TS",
    "draw",
    "draw",
    "draw",
    "2S+JH",
    "draw",
    "draw",
    "KC",
    "draw",
    "draw",
    "draw",
    "draw",
    "draw",
    "draw",
    "2D+JC",
    "draw",
]
"""Two-pass ``hard``, deal 4: from here the shortest line's last move was a stop on an empty
slot of the last pass (the last pass's candidates then stopped at the slot after the card
drawn, a gap after a redeal); the first renaming looked the stop up among the cards and
failed (found by ``bench_agreement.py --midgame``). The stops are cards' slots now, but the
renaming still takes any stop."""


def test_a_stop_on_an_empty_slot_is_renamed_by_the_cards_below_it() -> None:
    game = Game(get_rules("hard").replace(passes=2), deal=4)
    for move in STOP_IN_A_GAP:
        game.play(move)
    fewest = solve(game, shortest=True)
    assert fewest.shortest and _wins(game, [str(move) for move in fewest.moves])
    assert len(fewest.moves) == 35


@pytest.mark.parametrize("name", ["hard/2", "medium/2", "relaxed/2", "easy"])
def test_lines_from_random_mid_game_positions_replay(name: str) -> None:
    """Random walks into deals (:func:`tests.solver.test_agreement.midgame`), where stops
    and stock starts on empty slots arise: every line found replays to a win."""
    rng = random.Random(f"rank-order-walks-{name}")
    won = 0
    for number in range(6):
        for game in midgame(MIDGAME_RULES[name], number, 4, rng):
            fewest = solve(game, shortest=True, max_nodes=20_000)
            if not fewest.winnable:
                continue
            assert _wins(game, [str(move) for move in fewest.moves]), game.to_json()
            won += 1
    assert won >= 3


@pytest.mark.parametrize("name", ["relaxed", "hard/2", "medium/2", "cheops"])
def test_every_position_the_search_queues_is_in_canonical_form(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The A* settles a child's form inline and calls :meth:`RankOrder.after` only when a
    removed deck card's gap may take the card above it; that shortcut also takes the stop
    of every candidate to be a card's slot (or the end). Every position pushed, from deals
    and from random walks into them (where last passes with gaps in the stock arise), is
    checked against the full form :meth:`RankOrder.of`."""
    rules = get_rules("cheops") if name == "cheops" else MIDGAME_RULES[name]
    pushed: list[tuple[int, int]] = []
    push = BucketQueue.push

    def recording(self: BucketQueue[Any], f: int, g: int, item: Any) -> None:
        (board, lo, _), _ = item
        pushed.append((board, lo))
        push(self, f, g, item)

    monkeypatch.setattr(BucketQueue, "push", recording)
    rng = random.Random(f"rank-order-queued-{name}")
    checked = 0
    for number in range(6):
        for game in [Game(rules, deal=number), *midgame(rules, number, 3, rng)]:
            model = Model.from_game(game).for_shortest()
            order = RankOrder(model)
            pushed.clear()
            macro_a_star(model, Budget(3_000, None))
            for board, lo in pushed:
                assert order.of(board, lo) == (board, lo), game.to_json()
            checked += len(pushed)
    assert checked > 10_000
