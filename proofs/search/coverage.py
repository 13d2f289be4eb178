"""Which deals a search covered, said honestly: every deal, or a sample and how many.

A search of the state graph examines every state reachable from its initial states,
but "exhaustive" is a claim about the *variant* only when the initial states are every
deal of the configuration. When they are some deals (seeded, chosen to reach the
variant's corners, or one given deal), a HOLDS verdict says nothing of the deals left
out, so every report of such a search says "sampled" and how many deals, never
"exhaustive": the verification's table, its JSON and JUnit, and ``explore``.

:class:`Coverage` is that statement as a value: :meth:`Coverage.method` is the words a
report prints, :meth:`Coverage.to_json` the figures a pipeline reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dominoproof.model.spec import Init, count_deals
from dominoproof.model.variant import Variant

__all__ = ["METHOD", "Coverage", "deals_text", "of_init"]

#: the method of a search of every deal (one of some deals says "sampled")
METHOD = "exhaustive search"


def deals_text(n: int) -> str:
    """A count of deals for people: ``4,200``; beyond a trillion ``~1.2e+15``."""
    return f"{n:,}" if n < 10**12 else f"~{float(n):.1e}"


@dataclass(frozen=True)
class Coverage:
    """The deals a search started from, against every deal of its configuration.

    ``total`` counts deals as hands, set-aside tiles and boneyard contents (the draw
    order apart); ``every_draw_order`` is True when each searched deal was searched in
    every order the boneyard can be drawn (a free draw, or every fixed order).
    ``fixed_order`` counts deals searched again in their own fixed draw order, on top.
    """

    searched: int
    total: int
    every_draw_order: bool
    how: str  #: "every deal", or how the sample was chosen ("seeded", "given", ...)
    fixed_order: int = 0
    boneyard: bool = False  #: the configuration has a boneyard (draw orders matter)

    @property
    def sampled(self) -> bool:
        """Not every deal was searched."""
        return self.how != "every deal"

    def method(self) -> str:
        """The search as a method name for a verdict: exhaustive only over every deal."""
        orders = ", every draw order" if self.every_draw_order and self.boneyard else ""
        if not self.sampled:
            text = f"{METHOD}: every deal ({deals_text(self.total)}){orders}"
            if self.fixed_order:
                text += (f"; the fixed draw order on {self.fixed_order} sampled deal"
                         f"{'s' if self.fixed_order != 1 else ''}")
            return text
        deal = "deal" if self.searched == 1 else "deals"
        text = (f"search of sampled deals: {self.searched:,} {deal} of "
                f"{deals_text(self.total)} ({self.how}){orders}, not every deal")
        if self.fixed_order:
            text += "; the same deals again in their own draw order"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"sampled": self.sampled, "deals_searched": self.searched,
                "deals_total": self.total, "every_draw_order": self.every_draw_order,
                "how": self.how, "fixed_order_deals": self.fixed_order}


def of_init(variant: Variant, init: Init, how: str | None = None) -> Coverage:
    """The coverage of a search of ``init``: every deal, or one deal (``how`` says how
    it was chosen: "given", "the deal of seed 0", ...)."""
    total = count_deals(variant, True)
    bone = variant.boneyard_size > 0
    if init.deal is None and init.part[1] == 1:
        return Coverage(total, total, True, "every deal", boneyard=bone)
    if init.deal is None:  # one part of every deal
        return Coverage(0, total, True, f"part {init.part[0] + 1} of {init.part[1]} of "
                        "every deal", boneyard=bone)
    return Coverage(1, total, init.free_draw or not bone, how or "one deal", boneyard=bone)
