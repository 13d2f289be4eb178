"""Moves: every action of a round is an explicit value (STYLE 3).

=========  ==========================================================  =========
kind       meaning                                                     rule
=========  ==========================================================  =========
PLAY       lay ``tile`` on the slot ``end`` (-1: the lead)             R2, Terms
DRAW       take ``tile`` from the boneyard (before the lead: for it)   R3.1, R3.6
PASS       draw-one games: the drawn tile does not fit, turn passes    R3.1
CONFIRM    declare "I cannot extend any open end" (the first such      R4.1-R4.2
           declaration of a run proposes the block)
ESTABLISH  the table establishes the block after the confirmations     R4.4, R5.1
DOMINO     the table records that ``player`` emptied their hand        Terms
=========  ==========================================================  =========

A pass is never silent: a player who cannot move makes a CONFIRM (or, with
stock left in a draw-one game, a PASS) that the trace records.

A play names the open end it is laid on by its **slot**: an index into the
layout's fixed list of slots (:mod:`~dominoproof.model.layout`). People, traces
and other engines' logs name it by the number it shows (``"end": 5``, ``null`` for
the lead), as a person at the table says "on the 5"; where the number does not
single out one slot of the layout (two trains showing a 5), the slot's name is
added (``"slot": "train P1"``). So the written form needs the state a move is
made in: :func:`read_move` checks it on its own, :func:`resolve` finds the slot in
a state, and :func:`move_json` writes a move made in a state.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import FalseDeclarationError, IllegalMoveError, brief
from .matching import ONE_WAY, turns
from .params import DrawRule, DrawWhen
from .state import State, Status
from .tiles import MAX_SET as _MAX_SET
from .tiles import Tile, tile_count

if TYPE_CHECKING:
    from .layout import Layout
    from .rulebook import RuleBook


class MoveKind(enum.IntEnum):
    PLAY = 0
    DRAW = 1
    PASS = 2
    CONFIRM = 3
    ESTABLISH = 4
    DOMINO = 5

    @property
    def label(self) -> str:
        return self.name.lower()


NO_TILE = -1
LEAD = -1  #: the ``end`` of the opening play: there is no open end yet
#: the tile of ``RuleBook.opening`` when nobody holds the tile the lead rule names and the
#: fallback is "draw": the players draw for it in turn, the leader named first (R3.6)
DRAW_FOR_LEAD = -2
TILE_LIMIT = tile_count(_MAX_SET)  #: tile indices are ``0 .. TILE_LIMIT-1``


class Move(NamedTuple):
    """One action. ``repr`` is a constructor expression that can be pasted into a test."""

    kind: MoveKind
    player: int
    tile: int = NO_TILE  #: tile index (PLAY, DRAW)
    end: int = LEAD  #: the slot played on (PLAY); LEAD for the opening tile
    #: the number the slot is left showing, where the player chooses it: a Matador matador
    #: with two different halves turned either way round (R2.1, ``matching.turns``);
    #: ONE_WAY where the rules lay the tile one way only
    leaves: int = ONE_WAY

    # -- constructors (accept tile text or indices) -----------------------
    @staticmethod
    def play(player: int, tile: str | int | Tile, end: int = LEAD,
             leaves: int = ONE_WAY) -> Move:
        return Move(MoveKind.PLAY, player, _tile_index(tile), end, leaves)

    @staticmethod
    def draw(player: int, tile: str | int | Tile) -> Move:
        return Move(MoveKind.DRAW, player, _tile_index(tile))

    @staticmethod
    def pass_(player: int) -> Move:
        return Move(MoveKind.PASS, player)

    @staticmethod
    def confirm(player: int) -> Move:
        return Move(MoveKind.CONFIRM, player)

    @staticmethod
    def establish(player: int) -> Move:
        return Move(MoveKind.ESTABLISH, player)

    @staticmethod
    def domino(player: int) -> Move:
        return Move(MoveKind.DOMINO, player)

    # -- views --------------------------------------------------------------
    def __repr__(self) -> str:
        k = self.kind
        if not self._canonical():  # e.g. a tile index outside every set: show the fields
            kind = f"MoveKind.{k.name}" if isinstance(k, MoveKind) else repr(k)
            leaves = "" if self.leaves == ONE_WAY else f", {self.leaves!r}"
            return f"Move({kind}, {self.player!r}, {self.tile!r}, {self.end!r}{leaves})"
        if k is MoveKind.PLAY:
            end = "" if self.end == LEAD and self.leaves == ONE_WAY else f", {self.end}"
            leaves = "" if self.leaves == ONE_WAY else f", {self.leaves}"
            return f'Move.play({self.player}, "{Tile.from_index(self.tile)}"{end}{leaves})'
        if k is MoveKind.DRAW:
            return f'Move.draw({self.player}, "{Tile.from_index(self.tile)}")'
        name = "pass_" if k is MoveKind.PASS else k.label
        return f"Move.{name}({self.player})"

    def _canonical(self) -> bool:
        """Whether the named constructor shown by ``repr`` gives back this very value."""
        k, t = self.kind, self.tile
        if type(k) is not MoveKind or type(self.player) is not int:
            return False
        if k is MoveKind.PLAY:
            return (type(t) is int and 0 <= t < TILE_LIMIT and type(self.end) is int
                    and type(self.leaves) is int)
        if self.leaves != ONE_WAY:
            return False
        if k is MoveKind.DRAW:
            return type(t) is int and 0 <= t < TILE_LIMIT and self.end == LEAD
        return t == NO_TILE and self.end == LEAD

    def __str__(self) -> str:
        k, p = self.kind, self.player
        if not self._canonical():
            return repr(self)
        if k is MoveKind.PLAY:
            t = Tile.from_index(self.tile).show()
            # a move alone knows its slot's index only: the slot's name is the layout's
            # and the number it shows the state's (:func:`said` says both)
            return (f"P{p} leads {t}" if self.end == LEAD
                    else f"P{p} plays {t} on slot index {self.end}{_leaving(self)}")
        if k is MoveKind.DRAW:
            return f"P{p} draws {Tile.from_index(self.tile).show()}"
        if k is MoveKind.PASS:
            return f"P{p} passes (the drawn tile does not fit)"
        if k is MoveKind.CONFIRM:
            return f"P{p} confirms they cannot play"
        if k is MoveKind.ESTABLISH:
            return "the block is established"
        return f"P{p} dominoes (empty hand)"


def _leaving(move: Move) -> str:
    """The way round a play names, said after it (R2.1, Matador: ``, leaving 6``)."""
    return "" if move.leaves == ONE_WAY else f", leaving {move.leaves}"


def _tile_index(tile: str | int | Tile) -> int:
    if isinstance(tile, Tile):
        return tile.idx
    if isinstance(tile, str):
        return Tile.parse(tile).idx
    return tile


# ---------------------------------------------------------------------------
# Moves as JSON: a play's end by the number it shows
# ---------------------------------------------------------------------------


class WrittenMove(NamedTuple):
    """A move as a trace or log writes it: a play's end by the number it shows."""

    kind: MoveKind
    player: int
    tile: int = NO_TILE
    number: int | None = None  #: the number the end played on shows; None: the lead
    slot: str | None = None  #: the slot's name, where the number does not say which
    #: the number the play leaves its end showing, where the player turned a matador
    #: (R2.1, Matador; ``Move.leaves``); None where the rules lay the tile one way only
    leaves: int | None = None

    def show(self) -> str:
        """The move as a person writes it: ``P0 plays [2|3] on 5``, ``P1 draws [0|4]``."""
        if self.kind is not MoveKind.PLAY or self.number is None:
            return str(Move(self.kind, self.player, self.tile))
        tile = (Tile.from_index(self.tile).show() if 0 <= self.tile < TILE_LIMIT
                else f"tile {self.tile}")
        at = f" ({self.slot})" if self.slot is not None else ""
        leaving = f", leaving {self.leaves}" if self.leaves is not None else ""
        return f"P{self.player} plays {tile} on {self.number}{at}{leaving}"

    @property
    def way(self) -> int:
        """The ``Move.leaves`` this written move names (ONE_WAY where it names none)."""
        return ONE_WAY if self.leaves is None else self.leaves

    def goes_on(self, layout: Layout, ends: tuple[int, ...], slot: int) -> bool:
        """Whether this written play may be the play on ``slot`` (``ends`` the slot
        values): the slot shows the written number and bears the written name, if any."""
        return layout.shows(ends, slot) == self.number and (
            self.slot is None or layout.data.slots[slot].name == self.slot)


def move_json(layout: Layout, state: State, move: Move) -> dict[str, Any]:
    """``move``, made in ``state``, as JSON (a play's end by the number it shows)."""
    out: dict[str, Any] = {"kind": move.kind.label, "player": move.player}
    if move.tile >= 0:
        out["tile"] = str(Tile.from_index(move.tile))
    if move.kind is MoveKind.PLAY:
        if move.end == LEAD:
            out["end"] = None
        else:
            out["end"] = layout.shows(state.ends, move.end)
            if not layout.named_by_number or _counted_apart(state, move.end):
                out["slot"] = layout.data.slots[move.end].name
        if move.leaves != ONE_WAY:  # R2.1: a matador turned as its player chose
            out["leaves"] = move.leaves
    return out


def _counted_apart(state: State, slot: int) -> bool:
    """R5.7: another end shows ``slot``'s number but counts differently (one of them a
    double at its end): the number alone does not name the play."""
    w, x = state.weights, state.ends[slot]
    return bool(w) and any(y == x and w[j] != w[slot] for j, y in enumerate(state.ends))


def said(layout: Layout, state: State, move: Move) -> str:
    """``move``, made in ``state``, as a person says it: a play by the number its end
    shows (``P0 plays [2|3] on 5``) and, where the number does not name the slot (a
    layout of several lines), by the slot's name from the layout's slot data too
    (``P0 plays [2|3] on train P1 (showing 5)``, ``... on north (showing 6)``); other
    moves as ``str(move)``, but a pass that ends a first turn (R2.3): ``P0 ends their first
    turn``. The one text of a move made in a known state (``str(move)`` is the text of a
    move alone, which knows its slot's index only)."""
    if move.kind is MoveKind.PASS and layout.first_turn(state.marks):
        return f"P{move.player} ends their first turn"
    if (move.kind is MoveKind.PLAY and move._canonical()
            and 0 <= move.end < min(layout.width, len(state.ends))):
        tile = Tile.from_index(move.tile).show()
        on = (str(layout.shows(state.ends, move.end)) if layout.named_by_number
              else end_named(layout, state, move.end))
        return f"P{move.player} plays {tile} on {on}{_leaving(move)}"
    return str(move)


def end_named(layout: Layout, state: State, slot: int) -> str:
    """An open end as people name it: ``the 5`` on the one line (its number names it),
    else by the slot's name and its number, ``train P1 (showing 5)`` (as :func:`said`
    names the end a play goes on)."""
    shown = layout.shows(state.ends, slot)
    if layout.named_by_number:
        return f"the {shown}"
    return f"{layout.data.slots[slot].name} (showing {shown})"


def read_move(data: Any) -> WrittenMove:
    """A written move, every field of the right type, or a ``ValueError`` naming the key,
    the value and what is allowed (a player ``1.4``, ``"1"``, ``false`` or ``Infinity``
    is not a seat; a tile is a string ``"a-b"``)."""
    if not isinstance(data, dict):
        raise ValueError(f" = {brief(data)}: a move is an object with kind, player, tile, "
                         "end")
    extra = sorted(set(data) - {"kind", "player", "tile", "end", "slot", "leaves"})
    if extra:
        raise ValueError(f".{brief(extra[0], quote=False)}: unknown key (allowed: kind, "
                         "player, tile, end, slot, leaves)")
    kinds = [k.label for k in MoveKind]
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise ValueError(f".kind = {brief(kind)}: not a move kind (allowed: "
                         f"{', '.join(kinds)})")
    player: Any = data.get("player")
    if not _whole(player) or player < 0:
        raise ValueError(f".player = {brief(player)}: not a seat (allowed: a whole "
                         "number 0, 1, ...)")
    tile = data.get("tile")
    index = NO_TILE
    if tile is not None:
        if not isinstance(tile, str):
            raise ValueError(f".tile = {brief(tile)}: not a tile (allowed: a string "
                             '"a-b", e.g. "5-6")')
        try:
            t = Tile.parse(tile)
        except ValueError:
            raise ValueError(f".tile = {brief(tile)}: not a tile (allowed: a string "
                             '"a-b", e.g. "5-6")') from None
        if t.hi > _MAX_SET:
            raise ValueError(f".tile = {brief(tile)}: beyond every set (allowed: tiles "
                             f"up to {_MAX_SET}-{_MAX_SET})")
        index = t.idx
    end: Any = data.get("end")
    if end is not None and (not _whole(end) or not 0 <= end <= _MAX_SET):
        raise ValueError(f".end = {brief(end)}: not an open end (allowed: null for the "
                         f"lead, or a number 0..{_MAX_SET})")
    slot: Any = data.get("slot")
    if slot is not None and not isinstance(slot, str):
        raise ValueError(f".slot = {brief(slot)}: not a slot's name (allowed: a string)")
    leaves: Any = data.get("leaves")
    if leaves is not None and (not _whole(leaves) or not 0 <= leaves <= _MAX_SET):
        raise ValueError(f".leaves = {brief(leaves)}: not a number a matador leaves showing "
                         f"(allowed: a number 0..{_MAX_SET}, or no key)")
    return WrittenMove(MoveKind[kind.upper()], player, index, end, slot, leaves)


def resolve(layout: Layout, state: State, written: WrittenMove) -> Move:
    """The move ``written`` names in ``state``: a play's slot is the one its player may
    play on that shows the written number (and bears the written name, if any). A
    play on a number no such slot shows raises :class:`IllegalMoveError` (R2.1)."""
    kind, player, tile, number, name, _ = written
    leaves = written.way
    if kind is not MoveKind.PLAY:
        return Move(kind, player, tile, LEAD, leaves)
    if number is None:
        return Move(kind, player, tile, LEAD, leaves)
    ends, marks = state.ends, state.marks
    seat = player if 0 <= player < len(state.hands) else state.turn
    targets = layout.targets(ends, seat, marks, state.weights)
    for slot in targets:
        if written.goes_on(layout, ends, slot):
            return Move(kind, player, tile, slot, leaves)
    if name is not None:  # a slot the layout's symmetry makes one with a target (the
        # east of a spinner whose west shows the same number, neither covered): that target
        twin = layout.twin(ends, marks, name, targets)
        if twin is not None and layout.shows(ends, twin) == number:
            return Move(kind, player, tile, twin, leaves)
    shown = ", ".join(str(ends[i]) for i in layout.targets(ends, seat, marks)) or "none"
    where = f" named {name!r}" if name is not None else ""
    raise IllegalMoveError(f"no open end{where} shows {number} for P{player} (open: {shown})",
                           rule="R2.1")


def _whole(x: Any) -> bool:
    """A JSON whole number: an int, not a bool (``false`` is not 0) nor a float."""
    return isinstance(x, int) and not isinstance(x, bool)




def why_illegal(r: RuleBook, s: State, m: Move) -> IllegalMoveError:
    """The :class:`IllegalMoveError` saying which rule ``m`` breaks in ``s`` (the rule
    book ``r`` answers what is enabled; this only names the rule a move breaks)."""
    PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind
    def err(msg: str, rule: str) -> IllegalMoveError:
        return IllegalMoveError(f"{msg}: {m!r}", move=m, rule=rule)

    if type(m) is not Move or type(m.kind) is not MoveKind:
        shown = repr(tuple(m)) if isinstance(m, tuple) else repr(m)
        return IllegalMoveError(f"not a move: {shown}", move=m)
    if s.status is not Status.PLAYING:
        return err("the round is over", "R5.1")
    if m.player != s.turn:
        return err(f"it is P{s.turn}'s turn, not P{m.player}'s", "Terms")
    forced = r.moves(s)
    if len(forced) == 1 and forced[0].kind in (ESTABLISH, DOMINO):
        return err(f"the only move is {forced[0]!r}", "R4.4" if forced[0].kind is ESTABLISH
                   else "Terms")
    k = m.kind
    seeking = not s.led and r.opening(s.hands)[1] == DRAW_FOR_LEAD
    if seeking and k is not DRAW:
        return err("nobody holds the tile the lead rule names: the players draw for it, "
                   "one tile each in turn", "R3.6")
    own = r.layout.own_train(m.player)
    if r.layout.first_turn(s.marks) and k is not PASS and (k is not PLAY or m.end != own):
        return err(f"P{m.player}'s first turn goes on: they lay another tile on their own "
                   "train or end the turn (a pass)", "R2.3")
    if not s.led and k is not PLAY and not seeking:
        return err("the round opens with the lead: a play of the tile the lead rule "
                   "allows", "Terms")
    if k is ESTABLISH:
        return err(f"{s.confirmed} of {r.C} confirmations, boneyard "
                   f"{'empty' if not s.boneyard else 'not empty'}"
                   + (", and no open end is dead (R4.7)" if r.constants.CALL else ""), "R4.4")
    if k is DOMINO:
        return err(f"P{m.player} still holds tiles", "Terms")
    if k is not PLAY and m.leaves != ONE_WAY:
        return err("only a play names a number it leaves showing", "R2.1")
    if k is PLAY:
        if not 0 <= m.tile < r.tiles.count or not s.hands[m.player] >> m.tile & 1:
            return err(f"P{m.player} does not hold that tile", "Terms")
        if m.leaves != ONE_WAY and (not s.led or m.end == LEAD):
            return err("the lead lays its tile with both halves open: it names no number "
                       "it leaves showing", "R2.1")
        if not s.led:
            return err("the lead must follow the variant's lead rule", "Terms")
        if m.end == LEAD:
            return err("the layout is already open; name an end", "Terms")
        targets = r.layout.targets(s.ends, m.player, s.marks)
        if m.end not in targets:
            slots = r.layout.data.slots
            shown = ", ".join(f"{s.ends[e]} ({slots[e].name})" for e in targets)
            at = (slots[m.end].name if type(m.end) is int and 0 <= m.end < len(slots)
                  else f"slot index {m.end}")
            return err(f"no open end at {at} for P{m.player} (open: {shown})", "R2.1")
        ways = turns(*r.halves[m.tile], r.layout.data.match_total)
        named = m.leaves in ways if ways else m.leaves == ONE_WAY
        if r.fits[s.ends[m.end]] >> m.tile & 1 and not named:
            if ways:  # R2.1: a matador turned either way, the play naming which
                return err(f"{Tile.from_index(m.tile)} is a matador, turned either way "
                           f"round: its play names the half it leaves showing, "
                           f"{ways[0]} or {ways[1]}", "R2.1")
            return err(f"{Tile.from_index(m.tile)} goes on one way only: its play names "
                       "no number it leaves showing (only a matador is turned)", "R2.1")
        if r.fits[s.ends[m.end]] >> m.tile & 1:  # it matches: a last double left to wait
            return err(f"{Tile.from_index(m.tile)} is P{m.player}'s last tile, a double that "
                       'would wait to be covered: it cannot end the round (out_on_double = '
                       '"covered")', "R2.2")
        total = r.layout.data.match_total  # R2.1 under Matador: what fits is a sum
        return err(f"{Tile.from_index(m.tile)} does not match the end showing "
                   f"{s.ends[m.end]}" + (f": no half of it makes {total} with it, and it is "
                                         "no matador" if total else ""), "R2.1")
    has_play = s.led and r.playable_mask(s, m.player) != 0
    if k is DRAW:
        if has_play and r.constants.WHEN is not DrawWhen.ANY_TIME:  # R3.5: any-time may draw
            return err("a player who can play must play", "R4.3")
        if r.constants.DRAW is DrawRule.NONE and not seeking:
            return err("this variant has no drawing", "R3.1")
        if not s.boneyard:
            return err("the boneyard is empty", "R3.1")
        if s.drew:
            return err("draw-one: one tile has been drawn already this turn", "R3.1")
        return err("not the tile on top of the boneyard", "R3.1")
    if k is CONFIRM:
        if has_play:
            return FalseDeclarationError(
                f"P{m.player} holds a playable tile, so cannot confirm inability "
                + ("(one foul per player per round)" if r.fouls_possible else
                   "(a false declaration is a foul this variant rejects)")
                + f": {m!r}", move=m, rule="R4.5")
        if s.boneyard:
            return err("the boneyard still supplies tiles: draw first", "R4.1")
    if k is PASS:
        if has_play:
            return err("a player who can play must play", "R4.3")
        return err("a pass follows a draw-one draw with stock left", "R3.1")
    return err("not legal here", "Terms")
