"""The engine's rule book: the rules of :mod:`.spec` with memo tables and inlined paths.

:class:`FastRules` gives the same moves, in the same order, and the same successor
states as the specification's :class:`~dominoproof.model.spec.Rules`, faster: every move
is a precomputed value, the plays of a hand on an end are memoised by the hand's tiles
of that end's suit, and the guard cases and effects of the one-line layout are inlined.
It is an oracle of the conformance suite (``tests/test_conformance.py``), so speed can
never change the rules unseen. Any other layout runs the specification's ``Next`` and
effects, unchanged; the constants, the predicates and the lead are the specification's
own methods, read against this rule book (and a mutant's overrides).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from .constants import Constants
from .layout import CLOSED, LINE, Layout
from .matching import ONE_WAY, shown_after, turns
from .moves import DRAW_FOR_LEAD, LEAD, Move, MoveKind
from .rulebook import RuleBook
from .spec import Rules
from .state import State, Status
from .tiles import TileSet, bits
from .variant import DrawRule, DrawWhen, Variant

__all__ = ["FastRules", "engine_for", "is_own", "system_under_test"]

PLAYING = Status.PLAYING
_new = tuple.__new__
_PLAY_CACHE_LIMIT = 1 << 14
PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind


class FastRules:
    """The rule book the engine, the search and the simulations play with."""

    variant: Variant
    constants: Constants
    layout: Layout
    tiles: TileSet
    suit: tuple[int, ...]
    fits: tuple[int, ...]
    halves: tuple[tuple[int, int], ...]
    players: int
    next_seat: tuple[int, ...]
    C: int
    fouls_possible: bool
    value: tuple[int, ...]
    fives: bool
    _memo_state: State | None = None
    _memo_moves: tuple[Move, ...] = ()

    # the specification's predicates, lead and bookkeeping, stated there once
    playable_mask = Rules.playable_mask
    has_play = Rules.has_play
    matching_mask = Rules.matching_mask
    ends_unplayable = Rules.ends_unplayable
    boneyard_supplies_nothing = Rules.boneyard_supplies_nothing
    is_blocked = Rules.is_blocked
    block_ready = Rules.block_ready
    dead_end = Rules.dead_end
    may_draw = Rules.may_draw
    is_false_confirmation = Rules.is_false_confirmation
    heaviest = Rules.heaviest
    lightest = Rules.lightest
    opening = Rules.opening
    legal_moves = Rules.legal_moves
    action_of = Rules.action_of
    apply = Rules.apply
    successors = Rules.successors
    why_illegal = Rules.why_illegal
    _spec_moves = Rules.moves
    _spec_step = Rules.step

    def __init__(self, variant: Variant) -> None:
        Rules.__init__(self, variant)
        ts = self.tiles
        p_count = self.players
        self.draw_rule = self.constants.DRAW
        self.must_be_empty = self.constants.EMPTY
        self.any_time = self.constants.WHEN is DrawWhen.ANY_TIME  # R3.5
        self.call = self.constants.CALL  # R4.7: a dead end may be called
        w = self.layout.width
        self._w = w
        # Every move is a precomputed value: the hot loop allocates no moves.
        # (a matador with two different halves: its two plays, one each way round, R2.1)
        self._play: list[list[tuple[Move, ...]]] = []
        self._lead: list[list[Move]] = []
        self._draw: list[list[Move]] = []
        for p in range(p_count):
            row: list[tuple[Move, ...]] = [()] * (ts.count * w)
            for t in range(ts.count):
                ways = turns(*ts.halves[t], self.layout.data.match_total) or (ONE_WAY,)
                for e in range(w):
                    row[t * w + e] = tuple(Move(PLAY, p, t, e, x) for x in ways)
            self._play.append(row)
            self._lead.append([Move(PLAY, p, t, LEAD) for t in range(ts.count)])
            self._draw.append([Move(DRAW, p, t) for t in range(ts.count)])
        self._confirm = [Move(CONFIRM, p) for p in range(p_count)]
        self._pass = [Move(PASS, p) for p in range(p_count)]
        self._establish = [Move(ESTABLISH, p) for p in range(p_count)]
        self._domino = [Move(DOMINO, p) for p in range(p_count)]
        # Memo of the plays of a player on one slot, keyed by the hand's tiles of that
        # slot's suit (a pure function of its key; bounded so that huge sets stay small).
        self._play_cache: list[dict[int, tuple[Move, ...]]] = [
            {} for _ in range(p_count * w)]
        # the one line, under either matching rule (R2.1: ``match_total``, 0 or N+1)
        self._total = self.layout.data.match_total
        # (where plays score, R5.7, the specification's effects run: they keep the points)
        self._line = replace(self.layout.data, match_total=0) == LINE and not self.fives
        # Small sets: a suit has few subsets and the memo soon holds them all. Large
        # sets: hands meet a suit in ever new ways, so keep the memo small.
        self._cache_limit = _PLAY_CACHE_LIMIT if ts.n < 8 else _PLAY_CACHE_LIMIT // 16

    # ------------------------------------------------------------------
    # Next, inlined
    # ------------------------------------------------------------------
    def moves(self, s: State) -> tuple[Move, ...]:
        if not self._line:
            return self._spec_moves(s)
        if s.status is not PLAYING:
            return ()
        p = s.turn
        hand = s.hands[p]
        if not hand:
            return (self._domino[p],)
        # block_ready, inlined: this is the engine's hot path
        if s.confirmed >= self.C and (not self.must_be_empty or not s.boneyard):
            return (self._establish[p],)
        lo, hi = s.ends
        if lo == CLOSED:
            return self._lead_moves(s)
        suit = self.fits
        if self.call and not (suit[lo] & ~s.table and suit[hi] & ~s.table):
            # R4.7: an end's every tile is on the table: call the block, or go on
            return (self._establish[p], *self._line_moves(s, p, hand, lo, hi))
        return self._line_moves(s, p, hand, lo, hi)

    def _line_moves(self, s: State, p: int, hand: int, lo: int, hi: int) -> tuple[Move, ...]:
        """The moves of cases 5-8 on a line whose ends show ``lo`` and ``hi``."""
        cache, base, suit = self._play_cache, p * 2, self.fits
        m = hand & suit[lo]
        moves = (cache[base].get(m) or self._plays_on(p, 0, m)) if m else ()
        if hi != lo:
            m = hand & suit[hi]
            if m:
                more = cache[base + 1].get(m) or self._plays_on(p, 1, m)
                moves = moves + more if moves else more
        if moves:
            if self.fouls_possible and not s.boneyard and not s.fouls >> p & 1:
                return (*moves, self._confirm[p])  # R4.5: a false declaration, a foul
            if (self.any_time and s.boneyard and self.draw_rule is not DrawRule.NONE
                    and not s.drew):  # R3.5: play, or draw as a stuck player may
                return (*moves, *self._draws(s, p))
            return moves
        if s.boneyard and self.draw_rule is not DrawRule.NONE and not s.drew:
            return self._draws(s, p)
        if s.boneyard:
            return (self._pass[p],)
        return (self._confirm[p],)

    def _draws(self, s: State, p: int) -> tuple[Move, ...]:
        """The top of the stack, or every boneyard tile when the draw order is free."""
        if s.stack is not None:
            return (self._draw[p][s.stack[0]],)
        row = self._draw[p]
        return tuple(row[t] for t in bits(s.boneyard))

    def _plays_on(self, p: int, e: int, m: int) -> tuple[Move, ...]:
        """The plays of the tiles ``m`` on the slot ``e`` (memoised)."""
        if not m:
            return ()
        cache = self._play_cache[p * self._w + e]
        got = cache.get(m)
        if got is not None:
            return got
        row = self._play[p]
        w = self._w
        moves: list[Move] = []
        for t in bits(m):
            moves += row[t * w + e]
        got = tuple(moves)
        if len(cache) < self._cache_limit:
            cache[m] = got
        return got

    def _lead_moves(self, s: State) -> tuple[Move, ...]:
        leader, tile = self.opening(s.hands)
        if tile == DRAW_FOR_LEAD:  # R3.6: nobody holds it; the player to move draws for it
            return self._draws(s, s.turn) if s.boneyard else ()
        if leader != s.turn:
            return ()
        row = self._lead[leader]
        if tile is None:
            return tuple(row[t] for t in bits(s.hands[leader]))
        return (row[tile],)

    # ------------------------------------------------------------------
    # Transitions, inlined
    # ------------------------------------------------------------------
    def step(self, s: State, m: Move) -> State:
        """The transition for a move already known to be legal (no check).

        States are built with ``tuple.__new__`` (what ``State._make`` does) to keep
        the engine's hot loop short; the field order is ``State``'s."""
        if not self._line:
            return self._spec_step(s, m)
        kind, p, t, e, leaves = m
        hands, bone, aside, table, ends, _, conf, _, fouls, _, stack, marks, pts, wts = s
        if kind is PLAY:
            bit = 1 << t
            hand = hands[p] ^ bit
            a, b = self.halves[t]
            if e == LEAD:
                ends = (a, b)  # a <= b: the opening tile's halves are the line's two ends
            else:
                lo, hi = ends
                x = lo if e == 0 else hi
                # R2.1: the other half; under Matador, the half not summing with x to N+1,
                # or the half a turned matador leaves
                o = (shown_after(a, b, x, self._total, leaves) if self._total
                     else b if x == a else a)
                if e == 0:
                    ends = (o, hi) if o <= hi else (hi, o)
                else:
                    ends = (lo, o) if lo <= o else (o, lo)
            return _new(State, (
                (*hands[:p], hand, *hands[p + 1:]), bone, aside, table | bit, ends,
                self.next_seat[p] if hand else p, 0, False, fouls, PLAYING, stack, marks, pts,
                wts))
        if kind is DRAW:
            bit = 1 << t
            hands = (*hands[:p], hands[p] | bit, *hands[p + 1:])
            led = ends[0] != CLOSED  # R3.6: a draw for the lead passes the turn unless it
            turn = p if led or self.opening(hands)[1] != DRAW_FOR_LEAD else self.next_seat[p]
            return _new(State, (  # ... draws the tile the lead rule names
                hands, bone ^ bit, aside, table, ends, turn, conf,
                led and self.draw_rule is DrawRule.ONE, fouls, PLAYING,
                stack[1:] if stack is not None else None, marks, pts, wts))
        if kind is CONFIRM:
            if self.fouls_possible and self.playable_mask(s, p):  # R4.5: recorded as a foul
                return _new(State, (hands, bone, aside, table, ends, self.next_seat[p], 0,
                                    False, fouls | 1 << p, PLAYING, stack, marks, pts, wts))
            return _new(State, (hands, bone, aside, table, ends, self.next_seat[p], conf + 1,
                                False, fouls, PLAYING, stack, marks, pts, wts))
        if kind is PASS:
            return _new(State, (hands, bone, aside, table, ends, self.next_seat[p],
                                0 if self.must_be_empty else conf + 1, False, fouls, PLAYING,
                                stack, marks, pts, wts))
        if kind is ESTABLISH:
            return s._replace(status=Status.BLOCKED)
        return s._replace(status=Status.DOMINO)


@cache
def engine_for(variant: Variant) -> RuleBook:
    """The (cached) engine rule book of ``variant``: what code that wants speed plays with."""
    return FastRules(variant)


def system_under_test(variant: Variant,
                      engine: type[RuleBook] | None = None) -> RuleBook:
    """The rule book of ``engine`` (a rule book class, e.g. a fault's mutant) for
    ``variant``; without one, the variant's own (:func:`engine_for`)."""
    return engine(variant) if engine is not None else engine_for(variant)


def is_own(rules: RuleBook) -> bool:
    """``rules`` is a rule book of the rules themselves -- the specification's or the
    engine's -- not a deliberately broken one (a fault's mutant)."""
    return type(rules) is Rules or type(rules) is FastRules
