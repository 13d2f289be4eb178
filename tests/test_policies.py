"""Play policies (dominoproof.proofs.analysis.policies): each policy's choice on positions written
by hand,
chance steps left uniform, the sampler drawing exactly the distribution the exact figures
read, and the ``random`` policy being the engine's own loop, round for round."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from helpers import play, position, variant

from dominoproof.model import Move, Variant, engine_for, initial_state, random_rounds, shuffled_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.moves import LEAD, said
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.state import State
from dominoproof.model.tiles import Tile
from dominoproof.proofs.analysis.policies import (
    POLICIES,
    BlockSeeking,
    Greedy,
    Policy,
    UniformRandom,
    is_chance,
    move_distribution,
    pick,
    policy_named,
    policy_playout,
    policy_rounds,
)
from dominoproof.proofs.analysis.simulate import simulate

BLOCK = variant("block-2p-d6")


def chosen(policy: str, s: State, v: Variant = BLOCK) -> dict[str, Fraction]:
    """The moves ``policy`` gives a positive probability in ``s``, each shown as text."""
    rules = engine_for(v)
    moves = rules.moves(s)
    dist = move_distribution(policy_named(policy), rules, s, moves)
    return {said(rules.layout, s, m): p for m, p in zip(moves, dist, strict=True) if p}


def test_greedy_dumps_the_heaviest_playable_tile() -> None:
    # Ends 3 and 6: 6-6 (12 pips) beats 0-6 (6) and 2-3 (5).
    s = position(BLOCK, ["6-6 0-6 2-3", "1-1"], line="3-6")
    assert chosen("greedy", s) == {"P0 plays [6|6] on 6": 1}
    assert chosen("random", s) == {"P0 plays [6|6] on 6": Fraction(1, 3),
                                   "P0 plays [0|6] on 6": Fraction(1, 3),
                                   "P0 plays [2|3] on 3": Fraction(1, 3)}


def test_greedy_breaks_ties_uniformly_over_the_plays() -> None:
    # 2-6 and 3-5 both weigh 8: each is played half the time.
    s = position(BLOCK, ["2-6 3-5 0-3", "1-1"], line="3-6")
    assert chosen("greedy", s) == {"P0 plays [2|6] on 6": Fraction(1, 2),
                                   "P0 plays [3|5] on 3": Fraction(1, 2)}
    # One tile that fits either end (3-4 on the ends 3 and 4): either end, half each.
    s = position(BLOCK, ["3-4 0-1", "1-1"], line="3-6 6-4")
    assert chosen("greedy", s) == {"P0 plays [3|4] on 3": Fraction(1, 2),
                                   "P0 plays [3|4] on 4": Fraction(1, 2)}


def test_greedy_reads_the_variants_tile_values() -> None:
    # With 0-1 worth 50 (R5.3 special values), it is the heaviest tile.
    v = variant("block-2p-d6", {"scoring.tile_values": {"0-1": 50}})
    s = position(v, ["6-6 0-1", "2-2"], line="1-6")
    rules = engine_for(v)
    moves = rules.moves(s)
    w = Greedy().weights(rules, s, moves)
    assert [said(rules.layout, s, m) for m, x in zip(moves, w, strict=True) if x] == [
        "P0 plays [0|1] on 1"]


def test_block_seeking_leaves_the_opponent_unable_to_play() -> None:
    # On the ends 1 and 5: 5-5 keeps 1 showing, and P1's 1-2 can follow; 0-1 turns the 1
    # into a 0 and P1 (1-2, 2-2) has nothing for 0 or 5. Greedy takes 5-5.
    s = position(BLOCK, ["5-5 0-1", "1-2 2-2"], line="1-5")
    assert chosen("block-seeking", s) == {"P0 plays [0|1] on 1": 1}
    assert chosen("greedy", s) == {"P0 plays [5|5] on 5": 1}


def test_block_seeking_then_prefers_fewer_matching_tiles() -> None:
    # Both plays leave P1 (2-2, 3-3) unable to play. After 5-5 only P0's 0-1 matches an
    # end (1, 5); after 0-1 the ends are 0 and 5, matched by 5-5 and 0-4: 5-5 is chosen.
    s = position(BLOCK, ["5-5 0-1 0-4", "2-2 3-3"], line="1-5")
    assert chosen("block-seeking", s) == {"P0 plays [5|5] on 5": 1}
    rules = engine_for(BLOCK)
    seeker = BlockSeeking()
    assert seeker.score(rules, s, play(BLOCK, s, 0, "5-5", 5)) == (1, -1)
    assert seeker.score(rules, s, play(BLOCK, s, 0, "0-1", 1)) == (1, -2)


def test_block_seeking_counts_the_other_team_only() -> None:
    v = variant("partnership-4p-d6")
    assert BlockSeeking().opponents(v) == ((1, 3), (0, 2), (1, 3), (0, 2))
    assert BlockSeeking().opponents(BLOCK) == ((1,), (0,))


def test_a_draw_is_chance_whatever_the_policy() -> None:
    # P0 cannot play on 3|3 and the boneyard (free draw order) holds three tiles: each
    # is drawn with probability 1/3 under every policy (R3.1).
    tiny = variant("tiny")
    s = position(tiny, ["0-1 0-2 1-2", "0-0 1-1 2-2"], line="3-3", boneyard="0-3 1-3 2-3",
                 free_draw=True)
    moves = engine_for(tiny).moves(s)
    assert is_chance(moves) and len(moves) == 3
    for name in POLICIES:
        assert move_distribution(policy_named(name), engine_for(tiny), s, moves) == \
            (Fraction(1, 3),) * 3


def test_greedy_and_block_seeking_never_foul() -> None:
    # Fouls penalised, boneyard empty: a player who can play may also confirm falsely
    # (R4.5). Random does, one time in three; the other policies always play.
    v = variant("fouls-4p-d6")
    s = position(v, ["6-6 0-6", "1-1", "2-2", "3-3"], line="3-6")
    rules = engine_for(v)
    moves = rules.moves(s)
    assert Move.confirm(0) in moves and len(moves) == 3
    for name in ("greedy", "block-seeking"):
        dist = move_distribution(policy_named(name), rules, s, moves)
        assert dist[moves.index(Move.confirm(0))] == 0
    assert move_distribution(POLICIES["random"], rules, s, moves) == (Fraction(1, 3),) * 3


def test_the_lead_is_a_play_like_any_other() -> None:
    # block-2p-d6 leads with any tile of P0: greedy leads the heaviest.
    s = position(BLOCK, ["0-0 4-5 6-6", "1-1"], turn=0)
    moves = engine_for(BLOCK).moves(s)
    assert all(m.end == LEAD for m in moves)
    assert chosen("greedy", s) == {"P0 leads [6|6]": 1}


def decisions(name: str, rounds: int = 6) -> list[tuple[State, tuple[Move, ...]]]:
    """Decision states met in a few seeded rounds of a preset, with their moves."""
    v = variant(name)
    rules = engine_for(v)
    out = []
    for seed in range(rounds):
        rng = random.Random(seed)
        s = initial_state(v, shuffled_deal(v, rng), rules=rules)
        while not s.is_terminal:
            moves = rules.moves(s)
            if len(moves) > 1:
                out.append((s, moves))
            s = rules.step(s, moves[int(rng.random() * len(moves))])
    return out


def sampled_on_a_grid(policy: Policy, rules: RuleBook, s: State, moves: tuple[Move, ...],
                      grid: int) -> list[Fraction]:
    """How often pick() chooses each move over the stratified uniform numbers
    (j + 1/2) / grid, j = 0 .. grid-1: exactly its probability when grid is a common
    denominator of the distribution."""
    seen = [0] * len(moves)
    for j in range(grid):
        x = (j + 0.5) / grid
        seen[moves.index(pick(policy, rules, s, moves, lambda x=x: x))] += 1
    return [Fraction(k, grid) for k in seen]


@pytest.mark.parametrize("name", ["tiny-2p-d3", "fouls-4p-d6", "partnership-4p-d6"])
def test_pick_draws_exactly_the_distribution(name: str) -> None:
    """pick() chooses each move exactly as often as move_distribution() says: the
    sampler and the exact figures read one distribution."""
    rules = engine_for(variant(name))
    checked = 0
    for s, moves in decisions(name):
        for policy in POLICIES.values():
            dist = move_distribution(policy, rules, s, moves)
            assert sum(dist) == 1
            grid = math.lcm(*(p.denominator for p in dist))
            assert sampled_on_a_grid(policy, rules, s, moves, grid) == list(dist)
            checked += 1
    assert checked > 20


def test_the_grid_catches_a_sampler_that_ignores_the_weights() -> None:
    class Lopsided(Greedy):
        """Greedy for the exact figures, uniform when sampled."""

        sampling = False

        def weights(self, rules: RuleBook, s: State, moves: tuple[Move, ...]) -> tuple[int, ...]:
            return (1,) * len(moves) if self.sampling else super().weights(rules, s, moves)

    rules = engine_for(BLOCK)
    s = position(BLOCK, ["6-6 0-6 2-3", "1-1"], line="3-6")
    moves = rules.moves(s)
    p = Lopsided()
    dist = move_distribution(p, rules, s, moves)
    p.sampling = True
    assert sampled_on_a_grid(p, rules, s, moves, 6) != list(dist)


def test_policies_do_not_read_the_draw_order() -> None:
    """The weights are the same whatever the boneyard's order, or with no order at all
    (the free draw order of the exact figures)."""
    v = variant("tiny")
    rules = engine_for(v)
    for s, moves in decisions("tiny-2p-d3", 20):
        for policy in POLICIES.values():
            if is_chance(moves):
                continue
            w = policy.weights(rules, s, moves)
            for stack in (None, tuple(reversed(s.stack or ()))):
                assert policy.weights(rules, s._replace(stack=stack), moves) == w


def test_random_is_the_engines_own_stream() -> None:
    v = variant("draw-2p-d6")
    want = list(random_rounds(v, 30, 4))
    assert list(policy_rounds(v, "random", 30, 4)) == want

    class AllOnes(Policy):  # uniform weights, but through pick(), not the fast path
        name = "all-ones"
        summary = "every weight 1"

        def weights(self, rules: RuleBook, s: State, moves: tuple[Move, ...]) -> tuple[int, ...]:
            return (1,) * len(moves)

    assert list(policy_rounds(v, AllOnes(), 30, 4)) == want
    assert simulate(v, 50, 4) == simulate(v, 50, 4, policy="random")


def test_policy_playout_follows_the_policy() -> None:
    # From the lead of block-2p-d6, greedy's P0 leads its heaviest tile, every time.
    v = BLOCK
    rules = engine_for(v)
    s = position(v, ["0-0 4-5 6-6 1-2", "1-1 2-3 0-4 3-3"], turn=0)

    class Recording(Greedy):
        first: list[Move]

        def weights(self, rules: RuleBook, s: State, moves: tuple[Move, ...]) -> tuple[int, ...]:
            w = super().weights(rules, s, moves)
            if not s.led:
                self.first.append(next(m for m, x in zip(moves, w, strict=True) if x))
            return w

    rec = Recording()
    rec.first = []
    final, n = policy_playout(rules, rec, s, random.Random(0).random)
    assert final.is_terminal and n >= 2
    assert rec.first == [Move.play(0, Tile.parse("6-6").idx, LEAD)]


def test_policies_by_name() -> None:
    assert list(POLICIES) == ["random", "greedy", "block-seeking"]
    assert isinstance(policy_named("random"), UniformRandom)
    g = Greedy()
    assert policy_named(g) is g
    with pytest.raises(DominoproofError, match=r"^--policy gready: no such policy \(allowed: "
                                               r"random, greedy, block-seeking\)$"):
        policy_named("gready")
    with pytest.raises(DominoproofError, match=r"--policy a\\nb: no such policy"):
        policy_named("a\nb")
