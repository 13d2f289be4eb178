"""The witness table: every witness question answered for a variant within a budget,
with bounds from both sides (``dominoproof witnesses``; docs/WITNESSES.md).

For each question, two readings of the rules run side by side within one wall-clock
budget: the search of :mod:`dominoproof.proofs.analysis.witness_search` plays real rounds (in this
process), and Z3 over the proved invariant (:mod:`dominoproof.proofs.z3.witness_bounds`)
bounds every round from the other side (in a forked process, stopped at the budget:
the last bound it reported stands, never one it had not reached). The answer:

* a **minimum** (``shortest-block``): the shortest round found (upper bound) and Z3's
  lower bound; **optimal** when they meet;
* a **maximum** (``max-residual``): the largest residual found (lower bound) and Z3's
  ceiling; optimal when they meet;
* **existence** (``tie``, ``block-before-empty-boneyard``): a round of the kind found
  (its existence is proved by the round), or Z3 shows no blocked state of the
  invariant has it (none, proved); else UNKNOWN.

Every round found is replayed in the variant's own engine (the specification); a
round that does not replay, or a search value beyond a bound Z3 proved, is a
**contradiction** between the two readings (exit code 1): it is how a broken engine
(a fault's mutant rule book, ``rules``) is caught.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.errors import DominoproofError, TraceError
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis.witness_search import (
    OBJECTIVES,
    Found,
    Rounds,
    play_rounds,
    search,
    warm,
)
from dominoproof.proofs.budgets import WITNESS_SEARCH_SHARE
from dominoproof.proofs.runner import fork_process, pipe
from dominoproof.proofs.z3.queries import Prover
from dominoproof.proofs.z3.witness_bounds import z3_bounds

__all__ = ["QUESTION_ORDER", "Answer", "Invariants", "answer", "exit_code"]

#: The questions of the table, in its column order (``parity-refuted`` is not one: it
#: asks about a theorem, not a round a designer looks for).
QUESTION_ORDER = ("shortest-block", "max-residual", "tie", "block-before-empty-boneyard")


#: The share of the budget the search takes, by the question's sense (why:
#: ``proofs/budgets.py``).
SEARCH_SHARE = WITNESS_SEARCH_SHARE


@dataclass
class Answer:
    """One cell of the table."""

    variant: str
    question: str
    sense: str  #: "min", "max" or "exists"
    status: str  #: optimal, bounds, exists, none, unknown, contradiction
    value: int | None  #: the best round's value (moves, or the residual)
    bound: int | None  #: Z3's bound from the other side (lower of a min, ceiling of a max)
    seconds: float
    budget: float
    why: str = ""
    z3: dict[str, Any] = field(default_factory=dict)
    found: Found | None = None
    trace: str | None = None  #: the round, as a replayable trace (JSON text)
    by: str = ""  #: who found the round: the search or Z3

    @property
    def proved(self) -> bool:
        return self.status in ("optimal", "exists", "none")

    @property
    def gap(self) -> int | None:
        if self.sense == "exists" or self.value is None or self.bound is None:
            return None
        return abs(self.value - self.bound)

    def cell(self) -> str:
        """The value as the table shows it."""
        if self.status == "contradiction":
            return "CONTRADICTION"
        if self.sense == "exists":
            return {"exists": f"yes ({self.value} moves)", "none": "none"}.get(
                self.status, "UNKNOWN")
        if self.value is None:
            side = ">=" if self.sense == "min" else "<="
            return f"UNKNOWN ({side} {self.bound})" if self.bound is not None else "UNKNOWN"
        if self.status == "optimal":
            return str(self.value)
        if self.bound is None:
            return f"{self.value} (no bound)"
        lo, hi = sorted((self.value, self.bound))
        return f"{lo}..{hi}"

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "question": self.question, "sense": self.sense,
                "status": self.status, "proved": self.proved, "value": self.value,
                "bound": self.bound, "gap": self.gap, "seconds": round(self.seconds, 3),
                "budget": self.budget, "why": self.why, "by": self.by,
                "search": self.found.to_json() if self.found else None,
                "z3": {k: v for k, v in self.z3.items() if k != "trace"},
                "round": json.loads(self.trace) if self.trace is not None else None}


#: Makes the Z3 side's prover from (Z3's seed, each query's wall-clock safety net in ms).
ProverFactory = Callable[[int, int], Prover]
#: The invariants proved so far, by (variant, Z3 seed): the ids of Houdini's lemmas.
Invariants = dict[tuple[Variant, int], tuple[str, ...]]


def _z3_child(variant: Variant, question: str, seed: int, timeout_ms: int,
              conn: Any, hint: Any, make: ProverFactory | None,
              known: tuple[str, ...] | None) -> None:  # pragma: no cover - a forked process
    """Send each bound :func:`z3_bounds` reaches, then ``None``; the search's best value
    is read from ``hint`` when Z3 asks for it. ``known``: the invariant proved by an
    earlier question of this variant (its lemmas' ids), taken instead of running
    Houdini again; without it, the invariant Houdini proves here is sent
    (``{"houdini": ids}``) for the next questions."""
    try:
        prover = (make(seed, timeout_ms) if make is not None
                  else Prover(variant, seed=seed, timeout_ms=timeout_ms))
        if known is not None:
            prover.adopt_invariant(known)
        else:
            h = prover.invariant()
            if not h.unknown:
                conn.send({"houdini": tuple(h.ids)})
        def floor() -> int | None:
            conn.send({"need": "floor"})
            got: int | None = hint.recv()
            return got

        for msg in z3_bounds(prover.search, question, floor):
            run = msg.pop("round", None)
            if run is not None:
                msg["trace"] = run.trace.dumps() if run.replayed else None
                msg["replayed"] = run.replayed
            conn.send(msg)
    except Exception as e:  # any failure is reported, not raised
        conn.send({"stop": f"Z3 failed: {type(e).__name__}: {e}"})
    conn.send(None)
    conn.close()


class _Z3:
    """The Z3 side in a forked process: the latest bound it reported."""

    def __init__(self, variant: Variant, question: str, seed: int, deadline: float,
                 make: ProverFactory | None = None,
                 known: tuple[str, ...] | None = None) -> None:
        self.here, there = pipe()
        hint, self.hint = pipe()
        ms = max(1, int((deadline - time.perf_counter()) * 1000))
        self.proc = fork_process(_z3_child, variant, question, seed, ms, there, hint, make,
                                 known)
        there.close()
        hint.close()
        self.state: dict[str, Any] = {}
        self.done = False
        self.needs = False  #: Z3 waits for the search's best value
        self.houdini: tuple[str, ...] | None = None  #: the invariant Houdini proved here

    def poll(self, wait: float = 0.0) -> None:
        """Take every message waiting (``wait`` seconds for the first)."""
        while not self.done and self.here.poll(wait):
            wait = 0.0
            try:
                msg = self.here.recv()
            except EOFError:
                msg = None
            if msg is None:
                self.done = True
                break
            if msg.get("need") == "floor":
                self.needs = True
                continue
            if "houdini" in msg:
                self.houdini = msg["houdini"]
                continue
            self.state.update(msg)

    def tell(self, value: int | None, *, final: bool = False) -> None:
        """The search's best value, for Z3 to start from, if Z3 waits for it (and the
        search has one, or has ended: ``final``)."""
        if self.needs and (value is not None or final):
            self.needs = False
            with contextlib.suppress(OSError):  # the child may have finished
                self.hint.send(value)

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.here.close()
        self.hint.close()


def answer(variant: Variant, question: str, seconds: float, *,
           rules: RuleBook | None = None, seed: int = 0, z3_seed: int = 0,
           rounds: Rounds = play_rounds, search_share: float | None = None,
           prover: ProverFactory | None = None,
           invariants: Invariants | None = None) -> Answer:
    """``question`` for ``variant`` within ``seconds`` of wall clock (search and Z3 side
    by side). ``rules``: the rule book the search plays by (default the variant's own;
    a fault's mutant shows the table catching it). ``rounds``: the search's play-out
    function (:func:`~dominoproof.proofs.analysis.witness_search.play_rounds`, or a kernel's).
    ``prover``: makes the Z3 side's prover (default: the variant's own encoding; a
    fault's twin encoding shows the table catching a broken Z3 reading).
    ``invariants``: the invariants proved by earlier questions, by variant and Z3 seed
    (the variant's own encoding only): the one found is taken instead of running
    Houdini again, and the one Houdini proves here is added. The budget counts the search
    and Z3, not the first load of the compiled kernel's machine code (:func:`warm`)."""
    if seconds <= 0:
        raise DominoproofError(f"--seconds {seconds:g}: the budget must be positive (a "
                               "budget of zero answers nothing; it is not 'no limit')")
    obj = OBJECTIVES[question]
    if rounds is play_rounds:  # the kernel's machine code loaded before the clock starts
        warm(variant, rules)
    t0 = time.perf_counter()
    deadline = t0 + seconds
    share = search_share if search_share is not None else SEARCH_SHARE[obj.sense]
    key = (variant, z3_seed)
    shared = invariants is not None and prover is None
    z = _Z3(variant, question, z3_seed, deadline, prover,
            invariants.get(key) if invariants is not None and shared else None)
    try:
        def enough(value: int | None) -> bool:
            z.poll()
            z.tell(value)
            if rules is not None and obj.sense == "exists":
                # another rule book (a fault's): Z3's "none" does not end the search, so
                # a round it plays is judged against that answer however soon Z3 gave it
                return value is not None
            return _settled(obj.sense, found_so_far(value), z.state)

        found = search(variant, question, seconds * share, rules=rules, seed=seed,
                       rounds=rounds, played=z.tell, enough=enough)
        z.poll()
        z.tell(found.value, final=True)
        while not z.done and time.perf_counter() < deadline and not _settled(
                obj.sense, found, z.state):
            z.poll(min(0.2, max(0.0, deadline - time.perf_counter())))
        z.poll()
    finally:
        z.stop()
    if shared and z.houdini is not None:
        assert invariants is not None
        invariants[key] = z.houdini
    return _judge(variant, question, obj.sense, found, z.state, z.done, rules,
                  time.perf_counter() - t0, seconds)


def found_so_far(value: int | None) -> Found:
    f = Found("")
    f.value = value
    return f


def _settled(sense: str, found: Found, z: dict[str, Any]) -> bool:
    """Nothing left to show: the bounds met, or (existence) a round was found or Z3
    showed there is none."""
    if sense == "exists":
        return found.value is not None or z.get("none") is True
    if found.value is None:
        return False
    if sense == "min":
        return z.get("lower") is not None and z["lower"] >= found.value
    return z.get("ceiling") is not None and z["ceiling"] <= found.value


def _judge(variant: Variant, question: str, sense: str, found: Found, z: dict[str, Any],
           finished: bool, rules: RuleBook | None, seconds: float, budget: float) -> Answer:
    a = Answer(variant.name, question, sense, "unknown", found.value, None, seconds, budget,
               z3=dict(z), found=found, by=found.by)
    trace = found.trace(variant)  # replayed in the specification, whoever played it
    if trace is not None:
        try:
            trace.states()
            a.trace = trace.dumps()
        except (TraceError, DominoproofError) as e:
            a.status, a.why = "contradiction", (
                f"the round the search found ({found.by}) does not replay in "
                f"{variant.name}'s own engine: {e}")
            return a
    if sense != "exists":
        a.bound = z.get("lower" if sense == "min" else "ceiling")
    if z.get("replayed") is False:
        a.status, a.why = "contradiction", (
            f"the round Z3 found ({z.get('value')} moves or points) does not replay in "
            f"{variant.name}'s own engine")
        return a
    stop = z.get("stop") or ("" if finished else "the budget ran out")
    z_why = z.get("why", "")
    if sense == "exists":
        if found.value is not None and z.get("none") is True:
            a.status, a.why = "contradiction", (
                f"the search found one in {found.value} moves ({found.by}), but {z_why}")
        elif found.value is not None:
            a.status, a.why = "exists", f"a round of {found.value} moves ({found.by})"
        elif z.get("value") is not None and z.get("trace"):
            a.value, a.trace, a.by = z["value"], z["trace"], "Z3 bounded model checking"
            a.status, a.why = "exists", f"{z_why} (none in {found.rounds:,} play-outs)"
        elif z.get("none") is True:
            a.status, a.why = "none", (f"{z_why}; the search found none in {found.rounds:,} "
                                       "play-outs either")
        else:
            a.why = (f"none in {found.rounds:,} play-outs; "
                     + (z_why or f"Z3: {stop or 'no answer'}"))
        return a
    if z.get("value") is not None and z.get("trace") and (
            found.value is None or OBJECTIVES[question].better(z["value"], found.value)):
        a.value, a.trace, a.by = z["value"], z["trace"], "Z3 bounded model checking"
    if a.bound is not None and a.value is not None and (
            a.value < a.bound if sense == "min" else a.value > a.bound):
        a.status, a.why = "contradiction", (
            f"the search found {a.value} ({found.by}), beyond Z3's proved bound {a.bound}: "
            f"{z_why}")
        return a
    if z.get("none") is True:
        a.why = z_why
        a.status = "contradiction" if a.value is not None else "none"
        return a
    if a.value is not None and a.bound == a.value:
        a.status = "optimal"
    elif a.value is not None:
        a.status = "bounds"
    a.why = "; ".join(x for x in (
        f"found by {a.by}" if a.value is not None else
        f"no blocked round in {found.rounds:,} play-outs", z_why,
        f"Z3 stopped: {stop}" if stop and a.status != "optimal" else "") if x)
    return a


def exit_code(answers: Sequence[Answer]) -> int:
    """1 a contradiction, 3 an answer not proved (bounds with a gap, UNKNOWN), else 0."""
    if any(a.status == "contradiction" for a in answers):
        return 1
    return 0 if all(a.proved for a in answers) else 3
