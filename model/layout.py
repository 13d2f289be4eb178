"""Layouts: lines, their open ends, and which ends a player may play on (Terms, R2.3).

A layout is an object over the state's ``ends`` tuple (the open ends in a
canonical form) with four operations: the ends after the opening tile, the ends
a given player may play on (named as the layout names them), the number an end
shows, and the ends after a tile is laid on one of them. The rules ask the
layout and never look inside ``ends`` themselves, so spinners and trains (one
line per player plus a public one, with per-player access) fit behind the same
interface.

Only the one-line layout exists today: two open ends, both open to everyone.
"""

from __future__ import annotations

import abc

from .tiles import TileSet, bits
from .variant import LayoutKind, Variant


class Layout(abc.ABC):
    kind: LayoutKind

    @abc.abstractmethod
    def open(self, a: int, b: int) -> tuple[int, ...]:
        """The ends after the opening tile ``a-b``."""

    @abc.abstractmethod
    def targets(self, ends: tuple[int, ...], player: int) -> tuple[int, ...]:
        """The distinct ends ``player`` may play on, by name (R2.3: access rules)."""

    @abc.abstractmethod
    def shows(self, ends: tuple[int, ...], end: int) -> int:
        """The number the end named ``end`` shows."""

    @abc.abstractmethod
    def numbers(self, ends: tuple[int, ...]) -> frozenset[int]:
        """Every number showing on an open end, whoever may play there (R2.1)."""

    @abc.abstractmethod
    def extend(self, ends: tuple[int, ...], end: int, other: int) -> tuple[int, ...]:
        """The ends after a tile is matched on ``end``, leaving ``other`` showing."""

    @abc.abstractmethod
    def consistent(self, tiles: TileSet, table: int, ends: tuple[int, ...]) -> bool:
        """Whether ``ends`` can be the open ends of a layout made of ``table``."""


class LineLayout(Layout):
    """One line with two open ends, ``(lo, hi)`` sorted; an end is named by its number."""

    kind = LayoutKind.LINE

    def open(self, a: int, b: int) -> tuple[int, ...]:
        return (a, b) if a <= b else (b, a)

    def targets(self, ends: tuple[int, ...], player: int) -> tuple[int, ...]:
        return ends[:1] if ends[0] == ends[1] else ends

    def shows(self, ends: tuple[int, ...], end: int) -> int:
        return end

    def numbers(self, ends: tuple[int, ...]) -> frozenset[int]:
        return frozenset(ends)

    def extend(self, ends: tuple[int, ...], end: int, other: int) -> tuple[int, ...]:
        lo, hi = ends
        if end == lo:
            lo = other
        else:
            hi = other
        return (lo, hi) if lo <= hi else (hi, lo)

    def consistent(self, tiles: TileSet, table: int, ends: tuple[int, ...]) -> bool:
        """A line's joints pair up equal halves, so a number shows on the table an odd
        number of times exactly when it shows on an odd number of the two ends."""
        if table == 0:
            return ends == ()
        if len(ends) != 2 or ends[0] > ends[1] or not 0 <= ends[0] <= ends[1] <= tiles.n:
            return False
        odd = 0
        for t in bits(table):
            a, b = tiles.halves[t]
            odd ^= (1 << a) ^ (1 << b)
        odd ^= (1 << ends[0]) ^ (1 << ends[1])
        return odd == 0


_LAYOUTS: dict[LayoutKind, Layout] = {LayoutKind.LINE: LineLayout()}


def layout_of(variant: Variant) -> Layout:
    return _LAYOUTS[variant.layout.kind]
