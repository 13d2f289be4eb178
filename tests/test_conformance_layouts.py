"""Conformance of the layouts and of the matching and scoring rules: the engine against
the plain reference (``tests/reference_layout.py`` reads the slot data on its own terms),
the specification and the kernel on every state of small analogues of each topology
(spinners, trains, chicken feet, doubles that take tiles), on random rounds of full-size
ones, under Matador's matching (R2.1) and where plays score (R5.7); each rule planted
wrong is noticed. The common steps are ``tests/conformance_kit.py``'s (the rest of the
suite: ``tests/test_conformance.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest
from conformance_kit import SMALL, assert_agree, check, configs, sample
from helpers import variant
from reference_rules import ReferenceOracle

from dominoproof.model import MoveKind, State, Status, random_round
from dominoproof.model.fast import engine_for
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init
from dominoproof.model.variant import Variant
from dominoproof.proofs import conformance as c

# ---------------------------------------------------------------------------
# Layouts of several lines: spinners, trains, chicken feet, doubles that take tiles
# ---------------------------------------------------------------------------

#: The new topologies on double-3, 3 tiles each (4 out of play), the highest double
#: leading (a hub, a spinner or a foot needs an opening double). For these layouts the
#: specification's rule book is the engine's (``FastRules`` inlines the line only), so
#: the reference, reading the slot data on its own terms, is the independent oracle.
_D3 = {**SMALL, "lead.rule": "highest-double"}
#: double-2, 2 tiles each, the [2|2] leading: where every feature of a layout's rule is
#: met on far fewer states than double-3's (the comments give both counts)
_D2 = {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}
LAYOUTS: dict[str, tuple[str, dict[str, Any]]] = {
    "spinner-sides-first": ("block-2p-d6", {**_D3, "layout.kind": "spinner"}),
    "spinner-at-once-takes-4": ("block-2p-d6", {
        **_D3, "layout.kind": "spinner", "layout.spinner_sides_first": False,
        "layout.lead_double_takes": 4}),
    "trains": ("block-2p-d6", {**_D3, "layout.kind": "trains"}),
    # double-2 and three seats (1,989 states): a seat plays again on the double it laid
    "trains-covered-again": ("block-2p-d6", {
        **_D3, **_D2, "deal.players": 3, "layout.kind": "trains", "layout.double_takes": 1,
        "layout.double_again": True}),
    # draw one on double-2, 2 tiles each and 2 in the boneyard: every deal in every draw
    # order is 1,670 states (double-3 with 3 each: 576,320, for no feature more)
    "trains-draw-one": ("tiny-2p-d3", {"layout.kind": "trains", "draw.rule": "one",
                                       "lead.rule": "highest-double", **_D2}),
    # R2.3's house rules; three seats, so that a train whose owner's marker is in may be
    # open to a third player whose own marker is out (double-2: 2,019 states)
    "trains-own-marker-out": ("block-2p-d6", {**_D3, **_D2, "deal.players": 3,
                                              "layout.kind": "trains",
                                              "layout.open_trains": "own-marker-out"}),
    "trains-public-after-own": ("block-2p-d6", {**_D3, "layout.kind": "trains",
                                                "layout.public_train": "after-own"}),
    # double-2 (2 tiles each, 2 in the boneyard): every deal in its own draw order stays
    # small (4,826 states) though a player who can play may draw too
    "trains-any-time": ("tiny-2p-d3", {"layout.kind": "trains", "draw.when": "any-time",
                                       "lead.rule": "highest-double", **_D2}),
    "chicken-foot-toes": ("block-2p-d6", {**_D3, "layout.kind": "chicken-foot",
                                          "layout.double_takes": 3}),
    "chicken-foot-lead-takes-4": ("block-2p-d6", {
        **_D3, "layout.kind": "chicken-foot", "layout.lead_double_takes": 4,
        "layout.double_takes": 3}),
    # R3.6 on Chicken Foot's rules (draw one, the top double named, toes): double-3, 4
    # tiles each and 2 in the boneyard (110,708 states; 3 each: 728,765), the centre double
    # taking no tiles first (double-3 has not four of its 3s)
    "chicken-foot-draw-for-root": ("chickenfoot-4p-d9", {
        "set.max": 3, "deal.players": 2, "deal.hand_size": 4, "lead.tile": "3-3",
        "layout.lead_double_takes": 0, "lead.fallback": "draw"}),
    "line-covered": ("block-2p-d6", {**SMALL, **_D2, "layout.double_takes": 1}),
    # R4.4: a confirmation that puts a marker out starts the run again (double-2, three
    # seats: 2,013 states; double-3: 385,242)
    "trains-restart": ("block-2p-d6", {**_D3, **_D2, "layout.kind": "trains",
                                       "deal.players": 3, "block.restart_on_marker": True}),
    "trains-draw-one-restart": ("tiny-2p-d3", {
        "layout.kind": "trains", "draw.rule": "one", "lead.rule": "highest-double",
        "layout.double_takes": 1, "layout.double_again": True,
        "block.restart_on_marker": True, **_D2}),
    # R4.7: a dead end may be called, on trains and on a spinner (double-2, 2 tiles each
    # and 2 in the boneyard: every deal in its own draw order stays small)
    "trains-call": ("tiny-2p-d3", {"layout.kind": "trains", "lead.rule": "highest-double",
                                   "block.call": "dead-end", **_D2}),
    "spinner-call": ("tiny-2p-d3", {"layout.kind": "spinner", "block.call": "dead-end",
                                    **_D2}),
    # R2.2: a double that must be covered is no player's last tile (double-2, three
    # seats: 2,049 and 597 states, where two seats meet no seat playing again)
    "trains-out-covered": ("block-2p-d6", {
        **_D3, **_D2, "deal.players": 3, "layout.kind": "trains", "layout.double_takes": 1,
        "layout.double_again": True, "layout.out_on_double": "covered"}),
    "chicken-foot-out-covered": ("block-2p-d6", {
        **_D3, **_D2, "deal.players": 3, "layout.kind": "chicken-foot",
        "layout.double_takes": 3, "layout.out_on_double": "covered"}),
    "line-out-covered": ("tiny-2p-d3", {"layout.double_takes": 1, **_D2,
                                        "layout.out_on_double": "covered"}),
    # R2.3: a first turn lays tile after tile on one's own train; with doubles to cover
    # (a double laid during a first turn ends it; its player covers it); draw-one
    # (double-2: 1,130 states each, every feature met)
    "trains-first-turn": ("block-2p-d6", {**_D3, **_D2, "layout.kind": "trains",
                                          "layout.first_turn": "own-train"}),
    "trains-first-turn-doubles": ("block-2p-d6", {
        **_D3, **_D2, "layout.kind": "trains", "layout.double_takes": 1,
        "layout.double_again": True, "layout.first_turn": "own-train"}),
    "trains-first-turn-draw-one": ("tiny-2p-d3", {
        "layout.kind": "trains", "draw.rule": "one", "lead.rule": "highest-double",
        **_D2, "layout.first_turn": "own-train"}),
}
#: what each configuration must exercise (see :func:`layout_features`)
FEATURES: dict[str, set[str]] = {
    "spinner-sides-first": {"arm waiting", "side covered", "play on an arm"},
    "spinner-at-once-takes-4": {"pending", "play on an arm"},
    "trains": {"marker out", "marker in", "play on another's train"},
    "trains-covered-again": {"pending", "plays again", "marker out",
                             "play on another's train"},
    "trains-draw-one": {"pass", "marker out", "play on another's train"},
    "trains-own-marker-out": {"marker out", "play opened by one's own marker"},
    "trains-public-after-own": {"public closed: own train not started",
                                "play on the public train"},
    "trains-any-time": {"draw while able", "marker out", "play on another's train"},
    "chicken-foot-toes": {"toe open", "pending"},
    "chicken-foot-lead-takes-4": {"pending"},
    "chicken-foot-draw-for-root": {"draw for the lead", "toe open", "pending", "pass"},
    "line-covered": {"pending"},
    "trains-restart": {"marker out", "run restarted", "play on another's train"},
    "trains-draw-one-restart": {"pass", "marker out", "run restarted", "pending"},
    "trains-call": {"call", "marker out", "play on another's train"},
    "spinner-call": {"call", "arm waiting", "side covered"},
    "trains-out-covered": {"last double refused", "pending", "plays again", "marker out"},
    "chicken-foot-out-covered": {"last double refused", "toe open", "pending"},
    "line-out-covered": {"last double refused", "pending"},
    "trains-first-turn": {"first turn goes on", "first turn ended", "first turn lays on",
                          "marker out", "play on another's train"},
    "trains-first-turn-doubles": {"first turn goes on", "first turn ended",
                                  "first turn lays on", "a double ends a first turn",
                                  "pending"},
    "trains-first-turn-draw-one": {"first turn goes on", "first turn ended", "pass"},
}


def layout_variant(name: str) -> Variant:
    preset, overrides = LAYOUTS[name]
    return variant(preset, overrides)


def layout_features(v: Variant, states: Iterable[State]) -> Counter[str]:
    """What the compared states exercise of the layout's rules (so that no agreement is
    vacuous), read off the engine's layout."""
    from dominoproof.model.layout import CLOSED, Access, Opens, layout_of

    lay, rules, data = layout_of(v), engine_for(v), v.slot_layout
    seen: Counter[str] = Counter()
    for s in states:
        marks = s.marks
        if any(sl.opens is Opens.TOE and s.ends[i] != CLOSED for i, sl in enumerate(data.slots)):
            seen["toe open"] += 1
        if any(lay.covered(marks, i) for i in range(lay.width)):
            seen["side covered"] += 1
        if any(sl.after and s.ends[i] != CLOSED and not lay.may_play(i, s.turn, marks)
               for i, sl in enumerate(data.slots)):
            seen["arm waiting"] += 1
        if lay.pending(marks):
            seen["pending"] += 1
        if any(sl.access is Access.STARTED and s.ends[i] != CLOSED
               and not lay.may_play(i, s.turn, marks) for i, sl in enumerate(data.slots)):
            seen["public closed: own train not started"] += 1
        hand = s.hands[s.turn] if s.status is Status.PLAYING and s.led else 0
        if hand and not hand & (hand - 1) and rules.playable_mask(s, s.turn) == 0 and any(
                lay.shows(s.ends, i) in v.tiles.halves[hand.bit_length() - 1]
                for i in lay.targets(s.ends, s.turn, marks)):
            seen["last double refused"] += 1  # R2.2: out_on_double = "covered"
        first = lay.first_turn(marks)  # R2.3: a first turn going on
        for m, t in rules.successors(s):
            if m.kind is MoveKind.PASS:
                seen["first turn ended" if first else "pass"] += 1
            if m.kind is MoveKind.PLAY and lay.first_turn(t.marks):
                seen["first turn lays on" if first else "first turn goes on"] += 1
            elif first and m.kind is MoveKind.PLAY and m.tile in v.tiles.doubles():
                seen["a double ends a first turn"] += 1
            if m.kind is MoveKind.CONFIRM and s.confirmed and t.confirmed == 1:
                seen["run restarted"] += 1  # R4.4 restart_on_marker
            if m.kind is MoveKind.DRAW and s.led and rules.playable_mask(s, m.player):
                seen["draw while able"] += 1  # R3.5
            if m.kind is MoveKind.ESTABLISH and not rules.block_ready(s):
                seen["call"] += 1  # R4.7
            if m.kind is MoveKind.DRAW and not s.led:
                seen["draw for the lead"] += 1  # R3.6
            if lay.marker_out(t.marks, m.player) and not lay.marker_out(marks, m.player):
                seen["marker out"] += 1
            if m.kind is not MoveKind.PLAY or m.end < 0:
                continue
            slot = data.slots[m.end]
            if slot.owner is not None and slot.owner != m.player:
                seen["play on another's train"] += 1
            if slot.owner == m.player and lay.marker_out(marks, m.player):
                seen["marker in"] += 1
            if slot.owner not in (None, m.player) and not lay.marker_out(marks, slot.owner):
                seen["play opened by one's own marker"] += 1
            if slot.access is Access.STARTED:
                seen["play on the public train"] += 1
            if t.turn == m.player and t.hands[m.player]:
                seen["plays again"] += 1
            if slot.opens is Opens.SPINNER:
                seen["play on an arm"] += 1
    return seen


@pytest.mark.parametrize(("name", "k"), [
    ("spinner-sides-first", 60), ("spinner-at-once-takes-4", 60), ("trains", 60),
    ("trains-covered-again", 60), ("trains-draw-one", 20), ("trains-own-marker-out", 40),
    ("trains-public-after-own", 60), ("trains-any-time", 20), ("trains-call", 40),
    ("spinner-call", 60), ("chicken-foot-toes", 60),
    ("chicken-foot-lead-takes-4", 60), ("chicken-foot-draw-for-root", 20),
    ("line-covered", 60), ("trains-restart", 60),
    ("trains-draw-one-restart", 20), ("trains-out-covered", 60),
    ("chicken-foot-out-covered", 60), ("line-out-covered", 60), ("trains-first-turn", 40),
    ("trains-first-turn-doubles", 40), ("trains-first-turn-draw-one", 20)])
def test_engine_matches_reference_on_each_layout(name: str, k: int) -> None:
    """Engine, specification and reference agree on every state of sampled deals of each
    new topology, and the states exercise what makes that topology what it is."""
    v = layout_variant(name)
    res, states = check(v, configs(sample(v, k, seed=1)))
    assert_agree(res)
    seen = layout_features(v, states)
    assert all(seen[f] > 0 for f in FEATURES[name]), (name, seen)


def _planted(v: Variant, bug: str) -> RuleBook:
    """The engine with one layout rule planted wrong (the reference must notice)."""
    from dominoproof.model.fast import FastRules
    from dominoproof.model.layout import Layout

    rules = FastRules(v)
    lay = Layout(v.slot_layout, v.players)  # the rule book's own, never the shared one
    if bug == "no toes":  # a double laid during play opens no toe
        lay._toes = ()
    elif bug == "sides never covered":  # a spinner's arms wait for ever
        lay.covered = lambda marks, slot: False  # type: ignore[method-assign]
    elif bug == "last double allowed":  # R2.2: out_on_double = "covered" forgotten
        lay.bars_going_out = lambda marks, slot, tile: False  # type: ignore[method-assign]
    elif bug == "canonical forgets marks":  # a group sorted without its slots' marks
        plain = lay.canonical
        lay.canonical = lambda ends, marks=0: (plain(ends, 0)[0], marks)  # type: ignore
    rules.layout = lay
    if bug == "no playing again":
        step = rules.step

        def no_again(s: State, m: Any) -> State:
            t = step(s, m)
            if m.kind is MoveKind.PLAY and t.turn == m.player and t.hands[m.player]:
                return t._replace(turn=(m.player + 1) % v.players)
            return t
        rules.step = no_again  # type: ignore[method-assign]
    return rules


@pytest.mark.parametrize(("bug", "name"), [
    ("no toes", "chicken-foot-toes"), ("sides never covered", "spinner-sides-first"),
    ("canonical forgets marks", "spinner-at-once-takes-4"),
    ("no playing again", "trains-covered-again"),
    ("last double allowed", "trains-out-covered")])
def test_the_reference_notices_a_layout_rule_planted_wrong(bug: str, name: str) -> None:
    """The reference reads each feature itself: toes, covered sides, the marks in the
    canonical form, playing again (markers, pending slots and waiting arms are the
    faults' own: ``test_conformance_reports_each_engine_mutant``)."""
    v = layout_variant(name)
    rules = _planted(v, bug)
    reach = c.reachable_states(v, configs(sample(v, 60, seed=1)), rules=rules)
    res = c.compare(v, reach.states, c.EngineOracle(v, rules), ReferenceOracle(v))
    assert not res.ok, bug
    assert "DISAGREE" in res.describe()


#: Larger layouts, too many states to search: every state of random rounds is compared
LARGER: dict[str, tuple[str, dict[str, Any]]] = {
    "all-fives-like-4p": ("draw-2p-d6", {"layout.kind": "spinner", "deal.players": 4,
                                         "deal.hand_size": 5, "lead.rule": "highest-double"}),
    "sebastopol-like": ("block-2p-d6", {
        "layout.kind": "spinner", "layout.spinner_sides_first": False,
        "layout.lead_double_takes": 4, "deal.players": 4, "lead.rule": "highest-double"}),
    "mexican-train-4p-d9": ("draw-2p-d6", {
        "set.max": 9, "deal.players": 4, "deal.hand_size": 10, "draw.rule": "one",
        "lead.rule": "highest-double", "layout.kind": "trains", "layout.double_takes": 1,
        "layout.double_again": True}),
    "chicken-foot-3p-d9": ("draw-2p-d6", {
        "set.max": 9, "deal.players": 3, "deal.hand_size": 10, "lead.rule": "highest-double",
        "layout.kind": "chicken-foot", "layout.double_takes": 3,
        "layout.lead_double_takes": 4}),
}
LARGER_FEATURES: dict[str, set[str]] = {
    "all-fives-like-4p": {"arm waiting", "side covered", "play on an arm"},
    "sebastopol-like": {"pending", "play on an arm"},
    "mexican-train-4p-d9": {"pass", "marker out", "marker in", "play on another's train",
                            "pending", "plays again"},
    "chicken-foot-3p-d9": {"toe open", "pending"},
}


@pytest.mark.parametrize("name", list(LARGER))
def test_engine_matches_reference_on_random_rounds_of_larger_layouts(name: str) -> None:
    """Every state of random rounds of full-size layouts: the engine's successors and
    classification, the reference's and the specification's named actions agree."""
    preset, overrides = LARGER[name]
    v = variant(preset, overrides)
    states = [s for seed in range(8) for s in random_round(v, seed).states()]
    engine = c.EngineOracle(v)
    res = c.compare(v, states, engine, ReferenceOracle(v))
    res.merge(c.compare(v, states, engine, c.get_oracle("spec", v)))
    assert_agree(res)
    seen = layout_features(v, states)
    assert all(seen[f] > 0 for f in LARGER_FEATURES[name]), (name, seen)


@pytest.mark.parametrize(("bug", "name"), [
    ("no toes", "chicken-foot-3p-d9"), ("sides never covered", "all-fives-like-4p"),
    ("no playing again", "mexican-train-4p-d9")])
def test_random_rounds_notice_a_layout_rule_planted_wrong(bug: str, name: str) -> None:
    """The same comparison on the same random rounds, with the engine's layout rule
    planted wrong: the reference disagrees."""
    preset, overrides = LARGER[name]
    v = variant(preset, overrides)
    states = [s for seed in range(8) for s in random_round(v, seed).states()]
    res = c.compare(v, states, c.EngineOracle(v, _planted(v, bug)), ReferenceOracle(v))
    assert not res.ok, bug
    assert "DISAGREE" in res.describe()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_engine_matches_reference_on_every_deal_of_each_layout(name: str) -> None:
    v = layout_variant(name)
    # draw-one trains: every draw order alike (each boneyard tile equally likely drawn)
    res, states = check(v, Init.every(name in ("trains-draw-one", "trains-draw-one-restart",
                                               "trains-first-turn-draw-one")))
    assert_agree(res)
    seen = layout_features(v, states)
    assert all(seen[f] > 0 for f in FEATURES[name]), (name, seen)


# ---------------------------------------------------------------------------
# R2.1, Matador matching: touching halves sum to N+1, the matadors wild
# ---------------------------------------------------------------------------

#: Matador on small sets, every deal: touching halves sum to N+1 (4 on double-3, 3 on
#: double-2), the matadors (0-0 and the tiles summing to N+1) go on any end
MATADOR: dict[str, tuple[str, dict[str, Any], bool]] = {
    # the block game: double-3, 2 tiles each, 6 set aside, no drawing
    "matador-block-d3": ("block-2p-d6", {**SMALL, "deal.hand_size": 2,
                                         "layout.match": "matador"}, False),
    # the draw game: double-2, 2 tiles each, 2 in the boneyard, any draw order
    "matador-draw-d2": ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2,
                                       "lead.tile": "2-2", "layout.match": "matador"}, True),
    # draw one, fouls penalised, a dead end may be called (R4.7 reads what fits an end)
    "matador-draw-one-call": ("tiny-2p-d3", {
        "set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2", "layout.match": "matador",
        "draw.rule": "one", "fouls.rule": "penalised", "block.call": "dead-end"}, True),
}


def matador_features(v: Variant, states: Iterable[State]) -> Counter[str]:
    """What the compared states exercise of Matador's matching (no vacuous agreement),
    read off the tiles' halves: a play summing to N+1, a matador laid where it sums with
    nothing, a matador offered both ways round (also where a half of it sums to N+1), a
    non-matador held that carries an end's number yet is not offered, a blank end, a
    block."""
    rules, total = engine_for(v), v.set.max + 1
    halves = v.tiles.halves
    seen: Counter[str] = Counter()
    for s in states:
        if s.status is Status.BLOCKED:
            seen["block"] += 1
        if not s.led or s.status is not Status.PLAYING:
            continue
        if 0 in s.open_ends:
            seen["blank end"] += 1
        ways: dict[tuple[int, int], set[int]] = {}
        for m in rules.legal_moves(s):
            if m.kind is MoveKind.PLAY:
                ways.setdefault((m.tile, m.end), set()).add(m.leaves)
        for t in range(v.tiles.count):
            if not s.hands[s.turn] >> t & 1:
                continue
            a, b = halves[t]
            for e, x in enumerate(s.ends):
                summed = total in (a + x, b + x)
                wild = a + b == total or a == b == 0
                if (t, e) in ways:
                    seen["sums to N+1" if summed else "matador wild"] += 1
                    if ways[t, e] == {a, b} and a != b:  # R2.1: turned either way
                        seen["turned" + (" where a half sums" if summed else "")] += 1
                elif x in (a, b) and not wild and not summed:
                    seen["equal number refused"] += 1
    return seen


@pytest.mark.parametrize("name", list(MATADOR))
def test_engine_matches_reference_under_matador_on_every_deal(name: str) -> None:
    """Engine (its inlined line), specification, kernel and reference agree on every
    state of every deal under Matador matching, and the states exercise it."""
    preset, overrides, free = MATADOR[name]
    v = variant(preset, overrides)
    res, states = check(v, Init.every(free))
    assert_agree(res)
    seen = matador_features(v, states)
    assert all(seen[f] > 0 for f in ("sums to N+1", "matador wild", "equal number refused",
                                      "blank end", "block", "turned",
                                      "turned where a half sums")), (name, seen)


def _matador_planted(v: Variant, bug: str) -> RuleBook:
    """The engine with Matador's matching planted wrong (the reference must notice)."""
    from dominoproof.model.fast import FastRules

    rules = FastRules(v)
    if bug == "blank takes a blank":  # an end showing 0 takes any tile carrying a 0
        rules.fits = (rules.fits[0] | v.tiles.suit[0], *rules.fits[1:])
    elif bug == "an end shows as under equal numbers":
        rules._total = 0  # the inlined line's equal reading of what an end shows
    elif bug == "a matador goes on one way only":  # R2.1: not turned: its first play only
        rules._play = [[ms[:1] for ms in row] for row in rules._play]
    return rules


@pytest.mark.parametrize("bug", ["blank takes a blank", "an end shows as under equal numbers",
                                 "a matador goes on one way only"])
def test_the_reference_notices_matador_planted_wrong(bug: str) -> None:
    preset, overrides, _ = MATADOR["matador-block-d3"]
    v = variant(preset, overrides)
    rules = _matador_planted(v, bug)
    reach = c.reachable_states(v, configs(sample(v, 40, seed=1)), rules=rules)
    res = c.compare(v, reach.states, c.EngineOracle(v, rules), ReferenceOracle(v))
    assert not res.ok, bug
    assert "DISAGREE" in res.describe()


# ---------------------------------------------------------------------------
# R5.7, scoring in play: a play scores the ends' count when it is a multiple of 5
# ---------------------------------------------------------------------------

#: Scoring in play on small sets, every deal: Muggins' line and All Fives' spinner
FIVES: dict[str, tuple[str, dict[str, Any], bool]] = {
    # Muggins' line on double-2: 2 tiles each, 2 in the boneyard, seat 0 leads any tile
    "muggins-d2": ("muggins-2p-d6", {"set.max": 2, "deal.hand_size": 2,
                                     "deal.set_aside": 0}, True),
    # the block game on double-3, 2 tiles each, 6 out of play, scoring in play
    "fives-block-d3": ("block-2p-d6", {**SMALL, "deal.hand_size": 2,
                                       "scoring.in_play": "fives"}, False),
    # All Fives' spinner on double-2, 2 tiles each, the 2-2 (else the highest double) leads
    "all-fives-d2": ("all-fives-2p-d6", {"set.max": 2, "deal.hand_size": 2,
                                         "lead.tile": "2-2"}, True),
}


def fives_features(states: Iterable[State]) -> Counter[str]:
    """What the compared states exercise of R5.7 (no vacuous agreement): a play that
    scored, a double counted at an end, a spinner's bare arm, a round that ends with
    points, two ends showing one number that count differently."""
    seen: Counter[str] = Counter()
    for s in states:
        if not s.points:
            continue
        if any(s.points):
            seen["points"] += 1
            if s.status is not Status.PLAYING:
                seen["ended with points"] += 1
        if 2 in s.weights:
            seen["double at an end"] += 1
        if any(w == 0 and x >= 0 for x, w in zip(s.ends, s.weights, strict=True)):
            seen["bare arm"] += 1
        shown = [(x, w) for x, w in zip(s.ends, s.weights, strict=True) if x >= 0 and w]
        if len({x for x, _ in shown}) < len(shown) and len(set(shown)) == len(shown):
            seen["one number, two counts"] += 1
    return seen


@pytest.mark.parametrize("name", list(FIVES))
def test_engine_matches_reference_when_plays_score_on_every_deal(name: str) -> None:
    """Engine, specification and reference agree on every state of every deal where
    plays score (R5.7): the points and the ends' weights are part of each successor, and
    the final scores add the points; the kernel is an oracle too (the points and the
    weights in its frame). The states exercise the rule."""
    preset, overrides, free = FIVES[name]
    v = variant(preset, overrides)
    assert v.scoring.in_play.value == "fives"
    res, states = check(v, Init.every(free))
    assert_agree(res)
    seen = fives_features(states)
    want = ["points", "ended with points", "double at an end",
            *{"muggins-d2": ["one number, two counts"], "all-fives-d2": ["bare arm"]}.get(
                name, [])]
    assert all(seen[f] > 0 for f in want), (name, seen)


@pytest.mark.parametrize("name", ["muggins-d2", "all-fives-d2"])
def test_engine_matches_z3_where_plays_score(name: str) -> None:
    """The Z3 relation states R5.7: on every deal, every successor is compared with its
    points and the ends' weights, two equal ends counting differently being two moves,
    and its reading of R5 adds the state's points to the award. The states exercise the
    rule."""
    preset, overrides, free = FIVES[name]
    v = variant(preset, overrides)
    reach = c.reachable_states(v, Init.every(free))  # every deal: 929 and 710 states
    res = c.compare(v, reach.states, c.EngineOracle(v), c.get_oracle("z3", v))
    assert res.ok, res.describe()
    assert res.terminal > 0
    seen = fives_features(reach.states)
    assert all(seen[f] > 0 for f in ("points", "ended with points", "double at an end",
                                     "one number, two counts")), seen


def test_the_reference_notices_plays_scored_wrong() -> None:
    """The fault fives-any-count (a play scores the count whatever it is) disagrees
    with the reference on every deal of Muggins' small line."""
    from dominoproof.proofs.mutants import ENGINE_MUTANTS

    preset, overrides, _ = FIVES["muggins-d2"]
    v = variant(preset, overrides)
    rules = ENGINE_MUTANTS["fives-any-count"](v)
    reach = c.reachable_states(v, configs(sample(v, 20, seed=1)), rules=rules)
    res = c.compare(v, reach.states, c.EngineOracle(v, rules), ReferenceOracle(v))
    assert not res.ok
    assert "points" in res.describe()
