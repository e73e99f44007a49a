"""Plots of experiment results, one call each (matplotlib, object API; each returns the Figure).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from pyramid_widget.lab.experiments import run_experiment
>>> results = run_experiment(["medium", "hard"], ["greedy", "random"], games=30, jobs=1,
...                          progress=False)
>>> fig = plot_win_rates(results)
>>> len(fig.axes[0].patches)  # one bar per rules x strategy
4

Pass ``ax=`` to draw into an axes of your own figure. Error bars and bands are 95% Wilson
intervals (:mod:`pyramid_widget.lab.stats_ci`); games whose result is unknown are left out of
the rates, as in :meth:`~pyramid_widget.lab.experiments.Results.summary`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from pyramid_widget.lab.stats_ci import running_wilson

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from pyramid_widget.lab.experiments import Results, Summary

__all__ = ["plot_cards_left", "plot_convergence", "plot_what_if", "plot_win_rates"]


def _axes(ax: Axes | None, size: tuple[float, float] = (7.0, 4.0)) -> tuple[Figure, Axes]:
    """A fresh figure and axes (closed in pyplot, so a notebook shows it once), or ``ax``'s."""
    if ax is not None:
        figure = ax.get_figure()
        if figure is None:  # pragma: no cover - an axes always belongs to a figure here
            raise ValueError("ax must belong to a figure")
        return figure, ax  # type: ignore[return-value]
    import matplotlib.pyplot as plt

    fig, new_ax = plt.subplots(figsize=size, layout="constrained")
    plt.close(fig)
    return fig, new_ax


def _yerr(cells: list[Summary]) -> list[list[float]]:
    low = [0.0 if math.isnan(s.win_rate) else s.win_rate - s.ci_low for s in cells]
    high = [0.0 if math.isnan(s.win_rate) else s.ci_high - s.win_rate for s in cells]
    return [low, high]


def _rates(cells: list[Summary]) -> list[float]:
    return [0.0 if math.isnan(s.win_rate) else s.win_rate for s in cells]


def _require(results: Results) -> None:
    if not len(results):
        raise ValueError("the results hold no games to plot")


def plot_win_rates(results: Results, *, ax: Axes | None = None, title: str | None = None) -> Figure:
    """Win rate by rule set (groups) and strategy (bars), with 95% error bars."""
    _require(results)
    fig, ax = _axes(ax)
    summary = results.summary()
    width = 0.8 / len(results.strategies)
    for k, strategy in enumerate(results.strategies):
        cells = [s for s in summary if s.strategy == strategy]
        xs = [i + (k - (len(results.strategies) - 1) / 2) * width for i in range(len(cells))]
        ax.bar(xs, _rates(cells), width, label=strategy)
        ax.errorbar(xs, _rates(cells), yerr=_yerr(cells), fmt="none", ecolor="black", capsize=3)
        _note_unknown(ax, xs, cells)
    ax.set_xticks(range(len(results.rules)), results.rules)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_xlabel("rule set")
    ax.yaxis.set_major_formatter(_percent())
    ax.legend(title="strategy")
    games = max(s.games for s in summary)
    ax.set_title(title or f"How winnable is Pyramid? ({games} deals per bar)")
    return fig


def plot_convergence(
    results: Results,
    rules: str | None = None,
    strategy: str | None = None,
    *,
    ax: Axes | None = None,
) -> Figure:
    """The running win-rate estimate and its 95% band as games accumulate (one line per
    rules/strategy cell, or only the cell(s) asked for)."""
    _require(results)
    fig, ax = _axes(ax)
    drawn = 0
    for r in [rules] if rules else results.rules:
        for s in [strategy] if strategy else results.strategies:
            outcomes = [row.won for row in results.select(r, s) if row.result != "unknown"]
            if not outcomes:
                continue
            rate, low, high = running_wilson(outcomes)
            xs = range(1, len(outcomes) + 1)
            (line,) = ax.plot(xs, rate, label=f"{r} / {s}")
            ax.fill_between(xs, low, high, alpha=0.2, color=line.get_color())
            drawn += 1
    if not drawn:
        raise ValueError(f"no decided games for rules={rules!r}, strategy={strategy!r}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_xlabel("games played")
    ax.set_ylabel("estimated win rate")
    ax.set_title("Monte Carlo convergence: the interval shrinks like 1/sqrt(games)")
    ax.legend()
    return fig


def plot_cards_left(results: Results, *, ax: Axes | None = None) -> Figure:
    """Distribution of the cards left when a game is lost, one outline per cell."""
    _require(results)
    fig, ax = _axes(ax)
    bins = [x - 0.5 for x in range(1, 54)]
    drawn = 0
    for r in results.rules:
        for s in results.strategies:
            left = [
                row.cards_left
                for row in results.select(r, s)
                if row.result == "lost" and row.cards_left is not None
            ]
            if left:
                ax.hist(left, bins=bins, histtype="step", linewidth=1.5, label=f"{r} / {s}")
                drawn += 1
    if not drawn:
        raise ValueError("no lost game that was played out (perfect does not play lost deals)")
    ax.set_xlabel("cards left at the end of a lost game")
    ax.set_ylabel("games")
    ax.set_title("How close do lost games come?")
    ax.legend()
    return fig


def plot_what_if(results: Results, *, ax: Axes | None = None) -> Figure:
    """A what-if sweep (:func:`~pyramid_widget.lab.experiments.what_if`) as lines with error bars."""
    _require(results)
    if results.parameter is None:
        raise ValueError("these results are not a sweep; make them with experiments.what_if()")
    fig, ax = _axes(ax)
    summary = results.summary()
    values = [results.values[name] for name in results.rules]
    labels = ["unlimited" if v is None else str(v) for v in values]
    for strategy in results.strategies:
        cells = [
            next(s for s in summary if s.rules == r and s.strategy == strategy)
            for r in results.rules
        ]
        xs = range(len(cells))
        ax.errorbar(xs, _rates(cells), yerr=_yerr(cells), marker="o", capsize=3, label=strategy)
        _note_unknown(ax, list(xs), cells)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_xlabel(results.parameter.replace("_", " "))
    ax.set_ylabel("win rate (95% Wilson interval)")
    base = results.rules[0].split(" ")[0]
    ax.set_title(f"What if? {base} with other {results.parameter.replace('_', ' ')}")
    ax.legend(title="strategy")
    return fig


def _note_unknown(ax: Axes, xs: list[float] | range, cells: list[Summary]) -> None:
    """Write "n unknown" above a rate that leaves out undecided games."""
    for x, cell in zip(xs, cells, strict=True):
        if cell.unknown:
            ax.annotate(
                f"{cell.unknown} unknown", (x, cell.ci_high), ha="center", va="bottom", fontsize=8
            )


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0)
