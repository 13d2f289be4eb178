"""Deals as text, the way people write them and Spin models print them.

``P0: 6-6 0-3; P1: 0-2 1-3; stack: 3-6 3-3; aside: 0-0``: :func:`format_deal` writes
a deal so, and :func:`parse_deal` reads it back (or a JSON deal, or a trace's deal),
checked against the variant like every deal read from a file.
"""

from __future__ import annotations

import re
from pathlib import Path

from .engine import checked_deal, deal_error
from .errors import DominoproofError
from .reading import read_json
from .state import Deal
from .tiles import Tile, bits, mask_of
from .variant import Variant

__all__ = ["format_deal", "parse_deal"]


_TILE = re.compile(r"\[?\s*(\d{1,2})\s*[-|:]\s*(\d{1,2})\s*\]?")
_LABELS = {"stack": "stack", "boneyard": "stack", "draw": "stack", "draw order": "stack",
           "aside": "aside", "set aside": "aside", "set-aside": "aside", "set_aside": "aside"}


def format_deal(deal: Deal) -> str:
    """A deal in the text form :func:`parse_deal` reads:
    ``P0: 6-6 0-3; P1: 0-2 1-3; stack: 3-6 3-3; aside: 0-0``."""
    parts = [f"P{p}: " + " ".join(str(Tile.from_index(t)) for t in bits(h))
             for p, h in enumerate(deal.hands)]
    if deal.stack:
        parts.append("stack: " + " ".join(str(Tile.from_index(t)) for t in deal.stack))
    if deal.set_aside:
        parts.append("aside: " + " ".join(str(Tile.from_index(t)) for t in bits(deal.set_aside)))
    return "; ".join(parts)


def parse_deal(variant: Variant, text: str, *, free_draw: bool = False) -> Deal:
    """A deal of ``variant`` from text, a JSON file or a text file.

    The text is a list of ``LABEL: tiles`` separated by ``;`` or new lines:
    ``P0``, ``P1``, ... (each hand), ``stack`` (or ``boneyard``: the boneyard in
    draw order, top first) and ``aside`` (the tiles set aside). Tiles are written
    ``a-b``, ``a|b`` or ``[a|b]``. A parenthesis after a label and C comment marks
    are ignored, so the header of a Spin model (``P0: [6|6] [0|3] ...``,
    ``boneyard (draw order): ...``) can be pasted as it is.

    The stack may be left out when the boneyard is empty or the draw order is free
    (the boneyard is then every tile not placed elsewhere); the set-aside tiles may
    be left out when the stack is given.

    ``text`` naming an existing file: a ``.json`` file holds ``{"hands": [[...]],
    "stack": [...], "set_aside": [...]}`` (or a trace, whose ``deal`` is read); any
    other file holds the text form. Every tile of the set is dealt exactly once, in
    hands of the variant's size, or a :class:`DominoproofError` says what is wrong.
    """
    where = "--deal"
    path = Path(text)
    if len(text) < 4096 and "\n" not in text and path.is_file():
        where = f"--deal {text}"
        body = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            data = read_json(body, where, DominoproofError)
            if isinstance(data, dict) and "deal" in data:
                data = data["deal"]  # a trace: its deal
            return checked_deal(variant, data, where)
        text = body
    hands: dict[int, list[int]] = {}
    stack: list[int] | None = None
    aside: list[int] | None = None
    for raw in re.split(r"[;\n]", text.replace("/*", " ").replace("*/", " ")):
        item = raw.strip()
        if not item:
            continue
        label, sep, rest = item.partition(":")
        if not sep:
            raise DominoproofError(f"{where}: {item!r} has no label; write 'P0: 1-2 3-4; "
                                   "P1: ...; stack: ...' (labels P0.., stack, aside)")
        name = re.sub(r"\(.*?\)", "", label).strip().lower()
        tiles = []
        for m in _TILE.finditer(rest):
            a, b = int(m.group(1)), int(m.group(2))
            if max(a, b) > variant.n:
                raise DominoproofError(f"{where}: {label.strip()}: {m.group(0).strip()} is not "
                                       f"a tile of the double-{variant.n} set")
            tiles.append(Tile.of(a, b).idx)
        junk = _TILE.sub(" ", rest).replace(",", " ").strip()
        if junk:
            raise DominoproofError(f"{where}: {label.strip()}: {junk.split()[0]!r} is not a "
                                   "tile (write tiles as a-b, a|b or [a|b])")
        seat = re.fullmatch(r"p(?:layer)?\s*(\d+)", name)
        if seat:
            p = int(seat.group(1))
            if p >= variant.players:
                raise DominoproofError(f"{where}: {label.strip()}: no such seat (players "
                                       f"P0..P{variant.players - 1})")
            hands[p] = tiles
        elif name in _LABELS and _LABELS[name] == "stack":
            stack = tiles
        elif name in _LABELS:
            aside = tiles
        else:
            raise DominoproofError(f"{where}: unknown label {label.strip()!r} (allowed: P0.."
                                   f"P{variant.players - 1}, stack or boneyard, aside)")
    missing = [f"P{p}" for p in range(variant.players) if p not in hands]
    if missing:
        raise DominoproofError(f"{where}: no hand for {', '.join(missing)}")
    placed = {t for h in hands.values() for t in h} | set(stack or ()) | set(aside or ())
    left = [t for t in range(variant.tiles.count) if t not in placed]
    k, b = variant.deal.set_aside, variant.boneyard_size
    if stack is None and b == 0:
        stack = []
    elif stack is None:
        if not free_draw:
            raise DominoproofError(f"{where}: the boneyard's {b} tiles need their draw order "
                                   "('stack: ...', top first), or use --free-draw")
        if aside is None and k:
            raise DominoproofError(f"{where}: say which {k} tiles are set aside ('aside: ...')")
        stack, left = left, []
    if aside is None:
        aside = left
    every = [*(t for h in hands.values() for t in h), *stack, *aside]
    twice = sorted({Tile.from_index(t).show() for t in every if every.count(t) > 1})
    if twice:
        raise DominoproofError(f"{where}: each tile is dealt once; given twice: "
                               + " ".join(twice))
    deal = Deal(tuple(mask_of(hands[p]) for p in range(variant.players)), tuple(stack),
                mask_of(aside))
    wrong = deal_error(variant, deal.to_json())
    if wrong:
        raise DominoproofError(f"{where}: not a deal of {variant.name}: {wrong}")
    return deal
