"""One round judged by the one judge: where a trace breaks a property, and its replay.

:func:`judge_round` is how a round (a counterexample the search or Z3 found, the round
``dominoproof diff`` shows separating two variants) is judged again, state by state and
move by move, by :class:`~dominoproof.proofs.search.judge.Judge` -- the same judge, the
same oracle (the specification's rule book) and the declarative scoring as an explored
graph's -- and :func:`judge_step` one step of a counterexample to induction. The
evidence of a verdict (:mod:`dominoproof.render.evidence`) only presents what they find.
:func:`replay` replays a trace under a rule book (a fault's mutant), every move checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dominoproof.model.engine import Trace, initial_state
from dominoproof.model.errors import TraceError
from dominoproof.model.fast import engine_for
from dominoproof.model.moves import Move
from dominoproof.model.outcome import Scorer, outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import spec_for
from dominoproof.model.state import State, Status
from dominoproof.model.variant import Variant
from dominoproof.proofs.properties import BY_ID, Kind
from dominoproof.proofs.search.judge import Findings, Judge
from dominoproof.proofs.z3.scoring import score_reader

__all__ = ["Failure", "judge_round", "judge_step", "replay"]


@dataclass(frozen=True)
class Failure:
    """Where a round breaks a property: after ``move`` moves (0: at the deal), or at
    move number ``move`` for a transition; and why, in words."""

    move: int
    why: str
    transition: bool = False

    def where(self) -> str:
        if self.transition:
            return f"at move {self.move}"
        return "at the deal" if self.move == 0 else f"after move {self.move}"


def replay(trace: Trace, rules: RuleBook | None = None) -> list[State]:
    """Every state of ``trace`` under ``rules`` (default: the variant's own), each move
    checked against ``rules.moves``: how a mutant's counterexample is replayed."""
    rules = rules or engine_for(trace.variant)
    s = initial_state(trace.variant, trace.deal, free_draw=trace.free_draw, rules=rules)
    out = [s]
    for n, m in enumerate(trace.moves, 1):
        if m not in rules.moves(s):
            raise TraceError(f"move {n} ({m!r}) is not enabled under {type(rules).__name__}")
        s = rules.step(s, m)
        out.append(s)
    return out


def judge_round(trace: Trace, pid: str, *, scorer: Scorer | None = None) -> Failure | None:
    """The first place ``trace`` breaks ``pid``, judged against the specification's rules
    (the oracle) and the declarative scoring; the round's states are the trace's (made
    by its rule book: a fault's, for a fault's round). None if it breaks nothing there.

    State, transition and terminal properties are judged state by state and move by
    move; termination by a state that comes back (or a round stuck unfinished);
    blocked-complete by a state where R2 and R3 hold followed by more moves than a
    block needs."""
    v = trace.variant
    oracle = spec_for(v)
    seq = trace.states()
    kind = BY_ID[pid].kind
    if pid == "termination":
        return _termination(seq)
    if pid == "blocked-complete":
        return _blocked_complete(v, oracle, seq)
    if kind not in (Kind.STATE, Kind.TRANSITION, Kind.TERMINAL):
        return None
    ctx = Findings({pid})
    judge = Judge(ctx, v, oracle, scorer or outcome, score_reader)
    for i, s in enumerate(seq):
        judge.state(i, s)
        if pid in ctx.found:
            return Failure(i, ctx.found[pid].why)
        if i < len(trace.moves):
            judge.transition(i + 1, s, trace.moves[i], i + 1, seq[i + 1])
            if pid in ctx.found:
                return Failure(i + 1, ctx.found[pid].why, transition=True)
    return None


def judge_step(variant: Variant, pid: str, pre: State, move: Move, post: State, *,
               scorer: Scorer | None = None) -> str | None:
    """Why ``pre --move--> post`` breaks ``pid`` (a transition property), or ``post``
    does (any other), judged as :func:`judge_round` judges; None if it does not."""
    ctx = Findings({pid})
    judge = Judge(ctx, variant, spec_for(variant), scorer or outcome, score_reader)
    if BY_ID[pid].kind is Kind.TRANSITION:
        judge.transition(1, pre, move, 1, post)
    else:
        judge.state(1, post)
    found = ctx.found.get(pid)
    return found.why if found is not None else None


def _termination(seq: Sequence[State]) -> Failure | None:
    seen: dict[tuple[object, ...], int] = {}
    for i, s in enumerate(seq):
        k = s.key()
        if k in seen:
            j = seen[k]
            return Failure(i, f"the state after move {i} is the state after move {j}: moves "
                           f"{j + 1} to {i} can repeat for ever, so the round need not end "
                           "(R1.2, R5.1)")
        seen[k] = i
    last = seq[-1]
    if last.status is Status.PLAYING:
        return Failure(len(seq) - 1, "the round is still being played, yet no move is "
                       "enabled: it can never end (R1.2, R5.1)")
    return None


def _blocked_complete(v: Variant, oracle: RuleBook, seq: Sequence[State]) -> Failure | None:
    bound = v.players + 1
    for i, s in enumerate(seq):
        # between turns: not while a first turn goes on (R2.3), which ends it first
        if (s.status is Status.PLAYING and oracle.is_blocked(s)
                and not oracle.layout.first_turn(s.marks)):
            later = seq[i + 1:i + 1 + bound]
            if len(later) >= bound and all(x.status is not Status.BLOCKED for x in later):
                ends = " and ".join(map(str, s.open_ends))
                return Failure(i, f"after move {i} R2 and R3 hold (no hand holds a tile "
                               f"matching the ends {ends}, the boneyard is empty), but "
                               f"{bound} moves later the block is still not established "
                               f"(R4.4: at most {v.players} confirmations and the "
                               "establishment)")
    return None
