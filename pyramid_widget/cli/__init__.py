"""The ``pyramid-widget`` command line: one subcommand per module.

Each subcommand lives in its own module (``cli_solve``, ``cli_experiment``, ``cli_stats``) that
exposes ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``. Modules are
imported lazily so that ``pyramid-widget --help`` stays fast.

Bad input never produces a traceback: a ``ValueError`` (or ``OSError``) raised by a subcommand is
printed as one line, ``pyramid-widget: error: ...``, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

SUBCOMMANDS = {
    "solve": "pyramid_widget.cli.solve",
    "experiment": "pyramid_widget.cli.experiment",
    "stats": "pyramid_widget.cli.stats",
}


def build_parser() -> argparse.ArgumentParser:
    """Return the top-level parser with every subcommand attached."""
    parser = argparse.ArgumentParser(
        prog="pyramid-widget",
        description="Pyramid Solitaire: solve deals, run win-rate experiments, show records.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        child = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(child)
        child.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args._run(args)
    except (ValueError, OSError) as exc:
        print(f"pyramid-widget: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pyramid-widget: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
