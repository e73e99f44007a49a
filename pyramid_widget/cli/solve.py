"""``pyramid-widget solve``: is a deal winnable, and how? One deal or a batch.

One deal (``--deal "AS 2H ..."`` or ``--number 7``) prints the verdict and a numbered
winning line; a batch (``--numbers 0-199`` or ``--file deals.txt``) prints one JSON line per
deal (deal, number, rules, verdict, moves, nodes, seconds, shortest) to stdout, with a
progress bar on stderr, and runs ``--jobs N`` deals at once. ``--json`` gives a single deal
as a JSON line too. Bad input raises ``ValueError``; the main command line prints it as one
line and exits with status 2.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> run(parser.parse_args(["--rules", "hard", "--number", "7"]))
hard, deal 7: unwinnable (proved; ... positions searched in ... s)
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HELP = "Solve deals exactly: is a deal winnable under a rule set, and how (one deal or a batch)."

Job = tuple[str, "int | str", bool, "int | None", "float | None"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Attach the ``solve`` options to ``parser``."""
    parser.add_argument(
        "--rules",
        default="medium",
        help="preset name (easy, medium, hard, relaxed, apophis, cheops, egypt) or a JSON "
        "file of a rule set (RuleSet.to_dict); default medium",
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--deal", help='a deal: 52 cards like "AS 2H TD ...", pyramid first')
    which.add_argument("--number", type=_number, help="a deal number")
    which.add_argument("--numbers", help="a batch of deal numbers, like 0-199 (inclusive)")
    which.add_argument("--file", help="a batch: a file with one deal string or number a line")
    parser.add_argument("--shortest", action="store_true", help="find a line of fewest moves")
    parser.add_argument("--jobs", type=_positive, default=1, help="deals solved at once")
    parser.add_argument("--max-seconds", type=float, default=None, help="time limit a deal")
    parser.add_argument("--max-nodes", type=_positive, default=None, help="node limit a deal")
    parser.add_argument("--json", action="store_true", help="print a single deal as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run the ``solve`` subcommand; return the exit status (0)."""
    from pyramid_widget.engine.rules import get_rules

    rules = _load_rules(args.rules)
    get_rules(rules)
    if args.max_seconds is not None and args.max_seconds < 0:
        raise ValueError(f"--max-seconds must be at least 0, got {args.max_seconds:g}")
    limits = (args.shortest, args.max_nodes, args.max_seconds)
    if args.deal is not None or args.number is not None:
        deal: int | str = args.number if args.number is not None else args.deal
        record = solve_one((rules, deal, *limits))
        print(json.dumps(record) if args.json else describe(record))
        return 0
    deals = list(_batch(args))
    jobs = [(rules, deal, *limits) for deal in deals]
    for record in _run_batch(jobs, args.jobs, not args.no_progress):
        print(json.dumps(record), flush=True)
    return 0


def solve_one(job: tuple[Any, int | str, bool, int | None, float | None]) -> dict[str, Any]:
    """Solve one deal and return its JSON record (module level, so worker processes can
    run it)."""
    from pyramid_widget.engine.deals import coerce_deal, format_deal
    from pyramid_widget.engine.rules import get_rules
    from pyramid_widget.solver import solve_deal

    rules, deal, shortest, max_nodes, max_seconds = job
    rule_set = get_rules(rules)
    cards, number = coerce_deal(deal)
    solution = solve_deal(
        rule_set, cards, shortest=shortest, max_nodes=max_nodes, max_seconds=max_seconds
    )
    return {
        "deal": format_deal(cards),
        "number": number,
        "rules": rule_set.name,
        "verdict": solution.verdict.value,
        "moves": [str(m) for m in solution.moves],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 4),
        "shortest": solution.shortest,
    }


def describe(record: dict[str, Any]) -> str:
    """A readable report of one record: verdict, then the numbered line (draws grouped).

    >>> print(describe({"rules": "hard", "number": 1, "verdict": "winnable", "nodes": 9,
    ...     "seconds": 0.01, "shortest": False, "moves": ["draw", "draw", "5H+8C", "KD"]}))
    hard, deal 1: winnable in 4 moves (9 positions searched in 0.01 s)
      1. draw x2
      2. 5H+8C
      3. KD
    """
    name = f"deal {record['number']}" if record.get("number") is not None else "deal"
    figures = f"{record['nodes']} positions searched in {record['seconds']:g} s"
    verdict = record["verdict"]
    if verdict == "unwinnable":
        return f"{record['rules']}, {name}: unwinnable (proved; {figures})"
    if verdict == "unknown":
        return f"{record['rules']}, {name}: unknown (the limit ran out; {figures})"
    fewest = ", the fewest possible" if record["shortest"] else ""
    lines = [
        f"{record['rules']}, {name}: winnable in {len(record['moves'])} moves{fewest} ({figures})"
    ]
    lines += [f"  {i}. {step}" for i, step in enumerate(_grouped(record["moves"]), 1)]
    return "\n".join(lines)


def _grouped(moves: Sequence[str]) -> Iterator[str]:
    """Moves with runs of draws folded into ``draw xN``."""
    i = 0
    while i < len(moves):
        j = i
        while moves[i] == "draw" and j + 1 < len(moves) and moves[j + 1] == "draw":
            j += 1
        yield moves[i] if j == i else f"draw x{j - i + 1}"
        i = j + 1


def _run_batch(jobs: list[Job], workers: int, progress: bool) -> Iterator[dict[str, Any]]:
    """Solve ``jobs`` in order, on ``workers`` processes, with a tqdm bar on stderr."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    bar = tqdm(total=len(jobs), file=sys.stderr, disable=not progress, unit="deal")
    try:
        if workers == 1 or len(jobs) <= 1:
            for job in jobs:
                yield solve_one(job)
                bar.update()
            return
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for record in pool.map(solve_one, jobs):
                yield record
                bar.update()
    finally:
        bar.close()


def _batch(args: argparse.Namespace) -> Iterator[int | str]:
    if args.numbers is not None:
        yield from parse_range(args.numbers)
        return
    path = Path(args.file)
    if not path.is_file():
        raise ValueError(f"no such deals file: {args.file}")
    for index, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if text.isdigit():
            yield int(text)
        elif len(text.split()) == 52:
            yield text
        else:
            raise ValueError(f"{args.file}, line {index}: not a deal number or a 52-card deal")


def parse_range(text: str) -> range:
    """Parse ``"0-199"`` (inclusive), ``"0..199"`` or a single number.

    >>> parse_range("3-5"), parse_range("7")
    (range(3, 6), range(7, 8))
    >>> parse_range("9-2")
    Traceback (most recent call last):
    ...
    ValueError: bad range '9-2': the first number must not exceed the last
    """
    parts = text.replace("..", "-").split("-")
    if len(parts) not in (1, 2) or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"bad range {text!r}: use FIRST-LAST with whole numbers, like 0-199")
    first, last = int(parts[0]), int(parts[-1])
    if first > last:
        raise ValueError(f"bad range {text!r}: the first number must not exceed the last")
    return range(first, last + 1)


def _load_rules(value: str) -> Any:
    """A preset name as is, or the rule set read from a JSON file."""
    from pyramid_widget.engine.rules import RuleSet

    if value.endswith(".json"):
        path = Path(value)
        if not path.is_file():
            raise ValueError(f"no such rules file: {value}")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{value} is not valid JSON: {exc}") from None
        return RuleSet.from_dict(data)
    return value


def _number(text: str) -> int:
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"a deal number is a whole number, got {text!r}")
    return int(text)


def _positive(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)
