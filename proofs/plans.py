"""Small configurations of a variant, for exhaustive search.

A preset is played with dozens of tiles; exhaustive search is for small sets
(double-0 to double-6). :func:`small_variant` keeps every rule of a variant -- the
draw rule, the R4 procedure, fouls, the lead rule, partnerships, scoring -- and
shrinks only the sizes: the set, the hands, the tiles set aside, and the number of
players where it must (at most 4). :func:`search_plan` then chooses which deals to
explore: every deal (and every draw order) when that is within reach, else a few
seeded deals. Whether all tiles are in play is kept, so that parity applies to the
small configuration exactly when it applies to the variant.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from dominoproof.model.system import Init, count_deals
from dominoproof.model.tiles import Tile, tile_count
from dominoproof.model.variant import DrawRule, LeadRule, Variant

from .statespace import seeded_deal

#: every-deal searches are planned up to this many deals
PLAN_DEALS = 5_000


def _size(v: Variant) -> tuple[int, int, int, int]:
    """(players, set, hand size, set aside) of the small configuration."""
    players = v.players if v.partnerships.teams else min(v.players, 3)
    players = min(players, 4)
    draw = v.draw.rule is not DrawRule.NONE
    if v.all_in_play and not draw:
        # every tile dealt: the smallest set from double-3 down whose tiles share out
        # evenly (double-3 with 2 players, double-2 with 3); with 4 players no small
        # set does, and tiles are set aside (the search then finds parity N/A)
        for n in (3, 2):
            if tile_count(n) % players == 0:
                return players, n, tile_count(n) // players, 0
    n = 3
    hand = 3 if players == 2 else 2
    rest = tile_count(n) - players * hand
    aside = min(v.deal.set_aside, max(0, rest - 2)) if draw else rest
    return players, n, hand, aside


def small_variant(v: Variant) -> Variant:
    """The same rules on a small set (see the module docstring)."""
    players, n, hand, aside = _size(v)
    o: dict[str, Any] = {"set.max": n, "deal.players": players, "deal.hand_size": hand,
                         "deal.set_aside": aside}
    if v.lead.rule is LeadRule.TILE:
        t = Tile.parse(v.lead.tile)
        if t.hi > n:  # the top double leads: the small set's top double
            if t.lo == t.hi == v.n:
                o["lead.tile"] = f"{n}-{n}"
            else:
                o["lead.rule"] = LeadRule.HIGHEST_DOUBLE.value
    if v.lead.player >= players:
        o["lead.player"] = 0
    c = v.block.confirmations
    if c not in ("all", "all-others") and int(c) > players:
        o["block.confirmations"] = players
    if v.scoring.tile_values:
        o["scoring.tile_values"] = {str(Tile.from_index(i)): val
                                    for i, val in v.scoring.tile_values
                                    if Tile.from_index(i).hi <= n}
    if players != v.players and v.partnerships.teams:  # pragma: no cover - presets keep 4
        o["partnerships.teams"] = []
        o["partnerships.compare"] = "player"
    small = v.with_overrides(o, source=f"{v.source} (small configuration)")
    return dataclasses.replace(small, name=f"{v.name}/small")


@dataclass(frozen=True)
class Plan:
    """One search of a verification: a variant and the deals to explore."""

    variant: Variant
    inits: tuple[Init, ...]
    description: str


def search_plan(v: Variant, seeds: int = 10) -> Plan:
    """Every deal (every draw order too, in a draw game) of the small configuration when
    that is within reach, else ``seeds`` seeded deals, each in every draw order."""
    small = small_variant(v)
    free = small.boneyard_size > 0
    deals = count_deals(small, free)
    shape = (f"double-{small.n}, {small.players} players x {small.deal.hand_size}"
             + (f", {small.deal.set_aside} set aside" if small.deal.set_aside else "")
             + (f", {small.boneyard_size} in the boneyard" if small.boneyard_size else ""))
    if deals <= PLAN_DEALS:
        order = ", every draw order" if free else ""
        return Plan(small, (Init.every(free_draw=free),),
                    f"{shape}: every deal ({deals:,}){order}")
    inits = tuple(Init.one(seeded_deal(small, seed), free_draw=free) for seed in range(seeds))
    order = ", every draw order" if free else ""
    return Plan(small, inits, f"{shape}: {seeds} seeded deals{order}")
