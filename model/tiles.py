"""Tiles, sets and the one tile <-> bit numbering (Terms of RULES.md).

A tile ``a-b`` (``a <= b``) has the index ``b*(b+1)//2 + a``. The numbering is
*universal*: the double-N set is exactly the indices ``0 .. T(N)-1`` with
``T(N) = (N+1)(N+2)/2``, so a tile keeps its index in every set size, and a set
of tiles is an ``int`` bitmask over that numbering (python-chess's bitboards).

The *pips* of a tile are ``a+b`` (``5-10`` counts 15, ``12-12`` counts 24);
variants may override the value of special tiles (R5.3, R5.4), see
:class:`~dominoproof.model.variant.Variant`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import NamedTuple

#: The largest set size in scope (RULES.md, Terms: double-18).
MAX_SET = 18


def tile_count(n: int) -> int:
    """Number of tiles in a double-``n`` set: ``(n+1)(n+2)/2``."""
    return (n + 1) * (n + 2) // 2


def tile_index(a: int, b: int) -> int:
    """The index of tile ``a-b`` (halves in any order)."""
    if a > b:
        a, b = b, a
    return b * (b + 1) // 2 + a


class Tile(NamedTuple):
    """A tile ``lo-hi`` with ``lo <= hi``. ``repr`` is a constructor expression."""

    lo: int
    hi: int

    @staticmethod
    def of(a: int, b: int) -> Tile:
        return Tile(min(a, b), max(a, b))

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse ``"5-10"``, ``"5|10"`` or ``"[5|10]"``; raises ``ValueError``."""
        m = _TILE_RE.fullmatch(text.strip())
        if not m:
            raise ValueError(f"not a tile: {text!r} (write it as 'a-b', for example '5-10')")
        return Tile.of(int(m.group(1)), int(m.group(2)))

    @staticmethod
    def from_index(i: int) -> Tile:
        return _TILE_BY_INDEX[i]

    @property
    def idx(self) -> int:
        """This tile's index in the universal numbering."""
        return tile_index(self.lo, self.hi)

    @property
    def bit(self) -> int:
        return 1 << self.idx

    @property
    def pips(self) -> int:
        """R5.3: the value of a tile ``a-b`` is ``a+b``."""
        return self.lo + self.hi

    @property
    def is_double(self) -> bool:
        return self.lo == self.hi

    def other(self, value: int) -> int:
        """The half that is left showing when this tile is matched on ``value``."""
        if value == self.lo:
            return self.hi
        if value == self.hi:
            return self.lo
        raise ValueError(f"{self} has no half {value}")

    def __str__(self) -> str:
        return f"{self.lo}-{self.hi}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    def show(self) -> str:
        """The printed form of a tile: ``[5|10]``."""
        return f"[{self.lo}|{self.hi}]"


_TILE_RE = re.compile(r"\[?\s*(\d{1,2})\s*[-|:,]\s*(\d{1,2})\s*\]?")
_TILE_BY_INDEX: tuple[Tile, ...] = tuple(
    Tile(a, b) for b in range(MAX_SET + 1) for a in range(b + 1)
)
_BIT: tuple[int, ...] = tuple(1 << i for i in range(len(_TILE_BY_INDEX)))


def bits(mask: int) -> Iterator[int]:
    """The tile indices in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(indices: Iterable[int]) -> int:
    """The mask of a collection of distinct tile indices."""
    return sum(map(_BIT.__getitem__, indices))


def tiles_of(mask: int) -> list[Tile]:
    """The tiles in ``mask``, in index order."""
    return [_TILE_BY_INDEX[i] for i in bits(mask)]


def show_tiles(mask: int) -> str:
    """A mask printed as ``[0|1][2|5]`` (``-`` for the empty set)."""
    return "".join(t.show() for t in tiles_of(mask)) or "-"


class TileSet:
    """The tables for one double-N set, shared by every rule that needs them.

    Attributes are plain tuples of ints, indexed by tile index or by value, so
    that the engine's hot loop is a few bit operations.
    """

    __slots__ = ("count", "full", "halves", "hi", "lo", "n", "pips", "suit", "tiles")

    def __init__(self, n: int) -> None:
        if not 0 <= n <= MAX_SET:
            raise ValueError(f"set size double-{n} is out of range 0..{MAX_SET}")
        self.n = n
        self.count = tile_count(n)
        self.full = (1 << self.count) - 1
        self.tiles: tuple[Tile, ...] = _TILE_BY_INDEX[: self.count]
        self.lo: tuple[int, ...] = tuple(t.lo for t in self.tiles)
        self.hi: tuple[int, ...] = tuple(t.hi for t in self.tiles)
        self.halves: tuple[tuple[int, int], ...] = tuple((t.lo, t.hi) for t in self.tiles)
        self.pips: tuple[int, ...] = tuple(t.pips for t in self.tiles)
        #: ``suit[v]``: the mask of tiles carrying the number ``v`` (R2.1).
        self.suit: tuple[int, ...] = tuple(
            mask_of(i for i, t in enumerate(self.tiles) if v in t) for v in range(n + 1)
        )

    def doubles(self) -> list[int]:
        """Indices of the doubles, lowest first."""
        return [tile_index(v, v) for v in range(self.n + 1)]

    def __repr__(self) -> str:
        return f"tile_set({self.n})"


@cache
def tile_set(n: int) -> TileSet:
    """The (cached) tables of the double-``n`` set."""
    return TileSet(n)
