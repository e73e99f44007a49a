"""Statistical agreement runs of the solver, too large for the test suite (issue 13).

Run before a solver change lands: ``.venv/bin/python benchmarks/bench_agreement.py
[--deals 200] [--any-shape 300] [--small 60] [--midgame 300] [--along 200] [--seed 1]
[--presets medium egypt ...]`` (0 skips a section). Seeded, so two runs print
the same counts (node budgets, not time limits, decide what is settled).

1. Decision mode against shortest mode alone on ``--deals`` random numbered deals per
   preset (:func:`tests.solver.test_agreement.compare`): deals tried, settled by both
   modes, winnable among them, disagreements. Settled counts of a healthy solver, 200
   deals: 200 for hard and relaxed, 176 for medium, 179 for easy and 180 for cheops (since
   rule ``rank-order``, 2026-12-05, and for cheops ``bound-early-partner`` the same day;
   197, 168, 175 and about 70 before them), about 175 for
   apophis, 100-120 for egypt; fewer means a search got weaker, any disagreement is a bug.
2. The solver against the plain exhaustive search on ``--any-shape`` random positions of
   any shape per rule set (:func:`tests.solver.test_any_shape.agreement`): cases, winnable,
   failures.
3. The same on ``--small`` deal-shaped small positions per rule set
   (:func:`tests.solver.test_exhaustive.small_position`, seeds from 1000; shortest mode on
   every third), the suite's sample of 40 per rule set made larger.
4. Decision mode against shortest mode alone in mid game: ``--midgame`` deals (0, 1, ...)
   per rule set of :data:`tests.solver.test_agreement.MIDGAME_RULES`, eight positions
   each, 5-40 random moves in (:func:`tests.solver.test_agreement.midgame`): positions,
   settled, winnable, disagreements. This is where a table entry that ignores the stock
   position shows: before ``a8452bc`` the decision dive called 6 of 16,799 ``medium`` and
   8 of 20,799 ``hard/2`` positions of these walks lost though they are won (``--seed 7``,
   deals 0-2099 and 0-2599; 0 of the same positions since), so the default, 2,400
   positions per rule set, would most likely have caught it; whole deals never did.
5. Decision mode against the engine's exhaustive search (engine moves, no pruning) on
   positions along winning lines: ``--along`` deals (0, 1, ...) per preset of
   :data:`tests.solver.test_agreement.ALONG_RULES` (every preset but ``pharaohs``, the
   family's general solver among them) that ``--presets`` names, four positions of each won
   deal, a random number of its decision line's moves (for two decks from the last 30% of
   it) and 0-4 random moves in (:func:`tests.solver.test_agreement.along`): positions,
   settled, winnable, disagreements. Random walks from the deal leave nearly every position
   lost; these are mostly won, which is where a search that calls a won position lost shows.

Exit status 1 when anything disagrees.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyramid_widget import PRESETS, Game, RuleSet
from tests.solver.test_agreement import (
    ALONG_RULES,
    MIDGAME_RULES,
    Agreement,
    along,
    compare,
    compare_exhaustive,
    compare_game,
    deals,
    midgame,
)
from tests.solver.test_any_shape import RULES, agreement
from tests.solver.test_exhaustive import RULES as SMALL_RULES
from tests.solver.test_exhaustive import _check, small_position


def _report(name: str, name_width: int, tally: Agreement, count_width: int, started: float) -> int:
    """Print a decision-vs-shortest table row (the time since ``started``) and its
    disagreements; return how many there were."""
    print(
        f"| {name:<{name_width}} | {tally.tried:>{count_width}} | {tally.settled:>7} | "
        f"{tally.winnable:>8} | {len(tally.disagreements):>8} | "
        f"{time.perf_counter() - started:>7.1f} |",
        flush=True,
    )
    for line in tally.disagreements:
        print("   ", line)
    return len(tally.disagreements)


def _positions(
    names: list[str],
    width: int,
    rules: Mapping[str, RuleSet],
    make: Callable[[RuleSet, int, int, random.Random], list[Game]],
    walks: int,
    check: Callable[[str, Game, Agreement], None],
    count: int,
    seed: int,
) -> int:
    """The rows of a section on positions inside deals (mid game, along winning lines):
    per rule set, ``walks`` positions of each of deals 0 to ``count - 1``, made by ``make``
    from a generator seeded with ``seed`` and the name, each checked by ``check``; return
    the disagreements."""
    bad = 0
    for name in names:
        started = time.perf_counter()
        rng = random.Random(f"{seed}-{name}")
        tally = Agreement()
        for number in range(count):
            for game in make(rules[name], number, walks, rng):
                check(f"{name} deal {number}: {game.to_json()}", game, tally)
        bad += _report(name, width, tally, 9, started)
    return bad


def main(argv: list[str] | None = None) -> int:
    """Run the agreement checks and print one table each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="numbered deals per preset")
    parser.add_argument("--any-shape", type=int, default=300, help="positions per rule set")
    parser.add_argument("--small", type=int, default=60, help="deal-shaped positions per rule set")
    parser.add_argument("--presets", nargs="+", default=sorted(PRESETS))
    parser.add_argument(
        "--midgame", type=int, default=300, help="deals per rule set, eight positions each"
    )
    parser.add_argument(
        "--along", type=int, default=200, help="deals per preset, four positions of each won one"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="seed of the any-shape, mid-game and along positions (the suite's any-shape: 20260514)",
    )
    args = parser.parse_args(argv)
    bad = 0
    if args.deals:
        print(f"decision vs shortest mode, {args.deals} deals per preset")
        print("| preset   | tried | settled | winnable | disagree | seconds |")
        print("|----------|------:|--------:|---------:|---------:|--------:|")
        for preset in args.presets:
            started = time.perf_counter()
            tally = Agreement()
            for number in deals(preset, args.deals):
                compare(preset, number, tally)
            bad += _report(preset, 8, tally, 5, started)
    if args.any_shape:
        print(f"\nsolver vs plain search, {args.any_shape} any-shape positions per rule set")
        print("| rule set       | cases | winnable | failures | seconds |")
        print("|----------------|------:|---------:|---------:|--------:|")
        cases = failures = 0
        for name in sorted(RULES):
            started = time.perf_counter()
            result = agreement(name, args.any_shape, args.seed)
            cases += result.cases
            failures += len(result.failures)
            print(
                f"| {name:<14} | {result.cases:>5} | {result.winnable:>8} | "
                f"{len(result.failures):>8} | {time.perf_counter() - started:>7.1f} |",
                flush=True,
            )
            for line in result.failures:
                print("   ", line)
        print(f"any shape: {cases} cases, {failures} failures")
        bad += failures
    if args.small:
        print(f"\nsolver vs plain search, {args.small} deal-shaped small positions per rule set")
        print("| rule set       | cases | failures |")
        print("|----------------|------:|---------:|")
        failures = 0
        for name in sorted(SMALL_RULES):
            wrong = 0
            for seed in range(1000, 1000 + args.small):
                try:
                    _check(small_position(SMALL_RULES[name], seed), shortest=seed % 3 == 0)
                except AssertionError as problem:
                    wrong += 1
                    print("   ", name, seed, problem)
            failures += wrong
            print(f"| {name:<14} | {args.small:>5} | {wrong:>8} |", flush=True)
        print(f"deal-shaped: {args.small * len(SMALL_RULES)} cases, {failures} failures")
        bad += failures
    if args.midgame:
        print(f"\ndecision vs shortest mode in mid game, {args.midgame} deals per rule set")
        print("| rule set   | positions | settled | winnable | disagree | seconds |")
        print("|------------|----------:|--------:|---------:|---------:|--------:|")
        bad += _positions(
            sorted(MIDGAME_RULES),
            10,
            MIDGAME_RULES,
            midgame,
            8,
            compare_game,
            args.midgame,
            args.seed,
        )
    if args.along:
        print(f"\ndecision vs exhaustive search along winning lines, {args.along} deals per preset")
        print("| preset          | positions | settled | winnable | disagree | seconds |")
        print("|-----------------|----------:|--------:|---------:|---------:|--------:|")
        names = [name for name in ALONG_RULES if name in args.presets]
        bad += _positions(names, 15, PRESETS, along, 4, compare_exhaustive, args.along, args.seed)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
