"""Golden test of issue 18: the solver gives the seven original presets exactly what it gave
before the family engine (commit 5b941a5): the same verdict, node count, line length and line.

``golden_old_presets.json`` was recorded from a clean export of commit 5b941a5 (deals 0-199,
per deal ``[verdict, nodes, moves, sha1 of the line's text]``); this test checks all 200 deals
of each preset in every tier (about 25 CPU s in all: checking deals 0-14 only let nine
``medium`` rows drift from 2026-12-05 to 2026-12-07 unseen), as
``benchmarks/bench_family_solver.py --golden`` does in one process.
``golden_amendments.json`` holds the rows changed on purpose since then, each with its commit
and reason; an amendment may change the node count only, never the verdict or the line.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pyramid_widget import Game
from pyramid_widget.solver import Solution, solve

GOLDEN_FILE = Path(__file__).with_name("golden_old_presets.json")
AMENDMENTS_FILE = Path(__file__).with_name("golden_amendments.json")
OLD_PRESETS = ("relaxed", "medium", "hard", "cheops", "apophis", "egypt", "easy")


def load_recorded() -> dict[str, list[list[object]]]:
    """The answers as recorded from 5b941a5, by preset name."""
    data = json.loads(GOLDEN_FILE.read_text())
    return {name: data[name] for name in OLD_PRESETS}


def load_amendments() -> dict[str, dict[int, list[object]]]:
    """The rows changed on purpose since (see ``golden_amendments.json``), by preset and deal."""
    data = json.loads(AMENDMENTS_FILE.read_text())
    return {
        name: {int(deal): entry["row"] for deal, entry in data[name].items()}
        for name in OLD_PRESETS
        if name in data
    }


def load_golden() -> dict[str, list[list[object]]]:
    """The answers the solver must give today: the recorded ones with the amendments."""
    golden = load_recorded()
    for name, rows in load_amendments().items():
        for deal, row in rows.items():
            golden[name][deal] = row
    return golden


def fingerprint(solution: Solution) -> list[object]:
    """What the golden file records of one answer."""
    line = " ".join(str(move) for move in solution.moves)
    digest = hashlib.sha1(line.encode()).hexdigest()[:12]
    return [solution.verdict.value, solution.nodes, len(solution.moves), digest]


def test_golden_file_covers_200_deals_of_each_old_preset() -> None:
    golden = load_golden()
    assert sorted(golden) == sorted(OLD_PRESETS)
    assert all(len(rows) == 200 for rows in golden.values())
    verdicts = {row[0] for rows in golden.values() for row in rows}
    assert verdicts == {"winnable", "unwinnable"}


def test_amendments_change_node_counts_only_and_say_why() -> None:
    recorded = load_recorded()
    entries = json.loads(AMENDMENTS_FILE.read_text())
    amendments = load_amendments()
    assert amendments, "no amendment: drop the file instead"
    for name, rows in amendments.items():
        for deal, row in rows.items():
            before = recorded[name][deal]
            assert row != before, (name, deal)
            assert [row[0], row[2], row[3]] == [before[0], before[2], before[3]], (name, deal)
            entry = entries[name][str(deal)]
            assert entry["commit"] and entry["reason"], (name, deal)


@pytest.mark.parametrize("name", OLD_PRESETS)
def test_old_presets_solve_as_at_5b941a5(name: str) -> None:
    """Deals 0-199, every mismatch listed."""
    rows = load_golden()[name]
    wrong = []
    for number, row in enumerate(rows):
        got = fingerprint(solve(Game(name, deal=number)))
        if got != row:
            wrong.append((number, got, row))
    assert len(rows) == 200 and not wrong, wrong
