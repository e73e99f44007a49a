"""Dead-position tests and the table of every pruning rule of the solver.

:data:`PRUNING_RULES` is the one index: each rule has a stable id (docstrings cite it as
"rule ``reach``"), a one-line statement, the precondition under which it is sound, and the
functions that carry it out (a test checks that every one exists). The argument for each
rule is in the docstring of its first function. The modules here hold the tests that look
at a whole position: :mod:`.relax` (the free-stock relaxation), :mod:`.dig` (how deep the
last pass can dig the waste), :mod:`.piles` (several waste piles and the free cell) and
:mod:`.endgame` (the game left once the stock is dealt out on the last pass).

Every rule holds for any position :meth:`Game.from_position
<pyramid_widget.engine.game.Game.from_position>` accepts, not only for deals: covering is
taken along chains of cards actually in the pyramid (``Model.chains``), never from the full
geometry (issue 14).

The rules without a ``g-`` prefix are those of the classic model, which takes only the rule
sets of the classic shape (:func:`pyramid_widget.solver.general.fits_classic`: the seven
original presets, Dark Pyramid and rule sets like them). Every other
rule set (other layouts, two decks, reserves, overlap discards, the waste pair, sum-11 or
sum-12 pairing) is searched by :mod:`pyramid_widget.solver.general` with the ``g-`` rules
only (and ``transposition``), each argued from the rule set's data and checked against the
plain search on small positions of every shape (``tests/solver/test_family_exhaustive.py``).

>>> rule = RULES_BY_ID["reach"]
>>> rule.where[0]
'pyramid_widget.solver.model.needs_mask'
>>> len(RULES_BY_ID) == len(PRUNING_RULES)
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PruningRule:
    """One pruning rule: ``id``, what it says, when it is sound, and where it lives."""

    id: str
    statement: str
    precondition: str
    where: tuple[str, ...]
    """Dotted names of the functions (or methods) that carry it out, the argument first."""


_S = "pyramid_widget.solver."

PRUNING_RULES: tuple[PruningRule, ...] = (
    PruningRule(
        "kings-first",
        "An available King that goes alone and pairs with nothing is removed at once, the "
        "only move generated.",
        "Kings go alone under sum-13 pairing. Outside the pyramid: one card a draw, or a "
        "waste King on the last pass (taking a deck card away changes how later draws of "
        "several cards group the rest); not in shortest mode under a pyramid-only win.",
        (_S + "model.Switches", _S + "moves.expand", _S + "macro.candidates"),
    ),
    PruningRule(
        "reach",
        "A card that must go with no partner left that could ever meet it loses; a partner "
        "it covers or that covers it through a chain of cards, or in a zone that never "
        "pairs, cannot.",
        "No free cell (with one, nothing is required here). Covering along chains of cards "
        "present at the root, so any pyramid shape.",
        (
            _S + "model.needs_mask",
            _S + "model.covering_chains",
            _S + "model.Model.is_dead",
            _S + "moves.dead_after",
        ),
    ),
    PruningRule(
        "hall",
        "The cards that must go each need a partner of their own that they could meet (a "
        "matching): per rank class under sum-13 pairing, over all cards under adjacent ranks.",
        "As ``reach`` (it matches over ``Model.needs``).",
        (
            _S + "model.own_partners",
            _S + "model.Model.counts_ok",
            _S + "moves.dead_after",
            _S + "shortest_macro._OwnPartners",
        ),
    ),
    PruningRule(
        "free-stock",
        "If the pyramid cannot be cleared when every stock and waste card may be played at "
        "any time, it cannot be cleared at all.",
        "No cell, or (with the cell variant, rule ``pile-free-stock``) at most one.",
        (
            _S + "prune.relax.FreeStock",
            _S + "prune.relax.free_stock_wins",
            _S + "shortest_macro.macro_a_star",
        ),
    ),
    PruningRule(
        "free-stock-saturated",
        "In the free-stock game a card of a rank class whose deck holds a partner for every "
        "pyramid card of the class is removed with a deck card at once.",
        "Sum-13 pairing, pyramid cards may pair with deck cards; with a card in the cell, "
        "the cell may pair with deck cards too, and a pyramid card there counts in its class.",
        (_S + "prune.relax.FreeStock._saturated",),
    ),
    PruningRule(
        "last-pass-burial",
        "On the last pass a waste card with no partner left stays for good: the cards under "
        "it are inert, and a pyramid card whose partners all lie there is lost.",
        "One waste pile, no redeal left.",
        (_S + "macro.buried_under", _S + "macro.buried", _S + "prune.dig.buried_by"),
    ),
    PruningRule(
        "transposition",
        "A position no better than one already searched (same cards, later pass or further "
        "into the draw closure) is not searched again.",
        "None (any position).",
        (
            _S + "decide_moves._dominated",
            _S + "decide_moves.dominance",
            _S + "decide_macro.macro_dive",
        ),
    ),
    PruningRule(
        "rank-order",
        "Positions with the same pyramid cards and the same ranks in the same order in the "
        "waste and in the stock, in the same pass, are searched as one (the one whose deck "
        "cards lie lowest); its line is renamed onto the real cards. In the move-by-move "
        "search, positions of the last pass with the same pyramid cards, the same ranks in "
        "the same order on each waste pile and in the stock and the same cell contents "
        "(deck cards by rank) are kept once, the cheaper.",
        "Pairing, lone Kings and the win depend on ranks only (every pairing of the classic "
        "model); one waste pile (the macro moves), or no redeal left (the move-by-move "
        "search: a redeal deals the deck cards in slot order across the piles).",
        (
            _S + "shortest_macro.RankOrder",
            _S + "shortest_macro.macro_a_star",
            _S + "shortest_moves.RankKey",
        ),
    ),
    PruningRule(
        "one-pass-lost",
        "Positions one search proved lost are skipped by the later searches.",
        "One pass (no position comes round again).",
        (_S + "decide_moves.depth_first",),
    ),
    PruningRule(
        "earliest-stop",
        "A macro move tries a removal only at the earliest stop of the draw closure where "
        "it is possible.",
        "Macro moves: one waste pile, one card a draw, no cell, pyramid-only win.",
        (_S + "macro.candidates",),
    ),
    PruningRule(
        "forced-pair",
        "A card that must go whose one partner left that could meet it is available with "
        "it is removed with it at once, the only move.",
        "Macro moves; built on ``reach``.",
        (_S + "macro.candidates", _S + "macro._last_pass"),
    ),
    PruningRule(
        "no-draw-past",
        "No stop past the first point where a removal that must come (a King alone, or a "
        "card's one partner) is possible.",
        "Macro moves; built on ``reach`` and ``kings-first``.",
        (_S + "macro.candidates", _S + "macro._last_pass"),
    ),
    PruningRule(
        "dig",
        "The waste cards a win removes are a prefix of today's waste from the top: some "
        "depth must let every card that must go be matched, class by class.",
        "One waste pile, last pass, sum-13 pairing.",
        (_S + "prune.dig.dig_dead",),
    ),
    PruningRule(
        "pile-partners",
        "With a cell, a card that must go needs a partner left in play, Hall's condition "
        "holding per rank class.",
        "A move-by-move search with several piles or a cell.",
        (_S + "prune.piles.PileCheck._partners_ok",),
    ),
    PruningRule(
        "pile-stuck-cell",
        "A card in a cell with no partner left never leaves; when every cell holds one, "
        "the cell-free rules apply.",
        "A cell.",
        (_S + "prune.piles.PileCheck._stuck_in_cells", _S + "prune.piles.PileCheck._cell_usable"),
    ),
    PruningRule(
        "pile-strict-needs",
        "Without a usable cell, cards covering each other (chains of cards in the pyramid, or "
        "order in a waste pile on the last pass) never meet.",
        "No usable cell; pile order on the last pass only.",
        (_S + "prune.piles.strict_needs", _S + "prune.piles.PileCheck._columns"),
    ),
    PruningRule(
        "pile-burial",
        "On the last pass a pile card that can never be removed buries the cards under it.",
        "Several piles, last pass, no usable cell.",
        (_S + "prune.piles.PileCheck._buried", _S + "prune.piles.PileCheck._stuck_from"),
    ),
    PruningRule(
        "pile-burial-cell",
        "With c usable cells, at most c cards with no partner ever leave the piles: from "
        "the (c + 1)-th of a pile down, everything stays.",
        "Several piles, last pass, usable cells.",
        (_S + "prune.piles.PileCheck._buried_usable", _S + "prune.piles.PileCheck._stuck_from"),
    ),
    PruningRule(
        "pile-free-stock",
        "The free-stock game with the deck cards still live, an uncovered pyramid card "
        "allowed into the cell.",
        "At most one usable cell (the relaxed game has one).",
        (_S + "prune.piles.PileCheck._free_ok",),
    ),
    PruningRule(
        "forced-order",
        "The order the removals are forced into (covering, pile order, partners' covers) "
        "must have no cycle and leave every card a partner not forced before it.",
        "Every card must go, no cell, last pass, several piles.",
        (
            _S + "prune.piles.PileCheck._deadlocked",
            _S + "prune.piles._above",
            _S + "prune.piles._peel",
        ),
    ),
    PruningRule(
        "pile-forced-pair",
        "A card that must go whose single partner left is available with it: only that pair.",
        "Last pass, no stock card available, no stall rule.",
        (_S + "prune.piles.PileCheck.expand",),
    ),
    PruningRule(
        "cell-follow-up",
        "A cell move is searched only together with a next move that uses a card it freed.",
        "One pass and one cell. A card whose cell pairs with a zone its own zone does not (say "
        "cell+stock without pyramid+stock) counts as freed by its own cell move.",
        (
            _S + "prune.piles.PileCheck.cell_follow_ups",
            _S + "decide_moves._dive",
            _S + "shortest_moves._fused",
        ),
    ),
    PruningRule(
        "empty-stock",
        "With the stock dealt out on the last pass, the A* first searches a position's "
        "empty-stock game (removals and parks only) depth first for a win within the "
        "position's level; with none it queues the position again at the bound that search "
        "found (none: it is dropped). That search takes an available pyramid King or a "
        "forced pair at once, a park only with a follow-up, stops where the removal count "
        "plus the pairs the rank classes can make apart beyond the most one clearing order "
        "makes (rule bound-dig) exceeds the moves left, and remembers its answers for the "
        "solve.",
        "Sum-13 pairing with Kings alone, a pyramid-only win, any two available cards pairing "
        "(pyramid, waste tops, cell), at most one cell, no stall rule, no stock top play, the "
        "root on the last pass; the move-by-move shortest search.",
        (
            _S + "prune.endgame.EmptyStock.within",
            _S + "shortest_moves.MoveBound.settled",
            _S + "shortest_moves.a_star",
        ),
    ),
    PruningRule(
        "stock-king-barrier",
        "Shortest mode never draws a King that goes alone and pairs with nothing: while one "
        "is the stock top only removals at this stop are tried.",
        "Shortest mode on macro moves, stock top available, no stall rule.",
        (_S + "shortest_macro._king_barriers",),
    ),
    PruningRule(
        "draw-dominance",
        "Shortest mode skips a position another queued one reaches by draws at no greater cost.",
        "Shortest mode on macro moves (across a redeal: no stall rule, or unlimited passes).",
        (_S + "shortest_macro._Dominance",),
    ),
    PruningRule(
        "bound-removals",
        "A* bound: the removals still needed (pairs per rank class that can meet).",
        "Admissible for any position (covering along chains of cards).",
        (
            _S + "search.lower_bound",
            _S + "shortest_moves.pyramid_moves",
            _S + "shortest_macro.Tables.removals",
        ),
    ),
    PruningRule(
        "bound-draws",
        "A* bound: the draws still needed before partners in the stock come out.",
        "No stock card available (played only once dealt).",
        (_S + "shortest_moves.deal_bound", _S + "shortest_macro.draws_bound"),
    ),
    PruningRule(
        "g-reach",
        "A card that must go with no partner left that could ever meet it loses: not one "
        "linked to it by a chain of covering cards (but its direct cover under overlap "
        "discards), not one of its own reserve pile, not two deck cards with one deck place "
        "available, not a zone that never pairs.",
        "Any rule set of the general search; with a free cell every partner counts.",
        (_S + "general.GeneralModel._needs", _S + "general.Generator.dead"),
    ),
    PruningRule(
        "g-hall",
        "The cards that must go each need a partner of their own that they could meet: per "
        "pairing component of values after a removal (when components have at most three "
        "values), over all cards at the root.",
        "As ``g-reach``.",
        (
            _S + "general._matching",
            _S + "general.GeneralModel.is_dead",
            _S + "general.Generator.dead",
        ),
    ),
    PruningRule(
        "g-lone-first",
        "An available King that goes alone and pairs with no card left is removed at once, "
        "the only move.",
        "Kings go alone; a deck King only with one card a draw onto one waste, or a waste "
        "King on the last pass; not a King outside the tableau in shortest mode under a "
        "pyramid-only win; no stall rule with limited passes.",
        (_S + "general.Generator", _S + "general.Generator.expand"),
    ),
    PruningRule(
        "g-forced-pair",
        "A card that must go whose one partner left that could meet it is removable with it "
        "now is removed with it, the only move.",
        "As ``g-lone-first`` for deck cards and the stall rule.",
        (_S + "general.Generator", _S + "general.Generator.expand"),
    ),
    PruningRule(
        "g-last-pass-burial",
        "On the last pass a waste card meets no card of its own pile (under the waste pair: "
        "only its neighbours there); a card that must go with no partner left then loses, "
        "and Hall's condition is checked on these limited partners.",
        "No redeal left, no free cell.",
        (_S + "general.Generator.last_needs",),
    ),
    PruningRule(
        "g-stall-root",
        "The stall rule binds only in the pass the search starts in: later, a pass that "
        "removes nothing brings back the position it started from.",
        "Unlimited passes, no free cell.",
        (_S + "general.Generator", _S + "general.GeneralModel"),
    ),
    PruningRule(
        "g-free-pool",
        "If the game cannot be won when every deck and reserve card may be played at any "
        "time (a count per value), it cannot be won at all.",
        "The general search, no free cell; components of at most two values (not adjacent "
        "ranks) when every card must go; checked at the root and after each tableau removal.",
        (_S + "general.free_pool", _S + "general.free_pool_wins", _S + "general.decide"),
    ),
    PruningRule(
        "g-waste-stack",
        "If the game cannot be won when the stock cards may be played at any time (a count "
        "per value) but the tableau keeps its covering and the waste its order, it cannot "
        "be won at all.",
        "The general search on the last pass: one waste pile, no reserve, no free cell; "
        "components of at most two values when pool cards pair among themselves; checked "
        "at every position.",
        (_S + "general.waste_stack", _S + "general.decide", _S + "general._dive"),
    ),
    PruningRule(
        "g-deck-order",
        "If the game cannot be won when the tableau and reserve cards may be played at any "
        "time (a count per value) but the deck keeps its order, it cannot be won at all: the "
        "deck pairs of a win never cross in the deck order, so a win needs a non-crossing "
        "matching of the deck whose other cards the pool takes.",
        "The general search where every card must go: one waste pile, first-drawn redeals, "
        "no free cell, each value pairing with exactly one other (or a King going alone); "
        "on the last pass without the waste pair the waste is a fixed stack; checked at the "
        "root, and in the search at every position whose waste is empty.",
        (
            _S + "general.deck_order",
            _S + "general._deck_matching",
            _S + "general.emptied_order",
            _S + "general.decide",
        ),
    ),
    PruningRule(
        "g-cycle",
        "With unlimited passes a position's successors are the removals reachable from it by "
        "draws and redeals alone (removals of tableau cards alone at its first position "
        "only), and the positions on a board's redeal cycle share one table entry.",
        "The general search with unlimited passes, one waste pile, no free cell, the stall "
        "rule not armed; decision mode.",
        (
            _S + "general.Generator.cycle",
            _S + "general.Generator.on_cycle",
            _S + "general.Generator.key",
            _S + "general.Generator._light_cycle",
        ),
    ),
    PruningRule(
        "g-cycle-lost",
        "Positions a search proved lost (all their moves searched to the end) are skipped by "
        "the later searches, which share them: the shuffled short searches that come first "
        "and the last one.",
        "Where ``g-cycle`` applies (its successors never bring a position round again).",
        (_S + "general._dive", _S + "general.decide"),
    ),
    PruningRule(
        "g-bound",
        "A* bound of the general search: each move removes at most two cards that must go, a "
        "lone King with no partner left one.",
        "Admissible and consistent for any rule set.",
        (_S + "general.lower_bound",),
    ),
    PruningRule(
        "bound-extra",
        "A* bound: the moves beyond the removals that the deck cards to be played cost.",
        "Macro moves, sum-13 pairing, pyramid-only win.",
        (_S + "shortest_macro.extra_bound",),
    ),
    PruningRule(
        "bound-late-partner",
        "A* bound: a pyramid card whose every partner that could meet it is a deck card, and "
        "that cannot be uncovered before this pass ends, goes with a partner reached in a "
        "later pass: the rest of the stock, the redeal and the next pass up to that partner "
        "are paid first; with no redeal left the position is lost.",
        "Macro moves, sum-13 pairing, a pyramid-only win.",
        (_S + "bounds.PassReach", _S + "shortest_macro.Tables.late"),
    ),
    PruningRule(
        "bound-rest-of-pass",
        "A* bound, with rule bound-late-partner: where a pyramid card is late, every card "
        "left in the stock leaves it before the redeal, and one no pyramid card may go with "
        "before this pass ends (the relaxed game of the late partners) leaves by a draw, with "
        "the waste top or alone: a move of its own, taking none of the allowance.",
        "Macro moves, sum-13 pairing, a pyramid-only win, the stock top available.",
        (_S + "shortest_macro.Tables.rest_walk",),
    ),
    PruningRule(
        "bound-early-partner",
        "A* bound: a pyramid card whose every partner that could meet it is a deck card, "
        "whose cheapest partners all lie in the stock, and which lies under such a card with "
        "no partner in the waste or in the stock before them, is still covered when they come "
        "up: the one it goes with is drawn first, a move more than its price.",
        "Macro moves, a pairing other than sum 13 (the paired bound), a pyramid-only win, the "
        "stock top available.",
        (_S + "bounds.PairedBound",),
    ),
    PruningRule(
        "bound-dig",
        "A* bound of the move-by-move search: the moves spent digging pyramid cards' partners "
        "out of the waste piles (every card above a partner leaves first, a move each, free "
        "only when played with a pyramid card within the rank class's allowance), or the "
        "pairs the rank classes can make apart beyond the most one clearing order makes, "
        "whichever is more; with the removals capped by that clearing order per class.",
        "Sum-13 pairing, a pyramid-only win; the digging only with no redeal left and no "
        "waste pair or overlap discards.",
        (
            _S + "shortest_moves.PileDig",
            _S + "shortest_moves.MoveBound",
            _S + "shortest_moves.free_pairs",
        ),
    ),
    PruningRule(
        "bound-dig-or-deal",
        "A* bound of the move-by-move search: each deck card a pyramid card must be played "
        "with costs its dig where it lies in a pile, or the draws that deal it where it lies "
        "in the stock, so the draws and the other extra moves together are at least the "
        "cheapest such figure of the dearest requirement.",
        "As rule bound-dig's digging (sum-13 pairing, a pyramid-only win, no redeal left, no "
        "waste pair or overlap discards); the draws only where no stock card is available.",
        (_S + "shortest_moves.PileDig.joint",),
    ),
    PruningRule(
        "bound-dig-apart",
        "A* bound of the move-by-move search: the pile cards above a deck card that no "
        "pyramid card in play can take (Kings, and cards none of whose partners is in the "
        "pyramid or the cell) each leave by a move that takes no pyramid card and is no draw, "
        "so a line that plays that deck card spends D (the pairs the rank classes make apart "
        "beyond one clearing order, all of them moves that take a pyramid card) plus those "
        "moves beyond the removals and the draws.",
        "As rule bound-dig's digging (sum-13 pairing, a pyramid-only win, no redeal left, no "
        "waste pair or overlap discards).",
        (_S + "shortest_moves.PileDig.apart",),
    ),
)
"""Every pruning rule of the solver, by stable id (see the module docstring)."""

RULES_BY_ID: dict[str, PruningRule] = {rule.id: rule for rule in PRUNING_RULES}
""":data:`PRUNING_RULES` by id."""
