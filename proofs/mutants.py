"""The engine's patch for each deliberately broken rule set of :mod:`.faults`, keyed by
the fault's id: a mutant rule book (a :class:`~dominoproof.model.fast.FastRules`
subclass, played by the engine and the search) or a mutant scoring (a
:data:`~dominoproof.model.outcome.Scorer`). The other readings keep their patches beside
themselves; a fault that is a variant override needs none.
"""

from __future__ import annotations

import dataclasses

from dominoproof.model import fives
from dominoproof.model.fast import FastRules
from dominoproof.model.layout import Access, Layout
from dominoproof.model.matching import ONE_WAY
from dominoproof.model.moves import LEAD, Move, MoveKind
from dominoproof.model.outcome import Outcome, Scorer, outcome
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import bits
from dominoproof.model.variant import BlockWinner, Variant

__all__ = ["ENGINE_MUTANTS", "SCORING_MUTANTS"]

PLAYING = Status.PLAYING

# ---- Engine mutants (the imperative rules, broken one way each) ----------------


class EstablishWithoutBoneyardCheck(FastRules):
    """R4.1/R4.4 broken: a stuck player may confirm instead of drawing, and the
    establishment does not look at the boneyard."""

    def moves(self, s: State) -> tuple[Move, ...]:
        got = super().moves(s)
        if s.status is PLAYING and s.led and s.hands[s.turn] and s.boneyard:
            if s.confirmed >= self.C:
                return (self._establish[s.turn],)
            if got and got[0].kind is MoveKind.DRAW:
                return (*got, self._confirm[s.turn])
        return got


class ConfirmWhilePlayable(FastRules):
    """R4.3/R4.5 broken: a player holding a playable tile may confirm inability,
    and the confirmation counts (no foul is recorded)."""

    def moves(self, s: State) -> tuple[Move, ...]:
        got = super().moves(s)
        if (got and got[0].kind is MoveKind.PLAY and got[0].end != LEAD
                and self._confirm[s.turn] not in got and not s.boneyard):
            return (*got, self._confirm[s.turn])
        return got

    def step(self, s: State, m: Move) -> State:
        if m.kind is MoveKind.CONFIRM:
            return s._replace(turn=self.next_seat[m.player], confirmed=s.confirmed + 1,
                              drew=False)
        return super().step(s, m)


class DrawLosesTile(FastRules):
    """Conservation broken: the drawn tile leaves the boneyard but never reaches the hand."""

    def step(self, s: State, m: Move) -> State:
        nxt = super().step(s, m)
        if m.kind is MoveKind.DRAW:
            hands = list(nxt.hands)
            hands[m.player] &= ~(1 << m.tile)
            return nxt._replace(hands=tuple(hands))
        return nxt


class LeadIgnoresVariant(FastRules):
    """The opening broken: whoever is to move leads with any tile they hold."""

    def _lead_moves(self, s: State) -> tuple[Move, ...]:
        row = self._lead[s.turn]
        return tuple(row[t] for t in bits(s.hands[s.turn]))

    def opening(self, hands: tuple[int, ...]) -> tuple[int, int | None]:
        leader, _ = super().opening(hands)
        return (leader + 1) % self.players, None


class ExtraConfirmation(FastRules):
    """R4.4 broken: the block needs one confirmation more than the variant says."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.C += 1


class ConfirmResets(FastRules):
    """R4.2 broken: each confirmation restarts the count, so no block is ever
    established and a blocked round goes round the table for ever."""

    def step(self, s: State, m: Move) -> State:
        nxt = super().step(s, m)
        if m.kind is MoveKind.CONFIRM:
            return nxt._replace(confirmed=0)
        return nxt


class DrawFromEmptyBoneyard(FastRules):
    """R3.1 broken: with the boneyard empty, a stuck player draws a set-aside tile."""

    def moves(self, s: State) -> tuple[Move, ...]:
        got = super().moves(s)
        if (got and got[0].kind is MoveKind.CONFIRM and not s.boneyard and s.set_aside
                and s.confirmed == 0 and not self.playable_mask(s, s.turn)):
            t = next(iter(bits(s.set_aside)))
            return (*got, self._draw[s.turn][t])
        return got

    def step(self, s: State, m: Move) -> State:
        if m.kind is MoveKind.DRAW and not s.boneyard >> m.tile & 1:
            hands = list(s.hands)
            hands[m.player] |= 1 << m.tile
            return s._replace(hands=tuple(hands), set_aside=s.set_aside & ~(1 << m.tile))
        return super().step(s, m)


class VoluntaryPass(FastRules):
    """R3.5 broken: "may draw even when able to play" stated as "may pass": with stock
    left, a player who can play may pass the turn without drawing, so a round can go
    round the table for ever."""

    def moves(self, s: State) -> tuple[Move, ...]:
        got = super().moves(s)
        if (got and got[0].kind is MoveKind.PLAY and got[0].end != LEAD
                and got[-1].kind is MoveKind.DRAW):
            return (*(m for m in got if m.kind is not MoveKind.DRAW), self._pass[s.turn])
        return got


class CallUnmatchedEnd(FastRules):
    """R4.7 broken: an end is taken for dead when no hand holds a tile of its number,
    though the boneyard may still hold one: the block is called too early."""

    def moves(self, s: State) -> tuple[Move, ...]:
        got = super().moves(s)
        if (self.call and got and got[0].kind is not MoveKind.ESTABLISH and s.led
                and s.hands[s.turn] and any(not self.fits[x] & s.in_hands
                                            for x in self.layout.numbers(s.ends))):
            return (self._establish[s.turn], *got)
        return got
class LeadDrawsAlone(FastRules):
    """R3.6 broken: drawing for the lead read as drawing until playable (R3.1): the first
    player draws alone until the named tile turns up, the turn never passing."""

    def step(self, s: State, m: Move) -> State:
        nxt = super().step(s, m)
        return nxt._replace(turn=m.player) if m.kind is MoveKind.DRAW and not s.led else nxt


class PlayKeepsEnd(FastRules):
    """The layout broken: a tile laid on an end leaves that end showing the same number."""

    def step(self, s: State, m: Move) -> State:
        nxt = super().step(s, m)
        if m.kind is MoveKind.PLAY and m.end != LEAD:
            return nxt._replace(ends=s.ends)
        return nxt


# ---- Layouts of several lines: markers, doubles that take tiles, a spinner's arms ----
# (these run the named actions, whose layout operations are Layout's: a mutant has a
# broken Layout of its own, made from the slot data and the number of players)


def _unpended(layout: Layout, marks: int) -> int:
    """``marks`` with no slot pending."""
    f = layout.fields
    return marks & ~(((1 << layout.width) - 1) << f.pending) if f.pending >= 0 else marks


class _PendingIgnored(Layout):
    """A player may play on any open slot they may play on, pending or not."""

    def targets(self, ends: tuple[int, ...], player: int, marks: int = 0,
                weights: tuple[int, ...] = ()) -> tuple[int, ...]:
        return super().targets(ends, player, _unpended(self, marks), weights)


class _PilesUp(Layout):
    """As :class:`_PendingIgnored`, and a double laid there waits too."""

    def targets(self, ends: tuple[int, ...], player: int, marks: int = 0,
                weights: tuple[int, ...] = ()) -> tuple[int, ...]:
        return super().targets(ends, player, _unpended(self, marks), weights)

    def starts_wait(self, pending: int) -> bool:
        return True


class _SidesIgnored(Layout):
    """A spinner's arms may be played on before the sides they wait for are covered."""

    def may_play(self, slot: int, player: int, marks: int = 0) -> bool:
        sl = self.data.slots[slot]
        if sl.access is Access.EVERYONE or sl.owner == player:
            return True
        return (sl.access is Access.OWNER_OR_MARKER and sl.owner is not None
                and self.marker_out(marks, sl.owner))


class _AnyMarkerOpens(Layout):
    """R2.3's house rule read as: every train is open to everyone while any marker is
    out (not the mover's own)."""

    def may_play(self, slot: int, player: int, marks: int = 0) -> bool:
        sl = self.data.slots[slot]
        if sl.access is Access.OWNER_OR_MARKERS and any(
                self.marker_out(marks, q) for q in range(self.players)):
            return True
        return super().may_play(slot, player, marks)


class _PublicAlwaysOpen(Layout):
    """The public train open to everyone, started train or not."""

    def may_play(self, slot: int, player: int, marks: int = 0) -> bool:
        if self.data.slots[slot].access is Access.STARTED:
            return True
        return super().may_play(slot, player, marks)


class _LastDoubleAllowed(Layout):
    """A double that would wait to be covered may be a player's last tile all the same."""

    def bars_going_out(self, marks: int, slot: int, tile: tuple[int, int]) -> bool:
        return False


class OutOnWaitingDouble(FastRules):
    """R2.2 broken under out_on_double = "covered": a player may lay a double that must be
    covered as their last tile, and go out on it (the round ends on an uncovered double)."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.layout = _LastDoubleAllowed(self.layout.data, self.players)


class AnyMarkerOpens(FastRules):
    """R2.3 broken under open_trains = "own-marker-out": a player may play on every train
    while any player's marker is out, their own in or not."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.layout = _AnyMarkerOpens(self.layout.data, self.players)


class PublicBeforeOwn(FastRules):
    """R2.3 broken under public_train = "after-own": the public train is open to a player
    whose own train has no tile yet."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.layout = _PublicAlwaysOpen(self.layout.data, self.players)


class _EveryTurnFirst(Layout):
    """Every play on one's own train read as one in a first turn still going on."""

    def extend(self, ends: tuple[int, ...], marks: int, slot: int, tile: tuple[int, int],
               player: int, *, canon: bool = True, leaves: int = ONE_WAY
               ) -> tuple[tuple[int, ...], int]:
        if self.fields.first >= 0 and self.own_train(player) == slot:
            marks |= 1 << self.fields.first  # as if the first turn were going on
        return super().extend(ends, marks, slot, tile, player, canon=canon, leaves=leaves)


class EveryTurnFirst(FastRules):
    """R2.3 broken under first_turn = "own-train": "own train not started" forgotten, so
    every play on one's own train, on any turn, lets its player lay on."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.layout = _EveryTurnFirst(self.layout.data, self.players)


class MarkerStaysIn(FastRules):
    """R3.1/R4.2 broken on trains: a pass or a confirmation leaves the player's marker
    in, so their train stays closed to the others."""

    def step(self, s: State, m: Move) -> State:
        nxt = super().step(s, m)
        if m.kind in (MoveKind.PASS, MoveKind.CONFIRM):
            return nxt._replace(marks=self.layout.with_marker(
                nxt.marks, m.player, self.layout.marker_out(s.marks, m.player)))
        return nxt


class DoubleLeftUncovered(FastRules):
    """R2.2 broken: while a double waits to be covered, play may go elsewhere."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.layout = _PendingIgnored(self.layout.data, self.players)


class DoublesPileUp(FastRules):
    """R2.2 broken: while a double waits to be covered, play may go elsewhere, and a double
    laid there waits too (two doubles wait at once)."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.layout = _PilesUp(self.layout.data, self.players)


class ArmsOpenEarly(FastRules):
    """Terms/R2.2 broken: a spinner's arms may be played on before its sides are
    covered."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.layout = _SidesIgnored(self.layout.data, self.players)


class ConfirmPastDouble(FastRules):
    """R1.1/R4.4 broken: a player holding a tile that covers a pending slot may confirm
    inability anyway (the boneyard supplying nothing), and the confirmation counts."""

    def _past(self, s: State) -> bool:
        return (s.status is PLAYING and s.led and not s.boneyard
                and self.layout.pending(s.marks) != 0 and self.playable_mask(s, s.turn) != 0
                and s.confirmed < self.C)

    def moves(self, s: State) -> tuple[Move, ...]:
        got = super().moves(s)
        if self._past(s) and self._confirm[s.turn] not in got:
            return (*got, self._confirm[s.turn])
        return got

    def step(self, s: State, m: Move) -> State:
        if m.kind is MoveKind.CONFIRM and self._past(s):
            return s._replace(turn=self.next_seat[m.player], confirmed=s.confirmed + 1,
                              drew=False, marks=self.layout.with_marker(s.marks, m.player,
                                                                        True))
        return super().step(s, m)


class RestartForgottenLast(FastRules):
    """R4.4 broken where a confirmation that puts a marker out restarts the run: the
    restart is forgotten on the confirmation that completes the run, so the block stands
    though that confirmation has just opened a train."""

    def step(self, s: State, m: Move) -> State:
        nxt = super().step(s, m)
        if (m.kind is MoveKind.CONFIRM and nxt.confirmed == 1 and nxt.marks != s.marks
                and not nxt.fouls >> m.player & 1 and s.confirmed + 1 >= self.C):
            return nxt._replace(confirmed=s.confirmed + 1)
        return nxt


# ---- Scoring mutants -----------------------------------------------------------


def _tie_wrong(variant: Variant, s: State) -> Outcome | None:
    """R5.5 broken: a tie is always won by the tied side last in seat order."""
    res = outcome(variant, s)
    if res is None or len(res.tied) < 2:
        return res
    w = max(res.tied)
    awards = [0] * len(res.sides)
    awards[w] = sum(t for i, t in enumerate(res.totals) if i != w)
    return dataclasses.replace(res, winners=(w,), awards=tuple(awards))


def _highest_wins(variant: Variant, s: State) -> Outcome | None:
    """R5.2 broken: at a block the side with the *highest* total wins."""
    res = outcome(variant, s)
    if res is None or res.termination.value != "blocked":
        return res
    high = max(res.totals)
    w = res.totals.index(high)
    awards = [0] * len(res.sides)
    awards[w] = res.awards[res.winners[0]] if res.winners else 0
    return dataclasses.replace(res, winners=(w,), tied=(), awards=tuple(awards))


def _award_ignores_variant(variant: Variant, s: State) -> Outcome | None:
    """R5.4 broken: the award is always the sum of the others' totals."""
    res = outcome(variant, s)
    if res is None or len(res.winners) != 1:
        return res
    w = res.winners[0]
    awards = [0] * len(res.sides)
    awards[w] = sum(t for i, t in enumerate(res.totals) if i != w)
    return dataclasses.replace(res, awards=tuple(awards))


def _doubles_count_once(variant: Variant, s: State) -> Outcome | None:
    """R5.3 broken: a double a-a counts a, not 2a."""
    res = outcome(variant, s)
    if res is None:
        return res
    ts = variant.tiles
    residuals = tuple(sum(ts.hi[t] if ts.lo[t] == ts.hi[t] else ts.pips[t] for t in bits(h))
                      for h in s.hands)
    return dataclasses.replace(res, residuals=residuals)


def _team_stride(variant: Variant, s: State) -> Outcome | None:
    """R5.2 broken: side totals summed over a seat stride (seats i, i+n, ...) instead of
    the teams the variant lists: right for [[0, 2], [1, 3]], wrong for [[0, 1], [2, 3]]."""
    res = outcome(variant, s)
    if res is None:
        return res
    n, players = len(res.sides), len(res.residuals)
    totals = tuple(sum(res.residuals[p] for p in range(i, players, n)) for i in range(n))
    return dataclasses.replace(res, totals=totals)


def _tiles_counted_as_pips(variant: Variant, s: State) -> Outcome | None:
    """R5.2a broken: under "fewest-tiles" a block is still won by the fewest pips."""
    pips = dataclasses.replace(variant, scoring=dataclasses.replace(
        variant.scoring, block_winner=BlockWinner.FEWEST_PIPS))
    return outcome(pips, s)


def _penalty_to_side_index(variant: Variant, s: State) -> Outcome | None:
    """R4.5 broken: a foul's penalty is charged to the seat numbered like its author's
    side (a side index used as a seat); the side scores stay the sum of what its seats
    are charged."""
    res = outcome(variant, s)
    if res is None:
        return res
    penalties = [0] * len(res.penalties)
    for p, paid in enumerate(res.penalties):
        if paid:
            penalties[next(i for i, side in enumerate(res.sides) if p in side)] += paid
    scores = tuple(res.awards[i] - sum(penalties[p] for p in side)
                   for i, side in enumerate(res.sides))
    return dataclasses.replace(res, penalties=tuple(penalties), scores=scores)


def _scores_ignore_penalties(variant: Variant, s: State) -> Outcome | None:
    """R4.5 broken at scoring: a side's final score is its award, its fouls forgotten."""
    res = outcome(variant, s)
    if res is None:
        return res
    return dataclasses.replace(res, scores=res.awards)


class FivesAnyCount(FastRules):
    """R5.7 broken: a play scores the ends' count whatever it is, not only a multiple
    of 5."""

    def step(self, s: State, m: Move) -> State:
        t = super().step(s, m)
        if m.kind is MoveKind.PLAY and t.points:
            total = fives.count(t.ends, t.weights)
            if not fives.scored(total):
                points = list(t.points)
                points[m.player] += total
                t = t._replace(points=tuple(points))
        return t


#: fault id -> the engine's mutant rule book
class MatadorTame(FastRules):
    """R2.1 broken under Matador matching: the matadors are not wild -- laid, and counted
    for R2 and R4, only where a half of them sums with the end to N+1 -- so a player
    holding one that sums with no end declares they cannot play, and the block is
    established while it could still be laid."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        total = self.layout.data.match_total
        if total:
            self.fits = tuple(sum(1 << t for t, (a, b) in enumerate(self.halves)
                                  if total in (a + x, b + x))
                              for x in range(self.tiles.n + 1))


ENGINE_MUTANTS: dict[str, type[FastRules]] = {
    "establish-without-boneyard-check": EstablishWithoutBoneyardCheck,
    "confirm-while-playable": ConfirmWhilePlayable,
    "draw-loses-tile": DrawLosesTile,
    "lead-ignores-variant": LeadIgnoresVariant,
    "extra-confirmation": ExtraConfirmation,
    "confirm-resets": ConfirmResets,
    "draw-from-empty-boneyard": DrawFromEmptyBoneyard,
    "voluntary-pass": VoluntaryPass,
    "call-unmatched-end": CallUnmatchedEnd,
    "lead-draws-alone": LeadDrawsAlone,
    "play-keeps-end": PlayKeepsEnd,
    "marker-stays-in": MarkerStaysIn,
    "double-left-uncovered": DoubleLeftUncovered,
    "doubles-pile-up": DoublesPileUp,
    "arms-open-early": ArmsOpenEarly,
    "confirm-past-double": ConfirmPastDouble,
    "restart-forgotten-last": RestartForgottenLast,
    "any-marker-opens": AnyMarkerOpens,
    "public-before-own": PublicBeforeOwn,
    "out-on-waiting-double": OutOnWaitingDouble,
    "every-turn-first": EveryTurnFirst,
    "matador-tame": MatadorTame,
    "fives-any-count": FivesAnyCount,
}
#: fault id -> the engine's mutant scoring
SCORING_MUTANTS: dict[str, Scorer] = {
    "tie-wrong": _tie_wrong,
    "highest-wins": _highest_wins,
    "award-ignores-variant": _award_ignores_variant,
    "doubles-count-once": _doubles_count_once,
    "team-stride": _team_stride,
    "tiles-counted-as-pips": _tiles_counted_as_pips,
    "penalty-to-side-index": _penalty_to_side_index,
    "scores-ignore-penalties": _scores_ignore_penalties,
}
