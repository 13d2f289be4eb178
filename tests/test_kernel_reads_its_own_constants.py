"""The kernel states each rule from the variant's parameters itself (issue 29, §6).

A slip planted in the specification's table of constants (R4.4's C, the lead tile, the
tile values the lead's fallback weighs) must show up as a disagreement of the
specification and the kernel -- it would not if the kernel read its table of rules
through the same constants.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers import variant

from dominoproof.model.constants import Constants, constants_of, make_constants
from dominoproof.model.fast import engine_for
from dominoproof.model.spec import Init, every_deal, spec_for
from dominoproof.model.variant import LeadFallback, Variant
from dominoproof.proofs import conformance as c
from dominoproof.proofs import kernel

pytestmark = pytest.mark.skipif(not kernel.available(), reason=kernel.status())

if kernel.available():
    from dominoproof.proofs.kernel.tables import tables_for


def _forget() -> None:
    for f in (make_constants, engine_for, spec_for, tables_for):
        f.cache_clear()


@pytest.fixture
def slip(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str, Any], None]]:
    """Plant the constant ``name`` of the specification's table as ``wrong(variant)``, in
    every module that reads the table."""
    def plant(name: str, wrong: Any) -> None:
        def slipped(v: Variant) -> Constants:
            return dataclasses.replace(constants_of(v), **{name: wrong(v)})
        # wherever the table is read: a reading that read it would carry the slip too
        for module in list(sys.modules.values()):
            if (getattr(module, "constants_of", None) is constants_of
                    and module is not sys.modules[__name__]):
                monkeypatch.setattr(module, "constants_of", slipped)
        _forget()

    _forget()
    yield plant
    monkeypatch.undo()
    _forget()


def _crosscheck(v: Variant, k: int = 2) -> c.Comparison:
    """The specification against the kernel on the states of ``k`` deals."""
    deals = random.Random(5).sample(list(every_deal(v, True)), k)
    states = c.reachable_states(v, [Init.one(d) for d in deals]).states
    return c.compare(v, states, c.get_oracle("spec", v), c.get_oracle("kernel", v))


def test_a_slip_in_the_confirmations_is_a_disagreement(slip: Any) -> None:
    v = variant("tiny-2p-d3")
    assert _crosscheck(v, k=5).ok
    slip("C", lambda v: constants_of(v).C - 1)
    res = _crosscheck(v, k=5)
    assert not res.ok
    d = res.disagreements()[0]
    assert (d.first, d.second) == ("spec", "kernel")
    assert str(d).startswith("internal disagreement: spec vs kernel on [")


def test_a_slip_in_the_lead_tile_is_a_disagreement(slip: Any) -> None:
    v = variant("partnership-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"})
    assert _crosscheck(v, k=1).ok
    slip("LEAD_TILE", lambda v: 0)
    res = _crosscheck(v, k=1)
    assert not res.ok
    assert any(m.kind.startswith("move only in") for m in res.mismatches), res.describe()


def test_a_slip_in_the_tile_values_is_a_disagreement_at_the_lead(slip: Any) -> None:
    v = variant("tiny-2p-d3", {"lead.rule": "tile", "lead.tile": "3-3",
                               "lead.fallback": "heaviest-tile"})
    deals = list(every_deal(v, True))
    spec, kern = c.get_oracle("spec", v), c.get_oracle("kernel", v)
    assert c.compare_initial(v, deals, spec, kern).ok
    slip("VALUE", lambda v: tuple(10 if t == 0 else p for t, p in enumerate(v.tiles.pips)))
    spec = c.get_oracle("spec", v)
    res = c.compare_initial(v, deals, spec, c.get_oracle("kernel", v))
    assert not res.ok, res.describe()


def test_a_slip_in_the_call_is_a_disagreement(slip: Any) -> None:
    """R4.7's call read off by the specification's table: the kernel, which states it from
    [block] itself, still calls the block at a dead end."""
    v = variant("tiny-2p-d3", {"block.call": "dead-end"})
    assert _crosscheck(v, k=6).ok
    slip("CALL", lambda v: False)
    assert not _crosscheck(v, k=6).ok


def test_a_slip_in_the_restart_on_a_marker_is_a_disagreement(slip: Any) -> None:
    """R4.4 restart_on_marker read off by the specification's table: the kernel, which
    states it from [block] itself, still restarts the run (confirmations disagree)."""
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3, "layout.kind": "trains",
                                "lead.rule": "highest-double", "block.restart_on_marker": True})
    assert _crosscheck(v, k=6).ok
    slip("RESTART", lambda v: False)
    res = _crosscheck(v, k=6)
    assert not res.ok, res.describe()


def test_a_slip_in_the_lead_fallback_is_a_disagreement(slip: Any) -> None:
    """R3.6 read off by the specification's table as the heaviest tile: the kernel, which
    states the fallback from [lead] itself, has the players draw for 3-3 instead."""
    v = variant("tiny-2p-d3", {"lead.fallback": "draw"})
    assert _crosscheck(v, k=6).ok
    slip("FALLBACK", lambda v: LeadFallback.HEAVIEST_TILE)
    res = _crosscheck(v, k=6)
    assert not res.ok, res.describe()


def test_a_slip_in_the_first_turn_is_a_disagreement(slip: Any) -> None:
    """R2.3 first_turn read off by the specification's table (its layout without first
    turns): the kernel, which states it from [layout] itself, still keeps a first turn
    going on one's own train."""
    v = variant("tiny-2p-d3", {"layout.kind": "trains", "lead.rule": "highest-double",
                               "layout.first_turn": "own-train"})
    assert _crosscheck(v, k=3).ok
    slip("LAYOUT", lambda v: dataclasses.replace(v.slot_layout, first_turn=False))
    res = _crosscheck(v, k=3)
    assert not res.ok, res.describe()
