"""R2.1, what fits an end: the one statement of matching that the specification, the
fast engine and the variant's constants read (the kernel, the Z3 relation and the tests'
reference state it again, each on its own terms).

Equal matching (``total`` 0): a tile carrying the end's number, and the end then shows the
tile's other half. Matador (``total`` = N+1, 7 on double-6): a tile with a half summing
with the end's number to N+1, the end then showing its other half; the matadors -- 0-0 and
the tiles whose halves sum to N+1 -- fit any end, so an end showing 0 takes only a
matador.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .tiles import TileSet

__all__ = ["fits", "fits_masks", "is_matador", "shown_after"]


def is_matador(a: int, b: int, total: int) -> bool:
    """R2.1 (Matador, ``total`` = N+1): ``a-b`` is a matador, wild on any end: its halves
    sum to ``total``, or it is 0-0."""
    return a + b == total or a == b == 0


def fits(a: int, b: int, x: int, total: int) -> bool:
    """R2.1: ``a-b`` may be laid on an end showing ``x``: it carries ``x`` (``total`` 0),
    or, under Matador, a half of it sums with ``x`` to ``total``, or it is a matador (so
    an end showing 0, which no half sums with to N+1, takes only a matador)."""
    if not total:
        return x in (a, b)
    return a + x == total or b + x == total or is_matador(a, b, total)


def shown_after(a: int, b: int, x: int, total: int) -> int:
    """R2.1: the number an end showing ``x`` shows once ``a-b`` (``a <= b``) is laid on
    it: the half not touching. Equal matching: the half other than ``x``. Matador: the
    half other than the one summing with ``x`` to ``total``; a matador laid where neither
    half does so goes on with its low half touching and shows its high half (0-0 shows 0)
    -- the rule books let the player turn it either way, and a move here names a tile and
    an end, not a way round (RULES.md, R2.1)."""
    if not total:
        return b if x == a else a
    return b if a + x == total else a if b + x == total else b


def fits_masks(tiles: TileSet, total: int) -> tuple[int, ...]:
    """``fits[x]``: the mask of the tiles that may be laid on an end showing ``x`` (R2.1;
    ``total`` 0: the tiles carrying ``x``, ``tiles.suit[x]``)."""
    if not total:
        return tiles.suit
    return tuple(sum(1 << t for t, (a, b) in enumerate(tiles.halves) if fits(a, b, x, total))
                 for x in range(tiles.n + 1))
