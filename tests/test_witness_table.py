"""The witness table (``dominoproof witnesses``; ``proofs/analysis/witness_table.py``): every
witness question answered with bounds from both sides, held to an oracle that shares no
code with it.

The oracle (:func:`brute`) is a plain breadth-first search of every round of every deal
(each draw order a deal) of a small configuration, with the engine's own legal moves and
scoring: the shortest blocked round, the largest residual at a block, whether a tied block
and a block before the boneyard is empty exist. Each question's answer must agree with it
and be proved (optimal, or existence shown by a round that replays, or impossibility shown
by Z3). Each check is shown able to fail: a search playing a broken engine (a fault's
mutant), a Z3 side reading a broken encoding (a fault's twin), and a search kernel
(the ``rounds`` function) that plays other rules are all caught as contradictions.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import pytest
from click.testing import CliRunner
from helpers import unseen_successors

from dominoproof.cli import main
from dominoproof.model import find_variant
from dominoproof.model.engine import Trace, initial_state
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for, system_under_test
from dominoproof.model.outcome import outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import every_deal
from dominoproof.model.state import Status
from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis.policies import Policy
from dominoproof.proofs.analysis.witness_search import Round, play_rounds
from dominoproof.proofs.analysis.witness_table import QUESTION_ORDER, Answer, Invariants, answer
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.z3.encoding_faults import Z3_MUTANTS
from dominoproof.proofs.z3.queries import Prover

#: the block game on double-3, 2 tiles each (6 out of play): ties and blocks happen
BLOCK = ("block-2p-d6", {"set.max": 3, "deal.hand_size": 2})
#: a draw game on double-2, 2 tiles each, 2 in the boneyard, the holder of 2-2 leads
DRAW = ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"})
#: a draw game on double-3, 2 tiles each, 6 in the boneyard (ties happen)
DRAW3 = ("tiny-2p-d3", {"set.max": 3, "deal.hand_size": 2})
#: the budget of each answer: small configurations settle in seconds (an answer ends
#: when it is proved); the budget is far above, so the machine's load decides nothing
SECONDS = 300.0


def small(which: tuple[str, dict[str, object]]) -> Variant:
    return find_variant(which[0]).with_overrides(which[1], source="<test>")


@dataclass(frozen=True)
class Truth:
    shortest: int | None
    max_residual: int | None
    tie: bool
    block_before_empty: bool


@cache
def brute(which: tuple[str, frozenset[tuple[str, object]]]) -> Truth:
    """Every round of every deal, breadth first (a state's depth is its fewest moves)."""
    v = find_variant(which[0]).with_overrides(dict(which[1]), source="<test>")
    rules = engine_for(v)
    shortest: int | None = None
    most: int | None = None
    tie = early = False
    for deal in every_deal(v, False):
        frontier = [initial_state(v, deal, rules=rules)]
        seen = {frontier[0].key()}
        depth = 0
        while frontier:
            nxt = []
            for s in frontier:
                if s.status is Status.BLOCKED:
                    o = outcome(v, s)
                    assert o is not None
                    shortest = depth if shortest is None else min(shortest, depth)
                    most = max(o.residuals) if most is None else max(most, *o.residuals)
                    tie = tie or len(o.tied) >= 2
                    early = early or s.boneyard != 0
                nxt += unseen_successors(rules, s, seen)
            frontier = nxt
            depth += 1
    return Truth(shortest, most, tie, early)


def truth(which: tuple[str, dict[str, object]]) -> Truth:
    return brute((which[0], frozenset(which[1].items())))


def replays(v: Variant, a: Answer) -> Trace:
    """The answer's round, read back and replayed in the variant's own engine."""
    assert a.trace is not None
    t = Trace.loads(a.trace)
    t.states()  # every move legal, or TraceError
    return t


# ---------------------------------------------------------------------------
# One test per question: the answer is the oracle's, and proved
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("which", [BLOCK, DRAW], ids=["block", "draw"])
def test_shortest_block_is_the_shortest_of_every_round_and_proved(
        which: tuple[str, dict[str, object]]) -> None:
    v = small(which)
    a = answer(v, "shortest-block", SECONDS)
    assert a.status == "optimal" and a.proved and a.gap == 0, a.why
    assert a.value == a.bound == truth(which).shortest
    t = replays(v, a)
    assert len(t.moves) == a.value and t.final.status is Status.BLOCKED


@pytest.mark.parametrize("which", [BLOCK, DRAW], ids=["block", "draw"])
def test_max_residual_is_the_largest_of_every_round_and_proved(
        which: tuple[str, dict[str, object]]) -> None:
    v = small(which)
    a = answer(v, "max-residual", SECONDS)
    assert a.status == "optimal" and a.proved and a.gap == 0, a.why
    assert a.value == a.bound == truth(which).max_residual
    o = outcome(v, replays(v, a).final)
    assert o is not None and max(o.residuals) == a.value


@pytest.mark.parametrize("which", [BLOCK, DRAW], ids=["block", "draw"])
def test_tie_exists_exactly_when_some_round_has_one(
        which: tuple[str, dict[str, object]]) -> None:
    v = small(which)
    a = answer(v, "tie", SECONDS)
    assert a.proved, a.why
    if truth(which).tie:
        assert a.status == "exists"
        o = outcome(v, replays(v, a).final)
        assert o is not None and len(o.tied) >= 2
    else:
        assert a.status == "none" and a.trace is None


@pytest.mark.parametrize("which", [BLOCK, DRAW], ids=["block", "draw"])
def test_no_block_before_the_boneyard_is_empty(which: tuple[str, dict[str, object]]) -> None:
    v = small(which)
    a = answer(v, "block-before-empty-boneyard", SECONDS)
    assert not truth(which).block_before_empty
    assert a.status == "none" and a.proved and a.trace is None, a.why


# ---------------------------------------------------------------------------
# The checks fail on broken rule sets
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("question", QUESTION_ORDER)
def test_a_search_playing_a_broken_engine_is_a_contradiction(question: str) -> None:
    """establish-without-boneyard-check: a stuck player confirms instead of drawing. Its
    rounds do not replay in the variant's engine, whatever the question."""
    v = small(DRAW3 if question == "tie" else DRAW)
    engine = FAULTS_BY_ID["establish-without-boneyard-check"].engine
    assert engine is not None
    a = answer(v, question, SECONDS, rules=system_under_test(v, engine))
    assert a.status == "contradiction" and not a.proved
    assert "does not replay" in a.why


def test_a_broken_z3_reading_is_a_contradiction() -> None:
    """extra-confirmation's twin needs one confirmation more: its lower bound on the
    shortest block (5 moves in the block game on double-3, from its first bound on) is
    above a real round the search finds (4).

    An answer ends as soon as its bounds meet, and the Z3 side reports each bound as it is
    proved; so a broken bound that equals a longer round the search happened to find first
    would end it as "optimal" (the draw game's twin proves 9, the true shortest, before its
    final 10). The search here is given only blocked rounds as short as the shortest (a
    perfect search) against a twin whose every bound is too high, so what is judged is the
    Z3 side alone, whatever the timing."""
    v = small(BLOCK)
    twin = Z3_MUTANTS["extra-confirmation"].encoding
    assert twin is not None
    shortest = truth(BLOCK).shortest
    assert shortest is not None

    def perfect(variant: Variant, rules: RuleBook, policy: Policy, seed: int,
                count: int) -> Iterator[Round]:
        for r in play_rounds(variant, rules, policy, seed, count):
            if r[2].status is not Status.BLOCKED or len(r[1]) <= shortest:
                yield r

    a = answer(v, "shortest-block", SECONDS, rounds=perfect,
               prover=lambda seed, ms: Prover(v, encoding=twin(v), seed=seed, timeout_ms=ms))
    assert a.status == "contradiction", a.why
    assert a.value == shortest and a.bound is not None and a.bound > a.value


# ---------------------------------------------------------------------------
# Houdini once per variant
# ---------------------------------------------------------------------------


def test_the_invariant_is_proved_once_per_variant_and_handed_to_the_next_question() -> None:
    """The first question proves the invariant (Houdini) and leaves it in ``invariants``;
    the next question's Z3 side takes it from there instead of running Houdini again --
    shown by handing it a weaker one (only the lemma "seat"): Z3 then reasons from that
    one lemma, and cannot show the impossibility it showed with the proved invariant."""
    v = small(BLOCK)
    invariants: Invariants = {}
    a = answer(v, "block-before-empty-boneyard", SECONDS, invariants=invariants)
    kept = invariants[(v, 0)]
    assert "blocked-sound" in kept and a.z3["invariant"] == len(kept) and a.status == "none"
    b = answer(v, "block-before-empty-boneyard", SECONDS, invariants=invariants)
    assert b.z3["invariant"] == len(kept) and b.status == "none"
    weak: Invariants = {(v, 0): ("seat",)}
    c = answer(v, "block-before-empty-boneyard", 10, invariants=weak)  # UNKNOWN: no need
    # to wait for more than its first message
    assert c.z3["invariant"] == 1 and weak[(v, 0)] == ("seat",)
    assert c.status == "unknown" and "no blocked state of the invariant" not in c.why


# ---------------------------------------------------------------------------
# The kernel's place: one function plays the rounds
# ---------------------------------------------------------------------------


def test_the_play_outs_come_from_the_one_rounds_function() -> None:
    v = small(BLOCK)
    calls: list[str] = []

    def counted(variant: Variant, rules: RuleBook, policy: Policy, seed: int,
                count: int) -> Iterator[Round]:
        calls.append(policy.name)
        yield from play_rounds(variant, rules, policy, seed, count)

    a = answer(v, "shortest-block", SECONDS, rounds=counted)
    assert calls and a.status == "optimal" and a.value == truth(BLOCK).shortest


def test_a_kernel_that_plays_other_rules_is_caught() -> None:
    """A kernel whose rounds are a broken engine's (a confirmation instead of a draw) is
    held to the specification like any search."""
    v = small(DRAW)
    broken = system_under_test(v, FAULTS_BY_ID["establish-without-boneyard-check"].engine)

    def kernel(variant: Variant, rules: RuleBook, policy: Policy, seed: int,
               count: int) -> Iterator[Round]:
        yield from play_rounds(variant, broken, policy, seed, count)

    a = answer(v, "block-before-empty-boneyard", SECONDS, rounds=kernel)
    assert a.status == "contradiction"


# ---------------------------------------------------------------------------
# Budgets and the command line
# ---------------------------------------------------------------------------


def test_a_budget_of_zero_is_refused_not_unlimited() -> None:
    with pytest.raises(DominoproofError, match="not 'no limit'"):
        answer(small(BLOCK), "tie", 0)
    r = CliRunner().invoke(main, ["witnesses", "tiny", "--seconds", "0"])
    assert r.exit_code == 2 and "positive" in r.output


def test_an_answer_out_of_budget_is_unknown_with_the_bounds_reached() -> None:
    """Two seconds on the 4-player double-12 draw game: no proof in time, exit 3; what is
    printed is only what was reached (a round found, or UNKNOWN), never 'optimal'."""
    r = CliRunner().invoke(main, ["witnesses", "draw-4p-d12", "--question",
                                  "shortest-block", "--seconds", "2", "--json", "-"])
    assert r.exit_code == 3, r.output
    doc = json.loads(r.output)
    (a,) = doc["answers"]
    assert a["status"] in ("bounds", "unknown") and not a["proved"]
    if a["value"] is not None:  # a round found: it replays, and its length is the value
        t = Trace.from_json(a["round"])
        assert len(t.moves) == a["value"] and t.final.status is Status.BLOCKED
    if a["bound"] is not None and a["value"] is not None:
        assert a["gap"] == a["value"] - a["bound"] > 0


@pytest.mark.parametrize(("args", "says"), [
    (["witnesses", "tiny", "--question", "longest"], "--question longest: no such question"),
    (["witnesses", "tiny", "--fault", "tie-wrong"], "--fault tie-wrong: not a fault with a "
                                                    "broken engine"),
    (["witnesses", "no-such-variant"], "no-such-variant"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], says: str) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], r.output


def test_the_table_of_a_sound_variant_is_proved_and_a_fault_is_caught() -> None:
    base = ["witnesses", "tiny", "-o", "set.max=2", "-o", "deal.hand_size=2", "-o",
            'lead.tile="2-2"', "--question", "tie", "--question",
            "block-before-empty-boneyard", "--seconds", "20"]
    r = CliRunner().invoke(main, base)
    assert r.exit_code == 0, r.output
    assert r.output.count(" none ") == 2, r.output
    bad = CliRunner().invoke(main, [*base, "--fault", "establish-without-boneyard-check"])
    assert bad.exit_code == 1, bad.output
    assert "CONTRADICTION" in bad.output and "does not replay" in bad.output
