"""``dominoproof bench spin`` — the Promela peer's deal, the same game, the run.

Fast: reading the model's header (and refusing a header its code contradicts), the
variant and deal built from it, the same-game mapping checked against a plain
Python reading of the Promela model's rules (its README), pan's report parsed, and
the "spin not installed" path. Slow (needs ``spin`` and ``gcc``, else skipped): the
real side-by-side run, whose state and transition counts must be exactly those our
graph predicts.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dominoproof.bench import promela
from dominoproof.bench import spin as sb
from dominoproof.cli import main
from dominoproof.model import Move, Tile, initial_state, legal_moves
from dominoproof.model.spec import Init
from dominoproof.proofs import kernel
from dominoproof.proofs.search.statespace import explore

MODELS = promela.models_dir()
needs_models = pytest.mark.skipif(not (MODELS / "domino_N3.pml").is_file(),
                                   reason=f"the Promela peer models are not at {MODELS}")
needs_spin = pytest.mark.skipif(sb.spin_missing() is not None,
                                reason=str(sb.spin_missing()))


def text(n: int) -> str:
    return (MODELS / f"domino_N{n}.pml").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# The header
# ---------------------------------------------------------------------------


@needs_models
@pytest.mark.parametrize("n", promela.SIZES)
def test_header_gives_a_deal_of_the_whole_set(n: int) -> None:
    deal = promela.load_deal(n)
    assert deal.n == n
    tiles = [*deal.hands[0], *deal.hands[1], *deal.boneyard]
    assert len(tiles) == len(set(tiles)) == (n + 1) * (n + 2) // 2
    assert Tile(n, n) in deal.hands[0]
    assert len(deal.hands[0]) == len(deal.hands[1])


@needs_models
def test_header_of_the_double_3_model_reads_as_written() -> None:
    deal = promela.load_deal(3)
    assert [str(t) for t in deal.hands[0]] == ["3-3", "2-3", "1-3"]
    assert [str(t) for t in deal.hands[1]] == ["0-2", "0-0", "0-1"]
    assert [str(t) for t in deal.boneyard] == ["1-1", "1-2", "0-3", "2-2"]


@needs_models
@pytest.mark.parametrize(("edit", "message"), [
    (lambda s: s.replace("P1: [0|2] [0|0] [0|1]", "P1: [0|2] [0|0] [0|0]", 1),
     "each tile once"),
    (lambda s: s.replace("boneyard (draw order): [1|1] [1|2] [0|3] [2|2]",
                         "boneyard (draw order): [1|2] [1|1] [0|3] [2|2]", 1), "draw order"),
    (lambda s: s.replace("P0: [3|3] [2|3] [1|3]", "P0: [3|3] [2|3] [0|1]", 1).replace(
        "P1: [0|2] [0|0] [0|1]", "P1: [0|2] [0|0] [1|3]", 1), "the model's init does not"),
    (lambda s: s.replace("P0: [3|3] [2|3] [1|3]", "P0: [0|2] [2|3] [1|3]", 1).replace(
        "P1: [0|2] [0|0] [0|1]", "P1: [3|3] [0|0] [0|1]", 1), r"does not hold \[3\|3\]"),
    (lambda s: s.replace("2 players", "3 players", 1), "3 players"),
    (lambda s: s.replace("passes == 2", "passes == 3"), "two-pass block"),
], ids=["duplicate-tile", "stack-order", "hand-vs-init", "no-opening-double", "players",
        "other-block-rule"])
def test_a_header_its_code_contradicts_is_refused(edit: Any, message: str) -> None:
    with pytest.raises(sb.DominoproofError, match=message):
        promela.parse_header(edit(text(3)), "edited.pml")


# ---------------------------------------------------------------------------
# The same game
# ---------------------------------------------------------------------------


@needs_models
@pytest.mark.parametrize("n", promela.SIZES)
def test_variant_and_deal_are_the_models(n: int) -> None:
    deal = promela.load_deal(n)
    v = promela.variant_for(deal)
    assert (v.n, v.players, v.deal.hand_size, v.deal.set_aside) == (
        n, 2, len(deal.hands[0]), 0)
    assert v.draw.rule.value == "until-playable" and v.needed_confirmations == 2
    s = initial_state(v, promela.deal_for(deal))
    assert s.turn == 0 and s.stack == tuple(t.idx for t in deal.boneyard)
    assert legal_moves(v, s) == (Move.play(0, f"{n}-{n}"),)  # the forced opening


Promela = tuple[frozenset[Tile], frozenset[Tile], int, int, int, int, int, str]


def promela_positions(deal: promela.PromelaDeal) -> set[Promela]:
    """Every state of the Promela model at its loop head, by a plain reading of its
    README: (P0's hand, P1's hand, top, lo, hi, turn, passes, status)."""
    n = deal.n
    start: Promela = (frozenset(deal.hands[0]) - {Tile(n, n)}, frozenset(deal.hands[1]),
                      0, n, n, 1, 0, "playing")
    seen = {start}
    todo = [start]

    def successors(s: Promela) -> Iterator[Promela]:
        h0, h1, top, lo, hi, turn, passes, status = s
        if status != "playing":
            return
        hands = [h0, h1]
        mine = hands[turn]
        plays = [(t, e) for t in mine for e in sorted({lo, hi}) if e in t]
        for t, e in plays:
            left = mine - {t}
            other_half = t.hi if t.lo == e else t.lo
            keep = hi if e == lo else lo
            a, b = sorted((other_half, keep))
            new = list(hands)
            new[turn] = left
            if not left:
                yield (new[0], new[1], top, a, b, turn, 0, "domino")
            else:
                yield (new[0], new[1], top, a, b, 1 - turn, 0, "playing")
        if plays:
            return
        if top < len(deal.boneyard):
            new = list(hands)
            new[turn] = mine | {deal.boneyard[top]}
            yield (new[0], new[1], top + 1, lo, hi, turn, passes, status)
        else:
            yield (h0, h1, top, lo, hi, 1 - turn, passes + 1,
                   "blocked" if passes + 1 == 2 else "playing")

    while todo:
        for t in successors(todo.pop()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def as_promela(p: sb.Position) -> Promela:
    hands, drawn, ends, turn, passes, status = p
    return (frozenset(Tile.from_index(i) for i in range(64) if hands[0] >> i & 1),
            frozenset(Tile.from_index(i) for i in range(64) if hands[1] >> i & 1),
            drawn, ends[0], ends[1], turn, passes, status)


@needs_models
@pytest.mark.parametrize("n", [3, 4])
def test_our_states_are_the_promela_models_positions(n: int) -> None:
    """Our reachable states, read as Spin's variables, are exactly the positions a plain
    reading of the Promela model reaches; ours = 1 + P + T states (the deal, and one
    more per end of a round)."""
    deal = promela.load_deal(n)
    v = promela.variant_for(deal)
    result = explore(v, Init.one(promela.deal_for(deal)))
    ours = sb.spin_positions(v, result.states(), len(deal.boneyard))
    theirs = promela_positions(deal)
    assert {as_promela(p) for p in ours} == theirs
    terminal = sum(p[-1] != "playing" for p in theirs)
    assert result.size == 1 + len(theirs) + terminal


@needs_models
def test_the_positions_differ_for_another_game() -> None:
    """The mapping can fail: a draw-one game on the same deal is not the model's game."""
    deal = promela.load_deal(3)
    v = promela.variant_for(deal, {"draw.rule": "one"})
    result = explore(v, Init.one(promela.deal_for(deal)))
    ours = {as_promela(p) for p in sb.spin_positions(v, result.states(), 4)}
    assert ours != promela_positions(deal)


PAN_REPORT = """
(Spin Version 6.5.2 -- 6 December 2019)
	+ Partial Order Reduction

Full statespace search for:
	never claim         	- (none specified)
	assertion violations	+
	cycle checks       	- (disabled by -DSAFETY)
	invalid end states	+

State-vector 44 byte, depth reached 28, errors: 0
     3606 states, stored
     1260 states, matched
     4866 transitions (= stored+matched)
        0 atomic steps
hash conflicts:         0 (resolved)

Stats on memory usage (in Megabytes):
    0.248	equivalent memory usage for states (stored*(State-vector + overhead))
    0.467	actual memory usage for states
  128.000	memory used for hash table (-w24)
    0.534	memory used for DFS stack (-m10000)
  128.925	total actual memory usage

pan: elapsed time 0.01 seconds
"""


def test_pans_report_is_parsed() -> None:
    got = sb.parse_pan(PAN_REPORT)
    assert (got["stored"], got["matched"], got["transitions"], got["errors"]) == (
        3606, 1260, 4866, 0)
    assert (got["depth"], got["state_vector"]) == (28, 44)
    assert got["memory_mb"] == pytest.approx(128.925)
    assert got["states_mb"] == pytest.approx(0.467)
    with pytest.raises(sb.DominoproofError, match="states, stored"):
        sb.parse_pan("pan: out of memory")


def _spin_run(stored: int, transitions: int, errors: int = 0) -> sb.SpinRun:
    step = sb.Step("pan", 1.0, 1.0, 100.0, 0)
    return sb.SpinRun([step], stored, 0, transitions, errors, 1, 44, 100.0, 1.0, 1.0)


@needs_models
def test_same_game_accepts_the_predicted_counts_and_refuses_others() -> None:
    deal = promela.load_deal(3)
    ours = sb.check_ours(deal)
    p, t, e = ours["positions"], ours["terminal_positions"], ours["transitions"]
    assert ours["verdict"] == "HOLDS" and ours["states"] == 1 + p + t
    assert sb.same_game(ours, _spin_run(1 + p + 3 * t, e + 1 + 2 * t))[0]
    assert not sb.same_game(ours, _spin_run(2 + p + 3 * t, e + 1 + 2 * t))[0]
    other = sb.check_ours(deal, {"block.confirmations": 1})  # one pass would block
    assert not sb.same_game(other, _spin_run(1 + p + 3 * t, e + 1 + 2 * t))[0]


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------


@needs_models
def test_without_spin_the_benchmark_says_so_and_exits_0(monkeypatch: Any) -> None:
    real = shutil.which
    monkeypatch.setattr(sb.shutil, "which",
                        lambda name, *a, **k: None if name == "spin" else real(name, *a, **k))
    res = CliRunner().invoke(main, ["bench", "spin", "--n", "3", "--no-cold"])
    assert res.exit_code == 0, res.output
    assert "spin not installed" in res.output
    assert "dominoproof blocked-sound HOLDS" in res.output
    assert "compiled in the run" not in res.output  # --no-cold: that run skipped


def test_a_missing_model_folder_is_a_clean_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["bench", "spin", "--n", "3", "--models", str(tmp_path)])
    assert res.exit_code == 2
    assert "no such Promela model" in res.output


@needs_models
@needs_spin
@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4])
def test_spin_and_dominoproof_explore_the_same_game(n: int) -> None:
    cmp = sb.compare(n, cold=False)  # (the run from an empty cache: the test below)
    assert cmp.spin is not None
    data = cmp.to_json()
    assert data["same_game"]["ok"], data["same_game"]["detail"]
    assert data["verdicts_agree"] and data["spin"]["verdict"] == "HOLDS"
    ratios = data["ratios"]
    assert all(ratios[k] is not None and ratios[k] > 0
               for k in ("wall_time", "states_per_second", "memory"))


@needs_models
@needs_spin
@pytest.mark.slow
def test_the_command_prints_the_ratios() -> None:
    res = CliRunner().invoke(main, ["bench", "spin", "--n", "3"])
    assert res.exit_code == 0, res.output
    for label in ("same game: yes", "wall time", "states/s", "peak memory", "ours/spin"):
        assert label in res.output
    if kernel.available():  # the first run, from an empty cache: compilation counted
        assert "wall, compiled in the run" in res.output


def test_without_the_cold_run_the_targets_are_not_judged() -> None:
    """--no-cold skips the run that counts the kernel's compilation: the wall-time
    target, which counts it, cannot be judged, and no target is said MET or MISSED."""
    cmp = sb.compare(3, use_spin=False, cold=False)
    assert cmp.ours_cold_seconds is None and cmp.cold_skipped
    spin = sb.SpinRun([], 1, 0, 1, 0, 1, 1, 1.0, 1.0, 1.0)  # (not read: nothing judged)
    on_six = dataclasses.replace(cmp, n=6, spin=spin)
    assert on_six.targets() == {"wall_time": "SKIPPED"} and on_six.target() == "SKIPPED"


@needs_models
@pytest.mark.skipif(not kernel.available(), reason=kernel.status())
def test_a_model_never_run_loads_the_machine_code_another_models_run_compiled(
        monkeypatch: Any) -> None:
    """On double-6, besides the run compiled from an empty cache, the double-3 deal's
    verdict compiles the kernel into a second empty cache and the double-6 deal's then
    runs on it: the figure of a model the kernel was never run on (Spin compiles pan.c
    for each). The order of the runs and their caches, and where the figure lands."""
    calls: list[tuple[int, str]] = []
    step, real = sb.run_ours(sb.load_deal(3))  # a real run's figures, for the render

    def fake(deal: Any, overrides: Any = None, cwd: Any = ".", workers: int = 1,
             numba_cache: Any = None) -> tuple[sb.Step, dict[str, Any]]:
        calls.append((deal.n, Path(numba_cache).name if numba_cache else ""))
        return step, {**real, "verdict_wall": float(len(calls))}

    monkeypatch.setattr(sb, "run_ours", fake)
    cmp = sb.compare(6, use_spin=False)
    assert calls == [(6, "numba-cache"), (3, "numba-cache-other-model"),
                     (6, "numba-cache-other-model"), (6, "numba-cache")]
    assert cmp.ours_cold_seconds == 1.0 and cmp.ours_other_model_seconds == 3.0
    spin = sb.SpinRun([sb.Step("pan", 1.0, 1.0, 1.0, 0)], 1, 0, 1, 0, 1, 1, 1.0, 1.0, 1.0)
    with_spin = dataclasses.replace(cmp, spin=spin, spin_seconds_runs=[2.0])
    assert with_spin.ratios()["wall_time_other_model"] == 1.5
    assert "wall, a model never run" in with_spin.render()
    assert with_spin.to_json()["ours_other_model_wall_seconds"] == 3.0
    # off double-6 (no target there), no second compile
    calls.clear()
    assert sb.compare(3, use_spin=False).ours_other_model_seconds is None
    assert calls == [(3, "numba-cache"), (3, "numba-cache")]
