"""The round as a Z3 transition system: the declarative reading of docs/SEMANTICS.md.

This module and its parts -- ``proofs/z3/vocabulary.py`` (the variables, the constants,
concrete states in and out), ``proofs/z3/predicates.py`` (the sets, the predicates of
RULES.md, the lead) and ``proofs/z3/layout_terms.py`` (the layout's part of the actions)
-- are written from SEMANTICS.md alone, independently
of the engine's code (``model/rules.py``): the two readings of the rules catch each
other's mistakes (``tests/test_crosscheck_z3.py``, ``proofs/conformance.py``, whose "z3"
oracle is ``proofs/z3/successors.py``). They use the model's data types (tile numbering,
:class:`State`, :class:`Move`, the :class:`Variant`) and nothing of the engine's logic.

``Init`` is a deal (any deal, or a given :class:`Deal`); the actions are one
method each (:meth:`Encoding.actions`), each the conjunction of its guard case
in the SEMANTICS order (the first guard that applies decides the enabled moves)
and its effect with every unchanged variable stated (``UNCHANGED``). ``T`` is
their disjunction.

Draw order. With a free order (the natural symbolic reading) a draw takes any
boneyard tile; this over-approximates every fixed stack, and a symbolic trace
decodes into a real deal whose stack is the order the tiles were drawn in. With
a fixed order (:class:`Encoding` built with ``stack=``), the state counts the
tiles drawn and only the top of the stack may be drawn.

The vocabulary's names are importable from here too (one import for the modules that
use the relation).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

import z3  # type: ignore[import-untyped]

from dominoproof.model.state import Deal, State, Status
from dominoproof.model.variant import DrawRule, FoulRule, Variant
from dominoproof.proofs.z3 import fives_terms
from dominoproof.proofs.z3.layout_terms import LayoutTerms
from dominoproof.proofs.z3.predicates import Predicates
from dominoproof.proofs.z3.terms import And, Or
from dominoproof.proofs.z3.vocabulary import (
    BLOCKED,
    BV,
    CLOSED_CODE,
    CONFIRM,
    COUNT_BITS,
    DOMINO,
    DOMINO_MOVE,
    DRAW,
    ESTABLISH,
    LEAD_CODE,
    LOC_BITS,
    NOWHERE,
    PASS,
    PLAY,
    PLAYING,
    SEAT_BITS,
    STATUS_BITS,
    STUTTER,
    TILE_BITS,
    Bool,
    MoveVars,
    StateVars,
    Vocabulary,
    count_is,
    popcount,
    xor_all,
)

Step: TypeAlias = tuple[Any, StateVars]  #: (guard, post-state terms) of an action


@dataclass
class Encoding:
    """The transition system of one variant (SEMANTICS.md), as Z3 formulas: Init, the
    named actions, ``T``. It has a :class:`Vocabulary` (``v``: the variables, the
    constants, their views and concrete states in and out: ``enc.v.P``,
    ``enc.v.state(...)``), built from the same three arguments, and two parts stated over
    it: the :class:`Predicates` (``preds``) and the :class:`LayoutTerms` (``layout``).

    The fault twins (``proofs/z3/encoding_faults.py``) override single actions, or build
    the encoding with another part (:attr:`vocabulary`, :attr:`predicates`,
    :attr:`layout_terms`).
    """

    variant: Variant
    stack: tuple[int, ...] | None = None  #: a fixed draw order (top first), or free
    quotient: bool = False  #: the relation modulo symmetry (:attr:`Vocabulary.quotient`)

    vocabulary: ClassVar[type[Vocabulary]] = Vocabulary
    predicates: ClassVar[type[Predicates]] = Predicates
    layout_terms: ClassVar[type[LayoutTerms]] = LayoutTerms
    may_draw_aside: ClassVar[bool] = False  #: a twin that draws set-aside tiles

    def __post_init__(self) -> None:
        self.v = self.vocabulary(self.variant, self.stack, self.quotient)
        self.preds = self.predicates(self.v)
        self.layout = self.layout_terms(self.v, self.preds)

    # -- Init -------------------------------------------------------------------
    def conservation(self, s: StateVars) -> Bool:
        """Every tile is in a hand, the boneyard, set aside or on the table (the partition of
        the set is structural: one place per tile)."""
        return And([self.v.somewhere(s, t) for t in range(self.v.T)])

    def init(self, s: StateVars, deal: Deal | None = None) -> Bool:
        """Init: the state right after a deal (any deal, or ``deal``) [SEMANTICS "Init"]."""
        cs: list[Bool] = [*(x == CLOSED_CODE for x in s.ends), s.confirmed == 0,
                          z3.Not(s.drew), s.fouls == 0, s.status == PLAYING]
        if s.marks is not None:
            cs.append(s.marks == 0)
        cs += [x == 0 for x in (*s.points, *s.weights)]  # R5.7: nobody has scored
        if deal is None:
            cs += [self.conservation(s), self.v.nothing_on_table(s)]
            for place, k in [*((p, self.v.H) for p in range(self.v.P)),
                             (self.v.BONEYARD, self.v.B), (self.v.ASIDE, self.v.K)]:
                cs.append(count_is([x == place for x in s.loc], k))
        else:
            stock = 0
            for t in deal.stack:
                stock |= 1 << t
            places = self.v.places(State(deal.hands, stock, deal.set_aside, 0, (), 0, 0, False,
                                       0, Status.PLAYING, None))
            cs += [x == w for x, w in zip(s.loc, places, strict=True)]
        if s.drawn is not None:
            cs.append(s.drawn == 0)
        cs += [z3.Not(self.preds.lead_choice(s).void), self.initial_turn(s)]
        return And(cs)

    def initial_turn(self, s: StateVars) -> Bool:
        """Init's ``turn``: the leader of the hands of ``s``."""
        return self.preds.is_leader(s, s.turn)

    # -- the actions (SEMANTICS "Actions") ---------------------------------------
    def cases(self, s: StateVars) -> dict[str, Bool]:
        """The guard cases in the SEMANTICS order: each is its guard and no earlier one.

        Keys: ``domino``, ``establish``, ``first`` (3': a first turn going on, R2.3),
        ``lead-draw`` (4, where the players draw for the lead, R3.6; false, and no guard of
        the list, where they never do), ``lead``, ``play``, ``draw``, ``pass``, ``confirm``
        (2..8 of the list; 1, a finished round, has no move); and
        ``draw-instead``: case 5 where a player who can play may draw too (R3.5), with
        stock left and not drawn this turn (false unless ``[draw] when = "any-time"``);
        ``call``: after case 3, where a dead end may be called, an open end is dead (R4.7:
        offered beside the case that decides; false unless ``[block] call = "dead-end"``)."""
        key = ("cases", s.name)
        if key in self.v._cache:
            return self.v._cache[key]  # type: ignore[no-any-return]
        bone = z3.Not(self.v.boneyard_empty(s))
        seek = ([("lead-draw", And(z3.Not(s.led), self.preds.lead_choice(s).draws))]
                if self.preds.seeks() else [])
        first = self.v.first_turns and self.v.fields.first >= 0  # R2.3: where it applies
        guards = [
            ("domino", self.v.hand_empty(s, s.turn)),
            ("establish", self.preds.block_ready(s)),
            *([("first", self.v.first_turn(s))] if first else []),
            *seek,
            ("lead", z3.Not(s.led)),
            ("play", self.play_guard(s)),
            ("draw", And(bone, z3.Not(s.drew)) if self.v.DRAW is not DrawRule.NONE
             else z3.BoolVal(False)),
            ("pass", bone),
            ("confirm", z3.BoolVal(True)),
        ]
        out: dict[str, Bool] = {"lead-draw": z3.BoolVal(False)}
        earlier = [s.status == PLAYING]
        for name, g in guards:
            out[name] = And(*earlier, g)
            earlier.append(z3.Not(g))
        if not first:
            out["first"] = z3.BoolVal(False)
        out["draw-instead"] = (And(out["play"], bone, z3.Not(s.drew))
                               if self.v.ANY_TIME and self.v.DRAW is not DrawRule.NONE
                               else z3.BoolVal(False))
        # R4.7: after cases 1-3 (the round on, a hand to play from, no block ready)
        out["call"] = (And(s.status == PLAYING, z3.Not(self.v.hand_empty(s, s.turn)),
                           z3.Not(self.preds.block_ready(s)), self.preds.dead_end(s))
                       if self.v.CALL else z3.BoolVal(False))
        self.v._cache[key] = out
        return out

    def play_guard(self, s: StateVars) -> Bool:
        """Case 5's guard: the player to move can play [R2.1, R2.3]."""
        return self.preds.can_play(s, s.turn)

    def in_play_scores(self, count: BV) -> Bool:
        """R5.7: a play leaving the layout's count ``count`` scores it: a multiple of 5."""
        return z3.URem(count, z3.BitVecVal(self.v.FIVES, count.size())) == 0

    def update(self, s: StateVars, tag: str, **changes: Any) -> StateVars:
        """The post-state as terms: ``s`` with ``changes`` (tile places as ``loc=(...)``),
        every other variable UNCHANGED. ``tag`` names it (formula caches key on names)."""
        if "loc" in changes:
            changes["loc"] = tuple(changes["loc"])
        return dataclasses.replace(s, name=f"{s.name}>{tag}", **changes)

    def same(self, post: StateVars, s2: StateVars) -> Bool:
        """The state variables ``s2`` equal the post-state terms ``post``."""
        new = post.fields()
        return And([v2 == new[k] for k, v2 in s2.fields().items()])

    def step_domino(self, s: StateVars, m: MoveVars) -> Step:
        """2. The player to move has emptied their hand: Domino(p), ``status' = DOMINO``."""
        return (And(self.cases(s)["domino"], m.kind == DOMINO_MOVE, self.preds.no_tile(m)),
                self.update(s, f"domino.{m.name}",
                            status=z3.BitVecVal(DOMINO, STATUS_BITS)))

    def step_establish(self, s: StateVars, m: MoveVars) -> Step:
        """3. ``block_ready``: Establish(p), ``status' = BLOCKED`` [R4.4, R5.1]; and where a
        dead end may be called, at one: the call, the same move and effect [R4.7]."""
        c = self.cases(s)
        guard = Or(c["establish"], c["call"]) if self.v.CALL else c["establish"]
        return (And(guard, m.kind == ESTABLISH, self.preds.no_tile(m)),
                self.update(s, f"establish.{m.name}",
                            status=z3.BitVecVal(BLOCKED, STATUS_BITS)))

    def after_play(self, s: StateVars, m: MoveVars, tag: str, ends: tuple[BV, ...],
                   marks: BV | None = None, again: Bool | None = None,
                   weights: list[BV] | None = None) -> StateVars:
        """The common effect of a play (and the lead) of ``m.tile`` with new slot values
        ``ends`` (and marks ``marks``, where the layout has them): the tile leaves the hand
        for the table, ``confirmed' = 0``, ``drew' = false``, and the turn stays with a
        player who emptied their hand (a Domino follows) or who plays ``again`` [R2.2].
        Where plays score [R5.7], the slots weigh ``weights`` and the mover scores the
        count when it is a multiple of 5 (:mod:`.fives_terms`)."""
        p = s.turn
        emptied = self.preds.empties_hand(s, m)
        stays = emptied if again is None else Or(emptied, again)
        extra: dict[str, Any] = {} if marks is None else {"marks": marks}
        if weights is not None:
            extra.update(weights=tuple(weights),
                         points=fives_terms.scored_points(self, s, tuple(ends), weights))
        return self.update(
            s, f"{tag}.{m.name}", loc=self.preds.moved(s, m, self.v.TABLE), ends=tuple(ends),
            confirmed=z3.BitVecVal(0, COUNT_BITS), drew=z3.BoolVal(False),
            turn=z3.If(stays, p, self.preds.next_seat(p)), **extra)

    def lead_allowed(self, s: StateVars, m: MoveVars) -> Bool:
        """The lead rule allows ``m.tile``: the named tile, or any tile if none is named."""
        lead = self.preds.lead_choice(s)
        return And([z3.Implies(c, m.tile == t) for t, c in lead.chosen.items()])

    def step_lead(self, s: StateVars, m: MoveVars) -> Step:
        """4. no slot open: Play(p, t, LEAD) for the tile(s) the lead rule allows; the slots
        the lead opens show the halves of ``t = a-b`` (:meth:`opening`)."""
        weights = fives_terms.lead_weights(self.v) if self.v.FIVES else None  # R5.7
        ends, marks = (self.layout.opening(s, m, weights) if weights is not None
                       else self.layout.opening(s, m))
        return (And(self.cases(s)["lead"], m.kind == PLAY, m.end == LEAD_CODE,
                    self.preds.tile_ok(m), self.preds.tile_at(s, m, s.turn),
                    self.lead_allowed(s, m)),
                self.after_play(s, m, "lead", ends, marks, weights=weights))

    def step_lead_draw(self, s: StateVars, m: MoveVars, top: BV | None = None) -> Step:
        """4'. no slot open, nobody holds the tile the lead rule names, fallback "draw"
        [R3.6]: Draw(p, t) for ``t`` in the boneyard (the top of the stack when the order
        is fixed): the tile moves to the hand, ``drew`` stays false, and the turn passes
        unless ``t`` is a tile the lead rule names (its drawer leads next)."""
        top = top if top is not None else self.draw_top(s)
        extra: dict[str, Any] = {} if s.drawn is None else {"drawn": s.drawn + 1}
        named = Or([m.tile == t for t in self.preds.named_tiles()])
        return (And(self.cases(s)["lead-draw"], m.kind == DRAW, self.preds.tile_ok(m),
                    m.end == LEAD_CODE, self.preds.tile_at(s, m, self.v.BONEYARD),
                    m.tile == top if top is not None else z3.BoolVal(True)),
                self.update(s, f"lead-draw.{m.name}", loc=self.preds.moved(s, m, s.turn),
                            turn=z3.If(named, s.turn, self.preds.next_seat(s.turn)), **extra))

    def step_play(self, s: StateVars, m: MoveVars) -> Step:
        """5. Play(p, t, slot) for every playable ``t`` and every slot ``p`` may play on now
        whose number ``t`` carries [R2.1, R4.3], but not a last tile that is a double left
        to wait there [R2.2]; the layout's effect is :meth:`played`."""
        x = self.layout.shown(s, m.end)
        weights = fives_terms.play_weights(self.v, s, m) if self.v.FIVES else None  # R5.7
        ends, marks = (self.layout.played(s, m, weights) if weights is not None
                       else self.layout.played(s, m))
        again, going = self.layout.plays_again(m), self.layout.first_goes_on(s, m)
        if going is not None:  # R2.3: a first turn going on keeps the turn too
            again = going if again is None else Or(again, going)
        return (And(self.cases(s)["play"], m.kind == PLAY, self.preds.tile_ok(m),
                    self.layout.offered(s, m), self.v.fits_move(m, x),
                    self.preds.tile_at(s, m, s.turn),
                    *([z3.Not(self.layout.goes_out_waiting(s, m))] if self.v.cover_out else [])),
                self.after_play(s, m, "play", ends, marks, again, weights))

    def step_lay_on(self, s: StateVars, m: MoveVars) -> Step:
        """3'. A first turn going on [R2.3]: Play(p, t, slot) as in 5, on ``p``'s own train
        only; the same effect (an action only where first turns lay several tiles)."""
        x = self.layout.shown(s, m.end)
        return (And(self.cases(s)["first"], m.kind == PLAY, self.preds.tile_ok(m),
                    self.v.own_train(s.turn, m), self.layout.offered(s, m),
                    self.v.fits_move(m, x), self.preds.tile_at(s, m, s.turn),
                    *([z3.Not(self.layout.goes_out_waiting(s, m))] if self.v.cover_out else [])),
                self.step_play(s, m)[1])

    def step_end_turn(self, s: StateVars, m: MoveVars) -> Step:
        """3'. A first turn going on [R2.3]: Pass(p) ends it: ``turn' = p+1``, the first-turn
        mark cleared; no marker goes out, ``confirmed`` and ``drew`` unchanged."""
        bits = self.layout.mark_bits(s)
        assert bits is not None
        bits[self.v.fields.first] = z3.BoolVal(False)
        return (And(self.cases(s)["first"], m.kind == PASS, self.preds.no_tile(m)),
                self.update(s, f"end.{m.name}", turn=self.preds.next_seat(s.turn),
                            marks=self.layout.word(bits)))

    def step_foul(self, s: StateVars, m: MoveVars) -> Step:
        """5'. Where fouls are penalised, the boneyard is empty and ``p`` has no foul yet:
        Confirm(p) by a player who can play, a false declaration [R4.5]:
        ``fouls' = fouls + p``, ``confirmed' = 0``, ``turn' = p+1``, ``drew' = false``.

        SEMANTICS lists no ``drew'`` here, so "unchanged" would leave the next player
        "having drawn" after a foul by a player who drew the last tile (draw-one). The
        cross-check with the engine found the difference; ``drew`` means "the player to
        move has drawn this turn", and every other move that passes the turn clears it,
        so this reading clears it too (SEMANTICS should say so)."""
        bit = self.preds.seat_bit(s.turn)
        post = self.update(s, f"foul.{m.name}", fouls=s.fouls | bit,
                           confirmed=z3.BitVecVal(0, COUNT_BITS), turn=self.preds.next_seat(s.turn),
                           drew=z3.BoolVal(False), **self.marker_change(s))
        if self.v.FOULS is not FoulRule.PENALISED:
            return z3.BoolVal(False), post
        return (And(self.cases(s)["play"], self.v.boneyard_empty(s), (s.fouls & bit) == 0,
                    m.kind == CONFIRM, self.preds.no_tile(m)), post)

    def draw_top(self, s: StateVars) -> BV | None:
        """The tile a fixed draw order allows (the top of the stack), or None (free)."""
        if self.stack is None or not self.stack:
            return None
        assert s.drawn is not None
        top = z3.BitVecVal(self.stack[-1], TILE_BITS)
        for i in range(len(self.stack) - 2, -1, -1):
            top = z3.If(s.drawn == i, z3.BitVecVal(self.stack[i], TILE_BITS), top)
        return top

    def step_draw(self, s: StateVars, m: MoveVars, top: BV | None = None) -> Step:
        """6. Draw(p, t) [R3.1] for ``t`` in the boneyard (the top of the stack when the order
        is fixed), and in case 5 where ``[draw] when = "any-time"`` [R3.5]: the tile moves
        to the hand, ``drew' = (DRAW = one)``."""
        top = top if top is not None else self.draw_top(s)
        extra: dict[str, Any] = {}
        if s.drawn is not None:
            extra["drawn"] = s.drawn + 1
        c = self.cases(s)  # R3.5: where a player who can play may draw too, case 5 as well
        guard = Or(c["draw"], c["draw-instead"]) if self.v.ANY_TIME else c["draw"]
        return (And(guard, m.kind == DRAW, self.preds.tile_ok(m),
                    m.end == LEAD_CODE, self.preds.tile_at(s, m, self.v.BONEYARD),
                    m.tile == top if top is not None else z3.BoolVal(True)),
                self.update(s, f"draw.{m.name}", loc=self.preds.moved(s, m, s.turn),
                            drew=z3.BoolVal(self.v.DRAW is DrawRule.ONE), **extra))

    def step_pass(self, s: StateVars, m: MoveVars) -> Step:
        """7. Stock left, but this player has drawn (draw-one): Pass(p) [R3.1];
        ``confirmed' = 0`` if confirmations need an empty boneyard, else ``+1``."""
        count = z3.BitVecVal(0, COUNT_BITS) if self.v.EMPTY else s.confirmed + 1
        return (And(self.cases(s)["pass"], m.kind == PASS, self.preds.no_tile(m)),
                self.update(s, f"pass.{m.name}", turn=self.preds.next_seat(s.turn),
                            drew=z3.BoolVal(False), confirmed=count, **self.marker_change(s)))

    def step_confirm(self, s: StateVars, m: MoveVars) -> Step:
        """8. Boneyard empty, nothing playable: Confirm(p) [R4.1, R4.2]; where RESTART, a
        confirmation that puts the mover's marker out (it was in) counts as the first of a
        new run, ``confirmed' = 1`` [R4.4]."""
        guard = And(self.cases(s)["confirm"], m.kind == CONFIRM, self.preds.no_tile(m))
        if not self.v.RESTART or self.v.fields.markers < 0:
            return guard, self.counted(s, m, "confirm")
        was_in = Or([And(s.turn == q, z3.Not(self.v.marker_out(s, q))) for q in range(self.v.P)])
        count = z3.If(was_in, z3.BitVecVal(1, COUNT_BITS), s.confirmed + 1)
        return guard, self.update(s, f"confirm.{m.name}", confirmed=count,
                                  turn=self.preds.next_seat(s.turn), drew=z3.BoolVal(False),
                                  **self.marker_change(s))

    def counted(self, s: StateVars, m: MoveVars, tag: str, marker: bool = True) -> StateVars:
        """A confirmation that counts: ``confirmed' = confirmed + 1``, the turn passes,
        ``drew' = false``, and (``marker``) the mover's marker goes out."""
        return self.update(s, f"{tag}.{m.name}", confirmed=s.confirmed + 1,
                           turn=self.preds.next_seat(s.turn), drew=z3.BoolVal(False),
                           **(self.marker_change(s) if marker else {}))

    def marker_change(self, s: StateVars) -> dict[str, Any]:
        """A pass, a confirmation or a foul puts the mover's marker out [R3.1, R4.2, R4.5]:
        the ``marks`` change, where the layout has markers."""
        return {"marks": self.layout.markers_out(s)} if self.v.fields.markers >= 0 else {}

    def steps(self, s: StateVars, m: MoveVars, top: BV | None = None) -> dict[str, Step]:
        """Every named action as (guard, post-state terms): the functional form of ``T``.

        Every action is deterministic given its move, so the post-state is a term over
        ``s`` and ``m``; proofs substitute it directly (no frame equalities to solve)."""
        key = (f"steps.{m.name}", s.name)
        if top is None and key in self.v._cache:
            return self.v._cache[key]  # type: ignore[no-any-return]
        out = {
            "domino": self.step_domino(s, m),
            "establish": self.step_establish(s, m),
            **({"lead-draw": self.step_lead_draw(s, m, top)} if self.preds.seeks() else {}),
            "lead": self.step_lead(s, m),
            "play": self.step_play(s, m),
            "foul": self.step_foul(s, m),
            "draw": self.step_draw(s, m, top),
            "pass": self.step_pass(s, m),
            "confirm": self.step_confirm(s, m),
        }
        if self.v.first_turns and self.v.fields.first >= 0:  # R2.3: 3', a first turn going on
            out["lay-on"] = self.step_lay_on(s, m)
            out["end-turn"] = self.step_end_turn(s, m)
        if top is None:
            self.v._cache[key] = out
        return out

    def actions(self, s: StateVars, m: MoveVars, s2: StateVars,
                top: BV | None = None) -> dict[str, Bool]:
        """Every named action's two-state formula (a disjunct of ``T``): its guard and
        ``s2`` equal to its post-state."""
        return {a: And(g, self.same(post, s2)) for a, (g, post) in
                self.steps(s, m, top).items()}

    def trans(self, s: StateVars, m: MoveVars, s2: StateVars, top: BV | None = None) -> Bool:
        """``T`` = ``Next``: the disjunction of the actions."""
        return Or(list(self.actions(s, m, s2, top).values()))

    def stutter(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """BMC padding: a finished round stays as it is (not a move of the model)."""
        return And(s.status != PLAYING, m.kind == STUTTER, self.preds.no_tile(m), self.same(s, s2))

    def enabled(self, s: StateVars) -> Bool:
        """Some move is possible from ``s`` (each case's moves exist): no deadlock."""
        c = self.cases(s)
        seek = [And(c["lead-draw"], z3.Not(self.v.boneyard_empty(s)))] if self.preds.seeks() \
            else []  # R3.6
        first = [c["first"]] if self.v.first_turns and self.v.fields.first >= 0 else []
        return Or(c["domino"], c["establish"], *first,
                  And(c["lead"], self.preds.lead_tile_held(s)),
                  *seek, c["play"], c["draw"], c["pass"], c["confirm"])


__all__ = ["BLOCKED", "BV", "CLOSED_CODE", "CONFIRM", "COUNT_BITS", "DOMINO", "DOMINO_MOVE",
           "DRAW", "ESTABLISH", "LEAD_CODE", "LOC_BITS", "NOWHERE", "PASS", "PLAY", "PLAYING",
           "SEAT_BITS", "STATUS_BITS", "STUTTER", "TILE_BITS", "Bool", "Encoding", "MoveVars",
           "Predicates", "StateVars", "Step", "Vocabulary", "count_is", "popcount", "xor_all"]
