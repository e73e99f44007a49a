"""``pyramid-widget rules``: the preset rule sets, each with its one-line description and source.

Every name listed here is accepted by ``solve --rules`` and ``experiment --rules``.

>>> import argparse, io
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> out = io.StringIO()
>>> run(parser.parse_args([]), out)
0
>>> print(out.getvalue().splitlines()[0])  # doctest: +ELLIPSIS
easy ... Classic Pyramid with unlimited redeals; ...
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from pyramid_widget.engine.rules import PRESETS, RuleSet

HELP = "List the preset rule sets with their one-line descriptions and sources."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Attach the ``rules`` options to ``parser``."""
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def source_of(rules: RuleSet) -> str:
    """Where a rule set comes from (``rules.source``; empty for a rule set without one).

    >>> from pyramid_widget.engine.rules import get_rules
    >>> isinstance(source_of(get_rules("medium")), str)
    True
    """
    source = getattr(rules, "source", "")
    return source if isinstance(source, str) else ""


def entries() -> list[dict[str, str]]:
    """One ``{"name", "description", "source"}`` per preset, in the order of ``PRESETS``."""
    return [
        {"name": r.name, "description": r.description, "source": source_of(r)}
        for r in PRESETS.values()
    ]


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the presets; return the exit status (0).

    As text: one preset per paragraph, the name and description on the first line and the
    source (when known) indented below it. ``--json`` prints one JSON list.
    """
    stream = out or sys.stdout
    rows = entries()
    if args.json:
        print(json.dumps(rows), file=stream)
        return 0
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        print(f"{row['name']:<{width}}  {row['description']}".rstrip(), file=stream)
        if row["source"]:
            print(f"{'':<{width}}  source: {row['source']}", file=stream)
    return 0
