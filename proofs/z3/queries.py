"""Queries on the Z3 encoding, composed: induction per instance, bounded model checking,
witnesses, termination, and the sanity checks that keep proofs honest.

Layering (mypyvy's, STYLE 8): ``encoding`` (vocabulary, Init, actions) -> ``solver``
(seed, budgets, push/pop, statistics) -> the queries -> the CLI (``dominoproof prove``,
``dominoproof witness``). The queries are one :class:`Prover` per variant, made of
collaborating layers, each a module: ``session.py`` (the encoding, the budgets, the
solvers, the Houdini invariant, the sanity checks), ``bmc.py`` (bounded model checking;
runs decoded and replayed), ``induction.py`` (state, transition, progress and terminal
properties; counterexamples to induction), ``ranking.py`` (termination),
``witnesses.py`` (the questions a rules designer asks); ``parity.py`` proves the parity
theorem for every set size. Every query has a fixed seed, Z3's deterministic resource
limit and a wall-clock safety net; ``unknown`` is UNKNOWN, never PROVED, and says which
budget ran out.

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

The names the CLI, the API and the tests use are importable from here.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar, cast

from dominoproof.model.rulebook import RuleBook
from dominoproof.model.variant import Variant
from dominoproof.proofs.properties import BY_ID, CATALOGUE, Property, Result, Verdict
from dominoproof.proofs.runner import fork_each
from dominoproof.proofs.z3.bmc import BMCResult, Run
from dominoproof.proofs.z3.encoding import Encoding
from dominoproof.proofs.z3.houdini import HoudiniResult
from dominoproof.proofs.z3.induction import (
    CTI,
    METHOD_INDUCTION,
    STATE_PROPERTIES,
    TRANSITION,
    TYPE_OK,
)
from dominoproof.proofs.z3.layout_properties import AT_BLOCK
from dominoproof.proofs.z3.lemmas import Lemma
from dominoproof.proofs.z3.ranking import Ranking, TerminationProof, ranking_for
from dominoproof.proofs.z3.session import ProofSession, SanityCheck
from dominoproof.proofs.z3.solver import Ledger
from dominoproof.proofs.z3.witnesses import QUESTIONS, Witness, WitnessSearch, witness

T = TypeVar("T")


class _Part(Generic[T]):
    """A name of the prover that belongs to one of its parts: read and set there."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, prover: Any, owner: type | None = None) -> T:
        if prover is None:  # read on the class (documentation tools)
            return cast(T, self)
        return cast(T, getattr(getattr(prover, self.part), self.name))

    def __set__(self, prover: Any, value: T) -> None:
        setattr(getattr(prover, self.part), self.name, value)


class Prover:
    """Z3 queries on one variant (or on a fault's twin encoding): every property of the
    catalogue by the method that fits its kind, and the witnesses.

    ``encoding``: default the variant's own; ``rules``: the engine rule book that
    must replay the runs found (default the variant's; a fault's mutant with its twin).
    A prover *has* a :class:`~dominoproof.proofs.z3.session.ProofSession` (settings,
    solvers, invariant, sanity) and the parts that work on it: a
    :class:`~dominoproof.proofs.z3.witnesses.WitnessSearch` (bounded model checking
    and the witnesses) and a :class:`~dominoproof.proofs.z3.ranking.TerminationProof`
    (the inductive proofs and termination); the names below are theirs.
    """

    def __init__(self, variant: Variant, **settings: Any) -> None:
        self.session = ProofSession(variant, **settings)
        self.search = WitnessSearch(self.session)
        self.proofs = TerminationProof(self.session, self.search)
        self.session.method = self._prove

    # the session's
    variant: _Part[Variant] = _Part("session")
    enc: _Part[Encoding] = _Part("session")
    rules: _Part[RuleBook] = _Part("session")
    seed: _Part[int] = _Part("session")
    timeout_ms: _Part[int] = _Part("session")
    rlimit: _Part[int] = _Part("session")
    label: _Part[str] = _Part("session")
    candidates: _Part[list[Lemma]] = _Part("session")
    ledger: _Part[Ledger] = _Part("session")
    last_sanity: _Part[list[SanityCheck]] = _Part("session")
    _inv: _Part[HoudiniResult | None] = _Part("session")
    invariant_seconds: _Part[float] = _Part("session")
    prove: _Part[Callable[[str], Result]] = _Part("session")
    configuration: _Part[Callable[[], str]] = _Part("session")
    invariant: _Part[Callable[[], HoudiniResult]] = _Part("session")
    adopt_invariant: _Part[Callable[[Sequence[str]], None]] = _Part("session")
    # the bounded search's and the witnesses'
    stock_floor: _Part[Callable[..., int]] = _Part("search")
    goal_floor: _Part[Callable[..., int]] = _Part("search")
    bmc: _Part[Callable[..., BMCResult]] = _Part("search")
    decode_run: _Part[Callable[..., Run]] = _Part("search")
    block_lower_bound: _Part[Callable[[], tuple[int, str]]] = _Part("search")
    block_lower_bounds: _Part[Callable[[], Iterator[tuple[int, str]]]] = _Part("search")
    fewest_on_table_at_block: _Part[Callable[[], tuple[int, str]]] = _Part("search")
    fewest_on_table_at_blocks: _Part[Callable[[], Iterator[tuple[int, str]]]] = _Part("search")
    shortest_block: _Part[Callable[..., BMCResult]] = _Part("search")
    max_residual: _Part[Callable[..., tuple[BMCResult, Any]]] = _Part("search")
    # the inductive proofs'
    cti: _Part[Callable[..., Any]] = _Part("proofs")
    explain: _Part[Callable[..., list[tuple[CTI, str | None]]]] = _Part("proofs")
    prove_state: _Part[Callable[[Property], Result]] = _Part("proofs")
    prove_transition: _Part[Callable[[Property], Result]] = _Part("proofs")
    prove_at_block: _Part[Callable[[Property], Result]] = _Part("proofs")
    prove_blocked_complete: _Part[Callable[[], Result]] = _Part("proofs")
    prove_terminal: _Part[Callable[[Property], Result]] = _Part("proofs")
    prove_termination: _Part[Callable[[], Result]] = _Part("proofs")

    def sanity(self) -> list[SanityCheck]:
        """The session's sanity checks (a method of its own: tests replace it)."""
        return self.session.sanity()

    def _prove(self, pid: str) -> Result:
        prop = BY_ID[pid]
        if not prop.applies_to(self.variant):
            return Result(pid, Verdict.NOT_APPLICABLE, METHOD_INDUCTION, self.configuration(),
                          prop.not_applicable())
        if pid in STATE_PROPERTIES:
            return self.prove_state(prop)
        if pid in TRANSITION:
            return self.prove_transition(prop)
        if pid in AT_BLOCK:
            return self.prove_at_block(prop)
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
        self.invariant()  # shared by every proof: found once, inherited by the workers
        jobs: list[str] = (["<sanity>"] if sanity else []) + pids
        global _FORKED
        _FORKED = self
        try:
            answers = fork_each(min(workers, len(jobs))).map(_prove_forked, jobs)
        finally:
            _FORKED = None
        done: dict[str, Any] = {}
        for job, (answer, ledger) in zip(jobs, answers, strict=True):
            done[job] = answer
            self.ledger.merge(ledger)  # the workers' queries count too
        if sanity:
            self.last_sanity = done.pop("<sanity>")
        return [done[pid] for pid in pids]


_FORKED: Prover | None = None  #: the prover a forked worker of prove_all inherits


def _prove_forked(job: str) -> Any:  # pragma: no cover - runs in a forked worker
    """One job of :meth:`Prover.prove_all` in a worker: a property's Result (its trace
    made plain data where it holds solver objects), or the sanity checks."""
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


__all__ = ["CTI", "QUESTIONS", "STATE_PROPERTIES", "TRANSITION", "TYPE_OK", "BMCResult", "Prover",
           "Ranking", "Run", "SanityCheck", "Witness", "ranking_for", "witness"]
