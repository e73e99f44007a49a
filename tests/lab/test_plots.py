"""Each plot is one call, returns a Figure with the expected artists, and saves as an image."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest
from matplotlib.collections import PolyCollection
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure

from pyramid_widget.lab.experiments import Results, run_experiment, what_if
from pyramid_widget.lab.plots import (
    plot_cards_left,
    plot_convergence,
    plot_known_convergence,
    plot_sampling_distribution,
    plot_what_if,
    plot_win_rates,
)
from pyramid_widget.lab.stats_ci import normal_band


@pytest.fixture(scope="module")
def results() -> Results:
    return run_experiment(
        ["easy", "medium", "hard"], ["random", "greedy"], games=40, jobs=1, progress=False
    )


def test_win_rates_draws_a_bar_and_an_error_bar_per_cell(results: Results, tmp_path: Path) -> None:
    fig = plot_win_rates(results)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    errors = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert [len(b) for b in bars] == [3, 3] and len(errors) == 2
    heights = sorted(round(p.get_height(), 6) for b in bars for p in b)
    assert heights == sorted(
        round(0.0 if s.win_rate != s.win_rate else s.win_rate, 6) for s in results.summary()
    )
    assert [t.get_text() for t in ax.get_xticklabels()] == ["easy", "medium", "hard"]
    assert ax.get_legend() is not None
    path = tmp_path / "win_rates.png"
    fig.savefig(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000


def test_convergence_draws_the_running_estimate_and_its_band(results: Results) -> None:
    fig = plot_convergence(results, "medium", "greedy")
    ax = fig.axes[0]
    (line,) = ax.get_lines()
    assert len(line.get_xdata()) == 40
    greedy = results.select("medium", "greedy")
    assert line.get_ydata()[-1] == pytest.approx(sum(r.won for r in greedy) / 40)
    assert sum(isinstance(c, PolyCollection) for c in ax.collections) == 1
    assert len(plot_convergence(results).axes[0].get_lines()) == 6


def test_cards_left_draws_one_strategy_one_bar_per_whole_number_of_pyramid_cards(
    results: Results,
) -> None:
    fig = plot_cards_left(results, "greedy")
    assert len(fig.axes) == 3  # one panel per rule set, one strategy
    for ax, rules in zip(fig.axes, results.rules, strict=True):
        lost = [r.cards_left for r in results.select(rules, "greedy") if r.result == "lost"]
        bars = ax.patches
        assert [round(b.get_x() + b.get_width() / 2, 9) for b in bars] == list(range(29))
        assert [b.get_height() for b in bars] == [lost.count(k) for k in range(29)]
        assert ax.get_title(loc="left").startswith(f"{rules}: {len(lost)} lost games")
    assert "pyramid cards left" in fig.axes[-1].get_xlabel()
    assert "greedy" in fig.get_suptitle() and "random" not in fig.get_suptitle()


def test_cards_left_of_a_larger_tableau_has_a_bar_for_every_count() -> None:
    """Pharaohs deals all 52 cards to three pyramids: a lost game may leave more than 28."""
    family = run_experiment("pharaohs", "random", games=30, seed=2, jobs=1, progress=False)
    lost = [r.cards_left for r in family.rows if r.result == "lost" and r.cards_left is not None]
    assert max(lost) > 28
    ax = plot_cards_left(family, "random").axes[0]
    assert len(ax.patches) == max(lost) + 1
    assert [b.get_height() for b in ax.patches] == [lost.count(k) for k in range(max(lost) + 1)]
    assert "(of 28)" not in ax.get_xlabel()


def test_cards_left_into_a_given_axes_needs_one_rule_set(results: Results) -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    assert plot_cards_left(results, "random", "hard", ax=ax) is fig
    with pytest.raises(ValueError, match="choose one rule set"):
        plot_cards_left(results, "random", ax=ax)
    plt.close(fig)


def test_every_bar_has_a_value_label_and_the_title_counts_decided_games(results: Results) -> None:
    ax = plot_win_rates(results).axes[0]
    labels = sorted(t.get_text() for t in ax.texts)
    assert labels == sorted(f"{s.win_rate:.1%}" for s in results.summary())
    assert "40 decided deals per bar" in ax.get_title()
    conv = plot_convergence(results, "hard", "greedy").axes[0]
    assert "40 decided games" in conv.get_title()


def test_known_convergence_draws_the_theoretical_band() -> None:
    outcomes = [i % 5 == 0 for i in range(200)]
    ax = plot_known_convergence(outcomes, 0.2).axes[0]
    estimate, low, high, truth = ax.get_lines()
    assert len(estimate.get_xdata()) == 200 and estimate.get_ydata()[-1] == pytest.approx(0.2)
    assert low.get_ydata()[99] == pytest.approx(normal_band(0.2, 100)[0])
    assert high.get_ydata()[99] == pytest.approx(0.2 + 1.959964 * (0.2 * 0.8 / 100) ** 0.5)
    assert list(truth.get_ydata()) == [0.2, 0.2]


def test_sampling_distribution_is_a_histogram_with_the_normal_curve() -> None:
    estimates = [0.1, 0.2, 0.2, 0.25, 0.3, 0.2]
    ax = plot_sampling_distribution(estimates, 0.2, 20).axes[0]
    bars = [p for p in ax.patches if p.get_height() > 0 and p.get_width() < 0.06]
    assert sum(b.get_height() for b in bars) == len(estimates)
    assert any(abs(b.get_x() + b.get_width() / 2 - 0.2) < 1e-9 for b in bars)  # centred
    (curve,) = [line for line in ax.get_lines() if len(line.get_xdata()) > 2]
    assert max(curve.get_ydata()) == pytest.approx(
        len(estimates) / 20 / ((0.2 * 0.8 / 20) ** 0.5 * (2 * 3.141592653589793) ** 0.5)
    )
    assert "6 experiments of 20 trials" in ax.get_title()


def test_what_if_draws_a_line_per_strategy() -> None:
    sweep = what_if(
        "medium", "passes", [1, 2, 3], ["random", "greedy"], games=15, jobs=1, progress=False
    )
    fig = plot_what_if(sweep)
    ax = fig.axes[0]
    lines = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(lines) == 2
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3"]
    assert ax.get_xlabel() == "passes"


def test_plots_draw_into_a_given_axes(results: Results) -> None:
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2)
    assert plot_win_rates(results, ax=left) is fig
    assert plot_cards_left(results, rules="hard", ax=right) is fig
    plt.close(fig)


def test_unknown_games_are_marked_on_the_plot() -> None:
    from pyramid_widget import Game, Move

    def stubborn(game: Game, rng: object) -> Move:
        return Move.draw() if game.stock else Move.redeal()

    results = run_experiment(
        {"name": "endless", "passes": None}, stubborn, games=2, jobs=1, progress=False, max_moves=60
    )
    texts = [t.get_text() for t in plot_win_rates(results).axes[0].texts]
    assert texts == ["2 unknown"]


def test_plot_errors_are_clear(results: Results) -> None:
    with pytest.raises(ValueError, match="not a sweep"):
        plot_what_if(results)
    with pytest.raises(ValueError, match="no games"):
        plot_win_rates(Results([], ["hard"], ["greedy"], 0))
    with pytest.raises(ValueError, match="no decided games"):
        plot_convergence(results, "hard", "nobody")
