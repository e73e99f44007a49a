"""The ``pyramid-widget solve`` subcommand: one deal, batches, JSON lines, bad input."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from pyramid_widget import Game
from pyramid_widget.cli import solve as cli_solve
from pyramid_widget.engine.deals import deal_from_number, format_deal


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    cli_solve.add_arguments(parser)
    return cli_solve.run(parser.parse_args(argv))


def test_one_deal_prints_a_verdict_and_a_readable_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--rules", "medium", "--number", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("medium, deal 7: winnable in ")
    assert "  1. AH+QS" in out and "draw x" in out


def test_one_deal_as_json_replays(capsys: pytest.CaptureFixture[str]) -> None:
    deal = format_deal(deal_from_number(7))
    assert run(["--rules", "hard", "--deal", deal, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["deal"] == deal and record["rules"] == "hard"
    assert record["verdict"] in ("winnable", "unwinnable")
    assert set(record) == {
        "deal",
        "number",
        "rules",
        "verdict",
        "moves",
        "nodes",
        "seconds",
        "shortest",
    }


def test_shortest_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--rules", "egypt", "--number", "3", "--shortest", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["shortest"] is True
    game = Game("egypt", deal=3)
    for move in record["moves"]:
        game.play(move)
    assert game.status.value == "won"


def test_batch_of_numbers_gives_one_json_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--rules", "egypt", "--numbers", "3-5", "--jobs", "2", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["number"] for r in records] == [3, 4, 5]
    assert all(r["rules"] == "egypt" for r in records)


def test_batch_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(f"# two deals\n7\n\n{format_deal(deal_from_number(8))}\n", encoding="utf-8")
    assert run(["--rules", "hard", "--file", str(path), "--no-progress"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["number"] for r in records] == [7, None]


def test_rules_from_a_json_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pyramid_widget import get_rules

    rules = get_rules("medium").replace(name="two-pass", passes=2)
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules.to_dict()), encoding="utf-8")
    assert run(["--rules", str(path), "--number", "7", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "two-pass"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "klondike", "--number", "1"], "unknown rule set"),
        (["--rules", "medium", "--deal", "AS 2H"], "52 cards"),
        (["--rules", "medium", "--numbers", "9-2"], "bad range"),
        (["--rules", "medium", "--numbers", "a-b"], "bad range"),
        (["--rules", "medium", "--file", "/no/such/file"], "no such deals file"),
        (["--rules", "nope.json", "--number", "1"], "no such rules file"),
    ],
)
def test_bad_input_raises_a_one_line_value_error(argv: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run(argv)


def test_main_reports_bad_input_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyramid_widget.cli.experiment")
    pytest.importorskip("pyramid_widget.cli.stats")
    from pyramid_widget.cli import main

    assert main(["solve", "--rules", "klondike", "--number", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pyramid-widget: error: unknown rule set") and err.count("\n") == 1
