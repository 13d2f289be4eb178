"""Scoring (R5): the end of a round is a value, :class:`Outcome` (STYLE 4).

A *side* is what scores: a team when the variant compares team totals, else a
single player. Every number here is an ``int`` (pips are never floats).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .constants import constants_of
from .fast import engine_for
from .state import Ending, State, Status
from .tiles import Tile, bits, mask_of
from .variant import Award, AwardUnit, BlockWinner, TieRule, Variant


@dataclass(frozen=True)
class Outcome:
    """How a round ended and what everyone scored.

    ``awards[i]`` is what side ``i`` wins (R5.4/R5.5), ``penalties[p]`` what
    player ``p``'s fouls cost (R4.5), ``scores[i]`` side ``i``'s net result.
    """

    termination: Ending  #: BLOCKED or DOMINO (a round that ends is never STUCK)
    residuals: tuple[int, ...]  #: R5.3: per player, the value of the tiles left in hand
    sides: tuple[tuple[int, ...], ...]  #: the seats of each side
    totals: tuple[int, ...]  #: per side, the sum of its players' residuals
    winners: tuple[int, ...]  #: winning sides (empty: nobody scores)
    awards: tuple[int, ...]  #: per side
    penalties: tuple[int, ...]  #: per player (R4.5)
    scores: tuple[int, ...]  #: per side: award minus its players' penalties
    tied: tuple[int, ...]  #: sides tied for the lowest total (blocked rounds; () if no tie)
    proposer: int | None  #: R4.1: who proposed the block
    explanation: str
    #: R5.2a: per side, what a block's winner is decided by: its total (fewest pips) or
    #: the number of tiles left in its hands (fewest tiles)
    counts: tuple[int, ...] = ()
    winner_by: BlockWinner = BlockWinner.FEWEST_PIPS  #: R5.2a [scoring.block_winner]
    unit: AwardUnit = AwardUnit.PIPS  #: R5.4: what the awards count [scoring.award_unit]
    #: R5.7: per side, the points its plays scored (``()`` where plays score nothing);
    #: its score adds them to its award
    points: tuple[int, ...] = ()

    @property
    def winning_players(self) -> tuple[int, ...]:
        return tuple(p for i in self.winners for p in self.sides[i])

    def to_json(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "residuals": list(self.residuals),
            "sides": [list(s) for s in self.sides],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "awards": list(self.awards),
            "penalties": list(self.penalties),
            "scores": list(self.scores),
            "tied": list(self.tied),
            "proposer": self.proposer,
            "explanation": self.explanation,
            # named only where the variant departs from pips, so other outcomes read as before
            **({"block_winner": self.winner_by.value, "counts": list(self.counts)}
               if self.winner_by is not BlockWinner.FEWEST_PIPS else {}),
            **({"award_unit": self.unit.value} if self.unit is not AwardUnit.PIPS else {}),
            **({"points": list(self.points)} if self.points else {}),
        }


def residual(variant: Variant, hand: int) -> int:
    """R5.3: a hand's residual count: the sum of its tiles' values."""
    value = constants_of(variant).VALUE
    return sum(value[t] for t in bits(hand))


def rounded(x: int, step: int) -> int:
    """R5.4 "rounded": to the nearest multiple of ``step``, halves up."""
    return (x + step // 2) // step * step if step > 1 else x


def award(variant: Variant, rule: Award, totals: tuple[int, ...], winners: list[int]) -> int:
    """R5.4: what each of ``winners`` is awarded under ``rule`` (before R5.5 sharing);
    ``totals``: each side's count in the award's unit (:func:`award_basis`)."""
    if rule is Award.NOTHING:  # no pips change hands: each side's own count stands
        return 0
    others = sum(t for i, t in enumerate(totals) if i not in winners)
    if rule is Award.OTHERS_SUM:
        x = others
    elif rule is Award.OTHERS_MINUS_WINNER:
        x = max(0, others - totals[winners[0]])
    else:
        x = sum(totals)
    return rounded(x, variant.scoring.round_to)


def tiles_left(sides: tuple[tuple[int, ...], ...], hands: tuple[int, ...]) -> tuple[int, ...]:
    """Each side's number of tiles left in hand (R5.2a "fewest-tiles", R5.4 "tiles")."""
    return tuple(sum(hands[p].bit_count() for p in side) for side in sides)


def award_basis(variant: Variant, totals: tuple[int, ...], tiles: tuple[int, ...]
                ) -> tuple[int, ...]:
    """R5.4: each side's count in the unit the awards count: its total, or its tiles."""
    return tiles if constants_of(variant).UNIT is AwardUnit.TILES else totals


def side_of(sides: tuple[tuple[int, ...], ...], player: int) -> int:
    for i, s in enumerate(sides):
        if player in s:
            return i
    raise ValueError(player)


def side_totals(sides: tuple[tuple[int, ...], ...], residuals: tuple[int, ...]
                ) -> tuple[int, ...]:
    """R5.2: each side's total, the sum of its seats' residuals."""
    return tuple(sum(residuals[p] for p in side) for side in sides)


def side_points(sides: tuple[tuple[int, ...], ...], points: tuple[int, ...]
                ) -> tuple[int, ...]:
    """R5.7: each side's points scored in play (``()`` where plays score nothing)."""
    return tuple(sum(points[p] for p in side) for side in sides) if points else ()


def seat_penalties(variant: Variant, fouls: int) -> tuple[int, ...]:
    """R4.5: what each seat's fouls cost it (``fouls``: the seats that fouled, a mask)."""
    return tuple(variant.fouls.penalty if fouls >> p & 1 else 0
                 for p in range(variant.players))


def outcome(variant: Variant, s: State) -> Outcome | None:
    """The outcome of a finished round, or ``None`` while it is still being played."""
    if s.status is Status.PLAYING:
        return None
    sides = constants_of(variant).SIDES
    residuals = tuple(residual(variant, h) for h in s.hands)
    totals = side_totals(sides, residuals)
    tiles = tiles_left(sides, s.hands)
    c = constants_of(variant)
    counts = tiles if c.WINNER is BlockWinner.FEWEST_TILES else totals  # R5.2a
    basis = award_basis(variant, totals, tiles)  # R5.4: pips or tiles
    penalties = seat_penalties(variant, s.fouls)
    proposer = s.proposer
    tied: tuple[int, ...] = ()
    if s.status is Status.DOMINO:
        w = side_of(sides, s.turn)
        winners = [w]
        awards = [0] * len(sides)
        awards[w] = award(variant, variant.scoring.domino_award, basis, winners)
        why = f"P{s.turn} emptied their hand: domino"
        term = Ending.DOMINO
    else:
        term = Ending.BLOCKED
        winners, awards, tied, why = _blocked(variant, s, sides, counts, basis, proposer)
    points = side_points(sides, s.points)  # R5.7: scored in play, () where nothing is
    scores = tuple(awards[i] - sum(penalties[p] for p in side) + (points[i] if points else 0)
                   for i, side in enumerate(sides))
    return Outcome(term, residuals, sides, totals, tuple(winners), tuple(awards), penalties,
                   scores, tied, proposer, why, counts, c.WINNER, c.UNIT, points)


def _blocked(
    variant: Variant, s: State, sides: tuple[tuple[int, ...], ...], counts: tuple[int, ...],
    basis: tuple[int, ...], proposer: int | None,
) -> tuple[list[int], list[int], tuple[int, ...], str]:
    """R5.2/R5.2a (the lowest count wins: pips or tiles), R5.4 (award, over ``basis``:
    each side's count in the award's unit), R5.5 (ties)."""
    rule = variant.scoring.block_award
    low = min(counts)
    tied = [i for i, t in enumerate(counts) if t == low]
    by_tiles = constants_of(variant).WINNER is BlockWinner.FEWEST_TILES
    fewest = "the fewest tiles" if by_tiles else "the lowest count"
    awards = [0] * len(sides)

    def name(i: int) -> str:
        side = sides[i]
        return f"P{side[0]}" if len(side) == 1 else "team " + "+".join(f"P{p}" for p in side)

    if len(tied) == 1:
        awards[tied[0]] = award(variant, rule, basis, tied)
        return tied, awards, (), f"blocked: {name(tied[0])} has {fewest} ({low})"
    tie = variant.scoring.tie
    names = ", ".join(name(i) for i in tied)
    head = f"blocked: {names} tie at {low}{' tiles' if by_tiles else ''}; R5.5 {tie.value}"
    if tie is TieRule.NONE:
        return [], awards, tuple(tied), f"{head}: nobody scores"
    if tie is TieRule.SPLIT:
        share = award(variant, rule, basis, tied) // len(tied)
        for i in tied:
            awards[i] = share
        return tied, awards, tuple(tied), f"{head}: each receives {share}"
    if tie is TieRule.ALL_WIN:
        full = award(variant, rule, basis, tied)
        for i in tied:
            awards[i] = full
        return tied, awards, tuple(tied), f"{head}: each receives {full}"
    w: int | None
    if tie is TieRule.FIRST_FROM_PROPOSER:
        start = proposer if proposer is not None else s.turn
        w = first_clockwise(variant, sides, tied, start)
        why = f"{name(w)} comes first in turn order from the proposer P{start}"
    elif tie is TieRule.LEADER:
        start = variant.lead.player
        w = first_clockwise(variant, sides, tied, start)
        why = f"{name(w)} comes first in turn order from the leader P{start} (la mano)"
    elif tie is TieRule.NO_DOUBLE:
        doubles = mask_of(variant.tiles.doubles())
        free = [i for i in tied if not _mask(s, sides[i]) & doubles]
        if len(free) != 1:
            return [], awards, tuple(tied), (
                f"{head}: {'no' if not free else len(free)} tied sides hold no double, "
                "nobody scores")
        w = free[0]
        why = f"{name(w)} is the only tied side holding no double"
    elif tie is TieRule.LIGHTEST_TILE:
        rules = engine_for(variant)
        held = {i: rules.lightest(_mask(s, sides[i])) for i in tied if _mask(s, sides[i])}
        w = min(held, key=lambda i: (constants_of(variant).VALUE[held[i]], held[i]))
        why = f"{name(w)} holds the lightest tile {Tile.from_index(held[w]).show()}"
    else:  # TEAM_TOTAL: tied players are separated by their teams' counts (pips or tiles)
        team_total = {i: sum(counts[side_of(sides, q)] for team in variant.partnerships.teams
                             if sides[i][0] in team for q in team) for i in tied}
        best = min(team_total.values())
        lowest = [i for i in tied if team_total[i] == best]
        if len(lowest) > 1:
            return [], awards, tuple(tied), f"{head}: the team totals tie too, nobody scores"
        w = lowest[0]
        why = f"{name(w)}'s team has the lowest total ({best})"
    awards[w] = award(variant, rule, basis, [w])
    return [w], awards, tuple(tied), f"{head}: {why}"


def first_clockwise(variant: Variant, sides: tuple[tuple[int, ...], ...], tied: list[int],
                    start: int) -> int:
    """R5.5: the tied side first met going clockwise from seat ``start`` (included)."""
    order = [(start + k) % variant.players for k in range(variant.players)]
    return next(side_of(sides, p) for p in order if side_of(sides, p) in tied)


def _mask(s: State, side: tuple[int, ...]) -> int:
    m = 0
    for p in side:
        m |= s.hands[p]
    return m


#: A scoring reading: the outcome of a state (``None`` while the round is played).
#: :func:`outcome` is the engine's; a fault's mutant is another.
Scorer = Callable[[Variant, State], "Outcome | None"]
