"""The all-sizes proofs: one abstract model, every N and every P.

Fast tier: the correct rules of six variants (one per draw rule, fouls, a draw any
time, R3.5, and a draw for the lead, R3.6) are PROVED; the layouts the fragment states
(a spinner's waiting arms, doubles that must be covered) are proved, and the block
while a double waits is where R2.3's readings differ; trains and toes are N/A with the
reason; six fault twins (three of them the layout's) make exactly their properties NOT
INDUCTIVE with a counterexample that names the action; the fragment check, the N/A,
UNKNOWN and vacuity paths. Slow tier: every preset (against the findings), every twin,
another seed.

Expected verdicts are data (:data:`EXPECTED_FAILING`), never computed from the
code under test.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
import z3  # type: ignore[import-untyped]

from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import LINE, LayoutKind, SlotLayout
from dominoproof.model.variant import Variant, find_variant
from dominoproof.proofs import allsizes
from dominoproof.proofs.allsizes import (
    CORE,
    NOT_STATABLE,
    TWINS,
    AbstractCounterexample,
    AbstractModel,
    fragment_of,
    prove_all_sizes,
    prove_model,
)
from dominoproof.proofs.allsizes.catalogue import LAYOUT
from dominoproof.proofs.allsizes.layout import unstatable
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import BY_ID, CATALOGUE, LAYOUT_PROPERTIES, Result, Verdict
from dominoproof.proofs.z3.solver import Check, Solver

TIMEOUT_MS = 10_000
SEED = 0

#: For each fault twin: the properties that must fail (NOT INDUCTIVE); every
#: other core property must still be PROVED (the failure is specific).
EXPECTED_FAILING: dict[str, frozenset[str]] = {
    "confirm-while-playable": frozenset({"no-false-confirmation", "blocked-sound",
                                         "procedure"}),
    "establish-without-boneyard-check": frozenset({"blocked-sound", "procedure"}),
    "boneyard-check-off": frozenset({"blocked-sound", "procedure"}),
    "all-others-confirm": frozenset({"blocked-sound", "procedure"}),
    "draw-loses-tile": frozenset({"conservation"}),
    "draw-from-empty-boneyard": frozenset({"boneyard-monotone"}),
    # the layout's twins, on their faults' demos (a line whose doubles must be covered, a
    # spinner whose arms wait): the demo's correct rules prove the property the twin breaks
    # (test_the_layout_twins_break_what_the_correct_rules_prove); blocked-sound, procedure
    # and readings-agree fail on the line's demo under the correct rules too (reading
    # "holds a matching tile": test_a_block_while_a_double_waits_is_where_the_readings_differ)
    "double-left-uncovered": frozenset({"doubles-covered"}),
    "arms-open-early": frozenset({"spinner-arms"}),
    "confirm-past-double": frozenset({"no-false-confirmation", "uncoverable-double",
                                      "blocked-sound", "procedure", "readings-agree"}),
    # R2.2, out_on_double = "covered": a last double left waiting ends the round (the
    # other three fail on the line's demo under the correct rules too, as above)
    "out-on-waiting-double": frozenset({"doubles-covered", "blocked-sound", "procedure",
                                        "readings-agree"}),
}

#: Where each twin breaks the proof: (a conjunct of the invariant dropped at an
#: action, or None when the property itself fails) and the action of the
#: counterexample of the first expected property.
EXPECTED_BREAK: dict[str, tuple[str | None, str, str]] = {
    # fault: (dropped conjunct, action that drops it / fails the property, property)
    "confirm-while-playable": ("confirmed-hold-nothing", "confirm_playable",
                               "no-false-confirmation"),
    "establish-without-boneyard-check": ("confirmed-empty-boneyard", "confirm_instead_of_draw",
                                         "blocked-sound"),
    "boneyard-check-off": ("confirmed-empty-boneyard", "pass", "blocked-sound"),
    "all-others-confirm": (None, "establish", "blocked-sound"),
    "draw-loses-tile": ("tile-placed", "draw", "conservation"),
    "draw-from-empty-boneyard": (None, "draw_aside", "boneyard-monotone"),
    "double-left-uncovered": (None, "play", "doubles-covered"),
    "arms-open-early": ("waiting-arms", "play", "spinner-arms"),
    "confirm-past-double": ("confirmed-hold-nothing", "confirm_past_double",
                            "uncoverable-double"),
    "out-on-waiting-double": (None, "play", "doubles-covered"),
}

FAST_FAULTS = ("all-others-confirm", "confirm-while-playable", "draw-loses-tile",
               "double-left-uncovered", "arms-open-early", "confirm-past-double",
               "out-on-waiting-double")
SLOW_FAULTS = tuple(f for f in EXPECTED_FAILING if f not in FAST_FAULTS)


def _draw_one() -> Variant:
    """Draw-one with the R4.4 boneyard check on: the pass action exists and resets."""
    return find_variant("tiny-2p-d3").with_overrides({"draw.rule": "one"})


def _any_time() -> Variant:
    """Draw-one where a player who can play may draw too (R3.5)."""
    return find_variant("tiny-2p-d3").with_overrides({"draw.rule": "one",
                                                      "draw.when": "any-time"})


def _draw_for_lead() -> Variant:
    """Draw-one where, nobody holding the highest double, the players draw for one (R3.6)."""
    return find_variant("tiny-2p-d3").with_overrides({
        "draw.rule": "one", "lead.rule": "highest-double", "lead.fallback": "draw"})


VARIANTS: dict[str, Any] = {
    "tiny-2p-d3": lambda: find_variant("tiny-2p-d3"),  # draw until playable
    "block-2p-d6": lambda: find_variant("block-2p-d6"),  # no drawing
    "fouls-4p-d6": lambda: find_variant("fouls-4p-d6"),  # fouls penalised
    "draw-one": _draw_one,
    "any-time": _any_time,
    "draw-for-lead": _draw_for_lead,
}


@functools.cache
def _catalogue(name: str, fault: str | None = None) -> tuple[Result, ...]:
    """Every catalogue property for a variant (or a fault twin), computed once."""
    v = VARIANTS[name]() if fault is None else FAULTS_BY_ID[fault].variant()
    return tuple(prove_all_sizes(v, None, timeout_ms=TIMEOUT_MS, seed=SEED, fault=fault))


def _results(name: str, fault: str | None = None) -> dict[str, Result]:
    """The core properties' results."""
    return {r.property: r for r in _catalogue(name, fault) if r.property in CORE}


def _stated(name: str, fault: str | None = None) -> dict[str, Result]:
    """The results of every property stated for the variant: the core properties and the
    layout's properties that apply to it."""
    return {r.property: r for r in _catalogue(name, fault)
            if r.property in CORE or (r.property in LAYOUT
                                      and r.verdict is not Verdict.NOT_APPLICABLE)}


def _hand_matches(cex: AbstractCounterexample, state: dict[str, Any], seat: str) -> bool:
    """Whether ``seat`` holds a tile carrying a number an open end shows (read off the
    decoded counterexample, independently of the solver's formulas)."""
    shown = {x for xs in state["shows"].values() for x in xs}
    return any(set(cex.carries[t]) & shown for t in state["hands"][seat])


# ---------------------------------------------------------------------------
# The correct rules are proved for every N and P
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(VARIANTS))
def test_correct_rules_are_proved(name: str) -> None:
    res = _results(name)
    assert set(res) == set(CORE)
    for pid, r in res.items():
        assert r.verdict is Verdict.PROVED, (pid, r.detail)
        assert r.method == "all sizes"
        assert "every N >= 0, every P >= 2" in r.configuration
        assert r.seconds > 0
        assert r.trace is None
        # Nothing was dropped: the whole candidate invariant is inductive.
        assert r.stats["dropped"] == {}
        # The property's own obligations, each unsat, each with time and statistics.
        assert r.stats["queries"], pid
        for q in r.stats["queries"]:
            assert q["answer"] == "unsat", q
            assert q["seconds"] >= 0 and q["statistics"], q
        assert r.stats["sanity_queries"]["unknown"] == []


def test_configuration_names_the_rule_parameters() -> None:
    r = _results("fouls-4p-d6")["blocked-sound"]
    for part in ("draw none", "confirmations all", "boneyard_must_be_empty true",
                 "fouls penalised", "lead abstracted"):
        assert part in r.configuration


@pytest.mark.parametrize("name", ["tiny-2p-d3", "draw-one"])
def test_every_query_is_in_epr(name: str) -> None:
    for r in _results(name).values():
        assert r.stats["fragment"] == "EPR"
        for q in r.stats["queries"]:
            assert q["fragment"] == "EPR"
            assert set(q["sort_edges"]) <= {"Tile->Player", "Tile->Value", "End->Value"}


def test_the_actions_follow_the_variant() -> None:
    names = {n: [a.name for a in AbstractModel(VARIANTS[n]()).actions] for n in VARIANTS}
    assert "draw" not in names["block-2p-d6"] and "pass" not in names["block-2p-d6"]
    assert "draw" in names["tiny-2p-d3"] and "pass" not in names["tiny-2p-d3"]
    assert "pass" in names["draw-one"]
    assert "foul" in names["fouls-4p-d6"] and "foul" not in names["tiny-2p-d3"]
    # R3.5: the draw's guard asks that the mover be stuck only where "unable" to play
    rules = {n: next(a.rules for a in AbstractModel(VARIANTS[n]()).actions if a.name == "draw")
             for n in ("draw-one", "any-time")}
    assert "R3.5" in rules["any-time"] and "R3.5" not in rules["draw-one"]
    assert "any time" in AbstractModel(_any_time()).rules_text()
    # R3.6: a draw before the lead only where the players draw for the lead
    assert [n for n in VARIANTS if "lead_draw" in names[n]] == ["draw-for-lead"]
    assert "draws for it" in AbstractModel(_draw_for_lead()).rules_text()


def test_the_call_is_an_action_and_its_findings_are_the_rules() -> None:
    """R4.7: where a dead end may be called, the model states the call; blocked-sound and
    procedure are then not inductive (findings of the rule), the rest is proved, every
    query in EPR, and called-block itself is N/A with the reason."""
    v = find_variant("tiny-2p-d3").with_overrides({"block.call": "dead-end"})
    call = next(a for a in AbstractModel(v).actions if a.name == "call")
    assert call.rules == ("R4.7",) and "call" not in [a.name for a in AbstractModel(
        find_variant("tiny-2p-d3")).actions]
    assert "a dead end may be called" in AbstractModel(v).rules_text()
    got = {r.property: r for r in prove_all_sizes(v, None, timeout_ms=TIMEOUT_MS, seed=SEED)}
    for pid in ("blocked-sound", "procedure"):
        assert got[pid].verdict is Verdict.NOT_INDUCTIVE, got[pid].detail
    for pid in ("no-false-confirmation", "conservation", "boneyard-monotone"):
        assert got[pid].verdict is Verdict.PROVED, got[pid].detail
        assert got[pid].stats["fragment"] == "EPR" and got[pid].stats["sanity_queries"][
            "all_epr"]
    assert got["called-block"].verdict is Verdict.NOT_APPLICABLE
    assert "Value -> Tile" in got["called-block"].detail


# ---------------------------------------------------------------------------
# The layout is the variant's slot data, stated as rigid relations
# ---------------------------------------------------------------------------

def _layout(kind: str, **more: Any) -> Variant:
    """tiny-2p-d3 on another topology of model/layout.py (its slot data, nothing else)."""
    return find_variant("tiny-2p-d3").with_overrides({"layout.kind": kind, **more})


def test_the_layout_axioms_come_from_the_slot_data() -> None:
    m = AbstractModel(find_variant("block-2p-d6"))
    names = [n for n, _ in m.axioms]
    assert {"layout-slots", "slot-access", "lead-opens-slots"} <= set(names)
    assert [str(x) for x in m.layout.slots] == ["slot.left", "slot.right"]
    assert "one line" in m.configuration()


def test_a_layout_that_fits_the_fragment_needs_no_new_code() -> None:
    """A chicken foot without its double rules is four arms opened by the lead, open to
    everyone: the slot data alone states it, and the five core properties are proved."""
    m = AbstractModel(_layout("chicken-foot"))
    assert [str(x) for x in m.layout.slots] == [f"slot.arm {i}" for i in range(1, 5)]
    for r in prove_model(m, CORE, timeout_ms=TIMEOUT_MS, seed=SEED):
        assert r.verdict is Verdict.PROVED, (r.property, r.detail)
        assert r.stats["fragment"] == "EPR"


@pytest.mark.parametrize("kind, count", [("chicken-foot", 4), ("line", 2)])
def test_the_slot_axioms_count_the_ends(kind: str, count: int) -> None:
    """The slot axioms are not decoration: the ends are exactly the layout's slots."""
    m = AbstractModel(_layout(kind))
    ends = z3.Consts(" ".join(f"e{i}" for i in range(count + 1)), m.v.end)
    s = Solver(seed=SEED, timeout_ms=TIMEOUT_MS, engine="smt", ctx=m.v.ctx)
    s.add(*[f for _, f in m.axioms], z3.Distinct(*ends[:count]))
    assert s.check().sat
    s.add(z3.Distinct(*ends))
    assert s.check().unsat


#: Topologies whose slot data the fragment cannot state, and what the N/A names.
OUTSIDE: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "trains": ({"layout.kind": "trains"}, (
        "slots train P0, train P1 are open to owner-or-marker",
        "End -> Player, a cycle of the sort graph, outside EPR", "markers")),
    # R2.3's first turns on one's own train: trains, and a reason of their own (N/A)
    "trains, first turns": ({"layout.kind": "trains", "layout.first_turn": "own-train"}, (
        "markers", "first turns that lay tile after tile on one's own slot",
        "the mover's own slot (Player -> End)")),
    "chicken foot": ({"layout.kind": "chicken-foot", "layout.lead_double_takes": 4,
                      "layout.double_takes": 3},
                     ("open as toes of a later double", "the first k - 1 closed toes",
                      "grows with N")),
    # R2.1: Matador matching, touching halves summing to N+1 (a line, no other feature)
    "matador": ({"layout.match": "matador"},
                ("Matador matching (R2.1)", "sum to N+1", "Value -> Value")),
}


@pytest.mark.parametrize("name", list(OUTSIDE))
def test_a_layout_outside_the_fragment_is_not_applicable(name: str) -> None:
    overrides, said = OUTSIDE[name]
    v = find_variant("tiny-2p-d3").with_overrides(overrides)
    why = unstatable(v.slot_layout) or ""
    assert all(part in why for part in said), why
    for r in prove_all_sizes(v, timeout_ms=TIMEOUT_MS):
        assert r.verdict is Verdict.NOT_APPLICABLE
        if r.property in CORE or r.property in LAYOUT:
            assert why in r.detail and "per instance" in r.detail, r.detail
        assert r.stats == {}  # nothing was asked of Z3


#: Layouts the fragment states beyond the line: the slot features, with the variant.
INSIDE: dict[str, dict[str, Any]] = {
    "spinner, arms waiting for the sides": {"layout.kind": "spinner",
                                            "layout.spinner_sides_first": True},
    "spinner, the opening double taking a tile on each slot": {
        "layout.kind": "spinner", "layout.spinner_sides_first": False,
        "layout.lead_double_takes": 4},
    "line, doubles covered, their player playing again": {
        "layout.double_takes": 1, "layout.double_again": True},
    # R2.2: ... and a double that must be covered no player's last tile
    "line, doubles covered, none a player's last tile": {
        "layout.double_takes": 1, "layout.double_again": True,
        "layout.out_on_double": "covered"},
    "chicken foot's arms, the opening double taking a tile on each": {
        "layout.kind": "chicken-foot", "layout.lead_double_takes": 4},
}


def test_what_the_fragment_can_state_is_not_refused() -> None:
    assert unstatable(LINE) is None
    assert unstatable(_layout("chicken-foot").slot_layout) is None
    for overrides in INSIDE.values():
        assert unstatable(find_variant("tiny-2p-d3").with_overrides(
            overrides).slot_layout) is None, overrides
    assert unstatable(SlotLayout(LayoutKind.LINE, ())) == "the layout has no slot"


@pytest.mark.parametrize("name", list(INSIDE))
def test_the_layouts_in_the_fragment_are_proved(name: str) -> None:
    """Waiting arms, pending slots and a double's player playing again are state and
    guards of the model: under the reading "has a legal move" every core property and
    every layout property that applies is PROVED, every query in EPR; under "holds a
    matching tile" a block while a double waits is where the readings differ (below)."""
    v = find_variant("tiny-2p-d3").with_overrides(
        {**INSIDE[name], "layout.extend": "has-legal-move"})
    rs = {r.property: r for r in prove_all_sizes(v, timeout_ms=TIMEOUT_MS, seed=SEED)}
    applies = [p for p in LAYOUT if BY_ID[p].applies_to(v)]
    assert applies
    for pid in [*CORE, *applies]:
        r = rs[pid]
        want = Verdict.PROVED
        if pid == "readings-agree" and BY_ID["doubles-covered"].applies_to(v):
            want = Verdict.NOT_INDUCTIVE  # a pending slot takes every play (below)
        assert r.verdict is want, (pid, r.detail)
        assert r.stats["fragment"] == "EPR", pid
        assert r.stats["dropped"] == {}, pid


def test_a_block_while_a_double_waits_is_where_the_readings_differ() -> None:
    """A line whose doubles must be covered, read "holds a matching tile": the all-sizes
    proof of blocked-sound fails at the establishment, on a state where slots are pending
    and a hand holds a tile matching the other end -- the uncoverable double ends the round
    (uncoverable-double is PROVED) though R2 in that reading does not hold."""
    v = find_variant("tiny-2p-d3").with_overrides({"layout.double_takes": 1})
    rs = {r.property: r for r in prove_all_sizes(v, timeout_ms=TIMEOUT_MS, seed=SEED)}
    assert rs["uncoverable-double"].verdict is Verdict.PROVED
    assert rs["doubles-covered"].verdict is Verdict.PROVED
    r = rs["blocked-sound"]
    assert r.verdict is Verdict.NOT_INDUCTIVE, r.detail
    cex = r.trace
    assert isinstance(cex, AbstractCounterexample) and cex.post is not None
    assert cex.action == "establish" and cex.post["blocked"]
    assert cex.pre["pending"], cex.pre
    assert any(_hand_matches(cex, cex.pre, p) for p in cex.pre["hands"])


@pytest.mark.parametrize("reading", ["holds-matching-tile", "has-legal-move"])
def test_both_readings_of_r23_are_proved_on_the_line(reading: str) -> None:
    v = find_variant("fouls-4p-d6").with_overrides({"layout.extend": reading})
    m = AbstractModel(v)
    assert m.READING.value == reading
    for r in prove_model(m, CORE, timeout_ms=TIMEOUT_MS, seed=SEED):
        assert r.verdict is Verdict.PROVED, (r.property, r.detail)


@pytest.mark.parametrize("reading", ["holds-matching-tile", "has-legal-move"])
def test_blocked_sound_uses_the_variants_reading(reading: str) -> None:
    """Without the access axiom a seat may be barred from some ends (any access rule).
    Then "has a legal move" still holds at every block (the run's seats could not play
    where they may), but "holds a matching tile" does not: a seat that confirmed may hold
    a tile for an end it may not play on."""
    v = find_variant("fouls-4p-d6").with_overrides({"layout.extend": reading})
    m = AbstractModel(v)
    m.axioms[:] = [(n, f) for n, f in m.axioms if n != "slot-access"]
    res = {r.property: r for r in prove_model(m, CORE, timeout_ms=TIMEOUT_MS, seed=SEED)}
    failing = {p for p, r in res.items() if r.verdict is not Verdict.PROVED}
    if reading == "has-legal-move":
        assert failing == set()
        return
    assert failing == {"blocked-sound", "procedure"}
    cex = res["blocked-sound"].trace
    assert isinstance(cex, AbstractCounterexample) and cex.post is not None
    assert cex.post["blocked"] and any(_hand_matches(cex, cex.pre, p)
                                       for p in cex.pre["hands"])


# ---------------------------------------------------------------------------
# Every proof can fail: the abstract twins of the faults
# ---------------------------------------------------------------------------


def _check_fault(fault: str) -> None:
    res = _stated("", fault)
    failing = {p for p, r in res.items() if r.verdict is not Verdict.PROVED}
    assert failing == EXPECTED_FAILING[fault]
    assert set(FAULTS_BY_ID[fault].catches) & set(CORE) <= failing
    for pid in failing:
        r = res[pid]
        assert r.verdict is Verdict.NOT_INDUCTIVE, (pid, r.detail)
        assert isinstance(r.trace, AbstractCounterexample)
        assert r.trace.action is not None and r.trace.action in r.detail
        assert f"abstract twin of fault {fault}" in r.configuration
    conjunct, action, pid = EXPECTED_BREAK[fault]
    r = res[pid]
    if conjunct is None:
        assert r.stats["dropped"] == {}
        assert r.trace.action == action
    else:
        assert r.stats["dropped"][conjunct]["at"] == action
        assert f"conjunct {conjunct} not preserved by {action}" in r.detail


@pytest.mark.parametrize("fault", FAST_FAULTS)
def test_fault_twin_fails_its_properties(fault: str) -> None:
    _check_fault(fault)


@pytest.mark.slow
@pytest.mark.parametrize("fault", SLOW_FAULTS)
def test_fault_twin_fails_its_properties_slow(fault: str) -> None:
    _check_fault(fault)


LAYOUT_TWINS = ("double-left-uncovered", "arms-open-early", "confirm-past-double",
                "out-on-waiting-double")


@pytest.mark.parametrize("fault", LAYOUT_TWINS)
def test_the_layout_twins_break_what_the_correct_rules_prove(fault: str) -> None:
    """On the fault's demo, the correct rules prove each layout property the fault names;
    its twin makes it NOT INDUCTIVE (above): the failure is the twin's."""
    f = FAULTS_BY_ID[fault]
    correct = {r.property: r for r in prove_all_sizes(
        f.variant(), f.catches, timeout_ms=TIMEOUT_MS, seed=SEED)}
    for pid in f.catches:
        assert pid in LAYOUT
        assert correct[pid].verdict is Verdict.PROVED, (pid, correct[pid].detail)
        assert _stated("", fault)[pid].verdict is Verdict.NOT_INDUCTIVE


@pytest.mark.parametrize("fault, pid, said", [
    ("double-left-uncovered", "doubles-covered", "must take a tile first (R2.2)"),
    ("arms-open-early", "spinner-arms", "an arm may take a tile only once the sides"),
    ("confirm-past-double", "uncoverable-double", "which covers a pending end"),
    ("out-on-waiting-double", "doubles-covered", "last tile"),
])
def test_a_layout_counterexample_reads_with_its_marks(fault: str, pid: str, said: str) -> None:
    """Read on a small table, a layout twin's counterexample names the slots with their
    marks and says what fails in domino terms."""
    from dominoproof.render.concrete import describe

    text, what = describe(_stated("", fault)[pid].trace, pid)
    assert said in what, what
    assert "(pending)" in text or "(covered)" in text or "no end is covered" in what, text


def test_every_twin_is_tested() -> None:
    assert set(TWINS) == set(EXPECTED_FAILING) == set(EXPECTED_BREAK)
    assert set(FAST_FAULTS) | set(SLOW_FAULTS) == set(TWINS)


def test_all_others_counterexample_is_a_real_false_block() -> None:
    """R4.4 "all-others": the block is established while the seat that never confirmed
    holds a tile that extends an open end."""
    cex = _results("", "all-others-confirm")["blocked-sound"].trace
    assert isinstance(cex, AbstractCounterexample)
    pre, post = cex.pre, cex.post
    assert cex.action == "establish" and post is not None and post["blocked"]
    assert pre["boneyard"] == []
    assert set(pre["confirmed"]) == set(cex.universe["Player"]) - {pre["turn"]}
    assert _hand_matches(cex, pre, pre["turn"])


def test_draw_loses_tile_counterexample_loses_the_tile() -> None:
    dropped = _results("", "draw-loses-tile")["conservation"]
    cex = dropped.trace
    assert isinstance(cex, AbstractCounterexample) and cex.post is not None
    t = cex.params["t"]
    assert t in cex.pre["boneyard"]
    post = cex.post
    assert t not in post["boneyard"] + post["aside"] + post["table"]
    assert all(t not in ts for ts in post["hands"].values())


def test_confirm_while_playable_counterexample_confirms_with_a_playable_tile() -> None:
    cex = _results("", "confirm-while-playable")["no-false-confirmation"].trace
    assert isinstance(cex, AbstractCounterexample) and cex.post is not None
    mover = cex.pre["turn"]
    assert _hand_matches(cex, cex.pre, mover)
    assert mover in cex.post["confirmed"]


def test_a_missing_conjunct_makes_the_proof_fail() -> None:
    """The invariant is not decoration: without "a run needs an empty boneyard" the
    block's empty boneyard no longer follows."""
    m = AbstractModel(find_variant("tiny-2p-d3"))
    m.conjuncts[:] = [c for c in m.conjuncts if c.name != "confirmed-empty-boneyard"]
    res = {r.property: r for r in prove_model(m, ["blocked-sound", "conservation"],
                                              timeout_ms=TIMEOUT_MS, seed=SEED)}
    assert res["blocked-sound"].verdict is Verdict.NOT_INDUCTIVE
    assert res["conservation"].verdict is Verdict.PROVED


# ---------------------------------------------------------------------------
# What cannot be stated: N/A with the reason and the instances proved instead
# ---------------------------------------------------------------------------


def test_other_properties_are_not_applicable_with_a_reason() -> None:
    """Every other property that applies to the variant cannot be stated for all sizes
    (per instance instead); the layout properties do not apply to the one line."""
    v = find_variant("block-2p-d6")
    rs = prove_all_sizes(v, [p.id for p in CATALOGUE if p.id not in CORE])
    assert {r.property for r in rs} == set(NOT_STATABLE) | set(LAYOUT_PROPERTIES)
    for r in rs:
        assert r.verdict is Verdict.NOT_APPLICABLE
        if r.property in NOT_STATABLE:
            assert "per instance" in r.detail and "dominoproof prove" in r.detail
        else:
            assert not BY_ID[r.property].applies_to(v)
            assert r.detail.startswith("does not apply to this variant")


def test_default_is_the_whole_catalogue_in_order() -> None:
    rs = _catalogue("block-2p-d6")
    assert [r.property for r in rs] == [p.id for p in CATALOGUE]
    by = {r.property: r.verdict for r in rs}
    assert all(by[p] is Verdict.PROVED for p in CORE)
    assert all(by[p] is Verdict.NOT_APPLICABLE for p in NOT_STATABLE)


def test_numeric_confirmations_are_per_instance() -> None:
    v = find_variant("block-4p-d6").with_overrides({"block.confirmations": 4})
    res = {r.property: r for r in prove_all_sizes(v, CORE, timeout_ms=TIMEOUT_MS,
                                                  seed=SEED)}
    for pid in ("blocked-sound", "procedure"):
        assert res[pid].verdict is Verdict.NOT_APPLICABLE
        assert "count" in res[pid].detail and "per instance" in res[pid].detail
    for pid in ("no-false-confirmation", "boneyard-monotone", "conservation"):
        assert res[pid].verdict is Verdict.PROVED, res[pid].detail


def test_bad_input_is_a_dominoproof_error() -> None:
    v = find_variant("tiny-2p-d3")
    with pytest.raises(DominoproofError, match="no property"):
        prove_all_sizes(v, ["no-such-property"])
    with pytest.raises(DominoproofError, match="no abstract twin"):
        prove_all_sizes(v, CORE, fault="tie-wrong")


# ---------------------------------------------------------------------------
# Seed and timeout, unknown is never PROVED, no proof from an empty premise
# ---------------------------------------------------------------------------


def _unknown(names: set[str] | None) -> Any:
    """A replacement for the one call to Z3: ``unknown`` on ``names`` (all if None)."""
    real = allsizes.Checker._solve

    def solve(self: Any, name: str, solver: Solver) -> Check:
        if names is None or name in names:
            return Check("unknown", 0.0, {}, "timeout (simulated)")
        return real(self, name, solver)
    return solve


def test_every_query_gets_the_seed_and_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: set[tuple[int, int]] = set()
    real = allsizes.Checker._solve

    def solve(self: Any, name: str, solver: Solver) -> Check:
        seen.add((solver.seed, solver.timeout_ms))
        return real(self, name, solver)
    monkeypatch.setattr(allsizes.Checker, "_solve", solve)
    prove_all_sizes(find_variant("block-2p-d6"), ["conservation"], timeout_ms=1234, seed=7)
    assert seen == {(7, 1234)}


def test_unknown_everywhere_is_never_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allsizes.Checker, "_solve", _unknown(None))
    for r in prove_all_sizes(find_variant("tiny-2p-d3"), CORE):
        assert r.verdict is Verdict.UNKNOWN, r


def test_unknown_on_one_obligation_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allsizes.Checker, "_solve", _unknown({"Inv => blocked-sound"}))
    res = {r.property: r for r in prove_all_sizes(find_variant("block-2p-d6"), CORE)}
    assert res["blocked-sound"].verdict is Verdict.UNKNOWN
    assert "Inv => blocked-sound" in res["blocked-sound"].detail
    assert all(res[p].verdict is Verdict.PROVED for p in CORE if p != "blocked-sound")


def test_unknown_while_finding_the_invariant_is_unknown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A conjunct dropped because Z3 said unknown: the property that needs it is
    UNKNOWN, not NOT INDUCTIVE."""
    monkeypatch.setattr(allsizes.Checker, "_solve", _unknown(
        {"confirm preserves Inv", "confirm preserves confirmed-hold-nothing"}))
    res = {r.property: r for r in prove_all_sizes(find_variant("block-2p-d6"), CORE)}
    assert res["blocked-sound"].verdict is Verdict.UNKNOWN
    assert res["blocked-sound"].stats["dropped"]["confirmed-hold-nothing"]["answer"] == "unknown"
    assert res["conservation"].verdict is Verdict.PROVED


def test_a_counterexample_does_not_depend_on_what_ran_before() -> None:
    """Z3 numbers its terms in the order a context makes them, and the model a ``sat``
    query returns follows that numbering. The all-sizes model makes its terms in a
    context of its own, so the counterexample it shows (the designer's page prints one)
    is the same whatever the process made before it in the shared context: here, a
    per-instance proof and its sanity checks, as ``verify`` runs them first."""
    from dominoproof.proofs.z3.queries import Prover

    v = find_variant("block-2p-d6").with_overrides({"block.confirmations": "all-others"})

    def cti() -> Any:
        (r,) = prove_all_sizes(v, ["blocked-sound"], timeout_ms=TIMEOUT_MS, seed=SEED)
        assert r.verdict is Verdict.NOT_INDUCTIVE, r.detail
        return r.trace

    first = cti()
    Prover(find_variant("tiny-2p-d3")).prove_all(sanity=True)
    assert cti() == first
    model = AbstractModel(v)
    assert model.v.ctx is not z3.main_ctx() and model.v.player.ctx is model.v.ctx


def test_an_unsatisfiable_premise_proves_nothing() -> None:
    """A false axiom makes every obligation unsat: the sanity checks catch it."""
    m = AbstractModel(find_variant("tiny-2p-d3"))
    m.axioms.append(("false", m.v.bool(False)))
    for r in prove_model(m, CORE, timeout_ms=TIMEOUT_MS, seed=SEED):
        assert r.verdict is Verdict.UNKNOWN
        assert "sanity check failed" in r.detail and "Init satisfiable" in r.detail


def test_an_action_without_successors_proves_nothing() -> None:
    m = AbstractModel(find_variant("tiny-2p-d3"))
    i = next(i for i, a in enumerate(m.actions) if a.name == "confirm")
    dead = m.v.bool(False)
    m.actions[i] = allsizes.Action("confirm", m.actions[i].kind, (), "never enabled", (),
                                   lambda s, xs: (dead, dead), m.actions[i].effect)
    for r in prove_model(m, ["no-false-confirmation", "procedure"], timeout_ms=TIMEOUT_MS,
                         seed=SEED):
        assert r.verdict is Verdict.UNKNOWN
        assert "confirm has a successor from Inv: expected sat, got unsat" in r.detail


def test_fragment_check_can_fail() -> None:
    p, q = z3.Consts("p q", z3.DeclareSort("Player"))
    r = z3.Function("r", p.sort(), p.sort(), z3.BoolSort())
    ok, edges = fragment_of([z3.ForAll([p], z3.Exists([q], r(p, q)))])
    assert not ok and edges == [("Player", "Player")]
    # The same formula under a negation is universal-existential the other way round.
    ok, edges = fragment_of([z3.Not(z3.ForAll([p], z3.Exists([q], r(p, q))))])
    assert ok and edges == []
    # A function from a sort to itself is a cycle too.
    f = z3.Function("f", p.sort(), p.sort())
    assert not fragment_of([z3.ForAll([p], r(p, f(p)))])[0]


def test_results_serialise_to_json() -> None:
    res = _results("", "all-others-confirm")
    text = json.dumps([r.to_json() for r in res.values()])
    back = json.loads(text)
    assert any(d["verdict"] == "NOT INDUCTIVE" and d["trace"]["action"] == "establish"
               for d in back)


# ---------------------------------------------------------------------------
# Slow tier: every preset, another seed
# ---------------------------------------------------------------------------


#: The presets whose layout the fragment cannot state, and the feature it names.
REFUSED = {"mextrain-4p-d12": "End -> Player, a cycle of the sort graph, outside EPR",
           "chickenfoot-4p-d9": "the first k - 1 closed toes",
           "matador-2p-d6": "Matador matching (R2.1)"}


@pytest.mark.slow
def test_every_preset_is_proved() -> None:
    """Every preset: each core property, and each layout property that applies, PROVED for
    all sizes -- unless a finding of the all-sizes column records why not (Sebastopol), or
    the preset's published rules already break it at their own size (a finding of its
    search); Mexican Train, Chicken Foot and Matador N/A, naming what leaves the fragment."""
    from dominoproof.expected import findings_of
    from dominoproof.model.variant import preset_names

    stated = 0
    for name in preset_names():
        v = find_variant(name)
        found = findings_of(v)
        broken = {prop for part, prop in found if part == "search"}
        for r in prove_all_sizes(v, [*CORE, *LAYOUT], timeout_ms=TIMEOUT_MS, seed=SEED):
            if name in REFUSED:
                assert r.verdict is Verdict.NOT_APPLICABLE, (name, r.property, r.verdict)
                if r.property in CORE:
                    assert "cannot be stated for every N and P" in r.detail, (name, r.detail)
                    assert REFUSED[name] in r.detail, (name, r.detail)
            elif r.property in LAYOUT and not BY_ID[r.property].applies_to(v):
                assert r.verdict is Verdict.NOT_APPLICABLE, (name, r.property)
            elif ("all sizes", r.property) in found:
                assert r.verdict.value == found["all sizes", r.property].verdict, (
                    name, r.property, r.detail)
            elif r.property in broken:
                assert r.verdict is not Verdict.PROVED, (name, r.property, r.detail)
            else:
                assert r.verdict is Verdict.PROVED, (name, r.property, r.detail)
                stated += r.property in LAYOUT
    assert stated >= 5  # All Fives: spinner-arms, readings-agree; Sebastopol: three more


@pytest.mark.slow
@pytest.mark.parametrize("fault", [None, "all-others-confirm"])
def test_verdicts_do_not_depend_on_the_seed(fault: str | None) -> None:
    v = FAULTS_BY_ID[fault].variant() if fault else find_variant("tiny-2p-d3")
    a = [r.verdict for r in prove_all_sizes(v, CORE, seed=0, fault=fault)]
    b = [r.verdict for r in prove_all_sizes(v, CORE, seed=12345, fault=fault)]
    assert a == b


#: For fouls-4p-d6 (a block game with fouls): the properties that fail when one
#: conjunct is left out of the candidate invariant (measured once, kept as data).
ABLATION: dict[str, frozenset[str]] = {
    "confirmed-after-lead": frozenset({"blocked-sound", "procedure"}),
    "confirmed-hold-nothing": frozenset({"blocked-sound", "procedure"}),
    "run-is-arc": frozenset({"procedure"}),
    "blocked-after-run": frozenset({"blocked-sound"}),
    "one-holder": frozenset({"conservation"}),
    "closed-before-lead": frozenset(),  # only for readable counterexamples
}


@pytest.mark.slow
@pytest.mark.parametrize("conjunct", list(ABLATION))
def test_each_needed_conjunct_is_needed(conjunct: str) -> None:
    m = AbstractModel(find_variant("fouls-4p-d6"))
    m.conjuncts[:] = [c for c in m.conjuncts if c.name != conjunct]
    rs = prove_model(m, CORE, timeout_ms=TIMEOUT_MS, seed=SEED)
    failing = {r.property for r in rs if r.verdict is not Verdict.PROVED}
    assert failing == ABLATION[conjunct]
    assert all(r.verdict is Verdict.NOT_INDUCTIVE for r in rs if r.property in failing)


def test_the_doc_names_every_part_of_the_model() -> None:
    """docs/ALLSIZES.md explains the model: it must name every axiom, action,
    conjunct and fault twin that the code has (for every rule setting)."""
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "ALLSIZES.md").read_text()
    models = [AbstractModel(VARIANTS[n]()) for n in VARIANTS]
    models += [AbstractModel(FAULTS_BY_ID[f].variant(), f) for f in TWINS]
    models += [AbstractModel(find_variant("tiny-2p-d3").with_overrides(o))
               for o in INSIDE.values()]
    names = {n for m in models for n, _ in m.axioms}
    names |= {a.name for m in models for a in m.actions}
    names |= {c.name for m in models for c in m.conjuncts}
    names |= set(TWINS) | set(CORE) | set(LAYOUT) | set(NOT_STATABLE)
    missing = sorted(n for n in names if f"`{n}`" not in doc)
    assert not missing


_NI = frozenset({"blocked-sound", "procedure"})

#: The rule matrix (fouls penalised): (draw rule, boneyard_must_be_empty,
#: confirmations) -> the core properties that are NOT INDUCTIVE; all others PROVED.
RULE_MATRIX: dict[tuple[str, bool, str], frozenset[str]] = {
    ("none", True, "all"): frozenset(),
    ("none", False, "all"): frozenset(),  # no stock: the check cannot matter
    ("until-playable", True, "all"): frozenset(),
    ("until-playable", False, "all"): frozenset(),  # only confirmations extend a run
    ("one", True, "all"): frozenset(),
    ("one", False, "all"): _NI,  # a pass with stock left extends the run
    ("none", True, "all-others"): _NI,
    ("none", False, "all-others"): _NI,
    ("until-playable", True, "all-others"): _NI,
    ("until-playable", False, "all-others"): _NI,
    ("one", True, "all-others"): _NI,
    ("one", False, "all-others"): _NI,
}


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(RULE_MATRIX), ids=lambda r: "-".join(map(str, r)))
def test_rule_matrix(rules: tuple[str, bool, str]) -> None:
    draw, empty, confirmations = rules
    overrides: dict[str, Any] = {"draw.rule": draw, "block.boneyard_must_be_empty": empty,
                                 "block.confirmations": confirmations,
                                 "fouls.rule": "penalised"}
    if draw == "none":
        overrides["deal.set_aside"] = 4  # every undealt tile of the double-3 set
    v = find_variant("tiny-2p-d3").with_overrides(overrides)
    for r in prove_all_sizes(v, CORE, timeout_ms=TIMEOUT_MS, seed=SEED):
        want = (Verdict.NOT_INDUCTIVE if r.property in RULE_MATRIX[rules]
                else Verdict.PROVED)
        assert r.verdict is want, (rules, r.property, r.detail)
