"""Another engine's rounds, checked against a variant (``dominoproof check-log``).

A log holds rounds: each a deal and the moves played, as the other engine recorded
them. Each round is replayed in our engine under the variant given, from the logged deal;
what the log leaves implicit is expanded first: a move our rules force (the R4.2
confirmation of a player who cannot play, the R4.4 establishment, the domino of R1.2)
that the log skips is inserted, and counted. Per round the answer is *agrees*, or the
first step where the log deviates from the variant, with the rule ID that forbids it and
both sides' view: the logged move and its mover, our legal moves, the open ends, and
(where the log records one) the score. A summary counts the deviations by rule.

Formats: ``trace`` (dominoproof's own trace JSON, a list of them, or JSON Lines of them;
only the deal and the moves are read, the variant is the one given).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.engine import Deal, check_deal_shape, deal_error, initial_state
from dominoproof.model.errors import DominoproofError, IllegalMoveError, TraceError, brief
from dominoproof.model.layout import Layout, layout_of
from dominoproof.model.moves import LEAD, Move, MoveKind, WrittenMove, read_move, resolve
from dominoproof.model.reading import read_json
from dominoproof.model.rules import rules_for
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import Variant

FORMATS = ("trace",)
#: moves our rules force, which another engine may leave out of its log
_FORCED = (MoveKind.CONFIRM, MoveKind.ESTABLISH, MoveKind.DOMINO)


@dataclass
class Deviation:
    """The first step where a round departs from the variant."""

    step: int  #: index of the logged move (0-based), or len(moves) at the end of the log
    rule: str  #: the rule ID our engine cites
    message: str
    logged: str  #: the logged move (or what the log says), in words
    mover: int | None
    legal: list[str]  #: our legal moves at that point
    ends: list[int]
    score: dict[str, Any] = field(default_factory=dict)  #: both sides, when compared

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "rule": self.rule, "message": self.message,
                "logged": self.logged, "mover": self.mover, "legal": self.legal,
                "ends": self.ends, "score": self.score}


@dataclass
class RoundCheck:
    index: int
    moves: int
    expanded: int  #: forced moves the log left implicit, inserted
    deviation: Deviation | None
    status: str  #: our status at the end ("blocked", "domino", "playing")

    @property
    def agrees(self) -> bool:
        return self.deviation is None

    def to_json(self) -> dict[str, Any]:
        return {"round": self.index, "agrees": self.agrees, "moves": self.moves,
                "expanded": self.expanded, "status": self.status,
                "deviation": self.deviation.to_json() if self.deviation else None}


@dataclass
class LogCheck:
    variant: str
    source: str
    rounds: list[RoundCheck]

    @property
    def deviations(self) -> Counter[str]:
        return Counter(r.deviation.rule for r in self.rounds if r.deviation is not None)

    @property
    def exit_code(self) -> int:
        """0 every round agrees, 1 one deviates."""
        return 0 if all(r.agrees for r in self.rounds) else 1

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "source": self.source,
                "rounds": [r.to_json() for r in self.rounds],
                "summary": {"rounds": len(self.rounds),
                            "agree": sum(r.agrees for r in self.rounds),
                            "deviate": sum(not r.agrees for r in self.rounds),
                            "by_rule": dict(sorted(self.deviations.items()))}}


def read_rounds(text: str, source: str, fmt: str = "trace") -> list[dict[str, Any]]:
    """The rounds of a log: a JSON document (one round, or a list), or JSON Lines."""
    if fmt not in FORMATS:
        raise DominoproofError(f"--format {brief(fmt)}: unknown (allowed: "
                               f"{', '.join(FORMATS)})")
    stripped = text.strip()
    if not stripped:
        raise TraceError(f"{source}: the log is empty")
    try:
        data = read_json(stripped, source, TraceError)
        rounds = data if isinstance(data, list) else [data]
    except TraceError as e:
        if "not JSON" not in str(e) or "\n" not in stripped:
            raise
        rounds = [read_json(line, f"{source}: line {i}", TraceError)  # JSON Lines
                  for i, line in enumerate(stripped.splitlines(), 1) if line.strip()]
    for i, r in enumerate(rounds):
        if not isinstance(r, dict) or "deal" not in r or not isinstance(r.get("moves"), list):
            raise TraceError(f"{source}: round {i}: not a round (allowed: an object with a "
                             "deal and a list of moves)")
    return rounds


def check_round(v: Variant, data: dict[str, Any], index: int, source: str) -> RoundCheck:
    """One logged round replayed under ``v``: agrees, or its first deviation."""
    where = f"{source}: round {index}"
    check_deal_shape(data["deal"], where)
    wrong = deal_error(v, data["deal"])
    if wrong:
        raise TraceError(f"{where}: not a deal of {v.name}: {wrong}")
    moves = []
    for i, m in enumerate(data["moves"]):
        try:
            moves.append(read_move(m))
        except ValueError as e:
            raise TraceError(f"{where}: moves[{i}]{e}") from None
    rules = rules_for(v)
    layout = layout_of(v)
    s = initial_state(v, Deal.from_json(data["deal"]), rules=rules)
    expanded = 0

    def view(step: int, rule: str, msg: str, logged: str, mover: int | None,
             st: State) -> Deviation:
        return Deviation(step, rule, msg, logged, mover,
                         [_shown(layout, st, x) for x in rules.legal_moves(st)],
                         list(st.open_ends))

    def read(w: WrittenMove, st: State) -> Move | None:
        """The logged move in ``st`` (None: a play on a number no open end shows)."""
        try:
            return resolve(layout, st, w)
        except IllegalMoveError:
            return None

    def force(st: State) -> State | None:
        legal = rules.legal_moves(st)
        if len(legal) == 1 and legal[0].kind in _FORCED:
            return rules.step(st, legal[0])
        return None

    for i, w in enumerate(moves):
        while read(w, s) not in rules.legal_moves(s):
            nxt = force(s)
            if nxt is None:
                break
            s, expanded = nxt, expanded + 1
        if s.status is not Status.PLAYING:
            dev = view(i, "R5.1", f"the round is over ({s.status.name.lower()}), yet the "
                       "log goes on", w.show(), w.player, s)
            return RoundCheck(index, len(moves), expanded, dev, s.status.name.lower())
        try:
            m = resolve(layout, s, w)
            s = rules.apply(s, m)
        except IllegalMoveError as e:
            rule, msg = e.rule or "?", str(e).removeprefix(f"{e.rule}: ")
            if w.kind is MoveKind.ESTABLISH:  # whatever else is wrong, R4.4 is the rule
                rule, msg = "R4.4", (f"the block is established before a whole round of "
                                     f"confirmations with the boneyard empty ({msg})")
            elif w.kind is MoveKind.CONFIRM and w.player < v.players and \
                    rules.has_play(s, w.player):
                rule, msg = "R4.3", f"P{w.player} confirms while able to play ({msg})"
            dev = view(i, rule, msg, w.show(), w.player, s)
            return RoundCheck(index, len(moves), expanded, dev, s.status.name.lower())
    while s.status is Status.PLAYING:
        nxt = force(s)
        if nxt is None:
            break
        s, expanded = nxt, expanded + 1
    if s.status is Status.PLAYING:
        dev = view(len(moves), "R1.1", "the log ends while the round is still being played "
                   "(a move is legal: not a block, not a domino)", "(end of log)", None, s)
        return RoundCheck(index, len(moves), expanded, dev, "playing")
    logged_scores = (data.get("final") or {}).get("outcome", {}).get("scores") \
        if isinstance(data.get("final"), dict) else None
    if logged_scores is not None:
        from dominoproof.model.outcome import outcome

        ours = outcome(v, s)
        mine = list(ours.scores) if ours is not None else None
        if mine != logged_scores:
            dev = view(len(moves), "R5.4", "the logged score is not the variant's",
                       "(final score)", None, s)
            dev.score = {"logged": logged_scores, "ours": mine}
            return RoundCheck(index, len(moves), expanded, dev, s.status.name.lower())
    return RoundCheck(index, len(moves), expanded, None, s.status.name.lower())


def check_log(v: Variant, text: str, source: str, fmt: str = "trace") -> LogCheck:
    rounds = read_rounds(text, source, fmt)
    return LogCheck(v.name, source, [check_round(v, r, i, source)
                                     for i, r in enumerate(rounds)])


def _shown(layout: Layout, s: State, m: Move) -> str:
    """A legal move as a person writes it (a play's end by the number it shows)."""
    if m.kind is MoveKind.PLAY and m.end != LEAD:
        return f"P{m.player} plays {Tile.from_index(m.tile).show()} on {s.ends[m.end]}"
    return str(m)


__all__ = ["FORMATS", "Deviation", "LogCheck", "RoundCheck", "check_log", "check_round",
           "read_rounds"]
