"""A round played move by move: the game interface of :mod:`dominoproof.api`.

What a game library offers and its users expect (OpenSpiel's ``pyspiel.State``,
python-chess's ``Board``): a new round from a variant and a seed or a given deal, then
its legal moves, a move applied, whose turn it is, whether it is over, how it ended, the
returns and the round as a :class:`~dominoproof.model.engine.Trace`.

:class:`Round` holds no rule of its own: every answer is the engine's
(:func:`~dominoproof.model.fast.engine_for`, which plays the specification's named
actions and gives the same moves, in the same order, as :mod:`dominoproof.model.spec`),
the deal is :func:`~dominoproof.model.engine.seeded_deal`'s or one checked by
:func:`~dominoproof.model.engine.checked_deal`, the end is R5's
:func:`~dominoproof.model.outcome.outcome`, and a move's text is
:func:`~dominoproof.model.moves.said`.

**Why a mutable round with undo.** The specification's states are already immutable
values (:class:`~dominoproof.model.state.State`, a ``NamedTuple``) and its ``apply`` is
a pure function: whoever wants the immutable style has it in ``round.state`` and
:func:`dominoproof.model.spec.apply`. What a state does not hold is the round around it:
the variant, the deal, the moves made so far (the trace) and the way back. So
:class:`Round` is what python-chess's ``Board`` is: a mutable object with a move stack,
:meth:`Round.push` and :meth:`Round.pop`. Because each state is an immutable value, the
stack keeps every state reached, a push appends one and a pop drops one (no state is
recomputed or copied); :meth:`Round.copy` shares them.

Example::

    >>> from dominoproof import api
    >>> r = api.new_round("tiny-2p-d3", seed=41)
    >>> r.turn, r.is_over()
    (1, False)
    >>> while not r.is_over():
    ...     _ = r.push(r.legal_moves()[0])
    >>> r.ending, r.returns()
    (<Ending.DOMINO: 'domino'>, (0, 7))
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dominoproof.model.engine import Trace, initial_state, seeded_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for
from dominoproof.model.layout import Layout, layout_of
from dominoproof.model.moves import Move, MoveKind, said
from dominoproof.model.outcome import Outcome, outcome, side_of
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.state import Deal, Ending, State
from dominoproof.model.variant import Variant
from dominoproof.rounds import given_deal, variant

__all__ = ["Round", "new_round"]


class Round:
    """One round of a variant, played move by move (see the module's docstring).

    Build one with :func:`new_round` (or :meth:`Round.__init__` with a variant and a
    deal already checked). The engine's rule book answers every question; an illegal
    move raises the :class:`~dominoproof.model.errors.IllegalMoveError` that names the
    rule it breaks, as :func:`dominoproof.model.spec.apply` does, and leaves the round
    as it was."""

    def __init__(self, variant: Variant, deal: Deal, *, seed: int | None = None,
                 free_draw: bool = False) -> None:
        """The round of ``variant`` right after ``deal`` (a deal of that variant, as
        :func:`~dominoproof.model.engine.checked_deal` returns; ``seed``: the seed that
        dealt it, kept in the trace; ``free_draw``: a draw may take any boneyard tile)."""
        self.variant = variant
        self.deal = deal
        self.seed = seed
        self.free_draw = free_draw
        self.rules: RuleBook = engine_for(variant)
        self.layout: Layout = layout_of(variant)
        self._states: list[State] = [initial_state(variant, deal, free_draw=free_draw,
                                                   rules=self.rules)]
        self._moves: list[Move] = []

    # -- the state ----------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current state (an immutable value)."""
        return self._states[-1]

    @property
    def states(self) -> tuple[State, ...]:
        """Every state of the round so far, the dealt one first."""
        return tuple(self._states)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves made so far, in order (python-chess's ``move_stack``)."""
        return tuple(self._moves)

    @property
    def turn(self) -> int | None:
        """The seat to move, or ``None`` once the round is over (OpenSpiel's
        ``current_player``)."""
        s = self.state
        return None if s.is_terminal else s.turn

    def is_over(self) -> bool:
        """Whether the round has ended: blocked (R4.4, R5.1) or a domino (Terms)."""
        return self.state.is_terminal

    @property
    def ending(self) -> Ending | None:
        """How the round ended (:class:`~dominoproof.model.state.Ending`), ``None``
        while it is played."""
        return self.state.status.ending

    @property
    def outcome(self) -> Outcome | None:
        """R5's :class:`~dominoproof.model.outcome.Outcome` of the ended round (who won,
        each side's total, award and score, the explanation); ``None`` while played."""
        return outcome(self.variant, self.state)

    def returns(self) -> tuple[int, ...]:
        """Each player's final result under R5, seat by seat: the score of the player's
        side (its award minus its players' foul penalties, R4.5/R5.4/R5.5), so partners
        get the same return. Zeros while the round is played, as OpenSpiel's
        ``returns()`` gives before the end. The pips left in each hand (R5.3, what
        Mexican Train players count) are ``outcome.residuals``."""
        res = self.outcome
        if res is None:
            return (0,) * self.variant.players
        return tuple(res.scores[side_of(res.sides, p)] for p in range(self.variant.players))

    # -- moves --------------------------------------------------------------------------
    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move of the current state, in the engine's fixed order; ``()``
        once the round is over."""
        return self.rules.legal_moves(self.state)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is one of :meth:`legal_moves`."""
        return (type(move) is Move and type(move.kind) is MoveKind
                and move in self.legal_moves())

    def push(self, move: Move) -> State:
        """Make ``move``; returns the state it reaches. An illegal move raises the
        :class:`~dominoproof.model.errors.IllegalMoveError` naming the rule it breaks
        (its ``rule``), and the round is unchanged."""
        after = self.rules.apply(self.state, move)
        self._states.append(after)
        self._moves.append(move)
        return after

    def pop(self) -> Move:
        """Take back the last move and return it (python-chess's ``Board.pop``); a
        :class:`~dominoproof.model.errors.DominoproofError` if no move was made."""
        if not self._moves:
            raise DominoproofError("no move to take back: the round is as dealt")
        self._states.pop()
        return self._moves.pop()

    def copy(self) -> Round:
        """An independent round at the same point (the states, immutable, are shared)."""
        out = Round.__new__(Round)
        out.__dict__.update(self.__dict__)
        out._states = list(self._states)
        out._moves = list(self._moves)
        return out

    def move_text(self, move: Move) -> str:
        """``move`` as a person says it in the current state: a play by the name of the
        slot it goes on and the number that end shows
        (:func:`~dominoproof.model.moves.said`); an establishment the run of confirmations
        has not earned is a call at a dead end (R4.7)."""
        if move.kind is MoveKind.ESTABLISH and not self.rules.block_ready(self.state):
            return f"P{move.player} calls the block at a dead end (R4.7)"
        return said(self.layout, self.state, move)

    # -- the round as a whole -------------------------------------------------------------
    def trace(self) -> Trace:
        """The round so far as a :class:`~dominoproof.model.engine.Trace`: its JSON
        (``trace().dumps()``) is what ``dominoproof play --json`` writes and
        ``dominoproof replay`` replays."""
        return Trace(self.variant, self.deal, tuple(self._moves), self.seed, self.free_draw,
                     _states=tuple(self._states))

    def __repr__(self) -> str:
        where = (f"over: {self.ending}" if self.is_over() else f"P{self.turn} to move")
        return f"<Round of {self.variant.name}, {len(self._moves)} move(s), {where}>"

    def __str__(self) -> str:
        return self.state.describe()


def new_round(spec: Variant | str | Path, seed: int = 0, *,
              deal: Deal | Mapping[str, Any] | str | Path | None = None,
              overrides: Mapping[str, Any] | None = None, free_draw: bool = False) -> Round:
    """A new :class:`Round` of a variant (a preset name or alias, a TOML file or a
    :class:`~dominoproof.model.variant.Variant`, with ``overrides`` validated as a file
    is): dealt by ``seed`` -- the deal ``dominoproof play --seed`` and
    :func:`~dominoproof.model.engine.random_round` deal -- or from ``deal``, checked as
    :func:`dominoproof.api.deal` checks it (a Deal, its JSON, the text of ``play --deal``
    or a file; every error one located
    :class:`~dominoproof.model.errors.DominoproofError`)."""
    v = variant(spec, overrides)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DominoproofError(f"seed = {seed!r}: not a seed (allowed: a whole number)")
    d = seeded_deal(v, seed) if deal is None else given_deal(v, deal)
    return Round(v, d, seed=seed if deal is None else None, free_draw=free_draw)

