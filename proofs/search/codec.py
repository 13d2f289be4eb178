"""A state of a round as one ``int``, and back: the exhaustive search's encoding.

The search (:mod:`dominoproof.proofs.search.statespace`) keys its exact visited set by
these codes, and the partitioned search (:mod:`dominoproof.bench.partitioned`)
by the packed records whose integers they are. The layout is one field per slot of
the variant's layout (:class:`~dominoproof.model.layout.SlotLayout`) plus its
markers, so any layout the model has is encoded the same way.
"""

from __future__ import annotations

import itertools
import struct

from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import CLOSED, layout_of
from dominoproof.model.params import InPlay
from dominoproof.model.state import State, Status
from dominoproof.model.variant import Variant

__all__ = ["Codec"]


class Codec:
    """A state as one ``int``, and back (exact: ``decode(encode(s)) == s``).

    The code is the little-endian integer of a packed record: one 32-bit word per
    tile mask (the hands, seat by seat, then the boneyard, the set-aside tiles and
    the table), then status (its :class:`~dominoproof.model.state.Status` value),
    drew, turn and the R4 count (a byte each), the fouls (16 bits), one byte per
    slot of the layout (the number it shows plus one; 0 while it is closed), the
    layout's marks (markers, covered sides, pending slots: 16, 32 or 64 bits as the
    layout needs, in layouts that have any), and the draw order: a tag byte (0
    free; 2 a suffix of the search's one fixed draw order ``order``, only its length
    stored; 1 explicit) and a length byte, followed for tag 1 by one byte per tile,
    top first. Packing is done by ``struct`` (C), with its range checks: a value that
    does not fit raises ``OverflowError`` rather than colliding with another state;
    any value that fits is decoded exactly (a mask holding a tile outside the set
    too: faulty rules must not be hidden by the encoding). Sets of up to 32 tiles
    (double-6) fit; the search is for small sets. Where plays score (R5.7) the record
    ends, before the draw order's bytes, with each seat's points (16 bits) and each
    slot's weight (a byte); elsewhere it has neither.
    """

    def __init__(self, variant: Variant, order: tuple[int, ...] | None = None) -> None:
        self.t = t = variant.tiles.count
        self.p = p = variant.players
        if t > 32:
            raise DominoproofError(
                f"{variant.name}: exhaustive search encodes sets of up to 32 tiles "
                f"(double-6); double-{variant.n} has {t}")
        self.w = w = variant.slot_layout.width
        bits = layout_of(variant).fields.width
        self.markers = bits > 0
        marks = "" if not bits else "H" if bits <= 16 else "I" if bits <= 32 else "Q"
        #: R5.7: the points of each seat and the weight of each slot, where plays score
        self.fives = variant.scoring.in_play is InPlay.FIVES
        tally = "H" * p + "B" * w if self.fives else ""
        self._rec = struct.Struct("<" + "I" * (p + 3) + "BBBBH" + "B" * w + marks + tally
                                  + "BB")
        self._head = self._rec.size
        self._status = tuple(Status)
        #: the suffixes of the fixed draw order, by length (what tag 2 implies)
        self._suffix: tuple[tuple[int, ...], ...] = (
            tuple(order[len(order) - k:] for k in range(len(order) + 1)) if order else ())
        values = range(CLOSED, variant.n + 1)
        self._ends: dict[tuple[int, ...], tuple[int, ...]] = {
            e: tuple(x + 1 for x in e) for e in itertools.product(values, repeat=w)
        } if w <= 3 else {}
        self._ends_of = {code: ends for ends, code in self._ends.items()}

    def pack(self, s: State) -> bytes:
        """The packed record of ``s`` (``encode`` is its little-endian integer)."""
        (hands, bone, aside, table, ends, turn, conf, drew, fouls, status, stack, marks,
         points, weights) = s
        if len(points) + len(weights) != (self.p + self.w if self.fives else 0):
            raise OverflowError(f"points in play out of the encodable range: {s!r}")
        e = self._ends.get(ends)
        if e is None:
            if len(ends) != self.w:
                raise OverflowError(f"open ends out of the encodable range: {ends!r}")
            e = tuple(x + 1 for x in ends)
        extra = b""
        if stack is None:
            tag = k = 0
        else:
            k = len(stack)
            suffix = self._suffix
            if k < len(suffix) and stack == suffix[k]:
                tag = 2
            else:
                tag, extra = 1, bytes(stack)
        try:
            if self.markers:
                rec = self._rec.pack(*hands, bone, aside, table, status, drew, turn, conf,
                                     fouls, *e, marks, *points, *weights, tag, k)
            elif marks:
                raise ValueError("marks in a layout without marks")
            else:
                rec = self._rec.pack(*hands, bone, aside, table, status, drew, turn, conf,
                                     fouls, *e, *points, *weights, tag, k)
        except (struct.error, ValueError):
            raise OverflowError(f"state out of the encodable range: {s!r}") from None
        return rec + extra if extra else rec

    def encode(self, s: State) -> int:
        return int.from_bytes(self.pack(s), "little")

    def unpack(self, raw: bytes) -> State:
        """The state of a packed record (``pack``'s inverse)."""
        head = self._head
        fields = self._rec.unpack_from(raw)
        p, w = self.p, self.w
        status, drew, turn, conf, fouls = fields[p + 3:p + 8]
        code = fields[p + 8:p + 8 + w]
        *marked, tag, k = fields[p + 8 + w:]
        points: tuple[int, ...] = ()
        weights: tuple[int, ...] = ()
        if self.fives:  # R5.7: the seats' points and the slots' weights close the record
            weights, points = tuple(marked[-w:]), tuple(marked[-w - p:-w])
            del marked[-w - p:]
        marks = marked[0] if marked else 0
        ends = self._ends_of.get(code)
        if ends is None:
            ends = tuple(x - 1 for x in code)
        stack: tuple[int, ...] | None = None
        if tag == 1:
            stack = tuple(raw[head:head + k].ljust(k, b"\0"))
        elif tag == 2:
            stack = self._suffix[k]
        return tuple.__new__(State, (  # State._make without its checks
            fields[:p], fields[p], fields[p + 1], fields[p + 2], ends, turn, conf,
            bool(drew), fouls, self._status[status], stack, marks, points, weights))

    def decode(self, c: int) -> State:
        # trailing zero bytes (a last stack tile 0) are gone from the integer: unpack pads
        return self.unpack(c.to_bytes(max(self._head, (c.bit_length() + 7) // 8), "little"))

    def width(self, longest_stack: int) -> int:
        """Bytes that hold any code of this variant with a draw order of that length."""
        return self._head + longest_stack
