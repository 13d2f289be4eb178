"""The all-sizes counterexample on a concrete small table, in domino terms.

The all-sizes proofs (:mod:`dominoproof.proofs.allsizes`) reason over uninterpreted
sorts, so a failed obligation comes back as an
:class:`~dominoproof.proofs.allsizes.AbstractCounterexample`: seats ``P0 .. Pk`` in
some clockwise order, tiles ``T0 ..`` carrying numbers ``V0 ..``, ends named by the
layout's slots (``left``, ``right``). This module reads it as one small table a person
can picture:

* the seats are renamed so that play goes ``P0 -> P1 -> P2 ...`` clockwise, as at a
  real table (the abstract seat names follow the model's universe, not the ring);
* the numbers that some tile carries or some end shows become ``0, 1, 2 ...`` in the
  model's order, so the table plays with the numbers ``0 .. N`` of a double-N set;
* every tile becomes ``[a|b]`` with those numbers (one number: the double ``[a|a]``).
  The allsizes module asks Z3 for a counterexample whose tiles are distinct
  (``distinct_tiles``), so they are real, different tiles of double-N; the abstract
  model does not need the rest of the set, so the other tiles of double-N simply do
  not exist in the counterexample, and the text says so.

Then the state before, the action in words (with its rule ID) and the state after, and
what fails, judged here on the decoded table from the property's statement in
:mod:`dominoproof.proofs.allsizes` (the same statement, read on one small table).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.tiles import Tile
from dominoproof.options import width
from dominoproof.options import wrap as _wrap

__all__ = ["ConcreteState", "ConcreteTable", "concretise", "describe", "framed"]


@dataclass(frozen=True)
class ConcreteState:
    """One state of the decoded table: seats ``0 .. P-1``, tiles as :class:`Tile`."""

    turn: int
    proposer: int
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    aside: tuple[Tile, ...]
    table: tuple[Tile, ...]
    ends: tuple[tuple[int, ...], ...]  #: per end, the numbers it shows (one, once opened)
    confirmed: tuple[int, ...]
    fouls: tuple[int, ...]
    opened: bool
    drew: bool
    blocked: bool
    domino: bool
    #: the layout's marks, where the model keeps them (a spinner's waiting arms, doubles
    #: that must be covered): the ends by their slots' names, and which are covered/pending
    names: tuple[str, ...] = ()
    covered: tuple[int, ...] | None = None
    pending: tuple[int, ...] | None = None

    def holders(self, tile: Tile) -> list[int]:
        return [p for p, hand in enumerate(self.hands) if tile in hand]

    def places(self, tile: Tile) -> list[str]:
        """Where ``tile`` is: ``P1``, ``boneyard``, ``aside``, ``table`` (several: a flaw)."""
        out = [f"P{p}" for p in self.holders(tile)]
        for name, tiles in (("boneyard", self.boneyard), ("aside", self.aside),
                            ("table", self.table)):
            if tile in tiles:
                out.append(name)
        return out

    def shown(self) -> list[int]:
        """Every number an open end shows."""
        return sorted({x for end in self.ends for x in end})


@dataclass(frozen=True)
class ConcreteTable:
    """An abstract counterexample read as one small table (see the module docstring)."""

    query: str
    players: int
    n: int  #: the numbers are ``0 .. n``: tiles of double-n
    tiles: tuple[Tile, ...]  #: the tiles that exist in the counterexample
    before: ConcreteState
    action: str | None
    params: Mapping[str, str]  #: the action's parameters, decoded (``[1|4]``, ``E0``, ``3``)
    after: ConcreteState | None
    duplicates: tuple[str, ...] = field(default=())  #: tiles no real set has twice

    @property
    def seats(self) -> list[str]:
        return [f"P{p}" for p in range(self.players)]


class _Names:
    """The renaming of one counterexample: seats clockwise, used numbers 0.., tiles."""

    def __init__(self, cex: Any) -> None:
        self.cex = cex
        order = list(cex.clockwise) or list(cex.universe.get("Player", []))
        self.seat = {name: i for i, name in enumerate(order)}
        used: set[str] = set()
        for vs in cex.carries.values():
            used.update(vs)
        for st in (cex.pre, cex.post):
            if st is not None:
                for vs in st["shows"].values():
                    used.update(vs)
        for val in cex.params.values():
            if val in cex.universe.get("Value", ()):
                used.add(val)
        values = [v for v in cex.universe.get("Value", []) if v in used]
        values += sorted(used - set(values), key=_index)
        self.number = {name: i for i, name in enumerate(values)}
        self.tile: dict[str, Tile] = {}
        for name, vs in cex.carries.items():
            nums = sorted(self.number[v] for v in vs) or [0]
            self.tile[name] = Tile(nums[0], nums[-1])

    def seats(self, names: Iterable[str]) -> tuple[int, ...]:
        return tuple(sorted(self.seat[n] for n in names if n in self.seat))

    def tiles(self, names: Iterable[str]) -> tuple[Tile, ...]:
        return tuple(sorted((self.tile[n] for n in names if n in self.tile),
                            key=lambda t: (t.hi, t.lo)))

    def state(self, st: Mapping[str, Any]) -> ConcreteState:
        hands: list[tuple[Tile, ...]] = [() for _ in self.seat]
        for seat, names in st["hands"].items():
            if seat in self.seat:
                hands[self.seat[seat]] = self.tiles(names)
        order = sorted(st["shows"], key=_index)
        ends = tuple(tuple(sorted(self.number[v] for v in st["shows"][e])) for e in order)

        def marked(key: str) -> tuple[int, ...] | None:
            got = st.get(key)
            return None if got is None else tuple(i for i, e in enumerate(order) if e in got)
        return ConcreteState(
            turn=self.seat.get(st["turn"], 0), proposer=self.seat.get(st["proposer"], 0),
            hands=tuple(hands), boneyard=self.tiles(st["boneyard"]),
            aside=self.tiles(st["aside"]), table=self.tiles(st["table"]), ends=ends,
            confirmed=self.seats(st["confirmed"]), fouls=self.seats(st["fouls"]),
            opened=bool(st["opened"]), drew=bool(st["drew"]), blocked=bool(st["blocked"]),
            domino=bool(st["domino"]), names=tuple(order), covered=marked("covered"),
            pending=marked("pending"))

    def param(self, value: str) -> str:
        if value in self.tile:
            return self.tile[value].show()
        if value in self.number:
            return str(self.number[value])
        if value in self.seat:
            return f"P{self.seat[value]}"
        return value


def _index(name: str) -> int:
    m = re.search(r"\d+$", name)
    return int(m.group()) if m else 0


def concretise(cex: Any) -> ConcreteTable:
    """The abstract counterexample ``cex`` (an
    :class:`~dominoproof.proofs.allsizes.AbstractCounterexample`) on a concrete table."""
    names = _Names(cex)
    tiles = names.tiles(cex.carries)
    dupes = tuple(t.show() for t, k in Counter(tiles).items() if k > 1)
    n = max([len(names.number) - 1, 0, *(t.hi for t in tiles)])
    return ConcreteTable(
        query=cex.query, players=max(len(names.seat), 1), n=n, tiles=tiles,
        before=names.state(cex.pre), action=cex.action,
        params={k: names.param(v) for k, v in cex.params.items()},
        after=names.state(cex.post) if cex.post is not None else None, duplicates=dupes)


# ---------------------------------------------------------------------------
# In words
# ---------------------------------------------------------------------------


def _tiles(ts: Sequence[Tile]) -> str:
    return "".join(t.show() for t in ts) or "none"


def _seats(ps: Sequence[int]) -> str:
    return ", ".join(f"P{p}" for p in ps) or "nobody"


def _ends(s: ConcreteState) -> str:
    if not s.opened and not any(s.ends):
        return "no open end yet (nothing laid)"
    if s.covered is not None or s.pending is not None:
        return "ends " + ", ".join(_slot(s, i) for i in range(len(s.ends)))
    shown = []
    for i, end in enumerate(s.ends):
        if not end:
            shown.append(f"end {i} shows no number")
        elif len(end) == 1:
            shown.append(str(end[0]))
        else:
            shown.append(f"end {i} shows {' and '.join(map(str, end))} at once")
    return "ends " + " and ".join(shown)


def _slot(s: ConcreteState, i: int) -> str:
    """One slot by its name, the number it shows and its marks: ``west 2 (pending)``."""
    end = s.ends[i]
    shown = ("closed" if not end else str(end[0]) if len(end) == 1
             else f"showing {' and '.join(map(str, end))} at once")
    marks = [w for w, on in (("covered", s.covered is not None and i in s.covered),
                             ("pending", s.pending is not None and i in s.pending)) if on]
    name = s.names[i] if i < len(s.names) else f"end {i}"
    return f"{name} {shown}" + (f" ({', '.join(marks)})" if marks else "")


def decoded_state_lines(s: ConcreteState) -> list[str]:
    """A decoded state in a few lines (seats, tiles, ends by number, R4's run)."""
    status = "blocked" if s.blocked else "domino" if s.domino else "being played"
    run = (f"confirmed in succession: {_seats(s.confirmed)} (proposed by P{s.proposer})"
           if s.confirmed else "no confirmation yet")
    bone = f"boneyard {_tiles(s.boneyard)}" if s.boneyard else "boneyard empty"
    aside = f"set aside {_tiles(s.aside)}" if s.aside else "nothing set aside"
    fouls = f"fouls by {_seats(s.fouls)}" if s.fouls else "no foul"
    head = f"P{s.turn} to move; {_ends(s)}; {bone}; {aside}; {run}; {fouls}; {status}"
    lines = _wrap(head, width() - 16) or [head]
    for p, hand in enumerate(s.hands):
        lines.append(f"P{p}  {_tiles(hand) if hand else '(no tiles)'}")
    lines.append(f"table  {_tiles(s.table) if s.table else '(empty)'}")
    return lines


#: what each action of the abstract model is, in words, with its rule IDs
_ACTIONS: dict[str, str] = {
    "domino": "P{turn} has emptied their hand: the round ends by a domino",
    "establish": "the block is established (R4.4)",
    "call": "P{turn} calls the block: every tile of {x} is on the table (R4.7)",
    "lead": "P{turn} leads {t} (Terms)",
    "play": "P{turn} plays {t} on the end showing {x}, which then shows {y} (R2.1)",
    "foul": "P{turn} declares they cannot play though {t} fits the {x}: a foul (R4.5)",
    "draw": "P{turn} draws {t} from the boneyard (R3.1)",
    "pass": "P{turn} passes after drawing (R3.1)",
    "confirm": "P{turn} confirms they cannot play (R4.1, R4.2)",
    "confirm_playable": "P{turn} confirms they cannot play though {t} fits the {x}, and it "
                        "counts (the fault)",
    "confirm_past_double": "P{turn} confirms they cannot play though {t} covers the pending "
                           "{x}, and it counts (the fault)",
    "confirm_instead_of_draw": "P{turn} confirms instead of drawing from the boneyard "
                               "(the fault)",
    "draw_aside": "P{turn} takes {t} from the set-aside tiles (the fault)",
}


def action_text(table: ConcreteTable) -> str:
    if table.action is None:
        return ""
    fill = {"turn": table.before.turn, **table.params}
    template = _ACTIONS.get(table.action)
    try:
        return template.format(**fill) if template else ""
    except KeyError:
        pass
    ps = ", ".join(f"{k}={v}" for k, v in table.params.items())
    return f"action {table.action}({ps})"


# -- what fails: the property's statement read on the decoded table ------------------


def _who_can_play(s: ConcreteState) -> list[str]:
    shown = set(s.shown())
    out = []
    for p, hand in enumerate(s.hands):
        fit = [t for t in hand if {t.lo, t.hi} & shown]
        if fit:
            out.append(f"P{p} holds {_tiles(fit)}, which fit{'s' if len(fit) == 1 else ''} "
                       f"an open end")
    return out


def _blocked_sound(s: ConcreteState) -> list[str]:
    why: list[str] = []
    if not s.blocked:
        return why
    if not s.opened:
        why.append("nothing has been laid")
    if s.boneyard:
        why.append(f"the boneyard still holds {_tiles(s.boneyard)} (R3.2)")
    why += [w + " (R2.1)" for w in _who_can_play(s)]
    return ["the block is established, but " + "; ".join(why)] if why else []


def _conservation(table: ConcreteTable, s: ConcreteState) -> list[str]:
    why = []
    for t in table.tiles:
        where = s.places(t)
        if not where:
            why.append(f"{t.show()} is nowhere (in no hand, not in the boneyard, not aside, "
                       "not on the table)")
        elif len(where) > 1:
            why.append(f"{t.show()} is in {' and '.join(where)} at once")
    return why


def _procedure(table: ConcreteTable, s: ConcreteState) -> list[str]:
    if table.action != "establish":
        return []
    why = []
    missing = [p for p in range(table.players) if p not in s.confirmed]
    if missing:
        why.append(f"only {len(s.confirmed)} of the {table.players} players confirmed "
                   f"({_seats(missing)} did not; R4.4)")
    if s.confirmed and s.turn != s.proposer:
        why.append(f"the run did not come back to its proposer P{s.proposer} (P{s.turn} "
                   "is to move; R4.2)")
    if not s.opened:
        why.append("nothing has been laid")
    if s.boneyard:
        why.append(f"the boneyard holds {_tiles(s.boneyard)} (R4.4)")
    why += [w + ": R2 does not hold" for w in _who_can_play(s)]
    return ["the block is established, but " + "; ".join(why)] if why else []


def _no_false_confirmation(table: ConcreteTable, s: ConcreteState,
                           after: ConcreteState | None) -> list[str]:
    if table.action not in ("confirm", "confirm_playable", "foul", "confirm_instead_of_draw"):
        return []
    shown = set(s.shown())
    fit = [t for t in s.hands[s.turn] if {t.lo, t.hi} & shown] if s.hands else []
    recorded = after is not None and s.turn in after.fouls and s.turn not in s.fouls
    if fit and not recorded:
        return [f"P{s.turn} confirms they cannot play while holding {_tiles(fit)}, which "
                f"fit{'s' if len(fit) == 1 else ''} an open end, and no foul is recorded "
                "(R4.5)"]
    return []


def _boneyard_monotone(s: ConcreteState, after: ConcreteState | None) -> list[str]:
    if after is None:
        return []
    why = []
    grew = [t for t in after.boneyard if t not in s.boneyard]
    if grew:
        why.append(f"the boneyard gains {_tiles(grew)}")
    for p, hand in enumerate(after.hands):
        new = [t for t in hand if t not in s.hands[p] and t not in s.boneyard]
        if new:
            words = {"aside": "set aside", "table": "on the table"}
            came = " and ".join(sorted({words.get(w, f"held by {w}") for t in new
                                        for w in s.places(t)})) or "nowhere"
            why.append(f"P{p} gains {_tiles(new)}, which was not in the boneyard (it was "
                       f"{came}; R3.1)")
    return why


def _pending_numbers(s: ConcreteState) -> set[int]:
    return {x for i in (s.pending or ()) for x in s.ends[i]}


def _uncoverable_double(s: ConcreteState) -> list[str]:
    if not s.blocked or not s.pending:
        return []
    numbers = _pending_numbers(s)
    why = [f"P{p} holds {_tiles(fit)}, which cover{'s' if len(fit) == 1 else ''} a pending "
           "end" for p, hand in enumerate(s.hands)
           if (fit := [t for t in hand if {t.lo, t.hi} & numbers])]
    if s.boneyard:
        why.append(f"the boneyard still holds {_tiles(s.boneyard)}")
    return ["the block is established while ends are pending, but " + "; ".join(why)
            ] if why else []


def _readings_agree(s: ConcreteState) -> list[str]:
    if not s.blocked:
        return []
    who = _who_can_play(s)
    if not who:
        return []
    waiting = ", ".join(s.names[i] for i in (s.pending or ()) if i < len(s.names))
    because = f" while {waiting} {'is' if ',' not in waiting else 'are'} pending" if waiting \
        else ""
    return [f"at the block nobody has a legal move{because}, yet " + "; ".join(who)]


def _layout_move(table: ConcreteTable, pid: str) -> list[str]:
    s = table.before
    e = table.params.get("e")
    if table.action != "play" or e is None or e not in s.names:
        return []
    i = s.names.index(e)
    if pid == "doubles-covered" and s.pending and i not in s.pending:
        pending = ", ".join(s.names[j] for j in s.pending)
        return [f"the play goes on {e} while {pending} must take a tile first (R2.2)"]
    after = table.after
    if (pid == "doubles-covered" and after is not None and not after.hands[s.turn]
            and after.pending and i in after.pending):
        return [f"P{s.turn} lays their last tile on {e}, a double that must be covered: "
                'it cannot end the round (out_on_double = "covered", R2.2)']
    if pid == "spinner-arms" and s.covered is not None and i not in s.covered:
        covered = ", ".join(s.names[j] for j in s.covered)
        now = (f"only {covered} {'is' if ',' not in covered else 'are'} covered" if covered
               else "no end is covered")
        return [f"the play goes on {e} while {now}: an arm may take a tile only once the "
                "sides it waits for are covered (R2.2)"]
    return []


#: per property, what fails on the decoded table (the property's statement as
#: :mod:`~dominoproof.proofs.allsizes` states it)
_FAILS: dict[str, Callable[[ConcreteTable], list[str]]] = {
    "blocked-sound": lambda t: _blocked_sound(t.after or t.before),
    "conservation": lambda t: _conservation(t, t.after or t.before),
    "procedure": lambda t: _procedure(t, t.before),
    "no-false-confirmation": lambda t: _no_false_confirmation(t, t.before, t.after),
    "boneyard-monotone": lambda t: _boneyard_monotone(t.before, t.after),
    "uncoverable-double": lambda t: _uncoverable_double(t.after or t.before),
    "readings-agree": lambda t: _readings_agree(t.after or t.before),
    "doubles-covered": lambda t: _layout_move(t, "doubles-covered"),
    "spinner-arms": lambda t: _layout_move(t, "spinner-arms"),
}


def fails(table: ConcreteTable, pid: str) -> str:
    """What fails on the decoded table, in words (:data:`_FAILS`)."""
    why = _FAILS[pid](table) if pid in _FAILS else []
    return "; ".join(why) if why else f"{pid} fails in the abstract model here"


def framed(before: list[str], move: str, after: list[str] | None, what: str) -> list[str]:
    """A step as the evidence shows it: the state ``before`` (its lines), the ``move`` in
    words, the state ``after`` and what fails, each under its label."""
    out = ["  before  " + before[0]] + ["          " + line for line in before[1:]]
    if move:
        out += _wrap(move, width(), initial_indent="  move    ", subsequent_indent="          ")
    if after is not None:
        out += ["  after   " + after[0]] + ["          " + line for line in after[1:]]
    return out + _wrap(what, width(), initial_indent="  fails   ",
                       subsequent_indent="          ")


def describe(cex: Any, pid: str) -> tuple[str, str]:
    """The counterexample as text for people, and what fails (one sentence)."""
    t = concretise(cex)
    what = fails(t, pid)
    order = " -> ".join(t.seats)
    head = (f"A counterexample to induction in the all-sizes model (not necessarily "
            f"reachable; query \"{t.query}\"), read on a small table: {t.players} seats "
            f"{order} (clockwise), the numbers 0..{t.n}, and only these tiles of double-{t.n}: "
            f"{_tiles(t.tiles)} (the model does not need the rest of the set)")
    out = _wrap(head, width())
    if t.duplicates:
        out += _wrap(f"note: the model found no such table with every tile distinct; "
                             f"{', '.join(t.duplicates)} appear more than once", width(),
                             initial_indent="  ", subsequent_indent="  ")
    out += framed(decoded_state_lines(t.before), action_text(t),
                  decoded_state_lines(t.after) if t.after is not None else None, what)
    return "\n".join(out) + "\n", what
