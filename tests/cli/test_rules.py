"""``pyramid-widget rules`` lists every preset; ``solve`` and ``experiment`` accept each one."""

from __future__ import annotations

import json

import pytest

from pyramid_widget import cli
from pyramid_widget.cli.rules import source_of
from pyramid_widget.engine.rules import PRESETS


def test_rules_lists_every_preset_with_its_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules"]) == 0
    text = capsys.readouterr().out
    firsts = [line for line in text.splitlines() if not line.startswith(" ")]
    assert [line.split()[0] for line in firsts] == list(PRESETS)
    for line, rules in zip(firsts, PRESETS.values(), strict=True):
        assert line.split(None, 1)[1] == rules.description
    for rules in PRESETS.values():
        if source_of(rules):
            assert f"source: {source_of(rules)}" in text


def test_rules_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in rows] == list(PRESETS)
    assert all(set(row) == {"name", "description", "source"} for row in rows)
    assert [row["source"] for row in rows] == [getattr(r, "source", "") for r in PRESETS.values()]


def test_every_preset_has_a_description() -> None:
    assert all(r.description for r in PRESETS.values())


def test_rules_takes_no_positional_argument(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "medium"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("pyramid-widget: error: unrecognized arguments: medium")
    assert "\n" not in err


@pytest.mark.parametrize("name", list(PRESETS))
def test_solve_accepts_every_preset(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "--rules", name, "--number", "3", "--max-nodes", "3000", "--json"]
    assert cli.main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["rules"] == name
    assert record["verdict"] in ("winnable", "unwinnable", "unknown")
    assert len(record["deal"].split()) == PRESETS[name].deck_size
    assert record.get("knows_hidden", False) is PRESETS[name].has_hidden


def test_solve_says_it_knows_the_face_down_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["solve", "--rules", "dark_pyramid", "--number", "3"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("dark_pyramid, deal 3: winnable")
    assert "the solver knows every card, the face-down ones too" in first
    assert "a player who knew every card could win" in first
    assert cli.main(["solve", "--rules", "medium", "--number", "3"]) == 0
    assert "knows every card" not in capsys.readouterr().out


def test_solve_takes_a_two_deck_deal_string(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "--rules", "double_pyramid", "--number", "5", "--max-nodes", "500"]
    assert cli.main([*argv, "--json"]) == 0
    deal = json.loads(capsys.readouterr().out)["deal"]
    assert (
        cli.main(["solve", "--rules", "double_pyramid", "--deal", deal, "--max-nodes", "500"]) == 0
    )
    assert capsys.readouterr().out.startswith("double_pyramid, deal: ")


@pytest.mark.parametrize("name", list(PRESETS))
def test_experiment_accepts_every_preset(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["experiment", "--rules", name, "--strategy", "greedy", "random", "--games", "4"]
    assert cli.main([*argv, "--jobs", "1", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines[1:]] == [
        [name, "greedy", "4"],
        [name, "random", "4"],
    ]
