"""Candidate strengthening lemmas, in domino terms, for both provers.

A state property of the catalogue is rarely inductive alone: a round with a
pass recorded, an empty boneyard and a playable tile in the next player's hand
breaks "blocked-sound" in one step, yet no real round reaches it. The proof
needs lemmas about the R4 procedure, the deal and the layout. They are stated
here once, as data (:data:`LEMMAS`): an id, a sentence a rules designer can read,
the rule IDs that justify it, and its formula in each prover --

* **per instance** (``formula``): over one state of the bit-vector encoding
  (:mod:`~dominoproof.proofs.z3.encoding`), read by :func:`houdini` and the
  per-instance prover (:mod:`~dominoproof.proofs.z3.queries`);
* **for every N and P** (``abstract``): over one state of the abstract model
  (:mod:`~dominoproof.proofs.allsizes`), read by its own Houdini;

or ``None`` with the reason where the lemma cannot be stated in that prover (a
count per instance is a set of seats for every size; a lemma per instance may
hold by construction in the other reading, or the other way round).

:func:`~dominoproof.proofs.z3.houdini.houdini` keeps the largest subset that holds
initially and is preserved by every action.

The catalogue's state properties are lemmas too (``property`` set). Per instance
they are candidates, so one Houdini run proves them together with the lemmas they
need; for every N and P their ``abstract`` formula is the property's statement,
proved from the invariant (``Inv => property``), so that a property that fails is
reported against the invariant that still holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import LayoutKind
from dominoproof.model.variant import DrawRule, ExtendReading, FoulRule
from dominoproof.proofs.z3 import lemma_formulas as af
from dominoproof.proofs.z3.encoding import (
    BLOCKED,
    CLOSED_CODE,
    DOMINO,
    PLAYING,
    Bool,
    Encoding,
    StateVars,
    xor_all,
)
from dominoproof.proofs.z3.layout_lemmas import (
    arms,
    confirmed_cannot_cover,
    confirmed_markers_out,
    first_turn_own_train,
    has_first_turns,
    has_marks,
    has_pending_trains,
    has_single_pending,
    has_waiting_pending,
    in_canonical_order,
    marks_typed,
    pending_double_on_table,
    pending_one_double,
    pending_one_slot,
    pending_owner_access,
    shows_a_number,
    uncovered_pending,
    waiting_arms,
)
from dominoproof.proofs.z3.terms import And, Or
from dominoproof.proofs.z3.vocabulary import popcount

if TYPE_CHECKING:
    from dominoproof.proofs.allsizes.model import AbstractModel
    from dominoproof.proofs.allsizes.vocabulary import AState

#: A lemma per instance: a formula over one state of the encoding.
Formula = Callable[[Encoding, StateVars], Bool]
#: A lemma for every N and P: a formula over one state of the abstract model.
AbstractFormula = Callable[["AbstractModel", "AState"], Any]


def _always(_: Any) -> bool:
    return True


@dataclass(frozen=True)
class Lemma:
    """A candidate invariant: a readable statement, its rules, its formula in each prover.

    ``formula`` is the per-instance formula, ``abstract`` the formula for every N and
    P; either may be ``None``, with the reason in ``not_per_instance`` /
    ``not_all_sizes``. ``applies`` / ``abstract_applies`` say for which variants (an
    :class:`~dominoproof.proofs.z3.encoding.Encoding`, an abstract model) it is a
    candidate."""

    id: str
    statement: str
    rules: tuple[str, ...]
    formula: Formula | None = field(default=None, compare=False, repr=False)
    abstract: AbstractFormula | None = field(default=None, compare=False, repr=False)
    applies: Callable[[Encoding], bool] = field(default=_always, compare=False, repr=False)
    abstract_applies: Callable[[AbstractModel], bool] = field(default=_always, compare=False,
                                                              repr=False)
    property: str | None = None  #: the catalogue property this lemma is, if any
    not_per_instance: str = ""  #: why there is no per-instance formula
    not_all_sizes: str = ""  #: why there is no formula for every N and P
    #: why it is not one of Houdini's candidates but proved on demand, relative to the
    #: invariant Houdini proved (:func:`prove_relative`), by the queries that need it
    on_demand: str = ""

    def __post_init__(self) -> None:
        if (self.formula is None) != bool(self.not_per_instance):
            raise ValueError(f"lemma {self.id}: a per-instance formula, or why not")
        if (self.abstract is None) != bool(self.not_all_sizes):
            raise ValueError(f"lemma {self.id}: a formula for every N and P, or why not")

    def __call__(self, enc: Encoding, s: StateVars) -> Bool:
        """The lemma of the state ``s``, built once per encoding and state (Houdini,
        the symmetry checks and every property's induction ask for it again)."""
        formula = self.formula
        assert formula is not None, self.id
        # keyed by its formula, not its id: ids may repeat
        out: Bool = enc.v.memo(("lemma", formula, s.name), lambda: formula(enc, s))
        return out

    def show(self) -> str:
        return f"{self.id} [{', '.join(self.rules)}]: {self.statement}"


# ---------------------------------------------------------------------------
# Formulas per instance (bit-vectors)
# ---------------------------------------------------------------------------


def _seat(e: Encoding, s: StateVars) -> Bool:
    return z3.ULT(s.turn, e.v.P)


def _status(e: Encoding, s: StateVars) -> Bool:
    return z3.ULE(s.status, DOMINO)


def _count_range(e: Encoding, s: StateVars) -> Bool:
    return z3.ULE(s.confirmed, e.v.P)


def _tile_places(e: Encoding, s: StateVars) -> Bool:
    return e.conservation(s)


def _conservation(e: Encoding, s: StateVars) -> Bool:
    """SEMANTICS "Type invariant" (``state_status``): the partition, a seat to move, at
    most P confirmations, ends the table can show (and marks the layout can have)."""
    marks = [marks_typed(e, s)] if has_marks(e) else []
    return And(_tile_places(e, s), _seat(e, s), _count_range(e, s),
               _ends_match_table(e, s), *marks)


def ends_parity(e: Encoding, s: StateVars, x: int) -> Bool:
    """A number ``x`` shows on an odd number of ends iff an odd number of the non-double
    tiles carrying it lie on the table (a line's joints pair equal halves)."""
    tiles = [t for t in range(e.v.T) if x in e.v.halves[t] and e.v.halves[t][0] != e.v.halves[t][1]]
    return xor_all([e.v.on_table(s, t) for t in tiles]) == xor_all([y == x for y in s.ends])


def _ends_match_table(e: Encoding, s: StateVars) -> Bool:
    """Slots open exactly when tiles are on the table, each showing a number of the set
    (or closed: arms and toes that did not open), in the canonical order; and, in a layout
    of one line, the parity of the numbers shown (:func:`ends_parity`): a hub, a spinner
    or a foot offers a double's number to more than two ends, so it is the line's alone.
    Under Matador matching (R2.1) a joint's halves sum to N+1, or a matador is wild, so no
    parity holds: each open end shows a half of a tile on the table."""
    return And(
        s.led == z3.Not(e.v.nothing_on_table(s)),
        z3.Implies(s.led, And(*shows_a_number(e, s), *in_canonical_order(e, s))),
        z3.Implies(z3.Not(s.led), And(*(y == CLOSED_CODE for y in s.ends))),
        *[ends_parity(e, s, x) for x in range(e.v.N + 1)
          if _one_line(e) and not e.v.match_total],
        *[z3.Implies(y != CLOSED_CODE, Or([And(e.v.on_table(s, t), e.v.carries(t, y))
                                           for t in range(e.v.T)]))
          for y in s.ends if e.v.match_total])


def _one_line(e: Encoding) -> bool:
    """The layout is one line: two slots, both opened by the lead, one per half."""
    return e.v.W == 2 and sorted(h for _, h in e.v.lead_halves) == [0, 1]


def _pre_lead(e: Encoding, s: StateVars) -> Bool:
    return z3.Implies(z3.Not(s.led), And(
        e.v.nothing_on_table(s), s.confirmed == 0, z3.Not(s.drew), s.fouls == 0,
        s.status == PLAYING, *[z3.Not(e.v.hand_empty(s, p)) for p in range(e.v.P)]))


def _leader(e: Encoding, s: StateVars) -> Bool:
    lead = e.preds.lead_choice(s)  # (while the players draw for the lead: _draw_for_lead)
    before = And(z3.Not(s.led), z3.Not(lead.draws)) if e.preds.seeks() else z3.Not(s.led)
    return z3.Implies(before, And(
        z3.Not(lead.void), e.initial_turn(s), e.preds.lead_tile_held(s)))


def _draw_for_lead(e: Encoding, s: StateVars) -> Bool:
    return z3.Implies(And(z3.Not(s.led), e.preds.lead_choice(s).draws), And(
        Or([e.v.in_boneyard(s, t) for t in e.preds.named_tiles()]), e.preds.drawer_in_turn(s)))


def _confirmed_hold_nothing(e: Encoding, s: StateVars) -> Bool:
    return And([z3.Implies(e.preds.confirmed_seat(s, q), And(
        [z3.Not(And(e.v.in_hand(s, t, q), e.preds.matches_for(s, t, q))) for t in range(e.v.T)]))
        for q in range(e.v.P)])


def hand_size(e: Encoding, s: StateVars) -> Bool:
    """hand-size: each hand holds at most H tiles plus the tiles drawn so far (B less the
    boneyard's), counted as ``|hand p| + |boneyard| <= H + B``: the tiles of the hand
    and of the boneyard together, one count (a draw moves a tile between the two, so
    the count of the pair is unchanged: the solver sees it tile by tile). Without a
    boneyard (B = 0) it is ``|hand p| <= H``, with Init's own count of the hand."""
    width = e.v.T.bit_length() + 1  # Init's (``count_is``): the same term, shared
    if e.v.B == 0:
        return And([z3.ULE(popcount([x == p for x in s.loc], width), e.v.H)
                    for p in range(e.v.P)])
    return And([z3.ULE(popcount([Or(x == p, x == e.v.BONEYARD) for x in s.loc], width),
                       e.v.H + e.v.B) for p in range(e.v.P)])


def blocked_sound(e: Encoding, s: StateVars) -> Bool:
    """blocked-sound: at an established block the boneyard supplies nothing (R3) and no
    hand holds a tile carrying an open end (R2.1). Under either reading of R2.3: where
    they differ (trains, toes) the property asks what the catalogue states and the search
    judges -- no hand holds a matching tile, which implies that no player has a legal
    move; in a line the two are one formula."""
    return z3.Implies(s.status == BLOCKED,
                      And(e.preds.boneyard_supplies_nothing(s),
                          e.preds.ends_unplayable(s, ExtendReading.HOLDS_MATCHING_TILE)))


def called_block(e: Encoding, s: StateVars) -> Bool:
    """called-block: a block established without R4.4's run (a call, R4.7) has an open
    end every tile of whose number is on the table."""
    return z3.Implies(And(s.status == BLOCKED, z3.Not(e.preds.block_ready(s))),
                      e.preds.dead_end(s))


def parity_conclusion(e: Encoding, s: StateVars) -> Bool:
    """Every tile of each end's suit is on the table, and the ends show the same number
    exactly when N is even."""
    lo, hi = s.ends  # the one line's two ends
    same = lo == hi
    whole = [z3.Implies(Or(e.v.carries(t, lo), e.v.carries(t, hi)), e.v.on_table(s, t))
             for t in range(e.v.T)]
    return And(*whole, same if e.v.N % 2 == 0 else z3.Not(same))


def parity(e: Encoding, s: StateVars) -> Bool:
    """parity: at a block every tile of each end's suit is on the table, and the two ends
    show the same number exactly when N is even."""
    return z3.Implies(s.status == BLOCKED, parity_conclusion(e, s))


def _line_all_in_play(e: Encoding) -> bool:
    """One line, every tile in play, matched by equal numbers (R2.1: under Matador a
    joint's halves sum to N+1, and no suit need be on the table at a block)."""
    return e.variant.layout.kind is LayoutKind.LINE and e.v.K == 0 and not e.v.match_total


# ---------------------------------------------------------------------------
# The lemmas
# ---------------------------------------------------------------------------

#: Why a part of the partition is not a lemma of its own per instance.
_ONE_PLACE = ("per instance a tile's place is one variable (loc[t]): it is in one place, "
              "held by one seat, by construction; tile-places says the place is a real one")
#: Why the run's shape is not a lemma per instance.
_RUN_IS_A_COUNT = ("per instance the run is a count and its proposer is derived from it, "
                   "(turn - confirmed) mod P: the seats from the proposer up to the mover, "
                   "by construction")
#: Why a lemma needed per instance only is not stated for every N and P.
_NOT_NEEDED = "not needed by the all-sizes proofs"
#: Why the markers have no lemma for every N and P.
_LAYOUT_MARKERS = ("the all-sizes model refuses the layouts with markers (trains: a slot's "
                   "owner and a seat's train are functions of each other, outside EPR); their "
                   "properties are N/A there")

LEMMAS: tuple[Lemma, ...] = (
    Lemma("seat", "the player to move is one of the P seats", ("Terms",), _seat,
          not_all_sizes="the seat to move is a constant of sort Player: a seat by construction"),
    Lemma("status", "a round is being played, blocked, or won by a domino",
          ("R1.1", "R5.1"), _status,
          not_all_sizes="the status is two flags, blocked and domino: no code out of range"),
    Lemma("count-range", "no more confirmations are recorded than there are players",
          ("R4.2",), _count_range,
          not_all_sizes="the run is a set of seats, not a count: never more than every seat"),
    Lemma("tile-places", "every tile is in exactly one hand, the boneyard, the set-aside "
          "tiles or on the table (hands, boneyard, set-aside tiles and table partition the set)",
          ("Terms",), _tile_places,
          not_all_sizes="stated in three parts, tile-placed, places-disjoint and one-holder, "
          "so that a failure names the part"),
    Lemma("tile-placed", "every tile is in a hand, the boneyard, the set-aside tiles or on "
          "the table", ("Terms",), abstract=af.a_tile_placed, not_per_instance=_ONE_PLACE),
    Lemma("places-disjoint", "no tile is in two of the hands, the boneyard, the set-aside "
          "tiles and the table at once", ("Terms",), abstract=lambda m, s: m.disjoint(s),
          not_per_instance=_ONE_PLACE),
    Lemma("one-holder", "no tile is held by two players", ("Terms",),
          abstract=lambda m, s: m.one_holder(s), not_per_instance=_ONE_PLACE),
    Lemma("ends-match-table",
          "the line has open ends exactly when tiles are on the table, the lower end first; "
          "a number shows on an odd number of ends exactly when an odd number of non-double "
          "tiles carrying it are on the table (in other layouts: the slots open exactly when "
          "tiles are on the table, each group of interchangeable slots in its canonical "
          "order; the parity is a line's alone)",
          ("Terms",), _ends_match_table,
          not_all_sizes="its parity counts halves modulo 2, and an end does not remember the "
          "table tile that shows it (End -> Tile would leave EPR); its first part is "
          "closed-before-lead and table-after-lead"),
    Lemma("conservation",
          "the state is well formed (SEMANTICS TypeOK, as state_status checks it): the "
          "tiles partition the set, the player to move is a seat, at most P confirmations "
          "are recorded, and the open ends are ones the tiles on the table can show",
          ("Terms",), _conservation, af.a_conservation, property="conservation"),
    Lemma("pre-lead",
          "before the lead nothing is on the table, nobody has confirmed, drawn or fouled, "
          "and every hand holds tiles",
          ("Terms",), _pre_lead,
          not_all_sizes="'every hand holds tiles' is false there: hand sizes are free and a "
          "deal may leave a hand empty; its first part is closed-before-lead"),
    Lemma("leader",
          "before the lead, the player to move is the leader the variant names, holding the "
          "tile it names (once somebody holds it, R3.6)",
          ("Terms",), _leader,
          not_all_sizes="the lead rules name tiles by value (arithmetic); there any seat may "
          "lead with any tile"),
    Lemma("draw-for-lead",
          "before the lead, while nobody holds the tile the lead rule names (fallback "
          '"draw"), that tile (a double, under "highest-double") is in the boneyard, and the '
          "player to move is the one lead.player is followed by clockwise, one seat per "
          "tile drawn",
          ("R3.6", "Terms"), _draw_for_lead, applies=lambda e: e.preds.seeks(),
          not_all_sizes="the lead rules name tiles by value (arithmetic), and a seat per "
          "tile drawn counts; there any seat may draw for the lead, keeping the turn or not"),
    Lemma("no-pending-draw", "in a game without draw-one, nobody is ever left 'having drawn'",
          ("R3.1",), lambda e, s: z3.Not(s.drew), lambda m, s: z3.Not(s.drew),
          applies=lambda e: e.v.DRAW is not DrawRule.ONE,
          abstract_applies=lambda m: m.DRAW is not DrawRule.ONE),
    Lemma("no-foul", "where a false declaration is impossible, no seat has a foul",
          ("R4.5",), lambda e, s: s.fouls == 0, applies=lambda e: e.v.FOULS is FoulRule.IMPOSSIBLE,
          not_all_sizes=f"{_NOT_NEEDED}: without fouls the model has no foul action, and "
          "no property reads fouls without it"),
    Lemma("marks-typed",
          "the layout's marks are well formed: none is set before the lead (no marker out, "
          "no side covered, no slot pending), every pending slot is open, and the marks hold "
          "only the fields the layout names (markers only where it has markers)",
          ("Terms", "R2.2"), marks_typed, af.a_marks_typed, applies=has_marks,
          abstract_applies=lambda m: bool(m.waits or m.doubles)),
    Lemma("confirmed-markers-out",
          "every player who has confirmed in the current run has their marker out",
          ("R4.2", "R2.3"), confirmed_markers_out, applies=lambda e: e.v.fields.markers >= 0,
          not_all_sizes=_LAYOUT_MARKERS),
    Lemma("waiting-arms",
          "while a side a spinner's open arm waits for is uncovered, the arm shows what that "
          "side shows (the spinner's number)",
          ("Terms", "R2.2"), waiting_arms, af.a_waiting_arms, applies=lambda e: bool(arms(e)),
          abstract_applies=lambda m: bool(m.waits)),
    Lemma("uncovered-pending",
          "while a side a spinner's open arm waits for is uncovered, that side is pending "
          "(the opening double takes its tiles there first)",
          ("R2.2",), uncovered_pending, af.a_uncovered_pending, applies=has_waiting_pending,
          abstract_applies=lambda m: bool(m.waits and m.layout.data.lead_takes)),
    Lemma("pending-one-double",
          "every pending slot shows the same number, the number of the double that made "
          "it pending",
          ("R2.2",), pending_one_double, af.a_pending_one_double,
          applies=lambda e: e.v.double_rules,
          abstract_applies=lambda m: bool(m.doubles)),
    Lemma("pending-double-on-table",
          "a double carrying the number a pending slot shows is on the table (it is the "
          "double that waits: one double per number), so a last double in a hand, which "
          'out_on_double = "covered" keeps from being played, covers no pending slot',
          ("R2.2", "Terms"), pending_double_on_table, af.a_pending_double_on_table,
          applies=lambda e: e.v.cover_out, abstract_applies=lambda m: bool(m.COVER_OUT)),
    Lemma("pending-one-slot",
          "at most one slot is pending: a double laid during play makes its own slot "
          "pending only (no toes), and the opening double makes none pending",
          ("R2.2",), pending_one_slot, applies=has_single_pending,
          not_all_sizes=f"{_NOT_NEEDED}: there the play's effect makes the double's own slot "
          "the only pending one, and no property needs it as a conjunct"),
    Lemma("pending-owner-access",
          "while a double waits on a player's train, that player's marker is out (the "
          "train is open to everyone), or that player is to move with no confirmation "
          "recorded (they laid it on their own train and play again to cover it)",
          ("R2.2", "R2.3", "R3.1"), pending_owner_access, applies=has_pending_trains,
          not_all_sizes=_LAYOUT_MARKERS),
    Lemma("first-turn-own-train",
          "while a first turn goes on, the round is past the lead with no confirmation "
          "recorded, and the player to move's own train has a tile on it and waits for none "
          "(a double left waiting there ends the first turn)",
          ("R2.3", "R2.2", "R4.3"), first_turn_own_train, applies=has_first_turns,
          not_all_sizes=_LAYOUT_MARKERS),
    Lemma("confirmed-cannot-cover",
          "every player who has confirmed in the current run holds no tile carrying a "
          "pending slot's number: they could not cover the double",
          ("R2.2", "R4.2", "R4.3"), confirmed_cannot_cover, applies=lambda e: e.v.double_rules,
          not_all_sizes=f"{_NOT_NEEDED}: there confirmed-hold-nothing reads where a seat may "
          "play now (only on pending slots while a double waits), which says it"),
    Lemma("closed-before-lead",
          "before the lead the table is empty and no end shows a number", ("Terms",),
          abstract=af.a_closed_before_lead,
          not_per_instance="pre-lead and ends-match-table say it (nothing on the table "
          "before the lead, and the ends closed exactly then)"),
    Lemma("table-after-lead", "after the lead a tile is on the table", ("Terms",),
          abstract=af.a_table_after_lead,
          not_per_instance="part of ends-match-table (open ends exactly when tiles are on "
          "the table)"),
    Lemma("end-shows-one-number", "after the lead each open end shows exactly one number "
          "(the slots the lead opens are open; a spinner's arms only after a double)",
          ("Terms",), abstract=af.a_end_shows_one_number,
          not_per_instance="an end is one variable per instance: it shows one number, or is "
          "closed, by construction"),
    Lemma("confirmed-after-lead", "confirmations are only recorded after the lead",
          ("R4.1",), lambda e, s: z3.Implies(s.confirmed != 0, s.led), af.a_confirmed_after_lead),
    Lemma("confirmed-hold-nothing",
          "every player who has confirmed in the current run holds no tile matching an open "
          "end",
          ("R4.2", "R4.3", "R2.1"), _confirmed_hold_nothing, af.a_confirmed_hold_nothing),
    Lemma("confirmed-empty-boneyard", "while confirmations are recorded, the boneyard is empty",
          ("R3.2", "R4.4"), lambda e, s: z3.Implies(s.confirmed != 0, e.v.boneyard_empty(s)),
          af.a_confirmed_empty_boneyard),
    Lemma("run-has-proposer", "a run of confirmations under way includes the seat that "
          "proposed the block", ("R4.1",), abstract=af.a_run_has_proposer,
          not_per_instance=_RUN_IS_A_COUNT),
    Lemma("run-full-at-proposer", "if the seat to move has confirmed, the run went round the "
          "whole table and is back at the proposer", ("R4.2", "R4.4"),
          abstract=af.a_run_full_at_proposer, not_per_instance=_RUN_IS_A_COUNT),
    Lemma("run-is-arc", "otherwise the run is the seats from the proposer, clockwise, up to "
          "the seat to move: confirmations come in succession", ("R4.2",),
          abstract=af.a_run_is_arc, not_per_instance=_RUN_IS_A_COUNT),
    Lemma("count-below-block",
          "while the round is played, the count of confirmations never exceeds the number "
          "that establishes the block",
          ("R4.4",), lambda e, s: z3.Implies(s.status == PLAYING, z3.ULE(s.confirmed, e.v.C)),
          not_all_sizes="a count: there the run is a set of seats, full only at the "
          "proposer's turn (run-full-at-proposer)"),
    Lemma("blocked-after-run",
          "a blocked round has the run of confirmations that establishes it recorded (and, "
          "where the variant says so, an empty boneyard)",
          ("R4.4", "R5.1"), lambda e, s: z3.Implies(s.status == BLOCKED, e.preds.block_ready(s)),
          lambda m, s: z3.Implies(s.blocked, m.ready(s))),
    Lemma("domino-empty-hand", "a round won by a domino ends with the winner's hand empty",
          ("Terms",), lambda e, s: z3.Implies(s.status == DOMINO, e.v.hand_empty(s, s.turn)),
          not_all_sizes=f"{_NOT_NEEDED}: no core property reads a round won by a domino"),
    Lemma("nothing-aside", "no tile is set aside", ("R3.1", "Terms"),
          lambda e, s: And([s.loc[t] != e.v.ASIDE for t in range(e.v.T)]),
          applies=lambda e: e.v.K == 0,
          not_all_sizes="whether tiles are set aside is a size, which is free there"),
    Lemma("no-stock", "the boneyard is empty (this variant deals no stock to draw from)",
          ("R3.1",), lambda e, s: e.v.boneyard_empty(s), lambda m, s: m.bone_empty(s),
          applies=lambda e: e.v.B == 0, abstract_applies=lambda m: m.DRAW is DrawRule.NONE),
    Lemma("hand-size",
          "a hand holds at most H tiles plus the tiles drawn so far (the deal's boneyard "
          "less what is left of it): a hand grows only by drawing",
          ("R3.1", "Terms"), hand_size,
          not_all_sizes="a count of tiles: hand sizes are free there, and first-order logic "
          "over uninterpreted sorts does not count",
          on_demand="no property needs it, and as a candidate its counts make Houdini 4 to "
          "9 times slower (double-6): the residual's ceiling proves it relative to the "
          "invariant (proofs/z3/witness_bounds.py)"),
    Lemma("blocked-sound",
          "at an established block the boneyard is empty and no hand holds a tile matching "
          "an open end",
          ("R1.1", "R2.1", "R2.2", "R2.3", "R3.2", "R3.3"), blocked_sound, af.a_blocked_sound,
          property="blocked-sound"),
    Lemma("called-block",
          "a block established without the run of confirmations was called at a dead end: "
          "an open end shows a number every tile of which is on the table",
          ("R4.7", "R2.1"), called_block, applies=lambda e: e.v.CALL, property="called-block",
          not_all_sizes="'no open end is dead' is, for every end and number, a tile not on "
          "the table: a function Value -> Tile, which with 'every tile carries a number' "
          "(Tile -> Value) is a cycle outside EPR (N/A there, proved per instance)"),
    Lemma("parity",
          "at a block every tile of each end's suit is on the table, and the ends show the "
          "same number exactly when N is even",
          ("R1.1", "R2.1"), parity, applies=_line_all_in_play, property="parity",
          not_all_sizes="it counts halves modulo 2, which first-order logic over "
          "uninterpreted sorts cannot (N/A there, proved per instance)"),
)

BY_ID: dict[str, Lemma] = {lem.id: lem for lem in LEMMAS}


def candidates_for(enc: Encoding) -> list[Lemma]:
    """The per-instance candidates of ``enc``'s variant, in :data:`LEMMAS` order."""
    return [lem for lem in LEMMAS if lem.formula is not None and lem.applies(enc)
            and not lem.on_demand]


def abstract_candidates(m: AbstractModel) -> list[Lemma]:
    """The all-sizes candidates of ``m``'s rules (the catalogue's properties apart)."""
    return [lem for lem in LEMMAS if lem.abstract is not None and lem.property is None
            and lem.abstract_applies(m)]


def abstract_statement(pid: str) -> Lemma | None:
    """The lemma stating the state property ``pid`` for every N and P, if any."""
    return next((lem for lem in LEMMAS if lem.property == pid and lem.abstract is not None),
                None)


__all__ = ["BY_ID", "LEMMAS", "Lemma", "abstract_candidates", "abstract_statement",
           "blocked_sound", "called_block", "candidates_for", "hand_size", "parity",
           "parity_conclusion"]
