"""The self-test over the whole parameter space (``proofs/space.py``): variants drawn from
every field of ``model/params.py``, and the readings compared on each; a slip planted in
one reading is found."""

from __future__ import annotations

import dataclasses
import enum
import random
import typing

import pytest

from dominoproof.model import spec
from dominoproof.model.variant import Variant
from dominoproof.proofs.space import draw_overrides, sample, self_test


def test_every_parameter_of_every_section_is_drawn() -> None:
    """A parameter is drawn the day it is added: every field of every section takes more
    than one value over a few dozen draws (a number, an enumeration, a flag)."""
    rng = random.Random(0)
    seen: dict[str, set[str]] = {}
    for _ in range(80):
        for k, x in draw_overrides(rng).items():
            seen.setdefault(k, set()).add(repr(x))
    for sec, cls in Variant.SECTIONS.items():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            typ = hints[f.name]
            single = isinstance(typ, type) and issubclass(typ, enum.Enum) and len(typ) == 1
            assert len(seen[f"{sec}.{f.name}"]) > (0 if single else 1), (
                f"{sec}.{f.name} is always the same")


def test_the_sample_is_seeded_and_valid() -> None:
    a, b = sample(6, 3), sample(6, 3)
    assert [v.to_toml() for v in a] == [v.to_toml() for v in b]
    assert len(a) == 6 and len({v.layout.kind for v in sample(24, 0)}) > 1


def test_the_readings_agree_over_the_sample() -> None:
    rep = self_test(8, 0)
    assert not rep.disagreement
    assert rep.variants == 8 and rep.states > 0 and rep.transitions > 0
    assert "z3" in rep.readings
    assert rep.summary().startswith("8 variants drawn from the whole parameter space")


def test_a_slip_in_one_reading_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The specification's R4.4 made one confirmation short: the Z3 relation (and the
    kernel) disagree with it on some sampled variant."""
    right = spec.Rules.block_ready
    monkeypatch.setattr(spec.Rules, "block_ready",
                        lambda self, s: right(self, s) or (
                            s.confirmed == self.C - 1 > 0 and s.boneyard == 0))
    spec.spec_for.cache_clear()
    try:
        rep = self_test(24, 0)
    finally:
        spec.spec_for.cache_clear()
    assert rep.disagreement and "spec vs" in rep.disagreement
