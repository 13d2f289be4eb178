"""Induction modulo the symmetry of interchangeable slots.

A chicken foot's arms and toes (22 slots on double-9) are one symmetric group: the engine
and the relation keep them sorted (the canonical form, ``proofs/z3/layout_terms.py``), so
that states that differ only in the order of these slots are one state. For the
induction that sorting is costly: every step's post-state is the output of a sorting
network of 231 compare-and-swaps, and Houdini's query for a play ran out of its resource
limit on double-9.

The invariant is therefore searched on the *quotient* relation ``T_u``: the same actions
with the large groups left in the order the actions leave them (``Encoding.quotient``,
no sorting, no canonical-order conjunct in the type invariant). The real relation is
``T = canon . T_u`` by construction (``Encoding.canonical`` applied to ``T_u``'s effect),
and its initial states are ``canon`` of ``T_u``'s. So an invariant ``Inv`` proved
inductive for ``T_u`` holds in every reachable state of ``T`` provided

1. ``Inv`` is **symmetric**: ``Inv(s)`` implies ``Inv(pi s)`` for every permutation
   ``pi`` of a group's slots (each slot's value, pending and covered bits moving
   together). Checked here by Z3, lemma by lemma, for two permutations that generate
   the group -- the exchange of two slots and the rotation of all
   (:func:`generators`, :func:`asymmetric`); and
2. the canonical form is sorted, which is what the real relation's type invariant adds
   (``in_canonical_order``): ``canon`` is insertion sort as a comparator network over a
   key that is the whole slot, and a comparator network sorts every input when it sorts
   every input of zeros and ones (the 0-1 principle, Knuth TAOCP 5.3.4): checked
   exhaustively here (:func:`network_sorts`, 2^22 inputs for a chicken foot, in
   bit-parallel numpy).

Proof: a reachable state of ``T`` is ``canon(x)`` for a state ``x`` reachable in one
step of ``T_u`` from a reachable state (or from Init); by induction ``Inv(x)``, so
``Inv(canon(x))`` by (1), and ``canon(x)`` is sorted by (2). Every other query of the
session (transition properties, blocks, bounded search, witnesses) uses the real
relation, with the invariant read on its states as hypothesis: the lemmas' formulas are
the quotient's but for "the lead has been played", which the real relation reads off the
group's first slot and the quotient off any of its slots -- the same in a sorted state --
and the canonical order, which (2) adds.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from functools import cache, partial

import numpy as np
import z3  # type: ignore[import-untyped]

from dominoproof.proofs.budgets import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS
from dominoproof.proofs.z3.encoding import Bool, Encoding, StateVars
from dominoproof.proofs.z3.layout_terms import insertion_network
from dominoproof.proofs.z3.lemmas import Lemma
from dominoproof.proofs.z3.solver import Check, Ledger, Solver

__all__ = ["asymmetric", "breaks_symmetry", "generators", "network_sorts", "permuted", "quotient",
           "reduces"]


def reduces(enc: Encoding) -> bool:
    """``enc``'s layout has a group of more than two interchangeable slots, whose sorting
    the induction leaves to the quotient relation."""
    return bool(enc.v.large)


def quotient(enc: Encoding) -> Encoding:
    """The same relation (the same class: a fault's twin stays one) modulo symmetry."""
    return dataclasses.replace(enc, quotient=True)


def permuted(enc: Encoding, s: StateVars, source: dict[int, int]) -> StateVars:
    """``s`` with its slots permuted: slot ``i`` of the result is slot ``source[i]`` of
    ``s`` (its value, and its pending and covered bits); slots not named stay."""
    ends = list(s.ends)
    bits = enc.layout.mark_bits(s)
    out = list(bits) if bits is not None else None
    f = enc.v.fields
    for i, src in source.items():
        ends[i] = s.ends[src]
        if bits is None or out is None:
            continue
        if (f.covered[i] >= 0) != (f.covered[src] >= 0):
            raise ValueError(f"slots {i} and {src} do not carry the same marks")
        if f.covered[i] >= 0:
            out[f.covered[i]] = bits[f.covered[src]]
        if f.pending >= 0:
            out[f.pending + i] = bits[f.pending + src]
    # the tag names the permutation: the formula caches key on a state's name
    tag = "perm" + ",".join(f"{i}<{j}" for i, j in sorted(source.items()))
    return enc.update(s, tag, ends=tuple(ends), marks=enc.layout.word(out))


def generators(group: tuple[int, ...]) -> list[dict[int, int]]:
    """Two permutations that generate every permutation of ``group``: the exchange of
    its first two slots and the rotation of all of them (as ``source`` maps)."""
    n = len(group)
    swap = {group[0]: group[1], group[1]: group[0]}
    return [swap] if n == 2 else [swap, {group[k]: group[(k + 1) % n] for k in range(n)}]


def breaks_symmetry(enc: Encoding, x: StateVars, formula: Callable[[StateVars], Bool],
                    premises: Sequence[Bool], new_solver: Callable[[], Solver]) -> Check | None:
    """The first check in which ``formula`` holds of ``x`` and fails after one of the
    :func:`generators` of ``enc``'s unsorted groups permutes ``x`` (with ``premises``):
    sat, or unknown. None: it survives every generator, so every reordering (a generator
    whose permuted formula is the same term needs no query)."""
    pre = formula(x)
    for g in sorted(enc.v.unsorted):
        for src in generators(g):
            post = formula(permuted(enc, x, src))
            if post.eq(pre):  # the formula does not read these slots
                continue
            sv = new_solver()
            sv.add(*premises, pre, z3.Not(post))
            c = sv.check()
            if not c.unsat:
                return c
    return None


def asymmetric(enc: Encoding, lemmas: Sequence[Lemma], *, seed: int = 0,
               timeout_ms: int = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT,
               ledger: Ledger | None = None) -> tuple[list[str], str]:
    """The ids of ``lemmas`` not shown symmetric in ``enc``'s unsorted groups, and why
    (empty: every one is): :func:`breaks_symmetry`, lemma by lemma."""
    s = enc.v.state("sym")

    def new_solver() -> Solver:
        return Solver(seed=seed, timeout_ms=timeout_ms, rlimit=rlimit, ledger=ledger)

    bad, why = [], []
    for lem in lemmas:
        c = breaks_symmetry(enc, s, partial(lem, enc), (), new_solver)
        if c is not None:
            bad.append(lem.id)
            why.append(f"{lem.id}: " + ("not symmetric" if c.sat else f"unknown ({c.reason})"))
    return bad, "; ".join(why)


@cache
def network_sorts(n: int, network: tuple[tuple[int, int], ...] | None = None) -> bool:
    """Insertion sort's comparator network (:func:`insertion_network`; or ``network``)
    sorts every input of ``n`` zeros and ones -- so every input (the 0-1 principle).
    Exhaustive and bit-parallel: place ``k`` is a bit-vector over all 2^n inputs (bit
    ``x`` is bit ``k`` of ``x``); a comparator is an AND (the smaller) and an OR (the
    larger)."""
    if n > 26:
        raise ValueError(f"{n} places: 2^{n} inputs is more than this check enumerates")
    inputs = np.arange(1 << n, dtype=np.uint32)
    places = [np.packbits(((inputs >> k) & 1).astype(np.uint8)) for k in range(n)]
    for a, b in insertion_network(n) if network is None else network:
        places[a], places[b] = places[a] & places[b], places[a] | places[b]
    # sorted: a one is never followed by a zero
    return all(not np.any(x & ~y) for x, y in itertools.pairwise(places))
