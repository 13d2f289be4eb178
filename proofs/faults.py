"""Deliberately broken rule sets: every property must catch at least one of them.

A check that cannot fail is a defect. Each :class:`Fault` is a mutant of the
rules (a :class:`~dominoproof.model.rules.Rules` subclass, used by the engine
and the graph search), of the scoring (a mutant ``scorer``), or of the variant
(overrides that a validated variant may legally take but that break a
guarantee). The Z3 encoding has its own mutant for each fault id
(``dominoproof.proofs.encoding_faults``), so that both readings of the rules are
shown able to fail.

Each fault names the properties expected to catch it and a small configuration
on which the violation is reachable: a preset, overrides, and which deals
(:attr:`Fault.demo_deals`: every deal, or one seeded deal, with the deal's draw
order or every draw order). ``tests/test_faults_graph.py`` explores each demo
exhaustively under the fault and asserts that every property listed in
``catches`` finds a counterexample, that the correct rules pass on the same
configuration, and that every property of the catalogue catches some fault.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.fast import FastRules
from dominoproof.model.moves import LEAD, Move, MoveKind
from dominoproof.model.outcome import Outcome, outcome
from dominoproof.model.rules import Rules
from dominoproof.model.state import State, Status
from dominoproof.model.system import Init
from dominoproof.model.tiles import bits
from dominoproof.model.variant import Award, Variant, find_variant

from .statespace import Scorer, init_for, rule_book

PLAYING = Status.PLAYING


# ---------------------------------------------------------------------------
# Engine mutants (the imperative rules, broken one way each)
# ---------------------------------------------------------------------------


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


class PlayKeepsEnd(FastRules):
    """The layout broken: a tile laid on an end leaves that end showing the same number."""

    def step(self, s: State, m: Move) -> State:
        nxt = super().step(s, m)
        if m.kind is MoveKind.PLAY and m.end != LEAD:
            return nxt._replace(ends=s.ends)
        return nxt


# ---------------------------------------------------------------------------
# Scoring mutants
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Fault:
    id: str
    description: str
    rules: tuple[str, ...]  #: rule IDs the fault breaks
    catches: tuple[str, ...]  #: property ids expected to catch it
    demo: str  #: a preset on which the violation is reachable ...
    demo_overrides: Mapping[str, Any] = field(default_factory=dict)  #: ... with these overrides
    engine: type[Rules] | None = None
    scorer: Scorer | None = None
    variant_overrides: Mapping[str, Any] = field(default_factory=dict)
    #: ... from these deals: "every" (every deal), "seed S" (the deal of seed S), either
    #: followed by " free-draw" (every draw order)
    demo_deals: str = "every"

    def variant(self) -> Variant:
        """The demo configuration, with the fault's own variant overrides."""
        v = find_variant(self.demo)
        overrides = {**self.demo_overrides, **self.variant_overrides}
        return v.with_overrides(overrides, source=f"fault {self.id}") if overrides else v

    def init(self, variant: Variant | None = None) -> Init:
        """The demo's initial states (:attr:`demo_deals`) for ``variant`` (default: the
        demo variant)."""
        return init_for(variant or self.variant(), self.demo_deals)

    def rules_for(self, variant: Variant) -> Rules:
        return rule_book(variant, self.engine)

    def score(self, variant: Variant, s: State) -> Outcome | None:
        return (self.scorer or outcome)(variant, s)


#: Demo configurations, small enough to explore every deal in well under a second.
#: A draw game on double-2: 2 tiles each, 2 in the boneyard, the holder of 2-2 leads.
_DRAW_D2 = {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}
#: The block game on double-2: 2 tiles each, 2 out of play.
_BLOCK_D2 = {"set.max": 2, "deal.hand_size": 2}
#: Four players on double-2: one tile each, 2 out of play, the top double leads.
_TEAMS_D2 = {"set.max": 2, "deal.hand_size": 1, "lead.tile": "2-2"}
#: Three players on double-2, two tiles each, the holder of 2-2 leads (fouls need a
#: second tile: a lead from a hand of one is a domino).
_FOULS_D2 = {"set.max": 2, "deal.players": 3, "deal.hand_size": 2, "lead.tile": "2-2"}

FAULTS: tuple[Fault, ...] = (
    Fault("establish-without-boneyard-check",
          "a stuck player may confirm instead of drawing, and the block is established "
          "without checking the boneyard",
          ("R3.2", "R4.1", "R4.4"), ("blocked-sound", "procedure"),
          "tiny-2p-d3", demo_overrides=_DRAW_D2, engine=EstablishWithoutBoneyardCheck),
    Fault("boneyard-check-off",
          "variant: confirmations count while the boneyard still has stock (draw-one game)",
          ("R4.4",), ("blocked-sound", "procedure"),
          "tiny-2p-d3", variant_overrides={"draw.rule": "one",
                                          "block.boneyard_must_be_empty": False},
          demo_deals="seed 0 free-draw"),
    Fault("confirm-while-playable",
          "a player holding a playable tile may confirm inability, and it counts",
          ("R4.3", "R4.5"), ("no-false-confirmation", "blocked-sound"),
          "block-2p-d6", demo_overrides=_BLOCK_D2, engine=ConfirmWhilePlayable),
    Fault("all-others-confirm",
          "variant: the block is established after every player but one has confirmed",
          ("R4.4",), ("blocked-sound", "procedure"),
          "block-2p-d6", demo_overrides=_BLOCK_D2,
          variant_overrides={"block.confirmations": "all-others"}),
    Fault("draw-loses-tile", "a drawn tile leaves the boneyard but never reaches the hand",
          ("Terms", "R3.1"), ("conservation",), "tiny-2p-d3", demo_overrides=_DRAW_D2,
          engine=DrawLosesTile),
    Fault("lead-ignores-variant", "the lead ignores the variant's lead rule",
          ("Terms",), ("opening",), "tiny-2p-d3", demo_overrides=_DRAW_D2,
          engine=LeadIgnoresVariant),
    Fault("extra-confirmation", "the block needs one confirmation more than the variant says",
          ("R4.4",), ("blocked-complete",), "block-2p-d6", demo_overrides=_BLOCK_D2,
          engine=ExtraConfirmation),
    Fault("confirm-resets", "each confirmation restarts the count: no block is ever "
          "established", ("R4.2", "R4.4"), ("termination", "blocked-complete"),
          "block-2p-d6", demo_overrides=_BLOCK_D2, engine=ConfirmResets),
    Fault("draw-from-empty-boneyard", "with the boneyard empty, a stuck player draws a "
          "set-aside tile", ("R3.1", "R3.2"), ("boneyard-monotone",),
          "draw-leave2-2p-d6", demo_overrides=_BLOCK_D2, engine=DrawFromEmptyBoneyard),
    # Parity needs every tile in play and, to be refuted by a line whose ends never
    # change, an odd N: double-3, 5 tiles each, any opening tile.
    Fault("play-keeps-end", "a tile laid on an end leaves it showing the same number",
          ("R2.1", "Terms"), ("parity",), "block-2p-d6",
          demo_overrides={"set.max": 3, "deal.hand_size": 5}, engine=PlayKeepsEnd),
    # A tie for the lowest count needs a little more room: double-3, 2 tiles each.
    Fault("tie-wrong", "a tie is always won by the tied side last in seat order",
          ("R5.5",), ("tie",), "block-2p-d6",
          demo_overrides={"set.max": 3, "deal.hand_size": 2}, scorer=_tie_wrong),
    Fault("highest-wins", "at a block the side with the highest total wins",
          ("R5.2",), ("winner-lowest",), "block-2p-d6", demo_overrides=_BLOCK_D2,
          scorer=_highest_wins),
    Fault("award-ignores-variant", "the award is always the sum of the others' totals",
          ("R5.4",), ("award",), "block-2p-d6",
          demo_overrides={**_BLOCK_D2, "scoring.block_award": Award.ALL_RESIDUALS.value},
          scorer=_award_ignores_variant),
    Fault("doubles-count-once", "a double a-a counts a instead of 2a",
          ("R5.3",), ("pips",), "block-2p-d6", demo_overrides=_BLOCK_D2,
          scorer=_doubles_count_once),
    # Teams that are not a seat stride: seats 0 and 1 against 2 and 3, one tile each.
    Fault("team-stride", "side totals are summed over a seat stride, not the teams listed",
          ("R5.2",), ("pips",), "partnership-4p-d6",
          demo_overrides={**_TEAMS_D2, "partnerships.teams": [[0, 1], [2, 3]]},
          scorer=_team_stride),
    Fault("penalty-to-side-index", "a foul's penalty is charged to the seat numbered like "
          "its author's side", ("R4.5",), ("foul-penalty",), "fouls-4p-d6",
          demo_overrides={**_FOULS_D2, "partnerships.teams": [[0, 2], [1]],
                          "partnerships.compare": "team"},
          scorer=_penalty_to_side_index),
    Fault("scores-ignore-penalties", "a side's final score is its award, fouls forgotten",
          ("R4.5",), ("final-scores",), "fouls-4p-d6", demo_overrides=_FOULS_D2,
          scorer=_scores_ignore_penalties),
)

FAULTS_BY_ID: dict[str, Fault] = {f.id: f for f in FAULTS}
