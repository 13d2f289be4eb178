"""The transition system (``dominoproof.model.spec``): Init, the named actions, Next.

The system adds no rule of its own: ``Next`` is exactly ``Rules.successors``, every
enabled move belongs to exactly one named action, and ``Init`` is every deal (or the
one given), counted by a formula computed before the enumeration.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers import variant

from dominoproof.model import Deal, DominoproofError, MoveKind, Status, engine_for, find_variant
from dominoproof.model.dealtext import format_deal, parse_deal
from dominoproof.model.engine import deal_of, random_round, seeded_deal
from dominoproof.model.layout import CLOSED
from dominoproof.model.spec import (
    ACTIONS,
    ACTIONS_BY_NAME,
    CASES,
    Init,
    Rules,
    count_deals,
    every_deal,
    init_states,
    next_states,
    terminal_kind,
    type_ok,
)
from dominoproof.model.tiles import Tile, bits, tile_count
from dominoproof.model.variant import Variant
from dominoproof.proofs.mutants import ConfirmResets
from dominoproof.proofs.search.statespace import explore

SMALL = [
    ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}, Init.every()),
    ("tiny-2p-d3", None, "seed 0"),
    ("fouls-4p-d6", {"set.max": 3, "deal.players": 3, "deal.hand_size": 3,
                     "lead.tile": "3-3"}, "seed 1"),
    ("draw-10p-d18", {"set.max": 3, "deal.players": 2, "deal.hand_size": 3,
                      "lead.tile": "3-3"}, "seed 3"),
    ("block-2p-d6", {"set.max": 2, "deal.hand_size": 2}, Init.every()),
    ("tiny-2p-d3", {"block.call": "dead-end"}, "seed 0"),  # R4.7: the Call action
    # R2.3: a first turn lays on, then ends (Lay on, End turn)
    ("tiny-2p-d3", {"layout.kind": "trains", "lead.rule": "highest-double",
                    "layout.first_turn": "own-train"}, "seed 0"),
]


def reachable(name: str, overrides: dict[str, Any] | None, init: Any) -> tuple[Variant, list[Any]]:
    v = variant(name, overrides)
    if isinstance(init, str):
        init = Init.one(seeded_deal(v, int(init.split()[1])), free_draw=True)
    return v, list(explore(v, init).states())


# ---------------------------------------------------------------------------
# Next = the rule book's successors; one action per move
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "overrides", "init"), SMALL,
                         ids=[f"{n}" for n, _o, _i in SMALL])
def test_next_is_the_rule_books_successors(name: str, overrides: Any, init: Any) -> None:
    v, states = reachable(name, overrides, init)
    rules = engine_for(v)
    used: Counter[str] = Counter()
    for s in states:
        nxt = next_states(rules, s)
        assert [(m, t) for _a, m, t in nxt] == rules.successors(s)
        for a, m, t in nxt:
            assert a is rules.action_of(s, m)  # exactly one action per move ...
            assert m in tuple(a.moves(rules, s))  # ... which offers it
            assert a.effect(rules, s, m) == t  # and whose effect is the transition
            used[a.name] += 1
        # Next is the moves of the actions of the first guard case that holds, after
        # those of the "also" cases before it that hold (R4.7's call)
        held = [c for c in CASES if c.guard(rules, s)]
        first = next(i for i, c in enumerate(held) if not c.also)
        cases = [*(c for c in held[:first] if c.also), held[first]]
        assert [m for c in cases for a in c.actions for m in a.moves(rules, s)] == list(
            rules.moves(s))
    assert used["Lead"] and used["Play"] and used["Confirm"] and used["Establish"]
    assert used["Domino"]


def test_every_action_is_taken_somewhere() -> None:
    names: set[str] = set()
    for name, overrides, init in SMALL:
        v, states = reachable(name, overrides, init)
        rules = engine_for(v)
        names |= {a.name for s in states for a, _m, _t in next_states(rules, s)}
    assert names == set(ACTIONS_BY_NAME)


def test_foul_action_is_a_confirmation_by_a_player_who_could_play() -> None:
    v, states = reachable(*SMALL[2])
    rules = engine_for(v)
    fouls = [(s, m, t) for s in states for a, m, t in next_states(rules, s) if a.name == "Foul"]
    assert fouls
    for s, m, t in fouls:
        assert m.kind is MoveKind.CONFIRM and rules.playable_mask(s, m.player)
        assert t.fouls >> m.player & 1 and not s.fouls >> m.player & 1


def test_action_docs_cite_rule_ids() -> None:
    for a in ACTIONS:
        assert a.rules and all(r.startswith(("R", "Terms")) for r in a.rules)
        assert a.doc


def test_action_of_names_the_move() -> None:
    v = find_variant("tiny-2p-d3")
    trace = random_round(v, seed=5)
    rules = engine_for(v)
    names = [rules.action_of(s, m).name for s, m in zip(trace.states(), trace.moves,
                                                         strict=False)]
    assert names[0] == "Lead"
    assert names[-1] in ("Establish", "Domino")


# ---------------------------------------------------------------------------
# TypeOK and terminal states
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "overrides", "init"), SMALL,
                         ids=[f"{n}" for n, _o, _i in SMALL])
def test_type_ok_in_every_reachable_state(name: str, overrides: Any, init: Any) -> None:
    v, states = reachable(name, overrides, init)
    assert all(type_ok(v, s) for s in states)
    last = states[-1]
    assert not type_ok(v, last._replace(table=0, ends=(CLOSED, CLOSED)) if last.table else
                       last._replace(hands=(0,) * v.players))


def test_terminal_kinds() -> None:
    v, states = reachable(*SMALL[0])
    rules = engine_for(v)
    kinds = Counter(terminal_kind(rules, s) for s in states)
    assert kinds[None] > 0 and kinds["blocked"] > 0
    assert kinds["domino P0"] > 0 and kinds["domino P1"] > 0 and "stuck" not in kinds
    for s in states:
        k = terminal_kind(rules, s)
        assert (k is None) == (s.status is Status.PLAYING)


def test_a_state_with_no_move_is_stuck() -> None:
    v = find_variant("tiny-2p-d3")
    s = next(init_states(v, Init.one(seeded_deal(v, 0))))

    class NoMoves(Rules):
        def moves(self, s: Any) -> tuple[Any, ...]:
            return ()

    assert terminal_kind(NoMoves(v), s) == "stuck"


# ---------------------------------------------------------------------------
# Init
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "overrides", "free"), [
    ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}, False),
    ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}, True),
    ("block-2p-d6", {"set.max": 3, "deal.hand_size": 3}, False),
    ("draw-leave2-2p-d6", {"set.max": 3, "deal.hand_size": 2}, True),
    ("block-2p-d6", {"set.max": 2, "deal.players": 3, "deal.hand_size": 2}, False),
])
def test_every_deal_is_each_deal_once(name: str, overrides: Any, free: bool) -> None:
    v = variant(name, overrides)
    deals = list(every_deal(v, free))
    assert len(deals) == count_deals(v, free) == len(set(deals))
    full = v.tiles.full
    for d in deals[:: max(1, len(deals) // 500)]:
        masks = [*d.hands, sum(1 << t for t in d.stack), d.set_aside]
        assert sum(m.bit_count() for m in masks) == v.tiles.count
        assert sum(masks) == full  # disjoint and covering
        assert all(h.bit_count() == v.deal.hand_size for h in d.hands)
        assert len(d.stack) == v.boneyard_size and d.set_aside.bit_count() == v.deal.set_aside
    # the formula, written out: T! / (H!^P K! B!) hand/aside/boneyard splits, x B! orders
    t, h, p = v.tiles.count, v.deal.hand_size, v.players
    k, b = v.deal.set_aside, v.boneyard_size
    splits = math.factorial(t) // (math.factorial(h) ** p * math.factorial(k)
                                   * math.factorial(b))
    assert count_deals(v, free) == splits * (1 if free else math.factorial(b))


def test_parts_partition_the_deals() -> None:
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3})
    whole = set(every_deal(v, False))
    parts = [list(every_deal(v, False, (i, 3))) for i in range(3)]
    assert sum(len(p) for p in parts) == len(whole)
    assert set().union(*map(set, parts)) == whole
    assert Init.every().shard(1, 3).part == (1, 3)
    with pytest.raises(ValueError):
        Init.one(seeded_deal(v, 0)).shard(0, 2)


def test_init_states_follow_the_lead_rule_and_drop_void_deals() -> None:
    v = variant("tiny-2p-d3", {"lead.fallback": "redeal"})
    states = list(init_states(v, Init.every(free_draw=True)))
    three = 1 << 9  # the tile 3-3
    expect = sum(1 for d in every_deal(v, True) if any(h & three for h in d.hands))
    assert len(states) == expect < count_deals(v, True)
    for s in states:
        holder = next(p for p, h in enumerate(s.hands) if h & three)
        assert s.turn == holder and s.status is Status.PLAYING and s.stack is None
        assert not s.table and not s.led and not s.confirmed and not s.fouls


def test_init_keeps_the_draw_order_unless_free() -> None:
    v = find_variant("tiny-2p-d3")
    deal = seeded_deal(v, 4)
    (fixed,) = init_states(v, Init.one(deal))
    (free,) = init_states(v, Init.one(deal, free_draw=True))
    assert fixed.stack == deal.stack and free.stack is None
    assert fixed.boneyard == free.boneyard
    assert deal_of(fixed) == deal
    assert deal_of(free).hands == deal.hands and set(deal_of(free).stack) == set(deal.stack)


def test_init_reads_the_mutants_opening() -> None:
    """A mutant rule book is a different system, Init included."""
    v = find_variant("tiny-2p-d3")
    deal = seeded_deal(v, 0)
    (s,) = init_states(v, Init.one(deal), ConfirmResets(v))
    assert s == next(init_states(v, Init.one(deal)))


def test_describe() -> None:
    v = find_variant("tiny-2p-d3")
    assert Init.every().describe() == "every deal, the deal's draw order"
    assert Init.every(True).shard(0, 2).describe() == "every deal, every draw order, part 1 of 2"
    assert "one deal ([" in Init.one(seeded_deal(v, 0)).describe()


# ---------------------------------------------------------------------------
# Deals written by hand (--deal)
# ---------------------------------------------------------------------------

SPIN_HEADER = """/* Domino round ...
   P0: [6|6] [0|3] [3|4] [1|6] [1|2] [1|4] [2|3]
   P1: [0|2] [1|3] [5|6] [2|6] [2|2] [4|6] [2|4]
   boneyard (draw order): [3|6] [3|3] [3|5] [1|5] [0|4] [4|4] [5|5] [1|1] [0|5] [0|1] [4|5] \
[2|5] [0|0] [0|6] */"""


def test_the_spin_header_is_a_deal(tmp_path: Path) -> None:
    v = find_variant("draw-2p-d6")
    lines = SPIN_HEADER.splitlines()[1:]
    deal = parse_deal(v, "\n".join(lines))
    assert [str(Tile.from_index(t)) for t in deal.stack[:3]] == ["3-6", "3-3", "3-5"]
    assert parse_deal(v, format_deal(deal)) == deal
    path = tmp_path / "deal.txt"
    path.write_text("\n".join(lines) + "\n")
    assert parse_deal(v, str(path)) == deal


def test_deal_from_json_and_from_a_trace(tmp_path: Path) -> None:
    v = find_variant("tiny-2p-d3")
    trace = random_round(v, seed=3)
    a = tmp_path / "deal.json"
    a.write_text(json.dumps(trace.deal.to_json()))
    b = tmp_path / "trace.json"
    b.write_text(trace.dumps())
    assert parse_deal(v, str(a)) == trace.deal == parse_deal(v, str(b))


def test_free_draw_deal_needs_no_stack() -> None:
    v = find_variant("tiny-2p-d3")
    deal = parse_deal(v, "P0: 0-0 0-1 0-2; P1: 1-1 1-2 1-3", free_draw=True)
    assert sorted(deal.stack) == sorted(bits(v.tiles.full & ~(deal.hands[0] | deal.hands[1])))
    block = find_variant("block-2p-d6")
    d = parse_deal(block, "P0: 0-0 0-1 0-2 0-3 0-4 0-5 0-6; P1: 1-1 1-2 1-3 1-4 1-5 1-6 2-2")
    assert d.stack == () and d.set_aside.bit_count() == tile_count(6) - 14


@pytest.mark.parametrize(("text", "message"), [
    ("P0: 0-0 0-1 0-2", "no hand for P1"),
    ("P0: 0-0 0-1 0-2; P1: 1-1 1-2 1-3", "draw order"),
    ("P0: 0-0 0-1 0-2; P1: 1-1 1-2 x", "'x' is not a tile"),
    ("P0: 0-0 0-1 0-4; P1: 1-1 1-2 1-3", "not a tile of the double-3 set"),
    ("P0: 0-0 0-1 0-2; P2: 1-1 1-2 1-3", "no such seat"),
    ("P0: 0-0 0-1; P1: 1-1 1-2 1-3; stack: 0-2 0-3 2-2 2-3 3-3", "hands of [2, 3] tiles"),
    ("P0: 0-0 0-1 0-2; P1: 0-0 1-2 1-3; stack: 1-1 0-3 2-2 2-3", "given twice: [0|0]"),
    ("P0: 0-0 0-1 0-2; Q: 1-1", "unknown label"),
    ("0-0 0-1", "no label"),
])
def test_bad_deals_are_located_errors(text: str, message: str) -> None:
    v = find_variant("tiny-2p-d3")
    with pytest.raises(DominoproofError, match="--deal") as e:
        parse_deal(v, text)
    assert message in str(e.value)


def test_a_set_aside_deal_must_say_which_tiles_are_out_with_free_draw() -> None:
    v = variant("draw-leave2-2p-d6", {"set.max": 3, "deal.hand_size": 3})
    with pytest.raises(DominoproofError, match="set aside"):
        parse_deal(v, "P0: 0-0 0-1 0-2; P1: 1-1 1-2 1-3", free_draw=True)
    d = parse_deal(v, "P0: 0-0 0-1 0-2; P1: 1-1 1-2 1-3; aside: 3-3 2-3", free_draw=True)
    assert d.set_aside.bit_count() == 2 and len(d.stack) == 2
    assert isinstance(d, Deal)
