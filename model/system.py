"""The round as a transition system, read the way a TLA+ specification reads.

This module is the ``Init`` / ``Next`` view of the rules (docs/SEMANTICS.md). It
adds no rule of its own: every enabled move and every successor comes from
:class:`~dominoproof.model.rules.Rules` (the one imperative reading), so the
exhaustive search (``dominoproof.proofs.statespace``), the engine and a person
reading this file all see the same system. A mutant rule book (a ``Rules``
subclass, ``dominoproof.proofs.faults``) is a different system, with its own
``Init`` and ``Next``, through exactly the same functions.

=================  ===========================================================
TLA+               here
=================  ===========================================================
``CONSTANTS``      the :class:`~dominoproof.model.variant.Variant` (N, P, H, K, ...)
``VARIABLES``      the fields of :class:`~dominoproof.model.state.State`
``TypeOK``         :func:`type_ok` (conservation and well-formedness)
``Init``           :func:`init_states` over an :class:`Init` configuration:
                   one deal with its draw order, one deal with every draw order,
                   every deal, every deal and every draw order
actions            :data:`ACTIONS`: ``Lead``, ``Play``, ``Draw``, ``Pass``,
                   ``Confirm``, ``Foul``, ``Establish``, ``Domino``
``Next``           :func:`next_states`, the disjunction of the enabled actions
terminal states    :func:`terminal_kind` (``domino P<i>``, ``blocked``; a state
                   still being played with no enabled action is ``stuck``,
                   which the correct rules never reach)
=================  ===========================================================

The draw order is an explicit parameter of ``Init``: with a fixed order
(``free_draw=False``) the boneyard is a stack and a draw takes its top, so the
order is part of the deal and of every state; with ``free_draw=True`` a draw may
take any boneyard tile, so one initial state stands for every order. For the
search, the draw order decides feasibility more than the set size does:
:func:`count_deals` says how many initial states a configuration has before any
of them is built.
"""

from __future__ import annotations

import enum
import itertools
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .engine import Deal, _deal_error, _init, checked_deal
from .errors import DominoproofError
from .moves import LEAD, Move, MoveKind
from .reading import read_json
from .rules import Rules, VoidDeal, rules_for
from .state import State, StateFlaw, Status, state_status
from .tiles import Tile, bits, mask_of, show_tiles
from .variant import Variant

__all__ = [
    "ACTIONS",
    "ACTIONS_BY_NAME",
    "Action",
    "Init",
    "TerminalKind",
    "action_of",
    "count_deals",
    "deal_of",
    "every_deal",
    "format_deal",
    "init_states",
    "next_states",
    "parse_deal",
    "terminal_kind",
    "type_ok",
]


# ---------------------------------------------------------------------------
# TypeOK
# ---------------------------------------------------------------------------


def type_ok(variant: Variant, s: State) -> bool:
    """``TypeOK``: hands, boneyard, set-aside tiles and table partition the set (Terms);
    the ends are ones a line with those tiles can show; the turn, the R4 count and the
    fouls are in range; a fixed draw order lists exactly the boneyard (R3.1).
    :func:`~dominoproof.model.state.state_status` names what is wrong."""
    return state_status(variant, s) is StateFlaw.OK


# ---------------------------------------------------------------------------
# Init
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Init:
    """Which initial states a search starts from.

    ``deal``: one given deal (hands, boneyard in draw order, set-aside tiles), or
    ``None`` for every deal of the variant's set. ``free_draw``: the draw order is
    not fixed; a draw may take any boneyard tile (so every draw order is explored).
    ``part = (i, n)``: with every deal, only part ``i`` of ``n`` (see
    :func:`every_deal`) -- the unit of work of a parallel (or distributed) search by
    deal.
    """

    deal: Deal | None = None
    free_draw: bool = False
    part: tuple[int, int] = (0, 1)

    @staticmethod
    def one(deal: Deal, free_draw: bool = False) -> Init:
        return Init(deal, free_draw)

    @staticmethod
    def every(free_draw: bool = False) -> Init:
        return Init(None, free_draw)

    def shard(self, i: int, n: int) -> Init:
        """Part ``i`` of ``n`` of this configuration (every deal only)."""
        if self.deal is not None:
            raise ValueError("one deal cannot be partitioned")
        return Init(None, self.free_draw, (i, n))

    def describe(self) -> str:
        order = "every draw order" if self.free_draw else "the deal's draw order"
        if self.deal is None:
            part = f", part {self.part[0] + 1} of {self.part[1]}" if self.part[1] > 1 else ""
            return f"every deal, {order}{part}"
        hands = " / ".join(show_tiles(h) for h in self.deal.hands)
        return f"one deal ({hands}), {order}"


def count_deals(variant: Variant, free_draw: bool) -> int:
    """How many deals :func:`every_deal` enumerates: ``T! / (H!^P K! B!)`` ways to
    fill the hands, the set-aside tiles and the boneyard, times ``B!`` draw orders
    when the order is fixed (before deals voided by a ``redeal`` lead are dropped)."""
    t, p, h = variant.tiles.count, variant.players, variant.deal.hand_size
    k, b = variant.deal.set_aside, variant.boneyard_size
    hands = math.prod(math.factorial(h) for _ in range(p))
    ways = math.factorial(t) // (hands * math.factorial(k) * math.factorial(b))
    return ways if free_draw else ways * math.factorial(b)


def every_deal(variant: Variant, free_draw: bool,
               part: tuple[int, int] = (0, 1)) -> Iterator[Deal]:
    """Every deal of the set: the set-aside tiles, each hand (seat order), then the
    boneyard -- in every draw order unless ``free_draw`` (then one, lowest tile first).

    ``part = (i, n)`` keeps the deals of rank ``i`` modulo ``n`` in the outermost choice:
    the set-aside tiles when there are any (they never change in a round, so no state is
    reachable from two parts: a parallel search by part duplicates nothing), else the
    first hand (deals sharing it are consecutive; parts may then reach common states)."""
    p_count, h = variant.players, variant.deal.hand_size
    k = variant.deal.set_aside
    everything = tuple(range(variant.tiles.count))
    index, parts = part

    def hands_from(rest: tuple[int, ...], seat: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        if seat == p_count:
            yield ()
            return
        for rank, hand in enumerate(itertools.combinations(rest, h)):
            if seat == 0 and not k and rank % parts != index:
                continue
            left = tuple(t for t in rest if t not in hand)
            for more in hands_from(left, seat + 1):
                yield (hand, *more)

    for rank, aside in enumerate(itertools.combinations(everything, k)):
        if k and rank % parts != index:
            continue
        aside_mask = mask_of(aside)
        rest = tuple(t for t in everything if t not in aside)
        for hands in hands_from(rest, 0):
            used = aside_mask | mask_of(t for hand in hands for t in hand)
            bone = tuple(t for t in everything if not used >> t & 1)
            masks = tuple(mask_of(hand) for hand in hands)
            orders = (bone,) if free_draw else itertools.permutations(bone)
            for stack in orders:
                yield Deal(masks, stack, aside_mask)


def init_states(variant: Variant, init: Init, rules: Rules | None = None) -> Iterator[State]:
    """``Init``: the state right after each deal of ``init`` [Terms, lead rules].

    ``table = {}``, no open end, no confirmation, no foul, ``turn`` = the leader
    named by the lead rule (read through ``rules``, so a mutant's ``Init`` is the
    mutant's). A deal the lead rule voids (fallback ``redeal``) has no initial state.
    """
    rules = rules or rules_for(variant)
    deals = (iter((init.deal,)) if init.deal is not None
             else every_deal(variant, init.free_draw, init.part))
    for deal in deals:
        try:
            leader, _ = rules.opening(deal.hands)
        except VoidDeal:
            continue
        yield _init(deal, leader, init.free_draw)


def deal_of(s: State) -> Deal:
    """The deal an initial state was made from (its boneyard, lowest tile first, when the
    draw order is free)."""
    stack = s.stack if s.stack is not None else tuple(bits(s.boneyard))
    return Deal(s.hands, stack, s.set_aside)


# ---------------------------------------------------------------------------
# Deals written by hand
# ---------------------------------------------------------------------------

_TILE = re.compile(r"\[?\s*(\d{1,2})\s*[-|:]\s*(\d{1,2})\s*\]?")
_LABELS = {"stack": "stack", "boneyard": "stack", "draw": "stack", "draw order": "stack",
           "aside": "aside", "set aside": "aside", "set-aside": "aside", "set_aside": "aside"}


def format_deal(deal: Deal) -> str:
    """A deal in the text form :func:`parse_deal` reads:
    ``P0: 6-6 0-3; P1: 0-2 1-3; stack: 3-6 3-3; aside: 0-0``."""
    parts = [f"P{p}: " + " ".join(str(Tile.from_index(t)) for t in bits(h))
             for p, h in enumerate(deal.hands)]
    if deal.stack:
        parts.append("stack: " + " ".join(str(Tile.from_index(t)) for t in deal.stack))
    if deal.set_aside:
        parts.append("aside: " + " ".join(str(Tile.from_index(t)) for t in bits(deal.set_aside)))
    return "; ".join(parts)


def parse_deal(variant: Variant, text: str, *, free_draw: bool = False) -> Deal:
    """A deal of ``variant`` from text, a JSON file or a text file.

    The text is a list of ``LABEL: tiles`` separated by ``;`` or new lines:
    ``P0``, ``P1``, ... (each hand), ``stack`` (or ``boneyard``: the boneyard in
    draw order, top first) and ``aside`` (the tiles set aside). Tiles are written
    ``a-b``, ``a|b`` or ``[a|b]``. A parenthesis after a label and C comment marks
    are ignored, so the header of a Spin model (``P0: [6|6] [0|3] ...``,
    ``boneyard (draw order): ...``) can be pasted as it is.

    The stack may be left out when the boneyard is empty or the draw order is free
    (the boneyard is then every tile not placed elsewhere); the set-aside tiles may
    be left out when the stack is given.

    ``text`` naming an existing file: a ``.json`` file holds ``{"hands": [[...]],
    "stack": [...], "set_aside": [...]}`` (or a trace, whose ``deal`` is read); any
    other file holds the text form. Every tile of the set is dealt exactly once, in
    hands of the variant's size, or a :class:`DominoproofError` says what is wrong.
    """
    where = "--deal"
    path = Path(text)
    if len(text) < 4096 and "\n" not in text and path.is_file():
        where = f"--deal {text}"
        body = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            data = read_json(body, where, DominoproofError)
            if isinstance(data, dict) and "deal" in data:
                data = data["deal"]  # a trace: its deal
            return checked_deal(variant, data, where)
        text = body
    hands: dict[int, list[int]] = {}
    stack: list[int] | None = None
    aside: list[int] | None = None
    for raw in re.split(r"[;\n]", text.replace("/*", " ").replace("*/", " ")):
        item = raw.strip()
        if not item:
            continue
        label, sep, rest = item.partition(":")
        if not sep:
            raise DominoproofError(f"{where}: {item!r} has no label; write 'P0: 1-2 3-4; "
                                   "P1: ...; stack: ...' (labels P0.., stack, aside)")
        name = re.sub(r"\(.*?\)", "", label).strip().lower()
        tiles = []
        for m in _TILE.finditer(rest):
            a, b = int(m.group(1)), int(m.group(2))
            if max(a, b) > variant.n:
                raise DominoproofError(f"{where}: {label.strip()}: {m.group(0).strip()} is not "
                                       f"a tile of the double-{variant.n} set")
            tiles.append(Tile.of(a, b).idx)
        junk = _TILE.sub(" ", rest).replace(",", " ").strip()
        if junk:
            raise DominoproofError(f"{where}: {label.strip()}: {junk.split()[0]!r} is not a "
                                   "tile (write tiles as a-b, a|b or [a|b])")
        seat = re.fullmatch(r"p(?:layer)?\s*(\d+)", name)
        if seat:
            p = int(seat.group(1))
            if p >= variant.players:
                raise DominoproofError(f"{where}: {label.strip()}: no such seat (players "
                                       f"P0..P{variant.players - 1})")
            hands[p] = tiles
        elif name in _LABELS and _LABELS[name] == "stack":
            stack = tiles
        elif name in _LABELS:
            aside = tiles
        else:
            raise DominoproofError(f"{where}: unknown label {label.strip()!r} (allowed: P0.."
                                   f"P{variant.players - 1}, stack or boneyard, aside)")
    missing = [f"P{p}" for p in range(variant.players) if p not in hands]
    if missing:
        raise DominoproofError(f"{where}: no hand for {', '.join(missing)}")
    placed = {t for h in hands.values() for t in h} | set(stack or ()) | set(aside or ())
    left = [t for t in range(variant.tiles.count) if t not in placed]
    k, b = variant.deal.set_aside, variant.boneyard_size
    if stack is None and b == 0:
        stack = []
    elif stack is None:
        if not free_draw:
            raise DominoproofError(f"{where}: the boneyard's {b} tiles need their draw order "
                                   "('stack: ...', top first), or use --free-draw")
        if aside is None and k:
            raise DominoproofError(f"{where}: say which {k} tiles are set aside ('aside: ...')")
        stack, left = left, []
    if aside is None:
        aside = left
    every = [*(t for h in hands.values() for t in h), *stack, *aside]
    twice = sorted({Tile.from_index(t).show() for t in every if every.count(t) > 1})
    if twice:
        raise DominoproofError(f"{where}: each tile is dealt once; given twice: "
                               + " ".join(twice))
    deal = Deal(tuple(mask_of(hands[p]) for p in range(variant.players)), tuple(stack),
                mask_of(aside))
    wrong = _deal_error(variant, deal.to_json())
    if wrong:
        raise DominoproofError(f"{where}: not a deal of {variant.name}: {wrong}")
    return deal


# ---------------------------------------------------------------------------
# Actions and Next
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """A named action: the moves of one kind that ``Rules`` enables, and their effect.

    ``applies(rules, s, m)`` says whether the enabled move ``m`` belongs to this
    action; the action's transitions in ``s`` are the enabled moves it claims, each
    with the state :meth:`Rules.step` makes of it.
    """

    name: str
    rules: tuple[str, ...]
    doc: str
    applies: Callable[[Rules, State, Move], bool]

    def enabled(self, rules: Rules, s: State) -> tuple[Move, ...]:
        """The moves of this action enabled in ``s``."""
        return tuple(m for m in rules.moves(s) if self.applies(rules, s, m))

    def transitions(self, rules: Rules, s: State) -> list[tuple[Move, State]]:
        """``s -> s'`` for each enabled move of this action."""
        return [(m, rules.step(s, m)) for m in self.enabled(rules, s)]

    def __repr__(self) -> str:
        return f"<action {self.name}>"


ACTIONS: tuple[Action, ...] = (
    Action("Lead", ("Terms",),
           "the opening tile, by the player and with the tile the lead rule names",
           lambda r, s, m: m.kind is MoveKind.PLAY and m.end == LEAD),
    Action("Play", ("R2.1", "R4.3"),
           "lay a tile carrying the number an open end shows; a player who can play must",
           lambda r, s, m: m.kind is MoveKind.PLAY and m.end != LEAD),
    Action("Draw", ("R3.1",),
           "a player who cannot play takes a boneyard tile (the top one, or any when the "
           "draw order is free)",
           lambda r, s, m: m.kind is MoveKind.DRAW),
    Action("Pass", ("R3.1",),
           "draw-one games: the drawn tile does not fit, the turn passes",
           lambda r, s, m: m.kind is MoveKind.PASS),
    Action("Confirm", ("R4.1", "R4.2"),
           "with the boneyard supplying nothing, a player who cannot play confirms it (the "
           "first of a run proposes the block)",
           lambda r, s, m: m.kind is MoveKind.CONFIRM and not r.is_false_confirmation(s, m)),
    Action("Foul", ("R4.5",),
           "a false declaration of inability by a player who could play, where the variant "
           "makes it a recorded foul",
           lambda r, s, m: r.is_false_confirmation(s, m)),
    Action("Establish", ("R4.4", "R5.1"),
           "after every needed confirmation, with the boneyard empty, the block is "
           "established and the round ends",
           lambda r, s, m: m.kind is MoveKind.ESTABLISH),
    Action("Domino", ("Terms",),
           "the player to move has emptied their hand: the round ends",
           lambda r, s, m: m.kind is MoveKind.DOMINO),
)

ACTIONS_BY_NAME: dict[str, Action] = {a.name: a for a in ACTIONS}


def action_of(rules: Rules, s: State, m: Move) -> Action:
    """The one action an enabled move ``m`` of ``s`` belongs to."""
    for a in ACTIONS:
        if a.applies(rules, s, m):
            return a
    raise ValueError(f"{m!r} belongs to no action")  # pragma: no cover - kinds are closed


def next_states(rules: Rules, s: State) -> list[tuple[Action, Move, State]]:
    """``Next``: every transition ``s -> s'``, each labelled by its action and move.

    Exactly :meth:`Rules.successors`, in the same order; ``[]`` in a terminal state."""
    return [(action_of(rules, s, m), m, t) for m, t in rules.successors(s)]


# ---------------------------------------------------------------------------
# Terminal states
# ---------------------------------------------------------------------------


class TerminalKind(enum.StrEnum):
    BLOCKED = "blocked"  #: the block was established [R4.4, R5.1]
    DOMINO = "domino"  #: a player emptied their hand [Terms]
    STUCK = "stuck"  #: still being played, but no action is enabled (a defect)


def terminal_kind(rules: Rules, s: State) -> str | None:
    """How ``s`` ends the round: ``"blocked"``, ``"domino P<i>"``, or ``"stuck"`` for a
    state still being played with no enabled action; ``None`` while play goes on."""
    if s.status is Status.BLOCKED:
        return TerminalKind.BLOCKED.value
    if s.status is Status.DOMINO:
        return f"{TerminalKind.DOMINO.value} P{s.turn}"
    if not rules.moves(s):
        return TerminalKind.STUCK.value
    return None
