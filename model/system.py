"""The round as a transition system, read the way a TLA+ specification reads.

This module is the ``Init`` / ``Next`` view of the rules (docs/SEMANTICS.md). It
adds no rule of its own: every enabled move and every successor comes from
:class:`~dominoproof.model.rules.Rules` (the one imperative reading), so the
exhaustive search (``dominoproof.proofs.search.statespace``), the engine and a person
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
actions            :data:`ACTIONS` (:mod:`.actions`): ``Lead``, ``Play``, ``Draw``,
                   ``Pass``, ``Confirm``, ``Foul``, ``Establish``, ``Domino``,
                   each a guard and an effect
``Next``           :func:`next_states`, the disjunction of the enabled actions
terminal states    :func:`terminal_kind`, an :class:`~.state.Ending` (``domino
                   P<i>``, ``blocked``; a state still being played with no
                   enabled action is ``stuck``, which the correct rules never
                   reach)
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

import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from .actions import ACTIONS, ACTIONS_BY_NAME, Action
from .engine import Deal, dealt_state, shuffled_deal
from .moves import Move
from .rules import Rules, VoidDeal, engine_for
from .state import Ending, State, StateFlaw, state_status
from .tiles import bits, mask_of, show_tiles
from .variant import Variant

__all__ = [
    "ACTIONS",
    "ACTIONS_BY_NAME",
    "Action",
    "Init",
    "action_of",
    "count_deals",
    "deal_of",
    "every_deal",
    "init_for",
    "init_states",
    "next_states",
    "seeded_deal",
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
    rules = rules or engine_for(variant)
    deals = (iter((init.deal,)) if init.deal is not None
             else every_deal(variant, init.free_draw, init.part))
    for deal in deals:
        try:
            leader, _ = rules.opening(deal.hands)
        except VoidDeal:
            continue
        yield dealt_state(variant, deal, leader, init.free_draw)


def seeded_deal(variant: Variant, seed: int) -> Deal:
    """The deal of ``random_round(variant, seed)``: the default one-deal configuration."""
    return shuffled_deal(variant, random.Random(seed))


def init_for(variant: Variant, deals: str) -> Init:
    """The initial states a short spec names: ``"every"`` (every deal) or ``"seed S"`` (the
    deal of seed S), either followed by ``" free-draw"`` (every draw order). Used by the
    fault demos and the pinned regression figures."""
    words = deals.split()
    free = words[-1:] == ["free-draw"]
    if free:
        words = words[:-1]
    if words == ["every"]:
        return Init.every(free)
    if len(words) == 2 and words[0] == "seed" and words[1].lstrip("-").isdigit():
        return Init.one(seeded_deal(variant, int(words[1])), free)
    raise ValueError(f"not a deals spec: {deals!r} (every | seed S, then free-draw or not)")


def deal_of(s: State) -> Deal:
    """The deal an initial state was made from (its boneyard, lowest tile first, when the
    draw order is free)."""
    stack = s.stack if s.stack is not None else tuple(bits(s.boneyard))
    return Deal(s.hands, stack, s.set_aside)


# ---------------------------------------------------------------------------
# Actions and Next
# ---------------------------------------------------------------------------


def action_of(rules: Rules, s: State, m: Move) -> Action:
    """The one action an enabled move ``m`` of ``s`` belongs to."""
    return rules.action_of(s, m)


def next_states(rules: Rules, s: State) -> list[tuple[Action, Move, State]]:
    """``Next``: every transition ``s -> s'``, each labelled by its action and move.

    Exactly :meth:`Rules.successors`, in the same order; ``[]`` in a terminal state."""
    return [(rules.action_of(s, m), m, t) for m, t in rules.successors(s)]


# ---------------------------------------------------------------------------
# Terminal states
# ---------------------------------------------------------------------------


def terminal_kind(rules: Rules, s: State) -> str | None:
    """How ``s`` ends the round (:class:`~dominoproof.model.state.Ending`, by its label):
    ``"blocked"``, ``"domino P<i>"``, or ``"stuck"`` for a state still being played with
    no enabled action; ``None`` while play goes on."""
    ending = s.status.ending
    if ending is None and not rules.moves(s):
        ending = Ending.STUCK
    return None if ending is None else ending.label(s.turn)
