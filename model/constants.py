"""The constants of the transition system, one record derived from a variant.

``docs/SEMANTICS.md`` opens with a table of constants (``N``, ``T``, ``P``, ``H``,
``K``, ``DRAW``, ``C``, ``EMPTY``, ``FOULS``, the lead, the layout's slots). This
module is that table: :class:`Constants` holds each under the one spelling the
specification uses, derived from the :class:`~dominoproof.model.variant.Variant`
once (:func:`constants_of`). Every reading of the rules -- the engine, the Z3
encoding, the all-sizes model, the search's codec, the renderer -- reads its
parameters here, so a parameter has one name wherever the rules are written.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .layout import SlotLayout, layout_data
from .matching import fits_masks
from .tiles import Tile, TileSet, tile_index
from .variant import (
    AwardUnit,
    BlockCall,
    BlockWinner,
    Compare,
    DrawRule,
    DrawWhen,
    ExtendReading,
    FoulRule,
    InPlay,
    LeadFallback,
    LeadRule,
    Variant,
)

__all__ = ["Constants", "constants_of", "make_constants"]


@dataclass(frozen=True)
class Constants:
    """SEMANTICS.md's constants table (the variant's ``[section] key`` in brackets)."""

    N: int  #: the set is double-N [set.max]
    T: int  #: tiles in the set, (N+1)(N+2)/2
    P: int  #: players, seats 0..P-1 [deal.players]
    H: int  #: tiles dealt to each player [deal.hand_size]
    K: int  #: tiles set aside, never drawn [deal.set_aside]
    B: int  #: tiles in the boneyard after the deal, T - P*H - K
    DRAW: DrawRule  #: R3.1 [draw.rule]
    WHEN: DrawWhen  #: R3.5: who may draw, "unable" or "any-time" [draw.when]
    C: int  #: R4.4: confirmations that establish a block [block.confirmations]
    EMPTY: bool  #: R4.4: a confirmation counts only with the boneyard empty
    RESTART: bool  #: R4.4: a confirmation putting a marker out restarts the run at 1
    CALL: bool  #: R4.7: a player may call the block at a dead end [block.call]
    FOULS: FoulRule  #: R4.5 [fouls.rule]
    LEAD: LeadRule  #: who opens [lead.rule]
    LEADER: int  #: the seat of lead rule "player" and fallback "player" [lead.player]
    LEAD_TILE: int | None  #: the tile of lead rule "tile" [lead.tile]
    FALLBACK: LeadFallback  #: when nobody holds the named tile [lead.fallback]
    LAYOUT: SlotLayout  #: the layout's slots [layout.kind]
    READING: ExtendReading  #: R2.3: what "can be extended" means [layout.extend]
    VALUE: tuple[int, ...]  #: R5.3: each tile's value (pips, or the special value)
    SIDES: tuple[tuple[int, ...], ...]  #: R5.2: the sides that score (teams, or seats)
    WINNER: BlockWinner  #: R5.2a: what wins a block: fewest pips or tiles [scoring.block_winner]
    UNIT: AwardUnit  #: R5.4: what the awards count: pips or tiles [scoring.award_unit]
    tiles: TileSet  #: the set itself: halves, suits, doubles
    FITS: tuple[int, ...]  #: R2.1: the tiles that may be laid on an end showing x [layout.match]
    FIVES: bool = False  #: R5.7: a play scores the ends' count when it is a multiple of 5


def constants_of(v: Variant) -> Constants:
    """The constants of ``v`` (cached: one record per rule book, kept on the variant
    itself too, as its hash is: the engine and the judge ask for them several times per
    state, and finding an equal variant in a cache compares every parameter)."""
    return v.derived(make_constants)


@cache
def make_constants(v: Variant) -> Constants:
    """The constants of ``v``, made (cached across equal variants; ``constants_of``
    reads them). The rules that turn the variant's parameters into a constant -- C, the
    sides, the tile values, the lead tile -- are stated here, for the specification and
    the engine, from the parameters alone."""
    players, tiles = v.deal.players, v.tiles
    confirmations = v.block.confirmations  # R4.4: "all", "all-others" or a number
    c = (players if confirmations.rule == "all" else players - 1
         if confirmations.rule == "all-others" else confirmations.count)
    sides = (v.partnerships.teams if v.partnerships.compare is Compare.TEAM
             else tuple((p,) for p in range(players)))  # R5.2: teams, or one side per seat
    special = dict(v.scoring.tile_values)  # R5.3: pips, or the tile's special value
    value = tuple(special.get(i, pips) for i, pips in enumerate(tiles.pips))
    lead_tile = (tile_index(*Tile.parse(v.lead.tile)) if v.lead.rule is LeadRule.TILE
                 else None)
    return Constants(
        N=v.set.max, T=tiles.count, P=players, H=v.deal.hand_size,
        K=v.deal.set_aside, B=v.boneyard_size, DRAW=v.draw.rule, WHEN=v.draw.when, C=c,
        EMPTY=v.block.boneyard_must_be_empty, FOULS=v.fouls.rule, LEAD=v.lead.rule,
        LEADER=v.lead.player, LEAD_TILE=lead_tile, FALLBACK=v.lead.fallback,
        LAYOUT=layout_data(v), READING=v.layout.extend, VALUE=value, SIDES=sides,
        WINNER=v.scoring.block_winner, UNIT=v.scoring.award_unit, tiles=tiles,
        RESTART=v.block.restart_on_marker, CALL=v.block.call is BlockCall.DEAD_END,
        FITS=fits_masks(tiles, v.slot_layout.match_total),
        FIVES=v.scoring.in_play is InPlay.FIVES,
    )

