"""The layout properties of the catalogue, judged one transition or one state at a time.

Layouts of several lines (``docs/LAYOUTS.md``) add rules the one line has not: markers
that open a train to everyone (R2.3, R3.1, R4.2), doubles that must take their tiles
before play moves on (R2.2), a spinner's arms that wait for its sides (Terms, R2.2),
and with them blocks where a double could not be covered (R1.1, R4.4) and where the
two readings of R2.3 may differ. :class:`LayoutJudge` checks the five properties of
the catalogue that state them (``proofs/properties.py``: ``markers``,
``doubles-covered``, ``spinner-arms``, ``uncoverable-double``, ``readings-agree``) for
:class:`~dominoproof.proofs.search.judge.Judge`, which calls it on every transition and
every established block a search (or a round, or a counterexample to induction) meets.

What the judge expects is read from the slot data (``Variant.slot_layout``: each slot's
owner, when it opens, the slots it waits for, how many tiles a double laid on it
takes), never from :class:`~dominoproof.model.layout.Layout`'s own operations, which are
the system under test. What a state's marks say is read through the field layout
``Layout.fields`` (where the markers, the covered sides and the pending slots lie in
``State.marks``): vocabulary, like ``State`` itself. The canonical form may reorder the
slots of a symmetric group after a play, so what a play changes is compared group by
group, as multisets of (number shown, mark).

Failures go to ``ctx.fail(pid, at, why, then)`` as the Judge's own do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from dominoproof.model.layout import CLOSED, Access, MarkFields, Opens, layout_of
from dominoproof.model.moves import LEAD, Move, MoveKind
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import Tile, show_tiles
from dominoproof.model.variant import ExtendReading, Variant

if TYPE_CHECKING:
    from dominoproof.proofs.search.result import SearchResult

__all__ = ["LayoutJudge", "covered_slots", "markers_out", "pending_slots", "readings_gap"]

PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind


# -- The marks, read through their field layout ----------------------------------------


def markers_out(f: MarkFields, marks: int, players: int) -> frozenset[int]:
    """The seats whose marker is out."""
    if f.markers < 0:
        return frozenset()
    return frozenset(p for p in range(players) if marks >> (f.markers + p) & 1)


def pending_slots(f: MarkFields, marks: int, width: int) -> frozenset[int]:
    """The slots that must take a tile before play moves elsewhere."""
    if f.pending < 0:
        return frozenset()
    return frozenset(i for i in range(width) if marks >> (f.pending + i) & 1)


def covered_slots(f: MarkFields, marks: int) -> frozenset[int]:
    """The slots some other slot waits for that have been covered."""
    return frozenset(i for i, b in enumerate(f.covered) if b >= 0 and marks >> b & 1)


def _slots(idx: Iterable[int], s: State, names: tuple[str, ...]) -> str:
    """Slots as people name them, with the number each shows."""
    return ", ".join(f"{names[i]} ({s.ends[i]})" for i in sorted(idx)) or "none"


def _holding(s: State, tiles: int) -> list[str]:
    """Each seat whose hand holds some of ``tiles``, with those it holds."""
    return [f"P{p} holds {show_tiles(hand & tiles)}" for p, hand in enumerate(s.hands)
            if hand & tiles]


class LayoutJudge:
    """The local checks of the layout properties (see the module docstring).

    ``want`` are the property ids to check; ``oracle`` is the specification's rule book,
    asked what R2.1 and R2.3 mean (a matching tile, who has a legal move), as
    :class:`~dominoproof.proofs.search.judge.Judge` asks it for blocked-sound: a part of
    that judge, which builds it where a layout property is wanted.
    """

    TRANSITION = frozenset({"markers", "doubles-covered", "spinner-arms", "train-access"})
    TERMINAL = frozenset({"uncoverable-double", "readings-agree"})

    def __init__(self, ctx: Any, variant: Variant, oracle: RuleBook, want: set[str]) -> None:
        self.ctx, self.oracle = ctx, oracle
        self.transition_ids = self.TRANSITION & want
        self.terminal_ids = self.TERMINAL & want
        data = variant.slot_layout
        self.data = data
        self.players = variant.players
        self.width = data.width
        self.fields = layout_of(variant).fields
        self.halves = variant.tiles.halves
        self.names = tuple(sl.name for sl in data.slots)
        self.spinner = tuple(i for i, sl in enumerate(data.slots) if sl.opens is Opens.SPINNER)
        self.toes = tuple(i for i, sl in enumerate(data.slots) if sl.opens is Opens.TOE)
        self.group: list[tuple[int, ...]] = [(i,) for i in range(self.width)]
        for g in data.symmetric:
            for i in g:
                self.group[i] = g
        self.waited = frozenset(j for sl in data.slots for j in sl.after)
        #: R2.3: each seat's own train, and whether a slot waits for one's own train
        self.own = {sl.owner: i for i, sl in enumerate(data.slots) if sl.owner is not None}
        #: ... or a first turn lasts while one's own train has no tile (R2.3)
        self.first_turns = data.first_turn
        self.started = self.first_turns or any(sl.access is Access.STARTED
                                               for sl in data.slots)

    # -- one transition --------------------------------------------------------------
    def transition(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """Check the transition properties of ``s --m--> t`` (``j`` names ``t``)."""
        if "markers" in self.transition_ids:
            self._markers(at, s, m, j, t)
        if "doubles-covered" in self.transition_ids:
            self._doubles(at, s, m, j, t)
        if "spinner-arms" in self.transition_ids:
            self._arms(at, s, m, j, t)
        if "train-access" in self.transition_ids:
            self._access(at, s, m, j, t)

    def _said(self, s: State, m: Move) -> str:
        """A play as people say it: the tile, the slot and the number it shows (any
        other move as ``str(m)``)."""
        if m.kind is not PLAY:
            return str(m)
        tile = Tile.from_index(m.tile).show()
        if m.end == LEAD:
            return f"P{m.player} leads {tile}"
        return f"P{m.player} plays {tile} on {self.names[m.end]} (showing {s.ends[m.end]})"

    def _markers(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """R2.3, R3.1, R4.2: a pass, a confirmation or a foul puts the mover's marker out;
        a play on one's own train takes it in; nothing else moves a marker."""
        if not self.data.markers:  # no markers to put out (judged anyway: vacuous)
            return
        f, p = self.fields, m.player
        before = markers_out(f, s.marks, self.players)
        after = markers_out(f, t.marks, self.players)
        if not s.table and before:
            self.ctx.fail("markers", at, "before the lead the marker of "
                          + ", ".join(f"P{q}" for q in sorted(before))
                          + " is out: nobody has passed or confirmed yet", ())
            return
        want = set(before)
        why = "nothing moves a marker"
        if m.kind is CONFIRM or (m.kind is PASS and not self._first(s)):
            want.add(p)
            why = (f"P{p} {'passes' if m.kind is PASS else 'declares they cannot play'}, "
                   "which puts their marker out (R3.1, R4.2)")
        elif m.kind is PLAY and m.end != LEAD and self.data.slots[m.end].owner == p:
            want.discard(p)
            why = f"{self._said(s, m)}, their own train, which takes their marker in"
        if after != want:
            wrong = sorted(after ^ want)
            said = ", ".join(f"P{q}'s marker is {'out' if q in after else 'in'}"
                             for q in wrong)
            self.ctx.fail("markers", at, f"after {self._said(s, m)}: {said}; {why}", (j,))

    def _access(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """R2.3: a play on a train or on the public train is one its access rule lets the
        mover make; a train counts as started exactly once a tile is laid on it."""
        f, p = self.fields, m.player
        out = markers_out(f, s.marks, self.players)
        if self.started:
            laid = ({m.end} if m.kind is PLAY and m.end in self.own.values() else set())
            want = {i for i in self.own.values() if i in covered_slots(f, s.marks)} | laid
            got = {i for i in self.own.values() if i in covered_slots(f, t.marks)}
            if not s.table and covered_slots(f, s.marks):
                self.ctx.fail("train-access", at, "before the lead a train counts as "
                              "started", ())
                return
            if got != want:
                said = ", ".join(self.names[i] for i in sorted(got ^ want))
                self.ctx.fail("train-access", at, f"after {m}: {said} "
                              + ("counts as started, with no tile laid on it" if got - want
                                 else "no longer counts as started") + " (R2.3)", (j,))
                return
        if self.first_turns and self._first_turn(at, s, m, j, t):
            return
        if m.kind is not PLAY or m.end == LEAD:
            return
        sl = self.data.slots[m.end]
        if sl.access is Access.STARTED:
            mine = self.own.get(p)
            if mine is None or mine not in covered_slots(f, s.marks):
                self.ctx.fail("train-access", at, f"{self._said(s, m)}, while P{p}'s own "
                              "train has no tile on it: the public train is open only to "
                              'a player whose own train is started (public_train = '
                              '"after-own", R2.3)', (j,))
            return
        if sl.owner is None or sl.owner == p or sl.access is Access.EVERYONE:
            return
        if sl.access is not Access.OWNER and sl.owner in out:
            return
        if sl.access is Access.OWNER_OR_MARKERS and p in out:
            return
        if sl.access is Access.OWNER_OR_MARKERS:
            why = (f"while P{sl.owner}'s marker and P{p}'s own are in: a train is open to "
                   "a player whose own marker is out (open_trains = \"own-marker-out\") or "
                   "while its owner's is (R2.3)")
        else:
            why = (f"while P{sl.owner}'s marker is in: a train is open to others only "
                   "while its owner's marker is out (R2.3)")
        self.ctx.fail("train-access", at, f"{self._said(s, m)}, {why}", (j,))

    def _first(self, s: State) -> bool:
        """R2.3: the player to move in ``s`` is on their first turn (its mark is set)."""
        b = self.fields.first
        return b >= 0 and bool(s.marks >> b & 1)

    def _first_turn(self, at: Any, s: State, m: Move, j: Any, t: State) -> bool:
        """R2.3, first_turn = "own-train": after a play the turn stays with its player,
        their first turn going on, exactly when it is on their own train, that train had
        no tile before the turn and no double is left waiting there (or an emptied hand,
        or a double they play again after, keeps it); in a first turn plays go on one's
        own train; a pass ends it and passes the turn; nothing else starts one. Whether it
        failed."""
        p, mine = m.player, self.own.get(m.player)
        was, now = self._first(s), self._first(t)
        why = ""
        if m.kind is not PLAY or m.end == LEAD:
            if now and not was:
                why = ": it starts a first turn, with no tile laid (R2.3)"
            elif was and m.kind is PASS and (now or t.turn != (p + 1) % self.players):
                why = (f": a pass ends P{p}'s first turn and passes the turn, but "
                       + ("it goes on" if now else f"P{t.turn} is to move") + " (R2.3)")
        elif was and m.end != mine:
            why = (f", while P{p}'s first turn goes on: a first turn lays tiles on one's own "
                   'train only (first_turn = "own-train", R2.3)')
        else:
            untouched = mine is not None and mine not in covered_slots(self.fields, s.marks)
            waits = m.end in pending_slots(self.fields, t.marks, self.width)  # a double
            going = m.end == mine and (was or untouched) and not waits
            a, b = self.halves[m.tile]
            again = (a == b and self.data.again and self.data.slots[m.end].double_takes > 0)
            stays = going or again or not t.hands[p]
            if now != going or (t.turn == p) != stays:
                got = (f"the turn {'stays with' if t.turn == p else 'passes from'} P{p}, "
                       f"their first turn {'going on' if now else 'over'}")
                want = ("their own train had no tile before the turn, so their first turn "
                        "goes on and the turn stays with them" if going else
                        "a first turn goes on only with plays on one's own train, which "
                        "had no tile before the turn, leaving no double waiting there")
                why = f": {got}, but {want} (R2.3)"
        if why:
            self.ctx.fail("train-access", at, f"{self._said(s, m)}{why}", (j,))
        return bool(why)

    def _doubles(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """R2.2: plays go on pending slots while any is pending; a double that takes tiles
        makes its slot (and the toes it opens) pending -- and, under ``cover_out``, is not
        its player's last tile; covering a slot ends its wait."""
        f, w = self.fields, self.width
        ps, pt = pending_slots(f, s.marks, w), pending_slots(f, t.marks, w)
        shown_t = sorted(t.ends[i] for i in pt)
        fail = self.ctx.fail
        if m.kind is not PLAY:
            if shown_t != sorted(s.ends[i] for i in ps):
                fail("doubles-covered", at, f"{m} changes the pending slots from "
                     f"{_slots(ps, s, self.names)} to {_slots(pt, t, self.names)}", (j,))
            return
        a, b = self.halves[m.tile]
        if m.end == LEAD:
            opened = [i for i in range(w) if t.ends[i] != CLOSED]
            lead_takes = a == b and self.data.lead_takes > 0
            if lead_takes and shown_t != sorted(t.ends[i] for i in opened):
                fail("doubles-covered", at, f"{self._said(s, m)}, an opening double that "
                     f"takes {self.data.lead_takes} tile(s): the slots it opened, "
                     f"{_slots(opened, t, self.names)}, must all be pending; pending: "
                     f"{_slots(pt, t, self.names)} (R2.2)", (j,))
            elif not lead_takes and pt:
                fail("doubles-covered", at, f"{self._said(s, m)}, which takes no tile, yet "
                     f"{_slots(pt, t, self.names)} are pending (R2.2)", (j,))
            return
        if ps and m.end not in ps:
            fail("doubles-covered", at, f"{self._said(s, m)} while "
                 f"{_slots(ps, s, self.names)} must be covered first (R2.2)", (j,))
            return
        rest = ps - {m.end}
        takes = self.data.slots[m.end].double_takes
        if a == b and takes and not rest and self.data.cover_out and not t.hands[m.player]:
            fail("doubles-covered", at, f"{self._said(s, m)}, P{m.player}'s last tile: a "
                 "double that must be covered cannot end the round (out_on_double = "
                 '"covered", R2.2)', (j,))
            return
        if a == b and takes and not rest:
            closed = [i for i in self.toes if s.ends[i] == CLOSED]
            toes = min(takes - 1, len(closed))
            opened_s = sum(v != CLOSED for v in s.ends)
            opened_t = sum(v != CLOSED for v in t.ends)
            if shown_t != [a] * (1 + toes) or opened_t != opened_s + toes:
                fail("doubles-covered", at, f"{self._said(s, m)}, a double that takes "
                     f"{takes} tile(s): its slot and {toes} toe(s) it opens, all showing "
                     f"{a}, must be pending; pending: {_slots(pt, t, self.names)}, "
                     f"{opened_t - opened_s} slot(s) opened (R2.2)", (j,))
        elif shown_t != sorted(s.ends[i] for i in rest):
            fail("doubles-covered", at, f"{self._said(s, m)} covers that slot: pending "
                 f"should be {_slots(rest, s, self.names)}, is "
                 f"{_slots(pt, t, self.names)} (R2.2)", (j,))

    def _arms(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """Terms, R2.2: a spinner's arms open with an opening double only, and take no
        tile while a side they wait for is uncovered; a side is covered by a tile laid on
        it, for good."""
        f, fail = self.fields, self.ctx.fail
        cs, ct = covered_slots(f, s.marks), covered_slots(f, t.marks)
        if m.kind is PLAY and m.end == LEAD:
            a, b = self.halves[m.tile]
            want = a if a == b else CLOSED
            wrong = [i for i in self.spinner if t.ends[i] != want]
            if wrong:
                fail("spinner-arms", at, f"{self._said(s, m)}, "
                     + ("a double: the spinner's arms must show " + str(a) if a == b else
                        "not a double: the spinner's arms stay closed")
                     + f"; {', '.join(self.names[i] for i in wrong)} "
                     + ("shows" if len(wrong) == 1 else "show") + " otherwise", (j,))
            elif ct:
                fail("spinner-arms", at, f"{self._said(s, m)}: no tile is laid on a side "
                     f"yet, but {', '.join(self.names[i] for i in sorted(ct))} counts as "
                     "covered", (j,))
            return
        if m.kind is not PLAY:
            if ct != cs:
                fail("spinner-arms", at, f"{m} changes which sides are covered", (j,))
            return
        waits = [i for i in self.data.slots[m.end].after if i not in cs]
        if waits:
            fail("spinner-arms", at, f"{self._said(s, m)}, a spinner's arm, while "
                 f"{', '.join(self.names[i] for i in waits)} "
                 + ("is" if len(waits) == 1 else "are") + " not covered (Terms, R2.2)", (j,))
            return
        if sum(t.ends[i] != CLOSED for i in self.spinner) != sum(
                s.ends[i] != CLOSED for i in self.spinner):
            fail("spinner-arms", at, f"{self._said(s, m)} opens or closes a spinner's arm: "
                 "they open with the opening double only", (j,))
            return
        if not self.waited:
            return
        a, b = self.halves[m.tile]
        x = s.ends[m.end]
        for g in {self.group[i] for i in self.waited}:
            before = [(s.ends[i], i in cs) for i in g]
            if m.end in g:
                before[g.index(m.end)] = (b if x == a else a, m.end in self.waited)
            if Counter(before) != Counter((t.ends[i], i in ct) for i in g):
                fail("spinner-arms", at, f"{self._said(s, m)}: covered sides before "
                     f"{_slots(cs, s, self.names)}, after {_slots(ct, t, self.names)}; a "
                     "side is covered exactly once a tile is laid on it", (j,))
                return

    # -- an established block ----------------------------------------------------------
    def state(self, at: Any, s: State) -> None:
        """Check the terminal layout properties at an established block."""
        if s.status is not Status.BLOCKED or not self.terminal_ids:
            return
        if "uncoverable-double" in self.terminal_ids:
            self._uncoverable(at, s)
        if "readings-agree" in self.terminal_ids:
            self._readings(at, s)

    def _uncoverable(self, at: Any, s: State) -> None:
        """R1.1, R4.4: a block with slots pending is one where nobody could cover them."""
        pending = pending_slots(self.fields, s.marks, self.width)
        if not pending:
            return
        self.ctx.count("blocks with a double left uncovered")
        suit = self.oracle.suit  # R2.1: the tiles carrying a number
        covering = 0
        for i in pending:
            if 0 <= s.ends[i] < len(suit):  # (a broken rule set may leave it closed)
                covering |= suit[s.ends[i]]
        why = _holding(s, covering)
        if s.boneyard:
            why.append(f"the boneyard holds {s.boneyard.bit_count()} tile(s)")
        if why:
            self.ctx.fail("uncoverable-double", at, "block established while "
                          f"{_slots(pending, s, self.names)} must be covered, but "
                          + "; ".join(why) + " (R1.1, R4.4)")

    def _readings(self, at: Any, s: State) -> None:
        """R2.3, R4.4: at the block both readings say the ends are unplayable, or neither."""
        o = self.oracle
        holds = not o.ends_unplayable(s, ExtendReading.HOLDS_MATCHING_TILE)
        legal = not o.ends_unplayable(s, ExtendReading.HAS_LEGAL_MOVE)
        if holds == legal:
            return
        matching = _holding(s, o.matching_mask(s))  # R2.1: the tiles matching an open end
        players = [p for p in range(self.players) if o.has_play(s, p)]
        if holds and not legal:
            text = ("; ".join(matching) + " matching an open end, yet no player has a "
                    "legal move")
        else:  # pragma: no cover - a legal move is a matching tile held
            text = (f"{', '.join(f'P{p}' for p in players)} has a legal move, yet no hand "
                    "holds a matching tile")
        self.ctx.fail("readings-agree", at, f"at the block the readings of R2.3 differ: "
                      f"{text} (open ends {_slots(self._open(s), s, self.names)})")

    def _open(self, s: State) -> list[int]:
        return [i for i in range(self.width) if s.ends[i] != CLOSED]


# -- The two readings of R2.3 apart, anywhere in a round -------------------------------


def readings_gap(result: SearchResult) -> int | None:
    """The first state of ``result`` (BFS order: the end of a shortest round) where the
    two readings of R2.3 differ: a hand holds a tile matching an open end, yet no player
    has a legal move (a train closed to its holder, a double that must be covered
    first, an arm waiting for a side). ``None`` when the search met no such state.

    Read with the search's own rule book, as ``blocked-sound`` reads R2; the state is
    the search's, so :meth:`SearchResult.trace_to` prints the round that reaches it."""
    rules = result.rules
    for i, s in enumerate(result.states()):
        if (s.led and rules.ends_unplayable(s, ExtendReading.HAS_LEGAL_MOVE)
                and not rules.ends_unplayable(s, ExtendReading.HOLDS_MATCHING_TILE)):
            return i
    return None
