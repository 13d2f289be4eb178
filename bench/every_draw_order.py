"""Every draw order of bench spin's double-6 deal: Spin and the kernel's search, one budget.

Usage: python bench/every_draw_order.py [SECONDS] [WORKDIR] [MAX_STATES | sweep]
       (run it under the shared lock; with MAX_STATES, our side alone as far as that
       many states; with ``sweep``, our side alone, two levels at a time, to its end or
       the budget, each level's count on standard error as it is done)

Spin's model is domino_N6.pml with its one draw step (the top of the fixed stack) replaced
by one step per tile (any tile still in the boneyard), compiled as bench spin compiles it
plus -DMEMLIM=16000 (16 GB), and stopped with SIGINT at the budget (pan then prints its
figures). Ours is the kernel's lean search of the same deal with a free draw order,
stopped by its own time budget. Each side's figures are printed as JSON, one line each.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

from dominoproof.bench.lean import explore_lean, explore_sweep
from dominoproof.bench.promela import deal_for, load_deal, model_path, variant_for
from dominoproof.bench.spin import parse_pan
from dominoproof.model.spec import Init
from dominoproof.model.variant import Variant
from dominoproof.proofs.search.result import peak_rss_mb

DRAW = "  :: d_step { (status==PLAYING && !CANPLAY && top < NB) -> loc[stk[top]] = turn; " \
       "cnt[turn]++; top++ }\n"


def spin_side(seconds: float, work: Path) -> dict[str, object]:
    text = model_path(6).read_text(encoding="utf-8")
    tiles = int(re.search(r"#define T (\d+)", text).group(1))  # type: ignore[union-attr]
    every = "".join(f"  :: d_step {{ (status==PLAYING && !CANPLAY && loc[{i}]==BONEYARD) -> "
                    f"loc[{i}] = turn; cnt[turn]++; top++ }}\n" for i in range(tiles))
    assert DRAW in text
    (work / "every.pml").write_text(text.replace(DRAW, every), encoding="utf-8")
    subprocess.run(["spin", "-a", "every.pml"], cwd=work, check=True, capture_output=True)
    subprocess.run(["gcc", "-O2", "-DSAFETY", "-DMEMLIM=16000", "-o", "pan", "pan.c"],
                   cwd=work, check=True, capture_output=True)
    start = time.perf_counter()
    out = subprocess.run(["timeout", "-s", "INT", str(seconds), "./pan"], cwd=work,
                         capture_output=True, text=True).stdout
    return {"side": "spin", "wall": time.perf_counter() - start, **parse_pan(out)}


def workload() -> tuple[Variant, Init]:
    """Spin's double-6 deal with the boneyard in every draw order."""
    deal = load_deal(6)
    return variant_for(deal), Init.one(deal_for(deal), free_draw=True)


def our_side(seconds: float, max_states: int | None = None) -> dict[str, object]:
    """The kernel's lean search; with ``max_states``, its keys and parents reserved for
    that many states at the start, so that near the machine's memory no array is copied
    into one twice its size."""
    r = explore_lean(*workload(), max_seconds=seconds, max_states=max_states,
                     reserve=max_states or 0)
    return {"side": "dominoproof", "states": r.states, "expanded": r.expanded,
            "transitions": r.transitions, "complete": r.complete, "stop": r.stop_reason,
            "seconds": r.seconds, "bytes_per_state": r.visited_bytes / max(1, r.states),
            "key_bytes": 8 * r.key_words, "blocked_sound_failed": r.failed is not None,
            "peak_rss_mb": peak_rss_mb()}


#: what two levels may hold at once in this machine's 24 GB: keys of 16 bytes, hash
#: tables at up to 3/4 load, and a level's keys doubled by a copy while it grows
MAX_HELD = 600_000_000


def our_sweep(seconds: float) -> dict[str, object]:
    """The kernel's sweep-line search (two levels at a time)."""
    start = time.perf_counter()

    def told(level: int, n: int) -> None:
        print(f"level {level}: {n:,} states ({time.perf_counter() - start:.0f} s, "
              f"peak RSS {peak_rss_mb():,.0f} MB)", file=sys.stderr, flush=True)

    r = explore_sweep(*workload(), max_seconds=seconds, max_held=MAX_HELD, progress=told)
    return {"side": "dominoproof-sweep", "states": r.states, "levels": r.levels,
            "transitions": r.transitions, "complete": r.complete, "stop": r.stop_reason,
            "seconds": r.seconds, "peak_bytes": r.peak_bytes, "key_bytes": 8 * r.key_words,
            "blocked_sound_failed": r.failed is not None, "peak_rss_mb": peak_rss_mb()}


if __name__ == "__main__":
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 300.0
    folder = Path(sys.argv[2] if len(sys.argv) > 2 else ".")
    mode = sys.argv[3] if len(sys.argv) > 3 else ""
    if mode == "sweep":
        print(json.dumps(our_sweep(budget)))
    else:
        if not mode:
            print(json.dumps(spin_side(budget, folder)))
        print(json.dumps(our_side(budget, int(mode) if mode else None)))
