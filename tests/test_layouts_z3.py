"""The Z3 reading of layouts of several lines (docs/LAYOUTS.md) against the engine.

Small analogues of each topology -- trains with markers (and doubles that must be
covered, whose player plays again), a line whose doubles must be covered, a spinner whose
arms wait for its sides, a spinner whose opening double takes four tiles on arms open at
once, a chicken foot -- each on double-2 or double-3:

* transition level: on every state a search visits, the engine's successors equal the
  models of the Z3 relation (``z3_successors``), marks included;
* verdict level: the layout properties' Z3 verdicts (induction per instance, or a round
  found by BMC) agree with exhaustive search over every deal;
* R2.3 on trains: Z3 finds a state being played where no player has a legal move while a
  hand holds a matching tile; at an established block the readings agree (every marker
  is out), yet the last confirmation may open a train to a player who already confirmed
  (blocked-sound VIOLATED); with doubles that must be covered the readings differ at a
  block (readings-agree VIOLATED). Every round replays in the engine.

Each property is shown able to fail by its fault's Z3 twin (tests/test_z3_faults.py); each
twin has its engine mutant's successors on every state the mutant reaches (here).
"""

from __future__ import annotations

from typing import Any

import pytest
import z3  # type: ignore[import-untyped]
from helpers import variant

from dominoproof.model.engine import seeded_deal
from dominoproof.model.fast import engine_for
from dominoproof.model.spec import Init
from dominoproof.model.variant import ExtendReading, Variant
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import LAYOUT_PROPERTIES, Verdict
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.search.verification import verify
from dominoproof.proofs.z3 import lemmas
from dominoproof.proofs.z3.bmc import Run
from dominoproof.proofs.z3.encoding_faults import Z3_MUTANTS
from dominoproof.proofs.z3.queries import Prover, witness
from dominoproof.proofs.z3.successors import SuccessorOracle, z3_successors

SLOW = pytest.mark.slow
_H = "highest-double"
#: the analogues, each on the 2-player block game (no drawing)
ANALOGUES: dict[str, dict[str, Any]] = {
    "trains": {"set.max": 3, "deal.hand_size": 3, "layout.kind": "trains", "lead.rule": _H},
    # R4.4: a confirmation that puts a marker out starts the run again (a sound block)
    "trains-restart": {"set.max": 3, "deal.hand_size": 3, "layout.kind": "trains",
                       "lead.rule": _H, "block.restart_on_marker": True},
    "trains-doubles": {"set.max": 3, "deal.hand_size": 3, "layout.kind": "trains",
                       "lead.rule": _H, "layout.double_takes": 1, "layout.double_again": True},
    "line-doubles": {"set.max": 3, "deal.hand_size": 3, "layout.double_takes": 1},
    "spinner": {"set.max": 2, "deal.hand_size": 2, "layout.kind": "spinner", "lead.rule": _H},
    "spinner-open": {"set.max": 3, "deal.hand_size": 3, "layout.kind": "spinner",
                     "lead.rule": _H, "layout.spinner_sides_first": False,
                     "layout.lead_double_takes": 4},
    "chicken-foot": {"set.max": 3, "deal.hand_size": 3, "layout.kind": "chicken-foot",
                     "lead.rule": _H, "layout.double_takes": 3,
                     "layout.lead_double_takes": 4},
}
#: analogues whose search over every deal takes more than a few seconds
_SLOW_SEARCH = ("trains", "trains-restart", "trains-doubles", "chicken-foot")


def analogue(name: str, **more: Any) -> Variant:
    return variant("block-2p-d6", {**ANALOGUES[name], **more})


@pytest.mark.parametrize(("name", "more"), [
    *[(n, {}) for n in ANALOGUES],
    ("trains", {"deal.players": 3}),  # three trains and the public one
    # R4.4: a confirmation that puts a marker out starts the run again
    ("trains", {"deal.players": 3, "deal.hand_size": 2, "block.restart_on_marker": True}),
    # R2.3's house rules: every train open to a player whose marker is out (three seats:
    # a train whose owner's marker is in); the public train once one's own is started
    ("trains", {"deal.players": 3, "layout.open_trains": "own-marker-out"}),
    ("trains", {"layout.public_train": "after-own"}),
    ("trains-doubles", {"layout.open_trains": "own-marker-out",
                        "layout.public_train": "after-own"}),
    # R2.2: a double that must be covered is no player's last tile
    ("trains-doubles", {"layout.out_on_double": "covered"}),
    ("spinner", {"set.max": 3, "deal.hand_size": 4}),  # arms reached once the sides are
    ("spinner-open", {"layout.double_takes": 1, "layout.lead_double_takes": 0}),
])
def test_the_relation_has_the_engines_successors_on_every_state_searched(
        name: str, more: dict[str, Any]) -> None:
    v = analogue(name, **more)
    rules = engine_for(v)
    marked = 0
    for seed in (0, 1):
        res = explore(v, Init.one(seeded_deal(v, seed)), max_states=250)
        for s in res.states():
            marked += s.marks != 0
            engine = {(m, t.key()) for m, t in rules.successors(s)}
            z3s = z3_successors(v, s)
            assert engine <= z3s, ("the relation misses", s, engine - z3s)
            assert z3s <= engine, ("the engine misses", s, z3s - engine)
    assert marked, "no state with a mark set: the analogue exercises nothing new"


@pytest.mark.parametrize("more", [
    {},  # the block game: double-3, 3 tiles each
    {"deal.set_aside": 0, "draw.rule": "until-playable"},  # drawing, 4 in the boneyard
    {"draw.rule": "one", "deal.set_aside": 0, "fouls.rule": "penalised",
     "block.call": "dead-end"},
])
def test_the_relation_has_the_engines_successors_under_matador(more: dict[str, Any]) -> None:
    """R2.1, Matador (halves summing to N+1 = 4; 0-0, 1-3 and 2-2 wild): on every state
    of two seeded deals, the Z3 relation's successors are the engine's, and among the
    plays compared are matadors laid where they sum with nothing, matadors turned to
    leave the half that does not sum (R2.1, either way round) and ends showing 0."""
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3,
                                "layout.match": "matador", **more})
    rules, seen = engine_for(v), {"wild": 0, "blank": 0, "turned": 0}
    for seed in (0, 1):
        res = explore(v, Init.one(seeded_deal(v, seed)), max_states=400)
        for s in res.states():
            seen["blank"] += 0 in s.open_ends
            engine = {(m, t.key()) for m, t in rules.successors(s)}
            seen["wild"] += sum(
                1 for m, _ in engine if m.kind.label == "play" and m.end >= 0
                and 4 not in (v.tiles.halves[m.tile][0] + s.ends[m.end],
                              v.tiles.halves[m.tile][1] + s.ends[m.end]))
            seen["turned"] += sum(1 for m, _ in engine if m.leaves >= 0
                                  and m.leaves + s.ends[m.end] != 4)
            z3s = z3_successors(v, s)
            assert engine <= z3s, ("the relation misses", s, engine - z3s)
            assert z3s <= engine, ("the engine misses", s, z3s - engine)
    assert seen["wild"] and seen["blank"] and seen["turned"], seen


#: each layout fault on its demo, and on a neighbour (fouls penalised, three seats, trains)
_TWINS = [
    ("marker-stays-in", {}),
    pytest.param("marker-stays-in", {"fouls.rule": "penalised"}, marks=SLOW),
    pytest.param("marker-stays-in", {"deal.players": 3}, marks=SLOW),
    ("double-left-uncovered", {}),
    pytest.param("double-left-uncovered", {"layout.kind": "trains", "lead.rule": _H},
                 marks=SLOW),
    ("arms-open-early", {}),
    pytest.param("arms-open-early", {"set.max": 3, "deal.hand_size": 4}, marks=SLOW),
    ("confirm-past-double", {}),
    pytest.param("confirm-past-double", {"fouls.rule": "penalised"}, marks=SLOW),
    pytest.param("confirm-past-double", {"layout.kind": "trains", "lead.rule": _H},
                 marks=SLOW),
    ("out-on-waiting-double", {}),
    pytest.param("out-on-waiting-double", {"layout.kind": "trains", "lead.rule": _H,
                                           "layout.double_again": True}, marks=SLOW),
    ("restart-forgotten-last", {}),
    pytest.param("restart-forgotten-last", {"deal.players": 3, "deal.hand_size": 2},
                 marks=SLOW),
]


@pytest.mark.parametrize(("fault", "more"), _TWINS)
def test_each_layout_faults_twin_has_its_mutants_successors(fault: str,
                                                            more: dict[str, Any]) -> None:
    """The Z3 twin (proofs/z3/encoding_faults.py) and the engine's mutant (proofs/mutants.py)
    break the rules the same way: the same successors on every state the mutant reaches."""
    f = FAULTS_BY_ID[fault]
    v = f.variant().with_overrides(more, source="<test>") if more else f.variant()
    rules = f.engine_for(v)
    twin = Z3_MUTANTS[fault].encoding
    assert twin is not None
    oracle = SuccessorOracle(v, twin(v))
    for seed in range(3):
        for s in explore(v, Init.one(seeded_deal(v, seed)), rules=rules,
                         max_states=300).states():
            engine = {(m, t.key()) for m, t in rules.successors(s)}
            z3s = {(m, t.key()) for m, t in oracle.successors(s)}
            assert engine == z3s, (fault, s, engine - z3s, z3s - engine)


def _verdicts_agree(name: str) -> None:
    v = analogue(name)
    ver = verify(v, Init.every(), properties=[*LAYOUT_PROPERTIES, "blocked-sound"])
    pr = Prover(v)
    expected = {Verdict.HOLDS: Verdict.PROVED, Verdict.VIOLATED: Verdict.VIOLATED,
                Verdict.NOT_APPLICABLE: Verdict.NOT_APPLICABLE}
    applied = 0
    for r in ver.results:
        assert r.verdict in expected, (name, r.property, r.verdict, r.detail)
        z = pr.prove(r.property)
        assert z.verdict is expected[r.verdict], (name, r.property, r.verdict, z.verdict,
                                                  z.detail)
        applied += z.verdict is not Verdict.NOT_APPLICABLE
        if z.verdict is Verdict.VIOLATED:
            assert isinstance(z.trace, Run) and z.trace.replayed, z.trace
    assert applied >= 2


@pytest.mark.parametrize("name", [n if n not in _SLOW_SEARCH else pytest.param(n, marks=SLOW)
                                  for n in ANALOGUES])
def test_z3_and_exhaustive_search_agree_on_the_layout_properties(name: str) -> None:
    _verdicts_agree(name)


def test_the_layout_properties_are_proved_on_trains() -> None:
    """The fast tier's trains: markers and readings-agree PROVED by induction, the double
    rules' properties N/A (none on this analogue)."""
    pr = Prover(analogue("trains"))
    for pid in ("markers", "readings-agree"):
        r = pr.prove(pid)
        assert r.verdict is Verdict.PROVED and r.method == "induction per instance", r
    for pid in ("doubles-covered", "spinner-arms", "uncoverable-double"):
        assert pr.prove(pid).verdict is Verdict.NOT_APPLICABLE


def test_readings_agree_on_trains_needs_the_confirmed_markers_lemma(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At a block every confirmer's marker is out, so every train is open to everyone:
    without that lemma readings-agree is not inductive (only a complete BMC settles it)."""
    monkeypatch.setattr(lemmas, "LEMMAS", tuple(lem for lem in lemmas.LEMMAS
                                                if lem.id != "confirmed-markers-out"))
    r = Prover(analogue("trains")).prove("readings-agree")
    assert r.method != "induction per instance", r


# ---------------------------------------------------------------------------
# R2.3 on trains
# ---------------------------------------------------------------------------


def _readings_at(v: Variant, run: Run) -> tuple[bool, bool]:
    """(no hand holds a matching tile, no player has a legal move) at the run's end, by
    the engine's two readings of R2.3."""
    rules = engine_for(v)
    final = run.trace.states()[-1]
    return (rules.ends_unplayable(final, ExtendReading.HOLDS_MATCHING_TILE),
            rules.ends_unplayable(final, ExtendReading.HAS_LEGAL_MOVE))


@pytest.mark.parametrize("more", [{}, {"deal.players": 3}])
def test_z3_finds_a_state_of_trains_where_the_readings_differ(more: dict[str, Any]) -> None:
    v = analogue("trains", **more)
    w = witness(Prover(v), "readings-differ", depth=10)
    assert w.run is not None and w.run.replayed, (w.note, w.run)
    final = w.run.trace.states()[-1]
    assert final.status.name == "PLAYING"
    assert _readings_at(v, w.run) == (False, True)  # a matching tile, no legal move
    # it is a train whose owner's marker is in: the tile matches none of the others
    lay, ts = v.slot_layout, v.tiles
    held = [t for h in final.hands for t in range(ts.count) if h >> t & 1]
    owned = {final.ends[i] for i, sl in enumerate(lay.slots) if sl.owner is not None}
    assert any(set(ts.halves[t]) & owned for t in held)


def test_on_a_line_the_readings_never_differ() -> None:
    w = witness(Prover(variant("tiny-2p-d3")), "readings-differ", depth=8)
    assert w.run is None and w.complete and "one formula" in w.note


def test_at_a_block_of_trains_the_readings_agree_but_the_last_confirmation_opens_a_train(
) -> None:
    """The R4 procedure brings the readings back into agreement (each confirmation puts a
    marker out; at the block every marker is out, so every train is open to everyone),
    but the block may be unsound: the last confirmation opens the last train to players
    who confirmed before it opened."""
    v = analogue("trains")
    pr = Prover(v)
    assert pr.prove("readings-agree").verdict is Verdict.PROVED
    r = pr.prove("blocked-sound")
    assert r.verdict is Verdict.VIOLATED and r.trace.replayed
    final = r.trace.trace.states()[-1]
    assert final.status.name == "BLOCKED"
    assert _readings_at(v, r.trace) == (False, False)  # both: the layout can be extended
    rules = engine_for(v)
    assert any(rules.has_play(final, p) for p in range(v.players))


def test_with_doubles_to_cover_the_readings_differ_at_a_block() -> None:
    """A double nobody can cover, beside an end a hand matches: no legal move, a matching
    tile -- the R4 procedure establishes a block the two readings judge apart."""
    v = analogue("trains-doubles")
    r = Prover(v).prove("readings-agree")
    assert r.verdict is Verdict.VIOLATED and r.trace.replayed, r.detail
    assert r.trace.trace.states()[-1].status.name == "BLOCKED"
    assert _readings_at(v, r.trace) == (False, True)


# ---------------------------------------------------------------------------
# uncoverable-double on trains: the lemmas about who may cover a waiting double
# ---------------------------------------------------------------------------

#: the R2.3 finding's double-4 draw-one analogue of Mexican Train (docs/LAYOUTS.md)
_TRAINS_D4 = {"set.max": 4, "deal.hand_size": 4, "draw.rule": "one", "layout.kind": "trains",
              "layout.extend": "has-legal-move", "layout.double_takes": 1,
              "layout.double_again": True}
#: what each lemma says no round reaches, and the broken rule set whose rounds reach it
_TRAIN_LEMMAS = {"confirmed-cannot-cover": "confirm-past-double",
                 "pending-owner-access": "marker-stays-in",
                 "pending-one-slot": "doubles-pile-up"}


def test_uncoverable_double_on_trains_is_proved_by_induction() -> None:
    """On the double-4 trains analogue (every deal, every draw order) the exhaustive search
    finds uncoverable-double holding; Z3 proves it, with the lemmas that a waiting double
    is open to everyone unless its owner is covering it, and that no confirmer holds a
    tile for it."""
    pr = Prover(variant("draw-2p-d6", _TRAINS_D4))
    r = pr.prove("uncoverable-double")
    assert r.verdict is Verdict.PROVED and r.method == "induction per instance", r.detail
    assert {"pending-one-slot", *_TRAIN_LEMMAS} <= set(pr.invariant().ids)


def test_uncoverable_double_on_trains_needs_the_confirmers_lemma(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without confirmed-cannot-cover the blocked states of the invariant include one
    where a confirmer holds a tile for the waiting double: not proved by induction."""
    monkeypatch.setattr(lemmas, "LEMMAS", tuple(lem for lem in lemmas.LEMMAS
                                                if lem.id != "confirmed-cannot-cover"))
    r = Prover(variant("draw-2p-d6", _TRAINS_D4), bmc_depth=2).prove("uncoverable-double")
    assert r.verdict is Verdict.NOT_INDUCTIVE, r.detail


@pytest.mark.parametrize(("lemma", "fault"), sorted(_TRAIN_LEMMAS.items()))
def test_each_train_lemma_fails_on_its_broken_rule_set(lemma: str, fault: str) -> None:
    """The lemma is not vacuous: under the fault's twin, bounded model checking finds a real
    round (replayed by the fault's engine) reaching a state that breaks it; under the
    correct rules Houdini keeps it."""
    v = analogue("trains-doubles")
    lem = lemmas.BY_ID[lemma]
    assert lem.id in Prover(v).invariant().ids
    f = FAULTS_BY_ID[fault]
    twin = Z3_MUTANTS[fault].encoding
    assert twin is not None
    pr = Prover(v, encoding=twin(v), rules=f.engine_for(v))
    found = pr.bmc(lambda ss, ms: z3.Not(lem(pr.enc, ss[-1])), strengthen=False)
    assert found.run is not None and found.run.replayed, (lemma, fault, found.stop)


def test_one_pending_slot_fails_where_a_double_opens_toes() -> None:
    """pending-one-slot is a candidate where a double pends its own slot only; where a
    chicken foot's double pends its toes too, a real round breaks it."""
    v = analogue("chicken-foot")
    lem = lemmas.BY_ID["pending-one-slot"]
    assert not lem.applies(Prover(v).enc)
    pr = Prover(v)
    found = pr.bmc(lambda ss, ms: z3.Not(lem(pr.enc, ss[-1])), strengthen=False)
    assert found.run is not None and found.run.replayed, found.stop
    assert lem.id in Prover(analogue("trains-doubles")).invariant().ids


def test_a_restart_on_a_marker_put_out_makes_the_block_on_trains_sound() -> None:
    """R4.4 ``restart_on_marker``: the block of trains, unsound as published (the last
    confirmation opens a train to an earlier confirmer: the search finds it), HOLDS in the
    search over every deal and is PROVED by induction once a confirmation that puts a
    marker out starts the run again; the procedure, restart included, holds too."""
    published = verify(analogue("trains"), Init.every(), properties=["blocked-sound"])
    assert {r.property: r.verdict for r in published.results}["blocked-sound"] \
        is Verdict.VIOLATED
    v = analogue("trains-restart")
    ver = verify(v, Init.every(), properties=["blocked-sound", "procedure"])
    assert all(r.verdict is Verdict.HOLDS for r in ver.results), ver.results
    pr = Prover(v)
    for pid in ("blocked-sound", "procedure", "termination"):
        r = pr.prove(pid)
        assert r.verdict is Verdict.PROVED, (pid, r.detail)


#: ... with first turns laying tile after tile on one's own train (R2.3)
_FIRST_D4 = {**_TRAINS_D4, "layout.first_turn": "own-train"}


def test_uncoverable_double_under_first_turns_needs_their_lemma(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under first turns on one's own train, uncoverable-double is proved with the lemma
    that a first turn going on has its own train started and waiting for no double;
    without it, the invariant allows a first turn ended by a pass with its own double
    waiting behind a marker that is in: not proved by induction."""
    pr = Prover(variant("draw-2p-d6", _FIRST_D4))
    r = pr.prove("uncoverable-double")
    assert r.verdict is Verdict.PROVED, r.detail
    assert "first-turn-own-train" in pr.invariant().ids
    monkeypatch.setattr(lemmas, "LEMMAS", tuple(lem for lem in lemmas.LEMMAS
                                                if lem.id != "first-turn-own-train"))
    r = Prover(variant("draw-2p-d6", _FIRST_D4), bmc_depth=2).prove("uncoverable-double")
    assert r.verdict is Verdict.NOT_INDUCTIVE, r.detail
