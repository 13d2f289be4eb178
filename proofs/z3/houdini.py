"""Houdini: the largest subset of the candidate lemmas that is inductive.

:func:`houdini` keeps the largest subset of :mod:`~dominoproof.proofs.z3.lemmas`'
candidates that holds initially and is preserved by every action (Flanagan & Leino's
Houdini), checking each action's step separately so that a dropped lemma names the
action that breaks it; :func:`prove_relative` and :func:`check_inductive` prove one
lemma, or a set, relative to others.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3  # type: ignore[import-untyped]

from dominoproof.model.moves import Move
from dominoproof.model.state import State
from dominoproof.proofs.budgets import (
    DEFAULT_RLIMIT,
    DEFAULT_TIMEOUT_MS,
    HOUDINI_JOINT_SHARE,
    HOUDINI_TOGETHER_MAX_N,
)
from dominoproof.proofs.z3.encoding import Bool, Encoding
from dominoproof.proofs.z3.lemmas import Lemma
from dominoproof.proofs.z3.solver import Check, Ledger, Solver
from dominoproof.proofs.z3.terms import And, Or


@dataclass
class Drop:
    """Why a candidate was dropped: it fails at Init, or one action's step breaks it."""

    lemma: str
    where: str  #: "Init" or the action's name
    pre: State | None = None
    move: Move | None = None
    post: State | None = None


@dataclass
class HoudiniResult:
    kept: list[Lemma]
    dropped: list[Drop]
    unknown: bool = False  #: a check returned unknown: the kept set is not proved inductive
    rounds: int = 0
    ledger: Ledger = field(default_factory=Ledger)
    reason: str = ""  #: why the first unknown check stopped (the budget it ran out of)
    note: str = ""  #: how the invariant carries over (proved modulo symmetry, say)

    @property
    def incomplete(self) -> str:
        """``"Houdini incomplete (why)"``, for a verdict's detail."""
        return f"Houdini incomplete ({self.reason or 'a query was unknown'})"

    @property
    def ids(self) -> list[str]:
        return [lem.id for lem in self.kept]

    def describe(self) -> list[str]:
        return [lem.show() for lem in self.kept]


def houdini(enc: Encoding, candidates: list[Lemma], *, seed: int = 0,
            timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT,
            ledger: Ledger | None = None, together: bool | None = None) -> HoudiniResult:
    """The largest subset of ``candidates`` that holds at Init and is preserved by every
    action.

    Init is checked lemma by lemma. Each action's step is checked in functional form
    (the post-state is a term over the pre-state and the move): a lemma whose variables
    the action leaves alone is the same term before and after, and needs no query; the
    others are checked together in one query per action, falling back to one query per
    lemma if that one times out. A dropped lemma names its action and keeps the
    counterexample. ``together`` (default: for sets up to double-9) also checks every
    action at once with ``T`` as one disjunction; whatever its value, the per-action
    checks prove the obligation for ``T``, which is their disjunction.
    """
    ledger = ledger if ledger is not None else Ledger()
    s, m, s2 = enc.v.state("h0"), enc.v.move("hm"), enc.v.state("h1")
    alive = list(candidates)
    dropped: list[Drop] = []
    unknown = False
    reason = ""
    pre = {lem.id: lem(enc, s) for lem in candidates}

    init = enc.init(s)
    for lem in candidates:
        sv = Solver(seed=seed, timeout_ms=timeout_ms, rlimit=rlimit, ledger=ledger)
        sv.add(init, z3.Not(pre[lem.id]))
        c = sv.check()
        if c.unknown:
            unknown = True
            reason = reason or c.reason
        elif c.sat:
            dropped.append(Drop(lem.id, "Init", enc.v.decode_state(c.model, s)))
            alive.remove(lem)

    steps = enc.steps(s, m)
    post = {a: {lem.id: lem(enc, st) for lem in candidates} for a, (_, st) in steps.items()}
    rounds = 0
    changed = True
    while changed and alive and not unknown:
        changed = False
        rounds += 1
        for a, (guard, st) in steps.items():
            while alive:
                goals = {lem.id: post[a][lem.id] for lem in alive
                         if not post[a][lem.id].eq(pre[lem.id])}
                hyps = [pre[lem.id] for lem in alive]
                found = violations(hyps, guard, goals, seed=seed, timeout_ms=timeout_ms,
                                   rlimit=rlimit, ledger=ledger)
                bad, c = found
                if bad is None:
                    unknown, reason = True, c.reason
                    break
                if not bad:
                    break
                p0, p1 = enc.v.decode_state(c.model, s), enc.v.decode_state(c.model, st)
                mv = enc.v.decode_move(c.model, s, m)
                for lem in list(alive):
                    if lem.id in bad:
                        dropped.append(Drop(lem.id, a, p0, mv, p1))
                        alive.remove(lem)
                changed = True
            if unknown:
                break
    if together is None:
        together = enc.v.N <= HOUDINI_TOGETHER_MAX_N
    if alive and not unknown and together:
        sv = Solver(seed=seed, timeout_ms=timeout_ms, rlimit=rlimit, ledger=ledger)
        sv.add(*[pre[lem.id] for lem in alive], enc.trans(s, m, s2),
               Or([z3.Not(lem(enc, s2)) for lem in alive]))
        c = sv.check()
        if not c.unsat:
            unknown = True  # cannot be sat when each action passed: report it honestly
            reason = c.reason or "the check of T as one disjunction was sat"
    return HoudiniResult(alive, dropped, unknown, rounds, ledger, reason)


def violations(hyps: list[Bool], guard: Bool, goals: dict[str, Bool], *, seed: int,
               timeout_ms: int, rlimit: int = DEFAULT_RLIMIT,
               ledger: Ledger | None) -> tuple[set[str] | None, Check]:
    """Which of ``goals`` can fail after a step from a state satisfying ``hyps`` and
    ``guard``? One query for all of them (with a share of the resource limit), then one
    per goal, each with the whole limit, if that one runs out. Returns the
    failing ids with the check holding their model (empty: all preserved), or None with the
    unknown check (its reason names the budget) when a query stays unknown."""
    if not goals:
        return set(), Check("unsat", 0.0)
    first = max(1, rlimit // HOUDINI_JOINT_SHARE) if len(goals) > 1 else rlimit
    sv = Solver(seed=seed, timeout_ms=timeout_ms, rlimit=first, ledger=ledger)
    sv.add(*hyps, guard, Or([z3.Not(g) for g in goals.values()]))
    c = sv.check()
    if c.unsat:
        return set(), c
    if c.sat:
        return {k for k, g in goals.items() if z3.is_false(c.model.eval(g, True))}, c
    last = c
    for k, g in goals.items():
        sv = Solver(seed=seed, timeout_ms=timeout_ms, rlimit=rlimit, ledger=ledger)
        sv.add(*hyps, guard, z3.Not(g))
        c = sv.check()
        if c.sat:
            return {k2 for k2, g2 in goals.items()
                    if z3.is_false(c.model.eval(g2, True))} | {k}, c
        if c.unknown:
            return None, c
        last = c
    return set(), last


def prove_relative(enc: Encoding, lemma: Lemma, kept: list[Lemma], *, seed: int = 0,
                   timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT,
                   ledger: Ledger | None = None) -> tuple[str, Check | None, str | None]:
    """Is ``lemma`` true at Init and preserved by every action from a state of the
    invariant ``kept`` (inductive and proved) where it holds? Then ``kept`` and ``lemma``
    together are an inductive invariant. ``("ok", None, None)``, or the first failing
    obligation: ``("init"|"step", check, action)`` (the check holds the model), or
    ``("unknown", check, action)``."""
    s, m = enc.v.state("r0"), enc.v.move("rm")
    sv = Solver(seed=seed, timeout_ms=timeout_ms, rlimit=rlimit, ledger=ledger)
    sv.add(enc.init(s), z3.Not(lemma(enc, s)))
    c = sv.check()
    if not c.unsat:
        return ("init" if c.sat else "unknown"), c, None
    hyps = [lem(enc, s) for lem in kept] + [lemma(enc, s)]
    for a, (guard, post) in enc.steps(s, m).items():
        bad, c = violations(hyps, guard, {lemma.id: lemma(enc, post)}, seed=seed,
                            timeout_ms=timeout_ms, rlimit=rlimit, ledger=ledger)
        if bad is None:
            return "unknown", c, a
        if bad:
            return "step", c, a
    return "ok", None, None


def check_inductive(enc: Encoding, lemmas: list[Lemma], *, seed: int = 0,
                    timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT,
                    ledger: Ledger | None = None) -> tuple[str, Check, str | None]:
    """Is the conjunction of ``lemmas`` inductive? ``("init"|"step"|"ok", check, action)``:
    the first failing obligation (with its model) or ``"ok"``."""
    s, m, s2 = enc.v.state("i0"), enc.v.move("im"), enc.v.state("i1")
    sv = Solver(seed=seed, timeout_ms=timeout_ms, rlimit=rlimit, ledger=ledger)
    inv = And([lem(enc, s) for lem in lemmas])
    inv2 = And([lem(enc, s2) for lem in lemmas])
    with sv.frame():
        sv.add(enc.init(s), z3.Not(inv))
        c = sv.check()
    if not c.unsat:
        return "init", c, None
    for a, f in enc.actions(s, m, s2).items():
        with sv.frame():
            sv.add(inv, f, z3.Not(inv2))
            c = sv.check()
        if not c.unsat:
            return "step", c, a
    return "ok", c, None
