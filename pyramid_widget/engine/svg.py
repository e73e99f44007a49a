"""A static SVG picture of a position, drawn from the same card faces as the page.

The faces (suit shapes, pip places, court emblems, colours) live in one data file beside this
module, ``faces.json`` (:data:`FACES`): the widget sends it to the page in its ``faces`` trait
and ``widget.js`` draws its cards from it, and :func:`game_svg` draws the same cards here, in
pure Python, for places with no kernel or no widget manager: exported HTML, docs, GitHub's
notebook viewer, printed worksheets. :meth:`Game.svg() <pyramid_widget.engine.game.Game.svg>`
and ``Game._repr_svg_`` call it.

The picture is built with :mod:`xml.etree.ElementTree`, so every text from Python (a rule
set's name, for one) is escaped as XML text, never read as markup. Each card is a ``<g>``
with ``data-card`` (``"5C"``) and ``data-zone`` (``pyramid``, ``waste``, ``stock``, ``cell``,
``discard``); a covered pyramid card also has ``data-covered="true"``.

>>> from pyramid_widget.engine.game import Game
>>> import xml.etree.ElementTree as ET
>>> root = ET.fromstring(game_svg(Game("medium", deal=7)))
>>> cards = [g for g in root.iter(SVG + "g") if g.get("data-card")]
>>> len(cards), cards[0].get("data-card"), cards[0].get("data-covered")
(28, '5C', 'true')
>>> root.get("viewBox")
'0 0 820 860'
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import Card, card_long_name, card_str, rank
from pyramid_widget.engine.describe import counted
from pyramid_widget.engine.quoting import shown
from pyramid_widget.errors import ArgumentError

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game

__all__ = ["FACES", "SVG", "card_svg", "face", "game_svg"]

#: The card faces, shared with the page (``pyramid_widget/engine/faces.json``).
FACES: dict[str, Any] = json.loads((Path(__file__).with_name("faces.json")).read_text("utf-8"))

#: The SVG namespace, as ElementTree spells a tag in it (``SVG + "g"``).
SVG = "{http://www.w3.org/2000/svg}"
_NS = "http://www.w3.org/2000/svg"

_PATH_DATA = re.compile(r"[MmLlHhVvCcSsQqTtAaZz0-9 .,\-]+")

# Board geometry in card units (a card is 100 x 140, as on the page: 1.1 card widths a
# column, half a card height a row).
_W, _H = 100, 140
_STEP, _ROWSTEP, _FAN = 110, 70, 18
_MARGIN, _HEADER, _GAP, _FOOTER = 30, 52, 32, 40
_FONT = "Helvetica Neue, Arial, Liberation Sans, DejaVu Sans, sans-serif"
_SERIF = "Georgia, Liberation Serif, DejaVu Serif, serif"
_THEMES = ("light", "dark")


def _n(x: float) -> str:
    """A number as short SVG text (``12``, ``12.5``)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _el(parent: ET.Element | None, tag: str, **attrs: Any) -> ET.Element:
    """A new SVG element (under ``parent`` when given); ``_`` in names becomes ``-``."""
    values = {k.rstrip("_").replace("_", "-"): _n(v) if isinstance(v, float | int) else str(v)
              for k, v in attrs.items()}  # fmt: skip
    node = ET.Element(tag, values) if parent is None else ET.SubElement(parent, tag, values)
    return node


def _shape(parent: ET.Element, suit: str, cx: float, cy: float, size: float, flip: bool) -> None:
    """One suit symbol (a 100 x 100 shape) centred on (cx, cy), ``size`` wide."""
    rot = f"rotate(180 {_n(cx)} {_n(cy)}) " if flip else ""
    move = f"translate({_n(cx - size / 2)} {_n(cy - size / 2)}) scale({_n(size / 100)})"
    g = _el(parent, "g", transform=rot + move)
    for part in FACES["suits"][suit]:
        if "d" in part:
            _el(g, "path", d=part["d"])
        else:
            _el(g, "circle", cx=part["cx"], cy=part["cy"], r=part["r"])


def face(rank_value: int, suit: str) -> ET.Element:
    """The face of a card (rank 1..13, suit letter ``CDHS``) as an SVG ``<g>`` on a 100 x 140
    box: corner indices, then pips, an ace or a court figure. No background.

    Raises ``ValueError`` for a rank or suit the faces do not have.

    >>> g = face(12, "H")
    >>> g.get("fill"), [t.text for t in g.iter("text")]
    ('#c81e32', ['Q', 'Q', 'Q'])
    """
    if not (isinstance(rank_value, int) and 1 <= rank_value <= 13) or suit not in FACES["suits"]:
        raise ArgumentError(f"no card face for rank {rank_value!r} and suit {suit!r}")
    colors, corner = FACES["colors"], FACES["corner"]
    g = _el(None, "g", fill=colors["red"] if suit in FACES["red"] else colors["black"])
    label = FACES["index"].get(str(rank_value), str(rank_value))
    for turn in ("", "rotate(180 50 70)"):
        c = _el(g, "g", transform=turn) if turn else g
        size = corner["size_two_digits"] if len(label) > 1 else corner["size"]
        text = _el(c, "text", x=corner["x"], y=corner["y"], font_size=size, text_anchor="middle",
                   font_family=_FONT, font_weight="700", letter_spacing="-1")  # fmt: skip
        text.text = label
        _shape(c, suit, corner["x"], corner["pip_y"], corner["pip_size"], False)
    pips = FACES["pips"].get(str(rank_value))
    if rank_value == 1:
        ace = FACES["ace"]
        _shape(g, suit, 50, 70, ace["spade_size"] if suit == "S" else ace["size"], False)
    elif pips:
        for x, y in pips:
            _shape(g, suit, x, y, FACES["pip_size"], y > 70)
    else:
        court = FACES["court"]
        figure = FACES["courts"][str(rank_value)]
        x, y, w, h, r = court["frame"]
        _el(g, "rect", x=x, y=y, width=w, height=h, rx=r, fill=colors["frame"], fill_opacity="0.18",
            stroke=g.get("fill"), stroke_width="1.4", stroke_opacity="0.55")  # fmt: skip
        if _PATH_DATA.fullmatch(figure["emblem"]):
            _el(g, "path", d=figure["emblem"], fill=colors["emblem"], stroke=colors["emblem_edge"])
        text = _el(g, "text", x=50, y=court["letter_y"], font_size=court["letter_size"],
                   text_anchor="middle", font_family=_SERIF, font_weight="700")  # fmt: skip
        text.text = figure["letter"]
        _shape(g, suit, 50, court["pip_y"], court["pip_size"], False)
    return g


def card_svg(card: Card, x: float, y: float, zone: str, *, dim: bool = False) -> ET.Element:
    """A whole card (paper, edge, face) at (x, y) as a ``<g>`` tagged with its name and zone;
    ``dim`` shades it (a covered or discarded card)."""
    name = card_str(card)
    g = _el(None, "g", transform=f"translate({_n(x)} {_n(y)})", data_card=name, data_zone=zone)
    _el(g, "title").text = card_long_name(card)
    colors = FACES["colors"]
    _el(g, "rect", x=0.5, y=0.5, width=_W - 1, height=_H - 1, rx=8, fill=colors["card"],
        stroke=colors["edge"], stroke_width=1)  # fmt: skip
    g.append(face(rank(card), name[1]))
    if dim:
        _el(g, "rect", width=_W, height=_H, rx=8, fill="#000", fill_opacity="0.26")
    return g


def _back(parent: ET.Element, x: float, y: float, count: int) -> None:
    colors = FACES["colors"]
    g = _el(parent, "g", transform=f"translate({_n(x)} {_n(y)})", data_zone="stock-back")
    _el(g, "rect", x=0.5, y=0.5, width=_W - 1, height=_H - 1, rx=8, fill=colors["back"],
        stroke=colors["back_edge"], stroke_width=5)  # fmt: skip
    _el(g, "title").text = f"the stock, {count} cards face down"


def _whole(value: float) -> float:
    """``value`` as an int when it is one (so the picture's numbers read ``820``, not
    ``820.0``)."""
    return int(value) if float(value).is_integer() else value


def _face_down(parent: ET.Element, x: float, y: float) -> None:
    colors = FACES["colors"]
    g = _el(parent, "g", transform=f"translate({_n(x)} {_n(y)})", data_zone="face-down")
    _el(g, "rect", x=0.5, y=0.5, width=_W - 1, height=_H - 1, rx=8, fill=colors["back"],
        stroke=colors["back_edge"], stroke_width=5)  # fmt: skip
    _el(g, "title").text = "a face-down card"


def _slot(parent: ET.Element, x: float, y: float) -> None:
    _el(parent, "rect", x=x + 1, y=y + 1, width=_W - 2, height=_H - 2, rx=8, fill="#000",
        fill_opacity="0.12", stroke="#fff", stroke_opacity="0.3", stroke_width=2,
        stroke_dasharray="6 4")  # fmt: skip


def _caption(parent: ET.Element, x: float, y: float, text: str, size: int = 15) -> None:
    node = _el(parent, "text", x=x, y=y, font_size=size, text_anchor="middle", fill="#fff",
               font_family=_FONT)  # fmt: skip
    node.text = text


def _heading(game: Game) -> str:
    deal = f"deal #{game.deal_number}" if game.deal_number is not None else "custom position"
    left = "unlimited" if game.passes_left is None else str(game.passes_left)
    parts = [game.rules.name, deal, counted(game.moves, "move"), f"score {game.score}",
             f"redeals left {left}", game.status.value]  # fmt: skip
    return " · ".join(parts)


def game_svg(game: Game, *, width: int | None = None, theme: str = "light") -> str:
    """The position of ``game`` as a standalone SVG document (text): the pyramid (covered
    cards shaded), the stock (its back and count), each waste pile's top cards fanned, the
    cells, the discard pile, and a heading line (rules, deal, moves, score, status).

    ``width``: the picture's width in pixels (``None``: its natural 820-unit width scaled
    to 640); ``theme``: ``"light"`` or ``"dark"`` felt. The felt carries its own white text,
    so the picture reads on any page background. Raises :class:`~pyramid_widget.errors.ArgumentError` (a ``ValueError``) for another
    theme.
    """
    if theme not in _THEMES:
        raise ArgumentError(f"theme must be 'light' or 'dark', got {shown(theme)}")
    wastes, cells = game.wastes, game.cells
    layout = game.rules.layout
    zones = [("reserve", i) for i in range(len(game.reserves))]
    if game.rules.stock_size:
        zones += [("stock", 0)] + [("waste", i) for i in range(len(wastes))]
    zones += [("cell", i) for i in range(len(cells))] + [("discard", 0)]
    tableau_w = _whole((layout.width - 2) * _STEP / 2 + _W)
    inner = max(tableau_w, (len(zones) - 1) * _STEP + _W)
    full_w = inner + 2 * _MARGIN
    bottom = _whole(_HEADER + (layout.height - 1) * _ROWSTEP + _H + _GAP)
    full_h = bottom + _H + 2 * _FAN + _FOOTER
    scale = (width if width is not None else 640) / full_w
    root = _el(None, "svg", xmlns=_NS, viewBox=f"0 0 {full_w} {full_h}",
               width=round(full_w * scale), height=round(full_h * scale), role="img")  # fmt: skip
    root.set("aria-label", "Pyramid solitaire position: " + _heading(game))
    felt = FACES["colors"]["felt" if theme == "light" else "felt_dark"]
    _el(root, "rect", width=full_w, height=full_h, rx=18, fill=felt)
    _caption(root, full_w / 2, 34, _heading(game), 20)
    mid = full_w / 2
    available = set(game.available())
    hidden = game.hidden
    for pos, card in enumerate(game.pyramid):
        if card is None:
            continue
        px, py = layout.places[pos]
        x, y = mid - tableau_w / 2 + px * _STEP / 2, _HEADER + py * _ROWSTEP
        if pos in hidden:
            _face_down(root, x, y)
            continue
        node = card_svg(card, x, y, "pyramid", dim=card not in available)
        if card not in available:
            node.set("data-covered", "true")
        root.append(node)
    for n, (zone, i) in enumerate(zones):
        x = mid + (n - (len(zones) - 1) / 2) * _STEP - _W / 2
        _slot(root, x, bottom)
        label = _zone(root, game, zone, i, x, bottom, available)
        _caption(root, x + _W / 2, bottom + _H + 2 * _FAN + 24, label)
    return ET.tostring(root, encoding="unicode")


def _zone(
    root: ET.Element, game: Game, zone: str, i: int, x: float, y: float, available: set[Card]
) -> str:
    """Draw one pile at (x, y); return its caption."""
    rules = game.rules
    if zone == "stock":
        stock = game.stock
        if stock and (rules.stock_face_up or rules.stock_top_available):
            root.append(card_svg(stock[0], x, y, "stock", dim=stock[0] not in available))
        elif stock:
            _back(root, x, y, len(stock))
        return f"Stock {len(stock)}"
    if zone == "waste":
        pile = game.wastes[i][-3:]
        for depth, card in enumerate(pile):
            top = depth == len(pile) - 1
            root.append(card_svg(card, x, y + depth * _FAN, "waste", dim=not top))
        several = len(game.wastes) > 1
        return (
            f"Waste {i + 1}: {len(game.wastes[i])}" if several else f"Waste {len(game.wastes[i])}"
        )
    if zone == "reserve":
        pile = game.reserves[i][-3:]
        for depth, card in enumerate(pile):
            top = depth == len(pile) - 1
            root.append(card_svg(card, x, y + depth * _FAN, "reserve", dim=not top))
        return f"Reserve {i + 1}: {len(game.reserves[i])}"
    if zone == "cell":
        held = game.cells[i]
        if held is not None:
            root.append(card_svg(held, x, y, "cell"))
        return "Cell"
    if game.discard:
        root.append(card_svg(game.discard[-1], x, y, "discard", dim=True))
    return f"Discard {len(game.discard)}"
