"""The actions of the abstract round (docs/SEMANTICS.md, guards 1-8 in order).

Each action is a guard over the state before and an effect giving the state after
(:class:`~.vocabulary.Action`). The variant's rules choose which actions exist
(``draw`` and ``pass`` by the draw rule, R3.1; ``foul`` where fouls are penalised,
R4.5) and their guards (R4.4's confirmations and boneyard check, read by the model).
The pieces the fault twins reuse (:func:`confirm_effect`, :func:`playable_guard`,
:func:`stuck_guard`) are module functions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.moves import MoveKind
from dominoproof.model.variant import DrawRule

from .vocabulary import (
    Action,
    AState,
    Effect,
    Expr,
    Formula,
    Guard,
    add1,
    add2,
    remove1,
    remove2,
)

if TYPE_CHECKING:
    from .model import AbstractModel

#: What an effect returns: extra constraints, the post-state, fresh constants by name.
Outcome = tuple[list[Formula], AState, dict[str, Expr]]


def build(m: AbstractModel) -> list[Action]:
    """The actions of ``m``'s rules, in the guard order of SEMANTICS.md."""
    v = m.v
    true = v.bool(True)
    acts = [
        Action("domino", MoveKind.DOMINO, ("Terms",),
               "guard 2: the mover's hand is empty: the round ends by a domino",
               (), lambda s, _: (z3.And(m.live(s), z3.Not(m.has_tile(s, s.turn))), true),
               lambda s, _, __: ([], dataclasses.replace(s, domino=true), {})),
        Action("establish", MoveKind.ESTABLISH, ("R4.4", "R5.1"),
               "guard 3: block_ready: the block is established",
               (), lambda s, _: (z3.And(m.live(s), m.has_tile(s, s.turn), m.ready(s)), true),
               lambda s, _, __: ([], dataclasses.replace(s, blocked=true), {})),
        *([Action("call", MoveKind.ESTABLISH, ("R4.7",),
                  "after guard 3, beside the guard that decides: an open end shows a number "
                  "every tile of which is on the table: the mover calls the block",
                  (("e", v.end), ("x", v.value)),
                  lambda s, xs: (z3.And(m.moving(s), s.opened),
                                 z3.And(s.shows(xs[0], xs[1]), m.dead(s, xs[1]))),
                  lambda s, _, __: ([], dataclasses.replace(s, blocked=true), {}))]
          if m.CALL else []),
        Action("lead", MoveKind.PLAY, ("Terms",),
               "guard 4: no open end yet: the mover leads with a tile of their hand",
               (("t", v.tile), ("a", v.value), ("b", v.value)),
               _lead_guard(m), _lead_effect(m)),
        Action("play", MoveKind.PLAY, ("R2.1", "R2.3", "R4.3"),
               "guard 5: the mover lays a tile carrying the number an end they may play "
               "on shows (not, where out_on_double is \"covered\", a last tile that is a "
               "double left waiting); that end then shows the tile's other number",
               (("t", v.tile), ("e", v.end), ("x", v.value), ("y", v.value)),
               _play_guard(m), _play_effect(m)),
    ]
    if m.SEEKS:
        acts.append(Action(
            "lead_draw", MoveKind.DRAW, ("R3.6",),
            "guard 4, fallback draw: before the lead the mover draws a tile from the "
            "boneyard, then keeps the turn (they drew the named tile and lead next) or "
            "passes it (the lead abstracted: which tile is named is not stated)",
            (("t", v.tile),),
            lambda s, xs: (z3.And(m.moving(s), z3.Not(s.opened)), s.in_boneyard(xs[0])),
            _lead_draw_effect(m)))
    if m.fouls_possible:
        acts.append(Action(
            "foul", MoveKind.CONFIRM, ("R4.5",),
            "guard 5, fouls penalised: a false declaration of inability, recorded as "
            "a foul; it breaks the run", (("t", v.tile), ("e", v.end), ("x", v.value)),
            playable_guard(m, need_empty=True, first_foul=True), _foul_effect(m)))
    if m.DRAW is not DrawRule.NONE and m.ANY_TIME:
        acts.append(Action(
            "draw", MoveKind.DRAW, ("R3.1", "R3.5"),
            "guards 5 and 6, any time: the mover, stuck or not, draws a tile from the "
            "boneyard (any tile: every draw order)", (("t", v.tile),),
            lambda s, xs: (z3.And(m.moving(s), s.opened, z3.Not(s.drew)),
                           s.in_boneyard(xs[0])),
            _draw_effect(m)))
    elif m.DRAW is not DrawRule.NONE:
        acts.append(Action(
            "draw", MoveKind.DRAW, ("R3.1",),
            "guard 6: a stuck mover draws a tile from the boneyard (any tile: every "
            "draw order)", (("t", v.tile),),
            lambda s, xs: (z3.And(stuck_guard(m, s), z3.Not(s.drew)), s.in_boneyard(xs[0])),
            _draw_effect(m)))
    if m.DRAW is DrawRule.ONE:
        acts.append(Action(
            "pass", MoveKind.PASS, ("R3.1",),
            "guard 7: draw-one, drawn and still stuck: the turn passes", (),
            lambda s, _: (z3.And(stuck_guard(m, s), z3.Not(m.bone_empty(s)), s.drew), true),
            _pass_effect(m)))
    acts.append(Action(
        "confirm", MoveKind.CONFIRM, ("R4.1", "R4.2"),
        "guard 8: stuck with the boneyard empty: the mover confirms (the first of a "
        "run proposes the block)", (),
        lambda s, _: (z3.And(stuck_guard(m, s), m.bone_empty(s)), true), confirm_effect(m)))
    return acts


# -- Pieces shared by several actions (and by the fault twins) -------------------------


def next_seat(m: AbstractModel, s: AState, tag: str) -> tuple[Formula, Expr]:
    """A fresh seat ``n`` with ``succ(turn, n)``: the turn passes clockwise."""
    n = z3.Const(f"{tag}.next", m.v.player)
    return m.succ(s.turn, n), n


def stuck_guard(m: AbstractModel, s: AState) -> Formula:
    """Guards 6-8: the round is on after the lead and the mover cannot play."""
    return z3.And(m.moving(s), s.opened, m.stuck(s, s.turn))


def playable_guard(m: AbstractModel, *, need_empty: bool, first_foul: bool) -> Guard:
    """Guard 5 with a tile ``t`` the mover could play on end ``e`` showing ``x``: the
    premise of a false declaration (R4.5)."""
    def guard(s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
        t, e, x = xs
        parts = [m.moving(s), s.opened]
        if need_empty:
            parts.append(m.bone_empty(s))
        if first_foul:
            parts.append(z3.Not(s.fouls(s.turn)))
        return z3.And(*parts), z3.And(s.holds(s.turn, t), m.v.carries(t, x), s.shows(e, x),
                                      m.may_play_now(s, s.turn, e),
                                      *m.not_going_out(s, s.turn, t, e))
    return guard


def after_play(m: AbstractModel, s: AState, tag: str, post: AState,
               again: Formula | None = None) -> Outcome:
    """A play passes the turn clockwise, unless the hand is now empty (a domino
    follows) or ``again`` holds (the player of a double that takes tiles plays again,
    where the layout says so, R2.2); the run of confirmations and the draw-one flag are
    reset."""
    nxt_ok, nxt = next_seat(m, s, tag)
    turn2 = z3.Const(f"{tag}.turn'", m.v.player)
    left = m.has_tile(post, s.turn)
    passes = left if again is None else z3.And(left, z3.Not(again))
    pick = z3.Or(z3.And(passes, turn2 == nxt), z3.And(z3.Not(passes), turn2 == s.turn))
    post = dataclasses.replace(post, turn=turn2, drew=m.v.bool(False),
                               confirmed=lambda p: m.v.bool(False))
    return [nxt_ok, pick], post, {"next": nxt, "turn'": turn2}


def turn_passes(m: AbstractModel, s: AState, tag: str, **changes: Any) -> Outcome:
    """The turn passes clockwise, the run of confirmations is broken and the draw-one flag
    reset (a foul, a pass that does not count), with ``changes``."""
    nxt_ok, nxt = next_seat(m, s, tag)
    post = dataclasses.replace(s, turn=nxt, drew=m.v.bool(False),
                               confirmed=lambda p: m.v.bool(False), **changes)
    return [nxt_ok], post, {"next": nxt}


def confirm_effect(m: AbstractModel) -> Effect:
    """The mover joins the run (the first one proposes the block) and the turn passes
    clockwise (R4.1, R4.2)."""
    def effect(s: AState, xs: Sequence[Expr], tag: str) -> Outcome:
        nxt_ok, nxt = next_seat(m, s, tag)
        prop2 = z3.Const(f"{tag}.proposer'", m.v.player)
        run = m.run_started(s)
        pick = z3.Or(z3.And(run, prop2 == s.proposer), z3.And(z3.Not(run), prop2 == s.turn))
        post = dataclasses.replace(s, confirmed=add1(s.confirmed, s.turn), proposer=prop2,
                                   turn=nxt, drew=m.v.bool(False))
        return [nxt_ok, pick], post, {"next": nxt, "proposer'": prop2}
    return effect


# -- The guards and effects of single actions ------------------------------------------


def _lead_guard(m: AbstractModel) -> Guard:
    def guard(s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
        t, a, b = xs
        return (z3.And(m.moving(s), z3.Not(s.opened)),
                z3.And(s.holds(s.turn, t), m.other_half(t, a, b)))
    return guard


def _lead_effect(m: AbstractModel) -> Effect:
    """The lead's slots show the tile's halves (an opening double also opens the
    spinner's arms); where the opening double takes tiles, every slot it opened is
    pending (R2.2)."""
    def effect(s: AState, xs: Sequence[Expr], tag: str) -> Outcome:
        t, a, b = xs
        post = dataclasses.replace(
            s, holds=remove2(s.holds, s.turn, t), on_table=add1(s.on_table, t),
            shows=m.layout.lead_shows(a, b), opened=m.v.bool(True))
        if m.layout.data.lead_takes:
            post = dataclasses.replace(
                post, pending=lambda f: z3.And(a == b, m.layout.lead_opens(f, a, b)))
        return after_play(m, s, tag, post)
    return effect


def _lead_draw_effect(m: AbstractModel) -> Effect:
    """R3.6: the tile goes to the mover's hand; the turn stays or passes clockwise (a
    free choice: whether the tile is the one the lead rule names is not stated);
    ``drew`` is unchanged (a draw for the lead is no turn's draw)."""
    def effect(s: AState, xs: Sequence[Expr], tag: str) -> Outcome:
        t = xs[0]
        nxt_ok, nxt = next_seat(m, s, tag)
        turn2 = z3.Const(f"{tag}.turn'", m.v.player)
        post = dataclasses.replace(s, holds=add2(s.holds, s.turn, t),
                                   in_boneyard=remove1(s.in_boneyard, t), turn=turn2)
        return [nxt_ok, z3.Or(turn2 == s.turn, turn2 == nxt)], post, {"next": nxt,
                                                                    "turn'": turn2}
    return effect


def _play_guard(m: AbstractModel) -> Guard:
    def guard(s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
        t, e, x, y = xs
        return (z3.And(m.moving(s), s.opened),
                z3.And(s.holds(s.turn, t), s.shows(e, x), m.may_play_now(s, s.turn, e),
                       m.other_half(t, x, y), *m.not_going_out(s, s.turn, t, e)))
    return guard


def _play_effect(m: AbstractModel) -> Effect:
    """The slot played on shows the tile's other number and is covered; a double laid
    on a slot whose doubles take tiles, with no other slot pending, makes that slot
    pending, else the slot played on is no longer pending (R2.2); where the layout says
    so, the player of such a double plays again."""
    lay = m.layout

    def effect(s: AState, xs: Sequence[Expr], tag: str) -> Outcome:
        t, e, _, y = xs
        post = dataclasses.replace(
            s, holds=remove2(s.holds, s.turn, t), on_table=add1(s.on_table, t),
            shows=lambda f, w: z3.If(f == e, w == y, s.shows(f, w)))
        if m.waits:
            post = dataclasses.replace(post, covered=add1(s.covered, e))
        again = None
        if m.doubles:
            takes = z3.And(m.v.double(t), lay.among(e, lay.takers))

            def rest(f: Expr) -> Formula:
                return z3.And(s.pending(f), f != e)
            new = z3.And(takes, z3.Not(lay.any_pending(rest)))
            post = dataclasses.replace(post, pending=lambda f: z3.If(new, f == e, rest(f)))
            if lay.data.again:
                again = takes
        return after_play(m, s, tag, post, again)
    return effect


def _foul_effect(m: AbstractModel) -> Effect:
    return lambda s, xs, tag: turn_passes(m, s, tag, fouls=add1(s.fouls, s.turn))


def _draw_effect(m: AbstractModel) -> Effect:
    def effect(s: AState, xs: Sequence[Expr], tag: str) -> Outcome:
        t = xs[0]
        post = dataclasses.replace(s, holds=add2(s.holds, s.turn, t),
                                   in_boneyard=remove1(s.in_boneyard, t),
                                   drew=m.v.bool(m.DRAW is DrawRule.ONE))
        return [], post, {}
    return effect


def _pass_effect(m: AbstractModel) -> Effect:
    def effect(s: AState, xs: Sequence[Expr], tag: str) -> Outcome:
        if m.EMPTY:
            return turn_passes(m, s, tag)
        return confirm_effect(m)(s, xs, tag)  # a pass counts as a confirmation
    return effect
