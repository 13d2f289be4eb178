"""R2.1, what fits an end: the one statement of matching that the specification, the
fast engine and the variant's constants read (the kernel, the Z3 relation and the tests'
reference state it again, each on its own terms).

Equal matching (``total`` 0): a tile carrying the end's number, and the end then shows the
tile's other half. Matador (``total`` = N+1, 7 on double-6): a tile with a half summing
with the end's number to N+1, the end then showing its other half; the matadors -- 0-0 and
the tiles whose halves sum to N+1 -- fit any end, so an end showing 0 takes only a
matador, and are turned either way round: a matador with two different halves, laid on
any end, leaves either half showing, the player's choice, so such a play is two moves
(:func:`turns`), each naming the number it leaves showing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .tiles import TileSet

__all__ = ["ONE_WAY", "fits", "fits_masks", "is_matador", "shown_after", "turns"]

#: a play's ``leaves`` where the rules lay its tile one way only: nothing to choose
ONE_WAY = -1


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


def turns(a: int, b: int, total: int) -> tuple[int, ...]:
    """R2.1 (Matador): the numbers a play of ``a-b`` (``a <= b``) may leave its end
    showing, the player's choice, low first: both halves of a matador whose halves differ
    ("Matadors are wild tiles in the sense that they can be played on any open end of the
    layout in either orientation", pagat) -- on any end, also where one half makes N+1
    with it; ``()`` where the tile goes on one way only (any other tile, 0-0, equal
    matching), its play naming no number (:data:`ONE_WAY`)."""
    return (a, b) if total and a != b and is_matador(a, b, total) else ()


def shown_after(a: int, b: int, x: int, total: int, leaves: int = ONE_WAY) -> int:
    """R2.1: the number an end showing ``x`` shows once ``a-b`` (``a <= b``) is laid on
    it: the half not touching. Equal matching: the half other than ``x``. Matador: a
    matador turned as the player chose shows the half its play ``leaves`` (one of
    :func:`turns`); any other tile the half other than the one summing with ``x`` to
    ``total`` (0-0 shows 0)."""
    if leaves != ONE_WAY:
        return leaves
    if not total:
        return b if x == a else a
    return b if a + x == total else a


def fits_masks(tiles: TileSet, total: int) -> tuple[int, ...]:
    """``fits[x]``: the mask of the tiles that may be laid on an end showing ``x`` (R2.1;
    ``total`` 0: the tiles carrying ``x``, ``tiles.suit[x]``)."""
    if not total:
        return tiles.suit
    return tuple(sum(1 << t for t, (a, b) in enumerate(tiles.halves) if fits(a, b, x, total))
                 for x in range(tiles.n + 1))
