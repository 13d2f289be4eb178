"""The plain reference's reading of the layout: slots, markers, covered sides, pending slots.

Part of the deliberately plain reference of ``tests/reference_rules.py``, written from
docs/SEMANTICS.md and docs/LAYOUTS.md, not from ``model/layout.py``: the slot data of
the variant (``variant.slot_layout``) read field by field, and the layout part of a
state held as plain values:

* ``ends``: each slot's number, ``None`` while it is closed;
* ``markers``: the seats whose marker is out (trains: their train is open to everyone);
* ``covered``: the slots another slot waits for (a spinner's sides) that have had a
  tile laid on them;
* ``pending``: the slots a double has left waiting: while any is, play goes nowhere
  else;
* ``first`` (``tests/reference_rules.py``): the player to move is on their first turn,
  laying tiles on their own train (trains, ``[layout] first_turn = "own-train"``: a
  player whose own train has no tile yet lays on it until they end the turn; each train
  then counts as covered once a tile is laid on it).

The rules of the layout, one function each:

* the lead opens every slot that opens with it, showing the half of the opening tile
  the slot names; a double also opens a spinner's arms (showing its number) and, where
  the opening double takes tiles, leaves every slot it opened pending;
* a tile fits a slot when it carries the slot's number, or under Matador matching
  (``[layout] match = "matador"``) the number's complement to N+1, or is a matador
  (0-0, or halves summing to N+1);
* a tile laid on a slot makes it show the tile's other half (under Matador, the half
  other than the complement; a matador whose halves differ is turned either way round,
  on any slot, and shows the half its player chose to leave); the slot is covered, and
  no longer pending; a double laid during play on a slot whose doubles take tiles,
  when nothing else is pending, leaves that slot pending and opens the first closed
  toes, as many as the double takes beyond its own slot, each showing its number and
  pending; a play on one's own train takes one's marker in (a pass, a confirmation or a
  foul puts it out: ``reference_rules.transitions``);
* a player may play on an open slot when everything it waits for is covered and its
  access allows: everyone, its owner, or anyone while its owner's marker is out (with
  "owner-or-markers", also anyone whose own marker is out; with "started", anyone whose
  own train has had a tile laid on it); while slots are pending, only on those; with
  out_on_double "covered", never a last tile that is a double left waiting there;
* a symmetric group's slots are kept sorted by the number they show (closed ones last),
  each taking its covered and pending marks with it, and of two slots of a group showing
  the same number with the same marks only the first is offered (laying a tile on either
  gives the same layout).

``Layout.fields`` (where markers, covered sides and pending slots lie in
``State.marks``) is vocabulary, read to translate a model state, never a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dominoproof.model.layout import layout_of
from dominoproof.model.variant import Variant

Tile = tuple[int, int]
Ends = tuple[int | None, ...]


@dataclass(frozen=True)
class Table:
    """The layout part of a state, plain."""

    ends: Ends
    markers: frozenset[int] = frozenset()
    covered: frozenset[int] = frozenset()
    pending: frozenset[int] = frozenset()
    #: R5.7 (scoring in play only, else empty): per slot, how many times its number
    #: counts -- 0 closed or a bare spinner arm, 1, 2 a double at that end
    weights: tuple[int, ...] = ()


def scores_in_play(variant: Variant) -> bool:
    """R5.7: the variant scores plays (``[scoring] in_play = "fives"``)."""
    return variant.scoring.in_play.value == "fives"


def closed(variant: Variant) -> Table:
    """Before the lead: every slot closed, no marker out, nothing covered or pending,
    nothing counted."""
    slots = variant.slot_layout.slots
    weights = tuple(0 for _ in slots) if scores_in_play(variant) else ()
    return Table(tuple(None for _ in slots), weights=weights)


def count(table: Table) -> int:
    """R5.7: the ends' count: each open slot's number as many times as it counts."""
    return sum(w * x for x, w in zip(table.ends, table.weights, strict=True) if x is not None)


def _other(t: Tile, x: int) -> int:
    return t[1] if t[0] == x else t[0]


def sevens(variant: Variant) -> int | None:
    """Matador matching (``[layout] match = "matador"``): the sum touching halves make,
    N+1 (seven on double-6); ``None`` where equal numbers match."""
    return variant.set.max + 1 if variant.layout.match.value == "matador" else None


def fits(variant: Variant, t: Tile, x: int) -> bool:
    """R2.1: may ``t`` go on an end showing ``x``? Equal matching: ``t`` carries ``x``.
    Matador: ``t`` carries the complement of ``x`` to N+1, or is a matador (0-0, or
    halves adding up to N+1), which goes anywhere; a blank has no complement, so only
    a matador goes on a blank."""
    total = sevens(variant)
    if total is None:
        return x in t
    return (total - x) in t or t == (0, 0) or t[0] + t[1] == total


def ways_round(variant: Variant, t: Tile) -> list[int | None]:
    """R2.1: the numbers a play of ``t`` may choose to leave its slot showing. Matador:
    a matador is wild "on any open end of the layout in either orientation" (pagat), so
    one whose two halves differ leaves either, lower first, wherever it goes (also where
    a half of it is the complement); ``[None]``: the tile goes on one way, no choice
    (equal matching, 0-0, any tile that is no matador)."""
    total = sevens(variant)
    wild = total is not None and (t == (0, 0) or t[0] + t[1] == total)
    return sorted(t) if wild and t[0] != t[1] else [None]


def after(variant: Variant, t: Tile, x: int, leaves: int | None = None) -> int:
    """R2.1: what an end showing ``x`` shows once ``t`` is laid on it. Equal matching:
    the half other than ``x``. Matador: the half the player turned the matador to
    leave (``leaves``, one of :func:`ways_round`), else the half other than ``x``'s
    complement (0-0 shows 0)."""
    total = sevens(variant)
    if leaves is not None:
        assert leaves in t, (t, leaves)
        return leaves
    if total is None:
        return _other(t, x)
    return _other(t, total - x) if (total - x) in t else t[0]


def first_turns(variant: Variant) -> bool:
    """A first turn lays tile after tile on one's own train: trains, and the variant's
    ``[layout] first_turn`` says "own-train"."""
    return (variant.layout.kind.value == "trains"
            and variant.layout.first_turn.value == "own-train")


def own_train(variant: Variant, player: int) -> int | None:
    """The slot ``player`` owns (their train), if any."""
    for i, slot in enumerate(variant.slot_layout.slots):
        if slot.owner == player:
            return i
    return None


def waited_for(variant: Variant) -> set[int]:
    """The slots some other slot waits for: a spinner's sides; and every train, where a
    slot is open only to players whose own train has a tile on it (access "started") or
    where a first turn lasts while one's own train has no tile."""
    out: set[int] = set()
    slots = variant.slot_layout.slots
    trains = {i for i, other in enumerate(slots) if other.owner is not None}
    for slot in slots:
        out |= set(slot.after)
        if slot.access.value == "started":
            out |= trains
    if first_turns(variant):
        out |= trains
    return out


def group_of(variant: Variant, i: int) -> tuple[int, ...]:
    """The symmetric group of slot ``i`` (itself alone if it has none)."""
    for group in variant.slot_layout.symmetric:
        if i in group:
            return group
    return (i,)


def canonical(variant: Variant, table: Table) -> Table:
    """Each symmetric group sorted by the number shown, closed slots last, each slot's
    marks going with it."""
    ends = list(table.ends)
    covered, pending = set(table.covered), set(table.pending)
    weights = list(table.weights) or [0] * len(ends)
    for group in variant.slot_layout.symmetric:
        items = []
        for i in group:
            v = ends[i]
            items.append((v is None, -1 if v is None else v, i in pending, i in covered,
                          weights[i], v))
        items.sort()
        for i, (_, _, is_pending, is_covered, w, v) in zip(group, items, strict=True):
            ends[i] = v
            weights[i] = w
            pending.discard(i)
            covered.discard(i)
            if is_pending:
                pending.add(i)
            if is_covered:
                covered.add(i)
    return Table(tuple(ends), table.markers, frozenset(covered), frozenset(pending),
                 tuple(weights) if table.weights else ())


def lead(variant: Variant, table: Table, t: Tile) -> Table:
    """The opening tile ``t`` (``t[0] <= t[1]``) laid."""
    data = variant.slot_layout
    ends = list(table.ends)
    double = t[0] == t[1]
    for i, slot in enumerate(data.slots):
        if slot.opens.value == "lead":
            ends[i] = t[slot.half]
        elif slot.opens.value == "spinner" and double:
            ends[i] = t[0]
    pending: set[int] = set()
    if double and data.lead_takes > 0:
        pending = {i for i, v in enumerate(ends) if v is not None}
    # R5.7: the lead's halves count once each; a spinner's arms count once played on
    weights = tuple(1 if slot.opens.value == "lead" else 0 for slot in data.slots
                    ) if table.weights else ()
    return canonical(variant, Table(tuple(ends), table.markers, table.covered,
                                    frozenset(pending), weights))


def lay(variant: Variant, table: Table, slot: int, t: Tile, player: int,
        lone_double: bool = False, leaves: int | None = None) -> Table:
    """``player`` lays ``t`` on the open ``slot`` (``lone_double``: the one tile on the
    table is a double, whose other halves then lie at an end, R5.7; ``leaves``: the half
    a turned matador leaves showing, R2.1)."""
    data = variant.slot_layout
    ends = list(table.ends)
    x = ends[slot]
    assert x is not None
    ends[slot] = after(variant, t, x, leaves)
    covered = set(table.covered)
    if slot in waited_for(variant):
        covered.add(slot)
    pending = set(table.pending) - {slot}
    takes = data.slots[slot].double_takes
    if t[0] == t[1] and takes > 0 and not pending:
        pending = {slot}
        toes = [i for i, s in enumerate(data.slots) if s.opens.value == "toe" and ends[i] is None]
        for i in toes[:takes - 1]:
            ends[i] = t[0]
            pending.add(i)
    markers = set(table.markers)
    if data.slots[slot].owner == player:
        markers.discard(player)
    weights = list(table.weights)
    if weights:  # R5.7: a double at an end counts both halves
        weights[slot] = 2 if t[0] == t[1] else 1
        for i, s in enumerate(data.slots):
            if lone_double and i != slot and s.opens.value == "lead" and weights[i] > 0:
                weights[i] = 2
    return canonical(variant, Table(tuple(ends), frozenset(markers), frozenset(covered),
                                    frozenset(pending), tuple(weights)))


def plays_again(variant: Variant, t: Tile, slot: int | None) -> bool:
    """The player who laid ``t`` on ``slot`` plays again: a double on a slot whose
    doubles take tiles, where the layout says so."""
    data = variant.slot_layout
    return (data.again and slot is not None and t[0] == t[1]
            and data.slots[slot].double_takes > 0)


def marker_out(table: Table, player: int) -> Table:
    """A pass, a confirmation or a foul by ``player``: their marker goes out (where the
    layout has markers)."""
    return Table(table.ends, table.markers | {player}, table.covered, table.pending)


def may_play(variant: Variant, table: Table, slot: int, player: int) -> bool:
    """R2.3: the slot's access, and everything it waits for covered."""
    data = variant.slot_layout.slots[slot]
    if any(j not in table.covered for j in data.after):
        return False
    access = data.access.value
    if access == "everyone" or data.owner == player:
        return True
    if access == "started":  # the player's own train has a tile on it
        slots = variant.slot_layout.slots
        return any(slots[j].owner == player for j in table.covered)
    if access == "owner-or-markers" and player in table.markers:
        return True
    return access in ("owner-or-marker", "owner-or-markers") and data.owner in table.markers


def offered(variant: Variant, table: Table, player: int) -> list[int]:
    """The open slots ``player`` may play on (the pending ones only, while any is), the
    first of a group's equal slots only."""
    out = []
    for i, x in enumerate(table.ends):
        if x is None or not may_play(variant, table, i, player):
            continue
        if table.pending and i not in table.pending:
            continue
        marks = (i in table.pending, i in table.covered, _weight(table, i))
        if any(j < i and table.ends[j] == x and (j in table.pending, j in table.covered,
                                                  _weight(table, j))
               == marks for j in group_of(variant, i)):
            continue
        out.append(i)
    return out


def _weight(table: Table, i: int) -> int:
    """R5.7: how many times slot ``i`` counts (two equal slots counting differently are
    two plays: they score differently); 0 where plays score nothing."""
    return table.weights[i] if table.weights else 0


def goes_out_waiting(variant: Variant, table: Table, slot: int, t: Tile,
                     hand: frozenset[Tile]) -> bool:
    """R2.2 with out_on_double = "covered": ``t`` is the whole ``hand`` and a double that
    would wait on ``slot`` (its doubles take tiles, no other slot pending): no legal play."""
    if variant.layout.out_on_double.value != "covered" or hand != {t} or t[0] != t[1]:
        return False
    return variant.slot_layout.slots[slot].double_takes > 0 and not table.pending - {slot}


def numbers(table: Table) -> set[int]:
    """Every number an open slot shows, whoever may play there."""
    return {e for e in table.ends if e is not None}


# ---------------------------------------------------------------------------
# The model's marks, translated (Layout.fields is vocabulary)
# ---------------------------------------------------------------------------


def read_first(variant: Variant, marks: int) -> bool:
    """The first-turn bit of ``State.marks``: the player to move is on their first turn."""
    f = layout_of(variant).fields
    return f.first >= 0 and (marks >> f.first) % 2 == 1


def read_marks(variant: Variant, marks: int) -> tuple[frozenset[int], frozenset[int],
                                                       frozenset[int]]:
    """(markers out, covered slots, pending slots) of ``State.marks``."""
    f = layout_of(variant).fields
    width = len(variant.slot_layout.slots)

    def bit(b: int) -> bool:
        return b >= 0 and (marks >> b) % 2 == 1

    markers = frozenset(p for p in range(variant.deal.players)
                        if f.markers >= 0 and bit(f.markers + p))
    covered = frozenset(i for i in range(width) if bit(f.covered[i]))
    pending = frozenset(i for i in range(width) if f.pending >= 0 and bit(f.pending + i))
    return markers, covered, pending


def write_marks(variant: Variant, markers: Sequence[int] | frozenset[int],
                covered: frozenset[int], pending: frozenset[int], first: bool = False) -> int:
    """``State.marks`` for the given markers, covered and pending slots, and whether the
    player to move is on their first turn."""
    f = layout_of(variant).fields
    total = 0
    if first:
        assert f.first >= 0, "a first turn going on where first turns lay one tile"
        total += 2 ** f.first
    for p in markers:
        assert f.markers >= 0, "a marker out in a layout without markers"
        total += 2 ** (f.markers + p)
    for i in covered:
        assert f.covered[i] >= 0, f"slot {i} is covered, but nothing waits for it"
        total += 2 ** f.covered[i]
    for i in pending:
        assert f.pending >= 0, f"slot {i} is pending in a layout without double rules"
        total += 2 ** (f.pending + i)
    return total
