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

from pyramid_widget.errors import ArgumentError
from pyramid_widget.lab.stats_ci import normal_band, running_wilson, z_value

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from pyramid_widget.lab.experiments import Results, Summary

__all__ = [
    "plot_cards_left",
    "plot_convergence",
    "plot_known_convergence",
    "plot_sampling_distribution",
    "plot_what_if",
    "plot_win_rates",
]


def _axes(ax: Axes | None, size: tuple[float, float] = (7.0, 4.0)) -> tuple[Figure, Axes]:
    """A fresh figure and axes (closed in pyplot, so a notebook shows it once), or ``ax``'s."""
    if ax is not None:
        figure = ax.get_figure()
        if figure is None:  # pragma: no cover - an axes always belongs to a figure here
            raise ArgumentError("ax must belong to a figure")
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
        raise ArgumentError("the results hold no games to plot")


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
        _label_values(ax, xs, cells)
    ax.set_xticks(range(len(results.rules)), results.rules)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_xlabel("rule set")
    ax.yaxis.set_major_formatter(_percent())
    ax.legend(title="strategy")
    ax.set_title(title or f"How winnable is Pyramid? ({_decided(summary)})")
    return fig


def _decided(cells: list[Summary]) -> str:
    """'400 decided deals per bar', or the range and the unknown count when they differ."""
    decided = sorted({s.won + s.lost for s in cells})
    unknown = sum(s.unknown for s in cells)
    count = str(decided[0]) if len(decided) == 1 else f"{decided[0]}-{decided[-1]}"
    return f"{count} decided deals per bar" + (f", {unknown} unknown left out" if unknown else "")


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
    drawn = longest = 0
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
            longest = max(longest, len(outcomes))
    if not drawn:
        raise ArgumentError(f"no decided games for rules={rules!r}, strategy={strategy!r}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_xlabel("games played")
    ax.set_ylabel("estimated win rate")
    ax.set_title(f"Convergence over {longest} decided games (interval width ~ 1/sqrt(games))")
    ax.legend()
    return fig


def plot_cards_left(
    results: Results,
    strategy: str | None = None,
    rules: str | None = None,
    *,
    ax: Axes | None = None,
) -> Figure:
    """How many *pyramid* cards one strategy's lost games leave: one panel per rule set (or
        only ``rules``), one bar per whole number of cards (bins centred on 0..28, or up to the most
    cards a lost game left where the tableau is larger).

        ``strategy`` defaults to the first one whose lost games were played out (``perfect``
        does not play a lost deal). ``ax`` needs a single rule set (``rules=``, or results of
        one). The dashed line marks the median.
    """
    _require(results)
    names = [strategy] if strategy else results.strategies
    wanted = [rules] if rules else results.rules
    lost = {
        s: {
            r: [
                row.cards_left
                for row in results.select(r, s)
                if row.result == "lost" and row.cards_left is not None
            ]
            for r in wanted
        }
        for s in names
    }
    chosen = next((s for s in names if any(lost[s].values())), None)
    if chosen is None:
        raise ArgumentError(
            f"no lost game that was played out for strategy={strategy!r}, rules={rules!r} "
            "(perfect does not play lost deals)"
        )
    panels = {r: left for r, left in lost[chosen].items() if left}
    if ax is not None:
        if len(panels) != 1:
            raise ArgumentError("to draw into one axes, choose one rule set with rules=")
        fig, axes = _axes(ax)[0], [ax]
    else:
        import matplotlib.pyplot as plt

        fig, grid = plt.subplots(
            len(panels),
            1,
            figsize=(7.0, 1.2 + 1.6 * len(panels)),
            sharex=True,
            layout="constrained",
            squeeze=False,
        )
        plt.close(fig)
        axes = list(grid[:, 0])
    top = max(28, *(max(left) for left in panels.values()))  # a larger tableau: up to 56
    for i, (panel, (r, left)) in enumerate(zip(axes, panels.items(), strict=True)):
        counts = [left.count(k) for k in range(top + 1)]
        panel.bar(range(top + 1), counts, width=0.85, color=f"C{i}")
        median = sorted(left)[len(left) // 2]
        panel.axvline(median, color="black", linestyle="--", linewidth=1)
        panel.set_ylabel("lost games")
        panel.set_title(
            f"{r}: {len(left)} lost games, median {median} pyramid cards left",
            fontsize=10,
            loc="left",
        )
    axes[-1].set_xlim(-0.6, top + 0.6)
    axes[-1].set_xticks(range(0, top + 1, 2 if top <= 28 else 4))
    of = " (of 28)" if top == 28 else ""
    axes[-1].set_xlabel(f"pyramid cards left at the end of a lost game{of}")
    total = sum(len(v) for v in panels.values())
    fig.suptitle(f"How close do {chosen}'s lost games come? ({total} lost games played out)")
    return fig


def plot_what_if(results: Results, *, ax: Axes | None = None) -> Figure:
    """A what-if sweep (:func:`~pyramid_widget.lab.experiments.what_if`) as lines with error bars."""
    _require(results)
    if results.parameter is None:
        raise ArgumentError("these results are not a sweep; make them with experiments.what_if()")
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
        _label_values(ax, list(xs), cells, values=False)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_xlabel(results.parameter.replace("_", " "))
    ax.set_ylabel("win rate (95% Wilson interval)")
    base = results.rules[0].split(" ")[0]
    ax.set_title(
        f"What if? {base} with other {results.parameter.replace('_', ' ')} "
        f"({_decided(summary).replace(' per bar', ' per point')})"
    )
    ax.legend(title="strategy")
    return fig


def _label_values(
    ax: Axes, xs: list[float] | range, cells: list[Summary], *, values: bool = True
) -> None:
    """Write each rate (when ``values``) and "n unknown" above its error bar, so that a bar
    too small to see (a 2% win rate) still reads."""
    for x, cell in zip(xs, cells, strict=True):
        parts = []
        if values and not math.isnan(cell.win_rate):
            parts.append(f"{cell.win_rate:.1%}")
        if cell.unknown:
            parts.append(f"{cell.unknown} unknown")
        if parts:
            top = 0.0 if math.isnan(cell.win_rate) else cell.ci_high
            ax.annotate(
                "\n".join(parts),
                (x, top),
                xytext=(0, 2),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=8,
            )


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0)


def plot_known_convergence(
    outcomes: list[bool], truth: float, *, label: str = "estimate", ax: Axes | None = None
) -> Figure:
    """A running estimate against a known true probability ``truth``.

    The dashed funnel is where the estimate after ``n`` trials falls 95% of the time,
    ``truth ± 1.96·sqrt(truth (1 - truth) / n)``; the shaded band is the Wilson interval the
    data alone give (the band you have when the truth is not known).
    """
    if not outcomes:
        raise ArgumentError("give at least one outcome")
    if not 0 <= truth <= 1:
        raise ArgumentError(f"truth must be a probability, got {truth!r}")
    fig, ax = _axes(ax)
    rate, low, high = running_wilson(outcomes)
    xs = range(1, len(outcomes) + 1)
    (line,) = ax.plot(xs, rate, label=f"{label} after n trials", zorder=3)
    ax.fill_between(xs, low, high, alpha=0.15, color=line.get_color(), label="95% Wilson interval")
    bands = [normal_band(truth, n) for n in xs]
    ax.plot(xs, [b[0] for b in bands], "k--", linewidth=1, label="truth ± 1.96·√(p(1-p)/n)")
    ax.plot(xs, [b[1] for b in bands], "k--", linewidth=1)
    ax.axhline(truth, color="black", linewidth=1.5, label=f"truth p = {truth:.4f}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_xlabel("trials (deals dealt)")
    ax.set_ylabel("estimated probability")
    ax.set_title(f"The estimate homes in on the known answer ({len(outcomes)} trials)")
    ax.legend(loc="upper right", fontsize=8)
    return fig


def plot_sampling_distribution(
    estimates: list[float], truth: float, trials: int, *, ax: Axes | None = None
) -> Figure:
    """A histogram of many estimates, each from ``trials`` trials, with the normal curve
    ``N(truth, truth (1 - truth) / trials)`` that the central limit theorem predicts."""
    if not estimates:
        raise ArgumentError("give at least one estimate")
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise ArgumentError(f"trials must be a whole number of at least 1, got {trials!r}")
    fig, ax = _axes(ax)
    # One bin per possible estimate k / trials, centred on it.
    edges = [(k - 0.5) / trials for k in range(trials + 2)]
    ax.hist(
        estimates, bins=edges, color="tab:blue", alpha=0.6, label=f"{len(estimates)} experiments"
    )
    sd = math.sqrt(truth * (1 - truth) / trials)
    if sd > 0:
        grid = [i / 400 for i in range(401)]
        scale = len(estimates) / trials  # expected count per bin of width 1/trials
        curve = [
            scale * math.exp(-(((x - truth) / sd) ** 2) / 2) / (sd * math.sqrt(2 * math.pi))
            for x in grid
        ]
        ax.plot(grid, curve, color="black", label="normal curve N(p, p(1-p)/n)")
        half = z_value() * sd
        ax.axvspan(truth - half, truth + half, color="grey", alpha=0.12, label="p ± 1.96·sd")
    ax.axvline(truth, color="black", linestyle="--", linewidth=1, label=f"truth p = {truth:.4f}")
    inside = sum(abs(e - truth) <= z_value() * sd + 1e-12 for e in estimates) / len(estimates)
    spread = max(4 * sd, 1 / trials)
    ax.set_xlim(max(0.0, truth - spread - 1 / trials), min(1.0, truth + spread + 1 / trials))
    ax.xaxis.set_major_formatter(_percent())
    ax.set_xlabel(f"estimate from {trials} trials")
    ax.set_ylabel("experiments")
    ax.set_title(
        f"Sampling distribution: {len(estimates)} experiments of {trials} trials "
        f"({inside:.0%} within p ± 1.96·sd)"
    )
    ax.legend(fontsize=8)
    return fig
