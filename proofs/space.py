"""The whole parameter space in the main job: the readings compared on sampled variants.

``verify``'s self-test shows every deliberately broken rule set caught, on the presets'
rules and the faults' demos. A slip in a rule no preset uses would escape it: the
readings (the specification, the Z3 relation, the compiled kernel) would never be asked
about it. So the self-test also draws a seeded sample of variants from the *whole*
parameter space -- every section and every field of ``model/params.py``, read from the
variant's own definition (:func:`draw_overrides`), so a parameter is drawn the day it is
added -- at small sizes, and compares the readings on every state of one seeded deal's
complete search, transition by transition and on terminal outcomes (:func:`compare_on`).
A variant the validator refuses is drawn again; one whose search is too large for the
budget is compared on the states searched within it.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import typing
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.engine import seeded_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.params import Confirmations
from dominoproof.model.spec import Init
from dominoproof.model.tiles import Tile, tile_count
from dominoproof.model.variant import Variant, find_variant
from dominoproof.proofs.budgets import SPACE_STATES
from dominoproof.proofs.conformance import get_oracle
from dominoproof.proofs.kernel import reason as kernel_reason
from dominoproof.proofs.oracles import Comparison, compare_all
from dominoproof.proofs.search.statespace import explore

__all__ = ["SpaceReport", "compare_on", "draw_overrides", "sample", "self_test"]

#: the sizes drawn: double-2 or double-3 sets, 2 to 4 players, hands of 2 or 3 tiles
_SIZES = {"set.max": (2, 3), "deal.players": (2, 4), "deal.hand_size": (2, 3)}
#: a whole number of any other parameter is drawn from its range, at most this high
_SMALL = 4


def _choice(rng: random.Random, typ: Any, lo_hi: tuple[int, int] | None, v: dict[str, Any],
            name: str) -> Any:
    """One value of a parameter of type ``typ`` (its ``range`` metadata ``lo_hi``), given
    the sizes drawn so far in ``v``."""
    n, players = v["set.max"], v["deal.players"]
    if isinstance(typ, type) and issubclass(typ, enum.Enum):
        return rng.choice(list(typ)).value
    if typ is bool:
        return rng.random() < 0.5
    if typ is Confirmations:
        return rng.choice(["all", "all-others", rng.randint(1, players)])
    if typ is int:
        lo, hi = lo_hi or (0, _SMALL)
        hi = players - 1 if name == "lead.player" else min(hi, _SMALL)
        return rng.randint(lo, max(lo, hi))
    if typ is str:  # a tile of the set
        a = rng.randint(0, n)
        return str(Tile(rng.randint(0, a), a))
    if name == "partnerships.teams":
        if rng.random() < 0.5 or players < 4:
            return []
        seats = list(range(players))
        rng.shuffle(seats)
        return [sorted(seats[:2]), sorted(seats[2:])]
    if name == "scoring.tile_values":
        a = rng.randint(0, n)
        return {str(Tile(rng.randint(0, a), a)): rng.randint(0, 25)} if rng.random() < 0.3 \
            else {}
    raise TypeError(f"no way to draw {name} of type {typ!r}")  # pragma: no cover


def draw_overrides(rng: random.Random) -> dict[str, Any]:
    """Overrides of every parameter of every section, at small sizes (the deal's tiles
    set aside and the lead drawn to fit them)."""
    v: dict[str, Any] = {k: rng.randint(lo, hi) for k, (lo, hi) in _SIZES.items()}
    tiles = tile_count(v["set.max"])
    v["deal.players"] = min(v["deal.players"], tiles - 1)
    v["deal.hand_size"] = max(1, min(v["deal.hand_size"], (tiles - 1) // v["deal.players"]))
    for sec, cls in Variant.SECTIONS.items():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            name = f"{sec}.{f.name}"
            if name in v or name == "deal.set_aside":
                continue
            v[name] = _choice(rng, hints[f.name], f.metadata.get("range"), v, name)
    rest = tiles - v["deal.players"] * v["deal.hand_size"]
    v["deal.set_aside"] = rest if v["draw.rule"] == "none" else rng.randint(0, rest)
    return v


def sample(count: int, seed: int, *, attempts: int = 200) -> list[Variant]:
    """``count`` variants drawn from the parameter space with ``seed``; a draw the
    validator refuses (an impossible combination) is drawn again."""
    rng = random.Random(seed)
    base = find_variant("tiny-2p-d3")
    out: list[Variant] = []
    for i in range(count * attempts):
        if len(out) == count:
            break
        try:
            drawn = draw_overrides(rng)
            if drawn["layout.lead_double_takes"]:  # 0, or one tile on every slot it opens
                drawn["layout.lead_double_takes"] = base.with_overrides(
                    {**drawn, "layout.lead_double_takes": 0}).slot_layout.lead_double_opens
            v = base.with_overrides(drawn, source=f"<space {seed}.{i}>")
        except DominoproofError:
            continue
        out.append(dataclasses.replace(v, name=f"space-{seed}-{len(out)}"))
    return out


def compare_on(v: Variant, deal_seed: int, max_states: int = SPACE_STATES
               ) -> list[Comparison]:
    """The specification against the Z3 relation and the kernel (where it runs) on every
    state of one seeded deal's search (its first ``max_states`` states)."""
    deal = seeded_deal(v, deal_seed)
    r = explore(v, Init.one(deal), max_states=max_states, kernel=False)
    states = [r.state(i) for i in range(min(r.size, max_states))]
    others = [get_oracle("z3", v)]
    if not kernel_reason(v):
        others.append(get_oracle("kernel", v))
    return compare_all(v, states, get_oracle("spec", v), others)


@dataclass
class SpaceReport:
    """What the self-test over the parameter space compared, and any disagreement."""

    seed: int
    variants: int = 0
    states: int = 0
    transitions: int = 0
    terminal: int = 0
    readings: set[str] = field(default_factory=set)
    #: the first disagreement: the variant's overrides and the two readings' words
    disagreement: str = ""

    def summary(self) -> str:
        return (f"{self.variants} variants drawn from the whole parameter space (seed "
                f"{self.seed}), {self.states:,} states, {self.transitions:,} transitions and "
                f"{self.terminal:,} terminal states compared: specification vs "
                f"{' and '.join(sorted(self.readings))}")


def self_test(count: int, seed: int, max_states: int = SPACE_STATES) -> SpaceReport:
    """Draw ``count`` variants and compare the readings on each (:func:`compare_on`)."""
    rep = SpaceReport(seed)
    for i, v in enumerate(sample(count, seed)):
        found = compare_on(v, seed + i, max_states)
        rep.states += found[0].states  # each reading was asked about the same states
        rep.transitions += found[0].transitions
        rep.terminal += found[0].terminal
        for c in found:
            rep.readings.add(c.b)
            if not c.ok and not rep.disagreement:
                rep.disagreement = (f"{v.name} ({v.to_toml().strip().replace(chr(10), '; ')})"
                                    f": {c.summary()}: {c.mismatches[0].detail}")
        rep.variants += 1
    return rep
