"""Bounds from search for the witness questions: rounds the engine plays.

Each question of the witness table (``dominoproof witnesses``; docs/WITNESSES.md) is an
:class:`Objective` over finished rounds: the shortest blocked round (a minimum), the
largest residual count of one player at a block (a maximum, R5.3), and two questions of
existence -- a tie for the lowest total at a block (R5.5), a block established while the
boneyard still holds tiles (R4.4) -- whose value is the length of the shortest such round
found. A round found here is a real round of a real deal, kept with its moves so that it
replays in the engine: its value is an upper bound of a minimum, a lower bound of a
maximum, and a proof that a round of the kind exists.

Two searches, within a wall-clock budget (never "no limit": a budget of zero searches
nothing):

* **guided play-outs**: seeded random deals played to the end under guiding policies
  (uniform, block-seeking, lightest-tile-first: a player who keeps heavy tiles ends a
  block with a large residual), the best round kept;
* **every round of a chosen deal** (:func:`best_in_deal`): depth-first, with the deal's
  own draw order, from the deal of the best round found (or of the first play-outs),
  states already seen cut off and the objective's bound cutting the rest; when it
  finishes, the value is the deal's optimum.

The one function a faster search kernel replaces is :func:`play_rounds` (the ``rounds``
argument of :func:`search`): seeded deals played out under a policy, each round given as
its deal, its moves and its final state. The objectives, the choice of deals, the search
of a chosen deal and the replay read what it yields, whoever plays the rounds.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.engine import Trace, initial_state, shuffled_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for, is_own
from dominoproof.model.moves import Move
from dominoproof.model.outcome import outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.state import Deal, State, Status
from dominoproof.model.tiles import bits
from dominoproof.model.variant import Variant
from dominoproof.proofs import kernel
from dominoproof.proofs.analysis.policies import (
    BlockSeeking,
    Greedy,
    Policy,
    UniformRandom,
    by_value,
    pick,
)
from dominoproof.proofs.budgets import CLOCK_EVERY
from dominoproof.proofs.kernel.guided import POLICY_CODES, GuidedRounds

__all__ = ["KERNEL", "OBJECTIVES", "Found", "Lightest", "Objective", "Round", "Rounds",
           "best_in_deal", "play_rounds", "played_on", "python_rounds", "search"]

PLAYING, BLOCKED = Status.PLAYING, Status.BLOCKED

#: A finished round: its deal (the boneyard in the order it is drawn), its moves and
#: its final state.
Round = tuple[Deal, tuple[Move, ...], State]
#: ``rounds(variant, rules, policy, seed, count)``: ``count`` rounds of seeded deals
#: played out under ``policy`` by ``rules`` -- the one function a search kernel replaces.
Rounds = Callable[[Variant, RuleBook, Policy, int, int], Iterator[Round]]


class Lightest(Policy):
    """Play the lightest playable tile (R5.3 values), ties uniform: the heavy tiles stay
    in hand, so a block leaves a large residual. A guide of the witness search, not a
    policy of the statistics."""

    name = "lightest"
    summary = "play the lightest playable tile, ties uniform"

    def weights(self, rules: RuleBook, s: State, moves: tuple[Move, ...]) -> tuple[int, ...]:
        return by_value(rules, moves, min)


def play_rounds(variant: Variant, rules: RuleBook, policy: Policy, seed: int,
                count: int) -> Iterator[Round]:
    """``count`` rounds from one seeded stream: a uniformly random deal each, played to
    the end by ``rules`` with every choice drawn by ``policy`` (the moves recorded). On
    the compiled kernel where it plays them (:func:`played_on`), else the engine's own
    loop (:func:`python_rounds`): the same seed and policy give the same rounds."""
    if played_on(variant, rules, policy) == KERNEL:
        yield from GuidedRounds(variant, POLICY_CODES[policy.name], seed).play(count)
        return
    yield from python_rounds(variant, rules, policy, seed, count)


def warm(variant: Variant, rules: RuleBook | None = None) -> None:
    """Load the compiled kernel's machine code for :func:`play_rounds` (from numba's cache,
    or compiled: some seconds on a fresh installation) by playing one round, so that no
    answer's budget pays for it; nothing where the Python path plays."""
    book = rules or engine_for(variant)
    if played_on(variant, book, _RANDOM) == KERNEL:
        for _ in play_rounds(variant, book, _RANDOM, 0, 1):
            pass


def python_rounds(variant: Variant, rules: RuleBook, policy: Policy, seed: int,
                  count: int) -> Iterator[Round]:
    """:func:`play_rounds` on the engine's own loop (the specification's reading): a
    deal the rule book cannot open is skipped."""
    rng = random.Random(seed)
    rnd = rng.random
    legal, step = rules.moves, rules.step
    for _ in range(count):
        deal = shuffled_deal(variant, rng)
        try:
            s = initial_state(variant, deal, rules=rules)
        except DominoproofError:
            continue
        moves: list[Move] = []
        while s.status is PLAYING:
            ms = legal(s)
            m = ms[0] if len(ms) == 1 else pick(policy, rules, s, ms, rnd)
            moves.append(m)
            s = step(s, m)
        yield deal, tuple(moves), s


#: :func:`played_on`'s answer when the compiled kernel plays the rounds
KERNEL = "kernel"


def played_on(variant: Variant, rules: RuleBook | None = None,
              policy: Policy | None = None) -> str:
    """Who plays :func:`play_rounds`' rounds: :data:`KERNEL`, or why the Python path
    does (numba absent or turned off, a rule book that is not the variant's own -- a
    fault's mutant --, a policy the kernel does not know)."""
    why = kernel.reason(variant)
    if why:
        return why
    if rules is not None and not (is_own(rules) and rules.variant == variant):
        return (f"kernel: the rule book {type(rules).__name__} is not the variant's own: "
                "the Python path runs")
    if policy is not None and type(policy) not in _COMPILED:
        return f"kernel: no compiled policy {policy.name}: the Python path runs"
    return KERNEL


@dataclass(frozen=True)
class Objective:
    """A witness question as a value of a finished round (``None``: the round does not
    answer it). ``sense`` is ``min`` or ``max``; the questions of existence minimise
    the length of the round found (``exists``)."""

    question: str
    sense: str  #: "min", "max" or "exists" (a round of the kind, the shortest found)
    value: Callable[[Variant, State, int], int | None]
    guides: tuple[Policy, ...]

    def better(self, a: int, b: int | None) -> bool:
        return b is None or (a > b if self.sense == "max" else a < b)


def _shortest_block(v: Variant, s: State, n: int) -> int | None:
    return n if s.status is BLOCKED else None


def _max_residual(v: Variant, s: State, n: int) -> int | None:
    if s.status is not BLOCKED:
        return None
    value = v.tile_value
    return max(sum(value[t] for t in bits(h)) for h in s.hands)


def _tie(v: Variant, s: State, n: int) -> int | None:
    if s.status is not BLOCKED:
        return None
    o = outcome(v, s)
    return n if o is not None and len(o.tied) >= 2 else None


def _block_before_empty(v: Variant, s: State, n: int) -> int | None:
    return n if s.status is BLOCKED and s.boneyard else None


_RANDOM, _BLOCKER, _LIGHT = UniformRandom(), BlockSeeking(), Lightest()

#: The policies whose weights the kernel compiles (:mod:`dominoproof.proofs.kernel.guided`,
#: by name): a subclass may weigh otherwise, so the class itself is asked for.
_COMPILED: tuple[type[Policy], ...] = (UniformRandom, BlockSeeking, Lightest, Greedy)

#: The questions, by the names of ``dominoproof witness``.
OBJECTIVES: dict[str, Objective] = {o.question: o for o in (
    Objective("shortest-block", "min", _shortest_block, (_BLOCKER, _RANDOM)),
    Objective("max-residual", "max", _max_residual, (_LIGHT, _BLOCKER, _RANDOM)),
    Objective("tie", "exists", _tie, (_RANDOM, _BLOCKER, _LIGHT)),
    Objective("block-before-empty-boneyard", "exists", _block_before_empty,
              (_RANDOM, _BLOCKER)),
)}


@dataclass
class Found:
    """What the search found: the best round (or none), and how it was searched."""

    question: str
    value: int | None = None
    round: Round | None = None
    rounds: int = 0  #: play-outs played
    by: str = ""  #: how the best round was found
    deals_searched: list[tuple[str, bool, int]] = field(default_factory=list)
    #: ^ per chosen deal: its seed or origin, whether every round of it was searched, states
    seconds: float = 0.0
    played_by: str = ""  #: who played the play-outs: KERNEL, or why the Python path did

    def trace(self, variant: Variant, rules: RuleBook | None = None) -> Trace | None:
        """The best round as a trace (``rules``: a rule book other than the variant's)."""
        if self.round is None:
            return None
        deal, moves, _ = self.round
        return Trace(variant, deal, moves, rules=rules)

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "rounds": self.rounds, "by": self.by,
                "played_by": self.played_by,
                "seconds": round(self.seconds, 3),
                "deals_searched": [{"deal": d, "complete": c, "states": n}
                                   for d, c, n in self.deals_searched]}


def search(variant: Variant, question: str, seconds: float, *, rules: RuleBook | None = None,
           seed: int = 0, rounds: Rounds = play_rounds, batch: int = 50,
           deal_share: float = 0.4, deals: int = 16,
           played: Callable[[int | None], None] | None = None,
           enough: Callable[[int | None], bool] | None = None) -> Found:
    """The best round for ``question`` within ``seconds`` of wall clock: play-outs under
    each guide in turn (``batch`` rounds a turn, seeds ``seed``, ``seed + 1``, ...), then,
    for the last ``deal_share`` of the budget, every round of the deals of the best
    rounds (``deals`` of them at most, the best first). ``played(value)`` is told the
    best value when the play-outs end (so another search may start from it);
    ``enough(value)``, asked after each batch, ends the search early (the other side
    has shown the best value optimal).
    ``rules``: the rule book that plays (default the variant's own)."""
    obj = OBJECTIVES[question]
    book = rules or engine_for(variant)
    t0 = time.perf_counter()
    found = Found(question)
    found.played_by = played_on(variant, book) if rounds is play_rounds else \
        f"{getattr(rounds, '__name__', 'a rounds function')} (given)"
    if seconds <= 0:
        return found
    deadline = t0 + seconds
    playouts_end = t0 + seconds * (1 - deal_share)
    k = 0
    chosen: dict[Deal, int] = {}  # the deals of the best rounds, by their value
    while time.perf_counter() < playouts_end:
        guide = obj.guides[k % len(obj.guides)]
        for rnd in rounds(variant, book, guide, seed + k, batch):
            found.rounds += 1
            deal, moves, final = rnd
            x = obj.value(variant, final, len(moves))
            if x is not None:
                _keep(chosen, deal, x, obj, deals)
                if obj.better(x, found.value):
                    found.value, found.round = x, rnd
                    found.by = f"play-out under {guide.name} (seed {seed + k})"
            if time.perf_counter() >= playouts_end or (
                    obj.sense == "exists" and found.value is not None):
                break
        if (obj.sense == "exists" and found.value is not None) or (
                enough is not None and enough(found.value)):
            found.seconds = time.perf_counter() - t0
            return found  # a round of the kind (its existence proved), or shown optimal
        k += 1
    if played is not None:
        played(found.value)
    order = sorted(chosen, key=lambda d: -chosen[d] if obj.sense == "max" else chosen[d])
    for i, deal in enumerate(order):
        if time.perf_counter() >= deadline:
            break
        x, best, complete, states = best_in_deal(variant, book, deal, obj, found.value,
                                                 deadline)
        found.deals_searched.append((f"the deal of play-out rank {i + 1}", complete, states))
        if best is not None and x is not None and obj.better(x, found.value):
            found.value, found.round = x, (deal, best[0], best[1])
            found.by = f"every round of the deal of play-out rank {i + 1}"
    found.seconds = time.perf_counter() - t0
    return found


def _keep(chosen: dict[Deal, int], deal: Deal, x: int, obj: Objective, most: int) -> None:
    """Keep ``deal`` among the ``most`` deals of the best values seen."""
    if deal in chosen:
        if obj.better(x, chosen[deal]):
            chosen[deal] = x
        return
    chosen[deal] = x
    if len(chosen) > most:
        worst = (min if obj.sense == "max" else max)(chosen, key=chosen.__getitem__)
        del chosen[worst]


def best_in_deal(variant: Variant, rules: RuleBook, deal: Deal, obj: Objective,
                 incumbent: int | None, deadline: float
                 ) -> tuple[int | None, tuple[tuple[Move, ...], State] | None, bool, int]:
    """Every round of ``deal`` (its own draw order), depth first, for a round better than
    ``incumbent``: (the best value, its moves and final state or None, whether the search
    finished before ``deadline``, states visited). A finished search makes the value the
    deal's optimum.

    Cut-offs: a minimum (or an existence question, which minimises the length) cuts a
    path that cannot end shorter than the best so far, and a state already reached in
    as few moves; a maximum of the residual cuts a state whose largest hand plus the
    whole boneyard (a hand grows only by drawing, R3.1) cannot beat the best, and a state
    already searched (the residual is the final state's alone)."""
    s0 = initial_state(variant, deal, rules=rules)
    legal, step = rules.moves, rules.step
    value = variant.tile_value
    maximise = obj.sense == "max"
    best = incumbent
    best_path: tuple[tuple[Move, ...], State] | None = None
    seen: dict[tuple[object, ...], int] = {}
    path: list[Move] = []
    nodes = 0
    stopped = False

    def worth(h: int) -> int:
        return sum(value[t] for t in bits(h))

    def visit(s: State) -> None:
        nonlocal best, best_path, nodes, stopped
        nodes += 1
        if nodes % CLOCK_EVERY == 0 and time.perf_counter() > deadline:
            stopped = True
        if stopped:
            return
        d = len(path)
        if s.status is not PLAYING:
            x = obj.value(variant, s, d)
            if x is not None and obj.better(x, best):
                best, best_path = x, (tuple(path), s)
            return
        key = s.key()
        if maximise:
            if key in seen:
                return
            seen[key] = d
            if best is not None and max(worth(h) for h in s.hands) + worth(s.boneyard) <= best:
                return
        else:
            if best is not None and d + 1 >= best:
                return
            if seen.get(key, d + 1) <= d:
                return
            seen[key] = d
        for m in legal(s):
            path.append(m)
            visit(step(s, m))
            path.pop()
            if stopped:
                return

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * len(variant.tile_value) + 1000))
    visit(s0)
    return best, best_path, not stopped, len(seen)
