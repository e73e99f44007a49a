"""Experiments: reproducible tables whatever the workers, honest summaries, kept rows on
interrupt, sweeps, CSV, and clear errors."""

from __future__ import annotations

import concurrent.futures as cf
import csv
import errno
import itertools
import math
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from pyramid_widget import Game, Move
from pyramid_widget.errors import StrategyError
from pyramid_widget.lab import experiments
from pyramid_widget.lab.experiments import Results, deal_for, run_experiment, what_if
from pyramid_widget.lab.stats_ci import (
    mcnemar_exact,
    paired_difference_ci,
    running_wilson,
    wilson,
    z_value,
)
from pyramid_widget.lab.strategies import Lookahead, play_game

RULES = ["medium", "hard"]
STRATEGIES: list[object] = ["greedy", "random", Lookahead(samples=1)]
NAMES = ["greedy", "random", "lookahead"]


def _key(results: Results) -> list[tuple[object, ...]]:
    """Everything in the rows but the wall-clock seconds."""
    return [
        (r.game, r.deal, r.rules, r.strategy, r.result, r.cards_left, r.cards_left_all, r.moves)
        for r in results
    ]


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


def test_notebook_strategies_warn_only_when_parallel_workers_were_asked_for() -> None:
    def mine(game: Game, rng: random.Random) -> Move:
        return sorted(game.legal_moves)[-1]

    mine.__module__ = "__main__"
    with pytest.warns(UserWarning, match="runs in this process"):
        results = run_experiment("hard", mine, games=4, jobs=2, progress=False)
    assert len(results) == 4 and results.strategies == ["mine"]


def test_a_notebook_strategy_with_default_jobs_gets_one_note_not_a_warning_every_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def my_notebook_strategy(game: Game, rng: random.Random) -> Move:
        return sorted(game.legal_moves)[-1]

    my_notebook_strategy.__module__ = "__main__"
    monkeypatch.setattr(experiments, "_NOTED", set())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        for _ in range(3):
            run_experiment("hard", my_notebook_strategy, games=2, progress=False)
    err = capsys.readouterr().err
    assert err.count("note: strategy my_notebook_strategy is defined in this notebook") == 1


def test_an_illegal_move_is_one_line_in_a_notebook() -> None:
    def hasty(game: Game, rng: random.Random) -> str:
        return "redeal"

    with pytest.raises(StrategyError) as caught:
        run_experiment("medium", hasty, games=1, progress=False)
    error = caught.value
    assert error.__cause__ is None and error.__suppress_context__
    # IPython shows _render_traceback_() instead of the frames of the library.
    lines = error._render_traceback_()  # type: ignore[attr-defined]
    assert lines == [f"StrategyError: {error}"] and "\n" not in lines[0]
    assert "strategy 'hasty' played 'redeal'" in lines[0] and "stock still has" in lines[0]


def _pyramid_left_by_replay(rules: str, deal: int, moves: tuple[Move, ...]) -> int:
    """Replay the moves in the engine and count the dealt pyramid cards not discarded."""
    game = Game(rules, deal)
    dealt = {c for c in game.pyramid if c is not None}
    for move in moves:
        game.play(move)
    return len(dealt - set(game.discard))


def test_cards_left_counts_pyramid_cards_and_won_games_have_none(serial: Results) -> None:
    for row in serial:
        assert row.cards_left is not None and row.cards_left_all is not None
        assert 0 <= row.cards_left <= min(28, row.cards_left_all)
        if row.won:
            assert row.cards_left == 0
    won = [r for r in serial if r.won]
    assert won and any(r.cards_left_all for r in won)  # won games may keep stock and waste
    for row in serial.select("medium", "greedy")[:8]:
        out = play_game("greedy", "medium", row.deal, random.Random(0), record=True)
        assert row.cards_left == _pyramid_left_by_replay("medium", row.deal, out.history)
        assert row.cards_left_all == out.cards_left


def test_perfect_wins_leave_no_pyramid_card_and_losses_are_not_counted() -> None:
    results = run_experiment("medium", "perfect", games=6, seed=3, jobs=1, progress=False)
    for row in results:
        assert row.cards_left == (0 if row.won else None)


def test_paired_counts_the_same_deals_and_tests_them(serial: Results) -> None:
    paired = serial.paired("greedy", "random", "medium")
    greedy, rand = serial.select("medium", "greedy"), serial.select("medium", "random")
    table = [0, 0, 0, 0]
    for g, r in zip(greedy, rand, strict=True):
        assert g.deal == r.deal
        table[(not g.won) * 2 + (not r.won)] += 1
    assert [paired.both, paired.only_first, paired.only_second, paired.neither] == table
    assert paired.deals == 16 and paired.dropped == 0
    assert paired.p_value == mcnemar_exact(table[1], table[2])
    assert (paired.ci_low, paired.ci_high) == paired_difference_ci(*table)
    assert paired.difference == pytest.approx((table[1] - table[2]) / 16)
    text = paired.table()
    assert "McNemar" in text and "Newcombe" in text and "greedy won" in text
    with pytest.raises(ValueError, match="say which rule set"):
        serial.paired("greedy", "random")
    with pytest.raises(ValueError, match="not in these results"):
        serial.paired("greedy", "perfect", "medium")


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
        "cards_left_all",
        "moves",
        "seconds",
    ]
    assert rows[0]["rules"] == "medium" and rows[0]["result"] in ("won", "lost")


class _FullDisk:
    """A ``csv.writer`` whose disk fills up after ``rows`` rows (``ENOSPC``, as a real full
    disk raises it from ``write``)."""

    def __init__(self, rows: int) -> None:
        self.left = rows
        self.real = csv.writer  # (the module's own is patched with this one)

    def __call__(self, handle: Any) -> _FullDisk:
        self.inner = self.real(handle)
        return self

    def writerow(self, row: Any) -> Any:
        if self.left <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.left -= 1
        return self.inner.writerow(row)


def test_csv_is_written_whole_or_not_at_all(
    serial: Results, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = tmp_path / "old.csv"
    old.write_text("a colleague's rows\n")
    old.chmod(0o640)
    new = tmp_path / "new.csv"
    with monkeypatch.context() as patch:
        patch.setattr(experiments.csv, "writer", _FullDisk(rows=5))
        with pytest.raises(OSError) as kept:
            serial.to_csv(old)
        with pytest.raises(OSError) as nothing:
            serial.to_csv(new)
    rows = f"{len(serial):,} rows"
    assert str(kept.value) == (
        f"cannot write the {rows} to {str(old)!r} (No space left on device); "
        "the file that was there is unchanged"
    )
    assert (
        str(nothing.value) == f"cannot write the {rows} to {str(new)!r} (No space left on device)"
    )
    assert old.read_text() == "a colleague's rows\n"  # not cut to five rows
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]  # no half file, no spare
    # the disk has room again: the rows replace the file, which keeps its permissions
    assert serial.to_csv(old) == old
    assert len(old.read_text().splitlines()) == len(serial) + 1
    assert old.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


def test_csv_through_a_link_and_to_a_device(serial: Results, tmp_path: Path) -> None:
    target = tmp_path / "data" / "rows.csv"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "latest.csv"
    link.symlink_to(target)
    assert serial.to_csv(link) == link
    assert link.is_symlink() and link.resolve() == target  # the link stays, its file changes
    assert target.read_text().startswith("game,deal,")
    assert sorted(p.name for p in target.parent.iterdir()) == ["rows.csv"]
    # no regular file (a device, a pipe): written in place, nothing made beside it
    before = sorted(p.name for p in Path("/dev").iterdir())
    assert serial.to_csv("/dev/null") == Path("/dev/null")
    assert sorted(p.name for p in Path("/dev").iterdir()) == before
    with pytest.raises(OSError, match=r"^cannot write the .* rows to '/dev/full' \(No space left"):
        serial.to_csv("/dev/full")


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
        # a non-list is one rule set or strategy, refused by name, not "not iterable"
        ({"rules": 5}, "rules must be a preset name"),
        ({"rules": None}, "rules must be a preset name"),
        ({"strategies": 5}, "a strategy is a name or a callable"),
        ({"strategies": None}, "a strategy is a name or a callable"),
        # one sentence up front, not a list of 10**12 games that fills the memory
        ({"games": 10**12}, r"games must be a whole number from 1 to 1,000,000, got 10+$"),
        ({"games": None, "deals": range(10**12)}, "at most 1,000,000 deals"),
        ({"games": None, "deals": range(10**20)}, "at most 1,000,000 deals"),
        ({"games": None, "deals": itertools.count()}, "at most 1,000,000 deals"),
        ({"games": None, "deals": []}, "no deal numbers in deals"),
        ({"games": None, "deals": iter(())}, "no deal numbers in deals"),
        ({"games": 0, "deals": range(10)}, "games must be a whole number"),
        ({"games": -1, "deals": range(10)}, "games must be a whole number"),
        ({"games": "3", "deals": range(10)}, "games must be a whole number"),
        ({"deals": 5}, "deals must be a list or range of deal numbers"),
        ({"deals": "0 1 2"}, "deals must be a list or range of deal numbers"),
        ({"deals": [2**64]}, "deal numbers must be non-negative"),
        # a bad limit is refused before any game, whatever the strategies
        ({"max_seconds": "1"}, "max_seconds must be a finite number of seconds above 0"),
        ({"max_seconds": float("nan")}, "max_seconds must be a finite number"),
        ({"max_seconds": float("inf")}, "max_seconds must be a finite number"),
        ({"max_seconds": 0}, "max_seconds must be a finite number"),
        ({"max_seconds": None}, "max_seconds must be a finite number"),
        ({"max_moves": "5"}, "max_moves must be a whole number of at least 1"),
        ({"max_moves": None}, "max_moves must be a whole number of at least 1"),
        ({"max_moves": 0}, "max_moves must be a whole number of at least 1"),
        ({"max_moves": 1.5}, "max_moves must be a whole number of at least 1"),
        ({"chunk_size": -1}, "chunk_size must be a whole number of at least 1"),  # no games
        ({"chunk_size": "2"}, "chunk_size must be a whole number of at least 1"),
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
    with pytest.raises(ValueError, match="a list of values to sweep"):
        what_if("medium", "passes", 5, games=2, jobs=1, progress=False)  # type: ignore[arg-type]


def test_a_cell_with_no_decided_game_has_no_win_rate_to_show() -> None:
    """Every game stopped by the move limit: "n/a", where the table once said "nan%"."""
    results = run_experiment("hard", "greedy", games=2, jobs=1, progress=False, max_moves=1)
    assert [s.unknown for s in results.summary()] == [2]
    assert "nan" not in results.table()
    assert results.table().splitlines()[1].split()[-3:] == ["n/a", "[0.0%,", "100.0%]"]


def test_the_cap_is_the_one_the_cli_states() -> None:
    from pyramid_widget.cli import experiment as cli_experiment

    assert cli_experiment.MAX_GAMES is experiments.MAX_GAMES == 1_000_000
    rows = run_experiment("hard", "greedy", 2, deals=range(10**12), jobs=1, progress=False)
    assert [row.deal for row in rows] == [0, 1]  # games= takes the first deals: no cap hit


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
