"""A whole game as JSON: the rule set, where it started, and every move with its time.

Loading replays the moves through the engine, so the result is the same game, undo history
included (``to_json`` stores the redo list too). A record that does not replay is refused
with the reason, and nothing half-built is returned.

>>> from pyramid_widget.engine.game import Game
>>> g = Game("medium", deal=7)
>>> _ = g.play("draw"); _ = g.play("3C+TD"); _ = g.undo()
>>> h = Game.from_json(g.to_json())
>>> h.history == g.history, h.can_redo, str(h) == str(g)
(True, True, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import card_str, parse_card
from pyramid_widget.engine.deals import format_deal
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.errors import GameFileError

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game

FORMAT = "pyramid-widget/game"
VERSION = 1


def _cards(cards: Any) -> list[str | None]:
    return [None if c is None else card_str(c) for c in cards]


def to_dict(game: Game) -> dict[str, Any]:
    """Return the JSON-ready record of ``game``."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "moves": [[str(m), round(t, 3)] for m, t in game._record],
        "redo": [[str(m), round(t, 3)] for m, t in game._redo],
        "elapsed": round(game.elapsed, 3),
        "score": game.score,
        "scored": _cards(sorted(game._scored)),
    }
    if game._first_deal is not None:
        data["deal"] = format_deal(game._first_deal)
        data["deal_number"] = game._first_number
    else:
        origin = game._origin
        data["position"] = {
            "pyramid": _cards(origin.pyramid),
            "stock": _cards(reversed(origin.stock)),
            "wastes": [_cards(p) for p in origin.wastes],
            "cells": _cards(origin.cells),
            "pass_number": origin.pass_number,
        }
    return data


def dump(game: Game) -> str:
    """Return the record of ``game`` as a JSON string."""
    return json.dumps(to_dict(game), separators=(",", ":"))


def load(source: str | bytes | Mapping[str, Any]) -> Game:
    """Rebuild a game from a record made by :func:`dump` (or its dict)."""
    data = _parse(source)
    game = _start(data)
    try:
        moves = [(Move.parse(m), float(t)) for m, t in data.get("moves", [])]
        redo = [(Move.parse(m), float(t)) for m, t in data.get("redo", [])]
    except (TypeError, ValueError) as exc:
        raise GameFileError(f"the saved game's move list is malformed: {exc}") from None
    for number, (move, at) in enumerate(moves, start=1):
        problem = game.explain(move)
        if problem is not None:
            raise GameFileError(f"move {number} of the saved game ({move}) is illegal: {problem}")
        game._do(move, at)
    _check_redo(game, redo)
    game._redo = redo
    if game.rules.scoring.undo_keeps_score:
        # Points earned by moves later undone stay (egypt): the record keeps them.
        try:
            game._score = int(data["score"])
            game._scored = {parse_card(c) for c in data["scored"]}
        except (KeyError, TypeError, ValueError) as exc:
            raise GameFileError(f"the saved game's score is malformed: {exc}") from None
    game._clock.reset(float(data.get("elapsed", moves[-1][1] if moves else 0.0)))
    if game.is_over:
        game._clock.pause()
    return game


def _parse(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(source, Mapping):
        data = dict(source)
    else:
        try:
            data = json.loads(source)
        except (TypeError, ValueError) as exc:
            raise GameFileError(f"the saved game is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"not a saved game: expected format {FORMAT!r}")
    if data.get("version") != VERSION:
        raise GameFileError(f"saved game version {data.get('version')!r} is not supported")
    return data


def _start(data: dict[str, Any]) -> Game:
    from pyramid_widget.engine.game import Game

    try:
        rules = RuleSet.from_dict(data["rules"])
        if "deal" in data:
            game = Game(rules, data["deal"])
            game.deal_number = game._first_number = data.get("deal_number")
            return game
        return Game.from_position(rules, **data["position"])
    except (KeyError, TypeError) as exc:
        raise GameFileError(f"the saved game lacks or garbles {exc}") from None


def _check_redo(game: Game, redo: list[tuple[Move, float]]) -> None:
    probe = game.copy()
    for move, at in reversed(redo):
        problem = probe.explain(move)
        if problem is not None:
            raise GameFileError(f"the saved redo move {move} does not replay: {problem}")
        probe._do(move, at)
