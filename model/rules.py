"""The rules of a round: legal moves, transitions and the predicates of R1-R4.

This module is the *imperative* reading of RULES.md. The Z3 transition
relation (``dominoproof.proofs.encoding``) is the declarative one, written
independently; the conformance check ties the two together. Rule *parameters*
come from the :class:`~dominoproof.model.variant.Variant` and nowhere else.

The public API is three pure functions::

    legal_moves(variant, state) -> list[Move]
    apply(variant, state, move) -> State        # raises IllegalMoveError
    successors(variant, state) -> list[tuple[Move, State]]

and the predicates :func:`ends_unplayable` (R2), :func:`boneyard_supplies_nothing`
(R3) and :func:`is_blocked` (R1.1). They delegate to :class:`Rules`, the rule
book of one variant with its tables precomputed; hot loops hold a ``Rules``
directly. Fault-injected rule books for the tests subclass ``Rules``.
"""

from __future__ import annotations

from functools import cache

from .errors import DominoproofError, FalseDeclarationError, IllegalMoveError
from .layout import Layout, layout_of
from .moves import LEAD, Move, MoveKind
from .state import State, Status
from .tiles import Tile, bits
from .variant import (
    DrawRule,
    ExtendReading,
    FoulRule,
    LayoutKind,
    LeadFallback,
    LeadRule,
    Variant,
)

PLAYING = Status.PLAYING
_new = tuple.__new__
_PLAY_CACHE_LIMIT = 1 << 14
PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind


class VoidDeal(DominoproofError):
    """The lead rule names a tile nobody holds and the fallback is a redeal."""


class Rules:
    """The rule book of one variant (R1-R4), with its tables precomputed.

    Every method is pure: states are immutable values and nothing here keeps
    state across calls except a one-entry cache of the last ``legal_moves``
    answer, which ``apply`` uses to check legality without recomputing it.
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.layout: Layout = layout_of(variant)
        ts = variant.tiles
        self.tiles = ts
        self.suit = ts.suit
        self.halves = ts.halves
        self.players = p_count = variant.players
        self.next_seat = tuple((p + 1) % p_count for p in range(p_count))
        self.needed = variant.needed_confirmations
        self.draw_rule = variant.draw.rule
        self.must_be_empty = variant.block.boneyard_must_be_empty
        self.fouls_possible = variant.fouls.rule is FoulRule.PENALISED
        self.reading = variant.layout.extend
        self.value = variant.tile_value
        v = ts.n + 1
        self._v = v
        # Every move is a precomputed value: the hot loop allocates no moves.
        self._play: list[list[Move | None]] = []
        self._lead: list[list[Move]] = []
        self._draw: list[list[Move]] = []
        for p in range(p_count):
            row: list[Move | None] = [None] * (ts.count * v)
            for t, (a, b) in enumerate(ts.halves):
                row[t * v + a] = Move(PLAY, p, t, a)
                row[t * v + b] = Move(PLAY, p, t, b)
            self._play.append(row)
            self._lead.append([Move(PLAY, p, t, LEAD) for t in range(ts.count)])
            self._draw.append([Move(DRAW, p, t) for t in range(ts.count)])
        self._confirm = [Move(CONFIRM, p) for p in range(p_count)]
        self._pass = [Move(PASS, p) for p in range(p_count)]
        self._establish = [Move(ESTABLISH, p) for p in range(p_count)]
        self._domino = [Move(DOMINO, p) for p in range(p_count)]
        # Memo of the plays of a player on one end, keyed by the hand's tiles of that
        # end's suit (a pure function of its key; bounded so that huge sets stay small).
        self._play_cache: list[dict[int, tuple[Move, ...]]] = [
            {} for _ in range(p_count * v)]
        self._line = self.layout.kind is LayoutKind.LINE
        # Small sets: a suit has few subsets and the memo soon holds them all. Large
        # sets: hands meet a suit in ever new ways, so keep the memo small.
        self._cache_limit = _PLAY_CACHE_LIMIT if v <= 8 else _PLAY_CACHE_LIMIT // 16
        self._memo_state: State | None = None
        self._memo_moves: tuple[Move, ...] = ()

    # ------------------------------------------------------------------
    # R2, R3, R1.1: the conditions of a blocked game
    # ------------------------------------------------------------------
    def playable_mask(self, s: State, player: int) -> int:
        """Tiles of ``player`` that extend an open end ``player`` may play on (R2.1, R2.3)."""
        if not s.ends:
            return s.hands[player]
        m = 0
        suit, shows = self.suit, self.layout.shows
        for e in self.layout.targets(s.ends, player):
            m |= suit[shows(s.ends, e)]
        return s.hands[player] & m

    def has_play(self, s: State, player: int) -> bool:
        """Whether ``player`` has a legal play on the layout (R2.3 "has a legal move")."""
        return self.playable_mask(s, player) != 0

    def matching_mask(self, s: State) -> int:
        """Tiles in any hand that carry a number showing on any open end (R2.1)."""
        m = 0
        for v in self.layout.numbers(s.ends):
            m |= self.suit[v]
        return s.in_hands & m

    def ends_unplayable(self, s: State, reading: ExtendReading | None = None) -> bool:
        """R2 (condition 1): no open end can be extended by any player.

        ``reading`` (R2.3) defaults to the variant's: "holds a matching tile"
        (any hand holds a tile carrying an end's number) or "has a legal move"
        (some player may legally play on some end). Before the lead there are
        no open ends and the leader can always play: not unplayable.
        """
        if not s.ends:
            return False
        reading = reading or self.reading
        if reading is ExtendReading.HOLDS_MATCHING_TILE:
            return self.matching_mask(s) == 0
        return not any(self.has_play(s, p) for p in range(self.players))

    def boneyard_supplies_nothing(self, s: State) -> bool:
        """R3 (condition 2): the boneyard is empty. Tiles set aside (never drawn) are
        not part of it; under the block game (no drawing) every undealt tile is."""
        return s.boneyard == 0

    def is_blocked(self, s: State, reading: ExtendReading | None = None) -> bool:
        """R1.1 with R3.3: both conditions hold at once, in a round not ended by a domino
        (R1.2: nobody has emptied their hand, so every player is still active)."""
        return (s.status is not Status.DOMINO and all(s.hands)
                and self.ends_unplayable(s, reading) and self.boneyard_supplies_nothing(s))

    def block_ready(self, s: State) -> bool:
        """R4.4: enough consecutive confirmations, and the boneyard still empty."""
        return s.confirmed >= self.needed and (not self.must_be_empty or s.boneyard == 0)

    def is_false_confirmation(self, s: State, m: Move) -> bool:
        """R4.5: a confirmation of inability by a player who has a legal play."""
        return m.kind is CONFIRM and self.playable_mask(s, m.player) != 0

    # ------------------------------------------------------------------
    # The opening
    # ------------------------------------------------------------------
    def heaviest(self, mask: int) -> int:
        """The heaviest tile of ``mask``: highest value, then highest index."""
        value = self.value
        return max(bits(mask), key=lambda t: (value[t], t))

    def lightest(self, mask: int) -> int:
        """The lightest tile of ``mask``: lowest value, then lowest index (R5.5)."""
        value = self.value
        return min(bits(mask), key=lambda t: (value[t], t))

    def opening(self, hands: tuple[int, ...]) -> tuple[int, int | None]:
        """The leader and the tile they must lead with (``None``: any tile).

        Raises :class:`VoidDeal` when the named tile is held by nobody and the
        fallback is a redeal.
        """
        lead = self.variant.lead
        rule = lead.rule
        if rule is LeadRule.PLAYER:
            return lead.player, None
        found = (self._holder(hands, self.variant.lead_tile_index) if rule is LeadRule.TILE
                 else self._highest_double(hands))
        if found is not None:
            return found
        fallback = lead.fallback
        if fallback is LeadFallback.REDEAL:
            raise VoidDeal(f"nobody holds the lead tile ({lead.rule.value})")
        if fallback is LeadFallback.PLAYER:
            return lead.player, None
        if fallback is LeadFallback.HIGHEST_DOUBLE:
            found = self._highest_double(hands)
            if found is not None:
                return found
        held = 0
        for h in hands:
            held |= h
        t = self.heaviest(held)
        return self._holder(hands, t) or (lead.player, None)

    @staticmethod
    def _holder(hands: tuple[int, ...], t: int | None) -> tuple[int, int | None] | None:
        if t is None:
            return None
        for p, h in enumerate(hands):
            if h >> t & 1:
                return p, t
        return None

    def _highest_double(self, hands: tuple[int, ...]) -> tuple[int, int | None] | None:
        for t in reversed(self.tiles.doubles()):
            found = self._holder(hands, t)
            if found is not None:
                return found
        return None

    # ------------------------------------------------------------------
    # Legal moves
    # ------------------------------------------------------------------
    def legal_moves(self, s: State) -> tuple[Move, ...]:
        """Every legal move in ``s``, in a fixed order; ``()`` when the round is over."""
        moves = self.moves(s)
        self._memo_state = s
        self._memo_moves = moves
        return moves

    def moves(self, s: State) -> tuple[Move, ...]:
        """``legal_moves`` without remembering the answer for ``apply``."""
        if s.status is not PLAYING:
            return ()
        p = s.turn
        hand = s.hands[p]
        if not hand:
            return (self._domino[p],)
        # block_ready, inlined: this is the engine's hot path
        if s.confirmed >= self.needed and (not self.must_be_empty or not s.boneyard):
            return (self._establish[p],)
        ends = s.ends
        if not ends:
            return self._lead_moves(s)
        if self._line:  # _plays inlined for the one-line layout: the engine's hot path
            lo, hi = ends
            cache, base, suit = self._play_cache, p * self._v, self.suit
            m = hand & suit[lo]
            moves = (cache[base + lo].get(m) or self._plays_on(p, lo, m)) if m else ()
            if hi != lo:
                m = hand & suit[hi]
                if m:
                    more = cache[base + hi].get(m) or self._plays_on(p, hi, m)
                    moves = moves + more if moves else more
        else:
            moves = self._plays(p, hand, ends)
        if moves:
            if self.fouls_possible and not s.boneyard and not s.fouls >> p & 1:
                return (*moves, self._confirm[p])  # R4.5: a false declaration, a foul
            return moves
        if s.boneyard and self.draw_rule is not DrawRule.NONE and not s.drew:
            if s.stack is not None:
                return (self._draw[p][s.stack[0]],)
            row = self._draw[p]
            return tuple(row[t] for t in bits(s.boneyard))
        if s.boneyard:
            return (self._pass[p],)
        return (self._confirm[p],)

    def _plays(self, p: int, hand: int, ends: tuple[int, ...]) -> tuple[Move, ...]:
        """The plays of ``p`` (R2.1: a tile matching an end ``p`` may play on); the
        one-line layout's are inlined in :meth:`moves`."""
        layout = self.layout
        out: tuple[Move, ...] = ()
        for e in layout.targets(ends, p):
            v = layout.shows(ends, e)
            out += self._plays_on(p, e, hand & self.suit[v])
        return out

    def _plays_on(self, p: int, e: int, m: int) -> tuple[Move, ...]:
        """The plays of the tiles ``m`` on the end ``e`` (memoised)."""
        if not m:
            return ()
        cache = self._play_cache[p * self._v + e]
        got = cache.get(m)
        if got is not None:
            return got
        row = self._play[p]
        v = self._v
        moves = []
        for t in bits(m):
            mv = row[t * v + e]
            assert mv is not None
            moves.append(mv)
        got = tuple(moves)
        if len(cache) < self._cache_limit:
            cache[m] = got
        return got

    def _lead_moves(self, s: State) -> tuple[Move, ...]:
        leader, tile = self.opening(s.hands)
        if leader != s.turn:
            return ()
        row = self._lead[leader]
        if tile is None:
            return tuple(row[t] for t in bits(s.hands[leader]))
        return (row[tile],)

    # ------------------------------------------------------------------
    # Transitions
    # ------------------------------------------------------------------
    def apply(self, s: State, m: Move) -> State:
        """The state after ``m``; raises :class:`IllegalMoveError` (naming the rule) if
        ``m`` is not legal in ``s``. ``s`` itself never changes."""
        if type(m) is not Move or type(m.kind) is not MoveKind:
            # a plain tuple, or a Move whose kind is an int, compares equal to a legal move
            raise self.why_illegal(s, m)
        moves = self._memo_moves if s is self._memo_state else self.legal_moves(s)
        if m not in moves:
            raise self.why_illegal(s, m)
        return self.step(s, m)

    def successors(self, s: State) -> list[tuple[Move, State]]:
        step = self.step
        return [(m, step(s, m)) for m in self.legal_moves(s)]

    def step(self, s: State, m: Move) -> State:
        """The transition for a move already known to be legal (no check).

        States are built with ``tuple.__new__`` (what ``State._make`` does) to keep
        the engine's hot loop short; the field order is ``State``'s."""
        kind, p, t, e = m
        hands, bone, aside, table, ends, _, conf, _, fouls, _, stack = s
        if kind is PLAY:
            bit = 1 << t
            hand = hands[p] ^ bit
            a, b = self.halves[t]
            if not self._line:
                ends = (self.layout.open(a, b) if e == LEAD
                        else self.layout.extend(ends, e, b if e == a else a))
            elif e == LEAD:
                ends = (a, b)  # a <= b: the opening tile's halves are the line's two ends
            else:
                lo, hi = ends
                o = b if e == a else a
                if e == lo:
                    ends = (o, hi) if o <= hi else (hi, o)
                else:
                    ends = (lo, o) if lo <= o else (o, lo)
            return _new(State, (
                (*hands[:p], hand, *hands[p + 1:]), bone, aside, table | bit, ends,
                self.next_seat[p] if hand else p, 0, False, fouls, PLAYING, stack))
        if kind is DRAW:
            bit = 1 << t
            return _new(State, (
                (*hands[:p], hands[p] | bit, *hands[p + 1:]), bone ^ bit, aside, table, ends,
                p, conf, self.draw_rule is DrawRule.ONE, fouls, PLAYING,
                stack[1:] if stack is not None else None))
        if kind is CONFIRM:
            if self.fouls_possible and self.playable_mask(s, p):  # R4.5: recorded as a foul
                return _new(State, (hands, bone, aside, table, ends, self.next_seat[p], 0,
                                    False, fouls | 1 << p, PLAYING, stack))
            return _new(State, (hands, bone, aside, table, ends, self.next_seat[p], conf + 1,
                                False, fouls, PLAYING, stack))
        if kind is PASS:
            return _new(State, (hands, bone, aside, table, ends, self.next_seat[p],
                                0 if self.must_be_empty else conf + 1, False, fouls, PLAYING,
                                stack))
        if kind is ESTABLISH:
            return s._replace(status=Status.BLOCKED)
        return s._replace(status=Status.DOMINO)

    # ------------------------------------------------------------------
    # Why a move is illegal (the typed error names the rule)
    # ------------------------------------------------------------------
    def why_illegal(self, s: State, m: Move) -> IllegalMoveError:
        def err(msg: str, rule: str) -> IllegalMoveError:
            return IllegalMoveError(f"{msg}: {m!r}", move=m, rule=rule)

        if type(m) is not Move or type(m.kind) is not MoveKind:
            shown = repr(tuple(m)) if isinstance(m, tuple) else repr(m)
            return IllegalMoveError(f"not a move: {shown}", move=m)
        if s.status is not PLAYING:
            return err("the round is over", "R5.1")
        if m.player != s.turn:
            return err(f"it is P{s.turn}'s turn, not P{m.player}'s", "Terms")
        forced = self.moves(s)
        if forced and forced[0].kind in (ESTABLISH, DOMINO):
            return err(f"the only move is {forced[0]!r}", "R4.4" if forced[0].kind is ESTABLISH
                       else "Terms")
        k = m.kind
        if not s.ends and k is not PLAY:
            return err("the round opens with the lead: a play of the tile the lead rule "
                       "allows", "Terms")
        if k is ESTABLISH:
            return err(f"{s.confirmed} of {self.needed} confirmations, boneyard "
                       f"{'empty' if not s.boneyard else 'not empty'}", "R4.4")
        if k is DOMINO:
            return err(f"P{m.player} still holds tiles", "Terms")
        if k is PLAY:
            if not 0 <= m.tile < self.tiles.count or not s.hands[m.player] >> m.tile & 1:
                return err(f"P{m.player} does not hold that tile", "Terms")
            if not s.ends:
                return err("the lead must follow the variant's lead rule", "Terms")
            if m.end == LEAD:
                return err("the layout is already open; name an end", "Terms")
            targets = self.layout.targets(s.ends, m.player)
            if m.end not in targets:
                return err(f"no open end {m.end} (open: {', '.join(map(str, targets))})", "R2.1")
            return err(f"{Tile.from_index(m.tile)} does not match the end {m.end}", "R2.1")
        has_play = bool(s.ends) and self.playable_mask(s, m.player) != 0
        if k is DRAW:
            if has_play:
                return err("a player who can play must play", "R4.3")
            if self.draw_rule is DrawRule.NONE:
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
                    + ("(one foul per player per round)" if self.fouls_possible else
                       "(a false declaration is a foul this variant rejects)")
                    + f": {m!r}", move=m, rule="R4.5")
            if s.boneyard:
                return err("the boneyard still supplies tiles: draw first", "R4.1")
        if k is PASS:
            if has_play:
                return err("a player who can play must play", "R4.3")
            return err("a pass follows a draw-one draw with stock left", "R3.1")
        return err("not legal here", "Terms")


@cache
def rules_for(variant: Variant) -> Rules:
    """The (cached) rule book of ``variant``."""
    return Rules(variant)


def legal_moves(variant: Variant, state: State) -> tuple[Move, ...]:
    """Every legal move in ``state``, in a fixed order (``()`` when the round is over)."""
    return rules_for(variant).legal_moves(state)


def apply(variant: Variant, state: State, move: Move) -> State:
    """The state after ``move``. An illegal move raises :class:`IllegalMoveError`."""
    return rules_for(variant).apply(state, move)


def successors(variant: Variant, state: State) -> list[tuple[Move, State]]:
    return rules_for(variant).successors(state)


def ends_unplayable(variant: Variant, state: State,
                    reading: ExtendReading | None = None) -> bool:
    """R2: no open end can be extended (per the R2.3 reading)."""
    return rules_for(variant).ends_unplayable(state, reading)


def boneyard_supplies_nothing(variant: Variant, state: State) -> bool:
    """R3: the boneyard can supply no tile."""
    return rules_for(variant).boneyard_supplies_nothing(state)


def is_blocked(variant: Variant, state: State, reading: ExtendReading | None = None) -> bool:
    """R1.1: the round is blocked (R2 and R3 at once)."""
    return rules_for(variant).is_blocked(state, reading)
