"""The outcome of a round has two readings: the engine's and the declarative one.

Bugs planted in the engine's own scoring (``model/outcome.py``), as an outside tester
would plant them, must be seen by the search (every terminal state it reaches), by the
cross-check (every terminal state it compares) and by ``verify`` on the variant where
they matter -- with the round that shows them. The two bugs:

* team totals summed over a seat stride instead of the teams listed (right for
  ``[[0, 2], [1, 3]]``, wrong for ``[[0, 1], [2, 3]]``);
* a foul's penalty charged to the seat numbered like its author's side.
"""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from helpers import outcome_module, side_index_penalties, stride_totals, variant
from reference_rules import ReferenceOracle

from dominoproof.cli import main
from dominoproof.model.tiles import Tile, bits
from dominoproof.model.variant import Variant
from dominoproof.proofs.conformance import compare, get_oracle
from dominoproof.proofs.search.plans import search_plan
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.search.verification import check_properties
from dominoproof.verify import verify

TEAMS_01_23 = {"partnerships.teams": [[0, 1], [2, 3]]}
TEAMS_WITH_FOULS = {**TEAMS_01_23, "fouls.rule": "penalised", "fouls.penalty": 10}
STRIDE_ARGS = ["partnership-4p-d6", "-o", "partnerships.teams=[[0,1],[2,3]]"]
FOUL_ARGS = [*STRIDE_ARGS, "-o", "fouls.rule=penalised", "-o", "fouls.penalty=10"]


@pytest.fixture
def stride_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outcome_module, "side_totals", stride_totals)


@pytest.fixture
def penalty_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outcome_module, "seat_penalties", side_index_penalties)


def searched(v: Variant) -> list[Any]:
    """Every search of ``verify``'s plan for ``v`` as on the Python path (sampled deals of
    the 4-player analogues): (plan variant, result) pairs."""
    plan = search_plan(v, kernel=False)
    return [(plan.variant, explore(plan.variant, init)) for init in plan.inits]


def verdicts(v: Variant) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for _, r in searched(v):
        for res in check_properties(r):
            out.setdefault(res.property, set()).add(res.verdict.value)
    return out


def test_the_planted_bugs_change_the_engines_scores() -> None:
    """The bugs matter on these variants (and the stride bug not on the usual teams)."""
    v = variant("partnership-4p-d6", TEAMS_01_23)
    assert stride_totals(v.teams, (1, 2, 3, 4)) != (3, 7)
    assert stride_totals(variant("partnership-4p-d6").teams, (1, 2, 3, 4)) == (4, 6)
    fv = variant("partnership-4p-d6", TEAMS_WITH_FOULS)
    assert side_index_penalties(fv, 0b0100) == (0, 10, 0, 0)  # P2 fouled, P1 charged


def test_without_a_bug_the_search_finds_the_scoring_sound() -> None:
    got = verdicts(variant("partnership-4p-d6", TEAMS_WITH_FOULS))
    for pid in ("pips", "winner-lowest", "award", "tie", "foul-penalty", "final-scores"):
        assert got[pid] == {"HOLDS"}, (pid, got[pid])


@pytest.mark.usefixtures("stride_bug")
def test_the_search_catches_team_totals_by_seat_stride() -> None:
    got = verdicts(variant("partnership-4p-d6", TEAMS_01_23))
    assert "VIOLATED" in got["pips"]


@pytest.mark.usefixtures("penalty_bug")
def test_the_search_catches_a_penalty_charged_to_the_wrong_seat() -> None:
    got = verdicts(variant("partnership-4p-d6", TEAMS_WITH_FOULS))
    assert "VIOLATED" in got["foul-penalty"]


@pytest.mark.usefixtures("penalty_bug")
def test_the_penalty_bug_is_invisible_where_sides_are_seats() -> None:
    """With everyone for themselves a side index is a seat: nothing to catch."""
    got = verdicts(variant("fouls-4p-d6"))
    assert got["foul-penalty"] == {"HOLDS"}


def _terminal_states(v: Variant, k: int = 30) -> tuple[Variant, list[Any]]:
    small, r = searched(v)[0]
    ends = [r.state(i) for i in range(r.expanded) if r.ending_of(i) is not None]
    return small, ends[:k]


@pytest.mark.parametrize(("fixture", "overrides"), [
    ("stride_bug", TEAMS_01_23), ("penalty_bug", TEAMS_WITH_FOULS)])
def test_the_crosscheck_compares_the_outcome_of_terminal_states(
        fixture: str, overrides: dict[str, Any], request: pytest.FixtureRequest) -> None:
    v = variant("partnership-4p-d6", overrides)
    small, states = _terminal_states(v, 400)
    states = [s for s in states if s.fouls] or states if fixture == "penalty_bug" else states
    clean = compare(small, states, get_oracle("engine", small), get_oracle("z3", small))
    assert clean.ok and clean.terminal == len(states), clean.describe()
    request.getfixturevalue(fixture)
    broken = compare(small, states, get_oracle("engine", small), get_oracle("z3", small))
    assert not broken.ok
    assert "outcome" in broken.describe()


# ---------------------------------------------------------------------------
# R5.2a: a block won by the fewest tiles, with the tiles counted as pips
# ---------------------------------------------------------------------------

FEWEST_TILES = {"scoring.block_winner": "fewest-tiles"}


def tiles_as_pips(sides: tuple[tuple[int, ...], ...], hands: tuple[int, ...]
                  ) -> tuple[int, ...]:
    """A planted bug: each side's "tiles left" adds up the pips of its tiles."""
    return tuple(sum(Tile.from_index(t).lo + Tile.from_index(t).hi
                     for p in side for t in bits(hands[p])) for side in sides)


@pytest.fixture
def tiles_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outcome_module, "tiles_left", tiles_as_pips)


@pytest.mark.parametrize("preset", ["block-2p-d6", "partnership-4p-d6"])
def test_without_the_bug_a_block_by_tiles_passes_every_scoring_property(preset: str) -> None:
    got = verdicts(variant(preset, {**FEWEST_TILES, "scoring.award_unit": "tiles"}))
    for pid in ("pips", "winner-lowest", "award", "tie", "final-scores"):
        assert got[pid] == {"HOLDS"}, (pid, got[pid])


@pytest.mark.usefixtures("tiles_bug")
def test_the_search_catches_tiles_counted_as_pips() -> None:
    got = verdicts(variant("block-2p-d6", FEWEST_TILES))
    assert "VIOLATED" in got["winner-lowest"]
    assert verdicts(variant("block-2p-d6"))["winner-lowest"] == {"HOLDS"}  # unused: unseen


@pytest.mark.parametrize("other", ["z3", "reference"])
def test_the_crosscheck_compares_the_count_of_a_block_by_tiles(
        other: str, request: pytest.FixtureRequest) -> None:
    small, states = _terminal_states(variant("block-2p-d6", FEWEST_TILES), 400)
    reading = (ReferenceOracle(small) if other == "reference" else get_oracle("z3", small))
    clean = compare(small, states, get_oracle("engine", small), reading)
    assert clean.ok and clean.terminal == len(states), clean.describe()
    request.getfixturevalue("tiles_bug")
    broken = compare(small, states, get_oracle("engine", small), reading)
    assert not broken.ok
    assert "outcome" in broken.describe()


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.slow
@pytest.mark.usefixtures("stride_bug")
def test_verify_catches_the_stride_bug_and_prints_the_round() -> None:
    res = run_cli("verify", *STRIDE_ARGS, "--no-faults", "--workers", "1")
    assert res.exit_code == 1, res.output
    assert "/ search / pips: VIOLATED" in res.output
    assert "/ cross-check / transitions: VIOLATED" in res.output
    assert "Counterexample to pips" in res.output
    assert "| Deal" in res.output and "| Moves" in res.output


@pytest.mark.slow
@pytest.mark.usefixtures("penalty_bug")
def test_verify_catches_the_penalty_bug_and_prints_the_round() -> None:
    res = run_cli("verify", *FOUL_ARGS, "--no-faults", "--workers", "1")
    assert res.exit_code == 1, res.output
    assert "/ search / foul-penalty: VIOLATED" in " ".join(res.output.split())  # wrapped
    assert "Counterexample to foul-penalty" in res.output
    assert "foul" in res.output.split("Counterexample to foul-penalty")[1]


@pytest.mark.slow
def test_verify_passes_the_same_variants_without_the_bugs() -> None:
    res = run_cli("verify", *FOUL_ARGS, "--no-faults", "--workers", "1")
    assert res.exit_code == 0, res.output


# ---------------------------------------------------------------------------
# verify runs every check afresh, and a crash is a failed check
# ---------------------------------------------------------------------------


def test_a_crashing_check_is_an_error_row_and_the_others_still_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import dominoproof.proofs.z3.queries as queries

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(queries.Prover, "prove_all", boom)
    report = verify([variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3})],
                    faults=False, workers=1, crosscheck=5)
    errors = [r for r in report.rows if r.verdict == "ERROR"]
    assert [(r.part, r.detail.split(" (at")[0]) for r in errors] == [
        ("z3", "the check crashed: ZeroDivisionError: planted")]
    assert {r.part for r in report.rows} >= {"search", "all sizes", "cross-check"}
    assert report.exit_code == 1


def test_a_job_whose_process_dies_is_a_failed_check(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import dominoproof.verify_job as verify_module

    monkeypatch.setattr(verify_module, "verify_variant",
                        lambda *a, **k: os._exit(7))  # type: ignore[func-returns-value]
    report = verify([variant("block-2p-d6")], faults=False, workers=1)
    assert [(r.verdict, r.detail) for r in report.rows] == [
        ("ERROR", "the check's process died (exit code 7)")]
    assert report.exit_code == 1


def test_no_memo_is_carried_from_one_variant_to_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo shared between rule books (a module-level table keyed by the state, as a
    planted bug) cannot leak from one variant's check into another's: each job runs in
    a process of its own, forked from a parent that runs no check."""
    from dominoproof.model.fast import FastRules as Rules

    shared: dict[Any, Any] = {}
    original = Rules.legal_moves

    def stale(self: Rules, s: Any) -> Any:
        key = s.key()
        if key not in shared:
            shared[key] = original(self, s)
        return shared[key]

    monkeypatch.setattr(Rules, "legal_moves", stale)
    a = variant("tiny-2p-d3")
    b = variant("tiny-2p-d3", {"draw.rule": "one"})
    together = verify([a, b], faults=False, workers=1, crosscheck=5)
    alone = verify([b], faults=False, workers=1, crosscheck=5)
    pick = lambda rep: [(r.part, r.property, r.verdict) for r in rep.rows  # noqa: E731
                        if r.subject == b.name and r.part == "search"]
    assert pick(together) == pick(alone)
    assert not shared  # the parent never ran a check


# ---------------------------------------------------------------------------
# The plan: the variant given is the variant searched, every path of it
# ---------------------------------------------------------------------------


def test_the_plan_keeps_four_players_and_their_teams() -> None:
    for kernel in (False, True):
        plan = search_plan(variant("partnership-4p-d6", TEAMS_01_23), kernel=kernel)
        assert plan.variant.players == 4
        assert plan.variant.partnerships.teams == ((0, 1), (2, 3))
    assert plan.fallback().variant.partnerships.teams == ((0, 1), (2, 3))


def test_the_plan_searches_every_deal_of_every_two_player_and_the_pool_preset() -> None:
    """Within the plan's budget on the Python path (PLAN_DEALS): every deal of the
    2-player presets' analogues, those with tiles set aside too (25,200 deals), and of the
    3-player pool's; beyond it (the 4-player analogues' 113,400) sampled deals, and the
    plan says so."""
    from dominoproof.model.variant import presets
    from dominoproof.proofs.budgets import PLAN_DEALS

    every = {n for n, v in presets().items() if not search_plan(v, kernel=False).sampled}
    assert {n for n, v in presets().items() if v.players == 2} | {"pool-3p-d6"} <= every
    for name in ("bergen-2p-d6", "pool-3p-d6"):
        plan = search_plan(variant(name), kernel=False)
        assert "every deal" in plan.description and plan.coverage is not None
        cover = plan.coverage.to_json()
        assert not cover["sampled"] and cover["deals_searched"] == cover["deals_total"]
        assert cover["deals_total"] <= PLAN_DEALS and plan.state_budget is None
    sampled = search_plan(variant("block-4p-d6"), kernel=False)
    assert sampled.sampled and "sampled, 11 of 113,400 deals" in sampled.description


def test_on_the_kernel_the_plan_tries_every_deal_of_the_four_player_presets() -> None:
    """Up to PLAN_DEALS_KERNEL deals, within PLAN_STATES states: the plan is every deal,
    with the state budget, and its fallback the sampled deals, saying why."""
    from dominoproof.proofs.budgets import PLAN_DEALS_KERNEL, PLAN_STATES

    plan = search_plan(variant("block-4p-d6"), kernel=True)
    assert not plan.sampled and "every deal (113,400)" in plan.description
    assert plan.state_budget == PLAN_STATES and PLAN_DEALS_KERNEL >= 113_400
    back = plan.fallback()
    assert back.sampled and "sampled, 11 of 113,400 deals" in back.description
    assert f"every deal is more than {PLAN_STATES:,} states" in back.description
    assert search_plan(variant("bergen-2p-d6"), kernel=True).state_budget is None
    assert search_plan(variant("sebastopol-4p-d6"), kernel=True).sampled  # 756,756 deals


def test_on_the_kernel_a_two_player_block_game_is_planned_on_double_4_first() -> None:
    """Every deal of double-4 (3 tiles each) within PLAN_STATES, its fallback every deal
    of double-3 saying why; on the Python path double-3 as before."""
    from dominoproof.proofs.budgets import PLAN_STATES
    from dominoproof.proofs.search.plans import small_variant

    v = variant("block-2p-d6")
    plan = search_plan(v, kernel=True)
    assert plan.variant.n == 4 and plan.variant.deal.hand_size == 3
    assert plan.description == "double-4, 2 players x 3, 9 set aside: every deal (100,100)"
    assert plan.state_budget == PLAN_STATES and not plan.sampled
    back = plan.fallback()
    assert back.variant == small_variant(v) == search_plan(v, kernel=False).variant
    assert back.description == (
        "double-3, 2 players x 3, 4 set aside: every deal (4,200); every deal of double-4, "
        f"2 players x 3, 9 set aside is more than {PLAN_STATES:,} states, the budget of one "
        "preset's search")
    assert back.state_budget is None and not back.sampled
    # every tile dealt (parity applies): double-4's 15 tiles do not share out between two
    dealt = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 5, "deal.set_aside": 0})
    assert search_plan(dealt, kernel=True).variant.n == 3
    # never larger than the variant itself
    assert search_plan(variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3}),
                       kernel=True).variant.n == 3


def test_on_the_kernel_a_two_player_draw_game_is_searched_on_double_4_as_well() -> None:
    """The largest hands that leave a tile to draw (7, a boneyard of 1), every deal in
    every draw order within PLAN_STATES_LARGER_DRAW, with the double-3 configuration's
    plan searched beside it (its boneyard draws up to four times) and its fallback;
    beyond PLAN_DEALS_KERNEL deals (2 set aside: 1,261,260) double-3 alone, saying why;
    on the Python path, on other layouts and with hands under 3, double-3 alone."""
    from dominoproof.proofs.budgets import PLAN_DEALS_KERNEL, PLAN_STATES_LARGER_DRAW

    v = variant("draw-2p-d6")
    small = search_plan(v, kernel=False)
    assert small.variant.n == 3 and small.also is None
    plan = search_plan(v, kernel=True)
    assert (plan.variant.n, plan.variant.deal.hand_size, plan.variant.boneyard_size) == (4, 7, 1)
    assert plan.description.startswith(
        "double-4, 2 players x 7, 1 in the boneyard: every deal (51,480), every draw order")
    assert plan.state_budget == PLAN_STATES_LARGER_DRAW and not plan.sampled
    assert plan.also == small and plan.smaller == small
    back = plan.fallback()
    assert back.also is None and back.variant == small.variant
    assert f"is more than {PLAN_STATES_LARGER_DRAW:,} states" in back.description
    leave2 = search_plan(variant("draw-leave2-2p-d6"), kernel=True)
    assert leave2.variant.n == 3 and leave2.also is None
    assert leave2.description.endswith(
        "every deal of double-4, 2 players x 6, 2 set aside, 1 in the boneyard is 1,261,260 "
        f"deals, more than the {PLAN_DEALS_KERNEL:,} a search of every deal may take")
    assert search_plan(variant("all-fives-2p-d6"), kernel=True).also is None  # a spinner
    assert search_plan(variant("draw-2p-d6", {"deal.hand_size": 2}),
                       kernel=True).variant.n == 3


def test_the_plan_searches_the_fixed_draw_order_too() -> None:
    plan = search_plan(variant("draw-2p-d6"))
    orders = {i.free_draw for i in plan.inits}
    assert orders == {True, False}
    assert not plan.sampled  # every deal, in every draw order
    assert plan.fixed_order_sampled  # ... and sampled deals in their own order
    assert "sampled, in their own draw order" in plan.description


def test_the_plan_chooses_deals_for_the_lead_rules_fallback() -> None:
    """On double-3 with 4 x 2 dealt the lead tile 3-3 is out of play in 1 deal in 5:
    the plan names that corner and includes a deal reaching it."""
    plan = search_plan(variant("partnership-4p-d6"), kernel=False)
    assert "lead: 3-3 not dealt, another double leads" in plan.description
    hands = [i.deal.hands for i in plan.inits if i.deal is not None]
    top = plan.variant.lead_tile_index
    assert top is not None
    assert any(not any(h >> top & 1 for h in hs) for hs in hands)


def test_the_plan_says_which_corners_no_deal_reached() -> None:
    plan = search_plan(variant("block-4p-d6"), kernel=False)
    assert "and no double either" in plan.description  # 8 of 10 dealt: some double is dealt
    assert "deals looked at, none has" in plan.description


def test_the_plan_explores_a_candidate_only_while_a_way_to_end_is_unreached(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Choosing deals for the corners explores a candidate's rounds (every draw order)
    only while some way a round can end is still unreached; after that a candidate can
    add only a lead case, which its hands say. The deals chosen are the same as when every
    candidate is explored: bergen's tied block is reached by a candidate, not by a seeded
    deal, so a plan that stopped exploring too soon would miss it."""
    from dominoproof.proofs.search import plans

    small = plans.small_variant(variant("bergen-2p-d6"))
    explored: list[Any] = []
    rounds, possible = plans.round_cases, plans.possible_cases

    def counted(v: Variant, d: Any) -> set[str]:
        explored.append(d)
        return rounds(v, d)

    monkeypatch.setattr(plans, "round_cases", counted)
    chosen, text = plans._corner_deals(small, plans.SEEDS)
    assert "+ 1 chosen for corners (a tied block)" in text
    assert plans.SEEDS < len(explored) < plans.SEEDS + plans.CANDIDATES
    # a way to end that no round reaches: every candidate is explored, as before
    monkeypatch.setattr(plans, "possible_cases",
                        lambda v: possible(v) | {"a round that never ends"})
    explored.clear()
    every, _ = plans._corner_deals(small, plans.SEEDS)
    assert len(explored) == plans.SEEDS + plans.CANDIDATES
    assert every == chosen
