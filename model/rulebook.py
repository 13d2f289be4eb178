"""What every rule book offers: the specification's :class:`~.spec.Rules`, the engine's
:class:`~.fast.FastRules` and a fault's mutant of it. Code that plays a round or judges a
state takes a :class:`RuleBook` and never asks which one it holds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .constants import Constants
from .layout import Layout
from .moves import Move, MoveKind
from .state import State
from .tiles import TileSet
from .variant import ExtendReading, Variant

if TYPE_CHECKING:
    from .errors import IllegalMoveError

__all__ = ["Action", "Case", "RuleBook"]


class RuleBook(Protocol):
    """The constants a rule book reads, the predicates of R1-R4, the lead and ``Next``
    (documented on :class:`~.spec.Rules`)."""

    variant: Variant
    constants: Constants
    layout: Layout
    tiles: TileSet
    suit: tuple[int, ...]
    fits: tuple[int, ...]  #: R2.1: the tiles that may be laid on an end showing x
    halves: tuple[tuple[int, int], ...]
    players: int
    next_seat: tuple[int, ...]
    C: int
    fouls_possible: bool
    value: tuple[int, ...]
    fives: bool  #: R5.7: plays score the ends' count when it is a multiple of 5

    def __init__(self, variant: Variant) -> None: ...
    def playable_mask(self, s: State, player: int) -> int: ...
    def has_play(self, s: State, player: int) -> bool: ...
    def matching_mask(self, s: State) -> int: ...
    def ends_unplayable(self, s: State, reading: ExtendReading | None = None) -> bool: ...
    def boneyard_supplies_nothing(self, s: State) -> bool: ...
    def is_blocked(self, s: State, reading: ExtendReading | None = None) -> bool: ...
    def block_ready(self, s: State) -> bool: ...
    def dead_end(self, s: State) -> bool: ...
    def may_draw(self, s: State) -> bool: ...
    def is_false_confirmation(self, s: State, m: Move) -> bool: ...
    def heaviest(self, mask: int) -> int: ...
    def lightest(self, mask: int) -> int: ...
    def opening(self, hands: tuple[int, ...]) -> tuple[int, int | None]: ...
    def legal_moves(self, s: State) -> tuple[Move, ...]: ...
    def moves(self, s: State) -> tuple[Move, ...]: ...
    def action_of(self, s: State, m: Move) -> Action: ...
    def apply(self, s: State, m: Move) -> State: ...
    def successors(self, s: State) -> list[tuple[Move, State]]: ...
    def step(self, s: State, m: Move) -> State: ...
    def why_illegal(self, s: State, m: Move) -> IllegalMoveError: ...


@dataclass(frozen=True)
class Action:
    """A named action: the moves it offers when its case decides, and its effect."""

    name: str
    kind: MoveKind
    rules: tuple[str, ...]
    doc: str
    moves: Callable[[RuleBook, State], Iterator[Move]]
    effect: Callable[[RuleBook, State, Move], State]

    def __repr__(self) -> str:
        return f"<action {self.name}>"


@dataclass(frozen=True)
class Case:
    """One guard case of SEMANTICS "Actions": its number, its guard, its actions."""

    number: int
    text: str
    guard: Callable[[RuleBook, State], bool]
    actions: tuple[Action, ...]
    also: bool = False  #: its moves are offered beside those of the next case that holds
