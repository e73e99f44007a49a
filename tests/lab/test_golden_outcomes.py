"""The seven original presets play exactly the games they played before issue 18.

The figures below were measured at commit 5b941a5 (before the family engine): for each
preset and strategy, the number of deals won among deals 0..n-1 (the strategy's generator
seeded with the deal number) and a digest of every game's move list, result and cards left.
Any change to the fast playout engine, the strategies or the engine's rules that alters one
move of one of these games changes the digest.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from pyramid_widget.lab.experiments import run_experiment
from pyramid_widget.lab.strategies import play_game

GOLDEN = [
    ("greedy", "easy", 200, 80, "29cfae7018161d5d"),
    ("greedy", "medium", 200, 63, "d4ebb91c970bfeef"),
    ("greedy", "hard", 200, 1, "45c9c294a3cafab3"),
    ("greedy", "relaxed", 200, 56, "b1eda19fd4416206"),
    ("greedy", "apophis", 200, 25, "141e424d746cdb41"),
    ("greedy", "cheops", 200, 107, "8eca707ac6586052"),
    ("greedy", "egypt", 200, 90, "6ac5d83a2a061bb9"),
    ("random", "easy", 200, 19, "a83badc0e1af062c"),
    ("random", "medium", 200, 2, "f5022969d555d49e"),
    ("random", "hard", 200, 0, "1954dccc5228c133"),
    ("random", "relaxed", 200, 7, "1013b4ed6c8d3c2d"),
    ("random", "apophis", 200, 0, "12487df72e80e8d3"),
    ("random", "cheops", 200, 10, "e9779836c8fbb956"),
    ("random", "egypt", 200, 7, "881439db72ca0dba"),
    ("lookahead", "easy", 6, 4, "08b25aceaadbd730"),
    ("lookahead", "medium", 6, 3, "e61393176af5ad41"),
    ("lookahead", "hard", 6, 0, "d61d4f134d1232f8"),
    ("lookahead", "relaxed", 6, 4, "aef159ae705e410f"),
    ("lookahead", "apophis", 6, 3, "5d6cbb80c9770e76"),
    ("lookahead", "cheops", 6, 3, "24db6adc445e25ac"),
    ("lookahead", "egypt", 6, 4, "afd61a3aa6b51caf"),
]


@pytest.mark.parametrize(("strategy", "rules", "deals", "won", "digest"), GOLDEN)
def test_the_original_presets_play_the_same_games(
    strategy: str, rules: str, deals: int, won: int, digest: str
) -> None:
    h = hashlib.sha256()
    wins = 0
    for deal in range(deals):
        out = play_game(strategy, rules, deal, random.Random(deal), record=True)
        wins += out.won
        line = " ".join(map(str, out.history))
        h.update(f"{line}|{out.result}|{out.cards_left};".encode())
    assert (wins, h.hexdigest()[:16]) == (won, digest)


def test_run_experiment_gives_the_same_table() -> None:
    """Seeded deals through ``run_experiment``: wins and total moves per cell, as at 5b941a5."""
    presets = ["easy", "medium", "hard", "relaxed", "apophis", "cheops", "egypt"]
    results = run_experiment(
        presets, ["greedy", "random"], games=300, seed=18, jobs=1, progress=False
    )
    got = [
        (s.rules, s.strategy, s.won, sum(r.moves for r in results.select(s.rules, s.strategy)))
        for s in results.summary()
    ]
    assert got == [
        ("easy", "greedy", 132, 20427),
        ("easy", "random", 37, 30006),
        ("medium", "greedy", 111, 20566),
        ("medium", "random", 3, 22554),
        ("hard", "greedy", 0, 11710),
        ("hard", "random", 0, 10164),
        ("relaxed", "greedy", 104, 15211),
        ("relaxed", "random", 16, 18130),
        ("apophis", "greedy", 51, 10350),
        ("apophis", "random", 3, 9126),
        ("cheops", "greedy", 176, 9130),
        ("cheops", "random", 18, 10256),
        ("egypt", "greedy", 142, 10178),
        ("egypt", "random", 15, 8066),
    ]
