"""``pyramid-widget stats``: the records per rule set, as a table or as JSON.

>>> import argparse, tempfile
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> run(parser.parse_args(["--db", tempfile.mkdtemp() + "/none.sqlite3"]))  # doctest: +ELLIPSIS
No games recorded yet (no records file at .../none.sqlite3).
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from pyramid_widget.cli.arguments import name
from pyramid_widget.records.store import Records, Stats, resolve_path

HELP = "Show the records: games played, won, streaks, best score and best time per rule set."

COLUMNS = ("rules", "played", "won", "win %", "streak", "best streak", "best score", "best time")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Attach the ``stats`` options to ``parser``."""
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="records file or directory (default: $PYRAMID_WIDGET_DATA_DIR, else the user "
        "data directory)",
    )
    parser.add_argument(
        "--rules",
        metavar="NAME",
        action="append",
        type=name,
        help="only this rule set (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--saved", action="store_true", help="also list the saved games")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the statistics; return the exit status (0).

    Reading changes nothing: the file is opened read-only (never created, migrated, moved or
    replaced). A file that is not a pyramid-widget records file, or is damaged, or comes from
    a newer version, raises :class:`~pyramid_widget.errors.RecordsError` (one line, exit 2).
    """
    stream = out or sys.stdout
    if args.db is not None and not args.db.strip():
        raise ValueError("--db needs a path (a records file or a directory)")
    path = resolve_path(args.db)
    if path is not None and not path.exists():  # reading must not create a records file
        if args.json:
            print(json.dumps({"path": str(path), "stats": [], "saved": []}), file=stream)
        else:
            print(f"No games recorded yet (no records file at {path}).", file=stream)
        return 0
    with Records(":memory:" if path is None else path, read_only=True) as records:
        stats = [records.stats(name) for name in args.rules] if args.rules else records.all_stats()
        saved = records.saved_games() if args.saved else []
        where = records.path or "memory"
    if args.json:
        document = {
            "path": str(where),
            "stats": [s.to_dict() for s in stats],
            "saved": [vars(s) for s in saved],
        }
        print(json.dumps(document, indent=2), file=stream)
        return 0
    print(format_table(stats), file=stream)
    for game in saved:
        print(
            f"saved: {game.name!r} ({game.rules}, {game.moves} moves, {game.saved_at})", file=stream
        )
    print(f"Records: {where}", file=stream)
    return 0


def format_time(seconds: float | None) -> str:
    """``m:ss`` (``h:mm:ss`` past an hour); a dash for no time.

    >>> format_time(75.4), format_time(3725), format_time(None)
    ('1:15', '1:02:05', '-')
    """
    if seconds is None:
        return "-"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _row(stats: Stats) -> tuple[str, ...]:
    rules = stats.rules + (f" ({stats.best_rounds} rounds)" if stats.best_rounds else "")
    return (
        rules,
        str(stats.played),
        str(stats.won),
        f"{stats.win_pct:.1f}",
        str(stats.current_streak),
        str(stats.best_streak),
        "-" if stats.best_score is None else str(stats.best_score),
        format_time(stats.best_time),
    )


def format_table(stats: Sequence[Stats]) -> str:
    """A plain-text table, one row per rule set (``egypt`` shows its best run of rounds).

    >>> print(format_table([Stats("medium", 4, 3, 75.0, 1, 2, 1040, 95.0, 0)]))
    rules   played  won  win %  streak  best streak  best score  best time
    medium       4    3   75.0       1            2        1040       1:35
    """
    if not stats:
        return "No games recorded yet."
    rows = [COLUMNS, *(_row(s) for s in stats)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
