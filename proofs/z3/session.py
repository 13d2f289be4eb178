"""What every per-instance Z3 query on one variant shares: a proof session.

The encoding (the variant's own, or a fault's twin), the engine rule book that must
replay what Z3 finds, the seed and the budgets, the solvers made with them and the
ledger of their statistics, the inductive invariant Houdini finds (every proof and every
bounded search assumes it), and the results proved so far. Before any proof, the
sanity checks (:meth:`ProofSession.sanity`) show that Init and the invariant are
satisfiable and that the transition relation has successors: a proof from an
unsatisfiable premise would pass trivially.

The queries are layered on it (mypyvy's layering, STYLE 8): ``bmc.py`` (bounded model
checking, runs decoded and replayed), ``induction.py`` (state, transition, progress and
terminal properties; counterexamples to induction), ``ranking.py`` (termination),
``witnesses.py`` (the questions a rules designer asks); ``queries.py`` composes them
into :class:`~dominoproof.proofs.z3.queries.Prover`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.fast import engine_for
from dominoproof.model.layout import layout_of
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.variant import DrawWhen, Variant
from dominoproof.proofs.budgets import (
    BMC_DEPTH,
    BMC_SECONDS,
    DEFAULT_RLIMIT,
    DEFAULT_TIMEOUT_MS,
)
from dominoproof.proofs.properties import Result, Verdict
from dominoproof.proofs.z3.encoding import BLOCKED, PLAYING, Bool, Encoding, StateVars
from dominoproof.proofs.z3.houdini import HoudiniResult, houdini
from dominoproof.proofs.z3.lemmas import Lemma, candidates_for
from dominoproof.proofs.z3.scoring import Scoring
from dominoproof.proofs.z3.solver import Ledger, Solver
from dominoproof.proofs.z3.symmetry import asymmetric, network_sorts, quotient, reduces


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

    def describe(self) -> str:
        """The check, Z3's answer and the answer it must give (and why it was not
        answered, when it was not)."""
        return (f"{self.name}: {self.answer} (expected {self.expect})"
                + (f", {self.reason}" if self.reason else ""))


def premises(checks: Sequence[SanityCheck]) -> str:
    """The sanity checks as one outcome: ``"ok"`` (every one passed), ``"FAILED"`` (one
    answered wrongly: a premise is unsatisfiable, or a state of the invariant is stuck) or
    ``"UNKNOWN"`` (none answered wrongly, but one was not answered: a budget ran out)."""
    if all(c.ok for c in checks):
        return "ok"
    return "FAILED" if any(not c.ok and not c.unknown for c in checks) else "UNKNOWN"


class ProofSession:
    """Z3 queries on one variant (or on a fault's twin encoding): their common ground.

    ``encoding``: default the variant's own; ``rules``: the engine rule book that
    must replay the runs found (default the variant's; a fault's mutant with its twin).
    """

    def __init__(self, variant: Variant, *, encoding: Encoding | None = None,
                 rules: RuleBook | None = None, seed: int = 0,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT,
                 bmc_depth: int = BMC_DEPTH, bmc_seconds: float = BMC_SECONDS,
                 candidates: Sequence[Lemma] | None = None,
                 together: bool | None = None, label: str = "",
                 scoring: type[Scoring] | None = None) -> None:
        self.variant = variant
        self.enc = encoding or Encoding(variant)
        self.rules = rules or engine_for(variant)
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
        self.ledger = Ledger()
        self._inv: HoudiniResult | None = None
        self._inv_seconds = 0.0
        self._stock_floor: int | None = None
        self._proved: dict[str, Result] = {}
        self.last_sanity: list[SanityCheck] = []
        #: the proof of one property by the method that fits it (the prover's, which
        #: owns this session: the parts ask for termination or blocked-sound again)
        self.method: Callable[[str], Result] | None = None
        #: the relation modulo the symmetry of large groups of interchangeable slots, where
        #: the layout has one (``proofs/z3/symmetry.py``)
        self.quotient: Encoding | None = quotient(self.enc) if reduces(self.enc) else None

    # -- plumbing ---------------------------------------------------------------
    @property
    def budgets(self) -> dict[str, int]:
        """The seed and the budgets every query of the session runs with, as keywords."""
        return {"seed": self.seed, "timeout_ms": self.timeout_ms, "rlimit": self.rlimit}

    def solver(self, engine: str = "sat", ledger: Ledger | None = None) -> Solver:
        return Solver(ledger=ledger if ledger is not None else self.ledger, engine=engine,
                      **self.budgets)

    def configuration(self) -> str:
        """The configuration a per-instance result is about, in words."""
        v = self.variant
        return (f"{v.name}: double-{v.n} ({v.tiles.count} tiles), {v.players} players x "
                f"{v.deal.hand_size}, boneyard {v.boneyard_size}, set aside "
                f"{v.deal.set_aside}, draw {v.draw.rule.value}"
                f"{', any time' if v.draw.when is DrawWhen.ANY_TIME else ''}; every deal, "
                "every draw order")

    def scoring(self) -> Scoring:
        return self.scoring_class(self.enc)

    def result(self, pid: str, verdict: Verdict, method: str, detail: str, t0: float,
                ledger: Ledger, trace: Any = None) -> Result:
        """A result with the time and the solver statistics of its own queries (they are
        also added to the session's total)."""
        if ledger is not self.ledger:
            self.ledger.merge(ledger)
        return Result(pid, verdict, method, self.configuration(), detail,
                      seconds=time.perf_counter() - t0, trace=trace, stats=ledger.as_dict())

    # -- the results, each proved once ------------------------------------------------
    def prove(self, pid: str) -> Result:
        """One property of the catalogue, by the method that fits its kind (proved once
        per session: the witness bounds and refutations ask for termination and
        blocked-sound again)."""
        if pid not in self._proved:
            if self.method is None:
                raise RuntimeError("a session proves through the prover it belongs to")
            self._proved[pid] = self.method(pid)
        return self._proved[pid]

    # -- the invariant -------------------------------------------------------------
    def invariant(self) -> HoudiniResult:
        """The Houdini strengthening: the largest inductive subset of the candidates."""
        if self._inv is None:
            t0 = time.perf_counter()
            if self.quotient is not None:
                self._inv = self._invariant_modulo_symmetry(self.quotient)
            else:
                self._inv = houdini(self.enc, self.candidates, ledger=Ledger(),
                                    together=self.together, **self.budgets)
            self.ledger.merge(self._inv.ledger)
            self._inv_seconds = time.perf_counter() - t0
        return self._inv

    def _invariant_modulo_symmetry(self, q: Encoding) -> HoudiniResult:
        """Houdini on the relation modulo the symmetry of the large groups of
        interchangeable slots, and the two checks that carry its invariant over to the
        real relation (``proofs/z3/symmetry.py``): every kept lemma is symmetric, and the
        canonical form's network sorts. ``T`` as one disjunction is not checked unless
        asked for: the per-action checks prove it (it ran out of its resource limit on a
        double-9 chicken foot)."""
        h = houdini(q, self.candidates, ledger=Ledger(), together=bool(self.together),
                    **self.budgets)
        sizes = sorted({len(g) for g in q.v.unsorted})
        h.note = (f"proved modulo the order of {' and '.join(map(str, sizes))} "
                  "interchangeable slots: every lemma symmetric (checked by Z3) and the "
                  "canonical form sorted (its network checked on every 0-1 input)")
        if h.unknown:
            return h
        bad, why = asymmetric(q, h.kept, ledger=h.ledger, **self.budgets)
        if bad:
            h.unknown = True
            h.reason = ("the invariant was found modulo the order of interchangeable slots, "
                        f"but some lemmas are not symmetric in them ({why})")
        elif not all(network_sorts(n) for n in sizes):
            h.unknown = True
            h.reason = "the canonical form's sorting network does not sort every input"
        return h

    def adopt_invariant(self, ids: Sequence[str]) -> None:
        """Take the invariant Houdini proved earlier for this encoding and these
        candidates (another session's :meth:`invariant`, its kept lemmas by id) instead
        of searching again: the witness table proves it once per variant and hands it to
        each question. An id that is not a candidate here is refused."""
        by_id = {lem.id: lem for lem in self.candidates}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise ValueError(f"{self.label}: not candidates here: {', '.join(missing)}")
        self._inv = HoudiniResult([by_id[i] for i in ids], [])
        self._inv_seconds = 0.0

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

    def lemmas_text(self, h: HoudiniResult, pid: str | None = None) -> str:
        kept = [lem.id for lem in h.kept if pid is None or lem.property != pid]
        return (f"with {len(kept)} lemma(s): " + ", ".join(kept)
                + (f" ({h.note})" if h.note else ""))

    # -- sanity ---------------------------------------------------------------------
    def sanity(self) -> list[SanityCheck]:
        """Init and the invariant are satisfiable, the relation has successors from the
        invariant, and no state of the invariant is stuck while the round is played."""
        enc = self.enc
        s, m, s2 = enc.v.state("z0"), enc.v.move("zm"), enc.v.state("z1")
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


__all__ = ["ProofSession", "SanityCheck", "premises"]
