"""The static SVG picture of a position (``Game.svg()``, ``_repr_svg_``, the widget's mimebundle
fallback): golden checks of layout and card count on a few positions, parsed with
``xml.etree``; markup in a rule set's name stays text; the page draws its card faces from
the very data the SVG uses (one source, checked in Chromium)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.layout import row_col
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.rules import get_rules
from pyramid_widget.engine.svg import FACES, SVG, face
from pyramid_widget.widget import PyramidWidget
from tests.support.browser import SHORT_DEAL, SHORT_WIN, StaticServer, open_harness, widget_state

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def parse(game: Game, **options: Any) -> ET.Element:
    return ET.fromstring(game.svg(**options))


def cards(root: ET.Element, zone: str | None = None) -> list[ET.Element]:
    found = [g for g in root.iter(SVG + "g") if g.get("data-card")]
    return [g for g in found if zone is None or g.get("data-zone") == zone]


def place(node: ET.Element) -> tuple[float, float]:
    x, y = node.get("transform", "").removeprefix("translate(").rstrip(")").split()
    return float(x), float(y)


def test_a_fresh_deal_shows_the_whole_pyramid_and_the_stock_back() -> None:
    game = Game("medium", deal=7)
    root = parse(game)
    pyramid = cards(root, "pyramid")
    assert [g.get("data-card") for g in pyramid] == [
        card_str(c) for c in game.pyramid if c is not None
    ]
    assert len(pyramid) == 28 and len(cards(root)) == 28
    # the bottom row is available, every other card covered
    covered = {g.get("data-card") for g in pyramid if g.get("data-covered") == "true"}
    assert len(covered) == 21
    assert len([g for g in root.iter(SVG + "g") if g.get("data-zone") == "stock-back"]) == 1
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "Stock 24" in texts and "Waste 0" in texts and "Discard 0" in texts
    assert texts[0] == "medium · deal #7 · 0 moves · score 0 · redeals left 2 · playing"


def test_pyramid_geometry_rows_step_down_and_columns_centre() -> None:
    root = parse(Game("medium", deal=7))
    spots = [place(g) for g in cards(root, "pyramid")]
    width = float(root.get("viewBox", "").split()[2])
    for pos, (x, y) in enumerate(spots):
        row, col = row_col(pos)
        assert y == 52 + 70 * row
        assert x + 50 == pytest.approx(width / 2 + (col - row / 2) * 110)
    # the apex sits in the middle, each row one card wider than the one above
    assert spots[0][0] + 50 == width / 2
    assert spots[27][0] - spots[21][0] == 6 * 110


def test_after_draws_the_waste_fans_its_top_three_cards() -> None:
    game = Game("medium", deal=7)
    for _ in range(4):
        game.play("draw")
    root = parse(game)
    waste = cards(root, "waste")
    assert [g.get("data-card") for g in waste] == [card_str(c) for c in game.wastes[0][-3:]]
    assert [g.get("data-card") for g in waste if not _dimmed(g)] == [card_str(game.wastes[0][-1])]
    ys = [place(g)[1] for g in waste]
    assert ys == sorted(ys) and len(set(ys)) == 3  # fanned downwards, the top card last
    assert "Stock 20" in [t.text for t in root.iter(SVG + "text")]


def _dimmed(g: ET.Element) -> bool:
    return any(r.get("fill-opacity") == "0.26" for r in g.iter(SVG + "rect"))


def test_a_won_game_has_an_empty_pyramid_and_the_last_card_on_the_discard() -> None:
    game = Game("medium", deal=SHORT_DEAL)
    for move in SHORT_WIN.split():
        game.play(move)
    root = parse(game)
    assert cards(root, "pyramid") == []
    discard = cards(root, "discard")
    assert [g.get("data-card") for g in discard] == [card_str(game.discard[-1])]
    texts = [t.text for t in root.iter(SVG + "text")]
    assert texts[0].endswith("· won") and "Discard 28" in texts


def test_egypt_draws_three_wastes_and_a_cell_with_its_card() -> None:
    game = Game("egypt", deal=3)
    game.play("draw")
    card = game.wastes[0][-1]
    game.play(Move.to_cell(card))
    root = parse(game)
    assert [g.get("data-card") for g in cards(root, "cell")] == [card_str(card)]
    captions = [t.text for t in root.iter(SVG + "text")]
    counts = [len(p) for p in game.wastes]
    assert [f"Waste {i + 1}: {n}" for i, n in enumerate(counts)] == [
        c for c in captions if c and c.startswith("Waste ")
    ]
    assert "Cell" in captions
    # stock, three wastes, a cell and the discard: six slots in a row, wider than the pyramid
    assert float(root.get("viewBox", "").split()[2]) >= 6 * 110 + 100


def test_a_face_up_stock_shows_its_top_card() -> None:
    game = Game("relaxed", deal=7)
    root = parse(game)
    assert [g.get("data-card") for g in cards(root, "stock")] == [card_str(game.stock[0])]


def test_markup_in_a_rule_set_name_stays_text() -> None:
    rules = get_rules("medium").replace(name="<img src=x onerror=alert(1)>")
    root = parse(Game(rules, deal=7))
    assert not list(root.iter("img")) and not list(root.iter(SVG + "img"))
    assert next(root.iter(SVG + "text")).text.startswith("<img src=x onerror=alert(1)> · deal #7")


def test_width_and_theme() -> None:
    game = Game("medium", deal=7)
    root = parse(game, width=410)
    assert root.get("width") == "410" and root.get("height") == "430"
    felt = next(root.iter(SVG + "rect")).get("fill")
    assert felt == FACES["colors"]["felt"]
    assert (
        next(parse(game, theme="dark").iter(SVG + "rect")).get("fill")
        == FACES["colors"]["felt_dark"]
    )
    with pytest.raises(ValueError, match="theme must be 'light' or 'dark'"):
        game.svg(theme="blue")


def test_faces_every_card_and_refuse_a_card_that_is_not_one() -> None:
    for suit in "CDHS":
        for rank in range(1, 14):
            g = face(rank, suit)
            symbols = [n for n in g.iter("g") if "scale(" in n.get("transform", "")]
            # two corner symbols, then the rank's pips, the ace's one or the court's one
            centre = len(FACES["pips"].get(str(rank), [None]))
            assert len(symbols) == 2 + centre, (rank, suit)
            red = suit in "HD"
            assert g.get("fill") == FACES["colors"]["red" if red else "black"]
    with pytest.raises(ValueError, match="no card face"):
        face(14, "H")
    with pytest.raises(ValueError, match="no card face"):
        face(5, "X")


def test_repr_svg_and_the_widget_bundle_carry_the_same_picture() -> None:
    game = Game("medium", deal=7)
    assert game._repr_svg_() == game.svg()
    w = PyramidWidget("medium", deal=7, records=False)
    data, _meta = w._repr_mimebundle_()
    assert WIDGET_VIEW in data and "text/plain" in data
    assert data["image/svg+xml"] == w.game.svg()
    w.play("draw")
    assert "1 move ·" in w._repr_mimebundle_()[0]["image/svg+xml"]
    w.close()


@pytest.mark.browser
def test_the_page_draws_its_faces_from_the_same_data(
    page: Any, static_server: StaticServer
) -> None:
    """Each card face on the page has the very paths and circles of the SVG picture's face."""
    w = PyramidWidget("medium", deal=7, records=False)
    open_harness(page, static_server, w)
    page.wait_for_selector(".pyr-card[data-zone='pyramid']")
    for card in ("5C", "QS", "TD", "AH", "KS", "JD", "9S", "7D"):
        on_page = page.eval_on_selector(
            f".pyr-card[data-id='{card}'] svg",
            "s => [...s.querySelectorAll('path, circle, text')].map(n => n.tagName === 'text'"
            " ? 't:' + n.textContent : n.tagName === 'path' ? 'p:' + n.getAttribute('d')"
            " : `c:${n.getAttribute('cx')},${n.getAttribute('cy')},${n.getAttribute('r')}`)",
        )
        rank = "A23456789TJQK".index(card[0]) + 1
        g = face(rank, card[1])
        in_svg = [
            "t:" + (n.text or "") if n.tag == "text"
            else "p:" + n.get("d", "") if n.tag == "path"
            else f"c:{n.get('cx')},{n.get('cy')},{n.get('r')}"
            for n in g.iter() if n.tag in ("path", "circle", "text")
        ]  # fmt: skip
        assert sorted(on_page) == sorted(in_svg), card
    w.close()


@pytest.mark.browser
def test_the_page_has_no_faces_of_its_own(page: Any, static_server: StaticServer) -> None:
    """Without the ``faces`` trait (or with a damaged one) the page draws empty faces: it has
    no second copy of them, and it never puts unchecked face data into markup."""
    w = PyramidWidget("medium", deal=7, records=False)
    page.goto(static_server.url("tests/harness/index.html"))
    page.wait_for_function("window.harnessReady === true")
    state = {**widget_state(w), "faces": {**w.faces, "pips": {"5": [["<b>", 1]]}}}
    page.evaluate("s => window.harness.start(s, {})", state)
    page.wait_for_selector(".pyr-card[data-zone='pyramid']")
    counts = page.eval_on_selector_all(".pyr-card svg", "ns => ns.map(n => n.childElementCount)")
    assert len(counts) == 28 and set(counts) == {0}
    assert page.locator(".pyr-card svg b").count() == 0
    w.close()


def readme_position() -> Game:
    """The position the README pictures: ``medium`` deal 7 after the rule of thumb's first
    eight moves (some cards drawn, some pairs gone)."""
    from pyramid_widget.engine.hints import hint

    game = Game("medium", deal=7)
    for _ in range(8):
        move = hint(game)
        assert move is not None
        game.play(move)
    return game


def test_the_readme_picture_is_what_game_svg_draws_today() -> None:
    # Regenerate after a change to the drawing: open("docs/position.svg", "w").write(
    # readme_position().svg()) from the repository root, and look at it.
    from tests.support.browser import REPO

    picture = (REPO / "docs" / "position.svg").read_text(encoding="utf-8")
    assert picture == readme_position().svg()
    assert "![" in (REPO / "README.md").read_text(encoding="utf-8").split("docs/position.svg")[0]
