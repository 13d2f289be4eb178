"""The witness search's play-outs on the compiled kernel (``proofs/kernel/guided.py``).

``witness_search.play_rounds`` plays its guided rounds on the kernel where it can. Held
here to the Python path (``python_rounds``, the engine's own loop with
``dominoproof.proofs.analysis.policies.pick``):

* every policy's weights are the Python policy's on the same states (the states of
  Python rounds, so every kind of decision is met: leads, plays, false declarations);
* the same seed and policy give the same rounds, deal for deal and move for move;
* each round the kernel records replays in the engine (``Trace.states``) to the final
  state the kernel reached;
* the Python path runs, saying why, where the kernel does not (numba off, a fault's
  rule book, a policy it does not compile), and gives the same rounds.

Each check is shown able to fail: a kernel reading a deliberately broken table (the
confirmations a block needs; the tiles' values) plays rounds that do not replay, or
weighs moves otherwise than the Python policy.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np
import pytest
from helpers import variant

from dominoproof.model.engine import Trace
from dominoproof.model.errors import TraceError
from dominoproof.model.fast import engine_for
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.variant import Variant
from dominoproof.proofs import kernel
from dominoproof.proofs.analysis import witness_table as wt
from dominoproof.proofs.analysis.policies import BlockSeeking, Greedy, Policy, UniformRandom
from dominoproof.proofs.analysis.witness_search import (
    KERNEL,
    Lightest,
    Round,
    play_rounds,
    played_on,
    python_rounds,
)
from dominoproof.proofs.faults import FAULTS_BY_ID

pytestmark = pytest.mark.skipif(not kernel.available(), reason=kernel.status())

if kernel.available():
    from dominoproof.proofs.kernel import guided as kg
    from dominoproof.proofs.kernel import tables as kt

POLICIES: tuple[Policy, ...] = (UniformRandom(), BlockSeeking(), Lightest(), Greedy())
#: presets and a few layouts and rules the kernel reads (teams, fouls, draw-one, trains)
NAMES = ("tiny-2p-d3", "block-2p-d6", "draw-2p-d6", "partnership-4p-d6", "fouls-4p-d6",
         "draw-leave2-2p-d6", "draw-4p-d9")
LAYOUTS = {
    "draw-one-3p": ("draw-2p-d6", {"deal.players": 3, "deal.hand_size": 7, "draw.rule": "one",
                                   "scoring.tie": "split",
                                   "scoring.tile_values": {"0-0": 25}}),
    "trains": ("tiny-2p-d3", {"layout.kind": "trains"}),
    "spinner": ("tiny-2p-d3", {"layout.kind": "spinner", "layout.spinner_sides_first": True}),
    "covered-doubles": ("tiny-2p-d3", {"layout.double_takes": 1, "layout.double_again": True}),
}


def config(name: str) -> Variant:
    if name in LAYOUTS:
        preset, overrides = LAYOUTS[name]
        return variant(preset, overrides)
    return variant(name)


def kernel_weights(v: Variant, policy: Policy, tb: kt.Tables | None = None) -> \
        dict[tuple[object, ...], tuple[int, ...]]:
    """The kernel's weights on the decisions of Python rounds, by state and moves; and
    the Python policy's, for comparison (``tb``: a table to read instead of ``v``'s)."""
    rules = engine_for(v)
    tb = tb or kt.tables_for(v)
    side_of = {q: i for i, team in enumerate(v.teams) for q in team}
    side = np.array([side_of[q] for q in range(v.players)], dtype=np.int64)
    after = np.zeros(tb.frame, dtype=np.int64)
    scr = np.zeros(4 * tb.width + 8, dtype=np.int64)
    w = np.zeros(tb.max_moves, dtype=np.int64)
    codes = np.zeros(tb.max_moves, dtype=np.int64)
    from dominoproof.proofs.kernel.rules import gen_moves

    out = {}
    for deal, moves, _ in python_rounds(v, rules, UniformRandom(), 3, 30):
        trace = Trace(v, deal, moves)
        for s in trace.states()[:-1]:
            legal = rules.moves(s)
            if len(legal) < 2 or legal[0].kind.name == "DRAW":
                continue
            f = kt.frame_of(tb, s)
            k = gen_moves(tb.k, f, codes)
            total = kg.weights(tb.k, f, codes, k, kg.POLICY_CODES[policy.name], side, after,
                               scr, w)
            assert total == sum(w[:k])
            out[(s.key(), "kernel")] = tuple(int(x) for x in w[:k])
            out[(s.key(), "python")] = policy.weights(rules, s, legal)
    return out


def split(got: dict[tuple[object, ...], tuple[int, ...]]) -> tuple[list[object], list[object]]:
    ks = sorted({k for k, _ in got}, key=repr)
    return [got[(k, "kernel")] for k in ks], [got[(k, "python")] for k in ks]


@pytest.mark.parametrize("name", ["block-2p-d6", "partnership-4p-d6", "fouls-4p-d6",
                                  "draw-4p-d9", "draw-one-3p", "trains", "spinner"])
@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.name)
def test_kernel_policies_weigh_every_decision_as_the_python_ones(name: str,
                                                                 policy: Policy) -> None:
    ours, theirs = split(kernel_weights(config(name), policy))
    assert len(ours) > 20
    assert ours == theirs


def test_kernel_weights_differ_when_the_kernel_reads_other_values() -> None:
    """A kernel reading every tile's value reversed plays other lightest and greedy
    tiles: the comparison catches it."""
    v = variant("block-2p-d6")
    tb = kt.tables_for(v)
    k = tb.k.copy()
    o = int(k[kt.O_VALUE])
    k[o:o + tb.tiles] = k[o:o + tb.tiles][::-1].copy()
    bad = dataclasses.replace(tb, k=k)
    for policy in (Lightest(), Greedy()):
        ours, theirs = split(kernel_weights(v, policy, bad))
        assert ours != theirs


def rounds_equal(a: list[Round], b: list[Round]) -> None:
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        assert x == y, f"round {i}"


@pytest.mark.parametrize("name", [*NAMES, *LAYOUTS])
def test_same_seed_same_rounds_on_the_kernel_and_in_python(name: str) -> None:
    v = config(name)
    rules = engine_for(v)
    assert played_on(v, rules, POLICIES[1]) == KERNEL
    for policy, seed in itertools.product(POLICIES, (0, 5)):
        rounds_equal(list(play_rounds(v, rules, policy, seed, 25)),
                     list(python_rounds(v, rules, policy, seed, 25)))


@pytest.mark.parametrize("name", [*NAMES, *LAYOUTS])
def test_a_kernel_round_replays_in_the_engine(name: str) -> None:
    v = config(name)
    for policy in POLICIES:
        stream = kg.GuidedRounds(v, kg.POLICY_CODES[policy.name], 9, room=64)
        for deal, moves, final in stream.play(12):  # room=64: records grow as needed
            assert Trace(v, deal, moves).states()[-1] == final


def test_a_round_of_a_broken_kernel_does_not_replay() -> None:
    """A kernel that establishes a block after one confirmation (the variant needs two)
    records rounds the engine refuses: the replay catches it."""
    v = variant("block-2p-d6")
    stream = kg.GuidedRounds(v, kg.BLOCKING, 1)
    k = stream.tb.k.copy()
    k[kt.C] = 1
    stream.tb = dataclasses.replace(stream.tb, k=k)
    refused = 0
    for deal, moves, _ in stream.play(30):
        try:
            Trace(v, deal, moves).states()
        except TraceError:
            refused += 1
    assert refused > 0


def test_the_python_path_runs_where_the_kernel_does_not_and_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    v = variant("draw-2p-d6")
    fault = FAULTS_BY_ID["establish-without-boneyard-check"]
    mutant: RuleBook = fault.engine_for(v)
    assert "not the variant's own" in played_on(v, mutant, UniformRandom())

    class Heavy(Greedy):  # a policy the kernel does not compile (it may weigh otherwise)
        pass

    assert "no compiled policy" in played_on(v, engine_for(v), Heavy())
    kernel_rounds = list(play_rounds(v, engine_for(v), BlockSeeking(), 4, 10))
    monkeypatch.setenv(kernel.ENV, "0")
    assert "Python path" in played_on(v, engine_for(v), BlockSeeking())
    rounds_equal(list(play_rounds(v, engine_for(v), BlockSeeking(), 4, 10)), kernel_rounds)


def test_the_kernels_machine_code_is_loaded_before_the_answers_clock_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget an answer is given counts the search and Z3, not the first load of the
    kernel's machine code (some seconds on a fresh installation): ``warm`` runs before
    the clock is first read (no clock is read to judge it: nothing here is timed)."""
    seen: list[str] = []
    real_warm = wt.warm

    def warm(v: Variant, rules: RuleBook | None = None) -> None:
        seen.append("warm")
        real_warm(v, rules)

    def clock() -> float:
        seen.append("clock")
        return time.perf_counter()

    monkeypatch.setattr(wt, "warm", warm)
    monkeypatch.setattr(wt, "time", types.SimpleNamespace(perf_counter=clock))
    wt.answer(variant("tiny-2p-d3"), "tie", 60)
    assert seen[:2] == ["warm", "clock"], seen


@pytest.mark.slow
def test_a_fresh_installation_compiles_the_kernel_and_answers(tmp_path: Path) -> None:
    """With an empty numba cache the play-outs' machine code is compiled (some seconds,
    more on a loaded machine) and the tie of the double-3 game is found: a fresh
    installation's kernel works end to end. The budget is wide on purpose: that the
    compilation is outside it is the test above, which reads no clock."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    out = subprocess.run([sys.executable, "-c", "from dominoproof.cli import main; main()",
                          "witnesses", "tiny",
                          "--question", "tie", "--seconds", "120"], env=env, text=True,
                         capture_output=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"tiny-2p-d3\s+tie\s+yes \(\d+ moves\)", out.stdout), out.stdout
