"""The rules as named actions, each a guard and an effect (docs/SEMANTICS.md "Actions").

This is the reading of the rules a person checks against SEMANTICS.md line by
line. The guard cases come in the order SEMANTICS gives them; in a state, the
first case whose guard holds decides the enabled moves, and ``Next`` is the
disjunction of the moves its actions offer (:meth:`Rules.moves
<dominoproof.model.rules.Rules.moves>`). Each action's effect lists the
variables it changes; every other variable is unchanged (TLA+'s ``UNCHANGED``).

====  ==========  =========================================  ======================
case  action      guard (and no earlier one)                 rules
====  ==========  =========================================  ======================
1     (none)      the round is over                          R1.1, R5.1
2     Domino      the mover's hand is empty                  Terms
3     Establish   ``block_ready``                            R4.4, R5.1
4     Lead        no slot is open yet                        Terms
5     Play, Foul  the mover has a playable tile              R2.1, R4.3, R4.5
6     Draw        stock left, drawing allowed, not drawn     R3.1
7     Pass        stock left (draw-one: drawn already)       R3.1
8     Confirm     otherwise: nothing playable, no stock      R4.1, R4.2
====  ==========  =========================================  ======================

The parameters (``C``, ``EMPTY``, ``DRAW``, ``FOULS``, the lead, the layout's slots)
are read from the rule book's constants; the functions here are the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .moves import LEAD, Move, MoveKind
from .state import State, Status
from .tiles import bits
from .variant import DrawRule, FoulRule

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["ACTIONS", "ACTIONS_BY_NAME", "CASES", "Action", "Case"]

PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind


@dataclass(frozen=True)
class Action:
    """A named action: the moves it offers when its case decides, and its effect."""

    name: str
    kind: MoveKind
    rules: tuple[str, ...]
    doc: str
    moves: Callable[[Rules, State], Iterator[Move]]
    effect: Callable[[Rules, State, Move], State]

    def __repr__(self) -> str:
        return f"<action {self.name}>"


@dataclass(frozen=True)
class Case:
    """One guard case of SEMANTICS "Actions": its number, its guard, its actions."""

    number: int
    text: str
    guard: Callable[[Rules, State], bool]
    actions: tuple[Action, ...]


# ---------------------------------------------------------------------------
# Effects shared by several actions
# ---------------------------------------------------------------------------


def _with_hand(s: State, p: int, hand: int) -> tuple[int, ...]:
    return (*s.hands[:p], hand, *s.hands[p + 1:])


def _laid(r: Rules, s: State, m: Move, ends: tuple[int, ...], marks: int) -> State:
    """A tile leaves the mover's hand for the table and the layout is ``ends``, ``marks``;
    the run of confirmations ends, ``drew' = false``, and the turn passes clockwise
    unless the hand is now empty (a Domino follows) or the mover laid a double that
    takes tiles where the layout says its player plays again [R2.2]."""
    p = m.player
    hand = s.hands[p] & ~(1 << m.tile)
    a, b = r.halves[m.tile]
    again = (a == b and m.end != LEAD and r.layout.data.again
             and r.layout.data.slots[m.end].double_takes > 0)
    return s._replace(hands=_with_hand(s, p, hand), table=s.table | 1 << m.tile, ends=ends,
                      marks=marks, turn=r.next_seat[p] if hand and not again else p,
                      confirmed=0, drew=False)


def _marker_out(r: Rules, s: State, p: int) -> int:
    """The marks after seat ``p`` passes or confirms: their marker goes out (trains)."""
    return r.layout.with_marker(s.marks, p, True)


# ---------------------------------------------------------------------------
# The actions
# ---------------------------------------------------------------------------


def _domino_moves(r: Rules, s: State) -> Iterator[Move]:
    yield Move.domino(s.turn)


def _domino(r: Rules, s: State, m: Move) -> State:
    """``status' = DOMINO``."""
    return s._replace(status=Status.DOMINO)


def _establish_moves(r: Rules, s: State) -> Iterator[Move]:
    yield Move.establish(s.turn)


def _establish(r: Rules, s: State, m: Move) -> State:
    """``status' = BLOCKED`` [R5.1]."""
    return s._replace(status=Status.BLOCKED)


def _lead_moves(r: Rules, s: State) -> Iterator[Move]:
    """The tile(s) the lead rule allows, if the mover is the leader it names."""
    leader, tile = r.opening(s.hands)
    if leader != s.turn:
        return
    for t in bits(s.hands[leader]) if tile is None else (tile,):
        yield Move(PLAY, leader, t, LEAD)


def _lead(r: Rules, s: State, m: Move) -> State:
    """The slots opened by the lead show the halves of ``t = a-b`` (a double also opens
    a spinner's arms, and takes its tiles where the layout says so)."""
    a, b = r.halves[m.tile]
    return _laid(r, s, m, *r.layout.open(a, b, s.marks))


def _play_moves(r: Rules, s: State) -> Iterator[Move]:
    """Every playable tile on every slot the mover may play on that it matches [R2.1]."""
    p, hand, ends = s.turn, s.hands[s.turn], s.ends
    for slot in r.layout.targets(ends, p, s.marks):
        for t in bits(hand & r.suit[ends[slot]]):
            yield Move(PLAY, p, t, slot)


def _play(r: Rules, s: State, m: Move) -> State:
    """The slot played on shows the tile's other half, ``other(t, x)``; the layout's
    marks follow (a pending slot covered, a double's toes, one's own train's marker)."""
    return _laid(r, s, m, *r.layout.extend(s.ends, s.marks, m.end, r.halves[m.tile],
                                           m.player))


def _foul_moves(r: Rules, s: State) -> Iterator[Move]:
    """Where fouls are penalised, the boneyard is empty and the mover has no foul yet:
    a false declaration of inability [R4.5]."""
    p = s.turn
    if r.constants.FOULS is FoulRule.PENALISED and not s.boneyard and not s.fouls >> p & 1:
        yield Move.confirm(p)


def _foul(r: Rules, s: State, m: Move) -> State:
    """``fouls' = fouls + p``, the run ends, the turn passes, ``drew' = false``, and the
    player's marker goes out (they declared they cannot play)."""
    return s._replace(fouls=s.fouls | 1 << m.player, confirmed=0,
                      turn=r.next_seat[m.player], drew=False,
                      marks=_marker_out(r, s, m.player))


def _draw_moves(r: Rules, s: State) -> Iterator[Move]:
    """The top of the stack, or any boneyard tile when the draw order is free."""
    for t in (s.stack[:1] if s.stack is not None else bits(s.boneyard)):
        yield Move.draw(s.turn, t)


def _draw(r: Rules, s: State, m: Move) -> State:
    """The tile goes from the boneyard to the hand; ``drew' = (DRAW = one)``."""
    bit = 1 << m.tile
    return s._replace(hands=_with_hand(s, m.player, s.hands[m.player] | bit),
                      boneyard=s.boneyard & ~bit, drew=r.constants.DRAW is DrawRule.ONE,
                      stack=s.stack[1:] if s.stack is not None else None)


def _pass_moves(r: Rules, s: State) -> Iterator[Move]:
    yield Move.pass_(s.turn)


def _pass(r: Rules, s: State, m: Move) -> State:
    """The turn passes; ``confirmed' = 0`` if confirmations need an empty boneyard, else
    one more; the player's marker goes out (trains)."""
    return s._replace(turn=r.next_seat[m.player], drew=False,
                      confirmed=0 if r.constants.EMPTY else s.confirmed + 1,
                      marks=_marker_out(r, s, m.player))


def _confirm_moves(r: Rules, s: State) -> Iterator[Move]:
    yield Move.confirm(s.turn)


def _confirm(r: Rules, s: State, m: Move) -> State:
    """One more confirmation in the run (the first proposes the block), the turn passes,
    the player's marker goes out (trains: their train is open to everyone)."""
    return s._replace(confirmed=s.confirmed + 1, turn=r.next_seat[m.player], drew=False,
                      marks=_marker_out(r, s, m.player))


DOMINO_ACTION = Action("Domino", DOMINO, ("Terms",),
                       "the player to move has emptied their hand: the round ends",
                       _domino_moves, _domino)
ESTABLISH_ACTION = Action("Establish", ESTABLISH, ("R4.4", "R5.1"),
                          "after every needed confirmation, with the boneyard empty, the "
                          "block is established and the round ends",
                          _establish_moves, _establish)
LEAD_ACTION = Action("Lead", PLAY, ("Terms",),
                     "the opening tile, by the player and with the tile the lead rule names",
                     _lead_moves, _lead)
PLAY_ACTION = Action("Play", PLAY, ("R2.1", "R4.3"),
                     "lay a tile carrying the number an open end shows; a player who can "
                     "play must", _play_moves, _play)
FOUL_ACTION = Action("Foul", CONFIRM, ("R4.5",),
                     "a false declaration of inability by a player who could play, where the "
                     "variant makes it a recorded foul", _foul_moves, _foul)
DRAW_ACTION = Action("Draw", DRAW, ("R3.1",),
                     "a player who cannot play takes a boneyard tile (the top one, or any "
                     "when the draw order is free)", _draw_moves, _draw)
PASS_ACTION = Action("Pass", PASS, ("R3.1",),
                     "draw-one games: the drawn tile does not fit, the turn passes",
                     _pass_moves, _pass)
CONFIRM_ACTION = Action("Confirm", CONFIRM, ("R4.1", "R4.2"),
                        "with the boneyard supplying nothing, a player who cannot play "
                        "confirms it (the first of a run proposes the block)",
                        _confirm_moves, _confirm)

CASES: tuple[Case, ...] = (
    Case(1, "status != PLAYING", lambda r, s: s.status is not Status.PLAYING, ()),
    Case(2, "hand[p] = {}", lambda r, s: not s.hands[s.turn], (DOMINO_ACTION,)),
    Case(3, "block_ready", lambda r, s: r.block_ready(s), (ESTABLISH_ACTION,)),
    Case(4, "no slot open", lambda r, s: not s.led, (LEAD_ACTION,)),
    Case(5, "playable(p) != {}", lambda r, s: r.playable_mask(s, s.turn) != 0,
         (PLAY_ACTION, FOUL_ACTION)),
    Case(6, "boneyard != {}, DRAW != none, not drew",
         lambda r, s: bool(s.boneyard) and r.constants.DRAW is not DrawRule.NONE and not s.drew,
         (DRAW_ACTION,)),
    Case(7, "boneyard != {}", lambda r, s: bool(s.boneyard), (PASS_ACTION,)),
    Case(8, "otherwise", lambda r, s: True, (CONFIRM_ACTION,)),
)

ACTIONS: tuple[Action, ...] = (LEAD_ACTION, PLAY_ACTION, DRAW_ACTION, PASS_ACTION,
                               CONFIRM_ACTION, FOUL_ACTION, ESTABLISH_ACTION, DOMINO_ACTION)
ACTIONS_BY_NAME: dict[str, Action] = {a.name: a for a in ACTIONS}
