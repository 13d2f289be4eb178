"""R5 scoring as Z3 terms: the declarative reading of SEMANTICS "Scoring".

Written from docs/SEMANTICS.md, apart from the engine's :mod:`dominoproof.model.outcome`:
:class:`Scoring` states the outcome of a finished state as terms over one copy of
the state variables of :mod:`dominoproof.proofs.z3.encoding` (for the proofs), and
:class:`ScoreReader` evaluates those same terms on concrete states (for the search
and the cross-check, which compare the engine's outcome with this reading on every
terminal state they meet).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import CLOSED
from dominoproof.model.params import LayoutSpec
from dominoproof.model.state import Ending, State
from dominoproof.model.variant import Award, TieRule, Variant
from dominoproof.proofs.z3.constants import read_constants
from dominoproof.proofs.z3.encoding import (
    BLOCKED,
    BV,
    COUNT_BITS,
    DOMINO,
    SEAT_BITS,
    Bool,
    Encoding,
    StateVars,
    popcount,
)
from dominoproof.proofs.z3.term_reader import TermReader
from dominoproof.proofs.z3.terms import And, Or

SCORE_BITS = 20  #: wide enough for any sum of residuals (190 tiles, 10 players)


@dataclass(frozen=True)
class ScoreTerms:
    """The outcome of a finished round as terms: per player, per side."""

    residuals: tuple[BV, ...]  #: R5.3, per player
    totals: tuple[BV, ...]  #: per side
    low: BV  #: the lowest count
    lowest: tuple[Bool, ...]  #: side i has the lowest count
    tie: Bool  #: two or more sides have it
    winners: tuple[Bool, ...]  #: per side
    awards: tuple[BV, ...]  #: per side
    penalties: tuple[BV, ...]  #: per player (R4.5)
    scores: tuple[BV, ...]  #: per side: award minus its players' penalties
    counts: tuple[BV, ...] = ()  #: R5.2a: per side, what a block compares (pips or tiles)
    basis: tuple[BV, ...] = ()  #: R5.4: per side, its count in the awards' unit


class Scoring:
    """R5 read from SEMANTICS "Scoring" as Z3 terms over a finished state; subclasses in
    ``encoding_faults.py`` are the twins of the engine's scoring mutants.

    :meth:`property` states each terminal property of the catalogue relationally (the
    winners are *the* lowest sides, no tied side comes earlier, ...), apart from how
    :meth:`terms` computes the outcome, so a wrong computation is caught.
    """

    def __init__(self, enc: Encoding) -> None:
        self.e = enc
        v = enc.variant
        self.v = v
        self.sides: tuple[tuple[int, ...], ...] = enc.v.SIDES
        self.value: tuple[int, ...] = enc.v.VALUE
        #: the constants the properties state R5.2a and R5.4's unit from; :meth:`terms`
        #: computes with ``by_tiles``/``award_tiles`` (a twin may compute them wrongly)
        self.c = read_constants(v)
        self.by_tiles, self.award_tiles = self.c.BY_TILES, self.c.AWARD_TILES
        self._cache: dict[str, ScoreTerms] = {}

    @staticmethod
    def k(x: int) -> BV:
        return z3.BitVecVal(x, SCORE_BITS)

    # -- R5.3 ----------------------------------------------------------------------
    def residual(self, s: StateVars, seat: BV | int) -> BV:
        """R5.3: the sum of the values of the tiles in ``hand[seat]``."""
        return z3.Sum([z3.If(s.loc[t] == seat, self.k(self.value[t]), self.k(0))
                       for t in range(self.e.v.T)])

    def pips(self, s: StateVars, seat: int) -> BV:
        """R5.3 as the catalogue states it: ``a+b`` per tile, or the variant's value."""
        special = dict(self.v.scoring.tile_values)
        return z3.Sum([z3.If(s.loc[t] == seat,
                             self.k(special.get(t, sum(self.e.v.halves[t]))), self.k(0))
                       for t in range(self.e.v.T)])

    def tiles(self, s: StateVars, seats: Sequence[int]) -> BV:
        """R5.2a, R5.4: the number of tiles left in the hands of ``seats``."""
        return z3.Sum([z3.If(Or([s.loc[t] == p for p in seats]), self.k(1), self.k(0))
                       for t in range(self.e.v.T)])

    # -- helpers --------------------------------------------------------------------
    def side_of(self, seat: BV) -> BV:
        """The side index of a symbolic seat."""
        out = z3.BitVecVal(0, SEAT_BITS)
        for i, side in enumerate(self.sides):
            for p in side:
                out = z3.If(seat == p, z3.BitVecVal(i, SEAT_BITS), out)
        return out

    def minimum(self, xs: Sequence[BV]) -> BV:
        out = xs[0]
        for x in xs[1:]:
            out = z3.If(z3.ULT(x, out), x, out)
        return out

    def rounded(self, x: BV) -> BV:
        """R5.4 "rounded": to the nearest multiple of ``round_to``, halves up."""
        r = self.v.scoring.round_to
        if r == 1:
            return x
        return z3.UDiv(x + self.k(r // 2), self.k(r)) * self.k(r)

    def award(self, rule: Any, totals: Sequence[BV], winners: Sequence[Bool]) -> BV:
        """R5.4: what a winner of ``winners`` is awarded under ``rule``, before sharing."""
        if rule is Award.NOTHING:  # no pips change hands
            return self.k(0)
        others = z3.Sum([z3.If(w, self.k(0), t) for t, w in zip(totals, winners, strict=True)])
        first = totals[-1]
        for t, w in reversed(list(zip(totals, winners, strict=True))):
            first = z3.If(w, t, first)
        if rule is Award.OTHERS_SUM:
            x = others
        elif rule is Award.OTHERS_MINUS_WINNER:
            x = z3.If(z3.UGE(others, first), others - first, self.k(0))
        else:
            x = z3.Sum(list(totals))
        return self.rounded(x)

    def proposer_or_turn(self, s: StateVars) -> BV:
        """R4.1: the proposer, ``(turn - confirmed) mod P``, or ``turn`` when nobody
        confirmed."""
        P = self.e.v.P
        turn = z3.ZeroExt(COUNT_BITS - SEAT_BITS, s.turn)
        back = z3.If(z3.UGE(turn, s.confirmed), turn - s.confirmed, turn + P - s.confirmed)
        return z3.Extract(SEAT_BITS - 1, 0, z3.If(s.confirmed == 0, turn, back))

    def tie_start(self, s: StateVars) -> BV:
        """R5.5: the seat a clockwise tie rule counts from: the proposer (R4.1) under
        "first-from-proposer", the seat that led (``lead.player``, la mano) under
        "leader"."""
        if self.v.scoring.tie is TieRule.LEADER:
            return z3.BitVecVal(self.v.lead.player, SEAT_BITS)
        return self.proposer_or_turn(s)

    def holds_no_double(self, s: StateVars, side: int) -> Bool:
        """No seat of side ``side`` holds a double (R5.5 "no-double")."""
        doubles = [t for t in range(self.e.v.T) if self.e.v.halves[t][0] == self.e.v.halves[t][1]]
        return z3.Not(Or([s.loc[t] == p for t in doubles for p in self.sides[side]]))

    def clockwise(self, start: BV, k: int) -> BV:
        """The seat ``k`` places clockwise from ``start``."""
        x = start + k
        return z3.If(z3.UGE(x, self.e.v.P), x - self.e.v.P, x)

    def lightest_order(self) -> list[int]:
        return sorted(range(self.e.v.T), key=lambda t: (self.value[t], t))

    # -- the outcome ------------------------------------------------------------------
    def terms(self, s: StateVars, residuals: Sequence[BV] | None = None) -> ScoreTerms:
        """The outcome of the finished state ``s``; ``residuals`` (one term per player)
        replace the sums over the hands, e.g. free variables to reason about every total."""
        key = s.name + ("" if residuals is None else "|" + ",".join(map(str, residuals)))
        if key in self._cache:
            return self._cache[key]
        e, v, k = self.e, self.v, self.k
        n = len(self.sides)
        residuals = tuple(residuals) if residuals is not None else tuple(
            self.residual(s, p) for p in range(e.v.P))
        totals = tuple(z3.Sum([residuals[p] for p in side]) if len(side) > 1
                       else residuals[side[0]] for side in self.sides)
        tiles = tuple(self.tiles(s, side) for side in self.sides)
        # R5.2a: a block compares the totals (fewest pips) or the tiles left (fewest tiles)
        counts = tiles if self.by_tiles else totals
        basis = tiles if self.award_tiles else totals  # R5.4: what the awards count
        low = self.minimum(counts)
        lowest = tuple(t == low for t in counts)
        ntied = popcount(list(lowest), SCORE_BITS)
        tie = z3.UGE(ntied, 2)
        F = z3.BoolVal(False)
        # domino: the side of the player to move wins
        dom_w = tuple(Or([s.turn == p for p in side]) for side in self.sides)
        dom_a = self.award(v.scoring.domino_award, basis, dom_w)
        # blocked, no tie: the lowest side wins
        rule = v.scoring.block_award
        uniq_a = self.award(rule, basis, lowest)
        tie_rule = v.scoring.tie
        t_w: tuple[Bool, ...]
        t_a: tuple[BV, ...]
        if tie_rule is TieRule.NONE:
            t_w, t_a = (F,) * n, (k(0),) * n
        elif tie_rule in (TieRule.SPLIT, TieRule.ALL_WIN):
            full = self.award(rule, basis, lowest)
            share = z3.UDiv(full, ntied) if tie_rule is TieRule.SPLIT else full
            t_w = lowest
            t_a = tuple(z3.If(w, share, k(0)) for w in lowest)
        else:
            # team-total separates tied players by their teams' counts: pips or tiles
            each = tuple(self.tiles(s, (p,)) for p in range(e.v.P)) if self.by_tiles \
                else residuals
            w_idx = self._tie_winner(s, tie_rule, each, lowest)
            t_w = tuple(w_idx == i for i in range(n))
            one = self.award(rule, basis, t_w)
            t_a = tuple(z3.If(w, one, k(0)) for w in t_w)
        winners = tuple(z3.If(s.status == DOMINO, dom_w[i],
                              z3.If(tie, t_w[i], lowest[i])) for i in range(n))
        awards = tuple(z3.If(s.status == DOMINO, z3.If(dom_w[i], dom_a, k(0)),
                             z3.If(tie, t_a[i], z3.If(lowest[i], uniq_a, k(0))))
                       for i in range(n))
        pen = v.fouls.penalty
        penalties = tuple(z3.If(z3.Extract(p, p, s.fouls) == 1, k(pen), k(0))
                          for p in range(e.v.P))
        scores = tuple(awards[i] - z3.Sum([penalties[p] for p in side]) if len(side) > 1
                       else awards[i] - penalties[side[0]] for i, side in enumerate(self.sides))
        out = ScoreTerms(residuals, totals, low, lowest, tie, winners, awards, penalties,
                         scores, counts, basis)
        self._cache[key] = out
        return out

    def _tie_winner(self, s: StateVars, rule: Any, residuals: Sequence[BV],
                    lowest: Sequence[Bool]) -> BV:
        """The one tied side that wins under ``rule`` (``len(sides)``: nobody)."""
        e = self.e
        nobody = z3.BitVecVal(len(self.sides), SEAT_BITS)

        def lowest_of(side: BV) -> Bool:
            return Or([And(side == i, w) for i, w in enumerate(lowest)])

        if rule in (TieRule.FIRST_FROM_PROPOSER, TieRule.LEADER):
            start = self.tie_start(s)
            out = nobody
            for k in range(e.v.P - 1, -1, -1):
                side = self.side_of(self.clockwise(start, k))
                out = z3.If(lowest_of(side), side, out)
            return out
        if rule is TieRule.NO_DOUBLE:
            free = [And(lowest[i], self.holds_no_double(s, i))
                    for i in range(len(self.sides))]
            out = nobody
            for i in range(len(self.sides) - 1, -1, -1):
                out = z3.If(free[i], z3.BitVecVal(i, SEAT_BITS), out)
            return z3.If(popcount(free, SCORE_BITS) == 1, out, nobody)
        if rule is TieRule.LIGHTEST_TILE:
            out = nobody
            for t in reversed(self.lightest_order()):
                side = self.side_of(s.loc[t])
                out = z3.If(And(e.v.held(s, t), lowest_of(side)), side, out)
            return out
        # TEAM_TOTAL: tied players separated by their teams' totals
        teams = self.v.partnerships.teams
        tt = []
        for i, side in enumerate(self.sides):
            team = next(tm for tm in teams if side[0] in tm)
            tt.append(z3.If(lowest[i], z3.Sum([residuals[q] for q in team]),
                            self.k((1 << SCORE_BITS) - 1)))
        best = self.minimum(tt)
        at_best = [And(lowest[i], tt[i] == best) for i in range(len(self.sides))]
        unique = popcount(at_best, SCORE_BITS) == 1
        out = nobody
        for i in range(len(self.sides) - 1, -1, -1):
            out = z3.If(at_best[i], z3.BitVecVal(i, SEAT_BITS), out)
        return z3.If(unique, out, nobody)

    # -- the terminal properties, stated relationally -----------------------------------
    def property(self, pid: str, s: StateVars, residuals: Sequence[BV] | None = None) -> Bool:
        """The catalogue's terminal property ``pid`` at the finished state ``s`` (with
        ``residuals`` in place of the hands' sums, as in :meth:`terms`)."""
        return And([z3.Implies(And(premises), conclusion) if premises else conclusion
                    for premises, conclusion in self.cases(pid, s, residuals)])

    def cases(self, pid: str, s: StateVars,
              residuals: Sequence[BV] | None = None) -> list[tuple[list[Bool], Bool]]:
        """``pid`` as (premises, conclusion) cases. Proofs assert the premises as facts, so
        the simplifier can use them before bit-blasting."""
        out = [self.case(pid, s, residuals)]
        if pid == "award":
            # a domino: the side of the player who emptied their hand wins, and is
            # awarded what the variant's domino award says
            sc = self.terms(s, residuals)
            n = len(self.sides)
            side = [Or([s.turn == p for p in self.sides[i]]) for i in range(n)]
            paid = self.award(self.v.scoring.domino_award, sc.basis, side)
            out.append(([s.status == DOMINO], self.with_basis(s, sc, And(
                [And(sc.winners[i] == side[i],
                     sc.awards[i] == z3.If(side[i], paid, self.k(0))) for i in range(n)]))))
        return out

    def case(self, pid: str, s: StateVars,
             residuals: Sequence[BV] | None = None) -> tuple[list[Bool], Bool]:
        """``pid`` as (premises, conclusion); see :meth:`cases`.

        Which sides win is stated relationally (the lowest sides; no tied side earlier
        clockwise from the proposer; the lightest tile; ...). What a winner receives is
        R5.4's formula applied to the winners (:meth:`award`, one definition): the property
        checks that the variant's award rule is the one applied, and how it is shared.
        """
        e, v, k = self.e, self.v, self.k
        sc = self.terms(s, residuals)
        n = len(self.sides)
        blocked = s.status == BLOCKED
        if pid == "pips":
            # R5.3 per seat, and R5.2's side totals: the sums of the seats of each side
            return [], And(*[sc.residuals[p] == self.pips(s, p) for p in range(e.v.P)],
                           *[sc.totals[i] == z3.Sum([sc.residuals[p] for p in side]
                                                    + [k(0)])
                             for i, side in enumerate(self.sides)])
        if pid == "foul-penalty":
            # R4.5: each seat that made a false declaration pays the penalty, and only it
            pen = v.fouls.penalty
            return [], And([sc.penalties[p] == z3.If(
                z3.Extract(p, p, s.fouls) == 1, k(pen), k(0)) for p in range(e.v.P)])
        if pid == "final-scores":
            # SEMANTICS "Scoring": a side's score is its award minus its seats' penalties
            return [], And([sc.scores[i] == sc.awards[i] - z3.Sum(
                [sc.penalties[p] for p in side] + [k(0)])
                for i, side in enumerate(self.sides)])
        low = list(sc.lowest)
        if pid == "winner-lowest":
            nobody = z3.Not(Or(list(sc.winners)))
            silent = v.scoring.tie in (TieRule.NONE, TieRule.TEAM_TOTAL, TieRule.NO_DOUBLE)
            # R5.2a: what is compared: each side's total, or the tiles left in its hands
            counted = [sc.counts[i] == self.tiles(s, side) for i, side in
                       enumerate(self.sides)] if self.c.BY_TILES else []
            return [blocked], And(
                *counted,
                *[z3.Implies(sc.winners[i], sc.counts[i] == sc.low) for i in range(n)],
                z3.Implies(z3.Not(sc.tie), And([sc.winners[i] == low[i]
                                                for i in range(n)])),
                z3.Implies(nobody, And(sc.tie, z3.BoolVal(silent))))
        rule = v.scoring.block_award

        def paid(winners: Sequence[Bool], amount: BV) -> Bool:
            return And([sc.awards[i] == z3.If(winners[i], amount, k(0)) for i in range(n)])

        if pid == "award":
            return [blocked, z3.Not(sc.tie)], self.with_basis(s, sc, paid(
                sc.winners, self.award(rule, sc.basis, sc.winners)))
        if pid != "tie":
            raise KeyError(pid)
        tie = v.scoring.tie
        single = And(popcount(list(sc.winners), SCORE_BITS) == 1,
                     *[z3.Implies(sc.winners[i], low[i]) for i in range(n)],
                     paid(sc.winners, self.award(rule, sc.basis, sc.winners)))
        if tie is TieRule.NONE:
            ok = And(*[z3.Not(w) for w in sc.winners], *[a == 0 for a in sc.awards])
        elif tie in (TieRule.SPLIT, TieRule.ALL_WIN):
            full = self.award(rule, sc.basis, low)
            each = z3.UDiv(full, popcount(low, SCORE_BITS)) if tie is TieRule.SPLIT else full
            ok = And(*[sc.winners[i] == low[i] for i in range(n)], paid(low, each))
        elif tie in (TieRule.FIRST_FROM_PROPOSER, TieRule.LEADER):
            start = self.tie_start(s)

            def dist(i: int) -> BV:
                """Clockwise distance from the start to side ``i``'s nearest seat."""
                ds = [z3.If(z3.UGE(z3.BitVecVal(p, SEAT_BITS), start),
                            z3.BitVecVal(p, SEAT_BITS) - start,
                            z3.BitVecVal(p + e.v.P, SEAT_BITS) - start) for p in self.sides[i]]
                return self.minimum(ds)

            ok = And(single, *[z3.Implies(sc.winners[i], And(
                [z3.Implies(low[j], z3.ULE(dist(i), dist(j))) for j in range(n)]))
                for i in range(n)])
        elif tie is TieRule.LIGHTEST_TILE:
            order = self.lightest_order()
            rank = {t: r for r, t in enumerate(order)}

            def lightest(i: int) -> BV:
                """The rank of side ``i``'s lightest tile (T if it holds none)."""
                out = z3.BitVecVal(e.v.T, SCORE_BITS)
                for t in reversed(order):
                    out = z3.If(Or([s.loc[t] == p for p in self.sides[i]]),
                                z3.BitVecVal(rank[t], SCORE_BITS), out)
                return out

            ok = And(single, *[z3.Implies(sc.winners[i], And(
                [z3.Implies(And(low[j], j != i), z3.ULT(lightest(i), lightest(j)))
                 for j in range(n)])) for i in range(n)])
        elif tie is TieRule.NO_DOUBLE:
            # exactly one tied side holds no double: it alone wins; else nobody scores
            free = [And(low[i], self.holds_no_double(s, i)) for i in range(n)]
            one = popcount(free, SCORE_BITS) == 1
            ok = z3.If(one, And(single, *[sc.winners[i] == free[i] for i in range(n)]),
                       And(*[z3.Not(w) for w in sc.winners], *[a == 0 for a in sc.awards]))
        else:  # TEAM_TOTAL
            teams = v.partnerships.teams

            def team_total(i: int) -> BV:
                team = next(tm for tm in teams if self.sides[i][0] in tm)
                if self.c.BY_TILES:  # R5.2a: the teams' tiles left
                    return self.tiles(s, team)
                return z3.Sum([sc.residuals[q] for q in team])

            strictly = [And(low[i], *[z3.Implies(low[j], z3.ULT(team_total(i),
                                                                    team_total(j)))
                                      for j in range(n) if j != i]) for i in range(n)]
            someone = Or(strictly)
            ok = z3.If(someone, And(single, *[z3.Implies(sc.winners[i], strictly[i])
                                              for i in range(n)]),
                       And(*[z3.Not(w) for w in sc.winners], *[a == 0 for a in sc.awards]))
        return [blocked, sc.tie], ok

    def with_basis(self, s: StateVars, sc: ScoreTerms, conclusion: Bool) -> Bool:
        """``conclusion``, and R5.4's unit: under "tiles" each side's basis is the tiles
        left in its hands (the totals otherwise, which :meth:`terms` uses as they are:
        nothing more to state)."""
        if not self.c.AWARD_TILES:
            return conclusion
        return And(*[sc.basis[i] == self.tiles(s, side) for i, side in
                     enumerate(self.sides)], conclusion)

    def describe(self, pid: str) -> str:
        v = self.v
        return {
            "pips": "each residual is the sum of a+b (or the variant's value) over the hand",
            "winner-lowest": "the winners are exactly the lowest sides (nobody only on a tie "
                             "that scores nothing)" + (", counted in tiles left (R5.2a)"
                                                       if self.c.BY_TILES else ""),
            "award": f"the single lowest side is awarded {v.scoring.block_award.value}, "
                     f"rounded to {v.scoring.round_to}"
                     + (", counted in tiles (R5.4)" if self.c.AWARD_TILES else ""),
            "tie": f"a tie for the lowest total is settled by {v.scoring.tie.value}",
            "foul-penalty": f"each seat that fouled pays {v.fouls.penalty}, and only it",
            "final-scores": "each side scores its award minus its seats' penalties",
        }[pid]

    # -- evaluation on a concrete state (the search and the cross-check) ----------------
    def evaluate(self, state: State) -> Scored | None:
        """This scoring on a concrete state (None while the round is being played)."""
        return ScoreReader(self.e.variant, type(self), self.e).read(state)


@dataclass(frozen=True)
class Scored:
    """The outcome of a finished state as this reading computes it: the fields the
    engine's :class:`~dominoproof.model.outcome.Outcome` has and the conformance suite
    compares (``proofs/conformance.py``, ``outcome_fields``)."""

    termination: Ending  #: DOMINO or BLOCKED, read off the status
    residuals: tuple[int, ...]  #: per player
    totals: tuple[int, ...]  #: per side
    counts: tuple[int, ...]  #: R5.2a: per side, what a block compares (pips or tiles)
    winners: tuple[int, ...]  #: winning sides, in side order
    awards: tuple[int, ...]  #: per side
    penalties: tuple[int, ...]  #: per player (R4.5)
    scores: tuple[int, ...]  #: per side, signed

    def fields(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "termination": self.termination.value}


def scoring_encoding(variant: Variant) -> tuple[Encoding, bool]:
    """The encoding R5's terms are stated over, and whether it leaves the layout out.

    SEMANTICS "Scoring" reads the hands, the turn, the confirmations, the fouls and the
    status: no slot of the layout. Where the relation cannot state a layout's slots yet
    (its vocabulary raises ``NotImplementedError``: slots that open after the lead), the
    scoring is stated over the variables of the same variant played on a line -- the
    same tiles, seats, sides, values and rules of R5 -- and a concrete state is read
    with its layout part left out (:class:`ScoreReader` checks that the terms contain no
    slot variable, so nothing is lost)."""
    try:
        return Encoding(variant), False
    except NotImplementedError:
        line = dataclasses.replace(variant, layout=LayoutSpec())
        return Encoding(line), True


class ScoreReader:
    """:class:`Scoring` (or a twin of a scoring fault) read on concrete states: the
    independent reading of R5 that the search and the cross-check hold the engine's
    outcome to, on every terminal state they meet."""

    def __init__(self, variant: Variant, scoring: type[Scoring] | None = None,
                 enc: Encoding | None = None) -> None:
        layoutless = False
        if enc is None:
            enc, layoutless = scoring_encoding(variant)
        self.variant = variant
        s = enc.v.state("scored")
        sc = (scoring or Scoring)(enc).terms(s)
        self.n_players, self.n_sides = len(sc.residuals), len(sc.totals)
        one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
        terms = [*[(x, SCORE_BITS) for x in (*sc.residuals, *sc.totals, *sc.counts)],
                 *[(z3.If(w, one, zero), 1) for w in sc.winners],
                 *[(x, SCORE_BITS) for x in (*sc.awards, *sc.penalties, *sc.scores)]]
        self.reader = TermReader(enc, s, terms)
        #: the layout part a concrete state is read without (``None``: read as it is)
        self._no_layout: tuple[tuple[int, ...], int] | None = None
        if layoutless:
            slots = {str(x) for x in s.ends} | ({str(s.marks)} if s.marks is not None
                                                 else set())
            if slots & self.reader._free:  # pragma: no cover - R5 reads no slot
                raise NotImplementedError("a scoring that reads the layout's slots")
            self._no_layout = ((CLOSED,) * len(s.ends), 0)

    def read(self, state: State) -> Scored | None:
        ending = state.status.ending
        if ending is None:
            return None
        if self._no_layout is not None:
            state = state._replace(ends=self._no_layout[0], marks=self._no_layout[1])
        vals = list(self.reader.read(state))
        P, n = self.n_players, self.n_sides

        def take(k: int) -> list[int]:
            out = vals[:k]
            del vals[:k]
            return out

        def signed(u: int) -> int:
            return u - (1 << SCORE_BITS) if u >> (SCORE_BITS - 1) else u

        residuals, totals, counts, won = take(P), take(n), take(n), take(n)
        awards, penalties, scores = take(n), take(P), take(n)
        # R5.7: the terms of R5 read no points in play (the relation's transitions keep
        # them); the final score adds the ones the state records to the award less the
        # penalties the terms state
        points = [sum(state.points[p] for p in side) for side in self.variant.teams
                  ] if state.points else []
        return Scored(ending, tuple(residuals), tuple(totals), tuple(counts),
                      tuple(i for i, w in enumerate(won) if w), tuple(awards),
                      tuple(penalties), tuple(signed(x) + (points[i] if points else 0)
                                              for i, x in enumerate(scores)))


class Classifier:
    """The declarative reading's classification of a concrete state, for the "z3"
    oracle of :mod:`dominoproof.proofs.conformance`: R1.1, R2 and R3 as the encoding
    states them, and R5 as :class:`Scoring` does."""

    def __init__(self, variant: Variant) -> None:
        enc = Encoding(variant)
        s = enc.v.state("classified")
        one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
        self.names = ("is_blocked", "ends_unplayable", "boneyard_supplies_nothing")
        p = enc.preds
        preds = (p.is_blocked(s), p.ends_unplayable(s), p.boneyard_supplies_nothing(s))
        self.predicates = TermReader(enc, s, [(z3.If(p, one, zero), 1) for p in preds])
        self.scoring = ScoreReader(variant, enc=enc)

    def classify(self, state: State) -> dict[str, Any]:
        got: dict[str, Any] = {name: bool(x) for name, x in
                               zip(self.names, self.predicates.read(state), strict=True)}
        scored = self.scoring.read(state)
        got["outcome"] = scored.fields() if scored is not None else None
        return got


@cache
def score_reader(variant: Variant) -> ScoreReader:
    """The (cached) reader of the variant's own declarative scoring."""
    return ScoreReader(variant)


@cache
def _classifier(variant: Variant) -> Classifier:
    return Classifier(variant)


def z3_classify(variant: Variant, state: State) -> dict[str, Any]:
    """The classification fields of the conformance contract (``proofs/conformance.py``):
    ``is_blocked``, ``ends_unplayable``, ``boneyard_supplies_nothing`` and ``outcome``
    (None while the round is being played), by the declarative reading."""
    return _classifier(variant).classify(state)
