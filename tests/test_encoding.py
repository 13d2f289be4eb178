"""The Z3 encoding (``proofs/z3/encoding.py``, ``vocabulary.py``, ``predicates.py``): Init,
the actions, decoding; and the successor oracle (``proofs/z3/successors.py``).

The encoding is the declarative reading of SEMANTICS.md, written apart from the
engine; these tests pin its vocabulary against the engine's values (initial states,
single successors, decoded states and moves). The full transition-level comparison
over reachable state spaces is ``tests/test_crosscheck_z3.py``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import z3  # type: ignore[import-untyped]
from helpers import variant

from dominoproof.model.engine import initial_state, random_round, shuffled_deal
from dominoproof.model.fast import engine_for
from dominoproof.model.moves import Move, MoveKind
from dominoproof.model.state import Status
from dominoproof.proofs.z3 import encoding, predicates, successors, vocabulary
from dominoproof.proofs.z3.encoding import PLAYING, Encoding
from dominoproof.proofs.z3.solver import Solver
from dominoproof.proofs.z3.successors import SuccessorOracle, z3_successors

LEAD_VARIANTS = [
    ("tiny-2p-d3", None),  # lead tile 3-3, fallback heaviest tile
    ("draw-2p-d6", None),  # highest double, fallback heaviest
    ("block-4p-d6", {"set.max": 4, "deal.hand_size": 3, "lead.tile": "4-4"}),
    ("tiny-2p-d3", {"lead.rule": "player", "lead.player": 1}),
    ("tiny-2p-d3", {"lead.rule": "tile", "lead.tile": "0-1", "lead.fallback": "player"}),
    ("tiny-2p-d3", {"lead.rule": "highest-double", "lead.fallback": "heaviest-tile",
                    "deal.hand_size": 1}),
    ("block-2p-d6", {"lead.rule": "tile", "lead.tile": "6-6",
                     "lead.fallback": "highest-double", "deal.hand_size": 2}),
    ("tiny-2p-d3", {"deal.order": "round-robin"}),
]


@pytest.mark.parametrize(("name", "overrides"), LEAD_VARIANTS)
def test_init_with_a_deal_is_the_engines_initial_state(name: str,
                                                       overrides: dict[str, Any] | None) -> None:
    """Init(deal) has exactly one model, and it decodes to the engine's initial state
    (same leader, SEMANTICS "Init"), deal after deal."""
    v = variant(name, overrides)
    enc = Encoding(v)
    rules = engine_for(v)
    rng = random.Random(7)
    for _ in range(6):
        deal = shuffled_deal(v, rng)
        s = enc.v.state("i")
        sv = Solver(seed=0, timeout_ms=20_000)
        sv.add(enc.init(s, deal))
        c = sv.check()
        assert c.sat
        got = enc.v.decode_state(c.model, s)
        want = initial_state(v, deal, free_draw=True, rules=rules)
        assert got.key() == want.key()
        # the lead is unique: no other turn satisfies Init for this deal
        sv.add(s.turn != got.turn)
        assert sv.check().unsat


def test_a_void_deal_has_no_initial_state() -> None:
    """Fallback "redeal": a deal where nobody holds the named tile is not an Init state."""
    v = variant("tiny-2p-d3", {"lead.fallback": "redeal"})
    enc = Encoding(v)
    rng = random.Random(3)
    void = ok = 0
    for _ in range(40):
        order = list(range(v.tiles.count))
        rng.shuffle(order)
        from dominoproof.model.state import Deal

        deal = Deal.from_order(v, order)
        held = any(h >> 9 & 1 for h in deal.hands)  # 3-3 is tile 9
        s = enc.v.state("v")
        sv = Solver(seed=0, timeout_ms=10_000)
        sv.add(enc.init(s, deal))
        c = sv.check()
        assert c.sat == held
        void += not held
        ok += held
    assert void and ok


def test_symbolic_init_deals_the_variants_counts() -> None:
    """Any Init model is a deal: hand sizes, boneyard and set-aside counts, empty table."""
    for name in ("draw-2p-d6", "block-2p-d6", "draw-leave2-2p-d6", "draw-8p-d12"):
        v = variant(name)
        enc = Encoding(v)
        s = enc.v.state("d")
        sv = Solver(seed=0, timeout_ms=30_000)
        sv.add(enc.init(s))
        c = sv.check()
        assert c.sat, name
        st = enc.v.decode_state(c.model, s)
        assert [h.bit_count() for h in st.hands] == [v.deal.hand_size] * v.players
        assert st.boneyard.bit_count() == v.boneyard_size
        assert st.set_aside.bit_count() == v.deal.set_aside
        assert st.table == 0 and not st.led and st.status is Status.PLAYING
        rules = engine_for(v)
        assert rules.opening(st.hands)[0] == st.turn


@pytest.mark.parametrize("name", ["tiny-2p-d3", "fouls-4p-d6",
                                  pytest.param("draw-8p-d12", marks=pytest.mark.slow)])
def test_states_decode_back_to_themselves(name: str) -> None:
    """``equals`` then ``decode_state``: the same state, along random rounds."""
    v = variant(name)
    enc = Encoding(v)
    for seed in range(3):
        for s in random_round(v, seed).states()[::3]:
            sv_ = enc.v.state("x")
            sv = Solver(seed=0, timeout_ms=10_000)
            sv.add(*enc.v.equals(sv_, s))
            c = sv.check()
            assert c.sat
            assert enc.v.decode_state(c.model, sv_).key()[:-1] == s.key()[:-1]


@pytest.mark.parametrize("name", ["tiny-2p-d3", "draw-8p-d12", "fouls-4p-d6",
                                  pytest.param("draw-10p-d18", marks=pytest.mark.slow)])
def test_successors_along_random_rounds(name: str) -> None:
    """Along random rounds (fixed draw order), the Z3 successors are the engine's."""
    v = variant(name)
    rules = engine_for(v)
    trace = random_round(v, 11)
    states = trace.states()
    for s in states[:: max(1, len(states) // 12)]:
        want = {(m, t.key()) for m, t in rules.successors(s)}
        assert z3_successors(v, s) == want


def test_a_fixed_stack_draws_only_its_top() -> None:
    """With the deal's draw order, the only draw is the top of the stack; with a free
    order, any boneyard tile."""
    v = variant("tiny-2p-d3")
    rng = random.Random(5)
    for _ in range(20):
        deal = shuffled_deal(v, rng)
        rules = engine_for(v)
        s = initial_state(v, deal, rules=rules)
        # play until someone must draw
        while s.status is Status.PLAYING:
            moves = rules.legal_moves(s)
            if moves[0].kind is MoveKind.DRAW:
                break
            s = rules.apply(s, moves[0])
        if s.status is not Status.PLAYING:
            continue
        fixed = {m for m, _ in z3_successors(v, s)}
        assert fixed == {Move.draw(s.turn, s.stack[0])}
        free = {m for m, _ in z3_successors(v, s._replace(stack=None))}
        assert free == {Move.draw(s.turn, t) for t in range(v.tiles.count)
                        if s.boneyard >> t & 1}
        return
    pytest.fail("no deal led to a draw")


def test_a_fixed_order_encoding_follows_the_stack() -> None:
    """``Encoding(stack=...)``: the state counts the tiles drawn and decodes the rest of
    the stack; a round from the deal replays through the relation step by step."""
    v = variant("tiny-2p-d3")
    trace = random_round(v, 3)
    enc = Encoding(v, stack=trace.deal.stack)
    states = trace.states()
    for s, m, t in zip(states, trace.moves, states[1:], strict=False):
        a, mv, b = enc.v.state("a"), enc.v.move("m"), enc.v.state("b")
        sv = Solver(seed=0, timeout_ms=10_000)
        sv.add(*enc.v.equals(a, s), enc.trans(a, mv, b))
        sv.add(enc.v.move_is(mv, m))
        c = sv.check()
        assert c.sat
        assert enc.v.decode_state(c.model, b).key() == t.key()


def test_every_action_is_deterministic_given_its_move() -> None:
    """Two post-states of one action and one move are equal (the functional form)."""
    v = variant("draw-8p-d12", {"set.max": 4, "deal.players": 3, "deal.hand_size": 3})
    enc = Encoding(v)
    s, m, b1, b2 = enc.v.state("s"), enc.v.move("m"), enc.v.state("p"), enc.v.state("q")
    for a, f in enc.actions(s, m, b1).items():
        g = enc.actions(s, m, b2)[a]
        sv = Solver(seed=0, timeout_ms=20_000)
        sv.add(f, g, z3.Or([x != y for x, y in zip(b1.fields().values(),
                                                   b2.fields().values(), strict=True)]))
        assert sv.check().unsat, a


def test_each_action_is_enabled_somewhere() -> None:
    """No action of the relation is dead: each has a step from some state (sanity: a
    disjunct that can never fire would make its checks pass trivially)."""
    first = {"layout.kind": "trains", "lead.rule": "highest-double",
             "layout.first_turn": "own-train"}  # R2.3: lay-on and end-turn too
    for name, overrides, expected_dead in (
            ("fouls-4p-d6", {}, {"draw", "pass"}),
            ("draw-8p-d12", {}, {"foul"}),
            ("tiny-2p-d3", {}, {"foul", "pass"}),
            ("tiny-2p-d3", {"lead.fallback": "draw"}, {"foul", "pass"}),  # R3.6
            ("tiny-2p-d3", first, {"foul", "pass"})):
        v = variant(name, overrides)
        enc = Encoding(v)
        s, m = enc.v.state("s"), enc.v.move("m")
        dead = set()
        for a, (guard, _) in enc.steps(s, m).items():
            sv = Solver(seed=0, timeout_ms=20_000)
            sv.add(guard, s.status == PLAYING, enc.conservation(s))
            if not sv.check().sat:
                dead.add(a)
        # draw-until-playable never leaves "drew" set, but a state with it set exists in
        # the vocabulary: pass is only dead under the invariant, not here
        assert dead <= expected_dead, (name, dead)
        # R3.6: the draw for the lead is an action only where the players may draw for it
        assert ("lead-draw" in enc.steps(s, m)) == ("lead.fallback" in overrides), name


def test_the_oracle_enumerates_without_duplicates() -> None:
    v = variant("fouls-4p-d6")
    oracle = SuccessorOracle(v)
    for s in random_round(v, 2).states()[:20]:
        got = list(oracle.successors(s))
        assert len(got) == len({(m, t.key()) for m, t in got})


def test_the_encoding_is_written_apart_from_the_engine() -> None:
    """SEMANTICS is read twice on purpose: the encoding (each of its modules, and the
    oracle built on it) imports no rule logic."""
    for module in (encoding, vocabulary, predicates, successors):
        src = Path(module.__file__).read_text(encoding="utf-8")
        for rule_logic in ("model.spec", "model.fast", "model.engine", "import Rules"):
            assert rule_logic not in src, (module.__name__, rule_logic)


def test_the_views_asked_again_and_again_are_built_once_per_state() -> None:
    """``in_hand`` with a constant seat, ``mark`` and ``any_pending`` are asked by the
    lemmas for every tile, seat and slot, many times over: each is built once per state
    (the same term after), and a state of another name gets its own."""
    enc = Encoding(variant("chickenfoot-4p-d9"))
    s, t = enc.v.state("s"), enc.v.state("t")
    pending = enc.v.fields.pending
    assert pending >= 0  # the chicken foot's doubles wait for their tiles
    for view in (lambda x: enc.v.in_hand(x, 3, 1), lambda x: enc.v.mark(x, pending),
                 enc.v.any_pending):
        first = view(s)
        assert view(s) is first
        other = view(t)
        assert other is not first and not first.eq(other)
        assert first.eq(z3.substitute(other, *zip(t.loc, s.loc, strict=True),
                                      (t.marks, s.marks)))
    seat = z3.BitVecVal(1, s.loc[0].size())  # a seat as a term: built each time, as before
    differ = z3.Solver()
    differ.add(enc.v.in_hand(s, 3, seat) != enc.v.in_hand(s, 3, 1))
    assert differ.check() == z3.unsat
