"""``pyramid-widget experiment``: the summary table, the CSV, one-line errors with exit 2."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pyramid_widget import cli


@pytest.fixture(autouse=True)
def only_experiment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Build the real top-level parser with just this subcommand (others may be absent)."""
    monkeypatch.setattr(cli, "SUBCOMMANDS", {"experiment": "pyramid_widget.cli.experiment"})


def test_prints_the_summary_and_writes_the_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.csv"
    argv = ["experiment", "--rules", "hard", "medium", "--strategy", "greedy", "random"]
    argv += ["--games", "30", "--jobs", "2", "--out", str(out), "--quiet"]
    assert cli.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["rules", "strategy", "games"]
    assert [line.split()[:3] for line in lines[1:]] == [
        ["hard", "greedy", "30"],
        ["hard", "random", "30"],
        ["medium", "greedy", "30"],
        ["medium", "random", "30"],
    ]
    with out.open() as handle:
        assert len(list(csv.DictReader(handle))) == 120


def test_a_range_of_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(["experiment", "--rules", "hard", "--deals", "0:12", "--jobs", "1", "--quiet"])
        == 0
    )
    assert capsys.readouterr().out.splitlines()[1].split()[:3] == ["hard", "greedy", "12"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "klondike"], "unknown rule set 'klondike'"),
        (["--strategy", "clever"], "unknown strategy 'clever'"),
        (["--games", "0"], "argument --games: expected a whole number from 1 to 1,000,000"),
        (["--deals", "9:3"], "--deals takes START:STOP"),
        (["--jobs", "0"], "argument --jobs: expected a whole number from 1 to 64"),
        (["--max-seconds", "0"], "argument --max-seconds: expected a number of seconds above 0"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["experiment", *argv, "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(("pyramid-widget: error: ", "pyramid-widget experiment: error: "))
    assert message in err and "\n" not in err
