"""One list of lemmas (``proofs/z3/lemmas.py``) read by both provers.

Each lemma has its formula per instance and for every N and P, or the reason it
has none there; the per-instance prover and the all-sizes model take their
candidates from that one list, so a lemma removed from it is gone from both (and
the proofs that needed it fail). The state properties are lemmas too: per instance
a candidate, for every N and P the statement the invariant must imply.
"""

from __future__ import annotations

import dataclasses

import pytest
from helpers import unseen_successors, variant

from dominoproof.model.fast import engine_for
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import every_deal
from dominoproof.model.state import State, Status
from dominoproof.model.variant import Variant
from dominoproof.proofs.allsizes import AbstractModel, prove_model
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import CATALOGUE, Verdict
from dominoproof.proofs.z3 import lemmas
from dominoproof.proofs.z3.encoding import Encoding
from dominoproof.proofs.z3.encoding_faults import Z3_MUTANTS
from dominoproof.proofs.z3.houdini import houdini, prove_relative
from dominoproof.proofs.z3.lemmas import BY_ID, LEMMAS, Lemma, candidates_for

#: Lemmas that both provers state (the same sentence, two formulas): kept as data.
SHARED = ("conservation", "no-pending-draw", "confirmed-after-lead", "confirmed-hold-nothing",
          "confirmed-empty-boneyard", "blocked-after-run", "no-stock", "blocked-sound",
          # the layout's marks: a spinner's waiting arms, doubles that must be covered
          "marks-typed", "waiting-arms", "uncovered-pending", "pending-one-double",
          # ... and none of them a player's last tile (R2.2, out_on_double = "covered")
          "pending-double-on-table")


def test_every_lemma_has_a_formula_or_a_reason_in_each_prover() -> None:
    for lem in LEMMAS:
        assert (lem.formula is None) == bool(lem.not_per_instance), lem.id
        assert (lem.abstract is None) == bool(lem.not_all_sizes), lem.id
        assert lem.formula is not None or lem.abstract is not None, lem.id
    shared = {lem.id for lem in LEMMAS if lem.formula is not None and lem.abstract is not None}
    assert shared == set(SHARED)


def test_a_lemma_without_a_formula_must_say_why() -> None:
    with pytest.raises(ValueError, match="or why not"):
        Lemma("x", "a lemma stated nowhere at all", ("Terms",))
    seat = BY_ID["seat"]
    with pytest.raises(ValueError, match="every N and P, or why not"):
        dataclasses.replace(seat, not_all_sizes="")


def test_the_state_properties_are_lemmas_of_both_provers() -> None:
    props = {lem.property: lem for lem in LEMMAS if lem.property}
    state = {p.id for p in CATALOGUE if p.id in props}
    assert state == {"blocked-sound", "conservation", "parity", "called-block"}
    assert props["blocked-sound"].abstract is not None
    assert props["conservation"].abstract is not None
    assert props["parity"].abstract is None and "modulo 2" in props["parity"].not_all_sizes
    # R4.7: a candidate only where a dead end may be called; its negation leaves EPR
    assert props["called-block"].abstract is None
    assert "Value -> Tile" in props["called-block"].not_all_sizes


def test_both_provers_read_the_one_list() -> None:
    v = variant("block-2p-d6")
    per_instance = [lem.id for lem in candidates_for(Encoding(v))]
    all_sizes = [c.name for c in AbstractModel(v).conjuncts]
    order = [lem.id for lem in LEMMAS]
    for ids in (per_instance, all_sizes):
        assert ids == sorted(ids, key=order.index)  # the list's order, a subset of it
    assert {"confirmed-hold-nothing", "no-stock"} <= set(per_instance) & set(all_sizes)
    assert "run-is-arc" in all_sizes and "run-is-arc" not in per_instance
    assert "count-below-block" in per_instance and "count-below-block" not in all_sizes


def test_a_lemma_removed_from_the_list_is_gone_from_both(
        monkeypatch: pytest.MonkeyPatch) -> None:
    v = variant("tiny-2p-d3")
    monkeypatch.setattr(lemmas, "LEMMAS",
                        tuple(lem for lem in LEMMAS if lem.id != "confirmed-hold-nothing"))
    assert "confirmed-hold-nothing" not in {lem.id for lem in candidates_for(Encoding(v))}
    m = AbstractModel(v)
    assert "confirmed-hold-nothing" not in {c.name for c in m.conjuncts}
    res = {r.property: r for r in prove_model(m, ["blocked-sound", "conservation"])}
    assert res["blocked-sound"].verdict is Verdict.NOT_INDUCTIVE
    assert res["conservation"].verdict is Verdict.PROVED


# ---------------------------------------------------------------------------
# hand-size: a hand grows only by drawing
# ---------------------------------------------------------------------------


def largest_hand(v: Variant, rules: RuleBook) -> int:
    """The most tiles any hand holds in any state of any round of any deal (the deal's
    own draw order), by the engine ``rules``: no Z3."""
    most = 0
    for deal in every_deal(v, False):
        s0 = State(deal.hands, sum(1 << t for t in deal.stack), deal.set_aside, 0,
                   rules.layout.closed, rules.opening(deal.hands)[0], 0, False, 0,
                   Status.PLAYING, deal.stack)
        seen, todo = {s0.key()}, [s0]
        while todo:
            s = todo.pop()
            most = max(most, *(h.bit_count() for h in s.hands))
            todo += unseen_successors(rules, s, seen)
    return most


def test_hand_size_is_inductive_and_fails_when_a_hand_grows_without_drawing() -> None:
    """hand-size is proved on demand, relative to Houdini's invariant (it is no Houdini
    candidate): on the sound rules of draw-from-empty-boneyard's demo (2 tiles each,
    nothing to draw, 2 tiles set aside) it holds at Init and every action keeps it; on
    the fault's twin, where a stuck player takes a set-aside tile, the action
    "draw-aside" breaks it -- and the fault's engine really gives a hand a third tile
    (the sound engine never does)."""
    lem = BY_ID["hand-size"]
    fault = FAULTS_BY_ID["draw-from-empty-boneyard"]
    v = fault.variant()
    good = Encoding(v)
    assert lem.on_demand and lem not in candidates_for(good)
    h = houdini(good, candidates_for(good))
    assert not h.unknown
    assert prove_relative(good, lem, h.kept) == ("ok", None, None)
    twin_class = Z3_MUTANTS[fault.id].encoding
    assert twin_class is not None
    twin = twin_class(v)
    bad = houdini(twin, candidates_for(twin))
    got, c, action = prove_relative(twin, lem, bad.kept)
    assert (got, action) == ("step", "draw-aside") and c is not None and c.sat
    cap = v.deal.hand_size + good.v.B
    assert largest_hand(v, engine_for(v)) <= cap < largest_hand(v, fault.engine_for(v))
