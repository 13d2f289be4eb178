"""The kernel as a rule book of one state at a time: what the conformance suite compares.

:class:`KernelBook` answers for a :class:`~dominoproof.model.state.State` what
:class:`~dominoproof.model.spec.Rules` answers -- the moves, the successors, the
predicates of R1.1, R2 (both readings of R2.3) and R3, the lead -- by converting the
state to a frame and calling the compiled functions of :mod:`.rules`. It is slow per
call (each crosses into compiled code); the searches and play-outs stay inside it.
"""

from __future__ import annotations

import numpy as np

from dominoproof.model.moves import Move, MoveKind
from dominoproof.model.state import State, Status
from dominoproof.model.variant import ExtendReading, Variant

from . import rules as kr
from .tables import Array, Tables, frame_of, state_of, tables_for

_KINDS = tuple(MoveKind)


def decode_move(m: int) -> Move:
    """The :class:`Move` of a kernel move code."""
    return Move(_KINDS[m & 7], (m >> 3) & 31, ((m >> 8) & 255) - 1, ((m >> 16) & 255) - 1,
                kr.leaves_of(m))


def encode_move(m: Move) -> int:
    """The kernel move code of a :class:`Move` (:func:`decode_move`'s inverse)."""
    return kr.move_code(int(m.kind), m.player, m.tile, m.end) | (m.leaves + 1) << 24


class KernelBook:
    """The compiled rules of ``variant``, one state at a time."""

    def __init__(self, variant: Variant, tables: Tables | None = None) -> None:
        """``tables``: the table to read (default: the variant's own; the tests pass a
        deliberately broken one to show the conformance check fails on it)."""
        self.variant = variant
        self.tb: Tables = tables if tables is not None else tables_for(variant)
        self._moves = np.zeros(self.tb.max_moves, dtype=np.int64)
        self._scr = self.tb.scratch()
        self._last: tuple[State | None, Array] = (None, np.zeros(0, dtype=np.int64))

    def frame(self, s: State) -> Array:
        """The frame of ``s``; the last one is kept, since the suite asks several
        questions of each state in turn (read only: the compiled functions write to
        other arrays)."""
        last, f = self._last
        if s is not last:
            f = frame_of(self.tb, s)
            self._last = (s, f)
        return f

    def count_moves(self, s: State) -> int:
        return int(kr.gen_moves(self.tb.k, self.frame(s), self._moves))

    def moves(self, s: State) -> tuple[Move, ...]:
        n = kr.gen_moves(self.tb.k, self.frame(s), self._moves)
        return tuple(decode_move(int(m)) for m in self._moves[:n])

    def successors(self, s: State) -> list[tuple[Move, State]]:
        k, f = self.tb.k, self.frame(s)
        n = kr.gen_moves(k, f, self._moves)
        g = np.zeros_like(f)
        out = []
        for m in self._moves[:n].tolist():
            kr.step(k, f, m, g, self._scr)
            out.append((decode_move(m), state_of(self.tb, g)))
        return out

    def ends_unplayable(self, s: State, reading: ExtendReading | None = None) -> bool:
        reading = reading or self.variant.layout.extend
        code = 1 if reading is ExtendReading.HAS_LEGAL_MOVE else 0
        return bool(kr.ends_unplayable(self.tb.k, self.frame(s), code))

    def is_blocked(self, s: State) -> bool:
        return bool(kr.is_blocked(self.tb.k, self.frame(s)))

    def boneyard_supplies_nothing(self, s: State) -> bool:
        return bool(kr.boneyard_supplies_nothing(self.tb.k, self.frame(s)))

    def has_play(self, s: State, player: int) -> bool:
        return bool(kr.playable_any(self.tb.k, self.frame(s), player))

    def opening(self, hands: tuple[int, ...]) -> tuple[int, int | None] | None:
        """The leader and the tile (None: any), or None when the deal is void."""
        s = State(hands, 0, 0, 0, (-1,) * self.tb.width, 0, 0, False, 0, Status.PLAYING,
                  None)
        leader, tile = kr.opening(self.tb.k, self.frame(s))
        if leader == -2:
            return None
        return int(leader), (None if tile < 0 else int(tile))
