"""Bounded model checking: witnesses and counterexamples (``proofs/z3/queries.py``).

Each answer is a round from a real deal that the engine replays to the same states;
shortest answers are shortest (every shorter depth was searched, or ruled out by a
lower bound drawn from proved properties); questions a correct variant must answer
"no" are answered "no" within the depth searched.
"""

from __future__ import annotations

from typing import Any

import pytest
import z3
from helpers import variant

from dominoproof.model.outcome import outcome
from dominoproof.model.state import Status
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.z3.encoding import BLOCKED, Encoding
from dominoproof.proofs.z3.encoding_faults import twin_prover
from dominoproof.proofs.z3.lemmas import parity_conclusion
from dominoproof.proofs.z3.queries import QUESTIONS, Prover, Witness, witness


def engine_final(w: Witness) -> Any:
    assert w.run is not None and w.run.replayed, w.run and w.run.mismatch
    states = w.run.trace.states()  # the engine replays the round with every check
    assert [s.key()[:-1] for s in states] == [s.key()[:-1] for s in w.run.states]
    return states[-1]


def test_shortest_block_of_the_block_game() -> None:
    """Double-6, 2 players, 14 tiles out: lead, two confirmations, establishment."""
    w = witness(Prover(variant("block-2p-d6")), "shortest-block")
    assert w.found and w.depth == 4 and w.figures["moves"] == 4
    final = engine_final(w)
    assert final.status is Status.BLOCKED
    # and nothing shorter: the same search from depth 0 finds the same length
    pr = Prover(variant("block-2p-d6"))
    assert pr.shortest_block(6, start=0).depth == 4


@pytest.mark.slow
def test_shortest_block_from_the_parity_lower_bound() -> None:
    """tiny-2p-d3: every tile in play, so (Z3 over the proved invariant, parity among it)
    7 tiles must be on the table, plus 4 draws, 2 confirmations and the establishment:
    14, and 14 is reached."""
    w = witness(Prover(variant("tiny-2p-d3")), "shortest-block")
    assert w.figures["lower_bound"] == 14 and w.depth == 14
    final = engine_final(w)
    assert final.status is Status.BLOCKED and final.table.bit_count() == 7


def test_a_tie_at_a_block_is_reachable() -> None:
    w = witness(Prover(variant("block-2p-d6")), "tie")
    assert w.found
    final = engine_final(w)
    res = outcome(w.run.trace.variant, final)  # type: ignore[union-attr]
    assert res is not None and len(res.tied) >= 2


def test_block_before_the_boneyard_is_empty_only_under_the_broken_variant() -> None:
    broken = witness(twin_prover("boneyard-check-off"), "block-before-empty-boneyard")
    assert broken.found and broken.figures["boneyard"] > 0
    final = engine_final(broken)
    assert final.status is Status.BLOCKED and final.boneyard
    sound = witness(Prover(variant("tiny-2p-d3")), "block-before-empty-boneyard", depth=10)
    assert not sound.found and sound.complete and sound.depth == 10


def test_parity_refuted_where_tiles_are_set_aside() -> None:
    pr = Prover(variant("block-2p-d6"))
    w = witness(pr, "parity-refuted")
    assert w.found
    final = engine_final(w)
    assert final.status is Status.BLOCKED and final.set_aside
    # the final state breaks the theorem's conclusion
    s = pr.enc.v.state("f")
    import z3  # type: ignore[import-untyped]

    from dominoproof.proofs.z3.solver import Solver

    sv = Solver()
    sv.add(*pr.enc.v.equals(s, final), z3.Not(parity_conclusion(pr.enc, s)))
    assert sv.check().sat


@pytest.mark.slow
def test_no_parity_refutation_with_every_tile_in_play() -> None:
    w = witness(Prover(variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 5})),
                "parity-refuted", depth=12)
    assert not w.found and w.complete


@pytest.mark.slow
def test_max_residual_of_the_tiny_game() -> None:
    pr = Prover(variant("tiny-2p-d3"))
    w = witness(pr, "max-residual")
    assert w.found and w.figures["optimal"] and w.figures["horizon"] == 14
    final = engine_final(w)
    res = outcome(pr.variant, final)
    assert res is not None and max(res.residuals) == w.figures["residual"]


@pytest.mark.slow
def test_max_residual_of_the_block_game_is_69() -> None:
    """The 7 heaviest tiles without a blank, kept while the other player leads the
    double blank and both confirm: 12+11+10+10+9+9+8 = 69 (optimal in 4 moves)."""
    pr = Prover(variant("block-2p-d6"))
    w = witness(pr, "max-residual")
    assert w.figures["residual"] == 69 and w.figures["optimal"]
    assert max(outcome(pr.variant, engine_final(w)).residuals) == 69  # type: ignore[union-attr]


def test_unknown_question_is_a_user_error() -> None:
    from dominoproof.model.errors import DominoproofError

    with pytest.raises(DominoproofError):
        witness(Prover(variant("tiny-2p-d3")), "longest-block")
    assert "shortest-block" in QUESTIONS


@pytest.mark.slow
def test_bmc_from_a_given_deal() -> None:
    """The relation from one concrete deal: a round of that deal, replayable."""
    from dominoproof.model.engine import random_round

    v = variant("block-2p-d6")
    tr = random_round(v, 4)
    pr = Prover(v)
    res = pr.bmc(lambda ss, ms: ss[-1].status != Status.PLAYING.value, deal=tr.deal,
                 max_depth=len(tr.moves) + 2)
    assert res.run is not None and res.run.replayed
    assert res.run.trace.deal.hands == tr.deal.hands


def test_witness_command_prints_the_round_step_by_step() -> None:
    from click.testing import CliRunner

    from dominoproof.cli import main

    r = CliRunner().invoke(main, ["witness", "block-2p-d6", "shortest-block"])
    assert r.exit_code == 0, r.output
    assert "replayed in the engine: yes" in r.output
    assert "Moves" in r.output and "block established" in r.output
    r = CliRunner().invoke(main, ["witness", "tiny-2p-d3", "block-before-empty-boneyard",
                                  "--depth", "4"])
    # "no such round" is an answer: exit 0, like a round found
    assert r.exit_code == 0 and "no such round of at most 4 moves" in r.output, r.output
    r = CliRunner().invoke(main, ["witness", "tiny-2p-d3", "longest-block"])
    assert r.exit_code == 2


def test_witness_command_on_a_broken_variant(tmp_path: Any) -> None:
    import json

    from click.testing import CliRunner

    from dominoproof.cli import main
    from dominoproof.model.engine import Trace

    out = tmp_path / "round.json"
    r = CliRunner().invoke(main, ["witness", "-", "block-before-empty-boneyard",
                                  "--fault", "boneyard-check-off", "--trace-out", str(out)])
    assert r.exit_code == 0, r.output
    assert "but 2 tiles in the boneyard" in r.output or "boneyard = " in r.output
    trace = Trace.loads(out.read_text())  # replays, and reaches the recorded final state
    assert trace.final.status is Status.BLOCKED and trace.final.boneyard
    assert json.loads(out.read_text())["format"] == "dominoproof.trace"


def test_a_timed_out_search_is_unknown_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bounded search stopped by a query timeout finds nothing and claims nothing: not
    complete, the reason named, and the CLI exits 3 with UNKNOWN (never 'no such round').

    Every check times out here, as Z3 reports it (``unknown``, "timeout"): a real 1 ms
    limit would let a quick check answer on one run and not on another, so what the
    search concludes would depend on the machine's load."""
    from click.testing import CliRunner

    from dominoproof.cli import main

    with monkeypatch.context() as m:
        for cls in (z3.Solver, z3.Optimize):
            m.setattr(cls, "check", lambda self, *a: z3.unknown)
            m.setattr(cls, "reason_unknown", lambda self: "timeout")
        w = witness(Prover(variant("block-4p-d6"), timeout_ms=1), "shortest-block")
        assert not w.found and not w.complete
        assert "UNKNOWN" in w.stop and w.to_json()["stop"] == w.stop
        assert "UNKNOWN" in w.note and "at most -1" not in w.note  # never "none up to -1"
        r = CliRunner().invoke(main, ["witness", "block-4p-d6", "shortest-block",
                                      "--timeout-ms", "1"])
        assert r.exit_code == 3, r.output
        assert "UNKNOWN: no such round found before the search stopped" in r.output
        assert "UNKNOWN (wall-clock safety net of 1 ms expired)" in r.output
        assert "no such round of at most" not in r.output
    r = CliRunner().invoke(main, ["witness", "block-4p-d6", "shortest-block", "--rlimit", "1"])
    assert r.exit_code == 3, r.output
    assert "UNKNOWN (resource limit of 1 reached)" in r.output


@pytest.mark.parametrize("name, overrides", [
    ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}),
    ("tiny-2p-d3", {"deal.hand_size": 4}),
    pytest.param("block-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"},
                 marks=pytest.mark.slow),
])
def test_the_table_bound_is_sound_against_exhaustive_search(
        name: str, overrides: dict[str, Any] | None) -> None:
    """The fewest tiles on the table at a block, asked of Z3 over the proved invariant,
    is never more than any reachable blocked state has (every deal searched), and the
    lower bound on a blocked round's length never exceeds the shortest one found."""
    from dominoproof.model.spec import Init
    from dominoproof.model.state import Ending
    from dominoproof.proofs.search.statespace import explore

    v = variant(name, overrides)
    pr = Prover(v)
    fewest, why = pr.fewest_on_table_at_block()
    bound, _ = pr.block_lower_bound()
    r = explore(v, Init.every(), max_states=1_000_000)
    blocked = [i for i in range(r.expanded) if r.ending_of(i) is Ending.BLOCKED]
    assert r.complete and blocked, "the configuration must block somewhere"
    assert fewest <= min(r.state(i).table.bit_count() for i in blocked), why
    assert bound <= min(r.depth[i] for i in blocked)  # BFS depth: the round's length


def test_the_table_bound_counts_the_joints_not_just_the_suit() -> None:
    """One line, every tile in play, double-6: the ends show one number x; its 7 tiles are
    on the table (parity) and three of the line's x-joints need a connecting tile each:
    10 plays, so a 2-player draw round blocks in no fewer than 10 + 14 + 2 + 1 moves; in
    the 4-player block game, 10 + 4 + 1 = 15, and a round of 15 moves exists (replayed)."""
    bound, why = Prover(variant("draw-2p-d6")).block_lower_bound()
    assert bound == 27 and why.startswith("10 plays"), why
    w = witness(Prover(variant("block-4p-d6")), "shortest-block")
    assert w.figures["lower_bound"] == 15 and w.found and w.depth == 15
    final = engine_final(w)
    assert final.status is Status.BLOCKED and final.table.bit_count() == 10


def test_the_table_bound_is_given_as_it_rises() -> None:
    """The bisection's bounds come one by one, each proved, so a caller stopped at its
    budget (the witness table's Z3 side is stopped at its deadline, in the middle of a
    hard query near the answer) keeps the last one instead of nothing."""
    v = variant("draw-2p-d6")
    pr = Prover(v)
    got = [k for k, _ in pr.fewest_on_table_at_blocks()]
    assert len(got) > 1 and got == sorted(got) and got[-1] == 10, got
    # a second bisection (Z3 may step differently): each bound is its own plays, every
    # boneyard tile drawn, the confirmations and the establishment
    rest = v.boneyard_size + v.needed_confirmations + 1
    bounds = list(pr.block_lower_bounds())
    assert len(bounds) > 1 and bounds[-1][0] == 10 + rest, bounds
    for b, why in bounds:
        assert why.startswith(f"{b - rest} plays ("), why
    assert [b for b, _ in bounds] == sorted(b for b, _ in bounds)


def test_without_an_invariant_the_bound_is_the_lead_alone() -> None:
    """A broken rule set whose blocked-sound is not proved gets no bound at all (0), so
    no depth is skipped on the strength of facts that do not hold."""
    bound, why = twin_prover("boneyard-check-off").block_lower_bound()
    assert bound == 0 and "not proved" in why


# ---------------------------------------------------------------------------
# The boneyard's floor: depths no round reaching the goal can have
# ---------------------------------------------------------------------------

#: a draw game small enough to reach its blocks within a short search
_SMALL_DRAW = {"set.max": 2, "deal.hand_size": 2}


def _blocked(ss: list[Any], ms: list[Any]) -> Any:
    return ss[-1].status == BLOCKED


def test_the_stock_floor_is_the_boneyard_where_a_move_draws_one_tile() -> None:
    v = variant("draw-2p-d6", _SMALL_DRAW)
    pr = Prover(v)
    assert v.boneyard_size == 2 and pr.stock_floor() == 2
    assert Prover(variant("block-2p-d6")).stock_floor() == 0  # no stock: nothing to say


def test_the_stock_floor_is_not_claimed_when_its_facts_fail() -> None:
    """The session's variant says 4 tiles in the boneyard, the encoding deals 2: the
    query "every deal leaves B tiles" is SAT, and no floor is claimed."""
    small = variant("draw-2p-d6", _SMALL_DRAW)
    other = variant("draw-2p-d6", {**_SMALL_DRAW, "deal.hand_size": 1})
    assert other.boneyard_size != small.boneyard_size
    assert Prover(other, encoding=Encoding(small)).stock_floor() == 0


def test_the_goal_floor_needs_an_empty_boneyard() -> None:
    pr = Prover(variant("draw-2p-d6", _SMALL_DRAW))
    assert pr.goal_floor(_blocked, 1) == 2  # a block: every tile drawn first
    assert pr.goal_floor(lambda ss, ms: ss[-1].led, 1) == 0  # a lead: at once
    assert pr.goal_floor(_blocked, 1, tail=1) == 1


def test_the_floor_hides_no_round() -> None:
    """The shortest block with and without the floor's skipped depths is the same round
    length, and the search with the floor answers the depths below it as searched."""
    pr = Prover(variant("draw-2p-d6", _SMALL_DRAW))
    with_floor = pr.bmc(_blocked, max_depth=10, window=1)
    without = pr.bmc(_blocked, max_depth=10)
    assert with_floor.floor == 2 and without.floor == 0
    assert with_floor.run is not None and without.run is not None
    assert with_floor.depth == without.depth >= 2
    assert with_floor.run.replayed
    none = pr.bmc(_blocked, max_depth=1, window=1)  # every depth below the floor
    assert none.run is None and none.complete and none.depth == 1


def test_a_refutation_skips_the_depths_below_the_floor() -> None:
    """Double Draw's called block (a finding of the search) needs the 16-tile boneyard
    drawn first: beyond the 12 moves searched, so no depth is queried; the verdict stays
    NOT INDUCTIVE (never PROVED), saying why no round of the depth searched can break it."""
    r = Prover(variant("double-draw-2p-d6")).prove("blocked-sound")
    assert r.verdict is Verdict.NOT_INDUCTIVE, r.detail
    assert "no violation in rounds of up to 12 moves (none can before move 16" in r.detail
