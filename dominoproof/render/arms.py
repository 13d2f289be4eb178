"""The physical arms of a layout, rebuilt from the moves: what the text and the picture draw.

The state keeps only each slot's value in the layout's canonical form (a symmetric
group's slots sorted: which of two equal arms a tile went on is cosmetic, STYLE 1), so
both renderers (:mod:`dominoproof.render.text`, text; :mod:`dominoproof.render.table`, SVG)
rebuild the table from the moves as a person lays it out:

* the lead tile lies in the middle; **each slot is an arm** growing from it, opened as
  the slot data says (:attr:`Slot.opens`): with the lead, showing the half
  :attr:`Slot.half` names; a spinner's arms with an opening double, showing its number;
  a chicken foot's toes with a later double, growing from it (:attr:`Arms.parent`);
* a tile laid "on the end showing x" goes on an arm of that slot's symmetric group
  whose end shows x -- one that must take a tile first, if any does
  (:meth:`Arms.arm_for`) -- turned so that its x half touches the arm;
* which arms must take a tile before play moves on (:attr:`Arms.pending`), and which
  toes a double opened, are read off the state after each play (how many slots are
  pending, how many are open), never re-derived from the rules.

The one place a move's end is read is :func:`number_played`. :func:`arms_of` builds arms
from any slot data and ``(arm, tile)`` placements, without the engine; :class:`RoundArms`
follows a round move by move; :func:`round_arms` is the arms after ``k`` moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from dominoproof.model.engine import Trace
from dominoproof.model.layout import (
    CLOSED,
    Layout,
    LayoutKind,
    Opens,
    SlotLayout,
    layout_of,
)
from dominoproof.model.matching import fits, shown_after
from dominoproof.model.moves import LEAD, Move, MoveKind, said
from dominoproof.model.state import State
from dominoproof.model.tiles import Tile

__all__ = ["Arms", "RoundArms", "arm_name", "arms_of", "centre_name", "follow",
           "number_played", "round_arms"]


def number_played(layout: Layout, s: State, m: Move) -> int:
    """The number the open end a play is laid on shows: the one place the renderers read
    a move's end (``Move.end`` names a slot; the layout says what it shows)."""
    return layout.shows(s.ends, m.end)


def centre_name(data: SlotLayout, lead: Tile) -> str:
    """What the layout calls the tile in the middle, every arm's origin (Terms "Layout"):
    the **hub** of trains (every train grows from it, a double or the fallback's tile),
    the **spinner** of an opening double with arms; else the lead (a line, a spinner
    played as a line, a chicken foot's opening double)."""
    if data.kind is LayoutKind.TRAINS:
        return "hub"
    if data.kind is LayoutKind.SPINNER and lead.is_double:
        return "spinner"
    return "lead"


def arm_name(data: SlotLayout, arm: int, lead: Tile | None = None) -> str:
    """An arm as the layout names it: its slot's name (``train P1``, ``north``, ``toe 2``),
    or, for -1, the tile in the middle (:func:`centre_name`)."""
    if arm >= 0:
        return data.slots[arm].name
    return centre_name(data, lead) if lead is not None else "lead"


@dataclass
class Arms:
    """The physical arms of a layout: arm ``i`` began as slot ``i``; each holds its tiles
    from the lead (or, for a toe, from the double it grows from) outwards as
    ``(near, far)`` halves (``near`` touches the arm)."""

    data: SlotLayout
    lead: Tile | None
    tiles: list[list[tuple[int, int]]]
    ends: list[int | None]  #: the number each arm shows (None: its slot is not open)
    #: the arms that must take a tile before play moves elsewhere (R2.2)
    pending: set[int] = field(default_factory=set)
    #: a toe's origin: (the arm, the index in its tiles of the double it grows from)
    parent: dict[int, tuple[int, int]] = field(default_factory=dict)

    @staticmethod
    def opened(data: SlotLayout, lead: Tile | None) -> Arms:
        """The arms right after the lead (none open before it): the lead's, and a
        spinner's arms when the lead is a double."""
        ends: list[int | None] = [None] * data.width
        if lead is not None:
            for i, sl in enumerate(data.slots):
                if sl.opens is Opens.LEAD:
                    ends[i] = lead.hi if sl.half else lead.lo
                elif sl.opens is Opens.SPINNER and lead.lo == lead.hi:
                    ends[i] = lead.lo
        return Arms(data, lead, [[] for _ in data.slots], ends)

    def lay(self, arm: int, tile: Tile) -> None:
        """Lay ``tile`` on ``arm``'s end (a ``ValueError`` if it does not fit)."""
        end = self.ends[arm]
        if end is None:
            raise ValueError(f"arm {arm} ({self.data.slots[arm].name}) is not open")
        total = self.data.match_total  # R2.1: 0, or N+1 under Matador matching
        if not fits(tile.lo, tile.hi, end, total):
            raise ValueError(f"{tile} does not fit an end showing {end}")
        far = shown_after(tile.lo, tile.hi, end, total)
        self.tiles[arm].append((tile.lo + tile.hi - far, far))
        self.ends[arm] = far
        self.pending.discard(arm)

    def open_toes(self, arm: int, n: int) -> list[int]:
        """Open ``n`` closed toes growing from the double at ``arm``'s end, each showing
        its number (a ``ValueError`` if the arm ends in no double or too few toes are
        closed)."""
        if not self.tiles[arm] or self.tiles[arm][-1][0] != self.tiles[arm][-1][1]:
            raise ValueError(f"toes opened, but arm {arm} ({self.data.slots[arm].name}) "
                             "ends in no double")
        closed = [i for i, sl in enumerate(self.data.slots)
                  if sl.opens is Opens.TOE and self.ends[i] is None]
        if len(closed) < n:
            raise ValueError(f"{n} toe(s) opened, but only {len(closed)} are closed")
        x = self.tiles[arm][-1][1]
        for i in closed[:n]:
            self.ends[i] = x
            self.parent[i] = (arm, len(self.tiles[arm]) - 1)
        return closed[:n]

    def arm_for(self, slot: int, number: int) -> int:
        """The arm a play on ``slot``, showing ``number``, is laid on: an arm of the slot's
        symmetric group whose end shows it (their order is cosmetic), a pending one
        first (while any is, play goes nowhere else)."""
        group = next((g for g in self.data.symmetric if slot in g), (slot,))
        showing = [i for i in group if self.ends[i] == number]
        for i in sorted(showing, key=lambda i: i not in self.pending):
            return i
        shown = ", ".join(str(self.ends[i]) for i in group)
        raise ValueError(f"no arm of slot {slot} shows {number} (they show {shown})")

    def agrees(self, layout: Layout, s: State) -> bool:
        """Whether the arms' ends are the state's slot values, up to the symmetry."""
        mine = tuple(CLOSED if e is None else e for e in self.ends)
        return layout.canonical(mine)[0] == s.ends

    def waits(self, arm: int) -> tuple[int, ...]:
        """The slots ``arm`` waits for that have no tile on them yet (a spinner's sides)."""
        return tuple(j for j in self.data.slots[arm].after if not self.tiles[j])

    @property
    def count(self) -> int:
        return (self.lead is not None) + sum(len(t) for t in self.tiles)


def arms_of(data: SlotLayout, lead: Tile | str | None,
            placements: Iterable[tuple[int, Tile | str]] = ()) -> Arms:
    """The arms of ``data`` after ``lead`` and each ``(arm, tile)`` placement in turn
    (a hand-made layout needs no engine: any slot data, any placements that fit)."""
    arms = Arms.opened(data, _tile(lead) if lead is not None else None)
    for arm, tile in placements:
        arms.lay(arm, _tile(tile))
    return arms


def _open_count(ends: Iterable[int | None]) -> int:
    return sum(1 for e in ends if e is not None and e != CLOSED)


class RoundArms:
    """The arms of a round, followed move by move (:meth:`move`): what a play opened
    (toes) and left pending is read off the state after it."""

    def __init__(self, trace: Trace) -> None:
        self.data = trace.variant.slot_layout
        self.layout = layout_of(trace.variant)
        self.arms = Arms.opened(self.data, None)
        self.last: int | None = None  #: the arm of the last tile laid (-1: the lead)

    def move(self, k: int, s: State, m: Move, t: State) -> None:
        """Move ``k`` (1-based) ``m`` from ``s`` to ``t``; a ``ValueError`` saying where
        when the rule book leaves ends no layout has."""
        if m.kind is not MoveKind.PLAY:
            return
        tile = Tile.from_index(m.tile)
        pending = self.layout.pending(t.marks).bit_count()
        if m.end == LEAD:
            self.arms = Arms.opened(self.data, tile)
            if pending:
                self.arms.pending = {i for i, e in enumerate(self.arms.ends) if e is not None}
            self.last = -1
            return
        arms = self.arms
        try:
            arm = arms.arm_for(m.end, number_played(self.layout, s, m))
            arms.lay(arm, tile)
            if tile.is_double and pending > len(arms.pending):
                arms.pending.add(arm)
                arms.pending.update(arms.open_toes(arm, _open_count(t.ends)
                                                   - _open_count(arms.ends)))
        except ValueError as e:
            raise ValueError(f"move {k} ({said(self.layout, s, m)}): {e}") from None
        self.last = arm


def follow(trace: Trace, upto: int | None = None,
           states: Sequence[State] | None = None) -> tuple[RoundArms, State]:
    """``trace`` followed for its first ``upto`` moves (all of them by default), and the
    state then. ``states``: the round's states, when they are not the trace's replay (a
    Z3 run the engine does not replay: its decoded states). A rule book whose ends no
    layout has (a broken one) raises a ``ValueError`` saying where."""
    states = list(states) if states is not None else trace.states()
    k = len(trace.moves) if upto is None else upto
    built = RoundArms(trace)
    for i, m in enumerate(trace.moves[:k]):
        built.move(i + 1, states[i], m, states[i + 1])
    if not built.arms.agrees(built.layout, states[k]):
        raise ValueError(f"after move {k} the arms show {built.arms.ends}, the state "
                         f"{list(states[k].open_ends)}: the rule book leaves ends no "
                         "layout has")
    return built, states[k]


def round_arms(trace: Trace, upto: int | None = None) -> tuple[Arms, State]:
    """The arms of ``trace`` after its first ``upto`` moves (all of them by default) and
    the state then (see :func:`follow`)."""
    built, state = follow(trace, upto)
    return built.arms, state


def _tile(t: Tile | str) -> Tile:
    return t if isinstance(t, Tile) else Tile.parse(t)
