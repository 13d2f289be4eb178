"""The judge's accelerator on a kernel search: which states the judge must read in Python.

A search on the compiled kernel holds its states as packed keys. The catalogue's judge
(:class:`~dominoproof.proofs.search.judge.Judge`) reads states as
:class:`~dominoproof.model.state.State` values, tens of microseconds each: on a search of
close to a million states, many times the search. :func:`screen_search` runs the kernel's
screen (:func:`dominoproof.proofs.kernel.screen.screen`) over the key array instead and
returns a :class:`Screen`: the ids the judge must still read -- every state where the
round is over (the terminal properties and blocked-sound, with the declarative scoring),
and for each local property the first state the screen finds failing it -- and, for the
states still being played, blocked-complete's premise and the census of R2.3's readings.

The judge words every failure itself, from its own reading of the state the screen
names; where it finds nothing there, the two readings disagree and the run stops
(:class:`ScreenDisagrees`), never a verdict. The screen runs only where it can read
everything the judge would (a kernel search with its graph, no layout property wanted);
else :func:`screen_search` returns ``None`` and the judge reads every state
(:func:`dominoproof.proofs.search.check.screen_search`, which imports this module, and
numba with it, only for a kernel search).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from dominoproof.model.layout import layout_of
from dominoproof.model.variant import Variant
from dominoproof.proofs.kernel import screen as kj
from dominoproof.proofs.kernel.codec import KeySpec
from dominoproof.proofs.kernel.tables import Array, Tables, tables_for
from dominoproof.proofs.search.compiled import KernelCodec, KernelSearchResult
from dominoproof.proofs.search.result import SearchResult

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


def screen_search(result: SearchResult, wanted: Iterable[str], readings: bool,
                  layout_wanted: bool) -> Screen | None:
    """Screen a kernel search's states still being played (see the module docstring), or
    ``None`` where the judge must read every state: not a kernel search, a layout
    property wanted, or neither a screened property nor R2.3's readings (the judge's
    ``readings``) wanted."""
    if not isinstance(result, KernelSearchResult) or layout_wanted:
        return None
    wanted = set(wanted)
    if not (readings or set(kj.IDS) & wanted):
        return None
    codec = result.codec
    assert isinstance(codec, KernelCodec)
    return screen_keys(result.variant, codec.tb, codec.spec, result.keys, result.expanded,
                       np.frombuffer(result.edge_ptr, dtype=np.int64),
                       np.frombuffer(result.edge_to, dtype=np.int32), wanted, readings)


def screen_keys(variant: Variant, tb: Tables, spec: KeySpec, keys: Array, n_exp: int,
                edge_ptr: Array, edge_to: Array, wanted: set[str], readings: bool,
                edge_move: Array | None = None) -> Screen:
    """Screen the states of a search given as the kernel's keys (``spec``: their codec,
    ``tb``: the table the search ran on) and its edges, by the rules of the variant's own
    table. ``edge_move``: each edge's move as the kernel codes it, for a search under
    another rule book (a fault's); by default the moves of ``tb``, in the search's order."""
    own = tables_for(variant)
    n = int(keys.shape[0])
    lay = layout_of(variant)
    frame = np.zeros(own.frame, dtype=np.int64)
    job = kj.ScreenJob(
        K=own.k, KS=tb.k, KC=spec.kc, codes=keys, n=n, n_exp=n_exp, edge_ptr=edge_ptr,
        edge_to=edge_to,
        edge_move=edge_move if edge_move is not None else np.zeros(0, dtype=np.int64),
        want=sum(1 << k for k, pid in enumerate(kj.IDS) if pid in wanted),
        readings=readings, mark_bits=lay.fields.width, parity=bool(lay.lines),
        f=frame, g=frame.copy(), c=frame.copy(), scr=own.scratch(),
        moves=np.zeros(own.max_moves, dtype=np.int64),
        first=np.full(len(kj.IDS), -1, dtype=np.int64),
        then=np.full(len(kj.IDS), -1, dtype=np.int64),
        premise=np.zeros(n, dtype=np.int8), counts=np.zeros(2, dtype=np.int64))
    got = kj.screen(job)
    first, then = job.first, job.then
    if got == kj.EDGES_DIFFER:
        raise ScreenDisagrees(f"the kernel's moves at state {int(first[0])} are not the "
                              "search's edges")
    out = Screen([], screened=int(got))
    out.first = {pid: (int(first[k]), int(then[k])) for k, pid in enumerate(kj.IDS)
                 if first[k] >= 0}
    out.premise = np.flatnonzero(job.premise == 1).tolist()
    census = {"R2.3 readings compared": int(job.counts[kj.COMPARED]),
              "R2.3 readings differ": int(job.counts[kj.DIFFER])}
    out.counts = {k: n for k, n in census.items() if n}  # as the judge counts: none, no key
    # the round's ends (the screen reads none), and each state it names
    rest = np.flatnonzero(job.premise == kj.OVER).tolist()
    out.ids = sorted(set(rest) | {at for at, _ in out.first.values()})
    return out
