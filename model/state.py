"""The state of a round: a compact immutable value (the TLA+ ``VARIABLES``).

Hands, boneyard, set-aside tiles and the table are bitmasks over the one tile
numbering of :mod:`~dominoproof.model.tiles`. The layout state is the value of
each of the layout's slots (:mod:`~dominoproof.model.layout`; ``CLOSED`` before a
slot opens) in the layout's canonical form (for one line: the two numbers,
sorted), because left/right order is cosmetic: the state holds what decides the
future, not the history (STYLE 1); and the mask of markers that are out. The
progress of the R4 procedure is part of the state, so a blocked position is a
state anyone can inspect.

:func:`state_status` is the type invariant (``TypeOK``): it returns the set of
things wrong with a state, empty for a well-formed one.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .layout import CLOSED, layout_of
from .params import DealOrder, InPlay
from .tiles import Tile, bits, mask_of, show_tiles

if TYPE_CHECKING:
    from .variant import Variant


class Ending(enum.StrEnum):
    """How a round ends: the one enumeration of terminal kinds.

    Every reader of an end uses it: a state's :class:`Status` (its terminal values are
    named after these), an :class:`~dominoproof.model.outcome.Outcome`'s termination,
    the transition system's :func:`~dominoproof.model.spec.terminal_kind` and the
    exhaustive search's kinds of states (``dominoproof.proofs.search.statespace``).

    BLOCKED and DOMINO are the two ways a round ends (R1.1, R5.1). STUCK is a state
    still being played where no move is enabled: a defect of a rule book, which the
    correct rules never reach and which fails the termination property. It is never a
    state's own status (a state cannot know that no move is enabled: the rules say so).
    """

    BLOCKED = "blocked"  #: the block was established [R4.4, R5.1]
    DOMINO = "domino"  #: a player emptied their hand [Terms]
    STUCK = "stuck"  #: still being played, but no move is enabled (a defect)

    def label(self, player: int) -> str:
        """The name of this end in figures and reports: ``blocked``, ``stuck``, or
        ``domino P<i>`` for a domino by player ``i`` (the player to move in the state
        where it is recorded)."""
        return f"{self.value} P{player}" if self is Ending.DOMINO else self.value


class Status(enum.IntEnum):
    """Where the round stands: PLAYING, or the :class:`Ending` it reached, BLOCKED or
    DOMINO, both terminal (R1.1, R5.1). The values are the field as the search's codec
    and the Z3 encoding store it (a 2-bit vector, ``proofs/z3/encoding.py``)."""

    PLAYING = 0
    BLOCKED = 1
    DOMINO = 2

    @property
    def ending(self) -> Ending | None:
        """The :class:`Ending` a terminal status is, ``None`` while the round is played."""
        return _ENDING_OF[self]


#: Each status's ending, by name: a terminal status is an Ending, never a separate word.
_ENDING_OF: dict[Status, Ending | None] = {
    s: None if s is Status.PLAYING else Ending[s.name] for s in Status}


class State(NamedTuple):
    """One state of a round.

    ``stack`` is the boneyard in draw order (top first) when the draw order is
    fixed by the deal, or ``None`` when drawing is a free choice of any
    boneyard tile (the model's "every draw order" mode).
    """

    hands: tuple[int, ...]  #: per seat, the mask of tiles held
    boneyard: int  #: mask of the drawable stock
    set_aside: int  #: mask of tiles out of play, never drawn (constant in a round)
    table: int  #: mask of tiles on the layout
    ends: tuple[int, ...]  #: each slot's value (CLOSED until it opens), canonical
    turn: int  #: the seat to move
    confirmed: int  #: R4: consecutive confirmations of inability so far
    drew: bool  #: R3.1 draw-one: the player to move has drawn this turn
    fouls: int  #: R4.5: mask of seats that made a false declaration
    status: Status
    stack: tuple[int, ...] | None  #: remaining draw order (top first), or None
    marks: int = 0  #: mask of seats whose marker is out (layouts with markers)
    #: R5.7 (``[scoring] in_play = "fives"``; else ``()``): per seat, the points its plays
    #: have scored
    points: tuple[int, ...] = ()
    #: R5.7 (likewise): per slot, how many times the number it shows counts (0, 1, or 2
    #: for a double at that end), going with ``ends`` in their canonical form
    weights: tuple[int, ...] = ()

    # -- derived views ---------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def led(self) -> bool:
        """The lead has been played: some slot of the layout is open."""
        return self.ends.count(CLOSED) < len(self.ends)  # not every slot closed

    @property
    def open_ends(self) -> tuple[int, ...]:
        """The numbers the open slots show, slot by slot (``()`` before the lead)."""
        return tuple(v for v in self.ends if v != CLOSED)

    @property
    def is_terminal(self) -> bool:
        return self.status is not Status.PLAYING

    @property
    def proposer(self) -> int | None:
        """R4.1: the player who proposed the block in progress, if any.

        Confirmations are consecutive and each passes the turn, so the proposer
        is the seat ``confirmed`` places before the player to move.
        """
        if self.confirmed == 0:
            return None
        return (self.turn - self.confirmed) % len(self.hands)

    @property
    def in_hands(self) -> int:
        m = 0
        for h in self.hands:
            m |= h
        return m

    def key(self) -> tuple[object, ...]:
        """Canonical key: equal keys, equal futures (``table`` is implied by the rest)."""
        return (self.hands, self.boneyard, self.set_aside, self.ends, self.marks, self.turn,
                self.confirmed, self.drew, self.fouls, self.status, self.points, self.weights,
                self.stack)

    def describe(self) -> str:
        """A few lines a person can read."""
        ends = " ".join(str(e) for e in self.open_ends) or "(none yet)"
        lines = [f"ends: {ends}   turn: P{self.turn}   status: {self.status.name.lower()}"]
        for p, h in enumerate(self.hands):
            lines.append(f"  P{p}: {show_tiles(h)}")
        lines.append(f"  boneyard: {self.boneyard.bit_count()} tile(s)"
                     + (f", set aside: {self.set_aside.bit_count()}" if self.set_aside else ""))
        if self.confirmed:
            lines.append(f"  R4: {self.confirmed} confirmation(s), proposed by P{self.proposer}")
        if self.points:
            lines.append("  points in play (R5.7): " + ", ".join(
                f"P{p} {x}" for p, x in enumerate(self.points)))
        return "\n".join(lines)


class StateFlaw(enum.IntFlag):
    """What can be wrong with a state (python-chess ``status()``)."""

    OK = 0
    OVERLAP = enum.auto()  #: a tile is in two places
    LOST_TILES = enum.auto()  #: a tile of the set is nowhere
    FOREIGN_TILES = enum.auto()  #: a tile outside the set
    BAD_TURN = enum.auto()
    BAD_ENDS = enum.auto()  #: ends inconsistent with the tiles on the table
    BAD_STACK = enum.auto()  #: draw order disagrees with the boneyard
    BAD_PROCEDURE = enum.auto()  #: more confirmations than players, or a fouler outside
    BAD_PLAYERS = enum.auto()
    BAD_SCORE = enum.auto()  #: R5.7: points in play or the ends' weights out of shape


def state_status(variant: Variant, s: State) -> StateFlaw:
    """The type invariant (TypeOK) and conservation: the flaws of ``s``, or ``OK``.

    Conservation: hands, boneyard, set-aside tiles and the table partition the set;
    the open ends are ones the layout can have with those tiles on the table.
    """
    flaws = StateFlaw.OK
    ts = variant.tiles
    if len(s.hands) != variant.players:
        return StateFlaw.BAD_PLAYERS
    parts = [*s.hands, s.boneyard, s.set_aside, s.table]
    seen = 0
    for m in parts:
        if seen & m:
            flaws |= StateFlaw.OVERLAP
        seen |= m
    if seen & ~ts.full:
        flaws |= StateFlaw.FOREIGN_TILES
    if seen & ts.full != ts.full:
        flaws |= StateFlaw.LOST_TILES
    if not 0 <= s.turn < variant.players:
        flaws |= StateFlaw.BAD_TURN
    if s.stack is not None:
        m = 0
        for t in s.stack:
            m |= 1 << t
        if m != s.boneyard or len(s.stack) != s.boneyard.bit_count():
            flaws |= StateFlaw.BAD_STACK
    if not 0 <= s.confirmed <= variant.players or s.fouls >> variant.players:
        flaws |= StateFlaw.BAD_PROCEDURE
    layout = layout_of(variant)
    if s.marks < 0 or s.marks >> layout.fields.width:
        flaws |= StateFlaw.BAD_ENDS
    if not layout.consistent(ts, s.table & ts.full, s.ends, s.marks):
        flaws |= StateFlaw.BAD_ENDS
    fives = variant.scoring.in_play is InPlay.FIVES  # R5.7: the points and the weights
    shape = (variant.players, layout.width) if fives else (0, 0)
    if ((len(s.points), len(s.weights)) != shape or any(x < 0 for x in s.points)
            or any(w not in (0, 1, 2) for w in s.weights)):
        flaws |= StateFlaw.BAD_SCORE
    return flaws


class Deal(NamedTuple):
    """The chance step: each hand, the boneyard in draw order, the tiles set aside."""

    hands: tuple[int, ...]
    stack: tuple[int, ...]  #: the boneyard, top (next drawn) first
    set_aside: int

    @staticmethod
    def from_order(variant: Variant, order: Sequence[int]) -> Deal:
        """Deal a shuffled set (``order``: every tile index once) as the variant says."""
        players, size = variant.players, variant.deal.hand_size
        dealt = players * size
        if variant.deal.order is DealOrder.BLOCKS:
            hands = tuple(mask_of(order[p * size:(p + 1) * size]) for p in range(players))
        else:
            hands = tuple(mask_of(order[p:dealt:players]) for p in range(players))
        rest = order[dealt:]
        keep = len(rest) - variant.deal.set_aside
        return Deal(hands, tuple(rest[:keep]), mask_of(rest[keep:]))

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [[str(Tile.from_index(t)) for t in bits(h)] for h in self.hands],
            "stack": [str(Tile.from_index(t)) for t in self.stack],
            "set_aside": [str(Tile.from_index(t)) for t in bits(self.set_aside)],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Deal:
        def idx(names: list[str]) -> list[int]:
            return [Tile.parse(n).idx for n in names]

        return Deal(tuple(mask_of(idx(h)) for h in data["hands"]), tuple(idx(data["stack"])),
                    mask_of(idx(data.get("set_aside", []))))
