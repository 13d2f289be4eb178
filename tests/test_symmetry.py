"""Induction modulo the symmetry of interchangeable slots (proofs/z3/symmetry.py).

The invariant of a chicken foot is found on the quotient relation (the large group of
arms and toes left unsorted) and carried over to the real one by two checks: every kept
lemma is symmetric, and the canonical form's network sorts. Each check is shown to
catch its broken counterpart; on a small chicken foot the quotient's invariant and
verdicts are the real relation's own.
"""

from __future__ import annotations

import math

import pytest
import z3  # type: ignore[import-untyped]
from test_layouts_z3 import analogue

from dominoproof.proofs.z3 import session
from dominoproof.proofs.z3.encoding import CLOSED_CODE, Encoding
from dominoproof.proofs.z3.houdini import houdini
from dominoproof.proofs.z3.layout_terms import insertion_network
from dominoproof.proofs.z3.lemmas import Lemma, candidates_for
from dominoproof.proofs.z3.queries import Prover
from dominoproof.proofs.z3.symmetry import asymmetric, generators, network_sorts, quotient, reduces


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 22])
def test_the_insertion_network_sorts_every_input(n: int) -> None:
    assert network_sorts(n)


def test_a_network_missing_any_comparator_is_caught() -> None:
    """On the reversed input insertion sort swaps at every comparator, so each is needed:
    the 0-1 check must fail whichever one is left out."""
    full = insertion_network(7)
    for k in range(len(full)):
        assert not network_sorts(7, tuple(full[:k] + full[k + 1:])), k


def test_only_the_chicken_foot_is_reduced() -> None:
    assert reduces(Encoding(analogue("chicken-foot")))
    for name in ("trains", "spinner", "line-doubles"):
        assert not reduces(Encoding(analogue(name))), name


def _slot0_open() -> Lemma:
    """Inductive on the quotient relation (the lead opens slot 0 and nothing closes a
    slot), but not symmetric: exchanging slot 0 with a closed toe breaks it."""
    return Lemma("slot0-open", "after the lead slot 0 is open", ("Terms",),
                 lambda e, s: z3.Implies(s.led, s.ends[0] != CLOSED_CODE),
                 not_all_sizes="a test's lemma")


def test_the_kept_lemmas_are_symmetric_and_an_asymmetric_one_is_caught() -> None:
    q = quotient(Encoding(analogue("chicken-foot")))
    h = houdini(q, [*candidates_for(q), _slot0_open()])
    assert not h.unknown and "slot0-open" in h.ids
    bad, why = asymmetric(q, h.kept)
    assert bad == ["slot0-open"], why
    assert asymmetric(q, [lem for lem in h.kept if lem.id != "slot0-open"]) == ([], "")


def test_each_permutation_is_a_state_of_its_own_to_the_formula_caches() -> None:
    """A lemma about the group's last slot is untouched by the exchange of the first two
    and broken by the rotation. The encoding caches formulas (a lemma's, a tile carrying
    a slot's number) by the state's name: were the two permuted states one name, the
    rotation would be read from the exchange's cache and the lemma pass as symmetric."""
    q = quotient(Encoding(analogue("chicken-foot")))
    (group,) = q.v.unsorted
    last = group[-1]
    lemma = Lemma("last-not-blank", "the group's last slot never shows 0", ("Terms",),
                  lambda e, s: z3.Not(e.v.carries_at(s, 0, last)),
                  not_all_sizes="a test's lemma")
    assert asymmetric(q, [lemma])[0] == ["last-not-blank"]


def test_an_asymmetric_lemma_leaves_the_invariant_unproved() -> None:
    v = analogue("chicken-foot")
    pr = Prover(v, candidates=[*candidates_for(Encoding(v)), _slot0_open()])
    h = pr.invariant()
    assert h.unknown and "slot0-open: not symmetric" in h.reason


def test_the_quotient_gives_the_real_relations_invariant_and_verdicts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a double-3 chicken foot Houdini finishes on the real (sorted) relation too: the
    quotient keeps the same lemmas, and every property gets the same verdict."""
    v = analogue("chicken-foot")
    pids = ("conservation", "blocked-sound", "doubles-covered", "procedure",
            "readings-agree", "uncoverable-double", "no-false-confirmation")
    pr = Prover(v)
    h = pr.invariant()
    assert not h.unknown and "modulo the order of" in h.note
    mod = [pr.prove(pid).verdict for pid in pids]
    monkeypatch.setattr(session, "reduces", lambda enc: False)
    real = Prover(v)
    assert real.invariant().ids == h.ids and not real.invariant().note
    assert [real.prove(pid).verdict for pid in pids] == mod


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_two_generators_reach_every_permutation(n: int) -> None:
    """The exchange and the rotation of :func:`generators` generate the whole group, so a
    formula that survives both survives every reordering of the slots."""
    group = tuple(range(10, 10 + n))
    gens = [tuple(src.get(i, i) for i in group) for src in generators(group)]
    seen = {group}
    todo = [group]
    while todo:
        p = todo.pop()
        for g in gens:  # compose: slot i takes p's value at g's source
            q = tuple(p[group.index(g[k])] for k in range(n))
            if q not in seen:
                seen.add(q)
                todo.append(q)
    assert len(seen) == math.factorial(n)
