"""Another engine's rounds, checked against a variant (``dominoproof check-log``).

A log holds rounds: each a deal and the moves played, as the other engine recorded them
(:mod:`dominoproof.proofs.analysis.logformats` reads each format into a
:class:`~dominoproof.proofs.analysis.logformats.LoggedRound`). Each round is replayed in our
engine under the variant given, from the logged deal; what the log leaves implicit is
expanded first: a move our rules force (the R4.2 confirmation of a player who cannot play,
the R4.4 establishment, the domino of R1.2) that the log skips is inserted, and counted by
kind. Per round the answer is *agrees*, or the first step where the log deviates from the
variant, with the rule ID that forbids it and both sides' view: the step as the log wrote it
and its mover, our legal moves, the open ends, and (where the log records one) the score,
logged and ours. A summary counts the deviations by rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from dominoproof.model.engine import check_deal_shape, deal_error, initial_state
from dominoproof.model.errors import IllegalMoveError, TraceError
from dominoproof.model.fast import engine_for
from dominoproof.model.layout import Access, Layout, Opens
from dominoproof.model.moves import (
    DRAW_FOR_LEAD,
    LEAD,
    Move,
    MoveKind,
    WrittenMove,
    end_named,
    resolve,
    said,
)
from dominoproof.model.outcome import outcome, side_of
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import VoidDeal
from dominoproof.model.state import Deal, State, Status
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import BlockWinner, Variant
from dominoproof.proofs.analysis.logformats import FORMATS, LoggedRound, Pass, Play, Step, read_log

#: moves our rules force, which another engine may leave out of its log
_FORCED = (MoveKind.CONFIRM, MoveKind.ESTABLISH, MoveKind.DOMINO)


#: the slot of a logged play on a number no open end shows (never a legal move)
NO_SLOT = -2


def play_of(rules: RuleBook, s: State, player: int, tile: int, shows: int | None,
            name: str | None = None, leaves: int | None = None) -> Move:
    """The play of ``tile`` by ``player`` on the open end showing ``shows`` (None: the
    lead), as our rules name it: ``Move.end`` is the slot, and the layout says which slot
    ``player`` may play on shows that number (bearing the slot name ``name``, where the
    log gives one); a matador turned to leave ``leaves`` showing, where the log says
    (R2.1). Where no slot does, the play on :data:`NO_SLOT`, which the rules reject
    (R2.1)."""
    if shows is None:
        return Move.play(player, tile, LEAD)
    try:
        return resolve(rules.layout, s, WrittenMove(MoveKind.PLAY, player, tile, shows, name,
                                                    leaves))
    except IllegalMoveError:
        return Move.play(player, tile, NO_SLOT)


def open_ends(s: State) -> list[int]:
    """The numbers the open ends show, for the report."""
    return list(s.open_ends)


def closed_by_layout(layout: Layout, s: State, slot: int, player: int) -> tuple[str, str] | None:
    """Why the layout keeps ``player`` off the open ``slot`` in ``s`` -- the rule and a
    clause: a double waiting to be covered elsewhere (R2.2), a spinner's arm waiting for
    its sides, another's train (R2.3) -- or ``None`` where it does not (the layout's own
    reading, :meth:`Layout.may_play` and :meth:`Layout.pending`, named)."""
    slots = layout.data.slots
    sl = slots[slot]
    pending = layout.pending(s.marks)
    if pending and not pending >> slot & 1:
        waiting = " and ".join(end_named(layout, s, j) for j in range(layout.width)
                               if pending >> j & 1)
        return "R2.2", f"a double on {waiting} must be covered first (doubles covered)"
    if sl.after and not all(layout.covered(s.marks, j) for j in sl.after):
        sides = " and ".join(slots[j].name for j in sl.after)
        return "R2.3", (f"{sl.name} is a spinner's arm, open once {sides} are covered "
                        "(spinner arms)")
    if not layout.may_play(slot, player, s.marks) and sl.owner is not None:
        when = (f", open to others only while P{sl.owner}'s marker is out (it is in)"
                if sl.access is Access.OWNER_OR_MARKER else "")
        return "R2.3", f"{sl.name} is P{sl.owner}'s own train{when} (markers and trains)"
    return None


def opened_by_layout(layout: Layout, s: State, slot: int, player: int) -> tuple[str, str] | None:
    """Why the layout lets ``player`` play on ``slot`` where a layout of plain lines
    would not have it: another's train whose marker is out, or a spinner's arm (R2.3);
    ``None`` for an end of a plain line."""
    sl = layout.data.slots[slot]
    if sl.owner is not None and sl.owner != player:
        return "R2.3", (f"{sl.name} is P{sl.owner}'s train, open to P{player} while "
                        f"P{sl.owner}'s marker is out (markers and trains)")
    if sl.opens is Opens.SPINNER:
        return "R2.3", f"{sl.name} is a spinner's arm, open now (spinner arms)"
    return None


def layout_cause(rules: RuleBook, s: State, m: Move, shows: int | None,
                 name: str | None) -> tuple[str, str] | None:
    """The layout rule a deviation comes from, where it does (else ``None``): a logged
    play on an open end showing ``shows`` (named ``name``) that the layout keeps its
    player off (:func:`closed_by_layout`); or a logged pass, confirmation or end of the
    log where the mover's only plays go on ends the layout opens to them and a plain
    line would not (:func:`opened_by_layout`): the other engine's layout differs."""
    layout, slots = rules.layout, rules.layout.data.slots
    pending = layout.pending(s.marks)
    if m.player != s.turn:  # a double's player plays again to cover it (double_again)
        if not (pending and layout.data.again and s.status is Status.PLAYING):
            return None
        waiting = " and ".join(end_named(layout, s, j) for j in range(layout.width)
                               if pending >> j & 1)
        return "R2.2", (f"P{s.turn} laid a double on {waiting} and plays again to cover it "
                        "(doubles covered)")
    if m.kind is MoveKind.PLAY and m.end == NO_SLOT and shows is not None:
        for i in range(layout.width):
            if s.ends[i] == shows and (name is None or slots[i].name == name):
                why = closed_by_layout(layout, s, i, m.player)
                if why is not None:
                    rule, clause = why
                    return rule, (f"P{m.player} plays on {end_named(layout, s, i)}, which the "
                                  f"layout closes to them: {clause}")
        return None
    if m.kind is MoveKind.PLAY or s.status is not Status.PLAYING:
        return None
    plays = [x for x in rules.legal_moves(s) if x.kind is MoveKind.PLAY and x.end >= 0]
    causes = [opened_by_layout(layout, s, x.end, x.player) for x in plays]
    if not plays or any(c is None for c in causes):
        return None
    rule, clause = next(c for c in causes if c is not None)
    said_plays = ", ".join(said(layout, s, x) for x in plays[:3])
    return rule, (f"P{s.turn} can play only where this layout opens an end ({said_plays}): "
                  f"{clause}; the log's layout does not open it")


def pass_of(rules: RuleBook, s: State, player: int) -> Move:
    """A logged pass as our move: the R4.2 confirmation of inability (or, in a draw-one
    game with stock left, the R3.1 pass) when it is legal, else the confirmation."""
    for m in rules.legal_moves(s):
        if m.player == player and m.kind in (MoveKind.CONFIRM, MoveKind.PASS):
            return m
    return Move.confirm(player)


def our_move(rules: RuleBook, s: State, step: Step) -> Move:
    if isinstance(step, Play):
        return play_of(rules, s, step.player, step.tile, step.shows, step.slot, step.leaves)
    if isinstance(step, Pass):
        return pass_of(rules, s, step.player)
    return step


@dataclass
class Deviation:
    """The first step where a round departs from the variant."""

    step: int  #: index of the logged step (0-based), or len(steps) at the end of the log
    rule: str  #: the rule ID our engine cites
    message: str
    logged: str  #: the logged step as the log wrote it (and, in our words, what it means)
    mover: int | None
    legal: list[str]  #: our legal moves at that point
    ends: list[int]
    score: dict[str, Any] = field(default_factory=dict)  #: both sides, when compared

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RoundCheck:
    index: int
    moves: int
    expanded: int  #: forced moves the log left implicit, inserted
    deviation: Deviation | None
    status: str  #: our status at the end ("blocked", "domino", "playing")
    game: str = "dominoproof"
    where: str = ""
    implicit: Counter[str] = field(default_factory=Counter)  #: inserted moves by kind

    @property
    def agrees(self) -> bool:
        return self.deviation is None

    def to_json(self) -> dict[str, Any]:
        return {"round": self.index, "game": self.game, "where": self.where,
                "agrees": self.agrees, "moves": self.moves, "expanded": self.expanded,
                "implicit": dict(sorted(self.implicit.items())), "status": self.status,
                "deviation": self.deviation.to_json() if self.deviation else None}


@dataclass
class LogCheck:
    variant: str
    source: str
    rounds: list[RoundCheck]
    format: str = "trace"

    @property
    def deviations(self) -> Counter[str]:
        return Counter(r.deviation.rule for r in self.rounds if r.deviation is not None)

    @property
    def implicit(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for r in self.rounds:
            total.update(r.implicit)
        return total

    @property
    def exit_code(self) -> int:
        """0 every round agrees, 1 one deviates."""
        return 0 if all(r.agrees for r in self.rounds) else 1

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "source": self.source, "log_format": self.format,
                "rounds": [r.to_json() for r in self.rounds],
                "summary": {"rounds": len(self.rounds),
                            "agree": sum(r.agrees for r in self.rounds),
                            "deviate": sum(not r.agrees for r in self.rounds),
                            "by_rule": dict(sorted(self.deviations.items())),
                            "implicit": dict(sorted(self.implicit.items()))}}


def _score_deviation(v: Variant, s: State, logged: LoggedRound) -> tuple[str, str, Any,
                                                                          Any] | None:
    """The rule a logged score departs from, a message, and both scores; None if equal.
    R5.5 when the round ends in a tie for the lowest total; R5.2 when the log gives the
    win to a side the rules do not (at a domino: the log compares totals, which R5.2 does
    only for a block); R5.4 when the winner is the same and the award is not."""
    ours = outcome(v, s)
    assert ours is not None
    sides = ours.sides
    if logged.per_side:
        mine: list[int] = list(ours.scores)
    else:
        mine = [ours.scores[side_of(sides, p)] for p in range(v.players)]
    theirs = logged.scores
    if theirs == mine:
        return None
    per = "side" if logged.per_side else "player"
    if theirs is None or len(theirs) != len(mine):
        return "R5.4", f"the log scores {len(theirs or [])} {per}s, the variant " \
            f"{len(mine)}", theirs, mine
    if ours.tied:
        return "R5.5", "a tie for the lowest total, settled otherwise than the variant's " \
            f"[scoring] tie = \"{v.scoring.tie.value}\"", theirs, mine
    def top(xs: list[int]) -> set[int]:
        """who the scores make the winner: the highest positive score(s)"""
        best = max(xs, default=0)
        return {i for i, x in enumerate(xs) if x == best} if best > 0 else set()

    if top(theirs) != top(mine):
        if s.status is Status.DOMINO:
            msg = (f"the log does not give the domino to P{s.turn}'s side (it compares the "
                   "sides' totals, which R5.2 does for a block, not for a domino)")
        elif ours.winner_by is BlockWinner.FEWEST_TILES:  # R5.2a
            return ("R5.2a", "the log gives the block to a side without the fewest tiles",
                    theirs, mine)
        else:
            msg = "the log gives the block to a side without the lowest total"
        return "R5.2", msg, theirs, mine
    rule = v.scoring.domino_award if s.status is Status.DOMINO else v.scoring.block_award
    return "R5.4", f"the winner's award is not the variant's \"{rule.value}\"", theirs, mine


def check_round(v: Variant, logged: LoggedRound, index: int) -> RoundCheck:
    """One logged round replayed under ``v``: agrees, or its first deviation."""
    where = logged.where
    check_deal_shape(logged.deal, where)
    wrong = deal_error(v, logged.deal)
    if wrong:
        raise TraceError(f"{where}: not a deal of {v.name}: {wrong}")
    rules = engine_for(v)
    try:
        s = initial_state(v, Deal.from_json(logged.deal), rules=rules)
    except VoidDeal:
        raise TraceError(f"{where}: the deal is void under {v.name}'s lead rule (nobody "
                         "holds the lead tile)") from None
    implicit: Counter[str] = Counter()
    steps = logged.steps

    def done(dev: Deviation | None, st: State) -> RoundCheck:
        return RoundCheck(index, len(steps), sum(implicit.values()), dev,
                          st.status.name.lower(), logged.game, where, implicit)

    def view(step: int, rule: str, msg: str, mover: int | None, st: State,
             ours: Move | None = None) -> Deviation:
        text = logged.written[step] if step < len(logged.written) else "(end of log)"
        ours_said = (said(rules.layout, st, ours) if ours is not None and ours.end != NO_SLOT
                     else None)
        if ours_said is not None and ours_said != text:
            text = f"{text} ({ours_said})"
        return Deviation(step, rule, msg, text, mover,
                         [said(rules.layout, st, x) for x in rules.legal_moves(st)], open_ends(st))

    def force(st: State) -> State | None:
        legal = rules.legal_moves(st)
        if len(legal) == 1 and legal[0].kind in _FORCED:
            implicit[legal[0].kind.label] += 1
            return rules.step(st, legal[0])
        return None

    for i, step in enumerate(steps):
        m = our_move(rules, s, step)
        while m not in rules.legal_moves(s) and (nxt := force(s)) is not None:
            s = nxt  # a move the rules force and the log leaves out
            m = our_move(rules, s, step)
        if s.status is not Status.PLAYING:
            return done(view(i, "R5.1", f"the round is over ({s.status.name.lower()}), yet "
                             "the log goes on", m.player, s, m), s)
        try:
            s = rules.apply(s, m)
        except IllegalMoveError as e:
            rule, msg = e.rule or "?", str(e).removeprefix(f"{e.rule}: ")
            if m.kind is MoveKind.PLAY and m.end == NO_SLOT and isinstance(step, Play) \
                    and m.player == s.turn:
                rule, msg = "R2.1", (f"no open end P{m.player} may play on shows "
                                     f"{step.shows} (open: "
                                     f"{', '.join(map(str, open_ends(s))) or 'none'})")
            elif m.kind is MoveKind.ESTABLISH:  # whatever else is wrong, R4.4 is the rule
                rule, msg = "R4.4", (f"the block is established before a whole round of "
                                     f"confirmations with the boneyard empty ({msg})")
            elif m.kind is MoveKind.PLAY and not s.table:
                leader, tile = rules.opening(s.hands)
                if tile == DRAW_FOR_LEAD:
                    rule, msg = "R3.6", (f"the lead: nobody holds the tile [lead] rule = "
                                         f"\"{v.lead.rule.value}\" names, so P{s.turn} draws "
                                         f"for it first ({msg})")
                else:
                    what = "any tile" if tile is None else Tile.from_index(tile).show()
                    rule, msg = "Terms", (f"the lead: under [lead] rule = "
                                          f"\"{v.lead.rule.value}\" P{leader} leads with "
                                          f"{what} ({msg})")
            elif m.kind is MoveKind.CONFIRM and m.player < v.players and \
                    rules.has_play(s, m.player):
                rule, msg = "R4.3", f"P{m.player} confirms while able to play ({msg})"
            # the symptom's cause, where it is the layout
            shows, name = (step.shows, step.slot) if isinstance(step, Play) else (None, None)
            cause = layout_cause(rules, s, m, shows, name)
            if cause is not None:
                rule, msg = cause[0], f"{cause[1]} (seen as {rule}: {msg})"
            return done(view(i, rule, msg, m.player, s, m), s)
    while s.status is Status.PLAYING and (nxt := force(s)) is not None:
        s = nxt
    if s.status is Status.PLAYING:
        rule, msg = "R1.1", ("the log ends while the round is still being played (a move "
                             "is legal: not a block, not a domino)")
        cause = layout_cause(rules, s, Move.confirm(s.turn), None, None)
        if cause is not None:
            rule, msg = cause[0], f"{cause[1]} (seen as {rule}: {msg})"
        return done(view(len(steps), rule, msg, None, s), s)
    if logged.scores is not None:
        found = _score_deviation(v, s, logged)
        if found is not None:
            rule, msg, theirs, mine = found
            dev = view(len(steps), rule, msg, None, s)
            dev.logged = "(final score)"
            dev.score = {"logged": theirs, "ours": mine,
                         "per": "side" if logged.per_side else "player"}
            return done(dev, s)
    return done(None, s)


def check_log(v: Variant, text: str, source: str, fmt: str = "trace") -> LogCheck:
    rounds = read_log(text, source, fmt)
    return LogCheck(v.name, source, [check_round(v, r, i) for i, r in enumerate(rounds)],
                    fmt)


__all__ = ["FORMATS", "Deviation", "LogCheck", "RoundCheck", "check_log", "check_round",
           "closed_by_layout", "layout_cause", "open_ends", "opened_by_layout",
           "pass_of", "play_of"]
