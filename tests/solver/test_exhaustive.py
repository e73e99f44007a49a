"""The solver against an independent plain search written here, on small positions.

The reference below knows nothing of the solver's encoding, macro moves or prunings: it
plays engine moves on engine ``Game`` copies, breadth first, and remembers positions by what
the engine shows (pyramid, stock, waste piles, cells, pass, and whether the pass removed
anything). It is exhaustive, so its verdict is the truth and its depth the fewest moves.
``make test`` checks the first 12 (decision) and 10 (shortest) seeds of each rule set,
``pytest --thorough`` all 25 and 15; the larger sample (60 more positions per rule set) is
``benchmarks/bench_agreement.py``.
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from pyramid_widget import PRESETS, Game, RuleSet, get_rules
from pyramid_widget.solver import Verdict, solve
from pyramid_widget.solver.general import fits_classic
from tests.support.tier import seeds

Key = tuple[object, ...]


def _key(game: Game) -> Key:
    pos = game.position
    passes = game.rules.passes
    return (
        game.pyramid,
        game.stock,
        game.wastes,
        game.reserves,
        tuple(sorted(c for c in game.cells if c is not None)),
        pos.pass_number if passes is not None else 0,
        pos.pass_removed if game.rules.stall_rule else False,
    )


def reference(game: Game, limit: int = 200_000) -> int | None:
    """Fewest moves to a win from ``game`` (``None`` if none), by plain breadth-first search."""
    if game.status.value == "won":
        return 0
    seen = {_key(game)}
    queue = deque([(game, 0)])
    while queue:
        current, depth = queue.popleft()
        for move in list(current.legal_moves):
            nxt = current.copy()
            nxt.play(move)
            if nxt.status.value == "won":
                return depth + 1
            key = _key(nxt)
            if key not in seen and not nxt.is_over:
                seen.add(key)
                queue.append((nxt, depth + 1))
        assert len(seen) < limit, "reference search too big: make the position smaller"
    return None


def small_position(rules: RuleSet, seed: int) -> Game:
    """A random small position: a few bottom-row pyramid cards, a short stock holding
    partners of some of them (so that both verdicts turn up), maybe some waste."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    big = rules.waste_piles == 1 and not rules.cells
    first_row = rng.choice([21, 22, 25] if big else [22, 25, 25])
    pyramid: list[int | None] = [None] * 28
    for pos in range(first_row, 28):
        pyramid[pos] = deck.pop()
    stock: list[int] = []
    for card in pyramid[first_row:]:
        mates = [c for c in deck if card is not None and rules.pairs(card, c)]
        if mates and rng.random() < 0.7 and len(stock) < (7 if big else 5):
            stock.append(mates[0])
            deck.remove(mates[0])
    stock += [deck.pop() for _ in range(rng.randint(0, 2))]
    rng.shuffle(stock)
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    if stock and rng.random() < 0.3:
        wastes[0].append(stock.pop())
    return Game.from_position(rules, pyramid=pyramid, stock=stock, wastes=wastes)


CUSTOM = {
    "two-waste": get_rules("medium").replace(name="two-waste", waste_piles=2, draw_count=2),
    "draw-three": get_rules("medium").replace(name="draw-three", draw_count=3),
    "unlimited": get_rules("medium").replace(name="unlimited", passes=None),
    "stall-2": get_rules("easy").replace(name="stall-2", passes=2),
    "cheops-kings": get_rules("cheops").replace(name="cheops-kings", kings_alone=True),
    "one-pile-cell": get_rules("egypt").replace(name="one-pile-cell", waste_piles=1, draw_count=1),
}
CLASSIC_PRESETS = {name: rules for name, rules in PRESETS.items() if fits_classic(rules)}
"""The presets the classic model takes (the seven and the family's games of the classic
shape); the other shapes are ``tests/solver/test_family_exhaustive.py``'s."""
RULES = {**CLASSIC_PRESETS, **CUSTOM}


def _check(game: Game, shortest: bool) -> None:
    truth = reference(game)
    solution = solve(game, shortest=shortest)
    assert solution.winnable is (truth is not None), (game.rules.name, str(game))
    if truth is None:
        assert solution.verdict is Verdict.UNWINNABLE and not solution.moves
        return
    replay = game.copy()
    for move in solution.moves:
        replay.play(move)
    assert replay.status.value == "won"
    if shortest:
        assert solution.shortest
        assert len(solution.moves) == truth


@pytest.mark.parametrize("name", sorted(RULES))
def test_decision_agrees_with_plain_search(name: str) -> None:
    rules = RULES[name]
    verdicts = set()
    for seed in seeds(range(25), quick=12):
        game = small_position(rules, seed)
        _check(game, shortest=False)
        verdicts.add(solve(game).verdict)
    assert Verdict.WINNABLE in verdicts or name == "apophis"


@pytest.mark.parametrize("name", sorted(RULES))
def test_shortest_matches_plain_search(name: str) -> None:
    rules = RULES[name]
    for seed in seeds(range(100, 115), quick=10):
        _check(small_position(rules, seed), shortest=True)
