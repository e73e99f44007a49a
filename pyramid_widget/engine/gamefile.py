"""A whole game as JSON: the rule set, where it started, and every move with its time.

Loading replays the moves through the engine, so the result is the same game, undo history
included (``to_json`` stores the redo list too, and how many undos are left where the undo
depth has cut them short). A record that does not replay is refused with the reason, and
nothing half-built is returned.

The format is still version 1: fields added since (``reserves``, ``undos_left``) are written
only where they say something, so a game that needs none saves as it always did, and a file
without them loads as it always did.

>>> from pyramid_widget.engine.game import Game
>>> g = Game("medium", deal=7)
>>> _ = g.play("draw"); _ = g.play("3C+TD"); _ = g.undo()
>>> h = Game.from_json(g.to_json())
>>> h.history == g.history, h.can_redo, str(h) == str(g)
(True, True, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import Card, card_str, parse_card
from pyramid_widget.engine.deals import format_deal, parse_deal
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.quoting import listed, shown
from pyramid_widget.engine.record import GameRecord, StartPosition, TimedMove
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.errors import GameFileError, PyramidError

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game

FORMAT = "pyramid-widget/game"
VERSION = 1
#: The largest saved game read, in characters.
MAX_CHARS = 20_000_000

_KEYS = {
    "format",
    "version",
    "rules",
    "deal",
    "deal_number",
    "position",
    "moves",
    "redo",
    "elapsed",
    "score",
    "scored",
    "undos_left",
}
_POSITION_KEYS = {"pyramid", "stock", "wastes", "cells", "pass_number", "reserves"}


def _names(cards: Sequence[Card | None]) -> list[str | None]:
    return [None if c is None else card_str(c) for c in cards]


def _timed(moves: Sequence[TimedMove]) -> list[list[Any]]:
    return [[str(m), round(t, 3)] for m, t in moves]


def to_dict(game: Game) -> dict[str, Any]:
    """Return the JSON-ready form of ``game``'s public :meth:`~Game.record`."""
    record = game.record()
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": record.rules.to_dict(),
        "moves": _timed(record.moves),
        "redo": _timed(record.redo),
        "elapsed": round(record.elapsed or 0.0, 3),
        "score": record.score,
        "scored": _names(sorted(record.scored or ())),
    }
    if record.undos_left is not None:
        data["undos_left"] = record.undos_left
    if record.start is None:
        assert record.deal is not None  # a record has a deal or a start
        data["deal"] = format_deal(record.deal)
        data["deal_number"] = record.deal_number
    else:
        start = record.start
        data["position"] = {
            "pyramid": _names(start.pyramid),
            "stock": _names(start.stock),
            "wastes": [_names(p) for p in start.wastes],
            "cells": _names(start.cells),
            "pass_number": start.pass_number,
        }
        if start.reserves:
            data["position"]["reserves"] = [_names(p) for p in start.reserves]
    return data


def dump(game: Game) -> str:
    """Return the record of ``game`` as a JSON string."""
    return json.dumps(to_dict(game), separators=(",", ":"))


def load(source: str | bytes | Mapping[str, Any]) -> Game:
    """Rebuild a game from a record made by :func:`dump` (or its dict).

    Every field is checked by type and range, then the moves are replayed
    (:meth:`Game.replay`); anything wrong raises :class:`~pyramid_widget.errors.GameFileError`
    in one sentence, and the source is not changed.

    >>> load('{"format": "pyramid-widget/game", "version": 1, "rules": "medium"}')
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.GameFileError: the saved game's rules: rules must be a mapping, got str
    """
    from pyramid_widget.engine.game import Game

    return Game.replay(read(source))


def read(source: str | bytes | Mapping[str, Any]) -> GameRecord:
    """Check a saved game's JSON (or dict) field by field and return its
    :class:`~pyramid_widget.engine.record.GameRecord` (not replayed yet)."""
    data = _parse(source)
    unknown = set(data) - _KEYS
    if unknown:
        raise GameFileError(f"the saved game has unknown field(s) {listed(unknown)}")
    if "rules" not in data:
        raise GameFileError("the saved game lacks or garbles its rules")
    try:
        rules = RuleSet.from_dict(data["rules"])
    except PyramidError as exc:
        raise GameFileError(f"the saved game's rules: {exc}") from None
    except RecursionError:
        raise GameFileError("the saved game's rules are nested too deeply") from None
    deal = None
    if "deal" in data:
        if not isinstance(data["deal"], str):
            raise GameFileError(
                f"the saved game's deal must be a string of {rules.deck_size} cards"
            )
        try:
            deal = parse_deal(data["deal"], rules.decks)
        except PyramidError as exc:
            raise GameFileError(f"the saved game's deal: {exc}") from None
    start = None
    if "position" in data:
        start = _position(data["position"])
    elif "deal" not in data and "deal_number" not in data:
        raise GameFileError("the saved game lacks or garbles its start: no deal and no position")
    return GameRecord(
        rules=rules,
        deal=deal,
        deal_number=data.get("deal_number"),
        start=start,
        moves=tuple(_moves(data.get("moves", []), "move list")),
        redo=tuple(_moves(data.get("redo", []), "redo list")),
        elapsed=data.get("elapsed"),
        score=data.get("score"),
        scored=frozenset(_deck_cards(data.get("scored", []), "scored cards")),
        undos_left=data.get("undos_left"),
    )


def _parse(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(source, Mapping):
        data: Any = dict(source)
    elif isinstance(source, (str, bytes, bytearray)):
        if len(source) > MAX_CHARS:
            raise GameFileError(f"the saved game is longer than {MAX_CHARS:,} characters")
        try:
            data = json.loads(source)
        except (TypeError, ValueError) as exc:
            raise GameFileError(f"the saved game is not valid JSON: {_first_line(exc)}") from None
        except RecursionError:
            raise GameFileError(
                "the saved game is not valid JSON: it is nested too deeply"
            ) from None
    else:
        raise GameFileError(f"a saved game is JSON text or a dict, got {type(source).__name__}")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"not a saved game: expected format {FORMAT!r}")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise GameFileError(f"saved game version {shown(version, 40)} is not supported")
    return data


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


def _card(value: Any, what: str) -> Card:
    if not isinstance(value, str):
        raise GameFileError(f"the saved game's {what} must name cards as text like '5H'")
    try:
        return parse_card(value)
    except PyramidError as exc:
        raise GameFileError(f"the saved game's {what}: {exc}") from None


def _card_list(value: Any, what: str, *, gaps: bool = False) -> list[Card | None]:
    if not isinstance(value, list) or len(value) > 104:
        raise GameFileError(f"the saved game's {what} must be a list of at most 104 cards")
    return [None if gaps and c is None else _card(c, what) for c in value]


def _deck_cards(value: Any, what: str) -> list[Card]:
    return [c for c in _card_list(value, what) if c is not None]


def _position(value: Any) -> StartPosition:
    if not isinstance(value, dict):
        raise GameFileError("the saved game's position must be a mapping")
    unknown = set(value) - _POSITION_KEYS
    if unknown:
        raise GameFileError(f"the saved game's position has unknown field(s) {listed(unknown)}")
    if "pyramid" not in value:
        raise GameFileError("the saved game's position lacks its pyramid")
    wastes = value.get("wastes", [])
    if not isinstance(wastes, list) or len(wastes) > 8:
        raise GameFileError("the saved game's wastes must be a list of at most 8 piles")
    reserves = value.get("reserves", [])
    if not isinstance(reserves, list) or len(reserves) > 12:
        raise GameFileError("the saved game's reserves must be a list of at most 12 piles")
    return StartPosition(
        reserves=tuple(tuple(_deck_cards(p, "reserve pile")) for p in reserves),
        pyramid=tuple(_card_list(value["pyramid"], "pyramid", gaps=True)),
        stock=tuple(_deck_cards(value.get("stock", []), "stock")),
        wastes=tuple(tuple(_deck_cards(p, "waste pile")) for p in wastes),
        cells=tuple(_card_list(value.get("cells", []), "cells", gaps=True)),
        pass_number=value.get("pass_number", 1),
    )


def _moves(value: Any, what: str) -> list[TimedMove]:
    if not isinstance(value, list):
        raise GameFileError(f"the saved game's {what} must be a list of [move, seconds]")
    out: list[TimedMove] = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str):
            raise GameFileError(
                f"the saved game's {what} is malformed: entry {number} is not a [move, seconds] pair"
            )
        if len(item[0]) > 40:
            raise GameFileError(
                f"the saved game's {what} is malformed: entry {number} is too long for a move"
            )
        try:
            move = Move.parse(item[0])
        except PyramidError as exc:
            raise GameFileError(f"the saved game's {what} is malformed: {exc}") from None
        out.append((move, item[1]))
    return out
