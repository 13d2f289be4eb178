"""How long a round can last: the one count both termination arguments evaluate.

A round's length is bounded by two arguments, each a weighted count of what a deal
holds -- a weight per tile in the boneyard, per tile in a hand, per tile set aside, per
seat that may still make a false declaration [R4.5], for the player having drawn
[R3.1], and for the confirmations still needed to establish a block [R4.4] (and, where
the rules have them, per marker in [R4.4] and for a first turn going on [R2.3])::

    1 + bone*|boneyard| + hand*|tiles in hands| + aside*|set aside|
      + foul*|seats without a foul| + drew*[has drawn] + (needed - confirmed)

Every deal has the same counts, and at Init nobody has drawn, fouled or confirmed, so
the count at Init is a number of the rules alone: :meth:`Measure.at_init`, the one
function both bounds come from. They differ in their weights, and so are two
quantities, named apart:

* the **ranking bound** (:func:`ranking_measure`; ``proofs/z3/ranking.py``): the weights of
  the ranking function Z3 proves termination with. Every *single move* must lower the
  count, each action on its own: a pass clears ``drew`` and may reset up to ``C``
  confirmations, so ``drew`` weighs ``C + 1`` where the draw rule is draw-one; a tile in
  a hand weighs ``C + 1`` (its play may reset ``C`` confirmations); a boneyard tile more
  than a tile in hand and ``drew`` together (a draw sets ``drew``). What ``prove``
  reports, and what makes bounded model checking complete.
* the **move-count bound** (:func:`move_count_measure`; ``graphcheck.round_bound``, which
  the exhaustive search holds the longest round to): the moves each thing in the deal
  can still cause, counted by kind. A tile in a hand is played once and ends one run of
  at most ``P`` confirmations (R4.4); a boneyard tile is also drawn, and in draw-one
  games passed on (R3.1); a foul ends a run too; and one last run and the final move.
  A total, not a per-move decrease: ``drew`` weighs one pass, runs weigh ``P``.

Where ``C = P`` and the draw rule is not draw-one (block-2p-d6, fouls-4p-d6) the two
weightings are the same and so are the bounds; elsewhere they differ. (A *lower* bound
on a blocked round's length, ``witnesses.WitnessSearch.block_lower_bound``, is a third
quantity, counted from proved facts.)
"""

from __future__ import annotations

from dataclasses import dataclass

from dominoproof.model.variant import DrawRule, FoulRule


@dataclass(frozen=True)
class Measure:
    """The weights of the count above (``needed``: the confirmations a block needs)."""

    bone: int
    hand: int
    foul: int
    drew: int
    needed: int
    aside: int = 0  #: weight of a set-aside tile (0 unless the rules can draw one)
    #: weight of a seat whose marker is in, where a confirmation putting it out restarts
    #: the run (R4.4 ``restart_on_marker``; 0 elsewhere)
    marker: int = 0
    #: weight of a first turn going on, ended by a pass (R2.3 ``first_turn =
    #: "own-train"``; 0 elsewhere); none goes on at Init
    first: int = 0

    def at_init(self, P: int, H: int, B: int, K: int) -> int:
        """The count at Init, for ``P`` players of ``H`` tiles, ``B`` in the boneyard and
        ``K`` set aside: every seat without a foul, nobody having drawn, no confirmation,
        every marker in."""
        fouls = P if self.foul else 0
        return 1 + self.bone * B + self.hand * P * H + self.foul * fouls + self.needed \
            + self.aside * K + self.marker * P


def ranking_measure(C: int, draw: DrawRule, fouls: FoulRule, *,
                    aside_drawable: bool = False, restart: bool = False,
                    first_turn: bool = False) -> Measure:
    """The ranking function's weights, for ``C`` confirmations: a play may reset up to
    ``C`` confirmations (so a tile in hand weighs ``C+1``); a pass resets them too and
    clears ``drew`` (``C+1``); a draw moves a tile from the boneyard to a hand and may set
    ``drew`` (so a boneyard tile weighs more than both); a foul resets the count. A rule
    set that lets set-aside tiles be drawn (a broken one) declares it: they then weigh
    like boneyard tiles. Where a confirmation that puts a marker out restarts the run
    (``restart``, R4.4), it may undo ``C - 2`` confirmations: a marker in weighs ``C``,
    and a play, which may take its player's marker in, weighs ``C`` more. Where a first
    turn lays several tiles (``first_turn``, R2.3), a first turn going on weighs 1 (the
    pass that ends it changes nothing else), and a play, which may start one, 1 more."""
    marker = C if restart else 0
    first = 1 if first_turn else 0
    drew = C + 1 if draw is DrawRule.ONE else 0
    hand = C + 1 + marker + first
    bone = hand + drew + 1
    foul = C + 1 if fouls is FoulRule.PENALISED else 0
    return Measure(bone, hand, foul, drew, C, bone if aside_drawable else 0, marker, first)


def move_count_measure(P: int, draw: DrawRule, fouls: FoulRule,
                       restart: bool = False, first_turn: bool = False) -> Measure:
    """The moves each thing can cause, for ``P`` players: a tile in hand, its play and the
    run of at most ``P`` confirmations it ends (``P+1``); a boneyard tile, that and its
    draw and, draw-one, the pass after it; a foul, itself and the run it ends; one last
    run (``needed = P``) and the final move (the ``1``). Where a confirmation putting a
    marker out restarts the run (``restart``, R4.4), it undoes the confirmations before it
    in the run, at most ``P - 1`` (the seat whose marker was in has not confirmed in it):
    ``P - 1`` more moves per marker in at the deal, and per play (which may take one in).
    Where a first turn lays several tiles (``first_turn``, R2.3), a play may be followed
    by the pass that ends it: one more move per tile, and one per first turn going on."""
    passes = 1 if draw is DrawRule.ONE else 0
    more = P - 1 if restart else 0
    first = 1 if first_turn else 0
    return Measure(bone=P + 2 + passes + more + first, hand=P + 1 + more + first,
                   foul=P + 1 if fouls is FoulRule.PENALISED else 0, drew=passes, needed=P,
                   marker=more, first=first)


__all__ = ["Measure", "move_count_measure", "ranking_measure"]
