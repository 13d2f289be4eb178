"""Play policies: how the players choose among their legal moves, as named values.

A policy maps a state and its legal moves to a probability distribution over those
moves. The exact figures (:mod:`dominoproof.stats`, a dynamic programme over the state
graph) read that distribution as fractions; the Monte-Carlo figures
(:mod:`dominoproof.simulate`, ``dominoproof simulate --policy``) draw from it. Both go
through :meth:`Policy.weights`, so the two readings cannot drift apart.

Chance is not a policy's choice. The deal is the first chance step; in a draw game the
tile drawn is the second (R3.1): when every legal move is a draw, each is equally likely
whatever the policy (:func:`is_chance`). With the deal's own draw order there is only
one (the top of the stack); with a free draw order, every boneyard tile is drawn with
equal probability. A policy never reads the draw order (``State.stack``): it is hidden
from the players, and the exact figures in a free draw order rely on it.

=================  ==========================================================================
``random``         every legal move equally likely (the engine's own ``playout``)
``greedy``         dump the heaviest tile: among the legal plays, those of the tile of highest
                   value (the variant's tile values, R5.3); ties uniform
``block-seeking``  among the legal plays, those leaving the most opponents unable to play,
                   then the fewest tiles in any hand matching an open end; ties uniform
=================  ==========================================================================

``greedy`` and ``block-seeking`` play whenever they can: with fouls possible (R4.5)
they never make a false declaration. Where a player has no play the move is forced
(a confirmation, a pass, the establishment, the domino) or chance (a draw). Moves are
opaque values from ``Rules.moves``: a policy reads only a move's kind, its tile, and the
state the rules make of it (``Rules.step``), never how an end is named.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction

from dominoproof.model.engine import initial_state, random_rounds, shuffled_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for
from dominoproof.model.moves import Move, MoveKind
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.state import State, Status
from dominoproof.model.variant import Variant

__all__ = [
    "POLICIES",
    "BlockSeeking",
    "Greedy",
    "Policy",
    "UniformRandom",
    "help_list",
    "is_chance",
    "move_distribution",
    "pick",
    "policy_named",
    "policy_playout",
    "policy_rounds",
    "side_of_seat",
]

PLAY, DRAW = MoveKind.PLAY, MoveKind.DRAW
PLAYING = Status.PLAYING


class Policy(abc.ABC):
    """How every player chooses a move (all seats follow the same policy).

    :meth:`weights` gives a non-negative whole weight per legal move, not all zero; the
    probability of a move is its weight over the sum. It is called only on a
    *decision*: a state with two or more legal moves that are not draws.
    """

    name: str  #: the name on the command line (``--policy NAME``)
    summary: str  #: one line for tables and ``--help``
    uniform: bool = False  #: every weight is 1 (the fast path of the engine)

    @abc.abstractmethod
    def weights(self, rules: RuleBook, s: State, moves: tuple[Move, ...]) -> tuple[int, ...]:
        """A whole weight per move of ``moves`` (the legal moves of ``s``, in order)."""

    def __repr__(self) -> str:
        return f"policy_named({self.name!r})"


class UniformRandom(Policy):
    """``random``: every legal move equally likely (false declarations included, where
    the variant's fouls make them legal, R4.5)."""

    name = "random"
    summary = "every legal move equally likely"
    uniform = True

    def weights(self, rules: RuleBook, s: State, moves: tuple[Move, ...]) -> tuple[int, ...]:
        return (1,) * len(moves)


class Greedy(Policy):
    """``greedy``: dump the heaviest tile. Among the legal plays, the plays of the tiles
    of highest value (``variant.tile_value``: pips, or the variant's special values,
    R5.3) are equally likely: two tiles of that value, or one tile that fits either
    end, share the probability evenly. The lead is a play like any other."""

    name = "greedy"
    summary = "play the heaviest playable tile, ties uniform"

    def weights(self, rules: RuleBook, s: State, moves: tuple[Move, ...]) -> tuple[int, ...]:
        return by_value(rules, moves, max)


def by_value(rules: RuleBook, moves: tuple[Move, ...],
             choose: Callable[[list[int]], int]) -> tuple[int, ...]:
    """Weight 1 for each play of a tile whose value is ``choose``'s pick of the playable
    values (``max``: the heaviest, ``min``: the lightest), 0 for the other moves; a
    state with no play is uniform over what is left (the move is forced)."""
    value = rules.value
    played = [value[m.tile] for m in moves if m.kind is PLAY]
    if not played:
        return (1,) * len(moves)
    best = choose(played)
    return tuple(int(m.kind is PLAY and value[m.tile] == best) for m in moves)


def side_of_seat(variant: Variant) -> list[int]:
    """Per seat, the index of its side in ``variant.teams`` (R5.2)."""
    side = {p: i for i, team in enumerate(variant.teams) for p in team}
    return [side[p] for p in range(variant.players)]


class BlockSeeking(Policy):
    """``block-seeking``: play towards a block (R1.1) that the opponents suffer.

    For each legal play, take the state it leads to (``Rules.step``) and score it by

    1. the number of *opponents* (seats on another side: another team where teams are
       compared, every other seat otherwise) with no playable tile on the layout then
       (``Rules.playable_mask`` empty): higher is better;
    2. the number of tiles, in every hand (the mover's own included), that carry a
       number showing on an open end (``Rules.matching_mask``): lower is better, since
       R2 needs it to reach zero.

    The plays with the best score, compared first by 1 then by 2, are equally likely.
    It reads every hand: a perfect-information policy, a bound on what a block-seeker
    can do, not a model of a human player.
    """

    name = "block-seeking"
    summary = "leave most opponents unable to play, then fewest tiles matching an end"

    def __init__(self) -> None:
        self._opponents: dict[Variant, tuple[tuple[int, ...], ...]] = {}

    def opponents(self, variant: Variant) -> tuple[tuple[int, ...], ...]:
        """Per seat, the seats of the other sides."""
        got = self._opponents.get(variant)
        if got is None:
            side = side_of_seat(variant)
            got = tuple(tuple(q for q in range(variant.players) if side[q] != side[p])
                        for p in range(variant.players))
            self._opponents[variant] = got
        return got

    def score(self, rules: RuleBook, s: State, m: Move) -> tuple[int, int]:
        """The play ``m``'s score: (opponents unable to play, -tiles matching an end)."""
        after = rules.step(s, m)
        unable = sum(1 for q in self.opponents(rules.variant)[m.player]
                     if not rules.playable_mask(after, q))
        return unable, -rules.matching_mask(after).bit_count()

    def weights(self, rules: RuleBook, s: State, moves: tuple[Move, ...]) -> tuple[int, ...]:
        scores = [self.score(rules, s, m) if m.kind is PLAY else None for m in moves]
        best = max((x for x in scores if x is not None), default=None)
        if best is None:
            return (1,) * len(moves)
        return tuple(int(x == best) for x in scores)


#: The policies by name, in the order they are listed.
POLICIES: Mapping[str, Policy] = {p.name: p for p in (UniformRandom(), Greedy(),
                                                      BlockSeeking())}


def help_list() -> tuple[str, list[tuple[str, str]]]:
    """The policies as a command's help lists them, with their summaries."""
    return "Policies (--policy NAME)", [(p.name, p.summary) for p in POLICIES.values()]


def policy_named(name: str | Policy) -> Policy:
    """The policy called ``name`` (a :class:`Policy` is returned as it is); an unknown
    name is a :class:`DominoproofError` listing the policies."""
    if isinstance(name, Policy):
        return name
    got = POLICIES.get(name)
    if got is None:
        shown = name if name.isprintable() else repr(name)[1:-1]
        raise DominoproofError(f"--policy {shown}: no such policy (allowed: "
                               f"{', '.join(POLICIES)})")
    return got


def is_chance(moves: tuple[Move, ...]) -> bool:
    """Whether the next step is chance, not a choice: every legal move is a draw (R3.1)."""
    return moves[0].kind is DRAW


def move_distribution(policy: Policy, rules: RuleBook, s: State,
                      moves: tuple[Move, ...]) -> tuple[Fraction, ...]:
    """The probability of each legal move of ``s`` (``moves``, in order), exactly: uniform
    over the draws at a chance step, the policy's weights over their sum otherwise."""
    k = len(moves)
    if k == 1:
        return (Fraction(1),)
    if policy.uniform or is_chance(moves):
        p = Fraction(1, k)
        return (p,) * k
    w = policy.weights(rules, s, moves)
    total = sum(w)
    if len(w) != k or total <= 0 or min(w) < 0:
        raise ValueError(f"policy {policy.name}: weights {w!r} for {k} moves")
    return tuple(Fraction(x, total) for x in w)


def pick(policy: Policy, rules: RuleBook, s: State, moves: tuple[Move, ...],
         rnd: Callable[[], float]) -> Move:
    """One move of ``moves`` drawn with the probabilities of :func:`move_distribution`
    (``rnd``: uniform in [0, 1))."""
    k = len(moves)
    if k == 1:
        return moves[0]
    if policy.uniform or is_chance(moves):
        return moves[int(rnd() * k)]
    w = policy.weights(rules, s, moves)
    x = int(rnd() * sum(w))
    for m, weight in zip(moves, w, strict=True):
        if x < weight:
            return m
        x -= weight
    raise ValueError(f"policy {policy.name}: weights {w!r} for {k} moves")  # pragma: no cover


def policy_playout(rules: RuleBook, policy: Policy, s: State,
                   rnd: Callable[[], float]) -> tuple[State, int]:
    """Play ``s`` to the end of the round, every move drawn by :func:`pick`: the final
    state and the number of moves (with ``random``, the very moves of the engine's
    ``playout`` from the same stream)."""
    legal, step = rules.moves, rules.step
    n = 0
    while s.status is PLAYING:
        moves = legal(s)
        s = step(s, moves[0] if len(moves) == 1 else pick(policy, rules, s, moves, rnd))
        n += 1
    return s, n


def policy_rounds(variant: Variant, policy: str | Policy, n: int,
                  seed: int) -> Iterator[tuple[State, int]]:
    """``n`` rounds from one seeded stream, each a uniformly random deal played under
    ``policy``: (final state, number of moves) each. ``random`` is the engine's own
    :func:`~dominoproof.model.engine.random_rounds`, untouched (the fast path)."""
    chosen = policy_named(policy)
    rules = engine_for(variant)
    if chosen.uniform:
        yield from random_rounds(variant, n, seed, rules)
        return
    rng = random.Random(seed)
    rnd = rng.random
    for _ in range(n):
        deal = shuffled_deal(variant, rng)
        yield policy_playout(rules, chosen, initial_state(variant, deal, rules=rules), rnd)
