"""The tests' plain reading of R5 (SEMANTICS "Scoring"), beside the rules' in
``tests/reference_rules.py``: who wins a round, what each side is awarded and scores,
written from SEMANTICS.md alone in plain lists and dicts (the rules' state and the tile
values are read through ``reference_rules``)."""

from __future__ import annotations

from typing import Any

import reference_rules as ref

from dominoproof.model.variant import Variant

# ---------------------------------------------------------------------------
# Scoring (R5), SEMANTICS "Scoring"
# ---------------------------------------------------------------------------


def sides(variant: Variant) -> list[list[int]]:
    if variant.partnerships.compare.value == "team":
        return [list(t) for t in variant.partnerships.teams]
    return [[p] for p in range(variant.deal.players)]


def rounded(x: int, step: int) -> int:
    """Nearest multiple of step (halves round up)."""
    return ((2 * x + step) // (2 * step)) * step


def score(variant: Variant, r: ref.RefState) -> dict[str, Any] | None:
    """R5: who won, what each side is awarded and scores; None while playing."""
    if r.status == ref.PLAYING:
        return None
    players = variant.deal.players
    residuals = [sum(ref.value(variant, t) for t in r.hands[p]) for p in range(players)]
    sds = sides(variant)
    totals = [sum(residuals[p] for p in side) for side in sds]
    tiles = [sum(len(r.hands[p]) for p in side) for side in sds]  # tiles left per side
    # R5.2a: a block is won by the fewest pips (the totals) or the fewest tiles
    counts = tiles if variant.scoring.block_winner.value == "fewest-tiles" else totals
    basis = tiles if variant.scoring.award_unit.value == "tiles" else totals  # R5.4's unit

    def side_of(p: int) -> int:
        for i, side in enumerate(sds):
            if p in side:
                return i
        raise AssertionError(p)

    def award(rule: str, winners: list[int]) -> int:
        if rule == "nothing":  # no pips are awarded
            return 0
        others = sum(t for i, t in enumerate(basis) if i not in winners)
        if rule == "others-sum":
            x = others
        elif rule == "others-minus-winner":
            x = max(0, others - basis[winners[0]])
        else:  # all-residuals
            x = sum(basis)
        return rounded(x, variant.scoring.round_to)

    awards = [0] * len(sds)
    winners: list[int] = []
    if r.status == ref.DOMINO:
        w = side_of(r.turn)
        winners = [w]
        awards[w] = award(variant.scoring.domino_award.value, [w])
    else:
        rule = variant.scoring.block_award.value
        low = min(counts)
        tied = [i for i, t in enumerate(counts) if t == low]
        if len(tied) == 1:
            winners = tied
            awards[tied[0]] = award(rule, tied)
        else:
            tie = variant.scoring.tie.value
            if tie == "split":
                winners = tied
                for i in tied:
                    awards[i] = award(rule, tied) // len(tied)
            elif tie == "all-win":
                winners = tied
                for i in tied:
                    awards[i] = award(rule, tied)
            elif tie in ("first-from-proposer", "leader"):
                # clockwise from the proposer, or from the seat that led (la mano)
                start = (variant.lead.player if tie == "leader"
                         else (r.turn - r.confirmed) % players)
                for k in range(players):
                    i = side_of((start + k) % players)
                    if i in tied:
                        winners = [i]
                        break
            elif tie == "no-double":
                free = []
                for i in tied:
                    held = [t for p in sds[i] for t in r.hands[p]]
                    if not any(t[0] == t[1] for t in held):
                        free.append(i)
                if len(free) == 1:
                    winners = free
            elif tie == "lightest-tile":
                best = None
                for i in tied:
                    for p in sds[i]:
                        for t in r.hands[p]:
                            k2 = (ref.value(variant, t), ref.index_of(t))
                            if best is None or k2 < best[0]:
                                best = (k2, i)
                if best is not None:
                    winners = [best[1]]
            elif tie == "team-total":
                teams = [list(t) for t in variant.partnerships.teams]

                def team_total(p: int) -> int:
                    for team in teams:
                        if p in team:
                            return sum(counts[side_of(q)] for q in team)
                    raise AssertionError(p)

                best_total = min(team_total(sds[i][0]) for i in tied)
                best_sides = [i for i in tied if team_total(sds[i][0]) == best_total]
                if len(best_sides) == 1:
                    winners = best_sides
            # "none": nobody scores
            if len(winners) == 1 and tie in ("first-from-proposer", "lightest-tile",
                                             "team-total", "leader", "no-double"):
                awards[winners[0]] = award(rule, winners)
    penalties = [variant.fouls.penalty if p in r.fouls else 0 for p in range(players)]
    # R5.7: each side's final score adds its seats' points scored in play
    scores = [awards[i] - sum(penalties[p] for p in side)
              + sum(r.points[p] for p in side if r.points) for i, side in enumerate(sds)]
    return {
        "termination": "domino" if r.status == ref.DOMINO else "blocked",
        "residuals": tuple(residuals),
        "totals": tuple(totals),
        "counts": tuple(counts),
        "winners": tuple(sorted(winners)),
        "awards": tuple(awards),
        "penalties": tuple(penalties),
        "scores": tuple(scores),
    }


# ---------------------------------------------------------------------------
# The oracle the conformance framework calls
