"""The Z3 twin of every fault of ``proofs/faults.py``: each check must be able to fail.

A fault breaks the rules one way: in the engine (a :class:`Rules` subclass), in the
scoring (a mutant scorer) or in the variant (overrides). Its twin breaks the
declarative reading the same way: an :class:`Encoding` subclass that changes one
action or is built with another part (its predicates or layout terms), a
:class:`Scoring` subclass, or nothing but the fault's variant.
:func:`twin_prover` builds the :class:`~dominoproof.proofs.z3.queries.Prover` of a fault:
its variant, its twin encoding and scoring, and the fault's own engine to replay the
rounds Z3 finds (``tests/test_z3_faults.py`` checks that every property a fault is
expected to break is VIOLATED, with a trace the fault's engine replays).

Each twin's docstring says which fault it mirrors; they are written from the fault's
description and its rule book in ``faults.py``, not from ``model/rules.py``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import Access
from dominoproof.model.variant import FoulRule
from dominoproof.proofs.faults import FAULTS_BY_ID, Fault
from dominoproof.proofs.z3.encoding import (
    BLOCKED,
    BV,
    CLOSED_CODE,
    CONFIRM,
    COUNT_BITS,
    DRAW,
    ESTABLISH,
    LEAD_CODE,
    NOWHERE,
    PASS,
    PLAYING,
    SEAT_BITS,
    STATUS_BITS,
    Bool,
    Encoding,
    MoveVars,
    StateVars,
    Step,
    Vocabulary,
)
from dominoproof.proofs.z3.layout_terms import LayoutTerms
from dominoproof.proofs.z3.predicates import Predicates
from dominoproof.proofs.z3.queries import Prover
from dominoproof.proofs.z3.scoring import SCORE_BITS, ScoreTerms, Scoring
from dominoproof.proofs.z3.terms import And, Or


class EstablishWithoutBoneyardCheckZ3(Encoding):
    """Twin of ``establish-without-boneyard-check`` (R4.1, R4.4): with stock left after the
    lead, a player whose count of confirmations is complete establishes the block without
    looking at the boneyard; otherwise a player who would have to draw may confirm instead."""

    def steps(self, s: StateVars, m: MoveVars, top: BV | None = None) -> dict[str, Step]:
        base = super().steps(s, m, top)
        stock = And(s.status == PLAYING, s.led, z3.Not(self.v.hand_empty(s, s.turn)),
                    z3.Not(self.v.boneyard_empty(s)))
        early = And(stock, z3.UGE(s.confirmed, self.v.C))
        out = {a: (And(g, z3.Not(early)), post) for a, (g, post) in base.items()}
        out["establish-early"] = (
            And(early, m.kind == ESTABLISH, self.preds.no_tile(m)),
            self.update(s, f"early.{m.name}", status=z3.BitVecVal(BLOCKED, STATUS_BITS)))
        out["confirm-not-draw"] = (
            And(stock, z3.Not(early), self.cases(s)["draw"], m.kind == CONFIRM,
                self.preds.no_tile(m)),
            self.counted(s, m, "confirm-not-draw", marker=False))
        return out


class ConfirmWhilePlayableZ3(Encoding):
    """Twin of ``confirm-while-playable`` (R4.3, R4.5): after the lead, with the boneyard
    empty, a player holding a playable tile may confirm, and every confirmation counts
    (none is recorded as a foul)."""

    def steps(self, s: StateVars, m: MoveVars, top: BV | None = None) -> dict[str, Step]:
        out = dict(super().steps(s, m, top))
        foul_guard, _ = out["foul"]
        out["foul"] = (foul_guard, self.counted(s, m, "foul-counted", marker=False))
        extra = And(self.cases(s)["play"], self.v.boneyard_empty(s), z3.Not(foul_guard_any(
            self, s)), m.kind == CONFIRM, self.preds.no_tile(m))
        out["confirm-while-playable"] = (
            extra, self.counted(s, m, "confirm-playable", marker=False))
        return out


def foul_guard_any(enc: Encoding, s: StateVars) -> Bool:
    """A false declaration is already a legal move (fouls penalised, none yet by ``p``)."""
    if enc.v.FOULS is not FoulRule.PENALISED:
        return z3.BoolVal(False)
    return And(enc.v.boneyard_empty(s), (s.fouls & enc.preds.seat_bit(s.turn)) == 0)


class DrawLosesTileZ3(Encoding):
    """Twin of ``draw-loses-tile`` (conservation): the drawn tile leaves the boneyard but
    never reaches the hand: it is nowhere."""

    def step_draw(self, s: StateVars, m: MoveVars, top: BV | None = None) -> Step:
        guard, post = super().step_draw(s, m, top)
        return guard, self.update(post, "lost", loc=self.preds.moved(s, m, NOWHERE))


class LeadIgnoresVariantZ3(Encoding):
    """Twin of ``lead-ignores-variant`` (Terms): the seat after the variant's leader is to
    move first, and leads with any tile it holds."""

    def initial_turn(self, s: StateVars) -> Bool:
        prev = z3.If(s.turn == 0, z3.BitVecVal(self.v.P - 1, SEAT_BITS), s.turn - 1)
        return And(z3.ULT(s.turn, self.v.P), self.preds.is_leader(s, prev))

    def lead_allowed(self, s: StateVars, m: MoveVars) -> Bool:
        return z3.BoolVal(True)


class ExtraConfirmationZ3(Encoding):
    """Twin of ``extra-confirmation`` (R4.4): one confirmation more than the variant says."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.v.C += 1


class ConfirmResetsZ3(Encoding):
    """Twin of ``confirm-resets`` (R4.2): every confirmation restarts the count."""

    def step_confirm(self, s: StateVars, m: MoveVars) -> Step:
        guard, post = super().step_confirm(s, m)
        return guard, self.update(post, "reset", confirmed=z3.BitVecVal(0, COUNT_BITS))


class DrawFromEmptyBoneyardZ3(Encoding):
    """Twin of ``draw-from-empty-boneyard`` (R3.1, R3.2): with the boneyard empty and no
    confirmation yet, a stuck player may instead take the lowest set-aside tile."""

    may_draw_aside = True  #: the ranking function then weighs set-aside tiles too

    def steps(self, s: StateVars, m: MoveVars, top: BV | None = None) -> dict[str, Step]:
        out = dict(super().steps(s, m, top))
        lowest = []
        none_below = z3.BoolVal(True)
        for t in range(self.v.T):
            aside = s.loc[t] == self.v.ASIDE
            lowest.append(And(none_below, aside, m.tile == t))
            none_below = And(none_below, z3.Not(aside))
        guard = And(self.cases(s)["confirm"], s.confirmed == 0, z3.Not(none_below),
                    m.kind == DRAW, m.end == LEAD_CODE, self.preds.tile_ok(m), Or(lowest))
        out["draw-aside"] = (guard, self.update(s, f"draw-aside.{m.name}",
                                                loc=self.preds.moved(s, m, s.turn)))
        return out


class VoluntaryPassZ3(Encoding):
    """Twin of ``voluntary-pass`` (R3.5): where a player who can play may draw too
    (``draw-instead``), that player passes instead of drawing: the turn moves on, the
    tile stays in the boneyard."""

    def steps(self, s: StateVars, m: MoveVars, top: BV | None = None) -> dict[str, Step]:
        out = dict(super().steps(s, m, top))
        instead = self.cases(s)["draw-instead"]
        guard, post = out["draw"]
        out["draw"] = (And(guard, z3.Not(instead)), post)
        _, passed = self.step_pass(s, m)
        out["pass-instead"] = (And(instead, m.kind == PASS, self.preds.no_tile(m)),
                               self.update(passed, "instead"))
        return out


class CallUnmatchedEndZ3(Encoding):
    """Twin of ``call-unmatched-end`` (R4.7): the call's guard asks only that no hand hold
    a tile of an open end's number (the boneyard may still hold one)."""

    def cases(self, s: StateVars) -> dict[str, Bool]:
        out = dict(super().cases(s))
        if not self.v.CALL:
            return out
        unmatched = Or([And(x != CLOSED_CODE, *[z3.Implies(self.v.fits(t, x),
                                                           z3.Not(self.v.held(s, t)))
                                               for t in range(self.v.T)]) for x in s.ends])
        out["call"] = And(s.status == PLAYING, z3.Not(self.v.hand_empty(s, s.turn)),
                          z3.Not(self.preds.block_ready(s)), unmatched)
        return out
class LeadDrawsAloneZ3(Encoding):
    """Twin of ``lead-draws-alone`` (R3.6): a draw for the lead leaves the turn with the
    drawer, the named tile drawn or not."""

    def step_lead_draw(self, s: StateVars, m: MoveVars, top: BV | None = None) -> Step:
        guard, post = super().step_lead_draw(s, m, top)
        return guard, self.update(post, "alone", turn=s.turn)


class PlayKeepsEndZ3(Encoding):
    """Twin of ``play-keeps-end`` (R2.1): a tile laid on an end leaves the ends as they
    were."""

    def step_play(self, s: StateVars, m: MoveVars) -> Step:
        guard, post = super().step_play(s, m)
        return guard, self.update(post, "keeps", ends=s.ends)


class MarkerStaysInZ3(Encoding):
    """Twin of ``marker-stays-in`` (R2.3, R3.1, R4.2): a pass or a confirmation leaves the
    player's marker as it was (in, unless it was already out) -- a foul too, a false
    confirmation (the engine's mutant reads every move of kind CONFIRM so)."""

    def steps(self, s: StateVars, m: MoveVars, top: BV | None = None) -> dict[str, Step]:
        out = dict(super().steps(s, m, top))
        for a in ("pass", "confirm", "foul"):
            guard, post = out[a]
            out[a] = guard, self.update(post, "marker-in", marks=s.marks)
        return out


class PendingIgnored(Predicates):
    """While slots are pending, play may go on any slot the mover may play on."""

    def may_play_now(self, s: StateVars, seat: BV | int, i: int) -> Bool:
        return self.may_play(s, seat, i)


def pending_alike(v: Vocabulary, s: StateVars, j: int, i: int) -> Bool:
    """Two slots of a group showing one number are one move whether pending or not
    (the mutant offers the slots as if nothing were pending)."""
    return Or(s.ends[j] != s.ends[i], v.covered(s, j) != v.covered(s, i))


class PendingAlike(LayoutTerms):
    def distinct(self, s: StateVars, j: int, i: int) -> Bool:
        return pending_alike(self.v, s, j, i)


class PendingAlikePileUp(LayoutTerms):
    """:class:`PendingAlike`, and a double starts a wait while other slots are pending too."""

    def distinct(self, s: StateVars, j: int, i: int) -> Bool:
        return pending_alike(self.v, s, j, i)

    def starts_wait(self, rest: list[Bool]) -> Bool:
        return z3.BoolVal(True)


class DoubleLeftUncoveredZ3(Encoding):
    """Twin of ``double-left-uncovered`` (R2.2): while slots are pending, play may go on any
    slot the mover may play on, pending or not (the pending slots restrict nothing; a double
    still makes its slots pending)."""

    predicates = PendingIgnored
    layout_terms = PendingAlike


class DoublesPileUpZ3(Encoding):
    """Twin of ``doubles-pile-up`` (R2.2): play may go on any slot while slots are pending
    (as ``double-left-uncovered``), and a double laid there makes its slot pending too,
    beside the others."""

    predicates = PendingIgnored
    layout_terms = PendingAlikePileUp


class ArmsWaitForNothing(Predicates):
    def waits_for(self, s: StateVars, i: int) -> list[Bool]:
        return []


class ArmsOpenEarlyZ3(Encoding):
    """Twin of ``arms-open-early`` (Terms, R2.2): a spinner's arms may be played on as soon
    as they open, before the sides they wait for are covered (their covered marks are
    still kept)."""

    predicates = ArmsWaitForNothing


class AnyMarkerOpensPreds(Predicates):
    def may_play(self, s: StateVars, seat: BV | int, i: int) -> Bool:
        ok = super().may_play(s, seat, i)
        if self.v.slots[i].access is not Access.OWNER_OR_MARKERS:
            return ok
        return Or(ok, *[self.v.marker_out(s, q) for q in range(self.v.P)])


class AnyMarkerOpensZ3(Encoding):
    """Twin of ``any-marker-opens`` (R2.3): under open_trains = "own-marker-out" every
    train is open to every player while any marker is out, the mover's own in or not."""

    predicates = AnyMarkerOpensPreds


class PublicAlwaysOpenPreds(Predicates):
    def may_play(self, s: StateVars, seat: BV | int, i: int) -> Bool:
        if self.v.slots[i].access is Access.STARTED:
            return z3.BoolVal(True)
        return super().may_play(s, seat, i)


class PublicBeforeOwnZ3(Encoding):
    """Twin of ``public-before-own`` (R2.3): under public_train = "after-own" the public
    train is open to a player whose own train has no tile yet."""

    predicates = PublicAlwaysOpenPreds


class EveryTurnFirstTerms(LayoutTerms):
    def first_goes_on(self, s: StateVars, m: MoveVars) -> Bool | None:
        if self.v.fields.first < 0 or not self.v.first_turns:
            return None
        return And(z3.Not(self.double_waits(s, m)), Or(
            [And(s.turn == sl.owner, m.end == i)
             for i, sl in enumerate(self.v.slots) if sl.owner is not None]))


class EveryTurnFirstZ3(Encoding):
    """Twin of ``every-turn-first`` (R2.3): under first_turn = "own-train", every play on
    one's own train, on any turn, keeps the turn (its train's having had no tile before
    the turn is not asked)."""

    layout_terms = EveryTurnFirstTerms


class ConfirmPastDoubleZ3(Encoding):
    """Twin of ``confirm-past-double`` (R1.1, R4.3, R4.4): with the boneyard empty and slots
    pending, a player who holds a tile covering a pending slot may confirm inability
    anyway, and the confirmation counts (one more in the run; their marker goes out)."""

    def steps(self, s: StateVars, m: MoveVars, top: BV | None = None) -> dict[str, Step]:
        out = dict(super().steps(s, m, top))
        past = And(self.cases(s)["play"], self.v.boneyard_empty(s), self.v.any_pending(s))
        foul_guard, foul_post = out["foul"]
        out["foul"] = (And(foul_guard, z3.Not(past)), foul_post)
        out["confirm-past-double"] = (And(past, m.kind == CONFIRM, self.preds.no_tile(m)),
                                      self.counted(s, m, "confirm-past"))
        return out


class OutOnWaitingDoublePreds(Predicates):
    def goes_out_waiting(self, s: StateVars, t: int, seat: BV | int, i: int) -> Bool:
        return z3.BoolVal(False)


class OutOnWaitingDoubleTerms(LayoutTerms):
    def goes_out_waiting(self, s: StateVars, m: MoveVars) -> Bool:
        return z3.BoolVal(False)


class OutOnWaitingDoubleZ3(Encoding):
    """Twin of ``out-on-waiting-double`` (R2.2): under out_on_double = "covered" a player
    may still lay a double that must be covered as their last tile, and go out on it."""

    predicates = OutOnWaitingDoublePreds
    layout_terms = OutOnWaitingDoubleTerms


class RestartForgottenLastZ3(Encoding):
    """Twin of ``restart-forgotten-last`` (R4.4): where a confirmation that puts a marker
    out restarts the run, the one that completes the run counts on instead."""

    def step_confirm(self, s: StateVars, m: MoveVars) -> Step:
        guard, post = super().step_confirm(s, m)
        last = z3.UGE(s.confirmed + 1, self.v.C)
        return guard, self.update(post, "restart-forgotten",
                                  confirmed=z3.If(last, s.confirmed + 1, post.confirmed))


# ---------------------------------------------------------------------------
# Scoring twins
# ---------------------------------------------------------------------------


class TieWrongZ3(Scoring):
    """Twin of ``tie-wrong`` (R5.5): a tie is won by the tied side last in seat order,
    awarded the sum of the other sides' totals."""

    def terms(self, s: StateVars, residuals: Any = None) -> ScoreTerms:
        sc = super().terms(s, residuals)
        n = len(self.sides)
        last = [And(sc.lowest[i], *[z3.Not(sc.lowest[j]) for j in range(i + 1, n)])
                for i in range(n)]
        blocked_tie = And(s.status == BLOCKED, sc.tie)
        others = [z3.Sum([sc.totals[j] for j in range(n) if j != i]) if n > 1
                  else self.k(0) for i in range(n)]
        winners = tuple(z3.If(blocked_tie, last[i], sc.winners[i]) for i in range(n))
        awards = tuple(z3.If(blocked_tie, z3.If(last[i], others[i], self.k(0)), sc.awards[i])
                       for i in range(n))
        return dataclasses.replace(sc, winners=winners, awards=awards)


class HighestWinsZ3(Scoring):
    """Twin of ``highest-wins`` (R5.2): at a block the (first) side with the highest total
    wins, with the award the correct scoring gives its first winner."""

    def terms(self, s: StateVars, residuals: Any = None) -> ScoreTerms:
        sc = super().terms(s, residuals)
        n = len(self.sides)
        high = sc.totals[0]
        for x in sc.totals[1:]:
            high = z3.If(z3.UGT(x, high), x, high)
        first = [And(sc.totals[i] == high, *[sc.totals[j] != high for j in range(i)])
                 for i in range(n)]
        given = self.k(0)
        for i in range(n - 1, -1, -1):
            given = z3.If(sc.winners[i], sc.awards[i], given)
        blocked = s.status == BLOCKED
        winners = tuple(z3.If(blocked, first[i], sc.winners[i]) for i in range(n))
        awards = tuple(z3.If(blocked, z3.If(first[i], given, self.k(0)), sc.awards[i])
                       for i in range(n))
        return dataclasses.replace(sc, winners=winners, awards=awards)


class AwardIgnoresVariantZ3(Scoring):
    """Twin of ``award-ignores-variant`` (R5.4): a single winner is always awarded the sum
    of the other sides' totals."""

    def terms(self, s: StateVars, residuals: Any = None) -> ScoreTerms:
        sc = super().terms(s, residuals)
        n = len(self.sides)
        one = z3.Sum([z3.If(w, z3.BitVecVal(1, SCORE_BITS), self.k(0)) for w in sc.winners]) == 1
        others = [z3.Sum([sc.totals[j] for j in range(n) if j != i]) for i in range(n)]
        awards = tuple(z3.If(And(one, sc.winners[i]), others[i], sc.awards[i])
                       for i in range(n))
        return dataclasses.replace(sc, awards=awards)


class DoublesCountOnceZ3(Scoring):
    """Twin of ``doubles-count-once`` (R5.3): the residuals reported count a double ``a-a``
    as ``a`` (winners and awards are still computed from the true counts)."""

    def terms(self, s: StateVars, residuals: Any = None) -> ScoreTerms:
        sc = super().terms(s, residuals)
        if residuals is not None:
            return sc
        e = self.e

        def once(p: int) -> Any:
            return z3.Sum([z3.If(s.loc[t] == p, self.k(e.v.halves[t][1] if e.v.halves[t][0]
                                                      == e.v.halves[t][1] else self.value[t]),
                                 self.k(0)) for t in range(e.v.T)])

        return dataclasses.replace(sc, residuals=tuple(once(p) for p in range(e.v.P)))


class TeamStrideZ3(Scoring):
    """Twin of ``team-stride`` (R5.2): side ``i``'s total sums seats ``i, i+n, ...``."""

    def terms(self, s: StateVars, residuals: Any = None) -> ScoreTerms:
        sc = super().terms(s, residuals)
        n, P = len(self.sides), self.e.v.P
        totals = tuple(z3.Sum([sc.residuals[p] for p in range(i, P, n)] + [self.k(0)])
                       for i in range(n))
        return dataclasses.replace(sc, totals=totals)


class TilesCountedAsPipsZ3(Scoring):
    """Twin of ``tiles-counted-as-pips`` (R5.2a): under "fewest-tiles" the terms still
    compare the sides' totals; the properties state the rule from the constants."""

    def __init__(self, enc: Encoding) -> None:
        super().__init__(enc)
        self.by_tiles = False


class PenaltyToSideIndexZ3(Scoring):
    """Twin of ``penalty-to-side-index`` (R4.5): a foul is charged to the seat numbered
    like its author's side; each side's score is its award less what its seats pay."""

    def terms(self, s: StateVars, residuals: Any = None) -> ScoreTerms:
        sc = super().terms(s, residuals)
        P = self.e.v.P
        side = {p: i for i, seats in enumerate(self.sides) for p in seats}
        penalties = tuple(z3.Sum([sc.penalties[p] for p in range(P) if side[p] == q]
                                 + [self.k(0)]) for q in range(P))
        scores = tuple(sc.awards[i] - z3.Sum([penalties[p] for p in seats] + [self.k(0)])
                       for i, seats in enumerate(self.sides))
        return dataclasses.replace(sc, penalties=penalties, scores=scores)


class ScoresIgnorePenaltiesZ3(Scoring):
    """Twin of ``scores-ignore-penalties`` (R4.5): a side's score is its award."""

    def terms(self, s: StateVars, residuals: Any = None) -> ScoreTerms:
        sc = super().terms(s, residuals)
        return dataclasses.replace(sc, scores=sc.awards)


# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Twin:
    """The Z3 side of one fault: an encoding and/or a scoring (None: the correct one; a
    variant-only fault needs neither, its variant is the fault)."""

    encoding: type[Encoding] | None = None
    scoring: type[Scoring] | None = None
    note: str = ""


class TameMoves(Vocabulary):
    """:class:`MatadorTameZ3`'s vocabulary: a move fits an end where a half sums to N+1."""

    def fits_move(self, m: MoveVars, x: BV) -> Bool:
        if not self.match_total:
            return super().fits_move(m, x)
        a, b, y, total = self._wide(m, x)
        return Or(a + y == total, b + y == total)


class MatadorTameZ3(Encoding):
    """Twin of ``matador-tame`` (R2.1): under Matador matching the matadors are not wild:
    the play's guard and case 5's "can play" (so a confirmation's too) take a tile only
    where a half of it sums with the end to N+1. The predicates the properties state
    (R2 at a block, a false confirmation) keep the rule."""

    vocabulary = TameMoves

    def _tame(self, t: int, x: BV) -> Bool:
        a, b = self.v.halves[t]
        total = self.v.match_total
        return Or([x == y for y in sorted({total - a, total - b}) if 1 <= y <= self.v.N])

    def play_guard(self, s: StateVars) -> Bool:
        if not self.v.match_total:
            return super().play_guard(s)
        return Or([And(self.v.in_hand(s, t, s.turn), Or(z3.Not(s.led), Or(
            [self._tame(t, s.ends[i]) for i in range(self.v.W)])))
            for t in range(self.v.T)])


class FivesAnyCountZ3(Encoding):
    """Twin of ``fives-any-count`` (R5.7): a play scores the ends' count whatever it is,
    not only a multiple of 5."""

    def in_play_scores(self, count: BV) -> Bool:
        return z3.BoolVal(True)


Z3_MUTANTS: dict[str, Twin] = {
    "establish-without-boneyard-check": Twin(EstablishWithoutBoneyardCheckZ3),
    "boneyard-check-off": Twin(note="variant overrides only: the encoding reads them"),
    "confirm-while-playable": Twin(ConfirmWhilePlayableZ3),
    "all-others-confirm": Twin(note="variant overrides only: the encoding reads them"),
    "draw-loses-tile": Twin(DrawLosesTileZ3),
    "lead-ignores-variant": Twin(LeadIgnoresVariantZ3),
    "extra-confirmation": Twin(ExtraConfirmationZ3),
    "confirm-resets": Twin(ConfirmResetsZ3),
    "draw-from-empty-boneyard": Twin(DrawFromEmptyBoneyardZ3),
    "voluntary-pass": Twin(VoluntaryPassZ3),
    "call-unmatched-end": Twin(CallUnmatchedEndZ3),
    "lead-draws-alone": Twin(LeadDrawsAloneZ3),
    "play-keeps-end": Twin(PlayKeepsEndZ3),
    "tie-wrong": Twin(scoring=TieWrongZ3),
    "highest-wins": Twin(scoring=HighestWinsZ3),
    "award-ignores-variant": Twin(scoring=AwardIgnoresVariantZ3),
    "doubles-count-once": Twin(scoring=DoublesCountOnceZ3),
    "team-stride": Twin(scoring=TeamStrideZ3),
    "tiles-counted-as-pips": Twin(scoring=TilesCountedAsPipsZ3),
    "penalty-to-side-index": Twin(scoring=PenaltyToSideIndexZ3),
    "scores-ignore-penalties": Twin(scoring=ScoresIgnorePenaltiesZ3),
    "marker-stays-in": Twin(MarkerStaysInZ3),
    "double-left-uncovered": Twin(DoubleLeftUncoveredZ3),
    "doubles-pile-up": Twin(DoublesPileUpZ3),
    "arms-open-early": Twin(ArmsOpenEarlyZ3),
    "confirm-past-double": Twin(ConfirmPastDoubleZ3),
    "restart-forgotten-last": Twin(RestartForgottenLastZ3),
    "any-marker-opens": Twin(AnyMarkerOpensZ3),
    "public-before-own": Twin(PublicBeforeOwnZ3),
    "out-on-waiting-double": Twin(OutOnWaitingDoubleZ3),
    "every-turn-first": Twin(EveryTurnFirstZ3),
    "matador-tame": Twin(MatadorTameZ3),
    "fives-any-count": Twin(FivesAnyCountZ3),
}


#: Faults the Z3 relation cannot state, and why: they would break what it has no variable
#: for (the search and the reference catch them). None now: R5.7's points are stated.
Z3_UNSTATED: dict[str, str] = {}


def twin_prover(fault: Fault | str, **kwargs: Any) -> Prover:
    """The prover of a fault: its demo variant, its twin encoding and scoring, and the
    fault's own engine to replay what Z3 finds. An unknown fault id is a
    :class:`DominoproofError` naming the known ones."""
    if isinstance(fault, str) and fault not in FAULTS_BY_ID:
        raise DominoproofError(f"no fault {fault!r}; known: {', '.join(FAULTS_BY_ID)}")
    f = FAULTS_BY_ID[fault] if isinstance(fault, str) else fault
    twin = Z3_MUTANTS[f.id]
    v = f.variant()
    enc = (twin.encoding or Encoding)(v)
    return Prover(v, encoding=enc, rules=f.engine_for(v), scoring=twin.scoring,
                  label=f"{v.name} with fault {f.id}", **kwargs)


__all__ = ["Z3_MUTANTS", "Z3_UNSTATED", "Twin", "twin_prover"]

