"""SEMANTICS "Constants", read by the Z3 relation from the variant's own parameters.

The Z3 relation is an independent reading of the rules: it states each rule from the
variant's ``[section] key`` values itself and never asks a helper of the engine's
reading (``Variant.teams``, ``Variant.tile_value``, ``Variant.lead_tile_index``,
``Variant.needed_confirmations``, ``constants_of``) to decide one, so a slip in such a
helper shows up as a disagreement of the engine and this reading. What is shared is
representation only: the tile numbering (``tile_index``, ``TileSet.halves``) by which
states are bitmasks, and the bit layout of ``State.marks``. The layout's slots (which
slot the lead opens, who may play on it, what it waits for, what a double laid there
takes) are stated here from ``[layout]`` too (:func:`slots_of`), not taken from
``Variant.slot_layout``.
"""

from __future__ import annotations

from dataclasses import dataclass

from dominoproof.model.layout import (
    Access,
    FirstTurn,
    LayoutKind,
    Match,
    Opens,
    OpenTrains,
    OutOnDouble,
    PublicTrain,
    Slot,
    SlotLayout,
)
from dominoproof.model.params import AwardUnit, BlockCall, BlockWinner, Compare, InPlay
from dominoproof.model.tiles import Tile, tile_index
from dominoproof.model.variant import DrawRule, DrawWhen, ExtendReading, FoulRule, LeadRule, Variant


@dataclass(frozen=True)
class Z3Constants:
    """SEMANTICS' constants table, as this reading states it."""

    N: int  #: the set is double-N [set.max]
    T: int  #: tiles in the set, (N+1)(N+2)/2
    P: int  #: players [deal.players]
    H: int  #: tiles dealt to each player [deal.hand_size]
    K: int  #: tiles set aside [deal.set_aside]
    B: int  #: tiles in the boneyard after the deal, T - P*H - K
    C: int  #: R4.4: confirmations that establish a block [block.confirmations]
    EMPTY: bool  #: R4.4 [block.boneyard_must_be_empty]
    RESTART: bool  #: R4.4: a marker put out restarts the run [block.restart_on_marker]
    CALL: bool  #: R4.7: a dead end may be called [block.call = "dead-end"]
    DRAW: DrawRule  #: R3.1 [draw.rule]
    ANY_TIME: bool  #: R3.5: a player who can play may draw too [draw.when = "any-time"]
    FOULS: FoulRule  #: R4.5 [fouls.rule]
    READING: ExtendReading  #: R2.3 [layout.extend]
    LAYOUT: SlotLayout  #: the layout's slots
    LEAD_TILE: int | None  #: the tile of lead rule "tile" [lead.tile]
    VALUE: tuple[int, ...]  #: R5.3: a tile's value, a+b or [scoring.tile_values]
    SIDES: tuple[tuple[int, ...], ...]  #: R5.2: the teams, or one side per seat
    halves: tuple[tuple[int, int], ...]  #: each tile's halves a <= b (the numbering)
    BY_TILES: bool  #: R5.2a: a block is won by the fewest tiles [scoring.block_winner]
    AWARD_TILES: bool  #: R5.4: the awards count tiles, not pips [scoring.award_unit]
    #: R5.7: a play scores the ends' count when it is a multiple of this (5), 0 where plays
    #: score nothing [scoring.in_play]
    FIVES: int = 0


def read_constants(v: Variant) -> Z3Constants:
    """The constants of ``v``, each stated from the variant's parameters (see the module
    docstring)."""
    n, p = v.set.max, v.deal.players
    t = (n + 1) * (n + 2) // 2
    h, k = v.deal.hand_size, v.deal.set_aside
    conf = v.block.confirmations
    # R4.4: "all" seats confirm, "all-others" all but the one who proposed, or a number
    c = p if conf.rule == "all" else p - 1 if conf.rule == "all-others" else conf.count
    halves = v.tiles.halves
    special = dict(v.scoring.tile_values)
    # R5.2: the sides that score are the teams when teams compare totals, else each seat
    sides = (tuple(tuple(team) for team in v.partnerships.teams)
             if v.partnerships.compare is Compare.TEAM else tuple((q,) for q in range(p)))
    lead = tile_index(*Tile.parse(v.lead.tile)) if v.lead.rule is LeadRule.TILE else None
    return Z3Constants(
        N=n, T=t, P=p, H=h, K=k, B=t - p * h - k, C=c,
        EMPTY=v.block.boneyard_must_be_empty, DRAW=v.draw.rule,
        ANY_TIME=v.draw.when is DrawWhen.ANY_TIME, FOULS=v.fouls.rule,
        READING=v.layout.extend, LAYOUT=slots_of(v), LEAD_TILE=lead,
        VALUE=tuple(special.get(i, a + b) for i, (a, b) in enumerate(halves)),
        SIDES=sides, halves=halves,
        BY_TILES=v.scoring.block_winner is BlockWinner.FEWEST_TILES,
        AWARD_TILES=v.scoring.award_unit is AwardUnit.TILES,
        RESTART=v.block.restart_on_marker, CALL=v.block.call is BlockCall.DEAD_END,
        FIVES=5 if v.scoring.in_play is InPlay.FIVES else 0)


def slots_of(v: Variant) -> SlotLayout:
    """The layout's slots as SEMANTICS "Constants" describes each topology, from the
    variant's ``[layout]`` and ``[deal] players`` (Terms "Layout", R2.2)."""
    lay, p = v.layout, v.deal.players
    takes = lay.double_takes
    # R2.2: a double that would wait is no player's last tile, where doubles take tiles;
    # R2.1: under Matador, touching halves sum to N+1 (0: equal numbers match)
    extra = {"lead_takes": lay.lead_double_takes, "again": lay.double_again,
             "cover_out": bool(takes) and lay.out_on_double is OutOnDouble.COVERED,
             "match_total": v.set.max + 1 if lay.match is Match.MATADOR else 0}
    if lay.kind is LayoutKind.LINE:  # two ends, the lead's low and high half
        if not takes and not extra["lead_takes"]:  # no double takes tiles: none plays on
            extra["again"] = False
        return SlotLayout(lay.kind, (Slot("left", half=0, double_takes=takes),
                                     Slot("right", half=1, double_takes=takes)),
                          symmetric=((0, 1),), **extra)  # type: ignore[arg-type]
    if lay.kind is LayoutKind.SPINNER:  # the arms wait for both sides when sides go first
        after = (0, 1) if lay.spinner_sides_first else ()
        return SlotLayout(lay.kind, (
            Slot("west", half=0, double_takes=takes), Slot("east", half=1, double_takes=takes),
            Slot("north", Opens.SPINNER, after=after, double_takes=takes),
            Slot("south", Opens.SPINNER, after=after, double_takes=takes),
        ), symmetric=((0, 1), (2, 3)), **extra)  # type: ignore[arg-type]
    if lay.kind is LayoutKind.TRAINS:  # a train per seat, its owner's (or anyone's while
        # the owner's marker is out), and a public train open to everyone; R2.3's house
        # rules: a player whose own marker is out may play on every train, and the public
        # train may wait for the player's own train to have a tile
        own_out = lay.open_trains is OpenTrains.OWN_MARKER_OUT
        trains = tuple(Slot(f"train P{q}", owner=q, access=Access.OWNER_OR_MARKERS if own_out
                            else Access.OWNER_OR_MARKER, double_takes=takes) for q in range(p))
        public = Access.STARTED if lay.public_train is PublicTrain.AFTER_OWN else Access.EVERYONE
        # R2.3: a first turn may lay tile after tile on one's own train
        first = lay.first_turn is FirstTurn.OWN_TRAIN
        return SlotLayout(lay.kind, (*trains, Slot("public", access=public, double_takes=takes)),
                          markers=True, first_turn=first, **extra)  # type: ignore[arg-type]
    # chicken foot: the opening double's four arms; each later double opens takes-1 toes
    arms = tuple(Slot(f"arm {i + 1}", half=0, double_takes=takes) for i in range(4))
    toes = tuple(Slot(f"toe {i + 1}", Opens.TOE, double_takes=takes)
                 for i in range(max(0, takes - 1) * v.set.max))
    every = tuple(range(len(arms) + len(toes)))
    return SlotLayout(lay.kind, arms + toes, symmetric=(every,), **extra)  # type: ignore[arg-type]
