"""``pyramid-widget experiment``: run a win-rate experiment and print the summary table.

    pyramid-widget experiment --rules hard medium easy --strategy greedy perfect \\
        --games 2000 --jobs 2 --out results.csv

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> run(parser.parse_args(["--rules", "hard", "--games", "20", "--jobs", "1", "--quiet"]))
rules  strategy  games  won  lost  unknown  win rate  95% CI
hard   greedy       20    0    20        0      0.0%  [0.0%, 16.1%]
0
"""

from __future__ import annotations

import argparse
import sys

from pyramid_widget.engine.rules import PRESETS
from pyramid_widget.lab.strategies import STRATEGIES

HELP = "Run a win-rate experiment (rule sets x strategies x deals) and print the summary."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``experiment`` options to ``parser``."""
    parser.add_argument(
        "--rules",
        nargs="+",
        default=["medium"],
        metavar="RULES",
        help=f"rule sets to compare (presets: {', '.join(PRESETS)}); default medium",
    )
    parser.add_argument(
        "--strategy",
        nargs="+",
        default=["greedy"],
        metavar="STRATEGY",
        help=f"strategies to compare ({', '.join(STRATEGIES)}); default greedy",
    )
    parser.add_argument("--games", type=int, default=1000, help="deals per cell (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed the deals come from (default 0)")
    parser.add_argument(
        "--deals",
        metavar="START:STOP",
        help="play the numbered deals START..STOP-1 instead of seeded ones",
    )
    parser.add_argument(
        "--jobs", type=int, default=None, help="worker processes (default: all cores)"
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=10.0,
        help="solver time per deal for 'perfect'; undecided deals are reported as unknown",
    )
    parser.add_argument("--out", metavar="CSV", help="also write one row per game to this CSV file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _deal_range(text: str | None) -> range | None:
    """Parse ``START:STOP`` into a range.

    >>> _deal_range("10:13")
    range(10, 13)
    >>> _deal_range("7")
    Traceback (most recent call last):
    ...
    ValueError: --deals takes START:STOP with 0 <= START < STOP, like 0:1000; got '7'
    """
    if text is None:
        return None
    start, sep, stop = text.partition(":")
    try:
        low, high = int(start), int(stop)
    except ValueError:
        low = high = -1
    if not sep or not 0 <= low < high:
        raise ValueError(
            f"--deals takes START:STOP with 0 <= START < STOP, like 0:1000; got {text!r}"
        )
    return range(low, high)


def run(args: argparse.Namespace) -> int:
    """Run the experiment described by ``args``; print the table; return the exit status."""
    from pyramid_widget.lab.experiments import run_experiment

    deals = _deal_range(args.deals)
    if deals is None and args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    if not args.max_seconds > 0:
        raise ValueError(f"--max-seconds must be positive, got {args.max_seconds}")
    results = run_experiment(
        args.rules,
        args.strategy,
        None if deals is not None else args.games,
        seed=args.seed,
        deals=deals,
        jobs=args.jobs,
        progress=not args.quiet,
        max_seconds=args.max_seconds,
    )
    print(results.table())
    if args.out:
        path = results.to_csv(args.out)
        print(f"wrote {len(results)} rows to {path}", file=sys.stderr)
    return 130 if results.interrupted else 0
