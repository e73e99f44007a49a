"""Experiments: reproducible tables whatever the workers, honest summaries, kept rows on
interrupt, sweeps, CSV, and clear errors."""

from __future__ import annotations

import concurrent.futures as cf
import csv
import math
import random
from pathlib import Path

import pytest

from pyramid_widget import Game, Move
from pyramid_widget.lab.experiments import Results, deal_for, run_experiment, what_if
from pyramid_widget.lab.stats_ci import running_wilson, wilson, z_value
from pyramid_widget.lab.strategies import Lookahead

RULES = ["medium", "hard"]
STRATEGIES: list[object] = ["greedy", "random", Lookahead(samples=1)]
NAMES = ["greedy", "random", "lookahead"]


def _key(results: Results) -> list[tuple[object, ...]]:
    """Everything in the rows but the wall-clock seconds."""
    return [(r.game, r.deal, r.rules, r.strategy, r.result, r.cards_left, r.moves) for r in results]


@pytest.fixture(scope="module")
def serial() -> Results:
    return run_experiment(RULES, STRATEGIES, games=16, seed=11, jobs=1, progress=False)


def test_rows_are_tidy_and_sorted(serial: Results) -> None:
    assert len(serial) == 16 * len(RULES) * len(STRATEGIES)
    cells = [(r.rules, r.strategy) for r in serial]
    assert cells == sorted(cells, key=lambda c: (RULES.index(c[0]), NAMES.index(c[1])))
    assert [r.game for r in serial.select("hard", "random")] == list(range(16))
    assert {r.deal for r in serial.select("hard", "random")} == {deal_for(11, i) for i in range(16)}
    assert all(r.won == (r.result == "won") for r in serial)
    assert all(r.seconds >= 0 and r.moves > 0 and 0 <= (r.cards_left or 0) <= 52 for r in serial)


def test_two_workers_give_the_same_table(serial: Results) -> None:
    pooled = run_experiment(
        RULES, STRATEGIES, games=16, seed=11, jobs=2, progress=False, chunk_size=5
    )
    assert _key(pooled) == _key(serial)


def test_any_executor_gives_the_same_table(serial: Results) -> None:
    with cf.ThreadPoolExecutor(3) as pool:
        threaded = run_experiment(
            RULES, STRATEGIES, games=16, seed=11, executor=pool, progress=False, chunk_size=7
        )
    assert _key(threaded) == _key(serial)


def test_dask_local_cluster_gives_the_same_table(serial: Results) -> None:
    distributed = pytest.importorskip("distributed")  # a dev dependency: present in CI
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    try:
        with distributed.Client(cluster) as client:
            on_dask = run_experiment(
                RULES,
                STRATEGIES,
                games=16,
                seed=11,
                executor=client.get_executor(),
                progress=False,
                chunk_size=6,
            )
    finally:
        cluster.close()
    assert _key(on_dask) == _key(serial)


def test_another_seed_gives_other_deals(serial: Results) -> None:
    other = run_experiment("hard", "greedy", games=16, seed=12, jobs=1, progress=False)
    assert {r.deal for r in other}.isdisjoint({r.deal for r in serial})


def test_a_range_of_deal_numbers() -> None:
    results = run_experiment(
        "medium", "greedy", deals=range(100, 110), games=4, jobs=1, progress=False
    )
    assert [r.deal for r in results] == [100, 101, 102, 103]
    assert results.summary()[0].games == 4


def test_summary_counts_and_wilson_interval(serial: Results) -> None:
    for cell in serial.summary():
        rows = serial.select(cell.rules, cell.strategy)
        won = sum(r.won for r in rows)
        assert (cell.games, cell.won, cell.lost, cell.unknown) == (16, won, 16 - won, 0)
        assert (cell.ci_low, cell.ci_high) == wilson(won, 16)
        assert cell.ci_low <= cell.win_rate <= cell.ci_high


def test_unknown_games_are_counted_apart_not_as_losses() -> None:
    def stubborn(game: Game, rng: random.Random) -> Move:
        return Move.draw() if game.stock else Move.redeal()

    endless = {"name": "endless", "passes": None}
    results = run_experiment(endless, stubborn, games=3, jobs=1, progress=False, max_moves=100)
    cell = results.summary()[0]
    assert (cell.won, cell.lost, cell.unknown) == (0, 0, 3)
    assert math.isnan(cell.win_rate)
    assert cell.win_rate_bounds == (0.0, 1.0)
    assert "unknown" in results.table()


def test_interrupt_keeps_the_finished_rows_serial() -> None:
    def impatient(game: Game, rng: random.Random) -> Move:
        if game.deal_number == 6:
            raise KeyboardInterrupt
        return sorted(game.legal_moves)[-1]

    results = run_experiment("hard", impatient, deals=range(10), jobs=1, progress=False)
    assert results.interrupted
    assert [r.deal for r in results] == [0, 1, 2, 3, 4, 5]
    assert "interrupted: 6 games finished" in results.table()


def test_interrupt_keeps_the_finished_rows_on_an_executor() -> None:
    def impatient(game: Game, rng: random.Random) -> Move:
        if game.deal_number == 5:
            raise KeyboardInterrupt
        return sorted(game.legal_moves)[-1]

    with cf.ThreadPoolExecutor(1) as pool:
        results = run_experiment(
            "hard", impatient, deals=range(12), executor=pool, progress=False, chunk_size=2
        )
    assert results.interrupted
    kept = [r.deal for r in results]
    assert {0, 1, 2, 3} <= set(kept) and not {4, 5} & set(kept)
    assert kept == sorted(kept)


def test_notebook_strategies_run_here_with_a_warning() -> None:
    def mine(game: Game, rng: random.Random) -> Move:
        return sorted(game.legal_moves)[-1]

    mine.__module__ = "__main__"
    with pytest.warns(UserWarning, match="runs in this process"):
        results = run_experiment("hard", mine, games=4, jobs=2, progress=False)
    assert len(results) == 4 and results.strategies == ["mine"]


def test_progress_bar_counts_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    run_experiment("hard", "greedy", games=5, jobs=1, progress=True)
    assert "5/5" in capsys.readouterr().err


def test_csv_has_one_row_per_game(serial: Results, tmp_path: Path) -> None:
    path = serial.to_csv(tmp_path / "results.csv")
    with path.open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(serial)
    assert list(rows[0]) == [
        "game",
        "deal",
        "rules",
        "strategy",
        "result",
        "won",
        "cards_left",
        "moves",
        "seconds",
    ]
    assert rows[0]["rules"] == "medium" and rows[0]["result"] in ("won", "lost")


def test_what_if_sweeps_a_rule_parameter() -> None:
    results = what_if(
        "medium", "passes", [1, 3, None], ["greedy"], games=20, jobs=1, progress=False
    )
    assert results.rules == ["medium passes=1", "medium passes=3", "medium passes=unlimited"]
    assert results.parameter == "passes"
    assert list(results.values.values()) == [1, 3, None]
    wins = [cell.won for cell in results.summary()]
    assert wins[0] <= wins[1] <= wins[2]
    piles = what_if("medium", "waste_piles", [1, 3], "greedy", games=5, jobs=1, progress=False)
    assert piles.rules == ["medium waste_piles=1", "medium waste_piles=3"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games must be a whole number"),
        ({"jobs": 0}, "jobs must be a whole number"),
        ({"rules": ["hard", "hard"]}, "rule set names must differ"),
        ({"strategies": ["greedy", "greedy"]}, "strategy names must differ"),
        ({"deals": [-1]}, "deal numbers must be non-negative"),
        ({"rules": "klondike"}, "unknown rule set 'klondike'"),
        ({"strategies": "clever"}, "unknown strategy 'clever'"),
        ({"rules": []}, "at least one rule set"),
    ],
)
def test_bad_arguments_are_clear_errors(kwargs: dict[str, object], message: str) -> None:
    options: dict[str, object] = {
        "rules": "hard",
        "strategies": "greedy",
        "games": 3,
        "jobs": 1,
        "progress": False,
    }
    options.update(kwargs)
    with pytest.raises(ValueError, match=message):
        run_experiment(**options)  # type: ignore[arg-type]


def test_what_if_rejects_unknown_parameters() -> None:
    with pytest.raises(ValueError, match="no field"):
        what_if("medium", "jokers", [1, 2], games=2, jobs=1, progress=False)


@pytest.mark.parametrize(
    ("won", "n", "low", "high"),
    [  # reference values: R binom::binom.confint(method = "wilson"), Wilson (1927)
        (5, 10, 0.2365931, 0.7634069),
        (0, 10, 0.0, 0.2775328),
        (10, 10, 0.7224672, 1.0),
        (1, 20, 0.008879, 0.236131),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_matches_known_values(won: int, n: int, low: float, high: float) -> None:
    got = wilson(won, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_edge_cases() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert z_value(0.99) == pytest.approx(2.5758, abs=1e-4)
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson(-1, 5)
    with pytest.raises(ValueError, match="confidence"):
        wilson(1, 5, confidence=1.5)
    rates, lows, highs = running_wilson([True] * 3 + [False] * 97)
    assert rates[-1] == 0.03 and highs[-1] - lows[-1] < highs[9] - lows[9]


def test_to_pandas_gives_one_row_per_game_or_says_what_is_missing(serial: Results) -> None:
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="needs pandas"):
            serial.to_pandas()
    else:
        frame = serial.to_pandas()
        assert len(frame) == len(serial) and "cards_left" in frame.columns
