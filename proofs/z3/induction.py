"""Induction per instance: the state, transition, progress and terminal properties of
the catalogue proved from the inductive invariant, and counterexamples to induction.

A state property is PROVED when Houdini keeps its lemma in the invariant (Init implies
it, every action preserves it, each action checked on its own); a transition property
when the invariant and each action's step imply it. When a proof fails, search settles
what it can (:meth:`~dominoproof.proofs.z3.bmc.BoundedSearch.refute`: a real round is
VIOLATED); else the verdict is NOT_INDUCTIVE with a counterexample to induction
(:class:`CTI`: two states and a move, decoded and minimised), which may be unreachable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import Layout
from dominoproof.model.moves import Move, move_json
from dominoproof.model.state import State
from dominoproof.model.tiles import show_tiles
from dominoproof.model.variant import FoulRule
from dominoproof.proofs.budgets import CTI_MINIMISE_SHARE, EXPLAIN_CTIS
from dominoproof.proofs.properties import Property, Result, Verdict
from dominoproof.proofs.z3.bmc import BMCResult, BoundedSearch
from dominoproof.proofs.z3.encoding import (
    BLOCKED,
    CONFIRM,
    DRAW,
    ESTABLISH,
    LEAD_CODE,
    PLAY,
    PLAYING,
    STUTTER,
    Bool,
    Encoding,
    MoveVars,
    StateVars,
    Step,
    popcount,
)
from dominoproof.proofs.z3.fives_terms import points_in_fives
from dominoproof.proofs.z3.houdini import HoudiniResult, violations
from dominoproof.proofs.z3.layout_properties import AT_BLOCK, LAYOUT_TRANSITIONS, TransitionFormula
from dominoproof.proofs.z3.lemmas import LEMMAS, Lemma
from dominoproof.proofs.z3.scoring import SCORE_BITS
from dominoproof.proofs.z3.session import ProofSession
from dominoproof.proofs.z3.solver import Check, Ledger, Optimizer
from dominoproof.proofs.z3.symmetry import breaks_symmetry
from dominoproof.proofs.z3.terms import And, Or

METHOD_INDUCTION = "induction per instance"

#: SEMANTICS "Type invariant": the lemmas every state of the vocabulary is assumed to
#: satisfy when a property is checked "alone".
TYPE_OK = ("seat", "status", "count-range", "tile-places", "ends-match-table", "marks-typed")

#: The properties stated as a candidate lemma: proved as state invariants (their lemma in
#: the inductive invariant), and what :meth:`InductionProofs.explain` can explain.
STATE_PROPERTIES = frozenset(lem.property for lem in LEMMAS if lem.property)


# ---------------------------------------------------------------------------
# Counterexamples to induction
# ---------------------------------------------------------------------------


@dataclass
class CTI:
    """A counterexample to induction: a state satisfying the invariant, an action's move,
    and the state it leads to, which breaks the property. It may be unreachable."""

    property: str
    action: str
    pre: State
    move: Move
    post: State
    assumed: list[str]  #: the lemmas the pre-state satisfies
    layout: Layout  #: the variant's layout (a play's end is read off the pre-state's slots)

    def describe(self) -> str:
        lines = [f"counterexample to induction of {self.property} (action {self.action}):",
                 "  before:"]
        lines += ["    " + x for x in self.pre.describe().splitlines()]
        lines.append(f"  move: {self.move}   ({self.move!r})")
        lines.append("  after:")
        lines += ["    " + x for x in self.post.describe().splitlines()]
        if self.assumed:
            lines.append("  the state before satisfies: " + ", ".join(self.assumed))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        def st(s: State) -> dict[str, Any]:
            return {"hands": [show_tiles(h) for h in s.hands],
                    "boneyard": show_tiles(s.boneyard), "set_aside": show_tiles(s.set_aside),
                    "table": show_tiles(s.table), "ends": list(s.open_ends), "turn": s.turn,
                    "confirmed": s.confirmed, "drew": s.drew, "fouls": s.fouls,
                    "status": s.status.name.lower()}

        return {"kind": "counterexample to induction", "property": self.property,
                "action": self.action, "pre": st(self.pre),
                "move": move_json(self.layout, self.pre, self.move),
                "post": st(self.post), "assumed": self.assumed}


# ---------------------------------------------------------------------------
# Transition properties, as formulas
# ---------------------------------------------------------------------------

def procedure(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """procedure [R4.1-R4.4]: a confirmation by a player who cannot play extends the run
    clockwise (one more, the next seat to move); a play ends the run; an Establish follows
    a run of confirmations by every player from the proposer, with the boneyard empty,
    and R2/R3 hold at that moment."""
    cannot = z3.Not(e.preds.can_play(s, s.turn))
    run = s.confirmed + 1
    if e.v.RESTART and e.v.markers:  # R4.4: a confirmation putting a marker out restarts the run
        was_in = Or([And(s.turn == q, z3.Not(e.v.marker_out(s, q))) for q in range(e.v.P)])
        run = z3.If(was_in, z3.BitVecVal(1, s.confirmed.size()), run)
    return And(
        z3.Implies(And(m.kind == CONFIRM, cannot),
                   And(t.confirmed == run, t.turn == e.preds.next_seat(s.turn))),
        z3.Implies(m.kind == PLAY, t.confirmed == 0),
        z3.Implies(m.kind == ESTABLISH, And(
            z3.UGE(s.confirmed, e.v.P), e.v.boneyard_empty(s), e.preds.conditions_hold(s))))


def no_false_confirmation(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """no-false-confirmation [R4.2, R4.3, R4.5]: a Confirm ("I cannot extend any open end")
    is made by a player with no playable tile, or is recorded as their foul."""
    honest = z3.Not(e.preds.can_play(s, s.turn))
    if e.v.FOULS is FoulRule.PENALISED:
        bit = e.preds.seat_bit(s.turn)
        foul = And((s.fouls & bit) == 0, (t.fouls & bit) != 0, t.confirmed == 0)
        honest = Or(honest, foul)
    return z3.Implies(m.kind == CONFIRM, honest)


def boneyard_monotone(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """boneyard-monotone [R3.1, R3.2]: the boneyard never gains a tile (so once empty it
    stays empty), a draw takes a tile of the boneyard, and the set-aside tiles stay put."""
    return And(*[z3.Implies(e.v.in_boneyard(t, x), e.v.in_boneyard(s, x)) for x in range(e.v.T)],
               *[(s.loc[x] == e.v.ASIDE) == (t.loc[x] == e.v.ASIDE) for x in range(e.v.T)],
               z3.Implies(m.kind == DRAW, e.preds.tile_at(s, m, e.v.BONEYARD)))


def opening(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """opening [Terms]: the first move is the lead the variant names, by its player, with
    the tile it names; while nobody holds that tile (fallback "draw", R3.6), a draw by the
    next player clockwise from ``lead.player`` (one tile each), who keeps the turn only
    when nobody need draw any more (they drew it, and lead next)."""
    lead = And(m.kind == PLAY, m.end == LEAD_CODE, e.preds.is_leader(s, s.turn),
               e.lead_allowed(s, m))
    if not e.preds.seeks():
        return z3.Implies(z3.Not(s.led), lead)
    seeks = e.preds.lead_choice(s).draws
    after = z3.If(e.preds.lead_choice(t).draws, e.preds.next_seat(s.turn), s.turn)
    draw = And(m.kind == DRAW, e.preds.drawer_in_turn(s), t.turn == after)
    return z3.Implies(z3.Not(s.led), z3.If(seeks, draw, lead))


TRANSITION: dict[str, TransitionFormula] = {
    "procedure": procedure,
    "no-false-confirmation": no_false_confirmation,
    "boneyard-monotone": boneyard_monotone,
    "opening": opening,
    "points-in-fives": points_in_fives,  # R5.7
    **LAYOUT_TRANSITIONS,  # markers, doubles-covered, spinner-arms
}


# ---------------------------------------------------------------------------
# The proofs
# ---------------------------------------------------------------------------


#: What each action must establish, given its post-state terms.
Obligation = Callable[[StateVars], Bool]


@dataclass
class StepCase:
    """The induction step of one obligation, each action checked on its own."""

    failed: list[tuple[str, Check]]  #: the actions where it can fail, each with its model
    unknown: str = ""  #: which action's query was UNKNOWN ("" when every one was answered)


class InductionProofs:
    """The proofs from the inductive invariant, and their counterexamples to induction;
    the verdicts they cannot settle alone (a real violation) are the bounded search's."""

    def __init__(self, session: ProofSession, search: BoundedSearch) -> None:
        self.session, self.search = session, search
        self.variant, self.enc = session.variant, session.enc
        self.result = session.result  #: a verdict with its time and solver statistics

    # -- the step case, action by action -------------------------------------------
    def per_action(self, hyps: list[Bool], s: StateVars, m: MoveVars, holds: Obligation,
                   led: Ledger) -> StepCase:
        """The induction step, one action at a time: from ``hyps`` and the action's guard,
        does ``holds(post)`` follow? The actions where it can fail -- or, as soon as a
        query is UNKNOWN, which (the caller's verdict is then UNKNOWN)."""
        failed: list[tuple[str, Check]] = []
        steps = self.enc.steps(s, m)
        quotient_steps = self.quotient_steps(s, m, steps)
        for a, (guard, post) in steps.items():
            if a in quotient_steps and self.symmetric_after(hyps, guard, holds, led):
                guard, post = quotient_steps[a]  # modulo symmetry (proofs/z3/symmetry.py)
            bad, c = violations(hyps, guard, {a: holds(post)}, ledger=led,
                                **self.session.budgets)
            if bad is None:
                return StepCase(failed, f"the query for action {a} was UNKNOWN ({c.reason})")
            if bad:
                failed.append((a, c))
        return StepCase(failed)

    def quotient_steps(self, s: StateVars, m: MoveVars,
                       real: dict[str, Step]) -> dict[str, Step]:
        """The actions whose effect the relation modulo symmetry writes otherwise than the
        real one (``real``: its steps from ``s`` by ``m``; a play, the lead: the ones that
        sort a large group of slots), with the quotient's step; none where the layout has
        no such group."""
        q = self.session.quotient
        if q is None:
            return {}
        return {a: (g, post) for a, (g, post) in q.steps(s, m).items()
                if not (all(x.eq(y) for x, y in zip(post.ends, real[a][1].ends, strict=True))
                        and (post.marks is None or post.marks.eq(real[a][1].marks)))}

    def symmetric_after(self, hyps: list[Bool], guard: Bool, holds: Obligation,
                        led: Ledger) -> bool:
        """Does ``holds`` survive every reordering of the large groups' slots in the
        post-state, for a pre-state of ``hyps`` and a move of ``guard``? Then its step
        may be proved on the quotient's post-state, whose canonical form is the real
        one's (``proofs/z3/symmetry.py``). Checked for the group's two generators."""
        q = self.session.quotient
        assert q is not None
        return breaks_symmetry(q, self.enc.v.state("sym_post"), holds, [*hyps, guard],
                               lambda: self.session.solver(ledger=led)) is None

    def decoded_cti(self, pid: str, action: str, model: Any, s: StateVars, m: MoveVars,
                    assumed: list[str], post: StateVars | None = None) -> CTI:
        """The counterexample to induction in ``model``: the pre-state ``s``, the move
        ``m`` of ``action`` and the state ``post`` it leads to (default: the action's
        post-state terms), decoded."""
        enc = self.enc
        if post is None:
            post = enc.steps(s, m)[action][1]
        return CTI(pid, action, enc.v.decode_state(model, s), enc.v.decode_move(model, s, m),
                   enc.v.decode_state(model, post), assumed, self.session.layout)

    # -- a proof's start, and a proof by one query ------------------------------------------
    def begin(self) -> tuple[float, Ledger, HoudiniResult]:
        """A proof's start: its clock, the ledger of its own queries, and the invariant."""
        return time.perf_counter(), Ledger(), self.session.invariant()

    def settled(self, pid: str, c: Check, h: HoudiniResult, method: str, proof: str,
                t0: float, led: Ledger) -> Result | None:
        """One query ``c`` from the invariant ``h``: PROVED (as ``proof`` says) when UNSAT
        and ``h`` complete, UNKNOWN when either is not, else None (a state breaks it)."""
        if c.unsat and not h.unknown:
            return self.result(pid, Verdict.PROVED, method, proof, t0, led)
        if c.unknown or h.unknown:
            why = f"the query was UNKNOWN ({c.reason})" if c.unknown else h.incomplete
            return self.result(pid, Verdict.UNKNOWN, method, why, t0, led)
        return None

    # -- state properties ------------------------------------------------------------
    def prove_state(self, prop: Property) -> Result:
        """A state invariant: PROVED if Houdini keeps it; else a BMC search for a real
        violation; else NOT_INDUCTIVE with the CTI relative to the kept lemmas."""
        t0, led, h = self.begin()
        lem = next((c for c in self.session.candidates if c.property == prop.id), None)
        assert lem is not None, prop.id
        if h.unknown:
            return self.result(prop.id, Verdict.UNKNOWN, METHOD_INDUCTION,
                               h.incomplete, t0, h.ledger)
        if lem in h.kept:
            detail = (f"Init => Inv, Inv and each action => Inv', Inv => property; "
                      f"{self.session.lemmas_text(h, prop.id)} (Houdini: {h.ledger.checks} "
                      f"queries, {self.session.invariant_seconds:.2f}s, shared by the state "
                      f"properties; the statistics are Houdini's)")
            r = self.result(prop.id, Verdict.PROVED, METHOD_INDUCTION, detail, t0, led)
            r.stats = h.ledger.as_dict()
            return r
        enc = self.enc

        def explain(found: BMCResult) -> tuple[str, CTI | None]:
            cti = self.cti(lem, h.kept, ledger=led)
            depth = (f"no violation in rounds of up to {found.depth} moves{found.floor_note}"
                     + ("" if found.complete else " (search incomplete)"))
            if cti is None:
                return f"not kept by Houdini, but no CTI found; {depth}", None
            return f"{depth}; CTI on action {cti.action}", cti

        return self.search.refute(prop.id, "state", lambda ss, ms: z3.Not(lem(enc, ss[-1])),
                                  lambda ss, ms: Or([z3.Not(lem(enc, x)) for x in ss]),
                                  t0, led, METHOD_INDUCTION, explain, needs_trace=True)

    def cti(self, lem: Lemma, kept: list[Lemma], *, ledger: Ledger | None = None
            ) -> CTI | None:
        """A counterexample to induction of ``lem`` assuming ``kept`` (and ``lem``), one
        action at a time, minimised (fewest tiles on the table, then in hands)."""
        enc = self.enc
        s, m = enc.v.state("c0"), enc.v.move("cm")
        hyps = [x(enc, s) for x in kept if x is not lem] + [lem(enc, s)]
        for a, (guard, post) in enc.steps(s, m).items():
            sv = self.session.solver(ledger=ledger)
            sv.add(*hyps, guard, z3.Not(lem(enc, post)))
            c = sv.check()
            if not c.sat:
                continue
            model = self._minimise(s, [*hyps, guard, z3.Not(lem(enc, post))], ledger) \
                or c.model
            return self.decoded_cti(lem.property or lem.id, a, model, s, m,
                                    [x.id for x in kept if x is not lem], post)
        return None

    def holds_at(self, lem: Lemma, state: State) -> bool:
        """Does ``lem`` hold in the concrete ``state``?"""
        s = self.enc.v.state("h")
        sv = self.session.solver(ledger=Ledger())
        sv.add(*self.enc.v.equals(s, state), z3.Not(lem(self.enc, s)))
        return bool(sv.check().unsat)

    def explain(self, pid: str, *, limit: int = EXPLAIN_CTIS) -> list[tuple[CTI, str | None]]:
        """Why ``pid`` needs its lemmas: starting from the type invariant alone, the
        (minimised) counterexample to induction of the property, and the first lemma of
        the proved invariant that rules its pre-state out; that lemma is assumed and the
        next CTI sought, until none is left. Each step is a CTI no real round reaches."""
        lem = next(c for c in self.session.candidates if c.property == pid)
        kept = [x for x in self.session.invariant().kept if x is not lem]
        assumed = [x for x in kept if x.id in TYPE_OK]
        out: list[tuple[CTI, str | None]] = []
        for _ in range(limit):
            cti = self.cti(lem, assumed)
            if cti is None:
                break
            blocker = next((x for x in kept if x not in assumed
                            and not self.holds_at(x, cti.pre)), None)
            out.append((cti, blocker.id if blocker else None))
            if blocker is None:
                break
            assumed.append(blocker)
        return out

    def _minimise(self, s: StateVars, fs: list[Bool], ledger: Ledger | None) -> Any:
        """A model of ``fs`` with as few tiles on the table, then in hands, as the
        optimiser finds within its share of the resource limit (None if it finds nothing)."""
        opt = Optimizer(seed=self.session.seed, timeout_ms=self.session.timeout_ms,
                        rlimit=max(1, self.session.rlimit // CTI_MINIMISE_SHARE), ledger=ledger)
        opt.add(*fs)
        enc = self.enc
        opt.minimize(popcount([enc.v.on_table(s, t) for t in range(enc.v.T)]))
        opt.minimize(popcount([enc.v.held(s, t) for t in range(enc.v.T)]))
        c = opt.check()
        return c.model if c.model is not None and not c.unsat else None

    # -- transition properties -------------------------------------------------------
    def prove_transition(self, prop: Property) -> Result:
        """A transition property: Inv and each action's step imply it."""
        t0, led, h = self.begin()
        enc = self.enc
        f = TRANSITION[prop.id]
        s, m = enc.v.state("t0"), enc.v.move("tm")
        hyps = [lem(enc, s) for lem in h.kept]
        case = self.per_action(hyps, s, m, lambda post: f(enc, s, m, post), led)
        failed = case.failed
        if case.unknown:
            return self.result(prop.id, Verdict.UNKNOWN, METHOD_INDUCTION, case.unknown, t0,
                               led)
        if not failed:
            detail = (f"Inv and each action => property; Inv {self.session.lemmas_text(h)}"
                      + ("" if not h.unknown else f" ({h.incomplete})"))
            verdict = Verdict.PROVED if not h.unknown else Verdict.UNKNOWN
            return self.result(prop.id, verdict, METHOD_INDUCTION, detail, t0, led)

        def explain(found: BMCResult) -> tuple[str, CTI | None]:
            a, c = failed[0]
            cti = self.decoded_cti(prop.id, a, c.model, s, m, [lem.id for lem in h.kept])
            return (f"no violation in rounds of up to {found.depth} moves{found.floor_note}; "
                    f"CTI on action(s) {', '.join(x for x, _ in failed)}", cti)

        return self.search.refute(
            prop.id, "transition", lambda ss, ms: z3.Not(f(enc, ss[-2], ms[-1], ss[-1])),
            lambda ss, ms: Or([And(m.kind != STUTTER, z3.Not(f(enc, a_, m, b_)))
                               for a_, m, b_ in zip(ss, ms, ss[1:], strict=False)]),
            t0, led, METHOD_INDUCTION, explain, min_depth=1)

    # -- properties of the state where a block is established -----------------------------
    def prove_at_block(self, prop: Property) -> Result:
        """A property of every established block (:data:`AT_BLOCK`): PROVED when the
        invariant implies it at every blocked state it allows; else a real round that
        establishes a block breaking it (VIOLATED), or, where search cannot settle it,
        NOT_INDUCTIVE with the blocked state of the invariant that breaks it."""
        t0, led, h = self.begin()
        enc = self.enc
        f = AT_BLOCK[prop.id]
        s = enc.v.state("k0")
        sv = self.session.solver(ledger=led)
        sv.add(*[lem(enc, s) for lem in h.kept], s.status == BLOCKED, z3.Not(f(enc, s)))
        c = sv.check()
        settled = self.settled(prop.id, c, h, METHOD_INDUCTION, "Inv and an established "
                               f"block => property; Inv {self.session.lemmas_text(h)}", t0, led)
        return settled or self.search.refute(
            prop.id, "block", lambda ss, ms: z3.Not(f(enc, ss[-1])),
            lambda ss, ms: Or([z3.Not(f(enc, x)) for x in ss]), t0, led, METHOD_INDUCTION,
            lambda found: (f"a blocked state of the invariant breaks it; none reached in "
                           f"{found.depth} moves{found.floor_note}", None))

    # -- blocked-complete: progress ----------------------------------------------------
    def prove_blocked_complete(self) -> Result:
        """From a state being played where R2 and R3 hold and every hand holds tiles, every
        move is a confirmation that keeps R2/R3 and counts one more, or the establishment;
        with ``confirmed <= C`` (a lemma), the block is established within ``C + 1 <= P + 1``
        moves. Checked per action; refuted by BMC when it fails."""
        t0, led, h = self.begin()
        enc = self.enc
        s, m = enc.v.state("l0"), enc.v.move("lm")

        def premise(x: StateVars) -> Bool:  # between turns: no first turn going on (R2.3)
            between = [z3.Not(enc.v.first_turn(x))] if enc.v.first_turns else []
            return And(x.status == PLAYING, enc.preds.is_blocked(x), *between)

        hyps = [*[lem(enc, s) for lem in h.kept], premise(s)]
        # The step case written out rather than by :meth:`per_action`, whose obligation
        # dies with each query: Z3 reuses the ids of the terms Python frees, the models of
        # later queries in the process depend on them, and keeping ``ok`` alive as this
        # loop always has keeps the counterexamples ``explain`` finds afterwards the same.
        failed = []
        for a, (guard, post) in enc.steps(s, m).items():
            ok = Or(And(m.kind == ESTABLISH, post.status == BLOCKED),
                    And(m.kind == CONFIRM, premise(post),
                        post.confirmed == s.confirmed + 1))
            found = violations(hyps, guard, {a: ok}, ledger=led, **self.session.budgets)
            if found[0] is None:
                return self.result("blocked-complete", Verdict.UNKNOWN, "induction + progress",
                                   f"the query for action {a} was UNKNOWN "
                                   f"({found[1].reason})", t0, led)
            if found[0]:
                failed.append(a)
        sv = self.session.solver(ledger=led)
        sv.add(*hyps, z3.Not(enc.enabled(s)))
        stuck = sv.check()
        sv = self.session.solver(ledger=led)
        sv.add(*hyps, z3.UGT(s.confirmed, enc.v.C))
        over = sv.check()
        within = enc.v.C + 1
        unknown = [why for why, bad in (
            (h.incomplete, h.unknown),
            (f"the stuck-state query was UNKNOWN ({stuck.reason})", stuck.unknown),
            (f"the bound query was UNKNOWN ({over.reason})", over.unknown)) if bad]
        if not failed and unknown and not stuck.sat and not over.sat:
            # nothing failed, but not everything was shown: UNKNOWN, never NOT INDUCTIVE
            return self.result("blocked-complete", Verdict.UNKNOWN, "induction + progress",
                               "; ".join(unknown), t0, led)
        if not failed and stuck.unsat and over.unsat and within <= enc.v.P + 1 and not h.unknown:
            return self.result(
                "blocked-complete", Verdict.PROVED, "induction + progress (C - confirmed)",
                f"from R2 and R3 with every hand holding tiles, each move confirms (one more) "
                f"or establishes, and confirmations stay <= {enc.v.C}: the block is "
                f"established within {within} move(s) (<= P + 1 = {enc.v.P + 1})", t0, led)
        k = enc.v.P + 1
        found_run = self.search.bmc(lambda ss, ms: self._no_block_ahead(ss, ms, k, premise),
                                    ledger=led, tail=k, window=k + 1)
        if found_run.run is not None:
            return self.search.violated("blocked-complete", found_run, t0, led,
                                        f"state where R2 and R3 hold but no block within {k} moves")
        return self.result("blocked-complete", Verdict.NOT_INDUCTIVE, "induction + progress",
                           f"progress fails on {', '.join(failed) or 'the bound'}; no real "
                           f"violation within {found_run.depth} moves{found_run.floor_note}",
                           t0, led)

    def _no_block_ahead(self, ss: list[StateVars], ms: list[MoveVars], k: int,
                        premise: Callable[[StateVars], Bool]) -> Bool:
        """Goal of the refutation: the state ``k`` moves back satisfied the premise and no
        state since is blocked (``ss`` includes the ``k``-move tail)."""
        base = ss[-k - 1]
        return And(premise(base), *[x.status != BLOCKED for x in ss[-k:]])

    # -- terminal properties (R5) ---------------------------------------------------------
    def prove_terminal(self, prop: Property) -> Result:
        """A terminal property of R5. ``pips``: the scoring's residuals are the sums the
        catalogue states, at every finished state of the invariant. The others are about
        how totals become winners and awards: proved for *every* vector of residuals (free
        variables, not the hands' sums: a stronger statement, and small formulas), at every
        finished state of the invariant where every hand holds tiles (R1.2: a block is not a
        domino)."""
        t0, led, h = self.begin()
        enc = self.enc
        scoring = self.session.scoring()
        s = enc.v.state("s0")
        hyps = [*[lem(enc, s) for lem in h.kept], s.status != PLAYING]
        method = "declarative R5 scoring"
        if prop.id == "pips":
            cases = scoring.cases("pips", s)
            what = "at every finished state of the invariant"
        else:
            res = [z3.BitVec(f"residual{p}", SCORE_BITS) for p in range(enc.v.P)]
            total = sum(enc.v.VALUE)
            wide = [z3.ZeroExt(8, r) for r in res]
            hyps += [z3.ULE(z3.Sum(wide), total),
                     *[z3.Implies(s.status == BLOCKED, z3.Not(enc.v.hand_empty(s, p)))
                       for p in range(enc.v.P)]]
            cases = scoring.cases(prop.id, s, res)
            what = "for every vector of residuals, at every finished state of the invariant"
        c = Check("unsat", 0.0)
        for premises, conclusion in cases:
            sv = self.session.solver(ledger=led)
            sv.add(*hyps, *premises, z3.Not(conclusion))
            c = sv.check()
            if not c.unsat:
                break
        settled = self.settled(prop.id, c, h, method, f"{scoring.describe(prop.id)}, {what}; "
                               f"Inv {self.session.lemmas_text(h)}; the engine's outcome is "
                               "compared with this scoring on terminal states "
                               "(tests/test_crosscheck_z3.py)", t0, led)
        if settled:
            return settled

        def broken(ss: list[StateVars], ms: list[MoveVars]) -> Bool:
            return And(ss[-1].status != PLAYING, z3.Not(scoring.property(prop.id, ss[-1])))

        return self.search.refute(prop.id, "terminal state", broken, broken, t0, led, method,
                                  lambda found: (f"a finished state of the invariant breaks it; "
                                                 f"none reached in {found.depth} moves"
                                                 f"{found.floor_note}", None))


__all__ = ["CTI", "METHOD_INDUCTION", "STATE_PROPERTIES", "TRANSITION", "TYPE_OK",
           "InductionProofs", "StepCase"]
