"""The ``pyramid-widget`` command line: one subcommand per module.

Each subcommand lives in its own module (``cli.solve``, ``cli.experiment``, ``cli.stats``,
``cli.rules``) that exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported lazily so that ``pyramid-widget --help`` stays fast.

Bad input never produces a traceback: a bad argument (argparse's own errors included) or a
``ValueError`` / ``OSError`` raised by a subcommand is printed as ONE line,
``pyramid-widget: error: ...`` (or ``pyramid-widget solve: error: ...``), and the exit status
is 2. Warnings are printed as one line each, ``pyramid-widget: warning: ...``.

>>> main(["solve", "--number", "7", "--max-seconds", "nan"])
2
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence
from typing import NoReturn, TextIO

SUBCOMMANDS = {
    "solve": "pyramid_widget.cli.solve",
    "experiment": "pyramid_widget.cli.experiment",
    "stats": "pyramid_widget.cli.stats",
    "rules": "pyramid_widget.cli.rules",
}
MAX_MESSAGE = 400
"""Characters of an error message printed; longer ones (a 10 MB deal quoted) are cut."""


def one_line(text: str) -> str:
    """``text`` on one line, cut to :data:`MAX_MESSAGE` characters.

    >>> one_line("first\\nsecond")
    'first second'
    """
    flat = " ".join(str(text).split())
    return flat if len(flat) <= MAX_MESSAGE else flat[: MAX_MESSAGE - 3] + "..."


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is one line (no usage block) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {one_line(message)} (see --help)", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """Return the top-level parser with every subcommand attached."""
    parser = _Parser(
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


def _warn_in_one_line(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    text = one_line(str(message)).removeprefix("pyramid-widget: ")
    print(f"pyramid-widget: warning: {text}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 done, 2 bad input, 130 interrupted)."""
    with warnings.catch_warnings():
        warnings.showwarning = _warn_in_one_line
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as done:  # --help (0) or a bad argument (2, already printed)
            return done.code if isinstance(done.code, int) else 2
        try:
            status: int = args._run(args)
        except (ValueError, OSError) as exc:
            problem = str(exc) or type(exc).__name__
        except RecursionError:
            problem = "the input is nested too deeply to read"
        except MemoryError:
            problem = "the input is too large to read into memory"
        except KeyboardInterrupt:
            print("pyramid-widget: interrupted", file=sys.stderr)
            return 130
        else:
            return status
    print(f"pyramid-widget: error: {one_line(problem)}", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
