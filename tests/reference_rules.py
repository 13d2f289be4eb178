"""A deliberately plain reference implementation of docs/SEMANTICS.md.

This is the *independent reading* the conformance check compares the engine
against. It is written from SEMANTICS.md alone, not from
``model/rules.py`` or ``model/outcome.py``: plain sets, lists and dicts, one
guard after another in the order SEMANTICS lists them, no bitmasks, no caches,
no cleverness. It is slow on purpose; it only has to be obviously right.

The only things it takes from the model are the *vocabulary*: the ``Variant``
(read field by field, the layout's slot data included), the ``State`` and
``Move`` values (so that its answers can be compared with the engine's), and
nothing that computes a rule.

The layout is read from its slot data (``variant.slot_layout``) by the plain functions
of ``tests/reference_layout.py``: each slot shows a number or is closed (``None``
here), opens with the lead, with an opening double (a spinner's arms) or with a later
double (a chicken foot's toes), may wait for other slots to be covered, is open to
everyone or to its owner (or to anyone while the owner's marker is out), and takes the
tiles its doubles take before play moves on; slots of a symmetric group are kept
sorted (closed ones last, with their marks), of two equal ones only the first offered.

A tile is a pair ``(a, b)`` with ``a <= b``; its index is ``b*(b+1)//2 + a``
(SEMANTICS, Constants). Rule IDs refer to /work/shared/RULES.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import reference_layout as lay
from reference_layout import Table
from reference_scoring import score

from dominoproof.model.moves import LEAD, Move
from dominoproof.model.state import State, Status
from dominoproof.model.variant import Variant

Tile = tuple[int, int]

PLAYING = "PLAYING"
BLOCKED = "BLOCKED"
DOMINO = "DOMINO"


# ---------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------


def all_tiles(n: int) -> list[Tile]:
    """Every tile of the double-n set, in index order (Terms)."""
    out = []
    for b in range(n + 1):
        for a in range(b + 1):
            out.append((a, b))
    return out


def index_of(t: Tile) -> int:
    a, b = t
    return b * (b + 1) // 2 + a


#: Every tile of the largest set (double-18), by index: TILES[index_of(t)] == t.
TILES: list[Tile] = all_tiles(18)


def tile_of(i: int) -> Tile:
    return TILES[i]


def value(variant: Variant, t: Tile) -> int:
    """R5.3: a + b, unless the variant names a special value for this tile."""
    for i, v in variant.scoring.tile_values:
        if i == index_of(t):
            return v
    return t[0] + t[1]


def needed_confirmations(variant: Variant) -> int:
    """C of SEMANTICS [R4.4]."""
    c = str(variant.block.confirmations)  # as the variant file writes it
    if c == "all":
        return variant.deal.players
    if c == "all-others":
        return variant.deal.players - 1
    return int(c)


# ---------------------------------------------------------------------------
# Variables
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RefState:
    """SEMANTICS, Variables, with plain sets."""

    hands: tuple[frozenset[Tile], ...]
    boneyard: frozenset[Tile]
    aside: frozenset[Tile]
    table: frozenset[Tile]
    ends: tuple[int | None, ...]  #: each slot's number, None while closed
    turn: int
    confirmed: int
    drew: bool
    fouls: frozenset[int]
    status: str
    stack: tuple[Tile, ...] | None
    marks: frozenset[int] = frozenset()  #: seats whose marker is out
    covered: frozenset[int] = frozenset()  #: slots waited for, a tile laid on them
    pending: frozenset[int] = frozenset()  #: slots a double leaves waiting for a tile
    #: the player to move is on their first turn, laying tiles on their own train (R2.3)
    first: bool = False
    #: R5.7 (scoring in play only): each seat's points, and how many times each slot counts
    points: tuple[int, ...] = ()
    weights: tuple[int, ...] = ()

    @property
    def layout(self) -> Table:
        return Table(self.ends, self.marks, self.covered, self.pending, self.weights)

    def with_layout(self, table: Table) -> RefState:
        return _replace(self, ends=table.ends, marks=table.markers, covered=table.covered,
                        pending=table.pending, weights=table.weights)


def mask_to_set(mask: int) -> frozenset[Tile]:
    out = set()
    i = 0
    while mask:
        if mask % 2 == 1:
            out.add(tile_of(i))
        mask //= 2
        i += 1
    return frozenset(out)


def set_to_mask(tiles: frozenset[Tile] | set[Tile]) -> int:
    total = 0
    for t in tiles:
        total += 2 ** index_of(t)
    return total


def from_model(variant: Variant, s: State) -> RefState:
    """Read a model state into the plain representation."""
    markers, covered, pending = lay.read_marks(variant, s.marks)
    fouls = set()
    for p in range(len(s.hands)):
        if (s.fouls >> p) % 2 == 1:
            fouls.add(p)
    return RefState(
        hands=tuple(mask_to_set(h) for h in s.hands),
        boneyard=mask_to_set(s.boneyard),
        aside=mask_to_set(s.set_aside),
        table=mask_to_set(s.table),
        ends=tuple(None if e < 0 else e for e in s.ends),
        turn=s.turn,
        confirmed=s.confirmed,
        drew=s.drew,
        fouls=frozenset(fouls),
        status=s.status.name,
        stack=None if s.stack is None else tuple(tile_of(i) for i in s.stack),
        marks=markers, covered=covered, pending=pending, first=lay.read_first(variant, s.marks),
        points=s.points, weights=s.weights,
    )


def to_model(variant: Variant, r: RefState) -> State:
    """Write the plain representation back as a model state (to compare keys)."""
    fouls = 0
    for p in r.fouls:
        fouls += 2 ** p
    return State(
        hands=tuple(set_to_mask(h) for h in r.hands),
        boneyard=set_to_mask(r.boneyard),
        set_aside=set_to_mask(r.aside),
        table=set_to_mask(r.table),
        ends=tuple(-1 if e is None else e for e in r.ends),
        turn=r.turn,
        confirmed=r.confirmed,
        drew=r.drew,
        fouls=fouls,
        status=Status[r.status],
        stack=None if r.stack is None else tuple(index_of(t) for t in r.stack),
        marks=lay.write_marks(variant, r.marks, r.covered, r.pending, r.first),
        points=r.points, weights=r.weights,
    )


# ---------------------------------------------------------------------------
# Init
# ---------------------------------------------------------------------------


def deal_from_order(variant: Variant, order: Sequence[int]) -> tuple[
        list[frozenset[Tile]], list[Tile], frozenset[Tile]]:
    """SEMANTICS, Init: hands, boneyard in draw order, set-aside tiles of a permutation."""
    players = variant.deal.players
    h = variant.deal.hand_size
    k = variant.deal.set_aside
    tiles = [tile_of(i) for i in order]
    hands = []
    for p in range(players):
        if variant.deal.order.value == "blocks":
            positions = list(range(p * h, p * h + h))
        else:
            positions = [p + j * players for j in range(h)]
        hands.append(frozenset(tiles[i] for i in positions))
    rest = tiles[players * h:]
    boneyard = rest[: len(rest) - k]
    aside = frozenset(rest[len(rest) - k:])
    return hands, boneyard, aside


def heaviest(variant: Variant, tiles: set[Tile] | frozenset[Tile]) -> Tile:
    """Highest value (a+b, or the variant's special value: SEMANTICS "Init"), then
    highest index."""
    best = None
    for t in tiles:
        if best is None or (value(variant, t), index_of(t)) > (value(variant, best),
                                                             index_of(best)):
            best = t
    assert best is not None
    return best


def holder(hands: Sequence[frozenset[Tile]], t: Tile) -> int | None:
    for p, hand in enumerate(hands):
        if t in hand:
            return p
    return None


def lead_options(variant: Variant, hands: Sequence[frozenset[Tile]]) -> tuple[
        int, list[Tile]] | None:
    """SEMANTICS, Init: the leader and the tiles they may lead with (None: redeal)."""
    rule = variant.lead.rule.value
    everyone: set[Tile] = set()
    for hand in hands:
        everyone |= hand

    def highest_double() -> tuple[int, list[Tile]] | None:
        doubles = [t for t in everyone if t[0] == t[1]]
        if not doubles:
            return None
        top = max(doubles)
        p = holder(hands, top)
        assert p is not None
        return p, [top]

    def heaviest_tile() -> tuple[int, list[Tile]]:
        t = heaviest(variant, everyone)
        p = holder(hands, t)
        assert p is not None
        return p, [t]

    def named_player() -> tuple[int, list[Tile]]:
        p = variant.lead.player
        return p, sorted(hands[p])

    if rule == "player":
        return named_player()
    found: tuple[int, list[Tile]] | None = None
    if rule == "tile":
        a, b = (int(x) for x in variant.lead.tile.replace("|", "-").split("-"))
        t = (min(a, b), max(a, b))
        p = holder(hands, t)
        if p is not None:
            found = (p, [t])
    elif rule == "highest-double":
        found = highest_double()
    if found is not None:
        return found
    fallback = variant.lead.fallback.value
    if fallback == "highest-double":
        hd = highest_double()
        return hd if hd is not None else heaviest_tile()
    if fallback == "heaviest-tile":
        return heaviest_tile()
    if fallback == "player":
        return named_player()
    if fallback == "draw":  # R3.6: nobody leads yet; the players draw for it, this one first
        return variant.lead.player, []
    return None  # redeal: the model has no such initial state


def named_tiles(variant: Variant) -> list[Tile]:
    """The tiles the lead rule names: its tile, or under "highest-double" every double."""
    if variant.lead.rule.value == "tile":
        a, b = (int(x) for x in variant.lead.tile.replace("|", "-").split("-"))
        return [(min(a, b), max(a, b))]
    return [(d, d) for d in range(variant.set.max + 1)]


def drawing_for_lead(variant: Variant, hands: Sequence[frozenset[Tile]]) -> bool:
    """R3.6: the fallback is "draw" and no hand holds a tile the lead rule names."""
    if variant.lead.rule.value == "player" or variant.lead.fallback.value != "draw":
        return False
    return all(holder(hands, t) is None for t in named_tiles(variant))


def initial(variant: Variant, hands: Sequence[frozenset[Tile]], stack: Sequence[Tile],
            aside: frozenset[Tile], *, free_draw: bool = False) -> RefState | None:
    """Init from a dealt position (None if the lead rule voids the deal)."""
    lead = lead_options(variant, hands)
    if lead is None:
        return None
    scores = lay.scores_in_play(variant)  # R5.7: nobody has scored, nothing counts
    return RefState(
        hands=tuple(hands), boneyard=frozenset(stack), aside=aside, table=frozenset(),
        ends=lay.closed(variant).ends, turn=lead[0], confirmed=0,
        drew=False, fouls=frozenset(), status=PLAYING,
        stack=None if free_draw else tuple(stack),
        points=tuple(0 for _ in hands) if scores else (), weights=lay.closed(variant).weights,
    )


def initial_from_order(variant: Variant, order: Sequence[int], *,
                       free_draw: bool = False) -> RefState | None:
    hands, stack, aside = deal_from_order(variant, order)
    return initial(variant, hands, stack, aside, free_draw=free_draw)


# ---------------------------------------------------------------------------
# Predicates of RULES.md
# ---------------------------------------------------------------------------


def opened(r: RefState) -> bool:
    """The lead has been played: some slot is open."""
    return any(e is not None for e in r.ends)


def plays(variant: Variant, r: RefState, p: int) -> list[tuple[Tile, int, int | None]]:
    """Seat p's plays after the lead, (tile, slot, the half it leaves showing or None):
    each slot offered to p (R2.3, and the pending slots only while a double waits) with
    each tile fitting its number (R2.1: carrying it, or under Matador its complement to
    N+1, or a matador, turned either way), but not a last tile that is a double left
    waiting there (R2.2, out_on_double "covered")."""
    hand = r.hands[p]
    return [(t, slot, way) for slot in lay.offered(variant, r.layout, p)
            for t in sorted(hand)
            if lay.fits(variant, t, _shown(r, slot))
            and not lay.goes_out_waiting(variant, r.layout, slot, t, hand)
            for way in lay.ways_round(variant, t)]


def _shown(r: RefState, slot: int) -> int:
    x = r.ends[slot]
    assert x is not None
    return x


def playable(variant: Variant, r: RefState, p: int) -> list[Tile]:
    """Tiles of seat p it may play (:func:`plays`); every tile before the lead."""
    if not opened(r):
        return sorted(r.hands[p])
    return sorted({t for t, _, _ in plays(variant, r, p)})


def ends_unplayable(variant: Variant, r: RefState) -> bool:
    """R2: the layout is open, and no open end can be extended: no tile in any hand
    carries an open slot's number ("holds a matching tile"), or no player has a tile
    for a slot they may play on ("has a legal move"), as the variant reads R2.3."""
    if not opened(r):
        return False
    if variant.layout.extend.value == "has-legal-move":
        return all(not playable(variant, r, p) for p in range(len(r.hands)))
    numbers = lay.numbers(r.layout)
    for hand in r.hands:
        for t in hand:
            if any(lay.fits(variant, t, x) for x in numbers):
                return False
    return True


def boneyard_supplies_nothing(r: RefState) -> bool:
    """R3.2."""
    return len(r.boneyard) == 0


def is_blocked(variant: Variant, r: RefState) -> bool:
    """R1.1: not a domino (recorded, or due: an empty hand, R1.2), R2 and R3."""
    if r.status == DOMINO or any(not hand for hand in r.hands):
        return False
    return ends_unplayable(variant, r) and boneyard_supplies_nothing(r)


def block_ready(variant: Variant, r: RefState) -> bool:
    """R4.4."""
    if r.confirmed < needed_confirmations(variant):
        return False
    return not variant.block.boneyard_must_be_empty or len(r.boneyard) == 0


# ---------------------------------------------------------------------------
# Actions and Next
# ---------------------------------------------------------------------------


def _with_hand(r: RefState, p: int, hand: frozenset[Tile]) -> tuple[frozenset[Tile], ...]:
    hands = list(r.hands)
    hands[p] = hand
    return tuple(hands)


def _play(variant: Variant, r: RefState, p: int, t: Tile, slot: int | None,
          leaves: int | None = None) -> RefState:
    """Play(p, t, slot); slot None is the lead. The turn passes unless the hand is now
    empty, the player laid a double that lets them play again [R2.2], or they laid it on
    their own train during their first turn (their train had no tile, or that turn was
    already going on), which then goes on [R2.3] -- unless the tile is a double left
    waiting there, which ends it."""
    players = variant.deal.players
    hand = r.hands[p] - {t}
    lone = len(r.table) == 1 and all(a == b for a, b in r.table)
    table = (lay.lead(variant, r.layout, t) if slot is None
             else lay.lay(variant, r.layout, slot, t, p, lone, leaves))
    points = list(r.points)
    if points and lay.count(table) % 5 == 0:  # R5.7: the count, when a multiple of 5
        points[p] += lay.count(table)
    first = (slot is not None and lay.first_turns(variant) and slot == lay.own_train(variant, p)
             and (r.first or slot not in r.covered) and slot not in table.pending)
    again = not hand or lay.plays_again(variant, t, slot) or first
    return _replace(r, hands=_with_hand(r, p, hand), table=r.table | {t},
                    turn=p if again else (p + 1) % players, confirmed=0, drew=False,
                    first=first, points=tuple(points)).with_layout(table)


def _out(variant: Variant, r: RefState) -> RefState:
    """The mover's marker goes out, where the layout has markers: a pass, a confirmation
    and a foul each declare they cannot play [R3.1, R4.2]."""
    if not variant.slot_layout.markers:
        return r
    return r.with_layout(lay.marker_out(r.layout, r.turn))


def transitions(variant: Variant, r: RefState) -> list[tuple[Move, RefState]]:
    """SEMANTICS, Actions: the enabled moves and their successors, guards in order."""
    players = variant.deal.players
    p = r.turn
    nxt = (p + 1) % players
    out: list[tuple[Move, RefState]] = []

    # 1. terminal
    if r.status != PLAYING:
        return out
    # 2. an empty hand: Domino
    if not r.hands[p]:
        out.append((Move.domino(p), _replace(r, status=DOMINO)))
        return out
    # 3. the block is ready: Establish [R4.4, R5.1]
    if block_ready(variant, r):
        out.append((Move.establish(p), _replace(r, status=BLOCKED)))
        return out
    # R4.7: where a dead end may be called -- an open end shows a number every tile of
    # which is on the table -- the mover may call the block, or go on as below
    if variant.block.call.value == "dead-end" and any(
            all(t in r.table for t in all_tiles(variant.set.max) if lay.fits(variant, t, x))
            for x in r.ends if x is not None):
        out.append((Move.establish(p), _replace(r, status=BLOCKED)))
    # 3'. a first turn going on [R2.3]: another tile on one's own train, or end the turn
    # (a pass that puts no marker out and counts no confirmation)
    if r.first:
        own = lay.own_train(variant, p)
        for slot in lay.offered(variant, r.layout, p):
            for t in sorted(r.hands[p]):
                if slot == own and r.ends[slot] in t:
                    out.append((Move.play(p, index_of(t), slot),
                                _play(variant, r, p, t, slot)))
        out.append((Move.pass_(p), _replace(r, turn=nxt, first=False)))
        return out
    # 4. the lead; before it, while nobody holds the tile the lead rule names (fallback
    # "draw"), the player to move draws one tile, and keeps the turn only if it is that
    # tile [R3.6]
    if not opened(r) and drawing_for_lead(variant, r.hands):
        choices = sorted(r.boneyard) if r.stack is None else list(r.stack[:1])
        for t in choices:
            out.append((Move.draw(p, index_of(t)), _replace(
                r, hands=_with_hand(r, p, r.hands[p] | {t}), boneyard=r.boneyard - {t},
                stack=None if r.stack is None else r.stack[1:],
                turn=p if t in named_tiles(variant) else nxt)))
        return out
    if not opened(r):
        lead = lead_options(variant, r.hands)
        if lead is not None and lead[0] == p:
            for t in lead[1]:
                out.append((Move.play(p, index_of(t), LEAD), _play(variant, r, p, t, None)))
        return out
    # 5. plays [R2.1, R4.3], and where fouls are penalised a false Confirm [R4.5]
    moves = plays(variant, r, p)
    if moves:
        for t, slot, way in moves:
            move = Move.play(p, index_of(t), slot, -1 if way is None else way)
            out.append((move, _play(variant, r, p, t, slot, way)))
        if (variant.fouls.rule.value == "penalised" and not r.boneyard
                and p not in r.fouls):
            out.append((Move.confirm(p), _replace(
                _out(variant, r), fouls=r.fouls | {p}, confirmed=0, turn=nxt, drew=False)))
        # R3.5: "any-time": a player who can play may draw instead, as in 6 below
        if variant.draw.when.value == "any-time":
            out.extend(_draws(variant, r, p))
        return out
    # 6. draw [R3.1]
    draws = _draws(variant, r, p)
    if draws:
        return out + draws
    # 7. pass (draw-one, after the draw) [R3.1]
    if r.boneyard:
        confirmed = 0 if variant.block.boneyard_must_be_empty else r.confirmed + 1
        out.append((Move.pass_(p), _replace(_out(variant, r), turn=nxt, drew=False,
                                            confirmed=confirmed)))
        return out
    # 8. confirm [R4.1, R4.2]; one that puts a marker out may start the run again [R4.4]
    restart = (variant.block.restart_on_marker and variant.slot_layout.markers
               and p not in r.marks)
    out.append((Move.confirm(p), _replace(_out(variant, r), turn=nxt, drew=False,
                                          confirmed=1 if restart else r.confirmed + 1)))
    return out


def _draws(variant: Variant, r: RefState, p: int) -> list[tuple[Move, RefState]]:
    """Draws by ``p`` [R3.1]: with stock left, a draw rule, and not drawn this turn (draw
    one): the top of the stack, or any boneyard tile when the order is free."""
    if not r.boneyard or variant.draw.rule.value == "none" or r.drew:
        return []
    choices = sorted(r.boneyard) if r.stack is None else [r.stack[0]]
    return [(Move.draw(p, index_of(t)), _replace(
        r, hands=_with_hand(r, p, r.hands[p] | {t}), boneyard=r.boneyard - {t},
        stack=None if r.stack is None else r.stack[1:],
        drew=variant.draw.rule.value == "one")) for t in choices]


def _replace(r: RefState, **changes: Any) -> RefState:
    fields = dict(r.__dict__)
    fields.update(changes)
    return RefState(**fields)


# ---------------------------------------------------------------------------


class ReferenceOracle:
    """The plain reference as a conformance oracle (see ``proofs/conformance.py``)."""

    name = "reference"

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self._last: tuple[State, RefState, list[tuple[Move, RefState]]] | None = None

    def _read(self, state: State) -> tuple[RefState, list[tuple[Move, RefState]]]:
        """The plain state and its transitions (the last answer is remembered, since
        the framework asks for successors and then for the classification)."""
        if self._last is None or self._last[0] is not state:
            r = from_model(self.variant, state)
            self._last = (state, r, transitions(self.variant, r))
        return self._last[1], self._last[2]

    def successors(self, state: State) -> set[tuple[Move, tuple[object, ...]]]:
        _, moves = self._read(state)
        return {(m, to_model(self.variant, s).key()) for m, s in moves}

    def classify(self, state: State) -> dict[str, Any]:
        r, moves = self._read(state)
        return {
            "terminal": not moves,
            "is_blocked": is_blocked(self.variant, r),
            "ends_unplayable": ends_unplayable(self.variant, r),
            "boneyard_supplies_nothing": boneyard_supplies_nothing(r),
            "outcome": score(self.variant, r),
        }

    def initial(self, hands: Sequence[int], stack: Sequence[int], set_aside: int, *,
                free_draw: bool = False) -> tuple[object, ...] | None:
        """The key of Init for a dealt position (masks and draw order, as a model Deal)."""
        r = initial(self.variant, [mask_to_set(h) for h in hands],
                    [tile_of(i) for i in stack], mask_to_set(set_aside), free_draw=free_draw)
        return None if r is None else to_model(self.variant, r).key()
