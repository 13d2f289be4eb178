"""Every fault of ``proofs/faults.py`` is caught by Z3 too (``proofs/z3/encoding_faults.py``).

For each fault, its twin encoding (or scoring, or just its variant) makes every
property the fault is expected to break VIOLATED, with a round from a real deal that
the fault's own engine replays to the same states; the correct rules prove the same
property on the same configuration, so the check is shown able to fail and to pass.
"""

from __future__ import annotations

import pytest
from helpers import AWAITING_Z3, awaiting_z3_twin, with_z3_twin

from dominoproof.model.variant import find_variant
from dominoproof.proofs.faults import FAULTS, FAULTS_BY_ID
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.search.rounds import replay
from dominoproof.proofs.z3.encoding_faults import Z3_MUTANTS, Z3_UNSTATED, twin_prover
from dominoproof.proofs.z3.queries import Prover, Run

CASES = [with_z3_twin(f.id, pid) for f in FAULTS for pid in f.catches]


def test_every_fault_has_a_twin() -> None:
    awaited = sorted(f.id for f in FAULTS if awaiting_z3_twin(f.id))
    for fid, twin in Z3_MUTANTS.items():
        f = FAULTS_BY_ID[fid]
        if f.engine is not None:
            assert twin.encoding is not None, fid
        if f.scorer is not None:
            assert twin.scoring is not None, fid
        if twin.encoding is None and twin.scoring is None:
            assert f.variant_overrides, fid
    if awaited:
        pytest.xfail(f"{', '.join(awaited)}: {AWAITING_Z3}")
    assert set(Z3_MUTANTS) | set(Z3_UNSTATED) == set(FAULTS_BY_ID)


@pytest.mark.parametrize(("fault", "pid"), CASES)
def test_the_twin_violates_what_the_fault_breaks(fault: str, pid: str) -> None:
    f = FAULTS_BY_ID[fault]
    r = twin_prover(f).prove(pid)
    assert r.verdict is Verdict.VIOLATED, (fault, pid, r.verdict, r.detail)
    assert r.method.startswith("bounded to depth")
    run = r.trace
    assert isinstance(run, Run)
    assert run.replayed, run.mismatch
    # the fault's engine replays the trace (graphcheck's replay, independent of ours)
    states = replay(run.trace, f.engine_for(run.trace.variant))
    assert [s.key()[:-1] for s in states] == [s.key()[:-1] for s in run.states]


@pytest.mark.slow
@pytest.mark.parametrize(("fault", "pid"), CASES)
def test_the_correct_rules_prove_it_on_the_same_configuration(fault: str, pid: str) -> None:
    """Without the fault (the demo preset and its demo overrides, not the fault's own
    variant overrides), the property is PROVED: the violation is the fault's doing."""
    f = FAULTS_BY_ID[fault]
    v = find_variant(f.demo)
    if f.demo_overrides:
        v = v.with_overrides(dict(f.demo_overrides))
    r = Prover(v).prove(pid)
    assert r.verdict is Verdict.PROVED, (fault, pid, r.detail)


def test_a_variant_fault_is_false_not_merely_not_inductive() -> None:
    """"all-others-confirm" is a real violation: BMC finds a round, from a real deal, that
    the engine of the correct rules replays (the variant is legal, its guarantee is not)."""
    pr = twin_prover("all-others-confirm")
    r = pr.prove("blocked-sound")
    assert r.verdict is Verdict.VIOLATED
    run = r.trace
    final = run.trace.final  # the engine's own replay (Trace.states)
    assert final.status.name == "BLOCKED"
    ts = pr.variant.tiles
    assert any(set(final.ends) & set(ts.halves[t]) for h in final.hands
               for t in range(ts.count) if h >> t & 1)
