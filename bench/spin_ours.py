"""``dominoproof bench spin``, our side: the search of the deal and its verdict, in a child
process of its own (:func:`run_ours` runs this module), so that its wall time and peak
memory are the search's, measured as pan's are (:mod:`dominoproof.bench.spin` has the
whole story and the side by side)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dominoproof.bench import Step, measured
from dominoproof.bench.promela import PromelaDeal, deal_for, variant_for
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for
from dominoproof.model.spec import Init
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import Variant
from dominoproof.proofs.kernel import status as kernel_status
from dominoproof.proofs.search.check import check_properties
from dominoproof.proofs.search.result import peak_rss_mb
from dominoproof.proofs.search.statespace import explore, kernel_reason

#: A play position as Spin's variables hold it: hands (masks), tiles drawn so far
#: (``top``), the open ends, the seat to move, the passes in a row, the status.
Position = tuple[tuple[int, ...], int, tuple[int, ...], int, int, str]


def spin_positions(variant: Variant, states: Iterable[State], stack: int) -> set[Position]:
    """Our states read as Spin's play positions (``stack``: the boneyard's size at the deal).

    The deal before the lead has none (Spin lays the opening in its init). A state
    where the mover's hand is empty (a Domino move is due) is Spin's DOMINO position,
    and the DOMINO state after it is the same position; a state where the block is
    ready (every player confirmed, R4.4) is Spin's BLOCKED position (two passes), and
    the BLOCKED state after the establishment is the same position. The other states
    are playing positions, our R4 count being Spin's ``passes``."""
    out: set[Position] = set()
    block_ready = engine_for(variant).block_ready
    for s in states:
        if not s.led or s.status is not Status.PLAYING:
            continue
        drawn = stack - len(s.stack or ())
        if not s.hands[s.turn]:
            out.add((s.hands, drawn, s.ends, s.turn, 0, "domino"))
        elif block_ready(s):
            out.add((s.hands, drawn, s.ends, s.turn, s.confirmed, "blocked"))
        else:
            out.add((s.hands, drawn, s.ends, s.turn, s.confirmed, "playing"))
    return out


def check_ours(deal: PromelaDeal, overrides: dict[str, Any] | None = None,
               launched: float | None = None, workers: int = 1) -> dict[str, Any]:
    """Explore the deal and check ``blocked-sound``; then (untimed) count the play
    positions P, terminal positions T and transitions E of the Spin mapping.

    ``launched`` (``time.time()`` when the parent started this process) gives
    ``verdict_wall``: from the launch to the verdict, start-up and imports included,
    the counting after it excluded; ``verdict_rss_mb`` is the peak memory up to then."""
    v = variant_for(deal, overrides)
    init = Init.one(deal_for(deal))
    start = begin = time.perf_counter()
    blocks = None
    loaded = 0.0
    on_kernel = workers == 1 and not kernel_reason(v)
    if on_kernel:
        # the compiled kernel's check of every established block: the sweep, two levels
        # at a time, judging blocked-sound as it goes, and where it fails the breadth-first
        # search for the shortest trace (the verdict, timed); the graph for the same-game
        # counts and the catalogue's own verdict afterwards, untimed
        from dominoproof.bench.lean import check_blocks  # numba: loaded only here

        # the machine code loaded from numba's cache (or compiled) by a sweep of the
        # first level, timed apart: pan's states/s leaves gcc out, ours leaves this out;
        # the wall time from the launch counts both
        check_blocks(v, init, max_held=1)
        start = time.perf_counter()
        loaded = start - begin
        blocks = check_blocks(v, init)
        searched = checked = time.perf_counter()
        verdict_wall = time.time() - launched if launched is not None else None
        verdict_rss_mb = peak_rss_mb()
        result = explore(v, init)
        (verdict,) = check_properties(result, ["blocked-sound"])
        if blocks.verdict != verdict.verdict.value:  # pragma: no cover - a kernel bug
            raise DominoproofError(f"the kernel's sweep says {blocks.verdict}, the "
                                   f"catalogue's blocked-sound {verdict.verdict.value}")
        if blocks.sweep.complete and blocks.sweep.states != result.size:  # pragma: no cover
            raise DominoproofError(f"the kernel's sweep counted {blocks.sweep.states:,} "
                                   f"states, the graph search {result.size:,}")
    elif workers > 1:
        # the partitioned search (every core; no graph): the verdict, timed; the graph
        # for the same-game counts is built afterwards, untimed
        # loaded only here: it brings Z3 (R5's reader, for the scoring properties), which
        # blocked-sound never reads, and the one-process run's memory is compared with pan's
        from dominoproof.bench.partitioned import verify_partitioned

        part, (verdict,) = verify_partitioned(v, init, ["blocked-sound"], workers=workers)
        searched = checked = time.perf_counter()
        verdict_wall = time.time() - launched if launched is not None else None
        verdict_rss_mb = peak_rss_mb() + part.total_rss_mb
        result = explore(v, init)
    else:
        result = explore(v, init, kernel=False)
        searched = time.perf_counter()
        (verdict,) = check_properties(result, ["blocked-sound"])
        checked = time.perf_counter()
        verdict_wall = time.time() - launched if launched is not None else None
        verdict_rss_mb = peak_rss_mb()

    positions = spin_positions(v, result.states(), len(deal.boneyard))
    terminal = sum(1 for key in positions if key[-1] != "playing")
    figures = result.figures
    return {
        "variant": v.to_dict(),
        "states": result.size,
        "transitions": len(result.edge_to),
        "complete": result.complete,
        "verdict": verdict.verdict.value,
        "detail": verdict.detail,
        "workers": workers,
        "search_seconds": searched - start,
        "check_seconds": checked - searched,
        "verdict_wall": verdict_wall,
        "verdict_rss_mb": verdict_rss_mb,
        "positions": len(positions),
        "terminal_positions": terminal,
        "terminals": figures.terminals,
        "depth": figures.depth,
        "visited_mb": figures.visited_mb,
        "search": "kernel" if on_kernel else "python",
        "kernel_load_seconds": loaded,  # machine code loaded (or compiled), before the search
        "kernel": kernel_status(),  # which path ran, or why not the kernel
        # the sweep's visited sets at their largest: two levels' keys and hash tables,
        # and the states they held then
        "stored_bytes": blocks.sweep.peak_bytes if blocks is not None else None,
        "stored_states": blocks.sweep.peak_states if blocks is not None else None,
        "key_bytes": 8 * blocks.sweep.key_words if blocks is not None else None,
    }



def run_ours(deal: PromelaDeal, overrides: dict[str, Any] | None = None,
             cwd: str | Path = ".", workers: int = 1,
             numba_cache: str | Path | None = None) -> tuple[Step, dict[str, Any]]:
    """:func:`check_ours` in a fresh Python process, measured like pan. ``numba_cache``:
    the compiled kernel's cache folder for that process (an empty one: the kernel is
    compiled from scratch in the timed run, as Spin's gcc compiles pan.c)."""
    request = json.dumps({"deal": deal_json(deal), "overrides": overrides or {},
                          "launched": time.time(), "workers": workers})
    # Python as installed: its compiled bytecode cached, as pip installs it (some
    # sandboxes set PYTHONDONTWRITEBYTECODE, which would time Python's compiler instead)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if numba_cache is not None:
        env["NUMBA_CACHE_DIR"] = str(numba_cache)
    st = measured("dominoproof", [sys.executable, "-m", "dominoproof.bench.spin_ours"],
                   cwd, request, env)
    if st.returncode != 0:
        raise DominoproofError(f"dominoproof's search failed (exit {st.returncode}):\n"
                               + st.output[-2000:])
    return st, json.loads(st.output.strip().splitlines()[-1])


def deal_json(deal: PromelaDeal) -> dict[str, Any]:
    return {"n": deal.n, "hands": [[str(t) for t in h] for h in deal.hands],
            "boneyard": [str(t) for t in deal.boneyard], "source": deal.source}


def deal_from_json(data: dict[str, Any]) -> PromelaDeal:
    return PromelaDeal(int(data["n"]),
                       tuple(tuple(Tile.parse(t) for t in h) for h in data["hands"]),
                       tuple(Tile.parse(t) for t in data["boneyard"]), data.get("source", ""))


def _child() -> None:  # pragma: no cover - runs in the child process of run_ours
    request = json.loads(sys.stdin.read())
    out = check_ours(deal_from_json(request["deal"]), request.get("overrides") or None,
                     request.get("launched"), int(request.get("workers", 1)))
    print(json.dumps(out))


if __name__ == "__main__":  # pragma: no cover - the child process of run_ours
    _child()
