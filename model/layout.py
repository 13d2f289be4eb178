"""Layouts as slots: the open ends of the table, as data (Terms "Layout", R2.2, R2.3).

A layout is a fixed list of **slots**, each an open end of some line. A slot is
data: its name, when it opens, its owner (nobody, or a seat), who may play on it,
and how many tiles a double laid on it takes before play moves elsewhere. The
*layout state* is a fixed-width tuple of slot values -- the number each open slot
shows, or :data:`CLOSED` -- kept in ``State.ends``, plus the layout's **marks** in
``State.marks``, an int whose fields :class:`Layout` names (:attr:`Layout.fields`):

* markers (trains): bit ``p`` -- seat ``p``'s marker is out, opening the slots it
  owns to everyone under :attr:`Access.OWNER_OR_MARKER`;
* covered (a spinner whose arms open once its sides are covered): one bit per slot
  some other slot waits for, set once a tile is laid on it;
* pending (doubles that take tiles): one bit per slot that must take a tile before
  play moves elsewhere -- the slots a double just laid occupies or opened;
* first (trains, ``first_turn = "own-train"``): one bit -- the player to move is on their
  first turn, laying tiles on their own train (each train then has a covered bit, set once
  a tile is laid on it); a double left waiting on it ends that turn (R2.2 says what next).

Every reading of the rules reads the same :class:`SlotLayout` data, each with one function
of its own (the engine and the actions of :mod:`.spec` through :class:`Layout`).
``docs/LAYOUTS.md`` lists them, and the topologies (:func:`topology`: line, spinner,
trains, chicken-foot) with their slot data and their rules for doubles. A move's ``end``
names a slot by its index; people name it by its number (:meth:`Layout.slot_showing`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from .matching import ONE_WAY, shown_after
from .tiles import TileSet, bits

if TYPE_CHECKING:
    from .variant import Variant

#: The value of a slot that is not open (yet). In the canonical form a closed slot
#: sorts after every number (as the Z3 encoding's closed code, 31, does).
CLOSED = -1
Ends = tuple[tuple[int, ...], int]  #: slot values and marks, as the layout's changes give them


class LayoutKind(enum.StrEnum):
    """Terms, Layout: the topology of the table (each a :class:`SlotLayout`, :func:`topology`)."""

    LINE = "line"  #: one line with two open ends, every player may play on both
    SPINNER = "spinner"  #: an opening double with two sides and two arms
    TRAINS = "trains"  #: a hub, one train per seat with a marker, a public train
    CHICKEN_FOOT = "chicken-foot"  #: the opening double's arms, and toes for each double


class Opens(enum.StrEnum):
    """When a slot opens."""

    LEAD = "lead"  #: with the opening tile, showing one of its halves (:attr:`Slot.half`)
    SPINNER = "spinner"  #: with an opening double, playable once :attr:`Slot.after` are covered
    TOE = "toe"  #: when a double laid during play opens toes (the first closed toe slots)


class Access(enum.StrEnum):
    """R2.3: who may play on a slot."""

    EVERYONE = "everyone"
    OWNER = "owner"  #: only the slot's owner
    OWNER_OR_MARKER = "owner-or-marker"  #: its owner, or anyone while the owner's marker is out
    #: its owner, anyone while the owner's marker is out, or anyone whose own marker is out
    OWNER_OR_MARKERS = "owner-or-markers"
    #: anyone whose own slot (the train they own) has had a tile laid on it
    STARTED = "started"


class OpenTrains(enum.StrEnum):
    """R2.3 (trains): which trains a player may play on besides their own and the public."""

    MARKER = "marker"  #: a train whose owner's marker is out
    OWN_MARKER_OUT = "own-marker-out"  #: ... and every train while one's own marker is out


class PublicTrain(enum.StrEnum):
    """R2.3 (trains): who may play on the public train."""

    ALWAYS = "always"  #: everyone
    AFTER_OWN = "after-own"  #: a player whose own train has a tile on it


class OutOnDouble(enum.StrEnum):
    """R2.2: whether a double that must be covered may be a player's last tile."""

    ALLOWED = "allowed"  #: it may: the round ends, the double uncovered
    COVERED = "covered"  #: it may not: a double that would wait is no legal last play


class Match(enum.StrEnum):
    """R2.1: which tile may be laid on an end, and what the end shows then."""

    EQUAL = "equal"  #: a tile carrying the end's number; the end shows its other half
    MATADOR = "matador"  #: touching halves sum to N+1; 0-0 and tiles summing to N+1 go anywhere


class FirstTurn(enum.StrEnum):
    """R2.3 (trains): what a player may lay on their first turn (own train not started)."""

    ONE = "one"  #: one tile, as on every turn
    #: tile after tile on their own train, until they end the turn or cannot go on
    OWN_TRAIN = "own-train"


@dataclass(frozen=True)
class Slot:
    """One open end of the layout, as data."""

    name: str
    opens: Opens = Opens.LEAD
    half: int = 0  #: ``Opens.LEAD``: which half of the opening tile it shows (0 low, 1 high)
    after: tuple[int, ...] = ()  #: ``Opens.SPINNER``: slots that must be covered first
    owner: int | None = None  #: the seat owning it (trains), or nobody
    access: Access = Access.EVERYONE
    double_takes: int = 0  #: tiles a double laid here takes before play moves on (0: no rule)


@dataclass(frozen=True)
class SlotLayout:
    """A layout: its slots, the symmetries of its canonical form, and its double rules."""

    kind: LayoutKind
    slots: tuple[Slot, ...]
    #: groups of slots whose order is cosmetic: their values are kept sorted
    symmetric: tuple[tuple[int, ...], ...] = ()
    #: the layout has markers (``State.marks``), one per seat
    markers: bool = False
    #: tiles the opening double takes on the slots it opened before play moves on
    lead_takes: int = 0
    #: the player who lays a double (one that takes tiles) plays again
    again: bool = False
    #: R2.2: a double that would wait to be covered is no player's last tile (only where
    #: some slot's doubles take tiles: ``out_on_double = "covered"``)
    cover_out: bool = False
    #: trains: on their first turn (own train not started) a player lays tile after tile
    #: on their own train until they end the turn (R2.3, ``first_turn = "own-train"``)
    first_turn: bool = False
    #: R2.1: 0 where a tile matches an end carrying its number; under Matador
    #: (``match = "matador"``) the sum N+1 that touching halves make
    match_total: int = 0

    @property
    def width(self) -> int:
        return len(self.slots)

    @property
    def lead_double_opens(self) -> int:
        """The slots an opening double opens: its halves' and a spinner's arms."""
        return sum(sl.opens is not Opens.TOE for sl in self.slots)


#: The one line: two slots, both opened by the lead, open to everyone, left and right
#: interchangeable.
LINE = SlotLayout(
    kind=LayoutKind.LINE,
    slots=(Slot("left", half=0), Slot("right", half=1)),
    symmetric=((0, 1),),
)


class Shape(NamedTuple):
    """The layout parameters of a variant that a topology's slot data depends on."""

    kind: LayoutKind
    players: int
    n: int  #: the set is double-n (chicken-foot: one pair of toes per further double)
    sides_first: bool = True  #: spinner: the arms open once both sides are covered
    lead_takes: int = 0  #: tiles the opening double takes before play moves on
    double_takes: int = 0  #: tiles a later double takes (1: covered; more: toes)
    again: bool = False  #: the player who lays such a double plays again
    open_trains: OpenTrains = OpenTrains.MARKER  #: trains: who may play on a train
    public_train: PublicTrain = PublicTrain.ALWAYS  #: trains: who may play on the public
    out_on_double: OutOnDouble = OutOnDouble.ALLOWED  #: R2.2: a last double that waits
    first_turn: FirstTurn = FirstTurn.ONE  #: trains: tiles laid on one's first turn
    match: Match = Match.EQUAL  #: R2.1: equal numbers, or halves summing to N+1 (Matador)


def topology(shape: Shape) -> SlotLayout:
    """The slot data of a topology (see the module docstring)."""
    kind, takes = shape.kind, shape.double_takes
    total = shape.n + 1 if shape.match is Match.MATADOR else 0
    if kind is LayoutKind.LINE and not takes and not shape.lead_takes:
        return replace(LINE, match_total=total) if total else LINE
    common = {"lead_takes": shape.lead_takes, "again": shape.again,
              "cover_out": bool(takes) and shape.out_on_double is OutOnDouble.COVERED}
    if kind is LayoutKind.LINE:
        return SlotLayout(kind, (Slot("left", half=0, double_takes=takes),
                                 Slot("right", half=1, double_takes=takes)),
                          symmetric=((0, 1),), **common)  # type: ignore[arg-type]
    if kind is LayoutKind.SPINNER:
        after = (0, 1) if shape.sides_first else ()
        return SlotLayout(kind, (
            Slot("west", half=0, double_takes=takes),
            Slot("east", half=1, double_takes=takes),
            Slot("north", Opens.SPINNER, after=after, double_takes=takes),
            Slot("south", Opens.SPINNER, after=after, double_takes=takes),
        ), symmetric=((0, 1), (2, 3)), **common)  # type: ignore[arg-type]
    if kind is LayoutKind.TRAINS:
        access = (Access.OWNER_OR_MARKERS if shape.open_trains is OpenTrains.OWN_MARKER_OUT
                  else Access.OWNER_OR_MARKER)
        public = (Access.STARTED if shape.public_train is PublicTrain.AFTER_OWN
                  else Access.EVERYONE)
        trains = tuple(Slot(f"train P{p}", owner=p, access=access,
                            double_takes=takes) for p in range(shape.players))
        return SlotLayout(kind, (*trains, Slot("public", access=public, double_takes=takes)),
                          markers=True, first_turn=shape.first_turn is FirstTurn.OWN_TRAIN,
                          **common)  # type: ignore[arg-type]
    # chicken foot: the opening double's four arms, then toes: each further double laid
    # on a slot opens (takes - 1) more, for every double of the set but the opening one
    arms = tuple(Slot(f"arm {i + 1}", half=0, double_takes=takes) for i in range(4))
    toes = tuple(Slot(f"toe {i + 1}", Opens.TOE, double_takes=takes)
                 for i in range(max(0, takes - 1) * shape.n))
    every = tuple(range(len(arms) + len(toes)))
    return SlotLayout(kind, arms + toes, symmetric=(every,), **common)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# The engine's reading of the slot data
# ---------------------------------------------------------------------------


class MarkFields(NamedTuple):
    """Where each field of ``State.marks`` lies (bit offsets; -1: the layout has none)."""

    markers: int  #: P bits, seat by seat
    covered: tuple[int, ...]  #: per slot: its covered bit, or -1 if no slot waits for it
    pending: int  #: W bits, slot by slot: the slot must take a tile before play moves on
    width: int  #: bits in all
    #: one bit: the player to move is on their first turn, laying on their own train
    first: int = -1


class Layout:
    """The engine's reading of a :class:`SlotLayout`: the operations the rules need.

    ``ends`` is the tuple of slot values (``State.ends``), ``marks`` the layout marks
    (``State.marks``). Every operation interprets the slot data; nothing here is
    written for one topology.
    """

    def __init__(self, data: SlotLayout, players: int) -> None:
        self.data = data
        self.kind = data.kind
        self.players = players
        self.width = w = data.width
        self.closed: tuple[int, ...] = (CLOSED,) * w
        self._group: list[tuple[int, ...]] = [(i,) for i in range(w)]
        for g in data.symmetric:
            for i in g:
                self._group[i] = g
        self._lead = tuple((i, sl.half) for i, sl in enumerate(data.slots)
                           if sl.opens is Opens.LEAD)
        self._spinner = tuple(i for i, sl in enumerate(data.slots) if sl.opens is Opens.SPINNER)
        self._toes = tuple(i for i, sl in enumerate(data.slots) if sl.opens is Opens.TOE)
        #: R2.3: where a slot is open to those whose own train is started, or a player's
        #: first turn lasts while their own train has no tile, each owned slot has a
        #: covered bit (a tile has been laid on it)
        self._started = (tuple(i for i, sl in enumerate(data.slots) if sl.owner is not None)
                         if data.first_turn or any(sl.access is Access.STARTED
                                                   for sl in data.slots) else ())
        #: R2.3 (first_turn): each seat's own train
        self._own = {sl.owner: i for i, sl in enumerate(data.slots) if sl.owner is not None}
        #: the number an end shows names it, up to the symmetry: all slots form one
        #: symmetric group (the line), so a written move needs no slot name
        self.named_by_number = w <= 1 or any(len(g) == w for g in data.symmetric)
        # the fields of State.marks
        offset = 0
        markers = -1
        if data.markers:
            markers, offset = 0, players
        waited = sorted({j for sl in data.slots for j in sl.after} | set(self._started))
        covered = [-1] * w
        for j in waited:
            covered[j], offset = offset, offset + 1
        doubles = data.lead_takes > 0 or any(sl.double_takes for sl in data.slots)
        pending = -1
        if doubles:
            pending, offset = offset, offset + w
        first = -1
        if data.first_turn:
            first, offset = offset, offset + 1
        self.fields = MarkFields(markers, tuple(covered), pending, offset, first)
        self.plain = offset == 0 and not self._spinner and not self._toes
        #: a layout of lines: plain, both ends opened by the lead, so every joint pairs two
        #: equal halves (the parity of each number on the table is that of its open ends)
        self.lines = self.plain and len(self._lead) == 2
        #: the slots each seat may play on while no mark is set
        self._allowed = tuple(tuple(i for i in range(w) if self.may_play(i, p, 0))
                              for p in range(players))

    # -- the marks --------------------------------------------------------------------
    def marker_out(self, marks: int, seat: int) -> bool:
        """Seat ``seat``'s marker is out (trains)."""
        return self.fields.markers >= 0 and bool(marks >> (self.fields.markers + seat) & 1)

    def with_marker(self, marks: int, seat: int, out: bool) -> int:
        """``marks`` with seat ``seat``'s marker put out (``out``) or taken in."""
        if self.fields.markers < 0:
            return marks
        bit = 1 << (self.fields.markers + seat)
        return marks | bit if out else marks & ~bit

    def put_marker_out(self, marks: int, seat: int) -> int:
        """``marks`` after seat ``seat`` passes or confirms: their marker goes out."""
        return self.with_marker(marks, seat, True)

    def take_marker_in(self, marks: int, seat: int) -> int:
        """``marks`` after seat ``seat`` plays on their own train: their marker comes in."""
        return self.with_marker(marks, seat, False)

    def cover(self, marks: int, slot: int) -> int:
        """``marks`` after a tile is laid on ``slot``: covered, if another slot waits for it."""
        b = self.fields.covered[slot]
        return marks | 1 << b if b >= 0 else marks

    def first_turn(self, marks: int) -> bool:
        """The player to move is on their first turn, laying tiles on their own train
        (R2.3, ``first_turn = "own-train"``): they may lay another there, or end the turn."""
        return self.fields.first >= 0 and bool(marks >> self.fields.first & 1)

    def end_first_turn(self, marks: int) -> int:
        """``marks`` after the player ends their first turn (nothing else changes)."""
        return marks & ~(1 << self.fields.first) if self.fields.first >= 0 else marks

    def own_train(self, player: int) -> int | None:
        """The slot ``player`` owns (their train), if any."""
        return self._own.get(player)

    def plays_again(self, slot: int) -> bool:
        """R2.2: the player who laid a double on ``slot`` plays again (it takes tiles)."""
        return self.data.again and self.data.slots[slot].double_takes > 0

    def covered(self, marks: int, slot: int) -> bool:
        """A tile has been laid on ``slot`` (tracked only for slots another waits for)."""
        b = self.fields.covered[slot]
        return b >= 0 and bool(marks >> b & 1)

    def pending(self, marks: int) -> int:
        """The mask of slots that must take a tile before play moves elsewhere."""
        p = self.fields.pending
        return marks >> p & ((1 << self.width) - 1) if p >= 0 else 0

    def _with_pending(self, marks: int, mask: int) -> int:
        p = self.fields.pending
        if p < 0:
            return marks
        full = ((1 << self.width) - 1) << p
        return (marks & ~full) | (mask << p)

    # -- the layout state ---------------------------------------------------------
    def opened(self, ends: tuple[int, ...]) -> bool:
        """The lead has been played: some slot is open."""
        return any(v != CLOSED for v in ends)

    def canonical(self, ends: tuple[int, ...], marks: int = 0) -> tuple[tuple[int, ...], int]:
        """The canonical form: each symmetric group's slots sorted by the number they
        show (closed last), each slot's marks going with it."""
        if not self.data.symmetric:
            return ends, marks
        out = list(ends)
        f = self.fields
        for g in self.data.symmetric:
            was = marks
            order = sorted(g, key=lambda i: self.sort_key(ends, was, i))
            if order == list(g):
                continue
            new_marks = marks
            for dest, src in zip(g, order, strict=True):
                out[dest] = ends[src]
                if f.pending >= 0:
                    new_marks = _set(new_marks, f.pending + dest,
                                     self._pending_bit(marks, src))
                if f.covered[dest] >= 0:
                    new_marks = _set(new_marks, f.covered[dest], self._covered_bit(marks, src))
            marks = new_marks
        return tuple(out), marks

    def sort_key(self, ends: tuple[int, ...], marks: int, slot: int) -> tuple[int, ...]:
        """What the canonical form sorts a symmetric group's slots by: closed last, the
        number shown, then the slot's marks."""
        return (ends[slot] == CLOSED, ends[slot], self._pending_bit(marks, slot),
                self._covered_bit(marks, slot))

    def _pending_bit(self, marks: int, slot: int) -> int:
        p = self.fields.pending
        return marks >> (p + slot) & 1 if p >= 0 else 0

    def _covered_bit(self, marks: int, slot: int) -> int:
        b = self.fields.covered[slot]
        return marks >> b & 1 if b >= 0 else 0

    def open(self, a: int, b: int, marks: int = 0, *, canon: bool = True
             ) -> tuple[tuple[int, ...], int]:
        """The slot values and marks after the opening tile ``a-b`` (``a <= b``): the
        lead's slots show its halves; a double also opens the spinner's arms that wait
        for nothing, and takes its tiles on every slot it opened."""
        out = list(self.closed)
        for i, half in self._lead:
            out[i] = b if half else a
        if a == b:
            for i in self._spinner:
                out[i] = a
            if self.data.lead_takes:
                opened = 0
                for i, v in enumerate(out):
                    if v != CLOSED:
                        opened |= 1 << i
                marks = self._with_pending(marks, opened)
        return self.canonical(tuple(out), marks) if canon else (tuple(out), marks)

    def extend(self, ends: tuple[int, ...], marks: int, slot: int, tile: tuple[int, int],
               player: int, *, canon: bool = True, leaves: int = ONE_WAY) -> Ends:
        """The slot values and marks after ``player`` lays ``tile`` (its halves) on
        ``slot``: the slot shows the tile's other half (a turned matador: the half the play
        ``leaves``, R2.1); the slot is covered and no longer pending; a double that takes
        tiles makes its slot (and the toes it opens) pending; a play on one's own train
        takes one's marker in; where first turns lay several tiles, a play on one's own
        train during one's first turn (the train not started before it, or that turn
        already under way) keeps the first turn going, unless it leaves a double waiting
        there, and any other play ends it."""
        (a, b), x, out = tile, ends[slot], list(ends)
        out[slot] = shown_after(a, b, x, self.data.match_total, leaves)
        # R2.3: whether the first turn may go on, read before the play covers the slot
        going = (self.fields.first >= 0 and self._own.get(player) == slot
                 and (self.first_turn(marks) or not self.covered(marks, slot)))
        marks = self.cover(marks, slot)
        pending = self.pending(marks) & ~(1 << slot)
        takes = self.data.slots[slot].double_takes
        if a == b and takes and self.starts_wait(pending):
            pending |= 1 << slot
            free = [i for i in self._toes if out[i] == CLOSED]
            for i in free[:takes - 1]:
                out[i] = a
                pending |= 1 << i
        marks = self._with_pending(marks, pending)
        if self.fields.first >= 0:  # a double left waiting on it ends the first turn
            bit = 1 << self.fields.first
            marks = marks | bit if going and not pending >> slot & 1 else marks & ~bit
        owner = self.data.slots[slot].owner
        if owner is not None and owner == player:
            marks = self.take_marker_in(marks, player)
        return self.canonical(tuple(out), marks) if canon else (tuple(out), marks)

    def bars_going_out(self, marks: int, slot: int, tile: tuple[int, int]) -> bool:
        """R2.2 (``cover_out``): laying ``tile`` (its halves) on ``slot`` may not be its
        player's last play: it is a double that would wait there to be covered."""
        a, b = tile
        return (self.data.cover_out and a == b and self.data.slots[slot].double_takes > 0
                and self.starts_wait(self.pending(marks) & ~(1 << slot)))

    def starts_wait(self, pending: int) -> bool:
        """R2.2: a double laid on a slot whose doubles take tiles makes it wait (and opens
        its toes) only while no other slot waits -- one double waits at a time (while
        one waits, play goes nowhere else; the doubles of an opening that takes tiles,
        laid on one of its waiting slots, start nothing)."""
        return not pending

    # -- reading it -------------------------------------------------------------------
    def shows(self, ends: tuple[int, ...], slot: int) -> int:
        """The number ``slot`` shows (:data:`CLOSED` if it is not open)."""
        return ends[slot]

    def numbers(self, ends: tuple[int, ...]) -> frozenset[int]:
        """Every number showing on an open slot, whoever may play there (R2.1)."""
        return frozenset(v for v in ends if v != CLOSED)

    def may_play(self, slot: int, player: int, marks: int = 0) -> bool:
        """R2.3: whether ``player`` may play on ``slot``: its access rule, and the slots
        it waits for covered (a spinner's arms)."""
        sl = self.data.slots[slot]
        if sl.after and not all(self.covered(marks, j) for j in sl.after):
            return False
        if sl.access is Access.EVERYONE or sl.owner == player:
            return True
        if sl.access is Access.STARTED:  # the player's own train has a tile on it
            return any(self.covered(marks, j) for j in self._started
                       if self.data.slots[j].owner == player)
        if sl.access is Access.OWNER_OR_MARKERS and self.marker_out(marks, player):
            return True
        return (sl.access in (Access.OWNER_OR_MARKER, Access.OWNER_OR_MARKERS)
                and sl.owner is not None and self.marker_out(marks, sl.owner))

    def targets(self, ends: tuple[int, ...], player: int, marks: int = 0,
                weights: tuple[int, ...] = ()) -> tuple[int, ...]:
        """The open slots ``player`` may play on -- only the pending ones while a double
        takes its tiles -- one per symmetric group and number (a slot showing the same
        number as an earlier slot of its group is the same move, up to the layout's
        symmetry; where plays score, R5.7, only if it counts the same: ``weights``)."""
        if not marks:
            allowed = self._allowed[player]
        else:
            allowed = tuple(i for i in range(self.width) if self.may_play(i, player, marks))
            pending = self.pending(marks)
            if pending:
                allowed = tuple(i for i in allowed if pending >> i & 1)
        out = []
        for i in allowed:
            v = ends[i]
            if v == CLOSED:
                continue
            if any(j < i and ends[j] == v and self._same(marks, i, j)
                   and (not weights or weights[i] == weights[j]) for j in self._group[i]):
                continue
            out.append(i)
        return tuple(out)

    def _same(self, marks: int, i: int, j: int) -> bool:
        """Slots ``i`` and ``j`` of one group are interchangeable: the same marks too."""
        return (self._pending_bit(marks, i) == self._pending_bit(marks, j)
                and self._covered_bit(marks, i) == self._covered_bit(marks, j))

    def twin(self, ends: tuple[int, ...], marks: int, name: str,
             among: tuple[int, ...]) -> int | None:
        """The slot of ``among`` that the slot named ``name`` is, up to the layout's
        symmetry (same group, same number, same marks), or ``None``."""
        for j, sl in enumerate(self.data.slots):
            if sl.name == name:
                return next((i for i in among if i in self._group[j] and ends[i] == ends[j]
                             and self._same(marks, i, j)), None)
        return None

    def slot_showing(self, ends: tuple[int, ...], player: int, number: int,
                     marks: int = 0) -> int | None:
        """The slot ``player`` may play on that shows ``number`` (the first, up to the
        symmetry), or ``None``: how a play written "on the 5" is read back."""
        for i in self.targets(ends, player, marks):
            if ends[i] == number:
                return i
        return None

    def consistent(self, tiles: TileSet, table: int, ends: tuple[int, ...],
                   marks: int = 0) -> bool:
        """Whether ``ends`` can be the slot values of a layout made of ``table``.

        Every slot is closed exactly when the table is empty; the values are numbers of
        the set and canonical; and, in a layout of lines (every slot opened by the lead
        with one half of the opening tile), every joint pairs two equal halves, so a
        number shows on the table an odd number of times exactly when it shows on an odd
        number of open slots. (A double at a hub, a spinner or a foot offers its number
        to more than two ends, so that count is the line's alone; under Matador matching,
        R2.1, a joint pairs halves summing to N+1 or a wild matador, so no count holds:
        each open end then shows a half of some tile on the table.)"""
        if len(ends) != self.width:
            return False
        if table == 0:
            return ends == self.closed and not self.pending(marks)
        if any(not 0 <= v <= tiles.n for v in ends if v != CLOSED) or not self.opened(ends):
            return False
        if (ends, marks) != self.canonical(ends, marks):
            return False
        if self.data.match_total:
            return all(v == CLOSED or tiles.suit[v] & table for v in ends)
        if not self.lines:
            return True
        odd = 0
        for t in bits(table):
            a, b = tiles.halves[t]
            odd ^= (1 << a) ^ (1 << b)
        for v in ends:
            if v != CLOSED:
                odd ^= 1 << v
        return odd == 0

    def describe(self, ends: tuple[int, ...]) -> str:
        """The open ends as numbers, ``"2 5"`` (``""`` before the lead)."""
        return " ".join(str(v) for v in ends if v != CLOSED)


def _set(marks: int, bit: int, value: int) -> int:
    return marks | 1 << bit if value else marks & ~(1 << bit)


@cache
def layout_for(data: SlotLayout, players: int) -> Layout:
    """The (cached) engine reading of ``data`` for ``players`` seats."""
    return Layout(data, players)


def _layout_of(variant: Variant) -> Layout:
    return layout_for(variant.slot_layout, variant.players)


def layout_data(v: Variant) -> SlotLayout:
    """The layout's slots (Terms "Layout") from the variant's ``[layout]`` parameters."""
    lay = v.layout
    return topology(Shape(lay.kind, v.deal.players, v.set.max, lay.spinner_sides_first,
                          lay.lead_double_takes, lay.double_takes, lay.double_again,
                          lay.open_trains, lay.public_train, lay.out_on_double,
                          lay.first_turn, lay.match))


def layout_of(variant: Variant) -> Layout:
    """The engine reading of ``variant``'s layout, kept on the variant (``derived``)."""
    return variant.derived(_layout_of)
