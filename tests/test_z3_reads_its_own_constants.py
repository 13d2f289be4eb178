"""The Z3 relation states each rule from the variant's parameters itself (issue 29, §6).

A slip planted in the specification's table of constants, which the engine reads its
rules through (the sides that score, the tile values, the lead tile, the layout's slots),
must show up as a disagreement of the engine and the Z3 relation in the cross-check
``verify`` runs -- it would not if the Z3 side read the rule through the same table.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers import variant

from dominoproof.model.constants import Constants, constants_of, make_constants
from dominoproof.model.fast import engine_for
from dominoproof.model.layout import Shape, SlotLayout, topology
from dominoproof.model.spec import Init, every_deal, spec_for
from dominoproof.model.state import Status
from dominoproof.model.variant import AwardUnit, BlockWinner, LeadFallback, Variant
from dominoproof.proofs import conformance as c
from dominoproof.proofs.z3 import scoring, successors


def _forget() -> None:
    for f in (make_constants, engine_for, spec_for, successors._oracle,
              scoring._classifier, scoring.score_reader):
        f.cache_clear()


@pytest.fixture
def slip(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str, Any], None]]:
    """Plant the constant ``name`` of the specification's table as ``wrong(variant)``."""
    def plant(name: str, wrong: Any) -> None:
        def slipped(v: Variant) -> Constants:
            return dataclasses.replace(constants_of(v), **{name: wrong(v)})
        for module in map(importlib.import_module, ("dominoproof.model.spec",
                                                    "dominoproof.model.outcome")):
            monkeypatch.setattr(module, "constants_of", slipped)
        _forget()

    _forget()
    yield plant
    monkeypatch.undo()
    _forget()


def _crosscheck(v: Variant, *, terminal: bool, k: int = 2) -> c.Comparison:
    """The engine against the Z3 relation (the comparison ``verify`` runs) on the
    states of ``k`` deals (only their finished states when ``terminal``)."""
    rng = random.Random(5)
    deals = rng.sample(list(every_deal(v, True)), k)
    states = c.reachable_states(v, [Init.one(d) for d in deals]).states
    if terminal:
        states = [s for s in states if s.status is not Status.PLAYING][:40]
    return c.compare(v, states, c.get_oracle("engine", v), c.get_oracle("z3", v))


def test_a_slip_in_the_tile_values_is_a_disagreement(slip: Any) -> None:
    v = variant("tiny-2p-d3")
    assert _crosscheck(v, terminal=True).ok
    slip("VALUE", lambda v: tuple(p + (t == 0) for t, p in enumerate(v.tiles.pips)))
    res = _crosscheck(v, terminal=True)
    assert not res.ok
    assert any(m.kind == "classification" for m in res.mismatches), res.describe()


@pytest.mark.parametrize(("name", "wrong"), [
    ("WINNER", BlockWinner.FEWEST_PIPS), ("UNIT", AwardUnit.PIPS)])
def test_a_slip_in_what_a_block_counts_is_a_disagreement(
        slip: Any, name: str, wrong: Any) -> None:
    """R5.2a and R5.4's unit: the Z3 scoring reads [scoring] block_winner and award_unit
    itself, so a table that forgets them disagrees with it."""
    v = variant("tiny-2p-d3", {"scoring.block_winner": "fewest-tiles",
                               "scoring.award_unit": "tiles"})
    assert _crosscheck(v, terminal=True, k=4).ok
    slip(name, lambda v: wrong)
    res = _crosscheck(v, terminal=True, k=4)
    assert not res.ok and "internal disagreement: engine vs z3" in res.describe()


def test_a_slip_in_the_teams_is_a_disagreement(slip: Any) -> None:
    v = variant("partnership-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"})
    assert _crosscheck(v, terminal=True, k=4).ok
    slip("SIDES", lambda v: ((0, 1), (2, 3)))
    res = _crosscheck(v, terminal=True, k=4)
    assert not res.ok and "internal disagreement: engine vs z3" in res.describe()


def test_a_slip_in_the_lead_tile_is_a_disagreement(slip: Any) -> None:
    v = variant("partnership-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"})
    slip("LEAD_TILE", lambda v: 0)
    res = _crosscheck(v, terminal=False, k=1)
    assert not res.ok
    assert any(m.kind.startswith("move only in") for m in res.mismatches), res.describe()
    d = next(d for d in res.disagreements() if d.move is not None)
    assert (d.first, d.second) == ("engine", "z3")
    assert str(d).startswith("internal disagreement: engine vs z3 on [")
    assert f"at the move {d.move}: " in str(d)


def test_a_slip_in_the_layouts_slots_is_a_disagreement(slip: Any) -> None:
    v = variant("all-fives-2p-d6", {"set.max": 3, "deal.hand_size": 3, "lead.tile": "3-3"})
    assert v.layout.spinner_sides_first
    assert _crosscheck(v, terminal=False, k=1).ok

    def arms_never_wait(v: Variant) -> SlotLayout:
        lay = v.layout
        return topology(Shape(lay.kind, v.deal.players, v.set.max, False,
                              lay.lead_double_takes, lay.double_takes, lay.double_again))

    slip("LAYOUT", arms_never_wait)
    res = _crosscheck(v, terminal=False, k=1)
    assert not res.ok and "internal disagreement: engine vs z3" in res.describe()


def test_a_slip_in_the_call_is_a_disagreement(slip: Any) -> None:
    """R4.7's call read off by the specification's table: the Z3 relation, which states
    it from [block] itself, still calls the block at a dead end."""
    v = variant("tiny-2p-d3", {"block.call": "dead-end"})
    assert _crosscheck(v, terminal=False, k=6).ok
    slip("CALL", lambda v: False)
    assert not _crosscheck(v, terminal=False, k=6).ok


def test_a_slip_in_the_restart_on_a_marker_is_a_disagreement(slip: Any) -> None:
    """R4.4 restart_on_marker read off by the specification's table: the Z3 relation,
    which states it from [block] itself, still restarts the run."""
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3, "layout.kind": "trains",
                                "lead.rule": "highest-double", "block.restart_on_marker": True})
    assert _crosscheck(v, terminal=False, k=6).ok
    slip("RESTART", lambda v: False)
    res = _crosscheck(v, terminal=False, k=6)
    assert not res.ok, res.describe()


def test_a_slip_in_the_lead_fallback_is_a_disagreement(slip: Any) -> None:
    """R3.6 read off by the specification's table as the heaviest tile: the Z3 relation,
    which states the fallback from [lead] itself, has the players draw for 3-3 instead."""
    v = variant("tiny-2p-d3", {"lead.fallback": "draw"})
    assert _crosscheck(v, terminal=False, k=6).ok
    slip("FALLBACK", lambda v: LeadFallback.HEAVIEST_TILE)
    res = _crosscheck(v, terminal=False, k=6)
    assert not res.ok, res.describe()


def test_a_slip_in_the_first_turn_is_a_disagreement(slip: Any) -> None:
    """R2.3 first_turn read off by the specification's table (its layout without first
    turns): the Z3 relation, which states the slots from [layout] itself, still keeps a
    first turn going on one's own train."""
    v = variant("tiny-2p-d3", {"layout.kind": "trains", "lead.rule": "highest-double",
                               "layout.first_turn": "own-train"})
    assert _crosscheck(v, terminal=False, k=2).ok
    slip("LAYOUT", lambda v: dataclasses.replace(v.slot_layout, first_turn=False))
    res = _crosscheck(v, terminal=False, k=2)
    assert not res.ok and "internal disagreement: engine vs z3" in res.describe()
