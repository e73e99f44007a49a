"""``pyramid-widget experiment``: the summary table, the CSV, one-line errors with exit 2."""

from __future__ import annotations

import csv
import os
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


def refused(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["experiment", "--games", "2", "--jobs", "1", "--quiet", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before the experiment ran: no table
    (line,) = captured.err.splitlines()
    assert line.startswith("pyramid-widget: error: --out ") and message in line


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_an_out_file_that_cannot_be_created_is_refused_before_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Audit item 10: /proc is a directory, yet nothing can be created in it (even as root);
    the experiment used to run to the end and then lose its rows."""
    refused(["--out", "/proc/x.csv"], "'/proc/x.csv' cannot be written", capsys)
    assert not Path("/proc/x.csv").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_directory_or_file_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "old.csv").write_text("kept\n")
    (locked / "old.csv").chmod(0o400)
    locked.chmod(0o500)
    try:
        refused(["--out", str(locked / "new.csv")], "cannot be written (Permission denied)", capsys)
        refused(["--out", str(locked / "old.csv")], "cannot be written (Permission denied)", capsys)
    finally:
        locked.chmod(0o700)
    assert [p.name for p in locked.iterdir()] == ["old.csv"]


def test_a_run_that_fails_after_the_check_leaves_no_file_and_keeps_an_old_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check creates the file; a run refused for another reason takes it back, and an
    existing file is only opened, never emptied, until the rows are there to write."""
    new, old = tmp_path / "new.csv", tmp_path / "old.csv"
    old.write_text("last week's rows\n")
    for out in (new, old):
        argv = ["experiment", "--rules", "klondike", "--games", "2", "--jobs", "1", "--quiet"]
        assert cli.main([*argv, "--out", str(out)]) == 2
        assert "unknown rule set 'klondike'" in capsys.readouterr().err
    assert not new.exists()
    assert old.read_text() == "last week's rows\n"
    argv = ["experiment", "--rules", "hard", "--games", "3", "--jobs", "1", "--quiet"]
    assert cli.main([*argv, "--out", str(old)]) == 0
    assert len(old.read_text().splitlines()) == 4


def test_a_full_disk_at_the_end_keeps_the_table_and_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``/dev/full`` refuses every write with "No space left on device", as a disk that
    fills during a long run would: the table is printed first, then one line, exit 2."""
    argv = ["experiment", "--rules", "hard", "--games", "3", "--jobs", "1", "--quiet"]
    assert cli.main([*argv, "--out", "/dev/full"]) == 2
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1].split()[:3] == ["hard", "greedy", "3"]
    assert captured.err == (
        "pyramid-widget: error: cannot write the 3 rows to '/dev/full' (No space left on device)\n"
    )
