"""Layouts as slots: the open ends of the table, as data (Terms "Layout", R2.2, R2.3).

A layout is a fixed list of **slots**, each an open end of some line. A slot is
data: its name, its owner (nobody, or a seat), when it opens, who may play on it,
and how many tiles a double laid on it takes before play moves elsewhere. The
*layout state* is a fixed-width tuple of slot values -- the number each open slot
shows, or :data:`CLOSED` -- kept in ``State.ends``, plus a bitmask of markers in
``State.marks`` (bit ``p``: seat ``p``'s marker is out, opening their slots to
everyone under :attr:`Access.OWNER_OR_MARKER`).

Every part of dominoproof reads the same :class:`SlotLayout` data, each with one
function of its own: the engine through :class:`Layout` (this module), the Z3
encoding, the all-sizes model, the search's codec, the renderer and the plain
reference rules of the tests. ``docs/LAYOUTS.md`` lists them, with the slot data of
the line and sketches of a spinner, trains and a chicken foot.

The one-line layout is the two-slot instance: both slots open at the lead (one
showing each half of the opening tile), open to everyone, no rule for doubles. Its
left and right are cosmetic, a **symmetry** of that layout: the two slots form one
symmetric group, whose values the layout keeps sorted (its canonical form, STYLE 1),
and of two slots of a group showing the same number only the first is offered to a
player (laying a tile on either gives the same canonical layout).

A :class:`Move`'s ``end`` names a slot by its index; people and logs name it by the
number it shows (:meth:`Layout.slot_showing` reads that back).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from .tiles import TileSet, bits

if TYPE_CHECKING:
    from .variant import Variant

#: The value of a slot that is not open (yet). In the canonical form a closed slot
#: sorts after every number (as the Z3 encoding's closed code, 31, does).
CLOSED = -1


class LayoutKind(enum.StrEnum):
    """Terms, Layout: the topology of the table (each a :class:`SlotLayout`, :func:`topology`)."""

    LINE = "line"  #: one line with two open ends, every player may play on both


class Opens(enum.StrEnum):
    """When a slot opens."""

    LEAD = "lead"  #: with the opening tile, showing one of its halves (:attr:`Slot.half`)


class Access(enum.StrEnum):
    """R2.3: who may play on a slot."""

    EVERYONE = "everyone"
    OWNER = "owner"  #: only the slot's owner
    OWNER_OR_MARKER = "owner-or-marker"  #: its owner, or anyone while the owner's marker is out


@dataclass(frozen=True)
class Slot:
    """One open end of the layout, as data."""

    name: str
    opens: Opens = Opens.LEAD
    half: int = 0  #: ``Opens.LEAD``: which half of the opening tile it shows (0 low, 1 high)
    owner: int | None = None  #: the seat owning it (trains), or nobody
    access: Access = Access.EVERYONE
    double_takes: int = 0  #: tiles a double laid here takes before play moves on (0: no rule)


@dataclass(frozen=True)
class SlotLayout:
    """A layout: its slots and the symmetries of its canonical form."""

    kind: LayoutKind
    slots: tuple[Slot, ...]
    #: groups of slots whose order is cosmetic: their values are kept sorted
    symmetric: tuple[tuple[int, ...], ...] = ()
    #: the layout has markers (``State.marks``)
    markers: bool = False

    @property
    def width(self) -> int:
        return len(self.slots)


#: The one line: two slots, both opened by the lead, open to everyone, left and right
#: interchangeable.
LINE = SlotLayout(
    kind=LayoutKind.LINE,
    slots=(Slot("left", half=0), Slot("right", half=1)),
    symmetric=((0, 1),),
)

_TOPOLOGIES: dict[LayoutKind, SlotLayout] = {LayoutKind.LINE: LINE}


def topology(kind: LayoutKind, players: int) -> SlotLayout:
    """The slot data of a topology for ``players`` seats (trains would have one per seat)."""
    return _TOPOLOGIES[kind]


# ---------------------------------------------------------------------------
# The engine's reading of the slot data
# ---------------------------------------------------------------------------


class Layout:
    """The engine's reading of a :class:`SlotLayout`: the operations the rules need.

    ``ends`` is the tuple of slot values (``State.ends``), ``marks`` the marker mask
    (``State.marks``). Every operation interprets the slot data; nothing here is
    written for one topology.
    """

    def __init__(self, data: SlotLayout, players: int) -> None:
        self.data = data
        self.kind = data.kind
        self.width = w = data.width
        self.closed: tuple[int, ...] = (CLOSED,) * w
        self._group: list[tuple[int, ...]] = [(i,) for i in range(w)]
        for g in data.symmetric:
            for i in g:
                self._group[i] = g
        #: the slots each seat may play on while no marker is out, and with each marker
        self._allowed = tuple(
            tuple(i for i, sl in enumerate(data.slots) if _may(sl, p, 0)) for p in range(players))
        self._lead = tuple((i, sl.half) for i, sl in enumerate(data.slots)
                           if sl.opens is Opens.LEAD)
        #: the number an end shows names it, up to the symmetry: all slots form one
        #: symmetric group (the line), so a written move needs no slot name
        self.named_by_number = w <= 1 or any(len(g) == w for g in data.symmetric)

    # -- the layout state ---------------------------------------------------------
    def opened(self, ends: tuple[int, ...]) -> bool:
        """The lead has been played: some slot is open."""
        return any(v != CLOSED for v in ends)

    def canonical(self, ends: tuple[int, ...]) -> tuple[int, ...]:
        """The canonical form: each symmetric group's values sorted, closed slots last."""
        out = list(ends)
        for g in self.data.symmetric:
            vals = sorted((out[i] for i in g), key=_closed_last)
            for i, v in zip(g, vals, strict=True):
                out[i] = v
        return tuple(out)

    def open(self, a: int, b: int) -> tuple[int, ...]:
        """The slot values after the opening tile ``a-b`` (``a <= b``)."""
        out = list(self.closed)
        for i, half in self._lead:
            out[i] = b if half else a
        return self.canonical(tuple(out))

    def extend(self, ends: tuple[int, ...], slot: int, other: int) -> tuple[int, ...]:
        """The slot values after a tile is matched on ``slot``, leaving ``other`` showing."""
        return self.canonical((*ends[:slot], other, *ends[slot + 1:]))

    # -- reading it -------------------------------------------------------------------
    def shows(self, ends: tuple[int, ...], slot: int) -> int:
        """The number ``slot`` shows (:data:`CLOSED` if it is not open)."""
        return ends[slot]

    def numbers(self, ends: tuple[int, ...]) -> frozenset[int]:
        """Every number showing on an open slot, whoever may play there (R2.1)."""
        return frozenset(v for v in ends if v != CLOSED)

    def may_play(self, slot: int, player: int, marks: int = 0) -> bool:
        """R2.3: whether ``player`` may play on ``slot`` (its access rule)."""
        return _may(self.data.slots[slot], player, marks)

    def targets(self, ends: tuple[int, ...], player: int, marks: int = 0) -> tuple[int, ...]:
        """The open slots ``player`` may play on, one per symmetric group and number
        (a slot showing the same number as an earlier slot of its group is the same
        move, up to the layout's symmetry)."""
        allowed = (self._allowed[player] if not marks else
                   tuple(i for i in range(self.width) if self.may_play(i, player, marks)))
        out = []
        for i in allowed:
            v = ends[i]
            if v == CLOSED:
                continue
            if any(j < i and ends[j] == v for j in self._group[i]):
                continue
            out.append(i)
        return tuple(out)

    def slot_showing(self, ends: tuple[int, ...], player: int, number: int,
                     marks: int = 0) -> int | None:
        """The slot ``player`` may play on that shows ``number`` (the first, up to the
        symmetry), or ``None``: how a play written "on the 5" is read back."""
        for i in self.targets(ends, player, marks):
            if ends[i] == number:
                return i
        return None

    def consistent(self, tiles: TileSet, table: int, ends: tuple[int, ...]) -> bool:
        """Whether ``ends`` can be the slot values of a layout made of ``table``.

        Every slot is out of range or closed exactly when the table is empty; the
        values are canonical; and, as every joint pairs two equal halves, a number
        shows on the table an odd number of times exactly when it shows on an odd
        number of open slots."""
        if len(ends) != self.width:
            return False
        if table == 0:
            return ends == self.closed
        if any(not 0 <= v <= tiles.n for v in ends) or ends != self.canonical(ends):
            return False
        odd = 0
        for t in bits(table):
            a, b = tiles.halves[t]
            odd ^= (1 << a) ^ (1 << b)
        for v in ends:
            odd ^= 1 << v
        return odd == 0

    def describe(self, ends: tuple[int, ...]) -> str:
        """The open ends as numbers, ``"2 5"`` (``""`` before the lead)."""
        return " ".join(str(v) for v in ends if v != CLOSED)


def _closed_last(v: int) -> tuple[bool, int]:
    return v == CLOSED, v


def _may(slot: Slot, player: int, marks: int) -> bool:
    if slot.access is Access.EVERYONE:
        return True
    if slot.owner == player:
        return True
    return (slot.access is Access.OWNER_OR_MARKER and slot.owner is not None
            and bool(marks >> slot.owner & 1))


@cache
def layout_for(data: SlotLayout, players: int) -> Layout:
    """The (cached) engine reading of ``data`` for ``players`` seats."""
    return Layout(data, players)


def layout_of(variant: Variant) -> Layout:
    """The engine reading of ``variant``'s layout."""
    return layout_for(variant.slot_layout, variant.players)
