"""Hostile page messages (issue 14's fuzz suite): whatever the page sends, the widget says
clearly why it refused, no exception escapes, and the game changes only by a legal move.

Messages go through ipywidgets' real entry point (``_handle_msg`` with ``"buffers": []``), as
``model.send`` arrives in the kernel. Hypothesis runs derandomized (seeded), so a failure
replays the same way. Each example starts from a position reached by a seeded random walk
through a deal of a random preset, so moves are tried in many positions, legal and not.
"""

from __future__ import annotations

import functools
import logging
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramid_widget import PRESETS, Game, Move, card_str, parse_card
from pyramid_widget.errors import IntentError, PyramidError
from pyramid_widget.widget import PyramidWidget
from pyramid_widget.widget.intents import SCHEMA, FloodGuard, check_intent
from tests.support.tier import sized

#: How many examples each property tries (a few seconds on the 2-core machine; 200 with
#: ``pytest --thorough``).
EXAMPLES = sized(200, quick=100)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CARDS = [card_str(c) for c in range(52)]
MARKUP = [
    "<img src=x onerror=window.__pwned=1>",
    "<script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "javascript:alert(1)",
    "{{7*7}}",
    "\u202e\u0000\ud7ff",
]
HUGE = ["x" * 200_000, "<b>" * 50_000, "5H" * 60_000]  # 10 MB ones: test_widget.py
#: Digits that are not ASCII, and other number-like text that is not (``str.isdigit()`` is
#: true for most, and ``int()`` reads some: "٣" as 3, while "²" makes it raise): a field that
#: takes a number takes the digits 0-9 alone.
UNICODE_NUMBERS = [
    *("²", "٣", "١٢", "߃", "½", "Ⅻ", "7²", " ٣ ", "٣\u200f", "三"),
    *("\uff11\uff12", "\u09ed", "\U0001d7d5"),  # fullwidth 12, Bengali 7, bold 7
]
MOVE_KINDS = ("pair", "king", "cell", "draw", "redeal", "next-round")
#: Valid intents that run the solver for seconds or start threads: not sent when well formed.
SLOW = ("solve", "truth")
FIELDS = ("cards", "card", "level", "on", "rules", "deal", "winnable", "seq", "sent_at")

seen: Counter[str] = Counter()

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**63 - 2, max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(CARDS + [c.lower() for c in CARDS] + ["10H", "ZZ", "", " 5H ", "5H+8C"]),
    st.sampled_from(MARKUP + HUGE),
    st.sampled_from(UNICODE_NUMBERS),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
kinds = st.one_of(
    st.sampled_from(sorted(SCHEMA)),
    st.sampled_from(["", "PAIR", "pair ", "__proto__", "constructor", *MARKUP, *HUGE]),
    json_values,
)


@functools.cache
def position(preset: str, deal: int, walk: int) -> Game:
    """A position ``walk`` random moves into ``deal`` under ``preset`` (seeded; copy it)."""
    game = Game(preset, deal)
    rng = random.Random(f"{preset} {deal} {walk}")
    for _ in range(walk):
        if game.is_over:
            break
        game.play(rng.choice(sorted(game.legal_moves)))
    return game


def snapshot(w: PyramidWidget) -> tuple[Any, ...]:
    """What must not change after a refused message: the game, its history, the board."""
    g = w.game
    return (
        [str(m) for m in g.history],
        g.status,
        g.pyramid,
        g.stock,
        g.wastes,
        g.cells,
        g.discard,
        g.pass_number,
        g.round,
        g.can_redo,
        w.board,
        w.moves,
        w.status,
    )


def game_only(g: Game) -> tuple[Any, ...]:
    return ([str(m) for m in g.history], g.status, g.pyramid, g.stock, g.wastes, g.cells)


def engine_move(intent: dict[str, Any]) -> Move:
    """The engine move a checked move intent names (may raise for a card paired with itself)."""
    kind = intent["kind"]
    if kind == "pair":
        return Move.pair(*(parse_card(c) for c in intent["cards"]))
    if kind == "king":
        return Move.king(parse_card(intent["card"]))
    if kind == "cell":
        return Move.to_cell(parse_card(intent["card"]))
    return Move.parse(kind)


class Errors(logging.Handler):
    """Collects the widget's logged errors (an exception that was not a clean refusal)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def deliver(w: PyramidWidget, content: Any) -> None:
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def check_one(w: PyramidWidget, content: Any) -> str:
    """Send ``content`` and check the outcome against an oracle; returns its category."""
    try:
        intent: dict[str, Any] | None = check_intent(content)
    except PyramidError:
        intent = None
    if intent is not None and (
        intent["kind"] in SLOW
        or (intent["kind"] == "hint" and intent.get("level") == 2)
        or (intent["kind"] == "new" and intent.get("winnable"))
    ):
        return "skipped (valid and slow)"
    before, count = snapshot(w), w.last_event.get("count", 0)
    expected = None  # the game after the move, when the message names a legal move
    if intent is not None and intent["kind"] in MOVE_KINDS:
        oracle = w.game.copy()
        try:
            oracle.play(engine_move(intent))
            expected = game_only(oracle)
        except PyramidError:
            expected = None
    errors = Errors()
    log = logging.getLogger("pyramid_widget.widget")
    log.addHandler(errors)
    try:
        deliver(w, content)  # an exception escaping here fails the test
    finally:
        log.removeHandler(errors)
    assert not errors.records, [r.getMessage()[:300] for r in errors.records]
    event = w.last_event
    assert len(w.message) <= 420 and len(str(event.get("message", ""))) <= 420
    if intent is None or intent["kind"] in MOVE_KINDS:
        if expected is not None:
            assert event["ok"] is True and event["count"] == count + 1, event
            assert game_only(w.game) == expected
            return "legal move, applied"
        assert event["ok"] is False and event["count"] == count + 1, (content, event)
        assert w.message_kind == "error" and w.message.endswith((".", "!", "?")), w.message
        assert snapshot(w) == before, content
        return "refused, unchanged" if intent is None else "illegal move, unchanged"
    if intent["kind"] in ("select", "hint", "stats"):
        assert snapshot(w) == before
    return f"valid {intent['kind']}"


def fresh(preset: str, deal: int, walk: int) -> PyramidWidget:
    w = PyramidWidget(preset, deal=deal, records=False)
    w.load(position(preset, deal, walk).copy())
    w._guard = FloodGuard(limit=10**9)  # the flood guard is tested on its own
    return w


games = st.tuples(
    st.sampled_from(list(PRESETS)), st.integers(0, 5), st.sampled_from([0, 3, 10, 25, 60])
)


@FUZZ
@given(game=games, data=st.data())
def hostile_messages(game: tuple[str, int, int], data: st.DataObject) -> None:
    w = fresh(*game)
    for _ in range(3):
        shape = data.draw(st.integers(0, 2))
        if shape == 0:
            content: Any = data.draw(json_values)
        else:
            content = {"kind": data.draw(kinds)}
            for field in data.draw(st.lists(st.sampled_from(FIELDS), max_size=3, unique=True)):
                content[field] = data.draw(json_values)
            if shape == 2:
                content.update(
                    data.draw(st.dictionaries(st.text(max_size=12), json_values, max_size=2))
                )
        seen[check_one(w, content)] += 1


@FUZZ
@given(game=games, data=st.data())
def move_like_messages(game: tuple[str, int, int], data: st.DataObject) -> None:
    w = fresh(*game)
    for _ in range(4):
        seen[check_one(w, data.draw(move_messages(w)))] += 1


def move_messages(w: PyramidWidget) -> st.SearchStrategy[dict[str, Any]]:
    """Move messages as the page writes them: a legal move, or cards of the board (available
    or not) under a move kind."""
    legal = sorted(w.game.legal_moves)
    ids = [c["id"] for c in w.board["cards"]] or CARDS
    available = [c["id"] for c in w.board["cards"] if c["available"]] or CARDS
    card = st.sampled_from(available) | st.sampled_from(ids)
    seq = st.integers(0, 10**6)

    def written(move: Move) -> dict[str, Any]:
        names = [card_str(c) for c in move.cards]
        if move.kind.value == "pair":
            return {"kind": "pair", "cards": names}
        if move.kind.value in ("king", "cell"):
            return {"kind": move.kind.value, "card": names[0]}
        return {"kind": move.kind.value}

    made = st.one_of(
        st.builds(lambda a, b, n: {"kind": "pair", "cards": [a, b], "seq": n}, card, card, seq),
        st.builds(
            lambda k, c: {"kind": k, "card": c}, st.sampled_from(["king", "cell", "select"]), card
        ),
        st.builds(
            lambda k: {"kind": k}, st.sampled_from(["draw", "redeal", "next-round", "undo", "redo"])
        ),
    )
    return made | st.sampled_from(legal).map(written) if legal else made


def run(prop: Any) -> Counter[str]:
    """Run one property's examples and return how the messages came out."""
    seen.clear()
    prop()
    print(f"\n{prop.__name__}: {dict(seen)}")
    return Counter(seen)


def test_hostile_messages_are_refused_and_change_nothing() -> None:
    outcomes = run(hostile_messages)
    assert outcomes["refused, unchanged"] >= EXAMPLES, outcomes  # it did not only bounce off


def test_valid_looking_moves_apply_when_legal_and_otherwise_change_nothing() -> None:
    outcomes = run(move_like_messages)
    assert outcomes["legal move, applied"] >= EXAMPLES // 2, outcomes
    assert outcomes["illegal move, unchanged"] >= EXAMPLES // 2, outcomes


#: Every field of a page message that takes a number, in a message that is valid otherwise.
NUMBER_FIELDS = {
    "deal": {"kind": "new"},
    "level": {"kind": "hint"},
    "index": {"kind": "panel", "action": "pick"},
}


@pytest.mark.parametrize("text", UNICODE_NUMBERS)
@pytest.mark.parametrize("field", NUMBER_FIELDS)
def test_number_fields_take_ascii_digits_only(field: str, text: str) -> None:
    """ "٣" was once taken as deal 3, and "²" put Python's own ``int()`` error on the board."""
    content = {**NUMBER_FIELDS[field], field: text}
    try:
        check_intent(content)
    except IntentError as error:
        assert repr(field) in str(error), error
    else:
        raise AssertionError(f"{content} was taken as a number")
    w = fresh("medium", 7, 3)
    before = snapshot(w)
    assert check_one(w, content) == "refused, unchanged"
    assert w.last_event["ok"] is False and w.message_kind == "error"
    assert "literal" not in w.message and repr(field) in w.message, w.message
    assert snapshot(w) == before and w.game.deal_number != 3


def test_a_deal_in_ascii_digits_is_still_a_deal_number() -> None:
    w = fresh("medium", 7, 3)
    for text, number in (("12", 12), (" 3 ", 3), ("0007", 7)):
        deliver(w, {"kind": "new", "deal": text})
        assert w.last_event["ok"] is True and w.game.deal_number == number, w.message


def test_a_unicode_digit_sequence_number_is_not_read_as_a_number() -> None:
    assert check_intent({"kind": "draw", "seq": "٣"})["seq"] is None
