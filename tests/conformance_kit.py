"""The conformance suite's common steps: deals sampled, a configuration explored and its
states compared by every oracle (the engine, the reference, the specification's named
actions, the kernel), and what a comparison must show. Used by ``test_conformance.py``
and ``test_conformance_layouts.py``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from reference_rules import ReferenceOracle

from dominoproof.model import MoveKind, State, Status
from dominoproof.model.fast import engine_for
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init, every_deal
from dominoproof.model.state import Deal
from dominoproof.model.variant import Variant
from dominoproof.proofs import conformance as c
from dominoproof.proofs import kernel

SMALL = {"set.max": 3, "deal.hand_size": 3}


def sample(v: Variant, k: int, seed: int, *, shuffle_stack: bool = True) -> list[Deal]:
    """``k`` deals of ``v`` (distinct hands), each boneyard in a random draw order."""
    rng = random.Random(seed)
    deals = list(every_deal(v, True))
    picked = rng.sample(deals, min(k, len(deals)))
    if not shuffle_stack:
        return picked
    out = []
    for d in picked:
        stack = list(d.stack)
        rng.shuffle(stack)
        out.append(Deal(d.hands, tuple(stack), d.set_aside))
    return out


def configs(deals: Iterable[Deal], free_draw: bool = False) -> list[Init]:
    return [Init.one(d, free_draw) for d in deals]


def check(v: Variant, inits: Init | list[Init], *, rules: RuleBook | None = None,
          scorer: Any = None) -> tuple[c.Comparison, list[State]]:
    """Explore with the project's search, then compare the engine with the reference and
    (for the correct rules) with the specification's named actions, on every state."""
    reach = c.reachable_states(v, inits, rules=rules)
    assert reach.complete and reach.method == "statespace.explore"
    engine = c.EngineOracle(v, rules, scorer)
    others: list[c.Oracle] = [ReferenceOracle(v)]
    if rules is None and scorer is None:
        others.append(c.get_oracle("spec", v))
        if kernel.available() and not kernel.reason(v):  # tests/test_kernel.py
            others.append(c.get_oracle("kernel", v))
    res, *more = c.compare_all(v, reach.states, engine, others)  # the engine asked once
    for m in more:
        res.merge(m)
    return res, reach.states


def move_kinds(v: Variant, states: Iterable[State]) -> Counter[str]:
    """What the compared states exercise (so that no check passes vacuously)."""
    rules = engine_for(v)
    seen: Counter[str] = Counter()
    for s in states:
        if s.status is not Status.PLAYING:
            seen[s.status.name.lower()] += 1
        for m in rules.legal_moves(s):
            name = m.kind.label
            if m.kind is MoveKind.CONFIRM and rules.playable_mask(s, s.turn):
                name = "foul"
            if m.kind is MoveKind.PLAY and m.end == -1:
                name = "lead"
            if m.kind is MoveKind.DRAW and not s.led:
                name = "draw for the lead"  # R3.6
            seen[name] += 1
    return seen


def assert_agree(res: c.Comparison) -> None:
    assert res.ok, res.describe()
    assert res.states > 0 and res.transitions > 0 and res.terminal > 0
