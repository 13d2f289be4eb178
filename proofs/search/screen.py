"""Screening a kernel search for the judge: which states it must read in Python.

A search on the compiled kernel holds its states as packed keys. The catalogue's judge
(:class:`~dominoproof.proofs.search.judge.Judge`) reads states as
:class:`~dominoproof.model.state.State` values, some 30 microseconds each; on a search of
close to a million states that is half a minute, thirty times the search.
:func:`screen_search` runs :func:`dominoproof.proofs.kernel.judge.screen` over the key
array instead, and returns a :class:`Screen`: the ids the judge must still read -- every
state where the round is over (the terminal properties and blocked-sound, with the
declarative scoring), and for each local property the first state the screen finds
failing it -- and, for the states still being played, blocked-complete's premise and the
census of R2.3's readings.

The judge words every failure itself, from its own reading of the state the screen
names; where it finds nothing there, the two readings disagree and the run stops
(:class:`ScreenDisagrees`), never a verdict. The screen runs only where it can read
everything the judge would (a kernel search with its graph, the variant's own rules, no
layout property wanted); else :func:`screen_search` returns ``None`` and the judge reads
every state, as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from dominoproof.model.layout import layout_of
from dominoproof.model.variant import Variant
from dominoproof.proofs.search.statespace import SearchResult

if TYPE_CHECKING:
    from dominoproof.proofs.kernel.codec import KeySpec
    from dominoproof.proofs.kernel.tables import Array, Tables

__all__ = ["Screen", "ScreenDisagrees", "screen_keys", "screen_search"]


class ScreenDisagrees(AssertionError):
    """The kernel's screen names a state failing a property where the judge finds it
    holding (or a state whose moves are not its edges): a bug in one of the readings,
    never bad input, so it is not a :class:`DominoproofError` (those are the user's)."""


@dataclass
class Screen:
    """What the screen found: the ids the judge reads, the first failure it found of each
    screened property (id, and the successor of a failing move or -1), the premise states
    of blocked-complete, and the readings' census."""

    ids: list[int]
    first: dict[str, tuple[int, int]] = field(default_factory=dict)
    premise: list[int] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    screened: int = 0  #: states read by the screen (those still being played)

    def check(self, found: dict[str, int]) -> None:
        """Raise :class:`ScreenDisagrees` unless the judge failed each property the screen
        named, at that state or an earlier one (``found``: property -> the judge's
        first failing id)."""
        for pid, (at, _then) in self.first.items():
            if found.get(pid, at + 1) > at:
                raise ScreenDisagrees(
                    f"the kernel's screen finds {pid} failing at state {at}, the judge "
                    "does not: the two readings of the rules disagree")


def screenable(result: SearchResult, wanted: Iterable[str], readings: bool,
               layout_wanted: bool) -> bool:
    """The screen can stand in for the judge on ``result``'s states still being played: a
    kernel search (its keys), some screened property wanted or R2.3's readings (the
    judge's ``readings``), and none of the layout's."""
    if getattr(result, "keys", None) is None or layout_wanted:
        return False  # (numba, which the screen imports, is loaded only for a kernel search)
    from dominoproof.proofs.kernel import judge as kj

    return readings or bool(set(kj.IDS) & set(wanted))


def screen_search(result: SearchResult, wanted: set[str], readings: bool,
                  layout_wanted: bool) -> Screen | None:
    """Screen a kernel search's states still being played (see the module docstring), or
    ``None`` where the judge must read every state."""
    if not screenable(result, wanted, readings, layout_wanted):
        return None
    codec = result.codec
    return screen_keys(result.variant, codec.tb, codec.spec,  # type: ignore[attr-defined]
                       result.keys, result.expanded,  # type: ignore[attr-defined]
                       np.frombuffer(result.edge_ptr, dtype=np.int64),
                       np.frombuffer(result.edge_to, dtype=np.int32),
                       wanted, readings)


def screen_keys(variant: Variant, tb: Tables, spec: KeySpec, keys: Array, n_exp: int,
                edge_ptr: Array, edge_to: Array, wanted: set[str], readings: bool,
                edge_move: Array | None = None) -> Screen:
    """Screen the states of a search given as the kernel's keys (``spec``: their codec,
    ``tb``: the table the search ran on) and its edges, by the rules of the variant's own
    table. ``edge_move``: each edge's move as the kernel codes it, for a search under
    another rule book (a fault's); by default the moves of ``tb``, in the search's order."""
    from dominoproof.proofs.kernel import judge as kj
    from dominoproof.proofs.kernel.tables import tables_for

    own = tables_for(variant)
    n = int(keys.shape[0])
    lay = layout_of(variant)
    want = sum(1 << k for k, pid in enumerate(kj.IDS) if pid in wanted)
    frame = np.zeros(own.frame, dtype=np.int64)
    first = np.full(len(kj.IDS), -1, dtype=np.int64)
    then = np.full(len(kj.IDS), -1, dtype=np.int64)
    premise = np.zeros(n, dtype=np.int8)
    counts = np.zeros(2, dtype=np.int64)
    moves = edge_move if edge_move is not None else np.zeros(0, dtype=np.int64)
    got = kj.screen(own.k, tb.k, spec.kc, keys, n, n_exp, edge_ptr, edge_to, moves, want,
                    readings, lay.fields.width, int(lay.lines), frame, frame.copy(), frame.copy(),
                    own.scratch(),
                    np.zeros(own.max_moves, dtype=np.int64), first, then, premise, counts)
    if got == kj.EDGES_DIFFER:
        raise ScreenDisagrees(f"the kernel's moves at state {int(first[0])} are not the "
                              "search's edges")
    out = Screen([], screened=int(got))
    out.first = {pid: (int(first[k]), int(then[k])) for k, pid in enumerate(kj.IDS)
                 if first[k] >= 0}
    out.premise = np.flatnonzero(premise == 1).tolist()
    census = {"R2.3 readings compared": int(counts[kj.COMPARED]),
              "R2.3 readings differ": int(counts[kj.DIFFER])}
    out.counts = {k: n for k, n in census.items() if n}  # as the judge counts: none, no key
    # the round's ends (the screen reads none), and each state it names
    rest = np.flatnonzero(premise == kj.OVER).tolist()
    out.ids = sorted(set(rest) | {at for at, _ in out.first.values()})
    return out
