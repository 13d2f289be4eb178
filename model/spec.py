"""The specification of a round: read it top to bottom as a TLA+ module.

docs/SEMANTICS.md is its contract, in the same order: ``CONSTANTS`` (read by
:class:`Rules` from the variant's :class:`~dominoproof.model.constants.Constants` and
nowhere else), ``VARIABLES`` (:class:`~dominoproof.model.state.State`), :func:`type_ok`,
``Init`` (:func:`init_states` over an :class:`Init`: one deal or every deal, the deal's
draw order or every draw order), the predicates of R1-R4 (:class:`Rules`), the named
actions (:data:`CASES`, :data:`ACTIONS`: each a guard case and an effect), ``Next``
(:meth:`Rules.moves`, :func:`next_states`) and the terminal states.

The *imperative* reading of RULES.md (the Z3 relation is the declarative one, the engine
:func:`~dominoproof.model.fast.engine_for` these rules inlined); the public functions at
the end run it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from . import fives
from .constants import Constants, constants_of
from .errors import DominoproofError, IllegalMoveError
from .layout import Layout, layout_for, layout_of
from .matching import ONE_WAY, turns
from .moves import DRAW_FOR_LEAD, LEAD, Move, MoveKind, why_illegal
from .rulebook import Action, Case, RuleBook
from .state import Deal, Ending, State, StateFlaw, Status, state_status
from .tiles import bits, mask_of, show_tiles
from .variant import DrawRule, DrawWhen, ExtendReading, FoulRule, LeadFallback, LeadRule, Variant

PLAYING, BLOCKED = Status.PLAYING, Status.BLOCKED
PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind
_new = tuple.__new__  #: State._make without its checks (Init is on the engine's hot path)


class VoidDeal(DominoproofError):
    """The lead rule names a tile nobody holds and the fallback is a redeal."""


# ---- VARIABLES and TypeOK ----------------------------------------------------


def type_ok(variant: Variant, s: State) -> bool:
    """``TypeOK``: hands, boneyard, set-aside tiles and table partition the set (Terms);
    the ends are ones a line with those tiles can show; the turn, the R4 count and the
    fouls are in range; a fixed draw order lists exactly the boneyard (R3.1).
    :func:`~dominoproof.model.state.state_status` names what is wrong."""
    return state_status(variant, s) is StateFlaw.OK


# ---- Init: the deal ----------------------------------------------------------


@dataclass(frozen=True)
class Init:
    """Which initial states a search starts from: one ``deal`` (``None``: every deal of
    the set); ``free_draw``: a draw may take any boneyard tile (every draw order);
    ``part = (i, n)``: only part ``i`` of ``n`` of every deal (:func:`every_deal`), the
    unit of work of a parallel search by deal."""

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
    """How many deals :func:`every_deal` enumerates (voided ones too): ``T! / (H!^P K!
    B!)`` ways to fill hands, set-aside tiles and boneyard, times ``B!`` fixed orders."""
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
    p_count, h, k = variant.players, variant.deal.hand_size, variant.deal.set_aside
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
            for stack in (bone,) if free_draw else itertools.permutations(bone):
                yield Deal(masks, stack, aside_mask)


def dealt_state(variant: Variant, deal: Deal, leader: int, free_draw: bool = False, *,
                closed: tuple[int, ...] | None = None) -> State:
    """Init for ``deal`` with ``leader`` to move: nothing on the table, every slot closed
    (``closed``, when the caller holds them), no confirmation, no foul, no marker out."""
    lay = layout_of(variant)
    return _new(State, (deal.hands, mask_of(deal.stack), deal.set_aside, 0,
                        lay.closed if closed is None else closed, leader, 0, False, 0,
                        Status.PLAYING, None if free_draw else deal.stack, 0,
                        *(fives.initial(lay, variant.players) if constants_of(variant).FIVES
                          else ((), ()))))


def init_states(variant: Variant, init: Init,
                rules: RuleBook | None = None) -> Iterator[State]:
    """``Init``: the state right after each deal of ``init`` [Terms, lead rules]: ``turn``
    = the leader the lead rule names (read through ``rules``: a mutant's ``Init`` is the
    mutant's). A deal the lead rule voids (fallback ``redeal``) has no initial state."""
    rules = rules or spec_for(variant)
    for deal in ((init.deal,) if init.deal is not None
                 else every_deal(variant, init.free_draw, init.part)):
        try:
            leader, _ = rules.opening(deal.hands)
        except VoidDeal:
            continue
        yield dealt_state(variant, deal, leader, init.free_draw)


# ---- The rule book: the constants, the predicates of R1-R4, the lead, Next ---


class Rules:
    """The rule book of one variant (R1-R4): named actions, ``Next``, the predicates; pure
    but for the last ``legal_moves`` answer, kept for ``apply``. The engine borrows these
    methods (``self: RuleBook``): each is stated once."""

    _memo_state: State | None = None
    _memo_moves: tuple[Move, ...] = ()

    def __init__(self: RuleBook, variant: Variant) -> None:
        self.variant = variant
        self.constants: Constants = constants_of(variant)
        c = self.constants
        self.layout: Layout = layout_for(c.LAYOUT, c.P)
        self.tiles, self.suit, self.halves = c.tiles, c.tiles.suit, c.tiles.halves
        self.fits = c.FITS  #: R2.1: the tiles that may be laid on an end showing x
        self.players = c.P
        self.next_seat = tuple((p + 1) % c.P for p in range(c.P))
        self.C = c.C  #: R4.4: the confirmations that establish the block
        self.fouls_possible = c.FOULS is FoulRule.PENALISED
        self.value = c.VALUE
        self.fives = c.FIVES  #: R5.7: plays score the ends' count, a multiple of 5

    # -- R2, R3, R1.1: the conditions of a blocked game ---------------------------
    def playable_mask(self: RuleBook, s: State, player: int) -> int:
        """Tiles of ``player`` that extend an open end ``player`` may play on (R2.1, R2.3),
        but not a last tile that is a double left to wait there (R2.2, ``cover_out``);
        before the lead, every tile of the hand."""
        hand, m, ends, lay = s.hands[player], 0, s.ends, self.layout
        if not s.led:
            return hand
        last = self.halves[hand.bit_length() - 1] if _last(lay, hand) else None
        for e in lay.targets(ends, player, s.marks):
            if last is None or not lay.bars_going_out(s.marks, e, last):
                m |= self.fits[ends[e]]
        return hand & m

    def has_play(self, s: State, player: int) -> bool:
        """Whether ``player`` has a legal play on the layout (R2.3 "has a legal move")."""
        return self.playable_mask(s, player) != 0

    def matching_mask(self, s: State) -> int:
        """Tiles in any hand that fit a number showing on any open end (R2.1: carry it,
        or under Matador sum with it to N+1, or are matadors)."""
        m = 0
        for v in self.layout.numbers(s.ends):
            m |= self.fits[v]
        return s.in_hands & m

    def ends_unplayable(self, s: State, reading: ExtendReading | None = None) -> bool:
        """R2 (condition 1): no open end can be extended by any player, in the R2.3
        ``reading`` (default: the variant's): no hand holds a tile carrying an end's number,
        or no player has a legal play. Before the lead: not unplayable (the leader plays)."""
        if not s.led:
            return False
        reading = reading or self.constants.READING
        if reading is ExtendReading.HOLDS_MATCHING_TILE:
            return self.matching_mask(s) == 0
        return not any(self.has_play(s, p) for p in range(self.players))

    def boneyard_supplies_nothing(self, s: State) -> bool:
        """R3 (condition 2): the boneyard is empty (tiles set aside are not part of it)."""
        return s.boneyard == 0

    def is_blocked(self, s: State, reading: ExtendReading | None = None) -> bool:
        """R1.1 with R3.3: both conditions hold at once, in a round not ended by a domino
        (R1.2: nobody has emptied their hand, so every player is still active)."""
        return (s.status is not Status.DOMINO and all(s.hands)
                and self.ends_unplayable(s, reading) and self.boneyard_supplies_nothing(s))

    def block_ready(self, s: State) -> bool:
        """R4.4: enough consecutive confirmations, and the boneyard still empty."""
        return s.confirmed >= self.C and (not self.constants.EMPTY or s.boneyard == 0)

    def may_draw(self, s: State) -> bool:
        """R3.1: a tile to draw, a rule that draws, none drawn this turn yet (case 6)."""
        return bool(s.boneyard) and self.constants.DRAW is not DrawRule.NONE and not s.drew

    def dead_end(self: RuleBook, s: State) -> bool:
        """R4.7: an open end shows a number every tile fitting which is on the table."""
        return any(not self.fits[x] & ~s.table for x in self.layout.numbers(s.ends))

    def is_false_confirmation(self, s: State, m: Move) -> bool:
        """R4.5: a confirmation of inability by a player who has a legal play."""
        return m.kind is CONFIRM and self.playable_mask(s, m.player) != 0

    # -- the opening ----------------------------------------------------------------
    def heaviest(self, mask: int) -> int:
        """The heaviest tile of ``mask``: highest value, then highest index."""
        return max(bits(mask), key=lambda t: (self.value[t], t))

    def lightest(self, mask: int) -> int:
        """The lightest tile of ``mask``: lowest value, then lowest index (R5.5)."""
        return min(bits(mask), key=lambda t: (self.value[t], t))

    def opening(self: RuleBook, hands: tuple[int, ...]) -> tuple[int, int | None]:
        """The leader and the tile they must lead with (``None``: any tile;
        ``DRAW_FOR_LEAD``: nobody holds it, and the players draw for it, R3.6); raises
        :class:`VoidDeal` when nobody holds the named tile and the fallback is a redeal."""
        c = self.constants
        rule = c.LEAD
        if rule is LeadRule.PLAYER:
            return c.LEADER, None
        found = (_holder(hands, c.LEAD_TILE) if rule is LeadRule.TILE
                 else _highest_double(self, hands))
        if found is not None:
            return found
        fallback = c.FALLBACK
        if fallback is LeadFallback.REDEAL:
            raise VoidDeal(f"nobody holds the lead tile ({rule.value})")
        if fallback is LeadFallback.PLAYER or fallback is LeadFallback.DRAW:
            return c.LEADER, None if fallback is LeadFallback.PLAYER else DRAW_FOR_LEAD
        if fallback is LeadFallback.HIGHEST_DOUBLE:
            found = _highest_double(self, hands)
            if found is not None:
                return found
        t = self.heaviest(sum(hands))  # hands are disjoint: their sum is their union
        return _holder(hands, t) or (c.LEADER, None)

    # -- Next -------------------------------------------------------------------------
    def legal_moves(self, s: State) -> tuple[Move, ...]:
        """Every legal move in ``s``, in a fixed order; ``()`` when the round is over."""
        self._memo_state, self._memo_moves = s, self.moves(s)
        return self._memo_moves

    def moves(self: RuleBook, s: State) -> tuple[Move, ...]:
        """``Next``: the moves of the actions of the first guard case that holds in ``s``
        (``legal_moves`` without remembering the answer for ``apply``)."""
        got: tuple[Move, ...] = ()
        for case in CASES:
            if case.guard(self, s):
                got += tuple(m for a in case.actions for m in a.moves(self, s))
                if not case.also:  # R4.7: a call is offered beside the case that decides
                    return got
        raise AssertionError("the last case always holds")  # pragma: no cover

    def action_of(self, s: State, m: Move) -> Action:
        """The action a move of ``s`` belongs to (a confirmation by a player who can play
        is a Foul, R4.5; a pass in a first turn going on ends it, R2.3)."""
        k, first = m.kind, self.layout.first_turn(s.marks)  # R2.3: a first turn going on
        if k is PLAY:
            return LEAD_ACTION if m.end == LEAD else LAY_ON_ACTION if first else PLAY_ACTION
        if k is CONFIRM:
            return FOUL_ACTION if self.is_false_confirmation(s, m) else CONFIRM_ACTION
        if k is ESTABLISH and not self.block_ready(s):
            return CALL_ACTION  # R4.7
        return {DRAW: DRAW_ACTION, PASS: END_TURN_ACTION if first else PASS_ACTION,
                ESTABLISH: ESTABLISH_ACTION, DOMINO: DOMINO_ACTION}[k]

    def apply(self, s: State, m: Move) -> State:
        """The state after ``m``; an :class:`IllegalMoveError` naming the rule if not legal."""
        if type(m) is not Move or type(m.kind) is not MoveKind:
            # a plain tuple, or a Move whose kind is an int, compares equal to a legal move
            raise self.why_illegal(s, m)
        moves = self._memo_moves if s is self._memo_state else self.legal_moves(s)
        if m not in moves:
            raise self.why_illegal(s, m)
        return self.step(s, m)

    def successors(self, s: State) -> list[tuple[Move, State]]:
        return [(m, self.step(s, m)) for m in self.legal_moves(s)]

    def step(self: RuleBook, s: State, m: Move) -> State:
        """The transition for a move already known to be legal: its action's effect."""
        return self.action_of(s, m).effect(self, s, m)

    def why_illegal(self, s: State, m: Move) -> IllegalMoveError:
        """Why ``m`` is not a move of ``s``: the typed error names the rule."""
        return why_illegal(self, s, m)


def _holder(hands: tuple[int, ...], t: int | None) -> tuple[int, int | None] | None:
    """Who holds tile ``t``, with it (``None``: nobody, or no tile)."""
    return None if t is None else next(((p, t) for p, h in enumerate(hands) if h >> t & 1),
                                       None)


def _highest_double(r: RuleBook, hands: tuple[int, ...]) -> tuple[int, int | None] | None:
    """The holder of the highest double dealt, with it."""
    held = (_holder(hands, t) for t in reversed(r.tiles.doubles()))
    return next((found for found in held if found is not None), None)


# ---- The actions: each a guard case and an effect (SEMANTICS.md "Actions") ---
# In a state, the first case whose guard holds decides the enabled moves (an ``also``
# case adds its own before it); ``Next`` is their disjunction. Each effect names the
# variables it changes; every other variable is unchanged (TLA+'s ``UNCHANGED``).
# An :class:`Action` and a :class:`Case` are what :mod:`.rulebook` says they are.


def _with_hand(s: State, p: int, hand: int) -> tuple[int, ...]:
    return (*s.hands[:p], hand, *s.hands[p + 1:])


def _laid(r: RuleBook, s: State, m: Move, ends: tuple[int, ...], marks: int) -> State:
    """A tile leaves the mover's hand for the table and the layout is ``ends``, ``marks``;
    the run of confirmations ends, ``drew' = false``, and the turn passes clockwise
    unless the hand is now empty (a Domino follows), the mover laid a double that takes
    tiles where the layout says its player plays again [R2.2], or their first turn on
    their own train goes on (``marks`` say so) [R2.3]."""
    p = m.player
    hand = s.hands[p] & ~(1 << m.tile)
    a, b = r.halves[m.tile]
    stays = ((a == b and m.end != LEAD and r.layout.plays_again(m.end))
             or r.layout.first_turn(marks))
    new = s._replace(hands=_with_hand(s, p, hand), table=s.table | 1 << m.tile, ends=ends,
                     marks=marks, turn=r.next_seat[p] if hand and not stays else p,
                     confirmed=0, drew=False)
    return fives.laid(r.layout, s, new, m.end, (a, b), p) if r.fives else new  # R5.7


def _ends(status: Status) -> Callable[[RuleBook, State, Move], State]:
    """The effect ``status' = status``: DOMINO, or BLOCKED [R5.1]."""
    return lambda r, s, m: s._replace(status=status)


def _lead_moves(r: RuleBook, s: State) -> Iterator[Move]:
    """The tile(s) the lead rule allows, if the mover is the leader it names."""
    leader, tile = r.opening(s.hands)
    if leader != s.turn:
        return
    for t in bits(s.hands[leader]) if tile is None else (tile,):
        yield Move(PLAY, leader, t, LEAD)


def _lead(r: RuleBook, s: State, m: Move) -> State:
    """The slots opened by the lead show the halves of ``t = a-b`` (a double also opens
    a spinner's arms, and takes its tiles where the layout says so)."""
    a, b = r.halves[m.tile]
    return _laid(r, s, m, *r.layout.open(a, b, s.marks, canon=not r.fives))


def _last(lay: Layout, hand: int) -> bool:  # one tile, which a waiting double may not be
    return lay.data.cover_out and hand != 0 and not hand & (hand - 1)


def _play_moves(r: RuleBook, s: State) -> Iterator[Move]:
    """Every tile on every slot the mover may play on that it matches [R2.1], but a last
    tile that is a double left to wait (``playable_mask``) [R2.2]; a matador turned
    either way, once for each half it may leave showing [R2.1]."""
    p, hand, ends, lay = s.turn, s.hands[s.turn], s.ends, r.layout
    for slot in lay.targets(ends, p, s.marks, s.weights):
        for t in bits(hand & r.fits[ends[slot]]):
            if not (_last(lay, hand) and lay.bars_going_out(s.marks, slot, r.halves[t])):
                for leaves in turns(*r.halves[t], lay.data.match_total) or (ONE_WAY,):
                    yield Move(PLAY, p, t, slot, leaves)


def _play(r: RuleBook, s: State, m: Move) -> State:
    """The slot played on shows the tile's other half, ``other(t, x)`` (a turned matador:
    the half the move leaves); the slot is covered; a double that takes tiles waits there
    (and opens its toes); a play on one's own train takes one's marker in."""
    return _laid(r, s, m, *r.layout.extend(s.ends, s.marks, m.end, r.halves[m.tile],
                                           m.player, canon=not r.fives, leaves=m.leaves))


def _foul_moves(r: RuleBook, s: State) -> Iterator[Move]:
    """Where fouls are penalised, the boneyard is empty and the mover has no foul yet:
    a false declaration of inability [R4.5]."""
    p = s.turn
    if r.constants.FOULS is FoulRule.PENALISED and not s.boneyard and not s.fouls >> p & 1:
        yield Move.confirm(p)


def _foul(r: RuleBook, s: State, m: Move) -> State:
    """``fouls' = fouls + p``, the run ends, the turn passes, ``drew' = false``, and the
    player's marker goes out (they declared they cannot play)."""
    return s._replace(fouls=s.fouls | 1 << m.player, confirmed=0,
                      turn=r.next_seat[m.player], drew=False,
                      marks=r.layout.put_marker_out(s.marks, m.player))


def _draw_moves(r: RuleBook, s: State) -> Iterator[Move]:
    """The top of the stack, or any boneyard tile when the draw order is free."""
    for t in (s.stack[:1] if s.stack is not None else bits(s.boneyard)):
        yield Move.draw(s.turn, t)


def _draw(r: RuleBook, s: State, m: Move) -> State:
    """The tile goes from the boneyard to the hand; ``drew' = (DRAW = one)``. Before the
    lead (R3.6) ``drew`` stays false and the turn passes, unless the drawer now holds
    the tile the lead rule names (then they lead)."""
    p, bit = m.player, 1 << m.tile
    hands = _with_hand(s, p, s.hands[p] | bit)
    turn = p if s.led or r.opening(hands)[1] != DRAW_FOR_LEAD else r.next_seat[p]
    return s._replace(hands=hands, boneyard=s.boneyard & ~bit, turn=turn,
                      drew=s.led and r.constants.DRAW is DrawRule.ONE,
                      stack=s.stack[1:] if s.stack is not None else None)


def _pass(r: RuleBook, s: State, m: Move) -> State:
    """The turn passes; ``confirmed' = 0`` if confirmations need an empty boneyard, else
    one more; the player's marker goes out (trains)."""
    return s._replace(turn=r.next_seat[m.player], drew=False,
                      confirmed=0 if r.constants.EMPTY else s.confirmed + 1,
                      marks=r.layout.put_marker_out(s.marks, m.player))


def _confirm(r: RuleBook, s: State, m: Move) -> State:
    """One more confirmation in the run (the first proposes the block), the turn passes,
    the player's marker goes out (trains: their train is open to everyone); where RESTART,
    a confirmation that puts it out (it was in) starts the run again, as its first [R4.4]."""
    marks = r.layout.put_marker_out(s.marks, m.player)
    count = 1 if r.constants.RESTART and marks != s.marks else s.confirmed + 1
    return s._replace(confirmed=count, turn=r.next_seat[m.player], drew=False, marks=marks)


DOMINO_ACTION = Action("Domino", DOMINO, ("Terms",),
                       "the player to move has emptied their hand: the round ends",
                       lambda r, s: iter((Move.domino(s.turn),)), _ends(Status.DOMINO))
ESTABLISH_ACTION = Action("Establish", ESTABLISH, ("R4.4", "R5.1"),
                          "after every needed confirmation, with the boneyard empty, the "
                          "block is established and the round ends",
                          lambda r, s: iter((Move.establish(s.turn),)), _ends(BLOCKED))
CALL_ACTION = Action("Call", ESTABLISH, ("R4.7",),
                     "CALL: at a dead end any player may call the block, and the round ends",
                     lambda r, s: iter((Move.establish(s.turn),)), _ends(BLOCKED))
LEAD_ACTION = Action("Lead", PLAY, ("Terms",),
                     "the opening tile, by the player and with the tile the lead rule names",
                     _lead_moves, _lead)
PLAY_ACTION = Action("Play", PLAY, ("R2.1", "R4.3"),
                     "lay a tile carrying the number an open end shows; a player who can "
                     "play must", _play_moves, _play)
FOUL_ACTION = Action("Foul", CONFIRM, ("R4.5",),
                     "a false declaration of inability by a player who could play, where the "
                     "variant makes it a recorded foul", _foul_moves, _foul)
DRAW_ACTION = Action("Draw", DRAW, ("R3.1", "R3.5", "R3.6"),
                     "a player who cannot play (R3.5: any, if WHEN = any-time; R3.6: before "
                     "the lead, one seeking the named tile) takes a boneyard tile (the top "
                     "one, or any when the draw order is free)", _draw_moves, _draw)
LAY_ON_ACTION = Action("Lay on", PLAY, ("R2.1", "R2.3"), "first turn (FIRST = own-train): "
                       "another tile on one's own train", lambda r, s: (
                           m for m in _play_moves(r, s) if m.end == r.layout.own_train(s.turn)),
                       _play)
END_TURN_ACTION = Action("End turn", PASS, ("R2.3",), "first turn: the player stops laying on "
                         "their own train; the turn passes, with no marker out and no "
                         "confirmation", lambda r, s: iter((Move.pass_(s.turn),)),
                         lambda r, s, m: s._replace(turn=r.next_seat[m.player],
                                                    marks=r.layout.end_first_turn(s.marks)))
PASS_ACTION = Action("Pass", PASS, ("R3.1",),
                     "draw-one games: the drawn tile does not fit, the turn passes",
                     lambda r, s: iter((Move.pass_(s.turn),)), _pass)
CONFIRM_ACTION = Action("Confirm", CONFIRM, ("R4.1", "R4.2"),
                        "with the boneyard supplying nothing, a player who cannot play "
                        "confirms it (the first of a run proposes the block)",
                        lambda r, s: iter((Move.confirm(s.turn),)), _confirm)

#: the guard cases, in SEMANTICS.md's order: the first that holds decides
CASES: tuple[Case, ...] = (
    Case(1, "status != PLAYING", lambda r, s: s.status is not Status.PLAYING, ()),
    Case(2, "hand[p] = {}", lambda r, s: not s.hands[s.turn], (DOMINO_ACTION,)),
    Case(3, "block_ready", lambda r, s: r.block_ready(s), (ESTABLISH_ACTION,)),
    Case(3, "CALL, dead_end", lambda r, s: r.constants.CALL and r.dead_end(s), (CALL_ACTION,),
         also=True),  # R4.7: call, or go on as the next case that holds says
    Case(3, "first turn going on", lambda r, s: r.layout.first_turn(s.marks),
         (LAY_ON_ACTION, END_TURN_ACTION)),  # R2.3: SEMANTICS's case 3'
    Case(4, "no slot open, opening = DRAW_FOR_LEAD", lambda r, s: not s.led  # R3.6
         and r.opening(s.hands)[1] == DRAW_FOR_LEAD, (DRAW_ACTION,)),
    Case(4, "no slot open", lambda r, s: not s.led, (LEAD_ACTION,)),
    Case(5, "WHEN = any-time, may_draw, playable(p) != {}", lambda r, s: r.constants.WHEN
         is DrawWhen.ANY_TIME and r.may_draw(s) and r.playable_mask(s, s.turn) != 0,
         (PLAY_ACTION, DRAW_ACTION)),  # R3.5: play, or draw as case 6 allows
    Case(5, "playable(p) != {}", lambda r, s: r.playable_mask(s, s.turn) != 0,
         (PLAY_ACTION, FOUL_ACTION)),
    Case(6, "may_draw", lambda r, s: r.may_draw(s), (DRAW_ACTION,)),
    Case(7, "boneyard != {}", lambda r, s: bool(s.boneyard), (PASS_ACTION,)),
    Case(8, "otherwise", lambda r, s: True, (CONFIRM_ACTION,)),
)

ACTIONS: tuple[Action, ...] = (LEAD_ACTION, PLAY_ACTION, DRAW_ACTION, PASS_ACTION,
                               CONFIRM_ACTION, FOUL_ACTION, ESTABLISH_ACTION, CALL_ACTION,
                               DOMINO_ACTION, LAY_ON_ACTION, END_TURN_ACTION)
ACTIONS_BY_NAME: dict[str, Action] = {a.name: a for a in ACTIONS}


# ---- Next and the terminal states --------------------------------------------


def next_states(rules: RuleBook, s: State) -> list[tuple[Action, Move, State]]:
    """``Next``: every transition ``s -> s'`` (:meth:`Rules.successors`, in its order),
    labelled by its action and move; ``[]`` in a terminal state."""
    return [(rules.action_of(s, m), m, t) for m, t in rules.successors(s)]


def terminal_kind(rules: RuleBook, s: State) -> str | None:
    """How ``s`` ends the round (an :class:`~dominoproof.model.state.Ending`'s label):
    ``"blocked"``, ``"domino P<i>"``, ``"stuck"`` (no move, yet playing) or ``None``."""
    ending = s.status.ending
    if ending is None and not rules.moves(s):
        ending = Ending.STUCK
    return None if ending is None else ending.label(s.turn)


# ---- The specification's public functions (the engine is fast.engine_for) ----


@cache
def spec_for(variant: Variant) -> Rules:
    """The (cached) specification rule book of ``variant``: the named actions, no fast path."""
    return Rules(variant)


def legal_moves(variant: Variant, state: State) -> tuple[Move, ...]:
    """Every legal move in ``state``, in a fixed order (``()`` when the round is over)."""
    return spec_for(variant).legal_moves(state)


def apply(variant: Variant, state: State, move: Move) -> State:
    """The state after ``move``. An illegal move raises :class:`IllegalMoveError`."""
    return spec_for(variant).apply(state, move)


def successors(variant: Variant, state: State) -> list[tuple[Move, State]]:
    return spec_for(variant).successors(state)


def ends_unplayable(variant: Variant, state: State,
                    reading: ExtendReading | None = None) -> bool:
    """R2: no open end can be extended (per the R2.3 reading)."""
    return spec_for(variant).ends_unplayable(state, reading)


def boneyard_supplies_nothing(variant: Variant, state: State) -> bool:
    """R3: the boneyard can supply no tile."""
    return spec_for(variant).boneyard_supplies_nothing(state)


def is_blocked(variant: Variant, state: State, reading: ExtendReading | None = None) -> bool:
    """R1.1: the round is blocked (R2 and R3 at once)."""
    return spec_for(variant).is_blocked(state, reading)
