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
import contextlib
import sys
from pathlib import Path

from pyramid_widget.cli.arguments import bounded, jobs, name, seconds, shown
from pyramid_widget.engine.deals import MAX_DEAL_NUMBER
from pyramid_widget.engine.rules import PRESETS
from pyramid_widget.lab.experiments import MAX_GAMES
from pyramid_widget.lab.strategies import STRATEGIES

HELP = "Run a win-rate experiment (rule sets x strategies x deals) and print the summary."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``experiment`` options to ``parser``."""
    parser.add_argument(
        "--rules",
        nargs="+",
        default=["medium"],
        type=name,
        metavar="RULES",
        help=f"rule sets to compare (presets: {', '.join(PRESETS)}; pyramid-widget rules "
        "describes them); default medium",
    )
    parser.add_argument(
        "--strategy",
        nargs="+",
        default=["greedy"],
        type=name,
        metavar="STRATEGY",
        help=f"strategies to compare ({', '.join(STRATEGIES)}); default greedy",
    )
    parser.add_argument(
        "--games",
        type=bounded(1, MAX_GAMES),
        default=1000,
        help=f"deals per cell (default 1000, at most {MAX_GAMES:,})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed the deals come from (default 0)")
    parser.add_argument(
        "--deals",
        metavar="START:STOP",
        help="play the numbered deals START..STOP-1 instead of seeded ones",
    )
    parser.add_argument(
        "--jobs", type=jobs, default=None, help="worker processes (default: all cores)"
    )
    parser.add_argument(
        "--max-seconds",
        type=seconds,
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
    >>> _deal_range("0:100000000000")
    Traceback (most recent call last):
    ...
    ValueError: --deals covers at most 1,000,000 deals, got 100,000,000,000 in '0:100000000000'
    """
    if text is None:
        return None
    from pyramid_widget.cli.arguments import whole_number

    start, sep, stop = text.partition(":")
    low, high = whole_number(start), whole_number(stop)
    if not sep or low is None or high is None or not low < high:
        raise ValueError(
            f"--deals takes START:STOP with 0 <= START < STOP, like 0:1000; got {shown(text)}"
        )
    if high - 1 > MAX_DEAL_NUMBER:
        raise ValueError(
            f"--deals must stop at {MAX_DEAL_NUMBER + 1} at most (the largest deal number is "
            f"{MAX_DEAL_NUMBER}), got {shown(text)}"
        )
    if high - low > MAX_GAMES:
        raise ValueError(
            f"--deals covers at most {MAX_GAMES:,} deals, got {high - low:,} in {shown(text)}"
        )
    return range(low, high)


def _claim_out(name: str | None) -> Path | None:
    """Refuse an ``--out`` file that cannot be written, before the experiment runs (which
    may take hours, and whose rows would otherwise be lost at the very end).

    The file is opened for writing, since nothing short of that can tell (a name under
    ``/proc``, a read-only directory, a file without write permission). An existing file is
    opened to append and left unchanged; a new one is created empty, and its path returned so
    that :func:`run` removes it again if the run then fails for another reason. (A disk that
    fills up during the run can still only be found at the end: the table is printed, and
    :meth:`~pyramid_widget.lab.experiments.Results.to_csv` writes all or nothing, so a file
    that was there is kept as it was.)

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "rows.csv"
    >>> _claim_out(str(out)) == out, out.read_text()
    (True, '')
    >>> _claim_out(str(out)) is None  # there already: not this run's to remove
    True
    """
    if name is None:
        return None
    path = Path(name)
    if path.is_dir():
        raise ValueError(f"--out {shown(name)} is a directory; give a CSV file name")
    if not path.parent.is_dir():
        raise ValueError(f"--out {shown(name)}: no directory {path.parent} to write it in")
    try:
        try:
            with path.open("x", encoding="utf-8"):
                return path
        except FileExistsError:
            with path.open("a", encoding="utf-8"):
                return None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        why = getattr(exc, "strerror", None) or str(exc)
        raise ValueError(f"--out {shown(name)} cannot be written ({why})") from None


def run(args: argparse.Namespace) -> int:
    """Run the experiment described by ``args``; print the table; return the exit status."""
    from pyramid_widget.lab.experiments import run_experiment

    deals = _deal_range(args.deals)
    created = _claim_out(args.out)
    try:
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
    except BaseException:
        # Take back only the empty file this run made, so a failed run leaves nothing behind.
        if created is not None:
            with contextlib.suppress(OSError):
                if created.stat().st_size == 0:
                    created.unlink()
        raise
    print(results.table())
    if args.out:
        path = results.to_csv(args.out)
        print(f"wrote {len(results)} rows to {path}", file=sys.stderr)
    return 130 if results.interrupted else 0
