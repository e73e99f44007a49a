"""Speed of the win-rate experiments (issue 6 targets), printed as medians.

1. ``greedy`` under ``medium`` on one core: games per second (target: at least 2,000),
   measured as wall time and as CPU time of this process (CPU time is what one core gives
   when the machine is shared).
2. 10,000 ``greedy``/``medium`` games through ``run_experiment(jobs=2)``: wall seconds
   (target: under 5 s) and the CPU seconds all processes used (on a busy machine the wall
   time is longer than half of that).
3. ``lookahead`` under ``medium`` on one core: games per second (for scale).
4. ``perfect`` under ``hard`` on 2 cores: deals classified per second over ``--perfect-deals``
   deals, and the time 10,000 deals would take at that rate (target: under 2 minutes). The
   full 10,000 run is ``--perfect-deals 10000``.

    .venv/bin/python benchmarks/bench_experiments.py [--repeats 5] [--perfect-deals 200]

Writes the figures to ``artifacts/bench_experiments.json`` as well.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyramid_widget.lab.experiments import deal_for, run_experiment
from pyramid_widget.lab.strategies import play_game

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def timed(work: Callable[[], Any]) -> tuple[float, float]:
    """Wall and CPU seconds of ``work()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def one_core(strategy: str, games: int, repeats: int) -> dict[str, float]:
    """Median games per second of ``strategy`` under ``medium`` in this process."""

    def work() -> None:
        for i in range(games):
            play_game(strategy, "medium", deal_for(0, i), random.Random(i))

    runs = [timed(work) for _ in range(repeats)]
    return {
        "games": games,
        "wall_games_per_s": games / statistics.median(w for w, _ in runs),
        "cpu_games_per_s": games / statistics.median(c for _, c in runs),
    }


def two_cores(games: int, repeats: int) -> dict[str, float]:
    """Median wall seconds of ``games`` greedy/medium games on 2 worker processes."""

    def work() -> None:
        run_experiment("medium", "greedy", games=games, jobs=2, progress=False)

    walls, cpus = [], []
    for _ in range(repeats):
        before = _children_cpu()
        wall, cpu = timed(work)
        walls.append(wall)
        cpus.append(cpu + _children_cpu() - before)
    return {
        "games": games,
        "median_wall_s": statistics.median(walls),
        "median_cpu_s": statistics.median(cpus),
        "runs_s": walls,
    }


def _children_cpu() -> float:
    """CPU seconds of finished worker processes (the pool's workers once it shut down)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def perfect(deals: int, max_seconds: float) -> dict[str, Any]:
    """Classify ``deals`` hard deals on 2 cores; extrapolate to 10,000."""
    start = time.perf_counter()
    results = run_experiment(
        "hard", "perfect", games=deals, jobs=2, progress=True, max_seconds=max_seconds
    )
    wall = time.perf_counter() - start
    cell = results.summary()[0]
    per_deal = [r.seconds for r in results]
    return {
        "deals": deals,
        "max_seconds": max_seconds,
        "wall_s": wall,
        "deals_per_s": deals / wall,
        "extrapolated_10000_s": 10_000 * wall / deals,
        "median_deal_s": statistics.median(per_deal),
        "won": cell.won,
        "lost": cell.lost,
        "unknown": cell.unknown,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--perfect-deals", type=int, default=200)
    parser.add_argument("--max-seconds", type=float, default=10.0)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"cores: {os.cpu_count()}, load average: {load:.1f}")
    figures: dict[str, Any] = {"cores": os.cpu_count(), "load": load}

    figures["greedy_one_core"] = g = one_core("greedy", 2000, args.repeats)
    print(
        f"greedy/medium, 1 core: {g['wall_games_per_s']:,.0f} games/s wall, "
        f"{g['cpu_games_per_s']:,.0f} games/s CPU (target >= 2,000)"
    )
    figures["greedy_two_cores"] = t = two_cores(10_000, max(1, args.repeats // 2))
    print(
        f"greedy/medium, 10,000 games on 2 cores: {t['median_wall_s']:.2f} s wall "
        f"(target < 5 s), {t['median_cpu_s']:.2f} CPU seconds in all"
    )
    figures["lookahead_one_core"] = la = one_core("lookahead", 40, max(1, args.repeats // 2))
    print(f"lookahead/medium, 1 core: {la['wall_games_per_s']:,.1f} games/s wall")
    figures["perfect_two_cores"] = p = perfect(args.perfect_deals, args.max_seconds)
    print(
        f"perfect/hard, 2 cores: {p['deals']} deals in {p['wall_s']:.1f} s "
        f"({p['deals_per_s']:.1f} deals/s, median {p['median_deal_s']:.2f} s a deal; "
        f"{p['won']} won, {p['lost']} lost, {p['unknown']} unknown at {p['max_seconds']} s); "
        f"10,000 deals would take {p['extrapolated_10000_s'] / 60:.1f} min (target < 2 min)"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "bench_experiments.json").write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
