"""How winnable is each game? The win rate of ``greedy`` and of perfect play for every preset.

For every preset of the family (the seven of docs/RULES.md and the fourteen of VARIANTS.md),
and for eight variants of classic Pyramid on the classic layout (overlap discards off/on x
one pass/unlimited passes x clear the pyramid/clear all 52), this plays the numbered deals
0..N-1 with ``greedy`` (the fair rule of thumb) and decides them with ``perfect`` (the exact
solver, which knows every card: an upper bound for any player), through
:func:`~pyramid_widget.lab.experiments.run_experiment` with ``jobs=1``. Every win rate comes
with its 99% Wilson interval over the decided deals; deals the solver could not decide in
``--max-seconds`` are counted apart as unknown.

The run is resumable: each finished chunk of deals is appended to a JSON-lines cache
(``artifacts/bench_family/rows.jsonl``), and a new run plays only the deals a cell lacks.
Run it per preset and a few thousand deals at a time if need be::

    .venv/bin/python benchmarks/bench_family.py --strategy greedy --deals 10000
    .venv/bin/python benchmarks/bench_family.py --strategy perfect --deals 10000 --rules giza
    .venv/bin/python benchmarks/bench_family.py --table          # the markdown table so far

A deal the solver could not decide within ``--max-seconds`` is cached as unknown;
``--retry-unknown`` plays those again (with a larger ``--max-seconds``, or after the solver
got faster), and a deal's newest row is the one counted.

One cell can run on two cores: ``--first 5000`` plays deals 5000..N-1, each process with its
own ``--cache``; append one cache to the other afterwards (a deal's last row counts).

Two-deck presets come last. The table states each rule set exactly (draw count and waste
piles, passes, whether the stock top is available, what must be cleared, the extras).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pyramid_widget.engine.rules import PRESETS, RuleSet, get_rules
from pyramid_widget.lab.experiments import run_experiment
from pyramid_widget.lab.stats_ci import wilson

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "artifacts" / "bench_family" / "rows.jsonl"
CONFIDENCE = 0.99
STRATEGIES = ("greedy", "perfect")


def classic_variants() -> list[RuleSet]:
    """The eight classic-layout rule sets: overlap discards off/on x one pass/unlimited passes
    (with the stall rule, so that a hopeless game ends) x pyramid/all-52 win, all built from
    ``medium`` (draw one onto one waste, the stock top not available).

    >>> [r.name for r in classic_variants()][:2]
    ['classic overlap=off passes=1 win=pyramid', 'classic overlap=off passes=1 win=all']
    """
    base = get_rules("medium")
    out = []
    for overlap in (False, True):
        for passes in (1, None):
            for win in ("pyramid", "all"):
                name = (
                    f"classic overlap={'on' if overlap else 'off'} "
                    f"passes={'unlimited' if passes is None else passes} win={win}"
                )
                out.append(
                    base.replace(
                        name=name,
                        overlap_discards=overlap,
                        passes=passes,
                        stall_rule=passes is None,
                        win=win,
                        description=f"medium with {name.removeprefix('classic ')}",
                    )
                )
    return out


def all_rule_sets() -> list[RuleSet]:
    """The one-deck presets, the classic variants, then the two-deck presets (the slowest to
    solve, so a run with a time budget reaches them last)."""
    one = [r for r in PRESETS.values() if r.decks == 1]
    two = [r for r in PRESETS.values() if r.decks != 1]
    return [*one, *classic_variants(), *two]


def stated(rules: RuleSet) -> str:
    """The rule set in one line: tableau, decks, pairing, stock and waste, passes, stock top,
    what must be cleared, and the extras.

    >>> stated(get_rules("medium"))
    'pyramid 28, 1 deck, sum13, Kings alone; draw 1 onto 1 waste; 3 passes; stock top not available; clear the pyramid'
    """
    parts = [
        f"{rules.layout.name} {rules.tableau_size}"
        + (f" ({len(rules.layout.face_down)} face down)" if rules.has_hidden else ""),
        f"{rules.decks} deck{'s' if rules.decks > 1 else ''}",
        rules.pairing_table.name + (", Kings alone" if rules.kings_alone else ""),
    ]
    head = ", ".join(parts)
    if rules.reserve_piles:
        head += f"; reserve {rules.reserve_piles} x {rules.reserve_depth}"
    if rules.stock_size:
        piles = rules.waste_piles
        stock = f"draw {rules.draw_count} onto {piles} waste{'s' if piles > 1 else ''}"
        if rules.passes is None:
            passes = "unlimited passes"
        else:
            passes = f"{rules.passes} pass" + ("es" if rules.passes != 1 else "")
        if rules.stall_rule:
            passes += " (stall rule)"
        top = "stock top available" if rules.stock_top_available else "stock top not available"
        body = [stock, passes, top]
    else:
        body = ["no stock"]
    body.append("clear all cards" if rules.win == "all" else "clear the pyramid")
    extras = [
        name
        for name, on in (
            ("overlap discards", rules.overlap_discards),
            ("waste pair", rules.waste_pair),
            ("by-pile redeal", rules.redeal_order == "by-pile"),
            ("waste tops pair", "waste+waste" in rules.pair_zones),
            (f"{rules.cells} free cell", bool(rules.cells)),
        )
        if on
    ]
    return "; ".join([head, *body, *extras])


# -- the cache -------------------------------------------------------------------------------


def load(path: Path) -> dict[tuple[str, str], dict[int, dict[str, Any]]]:
    """The cached rows by (rules name, strategy), then deal number (a torn last line is
    skipped: the run was stopped while writing it)."""
    cells: dict[tuple[str, str], dict[int, dict[str, Any]]] = {}
    if not path.exists():
        return cells
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            cells.setdefault((row["rules"], row["strategy"]), {})[row["deal"]] = row
    return cells


def append(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Append rows to the cache, flushed to disk (after a line torn by a stopped run, a new
    line is started first, so no row is glued to it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torn = False
    if path.exists() and path.stat().st_size:
        with path.open("rb") as tail:
            tail.seek(-1, os.SEEK_END)
            torn = tail.read(1) != b"\n"
    with path.open("a", encoding="utf-8") as handle:
        if torn:
            handle.write("\n")
        for row in rows:
            handle.write(json.dumps(row) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def run_cell(
    rules: RuleSet,
    strategy: str,
    deals: int,
    path: Path,
    *,
    chunk: int,
    max_seconds: float,
    budget: float | None,
    retry_unknown: bool = False,
    first: int = 0,
) -> int:
    """Play the deals first..deals-1 the cache lacks for this cell, ``chunk`` at a time; stop
    early once ``budget`` seconds are spent. With ``retry_unknown``, deals whose row says
    unknown (the solver's limit ran out) are played again, and their new rows replace the
    old (:func:`load` keeps a deal's last row). Returns the deals the cell now holds (in
    the cache, whatever their range). ``first`` lets two processes share a cell: each
    plays its own range into its own cache, and the caches are joined by appending one to
    the other (``cat b.jsonl >> a.jsonl``)."""
    cached = load(path).get((rules.name, strategy), {})
    again = {d for d, row in cached.items() if retry_unknown and row["result"] == "unknown"}
    done = set(cached) - again
    todo = [d for d in range(first, deals) if d not in done]
    start = time.monotonic()
    for i in range(0, len(todo), chunk):
        if budget is not None and time.monotonic() - start > budget:
            break
        part = todo[i : i + chunk]
        results = run_experiment(
            rules, strategy, None, deals=part, jobs=1, progress=False, max_seconds=max_seconds
        )
        rows = [
            {
                "rules": rules.name,
                "strategy": strategy,
                "deal": r.deal,
                "result": r.result,
                "seconds": round(r.seconds, 4),
            }
            for r in results
        ]
        append(path, rows)
        done.update(part)
        if results.interrupted:
            raise KeyboardInterrupt
        print(
            f"{rules.name} / {strategy}: {min(i + chunk, len(todo))} of the {len(todo)} deals "
            f"to play, {len(done)} in the cell ({time.monotonic() - start:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    return len(done)


# -- the table -------------------------------------------------------------------------------


def cell_text(rows: dict[int, dict[str, Any]] | None) -> str:
    """``win% [low, high] (n)`` of one cell: the rate over the decided deals with its
    Wilson interval. With unknown deals, also the interval over *all* the deals whatever
    the unknown ones are: from the lower end with every unknown deal lost to the upper end
    with every one won (a rate over the decided deals alone leans toward the outcome the
    solver settles faster).

    >>> rows = {d: {"result": r} for d, r in enumerate(["won"] * 6 + ["lost"] * 2 + ["unknown"] * 2)}
    >>> cell_text(rows)
    '75.0% [32.4%, 94.9%] (n=8; 2 unknown: [24.8%, 96.0%] over all 10)'
    """
    if not rows:
        return "not run"
    won = sum(r["result"] == "won" for r in rows.values())
    lost = sum(r["result"] == "lost" for r in rows.values())
    unknown = len(rows) - won - lost
    decided = won + lost
    every = len(rows)
    bracket = ""
    if unknown:
        floor = wilson(won, every, CONFIDENCE)[0]
        ceiling = wilson(won + unknown, every, CONFIDENCE)[1]
        bracket = f"{unknown:,} unknown: [{floor:.1%}, {ceiling:.1%}] over all {every:,}"
    if not decided:
        return f"— ({bracket})"
    low, high = wilson(won, decided, CONFIDENCE)
    text = f"{won / decided:.1%} [{low:.1%}, {high:.1%}] (n={decided:,}"
    return text + (f"; {bracket})" if unknown else ")")


def table(rule_sets: Sequence[RuleSet], path: Path, target: int) -> str:
    """The markdown table of every cell in the cache, and a note of the cells short of
    ``target`` deals."""
    cells = load(path)
    lines = [
        "| game | rules | greedy (99% CI) | perfect play (99% CI) |",
        "|---|---|---|---|",
    ]
    short = []
    for rules in rule_sets:
        row = [cell_text(cells.get((rules.name, s))) for s in STRATEGIES]
        lines.append(f"| `{rules.name}` | {stated(rules)} | {row[0]} | {row[1]} |")
        for s in STRATEGIES:
            have = len(cells.get((rules.name, s), {}))
            if have < target:
                short.append(f"{rules.name} / {s}: {have:,}")
    if short:
        lines.append("")
        lines.append(f"Cells short of {target:,} deals: " + "; ".join(short) + ".")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark (or print the table); return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="+", help="only these rule sets (preset or variant names)")
    parser.add_argument("--presets-only", action="store_true", help="skip the classic variants")
    parser.add_argument("--variants-only", action="store_true", help="only the classic variants")
    parser.add_argument("--strategy", nargs="+", default=list(STRATEGIES), choices=STRATEGIES)
    parser.add_argument("--deals", type=int, default=10_000, help="deals 0..N-1 (default 10,000)")
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="start at this deal (to split a cell between processes)",
    )
    parser.add_argument("--chunk", type=int, default=500, help="deals between cache writes")
    parser.add_argument("--max-seconds", type=float, default=10.0, help="solver limit a deal")
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds to spend on one cell, then move on"
    )
    parser.add_argument("--cache", type=Path, default=CACHE, help="the JSON-lines cache")
    parser.add_argument(
        "--retry-unknown",
        action="store_true",
        help="play again the deals the cache has as unknown (say, after the solver got faster)",
    )
    parser.add_argument("--table", action="store_true", help="only print the table")
    args = parser.parse_args(argv)
    rule_sets = all_rule_sets()
    if args.presets_only:
        rule_sets = [r for r in rule_sets if r.name in PRESETS]
    if args.variants_only:
        rule_sets = [r for r in rule_sets if r.name not in PRESETS]
    if args.rules:
        known = {r.name: r for r in all_rule_sets()}
        missing = [name for name in args.rules if name not in known]
        if missing:
            parser.error(
                f"unknown rule set(s) {', '.join(missing)}; choose from {', '.join(known)}"
            )
        rule_sets = [known[name] for name in args.rules]
    if not args.table:
        load_before = os.getloadavg()[0]
        try:
            for strategy in args.strategy:
                for rules in rule_sets:
                    run_cell(
                        rules,
                        strategy,
                        args.deals,
                        args.cache,
                        chunk=args.chunk,
                        max_seconds=args.max_seconds,
                        budget=args.budget,
                        retry_unknown=args.retry_unknown,
                        first=args.first,
                    )
        except KeyboardInterrupt:
            print("interrupted: the finished chunks are in the cache", file=sys.stderr)
        print(
            f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after",
            file=sys.stderr,
        )
    print(table(rule_sets, args.cache, args.deals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
