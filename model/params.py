"""The [variant] points of RULES.md as typed parameters, section by section.

Each section of a variant file (``[set]``, ``[deal]``, ``[draw]``, ``[lead]``,
``[layout]``, ``[block]``, ``[fouls]``, ``[partnerships]``, ``[scoring]``) is a frozen
dataclass here, and each of its keys a field made by :func:`param`, which carries the
parameter's metadata: its default, the rule ID it realises, a line of help, its range,
and -- for the search's small configurations -- how it **shrinks** with the sizes
(:class:`Sizes`): a parameter that depends on the set size or the number of players
says how it follows them (:func:`~dominoproof.model.variant.Variant.resized` reads that
metadata; nothing else learns every parameter). The :class:`~dominoproof.model.variant.
Variant` is made of these sections; the enumerations name every allowed value.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from .layout import (
    FirstTurn,
    LayoutKind,
    Match,
    OpenTrains,
    OutOnDouble,
    PublicTrain,
    Shape,
    topology,
)
from .tiles import MAX_SET, Tile

if TYPE_CHECKING:
    from .variant import Variant

__all__ = [
    "SECTIONS", "Award", "AwardUnit", "BlockCall", "BlockSpec", "BlockWinner", "Compare",
    "Confirmations", "DealOrder", "DealSpec", "DrawRule", "DrawSpec", "DrawWhen",
    "ExtendReading", "FirstTurn", "FoulRule", "FoulSpec", "InPlay", "LayoutKind", "LayoutSpec",
    "LeadFallback", "LeadRule", "LeadSpec", "Match", "OpenTrains", "OutOnDouble",
    "PartnershipSpec", "Proposer", "PublicTrain",
    "ScoringSpec", "SetSpec", "Sizes", "TieRule", "param",
]


# ---------------------------------------------------------------------------
# Enumerations of the [variant] points
# ---------------------------------------------------------------------------


class DealOrder(enum.StrEnum):
    """How the shuffled stock is dealt."""

    BLOCKS = "blocks"  #: each player in seat order takes ``hand_size`` consecutive tiles
    ROUND_ROBIN = "round-robin"  #: one tile at a time, seat after seat


class DrawRule(enum.StrEnum):
    """R3.1: what a player who cannot play does."""

    NONE = "none"  #: block game: no drawing at all
    UNTIL_PLAYABLE = "until-playable"  #: draw one at a time until playable or exhausted
    ONE = "one"  #: draw one tile, then play it or pass


class DrawWhen(enum.StrEnum):
    """R3.5: when a player may draw."""

    UNABLE = "unable"  #: only a player who cannot play draws (R3.1)
    ANY_TIME = "any-time"  #: after the lead, a player who can play may draw too (house rule)


class LeadRule(enum.StrEnum):
    """Who opens the round, with which tile."""

    PLAYER = "player"  #: a named player leads with any tile
    TILE = "tile"  #: the holder of a named tile leads with it
    HIGHEST_DOUBLE = "highest-double"  #: the holder of the highest double leads with it


class LeadFallback(enum.StrEnum):
    """What happens when nobody holds the tile the lead rule names."""

    HIGHEST_DOUBLE = "highest-double"
    HEAVIEST_TILE = "heaviest-tile"
    PLAYER = "player"  #: ``lead.player`` leads with any tile
    REDEAL = "redeal"  #: the deal is void: the engine deals again; the model omits it
    #: R3.6: the players draw one tile each in turn from ``lead.player`` on, until one
    #: draws the named tile (a double, under "highest-double") and leads with it
    DRAW = "draw"


class ExtendReading(enum.StrEnum):
    """R2.3: what "an open end can be extended" means."""

    HOLDS_MATCHING_TILE = "holds-matching-tile"
    HAS_LEGAL_MOVE = "has-legal-move"


class Proposer(enum.StrEnum):
    """R4.1: who proposes the block."""

    STUCK = "stuck"  #: the player who, with the boneyard supplying nothing, cannot move


class BlockCall(enum.StrEnum):
    """R4.7: whether a player may call the block before the procedure of R4.4 ends."""

    NEVER = "never"  #: only R4.4's run of confirmations establishes a block
    #: a player may call it while an open end shows a number every tile of which is on
    #: the table (Double Draw: "Any player can call 'blocked game' when they notice it")
    DEAD_END = "dead-end"


class FoulRule(enum.StrEnum):
    """R4.5: what a false declaration of inability is."""

    IMPOSSIBLE = "impossible"  #: rejected as an illegal move
    PENALISED = "penalised"  #: possible, recorded as a foul and penalised at scoring


class Award(enum.StrEnum):
    """R5.4: what the winning side is awarded."""

    OTHERS_SUM = "others-sum"  #: the sum of the other sides' residuals
    OTHERS_MINUS_WINNER = "others-minus-winner"  #: that sum minus the winner's own
    ALL_RESIDUALS = "all-residuals"  #: the sum of every player's residual
    #: no pips are awarded: the round's result is who wins (a point toward game, a pool)
    #: and each side's own residual, which counts against it (Trains, Chicken Foot)
    NOTHING = "nothing"


class BlockWinner(enum.StrEnum):
    """R5.2a: what decides the winner of a blocked round."""

    FEWEST_PIPS = "fewest-pips"  #: the lowest residual count (R5.2, R5.3)
    FEWEST_TILES = "fewest-tiles"  #: the fewest tiles left in hand; ties by R5.5


class AwardUnit(enum.StrEnum):
    """R5.4: what an award counts."""

    PIPS = "pips"  #: the residual counts (R5.3: pips, or the variant's tile values)
    TILES = "tiles"  #: the tiles left in hand, one each


class InPlay(enum.StrEnum):
    """R5.7: what a play scores as it is made."""

    NONE = "none"  #: nothing: a round scores only at its end (R5.4)
    #: All Fives: a play (the lead too) scores the count of the layout's ends -- a double
    #: at an end counted by both halves, a spinner's arm once a tile is on it -- when that
    #: count is a multiple of 5 (the count itself: 5, 10, 15 ...)
    FIVES = "fives"


class Compare(enum.StrEnum):
    """Partnerships: whether a round compares players or team totals (R5.2)."""

    PLAYER = "player"
    TEAM = "team"


class TieRule(enum.StrEnum):
    """R5.5: how a tie for the lowest residual is settled."""

    NONE = "none"  #: nobody scores
    SPLIT = "split"  #: the award is split evenly (rounded down)
    ALL_WIN = "all-win"  #: every tied side wins the award
    FIRST_FROM_PROPOSER = "first-from-proposer"  #: first tied side in turn order from the proposer
    LIGHTEST_TILE = "lightest-tile"  #: the tied side holding the lightest tile
    TEAM_TOTAL = "team-total"  #: tied players are separated by their teams' totals
    #: the one tied side whose hands hold no double wins; none or several: nobody scores
    NO_DOUBLE = "no-double"
    #: the tied side first met clockwise from the seat that led (la mano); the leader is
    #: known at the end of a round only under lead rule "player" (``lead.player``)
    LEADER = "leader"


# ---------------------------------------------------------------------------
# R4.4: the confirmations that establish a block
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Confirmations:
    """R4.4: how many consecutive confirmations establish a block: every player
    (``"all"``), every player but one (``"all-others"``), or a number."""

    rule: str  #: "all", "all-others" or "count"
    count: int = 0  #: the number, for rule "count"

    ALL: ClassVar[Confirmations]
    ALL_OTHERS: ClassVar[Confirmations]

    @staticmethod
    def of(value: Any) -> Confirmations:
        """From TOML: ``"all"``, ``"all-others"`` or a whole number (``ValueError`` else)."""
        if isinstance(value, Confirmations):
            return value
        if value in ("all", "all-others"):
            return Confirmations(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return Confirmations("count", value)
        raise ValueError(f"not a number of confirmations: {value!r}")

    def needed(self, players: int) -> int:
        """``C`` of SEMANTICS for ``players`` seats."""
        if self.rule == "all":
            return players
        if self.rule == "all-others":
            return players - 1
        return self.count

    def plain(self) -> str | int:
        """As written in TOML."""
        return self.count if self.rule == "count" else self.rule

    def __str__(self) -> str:
        return str(self.plain())


Confirmations.ALL = Confirmations("all")
Confirmations.ALL_OTHERS = Confirmations("all-others")


# ---------------------------------------------------------------------------
# The sizes a search shrinks a variant to, and how each parameter follows them
# ---------------------------------------------------------------------------


class Sizes(NamedTuple):
    """The sizes of a configuration: the set double-``n``, ``players`` seats, hands of
    ``hand`` tiles, ``aside`` tiles set aside."""

    n: int
    players: int
    hand: int
    aside: int


#: how a parameter follows new sizes: ``(value, sizes, the variant before) -> value``
Shrink = Callable[[Any, Sizes, "Variant"], Any]


def _to(size: str) -> Shrink:
    return lambda value, z, v: getattr(z, size)


def _lead_rule(value: Any, z: Sizes, v: Variant) -> Any:
    """A named lead tile the smaller set lacks, not its top double: the highest double
    leads instead."""
    if value is LeadRule.TILE and _beyond(v.lead.tile, z.n) and not _top_double(v):
        return LeadRule.HIGHEST_DOUBLE
    return value


def _lead_tile(value: Any, z: Sizes, v: Variant) -> Any:
    """The top double stays the top double; another tile the set lacks is dropped."""
    if not _beyond(value, z.n):
        return value
    return f"{z.n}-{z.n}" if _top_double(v) else ""


def _lead_fallback(value: Any, z: Sizes, v: Variant) -> Any:
    """A fallback that would repeat a lead rule turned into "highest-double", or a draw
    for the lead where the sizes set tiles aside (the named tile might never be drawn,
    R3.6): the heaviest tile leads instead."""
    if (value is LeadFallback.HIGHEST_DOUBLE
            and _lead_rule(v.lead.rule, z, v) is LeadRule.HIGHEST_DOUBLE):
        return LeadFallback.HEAVIEST_TILE
    if value is LeadFallback.DRAW and z.aside > 0:
        return LeadFallback.HEAVIEST_TILE
    return value


def _beyond(tile: str, n: int) -> bool:
    return bool(tile) and Tile.parse(tile).hi > n


def _top_double(v: Variant) -> bool:
    t = Tile.parse(v.lead.tile)
    return t.lo == t.hi == v.set.max


def _seat(value: Any, z: Sizes, v: Variant) -> Any:
    return value if value < z.players else 0


def _confirmations(value: Any, z: Sizes, v: Variant) -> Any:
    return Confirmations("count", z.players) if (
        value.rule == "count" and value.count > z.players) else value


def _teams_dropped(z: Sizes, v: Variant) -> bool:
    """More seats than the small table has: the teams cannot be kept."""
    return z.players != v.deal.players and bool(v.partnerships.teams)


def _teams(value: Any, z: Sizes, v: Variant) -> Any:
    return () if _teams_dropped(z, v) else value


def _compare(value: Any, z: Sizes, v: Variant) -> Any:
    return Compare.PLAYER if _teams_dropped(z, v) else value


def _tie(value: Any, z: Sizes, v: Variant) -> Any:
    return TieRule.NONE if value is TieRule.TEAM_TOTAL and _teams_dropped(z, v) else value


def _lead_takes(value: Any, z: Sizes, v: Variant) -> Any:
    """An opening double that takes tiles takes one on every slot it opens: as many as
    the smaller table's layout has (a train each, and the public one)."""
    return topology(Shape(v.layout.kind, z.players, z.n)).lead_double_opens if value else 0


def _tile_values(value: Any, z: Sizes, v: Variant) -> Any:
    return tuple((i, x) for i, x in value if Tile.from_index(i).hi <= z.n)



# ---------------------------------------------------------------------------
# The sections
# ---------------------------------------------------------------------------


def param(default: Any, rule: str, doc: str, *, shrink: Shrink | None = None,
          **extra: Any) -> Any:
    """A variant parameter: its default, the rule ID it realises, a line of help, and how
    it follows smaller sizes (``shrink``; none: it does not depend on them)."""
    meta = {"rule": rule, "doc": doc, "shrink": shrink, **extra}
    if isinstance(default, list | dict):
        return field(default_factory=lambda: default, metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class SetSpec:
    """Terms: the set double-N."""

    max: int = param(6, "Terms", "the set is double-N: every tile a-b, 0 <= a <= b <= N",
                     shrink=_to("n"),
                      range=(0, MAX_SET))


@dataclass(frozen=True)
class DealSpec:
    """The deal: players, hand size, tiles out of play."""

    players: int = param(2, "Terms", "number of players", range=(2, 10),
                         shrink=_to("players"))
    hand_size: int = param(7, "Terms", "tiles dealt to each player", range=(1, 190),
                           shrink=_to("hand"))
    set_aside: int = param(
        0, "R3.1",
        'undealt tiles that are never drawn ("rest" = every undealt tile, as in a block game)',
        range=(0, 190), shrink=_to("aside"),
    )
    order: DealOrder = param(DealOrder.BLOCKS, "Terms", "how the shuffled stock is dealt")


@dataclass(frozen=True)
class DrawSpec:
    rule: DrawRule = param(DrawRule.UNTIL_PLAYABLE, "R3.1", "what a player who cannot play does")
    when: DrawWhen = param(
        DrawWhen.UNABLE, "R3.5",
        'who may draw: "unable" (a player who cannot play) or "any-time" (one who can, too)')


@dataclass(frozen=True)
class LeadSpec:
    rule: LeadRule = param(LeadRule.PLAYER, "Terms", "who opens the round, with which tile",
                           shrink=_lead_rule)
    player: int = param(0, "Terms", "the seat that leads (rule player, fallback player), or "
                        "draws first (fallback draw)", range=(0, 9), shrink=_seat)
    tile: str = param("", "Terms", 'the tile that leads under rule "tile", e.g. "6-6"',
                      shrink=_lead_tile)
    fallback: LeadFallback = param(
        LeadFallback.HEAVIEST_TILE, "Terms",
        'what happens when nobody holds the named tile ("draw": the players draw for it '
        "in turn, R3.6)", shrink=_lead_fallback,
    )


@dataclass(frozen=True)
class LayoutSpec:
    """Terms, Layout: the topology of the table and its rules for doubles."""

    kind: LayoutKind = param(LayoutKind.LINE, "Terms", "topology of the layout",
                             game="the layout's topology: another one is another game")
    match: Match = param(
        Match.EQUAL, "R2.1",
        'what fits an end: "equal" (a tile carrying its number) or "matador" (a half '
        "summing with it to N+1, 7 on double-6; the matadors, 0-0 and the tiles summing to "
        "N+1, fit any end)",
        game="what matches: summing to N+1 instead of equal numbers is another game (Matador)")
    extend: ExtendReading = param(
        ExtendReading.HOLDS_MATCHING_TILE, "R2.3", 'what "an end can be extended" means'
    )
    spinner_sides_first: bool = param(
        True, "Terms", "spinner: its arms open once both its sides are covered")
    lead_double_takes: int = param(
        0, "R2.2", "tiles an opening double takes before play moves on", range=(0, 8),
        shrink=_lead_takes)
    double_takes: int = param(
        0, "R2.2", "tiles a later double takes (1: covered; 3: a chicken foot)", range=(0, 3))
    double_again: bool = param(
        False, "R2.2", "the player who lays such a double plays again")
    open_trains: OpenTrains = param(
        OpenTrains.MARKER, "R2.3",
        'trains: "marker" (a train is open to all while its owner\'s marker is out) or '
        '"own-marker-out" (also: every train is open to a player whose own marker is out)')
    public_train: PublicTrain = param(
        PublicTrain.ALWAYS, "R2.3",
        'trains: "always" (the public train is open to all) or "after-own" (only to a '
        "player whose own train has a tile on it)")
    out_on_double: OutOnDouble = param(
        OutOnDouble.ALLOWED, "R2.2",
        'a double that must be covered as one\'s last tile: "allowed" (it ends the round) '
        'or "covered" (it is no legal last play)')
    first_turn: FirstTurn = param(
        FirstTurn.ONE, "R2.3",
        'trains: "one" (one tile a turn) or "own-train" (on one\'s first turn, tile after '
        "tile on one's own train until one ends the turn)")


@dataclass(frozen=True)
class BlockSpec:
    """R4: the procedure that establishes a block."""

    proposer: Proposer = param(Proposer.STUCK, "R4.1", "who proposes the block")
    confirmations: Confirmations = param(
        Confirmations.ALL, "R4.4",
        'consecutive confirmations that establish the block: "all" (every player, from the '
        'proposer), "all-others" (every player but one) or a number',
        shrink=_confirmations,
    )
    boneyard_must_be_empty: bool = param(
        True, "R4.4", "a confirmation counts only while the boneyard supplies nothing"
    )
    restart_on_marker: bool = param(
        False, "R4.4",
        "a confirmation that puts the confirmer's marker out starts the run again, as its "
        "first (trains)")
    call: BlockCall = param(
        BlockCall.NEVER, "R4.7",
        'who may end the round early: "never" (R4.4 only) or "dead-end" (any player, '
        "while an open end shows a number whose every tile is on the table)")


@dataclass(frozen=True)
class FoulSpec:
    """R4.5: false declarations of inability."""

    rule: FoulRule = param(FoulRule.IMPOSSIBLE, "R4.5", "what a false declaration is")
    penalty: int = param(0, "R4.5", "points a foul costs its author at scoring",
                         range=(0, 10_000))


@dataclass(frozen=True)
class PartnershipSpec:
    teams: tuple[tuple[int, ...], ...] = param(
        (), "R5.4", "teams of seats, e.g. [[0, 2], [1, 3]]; empty: everyone for themselves",
        shrink=_teams,
    )
    compare: Compare = param(Compare.PLAYER, "R5.2",
                             "whether a round compares players or team totals",
                             shrink=_compare)


@dataclass(frozen=True)
class ScoringSpec:
    """R5: ending and scoring."""

    block_award: Award = param(Award.OTHERS_SUM, "R5.4", "award for winning a blocked round")
    domino_award: Award = param(Award.OTHERS_SUM, "R5.4", "award for a domino")
    round_to: int = param(1, "R5.4", "awards are rounded to the nearest multiple of this",
                          range=(1, 100))
    tie: TieRule = param(TieRule.NONE, "R5.5", "how a tie for the lowest residual is settled",
                         shrink=_tie)
    block_winner: BlockWinner = param(
        BlockWinner.FEWEST_PIPS, "R5.2a",
        "what wins a blocked round: the fewest pips left in hand, or the fewest tiles")
    award_unit: AwardUnit = param(
        AwardUnit.PIPS, "R5.4", "what the awards count: pips (R5.3), or tiles left in hand")
    tile_values: tuple[tuple[int, int], ...] = param(
        (), "R5.3", 'special tile values overriding a+b, e.g. { "0-0" = 25 }',
        shrink=_tile_values,
    )
    in_play: InPlay = param(
        InPlay.NONE, "R5.7",
        'points scored as tiles are laid: "none", or "fives" (All Fives: the ends\' count '
        "when it is a multiple of 5; the final score adds them to the award)")


SECTIONS: dict[str, type] = {
    "set": SetSpec,
    "deal": DealSpec,
    "draw": DrawSpec,
    "lead": LeadSpec,
    "layout": LayoutSpec,
    "block": BlockSpec,
    "fouls": FoulSpec,
    "partnerships": PartnershipSpec,
    "scoring": ScoringSpec,
}
