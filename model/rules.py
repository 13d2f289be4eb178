"""The rules of a round, as the specification reads them: named actions, ``Next``, and
the predicates of R1-R4.

This module is the *imperative* reading of RULES.md (docs/SEMANTICS.md). The Z3
transition relation (``dominoproof.proofs.z3.encoding``) is the declarative one, written
independently; the conformance check ties the two together. Rule *parameters* come
from the variant's :class:`~dominoproof.model.constants.Constants` and nowhere else.

:class:`Rules` is the rule book of one variant, written for a person to check
against SEMANTICS.md: ``Next`` (:meth:`Rules.moves`) is derived from the named
actions of :mod:`.actions` -- the first guard case that holds decides, in the
specification's order -- and a transition is the effect of the move's action
(:meth:`Rules.step`). The engine plays with :class:`~dominoproof.model.fast.FastRules`,
the same rules with memo tables and inlined successors; the conformance suite
checks the two against each other on every state of the small configurations.

The public API is three pure functions::

    legal_moves(variant, state) -> tuple[Move, ...]
    apply(variant, state, move) -> State        # raises IllegalMoveError
    successors(variant, state) -> list[tuple[Move, State]]

and the predicates :func:`ends_unplayable` (R2), :func:`boneyard_supplies_nothing`
(R3) and :func:`is_blocked` (R1.1), which use the engine's rule book of the variant
(:func:`engine_for`).
"""

from __future__ import annotations

from functools import cache

from .actions import (
    CASES,
    CONFIRM_ACTION,
    DOMINO_ACTION,
    DRAW_ACTION,
    ESTABLISH_ACTION,
    FOUL_ACTION,
    LEAD_ACTION,
    PASS_ACTION,
    PLAY_ACTION,
    Action,
)
from .constants import Constants, constants_of
from .errors import DominoproofError, FalseDeclarationError, IllegalMoveError
from .layout import Layout, layout_for
from .moves import LEAD, Move, MoveKind
from .state import State, Status
from .tiles import Tile, bits
from .variant import DrawRule, ExtendReading, FoulRule, LeadFallback, LeadRule, Variant

PLAYING = Status.PLAYING
PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind


class VoidDeal(DominoproofError):
    """The lead rule names a tile nobody holds and the fallback is a redeal."""


class Rules:
    """The rule book of one variant (R1-R4): named actions, ``Next`` and the predicates.

    Every method is pure: states are immutable values. The only thing kept across
    calls is the last ``legal_moves`` answer, which ``apply`` uses to check legality
    without recomputing it.
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.constants: Constants = constants_of(variant)
        c = self.constants
        self.layout: Layout = layout_for(c.LAYOUT, c.P)
        self.tiles = c.tiles
        self.suit = c.tiles.suit
        self.halves = c.tiles.halves
        self.players = c.P
        self.next_seat = tuple((p + 1) % c.P for p in range(c.P))
        self.C = c.C  #: R4.4: the confirmations that establish the block
        self.fouls_possible = c.FOULS is FoulRule.PENALISED
        self.value = c.VALUE
        self._memo_state: State | None = None
        self._memo_moves: tuple[Move, ...] = ()

    # ------------------------------------------------------------------
    # R2, R3, R1.1: the conditions of a blocked game
    # ------------------------------------------------------------------
    def playable_mask(self, s: State, player: int) -> int:
        """Tiles of ``player`` that extend an open end ``player`` may play on (R2.1, R2.3);
        before the lead, every tile of the hand."""
        if not s.led:
            return s.hands[player]
        m = 0
        ends, suit = s.ends, self.suit
        for e in self.layout.targets(ends, player, s.marks):
            m |= suit[ends[e]]
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
        if not s.led:
            return False
        reading = reading or self.constants.READING
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
        return s.confirmed >= self.C and (not self.constants.EMPTY or s.boneyard == 0)

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
        c = self.constants
        rule = c.LEAD
        if rule is LeadRule.PLAYER:
            return c.LEADER, None
        found = (self._holder(hands, c.LEAD_TILE) if rule is LeadRule.TILE
                 else self._highest_double(hands))
        if found is not None:
            return found
        fallback = c.FALLBACK
        if fallback is LeadFallback.REDEAL:
            raise VoidDeal(f"nobody holds the lead tile ({rule.value})")
        if fallback is LeadFallback.PLAYER:
            return c.LEADER, None
        if fallback is LeadFallback.HIGHEST_DOUBLE:
            found = self._highest_double(hands)
            if found is not None:
                return found
        held = 0
        for h in hands:
            held |= h
        t = self.heaviest(held)
        return self._holder(hands, t) or (c.LEADER, None)

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
    # Next: the named actions
    # ------------------------------------------------------------------
    def legal_moves(self, s: State) -> tuple[Move, ...]:
        """Every legal move in ``s``, in a fixed order; ``()`` when the round is over."""
        moves = self.moves(s)
        self._memo_state = s
        self._memo_moves = moves
        return moves

    def moves(self, s: State) -> tuple[Move, ...]:
        """``Next``: the moves of the actions of the first guard case that holds in ``s``
        (``legal_moves`` without remembering the answer for ``apply``)."""
        for case in CASES:
            if case.guard(self, s):
                return tuple(m for a in case.actions for m in a.moves(self, s))
        raise AssertionError("the last case always holds")  # pragma: no cover

    def action_of(self, s: State, m: Move) -> Action:
        """The action a move of ``s`` belongs to (a confirmation by a player who can play
        is a Foul, R4.5)."""
        k = m.kind
        if k is PLAY:
            return LEAD_ACTION if m.end == LEAD else PLAY_ACTION
        if k is CONFIRM:
            return FOUL_ACTION if self.is_false_confirmation(s, m) else CONFIRM_ACTION
        return {DRAW: DRAW_ACTION, PASS: PASS_ACTION, ESTABLISH: ESTABLISH_ACTION,
                DOMINO: DOMINO_ACTION}[k]

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
        """The transition for a move already known to be legal: its action's effect."""
        return self.action_of(s, m).effect(self, s, m)

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
        if not s.led and k is not PLAY:
            return err("the round opens with the lead: a play of the tile the lead rule "
                       "allows", "Terms")
        if k is ESTABLISH:
            return err(f"{s.confirmed} of {self.C} confirmations, boneyard "
                       f"{'empty' if not s.boneyard else 'not empty'}", "R4.4")
        if k is DOMINO:
            return err(f"P{m.player} still holds tiles", "Terms")
        if k is PLAY:
            if not 0 <= m.tile < self.tiles.count or not s.hands[m.player] >> m.tile & 1:
                return err(f"P{m.player} does not hold that tile", "Terms")
            if not s.led:
                return err("the lead must follow the variant's lead rule", "Terms")
            if m.end == LEAD:
                return err("the layout is already open; name an end", "Terms")
            targets = self.layout.targets(s.ends, m.player, s.marks)
            if m.end not in targets:
                shown = ", ".join(f"{s.ends[e]} (slot {e})" for e in targets)
                return err(f"no open end at slot {m.end} for P{m.player} (open: {shown})",
                           "R2.1")
            return err(f"{Tile.from_index(m.tile)} does not match the end showing "
                       f"{s.ends[m.end]}", "R2.1")
        has_play = s.led and self.playable_mask(s, m.player) != 0
        if k is DRAW:
            if has_play:
                return err("a player who can play must play", "R4.3")
            if self.constants.DRAW is DrawRule.NONE:
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



def is_own(rules: Rules) -> bool:
    """``rules`` is a rule book of the rules themselves -- the specification's or the
    engine's -- not a deliberately broken one (a fault's mutant)."""
    return type(rules) is Rules or type(rules) is type(engine_for(rules.variant))


@cache
def engine_for(variant: Variant) -> Rules:
    """The (cached) engine rule book of ``variant``
    (:class:`~dominoproof.model.fast.FastRules`)."""
    from .fast import FastRules

    return FastRules(variant)


def system_under_test(variant: Variant, engine: type[Rules] | None = None) -> Rules:
    """The rule book of ``engine`` (a rule book class, e.g. a fault's mutant) for
    ``variant``; without one, the variant's own (:func:`engine_for`)."""
    return engine(variant) if engine is not None else engine_for(variant)


@cache
def spec_for(variant: Variant) -> Rules:
    """The (cached) specification rule book of ``variant``: the named actions, no fast path."""
    return Rules(variant)


def legal_moves(variant: Variant, state: State) -> tuple[Move, ...]:
    """Every legal move in ``state``, in a fixed order (``()`` when the round is over)."""
    return engine_for(variant).legal_moves(state)


def apply(variant: Variant, state: State, move: Move) -> State:
    """The state after ``move``. An illegal move raises :class:`IllegalMoveError`."""
    return engine_for(variant).apply(state, move)


def successors(variant: Variant, state: State) -> list[tuple[Move, State]]:
    return engine_for(variant).successors(state)


def ends_unplayable(variant: Variant, state: State,
                    reading: ExtendReading | None = None) -> bool:
    """R2: no open end can be extended (per the R2.3 reading)."""
    return engine_for(variant).ends_unplayable(state, reading)


def boneyard_supplies_nothing(variant: Variant, state: State) -> bool:
    """R3: the boneyard can supply no tile."""
    return engine_for(variant).boneyard_supplies_nothing(state)


def is_blocked(variant: Variant, state: State, reading: ExtendReading | None = None) -> bool:
    """R1.1: the round is blocked (R2 and R3 at once)."""
    return engine_for(variant).is_blocked(state, reading)
