"""Queries on the Z3 encoding: induction per instance, bounded model checking, witnesses,
termination, and the sanity checks that keep proofs honest.

Layering (mypyvy's, STYLE 8): ``encoding`` (vocabulary, Init, actions) -> ``solver``
(seed, budgets, push/pop, statistics) -> this module (the queries) -> the CLI
(``dominoproof prove``, ``dominoproof witness``). Every query has a fixed seed, Z3's
deterministic resource limit and a wall-clock safety net; ``unknown`` is UNKNOWN, never
PROVED, and says which budget ran out.

Verdicts keep "false" apart from "not inductive":

* **PROVED**: Init implies the invariant, every action preserves it (each action
  checked on its own), and the invariant implies the property;
* **VIOLATED**: bounded model checking found a real round, from a real deal, that
  reaches the violation; the trace is decoded into moves and replayed in the engine;
* **NOT_INDUCTIVE**: a counterexample to induction (two states and a move, decoded
  and minimised) and no real violation within the BMC depth searched;
* **UNKNOWN**: a query ran out of its resource limit (or, on a machine overloaded far
  beyond the calibration, of the wall-clock safety net): the detail says which.

Every result records the solver's time and statistics. Before any proof, the
sanity checks show that Init and the invariant are satisfiable and that the
transition relation has successors: a proof from an unsatisfiable premise would
pass trivially.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.engine import Deal, Trace, initial_state, shuffled_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import Layout, layout_of
from dominoproof.model.moves import Move, MoveKind, move_json
from dominoproof.model.rules import Rules, is_own, rules_for
from dominoproof.model.state import State
from dominoproof.model.tiles import bits, show_tiles, tile_count
from dominoproof.model.variant import DrawRule, FoulRule, Variant, find_variant

from .encoding import (
    BLOCKED,
    CONFIRM,
    DRAW,
    ESTABLISH,
    LEAD_CODE,
    LOC_BITS,
    NOWHERE,
    PLAY,
    PLAYING,
    SEAT_BITS,
    STUTTER,
    Bool,
    Encoding,
    MoveVars,
    StateVars,
    popcount,
)
from .lemmas import (
    LEMMAS,
    HoudiniResult,
    Lemma,
    blocked_sound,
    candidates_for,
    houdini,
    parity_conclusion,
    violations,
)
from .properties import BY_ID, CATALOGUE, Property, Result, Verdict
from .scoring import SCORE_BITS, Scoring
from .solver import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Check, Ledger, Optimizer, Solver

METHOD_INDUCTION = "induction per instance"

#: SEMANTICS "Type invariant": the lemmas every state of the vocabulary is assumed to
#: satisfy when a property is checked "alone".
TYPE_OK = ("seat", "status", "count-range", "tile-places", "ends-match-table")

#: The properties stated as a candidate lemma: proved as state invariants (their lemma in
#: the inductive invariant), and what :meth:`Prover.explain` can explain.
STATE_PROPERTIES = frozenset(lem.property for lem in LEMMAS if lem.property)


# ---------------------------------------------------------------------------
# Results: counterexamples to induction, BMC traces
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


@dataclass
class Run:
    """A round found by bounded model checking: the decoded states and moves, and the
    engine's replay of it (a :class:`Trace` from a real deal)."""

    states: list[State]
    moves: list[Move]
    trace: Trace
    replayed: bool  #: the engine (or the fault's rule book) replays it to the same states
    mismatch: str = ""  #: why not, if not
    loop_from: int | None = None  #: a lasso: the last state repeats state ``loop_from``

    def to_json(self) -> dict[str, Any]:
        layout = layout_of(self.trace.variant)
        out: dict[str, Any] = self.trace.to_json() if self.replayed else {
            "deal": self.trace.deal.to_json(),
            "moves": [move_json(layout, s, m) for s, m in zip(self.states, self.moves,
                                                              strict=False)]}
        # where the round came from, kept in the trace's ``origin`` (a trace document
        # accepts it; every other key it does not know is an error)
        origin: dict[str, Any] = {"by": "Z3 bounded model checking", "replayed": self.replayed}
        if self.loop_from is not None:
            origin["loop_from"] = self.loop_from
        out["origin"] = origin
        return out


@dataclass
class Unrolling:
    """A path of the transition relation from ``Init`` in one solver, grown a step at a
    time: ``states[0]`` is initial, ``moves[i]`` leads from ``states[i]`` to
    ``states[i + 1]``; with ``stutter`` a finished round may idle; every state after the
    first also satisfies the lemmas ``inv`` (the proved invariant, where it is used)."""

    enc: Encoding
    sv: Solver
    prefix: str
    stutter: bool
    inv: list[Lemma]
    states: list[StateVars]
    moves: list[MoveVars] = field(default_factory=list)

    def extend(self, steps: int = 1) -> None:
        enc = self.enc
        for _ in range(steps):
            i = len(self.moves)
            here = self.states[-1]
            m, nxt = enc.move(f"{self.prefix}{i}"), enc.state(f"{self.prefix}{i + 1}")
            step = enc.trans(here, m, nxt)
            if self.stutter:
                step = z3.Or(step, enc.stutter(here, m, nxt))
            self.sv.add(step, *[lem(enc, nxt) for lem in self.inv])
            self.moves.append(m)
            self.states.append(nxt)


@dataclass
class BMCResult:
    """The outcome of a bounded search: a run reaching the goal, or the depth searched."""

    run: Run | None
    depth: int  #: the depth of the run, or the last depth checked without one
    complete: bool  #: every depth up to ``depth`` was answered (no unknown, no deadline)
    seconds: float
    ledger: Ledger
    model: Any = None
    states: list[StateVars] = field(default_factory=list)
    stop: str = ""  #: why the search stopped early (``complete`` is False), in words


@dataclass
class SanityCheck:
    name: str
    ok: bool
    answer: str
    seconds: float
    expect: str  #: what the answer must be
    reason: str = ""  #: why Z3 answered unknown (the budget that ran out), when it did

    @property
    def unknown(self) -> bool:
        """The check was not answered: neither passed nor failed (an UNKNOWN, exit 3)."""
        return self.answer == "unknown"


# ---------------------------------------------------------------------------
# Transition properties and the ranking function, as formulas
# ---------------------------------------------------------------------------

TransitionFormula = Callable[[Encoding, StateVars, MoveVars, StateVars], Bool]


def procedure(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """procedure [R4.1-R4.4]: a confirmation by a player who cannot play extends the run
    clockwise (one more, the next seat to move); a play ends the run; an Establish follows
    a run of confirmations by every player from the proposer, with the boneyard empty,
    and R2/R3 hold at that moment."""
    cannot = z3.Not(e.can_play(s, s.turn))
    return z3.And(
        z3.Implies(z3.And(m.kind == CONFIRM, cannot),
                   z3.And(t.confirmed == s.confirmed + 1, t.turn == e.next_seat(s.turn))),
        z3.Implies(m.kind == PLAY, t.confirmed == 0),
        z3.Implies(m.kind == ESTABLISH, z3.And(
            z3.UGE(s.confirmed, e.P), e.boneyard_empty(s), e.conditions_hold(s))))


def no_false_confirmation(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """no-false-confirmation [R4.2, R4.3, R4.5]: a Confirm ("I cannot extend any open end")
    is made by a player with no playable tile, or is recorded as their foul."""
    honest = z3.Not(e.can_play(s, s.turn))
    if e.FOULS is FoulRule.PENALISED:
        bit = e.seat_bit(s.turn)
        foul = z3.And((s.fouls & bit) == 0, (t.fouls & bit) != 0, t.confirmed == 0)
        honest = z3.Or(honest, foul)
    return z3.Implies(m.kind == CONFIRM, honest)


def boneyard_monotone(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """boneyard-monotone [R3.1, R3.2]: the boneyard never gains a tile (so once empty it
    stays empty), a draw takes a tile of the boneyard, and the set-aside tiles stay put."""
    return z3.And(*[z3.Implies(e.in_boneyard(t, x), e.in_boneyard(s, x)) for x in range(e.T)],
                  *[(s.loc[x] == e.ASIDE) == (t.loc[x] == e.ASIDE) for x in range(e.T)],
                  z3.Implies(m.kind == DRAW, e.tile_at(s, m, e.BONEYARD)))


def opening(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """opening [Terms]: the first move is the lead the variant names, by its player, with
    the tile it names."""
    return z3.Implies(z3.Not(s.led), z3.And(
        m.kind == PLAY, m.end == LEAD_CODE, e.is_leader(s, s.turn), e.lead_allowed(s, m)))


TRANSITION: dict[str, TransitionFormula] = {
    "procedure": procedure,
    "no-false-confirmation": no_false_confirmation,
    "boneyard-monotone": boneyard_monotone,
    "opening": opening,
}


@dataclass(frozen=True)
class Ranking:
    """The termination measure, while the round is played:

    ``r = sum over tiles of w(place) + 1 + foul*|seats without a foul| + drew*[drew]
    + (C - confirmed)``, with ``w`` = ``bone`` for a boneyard tile, ``hand`` for a tile in
    a hand, 0 on the table or set aside; ``r = 0`` once the round is over.

    Proving ``r' < r`` with the sums inside the solver asks a SAT solver to compare two
    adder trees, which it does badly. Every action moves at most the move's own tile, so
    the proof is split: per action, Z3 proves (a) no other tile changes place, and (b) the
    moved tile's weight change plus the change of the small counters is negative (or the
    round ends). The sum's arithmetic, ``r' - r = w(after) - w(before) + counters' -
    counters``, is then exact.
    """

    bone: int
    hand: int
    foul: int
    drew: int
    needed: int
    aside: int = 0  #: weight of a set-aside tile (0 unless the rules can draw one)

    W = 16

    def k(self, x: int) -> Any:
        return z3.BitVecVal(x, self.W)

    def weight(self, e: Encoding, place: Any) -> Any:
        """``w``: what a tile at ``place`` contributes to ``r``."""
        return z3.If(place == e.BONEYARD, self.k(self.bone),
                     z3.If(z3.ULT(place, e.P), self.k(self.hand),
                           z3.If(place == e.ASIDE, self.k(self.aside), self.k(0))))

    def counters(self, e: Encoding, s: StateVars) -> Any:
        """The part of ``r`` that is not tiles (the procedure's progress and the flags)."""
        c = self.k(1 + self.needed) - z3.ZeroExt(self.W - s.confirmed.size(), s.confirmed)
        if self.foul:
            c = c + self.k(self.foul) * popcount([z3.Extract(p, p, s.fouls) == 0
                                                  for p in range(e.P)], self.W)
        if self.drew:
            c = c + z3.If(s.drew, self.k(self.drew), self.k(0))
        return c

    def term(self, e: Encoding, s: StateVars) -> Any:
        """``r`` itself (for evaluation on a model)."""
        tiles = z3.Sum([self.weight(e, x) for x in s.loc])
        return z3.If(s.status == PLAYING, tiles + self.counters(e, s), self.k(0))

    def decreases(self, e: Encoding, s: StateVars, m: MoveVars, post: StateVars) -> Any:
        """The per-action obligation: (a) only the move's tile may change place, and (b)
        the round ends, or the moved tile's weight change plus the counters' change is
        negative (``r' < r``)."""
        frame = z3.And([z3.Or(m.tile == t, post.loc[t] == s.loc[t]) for t in range(e.T)])

        def at(st: StateVars) -> Any:
            out = z3.BitVecVal(NOWHERE, LOC_BITS)
            for t in range(e.T - 1, -1, -1):
                out = z3.If(m.tile == t, st.loc[t], out)
            return out

        smaller = z3.ULT(self.counters(e, post) + self.weight(e, at(post)),
                         self.counters(e, s) + self.weight(e, at(s)))
        ends = z3.And(s.status == PLAYING, post.status != PLAYING)
        return z3.And(frame, z3.Or(ends, z3.And(post.status == PLAYING, smaller)))

    def bound(self, e: Encoding) -> int:
        """``r`` at Init: every deal has the same counts."""
        fouls = e.P if self.foul else 0
        return (1 + self.bone * e.B + self.hand * e.P * e.H + self.foul * fouls + self.needed
                + self.aside * e.K)

    def describe(self) -> str:
        parts = [f"{self.bone}*|boneyard|", f"{self.hand}*|tiles in hands|"]
        if self.aside:
            parts.append(f"{self.aside}*|set aside|")
        if self.foul:
            parts.append(f"{self.foul}*|seats without a foul|")
        if self.drew:
            parts.append(f"{self.drew}*[has drawn]")
        parts.append(f"({self.needed} - confirmations)")
        return "r = 1 + " + " + ".join(parts) + " while the round is played, 0 after"


def ranking_for(e: Encoding) -> Ranking:
    """Weights that make every action decrease ``r``: a play may reset up to ``C``
    confirmations (so a tile in hand weighs ``C+1``); a pass resets them too and clears
    ``drew`` (``C+1``); a draw moves a tile from the boneyard to a hand and may set
    ``drew`` (so a boneyard tile weighs more than both); a foul resets the count."""
    c = e.C
    drew = c + 1 if e.DRAW is DrawRule.ONE else 0
    hand = c + 1
    bone = hand + drew + 1
    foul = c + 1 if e.FOULS is FoulRule.PENALISED else 0
    # a rule set that lets set-aside tiles be drawn (a broken one) declares it: they then
    # weigh like boneyard tiles
    aside = bone if getattr(e, "may_draw_aside", False) else 0
    return Ranking(bone, hand, foul, drew, c, aside)


# ---------------------------------------------------------------------------
# The prover
# ---------------------------------------------------------------------------


#: The optimiser that makes a CTI small gets this share of the resource limit: its model is
#: only an illustration, kept even when the optimum is not reached.
MINIMISE_SHARE = 10


def _configuration(v: Variant) -> str:
    return (f"{v.name}: double-{v.n} ({v.tiles.count} tiles), {v.players} players x "
            f"{v.deal.hand_size}, boneyard {v.boneyard_size}, set aside {v.deal.set_aside}, "
            f"draw {v.draw.rule.value}; every deal, every draw order")


class Prover:
    """Z3 queries on one variant (or on a fault's twin encoding).

    ``encoding``: default the variant's own; ``rules``: the engine rule book that
    must replay the runs found (default the variant's; a fault's mutant with its twin).
    """

    def __init__(self, variant: Variant, *, encoding: Encoding | None = None,
                 rules: Rules | None = None, seed: int = 0,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT,
                 bmc_depth: int = 12, bmc_seconds: float = 60.0,
                 candidates: Sequence[Lemma] | None = None,
                 together: bool | None = None, label: str = "",
                 scoring: type[Scoring] | None = None, exhaust_limit: int = 40) -> None:
        self.variant = variant
        self.enc = encoding or Encoding(variant)
        self.rules = rules or rules_for(variant)
        self.layout = layout_of(variant)
        self.seed = seed
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit
        self.bmc_depth = bmc_depth
        self.bmc_seconds = bmc_seconds
        self.candidates = list(candidates) if candidates is not None else candidates_for(
            self.enc)
        self.together = together
        self.label = label or variant.name
        self.scoring_class = scoring or Scoring
        self.exhaust_limit = exhaust_limit  #: largest termination bound BMC may exhaust
        self.ledger = Ledger()
        self._inv: HoudiniResult | None = None
        self._inv_seconds = 0.0
        self.last_sanity: list[SanityCheck] = []
        self._proved: dict[str, Result] = {}

    # -- plumbing ---------------------------------------------------------------
    def solver(self, engine: str = "sat", ledger: Ledger | None = None) -> Solver:
        return Solver(seed=self.seed, timeout_ms=self.timeout_ms, rlimit=self.rlimit,
                      ledger=ledger if ledger is not None else self.ledger, engine=engine)

    def unroll(self, prefix: str, steps: int = 0, *, ledger: Ledger | None = None,
               deal: Deal | None = None, stutter: bool = True,
               strengthen: bool = True) -> Unrolling:
        """A path of ``steps`` steps from ``Init`` (or from ``deal``) in a fresh solver,
        each state after the first constrained by the proved invariant when
        ``strengthen`` (it holds in every reachable state, so no real round is lost)."""
        x0 = self.enc.state(f"{prefix}0")
        sv = self.solver(ledger=ledger)
        sv.add(self.enc.init(x0, deal))
        path = Unrolling(self.enc, sv, prefix, stutter,
                         self.strengthening() if strengthen else [], [x0])
        path.extend(steps)
        return path

    def configuration(self) -> str:
        return _configuration(self.variant)

    def _result(self, pid: str, verdict: Verdict, method: str, detail: str, t0: float,
                ledger: Ledger, trace: Any = None) -> Result:
        """A result with the time and the solver statistics of its own queries (they are
        also added to the prover's total)."""
        if ledger is not self.ledger:
            self.ledger.merge(ledger)
        return Result(pid, verdict, method, self.configuration(), detail,
                      seconds=time.perf_counter() - t0, trace=trace, stats=ledger.as_dict())

    # -- the invariant -------------------------------------------------------------
    def invariant(self) -> HoudiniResult:
        """The Houdini strengthening: the largest inductive subset of the candidates."""
        if self._inv is None:
            t0 = time.perf_counter()
            self._inv = houdini(self.enc, self.candidates, seed=self.seed,
                                timeout_ms=self.timeout_ms, rlimit=self.rlimit,
                                ledger=Ledger(),
                                together=self.together)
            self.ledger.merge(self._inv.ledger)
            self._inv_seconds = time.perf_counter() - t0
        return self._inv

    @property
    def invariant_seconds(self) -> float:
        """Wall time of the Houdini search (0 until :meth:`invariant` has run)."""
        return self._inv_seconds

    def strengthening(self) -> list[Lemma]:
        """The proved invariant's lemmas (none if Houdini did not finish)."""
        h = self.invariant()
        return [] if h.unknown else list(h.kept)

    def inv(self, s: StateVars) -> list[Bool]:
        return [lem(self.enc, s) for lem in self.invariant().kept]

    # -- sanity ------------------------------------------------------------------------
    def sanity(self) -> list[SanityCheck]:
        """Init and the invariant are satisfiable, the relation has successors from the
        invariant, and no state of the invariant is stuck while the round is played."""
        enc = self.enc
        s, m, s2 = enc.state("z0"), enc.move("zm"), enc.state("z1")
        inv = self.inv(s)
        out = []

        def run(name: str, expect: str, *fs: Bool) -> None:
            sv = self.solver()
            sv.add(*fs)
            c = sv.check()
            out.append(SanityCheck(name, c.answer == expect, c.answer, c.seconds, expect,
                                   c.reason))

        run("Init is satisfiable (a deal exists)", "sat", enc.init(s))
        run("the invariant holds in some state being played", "sat", *inv,
            s.status == PLAYING)
        run("the invariant holds in some blocked state", "sat", *inv, s.status == BLOCKED)
        run("the transition relation has successors from the invariant", "sat", *inv,
            enc.trans(s, m, s2))
        run("no state of the invariant is stuck while the round is played", "unsat", *inv,
            s.status == PLAYING, z3.Not(enc.enabled(s)))
        return out

    # -- proofs ---------------------------------------------------------------------
    def prove(self, pid: str) -> Result:
        """One property of the catalogue, by the method that fits its kind (proved once
        per prover: the witness bounds and refutations ask for termination and
        blocked-sound again)."""
        if pid not in self._proved:
            self._proved[pid] = self._prove(pid)
        return self._proved[pid]

    def _prove(self, pid: str) -> Result:
        prop = BY_ID[pid]
        if not prop.applies_to(self.variant):
            return Result(pid, Verdict.NOT_APPLICABLE, METHOD_INDUCTION, self.configuration(),
                          f"applies to {prop.applies_doc}")
        if pid in STATE_PROPERTIES:
            return self.prove_state(prop)
        if pid in TRANSITION:
            return self.prove_transition(prop)
        if pid == "termination":
            return self.prove_termination()
        if pid == "blocked-complete":
            return self.prove_blocked_complete()
        return self.prove_terminal(prop)

    def prove_all(self, ids: Sequence[str] | None = None, *, workers: int = 1,
                  sanity: bool = False) -> list[Result]:
        """Every property (or ``ids``), in catalogue order.

        With ``workers > 1`` the Houdini invariant is found first, here; then the
        properties (and, with ``sanity``, the sanity checks) are shared among forked
        processes that inherit it -- each proof is the same query as in one process,
        so the verdicts are the same; only the wall time changes. The sanity checks'
        results are then in :attr:`last_sanity`."""
        pids = [p.id for p in CATALOGUE if ids is None or p.id in ids]
        if workers <= 1 or len(pids) < 2:
            out = [self.prove(pid) for pid in pids]
            if sanity:
                self.last_sanity = self.sanity()
            return out
        import multiprocessing as mp

        self.invariant()  # shared by every proof: found once, inherited by the workers
        jobs: list[str] = (["<sanity>"] if sanity else []) + pids
        global _FORKED
        _FORKED = self
        try:
            with mp.get_context("fork").Pool(min(workers, len(jobs))) as pool:
                answers = pool.map(_prove_forked, jobs, chunksize=1)
        finally:
            _FORKED = None
        done: dict[str, Any] = {}
        for job, (answer, ledger) in zip(jobs, answers, strict=True):
            done[job] = answer
            self.ledger.merge(ledger)  # the workers' queries count too
        if sanity:
            self.last_sanity = done.pop("<sanity>")
        return [done[pid] for pid in pids]

    def _lemmas_text(self, h: HoudiniResult, pid: str | None = None) -> str:
        kept = [lem.id for lem in h.kept if pid is None or lem.property != pid]
        return f"with {len(kept)} lemma(s): " + ", ".join(kept)

    def prove_state(self, prop: Property) -> Result:
        """A state invariant: PROVED if Houdini keeps it; else a BMC search for a real
        violation; else NOT_INDUCTIVE with the CTI relative to the kept lemmas."""
        t0 = time.perf_counter()
        led = Ledger()
        h = self.invariant()
        lem = next((c for c in self.candidates if c.property == prop.id), None)
        assert lem is not None, prop.id
        if h.unknown:
            return self._result(prop.id, Verdict.UNKNOWN, METHOD_INDUCTION,
                                h.incomplete, t0, h.ledger)
        if lem in h.kept:
            detail = (f"Init => Inv, Inv and each action => Inv', Inv => property; "
                      f"{self._lemmas_text(h, prop.id)} (Houdini: {h.ledger.checks} queries, "
                      f"{self._inv_seconds:.2f}s, shared by the state properties; the "
                      f"statistics are Houdini's)")
            r = self._result(prop.id, Verdict.PROVED, METHOD_INDUCTION, detail, t0, led)
            r.stats = h.ledger.as_dict()
            return r
        return self._refute_state(prop.id, lem, h.kept, t0, led)

    def _refute_state(self, pid: str, lem: Lemma, kept: list[Lemma], t0: float,
                      led: Ledger) -> Result:
        found = self.bmc(lambda ss, ms: z3.Not(lem(self.enc, ss[-1])), ledger=led)
        if found.run is not None:
            return self._violated(pid, found, t0, led, "state")
        done = self._exhausted(pid, self.exhaust(lambda ss, ms: z3.Or(
            [z3.Not(lem(self.enc, x)) for x in ss]), ledger=led), t0, led, "state")
        if done is not None:
            return done
        cti = self.cti(lem, kept, ledger=led)
        depth = f"no violation in rounds of up to {found.depth} moves" + (
            "" if found.complete else " (search incomplete)")
        if cti is None:
            return self._result(pid, Verdict.UNKNOWN, METHOD_INDUCTION,
                                f"not kept by Houdini, but no CTI found; {depth}", t0, led)
        return self._result(pid, Verdict.NOT_INDUCTIVE, METHOD_INDUCTION,
                            f"{depth}; CTI on action {cti.action}", t0, led, cti)

    def round_bound(self) -> int | None:
        """Every round ends within this many moves (the ranking function's bound), or None
        when termination is not PROVED."""
        r = self.prove("termination")
        return int(r.trace["bound"]) if r.verdict is Verdict.PROVED else None

    def exhaust(self, bad: Callable[[list[StateVars], list[MoveVars]], Bool], *,
                ledger: Ledger | None = None) -> BMCResult | None:
        """Bounded model checking made complete: when termination is PROVED with a bound
        ``R <= exhaust_limit``, every round is at most ``R`` moves, so one query over
        ``R`` steps (finished rounds idle) decides whether any round reaches ``bad``
        (given every state and real move of the unrolling). None when not applicable."""
        bound = self.round_bound()
        if bound is None or bound > self.exhaust_limit:
            return None
        led = ledger if ledger is not None else self.ledger
        t0 = time.perf_counter()
        path = self.unroll("x", bound, ledger=led)
        sv, states, moves = path.sv, path.states, path.moves
        sv.add(bad(states, moves))
        c = sv.check()
        if c.unknown:
            return BMCResult(None, bound, False, time.perf_counter() - t0, led,
                             stop=f"the query to depth {bound} was UNKNOWN ({c.reason})")
        if c.unsat:
            return BMCResult(None, bound, True, time.perf_counter() - t0, led)
        run = self.decode_run(c.model, states, moves)
        return BMCResult(run, len(run.moves), True, time.perf_counter() - t0, led, c.model,
                         states)

    def _exhausted(self, pid: str, res: BMCResult | None, t0: float, led: Ledger,
                   what: str) -> Result | None:
        """The verdict of :meth:`exhaust`, or None to fall back to NOT_INDUCTIVE."""
        if res is None or not res.complete:
            return None
        if res.run is not None:
            return self._violated(pid, res, t0, led, what)
        return self._result(pid, Verdict.PROVED, f"bounded to depth {res.depth} (complete)",
                            f"not inductive with the lemmas found, but no round of up to "
                            f"{res.depth} moves breaks it, and termination (PROVED) bounds "
                            f"every round by {res.depth} moves", t0, led)

    def _violated(self, pid: str, found: BMCResult, t0: float, led: Ledger, what: str) -> Result:
        run = found.run
        assert run is not None
        why = "" if run.replayed else f" (engine replay differs: {run.mismatch})"
        return self._result(pid, Verdict.VIOLATED, f"bounded to depth {found.depth}",
                            f"a real round reaches a {what} violating it in {found.depth} "
                            f"moves{why}", t0, led, run)

    def cti(self, lem: Lemma, kept: list[Lemma], *, ledger: Ledger | None = None
            ) -> CTI | None:
        """A counterexample to induction of ``lem`` assuming ``kept`` (and ``lem``), one
        action at a time, minimised (fewest tiles on the table, then in hands)."""
        enc = self.enc
        s, m = enc.state("c0"), enc.move("cm")
        hyps = [x(enc, s) for x in kept if x is not lem] + [lem(enc, s)]
        for a, (guard, post) in enc.steps(s, m).items():
            sv = self.solver(ledger=ledger)
            sv.add(*hyps, guard, z3.Not(lem(enc, post)))
            c = sv.check()
            if not c.sat:
                continue
            model = self._minimise(s, [*hyps, guard, z3.Not(lem(enc, post))], ledger) \
                or c.model
            return CTI(lem.property or lem.id, a, enc.decode_state(model, s),
                       enc.decode_move(model, s, m), enc.decode_state(model, post),
                       [x.id for x in kept if x is not lem], self.layout)
        return None

    def holds_at(self, lem: Lemma, state: State) -> bool:
        """Does ``lem`` hold in the concrete ``state``?"""
        s = self.enc.state("h")
        sv = self.solver(ledger=Ledger())
        sv.add(*self.enc.equals(s, state), z3.Not(lem(self.enc, s)))
        return bool(sv.check().unsat)

    def explain(self, pid: str, *, limit: int = 12) -> list[tuple[CTI, str | None]]:
        """Why ``pid`` needs its lemmas: starting from the type invariant alone, the
        (minimised) counterexample to induction of the property, and the first lemma of
        the proved invariant that rules its pre-state out; that lemma is assumed and the
        next CTI sought, until none is left. Each step is a CTI no real round reaches."""
        lem = next(c for c in self.candidates if c.property == pid)
        kept = [x for x in self.invariant().kept if x is not lem]
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
        opt = Optimizer(seed=self.seed, timeout_ms=self.timeout_ms,
                        rlimit=max(1, self.rlimit // MINIMISE_SHARE), ledger=ledger)
        opt.add(*fs)
        enc = self.enc
        opt.minimize(popcount([enc.on_table(s, t) for t in range(enc.T)]))
        opt.minimize(popcount([enc.held(s, t) for t in range(enc.T)]))
        c = opt.check()
        return c.model if c.model is not None and not c.unsat else None

    def prove_transition(self, prop: Property) -> Result:
        """A transition property: Inv and each action's step imply it."""
        t0 = time.perf_counter()
        led = Ledger()
        h = self.invariant()
        enc = self.enc
        f = TRANSITION[prop.id]
        s, m = enc.state("t0"), enc.move("tm")
        hyps = [lem(enc, s) for lem in h.kept]
        failed: list[tuple[str, Check]] = []
        for a, (guard, post) in enc.steps(s, m).items():
            found = violations(hyps, guard, {a: f(enc, s, m, post)}, seed=self.seed,
                               timeout_ms=self.timeout_ms, rlimit=self.rlimit,
                               ledger=led)
            bad, c = found
            if bad is None:
                return self._result(prop.id, Verdict.UNKNOWN, METHOD_INDUCTION,
                                    f"the query for action {a} was UNKNOWN ({c.reason})", t0,
                                    led)
            if bad:
                failed.append((a, c))
        if not failed:
            detail = (f"Inv and each action => property; Inv {self._lemmas_text(h)}"
                      + ("" if not h.unknown else f" ({h.incomplete})"))
            verdict = Verdict.PROVED if not h.unknown else Verdict.UNKNOWN
            return self._result(prop.id, verdict, METHOD_INDUCTION, detail, t0, led)
        found_run = self.bmc(lambda ss, ms: z3.Not(f(enc, ss[-2], ms[-1], ss[-1])),
                             min_depth=1, ledger=led)
        if found_run.run is not None:
            return self._violated(prop.id, found_run, t0, led, "transition")
        done = self._exhausted(prop.id, self.exhaust(lambda ss, ms: z3.Or(
            [z3.And(m.kind != STUTTER, z3.Not(f(enc, a_, m, b_)))
             for a_, m, b_ in zip(ss, ms, ss[1:], strict=False)]), ledger=led),
            t0, led, "transition")
        if done is not None:
            return done
        a, c = failed[0]
        post = enc.steps(s, m)[a][1]
        cti = CTI(prop.id, a, enc.decode_state(c.model, s), enc.decode_move(c.model, s, m),
                  enc.decode_state(c.model, post), [lem.id for lem in h.kept], self.layout)
        return self._result(prop.id, Verdict.NOT_INDUCTIVE, METHOD_INDUCTION,
                            f"no violation in rounds of up to {found_run.depth} moves; "
                            f"CTI on action(s) {', '.join(x for x, _ in failed)}", t0, led, cti)

    # -- termination -----------------------------------------------------------------------
    def prove_termination(self) -> Result:
        """A ranking function that every action decreases, and its bound at Init."""
        t0 = time.perf_counter()
        led = Ledger()
        h = self.invariant()
        enc = self.enc
        rank = ranking_for(enc)
        s, m = enc.state("r0"), enc.move("rm")
        hyps = [lem(enc, s) for lem in h.kept]
        r0 = rank.term(enc, s)
        failed: list[tuple[str, Check]] = []
        for a, (guard, post) in enc.steps(s, m).items():
            found = violations(hyps, guard, {a: rank.decreases(enc, s, m, post)},
                               seed=self.seed, timeout_ms=self.timeout_ms, rlimit=self.rlimit,
                               ledger=led)
            if found[0] is None:
                return self._result("termination", Verdict.UNKNOWN, "ranking function",
                                    f"the query for action {a} was UNKNOWN "
                                    f"({found[1].reason})", t0, led)
            if found[0]:
                failed.append((a, found[1]))
        # Every deal has the same counts (Init fixes them), so r is the same at every
        # initial state; evaluate it on one (a universal query over the deal's cardinality
        # constraints and the adder trees of r is needlessly hard for the SAT solver).
        bound = rank.bound(enc)
        sv = self.solver(ledger=led)
        sv.add(enc.init(s, shuffled_deal(self.variant, random.Random(self.seed))))
        c = sv.check()
        at_init = int(c.model.eval(r0, True).as_long()) if c.sat else None
        if at_init != bound:
            failed_bound = f"r at an initial state is {at_init}, expected {bound}"
        else:
            failed_bound = ""
        if not failed and not failed_bound and not h.unknown:
            detail = (f"{rank.describe()}; every action decreases it (Inv {self._lemmas_text(h)})"
                      f"; at Init r = {bound}, so every round ends within {bound} moves")
            return self._result("termination", Verdict.PROVED, "ranking function", detail, t0,
                                led, {"bound": bound, "ranking": rank.describe()})
        if not failed:
            return self._result("termination", Verdict.UNKNOWN, "ranking function",
                                failed_bound or h.incomplete, t0, led)
        lasso = self.lasso(ledger=led)
        if lasso.run is not None:
            return self._violated("termination", lasso, t0, led, "repeated state (a round "
                                  "that can go on for ever)")
        a, c = failed[0]
        post = enc.steps(s, m)[a][1]
        cti = CTI("termination", a, enc.decode_state(c.model, s),
                  enc.decode_move(c.model, s, m), enc.decode_state(c.model, post),
                  [lem.id for lem in h.kept], self.layout)
        return self._result("termination", Verdict.NOT_INDUCTIVE, "ranking function",
                            f"{rank.describe()} does not decrease on "
                            f"{', '.join(x for x, _ in failed)}; no cycle within "
                            f"{lasso.depth} moves", t0, led, cti)

    # -- blocked-complete --------------------------------------------------------------
    def prove_blocked_complete(self) -> Result:
        """From a state being played where R2 and R3 hold and every hand holds tiles, every
        move is a confirmation that keeps R2/R3 and counts one more, or the establishment;
        with ``confirmed <= C`` (a lemma), the block is established within ``C + 1 <= P + 1``
        moves. Checked per action; refuted by BMC when it fails."""
        t0 = time.perf_counter()
        led = Ledger()
        h = self.invariant()
        enc = self.enc
        s, m = enc.state("l0"), enc.move("lm")

        def premise(x: StateVars) -> Bool:
            return z3.And(x.status == PLAYING, enc.is_blocked(x))

        hyps = [*[lem(enc, s) for lem in h.kept], premise(s)]
        failed = []
        for a, (guard, post) in enc.steps(s, m).items():
            ok = z3.Or(z3.And(m.kind == ESTABLISH, post.status == BLOCKED),
                       z3.And(m.kind == CONFIRM, premise(post),
                              post.confirmed == s.confirmed + 1))
            found = violations(hyps, guard, {a: ok}, seed=self.seed,
                               timeout_ms=self.timeout_ms, rlimit=self.rlimit,
                               ledger=led)
            if found[0] is None:
                return self._result("blocked-complete", Verdict.UNKNOWN, "induction + progress",
                                    f"the query for action {a} was UNKNOWN "
                                    f"({found[1].reason})", t0, led)
            if found[0]:
                failed.append(a)
        sv = self.solver(ledger=led)
        sv.add(*hyps, z3.Not(enc.enabled(s)))
        stuck = sv.check()
        sv = self.solver(ledger=led)
        sv.add(*hyps, z3.UGT(s.confirmed, enc.C))
        over = sv.check()
        within = enc.C + 1
        unknown = [why for why, bad in (
            (h.incomplete, h.unknown),
            (f"the stuck-state query was UNKNOWN ({stuck.reason})", stuck.unknown),
            (f"the bound query was UNKNOWN ({over.reason})", over.unknown)) if bad]
        if not failed and unknown and not stuck.sat and not over.sat:
            # nothing failed, but not everything was shown: UNKNOWN, never NOT INDUCTIVE
            return self._result("blocked-complete", Verdict.UNKNOWN, "induction + progress",
                                "; ".join(unknown), t0, led)
        if not failed and stuck.unsat and over.unsat and within <= enc.P + 1 and not h.unknown:
            return self._result(
                "blocked-complete", Verdict.PROVED, "induction + progress (C - confirmed)",
                f"from R2 and R3 with every hand holding tiles, each move confirms (one more) "
                f"or establishes, and confirmations stay <= {enc.C}: the block is "
                f"established within {within} move(s) (<= P + 1 = {enc.P + 1})", t0, led)
        k = enc.P + 1
        found_run = self.bmc(lambda ss, ms: self._no_block_ahead(ss, ms, k, premise),
                             ledger=led, tail=k)
        if found_run.run is not None:
            return self._violated("blocked-complete", found_run, t0, led,
                                  f"state where R2 and R3 hold but no block within {k} moves")
        return self._result("blocked-complete", Verdict.NOT_INDUCTIVE, "induction + progress",
                            f"progress fails on {', '.join(failed) or 'the bound'}; no real "
                            f"violation within {found_run.depth} moves", t0, led)

    def _no_block_ahead(self, ss: list[StateVars], ms: list[MoveVars], k: int,
                        premise: Callable[[StateVars], Bool]) -> Bool:
        """Goal of the refutation: the state ``k`` moves back satisfied the premise and no
        state since is blocked (``ss`` includes the ``k``-move tail)."""
        base = ss[-k - 1]
        return z3.And(premise(base), *[x.status != BLOCKED for x in ss[-k:]])

    # -- terminal properties (R5) ---------------------------------------------------------
    def prove_terminal(self, prop: Property) -> Result:
        """A terminal property of R5. ``pips``: the scoring's residuals are the sums the
        catalogue states, at every finished state of the invariant. The others are about
        how totals become winners and awards: proved for *every* vector of residuals (free
        variables, not the hands' sums: a stronger statement, and small formulas), at every
        finished state of the invariant where every hand holds tiles (R1.2: a block is not a
        domino)."""
        t0 = time.perf_counter()
        led = Ledger()
        h = self.invariant()
        enc = self.enc
        scoring = self.scoring()
        s = enc.state("s0")
        hyps = [*[lem(enc, s) for lem in h.kept], s.status != PLAYING]
        method = "declarative R5 scoring"
        if prop.id == "pips":
            cases = scoring.cases("pips", s)
            what = "at every finished state of the invariant"
        else:
            res = [z3.BitVec(f"residual{p}", SCORE_BITS) for p in range(enc.P)]
            total = sum(self.variant.tile_value)
            wide = [z3.ZeroExt(8, r) for r in res]
            hyps += [z3.ULE(z3.Sum(wide), total),
                     *[z3.Implies(s.status == BLOCKED, z3.Not(enc.hand_empty(s, p)))
                       for p in range(enc.P)]]
            cases = scoring.cases(prop.id, s, res)
            what = "for every vector of residuals, at every finished state of the invariant"
        c = Check("unsat", 0.0)
        for premises, conclusion in cases:
            sv = self.solver(ledger=led)
            sv.add(*hyps, *premises, z3.Not(conclusion))
            c = sv.check()
            if not c.unsat:
                break
        if c.unsat and not h.unknown:
            return self._result(prop.id, Verdict.PROVED, method,
                                f"{scoring.describe(prop.id)}, {what}; Inv "
                                f"{self._lemmas_text(h)}; the engine's outcome is compared "
                                "with this scoring on terminal states "
                                "(tests/test_crosscheck_z3.py)", t0, led)
        if c.unknown or h.unknown:
            why = f"the query was UNKNOWN ({c.reason})" if c.unknown else h.incomplete
            return self._result(prop.id, Verdict.UNKNOWN, method, why, t0, led)
        found = self.bmc(lambda ss, ms: z3.And(ss[-1].status != PLAYING,
                                               z3.Not(scoring.property(prop.id, ss[-1]))),
                         ledger=led)
        if found.run is not None:
            return self._violated(prop.id, found, t0, led, "terminal state")
        done = self._exhausted(prop.id, self.exhaust(lambda ss, ms: z3.And(
            ss[-1].status != PLAYING, z3.Not(scoring.property(prop.id, ss[-1]))), ledger=led),
            t0, led, "terminal state")
        if done is not None:
            return done
        return self._result(prop.id, Verdict.NOT_INDUCTIVE, method,
                            f"a finished state of the invariant breaks it; none reached in "
                            f"{found.depth} moves", t0, led)

    def scoring(self) -> Scoring:
        return self.scoring_class(self.enc)

    # -- bounded model checking -------------------------------------------------------
    def bmc(self, goal: Callable[[list[StateVars], list[MoveVars]], Bool], *,
            max_depth: int | None = None, min_depth: int = 0, ledger: Ledger | None = None,
            tail: int = 0, stutter: bool = False, seconds: float | None = None,
            deal: Deal | None = None, strengthen: bool = True,
            past_unknown: bool = False) -> BMCResult:
        """The shortest round (from any deal, or ``deal``) whose states and moves satisfy
        ``goal`` at its last state, searching depth after depth up to ``max_depth``.
        ``past_unknown``: a depth whose query is UNKNOWN does not end the search; a round
        found deeper is returned with ``complete`` False (it exists; that it is the
        shortest is not shown) and ``stop`` naming the depths left UNKNOWN.
        ``tail``: the goal looks ``tail`` moves past the depth counted (those moves are
        part of the run). ``stutter``: finished rounds may idle (for optimisation).
        ``strengthen``: every state also satisfies the proved invariant (it holds in every
        reachable state, so no real round is lost, and it prunes the search)."""
        led = ledger if ledger is not None else self.ledger
        max_depth = self.bmc_depth if max_depth is None else max_depth
        deadline = time.perf_counter() + (self.bmc_seconds if seconds is None else seconds)
        t0 = time.perf_counter()
        path = self.unroll("b", tail, ledger=led, deal=deal, stutter=stutter,
                           strengthen=strengthen)
        sv, states, moves = path.sv, path.states, path.moves
        last = -1
        unknown: list[int] = []  # depths whose query was UNKNOWN
        reason = ""
        budget = ""

        def why() -> str:
            if not unknown:
                return budget
            runs: list[list[int]] = []
            for d in unknown:
                if runs and runs[-1][-1] == d - 1:
                    runs[-1].append(d)
                else:
                    runs.append([d])
            ds = ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}..{r[-1]}" for r in runs)
            what = (f"the query at depth {ds} was" if len(unknown) == 1
                    else f"the queries at depths {ds} were")
            return f"{what} UNKNOWN ({reason})" + (f"; then {budget}" if budget else "")

        for d in range(0, max_depth + 1):
            if d > 0:
                path.extend()
            if d < min_depth:
                continue
            if time.perf_counter() > deadline:
                budget = (f"the search's budget of {deadline - t0:g} s ran out before depth "
                          f"{d}")
                break
            with sv.frame():
                sv.add(goal(states, moves))
                c = sv.check()
            if c.sat:
                run = self.decode_run(c.model, states, moves)
                return BMCResult(run, d, not unknown, time.perf_counter() - t0, led, c.model,
                                 states, why())
            if c.unknown:
                unknown.append(d)
                reason = reason or c.reason
                if not past_unknown:
                    break
                continue
            if not unknown:
                last = d
        return BMCResult(None, last, not unknown and not budget, time.perf_counter() - t0,
                         led, stop=why())

    def lasso(self, *, ledger: Ledger | None = None) -> BMCResult:
        """A reachable state that comes back: a round that can go on for ever."""
        same = self.enc.same
        res = self.bmc(lambda ss, ms: z3.And(ss[-1].status == PLAYING, z3.Or(
            [same(x, ss[-1]) for x in ss[:-1]]) if len(ss) > 1 else z3.BoolVal(False)),
            min_depth=1, ledger=ledger)
        if res.run is not None and res.model is not None:
            end = res.run.states[-1].key()
            res.run.loop_from = next(i for i, x in enumerate(res.run.states[:-1])
                                     if x.key() == end)
        return res

    def decode_run(self, model: Any, states: list[StateVars], moves: list[MoveVars]) -> Run:
        """Decode a BMC model into states and moves, make the deal it starts from (the
        boneyard stacked in the order the run draws it), and replay it in the engine."""
        enc = self.enc
        # a stuttering tail (a finished round idling to the horizon) is padding, not moves
        real = [m for m in moves if model.eval(m.kind, True).as_long() != STUTTER]
        ds = [enc.decode_state(model, x) for x in states[:len(real) + 1]]
        ms = [enc.decode_move(model, x, m) for x, m in zip(states, real, strict=False)]
        s0 = ds[0]
        order = [mv.tile for mv in ms if mv.kind is MoveKind.DRAW and s0.boneyard >> mv.tile & 1]
        rest = [t for t in bits(s0.boneyard) if t not in order]
        deal = Deal(s0.hands, tuple(order + rest), s0.set_aside)
        own = is_own(self.rules)  # else a fault's rule book: the trace carries it
        trace = Trace(self.variant, deal, tuple(ms), rules=None if own else self.rules)
        replayed, why = True, ""
        try:
            s = initial_state(self.variant, deal, rules=self.rules)
            if s.turn != s0.turn:
                raise DominoproofError(f"the engine's leader is P{s.turn}, Z3's P{s0.turn}")
            got = [s]
            for mv in ms:
                s = self.rules.apply(s, mv)
                got.append(s)
            for i, (a, b) in enumerate(zip(got, ds, strict=True)):
                if a.key()[:-1] != b.key()[:-1]:
                    raise DominoproofError(f"state {i} differs: engine {a!r} vs Z3 {b!r}")
        except DominoproofError as e:
            replayed, why = False, str(e)
        return Run(ds, ms, trace, replayed, why)

    # -- witnesses ------------------------------------------------------------------
    def block_lower_bound(self) -> tuple[int, str]:
        """Rounds shorter than this cannot block, by counting moves from proved facts.

        Each move does one thing. A block needs: every tile on the table placed by its
        own play; every boneyard tile drawn (the boneyard is empty at a block where
        blocked-sound is PROVED, and only a draw takes a tile out of it); ``C``
        confirmations and the establishment. The fewest tiles on the table at a block is
        asked of Z3 (:meth:`fewest_on_table_at_block`): no state of the proved invariant
        is blocked with fewer. Returns 0 when blocked-sound is not proved (a broken rule
        set)."""
        if self.prove("blocked-sound").verdict is not Verdict.PROVED:
            return 0, "blocked-sound not proved: no lower bound"
        enc = self.enc
        plays, why = self.fewest_on_table_at_block()
        draws = enc.B if enc.EMPTY else 0
        bound = plays + draws + enc.C + 1
        return bound, (f"{plays} play{'' if plays == 1 else 's'} ({why}) + {draws} draws "
                       f"(the whole boneyard) + {enc.C} confirmations + the "
                       f"establishment = {bound}")

    def fewest_on_table_at_block(self) -> tuple[int, str]:
        """A lower bound on the tiles on the table in any reachable blocked state, and why.

        Every reachable state satisfies the proved invariant (Houdini's lemmas: among
        them, where it applies, parity -- every tile of the ends' suits on the table --
        and, in the type invariant, that a number shows on an odd number of ends exactly
        when an odd number of its non-double tiles are on the table). So if no state of
        the invariant is blocked with at most ``k`` tiles on the table (unsat), no round
        blocks with fewer than ``k + 1`` plays. The bound is raised one tile at a time
        from 1 (the lead) until Z3 finds such a state (the bound is then the best the
        invariant gives) or a query is UNKNOWN (the bound proved so far stands): by
        bisection between the proved bound and the count in a blocked state Z3 exhibits.
        For a one-line double-6 game with every tile in play: 10 tiles, not the 7 of the
        suit alone (three of its joints need a connecting tile each)."""
        enc = self.enc
        inv = self.strengthening()
        if not inv:
            return 1, "the lead; Houdini gave no invariant to count from"
        s = enc.state("lb")
        sv = self.solver()
        sv.add(*[lem(enc, s) for lem in inv], s.status == BLOCKED)
        table = [enc.on_table(s, t) for t in range(enc.T)]

        def count(model: Any) -> int:
            return sum(1 for b in table if z3.is_true(model.eval(b, True)))

        c = sv.check()
        if not c.sat:
            return 1, "the lead"
        lo, hi = 0, count(c.model)  # no block with fewer than lo; one with hi exists
        stopped = ""
        while lo < hi:
            mid = (lo + hi) // 2
            with sv.frame():
                sv.add(z3.PbLe([(b, 1) for b in table], mid))
                c = sv.check()
            if c.unsat:
                lo = mid + 1
            elif c.sat:
                hi = count(c.model)
            else:
                stopped = f"; whether {mid} tiles can be is UNKNOWN ({c.reason})"
                break
        k = lo
        if k <= 1:
            return 1, "the lead"
        return k, (f"Z3: no state of the proved invariant is blocked with fewer than {k} "
                   "tiles on the table" + (stopped or f", and one is with {k}"))

    def shortest_block(self, max_depth: int | None = None, *,
                       start: int = 0) -> BMCResult:
        """The shortest blocked round: the first depth, from ``start`` (a proved lower
        bound), at which BLOCKED is reachable."""
        if max_depth is None:
            max_depth = start + self.bmc_depth
        return self.bmc(lambda ss, ms: ss[-1].status == BLOCKED, max_depth=max_depth,
                        min_depth=start, past_unknown=True)

    def max_residual(self, depth: int, *, seconds: float | None = None) -> tuple[BMCResult,
                                                                                 int | None]:
        """The largest residual count of one player at a block, among rounds of at most
        ``depth`` moves (finished rounds idle to the horizon).

        Optimised with Z3 by bisection on the objective: each step asks for a blocked
        round where some player holds at least ``k`` (the SAT pipeline, fixed seed and
        timeout); the last unsat step proves the bound. (``z3.Optimize`` runs on Z3's SMT
        core, far slower on these formulas.) The result is optimal when ``complete``."""
        enc = self.enc
        led = self.ledger
        t0 = time.perf_counter()
        deadline = t0 + (seconds if seconds is not None else self.bmc_seconds)
        path = self.unroll("o", depth, ledger=led)
        sv, states, moves = path.sv, path.states, path.moves
        last = states[-1]
        who = z3.BitVec("who", SEAT_BITS)
        sv.add(last.status == BLOCKED, z3.ULT(who, enc.P))
        value = self.scoring().residual(last, who)
        weights = self.scoring().value

        def at_least(k: int) -> Bool:
            """Some player holds at least ``k`` (pseudo-Boolean: the SAT solver reasons on
            weighted sums natively, where adder circuits defeat it)."""
            return z3.Or([z3.And(who == p, z3.PbGe([(x == p, weights[t])
                                                     for t, x in enumerate(last.loc)], k))
                          for p in range(enc.P)])

        c = sv.check()
        if not c.sat:
            return BMCResult(None, depth, c.unsat, time.perf_counter() - t0, led,
                             stop="" if c.unsat else f"the first query was UNKNOWN "
                                                     f"({c.reason})"), None
        model = c.model
        lo = int(model.eval(value, True).as_long())
        hi = sum(self.variant.tile_value)
        optimal = True
        stop = ""
        while lo < hi:
            if time.perf_counter() > deadline:
                optimal, stop = False, f"the budget of {deadline - t0:g} s ran out at >= {lo}"
                break
            mid = lo + 1  # upwards: far above the optimum, unsat is as hard as it gets
            with sv.frame():
                sv.add(at_least(mid))
                c = sv.check()
            if c.sat:
                model = c.model
                lo = int(model.eval(value, True).as_long())
            elif c.unsat:
                hi = mid - 1
            else:
                optimal, stop = False, f"the query 'some player holds >= {mid}' was UNKNOWN " \
                                       f"({c.reason})"
                break
        run = self.decode_run(model, states, moves)
        return BMCResult(run, len(run.moves), optimal, time.perf_counter() - t0, led,
                         model, states, stop), lo


# ---------------------------------------------------------------------------
# Witnesses: questions a rules designer asks, answered with a round
# ---------------------------------------------------------------------------

QUESTIONS: dict[str, str] = {
    "shortest-block": "the shortest possible blocked round",
    "max-residual": "the largest residual count of one player at a block",
    "tie": "a block where two or more sides tie for the lowest total",
    "block-before-empty-boneyard": "a block established while the boneyard still holds tiles",
    "parity-refuted": "a block that breaks the parity theorem (tiles set aside)",
}


@dataclass
class Witness:
    """The answer to a question: a round that replays in the engine, or the depth searched."""

    question: str
    configuration: str
    run: Run | None
    depth: int  #: moves of the round found, or the last depth searched without one
    complete: bool  #: every depth up to ``depth`` was answered
    seconds: float
    figures: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    stats: dict[str, float] = field(default_factory=dict)
    stop: str = ""  #: why the search stopped early, when it did

    @property
    def found(self) -> bool:
        return self.run is not None

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "configuration": self.configuration,
                "found": self.found, "depth": self.depth, "complete": self.complete,
                "seconds": round(self.seconds, 3), "figures": self.figures,
                "note": self.note, "stop": self.stop, "stats": self.stats,
                "round": self.run.to_json() if self.run else None}


def searched(what: str, res: BMCResult, start: int = 0) -> str:
    """What a bounded search that found nothing has shown, in words: nothing up to the
    depth answered, or (stopped before the first depth was answered) nothing at all."""
    if res.depth < start:
        return f"UNKNOWN, nothing shown: {res.stop or 'the search stopped'}"
    span = f"of at most {res.depth} moves" if start == 0 else f"of {start}..{res.depth} moves"
    return f"{what} {span}" + ("" if res.complete else
                               f"; beyond, UNKNOWN: {res.stop or 'the search stopped'}")


def witness(prover: Prover, question: str, *, depth: int | None = None,
            slack: int = 0) -> Witness:
    """Answer ``question`` (a key of :data:`QUESTIONS`) for the prover's variant by
    bounded model checking (``depth``: the largest round length searched; for
    ``max-residual``, the horizon of the optimisation, default the shortest block plus
    ``slack`` moves)."""
    if question not in QUESTIONS:
        raise DominoproofError(f"no question {question!r}; ask one of: {', '.join(QUESTIONS)}")
    t0 = time.perf_counter()
    enc = prover.enc
    before = prover.ledger.as_dict()
    figures: dict[str, Any] = {}
    note = ""

    def done(res: BMCResult) -> Witness:
        stats = {k: v - before.get(k, 0.0) for k, v in prover.ledger.as_dict().items()}
        return Witness(question, prover.configuration(), res.run, res.depth, res.complete,
                       time.perf_counter() - t0, figures, note, stats, res.stop)

    if question in ("shortest-block", "max-residual"):
        start, why = prover.block_lower_bound()
        figures["lower_bound"] = start
        note = f"no block is possible in fewer than {start} moves: {why}"
    if question == "shortest-block":
        res = prover.shortest_block(depth, start=start)
        if res.run:
            figures["moves"] = res.depth
            figures["proved_shortest"] = res.complete
            if not res.complete:
                note += (f"; a round of {res.depth} moves exists, but it is not shown to be "
                         f"the shortest: {res.stop}")
            else:
                note += ("; a round of that length exists" if res.depth == start else
                         f"; none of {start}..{res.depth - 1} moves either (searched)")
        else:
            note += "; " + searched("no blocked round", res, start)
        return done(res)
    if question == "max-residual":
        first = prover.shortest_block(depth, start=start)
        if first.run is None:
            note += "; " + searched("no blocked round", first, start)
            return done(first)
        horizon = depth if depth is not None else first.depth + slack
        figures["shortest"] = first.depth
        res, best = prover.max_residual(horizon)
        if res.run is not None and best is not None:
            final = res.run.states[-1]
            scored = prover.scoring().evaluate(final)
            assert scored is not None  # a blocked round is over
            who = max(range(enc.P), key=lambda p: (scored.residuals[p], -p))
            figures.update(residual=best, player=who, horizon=horizon, moves=len(res.run.moves),
                           optimal=res.complete)
            note = (f"largest residual among blocked rounds of at most {horizon} moves"
                    + ("" if res.complete else f" (the search stopped early -- "
                                               f"{res.stop or 'stopped'} -- so it is a "
                                               "lower bound)"))
        return done(res)
    if question == "tie":
        sc = prover.scoring()
        res = prover.bmc(lambda ss, ms: z3.And(ss[-1].status == BLOCKED,
                                               sc.terms(ss[-1]).tie), max_depth=depth)
        if res.run:
            figures["moves"] = res.depth
        else:
            note = searched("no tied block", res)
        return done(res)
    if question == "block-before-empty-boneyard":
        res = prover.bmc(lambda ss, ms: z3.And(ss[-1].status == BLOCKED,
                                               z3.Not(enc.boneyard_empty(ss[-1]))),
                         max_depth=depth)
        if res.run:
            figures.update(moves=res.depth,
                           boneyard=res.run.states[-1].boneyard.bit_count())
        else:
            note = (searched("none", res) + "; blocked-sound proves it impossible at any "
                    "length where it is PROVED")
        return done(res)
    # parity-refuted
    res = prover.bmc(lambda ss, ms: z3.And(ss[-1].status == BLOCKED,
                                           z3.Not(parity_conclusion(enc, ss[-1]))),
                     max_depth=depth)
    if res.run:
        final = res.run.states[-1]
        figures.update(moves=res.depth, ends=list(final.ends),
                       set_aside=final.set_aside.bit_count())
    else:
        note = (searched("no refutation", res)
                + ("; with every tile in play the theorem is proved (prove --property parity)"
                   if prover.variant.all_in_play else ""))
    return done(res)


def parity_variant(n: int) -> Variant:
    """The instance of the parity theorem for double-``n``: draw-2p-d6 (2 players, every
    tile in play, draw until playable) on double-``n``, its hand size capped at half the
    set's ``T`` tiles, every other tile in the boneyard."""
    base = find_variant("draw-2p-d6")
    hand = min(base.deal.hand_size, tile_count(n) // 2)
    return base.with_overrides({"set.max": n, "deal.hand_size": hand},
                               source=f"parity instance double-{n}")


def prove_parity(ns: Sequence[int] = range(1, 19), *, seed: int = 0,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS,
                 rlimit: int = DEFAULT_RLIMIT) -> list[Result]:
    """The parity theorem (one line, every tile in play), proved by induction for each
    set size in ``ns`` (:func:`parity_variant`)."""
    out = []
    for n in ns:
        r = Prover(parity_variant(n), seed=seed, timeout_ms=timeout_ms,
                   rlimit=rlimit).prove("parity")
        r.configuration = f"double-{n}: " + r.configuration
        out.append(r)
    return out


_FORKED: Prover | None = None  #: the prover a forked worker of prove_all inherits


def _prove_forked(job: str) -> Any:  # pragma: no cover - runs in a forked worker
    """One job of :meth:`Prover.prove_all` in a worker: a property's Result (its trace
    made plain data where it holds solver objects), or the sanity checks."""
    import pickle

    prover = _FORKED
    assert prover is not None
    prover.ledger = Ledger()  # this job's queries only, merged by the parent
    if job == "<sanity>":
        return prover.sanity(), prover.ledger
    res = prover.prove(job)
    try:
        pickle.dumps(res.trace)
    except Exception:
        res.trace = res.trace.to_json() if hasattr(res.trace, "to_json") else str(res.trace)
    return res, prover.ledger


def prove_catalogue(variant: Variant | str, ids: Sequence[str] | None = None, *,
                    seed: int = 0, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                    rlimit: int = DEFAULT_RLIMIT) -> list[Result]:
    """Every property of the catalogue (or ``ids``) for one variant, by induction."""
    v = find_variant(variant) if isinstance(variant, str) else variant
    return Prover(v, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit).prove_all(ids)


__all__ = [
    "CTI",
    "QUESTIONS",
    "STATE_PROPERTIES",
    "TRANSITION",
    "TYPE_OK",
    "BMCResult",
    "Prover",
    "Ranking",
    "Run",
    "SanityCheck",
    "Witness",
    "blocked_sound",
    "parity_conclusion",
    "parity_variant",
    "prove_catalogue",
    "prove_parity",
    "ranking_for",
    "witness",
]
