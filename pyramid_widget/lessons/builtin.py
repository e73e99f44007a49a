"""Lessons as data: the six built-in lessons (the five of docs/RULES.md section 5 and a whole game), and what a teacher needs
to write another one (:class:`Lesson`, :class:`Step`, :func:`at` and the goals).

A step is one small teaching moment on the real board: a hand-made position (only the cards
that matter), a one-sentence prompt, what counts as success (moves in ``accept`` and/or a
``goal`` tested after each move), an explanation for each anticipated mistake, a "why it
worked" text and the demo move(s) that "Show me" plays. The data model lives in
:mod:`pyramid_widget.lessons.model`; everything is re-exported here.

>>> [lesson.title for lesson in LESSONS]
['Pairs to 13', 'Kings clear alone', 'Covered cards', 'The waste', 'The stock and redeals', 'A whole game']
>>> first = LESSONS[0].steps[0]
>>> first.prompt, first.accept
('Which card pairs with this Five? Click the Five, then its partner.', ('5H+8C',))

A lesson of your own, in a notebook cell:

>>> mine = Lesson("Sevens", [Step("Pair the Seven.", {at(7, 1): "7H", at(7, 2): "6S"},
...                               accept=["7H+6S"], why="7 + 6 = 13.")])
>>> mine
<Lesson 'Sevens': 1 steps>
"""

from __future__ import annotations

from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.game import Game
from pyramid_widget.lessons.model import (
    MISTAKE_KINDS,
    Goal,
    Lesson,
    LessonError,
    Step,
    at,
    both,
    game_lost,
    on_pass,
    on_top,
    pyramid_cleared,
    removed,
    undone,
)

__all__ = [
    "COVERED_CARDS",
    "KINGS",
    "LESSONS",
    "MISTAKE_KINDS",
    "PAIRS_TO_13",
    "REDEALS",
    "THE_WASTE",
    "WHOLE_GAME",
    "Goal",
    "Lesson",
    "LessonError",
    "Step",
    "at",
    "both",
    "game_lost",
    "on_pass",
    "on_top",
    "pyramid_cleared",
    "removed",
    "undone",
]

# -- the five built-in lessons (docs/RULES.md section 5) -------------------------------------------

_COVER = "A pyramid card is available only when both cards below it (in the next row) are gone."

PAIRS_TO_13 = Lesson(
    "Pairs to 13",
    intro="Cards leave the pyramid in pairs whose values add up to 13. Number cards count "
    "their number; Ace = 1, Jack = 11, Queen = 12, King = 13. Suits never matter.",
    summary="The pairs are A+Q, 2+J, 3+10, 4+9, 5+8 and 6+7, in any suits.",
    steps=[
        Step(
            "Which card pairs with this Five? Click the Five, then its partner.",
            {at(7, 1): "5H", at(7, 3): "9D", at(7, 5): "8C", at(7, 7): "7S"},
            accept=["5H+8C"],
            mistakes={
                "5H+9D": "5 + 9 = 14, one too many. The Five needs a card worth 8.",
                "5H+7S": "5 + 7 = 12, one short. The Five needs a card worth 8.",
            },
            why="5 + 8 = 13, so the Five and the Eight leave together. Every pair adds up to "
            "exactly 13.",
        ),
        Step(
            "Suits never matter: pair the Four of spades with a card worth 9.",
            {at(7, 2): "4S", at(7, 3): "8S", at(7, 5): "9D", at(7, 6): "6C"},
            accept=["4S+9D"],
            mistakes={
                "4S+8S": "Same suit does not help: 4 + 8 = 12. Only the values count.",
                "4S+6C": "4 + 6 = 10, not 13. The Four needs a Nine (4 + 9 = 13).",
            },
            why="4 + 9 = 13. A black Four pairs with a red Nine: suits never matter.",
        ),
        Step(
            "A Jack is worth 11. Which card pairs with it?",
            {at(7, 1): "3H", at(7, 3): "JD", at(7, 5): "2C", at(7, 7): "QS"},
            accept=["2C+JD"],
            mistakes={
                "3H+JD": "Jack (11) + 3 = 14, not 13. A Jack needs a Two.",
                "JD+QS": "Jack (11) + Queen (12) = 23: far too many. A Jack needs a Two.",
            },
            why="Jack = 11, and 11 + 2 = 13.",
        ),
        Step(
            "A Queen is worth 12 and an Ace is worth 1. Pair the Queen.",
            {at(7, 2): "QH", at(7, 4): "3D", at(7, 6): "AS", at(7, 7): "5C"},
            accept=["AS+QH"],
            mistakes={
                "3D+QH": "{reason}. A Queen (12) needs an Ace (1).",
                "5C+QH": "{reason}. A Queen (12) needs an Ace (1).",
            },
            why="Queen = 12 and Ace = 1: 12 + 1 = 13.",
        ),
        Step(
            "Clear the whole pyramid: remove every pair that adds up to 13.",
            {
                at(7, 1): "6C",
                at(7, 2): "TS",
                at(7, 3): "4D",
                at(7, 4): "7D",
                at(7, 5): "3H",
                at(7, 6): "9C",
            },
            goal=pyramid_cleared(),
            allow=["pair"],
            demo=["6C+7D", "3H+TS", "4D+9C"],
            progress="Good, that pair adds up to 13. Keep going.",
            why="6 + 7, 10 + 3 and 4 + 9: three pairs, each adding up to 13. An empty pyramid "
            "wins the game.",
        ),
        Step(
            "Under cheops, cards pair when their ranks are the same or next to each other, "
            "not to 13. Pair the Five.",
            {at(7, 1): "5H", at(7, 3): "8C", at(7, 5): "4D", at(7, 7): "TS"},
            rules="cheops",
            accept=["4D+5H"],
            mistakes={
                "5H+8C": "5 + 8 = 13 pairs in classic Pyramid, but not under cheops: there, "
                "ranks must be the same or next to each other (a Five pairs with 4, 5 or 6).",
                "5H+TS": "{reason}. Under cheops a Five pairs with a 4, a 5 or a 6.",
                "no-match": "{reason}. Under cheops two cards pair only when their ranks are the "
                "same or next to each other.",
            },
            why="Four and Five are next to each other, so under cheops they pair. (Ranks do not "
            "wrap: an Ace pairs with an Ace or a Two, never with a King.)",
        ),
    ],
)

KINGS = Lesson(
    "Kings clear alone",
    intro="A King is worth 13 all by itself, so it needs no partner: an available King is "
    "removed alone. Click it once and it leaves.",
    summary="Kings go alone in every rule set except cheops, where a King pairs with a Queen "
    "or a King.",
    steps=[
        Step(
            "A King is worth 13 on its own. Remove the King: click it.",
            {at(7, 2): "5D", at(7, 4): "KS", at(7, 6): "3C"},
            accept=["KS"],
            mistakes={"no-match": "{reason}. Here only the King can go, and it goes alone."},
            why="King = 13, so a King needs no partner: it leaves on its own.",
        ),
        Step(
            "Clear the King and the Queen.",
            {at(7, 2): "KH", at(7, 4): "QD", at(7, 6): "AC", at(7, 7): "5S"},
            goal=removed("KH", "QD"),
            allow=["pair", "king"],
            demo=["KH", "AC+QD"],
            mistakes={
                "KH+QD": "King + Queen = 13 + 12 = 25, not 13. A King never pairs: it goes "
                "alone. The Queen needs an Ace.",
            },
            progress="Right. Now the other one.",
            why="The King went alone (13), and the Queen went with the Ace (12 + 1 = 13).",
        ),
        Step(
            "Two Kings: remove them both, one at a time.",
            {at(7, 1): "KC", at(7, 3): "9S", at(7, 4): "6H", at(7, 7): "KD"},
            goal=removed("KC", "KD"),
            allow=["king"],
            demo=["KC", "KD"],
            mistakes={"no-match": "{reason}. Each King leaves on its own: click it."},
            progress="One King gone. Now the other.",
            why="Each King is worth 13 by itself, so each one leaves alone.",
        ),
        Step(
            "Under cheops, Kings are not removed alone: pair this King with a Queen.",
            {at(7, 2): "KH", at(7, 4): "5D", at(7, 6): "QC"},
            rules="cheops",
            accept=["KH+QC"],
            mistakes={
                "king-alone": "Under cheops a King never leaves alone: pair it with a Queen or "
                "another King (the same or the next rank).",
            },
            why="Under cheops ranks next to each other pair, so King and Queen go together.",
        ),
    ],
)

COVERED_CARDS = Lesson(
    "Covered cards",
    intro="Every card in the pyramid is face up, but a card can be played only when it is "
    "uncovered: both cards below it, in the next row, must be gone first.",
    summary="Seeing a card is not enough: it must be uncovered. " + _COVER,
    steps=[
        Step(
            "The Queen and the Ace total 13, but can they go? Find the pair that can.",
            {at(6, 1): "QH", at(7, 1): "5C", at(7, 2): "8D", at(7, 4): "AS"},
            accept=["5C+8D"],
            mistakes={
                "AS+QH": "A covered Queen cannot pair with an Ace, even though they total 13: "
                "both cards below it (the 5 of clubs and the 8 of diamonds) must be gone first.",
                "covered": "{reason}. " + _COVER,
            },
            why="5 + 8 = 13 and both were uncovered. With them gone, nothing covers the Queen "
            "any more.",
        ),
        Step(
            "The Queen is uncovered now. Pair it with the Ace.",
            {at(6, 1): "QH", at(7, 4): "AS", at(7, 6): "4C"},
            accept=["AS+QH"],
            why="Both cards that covered the Queen are gone, so it is available: 12 + 1 = 13.",
        ),
        Step(
            "One card still covers the Nine: the Four. Find the pair that can go.",
            {at(6, 1): "9C", at(7, 1): "4D", at(7, 3): "6H", at(7, 4): "7S"},
            accept=["6H+7S"],
            mistakes={
                "4D+9C": "4 + 9 = 13, but the Nine is still covered by the Four: a card is not "
                "available while even one card covers it, not even to pair with that card.",
            },
            why="6 + 7 = 13 with two uncovered cards. The Nine must wait until the Four has gone "
            "with another partner.",
        ),
        Step(
            "Remove the King. It is covered, so clear what is on it first.",
            {at(6, 2): "KD", at(7, 2): "6C", at(7, 3): "7S", at(7, 5): "2H"},
            goal=removed("KD"),
            allow=["pair", "king"],
            demo=["6C+7S", "KD"],
            mistakes={"covered": "{reason}. Even a King must be uncovered before it can go."},
            progress="Good: the King is uncovered now.",
            why="The Six and the Seven covered the King. Once they were gone, the King could "
            "leave alone.",
        ),
        Step(
            "Clear the pyramid: each pair you remove uncovers the next cards.",
            {
                at(5, 1): "KH",
                at(6, 1): "TS",
                at(6, 2): "8C",
                at(7, 1): "4C",
                at(7, 2): "9D",
                at(7, 3): "3H",
                at(7, 4): "5D",
            },
            goal=pyramid_cleared(),
            allow=["pair", "king"],
            demo=["4C+9D", "3H+TS", "5D+8C", "KH"],
            mistakes={"covered": "{reason}. " + _COVER},
            progress="Good. Look which cards that uncovered, and go on.",
            why="Each pair uncovered the cards above it, until the King at the top was free.",
        ),
    ],
)

THE_WASTE = Lesson(
    "The waste",
    intro="Cards drawn from the stock go face up onto the waste pile. The top waste card is "
    "available: it pairs with an uncovered pyramid card. The cards under it are not.",
    summary="Only the top waste card is available; it pairs with an uncovered pyramid card "
    "(or goes alone if it is a King).",
    steps=[
        Step(
            "The face-up card beside the stock is the top of the waste. Pair it with a pyramid "
            "card.",
            {at(7, 2): "9H", at(7, 4): "5S", at(7, 6): "JC"},
            stock=["2S"],
            wastes=[["4D"]],
            accept=["4D+9H"],
            mistakes={
                "draw": "No need to draw yet: the Four on the waste already has a partner in the "
                "pyramid.",
            },
            why="4 + 9 = 13: the top waste card pairs with an uncovered pyramid card.",
        ),
        Step(
            "Only the top waste card is available. Pair the top card of the waste.",
            {at(7, 2): "5D", at(7, 4): "TS", at(7, 6): "QC"},
            wastes=[["8C", "3H"]],
            accept=["3H+TS"],
            mistakes={
                "5D+8C": "5 + 8 = 13, but the Eight is under the Three: only the top waste card "
                "is available. Play the Three first.",
                "buried": "{reason}. Only the top waste card is available.",
            },
            why="3 + 10 = 13. Now the Eight is on top of the waste and available.",
        ),
        Step(
            "Now the Eight is on top. Clear the pyramid with its help.",
            {at(6, 1): "5D", at(7, 1): "AH", at(7, 2): "QC"},
            wastes=[["8C"]],
            goal=pyramid_cleared(),
            allow=["pair"],
            demo=["AH+QC", "5D+8C"],
            mistakes={"covered": "{reason}. " + _COVER},
            progress="Good: the Five is uncovered now.",
            why="The waste card waited on top until the Five was uncovered, then 5 + 8 = 13.",
        ),
        Step(
            "A King on top of the waste goes alone too. Clear the King, then the card under it.",
            {at(7, 4): "7C"},
            wastes=[["6H", "KS"]],
            goal=pyramid_cleared(),
            allow=["king", "pair"],
            demo=["KS", "6H+7C"],
            mistakes={
                "buried": "The Six is under the King, so it is not available. Remove the King "
                "first (it goes alone); then the Six is on top.",
            },
            progress="The King is gone and the Six is on top now.",
            why="Removing the top waste card uncovered the one beneath it: 6 + 7 = 13.",
        ),
        Step(
            "Two waste cards never pair with each other here. Pair the top waste card with the "
            "pyramid.",
            {at(7, 3): "9C", at(7, 5): "JD"},
            wastes=[["9S", "4H"]],
            accept=["4H+9C"],
            mistakes={
                "4H+9S": "4 + 9 = 13, but the Nine of spades is under the Four on the same pile: "
                "with one waste pile, two waste cards can never pair.",
            },
            why="4 + 9 = 13 with the pyramid's Nine. With one waste pile only its top card is "
            "ever available.",
        ),
        Step(
            "Under apophis there are three waste piles, and their tops may pair with each other. "
            "Pair two waste cards.",
            {at(7, 4): "6D"},
            rules="apophis",
            wastes=[["5H"], ["8C"], ["4S"]],
            accept=["5H+8C"],
            mistakes={"no-match": "{reason}. Look for two waste tops that make 13."},
            why="5 + 8 = 13, two waste tops. Under apophis every waste top is available, so two "
            "of them can pair; with one pile (medium) that can never happen.",
        ),
    ],
)

REDEALS = Lesson(
    "The stock and redeals",
    intro="The face-down stock feeds the waste one card at a time. When it runs out you may "
    "turn the waste over and go through it again (a redeal), as often as the rules allow.",
    summary="Each draw buries the previous waste card. medium allows three passes (two "
    "redeals) and hard one. easy allows any number, but a game there is lost when a whole pass "
    "removed nothing and, with the stock empty, nothing can be removed.",
    steps=[
        Step(
            "Click the stock (the face-down pile) to draw a card onto the waste.",
            {at(7, 2): "6C", at(7, 5): "2H"},
            stock=["7D", "TS"],
            accept=["draw"],
            why="Drawing turns the next stock card face up onto the waste. Drawing never removes "
            "a card: the Seven waits there for you to pair it.",
        ),
        Step(
            "The Seven on the waste pairs with the Six. Pair them now, before you draw again.",
            {at(7, 2): "6C", at(7, 5): "2H"},
            stock=["TS", "3C"],
            wastes=[["7D"]],
            accept=["6C+7D"],
            mistakes={
                "draw": "If you draw now, the Ten lands on the Seven and buries it: the Seven "
                "would not be available until the Ten is gone. Pair the Seven first.",
            },
            why="6 + 7 = 13. Each draw buries the top waste card, so pair it while you can.",
        ),
        Step(
            "The stock is empty. Click it to redeal: the waste turns over into a new stock.",
            {at(7, 2): "JD", at(7, 5): "5C"},
            wastes=[["9H", "2C", "4S"]],
            accept=["redeal"],
            mistakes={
                "JD+2C": "Jack + 2 = 13, but the Two is under the Four: only the top waste card "
                "is available. Redeal to go through the cards again.",
                "empty-stock": "The stock is empty: there is nothing to draw. Click it to redeal.",
            },
            why="The waste became the stock again, in the order the cards were first drawn. That "
            "was one of the two redeals medium allows (three passes in all).",
        ),
        Step(
            "Second pass: draw until the Two is on top, then pair it with the Jack.",
            {at(7, 2): "JD", at(7, 5): "5C"},
            stock=["9H", "2C"],
            pass_number=2,
            accept=["2C+JD"],
            allow=["draw"],
            demo=["draw", "draw", "2C+JD"],
            progress="Keep drawing until the Two is on top.",
            why="Jack + 2 = 13. On the second pass the cards came out in the same order as on "
            "the first: the Nine, then the Two.",
        ),
        Step(
            "This is pass 3 of 3 and the stock is empty. Can you redeal? Make the move that is "
            "left.",
            {at(7, 2): "5H", at(7, 5): "AC"},
            wastes=[["6D", "QS"]],
            pass_number=3,
            accept=["AC+QS"],
            mistakes={
                "redeal": "No redeal is left: medium allows three passes through the stock (the "
                "first and two redeals), and this is the third. Play what you can instead.",
                "empty-stock": "The stock is empty and no redeal is left. Play what you can.",
            },
            why="12 + 1 = 13. After this no move is left: the stock is empty, no redeal remains, "
            "and the game is over.",
        ),
        Step(
            "Under easy, redeals never run out, but a game is lost when a whole pass removed "
            "nothing and, once the stock is empty, no pair or King can go. This pass has removed "
            "nothing yet: draw the last card.",
            {at(7, 2): "7D", at(7, 5): "9C"},
            rules="easy",
            stock=["8H"],
            wastes=[["4C", "JS"]],
            pass_number=2,
            accept=["draw"],
            why="The whole pass removed nothing, and with the stock empty no pair or King can "
            "go, so the easy stall rule ends the game even though redeals are unlimited.",
        ),
        Step(
            "Under easy again: remove the pair first, then draw the last card and redeal.",
            {at(7, 2): "7D", at(7, 4): "6C", at(7, 6): "3S"},
            rules="easy",
            stock=["8H"],
            wastes=[["4C", "JS"]],
            pass_number=2,
            goal=both(removed("6C", "7D"), on_pass(3)),
            allow=["pair", "draw", "redeal"],
            demo=["6C+7D", "draw", "redeal"],
            progress="Good. Remove the pair, empty the stock and redeal.",
            why="The pair is gone and a new pass has begun. Under easy you may redeal again and "
            "again: the stall rule ends a game only when a whole pass removed nothing and no "
            "pair or King can go once the stock is empty, and this pass had the Six and the "
            "Seven to remove.",
        ),
    ],
)

# -- lesson 6: a whole game -------------------------------------------------------------------

#: The guided game: a real deal (``hard``, deal 268) that the solver wins in 32 moves, its
#: shortest line; ``tests/lessons`` checks both against the solver.
WHOLE_GAME_RULES, WHOLE_GAME_DEAL = "hard", 268
_DEAL = Game(WHOLE_GAME_RULES, WHOLE_GAME_DEAL)
_DEAL_PYRAMID = [None if c is None else card_str(c) for c in _DEAL.pyramid]
_DEAL_STOCK = [card_str(c) for c in _DEAL.stock]
WHOLE_GAME_LINE = [
    "4C+9D",
    "3C+TC",
    "2D+JC",
    "2H+JH",
    "KH",
    "draw",
    "4D+9S",
    "draw",
    "draw",
    "draw",
    "draw",
    "draw",
    "6C+7S",
    "3D+TS",
    "AC+QD",
    "6D+7D",
    "KD",
    "draw",
    "draw",
    "3S+TD",
    "4H+9H",
    "6H+7C",
    "KC",
    "draw",
    "draw",
    "AH+QH",
    "draw",
    "draw",
    "4S+9C",
    "AD+QS",
    "draw",
    "5S+8S",
]

WHOLE_GAME = Lesson(
    "A whole game",
    intro="Now all of it together: a real deal, the tools to take a move back, and a full game "
    "from the first move to the win.",
    summary="You played a whole game: pairs to 13, Kings alone, covered cards, the waste and the "
    "stock. Undo takes a move back; some deals cannot be won however well you play.",
    steps=[
        Step(
            "This is a whole deal under hard: 28 cards in the pyramid, 24 face down in the "
            "stock, one pass. You win when the pyramid is empty. Start with a pair of the bottom "
            "row.",
            _DEAL_PYRAMID,
            stock=_DEAL_STOCK,
            rules=WHOLE_GAME_RULES,
            accept=["4C+9D", "3C+TC"],
            demo=["4C+9D"],
            mistakes={
                "draw": "Not yet: the bottom row already has pairs that make 13. Under hard the "
                "stock goes by only once, so draw when the pyramid has no pair left to give.",
            },
            why="A pair of the bottom row leaves, and the cards above it come closer to being "
            "uncovered. The goal is always the same: empty the pyramid.",
        ),
        Step(
            "Take a move back: remove the Five and the Eight, then press Undo on the board.",
            {at(7, 2): "5H", at(7, 4): "8C", at(7, 6): "KS", at(7, 7): "2D"},
            goal=undone("5H+8C"),
            allow=["pair", "king"],
            demo=["5H+8C", "undo"],
            mistakes={
                "KS": "Not the King this time: remove the Five and the Eight, then press Undo."
            },
            controls=["undo"],
            progress="Now press Undo (above the board) to take it back.",
            why="Undo takes back the last move (draws count too; up to 100 moves here). "
            "Restart step below sets the whole position up again.",
        ),
        Step(
            "Not every deal can be won. Each Nine needs the Four, but the Four is covered by "
            "the Nines. Draw the stock card and see.",
            {at(6, 1): "4S", at(7, 1): "9D", at(7, 2): "9H"},
            stock=["2C"],
            rules="hard",
            goal=game_lost(),
            allow=["draw"],
            demo=["draw"],
            why="No move is left, so the game is lost, and it was lost from the start: the Four "
            "can only leave with a Nine, and both Nines wait for the Four. Some deals are like "
            "that; the solver (the Can I win? button in 00_play) can prove it.",
        ),
        Step(
            "Now play the whole deal. The solver watches every move and tells you at once if one "
            "throws the win away. Clear the pyramid.",
            _DEAL_PYRAMID,
            stock=_DEAL_STOCK,
            rules=WHOLE_GAME_RULES,
            goal=pyramid_cleared(),
            allow=["any"],
            demo=WHOLE_GAME_LINE,
            controls=["undo"],
            solver_checks=True,
            progress="Good: the win is still in hand.",
            why="The pyramid is empty: you won a whole game of Pyramid from the first move to "
            "the last.",
        ),
    ],
)

#: The built-in lessons, in order: the five of docs/RULES.md section 5 and a whole game.
LESSONS: tuple[Lesson, ...] = (
    PAIRS_TO_13,
    KINGS,
    COVERED_CARDS,
    THE_WASTE,
    REDEALS,
    WHOLE_GAME,
)
