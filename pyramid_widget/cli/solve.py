"""``pyramid-widget solve``: is a deal winnable, and how? One deal or a batch.

One deal (``--deal "AS 2H ..."`` or ``--number 7``) prints the verdict and a numbered
winning line; a batch (``--numbers 0-199`` or ``--file deals.txt``) prints one JSON line per
deal (deal, number, rules, verdict, moves, nodes, seconds, shortest) to stdout, with a
progress bar on stderr, and runs ``--jobs N`` deals at once. ``--json`` gives a single deal
as a JSON line too. Bad input raises ``ValueError``; the main command line prints it as one
line and exits with status 2.

A batch streams: deals are read, solved and printed one at a time (at most a few per worker
in flight), so the first line comes at once and memory stays flat however long the batch.
Everything is checked before the first deal is solved: a range past the largest deal number
or longer than :data:`~pyramid_widget.cli.arguments.MAX_BATCH` deals, or a deals file with a
bad line, is refused with nothing printed.

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
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pyramid_widget.cli.arguments import (
    MAX_BATCH,
    MAX_NODES,
    MAX_RULES_FILE,
    bounded,
    deal_number,
    jobs,
    seconds,
    shown,
    whole_number,
)
from pyramid_widget.engine.deals import MAX_DEAL_NUMBER
from pyramid_widget.engine.describe import counted

HELP = "Solve deals exactly: is a deal winnable under a rule set, and how (one deal or a batch)."

Job = tuple[Any, "int | str", bool, "int | None", "float | None"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Attach the ``solve`` options to ``parser``."""
    parser.add_argument(
        "--rules",
        default="medium",
        help="preset name (pyramid-widget rules lists them) or a JSON file of a rule set "
        "(RuleSet.to_dict); default medium",
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--deal", help='a deal: 52 cards like "AS 2H TD ...", pyramid first (104 for two decks)'
    )
    which.add_argument("--number", type=deal_number, help="a deal number")
    which.add_argument("--numbers", help="a batch of deal numbers, like 0-199 (inclusive)")
    which.add_argument("--file", help="a batch: a file with one deal string or number a line")
    parser.add_argument("--shortest", action="store_true", help="find a line of fewest moves")
    parser.add_argument("--jobs", type=jobs, default=1, help="deals solved at once")
    parser.add_argument("--max-seconds", type=seconds, default=None, help="time limit a deal")
    parser.add_argument(
        "--max-nodes", type=bounded(1, MAX_NODES), default=None, help="node limit a deal"
    )
    parser.add_argument("--json", action="store_true", help="print a single deal as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run the ``solve`` subcommand; return the exit status (0)."""
    from pyramid_widget.engine.rules import get_rules

    rules = get_rules(_load_rules(args.rules))
    limits = (args.shortest, args.max_nodes, args.max_seconds)
    if args.deal is not None or args.number is not None:
        deal: int | str = args.number if args.number is not None else args.deal
        record = solve_one((rules, deal, *limits))
        print(json.dumps(record) if args.json else describe(record))
        return 0
    if args.numbers is not None:
        numbers = parse_range(args.numbers)
        deals: Iterable[int | str] = numbers
        total = len(numbers)
    else:
        path = _deals_file(args.file)
        total = sum(1 for _ in _read_deals(path))  # checks every line before solving any
        deals = _read_deals(path)
    batch = ((rules, deal, *limits) for deal in deals)
    for record in _run_batch(batch, total, args.jobs, not args.no_progress):
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
    cards, number = coerce_deal(deal, rule_set.decks)
    solution = solve_deal(
        rule_set, cards, shortest=shortest, max_nodes=max_nodes, max_seconds=max_seconds
    )
    record = {
        "deal": format_deal(cards),
        "number": number,
        "rules": rule_set.name,
        "verdict": solution.verdict.value,
        "moves": [str(m) for m in solution.moves],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 4),
        "shortest": solution.shortest,
    }
    if getattr(solution, "knows_hidden", False):  # face-down cards: the solver read them
        record["knows_hidden"] = True
    return record


def describe(record: dict[str, Any]) -> str:
    """A readable report of one record: verdict, then the numbered line (draws grouped).
    Where the game deals cards face down the report says the solver read them.

    >>> print(describe({"rules": "hard", "number": 1, "verdict": "winnable", "nodes": 9,
    ...     "seconds": 0.01, "shortest": False, "moves": ["draw", "draw", "5H+8C", "KD"]}))
    hard, deal 1: winnable in 4 moves (9 positions searched in 0.01 s)
      1. draw x2
      2. 5H+8C
      3. KD
    >>> print(describe({"rules": "two_pyramids", "number": 115, "verdict": "unwinnable",
    ...     "nodes": 1, "seconds": 0.02}))
    two_pyramids, deal 115: unwinnable (proved; 1 position searched in 0.02 s)
    """
    name = f"deal {record['number']}" if record.get("number") is not None else "deal"
    nodes = record["nodes"]
    figures = f"{counted(nodes, 'position')} searched in {record['seconds']:g} s"
    if record.get("knows_hidden"):
        figures += "; the solver knows every card, the face-down ones too"
    verdict = record["verdict"]
    if verdict == "unwinnable":
        if record.get("knows_hidden"):
            figures += ": even a player who knew every card could not win"
        return f"{record['rules']}, {name}: unwinnable (proved; {figures})"
    if verdict == "unknown":
        return f"{record['rules']}, {name}: unknown (the limit ran out; {figures})"
    fewest = ", the fewest possible" if record["shortest"] else ""
    if record.get("knows_hidden"):
        figures += ": a player who knew every card could win"
    moves = counted(len(record["moves"]), "move")
    lines = [f"{record['rules']}, {name}: winnable in {moves}{fewest} ({figures})"]
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


def _run_batch(
    jobs: Iterable[Job], total: int, workers: int, progress: bool
) -> Iterator[dict[str, Any]]:
    """Solve ``jobs`` in order, on ``workers`` processes, with a tqdm bar on stderr. Jobs are
    taken lazily, at most ``4 * workers`` in flight, so a long batch never piles up."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    bar = tqdm(total=total, file=sys.stderr, disable=not progress, unit="deal")
    try:
        if workers == 1 or total <= 1:
            for job in jobs:
                yield solve_one(job)
                bar.update()
            return
        with ProcessPoolExecutor(max_workers=min(workers, total)) as pool:
            pending: deque[Future[dict[str, Any]]] = deque()
            for job in jobs:
                pending.append(pool.submit(solve_one, job))
                if len(pending) >= 4 * workers:
                    yield pending.popleft().result()
                    bar.update()
            while pending:
                yield pending.popleft().result()
                bar.update()
    finally:
        bar.close()


def _deals_file(name: str) -> Path:
    """The deals file ``name``, if it is a readable regular file."""
    path = Path(name)
    if path.is_dir():
        raise ValueError(f"the deals file {name} is a directory")
    if not path.is_file():
        raise ValueError(f"no such deals file: {name}")
    return path


def _read_deals(path: Path) -> Iterator[int | str]:
    """The deals of a deals file, one a line (``#`` starts a comment), read lazily."""
    from pyramid_widget.engine.deals import coerce_deal

    try:
        with path.open(encoding="utf-8") as handle:
            for index, line in enumerate(handle, 1):
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                number = whole_number(text)
                if number is not None and number <= MAX_DEAL_NUMBER:
                    yield number
                    continue
                if number is None and len(text.split()) == 52:
                    try:
                        coerce_deal(text)
                    except ValueError as exc:
                        raise ValueError(f"{path}, line {index}: {exc}") from None
                    yield text
                    continue
                raise ValueError(
                    f"{path}, line {index}: not a deal number (0 to {MAX_DEAL_NUMBER}) or a "
                    f"52-card deal: {shown(text)}"
                )
    except UnicodeDecodeError:
        raise ValueError(f"the deals file {path} is not UTF-8 text") from None
    except PermissionError:
        raise ValueError(f"the deals file {path} cannot be read (permission denied)") from None


def parse_range(text: str) -> range:
    """Parse ``"0-199"`` (inclusive), ``"0..199"`` or a single number.

    >>> parse_range("3-5"), parse_range("7")
    (range(3, 6), range(7, 8))
    >>> parse_range("9-2")
    Traceback (most recent call last):
    ...
    ValueError: bad range '9-2': the first number must not exceed the last
    >>> parse_range("0-100000000000")
    Traceback (most recent call last):
    ...
    ValueError: bad range '0-100000000000': a batch is at most 10,000,000 deals; split it into several runs
    """
    parts = [whole_number(p) for p in text.replace("..", "-").split("-")]
    if len(parts) not in (1, 2) or None in parts:
        raise ValueError(f"bad range {shown(text)}: use FIRST-LAST with whole numbers, like 0-199")
    first, last = int(parts[0] or 0), int(parts[-1] or 0)
    if first > last:
        raise ValueError(f"bad range {shown(text)}: the first number must not exceed the last")
    if last > MAX_DEAL_NUMBER:
        raise ValueError(f"bad range {shown(text)}: the largest deal number is {MAX_DEAL_NUMBER}")
    if last - first + 1 > MAX_BATCH:
        raise ValueError(
            f"bad range {shown(text)}: a batch is at most {MAX_BATCH:,} deals; split it into "
            "several runs"
        )
    return range(first, last + 1)


def _load_rules(value: str) -> Any:
    """A preset name as is, or the rule set read from a JSON file (at most
    :data:`~pyramid_widget.cli.arguments.MAX_RULES_FILE` bytes of one JSON object)."""
    from pyramid_widget.engine.rules import RuleSet

    if not value.endswith(".json"):
        return value
    path = Path(value)
    if path.is_dir():
        raise ValueError(f"the rules file {value} is a directory")
    if not path.is_file():
        raise ValueError(f"no such rules file: {value}")
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_RULES_FILE + 1)
    except PermissionError:
        raise ValueError(f"the rules file {value} cannot be read (permission denied)") from None
    if len(raw) > MAX_RULES_FILE:
        raise ValueError(f"the rules file {value} is over {MAX_RULES_FILE:,} bytes: not a rule set")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"the rules file {value} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{value} is not valid JSON: {exc}") from None
    except RecursionError:
        raise ValueError(f"{value} is nested too deeply to be a rule set") from None
    if not isinstance(data, dict):
        raise ValueError(f"{value} must hold a JSON object (a rule set), got {type(data).__name__}")
    try:
        return RuleSet.from_dict(data)
    except (TypeError, KeyError, AttributeError, RecursionError) as exc:
        raise ValueError(f"{value} is not a rule set: {exc}") from None
